/* bdd.c - the symbolic engine on BDDs (bdd_engine.h, docs/killing.md "BDDs"):
 * for each deterministic mutant of a batch, the pairs (original state,
 * mutant state) reachable with equal observables under shared inputs,
 * depth by depth from the initial pairs. The first depth with a pair whose
 * observables differ, or whose mutant refuses an input the original
 * accepts, is the length of a shortest kill; its test is read back through
 * the frontiers and replayed by the simulator before it counts. A depth
 * that adds no new pair ends the search: no input sequence of any length
 * kills (the proof "bdd-fixpoint"). The original's relations are built once
 * per batch (bdd_items.c); a mutant's are the original's with the conjuncts
 * of the items it changes replaced. The searches are bdd_search.c's;
 * this file opens the session and each mutant's relations and settles
 * what a search found. It decides no non-deterministic mutant and builds
 * no Z3 formula. */
#include "bdd_sess.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "sim.h"
#include "z3util.h"

/* BuDDy keeps one node table per process: one batch at a time uses it. */
static pthread_mutex_t bdd_lock = PTHREAD_MUTEX_INITIALIZER;

/* Nodes of the table at most (about 20 bytes each, with the caches). */
#define NODES_MAX (6 << 20)
/* Nodes the original's relations may take to build, under auto. */
#define NODES_AUTO (1 << 20)
/* The original's transition relation past this many nodes: the model is
 * left to the other methods (portfolio.c measures this). */
#define TREL_MAX (1 << 20)
/* The relations' functionality is checked (for a model not
 * deterministic in form) up to this many nodes: the check doubles the
 * next state. */
#define FUNC_MAX 50000
/* The explorer's product nodes "small products" are measured against
 * where its limit is a memory budget (its old fixed count). */
#define EXPLORER_REF 20000

static void on_error(int e)
{
    mf_bdd_err = e;
}

/* pre[k] = c[0] & ... & c[k-1], suf[k] = c[k] & ... & c[n-1] (n + 1
 * entries each). */
static void prefixes(const BDD *c, int n, BDD **pre, BDD **suf)
{
    *pre = mf_xcalloc((size_t)n + 2, sizeof **pre);
    *suf = mf_xcalloc((size_t)n + 2, sizeof **suf);
    (*pre)[0] = bdd_addref(bddtrue);
    for (int k = 0; k < n; k++)
        (*pre)[k + 1] = and2((*pre)[k], c[k]);
    (*suf)[n] = bdd_addref(bddtrue);
    (*suf)[n + 1] = bdd_addref(bddtrue);
    for (int k = n - 1; k >= 0; k--)
        (*suf)[k] = and2(c[k], (*suf)[k + 1]);
}

static BDD *conj_new(int n)
{
    BDD *c = mf_xcalloc((size_t)n, sizeof *c);
    for (int i = 0; i < n; i++)
        c[i] = bddtrue;
    return c;
}

static void conj_free(BDD *c, int n)
{
    if (!c)
        return;
    for (int i = 0; i < n; i++)
        bdd_delref(c[i]);
    free(c);
}

static void sess_free(sess *S)
{
    int n = S->ni + 1;
    conj_free(S->ti, n);
    conj_free(S->tt, n);
    conj_free(S->ipre, n + 1);
    conj_free(S->isuf, n + 1);
    conj_free(S->tpre, n + 1);
    conj_free(S->tsuf, n + 1);
    if (S->obs) {
        for (int i = 0; i < S->m->nobs_defines; i++)
            mf_vmap_free(&S->obs[i]);
        free(S->obs);
    }
    bdd_delref(S->To);
    bdd_delref(S->Io);
    bdd_delref(S->acc);
    bdd_delref(S->acc0);
    bdd_delref(S->obs_eq);
    bdd_delref(S->reach);
    for (int i = 0; i < S->layer.n; i++) {
        bdd_delref(S->layer.v[i]);
        bdd_delref(S->front.v[i]);
    }
    MF_VEC_FREE(S->layer);
    MF_VEC_FREE(S->front);
    mf_bdd_memo_free(S->m, S->memo);
    mf_bdd_space_free(&S->sp);
}

static int functional(sess *S, BDD r, int init);

/* The original's relations, their compilation within `secs`. 0, or a
 * negative code with the message. */
