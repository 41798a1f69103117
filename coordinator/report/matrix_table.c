/* matrix_table.c - the kill matrix's row in `matrices` (schema/002): a
 * fill started, resumed and finished, the whole matrix's counts, and the
 * small SQLite helpers the matrix files share (matrix_int.h). It replays
 * nothing: matrix.c and matrix_farm.c do. */
#include "matrix_int.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double mf_matrix_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int mf_matrix_db_fail(mf_store *s, const char *what)
{
    return mf_err_set(MF_ERROR, "store %s: %s: %s", mf_store_path(s), what,
                      sqlite3_errmsg(mf_store_db(s)));
}

int mf_matrix_exec(mf_store *s, const char *sql, const char *what)
{
    if (sqlite3_exec(mf_store_db(s), sql, NULL, NULL, NULL) != SQLITE_OK)
        return mf_matrix_db_fail(s, what);
    return 0;
}

int mf_matrix_prepare(mf_store *s, sqlite3_stmt **st, const char *sql)
{
    if (sqlite3_prepare_v2(mf_store_db(s), sql, -1, st, NULL) != SQLITE_OK) {
        sqlite3_finalize(*st);
        *st = NULL;
        return mf_matrix_db_fail(s, "preparing a query");
    }
    return 0;
}

int mf_matrix_named_row(mf_store *s, const char *sql, int64_t campaign,
                        const char *name, const char *what,
                        const char *none_hint, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    mf_buf names = {0};
    int rc = mf_matrix_prepare(s, &st, sql);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    *out = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(st, 1);
        if (n && !strcmp(n, name))
            *out = sqlite3_column_int64(st, 0);
        mf_buf_printf(&names, "%s'%s'", names.len ? ", " : "", n ? n : "");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        rc = mf_matrix_db_fail(s, "reading the suites");
    else if (!*out)
        rc = mf_err_set(MF_ENOTFOUND, "campaign %lld has no %s '%.100s' "
                        "(%s%s)", (long long)campaign, what, name,
                        names.len ? "its suites: " : none_hint,
                        names.len ? names.data : "");
    else
        rc = 0;
    mf_buf_free(&names);
    return rc;
}

static int query_i64(mf_store *s, int64_t *out, const char *sql, int64_t a)
{
    sqlite3_stmt *st = NULL;
    int rc = mf_matrix_prepare(s, &st, sql);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, a);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = 0;
    } else
        rc = rc == SQLITE_DONE ? MF_ENOTFOUND : mf_matrix_db_fail(s, "reading");
    sqlite3_finalize(st);
    return rc;
}

int mf_matrix_is_full(mf_store *s, int64_t campaign)
{
    int64_t full = 0;
    int rc = query_i64(s, &full,
                       "SELECT state = 'full' FROM matrices WHERE "
                       "campaign_id = ?1", campaign);
    if (rc == MF_ENOTFOUND)
        return 0;
    return rc < 0 ? rc : (int)full;
}

/* The whole matrix's counts into out (kills per notion, undecided...). */
int mf_matrix_totals(mf_store *s, int64_t campaign, int mutants,
                     mf_matrix_stats *out)
{
    sqlite3_stmt *st = NULL;
    int rc = mf_matrix_prepare(s, &st,
                     "SELECT notion, count(*) FROM kills WHERE "
                     "campaign_id = ?1 GROUP BY notion");
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    out->kills = 0;
    memset(out->by_notion, 0, sizeof out->by_notion);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(st, 0);
        int64_t c = sqlite3_column_int64(st, 1);
        out->kills += c;
        for (int i = 0; n && i < 3; i++)
            if (!strcmp(n, mf_notion_name((mf_notion)i)))
                out->by_notion[i] += c;
    }
    rc = rc == SQLITE_DONE ? 0 : mf_matrix_db_fail(s, "counting kills");
    sqlite3_finalize(st);
    if (rc == 0)
        rc = query_i64(s, &out->undecided,
                       "SELECT undecided FROM matrices WHERE campaign_id = "
                       "?1", campaign);
    if (rc == 0)
        rc = query_i64(s, &out->unconfirmed,
                       "SELECT unconfirmed FROM matrices WHERE campaign_id "
                       "= ?1", campaign);
    if (rc == 0)
        rc = query_i64(s, &out->tests,
                       "SELECT count(*) FROM tests WHERE campaign_id = ?1",
                       campaign);
    if (rc == 0 && mutants)
        rc = query_i64(s, &out->mutants,
                       "SELECT mutants FROM matrices WHERE campaign_id = ?1",
                       campaign);
    return rc == MF_ENOTFOUND ? 0 : rc;
}

