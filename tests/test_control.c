/* test_control.c - controllable non-determinism (model/control.h): the
 * beverage machine's drink becomes an input; kills need the tester to pick
 * the drink; an equivalence under control holds for the model as it is
 * (checked with the explicit-state explorer on the original models). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "encode.h"
#include "engine.h"
#include "explore.h"
#include "model.h"
#include "mutate.h"
#include "langs.h"

static mf_model *load_beverage(void)
{
    mf_model *m = NULL;
    const char *obs[1] = {"out"};
    mf_model_opts o = {.observe = obs, .nobserve = 1};
    if (mf_model_load_file(&m, "tests/models/beverage.smv", &o) < 0)
        fail_msg("%s", mf_err_msg());
    return m;
}

static int next_of(const mf_model *m, const char *var)
{
    for (int i = 0; i < m->nitems; i++)
        if (m->items[i].kind == MF_IT_NEXT &&
            !strcmp(m->vars[m->items[i].var].name, var))
            return i;
    fail_msg("no next(%s)", var);
    return -1;
}

/* A controlled kill: next(var)'s second case branch becomes the constant
 * sym, the mutant is checked under control up to bound, and it must be a
 * deterministic kill that replays. The caller reads v, t and tm, then
 * frees them with controlled_free. */
typedef struct {
    mf_control *c;
    const mf_model *t; /* the controlled original */
    mf_model *tm;      /* the controlled mutant */
    mf_verdict v;
} controlled;

static void controlled_kill(controlled *k, mf_model *m, const char *var,
                            const char *sym, int bound)
{
    int item = next_of(m, var);
    mf_item it = m->items[item];
    it.e = mf_expr_copy(m->arena, it.e);
    mf_expr *x = mf_expr_new(m->arena, MF_E_SYM, 0, 0);
    x->name = sym;
    it.e->kids[1] = x;
    const mf_item *alts[1] = {&it};
    memset(k, 0, sizeof *k);
    assert_int_equal(mf_control_new(&k->c, m, 1, &item, alts), 0);
    k->t = mf_control_model(k->c);
    const mf_item *cit = mf_control_item(k->c, item, &it);
    assert_int_equal(mf_model_replace_item(&k->tm, k->t, item, cit), 0);
    mf_engine_mutant mu = {item, cit, k->tm};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = bound;
    assert_int_equal(mf_engine_check(k->t, &mu, 1, &o, &k->v), 0);
    assert_int_equal(k->v.kind, MF_V_KILLED);
    assert_int_equal(k->v.notion, MF_N_DETERMINISTIC);
    assert_int_equal(mf_engine_replay(k->t, k->tm, k->v.test, k->v.notion),
                     0);
}

static void controlled_free(controlled *k)
{
    mf_verdict_clear(&k->v);
    mf_model_free(k->tm);
    mf_control_free(k->c);
}

static void test_control__the_drink_becomes_an_input_of_its_type(
    void **state)
{
    (void)state;
    mf_model *m = load_beverage();
    assert_int_equal(mf_model_structurally_det(m), 0);
    mf_control *c = NULL;
    assert_int_equal(mf_control_new(&c, m, 0, NULL, NULL), 0);
    const mf_model *t = mf_control_model(c);
    assert_int_equal(mf_control_ninputs(c), 1);
    assert_int_equal(t->nvars, m->nvars + 1);
    const mf_var *nd = &t->vars[m->nvars];
    assert_string_equal(nd->name, "nd_out_0");
    assert_int_equal(nd->decl, MF_DECL_IVAR);
    assert_true(nd->is_input);
    assert_false(nd->is_observable);
    const mf_var *out = &t->vars[mf_model_find_var(t, "out")];
    assert_int_equal(nd->type->nvals, out->type->nvals);
    assert_int_equal(t->nslots, m->nslots + 1);
    /* The drink was the only choice. */
    assert_int_equal(mf_model_structurally_det(t), 1);
    mf_control_free(c);
    mf_model_free(m);
}

/* Serving coffee only: no behaviour the original lacks, so equivalent as
 * the model is (test_engine); under control the tester asks for tea and
 * gets coffee, a deterministic kill of length 1. */
static void test_control__coffee_only_is_killed_when_tea_is_asked_for(
    void **state)
{
    (void)state;
    mf_model *m = load_beverage();
    controlled k;
    controlled_kill(&k, m, "out", "coff", 6);
    assert_int_equal(k.v.test->length, 1);
    int nd = mf_model_find_var(k.t, "nd_out_0");
    mf_val x = k.v.test->inputs[(size_t)k.v.test->nslots +
                                k.t->vars[nd].slot];
    assert_true(MF_IS_SYM(x));
    assert_string_equal(k.t->syms[x - MF_SYM_BASE], "tea");
    controlled_free(&k);
    mf_model_free(m);
}