static int sess_open(sess *S, const mf_model *m, double secs)
{
    memset(S, 0, sizeof *S);
    S->m = m;
    S->ni = m->nitems;
    int rc = mf_bdd_space_init(&S->sp, m);
    if (rc < 0)
        return rc;
    S->sp.deadline = mf_bdd_cpu_now() + secs;
    S->memo = mf_bdd_memo_new(m);
    S->ti = conj_new(S->ni + 1);
    S->tt = conj_new(S->ni + 1);
    if ((rc = mf_bdd_items(&S->sp, m, 1, NULL, S->memo, S->ti)) < 0 ||
        (rc = mf_bdd_items(&S->sp, m, 0, NULL, S->memo, S->tt)) < 0)
        return rc;
    if (mf_bdd_err)
        return mf_err_set(MF_ELIMIT, "BDDs: %s", bdd_errstring(mf_bdd_err));
    prefixes(S->ti, S->ni + 1, &S->ipre, &S->isuf);
    prefixes(S->tt, S->ni + 1, &S->tpre, &S->tsuf);
    S->Io = bdd_addref(S->ipre[S->ni + 1]);
    S->To = bdd_addref(S->tpre[S->ni + 1]);
    S->det = mf_model_structurally_det(m) ||
             (bdd_nodecount(S->To) <= FUNC_MAX && functional(S, S->Io, 1) &&
              functional(S, S->To, 0));
    S->obsfix = 1;
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].decl != MF_DECL_IVAR && !m->vars[i].is_input &&
            !m->vars[i].is_observable)
            S->obsfix = 0;
    S->acc = bdd_addref(bdd_exist(S->To, S->sp.xn_own));
    S->acc0 = bdd_addref(bdd_exist(S->Io, S->sp.xc_own));
    S->obs = mf_xcalloc((size_t)(m->nobs_defines ? m->nobs_defines : 1),
                        sizeof *S->obs);
    if ((rc = mf_bdd_obs_defines(&S->sp, m, S->memo, S->obs)) < 0)
        return rc;
    S->obs_eq = bdd_addref(bddtrue);
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!v->is_observable)
            continue;
        for (int k = 0; k < v->nslots; k++) {
            int s = v->slot + k;
            if (S->sp.shared[s])
                continue;
            const mf_bdd_blk *a = mf_bdd_blk_of(&S->sp, s, MF_BR_XC);
            const mf_bdd_blk *b = mf_bdd_blk_of(&S->sp, s, MF_BR_YC);
            for (int q = 0; q < a->nbits; q++)
                set(&S->obs_eq,
                    and2(S->obs_eq, bdd_biimp(bdd_ithvar(a->var[q]),
                                              bdd_ithvar(b->var[q]))));
        }
    }
    if (mf_bdd_err)
        return mf_err_set(MF_ELIMIT, "BDDs: %s", bdd_errstring(mf_bdd_err));
    return 0;
}

/* 1 if e reads DEFINE d, directly or through other DEFINEs. */
static int reads_define(const mf_model *m, const mf_expr *e, int d,
                        int depth)
{
    if (depth > 512)
        return 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return e->ref == d || reads_define(m, m->items[e->ref].e, d, depth + 1);
    for (int i = 0; i < e->nkids; i++)
        if (reads_define(m, e->kids[i], d, depth))
            return 1;
    return 0;
}

/* 1 if the relation r over x has at most one own state for each value
 * of the rest: the step (init 0) or the initial states. */
static int functional(sess *S, BDD r, int init)
{
    BDD r2 = bdd_addref(bdd_replace(r, init ? S->sp.xc2yc : S->sp.xn2yn));
    BDD both = and2(r, r2);
    BDD two = bdd_addref(
        bdd_apply(both, init ? S->sp.eq_c : S->sp.eq_n, bddop_diff));
    int f = two == bddfalse;
    bdd_delref(r2);
    bdd_delref(both);
    bdd_delref(two);
    return f;
}


static void mrel_free(mrel *R)
{
    bdd_delref(R->Tm);
    bdd_delref(R->Im);
    bdd_delref(R->acc);
    bdd_delref(R->acc0);
    bdd_delref(R->E);
    bdd_delref(R->Tx);
    bdd_delref(R->Ix);
    bdd_delref(R->accx);
    bdd_delref(R->E1);
    memset(R, 0, sizeof *R);
}

/* The conjunction of c with the entries aff[] replaced by r[] (pre/suf:
 * c's prefixes), referenced. */
