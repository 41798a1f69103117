/* potential.c - potential killing by refinement (potential.h): one
 * mutant's search, and the joint search of a batch's mutants with learnt
 * steps. Refusals are searched by refusal.c, the copies and steps that
 * block behaviours are copies.c's and steps.c's; the definite upgrade of a
 * potential kill is definite.c's. */
#include "potential.h"

#include <stdio.h>
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

/* With learnt steps, the candidate in mdl (M's step d, for the picked
 * mutant q; -1: none picked): is it an original step? Z3_L_TRUE: the
 * step is learnt, and blocked under g like the others (its match pushed
 * to steps), mdl freed. Z3_L_FALSE: no original step is, a kill (mdl left
 * to the caller). Z3_L_UNDEF (mdl freed): the verifier gave up (why), no
 * mutant was picked, or no new step was learnt (cannot happen: the copy
 * of a learnt step blocks it; why says so). */
static Z3_lbool step_candidate(mf_batch *B, mf_stepper *os, Z3_solver syn,
                               mf_inputs *in, mf_unroll *M, int d, int q,
                               Z3_ast g, Z3_model mdl, mf_astvec *steps,
                               char *why, size_t whyn)
{
    mf_enc *E = B->E;
    int before = mf_steplib_rows(B->lib, d > 0);
    mf_val *ov = mf_z3_eval_state(E, mdl, mf_unroll_obs(M, d), mf_enc_nobs(E));
    Z3_lbool r =
        q < 0 ? Z3_L_UNDEF
              : mf_stepper_find(os, mdl, in, M, d, ov, 0, NULL, why, whyn);
    free(ov);
    if (r == Z3_L_FALSE)
        return r;
    mf_z3_model_free(B->c, mdl);
    if (r == Z3_L_UNDEF)
        return r;
    if (mf_steplib_rows(B->lib, d > 0) == before) {
        snprintf(why, whyn, "potential refinement: a blocked step came back");
        return Z3_L_UNDEF;
    }
    mf_stepper_block(os, syn, in, M, d, before, g, steps);
    return Z3_L_TRUE;
}

/* Refusals at length `undecided` (-1: none) were left undecided: a kill
 * found past it is not claimed shortest, a survivor's bound stops below
 * it. */
static void note_undecided(mf_batch *B, int j, int undecided)
{
    mf_verdict *v = B->mu[j].v;
    if (undecided < 0)
        return;
    if (v->kind == MF_V_KILLED && B->mu[j].killed_at > undecided)
        v->not_shortest = 1;
    else if (B->mu[j].todo && v->bound >= undecided)
        mf_batch_stop_short(B, j, undecided - 1,
                            "refusals undecided (refinement budget)");
}

/* The solvers and copies of one mutant's potential refinement: the
 * synthesis solver syn proposes inputs (in), an original run (O) and a
 * mutant run (M) whose observables differ; the verifier ver looks for an
 * original behaviour (P, inputs vin) with the mutant's observables. */
typedef struct {
    Z3_solver syn, ver;
    mf_inputs *in, *vin;
    mf_unroll *O, *M, *P;
    mf_copies bp;  /* copies of the original behaviours found */
    int stepmode;  /* steps instead of traces (B->lib) */
    mf_stepper os; /* stepmode: the original's steps (the batch's) */
    mf_stepper ms; /* the mutant's accepting steps, for its refusals */
    mf_steplib mlib;
} pot_ctx;

