/* typecheck.c - the type rules of the common model (model.h): every item's
 * expression checked against the variables' types (booleans, integers,
 * symbols, words, arrays), one assignment per variable (element), and no
 * combinational loop through invariant assignments and DEFINEs. A
 * language's loader runs it on every item (mf_model_finish) and the
 * mutation operators on every mutated item (mf_model_check_item), so a
 * mutant that fails is stillborn. It builds nothing and evaluates nothing. */
#include "model.h"
#include "word.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXPR_DEPTH 2000

/* ---- type checking --------------------------------------------------- */

/* Type classes: what a value can be compared and combined with. A word
 * class is TC_WORD with its type (expr.h MF_WTY) above the flags: words meet
 * only words of the same width and signedness, as in NuSMV. */
enum { TC_BOOL = 1, TC_INT = 2, TC_SYM = 4, TC_WORD = 8 };
#define TC_OF_WTY(w) (TC_WORD | ((w) << 4))
#define TC_IS_WORD(tc) (((tc)&TC_WORD) != 0)
#define TC_WTY(tc) ((tc) >> 4)

typedef struct {
    const mf_model *m;
    const char *file;
    int *def_tc;   /* memo per DEFINE: 0 = unknown, -1 = in progress */
    int *def_next; /* per DEFINE: uses next() */
} tctx;

static int tc_err(tctx *t, const mf_expr *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int tc_err(tctx *t, const mf_expr *e, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_err_set(MF_ETYPE, "%s:%d:%d: error: %s", t->file, e->line, e->col,
                      msg);
}

static int tc_of_type(const mf_type *ty)
{
    ty = mf_type_scalar(ty);
    switch (ty->kind) {
    case MF_TY_BOOL:
        return TC_BOOL;
    case MF_TY_RANGE:
        return ty->wty ? TC_OF_WTY(ty->wty) : TC_INT;
    case MF_TY_ENUM: {
        int tc = 0;
        for (int i = 0; i < ty->nvals; i++)
            tc |= MF_IS_SYM(ty->vals[i]) ? TC_SYM : TC_INT;
        return tc;
    }
    default:
        return 0;
    }
}

static const char *tc_name(int tc)
{
    if (TC_IS_WORD(tc)) {
        /* a few names may be in one message: a small ring of buffers */
        static _Thread_local char ring[4][32];
        static _Thread_local int at;
        char *b = ring[at++ & 3];
        snprintf(b, sizeof ring[0], "%s word[%d]",
                 MF_WTY_SIGNED(TC_WTY(tc)) ? "signed" : "unsigned",
                 MF_WTY_WIDTH(TC_WTY(tc)));
        return b;
    }
    switch (tc) {
    case TC_BOOL:
        return "boolean";
    case TC_INT:
        return "integer";
    case TC_SYM:
        return "symbolic";
    case TC_INT | TC_SYM:
        return "integer-symbolic enumeration";
    default:
        return "mixed";
    }
}

/* Can values of classes a and b meet (compare, share a case)? */
static int tc_compat(int a, int b)
{
    if (TC_IS_WORD(a) || TC_IS_WORD(b))
        return a == b;
    if (a == TC_BOOL || b == TC_BOOL)
        return a == b;
    return (a & b) != 0 || ((a | b) & ~(TC_INT | TC_SYM)) == 0;
}

/* flags for the context of a check */
enum { TX_NEXT_OK = 1, TX_IN_NEXT = 2 };

static int tc_expr(tctx *t, int *tc, const mf_expr *e, int flags, int depth);

static int tc_want(tctx *t, const mf_expr *e, int want, int flags, int depth,
                   const char *what)
{
    int tc;
    int rc = tc_expr(t, &tc, e, flags, depth + 1);
    if (rc)
        return rc;
    if (tc != want)
        return tc_err(t, e, "%s must be %s, found %s", what, tc_name(want),
                      tc_name(tc));
    return 0;
}

static int tc_array_base(tctx *t, const mf_type **out, const mf_expr *e,
                         int flags, int depth)
{
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *out = t->m->vars[e->ref].type;
        return 0;
    }
    if (e->kind == MF_E_NEXT) {
        if (!(flags & TX_NEXT_OK) || (flags & TX_IN_NEXT))
            return tc_err(t, e, "next() is not allowed here");
        return tc_array_base(t, out, e->kids[0], flags | TX_IN_NEXT, depth + 1);
    }
    if (e->kind == MF_E_INDEX) {
        const mf_type *bt;
        int rc = tc_array_base(t, &bt, e->kids[0], flags, depth + 1);
        if (rc)
            return rc;
        if (bt->kind != MF_TY_ARRAY)
            return tc_err(t, e, "indexing something that is not an array");
        int ic;
        if ((rc = tc_expr(t, &ic, e->kids[1], flags, depth + 1)))
            return rc;
        if (ic != TC_INT && !TC_IS_WORD(ic)) /* NuSMV: an integer or a word */
            return tc_err(t, e->kids[1],
                          "an array index must be integer, "
                          "found %s",
                          tc_name(ic));
        *out = bt->elem;
        return 0;
    }
    return tc_err(t, e, "indexing something that is not an array");
}

