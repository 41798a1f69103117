/* test_parser.c - the SMV lexer and parser (smv/lexer.c, smv/parse*.c)
 * and the expression helpers they rely on (model/expr.c).
 *
 * Expressions are checked through a prefix rendering, e.g. `a | b & c` is
 * "(| a (& b c))". The corpus test parses every model under
 * MF_SHARED_MODELS (or argv[1]) /corpus and /seeds. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ast.h"
#include "lexer.h"
#include "model.h"

static const char *models_dir = NULL;

/* ---- helpers ---------------------------------------------------------- */

static void render(mf_buf *b, const mf_expr *e)
{
    static const char *const kname[] = {
        [MF_E_NEXT] = "next", [MF_E_NOT] = "!",   [MF_E_NEG] = "neg",
        [MF_E_CASE] = "case", [MF_E_ITE] = "?",   [MF_E_SET] = "{",
        [MF_E_RANGE] = "..",  [MF_E_INDEX] = "[",
    };
    switch (e->kind) {
    case MF_E_BOOL:
        mf_buf_puts(b, e->ival ? "TRUE" : "FALSE");
        return;
    case MF_E_INT:
        mf_buf_printf(b, "%lld", (long long)e->ival);
        return;
    case MF_E_SYM:
        mf_buf_printf(b, "'%s", e->name);
        return;
    case MF_E_WORD:
        mf_buf_printf(b, "%c%d_%lld", MF_WTY_SIGNED(e->wty) ? 's' : 'u',
                      MF_WTY_WIDTH(e->wty), (long long)e->ival);
        return;
    case MF_E_ID:
        mf_buf_puts(b, e->name);
        return;
    case MF_E_BIN:
        mf_buf_printf(b, "(%s", mf_binop_str((mf_binop)e->op));
        break;
    case MF_E_CALL:
        mf_buf_printf(b, "(%s", mf_fn_str((mf_fn)e->op));
        break;
    default:
        mf_buf_printf(b, "(%s", kname[e->kind]);
        break;
    }
    for (int i = 0; i < e->nkids; i++) {
        mf_buf_puts(b, " ");
        render(b, e->kids[i]);
    }
    mf_buf_puts(b, ")");
}

static char rendered[4096];

static const char *sx(const mf_expr *e)
{
    mf_buf b = {0};
    render(&b, e);
    snprintf(rendered, sizeof(rendered), "%s", b.data);
    mf_buf_free(&b);
    return rendered;
}

static mf_ast *parse_ok(const char *src)
{
    mf_ast *ast = NULL;
    int rc = mf_parse(&ast, "t.smv", src, strlen(src));
    if (rc != MF_OK)
        fail_msg("unexpected failure: %s", mf_err_msg());
    assert_non_null(ast);
    return ast;
}

/* Expect failure `code` with exactly `msg`. */
static void parse_fails(const char *src, int code, const char *msg)
{
    mf_ast *ast = (mf_ast *)1;
    int rc = mf_parse(&ast, "t.smv", src, strlen(src));
    assert_null(ast);
    assert_int_equal(rc, code);
    assert_string_equal(mf_err_msg(), msg);
}

/* The rendering of `e` parsed as the body of a DEFINE. */
static const char *expr_sx(const char *e)
{
    char src[2048];
    snprintf(src, sizeof(src), "MODULE main\nDEFINE d := %s;\n", e);
    mf_ast *ast = parse_ok(src);
    assert_int_equal(ast->modules.v[0]->defines.n, 1);
    sx(ast->modules.v[0]->defines.v[0].body);
    mf_ast_free(ast);
    return rendered;
}

/* ---- expressions: precedence and associativity ------------------------ */

static void test_parser__precedence_and_binds_tighter_than_or(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("a | b & c"), "(| a (& b c))");
    assert_string_equal(expr_sx("a & b | c"), "(| (& a b) c)");
}

static void test_parser__implies_is_right_associative_and_loosest(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("a -> b -> c"), "(-> a (-> b c))");
    assert_string_equal(expr_sx("a <-> b -> c"), "(-> (<-> a b) c)");
    assert_string_equal(expr_sx("a -> b <-> c"), "(-> a (<-> b c))");
    assert_string_equal(expr_sx("a <-> b <-> c"), "(<-> (<-> a b) c)");
}

static void test_parser__arithmetic_precedence_and_left_associativity(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("a + b * c - d mod 2"),
                        "(- (+ a (* b c)) (mod d 2))");
    assert_string_equal(expr_sx("a - b - c"), "(- (- a b) c)");
    assert_string_equal(expr_sx("a / b * c"), "(* (/ a b) c)");
}

