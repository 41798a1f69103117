/* potential.c - potential killing by refinement (potential.h): one
 * mutant's search, and the joint search of a batch's mutants with learnt
 * steps. Refusals are searched by refusal.c, the copies and steps that
 * block behaviours are copies.c's and steps.c's; the definite upgrade of a
 * potential kill is definite.c's. */
#include "potential.h"

#include <stdlib.h>
#include <string.h>

#include "copies.h"
#include "lockstep.h"
#include "refusal.h"
#include "steps.h"
#include "z3util.h"

/* A potential kill at length d in the synthesis model mdl (consumed). */
static void pot_kill(mf_batch *B, int j, Z3_model mdl, mf_inputs *in,
                     mf_unroll *O, mf_unroll *M, int d)
{
    mf_test *t = mf_z3_test(B->E, mdl, in, O, M, d);
    mf_z3_model_free(B->c, mdl);
    B->mu[j].killed_at = d;
    mf_batch_kill(B, j, t, MF_N_POTENTIAL);
}

void mf_pot_search(mf_batch *B, int j)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    Z3_solver syn = mf_z3_solver(c, o, B->qfbv), ver = mf_z3_solver(c, o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, syn, "pi");
    mf_inputs *vin = mf_inputs_new(E, ver, "pv");
    mf_unroll *O = mf_unroll_new(E, syn, "po", 0, in, 1, NULL);
    mf_unroll *M = mf_unroll_new(EM, syn, "pm", B->meta, in, 0, NULL);
    mf_unroll *P = mf_unroll_new(E, ver, "pp", 0, vin, 0, NULL);
    if (B->meta)
        mf_enc_assert_sels(EM, syn);
    int iters = 0, giveup = 0, undecided = -1;
    mf_copies bp = {.n = 1, .from = {P, NULL}, .bind = M, .enc = {E, NULL},
                .meta = {0, 0}, .tag = {"pb", NULL}};
    /* Steps instead of traces where the observables fix the state (the
     * original's, shared by the batch); the mutant's accepting steps for
     * its refusals. */
    int stepmode = B->lib != NULL;
    mf_stepper os, ms;
    mf_steplib mlib = MF_STEPLIB_INIT;
    if (stepmode) {
        mf_stepper_open(&os, B->c, E, 0, B->lib, ver, "pq");
        os.bind = 1;
    }
    mf_stepper_open(&ms, B->c, EM, B->meta, &mlib, ver, "pn");
    if (B->meta)
        mf_enc_assert_sels(EM, ver);
    B->mu[j].v->bound = o->bound;
    int *live = mf_xcalloc((size_t)B->nmut, sizeof *live);
    int mayref = 1; /* past length 0: mf_refusal_capable */
    if (stepmode) {
        live[j] = 1;
        mf_refusal_capable(B, live);
        mayref = live[j];
    }
    for (int d = 0; d <= o->bound && B->mu[j].todo && !giveup; d++) {
        if (d < B->mu[j].xlen)
            continue; /* the explorer: no potential kill shorter */
        mf_unroll_extend(O, d);
        mf_unroll_extend(M, d);
        mf_unroll_extend(P, d);
        live[j] = 1;
        int pr = mf_z3_now() > B->deadline ? -1
                 : d && !mayref     ? 0
                                    : mf_refusal_search(B, live, ver, vin, P, &ms, d);
        if (pr == -2) { /* refusals at d undecided: look on for outputs */
            if (undecided < 0)
                undecided = d;
            pr = 0;
        }
        if (pr != 0) {
            if (pr < 0 && B->mu[j].todo)
                B->mu[j].v->bound = d - 1; /* gave up: no kill up to d-1 */
            break;
        }
        Z3_ast g = mf_z3_lit(E, "pg");
        Z3_ast parts[2] = {mf_enc_all_ok(EM, M, 0, d),
                           mf_enc_not(E, mf_enc_all_obs_eq(E, O, M, d))};
        mf_z3_implies(E, syn, g, mf_enc_and(E, 2, parts));
        mf_astvec steps = {0}; /* step mode: "M's step d is copy i's" */
        if (stepmode)
            mf_stepper_block(&os, syn, in, M, d, 0, g, &steps);
        for (;;) {
            if (++iters > o->cegis_max || mf_z3_now() > B->deadline) {
                B->mu[j].v->bound = d - 1; /* gave up: no kill up to d-1 */
                giveup = 1;
                break;
            }
            Z3_ast as[2];
            int na = mf_batch_assume(B, j, as);
            as[na++] = g;
            char why[256];
            Z3_lbool r = mf_z3_check(c, syn, na, as, why, sizeof why);
            if (r == Z3_L_UNDEF) {
                mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
                break;
            }
            if (r == Z3_L_FALSE) { /* no deviating mutant behaviour */
                if (!stepmode)
                    mf_copies_lemma(&bp, syn, M, d, mf_enc_and(E, 2, parts),
                                na - 1, as);
                else /* every mutant step d is an original step */
                    mf_copy_refuted(E, syn, steps.n, steps.v,
                                  mf_enc_and(E, 2, parts), na - 1, as);
                break;
            }
            Z3_model mdl = mf_z3_model(c, syn);
            if (stepmode) {
                int before = mf_steplib_rows(B->lib, d > 0);
                mf_val *ov = mf_z3_eval_state(E, mdl, mf_unroll_obs(M, d),
                                        mf_enc_nobs(E));
                Z3_lbool r2 = mf_stepper_find(&os, mdl, in, M, d, ov, 0, NULL, why,
                                        sizeof why);
                free(ov);
                if (r2 == Z3_L_UNDEF) {
                    mf_z3_model_free(c, mdl);
                    mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
                    break;
                }
                if (r2 == Z3_L_FALSE) {
                    pot_kill(B, j, mdl, in, O, M, d);
                    break;
                }
                mf_z3_model_free(c, mdl);
                int after = mf_steplib_rows(B->lib, d > 0);
                if (after == before) { /* cannot happen: the copy of a
                                          learnt step blocks it */
                    mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", "potential refinement: a blocked "
                                      "step came back");
                    break;
                }
                mf_stepper_block(&os, syn, in, M, d, before, g, &steps);
                continue;
            }
            Z3_solver_push(c, ver);
            mf_copy_fix_inputs(E, ver, vin, in, mdl, d);
            for (int k = 0; k <= d; k++) {
                Z3_ast *mo = mf_unroll_obs(M, k);
                int no = mf_enc_nobs(E);
                mf_val *vals = mf_xcalloc((size_t)(no + 1), sizeof *vals);
                for (int i = 0; i < no; i++)
                    vals[i] = mf_enc_eval(E, mdl, mo[i]);
                Z3_solver_assert(c, ver, mf_z3_obs_is(E, mf_unroll_obs(P, k), vals));
                free(vals);
            }
            Z3_solver_assert(c, ver, mf_enc_all_ok(E, P, 0, d));
            Z3_ast ul = mf_z3_lit(E, "pu");
            mf_z3_implies(E, ver, ul, mf_copy_uniform(E, P, d));
            Z3_lbool r2 = mf_z3_check(c, ver, 1, &ul, why, sizeof why);
            if (r2 == Z3_L_FALSE)
                r2 = mf_z3_check(c, ver, 0, NULL, why, sizeof why);
            if (r2 == Z3_L_UNDEF) {
                Z3_solver_pop(c, ver, 1);
                mf_z3_model_free(c, mdl);
                mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
                break;
            }
            if (r2 == Z3_L_FALSE) {
                Z3_solver_pop(c, ver, 1);
                pot_kill(B, j, mdl, in, O, M, d);
                break;
            }
            /* A matching original behaviour: block it (for every mutant:
             * no mutant behaviour matching an original one is a witness). */
            mf_copies_found(&bp, syn, ver, in, M, g, d, mdl);
        }
        MF_VEC_FREE(steps);
    }
    if (undecided >= 0) {
        mf_verdict *v = B->mu[j].v;
        if (v->kind == MF_V_KILLED && B->mu[j].killed_at > undecided)
            v->not_shortest = 1;
        else if (B->mu[j].todo && v->bound >= undecided)
            v->bound = undecided - 1;
    }
    free(live);
    mf_copies_free(&bp);
    if (stepmode)
        mf_stepper_close(&os);
    mf_stepper_close(&ms);
    mf_steplib_free(&mlib);
    mf_unroll_free(O);
    mf_unroll_free(M);
    mf_unroll_free(P);
    mf_inputs_free(in);
    mf_inputs_free(vin);
    mf_z3_solver_free(c, syn);
    mf_z3_solver_free(c, ver);
}

