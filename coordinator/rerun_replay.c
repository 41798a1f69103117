/* rerun_replay.c - does a given test kill a mutant (rerun_replay.h): the layered
 * graphs of the original and of a mutant along a test's inputs, built with
 * the simulator (model/sim.h), and the searches for a definite and for a
 * potential kill over them.
 *
 * Why graphs: one test is tried on every mutant of a campaign, so the
 * original's states along it are enumerated once, not once per mutant;
 * and each state's successors are enumerated once per layer however many
 * runs pass through it (mf_engine_replay enumerates them per pair of
 * states, which on a non-deterministic model is many times over). A kill
 * found here is confirmed by mf_engine_replay before it is returned. */
#include "rerun_replay.h"

#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "mf.h"
#include "sim.h"

/* States in one layer of a graph; nodes of one layer of the potential
 * search; pairs of one layer of the definite search. Past them the test
 * is not replayed (on that mutant). */
#define MAX_LAYER 4096
#define MAX_NODES 4096
#define MAX_PAIRS (1L << 20)
/* Candidate assignments the simulator may try for one step. */
#define SIM_LIMIT 1000000L
/* Slots of a layer's hash table: a power of two above 2 x MAX_LAYER. */
#define HSLOTS 16384

typedef MF_VEC(int) intvec;

/* The states of a model along a test: layer k holds the states reachable
 * after the inputs of states 0..k; state s's successors are
 * succ[sfirst[s] .. sfirst[s + 1]) (layers below the last built only).
 * Layers are built one at a time, as a search needs them. */
typedef struct {
    const mf_model *m;
    const mf_test *t;
    int n, nobs, len;
    int built;         /* layers 0..built-1 exist */
    MF_VEC(mf_val) st; /* n values a state */
    MF_VEC(mf_val) ob; /* nobs values a state */
    int *first;        /* len + 2: first state of layer k, then the total */
    intvec succ;
    intvec sfirst;      /* per state, and one more */
    int *table;         /* HSLOTS slots: the layer being built */
    MF_VEC(mf_val) tmp; /* one state's successors while they are listed */
    /* A mutant's graph takes the original's steps where they are the
     * same (mf_explore_step_delta): from a state the original has in the
     * same layer, when the mutant differs in init() only (MF_STEP_SAME),
     * or in one next() whose two right-hand sides agree there. */
    const struct mf_replay *base;
    int delta, ditem;
    mf_valset ev[2];
} graph;

struct mf_replay {
    const mf_model *m;
    mf_test *t; /* expected observables that m shows */
    graph o;    /* the original's, every layer */
    int *oidx;  /* the original's states by (layer, state): oslots */
    size_t oslots;
};

static void graph_free(graph *g)
{
    MF_VEC_FREE(g->ev[0]);
    MF_VEC_FREE(g->ev[1]);
    MF_VEC_FREE(g->st);
    MF_VEC_FREE(g->ob);
    MF_VEC_FREE(g->succ);
    MF_VEC_FREE(g->sfirst);
    MF_VEC_FREE(g->tmp);
    free(g->first);
    free(g->table);
    memset(g, 0, sizeof *g);
}

static const mf_val *obs_of(const graph *g, int s)
{
    static const mf_val none[1];
    return g->nobs ? g->ob.v + (size_t)s * (size_t)g->nobs : none;
}

static int same_obs(const graph *a, int i, const graph *b, int j)
{
    return !memcmp(obs_of(a, i), obs_of(b, j),
                   sizeof(mf_val) * (size_t)a->nobs);
}

/* State s's successors (in the next layer). */
static const int *succ_of(const graph *g, int s, int *count)
{
    *count = g->sfirst.v[s + 1] - g->sfirst.v[s];
    return g->succ.v + g->sfirst.v[s];
}

static int layer_size(const graph *g, int k)
{
    return g->first[k + 1] - g->first[k];
}

/* ---- building a graph --------------------------------------------------- */

typedef struct {
    graph *g;
    long count;
} collect;

static int collect_fn(const mf_val *state, void *ctx)
{
    collect *c = ctx;
    for (int q = 0; q < c->g->n; q++)
        MF_VEC_PUSH(c->g->tmp, state[q]);
    return ++c->count > MAX_LAYER;
}