static BDD replaced(const BDD *c, const BDD *pre, const BDD *suf, int n,
                    const unsigned char *aff, const BDD *r)
{
    int first = -1, count = 0;
    for (int i = 0; i < n; i++)
        if (aff[i]) {
            count++;
            if (first < 0)
                first = i;
        }
    if (count == 0)
        return bdd_addref(pre[n]);
    if (count == 1) {
        BDD a = and2(pre[first], r[first]);
        BDD b = and2(a, suf[first + 1]);
        bdd_delref(a);
        return b;
    }
    BDD acc = bdd_addref(bddtrue);
    for (int i = 0; i < n; i++)
        set(&acc, and2(acc, aff[i] ? r[i] : c[i]));
    return acc;
}

/* The states where an observed DEFINE has no value in the original (o,
 * x side) and none in the mutant (m, x side, renamed to y). Referenced. */
static BDD undefined_both(sess *S, const mf_vmap *o, const mf_vmap *m)
{
    BDD dox = bdd_addref(bddfalse), dmx = bdd_addref(bddfalse);
    for (int a = 0; a < o->n; a++)
        set(&dox, bdd_addref(bdd_or(dox, o->c[a])));
    for (int b = 0; b < m->n; b++)
        set(&dmx, bdd_addref(bdd_or(dmx, m->c[b])));
    BDD dmy = bdd_addref(bdd_replace(dmx, S->sp.x2y));
    BDD r = bdd_addref(bdd_apply(dox, dmy, bddop_nor));
    bdd_delref(dox);
    bdd_delref(dmx);
    bdd_delref(dmy);
    return r;
}

/* Mutant j's relations. 0, or a negative code (then R is freed). */
static int mrel_open(sess *S, mrel *R, const mf_batch_mut *mu)
{
    const mf_model *m = S->m, *mm = mu->model;
    int k = mu->mut->item, n = S->ni, rc = 0;
    memset(R, 0, sizeof *R);
    if (k < 0) /* another model (--against): not one item changed */
        return mf_err_set(MF_EUNSUPPORTED, "BDDs: mutants of one item only");
    S->sp.ops = 0; /* the work budget is per compilation */
    unsigned char *aff = mf_xcalloc((size_t)n + 1, 1);
    unsigned char *oaff =
        mf_xcalloc((size_t)(m->nobs_defines ? m->nobs_defines : 1), 1);
    BDD *ri = conj_new(n + 1), *rt = conj_new(n + 1);
    mf_vmap *memo = S->memo, *own = NULL, *mobs = NULL;
    int isdef = k >= 0 && m->items[k].kind == MF_IT_DEFINE;
    if (isdef) {
        /* The DEFINE's readers change with it: compiled again in the
         * mutant, with DEFINEs of its own. */
        own = memo = mf_bdd_memo_new(mm);
        for (int i = 0; i < n; i++)
            aff[i] = m->items[i].kind != MF_IT_DEFINE &&
                     reads_define(m, m->items[i].e, k, 0);
        for (int i = 0; i < m->nobs_defines; i++)
            oaff[i] = m->obs_defines[i] == k ||
                      reads_define(m, m->items[m->obs_defines[i]].e, k, 0);
    } else if (k >= 0)
        aff[k] = 1;
    if (k >= 0 && !mu->mut->repl) {
        /* Removed: its conjuncts become true (the mutated model's items
         * are renumbered, so nothing is compiled from it). */
    } else if ((rc = mf_bdd_items(&S->sp, mm, 1, aff, memo, ri)) < 0 ||
               (rc = mf_bdd_items(&S->sp, mm, 0, aff, memo, rt)) < 0)
        goto cleanup;
    BDD ix = replaced(S->ti, S->ipre, S->isuf, n + 1, aff, ri);
    BDD tx = replaced(S->tt, S->tpre, S->tsuf, n + 1, aff, rt);
    R->det = mu->v->mut_det ||
             (bdd_nodecount(tx) <= FUNC_MAX && functional(S, ix, 1) &&
              functional(S, tx, 0));
    R->Im = bdd_addref(bdd_replace(ix, S->sp.x2y));
    R->Tm = bdd_addref(bdd_replace(tx, S->sp.x2y));
    R->Ix = ix;
    R->Tx = tx;
    R->accx = bdd_addref(bdd_exist(tx, S->sp.xn_own));
    R->acc = bdd_addref(bdd_exist(R->Tm, S->sp.yn_own));
    R->acc0 = bdd_addref(bdd_exist(R->Im, S->sp.yc_own));
    R->E = bdd_addref(S->obs_eq);
    if (m->nobs_defines) {
        mobs = mf_xcalloc((size_t)m->nobs_defines, sizeof *mobs);
        if (isdef && (rc = mf_bdd_obs_defines(&S->sp, mm, memo, mobs)) < 0)
            goto cleanup;
        for (int i = 0; i < m->nobs_defines; i++) {
            const mf_vmap *mx = oaff[i] ? &mobs[i] : &S->obs[i];
            BDD eq = bdd_addref(bddfalse);
            for (int a = 0; a < S->obs[i].n; a++)
                for (int b = 0; b < mx->n; b++)
                    if (S->obs[i].v[a] == mx->v[b]) {
                        BDD y = bdd_addref(bdd_replace(mx->c[b], S->sp.x2y));
                        BDD t = and2(S->obs[i].c[a], y);
                        set(&eq, bdd_addref(bdd_or(eq, t)));
                        bdd_delref(t);
                        bdd_delref(y);
                    }
            /* Undefined in both: equal, undefined being a value of its
             * own (docs/semantics.md, Undefined observables). */
            BDD ud = undefined_both(S, &S->obs[i], mx);
            set(&eq, bdd_addref(bdd_or(eq, ud)));
            bdd_delref(ud);
            set(&R->E, and2(R->E, eq));
            bdd_delref(eq);
        }
    }
    /* E with y = x: the observed DEFINEs of one state. */
    R->E1 = bdd_addref(bdd_appex(R->E, S->sp.eq_c, bddop_and, S->sp.yc_own));
cleanup:
    if (mobs) {
        for (int i = 0; i < m->nobs_defines; i++)
            mf_vmap_free(&mobs[i]);
        free(mobs);
    }
    mf_bdd_memo_free(mm, own);
    conj_free(ri, n + 1);
    conj_free(rt, n + 1);
    free(aff);
    free(oaff);
    if (rc == 0 && mf_bdd_err)
        rc = mf_err_set(MF_ELIMIT, "BDDs: %s", bdd_errstring(mf_bdd_err));
    if (rc < 0)
        mrel_free(R);
    return rc;
}

