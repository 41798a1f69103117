/* test_mutate.c - the mutation engine (mutate.h): each operator's mutants on
 * small models, clamping, stable ids, duplicates, stillborn mutants,
 * streaming, lookup by id prefix and printing mutants as SMV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutate.h"
#include "langs.h"
#include "smv.h"

static mf_model *load(const char *text)
{
    mf_model *m = NULL;
    int rc = mf_model_load(&m, "t.smv", text, strlen(text), NULL);
    if (rc != 0)
        fail_msg("model does not load: %s", mf_err_msg());
    return m;
}

/* Whitespace runs collapsed to one space, trimmed. */
static void put_collapsed(mf_buf *out, const char *s)
{
    int sp = 0, any = 0;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            sp = any;
            continue;
        }
        if (sp)
            mf_buf_puts(out, " ");
        sp = 0;
        any = 1;
        mf_buf_put(out, s, 1);
    }
}

typedef struct {
    const mf_model *m;
    mf_buf out;
    long n;
} collect;

/* One line per mutant: "op site repl : NEW-EXPRESSION [dup|stillborn]". */
static int collect_cb(const mf_mutant *mu, void *v)
{
    collect *c = v;
    c->n++;
    mf_buf_printf(&c->out, "%s %s %s : ", mf_mop_name(mu->op), mu->site,
                  mu->repl);
    if (mu->new_item) {
        mf_buf e = {0};
        mf_print_expr(&e, c->m, mu->new_item->e);
        put_collapsed(&c->out, e.data);
        mf_buf_free(&e);
    } else {
        mf_buf_puts(&c->out, "-");
    }
    if (mu->status == MF_MUT_DUPLICATE)
        mf_buf_printf(&c->out, " [dup of %s]",
                      strcmp(mu->dup_of, "original") ? "earlier" : "original");
    else if (mu->status == MF_MUT_STILLBORN)
        mf_buf_puts(&c->out, " [stillborn]");
    mf_buf_puts(&c->out, "\n");
    return 0;
}

/* The mutants of `text` for the named operators, one line each. */
static char *mutants_of(const char *text, const char *ops)
{
    mf_model *m = load(text);
    unsigned mask = 0;
    assert_int_equal(mf_mop_parse_list(&mask, ops), 0);
    collect c = {m, {0}, 0};
    assert_int_equal(mf_mutants_each(m, mask, collect_cb, &c), 0);
    mf_model_free(m);
    if (!c.out.data)
        mf_buf_puts(&c.out, "");
    return c.out.data;
}

static void expect_mutants(const char *text, const char *ops,
                           const char *expected)
{
    char *got = mutants_of(text, ops);
    if (strcmp(got, expected) != 0) {
        print_error("operators %s\n--- expected\n%s--- got\n%s", ops, expected,
                    got);
        free(got);
        fail();
    }
    free(got);
}

static const char case_model[] = "MODULE main\n"
                                 "IVAR a : boolean; b : boolean;\n"
                                 "VAR x : 0..3;\n"
                                 "ASSIGN\n"
                                 "  init(x) := 0;\n"
                                 "  next(x) := case a : 1; b : 2; TRUE : 0; "
                                 "esac;\n";

static void test_mop__names_round_trip_and_bad_list_rejected(void **state)
{
    (void)state;
    for (int i = 0; i < MF_MOP__COUNT; i++)
        assert_int_equal(mf_mop_from_name(mf_mop_name((mf_mop)i)), i);
    assert_string_equal(mf_mop_name(MF_MOP_NUMBER_REPLACE), "number-replace");
    unsigned mask = 0;
    assert_int_equal(mf_mop_parse_list(&mask, "negate, rel-op"), 0);
    assert_int_equal(mask, (1u << MF_MOP_NEGATE) | (1u << MF_MOP_REL_OP));
    assert_int_equal(mf_mop_parse_list(&mask, "negate,flip"), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "flip"));
}

static void test_case_remove__each_branch_and_swap_adjacent(void **state)
{
    (void)state;
    expect_mutants(case_model, "case-remove,case-swap",
                   "case-remove next(x)/b1 <removed> : case b : 2; TRUE : 0; "
                   "esac\n"
                   "case-remove next(x)/b2 <removed> : case a : 1; TRUE : 0; "
                   "esac\n"
                   "case-remove next(x)/b3 <removed> : case a : 1; b : 2; "
                   "esac\n"
                   "case-swap next(x)/ swap(1,2) : case b : 2; a : 1; TRUE : "
                   "0; esac\n"
                   "case-swap next(x)/ swap(2,3) : case a : 1; TRUE : 0; b : "
                   "2; esac\n");
}

