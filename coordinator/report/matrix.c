/* matrix.c - the kill matrix of a campaign in the store: every test
 * replayed on every killed, survived or unknown mutant (model/kill_replay.c),
 * each kill upserted into `kills` with its notion, step and refusal; and a
 * suite replayed on every mutant with an early exit per mutant, for a
 * check that does not need the full matrix (docs/minimisation.md).
 *
 * Streaming: tests come in blocks (ordered by id, a few hundred at a
 * time, with the original's memoised steps); for each block the model's
 * mutants are enumerated once (mf_mutants_each), and each one the campaign
 * decided is made (mf_mutant_apply), replayed on the block's tests, and
 * freed; which ones the campaign decided is read from the store next to
 * the enumeration (the same order: a merge), so nothing is kept per
 * mutant. With --threads N the enumerating thread hands mutants to N
 * replay threads (each with its own memo of the original's steps) and
 * alone writes to SQLite, in transactions of at least WRITE_BATCH rows; a
 * block's progress is committed with its last rows, so a fill that stops
 * resumes after it.
 *
 * It does not decide mutants and does not minimise. */
#include "matrix_int.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mutate.h"

#define WRITE_BATCH 4096  /* kill rows per transaction */
#define MAX_TEST_LEN 100000

/* ---- targets: the mutants a matrix replays on ---------------------------- */

/* The campaign's killed, survived and unknown mutants, read in planning
 * order (row id) next to mf_mutants_each, which yields them in the same
 * order: a merge, so no list of them is kept. */
typedef struct {
    sqlite3_stmt *st;
    int has;        /* a current row */
    char id[17];    /* its mutant id */
    int64_t row;    /* mutants.id */
    int64_t vtest;  /* the test of its killed verdict, 0: none */
    int64_t n;      /* targets in all */
    mf_store *s;
    int rc;         /* a read failure */
} targets;

static const char *TARGETS_WHERE =
    "FROM mutants m JOIN verdicts v ON v.mutant = m.id WHERE "
    "m.campaign_id = ?1 AND m.status = 'ok' AND v.kind IN ('killed', "
    "'survived', 'unknown')";

static void targets_next(targets *t)
{
    int rc = sqlite3_step(t->st);
    t->has = rc == SQLITE_ROW;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        t->rc = mf_matrix_db_fail(t->s, "reading the mutants");
    if (!t->has)
        return;
    const char *mid = (const char *)sqlite3_column_text(t->st, 0);
    snprintf(t->id, sizeof t->id, "%s", mid ? mid : "");
    t->row = sqlite3_column_int64(t->st, 1);
    t->vtest = sqlite3_column_int64(t->st, 2);
}

