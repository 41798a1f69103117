/* test_quant.c - the paper's quantified encoding (worker/quant.h), the
 * engine used only to compare with refinement: on the beverage machine
 * (observing `out` only, as the paper does), the refill-1 mutant is
 * definitely killed at length 5, the {1,2} refill is potentially but not
 * definitely killable; every test is replayed by the simulator.
 *
 * MF_QUANT_BENCH=1 (optionally MF_QUANT_CMIN / MF_QUANT_CMAX, default 2 / 6;
 * MF_QUANT_CAP
 * seconds, default 60; MF_QUANT_ENCODING int|bv, default auto) also
 * prints the time of the definite kill of
 * beverage(C) vs its refill-(C-1) mutant for C = 2..CMAX: the search over
 * every length 0..2C+1, and the single query at length 2C+1 (the paper's
 * instance). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "model.h"
#include "quant.h"
#include "langs.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static mf_model *load_text(const char *name, const char *text)
{
    mf_model *m = NULL;
    const char *obs[1] = {"out"};
    mf_model_opts o = {0};
    o.observe = obs;
    o.nobserve = 1;
    if (mf_model_load(&m, name, text, strlen(text), &o) < 0)
        fail_msg("%s", mf_err_msg());
    return m;
}

/* beverage_gen.sh C R: the generator's output as a model (a copy of the
 * shared seed's generator; the tests run in the source directory). */
static mf_model *gen(int cap, const char *refill)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sh tests/models/beverage_gen.sh %d '%s'", cap,
             refill);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    mf_buf b = {0};
    char line[256];
    while (fgets(line, sizeof line, p))
        mf_buf_puts(&b, line);
    assert_int_equal(pclose(p), 0);
    assert_true(b.len > 0);
    char name[64];
    snprintf(name, sizeof name, "beverage_%d_%s.smv", cap, refill);
    mf_model *m = load_text(name, b.data);
    mf_buf_free(&b);
    return m;
}

static mf_model *load_file(const char *path)
{
    mf_model *m = NULL;
    const char *obs[1] = {"out"};
    mf_model_opts o = {0};
    o.observe = obs;
    o.nobserve = 1;
    if (mf_model_load_file(&m, path, &o) < 0)
        fail_msg("%s", mf_err_msg());
    return m;
}

static const char *step_input(const mf_model *m, const mf_test *t, int k)
{
    int v = mf_model_find_var(m, "inp");
    mf_val x = t->inputs[(size_t)k * t->nslots + m->vars[v].slot];
    return MF_IS_SYM(x) ? m->syms[x - MF_SYM_BASE] : "?";
}

static void opts(mf_engine_opts *o, int bound)
{
    mf_engine_opts_default(o);
    o->bound = bound;
    o->timeout_ms = 60000;
}

/* The paper's shortest definite kill: req, req, fill, req, req. */
static void expect_paper_test(const mf_model *m, const mf_test *t)
{
    assert_int_equal(t->length, 5);
    const char *want[] = {"req", "req", "fill", "req", "req"};
    for (int k = 1; k <= 5; k++)
        assert_string_equal(step_input(m, t, k), want[k - 1]);
}

static void test_quant__refill_mutant_definitely_killed_against(void **state)
{
    (void)state;
    mf_model *m = gen(2, "2"), *mm = gen(2, "1");
    mf_engine_mutant mu = {-1, NULL, mm};
    mf_engine_opts o;
    opts(&o, 7);
    mf_test *t = NULL;
    char why[256] = "";
    int r = mf_quant_check(m, &mu, 1, &o, 1, 0, &t, why, sizeof why);
    if (r < 0)
        fail_msg("unknown: %s", why);
    assert_int_equal(r, 1);
    expect_paper_test(m, t);
    if (mf_engine_replay(m, mm, t, MF_N_DEFINITE) != 0)
        fail_msg("replay: %s", mf_err_msg());
    /* Locally adaptive after the replay: coffee or tea at the end. */
    assert_int_equal(t->nallowed[5], 2);
    mf_test_free(t);
    mf_model_free(mm);
    mf_model_free(m);
}

/* The same mutant as a variant of the bundled model: the meta copy reads
 * the replaced item under the selector. */
