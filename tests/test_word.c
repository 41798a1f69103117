/* test_word.c - NuSMV's words (model/word.c and their path through the
 * lexer, parser, type checker, printer, evaluator and mutation engine).
 *
 * Every expected value is worked out by hand from the NuSMV 2.6 user
 * manual, section 2.2 (the examples of the manual are used where it gives
 * them: shifts, bit selection, concatenation, extend, signed/unsigned, the
 * division table): each expression is the body of a DEFINE of a one-line
 * model, evaluated by the simulator's evaluator. Signed and unsigned edges
 * are pinned: overflow wraps modulo 2^N, a shift by N empties the word (or
 * fills it with the sign), a shift by more than N and a division by zero
 * have no value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mutate.h"
#include "sim.h"
#include "word.h"
#include "langs.h"
#include "smv.h"

/* ---- helpers ------------------------------------------------------------ */

#define NOVALUE INT64_MIN

static mf_model *load_define(const char *expr)
{
    mf_buf t = {0};
    mf_buf_printf(&t,
                  "MODULE main\nVAR b : boolean;\nu : unsigned word[4];\n"
                  "DEFINE d := %s;\n",
                  expr);
    mf_model *m = NULL;
    int rc = mf_model_load(&m, "w.smv", t.data, t.len, NULL);
    mf_buf_free(&t);
    if (rc != 0)
        fail_msg("`%s` refused: %s", expr, mf_err_msg());
    return m;
}

/* The one value of expression `expr`, or NOVALUE when it has none. */
static int64_t val(const char *expr)
{
    mf_model *m = load_define(expr);
    int d = mf_model_find_define(m, "d");
    assert_true(d >= 0);
    mf_val cur[8] = {0};
    mf_valset out = {0};
    assert_int_equal(mf_eval(&out, m, m->items[d].e, cur, NULL, NULL, 0), 0);
    int64_t r = NOVALUE;
    if (out.n == 1)
        r = out.v[0];
    else if (out.n != 0)
        fail_msg("`%s` has %d values", expr, out.n);
    MF_VEC_FREE(out);
    mf_model_free(m);
    return r;
}

/* The code of `expr`'s refusal (MF_ETYPE, MF_EPARSE, MF_EUNSUPPORTED), and
 * its message in msg. */
static int refused(const char *expr, char *msg, size_t n)
{
    mf_buf t = {0};
    mf_buf_printf(&t, "MODULE main\nVAR b : boolean;\nDEFINE d := %s;\n",
                  expr);
    mf_model *m = NULL;
    int rc = mf_model_load(&m, "w.smv", t.data, t.len, NULL);
    mf_buf_free(&t);
    if (rc == 0) {
        mf_model_free(m);
        fail_msg("`%s` accepted", expr);
    }
    snprintf(msg, n, "%s", mf_err_msg());
    return rc;
}

static void assert_refused(const char *expr, int code, const char *part)
{
    char msg[512];
    assert_int_equal(refused(expr, msg, sizeof msg), code);
    if (!strstr(msg, part))
        fail_msg("`%s`: message `%s` lacks `%s`", expr, msg, part);
}

/* ---- constants ---------------------------------------------------------- */

static void test_word__constants_read_as_the_manual_says(void **state)
{
    (void)state;
    /* the manual's five spellings of 11 as an unsigned word[8] */
    assert_int_equal(val("0ud8_11 = 0ub8_1011"), 1);
    assert_int_equal(val("0ud8_11 = 0b_00001011"), 1);
    assert_int_equal(val("0ud8_11 = 0h_0b"), 1);
    assert_int_equal(val("0ud8_11 = 0h8_b"), 1);
    assert_int_equal(val("0ud8_11"), 11);
    assert_int_equal(val("0o8_173"), 123);
    assert_int_equal(val("0b_0101_1111_1100"), 0x5fc); /* underscores */
    assert_int_equal(val("0uh8_ff"), 255);
    /* signed: the bits read as two's complement */
    assert_int_equal(val("0sb4_1010"), -6);
    assert_int_equal(val("0sh_7b"), 123);
    assert_int_equal(val("0sb_11111111"), -1);
    /* signed decimal: 0 .. 2^(N-1), so 128 is the bits 10000000 */
    assert_int_equal(val("0sd8_128"), -128);
    assert_int_equal(val("-0sd8_128"), -128); /* -(-128) wraps */
    assert_int_equal(val("-0sd16_32767"), -32767);
    assert_int_equal(val("-0ud8_1"), 255);
    assert_int_equal(val("uwconst(123, 8) = 0h_7b"), 1);
    assert_int_equal(val("swconst(-5, 8)"), -5);
    assert_int_equal(val("sizeof(0ud8_5)"), 8);
}

