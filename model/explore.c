/* explore.c - exact killability by explicit-state breadth-first search over
 * the product of original and mutant, with subset construction for
 * non-determinism (definitions in explore.h).
 *
 * Everything is interned as arrays of int64: states (per model), observation
 * vectors (shared by both models, so an observation is one int), sets of
 * states (sorted state ids), product nodes. Successors are computed once per
 * (state, input) with the simulator and memoised; so is the step of a set
 * under an input (its union of successors, whether some member refuses, and
 * the successors partitioned by observation). This file is the searches
 * and the context; the interning, the states and the steps are
 * explore_state.c's, the mutant's steps through the original's
 * explore_delta.c's (explore_int.h). It knows nothing of Z3: it is the
 * engine's explicit-state proof and the ground truth the engine is tested
 * against (tests/test_agree.c). */
#include "explore_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_MAX_STATES 100000L
/* Work units (set steps, simulator calls weigh more) per product node. */
#define WORK_PER_NODE 60L

/* ------------------------------------------------------------------ */
/* Breadth-first search                                                 */

typedef struct {
    ktab nodes;
    intvec parent, input, depth;
} bfs;

static void bfs_free(bfs *b)
{
    mf_xp_ktab_free(&b->nodes);
    MF_VEC_FREE(b->parent);
    MF_VEC_FREE(b->input);
    MF_VEC_FREE(b->depth);
}

