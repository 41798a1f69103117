/* kill_graph.c - the layered graphs a test x mutant replay searches
 * (kill_int.h): the states of a model along a test's inputs, layer k
 * holding every state the model can be in after the inputs of states
 * 0..k, each with its successors in layer k + 1 (none: it refuses), in the
 * simulator's order. The original's graph is built once per test and
 * kept; a mutant's is built layer by layer as a search needs it, taking
 * the original's steps where the mutant provably steps the same way
 * (mf_explore_step_delta), and a memo keeps a model's steps by (input,
 * state) across the tests replayed with it. A test is made ready here too:
 * its expected observables checked on the original's graph, or taken from
 * its first run that lasts the whole test.
 *
 * Why graphs: one test is tried on many mutants, so the original's states
 * along it are enumerated once, not once per mutant; and each state's
 * successors are enumerated once per layer however many runs pass
 * through it. It searches nothing (kill_replay.c does) and knows nothing
 * of a store or a solver. */
#include "kill_int.h"

#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* Candidate assignments the simulator may try for one step. */
#define SIM_LIMIT 1000000L

/* ---- hashing -------------------------------------------------------------- */

static uint64_t hash_vals(uint64_t h, const mf_val *s, int n)
{
    for (int q = 0; s && q < n; q++) {
        h ^= (uint64_t)s[q];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static uint64_t hash_state(const mf_val *s, int n)
{
    return hash_vals(1469598103934665603ull, s, n);
}

static uint64_t hash_at(int k, const mf_val *s, int n)
{
    return hash_state(s, n) ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull);
}

/* ---- the step memo --------------------------------------------------------- */

/* An entry's count: the step is the original's (the mutant's memo only). */
#define AS_ORIG (-1)

struct mf_kill_memo {
    int n;               /* state size */
    int w;               /* row width: a state, then its observables */
    int kw;              /* key width: 1 + 2n */
    size_t max;          /* values it may keep */
    MF_VEC(mf_val) keys;
    mf_kintvec at, cnt;  /* per entry: first value in states, states */
    MF_VEC(mf_val) states;
    int *tab;            /* open addressing: entry + 1, 0 empty */
    size_t cap;
};

static uint64_t key_hash(const mf_val *inp, const mf_val *cur, int n)
{
    uint64_t h = 1469598103934665603ull ^ (cur ? 1u : 0u);
    return hash_vals(hash_vals(h, inp, n), cur, n);
}

static int key_eq(const mf_kill_memo *M, int e, const mf_val *inp,
                  const mf_val *cur)
{
    const mf_val *key = M->keys.v + (size_t)e * (size_t)M->kw;
    size_t b = sizeof(mf_val) * (size_t)M->n;
    if (key[0] != (cur != NULL) || memcmp(key + 1, inp, b))
        return 0;
    return !cur || !memcmp(key + 1 + M->n, cur, b);
}

mf_kill_memo *mf_kill_memo_new(int nslots, int nobs, size_t max_values)
{
    mf_kill_memo *M = mf_xcalloc(1, sizeof *M);
    M->n = nslots;
    M->w = nslots + nobs;
    M->kw = 1 + 2 * nslots;
    M->max = max_values;
    return M;
}

void mf_kill_memo_free(mf_kill_memo *M)
{
    if (!M)
        return;
    MF_VEC_FREE(M->keys);
    MF_VEC_FREE(M->at);
    MF_VEC_FREE(M->cnt);
    MF_VEC_FREE(M->states);
    free(M->tab);
    free(M);
}

static int memo_find(const mf_kill_memo *M, const mf_val *inp,
                     const mf_val *cur)
{
    if (!M || !M->cap)
        return -1;
    size_t i = key_hash(inp, cur, M->n) & (M->cap - 1);
    for (; M->tab[i]; i = (i + 1) & (M->cap - 1))
        if (key_eq(M, M->tab[i] - 1, inp, cur))
            return M->tab[i] - 1;
    return -1;
}

static void memo_slot(mf_kill_memo *M, int e)
{
    const mf_val *key = M->keys.v + (size_t)e * (size_t)M->kw;
    size_t i = key_hash(key + 1, key[0] ? key + 1 + M->n : NULL, M->n) &
               (M->cap - 1);
    while (M->tab[i])
        i = (i + 1) & (M->cap - 1);
    M->tab[i] = e + 1;
}

/* Keep the step (inp, cur) -> count rows (AS_ORIG: none kept). */
static void memo_add(mf_kill_memo *M, const mf_val *inp, const mf_val *cur,
                     const mf_val *rows, int count)
{
    if (!M)
        return;
    size_t used = (size_t)M->keys.n + (size_t)M->states.n;
    size_t vals = (size_t)(count > 0 ? count : 0) * (size_t)M->w;
    if (used + (size_t)M->kw + vals > M->max)
        return; /* full: such steps are computed again */
    int e = M->at.n;
    if ((size_t)(e + 1) * 2 > M->cap) {
        free(M->tab);
        M->cap = M->cap ? M->cap * 2 : 256;
        M->tab = mf_xcalloc(M->cap, sizeof *M->tab);
        for (int q = 0; q < e; q++)
            memo_slot(M, q);
    }
    MF_VEC_PUSH(M->keys, cur != NULL);
    for (int i = 0; i < M->n; i++)
        MF_VEC_PUSH(M->keys, inp[i]);
    for (int i = 0; i < M->n; i++)
        MF_VEC_PUSH(M->keys, cur ? cur[i] : 0);
    MF_VEC_PUSH(M->at, M->states.n);
    MF_VEC_PUSH(M->cnt, count);
    for (size_t i = 0; i < vals; i++)
        MF_VEC_PUSH(M->states, rows[i]);
    memo_slot(M, e);
}

/* ---- building a graph ------------------------------------------------------ */

void mf_kill_graph_init(mf_kill_graph *g, const mf_model *m, const mf_test *t,
                        const mf_kill_rules *rules, mf_kill_memo *memo)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->t = t;
    g->rules = rules;
    g->memo = memo;
    g->n = m->nslots;
    g->nobs = t->nobs;
    g->len = t->length;
    g->first = mf_xcalloc((size_t)t->length + 2, sizeof *g->first);
    MF_VEC_PUSH(g->sfirst, 0);
}