int mf_matrix_fill_begin(mf_store *s, int64_t campaign, int refill,
                         int64_t *after)
{
    sqlite3_stmt *st = NULL;
    int rc = mf_matrix_exec(s, "BEGIN IMMEDIATE", "starting a transaction");
    if (rc < 0)
        return rc;
    if (refill) {
        char sql[512];
        snprintf(sql, sizeof sql,
                 "DELETE FROM kills WHERE campaign_id = %lld AND source = "
                 "'replay'; UPDATE kills SET step = NULL, refuses = NULL, "
                 "notion = (SELECT v.notion FROM verdicts v WHERE v.mutant "
                 "= kills.mutant AND v.test_id = kills.test_id) WHERE "
                 "campaign_id = %lld; DELETE FROM matrices WHERE "
                 "campaign_id = %lld; DELETE FROM matrix_jobs WHERE "
                 "campaign_id = %lld;",
                 (long long)campaign, (long long)campaign,
                 (long long)campaign, (long long)campaign);
        if ((rc = mf_matrix_exec(s, sql, "clearing the kill matrix")) < 0)
            goto cleanup;
    }
    if ((rc = mf_matrix_prepare(s, &st,
                      "INSERT INTO matrices(campaign_id, state, started_at) "
                      "VALUES (?1, 'filling', ?2) ON CONFLICT(campaign_id) "
                      "DO NOTHING")) < 0)
        goto cleanup;
    sqlite3_bind_int64(st, 1, campaign);
    sqlite3_bind_int64(st, 2, mf_store_now_ms());
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = mf_matrix_db_fail(s, "starting the kill matrix");
        goto cleanup;
    }
    rc = query_i64(s, after,
                   "SELECT through_test FROM matrices WHERE campaign_id = "
                   "?1", campaign);
cleanup:
    sqlite3_finalize(st);
    if (rc == 0)
        rc = mf_matrix_exec(s, "COMMIT", "starting the kill matrix");
    if (rc < 0)
        sqlite3_exec(mf_store_db(s), "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int mf_matrix_count_tests(mf_store *s, int64_t campaign, int64_t *n)
{
    return query_i64(s, n, "SELECT count(*) FROM tests WHERE campaign_id = "
                     "?1", campaign);
}

static int fill_end(mf_store *s, int64_t campaign, int64_t tests,
                    int64_t mutants, const mf_matrix_stats *t)
{
    sqlite3_stmt *st = NULL;
    int rc = mf_matrix_prepare(s, &st,
                     "UPDATE matrices SET state = 'full', tests = ?2, "
                     "mutants = ?3, kills = ?4, finished_at = ?5 WHERE "
                     "campaign_id = ?1");
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    sqlite3_bind_int64(st, 2, tests);
    sqlite3_bind_int64(st, 3, mutants);
    sqlite3_bind_int64(st, 4, t->kills);
    sqlite3_bind_int64(st, 5, mf_store_now_ms());
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = mf_matrix_db_fail(s, "finishing the kill matrix");
    sqlite3_finalize(st);
    return rc;
}

int mf_matrix_fill_finish(mf_store *s, int64_t campaign, int64_t tests,
                          int64_t mutants, mf_matrix_stats *out)
{
    char sql[128];
    int rc = mf_matrix_totals(s, campaign, 0, out);
    if (rc == 0)
        rc = fill_end(s, campaign, tests, mutants, out);
    /* A farm fill's done jobs are counted in the row now (matrix_farm.c);
     * after a local fill they describe nothing. */
    snprintf(sql, sizeof sql, "DELETE FROM matrix_jobs WHERE campaign_id = "
             "%lld", (long long)campaign);
    if (rc == 0)
        rc = mf_matrix_exec(s, sql, "forgetting the farm's matrix jobs");
    out->mutants = mutants;
    out->tests = tests;
    return rc;
}

