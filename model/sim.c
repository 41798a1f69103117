/* sim.c - the simulator: enumerates the initial states and the successors of
 * a state of a flattened model under an input, picks one by its choice
 * index, observes states, reads input sequences and prints traces.
 *
 * A successor is built slot by slot. Each slot gets its candidate values
 * from the assignment that defines it (next(x), init(x) or the invariant
 * x := e), or from its whole domain when none does; input VARs and frozen
 * variables are pinned to one value. Assignments may read next-state (or,
 * for init, state-0) values, so slots are assigned in a dependency order
 * computed from the expressions (through DEFINEs); a cycle is a
 * combinational loop and an error. Every constraint (TRANS, INVAR, INIT,
 * invariant assignments) is checked as soon as the last slot it reads is
 * assigned, so a dead branch is cut before the slots after it multiply.
 * That order and where each check runs make up a plan, which depends on the
 * model, on initial states or successors, and on an input being given or
 * not, but not on the values of the state and the input: the model keeps
 * its plans (built on first use) and every enumeration after the first
 * only fills in those values. The one exception, next(a[i]) with i read in
 * the current state, is planned again for every enumeration.
 * Expressions are evaluated by eval.c; nothing here knows about Z3.
 *
 * This file is the enumeration along a plan (sim_plan.c makes the plans;
 * sim_seq.c reads input sequences and prints traces). */
#include "sim_int.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Candidate assignments tried by mf_sim_initial/mf_sim_step. */
#define PICK_LIMIT 10000000L

/* One enumeration: a plan and this call's values. */
typedef struct {
    const plan *p;
    const mf_model *m;
    const mf_val *cur; /* successors: the current state */
    mf_val *st;        /* the state being built, MF_SIM_UNSET where unknown */
    mf_val *fixval;    /* per pinned slot: its value */
    long tried, limit;
    mf_state_fn fn;
    void *ctx;
    int count, stop;
    mf_valset coll;
    mf_valset *cand; /* per position in order: its candidates, reused */
    mf_valset chk;   /* run_checks' values, reused */
} run;

/* ------------------------------------------------------------------ */
/* Enumeration                                                          */

static int eval_item(run *r, int item, mf_valset *out)
{
    const mf_item *it = &r->m->items[item];
    if (reads_st_as_cur(r->p, it))
        return mf_eval(out, r->m, it->e, r->st, NULL, r->st, EVAL_LIMIT);
    return mf_eval(out, r->m, it->e, r->cur, r->st, r->st, EVAL_LIMIT);
}

/* 1 if every constraint of checks[k] can hold, 0 if one cannot. */
static int run_checks(run *r, int k)
{
    const intvec *ck = &r->p->checks[k];
    mf_valset *s = &r->chk;
    int rc = 1;
    for (int i = 0; i < ck->n && rc == 1; i++) {
        s->n = 0;
        int e = eval_item(r, ck->v[i], s);
        if (e < 0)
            rc = e;
        else {
            rc = 0;
            for (int j = 0; j < s->n; j++)
                if (s->v[j])
                    rc = 1;
        }
    }
    return rc;
}

/* Candidates of a slot worth narrowing first (sim_narrow.c). */
#define NARROW_MIN 16

/* The values of slot s, at position k, that every narrowable constraint
 * checked once it is assigned allows: 1 and *out, or 0 if none narrows. */
static int narrow(run *r, int k, int s, mf_ivset *out)
{
    const intvec *ck = &r->p->checks[k + 1];
    int any = 0;
    mf_ivset one = {0};
    for (int i = 0; i < ck->n; i++) {
        if (!mf_sim_narrow(any ? &one : out, r->p, ck->v[i], s, r->cur,
                           r->st))
            continue;
        if (any)
            mf_sim_iv_meet(out, &one);
        any = 1;
    }
    MF_VEC_FREE(one);
    return any;
}

