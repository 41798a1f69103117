/* test_minimize.c - the kill matrix and the minimised suites of real
 * campaigns (the real binary, $MF_BIN: run, minimize, minimize --exact)
 * against an oracle written here from the definitions alone.
 *
 * The oracle enumerates every run of the original and of each mutant on a
 * test's inputs with the simulator, one run at a time (depth first, no
 * sets of states, no memo: nothing shared with coordinator/report/):
 * O_k, the observation words of the original's runs alive at step k (a
 * set of hashes); a mutant run departs at the first k where its word is
 * not in O_k, or where it refuses; potential kill at the first departure,
 * definite kill at the first k where no mutant run alive there is in O_k
 * (model/explore.h's definitions on one input sequence). For beverage,
 * car_alarm, refuse.smv (refusal kills) and three corpus models, every
 * test x mutant pair of the store's kill matrix must say what the oracle
 * says (kill, strength, step, refusal step), and each minimised suite,
 * greedy and exact, must kill every mutant the whole suite kills, as
 * strongly, by the oracle's replay of its tests; exact <= greedy. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix.h"
#include "mutate.h"
#include "sim.h"
#include "store.h"

/* A stored test read as the reports read it (mf_store_test_parse). */
static int parse_test(mf_test **out, const mf_model *m, int64_t id,
                      int length, const char *inputs, const char *expected,
                      const char *allowed)
{
    mf_store_test_opts o = {id, 1, NULL, NULL, NULL, 0};
    return mf_store_test_parse(out, m, length, inputs, expected, allowed, &o);
}

#define RUN_LIMIT 400000L /* oracle nodes per test and model */

typedef MF_VEC(mf_val) valvec;
typedef MF_VEC(uint64_t) u64vec;

static const char *bin(void)
{
    const char *b = getenv("MF_BIN");
    return b && *b ? b : "./build/mutfarm";
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "failed (%d): %s\n", rc, cmd);
    return rc;
}

/* ---- the oracle ---------------------------------------------------------- */

static int push_state(const mf_val *st, void *ctx)
{
    valvec *v = ((void **)ctx)[0];
    const int *n = ((void **)ctx)[1];
    for (int i = 0; i < *n; i++)
        MF_VEC_PUSH(*v, st[i]);
    return 0;
}

/* The states of state k (cur NULL: initial) into *out; their count. */
static int states(valvec *out, const mf_model *m, const mf_test *t, int k,
                  const mf_val *cur)
{
    int n = m->nslots;
    void *ctx[2] = {out, &n};
    const mf_val *inp = t->inputs + (size_t)k * (size_t)t->nslots;
    out->n = 0;
    int rc = cur ? mf_sim_next_each(m, cur, inp, push_state, ctx, 0)
                 : mf_sim_initial_each(m, inp, push_state, ctx, 0);
    assert_true(rc >= 0);
    return n ? out->n / n : 0;
}

static uint64_t extend(uint64_t h, const mf_model *m, const mf_val *st,
                       int nobs)
{
    mf_val o[256];
    assert_true(nobs <= 256);
    assert_true(mf_sim_observe(o, nobs, m, st) >= 0);
    for (int i = 0; i < nobs; i++) {
        h ^= (uint64_t)o[i] + 0x9e3779b97f4a7c15ull;
        h *= 1099511628211ull;
        h ^= h >> 31;
    }
    return h * 31 + 7;
}

typedef struct {
    const mf_model *m;
    const mf_test *t;
    int nobs;
    long nodes;
    u64vec *O; /* per step: words of the original's runs alive there */
    /* a mutant's walk */
    int p, refusal; /* first departure, by a refusal there */
    long *matched;  /* per step: mutant runs alive there with a word in O */
} oracle;

