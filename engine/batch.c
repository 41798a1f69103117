/* batch.c - a batch of mutants (batch.h): the per-mutant records, the one
 * function that decides a verdict, kills recorded only once the simulator
 * confirms them, marks over the mutants of a joint search, and the solver
 * pairs the methods open. It runs no search itself. */
#include "batch.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "z3util.h"

void mf_batch_mut_open(mf_batch_mut *r, const mf_engine_mutant *mut,
                       const mf_model *model, mf_verdict *v,
                       const mf_engine_opts *o, int orig_det)
{
    memset(r, 0, sizeof *r);
    r->mut = mut;
    r->model = model;
    r->v = v;
    r->todo = 1;
    r->killed_at = r->xlen = MF_BATCH_NOLEN;
    r->xdlen = MF_XD_UNEXPLORED;
    memset(v, 0, sizeof *v);
    v->orig_det = orig_det;
    v->mut_det = mf_model_structurally_det(model);
    v->kind = MF_V_SURVIVED;
    v->bound = o->bound;
}

void mf_batch_settle(mf_batch *B, int j, mf_verdict_kind kind, mf_notion notion,
                     mf_test *test, const char *fmt, ...)
{
    mf_batch_mut *r = &B->mu[j];
    mf_verdict *v = r->v;
    assert(r->todo || (kind == MF_V_ERROR && v->kind != MF_V_KILLED) ||
           (kind == MF_V_KILLED && v->kind == MF_V_KILLED &&
            v->notion == MF_N_POTENTIAL && notion == MF_N_DEFINITE));
    assert((kind == MF_V_KILLED) == (test != NULL && fmt == NULL));
    v->kind = kind;
    r->todo = 0;
    if (kind == MF_V_KILLED) {
        mf_test_free(v->test);
        v->notion = notion;
        v->test = test;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    if (kind == MF_V_EQUIVALENT || kind == MF_V_SURVIVED)
        vsnprintf(v->method, sizeof v->method, fmt, ap);
    else
        vsnprintf(v->reason, sizeof v->reason, fmt, ap);
    va_end(ap);
}

void mf_batch_stop_short(mf_batch *B, int j, int upto, const char *why)
{
    mf_batch_mut *r = &B->mu[j];
    if (r->v->bound > upto)
        r->v->bound = upto;
    r->stopped = why;
}

void mf_batch_unfinished_one(mf_batch *B, int j)
{
    mf_batch_mut *r = &B->mu[j];
    mf_verdict *v = r->v;
    if (v->kind != MF_V_SURVIVED || v->bound >= B->o->bound)
        return;
    v->kind = MF_V_UNKNOWN;
    if (v->bound < 0)
        snprintf(v->reason, sizeof v->reason,
                 "%s at length 0: nothing searched",
                 r->stopped ? r->stopped : "the search stopped");
    else
        snprintf(v->reason, sizeof v->reason,
                 "%s at length %d: no kill up to %d",
                 r->stopped ? r->stopped : "the search stopped",
                 v->bound + 1, v->bound);
}

void mf_batch_unfinished(mf_batch *B)
{
    for (int j = 0; j < B->nmut; j++)
        mf_batch_unfinished_one(B, j);
}

void mf_batch_kill(mf_batch *B, int j, mf_test *t, mf_notion notion)
{
    int rc = mf_engine_replay(B->m, B->mu[j].model, t, notion);
    if (rc == MF_ELIMIT) {
        mf_test_free(t);
        mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", mf_err_msg());
        return;
    }
    if (rc) {
        char msg[480];
        snprintf(msg, sizeof msg, "%s (a %s kill of length %d found by Z3)",
                 mf_err_msg(), mf_notion_name(notion), t->length);
        mf_test_free(t);
        mf_batch_settle(B, j, MF_V_ERROR, 0, NULL, "%s", msg);
        return;
    }
    mf_batch_settle(B, j, MF_V_KILLED, notion, t, NULL);
}

/* A copy of t that the replay on mutant j confirms as a kill of that
 * notion, else NULL. */
static mf_test *replayed(mf_batch *B, int j, const mf_test *t, mf_notion notion)
{
    mf_test *c = mf_test_copy(t);
    if (mf_engine_replay(B->m, B->mu[j].model, c, notion) != 0) {
        mf_test_free(c);
        return NULL;
    }
    return c;
}

int mf_batch_replay_kill(mf_batch *B, int j, const mf_test *t, mf_notion notion,
                         int shortest)
{
    mf_test *c = replayed(B, j, t, notion);
    if (!c)
        return 0;
    mf_batch_settle(B, j, MF_V_KILLED, notion, c, NULL);
    B->mu[j].v->not_shortest = !shortest;
    return 1;
}

int mf_batch_upgrade_replay(mf_batch *B, int j, const mf_test *t)
{
    mf_test *c = replayed(B, j, t, MF_N_DEFINITE);
    if (!c)
        return 0;
    mf_batch_settle(B, j, MF_V_KILLED, MF_N_DEFINITE, c, NULL);
    B->mu[j].searched = MF_SEARCHED_DEFINITE;
    return 1;
}

int mf_batch_may_be_equivalent(const mf_batch *B, int j)
{
    return B->mu[j].xlen < 0;
}

int mf_batch_assume(const mf_batch *B, int j, Z3_ast *as)
{
    if (!B->meta)
        return 0;
    as[0] = mf_enc_sel(B->EM, j);
    return 1;
}

int mf_batch_nmarked(const mf_batch *B, const int *live)
{
    int n = 0;
    for (int j = 0; j < B->nmut; j++)
        n += live[j] != 0;
    return n;
}

int mf_batch_marked_after(const mf_batch *B, const int *live, int j)
{
    for (int q = j + 1; q < B->nmut; q++)
        if (live[q])
            return 1;
    return 0;
}

Z3_ast mf_batch_pick(mf_batch *B, Z3_solver s, const int *live)
{
    if (!B->meta)
        return NULL;
    mf_astvec sels = {0};
    for (int j = 0; j < B->nmut; j++)
        if (live[j])
            MF_VEC_PUSH(sels, mf_enc_sel(B->EM, j));
    Z3_ast p = mf_z3_lit(B->E, "pk");
    mf_z3_implies(B->E, s, p,
                  mf_enc_keep(B->E, Z3_mk_or(B->c, (unsigned)sels.n, sels.v)));
    MF_VEC_FREE(sels);
    return p;
}

int mf_batch_picked(mf_batch *B, Z3_model mdl, const int *live)
{
    for (int j = 0; j < B->nmut; j++) {
        Z3_ast v = NULL;
        if (!live[j])
            continue;
        if (!B->meta)
            return j;
        if (Z3_model_eval(B->c, mdl, mf_enc_sel(B->EM, j), 1, &v) && v &&
            Z3_get_bool_value(B->c, v) == Z3_L_TRUE)
            return j;
    }
    return -1;
}

void mf_batch_spread(mf_batch *B, int *live, int q, int d)
{
    const mf_test *t = B->mu[q].v->test;
    for (int j = 0; j < B->nmut; j++) {
        if (!live[j])
            continue;
        if (j != q && t && B->mu[q].v->kind == MF_V_KILLED &&
            mf_batch_replay_kill(B, j, t, MF_N_POTENTIAL, 1))
            B->mu[j].killed_at = d;
        if (!B->mu[j].todo || j == q)
            live[j] = 0;
    }
}

double mf_batch_joint_deadline(const mf_batch *B, int n, double frac)
{
    double per = B->o->timeout_ms / 1000.0;
    if (B->o->mutant_ms && B->o->mutant_ms / 1000.0 < per)
        per = B->o->mutant_ms / 1000.0;
    return mf_z3_now() + per * frac * n;
}

Z3_lbool mf_batch_joint_query(mf_batch *B, Z3_solver syn, Z3_ast pick, Z3_ast g,
                              int *iters, int cap)
{
    char why[256];
    if (++*iters > cap || mf_z3_now() > B->deadline)
        return Z3_L_UNDEF;
    Z3_ast as[2] = {pick, g};
    return mf_z3_check(B->c, syn, 2, as, why, sizeof why);
}

void mf_batch_pair_open(mf_batch_pair *x, mf_batch *B, mf_enc *E, mf_enc *EM,
                        int meta, int hard_ok, const char *tag)
{
    char t[16];
    x->s = mf_z3_solver(B->c, B->o, mf_enc_bits(E) > 0);
    snprintf(t, sizeof t, "%si", tag);
    x->in = mf_inputs_new(E, x->s, t);
    snprintf(t, sizeof t, "%so", tag);
    x->o = mf_unroll_new(E, x->s, t, 0, x->in, hard_ok, NULL);
    snprintf(t, sizeof t, "%sm", tag);
    x->m = mf_unroll_new(EM, x->s, t, meta, x->in, 0, NULL);
    if (meta)
        mf_enc_assert_sels(EM, x->s);
}

void mf_batch_pair_close(mf_batch_pair *x, mf_batch *B)
{
    mf_unroll_free(x->o);
    mf_unroll_free(x->m);
    mf_inputs_free(x->in);
    mf_z3_solver_free(B->c, x->s);
}