static int uses_next(const mf_model *m, const mf_expr *e, int depth);

static int tc_define(tctx *t, int *tc, const mf_expr *e, int flags)
{
    int d = e->ref;
    if (t->def_tc[d] == -1)
        return tc_err(t, e, "DEFINE '%s' depends on itself", e->name);
    if (t->def_tc[d] == 0) {
        t->def_tc[d] = -1;
        int dtc;
        /* a DEFINE body may use next(); where it is used decides */
        t->def_next[d] = uses_next(t->m, t->m->items[d].e, 0);
        int rc = tc_expr(t, &dtc, t->m->items[d].e, TX_NEXT_OK, 0);
        if (rc)
            return rc;
        t->def_tc[d] = dtc;
    }
    if (t->def_next[d] && !(flags & TX_NEXT_OK))
        return tc_err(t, e, "DEFINE '%s' uses next(), not allowed here",
                      e->name);
    *tc = t->def_tc[d];
    return 0;
}

static int uses_next(const mf_model *m, const mf_expr *e, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return 0;
    if (e->kind == MF_E_NEXT)
        return 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return uses_next(m, m->items[e->ref].e, depth + 1);
    for (int i = 0; i < e->nkids; i++)
        if (uses_next(m, e->kids[i], depth + 1))
            return 1;
    return 0;
}

int mf_expr_reads_next(const mf_model *m, const mf_expr *e)
{
    return uses_next(m, e, 0);
}

static int tc_word(tctx *t, int *tc, const mf_expr *e, int flags, int depth,
                   const int *left);

