/* db.c - the store's connection: opening a file (WAL, foreign keys, busy
 * timeout), refusing files that are not ours, migrating to the embedded
 * schema, the statement cache and the one way to run a cached query,
 * transactions, error messages that name the file, and the integrity
 * check. It knows no table: the schema is in schema/NNN_*.sql, compiled in
 * by CMake (mf_schema_sql), and each table group's queries are in its own
 * file (campaigns.c, jobs.c, results.c, tests.c, queries.c). */
#include "store_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Generated from schema/NNN_*.sql by CMakeLists.txt: migration i + 1. */
extern const int mf_schema_count;
extern const char *const mf_schema_sql[];
extern const char *const mf_schema_names[];

/* PRAGMA application_id of a mutfarm store: "mfrm". */
#define MF_STORE_APP_ID 0x6d66726d

static const mf_store_query q_begin = {Q_BEGIN, "BEGIN IMMEDIATE"};
static const mf_store_query q_begin_read = {Q_BEGIN_READ, "BEGIN"};
static const mf_store_query q_commit = {Q_COMMIT, "COMMIT"};
static const mf_store_query q_savepoint = {Q_SAVEPOINT, "SAVEPOINT mf_tx"};
static const mf_store_query q_release = {Q_RELEASE, "RELEASE mf_tx"};
static const mf_store_query q_worker_jobs = {
    Q_WORKER_JOBS, "UPDATE workers SET jobs_done = jobs_done + ?3, "
                   "last_seen = ?2 WHERE id = ?1"};

/* ---- errors ------------------------------------------------------------- */

/* What a person can do about a SQLite failure. */
static const char *hint(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_FULL:
        return " (the disk or the file's size limit is full)";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return " (another process holds the file's lock: is a second "
               "coordinator using it?)";
    case SQLITE_READONLY:
        return " (the file or its directory is read-only)";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return " (the file is damaged or not a mutfarm store)";
    case SQLITE_CANTOPEN:
        return " (missing directory or no permission?)";
    default:
        return "";
    }
}

static int code_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_CANTOPEN:
        return MF_EIO;
    default:
        return MF_ERROR;
    }
}

int mf_store_fail(mf_store *s, int rc, const char *what)
{
    const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    s->last_rc = rc;
    return mf_err_set(code_of(rc), "store %s: %s: %s%s", s->path, what, msg,
                      hint(rc));
}

/* ---- running a cached query --------------------------------------------- */

/* Bind args to st's parameters: the first is ?1. */
static void bind_args(sqlite3_stmt *st, const mf_store_arg *args)
{
    for (int i = 0; args && args[i].type != MF_SA_END; i++) {
        const mf_store_arg *a = &args[i];
        if (a->type == MF_SA_INT)
            sqlite3_bind_int64(st, i + 1, a->i);
        else if (a->type == MF_SA_REAL)
            sqlite3_bind_double(st, i + 1, a->d);
        else if (a->type == MF_SA_TEXT && a->t)
            sqlite3_bind_text(st, i + 1, a->t, a->len, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(st, i + 1);
    }
}

/* The cached statement of q, reset and unbound, bound to args. */
static int prepare(mf_store *s, const mf_store_query *q,
                   const mf_store_arg *args, sqlite3_stmt **out)
{
    sqlite3_stmt **st = &s->st[q->slot];
    *out = NULL;
    if (!*st) {
        int rc = sqlite3_prepare_v3(s->db, q->sql, -1,
                                    SQLITE_PREPARE_PERSISTENT, st, NULL);
        if (rc != SQLITE_OK)
            return mf_store_fail(s, rc, "preparing a query");
        s->sql[q->slot] = q->sql;
    }
    assert(s->sql[q->slot] == q->sql); /* one query per slot */
    sqlite3_reset(*st);
    sqlite3_clear_bindings(*st);
    bind_args(*st, args);
    *out = *st;
    return 0;
}

/* Copy the current row's columns as `into` says. */
static void read_row(sqlite3_stmt *st, const mf_store_col *into)
{
    for (int i = 0; into && into[i].type != MF_SC_END; i++) {
        const mf_store_col *c = &into[i];
        const unsigned char *t;
        size_t n;
        switch (c->type) {
        case MF_SC_I64:
            *c->i64 = sqlite3_column_int64(st, i);
            break;
        case MF_SC_INT:
            *c->i = sqlite3_column_int(st, i);
            break;
        case MF_SC_TEXT:
            t = sqlite3_column_text(st, i);
            snprintf(c->buf, c->size, "%s", t ? (const char *)t : "");
            break;
        case MF_SC_DUP:
            *c->dup = NULL;
            if (c->len)
                *c->len = 0;
            if (sqlite3_column_type(st, i) == SQLITE_NULL)
                break;
            t = sqlite3_column_text(st, i);
            n = t ? (size_t)sqlite3_column_bytes(st, i) : 0;
            *c->dup = mf_xmalloc(n + 1);
            memcpy(*c->dup, t ? (const char *)t : "", n);
            (*c->dup)[n] = '\0';
            if (c->len)
                *c->len = n;
            break;
        default:
            break;
        }
    }
}

/* Step st: 1 on a row, 0 at the end, or the failure of `what`. */
static int step(mf_store *s, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return mf_store_fail(s, rc, what);
}

int mf_store_one(mf_store *s, const mf_store_query *q, const char *what,
                 const mf_store_arg *args, const mf_store_col *into)
{
    sqlite3_stmt *st;
    int rc = prepare(s, q, args, &st);
    if (rc < 0)
        return rc;
    rc = step(s, st, what);
    if (rc == 1)
        read_row(st, into);
    sqlite3_reset(st);
    return rc;
}

int mf_store_each(mf_store *s, const mf_store_query *q, const char *what,
                  const mf_store_arg *args, mf_store_row_fn fn, void *ctx)
{
    sqlite3_stmt *st;
    int rc = prepare(s, q, args, &st);
    if (rc < 0)
        return rc;
    while ((rc = step(s, st, what)) == 1) {
        rc = fn(st, ctx);
        if (rc != 0)
            break;
    }
    sqlite3_reset(st);
    return rc;
}

int mf_store_exec(mf_store *s, const char *sql, const char *what,
                  const mf_store_arg *args)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return mf_store_fail(s, rc, what);
    bind_args(st, args);
    while ((rc = step(s, st, what)) == 1)
        ;
    sqlite3_finalize(st);
    return rc < 0 ? rc : sqlite3_changes(s->db);
}

