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
#include "coi.h"
#include "definite.h"
#include "det.h"
#include "explicit.h"
#include "lockstep.h"
#include "portfolio.h"
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
    o->explicit_max = -1;
    o->explicit_mb = 512;
}

/* The refinement's deadline: secs from now, within the mutant's wall
 * budget. */
static void set_deadline(mf_batch *B, double secs)
{
    B->deadline = mf_z3_now() + secs;
    if (mf_z3_deadline() > 0 && B->deadline > mf_z3_deadline())
        B->deadline = mf_z3_deadline();
}

/* Proofs before the refinement of non-deterministic mutant j, which is
 * costly where nothing kills: the exact explicit exploration first where
 * products are small; lock-step first where a joint search left j and the
 * batch's products are past the explorer's limit (a second or two, where
 * an exploration runs seconds to the limit). With learnt steps the
 * refinement is cheap: lock-step waits for the mutants it leaves (*late).
 * Returns 1 if j is decided. */
static int proofs_first(mf_batch *B, int j, int *late)
{
    const mf_engine_opts *o = B->o;
    if (!o->prove || o->notion == MF_REQ_DEFINITE || !B->mu[j].todo)
        return 0;
    if (B->mu[j].searched && B->xbig && o->engine == MF_ENGINE_CEGIS) {
        mf_prove(B, j, 0);
        if (B->mu[j].todo)
            mf_explicit_proof(B, j);
        return !B->mu[j].todo;
    }
    int x = mf_explicit_proof(B, j);
    if (x == 1)
        return 1;
    if (x < 0 && B->lib && o->engine == MF_ENGINE_CEGIS)
        *late = 1;
    else if (x < 0) {
        mf_prove(B, j, 0);
        return !B->mu[j].todo;
    }
    return 0;
}

/* The paper's quantified encoding (quant.c), to compare: j killed,
 * unknown, or left undecided. */
static void decide_quantified(mf_batch *B, int j)
{
    char why[256] = "";
    mf_test *t = NULL;
    int def = B->o->notion == MF_REQ_DEFINITE;
    int r = mf_quant_search(B->E, B->EM, B->meta, j, B->o, def, 0, &t, why,
                            sizeof why);
    if (r == 1)
        mf_batch_kill(B, j, t, def ? MF_N_DEFINITE : MF_N_POTENTIAL);
    else if (r < 0)
        mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
}

/* The definite upgrade of j's kill (--notion auto), cheap first: the
 * explorer's shortest definite kill, or none up to the bound; else the
 * potential test itself may kill definitely (then it is a shortest
 * definite kill: none is shorter than the shortest potential one); else
 * the reversed lock-step may show there is none; else a definite search
 * within a tenth of the refinement budget, whose kill counts only if the
 * replay confirms it. Where the search gives up, the method says where. */
static void upgrade(mf_batch *B, int j)
{
    mf_verdict *v = B->mu[j].v;
    if (v->notion == MF_N_POTENTIAL && (mf_explicit_no_definite(B, j) ||
                                        mf_batch_upgrade_replay(B, j, v->test)))
        return;
    if (B->o->prove) {
        int *one = mf_xcalloc((size_t)B->nmut, sizeof *one);
        one[j] = 1;
        mf_lock_no_definite(B, one);
        int left = one[j];
        free(one);
        if (!left)
            return;
    }
    mf_test *t = NULL;
    char why[512];
    if (mf_def_search(B, j, mf_def_from(B, j), B->o->cegis_max / 10, &t, why,
                      sizeof why)) {
        if (mf_engine_replay(B->m, B->mu[j].model, t, MF_N_DEFINITE) == 0)
            mf_batch_settle(B, j, MF_V_KILLED, MF_N_DEFINITE, t, NULL);
        else
            mf_test_free(t);
    } else if (why[0]) {
        const char *w = why; /* "definite refinement: ..." */
        if (strncmp(w, "definite ", 9) == 0)
            w += 9;
        snprintf(v->method, sizeof v->method, "upgrade gave up: %.46s", w);
    }
}

/* --notion definite, non-deterministic mutant j: the explorer first, as
 * --method explicit decides it, where the product is within its limit:
 * its proof (not killable: equivalent), then its shortest definite kill
 * (the subset construction over the states of that product), or none up
 * to the bound (survived). Returns 1 if j is decided; else the definite
 * refinement follows. */
