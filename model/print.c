/* print.c - writes a flattened model back as valid SMV, in one canonical
 * layout: the same model always prints the same text, and printing, parsing
 * and printing again gives that text back (a fixed point). The canonical
 * print is what the model hash is taken over.
 *
 * Parentheses appear only where NuSMV precedence needs them; binary
 * operators always have spaces around them (so `a - b` never lexes as the
 * identifier `a-b`). Comments and layout of the source are not kept. */
#include "lang.h"
#include "word.h"

#include <string.h>

/* Precedence, loosest first (NuSMV's table). */
enum {
    P_TOP = 0,
    P_IMPLIES = 1, /* right associative */
    P_IFF = 2,
    P_ITE = 3,     /* right associative */
    P_OR = 4,      /* | xor xnor */
    P_AND = 5,
    P_REL = 6,     /* = != < <= > >= */
    P_IN = 7,
    P_UNION = 8,
    P_RANGE = 9,
    P_SHIFT = 10,  /* << >> */
    P_ADD = 11,
    P_MUL = 12,
    P_UNARY = 13,  /* unary minus */
    P_CONCAT = 14, /* :: */
    P_NOT = 15,
    P_PRIMARY = 16,
};

static int binop_prec(int op)
{
    switch (op) {
    case MF_OP_IMPLIES: return P_IMPLIES;
    case MF_OP_IFF: return P_IFF;
    case MF_OP_OR:
    case MF_OP_XOR:
    case MF_OP_XNOR: return P_OR;
    case MF_OP_AND: return P_AND;
    case MF_OP_EQ:
    case MF_OP_NE:
    case MF_OP_LT:
    case MF_OP_LE:
    case MF_OP_GT:
    case MF_OP_GE: return P_REL;
    case MF_OP_IN: return P_IN;
    case MF_OP_UNION: return P_UNION;
    case MF_OP_ADD:
    case MF_OP_SUB: return P_ADD;
    case MF_OP_SHL:
    case MF_OP_SHR: return P_SHIFT;
    case MF_OP_CONCAT: return P_CONCAT;
    default: return P_MUL;
    }
}

static int expr_prec(const mf_expr *e)
{
    switch (e->kind) {
    case MF_E_BIN:
        return binop_prec(e->op);
    case MF_E_ITE:
        return P_ITE;
    case MF_E_RANGE:
        return P_RANGE;
    case MF_E_NOT:
        return P_NOT;
    case MF_E_NEG:
        return P_UNARY;
    case MF_E_INT:
    case MF_E_WORD:
        return e->ival < 0 ? P_UNARY : P_PRIMARY;
    default:
        return P_PRIMARY;
    }
}

static void indent(mf_buf *out, int n)
{
    for (int i = 0; i < n; i++)
        mf_buf_put(out, "  ", 2);
}

static void pexpr(mf_buf *out, const mf_model *m, const mf_expr *e, int need,
                  int ind);

static void pcase(mf_buf *out, const mf_model *m, const mf_expr *e, int ind)
{
    mf_buf_puts(out, "case\n");
    for (int i = 0; i + 1 < e->nkids; i += 2) {
        indent(out, ind + 2);
        pexpr(out, m, e->kids[i], P_TOP + 1, ind + 2);
        mf_buf_puts(out, " : ");
        pexpr(out, m, e->kids[i + 1], P_TOP, ind + 2);
        mf_buf_puts(out, ";\n");
    }
    indent(out, ind + 1);
    mf_buf_puts(out, "esac");
}

/* e's kids separated by ", " between `open` and `close`: a set, a call. */
static void pkids(mf_buf *out, const mf_model *m, const mf_expr *e,
                  const char *open, const char *close, int ind)
{
    mf_buf_puts(out, open);
    for (int i = 0; i < e->nkids; i++) {
        if (i)
            mf_buf_puts(out, ", ");
        pexpr(out, m, e->kids[i], P_TOP, ind);
    }
    mf_buf_puts(out, close);
}