/* ---- transactions ------------------------------------------------------- */

int mf_store_not_planning(mf_store *s)
{
    if (s->planning)
        return mf_err_set(MF_ERROR,
                          "store %s: a plan is open: finish it "
                          "with mf_store_plan_end first",
                          s->path);
    return 0;
}

/* Inside a batch (mf_store_batch_begin) each function's transaction is a
 * savepoint of the batch's: undone alone on failure, committed with the
 * batch. */
int mf_store_tx_begin(mf_store *s, int write)
{
    int rc = mf_store_not_planning(s);
    if (rc == 0 && s->batch) {
        rc = mf_store_one(s, &q_savepoint, "starting a transaction", NULL,
                          NULL);
        if (rc == 0)
            s->savepoints++;
        return rc;
    }
    if (rc == 0)
        rc = mf_store_one(s, write ? &q_begin : &q_begin_read,
                          "starting a transaction", NULL, NULL);
    return rc;
}

void mf_store_tx_rollback(mf_store *s)
{
    if (sqlite3_get_autocommit(s->db))
        return;
    if (s->batch) {
        if (s->savepoints > 0) {
            sqlite3_exec(s->db, "ROLLBACK TO mf_tx; RELEASE mf_tx", NULL,
                         NULL, NULL);
            s->savepoints--;
        }
        return;
    }
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

int mf_store_tx_end(mf_store *s, int rc)
{
    if (rc >= 0) {
        int c = s->batch && s->savepoints > 0
                    ? mf_store_one(s, &q_release, "committing", NULL, NULL)
                    : mf_store_one(s, &q_commit, "committing", NULL, NULL);
        if (c < 0) {
            mf_store_tx_rollback(s);
            return c;
        }
        if (s->batch && s->savepoints > 0)
            s->savepoints--;
        return rc;
    }
    mf_store_tx_rollback(s);
    return rc;
}

int mf_store_batch_begin(mf_store *s)
{
    if (s->batch)
        return mf_err_set(MF_ERROR, "store %s: a batch is open already",
                          s->path);
    int rc = mf_store_not_planning(s);
    if (rc == 0)
        rc = mf_store_one(s, &q_begin, "starting a batch", NULL, NULL);
    if (rc == 0) {
        s->batch = 1;
        s->savepoints = 0;
    }
    return rc;
}

/* Write the batch's jobs per worker (results.c counts them), or with
 * write = 0 forget them (the batch is undone). */
static int worker_jobs_flush(mf_store *s, int write)
{
    int rc = 0;
    for (int i = 0; i < s->worker_jobs.n && write && rc == 0; i++) {
        const mf_store_worker_jobs *w = &s->worker_jobs.v[i];
        rc = mf_store_one(s, &q_worker_jobs, "counting a worker's jobs",
                          BIND(ARG_TEXT(w->id), ARG_INT(w->last),
                               ARG_INT(w->jobs)),
                          NULL);
    }
    s->worker_jobs.n = 0;
    return rc;
}

int mf_store_batch_end(mf_store *s, int commit)
{
    if (!s->batch)
        return 0;
    s->batch = 0;
    s->savepoints = 0;
    int rc = worker_jobs_flush(
        s, commit && !sqlite3_get_autocommit(s->db));
    if (rc < 0)
        commit = 0;
    if (!commit || sqlite3_get_autocommit(s->db)) {
        /* A failure SQLite answered with a rollback of its own leaves
         * nothing open: then nothing of the batch stays either way. */
        int open = !sqlite3_get_autocommit(s->db);
        if (open)
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        if (rc < 0)
            return rc;
        return commit ? mf_err_set(MF_ERROR, "store %s: the batch was "
                                             "rolled back by SQLite",
                                   s->path)
                      : 0;
    }
    rc = mf_store_one(s, &q_commit, "committing a batch", NULL, NULL);
    if (rc < 0)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* ---- opening and migrations --------------------------------------------- */

int64_t mf_store_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int mf_store_schema_latest(void)
{
    return mf_schema_count;
}

static int pragma_int(mf_store *s, const char *sql, int *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return mf_store_fail(s, rc, "reading the schema version");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int(st, 0);
    int ret = rc == SQLITE_ROW
                  ? 0
                  : mf_store_fail(s, rc, "reading the schema version");
    sqlite3_finalize(st);
    return ret;
}

static int exec_sql(mf_store *s, const char *sql, const char *what)
{
    char *err = NULL;
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, &err);
    if (rc == SQLITE_OK)
        return 0;
    int code = mf_err_set(code_of(rc), "store %s: %s: %s%s", s->path, what,
                          err ? err : sqlite3_errstr(rc), hint(rc));
    sqlite3_free(err);
    return code;
}

/* A file with tables but no mutfarm schema, or another application's id,
 * is not ours to migrate. */
static int check_foreign(mf_store *s, int version)
{
    int app = 0, tables = 0;
    int rc = pragma_int(s, "PRAGMA application_id", &app);
    if (rc < 0)
        return rc;
    if (app != 0 && app != MF_STORE_APP_ID)
        return mf_err_set(MF_EIO,
                          "store %s: not a mutfarm store (another "
                          "application's SQLite file)",
                          s->path);
    if (version > 0)
        return 0;
    rc = pragma_int(s, "SELECT count(*) FROM sqlite_master", &tables);
    if (rc < 0)
        return rc;
    if (tables > 0)
        return mf_err_set(MF_EIO,
                          "store %s: not a mutfarm store (a SQLite "
                          "file with other tables)",
                          s->path);
    return 0;
}

/* Apply migration v (1-based) in one transaction, rechecking the version
 * under the write lock in case another process migrated meanwhile. */
static int migrate_one(mf_store *s, int v)
{
    char what[160], pragma[96];
    int cur = 0;
    snprintf(what, sizeof what, "applying schema/%s", mf_schema_names[v - 1]);
    int rc = exec_sql(s, "BEGIN IMMEDIATE", what);
    if (rc < 0)
        return rc;
    rc = pragma_int(s, "PRAGMA user_version", &cur);
    if (rc == 0 && cur < v) {
        rc = exec_sql(s, mf_schema_sql[v - 1], what);
        snprintf(pragma, sizeof pragma,
                 "PRAGMA user_version = %d; PRAGMA application_id = %d", v,
                 MF_STORE_APP_ID);
        if (rc == 0)
            rc = exec_sql(s, pragma, what);
    }
    if (rc == 0)
        rc = exec_sql(s, "COMMIT", what);
    if (rc < 0)
        mf_store_tx_rollback(s);
    return rc;
}

static int migrate(mf_store *s)
{
    int version = 0;
    int rc = pragma_int(s, "PRAGMA user_version", &version);
    if (rc < 0)
        return rc;
    if (version > mf_schema_count)
        return mf_err_set(MF_EIO,
                          "store %s: written by a newer mutfarm "
                          "(schema %d; this one knows up to %d): use that "
                          "mutfarm, or another --db",
                          s->path, version, mf_schema_count);
    rc = check_foreign(s, version);
    if (rc < 0)
        return rc;
    if (s->readonly) {
        if (version < mf_schema_count)
            return mf_err_set(MF_ERROR,
                              "store %s: schema %d is older than "
                              "%d: run the coordinator on it once "
                              "to upgrade",
                              s->path, version, mf_schema_count);
        return 0;
    }
    /* Migration 007 rewrites CHECK constraints in sqlite_schema, which a
     * SQLite built defensive by default refuses: allowed while migrating
     * only, then set back. */
    int defensive = 0;
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
    if (version < mf_schema_count && defensive)
        sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 0, NULL);
    for (int v = version + 1; v <= mf_schema_count && rc == 0; v++)
        rc = migrate_one(s, v);
    if (defensive)
        sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    return rc;
}