static int tc_expr_raw(tctx *t, int *tc, const mf_expr *e, int flags, int depth)
{
    int a, b, rc;
    if (depth > MAX_EXPR_DEPTH)
        return tc_err(t, e, "expression nested too deeply");
    switch (e->kind) {
    case MF_E_BOOL:
        *tc = TC_BOOL;
        return 0;
    case MF_E_INT:
        *tc = TC_INT;
        return 0;
    case MF_E_SYM:
        *tc = TC_SYM;
        return 0;
    case MF_E_WORD:
        *tc = TC_OF_WTY(e->wty);
        return 0;
    case MF_E_ID:
        if (e->ref_kind == MF_REF_VAR) {
            const mf_type *ty = t->m->vars[e->ref].type;
            if (ty->kind == MF_TY_ARRAY)
                return tc_err(t, e, "array '%s' used without an index",
                              e->name);
            if ((flags & TX_IN_NEXT) && t->m->vars[e->ref].decl == MF_DECL_IVAR)
                return tc_err(t, e, "next() of input variable '%s'", e->name);
            *tc = tc_of_type(ty);
            return 0;
        }
        if (e->ref_kind == MF_REF_DEFINE) {
            if ((flags & TX_IN_NEXT) && uses_next(t->m, e, 0))
                return tc_err(t, e, "next() inside next()");
            return tc_define(t, tc, e, flags);
        }
        return tc_err(t, e, "module instance '%s' used as a value",
                      *e->name ? e->name : "self");
    case MF_E_NEXT:
        if (!(flags & TX_NEXT_OK))
            return tc_err(t, e, "next() is not allowed here");
        if (flags & TX_IN_NEXT)
            return tc_err(t, e, "next() inside next()");
        return tc_expr(t, tc, e->kids[0], flags | TX_IN_NEXT, depth + 1);
    case MF_E_NOT:
    case MF_E_NEG:
        if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
            return rc;
        if (TC_IS_WORD(a)) {
            *tc = a;
            return 0;
        }
        *tc = e->kind == MF_E_NOT ? TC_BOOL : TC_INT;
        if (a != *tc)
            return tc_err(t, e->kids[0], "operand of '%s' must be %s, found %s",
                          e->kind == MF_E_NOT ? "!" : "unary -", tc_name(*tc),
                          tc_name(a));
        return 0;
    case MF_E_BIN:
        if (e->op == MF_OP_SHL || e->op == MF_OP_SHR || e->op == MF_OP_CONCAT)
            return tc_word(t, tc, e, flags, depth, NULL);
        if (e->op != MF_OP_EQ && e->op != MF_OP_NE && e->op != MF_OP_IN &&
            e->op != MF_OP_UNION) {
            /* a word on the left: the operator's word form; else the left
             * operand's class is checked below, without a second walk */
            if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
                return rc;
            if (TC_IS_WORD(a))
                return tc_word(t, tc, e, flags, depth, &a);
        }
        switch (e->op) {
        case MF_OP_AND:
        case MF_OP_OR:
        case MF_OP_XOR:
        case MF_OP_XNOR:
        case MF_OP_IMPLIES:
        case MF_OP_IFF:
            *tc = TC_BOOL;
            if (a != TC_BOOL)
                return tc_err(t, e->kids[0],
                              "a logical operand must be %s, "
                              "found %s",
                              tc_name(TC_BOOL), tc_name(a));
            return tc_want(t, e->kids[1], TC_BOOL, flags, depth,
                           "a logical operand");
        case MF_OP_LT:
        case MF_OP_LE:
        case MF_OP_GT:
        case MF_OP_GE:
            *tc = TC_BOOL;
            if (a != TC_INT)
                return tc_err(t, e->kids[0],
                              "an ordered comparison's operand "
                              "must be %s, found %s",
                              tc_name(TC_INT), tc_name(a));
            return tc_want(t, e->kids[1], TC_INT, flags, depth,
                           "an ordered comparison's operand");
        case MF_OP_ADD:
        case MF_OP_SUB:
        case MF_OP_MUL:
        case MF_OP_DIV:
        case MF_OP_MOD:
            *tc = TC_INT;
            if (a != TC_INT)
                return tc_err(t, e->kids[0],
                              "an arithmetic operand must be "
                              "%s, found %s",
                              tc_name(TC_INT), tc_name(a));
            return tc_want(t, e->kids[1], TC_INT, flags, depth,
                           "an arithmetic operand");
        case MF_OP_EQ:
        case MF_OP_NE:
        case MF_OP_IN:
        case MF_OP_UNION:
            if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)) ||
                (rc = tc_expr(t, &b, e->kids[1], flags, depth + 1)))
                return rc;
            if (!tc_compat(a, b))
                return tc_err(t, e, "'%s' between %s and %s values",
                              mf_binop_str(e->op), tc_name(a), tc_name(b));
            if ((e->op == MF_OP_IN || e->op == MF_OP_UNION) && TC_IS_WORD(a))
                return tc_err(t, e,
                              "'%s' of words (NuSMV has no sets of "
                              "words)",
                              mf_binop_str(e->op));
            *tc = e->op == MF_OP_UNION ? (a | b) : TC_BOOL;
            return 0;
        default:
            return tc_err(t, e, "unknown operator");
        }
    case MF_E_CASE:
    case MF_E_ITE:
    case MF_E_SET: {
        int acc = 0;
        for (int i = 0; i < e->nkids; i++) {
            int is_cond = (e->kind == MF_E_CASE && i % 2 == 0) ||
                          (e->kind == MF_E_ITE && i == 0);
            if (is_cond) {
                if ((rc = tc_want(t, e->kids[i], TC_BOOL, flags, depth,
                                  "a condition")))
                    return rc;
                continue;
            }
            if ((rc = tc_expr(t, &a, e->kids[i], flags, depth + 1)))
                return rc;
            if (acc && !tc_compat(acc, a))
                return tc_err(t, e->kids[i], "%s value where the others are %s",
                              tc_name(a), tc_name(acc));
            if (e->kind == MF_E_SET && TC_IS_WORD(a))
                return tc_err(t, e->kids[i],
                              "a set of words (NuSMV has no sets of words)");
            acc |= a;
        }
        if (!acc)
            return tc_err(t, e, "empty case or set");
        *tc = acc;
        return 0;
    }
    case MF_E_RANGE:
        *tc = TC_INT;
        if ((rc =
                 tc_want(t, e->kids[0], TC_INT, flags, depth, "a range bound")))
            return rc;
        return tc_want(t, e->kids[1], TC_INT, flags, depth, "a range bound");
    case MF_E_CALL:
        switch (e->op) {
        case MF_FN_MIN:
        case MF_FN_MAX:
            if (e->nkids != 2)
                return tc_err(t, e, "%s takes two arguments", mf_fn_str(e->op));
            *tc = TC_INT;
            if ((rc = tc_want(t, e->kids[0], TC_INT, flags, depth,
                              "an argument")))
                return rc;
            return tc_want(t, e->kids[1], TC_INT, flags, depth, "an argument");
        case MF_FN_ABS:
            if (e->nkids != 1)
                return tc_err(t, e, "abs takes one argument");
            *tc = TC_INT;
            return tc_want(t, e->kids[0], TC_INT, flags, depth, "an argument");
        case MF_FN_TOINT:
        case MF_FN_BOOL:
            if (e->nkids != 1)
                return tc_err(t, e, "%s takes one argument", mf_fn_str(e->op));
            if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
                return rc;
            if (TC_IS_WORD(a) &&
                (e->op == MF_FN_TOINT || a == TC_OF_WTY(MF_WTY(1, 0)))) {
                *tc = e->op == MF_FN_TOINT ? TC_INT : TC_BOOL;
                return 0;
            }
            if (a != TC_INT && a != TC_BOOL)
                return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op),
                              tc_name(a));
            *tc = e->op == MF_FN_TOINT ? TC_INT : TC_BOOL;
            return 0;
        case MF_FN_COUNT:
            if (e->nkids < 1)
                return tc_err(t, e, "count takes arguments");
            for (int i = 0; i < e->nkids; i++)
                if ((rc = tc_want(t, e->kids[i], TC_BOOL, flags, depth,
                                  "an argument of count")))
                    return rc;
            *tc = TC_INT;
            return 0;
        default:
            return tc_word(t, tc, e, flags, depth, NULL);
        }
    case MF_E_INDEX: {
        const mf_type *bt;
        if ((rc = tc_array_base(t, &bt, e, flags, depth)))
            return rc;
        if (bt->kind == MF_TY_ARRAY)
            return tc_err(t, e, "array used as a value (index it fully)");
        *tc = tc_of_type(bt);
        return 0;
    }
    }
    return tc_err(t, e, "unknown expression");
}

