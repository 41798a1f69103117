/* test_matrix.c - the parts of the kill matrix and the minimisation that a
 * campaign does not reach on its own: stored tests read back (both JSON
 * forms, and every kind of malformed row refused with a message), the
 * migration of a version-1 store (kill notions back-filled, the trigger
 * that gives new verdict kills theirs, the campaign_tests view's notion
 * and counts), and the exact set cover (smaller than greedy where greedy
 * is not optimal; the cheaper of two smallest covers; an element no set
 * covers). Real SQLite files in a temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cover.h"
#include "matrix.h"
#include "model.h"
#include "store.h"
#include "langs.h"

static mf_model *beverage(void)
{
    mf_model *m = NULL;
    assert_int_equal(mf_model_load_file(&m, "tests/models/beverage.smv",
                                        NULL), 0);
    return m;
}

static mf_val sym(const mf_model *m, const char *name)
{
    int i = mf_model_find_sym(m, name);
    assert_true(i >= 0);
    return MF_SYM(i);
}

static int slot_of(const mf_model *m, const char *var)
{
    int v = mf_model_find_var(m, var);
    assert_true(v >= 0);
    return m->vars[v].slot;
}

/* ---- stored tests read back ---------------------------------------------- */

static void test_matrix__reads_named_tests(void **state)
{
    (void)state;
    mf_model *m = beverage();
    mf_test *t = NULL;
    assert_int_equal(
        mf_matrix_test_parse(
            &t, m, 7, 2, "[{},{\"inp\":\"req\"},{\"inp\":\"fill\"}]",
            "[{\"wtr\":2,\"out\":\"eps\"},{\"wtr\":1,\"out\":\"coff\"},"
            "{\"wtr\":1,\"out\":\"eps\"}]",
            "[[{\"wtr\":2,\"out\":\"eps\"}],[{\"wtr\":1,\"out\":\"coff\"},"
            "{\"wtr\":1,\"out\":\"tea\"}],[{\"wtr\":1,\"out\":\"eps\"}]]"),
        0);
    assert_int_equal(t->length, 2);
    int inp = slot_of(m, "inp");
    assert_int_equal(t->inputs[1 * m->nslots + inp], sym(m, "req"));
    assert_int_equal(t->inputs[2 * m->nslots + inp], sym(m, "fill"));
    /* observables in the model's order: wtr, then out */
    assert_int_equal(t->expect[1 * t->nobs + 0], 1);
    assert_int_equal(t->expect[1 * t->nobs + 1], sym(m, "coff"));
    assert_int_equal(t->nallowed[0], 1);
    assert_int_equal(t->nallowed[1], 2);
    assert_int_equal(t->allowed[1][1 * t->nobs + 1], sym(m, "tea"));
    mf_test_free(t);

    /* No allowed outputs: none read. */
    assert_int_equal(mf_matrix_test_parse(&t, m, 8, 0, "[{}]",
                                          "[{\"wtr\":2,\"out\":\"eps\"}]",
                                          NULL),
                     0);
    assert_int_equal(t->nallowed[0], 0);
    mf_test_free(t);
    mf_model_free(m);
}

static void test_matrix__reads_raw_tests(void **state)
{
    (void)state;
    mf_model *m = beverage();
    mf_test *t = NULL;
    mf_buf in = {0}, ex = {0};
    /* A store written without a model: every slot, every observable. */
    mf_buf_puts(&in, "[[");
    for (int i = 0; i < m->nslots; i++)
        mf_buf_printf(&in, "%s0", i ? "," : "");
    mf_buf_puts(&in, "],[");
    for (int i = 0; i < m->nslots; i++)
        mf_buf_printf(&in, "%s%lld", i ? "," : "",
                      i == slot_of(m, "inp") ? (long long)sym(m, "req") : 0);
    mf_buf_puts(&in, "]]");
    mf_buf_printf(&ex, "[[2,%lld],[1,%lld]]", (long long)sym(m, "eps"),
                  (long long)sym(m, "coff"));
    assert_int_equal(mf_matrix_test_parse(&t, m, 3, 1, in.data, ex.data,
                                          NULL),
                     0);
    assert_int_equal(t->inputs[m->nslots + slot_of(m, "inp")], sym(m, "req"));
    assert_int_equal(t->expect[t->nobs + 1], sym(m, "coff"));
    mf_test_free(t);
    mf_buf_free(&in);
    mf_buf_free(&ex);
    mf_model_free(m);
}