static int decide(sess *S, mf_batch *B, int j, int *which, double secs,
                  mf_bdd_stats *st)
{
    mrel R;
    if (mrel_open(S, &R, &B->mu[j]) < 0) {
        st->left++;
        return mf_bdd_err != 0;
    }
    /* Deterministic in fact though not in form (an input VAR's set of
     * next values): a shortest kill is a definite one, no potential kill
     * can be shorter, and the fixpoint proves the potential notion too. */
    mf_verdict *v = B->mu[j].v;
    mf_notion nn = v->orig_det && v->mut_det ? MF_N_DETERMINISTIC
                                             : MF_N_DEFINITE;
    int pot = 0;
    if (!R.det || !S->det ||
        (nn != MF_N_DETERMINISTIC && B->o->notion == MF_REQ_POTENTIAL)) {
        /* The potential search where it is exact; the definite upgrade
         * of its kills is the other methods'. */
        if (!S->obsfix || !S->enabled || !S->pot ||
            B->o->notion == MF_REQ_DEFINITE) {
            mrel_free(&R);
            st->left++;
            return mf_bdd_err != 0;
        }
        pot = 1;
        nn = MF_N_POTENTIAL;
    }
    int len = 0;
    mf_test *t = NULL;
    int res = pot ? mf_bdd_search_pot(S, &R, B, B->mu[j].model, mf_z3_now() + secs,
                               &len, &t)
                  : mf_bdd_search_det(S, &R, B, &len, &t);
    if (res < 0)
        res = mf_bdd_search(S, &R, B, mf_z3_now() + secs, &len, &t);
    /* A potential kill with no definite upgrade possible: the definite
     * methods (the explorer's inclusion, lock-step, the refinement) would
     * only find that out, at seconds a mutant (the SCR-style
     * controller's assign-remove mutants). */
    int incl = 0;
    if (pot && res == S_KILL && B->o->notion == MF_REQ_AUTO)
        incl = mf_bdd_includes(S, &R)                              ? 1
               : mf_bdd_joint(S, &R, mf_bdd_cpu_now() + secs) ? 2
                                                       : 0;
    mrel_free(&R);
    switch (res) {
    case S_KILL:
        /* The simulator is the referee: a test it does not confirm is
         * left to the other methods. */
        if (mf_replay_fill_expect(B->m, t) != 0 ||
            mf_engine_replay(B->m, B->mu[j].model, t, nn) != 0) {
            mf_test_free(t);
            st->left++;
            break;
        }
        mf_batch_settle(B, j, MF_V_KILLED, nn, t, NULL);
        B->mu[j].killed_at = len;
        B->mu[j].searched = pot ? MF_SEARCHED_POTENTIAL : MF_SEARCHED_DEFINITE;
        /* Exact, as the explorer's: its definite exploration may follow
         * (explicit.c mf_explicit_no_definite). */
        B->mu[j].xlen = len;
        B->mu[j].xref = t->mrefuses >= 0;
        if (incl) {
            snprintf(v->method, sizeof v->method, "no definite kill: %s",
                     incl == 1 ? "the mutant has every original behaviour"
                               : "a common behaviour for every test");
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            B->mu[j].xdlen = MF_XD_NONE;
        }
        which[j] = 0;
        st->killed++;
        break;
    case S_PROVED:
        mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL,
                        "bdd-fixpoint (%d steps)", len);
        which[j] = 0;
        st->proved++;
        break;
    case S_BEYOND:
        if (B->o->complete) {
            /* --bound auto: a kill of any length is a kill; the explorer
             * makes its test (explicit.c). Searched to the bound. */
            v->bound = B->o->bound;
            which[j] = 0;
            st->bounded++;
            break;
        }
        mf_batch_settle(B, j, MF_V_SURVIVED, 0, NULL,
                        "bdd-fixpoint: shortest kill %d", len);
        v->bound = B->o->bound;
        v->kill_len_beyond = len; /* exact, as the explorer's */
        which[j] = 0;
        st->bounded++;
        break;
    case S_BOUNDED:
        v->bound = B->o->bound;
        which[j] = 0;
        st->bounded++;
        break;
    default:
        st->left++;
        break;
    }
    return mf_bdd_err != 0;
}

