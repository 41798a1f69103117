/* store.c - the campaign store on SQLite (store.h, docs/schema.md).
 *
 * One connection, statements prepared once and cached in the mf_store,
 * every multi-statement write inside BEGIN IMMEDIATE ... COMMIT with a
 * rollback on any failure, so a failed call leaves the file as it was.
 * Nothing reads a whole campaign: jobs are cut from partial indexes of the
 * unplanned mutants, a job's mutants are streamed to a callback, counts are
 * index range counts. The schema itself is in schema/NNN_*.sql, compiled in by
 * CMake (mf_schema_sql); this file does not define tables. */
#include "store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Generated from schema/NNN_*.sql by CMakeLists.txt: migration i + 1. */
extern const int mf_schema_count;
extern const char *const mf_schema_sql[];
extern const char *const mf_schema_names[];

/* PRAGMA application_id of a mutfarm store: "mfrm". */
#define MF_STORE_APP_ID 0x6d66726d

/* Tests longer than this are refused as garbage, not stored. */
#define MF_STORE_MAX_TEST_LEN 100000

/* ---- the query cache ---------------------------------------------------- */

enum {
    Q_BEGIN,
    Q_BEGIN_READ,
    Q_COMMIT,
    Q_ROLLBACK,
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
    Q_MUT_INS,
    Q_MUT_LOOKUP,
    Q_JOB_PENDING,
    Q_JOB_GET,
    Q_JOB_CUT,
    Q_JOB_INS,
    Q_JOB_MOVE,
    Q_JOB_SET_NMUT,
    Q_UNPLANNED_FIRST,
    Q_UNPLANNED_TAKE,
    Q_JOB_MUTANTS,
    Q_JOB_LEASE,
    Q_JOB_EXTEND,
    Q_JOB_TO_PENDING,
    Q_JOB_QUAR,
    Q_QUAR_VERDICTS,
    Q_JOBS_EXPIRED,
    Q_JOBS_OF_WORKER,
    Q_TEST_INS,
    Q_TEST_ID,
    Q_VERDICT_INS,
    Q_KILL_INS,
    Q_JOB_DONE,
    Q_WORKER_JOB,
    Q_WORKER_UPSERT,
    Q_TEST_OF_MUTANT,
    Q_COUNT_STATUS,
    Q_COUNT_KIND,
    Q_COUNT_JOBS,
    Q_COUNT_UNPLANNED,
    Q_HISTORY_INS,
    Q__COUNT
};

static const char *const qsql[Q__COUNT] = {
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_BEGIN_READ] = "BEGIN",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
    [Q_MODEL_INS] = "INSERT INTO models(hash, name, text, created_at) "
                    "VALUES (?1, ?2, ?3, ?4) ON CONFLICT(hash) DO NOTHING",
    [Q_MODEL_ID] = "SELECT id FROM models WHERE hash = ?1",
    [Q_MODEL_GET] = "SELECT text, hash FROM models WHERE id = ?1",
    [Q_CAMP_FIND] = "SELECT id, state FROM campaigns WHERE model_id = ?1 "
                    "AND options = ?2 AND state <> 'done' "
                    "ORDER BY id DESC LIMIT 1",
    [Q_CAMP_INS] =
        "INSERT INTO campaigns(model_id, state, options, bound, notion, "
        "operators, mutfarm_version, z3_version, created_at, updated_at) "
        "VALUES (?1, 'planning', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
    [Q_CAMP_VERS] = "UPDATE campaigns SET "
                    "mutfarm_version = coalesce(mutfarm_version, ?2), "
                    "z3_version = coalesce(z3_version, ?3), updated_at = ?4 "
                    "WHERE id = ?1",
    [Q_CAMP_STATE] = "SELECT state FROM campaigns WHERE id = ?1",
    [Q_CAMP_SET_STATE] = "UPDATE campaigns SET state = ?2, updated_at = ?3, "
                         "finished_at = ?4 WHERE id = ?1",
    [Q_CAMP_GET] =
        "SELECT c.id, c.model_id, c.state, md.name, md.hash, c.options, "
        "coalesce(c.mutfarm_version, ''), coalesce(c.z3_version, ''), "
        "c.created_at, coalesce(c.finished_at, 0) FROM campaigns c "
        "JOIN models md ON md.id = c.model_id WHERE c.id = ?1",
    [Q_CAMP_LATEST] = "SELECT max(id) FROM campaigns",
    [Q_CAMP_REQUEUE] =
        "UPDATE jobs SET state = 'pending', worker_id = NULL, "
        "lease_deadline = NULL, last_error = 'coordinator restarted' "
        "WHERE campaign_id = ?1 AND state = 'leased'",
    [Q_MUT_INS] =
        "INSERT INTO mutants(campaign_id, mutant_id, operator, item, site, "
        "line, col, description, status, dup_of, why) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [Q_MUT_LOOKUP] = "SELECT id, job_id FROM mutants "
                     "WHERE campaign_id = ?1 AND mutant_id = ?2",
    [Q_JOB_PENDING] = "SELECT id FROM jobs WHERE campaign_id = ?1 "
                      "AND state = 'pending' ORDER BY id LIMIT 1",
    [Q_JOB_GET] = "SELECT id, campaign_id, state, attempts, nmut, item, "
                  "coalesce(lease_deadline, 0), coalesce(worker_id, '') "
                  "FROM jobs WHERE id = ?1",
    [Q_JOB_CUT] = "SELECT id FROM mutants WHERE job_id = ?1 "
                  "ORDER BY id LIMIT 1 OFFSET ?2",
    [Q_JOB_INS] = "INSERT INTO jobs(campaign_id, item, nmut, state, "
                  "attempts, created_at) VALUES (?1, ?2, ?3, 'pending', 0, ?4)",
    [Q_JOB_MOVE] = "UPDATE mutants SET job_id = ?2 "
                   "WHERE job_id = ?1 AND id >= ?3",
    [Q_JOB_SET_NMUT] = "UPDATE jobs SET nmut = ?2 WHERE id = ?1",
    /* INDEXED BY: without ANALYZE statistics the planner prefers
     * mutants_by_status and would scan every planned mutant per job. */
    [Q_UNPLANNED_FIRST] = "SELECT id, item FROM mutants "
                          "INDEXED BY mutants_unplanned WHERE campaign_id = ?1 "
                          "AND job_id IS NULL AND status = 'ok' "
                          "ORDER BY id LIMIT 1",
    [Q_UNPLANNED_TAKE] =
        "UPDATE mutants SET job_id = ?1 WHERE id IN (SELECT id FROM mutants "
        "INDEXED BY mutants_unplanned_item "
        "WHERE campaign_id = ?2 AND item = ?3 AND job_id IS NULL "
        "AND status = 'ok' ORDER BY id LIMIT ?4)",
    [Q_JOB_MUTANTS] = "SELECT mutant_id, operator, site, item, line, col "
                      "FROM mutants WHERE job_id = ?1 ORDER BY id",
    [Q_JOB_LEASE] = "UPDATE jobs SET state = 'leased', "
                    "attempts = attempts + 1, "
                    "worker_id = ?2, lease_deadline = ?3, leased_at = ?4 "
                    "WHERE id = ?1 AND state = 'pending'",
    [Q_JOB_EXTEND] = "UPDATE jobs SET lease_deadline = ?3 WHERE id = ?1 "
                     "AND state = 'leased' AND attempts = ?2",
    [Q_JOB_TO_PENDING] = "UPDATE jobs SET state = 'pending', worker_id = NULL, "
                         "lease_deadline = NULL, last_error = ?2 WHERE id = ?1",
    [Q_JOB_QUAR] = "UPDATE jobs SET state = 'quarantined', worker_id = NULL, "
                   "lease_deadline = NULL, last_error = ?2, finished_at = ?3 "
                   "WHERE id = ?1",
    [Q_QUAR_VERDICTS] =
        "INSERT INTO verdicts(mutant, campaign_id, job_id, attempt, kind, "
        "reason, created_at) SELECT id, campaign_id, job_id, ?2, 'error', ?3, "
        "?4 FROM mutants WHERE job_id = ?1 ON CONFLICT(mutant) DO NOTHING",
    [Q_JOBS_EXPIRED] = "SELECT id, attempts FROM jobs WHERE campaign_id = ?1 "
                       "AND state = 'leased' AND lease_deadline < ?2 "
                       "ORDER BY id LIMIT 1",
    [Q_JOBS_OF_WORKER] = "SELECT id, attempts FROM jobs WHERE campaign_id = ?1 "
                         "AND state = 'leased' AND worker_id = ?2 "
                         "ORDER BY id LIMIT 1",
    [Q_TEST_INS] =
        "INSERT INTO tests(campaign_id, hash, length, notion, inputs, "
        "expected, allowed, text, found_for, created_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
        "ON CONFLICT(campaign_id, hash) DO NOTHING",
    [Q_TEST_ID] = "SELECT id FROM tests WHERE campaign_id = ?1 AND hash = ?2",
    [Q_VERDICT_INS] =
        "INSERT INTO verdicts(mutant, campaign_id, job_id, attempt, kind, "
        "notion, bound, method, reason, test_id, solver_ms, worker_id, "
        "created_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    [Q_KILL_INS] = "INSERT INTO kills(test_id, mutant, campaign_id, source, "
                   "observed) VALUES (?1, ?2, ?3, ?4, ?5) "
                   "ON CONFLICT DO NOTHING",
    [Q_JOB_DONE] = "UPDATE jobs SET state = 'done', worker_id = ?2, "
                   "lease_deadline = NULL, finished_at = ?3 WHERE id = ?1",
    [Q_WORKER_JOB] = "UPDATE workers SET jobs_done = jobs_done + 1, "
                     "last_seen = ?2 WHERE id = ?1",
    [Q_WORKER_UPSERT] =
        "INSERT INTO workers(id, host, threads, mutfarm_version, z3_version, "
        "first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) "
        "ON CONFLICT(id) DO UPDATE SET host = excluded.host, "
        "threads = excluded.threads, "
        "mutfarm_version = excluded.mutfarm_version, "
        "z3_version = excluded.z3_version, last_seen = excluded.last_seen",
    [Q_TEST_OF_MUTANT] =
        "SELECT t.id, t.length, t.notion, t.inputs, t.expected, t.allowed "
        "FROM mutants m JOIN verdicts v ON v.mutant = m.id "
        "JOIN tests t ON t.id = v.test_id "
        "WHERE m.campaign_id = ?1 AND m.mutant_id = ?2",
    [Q_COUNT_STATUS] = "SELECT status, count(*) FROM mutants "
                       "WHERE campaign_id = ?1 GROUP BY status",
    [Q_COUNT_KIND] = "SELECT kind, count(*) FROM verdicts "
                     "WHERE campaign_id = ?1 GROUP BY kind",
    [Q_COUNT_JOBS] = "SELECT state, count(*) FROM jobs "
                     "WHERE campaign_id = ?1 GROUP BY state",
    [Q_COUNT_UNPLANNED] = "SELECT count(*) FROM mutants "
                          "INDEXED BY mutants_unplanned WHERE campaign_id = ?1 "
                          "AND job_id IS NULL AND status = 'ok'",
    [Q_HISTORY_INS] =
        "INSERT INTO score_history(campaign_id, model_id, at, total, killed, "
        "equivalent, survived, unknown, error, score) "
        "SELECT id, model_id, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 "
        "FROM campaigns WHERE id = ?1",
};

