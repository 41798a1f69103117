/* test_model.c - flattening, name resolution, type checking, inputs and
 * observables, and the canonical printer (smv/flatten*.c,
 * model/typecheck.c, model/finish.c, model/print.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "langs.h"

static mf_model *load_opts(const char *text, const mf_model_opts *opts)
{
    mf_model *m = NULL;
    int rc = mf_model_load(&m, "t.smv", text, strlen(text), opts);
    if (rc)
        fail_msg("model refused: %s", mf_err_msg());
    return m;
}

static mf_model *load(const char *text) { return load_opts(text, NULL); }

/* Load must fail with `code` and a message containing `want`. */
static void refuse(const char *text, int code, const char *want)
{
    mf_model *m = NULL;
    int rc = mf_model_load(&m, "t.smv", text, strlen(text), NULL);
    assert_null(m);
    if (rc != code || !strstr(mf_err_msg(), want))
        fail_msg("expected %d with '%s', got %d: %s", code, want, rc,
                 mf_err_msg());
}

static char *print(const mf_model *m)
{
    mf_buf b = {0};
    mf_print_model(&b, m);
    return b.data;
}

/* m's print holds every text of want[] (up to a NULL). */
static void assert_prints(const mf_model *m, const char *const *want)
{
    char *s = print(m);
    for (; *want; want++)
        if (!strstr(s, *want))
            fail_msg("no '%s' in:\n%s", *want, s);
    free(s);
}

static int var_index(const mf_model *m, const char *name)
{
    int v = mf_model_find_var(m, name);
    if (v < 0)
        fail_msg("no variable %s", name);
    return v;
}

static void test_model__instances_get_dotted_names_and_bound_parameters(
    void **state)
{
    (void)state;
    mf_model *m = load("MODULE cell(cin)\n"
                       "VAR v : boolean;\n"
                       "ASSIGN init(v) := FALSE; next(v) := v xor cin;\n"
                       "DEFINE cout := v & cin;\n"
                       "MODULE main\n"
                       "VAR b0 : cell(TRUE); b1 : cell(b0.cout);\n");
    assert_int_equal(m->nvars, 2);
    assert_string_equal(m->vars[0].name, "b0.v");
    assert_string_equal(m->vars[1].name, "b1.v");
    assert_prints(m, (const char *const[]){
        "next(b0.v) := b0.v xor TRUE;",
        "next(b1.v) := b1.v xor b0.cout;",
        "b1.cout := b1.v & b0.cout;",
        NULL});
    mf_model_free(m);
}

static void test_model__define_through_instance_parameter_and_self(
    void **state)
{
    (void)state;
    /* dme1.smv defines `left.ack` on the neighbour; syncarb5 passes self */
    mf_model *m = load("MODULE cell(left, me)\n"
                       "VAR x : boolean;\n"
                       "ASSIGN next(x) := ack;\n"
                       "DEFINE left.ack := !me.x;\n"
                       "MODULE main\n"
                       "VAR a : cell(b, a); b : cell(a, b);\n"
                       "VAR s : sub(self);\n"
                       "MODULE sub(p) VAR y : boolean; ASSIGN y := p.a.x;\n");
    assert_prints(m, (const char *const[]){
        "b.ack := !a.x;",
        "a.ack := !b.x;",
        "next(a.x) := a.ack;",
        "s.y := a.x;",
        NULL});
    mf_model_free(m);
}

static void test_model__isa_reads_the_included_module_in_place(void **state)
{
    (void)state;
    /* gigamax.smv: processor(CMD, ...) ISA bus-device; the included text
     * sees the including module's parameters and variables */
    mf_model *m = load("MODULE dev\nVAR busy : boolean;\n"
                       "ASSIGN next(busy) := CMD & !busy;\n"
                       "DEFINE idle := !busy;\n"
                       "MODULE cpu(CMD) ISA dev\nVAR st : boolean;\n"
                       "ASSIGN next(st) := idle;\n"
                       "MODULE main\nIVAR go : boolean;\nVAR p : cpu(go);\n");
    assert_prints(m, (const char *const[]){
        "p.busy : boolean;",
        "p.idle := !p.busy;",
        "next(p.busy) := go & !p.busy;",
        "next(p.st) := p.idle;",
        NULL});
    mf_model_free(m);
    refuse("MODULE a ISA b\nMODULE b ISA a\nMODULE main VAR x : a;\n",
           MF_ETYPE, "ISA nested deeper");
    refuse("MODULE main ISA nope\n", MF_ETYPE, "no module named 'nope'");
}