/* The initial node table and caches: large where the states are (the
 * SCR-style controller, 19 bits: 65536 -> 262144 cache entries took its
 * 330 mutants from 4.7 to 1.1 s CPU), small where a batch would spend
 * more on clearing them than on its searches. */
static int table_size(const mf_model *m)
{
    int bits = 0;
    for (int i = 0; i < m->nvars; i++) {
        mf_val *vals = NULL;
        int n = 0;
        if (mf_type_domain(mf_type_scalar(m->vars[i].type), &vals, &n) == 0)
            for (; n > 1; n = (n + 1) / 2)
                bits += m->vars[i].nslots;
        free(vals);
    }
    return bits >= 16 ? 1 << 18 : 1 << 15;
}

/* The last batch's session, kept for the next batch of the same model
 * (same canonical print, inputs and observables): a farm worker gets a
 * job per model item, often of a single mutant, and the original's
 * relations and reachable states were most of such a job's BDD work.
 * BuDDy stays initialised in between; a session that met a BuDDy error,
 * or whose table grew past CACHE_NODES, is dropped. A build that failed
 * is remembered without its BDDs (each job would pay its budget again),
 * except for a forced run after an auto one (a larger budget). Under
 * bdd_lock. */
#define CACHE_NODES (2 << 20)
static struct {
    mf_model *m; /* the session's model: a copy, owned */
    sess S;
    int live;     /* BuDDy is initialised, S built */
    double reach; /* reach_count's answer */
    int rc;       /* sess_open's */
    int forced;   /* built with the forced budget */
    char why[160];
} cache;

static int same_model(const mf_model *a, const mf_model *b)
{
    if (strcmp(a->hash, b->hash) || a->nvars != b->nvars ||
        a->nitems != b->nitems || a->nobs_defines != b->nobs_defines)
        return 0;
    for (int i = 0; i < a->nvars; i++)
        if (a->vars[i].decl != b->vars[i].decl ||
            a->vars[i].is_input != b->vars[i].is_input ||
            a->vars[i].is_observable != b->vars[i].is_observable)
            return 0;
    for (int i = 0; i < a->nobs_defines; i++)
        if (a->obs_defines[i] != b->obs_defines[i])
            return 0;
    return 1;
}

static void cache_drop_bdds(void)
{
    if (!cache.live)
        return;
    sess_free(&cache.S);
    bdd_done();
    bdd_clear_error();
    cache.live = 0;
}

static void cache_drop(void)
{
    cache_drop_bdds();
    mf_model_free(cache.m);
    memset(&cache, 0, sizeof cache);
}

/* The session of m in the cache, built if it is not there: 0, or the
 * negative code of its build (the message in cache.why). */