static void test_parser__relational_binds_tighter_than_and(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("x = 1 & y < z + 2"),
                        "(& (= x 1) (< y (+ z 2)))");
    assert_string_equal(expr_sx("x != 1 | y >= 2 & z <= 3"),
                        "(| (!= x 1) (& (>= y 2) (<= z 3)))");
}

static void test_parser__xor_xnor_share_the_or_level(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("a xor b | c xnor d"),
                        "(xnor (| (xor a b) c) d)");
    assert_string_equal(expr_sx("a xor b & c"), "(xor a (& b c))");
}

static void test_parser__not_and_minus_bind_tightest(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("!a & b"), "(& (! a) b)");
    assert_string_equal(expr_sx("!!a"), "(! (! a))");
    assert_string_equal(expr_sx("-x * 2"), "(* (neg x) 2)");
    assert_string_equal(expr_sx("!(a | b)"), "(! (| a b))");
}

static void test_parser__minus_literal_folds_into_the_number(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("-3 + x"), "(+ -3 x)");
    assert_string_equal(expr_sx("x - 3"), "(- x 3)");
    assert_string_equal(expr_sx("x -3"), "(- x 3)");
    assert_string_equal(expr_sx("-(3)"), "(neg 3)");
}

static void test_parser__ternary_is_right_assoc_below_or(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("a | b ? c : d ? e : f"),
                        "(? (| a b) c (? d e f))");
    assert_string_equal(expr_sx("a ? b : c <-> d"), "(<-> (? a b c) d)");
    assert_string_equal(expr_sx("a ? b ? 1 : 2 : 3"), "(? a (? b 1 2) 3)");
}

static void test_parser__ranges_sets_in_and_union(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("x in 1..3 union 5..6"),
                        "(in x (union (.. 1 3) (.. 5 6)))");
    assert_string_equal(expr_sx("{a, b, 3} union c"), "(union ({ a b 3) c)");
    assert_string_equal(expr_sx("0..N+2"), "(.. 0 (+ N 2))");
    assert_string_equal(expr_sx("x in {1, 2} = TRUE"),
                        "(= (in x ({ 1 2)) TRUE)");
    parse_fails("MODULE main DEFINE d := 1..2..3;", MF_EPARSE,
                "t.smv:1:29: error: a range cannot be a bound of '..'");
}

static void test_parser__next_and_builtin_calls(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("next(x) = min(a, b) + count(a, b, c)"),
                        "(= (next x) (+ (min a b) (count a b c)))");
    assert_string_equal(expr_sx("max(abs(x), toint(b)) > bool(1)"),
                        "(> (max (abs x) (toint b)) (bool 1))");
    parse_fails("MODULE main DEFINE d := abs(1, 2);", MF_EPARSE,
                "t.smv:1:25: error: abs() takes 1 argument");
    parse_fails("MODULE main DEFINE d := min(1);", MF_EPARSE,
                "t.smv:1:25: error: min() takes 2 arguments");
}

/* ---- identifiers -------------------------------------------------------- */

static void test_parser__dotted_names_are_one_identifier(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("self.x & a.b.c"), "(& self.x a.b.c)");
    assert_string_equal(expr_sx("self"), "self");
    assert_string_equal(expr_sx("a.b[i + 1]"), "([ a.b (+ i 1))");
    assert_string_equal(expr_sx("a[1][j]"), "([ ([ a 1) j)");
}

static void test_parser__constant_element_field_folds_into_the_name(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("a[2].b"), "a[2].b");
    assert_string_equal(expr_sx("a[-1].b[3].c"), "a[-1].b[3].c");
    parse_fails("MODULE main DEFINE d := a[i].b;", MF_EUNSUPPORTED,
                "t.smv:1:29: unsupported: field access on an array element "
                "with a non-constant index");
}

static void test_parser__hyphen_dollar_hash_are_identifier_chars(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("i-1"), "i-1");
    assert_string_equal(expr_sx("i - 1"), "(- i 1)");
    assert_string_equal(expr_sx("and-gate.init-out & timeout$ET & x#1"),
                        "(& (& and-gate.init-out timeout$ET) x#1)");
    assert_string_equal(expr_sx("a->b"), "(-> a b)");
    assert_string_equal(expr_sx("a--comment\n & b"), "(& a b)");
}

/* ---- case ------------------------------------------------------------- */

static void test_parser__nested_case_with_parenthesised_ternary(void **s)
{
    (void)s;
    assert_string_equal(
        expr_sx("case j >= (2 - i -1) & swapped : (i < 2 ? i + 1 : i);"
                " TRUE : case a : 1; b : {2, 3}; esac; esac"),
        "(case (& (>= j (- (- 2 i) 1)) swapped) (? (< i 2) (+ i 1) i) "
        "TRUE (case a 1 b ({ 2 3)))");
}

