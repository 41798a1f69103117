/* encode_unroll.c - input tables and the unrolling of a model into a
 * solver, state by state: which item is a source or a constraint at state k,
 * how a slot gets its value (its sources, else a free choice), the
 * definedness and domain conditions that make ok[k], the observables, and in
 * a meta copy the batch's variants under their selectors. It does not encode
 * an expression (encode_expr.c) nor decide anything: the engines assert and
 * check what it builds. */
#include "encode_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef MF_VEC(int) intvec;

struct mf_inputs {
    mf_enc *E;
    Z3_solver s;
    char tag[32];
    int n;
    Z3_ast **st; /* per state: nslots, NULL where not an input */
};

struct mf_unroll {
    mf_enc *E;
    Z3_solver s;
    char tag[32];
    int meta, hard_ok;
    mf_inputs *in;
    int inoff; /* state k reads the inputs of state k + inoff */
    int depth; /* -1: nothing built */
    int cap;
    Z3_ast **st;
    Z3_ast *ok;
    Z3_ast **obs;
    mf_enc_astvec *ch;
    intvec *chslot; /* per choice of ch: the slot whose value it is, -1 */
    Z3_ast *state0;
};

/* x is a value of type t (of its cells' type for an array): the domain of
 * an input, the condition that a state is one. */
static Z3_ast in_type(mf_enc *E, const mf_type *t, Z3_ast x)
{
    t = mf_type_scalar(t);
    switch (t->kind) {
    case MF_TY_BOOL:
        return or2(E, eq(E, x, num(E, 0)), eq(E, x, num(E, 1)));
    case MF_TY_RANGE: {
        Z3_ast a = le(E, num(E, t->lo), x);
        Z3_ast b = le(E, x, num(E, t->hi));
        return and2(E, a, b);
    }
    case MF_TY_ENUM: {
        Z3_ast r = E->fls;
        for (int i = 0; i < t->nvals; i++)
            r = or2(E, r, eq(E, x, mf_enc_val(E, t->vals[i])));
        return r;
    }
    default:
        return E->fls;
    }
}

/* ------------------------------------------------------------------ */
/* Inputs                                                               */

mf_inputs *mf_inputs_new(mf_enc *E, Z3_solver s, const char *tag)
{
    mf_inputs *in = mf_xcalloc(1, sizeof *in);
    in->E = E;
    in->s = s;
    snprintf(in->tag, sizeof in->tag, "%s%s%ld", E->pfx, tag, E->fresh++);
    return in;
}

void mf_inputs_free(mf_inputs *in)
{
    if (!in)
        return;
    for (int k = 0; k < in->n; k++)
        free(in->st[k]);
    free(in->st);
    free(in);
}

Z3_ast *mf_inputs_state(mf_inputs *in, int k)
{
    mf_enc *E = in->E;
    const mf_model *m = E->m;
    while (in->n <= k) {
        int kk = in->n;
        in->st = mf_xrealloc(in->st, sizeof *in->st * (size_t)(kk + 1));
        Z3_ast *a = mf_xcalloc((size_t)(m->nslots ? m->nslots : 1), sizeof *a);
        for (int i = 0; i < m->nvars; i++) {
            const mf_var *v = &m->vars[i];
            if (!v->is_input && v->decl != MF_DECL_IVAR)
                continue;
            for (int q = 0; q < v->nslots; q++) {
                int sl = v->slot + q;
                if (v->decl == MF_DECL_IVAR && kk == 0) {
                    /* No input before the first step: the simulator puts
                     * the first value of the domain there. */
                    mf_val *dv = NULL;
                    int dn = 0;
                    mf_type_domain(v->type, &dv, &dn);
                    a[sl] = mf_enc_val(E, dn > 0 ? dv[0] : 0);
                    free(dv);
                    continue;
                }
                char name[64];
                snprintf(name, sizeof name, "%s_i%d_%d", in->tag, kk, sl);
                a[sl] = K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name),
                                      E->isort));
                Z3_solver_assert(E->c, in->s, in_type(E, v->type, a[sl]));
            }
        }
        in->st[kk] = a;
        in->n++;
    }
    return in->st[k];
}

/* ------------------------------------------------------------------ */
/* Unrolling                                                            */