struct mf_store {
    sqlite3 *db;
    char *path;
    int readonly;
    int planning; /* inside plan_begin .. plan_end */
    int64_t plan_campaign;
    sqlite3_stmt *st[Q__COUNT]; /* prepared on first use */
};

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

/* Record a SQLite failure of `what` and return its MF_E* code. */
static int fail(mf_store *s, int rc, const char *what)
{
    const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    return mf_err_set(code_of(rc), "store %s: %s: %s%s", s->path, what, msg,
                      hint(rc));
}

/* ---- statements --------------------------------------------------------- */

/* The cached statement for query q, reset and unbound. */
static int stmt(mf_store *s, int q, sqlite3_stmt **out)
{
    *out = NULL;
    if (!s->st[q]) {
        int rc = sqlite3_prepare_v3(s->db, qsql[q], -1,
                                    SQLITE_PREPARE_PERSISTENT, &s->st[q], NULL);
        if (rc != SQLITE_OK)
            return fail(s, rc, "preparing a query");
    }
    sqlite3_reset(s->st[q]);
    sqlite3_clear_bindings(s->st[q]);
    *out = s->st[q];
    return 0;
}

/* Step a statement that returns no row, then reset it. */
static int run(mf_store *s, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    int ret = rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : fail(s, rc, what);
    sqlite3_reset(st);
    return ret;
}

/* Step once: 1 with a row to read (the caller resets), 0 at the end (reset
 * done), or a negative code. */
static int row(mf_store *s, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        return 1;
    int ret = rc == SQLITE_DONE ? 0 : fail(s, rc, what);
    sqlite3_reset(st);
    return ret;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

/* Text of at most `max` bytes (fixed-size fields that may lack a NUL). */
static void bind_textn(sqlite3_stmt *st, int i, const char *v, size_t max)
{
    sqlite3_bind_text(st, i, v, (int)strnlen(v, max), SQLITE_TRANSIENT);
}

static void col_copy(char *dst, size_t size, sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

/* Run a query by id with one integer parameter and no result. */
static int exec1(mf_store *s, int q, int64_t a, const char *what)
{
    sqlite3_stmt *st;
    int rc = stmt(s, q, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, a);
    return run(s, st, what);
}

/* ---- transactions ------------------------------------------------------- */

/* Writes outside the plan's transaction would join it: refuse them. */
static int not_planning(mf_store *s)
{
    if (s->planning)
        return mf_err_set(MF_ERROR,
                          "store %s: a plan is open: finish it "
                          "with mf_store_plan_end first",
                          s->path);
    return 0;
}

static int tx_begin(mf_store *s, int write)
{
    sqlite3_stmt *st;
    int rc = not_planning(s);
    if (rc == 0)
        rc = stmt(s, write ? Q_BEGIN : Q_BEGIN_READ, &st);
    return rc < 0 ? rc : run(s, st, "starting a transaction");
}

static int tx_commit(mf_store *s)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_COMMIT, &st);
    return rc < 0 ? rc : run(s, st, "committing");
}

/* Undo the open transaction, if any; keeps the message of the failure that
 * led here. */
static void tx_rollback(mf_store *s)
{
    if (sqlite3_get_autocommit(s->db))
        return;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Commit on success, roll back on failure; returns rc or the commit's
 * failure. */
static int tx_end(mf_store *s, int rc)
{
    if (rc >= 0) {
        int c = tx_commit(s);
        if (c < 0) {
            tx_rollback(s);
            return c;
        }
        return rc;
    }
    tx_rollback(s);
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
        return fail(s, rc, "reading the schema version");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int(st, 0);
    int ret = rc == SQLITE_ROW ? 0 : fail(s, rc, "reading the schema version");
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
        tx_rollback(s);
    return rc;
}

static int migrate(mf_store *s)
{
    int version = 0;
    int rc = pragma_int(s, "PRAGMA user_version", &version);
    if (rc < 0)
        return rc;
    if (version > mf_schema_count)
        return mf_err_set(MF_ERROR,
                          "store %s: written by a newer mutfarm "
                          "(schema %d; this one knows up to %d)",
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
    for (int v = version + 1; v <= mf_schema_count && rc == 0; v++)
        rc = migrate_one(s, v);
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
        rc = fail(s, src, "switching to WAL");
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
    int oflags = s->readonly ? SQLITE_OPEN_READONLY
                             : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
    if (rc != SQLITE_OK) {
        rc = fail(s, rc, "cannot open");
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
        tx_rollback(s);
        for (int i = 0; i < Q__COUNT; i++)
            sqlite3_finalize(s->st[i]);
        sqlite3_close(s->db);
    }
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
        return fail(s, rc, "checking integrity");
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
        ret = fail(s, rc, "checking integrity");
    }
    sqlite3_finalize(st);
    return ret;
}

int mf_store_integrity(mf_store *s)
{
    int rc = check_pragma(s, "PRAGMA integrity_check", 0);
    return rc < 0 ? rc : check_pragma(s, "PRAGMA foreign_key_check", 1);
}

/* ---- models ------------------------------------------------------------- */

/* The id of the model with `hash`; 0 if none, or a negative code. */
static int model_id(mf_store *s, const char *hash, int64_t *id)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_MODEL_ID, &st);
    if (rc < 0)
        return rc;
    bind_text(st, 1, hash);
    rc = row(s, st, "finding a model");
    if (rc == 1) {
        *id = sqlite3_column_int64(st, 0);
        sqlite3_reset(st);
    }
    return rc;
}