static void test_quant__refill_mutant_definitely_killed_as_variant(
    void **state)
{
    (void)state;
    mf_model *m = load_file("tests/models/beverage.smv");
    int item = -1;
    for (int i = 0; i < m->nitems; i++)
        if (m->items[i].kind == MF_IT_NEXT &&
            !strcmp(m->vars[m->items[i].var].name, "wtr"))
            item = i;
    assert_true(item >= 0);
    mf_item it = m->items[item];
    it.e = mf_expr_copy(m->arena, it.e);
    assert_int_equal(it.e->kind, MF_E_CASE);
    it.e->kids[1] = mf_expr_int(m->arena, 1, 0, 0);
    mf_model *mm = NULL;
    assert_int_equal(mf_model_replace_item(&mm, m, item, &it), 0);
    mf_engine_mutant mu = {item, &it, mm};
    mf_engine_opts o;
    opts(&o, 7);
    mf_test *t = NULL;
    char why[256] = "";
    int r = mf_quant_check(m, &mu, 0, &o, 1, 0, &t, why, sizeof why);
    if (r < 0)
        fail_msg("unknown: %s", why);
    assert_int_equal(r, 1);
    expect_paper_test(m, t);
    if (mf_engine_replay(m, mm, t, MF_N_DEFINITE) != 0)
        fail_msg("replay: %s", mf_err_msg());
    mf_test_free(t);

    /* Potential killing finds the same shortest test. */
    r = mf_quant_check(m, &mu, 0, &o, 0, 0, &t, why, sizeof why);
    if (r < 0)
        fail_msg("unknown: %s", why);
    assert_int_equal(r, 1);
    assert_int_equal(t->length, 5);
    assert_int_equal(t->mrefuses, -1);
    if (mf_engine_replay(m, mm, t, MF_N_POTENTIAL) != 0)
        fail_msg("replay: %s", mf_err_msg());
    mf_test_free(t);
    mf_model_free(mm);
    mf_model_free(m);
}

static void test_quant__nondeterministic_refill_potentially_not_definitely(
    void **state)
{
    (void)state;
    mf_model *m = gen(2, "2"), *mm = gen(2, "{1, 2}");
    mf_engine_mutant mu = {-1, NULL, mm};
    mf_engine_opts o;
    opts(&o, 7);
    mf_test *t = NULL;
    char why[256] = "";
    int r = mf_quant_check(m, &mu, 1, &o, 1, 0, &t, why, sizeof why);
    if (r < 0)
        fail_msg("unknown: %s", why);
    assert_int_equal(r, 0); /* not definitely killable up to 7 */
    assert_null(t);

    r = mf_quant_check(m, &mu, 1, &o, 0, 0, &t, why, sizeof why);
    if (r < 0)
        fail_msg("unknown: %s", why);
    assert_int_equal(r, 1);
    expect_paper_test(m, t);
    assert_non_null(t->mobs);
    if (mf_engine_replay(m, mm, t, MF_N_POTENTIAL) != 0)
        fail_msg("replay: %s", mf_err_msg());
    /* Not a definite kill: the replay says so. */
    assert_int_not_equal(mf_engine_replay(m, mm, t, MF_N_DEFINITE), 0);
    mf_test_free(t);
    mf_model_free(mm);
    mf_model_free(m);
}

/* A refusal: the mutant's TRANS forbids a second fill; the original
 * accepts it. Potentially killed by refusing step 2 (fill, fill). */
