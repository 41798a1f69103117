/* lockstep.c - equivalence proofs by lock-step induction (lockstep.h):
 * from equal states, every mutant successor (and initial state) is an
 * original one with the same state and observables, and the mutant
 * accepts wherever the original does; reversed, every original successor
 * is a mutant one (no definite kill). Both are refinements over choices,
 * in solvers a group of mutants shares, the step taken from the original's
 * reachable states when they are known (encoded as a trie). It finds no
 * test. */
#include "lockstep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copies.h"
#include "refusal.h"
#include "z3util.h"

/* 1 if slot is an input cell of m (an IVAR, an input VAR). */
static int is_input_slot(const mf_model *m, int slot)
{
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (slot >= v->slot && slot < v->slot + v->nslots)
            return v->decl == MF_DECL_IVAR || v->is_input;
    }
    return 0;
}

/* States times inputs mf_lock_same_step evaluates at most. */
#define STEP_SAME_EVALS 200000L
int mf_lock_same_step(mf_batch *B, int j, const mf_reach *rs)
{
    const mf_model *m = B->m, *mm = B->mu[j].model;
    int item, kind = mf_explore_step_delta(m, mm, &item);
    if (kind == MF_STEP_SAME)
        return 1;
    long cnt = rs->ok ? (long)(rs->st.n / (m->nslots ? m->nslots : 1)) : 0;
    if (kind != MF_STEP_NEXT || !cnt)
        return 0;
    mf_reach_dom D;
    mf_reach_dom_open(&D, m, 1);
    int same =
        D.combos <= MF_REACH_INPUT_COMBOS && cnt * D.combos <= STEP_SAME_EVALS;
    mf_val *inp = mf_xcalloc((size_t)(m->nslots ? m->nslots : 1), sizeof *inp);
    mf_valset vals[2] = {{0}, {0}};
    for (long i = 0; i < cnt && same; i++) {
        const mf_val *cur = rs->st.v + (size_t)i * m->nslots;
        for (long cb = 0; cb < D.combos && same; cb++) {
            mf_reach_dom_set(&D, cb, inp);
            same = mf_explore_step_agrees(m, mm, item, cur, inp, vals);
        }
    }
    MF_VEC_FREE(vals[0]);
    MF_VEC_FREE(vals[1]);
    free(inp);
    mf_reach_dom_free(&D);
    return same;
}

/* Lock-step: every mutant successor (or initial state) of a state equal in
 * both is an original successor with the same state and observables, and the
 * mutant has a successor wherever the original has one. step 0: initial
 * states; step 1: from an arbitrary state, restricted to `rs` when given.
 * The solvers (lockq) serve one mutant or a group of them, each decided
 * under its selector: what one mutant's refinement learns holds for all
 * (a copy of the conditional mutant with fixed choices reads the
 * selectors; an original copy matches a successor whichever mutant shows
 * it), and the reachable states are encoded once. Reversed (rev), only
 * the successors, the other way: every original successor is a mutant
 * one, so the mutant has every original behaviour and no test kills it
 * definitely. */
typedef struct {
    int step, rev;
    int onrs; /* step 1 from the original's reachable states, all of them */
    Z3_solver A, V, W; /* candidates; original choices; mutant choices */
    mf_inputs *in, *vin, *win;
    Z3_ast *S, *SV, *SW;
    mf_unroll *O, *M, *P, *MW;
    Z3_ast en, g; /* enabledness and successor candidates */
} lockq;

/* A set of states as a formula over S, for lock-step's step from the
 * reachable states: a trie over the cells in `cells`, the states sorted
 * on them, each cell's values a disjunction conjoined with the trie of
 * the states that have the value. States that share a prefix share its
 * equalities, where a disjunction of one conjunction per state repeated
 * them and made the step queries several times dearer (docs/killing.md). */
typedef struct {
    const mf_val *rows; /* n values a state */
    int n;
    const int *cells;
    int ncells;
} trie_ctx;

static _Thread_local const trie_ctx *trie_sorting;