static void test_word__bad_constants_are_refused(void **state)
{
    (void)state;
    assert_refused("0d_19", MF_EPARSE, "needs its width");
    assert_refused("0ud8_256", MF_EPARSE, "does not fit");
    assert_refused("0sd8_129", MF_EPARSE, "does not fit");
    assert_refused("0ub4_12", MF_EPARSE, "digit '2'");
    assert_refused("0ud0_0", MF_EPARSE, "greater than 0");
    assert_refused("0ud33_1", MF_EUNSUPPORTED, "wider than 32");
    assert_refused("uwconst(16, 4)", MF_ETYPE, "does not fit");
    assert_refused("swconst(8, 4)", MF_ETYPE, "does not fit");
}

/* ---- arithmetic modulo 2^N ---------------------------------------------- */

static void test_word__addition_and_subtraction_wrap(void **state)
{
    (void)state;
    assert_int_equal(val("0ud8_200 + 0ud8_100"), 44);  /* 300 - 256 */
    assert_int_equal(val("0sd8_127 + 0sd8_1"), -128);  /* overflow */
    assert_int_equal(val("0ud8_5 - 0ud8_7"), 254);     /* -2 + 256 */
    assert_int_equal(val("0sd8_5 - 0sd8_7"), -2);
    assert_int_equal(val("-0sd8_128 - 0sd8_1"), 127);  /* underflow */
    assert_int_equal(val("-(0ud8_1 + 0ud8_0)"), 255);  /* unary minus */
    assert_int_equal(val("-(0sd8_127 + 0sd8_1)"), -128);
}

static void test_word__multiplication_wraps(void **state)
{
    (void)state;
    assert_int_equal(val("0ud8_16 * 0ud8_17"), 16);  /* 272 - 256 */
    assert_int_equal(val("0sd8_64 * 0sd8_2"), -128); /* 128 wraps */
    assert_int_equal(val("-0sd8_3 * 0sd8_5"), -15);
    assert_int_equal(val("0ud32_65536 * 0ud32_65536"), 0); /* 2^32 */
}

static void test_word__division_truncates_toward_zero(void **state)
{
    (void)state;
    /* the manual's table: 7/5 = 1, -7/5 = -1, 7/-5 = -1, -7/-5 = 1 and
     * 7 mod 5 = 2, -7 mod 5 = -2, 7 mod -5 = 2, -7 mod -5 = -2 */
    assert_int_equal(val("0sd8_7 / 0sd8_5"), 1);
    assert_int_equal(val("-0sd8_7 / 0sd8_5"), -1);
    assert_int_equal(val("0sd8_7 / -0sd8_5"), -1);
    assert_int_equal(val("-0sd8_7 / -0sd8_5"), 1);
    assert_int_equal(val("0sd8_7 mod 0sd8_5"), 2);
    assert_int_equal(val("-0sd8_7 mod 0sd8_5"), -2);
    assert_int_equal(val("0sd8_7 mod -0sd8_5"), 2);
    assert_int_equal(val("-0sd8_7 mod -0sd8_5"), -2);
    /* unsigned: the bits of -7 are 249 */
    assert_int_equal(val("0ud8_249 / 0ud8_5"), 49);
    assert_int_equal(val("0ud8_249 mod 0ud8_5"), 4);
    /* -128 / -1 = 128 does not fit: it wraps to -128 */
    assert_int_equal(val("-0sd8_128 / -0sd8_1"), -128);
    assert_int_equal(val("-0sd8_128 mod -0sd8_1"), 0);
}

static void test_word__division_by_zero_has_no_value(void **state)
{
    (void)state;
    assert_true(val("0ud8_5 / 0ud8_0") == NOVALUE);
    assert_true(val("0sd8_5 mod 0sd8_0") == NOVALUE);
    int64_t r = 0;
    assert_int_equal(
        mf_word_binop(&r, MF_OP_DIV, MF_WTY(8, 0), 5, MF_WTY(8, 0), 0), 1);
    /* a guard protects it, as for integers */
    assert_int_equal(val("case b : 0ud8_5 / 0ud8_0; TRUE : 0ud8_1; esac"), 1);
}

/* ---- comparisons -------------------------------------------------------- */

