/* bdd_search.c - the BDD engine's searches (bdd_sess.h): the pairs of
 * states with equal observables depth by depth (a shortest kill, or the
 * fixpoint that proves none), the potential search over x alone, the
 * deterministic search over the original's layers, the inclusion and
 * joint proofs, and a kill's test read back through the frontiers. It
 * opens no session and settles no verdict: bdd.c does. */
#include "bdd_sess.h"

#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "sim.h"
#include "z3util.h"

/* The bits of a cube (-1: not in it). */
static void cube_bits(BDD c, signed char *bits, int nvars)
{
    memset(bits, -1, (size_t)nvars);
    while (c != bddtrue && c != bddfalse) {
        int v = bdd_var(c);
        if (bdd_low(c) == bddfalse) {
            bits[v] = 1;
            c = bdd_high(c);
        } else {
            bits[v] = 0;
            c = bdd_low(c);
        }
    }
}

/* Row `row` of t: the shared cells' values in role r of the assignment. */
static void put_inputs(const sess *S, mf_test *t, int row,
                       const signed char *bits, int r)
{
    for (int s = 0; s < S->sp.nslots; s++)
        if (S->sp.shared[s])
            t->inputs[(size_t)row * t->nslots + s] =
                mf_bdd_blk_value(mf_bdd_blk_of(&S->sp, s, r), bits);
}

/* The image of pair set G (referenced). */
static BDD image(sess *S, mrel *R, BDD G)
{
    BDD a = bdd_addref(bdd_appex(G, S->To, bddop_and, S->sp.xc_own));
    BDD b = bdd_addref(bdd_appex(a, R->Tm, bddop_and, S->sp.cur));
    bdd_delref(a);
    BDD c = bdd_addref(bdd_replace(b, S->sp.n2c));
    bdd_delref(b);
    return c;
}

/* The test of a kill of length len: pair p (a cube over the current
 * variables) at depth d = len, or d = len - 1 with the refused input in
 * its next shared variables; G[t], the pairs of depth t with equal
 * observables. Read back depth by depth. */
static mf_test *read_test(sess *S, mrel *R, BDD *G, BDD p, int d, int len,
                          int refusal)
{
    int nv = S->sp.nvars;
    signed char *bits = mf_xmalloc((size_t)(nv ? nv : 1));
    mf_test *t = mf_test_new(S->m->nslots, mf_model_nobs(S->m), len);
    cube_bits(p, bits, nv);
    if (refusal) {
        put_inputs(S, t, len, bits, MF_BR_XN);
        t->mrefuses = len;
    }
    put_inputs(S, t, d, bits, MF_BR_XC);
    BDD cur = bdd_addref(bdd_exist(p, S->sp.next));
    for (int k = d; k > 0; k--) {
        BDD nx = bdd_addref(bdd_replace(cur, S->sp.c2n));
        BDD a = bdd_addref(bdd_appex(nx, S->To, bddop_and, S->sp.xn_own));
        BDD b = bdd_addref(bdd_appex(a, R->Tm, bddop_and, S->sp.next));
        BDD c = and2(b, G[k - 1]);
        BDD q = bdd_addref(bdd_satoneset(c, S->sp.cur, bddfalse));
        cube_bits(q, bits, nv);
        put_inputs(S, t, k - 1, bits, MF_BR_XC);
        bdd_delref(nx);
        bdd_delref(a);
        bdd_delref(b);
        bdd_delref(c);
        set(&cur, q);
    }
    bdd_delref(cur);
    free(bits);
    return t;
}

/* The full state of role r (XC or XN) in an assignment. */
static void state_of(const sess *S, const signed char *bits, int r,
                     mf_val *out)
{
    for (int s = 0; s < S->sp.nslots; s++)
        out[s] = mf_bdd_blk_value(mf_bdd_blk_of(&S->sp, s, r), bits);
}

/* The potential search's test: the mutant's path p_0..p_d (read back
 * through the common frontiers G from witness w, a cube over current and
 * next variables: p_d, the input, the mutant's deviating state), its
 * observables along it (mobs; mm NULL: none, a deterministic pair's
 * test). d < 0: a kill of length 0 by the initial
 * state w (or, refusal, its input). */
