/* replay.c - the self-check (docs/killing.md, Verdicts): every kill is
 * replayed by the simulator by explicit enumeration before it is reported,
 * and a test the explorer found gets its expected observables from an
 * original run here. The original's steps are memoised per batch. It finds
 * no test and decides no verdict. */
#include "replay.h"

#include <stdlib.h>
#include <string.h>

#include "reach.h"

/* States (or state pairs) one step of a replay holds: a mutant that
 * drops an init() multiplies the original's initial states by its
 * variable's domain (docs/killing.md, Verdicts). */
#define REPLAY_LIMIT 100000
/* Allowed outputs a test carries per step (the size of a test in the
 * store and on the wire): past it the kill is unknown. abp4's 65536
 * uninitialised data words would make every test megabytes. */
#define ALLOWED_LIMIT 20000
/* Original runs tried when a test's expected observables are filled. */
#define FILL_TRIES 20000

/* The original's steps in a batch's replays, memoised (replay.h). Key:
 * (initial?, cur, inp); value: the successors, as the simulator lists
 * them. */
struct mf_replay_memo {
    const mf_model *m;
    int n, width;         /* cells; key width 2n + 1 */
    mf_valset keys, rows; /* per entry: a key; the successor rows */
    MF_VEC(int) at, cnt;  /* per entry: first row, row count */
    int *tab;             /* entry + 1 by key hash, 0 empty */
    size_t cap;
};

#define MEMO_MAX_VALS (1L << 22) /* keys and rows: 32 MB */
static _Thread_local mf_replay_memo *memo;

static void memo_key(const mf_replay_memo *M, mf_val *k, const mf_val *cur,
                     const mf_val *inp)
{
    k[0] = cur != NULL;
    for (int i = 0; i < M->n; i++) {
        k[1 + i] = cur ? cur[i] : 0;
        k[1 + M->n + i] = inp[i];
    }
}

static size_t memo_slot(const mf_replay_memo *M, const mf_val *k)
{
    return mf_reach_row_slot(M->tab, M->cap, M->keys.v, M->width, k);
}

/* Entry of key k, or -1. */
static int memo_find(const mf_replay_memo *M, const mf_val *k)
{
    if (!M->cap)
        return -1;
    size_t i = memo_slot(M, k);
    return M->tab[i] - 1;
}

static void memo_add(mf_replay_memo *M, const mf_val *k, const mf_valset *succ)
{
    if ((long)M->keys.n + M->rows.n + succ->n + M->width > MEMO_MAX_VALS)
        return;
    int e = M->at.n;
    if ((size_t)(e + 1) * 2 > M->cap) {
        free(M->tab);
        M->cap = M->cap ? M->cap * 2 : 256;
        M->tab = mf_xcalloc(M->cap, sizeof *M->tab);
        for (int q = 0; q < e; q++)
            M->tab[memo_slot(M, M->keys.v + (size_t)q * M->width)] = q + 1;
    }
    for (int i = 0; i < M->width; i++)
        MF_VEC_PUSH(M->keys, k[i]);
    MF_VEC_PUSH(M->at, M->rows.n / (M->n ? M->n : 1));
    MF_VEC_PUSH(M->cnt, succ->n / (M->n ? M->n : 1));
    for (int i = 0; i < succ->n; i++)
        MF_VEC_PUSH(M->rows, succ->v[i]);
    M->tab[memo_slot(M, k)] = e + 1;
}

mf_replay_memo *mf_replay_memo_new(const mf_model *m)
{
    mf_replay_memo *M = mf_xcalloc(1, sizeof *M);
    M->m = m;
    M->n = m->nslots;
    M->width = 2 * m->nslots + 1;
    memo = M;
    return M;
}

void mf_replay_memo_free(mf_replay_memo *M)
{
    if (!M)
        return;
    memo = NULL;
    MF_VEC_FREE(M->keys);
    MF_VEC_FREE(M->rows);
    MF_VEC_FREE(M->at);
    MF_VEC_FREE(M->cnt);
    free(M->tab);
    free(M);
}

static int sim_states(mf_reach_set *c, const mf_model *m, const mf_val *cur,
                      const mf_val *inp)
{
    return cur ? mf_sim_next_each(m, cur, inp, mf_reach_set_add, c, 0)
               : mf_sim_initial_each(m, inp, mf_reach_set_add, c, 0);
}