static void test_word__comparisons_follow_the_signedness(void **state)
{
    (void)state;
    /* the same bits 11001000: 200 unsigned, -56 signed */
    assert_int_equal(val("0ub8_11001000 > 0ud8_100"), 1);
    assert_int_equal(val("0sb8_11001000 > 0sd8_100"), 0);
    assert_int_equal(val("0sb8_11001000 < 0sd8_100"), 1);
    assert_int_equal(val("0ud8_100 <= 0ud8_100"), 1);
    assert_int_equal(val("-0sd8_1 >= 0sd8_0"), 0);
    assert_int_equal(val("0ud4_3 = 0ub4_0011"), 1);
    assert_int_equal(val("0ud4_3 != 0ub4_0011"), 0);
    assert_refused("0ud8_1 < 0sd8_1", MF_ETYPE, "signed word[8]");
    assert_refused("0ud8_1 = 0ud4_1", MF_ETYPE, "unsigned word[4]");
    assert_refused("0ud8_1 = 1", MF_ETYPE, "integer");
}

/* ---- bitwise ------------------------------------------------------------ */

static void test_word__bitwise_operators(void **state)
{
    (void)state;
    assert_int_equal(val("!0ub4_0101"), 10);
    assert_int_equal(val("!0sd4_0"), -1);
    assert_int_equal(val("0ub4_1100 & 0ub4_1010"), 8);
    assert_int_equal(val("0ub4_1100 | 0ub4_1010"), 14);
    assert_int_equal(val("0ub4_1100 xor 0ub4_1010"), 6);
    assert_int_equal(val("0ub4_1100 xnor 0ub4_1010"), 9);
    assert_int_equal(val("0ub4_1100 -> 0ub4_1010"), 11); /* !a | b */
    assert_int_equal(val("0ub4_1100 <-> 0ub4_1010"), 9);
    assert_int_equal(val("0sb4_1100 & 0sb4_1010"), -8);
    assert_refused("0ub4_1100 & TRUE", MF_ETYPE, "boolean");
}

/* ---- shifts ------------------------------------------------------------- */

static void test_word__shifts_as_in_the_manual(void **state)
{
    (void)state;
    assert_int_equal(val("0ub4_0101 << 2"), 4);  /* 0ub4_0100 */
    assert_int_equal(val("0ub4_0100 << 1"), 8);  /* 0ub4_1000 */
    assert_int_equal(val("0ub4_1000 << 0"), 8);
    assert_int_equal(val("0sb4_1011 >> 2"), -2); /* 0sb4_1110 */
    assert_int_equal(val("0ub4_1011 >> 2"), 2);  /* 0ub4_0010 */
    assert_int_equal(val("0ub4_0001 << 0ud2_3"), 8); /* a word amount */
}

static void test_word__shift_by_the_width_or_more(void **state)
{
    (void)state;
    assert_int_equal(val("0ub4_1111 << 4"), 0);
    assert_int_equal(val("0ub4_1000 >> 4"), 0);
    assert_int_equal(val("0sb4_1000 >> 4"), -1); /* the sign fills it */
    assert_int_equal(val("0sb4_0111 >> 4"), 0);
    /* NuSMV: the amount must be in 0..N; past it there is no value */
    assert_true(val("0ub4_0001 << 5") == NOVALUE);
    assert_true(val("0sb4_1000 >> 5") == NOVALUE);
    assert_true(val("0ub4_0001 << -1") == NOVALUE);
    assert_refused("0ub4_1 << 0sd2_1", MF_ETYPE, "unsigned word");
}

/* ---- selection, concatenation, conversions ------------------------------ */

static void test_word__selection_and_concatenation(void **state)
{
    (void)state;
    assert_int_equal(val("0sb7_1011001[4:1]"), 12); /* 0ub4_1100 */
    assert_int_equal(val("0ub3_101[0:0]"), 1);
    assert_int_equal(val("0sb7_1011001[4:1] = 0ub4_1100"), 1);
    assert_int_equal(val("0ub4_1101 :: 0sb2_00"), 52); /* 0ub6_110100 */
    assert_int_equal(val("(0ub4_1101 :: 0sb2_00) = 0ub6_110100"), 1);
    assert_int_equal(val("u[3:0] = u"), 1);
    assert_refused("0ub3_101[3:0]", MF_ETYPE, "bits [3:0]");
    assert_refused("0ud20_1 :: 0ud20_1", MF_EUNSUPPORTED, "wider than 32");
}

