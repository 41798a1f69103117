/* encode.c - the encoder of one (context, model, batch): it picks the sort
 * of values (bit-vectors as wide as the model's values need, else Int), codes
 * values and symbolic constants, owns the mutant selector and every term it
 * makes, names fresh constants, and builds the terms encode.h offers the
 * engines. It does not encode expressions (encode_expr.c) or states
 * (encode_unroll.c). */
#include "encode_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Z3_ast mf_enc_keep(mf_enc *E, Z3_ast a)
{
    if (a)
        Z3_ast_vector_push(E->c, E->keep, a);
    return a;
}

Z3_context mf_enc_ctx(const mf_enc *E)
{
    return E->c;
}

const mf_model *mf_enc_model(const mf_enc *E)
{
    return E->m;
}

int mf_enc_bits(const mf_enc *E)
{
    return E->bvw;
}

const char *mf_enc_unsupported(const mf_enc *E)
{
    return E->unsupported[0] ? E->unsupported : NULL;
}

void mf_enc_note_unsupported(mf_enc *E, const mf_expr *e, const char *what)
{
    if (!E->unsupported[0])
        snprintf(E->unsupported, sizeof E->unsupported,
                 "%s:%d:%d: the Z3 encoding does not support %s",
                 E->m->file ? E->m->file : "<model>", e ? e->line : 0,
                 e ? e->col : 0, what);
}

Z3_ast mf_enc_val(mf_enc *E, mf_val v)
{
    return num(E, MF_IS_SYM(v) ? E->symbase + (v - MF_SYM_BASE) : v);
}

mf_val mf_enc_eval(mf_enc *E, Z3_model mdl, Z3_ast t)
{
    Z3_ast r = NULL;
    int64_t x = 0;
    if (Z3_model_eval(E->c, mdl, t, 1, &r) && r) {
        Z3_inc_ref(E->c, r);
        if (E->bvw) {
            uint64_t u = 0;
            if (!Z3_get_numeral_uint64(E->c, r, &u))
                u = 0;
            if (u >> (E->bvw - 1)) /* negative: sign-extend */
                u |= ~(uint64_t)0 << E->bvw;
            x = (int64_t)u;
        } else if (!Z3_get_numeral_int64(E->c, r, &x))
            x = 0;
        Z3_dec_ref(E->c, r);
    }
    return x >= E->symbase ? MF_SYM(x - E->symbase) : x;
}

mf_val mf_enc_eval_obs(mf_enc *E, Z3_model mdl, Z3_ast t)
{
    mf_val v = mf_enc_eval(E, mdl, t);
    mf_val u = E->undef >= E->symbase ? MF_SYM(E->undef - E->symbase)
                                      : E->undef;
    return v == u ? MF_VAL_UNDEF : v;
}

static Z3_ast fresh(mf_enc *E, const char *pfx, Z3_sort s)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s!%ld", E->pfx, pfx, E->fresh++);
    return K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name), s));
}

Z3_ast mf_enc_new_choice(mf_enc *E)
{
    Z3_ast x = fresh(E, "ch", E->isort);
    if (E->choices)
        MF_VEC_PUSH(*E->choices, x);
    return x;
}

static int bitlen(int64_t x)
{
    int n = 0;
    while (x > 0) {
        n++;
        x >>= 1;
    }
    return n;
}

/* The sort of values and the codes of symbolic constants: bit-vectors wide
 * enough for every value of m, its variants and `also` (the interval
 * analysis), unless the values may pass MF_ENC_RCAP or Int is asked for. */
static void choose_sort(mf_enc *E, const mf_model *m, const mf_variant *muts,
                        int nmut, const mf_model *also, int encoding)
{
    Z3_context ctx = E->c;
    int64_t mx = mf_enc_max_magnitude(m, muts, nmut);
    int nsyms = m->nsyms;
    if (also) {
        int64_t mx2 = mf_enc_max_magnitude(also, NULL, 0);
        mx = mx2 > mx ? mx2 : mx;
        nsyms = also->nsyms > nsyms ? also->nsyms : nsyms;
    }
    /* sign bit + one spare: comparisons and negation never overflow */
    int w = bitlen(mx + 1 + nsyms) + 2;
    if (encoding == MF_ENC_BV ||
        (encoding == MF_ENC_AUTO && mx < MF_ENC_RCAP)) {
        E->bvw = w < 2 ? 2 : w;
        E->symbase = mx + 1;
        E->undef = E->symbase + nsyms; /* fits: the spare bit */
        E->isort = Z3_mk_bv_sort(ctx, (unsigned)E->bvw);
    } else {
        E->symbase = MF_ENC_SYMOFF;
        E->undef = -((int64_t)1 << 40);
        E->isort = Z3_mk_int_sort(ctx);
    }
}

/* Per item of m: the indices of the mutants replacing it, -1 terminated;
 * NULL for an item no mutant replaces. */
