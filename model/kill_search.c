/* kill_search.c - the searches of the test x mutant replay (kill_int.h)
 * over the layered graphs of the original and a mutant along a test's
 * inputs (kill_graph.c).
 *
 * Potential: nodes (u, S), a mutant state and the original's states with
 * the same observables so far (an interned set); a mutant successor whose
 * observables no successor of S shows, or a refusal of u (where no state
 * of S refuses too, under the engine's rules), is a kill. Definite: the
 * pairs (s, u) of states with the same observables so far; the first
 * layer with none left is a kill (under the engine's rules a pair where
 * both refuse is a matching behaviour: no definite kill). Both are
 * breadth-first, so the first kill found is a shortest one, and the
 * potential one found first is along the mutant's first run in the
 * simulator's order. What a kill means to its caller (a notion, a test)
 * is kill_replay.c's. */
#include "kill_int.h"

#include <stdlib.h>
#include <string.h>

static int same_obs(const mf_kill_graph *a, int i, const mf_kill_graph *b,
                    int j)
{
    return !memcmp(mf_kill_obs_of(a, i), mf_kill_obs_of(b, j),
                   sizeof(mf_val) * (size_t)a->nobs);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* ---- definite ---------------------------------------------------------- */

typedef MF_VEC(int64_t) i64vec;

/* The original's graph, for sorting states by their observables. */
static _Thread_local const mf_kill_graph *by_obs;

static int cmp_by_obs(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = memcmp(mf_kill_obs_of(by_obs, x), mf_kill_obs_of(by_obs, y),
                   sizeof(mf_val) * (size_t)by_obs->nobs);
    return c ? c : (x > y) - (x < y);
}

/* Layer 0 of g's states, sorted by observables then index (caller
 * frees). */
static int *layer0_by_obs(const mf_kill_graph *g, int *count)
{
    int n = mf_kill_layer_size(g, 0);
    int *v = mf_xcalloc((size_t)n + 1, sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = g->first[0] + i;
    by_obs = g;
    qsort(v, (size_t)n, sizeof *v, cmp_by_obs);
    *count = n;
    return v;
}

/* The initial pairs (i, j) with equal observables, as i * w + j. 0 or
 * MF_ELIMIT past the rules' initial pairs. */
static int initial_pairs(const mf_kill_graph *o, const mf_kill_graph *u,
                         int64_t w, i64vec *pairs)
{
    int no, nu, rc = 0, a = 0;
    int *A = layer0_by_obs(o, &no), *B = layer0_by_obs(u, &nu);
    size_t ob = sizeof(mf_val) * (size_t)o->nobs;
    for (int b = 0; b < nu && rc == 0;) {
        const mf_val *want = mf_kill_obs_of(u, B[b]);
        int c = 1;
        while (a < no && (c = memcmp(mf_kill_obs_of(o, A[a]), want, ob)) < 0)
            a++;
        int e = b;
        while (e < nu && !memcmp(mf_kill_obs_of(u, B[e]), want, ob))
            e++;
        int end = a;
        while (c == 0 && end < no &&
               !memcmp(mf_kill_obs_of(o, A[end]), want, ob))
            end++;
        for (int i = a; i < end && rc == 0; i++)
            for (int j = b; j < e; j++) {
                MF_VEC_PUSH(*pairs, A[i] * w + B[j]);
                if (pairs->n > u->rules->max_init_pairs) {
                    rc = mf_err_set(MF_ELIMIT, "more than %ld state pairs "
                                    "in the replay", u->rules->max_init_pairs);
                    break;
                }
            }
        b = e;
    }
    free(A);
    free(B);
    return rc;
}

/* The pairs of so (no states of o) and su (nu of u) with equal
 * observables, as a * w + b, appended to *out: by a merge of the two
 * sorted by observables where there are many (A and B scratch). */
static void join(const mf_kill_graph *o, const int *so, int no,
                 const mf_kill_graph *u, const int *su, int nu, int64_t w,
                 i64vec *out, mf_kintvec *A, mf_kintvec *B)
{
    if ((long)no * nu <= 64) {
        for (int a = 0; a < no; a++)
            for (int b = 0; b < nu; b++)
                if (same_obs(o, so[a], u, su[b]))
                    MF_VEC_PUSH(*out, so[a] * w + su[b]);
        return;
    }
    A->n = B->n = 0;
    for (int a = 0; a < no; a++)
        MF_VEC_PUSH(*A, so[a]);
    for (int b = 0; b < nu; b++)
        MF_VEC_PUSH(*B, su[b]);
    by_obs = o;
    qsort(A->v, (size_t)no, sizeof *A->v, cmp_by_obs);
    by_obs = u;
    qsort(B->v, (size_t)nu, sizeof *B->v, cmp_by_obs);
    size_t ob = sizeof(mf_val) * (size_t)o->nobs;
    for (int a = 0, b = 0; a < no && b < nu;) {
        int c = memcmp(mf_kill_obs_of(o, A->v[a]), mf_kill_obs_of(u, B->v[b]),
                       ob);
        if (c < 0) {
            a++;
        } else if (c > 0) {
            b++;
        } else {
            int ea = a, eb = b;
            while (ea < no && !memcmp(mf_kill_obs_of(o, A->v[ea]),
                                      mf_kill_obs_of(o, A->v[a]), ob))
                ea++;
            while (eb < nu && !memcmp(mf_kill_obs_of(u, B->v[eb]),
                                      mf_kill_obs_of(u, B->v[b]), ob))
                eb++;
            for (int x = a; x < ea; x++)
                for (int y = b; y < eb; y++)
                    MF_VEC_PUSH(*out, A->v[x] * w + B->v[y]);
            a = ea;
            b = eb;
        }
    }
}

/* mf_kill_definite (kill_int.h). */
int mf_kill_definite(const mf_kill_graph *o, mf_kill_graph *u, int maxk,
                     int *kill)
{
    const mf_kill_rules *ru = u->rules;
    i64vec pairs = {0}, np = {0};
    mf_kintvec A = {0}, B = {0};
    /* Pair (i, j) is i * w + j: j is below any count of states. */
    int64_t w = (int64_t)(u->len + 1) * ru->max_layer + 1;
    int rc = mf_kill_graph_need(u, 0);
    *kill = -1;
    if (rc < 0)
        return rc;
    if (ru->both_refuse_same && mf_kill_layer_size(o, 0) == 0 &&
        mf_kill_layer_size(u, 0) == 0)
        return 0;
    rc = initial_pairs(o, u, w, &pairs);
    if (rc == 0 && pairs.n == 0)
        *kill = 0;
    for (int k = 0; k < maxk && *kill < 0 && pairs.n && rc == 0; k++) {
        int stop = 0;
        np.n = 0;
        if ((rc = mf_kill_graph_need(u, k + 1)) < 0)
            break;
        for (int p = 0; p < pairs.n && !stop && rc == 0; p++) {
            int i = (int)(pairs.v[p] / w), j = (int)(pairs.v[p] % w);
            int no, nu;
            const int *so = mf_kill_succ_of(o, i, &no);
            const int *su = mf_kill_succ_of(u, j, &nu);
            if (no == 0 && nu == 0 && ru->both_refuse_same)
                stop = 1; /* both refuse: the same behaviour */
            if (!stop)
                join(o, so, no, u, su, nu, w, &np, &A, &B);
            if (np.n > ru->max_pairs)
                rc = mf_err_set(MF_ELIMIT, "more than %ld state pairs in "
                                "the replay", ru->max_pairs);
        }
        if (stop || rc < 0)
            break;
        if (np.n > 1)
            qsort(np.v, (size_t)np.n, sizeof *np.v, cmp_i64);
        int m = 0;
        for (int p = 0; p < np.n; p++)
            if (!m || np.v[p] != np.v[m - 1])
                np.v[m++] = np.v[p];
        np.n = m;
        if (np.n == 0)
            *kill = k + 1;
        i64vec sw = pairs;
        pairs = np;
        np = sw;
    }
    MF_VEC_FREE(pairs);
    MF_VEC_FREE(np);
    MF_VEC_FREE(A);
    MF_VEC_FREE(B);
    if (rc < 0)
        *kill = -1;
    return rc;
}

/* ---- potential ----------------------------------------------------------- */

/* A node of the potential search: a mutant state and the set of the
 * original's states with the same observables so far (an interned set of
 * its layer), reached from node `parent` of the layer before. */
typedef struct {
    int u, sid, parent;
} pnode;

/* A set of the original's states (pool[from .. from + n), ascending), and
 * its successors grouped by their observables (grp[gfrom .. gfrom + gn),
 * by observables then index; gfrom -1: not grouped yet). */
typedef struct {
    int from, n;
    uint64_t h;
    int gfrom, gn;
    int refuses; /* some state of it has no successor; -1: not known */
} pset;

/* One layer of the search: its nodes and its sets, each deduplicated
 * through a table (open addressing, -1 empty; only the slots in use are
 * cleared). */
typedef struct {
    MF_VEC(pnode) v;
    mf_kintvec ntab, nused;
    MF_VEC(pset) sets;
    mf_kintvec pool;
    mf_kintvec stab, sused;
    mf_kintvec grp;   /* grouped successors of the sets */
    mf_kintvec child; /* per entry of grp starting a group: the set of the
                         next layer it makes, -1 not yet */
} players;

static void tab_clear(mf_kintvec *tab, mf_kintvec *used)
{
    for (int i = 0; i < used->n; i++)
        tab->v[used->v[i]] = -1;
    used->n = 0;
}

static void players_reset(players *L)
{
    tab_clear(&L->ntab, &L->nused);
    tab_clear(&L->stab, &L->sused);
    L->v.n = L->sets.n = L->pool.n = L->grp.n = L->child.n = 0;
}

static void players_free(players *L)
{
    MF_VEC_FREE(L->v);
    MF_VEC_FREE(L->ntab);
    MF_VEC_FREE(L->nused);
    MF_VEC_FREE(L->sets);
    MF_VEC_FREE(L->pool);
    MF_VEC_FREE(L->stab);
    MF_VEC_FREE(L->sused);
    MF_VEC_FREE(L->grp);
    MF_VEC_FREE(L->child);
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

/* Slot `at` (hash h) into a table of `count` entries, grown (and every
 * entry's hash taken again through hash_of) at half load. */
static void tab_add(mf_kintvec *tab, mf_kintvec *used, int at, int count,
                    uint64_t (*hash_of)(const players *, int),
                    const players *L)
{
    if (2 * (size_t)count + 2 > (size_t)tab->n) {
        tab_clear(tab, used);
        int cap = tab->n ? 2 * tab->n : 64;
        while (tab->n < cap)
            MF_VEC_PUSH(*tab, -1);
        for (int q = 0; q < count; q++)
            tab_add(tab, used, q, 0, hash_of, L);
        return;
    }
    size_t mask = (size_t)tab->n - 1;
    size_t i = hash_of(L, at) & mask;
    while (tab->v[i] >= 0)
        i = (i + 1) & mask;
    tab->v[i] = at;
    MF_VEC_PUSH(*used, (int)i);
}

static uint64_t set_hash(const players *L, int sid)
{
    return L->sets.v[sid].h;
}

static uint64_t node_hash(const players *L, int at)
{
    const pnode *nd = &L->v.v[at];
    return mix(((uint64_t)(unsigned)nd->u << 32) ^ (uint64_t)(unsigned)nd->sid);
}

/* The id of set `set` (n states, ascending) in layer L, interned. */
static int set_put(players *L, const int *set, int n)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)n;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)set[i]) * 1099511628211ull;
    h = mix(h);
    size_t mask = L->stab.n ? (size_t)L->stab.n - 1 : 0;
    for (size_t i = h & mask; L->stab.n; i = (i + 1) & mask) {
        int at = L->stab.v[i];
        if (at < 0)
            break;
        const pset *q = &L->sets.v[at];
        if (q->h == h && q->n == n &&
            !memcmp(L->pool.v + q->from, set, sizeof *set * (size_t)n))
            return at;
    }
    pset s = {L->pool.n, n, h, -1, 0, -1};
    for (int i = 0; i < n; i++)
        MF_VEC_PUSH(L->pool, set[i]);
    MF_VEC_PUSH(L->sets, s);
    tab_add(&L->stab, &L->sused, L->sets.n - 1, L->sets.n, set_hash, L);
    return L->sets.n - 1;
}

