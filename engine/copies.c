/* copies.c - copies of the unrolling with fixed choices (copies.h): the
 * blocking copies of the potential and definite refinements, and the
 * helpers that fix a copy's inputs and choices to a model's values. It
 * runs no solver check: the searches that use it do (potential.c,
 * definite.c, lockstep.c). */
#include "copies.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "z3util.h"

void mf_copy_fix_inputs(mf_enc *E, Z3_solver s, mf_inputs *to, mf_inputs *from,
                        Z3_model mdl, int d)
{
    const mf_model *m = NULL;
    m = mf_enc_model(E);
    for (int k = 0; k <= d; k++) {
        Z3_ast *a = mf_inputs_state(to, k), *b = mf_inputs_state(from, k);
        for (int sl = 0; sl < m->nslots; sl++)
            if (a[sl] && b[sl] && a[sl] != b[sl])
                Z3_solver_assert(
                    mf_enc_ctx(E), s,
                    mf_enc_eq(E, a[sl],
                              mf_enc_val(E, mf_enc_eval(E, mdl, b[sl]))));
    }
}

Z3_ast mf_copy_uniform(mf_enc *E, mf_unroll *u, int d)
{
    MF_VEC(Z3_ast) x = {0};
    int n1;
    Z3_ast *c1 = d >= 1 ? mf_unroll_choices(u, 1, &n1) : NULL;
    for (int k = 2; k <= d; k++) {
        int nk;
        Z3_ast *ck = mf_unroll_choices(u, k, &nk);
        for (int i = 0; i < nk && i < n1; i++)
            MF_VEC_PUSH(x, mf_enc_eq(E, ck[i], c1[i]));
    }
    Z3_ast r = mf_enc_and(E, x.n, x.v);
    MF_VEC_FREE(x);
    return r;
}

void mf_copy_choices(mf_enc *E, Z3_model mdl, mf_unroll *u, int k,
                     mf_valset *out)
{
    int n;
    Z3_ast *a = mf_unroll_choices(u, k, &n);
    for (int i = 0; i < n; i++)
        MF_VEC_PUSH(*out, mf_enc_eval(E, mdl, a[i]));
}

/* A choice of a copy that is not fixed to a value: bound instead to the
 * value the synthesis solver's mutant shows (mf_copies.bind). */
#define CHOICE_BOUND INT64_MIN

/* Index of cell sl among the observables, -1 if it is not observable. */
static int obs_index(const mf_model *m, int sl)
{
    int n = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!v->is_observable)
            continue;
        if (sl >= v->slot && sl < v->slot + v->nslots)
            return n + sl - v->slot;
        n += v->nslots;
    }
    return -1;
}

/* Fix the choices of state k of copy x to v[0..nv); a CHOICE_BOUND one to
 * the observable of `to` (state k) it is the value of. */
static void fix_step_to(mf_enc *E, Z3_solver s, mf_unroll *x, int k,
                        const mf_val *v, int nv, mf_unroll *to)
{
    int n;
    Z3_ast *a = mf_unroll_choices(x, k, &n);
    const int *cs = to ? mf_unroll_choice_slots(x, k) : NULL;
    for (int i = 0; i < n && i < nv; i++) {
        Z3_ast val;
        if (v[i] == CHOICE_BOUND)
            val = mf_unroll_obs(to, k)[obs_index(mf_enc_model(E), cs[i])];
        else
            val = mf_enc_val(E, v[i]);
        Z3_solver_assert(mf_enc_ctx(E), s, mf_enc_eq(E, a[i], val));
    }
}

static void fix_step(mf_enc *E, Z3_solver s, mf_unroll *x, int k,
                     const mf_val *v, int nv)
{
    fix_step_to(E, s, x, k, v, nv, NULL);
}

void mf_copy_fix_choices(mf_enc *E, Z3_solver s, mf_unroll *x, mf_unroll *from,
                         Z3_model mdl, int d)
{
    for (int k = 0; k <= d; k++) {
        mf_valset v = {0};
        mf_copy_choices(E, mdl, from, k, &v);
        fix_step(E, s, x, k, v.v, v.n);
        MF_VEC_FREE(v);
    }
}

/* The copy (entry) for the behaviour in vm at length d, built or extended. */
static mf_copy *copies_add(mf_copies *P, Z3_solver syn, mf_inputs *in,
                           Z3_model vm, int d)
{
    mf_valset v = {0};
    MF_VEC(int) at = {0}; /* start of each (step, copy) in v */
    for (int k = 0; k <= d; k++) {
        for (int c = 0; c < P->n; c++) {
            MF_VEC_PUSH(at, (int)v.n);
            mf_copy_choices(P->enc[c], vm, P->from[c], k, &v);
            if (!P->bind)
                continue;
            /* A choice that is an observable cell's new value is bound to
             * the mutant's (mf_copies.bind). */
            const int *cs = mf_unroll_choice_slots(P->from[c], k);
            const mf_model *m = mf_enc_model(P->enc[c]);
            for (int i = at.v[at.n - 1]; i < (int)v.n; i++) {
                int sl = cs[i - at.v[at.n - 1]];
                if (sl >= 0 && obs_index(m, sl) >= 0)
                    v.v[i] = CHOICE_BOUND;
            }
        }
    }
    MF_VEC_PUSH(at, (int)v.n);
    mf_copy *b = NULL;
    for (int i = 0; i < P->v.n; i++) {
        mf_copy *x = &P->v.v[i];
        if (x->depth >= d)
            continue;
        int npre = at.v[(x->depth + 1) * P->n];
        if ((int)x->ch.n == npre &&
            (!npre || !memcmp(x->ch.v, v.v, sizeof *v.v * (size_t)npre))) {
            b = x;
            break;
        }
    }
    int from = b ? b->depth + 1 : 0;
    if (!b) {
        mf_copy nb = {{NULL, NULL}, 0, {0}};
        for (int c = 0; c < P->n; c++)
            nb.u[c] = mf_unroll_new(P->enc[c], syn, P->tag[c], P->meta[c], in,
                                    0, NULL);
        MF_VEC_PUSH(P->v, nb);
        b = &P->v.v[P->v.n - 1];
    }
    for (int c = 0; c < P->n; c++) {
        mf_unroll_extend(b->u[c], d);
        for (int k = from; k <= d; k++)
            fix_step_to(P->enc[c], syn, b->u[c], k, v.v + at.v[k * P->n + c],
                        at.v[k * P->n + c + 1] - at.v[k * P->n + c], P->bind);
    }
    b->depth = d;
    MF_VEC_FREE(b->ch);
    b->ch = v;
    MF_VEC_FREE(at);
    return b;
}

