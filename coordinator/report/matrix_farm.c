/* matrix_farm.c - the kill matrix filled through the farm (matrix_farm.h,
 * docs/minimisation.md "Large matrices", docs/protocol.md "Matrix jobs").
 *
 * The plan: the campaign's tests in blocks by id (the local fill's blocks,
 * after the matrices row's through_test), each block by ranges of the
 * target mutants in planning order, about job_pairs pairs a job. Blocks
 * are read (and their tests checked on the original) a window at a time,
 * so the tests held are those of the jobs out; the targets' ids and rows
 * are held for the whole fill (about 40 bytes a mutant). A job is done
 * when its row is in matrix_jobs: that row and the job's kill rows are one
 * transaction, committed before the Ack. The plan is the same on every
 * start of the same fill (same blocks, same ranges), so a restarted
 * coordinator skips the jobs recorded there.
 *
 * The serving loop is the farm's protocol as a Job's (docs/protocol.md):
 * Hello sets a worker's credit to zero, Credit adds, a job sent takes one;
 * heartbeats both ways; a worker silent for liveness x heartbeat is dead
 * and its jobs return to the queue (an attempt each), as do the jobs of a
 * lease that ran out; jobs a leaving worker lists in its Bye return
 * without counting. A job refused or lost max_attempts times fails the
 * fill: a kill matrix with a hole is not a kill matrix.
 *
 * Only workers whose Hello says matrix_jobs get jobs. This file does not
 * replay (worker/matrix_job.c does) and does not touch coordinator/
 * server.c's campaigns or jobs tables. */
#include "matrix_farm.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "matrix_int.h"
#include "wire.h"

#define POLL_MS 250
#define DEFAULT_JOB_PAIRS 32768
/* Without --job-pairs a block is cut into at most this many jobs (a
 * worker enumerates the model's mutants up to its job's last one, so
 * more jobs a block cost more enumeration), as long as a job stays
 * under MAX_AUTO_PAIRS pairs (its kill rows, ~35 bytes each, must fit
 * one frame even when every pair kills). */
#define AUTO_JOBS_PER_BLOCK 16
#define MAX_AUTO_PAIRS 262144
#define WINDOW_BLOCKS 2   /* blocks whose jobs are out at once */
#define LOG_EVERY_MS 10000
#define MAX_PEERS 4096
#define BATCH 1000        /* messages read per wake-up at most */

enum { J_PENDING, J_LEASED, J_DONE };

typedef struct {
    mf_matrix_block b; /* its tests, freed once every job of it is done */
    int open;          /* jobs not done */
} fblock;

typedef struct {
    int blk;           /* index into blocks */
    int64_t lo, hi;    /* target indexes [lo, hi) */
    int state;
    uint32_t attempt;  /* leases so far */
    int fails;         /* leases lost or refused */
    int peer;          /* holder while leased, else -1 */
    int64_t deadline;
    char why[320];     /* the last failure */
} fjob;

typedef struct {
    uint8_t rid[256];
    size_t rid_len;
    char id[160];
    unsigned threads;
    int credit;
    int matrix_ok;
    int live;
    int64_t last_heard, hb_at;
} fpeer;