static int cmp_trie(const void *pa, const void *pb)
{
    const trie_ctx *T = trie_sorting;
    const mf_val *a = T->rows + (size_t) * (const int *)pa * T->n;
    const mf_val *b = T->rows + (size_t) * (const int *)pb * T->n;
    for (int k = 0; k < T->ncells; k++) {
        int s = T->cells[k];
        if (a[s] != b[s])
            return a[s] < b[s] ? -1 : 1;
    }
    return 0;
}

/* The trie of the states idx[lo..hi), equal on cells[0..k). */
static Z3_ast trie(mf_enc *E, Z3_ast *S, const trie_ctx *T, const int *idx,
                   int lo, int hi, int k)
{
    if (k == T->ncells)
        return mf_enc_keep(E, Z3_mk_true(mf_enc_ctx(E)));
    int s = T->cells[k];
    MF_VEC(Z3_ast) alt = {0};
    for (int a = lo; a < hi;) {
        mf_val v = T->rows[(size_t)idx[a] * T->n + s];
        int b = a;
        while (b < hi && T->rows[(size_t)idx[b] * T->n + s] == v)
            b++;
        Z3_ast both[2] = {mf_enc_eq(E, S[s], mf_enc_val(E, v)),
                          trie(E, S, T, idx, a, b, k + 1)};
        MF_VEC_PUSH(alt, mf_enc_and(E, 2, both));
        a = b;
    }
    Z3_ast r =
        alt.n == 1
            ? alt.v[0]
            : mf_enc_keep(E, Z3_mk_or(mf_enc_ctx(E), (unsigned)alt.n, alt.v));
    MF_VEC_FREE(alt);
    return r;
}

/* S is one of the states of rs (cnt of them, cnt > 0). */
static Z3_ast in_states(mf_batch *B, Z3_ast *S, const mf_reach *rs, int cnt)
{
    const mf_model *m = B->m;
    int n = m->nslots, nc = 0;
    int *cells = mf_xcalloc((size_t)(n + 1), sizeof *cells);
    for (int s = 0; s < n; s++)
        if (!is_input_slot(m, s) || m->vars[0].decl != MF_DECL_IVAR)
            cells[nc++] = s;
    int *idx = mf_xcalloc((size_t)cnt, sizeof *idx);
    for (int i = 0; i < cnt; i++)
        idx[i] = i;
    trie_ctx T = {rs->st.v, n, cells, nc};
    trie_sorting = &T;
    qsort(idx, (size_t)cnt, sizeof *idx, cmp_trie);
    trie_sorting = NULL;
    Z3_ast r = trie(B->E, S, &T, idx, 0, cnt, 0);
    free(idx);
    free(cells);
    return r;
}