static void pot_open(mf_batch *B, pot_ctx *X)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    memset(X, 0, sizeof *X);
    X->syn = mf_z3_solver(c, o, B->qfbv);
    X->ver = mf_z3_solver(c, o, B->qfbv);
    X->in = mf_inputs_new(E, X->syn, "pi");
    X->vin = mf_inputs_new(E, X->ver, "pv");
    X->O = mf_unroll_new(E, X->syn, "po", 0, X->in, 1, NULL);
    X->M = mf_unroll_new(EM, X->syn, "pm", B->meta, X->in, 0, NULL);
    X->P = mf_unroll_new(E, X->ver, "pp", 0, X->vin, 0, NULL);
    if (B->meta)
        mf_enc_assert_sels(EM, X->syn);
    X->bp = (mf_copies){.n = 1,
                        .from = {X->P, NULL},
                        .bind = X->M,
                        .enc = {E, NULL},
                        .meta = {0, 0},
                        .tag = {"pb", NULL}};
    /* Steps instead of traces where the observables fix the state. */
    X->stepmode = B->lib != NULL;
    mf_steplib_init(&X->mlib);
    if (X->stepmode) {
        mf_stepper_open(&X->os, c, E, 0, B->lib, X->ver, "pq");
        X->os.bind = 1;
    }
    mf_stepper_open(&X->ms, c, EM, B->meta, &X->mlib, X->ver, "pn");
    if (B->meta)
        mf_enc_assert_sels(EM, X->ver);
}

static void pot_close(mf_batch *B, pot_ctx *X)
{
    mf_copies_free(&X->bp);
    if (X->stepmode)
        mf_stepper_close(&X->os);
    mf_stepper_close(&X->ms);
    mf_steplib_free(&X->mlib);
    mf_unroll_free(X->O);
    mf_unroll_free(X->M);
    mf_unroll_free(X->P);
    mf_inputs_free(X->in);
    mf_inputs_free(X->vin);
    mf_z3_solver_free(B->c, X->syn);
    mf_z3_solver_free(B->c, X->ver);
}

/* Without learnt steps, the candidate in mdl (consumed): the verifier
 * looks for an original behaviour with M's observables through d on the
 * same inputs (uniform choices first). Found: blocked (for every mutant:
 * no mutant behaviour matching an original one is a witness); none: a
 * kill of j. Returns 1 when length d is done with (j killed or unknown),
 * 0 to go on. */
static int trace_candidate(mf_batch *B, pot_ctx *X, int j, int d, Z3_ast g,
                           Z3_model mdl)
{
    Z3_context c = B->c;
    mf_enc *E = B->E;
    char why[256];
    Z3_solver_push(c, X->ver);
    mf_copy_fix_inputs(E, X->ver, X->vin, X->in, mdl, d);
    for (int k = 0; k <= d; k++) {
        Z3_ast *mo = mf_unroll_obs(X->M, k);
        int no = mf_enc_nobs(E);
        mf_val *vals = mf_xcalloc((size_t)(no + 1), sizeof *vals);
        for (int i = 0; i < no; i++)
            vals[i] = mf_enc_eval(E, mdl, mo[i]);
        Z3_solver_assert(c, X->ver,
                         mf_z3_obs_is(E, mf_unroll_obs(X->P, k), vals));
        free(vals);
    }
    Z3_solver_assert(c, X->ver, mf_enc_all_ok(E, X->P, 0, d));
    Z3_ast ul = mf_z3_lit(E, "pu");
    mf_z3_implies(E, X->ver, ul, mf_copy_uniform(E, X->P, d));
    Z3_lbool r = mf_z3_check(c, X->ver, 1, &ul, why, sizeof why);
    if (r == Z3_L_FALSE)
        r = mf_z3_check(c, X->ver, 0, NULL, why, sizeof why);
    if (r == Z3_L_UNDEF) {
        Z3_solver_pop(c, X->ver, 1);
        mf_z3_model_free(c, mdl);
        mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
        return 1;
    }
    if (r == Z3_L_FALSE) {
        Z3_solver_pop(c, X->ver, 1);
        pot_kill(B, j, mdl, X->in, X->O, X->M, d);
        return 1;
    }
    mf_copies_found(&X->bp, X->syn, X->ver, X->in, X->M, g, d, mdl);
    return 0;
}

/* Length d of mutant j's refinement (refusals at d already searched):
 * killed, unknown, refuted (the lemma asserted), or given up within the
 * iteration cap and the deadline (returns 1; its bound d - 1). */
