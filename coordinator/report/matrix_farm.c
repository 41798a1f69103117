/* matrix_farm.c - the kill matrix filled through the farm (matrix_farm.h,
 * docs/minimisation.md "Large matrices", docs/protocol.md "Matrix jobs"):
 * the matrix's blocks as a kind of farm work (farm/kind.h), served by the
 * farm's loop (farm/farm.h).
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
 * Leases are held in memory, pushed on by their holder's heartbeats: a
 * job whose worker dies, leaves or is cut off, or whose lease runs out,
 * returns to the queue, as does one a worker refuses; each such loss is
 * an attempt, and a job lost max_attempts times fails the fill (a kill
 * matrix with a hole is not a kill matrix). Jobs a leaving worker gives
 * back in its Bye, or that could not be sent, return without counting.
 *
 * This file does not replay (worker/matrix_job.c does), does not serve
 * (the farm's loop does) and does not touch the campaigns or jobs
 * tables. */
#include "matrix_farm.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "farm.h"
#include "matrix_int.h"
#include "wire.h"

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
    char holder[MF_STORE_WORKER_ID]; /* its worker while leased */
    int64_t deadline;  /* monotonic ms: the lease runs out */
    char why[320];     /* the last failure */
} fjob;

typedef struct krow krow;

struct mf_matrix_farm {
    mf_store *s;
    const mf_matrix_campaign *c;
    mf_matrix_farm_opts o;
    mf_farm *farm;
    mf_matrix_target *tg;
    int64_t ntg;
    MF_VEC(fblock *) blocks;
    MF_VEC(fjob) jobs;
    int64_t after;      /* the last test of the blocks planned so far */
    int more;           /* blocks may follow */
    int64_t range;      /* mutants a job */
    uint64_t id_base;   /* job ids are id_base + index + 1 */
    mf_kill_orig *orig; /* checks each test on the original at planning */
    mf_matrix_writer w;
    krow *rows;         /* a checked result's rows, until it is stored */
    int64_t pairs, undecided, unconfirmed, resumed, done;
    char why[256];      /* the first undecided pair (this run) */
    int64_t last_log;
    double t0;          /* when the fill started (mf_matrix_now_s) */
    int finished;       /* the matrices row is written */
    mf_matrix_stats *out;
};

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
                      0, 0, "", 0, ""};
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

/* ---- results ------------------------------------------------------------- */

struct krow {
    int64_t test_id, mutant_row;
    mf_kill k;
};

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

/* ---- the matrix as a kind of farm work ----------------------------------- */

static fjob *job_at(mf_matrix_farm *f, uint64_t id)
{
    return (fjob *)(uintptr_t)job_of(f, id);
}

/* The first pending job (planning more blocks when none is), leased to w
 * and encoded. */
static int next(mf_farm *farm, void *k, const mf_farm_worker *w,
                mf_farm_job *out)
{
    mf_matrix_farm *f = k;
    int rc = plan_more(f);
    if (rc < 0)
        return rc;
    fjob *j = NULL;
    for (int i = 0; i < f->jobs.n && !j; i++)
        if (f->jobs.v[i].state == J_PENDING)
            j = &f->jobs.v[i];
    if (!j)
        return 0;
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
    rc = mf_wire_encode_matrix_job(&out->frame, &out->len, &js);
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
    j->state = J_LEASED;
    snprintf(j->holder, sizeof j->holder, "%s", w->id);
    j->deadline = mf_farm_now_ms() + mf_farm_lease_ms(farm);
    out->id = job_id(f, j);
    out->attempt = j->attempt;
    job_name(out->what, sizeof out->what, f, j);
    return 1;
}

/* A result of a job of this fill that fits it: its rows, kept for
 * commit. Any attempt's rows are the job's (the replay is deterministic):
 * the first to arrive is taken. */
static int check(mf_farm *farm, void *k, const mf_farm_worker *w,
                 const mf_wire_env *env, mf_farm_answer *a)
{
    (void)farm;
    (void)w;
    mf_matrix_farm *f = k;
    const mf_wire_matrix_result *r = env->matrix_result;
    const fjob *j = job_of(f, r->job_id);
    if (!j || r->campaign_id != (uint64_t)f->c->id) {
        a->outcome = MF_FARM_UNKNOWN;
        snprintf(a->why, sizeof a->why, "no such matrix job here");
        return 0;
    }
    char name[200];
    job_name(name, sizeof name, f, j);
    if (j->state == J_DONE) {
        a->outcome = MF_FARM_IGNORED;
        snprintf(a->why, sizeof a->why, "%s is already done", name);
        return 0;
    }
    free(f->rows);
    f->rows = NULL;
    if (check_rows(f, j, r, &f->rows, a->why, sizeof a->why)) {
        a->outcome = MF_FARM_INVALID;
        a->release = 1;
        return 0;
    }
    a->outcome = MF_FARM_TAKEN;
    return 0;
}