/* tc_expr_raw, and the node marked with its word type (or 0), which the
 * simulator and the encoder read (expr.h). The mark is a cache of the type
 * check on the node, so it is written through the const the checker sees. */
static int tc_expr(tctx *t, int *tc, const mf_expr *e, int flags, int depth)
{
    int rc = tc_expr_raw(t, tc, e, flags, depth);
    if (rc == 0)
        ((mf_expr *)e)->wty = TC_IS_WORD(*tc) ? TC_WTY(*tc) : 0;
    return rc;
}

/* An integer literal argument of a word operator (a width, a bit, a shift
 * size): *v, or an error naming `what`. */
static int tc_lit(tctx *t, int64_t *v, const mf_expr *e, const char *what)
{
    if (e->kind != MF_E_INT)
        return tc_err(t, e, "%s must be an integer constant", what);
    *v = e->ival;
    return 0;
}

/* The word operators and functions (docs/smv.md, "Words"): kids[0] of a
 * binary operator already checked as a word where that decided the form. */
static int tc_word(tctx *t, int *tc, const mf_expr *e, int flags, int depth,
                   const int *left)
{
    int a = left ? *left : 0, b = 0, rc;
    int64_t n = 0, m = 0;
    if (!left && e->nkids >= 1 &&
        (rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
        return rc;
    if (e->kind == MF_E_BIN) {
        if ((rc = tc_expr(t, &b, e->kids[1], flags, depth + 1)))
            return rc;
        if (!TC_IS_WORD(a))
            return tc_err(t, e->kids[0],
                          "operand of '%s' must be a word, "
                          "found %s",
                          mf_binop_str(e->op), tc_name(a));
        switch (e->op) {
        case MF_OP_SHL:
        case MF_OP_SHR:
            if (b != TC_INT && !(TC_IS_WORD(b) && !MF_WTY_SIGNED(TC_WTY(b))))
                return tc_err(t, e->kids[1],
                              "a shift's amount must be an "
                              "integer or an unsigned word, found %s",
                              tc_name(b));
            *tc = a;
            return 0;
        case MF_OP_CONCAT: {
            if (!TC_IS_WORD(b))
                return tc_err(t, e->kids[1],
                              "operand of '::' must be a word, "
                              "found %s",
                              tc_name(b));
            int w = MF_WTY_WIDTH(TC_WTY(a)) + MF_WTY_WIDTH(TC_WTY(b));
            if (w > MF_WORD_MAX_WIDTH)
                return mf_err_set(MF_EUNSUPPORTED,
                                  "%s:%d:%d: unsupported: words wider than "
                                  "%d bits",
                                  t->file, e->line, e->col, MF_WORD_MAX_WIDTH);
            *tc = TC_OF_WTY(MF_WTY(w, 0));
            return 0;
        }
        default:
            break;
        }
        if (b != a)
            return tc_err(t, e, "'%s' between %s and %s values",
                          mf_binop_str(e->op), tc_name(a), tc_name(b));
        switch (e->op) {
        case MF_OP_LT:
        case MF_OP_LE:
        case MF_OP_GT:
        case MF_OP_GE:
            *tc = TC_BOOL;
            return 0;
        case MF_OP_AND:
        case MF_OP_OR:
        case MF_OP_XOR:
        case MF_OP_XNOR:
        case MF_OP_IMPLIES:
        case MF_OP_IFF:
        case MF_OP_ADD:
        case MF_OP_SUB:
        case MF_OP_MUL:
        case MF_OP_DIV:
        case MF_OP_MOD:
            *tc = a;
            return 0;
        default:
            return tc_err(t, e, "'%s' on words", mf_binop_str(e->op));
        }
    }
    /* functions */
    int want_args = e->op == MF_FN_SELECT ? 3
                    : e->op == MF_FN_EXTEND || e->op == MF_FN_RESIZE ||
                            e->op == MF_FN_SWCONST || e->op == MF_FN_UWCONST
                        ? 2
                        : 1;
    if (e->nkids != want_args)
        return tc_err(t, e, "%s takes %d argument%s", mf_fn_str(e->op),
                      want_args, want_args == 1 ? "" : "s");
    int wa = TC_IS_WORD(a) ? TC_WTY(a) : 0, w = MF_WTY_WIDTH(wa);
    switch (e->op) {
    case MF_FN_WORD1:
        if (a != TC_BOOL)
            return tc_err(t, e, "word1 of a %s value", tc_name(a));
        *tc = TC_OF_WTY(MF_WTY(1, 0));
        return 0;
    case MF_FN_SWCONST:
    case MF_FN_UWCONST: {
        if ((rc = tc_lit(t, &n, e->kids[0], "a word constant's value")) ||
            (rc = tc_lit(t, &m, e->kids[1], "a word constant's width")))
            return rc;
        if (m < 1 || m > MF_WORD_MAX_WIDTH)
            return tc_err(t, e, "a word's width must be 1..%d",
                          MF_WORD_MAX_WIDTH);
        int wr = MF_WTY((int)m, e->op == MF_FN_SWCONST);
        if (!mf_word_fits(wr, n))
            return tc_err(t, e, "%lld does not fit %s", (long long)n,
                          tc_name(TC_OF_WTY(wr)));
        *tc = TC_OF_WTY(wr);
        return 0;
    }
    default:
        break;
    }
    if (!wa)
        return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op), tc_name(a));
    switch (e->op) {
    case MF_FN_SIGNED:
    case MF_FN_UNSIGNED:
        if (MF_WTY_SIGNED(wa) == (e->op == MF_FN_SIGNED))
            return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op),
                          tc_name(a));
        *tc = TC_OF_WTY(MF_WTY(w, e->op == MF_FN_SIGNED));
        return 0;
    case MF_FN_SIZEOF:
        *tc = TC_INT;
        return 0;
    case MF_FN_EXTEND:
    case MF_FN_RESIZE:
        if ((rc = tc_lit(t, &n, e->kids[1], "a width")))
            return rc;
        m = e->op == MF_FN_EXTEND ? w + n : n;
        if (n < 0 || m < 1)
            return tc_err(t, e, "%s to a width below 1", mf_fn_str(e->op));
        if (m > MF_WORD_MAX_WIDTH)
            return mf_err_set(MF_EUNSUPPORTED,
                              "%s:%d:%d: unsupported: words wider than %d "
                              "bits",
                              t->file, e->line, e->col, MF_WORD_MAX_WIDTH);
        *tc = TC_OF_WTY(MF_WTY((int)m, MF_WTY_SIGNED(wa)));
        return 0;
    case MF_FN_SELECT:
        if ((rc = tc_lit(t, &n, e->kids[1], "a selection's high bit")) ||
            (rc = tc_lit(t, &m, e->kids[2], "a selection's low bit")))
            return rc;
        if (m < 0 || n < m || n >= w)
            return tc_err(t, e, "bits [%lld:%lld] of a %s value", (long long)n,
                          (long long)m, tc_name(a));
        *tc = TC_OF_WTY(MF_WTY((int)(n - m + 1), 0));
        return 0;
    default:
        return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op), tc_name(a));
    }
}

