/* explore.c - exact killability by explicit-state breadth-first search over
 * the product of original and mutant, with subset construction for
 * non-determinism (definitions in explore.h).
 *
 * Everything is interned as arrays of int64: states (per model), observation
 * vectors (shared by both models, so an observation is one int), sets of
 * states (sorted state ids), product nodes. Successors are computed once per
 * (state, input) with the simulator and memoised; so is the step of a set
 * under an input (its union of successors, whether some member refuses, and
 * the successors partitioned by observation). It knows nothing of Z3: it
 * is the engine's explicit-state proof and the ground truth the engine is
 * tested against (tests/test_agree.c). */
#include "explore.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_MAX_STATES 100000L
/* New nodes between two looks at the memory held and the clock. */
#define BUDGET_EVERY 1024
/* Input valuations per step past which a model is too large. */
#define MAX_INPUTS (1 << 16)
/* Candidate assignments per simulator enumeration. */
#define SIM_LIMIT 2000000L
/* Work units (set steps, simulator calls weigh more) per product node. */
#define WORK_PER_NODE 60L
/* Values of one expression (as the simulator's). */
#define EVAL_LIMIT (1 << 20)

/* ------------------------------------------------------------------ */
/* Interning tables of int64 arrays                                     */

typedef struct {
    int64_t *pool;
    size_t pn, pcap;
    size_t *off;
    int *len;
    uint64_t *hash;
    int n, cap;
    int *ht; /* open addressing, -1 empty */
    size_t hcap;
} ktab;

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

static void ktab_free(ktab *t)
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

static const int64_t *ktab_get(const ktab *t, int id, int *len)
{
    if (len)
        *len = t->len[id];
    return t->pool + t->off[id];
}

/* Id of key k, or -1. */
static int ktab_find(const ktab *t, const int64_t *k, int len)
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
static int ktab_intern(ktab *t, const int64_t *k, int len, int *is_new)
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

/* ------------------------------------------------------------------ */
/* One model: its states, observations, memoised successors             */

typedef MF_VEC(int) intvec;
typedef MF_VEC(int64_t) i64vec;

typedef struct {
    int off, n; /* successor state ids in succ_pool */
} succ_rec;

typedef struct {
    int rset;   /* union of successors as a set id, -1 if none */
    int anyref; /* some member has no successor */
    int poff, np; /* np (obs, set) pairs at part_pool[poff..], by obs */
} step_rec;

typedef struct explorer explorer;

typedef struct {
    const mf_model *m;
    ktab states;
    intvec obs;      /* per state: observation id */
    ktab succ_keys;  /* (state id or -1 for initial, input index) */
    MF_VEC(succ_rec) succ;
    intvec succ_pool;
    ktab sets;       /* sorted arrays of state ids */
    ktab step_keys;  /* (set id or -1 for initial, input index) */
    MF_VEC(step_rec) steps;
    intvec part_pool;
    int nondet;
} side;

struct explorer {
    side s[2]; /* 0: original, 1: mutant */
    ktab obs;  /* observation vectors, shared */
    int nslots, nobs;
    mf_val *obsbuf;
    int ninit, ninp;
    mf_val *inits; /* ninit * nslots */
    mf_val *inps;  /* ninp * nslots */
    long work, max_work;
    size_t max_bytes; /* mf_explore_ctx_set_budget: 0 none */
    char mut_hash[65]; /* the model s[1] holds (its pointer may be stale) */
    double deadline;  /* CLOCK_MONOTONIC seconds, 0 none */
    int enabled;   /* the original never refuses a step input: R is moot
                      (-1: not known yet) */
    int init_rc;   /* building the input valuations failed */
    char init_msg[256];
    int err;       /* first error code */
    char msg[256];
    /* The mutant's steps through the original's (delta_succ): */
    int delta_off; /* mf_explore_ctx_set_delta(ctx, 0) */
    long nsim, ndelta; /* the mutant's steps: by the simulator, by delta */
    int dmode;     /* DELTA_NONE, DELTA_NEXT or DELTA_INIT */
    int ditem;     /* DELTA_NEXT: the item that differs */
    intvec m2o;    /* per mutant state id: the original's id of the same
                      vector, -1 none, -2 not looked up */
    intvec o2m;    /* per original state id: the mutant's id, -1 none */
    mf_valset ev[2]; /* the item's values in the original and the mutant */
    /* scratch */
    i64vec key;
    MF_VEC(mf_val) coll;
    intvec tmp;
};

static int fail(explorer *x, int code, const char *what)
{
    if (!x->err) {
        x->err = code;
        snprintf(x->msg, sizeof(x->msg), "%s", what);
    }
    return code;
}

/* Bytes held by a table and by the vectors of a side (capacities). */
static size_t ktab_bytes(const ktab *t)
{
    return t->pcap * sizeof *t->pool +
           (size_t)t->cap * (sizeof *t->off + sizeof *t->len + sizeof *t->hash) +
           t->hcap * sizeof *t->ht;
}

#define VEC_BYTES(vec) ((size_t)(vec).cap * sizeof *(vec).v)

static size_t side_bytes(const side *d)
{
    return ktab_bytes(&d->states) + VEC_BYTES(d->obs) +
           ktab_bytes(&d->succ_keys) + VEC_BYTES(d->succ) +
           VEC_BYTES(d->succ_pool) + ktab_bytes(&d->sets) +
           ktab_bytes(&d->step_keys) + VEC_BYTES(d->steps) +
           VEC_BYTES(d->part_pool);
}

static double now_s(void)
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
    int id = ktab_find(&d->states, st, x->nslots);
    if (id >= 0)
        return id;
    int n = mf_sim_observe(x->obsbuf, x->nobs, d->m, st);
    if (n < 0) {
        char b[256];
        snprintf(b, sizeof(b), "%s: observing a state: %s",
                 d == &x->s[0] ? "original" : "mutant", mf_err_msg());
        return fail(x, n, b);
    }
    int o = ktab_intern(&x->obs, x->obsbuf, n, NULL);
    MF_VEC_PUSH(d->obs, o);
    id = ktab_intern(&d->states, st, x->nslots, NULL);
    if (d == &x->s[1])
        MF_VEC_PUSH(x->m2o, -2);
    return id;
}

