/* explore_state.c - the explorer's memory (explore_int.h): int64 arrays
 * interned into tables, and for each model its states and observations,
 * the successors of a state under an input (by the simulator, once each;
 * a mutant's through the original's where explore_delta.c allows), and
 * the step of a set of states (its union of successors, whether some
 * member refuses, the successors partitioned by observation), memoised;
 * and the input valuations of a model. It searches nothing: explore.c
 * does. */
#include "explore_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Input valuations per step past which a model is too large. */
#define MAX_INPUTS (1 << 16)
/* Candidate assignments per simulator enumeration. */
#define SIM_LIMIT 2000000L

static uint64_t khash(const int64_t *k, int len)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)len;
    for (int i = 0; i < len; i++) {
        uint64_t x = (uint64_t)k[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebull;
        x ^= x >> 31;
        h ^= x;
    }
    return h;
}

void mf_xp_ktab_free(ktab *t)
{
    free(t->pool);
    free(t->off);
    free(t->len);
    free(t->hash);
    free(t->ht);
    memset(t, 0, sizeof(*t));
}

static void ktab_rehash(ktab *t, size_t ncap)
{
    free(t->ht);
    t->hcap = ncap;
    t->ht = mf_xmalloc(ncap * sizeof(*t->ht));
    for (size_t i = 0; i < ncap; i++)
        t->ht[i] = -1;
    for (int id = 0; id < t->n; id++) {
        size_t h = (size_t)t->hash[id] & (ncap - 1);
        while (t->ht[h] >= 0)
            h = (h + 1) & (ncap - 1);
        t->ht[h] = id;
    }
}

const int64_t *mf_xp_ktab_get(const ktab *t, int id, int *len)
{
    if (len)
        *len = t->len[id];
    return t->pool + t->off[id];
}

/* Id of key k, or -1. */
int mf_xp_ktab_find(const ktab *t, const int64_t *k, int len)
{
    if (!t->hcap)
        return -1;
    uint64_t hv = khash(k, len);
    size_t h = (size_t)hv & (t->hcap - 1);
    while (t->ht[h] >= 0) {
        int id = t->ht[h];
        if (t->hash[id] == hv && t->len[id] == len &&
            memcmp(t->pool + t->off[id], k, (size_t)len * sizeof(*k)) == 0)
            return id;
        h = (h + 1) & (t->hcap - 1);
    }
    return -1;
}

/* Id of key k; a new id (and *is_new = 1) if absent. */
int mf_xp_ktab_intern(ktab *t, const int64_t *k, int len, int *is_new)
{
    uint64_t hv = khash(k, len);
    if ((size_t)(t->n + 1) * 2 > t->hcap)
        ktab_rehash(t, t->hcap ? 2 * t->hcap : 64);
    size_t h = (size_t)hv & (t->hcap - 1);
    while (t->ht[h] >= 0) {
        int id = t->ht[h];
        if (t->hash[id] == hv && t->len[id] == len &&
            memcmp(t->pool + t->off[id], k, (size_t)len * sizeof(*k)) == 0) {
            if (is_new)
                *is_new = 0;
            return id;
        }
        h = (h + 1) & (t->hcap - 1);
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->off = mf_xrealloc(t->off, (size_t)t->cap * sizeof(*t->off));
        t->len = mf_xrealloc(t->len, (size_t)t->cap * sizeof(*t->len));
        t->hash = mf_xrealloc(t->hash, (size_t)t->cap * sizeof(*t->hash));
    }
    if (t->pn + (size_t)len > t->pcap) {
        while (t->pn + (size_t)len > t->pcap)
            t->pcap = t->pcap ? 2 * t->pcap : 256;
        t->pool = mf_xrealloc(t->pool, t->pcap * sizeof(*t->pool));
    }
    int id = t->n++;
    t->off[id] = t->pn;
    t->len[id] = len;
    t->hash[id] = hv;
    if (len)
        memcpy(t->pool + t->pn, k, (size_t)len * sizeof(*k));
    t->pn += (size_t)len;
    t->ht[h] = id;
    if (is_new)
        *is_new = 1;
    return id;
}

int mf_xp_fail(explorer *x, int code, const char *what)
{
    if (!x->err) {
        x->err = code;
        snprintf(x->msg, sizeof(x->msg), "%s", what);
    }
    return code;
}

/* Bytes held by a table and by the vectors of a side (capacities). */
size_t mf_xp_ktab_bytes(const ktab *t)
{
    return t->pcap * sizeof *t->pool +
           (size_t)t->cap * (sizeof *t->off + sizeof *t->len + sizeof *t->hash) +
           t->hcap * sizeof *t->ht;
}


