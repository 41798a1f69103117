/* refusal.c - potential kills by a refusal and the simulator's filter of
 * the mutants that can refuse (refusal.h). The refusal search runs in a
 * solver of its own, built for its length: in the synthesis solver, which
 * holds every length's copies, each candidate's model cost more than its
 * query (docs/killing.md). It searches no difference of observables: the
 * potential search (potential.c) does. */
#include "refusal.h"

#include <stdlib.h>
#include <string.h>

#include "copies.h"
#include "reach.h"
#include "z3util.h"

/* 1 if j needs no refusal search past length 0: the explorer found its
 * shortest potential kill and that kill is a difference of observables.
 * No kill of j is shorter, and at that length the search for differences
 * finds one. */
static int xno_refusal(const mf_batch *B, int j)
{
    return B->mu[j].xlen >= 0 && !B->mu[j].xref;
}

/* Mutant q refuses input inp at step d of the candidate mdl, after M's
 * observables through d-1: does an original behaviour with those
 * observables refuse it too? The verifier ver (its copy P over the inputs
 * vin) lists such behaviours' states d-1, each tried by the simulator. 1
 * none refuses (a kill), 0 one does, -1 unknown. */
static int none_refuses(mf_batch *B, Z3_solver ver, mf_inputs *vin,
                        mf_inputs *in, mf_unroll *M, mf_unroll *P, Z3_model mdl,
                        const mf_val *inp, int d)
{
    Z3_context c = B->c;
    mf_enc *E = B->E;
    int n = B->m->nslots, no = mf_enc_nobs(E), res = 1;
    char why[256];
    Z3_solver_push(c, ver);
    mf_copy_fix_inputs(E, ver, vin, in, mdl, d);
    for (int k = 0; k < d; k++) {
        mf_val *vals = mf_z3_eval_state(E, mdl, mf_unroll_obs(M, k), no);
        Z3_solver_assert(c, ver, mf_z3_obs_is(E, mf_unroll_obs(P, k), vals));
        free(vals);
    }
    if (d)
        Z3_solver_assert(c, ver, mf_enc_all_ok(E, P, 0, d - 1));
    for (int it = 0; it < 1000; it++) {
        Z3_lbool r = mf_z3_check(c, ver, 0, NULL, why, sizeof why);
        if (r == Z3_L_UNDEF) {
            res = -1;
            break;
        }
        if (r == Z3_L_FALSE)
            break;
        Z3_model vm = mf_z3_model(c, ver);
        mf_val *ps =
            d ? mf_z3_eval_state(E, vm, mf_unroll_state(P, d - 1), n) : NULL;
        int ref = mf_reach_refuses(B->m, ps, inp);
        if (ref != 0) {
            res = 0; /* an original behaviour refuses too */
            free(ps);
            mf_z3_model_free(c, vm);
            break;
        }
        if (!d) { /* the one empty prefix accepts: a kill */
            free(ps);
            mf_z3_model_free(c, vm);
            break;
        }
        Z3_solver_assert(
            c, ver,
            mf_enc_not(E, mf_z3_state_is(E, mf_unroll_state(P, d - 1), ps, n)));
        free(ps);
        mf_z3_model_free(c, vm);
    }
    Z3_solver_pop(c, ver, 1);
    return res;
}

/* mf_refusal_search in the synthesis solver syn (inputs in, copies O and
 * M extended to d). */