static mf_test *read_pot_test(sess *S, mrel *R, BDD *G, BDD w, int d,
                              int refusal, const mf_model *mm)
{
    int nv = S->sp.nvars, n = S->m->nslots, nobs = mf_model_nobs(S->m);
    int len = d < 0 ? 0 : d + 1;
    signed char *bits = mf_xmalloc((size_t)(nv ? nv : 1));
    mf_val *st = mf_xcalloc((size_t)(n ? n : 1), sizeof *st);
    mf_test *t = mf_test_new(n, nobs, len);
    if (mm)
        t->mobs = mf_xcalloc((size_t)(len + 1) * (size_t)(nobs ? nobs : 1),
                             sizeof *t->mobs);
    cube_bits(w, bits, nv);
    if (refusal)
        t->mrefuses = len;
    else if (mm) {
        state_of(S, bits, d < 0 ? MF_BR_XC : MF_BR_XN, st);
        mf_sim_observe(t->mobs + (size_t)len * nobs, nobs, mm, st);
    }
    if (d < 0) {
        put_inputs(S, t, 0, bits, MF_BR_XC);
        free(bits);
        free(st);
        return t;
    }
    put_inputs(S, t, len, bits, MF_BR_XN);
    BDD cur = bdd_addref(bdd_exist(w, S->sp.next));
    BDD e1n = bdd_addref(bdd_replace(R->E1, S->sp.c2n));
    for (int k = d;; k--) {
        cube_bits(cur, bits, nv);
        put_inputs(S, t, k, bits, MF_BR_XC);
        state_of(S, bits, MF_BR_XC, st);
        if (mm)
            mf_sim_observe(t->mobs + (size_t)k * nobs, nobs, mm, st);
        if (k == 0)
            break;
        BDD nx = bdd_addref(bdd_replace(cur, S->sp.c2n));
        BDD a = and2(nx, e1n);
        BDD b = bdd_addref(bdd_appex(a, S->To, bddop_and, bddtrue));
        BDD c = bdd_addref(bdd_appex(b, R->Tx, bddop_and, S->sp.next));
        BDD g = and2(c, G[k - 1]);
        BDD q = bdd_addref(bdd_satoneset(g, S->sp.cur, bddfalse));
        bdd_delref(nx);
        bdd_delref(a);
        bdd_delref(b);
        bdd_delref(c);
        bdd_delref(g);
        set(&cur, q);
    }
    bdd_delref(cur);
    bdd_delref(e1n);
    free(bits);
    free(st);
    return t;
}


/* The search of mutant j. *len: the kill's length (S_KILL, S_BEYOND) or
 * the depth the proof took (S_PROVED); *test for S_KILL. */