/* At length d, the marks of live (and rf, whether it may refuse) of the
 * mutants whose shortest potential kill the explorer found longer than d
 * move to held (bit 1 live, bit 2 rf), and those held for a shorter
 * length come back (all of them for d < 0). Not where some product of the
 * batch was past the explorer's limit: the mutants it knows are then few,
 * and holding them back cost more than it saved (the queries of the
 * lengths before theirs learn original steps the later lengths need;
 * docs/killing.md). */
static void hold_back(const mf_batch *B, int *live, int *rf, int *held, int d)
{
    for (int j = 0; j < B->nmut; j++) {
        if (held[j] && (d < 0 || B->mu[j].xlen <= d)) {
            live[j] = 1;
            rf[j] = (held[j] & 2) != 0;
            held[j] = 0;
        } else if (live[j] && d >= 0 && B->mu[j].xlen > d && !B->xbig) {
            held[j] = 1 | (rf[j] ? 2 : 0);
            live[j] = rf[j] = 0;
        }
    }
}

/* With learnt steps, everything the potential refinement learns is the
 * original's (its steps), valid for every mutant: so the undecided mutants
 * of a batch share one synthesis solver over the conditional mutant, as the
 * deterministic search does. At length d: one refusal search for all live
 * mutants (refusal_search), then one query "some live mutant (the
 * assumption: one of their selectors) leaves the learnt steps at d". A
 * model names the mutant; the verifier either finds the step (learnt: it
 * blocks it for all of them) or kills that mutant, whose test is replayed
 * on the others (a kill at d is a shortest one for every live mutant). An
 * unsatisfiable query refutes d for all of them at once. Mutants it gives
 * up on (limits) go back to their own search. */