/* The checked rows and the job's record, committed in one transaction
 * before the loop acknowledges them. */
static int commit(mf_farm *farm, void *k, const mf_farm_worker *w,
                  const mf_wire_env *env, mf_farm_answer *a)
{
    (void)farm;
    (void)w;
    mf_matrix_farm *f = k;
    const mf_wire_matrix_result *r = env->matrix_result;
    fjob *j = job_at(f, r->job_id);
    int rc = commit_job(f, j, f->rows, r->n_kills, r);
    free(f->rows);
    f->rows = NULL;
    if (rc < 0)
        return rc;
    j->state = J_DONE;
    j->holder[0] = 0;
    f->done++;
    f->pairs += (int64_t)r->pairs;
    f->undecided += (int64_t)r->undecided;
    f->unconfirmed += (int64_t)r->unconfirmed;
    if (!f->why[0] && r->undecided_why[0])
        snprintf(f->why, sizeof f->why, "%s", r->undecided_why);
    fblock *fb = f->blocks.v[j->blk];
    if (--fb->open == 0)
        mf_matrix_block_free(&fb->b); /* the next block may be planned */
    a->outcome = MF_FARM_TAKEN;
    a->more = 1;
    return 0;
}

/* A lease lost (counted) or given back (not counted): the job is pending
 * again. Fails the fill after max_attempts losses. */
