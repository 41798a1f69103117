/* farm_worker.c - the worker process of the farm (see farm_worker.h and
 * docs/protocol.md): one DEALER socket to the coordinator, N job threads.
 *
 * Only the main thread touches the DEALER socket. Jobs go to the threads
 * through a mutex-protected queue; each thread hands its finished job back
 * over an inproc PUSH socket, so the main thread waits on the coordinator,
 * the threads and its clocks in one zmq_poll and keeps heartbeating while
 * checks run (the ZeroMQ guide's Paranoid Pirate worker). A check inside
 * Z3 cannot be interrupted from outside the engine: a job still running
 * when the process must leave is given back to the coordinator, and the
 * process ends with _exit() rather than waiting for it.
 *
 * This file does not decide verdicts (engine/) or encode frames
 * (proto/wire.c). */
#include "farm_worker.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <z3.h>
#include <zmq.h>

#include "langs.h"
#include "matrix_job.h"
#include "mutate.h"
#include "sim.h"

/* Results kept for re-sending until the coordinator acknowledges them. */
#define MAX_UNACKED 64
/* How long the last frames (a Bye) may take to leave on exit. */
#define LINGER_MS 1000

/* ------------------------------------------------------------------ */
/* Small things                                                         */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void wlog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void wlog(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "mutfarm worker: %s\n", line);
}

/* The Z3 version linked in ("4.8.12.0"), into buf, for the hello: the
 * coordinator records it with each campaign. */
static void z3_version(char *buf, size_t n)
{
    unsigned major = 0, minor = 0, build = 0, rev = 0;
    Z3_get_version(&major, &minor, &build, &rev);
    snprintf(buf, n, "%u.%u.%u.%u", major, minor, build, rev);
}

void mf_worker_opts_default(mf_worker_opts *o)
{
    memset(o, 0, sizeof *o);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = n > 0 && n < 1024 ? (int)n : 1;
    o->heartbeat_ms = 1000;
    o->liveness = 3;
    o->reconnect_min_ms = 250;
    o->reconnect_max_ms = 8000;
    o->grace_ms = 10000;
}

