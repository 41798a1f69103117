/* store_int.h - what the files of the store share and nothing outside
 * coordinator/store/ may use: the mf_store handle, the slots of its
 * statement cache, the one way to run a cached query (mf_store_one,
 * mf_store_each), transactions, and the few functions one table group
 * borrows from another. It declares no table and no SQL: each file keeps
 * the SQL of its queries next to the code that runs them (the schema is in
 * schema/NNN_*.sql).
 *
 * Who uses whom, so that no two files use each other: db.c uses no other
 * file; tests.c, jobs.c, queries.c and liveness.c use db.c; campaigns.c
 * uses queries.c; results.c uses jobs.c and tests.c; reuse.c uses results.c. */
#ifndef MF_STORE_INT_H
#define MF_STORE_INT_H

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#include "store.h"

/* ---- the handle --------------------------------------------------------- */

/* One slot per cached statement; each belongs to the file named. */
enum {
    /* db.c */
    Q_BEGIN,
    Q_BEGIN_READ,
    Q_COMMIT,
    Q_SAVEPOINT,
    Q_RELEASE,
    Q_WORKER_JOBS,
    /* campaigns.c */
    Q_MODEL_INS,
    Q_MODEL_ID,
    Q_MODEL_GET,
    Q_CAMP_FIND,
    Q_CAMP_INS,
    Q_CAMP_VERS,
    Q_CAMP_STATE,
    Q_CAMP_SET_STATE,
    Q_CAMP_GET,
    Q_CAMP_LATEST,
    Q_CAMP_REQUEUE,
    Q_HISTORY_INS,
    Q_MUT_INS,
    /* jobs.c */
    Q_JOB_PENDING,
    Q_JOB_GET,
    Q_JOB_CUT,
    Q_JOB_INS,
    Q_JOB_MOVE,
    Q_JOB_SET_NMUT,
    Q_UNPLANNED_ROWS,
    Q_JOB_INS_LEASED,
    Q_MUT_TO_JOB,
    Q_JOB_MUTANTS,
    Q_JOB_LEASE,
    Q_JOB_EXTEND,
    Q_JOB_TO_PENDING,
    Q_JOB_QUAR,
    Q_QUAR_VERDICTS,
    Q_JOBS_EXPIRED,
    Q_JOBS_OF_WORKER,
    /* results.c */
    Q_MUT_LOOKUP,
    Q_JOB_ROWS,
    Q_TEST_INS,
    Q_TEST_ID,
    Q_VERDICT_INS,
    Q_KILL_INS,
    Q_JOB_DONE,
    Q_WORKER_JOB,
    /* tests.c */
    Q_TEST_OF_MUTANT,
    Q_TESTS_OF_CAMPAIGN,
    /* reuse.c */
    Q_BASIS_SAME,
    Q_BASIS_NAME,
    Q_CARRIABLE,
    Q_PLAN_MUTANT,
    Q_REPLAY_VERDICT,
    Q_REUSE_SET,
    Q_REUSE_GET,
    Q_MARK_REUSED,
    Q_UNDECIDED,
    Q_IMPORTED_FIND,
    Q_IMPORTED_TESTS,
    Q_BASIS_MODEL,
    Q_CONE_VERDICT,
    /* queries.c */
    Q_WORKER_UPSERT,
    Q_COUNT_STATUS,
    Q_COUNT_KIND,
    Q_COUNT_JOBS,
    Q_COUNT_UNPLANNED,
    /* liveness.c */
    Q_LIVE_INS,
    Q_LIVE_BEAT,
    Q_LIVE_STOP,
    Q__COUNT
};

/* A worker's jobs committed in the open batch (counted by results.c),
 * written to its row once when the batch commits (db.c). */
typedef struct {
    char id[MF_STORE_WORKER_ID];
    int jobs;
    int64_t last; /* the last commit's time */
} mf_store_worker_jobs;

struct mf_store {
    sqlite3 *db;
    char *path;
    int readonly;
    int planning;               /* inside plan_begin .. plan_end */
    int batch;                  /* inside batch_begin .. batch_end */
    int savepoints;             /* open savepoints of the batch */
    int64_t plan_campaign;      /* the campaign being planned */
    int last_rc;                /* SQLite's code of the last mf_store_fail */
    MF_VEC(mf_store_worker_jobs) worker_jobs; /* batch: jobs per worker */
    sqlite3_stmt *st[Q__COUNT]; /* prepared on first use */
    const char *sql[Q__COUNT];  /* the text each slot was prepared from */
};

/* A query: its cache slot and its SQL. */
typedef struct {
    int slot;
    const char *sql;
} mf_store_query;

/* ---- running a query ---------------------------------------------------- */

/* A value bound to a parameter: ?1 is the first of the list. */
typedef struct {
    enum { MF_SA_END, MF_SA_NULL, MF_SA_INT, MF_SA_REAL, MF_SA_TEXT } type;
    int64_t i;
    double d;
    const char *t; /* MF_SA_TEXT: NULL binds NULL */
    int len;       /* MF_SA_TEXT: bytes of t, -1 up to its NUL */
} mf_store_arg;

#define ARG_NULL ((mf_store_arg){MF_SA_NULL, .len = 0})
#define ARG_INT(v) ((mf_store_arg){MF_SA_INT, .i = (v)})
#define ARG_REAL(v) ((mf_store_arg){MF_SA_REAL, .d = (v)})
#define ARG_TEXT(v) ((mf_store_arg){MF_SA_TEXT, .t = (v), .len = -1})
/* Text of exactly n bytes. */
#define ARG_TEXTLEN(v, n) ((mf_store_arg){MF_SA_TEXT, .t = (v), .len = (n)})
/* Text of at most max bytes (fixed-size fields that may lack a NUL). */
#define ARG_TEXTN(v, max)                                                      \
    ((mf_store_arg){MF_SA_TEXT, .t = (v), .len = (int)strnlen((v), (max))})