static int job_back(mf_matrix_farm *f, fjob *j, int count, const char *why)
{
    j->state = J_PENDING;
    j->holder[0] = 0;
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

static int release(mf_farm *farm, void *k, uint64_t job, uint32_t attempt,
                   int failed, const char *why)
{
    (void)farm;
    mf_matrix_farm *f = k;
    fjob *j = job_at(f, job);
    if (!j || j->state != J_LEASED || j->attempt != attempt)
        return 0;
    return job_back(f, j, failed, why);
}

static int release_worker(mf_farm *farm, void *k, const char *worker,
                          int *back, int *quarantined)
{
    (void)farm;
    mf_matrix_farm *f = k;
    *quarantined = 0;
    int rc = 0;
    for (int i = 0; i < f->jobs.n && rc == 0; i++) {
        fjob *j = &f->jobs.v[i];
        if (j->state == J_LEASED && !strcmp(j->holder, worker)) {
            rc = job_back(f, j, 1, "its worker was lost");
            ++*back;
        }
    }
    return rc;
}

static int expire(mf_farm *farm, void *k, int *back, int *quarantined)
{
    (void)farm;
    mf_matrix_farm *f = k;
    int64_t now = mf_farm_now_ms();
    *quarantined = 0;
    int rc = 0;
    for (int i = 0; i < f->jobs.n && rc == 0; i++) {
        fjob *j = &f->jobs.v[i];
        if (j->state == J_LEASED && now > j->deadline) {
            rc = job_back(f, j, 1, "its lease ran out");
            ++*back;
        }
    }
    return rc;
}

/* A heartbeat of the holder pushes its leases on: a lease runs out
 * lease_ms after its holder was last heard of, however long its job. */
static int alive(mf_farm *farm, void *k, const char *worker)
{
    mf_matrix_farm *f = k;
    int64_t deadline = mf_farm_now_ms() + mf_farm_lease_ms(farm);
    for (int i = 0; i < f->jobs.n; i++)
        if (f->jobs.v[i].state == J_LEASED &&
            !strcmp(f->jobs.v[i].holder, worker))
            f->jobs.v[i].deadline = deadline;
    return 0;
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

/* Complete once every job of every block is done: then the matrices row
 * takes the jobs' counts and the matrix is full. */
static int complete(mf_farm *farm, void *k)
{
    (void)farm;
    mf_matrix_farm *f = k;
    if (f->finished)
        return 1;
    int rc = plan_more(f);
    if (rc < 0)
        return rc;
    if (jobs_left(f))
        return 0;
    rc = finish(f, (int64_t)((mf_matrix_now_s() - f->t0) * 1000.0 + 0.5),
                f->out);
    if (rc < 0)
        return rc;
    f->finished = 1;
    return 1;
}

static const mf_farm_kind matrix_kind = {
    .name = "matrix",
    .result_msg = MF_WIRE_MATRIX_RESULT,
    .done_why = "the kill matrix is full",
    .next = next,
    .check = check,
    .commit = commit,
    .release = release,
    .release_worker = release_worker,
    .expire = expire,
    .alive = alive,
    .hello = NULL,
    .complete = complete,
};

/* ---- open, run, free ----------------------------------------------------- */

/* The loop's tick: the caller's stop, and a log line now and then. */
static int tick(mf_farm *farm, int64_t now, void *ctx)
{
    mf_matrix_farm *f = ctx;
    if (!f->o.quiet && now - f->last_log >= LOG_EVERY_MS) {
        int live = mf_farm_workers(farm, &matrix_kind, NULL);
        mf_farm_say(farm, "%lld matrix jobs done (%lld resumed), %d worker%s",
                    (long long)(f->done + f->resumed), (long long)f->resumed,
                    live, live == 1 ? "" : "s");
        f->last_log = now;
    }
    return f->o.tick && f->o.tick(f->o.tick_ctx);
}

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
    mf_farm_opts fo = {0};
    fo.bind = o->bind;
    fo.cmd = o->cmd ? o->cmd : "mutfarm matrix";
    fo.heartbeat_ms = f->o.heartbeat_ms;
    fo.liveness = (int)f->o.liveness;
    fo.lease_ms = f->o.lease_ms;
    fo.verbose = o->verbose;
    fo.quiet = o->quiet;
    fo.tick = tick;
    fo.tick_ctx = f;
    fo.stop = o->stop;
    int rc = mf_farm_open(&f->farm, &fo);
    if (rc < 0) {
        mf_matrix_farm_free(f);
        return rc;
    }
    /* The matrix writer keeps its own transactions: no store batches. */
    mf_farm_add(f->farm, &matrix_kind, f);
    *out = f;
    return 0;
}

const char *mf_matrix_farm_endpoint(const mf_matrix_farm *f)
{
    return mf_farm_endpoint(f->farm);
}

int mf_matrix_farm_run(mf_matrix_farm *f, mf_matrix_stats *out)
{
    f->t0 = mf_matrix_now_s();
    memset(out, 0, sizeof *out);
    f->out = out;
    int rc = mf_matrix_is_full(f->s, f->c->id);
    if (rc < 0)
        return rc;
    if (rc == 1 && !f->o.refill) { /* as the local fill says it */
        mf_matrix_opts lo = {1, 0, 0, 1};
        return mf_matrix_fill(f->s, f->c, &lo, out);
    }
    if ((rc = mf_matrix_fill_begin(f->s, f->c->id, f->o.refill, &f->after)) <
            0 ||
        (rc = mf_matrix_targets_load(f->s, f->c->id, &f->tg, &f->ntg)) < 0 ||
        (rc = mf_matrix_writer_open(&f->w, f->s, f->c->id)) < 0 ||
        (rc = mf_kill_orig_new(&f->orig, f->c->model)) < 0)
        return rc;
    f->more = f->ntg > 0;
    f->last_log = mf_farm_now_ms();
    rc = mf_farm_serve(f->farm);
    out->pairs = f->pairs;
    out->mutants = f->ntg;
    out->jobs = f->jobs.n;
    out->jobs_resumed = f->resumed;
    for (int k = 0; k < f->jobs.n; k++)
        out->jobs_again += f->jobs.v[k].fails > 0;
    snprintf(out->undecided_why, sizeof out->undecided_why, "%s", f->why);
    out->secs = mf_matrix_now_s() - f->t0;
    return rc;
}

void mf_matrix_farm_free(mf_matrix_farm *f)
{
    if (!f)
        return;
    mf_farm_free(f->farm);
    mf_matrix_writer_close(&f->w);
    for (int i = 0; i < f->blocks.n; i++) {
        mf_matrix_block_free(&f->blocks.v[i]->b);
        free(f->blocks.v[i]);
    }
    MF_VEC_FREE(f->blocks);
    MF_VEC_FREE(f->jobs);
    mf_kill_orig_free(f->orig);
    free(f->rows);
    free(f->tg);
    free(f);
}