static int emit(run *r)
{
    int n = r->m->nslots;
    if (r->p->collect) {
        if ((long)r->coll.n + n > COLLECT_MAX)
            return mf_err_set(MF_ELIMIT,
                              "too many states to sort into slot order "
                              "(over %ld values)",
                              COLLECT_MAX);
        for (int i = 0; i < n; i++)
            MF_VEC_PUSH(r->coll, r->st[i]);
        return 0;
    }
    r->count++;
    if (r->fn && r->fn(r->st, r->ctx))
        r->stop = 1;
    return 0;
}

/* Slot s's candidates from its equality (sim_plan.c), ascending as its
 * domain's: 0, or 1 where it has none or its values cannot be computed
 * (then the domain: the check in its place says what it says). */
static int eq_candidates(run *r, int s, mf_valset *cand)
{
    const plan *p = r->p;
    if (!p->eqx || !p->eqx[s])
        return 1;
    const mf_item *it = &r->m->items[p->eqit[s]];
    int rc;
    cand->n = 0;
    if (reads_st_as_cur(p, it))
        rc = mf_eval(cand, r->m, p->eqx[s], r->st, NULL, r->st, EVAL_LIMIT);
    else
        rc = mf_eval(cand, r->m, p->eqx[s], r->cur, r->st, r->st, EVAL_LIMIT);
    return rc < 0 ? 1 : 0;
}

static int dfs(run *r, int k)
{
    const plan *p = r->p;
    if (k == p->norder)
        return emit(r);
    int s = p->order[k], rc = 0;
    int fixed = p->from[s] != SL_SEARCH;
    mf_valset *cand = &r->cand[k];
    mf_ivset nar = {0};
    mf_val *big = NULL;
    const mf_val *cv;
    int cn;
    if (p->src[s] >= 0) {
        cand->n = 0;
        if ((rc = eval_item(r, p->src[s], cand)) < 0)
            goto cleanup;
        cv = cand->v;
        cn = cand->n;
    } else if (fixed) {
        cv = &r->fixval[s];
        cn = 1;
    } else if (eq_candidates(r, s, cand) == 0) {
        cv = cand->v;
        cn = cand->n;
    } else if (p->dom[p->svar[s]].n >= 0) {
        cv = p->dom[p->svar[s]].v;
        cn = p->dom[p->svar[s]].n;
    } else {
        /* Not kept by the plan: too large (or too large to build). */
        if ((rc = mf_type_domain(p->sty[s], &big, &cn)) < 0)
            goto cleanup;
        cv = big;
    }
    /* Many candidates: only those the constraints checked next allow. */
    int narrowed = !fixed && cn >= NARROW_MIN &&
                   narrow(r, k, s, &nar) == 1;
    for (int i = 0; i < cn; i++) {
        mf_val v = cv[i];
        if (fixed && v != r->fixval[s])
            continue;
        /* A value outside the variable's type is no successor; outside
         * the simulator's integers, an error (docs/smv.md, Integers). */
        if (!mf_type_contains(p->sty[s], v) && p->sty[s]->unbounded) {
            rc = mf_err_set(MF_ERROR, "integer overflow: %lld for '%s' is "
                            "beyond +-%lld", (long long)v,
                            r->m->vars[p->svar[s]].name,
                            (long long)MF_INT_UNBOUNDED);
            goto cleanup;
        }
        if (!mf_type_contains(p->sty[s], v))
            continue;
        if (narrowed && !mf_sim_iv_has(&nar, v))
            continue;
        if (++r->tried > r->limit) {
            rc = mf_err_set(MF_ELIMIT,
                            "more than %ld candidate assignments tried",
                            r->limit);
            goto cleanup;
        }
        r->st[s] = v;
        if ((rc = run_checks(r, k + 1)) < 0)
            goto cleanup;
        if (rc == 0)
            continue;
        rc = 0;
        if ((rc = dfs(r, k + 1)) < 0 || r->stop)
            goto cleanup;
    }
cleanup:
    r->st[s] = MF_SIM_UNSET;
    free(big);
    MF_VEC_FREE(nar);
    return rc;
}

static _Thread_local int sort_n;