static int pot_length(mf_batch *B, pot_ctx *X, int j, int d, int *iters)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    int giveup = 0;
    Z3_ast g = mf_z3_lit(E, "pg");
    Z3_ast parts[2] = {mf_enc_all_ok(EM, X->M, 0, d),
                       mf_enc_not(E, mf_enc_all_obs_eq(E, X->O, X->M, d))};
    mf_z3_implies(E, X->syn, g, mf_enc_and(E, 2, parts));
    mf_astvec steps = {0}; /* stepmode: "M's step d is copy i's" */
    if (X->stepmode)
        mf_stepper_block(&X->os, X->syn, X->in, X->M, d, 0, g, &steps);
    for (;;) {
        if (++*iters > B->o->cegis_max || mf_z3_now() > B->deadline) {
            mf_batch_stop_short(B, j, d - 1,
                                *iters > B->o->cegis_max
                                    ? "refinement: iteration limit"
                                    : "refinement: time limit");
            giveup = 1;
            break;
        }
        Z3_ast as[2];
        int na = mf_batch_assume(B, j, as);
        as[na++] = g;
        char why[256];
        Z3_lbool r = mf_z3_check(c, X->syn, na, as, why, sizeof why);
        if (r == Z3_L_UNDEF) {
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
            break;
        }
        if (r == Z3_L_FALSE) { /* no deviating mutant behaviour */
            if (!X->stepmode)
                mf_copies_lemma(&X->bp, X->syn, X->M, d,
                                mf_enc_and(E, 2, parts), na - 1, as);
            else /* every mutant step d is an original step */
                mf_copy_refuted(E, X->syn, steps.n, steps.v,
                                mf_enc_and(E, 2, parts), na - 1, as);
            break;
        }
        Z3_model mdl = mf_z3_model(c, X->syn);
        if (!X->stepmode) {
            if (trace_candidate(B, X, j, d, g, mdl))
                break;
            continue;
        }
        r = step_candidate(B, &X->os, X->syn, X->in, X->M, d, j, g, mdl, &steps,
                           why, sizeof why);
        if (r == Z3_L_UNDEF)
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
        else if (r == Z3_L_FALSE)
            pot_kill(B, j, mdl, X->in, X->O, X->M, d);
        if (r != Z3_L_TRUE)
            break;
    }
    MF_VEC_FREE(steps);
    return giveup;
}