static void test_parser__case_last_semicolon_is_optional(void **s)
{
    (void)s;
    assert_string_equal(expr_sx("case a : 1; TRUE : 2 esac"),
                        "(case a 1 TRUE 2)");
    assert_string_equal(expr_sx("case a : b ? 1 : 2; esac + 1"),
                        "(+ (case a (? b 1 2)) 1)");
}

static void test_parser__rejects_unterminated_case_with_position(void **s)
{
    (void)s;
    parse_fails("MODULE main\nASSIGN\n  next(x) :=\n    case a : 1;\n",
                MF_EPARSE, "t.smv:4:5: error: 'case' without matching 'esac'");
    parse_fails("MODULE main\nASSIGN next(x) := case a : 1 b : 2; esac;",
                MF_EPARSE,
                "t.smv:2:30: error: expected ';' after case branch, "
                "found 'b'");
    parse_fails("MODULE main DEFINE d := case esac;", MF_EPARSE,
                "t.smv:1:25: error: 'case' without branches");
}

/* ---- module structure ------------------------------------------------- */

static void test_parser__module_params_and_declaration_types(void **s)
{
    (void)s;
    mf_ast *ast =
        parse_ok("MODULE cell(left, right)\n"
                 "VAR b : boolean; e : {idle, busy, 3, -1};\n"
                 "  r : -5..N+2; q : 0..(2*3);\n"
                 "  arr : array 0..2 of array 1..3 of {x, y};\n"
                 "  c : arbiter-element(self, a.b, TRUE); d : other;\n"
                 "IVAR i : boolean;\n"
                 "FROZENVAR f : 0..1;\n"
                 "VAR proc1.state : boolean; a.b[2] : 0..1;\n");
    mf_ast_module *m = ast->modules.v[0];
    assert_string_equal(m->name, "cell");
    assert_int_equal(m->nparams, 2);
    assert_string_equal(m->params[1], "right");
    assert_int_equal(m->decls.n, 11);

    mf_ast_decl *d = m->decls.v;
    assert_int_equal(d[0].type->kind, MF_AT_BOOL);
    assert_int_equal(d[0].line, 2);
    assert_int_equal(d[0].col, 5);
    assert_int_equal(d[1].type->kind, MF_AT_ENUM);
    assert_int_equal(d[1].type->nvals, 4);
    assert_int_equal(d[1].type->vals[0]->kind, MF_E_SYM);
    assert_string_equal(d[1].type->vals[1]->name, "busy");
    assert_int_equal(d[1].type->vals[3]->kind, MF_E_INT);
    assert_int_equal(d[1].type->vals[3]->ival, -1);
    assert_int_equal(d[2].type->kind, MF_AT_RANGE);
    assert_string_equal(sx(d[2].type->lo), "-5");
    assert_string_equal(sx(d[2].type->hi), "(+ N 2)");
    assert_string_equal(sx(d[3].type->hi), "(* 2 3)");
    assert_int_equal(d[4].type->kind, MF_AT_ARRAY);
    assert_int_equal(d[4].type->elem->kind, MF_AT_ARRAY);
    assert_int_equal(d[4].type->elem->elem->kind, MF_AT_ENUM);
    assert_string_equal(sx(d[4].type->elem->lo), "1");
    assert_int_equal(d[5].type->kind, MF_AT_INST);
    assert_string_equal(d[5].type->module, "arbiter-element");
    assert_int_equal(d[5].type->nargs, 3);
    assert_string_equal(sx(d[5].type->args[1]), "a.b");
    assert_int_equal(d[6].type->kind, MF_AT_INST);
    assert_string_equal(d[6].type->module, "other");
    assert_int_equal(d[6].type->nargs, 0);
    assert_int_equal(d[7].kind, MF_DECL_IVAR);
    assert_int_equal(d[8].kind, MF_DECL_FROZENVAR);
    assert_int_equal(d[9].kind, MF_DECL_VAR);
    assert_string_equal(d[9].name, "proc1.state");
    assert_string_equal(d[10].name, "a.b[2]");
    mf_ast_free(ast);
}