mf_unroll *mf_unroll_new(mf_enc *E, Z3_solver s, const char *tag, int meta,
                         mf_inputs *in, int hard_ok, Z3_ast *state0)
{
    mf_unroll *u = mf_xcalloc(1, sizeof *u);
    u->E = E;
    u->s = s;
    snprintf(u->tag, sizeof u->tag, "%s%s%ld", E->pfx, tag, E->fresh++);
    u->meta = meta;
    u->in = in;
    u->hard_ok = hard_ok;
    u->depth = -1;
    u->state0 = state0;
    return u;
}

void mf_unroll_free(mf_unroll *u)
{
    if (!u)
        return;
    for (int k = 0; k <= u->depth; k++) {
        free(u->st[k]);
        free(u->obs[k]);
        MF_VEC_FREE(u->ch[k]);
        MF_VEC_FREE(u->chslot[k]);
    }
    free(u->st);
    free(u->ok);
    free(u->obs);
    free(u->ch);
    free(u->chslot);
    free(u);
}

void mf_unroll_shift_inputs(mf_unroll *u, int off)
{
    u->inoff = off;
}

int mf_unroll_depth(const mf_unroll *u)
{
    return u->depth;
}

Z3_ast *mf_unroll_state(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->st[k];
}

Z3_ast mf_unroll_ok(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->ok[k];
}

Z3_ast *mf_unroll_obs(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->obs[k];
}

Z3_ast *mf_unroll_choices(mf_unroll *u, int k, int *n)
{
    mf_unroll_extend(u, k);
    *n = u->ch[k].n;
    return u->ch[k].v;
}

const int *mf_unroll_choice_slots(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->chslot[k].v;
}

/* Per slot: the sources found so far, as (cond, value, def). */
typedef struct {
    Z3_ast cond, v, d;
} src;
typedef MF_VEC(src) srcvec;

/* Is item `it` (kind) relevant when building state k? as a source (1), a
 * constraint (2), or not (0). *trans: evaluated over (k-1, k). */
static int role(const mf_item *it, int k, int *trans)
{
    *trans = 0;
    switch (it->kind) {
    case MF_IT_INIT:
        return k == 0 ? 1 : 0;
    case MF_IT_NEXT:
        *trans = 1;
        return k > 0 ? 1 : 0;
    case MF_IT_ASSIGN:
        return 1;
    case MF_IT_INIT_C:
        return k == 0 ? 2 : 0;
    case MF_IT_TRANS_C:
        *trans = 1;
        return k > 0 ? 2 : 0;
    case MF_IT_INVAR_C:
        return 2;
    default:
        return 0;
    }
}

/* c where cond holds: c itself when cond is true. */
static Z3_ast guarded(mf_enc *E, Z3_ast cond, Z3_ast c)
{
    return cond == E->tru ? c : K(Z3_mk_implies(E->c, cond, c));
}

/* Item it of state k under condition vc (its mutant selected or not): a
 * constraint goes into *ok, an assignment becomes a source of each cell it
 * may name, or a constraint on a cell that is not its to define (an input,
 * a frozen variable after state 0). cur: state k-1, st: state k. */