static void test_model__refuses_undefined_identifier_with_position(
    void **state)
{
    (void)state;
    refuse("MODULE main\nVAR x : boolean;\nASSIGN next(x) := y;\n", MF_ETYPE,
           "t.smv:3:19: error: undefined identifier 'y'");
}

static void test_model__refuses_symbol_outside_the_variables_domain(
    void **state)
{
    (void)state;
    refuse("MODULE main\nVAR s : {a, b}; t : {a, c};\n"
           "ASSIGN init(s) := c;\n",
           MF_ETYPE, "t.smv:3:19: error: value c is out of the domain of 's'");
    refuse("MODULE main\nVAR n : 0..3;\nASSIGN next(n) := case n < 3 : n + "
           "1; TRUE : 4; esac;\n",
           MF_ETYPE, "value 4 is out of the domain of 'n'");
}

static void test_model__refuses_type_mismatches(void **state)
{
    (void)state;
    refuse("MODULE main\nVAR b : boolean; n : 0..3;\nASSIGN next(b) := n;\n",
           MF_ETYPE, "integer value assigned to boolean variable 'b'");
    refuse("MODULE main\nVAR b : boolean; n : 0..3;\nINVAR b + 1 = n;\n",
           MF_ETYPE, "an arithmetic operand must be integer, found boolean");
    refuse("MODULE main\nVAR b : boolean; n : 0..3;\nINVAR b & n;\n",
           MF_ETYPE, "a logical operand must be boolean");
    refuse("MODULE main\nVAR s : {a, b};\nINVAR s < a;\n", MF_ETYPE,
           "ordered comparison");
}

static void test_model__next_only_where_the_semantics_allow_it(void **state)
{
    (void)state;
    refuse("MODULE main\nVAR b : boolean;\nASSIGN init(b) := next(b);\n",
           MF_ETYPE, "t.smv:3:19: error: next() is not allowed here");
    refuse("MODULE main\nVAR b : boolean;\nINVAR next(b);\n", MF_ETYPE,
           "next() is not allowed here");
    refuse("MODULE main\nVAR b : boolean;\nDEFINE d := next(b);\nINIT d;\n",
           MF_ETYPE, "DEFINE 'd' uses next(), not allowed here");
    refuse("MODULE main\nIVAR i : boolean;\nVAR b : boolean;\n"
           "TRANS next(i) = b;\n",
           MF_ETYPE, "next() of input variable 'i'");
    /* allowed: next() in next(), TRANS and a DEFINE used there */
    mf_model *m = load("MODULE main\nVAR a : boolean; b : boolean;\n"
                       "DEFINE na := next(a);\n"
                       "ASSIGN next(b) := na; TRANS next(a) = !a;\n");
    mf_model_free(m);
}

static void test_model__refuses_double_assignment_and_recursion(void **state)
{
    (void)state;
    refuse("MODULE main\nVAR b : boolean;\nASSIGN next(b) := TRUE;\n"
           "next(b) := FALSE;\n",
           MF_ETYPE, "'b' is assigned twice");
    refuse("MODULE main\nVAR b : boolean;\nASSIGN b := TRUE; init(b) := "
           "TRUE;\n",
           MF_ETYPE, "'b' is assigned twice");
    refuse("MODULE main\nVAR x : m;\nMODULE m\nVAR y : m;\n", MF_ETYPE,
           "nested deeper");
    refuse("MODULE main\nVAR b : boolean;\nDEFINE d := !e; e := d;\n"
           "INVAR d;\n",
           MF_ETYPE, "depends on itself");
    refuse("MODULE main\nVAR b : boolean; b : boolean;\n", MF_ETYPE,
           "'b' is declared twice");
    refuse("MODULE m\nVAR b : boolean;\n", MF_ETYPE, "no MODULE main");
    refuse("MODULE main\nVAR a : boolean; b : boolean;\n"
           "ASSIGN init(a) := b; init(b) := !a;\n",
           MF_ETYPE, "combinational loop: the initial value of 'a'");
    refuse("MODULE main\nVAR a : boolean; b : boolean;\nDEFINE nb := next(b);\n"
           "ASSIGN next(a) := nb; next(b) := next(a);\n",
           MF_ETYPE, "combinational loop: the next value of");
    refuse("MODULE main\nVAR a : boolean; b : boolean;\n"
           "ASSIGN a := b; next(b) := !next(a);\n",
           MF_ETYPE, "combinational loop: the next value of");
    refuse("MODULE main\nVAR b : boolean;\nDEFINE me := self;\nINVAR me;\n",
           MF_ETYPE, "module instance 'self' used as a value");
}