/* Add node (u, sid) to the layer unless it is there: its index, or -1
 * past max nodes. */
static int node_put(players *L, int u, int sid, int parent, int max)
{
    pnode nd = {u, sid, parent};
    uint64_t h =
        mix(((uint64_t)(unsigned)u << 32) ^ (uint64_t)(unsigned)sid);
    size_t mask = L->ntab.n ? (size_t)L->ntab.n - 1 : 0;
    for (size_t i = h & mask; L->ntab.n; i = (i + 1) & mask) {
        int at = L->ntab.v[i];
        if (at < 0)
            break;
        if (L->v.v[at].u == u && L->v.v[at].sid == sid)
            return at;
    }
    if (L->v.n >= max)
        return -1;
    MF_VEC_PUSH(L->v, nd);
    tab_add(&L->ntab, &L->nused, L->v.n - 1, L->v.n, node_hash, L);
    return L->v.n - 1;
}

/* Set sid of layer L grouped: the successors of its states, each once,
 * by observables then index. */
static void set_group(players *L, const mf_kill_graph *o, int sid,
                      unsigned char *mark)
{
    pset *s = &L->sets.v[sid];
    if (s->gfrom >= 0)
        return;
    int from = L->grp.n;
    for (int i = 0; i < s->n; i++) {
        int no;
        const int *so = mf_kill_succ_of(o, L->pool.v[s->from + i], &no);
        for (int a = 0; a < no; a++)
            if (!mark[so[a]]) {
                mark[so[a]] = 1;
                MF_VEC_PUSH(L->grp, so[a]);
                MF_VEC_PUSH(L->child, -1);
            }
    }
    for (int i = from; i < L->grp.n; i++)
        mark[L->grp.v[i]] = 0;
    by_obs = o;
    qsort(L->grp.v + from, (size_t)(L->grp.n - from), sizeof *L->grp.v,
          cmp_by_obs);
    s = &L->sets.v[sid];
    s->gfrom = from;
    s->gn = L->grp.n - from;
}