static void pexpr(mf_buf *out, const mf_model *m, const mf_expr *e, int need,
                  int ind)
{
    int p = expr_prec(e);
    int paren = p < need;
    if (paren)
        mf_buf_put(out, "(", 1);
    switch (e->kind) {
    case MF_E_BOOL:
        mf_buf_puts(out, e->ival ? "TRUE" : "FALSE");
        break;
    case MF_E_INT:
        mf_buf_printf(out, "%lld", (long long)e->ival);
        break;
    case MF_E_WORD:
        mf_word_print(out, e->wty, e->ival);
        break;
    case MF_E_SYM:
    case MF_E_ID:
        mf_buf_puts(out, e->name);
        break;
    case MF_E_NEXT:
        mf_buf_puts(out, "next(");
        pexpr(out, m, e->kids[0], P_TOP, ind);
        mf_buf_puts(out, ")");
        break;
    case MF_E_NOT:
        mf_buf_puts(out, "!");
        pexpr(out, m, e->kids[0], P_NOT, ind);
        break;
    case MF_E_NEG:
        mf_buf_puts(out, "-");
        /* "- -1" and "-(-x)": never two minus signs in a row */
        pexpr(out, m, e->kids[0],
              e->kids[0]->kind == MF_E_NEG ||
                      ((e->kids[0]->kind == MF_E_INT ||
                        e->kids[0]->kind == MF_E_WORD) &&
                       e->kids[0]->ival < 0)
                  ? P_PRIMARY + 1
                  : P_UNARY,
              ind);
        break;
    case MF_E_BIN: {
        int right = e->op == MF_OP_IMPLIES;
        int lneed = right ? p + 1 : p, rneed = right ? p : p + 1;
        pexpr(out, m, e->kids[0], lneed, ind);
        mf_buf_printf(out, " %s ", mf_binop_str(e->op));
        pexpr(out, m, e->kids[1], rneed, ind);
        break;
    }
    case MF_E_ITE:
        pexpr(out, m, e->kids[0], P_ITE + 1, ind);
        mf_buf_puts(out, " ? ");
        pexpr(out, m, e->kids[1], P_ITE + 1, ind);
        mf_buf_puts(out, " : ");
        pexpr(out, m, e->kids[2], P_ITE, ind);
        break;
    case MF_E_CASE:
        pcase(out, m, e, ind);
        break;
    case MF_E_SET:
        pkids(out, m, e, "{", "}", ind);
        break;
    case MF_E_RANGE:
        pexpr(out, m, e->kids[0], P_RANGE + 1, ind);
        mf_buf_puts(out, " .. ");
        pexpr(out, m, e->kids[1], P_RANGE + 1, ind);
        break;
    case MF_E_CALL:
        if (e->op == MF_FN_SELECT && e->nkids == 3) {
            pexpr(out, m, e->kids[0], P_PRIMARY, ind);
            mf_buf_printf(out, "[%lld:%lld]", (long long)e->kids[1]->ival,
                          (long long)e->kids[2]->ival);
            break;
        }
        mf_buf_puts(out, mf_fn_str(e->op));
        pkids(out, m, e, "(", ")", ind);
        break;
    case MF_E_INDEX:
        pexpr(out, m, e->kids[0], P_PRIMARY, ind);
        mf_buf_puts(out, "[");
        pexpr(out, m, e->kids[1], P_TOP, ind);
        mf_buf_puts(out, "]");
        break;
    }
    if (paren)
        mf_buf_put(out, ")", 1);
}

void mf_print_expr(mf_buf *out, const mf_model *m, const mf_expr *e)
{
    pexpr(out, m, e, P_TOP, 0);
}

void mf_print_value(mf_buf *out, const mf_model *m, const mf_type *t,
                    mf_val v)
{
    t = mf_type_scalar(t);
    if (t->kind == MF_TY_BOOL)
        mf_buf_puts(out, v ? "TRUE" : "FALSE");
    else if (MF_IS_SYM(v) && v - MF_SYM_BASE < m->nsyms)
        mf_buf_puts(out, m->syms[v - MF_SYM_BASE]);
    else
        mf_buf_printf(out, "%lld", (long long)v);
}

