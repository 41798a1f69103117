/* kill_replay.c - what one test does to one mutant, by the simulator:
 * no kill, or a kill and its notion (deterministic, potential, definite),
 * the step by which it kills and whether the mutant refuses there.
 *
 * The definitions are the explorer's (model/explore.h) on the test's one
 * input sequence I of length n. W_M(I): the observation words of the
 * original's runs over I that do not refuse; the mutant's behaviours are
 * its full words and its refusing words w.REFUSED, which no original
 * behaviour is. Potential: some mutant behaviour is not in W_M(I);
 * definite: none is. Both are found forward, step by step:
 *   potential - nodes (S, S'), the original's and the mutant's states after
 *     one common observation word; a mutant state that refuses, or a
 *     mutant successor whose observables no original successor shows, is
 *     a departure: the kill step;
 *   definite - the pairs (s, s') of states with equal words so far; when
 *     none is left, no mutant behaviour matches any original one.
 * A kill where every set met had at most one state is deterministic (the
 * two notions coincide there). Steps are memoised by (input, state): the
 * original's across every test and mutant of a block, a mutant's across
 * the tests replayed on it; a mutant that steps as the original where the
 * two agree (mf_explore_step_delta) takes the original's steps, so most
 * mutants cost a few expression evaluations a step.
 *
 * It neither reads nor writes the store. */
#include "kill_replay.h"

#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "sim.h"

/* States (or pairs) in one replay's sets, and candidate assignments per
 * enumeration: past either, the pair is undecided (MF_ELIMIT). */
#define REPLAY_LIMIT 20000
#define SIM_LIMIT 1000000L
/* Values a memo keeps (rows and keys): the original's per replay thread
 * 32 MB, a mutant's 8 MB; past it, steps are computed again instead of
 * kept. */
#define ORIG_MEMO_VALUES ((size_t)4 << 20)
#define MUT_MEMO_VALUES ((size_t)1 << 20)

typedef MF_VEC(mf_val) valvec;

/* ---- rows: an observation vector followed by a state -------------------- */

/* Sorting rows by their bytes groups equal observation prefixes together
 * (mf_sort_unique_rows: a byte order, not a numeric one; only grouping
 * matters), repeats dropped. */
static void sort_rows(valvec *v, int width)
{
    v->n = mf_sort_unique_rows(v->v, v->n, width);
}

static void push_vals(valvec *v, const mf_val *x, int n)
{
    for (int i = 0; i < n; i++)
        MF_VEC_PUSH(*v, x[i]);
}

/* ---- a memo of steps: (input, state) -> successor rows ------------------- */

/* Keyed by the input row and the state (no state: the initial states), so
 * that every test with the same inputs there shares the entry. */
struct mf_kill_memo {
    int n, w;            /* state size; row width (observables + n) */
    int kw;              /* key width: 1 + 2n */
    size_t max;          /* values it may keep */
    valvec keys;
    MF_VEC(int) at, cnt; /* per entry: first value in rows, rows */
    valvec rows;
    int *tab;            /* open addressing: entry + 1, 0 empty */
    size_t cap;
};
typedef struct mf_kill_memo memo;