static int cache_open(const mf_model *m, double secs, long tmax, int forced)
{
    if (cache.m && same_model(cache.m, m) &&
        (cache.rc == 0 || cache.forced >= forced))
        return cache.rc;
    cache_drop();
    cache.forced = forced;
    /* A copy (item 0 replaced by itself): the caller's model goes with its
     * job. */
    if (m->nitems == 0 ||
        mf_model_replace_item(&cache.m, m, 0, &m->items[0]) < 0) {
        snprintf(cache.why, sizeof cache.why, "BDDs: no items");
        return cache.rc = MF_EUNSUPPORTED;
    }
    mf_bdd_err = 0;
    cache.live = 1;
    bdd_init(table_size(m), table_size(m));
    /* bdd_done frees a table twice when no variable was ever declared. */
    bdd_setvarnum(1);
    bdd_error_hook(on_error);
    bdd_gbc_hook(NULL);
    bdd_resize_hook(NULL);
    bdd_setmaxincrease(1 << 20);
    /* The original's relations within a node and time budget (auto: 1M
     * nodes and a fifth of a mutant's BDD budget: bubblesort's TRANS fill
     * millions of nodes, dme1's relation takes seconds), the searches
     * within the whole table. */
    bdd_setmaxnodenum(tmax < TREL_MAX ? NODES_AUTO : NODES_MAX);
    sess *S = &cache.S;
    int rc = sess_open(S, cache.m, tmax < TREL_MAX ? secs / 5 : secs);
    bdd_setmaxnodenum(NODES_MAX);
    S->sp.deadline = 0; /* a mutant's items: its search's budget */
    if (rc == 0)
        cache.reach = mf_bdd_reach_count(S, mf_z3_now() + secs);
    if (rc < 0) {
        snprintf(cache.why, sizeof cache.why, "%s", mf_err_msg());
        cache_drop_bdds();
    }
    return cache.rc = rc;
}

void mf_bdd_run(mf_batch *B, int *which, double secs, long tmax,
                mf_bdd_stats *st)
{
    int forced = tmax <= 0;
    if (tmax <= 0 || tmax > TREL_MAX)
        tmax = TREL_MAX;
    memset(st, 0, sizeof *st);
    int any = 0;
    for (int j = 0; j < B->nmut; j++)
        any |= which[j] && B->mu[j].todo;
    if (!any)
        return;
    pthread_mutex_lock(&bdd_lock);
    int rc = cache_open(B->m, secs, tmax, forced);
    sess *S = &cache.S;
    if (rc == 0) {
        st->tnodes = bdd_nodecount(S->To);
        st->bits = S->sp.bits;
        double r = cache.reach;
        if (S->det)
            st->reach = r;
        /* Small products are the explorer's: its exploration of a mutant
         * costs less than a BDD search (HyperQB's bakery, 167 states: 0.2
         * against 1.4 ms a mutant). */
        long xmax = B->o->prove ? B->o->explicit_max : 0;
        /* Under the explorer's memory budget (explicit_max < 0), against
         * its old fixed count: a product of a few hundred states. */
        double xref = xmax < 0 ? (double)EXPLORER_REF : (double)xmax;
        S->pot = forced || xmax == 0 || r <= 0 || r * 20 > xref;
        if (st->tnodes > tmax)
            rc = mf_err_set(MF_ELIMIT, "BDDs: transition relation of %ld "
                                       "nodes",
                            st->tnodes);
    }
    if (rc < 0)
        snprintf(st->why, sizeof st->why, "%s",
                 cache.rc < 0 ? cache.why : mf_err_msg());
    else
        st->built = 1;
    for (int j = 0; j < B->nmut && rc == 0; j++) {
        if (!which[j] || !B->mu[j].todo)
            continue;
        if (!S->det && !(S->obsfix && S->enabled && S->pot) &&
            !(B->mu[j].v->orig_det && B->mu[j].v->mut_det)) {
            st->left++; /* no search of this original would be exact */
            continue;
        }
        if (decide(S, B, j, which, secs, st)) {
            snprintf(st->why, sizeof st->why, "BDDs: %s",
                     bdd_errstring(mf_bdd_err));
            for (int q = j + 1; q < B->nmut; q++)
                st->left += which[q] && B->mu[q].todo;
            break;
        }
    }
    if (!st->built)
        for (int j = 0; j < B->nmut; j++)
            st->left += which[j] && B->mu[j].todo;
    if (cache.live && (mf_bdd_err || bdd_getallocnum() > CACHE_NODES))
        cache_drop();
    pthread_mutex_unlock(&bdd_lock);
}