static void lockq_open(mf_batch *B, lockq *L, int step, int rev,
                       const mf_reach *rs)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_model *m = B->m;
    memset(L, 0, sizeof *L);
    L->step = step;
    L->rev = rev;
    L->A = mf_z3_solver(c, B->o, B->qfbv);
    L->V = mf_z3_solver(c, B->o, B->qfbv);
    L->W = mf_z3_solver(c, B->o, B->qfbv);
    L->in = mf_inputs_new(E, L->A, "li");
    L->vin = mf_inputs_new(E, L->V, "lv");
    L->win = mf_inputs_new(E, L->W, "lwi");
    if (step) {
        L->S = mf_enc_fresh_state(E, "ls");
        L->SV = mf_enc_fresh_state(E, "lsv");
        L->SW = mf_enc_fresh_state(E, "lsw");
    }
    L->O = mf_unroll_new(E, L->A, "lo", 0, L->in, 0, L->S);
    L->M = mf_unroll_new(EM, L->A, "lm", B->meta, L->in, 0, L->S);
    L->P = rev ? mf_unroll_new(EM, L->V, "lp", B->meta, L->vin, 0, L->SV)
               : mf_unroll_new(E, L->V, "lp", 0, L->vin, 0, L->SV);
    if (rev && B->meta)
        mf_enc_assert_sels(EM, L->V);
    L->MW = mf_unroll_new(EM, L->W, "lmw", B->meta, L->win, 0, L->SW);
    if (B->meta) {
        mf_enc_assert_sels(EM, L->A);
        mf_enc_assert_sels(EM, L->W);
    }
    mf_unroll_extend(L->O, step);
    mf_unroll_extend(L->M, step);
    mf_unroll_extend(L->P, step);
    mf_unroll_extend(L->MW, step);
    Z3_solver_assert(c, L->W, mf_unroll_ok(L->MW, step));
    if (step) {
        Z3_solver_assert(c, L->A, mf_unroll_ok(L->O, 0));
        Z3_solver_assert(c, L->A, mf_unroll_ok(L->M, 0));
        Z3_solver_assert(c, L->V, mf_unroll_ok(L->P, 0));
        if (rs && rs->ok) {
            L->onrs = 1;
            int n = m->nslots, cnt = rs->st.n / (n ? n : 1);
            Z3_solver_assert(c, L->A,
                             cnt ? in_states(B, L->S, rs, cnt)
                                 : mf_enc_keep(E, Z3_mk_false(c)));
        }
    }
    /* Enabledness candidates: the original accepts, some mutant choice
     * fails (over-approximates a refusal). Successor candidates: the
     * mutant's step. */
    L->en = mf_z3_lit(E, "le");
    Z3_ast ep[2] = {mf_unroll_ok(L->O, step),
                    mf_enc_not(E, mf_unroll_ok(L->M, step))};
    mf_z3_implies(E, L->A, L->en, mf_enc_and(E, 2, ep));
    L->g = mf_z3_lit(E, "lg");
    mf_z3_implies(E, L->A, L->g, mf_unroll_ok(rev ? L->O : L->M, step));
}

static void lockq_close(mf_batch *B, lockq *L)
{
    mf_unroll_free(L->O);
    mf_unroll_free(L->M);
    mf_unroll_free(L->P);
    mf_unroll_free(L->MW);
    mf_inputs_free(L->in);
    mf_inputs_free(L->vin);
    mf_inputs_free(L->win);
    free(L->S);
    free(L->SV);
    free(L->SW);
    mf_z3_solver_free(B->c, L->A);
    mf_z3_solver_free(B->c, L->V);
    mf_z3_solver_free(B->c, L->W);
}

/* Enabledness of mutant j in L (the assumptions as[0..na), then the
 * literal of j's own points and L->en at as[na], as[na + 1]): a candidate
 * point (state, input) where the original accepts and some mutant choice
 * fails is confirmed by the simulator (a refusal: not proved), or it gets
 * a choice of the mutant that succeeds there from W; a copy of the mutant
 * with those choices rules out every point where they succeed (blocking
 * points one at a time gives up where there are many; a few choices cover
 * them). 1 enabled wherever the original is, 0 not, -1 unknown. */
