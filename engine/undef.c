/* undef.c - the original's reachable states where an observed DEFINE has
 * no value (docs/semantics.md, Undefined observables): breadth first by
 * the simulator, as reach.c explores, keeping for each state the state and
 * input it came from, so that the first such state found comes with the
 * shortest test reaching it. `model check` warns with it. */
#include "undef.h"

#include <stdlib.h>
#include <string.h>

#include "reach.h"

/* Successor enumerations (a state under one input valuation) at most: a
 * bound on the time `model check` and `run` spend here. */
#define UNDEF_WORK 300000L

typedef struct {
    mf_reach_set set;
    MF_VEC(int) from; /* per state: its predecessor, -1 initial */
    MF_VEC(long) cb;  /* per state: the input valuation that made it */
    int cur;
    long cur_cb;
} walk;

static int add(const mf_val *st, void *ctx)
{
    walk *w = ctx;
    int before = w->set.out->n;
    int rc = mf_reach_set_add(st, &w->set);
    if (w->set.out->n > before) {
        MF_VEC_PUSH(w->from, w->cur);
        MF_VEC_PUSH(w->cb, w->cur_cb);
    }
    return rc;
}

/* The observed DEFINE undefined in st: its index + 1, 0 none, < 0 error. */
static int undefined_in(const mf_model *m, const mf_val *st, mf_val *obs,
                        int nobs)
{
    int rc = mf_sim_observe(obs, nobs, m, st);
    if (rc < 0)
        return rc;
    for (int d = 0; d < m->nobs_defines; d++)
        if (obs[nobs - m->nobs_defines + d] == MF_VAL_UNDEF)
            return d + 1;
    return 0;
}

/* The test reaching state s of w: inputs per state, expected observables. */
static mf_test *test_to(const mf_model *m, walk *w, mf_reach_dom *D, int s,
                        int nobs)
{
    int len = 0, n = m->nslots;
    for (int q = s; w->from.v[q] >= 0; q = w->from.v[q])
        len++;
    mf_test *t = mf_test_new(n, nobs, len);
    for (int q = s, k = len; q >= 0; q = w->from.v[q], k--) {
        mf_reach_dom_set(&D[k ? 1 : 0], w->cb.v[q],
                         t->inputs + (size_t)k * n);
        mf_sim_observe(t->expect + (size_t)k * nobs, nobs, m,
                       w->set.out->v + (size_t)q * n);
    }
    return t;
}

/* 1 if e (through the DEFINEs it reads, `seen` marking those visited) may
 * have no value in some state: a case whose last guard is not TRUE, a
 * division or a modulo, or a construct not known to be total (an
 * index); 0 when it has a value in every state, so that no search is
 * needed. */
static int may_be_undefined(const mf_model *m, const mf_expr *e, char *seen)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
    case MF_E_SYM:
    case MF_E_WORD:
        return 0;
    case MF_E_ID:
        if (e->ref_kind != MF_REF_DEFINE)
            return 0;
        if (seen[e->ref])
            return 0;
        seen[e->ref] = 1;
        return may_be_undefined(m, m->items[e->ref].e, seen);
    case MF_E_CASE: {
        const mf_expr *last = e->nkids >= 2 ? e->kids[e->nkids - 2] : NULL;
        if (!last || last->kind != MF_E_BOOL || last->ival != 1)
            return 1;
        break;
    }
    case MF_E_BIN:
        if (e->op == MF_OP_DIV || e->op == MF_OP_MOD)
            return 1;
        break;
    case MF_E_NOT:
    case MF_E_NEG:
    case MF_E_CALL: /* the word and integer functions are total */
    case MF_E_ITE:
    case MF_E_SET:
    case MF_E_RANGE:
        break;
    default:
        return 1;
    }
    for (int k = 0; k < e->nkids; k++)
        if (may_be_undefined(m, e->kids[k], seen))
            return 1;
    return 0;
}

int mf_undef_find(const mf_model *m, int limit, mf_undef_hit *hit)
{
    int n = m->nslots, nn = n ? n : 1, nobs = mf_model_nobs(m);
    memset(hit, 0, sizeof *hit);
    if (m->nobs_defines == 0)
        return 0;
    char *seen = mf_xcalloc((size_t)(m->nitems ? m->nitems : 1), 1);
    int maybe = 0;
    for (int k = 0; k < m->nobs_defines && !maybe; k++) {
        int it = m->obs_defines[k];
        seen[it] = 1;
        maybe = may_be_undefined(m, m->items[it].e, seen);
    }
    free(seen);
    if (!maybe)
        return 0;
    mf_reach_dom D[2];
    for (int k = 0; k < 2; k++)
        mf_reach_dom_open(&D[k], m, k);
    int rc = D[0].combos <= MF_REACH_INPUT_COMBOS &&
                     D[1].combos <= MF_REACH_INPUT_COMBOS
                 ? 0
                 : MF_UNDEF_PARTIAL;
    mf_valset all = {0};
    walk w = {{&all, n, limit, 0, NULL, 0}, {0}, {0}, -1, 0};
    mf_val *inp = mf_xcalloc((size_t)nn, sizeof *inp);
    mf_val *cur = mf_xcalloc((size_t)nn, sizeof *cur);
    mf_val *obs = mf_xcalloc((size_t)nobs + 1, sizeof *obs);
    long work = 0; /* successor enumerations, at most UNDEF_WORK */
    for (long cb = 0; cb < D[0].combos && rc == 0; cb++) {
        mf_reach_dom_set(&D[0], cb, inp);
        w.cur_cb = cb;
        if (mf_sim_initial_each(m, inp, add, &w, 1000000) < 0 ||
            w.set.over)
            rc = MF_UNDEF_PARTIAL;
    }
    /* States in breadth-first order: the first undefined one found is at
     * the least depth. */
    for (int idx = 0; rc == 0 && idx < all.n / nn; idx++) {
        int d = undefined_in(m, all.v + (size_t)idx * n, obs, nobs);
        if (d != 0) {
            rc = d < 0 ? d : MF_UNDEF_FOUND;
            if (d > 0) {
                hit->define = d - 1;
                hit->test = test_to(m, &w, D, idx, nobs);
            }
            break;
        }
        memcpy(cur, all.v + (size_t)idx * n, sizeof *cur * (size_t)n);
        w.cur = idx;
        for (long cb = 0; cb < D[1].combos && rc == 0; cb++) {
            if (++work > UNDEF_WORK) {
                rc = MF_UNDEF_PARTIAL;
                break;
            }
            mf_reach_dom_set(&D[1], cb, inp);
            w.cur_cb = cb;
            if (mf_sim_next_each(m, cur, inp, add, &w, 1000000) < 0 ||
                w.set.over)
                rc = MF_UNDEF_PARTIAL;
        }
    }
    hit->states = all.n / nn;
    for (int k = 0; k < 2; k++)
        mf_reach_dom_free(&D[k]);
    mf_reach_set_free(&w.set);
    MF_VEC_FREE(all);
    MF_VEC_FREE(w.from);
    MF_VEC_FREE(w.cb);
    free(inp);
    free(cur);
    free(obs);
    return rc;
}