static void test_matrix__refuses_malformed_tests(void **state)
{
    (void)state;
    static const struct {
        int len;
        const char *in, *ex, *why;
    } bad[] = {
        {1, "[{},{\"inp\":\"tea\"}]", "[{\"wtr\":2,\"out\":\"eps\"},"
         "{\"wtr\":1,\"out\":\"coff\"}]",
         "inputs[1]: inp: \"tea\" is no value of its type"},
        {1, "[{},{\"inp\":\"bogus\"}]", "[{\"wtr\":2,\"out\":\"eps\"},"
         "{\"wtr\":1,\"out\":\"coff\"}]",
         "inputs[1]: inp: unknown value \"bogus\""},
        {1, "[{},{\"nope\":\"req\"}]", "[{\"wtr\":2,\"out\":\"eps\"},"
         "{\"wtr\":1,\"out\":\"coff\"}]", "unknown cell \"nope\""},
        {0, "[{}]", "[{\"wtr\":7,\"out\":\"eps\"}]",
         "expected[0]: wtr: value 7 outside its type"},
        {0, "[{}]", "[{\"wtr\":2}]", "1 cells named, expected 2"},
        {0, "[{}]", "[{\"wtr\":2,\"wtr\":2}]", "cell \"wtr\" twice"},
        {1, "[{}]", "[{\"wtr\":2,\"out\":\"eps\"}]", "inputs[1]: expected ','"},
        {0, "[{}] x", "[{\"wtr\":2,\"out\":\"eps\"}]", "trailing text"},
        {0, "[{}]", "[{\"wtr\":2.5,\"out\":\"eps\"}]", "expected an integer"},
        {0, "[{}]", "[{\"wtr\":2,\"out\":\"eps", "unterminated string"},
        {0, "[{}]", "[[1,2,3]]", "expected[0]: more than 2 values"},
        {0, "[{}]", "[[1]]", "expected[0]: 1 values, expected 2"},
        {-1, "[{}]", "[{}]", "length -1"},
    };
    mf_model *m = beverage();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mf_test *t = NULL;
        int rc = mf_matrix_test_parse(&t, m, 42, bad[i].len, bad[i].in,
                                      bad[i].ex, NULL);
        if (rc != MF_EPARSE || t || !strstr(mf_err_msg(), bad[i].why) ||
            !strstr(mf_err_msg(), "test 42"))
            fail_msg("case %zu: rc %d, message '%s', wanted '%s'", i, rc,
                     mf_err_msg(), bad[i].why);
    }
    mf_model_free(m);
}

/* ---- the migration ------------------------------------------------------- */

static void exec_ok(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
        fail_msg("%s: %s", sql, err ? err : "?");
}