/* Add a node; 1 if new, 0 if seen, MF_ELIMIT past max. */
static int bfs_add(explorer *x, bfs *b, const int64_t *key, int len,
                   int parent, int input, long max)
{
    int is_new;
    mf_xp_ktab_intern(&b->nodes, key, len, &is_new);
    if (!is_new)
        return 0;
    MF_VEC_PUSH(b->parent, parent);
    MF_VEC_PUSH(b->input, input);
    MF_VEC_PUSH(b->depth, parent < 0 ? 0 : b->depth.v[parent] + 1);
    if (b->nodes.n > max)
        return mf_xp_fail(x, MF_ELIMIT, "more product states than the limit");
    if (b->nodes.n % BUDGET_EVERY == 0 && (x->max_bytes || x->deadline)) {
        size_t held = mf_xp_side_bytes(&x->s[0]) + mf_xp_side_bytes(&x->s[1]) +
                      mf_xp_ktab_bytes(&x->obs) + mf_xp_ktab_bytes(&b->nodes) +
                      VEC_BYTES(b->parent) + VEC_BYTES(b->input) +
                      VEC_BYTES(b->depth);
        if (x->max_bytes && held > x->max_bytes)
            return mf_xp_fail(x, MF_ELIMIT, "past the memory budget");
        if (x->deadline && mf_xp_now() > x->deadline)
            return mf_xp_fail(x, MF_ELIMIT, "past the time budget");
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
        int set = (int)mf_xp_ktab_get(&b->nodes, v, NULL)[2];
        int member = (int)mf_xp_ktab_get(&P->sets, set, NULL)[0];
        int n;
        const int64_t *o = mf_xp_ktab_get(&x->obs, P->obs.v[member], &n);
        memcpy(w + (size_t)b->depth.v[v] * no, o, (size_t)n * sizeof *w);
    }
    if (kobs >= 0) {
        int n;
        const int64_t *o = mf_xp_ktab_get(&x->obs, kobs, &n);
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
        return mf_xp_fail(x, MF_ELIMIT, "work limit reached");
    if (x->deadline && (x->work & 4095) == 0 && mf_xp_now() > x->deadline)
        return mf_xp_fail(x, MF_ELIMIT, "past the time budget");
    return 0;
}

/* Append to *todo the states of ids[0..n) not in *seen yet. */
static void push_unseen(intvec *todo, ktab *seen, const int *ids, int n)
{
    for (int j = 0; j < n; j++) {
        int64_t k = ids[j];
        int is_new;
        mf_xp_ktab_intern(seen, &k, 1, &is_new);
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
        if ((rc = mf_xp_state_succ(x, M, -1, i0, &ids, &n)) < 0)
            break;
        rc = 1;
        push_unseen(&todo, &seen, ids, n);
    }
    for (int t = 0; t < todo.n && rc == 1; t++) {
        if (seen.n > max_states || x->work > x->max_work / 2 ||
            (t % BUDGET_EVERY == 0 && x->max_bytes &&
             mf_xp_side_bytes(M) + mf_xp_ktab_bytes(&seen) > x->max_bytes / 2)) {
            rc = 0;
            break;
        }
        for (int i = 0; i < x->ninp && rc == 1; i++) {
            const int *ids;
            int n;
            x->work++;
            if ((rc = mf_xp_state_succ(x, M, todo.v[t], i, &ids, &n)) < 0)
                break;
            rc = n > 0;
            push_unseen(&todo, &seen, ids, n);
        }
    }
    MF_VEC_FREE(todo);
    mf_xp_ktab_free(&seen);
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
    int rc = mf_xp_fail(x, MF_ELIMIT, "depth limit reached");
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
    /* A refusal kills only where no original state with the same word
     * refuses too: "the word, then a refusal" is then no original
     * behaviour (the simulator's replay asks the same). */
    int killed = rp->anyref && !rm->anyref, a = 0, kobs = -1;
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
    nt->refusal = kobs < 0;
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
                int id = mf_xp_ktab_intern(&pairs, k2, 2, NULL);                     \
                MF_VEC_PUSH(out, id);                                          \
            }
    for (int i0 = 0; i0 < x->ninit && rc >= 0; i0++) {
        const int *ia, *ib;
        int na, nb;
        MF_VEC_PUSH(rootoff, roots.n);
        if ((rc = mf_xp_state_succ(x, M, -1, i0, &ia, &na)) < 0)
            break;
        if (na == 0) {
            MF_VEC_PUSH(rootoff, -1); /* not a valid test: no root needed */
            continue;
        }
        /* state_succ's ids may move when P's are computed: copy. */
        intvec ca = {0};
        for (int u = 0; u < na; u++)
            MF_VEC_PUSH(ca, ia[u]);
        if ((rc = mf_xp_state_succ(x, P, -1, i0, &ib, &nb)) < 0) {
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
            rc = mf_xp_fail(x, MF_ELIMIT, "more product states than the limit");
            break;
        }
        const int64_t *k = mf_xp_ktab_get(&pairs, p, NULL);
        int s0 = (int)k[0], s1 = (int)k[1];
        for (int i = 0; i < x->ninp && rc >= 0; i++) {
            const int *ia, *ib;
            int na, nb;
            if ((rc = check_work(x)) < 0)
                break;
            if ((rc = mf_xp_state_succ(x, M, s0, i, &ia, &na)) < 0)
                break;
            ca.n = 0;
            for (int u = 0; u < na; u++)
                MF_VEC_PUSH(ca, ia[u]);
            if ((rc = mf_xp_state_succ(x, P, s1, i, &ib, &nb)) < 0)
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
    mf_xp_ktab_free(&pairs);
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
    int shared_ref;  /* definite: a pair of the step where both refuse */
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
        const step_rec *rm = REC(&x->s[0], km), *rp = REC(&x->s[1], kp);
        /* Both refuse after one word: a behaviour of both, on this test
         * and every longer one. */
        if (rm->anyref && rp->anyref)
            s->shared_ref = 1;
        match_parts(x, rm, rp, &s->ps);
        return 0;
    }
    if (s->definite == 2)
        return included_step(x, &s->b, s->nt, R, km, kp, node, inp,
                             s->max_states, rc);
    return potential_step(x, &s->b, s->nt, R, km, kp, node, inp,
                          s->max_states, rc);
}

/* The end of a step after all its pairs: the definite search's child or
 * kill; neither where both models refused after one word (no test
 * through that step kills definitely). Returns as potential_step. */
static int step_end(search *s, int R, int node, int inp, int *rc)
{
    if (s->definite != 1 || s->shared_ref)
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
        int km = mf_xp_set_step(x, M, -1, i0);
        if (km < 0) { rc = km; goto out; }
        if (REC(M, km)->rset < 0)
            continue; /* the original refuses this initial input */
        int kp = mf_xp_set_step(x, P, -1, i0);
        if (kp < 0) { rc = kp; goto out; }
        int R = x->enabled || definite == 2 ? ALL_R : REC(M, km)->rset;
        s.ps.n = 0;
        s.shared_ref = 0;
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
        const int64_t *nk = mf_xp_ktab_get(&s.b.nodes, node, &len);
        cur.n = 0;
        for (int i = 0; i < len; i++)
            MF_VEC_PUSH(cur, nk[i]);
        for (int i = 0; i < x->ninp; i++) {
            if ((rc = check_work(x)) < 0)
                goto out;
            int R2 = ALL_R;
            if (cur.v[0] != ALL_R) {
                int kr = mf_xp_set_step(x, M, (int)cur.v[0], i);
                if (kr < 0) { rc = kr; goto out; }
                if ((R2 = REC(M, kr)->rset) < 0)
                    continue; /* the original refuses i: not a test */
            }
            s.ps.n = 0;
            s.shared_ref = 0;
            for (int j = 1; j + 1 < cur.n; j += 2) {
                int km = mf_xp_set_step(x, M, (int)cur.v[j], i);
                if (km < 0) { rc = km; goto out; }
                int kp = mf_xp_set_step(x, P, (int)cur.v[j + 1], i);
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
    mf_xp_ktab_free(&d->states);
    MF_VEC_FREE(d->obs);
    mf_xp_ktab_free(&d->succ_keys);
    MF_VEC_FREE(d->succ);
    MF_VEC_FREE(d->succ_pool);
    mf_xp_ktab_free(&d->sets);
    mf_xp_ktab_free(&d->step_keys);
    MF_VEC_FREE(d->steps);
    MF_VEC_FREE(d->part_pool);
    MF_VEC_FREE(d->acc_off);
    MF_VEC_FREE(d->acc_pool);
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
    x->acc_use = -1;
    int rc;
    if ((rc = mf_xp_input_product(x, orig, 0, &x->inits, &x->ninit)) < 0 ||
        (rc = mf_xp_input_product(x, orig, 1, &x->inps, &x->ninp)) < 0) {
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
    x->deadline = secs > 0 ? mf_xp_now() + secs : 0;
}

void mf_explore_ctx_free(mf_explore_ctx *x)
{
    if (!x)
        return;
    side_free(&x->s[0]);
    side_free(&x->s[1]);
    mf_xp_ktab_free(&x->obs);
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
    MF_VEC_FREE(x->incells);
    mf_xp_ktab_free(&x->inrows);
    MF_VEC_FREE(x->accbuf);
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
                            : mf_xp_delta_mode(x->s[0].m, mut, &x->ditem);
    x->nsim = x->ndelta = 0;
    x->err = 0;
    x->msg[0] = 0;
    x->work = 0;
    x->max_work = WORK_PER_NODE * max_states;

    if (x->init_rc < 0) {
        rc = mf_xp_fail(x, x->init_rc, x->init_msg);
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
