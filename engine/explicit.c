/* explicit.c - the explicit-state explorer's part in deciding mutants
 * (explicit.h): its proofs, and its shortest kills turned into tests (the
 * inputs it found, an original run over them for the expected
 * observables, replayed like every test). It runs no solver. */
#include "explicit.h"

#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "z3util.h"

/* Kills of this process that took the explorer's test: potential,
 * definite (mf_engine_explorer_tests). */
static _Atomic long explorer_tests[2];

long mf_engine_explorer_tests(mf_notion notion)
{
    return explorer_tests[notion != MF_N_POTENTIAL];
}

/* The explorer's kill of mutant j as a test: its inputs, an original run
 * over them (mf_replay_fill_expect), for a potential kill the mutant's
 * behaviour (or its refusal of the last input). Only if the replay confirms the
 * notion; else NULL, and the solver searches from the explorer's length as
 * before. No solver call: the explorer knows the shortest kill already.
 * With the quantified engine (to compare), none. */
static mf_test *explorer_test(mf_batch *B, int j, const mf_explore_notion *nt,
                              mf_notion notion)
{
    const mf_input_seq *s = nt->test;
    int n = B->m->nslots, nobs = mf_enc_nobs(B->E), len = nt->length;
    if (!s || s->nsteps != len || (notion == MF_N_POTENTIAL && !nt->mobs) ||
        B->o->engine != MF_ENGINE_CEGIS)
        return NULL;
    mf_test *t = mf_test_new(n, nobs, len);
    memcpy(t->inputs, s->init, sizeof *t->inputs * (size_t)n);
    memcpy(t->inputs + n, s->steps, sizeof *t->inputs * (size_t)n * len);
    if (notion == MF_N_POTENTIAL) {
        size_t sz = sizeof *t->mobs * (size_t)(len + 1) * (size_t)nobs;
        t->mobs = mf_xmalloc(sz ? sz : 1);
        memcpy(t->mobs, nt->mobs, sz);
    }
    if (nt->refusal && notion != MF_N_DEFINITE)
        t->mrefuses = len;
    if (mf_replay_fill_expect(B->m, t) != 0 ||
        mf_engine_replay(B->m, B->mu[j].model, t, notion) != 0) {
        mf_test_free(t);
        return NULL;
    }
    explorer_tests[notion != MF_N_POTENTIAL]++;
    return t;
}

/* The old fixed limit: without a memory budget, and for the products
 * of a batch once one was past the budget (a model's products are alike:
 * the others would run to the budget too, and fail as slowly). */
#define FIXED_MAX_STATES 20000L

mf_explore_ctx *mf_explicit_ctx_new(const mf_model *m,
                                    const mf_engine_opts *o)
{
    mf_explore_ctx *x = mf_explore_ctx_new(m);
    mf_explore_ctx_set_budget(x, (size_t)o->explicit_mb << 20, 0);
    return x;
}

/* The node count limit of an exploration (0: none, the budget decides),
 * and the clock: one exploration gets at most the solver's timeout. */
static long node_cap(mf_batch *B)
{
    const mf_engine_opts *o = B->o;
    mf_explore_ctx_set_budget(B->xctx, (size_t)o->explicit_mb << 20,
                              o->timeout_ms / 1000.0);
    if (o->explicit_max > 0)
        return o->explicit_max;
    return o->explicit_mb && !B->xbig ? 0 : FIXED_MAX_STATES;
}

/* 1 if a kill of length len counts: within the bound, or at any length
 * with --bound auto. */
static int within(const mf_batch *B, int len)
{
    return B->o->complete || len <= B->o->bound;
}

int mf_explicit_proof(mf_batch *B, int j)
{
    if (B->mu[j].xlen >= 0)
        return 0;
    if (!B->xctx || B->o->explicit_max == 0 || B->mu[j].xdone)
        return -1;
    B->mu[j].xdone = 1;
    mf_explore_result r;
    mf_explore_with(B->xctx, &r, B->mu[j].model, MF_EXPLORE_POTENTIAL,
                    node_cap(B), 0);
    int res = -1;
    if (r.potential.verdict == MF_XV_NOT_KILLABLE) {
        mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL,
                        "explicit-state product exploration (%ld states)",
                        r.potential.nodes);
        res = 1;
    } else if (r.potential.verdict == MF_XV_KILLED) {
        B->mu[j].xlen = r.potential.length;
        B->mu[j].xref = r.potential.refusal;
        res = 0;
        /* A deterministic pair's kill is a deterministic one. */
        mf_verdict *v = B->mu[j].v;
        mf_notion nn =
            v->orig_det && v->mut_det ? MF_N_DETERMINISTIC : MF_N_POTENTIAL;
        /* Asked for definite kills, a potential kill of a
         * non-deterministic pair is no answer: the definite search
         * (mf_explicit_no_definite, or the solver's) decides it. */
        int counts = nn == MF_N_DETERMINISTIC ||
                     B->o->notion != MF_REQ_DEFINITE;
        mf_test *t = counts && within(B, r.potential.length)
                         ? explorer_test(B, j, &r.potential, nn)
                         : NULL;
        if (t) {
            /* Killed, as the searches would have: a potential kill's
             * definite upgrade follows (MF_SEARCHED_POTENTIAL). */
            mf_batch_settle(B, j, MF_V_KILLED, nn, t, NULL);
            B->mu[j].killed_at = r.potential.length;
            B->mu[j].searched = MF_SEARCHED_POTENTIAL;
        }
        if (r.potential.length > B->o->bound && !t) {
            /* Else the solver would refute each length to the bound. */
            mf_batch_settle(B, j, MF_V_SURVIVED, 0, NULL,
                            "explicit-state exploration");
            B->mu[j].v->bound = B->o->bound;
            B->mu[j].v->kill_len_beyond = r.potential.length;
            res = 1;
        }
    } else if (r.potential.verdict == MF_XV_LIMIT)
        B->xbig = 1;
    mf_explore_result_free(&r);
    return res;
}