/* Where a column of the row goes: the first of the list reads column 0. */
typedef struct {
    enum { MF_SC_END, MF_SC_I64, MF_SC_INT, MF_SC_TEXT, MF_SC_DUP } type;
    int64_t *i64;
    int *i;
    char *buf; /* MF_SC_TEXT: copied, truncated to size, "" for NULL */
    size_t size;
    char **dup;  /* MF_SC_DUP: a NUL-terminated copy the caller frees;
                    NULL for NULL */
    size_t *len; /* MF_SC_DUP: its length; may be NULL */
} mf_store_col;

#define COL_I64(p) ((mf_store_col){MF_SC_I64, .i64 = (p)})
#define COL_INT(p) ((mf_store_col){MF_SC_INT, .i = (p)})
#define COL_TEXT(b, n) ((mf_store_col){MF_SC_TEXT, .buf = (b), .size = (n)})
#define COL_DUP(p, n) ((mf_store_col){MF_SC_DUP, .dup = (p), .len = (n)})

/* The lists passed to mf_store_one and mf_store_each. */
#define BIND(...) ((const mf_store_arg[]){__VA_ARGS__, {0}})
#define INTO(...) ((const mf_store_col[]){__VA_ARGS__, {0}})

/* Run query q once: bind args (NULL: none), step, copy the row's columns
 * into `into` (NULL: none), reset. Returns 1 when a row was read, 0 when
 * there was none (a write, or a read that found nothing), or a negative
 * MF_E* code with a message naming the file and `what`; s->last_rc then
 * holds SQLite's extended code (a caller may turn a constraint failure
 * into its own message). */
int mf_store_one(mf_store *s, const mf_store_query *q, const char *what,
                 const mf_store_arg *args, const mf_store_col *into);

/* Called with each row (st is on it); non-zero stops the loop. */
typedef int (*mf_store_row_fn)(sqlite3_stmt *st, void *ctx);

/* Run query q and hand each row to fn. Returns 0 after the last row, fn's
 * non-zero value when it stopped, or a negative MF_E* code. */
int mf_store_each(mf_store *s, const mf_store_query *q, const char *what,
                  const mf_store_arg *args, mf_store_row_fn fn, void *ctx);

/* Record a SQLite failure of `what` (rc: SQLite's code, kept in
 * s->last_rc) and return its MF_E* code. */
int mf_store_fail(mf_store *s, int rc, const char *what);

/* ---- transactions (db.c) ------------------------------------------------ */

/* MF_ERROR while a plan is open (a write would join its transaction). */
int mf_store_not_planning(mf_store *s);
/* BEGIN IMMEDIATE (write) or BEGIN; refused while a plan is open. */
int mf_store_tx_begin(mf_store *s, int write);
/* Commit when rc >= 0, else roll back; returns rc or the commit's
 * failure. */
int mf_store_tx_end(mf_store *s, int rc);
/* Undo the open transaction, if any, keeping the message of the failure
 * that led here. */
void mf_store_tx_rollback(mf_store *s);

/* ---- borrowed between table groups -------------------------------------- */

/* jobs.c: read one job: 1 and *out, 0 if absent, or < 0. */
int mf_store_job_read(mf_store *s, mf_store_job *out, int64_t job);

/* queries.c: the counts of a campaign inside the caller's transaction. */
int mf_store_counts_locked(mf_store *s, mf_store_counts *out, int64_t campaign);

/* tests.c: a test rendered for its row in `tests`. */
typedef struct {
    mf_buf inputs, expected, allowed, observed, text, tmp;
    int has_allowed, has_observed;
    char hash[65]; /* SHA-256 of inputs, expected and allowed */
} mf_store_test_rows;

/* Render test t (cells named by m, numbers without it) into r: NULL on
 * success, else why it cannot be stored. r is freed by
 * mf_store_test_rows_free either way. */
const char *mf_store_test_render(mf_store_test_rows *r, const mf_model *m,
                                 const mf_test *t);
void mf_store_test_rows_free(mf_store_test_rows *r);

/* tests.c: the mutant's observed deviation of test t (t->mobs) as the
 * JSON of kills.observed into *out: 1, or 0 when t has none to keep. */
int mf_store_test_observed(mf_buf *out, const mf_model *m, const mf_test *t);

/* results.c: a kill row (source "verdict" or "replay"; observed may be
 * NULL). */
int mf_store_kill_put(mf_store *s, int64_t campaign, int64_t test_id,
                      int64_t mutant, const char *source,
                      const char *observed);

/* results.c: the killing test t of mutant row `mutant` of `campaign`:
 * stored once per content (rendered for m; `notion` goes with a new row),
 * with its 'verdict' row in kills. 0 and *test_id (*fresh 1 if the test
 * row is new); 1 with *why when t does not fit m (nothing written); or
 * < 0. */
int mf_store_test_put(mf_store *s, int64_t campaign, const mf_model *m,
                      const mf_test *t, mf_notion notion, int64_t mutant,
                      int64_t now, int64_t *test_id, int *fresh,
                      const char **why);

/* db.c: run an uncached statement (SQL made at run time) once: bind
 * args, step to the end, finalize. Returns the rows it changed, or < 0
 * with a message naming `what`. */
int mf_store_exec(mf_store *s, const char *sql, const char *what,
                  const mf_store_arg *args);

#endif