static void orig_dfs(oracle *x, int k, const mf_val *cur, uint64_t h)
{
    valvec kids = {0};
    int n = x->m->nslots, c = states(&kids, x->m, x->t, k, cur);
    for (int i = 0; i < c; i++) {
        assert_true(++x->nodes < RUN_LIMIT);
        uint64_t h2 = extend(h, x->m, kids.v + (size_t)i * n, x->nobs);
        MF_VEC_PUSH(x->O[k], h2);
        if (k < x->t->length)
            orig_dfs(x, k + 1, kids.v + (size_t)i * n, h2);
    }
    MF_VEC_FREE(kids);
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int in_O(const oracle *x, int k, uint64_t h)
{
    return bsearch(&h, x->O[k].v, (size_t)x->O[k].n, sizeof h, u64_cmp) !=
           NULL;
}

static void depart(oracle *x, int k, int refusal)
{
    if (x->p < 0 || k < x->p) {
        x->p = k;
        x->refusal = refusal;
    } else if (k == x->p)
        x->refusal |= refusal;
}

static void mut_dfs(oracle *x, const mf_model *mm, int k, const mf_val *cur,
                    uint64_t h)
{
    valvec kids = {0};
    int n = mm->nslots, c = states(&kids, mm, x->t, k, cur);
    if (c == 0)
        depart(x, k, 1);
    for (int i = 0; i < c; i++) {
        assert_true(++x->nodes < RUN_LIMIT);
        uint64_t h2 = extend(h, mm, kids.v + (size_t)i * n, x->nobs);
        if (!in_O(x, k, h2)) {
            depart(x, k, 0);
            continue;
        }
        x->matched[k]++;
        if (k < x->t->length)
            mut_dfs(x, mm, k + 1, kids.v + (size_t)i * n, h2);
    }
    MF_VEC_FREE(kids);
}

typedef struct {
    int rank, step, refuses;
} verdict;

static void oracle_orig(oracle *x, const mf_model *m, const mf_test *t)
{
    memset(x, 0, sizeof *x);
    x->m = m;
    x->t = t;
    x->nobs = mf_model_nobs(m);
    x->O = calloc((size_t)t->length + 1, sizeof *x->O);
    x->matched = calloc((size_t)t->length + 1, sizeof *x->matched);
    orig_dfs(x, 0, NULL, 1469598103934665603ull);
    for (int k = 0; k <= t->length; k++)
        qsort(x->O[k].v, (size_t)x->O[k].n, sizeof(uint64_t), u64_cmp);
}

static void oracle_free(oracle *x)
{
    for (int k = 0; x->O && k <= x->t->length; k++)
        MF_VEC_FREE(x->O[k]);
    free(x->O);
    free(x->matched);
}

static verdict oracle_mutant(oracle *x, const mf_model *mm)
{
    verdict v = {0, -1, -1};
    x->p = -1;
    x->refusal = 0;
    x->nodes = 0;
    memset(x->matched, 0, sizeof *x->matched * (size_t)(x->t->length + 1));
    mut_dfs(x, mm, 0, NULL, 1469598103934665603ull);
    int d = -1;
    for (int k = 0; k <= x->t->length && d < 0; k++)
        if (x->matched[k] == 0)
            d = k;
    if (d >= 0) {
        v.rank = 2;
        v.step = d;
    } else if (x->p >= 0) {
        v.rank = 1;
        v.step = x->p;
    }
    if (v.rank && x->refusal)
        v.refuses = x->p;
    return v;
}

/* ---- one campaign -------------------------------------------------------- */

typedef struct {
    mf_matrix_campaign *c;
    mf_test **tests;
    int64_t *test_ids;
    int ntests;
    oracle *orc;
    /* targets, by mutant id */
    char (*mid)[17];
    int64_t *mrow;
    int nm;
    verdict *res; /* ntests x nm */
    int found;
} world;

static int target_of(const world *w, const char *id)
{
    for (int j = 0; j < w->nm; j++)
        if (!strcmp(w->mid[j], id))
            return j;
    return -1;
}

static int each_mutant(const mf_mutant *mu, void *ctx)
{
    world *w = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    int j = target_of(w, mu->id);
    if (j < 0)
        return 0;
    mf_model *mm = NULL;
    assert_int_equal(mf_mutant_apply(&mm, w->c->model, mu), 0);
    for (int i = 0; i < w->ntests; i++)
        w->res[(size_t)i * w->nm + j] = oracle_mutant(&w->orc[i], mm);
    mf_model_free(mm);
    w->found++;
    return 0;
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

/* The suite's test indices (into w->tests). */
static int suite_tests(sqlite3 *db, const world *w, const char *name,
                       int *out)
{
    sqlite3_stmt *st = NULL;
    int n = 0;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT st.test_id FROM suites s "
                                        "JOIN suite_tests st ON st.suite_id "
                                        "= s.id WHERE s.name = ?1 ORDER BY "
                                        "st.position",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        int i = 0;
        while (i < w->ntests && w->test_ids[i] != id)
            i++;
        assert_true(i < w->ntests);
        out[n++] = i;
    }
    sqlite3_finalize(st);
    return n;
}

static void check_model(const char *model, int bound)
{
    char dir[] = "/tmp/mf-test-minimize.XXXXXX", db[256];
    assert_non_null(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/store.db", dir);
    assert_int_equal(sh("%s run %s --bound %d --workers 1 --db %s "
                        ">%s/run.log 2>&1", bin(), model, bound, db, dir), 0);
    assert_int_equal(sh("%s minimize --db %s >%s/greedy.log 2>&1", bin(), db,
                        dir), 0);
    assert_int_equal(sh("%s minimize --db %s --exact >%s/exact.log 2>&1",
                        bin(), db, dir), 0);

    mf_store *s = NULL;
    mf_matrix_campaign c;
    assert_int_equal(mf_store_open(&s, db, 0, 5000), 0);
    assert_int_equal(mf_matrix_campaign_open(&c, s, 0), 0);
    sqlite3 *sdb = mf_store_db(s);
    world w = {0};
    w.c = &c;

    /* The tests, read back, and the original's side of the oracle. */
    sqlite3_stmt *st = NULL;
    w.ntests = (int)q1(sdb, "SELECT count(*) FROM tests");
    assert_true(w.ntests > 0);
    w.tests = calloc((size_t)w.ntests, sizeof *w.tests);
    w.test_ids = calloc((size_t)w.ntests, sizeof *w.test_ids);
    w.orc = calloc((size_t)w.ntests, sizeof *w.orc);
    assert_int_equal(sqlite3_prepare_v2(sdb,
                                        "SELECT id, length, inputs, "
                                        "expected, allowed FROM tests ORDER "
                                        "BY id", -1, &st, NULL),
                     SQLITE_OK);
    for (int i = 0; i < w.ntests; i++) {
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        w.test_ids[i] = sqlite3_column_int64(st, 0);
        assert_int_equal(
            parse_test(&w.tests[i], c.model, w.test_ids[i],
                                 sqlite3_column_int(st, 1),
                                 (const char *)sqlite3_column_text(st, 2),
                                 (const char *)sqlite3_column_text(st, 3),
                                 (const char *)sqlite3_column_text(st, 4)),
            0);
        oracle_orig(&w.orc[i], c.model, w.tests[i]);
        /* a valid test: its expected word is among the original's */
        assert_true(w.orc[i].O[w.tests[i]->length].n > 0);
    }
    sqlite3_finalize(st);

    /* The mutants the matrix covers, each replayed by the oracle. */
    w.nm = (int)q1(sdb, "SELECT count(*) FROM verdicts WHERE kind IN "
                        "('killed', 'survived', 'unknown')");
    w.mid = calloc((size_t)w.nm + 1, sizeof *w.mid);
    w.mrow = calloc((size_t)w.nm + 1, sizeof *w.mrow);
    w.res = calloc((size_t)w.ntests * (size_t)w.nm + 1, sizeof *w.res);
    assert_int_equal(sqlite3_prepare_v2(sdb,
                                        "SELECT m.mutant_id, m.id FROM "
                                        "mutants m JOIN verdicts v ON "
                                        "v.mutant = m.id WHERE v.kind IN "
                                        "('killed', 'survived', 'unknown')",
                                        -1, &st, NULL),
                     SQLITE_OK);
    for (int j = 0; j < w.nm; j++) {
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        snprintf(w.mid[j], 17, "%s", sqlite3_column_text(st, 0));
        w.mrow[j] = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    assert_int_equal(mf_mutants_each(c.model, c.mask, each_mutant, &w), 0);
    assert_int_equal(w.found, w.nm);

    /* 1. Every pair of the kill matrix is the oracle's. */
    assert_int_equal(q1(sdb, "SELECT count(*) FROM matrices WHERE state = "
                             "'full' AND undecided = 0 AND unconfirmed = 0"),
                     1);
    assert_int_equal(sqlite3_prepare_v2(sdb,
                                        "SELECT notion, step, refuses FROM "
                                        "kills WHERE test_id = ?1 AND "
                                        "mutant = ?2", -1, &st, NULL),
                     SQLITE_OK);
    int64_t kills = 0;
    for (int i = 0; i < w.ntests; i++)
        for (int j = 0; j < w.nm; j++) {
            verdict v = w.res[(size_t)i * w.nm + j];
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, w.test_ids[i]);
            sqlite3_bind_int64(st, 2, w.mrow[j]);
            int row = sqlite3_step(st) == SQLITE_ROW;
            int rank = 0, step = -1, refuses = -1;
            if (row) {
                const char *n = (const char *)sqlite3_column_text(st, 0);
                rank = n && !strcmp(n, "potential") ? 1 : 2;
                step = sqlite3_column_int(st, 1);
                if (sqlite3_column_type(st, 2) != SQLITE_NULL)
                    refuses = sqlite3_column_int(st, 2);
            }
            if (rank != v.rank || (v.rank && (step != v.step ||
                                              refuses != v.refuses)))
                fail_msg("%s: test %lld on mutant %s: matrix rank %d step %d "
                         "refuses %d, oracle rank %d step %d refuses %d",
                         model, (long long)w.test_ids[i], w.mid[j], rank,
                         step, refuses, v.rank, v.step, v.refuses);
            kills += v.rank > 0;
        }
    sqlite3_finalize(st);
    assert_int_equal(q1(sdb, "SELECT count(*) FROM kills"), kills);

    /* 2. Each suite kills what the whole suite kills, as strongly. */
    int *best = calloc((size_t)w.nm + 1, sizeof *best);
    int killed = 0;
    for (int j = 0; j < w.nm; j++) {
        for (int i = 0; i < w.ntests; i++)
            if (w.res[(size_t)i * w.nm + j].rank > best[j])
                best[j] = w.res[(size_t)i * w.nm + j].rank;
        killed += best[j] > 0;
    }
    int *idx = calloc((size_t)w.ntests + 1, sizeof *idx), sizes[2];
    const char *names[2] = {"minimal", "minimal-exact"};
    for (int q = 0; q < 2; q++) {
        sizes[q] = suite_tests(sdb, &w, names[q], idx);
        assert_true(sizes[q] > 0);
        for (int j = 0; j < w.nm; j++) {
            int got = 0;
            for (int i = 0; i < sizes[q]; i++)
                if (w.res[(size_t)idx[i] * w.nm + j].rank > got)
                    got = w.res[(size_t)idx[i] * w.nm + j].rank;
            if (got != best[j])
                fail_msg("%s: suite %s: mutant %s killed with rank %d, the "
                         "whole suite %d", model, names[q], w.mid[j], got,
                         best[j]);
        }
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT mutants FROM suites WHERE name = "
                 "'%s'", names[q]);
        assert_int_equal(q1(sdb, sql), killed);
        snprintf(sql, sizeof sql, "SELECT tests FROM suites WHERE name = "
                 "'%s'", names[q]);
        assert_int_equal(q1(sdb, sql), sizes[q]);
    }
    assert_true(sizes[1] <= sizes[0]);
    assert_int_equal(q1(sdb, "SELECT optimal FROM suites WHERE name = "
                             "'minimal-exact'"), 1);
    printf("%s: %d tests x %d mutants, %d killed; greedy %d tests, exact "
           "%d\n", model, w.ntests, w.nm, killed, sizes[0], sizes[1]);

    free(best);
    free(idx);
    for (int i = 0; i < w.ntests; i++) {
        oracle_free(&w.orc[i]);
        mf_test_free(w.tests[i]);
    }
    free(w.orc);
    free(w.tests);
    free(w.test_ids);
    free(w.mid);
    free(w.mrow);
    free(w.res);
    mf_matrix_campaign_close(&c);
    mf_store_close(s);
    sh("rm -rf %s", dir);
}

static void test_minimize__beverage(void **state)
{
    (void)state;
    check_model("tests/models/beverage.smv", 8);
}

static void test_minimize__car_alarm(void **state)
{
    (void)state;
    check_model("tests/models/car_alarm.smv", 8);
}

static void test_minimize__refusals(void **state)
{
    (void)state;
    check_model("tests/models/refuse.smv", 8);
}

static void test_minimize__corpus_mutex(void **state)
{
    (void)state;
    check_model("tests/models/mutex.smv", 8);
}

static void test_minimize__corpus_crossroad(void **state)
{
    (void)state;
    check_model("tests/models/crossroad.smv", 8);
}

static void test_minimize__corpus_mutation_testing(void **state)
{
    (void)state;
    check_model("tests/models/mutation_testing.smv", 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimize__beverage),
        cmocka_unit_test(test_minimize__car_alarm),
        cmocka_unit_test(test_minimize__refusals),
        cmocka_unit_test(test_minimize__corpus_mutex),
        cmocka_unit_test(test_minimize__corpus_crossroad),
        cmocka_unit_test(test_minimize__corpus_mutation_testing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