void mf_print_type(mf_buf *out, const mf_model *m, const mf_type *t)
{
    switch (t->kind) {
    case MF_TY_BOOL:
        mf_buf_puts(out, "boolean");
        break;
    case MF_TY_RANGE:
        if (t->wty)
            mf_buf_printf(out, "%s word[%d]",
                          MF_WTY_SIGNED(t->wty) ? "signed" : "unsigned",
                          MF_WTY_WIDTH(t->wty));
        else if (t->unbounded)
            mf_buf_puts(out, "integer");
        else
            mf_buf_printf(out, "%lld..%lld", (long long)t->lo,
                          (long long)t->hi);
        break;
    case MF_TY_ENUM:
        mf_buf_puts(out, "{");
        for (int i = 0; i < t->nvals; i++) {
            if (i)
                mf_buf_puts(out, ", ");
            mf_print_value(out, m, t, t->vals[i]);
        }
        mf_buf_puts(out, "}");
        break;
    case MF_TY_ARRAY:
        mf_buf_printf(out, "array %lld..%lld of ", (long long)t->lo,
                      (long long)t->hi);
        mf_print_type(out, m, t->elem);
        break;
    }
}

void mf_print_item_target(mf_buf *out, const mf_model *m, const mf_item *it)
{
    if (it->kind == MF_IT_DEFINE) {
        mf_buf_puts(out, it->name);
        return;
    }
    if (it->kind == MF_IT_INIT || it->kind == MF_IT_NEXT)
        mf_buf_puts(out, it->kind == MF_IT_INIT ? "init(" : "next(");
    if (it->lhs)
        pexpr(out, m, it->lhs, P_TOP, 1);
    if (it->kind == MF_IT_INIT || it->kind == MF_IT_NEXT)
        mf_buf_puts(out, ")");
}

void mf_print_item(mf_buf *out, const mf_model *m, const mf_item *it)
{
    switch (it->kind) {
    case MF_IT_DEFINE:
        mf_buf_printf(out, "  %s := ", it->name);
        break;
    case MF_IT_INIT:
    case MF_IT_NEXT:
        mf_buf_puts(out, it->kind == MF_IT_INIT ? "  init(" : "  next(");
        pexpr(out, m, it->lhs, P_TOP, 1);
        mf_buf_puts(out, ") := ");
        break;
    case MF_IT_ASSIGN:
        mf_buf_puts(out, "  ");
        pexpr(out, m, it->lhs, P_TOP, 1);
        mf_buf_puts(out, " := ");
        break;
    case MF_IT_INIT_C:
        mf_buf_puts(out, "INIT\n  ");
        break;
    case MF_IT_TRANS_C:
        mf_buf_puts(out, "TRANS\n  ");
        break;
    case MF_IT_INVAR_C:
        mf_buf_puts(out, "INVAR\n  ");
        break;
    }
    pexpr(out, m, it->e, P_TOP, 1);
    mf_buf_puts(out, ";\n");
}

/* The section header an item needs, or NULL (constraints carry their own). */
static const char *item_section(const mf_item *it)
{
    if (it->kind == MF_IT_DEFINE)
        return "DEFINE";
    if (it->kind == MF_IT_INIT || it->kind == MF_IT_NEXT ||
        it->kind == MF_IT_ASSIGN)
        return "ASSIGN";
    return NULL;
}

