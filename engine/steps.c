/* steps.c - learnt steps (steps.h): the library of choice values, copies
 * of one step that block the steps learnt, and the verifier query that
 * learns a step (with its choices made canonical). It decides no mutant:
 * the potential and refusal searches do, with it. */
#include "steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copies.h"

int mf_steps_obs_fix_state(const mf_model *m)
{
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (v->decl != MF_DECL_IVAR && !v->is_input && !v->is_observable)
            return 0;
    }
    return 1;
}

void mf_steplib_init(mf_steplib *L)
{
    memset(L, 0, sizeof *L);
    L->w[0] = L->w[1] = -1;
}

void mf_steplib_free(mf_steplib *L)
{
    MF_VEC_FREE(L->v[0]);
    MF_VEC_FREE(L->v[1]);
}

int mf_steplib_rows(const mf_steplib *L, int x)
{
    if (L->w[x] < 0)
        return 0;
    return L->w[x] ? (int)(L->v[x].n / L->w[x]) : (L->v[x].n ? 1 : 0);
}

/* Adds a row if it is new. */
static void steplib_add(mf_steplib *L, int x, const mf_valset *row)
{
    if (L->w[x] < 0)
        L->w[x] = (int)row->n;
    if ((int)row->n != L->w[x])
        return;
    int n = mf_steplib_rows(L, x);
    if (!L->w[x]) {
        if (!n)
            MF_VEC_PUSH(L->v[x], 0); /* the one empty row */
        return;
    }
    for (int r = 0; r < n; r++)
        if (!memcmp(L->v[x].v + (size_t)r * L->w[x], row->v,
                    sizeof *row->v * (size_t)L->w[x]))
            return;
    for (int i = 0; i < L->w[x]; i++)
        MF_VEC_PUSH(L->v[x], row->v[i]);
}

void mf_stepper_open(mf_stepper *S, Z3_context c, mf_enc *E, int meta,
                     mf_steplib *L, Z3_solver ver, const char *tag)
{
    char t[16];
    memset(S, 0, sizeof *S);
    S->c = c;
    S->E = E;
    S->meta = meta;
    S->L = L;
    S->ver = ver;
    snprintf(t, sizeof t, "%si", tag);
    S->qin = mf_inputs_new(E, ver, t);
    snprintf(t, sizeof t, "%ss", tag);
    S->q0 = mf_enc_fresh_state(E, t);
    snprintf(t, sizeof t, "%s0", tag);
    S->Q0 = mf_unroll_new(E, ver, t, meta, S->qin, 0, NULL);
    S->Q = mf_unroll_new(E, ver, tag, meta, S->qin, 0, S->q0);
    mf_unroll_extend(S->Q0, 0);
    mf_unroll_extend(S->Q, 1);
}

void mf_stepper_close(mf_stepper *S)
{
    for (int i = 0; i < S->cps.n; i++)
        mf_unroll_free(S->cps.v[i]);
    MF_VEC_FREE(S->cps);
    mf_unroll_free(S->Q0);
    mf_unroll_free(S->Q);
    mf_inputs_free(S->qin);
    free(S->q0);
}

/* In syn, step d (an initial state for d = 0, else a step from M's state
 * d-1 under the inputs of state d) with its choices fixed to row r of the
 * library. *k: the copy's state that is the step's. */
static mf_unroll *step_copy(mf_stepper *S, Z3_solver syn, mf_inputs *in,
                            mf_unroll *M, int d, int r, int *k)
{
    mf_steplib *L = S->L;
    int x = d > 0;
    mf_unroll *u = mf_unroll_new(S->E, syn, "ps", S->meta, in, 0,
                                 d ? mf_unroll_state(M, d - 1) : NULL);
    if (d)
        mf_unroll_shift_inputs(u, d - 1);
    *k = x;
    mf_unroll_extend(u, x);
    int nch;
    Z3_ast *ch = mf_unroll_choices(u, x, &nch);
    const int *cs = mf_unroll_choice_slots(u, x);
    Z3_ast *to = mf_unroll_state(M, d);
    const mf_val *row = L->v[x].v + (size_t)r * (L->w[x] > 0 ? L->w[x] : 0);
    for (int i = 0; i < nch && i < L->w[x]; i++)
        Z3_solver_assert(
            mf_enc_ctx(S->E), syn,
            cs[i] >= 0 && S->bind
                ? mf_enc_eq(S->E, ch[i], to[cs[i]])
                : mf_enc_eq(S->E, ch[i], mf_enc_val(S->E, row[i])));
    MF_VEC_PUSH(S->cps, u);
    return u;
}

/* "M's state d is the state of copy r's step" (the original's steps). */
static Z3_ast step_match(mf_stepper *S, Z3_solver syn, mf_inputs *in,
                         mf_unroll *M, int d, int r)
{
    int k;
    mf_unroll *u = step_copy(S, syn, in, M, d, r, &k);
    Z3_ast m[2] = {mf_unroll_ok(u, k), mf_enc_obs_eq(S->E, mf_unroll_obs(u, k),
                                                     mf_unroll_obs(M, d))};
    return mf_enc_and(S->E, 2, m);
}

void mf_stepper_block(mf_stepper *S, Z3_solver syn, mf_inputs *in, mf_unroll *M,
                      int d, int from, Z3_ast g, mf_astvec *steps)
{
    for (int r = from; r < mf_steplib_rows(S->L, d > 0); r++) {
        Z3_ast x = step_match(S, syn, in, M, d, r);
        MF_VEC_PUSH(*steps, x);
        mf_z3_implies(S->E, syn, g, mf_enc_not(S->E, x));
    }
}

