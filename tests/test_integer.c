/* test_integer.c - unbounded `integer` (docs/smv.md, Integers): read and
 * printed back, inputs where no assignment gives a value, the simulator's
 * overflow an error and never a refusal or a wrong value, the explicit-state
 * enumeration bowing out, and the Z3 engine deciding the mutants with kills
 * the simulator replays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "model.h"
#include "mutate.h"
#include "sim.h"
#include "langs.h"

#define ACC "tests/models/int_acc.smv"

static mf_model *load_file(const char *path)
{
    mf_model *m = NULL;
    if (mf_model_load_file(&m, path, NULL))
        fail_msg("%s refused: %s", path, mf_err_msg());
    return m;
}

static const mf_var *var(const mf_model *m, const char *name)
{
    int v = mf_model_find_var(m, name);
    if (v < 0)
        fail_msg("no variable %s", name);
    return &m->vars[v];
}

static void test_integer__read_printed_back_and_inputs(void **state)
{
    (void)state;
    mf_model *m = load_file(ACC);
    assert_true(var(m, "i")->is_input);
    assert_true(var(m, "e")->is_input); /* no assignment: the tester's */
    assert_false(var(m, "acc")->is_input);
    assert_true(var(m, "acc")->type->unbounded);
    mf_buf b = {0};
    mf_print_model(&b, m);
    assert_non_null(strstr(b.data, "acc : integer;"));
    mf_model *m2 = NULL;
    assert_int_equal(mf_model_load(&m2, "p.smv", b.data, b.len, NULL), 0);
    assert_string_equal(m->hash, m2->hash);
    mf_val *dv = NULL;
    int dn = 0;
    assert_int_equal(mf_type_domain(var(m, "acc")->type, &dv, &dn),
                     MF_ELIMIT);
    assert_non_null(strstr(mf_err_msg(), "unbounded integer"));
    mf_buf_free(&b);
    mf_model_free(m2);
    mf_model_free(m);
}

static void test_integer__overflow_is_an_error_not_a_refusal(void **state)
{
    (void)state;
    mf_model *m = load_file(ACC);
    size_t n = (size_t)m->nslots;
    mf_val *s0 = calloc(n, sizeof *s0), *s1 = calloc(n, sizeof *s1);
    mf_val *s2 = calloc(n, sizeof *s2), *inp = calloc(n, sizeof *inp);
    assert_int_equal(mf_sim_initial(s0, m, inp, 0), 0);
    inp[var(m, "i")->slot] = MF_INT_UNBOUNDED - 1;
    assert_int_equal(mf_sim_step(s1, m, s0, inp, 0), 0);
    assert_true(s1[var(m, "acc")->slot] == MF_INT_UNBOUNDED - 1);
    assert_int_equal(s1[var(m, "big")->slot], 1);
    /* one more: past the simulator's integers */
    inp[var(m, "i")->slot] = 2;
    assert_int_equal(mf_sim_step(s2, m, s1, inp, 0), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "integer overflow"));
    /* past MF_SYM_BASE (2^40) inside an expression: an error as well */
    const char *mul = "MODULE main\nIVAR i : integer;\nVAR a : integer;\n"
                      "ASSIGN init(a) := 3; next(a) := (i * i) mod 7;\n";
    mf_model *mm = NULL;
    assert_int_equal(mf_model_load(&mm, "t.smv", mul, strlen(mul), NULL), 0);
    mf_val *t0 = calloc((size_t)mm->nslots, sizeof *t0);
    mf_val *t1 = calloc((size_t)mm->nslots, sizeof *t1);
    mf_val *ti = calloc((size_t)mm->nslots, sizeof *ti);
    assert_int_equal(mf_sim_initial(t0, mm, ti, 0), 0);
    ti[var(mm, "i")->slot] = 1000000;
    assert_int_equal(mf_sim_step(t1, mm, t0, ti, 0), 0);
    assert_int_equal(t1[var(mm, "a")->slot], (1000000LL * 1000000) % 7);
    ti[var(mm, "i")->slot] = MF_INT_UNBOUNDED;
    assert_int_equal(mf_sim_step(t1, mm, t0, ti, 0), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "integer overflow"));
    free(t0);
    free(t1);
    free(ti);
    mf_model_free(mm);
    free(s0);
    free(s1);
    free(s2);
    free(inp);
    mf_model_free(m);
}

