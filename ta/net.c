/* net.c - what every part of ta/ and its users share about a network:
 * expression nodes made, copied, compared and printed in UPPAAL's syntax,
 * lookups by flat name, and freeing. Nothing here reads a file. */
#include "ta_int.h"

#include <stdlib.h>
#include <string.h>

const char *const ta_op_names[TA_MOP__COUNT] = {
    "tmi",         "tad",          "smi",          "cxl",
    "cxs",         "ccn",          "edge-target",  "sync-channel",
    "reset-flip",  "guard-negate", "invariant-constant", "int-update",
};

/* ---- nodes ------------------------------------------------------------------ */

ta_expr *ta_expr_new(mf_arena *a, ta_ekind kind, int line, int col)
{
    ta_expr *e = mf_arena_alloc(a, sizeof(*e));
    e->kind = kind;
    e->line = line;
    e->col = col;
    return e;
}

ta_expr *ta_expr_int(mf_arena *a, int64_t v, int line, int col)
{
    ta_expr *e = ta_expr_new(a, TA_E_INT, line, col);
    e->ival = v;
    return e;
}

void ta_expr_add(mf_arena *a, ta_expr *e, ta_expr *kid)
{
    ta_expr **k = mf_arena_alloc(a, (size_t)(e->nkids + 1) * sizeof(*k));
    if (e->nkids)
        memcpy(k, e->kids, (size_t)e->nkids * sizeof(*k));
    k[e->nkids++] = kid;
    e->kids = k;
}

ta_expr *ta_expr_bin(mf_arena *a, int op, ta_expr *l, ta_expr *r)
{
    ta_expr *e = ta_expr_new(a, TA_E_BIN, l->line, l->col);
    e->op = op;
    ta_expr_add(a, e, l);
    ta_expr_add(a, e, r);
    return e;
}

ta_expr *ta_expr_un(mf_arena *a, int op, ta_expr *x)
{
    ta_expr *e = ta_expr_new(a, TA_E_UN, x->line, x->col);
    e->op = op;
    ta_expr_add(a, e, x);
    return e;
}

ta_expr *ta_expr_copy(mf_arena *a, const ta_expr *e)
{
    if (!e)
        return NULL;
    ta_expr *c = mf_arena_alloc(a, sizeof(*c));
    *c = *e;
    c->name = e->name ? mf_arena_strdup(a, e->name) : NULL;
    c->kids = NULL;
    c->nkids = 0;
    if (e->nkids) {
        c->kids = mf_arena_alloc(a, (size_t)e->nkids * sizeof(*c->kids));
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = ta_expr_copy(a, e->kids[i]);
        c->nkids = e->nkids;
    }
    return c;
}

ta_stmt *ta_stmt_copy(mf_arena *a, const ta_stmt *s)
{
    if (!s)
        return NULL;
    ta_stmt *c = mf_arena_alloc(a, sizeof(*c));
    *c = *s;
    c->e = ta_expr_copy(a, s->e);
    c->init = ta_expr_copy(a, s->init);
    c->step = ta_expr_copy(a, s->step);
    if (s->nkids) {
        c->kids = mf_arena_alloc(a, (size_t)s->nkids * sizeof(*c->kids));
        for (int i = 0; i < s->nkids; i++)
            c->kids[i] = ta_stmt_copy(a, s->kids[i]);
    }
    return c;
}

int ta_expr_equal(const ta_expr *x, const ta_expr *y)
{
    if (!x || !y)
        return x == y;
    if (x->kind != y->kind || x->op != y->op || x->nkids != y->nkids ||
        x->ref_kind != y->ref_kind || x->ref != y->ref)
        return 0;
    if ((x->kind == TA_E_INT || x->kind == TA_E_BOOL) && x->ival != y->ival)
        return 0;
    if (x->kind == TA_E_QUANT && (x->lo != y->lo || x->hi != y->hi))
        return 0;
    if ((x->kind == TA_E_REF || x->kind == TA_E_CALL) &&
        strcmp(x->name ? x->name : "", y->name ? y->name : ""))
        return 0;
    for (int i = 0; i < x->nkids; i++)
        if (!ta_expr_equal(x->kids[i], y->kids[i]))
            return 0;
    return 1;
}

static void conj_push(const ta_expr *e, ta_expr ***v, int *n, int *cap)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        *v = mf_xrealloc(*v, (size_t)*cap * sizeof(**v));
    }
    (*v)[(*n)++] = (ta_expr *)e;
}