static int lockq_enabled(mf_batch *B, lockq *L, int j, Z3_ast *as, int na,
                         int *iters, char *why, size_t whyn)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    int step = L->step, n = B->m->nslots;
    Z3_solver A = L->A, W = L->W;
    Z3_ast mine = as[na];
    for (;;) {
        if (++*iters > B->o->cegis_max) {
            snprintf(why, whyn, "lock-step: iteration limit");
            return -1;
        }
        Z3_lbool r = mf_z3_check(c, A, na + 2, as, why, whyn);
        if (r == Z3_L_FALSE)
            return 1;
        if (r == Z3_L_UNDEF)
            return -1;
        Z3_model mdl = mf_z3_model(c, A);
        Z3_ast *ic = mf_inputs_state(L->in, step);
        mf_val *inp = mf_z3_eval_state(E, mdl, ic, n);
        mf_val *sv = step ? mf_z3_eval_state(E, mdl, L->S, n) : NULL;
        for (int q = 0; q < n; q++)
            if (!ic[q])
                inp[q] = 0;
        int ref = mf_reach_refuses(B->mu[j].model, sv, inp);
        Z3_lbool wr = Z3_L_FALSE;
        if (ref == 0) {
            Z3_solver_push(c, W);
            mf_copy_fix_inputs(E, W, L->win, L->in, mdl, step);
            if (step)
                Z3_solver_assert(c, W, mf_z3_state_is(E, L->SW, sv, n));
            wr = mf_z3_check(c, W, na, as, why, whyn);
        }
        if (wr == Z3_L_TRUE) {
            Z3_model wm = mf_z3_model(c, W);
            mf_unroll *X = mf_unroll_new(EM, A, "lxe", B->meta, L->in, 0, L->S);
            mf_unroll_extend(X, step);
            mf_copy_fix_choices(EM, A, X, L->MW, wm, step);
            mf_z3_implies(E, A, L->en, mf_enc_not(E, mf_unroll_ok(X, step)));
            mf_unroll_free(X);
            mf_z3_model_free(c, wm);
        } else {
            /* Only this point: W disagrees with the simulator. */
            mf_astvec pt = {0};
            for (int q = 0; q < n; q++)
                if (ic[q])
                    MF_VEC_PUSH(pt, mf_enc_eq(E, ic[q], mf_enc_val(E, inp[q])));
            if (step)
                MF_VEC_PUSH(pt, mf_z3_state_is(E, L->S, sv, n));
            mf_z3_implies(E, A, mine, mf_enc_not(E, mf_enc_and(E, pt.n, pt.v)));
            MF_VEC_FREE(pt);
        }
        if (ref == 0)
            Z3_solver_pop(c, W, 1);
        free(inp);
        free(sv);
        mf_z3_model_free(c, mdl);
        if (ref != 0)
            return 0;
        if (wr == Z3_L_UNDEF)
            return -1;
    }
}

/* The successor of copy T in the candidate model (T's state `ms` at the
 * step) is matched by the verifier's model vm: a copy X with vm's choices
 * blocks it under L->g. A choice that is a cell's new value is bound to
 * T's value of that cell rather than fixed: one copy then matches every
 * successor of that shape (with every choice fixed, the copies needed can
 * run past the iteration limit). EX, xmeta: the matcher's encoder. */
static void lockq_block(mf_batch *B, lockq *L, mf_unroll *T, Z3_ast *ms,
                        mf_enc *EX, int xmeta, Z3_model vm)
{
    Z3_context c = B->c;
    mf_enc *E = B->E;
    int step = L->step, n = B->m->nslots;
    mf_unroll *X = mf_unroll_new(EX, L->A, "lx", xmeta, L->in, 0, L->S);
    mf_unroll_extend(X, step);
    for (int k = 0; k <= step; k++) {
        int nx;
        Z3_ast *xc = mf_unroll_choices(X, k, &nx);
        const int *cs = mf_unroll_choice_slots(X, k);
        Z3_ast *mk = mf_unroll_state(T, k);
        mf_valset cv = {0};
        mf_copy_choices(E, vm, L->P, k, &cv);
        for (int i = 0; i < nx && i < cv.n; i++)
            Z3_solver_assert(
                c, L->A,
                mf_enc_eq(E, xc[i],
                          cs[i] >= 0 ? mk[cs[i]] : mf_enc_val(E, cv.v[i])));
        MF_VEC_FREE(cv);
    }
    Z3_ast *xs = mf_unroll_state(X, step);
    Z3_ast *eqs = mf_xcalloc((size_t)(n + 3), sizeof *eqs);
    int ne = 0;
    for (int s = 0; s < n; s++)
        eqs[ne++] = mf_enc_eq(E, xs[s], ms[s]);
    eqs[ne++] =
        mf_enc_obs_eq(E, mf_unroll_obs(X, step), mf_unroll_obs(T, step));
    eqs[ne++] = mf_unroll_ok(X, step);
    mf_z3_implies(E, L->A, L->g, mf_enc_not(E, mf_enc_and(E, ne, eqs)));
    free(eqs);
    mf_unroll_free(X);
}

/* Successors of mutant j in L (assumptions as[0..na), L->g at as[na + 1]):
 * each candidate successor (the mutant's; reversed, the original's) no
 * copy matches gets choices of the other model that reproduce it from the
 * verifier V, or none: not proved. 1 proved, 0 not, -1 unknown. */