static int definite_explicit(mf_batch *B, int j)
{
    if (!B->o->prove)
        return 0;
    if (mf_explicit_proof(B, j) == 1 || !B->mu[j].todo)
        return 1;
    if (B->mu[j].xlen < 0 || !mf_explicit_no_definite(B, j))
        return 0;
    if (B->mu[j].todo) {
        char why[sizeof B->mu[j].v->method];
        snprintf(why, sizeof why, "%s", B->mu[j].v->method);
        mf_batch_settle(B, j, MF_V_SURVIVED, 0, NULL, "%s", why);
    }
    return 1;
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
    int late = 0;
    if (proofs_first(B, j, &late))
        return;
    if (B->o->engine == MF_ENGINE_QUANTIFIED) {
        decide_quantified(B, j);
        return;
    }
    set_deadline(B, B->o->timeout_ms / 1000.0);
    if (B->o->notion == MF_REQ_DEFINITE) {
        if (definite_explicit(B, j))
            return;
        mf_test *t = NULL;
        char why[512];
        if (mf_def_search(B, j, 0, B->o->cegis_max, &t, why, sizeof why))
            mf_batch_kill(B, j, t, MF_N_DEFINITE);
        else if (why[0])
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
        return;
    }
    if (!B->mu[j].searched)
        mf_pot_search(B, j);
    if (late && B->mu[j].todo) {
        mf_prove(B, j, det);
        if (!B->mu[j].todo)
            return;
    }
    set_deadline(B, B->o->timeout_ms / 3000.0);
    if (v->kind == MF_V_KILLED && B->o->notion == MF_REQ_AUTO)
        upgrade(B, j);
}

/* Mutants start..start+k-1 of B as a batch of their own, with an encoder
 * of their sites only (the caller frees it). */
static mf_batch sub_batch(const mf_batch *B, int start, int k)
{
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
    return S;
}

/* Mutant j alone, within its wall budget: a batch of one with its own
 * encoder, so that its solvers do not carry every other mutant's sites. */
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
    mf_batch S = sub_batch(B, j, 1);
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
        mf_batch S = sub_batch(B, start, k);
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
 * bound), a group at a time in one set of solvers per step kind, rather
 * than each alone with the reachable states encoded for each. Each
 * mutant's checks within the solver timeout. */
static void proof_group(mf_batch *S, const int *det, const char *unsup)
{
    (void)unsup;
    int n = S->nmut;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    /* Where products are small the explorer goes first (decide_one). */
    for (int j = 0; j < n; j++)
        live[j] =
            S->mu[j].todo && !S->mu[j].lsdone &&
            mf_batch_may_be_equivalent(S, j) &&
            (det[j] || (S->mu[j].searched && (S->xbig || S->mu[j].xdone)));
    if (mf_batch_nmarked(S, live) >= 2)
        mf_lock_prove(S, live);
    free(live);
}

/* The tests of the batch's kills replayed on non-deterministic mutant j
 * (cheap first): definite and deterministic ones as definite kills (a
 * definite replay also holds for deterministic pairs), then potential
 * ones, which carry the deviating behaviour of their mutant: they kill j
 * too if j has that behaviour. */
static void replay_batch_tests(mf_batch *B, int j)
{
    int n = B->nmut;
    for (int t = 0; t < n && B->mu[j].todo; t++)
        if (t != j && B->mu[t].v->kind == MF_V_KILLED && B->mu[t].v->test &&
            B->mu[t].v->notion != MF_N_POTENTIAL)
            mf_batch_replay_kill(B, j, B->mu[t].v->test, MF_N_DEFINITE, 0);
    for (int t = 0; t < n && B->mu[j].todo && B->o->notion != MF_REQ_DEFINITE;
         t++)
        if (t != j && B->mu[t].v->kind == MF_V_KILLED && B->mu[t].v->test &&
            B->mu[t].v->notion == MF_N_POTENTIAL)
            mf_batch_replay_kill(B, j, B->mu[t].v->test, MF_N_POTENTIAL, 0);
}

/* The construct the batch's encoders could not encode, if any. */
static const char *batch_unsupported(const mf_batch *B)
{
    const char *u = mf_enc_unsupported(B->E);
    return u ? u : B->EM != B->E ? mf_enc_unsupported(B->EM) : NULL;
}

/* Mutant j not killed where the batch's encoding met a construct it does
 * not support: an error, with that construct. */
static void unsupported_error(mf_batch *B, int j, const char *u)
{
    if (u && B->mu[j].v->kind != MF_V_KILLED)
        mf_batch_settle(B, j, MF_V_ERROR, 0, NULL, "%s", u);
}