static void test_quant__mutant_refusal_is_a_potential_kill(void **state)
{
    (void)state;
    const char *orig =
        "MODULE main\n"
        "IVAR\n  inp : {none, fill};\n"
        "VAR\n  n : 0..3;\n  out : {eps, ok};\n"
        "ASSIGN\n  init(n) := 0;\n  init(out) := eps;\n"
        "  next(out) := case inp = fill : {eps, ok}; TRUE : eps; esac;\n"
        "  next(n) := case inp = fill & n < 3 : n + 1; TRUE : n; esac;\n";
    char mut[1024];
    snprintf(mut, sizeof mut, "%sTRANS\n  inp = fill -> n < 1\n", orig);
    mf_model *m = load_text("o.smv", orig), *mm = load_text("m.smv", mut);
    mf_engine_mutant mu = {-1, NULL, mm};
    mf_engine_opts o;
    opts(&o, 4);
    mf_test *t = NULL;
    char why[256] = "";
    int r = mf_quant_check(m, &mu, 1, &o, 0, 0, &t, why, sizeof why);
    if (r < 0)
        fail_msg("unknown: %s", why);
    assert_int_equal(r, 1);
    assert_int_equal(t->length, 2);
    assert_int_equal(t->mrefuses, 2);
    if (mf_engine_replay(m, mm, t, MF_N_POTENTIAL) != 0)
        fail_msg("replay: %s", mf_err_msg());
    mf_test_free(t);
    mf_model_free(mm);
    mf_model_free(m);
}

/* MF_QUANT_BENCH: seconds per capacity (one line per C). */
static void test_quant__bench_capacity(void **state)
{
    (void)state;
    if (!getenv("MF_QUANT_BENCH"))
        skip();
    int cmax = getenv("MF_QUANT_CMAX") ? atoi(getenv("MF_QUANT_CMAX")) : 6;
    int cap = getenv("MF_QUANT_CAP") ? atoi(getenv("MF_QUANT_CAP")) : 60;
    printf("%-3s %-5s %-34s %-34s\n", "C", "len", "search 0..2C+1",
           "single query at 2C+1");
    int cmin = getenv("MF_QUANT_CMIN") ? atoi(getenv("MF_QUANT_CMIN")) : 2;
    for (int c = cmin < 2 ? 2 : cmin; c <= cmax; c++) {
        char r1[16];
        snprintf(r1, sizeof r1, "%d", c);
        char r2[16];
        snprintf(r2, sizeof r2, "%d", c - 1);
        mf_model *m = gen(c, r1), *mm = gen(c, r2);
        mf_engine_mutant mu = {-1, NULL, mm};
        mf_engine_opts o;
        opts(&o, 2 * c + 1);
        o.timeout_ms = (unsigned)cap * 1000u;
        const char *enc = getenv("MF_QUANT_ENCODING");
        if (enc && !strcmp(enc, "int"))
            o.encoding = MF_ENCODING_INT;
        else if (enc && !strcmp(enc, "bv"))
            o.encoding = MF_ENCODING_BV;
        char col[2][64];
        for (int w = 0; w < 2; w++) {
            mf_test *t = NULL;
            char why[256] = "";
            double t0 = now();
            int r = mf_quant_check(m, &mu, 1, &o, 1, w ? 2 * c + 1 : 0, &t,
                                   why, sizeof why);
            double dt = now() - t0;
            if (r == 1 && mf_engine_replay(m, mm, t, MF_N_DEFINITE) != 0) {
                r = -2;
                mf_buf tb = {0};
                mf_test_print(&tb, m, t);
                printf("C=%d: replay: %s\n%s", c, mf_err_msg(), tb.data);
                mf_buf_free(&tb);
            }
            if (r == 1)
                snprintf(col[w], sizeof col[w], "%.2fs killed len %d", dt,
                         t->length);
            else if (r == 0)
                snprintf(col[w], sizeof col[w], "%.2fs no kill", dt);
            else if (r == -2)
                snprintf(col[w], sizeof col[w], "%.2fs REPLAY FAILED", dt);
            else
                snprintf(col[w], sizeof col[w], "%.2fs unknown (%.30s)", dt,
                         strstr(why, "z3") ? strstr(why, "z3") : why);
            mf_test_free(t);
        }
        printf("%-3d %-5d %-34s %-34s\n", c, 2 * c + 1, col[0], col[1]);
        fflush(stdout);
        mf_model_free(mm);
        mf_model_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quant__refill_mutant_definitely_killed_against),
        cmocka_unit_test(
            test_quant__refill_mutant_definitely_killed_as_variant),
        cmocka_unit_test(
            test_quant__nondeterministic_refill_potentially_not_definitely),
        cmocka_unit_test(test_quant__mutant_refusal_is_a_potential_kill),
        cmocka_unit_test(test_quant__bench_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
