/* engine.c - deciding mutants with Z3, the driver (engine.h,
 * docs/killing.md): a batch's deterministic search first, then the joint
 * searches and proofs of its non-deterministic mutants, then each mutant
 * left alone, the cheap methods before the dear ones. The methods are in
 * their own files (det.c, potential.c, refusal.c, definite.c,
 * lockstep.c, prove.c, explicit.c, quant.c); every verdict is decided
 * through batch.c, every kill replayed by the simulator (replay.c) first.
 * This file builds no formula itself. */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "definite.h"
#include "det.h"
#include "explicit.h"
#include "lockstep.h"
#include "potential.h"
#include "prove.h"
#include "quant.h"
#include "replay.h"
#include "steps.h"
#include "z3util.h"

void mf_engine_opts_default(mf_engine_opts *o)
{
    memset(o, 0, sizeof *o);
    o->bound = 20;
    o->notion = MF_REQ_AUTO;
    o->engine = MF_ENGINE_CEGIS;
    o->mode = MF_MODE_BATCH;
    o->timeout_ms = 10000;
    o->mutant_ms = 30000;
    o->rlimit = 0;
    o->prove = 1;
    o->cegis_max = 400;
    o->explicit_max = 20000;
}

/* The refinement and proof work of one mutant (its determinism decided,
 * the batch's deterministic search done). */
static void decide_one(mf_batch *B, int j, int det)
{
    mf_verdict *v = B->mu[j].v;
    if (det) {
        /* Lock-step first: one or two solver calls prove most. */
        if (B->o->prove) {
            mf_prove(B, j, det);
            if (B->mu[j].todo)
                mf_explicit_proof(B, j);
        }
        return;
    }
    /* Refinement is costly where nothing kills: proofs first, the exact
     * explicit exploration first where products are small. With learnt
     * steps the refinement is cheap: lock-step waits for the mutants it
     * leaves. */
    int late = 0;
    if (B->o->prove && B->o->notion != MF_REQ_DEFINITE && B->mu[j].todo &&
        B->mu[j].searched && B->xbig && B->o->engine == MF_ENGINE_CEGIS) {
        /* The joint search left it, and the batch's products are past the
         * explorer's limit: lock-step (a second or two) first. gigamax, 40
         * sampled: 10 explorations to the limit, 2.5 s each, saved. */
        mf_prove(B, j, det);
        if (B->mu[j].todo)
            mf_explicit_proof(B, j);
        if (!B->mu[j].todo)
            return;
    } else if (B->o->prove && B->o->notion != MF_REQ_DEFINITE &&
               B->mu[j].todo) {
        int x = mf_explicit_proof(B, j);
        if (x == 1)
            return;
        if (x < 0 && B->lib && B->o->engine == MF_ENGINE_CEGIS)
            late = 1;
        else if (x < 0) {
            mf_prove(B, j, det);
            if (!B->mu[j].todo)
                return;
        }
    }
    if (B->o->engine == MF_ENGINE_QUANTIFIED) {
        /* The paper's quantified encoding (quant.c): to compare. */
        char why[256] = "";
        mf_test *t = NULL;
        int def = B->o->notion == MF_REQ_DEFINITE;
        int r = mf_quant_search(B->E, B->EM, B->meta, j, B->o, def, 0, &t,
                                why, sizeof why);
        if (r == 1)
            mf_batch_kill(B, j, t, def ? MF_N_DEFINITE : MF_N_POTENTIAL);
        else if (r < 0)
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
        return;
    }
    B->deadline = mf_z3_now() + B->o->timeout_ms / 1000.0;
    if (mf_z3_deadline() > 0 && B->deadline > mf_z3_deadline())
        B->deadline = mf_z3_deadline();
    if (B->o->notion != MF_REQ_DEFINITE) {
        if (!B->mu[j].searched)
            mf_pot_search(B, j);
        if (late && B->mu[j].todo) {
            mf_prove(B, j, det);
            if (!B->mu[j].todo)
                return;
        }
        B->deadline = mf_z3_now() + B->o->timeout_ms / 3000.0;
        if (mf_z3_deadline() > 0 && B->deadline > mf_z3_deadline())
            B->deadline = mf_z3_deadline();
        if (v->kind == MF_V_KILLED && B->o->notion == MF_REQ_AUTO &&
            v->notion == MF_N_POTENTIAL) {
            /* Cheap first: the explorer's shortest definite kill, or none
             * up to the bound (mf_explicit_no_definite; dme1, 40 sampled at bound
             * 10: cheaper than the replays); else the potential test
             * itself may kill definitely (then it is a shortest definite
             * kill: none is shorter than the shortest potential one).
             * yyaan, 20 sampled mutants: 17 of 18 upgrades, 15 s ->
             * 11.5 s. */
            if (mf_explicit_no_definite(B, j) || mf_batch_upgrade_replay(B, j, v->test))
                return;
        }
        if (v->kind == MF_V_KILLED && B->o->notion == MF_REQ_AUTO &&
            B->o->prove) {
            int *one = mf_xcalloc((size_t)B->nmut, sizeof *one);
            one[j] = 1;
            mf_lock_no_definite(B, one);
            int left = one[j];
            free(one);
            if (!left)
                return;
        }
        if (v->kind == MF_V_KILLED && B->o->notion == MF_REQ_AUTO) {
            mf_verdict tmp = {0};
            if (mf_def_search(B, j, mf_def_from(B, j), B->o->cegis_max / 10,
                           &tmp)) {
                /* Upgrade only if the replay confirms it. */
                if (mf_engine_replay(B->m, B->mu[j].model, tmp.test,
                                     MF_N_DEFINITE) == 0)
                    mf_batch_settle(B, j, MF_V_KILLED, MF_N_DEFINITE,
                                    tmp.test, NULL);
                else
                    mf_test_free(tmp.test);
            } else if (tmp.reason[0]) {
                const char *why = tmp.reason; /* "definite refinement: ..." */
                if (strncmp(why, "definite ", 9) == 0)
                    why += 9;
                snprintf(v->method, sizeof v->method, "upgrade gave up: %.46s",
                         why);
            }
        }
    } else {
        mf_verdict tmp = {0};
        if (mf_def_search(B, j, 0, B->o->cegis_max, &tmp))
            mf_batch_kill(B, j, tmp.test, MF_N_DEFINITE);
        else if (tmp.reason[0])
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", tmp.reason);
    }
}

