/* campaign_job.c - a worker's campaign job (campaign_job.h,
 * docs/protocol.md "Job"): the model loaded and hash-checked, the job's
 * mutants re-derived from their ids, mf_engine_check run on them, one
 * verdict per mutant into a Result. It does not touch sockets
 * (farm_worker.c hands the job over and sends the frame). */
#include "campaign_job.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "job_model.h"
#include "mutate.h"
#include "sim.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct {
    const char *id;
    int ix; /* index in the job */
} id_ix;

typedef struct {
    id_ix *sorted;     /* the job's ids, sorted */
    int n;
    mf_mutant **found; /* per job index: the derived mutant, or NULL */
} derive_ctx;

static int cmp_id_ix(const void *a, const void *b)
{
    return strcmp(((const id_ix *)a)->id, ((const id_ix *)b)->id);
}

/* A copy of what the enumeration shows us only during the callback. */
static mf_mutant *copy_mutant(const mf_mutant *mu)
{
    mf_mutant *c = mf_xcalloc(1, sizeof *c);
    *c = *mu;
    c->arena = mf_arena_new();
    c->site = mf_arena_strdup(c->arena, mu->site ? mu->site : "");
    c->repl = mf_arena_strdup(c->arena, mu->repl ? mu->repl : "");
    c->desc = mf_arena_strdup(c->arena, mu->desc ? mu->desc : "");
    c->why = mu->why ? mf_arena_strdup(c->arena, mu->why) : NULL;
    c->dup_of = mu->dup_of ? mf_arena_strdup(c->arena, mu->dup_of) : NULL;
    if (mu->new_item) {
        mf_item *it = mf_arena_alloc(c->arena, sizeof *it);
        mf_item_copy(c->arena, it, mu->new_item);
        c->new_item = it;
    }
    return c;
}

static int derive_pick(const char *id, void *arg)
{
    const derive_ctx *d = arg;
    id_ix key = {id, 0};
    return bsearch(&key, d->sorted, (size_t)d->n, sizeof key, cmp_id_ix) !=
           NULL;
}

static int derive_fn(const mf_mutant *mu, void *arg)
{
    derive_ctx *d = arg;
    id_ix key = {mu->id, 0};
    id_ix *hit = bsearch(&key, d->sorted, (size_t)d->n, sizeof key, cmp_id_ix);
    if (!hit)
        return 0;
    /* The same id may repeat in a job: each gets its copy. */
    while (hit > d->sorted && !strcmp(hit[-1].id, mu->id))
        hit--;
    for (; hit < d->sorted + d->n && !strcmp(hit->id, mu->id); hit++)
        if (!d->found[hit->ix])
            d->found[hit->ix] = copy_mutant(mu);
    return 0;
}

/* Find every mutant of the job in ONE enumeration of the model's mutants
 * (mf_mutant_find would enumerate once per id), only the job's classified
 * in full; short id prefixes, which
 * the coordinator does not send, fall back to mf_mutant_find. */
static void derive_mutants(derive_ctx *d, const mf_model *m, char **ids)
{
    for (int i = 0; i < d->n; i++)
        d->sorted[i] = (id_ix){ids[i], i};
    qsort(d->sorted, (size_t)d->n, sizeof *d->sorted, cmp_id_ix);
    mf_mutants_pick(m, 0, derive_pick, derive_fn, d);
    for (int i = 0; i < d->n; i++)
        if (!d->found[i] && strlen(ids[i]) < 16) {
            mf_mutant *mu = NULL;
            if (mf_mutant_find(&mu, m, ids[i]) == 0)
                d->found[i] = mu;
        }
}

static int poison_armed(void)
{
    const char *p = getenv("MF_TEST_POISON");
    return p && !strcmp(p, "1");
}

/* MF_TEST_MUTANT_MS=N (tests only): N ms more per mutant of a job, at most
 * 1000, so that a campaign on a small model lasts long enough for a test
 * to kill a process in its middle, or to see two workers share it, however
 * fast the engine decides; 0 when unset. */
static int test_mutant_ms(void)
{
    const char *p = getenv("MF_TEST_MUTANT_MS");
    int ms = p ? atoi(p) : 0;
    return ms < 0 ? 0 : ms > 1000 ? 1000 : ms;
}

/* MF_TEST_FALSE_KILL=N (tests only): the N-th mutant this process finds
 * equivalent or surviving is reported killed, by a test of length 0 that
 * cannot kill it (the original's own initial observables); "N+": that one
 * and every later one. The coordinator must refuse such results
 * (coordinator/verify.c). */