/* 1 if some state of set sid has no successor. */
static int set_refuses(players *L, const mf_kill_graph *o, int sid)
{
    pset *s = &L->sets.v[sid];
    if (s->refuses < 0) {
        s->refuses = 0;
        for (int i = 0; i < s->n && !s->refuses; i++) {
            int no;
            mf_kill_succ_of(o, L->pool.v[s->from + i], &no);
            s->refuses = no == 0;
        }
    }
    return s->refuses;
}

/* The set of the next layer (in nx) of the successors of set sid (of L)
 * that show the observables of mutant state j of u, or -1 if none does. */
static int set_step(players *L, players *nx, const mf_kill_graph *o,
                    const mf_kill_graph *u, int sid, int j,
                    unsigned char *mark)
{
    set_group(L, o, sid, mark);
    const pset *s = &L->sets.v[sid];
    const mf_val *want = mf_kill_obs_of(u, j);
    size_t ob = sizeof(mf_val) * (size_t)o->nobs;
    int lo = s->gfrom, hi = s->gfrom + s->gn;
    while (lo < hi) { /* the first entry not below want */
        int mid = lo + (hi - lo) / 2;
        if (memcmp(mf_kill_obs_of(o, L->grp.v[mid]), want, ob) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    int end = lo, stop = s->gfrom + s->gn;
    while (end < stop && !memcmp(mf_kill_obs_of(o, L->grp.v[end]), want, ob))
        end++;
    if (end == lo)
        return -1;
    if (L->child.v[lo] < 0)
        L->child.v[lo] = set_put(nx, L->grp.v + lo, end - lo);
    return L->child.v[lo];
}

/* States a step meets from one group: the mutant's states U (n, sorted
 * by observables, each once) and, for each of their observables, the
 * original's states of og (ogn, sorted by observables) that show it. */
static long step_states(const mf_kill_graph *o, const int *og, int ogn,
                        const mf_kill_graph *u, const int *U, int n)
{
    size_t ob = sizeof(mf_val) * (size_t)o->nobs;
    long total = n;
    for (int i = 0; i < n;) {
        const mf_val *want = mf_kill_obs_of(u, U[i]);
        int lo = 0, hi = ogn;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (memcmp(mf_kill_obs_of(o, og[mid]), want, ob) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        while (lo < ogn && !memcmp(mf_kill_obs_of(o, og[lo]), want, ob)) {
            total++;
            lo++;
        }
        while (i < n && !memcmp(mf_kill_obs_of(u, U[i]), want, ob))
            i++;
    }
    return total;
}

/* States the step from layer L meets (mf_kill_rules.max_step_states): its
 * nodes grouped by their set, each group's mutant successors (each once)
 * against the set's successors. */
static long layer_states(players *L, const mf_kill_graph *o,
                         const mf_kill_graph *u, int k, unsigned char *omark,
                         mf_kintvec *U)
{
    int ns = L->sets.n, base = u->first[k + 1];
    int *start = mf_xcalloc((size_t)ns + 2, sizeof *start);
    int *order = mf_xcalloc((size_t)L->v.n + 1, sizeof *order);
    unsigned char *umark =
        mf_xcalloc((size_t)mf_kill_layer_size(u, k + 1) + 1, 1);
    for (int p = 0; p < L->v.n; p++)
        start[L->v.v[p].sid + 2]++;
    for (int s = 0; s < ns; s++)
        start[s + 2] += start[s + 1];
    for (int p = 0; p < L->v.n; p++)
        order[start[L->v.v[p].sid + 1]++] = p;
    long total = 0;
    for (int s = 0; s < ns; s++) {
        U->n = 0;
        for (int q = s ? start[s] : 0; q < start[s + 1]; q++) {
            int nu;
            const int *su = mf_kill_succ_of(u, L->v.v[order[q]].u, &nu);
            for (int b = 0; b < nu; b++)
                if (!umark[su[b] - base]) {
                    umark[su[b] - base] = 1;
                    MF_VEC_PUSH(*U, su[b]);
                }
        }
        for (int i = 0; i < U->n; i++)
            umark[U->v[i] - base] = 0;
        by_obs = u;
        qsort(U->v, (size_t)U->n, sizeof *U->v, cmp_by_obs);
        set_group(L, o, s, omark);
        const pset *st = &L->sets.v[s];
        total += step_states(o, L->grp.v + st->gfrom, st->gn, u, U->v, U->n);
    }
    free(start);
    free(order);
    free(umark);
    return total;
}


/* Layer 0: a node per mutant initial state with the original's initial
 * states that show its observables; a mutant state none shows is a kill
 * (path[0]); no initial state, a refusal (the explorer's rules). */
static int potential_init(const mf_kill_graph *o, mf_kill_graph *u,
                          players *L, int *path, mf_kill_found *f)
{
    int rc = mf_kill_graph_need(u, 0);
    if (rc < 0)
        return rc;
    if (mf_kill_layer_size(u, 0) == 0 && !u->rules->both_refuse_same) {
        f->kill = 0;
        f->refuses = f->any_refusal = 1;
        return 0;
    }
    /* The original's initial states by observables: a set per group. */
    int n0;
    int *init = layer0_by_obs(o, &n0);
    size_t ob = sizeof(mf_val) * (size_t)o->nobs;
    for (int j = u->first[0]; j < u->first[1] && f->kill < 0 && rc == 0;
         j++) {
        const mf_val *want = mf_kill_obs_of(u, j);
        int lo = 0, hi = n0;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (memcmp(mf_kill_obs_of(o, init[mid]), want, ob) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        int end = lo;
        while (end < n0 && !memcmp(mf_kill_obs_of(o, init[end]), want, ob))
            end++;
        if (end == lo) {
            f->kill = 0;
            if (path)
                path[0] = j;
        } else if (node_put(L, j, set_put(L, init + lo, end - lo), -1,
                            u->rules->max_nodes) < 0)
            rc = mf_err_set(MF_ELIMIT, "more than %d states in the replay",
                            u->rules->max_nodes);
    }
    if (rc == 0 && f->kill < 0 && u->rules->max_step_states) {
        int nu0;
        int *U = layer0_by_obs(u, &nu0);
        if (step_states(o, init, n0, u, U, nu0) > u->rules->max_step_states)
            rc = mf_err_set(MF_ELIMIT, "more than %ld states in the replay",
                            u->rules->max_step_states);
        free(U);
    }
    free(init);
    return rc;
}

/* mf_kill_potential (kill_int.h). */
int mf_kill_potential(const mf_kill_graph *o, mf_kill_graph *u, int *path,
                      mf_kill_found *f)
{
    const mf_kill_rules *ru = u->rules;
    players L[2] = {0};
    int total = o->first[o->len + 1], last = -1;
    unsigned char *mark = mf_xcalloc((size_t)total + 1, 1);
    mf_kintvec scratch = {0};
    MF_VEC(pnode) *hist = path ? mf_xcalloc((size_t)o->len + 1, sizeof *hist)
                               : NULL;
    memset(f, 0, sizeof *f);
    f->kill = -1;
    int rc = potential_init(o, u, &L[0], path, f);
    for (int k = 0; k < o->len && f->kill < 0 && rc == 0 && L[k & 1].v.n;
         k++) {
        players *cur = &L[k & 1], *nx = &L[(k + 1) & 1];
        players_reset(nx);
        if ((rc = mf_kill_graph_need(u, k + 1)) < 0)
            break;
        for (int p = 0; p < cur->v.n && f->kill < 0 && rc == 0; p++) {
            const pnode nd = cur->v.v[p];
            int nu;
            const int *su = mf_kill_succ_of(u, nd.u, &nu);
            if (nu == 0) { /* the mutant refuses step k + 1 */
                if (!ru->both_refuse_same || !set_refuses(cur, o, nd.sid)) {
                    f->kill = k + 1;
                    f->refuses = 1;
                    last = p;
                }
                continue;
            }
            for (int b = 0; b < nu && f->kill < 0 && rc == 0; b++) {
                int sid = set_step(cur, nx, o, u, nd.sid, su[b], mark);
                if (sid < 0) {
                    f->kill = k + 1;
                    last = p;
                    if (path)
                        path[k + 1] = su[b];
                } else if (node_put(nx, su[b], sid, p, ru->max_nodes) < 0)
                    rc = mf_err_set(MF_ELIMIT, "more than %d states in the "
                                    "replay", ru->max_nodes);
            }
        }
        if (f->kill < 0 && rc == 0 && ru->max_step_states &&
            layer_states(cur, o, u, k, mark, &scratch) > ru->max_step_states)
            rc = mf_err_set(MF_ELIMIT, "more than %ld states in the replay",
                            ru->max_step_states);
        if (f->kill > 0) {
            f->any_refusal = f->refuses;
            for (int p = 0; p < cur->v.n && !f->any_refusal; p++) {
                int nu;
                mf_kill_succ_of(u, cur->v.v[p].u, &nu);
                f->any_refusal = nu == 0 && !ru->both_refuse_same;
            }
        }
        /* Keep the layer's nodes for the path. */
        for (int p = 0; hist && p < cur->v.n; p++)
            MF_VEC_PUSH(hist[k], cur->v.v[p]);
    }
    if (rc < 0)
        f->kill = -1;
    if (path && f->kill > 0) {
        if (f->refuses)
            path[f->kill] = -1;
        for (int k = f->kill - 1, p = last; k >= 0; k--) {
            path[k] = hist[k].v[p].u;
            p = hist[k].v[p].parent;
        }
    }
    for (int k = 0; hist && k <= o->len; k++)
        MF_VEC_FREE(hist[k]);
    free(hist);
    players_free(&L[0]);
    players_free(&L[1]);
    MF_VEC_FREE(scratch);
    free(mark);
    return rc;
}
