/* matrix_job.c - a worker's matrix job (matrix_job.h): every test of the
 * job replayed on every mutant of the job by model/kill_replay.c, the
 * same replay `mutfarm matrix` runs locally, so that a farm fill and a
 * local fill write the same kills (docs/minimisation.md).
 *
 * The mutants are made in one enumeration of the model's mutants
 * (mf_mutants_each), each replayed on the job's tests when the
 * enumeration meets it and freed at once; the original's steps are
 * memoised across the whole job. It does not decide verdicts, and it
 * talks to no socket. */
#include "matrix_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kill_replay.h"
#include "langs.h"
#include "mutate.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* MF_TEST_MUTANT_MS=N (tests only, as for a Job): N ms more per mutant,
 * at most 1000, so that a test can kill a process in the middle of a
 * fill of a small model; 0 when unset. */
static void test_delay(void)
{
    const char *p = getenv("MF_TEST_MUTANT_MS");
    char *end = NULL;
    long ms = p ? strtol(p, &end, 10) : 0;
    if (ms <= 0 || !end || *end)
        return;
    if (ms > 1000)
        ms = 1000;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

typedef struct {
    int64_t id;
    mf_test *t;
    int ok;        /* 0: the original alone is past the replay's limits */
    char why[160]; /* !ok: why */
} mtest;

typedef struct {
    const char *id;
    int ix;
} id_ix;

typedef struct {
    const mf_wire_matrix_job *job;
    const mf_model *m;
    mtest *tests;
    int ntests;
    id_ix *sorted;  /* the job's mutant ids, sorted */
    int *done;      /* per job index: replayed */
    mf_kill_orig *orig;
    int left;       /* job indexes not replayed yet */
    mf_wire_matrix_result *r;
    int fail;       /* MF_EPARSE: the job is refused, message set */
} mjob;

static int cmp_id_ix(const void *a, const void *b)
{
    return strcmp(((const id_ix *)a)->id, ((const id_ix *)b)->id);
}

static void note_why(mjob *j, int64_t test, const char *mutant, int rc,
                     const char *why)
{
    if (j->r->undecided_why[0])
        return;
    char line[600];
    snprintf(line, sizeof line, "test %lld on mutant %s: %s%s",
             (long long)test, mutant, rc == MF_ELIMIT ? "" : "simulator: ",
             why);
    mf_wire_matrix_result_why(j->r, line);
}

/* Replay every test on one mutant (the same counts as matrix.c's
 * run_mutant: pairs, undecided, unconfirmed). */
static void replay_mutant(mjob *j, const char *id, uint64_t vtest,
                          const mf_model *mm)
{
    mf_kill_mut mu;
    mf_kill_mut_init(&mu, j->m, mm);
    for (int i = 0; i < j->ntests; i++) {
        const mtest *bt = &j->tests[i];
        j->r->pairs++;
        if (!bt->ok) {
            j->r->undecided++;
            note_why(j, bt->id, id, MF_ELIMIT, bt->why);
            continue;
        }
        mf_kill k;
        int rc = mf_kill_replay(&k, j->orig, bt->t, &mu);
        if (rc < 0) {
            j->r->undecided++;
            note_why(j, bt->id, id, rc, mf_err_msg());
            continue;
        }
        if (!k.killed) {
            if ((uint64_t)bt->id == vtest)
                j->r->unconfirmed++;
            continue;
        }
        mf_wire_matrix_result_add(j->r, (uint64_t)bt->id, id, k.notion,
                                  k.step, k.refuses);
    }
    mf_kill_mut_free(&mu);
}

static int each_fn(const mf_mutant *mu, void *ctx)
{
    mjob *j = ctx;
    int n = (int)j->job->n_mutant_ids;
    id_ix key = {mu->id, 0};
    id_ix *hit = bsearch(&key, j->sorted, (size_t)n, sizeof key, cmp_id_ix);
    if (!hit)
        return 0;
    while (hit > j->sorted && !strcmp(hit[-1].id, mu->id))
        hit--;
    for (; hit < j->sorted + n && !strcmp(hit->id, mu->id); hit++) {
        if (j->done[hit->ix])
            continue;
        j->done[hit->ix] = 1;
        if (mu->status == MF_MUT_STILLBORN) {
            j->fail = mf_err_set(MF_EPARSE, "matrix job %llu: mutant %s is "
                                 "stillborn", (unsigned long long)
                                 j->job->job_id, mu->id);
            return 1;
        }
        mf_model *mm = NULL;
        if (mf_mutant_apply(&mm, j->m, mu) < 0) {
            char why[400];
            snprintf(why, sizeof why, "%s", mf_err_msg());
            j->fail = mf_err_set(MF_EPARSE, "matrix job %llu: mutant %s: %s",
                                 (unsigned long long)j->job->job_id, mu->id,
                                 why);
            return 1;
        }
        uint64_t vt = j->job->n_verdict_tests ? j->job->verdict_tests[hit->ix]
                                              : 0;
        replay_mutant(j, mu->id, vt, mm);
        mf_model_free(mm);
        test_delay();
        j->left--;
    }
    return j->left == 0; /* all found: the rest of the enumeration is not
                            needed */
}

/* The job's tests as mf_test, each checked on the original. */
static int load_tests(mjob *j)
{
    const mf_wire_matrix_job *job = j->job;
    j->ntests = (int)job->n_tests;
    j->tests = mf_xcalloc((size_t)j->ntests, sizeof *j->tests);
    for (int i = 0; i < j->ntests; i++) {
        mtest *bt = &j->tests[i];
        bt->id = (int64_t)job->tests[i]->test_id;
        int rc = mf_wire_test_decode(&bt->t, job->tests[i]->test);
        if (rc < 0)
            return rc;
        if (bt->t->nslots != j->m->nslots ||
            bt->t->nobs != mf_model_nobs(j->m))
            return mf_err_set(MF_EPARSE, "matrix job %llu: test %lld has %d "
                              "slots and %d observables, the model %d and %d",
                              (unsigned long long)job->job_id,
                              (long long)bt->id, bt->t->nslots, bt->t->nobs,
                              j->m->nslots, mf_model_nobs(j->m));
        rc = mf_kill_test_check(j->orig, bt->t);
        if (rc < 0 && rc != MF_ELIMIT) {
            char why[400];
            snprintf(why, sizeof why, "%s", mf_err_msg());
            return mf_err_set(MF_EPARSE, "matrix job %llu: test %lld does "
                              "not replay on the original: %s",
                              (unsigned long long)job->job_id,
                              (long long)bt->id, why);
        }
        bt->ok = rc == 0;
        if (!bt->ok)
            snprintf(bt->why, sizeof bt->why, "the original alone: %s",
                     mf_err_msg());
    }
    return 0;
}

int mf_worker_do_matrix_job(mf_wire_matrix_result **out,
                            const mf_wire_matrix_job *job,
                            const char *worker_id)
{
    *out = NULL;
    int64_t t0 = now_ms();
    size_t tlen = strlen(job->model_text);
    char hash[65];
    mf_sha256_hex(hash, job->model_text, tlen);
    if (strcmp(hash, job->model_sha256) != 0)
        return mf_err_set(MF_EPARSE, "matrix job %llu: model text hashes to "
                          "%.12s..., the job says %.12s...",
                          (unsigned long long)job->job_id, hash,
                          job->model_sha256);
    mf_model_opts mo = {0};
    mo.inputs = (const char **)job->inputs;
    mo.ninputs = (int)job->n_inputs;
    mo.observe = (const char **)job->observe;
    mo.nobserve = (int)job->n_observe;
    mf_model *m = NULL;
    /* A job carries its model's name and text, not its language: the
     * name's ending chooses it, else the text (langs.h), so the wire needs
     * no language field. */
    const char *name = job->model_name[0] ? job->model_name : "job.smv";
    int rc = mf_model_load(&m, name, job->model_text, tlen, &mo);
    if (rc < 0)
        return mf_err_set(MF_EPARSE, "matrix job %llu: the model does not "
                          "load: %s", (unsigned long long)job->job_id,
                          mf_err_msg());

    mjob j;
    memset(&j, 0, sizeof j);
    j.job = job;
    j.m = m;
    int n = (int)job->n_mutant_ids;
    j.sorted = mf_xcalloc((size_t)n, sizeof *j.sorted);
    j.done = mf_xcalloc((size_t)n, sizeof *j.done);
    j.left = n;
    for (int i = 0; i < n; i++)
        j.sorted[i] = (id_ix){job->mutant_ids[i], i};
    qsort(j.sorted, (size_t)n, sizeof *j.sorted, cmp_id_ix);
    j.r = mf_wire_matrix_result_new(job->job_id, job->attempt,
                                    job->campaign_id, worker_id);
    if ((rc = mf_kill_orig_new(&j.orig, m)) == 0)
        rc = load_tests(&j);
    int64_t t1 = now_ms();
    if (rc == 0) {
        mf_mutants_each(m, 0, each_fn, &j);
        rc = j.fail;
    }
    for (int i = 0; rc == 0 && i < n; i++)
        if (!j.done[i])
            rc = mf_err_set(MF_EPARSE, "matrix job %llu: mutant %s not "
                            "found in the model",
                            (unsigned long long)job->job_id,
                            job->mutant_ids[i]);
    if (rc == 0) {
        j.r->stats->load_ms = (uint64_t)(t1 - t0);
        j.r->stats->solver_ms = (uint64_t)(now_ms() - t1);
        j.r->stats->wall_ms = (uint64_t)(now_ms() - t0);
        *out = j.r;
        j.r = NULL;
    }
    mf_wire_matrix_result_free(j.r);
    for (int i = 0; i < j.ntests; i++)
        mf_test_free(j.tests[i].t);
    free(j.tests);
    free(j.sorted);
    free(j.done);
    mf_kill_orig_free(j.orig);
    mf_model_free(m);
    return rc < 0 ? rc : 0;
}

void mf_worker_matrix_frame(uint8_t **frame, size_t *len, int *refused,
                            const mf_wire_matrix_job *job,
                            const char *worker_id)
{
    *frame = NULL;
    *len = 0;
    *refused = 0;
    mf_wire_matrix_result *r = NULL;
    int rc = mf_worker_do_matrix_job(&r, job, worker_id);
    if (rc == 0) {
        rc = mf_wire_encode_matrix_result(frame, len, r);
        mf_wire_matrix_result_free(r);
        if (rc == 0)
            return;
    }
    char reason[700];
    snprintf(reason, sizeof reason, "%s", mf_err_msg());
    fprintf(stderr, "mutfarm worker: refusing matrix job %llu: %s\n",
            (unsigned long long)job->job_id, reason);
    *refused = 1;
    if (mf_wire_encode_reject(frame, len,
                              MUTFARM__V1__REJECT_CODE__REJECT_JOB_REFUSED,
                              reason, job->job_id, job->attempt) < 0)
        *frame = NULL;
}