static void test_parser__assignments_defines_and_constraints(void **s)
{
    (void)s;
    mf_ast *ast =
        parse_ok("MODULE main\n"
                 "ASSIGN init(x) := 0..7; next(a[i + 1]) := {1, 2}; y := x;\n"
                 "  next(p.q) := next(x);\n"
                 "DEFINE s.t := x + 1; u := TRUE;\n"
                 "INIT x = 0\n"
                 "TRANS next(x) != x;\n"
                 "INVAR x < 5;\n"
                 "ASSIGN init(z) := FALSE;\n"
                 "MODULE other\n");
    assert_int_equal(ast->modules.n, 2);
    mf_ast_module *m = ast->modules.v[0];
    assert_int_equal(m->assigns.n, 5);
    assert_int_equal(m->assigns.v[0].kind, MF_ASG_INIT);
    assert_string_equal(sx(m->assigns.v[0].rhs), "(.. 0 7)");
    assert_int_equal(m->assigns.v[1].kind, MF_ASG_NEXT);
    assert_string_equal(sx(m->assigns.v[1].lhs), "([ a (+ i 1))");
    assert_int_equal(m->assigns.v[2].kind, MF_ASG_INVAR);
    assert_string_equal(sx(m->assigns.v[3].lhs), "p.q");
    assert_string_equal(sx(m->assigns.v[3].rhs), "(next x)");
    assert_int_equal(m->assigns.v[4].line, 8);
    assert_int_equal(m->defines.n, 2);
    assert_string_equal(m->defines.v[0].name, "s.t");
    assert_int_equal(m->constraints.n, 3);
    assert_int_equal(m->constraints.v[0].kind, MF_CON_INIT);
    assert_int_equal(m->constraints.v[1].kind, MF_CON_TRANS);
    assert_int_equal(m->constraints.v[2].kind, MF_CON_INVAR);
    assert_string_equal(sx(m->constraints.v[1].e), "(!= (next x) x)");
    assert_int_equal(m->constraints.v[2].line, 7);
    assert_int_equal(m->constraints.v[2].col, 1);
    mf_ast_free(ast);
}

static void test_parser__expression_nodes_carry_positions(void **s)
{
    (void)s;
    mf_ast *ast = parse_ok("MODULE main\nDEFINE d :=\n  a &\n   !b;\n");
    mf_expr *e = ast->modules.v[0]->defines.v[0].body;
    assert_int_equal(e->line, 3);
    assert_int_equal(e->col, 3);
    assert_int_equal(e->kids[1]->kind, MF_E_NOT);
    assert_int_equal(e->kids[1]->line, 4);
    assert_int_equal(e->kids[1]->col, 4);
    assert_int_equal(e->kids[1]->kids[0]->col, 5);
    mf_ast_free(ast);
}

static void test_parser__specs_are_kept_as_text(void **s)
{
    (void)s;
    mf_ast *ast = parse_ok(
        "MODULE main\nVAR x : boolean;\n"
        "LTLSPEC G (x -> F !x);\n"
        "PSLSPEC always eventually! x\n"
        "SPEC AG(x->EF x) -- comment\n"
        "CTLSPEC NAME p1 := AG x;\n"
        "INVARSPEC x in {TRUE}; FAIRNESS x JUSTICE x COMPASSION (x, x)\n"
        "COMPUTE MIN [x, x]\n"
        "VAR y : boolean;\n");
    mf_ast_module *m = ast->modules.v[0];
    assert_int_equal(m->specs.n, 9);
    assert_string_equal(m->specs.v[0].keyword, "LTLSPEC");
    assert_string_equal(m->specs.v[0].text, "G ( x -> F ! x )");
    assert_int_equal(m->specs.v[0].line, 3);
    assert_string_equal(m->specs.v[1].keyword, "PSLSPEC");
    assert_string_equal(m->specs.v[1].text, "always eventually ! x");
    assert_string_equal(m->specs.v[2].text, "AG ( x -> EF x )");
    assert_string_equal(m->specs.v[3].text, "NAME p1 := AG x");
    assert_string_equal(m->specs.v[4].text, "x in { TRUE }");
    assert_string_equal(m->specs.v[5].keyword, "FAIRNESS");
    assert_string_equal(m->specs.v[6].keyword, "JUSTICE");
    assert_string_equal(m->specs.v[7].text, "( x , x )");
    assert_string_equal(m->specs.v[8].keyword, "COMPUTE");
    assert_string_equal(m->specs.v[8].text, "MIN [ x , x ]");
    assert_int_equal(m->decls.n, 2);
    mf_ast_free(ast);
}

/* ---- unsupported constructs --------------------------------------------- */

static void test_parser__process_instances_and_integer_parse(void **s)
{
    (void)s;
    mf_ast *ast = parse_ok("MODULE main\nVAR p : process m(x); q : m(x);\n"
                           "  r : process m; i : integer;\n");
    const mf_ast_module *mm = ast->modules.v[0];
    assert_int_equal(mm->decls.n, 4);
    assert_int_equal(mm->decls.v[0].type->kind, MF_AT_INST);
    assert_int_equal(mm->decls.v[0].type->process, 1);
    assert_int_equal(mm->decls.v[0].type->nargs, 1);
    assert_int_equal(mm->decls.v[1].type->process, 0);
    assert_int_equal(mm->decls.v[2].type->process, 1);
    assert_int_equal(mm->decls.v[3].type->kind, MF_AT_INTEGER);
    mf_ast_free(ast);
    parse_fails("MODULE main\nVAR p : process 0..3;\n", MF_EPARSE,
                "t.smv:2:17: error: expected a module after 'process'");
    parse_fails("MODULE main\nVAR p : process m..n;\n", MF_EPARSE,
                "t.smv:2:9: error: expected a module instance after "
                "'process'");
}