void mf_kill_graph_free(mf_kill_graph *g)
{
    MF_VEC_FREE(g->ev[0]);
    MF_VEC_FREE(g->ev[1]);
    MF_VEC_FREE(g->st);
    MF_VEC_FREE(g->ob);
    MF_VEC_FREE(g->succ);
    MF_VEC_FREE(g->sfirst);
    MF_VEC_FREE(g->tab);
    MF_VEC_FREE(g->used);
    MF_VEC_FREE(g->tmp);
    free(g->first);
    memset(g, 0, sizeof *g);
}

typedef struct {
    mf_kill_graph *g;
    long count;
    mf_val *obs;
    int rc; /* a failure of mf_sim_observe */
} collect;

/* One successor as a row: the state, then its observables. */
static int collect_fn(const mf_val *state, void *ctx)
{
    collect *c = ctx;
    mf_kill_graph *g = c->g;
    if (++c->count > g->rules->max_layer)
        return 1;
    int rc = mf_sim_observe(c->obs, g->nobs, g->m, state);
    if (rc < 0) {
        c->rc = rc;
        return 1;
    }
    for (int q = 0; q < g->n; q++)
        MF_VEC_PUSH(g->tmp, state[q]);
    for (int q = 0; q < g->nobs; q++)
        MF_VEC_PUSH(g->tmp, c->obs[q]);
    return 0;
}

/* The index of state s in layer k of the original's graph, or -1. */
static int orig_find(const mf_kill_test *kt, int k, const mf_val *s)
{
    const mf_kill_graph *o = &kt->o;
    int n = o->n;
    if (k >= o->built || !kt->oidx)
        return -1;
    for (size_t i = hash_at(k, s, n) & (kt->oslots - 1);;
         i = (i + 1) & (kt->oslots - 1)) {
        int at = kt->oidx[i];
        if (at < 0)
            return -1;
        if (at >= o->first[k] && at < o->first[k + 1] &&
            !memcmp(o->st.v + (size_t)at * n, s, sizeof *s * (size_t)n))
            return at;
    }
}

static void tab_insert(mf_kill_graph *g, int at)
{
    size_t mask = (size_t)g->tab.n - 1;
    size_t i = hash_state(g->st.v + (size_t)at * g->n, g->n) & mask;
    while (g->tab.v[i] >= 0)
        i = (i + 1) & mask;
    g->tab.v[i] = at;
    MF_VEC_PUSH(g->used, (int)i);
}

/* The layer table emptied (only the slots in use are cleared), with room
 * for `want` states at half load. */
static void tab_reset(mf_kill_graph *g, int want)
{
    for (int u = 0; u < g->used.n; u++)
        g->tab.v[g->used.v[u]] = -1;
    g->used.n = 0;
    int cap = g->tab.n ? g->tab.n : 64;
    while (cap < 2 * want + 2)
        cap *= 2;
    while (g->tab.n < cap)
        MF_VEC_PUSH(g->tab, -1);
}