static uint64_t hash_state(const mf_val *s, int n)
{
    uint64_t h = 1469598103934665603ull;
    for (int q = 0; q < n; q++) {
        h ^= (uint64_t)s[q];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static uint64_t hash_at(int k, const mf_val *s, int n)
{
    return hash_state(s, n) ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull);
}

/* The index of state s in layer k of the original's graph, or -1. */
static int orig_find(const struct mf_replay *r, int k, const mf_val *s)
{
    const graph *o = &r->o;
    int n = o->n;
    if (k >= o->built)
        return -1;
    for (size_t i = hash_at(k, s, n) & (r->oslots - 1);;
         i = (i + 1) & (r->oslots - 1)) {
        int at = r->oidx[i];
        if (at < 0)
            return -1;
        if (at >= o->first[k] && at < o->first[k + 1] &&
            !memcmp(o->st.v + (size_t)at * n, s, sizeof *s * (size_t)n))
            return at;
    }
}

/* The index of state s in the layer being built (from `start`), added if
 * new, its observables computed or taken from `obs`. -1 past MAX_LAYER. */
static int layer_put(graph *g, int start, const mf_val *s, const mf_val *obs)
{
    int n = g->n;
    uint64_t h = hash_state(s, n);
    for (size_t i = h & (HSLOTS - 1);; i = (i + 1) & (HSLOTS - 1)) {
        int at = g->table[i];
        if (at < 0)
            break;
        if (!memcmp(g->st.v + (size_t)at * n, s, sizeof *s * (size_t)n))
            return at;
    }
    int total = g->st.n / (n ? n : 1);
    if (total - start >= MAX_LAYER)
        return -1;
    for (size_t i = h & (HSLOTS - 1);; i = (i + 1) & (HSLOTS - 1))
        if (g->table[i] < 0) {
            g->table[i] = total;
            break;
        }
    for (int q = 0; q < n; q++)
        MF_VEC_PUSH(g->st, s[q]);
    if (obs) {
        for (int q = 0; q < g->nobs; q++)
            MF_VEC_PUSH(g->ob, obs[q]);
        return total;
    }
    mf_val *o = mf_xcalloc((size_t)g->nobs + 1, sizeof *o);
    mf_sim_observe(o, g->nobs, g->m, s);
    for (int q = 0; q < g->nobs; q++)
        MF_VEC_PUSH(g->ob, o[q]);
    free(o);
    return total;
}

/* An empty graph of model m along t's inputs (m and t outlive it). */
static void graph_init(graph *g, const mf_model *m, const mf_test *t)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->t = t;
    g->n = m->nslots;
    g->nobs = t->nobs;
    g->len = t->length;
    g->first = mf_xcalloc((size_t)t->length + 2, sizeof *g->first);
    g->table = mf_xmalloc(sizeof *g->table * HSLOTS);
    MF_VEC_PUSH(g->sfirst, 0);
}

/* A mutant's state s of layer k - 1 makes the original's step: its
 * successors put in the layer being built from the original's graph.
 * Returns 1 if so (*rc: 0 or MF_ELIMIT), 0 if the simulator must make the
 * step. */
static int take_orig(graph *g, int start, int s, const mf_val *inp, int *rc)
{
    const graph *o = &g->base->o;
    int k = g->built, n = g->n;
    const mf_val *st = g->st.v + (size_t)s * n;
    if (g->delta == MF_STEP_DIFFERS)
        return 0;
    int i = orig_find(g->base, k - 1, st);
    if (i < 0 ||
        (g->delta == MF_STEP_NEXT &&
         !mf_explore_step_agrees(o->m, g->m, g->ditem, st, inp, g->ev)))
        return 0;
    g->sfirst.v[s] = g->succ.n;
    int ns;
    const int *sc = succ_of(o, i, &ns);
    for (int j = 0; j < ns && *rc == 0; j++) {
        int at =
            layer_put(g, start, o->st.v + (size_t)sc[j] * n, obs_of(o, sc[j]));
        if (at < 0)
            *rc = MF_ELIMIT;
        else
            MF_VEC_PUSH(g->succ, at);
    }
    return 1;
}

/* Build layer k (the next one): the initial states, or the successors of
 * every state of layer k - 1. 0, MF_ELIMIT past the limits, or the
 * simulator's failure. */
