/* test_rerun_cone.c - which verdicts an edit cannot touch
 * (coordinator/rerun_cone.h): on inline models and their edits, every
 * mutant whose verdict is carried is decided by the explicit-state
 * explorer before and after the edit, and the answers must be the same
 * (killable or not under each notion, and the shortest kill's length);
 * and the edits that must carry nothing (a refusing edited assignment, a
 * changed constraint, an edit in every cone) carry nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "langs.h"
#include "mutate.h"
#include "rerun_cone.h"

/* A deterministic controller: st reads the input, the outputs read st. */
static const char *CTRL =
    "MODULE main\n"
    "IVAR\n"
    "  ev : {none, go, stop};\n"
    "VAR\n"
    "  st : {idle, run, halt};\n"
    "  lamp : boolean;\n"
    "  cnt : 0..3;\n"
    "ASSIGN\n"
    "  init(st) := idle;\n"
    "  next(st) := case\n"
    "      st = idle & ev = go : run;\n"
    "      st = run & ev = stop : halt;\n"
    "      st = halt & ev = go : idle;\n"
    "      TRUE : st;\n"
    "    esac;\n"
    "  init(lamp) := FALSE;\n"
    "  next(lamp) := next(st) = run;\n"
    "  init(cnt) := 0;\n"
    "  next(cnt) := case st = run & cnt < 3 : cnt + 1; TRUE : cnt;"
    " esac;\n";

/* A non-deterministic one: h is hidden (only x is observed) and chosen
 * freely; y reads it. */
static const char *HIDDEN =
    "MODULE main\n"
    "VAR\n"
    "  x : 0..3;\n"
    "  h : boolean;\n"
    "  y : boolean;\n"
    "ASSIGN\n"
    "  init(x) := 0;\n"
    "  next(x) := case h : (x + 1) mod 4; TRUE : x; esac;\n"
    "  init(h) := FALSE;\n"
    "  next(h) := case x = 3 : FALSE; TRUE : {TRUE, FALSE}; esac;\n"
    "  init(y) := FALSE;\n"
    "  next(y) := h;\n";

static const char *observe_xy[] = {"x", "y"};

static char *edit(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to,
             at + strlen(from));
    return out;
}

static mf_model *load(const char *text, const mf_model_opts *o)
{
    mf_model *m = NULL;
    if (mf_model_load(&m, "inline.smv", text, strlen(text), o) != 0)
        fail_msg("%s", mf_err_msg());
    return m;
}

typedef struct {
    const mf_model *old, *cur;
    mf_edit *e;
    int carried, checked, wrong;
} tally;

/* The explorer's answer for mutant mu of m: potential and definite
 * verdicts and lengths, packed; -1 when it hit a limit. */
static long answer(const mf_model *m, const mf_mutant *mu)
{
    mf_model *mm = NULL;
    assert_int_equal(mf_mutant_apply(&mm, m, mu), 0);
    mf_explore_result r;
    int rc = mf_explore(&r, m, mm, MF_EXPLORE_AUTO, 200000, 0);
    long a = rc != 0 ? -1
                     : ((long)r.potential.verdict * 100 + r.potential.length) *
                               10000 +
                           (long)r.definite.verdict * 100 + r.definite.length;
    mf_explore_result_free(&r);
    mf_model_free(mm);
    return a;
}

static int tally_fn(const mf_mutant *mu, void *ctx)
{
    tally *t = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    mf_carry_way w = mf_edit_carries(t->e, mu);
    if (w == MF_CARRY_NONE)
        return 0;
    t->carried++;
    mf_mutant *was = NULL;
    if (mf_mutant_find(&was, t->old, mu->id) != 0)
        return 0; /* no such mutant before: nothing to carry */
    long a = answer(t->old, was), b = answer(t->cur, mu);
    t->checked += a >= 0 && b >= 0;
    if (a >= 0 && b >= 0 && a != b) {
        print_message("#   %s %s (%s): %ld before, %ld after\n", mu->id,
                      mu->desc, mf_carry_way_text(w), a, b);
        t->wrong++;
    }
    mf_mutant_free(was);
    return 0;
}

/* Carries over the edit of text (from -> to), every carried answer
 * checked; the tally. */
static tally run(const char *text, const char *from, const char *to,
                 const mf_model_opts *o)
{
    char *edited = edit(text, from, to);
    mf_model *old = load(text, o), *cur = load(edited, o);
    tally t = {old, cur, NULL, 0, 0, 0};
    mf_edit_new(&t.e, old, cur);
    mf_mutants_each(cur, 0, tally_fn, &t);
    mf_edit_free(t.e);
    t.e = NULL;
    mf_model_free(old);
    mf_model_free(cur);
    free(edited);
    return t;
}

