/* test_eval.c - the evaluator (model/eval.c): NuSMV's arithmetic, sets,
 * case and in, what it does with its output on an error, and
 * non-deterministic case conditions, on a model of DEFINEs evaluated at
 * hand-picked states. */
#include "sim_fixtures.h"

/* ---- the evaluator --------------------------------------------------------
 */

/* DEFINEs over x, evaluated with mf_eval at x = -7 and x = 0. */
static const char eval_model[] =
    "MODULE main\n"
    "VAR x : -8..8; b : boolean;\n"
    "DEFINE\n"
    "  dv := x / 2;\n"
    "  md := x mod 3;\n"
    "  mdn := 7 mod (x + 4);\n"
    "  inv := 10 / x;\n"
    "  guarded := x != 0 & 10 / x > 2;\n"
    "  nd := case b : {1, 2}; x < 0 : 5 .. 6; TRUE : 9; esac;\n"
    "  mem := x in {-7, 1} union {3};\n"
    "  setin := {x, 3} in {3};\n"
    "  cnt := count(b, x < 0, TRUE);\n"
    "  fns := max(abs(x), toint(b)) + min(x, 2);\n"
    "  bl := bool(x);\n"
    "  ite := x > 0 ? 1 : {2, 4};\n";

static void eval_define(mf_valset *out, const mf_model *m, const char *name,
                        const mf_val *st)
{
    int d = mf_model_find_define(m, name);
    assert_true(d >= 0);
    out->n = 0;
    assert_int_equal(mf_eval(out, m, m->items[d].e, st, NULL, st, 1000), 0);
}

static void assert_set(const mf_valset *s, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    assert_int_equal(s->n, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(s->v[i], va_arg(ap, int));
    va_end(ap);
}

static void test_eval__arithmetic_follows_nusmv(void **state)
{
    (void)state;
    mf_model *m = load_text(eval_model, NULL, 0);
    mf_val *st = vec(m);
    mf_valset s = {0};
    st[slot_of(m, "x")] = -7;
    st[slot_of(m, "b")] = 1;
    eval_define(&s, m, "dv", st); /* -7 / 2 truncates toward zero */
    assert_set(&s, 1, -3);
    eval_define(&s, m, "md", st); /* -7 - 3 * (-7 / 3) = -7 + 6 */
    assert_set(&s, 1, -1);
    eval_define(&s, m, "mdn", st); /* 7 mod -3 = 7 - (-3)(-2) = 1 */
    assert_set(&s, 1, 1);
    eval_define(&s, m, "fns", st); /* max(7, 1) + min(-7, 2) = 0 */
    assert_set(&s, 1, 0);
    eval_define(&s, m, "cnt", st); /* b, x < 0, TRUE */
    assert_set(&s, 1, 3);
    eval_define(&s, m, "bl", st);
    assert_set(&s, 1, 1);
    eval_define(&s, m, "mem", st);
    assert_set(&s, 1, 1);
    st[slot_of(m, "x")] = 0;
    eval_define(&s, m, "inv", st); /* division by zero: no value */
    assert_set(&s, 0);
    eval_define(&s, m, "guarded", st); /* the guard protects the division */
    assert_set(&s, 1, 0);
    eval_define(&s, m, "mem", st);
    assert_set(&s, 1, 0);
    eval_define(&s, m, "bl", st);
    assert_set(&s, 1, 0);
    st[slot_of(m, "x")] = -4;
    eval_define(&s, m, "mdn", st); /* 7 mod 0 */
    assert_set(&s, 0);
    MF_VEC_FREE(s);
    release(m, st, NULL, NULL);
}

static void test_eval__sets_case_and_in(void **state)
{
    (void)state;
    mf_model *m = load_text(eval_model, NULL, 0);
    mf_val *st = vec(m);
    mf_valset s = {0};
    st[slot_of(m, "x")] = -1;
    st[slot_of(m, "b")] = 1;
    eval_define(&s, m, "nd", st); /* first true branch: b */
    assert_set(&s, 2, 1, 2);
    st[slot_of(m, "b")] = 0;
    eval_define(&s, m, "nd", st);
    assert_set(&s, 2, 5, 6);
    st[slot_of(m, "x")] = 1;
    eval_define(&s, m, "nd", st);
    assert_set(&s, 1, 9);
    eval_define(&s, m, "setin", st); /* 1 in {3}: F, 3 in {3}: T */
    assert_set(&s, 2, 0, 1);
    eval_define(&s, m, "ite", st);
    assert_set(&s, 1, 1);
    st[slot_of(m, "x")] = 0;
    eval_define(&s, m, "ite", st);
    assert_set(&s, 2, 2, 4);
    MF_VEC_FREE(s);
    release(m, st, NULL, NULL);
}

/* mf_eval appends after what out holds and leaves that alone; on an error it
 * leaves out as it was (the evaluator works in out's tail). */
static void test_eval__appends_and_keeps_out_on_error(void **state)
{
    (void)state;
    mf_model *m = load_text(eval_model, NULL, 0);
    mf_val *st = vec(m);
    mf_valset s = {0};
    int d = mf_model_find_define(m, "nd");
    assert_true(d >= 0);
    st[slot_of(m, "x")] = -1;
    st[slot_of(m, "b")] = 0;
    MF_VEC_PUSH(s, 9);
    MF_VEC_PUSH(s, 3);
    assert_int_equal(mf_eval(&s, m, m->items[d].e, st, NULL, st, 1000), 0);
    assert_set(&s, 4, 9, 3, 5, 6);
    /* 5 .. 6 is past a limit of 1 value, after being built in out. */
    assert_int_equal(mf_eval(&s, m, m->items[d].e, st, NULL, st, 1), MF_ELIMIT);
    assert_set(&s, 4, 9, 3, 5, 6);
    MF_VEC_FREE(s);
    release(m, st, NULL, NULL);
}

/* A condition that may be TRUE or FALSE takes its branch and the later
 * ones. */
static void test_eval__nondeterministic_case_condition(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR x : 0..9;\n"
                               "DEFINE d := case {TRUE, FALSE} : 1; x = 0 : "
                               "2; TRUE : 3; esac;\n";
    mf_model *m = load_text(text, NULL, 0);
    mf_val *st = vec(m);
    mf_valset s = {0};
    eval_define(&s, m, "d", st); /* x = 0: 1 or 2 */
    assert_set(&s, 2, 1, 2);
    st[slot_of(m, "x")] = 5;
    eval_define(&s, m, "d", st); /* 1 or 3 */
    assert_set(&s, 2, 1, 3);
    MF_VEC_FREE(s);
    release(m, st, NULL, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval__arithmetic_follows_nusmv),
        cmocka_unit_test(test_eval__sets_case_and_in),
        cmocka_unit_test(test_eval__appends_and_keeps_out_on_error),
        cmocka_unit_test(test_eval__nondeterministic_case_condition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