/* ------------------------------------------------------------------ */
/* One job, in the calling thread                                       */

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
        wlog("MF_TEST_FALSE_KILL: reporting mutant %s (%s) as killed by a "
             "test that does not kill it", ids[jix[k]],
             mf_verdict_name(v[k].kind));
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
    size_t tlen = strlen(job->model_text);
    char hash[65];
    mf_sha256_hex(hash, job->model_text, tlen);
    if (strcmp(hash, job->model_sha256) != 0)
        return mf_err_set(MF_EPARSE,
                          "job %llu: model text hashes to %.12s..., the job "
                          "says %.12s...",
                          (unsigned long long)job->job_id, hash,
                          job->model_sha256);

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
    const char *name = job->model_name[0] ? job->model_name : "job.smv";
    int rc = mf_model_load(&m, name, job->model_text, tlen, &mo);
    if (rc < 0)
        return mf_err_set(MF_EPARSE, "job %llu: the model does not load: %s",
                          (unsigned long long)job->job_id, mf_err_msg());

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
        wlog("MF_TEST_POISON: job %llu holds mutant %s; killing myself",
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

/* ------------------------------------------------------------------ */
/* Job threads                                                          */

typedef struct jobitem {
    struct jobitem *next;
    mf_wire_env *env; /* owns the decoded Job */
} jobitem;

/* What a thread hands back: an encoded frame for the coordinator. */
typedef struct {
    uint64_t job_id;
    uint32_t attempt;
    int refused;    /* the frame is a Reject (JOB_REFUSED), not a Result */
    uint8_t *frame; /* NULL if even the Reject could not be encoded */
    size_t len;
} done_msg;

typedef struct {
    const mf_worker_opts *o;
    char id[160];        /* worker id: host-pid */
    char host[128];
    void *zctx;          /* inproc sockets: the threads and the main one */
    void *dctx;          /* the DEALER alone, so that terminating it
                            flushes a last Bye even while a thread (and
                            its inproc socket) is still inside Z3 */
    char inproc[64];     /* the main thread's PULL endpoint */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    jobitem *head, *tail; /* jobs not yet started */
    int busy;            /* threads inside a job */
    int quit;
} worker;

static done_msg *run_job(worker *w, const mf_wire_job *job)
{
    done_msg *d = mf_xcalloc(1, sizeof *d);
    d->job_id = job->job_id;
    d->attempt = job->attempt;
    mf_wire_result *r = NULL;
    int rc = mf_worker_do_job(&r, job, w->id);
    if (rc == 0) {
        pthread_mutex_lock(&w->mu);
        r->stats->threads_busy = (uint32_t)w->busy;
        pthread_mutex_unlock(&w->mu);
        rc = mf_wire_encode_result(&d->frame, &d->len, r);
        if (rc == MF_ELIMIT) {
            /* Long tests of a non-deterministic model, several to a
             * job: their texts go first, then the biggest tests, whose
             * mutants come back unknown rather than the whole job lost
             * (the coordinator would only send it again). */
            size_t lost = mf_wire_result_fit(r, MF_WIRE_MAX_FRAME);
            if (lost)
                wlog("job %llu: %zu test(s) too large for the result "
                     "frame, their mutants sent as unknown",
                     (unsigned long long)job->job_id, lost);
            rc = mf_wire_encode_result(&d->frame, &d->len, r);
        }
        if (rc < 0)
            wlog("job %llu: %s", (unsigned long long)job->job_id,
                 mf_err_msg());
        mf_wire_result_free(r);
        if (rc == 0)
            return d;
    }
    char reason[700];
    snprintf(reason, sizeof reason, "%s", mf_err_msg());
    wlog("refusing job %llu: %s", (unsigned long long)job->job_id, reason);
    d->refused = 1;
    if (mf_wire_encode_reject(&d->frame, &d->len,
                              MUTFARM__V1__REJECT_CODE__REJECT_JOB_REFUSED,
                              reason, job->job_id, job->attempt) < 0)
        d->frame = NULL;
    return d;
}

/* A matrix job (matrix_job.c): its result or refusal, like run_job's. */
static done_msg *run_matrix_job(worker *w, const mf_wire_matrix_job *job)
{
    done_msg *d = mf_xcalloc(1, sizeof *d);
    d->job_id = job->job_id;
    d->attempt = job->attempt;
    mf_worker_matrix_frame(&d->frame, &d->len, &d->refused, job, w->id);
    return d;
}

static void *job_thread(void *arg)
{
    worker *w = arg;
    void *push = zmq_socket(w->zctx, ZMQ_PUSH);
    if (!push || zmq_connect(push, w->inproc) != 0) {
        wlog("job thread: inproc socket: %s", zmq_strerror(errno));
        if (push)
            zmq_close(push);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&w->mu);
        while (!w->head && !w->quit)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit) {
            pthread_mutex_unlock(&w->mu);
            break;
        }
        jobitem *it = w->head;
        w->head = it->next;
        if (!w->head)
            w->tail = NULL;
        w->busy++;
        pthread_mutex_unlock(&w->mu);

        done_msg *d = it->env->body_case ==
                                  MUTFARM__V1__ENVELOPE__BODY_MATRIX_JOB
                          ? run_matrix_job(w, it->env->matrix_job)
                          : run_job(w, it->env->job);
        mf_wire_free(it->env);
        free(it);
        if (zmq_send(push, &d, sizeof d, 0) != sizeof d) {
            free(d->frame); /* the main thread is gone */
            free(d);
        }
        pthread_mutex_lock(&w->mu);
        w->busy--;
        pthread_mutex_unlock(&w->mu);
    }
    zmq_close(push);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* The main thread                                                      */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

typedef struct {
    uint64_t job_id;
    uint32_t attempt;
} jobref;

typedef struct {
    uint64_t job_id;
    uint32_t attempt;
    uint8_t *frame;
    size_t len;
} unacked;