/* *out: the index of state s in the layer being built (from `start`),
 * added if new with its observables `obs`. 0, or MF_ELIMIT past the layer
 * limit. */
static int layer_put(mf_kill_graph *g, int start, const mf_val *s,
                     const mf_val *obs, int *out)
{
    int n = g->n;
    size_t mask = (size_t)g->tab.n - 1;
    for (size_t i = hash_state(s, n) & mask;; i = (i + 1) & mask) {
        int at = g->tab.v[i];
        if (at < 0)
            break;
        if (!memcmp(g->st.v + (size_t)at * n, s, sizeof *s * (size_t)n)) {
            *out = at;
            return 0;
        }
    }
    int total = g->st.n / (n ? n : 1);
    if (total - start >= g->rules->max_layer)
        return MF_ELIMIT;
    for (int q = 0; q < n; q++)
        MF_VEC_PUSH(g->st, s[q]);
    for (int q = 0; q < g->nobs; q++)
        MF_VEC_PUSH(g->ob, obs[q]);
    if (2 * (size_t)(total - start + 1) + 2 > (size_t)g->tab.n) {
        tab_reset(g, total - start + 1);
        for (int at = start; at <= total; at++)
            tab_insert(g, at);
    } else
        tab_insert(g, total);
    *out = total;
    return 0;
}

/* Put `count` states into the layer being built as successors of s (or
 * as the initial states, s < 0): rows of a state and its observables, or
 * with `idx` states idx[] of graph `from`. 0 or MF_ELIMIT. */
static int put_states(mf_kill_graph *g, int start, int s, const mf_val *rows,
                      long count, const mf_kill_graph *from, const int *idx)
{
    int n = g->n, w = g->n + g->nobs;
    if (s >= 0)
        g->sfirst.v[s] = g->succ.n;
    for (long j = 0; j < count; j++) {
        const mf_val *st = idx ? from->st.v + (size_t)idx[j] * n
                               : rows + (size_t)j * (size_t)w;
        int at, rc = layer_put(g, start, st,
                               idx ? mf_kill_obs_of(from, idx[j]) : st + n,
                               &at);
        if (rc < 0)
            return rc;
        if (s >= 0)
            MF_VEC_PUSH(g->succ, at);
    }
    return 0;
}

/* A mutant's state s of layer k - 1 makes the original's step: its
 * successors put in the layer being built from the original's graph.
 * Returns 1 if so (*rc: 0 or a negative code), 0 if the mutant's own
 * step must be made. */
static int take_orig(mf_kill_graph *g, int start, int s, const mf_val *inp,
                     int *rc)
{
    const mf_kill_graph *o = &g->base->o;
    int k = g->built, n = g->n;
    const mf_val *st = g->st.v + (size_t)s * n;
    if (g->delta == MF_STEP_DIFFERS)
        return 0;
    int i = orig_find(g->base, k - 1, st);
    if (i < 0)
        return 0;
    if (g->delta == MF_STEP_NEXT) {
        /* The memo keeps that the two right-hand sides agree here. */
        int e = memo_find(g->memo, inp, st);
        if (e >= 0 && g->memo->cnt.v[e] != AS_ORIG)
            return 0;
        if (e < 0) {
            if (!mf_explore_step_agrees(o->m, g->m, g->ditem, st, inp, g->ev))
                return 0;
            memo_add(g->memo, inp, st, NULL, AS_ORIG);
        }
    }
    int ns;
    const int *sc = mf_kill_succ_of(o, i, &ns);
    *rc = put_states(g, start, s, NULL, ns, o, sc);
    return 1;
}

/* The successors of state cur (NULL: the initial states) under inp, by
 * the memo or the simulator: *rows (a state and its observables each;
 * valid until the next step), their count, or a negative code. */
static long own_step(mf_kill_graph *g, const mf_val *inp, const mf_val *cur,
                     const mf_val **rows)
{
    g->tmp.n = 0;
    int e = memo_find(g->memo, inp, cur);
    if (e >= 0 && g->memo->cnt.v[e] != AS_ORIG) {
        *rows = g->memo->states.v + g->memo->at.v[e];
        return g->memo->cnt.v[e];
    }
    collect c = {g, 0, mf_xcalloc((size_t)g->nobs + 1, sizeof(mf_val)), 0};
    int rc = cur ? mf_sim_next_each(g->m, cur, inp, collect_fn, &c, SIM_LIMIT)
                 : mf_sim_initial_each(g->m, inp, collect_fn, &c, SIM_LIMIT);
    free(c.obs);
    if (c.rc < 0)
        return c.rc;
    if (rc >= 0 && c.count > g->rules->max_layer)
        rc = MF_ELIMIT;
    if (rc < 0)
        return rc;
    *rows = g->tmp.v;
    if (e < 0)
        memo_add(g->memo, inp, cur, g->tmp.v, (int)c.count);
    return c.count;
}