/* Mutant j alone: a batch of one with its own encoder, so that its
 * solvers do not carry every other mutant's sites. */
static void decide_alone(mf_batch *B, int j, int det)
{
    if (det && !B->o->prove)
        return; /* searched to the bound; nothing else to try */
    double t0 = mf_z3_now();
    mf_z3_set_wall_timeout(B->o->timeout_ms);
    mf_z3_set_deadline(B->o->mutant_ms ? t0 + B->o->mutant_ms / 1000.0 : 0);
    if (!B->meta || B->nmut == 1) {
        decide_one(B, j, det);
        mf_z3_set_deadline(0);
        return;
    }
    mf_variant v = {B->mu[j].mut->item, B->mu[j].mut->repl};
    mf_batch S = *B;
    S.E = S.EM = mf_enc_new(B->c, B->m, &v, 1, NULL, B->o->encoding);
    S.qfbv = mf_enc_bits(S.E) > 0;
    S.nmut = 1;
    S.mu = &B->mu[j];
    decide_one(&S, 0, det);
    const char *u = mf_enc_unsupported(S.E);
    if (u && B->mu[j].v->kind != MF_V_KILLED)
        mf_batch_settle(B, j, MF_V_ERROR, 0, NULL, "%s", u);
    B->deadline = S.deadline;
    B->xbig = S.xbig;
    mf_enc_free(S.E);
    mf_z3_set_deadline(0);
}

/* The joint searches over at most JOINT_MAX mutants at a time, each group
 * with an encoder of its own sites (as the farm's jobs are, job_max 64):
 * one conditional mutant over every site of `check --all` on a large model
 * (over a thousand) would make every query carry all of them. A group
 * whose encoder meets a construct it cannot encode faithfully leaves its
 * undecided mutants to their own searches, which report it. */
#define JOINT_MAX 64

/* fn on each group of at most JOINT_MAX mutants of B (all of B if it is
 * one), as a batch of its own with an encoder of the group's sites; with
 * that encoder's unsupported construct, if any. */
typedef void group_fn(mf_batch *S, const int *det, const char *unsup);