/* A union of a plain value and a constant (abp4.smv: `i.tag union
 * error`) is a set of two values: under control the tester picks one.
 * Passing an error on is equivalent as the model is (it may always do
 * it), and killed under control when the tester asks for the value. */
static void test_control__a_union_of_plain_values_becomes_a_choice(
    void **state)
{
    (void)state;
    static const char text[] =
        "MODULE main\n"
        "IVAR i : {mt, ack, data};\n"
        "VAR o : {mt, ack, data, error};\n"
        "ASSIGN\n"
        "  init(o) := mt;\n"
        "  next(o) := case\n"
        "      o = mt & !(i = mt) : i union error;\n"
        "      TRUE : o;\n"
        "    esac;\n";
    mf_model *m = NULL;
    const char *obs[1] = {"o"};
    mf_model_opts mo = {.observe = obs, .nobserve = 1};
    if (mf_model_load(&m, "union.smv", text, sizeof text - 1, &mo) < 0)
        fail_msg("%s", mf_err_msg());
    assert_int_equal(mf_model_structurally_det(m), 0);
    controlled k;
    controlled_kill(&k, m, "o", "error", 4);
    assert_int_equal(mf_control_ninputs(k.c), 1);
    assert_int_equal(mf_model_structurally_det(k.t), 1);
    controlled_free(&k);
    mf_model_free(m);
}

typedef struct {
    mf_arena *a;
    MF_VEC(int) item;
    MF_VEC(const mf_item *) repl;
} muts;

static int keep(const mf_mutant *mu, void *ctx)
{
    muts *k = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    mf_item *it = NULL;
    if (mu->new_item) {
        it = mf_arena_alloc(k->a, sizeof *it);
        mf_item_copy(k->a, it, mu->new_item);
    }
    MF_VEC_PUSH(k->item, mu->item);
    MF_VEC_PUSH(k->repl, it);
    return 0;
}

/* Every mutant of the beverage machine: an equivalence proved under
 * control is one of the model as it is (the explorer, on the original and
 * the mutant without control, finds no potential kill), and a kill of the
 * model as it is stays a kill under control. */
static void test_control__equivalent_under_control_is_equivalent(
    void **state)
{
    (void)state;
    mf_model *m = load_beverage();
    muts k = {mf_arena_new(), {0}, {0}};
    assert_int_equal(mf_mutants_each(m, 0, keep, &k), 0);
    int n = k.item.n;
    assert_true(n > 50);
    mf_control *c = NULL;
    assert_int_equal(mf_control_new(&c, m, n, k.item.v, k.repl.v), 0);
    const mf_model *t = mf_control_model(c);
    mf_engine_mutant *mu = calloc((size_t)n, sizeof *mu);
    mf_model **orig_mut = calloc((size_t)n, sizeof *orig_mut);
    for (int j = 0; j < n; j++) {
        mu[j].item = k.item.v[j];
        mu[j].repl = mf_control_item(c, k.item.v[j], k.repl.v[j]);
        mf_model *tm = NULL;
        assert_int_equal(
            mf_model_replace_item(&tm, t, mu[j].item, mu[j].repl), 0);
        mu[j].mutated = tm;
        assert_int_equal(mf_model_replace_item(&orig_mut[j], m, k.item.v[j],
                                               k.repl.v[j]),
                         0);
    }
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 8;
    mf_verdict *v = calloc((size_t)n, sizeof *v);
    assert_int_equal(mf_engine_check(t, mu, n, &o, v), 0);
    int equivalent = 0, killed = 0;
    for (int j = 0; j < n; j++) {
        mf_explore_result r;
        assert_int_equal(mf_explore(&r, m, orig_mut[j], MF_EXPLORE_POTENTIAL,
                                    0, 0),
                         0);
        if (v[j].kind == MF_V_EQUIVALENT) {
            equivalent++;
            assert_int_equal(r.potential.verdict, MF_XV_NOT_KILLABLE);
        }
        if (r.potential.verdict == MF_XV_KILLED) {
            killed++;
            assert_int_equal(v[j].kind, MF_V_KILLED);
        }
        mf_explore_result_free(&r);
        mf_verdict_clear(&v[j]);
        mf_model_free((mf_model *)mu[j].mutated);
        mf_model_free(orig_mut[j]);
    }
    assert_true(equivalent > 0);
    assert_true(killed > 0);
    free(v);
    free(mu);
    free(orig_mut);
    mf_control_free(c);
    MF_VEC_FREE(k.item);
    MF_VEC_FREE(k.repl);
    mf_arena_free(k.a);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_control__the_drink_becomes_an_input_of_its_type),
        cmocka_unit_test(
            test_control__coffee_only_is_killed_when_tea_is_asked_for),
        cmocka_unit_test(
            test_control__equivalent_under_control_is_equivalent),
        cmocka_unit_test(
            test_control__a_union_of_plain_values_becomes_a_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