static void false_kill(const mf_model *m, char **ids, const int *jix,
                       mf_verdict *v, int ne)
{
    static long seen; /* over the process; under the lock below */
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    const char *p = getenv("MF_TEST_FALSE_KILL");
    char *end;
    long n = p ? strtol(p, &end, 10) : 0;
    if (n < 1 || (*end && strcmp(end, "+")))
        return;
    int every = *end == '+';
    for (int k = 0; k < ne; k++) {
        if (v[k].kind != MF_V_EQUIVALENT && v[k].kind != MF_V_SURVIVED)
            continue;
        pthread_mutex_lock(&mu);
        long at = ++seen;
        pthread_mutex_unlock(&mu);
        if (at != n && !(every && at > n))
            continue;
        mf_test *t = mf_test_new(m->nslots, mf_model_nobs(m), 0);
        mf_val *st = mf_xcalloc((size_t)(m->nslots ? m->nslots : 1),
                                sizeof *st);
        if (mf_sim_initial(st, m, t->inputs, 0) == 0)
            mf_sim_observe(t->expect, t->nobs, m, st);
        free(st);
        fprintf(stderr, "mutfarm worker: MF_TEST_FALSE_KILL: reporting "
                        "mutant %s (%s) as killed by a test that does not "
                        "kill it\n",
                ids[jix[k]], mf_verdict_name(v[k].kind));
        mf_verdict_clear(&v[k]);
        v[k].kind = MF_V_KILLED;
        v[k].notion = MF_N_DETERMINISTIC;
        v[k].test = t;
    }
}

int mf_worker_do_job(mf_wire_result **out, const mf_wire_job *job,
                     const char *worker_id)
{
    *out = NULL;
    int64_t t0 = now_ms();
    mf_model_opts mo = {0};
    const mf_wire_options *po = job->options;
    if (po) {
        mo.inputs = (const char **)po->inputs;
        mo.ninputs = (int)po->n_inputs;
        mo.observe = (const char **)po->observe;
        mo.nobserve = (int)po->n_observe;
    }
    mf_engine_opts eo;
    mf_wire_opts_to_engine(&eo, po);
    mf_model *m = NULL;
    int rc = mf_worker_job_model(&m, "job", job->job_id, job->model_name,
                                 job->model_text, job->model_sha256, &mo);
    if (rc < 0)
        return rc;

    int n = (int)job->n_mutant_ids;
    char **ids = job->mutant_ids;
    derive_ctx d = {0};
    d.n = n;
    d.sorted = mf_xcalloc((size_t)n, sizeof *d.sorted);
    d.found = mf_xcalloc((size_t)n, sizeof *d.found);
    derive_mutants(&d, m, ids);

    /* The mutants that can be checked, and for each its job index. */
    mf_engine_mutant *em = mf_xcalloc((size_t)n, sizeof *em);
    mf_model **mm = mf_xcalloc((size_t)n, sizeof *mm);
    int *jix = mf_xcalloc((size_t)n, sizeof *jix);
    char **why = mf_xcalloc((size_t)n, sizeof *why);
    int ne = 0, poison = 0;
    for (int i = 0; i < n; i++) {
        mf_mutant *mu = d.found[i];
        char msg[600];
        if (!mu) {
            snprintf(msg, sizeof msg, "mutant %s not found in the model",
                     ids[i]);
            why[i] = mf_xstrdup(msg);
            continue;
        }
        if (mu->status == MF_MUT_STILLBORN) {
            snprintf(msg, sizeof msg, "mutant %s is stillborn: %s", ids[i],
                     mu->why ? mu->why : "");
            why[i] = mf_xstrdup(msg);
            continue;
        }
        /* A duplicate under every operator may be first under the
         * campaign's operators: it is checked like any other. */
        if (mf_mutant_apply(&mm[ne], m, mu) < 0) {
            snprintf(msg, sizeof msg, "mutant %s: %s", ids[i], mf_err_msg());
            why[i] = mf_xstrdup(msg);
            continue;
        }
        em[ne].item = mu->item;
        em[ne].repl = mu->new_item;
        em[ne].mutated = mm[ne];
        jix[ne++] = i;
        if (job->crash_on[0] && !strcmp(ids[i], job->crash_on))
            poison = 1;
    }
    int64_t t1 = now_ms();

    if (poison && poison_armed()) {
        fprintf(stderr, "mutfarm worker: MF_TEST_POISON: job %llu holds "
                        "mutant %s; killing myself\n",
                (unsigned long long)job->job_id, job->crash_on);
        raise(SIGKILL);
    }

    mf_verdict *v = mf_xcalloc((size_t)(ne ? ne : 1), sizeof *v);
    if (ne > 0)
        mf_engine_check(m, em, ne, &eo, v); /* failures are in the verdicts */
    false_kill(m, ids, jix, v, ne);
    int64_t t2 = now_ms();
    int64_t delay = (int64_t)test_mutant_ms() * n;
    if (delay > 0) {
        struct timespec ts = {(time_t)(delay / 1000),
                              (long)(delay % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }

    mf_wire_result *r = mf_wire_result_new(job->job_id, job->attempt,
                                           job->campaign_id, worker_id);
    for (int i = 0, k = 0; i < n; i++) {
        if (k < ne && jix[k] == i)
            mf_wire_result_add(r, ids[i], &v[k++], m);
        else
            mf_wire_result_add_error(r, ids[i], why[i]);
    }
    r->stats->load_ms = (uint64_t)(t1 - t0);
    r->stats->solver_ms = (uint64_t)(t2 - t1);
    r->stats->wall_ms = (uint64_t)(now_ms() - t0);

    for (int k = 0; k < ne; k++) {
        mf_verdict_clear(&v[k]);
        mf_model_free(mm[k]);
    }
    for (int i = 0; i < n; i++) {
        mf_mutant_free(d.found[i]);
        free(why[i]);
    }
    free(v);
    free(em);
    free(mm);
    free(jix);
    free(why);
    free(d.sorted);
    free(d.found);
    mf_model_free(m);
    *out = r;
    return 0;
}