int mf_store_model_put(mf_store *s, int64_t *out_id, const char *hash,
                       const char *name, const char *text, size_t len)
{
    sqlite3_stmt *st;
    *out_id = 0;
    if (len > 0x7fffffff)
        return mf_err_set(MF_ELIMIT, "store %s: model text too large", s->path);
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = stmt(s, Q_MODEL_INS, &st);
    if (rc == 0) {
        bind_text(st, 1, hash);
        bind_text(st, 2, name);
        sqlite3_bind_text(st, 3, text, (int)len, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, mf_store_now_ms());
        rc = run(s, st, "storing the model");
    }
    if (rc == 0) {
        rc = model_id(s, hash, out_id);
        if (rc == 0)
            rc = mf_err_set(MF_ERROR, "store %s: model %s vanished", s->path,
                            hash);
        else if (rc == 1)
            rc = 0;
    }
    return tx_end(s, rc);
}

int mf_store_model_get(mf_store *s, int64_t model, char **text, size_t *len,
                       char hash[65])
{
    sqlite3_stmt *st;
    *text = NULL;
    *len = 0;
    int rc = stmt(s, Q_MODEL_GET, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, model);
    rc = row(s, st, "reading a model");
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no model %lld", s->path,
                          (long long)model);
    if (rc < 0)
        return rc;
    size_t n = (size_t)sqlite3_column_bytes(st, 0);
    *text = mf_xmalloc(n + 1);
    memcpy(*text, sqlite3_column_text(st, 0), n);
    (*text)[n] = '\0';
    *len = n;
    col_copy(hash, 65, st, 1);
    sqlite3_reset(st);
    return 0;
}

/* ---- campaigns ---------------------------------------------------------- */

static void json_str(mf_buf *b, const char *s)
{
    mf_buf_puts(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            mf_buf_printf(b, "\\%c", c);
        else if (c < 0x20)
            mf_buf_printf(b, "\\u%04x", c);
        else
            mf_buf_put(b, s, 1);
    }
    mf_buf_puts(b, "\"");
}

static mf_campaign_state state_of(const unsigned char *t)
{
    if (t && !strcmp((const char *)t, "done"))
        return MF_CAMPAIGN_DONE;
    if (t && !strcmp((const char *)t, "running"))
        return MF_CAMPAIGN_RUNNING;
    return MF_CAMPAIGN_PLANNING;
}

static int requeue_locked(mf_store *s, int64_t campaign, int *n)
{
    int rc = exec1(s, Q_CAMP_REQUEUE, campaign, "requeueing leased jobs");
    if (rc == 0 && n)
        *n = sqlite3_changes(s->db);
    return rc;
}

/* Find an unfinished campaign with these options: 1 and *out, 0, or < 0. */
static int campaign_find(mf_store *s, mf_store_campaign *out, int64_t model,
                         const char *options)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_CAMP_FIND, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, model);
    bind_text(st, 2, options);
    rc = row(s, st, "finding a campaign");
    if (rc == 1) {
        out->id = sqlite3_column_int64(st, 0);
        out->state = state_of(sqlite3_column_text(st, 1));
        out->resumed = 1;
        sqlite3_reset(st);
    }
    return rc;
}

static int campaign_create(mf_store *s, mf_store_campaign *out, int64_t model,
                           const mf_store_campaign_key *key, const char *mfv,
                           const char *z3v)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_CAMP_INS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, model);
    bind_text(st, 2, key->options);
    sqlite3_bind_int(st, 3, key->bound);
    bind_text(st, 4, key->notion);
    bind_text(st, 5, key->operators);
    bind_text(st, 6, mfv);
    bind_text(st, 7, z3v);
    sqlite3_bind_int64(st, 8, mf_store_now_ms());
    rc = run(s, st, "creating a campaign");
    if (rc == 0) {
        out->id = sqlite3_last_insert_rowid(s->db);
        out->state = MF_CAMPAIGN_PLANNING;
    }
    return rc;
}

static int set_versions(mf_store *s, int64_t campaign, const char *mfv,
                        const char *z3v)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_CAMP_VERS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    bind_text(st, 2, mfv);
    bind_text(st, 3, z3v);
    sqlite3_bind_int64(st, 4, mf_store_now_ms());
    return run(s, st, "recording versions");
}

int mf_store_campaign_open(mf_store *s, mf_store_campaign *out,
                           int64_t model_id, const mf_store_campaign_key *key,
                           const char *mutfarm_version, const char *z3_version)
{
    memset(out, 0, sizeof *out);
    out->model_id = model_id;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = campaign_find(s, out, model_id, key->options);
    if (rc == 1) {
        rc = requeue_locked(s, out->id, &out->requeued);
        if (rc == 0)
            rc = set_versions(s, out->id, mutfarm_version, z3_version);
    } else if (rc == 0) {
        rc = campaign_create(s, out, model_id, key, mutfarm_version,
                             z3_version);
    }
    rc = tx_end(s, rc);
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        out->model_id = model_id;
    }
    return rc;
}

int mf_store_campaign_versions(mf_store *s, int64_t campaign,
                               const char *mutfarm_version,
                               const char *z3_version)
{
    if (s->planning)
        return not_planning(s);
    return set_versions(s, campaign, mutfarm_version, z3_version);
}

int mf_store_campaign_requeue(mf_store *s, int64_t campaign, int *n)
{
    if (n)
        *n = 0;
    if (s->planning)
        return not_planning(s);
    return requeue_locked(s, campaign, n);
}

/* The campaign's state: 1 and *state, 0 if absent, or < 0. */
static int campaign_state(mf_store *s, int64_t campaign,
                          mf_campaign_state *state)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_CAMP_STATE, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    rc = row(s, st, "reading a campaign");
    if (rc == 1) {
        *state = state_of(sqlite3_column_text(st, 0));
        sqlite3_reset(st);
    }
    return rc;
}

static int set_state(mf_store *s, int64_t campaign, const char *state,
                     int64_t finished)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_CAMP_SET_STATE, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    bind_text(st, 2, state);
    sqlite3_bind_int64(st, 3, mf_store_now_ms());
    if (finished)
        sqlite3_bind_int64(st, 4, finished);
    else
        sqlite3_bind_null(st, 4);
    return run(s, st, "updating a campaign");
}

static int counts_locked(mf_store *s, mf_store_counts *out, int64_t campaign);

static int history_add(mf_store *s, int64_t campaign, const mf_store_counts *c,
                       int64_t now)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_HISTORY_INS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    sqlite3_bind_int64(st, 2, now);
    sqlite3_bind_int64(st, 3, c->total);
    sqlite3_bind_int64(st, 4, c->killed);
    sqlite3_bind_int64(st, 5, c->equivalent);
    sqlite3_bind_int64(st, 6, c->survived);
    sqlite3_bind_int64(st, 7, c->unknown);
    sqlite3_bind_int64(st, 8, c->error);
    if (c->score >= 0)
        sqlite3_bind_double(st, 9, c->score);
    else
        sqlite3_bind_null(st, 9);
    return run(s, st, "recording the score");
}

int mf_store_campaign_finish(mf_store *s, int64_t campaign)
{
    mf_campaign_state state = MF_CAMPAIGN_PLANNING;
    mf_store_counts c;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = campaign_state(s, campaign, &state);
    if (rc == 0)
        rc = mf_err_set(MF_ENOTFOUND, "store %s: no campaign %lld", s->path,
                        (long long)campaign);
    if (rc < 0 || state == MF_CAMPAIGN_DONE)
        return tx_end(s, rc < 0 ? rc : 0);
    rc = counts_locked(s, &c, campaign);
    if (rc == 0 && (state == MF_CAMPAIGN_PLANNING || c.pending > 0))
        rc = mf_err_set(MF_ERROR,
                        "store %s: campaign %lld is not complete "
                        "(%lld of %lld mutants without a verdict)",
                        s->path, (long long)campaign, (long long)c.pending,
                        (long long)c.total);
    int64_t now = mf_store_now_ms();
    if (rc == 0)
        rc = set_state(s, campaign, "done", now);
    if (rc == 0)
        rc = history_add(s, campaign, &c, now);
    return tx_end(s, rc);
}