static void test_parser__reads_word_types_and_constants(void **s)
{
    (void)s;
    mf_ast *ast = parse_ok("MODULE main\nVAR w : word[8]; x : signed word[4];"
                           " y : unsigned word[2 * 3];\n");
    const mf_ast_module *m = ast->modules.v[0];
    assert_int_equal(m->decls.n, 3);
    assert_int_equal(m->decls.v[0].type->kind, MF_AT_WORD);
    assert_int_equal(m->decls.v[0].type->is_signed, 0);
    assert_int_equal(m->decls.v[1].type->is_signed, 1);
    assert_string_equal(sx(m->decls.v[2].type->lo), "(* 2 3)");
    mf_ast_free(ast);
    assert_string_equal(expr_sx("0sd16_1000"), "s16_1000");
    assert_string_equal(expr_sx("0ub2_01"), "u2_1");
    assert_string_equal(expr_sx("-0sd8_5"), "s8_-5");
    assert_string_equal(expr_sx("0b_1111_0000"), "u8_240");
    parse_fails("MODULE main\nVAR e : {0ud8_5};\n", MF_EUNSUPPORTED,
                "t.smv:2:10: unsupported: word constants in enumerations");
    parse_fails("MODULE main\nDEFINE d := 0d_5;\n", MF_EPARSE,
                "t.smv:2:13: error: a decimal word constant needs its width "
                "(0ud8_5): 0d_5");
    parse_fails("MODULE main\nDEFINE d := 0ud64_5;\n", MF_EUNSUPPORTED,
                "t.smv:2:13: unsupported: words wider than 32 bits");
    parse_fails("MODULE main\nVAR w : word 8;\n", MF_EPARSE,
                "t.smv:2:14: error: expected '[' after 'word', found '8'");
}

static void test_parser__word_operators_bind_as_in_nusmv(void **s)
{
    (void)s;
    /* [h:l] > ! > :: > unary - > * > + > << >> > comparisons */
    assert_string_equal(expr_sx("a :: b[3:0]"), "(:: a ([:] b 3 0))");
    assert_string_equal(expr_sx("!a :: b"), "(:: (! a) b)");
    assert_string_equal(expr_sx("-a :: b"), "(neg (:: a b))");
    assert_string_equal(expr_sx("a + b << 1"), "(<< (+ a b) 1)");
    assert_string_equal(expr_sx("a << 1 = b >> 2"), "(= (<< a 1) (>> b 2))");
    assert_string_equal(expr_sx("(a + b)[7:4]"), "([:] (+ a b) 7 4)");
    assert_string_equal(expr_sx("a[2][3:1]"), "([:] ([ a 2) 3 1)");
    assert_string_equal(expr_sx("extend(a, 2)"), "(extend a 2)");
    assert_string_equal(expr_sx("resize(signed(a), 3)"),
                        "(resize (signed a) 3)");
    assert_string_equal(expr_sx("word1(TRUE)"), "(word1 TRUE)");
    assert_string_equal(expr_sx("\"max\" < a"), "(< \"max\" a)");
    /* any other `"` stays a one-character token (spec text) */
    mf_ast *ast = parse_ok("MODULE main\nLTLSPEC \"a b\" x\n");
    mf_ast_free(ast);
}

static void test_parser__refuses_integer_real_constants(void **s)
{
    (void)s;
    parse_fails("MODULE main\nVAR r : real;\n", MF_EUNSUPPORTED,
                "t.smv:2:9: unsupported: real type");
    parse_fails("MODULE main\nISA\n", MF_EPARSE,
                "t.smv:3:1: error: expected identifier after ISA, found end of "
                "input");
    parse_fails("MODULE main\nCONSTANTS a, b;\n", MF_EUNSUPPORTED,
                "t.smv:2:1: unsupported: CONSTANTS");
    parse_fails("MODULE main\nDEFINE d := rotate(x, 2);\n", MF_EUNSUPPORTED,
                "t.smv:2:13: unsupported: function 'rotate'");
    parse_fails("MODULE main\nDEFINE d := [1, 2];\n", MF_EUNSUPPORTED,
                "t.smv:2:13: unsupported: array DEFINE");
}

/* ---- syntax errors ---------------------------------------------------- */

