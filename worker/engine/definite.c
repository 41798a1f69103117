/* definite.c - definite killing (definite.h): the refinement of one
 * mutant with its lookahead, the bisection for models without inputs, and
 * the joint upgrade of a batch's potential kills. It decides no verdict
 * but through the batch (batch.h), and finds no potential kill. */
#include "definite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copies.h"
#include "explicit.h"
#include "lockstep.h"
#include "z3util.h"

/* Does m read inputs (IVARs, input VARs)? */
static int has_inputs(const mf_model *m)
{
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].decl == MF_DECL_IVAR || m->vars[i].is_input)
            return 1;
    return 0;
}

/* Definite killing without inputs: the only test of length d is "run d
 * steps", and it kills definitely iff the original has a behaviour of
 * length d and no original and mutant behaviour agree up to d. Agreement
 * up to d holds for every shorter length (a prefix agrees), so the
 * shortest kill is found by bisection over [from, bound] with one verifier
 * query per probe, where the refinement needs a synthesis and a verifier
 * query per length. `from`: no kill is
 * shorter (a definite kill is a potential one). The queries of one solver
 * (agreeq) serve any mutant of the batch: its literals agree[d] ("a pair
 * agrees up to d") and orig[d] ("the original has a behaviour of length
 * d") are asserted once, each query assumes the mutant's selector. */
typedef struct {
    mf_batch_pair x;          /* o: P, the original; m: Q, the mutant */
    mf_astvec agree, orig; /* per length, NULL until needed */
} agreeq;

static void agreeq_open(mf_batch *B, agreeq *A)
{
    memset(A, 0, sizeof *A);
    mf_batch_pair_open(&A->x, B, B->E, B->EM, B->meta, 0, "n");
}

static void agreeq_close(mf_batch *B, agreeq *A)
{
    mf_batch_pair_close(&A->x, B);
    MF_VEC_FREE(A->agree);
    MF_VEC_FREE(A->orig);
}

/* The literal of length d in v (pair: agreement, else the original alone),
 * made and asserted on first use. */
static Z3_ast agreeq_lit(mf_batch *B, agreeq *A, mf_astvec *v, int d, int pair)
{
    while (v->n <= d)
        MF_VEC_PUSH(*v, NULL);
    if (!v->v[d]) {
        mf_unroll_extend(A->x.o, d);
        mf_unroll_extend(A->x.m, d);
        Z3_ast x[3] = {mf_enc_all_ok(B->E, A->x.o, 0, d),
                       mf_enc_all_ok(B->EM, A->x.m, 0, d),
                       mf_enc_all_obs_eq(B->E, A->x.o, A->x.m, d)};
        v->v[d] = mf_z3_lit(B->E, pair ? "na" : "no");
        mf_z3_implies(B->E, A->x.s, v->v[d],
                       pair ? mf_enc_and(B->E, 3, x) : x[0]);
    }
    return v->v[d];
}

/* Mutant j, lengths [from, bound]: 1 killed (*out: its test), 0 not, -1
 * unknown (why). */
static int agreeq_kill(mf_batch *B, agreeq *A, int j, int from, mf_test **out,
                       char *why, size_t whyn)
{
    Z3_ast as[2];
    int na = mf_batch_assume(B, j, as);
    int lo = from < 0 ? 0 : from, hi = B->o->bound;
    int r = 0; /* some pair agrees up to lo - 1, none to hi */
    for (int probe = hi;; probe = lo + (hi - lo) / 2) {
        as[na] = agreeq_lit(B, A, &A->agree, probe, 1);
        Z3_lbool l = mf_z3_check(B->c, A->x.s, na + 1, as, why, whyn);
        if (l == Z3_L_UNDEF)
            return -1;
        if (probe == B->o->bound && l == Z3_L_TRUE)
            return 0; /* they agree up to the bound */
        if (l == Z3_L_TRUE)
            lo = probe + 1;
        else
            hi = probe;
        if (lo >= hi)
            break;
    }
    /* The test: an original behaviour of length hi, if there is one. */
    as[na] = agreeq_lit(B, A, &A->orig, hi, 0);
    Z3_lbool l = mf_z3_check(B->c, A->x.s, na + 1, as, why, whyn);
    if (l == Z3_L_TRUE) {
        Z3_model mdl = mf_z3_model(B->c, A->x.s);
        *out = mf_z3_test(B->E, mdl, A->x.in, A->x.o, NULL, hi);
        mf_z3_model_free(B->c, mdl);
        r = 1;
    } else if (l == Z3_L_UNDEF)
        r = -1;
    return r;
}