typedef struct {
    worker *w;
    void *dealer;       /* NULL while disconnected */
    unsigned gen;       /* connections made, for the routing identity */
    MF_VEC(jobref) inflight;  /* taken, result not yet handed back */
    MF_VEC(unacked) pending;  /* results sent, not yet acknowledged */
    int64_t last_heard, hb_at;
    unsigned backoff;
    int fatal;          /* the coordinator refuses us for good */
    int heard;          /* something came on this connection */
    int bye;            /* the coordinator said Bye */
    int curve_hinted;   /* said why a CURVE peer may stay silent */
} session;

static void send_frame(session *s, const uint8_t *buf, size_t len,
                       const char *what)
{
    if (!s->dealer || !buf)
        return;
    if (zmq_send(s->dealer, buf, len, ZMQ_DONTWAIT) < 0 &&
        s->w->o->verbose)
        wlog("could not send %s: %s", what, zmq_strerror(errno));
}

static void send_credit(session *s, unsigned n)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    if (n == 0 || mf_wire_encode_credit(&buf, &len, n) < 0)
        return;
    send_frame(s, buf, len, "credit");
    free(buf);
}

static void drop_pending(session *s, uint64_t job_id, uint32_t attempt)
{
    for (int i = 0; i < s->pending.n; i++)
        if (s->pending.v[i].job_id == job_id &&
            s->pending.v[i].attempt == attempt) {
            free(s->pending.v[i].frame);
            s->pending.v[i] = s->pending.v[--s->pending.n];
            return;
        }
}

static void keep_pending(session *s, done_msg *d)
{
    if (s->pending.n == MAX_UNACKED) { /* the oldest goes: recomputable */
        free(s->pending.v[0].frame);
        memmove(&s->pending.v[0], &s->pending.v[1],
                (size_t)(s->pending.n - 1) * sizeof s->pending.v[0]);
        s->pending.n--;
    }
    unacked u = {d->job_id, d->attempt, d->frame, d->len};
    MF_VEC_PUSH(s->pending, u);
    d->frame = NULL;
}

static void drop_inflight(session *s, uint64_t job_id, uint32_t attempt)
{
    for (int i = 0; i < s->inflight.n; i++)
        if (s->inflight.v[i].job_id == job_id &&
            s->inflight.v[i].attempt == attempt) {
            s->inflight.v[i] = s->inflight.v[--s->inflight.n];
            return;
        }
}

static unsigned idle_threads(session *s)
{
    int idle = s->w->o->threads - s->inflight.n;
    return idle > 0 ? (unsigned)idle : 0;
}

static void disconnect(session *s)
{
    if (!s->dealer)
        return;
    int zero = 0;
    zmq_setsockopt(s->dealer, ZMQ_LINGER, &zero, sizeof zero);
    zmq_close(s->dealer);
    s->dealer = NULL;
}

/* A fresh DEALER (Paranoid Pirate: never reuse a socket whose peer went
 * silent), Hello, our idle threads as credit, unacknowledged results. */