static void test_case_remove__skips_single_branch_case(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nVAR x : 0..3;\n"
                   "ASSIGN next(x) := case TRUE : 0; esac;\n",
                   "case-remove,case-swap", "");
}

static void
test_assign_remove__removes_next_and_invariant_init_separately(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR a : boolean;\n"
                   "VAR x : 0..3; y : boolean;\n"
                   "ASSIGN init(x) := 0; next(x) := x; y := a;\n",
                   "assign-remove,init-remove",
                   "init-remove init(x) <removed> : -\n"
                   "assign-remove next(x) <removed> : -\n"
                   "assign-remove y := <removed> : -\n");
}

static void test_constraint_remove__each_top_level_conjunct(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR a : boolean; b : boolean; "
                   "c : boolean;\nVAR x : 0..3;\n"
                   "TRANS a & (b | c) & next(x) = x;\n"
                   "INVAR x < 3;\n",
                   "constraint-remove",
                   "constraint-remove TRANS#1/l.l <removed> : (b | c) & "
                   "next(x) = x\n"
                   "constraint-remove TRANS#1/l.r <removed> : a & next(x) = "
                   "x\n"
                   "constraint-remove TRANS#1/r <removed> : a & (b | c)\n"
                   "constraint-remove INVAR#1 <removed> : -\n");
}

static void test_negate__conditions_unwraps_not_skips_constants(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR a : boolean; b : boolean;\n"
                   "VAR y : boolean; x : 0..3;\n"
                   "ASSIGN init(y) := TRUE; next(y) := !a | b;\n"
                   "  next(x) := case a : 1; TRUE : 0; esac;\n",
                   "negate",
                   "negate next(y)/ ! : !(!a | b)\n"
                   "negate next(y)/l ! : a | b\n"
                   "negate next(y)/r ! : !a | !b\n"
                   "negate next(x)/b1.g ! : case !a : 1; TRUE : 0; esac\n");
}

static void test_logic_op__each_replaced_by_each_other(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR a : boolean; b : boolean;\n"
                   "VAR y : boolean;\nASSIGN next(y) := a & b;\n",
                   "logic-op",
                   "logic-op next(y)/ | : a | b\n"
                   "logic-op next(y)/ xor : a xor b\n"
                   "logic-op next(y)/ xnor : a xnor b\n"
                   "logic-op next(y)/ -> : a -> b\n"
                   "logic-op next(y)/ <-> : a <-> b\n");
}

static void test_arith_op__each_replaced_by_each_other(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nVAR x : 0..3;\n"
                   "ASSIGN next(x) := (x + 1) mod 4;\n",
                   "arith-op",
                   "arith-op next(x)/ + : x + 1 + 4\n"
                   "arith-op next(x)/ - : x + 1 - 4\n"
                   "arith-op next(x)/ * : (x + 1) * 4\n"
                   "arith-op next(x)/ / : (x + 1) / 4\n"
                   "arith-op next(x)/l - : (x - 1) mod 4\n"
                   "arith-op next(x)/l * : x * 1 mod 4\n"
                   "arith-op next(x)/l / : x / 1 mod 4\n"
                   "arith-op next(x)/l mod : x mod 1 mod 4\n");
}

static void test_rel_op__orders_integers_only_eq_ne_for_symbols(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR s : {p, q};\n"
                   "VAR x : 0..3; y : boolean;\n"
                   "ASSIGN next(y) := x < 2 & s = p;\n",
                   "rel-op",
                   "rel-op next(y)/l = : x = 2 & s = p\n"
                   "rel-op next(y)/l != : x != 2 & s = p\n"
                   "rel-op next(y)/l <= : x <= 2 & s = p\n"
                   "rel-op next(y)/l > : x > 2 & s = p\n"
                   "rel-op next(y)/l >= : x >= 2 & s = p\n"
                   "rel-op next(y)/r != : x < 2 & s != p\n");
}