/* Constant leaves of an assigned value must be in the target's domain:
 * NuSMV refuses them as range errors, so such a mutant is stillborn. */
static int tc_leaves(tctx *t, const mf_expr *e, const mf_type *ty,
                     const char *target, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return 0;
    mf_val v;
    switch (e->kind) {
    case MF_E_CASE:
        for (int i = 1; i < e->nkids; i += 2)
            if (tc_leaves(t, e->kids[i], ty, target, depth + 1))
                return MF_ETYPE;
        return 0;
    case MF_E_ITE:
        return tc_leaves(t, e->kids[1], ty, target, depth + 1) ||
                       tc_leaves(t, e->kids[2], ty, target, depth + 1)
                   ? MF_ETYPE
                   : 0;
    case MF_E_SET:
    case MF_E_RANGE:
        if (e->kind == MF_E_RANGE && ty->kind == MF_TY_RANGE &&
            e->kids[0]->kind == MF_E_INT && e->kids[1]->kind == MF_E_INT) {
            if (e->kids[0]->ival > e->kids[1]->ival)
                return tc_err(t, e, "empty range");
        }
        for (int i = 0; i < e->nkids; i++)
            if (tc_leaves(t, e->kids[i], ty, target, depth + 1))
                return MF_ETYPE;
        return 0;
    case MF_E_BIN:
        if (e->op == MF_OP_UNION)
            return tc_leaves(t, e->kids[0], ty, target, depth + 1) ||
                           tc_leaves(t, e->kids[1], ty, target, depth + 1)
                       ? MF_ETYPE
                       : 0;
        return 0;
    case MF_E_INT:
        v = e->ival;
        break;
    case MF_E_BOOL:
        v = e->ival;
        break;
    case MF_E_SYM: {
        int s = mf_model_find_sym(t->m, e->name);
        if (s < 0)
            return 0;
        v = MF_SYM(s);
        break;
    }
    default:
        return 0;
    }
    if (!mf_type_contains(ty, v)) {
        mf_buf b = {0};
        mf_print_expr(&b, t->m, e);
        tc_err(t, e, "value %s is out of the domain of '%s'", b.data, target);
        mf_buf_free(&b);
        return MF_ETYPE;
    }
    return 0;
}