static void test_parser__syntax_errors_name_the_position(void **s)
{
    (void)s;
    parse_fails("MODULE main\nVAR x : boolean\ny : boolean;\n", MF_EPARSE,
                "t.smv:3:1: error: expected ';' after declaration, "
                "found 'y'");
    parse_fails("MODULE main\nVAR x : {a, b}\nASSIGN", MF_EPARSE,
                "t.smv:3:1: error: expected ';' after declaration, "
                "found 'ASSIGN'");
    parse_fails("MODULE main\nASSIGN next(x) := (a & b;\n", MF_EPARSE,
                "t.smv:2:25: error: expected ')' to close '(', found ';'");
    parse_fails("MODULE main\nDEFINE d := a &;\n", MF_EPARSE,
                "t.smv:2:16: error: expected expression, found ';'");
    parse_fails("MODULE main\nTRANS a b\n", MF_EPARSE,
                "t.smv:2:9: error: expected a section keyword after TRANS "
                "constraint, found 'b'");
    parse_fails("VAR x : boolean;", MF_EPARSE,
                "t.smv:1:1: error: expected 'MODULE', found 'VAR'");
    parse_fails("", MF_EPARSE, "t.smv:1:1: error: no MODULE in input");
    parse_fails("-- only a comment\n", MF_EPARSE,
                "t.smv:2:1: error: no MODULE in input");
    parse_fails("MODULE main\nDEFINE d := a @ b;\n", MF_EPARSE,
                "t.smv:2:15: error: expected ';' after definition, "
                "found '@'");
    parse_fails("MODULE main\nASSIGN x := 99999999999999999999;\n", MF_EPARSE,
                "t.smv:2:13: error: integer constant too large");
    parse_fails("MODULE main\nLTLSPEC\nMODULE m", MF_EPARSE,
                "t.smv:2:1: error: empty LTLSPEC");
    parse_fails("MODULE main\nDEFINE d := init(x);\n", MF_EPARSE,
                "t.smv:2:13: error: 'init(...)' is only allowed on the left "
                "of ':='");
}

static void test_parser__non_ascii_only_inside_comments(void **s)
{
    (void)s;
    mf_ast *ast = parse_ok("-- \xe8\xbf\x99\xe6\x98\xaf\nMODULE main "
                           "-- \xe6\xb3\xa8\xe9\x87\x8a\nVAR x : boolean;\n");
    mf_ast_free(ast);
    parse_fails("MODULE main\nVAR \xe5\x8f\x98 : boolean;\n", MF_EPARSE,
                "t.smv:2:5: error: non-ASCII character outside a comment");
    parse_fails("MODULE main\n\tVAR\x01", MF_EPARSE,
                "t.smv:2:5: error: unexpected control character 0x01");
}

static void test_parser__refuses_deep_nesting_without_crashing(void **s)
{
    (void)s;
    size_t n = 200000;
    mf_buf b = {0};
    mf_ast *ast = NULL;
    mf_buf_puts(&b, "MODULE main DEFINE d := ");
    for (size_t i = 0; i < n; i++)
        mf_buf_puts(&b, "(");
    assert_int_equal(mf_parse(&ast, "t.smv", b.data, b.len), MF_EPARSE);
    assert_null(ast);
    assert_non_null(strstr(mf_err_msg(), "nested too deeply"));

    mf_buf_reset(&b);
    mf_buf_puts(&b, "MODULE main DEFINE d := ");
    for (size_t i = 0; i < n; i++)
        mf_buf_puts(&b, "!-");
    assert_int_equal(mf_parse(&ast, "t.smv", b.data, b.len), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "nested too deeply"));

    mf_buf_reset(&b);
    mf_buf_puts(&b, "MODULE main DEFINE d := x");
    for (size_t i = 0; i < n; i++)
        mf_buf_puts(&b, " -> x");
    assert_int_equal(mf_parse(&ast, "t.smv", b.data, b.len), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "nested too deeply"));

    /* Left-associative chains do not recurse but build a tall tree. */
    mf_buf_reset(&b);
    mf_buf_puts(&b, "MODULE main DEFINE d := x");
    for (size_t i = 0; i < n; i++)
        mf_buf_puts(&b, " + x");
    assert_int_equal(mf_parse(&ast, "t.smv", b.data, b.len), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "too deep"));

    /* ...while a long but reasonable one is fine. */
    mf_buf_reset(&b);
    mf_buf_puts(&b, "MODULE main DEFINE d := x");
    for (size_t i = 0; i < 5000; i++)
        mf_buf_puts(&b, " | x");
    mf_buf_puts(&b, ";");
    assert_int_equal(mf_parse(&ast, "t.smv", b.data, b.len), MF_OK);
    mf_ast_free(ast);
    mf_buf_free(&b);
}