size_t mf_xp_side_bytes(const side *d)
{
    return mf_xp_ktab_bytes(&d->states) + VEC_BYTES(d->obs) +
           mf_xp_ktab_bytes(&d->succ_keys) + VEC_BYTES(d->succ) +
           VEC_BYTES(d->succ_pool) + mf_xp_ktab_bytes(&d->sets) +
           mf_xp_ktab_bytes(&d->step_keys) + VEC_BYTES(d->steps) +
           VEC_BYTES(d->part_pool) + VEC_BYTES(d->acc_off) +
           VEC_BYTES(d->acc_pool);
}

double mf_xp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int collect_fn(const mf_val *state, void *ctx)
{
    explorer *x = ctx;
    for (int i = 0; i < x->nslots; i++)
        MF_VEC_PUSH(x->coll, state[i]);
    return 0;
}

/* Intern a state of side d and its observation. Returns its id or < 0. */
static int intern_state(explorer *x, side *d, const mf_val *st)
{
    int id = mf_xp_ktab_find(&d->states, st, x->nslots);
    if (id >= 0)
        return id;
    int n = mf_sim_observe(x->obsbuf, x->nobs, d->m, st);
    if (n < 0) {
        char b[256];
        snprintf(b, sizeof(b), "%s: observing a state: %s",
                 d == &x->s[0] ? "original" : "mutant", mf_err_msg());
        return mf_xp_fail(x, n, b);
    }
    int o = mf_xp_ktab_intern(&x->obs, x->obsbuf, n, NULL);
    MF_VEC_PUSH(d->obs, o);
    id = mf_xp_ktab_intern(&d->states, st, x->nslots, NULL);
    if (d == &x->s[1])
        MF_VEC_PUSH(x->m2o, -2);
    return id;
}


/* The mutant's successors of its state st (-1: initial) under input inp
 * into x->tmp as mutant state ids, taken from the original's step where
 * the delta applies: 1 then, 0 if it does not apply, < 0 on error. */
static int delta_succ(explorer *x, int st, int inp)
{
    side *O = &x->s[0], *P = &x->s[1];
    int o = -1;
    if (x->dmode == DELTA_NONE || (st < 0 && x->dmode != DELTA_NEXT))
        return 0; /* DELTA_INIT, DELTA_DEFINE: initial states differ */
    if (st >= 0) {
        const mf_val *inrow = x->inps + (size_t)inp * x->nslots;
        if (x->m2o.v[st] == -2)
            x->m2o.v[st] = mf_xp_ktab_find(&O->states, mf_xp_ktab_get(&P->states, st, NULL),
                                     x->nslots);
        if ((o = x->m2o.v[st]) < 0)
            return 0;
        if ((x->dmode == DELTA_NEXT || x->dmode == DELTA_DEFINE) &&
            !mf_explore_step_agrees(O->m, P->m, x->ditem,
                                    mf_xp_ktab_get(&P->states, st, NULL), inrow,
                                    x->ev))
            return 0;
    }
    /* The original's step, as if the mutant had made it: the same work,
     * and an error of the original's (a limit) leaves the mutant to the
     * simulator. */
    long work = x->work;
    int err = x->err;
    char msg[sizeof x->msg];
    memcpy(msg, x->msg, sizeof msg);
    const int *ids;
    int n;
    if (mf_xp_state_succ(x, O, o, inp, &ids, &n) < 0) {
        x->work = work;
        x->err = err;
        memcpy(x->msg, msg, sizeof msg);
        return 0;
    }
    x->work = work + 10;
    x->tmp.n = 0;
    for (int i = 0; i < n; i++)
        MF_VEC_PUSH(x->tmp, ids[i]);
    for (int i = 0; i < x->tmp.n; i++) {
        int q = x->tmp.v[i];
        while (x->o2m.n <= q)
            MF_VEC_PUSH(x->o2m, -1);
        if (x->o2m.v[q] < 0) {
            const mf_val *vec = mf_xp_ktab_get(&O->states, q, NULL);
            int is_new, id = mf_xp_ktab_intern(&P->states, vec, x->nslots, &is_new);
            if (is_new) {
                MF_VEC_PUSH(P->obs, O->obs.v[q]);
                MF_VEC_PUSH(x->m2o, q);
            } else
                x->m2o.v[id] = q;
            x->o2m.v[q] = id;
        }
        x->tmp.v[i] = x->o2m.v[q];
    }
    return 1;
}