/* Count them and stand before the first. */
static int targets_open(targets *t, mf_store *s, int64_t campaign)
{
    char sql[512];
    sqlite3_stmt *st = NULL;
    memset(t, 0, sizeof *t);
    t->s = s;
    snprintf(sql, sizeof sql, "SELECT count(*) %s", TARGETS_WHERE);
    int rc = mf_matrix_prepare(s, &st, sql);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    if (sqlite3_step(st) == SQLITE_ROW)
        t->n = sqlite3_column_int64(st, 0);
    else
        rc = mf_matrix_db_fail(s, "counting the mutants");
    sqlite3_finalize(st);
    if (rc < 0)
        return rc;
    snprintf(sql, sizeof sql, "SELECT m.mutant_id, m.id, CASE WHEN v.kind "
             "= 'killed' THEN v.test_id END %s ORDER BY m.id", TARGETS_WHERE);
    if ((rc = mf_matrix_prepare(s, &t->st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(t->st, 1, campaign);
    targets_next(t);
    return t->rc;
}

/* Back to the first (another block of tests). */
static int targets_rewind(targets *t)
{
    sqlite3_reset(t->st);
    targets_next(t);
    return t->rc;
}

static void targets_close(targets *t)
{
    sqlite3_finalize(t->st);
    t->st = NULL;
}

int mf_matrix_targets_load(mf_store *s, int64_t campaign,
                           mf_matrix_target **out, int64_t *n)
{
    targets t;
    MF_VEC(mf_matrix_target) v = {0};
    *out = NULL;
    *n = 0;
    int rc = targets_open(&t, s, campaign);
    for (; rc == 0 && t.has; targets_next(&t), rc = t.rc) {
        mf_matrix_target x = {t.row, t.vtest, ""};
        memcpy(x.id, t.id, sizeof x.id);
        MF_VEC_PUSH(v, x);
    }
    targets_close(&t);
    if (rc < 0) {
        MF_VEC_FREE(v);
        return rc;
    }
    *out = v.v;
    *n = v.n;
    return 0;
}

/* ---- a block of tests ---------------------------------------------------- */

typedef mf_matrix_btest btest;
typedef mf_matrix_block block;

void mf_matrix_block_free(block *b)
{
    for (int i = 0; i < b->n; i++)
        mf_test_free(b->v[i].t);
    free(b->v);
    memset(b, 0, sizeof *b);
}

/* Parse and check one row (id, length, inputs, expected, allowed). */
static int block_add(block *b, mf_store *s, const mf_matrix_campaign *c,
                     mf_kill_orig *o, sqlite3_stmt *st)
{
    int64_t id = sqlite3_column_int64(st, 0);
    int len = sqlite3_column_int(st, 1);
    mf_test *t = NULL;
    if (len < 0 || len > MAX_TEST_LEN)
        return mf_err_set(MF_EPARSE, "store %s: test %lld has length %d",
                          mf_store_path(s), (long long)id, len);
    mf_store_test_opts to = {id, 1, NULL, NULL, NULL, 0};
    int rc = mf_store_test_parse(
        &t, c->model, len, (const char *)sqlite3_column_text(st, 2),
        (const char *)sqlite3_column_text(st, 3),
        (const char *)sqlite3_column_text(st, 4), &to);
    if (rc < 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        return mf_err_set(MF_EPARSE, "store %s: %s", mf_store_path(s), why);
    }
    rc = mf_kill_test_check(o, t);
    if (rc < 0 && rc != MF_ELIMIT) {
        char why[512];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        mf_test_free(t);
        return mf_err_set(MF_EPARSE, "store %s: test %lld does not replay "
                          "on the original: %s", mf_store_path(s),
                          (long long)id, why);
    }
    b->v = mf_xrealloc(b->v, sizeof *b->v * (size_t)(b->n + 1));
    btest *bt = &b->v[b->n++];
    memset(bt, 0, sizeof *bt);
    bt->id = id;
    bt->t = t;
    bt->ok = rc == 0;
    if (!bt->ok)
        snprintf(bt->why, sizeof bt->why, "the original alone: %s",
                 mf_err_msg());
    if (id > b->last)
        b->last = id;
    return 0;
}

static const char *TEST_COLS = "SELECT id, length, inputs, expected, "
                               "allowed FROM tests ";

/* The next `max` tests of the campaign after test id `after`. */
int mf_matrix_block_next(block *b, mf_store *s, const mf_matrix_campaign *c,
                         mf_kill_orig *o, int64_t after, int max)
{
    sqlite3_stmt *st = NULL;
    char sql[256];
    snprintf(sql, sizeof sql, "%sWHERE campaign_id = ?1 AND id > ?2 "
             "ORDER BY id LIMIT ?3", TEST_COLS);
    int rc = mf_matrix_prepare(s, &st, sql);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_int64(st, 2, after);
    sqlite3_bind_int(st, 3, max);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if ((rc = block_add(b, s, c, o, st)) < 0)
            break;
    if (rc != SQLITE_DONE && rc >= 0)
        rc = mf_matrix_db_fail(s, "reading the tests");
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : rc;
}

/* The tests ids[0..n) of the campaign, in that order. */
static int block_ids(block *b, mf_store *s, const mf_matrix_campaign *c,
                     mf_kill_orig *o, const int64_t *ids, int n)
{
    sqlite3_stmt *st = NULL;
    char sql[256];
    snprintf(sql, sizeof sql, "%sWHERE campaign_id = ?1 AND id = ?2",
             TEST_COLS);
    int rc = mf_matrix_prepare(s, &st, sql);
    for (int i = 0; i < n && rc == 0; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, c->id);
        sqlite3_bind_int64(st, 2, ids[i]);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            rc = block_add(b, s, c, o, st);
        else if (rc == SQLITE_DONE)
            rc = mf_err_set(MF_ENOTFOUND, "campaign %lld has no test %lld",
                            (long long)c->id, (long long)ids[i]);
        else
            rc = mf_matrix_db_fail(s, "reading a test");
    }
    sqlite3_finalize(st);
    return rc;
}

/* ---- replaying a block on every target ----------------------------------- */

typedef struct {
    int64_t test_id, mutant_row;
    mf_kill k;
} kill_row;

typedef struct {
    mf_model *mm;
    char id[17];   /* the mutant's id */
    int64_t row;   /* mutants.id */
    int64_t vtest; /* the test of its killed verdict, 0: none */
} job;

typedef struct runner runner;

/* A replay thread's own state. */
typedef struct {
    runner *r;
    mf_kill_orig *orig; /* the original's memoised steps (runner's) */
    int64_t pairs, undecided, unconfirmed;
    pthread_t th;
} tstate;

struct runner {
    const mf_matrix_campaign *c;
    block *b;
    targets *tg;
    int threads;
    int early;           /* suite: stop a mutant at its first rank-2 kill,
                            and tell rank_fn (one thread, one block) */
    mf_matrix_rank_fn rank_fn;
    void *rank_ctx;
    int stop;            /* rank_fn asked to stop */
    int64_t found;       /* targets met in the enumeration */
    /* the queue from the enumerating thread to the replay threads */
    pthread_mutex_t mu;
    pthread_cond_t cv_job, cv_space;
    job *jobs;
    int jhead, jn, jcap;
    int closing;
    MF_VEC(kill_row) out; /* kills waiting to be written */
    int fatal;            /* making a mutant failed: stop */
    char why[256];        /* first undecided pair's reason */
    tstate *inline_ts;    /* threads == 1: replay in the enumeration */
    mf_kill_orig **origs; /* per thread, kept across blocks; [0] also
                               checks the tests */
    int norigs;
    /* writing (fill); NULL for a suite */
    int (*write)(runner *r, int final);
    void *wctx;
};

static void note_why(runner *r, int64_t test, const char *mutant, int rc,
                     const char *why)
{
    if (r->why[0])
        return;
    snprintf(r->why, sizeof r->why, "test %lld on mutant %s: %s%s",
             (long long)test, mutant, rc == MF_ELIMIT ? "" : "simulator: ",
             why);
}

/* Replay every test of the block on one mutant (its model freed here). */
static void run_mutant(tstate *ts, job *j)
{
    runner *r = ts->r;
    mf_kill_mut mu;
    MF_VEC(kill_row) mine = {0};
    int undecided = 0, rank = 0;

    mf_kill_mut_init(&mu, r->c->model, j->mm);
    for (int i = 0; i < r->b->n && !(r->early && rank == 2); i++) {
        btest *bt = &r->b->v[i];
        ts->pairs++;
        if (!bt->ok) { /* the original alone was past the limits */
            ts->undecided++;
            undecided = 1;
            pthread_mutex_lock(&r->mu);
            note_why(r, bt->id, j->id, MF_ELIMIT, bt->why);
            pthread_mutex_unlock(&r->mu);
            continue;
        }
        mf_kill k;
        int rc = mf_kill_replay(&k, ts->orig, bt->t, &mu);
        if (rc < 0) {
            ts->undecided++;
            undecided = 1;
            pthread_mutex_lock(&r->mu);
            note_why(r, bt->id, j->id, rc, mf_err_msg());
            pthread_mutex_unlock(&r->mu);
            continue;
        }
        if (!k.killed) {
            if (bt->id == j->vtest)
                ts->unconfirmed++;
            continue;
        }
        if (mf_kill_notion_rank(k.notion) > rank)
            rank = mf_kill_notion_rank(k.notion);
        if (!r->early) {
            kill_row kr = {bt->id, j->row, k};
            MF_VEC_PUSH(mine, kr);
        }
    }
    mf_kill_mut_free(&mu);
    mf_model_free(j->mm);
    j->mm = NULL;
    if (r->early && r->rank_fn(j->row, j->id, rank ? rank : -undecided,
                               r->rank_ctx))
        r->stop = 1;
    if (mine.n) {
        pthread_mutex_lock(&r->mu);
        for (int i = 0; i < mine.n; i++)
            MF_VEC_PUSH(r->out, mine.v[i]);
        pthread_mutex_unlock(&r->mu);
    }
    MF_VEC_FREE(mine);
}

static void *replay_thread(void *arg)
{
    tstate *ts = arg;
    runner *r = ts->r;
    for (;;) {
        pthread_mutex_lock(&r->mu);
        while (!r->jn && !r->closing)
            pthread_cond_wait(&r->cv_job, &r->mu);
        if (!r->jn) {
            pthread_mutex_unlock(&r->mu);
            return NULL;
        }
        job j = r->jobs[r->jhead];
        r->jhead = (r->jhead + 1) % r->jcap;
        r->jn--;
        pthread_cond_signal(&r->cv_space);
        pthread_mutex_unlock(&r->mu);
        run_mutant(ts, &j);
    }
}

/* Write what the replay threads produced, when there is a batch of it (or
 * anything at all when final). */
static int drain(runner *r, int final)
{
    if (!r->write)
        return 0;
    pthread_mutex_lock(&r->mu);
    int n = r->out.n;
    pthread_mutex_unlock(&r->mu);
    if (!final && n < WRITE_BATCH)
        return 0;
    return r->write(r, final);
}

static int enum_fn(const mf_mutant *mu, void *ctx)
{
    runner *r = ctx;
    targets *tg = r->tg;
    if (!tg->has || strcmp(mu->id, tg->id) != 0)
        return 0; /* not one the campaign decided as killable */
    job j = {NULL, "", tg->row, tg->vtest};
    memcpy(j.id, tg->id, sizeof j.id);
    targets_next(tg);
    if (tg->rc < 0)
        return 1;
    if (mu->status != MF_MUT_OK)
        return 0; /* the store says otherwise: counted as not found */
    r->found++;
    if (mf_mutant_apply(&j.mm, r->c->model, mu) < 0) {
        r->fatal = 1;
        snprintf(r->why, sizeof r->why, "mutant %s: %s", mu->id,
                 mf_err_msg());
        return 1;
    }
    if (r->threads <= 1)
        run_mutant(r->inline_ts, &j);
    else {
        pthread_mutex_lock(&r->mu);
        while (r->jn == r->jcap)
            pthread_cond_wait(&r->cv_space, &r->mu);
        r->jobs[(r->jhead + r->jn) % r->jcap] = j;
        r->jn++;
        pthread_cond_signal(&r->cv_job);
        pthread_mutex_unlock(&r->mu);
    }
    if (r->stop)
        return 1;
    return drain(r, 0) < 0 ? 1 : 0;
}

typedef struct {
    int64_t pairs, undecided, unconfirmed;
} block_counts;

/* Replay block b on every target: enumerate the model's mutants once. */
static int run_block(runner *r, block_counts *cnt)
{
    int nth = r->threads > 1 ? r->threads : 1, rc = 0;
    tstate *ts = mf_xcalloc((size_t)nth, sizeof *ts);
    for (int i = 0; i < nth; i++) {
        ts[i].r = r;
        ts[i].orig = r->origs[i];
    }
    r->found = 0;
    r->inline_ts = &ts[0];
    if ((rc = targets_rewind(r->tg)) < 0) {
        free(ts);
        return rc;
    }
    if (nth > 1) {
        r->jcap = 2 * nth;
        r->jobs = mf_xcalloc((size_t)r->jcap, sizeof *r->jobs);
        r->jhead = r->jn = r->closing = 0;
        for (int i = 0; i < nth; i++)
            if (pthread_create(&ts[i].th, NULL, replay_thread, &ts[i])) {
                /* Fewer threads than asked: run with those started. */
                nth = i;
                break;
            }
        if (nth == 0) {
            r->threads = 1;
            free(r->jobs);
            r->jobs = NULL;
        }
    }
    int erc = mf_mutants_each(r->c->model, r->c->mask, enum_fn, r);
    if (r->threads > 1) {
        pthread_mutex_lock(&r->mu);
        r->closing = 1;
        pthread_cond_broadcast(&r->cv_job);
        pthread_mutex_unlock(&r->mu);
        for (int i = 0; i < nth; i++)
            pthread_join(ts[i].th, NULL);
        free(r->jobs);
        r->jobs = NULL;
    }
    int nts = r->threads > 1 ? r->threads : 1;
    for (int i = 0; i < nts; i++) {
        cnt->pairs += ts[i].pairs;
        cnt->undecided += ts[i].undecided;
        cnt->unconfirmed += ts[i].unconfirmed;
    }
    free(ts);
    if (r->fatal)
        rc = mf_err_set(MF_ERROR, "%s", r->why);
    else if (r->tg->rc < 0)
        rc = r->tg->rc;
    else if (erc < 0)
        rc = erc;
    else if (erc > 0 && !r->stop) /* a write failed: its message is set */
        rc = MF_ERROR;
    else if (!r->stop && r->found != r->tg->n)
        rc = mf_err_set(MF_EPARSE, "%lld of the campaign's mutants are not "
                        "among the model's mutants, in its order, in this "
                        "mutfarm (a store from another version?)",
                        (long long)(r->tg->n - r->found));
    return rc;
}

static void runner_init(runner *r, const mf_matrix_campaign *c, targets *tg,
                        int threads)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->tg = tg;
    r->threads = threads > 1 ? threads : 1;
    r->norigs = r->threads;
    r->origs = mf_xcalloc((size_t)r->threads, sizeof *r->origs);
    for (int i = 0; i < r->threads; i++)
        mf_kill_orig_new(&r->origs[i], c->model);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv_job, NULL);
    pthread_cond_init(&r->cv_space, NULL);
}

