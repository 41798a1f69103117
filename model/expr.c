/* expr.c - constructors, copy and comparison of expression nodes (expr.h).
 *
 * Every node and kid array comes from the caller's arena; nothing here frees.
 * Resolution of identifiers and type checking live elsewhere. */
#include "expr.h"

#include <string.h>

mf_expr *mf_expr_new(mf_arena *a, mf_ekind kind, int line, int col)
{
    mf_expr *e = mf_arena_alloc(a, sizeof(*e));
    e->kind = kind;
    e->line = line;
    e->col = col;
    return e;
}

mf_expr *mf_expr_int(mf_arena *a, int64_t v, int line, int col)
{
    mf_expr *e = mf_expr_new(a, MF_E_INT, line, col);
    e->ival = v;
    return e;
}

mf_expr *mf_expr_bool(mf_arena *a, int v, int line, int col)
{
    mf_expr *e = mf_expr_new(a, MF_E_BOOL, line, col);
    e->ival = v ? 1 : 0;
    return e;
}

/* The node takes x's position; callers that know where the operator is
 * (the parser) overwrite line/col. */
mf_expr *mf_expr_un(mf_arena *a, mf_ekind kind, mf_expr *x)
{
    mf_expr *e = mf_expr_new(a, kind, x ? x->line : 0, x ? x->col : 0);
    mf_expr_add(a, e, x);
    return e;
}

mf_expr *mf_expr_bin(mf_arena *a, mf_binop op, mf_expr *l, mf_expr *r)
{
    mf_expr *e = mf_expr_new(a, MF_E_BIN, l ? l->line : 0, l ? l->col : 0);
    e->op = (int)op;
    e->kids = mf_arena_alloc(a, 2 * sizeof(*e->kids));
    e->kids[0] = l;
    e->kids[1] = r;
    e->nkids = 2;
    return e;
}

/* Copies the kid array each time: kid arrays may have been built by hand
 * with no spare room, so no capacity can be assumed. Builders of long lists
 * should fill kids in one allocation instead. */
void mf_expr_add(mf_arena *a, mf_expr *e, mf_expr *kid)
{
    mf_expr **k = mf_arena_alloc(a, (size_t)(e->nkids + 1) * sizeof(*k));
    if (e->nkids > 0)
        memcpy(k, e->kids, (size_t)e->nkids * sizeof(*k));
    k[e->nkids] = kid;
    e->kids = k;
    e->nkids++;
}

mf_expr *mf_expr_copy(mf_arena *a, const mf_expr *e)
{
    if (!e)
        return NULL;
    mf_expr *c = mf_arena_alloc(a, sizeof(*c));
    *c = *e;
    if (e->name)
        c->name = mf_arena_strdup(a, e->name);
    if (e->nkids > 0) {
        c->kids = mf_arena_alloc(a, (size_t)e->nkids * sizeof(*c->kids));
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = mf_expr_copy(a, e->kids[i]);
    } else {
        c->kids = NULL;
    }
    return c;
}

int mf_expr_equal(const mf_expr *x, const mf_expr *y)
{
    if (x == y)
        return 1;
    if (!x || !y)
        return 0;
    if (x->kind != y->kind || x->nkids != y->nkids)
        return 0;
    switch (x->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
        if (x->ival != y->ival)
            return 0;
        break;
    case MF_E_WORD:
        if (x->ival != y->ival || x->wty != y->wty)
            return 0;
        break;
    case MF_E_SYM:
    case MF_E_ID:
        if (!x->name || !y->name)
            return x->name == y->name;
        if (strcmp(x->name, y->name) != 0)
            return 0;
        break;
    case MF_E_BIN:
    case MF_E_CALL:
        if (x->op != y->op)
            return 0;
        break;
    default:
        break;
    }
    for (int i = 0; i < x->nkids; i++)
        if (!mf_expr_equal(x->kids[i], y->kids[i]))
            return 0;
    return 1;
}

const char *mf_binop_str(mf_binop op)
{
    static const char *const s[MF_OP__COUNT] = {
        [MF_OP_AND] = "&",     [MF_OP_OR] = "|",       [MF_OP_XOR] = "xor",
        [MF_OP_XNOR] = "xnor", [MF_OP_IMPLIES] = "->", [MF_OP_IFF] = "<->",
        [MF_OP_EQ] = "=",      [MF_OP_NE] = "!=",      [MF_OP_LT] = "<",
        [MF_OP_LE] = "<=",     [MF_OP_GT] = ">",       [MF_OP_GE] = ">=",
        [MF_OP_ADD] = "+",     [MF_OP_SUB] = "-",      [MF_OP_MUL] = "*",
        [MF_OP_DIV] = "/",     [MF_OP_MOD] = "mod",    [MF_OP_UNION] = "union",
        [MF_OP_IN] = "in",     [MF_OP_SHL] = "<<",     [MF_OP_SHR] = ">>",
        [MF_OP_CONCAT] = "::",
    };
    if ((int)op < 0 || op >= MF_OP__COUNT)
        return "?";
    return s[op];
}

const char *mf_fn_str(mf_fn fn)
{
    static const char *const s[MF_FN__COUNT] = {
        [MF_FN_MIN] = "min",     [MF_FN_MAX] = "max",   [MF_FN_ABS] = "abs",
        [MF_FN_TOINT] = "toint", [MF_FN_BOOL] = "bool", [MF_FN_COUNT] = "count",
        [MF_FN_WORD1] = "word1", [MF_FN_SIGNED] = "signed",
        [MF_FN_UNSIGNED] = "unsigned", [MF_FN_EXTEND] = "extend",
        [MF_FN_RESIZE] = "resize", [MF_FN_SIZEOF] = "sizeof",
        [MF_FN_SWCONST] = "swconst", [MF_FN_UWCONST] = "uwconst",
        [MF_FN_SELECT] = "[:]",
    };
    if ((int)fn < 0 || fn >= MF_FN__COUNT)
        return "?";
    return s[fn];
}