static int **replacing(const mf_model *m, const mf_variant *muts, int nmut)
{
    int **at = mf_xcalloc((size_t)(m->nitems ? m->nitems : 1), sizeof *at);
    for (int i = 0; i < m->nitems; i++) {
        int n = 0;
        for (int j = 0; j < nmut; j++)
            n += muts[j].item == i;
        if (!n)
            continue;
        at[i] = mf_xmalloc(sizeof(int) * (size_t)(n + 1));
        n = 0;
        for (int j = 0; j < nmut; j++)
            if (muts[j].item == i)
                at[i][n++] = j;
        at[i][n] = -1;
    }
    return at;
}

mf_enc *mf_enc_new(Z3_context ctx, const mf_model *m, const mf_variant *muts,
                   int nmut, const mf_model *also, int encoding)
{
    mf_enc *E = mf_xcalloc(1, sizeof *E);
    static _Atomic long encoders;
    E->c = ctx;
    E->m = m;
    choose_sort(E, m, muts, nmut, also, encoding);
    /* The selector: a bit-vector too, so a bit-vector batch stays in
     * QF_BV (Z3's incremental SAT solver) */
    E->msort = E->bvw ? Z3_mk_bv_sort(ctx, (unsigned)bitlen(nmut) + 1)
                      : Z3_mk_int_sort(ctx);
    snprintf(E->pfx, sizeof E->pfx, "e%ld", encoders++);
    E->nmut = nmut;
    E->muts = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *E->muts);
    if (nmut)
        memcpy(E->muts, muts, sizeof *E->muts * (size_t)nmut);
    E->keep = Z3_mk_ast_vector(ctx);
    Z3_ast_vector_inc_ref(ctx, E->keep);
    E->bsort = Z3_mk_bool_sort(ctx);
    E->tru = K(Z3_mk_true(ctx));
    E->fls = K(Z3_mk_false(ctx));
    E->mid = K(Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, E->pfx), E->msort));
    E->sel = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *E->sel);
    for (int j = 0; j < nmut; j++) {
        char name[32];
        snprintf(name, sizeof name, "%ssel!%d", E->pfx, j);
        E->sel[j] =
            K(Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, name), E->bsort));
    }
    E->at = replacing(m, muts, nmut);
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].is_observable)
            E->nobs += m->vars[i].nslots;
    E->nobs += m->nobs_defines;
    E->dcache = mf_xcalloc((size_t)(2 * m->nitems + 2), sizeof *E->dcache);
    E->dstamp = mf_xcalloc((size_t)(2 * m->nitems + 2), sizeof *E->dstamp);
    return E;
}

void mf_enc_free(mf_enc *E)
{
    if (!E)
        return;
    for (int i = 0; i < E->m->nitems; i++)
        free(E->at[i]);
    free(E->at);
    free(E->sel);
    free(E->muts);
    free(E->dcache);
    free(E->dstamp);
    Z3_ast_vector_dec_ref(E->c, E->keep);
    free(E);
}

Z3_ast mf_enc_sel(mf_enc *E, int j)
{
    return E->sel[j];
}

void mf_enc_assert_sels(mf_enc *E, Z3_solver s)
{
    for (int j = 0; j < E->nmut; j++)
        Z3_solver_assert(E->c, s,
                         K(Z3_mk_implies(E->c, E->sel[j], selected(E, j))));
}

int mf_enc_nobs(const mf_enc *E)
{
    return E->nobs;
}

/* ------------------------------------------------------------------ */
/* Terms shared by the engines (encode.h)                               */

Z3_ast mf_enc_and(mf_enc *E, int n, Z3_ast *a)
{
    Z3_context c = mf_enc_ctx(E);
    if (n == 0)
        return mf_enc_keep(E, Z3_mk_true(c));
    if (n == 1)
        return a[0];
    return mf_enc_keep(E, Z3_mk_and(c, (unsigned)n, a));
}

Z3_ast mf_enc_not(mf_enc *E, Z3_ast a)
{
    return mf_enc_keep(E, Z3_mk_not(mf_enc_ctx(E), a));
}

Z3_ast mf_enc_eq(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return mf_enc_keep(E, Z3_mk_eq(mf_enc_ctx(E), a, b));
}

Z3_ast mf_enc_obs_eq(mf_enc *E, Z3_ast *a, Z3_ast *b)
{
    int n = mf_enc_nobs(E);
    Z3_ast *x = mf_xcalloc((size_t)(n ? n : 1), sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = mf_enc_eq(E, a[i], b[i]);
    Z3_ast r = mf_enc_and(E, n, x);
    free(x);
    return r;
}

Z3_ast *mf_enc_fresh_state(mf_enc *E, const char *tag)
{
    int n = E->m->nslots;
    Z3_ast *st = mf_xcalloc((size_t)(n ? n : 1), sizeof *st);
    E->fresh++;
    for (int s = 0; s < n; s++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s%ld_s%d", E->pfx, tag, E->fresh, s);
        st[s] = K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name), E->isort));
    }
    return st;
}