static int def_noinput(mf_batch *B, int j, int from, mf_verdict *tmp)
{
    agreeq A;
    agreeq_open(B, &A);
    int r = agreeq_kill(B, &A, j, from, &tmp->test, tmp->reason,
                        sizeof tmp->reason);
    if (r >= 0)
        tmp->reason[0] = 0;
    agreeq_close(B, &A);
    return r == 1;
}

/* The definite verifier: pushed, an original behaviour (P) and a mutant
 * behaviour (Q) that agree up to d on the inputs of the synthesis model
 * mdl, under the assumptions as[0..na); uniform choices first (see
 * uniform). The caller pops. */
static Z3_lbool pair_query(mf_batch *B, Z3_solver ver, mf_inputs *vin,
                           mf_inputs *in, Z3_model mdl, mf_unroll *P,
                           mf_unroll *Q, int d, int na, const Z3_ast *as,
                           char *why, size_t whyn)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    Z3_solver_push(c, ver);
    mf_copy_fix_inputs(E, ver, vin, in, mdl, d);
    Z3_ast parts[3] = {mf_enc_all_ok(E, P, 0, d), mf_enc_all_ok(EM, Q, 0, d),
                       mf_enc_all_obs_eq(E, P, Q, d)};
    Z3_solver_assert(c, ver, mf_enc_and(E, 3, parts));
    Z3_ast vs[2];
    for (int i = 0; i < na; i++)
        vs[i] = as[i];
    Z3_ast up[2] = {mf_copy_uniform(E, P, d), mf_copy_uniform(EM, Q, d)};
    vs[na] = mf_z3_lit(E, "du");
    mf_z3_implies(E, ver, vs[na], mf_enc_and(E, 2, up));
    Z3_lbool r = mf_z3_check(c, ver, na + 1, vs, why, whyn);
    if (r == Z3_L_FALSE)
        r = mf_z3_check(c, ver, na, vs, why, whyn);
    return r;
}

/* Lookahead of the definite refinement. When one copy (a pair of original
 * and mutant behaviours with fixed choices) matched every candidate of
 * length d, that pair with its last step's choices repeated may match every
 * test up to some longer length. In a solver of its own, without the
 * original's acceptance (so over more tests than any length's candidates):
 * "the extended pair parts (a refusal or other observables) within X".
 * Unsat: every test up to X has a matching pair, so none kills definitely;
 * a model's first parting step t bounds the next X to t - 1. Returns the
 * longest length so refuted, d if none (so that many lengths are refuted
 * at once instead of one refinement each). */
static int def_lookahead(mf_batch *B, int j, mf_copies *P, const mf_copy *b, int d)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    int bound = B->o->bound, got = d;
    if (P->bind || b->depth < 1 || d + 1 >= bound)
        return d;
    Z3_solver la = mf_z3_solver(c, B->o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, la, "li");
    mf_unroll *u[2] = {mf_unroll_new(E, la, "lp", 0, in, 0, NULL),
                       mf_unroll_new(EM, la, "lq", B->meta, in, 0, NULL)};
    if (B->meta)
        mf_enc_assert_sels(EM, la);
    mf_copies_repeat(P, la, u, b, 0, bound);
    Z3_ast as[2];
    int na = mf_batch_assume(B, j, as);
    for (int X = bound, tries = 0; X > d && tries < 4 && mf_z3_now() < B->deadline;
         tries++) {
        Z3_ast parts[3] = {mf_enc_all_ok(E, u[0], 0, X),
                           mf_enc_all_ok(EM, u[1], 0, X),
                           mf_enc_all_obs_eq(E, u[0], u[1], X)};
        as[na] = mf_z3_lit(E, "lx");
        mf_z3_implies(E, la, as[na],
                       mf_enc_not(E, mf_enc_and(E, 3, parts)));
        char why[256];
        Z3_lbool r = mf_z3_check(c, la, na + 1, as, why, sizeof why);
        if (r == Z3_L_FALSE) {
            got = X;
            break;
        }
        if (r != Z3_L_TRUE)
            break;
        Z3_model mdl = mf_z3_model(c, la);
        int t = 0;
        for (; t < X; t++) {
            Z3_ast at[3] = {mf_unroll_ok(u[0], t), mf_unroll_ok(u[1], t),
                            mf_enc_obs_eq(E, mf_unroll_obs(u[0], t),
                                          mf_unroll_obs(u[1], t))};
            Z3_ast v = NULL;
            if (!Z3_model_eval(c, mdl, mf_enc_and(E, 3, at), 1, &v) || !v ||
                Z3_get_bool_value(c, v) != Z3_L_TRUE)
                break;
        }
        mf_z3_model_free(c, mdl);
        X = t - 1;
    }
    mf_unroll_free(u[0]);
    mf_unroll_free(u[1]);
    mf_inputs_free(in);
    mf_z3_solver_free(c, la);
    return got;
}