/* Is the explorer to look up the inputs a state accepts? Where the model
 * has input VARs and no IVARs: then a state's successors, enumerated once
 * with the input VARs free, carry every input that gives one. */
static int acc_decide(explorer *x, const mf_model *m)
{
    if (x->acc_use >= 0)
        return x->acc_use;
    x->acc_use = 0;
    if (x->ninp < 2 || !x->inps)
        return 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (v->decl == MF_DECL_IVAR)
            return 0;
        if (v->is_input && v->decl == MF_DECL_VAR)
            for (int k = 0; k < v->nslots; k++)
                MF_VEC_PUSH(x->incells, v->slot + k);
    }
    for (int i = 0; i < x->ninp; i++) {
        const mf_val *row = x->inps + (size_t)i * x->nslots;
        x->key.n = 0;
        for (int c = 0; c < x->incells.n; c++)
            MF_VEC_PUSH(x->key, row[x->incells.v[c]]);
        int is_new;
        if (mf_xp_ktab_intern(&x->inrows, x->key.v, x->key.n, &is_new) != i ||
            !is_new)
            return 0; /* rows not one per valuation: not used */
    }
    x->acc_use = 1;
    return 1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* v[0..n) sorted ascending without repeats; returns the new count. */
static int sort_unique(int *v, int n)
{
    if (n < 2)
        return n;
    qsort(v, (size_t)n, sizeof(int), cmp_int);
    int w = 1;
    for (int i = 1; i < n; i++)
        if (v[i] != v[w - 1])
            v[w++] = v[i];
    return w;
}

static int acc_fn(const mf_val *state, void *ctx)
{
    explorer *x = ctx;
    x->key.n = 0;
    for (int c = 0; c < x->incells.n; c++)
        MF_VEC_PUSH(x->key, state[x->incells.v[c]]);
    int id = mf_xp_ktab_find(&x->inrows, x->key.v, x->key.n);
    MF_VEC_PUSH(x->accbuf, id);
    return 0;
}

/* 0 if state st of side d has no successor under input inp, 1 if it may
 * have one. The inputs a state accepts are those of its successors with
 * the input VARs free: a TRANS that lets the environment move a few steps
 * leaves a handful of the product's inputs, each of the others a refusal
 * found here rather than by the simulator. Where that enumeration fails
 * (a limit, an error), every input is left to the simulator, which meets
 * the same failure input by input. */
static int accepts(explorer *x, side *d, int st, int inp)
{
    if (!acc_decide(x, d->m))
        return 1;
    while (d->acc_off.n <= st)
        MF_VEC_PUSH(d->acc_off, -1);
    if (d->acc_off.v[st] == -1) {
        x->accbuf.n = 0;
        int rc = mf_sim_next_each(d->m, mf_xp_ktab_get(&d->states, st, NULL),
                                  NULL, acc_fn, x, SIM_LIMIT);
        int n = sort_unique(x->accbuf.v, x->accbuf.n);
        if (rc < 0 || (n > 0 && x->accbuf.v[0] < 0)) {
            d->acc_off.v[st] = -2; /* a failure, or a row not an input */
        } else {
            d->acc_off.v[st] = d->acc_pool.n;
            MF_VEC_PUSH(d->acc_pool, n);
            for (int i = 0; i < n; i++)
                MF_VEC_PUSH(d->acc_pool, x->accbuf.v[i]);
        }
    }
    int off = d->acc_off.v[st];
    if (off < 0)
        return 1;
    return bsearch(&inp, d->acc_pool.v + off + 1, (size_t)d->acc_pool.v[off],
                   sizeof(int), cmp_int) != NULL;
}

/* The successors of state `st` (-1: the initial states) of side d under
 * input `inp` (index into inps, or inits for the initial states). */
