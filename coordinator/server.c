/* server.c - the coordinator: one campaign served over a ZeroMQ ROUTER
 * socket to stateless workers (server.h, docs/protocol.md).
 *
 * One thread, one poll loop. The store is the only record of the campaign:
 * mutants, jobs, leases and verdicts are read and written there as they
 * move, and nothing about them is kept in memory except tallies for the
 * progress line. What is in memory is the table of connected workers
 * (routing id, credit, heartbeat clocks), bounded by the farm's size.
 *
 * Order of events for one job (the ZeroMQ guide's Majordomo + Titanic):
 * a worker with credit gets the next pending job, leased in the store
 * BEFORE it is sent; its Result is committed in the store BEFORE the Ack
 * is sent. A coordinator killed at any point therefore loses nothing: a
 * restarted one puts leased jobs back and workers re-send results that
 * were not acknowledged.
 *
 * It does not start workers and does not draw anything but one progress
 * line (cmd_run.c and cmd_coordinator.c own the terminal). */
#include "server.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "endpoint.h"
#include "langs.h"
#include "liveness.h"
#include "outbox.h"
#include "mf.h"
#include "model.h"
#include "mutate.h"
#include "rerun.h"
#include "smv.h"
#include "store.h"
#include "verify.h"
#include "wire.h"
#include "zap.h"

#ifndef MF_VERSION
#define MF_VERSION "unknown"
#endif

/* Frames up to this size reach the decoder (which refuses anything over
 * MF_WIRE_MAX_FRAME with a Reject); bigger ones are cut by libzmq, which
 * closes that connection. Keeps one peer from making us allocate without
 * bound. */
#define HARD_MAX_FRAME (4 * MF_WIRE_MAX_FRAME)
/* A worker's credit is never taken beyond this many jobs per thread. */
#define CREDIT_PER_THREAD 2
/* Frames handled per wake-up before timers get their turn. */
#define BATCH 512
/* Refusal log lines per second before they are counted instead. */
#define LOG_BURST 20
/* How often the store is asked for expired leases. */
#define HOUSEKEEP_MS 1000
/* How often the tallies are counted afresh in the store even when nothing
 * said they changed: counting reads every mutant of the campaign, too
 * much to do every second for a million of them. */
#define RECOUNT_MS 60000
/* A worker's last_seen in the store (its last contact in `mutfarm
 * status`) is refreshed at most this often. */
#define SEEN_MS 2000
/* Held-back frames (outbox.c) over this many bytes end the batch early:
 * jobs carry the model's text. */
#define OUTBOX_MAX (16u << 20)
/* Mutants per job while nothing has been measured yet. */
#define FIRST_JOB 4

typedef struct {
    uint8_t rid[256];                 /* ROUTER routing id */
    size_t rid_len;
    char id[MF_STORE_WORKER_ID];      /* worker_id from Hello */
    char host[64];
    int threads;                      /* from Hello, >= 1 */
    int credit;                       /* jobs we may still send */
    int64_t expires;                  /* monotonic ms: dead after this */
    int64_t next_hb;                  /* monotonic ms: heartbeat due */
    int64_t seen_at;                  /* monotonic ms: last store update */
    long jobs;                        /* results committed from it */
} peer;

struct mf_coord {
    mf_coord_opts o;
    mf_config cfg;
    const char *cmd;
    char *model_text;                 /* the file as read (sent in jobs) */
    size_t model_len;
    char model_sha[65];               /* SHA-256 of model_text */
    char model_name[256];             /* base name */
    mf_model *model;
    char *inputs_buf, *observe_buf;   /* split copies of cfg lists */
    MF_VEC(const char *) inputs;
    MF_VEC(const char *) observe;
    mf_engine_opts eo;
    unsigned mask;                    /* operators */
    const char *crash_on;             /* MF_TEST_CRASH_ON (tests only) */

    mf_store *st;
    int64_t model_id;
    mf_buf options;                   /* the campaign's options key */
    mf_store_campaign camp;
    mf_store_reuse reuse;             /* what it took over (rerun.h) */
    int has_reuse;                    /* reuse is recorded */
    int z3_recorded;

    void *zctx, *sock;
    void *mon;                        /* PAIR: the ROUTER's monitor events */
    char endpoint[512];
    MF_VEC(int) seen_fds;             /* connections a frame came from */
    mf_zap *zap;                      /* CURVE's ZAP handler; NULL: off */
    mf_verify *verify;                /* replays kills before storing */
    const char *msg_key;              /* CURVE key of the message at hand */

    MF_VEC(peer) peers;
    int rr;                           /* round-robin start for dispatch */
    int dry;                          /* job_next found nothing to hand out */

    /* Tallies between count refreshes (mf_store_counts_get). */
    mf_store_counts counts;
    int64_t unplanned;                /* mutants not in any job, estimate */
    int64_t done_start;               /* counts.done when we started */
    double cost_ms;                   /* measured ms per mutant, 0: none */
    int proven;                       /* largest job size answered so far */

    /* Progress: samples of (time, done) for the rate. */
    int64_t rate_t[32];
    int64_t rate_done[32];
    int rate_n, rate_i;
    int line_shown;                   /* a progress line is on stderr */
    int64_t next_log;                 /* monotonic ms: progress log line due */
    int64_t grace_at;                 /* monotonic ms: last grace_after_stall */
    int64_t next_recount;             /* monotonic ms: housekeep recounts */

    /* Log throttling. */
    int64_t log_sec;
    int log_count, log_suppressed;

    int complete;
    mf_live *live;                    /* our row in the store (liveness.c) */
    /* One store transaction per batch of messages (mf_store_batch_begin):
     * frames wait in the outbox until it is committed. */
    mf_outbox *out;
    int batching;                     /* a batch is open: frames are held */
    int64_t send_job;                 /* the job of the frame being sent */
    int send_attempt;
    int flush_rc;                     /* a store failure while flushing */
};

/* ---- small things --------------------------------------------------------- */

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void clear_line(mf_coord *c)
{
    if (c->line_shown) {
        fputs("\r\033[K", stderr);
        c->line_shown = 0;
    }
}