int mf_def_search(mf_batch *B, int j, int from, int cap, mf_verdict *tmp)
{
    if (!has_inputs(B->m))
        return def_noinput(B, j, from, tmp);
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    Z3_solver syn = mf_z3_solver(c, o, B->qfbv), ver = mf_z3_solver(c, o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, syn, "di");
    mf_inputs *vin = mf_inputs_new(E, ver, "dv");
    mf_unroll *O = mf_unroll_new(E, syn, "do", 0, in, 1, NULL);
    mf_unroll *P = mf_unroll_new(E, ver, "dp", 0, vin, 0, NULL);
    mf_unroll *Q = mf_unroll_new(EM, ver, "dq", B->meta, vin, 0, NULL);
    if (B->meta) {
        mf_enc_assert_sels(EM, syn);
        mf_enc_assert_sels(EM, ver);
    }
    int iters = 0, killed = 0, stop = 0, looked = 0;
    mf_copies bp = {.n = 2, .from = {P, Q}, .enc = {E, EM}, .meta = {0, B->meta},
                .tag = {"db", "dc"}};
    for (int d = from; d <= o->bound && !killed && !stop; d++) {
        mf_unroll_extend(O, d);
        mf_unroll_extend(P, d);
        mf_unroll_extend(Q, d);
        Z3_ast g = mf_z3_lit(E, "dg");
        for (;;) {
            if (++iters > cap || mf_z3_now() > B->deadline) {
                snprintf(tmp->reason, sizeof tmp->reason,
                         "definite refinement: iteration limit at length %d",
                         d);
                stop = 1;
                break;
            }
            Z3_ast as[2];
            int na = mf_batch_assume(B, j, as);
            as[na++] = g;
            char why[256];
            Z3_lbool r = mf_z3_check(c, syn, na, as, why, sizeof why);
            if (r == Z3_L_UNDEF) {
                snprintf(tmp->reason, sizeof tmp->reason, "%s", why);
                stop = 1;
                break;
            }
            if (r == Z3_L_FALSE) {
                mf_copies_lemma(&bp, syn, NULL, d, NULL, na - 1, as);
                int nb = 0;
                mf_copy *one = NULL;
                for (int i = 0; i < bp.v.n; i++)
                    if (bp.v.v[i].depth >= d) {
                        nb++;
                        one = &bp.v.v[i];
                    }
                int D = d;
                if (nb == 1 && d >= 1 && !looked) {
                    D = def_lookahead(B, j, &bp, one, d);
                    looked = 1;
                }
                if (D > d) {
                    /* Lengths d+1..D refuted at once: the copy extended
                     * as the lookahead did, and its lemma. */
                    mf_copies_repeat(&bp, syn, one->u, one, one->depth + 1, D);
                    mf_copies_extend(&bp, one, D);
                    mf_copies_lemma(&bp, syn, NULL, D, NULL, na - 1, as);
                    d = D;
                }
                break;
            }
            Z3_model mdl = mf_z3_model(c, syn);
            Z3_ast vs[2];
            int nv = mf_batch_assume(B, j, vs);
            Z3_lbool r2 = pair_query(B, ver, vin, in, mdl, P, Q, d, nv, vs,
                                     why, sizeof why);
            if (r2 == Z3_L_UNDEF) {
                Z3_solver_pop(c, ver, 1);
                mf_z3_model_free(c, mdl);
                snprintf(tmp->reason, sizeof tmp->reason, "%s", why);
                stop = 1;
                break;
            }
            if (r2 == Z3_L_FALSE) {
                Z3_solver_pop(c, ver, 1);
                tmp->test =
                    mf_z3_test(E, mdl, in, O, NULL, d);
                mf_z3_model_free(c, mdl);
                killed = 1;
                break;
            }
            mf_copies_found(&bp, syn, ver, in, NULL, g, d, mdl);
        }
    }
    mf_copies_free(&bp);
    mf_unroll_free(O);
    mf_unroll_free(P);
    mf_unroll_free(Q);
    mf_inputs_free(in);
    mf_inputs_free(vin);
    mf_z3_solver_free(c, syn);
    mf_z3_solver_free(c, ver);
    return killed;
}