int mf_store_campaign_get(mf_store *s, mf_store_campaign_info *out,
                          int64_t campaign)
{
    sqlite3_stmt *st;
    memset(out, 0, sizeof *out);
    int rc = stmt(s, Q_CAMP_GET, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    rc = row(s, st, "reading a campaign");
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no campaign %lld", s->path,
                          (long long)campaign);
    if (rc < 0)
        return rc;
    out->id = sqlite3_column_int64(st, 0);
    out->model_id = sqlite3_column_int64(st, 1);
    out->state = state_of(sqlite3_column_text(st, 2));
    col_copy(out->model, sizeof out->model, st, 3);
    col_copy(out->model_hash, sizeof out->model_hash, st, 4);
    col_copy(out->options, sizeof out->options, st, 5);
    col_copy(out->mutfarm_version, sizeof out->mutfarm_version, st, 6);
    col_copy(out->z3_version, sizeof out->z3_version, st, 7);
    out->created_ms = sqlite3_column_int64(st, 8);
    out->finished_ms = sqlite3_column_int64(st, 9);
    sqlite3_reset(st);
    return 0;
}

int mf_store_campaign_latest(mf_store *s, int64_t *out)
{
    sqlite3_stmt *st;
    *out = 0;
    int rc = stmt(s, Q_CAMP_LATEST, &st);
    if (rc < 0)
        return rc;
    rc = row(s, st, "finding the newest campaign");
    if (rc < 0)
        return rc;
    if (rc == 1) {
        *out = sqlite3_column_int64(st, 0);
        sqlite3_reset(st);
    }
    if (*out == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no campaign yet", s->path);
    return 0;
}

/* ---- planning ----------------------------------------------------------- */

int mf_store_plan_begin(mf_store *s, int64_t campaign)
{
    mf_campaign_state state = MF_CAMPAIGN_PLANNING;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = campaign_state(s, campaign, &state);
    if (rc == 0)
        rc = mf_err_set(MF_ENOTFOUND, "store %s: no campaign %lld", s->path,
                        (long long)campaign);
    else if (rc == 1 && state != MF_CAMPAIGN_PLANNING)
        rc = mf_err_set(MF_ERROR,
                        "store %s: campaign %lld is already "
                        "planned",
                        s->path, (long long)campaign);
    if (rc < 0) {
        tx_rollback(s);
        return rc;
    }
    s->planning = 1;
    s->plan_campaign = campaign;
    return 0;
}

static const char *mut_status_name(mf_mut_status st)
{
    switch (st) {
    case MF_MUT_OK:
        return "ok";
    case MF_MUT_DUPLICATE:
        return "duplicate";
    default:
        return "stillborn";
    }
}

int mf_store_plan_add(mf_store *s, const mf_mutant *mu)
{
    sqlite3_stmt *st;
    if (!s->planning)
        return mf_err_set(MF_ERROR,
                          "store %s: mf_store_plan_add outside a "
                          "plan",
                          s->path);
    int rc = stmt(s, Q_MUT_INS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, s->plan_campaign);
    bind_text(st, 2, mu->id);
    bind_text(st, 3, mf_mop_name(mu->op));
    sqlite3_bind_int(st, 4, mu->item);
    bind_text(st, 5, mu->site ? mu->site : "");
    sqlite3_bind_int(st, 6, mu->line);
    sqlite3_bind_int(st, 7, mu->col);
    bind_text(st, 8, mu->desc ? mu->desc : "");
    bind_text(st, 9, mut_status_name(mu->status));
    bind_text(st, 10, mu->status == MF_MUT_DUPLICATE ? mu->dup_of : NULL);
    bind_text(st, 11, mu->status == MF_MUT_STILLBORN ? mu->why : NULL);
    rc = sqlite3_step(st);
    int ret = 0;
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        ret = mf_err_set(MF_ERROR,
                         "store %s: mutant %s appears twice in "
                         "campaign %lld",
                         s->path, mu->id, (long long)s->plan_campaign);
    else if (rc != SQLITE_DONE)
        ret = fail(s, rc, "storing a mutant");
    sqlite3_reset(st);
    return ret;
}

int mf_store_plan_end(mf_store *s, int commit)
{
    if (!s->planning)
        return mf_err_set(MF_ERROR,
                          "store %s: mf_store_plan_end without a "
                          "plan",
                          s->path);
    s->planning = 0;
    if (!commit) {
        tx_rollback(s);
        return 0;
    }
    int rc = set_state(s, s->plan_campaign, "running", 0);
    return tx_end(s, rc);
}

/* ---- jobs --------------------------------------------------------------- */

static mf_job_state job_state_of(const unsigned char *t)
{
    if (!t)
        return MF_JOB_PENDING;
    if (!strcmp((const char *)t, "leased"))
        return MF_JOB_LEASED;
    if (!strcmp((const char *)t, "done"))
        return MF_JOB_DONE;
    if (!strcmp((const char *)t, "quarantined"))
        return MF_JOB_QUARANTINED;
    return MF_JOB_PENDING;
}

/* Read one job: 1 and *out, 0 if absent, or < 0. */
static int job_read(mf_store *s, mf_store_job *out, int64_t job)
{
    sqlite3_stmt *st;
    memset(out, 0, sizeof *out);
    int rc = stmt(s, Q_JOB_GET, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, job);
    rc = row(s, st, "reading a job");
    if (rc != 1)
        return rc;
    out->id = sqlite3_column_int64(st, 0);
    out->campaign_id = sqlite3_column_int64(st, 1);
    out->state = job_state_of(sqlite3_column_text(st, 2));
    out->attempts = sqlite3_column_int(st, 3);
    out->nmut = sqlite3_column_int(st, 4);
    out->item = sqlite3_column_int(st, 5);
    out->deadline_ms = sqlite3_column_int64(st, 6);
    col_copy(out->worker, sizeof out->worker, st, 7);
    sqlite3_reset(st);
    return 1;
}

int mf_store_job_get(mf_store *s, mf_store_job *out, int64_t job)
{
    int rc = job_read(s, out, job);
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no job %lld", s->path,
                          (long long)job);
    return rc < 0 ? rc : 0;
}

/* A single integer from a query with up to two integer parameters:
 * 1 and *v, 0 for no row, or < 0. */
static int query_int(mf_store *s, int q, int64_t a, int64_t b, int nparam,
                     int64_t *v, const char *what)
{
    sqlite3_stmt *st;
    int rc = stmt(s, q, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, a);
    if (nparam > 1)
        sqlite3_bind_int64(st, 2, b);
    rc = row(s, st, what);
    if (rc == 1) {
        *v = sqlite3_column_int64(st, 0);
        sqlite3_reset(st);
    }
    return rc;
}

static int job_insert(mf_store *s, int64_t campaign, int item, int nmut,
                      int64_t *id)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_JOB_INS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    sqlite3_bind_int(st, 2, item);
    sqlite3_bind_int(st, 3, nmut);
    sqlite3_bind_int64(st, 4, mf_store_now_ms());
    rc = run(s, st, "creating a job");
    if (rc == 0)
        *id = sqlite3_last_insert_rowid(s->db);
    return rc;
}

static int job_set_nmut(mf_store *s, int64_t job, int nmut)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_JOB_SET_NMUT, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, job);
    sqlite3_bind_int(st, 2, nmut);
    return run(s, st, "sizing a job");
}

/* Keep the first `max` mutants of a pending job; the rest become a new
 * pending job (the tail of a campaign is cut finer than its start). */
static int job_split(mf_store *s, const mf_store_job *j, int max)
{
    int64_t cut = 0, fresh = 0;
    int rc = query_int(s, Q_JOB_CUT, j->id, max, 2, &cut, "splitting a job");
    if (rc <= 0)
        return rc;
    rc = job_insert(s, j->campaign_id, j->item, j->nmut - max, &fresh);
    if (rc < 0)
        return rc;
    sqlite3_stmt *st;
    rc = stmt(s, Q_JOB_MOVE, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, j->id);
    sqlite3_bind_int64(st, 2, fresh);
    sqlite3_bind_int64(st, 3, cut);
    rc = run(s, st, "splitting a job");
    return rc < 0 ? rc : job_set_nmut(s, j->id, max);
}