static void add_item(mf_enc *E, const mf_item *it, Z3_ast vc, int k,
                     srcvec *srcs, Z3_ast *ok, Z3_ast *cur, Z3_ast *st)
{
    const mf_model *m = E->m;
    int trans;
    int r = role(it, k, &trans);
    if (!r)
        return;
    mf_enc_ectx tx = {cur, st, st};
    mf_enc_ectx lx = {st, NULL, st};
    const mf_enc_ectx *x = trans ? &tx : &lx;
    if (r == 2) {
        Z3_ast c = mf_enc_is_true(E, mf_enc_value(E, x, it->e));
        *ok = and2(E, *ok, guarded(E, vc, c));
        return;
    }
    mf_enc_cellvec cells = {0};
    Z3_ast def = E->tru;
    if (mf_enc_lhs_cells(E, x, it->lhs, &cells, &def) < 0) {
        MF_VEC_FREE(cells);
        return;
    }
    /* An index out of bounds: no state at all. */
    if (def != E->tru)
        *ok = and2(E, *ok, guarded(E, vc, def));
    mf_enc_tv t = mf_enc_value(E, x, it->e);
    for (int i = 0; i < cells.n; i++) {
        int sl = cells.v[i].slot;
        const mf_var *v = NULL;
        for (int q = 0; q < m->nvars; q++)
            if (sl >= m->vars[q].slot &&
                sl < m->vars[q].slot + m->vars[q].nslots)
                v = &m->vars[q];
        Z3_ast cond = and2(E, vc, cells.v[i].cond);
        int pinned = v && (v->decl == MF_DECL_IVAR ||
                           (v->is_input && v->decl != MF_DECL_IVAR) ||
                           (k > 0 && v->decl == MF_DECL_FROZENVAR));
        if (pinned) {
            Z3_ast c = and2(E, t.d, eq(E, st[sl], t.v));
            *ok = and2(E, *ok, guarded(E, cond, c));
        } else {
            src sc = {cond, t.v, t.d};
            MF_VEC_PUSH(srcs[sl], sc);
        }
    }
    MF_VEC_FREE(cells);
}

/* The terms of state k's slots: the given state 0, an input of the table, a
 * frozen variable's previous value, else a new constant (marked in freeslot:
 * its value is defined by its sources, or free). */
static void slot_terms(mf_unroll *u, int k, Z3_ast *st, Z3_ast *cur,
                       Z3_ast *inp, unsigned char *freeslot)
{
    mf_enc *E = u->E;
    const mf_model *m = E->m;
    int arbitrary = k == 0 && u->state0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        for (int q = 0; q < v->nslots; q++) {
            int sl = v->slot + q;
            if (arbitrary)
                st[sl] = u->state0[sl];
            else if (k > 0 && v->decl == MF_DECL_FROZENVAR)
                st[sl] = cur[sl];
            else if (v->decl == MF_DECL_IVAR || v->is_input)
                /* an input FROZENVAR (docs/smv.md): state 0's value */
                st[sl] = inp ? inp[sl] : NULL;
            if (!st[sl]) {
                char name[64];
                snprintf(name, sizeof name, "%s_%d_%d", u->tag, k, sl);
                st[sl] = K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name),
                                       E->isort));
                freeslot[sl] = 1;
            }
        }
    }
}

/* A state invariant of an arbitrary (reachable) state st, only as a
 * constraint: an INVAR holds, an invariant assignment of one cell holds. */
static Z3_ast arbitrary_item(mf_enc *E, const mf_item *it, Z3_ast *st)
{
    mf_enc_ectx lx = {st, NULL, st};
    mf_enc_tv t = mf_enc_value(E, &lx, it->e);
    Z3_ast c = mf_enc_is_true(E, t);
    if (it->kind == MF_IT_ASSIGN) {
        mf_enc_cellvec cells = {0};
        Z3_ast def = E->tru;
        if (mf_enc_lhs_cells(E, &lx, it->lhs, &cells, &def) == 0 &&
            cells.n == 1)
            c = and2(E, t.d, eq(E, st[cells.v[0].slot], t.v));
        else
            c = E->tru;
        MF_VEC_FREE(cells);
    }
    return c;
}

/* The items of state k: constraints into *ok, assignments as sources of
 * their cells; in a meta copy each replaced item under "no mutant replacing
 * it is selected", each variant under "its mutant is selected". */
static void add_items(mf_unroll *u, int k, srcvec *srcs, Z3_ast *ok,
                      Z3_ast *cur, Z3_ast *st)
{
    mf_enc *E = u->E;
    const mf_model *m = E->m;
    int arbitrary = k == 0 && u->state0;
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        if (it->kind == MF_IT_DEFINE)
            continue;
        if (arbitrary && it->kind != MF_IT_INVAR_C && it->kind != MF_IT_ASSIGN)
            continue;
        int *at = u->meta ? E->at[i] : NULL;
        Z3_ast orig = E->tru;
        if (at)
            for (int *j = at; *j >= 0; j++)
                orig = and2(E, orig, not1(E, selected(E, *j)));
        if (arbitrary) {
            *ok = and2(E, *ok, guarded(E, orig, arbitrary_item(E, it, st)));
            continue;
        }
        add_item(E, it, orig, k, srcs, ok, cur, st);
        if (at)
            for (int *j = at; *j >= 0; j++)
                if (E->muts[*j].repl)
                    add_item(E, E->muts[*j].repl, selected(E, *j), k, srcs, ok,
                             cur, st);
    }
}