static void test_rerun_cone__edited_output_carries_the_rest(void **state)
{
    (void)state;
    tally t = run(CTRL, "next(lamp) := next(st) = run;",
                  "next(lamp) := next(st) = run | next(st) = halt;", NULL);
    assert_true(t.carried > 10);
    assert_int_equal(t.checked, t.carried);
    assert_int_equal(t.wrong, 0);
}

static void test_rerun_cone__added_variable_carries(void **state)
{
    (void)state;
    /* seen is free: an input nothing reads, outside every cone. */
    tally t = run(CTRL, "  cnt : 0..3;\n",
                  "  cnt : 0..3;\n  seen : boolean;\n", NULL);
    assert_true(t.carried > 10);
    assert_int_equal(t.wrong, 0);
    /* on is observed and reads lamp, which a test sees. */
    char *with = edit(CTRL, "  cnt : 0..3;\n",
                      "  cnt : 0..3;\n  on : boolean;\n");
    tally u = run(with, "  init(cnt) := 0;\n",
                  "  init(cnt) := 0;\n  init(on) := FALSE;\n"
                  "  next(on) := on | lamp;\n", NULL);
    free(with);
    assert_true(u.carried > 10);
    assert_int_equal(u.wrong, 0);
}

static void test_rerun_cone__edit_in_every_cone_carries_nothing(void **state)
{
    (void)state;
    tally t = run(CTRL, "st = halt & ev = go : idle;",
                  "st = halt & ev = go : run;", NULL);
    /* st is read by every output: no mutant's cone is free of it. */
    assert_int_equal(t.wrong, 0);
    tally u = run(CTRL, "st = idle & ev = go : run;",
                  "st = idle & ev = stop : run;", NULL);
    assert_int_equal(u.wrong, 0);
    assert_int_equal(t.carried + u.carried, 0);
}

static void test_rerun_cone__refusing_edit_carries_nothing(void **state)
{
    (void)state;
    /* cnt + 2 may leave 0..3: the edited assignment can refuse a step,
     * which would cut runs the rest of the model shows. */
    tally t = run(CTRL, "cnt < 3 : cnt + 1;", "cnt < 3 : cnt + 2;",
                  NULL);
    assert_int_equal(t.carried, 0);
}

static void test_rerun_cone__changed_constraint_carries_nothing(void **state)
{
    (void)state;
    char *with = edit(CTRL, "  init(st) := idle;\n",
                      "  init(st) := idle;\nINVAR cnt < 3\nASSIGN\n");
    tally t = run(with, "INVAR cnt < 3", "INVAR cnt < 2", NULL);
    assert_int_equal(t.carried, 0);
    free(with);
}

static void test_rerun_cone__hidden_choices_are_checked(void **state)
{
    (void)state;
    mf_model_opts o = {0};
    o.observe = observe_xy;
    o.nobserve = 2;
    /* y reads the hidden h: editing y must not carry x's mutants by the
     * "what a test sees" way, and every carried answer must stand. */
    tally t = run(HIDDEN, "next(y) := h;", "next(y) := !h;", &o);
    assert_int_equal(t.wrong, 0);
    tally u = run(HIDDEN, "init(y) := FALSE;", "init(y) := TRUE;", &o);
    assert_int_equal(u.wrong, 0);
    /* y once read the hidden h: made to read x, it shows no more of h,
     * and that may change a mutant of h. Nothing is carried. */
    tally v = run(HIDDEN, "next(y) := h;", "next(y) := x > 1;", &o);
    assert_int_equal(v.carried, 0);
    /* y reads the observed x only, before and after: the mutants of x
     * and h keep their answers. */
    char *with = edit(HIDDEN, "next(y) := h;", "next(y) := x > 1;");
    v = run(with, "x > 1;", "x > 2;", &o);
    free(with);
    assert_true(v.carried > 0);
    assert_int_equal(v.checked, v.carried);
    assert_int_equal(v.wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rerun_cone__edited_output_carries_the_rest),
        cmocka_unit_test(test_rerun_cone__added_variable_carries),
        cmocka_unit_test(test_rerun_cone__edit_in_every_cone_carries_nothing),
        cmocka_unit_test(test_rerun_cone__refusing_edit_carries_nothing),
        cmocka_unit_test(test_rerun_cone__changed_constraint_carries_nothing),
        cmocka_unit_test(test_rerun_cone__hidden_choices_are_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