/* Cut a new job from the oldest unplanned mutant and more of its item:
 * 1 and *job, 0 if no mutant is left unplanned, or < 0. */
static int job_cut(mf_store *s, int64_t campaign, int max, int64_t *job)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_UNPLANNED_FIRST, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    rc = row(s, st, "finding unplanned mutants");
    if (rc != 1)
        return rc;
    int item = sqlite3_column_int(st, 1);
    sqlite3_reset(st);
    rc = job_insert(s, campaign, item, 0, job);
    if (rc == 0)
        rc = stmt(s, Q_UNPLANNED_TAKE, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, *job);
    sqlite3_bind_int64(st, 2, campaign);
    sqlite3_bind_int(st, 3, item);
    sqlite3_bind_int(st, 4, max);
    rc = run(s, st, "cutting a job");
    if (rc < 0)
        return rc;
    rc = job_set_nmut(s, *job, sqlite3_changes(s->db));
    return rc < 0 ? rc : 1;
}

static int job_next_locked(mf_store *s, mf_store_job *out, int64_t campaign,
                           int max)
{
    int64_t job = 0;
    int rc = query_int(s, Q_JOB_PENDING, campaign, 0, 1, &job,
                       "finding a pending job");
    if (rc == 1) {
        rc = job_read(s, out, job);
        if (rc == 1 && out->nmut > max) {
            rc = job_split(s, out, max);
            if (rc >= 0)
                rc = job_read(s, out, job);
        }
        return rc < 0 ? rc : 0;
    }
    if (rc == 0)
        rc = job_cut(s, campaign, max, &job);
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND,
                          "store %s: campaign %lld has no job "
                          "to hand out",
                          s->path, (long long)campaign);
    if (rc == 1)
        rc = job_read(s, out, job);
    return rc < 0 ? rc : 0;
}

int mf_store_job_next(mf_store *s, mf_store_job *out, int64_t campaign,
                      int max_mutants)
{
    memset(out, 0, sizeof *out);
    if (max_mutants < 1)
        max_mutants = 1;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = job_next_locked(s, out, campaign, max_mutants);
    if (rc == MF_ENOTFOUND) {
        tx_rollback(s); /* nothing was written */
        return rc;
    }
    return tx_end(s, rc);
}

int mf_store_job_mutants(mf_store *s, int64_t job, mf_store_mutant_fn fn,
                         void *ctx)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_JOB_MUTANTS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, job);
    while ((rc = row(s, st, "reading a job's mutants")) == 1) {
        mf_store_mutant m = {
            (const char *)sqlite3_column_text(st, 0),
            (const char *)sqlite3_column_text(st, 1),
            (const char *)sqlite3_column_text(st, 2),
            sqlite3_column_int(st, 3),
            sqlite3_column_int(st, 4),
            sqlite3_column_int(st, 5),
        };
        int stop = fn(&m, ctx);
        if (stop) {
            sqlite3_reset(st);
            return stop;
        }
    }
    return rc;
}

/* Lease a pending job inside the caller's transaction; *out is the job
 * after the lease. */
static int lease_locked(mf_store *s, mf_store_job *out, int64_t job,
                        const char *worker, int64_t deadline_ms)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_JOB_LEASE, &st);
    if (rc == 0) {
        sqlite3_bind_int64(st, 1, job);
        bind_text(st, 2, worker);
        sqlite3_bind_int64(st, 3, deadline_ms);
        sqlite3_bind_int64(st, 4, mf_store_now_ms());
        rc = run(s, st, "leasing a job");
    }
    int changed = rc == 0 ? sqlite3_changes(s->db) : 0;
    if (rc == 0)
        rc = job_read(s, out, job);
    if (rc == 0)
        rc = mf_err_set(MF_ENOTFOUND, "store %s: no job %lld", s->path,
                        (long long)job);
    else if (rc == 1 && !changed)
        rc = mf_err_set(MF_ERROR, "store %s: job %lld is not pending", s->path,
                        (long long)job);
    return rc < 0 ? rc : 0;
}

int mf_store_job_lease(mf_store *s, mf_store_job *out, int64_t job,
                       const char *worker, int64_t deadline_ms)
{
    mf_store_job j;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = tx_end(s, lease_locked(s, &j, job, worker, deadline_ms));
    if (rc == 0 && out)
        *out = j;
    return rc;
}

int mf_store_job_take(mf_store *s, mf_store_job *out, int64_t campaign,
                      int max_mutants, const char *worker, int64_t deadline_ms)
{
    mf_store_job j;
    memset(out, 0, sizeof *out);
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = job_next_locked(s, &j, campaign, max_mutants < 1 ? 1 : max_mutants);
    if (rc == MF_ENOTFOUND) {
        tx_rollback(s);
        return rc;
    }
    if (rc == 0)
        rc = lease_locked(s, &j, j.id, worker, deadline_ms);
    rc = tx_end(s, rc);
    if (rc == 0)
        *out = j;
    return rc;
}

int mf_store_job_extend(mf_store *s, int64_t job, int attempt,
                        int64_t deadline_ms)
{
    sqlite3_stmt *st;
    if (s->planning)
        return not_planning(s);
    int rc = stmt(s, Q_JOB_EXTEND, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, job);
    sqlite3_bind_int(st, 2, attempt);
    sqlite3_bind_int64(st, 3, deadline_ms);
    return run(s, st, "extending a lease");
}

static int quarantine_locked(mf_store *s, int64_t job, int attempt,
                             const char *reason)
{
    sqlite3_stmt *st;
    int64_t now = mf_store_now_ms();
    int rc = stmt(s, Q_JOB_QUAR, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, job);
    bind_text(st, 2, reason);
    sqlite3_bind_int64(st, 3, now);
    rc = run(s, st, "quarantining a job");
    if (rc == 0)
        rc = stmt(s, Q_QUAR_VERDICTS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, job);
    sqlite3_bind_int(st, 2, attempt);
    bind_text(st, 3, reason);
    sqlite3_bind_int64(st, 4, now);
    return run(s, st, "recording quarantine verdicts");
}

/* Take back the lease of (job, attempt): pending, or quarantined when the
 * attempts are used up. Adds to *requeued / *quarantined. */
static int release_locked(mf_store *s, int64_t job, int attempt,
                          int max_attempts, const char *reason, int *requeued,
                          int *quarantined)
{
    mf_store_job j;
    int rc = job_read(s, &j, job);
    if (rc <= 0 || j.state != MF_JOB_LEASED || j.attempts != attempt)
        return rc < 0 ? rc : 0;
    if (j.attempts >= max_attempts) {
        char why[600];
        snprintf(why, sizeof why, "quarantined after %d attempts: %s",
                 j.attempts, reason ? reason : "no result");
        rc = quarantine_locked(s, job, j.attempts, why);
        if (rc == 0 && quarantined)
            (*quarantined)++;
        return rc;
    }
    sqlite3_stmt *st;
    rc = stmt(s, Q_JOB_TO_PENDING, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, job);
    bind_text(st, 2, reason);
    rc = run(s, st, "requeueing a job");
    if (rc == 0 && requeued)
        (*requeued)++;
    return rc;
}

int mf_store_job_release(mf_store *s, int64_t job, int attempt,
                         int max_attempts, const char *reason, int *quarantined)
{
    int q = 0;
    if (quarantined)
        *quarantined = 0;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = tx_end(
        s, release_locked(s, job, attempt, max_attempts, reason, NULL, &q));
    if (rc == 0 && quarantined)
        *quarantined = q;
    return rc;
}

int mf_store_job_quarantine(mf_store *s, int64_t job, const char *reason)
{
    mf_store_job j;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = job_read(s, &j, job);
    if (rc == 0)
        rc = mf_err_set(MF_ENOTFOUND, "store %s: no job %lld", s->path,
                        (long long)job);
    else if (rc == 1)
        rc = j.state == MF_JOB_DONE || j.state == MF_JOB_QUARANTINED
                 ? 0
                 : quarantine_locked(s, job, j.attempts, reason);
    return tx_end(s, rc);
}

/* Release, one at a time, every leased job that query q (campaign, param)
 * selects; each release takes the job out of the selection. */