int mf_bdd_search(sess *S, mrel *R, const mf_batch *B, double deadline,
                  int *len, mf_test **test)
{
    int bound = B->o->bound, res = S_BUDGET, d = 0;
    MF_VEC(BDD) G = {0};
    BDD F = and2(S->Io, R->Im);
    BDD reach = bdd_addref(F);
    BDD w = bddfalse;
    int refusal = 0, wd = 0;
    /* Length 0: the mutant refuses the initial input, or shows other
     * observables in an initial pair. */
    BDD r0 = bdd_addref(bdd_apply(S->acc0, R->acc0, bddop_diff));
    if (r0 != bddfalse) {
        BDD p = bdd_addref(bdd_satoneset(r0, S->sp.cur, bddfalse));
        set(&w, p);
        refusal = 1;
        wd = -1;
    }
    bdd_delref(r0);
    /* No input the original accepts somewhere that the mutant refuses
     * somewhere (x and y apart): then no pair can show a refusal, and
     * the check per depth is skipped. */
    BDD never = bdd_addref(bdd_apply(S->acc, R->acc, bddop_diff));
    int mayref = never != bddfalse;
    bdd_delref(never);
    for (; w == bddfalse;) {
        BDD bad = bdd_addref(bdd_apply(F, R->E, bddop_diff));
        if (bad != bddfalse) {
            w = bdd_addref(bdd_satoneset(bad, S->sp.cur, bddfalse));
            wd = d;
            bdd_delref(bad);
            break;
        }
        bdd_delref(bad);
        MF_VEC_PUSH(G, and2(F, R->E));
        BDD g = G.v[G.n - 1];
        /* Length d + 1 by a refusal: the original steps, the mutant not. */
        BDD ra = and2(g, mayref ? S->acc : bddfalse);
        BDD rr = bdd_addref(bdd_apply(ra, R->acc, bddop_diff));
        bdd_delref(ra);
        if (rr != bddfalse) {
            BDD all = bdd_addref(bdd_apply(S->sp.cur, S->sp.next, bddop_and));
            w = bdd_addref(bdd_satoneset(rr, all, bddfalse));
            bdd_delref(all);
            bdd_delref(rr);
            refusal = 1;
            wd = d;
            break;
        }
        bdd_delref(rr);
        BDD img = image(S, R, g);
        set(&F, bdd_addref(bdd_apply(img, reach, bddop_diff)));
        bdd_delref(img);
        if (F == bddfalse) {
            res = S_PROVED;
            *len = d;
            break;
        }
        set(&reach, bdd_addref(bdd_or(reach, F)));
        d++;
        if (mf_bdd_err)
            break;
        if (d > bound && (mf_z3_now() > deadline || d > bound + PAST_MAX)) {
            res = S_BOUNDED;
            break;
        }
        if (d <= bound && mf_z3_now() > deadline)
            break;
    }
    if (w != bddfalse && !mf_bdd_err) {
        int L = wd < 0 ? 0 : refusal ? wd + 1 : wd;
        *len = L;
        if (L > bound)
            res = S_BEYOND;
        else {
            res = S_KILL;
            *test = read_test(S, R, G.v, w, wd < 0 ? 0 : wd, L, refusal);
        }
    }
    bdd_delref(w);
    bdd_delref(F);
    bdd_delref(reach);
    for (int i = 0; i < G.n; i++)
        bdd_delref(G.v[i]);
    MF_VEC_FREE(G);
    if (mf_bdd_err) {
        mf_test_free(*test);
        *test = NULL;
        return S_BUDGET;
    }
    return res;
}

/* The original's reachable states, counted (0 when the search runs past
 * the deadline): a lower bound of the explorer's potential product
 * nodes for a deterministic original. */
double mf_bdd_reach_count(sess *S, double deadline)
{
    BDD r = bdd_addref(S->Io), f = bdd_addref(S->Io);
    double n = 0;
    MF_VEC_PUSH(S->layer, bdd_addref(r));
    MF_VEC_PUSH(S->front, bdd_addref(r));
    while (f != bddfalse && !mf_bdd_err && mf_z3_now() < deadline) {
        BDD a = bdd_addref(bdd_appex(f, S->To, bddop_and, S->sp.cur));
        BDD b = bdd_addref(bdd_replace(a, S->sp.n2c));
        set(&f, bdd_addref(bdd_apply(b, r, bddop_diff)));
        set(&r, bdd_addref(bdd_or(r, f)));
        bdd_delref(a);
        bdd_delref(b);
        if (f != bddfalse && S->layer.n <= LAYERS_MAX) {
            MF_VEC_PUSH(S->layer, bdd_addref(r));
            MF_VEC_PUSH(S->front, bdd_addref(f));
        }
    }
    if (f == bddfalse && !mf_bdd_err) {
        BDD vars = bdd_addref(bdd_exist(S->sp.cur, S->sp.yc_own));
        n = bdd_satcountset(r, vars);
        bdd_delref(vars);
        /* Inputs: the shared next cells within their domains. */
        BDD own = bdd_addref(bdd_apply(S->sp.xn_own, S->sp.cur, bddop_and));
        BDD dom = bdd_addref(bdd_exist(S->tt[S->ni], own));
        BDD a = and2(r, dom);
        BDD stuck = bdd_addref(bdd_apply(a, S->acc, bddop_diff));
        S->enabled = stuck == bddfalse;
        bdd_delref(own);
        bdd_delref(dom);
        bdd_delref(a);
        bdd_delref(stuck);
        set(&S->reach, bdd_addref(r));
    }
    bdd_delref(r);
    bdd_delref(f);
    return n;
}