static int tc_item(tctx *t, const mf_item *it)
{
    int tc, rc;
    const mf_model *m = t->m;
    switch (it->kind) {
    case MF_IT_DEFINE:
        return tc_expr(t, &tc, it->e, TX_NEXT_OK, 0);
    case MF_IT_INIT:
    case MF_IT_NEXT:
    case MF_IT_ASSIGN: {
        const mf_type *ty;
        if (it->lhs->kind == MF_E_INDEX) {
            if ((rc = tc_array_base(t, &ty, it->lhs, 0, 0)))
                return rc;
        } else {
            ty = m->vars[it->var].type;
        }
        if (ty->kind == MF_TY_ARRAY)
            return tc_err(t, it->lhs, "assignment to a whole array");
        const mf_var *v = &m->vars[it->var];
        if (v->decl == MF_DECL_IVAR)
            return tc_err(t, it->lhs, "assignment to input variable '%s'",
                          v->name);
        if (v->decl == MF_DECL_FROZENVAR && it->kind == MF_IT_NEXT)
            return tc_err(t, it->lhs, "next() of FROZENVAR '%s'", v->name);
        int flags = it->kind == MF_IT_NEXT ? TX_NEXT_OK : 0;
        if ((rc = tc_expr(t, &tc, it->e, flags, 0)))
            return rc;
        int want = tc_of_type(ty);
        if (!tc_compat(tc, want) || (tc & ~want))
            return tc_err(t, it->e, "%s value assigned to %s variable '%s'",
                          tc_name(tc), tc_name(want), v->name);
        return tc_leaves(t, it->e, ty, v->name, 0);
    }
    case MF_IT_INIT_C:
    case MF_IT_INVAR_C:
        return tc_want(t, it->e, TC_BOOL, 0, 0, "a constraint");
    case MF_IT_TRANS_C:
        return tc_want(t, it->e, TC_BOOL, TX_NEXT_OK, 0, "a constraint");
    }
    return 0;
}