static uint64_t vals_hash(uint64_t h, const mf_val *v, int n)
{
    for (int i = 0; v && i < n; i++) {
        h ^= (uint64_t)v[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static uint64_t key_hash(const mf_val *inp, const mf_val *cur, int n)
{
    uint64_t h = 1469598103934665603ull ^ (cur ? 1u : 0u);
    return vals_hash(vals_hash(h, inp, n), cur, n);
}

static int key_eq(const memo *M, int e, const mf_val *inp, const mf_val *cur)
{
    const mf_val *key = M->keys.v + (size_t)e * (size_t)M->kw;
    size_t b = sizeof(mf_val) * (size_t)M->n;
    if (key[0] != (cur != NULL) || memcmp(key + 1, inp, b))
        return 0;
    return !cur || !memcmp(key + 1 + M->n, cur, b);
}

static void memo_init(memo *M, int n, int w, size_t max)
{
    memset(M, 0, sizeof *M);
    M->n = n;
    M->w = w;
    M->kw = 1 + 2 * n;
    M->max = max;
}

static int memo_find(const memo *M, const mf_val *inp, const mf_val *cur)
{
    if (!M->cap)
        return -1;
    size_t i = key_hash(inp, cur, M->n) & (M->cap - 1);
    for (; M->tab[i]; i = (i + 1) & (M->cap - 1))
        if (key_eq(M, M->tab[i] - 1, inp, cur))
            return M->tab[i] - 1;
    return -1;
}

static void memo_slot(memo *M, int e)
{
    const mf_val *key = M->keys.v + (size_t)e * (size_t)M->kw;
    size_t i = key_hash(key + 1, key[0] ? key + 1 + M->n : NULL, M->n) &
               (M->cap - 1);
    while (M->tab[i])
        i = (i + 1) & (M->cap - 1);
    M->tab[i] = e + 1;
}

static void memo_add(memo *M, const mf_val *inp, const mf_val *cur,
                     const mf_val *rows, int nrows)
{
    size_t used = (size_t)M->keys.n + (size_t)M->rows.n;
    if (used + (size_t)M->kw + (size_t)(nrows > 0 ? nrows : 0) *
                                   (size_t)M->w > M->max)
        return; /* full: the caller computes such steps again */
    int e = M->at.n;
    if ((size_t)(e + 1) * 2 > M->cap) {
        free(M->tab);
        M->cap = M->cap ? M->cap * 2 : 256;
        M->tab = mf_xcalloc(M->cap, sizeof *M->tab);
        for (int q = 0; q < e; q++)
            memo_slot(M, q);
    }
    MF_VEC_PUSH(M->keys, cur != NULL);
    push_vals(&M->keys, inp, M->n);
    for (int i = 0; i < M->n; i++)
        MF_VEC_PUSH(M->keys, cur ? cur[i] : 0);
    MF_VEC_PUSH(M->at, M->rows.n);
    MF_VEC_PUSH(M->cnt, nrows);
    if (nrows > 0)
        push_vals(&M->rows, rows, nrows * M->w);
    memo_slot(M, e);
}

static void memo_free(memo *M)
{
    MF_VEC_FREE(M->keys);
    MF_VEC_FREE(M->at);
    MF_VEC_FREE(M->cnt);
    MF_VEC_FREE(M->rows);
    free(M->tab);
    memset(M, 0, sizeof *M);
}

/* Append memo entry e's rows to *out. */
static void memo_rows(const memo *M, int e, valvec *out, int *count)
{
    push_vals(out, M->rows.v + M->at.v[e], M->cnt.v[e] * M->w);
    *count = M->cnt.v[e];
}

/* ---- one step of one model by the simulator ----------------------------- */

typedef struct {
    valvec *out;
    const mf_model *m;
    int n, nobs;
    mf_val *obs;
    int rc;     /* a failure of mf_sim_observe */
    int over;   /* more than REPLAY_LIMIT states */
    int count;
} collect;

static int collect_fn(const mf_val *state, void *ctx)
{
    collect *c = ctx;
    if (++c->count > REPLAY_LIMIT) {
        c->over = 1;
        return 1;
    }
    int rc = mf_sim_observe(c->obs, c->nobs, c->m, state);
    if (rc < 0) {
        c->rc = rc;
        return 1;
    }
    push_vals(c->out, c->obs, c->nobs);
    push_vals(c->out, state, c->n);
    return 0;
}

/* The rows of the initial states (cur NULL) or of the successors of cur
 * under input row inp, sorted, into a fresh *out. */
static int sim_rows(valvec *out, const mf_model *m, int nobs,
                    const mf_val *inp, const mf_val *cur)
{
    int n = m->nslots;
    mf_val *obs = mf_xcalloc((size_t)nobs + 1, sizeof *obs);
    collect c = {out, m, n, nobs, obs, 0, 0, 0};
    out->n = 0;
    int rc = cur ? mf_sim_next_each(m, cur, inp, collect_fn, &c, SIM_LIMIT)
                 : mf_sim_initial_each(m, inp, collect_fn, &c, SIM_LIMIT);
    free(obs);
    if (c.rc < 0)
        return c.rc;
    if (c.over)
        return mf_err_set(MF_ELIMIT, "more than %d states in one step",
                          REPLAY_LIMIT);
    if (rc < 0)
        return rc;
    sort_rows(out, nobs + n);
    return 0;
}

/* The rows of model m's step (memoised in M) into *out, appended. */
static int step_rows(memo *M, valvec *tmp, const mf_model *m,
                     const mf_val *inp, const mf_val *cur, valvec *out,
                     int *count)
{
    int e = memo_find(M, inp, cur);
    if (e >= 0) {
        memo_rows(M, e, out, count);
        return 0;
    }
    int rc = sim_rows(tmp, m, M->w - M->n, inp, cur);
    if (rc < 0)
        return rc;
    *count = tmp->n / M->w;
    memo_add(M, inp, cur, tmp->v, *count);
    push_vals(out, tmp->v, tmp->n);
    return 0;
}

/* ---- the original's side ------------------------------------------------- */

struct mf_kill_orig {
    const mf_model *m;
    int n, nobs, w;
    memo M;
    valvec tmp;
};

/* The inputs of state k of t (k = 0: the initial inputs). */
static const mf_val *inputs_at(const mf_test *t, int k)
{
    return t->inputs + (size_t)k * (size_t)t->nslots;
}

static int orig_succ(mf_kill_orig *o, const mf_val *inp, const mf_val *cur,
                     valvec *out, int *count)
{
    return step_rows(&o->M, &o->tmp, o->m, inp, cur, out, count);
}

/* Rows of the sorted `set` (width w) whose observables are those of
 * `obs`: their range [*lo, *hi), searched from row *lo on (callers that
 * look up ascending observations pass the previous *hi back: a merge). */
static void obs_range(const valvec *set, int w, int nobs, const mf_val *obs,
                      int *lo, int *hi)
{
    int rows = set->n / w, i = *lo;
    size_t ob = sizeof(mf_val) * (size_t)nobs;
    while (i < rows && memcmp(set->v + (size_t)i * w, obs, ob) < 0)
        i++;
    *lo = i;
    while (i < rows && !memcmp(set->v + (size_t)i * w, obs, ob))
        i++;
    *hi = i;
}

int mf_kill_orig_new(mf_kill_orig **out, const mf_model *m)
{
    mf_kill_orig *o = mf_xcalloc(1, sizeof *o);
    o->m = m;
    o->n = m->nslots;
    o->nobs = mf_model_nobs(m);
    o->w = o->nobs + o->n;
    memo_init(&o->M, o->n, o->w, ORIG_MEMO_VALUES);
    *out = o;
    return 0;
}

void mf_kill_orig_free(mf_kill_orig *o)
{
    if (!o)
        return;
    memo_free(&o->M);
    MF_VEC_FREE(o->tmp);
    free(o);
}

int mf_kill_test_check(mf_kill_orig *o, const mf_test *t)
{
    valvec cur = {0}, nxt = {0};
    int rc = 0;
    if (t->nslots != o->n || t->nobs != o->nobs)
        return mf_err_set(MF_ERROR, "the test does not match the model");
    /* The expected word must be one of the original's behaviours. */
    for (int k = 0; k <= t->length && rc == 0; k++) {
        int rows = k ? cur.n / o->w : 1, cnt;
        nxt.n = 0;
        for (int i = 0; i < rows && rc == 0; i++)
            rc = orig_succ(o, inputs_at(t, k),
                           k ? cur.v + (size_t)i * o->w + o->nobs : NULL,
                           &nxt, &cnt);
        if (rc < 0)
            break;
        sort_rows(&nxt, o->w);
        int lo = 0, hi;
        obs_range(&nxt, o->w, o->nobs, t->expect + (size_t)k * o->nobs, &lo,
                  &hi);
        if (lo == hi) {
            rc = mf_err_set(MF_ERROR, "the original cannot show the "
                            "expected observables at step %d", k);
            break;
        }
        cur.n = 0;
        push_vals(&cur, nxt.v + (size_t)lo * o->w, (hi - lo) * o->w);
    }
    MF_VEC_FREE(cur);
    MF_VEC_FREE(nxt);
    return rc;
}

/* ---- the mutant's side --------------------------------------------------- */

void mf_kill_mut_init(mf_kill_mut *out, const mf_model *orig,
                        const mf_model *mut)
{
    memset(out, 0, sizeof *out);
    out->m = mut;
    out->delta = mf_explore_step_delta(orig, mut, &out->item);
    out->memo = mf_xcalloc(1, sizeof *out->memo);
    int n = mut->nslots;
    memo_init(out->memo, n, mf_model_nobs(mut) + n, MUT_MEMO_VALUES);
}

void mf_kill_mut_free(mf_kill_mut *mu)
{
    if (!mu || !mu->memo)
        return;
    memo_free(mu->memo);
    free(mu->memo);
    mu->memo = NULL;
}

typedef struct {
    mf_kill_orig *o;
    const mf_test *t;
    mf_kill_mut *mu;
    valvec tmp;
    mf_valset vals[2]; /* mf_explore_step_agrees' scratch */
} side;

/* Append the mutant's rows of state k's step from cur to *out. Its memo
 * also keeps, as an entry of AS_ORIG rows, that a step is the
 * original's, so the two right-hand sides are compared once. */
#define AS_ORIG (-1)

static int mut_succ(side *d, int k, const mf_val *cur, valvec *out,
                    int *count)
{
    mf_kill_orig *o = d->o;
    mf_kill_mut *mu = d->mu;
    memo *M = mu->memo;
    const mf_val *inp = inputs_at(d->t, k);
    if (!cur ? mu->delta == MF_STEP_NEXT : mu->delta == MF_STEP_SAME)
        return orig_succ(o, inp, cur, out, count);
    int e = memo_find(M, inp, cur);
    if (e >= 0 && M->cnt.v[e] == AS_ORIG)
        return orig_succ(o, inp, cur, out, count);
    if (e >= 0) {
        memo_rows(M, e, out, count);
        return 0;
    }
    if (cur && mu->delta == MF_STEP_NEXT &&
        mf_explore_step_agrees(o->m, mu->m, mu->item, cur, inp, d->vals)) {
        memo_add(M, inp, cur, NULL, AS_ORIG);
        return orig_succ(o, inp, cur, out, count);
    }
    return step_rows(M, &d->tmp, mu->m, inp, cur, out, count);
}

/* ---- potential: nodes (S, S') over common words -------------------------- */

/* A node's rows live in its set's pool: S at [s, s + ns) rows, S' at
 * [m, m + nm), each row w values. */
typedef struct {
    int s, ns, m, nm;
    uint64_t h;
} node;

/* The nodes of one step, deduplicated through a hash table. */
typedef struct {
    MF_VEC(node) v;
    valvec pool;
    int w;
    int *tab; /* open addressing: node + 1 */
    size_t cap;
} node_set;

static const mf_val *node_s(const node_set *ns, const node *nd)
{
    return ns->pool.v + (size_t)nd->s;
}

static const mf_val *node_m(const node_set *ns, const node *nd)
{
    return ns->pool.v + (size_t)nd->m;
}

static void node_set_clear(node_set *ns)
{
    ns->v.n = 0;
    ns->pool.n = 0;
    if (ns->cap)
        memset(ns->tab, 0, ns->cap * sizeof *ns->tab);
}

static void node_set_free(node_set *ns)
{
    MF_VEC_FREE(ns->v);
    MF_VEC_FREE(ns->pool);
    free(ns->tab);
    memset(ns, 0, sizeof *ns);
}

static int same_node(const node_set *ns, const node *a, const node *b)
{
    size_t w = sizeof(mf_val) * (size_t)ns->w;
    return a->h == b->h && a->ns == b->ns && a->nm == b->nm &&
           !memcmp(node_s(ns, a), node_s(ns, b), w * (size_t)a->ns) &&
           !memcmp(node_m(ns, a), node_m(ns, b), w * (size_t)a->nm);
}

/* Add the node of rows S (ns of them) and S' (nm) unless an equal one is
 * there. */
static void node_set_add(node_set *ns, const mf_val *S, int nS,
                         const mf_val *M, int nM)
{
    int w = ns->w;
    node nd = {ns->pool.n, nS, 0, nM, 0};
    push_vals(&ns->pool, S, nS * w);
    nd.m = ns->pool.n;
    push_vals(&ns->pool, M, nM * w);
    nd.h = vals_hash(vals_hash(1469598103934665603ull ^ (uint64_t)nS, S,
                               nS * w),
                     M, nM * w);
    if ((size_t)(ns->v.n + 1) * 2 > ns->cap) {
        free(ns->tab);
        ns->cap = ns->cap ? ns->cap * 2 : 64;
        ns->tab = mf_xcalloc(ns->cap, sizeof *ns->tab);
        for (int q = 0; q < ns->v.n; q++) {
            size_t i = ns->v.v[q].h & (ns->cap - 1);
            while (ns->tab[i])
                i = (i + 1) & (ns->cap - 1);
            ns->tab[i] = q + 1;
        }
    }
    size_t i = nd.h & (ns->cap - 1);
    for (; ns->tab[i]; i = (i + 1) & (ns->cap - 1))
        if (same_node(ns, &ns->v.v[ns->tab[i] - 1], &nd)) {
            ns->pool.n = nd.s; /* a twin is there: drop this one's rows */
            return;
        }
    ns->tab[i] = ns->v.n + 1;
    MF_VEC_PUSH(ns->v, nd);
}

/* Split the successors T (original) and T2 (mutant), both sorted, by the
 * mutant's observations into nodes of *out. 1 if some mutant observation
 * has no original successor (a departure), else 0. */
static int split_nodes(node_set *out, const valvec *T, const valvec *T2,
                       int w, int nobs, long *total)
{
    int rows = T2->n / w, lo = 0, hi = 0;
    for (int i = 0; i < rows;) {
        const mf_val *ob = T2->v + (size_t)i * w;
        int j = i;
        while (j < rows && !memcmp(T2->v + (size_t)j * w, ob,
                                   sizeof(mf_val) * (size_t)nobs))
            j++;
        lo = hi;
        obs_range(T, w, nobs, ob, &lo, &hi);
        if (lo == hi)
            return 1;
        node_set_add(out, T->v + (size_t)lo * w, hi - lo, ob, j - i);
        *total += (hi - lo) + (j - i);
        i = j;
    }
    return 0;
}

/* The first departure: *step (-1 none), *refusal (some mutant state on a
 * common word refuses at that step: every node of the step is looked
 * at, so the answer does not depend on their order), *det. */
static int potential(side *d, int *step, int *refusal, int *det)
{
    mf_kill_orig *o = d->o;
    int w = o->w, nobs = o->nobs, rc = 0;
    node_set cur = {0}, nxt = {0};
    valvec T = {0}, T2 = {0};

    cur.w = nxt.w = w;
    *step = -1;
    *refusal = 0;
    *det = 1;
    for (int k = 0; k <= d->t->length && rc == 0 && *step < 0; k++) {
        long total = 0;
        int nodes = k ? cur.v.n : 1, departs = 0;
        const mf_val *inp = inputs_at(d->t, k);
        node_set_clear(&nxt);
        for (int p = 0; p < nodes && rc == 0; p++) {
            const node *nd = k ? &cur.v.v[p] : NULL;
            int cnt, calls[2] = {1, 1}, before = departs;
            T.n = T2.n = 0;
            if (!nd) {
                rc = mut_succ(d, 0, NULL, &T2, &cnt);
                *det &= cnt <= 1;
                if (rc == 0 && cnt == 0)
                    departs = *refusal = 1;
            } else {
                const mf_val *M = node_m(&cur, nd);
                calls[1] = nd->nm;
                for (int i = 0; i < nd->nm && rc == 0; i++) {
                    rc = mut_succ(d, k, M + (size_t)i * w + nobs, &T2, &cnt);
                    *det &= cnt <= 1;
                    if (rc == 0 && cnt == 0)
                        departs = *refusal = 1;
                }
            }
            if (rc < 0 || before)
                continue; /* past the departure: only refusals count */
            if (!nd) {
                rc = orig_succ(o, inp, NULL, &T, &cnt);
                *det &= cnt <= 1;
            } else {
                const mf_val *S = node_s(&cur, nd);
                calls[0] = nd->ns;
                for (int i = 0; i < nd->ns && rc == 0; i++) {
                    rc = orig_succ(o, inp, S + (size_t)i * w + nobs, &T,
                                   &cnt);
                    *det &= cnt <= 1;
                }
            }
            if (rc < 0 || departs)
                continue; /* the original's branching counts for det */
            /* One step's rows come sorted; several need a merge. */
            if (calls[0] > 1)
                sort_rows(&T, w);
            if (calls[1] > 1)
                sort_rows(&T2, w);
            departs = split_nodes(&nxt, &T, &T2, w, nobs, &total);
        }
        if (rc == 0 && departs)
            *step = k;
        else if (rc == 0 && total > REPLAY_LIMIT)
            rc = mf_err_set(MF_ELIMIT, "more than %d states in the replay",
                            REPLAY_LIMIT);
        node_set sw = cur;
        cur = nxt;
        nxt = sw;
    }
    node_set_free(&cur);
    node_set_free(&nxt);
    MF_VEC_FREE(T);
    MF_VEC_FREE(T2);
    return rc;
}

/* ---- definite: pairs of states with equal words -------------------------- */

/* Pairs (a, b) of A x B (sorted rows) with equal observations, as rows of
 * two states, appended to *out. */
static int join(valvec *out, const valvec *A, const valvec *B, int w,
                int nobs, int n)
{
    int rows = B->n / w, lo = 0, hi = 0;
    for (int i = 0; i < rows; i++) {
        const mf_val *b = B->v + (size_t)i * w;
        if (i == 0 || memcmp(b, b - w, sizeof(mf_val) * (size_t)nobs)) {
            lo = hi;
            obs_range(A, w, nobs, b, &lo, &hi);
        }
        for (int j = lo; j < hi; j++) {
            if (out->n / (2 * (n ? n : 1)) >= REPLAY_LIMIT)
                return mf_err_set(MF_ELIMIT, "more than %d state pairs in "
                                  "the replay", REPLAY_LIMIT);
            push_vals(out, A->v + (size_t)j * w + nobs, n);
            push_vals(out, b + nobs, n);
        }
    }
    return 0;
}

/* *step: the state index at which no pair is left, -1 if some is at the
 * end of the test. */
static int definite(side *d, int *step)
{
    mf_kill_orig *o = d->o;
    int w = o->w, nobs = o->nobs, n = o->n, pw = 2 * n, rc = 0;
    valvec pairs = {0}, np = {0}, A = {0}, B = {0};

    *step = -1;
    for (int k = 0; k <= d->t->length && rc == 0; k++) {
        int npairs = k ? pairs.n / (pw ? pw : 1) : 1, cnt;
        np.n = 0;
        for (int p = 0; p < npairs && rc == 0; p++) {
            const mf_val *pr = k ? pairs.v + (size_t)p * pw : NULL;
            A.n = B.n = 0;
            if ((rc = orig_succ(o, inputs_at(d->t, k), pr, &A, &cnt)) < 0 ||
                (rc = mut_succ(d, k, pr ? pr + n : NULL, &B, &cnt)) < 0)
                break;
            rc = join(&np, &A, &B, w, nobs, n);
        }
        if (rc < 0)
            break;
        sort_rows(&np, pw);
        valvec sw = pairs;
        pairs = np;
        np = sw;
        if (pairs.n == 0) {
            *step = k;
            break;
        }
        if (n == 0)
            break; /* no state: one pair that never parts */
    }
    MF_VEC_FREE(pairs);
    MF_VEC_FREE(np);
    MF_VEC_FREE(A);
    MF_VEC_FREE(B);
    return rc;
}

int mf_kill_replay(mf_kill *out, mf_kill_orig *o,
                     const mf_test *t, mf_kill_mut *mu)
{
    side d = {0};
    int step, refusal, det, rc;

    memset(out, 0, sizeof *out);
    out->refuses = -1;
    d.o = o;
    d.t = t;
    d.mu = mu;
    rc = potential(&d, &step, &refusal, &det);
    if (rc == 0 && step >= 0) {
        out->killed = 1;
        out->step = step;
        out->refuses = refusal ? step : -1;
        out->notion = det ? MF_N_DETERMINISTIC : MF_N_POTENTIAL;
        if (!det) {
            int dstep;
            rc = definite(&d, &dstep);
            if (rc == 0 && dstep >= 0) {
                out->notion = MF_N_DEFINITE;
                out->step = dstep;
            }
        }
    }
    MF_VEC_FREE(d.tmp);
    MF_VEC_FREE(d.vals[0]);
    MF_VEC_FREE(d.vals[1]);
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        out->refuses = -1;
    }
    return rc;
}

int mf_kill_notion_rank(mf_notion n)
{
    switch (n) {
    case MF_N_DETERMINISTIC:
    case MF_N_DEFINITE: return 2;
    case MF_N_POTENTIAL: return 1;
    }
    return 0;
}