static int release_all(mf_store *s, int q, int64_t campaign, int64_t now,
                       const char *worker, int max_attempts, const char *reason,
                       int *requeued, int *quarantined)
{
    int r = 0, qd = 0;
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    for (;;) {
        sqlite3_stmt *st;
        rc = stmt(s, q, &st);
        if (rc < 0)
            break;
        sqlite3_bind_int64(st, 1, campaign);
        if (worker)
            bind_text(st, 2, worker);
        else
            sqlite3_bind_int64(st, 2, now);
        rc = row(s, st, "finding leases to take back");
        if (rc <= 0)
            break;
        int64_t job = sqlite3_column_int64(st, 0);
        int attempt = sqlite3_column_int(st, 1);
        sqlite3_reset(st);
        rc = release_locked(s, job, attempt, max_attempts, reason, &r, &qd);
        if (rc < 0)
            break;
    }
    rc = tx_end(s, rc);
    if (requeued)
        *requeued = rc == 0 ? r : 0;
    if (quarantined)
        *quarantined = rc == 0 ? qd : 0;
    return rc;
}

int mf_store_jobs_expire(mf_store *s, int64_t campaign, int64_t now_ms,
                         int max_attempts, int *requeued, int *quarantined)
{
    return release_all(s, Q_JOBS_EXPIRED, campaign, now_ms, NULL, max_attempts,
                       "lease expired", requeued, quarantined);
}

int mf_store_jobs_release_worker(mf_store *s, int64_t campaign,
                                 const char *worker, int max_attempts,
                                 int *requeued, int *quarantined)
{
    char why[64 + MF_STORE_WORKER_ID];
    snprintf(why, sizeof why, "worker %s died", worker);
    return release_all(s, Q_JOBS_OF_WORKER, campaign, 0, worker, max_attempts,
                       why, requeued, quarantined);
}

/* ---- tests as JSON ------------------------------------------------------ */

/* A value as JSON: a number when SMV prints it as one, else a string
 * (TRUE, FALSE, symbols). */
static int json_val(mf_buf *b, mf_buf *tmp, const mf_model *m, const mf_type *t,
                    mf_val v)
{
    if (!t) {
        mf_buf_printf(b, "%lld", (long long)v);
        return 0;
    }
    if (!mf_type_contains(t, v))
        return -1;
    mf_buf_reset(tmp);
    mf_print_value(tmp, m, t, v);
    const char *p = tmp->data + (tmp->data[0] == '-');
    int num = *p != '\0';
    for (; *p; p++)
        num &= *p >= '0' && *p <= '9';
    if (num)
        mf_buf_puts(b, tmp->data);
    else
        json_str(b, tmp->data);
    return 0;
}


/* One object {name: value} of observables, or a raw array without model. */
static int obs_json(mf_buf *b, mf_buf *tmp, const mf_model *m, const mf_val *o,
                    int nobs)
{
    if (!m) {
        mf_buf_puts(b, "[");
        for (int i = 0; i < nobs; i++)
            mf_buf_printf(b, "%s%lld", i ? "," : "", (long long)o[i]);
        mf_buf_puts(b, "]");
        return 0;
    }
    int n = 0, first = 1;
    mf_buf_puts(b, "{");
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!v->is_observable)
            continue;
        for (int q = 0; q < v->nslots; q++, n++) {
            mf_buf_puts(b, first ? "\"" : ",\"");
            first = 0;
            mf_print_cell_name(b, v, q); /* SMV names need no JSON escaping */
            mf_buf_puts(b, "\":");
            if (json_val(b, tmp, m, mf_type_scalar(v->type), o[n]) < 0)
                return -1;
        }
    }
    for (int i = 0; i < m->nobs_defines; i++, n++) {
        mf_buf_printf(b, "%s\"%s\":%lld", first ? "" : ",",
                      m->items[m->obs_defines[i]].name, (long long)o[n]);
        first = 0;
    }
    mf_buf_puts(b, "}");
    return 0;
}

/* The inputs of step k as an object (which cells as in mf_test_print). */
static int inputs_json(mf_buf *b, mf_buf *tmp, const mf_model *m,
                       const mf_test *t, int k)
{
    const mf_val *in = t->inputs + (size_t)k * (size_t)t->nslots;
    if (!m)
        return obs_json(b, tmp, NULL, in, t->nslots);
    int first = 1;
    mf_buf_puts(b, "{");
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        int used = k == 0 ? v->is_input && v->decl == MF_DECL_VAR
                          : v->is_input || v->decl == MF_DECL_IVAR;
        for (int q = 0; used && q < v->nslots; q++) {
            mf_buf_puts(b, first ? "\"" : ",\"");
            first = 0;
            mf_print_cell_name(b, v, q);
            mf_buf_puts(b, "\":");
            if (json_val(b, tmp, m, mf_type_scalar(v->type), in[v->slot + q]) <
                0)
                return -1;
        }
    }
    mf_buf_puts(b, "}");
    return 0;
}

typedef struct {
    mf_buf inputs, expected, allowed, observed, text, tmp;
    int has_allowed, has_observed;
    char hash[65];
} test_rows;

static void test_rows_free(test_rows *r)
{
    mf_buf_free(&r->inputs);
    mf_buf_free(&r->expected);
    mf_buf_free(&r->allowed);
    mf_buf_free(&r->observed);
    mf_buf_free(&r->text);
    mf_buf_free(&r->tmp);
}

/* A test from a worker is outside input: its shape must match the model
 * before anything reads its arrays by the model's layout. */
static const char *test_shape_error(const mf_model *m, const mf_test *t)
{
    if (t->length < 0 || t->length > MF_STORE_MAX_TEST_LEN)
        return "test length out of range";
    if (t->nslots < 0 || t->nobs < 0)
        return "negative test width";
    if ((t->nslots && !t->inputs) || (t->nobs && !t->expect))
        return "test without its values";
    if (m && (t->nslots != m->nslots || t->nobs != mf_model_nobs(m)))
        return "test does not match the model's variables";
    if (t->nallowed)
        for (int k = 0; k <= t->length; k++)
            if (t->nallowed[k] < 0 || (t->nallowed[k] && !t->allowed) ||
                (t->nallowed[k] && !t->allowed[k]))
                return "test with malformed allowed outputs";
    return NULL;
}

/* Render test t; NULL on success, else why it cannot be stored. */
static const char *test_render(test_rows *r, const mf_model *m,
                               const mf_test *t)
{
    const char *bad = test_shape_error(m, t);
    if (bad)
        return bad;
    int nobs = t->nobs;
    mf_buf_puts(&r->inputs, "[");
    mf_buf_puts(&r->expected, "[");
    for (int k = 0; k <= t->length; k++) {
        mf_buf_puts(&r->inputs, k ? "," : "");
        mf_buf_puts(&r->expected, k ? "," : "");
        if (inputs_json(&r->inputs, &r->tmp, m, t, k) < 0 ||
            obs_json(&r->expected, &r->tmp, m,
                     t->expect + (size_t)k * (size_t)nobs, nobs) < 0)
            return "test value outside its variable's type";
        if (t->nallowed && t->nallowed[k] > 1)
            r->has_allowed = 1;
    }
    mf_buf_puts(&r->inputs, "]");
    mf_buf_puts(&r->expected, "]");
    if (r->has_allowed) {
        mf_buf_puts(&r->allowed, "[");
        for (int k = 0; k <= t->length; k++) {
            mf_buf_puts(&r->allowed, k ? ",[" : "[");
            for (int a = 0; a < t->nallowed[k]; a++) {
                mf_buf_puts(&r->allowed, a ? "," : "");
                if (obs_json(&r->allowed, &r->tmp, m,
                             t->allowed[k] + (size_t)a * (size_t)nobs,
                             nobs) < 0)
                    return "allowed output outside its variable's type";
            }
            mf_buf_puts(&r->allowed, "]");
        }
        mf_buf_puts(&r->allowed, "]");
    }
    if (t->mobs) {
        r->has_observed = 1;
        mf_buf_puts(&r->observed, "[");
        for (int k = 0; k <= t->length; k++) {
            mf_buf_puts(&r->observed, k ? "," : "");
            if (obs_json(&r->observed, &r->tmp, m,
                         t->mobs + (size_t)k * (size_t)nobs, nobs) < 0)
                r->has_observed = 0; /* evidence only: drop, not refuse */
        }
        mf_buf_puts(&r->observed, "]");
    }
    if (m)
        mf_test_print(&r->text, m, t);
    mf_buf reps = {0};
    mf_buf_printf(&reps, "%s\n%s\n%s", r->inputs.data, r->expected.data,
                  r->has_allowed ? r->allowed.data : "null");
    mf_sha256_hex(r->hash, reps.data, reps.len);
    mf_buf_free(&reps);
    return NULL;
}