/* The potential search of a non-deterministic pair, where every cell but
 * the inputs is observable and the original steps from every reachable
 * state under every input (docs/killing.md "BDDs"): an observation then
 * names one original state, so a mutant run is an original one as long
 * as each of its steps is an original step (to a state whose observed
 * DEFINEs agree); the first step that is not, or a refusal, is a shortest
 * potential kill; no such step from the states the two share reachable
 * is the proof. Over x alone. Results as mf_bdd_search()'s. */
int mf_bdd_search_pot(sess *S, mrel *R, const mf_batch *B,
                      const mf_model *mm, double deadline, int *len,
                      mf_test **test)
{
    int bound = B->o->bound, res = S_BUDGET, d = 0, refusal = 0, wd = -1;
    MF_VEC(BDD) G = {0};
    BDD w = bddfalse;
    BDD all = bdd_addref(bdd_apply(S->sp.cur, S->sp.next, bddop_and));
    BDD acc0m = bdd_addref(bdd_exist(R->Ix, S->sp.xc_own));
    BDD r0 = bdd_addref(bdd_apply(S->acc0, acc0m, bddop_diff));
    BDD io = and2(S->Io, R->E1);
    if (r0 != bddfalse) {
        w = bdd_addref(bdd_satoneset(r0, S->sp.cur, bddfalse));
        refusal = 1;
    } else {
        BDD a = and2(R->Ix, S->acc0);
        BDD stray = bdd_addref(bdd_apply(a, io, bddop_diff));
        if (stray != bddfalse)
            w = bdd_addref(bdd_satoneset(stray, S->sp.cur, bddfalse));
        bdd_delref(a);
        bdd_delref(stray);
    }
    BDD F = and2(io, R->Ix);
    BDD reach = bdd_addref(F);
    BDD e1n = bdd_addref(bdd_replace(R->E1, S->sp.c2n));
    BDD good = and2(S->To, e1n);
    while (w == bddfalse && !mf_bdd_err) {
        MF_VEC_PUSH(G, bdd_addref(F));
        BDD ra = and2(F, S->acc);
        BDD rr = bdd_addref(bdd_apply(ra, R->accx, bddop_diff));
        if (rr != bddfalse) {
            w = bdd_addref(bdd_satoneset(rr, all, bddfalse));
            refusal = 1;
        } else {
            BDD a = and2(ra, R->Tx);
            BDD dev = bdd_addref(bdd_apply(a, good, bddop_diff));
            if (dev != bddfalse)
                w = bdd_addref(bdd_satoneset(dev, all, bddfalse));
            bdd_delref(a);
            bdd_delref(dev);
        }
        bdd_delref(ra);
        bdd_delref(rr);
        if (w != bddfalse) {
            wd = d;
            break;
        }
        BDD a = bdd_addref(bdd_appex(F, good, bddop_and, bddtrue));
        BDD b = bdd_addref(bdd_appex(a, R->Tx, bddop_and, S->sp.cur));
        BDD img = bdd_addref(bdd_replace(b, S->sp.n2c));
        bdd_delref(a);
        bdd_delref(b);
        set(&F, bdd_addref(bdd_apply(img, reach, bddop_diff)));
        bdd_delref(img);
        if (F == bddfalse) {
            res = S_PROVED;
            *len = d;
            break;
        }
        set(&reach, bdd_addref(bdd_or(reach, F)));
        d++;
        if (d > bound && (mf_z3_now() > deadline || d > bound + PAST_MAX)) {
            res = S_BOUNDED;
            break;
        }
        if (d <= bound && mf_z3_now() > deadline)
            break;
    }
    if (w != bddfalse && !mf_bdd_err) {
        int L = wd < 0 ? 0 : wd + 1;
        *len = L;
        if (L > bound)
            res = S_BEYOND;
        else {
            res = S_KILL;
            *test = read_pot_test(S, R, G.v, w, wd, refusal, mm);
        }
    }
    bdd_delref(w);
    bdd_delref(all);
    bdd_delref(acc0m);
    bdd_delref(r0);
    bdd_delref(io);
    bdd_delref(F);
    bdd_delref(reach);
    bdd_delref(e1n);
    bdd_delref(good);
    for (int i = 0; i < G.n; i++)
        bdd_delref(G.v[i]);
    MF_VEC_FREE(G);
    if (mf_bdd_err) {
        mf_test_free(*test);
        *test = NULL;
        return S_BUDGET;
    }
    return res;
}