static void each_group(mf_batch *B, const int *det, group_fn *fn)
{
    if (B->nmut <= JOINT_MAX) {
        fn(B, det, NULL);
        return;
    }
    for (int start = 0; start < B->nmut; start += JOINT_MAX) {
        int k = B->nmut - start < JOINT_MAX ? B->nmut - start : JOINT_MAX;
        mf_variant *vs = mf_xcalloc((size_t)k, sizeof *vs);
        for (int q = 0; q < k; q++) {
            vs[q].item = B->mu[start + q].mut->item;
            vs[q].repl = B->mu[start + q].mut->repl;
        }
        mf_batch S = *B;
        S.E = S.EM = mf_enc_new(B->c, B->m, vs, k, NULL, B->o->encoding);
        free(vs);
        S.qfbv = mf_enc_bits(S.E) > 0;
        S.nmut = k;
        S.mu = B->mu + start;
        fn(&S, det + start, "");
        B->xbig |= S.xbig;
        mf_enc_free(S.E);
    }
}

static void search_group(mf_batch *S, const int *det, const char *unsup)
{
    mf_pot_joint(S, det);
    if (S->o->notion == MF_REQ_AUTO)
        mf_def_joint(S);
    if (unsup && mf_enc_unsupported(S->E))
        for (int q = 0; q < S->nmut; q++)
            if (S->mu[q].v->kind != MF_V_KILLED)
                S->mu[q].searched = MF_SEARCHED_NONE;
}

/* Lock-step for the mutants the batch's searches left (searched to the
 * bound), a group at a time in one set of solvers per step kind (lockq):
 * gigamax, 40 sampled, 10 such mutants: 1.5 s each alone, the reachable
 * states (8872) encoded for each. Each mutant's checks within the solver
 * timeout. */
static void proof_group(mf_batch *S, const int *det, const char *unsup)
{
    (void)unsup;
    int n = S->nmut;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    /* Where products are small the explorer goes first (decide_one). */
    for (int j = 0; j < n; j++)
        live[j] = S->mu[j].todo && !S->mu[j].lsdone && mf_batch_may_be_equivalent(S, j) &&
                  (det[j] || (S->mu[j].searched && (S->xbig || S->mu[j].xdone)));
    if (mf_batch_nmarked(S, live) >= 2)
        mf_lock_prove(S, live);
    free(live);
}

static void run_batch(mf_batch *B)
{
    int n = B->nmut;
    int *det = mf_xcalloc((size_t)(n ? n : 1), sizeof *det);
    for (int j = 0; j < n; j++)
        det[j] = B->mu[j].v->orig_det && B->mu[j].v->mut_det;
    /* Deterministic mutants: one incremental solver, depth by depth. */
    mf_det_search(B, det);
    /* The others, with learnt steps: one potential search for all. */
    if (B->lib && B->meta && B->o->engine == MF_ENGINE_CEGIS &&
        B->o->notion != MF_REQ_DEFINITE) {
        /* Small products first: the explorer decides the equivalent
         * mutants at once, which would otherwise ride the joint search to
         * the bound; until one product is past its limit (the model's are
         * large: the rest wait for the mutants the search leaves).
         * Collision_RFID, 40 sampled at bound 10: 9 equivalents. */
        for (int j = 0; j < n && B->o->prove; j++)
            if (B->mu[j].todo && !det[j] && mf_explicit_proof(B, j) < 0)
                break;
        each_group(B, det, search_group);
    }
    if (B->meta && B->o->prove && B->o->engine == MF_ENGINE_CEGIS)
        each_group(B, det, proof_group);
    /* The others, and the proofs: one at a time, tests of the batch
     * replayed first (a definite replay also holds for deterministic
     * pairs). */
    for (int j = 0; j < n; j++) {
        /* A kill of the joint search still tries the definite upgrade. */
        int upgrade = B->mu[j].searched == MF_SEARCHED_POTENTIAL && B->mu[j].v->kind == MF_V_KILLED &&
                      B->mu[j].v->notion == MF_N_POTENTIAL &&
                      B->o->notion == MF_REQ_AUTO;
        if (!B->mu[j].todo && !upgrade)
            continue;
        if (!det[j]) {
            for (int t = 0; t < n && B->mu[j].todo; t++)
                if (t != j && B->mu[t].v->kind == MF_V_KILLED &&
                    B->mu[t].v->test && B->mu[t].v->notion != MF_N_POTENTIAL)
                    mf_batch_replay_kill(B, j, B->mu[t].v->test, MF_N_DEFINITE, 0);
            /* A potential kill carries the deviating behaviour of its
             * mutant: it kills j too if j has that behaviour. */
            for (int t = 0; t < n && B->mu[j].todo &&
                            B->o->notion != MF_REQ_DEFINITE; t++)
                if (t != j && B->mu[t].v->kind == MF_V_KILLED &&
                    B->mu[t].v->test && B->mu[t].v->notion == MF_N_POTENTIAL)
                    mf_batch_replay_kill(B, j, B->mu[t].v->test, MF_N_POTENTIAL, 0);
        }
        if (B->mu[j].todo || upgrade)
            decide_alone(B, j, det[j]);
    }
    const char *u1 = mf_enc_unsupported(B->E);
    const char *u2 = B->EM != B->E ? mf_enc_unsupported(B->EM) : NULL;
    if (u1 || u2) {
        for (int j = 0; j < n; j++)
            if (B->mu[j].v->kind != MF_V_KILLED)
                mf_batch_settle(B, j, MF_V_ERROR, 0, NULL, "%s",
                                u1 ? u1 : u2);
    }
    free(det);
}

