/* reach.c - the original's states by the simulator (reach.h): sets of
 * states, input valuations, the reachable states, one-step questions. The
 * replays (replay.c), the refusal filter (refusal.c) and lock-step
 * (lockstep.c) use them; nothing here talks to Z3. */
#include "reach.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REACH_LIMIT 20000

static uint64_t row_hash(const mf_val *st, int n)
{
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)st[i];
        h *= 1099511628211u;
        h ^= h >> 29;
    }
    return h;
}

void mf_reach_set_free(mf_reach_set *c)
{
    free(c->tab);
    c->tab = NULL;
    c->cap = 0;
}

size_t mf_reach_row_slot(const int *tab, size_t cap, const mf_val *pool,
                         int width, const mf_val *row)
{
    size_t i = row_hash(row, width) & (cap - 1);
    while (tab[i] && memcmp(pool + (size_t)(tab[i] - 1) * width, row,
                            sizeof *row * (size_t)width))
        i = (i + 1) & (cap - 1);
    return i;
}

static size_t set_slot(const mf_reach_set *c, const mf_val *st)
{
    return mf_reach_row_slot(c->tab, c->cap, c->out->v, c->n, st);
}

int mf_reach_set_add(const mf_val *st, void *set)
{
    mf_reach_set *c = set;
    int cnt = c->out->n / (c->n ? c->n : 1);
    if ((size_t)(cnt + 1) * 2 > c->cap) {
        /* Rows already in out (a caller's) are entered here too. */
        free(c->tab);
        c->cap = c->cap ? c->cap * 2 : 64;
        while ((size_t)(cnt + 1) * 2 > c->cap)
            c->cap *= 2;
        c->tab = mf_xcalloc(c->cap, sizeof *c->tab);
        for (int r = 0; r < cnt; r++)
            c->tab[set_slot(c, c->out->v + (size_t)r * c->n)] = r + 1;
    }
    size_t i = set_slot(c, st);
    if (c->tab[i])
        return 0;
    if (cnt >= c->limit) {
        c->over = 1;
        return 1;
    }
    for (int q = 0; q < c->n; q++)
        MF_VEC_PUSH(*c->out, st[q]);
    c->tab[i] = cnt + 1;
    return 0;
}

void mf_reach_dom_open(mf_reach_dom *D, const mf_model *m, int step)
{
    int unbounded = 0;
    memset(D, 0, sizeof *D);
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        int isin = v->is_input && (v->decl == MF_DECL_VAR ||
                                   (!step && v->decl == MF_DECL_FROZENVAR));
        if (!(isin || (step && v->decl == MF_DECL_IVAR)))
            continue;
        for (int q = 0; q < v->nslots; q++) {
            size_t k = (size_t)(D->n + 1);
            D->slots = mf_xrealloc(D->slots, sizeof *D->slots * k);
            D->dom = mf_xrealloc(D->dom, sizeof *D->dom * k);
            D->ndom = mf_xrealloc(D->ndom, sizeof *D->ndom * k);
            D->slots[D->n] = v->slot + q;
            if (mf_type_domain(v->type, &D->dom[D->n], &D->ndom[D->n]) < 0) {
                /* no finite domain (an unbounded integer): too many */
                D->dom[D->n] = NULL;
                D->ndom[D->n] = 0;
                unbounded = 1;
            }
            D->n++;
        }
    }
    D->combos = 1;
    for (int i = 0; i < D->n && D->combos <= MF_REACH_INPUT_COMBOS; i++)
        D->combos *= D->ndom[i];
    if (unbounded)
        D->combos = MF_REACH_INPUT_COMBOS + 1;
}

void mf_reach_dom_set(const mf_reach_dom *D, long cb, mf_val *inp)
{
    for (int i = 0; i < D->n; i++) {
        inp[D->slots[i]] = D->dom[i][cb % D->ndom[i]];
        cb /= D->ndom[i];
    }
}

void mf_reach_dom_free(mf_reach_dom *D)
{
    for (int i = 0; i < D->n; i++)
        free(D->dom[i]);
    free(D->dom);
    free(D->slots);
    free(D->ndom);
}

void mf_reach_upto(const mf_model *m, mf_reach *R, int limit)
{
    int n = m->nslots, nn = n ? n : 1;
    memset(R, 0, sizeof *R);
    mf_reach_dom D[2];
    for (int w = 0; w < 2; w++)
        mf_reach_dom_open(&D[w], m, w);
    int ok = D[0].combos <= MF_REACH_INPUT_COMBOS &&
             D[1].combos <= MF_REACH_INPUT_COMBOS;
    mf_val *inp = mf_xcalloc((size_t)nn, sizeof *inp);
    mf_valset all = {0};
    mf_reach_set cl = {&all, n, limit, 0, NULL, 0};
    /* The initial states under every input valuation, then breadth first
     * to a fixpoint (states are appended as they are found). */
    for (long cb = 0; cb < D[0].combos && ok; cb++) {
        mf_reach_dom_set(&D[0], cb, inp);
        int rc = mf_sim_initial_each(m, inp, mf_reach_set_add, &cl, 1000000);
        if (rc < 0 || cl.over)
            ok = 0;
    }
    for (int idx = 0; ok && idx < all.n / nn; idx++) {
        for (long cb = 0; cb < D[1].combos && ok; cb++) {
            mf_reach_dom_set(&D[1], cb, inp);
            /* A copy: adding successors may move all.v. */
            mf_val *cur = mf_xmalloc(sizeof *cur * (size_t)nn);
            memcpy(cur, all.v + (size_t)idx * n, sizeof *cur * (size_t)n);
            int rc =
                mf_sim_next_each(m, cur, inp, mf_reach_set_add, &cl, 1000000);
            free(cur);
            if (rc < 0 || cl.over)
                ok = 0;
        }
    }
    mf_reach_dom_free(&D[0]);
    mf_reach_dom_free(&D[1]);
    free(inp);
    mf_reach_set_free(&cl);
    R->ok = ok;
    R->st = all;
}

void mf_reach_compute(const mf_model *m, mf_reach *R)
{
    mf_reach_upto(m, R, REACH_LIMIT);
    R->done = 1;
}

int mf_reach_refuses(const mf_model *m, const mf_val *cur, const mf_val *inp)
{
    int rc = cur ? mf_sim_next_each(m, cur, inp, NULL, NULL, 1000000)
                 : mf_sim_initial_each(m, inp, NULL, NULL, 1000000);
    return rc < 0 ? -1 : rc == 0;
}

static int stop_first(const mf_val *st, void *ctx)
{
    (void)st;
    (void)ctx;
    return 1;
}

int mf_reach_has_successor(const mf_model *m, const mf_val *cur,
                           const mf_val *inp)
{
    int rc = mf_sim_next_each(m, cur, inp, stop_first, NULL, 4096);
    return rc < 0 ? -1 : rc > 0;
}