static void test_stuck_at__conditions_and_guard_true_is_duplicate(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR a : boolean; b : boolean;\n"
                   "VAR x : 0..3;\n"
                   "ASSIGN next(x) := case a & b : 1; TRUE : 0; esac;\n",
                   "stuck-at,guard-true",
                   "stuck-at next(x)/b1.g TRUE : case TRUE : 1; TRUE : 0; "
                   "esac\n"
                   "stuck-at next(x)/b1.g FALSE : case FALSE : 1; TRUE : 0; "
                   "esac\n"
                   "guard-true next(x)/b1.g TRUE : case TRUE : 1; TRUE : 0; "
                   "esac [dup of earlier]\n"
                   "stuck-at next(x)/b1.g.l TRUE : case TRUE & b : 1; TRUE : "
                   "0; esac\n"
                   "stuck-at next(x)/b1.g.l FALSE : case FALSE & b : 1; TRUE "
                   ": 0; esac\n"
                   "stuck-at next(x)/b1.g.r TRUE : case a & TRUE : 1; TRUE : "
                   "0; esac\n"
                   "stuck-at next(x)/b1.g.r FALSE : case a & FALSE : 1; TRUE "
                   ": 0; esac\n"
                   "stuck-at next(x)/b2.g FALSE : case a & b : 1; FALSE : 0; "
                   "esac\n");
}

static void test_stuck_at__condition_of_ite(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR a : boolean;\nVAR x : 0..3;\n"
                   "ASSIGN next(x) := a ? 1 : 2;\n",
                   "stuck-at",
                   "stuck-at next(x)/0 TRUE : TRUE ? 1 : 2\n"
                   "stuck-at next(x)/0 FALSE : FALSE ? 1 : 2\n");
}

static void test_term_remove_and_assoc_shift(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR a : boolean; b : boolean; "
                   "c : boolean;\nVAR y : boolean;\n"
                   "ASSIGN next(y) := (a | b) & c;\n",
                   "term-remove,assoc-shift",
                   "term-remove next(y)/l <removed> : c\n"
                   "term-remove next(y)/r <removed> : a | b\n"
                   "assoc-shift next(y)/ a|(b&c) : a | b & c\n"
                   "term-remove next(y)/l.l <removed> : b & c\n"
                   "term-remove next(y)/l.r <removed> : a & c\n");
    expect_mutants("MODULE main\nIVAR a : boolean; b : boolean; "
                   "c : boolean;\nVAR y : boolean;\n"
                   "ASSIGN next(y) := a & (b | c);\n",
                   "assoc-shift", "assoc-shift next(y)/ (a&b)|c : a & b | c\n");
}

static void test_var_replace__same_type_in_var_order_also_in_next(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nVAR x : 0..3; w : 0..4; y : 0..3; "
                   "z : 0..3;\n"
                   "TRANS next(x) = y;\n",
                   "var-replace",
                   "var-replace TRANS#1/l.0 y : next(y) = y\n"
                   "var-replace TRANS#1/l.0 z : next(z) = y\n"
                   "var-replace TRANS#1/r x : next(x) = x\n"
                   "var-replace TRANS#1/r z : next(x) = z\n");
}

static void test_enum_replace__target_type_else_sharing_enums(void **state)
{
    (void)state;
    /* Assigned: st's own literals. In a DEFINE the type is unknown: every
     * literal that shares an enumeration with `b` (from st and u). */
    expect_mutants("MODULE main\nIVAR go : boolean;\n"
                   "VAR st : {a, b, c}; u : {b, d};\n"
                   "DEFINE k := b;\n"
                   "ASSIGN next(st) := case go : b; TRUE : st; esac;\n",
                   "enum-replace",
                   "enum-replace DEFINE k/ a : a\n"
                   "enum-replace DEFINE k/ c : c\n"
                   "enum-replace DEFINE k/ d : d\n"
                   "enum-replace next(st)/b1.v a : case go : a; TRUE : st; "
                   "esac\n"
                   "enum-replace next(st)/b1.v c : case go : c; TRUE : st; "
                   "esac\n");
}

