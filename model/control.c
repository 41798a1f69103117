/* control.c - controllable non-determinism (see control.h): the choices of
 * assignments' values made inputs. Builds the counterpart model with
 * model.h's mf_model_extend and rewrites items; knows nothing of Z3. */
#include "control.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mf_control {
    mf_model *tm;
    mf_arena *a;  /* replacements made by mf_control_item */
    int *base;    /* per item of m: its first input (a var of tm), -1 */
    int *count;   /* per item: inputs it has */
    int ninputs;
};

static int is_set(const mf_expr *e)
{
    return e->kind == MF_E_SET || e->kind == MF_E_RANGE ||
           (e->kind == MF_E_BIN && e->op == MF_OP_UNION);
}

/* Does e contain a set below its root? Such a set is left alone. The
 * operands of a union are part of the one set it makes, not nested in it. */
static int nested_set(const mf_expr *e)
{
    if (e->kind == MF_E_BIN && e->op == MF_OP_UNION)
        return nested_set(e->kids[0]) || nested_set(e->kids[1]);
    for (int i = 0; i < e->nkids; i++)
        if (is_set(e->kids[i]) || nested_set(e->kids[i]))
            return 1;
    return 0;
}

static int is_assignment(const mf_item *it)
{
    return it && (it->kind == MF_IT_INIT || it->kind == MF_IT_NEXT ||
                  it->kind == MF_IT_ASSIGN);
}

/* The sets in value position of e: e itself, or a branch value of its
 * (nested) case. */
static int count_sets(const mf_expr *e)
{
    if (is_set(e))
        return !nested_set(e);
    if (e->kind != MF_E_CASE)
        return 0;
    int n = 0;
    for (int i = 1; i < e->nkids; i += 2)
        n += count_sets(e->kids[i]);
    return n;
}

/* The sets item `it` of m makes inputs: none where the assigned variable
 * is an input already (`next(b) := {TRUE, FALSE}`: the tester sets b). */
static int item_sets(const mf_model *m, const mf_item *it)
{
    if (!is_assignment(it) || m->vars[it->var].is_input)
        return 0;
    return count_sets(it->e);
}

/* The first value of a set: the one the rewrite falls back to. An
 * operand of a union may be a plain value (`i.tag union error`), which is
 * its own first value. */
static const mf_expr *first_of(const mf_expr *e)
{
    if (e->kind == MF_E_BIN && e->op == MF_OP_UNION)
        return first_of(e->kids[0]);
    if ((e->kind == MF_E_SET || e->kind == MF_E_RANGE) && e->nkids > 0)
        return e->kids[0];
    return e;
}

typedef struct {
    const mf_model *m; /* for names and types */
    mf_arena *a;
    int var; /* the next input to use */
} rewrite;

static mf_expr *nd_ref(rewrite *w, const mf_expr *at)
{
    mf_expr *id = mf_expr_new(w->a, MF_E_ID, at->line, at->col);
    id->name = mf_arena_strdup(w->a, w->m->vars[w->var].name);
    id->ref_kind = MF_REF_VAR;
    id->ref = w->var;
    return id;
}

/* "nd in S" without a set (a set reads as a choice to the determinism
 * check): nd = e1 | nd = e2 ..., lo <= nd & nd <= hi; a plain value v
 * among the operands of a union (`i.tag union error`) is nd = v. */
static mf_expr *member(rewrite *w, const mf_expr *s)
{
    if (s->kind == MF_E_BIN && s->op == MF_OP_UNION)
        return mf_expr_bin(w->a, MF_OP_OR, member(w, s->kids[0]),
                           member(w, s->kids[1]));
    if (s->kind != MF_E_SET && s->kind != MF_E_RANGE)
        return mf_expr_bin(w->a, MF_OP_EQ, nd_ref(w, s),
                           mf_expr_copy(w->a, s));
    if (s->kind == MF_E_RANGE)
        return mf_expr_bin(
            w->a, MF_OP_AND,
            mf_expr_bin(w->a, MF_OP_LE, mf_expr_copy(w->a, s->kids[0]),
                        nd_ref(w, s)),
            mf_expr_bin(w->a, MF_OP_LE, nd_ref(w, s),
                        mf_expr_copy(w->a, s->kids[1])));
    mf_expr *r = NULL;
    for (int i = 0; i < s->nkids; i++) {
        mf_expr *eq = mf_expr_bin(w->a, MF_OP_EQ, nd_ref(w, s),
                                  mf_expr_copy(w->a, s->kids[i]));
        r = r ? mf_expr_bin(w->a, MF_OP_OR, r, eq) : eq;
    }
    return r ? r : mf_expr_bool(w->a, 0, s->line, s->col);
}