static int configure(mf_store *s, unsigned busy_timeout_ms)
{
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(
        s->db,
        (int)(busy_timeout_ms > 0x7fffffff ? 0x7fffffff : busy_timeout_ms));
    int rc = exec_sql(s, "PRAGMA foreign_keys = ON", "configuring");
    if (rc < 0 || s->readonly)
        return rc;
    /* WAL: readers (mutfarm status) never block the coordinator; NORMAL
     * sync in WAL survives any process crash, which is what kill -9 needs. */
    sqlite3_stmt *st = NULL;
    int src =
        sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
    if (src == SQLITE_OK)
        src = sqlite3_step(st);
    if (src != SQLITE_ROW) {
        rc = mf_store_fail(s, src, "switching to WAL");
    } else if (sqlite3_stricmp((const char *)sqlite3_column_text(st, 0),
                               "wal") != 0) {
        rc = mf_err_set(MF_EIO,
                        "store %s: cannot use WAL mode on this file "
                        "system (journal mode stays '%s')",
                        s->path, sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    if (rc < 0)
        return rc;
    /* After planning a large campaign the WAL is as large as the plan;
     * let checkpoints shrink it back. */
    return exec_sql(s,
                    "PRAGMA synchronous = NORMAL; "
                    "PRAGMA journal_size_limit = 67108864",
                    "configuring");
}

int mf_store_process_init(void)
{
    /* The statistics cost a mutex and counter updates per allocation,
     * and the coordinator allocates on every statement (docs/cluster.md,
     * dispatch). */
    int rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (rc != SQLITE_OK)
        return mf_err_set(MF_ERROR, "configuring SQLite: %s",
                          sqlite3_errstr(rc));
    return 0;
}

int mf_store_open(mf_store **out, const char *path, int flags,
                  unsigned busy_timeout_ms)
{
    *out = NULL;
    if (mf_schema_count < 1)
        return mf_err_set(MF_ERROR, "store: this mutfarm was built without "
                                    "schema/*.sql");
    mf_store *s = mf_xcalloc(1, sizeof *s);
    s->path = mf_xstrdup(path);
    s->readonly = (flags & MF_STORE_READONLY) != 0;
    /* NOMUTEX: a handle is used by one thread (store.h), so SQLite's
     * per-call mutex is pure cost on the coordinator's hot path. */
    int oflags = SQLITE_OPEN_NOMUTEX |
                 (s->readonly ? SQLITE_OPEN_READONLY
                              : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    int rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
    if (rc != SQLITE_OK) {
        rc = mf_store_fail(s, rc, "cannot open");
        mf_store_close(s);
        return rc;
    }
    rc = configure(s, busy_timeout_ms);
    if (rc == 0)
        rc = migrate(s);
    if (rc < 0) {
        mf_store_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

void mf_store_close(mf_store *s)
{
    if (!s)
        return;
    if (s->db) {
        mf_store_tx_rollback(s);
        for (int i = 0; i < Q__COUNT; i++)
            sqlite3_finalize(s->st[i]);
        sqlite3_close(s->db);
    }
    MF_VEC_FREE(s->worker_jobs);
    free(s->path);
    free(s);
}

const char *mf_store_path(const mf_store *s)
{
    return s->path;
}

struct sqlite3 *mf_store_db(mf_store *s)
{
    return s->db;
}

int mf_store_schema_version(mf_store *s, int *out)
{
    return pragma_int(s, "PRAGMA user_version", out);
}

/* Run a check pragma: 0 if it returns no row or the single row "ok". */
static int check_pragma(mf_store *s, const char *sql, int fk)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return mf_store_fail(s, rc, "checking integrity");
    int ret = 0;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (fk)
            ret = mf_err_set(MF_ERROR,
                             "store %s: foreign key check: row %lld "
                             "of %s refers to a missing %s row",
                             s->path, (long long)sqlite3_column_int64(st, 1),
                             sqlite3_column_text(st, 0),
                             sqlite3_column_text(st, 2));
        else if (strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)
            ret = mf_err_set(MF_ERROR, "store %s: integrity check: %s", s->path,
                             sqlite3_column_text(st, 0));
    } else if (rc != SQLITE_DONE) {
        ret = mf_store_fail(s, rc, "checking integrity");
    }
    sqlite3_finalize(st);
    return ret;
}

int mf_store_integrity(mf_store *s)
{
    int rc = check_pragma(s, "PRAGMA integrity_check", 0);
    return rc < 0 ? rc : check_pragma(s, "PRAGMA foreign_key_check", 1);
}