/* ---- results ------------------------------------------------------------ */

typedef struct {
    int64_t campaign, job;
    int attempt;
    const char *worker;
    int64_t now;
    mf_store_commit_info *info;
} commit_ctx;

/* Mark the result invalid; returns 1 so callers stop without an error. */
static int invalid(commit_ctx *c, const char *fmt, const char *arg)
{
    c->info->outcome = MF_COMMIT_INVALID;
    snprintf(c->info->why, sizeof c->info->why, fmt, arg);
    return 1;
}

/* The row id of a campaign's mutant and its job: 1, 0 if absent, < 0. */
static int mutant_lookup(mf_store *s, int64_t campaign, const char *mid,
                         int64_t *id, int64_t *job)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_MUT_LOOKUP, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    bind_textn(st, 2, mid, 64);
    rc = row(s, st, "finding a mutant");
    if (rc == 1) {
        *id = sqlite3_column_int64(st, 0);
        *job = sqlite3_column_int64(st, 1);
        sqlite3_reset(st);
    }
    return rc;
}

/* Store the killing test of a verdict (deduplicated) and its kill row;
 * *test_id is the test's row. 1 if the test is invalid. */
static int store_test(mf_store *s, commit_ctx *c, const mf_model *m,
                      const mf_verdict *v, int64_t mutant, int64_t *test_id)
{
    test_rows r = {0};
    sqlite3_stmt *st;
    int rc = 0;
    const char *bad = test_render(&r, m, v->test);
    if (bad) {
        rc = invalid(c, "%s", bad);
        goto cleanup;
    }
    rc = stmt(s, Q_TEST_INS, &st);
    if (rc < 0)
        goto cleanup;
    sqlite3_bind_int64(st, 1, c->campaign);
    bind_text(st, 2, r.hash);
    sqlite3_bind_int(st, 3, v->test->length);
    bind_text(st, 4, mf_notion_name(v->notion));
    bind_text(st, 5, r.inputs.data);
    bind_text(st, 6, r.expected.data);
    bind_text(st, 7, r.has_allowed ? r.allowed.data : NULL);
    bind_text(st, 8, m ? r.text.data : NULL);
    sqlite3_bind_int64(st, 9, mutant);
    sqlite3_bind_int64(st, 10, c->now);
    rc = run(s, st, "storing a test");
    if (rc < 0)
        goto cleanup;
    c->info->new_tests += sqlite3_changes(s->db);
    sqlite3_stmt *q;
    rc = stmt(s, Q_TEST_ID, &q);
    if (rc < 0)
        goto cleanup;
    sqlite3_bind_int64(q, 1, c->campaign);
    bind_text(q, 2, r.hash);
    rc = row(s, q, "finding a test");
    if (rc == 0)
        rc = mf_err_set(MF_ERROR, "store %s: a stored test vanished", s->path);
    if (rc < 0)
        goto cleanup;
    *test_id = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    rc = stmt(s, Q_KILL_INS, &st);
    if (rc < 0)
        goto cleanup;
    sqlite3_bind_int64(st, 1, *test_id);
    sqlite3_bind_int64(st, 2, mutant);
    sqlite3_bind_int64(st, 3, c->campaign);
    bind_text(st, 4, "verdict");
    bind_text(st, 5, r.has_observed ? r.observed.data : NULL);
    rc = run(s, st, "storing a kill");
cleanup:
    test_rows_free(&r);
    return rc;
}

static int verdict_insert(mf_store *s, commit_ctx *c, const mf_verdict *v,
                          int64_t mutant, int64_t test_id)
{
    sqlite3_stmt *st;
    int rc = stmt(s, Q_VERDICT_INS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, mutant);
    sqlite3_bind_int64(st, 2, c->campaign);
    sqlite3_bind_int64(st, 3, c->job);
    sqlite3_bind_int(st, 4, c->attempt);
    bind_text(st, 5, mf_verdict_name(v->kind));
    if (v->kind == MF_V_KILLED)
        bind_text(st, 6, mf_notion_name(v->notion));
    sqlite3_bind_int(st, 7,
                     v->kind == MF_V_KILLED ? v->test->length : v->bound);
    if (v->kind == MF_V_EQUIVALENT)
        bind_textn(st, 8, v->method, sizeof v->method);
    if (v->kind == MF_V_UNKNOWN || v->kind == MF_V_ERROR)
        bind_textn(st, 9, v->reason, sizeof v->reason);
    if (test_id)
        sqlite3_bind_int64(st, 10, test_id);
    if (isfinite(v->secs) && v->secs >= 0 && v->secs < 1e9)
        sqlite3_bind_int64(st, 11, (int64_t)(v->secs * 1000.0 + 0.5));
    bind_text(st, 12, c->worker);
    sqlite3_bind_int64(st, 13, c->now);
    rc = sqlite3_step(st);
    int ret = 0;
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        ret = 1; /* the caller names the mutant */
    else if (rc != SQLITE_DONE)
        ret = fail(s, rc, "storing a verdict");
    sqlite3_reset(st);
    return ret;
}

/* One verdict of the result; *test_id gets its test's row (kills). */
static int commit_verdict(mf_store *s, commit_ctx *c, const mf_model *m,
                          const mf_store_verdict *sv, int64_t *test_id)
{
    const mf_verdict *v = sv->v;
    int64_t mutant = 0, job = 0;
    *test_id = 0;
    if (!sv->mutant_id || !v)
        return invalid(c, "%s", "a verdict without mutant id");
    if ((unsigned)v->kind > MF_V_ERROR ||
        (v->kind == MF_V_KILLED && (unsigned)v->notion > MF_N_DEFINITE))
        return invalid(c, "bad verdict kind for mutant %.64s", sv->mutant_id);
    int rc = mutant_lookup(s, c->campaign, sv->mutant_id, &mutant, &job);
    if (rc <= 0 || job != c->job)
        return rc < 0 ? rc
                      : invalid(c, "mutant %.64s is not in the job",
                                sv->mutant_id);
    if (v->kind == MF_V_KILLED) {
        if (!v->test)
            return invalid(c, "kill of mutant %.64s without a test",
                           sv->mutant_id);
        rc = store_test(s, c, m, v, mutant, test_id);
        if (rc != 0)
            return rc;
    }
    rc = verdict_insert(s, c, v, mutant, *test_id);
    if (rc == 1)
        return invalid(c, "two verdicts for mutant %.64s", sv->mutant_id);
    if (rc == 0)
        c->info->counts[v->kind]++;
    return rc;
}

/* A further kill by replay: the test of verdict k.test kills k.mutant_id. */
static int commit_kill(mf_store *s, commit_ctx *c, const mf_store_result *r,
                       const mf_store_kill *k, const int64_t *test_ids)
{
    int64_t mutant = 0, job = 0;
    if (k->test < 0 || k->test >= r->nverdicts || !test_ids[k->test])
        return invalid(c, "%s", "a kill that names no killing test");
    if (!k->mutant_id)
        return invalid(c, "%s", "a kill without mutant id");
    int rc = mutant_lookup(s, c->campaign, k->mutant_id, &mutant, &job);
    if (rc <= 0)
        return rc < 0
                   ? rc
                   : invalid(c, "kill of unknown mutant %.64s", k->mutant_id);
    sqlite3_stmt *st;
    rc = stmt(s, Q_KILL_INS, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, test_ids[k->test]);
    sqlite3_bind_int64(st, 2, mutant);
    sqlite3_bind_int64(st, 3, c->campaign);
    bind_text(st, 4, "replay");
    return run(s, st, "storing a kill");
}

/* Whether the job accepts a result for this attempt: 1 if so, 0 when the
 * outcome says why not, < 0 on failure. */
