/* det.c - the deterministic search (det.h). It runs on groups of mutants
 * that change the same item (the same site, docs/architecture.md and
 * docs/killing.md): one conditional-mutant solver per group, so that no
 * solver carries every site of a large batch, and all groups advance depth
 * by depth together, so that a test found at depth d in one group is a
 * shortest kill for any mutant of another group it distinguishes. It
 * decides nothing for non-deterministic mutants and proves nothing. */
#include "det.h"

#include <stdio.h>
#include <stdlib.h>

#include "z3util.h"

/* A joint query over more variants costs more than the queries it saves
 * (docs/killing.md, Conditional mutants). */
#define GROUP_MAX 16

typedef struct {
    mf_enc *E, *EM; /* owned when own */
    int own;
    mf_batch_pair x; /* the original (hard ok) and the group's variants */
    int *idx;        /* batch indices; group-local selector q is idx[q] */
    int n;
} dgroup;

/* Mutant idx[q] of group G differs at depth d in the solver's last model:
 * record the kill, and replay the test on every other undecided mutant of
 * the batch (each was shown not to differ before d, so a replay that
 * distinguishes is a shortest kill too). */
static void det_kill(mf_batch *B, dgroup *G, int d, int q, const int *which)
{
    Z3_context c = B->c;
    int j = G->idx[q];
    Z3_model mdl = mf_z3_model(c, G->x.s);
    mf_test *t = mf_z3_test(G->E, mdl, G->x.in, G->x.o, NULL, d);
    Z3_ast r2 = NULL;
    if (Z3_model_eval(c, mdl, mf_unroll_ok(G->x.m, d), 1, &r2) && r2 &&
        Z3_get_bool_value(c, r2) == Z3_L_FALSE)
        t->mrefuses = d;
    mf_z3_model_free(c, mdl);
    mf_batch_kill(B, j, t, MF_N_DETERMINISTIC);
    if (B->mu[j].v->kind == MF_V_KILLED)
        for (int k = 0; k < B->nmut; k++)
            if (k != j && which[k] && B->mu[k].todo)
                mf_batch_replay_kill(B, k, B->mu[j].v->test, MF_N_DETERMINISTIC,
                                     1);
}

static void group_open(mf_batch *B, dgroup *G)
{
    Z3_context c = B->c;
    if (B->meta && B->nmut > 1) {
        mf_variant *vs = mf_xcalloc((size_t)G->n, sizeof *vs);
        for (int q = 0; q < G->n; q++) {
            vs[q].item = B->mu[G->idx[q]].mut->item;
            vs[q].repl = B->mu[G->idx[q]].mut->repl;
        }
        G->E = G->EM = mf_enc_new(c, B->m, vs, G->n, NULL, B->o->encoding);
        G->own = 1;
        free(vs);
    } else {
        G->E = B->E;
        G->EM = B->EM;
    }
    mf_batch_pair_open(&G->x, B, G->E, G->EM, B->meta, 1, "");
}

static void group_close(mf_batch *B, dgroup *G)
{
    mf_batch_pair_close(&G->x, B);
    const char *u = G->own ? mf_enc_unsupported(G->E) : NULL;
    if (u)
        for (int q = 0; q < G->n; q++)
            if (B->mu[G->idx[q]].v->kind != MF_V_KILLED)
                mf_batch_settle(B, G->idx[q], MF_V_ERROR, 0, NULL, "%s", u);
    if (G->own)
        mf_enc_free(G->E);
    free(G->idx);
}

/* Depth d of group G: one query for all its undecided mutants, "some
 * selected mutant differs at d". Unsat proves every one of them at once; a
 * model names one mutant (its selector), killed; then again without it.
 * Returns 1 if the group had mutants to check. */