/* Build layer k (the next one): the initial states, or the successors of
 * every state of layer k - 1. 0, MF_ELIMIT past the limits, or the
 * simulator's failure. */
static int grow(mf_kill_graph *g)
{
    int n = g->n, k = g->built, rc = 0;
    int start = g->st.n / (n ? n : 1);
    g->first[k] = start;
    tab_reset(g, 0);
    int from = k ? g->first[k - 1] : 0, to = k ? start : 1;
    const mf_val *inp = g->t->inputs + (size_t)k * (size_t)n;
    if (!k && g->base && g->delta == MF_STEP_NEXT) {
        /* The initial states are the original's. */
        const mf_kill_graph *o = &g->base->o;
        int no = mf_kill_layer_size(o, 0);
        int *idx = mf_xcalloc((size_t)no + 1, sizeof *idx);
        for (int j = 0; j < no; j++)
            idx[j] = o->first[0] + j;
        rc = put_states(g, start, -1, NULL, no, o, idx);
        free(idx);
        from = to;
    }
    for (int s = from; s < to && rc == 0; s++) {
        if (k && g->base && take_orig(g, start, s, inp, &rc))
            continue;
        const mf_val *rows = NULL;
        long cnt = own_step(g, inp, k ? g->st.v + (size_t)s * n : NULL, &rows);
        if (cnt < 0) {
            rc = (int)cnt;
            break;
        }
        rc = put_states(g, start, k ? s : -1, rows, cnt, NULL, NULL);
    }
    if (rc < 0)
        return rc == MF_ELIMIT ? mf_err_set(MF_ELIMIT,
                                            "more than %d states in one "
                                            "step",
                                            g->rules->max_layer)
                               : rc;
    /* The new layer's states, and the end mark, start where the
     * successors of the layer before end: the next layer sets each
     * state's own start, and those of the last layer stay empty. */
    int total = g->st.n / (n ? n : 1);
    while (g->sfirst.n < total + 1)
        MF_VEC_PUSH(g->sfirst, 0);
    for (int s = start; s <= total; s++)
        g->sfirst.v[s] = g->succ.n;
    g->first[k + 1] = total;
    g->built = k + 1;
    return 0;
}

int mf_kill_graph_need(mf_kill_graph *g, int k)
{
    int rc = 0;
    if (k > g->len)
        k = g->len;
    while (rc == 0 && g->built <= k)
        rc = grow(g);
    return rc;
}

int mf_kill_graph_one_run(const mf_kill_graph *g, int upto, int or_none)
{
    for (int k = 0; k <= upto && k < g->built; k++) {
        int sz = mf_kill_layer_size(g, k);
        if (sz == 0 && or_none)
            return 1;
        if (sz != 1)
            return 0;
    }
    return 1;
}

/* ---- the test's expected observables --------------------------------------- */

/* -1 if a run of the graph shows t's expected observables all along,
 * else the first step no such run reaches. */
static int expected_fails(const mf_kill_graph *g, const mf_test *t)
{
    int total = g->first[g->len + 1], at = 0;
    size_t ob = sizeof(mf_val) * (size_t)t->nobs;
    unsigned char *on = mf_xcalloc((size_t)total + 1, 1);
    int alive = 0;
    for (int s = g->first[0]; s < g->first[1]; s++)
        if (!memcmp(mf_kill_obs_of(g, s), t->expect, ob))
            on[s] = 1, alive = 1;
    for (int k = 0; k < g->len && alive; k++) {
        alive = 0;
        at = k + 1;
        const mf_val *want = t->expect + (size_t)(k + 1) * t->nobs;
        for (int s = g->first[k]; s < g->first[k + 1]; s++) {
            int ns;
            const int *sc = on[s] ? mf_kill_succ_of(g, s, &ns) : NULL;
            for (int j = 0; sc && j < ns; j++)
                if (!on[sc[j]] && !memcmp(mf_kill_obs_of(g, sc[j]), want, ob))
                    on[sc[j]] = 1, alive = 1;
        }
    }
    free(on);
    return alive ? -1 : at;
}

/* Give t the observables of the first run of the graph that lasts the
 * whole test; MF_EREFUSED when every run ends in a refusal. */