void ta_conjuncts(const ta_expr *e, ta_expr ***v, int *n, int *cap)
{
    if (!e)
        return;
    if (e->kind == TA_E_BIN && e->op == TA_OP_AND) {
        ta_conjuncts(e->kids[0], v, n, cap);
        ta_conjuncts(e->kids[1], v, n, cap);
        return;
    }
    if (e->kind == TA_E_BOOL && e->ival)
        return; /* `true` adds nothing */
    conj_push(e, v, n, cap);
}

/* ---- printing ----------------------------------------------------------------- */

const char *ta_op_str(ta_op op)
{
    static const char *const s[TA_OP__COUNT] = {
        [TA_OP_ADD] = "+",      [TA_OP_SUB] = "-",      [TA_OP_MUL] = "*",
        [TA_OP_DIV] = "/",      [TA_OP_MOD] = "%",      [TA_OP_BAND] = "&",
        [TA_OP_BOR] = "|",      [TA_OP_BXOR] = "^",     [TA_OP_SHL] = "<<",
        [TA_OP_SHR] = ">>",     [TA_OP_AND] = "&&",     [TA_OP_OR] = "||",
        [TA_OP_IMPLY] = "imply", [TA_OP_EQ] = "==",     [TA_OP_NE] = "!=",
        [TA_OP_LT] = "<",       [TA_OP_LE] = "<=",      [TA_OP_GT] = ">",
        [TA_OP_GE] = ">=",      [TA_OP_MIN] = "<?",     [TA_OP_MAX] = ">?",
        [TA_OP_NEG] = "-",      [TA_OP_NOT] = "!",      [TA_OP_BNOT] = "~",
        [TA_OP_PLUS] = "+",     [TA_OP_ASSIGN] = "=",   [TA_OP_PREINC] = "++",
        [TA_OP_PREDEC] = "--",  [TA_OP_POSTINC] = "++", [TA_OP_POSTDEC] = "--",
        [TA_OP_FORALL] = "forall", [TA_OP_EXISTS] = "exists",
        [TA_OP_SUM] = "sum",
    };
    return op >= 0 && op < TA_OP__COUNT && s[op] ? s[op] : "?";
}

/* Binding strength of a binary operator, as the parser reads it. */
static int bin_level(int op)
{
    switch (op) {
    case TA_OP_MUL: case TA_OP_DIV: case TA_OP_MOD: return 13;
    case TA_OP_ADD: case TA_OP_SUB: return 12;
    case TA_OP_SHL: case TA_OP_SHR: return 11;
    case TA_OP_MIN: case TA_OP_MAX: return 10;
    case TA_OP_LT: case TA_OP_LE: case TA_OP_GT: case TA_OP_GE: return 9;
    case TA_OP_EQ: case TA_OP_NE: return 8;
    case TA_OP_BAND: return 7;
    case TA_OP_BXOR: return 6;
    case TA_OP_BOR: return 5;
    case TA_OP_AND: return 4;
    case TA_OP_OR: return 3;
    default: return 0; /* imply */
    }
}

static int level(const ta_expr *e)
{
    switch (e->kind) {
    case TA_E_BIN: return bin_level(e->op);
    case TA_E_UN: return 14;
    case TA_E_INCDEC:
        return e->op == TA_OP_PREINC || e->op == TA_OP_PREDEC ? 14 : 15;
    case TA_E_ITE: return 2;
    case TA_E_ASSIGN: return 1;
    case TA_E_QUANT: return 0;
    default: return 16;
    }
}

static void print_at(mf_buf *b, const ta_expr *e, int min, const ta_net *n);

static void print_kid(mf_buf *b, const ta_expr *e, int min, const ta_net *n)
{
    if (level(e) < min) {
        mf_buf_puts(b, "(");
        print_at(b, e, 0, n);
        mf_buf_puts(b, ")");
    } else {
        print_at(b, e, min, n);
    }
}