void mf_pot_joint(mf_batch *B, const int *det)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    int n = B->nmut;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    for (int j = 0; j < n; j++)
        live[j] = B->mu[j].todo && !det[j];
    if (mf_batch_nmarked(B, live) < 2) {
        free(live);
        return;
    }
    mf_batch_pair sx, vx; /* synthesis: O, M; verifier: P (its m unused) */
    mf_batch_pair_open(&sx, B, E, EM, 1, 1, "j");
    mf_batch_pair_open(&vx, B, E, EM, 1, 0, "k");
    Z3_solver syn = sx.s, ver = vx.s;
    mf_inputs *in = sx.in, *vin = vx.in;
    mf_unroll *O = sx.o, *M = sx.m, *P = vx.o;
    mf_stepper os, ms;
    mf_stepper_open(&os, B->c, E, 0, B->lib, ver, "jq");
    os.bind = 1;
    mf_steplib mlib = MF_STEPLIB_INIT; /* the mutants' steps */
    mf_stepper_open(&ms, B->c, EM, 1, &mlib, ver, "jn");
    double saved_wall = mf_z3_deadline();
    mf_z3_set_deadline(0);
    B->deadline = mf_batch_joint_deadline(B, mf_batch_nmarked(B, live), 1.0);
    int iters = 0, giveup = 0, undecided = -1, early = 0;
    int *rf = mf_xmalloc(sizeof *rf * (size_t)n); /* may refuse */
    memcpy(rf, live, sizeof *rf * (size_t)n);
    mf_refusal_capable(B, rf);
    int *held = mf_xcalloc((size_t)n, sizeof *held);
    for (int d = 0; d <= o->bound && mf_batch_nmarked(B, live) + mf_batch_nmarked(B, held) &&
                    !giveup;
         d++) {
        /* Mutants the explorer showed killable only from a longer length
         * on sit out the lengths before it. */
        hold_back(B, live, rf, held, d);
        int n0 = mf_batch_nmarked(B, live);
        if (!n0)
            continue;
        mf_unroll_extend(O, d);
        mf_unroll_extend(M, d);
        mf_unroll_extend(P, d);
        /* Past length 0, only the mutants that may refuse. */
        for (int j = 0; j < n; j++)
            rf[j] &= live[j];
        int pr = mf_z3_now() > B->deadline ? -1
                 : d && !mf_batch_nmarked(B, rf)
                     ? 0
                     : mf_refusal_search(B, d ? rf : live, ver, vin, P, &ms, d);
        for (int j = 0; j < n; j++)
            live[j] &= B->mu[j].todo;
        if (pr == -1) {
            giveup = 1;
            break;
        }
        if (pr == -2 && undecided < 0)
            undecided = d; /* refusals at d undecided: look on */
        if (!mf_batch_nmarked(B, live))
            continue;
        Z3_ast g = mf_z3_lit(E, "jg");
        Z3_ast parts[2] = {mf_enc_all_ok(EM, M, 0, d),
                           mf_enc_not(E, mf_enc_all_obs_eq(E, O, M, d))};
        mf_z3_implies(E, syn, g, mf_enc_and(E, 2, parts));
        mf_astvec steps = {0};
        mf_stepper_block(&os, syn, in, M, d, 0, g, &steps);
        Z3_ast pick = mf_batch_pick(B, syn, live);
        for (;;) {
            char why[256];
            Z3_lbool r = mf_batch_joint_query(B, syn, pick, g, &iters, o->cegis_max + n);
            if (r == Z3_L_UNDEF) {
                giveup = 1;
                break;
            }
            if (r == Z3_L_FALSE) /* no live mutant deviates at d */
                break;
            Z3_model mdl = mf_z3_model(c, syn);
            int q = mf_batch_picked(B, mdl, live);
            int before = mf_steplib_rows(B->lib, d > 0);
            mf_val *ov = mf_z3_eval_state(E, mdl, mf_unroll_obs(M, d),
                                    mf_enc_nobs(E));
            Z3_lbool r2 = q < 0 ? Z3_L_UNDEF
                                : mf_stepper_find(&os, mdl, in, M, d, ov, 0, NULL,
                                            why, sizeof why);
            free(ov);
            if (r2 == Z3_L_UNDEF) {
                mf_z3_model_free(c, mdl);
                giveup = 1;
                break;
            }
            if (r2 == Z3_L_FALSE) {
                /* q leaves the original's steps: killed at d. */
                pot_kill(B, q, mdl, in, O, M, d);
                mf_batch_spread(B, live, q, d);
                if (!mf_batch_nmarked(B, live))
                    break;
                pick = mf_batch_pick(B, syn, live);
                continue;
            }
            mf_z3_model_free(c, mdl);
            if (mf_steplib_rows(B->lib, d > 0) == before) {
                giveup = 1; /* cannot happen: a learnt step blocks it */
                break;
            }
            mf_stepper_block(&os, syn, in, M, d, before, g, &steps);
        }
        MF_VEC_FREE(steps);
        /* The first length after 0 that kills none: the mutants left are
         * often equivalent, and would ride the search to the bound, each
         * length dearer than the last. Lock-step for them first, once. */
        if (!giveup && !early && d >= 1 && mf_batch_nmarked(B, live) == n0 &&
            o->prove) {
            early = 1;
            int *mark = mf_xcalloc((size_t)n, sizeof *mark);
            for (int j = 0; j < n; j++)
                mark[j] = live[j] && !B->mu[j].lsdone &&
                          (B->xbig || B->mu[j].xdone) &&
                          mf_batch_may_be_equivalent(B, j);
            if (mf_batch_nmarked(B, mark) && mf_lock_prove(B, mark))
                for (int j = 0; j < n; j++)
                    if (!B->mu[j].todo)
                        live[j] = 0;
            free(mark);
        }
    }
    hold_back(B, live, rf, held, -1);
    free(held);
    /* Decided here: the kills, and, unless it gave up, the rest (no kill up
     * to the bound). A mutant it gave up on searches again on its own. */
    for (int j = 0; j < n; j++) {
        if (det[j] || (live[j] && giveup))
            continue;
        if (!live[j] && B->mu[j].todo)
            continue; /* not a candidate */
        B->mu[j].searched = MF_SEARCHED_POTENTIAL;
        mf_verdict *v = B->mu[j].v;
        if (undecided < 0)
            continue;
        if (v->kind == MF_V_KILLED && B->mu[j].killed_at > undecided)
            v->not_shortest = 1;
        else if (B->mu[j].todo && v->bound >= undecided)
            v->bound = undecided - 1;
    }
    free(rf);
    mf_z3_set_deadline(saved_wall);
    mf_stepper_close(&ms);
    mf_steplib_free(&mlib);
    mf_stepper_close(&os);
    mf_batch_pair_close(&sx, B);
    mf_batch_pair_close(&vx, B);
    free(live);
}