int mf_def_from(const mf_batch *B, int j)
{
    return B->mu[j].xdlen > B->mu[j].killed_at ? B->mu[j].xdlen : B->mu[j].killed_at;
}

/* The definite upgrade of the potential kills of mf_pot_joint, for all of
 * them together, as mf_def_search does it for one: the synthesis solver
 * proposes inputs and one of the mutants (the assumption: one of their
 * selectors, each from its potential kill length on); the verifier looks
 * for an original and a behaviour of that mutant that agree; a pair found
 * blocks those inputs for every mutant (the mutant copy reads the
 * selector: where it accepts and agrees for another mutant, that mutant
 * has such a pair too). Upgraded, searched to the bound, or given up
 * within the sum of their budgets: MF_SEARCHED_DEFINITE. A potential test that kills
 * definitely as it is needs no search (mf_batch_upgrade_replay first).
 *
 * Only when at least a quarter of the batch is left to upgrade (and two):
 * the joint solvers carry every mutant's sites, so a few mutants of a
 * large batch are upgraded faster one by one, each with an encoder of its
 * own (the driver's decide_alone; docs/killing.md). */
#define JOINT_DEF_SHARE 4
void mf_def_joint(mf_batch *B)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    int n = B->nmut, lo = o->bound + 1;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    for (int j = 0; j < n; j++) {
        mf_verdict *v = B->mu[j].v;
        if (B->mu[j].searched != MF_SEARCHED_POTENTIAL || v->kind != MF_V_KILLED ||
            v->notion != MF_N_POTENTIAL)
            continue;
        /* The explorer first: its definite exploration costs less than the
         * replay of the potential test as a definite one. */
        if (mf_explicit_no_definite(B, j) || mf_batch_upgrade_replay(B, j, v->test)) {
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            continue;
        }
        live[j] = 1;
    }
    if (mf_batch_nmarked(B, live) >= 2 && B->o->prove)
        mf_lock_no_definite(B, live);
    for (int j = 0; j < n; j++)
        if (live[j] && mf_def_from(B, j) < lo)
            lo = mf_def_from(B, j);
    int left = mf_batch_nmarked(B, live);
    if (left < 2 || JOINT_DEF_SHARE * left < n || lo < 0) {
        free(live);
        return;
    }
    if (!has_inputs(B->m)) { /* one agreement solver for all */
        agreeq A;
        agreeq_open(B, &A);
        for (int j = 0; j < n; j++) {
            char why[256];
            mf_test *t = NULL;
            if (!live[j])
                continue;
            if (agreeq_kill(B, &A, j, mf_def_from(B, j), &t, why, sizeof why) >=
                0)
                B->mu[j].searched = MF_SEARCHED_DEFINITE; /* the upgrade or none up to the bound */
            else if (mf_batch_marked_after(B, live, j)) {
                /* A solver past its limit gives up at once after. */
                agreeq_close(B, &A);
                agreeq_open(B, &A);
            }
            if (t)
                mf_batch_upgrade_replay(B, j, t);
            mf_test_free(t);
        }
        agreeq_close(B, &A);
        free(live);
        return;
    }
    mf_batch_pair sx, vx; /* synthesis: O (its m unused); verifier: P, Q */
    mf_batch_pair_open(&sx, B, E, EM, 1, 1, "u");
    mf_batch_pair_open(&vx, B, E, EM, 1, 0, "v");
    Z3_solver syn = sx.s, ver = vx.s;
    mf_inputs *in = sx.in, *vin = vx.in;
    mf_unroll *O = sx.o, *P = vx.o, *Q = vx.m;
    mf_copies bp = {.n = 2, .from = {P, Q}, .enc = {E, EM}, .meta = {0, 1},
                .tag = {"ub", "uc"}};
    double saved_wall = mf_z3_deadline();
    mf_z3_set_deadline(0);
    B->deadline = mf_batch_joint_deadline(B, left, 1.0 / 3);
    int iters = 0, cap = (o->cegis_max / 10) * left;
    int gave_at = -1; /* the length at which the search gave up, -1 none */
    /* Per mutant: the copy last found for it, and the lengths its
     * lookahead refuted (it sits out the search up to there). */
    int *own = mf_xmalloc(sizeof *own * (size_t)n);
    int *upto = mf_xmalloc(sizeof *upto * (size_t)n);
    for (int j = 0; j < n; j++)
        own[j] = upto[j] = -1;
    for (int d = lo; d <= o->bound && mf_batch_nmarked(B, live) && gave_at < 0; d++) {
        mf_unroll_extend(O, d);
        mf_unroll_extend(P, d);
        mf_unroll_extend(Q, d);
        int *now_live = mf_xcalloc((size_t)n, sizeof *now_live);
        for (int j = 0; j < n; j++)
            now_live[j] = live[j] && mf_def_from(B, j) <= d && upto[j] < d;
        Z3_ast g = mf_z3_lit(E, "ug");
        Z3_ast pick = mf_batch_pick(B, syn, now_live);
        while (mf_batch_nmarked(B, now_live)) {
            char why[256];
            Z3_lbool r = mf_batch_joint_query(B, syn, pick, g, &iters, cap);
            if (r == Z3_L_UNDEF) {
                gave_at = d;
                break;
            }
            if (r == Z3_L_FALSE) {
                mf_copies_lemma(&bp, syn, NULL, d, NULL, 1, &pick);
                /* d refuted for all of them: each one's own copy, its
                 * last step repeated, may refute the lengths after d
                 * too (def_lookahead; once per mutant, as mf_def_search). A
                 * mutant refuted to the bound is done. */
                for (int j = 0; j < n; j++) {
                    if (!now_live[j] || own[j] < 0 ||
                        bp.v.v[own[j]].depth < d)
                        continue;
                    int D = def_lookahead(B, j, &bp, &bp.v.v[own[j]], d);
                    own[j] = -2; /* looked */
                    if (D >= o->bound) {
                        B->mu[j].searched = MF_SEARCHED_DEFINITE;
                        live[j] = 0;
                    } else if (D > d) {
                        upto[j] = D;
                    }
                }
                break;
            }
            Z3_model mdl = mf_z3_model(c, syn);
            int q = mf_batch_picked(B, mdl, now_live);
            if (q < 0) {
                mf_z3_model_free(c, mdl);
                gave_at = d;
                break;
            }
            Z3_ast vs[1] = {mf_enc_sel(EM, q)};
            Z3_lbool r2 = pair_query(B, ver, vin, in, mdl, P, Q, d, 1, vs,
                                     why, sizeof why);
            if (r2 == Z3_L_UNDEF) {
                Z3_solver_pop(c, ver, 1);
                mf_z3_model_free(c, mdl);
                gave_at = d;
                break;
            }
            if (r2 == Z3_L_FALSE) {
                /* No pair agrees: a definite kill of q at d, a shortest
                 * one for every mutant still here that it kills. */
                Z3_solver_pop(c, ver, 1);
                mf_test *t = mf_z3_test(E, mdl, in, O, NULL, d);
                mf_z3_model_free(c, mdl);
                mf_batch_upgrade_replay(B, q, t);
                B->mu[q].searched = MF_SEARCHED_DEFINITE;
                for (int j = 0; j < n; j++)
                    if (now_live[j] && j != q)
                        mf_batch_upgrade_replay(B, j, t);
                mf_test_free(t);
                for (int j = 0; j < n; j++)
                    if (B->mu[j].searched == MF_SEARCHED_DEFINITE)
                        live[j] = now_live[j] = 0;
                if (mf_batch_nmarked(B, now_live))
                    pick = mf_batch_pick(B, syn, now_live);
                continue;
            }
            int b = mf_copies_found(&bp, syn, ver, in, NULL, g, d, mdl);
            if (own[q] != -2)
                own[q] = b;
        }
        free(now_live);
    }
    /* The rest: no definite kill up to the bound, or none within the sum
     * of their budgets (their own searches would not do better; the
     * method says where it gave up). */
    for (int j = 0; j < n; j++)
        if (live[j]) {
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            if (gave_at >= 0)
                snprintf(B->mu[j].v->method, sizeof B->mu[j].v->method,
                         "upgrade gave up at length %d", gave_at);
        }
    free(own);
    free(upto);
    mf_z3_set_deadline(saved_wall);
    mf_copies_free(&bp);
    mf_batch_pair_close(&sx, B);
    mf_batch_pair_close(&vx, B);
    free(live);
}