static int state_succ(explorer *x, side *d, int st, int inp, const int **ids,
                      int *n);

/* --- The mutant's steps through the original's ---
 * A mutant of a next() assignment whose right-hand side reads only the
 * current state and the input (no next()) has the original's successors
 * from every state where the two right-hand sides have the same values:
 * the enumeration (sim.c) differs in nothing else. A mutant of an init()
 * assignment or an INIT constraint has them from every state. Where they
 * apply, the mutant's step is the original's, computed once per context
 * for every mutant (the mutants' own steps were most of the explorer's
 * time: docs/semantics.md), and its states take the original's
 * observations (the same DEFINEs and variables are observed). */
enum {
    DELTA_NONE = MF_STEP_DIFFERS,
    DELTA_NEXT = MF_STEP_NEXT,
    DELTA_INIT = MF_STEP_SAME,
    DELTA_DEFINE = 3 /* internal: a DEFINE that only next() reads now */
};

/* 1 if e reads a DEFINE marked in `in` (by item index): *any set for
 * every such read, *under_next for one inside next() (innext: e is). */
static int reads_define(const mf_model *m, const char *in, const mf_expr *e,
                        int innext, int *any, int *under_next)
{
    if (!e)
        return 0;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE && in[e->ref]) {
        *any = 1;
        if (innext)
            *under_next = 1;
    }
    for (int k = 0; k < e->nkids; k++)
        reads_define(m, in, e->kids[k], innext || e->kind == MF_E_NEXT, any,
                     under_next);
    return *any;
}

/* A mutant of DEFINE `item` steps as the original wherever the DEFINE has
 * the same value in the current state under the input, when: nothing
 * observed reads it (no observed DEFINEs at all), its bodies read no
 * next(), and, through other DEFINEs, only next() assignments read it, in
 * the current state (not inside next()): invariant assignments, INVAR and
 * TRANS read the next state, whose value of it may differ. Initial
 * states are the simulator's. */
static int define_delta(const mf_model *o, const mf_model *m, int item)
{
    if (o->nobs_defines || mf_expr_reads_next(o, o->items[item].e) ||
        mf_expr_reads_next(m, m->items[item].e))
        return DELTA_NONE;
    char *in = mf_xcalloc((size_t)o->nitems, 1);
    in[item] = 1;
    for (int grew = 1; grew;) {
        grew = 0;
        for (int i = 0; i < o->nitems; i++) {
            int any = 0, nx = 0;
            if (o->items[i].kind == MF_IT_DEFINE && !in[i] &&
                reads_define(o, in, o->items[i].e, 0, &any, &nx)) {
                in[i] = 1;
                grew = 1;
            }
        }
    }
    int ok = 1;
    for (int i = 0; i < o->nitems && ok; i++) {
        const mf_item *it = &o->items[i];
        int any = 0, nx = 0, lany = 0, lnx = 0;
        reads_define(o, in, it->e, 0, &any, &nx);
        reads_define(o, in, it->lhs, 0, &lany, &lnx);
        switch (it->kind) {
        case MF_IT_DEFINE:
        case MF_IT_INIT:
        case MF_IT_INIT_C:
            break;
        case MF_IT_NEXT:
            ok = !nx && !lany;
            break;
        default:
            ok = !any && !lany;
            break;
        }
    }
    free(in);
    return ok ? DELTA_DEFINE : DELTA_NONE;
}

static int same_expr(const mf_expr *a, const mf_expr *b)
{
    if (!a || !b)
        return a == b;
    return mf_expr_equal(a, b);
}

/* How the mutant's steps relate to the original's (DELTA_*), and the item
 * that differs; DELTA_NONE unless the models differ in one item at most,
 * with the same variables, types and observables. */
static int delta_mode(const mf_model *o, const mf_model *m, int *item)
{
    *item = -1;
    if (o->nitems != m->nitems || o->nvars != m->nvars ||
        o->nslots != m->nslots || o->nobs_defines != m->nobs_defines)
        return DELTA_NONE;
    for (int i = 0; i < o->nvars; i++) {
        const mf_var *a = &o->vars[i], *b = &m->vars[i];
        if (a->decl != b->decl || a->slot != b->slot ||
            a->nslots != b->nslots || a->is_input != b->is_input ||
            a->is_observable != b->is_observable ||
            !mf_type_equal(a->type, b->type))
            return DELTA_NONE;
    }
    for (int i = 0; i < o->nobs_defines; i++)
        if (o->obs_defines[i] != m->obs_defines[i])
            return DELTA_NONE;
    for (int i = 0; i < o->nitems; i++) {
        const mf_item *a = &o->items[i], *b = &m->items[i];
        if (a->kind != b->kind || a->var != b->var ||
            (a->name && b->name ? strcmp(a->name, b->name) != 0
                                : a->name != b->name) ||
            !same_expr(a->lhs, b->lhs))
            return DELTA_NONE;
        if (same_expr(a->e, b->e))
            continue;
        if (*item >= 0)
            return DELTA_NONE;
        *item = i;
    }
    if (*item < 0)
        return DELTA_INIT; /* the same items: every step is the original's */
    switch (o->items[*item].kind) {
    case MF_IT_INIT:
    case MF_IT_INIT_C:
        return DELTA_INIT;
    case MF_IT_NEXT:
        return mf_expr_reads_next(o, o->items[*item].e) ||
                       mf_expr_reads_next(m, m->items[*item].e)
                   ? DELTA_NONE
                   : DELTA_NEXT;
    case MF_IT_DEFINE:
        return define_delta(o, m, *item);
    default:
        return DELTA_NONE;
    }
}

int mf_explore_step_delta(const mf_model *orig, const mf_model *mut,
                          int *item)
{
    int d = delta_mode(orig, mut, item);
    return d == DELTA_DEFINE ? MF_STEP_DIFFERS : d;
}