static int tc_init(tctx *t, const mf_model *m)
{
    int n = m->nitems + 1;
    t->m = m;
    t->file = m->file;
    t->def_tc = mf_xcalloc((size_t)n, sizeof(int));
    t->def_next = mf_xcalloc((size_t)n, sizeof(int));
    return 0;
}

static void tc_fini(tctx *t)
{
    free(t->def_tc);
    free(t->def_next);
}

/* ---- combinational loops --------------------------------------------- */

/* Mark the variables e reads within one state: in the init state (all reads)
 * or in the next state (reads under next(), or all reads of an invariant
 * assignment, which holds within the next state). */
static void loop_reads(const mf_model *m, const mf_expr *e, int under_next,
                       int want_next, char *out, char *def_seen, int depth,
                       int index, const mf_item *repl)
{
    if (depth > MAX_EXPR_DEPTH)
        return;
    if (e->kind == MF_E_NEXT)
        under_next = 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR &&
        (!want_next || under_next))
        out[e->ref] = 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE) {
        /* a DEFINE is read where it is used: its next() are relative */
        int key = 2 * e->ref + under_next;
        if (!def_seen[key]) {
            def_seen[key] = 1;
            /* a replaced DEFINE reads as its replacement */
            const mf_expr *body =
                e->ref == index && repl ? repl->e : m->items[e->ref].e;
            loop_reads(m, body, under_next, want_next, out, def_seen, depth + 1,
                       index, repl);
        }
    }
    for (int i = 0; i < e->nkids; i++)
        loop_reads(m, e->kids[i], under_next, want_next, out, def_seen,
                   depth + 1, index, repl);
}

/* Does variable v reach itself in graph g (nv x nv adjacency)? */
static int loop_dfs(const char *g, int nv, int v, char *state, int *via)
{
    state[v] = 1;
    for (int w = 0; w < nv; w++) {
        if (!g[(size_t)v * (size_t)nv + w])
            continue;
        if (state[w] == 1) {
            *via = w;
            return 1;
        }
        if (state[w] == 0 && loop_dfs(g, nv, w, state, via))
            return 1;
    }
    state[v] = 2;
    return 0;
}

/* An assignment that depends on itself within one state (init(a) := b;
 * init(b) := a) has no meaning: NuSMV refuses it as a circular definition.
 * Checked per variable (array cells count as their array, except that an
 * array reading itself is allowed). `repl` replaces item `index` (NULL with
 * index -1: the model as it is). */