static void test_model__constant_type_bounds_and_limits(void **state)
{
    (void)state;
    mf_model *m = load("MODULE main\nDEFINE N := 3;\n"
                       "VAR x : -N..N * 2; a : array 0..N - 1 of {p, 7};\n");
    int x = var_index(m, "x"), a = var_index(m, "a");
    assert_int_equal(m->vars[x].type->lo, -3);
    assert_int_equal(m->vars[x].type->hi, 6);
    assert_int_equal(m->vars[a].nslots, 3);
    assert_int_equal(m->nslots, 4);
    mf_model_free(m);
    refuse("MODULE main\nVAR x : 5..1;\n", MF_ETYPE, "empty range 5..1");
    refuse("MODULE main\nVAR x : 0..4294967296;\n", MF_EUNSUPPORTED,
           "t.smv:2:9: unsupported: integer range beyond +-2^31");
}

static void test_model__inputs_are_ivars_free_vars_and_free_choices(
    void **state)
{
    (void)state;
    mf_model *m = load("MODULE main\n"
                       "IVAR i : boolean;\n"
                       "VAR free : 0..3;\n"      /* never assigned */
                       "    pick : boolean;\n"   /* next := {TRUE, FALSE} */
                       "    st : {idle, busy};\n" /* a state variable */
                       "    held : boolean;\n"   /* constrained: not input */
                       "ASSIGN init(pick) := FALSE;\n"
                       "  next(pick) := {TRUE, FALSE};\n"
                       "  next(st) := case i & free > 1 : busy; TRUE : "
                       "idle; esac;\n"
                       "TRANS next(held) = pick;\n");
    assert_true(m->vars[var_index(m, "i")].is_input);
    assert_true(m->vars[var_index(m, "free")].is_input);
    assert_true(m->vars[var_index(m, "pick")].is_input);
    assert_false(m->vars[var_index(m, "st")].is_input);
    assert_false(m->vars[var_index(m, "held")].is_input);
    assert_true(m->vars[var_index(m, "st")].is_observable);
    assert_true(m->vars[var_index(m, "held")].is_observable);
    assert_false(m->vars[var_index(m, "free")].is_observable);
    mf_model_free(m);
}

static void test_model__inputs_and_observe_options_override_inference(
    void **state)
{
    (void)state;
    const char *text = "MODULE main\nVAR a : boolean; b : boolean; c : "
                       "boolean;\nASSIGN next(c) := a & b;\n"
                       "DEFINE both := a & b;\n";
    const char *inputs[] = {"a"};
    const char *observe[] = {"c", "both"};
    mf_model_opts o = {.inputs = inputs, .ninputs = 1, .observe = observe,
                       .nobserve = 2};
    mf_model *m = load_opts(text, &o);
    assert_true(m->vars[var_index(m, "a")].is_input);
    assert_false(m->vars[var_index(m, "b")].is_input); /* inference off */
    assert_false(m->vars[var_index(m, "b")].is_observable);
    assert_true(m->vars[var_index(m, "c")].is_observable);
    assert_int_equal(m->nobs_defines, 1);
    assert_string_equal(m->items[m->obs_defines[0]].name, "both");
    mf_model_free(m);

    const char *bad[] = {"nope"};
    mf_model_opts o2 = {.inputs = bad, .ninputs = 1};
    assert_int_equal(mf_model_load(&m, "t.smv", text, strlen(text), &o2),
                     MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "--inputs 'nope'"));
}

static void test_model__printer_parenthesises_only_where_needed(void **state)
{
    (void)state;
    mf_model *m = load("MODULE main\nVAR a : boolean; b : boolean; c : "
                       "boolean; n : 0..9;\n"
                       "INVAR (a | b) & c;\nINVAR a | (b & c);\n"
                       "INVAR a -> (b -> c);\nINVAR (a -> b) -> c;\n"
                       "INVAR n - (n - 1) = n - n - 1 | !(a & b);\n"
                       "INVAR n * (n + 1) = -n;\n"
                       "INVAR n in 1..3 & n = (a ? 1 : 2);\n");
    assert_prints(m, (const char *const[]){
        "(a | b) & c;",
        "  a | b & c;",
        "  a -> b -> c;",
        "(a -> b) -> c;",
        "n - (n - 1) = n - n - 1 | !(a & b);",
        "n * (n + 1) = -n;",
        "n in 1 .. 3 & n = (a ? 1 : 2);",
        NULL});
    mf_model_free(m);
}