static int reexpect(const mf_kill_graph *g, mf_test *t)
{
    int total = g->first[g->len + 1];
    unsigned char *can = mf_xcalloc((size_t)total + 1, 1);
    for (int s = g->first[g->len]; s < total; s++)
        can[s] = 1;
    for (int k = g->len - 1; k >= 0; k--)
        for (int s = g->first[k]; s < g->first[k + 1]; s++) {
            int ns;
            const int *sc = mf_kill_succ_of(g, s, &ns);
            for (int j = 0; j < ns && !can[s]; j++)
                can[s] = can[sc[j]];
        }
    int s = -1;
    for (int i = g->first[0]; i < g->first[1] && s < 0; i++)
        if (can[i])
            s = i;
    for (int k = 0; s >= 0 && k <= g->len; k++) {
        memcpy(t->expect + (size_t)k * t->nobs, mf_kill_obs_of(g, s),
               sizeof(mf_val) * (size_t)t->nobs);
        int ns, next = -1;
        const int *sc = k < g->len ? mf_kill_succ_of(g, s, &ns) : NULL;
        for (int j = 0; sc && j < ns && next < 0; j++)
            if (can[sc[j]])
                next = sc[j];
        s = k < g->len ? next : s;
    }
    free(can);
    return s >= 0 ? 0
                  : mf_err_set(MF_EREFUSED, "the model refuses the "
                                            "test's inputs");
}

/* ---- a test made ready -------------------------------------------------- */

static void index_orig(mf_kill_test *kt)
{
    const mf_kill_graph *o = &kt->o;
    int total = o->first[o->len + 1], n = o->n;
    for (kt->oslots = 16; kt->oslots < 2 * (size_t)total + 2;)
        kt->oslots *= 2;
    kt->oidx = mf_xmalloc(sizeof *kt->oidx * kt->oslots);
    memset(kt->oidx, 0xff, sizeof *kt->oidx * kt->oslots);
    for (int k = 0; k <= o->len; k++)
        for (int at = o->first[k]; at < o->first[k + 1]; at++) {
            size_t i = hash_at(k, o->st.v + (size_t)at * n, n) &
                       (kt->oslots - 1);
            while (kt->oidx[i] >= 0)
                i = (i + 1) & (kt->oslots - 1);
            kt->oidx[i] = at;
        }
}

int mf_kill_expected_check(const mf_kill_graph *g, const mf_test *t)
{
    int bad = expected_fails(g, t);
    if (bad < 0)
        return 0;
    return mf_err_set(MF_ERROR, "the original cannot show the expected "
                                "observables at step %d",
                      bad);
}

int mf_kill_test_make(mf_kill_test **out, const mf_model *m, const mf_test *t,
                      const mf_kill_rules *rules, mf_kill_memo *memo,
                      int expect, int *reexpected)
{
    *out = NULL;
    if (reexpected)
        *reexpected = 0;
    if (t->nslots != m->nslots || t->nobs != mf_model_nobs(m))
        return mf_err_set(MF_ERROR, "the test does not match the model");
    mf_kill_test *kt = mf_xcalloc(1, sizeof *kt);
    kt->m = m;
    kt->t = mf_test_copy(t);
    kt->rules = *rules;
    mf_kill_graph_init(&kt->o, m, kt->t, &kt->rules, memo);
    int rc = mf_kill_graph_need(&kt->o, kt->t->length);
    if (rc == 0 && expect == MF_KILL_EXPECT_CHECK)
        rc = mf_kill_expected_check(&kt->o, kt->t);
    else if (rc == 0 && expect == MF_KILL_EXPECT_REDO &&
             expected_fails(&kt->o, kt->t) >= 0) {
        rc = reexpect(&kt->o, kt->t);
        if (reexpected)
            *reexpected = rc == 0;
    }
    if (rc < 0) {
        mf_kill_test_free(kt);
        return rc;
    }
    kt->o.memo = NULL; /* the memo may go before the test */
    index_orig(kt);
    *out = kt;
    return 0;
}

void mf_kill_test_free(mf_kill_test *kt)
{
    if (!kt)
        return;
    mf_kill_graph_free(&kt->o);
    mf_test_free(kt->t);
    free(kt->oidx);
    free(kt);
}

const mf_test *mf_kill_test_of(const mf_kill_test *kt)
{
    return kt->t;
}

long mf_kill_test_size(const mf_kill_test *kt)
{
    return (long)kt->o.st.n + kt->o.ob.n + kt->o.succ.n + kt->o.sfirst.n +
           (long)kt->oslots;
}