static void runner_free(runner *r)
{
    for (int i = 0; i < r->norigs; i++)
        mf_kill_orig_free(r->origs[i]);
    free(r->origs);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv_job);
    pthread_cond_destroy(&r->cv_space);
    MF_VEC_FREE(r->out);
}

/* ---- filling the matrix -------------------------------------------------- */

int mf_matrix_writer_open(mf_matrix_writer *w, mf_store *s, int64_t campaign)
{
    memset(w, 0, sizeof *w);
    w->s = s;
    w->campaign = campaign;
    return mf_matrix_prepare(s, &w->ins,
                   "INSERT INTO kills(test_id, mutant, campaign_id, source, "
                   "notion, step, refuses) VALUES (?1, ?2, ?3, 'replay', ?4, "
                   "?5, ?6) ON CONFLICT(test_id, mutant) DO UPDATE SET "
                   "notion = excluded.notion, step = excluded.step, refuses "
                   "= excluded.refuses");
}

void mf_matrix_writer_close(mf_matrix_writer *w)
{
    mf_matrix_writer_rollback(w);
    sqlite3_finalize(w->ins);
    w->ins = NULL;
}

int mf_matrix_writer_begin(mf_matrix_writer *w)
{
    if (w->in_tx)
        return 0;
    int rc = mf_matrix_exec(w->s, "BEGIN IMMEDIATE", "starting a transaction");
    w->in_tx = rc == 0;
    return rc;
}