/* 1 if the explorer shows every behaviour of the original to be one of
 * mutant j's: then no test kills it definitely, at any length. Costs
 * about a potential exploration, where the definite one (the subset
 * construction over pairs) costs many (docs/killing.md). */
static int mutant_includes(mf_batch *B, int j)
{
    mf_explore_result r;
    mf_explore_with(B->xctx, &r, B->mu[j].model, MF_EXPLORE_INCLUDED,
                    node_cap(B), 0);
    int yes = r.included.verdict == MF_XV_NOT_KILLABLE;
    mf_explore_result_free(&r);
    return yes;
}

/* 1 if the explorer shows that every test has an original and a mutant
 * behaviour with the same observations (MF_EXPLORE_JOINT): no definite
 * kill of j at any length, for the price of a potential exploration. */
static int joint_behaviours(mf_batch *B, int j)
{
    mf_explore_result r;
    mf_explore_with(B->xctx, &r, B->mu[j].model, MF_EXPLORE_JOINT,
                    node_cap(B), 0);
    int yes = r.joint.verdict == MF_XV_NOT_KILLABLE;
    mf_explore_result_free(&r);
    return yes;
}

int mf_explicit_no_definite(mf_batch *B, int j)
{
    mf_verdict *v = B->mu[j].v;
    if (B->mu[j].xdlen == MF_XD_UNEXPLORED && B->mu[j].xlen >= 0 && B->xctx &&
        !B->xbig && mutant_includes(B, j)) {
        B->mu[j].xdlen = MF_XD_NONE;
        snprintf(v->method, sizeof v->method,
                 "no definite kill: the mutant has every original behaviour");
        return 1;
    }
    if (B->mu[j].xdlen == MF_XD_UNEXPLORED && B->mu[j].xlen >= 0 && B->xctx &&
        !B->xbig && joint_behaviours(B, j)) {
        B->mu[j].xdlen = MF_XD_NONE;
        snprintf(v->method, sizeof v->method,
                 "no definite kill: a common behaviour for every test");
        return 1;
    }
    if (B->mu[j].xdlen == MF_XD_UNEXPLORED && B->mu[j].xlen >= 0 && B->xctx &&
        !B->xbig) {
        /* To the bound only: the subset construction past it can be most
         * of the work. */
        mf_explore_result r;
        mf_explore_with(B->xctx, &r, B->mu[j].model, MF_EXPLORE_DEFINITE,
                        node_cap(B), B->o->complete ? 0 : B->o->bound);
        const mf_explore_notion *d = &r.definite;
        B->mu[j].xdlen = d->verdict == MF_XV_KILLED            ? d->length
                         : d->verdict == MF_XV_NOT_KILLABLE    ? MF_XD_NONE
                         : d->verdict == MF_XV_LIMIT && d->cut ? MF_XD_NONE_UPTO
                                                               : MF_XD_LIMIT;
        /* Its shortest definite kill, as a test (explorer_test). */
        mf_test *t = d->verdict == MF_XV_KILLED && within(B, d->length)
                         ? explorer_test(B, j, d, MF_N_DEFINITE)
                         : NULL;
        mf_explore_result_free(&r);
        if (t) {
            mf_batch_settle(B, j, MF_V_KILLED, MF_N_DEFINITE, t, NULL);
            return 1;
        }
    }
    int L = B->mu[j].xdlen;
    if (L <= B->o->bound)
        return 0;
    if (L == MF_XD_NONE)
        snprintf(v->method, sizeof v->method,
                 "no definite kill: explicit-state exploration");
    else if (L == MF_XD_NONE_UPTO)
        snprintf(v->method, sizeof v->method,
                 "no definite kill up to %d: explicit-state exploration",
                 B->o->bound);
    else
        snprintf(v->method, sizeof v->method,
                 "shortest definite kill %d: explicit-state exploration", L);
    return 1;
}