static void test_word__conversions(void **state)
{
    (void)state;
    assert_int_equal(val("extend(0ub3_101, 2)"), 5);
    assert_int_equal(val("extend(0sb3_101, 2)"), -3); /* 0sb5_11101 */
    assert_int_equal(val("extend(0sb3_011, 2)"), 3);
    assert_int_equal(val("extend(0sb3_101, 2) = 0sb5_11101"), 1);
    assert_int_equal(val("resize(0ud8_200, 4)"), 8);  /* bits 3..0 */
    assert_int_equal(val("resize(-0sd8_3, 4)"), -3);  /* 1 then 101 */
    assert_int_equal(val("resize(0sd8_100, 4)"), 4);  /* 0 then 100 */
    assert_int_equal(val("resize(0sd8_100, 1)"), 0);  /* the sign alone */
    assert_int_equal(val("resize(-0sd8_100, 1)"), -1);
    assert_int_equal(val("resize(-0sd4_1, 8)"), -1);
    assert_int_equal(val("resize(0ud4_15, 8)"), 15);
    assert_int_equal(val("signed(0ud3_5)"), -3);   /* manual */
    assert_int_equal(val("unsigned(-0sd3_3)"), 5); /* manual */
    assert_int_equal(val("word1(TRUE)"), 1);
    assert_int_equal(val("word1(FALSE) = 0ub1_0"), 1);
    assert_int_equal(val("bool(0ub1_1)"), 1);
    assert_int_equal(val("toint(-0sd8_5)"), -5);
    assert_int_equal(val("toint(0ud8_255) + 1"), 256);
    assert_refused("signed(0sd3_1)", MF_ETYPE, "signed");
    assert_refused("bool(0ud2_1)", MF_ETYPE, "unsigned word[2]");
    assert_refused("word1(0ud1_1)", MF_ETYPE, "word1");
}

/* ---- types, printing, mutants ------------------------------------------- */

static void test_word__variables_take_only_their_type(void **state)
{
    (void)state;
    const char *ok = "MODULE main\nVAR x : signed word[3];\n"
                     "ASSIGN init(x) := -0sd3_4; next(x) := x + 0sd3_1;\n";
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "w.smv", ok, strlen(ok), NULL), 0);
    const mf_type *t = m->vars[0].type;
    assert_int_equal(t->lo, -4);
    assert_int_equal(t->hi, 3);
    mf_model_free(m);
    const char *bad = "MODULE main\nVAR x : unsigned word[3];\n"
                      "ASSIGN init(x) := 0;\n";
    assert_int_equal(mf_model_load(&m, "w.smv", bad, strlen(bad), NULL),
                     MF_ETYPE);
    assert_non_null(strstr(mf_err_msg(), "unsigned word[3]"));
}

static void test_word__a_word_indexes_an_array(void **state)
{
    (void)state;
    const char *src = "MODULE main\nVAR a : array 0..3 of 0..9;\n"
                      "  i : unsigned word[2];\n"
                      "ASSIGN init(a[0]) := 5; init(a[1]) := 6;\n"
                      "DEFINE d := a[i + 0ud2_1];\n";
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "w.smv", src, strlen(src), NULL), 0);
    int d = mf_model_find_define(m, "d");
    mf_val cur[8] = {5, 6, 7, 8, 0}; /* a[0..3], i = 0 */
    mf_valset out = {0};
    assert_int_equal(mf_eval(&out, m, m->items[d].e, cur, NULL, NULL, 0), 0);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0], 6); /* a[1] */
    MF_VEC_FREE(out);
    mf_model_free(m);
}

static void test_word__the_print_parses_back_to_itself(void **state)
{
    (void)state;
    const char *src =
        "MODULE main\nIVAR i : unsigned word[2];\n"
        "VAR x : signed word[4]; y : word[6];\n"
        "DEFINE a := -0sd4_8; b := (-0sd4_3) :: 0ub2_11;\n"
        "  c := !y[5:2] :: i; e := -(x :: i)[3:0];\n"
        "ASSIGN init(x) := -0sd4_1; next(x) := -x >> 1;\n"
        "  init(y) := 0ud6_0; next(y) := (y << toint(i)) - extend(c, 0);\n";
    mf_model *m = NULL, *m2 = NULL;
    assert_int_equal(mf_model_load(&m, "w.smv", src, strlen(src), NULL), 0);
    mf_buf p1 = {0}, p2 = {0};
    mf_print_model(&p1, m);
    assert_non_null(strstr(p1.data, "(-0sd4_3) :: 0ud2_3"));
    assert_non_null(strstr(p1.data, "x : signed word[4];"));
    assert_non_null(strstr(p1.data, "y : unsigned word[6];"));
    assert_int_equal(mf_model_load(&m2, "p.smv", p1.data, p1.len, NULL), 0);
    mf_print_model(&p2, m2);
    assert_string_equal(p1.data, p2.data);
    mf_buf_free(&p1);
    mf_buf_free(&p2);
    mf_model_free(m);
    mf_model_free(m2);
}