int mf_explore_step_agrees(const mf_model *orig, const mf_model *mut,
                           int item, const mf_val *cur, const mf_val *inp,
                           mf_valset vals[2])
{
    const mf_model *ms[2] = {orig, mut};
    for (int w = 0; w < 2; w++) {
        vals[w].n = 0;
        if (mf_eval(&vals[w], ms[w], ms[w]->items[item].e, cur, NULL, inp,
                    EVAL_LIMIT) < 0)
            return 0;
    }
    return vals[0].n == vals[1].n &&
           !memcmp(vals[0].v, vals[1].v, (size_t)vals[0].n * sizeof(*vals[0].v));
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
            x->m2o.v[st] = ktab_find(&O->states, ktab_get(&P->states, st, NULL),
                                     x->nslots);
        if ((o = x->m2o.v[st]) < 0)
            return 0;
        if ((x->dmode == DELTA_NEXT || x->dmode == DELTA_DEFINE) &&
            !mf_explore_step_agrees(O->m, P->m, x->ditem,
                                    ktab_get(&P->states, st, NULL), inrow,
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
    if (state_succ(x, O, o, inp, &ids, &n) < 0) {
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
            const mf_val *vec = ktab_get(&O->states, q, NULL);
            int is_new, id = ktab_intern(&P->states, vec, x->nslots, &is_new);
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

/* The successors of state `st` (-1: the initial states) of side d under
 * input `inp` (index into inps, or inits for the initial states). */
static int state_succ(explorer *x, side *d, int st, int inp, const int **ids,
                      int *n)
{
    int64_t key[2] = {st, inp};
    int k = ktab_find(&d->succ_keys, key, 2);
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
        k = ktab_intern(&d->succ_keys, key, 2, NULL);
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
            memcpy(cur, ktab_get(&d->states, st, NULL),
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
            return fail(x, rc, b); /* the key stays absent */
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
        k = ktab_intern(&d->succ_keys, key, 2, NULL);
    }
    if (k >= d->succ.n)
        return fail(x, MF_ERROR, "internal: successor memo out of step");
    *ids = d->succ_pool.v + d->succ.v[k].off;
    *n = d->succ.v[k].n;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
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
    return ktab_intern(&d->sets, x->key.v, n, NULL);
}

/* The step of set `set` (-1: the initial states) of side d under input
 * `inp`. Returns the index of its step_rec in d->steps, or < 0. */
static int set_step(explorer *x, side *d, int set, int inp)
{
    int64_t key[2] = {set, inp};
    x->work++;
    int k = ktab_find(&d->step_keys, key, 2);
    if (k >= 0)
        return k;
    intvec all = {0};
    step_rec r = {-1, 0, 0, 0};
    int rc = 0;
    if (set < 0) {
        const int *ids;
        int n;
        if ((rc = state_succ(x, d, -1, inp, &ids, &n)) < 0)
            goto done;
        r.anyref = n == 0;
        for (int i = 0; i < n; i++)
            MF_VEC_PUSH(all, ids[i]);
    } else {
        int len;
        ktab_get(&d->sets, set, &len);
        x->work += len;
        for (int j = 0; j < len; j++) {
            /* Re-read: interning states does not touch d->sets, but be
             * safe against the pool moving. */
            int member = (int)ktab_get(&d->sets, set, NULL)[j];
            const int *ids;
            int n;
            if ((rc = state_succ(x, d, member, inp, &ids, &n)) < 0)
                goto done;
            if (n == 0)
                r.anyref = 1;
            for (int i = 0; i < n; i++)
                MF_VEC_PUSH(all, ids[i]);
        }
    }
    if (all.n > 1) {
        qsort(all.v, (size_t)all.n, sizeof(int), cmp_int);
        int w = 1;
        for (int i = 1; i < all.n; i++)
            if (all.v[i] != all.v[w - 1])
                all.v[w++] = all.v[i];
        all.n = w;
    }
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
    k = ktab_intern(&d->step_keys, key, 2, NULL);
done:
    MF_VEC_FREE(all);
    return rc < 0 ? rc : k;
}

/* ------------------------------------------------------------------ */
/* Input valuations                                                     */

/* All valuations of the input cells chosen by `pick` (cartesian product,
 * first cell slowest); other slots hold the first value of their domain. */
static int input_product(explorer *x, const mf_model *m, int steps,
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
            fail(x, rc, mf_err_msg());
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
                rc = fail(x, MF_ELIMIT, "too many input valuations");
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

/* ------------------------------------------------------------------ */
/* Breadth-first search                                                 */

typedef struct {
    ktab nodes;
    intvec parent, input, depth;
} bfs;

static void bfs_free(bfs *b)
{
    ktab_free(&b->nodes);
    MF_VEC_FREE(b->parent);
    MF_VEC_FREE(b->input);
    MF_VEC_FREE(b->depth);
}

/* Add a node; 1 if new, 0 if seen, MF_ELIMIT past max. */
static int bfs_add(explorer *x, bfs *b, const int64_t *key, int len,
                   int parent, int input, long max)
{
    int is_new;
    ktab_intern(&b->nodes, key, len, &is_new);
    if (!is_new)
        return 0;
    MF_VEC_PUSH(b->parent, parent);
    MF_VEC_PUSH(b->input, input);
    MF_VEC_PUSH(b->depth, parent < 0 ? 0 : b->depth.v[parent] + 1);
    if (b->nodes.n > max)
        return fail(x, MF_ELIMIT, "more product states than the limit");
    if (b->nodes.n % BUDGET_EVERY == 0 && (x->max_bytes || x->deadline)) {
        size_t held = side_bytes(&x->s[0]) + side_bytes(&x->s[1]) +
                      ktab_bytes(&x->obs) + ktab_bytes(&b->nodes) +
                      VEC_BYTES(b->parent) + VEC_BYTES(b->input) +
                      VEC_BYTES(b->depth);
        if (x->max_bytes && held > x->max_bytes)
            return fail(x, MF_ELIMIT, "past the memory budget");
        if (x->deadline && now_s() > x->deadline)
            return fail(x, MF_ELIMIT, "past the time budget");
    }
    return 1;
}

/* The killing test: the path to `node` (-1: none, a kill in state 0 under
 * initial input `input`) then `input`. */
static mf_input_seq *make_test(explorer *x, const bfs *b, int node, int input)
{
    int n = x->nslots;
    size_t sz = (size_t)(n ? n : 1) * sizeof(mf_val);
    mf_input_seq *s = mf_xcalloc(1, sizeof(*s));
    s->init = mf_xmalloc(sz);
    if (node < 0) {
        memcpy(s->init, x->inits + (size_t)input * n, (size_t)n * sizeof(mf_val));
        s->nsteps = 0;
        s->steps = mf_xmalloc(sz);
        s->choices = mf_xcalloc(1, sizeof(int));
        return s;
    }
    int len = b->depth.v[node] + 1;
    s->nsteps = len;
    s->steps = mf_xmalloc(sz * (size_t)len);
    s->choices = mf_xcalloc((size_t)len, sizeof(int));
    int k = len - 1;
    memcpy(s->steps + (size_t)k * n, x->inps + (size_t)input * n,
           (size_t)n * sizeof(mf_val));
    for (int v = node; v >= 0; v = b->parent.v[v]) {
        if (b->parent.v[v] < 0)
            memcpy(s->init, x->inits + (size_t)b->input.v[v] * n,
                   (size_t)n * sizeof(mf_val));
        else {
            k--;
            memcpy(s->steps + (size_t)k * n,
                   x->inps + (size_t)b->input.v[v] * n,
                   (size_t)n * sizeof(mf_val));
        }
    }
    return s;
}

/* The mutant's observations along the potential kill of make_test: those
 * of the nodes on the path (all states of a node's mutant set show one),
 * then `kobs` (an observation id; -1: the mutant refuses the last input,
 * and the last vector is left zero). (length + 1) * nobs values. */
static mf_val *make_word(explorer *x, const bfs *b, int node, int kobs)
{
    int len = node < 0 ? 0 : b->depth.v[node] + 1, no = x->nobs;
    mf_val *w = mf_xcalloc((size_t)(len + 1) * (size_t)(no ? no : 1),
                           sizeof *w);
    const side *P = &x->s[1];
    for (int v = node; v >= 0; v = b->parent.v[v]) {
        int set = (int)ktab_get(&b->nodes, v, NULL)[2];
        int member = (int)ktab_get(&P->sets, set, NULL)[0];
        int n;
        const int64_t *o = ktab_get(&x->obs, P->obs.v[member], &n);
        memcpy(w + (size_t)b->depth.v[v] * no, o, (size_t)n * sizeof *w);
    }
    if (kobs >= 0) {
        int n;
        const int64_t *o = ktab_get(&x->obs, kobs, &n);
        memcpy(w + (size_t)len * no, o, (size_t)n * sizeof *w);
    }
    return w;
}

#define REC(d, k) (&(d)->steps.v[(k)])
#define PARTS(d, r) ((d)->part_pool.v + (r)->poff)

static void set_verdict(explorer *x, mf_explore_notion *nt, int rc, bfs *b)
{
    nt->nodes = b->nodes.n;
    if (rc == MF_ELIMIT || (rc == 0 && x->work > x->max_work))
        nt->verdict = MF_XV_LIMIT;
    else if (rc < 0)
        nt->verdict = MF_XV_ERROR;
}

static int check_work(explorer *x)
{
    if (x->work > x->max_work)
        return fail(x, MF_ELIMIT, "work limit reached");
    if (x->deadline && (x->work & 4095) == 0 && now_s() > x->deadline)
        return fail(x, MF_ELIMIT, "past the time budget");
    return 0;
}

/* Append to *todo the states of ids[0..n) not in *seen yet. */
static void push_unseen(intvec *todo, ktab *seen, const int *ids, int n)
{
    for (int j = 0; j < n; j++) {
        int64_t k = ids[j];
        int is_new;
        ktab_intern(seen, &k, 1, &is_new);
        if (is_new)
            MF_VEC_PUSH(*todo, ids[j]);
    }
}

/* 1 if no reachable state of the original refuses a step input (then every
 * input sequence with a valid initial input is a valid test, and the node
 * component R can be dropped: it is kept as the constant ALL_R), 0 if one
 * does or the original has more than max_states states, < 0 on error. */
#define ALL_R (-2)
static int original_input_enabled(explorer *x, long max_states)
{
    side *M = &x->s[0];
    intvec todo = {0};
    ktab seen = {0};
    int rc = 1;
    for (int i0 = 0; i0 < x->ninit && rc == 1; i0++) {
        const int *ids;
        int n;
        if ((rc = state_succ(x, M, -1, i0, &ids, &n)) < 0)
            break;
        rc = 1;
        push_unseen(&todo, &seen, ids, n);
    }
    for (int t = 0; t < todo.n && rc == 1; t++) {
        if (seen.n > max_states || x->work > x->max_work / 2 ||
            (t % BUDGET_EVERY == 0 && x->max_bytes &&
             side_bytes(M) + ktab_bytes(&seen) > x->max_bytes / 2)) {
            rc = 0;
            break;
        }
        for (int i = 0; i < x->ninp && rc == 1; i++) {
            const int *ids;
            int n;
            x->work++;
            if ((rc = state_succ(x, M, todo.v[t], i, &ids, &n)) < 0)
                break;
            rc = n > 0;
            push_unseen(&todo, &seen, ids, n);
        }
    }
    MF_VEC_FREE(todo);
    ktab_free(&seen);
    return rc;
}

/* The depth of `node`, or -1 (and *cut set) when it lies at max_depth (0:
 * no limit): then it is not expanded. */
static int node_depth(const bfs *b, int node, int max_depth, int *cut)
{
    int dep = b->depth.v[node];
    if (max_depth > 0 && dep >= max_depth) {
        *cut = 1;
        return -1;
    }
    return dep;
}

/* A search that left nodes at the depth limit unexpanded is inconclusive. */
static int cut_off(explorer *x, mf_explore_notion *nt)
{
    int rc = fail(x, MF_ELIMIT, "depth limit reached");
    nt->cut = 1;
    return rc;
}

/* The kill found on the step from `node` (-1: in state 0) under input
 * `inp`: its length and test. */
static void killed_at(explorer *x, const bfs *b, mf_explore_notion *nt,
                      int node, int inp)
{
    nt->verdict = MF_XV_KILLED;
    nt->length = node < 0 ? 0 : b->depth.v[node] + 1;
    nt->test = make_test(x, b, node, inp);
}

/* The step from `node` (-1: the initial states under initial input inp)
 * under input inp of the potential search: km and kp are the original's
 * and the mutant's steps, R the node's first component after it. Adds a
 * node (R, T, T') for every observation the two share; the mutant is
 * killed by one it shows alone, or by a refusal. 1 if killed (nt says
 * how), 0 if not, -1 if bfs_add failed; *rc is bfs_add's last result. */
static int potential_step(explorer *x, bfs *b, mf_explore_notion *nt,
                          int64_t R, int km, int kp, int node, int inp,
                          long max_states, int *rc)
{
    side *M = &x->s[0], *P = &x->s[1];
    step_rec *rm = REC(M, km), *rp = REC(P, kp);
    int killed = rp->anyref, a = 0, kobs = -1;
    int64_t key[3];
    for (int j = 0; j < rp->np && !killed; j++) {
        int o = PARTS(P, rp)[2 * j];
        while (a < rm->np && PARTS(M, rm)[2 * a] < o)
            a++;
        if (a == rm->np || PARTS(M, rm)[2 * a] != o) {
            killed = 1;
            kobs = o;
            break;
        }
        key[0] = R;
        key[1] = PARTS(M, rm)[2 * a + 1];
        key[2] = PARTS(P, rp)[2 * j + 1];
        if ((*rc = bfs_add(x, b, key, 3, node, inp, max_states)) < 0)
            return -1;
    }
    if (!killed)
        return 0;
    killed_at(x, b, nt, node, inp);
    nt->refusal = rp->anyref;
    nt->mobs = make_word(x, b, node, kobs);
    return 1;
}

/* A pair (T, T') of state ids (both >= 0) packed as T << 32 | T', so that
 * sorting the packed values orders pairs by T, then T'. */
typedef MF_VEC(int64_t) pairvec;

/* Append to *out the pairs (T, T') of parts with a common observation. */
static void match_parts(explorer *x, const step_rec *rm, const step_rec *rp,
                        pairvec *out)
{
    const int *pm = PARTS(&x->s[0], rm), *pp = PARTS(&x->s[1], rp);
    int a = 0, c = 0;
    while (a < rm->np && c < rp->np) {
        if (pm[2 * a] < pp[2 * c])
            a++;
        else if (pm[2 * a] > pp[2 * c])
            c++;
        else {
            int64_t q = (int64_t)pm[2 * a + 1] << 32 | (uint32_t)pp[2 * c + 1];
            MF_VEC_PUSH(*out, q);
            a++;
            c++;
        }
    }
}

/* Node key (R, pairs sorted and deduplicated). */
static void pair_key(explorer *x, int R, pairvec *ps)
{
    ps->n = mf_sort_unique_i64(ps->v, ps->n);
    x->key.n = 0;
    MF_VEC_PUSH(x->key, R);
    for (int i = 0; i < ps->n; i++) {
        MF_VEC_PUSH(x->key, ps->v[i] >> 32);
        MF_VEC_PUSH(x->key, ps->v[i] & 0xffffffff);
    }
}

/* The child (R, pairs ps) of `node` (-1: a root) under input inp in the
 * definite search, or the kill when no pair of states shows one
 * observation (ps empty). Returns as potential_step. */
static int definite_step(explorer *x, bfs *b, mf_explore_notion *nt, int R,
                         pairvec *ps, int node, int inp, long max_states,
                         int *rc)
{
    if (ps->n == 0) {
        killed_at(x, b, nt, node, inp);
        return 1;
    }
    pair_key(x, R, ps);
    if ((*rc = bfs_add(x, b, x->key.v, x->key.n, node, inp, max_states)) < 0)
        return -1;
    return 0;
}

/* The step from `node` under inp of the inclusion search (every
 * behaviour of the original is one of the mutant's): each observation the
 * original shows must be one the mutant shows from its states with the
 * same word; refusals do not matter (a refusing run has no full word).
 * Returns 1 when the original shows one alone (nt KILLED: an original
 * word that is not the mutant's, which proves nothing), else as
 * potential_step. */
static int included_step(explorer *x, bfs *b, mf_explore_notion *nt,
                         int64_t R, int km, int kp, int node, int inp,
                         long max_states, int *rc)
{
    side *M = &x->s[0], *P = &x->s[1];
    step_rec *rm = REC(M, km), *rp = REC(P, kp);
    int c = 0;
    int64_t key[3];
    for (int a = 0; a < rm->np; a++) {
        int o = PARTS(M, rm)[2 * a];
        while (c < rp->np && PARTS(P, rp)[2 * c] < o)
            c++;
        if (c == rp->np || PARTS(P, rp)[2 * c] != o) {
            killed_at(x, b, nt, node, inp);
            return 1;
        }
        key[0] = R;
        key[1] = PARTS(M, rm)[2 * a + 1];
        key[2] = PARTS(P, rp)[2 * c + 1];
        if ((*rc = bfs_add(x, b, key, 3, node, inp, max_states)) < 0)
            return -1;
    }
    return 0;
}

/* The joint search (MF_EXPLORE_JOINT): the pairs (s, s') of an original
 * and a mutant state with one observation, reachable from initial pairs
 * by steps of both under one input to a pair with one observation; then
 * the greatest set of them from which every input has a step to a pair of
 * the set. When every initial input the original accepts has an initial
 * pair in that set, every test has an original and a mutant behaviour
 * with the same observations: no definite kill (nt NOT_KILLABLE); else
 * nt KILLED without a test, which decides nothing. */
static int joint_search(explorer *x, mf_explore_notion *nt, long max_states)
{
    side *M = &x->s[0], *P = &x->s[1];
    ktab pairs = {0};
    intvec roots = {0}, rootoff = {0}, eoff = {0}, elen = {0}, edges = {0};
    char *alive = NULL;
    int rc = 0, ok = 1;
    nt->verdict = MF_XV_NOT_KILLABLE;
    /* The pairs of ids a and b (successors) with one observation, interned,
     * appended to *out. */
#define JOINT_MATCH(ia, na, ib, nb, out)                                      \
    for (int u = 0; u < (na) && rc >= 0; u++)                                  \
        for (int w = 0; w < (nb); w++)                                         \
            if (M->obs.v[(ia)[u]] == P->obs.v[(ib)[w]]) {                      \
                int64_t k2[2] = {(ia)[u], (ib)[w]};                            \
                int id = ktab_intern(&pairs, k2, 2, NULL);                     \
                MF_VEC_PUSH(out, id);                                          \
            }
    for (int i0 = 0; i0 < x->ninit && rc >= 0; i0++) {
        const int *ia, *ib;
        int na, nb;
        MF_VEC_PUSH(rootoff, roots.n);
        if ((rc = state_succ(x, M, -1, i0, &ia, &na)) < 0)
            break;
        if (na == 0) {
            MF_VEC_PUSH(rootoff, -1); /* not a valid test: no root needed */
            continue;
        }
        /* state_succ's ids may move when P's are computed: copy. */
        intvec ca = {0};
        for (int u = 0; u < na; u++)
            MF_VEC_PUSH(ca, ia[u]);
        if ((rc = state_succ(x, P, -1, i0, &ib, &nb)) < 0) {
            MF_VEC_FREE(ca);
            break;
        }
        JOINT_MATCH(ca.v, ca.n, ib, nb, roots);
        MF_VEC_FREE(ca);
        MF_VEC_PUSH(rootoff, roots.n);
    }
    intvec ca = {0}, cb = {0};
    for (int p = 0; p < pairs.n && rc >= 0; p++) {
        if (pairs.n > max_states) {
            rc = fail(x, MF_ELIMIT, "more product states than the limit");
            break;
        }
        const int64_t *k = ktab_get(&pairs, p, NULL);
        int s0 = (int)k[0], s1 = (int)k[1];
        for (int i = 0; i < x->ninp && rc >= 0; i++) {
            const int *ia, *ib;
            int na, nb;
            if ((rc = check_work(x)) < 0)
                break;
            if ((rc = state_succ(x, M, s0, i, &ia, &na)) < 0)
                break;
            ca.n = 0;
            for (int u = 0; u < na; u++)
                MF_VEC_PUSH(ca, ia[u]);
            if ((rc = state_succ(x, P, s1, i, &ib, &nb)) < 0)
                break;
            cb.n = 0;
            for (int u = 0; u < nb; u++)
                MF_VEC_PUSH(cb, ib[u]);
            MF_VEC_PUSH(eoff, edges.n);
            JOINT_MATCH(ca.v, ca.n, cb.v, cb.n, edges);
            MF_VEC_PUSH(elen, edges.n - eoff.v[eoff.n - 1]);
        }
    }
#undef JOINT_MATCH
    MF_VEC_FREE(ca);
    MF_VEC_FREE(cb);
    if (rc < 0)
        goto out;
    /* The greatest set: drop pairs with an input leading out of it. */
    int n = pairs.n;
    alive = mf_xmalloc((size_t)(n ? n : 1));
    memset(alive, 1, (size_t)(n ? n : 1));
    for (int changed = 1; changed;) {
        changed = 0;
        for (int p = 0; p < n; p++) {
            if (!alive[p])
                continue;
            for (int i = 0; i < x->ninp && alive[p]; i++) {
                int e = p * x->ninp + i, any = 0;
                for (int q = 0; q < elen.v[e] && !any; q++)
                    any = alive[edges.v[eoff.v[e] + q]];
                if (!any) {
                    alive[p] = 0;
                    changed = 1;
                }
            }
        }
    }
    for (int i0 = 0; i0 < x->ninit && ok; i0++) {
        int from = rootoff.v[2 * i0], to = rootoff.v[2 * i0 + 1], any = 0;
        if (to < 0)
            continue;
        for (int q = from; q < to && !any; q++)
            any = alive[roots.v[q]];
        ok = any;
    }
    if (!ok)
        nt->verdict = MF_XV_KILLED;
out:
    nt->nodes = pairs.n;
    if (rc == MF_ELIMIT)
        nt->verdict = MF_XV_LIMIT;
    else if (rc < 0)
        nt->verdict = MF_XV_ERROR;
    free(alive);
    ktab_free(&pairs);
    MF_VEC_FREE(roots);
    MF_VEC_FREE(rootoff);
    MF_VEC_FREE(eoff);
    MF_VEC_FREE(elen);
    MF_VEC_FREE(edges);
    return rc;
}

/* A search of one notion in progress. Its nodes are (R, then pairs
 * (S, S') of a state set of the original and one of the mutant): the
 * potential search follows one pair, (R, S, S'); the definite one all the
 * pairs a test can lead to at once, (R, {(S_w, S'_w)}). */
typedef struct {
    explorer *x;
    mf_explore_notion *nt;
    bfs b;
    pairvec ps;      /* definite: the pairs (T, T') of the step so far */
    long max_states;
    int definite;    /* 1: the definite notion, 2: inclusion, 0: the
                        potential one */
} search;

/* The step of one pair (S, S') from `node` (-1: a root, under initial
 * input inp) under input inp, whose original and mutant steps are km and
 * kp: the potential search adds its children now, the definite one keeps
 * its pairs for step_end. Returns as potential_step. */
static int step_pair(search *s, int R, int km, int kp, int node, int inp,
                     int *rc)
{
    explorer *x = s->x;
    if (s->definite == 1) {
        match_parts(x, REC(&x->s[0], km), REC(&x->s[1], kp), &s->ps);
        return 0;
    }
    if (s->definite == 2)
        return included_step(x, &s->b, s->nt, R, km, kp, node, inp,
                             s->max_states, rc);
    return potential_step(x, &s->b, s->nt, R, km, kp, node, inp,
                          s->max_states, rc);
}

/* The end of a step after all its pairs: the definite search's child or
 * kill. Returns as potential_step. */
static int step_end(search *s, int R, int node, int inp, int *rc)
{
    if (s->definite != 1)
        return 0;
    return definite_step(s->x, &s->b, s->nt, R, &s->ps, node, inp,
                         s->max_states, rc);
}

/* Breadth-first search for the shortest kill of one notion: 0 (nt says
 * what was found) or a negative code. */
static int run_search(explorer *x, mf_explore_notion *nt, long max_states,
                      int max_depth, int definite)
{
    side *M = &x->s[0], *P = &x->s[1];
    search s = {.x = x, .nt = nt, .max_states = max_states,
                .definite = definite};
    i64vec cur = {0};
    int rc = 0, cut = 0;
    nt->verdict = MF_XV_NOT_KILLABLE;

    for (int i0 = 0; i0 < x->ninit; i0++) {
        int km = set_step(x, M, -1, i0);
        if (km < 0) { rc = km; goto out; }
        if (REC(M, km)->rset < 0)
            continue; /* the original refuses this initial input */
        int kp = set_step(x, P, -1, i0);
        if (kp < 0) { rc = kp; goto out; }
        int R = x->enabled || definite == 2 ? ALL_R : REC(M, km)->rset;
        s.ps.n = 0;
        if (step_pair(&s, R, km, kp, -1, i0, &rc) ||
            step_end(&s, R, -1, i0, &rc))
            goto out;
    }
    for (int node = 0; node < s.b.nodes.n; node++) {
        int dep = node_depth(&s.b, node, max_depth, &cut);
        if (dep < 0)
            continue;
        nt->depth = dep;
        /* A copy: adding nodes may move the table's keys. */
        int len;
        const int64_t *nk = ktab_get(&s.b.nodes, node, &len);
        cur.n = 0;
        for (int i = 0; i < len; i++)
            MF_VEC_PUSH(cur, nk[i]);
        for (int i = 0; i < x->ninp; i++) {
            if ((rc = check_work(x)) < 0)
                goto out;
            int R2 = ALL_R;
            if (cur.v[0] != ALL_R) {
                int kr = set_step(x, M, (int)cur.v[0], i);
                if (kr < 0) { rc = kr; goto out; }
                if ((R2 = REC(M, kr)->rset) < 0)
                    continue; /* the original refuses i: not a test */
            }
            s.ps.n = 0;
            for (int j = 1; j + 1 < cur.n; j += 2) {
                int km = set_step(x, M, (int)cur.v[j], i);
                if (km < 0) { rc = km; goto out; }
                int kp = set_step(x, P, (int)cur.v[j + 1], i);
                if (kp < 0) { rc = kp; goto out; }
                if (step_pair(&s, R2, km, kp, node, i, &rc))
                    goto out;
            }
            if (step_end(&s, R2, node, i, &rc))
                goto out;
        }
    }
    if (cut)
        rc = cut_off(x, nt);
out:
    set_verdict(x, nt, rc, &s.b);
    MF_VEC_FREE(s.ps);
    MF_VEC_FREE(cur);
    bfs_free(&s.b);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

static void side_free(side *d)
{
    ktab_free(&d->states);
    MF_VEC_FREE(d->obs);
    ktab_free(&d->succ_keys);
    MF_VEC_FREE(d->succ);
    MF_VEC_FREE(d->succ_pool);
    ktab_free(&d->sets);
    ktab_free(&d->step_keys);
    MF_VEC_FREE(d->steps);
    MF_VEC_FREE(d->part_pool);
}

static mf_input_seq *seq_copy(const mf_input_seq *s, int nslots)
{
    size_t sz = (size_t)(nslots ? nslots : 1) * sizeof(mf_val);
    mf_input_seq *c = mf_xcalloc(1, sizeof(*c));
    c->nsteps = s->nsteps;
    c->init_choice = s->init_choice;
    c->init = mf_xmalloc(sz);
    memcpy(c->init, s->init, sz);
    c->steps = mf_xmalloc(sz * (size_t)(s->nsteps ? s->nsteps : 1));
    memcpy(c->steps, s->steps, sz * (size_t)s->nsteps);
    c->choices = mf_xcalloc((size_t)(s->nsteps ? s->nsteps : 1), sizeof(int));
    memcpy(c->choices, s->choices, sizeof(int) * (size_t)s->nsteps);
    return c;
}

mf_explore_ctx *mf_explore_ctx_new(const mf_model *orig)
{
    explorer *x = mf_xcalloc(1, sizeof(*x));
    x->s[0].m = orig;
    x->nslots = orig->nslots;
    x->nobs = orig->nobs_defines;
    for (int i = 0; i < orig->nvars; i++)
        if (orig->vars[i].is_observable)
            x->nobs += orig->vars[i].nslots;
    x->obsbuf = mf_xmalloc((size_t)(x->nobs ? x->nobs : 1) * sizeof(mf_val));
    x->enabled = -1;
    int rc;
    if ((rc = input_product(x, orig, 0, &x->inits, &x->ninit)) < 0 ||
        (rc = input_product(x, orig, 1, &x->inps, &x->ninp)) < 0) {
        x->init_rc = rc;
        snprintf(x->init_msg, sizeof(x->init_msg), "%s", x->msg);
    }
    return x;
}

void mf_explore_ctx_set_delta(mf_explore_ctx *x, int on)
{
    x->delta_off = !on;
}

void mf_explore_ctx_set_budget(mf_explore_ctx *x, size_t max_bytes,
                               double secs)
{
    x->max_bytes = max_bytes;
    x->deadline = secs > 0 ? now_s() + secs : 0;
}

void mf_explore_ctx_free(mf_explore_ctx *x)
{
    if (!x)
        return;
    side_free(&x->s[0]);
    side_free(&x->s[1]);
    ktab_free(&x->obs);
    free(x->obsbuf);
    free(x->inits);
    free(x->inps);
    MF_VEC_FREE(x->key);
    MF_VEC_FREE(x->coll);
    MF_VEC_FREE(x->tmp);
    MF_VEC_FREE(x->m2o);
    MF_VEC_FREE(x->o2m);
    MF_VEC_FREE(x->ev[0]);
    MF_VEC_FREE(x->ev[1]);
    free(x);
}

int mf_explore_with(mf_explore_ctx *x, mf_explore_result *out,
                    const mf_model *mut, int notion, long max_states,
                    int max_depth)
{
    int rc = 0;
    memset(out, 0, sizeof(*out));
    if (max_states <= 0)
        max_states = x->max_bytes ? LONG_MAX / WORK_PER_NODE
                                  : DEFAULT_MAX_STATES;
    if (x->s[0].m->nslots != mut->nslots) {
        out->potential.verdict = out->definite.verdict = MF_XV_ERROR;
        snprintf(out->err, sizeof(out->err),
                 "original and mutant have different state layouts");
        return mf_err_set(MF_ERROR, "%s", out->err);
    }
    /* The same mutant again (another notion): its states and steps are
     * kept, with their links to the original's. */
    if (!x->s[1].m || strcmp(x->mut_hash, mut->hash)) {
        side_free(&x->s[1]);
        memset(&x->s[1], 0, sizeof(x->s[1]));
        x->m2o.n = x->o2m.n = 0;
        snprintf(x->mut_hash, sizeof x->mut_hash, "%s", mut->hash);
    }
    x->s[1].m = mut;
    x->dmode = x->delta_off ? DELTA_NONE
                            : delta_mode(x->s[0].m, mut, &x->ditem);
    x->nsim = x->ndelta = 0;
    x->err = 0;
    x->msg[0] = 0;
    x->work = 0;
    x->max_work = WORK_PER_NODE * max_states;

    if (x->init_rc < 0) {
        rc = fail(x, x->init_rc, x->init_msg);
        goto fail_all;
    }
    if (x->enabled < 0) {
        if ((rc = original_input_enabled(x, max_states)) < 0)
            goto fail_all;
        x->enabled = rc;
    }
    x->work = 0;
    rc = 0;

    if (notion == MF_EXPLORE_DEFINITE) {
        rc = run_search(x, &out->definite, max_states, max_depth, 1);
        goto done;
    }
    if (notion == MF_EXPLORE_JOINT) {
        rc = joint_search(x, &out->joint, max_states);
        goto done;
    }
    if (notion == MF_EXPLORE_INCLUDED) {
        rc = run_search(x, &out->included, max_states, max_depth, 2);
        goto done;
    }
    rc = run_search(x, &out->potential, max_states, max_depth, 0);
    if (notion == MF_EXPLORE_POTENTIAL)
        goto done;
    switch (out->potential.verdict) {
    case MF_XV_NOT_KILLABLE:
        out->definite.verdict = MF_XV_NOT_KILLABLE;
        break;
    case MF_XV_KILLED:
        if (!x->s[0].nondet && !x->s[1].nondet) {
            out->det_shortcut = 1;
            out->definite = out->potential;
            out->definite.test = seq_copy(out->potential.test, x->nslots);
            out->definite.mobs = NULL;
        } else {
            x->work = 0;
            rc = run_search(x, &out->definite, max_states, max_depth, 1);
        }
        break;
    default:
        out->definite.verdict = out->potential.verdict;
        break;
    }
    goto done;
fail_all:;
    mf_explore_verdict v = rc == MF_ELIMIT ? MF_XV_LIMIT : MF_XV_ERROR;
    if (notion != MF_EXPLORE_DEFINITE)
        out->potential.verdict = v;
    if (notion != MF_EXPLORE_POTENTIAL)
        out->definite.verdict = v;
    out->included.verdict = out->joint.verdict = v;
done:
    if (rc > 0)
        rc = 0; /* a kill found right after a node was added (bfs_add: 1) */
    out->orig_det = !x->s[0].nondet;
    out->mut_det = !x->s[1].nondet;
    out->mut_sim_steps = x->nsim;
    out->mut_delta_steps = x->ndelta;
    if (x->err) {
        snprintf(out->err, sizeof(out->err), "%s", x->msg);
        rc = mf_err_set(x->err, "%s", x->msg);
        side_free(&x->s[1]);
        memset(&x->s[1], 0, sizeof(x->s[1]));
    }
    return rc;
}

int mf_explore(mf_explore_result *out, const mf_model *orig,
               const mf_model *mut, int notion, long max_states,
               int max_depth)
{
    mf_explore_ctx *x = mf_explore_ctx_new(orig);
    int rc = mf_explore_with(x, out, mut, notion, max_states, max_depth);
    mf_explore_ctx_free(x);
    return rc;
}

void mf_explore_result_free(mf_explore_result *r)
{
    if (!r)
        return;
    mf_input_seq_free(r->potential.test);
    mf_input_seq_free(r->definite.test);
    mf_input_seq_free(r->included.test);
    r->included.test = NULL;
    free(r->potential.mobs);
    free(r->definite.mobs);
    r->potential.test = r->definite.test = NULL;
    r->potential.mobs = r->definite.mobs = NULL;
}

const char *mf_explore_verdict_name(mf_explore_verdict v)
{
    switch (v) {
    case MF_XV_KILLED:
        return "killed";
    case MF_XV_NOT_KILLABLE:
        return "not-killable";
    case MF_XV_LIMIT:
        return "limit";
    case MF_XV_ERROR:
        return "error";
    default:
        return "-";
    }
}

void mf_explore_print_test(mf_buf *out, const mf_model *m,
                           const mf_input_seq *test)
{
    int has_init = 0;
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].is_input && m->vars[i].decl == MF_DECL_VAR)
            has_init = 1;
    if (has_init) {
        mf_buf_puts(out, "init: ");
        mf_print_inputs(out, m, test->init, 1);
        mf_buf_puts(out, "\n");
    }
    for (int s = 0; s < test->nsteps; s++) {
        size_t before = out->len;
        mf_print_inputs(out, m, test->steps + (size_t)s * m->nslots, 0);
        if (out->len == before)
            mf_buf_puts(out, "# (no inputs)");
        mf_buf_puts(out, "\n");
    }
}
