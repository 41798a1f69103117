/* build.c - the translation of smv.c built directly as the common model's
 * variables and items (resolved expressions), for a loader that cannot go
 * through SMV text: a language of the registry of model/lang.h fills a
 * fresh model and lets mf_model_finish do the rest. The items are exactly
 * those the SMV loader makes of mf_kiss2_smv's text (tests/test_kiss2.c
 * compares them), with the KISS2 row's line on a row's items.
 *
 * It does not read KISS2 (read.c) or check types (the model's finish). */
#include "kiss2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    mf_model *m;
    const mf_kiss2 *k;
    mf_arena *a;
    mf_type *tbool, *tstate;
    int vstate, vin0, vout0; /* indices of state, in0, out0 */
    int *rowit;              /* row i's first item (r<i>), -1: none */
    MF_VEC(mf_item) items;
} builder;

static mf_expr *id_var(builder *b, int v)
{
    mf_expr *e = mf_expr_new(b->a, MF_E_ID, 0, 0);
    e->name = b->m->vars[v].name;
    e->ref_kind = MF_REF_VAR;
    e->ref = v;
    return e;
}

static mf_expr *id_define(builder *b, int item)
{
    mf_expr *e = mf_expr_new(b->a, MF_E_ID, 0, 0);
    e->name = b->items.v[item].name;
    e->ref_kind = MF_REF_DEFINE;
    e->ref = item;
    return e;
}

static mf_expr *and_(builder *b, mf_expr *l, mf_expr *r)
{
    return l ? mf_expr_bin(b->a, MF_OP_AND, l, r) : r;
}

static mf_expr *state_is(builder *b, int s)
{
    return mf_expr_bin(b->a, MF_OP_EQ, id_var(b, b->vstate),
                       mf_expr_int(b->a, s, 0, 0));
}

static mf_expr *bit(builder *b, char c)
{
    if (c != '-')
        return mf_expr_bool(b->a, c == '1', 0, 0);
    mf_expr *set = mf_expr_new(b->a, MF_E_SET, 0, 0);
    mf_expr_add(b->a, set, mf_expr_bool(b->a, 0, 0, 0));
    mf_expr_add(b->a, set, mf_expr_bool(b->a, 1, 0, 0));
    return set;
}

static int add_item(builder *b, mf_itkind kind, const char *name, int var,
                    mf_expr *e, int line)
{
    mf_item it = {.kind = kind, .var = var, .e = e, .line = line,
                  .col = line ? 1 : 0};
    if (name)
        it.name = mf_arena_strdup(b->a, name);
    if (kind == MF_IT_INIT || kind == MF_IT_NEXT)
        it.lhs = id_var(b, var);
    else /* as the SMV flattener leaves them */
        it.var = kind == MF_IT_DEFINE ? 0 : -1;
    MF_VEC_PUSH(b->items, it);
    return b->items.n - 1;
}

static int add_var(builder *b, const char *name, mf_declkind decl,
                   mf_type *t)
{
    mf_model *m = b->m;
    mf_var v = {.name = mf_arena_strdup(b->a, name), .decl = decl, .type = t,
                .nslots = 1};
    mf_var *nv = mf_arena_alloc(b->a, (size_t)(m->nvars + 1) * sizeof *nv);
    if (m->nvars)
        memcpy(nv, m->vars, (size_t)m->nvars * sizeof *nv);
    nv[m->nvars] = v;
    m->vars = nv;
    return m->nvars++;
}

/* The rows' DEFINEs: r<i>, t<i>, y<i>_<j>. */
static void row_defines(builder *b)
{
    const mf_kiss2 *k = b->k;
    char name[48];
    for (int i = 0; i < k->nrows; i++) {
        const mf_kiss2_row *r = &k->rows[i];
        if (r->to == MF_KISS2_ANY)
            continue;
        mf_expr *g = NULL;
        if (r->from != MF_KISS2_ANY)
            g = state_is(b, r->from);
        for (int c = 0; c < k->ni; c++) {
            if (r->in[c] == '-')
                continue;
            mf_expr *x = id_var(b, b->vin0 + c);
            g = and_(b, g, r->in[c] == '1' ? x : mf_expr_un(b->a, MF_E_NOT, x));
        }
        snprintf(name, sizeof name, "r%d", i);
        b->rowit[i] = b->items.n;
        add_item(b, MF_IT_DEFINE, name, -1,
                 g ? g : mf_expr_bool(b->a, 1, 0, 0), r->line);
        snprintf(name, sizeof name, "t%d", i);
        add_item(b, MF_IT_DEFINE, name, -1, mf_expr_int(b->a, r->to, 0, 0),
                 r->line);
        for (int j = 0; j < k->no; j++) {
            snprintf(name, sizeof name, "y%d_%d", i, j);
            add_item(b, MF_IT_DEFINE, name, -1, bit(b, r->out[j]), r->line);
        }
    }
}