void mf_pot_search(mf_batch *B, int j)
{
    pot_ctx X;
    pot_open(B, &X);
    int iters = 0, giveup = 0, undecided = -1;
    B->mu[j].v->bound = B->o->bound;
    int *live = mf_xcalloc((size_t)B->nmut, sizeof *live);
    int mayref = 1; /* past length 0: mf_refusal_capable */
    if (X.stepmode) {
        live[j] = 1;
        mf_refusal_capable(B, live);
        mayref = live[j];
    }
    for (int d = 0; d <= B->o->bound && B->mu[j].todo && !giveup; d++) {
        if (d < B->mu[j].xlen)
            continue; /* the explorer: no potential kill shorter */
        mf_unroll_extend(X.O, d);
        mf_unroll_extend(X.M, d);
        mf_unroll_extend(X.P, d);
        live[j] = 1;
        int pr = mf_z3_now() > B->deadline ? -1
                 : d && !mayref
                     ? 0
                     : mf_refusal_search(B, live, X.ver, X.vin, X.P, &X.ms, d);
        if (pr == -2) { /* refusals at d undecided: look on for outputs */
            if (undecided < 0)
                undecided = d;
            pr = 0;
        }
        if (pr != 0) {
            if (pr < 0 && B->mu[j].todo)
                mf_batch_stop_short(B, j, d - 1,
                                    "refusal search: time or budget limit");
            break;
        }
        giveup = pot_length(B, &X, j, d, &iters);
    }
    note_undecided(B, j, undecided);
    free(live);
    pot_close(B, &X);
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

/* The joint search's solvers, copies and marks. */
typedef struct {
    mf_batch_pair sx;  /* synthesis: O, M */
    mf_batch_pair vx;  /* verifier: P (its m unused) */
    mf_stepper os, ms; /* the original's steps; the mutants' steps */
    mf_steplib mlib;   /* the mutants' steps */
    int *live;         /* searched at this length */
    int *rf;           /* may refuse (mf_refusal_capable) */
    int *held;         /* held back (hold_back) */
    int iters, giveup, undecided, early;
} joint_ctx;

/* The queries of length d: "some live mutant leaves the learnt steps at
 * d" until none does; each model names a mutant, whose step is learnt or
 * which is killed (its test replayed on the others). */
static void joint_queries(mf_batch *B, joint_ctx *J, int d, Z3_ast g,
                          mf_astvec *steps)
{
    Z3_context c = B->c;
    Z3_solver syn = J->sx.s;
    mf_inputs *in = J->sx.in;
    mf_unroll *O = J->sx.o, *M = J->sx.m;
    Z3_ast pick = mf_batch_pick(B, syn, J->live);
    for (;;) {
        char why[256];
        Z3_lbool r = mf_batch_joint_query(B, syn, pick, g, &J->iters,
                                          B->o->cegis_max + B->nmut);
        if (r == Z3_L_UNDEF) {
            J->giveup = 1;
            break;
        }
        if (r == Z3_L_FALSE) /* no live mutant deviates at d */
            break;
        Z3_model mdl = mf_z3_model(c, syn);
        int q = mf_batch_picked(B, mdl, J->live);
        r = step_candidate(B, &J->os, syn, in, M, d, q, g, mdl, steps, why,
                           sizeof why);
        if (r == Z3_L_UNDEF) {
            J->giveup = 1;
            break;
        }
        if (r == Z3_L_FALSE) {
            /* q leaves the original's steps: killed at d. */
            pot_kill(B, q, mdl, in, O, M, d);
            mf_batch_spread(B, J->live, q, d);
            if (!mf_batch_nmarked(B, J->live))
                break;
            pick = mf_batch_pick(B, syn, J->live);
        }
    }
}

/* The first length after 0 that kills none (n0 mutants were live at its
 * start): the mutants left are often equivalent, and would ride the search
 * to the bound, each length dearer than the last. Lock-step for them
 * first, once; those it proves leave live. */
static void early_lockstep(mf_batch *B, joint_ctx *J, int d, int n0)
{
    int n = B->nmut;
    if (J->giveup || J->early || d < 1 || mf_batch_nmarked(B, J->live) != n0 ||
        !B->o->prove)
        return;
    J->early = 1;
    int *mark = mf_xcalloc((size_t)n, sizeof *mark);
    for (int j = 0; j < n; j++)
        mark[j] = J->live[j] && !B->mu[j].lsdone &&
                  (B->xbig || B->mu[j].xdone) &&
                  mf_batch_may_be_equivalent(B, j);
    if (mf_batch_nmarked(B, mark) && mf_lock_prove(B, mark))
        for (int j = 0; j < n; j++)
            if (!B->mu[j].todo)
                J->live[j] = 0;
    free(mark);
}

/* Length d of the joint search for the n0 mutants live: one refusal
 * search for all of them, then the queries for differences. */
static void joint_length(mf_batch *B, joint_ctx *J, int d, int n0)
{
    mf_enc *E = B->E, *EM = B->EM;
    int n = B->nmut;
    mf_unroll *O = J->sx.o, *M = J->sx.m, *P = J->vx.o;
    mf_unroll_extend(O, d);
    mf_unroll_extend(M, d);
    mf_unroll_extend(P, d);
    /* Past length 0, only the mutants that may refuse. */
    for (int j = 0; j < n; j++)
        J->rf[j] &= J->live[j];
    int pr = mf_z3_now() > B->deadline ? -1
             : d && !mf_batch_nmarked(B, J->rf)
                 ? 0
                 : mf_refusal_search(B, d ? J->rf : J->live, J->vx.s, J->vx.in,
                                     P, &J->ms, d);
    for (int j = 0; j < n; j++)
        J->live[j] &= B->mu[j].todo;
    if (pr == -1) {
        J->giveup = 1;
        return;
    }
    if (pr == -2 && J->undecided < 0)
        J->undecided = d; /* refusals at d undecided: look on */
    if (!mf_batch_nmarked(B, J->live))
        return;
    Z3_ast g = mf_z3_lit(E, "jg");
    Z3_ast parts[2] = {mf_enc_all_ok(EM, M, 0, d),
                       mf_enc_not(E, mf_enc_all_obs_eq(E, O, M, d))};
    mf_z3_implies(E, J->sx.s, g, mf_enc_and(E, 2, parts));
    mf_astvec steps = {0};
    mf_stepper_block(&J->os, J->sx.s, J->sx.in, M, d, 0, g, &steps);
    joint_queries(B, J, d, g, &steps);
    MF_VEC_FREE(steps);
    early_lockstep(B, J, d, n0);
}

/* With learnt steps, everything the potential refinement learns is the
 * original's (its steps), valid for every mutant: so the undecided mutants
 * of a batch share one synthesis solver over the conditional mutant, as the
 * deterministic search does. At length d: one refusal search for all live
 * mutants (mf_refusal_search), then one query "some live mutant (the
 * assumption: one of their selectors) leaves the learnt steps at d". A
 * model names the mutant; the verifier either finds the step (learnt: it
 * blocks it for all of them) or kills that mutant, whose test is replayed
 * on the others (a kill at d is a shortest one for every live mutant). An
 * unsatisfiable query refutes d for all of them at once. Mutants it gives
 * up on (limits) go back to their own search. */
void mf_pot_joint(mf_batch *B, const int *det)
{
    mf_enc *E = B->E, *EM = B->EM;
    int n = B->nmut;
    joint_ctx J = {0};
    J.live = mf_xcalloc((size_t)n, sizeof *J.live);
    for (int j = 0; j < n; j++)
        J.live[j] = B->mu[j].todo && !det[j];
    if (mf_batch_nmarked(B, J.live) < 2) {
        free(J.live);
        return;
    }
    mf_batch_pair_open(&J.sx, B, E, EM, 1, 1, "j");
    mf_batch_pair_open(&J.vx, B, E, EM, 1, 0, "k");
    mf_stepper_open(&J.os, B->c, E, 0, B->lib, J.vx.s, "jq");
    J.os.bind = 1;
    mf_steplib_init(&J.mlib);
    mf_stepper_open(&J.ms, B->c, EM, 1, &J.mlib, J.vx.s, "jn");
    double saved_wall = mf_z3_deadline();
    mf_z3_set_deadline(0);
    B->deadline = mf_batch_joint_deadline(B, mf_batch_nmarked(B, J.live), 1.0);
    J.undecided = -1;
    J.rf = mf_xmalloc(sizeof *J.rf * (size_t)n);
    memcpy(J.rf, J.live, sizeof *J.rf * (size_t)n);
    mf_refusal_capable(B, J.rf);
    J.held = mf_xcalloc((size_t)n, sizeof *J.held);
    for (int d = 0; d <= B->o->bound && !J.giveup &&
                    mf_batch_nmarked(B, J.live) + mf_batch_nmarked(B, J.held);
         d++) {
        /* Mutants the explorer showed killable only from a longer length
         * on sit out the lengths before it. */
        hold_back(B, J.live, J.rf, J.held, d);
        int n0 = mf_batch_nmarked(B, J.live);
        if (n0)
            joint_length(B, &J, d, n0);
    }
    hold_back(B, J.live, J.rf, J.held, -1);
    free(J.held);
    /* Decided here: the kills, and, unless it gave up, the rest (no kill up
     * to the bound). A mutant it gave up on searches again on its own. */
    for (int j = 0; j < n; j++) {
        if (det[j] || (J.live[j] && J.giveup))
            continue;
        if (!J.live[j] && B->mu[j].todo)
            continue; /* not a candidate */
        B->mu[j].searched = MF_SEARCHED_POTENTIAL;
        note_undecided(B, j, J.undecided);
    }
    free(J.rf);
    mf_z3_set_deadline(saved_wall);
    mf_stepper_close(&J.ms);
    mf_steplib_free(&J.mlib);
    mf_stepper_close(&J.os);
    mf_batch_pair_close(&J.sx, B);
    mf_batch_pair_close(&J.vx, B);
    free(J.live);
}