typedef struct {
    int n[MF_MOP__COUNT];
    int flip_to_4, flip_to_7, flip_to_1, sel_up, sel_down, shr, bitwise_or;
} mcount;

static int count_mutant(const mf_mutant *mu, void *ctx)
{
    mcount *c = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    c->n[mu->op]++;
    c->flip_to_4 += mu->op == MF_MOP_WORD_BIT_FLIP && !strcmp(mu->repl, "0ud3_4");
    c->flip_to_7 += mu->op == MF_MOP_WORD_BIT_FLIP && !strcmp(mu->repl, "0ud3_7");
    c->flip_to_1 += mu->op == MF_MOP_WORD_BIT_FLIP && !strcmp(mu->repl, "0ud3_1");
    c->sel_up += mu->op == MF_MOP_WORD_SELECT && !strcmp(mu->repl, "[2:1]");
    c->sel_down += mu->op == MF_MOP_WORD_SELECT && !strcmp(mu->repl, "[0:-1]");
    c->shr += mu->op == MF_MOP_WORD_SHIFT && !strcmp(mu->repl, ">>");
    c->bitwise_or += mu->op == MF_MOP_WORD_BITWISE && !strcmp(mu->repl, "|");
    return 0;
}

static void test_word__mutation_operators(void **state)
{
    (void)state;
    /* 0ud3_5 = 101: bit 0 -> 100 (4), bit 1 -> 111 (7), bit 2 -> 001 (1) */
    const char *src = "MODULE main\nIVAR i : unsigned word[3];\n"
                      "VAR x : unsigned word[3];\n"
                      "ASSIGN init(x) := 0ud3_5;\n"
                      "  next(x) := ((x & i) << 1) + extend(x[1:0], 1);\n";
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "w.smv", src, strlen(src), NULL), 0);
    mcount c = {0};
    assert_int_equal(mf_mutants_each(m, 0, count_mutant, &c), 0);
    assert_int_equal(c.n[MF_MOP_WORD_BIT_FLIP], 3);
    assert_int_equal(c.flip_to_4 + c.flip_to_7 + c.flip_to_1, 3);
    assert_int_equal(c.n[MF_MOP_WORD_BITWISE], 3); /* & -> | xor xnor */
    assert_int_equal(c.bitwise_or, 1);
    assert_int_equal(c.n[MF_MOP_WORD_SHIFT], 1);
    assert_int_equal(c.shr, 1);
    assert_int_equal(c.n[MF_MOP_WORD_SELECT], 1); /* [1:0] -> [2:1] only */
    assert_int_equal(c.sel_up, 1);
    assert_int_equal(c.sel_down, 0);
    assert_int_equal(c.n[MF_MOP_LOGIC_OP], 0); /* words are not logic */
    assert_int_equal(mf_mop_from_name("word-bit-flip"), MF_MOP_WORD_BIT_FLIP);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word__constants_read_as_the_manual_says),
        cmocka_unit_test(test_word__bad_constants_are_refused),
        cmocka_unit_test(test_word__addition_and_subtraction_wrap),
        cmocka_unit_test(test_word__multiplication_wraps),
        cmocka_unit_test(test_word__division_truncates_toward_zero),
        cmocka_unit_test(test_word__division_by_zero_has_no_value),
        cmocka_unit_test(test_word__comparisons_follow_the_signedness),
        cmocka_unit_test(test_word__bitwise_operators),
        cmocka_unit_test(test_word__shifts_as_in_the_manual),
        cmocka_unit_test(test_word__shift_by_the_width_or_more),
        cmocka_unit_test(test_word__selection_and_concatenation),
        cmocka_unit_test(test_word__conversions),
        cmocka_unit_test(test_word__variables_take_only_their_type),
        cmocka_unit_test(test_word__a_word_indexes_an_array),
        cmocka_unit_test(test_word__the_print_parses_back_to_itself),
        cmocka_unit_test(test_word__mutation_operators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