/* The leaves of the if-then-else tree of a slot's value (the values it can
 * take, each under its condition): constants, choices, terms. */
static void value_leaves(mf_enc *E, Z3_ast v, int sl, mf_enc_astvec *out,
                         intvec *slots, int depth)
{
    Z3_context c = E->c;
    if (depth < 64 && Z3_get_ast_kind(c, v) == Z3_APP_AST) {
        Z3_app a = Z3_to_app(c, v);
        if (Z3_get_decl_kind(c, Z3_get_app_decl(c, a)) == Z3_OP_ITE) {
            value_leaves(E, Z3_get_app_arg(c, a, 1), sl, out, slots, depth + 1);
            value_leaves(E, Z3_get_app_arg(c, a, 2), sl, out, slots, depth + 1);
            return;
        }
    }
    MF_VEC_PUSH(*out, v);
    MF_VEC_PUSH(*slots, sl);
}

/* Each new slot of state k (none in an arbitrary state 0) equals its
 * sources (the last one whose condition holds), else a free choice; their
 * definedness goes into *ok. Then each choice of the step learns the slot
 * whose value it is on some branch. */
static void define_slots(mf_unroll *u, int k, Z3_ast *st, srcvec *srcs,
                         const unsigned char *freeslot, Z3_ast *ok)
{
    mf_enc *E = u->E;
    int arbitrary = k == 0 && u->state0;
    mf_enc_astvec leaves = {0};
    intvec leafslot = {0};
    for (int sl = 0; sl < E->m->nslots; sl++) {
        if (!freeslot[sl] || arbitrary)
            continue;
        Z3_ast val = NULL, d = E->tru;
        int uncond = 0;
        for (int i = srcs[sl].n - 1; i >= 0; i--)
            if (srcs[sl].v[i].cond == E->tru)
                uncond = 1;
        if (!uncond)
            val = mf_enc_new_choice(E);
        for (int i = srcs[sl].n - 1; i >= 0; i--) {
            src *sc = &srcs[sl].v[i];
            if (!val) {
                val = sc->v;
                d = sc->d;
                continue;
            }
            val = ite(E, sc->cond, sc->v, val);
            d = ite(E, sc->cond, sc->d, d);
        }
        Z3_solver_assert(E->c, u->s, eq(E, st[sl], val));
        *ok = and2(E, *ok, d);
        if (u->ch[k].n) /* only a choice made so far can be a leaf */
            value_leaves(E, val, sl, &leaves, &leafslot, 0);
    }
    for (int i = 0; i < u->ch[k].n; i++) {
        int at = -1;
        for (int q = 0; q < leaves.n && at < 0; q++)
            if (leaves.v[q] == u->ch[k].v[i])
                at = leafslot.v[q];
        MF_VEC_PUSH(u->chslot[k], at);
    }
    MF_VEC_FREE(leaves);
    MF_VEC_FREE(leafslot);
}

/* The observables of state st: observable variables' cells, then the
 * observed DEFINEs (a code no value has where undefined). */
static Z3_ast *observables(mf_enc *E, Z3_ast *st)
{
    const mf_model *m = E->m;
    Z3_ast *obs = mf_xcalloc((size_t)(E->nobs ? E->nobs : 1), sizeof *obs);
    int no = 0;
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].is_observable)
            for (int q = 0; q < m->vars[i].nslots; q++)
                obs[no++] = st[m->vars[i].slot + q];
    for (int i = 0; i < m->nobs_defines; i++) {
        int item = m->obs_defines[i];
        mf_enc_ectx lx = {st, NULL, st};
        if (mf_enc_has_choice(m, m->items[item].e))
            mf_enc_note_unsupported(E,
                                    &(mf_expr){.line = m->items[item].line,
                                               .col = m->items[item].col},
                                    "observing a non-deterministic DEFINE");
        mf_enc_tv t = mf_enc_define(E, &lx, item);
        obs[no++] = ite(E, t.d, t.v, num(E, E->undef));
    }
    return obs;
}