static int check_loops(const mf_model *m, int index, const mf_item *repl)
{
    int nv = m->nvars, rc = 0;
    if (nv == 0 || nv > 4096)
        return 0; /* the simulator still reports a loop at run time */
    char *g = mf_xcalloc((size_t)nv * (size_t)nv, 1);
    char *defined = mf_xcalloc((size_t)nv, 1);
    char *reads = mf_xcalloc((size_t)nv, 1);
    char *def_seen = mf_xcalloc(2 * (size_t)m->nitems + 2, 1);
    char *state = mf_xcalloc((size_t)nv, 1);
    for (int ctx = 0; ctx < 2 && !rc; ctx++) { /* 0: init, 1: next */
        memset(g, 0, (size_t)nv * (size_t)nv);
        memset(defined, 0, (size_t)nv);
        for (int i = 0; i < m->nitems; i++) {
            const mf_item *it = i == index ? repl : &m->items[i];
            if (it && (it->kind == MF_IT_ASSIGN ||
                       it->kind == (ctx ? MF_IT_NEXT : MF_IT_INIT)))
                defined[it->var] = 1;
        }
        for (int i = 0; i < m->nitems; i++) {
            const mf_item *it = i == index ? repl : &m->items[i];
            if (!it || !(it->kind == MF_IT_ASSIGN ||
                         it->kind == (ctx ? MF_IT_NEXT : MF_IT_INIT)))
                continue;
            memset(reads, 0, (size_t)nv);
            memset(def_seen, 0, 2 * (size_t)m->nitems + 2);
            int want_next = ctx && it->kind == MF_IT_NEXT;
            loop_reads(m, it->e, 0, want_next, reads, def_seen, 0, index, repl);
            for (int w = 0; w < nv; w++) {
                int self_array =
                    w == it->var && m->vars[w].type->kind == MF_TY_ARRAY;
                if (reads[w] && defined[w] && !self_array)
                    g[(size_t)it->var * (size_t)nv + w] = 1;
            }
        }
        memset(state, 0, (size_t)nv);
        for (int v = 0; v < nv && !rc; v++) {
            int via = -1;
            if (state[v] == 0 && loop_dfs(g, nv, v, state, &via)) {
                const mf_item *at = NULL;
                for (int i = 0; i < m->nitems && !at; i++) {
                    const mf_item *it = i == index ? repl : &m->items[i];
                    if (it && it->var == via &&
                        (it->kind == MF_IT_ASSIGN ||
                         it->kind == (ctx ? MF_IT_NEXT : MF_IT_INIT)))
                        at = it;
                }
                rc = mf_err_set(MF_ETYPE,
                                "%s:%d:%d: error: combinational loop: the %s "
                                "value of '%s' depends on itself",
                                m->file, at ? at->line : 1, at ? at->col : 1,
                                ctx ? "next" : "initial", m->vars[via].name);
            }
        }
    }
    free(g);
    free(defined);
    free(reads);
    free(def_seen);
    free(state);
    return rc;
}

int mf_model_check_item(const mf_model *m, const mf_item *it)
{
    tctx t;
    tc_init(&t, m);
    int rc = tc_item(&t, it);
    tc_fini(&t);
    if (rc == 0) {
        /* which item `it` replaces: the assignment of the same kind to the
         * same variable (element), the DEFINE of the same name, or none
         * for a constraint */
        int index = -1;
        for (int i = 0; i < m->nitems && index < 0; i++)
            if (it->kind == MF_IT_DEFINE
                    ? m->items[i].kind == MF_IT_DEFINE && it->name &&
                          m->items[i].name &&
                          !strcmp(m->items[i].name, it->name)
                    : m->items[i].kind == it->kind && it->lhs &&
                          m->items[i].var == it->var &&
                          mf_expr_equal(m->items[i].lhs, it->lhs))
                index = i;
        if (index >= 0)
            rc = check_loops(m, index, it);
    }
    return rc;
}

/* Two assignments of the same kind to the same variable (element) are a
 * double assignment, refused like NuSMV does. */
static int check_assign_conflicts(const mf_model *m)
{
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *a = &m->items[i];
        if (a->kind != MF_IT_INIT && a->kind != MF_IT_NEXT &&
            a->kind != MF_IT_ASSIGN)
            continue;
        for (int j = 0; j < i; j++) {
            const mf_item *b = &m->items[j];
            if (b->var != a->var || b->kind == MF_IT_DEFINE ||
                b->kind >= MF_IT_INIT_C)
                continue;
            int same_kind = a->kind == b->kind;
            int invar_mix = a->kind == MF_IT_ASSIGN || b->kind == MF_IT_ASSIGN;
            if (!same_kind && !invar_mix)
                continue;
            if (a->lhs->kind == MF_E_INDEX && b->lhs->kind == MF_E_INDEX &&
                !mf_expr_equal(a->lhs, b->lhs))
                continue;
            return mf_err_set(MF_ETYPE,
                              "%s:%d:%d: error: '%s' is assigned twice (also "
                              "at line %d)",
                              m->file, a->line, a->col, m->vars[a->var].name,
                              b->line);
        }
    }
    return 0;
}

int mf_model_check_all(const mf_model *m)
{
    tctx t;
    int rc = 0;
    tc_init(&t, m);
    for (int i = 0; i < m->nitems && !rc; i++)
        rc = tc_item(&t, &m->items[i]);
    tc_fini(&t);
    if (rc)
        return rc;
    if ((rc = check_assign_conflicts(m)) || (rc = check_loops(m, -1, NULL)))
        return rc;
    return 0;
}

void mf_model_mark_words(const mf_model *m, const mf_item *it)
{
    tctx t;
    tc_init(&t, m);
    (void)tc_item(&t, it);
    tc_fini(&t);
}