static int commit_admit(mf_store *s, commit_ctx *c, const mf_store_result *r,
                        mf_store_job *j)
{
    mf_store_commit_info *info = c->info;
    int rc = job_read(s, j, r->job_id);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        info->outcome = MF_COMMIT_UNKNOWN_JOB;
        snprintf(info->why, sizeof info->why, "no job %lld",
                 (long long)r->job_id);
    } else if (j->state == MF_JOB_DONE) {
        info->outcome = MF_COMMIT_DUPLICATE;
        snprintf(info->why, sizeof info->why, "job %lld is already done",
                 (long long)r->job_id);
    } else if (j->state == MF_JOB_QUARANTINED) {
        info->outcome = MF_COMMIT_QUARANTINED;
        snprintf(info->why, sizeof info->why, "job %lld is quarantined",
                 (long long)r->job_id);
    } else if (j->attempts == 0 || r->attempt != j->attempts) {
        info->outcome = MF_COMMIT_STALE;
        snprintf(info->why, sizeof info->why,
                 "job %lld: result of attempt %d, current attempt is %d",
                 (long long)r->job_id, r->attempt, j->attempts);
    } else if (r->nverdicts != j->nmut) {
        info->outcome = MF_COMMIT_INVALID;
        snprintf(info->why, sizeof info->why,
                 "job %lld has %d mutants, the result %d verdicts",
                 (long long)r->job_id, j->nmut, r->nverdicts);
    } else {
        return 1;
    }
    return 0;
}

static int commit_locked(mf_store *s, commit_ctx *c, const mf_store_result *r)
{
    mf_store_job j;
    int rc = commit_admit(s, c, r, &j);
    if (rc <= 0)
        return rc;
    c->campaign = j.campaign_id;
    c->worker = r->worker ? r->worker : (j.worker[0] ? j.worker : NULL);
    int64_t *test_ids = mf_xcalloc((size_t)r->nverdicts + 1, sizeof *test_ids);
    rc = 0;
    for (int i = 0; i < r->nverdicts && rc == 0; i++)
        rc = commit_verdict(s, c, r->model, &r->verdicts[i], &test_ids[i]);
    for (int i = 0; i < r->nkills && rc == 0; i++)
        rc = commit_kill(s, c, r, &r->kills[i], test_ids);
    free(test_ids);
    if (rc != 0)
        return rc;
    sqlite3_stmt *st;
    rc = stmt(s, Q_JOB_DONE, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, c->job);
    bind_text(st, 2, c->worker);
    sqlite3_bind_int64(st, 3, c->now);
    rc = run(s, st, "finishing a job");
    if (rc < 0 || !c->worker)
        return rc;
    rc = stmt(s, Q_WORKER_JOB, &st);
    if (rc < 0)
        return rc;
    bind_text(st, 1, c->worker);
    sqlite3_bind_int64(st, 2, c->now);
    return run(s, st, "counting a worker's job");
}

int mf_store_commit(mf_store *s, mf_store_commit_info *out,
                    const mf_store_result *r)
{
    memset(out, 0, sizeof *out);
    commit_ctx c = {0, r->job_id, r->attempt, NULL, mf_store_now_ms(), out};
    if (r->nverdicts < 0 || r->nkills < 0 || (r->nverdicts && !r->verdicts) ||
        (r->nkills && !r->kills)) {
        out->outcome = MF_COMMIT_INVALID;
        snprintf(out->why, sizeof out->why, "malformed result");
        return 0;
    }
    int rc = tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = commit_locked(s, &c, r);
    if (rc == 0 && out->outcome == MF_COMMIT_OK)
        rc = tx_end(s, 0);
    else
        tx_rollback(s); /* refused or failed: nothing of it stays */
    if (rc != 0 || out->outcome != MF_COMMIT_OK) {
        memset(out->counts, 0, sizeof out->counts);
        out->new_tests = 0;
    }
    return rc < 0 ? rc : 0;
}

int mf_store_test_json(mf_store *s, char **out, int64_t campaign,
                       const char *mutant_id)
{
    sqlite3_stmt *st;
    *out = NULL;
    int rc = stmt(s, Q_TEST_OF_MUTANT, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    bind_text(st, 2, mutant_id);
    rc = row(s, st, "reading a test");
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND,
                          "store %s: mutant %s of campaign "
                          "%lld has no killing test",
                          s->path, mutant_id, (long long)campaign);
    if (rc < 0)
        return rc;
    mf_buf b = {0};
    const unsigned char *allowed = sqlite3_column_text(st, 5);
    mf_buf_printf(&b, "{\"test_id\":%lld,\"length\":%d,\"notion\":",
                  (long long)sqlite3_column_int64(st, 0),
                  sqlite3_column_int(st, 1));
    json_str(&b, (const char *)sqlite3_column_text(st, 2));
    mf_buf_printf(&b, ",\"inputs\":%s,\"expected\":%s,\"allowed\":%s}",
                  sqlite3_column_text(st, 3), sqlite3_column_text(st, 4),
                  allowed ? (const char *)allowed : "null");
    sqlite3_reset(st);
    *out = b.data;
    return 0;
}

/* ---- workers ------------------------------------------------------------ */

int mf_store_worker_seen(mf_store *s, const mf_store_worker *w)
{
    sqlite3_stmt *st;
    if (s->planning)
        return not_planning(s);
    int rc = stmt(s, Q_WORKER_UPSERT, &st);
    if (rc < 0)
        return rc;
    bind_text(st, 1, w->id);
    bind_text(st, 2, w->host);
    sqlite3_bind_int(st, 3, w->threads);
    bind_text(st, 4, w->mutfarm_version);
    bind_text(st, 5, w->z3_version);
    sqlite3_bind_int64(st, 6, mf_store_now_ms());
    return run(s, st, "recording a worker");
}

/* ---- progress ----------------------------------------------------------- */

/* Run a "SELECT name, count(*) ... GROUP BY name" for one campaign and
 * hand each pair to `put`. */
static int count_groups(mf_store *s, int q, int64_t campaign,
                        mf_store_counts *c,
                        void (*put)(mf_store_counts *, const char *, int64_t))
{
    sqlite3_stmt *st;
    int rc = stmt(s, q, &st);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    while ((rc = row(s, st, "counting")) == 1)
        put(c, (const char *)sqlite3_column_text(st, 0),
            sqlite3_column_int64(st, 1));
    return rc;
}

static void put_status(mf_store_counts *c, const char *k, int64_t n)
{
    if (!strcmp(k, "ok"))
        c->total = n;
    else if (!strcmp(k, "duplicate"))
        c->duplicate = n;
    else if (!strcmp(k, "stillborn"))
        c->stillborn = n;
}

static void put_kind(mf_store_counts *c, const char *k, int64_t n)
{
    if (!strcmp(k, "killed"))
        c->killed = n;
    else if (!strcmp(k, "equivalent"))
        c->equivalent = n;
    else if (!strcmp(k, "survived"))
        c->survived = n;
    else if (!strcmp(k, "unknown"))
        c->unknown = n;
    else if (!strcmp(k, "error"))
        c->error = n;
}

static void put_job(mf_store_counts *c, const char *k, int64_t n)
{
    switch (job_state_of((const unsigned char *)k)) {
    case MF_JOB_PENDING:
        c->jobs_pending = n;
        break;
    case MF_JOB_LEASED:
        c->jobs_leased = n;
        break;
    case MF_JOB_DONE:
        c->jobs_done = n;
        break;
    case MF_JOB_QUARANTINED:
        c->jobs_quarantined = n;
        break;
    }
}

static int counts_locked(mf_store *s, mf_store_counts *out, int64_t campaign)
{
    memset(out, 0, sizeof *out);
    int rc = count_groups(s, Q_COUNT_STATUS, campaign, out, put_status);
    if (rc == 0)
        rc = count_groups(s, Q_COUNT_KIND, campaign, out, put_kind);
    if (rc == 0)
        rc = count_groups(s, Q_COUNT_JOBS, campaign, out, put_job);
    if (rc == 0)
        rc = query_int(s, Q_COUNT_UNPLANNED, campaign, 0, 1, &out->unplanned,
                       "counting");
    if (rc < 0)
        return rc;
    out->done = out->killed + out->equivalent + out->survived + out->unknown +
                out->error;
    out->pending = out->total - out->done;
    int64_t den = out->killed + out->survived + out->unknown;
    out->score = den ? (double)out->killed / (double)den : -1.0;
    return 0;
}

int mf_store_counts_get(mf_store *s, mf_store_counts *out, int64_t campaign)
{
    int rc = tx_begin(s, 0); /* one snapshot for all four counts */
    if (rc < 0)
        return rc;
    return tx_end(s, counts_locked(s, out, campaign));
}