/* e with its sets in value position rewritten (e is a copy in w->a). */
static mf_expr *rewrite_value(rewrite *w, mf_expr *e)
{
    if (is_set(e)) {
        if (nested_set(e))
            return e;
        mf_expr *c = mf_expr_new(w->a, MF_E_CASE, e->line, e->col);
        mf_expr_add(w->a, c, member(w, e));
        mf_expr_add(w->a, c, nd_ref(w, e));
        mf_expr_add(w->a, c, mf_expr_bool(w->a, 1, e->line, e->col));
        mf_expr_add(w->a, c, mf_expr_copy(w->a, first_of(e)));
        w->var++;
        return c;
    }
    if (e->kind == MF_E_CASE)
        for (int i = 1; i < e->nkids; i += 2)
            e->kids[i] = rewrite_value(w, e->kids[i]);
    return e;
}

/* dst: src (an item for index `item`) rewritten with tm's inputs of item;
 * src itself where the rewrite does not type check. */
static void rewrite_item(mf_control *c, mf_arena *a, int item, mf_item *dst,
                         const mf_item *src)
{
    mf_item_copy(a, dst, src);
    int n = item_sets(c->tm, src);
    if (!n || n > c->count[item])
        return;
    rewrite w = {c->tm, a, c->base[item]};
    dst->e = rewrite_value(&w, dst->e);
    if (mf_model_check_item(c->tm, dst) < 0)
        mf_item_copy(a, dst, src);
}

typedef struct {
    mf_control *c;
    const mf_model *m;
} edit_ctx;

static int edit_items(mf_model *tm, void *ctx)
{
    edit_ctx *x = ctx;
    x->c->tm = tm;
    for (int i = 0; i < tm->nitems; i++)
        if (item_sets(x->m, &x->m->items[i]))
            rewrite_item(x->c, tm->arena, i, &tm->items[i], &x->m->items[i]);
    return 0;
}

/* A name for input k of var v not taken in m (nor by the inputs before). */
static char *input_name(const mf_model *m, const mf_var *newv, int nnew,
                        const char *var, int k)
{
    size_t len = strlen(var) + 32;
    char *s = mf_xmalloc(len);
    snprintf(s, len, "nd_%s_%d", var, k);
    for (;;) {
        int taken = mf_model_find_var(m, s) >= 0 ||
                    mf_model_find_define(m, s) >= 0;
        for (int i = 0; i < nnew && !taken; i++)
            taken = !strcmp(newv[i].name, s);
        if (!taken)
            return s;
        len = strlen(s) + 2;
        char *t = mf_xmalloc(len);
        snprintf(t, len, "%s_", s);
        free(s);
        s = t;
    }
}

int mf_control_new(mf_control **out, const mf_model *m, int nalt,
                   const int *alt_item, const mf_item *const *alts)
{
    *out = NULL;
    mf_control *c = mf_xcalloc(1, sizeof *c);
    int ni = m->nitems ? m->nitems : 1;
    c->base = mf_xmalloc(sizeof *c->base * (size_t)ni);
    c->count = mf_xcalloc((size_t)ni, sizeof *c->count);
    for (int i = 0; i < m->nitems; i++)
        c->count[i] = item_sets(m, &m->items[i]);
    for (int j = 0; j < nalt; j++) {
        int i = alt_item[j];
        if (i >= 0 && i < m->nitems && alts[j] && is_assignment(&m->items[i]) &&
            item_sets(m, alts[j]) > c->count[i])
            c->count[i] = item_sets(m, alts[j]);
    }
    MF_VEC(mf_var) nv = {0};
    for (int i = 0; i < m->nitems; i++) {
        c->base[i] = c->count[i] ? m->nvars + nv.n : -1;
        const mf_item *it = &m->items[i];
        for (int k = 0; k < c->count[i]; k++) {
            const mf_var *x = &m->vars[it->var];
            mf_var v = {0};
            v.name = input_name(m, nv.v, nv.n, x->name, k);
            v.decl = it->kind == MF_IT_NEXT ? MF_DECL_IVAR : MF_DECL_VAR;
            v.type = (mf_type *)mf_type_scalar(x->type);
            v.line = it->line;
            v.col = it->col;
            v.is_input = 1;
            MF_VEC_PUSH(nv, v);
        }
    }
    c->ninputs = nv.n;
    edit_ctx x = {c, m};
    int rc = mf_model_extend(&c->tm, m, nv.n, nv.v, edit_items, &x);
    for (int i = 0; i < nv.n; i++)
        free((char *)nv.v[i].name);
    MF_VEC_FREE(nv);
    if (rc < 0) {
        c->tm = NULL;
        mf_control_free(c);
        return rc;
    }
    c->a = mf_arena_new();
    *out = c;
    return 0;
}

void mf_control_free(mf_control *c)
{
    if (!c)
        return;
    mf_model_free(c->tm);
    mf_arena_free(c->a);
    free(c->base);
    free(c->count);
    free(c);
}

const mf_model *mf_control_model(const mf_control *c)
{
    return c->tm;
}

int mf_control_ninputs(const mf_control *c)
{
    return c->ninputs;
}

const mf_item *mf_control_item(mf_control *c, int item, const mf_item *src)
{
    if (!src)
        return NULL;
    mf_item *dst = mf_arena_alloc(c->a, sizeof *dst);
    if (item < 0 || item >= c->tm->nitems)
        mf_item_copy(c->a, dst, src);
    else
        rewrite_item(c, c->a, item, dst, src);
    return dst;
}