static void test_model__print_is_a_fixed_point_with_the_same_hash(
    void **state)
{
    (void)state;
    const char *text =
        "-- a comment\nMODULE main\nIVAR go : boolean;\n"
        "VAR st : {s0, s1, s2}; n : -2..2; arr : array 1..2 of boolean;\n"
        "FROZENVAR k : 0..1;\n"
        "DEFINE done := st = s2 & arr[1];\n"
        "ASSIGN init(st) := s0; next(st) := case go & !done : {s1, s2};\n"
        "  st = s1 : case n > 0 : s2; TRUE : s0; esac; TRUE : st; esac;\n"
        "  next(n) := max(-2, min(2, n + toint(go) - 1));\n"
        "  init(arr[1]) := FALSE; next(arr[k + 1]) := !arr[1];\n"
        "INIT n = 0 union 1\n"
        "LTLSPEC G (done -> F st = s0)\n";
    mf_model *m = load(text);
    char *s1 = print(m);
    mf_model *m2 = load(s1);
    char *s2 = print(m2);
    assert_string_equal(s1, s2);
    assert_string_equal(m->hash, m2->hash);
    assert_non_null(strstr(s1, "LTLSPEC"));
    free(s1);
    free(s2);
    mf_model_free(m);
    mf_model_free(m2);
}

static void test_model__hash_ignores_layout_and_comments(void **state)
{
    (void)state;
    mf_model *a = load("MODULE main VAR x : boolean; ASSIGN next(x) := !x;");
    mf_model *b = load("-- c\nMODULE main\n  VAR\n    x : boolean; -- c\n"
                       "  ASSIGN\n    next(x) :=\n      !x;\n");
    mf_model *c = load("MODULE main VAR x : boolean; ASSIGN next(x) := x;");
    assert_string_equal(a->hash, b->hash);
    assert_string_not_equal(a->hash, c->hash);
    mf_model_free(a);
    mf_model_free(b);
    mf_model_free(c);
}

static void test_model__replace_item_changes_one_item_and_keeps_roles(
    void **state)
{
    (void)state;
    mf_model *m = load("MODULE main\nIVAR i : boolean;\nVAR x : boolean; y "
                       ": boolean;\nASSIGN next(x) := i; next(y) := x;\n");
    int it = -1;
    for (int k = 0; k < m->nitems; k++)
        if (m->items[k].kind == MF_IT_NEXT &&
            !strcmp(m->vars[m->items[k].var].name, "y"))
            it = k;
    assert_true(it >= 0);
    mf_model *r = NULL;
    assert_int_equal(mf_model_replace_item(&r, m, it, NULL), 0);
    assert_int_equal(r->nitems, m->nitems - 1);
    /* y lost its next() but stays an observable state variable */
    assert_false(r->vars[var_index(r, "y")].is_input);
    assert_true(r->vars[var_index(r, "y")].is_observable);
    assert_string_not_equal(r->hash, m->hash);
    mf_model_free(r);

    mf_item repl = m->items[it];
    repl.e = mf_expr_bool(m->arena, 1, 0, 0);
    assert_int_equal(mf_model_check_item(m, &repl), 0);
    assert_int_equal(mf_model_replace_item(&r, m, it, &repl), 0);
    char *s = print(r);
    assert_non_null(strstr(s, "next(y) := TRUE;"));
    free(s);
    mf_model_free(r);

    repl.e = mf_expr_int(m->arena, 3, 1, 1);
    assert_int_equal(mf_model_check_item(m, &repl), MF_ETYPE);
    /* next(y) := next(y) would be a loop: a stillborn mutant */
    repl.e = mf_expr_un(m->arena, MF_E_NEXT, m->items[it].lhs);
    assert_int_equal(mf_model_check_item(m, &repl), MF_ETYPE);
    assert_non_null(strstr(mf_err_msg(), "combinational loop"));
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_model__instances_get_dotted_names_and_bound_parameters),
        cmocka_unit_test(
            test_model__define_through_instance_parameter_and_self),
        cmocka_unit_test(test_model__isa_reads_the_included_module_in_place),
        cmocka_unit_test(
            test_model__refuses_undefined_identifier_with_position),
        cmocka_unit_test(
            test_model__refuses_symbol_outside_the_variables_domain),
        cmocka_unit_test(test_model__refuses_type_mismatches),
        cmocka_unit_test(test_model__next_only_where_the_semantics_allow_it),
        cmocka_unit_test(
            test_model__refuses_double_assignment_and_recursion),
        cmocka_unit_test(test_model__constant_type_bounds_and_limits),
        cmocka_unit_test(
            test_model__inputs_are_ivars_free_vars_and_free_choices),
        cmocka_unit_test(
            test_model__inputs_and_observe_options_override_inference),
        cmocka_unit_test(test_model__printer_parenthesises_only_where_needed),
        cmocka_unit_test(
            test_model__print_is_a_fixed_point_with_the_same_hash),
        cmocka_unit_test(test_model__hash_ignores_layout_and_comments),
        cmocka_unit_test(
            test_model__replace_item_changes_one_item_and_keeps_roles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