int mf_matrix_writer_commit(mf_matrix_writer *w)
{
    if (!w->in_tx)
        return 0;
    w->in_tx = 0;
    int rc = mf_matrix_exec(w->s, "COMMIT", "committing the kill matrix");
    if (rc < 0)
        sqlite3_exec(mf_store_db(w->s), "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

void mf_matrix_writer_rollback(mf_matrix_writer *w)
{
    if (w->in_tx)
        sqlite3_exec(mf_store_db(w->s), "ROLLBACK", NULL, NULL, NULL);
    w->in_tx = 0;
}

int mf_matrix_writer_put(mf_matrix_writer *w, int64_t test_id,
                         int64_t mutant_row, const mf_kill *k)
{
    int rc = mf_matrix_writer_begin(w);
    if (rc < 0)
        return rc;
    sqlite3_reset(w->ins);
    sqlite3_bind_int64(w->ins, 1, test_id);
    sqlite3_bind_int64(w->ins, 2, mutant_row);
    sqlite3_bind_int64(w->ins, 3, w->campaign);
    sqlite3_bind_text(w->ins, 4, mf_notion_name(k->notion), -1,
                      SQLITE_STATIC);
    sqlite3_bind_int(w->ins, 5, k->step);
    if (k->refuses >= 0)
        sqlite3_bind_int(w->ins, 6, k->refuses);
    else
        sqlite3_bind_null(w->ins, 6);
    rc = sqlite3_step(w->ins);
    sqlite3_reset(w->ins);
    if (rc != SQLITE_DONE)
        return mf_matrix_db_fail(w->s, "storing a kill");
    w->written++;
    return 0;
}

typedef struct {
    mf_matrix_writer w;
    const mf_matrix_campaign *c;
    /* committed with the block's last rows */
    const block *b;
    block_counts cnt;
    double ms;
} writer;

static int kill_row_cmp(const void *a, const void *b)
{
    const kill_row *x = a, *y = b;
    if (x->test_id != y->test_id)
        return x->test_id < y->test_id ? -1 : 1;
    return (x->mutant_row > y->mutant_row) - (x->mutant_row < y->mutant_row);
}

/* Write every pending kill; with `final`, also the block's progress, in
 * the same transaction as its last rows. */
static int write_kills(runner *r, int final)
{
    writer *w = r->wctx;
    MF_VEC(kill_row) rows = {0};
    pthread_mutex_lock(&r->mu);
    rows.v = r->out.v;
    rows.n = r->out.n;
    rows.cap = r->out.cap;
    r->out.v = NULL;
    r->out.n = r->out.cap = 0;
    pthread_mutex_unlock(&r->mu);

    /* In key order: the b-tree pages of one test are written together. */
    if (rows.n > 1)
        qsort(rows.v, (size_t)rows.n, sizeof *rows.v, kill_row_cmp);
    int rc = 0;
    for (int i = 0; i < rows.n && rc == 0; i++)
        rc = mf_matrix_writer_put(&w->w, rows.v[i].test_id,
                                  rows.v[i].mutant_row, &rows.v[i].k);
    MF_VEC_FREE(rows);
    if (rc == 0 && !final)
        rc = mf_matrix_writer_commit(&w->w);
    if (rc == 0 && final) {
        sqlite3_stmt *st = NULL;
        if ((rc = mf_matrix_writer_begin(&w->w)) == 0 &&
            (rc = mf_matrix_prepare(w->w.s, &st,
                          "UPDATE matrices SET through_test = ?2, "
                          "pairs = pairs + ?3, undecided = undecided + ?4, "
                          "unconfirmed = unconfirmed + ?5, ms = ms + ?6 "
                          "WHERE campaign_id = ?1")) == 0) {
            sqlite3_bind_int64(st, 1, w->c->id);
            sqlite3_bind_int64(st, 2, w->b->last);
            sqlite3_bind_int64(st, 3, w->cnt.pairs);
            sqlite3_bind_int64(st, 4, w->cnt.undecided);
            sqlite3_bind_int64(st, 5, w->cnt.unconfirmed);
            sqlite3_bind_int64(st, 6, (int64_t)(w->ms + 0.5));
            if (sqlite3_step(st) != SQLITE_DONE)
                rc = mf_matrix_db_fail(w->w.s,
                                       "recording the matrix's progress");
        }
        sqlite3_finalize(st);
        if (rc == 0)
            rc = mf_matrix_writer_commit(&w->w);
    }
    if (rc < 0)
        mf_matrix_writer_rollback(&w->w);
    return rc;
}

int mf_matrix_fill(mf_store *s, const mf_matrix_campaign *c,
                   const mf_matrix_opts *o, mf_matrix_stats *out)
{
    targets tg;
    runner r;
    writer w = {0};
    int64_t after = 0, ntests = 0;
    double t0 = mf_matrix_now_s();
    int rc, blocksz = o->block > 0 ? o->block : MF_MATRIX_BLOCK_TESTS;
    int progress = !o->quiet && isatty(2);

    memset(out, 0, sizeof *out);
    if (c->info.state != MF_CAMPAIGN_DONE)
        return mf_err_set(MF_ERROR, "campaign %lld is not complete yet: its "
                          "kill matrix is made once every mutant has its "
                          "verdict", (long long)c->id);
    rc = mf_matrix_is_full(s, c->id);
    if (rc < 0)
        return rc;
    if (rc == 1 && !o->refill) {
        out->already = 1;
        return mf_matrix_totals(s, c->id, 1, out);
    }
    memset(&tg, 0, sizeof tg);
    if ((rc = mf_matrix_fill_begin(s, c->id, o->refill, &after)) < 0 ||
        (rc = targets_open(&tg, s, c->id)) < 0 ||
        (rc = mf_matrix_count_tests(s, c->id, &ntests)) < 0 ||
        (rc = mf_matrix_writer_open(&w.w, s, c->id)) < 0)
        goto cleanup;
    w.c = c;
    runner_init(&r, c, &tg, o->threads);
    r.write = write_kills;
    r.wctx = &w;
    for (;;) {
        block b = {0};
        if ((rc = mf_matrix_block_next(&b, s, c, r.origs[0], after,
                                       blocksz)) < 0 ||
            b.n == 0) {
            mf_matrix_block_free(&b);
            break;
        }
        double tb = mf_matrix_now_s();
        if (progress)
            fprintf(stderr, "matrix: tests %lld..%lld of campaign %lld on "
                    "%lld mutants\n", (long long)b.v[0].id,
                    (long long)b.last, (long long)c->id, (long long)tg.n);
        r.b = &b;
        w.b = &b;
        memset(&w.cnt, 0, sizeof w.cnt);
        rc = run_block(&r, &w.cnt);
        w.ms = (mf_matrix_now_s() - tb) * 1000.0;
        if (rc == 0)
            rc = drain(&r, 1);
        else
            mf_matrix_writer_rollback(&w.w);
        out->pairs += w.cnt.pairs;
        after = b.last;
        mf_matrix_block_free(&b);
        if (rc < 0)
            break;
    }
    runner_free(&r);
    if (rc == 0)
        rc = mf_matrix_fill_finish(s, c->id, ntests, tg.n, out);
    out->mutants = tg.n;
    out->tests = ntests;
    snprintf(out->undecided_why, sizeof out->undecided_why, "%s", r.why);
cleanup:
    mf_matrix_writer_close(&w.w);
    targets_close(&tg);
    out->secs = mf_matrix_now_s() - t0;
    return rc;
}

/* ---- a suite, replayed with an early exit per mutant --------------------- */

int mf_matrix_suite_ranks(mf_store *s, const mf_matrix_campaign *c,
                          const int64_t *test_ids, int ntests,
                          mf_matrix_rank_fn fn, void *ctx)
{
    targets tg;
    runner r;
    block b = {0};
    block_counts cnt = {0};
    int rc = targets_open(&tg, s, c->id);
    if (rc < 0) {
        targets_close(&tg);
        return rc;
    }
    /* One block, all of the suite: a mutant's rank is known when its
     * replays end. */
    runner_init(&r, c, &tg, 1);
    r.early = 1;
    r.rank_fn = fn;
    r.rank_ctx = ctx;
    if ((rc = block_ids(&b, s, c, r.origs[0], test_ids, ntests)) == 0) {
        r.b = &b;
        rc = run_block(&r, &cnt);
    }
    mf_matrix_block_free(&b);
    runner_free(&r);
    targets_close(&tg);
    return rc;
}

/* ---- tests not of the campaign, replayed --------------------------------- */

typedef struct {
    mf_matrix_kill_fn fn;
    void *ctx;
} kill_sink;

/* The runner's writer for them: each kill to the caller, by test index
 * (the block's ids are index + 1). */
static int tell_kills(runner *r, int final)
{
    kill_sink *k = r->wctx;
    int rc = 0;
    (void)final;
    pthread_mutex_lock(&r->mu);
    for (int i = 0; i < r->out.n && rc == 0; i++)
        if (k->fn((int)r->out.v[i].test_id - 1, r->out.v[i].mutant_row,
                  &r->out.v[i].k, k->ctx))
            rc = mf_err_set(MF_ERROR, "stopped");
    r->out.n = 0;
    pthread_mutex_unlock(&r->mu);
    return rc;
}

int mf_matrix_replay_tests(mf_store *s, const mf_matrix_campaign *c,
                           mf_test *const *tests, int n, int threads,
                           mf_matrix_kill_fn fn, void *ctx,
                           int64_t *undecided)
{
    targets tg;
    runner r;
    block b = {0};
    block_counts cnt = {0};
    kill_sink sink = {fn, ctx};
    *undecided = 0;
    int rc = targets_open(&tg, s, c->id);
    if (rc < 0) {
        targets_close(&tg);
        return rc;
    }
    runner_init(&r, c, &tg, threads);
    r.write = tell_kills;
    r.wctx = &sink;
    /* The tests are borrowed: the block holds them, never frees them. */
    b.v = mf_xcalloc((size_t)n + 1, sizeof *b.v);
    for (int i = 0; i < n; i++) {
        btest *bt = &b.v[b.n++];
        bt->id = i + 1;
        bt->t = tests[i];
        int crc = mf_kill_test_check(r.origs[0], tests[i]);
        bt->ok = crc != MF_ELIMIT;
        if (!bt->ok)
            snprintf(bt->why, sizeof bt->why, "the original alone: %s",
                     mf_err_msg());
        b.last = i + 1;
    }
    /* Blocks of the matrix's size, as a fill replays them (the original's
     * graphs of one block at a time), the mutants enumerated per block. */
    for (int at = 0; rc == 0 && at < n; at += MF_MATRIX_BLOCK_TESTS) {
        block part = b;
        part.v = b.v + at;
        part.n = n - at < MF_MATRIX_BLOCK_TESTS ? n - at
                                                : MF_MATRIX_BLOCK_TESTS;
        r.b = &part;
        rc = run_block(&r, &cnt);
        if (rc == 0)
            rc = drain(&r, 1);
    }
    *undecided = cnt.undecided;
    free(b.v);
    runner_free(&r);
    targets_close(&tg);
    return rc;
}