static void test_parser__long_dotted_chains_cost_linear_memory(void **s)
{
    (void)s;
    size_t n = 100000;
    mf_buf b = {0};
    mf_ast *ast = NULL;
    mf_buf_puts(&b, "MODULE main DEFINE d := a");
    for (size_t i = 0; i < n; i++)
        mf_buf_puts(&b, "[1].a");
    mf_buf_puts(&b, ";");
    /* Rebuilding the name at each step would need ~30 GB here. */
    assert_int_equal(mf_parse(&ast, "t.smv", b.data, b.len), MF_OK);
    const mf_expr *e = ast->modules.v[0]->defines.v[0].body;
    assert_int_equal(e->kind, MF_E_ID);
    assert_int_equal(strlen(e->name), 1 + 5 * n);
    mf_ast_free(ast);
    mf_buf_free(&b);
}

static void test_parser__input_need_not_be_nul_terminated(void **s)
{
    (void)s;
    const char src[] = "MODULE main VAR x : 0..12345";
    mf_ast *ast = NULL;
    char *copy = malloc(sizeof(src) - 1);
    memcpy(copy, src, sizeof(src) - 1);
    /* Cut after "0..12": the parser must not look past len. */
    assert_int_equal(mf_parse(&ast, "t.smv", copy, sizeof(src) - 4), MF_EPARSE);
    assert_string_equal(mf_err_msg(), "t.smv:1:26: error: expected ';' after "
                                      "declaration, found end of input");
    free(copy);
}

/* ---- lexer -------------------------------------------------------------- */

static void test_lexer__positions_count_bytes_from_one(void **s)
{
    (void)s;
    const char *src = "MODULE m\n\tx := -12; -- c\n  0sd16_3 a-b@";
    mf_token *t = NULL;
    int n = 0;
    assert_int_equal(mf_lex(&t, &n, "t", src, strlen(src)), MF_OK);
    assert_int_equal(n, 11); /* the last one is MF_TK_EOF */
    assert_int_equal(t[10].kind, MF_TK_EOF);
    assert_int_equal(t[10].line, 3);
    assert_int_equal(t[10].col, 15);
    assert_int_equal(t[2].kind, MF_TK_ID);
    assert_int_equal(t[2].line, 2);
    assert_int_equal(t[2].col, 2);
    assert_int_equal(t[3].kind, MF_TK_BECOMES);
    assert_int_equal(t[4].kind, MF_TK_MINUS);
    assert_int_equal(t[5].kind, MF_TK_INT);
    assert_int_equal(t[5].ival, 12);
    assert_int_equal(t[6].kind, MF_TK_SEMI);
    assert_int_equal(t[7].kind, MF_TK_WORDC);
    assert_int_equal(t[7].len, 7);
    assert_int_equal(t[7].line, 3);
    assert_int_equal(t[7].col, 3);
    assert_int_equal(t[8].kind, MF_TK_ID);
    assert_int_equal(t[8].len, 3);
    assert_int_equal(t[9].kind, MF_TK_OTHER);
    free(t);
}

/* ---- expr.c ------------------------------------------------------------ */

static void test_expr__copy_is_deep_and_equal(void **s)
{
    (void)s;
    mf_ast *ast = parse_ok("MODULE main DEFINE d := case a.b : {1, -2}; "
                           "TRUE : min(x, y) ? z : next(w[3]); esac;");
    mf_arena *a = mf_arena_new();
    mf_expr *e = ast->modules.v[0]->defines.v[0].body;
    mf_expr *c = mf_expr_copy(a, e);
    assert_true(mf_expr_equal(e, c));
    assert_ptr_not_equal(c->kids[0]->name, e->kids[0]->name);
    c->kids[1]->kids[1]->ival = 2;
    assert_false(mf_expr_equal(e, c));
    mf_expr *add = mf_expr_new(a, MF_E_SET, 1, 1);
    for (int i = 0; i < 5; i++)
        mf_expr_add(a, add, mf_expr_int(a, i, 1, 1));
    assert_int_equal(add->nkids, 5);
    assert_int_equal(add->kids[4]->ival, 4);
    assert_string_equal(mf_binop_str(MF_OP_IFF), "<->");
    assert_string_equal(mf_binop_str(MF_OP_MOD), "mod");
    assert_string_equal(mf_fn_str(MF_FN_COUNT), "count");
    mf_arena_free(a);
    mf_ast_free(ast);
}

/* ---- the corpus --------------------------------------------------------- */

/* Does the model use something the parser must refuse? Judged from the
 * tokens, so comments that mention "process" do not count. */
static int uses_unsupported(const char *text, size_t len)
{
    mf_token *t = NULL;
    int n = 0, found = 0;
    if (mf_lex(&t, &n, "x", text, len) != MF_OK)
        return -1;
    for (int i = 0; i < n; i++)
        if (t[i].kind == MF_TK_real ||
            t[i].kind == MF_TK_CONSTANTS)
            found = 1;
    free(t);
    return found;
}