static void print_at(mf_buf *b, const ta_expr *e, int min, const ta_net *n)
{
    (void)min;
    switch (e->kind) {
    case TA_E_INT:
        if (e->name && !n)
            mf_buf_puts(b, e->name);
        else
            mf_buf_printf(b, "%lld", (long long)e->ival);
        break;
    case TA_E_BOOL:
        mf_buf_puts(b, e->ival ? "true" : "false");
        break;
    case TA_E_REF:
        if (n && e->ref_kind == TA_R_VAR && e->ref < n->nvars)
            mf_buf_puts(b, n->vars[e->ref].name);
        else if (n && e->ref_kind == TA_R_CHAN && e->ref < n->nchans) {
            const char *c = n->chans[e->ref].name;
            mf_buf_put(b, c, strcspn(c, "["));
        } else
            mf_buf_puts(b, e->name ? e->name : "?");
        break;
    case TA_E_INDEX:
        print_kid(b, e->kids[0], 15, n);
        mf_buf_puts(b, "[");
        print_at(b, e->kids[1], 0, n);
        mf_buf_puts(b, "]");
        break;
    case TA_E_UN:
        mf_buf_puts(b, ta_op_str(e->op));
        /* "- -x" must not print as the decrement "--x" */
        if (e->kids[0]->kind == TA_E_UN && e->kids[0]->op == e->op)
            mf_buf_puts(b, " ");
        print_kid(b, e->kids[0], 14, n);
        break;
    case TA_E_BIN: {
        int l = bin_level(e->op);
        print_kid(b, e->kids[0], l, n);
        mf_buf_printf(b, " %s ", ta_op_str(e->op));
        print_kid(b, e->kids[1], l + 1, n);
        break;
    }
    case TA_E_ITE:
        print_kid(b, e->kids[0], 3, n);
        mf_buf_puts(b, " ? ");
        print_kid(b, e->kids[1], 2, n);
        mf_buf_puts(b, " : ");
        print_kid(b, e->kids[2], 2, n);
        break;
    case TA_E_ASSIGN:
        print_kid(b, e->kids[0], 15, n);
        mf_buf_printf(b, " %s%s ", e->op == TA_OP_ASSIGN ? "" : ta_op_str(e->op),
                      "=");
        print_kid(b, e->kids[1], 1, n);
        break;
    case TA_E_INCDEC:
        if (e->op == TA_OP_PREINC || e->op == TA_OP_PREDEC) {
            mf_buf_puts(b, ta_op_str(e->op));
            print_kid(b, e->kids[0], 15, n);
        } else {
            print_kid(b, e->kids[0], 15, n);
            mf_buf_puts(b, ta_op_str(e->op));
        }
        break;
    case TA_E_CALL:
        mf_buf_printf(b, "%s(",
                      n && e->ref_kind == TA_R_FUNC && e->ref < n->nfuncs
                          ? n->funcs[e->ref].name
                      : e->name ? e->name
                                : "?");
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                mf_buf_puts(b, ", ");
            print_kid(b, e->kids[i], 1, n);
        }
        mf_buf_puts(b, ")");
        break;
    case TA_E_QUANT:
        mf_buf_printf(b, "%s (%s : ", ta_op_str(e->op), e->name);
        if (e->nkids > 1 && e->kids[1]->name)
            mf_buf_puts(b, e->kids[1]->name);
        else if (e->nkids > 1 && e->kids[1]->nkids == 2) {
            mf_buf_puts(b, "int[");
            print_at(b, e->kids[1]->kids[0], 0, n);
            mf_buf_puts(b, ",");
            print_at(b, e->kids[1]->kids[1], 0, n);
            mf_buf_puts(b, "]");
        } else
            mf_buf_printf(b, "int[%lld,%lld]", (long long)e->lo,
                          (long long)e->hi);
        mf_buf_puts(b, ") ");
        print_at(b, e->kids[0], 0, n);
        break;
    case TA_E_LIST:
        mf_buf_puts(b, "{");
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                mf_buf_puts(b, ", ");
            print_at(b, e->kids[i], 1, n);
        }
        mf_buf_puts(b, "}");
        break;
    }
}

void ta_print_expr(mf_buf *out, const ta_expr *e)
{
    if (!e) {
        mf_buf_puts(out, "true");
        return;
    }
    print_at(out, e, 0, NULL);
}

void ta_print_expr_flat(mf_buf *out, const ta_net *n, const ta_expr *e)
{
    if (!e) {
        mf_buf_puts(out, "true");
        return;
    }
    print_at(out, e, 0, n);
}

/* ---- messages ------------------------------------------------------------------ */

int ta_err_one_line(int rc)
{
    const char *m = mf_err_msg();
    if (!rc || !strpbrk(m, "\n\r\t"))
        return rc;
    char *c = mf_xstrdup(m);
    for (char *p = c; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    mf_err_set(rc, "%s", c);
    free(c);
    return rc;
}

/* ---- the net ------------------------------------------------------------------ */

void ta_net_free(ta_net *n)
{
    if (!n)
        return;
    mf_arena_free(n->arena);
}

int ta_net_find_var(const ta_net *n, const char *name)
{
    for (int i = 0; i < n->nvars; i++)
        if (!strcmp(n->vars[i].name, name))
            return i;
    return -1;
}

int ta_net_find_chan(const ta_net *n, const char *name)
{
    for (int i = 0; i < n->nchans; i++)
        if (!strcmp(n->chans[i].name, name))
            return i;
    return -1;
}

int ta_net_find_proc(const ta_net *n, const char *name)
{
    for (int i = 0; i < n->nprocs; i++)
        if (!strcmp(n->procs[i].name, name))
            return i;
    return -1;
}