static void test_number_replace__clamps_to_target_range(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nVAR wtr : 0..2;\n"
                   "ASSIGN next(wtr) := 2;\n",
                   "number-replace",
                   "number-replace next(wtr)/ 0 : 0\n"
                   "number-replace next(wtr)/ 1 : 1\n");
    /* Compared with a range: clamped too; in arithmetic: not clamped. */
    expect_mutants("MODULE main\nVAR x : 0..5; y : boolean;\n"
                   "ASSIGN next(y) := x > 5; next(x) := (x + 5) mod 6;\n",
                   "number-replace",
                   "number-replace next(y)/r 0 : x > 0\n"
                   "number-replace next(y)/r 1 : x > 1\n"
                   "number-replace next(y)/r 4 : x > 4\n"
                   "number-replace next(x)/l.r 0 : (x + 0) mod 6\n"
                   "number-replace next(x)/l.r 1 : (x + 1) mod 6\n"
                   "number-replace next(x)/l.r 6 : (x + 6) mod 6\n"
                   "number-replace next(x)/l.r 4 : (x + 4) mod 6\n"
                   "number-replace next(x)/r 0 : (x + 5) mod 0\n"
                   "number-replace next(x)/r 1 : (x + 5) mod 1\n"
                   "number-replace next(x)/r 7 : (x + 5) mod 7\n"
                   "number-replace next(x)/r 5 : (x + 5) mod 5\n");
}

static void test_digit_replace__each_position_no_leading_zero(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nVAR x : 0..100;\n"
                   "ASSIGN next(x) := 15;\n",
                   "digit-replace",
                   "digit-replace next(x)/ 25 : 25\n"
                   "digit-replace next(x)/ 16 : 16\n"
                   "digit-replace next(x)/ 14 : 14\n");
    expect_mutants("MODULE main\nVAR x : 0..100;\n"
                   "ASSIGN next(x) := 7;\n",
                   "digit-replace", "");
}

/* ---- ids */

static int ids_cb(const mf_mutant *mu, void *v)
{
    mf_buf *b = v;
    mf_buf_printf(b, "%s %s %s %s\n", mu->id, mf_mop_name(mu->op), mu->site,
                  mu->repl);
    return 0;
}

static char *ids_of(const char *text)
{
    mf_model *m = load(text);
    mf_buf b = {0};
    assert_int_equal(mf_mutants_each(m, 0, ids_cb, &b), 0);
    mf_model_free(m);
    return b.data;
}

static void test_ids__stable_across_runs_and_layout_comment_edits(void **state)
{
    (void)state;
    const char *edited = "-- a comment that moves every line\n"
                         "MODULE main\n"
                         "  IVAR a : boolean;   b : boolean;\n"
                         "VAR\n   x : 0 .. 3;   -- the counter\n"
                         "ASSIGN\n"
                         "  init(x) := 0;\n"
                         "  next(x) :=\n    case\n      a : 1;\n"
                         "      b : 2;  -- second\n      TRUE : 0;\n"
                         "    esac;\n";
    char *one = ids_of(case_model), *two = ids_of(case_model);
    char *three = ids_of(edited);
    assert_true(strlen(one) > 0);
    assert_string_equal(one, two);
    assert_string_equal(one, three);
    free(one);
    free(two);
    free(three);
}

static int id_of_site_cb(const mf_mutant *mu, void *v)
{
    char **want = v; /* want[0]: site, want[1]: repl, want[2]: id out */
    if (!strcmp(mu->site, want[0]) && !strcmp(mu->repl, want[1])) {
        memcpy(want[2], mu->id, 17);
        return 1;
    }
    return 0;
}

static void find_id(char id[17], const char *text, const char *site,
                    const char *repl)
{
    mf_model *m = load(text);
    char *want[3] = {(char *)site, (char *)repl, id};
    id[0] = '\0';
    assert_int_equal(mf_mutants_each(m, 0, id_of_site_cb, want), 1);
    mf_model_free(m);
}

static void test_ids__follow_the_site_path(void **state)
{
    (void)state;
    /* A branch inserted before: branch 2 becomes branch 3, its mutants'
     * ids change; an edit in another item leaves next(x)'s ids alone. */
    const char *inserted = "MODULE main\n"
                           "IVAR a : boolean; b : boolean;\n"
                           "VAR x : 0..3;\n"
                           "ASSIGN\n"
                           "  init(x) := 0;\n"
                           "  next(x) := case a & b : 3; a : 1; b : 2; "
                           "TRUE : 0; esac;\n";
    const char *other = "MODULE main\n"
                        "IVAR a : boolean; b : boolean;\n"
                        "VAR x : 0..3;\n"
                        "ASSIGN\n"
                        "  init(x) := 3;\n"
                        "  next(x) := case a : 1; b : 2; TRUE : 0; esac;\n";
    char id1[17], id2[17], id3[17], id4[17];
    find_id(id1, case_model, "next(x)/b2.v", "1");
    find_id(id2, inserted, "next(x)/b3.v", "1");
    find_id(id3, other, "next(x)/b2.v", "1");
    find_id(id4, case_model, "next(x)/b2.v", "3");
    assert_string_not_equal(id1, id2);
    assert_string_equal(id1, id3);
    assert_string_not_equal(id1, id4);
    assert_int_equal(strlen(id1), 16);
}