/* The search of a deterministic pair over the original's reachable
 * states, where every cell but the inputs is observable: a pair with
 * equal observables is then one state in both, so the pairs mf_bdd_search()
 * reaches are the states both reach by the same steps. Where neither
 * relation has a choice, those are the original's states reachable
 * without passing a state from which the mutant leaves the original's
 * step (another successor, other observed DEFINEs, a refusal of an input
 * the original accepts): the first depth of the original's reachable
 * states (kept per depth, once a batch) that holds such a state gives a
 * shortest kill one step longer, none the proof, at the depth the
 * original's states take. A search costs a few conjunctions a mutant
 * instead of an image a depth (docs/killing.md "BDDs"). Results as
 * mf_bdd_search()'s; -1 where it does not apply (a kill of length 0, no layers):
 * mf_bdd_search() then runs. */
int mf_bdd_search_det(sess *S, mrel *R, const mf_batch *B, int *len,
                      mf_test **test)
{
    int nl = S->layer.n;
    if (!S->obsfix || S->reach == bddfalse || nl == 0 || nl > LAYERS_MAX)
        return -1;
    /* Length 0: an initial input the mutant refuses or starts elsewhere
     * (mf_bdd_search() reads that test). */
    BDD i = and2(R->Ix, R->E1);
    BDD bad0 = bdd_addref(bdd_apply(S->Io, i, bddop_diff));
    bdd_delref(i);
    int init_kill = bad0 != bddfalse;
    bdd_delref(bad0);
    if (init_kill || mf_bdd_err)
        return -1;
    BDD e1n = bdd_addref(bdd_replace(R->E1, S->sp.c2n));
    BDD good = and2(S->To, e1n);
    BDD all = bdd_addref(bdd_apply(S->sp.cur, S->sp.next, bddop_and));
    /* (state, input, mutant successor): the mutant refuses an input the
     * original accepts, or leaves the original's step. */
    BDD ref = bdd_addref(bdd_apply(S->acc, R->accx, bddop_diff));
    BDD tx = and2(S->acc, R->Tx);
    BDD dev = bdd_addref(bdd_apply(tx, good, bddop_diff));
    BDD leave = bdd_addref(bdd_or(ref, dev));
    BDD from = bdd_addref(bdd_exist(leave, S->sp.next));
    int res = S_PROVED, lo = 0, hi = nl - 1;
    BDD last = and2(S->layer.v[hi], from);
    if (last == bddfalse)
        *len = nl - 1;
    else {
        /* The least depth d whose states meet `from`: monotone in d. */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            BDD x = and2(S->layer.v[mid], from);
            if (x != bddfalse)
                hi = mid;
            else
                lo = mid + 1;
            bdd_delref(x);
        }
        *len = lo + 1;
        res = *len > B->o->bound ? S_BEYOND : S_KILL;
    }
    if (res == S_KILL) {
        /* Read back through the depths' new states: each has a
         * predecessor one depth up. */
        BDD at = and2(S->front.v[lo], ref);
        int refusal = at != bddfalse;
        if (!refusal)
            set(&at, and2(S->front.v[lo], dev));
        BDD w = bdd_addref(bdd_satoneset(at, all, bddfalse));
        *test = read_pot_test(S, R, S->front.v, w, lo, refusal, NULL);
        bdd_delref(at);
        bdd_delref(w);
    }
    bdd_delref(last);
    bdd_delref(e1n);
    bdd_delref(good);
    bdd_delref(all);
    bdd_delref(ref);
    bdd_delref(tx);
    bdd_delref(dev);
    bdd_delref(leave);
    bdd_delref(from);
    if (mf_bdd_err) {
        mf_test_free(*test);
        *test = NULL;
        return S_BUDGET;
    }
    return res;
}