static int grow(graph *g)
{
    int n = g->n, k = g->built, rc = 0;
    int start = g->st.n / (n ? n : 1);
    g->first[k] = start;
    memset(g->table, 0xff, sizeof *g->table * HSLOTS);
    int from = k ? g->first[k - 1] : 0, to = k ? start : 1;
    const mf_val *inp = g->t->inputs + (size_t)k * (size_t)n;
    for (int s = from; s < to && rc == 0; s++) {
        if (k && g->base && take_orig(g, start, s, inp, &rc))
            continue;
        collect c = {g, 0};
        g->tmp.n = 0;
        rc = k ? mf_sim_next_each(g->m, g->st.v + (size_t)s * n, inp,
                                  collect_fn, &c, SIM_LIMIT)
               : mf_sim_initial_each(g->m, inp, collect_fn, &c, SIM_LIMIT);
        if (rc >= 0 && c.count > MAX_LAYER)
            rc = MF_ELIMIT;
        if (rc < 0)
            break;
        rc = 0;
        if (k)
            g->sfirst.v[s] = g->succ.n;
        for (long j = 0; j < c.count && rc == 0; j++) {
            int at =
                layer_put(g, start, g->tmp.v + (size_t)j * (size_t)n, NULL);
            if (at < 0)
                rc = MF_ELIMIT;
            else if (k)
                MF_VEC_PUSH(g->succ, at);
        }
    }
    if (rc < 0)
        return rc == MF_ELIMIT ? mf_err_set(MF_ELIMIT,
                                            "more than %d states "
                                            "at one step",
                                            MAX_LAYER)
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

/* Layers up to k (at most the last) built: 0 or < 0. */
static int need(graph *g, int k)
{
    int rc = 0;
    if (k > g->len)
        k = g->len;
    while (rc == 0 && g->built <= k)
        rc = grow(g);
    return rc;
}

/* 1 if every layer 0..upto (built) has one state (`or_none`: or none, a
 * refusal, after which the rest is empty). */
static int one_run(const graph *g, int upto, int or_none)
{
    for (int k = 0; k <= upto && k < g->built; k++) {
        int sz = layer_size(g, k);
        if (sz == 0 && or_none)
            return 1;
        if (sz != 1)
            return 0;
    }
    return 1;
}

/* ---- the test's expected observables ------------------------------------ */

/* 1 if a run of the graph shows t's expected observables all along. */
static int expected_holds(const graph *g, const mf_test *t)
{
    int total = g->first[g->len + 1];
    unsigned char *on = mf_xcalloc((size_t)total + 1, 1);
    int alive = 0;
    for (int s = g->first[0]; s < g->first[1]; s++)
        if (!memcmp(obs_of(g, s), t->expect, sizeof(mf_val) * (size_t)t->nobs))
            on[s] = 1, alive = 1;
    for (int k = 0; k < g->len && alive; k++) {
        alive = 0;
        const mf_val *want = t->expect + (size_t)(k + 1) * t->nobs;
        for (int s = g->first[k]; s < g->first[k + 1]; s++) {
            int ns;
            const int *sc = on[s] ? succ_of(g, s, &ns) : NULL;
            for (int j = 0; sc && j < ns; j++)
                if (!on[sc[j]] && !memcmp(obs_of(g, sc[j]), want,
                                          sizeof(mf_val) * (size_t)t->nobs))
                    on[sc[j]] = 1, alive = 1;
        }
    }
    free(on);
    return alive;
}

/* Give t the observables of the first run of the graph that lasts the
 * whole test; MF_EREFUSED when every run ends in a refusal. */
static int reexpect(const graph *g, mf_test *t)
{
    int total = g->first[g->len + 1];
    unsigned char *can = mf_xcalloc((size_t)total + 1, 1);
    for (int s = g->first[g->len]; s < total; s++)
        can[s] = 1;
    for (int k = g->len - 1; k >= 0; k--)
        for (int s = g->first[k]; s < g->first[k + 1]; s++) {
            int ns;
            const int *sc = succ_of(g, s, &ns);
            for (int j = 0; j < ns && !can[s]; j++)
                can[s] = can[sc[j]];
        }
    int s = -1;
    for (int i = g->first[0]; i < g->first[1] && s < 0; i++)
        if (can[i])
            s = i;
    for (int k = 0; s >= 0 && k <= g->len; k++) {
        memcpy(t->expect + (size_t)k * t->nobs, obs_of(g, s),
               sizeof(mf_val) * (size_t)t->nobs);
        int ns, next = -1;
        const int *sc = k < g->len ? succ_of(g, s, &ns) : NULL;
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

int mf_replay_new(mf_replay **out, const mf_model *m, const mf_test *t,
                  int *reexpected)
{
    *out = NULL;
    *reexpected = 0;
    mf_replay *r = mf_xcalloc(1, sizeof *r);
    r->m = m;
    r->t = mf_test_copy(t);
    graph_init(&r->o, m, r->t);
    int rc = need(&r->o, r->t->length);
    if (rc == 0 && !expected_holds(&r->o, r->t)) {
        rc = reexpect(&r->o, r->t);
        *reexpected = rc == 0;
    }
    if (rc == 0) {
        int total = r->o.first[r->o.len + 1], n = r->o.n;
        for (r->oslots = 16; r->oslots < 2 * (size_t)total + 2;)
            r->oslots *= 2;
        r->oidx = mf_xmalloc(sizeof *r->oidx * r->oslots);
        memset(r->oidx, 0xff, sizeof *r->oidx * r->oslots);
        for (int k = 0; k <= r->o.len; k++)
            for (int at = r->o.first[k]; at < r->o.first[k + 1]; at++) {
                size_t i =
                    hash_at(k, r->o.st.v + (size_t)at * n, n) & (r->oslots - 1);
                while (r->oidx[i] >= 0)
                    i = (i + 1) & (r->oslots - 1);
                r->oidx[i] = at;
            }
    }
    if (rc < 0) {
        mf_replay_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void mf_replay_free(mf_replay *r)
{
    if (!r)
        return;
    graph_free(&r->o);
    mf_test_free(r->t);
    free(r->oidx);
    free(r);
}

const mf_test *mf_replay_test(const mf_replay *r)
{
    return r->t;
}

long mf_replay_size(const mf_replay *r)
{
    return (long)r->o.st.n + r->o.ob.n + r->o.succ.n + r->o.sfirst.n +
           (long)r->oslots;
}

/* ---- the searches ------------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Definite: the layer, at most maxk, at which no pair of runs with equal
 * observables is left (a kill there), or -1 (none up to maxk, both refuse
 * somewhere together, or the limits). */
typedef MF_VEC(int64_t) i64vec;

static int definite(const graph *o, graph *u, int maxk)
{
    i64vec pairs = {0}, np = {0};
    /* Pair (i, j) is i * w + j: j is below any count of states. */
    int64_t w = (int64_t)(u->len + 1) * MAX_LAYER + 1;
    int kill = -1;
    if (need(u, 0) < 0 || (layer_size(o, 0) == 0 && layer_size(u, 0) == 0))
        return -1;
    for (int i = o->first[0]; i < o->first[1]; i++)
        for (int j = u->first[0]; j < u->first[1]; j++)
            if (same_obs(o, i, u, j))
                MF_VEC_PUSH(pairs, i * w + j);
    if (pairs.n == 0)
        kill = 0;
    for (int k = 0; k < maxk && kill < 0 && pairs.n; k++) {
        np.n = 0;
        int stop = need(u, k + 1) < 0;
        for (int p = 0; p < pairs.n && !stop; p++) {
            int i = (int)(pairs.v[p] / w), j = (int)(pairs.v[p] % w);
            int no, nu;
            const int *so = succ_of(o, i, &no), *su = succ_of(u, j, &nu);
            if (no == 0 && nu == 0) /* both refuse: the same behaviour */
                stop = 1;
            for (int a = 0; a < no && !stop; a++)
                for (int b = 0; b < nu; b++)
                    if (same_obs(o, so[a], u, su[b]))
                        MF_VEC_PUSH(np, so[a] * w + su[b]);
            if (np.n > MAX_PAIRS)
                stop = 1;
        }
        if (stop)
            break;
        if (np.n > 1)
            qsort(np.v, (size_t)np.n, sizeof *np.v, cmp_i64);
        int m = 0;
        for (int p = 0; p < np.n; p++)
            if (!m || np.v[p] != np.v[m - 1])
                np.v[m++] = np.v[p];
        np.n = m;
        if (np.n == 0)
            kill = k + 1;
        i64vec sw = pairs;
        pairs = np;
        np = sw;
    }
    MF_VEC_FREE(pairs);
    MF_VEC_FREE(np);
    return kill;
}

/* A node of the potential search: a mutant state and the original's
 * states with the same observables so far (set[from .. from + n) of the
 * pool), reached from node `parent` of the layer before. */
typedef struct {
    int u, parent, from, n;
    uint64_t h;
} pnode;

typedef struct {
    MF_VEC(pnode) v;
    intvec pool;
    int *table; /* HSLOTS slots of node indices */
} players;

/* Add node (u, set) to the layer unless it is there: its index, or -1
 * past MAX_NODES. */
static int pnode_put(players *L, int u, const int *set, int n, int parent)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)set[i]) * 1099511628211ull;
    for (size_t i = h & (HSLOTS - 1);; i = (i + 1) & (HSLOTS - 1)) {
        int at = L->table[i];
        if (at < 0) {
            if (L->v.n >= MAX_NODES)
                return -1;
            L->table[i] = L->v.n;
            break;
        }
        const pnode *q = &L->v.v[at];
        if (q->h == h && q->u == u && q->n == n &&
            !memcmp(L->pool.v + q->from, set, sizeof *set * (size_t)n))
            return at;
    }
    pnode nd = {u, parent, L->pool.n, n, h};
    for (int i = 0; i < n; i++)
        MF_VEC_PUSH(L->pool, set[i]);
    MF_VEC_PUSH(L->v, nd);
    return L->v.n - 1;
}

static void players_reset(players *L)
{
    L->v.n = 0;
    L->pool.n = 0;
    memset(L->table, 0xff, sizeof *L->table * HSLOTS);
}

/* Potential: some run of the mutant shows observables no run of the
 * original shows with them, or refuses an input where no such run does.
 * Returns the layer of the kill and fills path[0..kill] with the mutant's
 * states along that run (path[kill] = -1 for a refusal, *refuses = 1),
 * or -1. */
static int potential(const graph *o, graph *u, int *path, int *refuses)
{
    players L[2];
    int total = o->first[o->len + 1];
    unsigned char *mark = mf_xcalloc((size_t)total + 1, 1);
    intvec set = {0};
    MF_VEC(pnode) *hist = mf_xcalloc((size_t)o->len + 1, sizeof *hist);
    for (int i = 0; i < 2; i++) {
        memset(&L[i], 0, sizeof L[i]);
        L[i].table = mf_xmalloc(sizeof *L[i].table * HSLOTS);
        players_reset(&L[i]);
    }
    int kill = -1, last = -1, over = need(u, 0) < 0;
    *refuses = 0;
    for (int j = u->first[0]; j < u->first[1] && kill < 0 && !over; j++) {
        set.n = 0;
        for (int i = o->first[0]; i < o->first[1]; i++)
            if (same_obs(o, i, u, j))
                MF_VEC_PUSH(set, i);
        if (set.n == 0) {
            kill = 0;
            path[0] = j;
        } else if (pnode_put(&L[0], j, set.v, set.n, -1) < 0) {
            over = 1;
        }
    }
    for (int k = 0; k < o->len && kill < 0 && !over && L[k & 1].v.n; k++) {
        players *cur = &L[k & 1], *nx = &L[(k + 1) & 1];
        players_reset(nx);
        if (need(u, k + 1) < 0) {
            over = 1;
            break;
        }
        for (int p = 0; p < cur->v.n && kill < 0 && !over; p++) {
            const pnode *nd = &cur->v.v[p];
            const int *S = cur->pool.v + nd->from;
            int nu;
            const int *su = succ_of(u, nd->u, &nu);
            if (nu == 0) { /* the mutant refuses step k + 1 */
                int any = 0;
                for (int i = 0; i < nd->n && !any; i++) {
                    int no;
                    succ_of(o, S[i], &no);
                    any = no == 0;
                }
                if (!any) {
                    kill = k + 1;
                    last = p;
                    *refuses = 1;
                }
                continue;
            }
            for (int b = 0; b < nu && kill < 0 && !over; b++) {
                set.n = 0;
                for (int i = 0; i < nd->n; i++) {
                    int no;
                    const int *so = succ_of(o, S[i], &no);
                    for (int a = 0; a < no; a++)
                        if (!mark[so[a]] && same_obs(o, so[a], u, su[b])) {
                            mark[so[a]] = 1;
                            MF_VEC_PUSH(set, so[a]);
                        }
                }
                for (int i = 0; i < set.n; i++)
                    mark[set.v[i]] = 0;
                if (set.n == 0) {
                    kill = k + 1;
                    last = p;
                    path[k + 1] = su[b];
                    break;
                }
                /* Sets are compared as sorted lists. */
                qsort(set.v, (size_t)set.n, sizeof *set.v, cmp_int);
                if (pnode_put(nx, su[b], set.v, set.n, p) < 0)
                    over = 1;
            }
        }
        /* Keep the layer's nodes (without their sets) for the path. */
        for (int p = 0; p < cur->v.n; p++)
            MF_VEC_PUSH(hist[k], cur->v.v[p]);
    }
    if (kill > 0) {
        if (*refuses)
            path[kill] = -1;
        for (int k = kill - 1, p = last; k >= 0; k--) {
            path[k] = hist[k].v[p].u;
            p = hist[k].v[p].parent;
        }
    }
    for (int k = 0; k <= o->len; k++)
        MF_VEC_FREE(hist[k]);
    free(hist);
    for (int i = 0; i < 2; i++) {
        MF_VEC_FREE(L[i].v);
        MF_VEC_FREE(L[i].pool);
        free(L[i].table);
    }
    MF_VEC_FREE(set);
    free(mark);
    return kill;
}

/* ---- a kill ------------------------------------------------------------- */

/* The test cut after layer d. */
static mf_test *cut(const mf_test *t, int d)
{
    mf_test *c = mf_test_new(t->nslots, t->nobs, d);
    memcpy(c->inputs, t->inputs,
           sizeof *c->inputs * (size_t)(d + 1) * (size_t)t->nslots);
    memcpy(c->expect, t->expect,
           sizeof *c->expect * (size_t)(d + 1) * (size_t)t->nobs);
    return c;
}

/* A potential kill at layer d along the mutant's states `path`: the test
 * cut there, with the mutant's observables (or its refusal). */
static mf_test *potential_test(const mf_test *t, const graph *u, int d,
                               const int *path, int refuses)
{
    mf_test *c = cut(t, d);
    size_t sz = (size_t)(d + 1) * (size_t)(c->nobs ? c->nobs : 1);
    c->mobs = mf_xcalloc(sz, sizeof *c->mobs);
    for (int k = 0; k <= d; k++)
        if (path[k] >= 0)
            memcpy(c->mobs + (size_t)k * c->nobs, obs_of(u, path[k]),
                   sizeof *c->mobs * (size_t)c->nobs);
    c->mrefuses = refuses ? d : -1;
    return c;
}

int mf_replay_kill(mf_replay *r, const mf_model *mm, mf_notion_req want,
                   mf_test **out, mf_notion *notion)
{
    *out = NULL;
    graph u;
    graph_init(&u, mm, r->t);
    u.base = r;
    u.delta = mf_explore_step_delta(r->m, mm, &u.ditem);
    const graph *o = &r->o;
    int len = r->t->length;
    mf_test *c = NULL;
    mf_notion nt = MF_N_DEFINITE;
    if (want == MF_REQ_DEFINITE) {
        int d = definite(o, &u, len);
        if (d >= 0) {
            nt = one_run(o, d, 0) && one_run(&u, d, 1) ? MF_N_DETERMINISTIC
                                                       : MF_N_DEFINITE;
            c = cut(r->t, d);
        }
    } else {
        /* The first step where the mutant shows what the original cannot:
         * only the layers up to it are built, where a definite search
         * would build them all whenever there is no definite kill. */
        int *path = mf_xcalloc((size_t)len + 1, sizeof *path);
        int refuses = 0;
        int d = potential(o, &u, path, &refuses);
        if (d >= 0 && one_run(o, d, 0) && one_run(&u, d, 1)) {
            nt = MF_N_DETERMINISTIC; /* one run each: the only kill */
            c = cut(r->t, d);
        } else if (d >= 0) {
            /* Under auto a definite kill is preferred, as the engine
             * does; looked for (within twice the depth of the potential
             * one) only where it would not cost a whole test. */
            int dd = want == MF_REQ_AUTO
                         ? definite(o, &u, 2 * d + 1 < len ? 2 * d + 1 : len)
                         : -1;
            nt = dd >= 0 ? MF_N_DEFINITE : MF_N_POTENTIAL;
            c = dd >= 0 ? cut(r->t, dd)
                        : potential_test(r->t, &u, d, path, refuses);
        }
        free(path);
    }
    graph_free(&u);
    /* The referee: the same replay as every kill of the farm. */
    if (c && mf_engine_replay(r->m, mm, c, nt) != 0) {
        mf_test_free(c);
        c = NULL;
    }
    if (!c)
        return 0;
    *out = c;
    *notion = nt;
    return 1;
}