/* ---- status */

static void test_duplicate__same_text_as_original_or_earlier(void **state)
{
    (void)state;
    /* Swapping two identical branches changes nothing. */
    expect_mutants("MODULE main\nIVAR a : boolean;\nVAR x : 0..3;\n"
                   "ASSIGN next(x) := case a : 1; a : 1; TRUE : 0; esac;\n",
                   "case-swap",
                   "case-swap next(x)/ swap(1,2) : case a : 1; a : 1; TRUE : "
                   "0; esac [dup of original]\n"
                   "case-swap next(x)/ swap(2,3) : case a : 1; TRUE : 0; a : "
                   "1; esac\n");
}

/* ---- picking some mutants by id */

typedef struct {
    collect c;
    mf_buf ids;   /* "ID\n" per mutant picked */
    long k;       /* mutants seen */
} pick_all;

/* A line of collect_cb's form prefixed with the id and its dup target. */
static int full_line_cb(const mf_mutant *mu, void *v)
{
    collect *c = v;
    mf_buf_printf(&c->out, "%s %s %s ", mu->id, mu->dup_of ? mu->dup_of : "-",
                  mu->why ? "why" : "-");
    return collect_cb(mu, v);
}

/* Every third mutant, and every duplicate and stillborn one. */
static int every_third_cb(const mf_mutant *mu, void *v)
{
    pick_all *p = v;
    if (p->k++ % 3 == 0 || mu->status != MF_MUT_OK) {
        full_line_cb(mu, &p->c);
        mf_buf_printf(&p->ids, "%s\n", mu->id);
    }
    return 0;
}

static int pick_cb(const char *id, void *v)
{
    const pick_all *p = v;
    char key[18];
    snprintf(key, sizeof key, "%s\n", id);
    return p->ids.data && strstr(p->ids.data, key) != NULL;
}

static void test_pick__same_mutants_and_status_as_full_enumeration(void **s)
{
    (void)s;
    /* Duplicates (swapped twins), stillborn ones and several items. */
    mf_model *m = load("MODULE main\nIVAR a : boolean; i : 0..3;\n"
                       "VAR x : 0..3; y : boolean;\n"
                       "ASSIGN next(x) := case a : 1; a : 1; y : i; "
                       "TRUE : 0; esac;\n"
                       "next(y) := case x = 2 : !y; TRUE : a; esac;\n"
                       "TRANS next(x) = i | y;\n");
    pick_all want = {{m, {0}, 0}, {0}, 0};
    assert_int_equal(mf_mutants_each(m, 0, every_third_cb, &want), 0);
    assert_true(want.c.n > 10 && want.c.n < want.k);
    pick_all got = {{m, {0}, 0}, {0}, 0};
    got.ids = want.ids; /* pick_cb reads the ids from its context */
    assert_int_equal(mf_mutants_pick(m, 0, pick_cb, full_line_cb, &got), 0);
    assert_int_equal(got.c.n, want.c.n);
    assert_string_equal(got.c.out.data, want.c.out.data);
    assert_non_null(strstr(want.c.out.data, "[dup of"));
    assert_non_null(strstr(want.c.out.data, "[stillborn]"));
    mf_buf_free(&want.c.out);
    mf_buf_free(&got.c.out);
    mf_buf_free(&want.ids);
    mf_model_free(m);
}

static void test_stillborn__next_of_input_variable(void **state)
{
    (void)state;
    expect_mutants("MODULE main\nIVAR i : 0..3;\nVAR x : 0..3;\n"
                   "TRANS next(x) = i;\n",
                   "var-replace",
                   "var-replace TRANS#1/l.0 i : next(i) = i [stillborn]\n"
                   "var-replace TRANS#1/r x : next(x) = x\n");
}