static int refusal_loop(mf_batch *B, int *live, Z3_solver syn, Z3_solver ver,
                        mf_inputs *in, mf_inputs *vin, mf_unroll *O,
                        mf_unroll *M, mf_unroll *P, mf_stepper *acc, int d)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    int n = B->m->nslots;
    int iters = 0, killed = 0;
    Z3_ast gr = mf_z3_lit(E, "pr");
    Z3_ast parts[3] = {
        d ? mf_enc_all_ok(EM, M, 0, d - 1) : mf_enc_keep(E, Z3_mk_true(c)),
        mf_enc_not(E, mf_unroll_ok(M, d)),
        d ? mf_enc_all_obs_eq(E, O, M, d - 1) : mf_enc_keep(E, Z3_mk_true(c))};
    mf_z3_implies(E, syn, gr, mf_enc_and(E, 3, parts));
    /* Observables fixing the state: the one original state with the
     * mutant's observables must accept input d (a step from it with free
     * choices), else no refusal there kills. */
    if (B->lib && d) {
        mf_unroll *u =
            mf_unroll_new(E, syn, "pa", 0, in, 0, mf_unroll_state(M, d - 1));
        mf_unroll_shift_inputs(u, d - 1);
        MF_VEC_PUSH(acc->cps, u);
        mf_z3_implies(E, syn, gr, mf_unroll_ok(u, 1));
    }
    /* No state where a learnt step of a mutant accepts refuses. */
    mf_stepper_block_accepting(acc, syn, in, M, d, 0, gr);
    Z3_ast pick = mf_batch_pick(B, syn, live);
    for (;;) {
        if (++iters > B->o->cegis_max / 4)
            return -2;
        Z3_ast as[2];
        int na = 0;
        if (pick)
            as[na++] = pick;
        as[na++] = gr;
        char why[256];
        Z3_lbool r = mf_z3_check(c, syn, na, as, why, sizeof why);
        if (r != Z3_L_TRUE)
            return r == Z3_L_FALSE ? killed : -1;
        Z3_model mdl = mf_z3_model(c, syn);
        int q = mf_batch_picked(B, mdl, live);
        if (q < 0) {
            mf_z3_model_free(c, mdl);
            return -1;
        }
        mf_val *inp = mf_z3_eval_state(E, mdl, mf_inputs_state(in, d), n);
        for (int s = 0; s < n; s++)
            if (!mf_inputs_state(in, d)[s])
                inp[s] = 0;
        mf_val *ms =
            d ? mf_z3_eval_state(E, mdl, mf_unroll_state(M, d - 1), n) : NULL;
        Z3_ast *ic = mf_inputs_state(in, d);
        MF_VEC(Z3_ast) pt = {0};
        for (int s = 0; s < n; s++)
            if (ic[s])
                MF_VEC_PUSH(pt, mf_enc_eq(E, ic[s], mf_enc_val(E, inp[s])));
        if (d)
            MF_VEC_PUSH(pt,
                        mf_z3_state_is(E, mf_unroll_state(M, d - 1), ms, n));
        Z3_ast point = mf_enc_and(E, pt.n, pt.v);
        MF_VEC_FREE(pt);
        int res = 0;
        int refuses = mf_reach_refuses(B->mu[q].model, ms, inp);
        if (refuses == 1)
            res = none_refuses(B, ver, vin, in, M, P, mdl, inp, d);
        if (res == 1) {
            mf_test *t = mf_z3_test(E, mdl, in, O, M, d);
            t->mrefuses = d;
            B->mu[q].killed_at = d;
            mf_batch_kill(B, q, t, MF_N_POTENTIAL);
            mf_batch_spread(B, live, q, d);
            killed = 1;
        } else if (res == 0) {
            /* The mutant accepts here: learn the step that does, which
             * blocks every state it serves; else this state alone (for q
             * alone). */
            int before = mf_steplib_rows(acc->L, d > 0);
            Z3_ast sa[1];
            int ns = mf_batch_assume(B, q, sa);
            if (!refuses &&
                mf_stepper_find(acc, mdl, in, M, d, NULL, ns, sa, why,
                                sizeof why) == Z3_L_TRUE &&
                mf_steplib_rows(acc->L, d > 0) > before)
                mf_stepper_block_accepting(acc, syn, in, M, d, before, gr);
            else
                mf_z3_implies(
                    E, syn, gr,
                    ns ? mf_enc_keep(
                             E, Z3_mk_implies(c, sa[0], mf_enc_not(E, point)))
                       : mf_enc_not(E, point));
        }
        free(inp);
        free(ms);
        mf_z3_model_free(c, mdl);
        if (res < 0)
            return res;
        if (res == 1) {
            if (!mf_batch_nmarked(B, live))
                return 1;
            pick = mf_batch_pick(B, syn, live);
        }
    }
}