static int cmp_state(const void *a, const void *b)
{
    const mf_val *x = a, *y = b;
    for (int i = 0; i < sort_n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* The buffers of enumerate, kept per thread from one call to the next: each
 * successor computation would otherwise allocate its state and its
 * candidate and check vectors anew and grow them value by value, a share
 * of the time worth saving (docs/semantics.md). Freed when the thread
 * exits; a call made from inside another (a callback that enumerates) has
 * buffers of its own. */
typedef struct {
    mf_val *st;
    size_t nst;
    mf_valset *cand;
    int ncand;
    mf_valset chk, coll;
    int busy;
} run_bufs;

static pthread_key_t bufs_key;
static int bufs_ok; /* the key was created */
static pthread_once_t bufs_once = PTHREAD_ONCE_INIT;

/* Frees what b holds (not b itself). */
static void bufs_clear(run_bufs *b)
{
    free(b->st);
    for (int k = 0; k < b->ncand; k++)
        MF_VEC_FREE(b->cand[k]);
    free(b->cand);
    MF_VEC_FREE(b->chk);
    MF_VEC_FREE(b->coll);
}

static void bufs_free(void *arg)
{
    bufs_clear(arg);
    free(arg);
}

/* Room for nst values and ncand candidate vectors (empty), busy. */
static void bufs_fit(run_bufs *b, size_t nst, int ncand)
{
    if (b->nst < nst) {
        free(b->st);
        b->st = mf_xmalloc(nst * sizeof *b->st);
        b->nst = nst;
    }
    if (b->ncand < ncand) {
        b->cand = mf_xrealloc(b->cand, (size_t)ncand * sizeof *b->cand);
        memset(b->cand + b->ncand, 0,
               (size_t)(ncand - b->ncand) * sizeof *b->cand);
        b->ncand = ncand;
    }
    for (int k = 0; k < ncand; k++)
        b->cand[k].n = 0;
    b->chk.n = b->coll.n = 0;
    b->busy = 1;
}

static void bufs_init(void)
{
    bufs_ok = pthread_key_create(&bufs_key, bufs_free) == 0;
}

/* This thread's buffers, marked busy, with room for nst values and ncand
 * candidate vectors (empty); NULL if they are in use or cannot be kept. */
static run_bufs *bufs_take(size_t nst, int ncand)
{
    pthread_once(&bufs_once, bufs_init);
    if (!bufs_ok)
        return NULL;
    run_bufs *b = pthread_getspecific(bufs_key);
    if (!b) {
        b = mf_xcalloc(1, sizeof *b);
        if (pthread_setspecific(bufs_key, b) != 0) {
            free(b);
            return NULL;
        }
    }
    if (b->busy)
        return NULL;
    bufs_fit(b, nst, ncand);
    return b;
}

static int enumerate(const mf_model *m, int init, const mf_val *cur,
                     const mf_val *inp, mf_state_fn fn, void *ctx, long limit)
{
    plan *own = NULL;
    const plan *p = mf_sim_plan_get(&own, m, init, cur, inp);
    run r = {0};
    run_bufs *b = NULL, local = {0};
    int n = m->nslots, rc;
    r.p = p;
    r.m = m;
    r.cur = cur;
    r.fn = fn;
    r.ctx = ctx;
    r.limit = limit > 0 ? limit : LONG_MAX;
    if (p->rc != 0) {
        rc = p->rc == 1 ? 0 : mf_err_set(p->rc, "%s", p->msg);
        goto cleanup;
    }
    /* This call's values: the input's IVARs, the pinned slots. */
    size_t nst = 2 * (size_t)(n ? n : 1);
    int ncand = p->norder ? p->norder : 1;
    if (!(b = bufs_take(nst, ncand))) {
        b = &local; /* a nested call: buffers of its own, freed at the end */
        bufs_fit(b, nst, ncand);
    }
    r.st = b->st;
    r.cand = b->cand;
    r.chk = b->chk;
    r.coll = b->coll;
    r.fixval = r.st + (n ? n : 1);
    for (int s = 0; s < n; s++) {
        r.st[s] = p->st0[s];
        if (p->from[s] == SL_GIVEN)
            r.st[s] = inp[s];
        else if (p->from[s] == SL_PIN_INP)
            r.fixval[s] = inp[s];
        else if (p->from[s] == SL_PIN_CUR)
            r.fixval[s] = cur[s];
    }
    if ((rc = run_checks(&r, 0)) < 0)
        goto cleanup;
    if (rc == 1 && (rc = dfs(&r, 0)) < 0)
        goto cleanup;
    rc = 0;
    if (p->collect && n > 0 && r.coll.n > 0) {
        int cnt = r.coll.n / n;
        sort_n = n;
        qsort(r.coll.v, (size_t)cnt, (size_t)n * sizeof(mf_val), cmp_state);
        for (int i = 0; i < cnt; i++) {
            r.count++;
            if (fn && fn(r.coll.v + (size_t)i * n, ctx))
                break;
        }
    }
    rc = r.count;
cleanup:
    if (b) { /* the vectors may have grown: keep them so */
        b->chk = r.chk;
        b->coll = r.coll;
        b->busy = 0;
        if (b == &local)
            bufs_clear(b);
    }
    mf_sim_plan_free(own);
    return rc;
}

int mf_sim_initial_each(const mf_model *m, const mf_val *inp, mf_state_fn fn,
                        void *ctx, long limit)
{
    return enumerate(m, 1, NULL, inp, fn, ctx, limit);
}

int mf_sim_next_each(const mf_model *m, const mf_val *cur, const mf_val *inp,
                     mf_state_fn fn, void *ctx, long limit)
{
    return enumerate(m, 0, cur, inp, fn, ctx, limit);
}

typedef struct {
    int want, seen;
    mf_val *out;
    int n;
} pick;

static int pick_fn(const mf_val *state, void *ctx)
{
    pick *k = ctx;
    if (k->seen++ == k->want) {
        memcpy(k->out, state, (size_t)k->n * sizeof(*state));
        return 1;
    }
    return 0;
}

static int pick_one(mf_val *out, const mf_model *m, const mf_val *cur,
                    const mf_val *inp, int choice, int init)
{
    pick k = {choice, 0, out, m->nslots};
    int rc = enumerate(m, init, cur, inp, pick_fn, &k, PICK_LIMIT);
    if (rc < 0)
        return rc;
    if (k.seen == 0)
        return mf_err_set(MF_EREFUSED, init ? "no initial state for this input"
                                            : "no successor for this input");
    if (k.seen <= choice)
        return mf_err_set(
            MF_ENOTFOUND, "choice @%d does not exist: there %s only %d %s",
            choice, k.seen == 1 ? "is" : "are", k.seen,
            init ? (k.seen == 1 ? "initial state" : "initial states")
                 : (k.seen == 1 ? "successor" : "successors"));
    return 0;
}

int mf_sim_initial(mf_val *out, const mf_model *m, const mf_val *inp,
                   int choice)
{
    return pick_one(out, m, NULL, inp, choice, 1);
}

int mf_sim_step(mf_val *out, const mf_model *m, const mf_val *cur,
                const mf_val *inp, int choice)
{
    return pick_one(out, m, cur, inp, choice, 0);
}

int mf_sim_observe(mf_val *out, int max, const mf_model *m, const mf_val *state)
{
    int n = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!v->is_observable)
            continue;
        for (int k = 0; k < v->nslots; k++)
            if (n < max)
                out[n++] = state[v->slot + k];
    }
    mf_valset s = {0};
    for (int i = 0; i < m->nobs_defines; i++) {
        const mf_item *it = &m->items[m->obs_defines[i]];
        s.n = 0;
        int rc = mf_eval(&s, m, it->e, state, NULL, state, EVAL_LIMIT);
        if (rc < 0) {
            MF_VEC_FREE(s);
            return rc;
        }
        /* No value: the observable is undefined here, a value of its own
         * (docs/semantics.md, Undefined observables). */
        if (n < max)
            out[n++] = s.n ? s.v[0] : MF_VAL_UNDEF; /* the smallest of a set */
    }
    MF_VEC_FREE(s);
    return n;
}