static int lockq_successors(mf_batch *B, lockq *L, Z3_ast *as, int na,
                            int *iters, char *why, size_t whyn)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    int step = L->step, n = B->m->nslots;
    Z3_solver A = L->A, V = L->V;
    /* T: the copy whose successor is matched; the matcher's encoder. */
    mf_unroll *T = L->rev ? L->O : L->M;
    mf_enc *EX = L->rev ? EM : E;
    int xmeta = L->rev ? B->meta : 0;
    for (;;) {
        if (++*iters > B->o->cegis_max) {
            snprintf(why, whyn, "lock-step: iteration limit");
            return -1;
        }
        Z3_lbool r = mf_z3_check(c, A, na + 2, as, why, whyn);
        if (r == Z3_L_UNDEF)
            return -1;
        if (r == Z3_L_FALSE)
            return 1;
        Z3_model mdl = mf_z3_model(c, A);
        Z3_solver_push(c, V);
        mf_copy_fix_inputs(E, V, L->vin, L->in, mdl, step);
        Z3_ast *ms = mf_unroll_state(T, step);
        Z3_ast *ps = mf_unroll_state(L->P, step);
        for (int s = 0; s < n; s++)
            Z3_solver_assert(
                c, V,
                mf_enc_eq(E, ps[s], mf_enc_val(E, mf_enc_eval(E, mdl, ms[s]))));
        if (step) {
            Z3_ast *p0 = mf_unroll_state(L->P, 0);
            for (int s = 0; s < n; s++)
                Z3_solver_assert(
                    c, V,
                    mf_enc_eq(E, p0[s],
                              mf_enc_val(E, mf_enc_eval(E, mdl, L->S[s]))));
        }
        int no = mf_enc_nobs(E);
        mf_val *vals = mf_xcalloc((size_t)(no + 1), sizeof *vals);
        Z3_ast *mo = mf_unroll_obs(T, step);
        for (int i = 0; i < no; i++)
            vals[i] = mf_enc_eval(E, mdl, mo[i]);
        Z3_solver_assert(c, V,
                         mf_z3_obs_is(E, mf_unroll_obs(L->P, step), vals));
        free(vals);
        Z3_solver_assert(c, V, mf_unroll_ok(L->P, step));
        Z3_lbool r2 = mf_z3_check(c, V, L->rev ? na : 0, as, why, whyn);
        if (r2 != Z3_L_TRUE) {
            Z3_solver_pop(c, V, 1);
            mf_z3_model_free(c, mdl);
            return r2 == Z3_L_UNDEF ? -1 : 0;
        }
        Z3_model vm = mf_z3_model(c, V);
        lockq_block(B, L, T, ms, EX, xmeta, vm);
        mf_z3_model_free(c, vm);
        Z3_solver_pop(c, V, 1);
        mf_z3_model_free(c, mdl);
    }
}

/* Mutant j in lockq L: 1 proved, 0 not, -1 unknown. */
static int lockq_decide(mf_batch *B, lockq *L, int j, char *why, size_t whyn)
{
    int iters = 0;
    Z3_ast as[3];
    int na = mf_batch_assume(B, j, as);
    /* Points only j's simulator rules out are j's alone. */
    as[na] = mf_z3_lit(B->E, "lj");
    as[na + 1] = L->en;
    /* From the reachable states, mf_refusal_capable may have tried every
     * point already (where there are thousands, the enabledness
     * refinement ran a mutant's whole budget without covering them). */
    int tried = L->step && L->onrs && B->mu[j].refcap == MF_REF_NEVER;
    if (!L->rev && !tried) {
        int r = lockq_enabled(B, L, j, as, na, &iters, why, whyn);
        if (r != 1)
            return r;
    }
    as[na + 1] = L->g;
    return lockq_successors(B, L, as, na, &iters, why, whyn);
}

int mf_lock_step(mf_batch *B, int j, int step, const mf_reach *rs, char *why,
                 size_t whyn)
{
    lockq L;
    lockq_open(B, &L, step, 0, rs);
    int r = lockq_decide(B, &L, j, why, whyn);
    lockq_close(B, &L);
    return r;
}