/* next(state) (bit -1) or next(out<bit>), as smv.c's put_next. */
static mf_expr *next_case(builder *b, int bit_, mf_expr *(*dflt)(builder *))
{
    const mf_kiss2 *k = b->k;
    mf_expr *outer = mf_expr_new(b->a, MF_E_CASE, 0, 0);
    for (int s = 0; s < k->nstates; s++) {
        mf_expr *inner = mf_expr_new(b->a, MF_E_CASE, 0, 0);
        for (int i = 0; i < k->nrows; i++) {
            const mf_kiss2_row *r = &k->rows[i];
            if (r->to == MF_KISS2_ANY ||
                (r->from != s && r->from != MF_KISS2_ANY))
                continue;
            int it = b->rowit[i];
            mf_expr_add(b->a, inner, id_define(b, it));
            mf_expr_add(b->a, inner,
                        id_define(b, it + (bit_ < 0 ? 1 : 2 + bit_)));
        }
        mf_expr_add(b->a, inner, mf_expr_bool(b->a, 1, 0, 0));
        mf_expr_add(b->a, inner, dflt(b));
        mf_expr_add(b->a, outer, state_is(b, s));
        mf_expr_add(b->a, outer, inner);
    }
    mf_expr_add(b->a, outer, mf_expr_bool(b->a, 1, 0, 0));
    mf_expr_add(b->a, outer, dflt(b));
    return outer;
}

static mf_expr *dflt_state(builder *b)
{
    return id_var(b, b->vstate);
}

static mf_expr *dflt_false(builder *b)
{
    return mf_expr_bool(b->a, 0, 0, 0);
}

int mf_kiss2_fill(mf_model *m, const mf_kiss2 *k)
{
    if (k->no == 0)
        return mf_err_set(MF_EUNSUPPORTED,
                          "%s:1: error: a machine without outputs (.o 0): no "
                          "test could observe anything", k->file);
    builder b = {.m = m, .k = k, .a = m->arena};
    b.rowit = mf_arena_alloc(b.a, (size_t)(k->nrows + 1) * sizeof *b.rowit);
    for (int i = 0; i < k->nrows; i++)
        b.rowit[i] = -1;
    b.tbool = mf_arena_alloc(b.a, sizeof *b.tbool);
    b.tbool->kind = MF_TY_BOOL;
    b.tstate = mf_arena_alloc(b.a, sizeof *b.tstate);
    b.tstate->kind = MF_TY_RANGE;
    b.tstate->lo = 0;
    b.tstate->hi = k->nstates - 1;
    char name[32];
    b.vin0 = m->nvars;
    for (int i = 0; i < k->ni; i++) {
        snprintf(name, sizeof name, "in%d", i);
        add_var(&b, name, MF_DECL_IVAR, b.tbool);
    }
    b.vstate = add_var(&b, "state", MF_DECL_VAR, b.tstate);
    b.vout0 = m->nvars;
    for (int j = 0; j < k->no; j++) {
        snprintf(name, sizeof name, "out%d", j);
        add_var(&b, name, MF_DECL_VAR, b.tbool);
    }
    row_defines(&b);
    add_item(&b, MF_IT_INIT, NULL, b.vstate, mf_expr_int(b.a, k->reset, 0, 0),
             0);
    for (int j = 0; j < k->no; j++)
        add_item(&b, MF_IT_INIT, NULL, b.vout0 + j, dflt_false(&b), 0);
    add_item(&b, MF_IT_NEXT, NULL, b.vstate, next_case(&b, -1, dflt_state),
             0);
    for (int j = 0; j < k->no; j++)
        add_item(&b, MF_IT_NEXT, NULL, b.vout0 + j,
                 next_case(&b, j, dflt_false), 0);
    for (int s = 0; s < k->nstates; s++) {
        mf_expr *any = NULL;
        for (int i = 0; i < k->nrows; i++) {
            const mf_kiss2_row *r = &k->rows[i];
            if ((r->from != s && r->from != MF_KISS2_ANY) ||
                r->to == MF_KISS2_ANY)
                continue;
            mf_expr *x = id_define(&b, b.rowit[i]);
            any = any ? mf_expr_bin(b.a, MF_OP_OR, any, x) : x;
        }
        add_item(&b, MF_IT_TRANS_C, NULL, -1,
                 mf_expr_bin(b.a, MF_OP_IMPLIES, state_is(&b, s),
                             any ? any : dflt_false(&b)),
                 0);
    }
    m->nitems = b.items.n;
    m->items = mf_arena_alloc(b.a, (size_t)b.items.n * sizeof *m->items);
    memcpy(m->items, b.items.v, (size_t)b.items.n * sizeof *m->items);
    MF_VEC_FREE(b.items);
    return 0;
}