static int group_depth(mf_batch *B, dgroup *G, int d, const int *which)
{
    Z3_context c = B->c;
    mf_enc *E = G->E;
    mf_unroll *O = G->x.o, *M = G->x.m;
    int live = 0;
    for (int q = 0; q < G->n; q++)
        live += B->mu[G->idx[q]].todo;
    if (!live)
        return 0;
    mf_unroll_extend(O, d);
    mf_unroll_extend(M, d);
    Z3_ast parts[2];
    Z3_ast *pre = mf_xcalloc((size_t)(2 * d + 2), sizeof *pre);
    int np = 0;
    for (int i = 0; i < d; i++) {
        pre[np++] = mf_unroll_ok(M, i);
        pre[np++] = mf_enc_obs_eq(E, mf_unroll_obs(O, i), mf_unroll_obs(M, i));
    }
    parts[0] = mf_enc_and(E, np, pre);
    free(pre);
    Z3_ast dd[2] = {mf_enc_not(E, mf_unroll_ok(M, d)),
                    mf_enc_not(E, mf_enc_obs_eq(E, mf_unroll_obs(O, d),
                                                mf_unroll_obs(M, d)))};
    parts[1] = mf_enc_keep(E, Z3_mk_or(c, 2, dd));
    Z3_ast g = mf_z3_lit(E, "g");
    mf_z3_implies(E, G->x.s, g, mf_enc_and(E, 2, parts));
    for (;;) {
        MF_VEC(Z3_ast) sels = {0};
        int last = -1;
        for (int q = 0; q < G->n; q++)
            if (B->mu[G->idx[q]].todo) {
                if (B->meta)
                    MF_VEC_PUSH(sels, mf_enc_sel(G->EM, q));
                last = q;
            }
        if (last < 0) {
            MF_VEC_FREE(sels);
            break;
        }
        Z3_ast as[2];
        int na = 0;
        as[na++] = g;
        if (B->meta) {
            Z3_ast pick = mf_z3_lit(E, "pick");
            mf_z3_implies(
                E, G->x.s, pick,
                mf_enc_keep(E, Z3_mk_or(c, (unsigned)sels.n, sels.v)));
            as[na++] = pick;
        }
        MF_VEC_FREE(sels);
        char why[256];
        Z3_lbool r = mf_z3_check(c, G->x.s, na, as, why, sizeof why);
        if (r == Z3_L_FALSE)
            break;
        if (r == Z3_L_UNDEF) {
            /* The joint query gave up: each on its own, then. */
            for (int q = 0; q < G->n; q++) {
                if (!B->mu[G->idx[q]].todo)
                    continue;
                Z3_ast a1[2];
                int n1 = 0;
                if (B->meta)
                    a1[n1++] = mf_enc_sel(G->EM, q);
                a1[n1++] = g;
                r = mf_z3_check(c, G->x.s, n1, a1, why, sizeof why);
                if (r == Z3_L_UNDEF)
                    mf_batch_settle(B, G->idx[q], MF_V_UNKNOWN, 0, NULL, "%s",
                                    why);
                else if (r == Z3_L_TRUE)
                    det_kill(B, G, d, q, which);
            }
            break;
        }
        int k = last;
        if (B->meta) {
            Z3_model mdl = mf_z3_model(c, G->x.s);
            for (int q = 0; q < G->n; q++) {
                Z3_ast v = NULL;
                if (B->mu[G->idx[q]].todo &&
                    Z3_model_eval(c, mdl, mf_enc_sel(G->EM, q), 1, &v) && v &&
                    Z3_get_bool_value(c, v) == Z3_L_TRUE) {
                    k = q;
                    break;
                }
            }
            mf_z3_model_free(c, mdl);
        }
        det_kill(B, G, d, k, which);
    }
    /* This depth is done: its query goes, so the solver does not keep
     * branching on it. Every mutant of the group still undecided was just
     * shown not to differ at d, so every later kill has equal observables
     * and an accepting mutant at d: a fact, asserted for good (it holds for
     * every selector still to be checked; the others are never checked
     * again). */
    Z3_solver_assert(c, G->x.s, mf_enc_not(E, g));
    Z3_ast fact[2] = {mf_unroll_ok(M, d), mf_enc_obs_eq(E, mf_unroll_obs(O, d),
                                                        mf_unroll_obs(M, d))};
    Z3_solver_assert(c, G->x.s, mf_enc_and(E, 2, fact));
    return 1;
}

void mf_det_search(mf_batch *B, const int *which)
{
    MF_VEC(dgroup) gs = {0};
    for (int j = 0; j < B->nmut; j++) {
        if (!which[j] || !B->mu[j].todo)
            continue;
        dgroup *G = NULL;
        for (int i = 0; i < gs.n && B->meta; i++) {
            dgroup *h = &gs.v[i];
            if (h->n < GROUP_MAX &&
                B->mu[h->idx[0]].mut->item == B->mu[j].mut->item)
                G = h;
        }
        if (!G) {
            dgroup z = {0};
            z.idx = mf_xcalloc(GROUP_MAX, sizeof *z.idx);
            MF_VEC_PUSH(gs, z);
            G = &gs.v[gs.n - 1];
        }
        G->idx[G->n++] = j;
    }
    for (int i = 0; i < gs.n; i++)
        group_open(B, &gs.v[i]);
    int any = 1;
    for (int d = 0; d <= B->o->bound && any; d++) {
        any = 0;
        for (int i = 0; i < gs.n; i++)
            any |= group_depth(B, &gs.v[i], d, which);
    }
    for (int i = 0; i < gs.n; i++)
        group_close(B, &gs.v[i]);
    MF_VEC_FREE(gs);
    for (int j = 0; j < B->nmut; j++)
        if (which[j] && B->mu[j].todo)
            B->mu[j].v->bound = B->o->bound;
}