static int connect_dealer(session *s, int stopping)
{
    worker *w = s->w;
    void *d = zmq_socket(w->dctx, ZMQ_DEALER);
    if (!d)
        return mf_err_set(MF_ERROR, "cannot create a socket: %s",
                          zmq_strerror(errno));
    char ident[200];
    snprintf(ident, sizeof ident, "%s/%u", w->id, ++s->gen);
    int64_t maxmsg = (int64_t)MF_WIRE_MAX_FRAME;
    int linger = LINGER_MS;
    zmq_setsockopt(d, ZMQ_ROUTING_ID, ident, strlen(ident));
    zmq_setsockopt(d, ZMQ_MAXMSGSIZE, &maxmsg, sizeof maxmsg);
    zmq_setsockopt(d, ZMQ_LINGER, &linger, sizeof linger);
    if (w->o->curve_server_key &&
        (zmq_setsockopt(d, ZMQ_CURVE_SERVERKEY, w->o->curve_server_key, 40) ||
         zmq_setsockopt(d, ZMQ_CURVE_PUBLICKEY, w->o->curve_public_key, 40) ||
         zmq_setsockopt(d, ZMQ_CURVE_SECRETKEY, w->o->curve_secret_key, 40))) {
        int e = errno;
        zmq_close(d);
        return mf_err_set(MF_ERROR, "cannot set the CURVE keys: %s",
                          zmq_strerror(e));
    }
    if (zmq_connect(d, w->o->connect) != 0) {
        int e = errno;
        zmq_close(d);
        return mf_err_set(MF_ERROR, "cannot connect to '%s': %s",
                          w->o->connect, zmq_strerror(e));
    }
    s->dealer = d;

    char z3v[64];
    z3_version(z3v, sizeof z3v);
    Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
    h.worker_id = w->id;
    h.threads = (uint32_t)w->o->threads;
    h.z3_version = z3v;
    h.mutfarm_version = (char *)(uintptr_t)(w->o->mutfarm_version
                                                ? w->o->mutfarm_version
                                                : "unknown");
    h.host = w->host;
    h.pid = (uint32_t)getpid();
    h.matrix_jobs = 1;
    uint8_t *buf = NULL;
    size_t len = 0;
    if (mf_wire_encode_hello(&buf, &len, &h) == 0)
        send_frame(s, buf, len, "hello");
    free(buf);
    if (!stopping)
        send_credit(s, idle_threads(s));
    for (int i = 0; i < s->pending.n; i++)
        send_frame(s, s->pending.v[i].frame, s->pending.v[i].len, "result");
    int64_t t = now_ms();
    s->heard = 0;
    s->last_heard = t;
    s->hb_at = t + w->o->heartbeat_ms;
    if (w->o->verbose)
        wlog("connecting to %s as %s", w->o->connect, ident);
    return 0;
}