/* States (init: cur NULL) into out; MF_ELIMIT past the limit. */
static int states(mf_valset *out, const mf_model *m, const mf_val *cur,
                  const mf_val *inp)
{
    mf_reach_set c = {out, m->nslots, REPLAY_LIMIT, 0, NULL, 0};
    mf_replay_memo *M = memo && memo->m == m ? memo : NULL;
    int rc = 0;
    if (!M)
        rc = sim_states(&c, m, cur, inp);
    else {
        mf_val *k = mf_xmalloc(sizeof *k * (size_t)M->width);
        memo_key(M, k, cur, inp);
        int e = memo_find(M, k), cnt = 0;
        mf_valset succ = {0};
        const mf_val *r = NULL;
        if (e >= 0) {
            r = M->rows.v + (size_t)M->at.v[e] * M->n;
            cnt = M->cnt.v[e];
        } else {
            mf_reach_set one = {&succ, m->nslots, REPLAY_LIMIT, 0, NULL, 0};
            rc = sim_states(&one, m, cur, inp);
            mf_reach_set_free(&one);
            c.over = one.over;
            if (rc >= 0 && !one.over)
                memo_add(M, k, &succ);
            r = succ.v;
            cnt = succ.n / (M->n ? M->n : 1);
        }
        /* Through out's table: out may hold rows already. */
        for (int i = 0; rc >= 0 && i < cnt && !c.over; i++)
            mf_reach_set_add(r + (size_t)i * M->n, &c);
        MF_VEC_FREE(succ);
        free(k);
    }
    mf_reach_set_free(&c);
    if (rc < 0)
        return rc;
    if (c.over)
        return mf_err_set(MF_ELIMIT, "more than %d states in the replay",
                          REPLAY_LIMIT);
    return 0;
}

static int obs_of(mf_val *o, int nobs, const mf_model *m, const mf_val *st)
{
    int rc = mf_sim_observe(o, nobs, m, st);
    return rc < 0 ? rc : 0;
}

/* A step's allowed outputs as a set: the rows of t->allowed[k] (nobs
 * values each, in the order first seen) with a hash table of row + 1 over
 * them, so that each of a step's states costs one probe, not a scan of
 * every output seen before it. */
typedef struct {
    int *tab;   /* row + 1 by hash, 0 empty */
    size_t cap; /* slots of tab: a power of two, or 0 */
    int rows;   /* rows t->allowed[k] has room for */
} allowed_set;

static size_t allowed_slot(const allowed_set *A, const mf_test *t, int k,
                           const mf_val *o)
{
    return mf_reach_row_slot(A->tab, A->cap, t->allowed[k], t->nobs, o);
}

/* (Re)builds A's table, of A->cap slots, over step k's rows. */
static void allowed_index(allowed_set *A, const mf_test *t, int k)
{
    free(A->tab);
    A->tab = mf_xcalloc(A->cap, sizeof *A->tab);
    for (int a = 0; a < t->nallowed[k]; a++)
        A->tab[allowed_slot(A, t, k, t->allowed[k] + (size_t)a * t->nobs)] =
            a + 1;
}

/* Starts A over step k's allowed outputs: rows a caller put there are
 * members already. */
static void allowed_open(allowed_set *A, const mf_test *t, int k)
{
    A->rows = t->nallowed[k];
    A->cap = 64;
    while ((size_t)(t->nallowed[k] + 1) * 2 > A->cap)
        A->cap *= 2;
    A->tab = NULL;
    allowed_index(A, t, k);
}

static void allowed_close(allowed_set *A)
{
    free(A->tab);
    A->tab = NULL;
    A->cap = 0;
}

/* Adds o to step k's allowed outputs unless it is one already. */
static void add_allowed(allowed_set *A, mf_test *t, int k, const mf_val *o)
{
    int cnt = t->nallowed[k];
    if ((size_t)(cnt + 1) * 2 > A->cap) {
        A->cap *= 2;
        allowed_index(A, t, k);
    }
    size_t i = allowed_slot(A, t, k, o);
    if (A->tab[i])
        return;
    if (cnt >= A->rows) {
        A->rows = A->rows ? 2 * A->rows : 4;
        t->allowed[k] =
            mf_xrealloc(t->allowed[k], sizeof *o * (size_t)A->rows *
                                           (size_t)(t->nobs ? t->nobs : 1));
    }
    memcpy(t->allowed[k] + (size_t)cnt * t->nobs, o,
           sizeof *o * (size_t)t->nobs);
    t->nallowed[k]++;
    A->tab[i] = cnt + 1;
}