int mf_xp_state_succ(explorer *x, side *d, int st, int inp, const int **ids,
                      int *n)
{
    if (st >= 0 && !accepts(x, d, st, inp)) {
        *ids = NULL; /* refused: no successor (neither memo nor work) */
        *n = 0;
        return 0;
    }
    int64_t key[2] = {st, inp};
    int k = mf_xp_ktab_find(&d->succ_keys, key, 2);
    int dl = 0;
    if (k < 0 && d == &x->s[1] && (dl = delta_succ(x, st, inp)) < 0)
        return dl;
    if (k < 0 && dl) {
        x->ndelta++;
        succ_rec r = {d->succ_pool.n, x->tmp.n};
        if (x->tmp.n > 1)
            d->nondet = 1;
        for (int i = 0; i < x->tmp.n; i++)
            MF_VEC_PUSH(d->succ_pool, x->tmp.v[i]);
        MF_VEC_PUSH(d->succ, r);
        k = mf_xp_ktab_intern(&d->succ_keys, key, 2, NULL);
    } else if (k < 0) {
        x->work += 10;
        if (d == &x->s[1])
            x->nsim++;
        x->coll.n = 0;
        int rc;
        if (st < 0)
            rc = mf_sim_initial_each(d->m, x->inits + (size_t)inp * x->nslots,
                                     collect_fn, x, SIM_LIMIT);
        else {
            /* Copy the state: the pool may move while interning. */
            mf_val *cur = mf_xmalloc((size_t)(x->nslots ? x->nslots : 1) *
                                     sizeof(*cur));
            memcpy(cur, mf_xp_ktab_get(&d->states, st, NULL),
                   (size_t)x->nslots * sizeof(*cur));
            rc = mf_sim_next_each(d->m, cur,
                                  x->inps + (size_t)inp * x->nslots,
                                  collect_fn, x, SIM_LIMIT);
            free(cur);
        }
        if (rc < 0) {
            char b[256];
            snprintf(b, sizeof(b), "%s: %s", d == &x->s[0] ? "original"
                                                          : "mutant",
                     mf_err_msg());
            return mf_xp_fail(x, rc, b); /* the key stays absent */
        }
        int cnt = x->nslots ? x->coll.n / x->nslots : rc;
        succ_rec r = {d->succ_pool.n, cnt};
        if (cnt > 1)
            d->nondet = 1;
        /* Intern first (may fail), then record. */
        x->tmp.n = 0;
        for (int i = 0; i < cnt; i++) {
            int id = intern_state(x, d, x->coll.v + (size_t)i * x->nslots);
            if (id < 0)
                return id;
            MF_VEC_PUSH(x->tmp, id);
        }
        for (int i = 0; i < cnt; i++)
            MF_VEC_PUSH(d->succ_pool, x->tmp.v[i]);
        MF_VEC_PUSH(d->succ, r);
        k = mf_xp_ktab_intern(&d->succ_keys, key, 2, NULL);
    }
    if (k >= d->succ.n)
        return mf_xp_fail(x, MF_ERROR, "internal: successor memo out of step");
    *ids = d->succ_pool.v + d->succ.v[k].off;
    *n = d->succ.v[k].n;
    return 0;
}

static _Thread_local const side *cmp_side;
static int cmp_by_obs(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int ox = cmp_side->obs.v[x], oy = cmp_side->obs.v[y];
    if (ox != oy)
        return (ox > oy) - (ox < oy);
    return (x > y) - (x < y);
}

static int intern_set(explorer *x, side *d, const int *ids, int n)
{
    x->key.n = 0;
    for (int i = 0; i < n; i++)
        MF_VEC_PUSH(x->key, ids[i]);
    return mf_xp_ktab_intern(&d->sets, x->key.v, n, NULL);
}

/* 1 if every member of set `set` (not empty) of side d refuses input
 * inp (accepts), without a step of its own. */
static int refused_all(explorer *x, side *d, int set, int inp)
{
    int len;
    mf_xp_ktab_get(&d->sets, set, &len);
    if (len == 0 || !acc_decide(x, d->m))
        return 0;
    for (int j = 0; j < len; j++)
        if (accepts(x, d, (int)mf_xp_ktab_get(&d->sets, set, NULL)[j], inp))
            return 0;
    return 1;
}

/* The step of set `set` (-1: the initial states) of side d under input
 * `inp`. Returns the index of its step_rec in d->steps, or < 0. */