/* Lock-step (rev or not) for the mutants marked in `live`, initial states
 * then a step, in solvers they share, each check within the solver
 * timeout and the mutant's wall budget; those not proved are cleared.
 * After a check that gave up, the shared solvers are built again for the
 * mutants after it: a Z3 4.8 solver that hit its timeout answers the
 * checks after it with "timeout" at once (docs/killing.md, Limits).
 * Returns how many are left (proved). */
static int lockstep_all(mf_batch *B, int *live, int rev)
{
    mf_reach *rs = B->rs;
    char why[256];
    double saved_wall = mf_z3_deadline();
    unsigned saved_to = mf_z3_wall_timeout();
    mf_z3_set_wall_timeout(B->o->timeout_ms);
    for (int step = 0; step < 2 && mf_batch_nmarked(B, live); step++) {
        if (step && !rs->done)
            mf_reach_compute(B->m, rs);
        if (step && !rev)
            mf_refusal_tried(B, live);
        const mf_reach *from = step && rs->ok ? rs : NULL;
        /* The step needs no solver where the mutant steps as the
         * original (either way). */
        int *ask = mf_xmalloc(sizeof *ask * (size_t)B->nmut);
        for (int j = 0; j < B->nmut; j++)
            ask[j] = live[j] && !(step && mf_lock_same_step(B, j, rs));
        int asked = mf_batch_nmarked(B, ask) > 0;
        lockq L;
        if (asked)
            lockq_open(B, &L, step, rev, from);
        for (int j = 0; j < B->nmut; j++) {
            if (!ask[j])
                continue;
            double dl = mf_z3_now() + B->o->timeout_ms / 1000.0;
            mf_z3_set_deadline(saved_wall > 0 && dl > saved_wall ? saved_wall
                                                                 : dl);
            int r = lockq_decide(B, &L, j, why, sizeof why);
            live[j] = ask[j] = r == 1;
            if (r < 0 && mf_batch_marked_after(B, ask, j)) {
                lockq_close(B, &L);
                lockq_open(B, &L, step, rev, from);
            }
        }
        if (asked)
            lockq_close(B, &L);
        free(ask);
    }
    mf_z3_set_deadline(saved_wall);
    mf_z3_set_wall_timeout(saved_to);
    if (mf_enc_unsupported(B->E) || mf_enc_unsupported(B->EM))
        memset(live, 0, sizeof *live * (size_t)B->nmut);
    return mf_batch_nmarked(B, live);
}

const char *mf_lock_method(const mf_reach *rs)
{
    return rs->ok ? "lock-step induction on the original's reachable states"
                  : "lock-step induction";
}

int mf_lock_prove(mf_batch *S, int *mark)
{
    int n = S->nmut;
    int *p = mf_xmalloc(sizeof *p * (size_t)n);
    memcpy(p, mark, sizeof *p * (size_t)n);
    int proved = lockstep_all(S, p, 0);
    const mf_reach *rs = S->rs;
    int unsup = mf_enc_unsupported(S->E) || mf_enc_unsupported(S->EM);
    for (int j = 0; j < n; j++) {
        if (!mark[j])
            continue;
        S->mu[j].lsdone = !unsup;
        if (!p[j])
            continue;
        mf_batch_settle(S, j, MF_V_EQUIVALENT, 0, NULL, "%s",
                        mf_lock_method(rs));
        mark[j] = 0;
    }
    free(p);
    return proved;
}

void mf_lock_no_definite(mf_batch *B, int *live)
{
    int n = B->nmut;
    int *p = mf_xcalloc((size_t)n, sizeof *p);
    memcpy(p, live, sizeof *p * (size_t)n);
    if (lockstep_all(B, p, 1))
        for (int j = 0; j < n; j++)
            if (p[j]) {
                snprintf(B->mu[j].v->method, sizeof B->mu[j].v->method,
                         "no definite kill: the mutant has every original "
                         "behaviour");
                B->mu[j].searched = MF_SEARCHED_DEFINITE;
                live[j] = 0;
            }
    free(p);
}