/* Sort the rows of v (`width` values each) and drop repeats: the replays
 * track sets of states (or pairs), whose size is bounded by the state space,
 * not by the number of runs. */
static void dedupe_rows(mf_valset *v, int width)
{
    v->n = mf_sort_unique_rows(v->v, v->n, width);
}

/* The original's states matching the expected observables, and the
 * allowed outputs per step. */
static int replay_original(const mf_model *m, mf_test *t)
{
    int n = m->nslots, no = t->nobs, rc = 0;
    mf_valset cur = {0}, nxt = {0}, keep = {0};
    mf_val *o = mf_xcalloc((size_t)(no + 1), sizeof *o);
    for (int k = 0; k <= t->length && rc == 0; k++) {
        const mf_val *inp = t->inputs + (size_t)k * n;
        nxt.n = 0;
        if (k == 0)
            rc = states(&nxt, m, NULL, inp);
        else
            for (int i = 0; i < cur.n / (n ? n : 1) && rc == 0; i++)
                rc = states(&nxt, m, cur.v + (size_t)i * n, inp);
        if (rc)
            break;
        keep.n = 0;
        allowed_set A = {0};
        allowed_open(&A, t, k);
        for (int i = 0; i < nxt.n / (n ? n : 1) && rc == 0; i++) {
            const mf_val *st = nxt.v + (size_t)i * n;
            if ((rc = obs_of(o, no, m, st)) != 0)
                break;
            add_allowed(&A, t, k, o);
            if (t->nallowed[k] > ALLOWED_LIMIT) {
                rc = mf_err_set(MF_ELIMIT,
                                "more than %d allowed outputs at step %d",
                                ALLOWED_LIMIT, k);
                break;
            }
            if (!memcmp(o, t->expect + (size_t)k * no, sizeof *o * (size_t)no))
                for (int q = 0; q < n; q++)
                    MF_VEC_PUSH(keep, st[q]);
        }
        allowed_close(&A);
        dedupe_rows(&keep, n);
        if (rc == 0 && keep.n == 0)
            rc = mf_err_set(MF_ERROR,
                            "self-check: the original cannot produce the "
                            "expected observables at step %d",
                            k);
        mf_valset sw = cur;
        cur = keep;
        keep = sw;
    }
    MF_VEC_FREE(cur);
    MF_VEC_FREE(nxt);
    MF_VEC_FREE(keep);
    free(o);
    return rc;
}

/* Potential: the mutant can show mobs, the original cannot. */
static int replay_potential(const mf_model *m, const mf_model *mm,
                            const mf_test *t)
{
    int n = m->nslots, no = t->nobs, rc = 0;
    const mf_model *ms[2] = {m, mm};
    mf_valset set[2] = {{0}, {0}}, nxt = {0};
    mf_val *o = mf_xcalloc((size_t)(no + 1), sizeof *o);
    int verdict = 0; /* 1 distinguished */
    for (int k = 0; k <= t->length && rc == 0 && !verdict; k++) {
        const mf_val *inp = t->inputs + (size_t)k * n;
        int refused[2] = {0, 0};
        for (int w = 0; w < 2 && rc == 0; w++) {
            nxt.n = 0;
            if (k == 0) {
                rc = states(&nxt, ms[w], NULL, inp);
                refused[w] = nxt.n == 0;
            } else
                for (int i = 0; i < set[w].n / (n ? n : 1) && rc == 0; i++) {
                    mf_valset one = {0};
                    rc = states(&one, ms[w], set[w].v + (size_t)i * n, inp);
                    if (one.n == 0)
                        refused[w] = 1; /* this state refuses */
                    for (int q = 0; q < one.n; q++)
                        MF_VEC_PUSH(nxt, one.v[q]);
                    MF_VEC_FREE(one);
                }
            if (rc)
                break;
            set[w].n = 0;
            for (int i = 0; i < nxt.n / (n ? n : 1) && rc == 0; i++) {
                const mf_val *st = nxt.v + (size_t)i * n;
                if ((rc = obs_of(o, no, ms[w], st)) != 0)
                    break;
                if (t->mobs && !memcmp(o, t->mobs + (size_t)k * no,
                                       sizeof *o * (size_t)no))
                    for (int q = 0; q < n; q++)
                        MF_VEC_PUSH(set[w], st[q]);
            }
            dedupe_rows(&set[w], n);
        }
        if (rc)
            break;
        if (t->mrefuses == k) {
            /* Refusal: a mutant state on the prefix refuses this input, no
             * original state on the prefix does. */
            verdict = refused[1] && !refused[0];
            if (!verdict)
                rc = mf_err_set(MF_ERROR,
                                "self-check: the mutant does not "
                                "refuse step %d as the test says",
                                k);
            break;
        }
        if (set[1].n == 0) {
            rc = mf_err_set(MF_ERROR,
                            "self-check: the mutant cannot show "
                            "the deviating behaviour at step %d",
                            k);
            break;
        }
        if (set[0].n == 0)
            verdict = 1;
    }
    if (rc == 0 && !verdict)
        rc = mf_err_set(MF_ERROR, "self-check: the original can match the "
                                  "mutant's behaviour on this test");
    MF_VEC_FREE(set[0]);
    MF_VEC_FREE(set[1]);
    MF_VEC_FREE(nxt);
    free(o);
    return rc;
}