/* Mutant j's verdict is final: told to the caller (engine.h), once. */
static void tell(mf_batch *B, int j, char *told)
{
    if (told[j])
        return;
    told[j] = 1;
    if (B->o->decided)
        B->o->decided(B->o->decided_ctx, B->mu[j].v);
}

/* told[j]: mutant j's verdict final and told (the caller's array). Each
 * mutant is told as the one-at-a-time loop leaves it: its own searches
 * are then over, and the batch's encoders, which that loop no longer
 * extends, have met whatever construct they will meet for it. */
static void run_batch(mf_batch *B, char *told)
{
    int n = B->nmut;
    int *det = mf_xcalloc((size_t)(n ? n : 1), sizeof *det);
    for (int j = 0; j < n; j++) {
        det[j] = B->mu[j].v->orig_det && B->mu[j].v->mut_det;
        /* Before any search: nothing observed reads the changed item. */
        if (B->o->prove && B->meta &&
            mf_coi_irrelevant(B->m, B->mu[j].model, B->mu[j].mut->item))
            mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL,
                            "cone-of-influence");
    }
    /* The method chosen for the batch first (portfolio.c); then the
     * deterministic mutants it left: one incremental solver, depth by
     * depth. */
    int *search = mf_xcalloc((size_t)(n ? n : 1), sizeof *search);
    for (int j = 0; j < n; j++)
        search[j] = det[j] && B->mu[j].todo;
    int done = mf_portfolio_first(B, det, search);
    if (!done)
        mf_det_search(B, search);
    free(search);
    if (done) {
        free(det);
        return;
    }
    /* The others, with learnt steps: one potential search for all. */
    if (B->lib && B->meta && B->o->engine == MF_ENGINE_CEGIS &&
        B->o->notion != MF_REQ_DEFINITE) {
        /* Small products first: the explorer decides the equivalent
         * mutants at once, which would otherwise ride the joint search to
         * the bound; until one product is past its limit (the model's are
         * large: the rest wait for the mutants the search leaves). */
        for (int j = 0; j < n && B->o->prove; j++)
            if (B->mu[j].todo && !det[j] && mf_explicit_proof(B, j) < 0)
                break;
        each_group(B, det, search_group);
    }
    if (B->meta && B->o->prove && B->o->engine == MF_ENGINE_CEGIS)
        each_group(B, det, proof_group);
    /* The others, and the proofs: one at a time. */
    for (int j = 0; j < n; j++) {
        /* A kill of the joint search still tries the definite upgrade. */
        int upgrade = B->mu[j].searched == MF_SEARCHED_POTENTIAL &&
                      B->mu[j].v->kind == MF_V_KILLED &&
                      B->mu[j].v->notion == MF_N_POTENTIAL &&
                      B->o->notion == MF_REQ_AUTO;
        if (B->mu[j].todo || upgrade) {
            if (!det[j])
                replay_batch_tests(B, j);
            if (B->mu[j].todo || upgrade)
                decide_alone(B, j, det[j]);
        }
        unsupported_error(B, j, batch_unsupported(B));
        mf_batch_unfinished_one(B, j);
        tell(B, j, told);
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
    if (o->prove && o->explicit_max != 0)
        B.xctx = mf_explicit_ctx_new(m, o);
    B.nmut = nmut;
    B.o = o;
    B.mu = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *B.mu);
    int orig_det = mf_model_structurally_det(m);
    for (int j = 0; j < nmut; j++)
        mf_batch_mut_open(&B.mu[j], &muts[j], other ? other : muts[j].mutated,
                          &out[j], o, orig_det);
    mf_reach rs = {0};
    B.rs = &rs;
    mf_steplib lib;
    mf_steplib_init(&lib);
    if (mf_steps_obs_fix_state(m))
        B.lib = &lib;
    double t0 = mf_z3_now();
    mf_replay_memo *memo = mf_replay_memo_new(m);
    char *told = mf_xcalloc((size_t)(nmut ? nmut : 1), 1);
    run_batch(&B, told);
    mf_batch_unfinished(&B);
    for (int j = 0; j < nmut; j++)
        tell(&B, j, told);
    free(told);
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

int mf_engine_check(const mf_model *m, const mf_engine_mutant *muts, int nmut,
                    const mf_engine_opts *o, mf_verdict *out)
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
            x->is_input != y->is_input || x->is_observable != y->is_observable)
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