void mf_stepper_block_accepting(mf_stepper *S, Z3_solver syn, mf_inputs *in,
                                mf_unroll *M, int d, int from, Z3_ast gr)
{
    for (int r = from, k; r < mf_steplib_rows(S->L, d > 0); r++) {
        mf_unroll *u = step_copy(S, syn, in, M, d, r, &k);
        mf_z3_implies(S->E, syn, gr, mf_enc_not(S->E, mf_unroll_ok(u, k)));
    }
}

/* After a satisfiable step query in the verifier: a model whose choices
 * agree with the library's first row wherever the step allows (the
 * choices this step does not depend on keep one value, so steps that
 * differ only there give one row, not many); found by dropping the
 * disagreeing choices named in unsat cores, a few rounds at most, else the
 * model at hand. */
static Z3_model canonical_step(mf_stepper *S, mf_unroll *V, int k, int na,
                               Z3_ast *as, char *why, size_t whyn)
{
    Z3_context c = S->c;
    mf_enc *E = S->E;
    mf_steplib *L = S->L;
    int nch;
    Z3_ast *ch = mf_unroll_choices(V, k, &nch);
    if (nch <= 0 || L->w[k] != nch || !mf_steplib_rows(L, k))
        return mf_z3_model(c, S->ver);
    Z3_ast *lits = mf_xcalloc((size_t)(na + nch), sizeof *lits);
    int *live = mf_xcalloc((size_t)nch, sizeof *live);
    for (int i = 0; i < na; i++)
        lits[i] = as[i];
    const int *cs = mf_unroll_choice_slots(V, k);
    for (int i = 0; i < nch; i++) {
        live[i] = !(S->bind && cs[i] >= 0);
        Z3_ast l = mf_z3_lit(E, "pk");
        mf_z3_implies(E, S->ver, l,
                      mf_enc_eq(E, ch[i], mf_enc_val(E, L->v[k].v[i])));
        lits[na + i] = l;
    }
    Z3_model mdl = NULL;
    Z3_ast *sel = mf_xcalloc((size_t)(na + nch), sizeof *sel);
    memcpy(sel, lits, sizeof *sel * (size_t)na);
    for (int round = 0; round < 4 && !mdl; round++) {
        int n = na;
        for (int i = 0; i < nch; i++)
            if (live[i])
                sel[n++] = lits[na + i];
        Z3_lbool r = mf_z3_check(c, S->ver, n, sel, why, whyn);
        if (r == Z3_L_TRUE) {
            mdl = mf_z3_model(c, S->ver);
            break;
        }
        if (r != Z3_L_FALSE)
            break;
        Z3_ast_vector core = Z3_solver_get_unsat_core(c, S->ver);
        Z3_ast_vector_inc_ref(c, core);
        int dropped = 0;
        for (unsigned q = 0; q < Z3_ast_vector_size(c, core); q++) {
            Z3_ast a = Z3_ast_vector_get(c, core, q);
            for (int i = 0; i < nch; i++)
                if (live[i] && Z3_is_eq_ast(c, a, lits[na + i])) {
                    live[i] = 0;
                    dropped++;
                }
        }
        Z3_ast_vector_dec_ref(c, core);
        if (!dropped)
            break;
    }
    free(sel);
    free(lits);
    free(live);
    if (!mdl) { /* the first model again */
        char w2[64];
        if (mf_z3_check(c, S->ver, na, as, w2, sizeof w2) == Z3_L_TRUE)
            mdl = mf_z3_model(c, S->ver);
    }
    return mdl;
}

Z3_lbool mf_stepper_find(mf_stepper *S, Z3_model mdl, mf_inputs *in,
                         mf_unroll *M, int d, const mf_val *obs, int na,
                         Z3_ast *as, char *why, size_t whyn)
{
    Z3_context c = S->c;
    mf_enc *E = S->E;
    Z3_solver ver = S->ver;
    int n = mf_enc_model(E)->nslots;
    int k = d > 0;
    mf_unroll *V = d ? S->Q : S->Q0;
    Z3_solver_push(c, ver);
    if (d) {
        mf_val *st = mf_z3_eval_state(E, mdl, mf_unroll_state(M, d - 1), n);
        Z3_solver_assert(c, ver, mf_z3_state_is(E, S->q0, st, n));
        free(st);
    }
    Z3_ast *a = mf_inputs_state(S->qin, k), *b = mf_inputs_state(in, d);
    for (int sl = 0; sl < n; sl++)
        if (a[sl] && b[sl])
            Z3_solver_assert(
                c, ver,
                mf_enc_eq(E, a[sl], mf_enc_val(E, mf_enc_eval(E, mdl, b[sl]))));
    if (obs)
        Z3_solver_assert(c, ver, mf_z3_obs_is(E, mf_unroll_obs(V, k), obs));
    Z3_solver_assert(c, ver, mf_unroll_ok(V, k));
    Z3_lbool r = mf_z3_check(c, ver, na, as, why, whyn);
    if (r == Z3_L_TRUE) {
        Z3_model vm = canonical_step(S, V, k, na, as, why, whyn);
        if (vm) {
            mf_valset row = {0};
            mf_copy_choices(E, vm, V, k, &row);
            const int *cs = mf_unroll_choice_slots(V, k);
            for (int i = 0; i < (int)row.n && S->bind; i++)
                if (cs[i] >= 0)
                    row.v[i] = 0;
            steplib_add(S->L, k, &row);
            MF_VEC_FREE(row);
            mf_z3_model_free(c, vm);
        } else {
            snprintf(why, whyn, "learnt steps: the verifier lost its model");
            r = Z3_L_UNDEF;
        }
    }
    Z3_solver_pop(c, ver, 1);
    return r;
}