/* Rows of (observables, state number): ordered by the observables (byte
 * order, as memcmp), then by the state number, so that the states showing
 * one output are adjacent and in the order the simulator listed them. */
static _Thread_local int obs_row_n;

static int obs_row_cmp(const void *x, const void *y)
{
    const mf_val *a = x, *b = y;
    int c = memcmp(a, b, sizeof *a * (size_t)obs_row_n);
    if (c)
        return c;
    return (a[obs_row_n] > b[obs_row_n]) - (a[obs_row_n] < b[obs_row_n]);
}

/* First row of rows (`nr` sorted rows of no + 1 values) whose observables
 * are not below o: a bisection. */
static int obs_lower_bound(const mf_val *rows, int nr, int no, const mf_val *o)
{
    int lo = 0, hi = nr;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const mf_val *row = rows + (size_t)mid * (no + 1);
        if (memcmp(row, o, sizeof *o * (size_t)no) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The mutant's states b (rows of n values) as rows (observables, state
 * number) in bo, sorted by obs_row_cmp: *nb rows. A state whose
 * observables fail ends the rows there; its error is returned for the
 * caller to report once the rows before it are used, as a scan of every
 * pair would have met it. */
static int mutant_rows(const mf_model *mm, const mf_valset *b, int n, int no,
                       mf_val *ob, mf_valset *bo, int *nb)
{
    int rc = 0;
    bo->n = 0;
    *nb = 0;
    for (int j = 0; j < b->n / (n ? n : 1); j++) {
        if ((rc = obs_of(ob, no, mm, b->v + (size_t)j * n)) != 0)
            break;
        for (int q = 0; q < no; q++)
            MF_VEC_PUSH(*bo, ob[q]);
        MF_VEC_PUSH(*bo, (mf_val)j);
        (*nb)++;
    }
    obs_row_n = no;
    if (*nb > 1)
        qsort(bo->v, (size_t)*nb, sizeof *bo->v * (size_t)(no + 1),
              obs_row_cmp);
    return rc;
}

/* Clears und[d] for each observed DEFINE that row o (the mutant's
 * observables in a state at the test's end) defines. */
static void mark_defined(const mf_model *mm, int no, const mf_val *o,
                         unsigned char *und)
{
    int nd = mm->nobs_defines;
    for (int d = 0; d < nd; d++)
        if (o[no - nd + d] != MF_VAL_UNDEF)
            und[d] = 0;
}

/* The test's note (t->mundef): the first observed DEFINE und[] says every
 * mutant state at the test's end leaves undefined, where the original's
 * expected value is defined. */
static void note_define(const mf_model *mm, mf_test *t,
                        const unsigned char *und)
{
    int no = t->nobs, nd = mm->nobs_defines;
    const mf_val *exp = t->expect + (size_t)t->length * no;
    for (int d = 0; d < nd && !t->mundef; d++)
        if (und[d] && exp[no - nd + d] != MF_VAL_UNDEF)
            t->mundef = d + 1;
}

/* 1 if expression e of item it has no value for any of the states `sts`
 * (n values each) reached from cur under inp. */
static int undefined_for(const mf_model *m, const mf_item *it,
                         const mf_val *cur, const mf_valset *sts, int n,
                         const mf_val *inp)
{
    mf_valset v = {0};
    int none = 1;
    for (int i = 0; i < sts->n / (n ? n : 1) && none && i < 64; i++) {
        const mf_val *st = sts->v + (size_t)i * n;
        v.n = 0;
        int rc = it->kind == MF_IT_NEXT
                     ? mf_eval(&v, m, it->e, cur, st, inp, 64)
                     : mf_eval(&v, m, it->e, st, NULL, inp, 64);
        none = rc == 0 && v.n == 0;
    }
    MF_VEC_FREE(v);
    return none && sts->n > 0;
}

/* The test's note (t->mundef_item) where the mutant refuses the last step
 * from sm (NULL: no initial state) and the original moves to the states
 * a: the first assignment of the mutant that has no value for any of
 * them, where the original's has one. */
static void note_item(const mf_model *m, const mf_model *mm, mf_test *t,
                      const mf_val *so, const mf_val *sm, const mf_valset *a,
                      const mf_val *inp)
{
    for (int i = 0; i < mm->nitems && i < m->nitems; i++) {
        const mf_item *it = &mm->items[i];
        if (it->kind != MF_IT_NEXT && it->kind != MF_IT_INIT &&
            it->kind != MF_IT_ASSIGN)
            continue;
        if ((it->kind == MF_IT_NEXT) != (sm != NULL) &&
            it->kind != MF_IT_ASSIGN)
            continue;
        if (undefined_for(mm, it, sm, a, m->nslots, inp) &&
            !undefined_for(m, &m->items[i], so, a, m->nslots, inp)) {
            t->mundef_item = i + 1;
            return;
        }
    }
}

/* Definite (and deterministic): no pair of behaviours with the test's
 * inputs shows the same observables (a refusal shared by both is the same
 * behaviour). */
static int replay_definite(const mf_model *m, const mf_model *mm,
                           mf_test *t)
{
    int n = m->nslots, no = t->nobs, rc = 0;
    mf_valset pairs = {0}, np = {0}, a = {0}, b = {0};
    mf_valset bo = {0}; /* the mutant's states: rows (observables, number) */
    mf_val *oa = mf_xcalloc((size_t)(no + 1), sizeof *oa);
    mf_val *ob = mf_xcalloc((size_t)(no + 1), sizeof *ob);
    int done = 0, ends = 0; /* ends: mutant states at the test's end */
    unsigned char *und = mf_xmalloc((size_t)mm->nobs_defines + 1);
    memset(und, 1, (size_t)mm->nobs_defines + 1);
    for (int k = 0; k <= t->length && rc == 0 && !done; k++) {
        const mf_val *inp = t->inputs + (size_t)k * n;
        int npairs = k == 0 ? 1 : pairs.n / (2 * (n ? n : 1));
        np.n = 0;
        for (int p = 0; p < npairs && rc == 0; p++) {
            a.n = b.n = 0;
            const mf_val *so = k ? pairs.v + (size_t)p * 2 * n : NULL;
            const mf_val *sm = k ? so + n : NULL;
            if ((rc = states(&a, m, so, inp)) != 0 ||
                (rc = states(&b, mm, sm, inp)) != 0)
                break;
            if (a.n == 0 && b.n == 0) {
                rc = mf_err_set(MF_ERROR,
                                "self-check: original and mutant "
                                "both refuse step %d",
                                k);
                break;
            }
            if (k == t->length && b.n == 0 && !t->mundef_item)
                note_item(m, mm, t, so, sm, &a, inp);
            /* The mutant's states sorted by their observables, made when
             * the first original state needs them (mutant_rows): each
             * original state finds its matches by bisection instead of
             * observing every mutant state again. */
            int nb = 0, rc_b = 0;
            for (int i = 0; i < a.n / (n ? n : 1) && rc == 0; i++) {
                if ((rc = obs_of(oa, no, m, a.v + (size_t)i * n)) != 0)
                    break;
                if (i == 0) {
                    rc_b = mutant_rows(mm, &b, n, no, ob, &bo, &nb);
                    for (int r = 0; k == t->length && rc_b == 0 && r < nb;
                         r++)
                        mark_defined(mm, no, bo.v + (size_t)r * (no + 1),
                                     und);
                    ends += k == t->length ? nb : 0;
                }
                for (int r = obs_lower_bound(bo.v, nb, no, oa);
                     r < nb && rc == 0; r++) {
                    const mf_val *row = bo.v + (size_t)r * (no + 1);
                    if (memcmp(row, oa, sizeof *oa * (size_t)no))
                        break;
                    int j = (int)row[no];
                    if (np.n / (2 * (n ? n : 1)) >= REPLAY_LIMIT)
                        dedupe_rows(&np, 2 * n);
                    if (np.n / (2 * (n ? n : 1)) >= REPLAY_LIMIT) {
                        rc = mf_err_set(MF_ELIMIT,
                                        "more than %d state pairs "
                                        "in the replay",
                                        REPLAY_LIMIT);
                        break;
                    }
                    for (int q = 0; q < n; q++)
                        MF_VEC_PUSH(np, a.v[(size_t)i * n + q]);
                    for (int q = 0; q < n; q++)
                        MF_VEC_PUSH(np, b.v[(size_t)j * n + q]);
                }
                if (rc == 0 && rc_b)
                    rc = rc_b;
            }
        }
        if (rc)
            break;
        dedupe_rows(&np, 2 * n);
        mf_valset sw = pairs;
        pairs = np;
        np = sw;
        if (pairs.n == 0)
            done = 1;
    }
    if (rc == 0 && !done)
        rc = mf_err_set(MF_ERROR,
                        "self-check: the test does not "
                        "distinguish original and mutant (replayed by the "
                        "simulator)");
    MF_VEC_FREE(pairs);
    MF_VEC_FREE(np);
    MF_VEC_FREE(a);
    MF_VEC_FREE(b);
    if (rc == 0 && ends)
        note_define(mm, t, und);
    free(und);
    MF_VEC_FREE(bo);
    free(oa);
    free(ob);
    return rc;
}

int mf_engine_replay(const mf_model *m, const mf_model *mutant, mf_test *t,
                     mf_notion notion)
{
    int rc = replay_original(m, t);
    t->mundef = t->mundef_item = 0;
    if (rc)
        return rc;
    if (notion == MF_N_POTENTIAL) {
        rc = replay_potential(m, mutant, t);
        if (rc == 0 && t->mobs && mutant->nobs_defines) {
            unsigned char *und = mf_xmalloc((size_t)mutant->nobs_defines);
            memset(und, 1, (size_t)mutant->nobs_defines);
            mark_defined(mutant, t->nobs,
                         t->mobs + (size_t)t->length * t->nobs, und);
            note_define(mutant, t, und);
            free(und);
        }
        return rc;
    }
    return replay_definite(m, mutant, t);
}

/* At most FILL_TRIES steps tried. */
int mf_replay_fill_expect(const mf_model *m, mf_test *t)
{
    int n = m->nslots, nn = n ? n : 1, len = t->length, rc = 0, k = 0;
    long tried = 0;
    mf_valset *cand = mf_xcalloc((size_t)len + 1, sizeof *cand);
    int *at = mf_xcalloc((size_t)len + 1, sizeof *at);
    rc = states(&cand[0], m, NULL, t->inputs);
    while (rc == 0) {
        if (at[k] >= cand[k].n / nn) { /* none of state k's goes on */
            if (k == 0) {
                rc = mf_err_set(MF_ERROR, "the original has no run over "
                                          "the explorer's inputs");
                break;
            }
            at[--k]++;
            continue;
        }
        if (k == len)
            break; /* a state at every step */
        if (++tried > FILL_TRIES) {
            rc = mf_err_set(MF_ELIMIT,
                            "no original run within %d steps "
                            "tried",
                            FILL_TRIES);
            break;
        }
        cand[k + 1].n = 0;
        rc = states(&cand[k + 1], m, cand[k].v + (size_t)at[k] * n,
                    t->inputs + (size_t)(k + 1) * n);
        at[++k] = 0;
    }
    for (int q = 0; q <= len && rc == 0; q++)
        rc = obs_of(t->expect + (size_t)q * t->nobs, t->nobs, m,
                    cand[q].v + (size_t)at[q] * n);
    for (int q = 0; q <= len; q++)
        MF_VEC_FREE(cand[q]);
    free(cand);
    free(at);
    return rc;
}