void mf_print_model(mf_buf *out, const mf_model *m)
{
    static const char *decl_kw[] = {"VAR", "IVAR", "FROZENVAR"};
    mf_buf_puts(out, "MODULE main\n");
    int cur = -1;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if ((int)v->decl != cur) {
            cur = (int)v->decl;
            mf_buf_printf(out, "%s\n", decl_kw[cur]);
        }
        mf_buf_printf(out, "  %s : ", v->name);
        mf_print_type(out, m, v->type);
        mf_buf_puts(out, ";\n");
    }
    const char *sect = NULL;
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        const char *s = item_section(it);
        if (s && s != sect && (!sect || strcmp(s, sect)))
            mf_buf_printf(out, "%s\n", s);
        sect = s;
        mf_print_item(out, m, it);
    }
    for (int i = 0; i < m->nspecs; i++)
        mf_buf_printf(out, "%s\n  %s;\n", m->specs[i].keyword,
                      m->specs[i].text);
}

void mf_print_cell_name(mf_buf *out, const mf_var *v, int k)
{
    mf_buf_puts(out, v->name);
    const mf_type *t = v->type;
    int64_t off = k;
    while (t->kind == MF_TY_ARRAY) {
        int64_t ec = 1; /* cells of one element */
        for (const mf_type *e = t->elem; e->kind == MF_TY_ARRAY; e = e->elem)
            ec *= e->hi - e->lo + 1;
        mf_buf_printf(out, "[%lld]", (long long)(t->lo + off / ec));
        off %= ec;
        t = t->elem;
    }
}

/* Which variables' cells pcells prints. */
enum { CELLS_OBSERVED, CELLS_INITIAL_INPUTS, CELLS_STEP_INPUTS };

static int takes(const mf_var *v, int which)
{
    switch (which) {
    case CELLS_OBSERVED:
        return v->is_observable;
    case CELLS_INITIAL_INPUTS: /* state 0 takes the input VARs' values */
        return v->is_input && v->decl != MF_DECL_IVAR;
    default: /* a step takes every input, and the IVARs always are; a
              * FROZENVAR input only has an initial value */
        return (v->is_input && v->decl != MF_DECL_FROZENVAR) ||
               v->decl == MF_DECL_IVAR;
    }
}

/* "a=1, b[0]=TRUE": every cell of the variables `which` selects, the
 * values one after the other in vals (CELLS_OBSERVED) or at the cells'
 * slots (a state-sized valuation). Returns how many cells were printed. */
static int pcells(mf_buf *out, const mf_model *m, const mf_val *vals,
                  int which)
{
    int k = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!takes(v, which))
            continue;
        for (int c = 0; c < v->nslots; c++, k++) {
            mf_buf_puts(out, k ? ", " : "");
            mf_print_cell_name(out, v, c);
            mf_buf_puts(out, "=");
            mf_print_value(out, m, mf_type_scalar(v->type),
                           which == CELLS_OBSERVED ? vals[k]
                                                   : vals[v->slot + c]);
        }
    }
    return k;
}

int mf_print_inputs(mf_buf *out, const mf_model *m, const mf_val *row,
                    int initial)
{
    return pcells(out, m, row,
                  initial ? CELLS_INITIAL_INPUTS : CELLS_STEP_INPUTS);
}

void mf_print_obs(mf_buf *b, const mf_model *m, const mf_val *obs)
{
    int k = pcells(b, m, obs, CELLS_OBSERVED);
    for (int i = 0; i < m->nobs_defines; i++, k++) {
        const mf_item *it = &m->items[m->obs_defines[i]];
        mf_buf_printf(b, "%s%s=", k ? ", " : "", it->name);
        /* A DEFINE has no declared type: print what the value looks like. */
        if (obs[k] == MF_VAL_UNDEF)
            mf_buf_puts(b, "undefined");
        else if (MF_IS_SYM(obs[k]) && obs[k] - MF_SYM_BASE < m->nsyms)
            mf_buf_puts(b, m->syms[obs[k] - MF_SYM_BASE]);
        else
            mf_buf_printf(b, "%lld", (long long)obs[k]);
    }
}

void mf_model_print(mf_buf *out, const mf_model *m)
{
    if (m->lang && m->lang->print_model)
        m->lang->print_model(out, m);
    else
        mf_print_model(out, m);
}