static int parse_dir(const char *sub, int *nparsed, int *nrefused)
{
    char dir[1024], path[2048];
    int nfiles = 0;
    snprintf(dir, sizeof(dir), "%s/%s", models_dir, sub);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s (set MF_SHARED_MODELS)", dir);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 4 || strcmp(de->d_name + l - 4, ".smv") != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        char *text = NULL;
        size_t len = 0;
        assert_int_equal(mf_read_file(&text, &len, path, 1 << 26), MF_OK);
        int expect_refusal = uses_unsupported(text, len);
        mf_ast *ast = NULL;
        int rc = mf_parse(&ast, path, text, len);
        if (rc == MF_OK && expect_refusal)
            fail_msg("%s: parsed, but uses an unsupported construct", path);
        if (rc != MF_OK && !(rc == MF_EUNSUPPORTED && expect_refusal))
            fail_msg("%s: %s", path, mf_err_msg());
        if (rc == MF_OK) {
            assert_true(ast->modules.n > 0);
            (*nparsed)++;
        } else {
            assert_null(ast);
            (*nrefused)++;
        }
        mf_ast_free(ast);
        free(text);
        nfiles++;
    }
    closedir(d);
    return nfiles;
}

static void test_parser__parses_or_refuses_every_corpus_model(void **s)
{
    (void)s;
    int parsed = 0, refused = 0;
    struct stat sb;
    if (stat(models_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        print_message("# %s: not found (set MF_SHARED_MODELS); skipped\n",
                      models_dir);
        skip();
    }
    assert_true(parse_dir("corpus", &parsed, &refused) > 0);
    assert_true(parse_dir("seeds", &parsed, &refused) > 0);
    print_message("%d models parsed, %d refused as unsupported\n", parsed,
                  refused);
    assert_true(parsed >= refused);
}

int main(int argc, char **argv)
{
    models_dir = argc > 1 ? argv[1] : getenv("MF_SHARED_MODELS");
    if (!models_dir || !*models_dir)
        models_dir = "../shared/models";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parser__precedence_and_binds_tighter_than_or),
        cmocka_unit_test(test_parser__implies_is_right_associative_and_loosest),
        cmocka_unit_test(
            test_parser__arithmetic_precedence_and_left_associativity),
        cmocka_unit_test(test_parser__relational_binds_tighter_than_and),
        cmocka_unit_test(test_parser__xor_xnor_share_the_or_level),
        cmocka_unit_test(test_parser__not_and_minus_bind_tightest),
        cmocka_unit_test(test_parser__minus_literal_folds_into_the_number),
        cmocka_unit_test(test_parser__ternary_is_right_assoc_below_or),
        cmocka_unit_test(test_parser__ranges_sets_in_and_union),
        cmocka_unit_test(test_parser__next_and_builtin_calls),
        cmocka_unit_test(test_parser__dotted_names_are_one_identifier),
        cmocka_unit_test(
            test_parser__constant_element_field_folds_into_the_name),
        cmocka_unit_test(test_parser__hyphen_dollar_hash_are_identifier_chars),
        cmocka_unit_test(test_parser__nested_case_with_parenthesised_ternary),
        cmocka_unit_test(test_parser__case_last_semicolon_is_optional),
        cmocka_unit_test(test_parser__rejects_unterminated_case_with_position),
        cmocka_unit_test(test_parser__module_params_and_declaration_types),
        cmocka_unit_test(test_parser__assignments_defines_and_constraints),
        cmocka_unit_test(test_parser__expression_nodes_carry_positions),
        cmocka_unit_test(test_parser__specs_are_kept_as_text),
        cmocka_unit_test(test_parser__reads_word_types_and_constants),
        cmocka_unit_test(test_parser__word_operators_bind_as_in_nusmv),
        cmocka_unit_test(test_parser__process_instances_and_integer_parse),
        cmocka_unit_test(test_parser__refuses_integer_real_constants),
        cmocka_unit_test(test_parser__syntax_errors_name_the_position),
        cmocka_unit_test(test_parser__non_ascii_only_inside_comments),
        cmocka_unit_test(test_parser__refuses_deep_nesting_without_crashing),
        cmocka_unit_test(test_parser__long_dotted_chains_cost_linear_memory),
        cmocka_unit_test(test_parser__input_need_not_be_nul_terminated),
        cmocka_unit_test(test_lexer__positions_count_bytes_from_one),
        cmocka_unit_test(test_expr__copy_is_deep_and_equal),
        cmocka_unit_test(test_parser__parses_or_refuses_every_corpus_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