/* 1 if every behaviour of the original is one of the mutant's, where
 * search_pot runs (every cell but the inputs observed, so a behaviour
 * names its states): the original's initial states are the mutant's, and
 * each original step from a reachable state is a mutant step, the
 * observed DEFINEs agreeing in both states. Then no test kills the mutant
 * definitely, at any length: the reversed lock-step's proof, over the
 * reachable states the session has (docs/killing.md "BDDs"). */
int mf_bdd_includes(sess *S, const mrel *R)
{
    if (S->reach == bddfalse)
        return 0;
    BDD i = and2(R->Ix, R->E1);
    BDD bad = bdd_addref(bdd_apply(S->Io, i, bddop_diff));
    int yes = bad == bddfalse;
    bdd_delref(i);
    if (yes) {
        BDD e1n = bdd_addref(bdd_replace(R->E1, S->sp.c2n));
        BDD t = and2(R->Tx, e1n);
        BDD o = and2(S->reach, S->To);
        set(&bad, bdd_addref(bdd_apply(o, t, bddop_diff)));
        yes = bad == bddfalse;
        bdd_delref(e1n);
        bdd_delref(t);
        bdd_delref(o);
    }
    bdd_delref(bad);
    return yes && !mf_bdd_err;
}

/* 1 if every test has an original and a mutant behaviour with the same
 * observations, where search_pot runs (a pair of states with one
 * observation is then one state in both, whose observed DEFINEs agree):
 * the greatest set J of the original's reachable such states from which
 * every input (within the inputs' domains) has a step of both to a state
 * of J, and an initial state of both in J for every initial input the
 * original accepts. The explorer's joint search (MF_EXPLORE_JOINT) over
 * the BDDs: then no test kills the mutant definitely, at any length
 * (docs/killing.md "BDDs"). deadline: CPU seconds (mf_bdd_cpu_now). */
int mf_bdd_joint(sess *S, const mrel *R, double deadline)
{
    if (S->reach == bddfalse)
        return 0;
    /* The inputs: the shared next cells within their domains. */
    BDD own = bdd_addref(bdd_apply(S->sp.xn_own, S->sp.cur, bddop_and));
    BDD idom = bdd_addref(bdd_exist(S->tt[S->ni], own));
    BDD inp = bdd_addref(bdd_exist(S->sp.next, S->sp.xn_own));
    BDD e1n = bdd_addref(bdd_replace(R->E1, S->sp.c2n));
    BDD a = and2(S->To, R->Tx);
    BDD c = and2(a, e1n);
    BDD J = and2(S->reach, R->E1);
    int yes = 0;
    for (;;) {
        BDD jn = bdd_addref(bdd_replace(J, S->sp.c2n));
        BDD p = bdd_addref(bdd_appex(c, jn, bddop_and, S->sp.xn_own));
        BDD q = bdd_addref(bdd_imp(idom, p));
        BDD all = bdd_addref(bdd_forall(q, inp));
        BDD nj = and2(J, all);
        int same = nj == J;
        bdd_delref(jn);
        bdd_delref(p);
        bdd_delref(q);
        bdd_delref(all);
        set(&J, nj);
        if (same || J == bddfalse || mf_bdd_err || mf_bdd_cpu_now() > deadline)
            break;
    }
    if (J != bddfalse && !mf_bdd_err && mf_bdd_cpu_now() <= deadline) {
        /* Every initial input the original accepts has a root in J. */
        BDD r = and2(S->Io, R->Ix);
        BDD r1 = and2(r, J);
        BDD roots = bdd_addref(bdd_exist(r1, S->sp.xc_own));
        BDD miss = bdd_addref(bdd_apply(S->acc0, roots, bddop_diff));
        yes = miss == bddfalse && !mf_bdd_err;
        bdd_delref(r);
        bdd_delref(r1);
        bdd_delref(roots);
        bdd_delref(miss);
    }
    bdd_delref(own);
    bdd_delref(idom);
    bdd_delref(inp);
    bdd_delref(e1n);
    bdd_delref(a);
    bdd_delref(c);
    bdd_delref(J);
    return yes;
}

/* One mutant: decided, searched to the bound, or left (0, or 1 when the
 * session is void: a BuDDy error). */