static void say_v(mf_coord *c, const char *fmt, va_list ap)
{
    clear_line(c);
    fprintf(stderr, "%s: ", c->cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static void say(mf_coord *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(mf_coord *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_v(c, fmt, ap);
    va_end(ap);
}

/* A log line about a peer's bad frame: at most LOG_BURST a second, the
 * rest counted and reported once the burst is over. */
static void say_peer(mf_coord *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say_peer(mf_coord *c, const char *fmt, ...)
{
    int64_t sec = mono_ms() / 1000;
    if (sec != c->log_sec) {
        if (c->log_suppressed)
            say(c, "(%d more refused frames not logged)", c->log_suppressed);
        c->log_sec = sec;
        c->log_count = 0;
        c->log_suppressed = 0;
    }
    if (c->log_count >= LOG_BURST) {
        c->log_suppressed++;
        return;
    }
    c->log_count++;
    va_list ap;
    va_start(ap, fmt);
    say_v(c, fmt, ap);
    va_end(ap);
}

/* "worker host-123" or "peer 0x00800041a7" for one that has not said
 * Hello, into buf. */
static const char *peer_name(char *buf, size_t n, const uint8_t *rid,
                             size_t rid_len, const peer *p)
{
    if (p) {
        snprintf(buf, n, "worker %s", p->id);
        return buf;
    }
    int text = rid_len > 0 && rid_len < 64;
    for (size_t i = 0; i < rid_len && text; i++)
        text = rid[i] > ' ' && rid[i] < 127;
    if (text) {
        snprintf(buf, n, "peer '%.*s'", (int)rid_len, (const char *)rid);
        return buf;
    }
    size_t off = (size_t)snprintf(buf, n, "peer 0x");
    for (size_t i = 0; i < rid_len && i < 12 && off + 3 < n; i++)
        off += (size_t)snprintf(buf + off, n - off, "%02x", rid[i]);
    return buf;
}

/* Split "a, b,c" into names pointing into a copy kept in *buf. */
static void split_list(char **buf, void *vec_, const char *s)
{
    MF_VEC(const char *) *vec = vec_;
    *buf = mf_xstrdup(s);
    for (char *save = NULL, *t = strtok_r(*buf, ", ", &save); t;
         t = strtok_r(NULL, ", ", &save))
        MF_VEC_PUSH(*vec, t);
}

/* ---- sending -------------------------------------------------------------- */

/* Send one frame to a routing id; never blocks. 0, or -1 with errno
 * (EHOSTUNREACH: the peer is gone; EAGAIN: its queue is full). */
static int send_raw(mf_coord *c, const uint8_t *rid, size_t rid_len,
                    const uint8_t *buf, size_t len)
{
    if (c->batching) { /* leaves once the batch is committed */
        mf_outbox_add(c->out, rid, rid_len, buf, len, c->send_job,
                      c->send_attempt);
        return 0;
    }
    if (zmq_send(c->sock, rid, rid_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return -1;
    if (zmq_send(c->sock, buf, len, ZMQ_DONTWAIT) < 0)
        return -1;
    return 0;
}

/* Send an encoded frame (freed here) to a known peer; resets its
 * heartbeat clock. */
static int send_peer(mf_coord *c, peer *p, uint8_t *buf, size_t len, int rc)
{
    if (rc < 0 || !buf) {
        say(c, "cannot encode a message for worker %s: %s", p->id,
             mf_err_msg());
        free(buf);
        return -1;
    }
    rc = send_raw(c, p->rid, p->rid_len, buf, len);
    int e = errno;
    free(buf);
    errno = e;
    if (rc == 0)
        p->next_hb = mono_ms() + c->cfg.heartbeat_ms;
    return rc;
}

static void send_reject(mf_coord *c, const uint8_t *rid, size_t rid_len,
                        Mutfarm__V1__RejectCode code, const char *reason,
                        uint64_t job, uint32_t attempt)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    if (mf_wire_encode_reject(&buf, &len, code, reason, job, attempt) == 0)
        send_raw(c, rid, rid_len, buf, len);
    free(buf);
}

/* ---- workers -------------------------------------------------------------- */

static peer *find_rid(mf_coord *c, const uint8_t *rid, size_t len)
{
    for (int i = 0; i < c->peers.n; i++)
        if (c->peers.v[i].rid_len == len &&
            memcmp(c->peers.v[i].rid, rid, len) == 0)
            return &c->peers.v[i];
    return NULL;
}

static peer *find_id(mf_coord *c, const char *id)
{
    for (int i = 0; i < c->peers.n; i++)
        if (strcmp(c->peers.v[i].id, id) == 0)
            return &c->peers.v[i];
    return NULL;
}

static void remove_peer(mf_coord *c, peer *p)
{
    int i = (int)(p - c->peers.v);
    c->peers.v[i] = c->peers.v[--c->peers.n];
    if (c->rr >= c->peers.n)
        c->rr = 0;
}

/* Counts may have changed behind the tallies (quarantine): refresh. */
static int refresh_counts(mf_coord *c)
{
    mf_store_counts k;
    int rc = mf_store_counts_get(c->st, &k, c->camp.id);
    if (rc < 0)
        return rc;
    c->counts = k;
    c->unplanned = k.unplanned;
    return 0;
}

/* Jobs of a dead or departed worker back to the queue (those leased
 * max_attempts times are quarantined). */
static int release_worker(mf_coord *c, const char *id, const char *why)
{
    int rq = 0, q = 0;
    int rc = mf_store_jobs_release_worker(c->st, c->camp.id, id,
                                          c->cfg.max_attempts, &rq, &q);
    if (rc < 0)
        return rc;
    if (rq || q) {
        say(c, "worker %s %s: %d job(s) back in the queue, %d quarantined",
             id, why, rq, q);
        c->dry = 0;
        return refresh_counts(c);
    }
    return 0;
}

/* ---- planning ------------------------------------------------------------- */

typedef struct {
    mf_coord *c;
    long n, dup, still;
    int err;
    mf_rerun *rr;      /* what an earlier campaign gives; NULL none */
    long sample;       /* [campaign] sample: keep this many, 0 all */
    long ok_total;     /* mutants to check, when sampling */
    long ok_seen, kept;
} plan_ctx;

/* With a sample of N of M mutants to check, the k-th kept is number
 * k * M / N (evenly spaced, as `mutfarm check --sample`); the rest, and
 * duplicates and stillborn ones, are not part of the campaign. */
static int sampled_out(plan_ctx *p, const mf_mutant *mu)
{
    if (!p->sample)
        return 0;
    if (mu->status != MF_MUT_OK)
        return 1;
    long at = p->ok_seen++;
    if (p->kept >= p->sample ||
        at != (long)((int64_t)p->kept * p->ok_total / p->sample))
        return 1;
    p->kept++;
    return 0;
}

static int plan_fn(const mf_mutant *mu, void *ctx)
{
    plan_ctx *p = ctx;
    if (sampled_out(p, mu))
        return 0;
    int rc = mf_store_plan_add(p->c->st, mu);
    if (rc == 0 && p->rr)
        rc = mf_rerun_mutant(p->rr, mu);
    if (rc < 0) {
        p->err = rc;
        return 1;
    }
    p->n++;
    p->dup += mu->status == MF_MUT_DUPLICATE;
    p->still += mu->status == MF_MUT_STILLBORN;
    return 0;
}

static int count_ok_fn(const mf_mutant *mu, void *ctx)
{
    *(long *)ctx += mu->status == MF_MUT_OK;
    return 0;
}

/* MF_TEST_SYNTHETIC=N (benchmarks only): N made-up mutants, 64 per model
 * item, that only a stub worker can answer (bench/farm.sh). */
static int plan_synthetic(long n, plan_ctx *p)
{
    char id[17], site[64];
    for (long i = 0; i < n; i++) {
        uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        snprintf(id, sizeof id, "%016llx", (unsigned long long)z);
        snprintf(site, sizeof site, "synthetic/%ld", i);
        mf_mutant mu = {0};
        mu.lang = &mf_lang_smv;
        mu.op = MF_MOP_NEGATE;
        mu.item = (int)(i / 64);
        mu.site = site;
        mu.repl = "";
        mu.line = 1;
        mu.col = 1;
        memcpy(mu.id, id, sizeof mu.id);
        mu.status = MF_MUT_OK;
        mu.desc = "synthetic mutant (benchmark)";
        if (plan_fn(&mu, p))
            return 1;
    }
    return 0;
}

/* What the campaign took over, as one line after the plan's. */
static void say_reuse(mf_coord *c, const mf_store_reuse *r)
{
    long long id = (long long)c->camp.id, basis = (long long)r->basis;
    if (r->mode == MF_REUSE_FRESH)
        say(c, "campaign %lld: --fresh: nothing taken over from earlier "
               "campaigns", id);
    else if (r->mode == MF_REUSE_CARRY)
        say(c, "campaign %lld: same model and options as campaign %lld: "
               "%lld verdict(s) carried over, %lld killed by its %lld "
               "stored test(s), %lld left to the workers",
            id, basis, (long long)r->carried, (long long)r->replay_killed,
            (long long)r->replay_tests, (long long)r->to_solver);
    else if (r->mode == MF_REUSE_REPLAY)
        say(c, "campaign %lld: the model or the options changed since "
               "campaign %lld: %lld mutant(s) killed by its %lld stored "
               "test(s) (%lld with outputs expected anew, %lld not "
               "replayable), %lld left to the workers",
            id, basis, (long long)r->replay_killed,
            (long long)r->replay_tests, (long long)r->reexpected,
            (long long)r->replay_skipped, (long long)r->to_solver);
}

static int plan(mf_coord *c)
{
    int64_t t0 = mono_ms();
    plan_ctx p = {0};
    p.c = c;
    p.sample = c->cfg.sample;
    const char *syn = getenv("MF_TEST_SYNTHETIC");
    int synthetic = syn && *syn;
    int rc = 0;
    if (p.sample && !synthetic) {
        rc = mf_mutants_each(c->model, c->mask, count_ok_fn, &p.ok_total);
        if (rc < 0)
            return rc;
        if (p.ok_total <= p.sample)
            p.sample = 0; /* all of them */
    }
    if (!synthetic) {
        mf_rerun_opts ro = {c->o.fresh, c->cfg.bound, c->cfg.notion,
                            c->model_id, c->model_name, c->options.data};
        rc = mf_rerun_open(&p.rr, c->st, c->model, &ro);
        if (rc < 0)
            return rc;
    }
    rc = mf_store_plan_begin(c->st, c->camp.id);
    if (rc < 0) {
        mf_rerun_free(p.rr);
        return rc;
    }
    if (synthetic) {
        char *end;
        long n = strtol(syn, &end, 10);
        if (*end || n < 0 || n > 100000000) {
            mf_store_plan_end(c->st, 0);
            return mf_err_set(MF_ERROR, "MF_TEST_SYNTHETIC=%s: not a count",
                              syn);
        }
        say(c, "test mode: %ld synthetic mutants (only stub workers can "
                "answer them)", n);
        rc = plan_synthetic(n, &p);
    } else {
        rc = mf_mutants_each(c->model, c->mask, plan_fn, &p);
    }
    if (p.err == 0 && rc >= 0 && p.rr)
        rc = mf_rerun_finish(p.rr);
    if (p.err < 0 || rc < 0) {
        mf_store_plan_end(c->st, 0);
        mf_rerun_free(p.rr);
        return p.err < 0 ? p.err : rc;
    }
    rc = mf_store_plan_end(c->st, 1);
    if (rc == 0 && p.rr) {
        c->reuse = *mf_rerun_stats(p.rr);
        c->has_reuse = 1;
    }
    mf_rerun_free(p.rr);
    if (rc < 0)
        return rc;
    say(c, "campaign %lld: planned %ld mutants (%ld to check, %ld "
            "duplicate, %ld stillborn) in %.1f s",
         (long long)c->camp.id, p.n, p.n - p.dup - p.still, p.dup, p.still,
         (double)(mono_ms() - t0) / 1000.0);
    if (p.sample)
        say(c, "campaign %lld: a sample of %ld evenly spaced of the %ld "
               "mutants to check",
            (long long)c->camp.id, p.kept, p.ok_total);
    if (c->has_reuse)
        say_reuse(c, &c->reuse);
    return 0;
}

/* ---- opening -------------------------------------------------------------- */

static int load_model(mf_coord *c)
{
    int rc = mf_read_file(&c->model_text, &c->model_len, c->o.model_path,
                          MF_WIRE_MAX_FRAME / 2);
    if (rc < 0)
        return rc;
    mf_sha256_hex(c->model_sha, c->model_text, c->model_len);
    const char *base = strrchr(c->o.model_path, '/');
    snprintf(c->model_name, sizeof c->model_name, "%s",
             base ? base + 1 : c->o.model_path);
    if (c->cfg.inputs[0])
        split_list(&c->inputs_buf, &c->inputs, c->cfg.inputs);
    if (c->cfg.observe[0])
        split_list(&c->observe_buf, &c->observe, c->cfg.observe);
    mf_model_opts mo = {0};
    mo.inputs = c->inputs.v;
    mo.ninputs = c->inputs.n;
    mo.observe = c->observe.v;
    mo.nobserve = c->observe.n;
    rc = mf_model_load(&c->model, c->o.model_path, c->model_text,
                       c->model_len, &mo);
    if (rc < 0)
        return rc;
    if (c->cfg.operators[0]) {
        rc = mf_mutant_ops_parse(c->model, &c->mask, c->cfg.operators);
        if (rc < 0)
            return rc;
    }
    mf_config_engine_opts(&c->cfg, &c->eo);
    return 0;
}

static int bind_socket(mf_coord *c)
{
    c->zctx = zmq_ctx_new();
    if (!c->zctx)
        return mf_err_set(MF_ERROR, "cannot start ZeroMQ: %s",
                          zmq_strerror(errno));
    c->sock = zmq_socket(c->zctx, ZMQ_ROUTER);
    if (!c->sock)
        return mf_err_set(MF_ERROR, "cannot create a socket: %s",
                          zmq_strerror(errno));
    int one = 1, linger = 0, hwm = 100000;
    int64_t maxmsg = (int64_t)HARD_MAX_FRAME;
    zmq_setsockopt(c->sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(c->sock, ZMQ_MAXMSGSIZE, &maxmsg, sizeof maxmsg);
    zmq_setsockopt(c->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(c->sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(c->sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
    /* Connections closed by libzmq (a frame over HARD_MAX_FRAME, a ZMTP
     * error) never reach us as messages: the monitor tells. */
    char mon_ep[64];
    snprintf(mon_ep, sizeof mon_ep, "inproc://mf-coord-monitor-%p", (void *)c);
    int events = ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                 ZMQ_EVENT_HANDSHAKE_FAILED_AUTH;
    if (zmq_socket_monitor(c->sock, mon_ep, events) == 0) {
        c->mon = zmq_socket(c->zctx, ZMQ_PAIR);
        if (c->mon && zmq_connect(c->mon, mon_ep) != 0) {
            zmq_close(c->mon);
            c->mon = NULL;
        }
        if (c->mon)
            zmq_setsockopt(c->mon, ZMQ_LINGER, &linger, sizeof linger);
    }
    int rc = mf_zap_setup(&c->zap, c->zctx, c->sock, &c->cfg, c->cmd);
    if (rc < 0)
        return rc;
    if (zmq_bind(c->sock, c->cfg.bind) != 0)
        return mf_endpoint_bind_error(c->cfg.bind, errno, zmq_strerror(errno));
    mf_zap_warn_open(&c->cfg, c->cmd);
    size_t n = sizeof c->endpoint;
    if (zmq_getsockopt(c->sock, ZMQ_LAST_ENDPOINT, c->endpoint, &n) != 0)
        snprintf(c->endpoint, sizeof c->endpoint, "%s", c->cfg.bind);
    return 0;
}

/* Resume the campaign of this model and these options, or create it. */
static int open_campaign(mf_coord *c, int64_t model_id)
{
    mf_buf ops = {0};
    int rc = mf_config_campaign_key(&c->cfg, &ops, &c->options);
    if (rc == 0) {
        mf_store_campaign_key key = {c->cfg.bound,
                                     mf_config_notion_name(c->cfg.notion),
                                     ops.data, c->options.data};
        rc = mf_store_campaign_open(c->st, &c->camp, model_id, &key,
                                    MF_VERSION, NULL);
    }
    mf_buf_free(&ops);
    return rc;
}

int mf_coord_open(mf_coord **out, const mf_coord_opts *o)
{
    *out = NULL;
    mf_coord *c = mf_xcalloc(1, sizeof *c);
    c->out = mf_outbox_new();
    c->o = *o;
    c->cfg = *o->cfg;
    c->o.cfg = &c->cfg;
    c->cmd = o->cmd ? o->cmd : "mutfarm coordinator";
    if (!c->o.progress_ms)
        c->o.progress_ms = 250;
    if (c->cfg.heartbeat_ms < 10)
        c->cfg.heartbeat_ms = 10;
    if (c->cfg.liveness < 1)
        c->cfg.liveness = 1;
    if (c->cfg.max_attempts < 1)
        c->cfg.max_attempts = 1;
    if (c->cfg.job_min < 1)
        c->cfg.job_min = 1;
    if (c->cfg.job_max < c->cfg.job_min)
        c->cfg.job_max = c->cfg.job_min;
    const char *crash = getenv("MF_TEST_CRASH_ON");
    c->crash_on = crash && *crash ? crash : NULL;

    int rc = load_model(c);
    if (rc == MF_ERROR) /* the model or the options given for it */
        rc = MF_EPARSE;
    if (rc < 0)
        goto fail;
    /* Bind before the store is touched: a port in use leaves no campaign
     * behind. Workers that come up meanwhile queue their Hello in ZeroMQ
     * and are served as soon as the plan is stored. */
    rc = bind_socket(c);
    if (rc < 0)
        goto fail;
    c->verify = mf_verify_new(c->model, c->cfg.notion);
    rc = mf_store_open(&c->st, c->cfg.db, 0, c->cfg.busy_timeout_ms);
    if (rc < 0)
        goto fail;
    rc = mf_store_model_put(c->st, &c->model_id, c->model->hash,
                            c->model_name, c->model_text, c->model_len);
    if (rc < 0)
        goto fail;
    rc = open_campaign(c, c->model_id);
    if (rc < 0)
        goto fail;
    if (c->camp.state == MF_CAMPAIGN_PLANNING) {
        rc = plan(c);
        if (rc < 0)
            goto fail;
    } else {
        rc = mf_store_reuse_get(c->st, &c->reuse, c->camp.id);
        c->has_reuse = rc == 0;
        if (rc < 0 && rc != MF_ENOTFOUND)
            goto fail;
    }
    rc = refresh_counts(c);
    if (rc < 0)
        goto fail;
    c->done_start = c->counts.done;
    if (c->camp.resumed)
        say(c, "resuming campaign %lld of %s in %s: %lld of %lld mutants "
                "already decided, %d job(s) put back in the queue",
             (long long)c->camp.id, c->model_name, c->cfg.db,
             (long long)c->counts.done, (long long)c->counts.total,
             c->camp.requeued);
    unsigned live_ms = c->cfg.heartbeat_ms * (unsigned)c->cfg.liveness;
    rc = mf_live_start(&c->live, c->st, c->camp.id, c->endpoint,
                       c->cfg.heartbeat_ms,
                       live_ms > 3 * c->cfg.heartbeat_ms
                           ? live_ms
                           : 3 * c->cfg.heartbeat_ms);
    if (rc < 0)
        goto fail;
    *out = c;
    return 0;
fail:
    mf_coord_free(c);
    return rc;
}

const char *mf_coord_endpoint(const mf_coord *c)
{
    return c->endpoint;
}

const char *mf_coord_db(const mf_coord *c)
{
    return c->cfg.db;
}

void mf_coord_free(mf_coord *c)
{
    if (!c)
        return;
    if (c->sock) {
        zmq_socket_monitor(c->sock, NULL, 0);
        zmq_close(c->sock);
    }
    if (c->mon)
        zmq_close(c->mon);
    if (c->zctx)
        zmq_ctx_term(c->zctx);
    mf_live_free(c->live);
    mf_outbox_free(c->out);
    mf_zap_free(c->zap); /* its thread ends with the context */
    mf_verify_free(c->verify);
    mf_store_close(c->st);
    mf_buf_free(&c->options);
    mf_model_free(c->model);
    free(c->model_text);
    free(c->inputs_buf);
    free(c->observe_buf);
    MF_VEC_FREE(c->inputs);
    MF_VEC_FREE(c->observe);
    MF_VEC_FREE(c->peers);
    MF_VEC_FREE(c->seen_fds);
    free(c);
}

/* ---- batches: one transaction per wake-up --------------------------------- */

/* A held frame that could not leave after its batch was committed. A job
 * goes back to the queue at once (never a quarantine); a peer that is
 * gone is released, one whose queue is full waits for a new Credit. */
static void on_unsent(const uint8_t *rid, size_t rid_len, int64_t job,
                      int attempt, int err, void *ctx)
{
    mf_coord *c = ctx;
    int rc = 0;
    if (job) {
        rc = mf_store_job_release(c->st, job, attempt, INT_MAX,
                                  "could not be sent", NULL);
        c->counts.jobs_pending++;
        c->dry = 0;
    }
    /* Other frames are let go, as they were when sent at once: silence
     * tells when a peer is dead. */
    peer *p = job ? find_rid(c, rid, rid_len) : NULL;
    if (p && err == EHOSTUNREACH) {
        char id[MF_STORE_WORKER_ID];
        snprintf(id, sizeof id, "%s", p->id);
        remove_peer(c, p);
        if (rc == 0)
            rc = release_worker(c, id, "is gone");
    } else if (p) {
        p->credit = 0; /* its queue is full: wait for a new Credit */
    }
    if (rc < 0 && c->flush_rc == 0)
        c->flush_rc = rc;
}

/* Start holding frames back in one store transaction. */
static int batch_open(mf_coord *c)
{
    int rc = mf_store_batch_begin(c->st);
    c->batching = rc == 0;
    return rc;
}

/* End the batch: commit it when rc >= 0 and send what it announced, or
 * undo it and drop the frames. Returns rc, or the commit's failure. */
static int batch_close(mf_coord *c, int rc)
{
    if (!c->batching)
        return rc;
    c->batching = 0;
    int e = mf_store_batch_end(c->st, rc >= 0);
    if (rc < 0 || e < 0) {
        mf_outbox_drop(c->out);
        return rc < 0 ? rc : e;
    }
    c->flush_rc = 0;
    mf_outbox_flush(c->out, c->sock, on_unsent, c);
    return c->flush_rc < 0 ? c->flush_rc : rc;
}

/* Commit what is held so far and go on in a new batch. */
static int batch_cycle(mf_coord *c)
{
    int rc = batch_close(c, 0);
    return rc < 0 ? rc : batch_open(c);
}

/* ---- dispatch ------------------------------------------------------------- */

/* How many mutants the next job gets: enough for job_target_ms at the
 * measured cost, growing at most twofold over the largest job answered so
 * far (costs differ a lot between model items: a few cheap first jobs must
 * not size a huge one), and near the end of the campaign small enough that
 * every thread of the farm gets several jobs of what is left. */
static int job_size(mf_coord *c)
{
    int size;
    if (c->cost_ms <= 0)
        size = FIRST_JOB;
    else
        size = (int)fmin(1e6, (double)c->cfg.job_target_ms / c->cost_ms);
    int cap = 2 * c->proven > FIRST_JOB ? 2 * c->proven : FIRST_JOB;
    if (size > cap)
        size = cap;
    if (size > c->cfg.job_max)
        size = c->cfg.job_max;
    if (size < c->cfg.job_min)
        size = c->cfg.job_min;
    int64_t threads = 0;
    for (int i = 0; i < c->peers.n; i++)
        threads += c->peers.v[i].threads;
    if (threads < 1)
        threads = 1;
    int64_t left = c->unplanned;
    if (left < (int64_t)size * threads * 3) {
        int64_t tail = (left + 3 * threads - 1) / (3 * threads);
        if (tail < size)
            size = (int)tail;
        if (size < c->cfg.job_min)
            size = c->cfg.job_min;
    }
    return size;
}

typedef struct {
    MF_VEC(char *) ids;
    int n;
} id_list;

static int collect_id(const mf_store_mutant *m, void *ctx)
{
    id_list *l = ctx;
    if (l->n == l->ids.n)
        MF_VEC_PUSH(l->ids, mf_xcalloc(1, 17));
    snprintf(l->ids.v[l->n++], 17, "%s", m->id);
    return 0;
}

/* One job to peer p: cut or take the next pending job and lease it in one
 * store call (committed with the batch, before it leaves), send it.
 * Returns 1 if sent, 0 if there was nothing to send, < 0 on a store
 * failure. */
static int dispatch_one(mf_coord *c, peer *p, id_list *ids)
{
    mf_store_job job;
    /* A job that came back is handed out whole: were it split, the part
     * cut off would start again at attempt 0, and a poison mutant in it
     * would kill more than max_attempts workers. */
    int size = c->counts.jobs_pending > 0 ? c->cfg.job_max : job_size(c);
    ids->n = 0;
    int rc = mf_store_job_take_each(c->st, &job, c->camp.id, size, p->id,
                                    mf_store_now_ms() + c->cfg.lease_ms,
                                    collect_id, ids);
    if (rc == MF_ENOTFOUND) {
        c->dry = 1;
        return 0;
    }
    if (rc < 0)
        return rc;
    if (job.attempts == 1) { /* its first lease: cut just now */
        c->unplanned -= job.nmut;
        if (c->unplanned < 0)
            c->unplanned = 0;
    } else if (c->counts.jobs_pending > 0) {
        c->counts.jobs_pending--;
    }
    mf_wire_job_spec js = {0};
    js.job_id = (uint64_t)job.id;
    js.attempt = (uint32_t)job.attempts;
    js.campaign_id = (uint64_t)c->camp.id;
    js.model_name = c->model_name;
    js.model_text = c->model_text;
    js.model_len = c->model_len;
    js.model_sha256 = c->model_sha;
    js.mutant_ids = (const char *const *)ids->ids.v;
    js.nmutants = (size_t)ids->n;
    js.opts = &c->eo;
    js.inputs = c->inputs.v;
    js.ninputs = (size_t)c->inputs.n;
    js.observe = c->observe.v;
    js.nobserve = (size_t)c->observe.n;
    js.crash_on = c->crash_on;
    uint8_t *buf = NULL;
    size_t len = 0;
    rc = mf_wire_encode_job_spec(&buf, &len, &js);
    p->credit--;
    c->send_job = job.id;
    c->send_attempt = job.attempts;
    int sent = send_peer(c, p, buf, len, rc);
    c->send_job = 0;
    if (sent < 0) {
        /* Not sent: the lease goes back at once, and this never
         * quarantines the job. */
        int e = errno;
        rc = mf_store_job_release(c->st, job.id, job.attempts, INT_MAX,
                                  "could not be sent", NULL);
        if (rc < 0)
            return rc;
        c->counts.jobs_pending++;
        if (e == EHOSTUNREACH) {
            char id[MF_STORE_WORKER_ID];
            snprintf(id, sizeof id, "%s", p->id);
            remove_peer(c, p);
            rc = release_worker(c, id, "is gone");
            if (rc < 0)
                return rc;
        } else {
            p->credit = 0; /* its queue is full: wait for a new Credit */
        }
        return 0;
    }
    if (c->o.verbose)
        say(c, "job %lld (attempt %d, %d mutants) -> worker %s",
             (long long)job.id, job.attempts, job.nmut, p->id);
    return 1;
}

/* Hand out jobs, one at a time round-robin, while some worker has credit
 * and there is work. */
static int dispatch(mf_coord *c)
{
    id_list ids = {{0}, 0};
    int rc = 0;
    while (!c->dry && c->peers.n > 0) {
        peer *p = NULL;
        for (int k = 0; k < c->peers.n; k++) {
            int i = (c->rr + k) % c->peers.n;
            if (c->peers.v[i].credit > 0) {
                p = &c->peers.v[i];
                c->rr = (i + 1) % c->peers.n;
                break;
            }
        }
        if (!p)
            break;
        rc = dispatch_one(c, p, &ids);
        if (rc <= 0)
            break;
        if (c->batching && mf_outbox_bytes(c->out) > OUTBOX_MAX &&
            (rc = batch_cycle(c)) < 0)
            break;
    }
    for (int i = 0; i < ids.ids.n; i++)
        free(ids.ids.v[i]);
    MF_VEC_FREE(ids.ids);
    return rc < 0 ? rc : 0;
}

/* ---- messages from workers ------------------------------------------------ */

static void on_hello(mf_coord *c, const uint8_t *rid, size_t rid_len,
                     peer *p, const mf_wire_hello *h)
{
    char who[160];
    if (!h->worker_id[0] || strlen(h->worker_id) >= MF_STORE_WORKER_ID) {
        say_peer(c, "refused a hello from %s: worker id empty or longer "
                     "than %d bytes",
                  peer_name(who, sizeof who, rid, rid_len, p),
                  MF_STORE_WORKER_ID - 1);
        send_reject(c, rid, rid_len, MUTFARM__V1__REJECT_CODE__REJECT_INVALID,
                    "worker id empty or too long", 0, 0);
        return;
    }
    int fresh = 0;
    if (!p) {
        p = find_id(c, h->worker_id);
        if (p) {
            /* The same worker on a new connection (it reconnected): its
             * leases stay, it is only reachable elsewhere now. */
            if (!c->o.quiet)
                say(c, "worker %s reconnected", p->id);
        } else {
            peer z = {0};
            MF_VEC_PUSH(c->peers, z);
            p = &c->peers.v[c->peers.n - 1];
            fresh = 1;
        }
        memcpy(p->rid, rid, rid_len);
        p->rid_len = rid_len;
    } else if (strcmp(p->id, h->worker_id) != 0) {
        /* A new name on the same connection: the old one is gone. */
        int rc = release_worker(c, p->id, "renamed itself");
        (void)rc;
    }
    snprintf(p->id, sizeof p->id, "%s", h->worker_id);
    snprintf(p->host, sizeof p->host, "%s", h->host);
    p->threads = h->threads < 1 ? 1 : h->threads > 4096 ? 4096
                                                         : (int)h->threads;
    p->credit = 0;
    int64_t now = mono_ms();
    p->next_hb = now;
    p->seen_at = now;
    if (fresh && !c->o.quiet)
        say(c, "worker %s joined (%s, %d thread%s, mutfarm %s, z3 %s)",
             p->id, p->host[0] ? p->host : "?", p->threads,
             p->threads == 1 ? "" : "s", h->mutfarm_version, h->z3_version);
    if (fresh && strcmp(h->mutfarm_version, MF_VERSION) != 0)
        say(c, "note: worker %s runs mutfarm %s, this coordinator %s",
             p->id, h->mutfarm_version, MF_VERSION);
    mf_store_worker w = {p->id, p->host, p->threads, h->mutfarm_version,
                         h->z3_version};
    if (mf_store_worker_seen(c->st, &w) < 0)
        say(c, "%s", mf_err_msg());
    if (!c->z3_recorded && h->z3_version[0]) {
        if (mf_store_campaign_versions(c->st, c->camp.id, NULL,
                                       h->z3_version) == 0)
            c->z3_recorded = 1;
    }
}

/* Exponentially weighted cost per mutant from a committed job. */
static void measure(mf_coord *c, const mf_wire_result *r)
{
    if (r->n_mutants == 0)
        return;
    double ms = 0;
    if (r->stats && r->stats->wall_ms)
        ms = (double)r->stats->wall_ms;
    else
        for (size_t i = 0; i < r->n_mutants; i++)
            ms += (double)r->mutants[i]->solver_ms;
    if ((int)r->n_mutants > c->proven)
        c->proven = (int)r->n_mutants;
    double per = ms / (double)r->n_mutants;
    if (per < 0.01)
        per = 0.01;
    c->cost_ms = c->cost_ms <= 0 ? per : 0.7 * c->cost_ms + 0.3 * per;
}

/* A Result: committed in the store first, then acknowledged. Returns < 0
 * only for a store failure (the coordinator stops; nothing was acked). */
/* Refuse worker p's result r with reject `code`, saying why. */
static void refuse_result(mf_coord *c, peer *p, const mf_wire_result *r,
                          Mutfarm__V1__RejectCode code, const char *why)
{
    say_peer(c, "refused a result from worker %s: %s", p->id, why);
    send_reject(c, p->rid, p->rid_len, code, why, r->job_id, r->attempt);
}

/* Acknowledge worker p's result r, as a duplicate (ignored) or not. */
static void ack_result(mf_coord *c, peer *p, const mf_wire_result *r,
                       int duplicate)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = mf_wire_encode_ack(&buf, &len, r->job_id, r->attempt, duplicate);
    send_peer(c, p, buf, len, rc);
}

/* A result with a kill that does not replay (verify.c): refused, its job
 * back in the queue (never quarantined for it: the fault is the
 * worker's), the worker's refusals counted; at MF_VERIFY_CUT_OFF it is cut
 * off, its jobs back in the queue and its messages ignored. */
static int refuse_false_kill(mf_coord *c, peer *p, const mf_wire_result *r,
                             const char *why)
{
    char msg[700];
    int n = mf_verify_refused(c->verify, p->id, c->msg_key);
    snprintf(msg, sizeof msg, "a kill that does not replay (refusal %d of "
                              "%d before a cut-off): %s",
             n, MF_VERIFY_CUT_OFF, why);
    refuse_result(c, p, r, MUTFARM__V1__REJECT_CODE__REJECT_INVALID, msg);
    int rc = mf_store_job_release(c->st, (int64_t)r->job_id, (int)r->attempt,
                                  INT_MAX, msg, NULL);
    if (rc == 0 && n >= MF_VERIFY_CUT_OFF) {
        say(c, "worker %s%s%s cut off after %d refused results: its jobs go "
               "back to the queue, what it sends is ignored",
            p->id, c->msg_key ? " key " : "", c->msg_key ? c->msg_key : "",
            n);
        p->credit = 0;
        rc = release_worker(c, p->id, "is cut off");
    }
    c->dry = 0;
    return rc < 0 ? rc : refresh_counts(c);
}

/* 1 if every kill of result r (verdicts v) replays (verify.c); else 0,
 * the result refused, with *rc < 0 only for a store failure. */
static int verified(mf_coord *c, peer *p, const mf_wire_result *r,
                    const mf_verdict *v, int *rc)
{
    size_t n = r->n_mutants;
    const char **ids = mf_xcalloc(n ? n : 1, sizeof *ids);
    for (size_t i = 0; i < n; i++)
        ids[i] = r->mutants[i]->mutant_id;
    char why[600];
    int bad = mf_verify_kills(c->verify, c->st, (int64_t)r->job_id, why,
                              sizeof why, ids, v, (int)n);
    free(ids);
    if (bad)
        *rc = refuse_false_kill(c, p, r, why);
    return !bad;
}

static int on_result(mf_coord *c, peer *p, const mf_wire_result *r)
{
    char why[512];
    if (r->campaign_id != (uint64_t)c->camp.id) {
        snprintf(why, sizeof why, "job %llu is of campaign %llu; this "
                                  "coordinator serves campaign %lld",
                 (unsigned long long)r->job_id,
                 (unsigned long long)r->campaign_id, (long long)c->camp.id);
        refuse_result(c, p, r, MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB,
                      why);
        return 0;
    }
    size_t n = r->n_mutants;
    mf_verdict *v = mf_xcalloc(n ? n : 1, sizeof *v);
    mf_store_verdict *sv = mf_xcalloc(n ? n : 1, sizeof *sv);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (mf_wire_verdict_from_result(&v[i], r->mutants[i]) < 0) {
            snprintf(why, sizeof why, "%s", mf_err_msg());
            refuse_result(c, p, r, MUTFARM__V1__REJECT_CODE__REJECT_INVALID,
                          why);
            goto done;
        }
        sv[i].mutant_id = r->mutants[i]->mutant_id;
        sv[i].v = &v[i];
    }
    /* Every kill is replayed before it is stored, but a result the store
     * will not take (its job done or quarantined: a re-sent or duplicate
     * result) is not worth a replay: a busy coordinator hears the same
     * result again from every worker that reconnects. Only a result with
     * a kill asks the store: the others have nothing to replay. */
    int kills = 0;
    for (size_t i = 0; i < n && !kills; i++)
        kills = v[i].kind == MF_V_KILLED;
    mf_store_job job;
    int settled = kills &&
                  mf_store_job_get(c->st, &job, (int64_t)r->job_id) == 0 &&
                  (job.state == MF_JOB_DONE || job.state == MF_JOB_QUARANTINED);
    if (kills && !settled && !verified(c, p, r, v, &rc))
        goto done;
    mf_store_result res = {0};
    res.job_id = (int64_t)r->job_id;
    res.attempt = (int)r->attempt;
    res.worker = p->id;
    res.verdicts = sv;
    res.nverdicts = (int)n;
    res.model = c->model;
    mf_store_commit_info info;
    rc = mf_store_commit(c->st, &info, &res);
    if (rc < 0)
        goto done;
    switch (info.outcome) {
    case MF_COMMIT_OK:
        p->jobs++;
        for (int k = 0; k < 5; k++) {
            c->counts.done += info.counts[k];
        }
        c->counts.killed += info.counts[MF_V_KILLED];
        c->counts.equivalent += info.counts[MF_V_EQUIVALENT];
        c->counts.survived += info.counts[MF_V_SURVIVED];
        c->counts.unknown += info.counts[MF_V_UNKNOWN];
        c->counts.error += info.counts[MF_V_ERROR];
        measure(c, r);
        if (info.late)
            say(c, "took the late result of job %llu (attempt %u) from "
                   "worker %s%s%s%s", (unsigned long long)r->job_id,
                r->attempt, p->id,
                info.cancelled_attempt ? "; the lease of its re-run by "
                                         "worker " : "",
                info.cancelled_worker,
                info.cancelled_attempt ? " is cancelled" : "");
        if (c->o.verbose)
            say(c, "job %llu (attempt %u) committed from worker %s",
                 (unsigned long long)r->job_id, r->attempt, p->id);
        ack_result(c, p, r, 0);
        break;
    case MF_COMMIT_DUPLICATE:
    case MF_COMMIT_STALE:
    case MF_COMMIT_QUARANTINED:
        say(c, "ignored a result of job %llu (attempt %u) from worker %s: "
                "%s",
             (unsigned long long)r->job_id, r->attempt, p->id, info.why);
        ack_result(c, p, r, 1);
        break;
    case MF_COMMIT_UNKNOWN_JOB:
        refuse_result(c, p, r, MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB,
                      info.why);
        break;
    case MF_COMMIT_INVALID:
        refuse_result(c, p, r, MUTFARM__V1__REJECT_CODE__REJECT_INVALID,
                      info.why);
        /* The worker will not send a better one: the lease goes back. */
        rc = mf_store_job_release(c->st, (int64_t)r->job_id, (int)r->attempt,
                                  c->cfg.max_attempts, info.why, NULL);
        c->dry = 0;
        if (rc == 0)
            rc = refresh_counts(c);
        break;
    }
done:
    for (size_t i = 0; i < n; i++)
        mf_verdict_clear(&v[i]);
    free(v);
    free(sv);
    return rc;
}

static int on_reject(mf_coord *c, peer *p, const mf_wire_reject *r)
{
    say(c, "worker %s refused %s%llu (code %d): %s", p->id,
         r->job_id ? "job " : "message ", (unsigned long long)r->job_id,
         (int)r->code, r->reason);
    if (!r->job_id ||
        r->code != MUTFARM__V1__REJECT_CODE__REJECT_JOB_REFUSED)
        return 0;
    char why[600];
    snprintf(why, sizeof why, "refused by worker %s: %s", p->id, r->reason);
    int q = 0;
    int rc = mf_store_job_release(c->st, (int64_t)r->job_id, (int)r->attempt,
                                  c->cfg.max_attempts, why, &q);
    if (rc < 0)
        return rc;
    c->dry = 0;
    return refresh_counts(c);
}

static int on_bye(mf_coord *c, peer *p, const mf_wire_bye *b)
{
    /* Given back unfinished: not the job's fault, never a quarantine. */
    for (size_t i = 0; i < b->n_returned; i++) {
        int rc = mf_store_job_release(c->st, (int64_t)b->returned[i]->job_id,
                                      (int)b->returned[i]->attempt, INT_MAX,
                                      "given back by a leaving worker", NULL);
        if (rc < 0)
            return rc;
    }
    if (!c->o.quiet || b->n_returned)
        say(c, "worker %s left (%s), %zu job(s) given back", p->id,
            b->reason[0] ? b->reason : "no reason given", b->n_returned);
    c->dry = 0;
    char id[MF_STORE_WORKER_ID];
    snprintf(id, sizeof id, "%s", p->id);
    remove_peer(c, p);
    int rc = release_worker(c, id, "left");
    return rc < 0 ? rc : refresh_counts(c);
}

/* One message (routing id + one frame) from the socket. */
static int on_message(mf_coord *c, const uint8_t *rid, size_t rid_len,
                      const void *data, size_t len)
{
    char who[160];
    peer *p = find_rid(c, rid, rid_len);
    mf_wire_env *e = NULL;
    mf_wire_fault fault = MF_WIRE_OK;
    if (mf_wire_decode(&e, data, len, &fault) < 0) {
        char why[300];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        say_peer(c, "refused a %zu-byte frame from %s: %s (%s)", len,
                  peer_name(who, sizeof who, rid, rid_len, p),
                  mf_wire_fault_name(fault), why);
        send_reject(c, rid, rid_len, mf_wire_fault_reject_code(fault), why, 0,
                    0);
        if (p)
            p->expires = mono_ms() + (int64_t)c->cfg.heartbeat_ms *
                                         c->cfg.liveness;
        return 0;
    }
    mf_wire_kind k = (mf_wire_kind)e->body_case;
    int rc = 0;
    if (mf_verify_is_cut(c->verify,
                         p ? p->id : k == MF_WIRE_HELLO ? e->hello->worker_id
                                                        : NULL,
                         c->msg_key))
        goto done; /* cut off (refuse_false_kill): ignored */
    if (c->o.verbose)
        say(c, "%s from %s", mf_wire_kind_name(k),
             peer_name(who, sizeof who, rid, rid_len, p));
    if (k == MF_WIRE_HELLO) {
        on_hello(c, rid, rid_len, p, e->hello);
        p = find_rid(c, rid, rid_len);
    } else if (!p) {
        if (k != MF_WIRE_BYE) {
            say_peer(c, "refused a %s from %s: it has not said hello",
                      mf_wire_kind_name(k),
                      peer_name(who, sizeof who, rid, rid_len, p));
            send_reject(c, rid, rid_len,
                        MUTFARM__V1__REJECT_CODE__REJECT_NOT_HELLO,
                        "say hello first", 0, 0);
        }
        goto done;
    }
    if (!p)
        goto done;
    int64_t now = mono_ms();
    p->expires = now + (int64_t)c->cfg.heartbeat_ms * c->cfg.liveness;
    switch (k) {
    case MF_WIRE_HELLO: break;
    case MF_WIRE_CREDIT: {
        int64_t cr = (int64_t)p->credit + e->credit->n;
        int64_t cap = (int64_t)p->threads * CREDIT_PER_THREAD;
        p->credit = (int)(cr > cap ? cap : cr);
        break;
    }
    case MF_WIRE_RESULT: rc = on_result(c, p, e->result); break;
    case MF_WIRE_HEARTBEAT: break;
    case MF_WIRE_REJECT: rc = on_reject(c, p, e->reject); break;
    case MF_WIRE_BYE: rc = on_bye(c, p, e->bye); p = NULL; break;
    default:
        say_peer(c, "refused a %s from worker %s: not a worker's message",
                  mf_wire_kind_name(k), p->id);
        send_reject(c, rid, rid_len,
                    MUTFARM__V1__REJECT_CODE__REJECT_UNEXPECTED,
                    "a coordinator does not take this message", 0, 0);
        break;
    }
    if (p && now - p->seen_at >= SEEN_MS) {
        p->seen_at = now;
        mf_store_worker w = {p->id, p->host, p->threads, NULL, NULL};
        if (mf_store_worker_seen(c->st, &w) < 0)
            say(c, "%s", mf_err_msg());
    }
done:
    mf_wire_free(e);
    return rc;
}

/* Remember the connection (file descriptor) a frame came from, to tell a
 * connection libzmq closed before anything reached us (drain_monitor). */
static void seen_fd(mf_coord *c, int fd)
{
    if (fd < 0)
        return;
    for (int i = 0; i < c->seen_fds.n; i++)
        if (c->seen_fds.v[i] == fd)
            return;
    MF_VEC_PUSH(c->seen_fds, fd);
}

/* Everything waiting on the socket, up to BATCH messages. */
static int drain(mf_coord *c)
{
    for (int n = 0; n < BATCH; n++) {
        zmq_msg_t id, body;
        zmq_msg_init(&id);
        if (zmq_msg_recv(&id, c->sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&id);
            return 0; /* EAGAIN, EINTR */
        }
        if (!zmq_msg_more(&id)) { /* ROUTER always prefixes the id */
            zmq_msg_close(&id);
            continue;
        }
        zmq_msg_init(&body);
        zmq_msg_recv(&body, c->sock, 0);
        int extra = 0;
        while (zmq_msg_more(&body)) {
            /* More than one frame: not our protocol. Read it all off. */
            zmq_msg_close(&body);
            zmq_msg_init(&body);
            zmq_msg_recv(&body, c->sock, 0);
            extra++;
        }
        const uint8_t *rid = zmq_msg_data(&id);
        size_t rid_len = zmq_msg_size(&id);
        seen_fd(c, zmq_msg_get(&body, ZMQ_SRCFD));
        c->msg_key = c->zap ? mf_zap_msg_key(&body) : NULL;
        int rc = 0;
        if (rid_len > sizeof(((peer *)0)->rid) || rid_len == 0) {
            say_peer(c, "dropped a frame from a peer with a %zu-byte "
                         "routing id", rid_len);
        } else if (extra) {
            char who[160];
            say_peer(c, "refused a %d-frame message from %s: one frame per "
                         "message",
                      extra + 1,
                      peer_name(who, sizeof who, rid, rid_len,
                                find_rid(c, rid, rid_len)));
            send_reject(c, rid, rid_len,
                        MUTFARM__V1__REJECT_CODE__REJECT_UNDECODABLE,
                        "one frame per message", 0, 0);
        } else {
            rc = on_message(c, rid, rid_len, zmq_msg_data(&body),
                            zmq_msg_size(&body));
        }
        zmq_msg_close(&body);
        zmq_msg_close(&id);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Monitor events: a connection closed. One from which no frame ever
 * reached us gets a log line: it is how a frame over the hard cap shows
 * (libzmq drops it, and the connection). The others are peers leaving,
 * told by their Bye, their silence, or the refusal already logged. */
static void drain_monitor(mf_coord *c)
{
    for (;;) {
        zmq_msg_t ev, addr;
        zmq_msg_init(&ev);
        if (zmq_msg_recv(&ev, c->mon, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&ev);
            return;
        }
        zmq_msg_init(&addr);
        if (zmq_msg_more(&ev))
            zmq_msg_recv(&addr, c->mon, 0);
        if (zmq_msg_size(&ev) >= 6) {
            const uint8_t *d = zmq_msg_data(&ev);
            uint16_t event;
            uint32_t fd;
            memcpy(&event, d, sizeof event);
            memcpy(&fd, d + 2, sizeof fd);
            int known = 0;
            for (int i = 0; i < c->seen_fds.n; i++)
                if (event == ZMQ_EVENT_DISCONNECTED &&
                    c->seen_fds.v[i] == (int)fd) {
                    c->seen_fds.v[i] = c->seen_fds.v[--c->seen_fds.n];
                    known = 1;
                    break;
                }
            if (event != ZMQ_EVENT_DISCONNECTED) /* a handshake failed */
                mf_zap_handshake_failed(c->zap, event, (int)fd,
                                        zmq_msg_data(&addr),
                                        zmq_msg_size(&addr));
            else if (!known &&
                     !mf_zap_disconnected(c->zap, zmq_msg_data(&addr),
                                          zmq_msg_size(&addr)))
                say_peer(c, "dropped a connection on %.*s before any frame "
                            "of it arrived (a frame over the %zu MiB cap, "
                            "or not ZeroMQ at all)",
                         (int)zmq_msg_size(&addr),
                         (const char *)zmq_msg_data(&addr),
                         (size_t)HARD_MAX_FRAME >> 20);
        }
        zmq_msg_close(&addr);
        zmq_msg_close(&ev);
    }
}

/* ---- timers --------------------------------------------------------------- */

static int heartbeats_and_deaths(mf_coord *c, int64_t now)
{
    for (int i = 0; i < c->peers.n; i++) {
        peer *p = &c->peers.v[i];
        if (now > p->expires) {
            char id[MF_STORE_WORKER_ID];
            snprintf(id, sizeof id, "%s", p->id);
            say(c, "worker %s silent for %u ms: declared dead", id,
                 c->cfg.heartbeat_ms * (unsigned)c->cfg.liveness);
            remove_peer(c, p);
            int rc = release_worker(c, id, "is dead");
            if (rc < 0)
                return rc;
            i--;
            continue;
        }
        if (now >= p->next_hb) {
            uint8_t *buf = NULL;
            size_t len = 0;
            int rc = mf_wire_encode_heartbeat(&buf, &len, 0);
            if (send_peer(c, p, buf, len, rc) < 0)
                p->next_hb = now + c->cfg.heartbeat_ms;
        }
    }
    return 0;
}

/* After a spell in which the coordinator could not hear (stopped, starved
 * of CPU, or a long round of its own work), the workers' heartbeats of
 * that spell may still wait unread in the socket, some not even handed
 * over by libzmq's I/O thread yet: judged now, live workers would be
 * declared dead and their leases re-queued. So after a spell longer than
 * a heartbeat interval every worker gets two more intervals to be heard,
 * at most once per liveness window: a coordinator whose every round is
 * that long still reads each round's heartbeats, and must still find a
 * worker that died. A spell long enough to have killed workers is
 * logged. */
static void grace_after_stall(mf_coord *c, int64_t deaf_ms, int64_t now)
{
    int64_t hb = c->cfg.heartbeat_ms;
    if (deaf_ms <= hb || now - c->grace_at < hb * c->cfg.liveness)
        return;
    c->grace_at = now;
    for (int i = 0; i < c->peers.n; i++)
        if (c->peers.v[i].expires < now + 2 * hb)
            c->peers.v[i].expires = now + 2 * hb;
    if (deaf_ms >= hb * c->cfg.liveness)
        say(c, "deaf for %lld ms (stopped, starved or busy): %d worker(s) "
               "get %lld ms more to be heard",
             (long long)deaf_ms, c->peers.n, (long long)(2 * hb));
}

static int housekeep(mf_coord *c)
{
    int rq = 0, q = 0;
    int rc = mf_store_jobs_expire(c->st, c->camp.id, mf_store_now_ms(),
                                  c->cfg.max_attempts, &rq, &q);
    if (rc < 0)
        return rc;
    if (rq || q)
        say(c, "%d lease(s) ran out (%u ms): %d job(s) back in the queue, "
                "%d quarantined",
             rq + q, c->cfg.lease_ms, rq, q);
    c->dry = 0; /* new work may have appeared in any way: look again */
    /* The tallies follow every commit and release; what the store says
     * is only needed after a change they do not see (leases ran out), and
     * now and then as a check. */
    int64_t now = mono_ms();
    if (!rq && !q && now < c->next_recount)
        return 0;
    c->next_recount = now + RECOUNT_MS;
    return refresh_counts(c);
}

/* ---- progress ------------------------------------------------------------- */

/* The counts mf_coord_progress takes from mf_store_counts, by name. */
#define PROGRESS_COUNTS(X)                                                     \
    X(total) X(done) X(killed) X(equivalent) X(survived) X(unknown) X(error)  \
    X(duplicate) X(stillborn)

static void fill_progress(mf_coord *c, mf_coord_progress *p)
{
    memset(p, 0, sizeof *p);
    const mf_store_counts *k = &c->counts;
    p->campaign_id = c->camp.id;
    p->resumed = c->camp.resumed;
#define COPY(f) p->f = k->f;
    PROGRESS_COUNTS(COPY)
#undef COPY
    p->done_here = k->done - c->done_start;
    p->workers = c->peers.n;
    for (int i = 0; i < c->peers.n; i++)
        p->threads += c->peers.v[i].threads;
    int64_t den = k->killed + k->survived + k->unknown;
    p->score = den ? (double)k->killed / (double)den : -1;
    p->complete = c->complete;
    if (c->has_reuse) {
        p->reuse = mf_reuse_name(c->reuse.mode);
        p->basis = c->reuse.basis;
        p->carried = c->reuse.carried;
        p->replay_tests = c->reuse.replay_tests;
        p->replay_killed = c->reuse.replay_killed;
        p->to_solver = c->reuse.to_solver;
    }
    p->eta_s = -1;
    if (c->rate_n >= 2) {
        int last = (c->rate_i + 31) % 32;
        int first = c->rate_n < 32 ? 0 : c->rate_i;
        int64_t dt = c->rate_t[last] - c->rate_t[first];
        int64_t dd = c->rate_done[last] - c->rate_done[first];
        if (dt > 0 && dd > 0) {
            p->rate = (double)dd * 1000.0 / (double)dt;
            p->eta_s = (double)(k->total - k->done) / p->rate;
        }
    }
}

/* One sample a second for the rate, 32 kept: a half-minute window. */
static void sample_rate(mf_coord *c, int64_t now)
{
    int last = (c->rate_i + 31) % 32;
    if (c->rate_n > 0 && now - c->rate_t[last] < 1000)
        return;
    c->rate_t[c->rate_i] = now;
    c->rate_done[c->rate_i] = c->counts.done;
    c->rate_i = (c->rate_i + 1) % 32;
    if (c->rate_n < 32)
        c->rate_n++;
}

static void fmt_secs(char *buf, size_t n, double s)
{
    if (s < 0 || s > 360000) {
        snprintf(buf, n, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
}

static void draw_line(mf_coord *c, const mf_coord_progress *p)
{
    char eta[32];
    fmt_secs(eta, sizeof eta, p->eta_s);
    double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;
    fprintf(stderr,
            "\r\033[K%lld/%lld (%.1f%%)  killed %lld  equivalent %lld  "
            "%.1f/s  ETA %s  %d worker%s",
            (long long)p->done, (long long)p->total, pct,
            (long long)p->killed, (long long)p->equivalent, p->rate, eta,
            p->workers, p->workers == 1 ? "" : "s");
    fflush(stderr);
    c->line_shown = 1;
}

/* The progress as one log line, for a stderr that is not a terminal (cron,
 * CI, SLURM): a line every progress_log_ms. */
static void log_line(mf_coord *c, const mf_coord_progress *p)
{
    char eta[32];
    fmt_secs(eta, sizeof eta, p->eta_s);
    double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;
    mf_buf reuse = {0};
    if (p->reuse)
        mf_buf_printf(&reuse, "; %lld carried, %lld killed by replayed "
                              "tests, %lld to the workers",
                      (long long)p->carried, (long long)p->replay_killed,
                      (long long)p->to_solver);
    say(c, "campaign %lld: %lld/%lld decided (%.1f%%): %lld killed, %lld "
           "equivalent, %lld survived, %lld unknown, %lld error; %.1f/s, "
           "ETA %s%s; %d worker%s",
        (long long)p->campaign_id, (long long)p->done, (long long)p->total,
        pct, (long long)p->killed, (long long)p->equivalent,
        (long long)p->survived, (long long)p->unknown, (long long)p->error,
        p->rate, eta, reuse.data ? reuse.data : "", p->workers,
        p->workers == 1 ? "" : "s");
    mf_buf_free(&reuse);
}

void mf_coord_progress_get(mf_coord *c, mf_coord_progress *out)
{
    if (refresh_counts(c) < 0)
        say(c, "%s", mf_err_msg());
    fill_progress(c, out);
}

void mf_coord_summary(FILE *f, const mf_coord_progress *p, const char *db)
{
    fprintf(f, "campaign %lld: %s\n", (long long)p->campaign_id,
            p->complete ? "complete" : "not complete");
    fprintf(f, "  %lld mutants decided of %lld: %lld killed, %lld "
               "equivalent, %lld survived, %lld unknown, %lld error\n",
            (long long)p->done, (long long)p->total, (long long)p->killed,
            (long long)p->equivalent, (long long)p->survived,
            (long long)p->unknown, (long long)p->error);
    fprintf(f, "  not checked: %lld duplicate, %lld stillborn\n",
            (long long)p->duplicate, (long long)p->stillborn);
    if (p->reuse && p->basis)
        fprintf(f, "  taken over from campaign %lld: %lld carried, %lld "
                   "killed by its replayed tests; %lld sent to the solver\n",
                (long long)p->basis, (long long)p->carried,
                (long long)p->replay_killed, (long long)p->to_solver);
    else if (p->reuse)
        fprintf(f, "  nothing taken over (%s): %lld sent to the solver\n",
                !strcmp(p->reuse, "fresh")
                    ? "--fresh"
                    : "no earlier finished campaign of the model",
                (long long)p->to_solver);
    if (p->score >= 0)
        fprintf(f, "  mutation score: %.1f%% (killed / (killed + survived + "
                   "unknown))\n",
                100.0 * p->score);
    else
        fprintf(f, "  mutation score: n/a (nothing killed, survived or "
                   "unknown)\n");
    fprintf(f, "  store: %s (sqlite3 %s 'SELECT * FROM survivors')\n", db, db);
}


/* ---- the loop ------------------------------------------------------------- */

static void say_bye(mf_coord *c)
{
    for (int i = 0; i < c->peers.n; i++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        int rc = mf_wire_encode_bye(&buf, &len, "campaign complete", NULL,
                                    NULL, 0);
        send_peer(c, &c->peers.v[i], buf, len, rc);
    }
    /* Let the byes leave before the socket closes. */
    int linger = 2000;
    zmq_setsockopt(c->sock, ZMQ_LINGER, &linger, sizeof linger);
}

/* Complete when every mutant to decide has its verdict (checked in the
 * store, not only in the tallies). */
static int check_complete(mf_coord *c)
{
    if (c->counts.done < c->counts.total)
        return 0;
    int rc = refresh_counts(c);
    if (rc < 0)
        return rc;
    if (c->counts.done < c->counts.total || c->counts.unplanned > 0)
        return 0;
    rc = mf_store_campaign_finish(c->st, c->camp.id);
    if (rc < 0)
        return rc;
    c->complete = 1;
    return 1;
}

int mf_coord_serve(mf_coord *c)
{
    int64_t now = mono_ms();
    int64_t next_house = now + HOUSEKEEP_MS, next_tick = now;
    int rc = 0, stopped = 0;
    int64_t judged = now; /* when the peers' silence was last judged */
    mf_coord_progress pr;
    c->next_log = now + c->o.progress_log_ms;
    c->grace_at = INT64_MIN / 2;
    if (c->peers.n == 0 && !c->o.quiet && c->counts.done < c->counts.total)
        say(c, "serving campaign %lld (%lld mutants to decide) on %s; "
                "waiting for workers",
             (long long)c->camp.id, (long long)(c->counts.total -
                                                c->counts.done),
             c->endpoint);
    for (;;) {
        rc = check_complete(c);
        if (rc != 0)
            break;
        if (c->o.stop && *c->o.stop) {
            stopped = 1;
            break;
        }
        now = mono_ms();
        int64_t wake = next_house < next_tick ? next_house : next_tick;
        for (int i = 0; i < c->peers.n; i++) {
            if (c->peers.v[i].next_hb < wake)
                wake = c->peers.v[i].next_hb;
            if (c->peers.v[i].expires + 1 < wake)
                wake = c->peers.v[i].expires + 1;
        }
        long timeout = wake > now ? (long)(wake - now) : 0;
        zmq_pollitem_t it[2] = {{c->sock, 0, ZMQ_POLLIN, 0},
                                {c->mon, 0, ZMQ_POLLIN, 0}};
        int64_t poll_at = mono_ms();
        int n = zmq_poll(it, c->mon ? 2 : 1, timeout);
        /* Time in the poll up to its timeout was spent listening; the
         * rest since the last judgement was not (grace_after_stall). */
        int64_t listened = mono_ms() - poll_at;
        if (listened > timeout)
            listened = timeout;
        if (n < 0 && errno != EINTR) {
            rc = mf_err_set(MF_ERROR, "polling the socket: %s",
                            zmq_strerror(errno));
            break;
        }
        /* Everything up to the progress tick in one transaction: what
         * the messages change is committed before any frame leaves. */
        if ((rc = batch_open(c)) < 0)
            break;
        if (n > 0 && (it[0].revents & ZMQ_POLLIN))
            rc = drain(c);
        if (rc >= 0 && n > 0 && c->mon && (it[1].revents & ZMQ_POLLIN))
            drain_monitor(c);
        if (rc >= 0)
            rc = dispatch(c);
        now = mono_ms();
        if (rc >= 0) {
            grace_after_stall(c, now - judged - listened, now);
            judged = now;
            rc = heartbeats_and_deaths(c, now);
        }
        if (rc >= 0 && now >= next_house) {
            next_house = now + HOUSEKEEP_MS;
            rc = housekeep(c);
        }
        if ((rc = batch_close(c, rc)) < 0)
            break;
        if (now >= next_tick) {
            next_tick = now + c->o.progress_ms;
            sample_rate(c, now);
            fill_progress(c, &pr);
            if (mf_live_beat(c->live, now, &pr) < 0)
                say(c, "%s", mf_err_msg());
            if (c->o.progress_tty) {
                draw_line(c, &pr);
            } else if (c->o.progress_log_ms && now >= c->next_log) {
                c->next_log = now + c->o.progress_log_ms;
                log_line(c, &pr);
            }
            if (c->o.tick && c->o.tick(c, &pr, c->o.tick_ctx)) {
                stopped = 1;
                break;
            }
        }
    }
    if (rc < 0) {
        clear_line(c);
        char why[1024];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        mf_live_stop(c->live, "failed");
        mf_err_set(rc, "%s", why);
        return rc;
    }
    if (stopped) {
        clear_line(c);
        if (mf_live_stop(c->live, "stopped") < 0)
            say(c, "%s", mf_err_msg());
        say(c, "stopped; campaign %lld resumes from %s with the same "
                "command",
             (long long)c->camp.id, c->cfg.db);
        return 1;
    }
    say_bye(c);
    sample_rate(c, mono_ms());
    fill_progress(c, &pr);
    if (mf_live_stop(c->live, "complete") < 0)
        say(c, "%s", mf_err_msg());
    clear_line(c);
    if (c->o.tick)
        c->o.tick(c, &pr, c->o.tick_ctx);
    return 0;
}