static int check_batch(const mf_model *m, const mf_model *other,
                       const mf_engine_mutant *muts, int nmut,
                       const mf_engine_opts *o, mf_verdict *out)
{
    Z3_context c = mf_z3_context();
    mf_variant *vs = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *vs);
    for (int j = 0; j < nmut; j++) {
        vs[j].item = muts[j].item;
        vs[j].repl = muts[j].repl;
    }
    mf_batch B = {0};
    B.c = c;
    B.m = m;
    B.E = mf_enc_new(c, m, other ? NULL : vs, other ? 0 : nmut, other,
                     o->encoding);
    B.EM = other ? mf_enc_new(c, other, NULL, 0, m, o->encoding) : B.E;
    B.meta = !other;
    B.qfbv = mf_enc_bits(B.E) > 0;
    if (o->prove && o->explicit_max > 0)
        B.xctx = mf_explore_ctx_new(m);
    B.nmut = nmut;
    B.o = o;
    B.mu = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *B.mu);
    int orig_det = mf_model_structurally_det(m);
    for (int j = 0; j < nmut; j++)
        mf_batch_mut_open(&B.mu[j], &muts[j], other ? other : muts[j].mutated,
                          &out[j], o, orig_det);
    mf_reach rs = {0};
    B.rs = &rs;
    mf_steplib lib = MF_STEPLIB_INIT;
    if (mf_steps_obs_fix_state(m))
        B.lib = &lib;
    double t0 = mf_z3_now();
    mf_replay_memo *memo = mf_replay_memo_new(m);
    run_batch(&B);
    mf_replay_memo_free(memo);
    mf_steplib_free(&lib);
    MF_VEC_FREE(rs.st);
    double dt = mf_z3_now() - t0;
    for (int j = 0; j < nmut; j++)
        out[j].secs = dt / (nmut ? nmut : 1);
    mf_explore_ctx_free(B.xctx);
    if (B.EM != B.E)
        mf_enc_free(B.EM);
    mf_enc_free(B.E);
    free(B.mu);
    free(vs);
    Z3_del_context(c);
    return 0;
}

int mf_engine_check(const mf_model *m, const mf_engine_mutant *muts,
                    int nmut, const mf_engine_opts *o, mf_verdict *out)
{
    if (o->mode == MF_MODE_FRESH) {
        for (int j = 0; j < nmut; j++) {
            double t0 = mf_z3_now();
            check_batch(m, NULL, &muts[j], 1, o, &out[j]);
            out[j].secs = mf_z3_now() - t0;
        }
        return 0;
    }
    return check_batch(m, NULL, muts, nmut, o, out);
}

static int same_layout(const mf_model *a, const mf_model *b)
{
    if (a->nvars != b->nvars || a->nslots != b->nslots)
        return 0;
    for (int i = 0; i < a->nvars; i++) {
        const mf_var *x = &a->vars[i], *y = &b->vars[i];
        if (strcmp(x->name, y->name) || x->decl != y->decl ||
            x->slot != y->slot || x->nslots != y->nslots ||
            x->is_input != y->is_input ||
            x->is_observable != y->is_observable)
            return 0;
    }
    if (a->nsyms != b->nsyms)
        return 0;
    for (int i = 0; i < a->nsyms; i++)
        if (strcmp(a->syms[i], b->syms[i]))
            return 0;
    return a->nobs_defines == b->nobs_defines;
}

int mf_engine_check_against(const mf_model *m, const mf_model *other,
                            const mf_engine_opts *o, mf_verdict *out)
{
    if (!same_layout(m, other))
        return mf_err_set(MF_EUNSUPPORTED,
                          "--against needs the same variables (names, "
                          "types, order, inputs, observables) and the same "
                          "symbolic constants in the same order in both "
                          "models");
    mf_engine_mutant mu = {-1, NULL, other};
    return check_batch(m, other, &mu, 1, o, out);
}