int mf_xp_set_step(explorer *x, side *d, int set, int inp)
{
    int64_t key[2] = {set, inp};
    x->work++;
    if (set >= 0 && refused_all(x, d, set, inp)) {
        if (!d->refused1) { /* one record for all: no successor, a refusal */
            step_rec r = {-1, 1, 0, 0};
            int64_t none[2] = {-2, -1}; /* a key no set has: ids and steps
                                           stay one to one */
            MF_VEC_PUSH(d->steps, r);
            d->refused1 = mf_xp_ktab_intern(&d->step_keys, none, 2, NULL) + 1;
        }
        return d->refused1 - 1;
    }
    int k = mf_xp_ktab_find(&d->step_keys, key, 2);
    if (k >= 0)
        return k;
    intvec all = {0};
    step_rec r = {-1, 0, 0, 0};
    int rc = 0;
    if (set < 0) {
        const int *ids;
        int n;
        if ((rc = mf_xp_state_succ(x, d, -1, inp, &ids, &n)) < 0)
            goto done;
        r.anyref = n == 0;
        for (int i = 0; i < n; i++)
            MF_VEC_PUSH(all, ids[i]);
    } else {
        int len;
        mf_xp_ktab_get(&d->sets, set, &len);
        x->work += len;
        for (int j = 0; j < len; j++) {
            /* Re-read: interning states does not touch d->sets, but be
             * safe against the pool moving. */
            int member = (int)mf_xp_ktab_get(&d->sets, set, NULL)[j];
            const int *ids;
            int n;
            if ((rc = mf_xp_state_succ(x, d, member, inp, &ids, &n)) < 0)
                goto done;
            if (n == 0)
                r.anyref = 1;
            for (int i = 0; i < n; i++)
                MF_VEC_PUSH(all, ids[i]);
        }
    }
    all.n = sort_unique(all.v, all.n);
    if (set < 0 && all.n > 1)
        d->nondet = 1;
    if (all.n > 0) {
        r.rset = intern_set(x, d, all.v, all.n);
        cmp_side = d;
        qsort(all.v, (size_t)all.n, sizeof(int), cmp_by_obs);
        r.poff = d->part_pool.n;
        for (int i = 0; i < all.n;) {
            int j = i, o = d->obs.v[all.v[i]];
            while (j < all.n && d->obs.v[all.v[j]] == o)
                j++;
            int sid = intern_set(x, d, all.v + i, j - i);
            MF_VEC_PUSH(d->part_pool, o);
            MF_VEC_PUSH(d->part_pool, sid);
            r.np++;
            i = j;
        }
    }
    MF_VEC_PUSH(d->steps, r);
    k = mf_xp_ktab_intern(&d->step_keys, key, 2, NULL);
done:
    MF_VEC_FREE(all);
    return rc < 0 ? rc : k;
}

/* ------------------------------------------------------------------ */
/* Input valuations                                                     */

/* All valuations of the input cells chosen by `pick` (cartesian product,
 * first cell slowest); other slots hold the first value of their domain. */
int mf_xp_input_product(explorer *x, const mf_model *m, int steps,
                         mf_val **out, int *nout)
{
    int n = m->nslots;
    mf_val *base = mf_xcalloc((size_t)(n ? n : 1), sizeof(*base));
    intvec cells = {0};
    MF_VEC(mf_val *) dv = {0};
    intvec dn = {0};
    int rc = 0;
    long total = 1;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        mf_val *vals;
        int nv;
        if ((rc = mf_type_domain(mf_type_scalar(v->type), &vals, &nv)) < 0) {
            /* Not an input: the placeholder stays 0. */
            int is_inp = v->decl == MF_DECL_IVAR || v->is_input;
            if (!is_inp) {
                rc = 0;
                continue;
            }
            mf_xp_fail(x, rc, mf_err_msg());
            goto done;
        }
        for (int k = 0; k < v->nslots; k++)
            base[v->slot + k] = nv > 0 ? vals[0] : 0;
        int take = v->decl == MF_DECL_IVAR ? steps
                                           : (v->is_input &&
                                              v->decl == MF_DECL_VAR);
        if (!take) {
            free(vals);
            continue;
        }
        for (int k = 0; k < v->nslots; k++) {
            mf_val *c = mf_xmalloc((size_t)(nv ? nv : 1) * sizeof(*c));
            memcpy(c, vals, (size_t)nv * sizeof(*c));
            MF_VEC_PUSH(cells, v->slot + k);
            MF_VEC_PUSH(dv, c);
            MF_VEC_PUSH(dn, nv);
            total *= nv;
            if (total > MAX_INPUTS) {
                free(vals);
                rc = mf_xp_fail(x, MF_ELIMIT, "too many input valuations");
                goto done;
            }
        }
        free(vals);
    }
    *nout = (int)total;
    *out = mf_xmalloc((size_t)(total ? total : 1) * (size_t)(n ? n : 1) *
                      sizeof(mf_val));
    for (long t = 0; t < total; t++) {
        mf_val *row = *out + (size_t)t * n;
        memcpy(row, base, (size_t)n * sizeof(*row));
        long r = t;
        for (int c = cells.n - 1; c >= 0; c--) {
            row[cells.v[c]] = dv.v[c][r % dn.v[c]];
            r /= dn.v[c];
        }
    }
done:
    for (int i = 0; i < dv.n; i++)
        free(dv.v[i]);
    MF_VEC_FREE(dv);
    MF_VEC_FREE(dn);
    MF_VEC_FREE(cells);
    free(base);
    return rc;
}

