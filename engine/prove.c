/* prove.c - the proof portfolio for one mutant (prove.h): lock-step from
 * the initial states and a step from the reachable states, then
 * k-induction with simple paths. It finds no test. */
#include "prove.h"

#include <stdlib.h>

#include "lockstep.h"
#include "refusal.h"
#include "z3util.h"

/* Proof method 3: k-induction with simple-path constraints on the product
 * of original and mutant (both deterministic), property "the mutant
 * accepts where the original does and shows the same observables". Base:
 * the batch's search found no kill up to the bound, so k runs up to it.
 * Step k: from arbitrary states (s0, t0) (domains, state invariants), k
 * steps on which both accept and agree, the k+1 product states pairwise
 * distinct (every cell), then a step the original accepts and the mutant
 * refuses or shows other observables: unsatisfiable proves equivalence
 * at every length. With simple paths it is complete once k passes the
 * product's longest loop-free path. 1 proved (k in *kout), 0 not within
 * the bound, -1 unknown. */
static int kinduction(mf_batch *B, int j, int *kout, char *why, size_t whyn)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_model *m = B->m;
    int n = m->nslots, res = 0;
    Z3_solver S = mf_z3_solver(c, B->o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, S, "ki");
    Z3_ast *s0 = mf_enc_fresh_state(E, "kso");
    Z3_ast *t0 = mf_enc_fresh_state(EM, "ksm");
    mf_unroll *O = mf_unroll_new(E, S, "ko", 0, in, 0, s0);
    mf_unroll *M = mf_unroll_new(EM, S, "km", B->meta, in, 0, t0);
    if (B->meta)
        mf_enc_assert_sels(EM, S);
    Z3_ast as[2];
    int na = mf_batch_assume(B, j, as);
    for (int k = 0; k <= B->mu[j].v->bound; k++) {
        mf_unroll_extend(O, k + 1);
        mf_unroll_extend(M, k + 1);
        /* state k is on the path: both accept, same observables, and it
         * differs from every earlier product state */
        Z3_ast on[3] = {
            mf_unroll_ok(O, k), mf_unroll_ok(M, k),
            mf_enc_obs_eq(E, mf_unroll_obs(O, k), mf_unroll_obs(M, k))};
        Z3_solver_assert(c, S, mf_enc_and(E, 3, on));
        Z3_ast *ok_ = mf_unroll_state(O, k), *mk = mf_unroll_state(M, k);
        for (int a = 0; a < k; a++) {
            Z3_ast *oa = mf_unroll_state(O, a), *ma = mf_unroll_state(M, a);
            Z3_ast *eq = mf_xcalloc((size_t)(2 * n + 1), sizeof *eq);
            int ne = 0;
            for (int sl = 0; sl < n; sl++) {
                eq[ne++] = mf_enc_eq(E, ok_[sl], oa[sl]);
                eq[ne++] = mf_enc_eq(E, mk[sl], ma[sl]);
            }
            Z3_solver_assert(c, S, mf_enc_not(E, mf_enc_and(E, ne, eq)));
            free(eq);
        }
        Z3_ast bad[2] = {
            mf_unroll_ok(M, k + 1),
            mf_enc_obs_eq(E, mf_unroll_obs(O, k + 1), mf_unroll_obs(M, k + 1))};
        Z3_ast g = mf_z3_lit(E, "kg");
        Z3_ast step[2] = {mf_unroll_ok(O, k + 1),
                          mf_enc_not(E, mf_enc_and(E, 2, bad))};
        mf_z3_implies(E, S, g, mf_enc_and(E, 2, step));
        as[na] = g;
        Z3_lbool r = mf_z3_check(c, S, na + 1, as, why, whyn);
        if (r == Z3_L_FALSE) {
            *kout = k;
            res = 1;
            break;
        }
        if (r == Z3_L_UNDEF) {
            res = -1;
            break;
        }
        Z3_solver_assert(c, S, mf_enc_not(E, g));
    }
    mf_unroll_free(O);
    mf_unroll_free(M);
    mf_inputs_free(in);
    free(s0);
    free(t0);
    mf_z3_solver_free(c, S);
    return res;
}

void mf_prove(mf_batch *B, int j, int det)
{
    char why[256] = "";
    mf_reach *rs = B->rs;
    if (!mf_batch_may_be_equivalent(B, j))
        return;
    /* The step from the original's reachable states when they are known (a
     * step from any state fails wherever an unreachable state tells them
     * apart, and costs as much), else from any state. */
    int base =
        B->mu[j].lsdone ? 0 : mf_lock_step(B, j, 0, NULL, why, sizeof why);
    if (base == 1 && !rs->done)
        mf_reach_compute(B->m, rs);
    if (base == 1) {
        int *one = mf_xcalloc((size_t)B->nmut, sizeof *one);
        one[j] = 1;
        mf_refusal_tried(B, one);
        free(one);
    }
    int st = base != 1 ? 0
             : mf_lock_same_step(B, j, rs)
                 ? 1
                 : mf_lock_step(B, j, 1, rs->ok ? rs : NULL, why, sizeof why);
    if (st == 1) {
        mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL, "%s",
                        mf_lock_method(rs));
        return;
    }
    int k;
    if (det && kinduction(B, j, &k, why, sizeof why) == 1)
        mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL,
                        "k-induction with simple paths (k = %d)", k);
}