static void enqueue_job(worker *w, mf_wire_env *env)
{
    jobitem *it = mf_xcalloc(1, sizeof *it);
    it->env = env;
    pthread_mutex_lock(&w->mu);
    if (w->tail)
        w->tail->next = it;
    else
        w->head = it;
    w->tail = it;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* One frame from the coordinator. */
static void on_frame(session *s, const void *data, size_t len, int stopping)
{
    worker *w = s->w;
    mf_wire_env *e = NULL;
    mf_wire_fault fault;
    if (mf_wire_decode(&e, data, len, &fault) < 0) {
        wlog("dropped a frame from the coordinator: %s", mf_err_msg());
        if (fault == MF_WIRE_BAD_VERSION) {
            wlog("the coordinator speaks another protocol version "
                 "(this worker: %u); giving up", MF_WIRE_VERSION);
            s->fatal = 1;
        }
        return;
    }
    if (w->o->verbose)
        wlog("got %s", mf_wire_kind_name((mf_wire_kind)e->body_case));
    switch (e->body_case) {
    case MUTFARM__V1__ENVELOPE__BODY_JOB:
    case MUTFARM__V1__ENVELOPE__BODY_MATRIX_JOB: { /* taken alike */
        jobref r = e->body_case == MUTFARM__V1__ENVELOPE__BODY_JOB
                       ? (jobref){e->job->job_id, e->job->attempt}
                       : (jobref){e->matrix_job->job_id,
                                  e->matrix_job->attempt};
        MF_VEC_PUSH(s->inflight, r);
        if (stopping) {
            /* Taken only to be listed as given back in our Bye. */
            mf_wire_free(e);
            return;
        }
        enqueue_job(w, e);
        return; /* the thread frees e */
    }
    case MUTFARM__V1__ENVELOPE__BODY_ACK:
        drop_pending(s, e->ack->job_id, e->ack->attempt);
        break;
    case MUTFARM__V1__ENVELOPE__BODY_REJECT: {
        const mf_wire_reject *r = e->reject;
        wlog("the coordinator refused a message (code %d): %s", (int)r->code,
             r->reason);
        if (r->code == MUTFARM__V1__REJECT_CODE__REJECT_VERSION) {
            s->fatal = 1;
        } else if ((r->code == MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB ||
                    r->code == MUTFARM__V1__REJECT_CODE__REJECT_INVALID) &&
                   r->job_id) {
            /* Sending that result again would not change the answer. */
            drop_pending(s, r->job_id, r->attempt);
        } else if (r->code == MUTFARM__V1__REJECT_CODE__REJECT_NOT_HELLO) {
            /* A restarted coordinator behind the same connection: start
             * over on a fresh socket (a new identity, so the coordinator
             * starts our credit from zero). */
            disconnect(s);
            if (connect_dealer(s, stopping) < 0)
                wlog("%s", mf_err_msg());
        }
        break;
    }
    case MUTFARM__V1__ENVELOPE__BODY_BYE:
        wlog("the coordinator says bye%s%s", e->bye->reason[0] ? ": " : "",
             e->bye->reason);
        s->bye = 1;
        break;
    case MUTFARM__V1__ENVELOPE__BODY_HEARTBEAT: break;
    default:
        wlog("dropped an unexpected %s from the coordinator",
             mf_wire_kind_name((mf_wire_kind)e->body_case));
        break;
    }
    mf_wire_free(e);
}

/* Every finished job the threads have handed back. */
static void drain_done(session *s, void *pull, int stopping)
{
    for (;;) {
        done_msg *d = NULL;
        int n = zmq_recv(pull, &d, sizeof d, ZMQ_DONTWAIT);
        if (n != (int)sizeof d)
            return;
        drop_inflight(s, d->job_id, d->attempt);
        if (d->frame) {
            send_frame(s, d->frame, d->len, d->refused ? "reject" : "result");
            if (!d->refused)
                keep_pending(s, d);
        }
        if (!stopping && s->dealer)
            send_credit(s, 1);
        free(d->frame);
        free(d);
    }
}

static void send_bye(session *s, const char *reason)
{
    int n = s->inflight.n;
    uint64_t *ids = mf_xcalloc((size_t)(n ? n : 1), sizeof *ids);
    uint32_t *att = mf_xcalloc((size_t)(n ? n : 1), sizeof *att);
    for (int i = 0; i < n; i++) {
        ids[i] = s->inflight.v[i].job_id;
        att[i] = s->inflight.v[i].attempt;
    }
    uint8_t *buf = NULL;
    size_t len = 0;
    if (mf_wire_encode_bye(&buf, &len, reason, ids, att, (size_t)n) == 0)
        send_frame(s, buf, len, "bye");
    free(buf);
    free(ids);
    free(att);
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

int mf_worker_run(const mf_worker_opts *o)
{
    if (!o->connect || !o->connect[0])
        return mf_err_set(MF_ERROR, "no coordinator endpoint (--connect)");
    if (o->threads < 1 || o->threads > 4096)
        return mf_err_set(MF_ERROR, "threads must be 1..4096, not %d",
                          o->threads);
    if (o->heartbeat_ms < 1 || o->liveness < 1)
        return mf_err_set(MF_ERROR, "heartbeat and liveness must be > 0");

    worker w;
    memset(&w, 0, sizeof w);
    w.o = o;
    if (gethostname(w.host, sizeof w.host - 1) != 0)
        snprintf(w.host, sizeof w.host, "localhost");
    if (o->worker_id && o->worker_id[0])
        snprintf(w.id, sizeof w.id, "%s", o->worker_id);
    else
        snprintf(w.id, sizeof w.id, "%s-%ld", w.host, (long)getpid());
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    snprintf(w.inproc, sizeof w.inproc, "inproc://mf-worker-%p", (void *)&w);

    int rc = 0;
    w.zctx = zmq_ctx_new();
    w.dctx = zmq_ctx_new();
    void *pull = zmq_socket(w.zctx, ZMQ_PULL);
    if (!pull || zmq_bind(pull, w.inproc) != 0) {
        rc = mf_err_set(MF_ERROR, "inproc socket: %s", zmq_strerror(errno));
        if (pull)
            zmq_close(pull);
        zmq_ctx_term(w.zctx);
        zmq_ctx_term(w.dctx);
        return rc;
    }

    /* The job threads never see SIGTERM/SIGINT: the main thread does. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    mf_engine_set_threads(o->threads); /* the memory budget's scale */
    pthread_t *th = mf_xcalloc((size_t)o->threads, sizeof *th);
    int started = 0;
    for (; started < o->threads; started++)
        if (pthread_create(&th[started], NULL, job_thread, &w) != 0)
            break;
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    struct sigaction sa, old_term, old_int;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: zmq_poll returns EINTR */
    sigemptyset(&sa.sa_mask);
    got_signal = 0;
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGINT, &sa, &old_int);

    session s;
    memset(&s, 0, sizeof s);
    s.w = &w;
    s.backoff = o->reconnect_min_ms ? o->reconnect_min_ms : 1;
    unsigned backoff_max =
        o->reconnect_max_ms > s.backoff ? o->reconnect_max_ms : s.backoff;
    int64_t reconnect_at = now_ms(), stop_at = 0;
    int stopping = 0;
    int64_t dead_after = (int64_t)o->heartbeat_ms * o->liveness;

    if (started < o->threads) {
        rc = mf_err_set(MF_ERROR, "cannot start %d threads", o->threads);
        goto shutdown;
    }
    wlog("%s: %d thread%s, coordinator %s", w.id, o->threads,
         o->threads == 1 ? "" : "s", o->connect);

    for (;;) {
        int64_t now = now_ms();
        if (got_signal) {
            int sig = got_signal;
            got_signal = 0;
            if (!stopping) {
                stopping = 1;
                stop_at = now + o->grace_ms;
                wlog("%s: finishing %d job(s) (up to %u ms), then leaving",
                     strsignal(sig), s.inflight.n, o->grace_ms);
            } else {
                stop_at = now; /* a second signal: give them back now */
            }
        }
        if (s.fatal) {
            rc = mf_err_set(MF_ERROR, "the coordinator at %s refuses this "
                                      "worker's protocol version %u",
                            o->connect, MF_WIRE_VERSION);
            break;
        }
        if (s.bye && !o->persist)
            break;
        if (s.bye) { /* --persist: wait for the next coordinator */
            s.bye = 0;
            disconnect(&s);
            reconnect_at = now + s.backoff;
        }
        if (stopping && (s.inflight.n == 0 || now >= stop_at)) {
            send_bye(&s, s.inflight.n ? "stopping: jobs given back"
                                      : "stopping");
            if (s.inflight.n)
                wlog("gave back %d unfinished job(s)", s.inflight.n);
            break;
        }
        if (!s.dealer && now >= reconnect_at) {
            rc = connect_dealer(&s, stopping);
            if (rc < 0)
                break;
        }

        int64_t wake = now + 1000;
        if (s.dealer)
            wake = min64(min64(wake, s.hb_at), s.last_heard + dead_after);
        else
            wake = min64(wake, reconnect_at);
        if (stopping)
            wake = min64(wake, stop_at);
        zmq_pollitem_t items[2] = {
            {pull, 0, ZMQ_POLLIN, 0},
            {s.dealer, 0, ZMQ_POLLIN, 0},
        };
        long timeout = wake > now ? (long)(wake - now) : 0;
        if (zmq_poll(items, s.dealer ? 2 : 1, timeout) < 0) {
            if (errno == EINTR)
                continue;
            rc = mf_err_set(MF_ERROR, "poll: %s", zmq_strerror(errno));
            break;
        }
        if (items[0].revents & ZMQ_POLLIN)
            drain_done(&s, pull, stopping);
        if (s.dealer && (items[1].revents & ZMQ_POLLIN)) {
            now = now_ms();
            for (int k = 0; k < 1000 && s.dealer; k++) {
                zmq_msg_t msg;
                zmq_msg_init(&msg);
                if (zmq_msg_recv(&msg, s.dealer, ZMQ_DONTWAIT) < 0) {
                    zmq_msg_close(&msg);
                    break;
                }
                s.last_heard = now;
                s.heard = 1;
                s.backoff = o->reconnect_min_ms ? o->reconnect_min_ms : 1;
                /* One frame per message; empty delimiter frames before it
                 * (REQ-style) are tolerated, anything else is dropped. */
                int parts_ok = 1;
                while (zmq_msg_more(&msg)) {
                    if (zmq_msg_size(&msg) != 0)
                        parts_ok = 0;
                    if (zmq_msg_recv(&msg, s.dealer, ZMQ_DONTWAIT) < 0) {
                        parts_ok = -1;
                        break;
                    }
                }
                if (parts_ok == 1)
                    on_frame(&s, zmq_msg_data(&msg), zmq_msg_size(&msg),
                             stopping);
                else
                    wlog("dropped a multi-part message from the "
                         "coordinator");
                zmq_msg_close(&msg);
            }
        }
        now = now_ms();
        if (s.dealer && now >= s.hb_at) {
            uint8_t *buf = NULL;
            size_t len = 0;
            if (mf_wire_encode_heartbeat(&buf, &len,
                                         (uint32_t)s.inflight.n) == 0)
                send_frame(&s, buf, len, "heartbeat");
            free(buf);
            s.hb_at += o->heartbeat_ms;
            if (s.hb_at <= now) /* we were stalled: no burst of beats */
                s.hb_at = now + o->heartbeat_ms;
        }
        if (s.dealer && now - s.last_heard > dead_after) {
            /* Said once per loss, not at every retry while it is away. */
            if (s.heard || o->verbose)
                wlog("no word from the coordinator for %lld ms; "
                     "reconnecting in %u ms (and on, backing off)",
                     (long long)(now - s.last_heard), s.backoff);
            else if (o->curve_server_key && !s.curve_hinted) {
                /* A refused CURVE handshake looks like silence here. */
                s.curve_hinted = 1;
                wlog("no answer from the coordinator at %s yet: if it is "
                     "up, check that it has this worker's public key in "
                     "its authorized_keys and that --server-public-key "
                     "is its key (docs/security.md)", o->connect);
            }
            disconnect(&s);
            reconnect_at = now + s.backoff;
            s.backoff = s.backoff * 2 > backoff_max ? backoff_max
                                                    : s.backoff * 2;
        }
    }

shutdown:;
    /* Threads that are idle leave now; a thread inside Z3 cannot be
     * stopped (see the file comment). */
    jobitem *left = NULL;
    pthread_mutex_lock(&w.mu);
    w.quit = 1;
    left = w.head;
    w.head = w.tail = NULL;
    int busy = w.busy;
    pthread_cond_broadcast(&w.cv);
    pthread_mutex_unlock(&w.mu);
    while (left) {
        jobitem *nx = left->next;
        mf_wire_free(left->env);
        free(left);
        left = nx;
    }
    if (busy > 0) {
        /* Flush the Bye (or the last result) and leave without joining. */
        if (s.dealer)
            zmq_close(s.dealer);
        s.dealer = NULL;
        zmq_ctx_term(w.dctx); /* waits up to LINGER_MS for the Bye */
        wlog("leaving with %d check(s) still running", busy);
        fflush(stderr);
        _exit(rc == 0 ? 0 : 2);
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    drain_done(&s, pull, 1); /* a result that raced the end: dropped */
    if (s.dealer) {
        zmq_close(s.dealer); /* lingers up to LINGER_MS for the Bye */
        s.dealer = NULL;
    }
    zmq_close(pull);
    zmq_ctx_term(w.dctx);
    zmq_ctx_term(w.zctx);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGINT, &old_int, NULL);
    for (int i = 0; i < s.pending.n; i++)
        free(s.pending.v[i].frame);
    MF_VEC_FREE(s.pending);
    MF_VEC_FREE(s.inflight);
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv);
    return rc;
}