/* "Copy b behaves like `other`" up to length d: with other NULL (pairs),
 * copy 0 and copy 1 accept and show the same observables. */
static Z3_ast copy_match(mf_copies *P, const mf_copy *b, mf_unroll *other,
                         int d)
{
    mf_enc *E = P->enc[0];
    Z3_ast x[3];
    int n = 0;
    x[n++] = mf_enc_all_ok(E, b->u[0], 0, d);
    if (P->n == 2)
        x[n++] = mf_enc_all_ok(P->enc[1], b->u[1], 0, d);
    x[n++] = mf_enc_all_obs_eq(E, b->u[0], P->n == 2 ? b->u[1] : other, d);
    return mf_enc_and(E, n, x);
}

int mf_copies_found(mf_copies *P, Z3_solver syn, Z3_solver ver, mf_inputs *in,
                    mf_unroll *other, Z3_ast g, int d, Z3_model mdl)
{
    mf_enc *E = P->enc[0];
    Z3_context c = mf_enc_ctx(E);
    Z3_model vm = mf_z3_model(c, ver);
    mf_copy *b = copies_add(P, syn, in, vm, d);
    mf_z3_implies(E, syn, g, mf_enc_not(E, copy_match(P, b, other, d)));
    mf_z3_model_free(c, vm);
    Z3_solver_pop(c, ver, 1);
    mf_z3_model_free(c, mdl);
    return (int)(b - P->v.v);
}

void mf_copy_refuted(mf_enc *E, Z3_solver syn, int n, Z3_ast *match,
                     Z3_ast cond, int na, Z3_ast *as)
{
    Z3_context c = mf_enc_ctx(E);
    Z3_ast l =
        mf_enc_keep(E, n ? Z3_mk_or(c, (unsigned)n, match) : Z3_mk_false(c));
    if (cond)
        l = mf_enc_keep(E, Z3_mk_implies(c, cond, l));
    if (na)
        mf_z3_implies(E, syn, mf_enc_and(E, na, as), l);
    else
        Z3_solver_assert(c, syn, l);
}

void mf_copies_lemma(mf_copies *P, Z3_solver syn, mf_unroll *other, int d,
                     Z3_ast cond, int na, Z3_ast *as)
{
    MF_VEC(Z3_ast) any = {0};
    for (int i = 0; i < P->v.n; i++)
        if (P->v.v[i].depth >= d)
            MF_VEC_PUSH(any, copy_match(P, &P->v.v[i], other, d));
    mf_copy_refuted(P->enc[0], syn, any.n, any.v, cond, na, as);
    MF_VEC_FREE(any);
}

void mf_copies_free(mf_copies *P)
{
    for (int i = 0; i < P->v.n; i++) {
        for (int c = 0; c < P->n; c++)
            mf_unroll_free(P->v.v[i].u[c]);
        MF_VEC_FREE(P->v.v[i].ch);
    }
    MF_VEC_FREE(P->v);
}

/* Values of copy b's choices at step k, copy c (the last step's past its
 * depth); their number in *nv. NULL if the layout does not allow it. */
static const mf_val *copy_step(const mf_copies *P, const mf_copy *b, int k,
                               int c, int *nv)
{
    int at = 0, ks = k < b->depth ? k : b->depth;
    for (int s = 0; s <= ks; s++)
        for (int x = 0; x < P->n; x++) {
            int n;
            mf_unroll_choices(b->u[x], s, &n);
            if (s == ks && x == c) {
                *nv = n;
                return at + n <= (int)b->ch.n ? b->ch.v + at : NULL;
            }
            at += n;
        }
    return NULL;
}

void mf_copies_repeat(mf_copies *P, Z3_solver s, mf_unroll *const *u,
                      const mf_copy *b, int from, int d)
{
    for (int c = 0; c < P->n; c++) {
        mf_unroll_extend(u[c], d);
        for (int k = from; k <= d; k++) {
            int nv = 0, n;
            const mf_val *v = copy_step(P, b, k, c, &nv);
            mf_unroll_choices(u[c], k, &n);
            if (v && n == nv)
                fix_step(P->enc[c], s, u[c], k, v, nv);
        }
    }
}

void mf_copies_extend(mf_copies *P, mf_copy *b, int d)
{
    mf_valset last = {0};
    for (int c = 0; c < P->n; c++) {
        int nv = 0;
        const mf_val *v = copy_step(P, b, b->depth, c, &nv);
        for (int i = 0; v && i < nv; i++)
            MF_VEC_PUSH(last, v[i]);
    }
    for (int k = b->depth + 1; k <= d; k++)
        for (int i = 0; i < last.n; i++)
            MF_VEC_PUSH(b->ch, last.v[i]);
    b->depth = d;
    MF_VEC_FREE(last);
}