/* ---- the beverage machine */

static mf_model *load_file(const char *path)
{
    mf_model *m = NULL;
    if (mf_model_load_file(&m, path, NULL) != 0)
        fail_msg("%s: %s", path, mf_err_msg());
    return m;
}

typedef struct {
    char id[17];
    int n;
} refill;

static int refill_cb(const mf_mutant *mu, void *v)
{
    refill *r = v;
    if (mu->op == MF_MOP_NUMBER_REPLACE &&
        !strcmp(mu->site, "next(wtr)/b1.v") && !strcmp(mu->repl, "1")) {
        memcpy(r->id, mu->id, 17);
        r->n++;
        assert_int_equal(mu->status, MF_MUT_OK);
    }
    return 0;
}

static void test_beverage__refill_one_unit_mutant(void **state)
{
    (void)state;
    mf_model *m = load_file("tests/models/beverage.smv");
    refill r = {{0}, 0};
    assert_int_equal(mf_mutants_each(m, 0, refill_cb, &r), 0);
    assert_int_equal(r.n, 1);

    mf_mutant *mu = NULL;
    assert_int_equal(mf_mutant_find(&mu, m, r.id), 0);
    assert_int_equal(mu->op, MF_MOP_NUMBER_REPLACE);
    assert_string_equal(mu->desc, "replace `2` with `1` at next(wtr)/b1.v");
    mf_buf out = {0};
    mf_mutant_print(&out, m, mu);
    assert_non_null(strstr(out.data, "inp = fill & wtr = 0 : 1;"));
    assert_null(strstr(out.data, "inp = fill & wtr = 0 : 2;"));
    char mark[64];
    snprintf(mark, sizeof(mark), "-- mutant %s (number-replace): ", r.id);
    assert_non_null(strstr(out.data, mark));
    snprintf(mark, sizeof(mark), "-- end of mutant %s\n", r.id);
    assert_non_null(strstr(out.data, mark));

    mf_model *mm = NULL;
    assert_int_equal(mf_model_load(&mm, "m.smv", out.data, out.len, NULL), 0);
    mf_model *ma = NULL;
    assert_int_equal(mf_mutant_apply(&ma, m, mu), 0);
    assert_string_equal(mm->hash, ma->hash);
    assert_string_not_equal(ma->hash, m->hash);

    /* A prefix works, a missing id is MF_ENOTFOUND. */
    mf_mutant *p = NULL;
    char prefix[9];
    memcpy(prefix, r.id, 8);
    prefix[8] = '\0';
    assert_int_equal(mf_mutant_find(&p, m, prefix), 0);
    assert_string_equal(p->id, r.id);
    mf_mutant *none = NULL;
    assert_int_equal(mf_mutant_find(&none, m, "not-hex"), MF_ENOTFOUND);
    assert_null(none);

    mf_mutant_free(p);
    mf_model_free(ma);
    mf_model_free(mm);
    mf_buf_free(&out);
    mf_mutant_free(mu);
    mf_model_free(m);
}

/* ---- every printed mutant is valid SMV */

typedef struct {
    const mf_model *m;
    long n, stillborn;
} printed;

static int printed_cb(const mf_mutant *mu, void *v)
{
    printed *p = v;
    p->n++;
    if (mu->status == MF_MUT_STILLBORN) {
        p->stillborn++;
        return 0;
    }
    mf_buf b = {0};
    mf_mutant_print(&b, p->m, mu);
    mf_model *mm = NULL;
    if (mf_model_load(&mm, "mutant.smv", b.data, b.len, NULL) != 0)
        fail_msg("mutant %s (%s) does not load: %s\n%s", mu->id,
                 mf_mop_name(mu->op), mf_err_msg(), b.data);
    assert_non_null(strstr(b.data, "-- end of mutant "));
    mf_model_free(mm);
    mf_buf_free(&b);
    return 0;
}

static void test_print__every_mutant_of_seed_models_loads(void **state)
{
    (void)state;
    const char *files[] = {"tests/models/beverage.smv",
                           "tests/models/car_alarm.smv"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        mf_model *m = load_file(files[i]);
        printed p = {m, 0, 0};
        assert_int_equal(mf_mutants_each(m, 0, printed_cb, &p), 0);
        assert_true(p.n > 100);
        assert_int_equal(p.stillborn, 0);
        mf_model_free(m);
    }
}