struct mf_matrix_farm {
    mf_store *s;
    const mf_matrix_campaign *c;
    mf_matrix_farm_opts o;
    void *zctx, *sock;
    char endpoint[600];
    mf_matrix_target *tg;
    int64_t ntg;
    MF_VEC(fblock *) blocks;
    MF_VEC(fjob) jobs;
    int64_t after;      /* the last test of the blocks planned so far */
    int more;           /* blocks may follow */
    int64_t range;      /* mutants a job */
    MF_VEC(fpeer) peers;
    uint64_t id_base;   /* job ids are id_base + index + 1 */
    mf_kill_orig *orig; /* checks each test on the original at planning */
    mf_matrix_writer w;
    int64_t pairs, undecided, unconfirmed, resumed, done;
    char why[256];      /* the first undecided pair (this run) */
    int64_t last_log;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void say(const mf_matrix_farm *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(const mf_matrix_farm *f, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s\n", f->o.cmd ? f->o.cmd : "mutfarm matrix",
            line);
}

/* ---- the plan ------------------------------------------------------------ */

static const fjob *job_of(const mf_matrix_farm *f, uint64_t id)
{
    if (id <= f->id_base || id - f->id_base > (uint64_t)f->jobs.n)
        return NULL;
    return &f->jobs.v[id - f->id_base - 1];
}

static uint64_t job_id(const mf_matrix_farm *f, const fjob *j)
{
    return f->id_base + (uint64_t)(j - f->jobs.v) + 1;
}

/* "tests 3..259 on mutants 12..511" (store ids), for messages. */
static void job_name(char *buf, size_t n, const mf_matrix_farm *f,
                     const fjob *j)
{
    const fblock *fb = f->blocks.v[j->blk];
    snprintf(buf, n, "matrix job %llu (tests %lld..%lld on mutants "
             "%lld..%lld)", (unsigned long long)job_id(f, j),
             (long long)(fb->b.n ? fb->b.v[0].id : 0), (long long)fb->b.last,
             (long long)f->tg[j->lo].row, (long long)f->tg[j->hi - 1].row);
}

static int job_recorded(mf_matrix_farm *f, const fblock *fb, int64_t lo,
                        int64_t hi, int *done)
{
    sqlite3_stmt *st = NULL;
    *done = 0;
    if (sqlite3_prepare_v2(mf_store_db(f->s),
                           "SELECT 1 FROM matrix_jobs WHERE campaign_id = ?1 "
                           "AND first_test = ?2 AND first_mutant = ?3 AND "
                           "last_test = ?4 AND last_mutant = ?5",
                           -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return mf_matrix_db_fail(f->s, "reading the matrix jobs");
    }
    sqlite3_bind_int64(st, 1, f->c->id);
    sqlite3_bind_int64(st, 2, fb->b.v[0].id);
    sqlite3_bind_int64(st, 3, f->tg[lo].row);
    sqlite3_bind_int64(st, 4, fb->b.last);
    sqlite3_bind_int64(st, 5, f->tg[hi - 1].row);
    int rc = sqlite3_step(st);
    *done = rc == SQLITE_ROW;
    rc = rc == SQLITE_ROW || rc == SQLITE_DONE
             ? 0
             : mf_matrix_db_fail(f->s, "reading the matrix jobs");
    sqlite3_finalize(st);
    return rc;
}

static int open_blocks(const mf_matrix_farm *f)
{
    int n = 0;
    for (int i = 0; i < f->blocks.n; i++)
        n += f->blocks.v[i]->open > 0;
    return n;
}

/* Plan blocks until WINDOW_BLOCKS have jobs out (or none is left). */
static int plan_more(mf_matrix_farm *f)
{
    while (f->more && open_blocks(f) < WINDOW_BLOCKS) {
        fblock *fb = mf_xcalloc(1, sizeof *fb);
        int bs = f->o.block > 0 ? f->o.block : MF_MATRIX_BLOCK_TESTS;
        int rc = mf_matrix_block_next(&fb->b, f->s, f->c, f->orig, f->after,
                                      bs);
        if (rc < 0 || fb->b.n == 0) {
            mf_matrix_block_free(&fb->b);
            free(fb);
            f->more = 0;
            return rc < 0 ? rc : 0;
        }
        f->after = fb->b.last;
        MF_VEC_PUSH(f->blocks, fb);
        int64_t nt = fb->b.n;
        if (f->o.job_pairs > 0)
            f->range = f->o.job_pairs / nt;
        else {
            int64_t few = (f->ntg + AUTO_JOBS_PER_BLOCK - 1) /
                          AUTO_JOBS_PER_BLOCK;
            if (few > MAX_AUTO_PAIRS / nt)
                few = MAX_AUTO_PAIRS / nt;
            f->range = DEFAULT_JOB_PAIRS / nt > few ? DEFAULT_JOB_PAIRS / nt
                                                    : few;
        }
        if (f->range < 1)
            f->range = 1;
        for (int64_t lo = 0; lo < f->ntg; lo += f->range) {
            int64_t hi = lo + f->range < f->ntg ? lo + f->range : f->ntg;
            int done = 0;
            if ((rc = job_recorded(f, fb, lo, hi, &done)) < 0)
                return rc;
            fjob j = {f->blocks.n - 1, lo, hi, done ? J_DONE : J_PENDING,
                      0, 0, -1, 0, ""};
            MF_VEC_PUSH(f->jobs, j);
            if (done)
                f->resumed++;
            else
                fb->open++;
        }
        if (!fb->open)
            mf_matrix_block_free(&fb->b);
    }
    return 0;
}

/* ---- peers --------------------------------------------------------------- */

static fpeer *peer_by_rid(mf_matrix_farm *f, const uint8_t *rid, size_t n)
{
    for (int i = 0; i < f->peers.n; i++) {
        fpeer *p = &f->peers.v[i];
        if (p->live && p->rid_len == n && !memcmp(p->rid, rid, n))
            return p;
    }
    return NULL;
}

/* 0, or -1 when the frame did not leave: a peer that went away
 * (ROUTER_MANDATORY: EHOSTUNREACH) or a full queue. */
static int send_to(mf_matrix_farm *f, const uint8_t *rid, size_t rid_len,
                   const uint8_t *buf, size_t len)
{
    if (!buf)
        return -1;
    if (zmq_send(f->sock, rid, rid_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return -1;
    return zmq_send(f->sock, buf, len, ZMQ_DONTWAIT) < 0 ? -1 : 0;
}

static void send_reject(mf_matrix_farm *f, const uint8_t *rid, size_t n,
                        Mutfarm__V1__RejectCode code, const char *why,
                        uint64_t job, uint32_t attempt)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    if (mf_wire_encode_reject(&buf, &len, code, why, job, attempt) == 0)
        send_to(f, rid, n, buf, len);
    free(buf);
}

/* A lease lost (counted) or given back (not counted): the job is pending
 * again. Fails the fill after max_attempts losses. */
static int job_back(mf_matrix_farm *f, fjob *j, int count, const char *why)
{
    j->state = J_PENDING;
    j->peer = -1;
    if (!count)
        return 0;
    j->fails++;
    snprintf(j->why, sizeof j->why, "%s", why);
    int max = f->o.max_attempts > 0 ? f->o.max_attempts : 3;
    if (j->fails >= max) {
        char name[200];
        job_name(name, sizeof name, f, j);
        return mf_err_set(MF_ERROR, "%s failed %d times; the last: %s", name,
                          j->fails, why);
    }
    return 0;
}

/* Every job leased to peer i back to the queue. */
static int peer_jobs_back(mf_matrix_farm *f, int i, int count,
                          const char *why)
{
    int rc = 0;
    for (int k = 0; k < f->jobs.n && rc == 0; k++)
        if (f->jobs.v[k].state == J_LEASED && f->jobs.v[k].peer == i)
            rc = job_back(f, &f->jobs.v[k], count, why);
    return rc;
}

static void on_hello(mf_matrix_farm *f, const uint8_t *rid, size_t n,
                     const mf_wire_hello *h)
{
    int i;
    for (i = 0; i < f->peers.n; i++)
        if (f->peers.v[i].live && !strcmp(f->peers.v[i].id, h->worker_id))
            break;
    if (i == f->peers.n) {
        if (f->peers.n >= MAX_PEERS)
            return;
        fpeer np;
        memset(&np, 0, sizeof np);
        MF_VEC_PUSH(f->peers, np);
        if (!f->o.quiet)
            say(f, "worker %s joined (%u thread%s)%s", h->worker_id,
                h->threads, h->threads == 1 ? "" : "s",
                h->matrix_jobs ? "" : "; it does not take matrix jobs (an "
                "older mutfarm): it gets none");
    }
    fpeer *p = &f->peers.v[i];
    memcpy(p->rid, rid, n);
    p->rid_len = n;
    snprintf(p->id, sizeof p->id, "%s", h->worker_id);
    p->threads = h->threads;
    p->matrix_ok = h->matrix_jobs;
    p->credit = 0;
    p->live = 1;
    p->last_heard = now_ms();
    p->hb_at = p->last_heard;
}

/* ---- results ------------------------------------------------------------- */

typedef struct {
    int64_t test_id, mutant_row;
    mf_kill k;
} krow;

typedef struct {
    const char *id;
    int64_t row;
} idrow;

static int cmp_idrow(const void *a, const void *b)
{
    return strcmp(((const idrow *)a)->id, ((const idrow *)b)->id);
}

static int cmp_btest(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = ((const mf_matrix_btest *)b)->id;
    return (x > y) - (x < y);
}

static int cmp_krow(const void *a, const void *b)
{
    const krow *x = a, *y = b;
    if (x->test_id != y->test_id)
        return x->test_id < y->test_id ? -1 : 1;
    return (x->mutant_row > y->mutant_row) - (x->mutant_row < y->mutant_row);
}

/* The result's rows as store rows; 0, or 1 with why set (the result does
 * not fit its job). */
static int check_rows(const mf_matrix_farm *f, const fjob *j,
                      const mf_wire_matrix_result *r, krow **out, char *why,
                      size_t n)
{
    const fblock *fb = f->blocks.v[j->blk];
    int64_t nm = j->hi - j->lo;
    if (r->pairs != (uint64_t)fb->b.n * (uint64_t)nm) {
        snprintf(why, n, "%llu pairs replayed, the job has %lld",
                 (unsigned long long)r->pairs,
                 (long long)fb->b.n * (long long)nm);
        return 1;
    }
    idrow *ids = mf_xcalloc((size_t)nm, sizeof *ids);
    for (int64_t i = 0; i < nm; i++)
        ids[i] = (idrow){f->tg[j->lo + i].id, f->tg[j->lo + i].row};
    qsort(ids, (size_t)nm, sizeof *ids, cmp_idrow);
    krow *rows = mf_xcalloc(r->n_kills ? r->n_kills : 1, sizeof *rows);
    int bad = 0;
    for (size_t i = 0; i < r->n_kills && !bad; i++) {
        const mf_wire_kill_row *k = r->kills[i];
        int64_t tid = (int64_t)k->test_id;
        idrow key = {k->mutant_id, 0};
        const idrow *m = bsearch(&key, ids, (size_t)nm, sizeof key,
                                 cmp_idrow);
        if (!bsearch(&tid, fb->b.v, (size_t)fb->b.n, sizeof *fb->b.v,
                     cmp_btest) || !m) {
            snprintf(why, n, "a kill of test %lld on mutant %s, which the "
                     "job does not hold", (long long)tid, k->mutant_id);
            bad = 1;
            break;
        }
        rows[i].test_id = tid;
        rows[i].mutant_row = m->row;
        rows[i].k.killed = 1;
        rows[i].k.notion = mf_wire_notion(k->notion);
        rows[i].k.step = (int)k->step;
        rows[i].k.refuses = k->refuses;
    }
    free(ids);
    if (bad) {
        free(rows);
        return 1;
    }
    *out = rows;
    return 0;
}

/* Write the job's rows and its record in one transaction. */
static int commit_job(mf_matrix_farm *f, const fjob *j, krow *rows, size_t n,
                      const mf_wire_matrix_result *r)
{
    const fblock *fb = f->blocks.v[j->blk];
    if (n > 1)
        qsort(rows, n, sizeof *rows, cmp_krow);
    int rc = mf_matrix_writer_begin(&f->w);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = mf_matrix_writer_put(&f->w, rows[i].test_id, rows[i].mutant_row,
                                  &rows[i].k);
    sqlite3_stmt *st = NULL;
    if (rc == 0 &&
        sqlite3_prepare_v2(mf_store_db(f->s),
                           "INSERT OR REPLACE INTO matrix_jobs(campaign_id, "
                           "first_test, last_test, first_mutant, "
                           "last_mutant, pairs, kills, undecided, "
                           "unconfirmed, worker_id, done_at) VALUES (?1, ?2, "
                           "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                           -1, &st, NULL) != SQLITE_OK)
        rc = mf_matrix_db_fail(f->s, "recording a matrix job");
    if (rc == 0) {
        sqlite3_bind_int64(st, 1, f->c->id);
        sqlite3_bind_int64(st, 2, fb->b.v[0].id);
        sqlite3_bind_int64(st, 3, fb->b.last);
        sqlite3_bind_int64(st, 4, f->tg[j->lo].row);
        sqlite3_bind_int64(st, 5, f->tg[j->hi - 1].row);
        sqlite3_bind_int64(st, 6, (int64_t)r->pairs);
        sqlite3_bind_int64(st, 7, (int64_t)n);
        sqlite3_bind_int64(st, 8, (int64_t)r->undecided);
        sqlite3_bind_int64(st, 9, (int64_t)r->unconfirmed);
        sqlite3_bind_text(st, 10, r->worker_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 11, mf_store_now_ms());
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = mf_matrix_db_fail(f->s, "recording a matrix job");
    }
    sqlite3_finalize(st);
    if (rc == 0)
        rc = mf_matrix_writer_commit(&f->w);
    if (rc < 0)
        mf_matrix_writer_rollback(&f->w);
    return rc;
}

static int on_result(mf_matrix_farm *f, const uint8_t *rid, size_t n,
                     fpeer *p, const mf_wire_matrix_result *r)
{
    fjob *j = (fjob *)(uintptr_t)job_of(f, r->job_id);
    uint8_t *buf = NULL;
    size_t len = 0;
    if (!j || r->campaign_id != (uint64_t)f->c->id) {
        send_reject(f, rid, n, MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB,
                    "no such matrix job here", r->job_id, r->attempt);
        return 0;
    }
    if (j->state == J_DONE) {
        if (mf_wire_encode_ack(&buf, &len, r->job_id, r->attempt, 1) == 0)
            send_to(f, rid, n, buf, len);
        free(buf);
        return 0;
    }
    /* Any attempt's rows are the job's (the replay is deterministic):
     * the first to arrive is taken. */
    krow *rows = NULL;
    char why[400];
    if (check_rows(f, j, r, &rows, why, sizeof why)) {
        char name[200];
        job_name(name, sizeof name, f, j);
        say(f, "refused the result of %s from %s: %s", name, p->id, why);
        send_reject(f, rid, n, MUTFARM__V1__REJECT_CODE__REJECT_INVALID, why,
                    r->job_id, r->attempt);
        return j->state == J_LEASED && j->attempt == r->attempt
                   ? job_back(f, j, 1, why)
                   : 0;
    }
    int rc = commit_job(f, j, rows, r->n_kills, r);
    free(rows);
    if (rc < 0)
        return rc;
    j->state = J_DONE;
    j->peer = -1;
    f->done++;
    f->pairs += (int64_t)r->pairs;
    f->undecided += (int64_t)r->undecided;
    f->unconfirmed += (int64_t)r->unconfirmed;
    if (!f->why[0] && r->undecided_why[0])
        snprintf(f->why, sizeof f->why, "%s", r->undecided_why);
    fblock *fb = f->blocks.v[j->blk];
    if (--fb->open == 0)
        mf_matrix_block_free(&fb->b);
    if (mf_wire_encode_ack(&buf, &len, r->job_id, r->attempt, 0) == 0)
        send_to(f, rid, n, buf, len);
    free(buf);
    return 0;
}

/* ---- messages ------------------------------------------------------------ */

static int on_message(mf_matrix_farm *f, const uint8_t *rid, size_t n,
                      const void *data, size_t len)
{
    mf_wire_env *e = NULL;
    mf_wire_fault fault;
    if (mf_wire_decode(&e, data, len, &fault) < 0) {
        say(f, "refused a frame: %s", mf_err_msg());
        send_reject(f, rid, n, mf_wire_fault_reject_code(fault), mf_err_msg(),
                    0, 0);
        return 0;
    }
    fpeer *p = peer_by_rid(f, rid, n);
    mf_wire_kind kind = (mf_wire_kind)e->body_case;
    int rc = 0;
    if (f->o.verbose)
        say(f, "got %s from %s", mf_wire_kind_name(kind),
            p ? p->id : "a new peer");
    if (p)
        p->last_heard = now_ms();
    if (!p && kind != MF_WIRE_HELLO && kind != MF_WIRE_BYE &&
        kind != MF_WIRE_REJECT) {
        send_reject(f, rid, n, MUTFARM__V1__REJECT_CODE__REJECT_NOT_HELLO,
                    "say Hello first", 0, 0);
        mf_wire_free(e);
        return 0;
    }
    int pi = p ? (int)(p - f->peers.v) : -1;
    switch (kind) {
    case MF_WIRE_HELLO: on_hello(f, rid, n, e->hello); break;
    case MF_WIRE_CREDIT: {
        int64_t c = (int64_t)p->credit + e->credit->n;
        int64_t cap = 2 * (int64_t)(p->threads ? p->threads : 1);
        p->credit = (int)(c > cap ? cap : c);
        break;
    }
    case MF_WIRE_HEARTBEAT:
        for (int k = 0; k < f->jobs.n; k++) /* the holder is alive */
            if (f->jobs.v[k].state == J_LEASED && f->jobs.v[k].peer == pi)
                f->jobs.v[k].deadline = now_ms() + f->o.lease_ms;
        break;
    case MF_WIRE_MATRIX_RESULT:
        rc = on_result(f, rid, n, p, e->matrix_result);
        break;
    case MF_WIRE_REJECT: {
        const mf_wire_reject *r = e->reject;
        fjob *j = (fjob *)(uintptr_t)job_of(f, r->job_id);
        if (p && j && j->state == J_LEASED && j->peer == pi &&
            j->attempt == r->attempt) {
            char name[200];
            job_name(name, sizeof name, f, j);
            say(f, "worker %s refused %s: %s", p->id, name, r->reason);
            rc = job_back(f, j, 1, r->reason);
        } else if (!f->o.quiet) {
            say(f, "%s refused a message: %s", p ? p->id : "a peer",
                r->reason);
        }
        break;
    }
    case MF_WIRE_BYE:
        if (!p)
            break;
        for (size_t k = 0; k < e->bye->n_returned; k++) {
            fjob *j = (fjob *)(uintptr_t)job_of(f, e->bye->returned[k]->job_id);
            if (j && j->state == J_LEASED && j->peer == pi)
                job_back(f, j, 0, "");
        }
        rc = peer_jobs_back(f, pi, 0, "");
        p->live = 0;
        if (!f->o.quiet)
            say(f, "worker %s left%s%s", p->id, e->bye->reason[0] ? ": " : "",
                e->bye->reason);
        break;
    default:
        send_reject(f, rid, n, MUTFARM__V1__REJECT_CODE__REJECT_UNEXPECTED,
                    kind == MF_WIRE_RESULT
                        ? "a Result: this coordinator fills a kill matrix"
                        : "not a message a coordinator takes",
                    0, 0);
        break;
    }
    mf_wire_free(e);
    return rc;
}

static int drain(mf_matrix_farm *f)
{
    for (int k = 0; k < BATCH; k++) {
        zmq_msg_t id, body;
        zmq_msg_init(&id);
        if (zmq_msg_recv(&id, f->sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&id);
            return 0;
        }
        if (!zmq_msg_more(&id)) {
            zmq_msg_close(&id);
            continue;
        }
        zmq_msg_init(&body);
        zmq_msg_recv(&body, f->sock, 0);
        int extra = 0;
        while (zmq_msg_more(&body)) {
            zmq_msg_close(&body);
            zmq_msg_init(&body);
            zmq_msg_recv(&body, f->sock, 0);
            extra++;
        }
        int rc = 0;
        size_t rl = zmq_msg_size(&id);
        if (rl == 0 || rl > sizeof(((fpeer *)0)->rid))
            say(f, "dropped a frame from a peer with a %zu-byte routing id",
                rl);
        else if (extra)
            send_reject(f, zmq_msg_data(&id), rl,
                        MUTFARM__V1__REJECT_CODE__REJECT_UNDECODABLE,
                        "one frame per message", 0, 0);
        else
            rc = on_message(f, zmq_msg_data(&id), rl, zmq_msg_data(&body),
                            zmq_msg_size(&body));
        zmq_msg_close(&body);
        zmq_msg_close(&id);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ---- handing out --------------------------------------------------------- */

static int send_job(mf_matrix_farm *f, fjob *j, int pi)
{
    fpeer *p = &f->peers.v[pi];
    const fblock *fb = f->blocks.v[j->blk];
    int nt = fb->b.n;
    int64_t nm = j->hi - j->lo;
    int64_t *tids = mf_xcalloc((size_t)nt, sizeof *tids);
    const mf_test **tests = mf_xcalloc((size_t)nt, sizeof *tests);
    const char **ids = mf_xcalloc((size_t)nm, sizeof *ids);
    int64_t *vt = mf_xcalloc((size_t)nm, sizeof *vt);
    for (int i = 0; i < nt; i++) {
        tids[i] = fb->b.v[i].id;
        tests[i] = fb->b.v[i].t;
    }
    for (int64_t i = 0; i < nm; i++) {
        ids[i] = f->tg[j->lo + i].id;
        vt[i] = f->tg[j->lo + i].vtest;
    }
    j->attempt++;
    mf_wire_matrix_spec js = {
        .job_id = job_id(f, j), .attempt = j->attempt,
        .campaign_id = (uint64_t)f->c->id, .model_name = f->c->name,
        .model_text = f->c->text, .inputs = f->c->inputs,
        .ninputs = (size_t)f->c->ninputs, .observe = f->c->observe,
        .nobserve = (size_t)f->c->nobserve, .test_ids = tids,
        .tests = tests, .ntests = (size_t)nt, .mutant_ids = ids,
        .verdict_tests = vt, .nmutants = (size_t)nm};
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = mf_wire_encode_matrix_job(&buf, &len, &js);
    free(tids);
    free(tests);
    free(ids);
    free(vt);
    if (rc < 0) {
        char why[300], name[200];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        job_name(name, sizeof name, f, j);
        return mf_err_set(MF_ERROR, "%s: %s; give fewer pairs a job "
                          "(--job-pairs)", name, why);
    }
    int sent = send_to(f, p->rid, p->rid_len, buf, len);
    free(buf);
    if (sent < 0) {
        /* Not leased: the peer takes nothing more until it says Hello or
         * Credit again, or the liveness rule removes it. */
        j->attempt--;
        p->credit = 0;
        return 0;
    }
    j->state = J_LEASED;
    j->peer = pi;
    j->deadline = now_ms() + f->o.lease_ms;
    p->credit--;
    if (f->o.verbose)
        say(f, "matrix job %llu (attempt %u) to %s",
            (unsigned long long)job_id(f, j), j->attempt, p->id);
    return 0;
}

static int dispatch(mf_matrix_farm *f)
{
    int k = 0;
    for (int i = 0; i < f->peers.n; i++) {
        fpeer *p = &f->peers.v[i];
        while (p->live && p->matrix_ok && p->credit > 0) {
            while (k < f->jobs.n && f->jobs.v[k].state != J_PENDING)
                k++;
            if (k == f->jobs.n)
                return 0;
            int rc = send_job(f, &f->jobs.v[k], i);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

/* Heartbeats out; dead workers and run-out leases back. */
static int keep_time(mf_matrix_farm *f)
{
    int64_t now = now_ms();
    int64_t dead = (int64_t)f->o.heartbeat_ms * f->o.liveness;
    int rc = 0;
    for (int i = 0; i < f->peers.n && rc == 0; i++) {
        fpeer *p = &f->peers.v[i];
        if (!p->live)
            continue;
        if (now - p->last_heard > dead) {
            p->live = 0;
            say(f, "worker %s is silent for %lld ms: declared dead, its jobs "
                "go back to the queue", p->id,
                (long long)(now - p->last_heard));
            rc = peer_jobs_back(f, i, 1, "its worker died");
            continue;
        }
        if (now >= p->hb_at) {
            uint8_t *buf = NULL;
            size_t len = 0;
            if (mf_wire_encode_heartbeat(&buf, &len, 0) == 0)
                send_to(f, p->rid, p->rid_len, buf, len);
            free(buf);
            p->hb_at = now + f->o.heartbeat_ms;
        }
    }
    for (int k = 0; k < f->jobs.n && rc == 0; k++) {
        fjob *j = &f->jobs.v[k];
        if (j->state == J_LEASED && now > j->deadline)
            rc = job_back(f, j, 1, "its lease ran out");
    }
    return rc;
}

static int jobs_left(const mf_matrix_farm *f)
{
    if (f->more)
        return 1;
    for (int k = 0; k < f->jobs.n; k++)
        if (f->jobs.v[k].state != J_DONE)
            return 1;
    return 0;
}

/* ---- open, run, free ----------------------------------------------------- */

int mf_matrix_farm_open(mf_matrix_farm **out, mf_store *s,
                        const mf_matrix_campaign *c,
                        const mf_matrix_farm_opts *o)
{
    *out = NULL;
    if (c->info.state != MF_CAMPAIGN_DONE)
        return mf_err_set(MF_ERROR, "campaign %lld is not complete yet: its "
                          "kill matrix is made once every mutant has its "
                          "verdict", (long long)c->id);
    mf_matrix_farm *f = mf_xcalloc(1, sizeof *f);
    f->s = s;
    f->c = c;
    f->o = *o;
    if (!f->o.heartbeat_ms)
        f->o.heartbeat_ms = 1000;
    if (!f->o.liveness)
        f->o.liveness = 3;
    if (!f->o.lease_ms)
        f->o.lease_ms = 600000;
    f->id_base = (uint64_t)mf_store_now_ms() << 20; /* never a past run's */
    f->zctx = zmq_ctx_new();
    f->sock = f->zctx ? zmq_socket(f->zctx, ZMQ_ROUTER) : NULL;
    if (!f->sock) {
        int rc = mf_err_set(MF_ERROR, "cannot create a socket: %s",
                            zmq_strerror(errno));
        mf_matrix_farm_free(f);
        return rc;
    }
    int one = 1, linger = 0, hwm = 100000;
    int64_t maxmsg = (int64_t)MF_WIRE_MAX_FRAME;
    zmq_setsockopt(f->sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(f->sock, ZMQ_MAXMSGSIZE, &maxmsg, sizeof maxmsg);
    zmq_setsockopt(f->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(f->sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(f->sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (!o->bind || zmq_bind(f->sock, o->bind) != 0) {
        int rc = mf_err_set(MF_ERROR, "cannot bind '%s': %s",
                            o->bind ? o->bind : "", zmq_strerror(errno));
        mf_matrix_farm_free(f);
        return rc;
    }
    size_t el = sizeof f->endpoint;
    if (zmq_getsockopt(f->sock, ZMQ_LAST_ENDPOINT, f->endpoint, &el) != 0)
        snprintf(f->endpoint, sizeof f->endpoint, "%s", o->bind);
    *out = f;
    return 0;
}

const char *mf_matrix_farm_endpoint(const mf_matrix_farm *f)
{
    return f->endpoint;
}

/* The end: the jobs' counts into the matrices row, the matrix full. */
static int finish(mf_matrix_farm *f, int64_t ms, mf_matrix_stats *out)
{
    char sql[768];
    snprintf(sql, sizeof sql,
             "BEGIN IMMEDIATE; UPDATE matrices SET through_test = "
             "max(through_test, %lld), pairs = pairs + (SELECT total(pairs) "
             "FROM matrix_jobs WHERE campaign_id = %lld), undecided = "
             "undecided + (SELECT total(undecided) FROM matrix_jobs WHERE "
             "campaign_id = %lld), unconfirmed = unconfirmed + (SELECT "
             "total(unconfirmed) FROM matrix_jobs WHERE campaign_id = "
             "%lld), ms = ms + %lld WHERE campaign_id = %lld; DELETE FROM "
             "matrix_jobs WHERE campaign_id = %lld; COMMIT;",
             (long long)f->after, (long long)f->c->id, (long long)f->c->id,
             (long long)f->c->id, (long long)ms, (long long)f->c->id,
             (long long)f->c->id);
    if (sqlite3_exec(mf_store_db(f->s), sql, NULL, NULL, NULL) != SQLITE_OK) {
        int rc = mf_matrix_db_fail(f->s, "finishing the kill matrix");
        sqlite3_exec(mf_store_db(f->s), "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    int64_t tests = 0;
    int rc = mf_matrix_count_tests(f->s, f->c->id, &tests);
    if (rc == 0)
        rc = mf_matrix_fill_finish(f->s, f->c->id, tests, f->ntg, out);
    return rc;
}

static void bye_all(mf_matrix_farm *f, const char *why)
{
    for (int i = 0; i < f->peers.n; i++) {
        fpeer *p = &f->peers.v[i];
        uint8_t *buf = NULL;
        size_t len = 0;
        if (p->live && mf_wire_encode_bye(&buf, &len, why, NULL, NULL, 0) == 0)
            send_to(f, p->rid, p->rid_len, buf, len);
        free(buf);
    }
}

int mf_matrix_farm_run(mf_matrix_farm *f, mf_matrix_stats *out)
{
    double t0 = mf_matrix_now_s();
    memset(out, 0, sizeof *out);
    int rc = mf_matrix_is_full(f->s, f->c->id);
    if (rc < 0)
        return rc;
    if (rc == 1 && !f->o.refill) { /* as the local fill says it */
        mf_matrix_opts lo = {1, 0, 0, 1};
        bye_all(f, "the kill matrix is full");
        return mf_matrix_fill(f->s, f->c, &lo, out);
    }
    if ((rc = mf_matrix_fill_begin(f->s, f->c->id, f->o.refill, &f->after)) <
            0 ||
        (rc = mf_matrix_targets_load(f->s, f->c->id, &f->tg, &f->ntg)) < 0 ||
        (rc = mf_matrix_writer_open(&f->w, f->s, f->c->id)) < 0 ||
        (rc = mf_kill_orig_new(&f->orig, f->c->model)) < 0)
        return rc;
    f->more = f->ntg > 0;
    f->last_log = now_ms();
    int stopped = 0;
    while (rc == 0) {
        if ((rc = plan_more(f)) < 0)
            break;
        if (!jobs_left(f))
            break;
        if ((f->o.stop && *f->o.stop) ||
            (f->o.tick && f->o.tick(f->o.tick_ctx))) {
            stopped = 1;
            break;
        }
        if ((rc = dispatch(f)) < 0)
            break;
        zmq_pollitem_t it = {f->sock, 0, ZMQ_POLLIN, 0};
        int prc = zmq_poll(&it, 1, POLL_MS);
        if (prc < 0 && errno != EINTR) {
            rc = mf_err_set(MF_ERROR, "poll: %s", zmq_strerror(errno));
            break;
        }
        if (prc > 0 && (rc = drain(f)) < 0)
            break;
        if ((rc = keep_time(f)) < 0)
            break;
        int64_t now = now_ms();
        if (!f->o.quiet && now - f->last_log >= LOG_EVERY_MS) {
            int live = 0;
            for (int i = 0; i < f->peers.n; i++)
                live += f->peers.v[i].live && f->peers.v[i].matrix_ok;
            say(f, "%lld matrix jobs done (%lld resumed), %d worker%s",
                (long long)(f->done + f->resumed), (long long)f->resumed,
                live, live == 1 ? "" : "s");
            f->last_log = now;
        }
    }
    if (rc == 0 && !stopped)
        rc = finish(f, (int64_t)((mf_matrix_now_s() - t0) * 1000.0 + 0.5),
                    out);
    if (rc == 0 && !stopped)
        bye_all(f, "the kill matrix is full");
    out->pairs = f->pairs;
    out->mutants = f->ntg;
    out->jobs = f->jobs.n;
    out->jobs_resumed = f->resumed;
    for (int k = 0; k < f->jobs.n; k++)
        out->jobs_again += f->jobs.v[k].fails > 0;
    snprintf(out->undecided_why, sizeof out->undecided_why, "%s", f->why);
    out->secs = mf_matrix_now_s() - t0;
    return rc < 0 ? rc : stopped;
}

void mf_matrix_farm_free(mf_matrix_farm *f)
{
    if (!f)
        return;
    if (f->sock) {
        int linger = 1000; /* the last Byes */
        zmq_setsockopt(f->sock, ZMQ_LINGER, &linger, sizeof linger);
        zmq_close(f->sock);
    }
    if (f->zctx)
        zmq_ctx_term(f->zctx);
    mf_matrix_writer_close(&f->w);
    for (int i = 0; i < f->blocks.n; i++) {
        mf_matrix_block_free(&f->blocks.v[i]->b);
        free(f->blocks.v[i]);
    }
    MF_VEC_FREE(f->blocks);
    MF_VEC_FREE(f->jobs);
    MF_VEC_FREE(f->peers);
    mf_kill_orig_free(f->orig);
    free(f->tg);
    free(f);
}