static void build_state(mf_unroll *u, int k)
{
    mf_enc *E = u->E;
    const mf_model *m = E->m;
    int n = m->nslots;
    Z3_ast *st = mf_xcalloc((size_t)(n ? n : 1), sizeof *st);
    Z3_ast *cur = k > 0 ? u->st[k - 1] : NULL;
    Z3_ast *inp = u->in ? mf_inputs_state(u->in, k + u->inoff) : NULL;
    Z3_ast ok = E->tru;
    srcvec *srcs = mf_xcalloc((size_t)(n ? n : 1), sizeof *srcs);
    unsigned char *freeslot = mf_xcalloc((size_t)(n ? n : 1), 1);

    E->choices = &u->ch[k];
    E->meta = u->meta;
    E->stamp++; /* a new mf_enc_ectx: the DEFINE cache restarts */

    int arbitrary = k == 0 && u->state0;
    slot_terms(u, k, st, cur, inp, freeslot);
    add_items(u, k, srcs, &ok, cur, st);
    define_slots(u, k, st, srcs, freeslot, &ok);
    /* Domains: a value outside the type is no successor. */
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (v->decl == MF_DECL_IVAR && !arbitrary)
            continue;
        for (int q = 0; q < v->nslots; q++)
            ok = and2(E, ok, in_type(E, v->type, st[v->slot + q]));
    }
    Z3_ast *obs = observables(E, st);

    if (u->hard_ok) {
        Z3_solver_assert(E->c, u->s, ok);
    } else {
        char name[64];
        snprintf(name, sizeof name, "%s_ok%d", u->tag, k);
        Z3_ast b =
            K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name), E->bsort));
        Z3_solver_assert(E->c, u->s, K(Z3_mk_iff(E->c, b, ok)));
        ok = b;
    }
    u->st[k] = st;
    u->ok[k] = ok;
    u->obs[k] = obs;
    E->choices = NULL;
    E->stamp++;
    for (int sl = 0; sl < n; sl++)
        MF_VEC_FREE(srcs[sl]);
    free(srcs);
    free(freeslot);
}

void mf_unroll_extend(mf_unroll *u, int k)
{
    if (k <= u->depth)
        return;
    if (k >= u->cap) {
        int cap = k + 8;
        u->st = mf_xrealloc(u->st, sizeof *u->st * (size_t)cap);
        u->ok = mf_xrealloc(u->ok, sizeof *u->ok * (size_t)cap);
        u->obs = mf_xrealloc(u->obs, sizeof *u->obs * (size_t)cap);
        u->ch = mf_xrealloc(u->ch, sizeof *u->ch * (size_t)cap);
        u->chslot = mf_xrealloc(u->chslot, sizeof *u->chslot * (size_t)cap);
        for (int i = u->cap; i < cap; i++) {
            memset(&u->ch[i], 0, sizeof u->ch[i]);
            memset(&u->chslot[i], 0, sizeof u->chslot[i]);
        }
        u->cap = cap;
    }
    while (u->depth < k) {
        u->depth++;
        build_state(u, u->depth);
    }
}

/* ------------------------------------------------------------------ */
/* Terms over a whole unrolling (encode.h)                              */

Z3_ast mf_enc_all_ok(mf_enc *E, mf_unroll *u, int from, int to)
{
    Z3_ast *x = mf_xcalloc((size_t)(to - from + 2), sizeof *x);
    int n = 0;
    for (int k = from; k <= to; k++)
        x[n++] = mf_unroll_ok(u, k);
    Z3_ast r = mf_enc_and(E, n, x);
    free(x);
    return r;
}

Z3_ast mf_enc_all_obs_eq(mf_enc *E, mf_unroll *a, mf_unroll *b, int to)
{
    Z3_ast *x = mf_xcalloc((size_t)(to + 2), sizeof *x);
    int n = 0;
    for (int k = 0; k <= to; k++)
        x[n++] = mf_enc_obs_eq(E, mf_unroll_obs(a, k), mf_unroll_obs(b, k));
    Z3_ast r = mf_enc_and(E, n, x);
    free(x);
    return r;
}