static int64_t q1(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void test_matrix__migrates_a_version_1_store(void **state)
{
    (void)state;
    char dir[] = "/tmp/mf-test-matrix.XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/v1.db", dir);

    /* A store as mutfarm wrote it before 002: one killed mutant whose
     * test also kills a second one by replay. */
    char *sql = NULL;
    size_t len;
    assert_int_equal(mf_read_file(&sql, &len, "schema/001_init.sql", 1 << 20),
                     0);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    exec_ok(db, sql);
    free(sql);
    exec_ok(db, "PRAGMA user_version = 1; PRAGMA application_id = 1835430509;"
                "INSERT INTO models VALUES (1, 'h', 'm.smv', 'MODULE main', 0);"
                "INSERT INTO campaigns VALUES (1, 1, 'done', '{}', 5, 'auto', "
                "'', NULL, NULL, 0, 0, 0);"
                "INSERT INTO mutants VALUES (1, 1, '00000000000000a1', "
                "'negate', 0, 's', 1, 1, 'd', 'ok', NULL, NULL, NULL);"
                "INSERT INTO mutants VALUES (2, 1, '00000000000000a2', "
                "'negate', 0, 's', 1, 1, 'd', 'ok', NULL, NULL, NULL);"
                "INSERT INTO tests VALUES (1, 1, 'x', 1, 'potential', "
                "'[{},{}]', '[{},{}]', NULL, NULL, 1, 0);"
                "INSERT INTO kills VALUES (1, 1, 1, 'verdict', NULL);"
                "INSERT INTO kills VALUES (1, 2, 1, 'replay', NULL);"
                "INSERT INTO verdicts(mutant, campaign_id, kind, notion, "
                "bound, test_id, created_at) VALUES (1, 1, 'killed', "
                "'definite', 1, 1, 0);");
    sqlite3_close(db);

    mf_store *s = NULL;
    assert_int_equal(mf_store_open(&s, path, 0, 2000), 0);
    int v = 0;
    assert_int_equal(mf_store_schema_version(s, &v), 0);
    assert_int_equal(v, mf_store_schema_latest());
    assert_true(v >= 2);
    assert_int_equal(mf_store_integrity(s), 0);
    db = mf_store_db(s);
    /* back-filled from the verdict; the replay kill has none yet */
    assert_int_equal(q1(db, "SELECT notion = 'definite' FROM kills WHERE "
                            "mutant = 1"), 1);
    assert_int_equal(q1(db, "SELECT notion IS NULL FROM kills WHERE "
                            "mutant = 2"), 1);
    /* campaign_tests: the notion of its known kills, per-notion counts,
     * and the notion of the kill that found it */
    assert_int_equal(q1(db, "SELECT notion = 'definite' AND kills = 2 AND "
                            "definite = 1 AND potential = 0 AND "
                            "found_notion = 'potential' FROM campaign_tests"),
                     1);
    exec_ok(db, "UPDATE kills SET notion = 'potential' WHERE mutant = 2");
    assert_int_equal(q1(db, "SELECT notion = 'potential' AND definite = 1 "
                            "AND potential = 1 FROM campaign_tests"), 1);

    /* The coordinator stores a kill, then its verdict: the trigger gives
     * the kill the verdict's notion. */
    exec_ok(db, "INSERT INTO mutants(id, campaign_id, mutant_id, operator, "
                "item, site, line, col, description, status, dup_of, why, "
                "job_id) VALUES (3, 1, '00000000000000a3', "
                "'negate', 0, 's', 1, 1, 'd', 'ok', NULL, NULL, NULL);"
                "INSERT INTO kills(test_id, mutant, campaign_id, source) "
                "VALUES (1, 3, 1, 'verdict');"
                "INSERT INTO verdicts(mutant, campaign_id, kind, notion, "
                "bound, test_id, created_at) VALUES (3, 1, 'killed', "
                "'deterministic', 1, 1, 0);");
    assert_int_equal(q1(db, "SELECT notion = 'deterministic' FROM kills "
                            "WHERE mutant = 3"), 1);
    assert_int_equal(q1(db, "SELECT count(*) FROM mutant_tests WHERE "
                            "notion IS NOT NULL"), 3);
    /* the new tables are there, empty */
    assert_int_equal(q1(db, "SELECT (SELECT count(*) FROM matrices) + "
                            "(SELECT count(*) FROM suites) + "
                            "(SELECT count(*) FROM suite_tests)"), 0);
    mf_store_close(s);

    /* A second open changes nothing. */
    assert_int_equal(mf_store_open(&s, path, MF_STORE_READONLY, 2000), 0);
    assert_int_equal(mf_store_schema_version(s, &v), 0);
    assert_int_equal(v, mf_store_schema_latest());
    assert_true(v >= 2);
    mf_store_close(s);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- the exact cover ----------------------------------------------------- */

static void test_matrix__exact_cover_beats_greedy(void **state)
{
    (void)state;
    /* Six elements. Set 0 = {0,1,2,3} is what greedy takes first, then it
     * needs sets 1 and 2 for elements 4 and 5: three sets. Sets 1 = {0,1,4}
     * and 2 = {2,3,5} are a cover of two. Set 3 = {0,1,4} again but
     * longer: the cheaper of the two smallest covers is chosen. */
    static const int cost[] = {1, 2, 2, 9};
    static const int start[] = {0, 3, 6, 8, 10, 12, 13};
    static const int by[] = {0, 1, 3, 0, 1, 3, 0, 2, 0, 2, 1, 3, 2};
    mf_cover_problem p = {4, cost, 6, start, by};
    int chosen[4], optimal = 0;
    assert_int_equal(mf_cover_exact(chosen, &optimal, &p, 10000), 0);
    assert_int_equal(optimal, 1);
    assert_int_equal(chosen[0], 0);
    assert_int_equal(chosen[1], 1);
    assert_int_equal(chosen[2], 1);
    assert_int_equal(chosen[3], 0);
}

static void test_matrix__exact_cover_refuses_an_uncovered_element(void **st)
{
    (void)st;
    static const int cost[] = {1};
    static const int start[] = {0, 1, 1};
    static const int by[] = {0};
    mf_cover_problem p = {1, cost, 2, start, by};
    int chosen[1], optimal = 1;
    assert_int_equal(mf_cover_exact(chosen, &optimal, &p, 0), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "element 1 is covered by no set"));
    assert_int_equal(optimal, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix__reads_named_tests),
        cmocka_unit_test(test_matrix__reads_raw_tests),
        cmocka_unit_test(test_matrix__refuses_malformed_tests),
        cmocka_unit_test(test_matrix__migrates_a_version_1_store),
        cmocka_unit_test(test_matrix__exact_cover_beats_greedy),
        cmocka_unit_test(test_matrix__exact_cover_refuses_an_uncovered_element),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