int mf_refusal_search(mf_batch *B, int *live, Z3_solver ver, mf_inputs *vin,
                      mf_unroll *P, mf_stepper *acc, int d)
{
    mf_batch_pair x;
    mf_batch_pair_open(&x, B, B->E, B->EM, B->meta, 1, "r");
    mf_unroll_extend(x.o, d);
    mf_unroll_extend(x.m, d);
    int r = refusal_loop(B, live, x.s, ver, x.in, vin, x.o, x.m, P, acc, d);
    mf_batch_pair_close(&x, B);
    return r;
}

/* Points (reachable states times inputs) the filter tries at most. A
 * mutant the explorer showed killed first by a difference (xno_refusal) is
 * not stepped but cleared (its refcap stays untried). Only where the
 * stepping is within the tries: past them every mutant keeps its refusal
 * search, which finds many kills of the explorer's length sooner than the
 * search for differences does (docs/killing.md, Equivalence proofs 4). */
#define REFUSAL_TRIES 10000L
void mf_refusal_capable(mf_batch *B, int *mark)
{
    const mf_model *m = B->m;
    mf_reach *rs = B->rs;
    int n = m->nslots, left = mf_batch_nmarked(B, mark);
    if (!left)
        return;
    mf_reach_dom D;
    mf_reach_dom_open(&D, m, 1);
    if (!rs->done && D.combos <= MF_REACH_INPUT_COMBOS) {
        /* As many states as the tries allow: complete, they are the
         * batch's reachable states (the proofs' too); else none. */
        mf_reach t;
        mf_reach_upto(m, &t, (int)(REFUSAL_TRIES / D.combos));
        if (t.ok) {
            t.done = 1;
            *rs = t;
        } else
            MF_VEC_FREE(t.st);
    }
    long cnt = rs->done && rs->ok ? (long)(rs->st.n / (n ? n : 1)) : 0;
    if (cnt && D.combos <= MF_REACH_INPUT_COMBOS &&
        cnt * D.combos <= REFUSAL_TRIES) {
        for (int j = 0; j < B->nmut; j++)
            if (mark[j] && xno_refusal(B, j)) {
                mark[j] = 0;
                left--;
            }
        int *found = mf_xcalloc((size_t)B->nmut, sizeof *found);
        mf_val *inp = mf_xcalloc((size_t)(n ? n : 1), sizeof *inp);
        for (long i = 0; i < cnt && left; i++) {
            const mf_val *cur = rs->st.v + (size_t)i * n;
            for (long cb = 0; cb < D.combos && left; cb++) {
                mf_reach_dom_set(&D, cb, inp);
                int o = mf_reach_has_successor(m, cur, inp);
                for (int j = 0; j < B->nmut && o != 0; j++) {
                    if (!mark[j] || found[j])
                        continue;
                    if (o < 0 ||
                        mf_reach_has_successor(B->mu[j].model, cur, inp) != 1) {
                        found[j] = 1; /* refuses there, or cannot tell */
                        left--;
                    }
                }
            }
        }
        /* Past every state and input without a refusal: cleared. */
        for (int j = 0; j < B->nmut; j++) {
            if (mark[j])
                B->mu[j].refcap = found[j] ? MF_REF_MAY : MF_REF_NEVER;
            mark[j] = mark[j] && found[j];
        }
        free(found);
        free(inp);
    }
    mf_reach_dom_free(&D);
}

void mf_refusal_tried(mf_batch *B, const int *mark)
{
    int *m = mf_xcalloc((size_t)B->nmut, sizeof *m);
    for (int j = 0; j < B->nmut; j++)
        m[j] = mark[j] && B->mu[j].refcap == MF_REF_UNTRIED;
    mf_refusal_capable(B, m);
    free(m);
}