/* A FROZENVAR integer without init(): its initial value is an input,
 * kept by every step (pono's combined-true). */
static void test_integer__frozen_initial_value_is_an_input(void **state)
{
    (void)state;
    const char *text = "MODULE main\nVAR x : integer; b : boolean;\n"
                       "FROZENVAR v : integer;\nINIT !b;\n"
                       "TRANS next(b) = (x + v >= 5);\nTRANS v = 0;\n";
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "t.smv", text, strlen(text), NULL), 0);
    assert_true(var(m, "v")->is_input);
    assert_true(var(m, "x")->is_input);
    size_t n = (size_t)m->nslots;
    mf_val *s0 = calloc(n, sizeof *s0), *s1 = calloc(n, sizeof *s1);
    mf_val *inp = calloc(n, sizeof *inp);
    int vs = var(m, "v")->slot, xs = var(m, "x")->slot;
    inp[vs] = 3;
    assert_int_equal(mf_sim_initial(s0, m, inp, 0), 0);
    assert_int_equal(s0[vs], 3);
    /* TRANS v = 0: no successor from v = 3 */
    inp[xs] = 9;
    assert_int_equal(mf_sim_step(s1, m, s0, inp, 0), MF_EREFUSED);
    inp[vs] = 0;
    assert_int_equal(mf_sim_initial(s0, m, inp, 0), 0);
    inp[vs] = 7; /* a step does not set a FROZENVAR */
    assert_int_equal(mf_sim_step(s1, m, s0, inp, 0), 0);
    assert_int_equal(s1[vs], 0);
    assert_int_equal(s1[var(m, "b")->slot], 1);
    free(s0);
    free(s1);
    free(inp);
    mf_model_free(m);
}

typedef struct {
    const mf_model *m;
    int n;
    int item[256];
    mf_item *repl[256];
    mf_model *mutated[256];
} muts;

static int collect(const mf_mutant *mu, void *vctx)
{
    muts *c = vctx;
    if (mu->status != MF_MUT_OK || c->n == 256)
        return 0;
    mf_model *mm = NULL;
    assert_int_equal(mf_mutant_apply(&mm, c->m, mu), 0);
    c->item[c->n] = mu->item;
    c->repl[c->n] = mu->new_item ? &mm->items[mu->item] : NULL;
    c->mutated[c->n++] = mm;
    return 0;
}

static void test_integer__engine_decides_and_kills_replay(void **state)
{
    (void)state;
    mf_model *m = load_file(ACC);
    muts *c = calloc(1, sizeof *c);
    c->m = m;
    assert_int_equal(mf_mutants_each(m, 0, collect, c), 0);
    mf_engine_mutant *em = calloc((size_t)c->n, sizeof *em);
    for (int i = 0; i < c->n; i++)
        em[i] = (mf_engine_mutant){c->item[i], c->repl[i], c->mutated[i]};
    mf_verdict *v = calloc((size_t)c->n, sizeof *v);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 4;
    assert_int_equal(mf_engine_check(m, em, c->n, &o, v), 0);
    int killed = 0, unknown = 0;
    for (int i = 0; i < c->n; i++) {
        if (v[i].kind == MF_V_KILLED) {
            killed++;
            if (mf_engine_replay(m, c->mutated[i], v[i].test, v[i].notion))
                fail_msg("kill %d does not replay: %s", i, mf_err_msg());
        } else if (v[i].kind == MF_V_UNKNOWN || v[i].kind == MF_V_ERROR) {
            /* only where the simulator's integers end: the free value of
             * a removed assignment, or an overflow */
            unknown++;
            if (!strstr(v[i].reason, "unbounded integer") &&
                !strstr(v[i].reason, "integer overflow"))
                fail_msg("mutant %d: %s", i, v[i].reason);
        }
    }
    print_message("# %s: %d mutants, %d killed, %d unknown or error\n", ACC,
                  c->n, killed, unknown);
    assert_true(killed >= c->n / 2);
    for (int i = 0; i < c->n; i++) {
        mf_verdict_clear(&v[i]);
        mf_model_free(c->mutated[i]);
    }
    free(v);
    free(em);
    free(c);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer__read_printed_back_and_inputs),
        cmocka_unit_test(test_integer__overflow_is_an_error_not_a_refusal),
        cmocka_unit_test(test_integer__frozen_initial_value_is_an_input),
        cmocka_unit_test(test_integer__engine_decides_and_kills_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
