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
    mf_batch_pair x;       /* o: P, the original; m: Q, the mutant */
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

static int def_noinput(mf_batch *B, int j, int from, mf_test **test, char *why,
                       size_t whyn)
{
    agreeq A;
    agreeq_open(B, &A);
    int r = agreeq_kill(B, &A, j, from, test, why, whyn);
    if (r >= 0)
        why[0] = 0;
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
static int def_lookahead(mf_batch *B, int j, mf_copies *P, const mf_copy *b,
                         int d)
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
    for (int X = bound, tries = 0;
         X > d && tries < 4 && mf_z3_now() < B->deadline; tries++) {
        Z3_ast parts[3] = {mf_enc_all_ok(E, u[0], 0, X),
                           mf_enc_all_ok(EM, u[1], 0, X),
                           mf_enc_all_obs_eq(E, u[0], u[1], X)};
        as[na] = mf_z3_lit(E, "lx");
        mf_z3_implies(E, la, as[na], mf_enc_not(E, mf_enc_and(E, 3, parts)));
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

int mf_def_search(mf_batch *B, int j, int from, int cap, mf_test **test,
                  char *why, size_t whyn)
{
    *test = NULL;
    why[0] = 0;
    if (!has_inputs(B->m))
        return def_noinput(B, j, from, test, why, whyn);
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    Z3_solver syn = mf_z3_solver(c, o, B->qfbv),
              ver = mf_z3_solver(c, o, B->qfbv);
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
    mf_copies bp = {.n = 2,
                    .from = {P, Q},
                    .enc = {E, EM},
                    .meta = {0, B->meta},
                    .tag = {"db", "dc"}};
    for (int d = from; d <= o->bound && !killed && !stop; d++) {
        mf_unroll_extend(O, d);
        mf_unroll_extend(P, d);
        mf_unroll_extend(Q, d);
        Z3_ast g = mf_z3_lit(E, "dg");
        for (;;) {
            if (++iters > cap || mf_z3_now() > B->deadline) {
                snprintf(why, whyn,
                         "definite refinement: iteration limit at length %d",
                         d);
                stop = 1;
                break;
            }
            Z3_ast as[2];
            int na = mf_batch_assume(B, j, as);
            as[na++] = g;
            char w[256];
            Z3_lbool r = mf_z3_check(c, syn, na, as, w, sizeof w);
            if (r == Z3_L_UNDEF) {
                snprintf(why, whyn, "%s", w);
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
            Z3_lbool r2 =
                pair_query(B, ver, vin, in, mdl, P, Q, d, nv, vs, w, sizeof w);
            if (r2 == Z3_L_UNDEF) {
                Z3_solver_pop(c, ver, 1);
                mf_z3_model_free(c, mdl);
                snprintf(why, whyn, "%s", w);
                stop = 1;
                break;
            }
            if (r2 == Z3_L_FALSE) {
                Z3_solver_pop(c, ver, 1);
                *test = mf_z3_test(E, mdl, in, O, NULL, d);
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
    return B->mu[j].xdlen > B->mu[j].killed_at ? B->mu[j].xdlen
                                               : B->mu[j].killed_at;
}

/* The definite upgrade of the potential kills of mf_pot_joint, for all of
 * them together, as mf_def_search does it for one: the synthesis solver
 * proposes inputs and one of the mutants (the assumption: one of their
 * selectors, each from its potential kill length on); the verifier looks
 * for an original and a behaviour of that mutant that agree; a pair found
 * blocks those inputs for every mutant (the mutant copy reads the
 * selector: where it accepts and agrees for another mutant, that mutant
 * has such a pair too). Upgraded, searched to the bound, or given up
 * within the sum of their budgets: MF_SEARCHED_DEFINITE. A potential test that
 * kills definitely as it is needs no search (mf_batch_upgrade_replay first).
 *
 * Only when at least a quarter of the batch is left to upgrade (and two):
 * the joint solvers carry every mutant's sites, so a few mutants of a
 * large batch are upgraded faster one by one, each with an encoder of its
 * own (the driver's decide_alone; docs/killing.md). */
#define JOINT_DEF_SHARE 4

/* The potential kills of a joint search (searched MF_SEARCHED_POTENTIAL)
 * that the explorer, their own test as a definite one, or the reversed
 * lock-step do not settle, marked (the caller frees the marks). */
static int *upgrade_candidates(mf_batch *B)
{
    int n = B->nmut;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    for (int j = 0; j < n; j++) {
        mf_verdict *v = B->mu[j].v;
        if (B->mu[j].searched != MF_SEARCHED_POTENTIAL ||
            v->kind != MF_V_KILLED || v->notion != MF_N_POTENTIAL)
            continue;
        /* The explorer first: its definite exploration costs less than the
         * replay of the potential test as a definite one. */
        if (mf_explicit_no_definite(B, j) ||
            mf_batch_upgrade_replay(B, j, v->test)) {
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            continue;
        }
        live[j] = 1;
    }
    if (mf_batch_nmarked(B, live) >= 2 && B->o->prove)
        mf_lock_no_definite(B, live);
    return live;
}

/* Without inputs: one agreement solver for all the mutants marked. */
static void joint_noinput(mf_batch *B, const int *live)
{
    agreeq A;
    agreeq_open(B, &A);
    for (int j = 0; j < B->nmut; j++) {
        char why[256];
        mf_test *t = NULL;
        if (!live[j])
            continue;
        if (agreeq_kill(B, &A, j, mf_def_from(B, j), &t, why, sizeof why) >= 0)
            /* the upgrade or none up to the bound */
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
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
}

/* The joint refinement's solvers, copies and marks. */
typedef struct {
    mf_batch_pair sx; /* synthesis: O (its m unused) */
    mf_batch_pair vx; /* verifier: P, Q */
    mf_copies bp;     /* pair copies, blocking for every mutant */
    int *live;        /* still to upgrade */
    int *own;         /* per mutant: the copy last found for it, -1 none,
                         -2 its lookahead was tried */
    int *upto;        /* per mutant: the lengths its lookahead refuted (it
                         sits out the search up to there), -1 none */
    int iters, cap;
    int gave_at; /* the length at which the search gave up, -1 none */
} def_joint_ctx;

/* Length d refuted for all of the mutants of now_live: each one's own
 * copy, its last step repeated, may refute the lengths after d too
 * (def_lookahead; once per mutant, as mf_def_search). A mutant refuted to
 * the bound is done. */
static void joint_lookahead(mf_batch *B, def_joint_ctx *R, const int *now_live,
                            int d)
{
    for (int j = 0; j < B->nmut; j++) {
        if (!now_live[j] || R->own[j] < 0 || R->bp.v.v[R->own[j]].depth < d)
            continue;
        int D = def_lookahead(B, j, &R->bp, &R->bp.v.v[R->own[j]], d);
        R->own[j] = -2; /* looked */
        if (D >= B->o->bound) {
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            R->live[j] = 0;
        } else if (D > d) {
            R->upto[j] = D;
        }
    }
}

/* No pair agrees on the inputs of mdl (consumed): a definite kill of q at
 * d, a shortest one for every mutant still here that it kills. */
static void joint_kill(mf_batch *B, def_joint_ctx *R, int *now_live, int q,
                       int d, Z3_model mdl)
{
    mf_test *t = mf_z3_test(B->E, mdl, R->sx.in, R->sx.o, NULL, d);
    mf_z3_model_free(B->c, mdl);
    mf_batch_upgrade_replay(B, q, t);
    B->mu[q].searched = MF_SEARCHED_DEFINITE;
    for (int j = 0; j < B->nmut; j++)
        if (now_live[j] && j != q)
            mf_batch_upgrade_replay(B, j, t);
    mf_test_free(t);
    for (int j = 0; j < B->nmut; j++)
        if (B->mu[j].searched == MF_SEARCHED_DEFINITE)
            R->live[j] = now_live[j] = 0;
}

/* Length d for the mutants whose search has reached it: synthesis
 * proposes inputs and one of them, the verifier looks for an agreeing
 * pair of that mutant's, until d is refuted for all (or the search gives
 * up). */
static void joint_def_length(mf_batch *B, def_joint_ctx *R, int d)
{
    Z3_context c = B->c;
    int n = B->nmut;
    Z3_solver syn = R->sx.s, ver = R->vx.s;
    mf_unroll *P = R->vx.o, *Q = R->vx.m;
    mf_unroll_extend(R->sx.o, d);
    mf_unroll_extend(P, d);
    mf_unroll_extend(Q, d);
    int *now_live = mf_xcalloc((size_t)n, sizeof *now_live);
    for (int j = 0; j < n; j++)
        now_live[j] = R->live[j] && mf_def_from(B, j) <= d && R->upto[j] < d;
    Z3_ast g = mf_z3_lit(B->E, "ug");
    Z3_ast pick = mf_batch_pick(B, syn, now_live);
    while (mf_batch_nmarked(B, now_live)) {
        char why[256];
        Z3_lbool r = mf_batch_joint_query(B, syn, pick, g, &R->iters, R->cap);
        if (r == Z3_L_UNDEF) {
            R->gave_at = d;
            break;
        }
        if (r == Z3_L_FALSE) {
            mf_copies_lemma(&R->bp, syn, NULL, d, NULL, 1, &pick);
            joint_lookahead(B, R, now_live, d);
            break;
        }
        Z3_model mdl = mf_z3_model(c, syn);
        int q = mf_batch_picked(B, mdl, now_live);
        if (q < 0) {
            mf_z3_model_free(c, mdl);
            R->gave_at = d;
            break;
        }
        Z3_ast vs[1] = {mf_enc_sel(B->EM, q)};
        Z3_lbool r2 = pair_query(B, ver, R->vx.in, R->sx.in, mdl, P, Q, d, 1,
                                 vs, why, sizeof why);
        if (r2 == Z3_L_UNDEF) {
            Z3_solver_pop(c, ver, 1);
            mf_z3_model_free(c, mdl);
            R->gave_at = d;
            break;
        }
        if (r2 == Z3_L_FALSE) {
            Z3_solver_pop(c, ver, 1);
            joint_kill(B, R, now_live, q, d, mdl);
            if (mf_batch_nmarked(B, now_live))
                pick = mf_batch_pick(B, syn, now_live);
            continue;
        }
        int b = mf_copies_found(&R->bp, syn, ver, R->sx.in, NULL, g, d, mdl);
        if (R->own[q] != -2)
            R->own[q] = b;
    }
    free(now_live);
}

/* The joint definite refinement of the `left` mutants marked in live, from
 * length lo on. */
static void joint_refine(mf_batch *B, int *live, int lo, int left)
{
    mf_enc *E = B->E, *EM = B->EM;
    int n = B->nmut;
    def_joint_ctx R = {0};
    R.live = live;
    mf_batch_pair_open(&R.sx, B, E, EM, 1, 1, "u");
    mf_batch_pair_open(&R.vx, B, E, EM, 1, 0, "v");
    R.bp = (mf_copies){.n = 2,
                       .from = {R.vx.o, R.vx.m},
                       .enc = {E, EM},
                       .meta = {0, 1},
                       .tag = {"ub", "uc"}};
    double saved_wall = mf_z3_deadline();
    mf_z3_set_deadline(0);
    B->deadline = mf_batch_joint_deadline(B, left, 1.0 / 3);
    R.cap = (B->o->cegis_max / 10) * left;
    R.gave_at = -1;
    R.own = mf_xmalloc(sizeof *R.own * (size_t)n);
    R.upto = mf_xmalloc(sizeof *R.upto * (size_t)n);
    for (int j = 0; j < n; j++)
        R.own[j] = R.upto[j] = -1;
    for (int d = lo;
         d <= B->o->bound && mf_batch_nmarked(B, live) && R.gave_at < 0; d++)
        joint_def_length(B, &R, d);
    /* The rest: no definite kill up to the bound, or none within the sum
     * of their budgets (their own searches would not do better; the
     * method says where it gave up). */
    for (int j = 0; j < n; j++)
        if (live[j]) {
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            if (R.gave_at >= 0)
                snprintf(B->mu[j].v->method, sizeof B->mu[j].v->method,
                         "upgrade gave up at length %d", R.gave_at);
        }
    free(R.own);
    free(R.upto);
    mf_z3_set_deadline(saved_wall);
    mf_copies_free(&R.bp);
    mf_batch_pair_close(&R.sx, B);
    mf_batch_pair_close(&R.vx, B);
}

void mf_def_joint(mf_batch *B)
{
    int n = B->nmut, lo = B->o->bound + 1;
    int *live = upgrade_candidates(B);
    for (int j = 0; j < n; j++)
        if (live[j] && mf_def_from(B, j) < lo)
            lo = mf_def_from(B, j);
    int left = mf_batch_nmarked(B, live);
    if (left >= 2 && JOINT_DEF_SHARE * left >= n && lo >= 0) {
        if (!has_inputs(B->m))
            joint_noinput(B, live);
        else
            joint_refine(B, live, lo, left);
    }
    free(live);
}