/* ---- streaming */

typedef struct {
    long n;
    long stop_at;
    unsigned short prefix_seen[65536 / 16]; /* bitset of 4-hex-digit prefixes */
    char twin[5];                           /* a prefix seen twice */
} stream;

static int stream_cb(const mf_mutant *mu, void *v)
{
    stream *s = v;
    s->n++;
    char p[5];
    memcpy(p, mu->id, 4);
    p[4] = '\0';
    unsigned long x = strtoul(p, NULL, 16);
    if (s->prefix_seen[x / 16] & (1u << (x % 16))) {
        if (!s->twin[0])
            memcpy(s->twin, p, 5);
    }
    s->prefix_seen[x / 16] |= (unsigned short)(1u << (x % 16));
    if (s->stop_at && s->n == s->stop_at)
        return 42;
    return 0;
}

static void test_stream__thousands_of_mutants_one_at_a_time(void **state)
{
    (void)state;
    mf_buf t = {0};
    mf_buf_puts(&t, "MODULE main\nIVAR i : 0..99;\n"
                    "VAR x : 0..99; y : 0..99;\nASSIGN\n"
                    "  next(x) := case\n");
    for (int k = 0; k < 100; k++)
        mf_buf_printf(&t, "    i = %d & x < %d : (y + %d) mod 100;\n", k, k + 1,
                      k);
    mf_buf_puts(&t, "    TRUE : x;\n  esac;\n");
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "big.smv", t.data, t.len, NULL), 0);

    stream *s = calloc(1, sizeof(*s));
    assert_int_equal(mf_mutants_each(m, 0, stream_cb, s), 0);
    long total = s->n;
    assert_true(total > 3000);

    /* The callback's non-zero return stops the enumeration. */
    stream *s2 = calloc(1, sizeof(*s2));
    s2->stop_at = 10;
    assert_int_equal(mf_mutants_each(m, 0, stream_cb, s2), 42);
    assert_int_equal(s2->n, 10);

    /* With thousands of ids some 4-digit prefix is shared: ambiguous. */
    assert_true(s->twin[0] != '\0');
    mf_mutant *mu = NULL;
    assert_int_equal(mf_mutant_find(&mu, m, s->twin), MF_EAMBIGUOUS);
    assert_null(mu);

    free(s);
    free(s2);
    mf_model_free(m);
    mf_buf_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mop__names_round_trip_and_bad_list_rejected),
        cmocka_unit_test(test_case_remove__each_branch_and_swap_adjacent),
        cmocka_unit_test(test_case_remove__skips_single_branch_case),
        cmocka_unit_test(
            test_assign_remove__removes_next_and_invariant_init_separately),
        cmocka_unit_test(test_constraint_remove__each_top_level_conjunct),
        cmocka_unit_test(test_negate__conditions_unwraps_not_skips_constants),
        cmocka_unit_test(test_logic_op__each_replaced_by_each_other),
        cmocka_unit_test(test_arith_op__each_replaced_by_each_other),
        cmocka_unit_test(test_rel_op__orders_integers_only_eq_ne_for_symbols),
        cmocka_unit_test(test_stuck_at__conditions_and_guard_true_is_duplicate),
        cmocka_unit_test(test_stuck_at__condition_of_ite),
        cmocka_unit_test(test_term_remove_and_assoc_shift),
        cmocka_unit_test(test_var_replace__same_type_in_var_order_also_in_next),
        cmocka_unit_test(test_enum_replace__target_type_else_sharing_enums),
        cmocka_unit_test(test_number_replace__clamps_to_target_range),
        cmocka_unit_test(test_digit_replace__each_position_no_leading_zero),
        cmocka_unit_test(test_ids__stable_across_runs_and_layout_comment_edits),
        cmocka_unit_test(test_ids__follow_the_site_path),
        cmocka_unit_test(test_duplicate__same_text_as_original_or_earlier),
        cmocka_unit_test(test_pick__same_mutants_and_status_as_full_enumeration),
        cmocka_unit_test(test_stillborn__next_of_input_variable),
        cmocka_unit_test(test_beverage__refill_one_unit_mutant),
        cmocka_unit_test(test_print__every_mutant_of_seed_models_loads),
        cmocka_unit_test(test_stream__thousands_of_mutants_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
