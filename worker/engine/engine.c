/* engine.c - deciding mutants with Z3 (DESIGN.md section 4).
 *
 * Deterministic model and mutant: one solver per batch holds an unrolling of
 * the original and one of the meta-mutant; each mutant is checked under its
 * selector and a per-depth goal literal, deepening the bound, so the first
 * answer is a shortest test. Non-deterministic: counterexample-guided
 * refinement (a synthesis solver proposes, a verification solver looks for a
 * matching behaviour, each behaviour found comes back as a copy of the
 * unrolling with its choices fixed). Survivors go to the proof portfolio.
 * Every kill is replayed by the simulator before it is reported. */
#include "engine.h"
#include "explore.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "encode.h"
#include "quant.h"
#include "reach.h"
#include "replay.h"
#include "sim.h"
#include "z3util.h"

#define MF_REACH_INPUT_COMBOS 4096

void mf_engine_opts_default(mf_engine_opts *o)
{
    memset(o, 0, sizeof *o);
    o->bound = 20;
    o->notion = MF_REQ_AUTO;
    o->engine = MF_ENGINE_CEGIS;
    o->mode = MF_MODE_BATCH;
    o->timeout_ms = 10000;
    o->mutant_ms = 30000;
    o->rlimit = 0;
    o->prove = 1;
    o->cegis_max = 400;
    o->explicit_max = 20000;
}


static int is_input_slot(const mf_model *m, int slot)
{
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (slot >= v->slot && slot < v->slot + v->nslots)
            return v->decl == MF_DECL_IVAR || v->is_input;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* ------------------------------------------------------------------ */
/* Batches                                                              */


/* 1 if j needs no refusal search past length 0: the explorer found its
 * shortest potential kill and that kill is a difference of observables.
 * No kill of j is shorter, and at that length the search for differences
 * finds one. Used by refusal_capable only (see there). */
static int xno_refusal(const mf_batch *B, int j)
{
    return B->mu[j].xlen >= 0 && !B->mu[j].xref;
}

/* The deterministic search runs on groups of mutants that change the same
 * item (the same site, DESIGN.md section 5): one conditional-mutant solver
 * per group, so that no solver carries every site of a large batch, and all
 * groups advance depth by depth together, so that a test found at depth d in
 * one group is a shortest kill for any mutant of another group it
 * distinguishes. */
/* 16: a joint query over more variants costs more than the queries it
 * saves (car_alarm, bound 6, CPU in checks: 64 per group 2.6 s, 16 1.8 s,
 * 256 7.4 s). */
#define GROUP_MAX 16

typedef struct {
    mf_enc *E, *EM; /* owned when own */
    int own;
    mf_batch_pair x; /* the original (hard ok) and the group's variants */
    int *idx; /* batch indices; group-local selector q is idx[q] */
    int n;
} dgroup;

/* Mutant idx[q] of group G differs at depth d in the solver's last model:
 * record the kill, and replay the test on every other undecided mutant of
 * the batch (each was shown not to differ before d, so a replay that
 * distinguishes is a shortest kill too). */
static void det_kill(mf_batch *B, dgroup *G, int d, int q, const int *which)
{
    Z3_context c = B->c;
    int j = G->idx[q];
    Z3_model mdl = mf_z3_model(c, G->x.s);
    mf_test *t =
        mf_z3_test(G->E, mdl, G->x.in, G->x.o, NULL, d);
    Z3_ast r2 = NULL;
    if (Z3_model_eval(c, mdl, mf_unroll_ok(G->x.m, d), 1, &r2) && r2 &&
        Z3_get_bool_value(c, r2) == Z3_L_FALSE)
        t->mrefuses = d;
    mf_z3_model_free(c, mdl);
    mf_batch_kill(B, j, t, MF_N_DETERMINISTIC);
    if (B->mu[j].v->kind == MF_V_KILLED)
        for (int k = 0; k < B->nmut; k++)
            if (k != j && which[k] && B->mu[k].todo)
                mf_batch_replay_kill(B, k, B->mu[j].v->test, MF_N_DETERMINISTIC, 1);
}

static void group_open(mf_batch *B, dgroup *G)
{
    Z3_context c = B->c;
    if (B->meta && B->nmut > 1) {
        mf_variant *vs = mf_xcalloc((size_t)G->n, sizeof *vs);
        for (int q = 0; q < G->n; q++) {
            vs[q].item = B->mu[G->idx[q]].mut->item;
            vs[q].repl = B->mu[G->idx[q]].mut->repl;
        }
        G->E = G->EM = mf_enc_new(c, B->m, vs, G->n, NULL, B->o->encoding);
        G->own = 1;
        free(vs);
    } else {
        G->E = B->E;
        G->EM = B->EM;
    }
    mf_batch_pair_open(&G->x, B, G->E, G->EM, B->meta, 1, "");
}

static void group_close(mf_batch *B, dgroup *G)
{
    mf_batch_pair_close(&G->x, B);
    const char *u = G->own ? mf_enc_unsupported(G->E) : NULL;
    if (u)
        for (int q = 0; q < G->n; q++)
            if (B->mu[G->idx[q]].v->kind != MF_V_KILLED)
                mf_batch_settle(B, G->idx[q], MF_V_ERROR, 0, NULL, "%s", u);
    if (G->own)
        mf_enc_free(G->E);
    free(G->idx);
}

/* Depth d of group G: one query for all its undecided mutants, "some
 * selected mutant differs at d". Unsat proves every one of them at once; a
 * model names one mutant (its selector), killed; then again without it.
 * Returns 1 if the group had mutants to check. */
static int group_depth(mf_batch *B, dgroup *G, int d, const int *which)
{
    Z3_context c = B->c;
    mf_enc *E = G->E;
    mf_unroll *O = G->x.o, *M = G->x.m;
    int live = 0;
    for (int q = 0; q < G->n; q++)
        live += B->mu[G->idx[q]].todo;
    if (!live)
        return 0;
    mf_unroll_extend(O, d);
    mf_unroll_extend(M, d);
    Z3_ast parts[2];
    Z3_ast *pre = mf_xcalloc((size_t)(2 * d + 2), sizeof *pre);
    int np = 0;
    for (int i = 0; i < d; i++) {
        pre[np++] = mf_unroll_ok(M, i);
        pre[np++] = mf_enc_obs_eq(E, mf_unroll_obs(O, i), mf_unroll_obs(M, i));
    }
    parts[0] = mf_enc_and(E, np, pre);
    free(pre);
    Z3_ast dd[2] = {mf_enc_not(E, mf_unroll_ok(M, d)),
                    mf_enc_not(E, mf_enc_obs_eq(E, mf_unroll_obs(O, d),
                                     mf_unroll_obs(M, d)))};
    parts[1] = mf_enc_keep(E, Z3_mk_or(c, 2, dd));
    Z3_ast g = mf_z3_lit(E, "g");
    mf_z3_implies(E, G->x.s, g, mf_enc_and(E, 2, parts));
    for (;;) {
        MF_VEC(Z3_ast) sels = {0};
        int last = -1;
        for (int q = 0; q < G->n; q++)
            if (B->mu[G->idx[q]].todo) {
                if (B->meta)
                    MF_VEC_PUSH(sels, mf_enc_sel(G->EM, q));
                last = q;
            }
        if (last < 0) {
            MF_VEC_FREE(sels);
            break;
        }
        Z3_ast as[2];
        int na = 0;
        as[na++] = g;
        if (B->meta) {
            Z3_ast pick = mf_z3_lit(E, "pick");
            mf_z3_implies(E, G->x.s, pick,
                           mf_enc_keep(E, Z3_mk_or(c, (unsigned)sels.n,
                                                   sels.v)));
            as[na++] = pick;
        }
        MF_VEC_FREE(sels);
        char why[256];
        Z3_lbool r = mf_z3_check(c, G->x.s, na, as, why, sizeof why);
        if (r == Z3_L_FALSE)
            break;
        if (r == Z3_L_UNDEF) {
            /* The joint query gave up: each on its own, then. */
            for (int q = 0; q < G->n; q++) {
                if (!B->mu[G->idx[q]].todo)
                    continue;
                Z3_ast a1[2];
                int n1 = 0;
                if (B->meta)
                    a1[n1++] = mf_enc_sel(G->EM, q);
                a1[n1++] = g;
                r = mf_z3_check(c, G->x.s, n1, a1, why, sizeof why);
                if (r == Z3_L_UNDEF)
                    mf_batch_settle(B, G->idx[q], MF_V_UNKNOWN, 0, NULL, "%s", why);
                else if (r == Z3_L_TRUE)
                    det_kill(B, G, d, q, which);
            }
            break;
        }
        int k = last;
        if (B->meta) {
            Z3_model mdl = mf_z3_model(c, G->x.s);
            for (int q = 0; q < G->n; q++) {
                Z3_ast v = NULL;
                if (B->mu[G->idx[q]].todo &&
                    Z3_model_eval(c, mdl, mf_enc_sel(G->EM, q), 1, &v) && v &&
                    Z3_get_bool_value(c, v) == Z3_L_TRUE) {
                    k = q;
                    break;
                }
            }
            mf_z3_model_free(c, mdl);
        }
        det_kill(B, G, d, k, which);
    }
    /* This depth is done: its query goes, so the solver does not keep
     * branching on it. Every mutant of the group still undecided was just
     * shown not to differ at d, so every later kill has equal observables
     * and an accepting mutant at d: a fact, asserted for good (it holds for
     * every selector still to be checked; the others are never checked
     * again). */
    Z3_solver_assert(c, G->x.s, mf_enc_not(E, g));
    Z3_ast fact[2] = {mf_unroll_ok(M, d),
                      mf_enc_obs_eq(E, mf_unroll_obs(O, d), mf_unroll_obs(M, d))};
    Z3_solver_assert(c, G->x.s, mf_enc_and(E, 2, fact));
    return 1;
}

/* --- deterministic: shortest tests, depth by depth --- */
static void det_search(mf_batch *B, const int *which)
{
    MF_VEC(dgroup) gs = {0};
    for (int j = 0; j < B->nmut; j++) {
        if (!which[j] || !B->mu[j].todo)
            continue;
        dgroup *G = NULL;
        for (int i = 0; i < gs.n && B->meta; i++) {
            dgroup *h = &gs.v[i];
            if (h->n < GROUP_MAX &&
                B->mu[h->idx[0]].mut->item == B->mu[j].mut->item)
                G = h;
        }
        if (!G) {
            dgroup z = {0};
            z.idx = mf_xcalloc(GROUP_MAX, sizeof *z.idx);
            MF_VEC_PUSH(gs, z);
            G = &gs.v[gs.n - 1];
        }
        G->idx[G->n++] = j;
    }
    for (int i = 0; i < gs.n; i++)
        group_open(B, &gs.v[i]);
    int any = 1;
    for (int d = 0; d <= B->o->bound && any; d++) {
        any = 0;
        for (int i = 0; i < gs.n; i++)
            any |= group_depth(B, &gs.v[i], d, which);
    }
    for (int i = 0; i < gs.n; i++)
        group_close(B, &gs.v[i]);
    MF_VEC_FREE(gs);
    for (int j = 0; j < B->nmut; j++)
        if (which[j] && B->mu[j].todo)
            B->mu[j].v->bound = B->o->bound;
}

static void fix_inputs(mf_enc *E, Z3_solver s, mf_inputs *to, mf_inputs *from,
                       Z3_model mdl, int d)
{
    const mf_model *m = NULL;
    m = mf_enc_model(E);
    for (int k = 0; k <= d; k++) {
        Z3_ast *a = mf_inputs_state(to, k), *b = mf_inputs_state(from, k);
        for (int sl = 0; sl < m->nslots; sl++)
            if (a[sl] && b[sl] && a[sl] != b[sl])
                Z3_solver_assert(mf_enc_ctx(E), s,
                                 mf_enc_eq(E, a[sl], mf_enc_val(E, mf_enc_eval(
                                                              E, mdl, b[sl]))));
    }
}

/* Choices of copy u made uniform over the transitions 1..d (choice i of
 * step k equals choice i of step 1): a heuristic that makes the behaviour
 * the verifier returns general, so one blocking copy covers many inputs. */
static Z3_ast uniform(mf_enc *E, mf_unroll *u, int d)
{
    MF_VEC(Z3_ast) x = {0};
    int n1;
    Z3_ast *c1 = d >= 1 ? mf_unroll_choices(u, 1, &n1) : NULL;
    for (int k = 2; k <= d; k++) {
        int nk;
        Z3_ast *ck = mf_unroll_choices(u, k, &nk);
        for (int i = 0; i < nk && i < n1; i++)
            MF_VEC_PUSH(x, mf_enc_eq(E, ck[i], c1[i]));
    }
    Z3_ast r = mf_enc_and(E, x.n, x.v);
    MF_VEC_FREE(x);
    return r;
}

/* Blocking copies of the refinement. A behaviour the verifier finds at
 * length d becomes, in the synthesis solver, a copy (pot: of the original;
 * def: a pair, original and mutant) with its choices fixed. Copies are kept
 * across lengths: a behaviour at length d whose choices up to some d' < d
 * are those of a copy of length d' extends that copy instead of building a
 * new one. So when length d-1 was refuted, the lemma "some copy of length
 * d-1 matches" (block_lemma) still speaks about the copies of length d, and
 * the search at d only has the new step to look at, as the deterministic
 * search does with its facts. */
typedef struct {
    mf_unroll *u[2];
    int depth;
    mf_valset ch; /* choice values, step by step (copy 0's, then copy 1's) */
} blk;

typedef struct {
    MF_VEC(blk) v;
    int n;              /* copies per entry: 1 or 2 */
    mf_unroll *from[2]; /* the verifier's copies the values come from */
    mf_unroll *bind;    /* pot: the synthesis solver's mutant, see below */
    mf_enc *enc[2];
    int meta[2];
    const char *tag[2];
} bpool;

static void step_choices(mf_enc *E, Z3_model mdl, mf_unroll *u, int k,
                         mf_valset *out)
{
    int n;
    Z3_ast *a = mf_unroll_choices(u, k, &n);
    for (int i = 0; i < n; i++)
        MF_VEC_PUSH(*out, mf_enc_eval(E, mdl, a[i]));
}

/* A choice of a copy that is not fixed to a value: bound instead to the
 * value the synthesis solver's mutant shows (bpool.bind). */
#define CHOICE_BOUND INT64_MIN

/* Index of cell sl among the observables, -1 if it is not observable. */
static int obs_index(const mf_model *m, int sl)
{
    int n = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!v->is_observable)
            continue;
        if (sl >= v->slot && sl < v->slot + v->nslots)
            return n + sl - v->slot;
        n += v->nslots;
    }
    return -1;
}

/* Fix the choices of state k of copy x to v[0..nv); a CHOICE_BOUND one to
 * the observable of `to` (state k) it is the value of. */
static void fix_step_to(mf_enc *E, Z3_solver s, mf_unroll *x, int k,
                        const mf_val *v, int nv, mf_unroll *to)
{
    int n;
    Z3_ast *a = mf_unroll_choices(x, k, &n);
    const int *cs = to ? mf_unroll_choice_slots(x, k) : NULL;
    for (int i = 0; i < n && i < nv; i++) {
        Z3_ast val;
        if (v[i] == CHOICE_BOUND)
            val = mf_unroll_obs(to, k)[obs_index(mf_enc_model(E), cs[i])];
        else
            val = mf_enc_val(E, v[i]);
        Z3_solver_assert(mf_enc_ctx(E), s, mf_enc_eq(E, a[i], val));
    }
}

static void fix_step(mf_enc *E, Z3_solver s, mf_unroll *x, int k,
                     const mf_val *v, int nv)
{
    fix_step_to(E, s, x, k, v, nv, NULL);
}

/* Fix the choices of copy `x` (built like `from`) to their values in mdl,
 * for states 0..d. */
static void fix_choices(mf_enc *E, Z3_solver s, mf_unroll *x,
                        mf_unroll *from, Z3_model mdl, int d)
{
    for (int k = 0; k <= d; k++) {
        mf_valset v = {0};
        step_choices(E, mdl, from, k, &v);
        fix_step(E, s, x, k, v.v, v.n);
        MF_VEC_FREE(v);
    }
}

/* The copy (entry) for the behaviour in vm at length d, built or extended. */
static blk *block_copy(bpool *P, Z3_solver syn, mf_inputs *in, Z3_model vm,
                         int d)
{
    mf_valset v = {0};
    MF_VEC(int) at = {0}; /* start of each (step, copy) in v */
    for (int k = 0; k <= d; k++) {
        for (int c = 0; c < P->n; c++) {
            MF_VEC_PUSH(at, (int)v.n);
            step_choices(P->enc[c], vm, P->from[c], k, &v);
            if (!P->bind)
                continue;
            /* A choice that is an observable cell's new value is bound to
             * the mutant's: the copy then stands for every original
             * behaviour that makes those choices the way the mutant's
             * outputs show (beverage(16), the drink: one copy where
             * fixed values need one per sequence of drinks). */
            const int *cs = mf_unroll_choice_slots(P->from[c], k);
            const mf_model *m = mf_enc_model(P->enc[c]);
            for (int i = at.v[at.n - 1]; i < (int)v.n; i++) {
                int sl = cs[i - at.v[at.n - 1]];
                if (sl >= 0 && obs_index(m, sl) >= 0)
                    v.v[i] = CHOICE_BOUND;
            }
        }
    }
    MF_VEC_PUSH(at, (int)v.n);
    blk *b = NULL;
    for (int i = 0; i < P->v.n; i++) {
        blk *x = &P->v.v[i];
        if (x->depth >= d)
            continue;
        int npre = at.v[(x->depth + 1) * P->n];
        if ((int)x->ch.n == npre &&
            (!npre || !memcmp(x->ch.v, v.v, sizeof *v.v * (size_t)npre))) {
            b = x;
            break;
        }
    }
    int from = b ? b->depth + 1 : 0;
    if (!b) {
        blk nb = {{NULL, NULL}, 0, {0}};
        for (int c = 0; c < P->n; c++)
            nb.u[c] = mf_unroll_new(P->enc[c], syn, P->tag[c], P->meta[c],
                                    in, 0, NULL);
        MF_VEC_PUSH(P->v, nb);
        b = &P->v.v[P->v.n - 1];
    }
    for (int c = 0; c < P->n; c++) {
        mf_unroll_extend(b->u[c], d);
        for (int k = from; k <= d; k++)
            fix_step_to(P->enc[c], syn, b->u[c], k, v.v + at.v[k * P->n + c],
                        at.v[k * P->n + c + 1] - at.v[k * P->n + c],
                        P->bind);
    }
    b->depth = d;
    MF_VEC_FREE(b->ch);
    b->ch = v;
    MF_VEC_FREE(at);
    return b;
}

/* "Copy b behaves like `other`" up to length d: with other NULL (pairs),
 * copy 0 and copy 1 accept and show the same observables. */
static Z3_ast block_match(bpool *P, const blk *b, mf_unroll *other, int d)
{
    mf_enc *E = P->enc[0];
    Z3_ast x[3];
    int n = 0;
    x[n++] = mf_enc_all_ok(E, b->u[0], 0, d);
    if (P->n == 2)
        x[n++] = mf_enc_all_ok(P->enc[1], b->u[1], 0, d);
    x[n++] = mf_enc_all_obs_eq(E, b->u[0], P->n == 2 ? b->u[1] : other, d);
    return mf_enc_and(E, n, x);
}

/* The verifier (pushed once for the candidate in mdl) found a behaviour
 * that matches: its copy is blocked under g at length d (other: as in
 * block_match); the verifier is popped, both models freed. Returns the
 * copy's index in P->v. */
static int block_found(bpool *P, Z3_solver syn, Z3_solver ver,
                       mf_inputs *in, mf_unroll *other, Z3_ast g, int d,
                       Z3_model mdl)
{
    mf_enc *E = P->enc[0];
    Z3_context c = mf_enc_ctx(E);
    Z3_model vm = mf_z3_model(c, ver);
    blk *b = block_copy(P, syn, in, vm, d);
    mf_z3_implies(E, syn, g, mf_enc_not(E, block_match(P, b, other, d)));
    mf_z3_model_free(c, vm);
    Z3_solver_pop(c, ver, 1);
    mf_z3_model_free(c, mdl);
    return (int)(b - P->v.v);
}

/* After a length was refuted under the assumptions as[0..na): cond (NULL:
 * true) implies one of the n matches, asserted under the assumptions. */
static void refuted_lemma(mf_enc *E, Z3_solver syn, int n, Z3_ast *match,
                          Z3_ast cond, int na, Z3_ast *as)
{
    Z3_context c = mf_enc_ctx(E);
    Z3_ast l = mf_enc_keep(E, n ? Z3_mk_or(c, (unsigned)n, match)
                                : Z3_mk_false(c));
    if (cond)
        l = mf_enc_keep(E, Z3_mk_implies(c, cond, l));
    if (na)
        mf_z3_implies(E, syn, mf_enc_and(E, na, as), l);
    else
        Z3_solver_assert(c, syn, l);
}

/* Length d refuted: one of the copies at least d long matches up to d. */
static void block_lemma(bpool *P, Z3_solver syn, mf_unroll *other, int d,
                        Z3_ast cond, int na, Z3_ast *as)
{
    MF_VEC(Z3_ast) any = {0};
    for (int i = 0; i < P->v.n; i++)
        if (P->v.v[i].depth >= d)
            MF_VEC_PUSH(any, block_match(P, &P->v.v[i], other, d));
    refuted_lemma(P->enc[0], syn, any.n, any.v, cond, na, as);
    MF_VEC_FREE(any);
}

static void bpool_free(bpool *P)
{
    for (int i = 0; i < P->v.n; i++) {
        for (int c = 0; c < P->n; c++)
            mf_unroll_free(P->v.v[i].u[c]);
        MF_VEC_FREE(P->v.v[i].ch);
    }
    MF_VEC_FREE(P->v);
}


/* --- learnt steps ---
 *
 * Copies of one step (the initial states, or one transition from another
 * copy's state) with their choices fixed to values a verifier found: in the
 * synthesis solver such a copy speaks about every state at once, where a
 * copy of a whole behaviour speaks about one trace. Two uses:
 *  - potential killing when every cell that is not an input is observable
 *    (obs_fix_state): then a behaviour's observables fix its states, and an
 *    original behaviour matches a mutant's observable trace exactly when it
 *    goes through the same states, i.e. when the mutant's first state is an
 *    original initial state and each of its steps is an original step (from
 *    the same state under the same inputs). The refinement learns original
 *    steps instead of traces, and a candidate step no original step
 *    reproduces is a kill (which the simulator replays);
 *  - refusals: a candidate state where the mutant seems to refuse (some
 *    choice values fail) but has a successor is blocked by a copy of that
 *    successor's step, for every state the same choice values serve.
 * The original's steps are the same whatever the mutant: its library lives
 * as long as the batch, and every length of every mutant's search starts
 * with all of it. */
typedef struct mf_steplib {
    int w[2];    /* choices of an initial step, of a later step; -1 none yet */
    mf_valset v[2]; /* rows of w[x] values */
} steplib;

static int obs_fix_state(const mf_model *m)
{
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (v->decl != MF_DECL_IVAR && !v->is_input && !v->is_observable)
            return 0;
    }
    return 1;
}

static int steplib_rows(const steplib *L, int x)
{
    if (L->w[x] < 0)
        return 0;
    return L->w[x] ? (int)(L->v[x].n / L->w[x]) : (L->v[x].n ? 1 : 0);
}

/* Adds a row if it is new. */
static void steplib_add(steplib *L, int x, const mf_valset *row)
{
    if (L->w[x] < 0)
        L->w[x] = (int)row->n;
    if ((int)row->n != L->w[x])
        return;
    int n = steplib_rows(L, x);
    if (!L->w[x]) {
        if (!n)
            MF_VEC_PUSH(L->v[x], 0); /* the one empty row */
        return;
    }
    for (int r = 0; r < n; r++)
        if (!memcmp(L->v[x].v + (size_t)r * L->w[x], row->v,
                    sizeof *row->v * (size_t)L->w[x]))
            return;
    for (int i = 0; i < L->w[x]; i++)
        MF_VEC_PUSH(L->v[x], row->v[i]);
}

typedef MF_VEC(mf_unroll *) unrollvec;

/* Whose steps (the original's or the mutant copies'), their library, and
 * the verifier's copies: Q0 from the initial states, Q one step from the
 * arbitrary state q0 under the inputs of state 1 of qin. */
typedef struct {
    mf_batch *B;
    mf_enc *E;
    int meta;
    steplib *L;
    Z3_solver ver;
    mf_inputs *qin;
    Z3_ast *q0;
    mf_unroll *Q0, *Q;
    int bind; /* a choice that is a cell's new value takes M's value of it */
    unrollvec cps; /* the synthesis solver's copies */
} stepper;

static void stepper_open(stepper *S, mf_batch *B, mf_enc *E, int meta,
                         steplib *L, Z3_solver ver, const char *tag)
{
    char t[16];
    memset(S, 0, sizeof *S);
    S->B = B;
    S->E = E;
    S->meta = meta;
    S->L = L;
    S->ver = ver;
    snprintf(t, sizeof t, "%si", tag);
    S->qin = mf_inputs_new(E, ver, t);
    snprintf(t, sizeof t, "%ss", tag);
    S->q0 = mf_enc_fresh_state(E, t);
    snprintf(t, sizeof t, "%s0", tag);
    S->Q0 = mf_unroll_new(E, ver, t, meta, S->qin, 0, NULL);
    S->Q = mf_unroll_new(E, ver, tag, meta, S->qin, 0, S->q0);
    mf_unroll_extend(S->Q0, 0);
    mf_unroll_extend(S->Q, 1);
}

static void stepper_close(stepper *S)
{
    for (int i = 0; i < S->cps.n; i++)
        mf_unroll_free(S->cps.v[i]);
    MF_VEC_FREE(S->cps);
    mf_unroll_free(S->Q0);
    mf_unroll_free(S->Q);
    mf_inputs_free(S->qin);
    free(S->q0);
}

/* In syn, step d (an initial state for d = 0, else a step from M's state
 * d-1 under the inputs of state d) with its choices fixed to row r of the
 * library. *k: the copy's state that is the step's. */
static mf_unroll *step_copy(stepper *S, Z3_solver syn, mf_inputs *in,
                            mf_unroll *M, int d, int r, int *k)
{
    steplib *L = S->L;
    int x = d > 0;
    mf_unroll *u = mf_unroll_new(S->E, syn, "ps", S->meta, in, 0,
                                 d ? mf_unroll_state(M, d - 1) : NULL);
    if (d)
        mf_unroll_shift_inputs(u, d - 1);
    *k = x;
    mf_unroll_extend(u, x);
    int nch;
    Z3_ast *ch = mf_unroll_choices(u, x, &nch);
    const int *cs = mf_unroll_choice_slots(u, x);
    Z3_ast *to = mf_unroll_state(M, d);
    const mf_val *row = L->v[x].v + (size_t)r * (L->w[x] > 0 ? L->w[x] : 0);
    for (int i = 0; i < nch && i < L->w[x]; i++)
        Z3_solver_assert(mf_enc_ctx(S->E), syn,
                         cs[i] >= 0 && S->bind
                             ? mf_enc_eq(S->E, ch[i], to[cs[i]])
                             : mf_enc_eq(S->E, ch[i], mf_enc_val(S->E, row[i])));
    MF_VEC_PUSH(S->cps, u);
    return u;
}

/* "M's state d is the state of copy r's step" (the original's steps). */
static Z3_ast step_match(stepper *S, Z3_solver syn, mf_inputs *in,
                         mf_unroll *M, int d, int r)
{
    int k;
    mf_unroll *u = step_copy(S, syn, in, M, d, r, &k);
    Z3_ast m[2] = {mf_unroll_ok(u, k), mf_enc_obs_eq(S->E, mf_unroll_obs(u, k),
                                                     mf_unroll_obs(M, d))};
    return mf_enc_and(S->E, 2, m);
}

/* Rows from..end of the original's library as copies of step d, each
 * blocked under g ("M's step d is not this one"); the matches are pushed
 * to `steps`. */
static void block_steps(stepper *S, Z3_solver syn, mf_inputs *in,
                        mf_unroll *M, int d, int from, Z3_ast g,
                        mf_astvec *steps)
{
    for (int r = from; r < steplib_rows(S->L, d > 0); r++) {
        Z3_ast x = step_match(S, syn, in, M, d, r);
        MF_VEC_PUSH(*steps, x);
        mf_z3_implies(S->E, syn, g, mf_enc_not(S->E, x));
    }
}

/* Rows from..end of the mutant's library of accepting steps as copies of
 * step d: under gr, none of them accepts. */
static void block_accepting(stepper *S, Z3_solver syn, mf_inputs *in,
                            mf_unroll *M, int d, int from, Z3_ast gr)
{
    for (int r = from, k; r < steplib_rows(S->L, d > 0); r++) {
        mf_unroll *u = step_copy(S, syn, in, M, d, r, &k);
        mf_z3_implies(S->E, syn, gr, mf_enc_not(S->E, mf_unroll_ok(u, k)));
    }
}

/* After a satisfiable step query in the verifier: a model whose choices
 * agree with the library's first row wherever the step allows (the
 * choices this step does not depend on keep one value, so steps that
 * differ only there give one row, not many); found by dropping the
 * disagreeing choices named in unsat cores, a few rounds at most, else the
 * model at hand. */
static Z3_model canonical_step(stepper *S, mf_unroll *V, int k, int na,
                               Z3_ast *as, char *why, size_t whyn)
{
    Z3_context c = S->B->c;
    mf_enc *E = S->E;
    steplib *L = S->L;
    int nch;
    Z3_ast *ch = mf_unroll_choices(V, k, &nch);
    if (nch <= 0 || L->w[k] != nch || !steplib_rows(L, k))
        return mf_z3_model(c, S->ver);
    Z3_ast *lits = mf_xcalloc((size_t)(na + nch), sizeof *lits);
    int *live = mf_xcalloc((size_t)nch, sizeof *live);
    for (int i = 0; i < na; i++)
        lits[i] = as[i];
    const int *cs = mf_unroll_choice_slots(V, k);
    for (int i = 0; i < nch; i++) {
        live[i] = !(S->bind && cs[i] >= 0);
        Z3_ast l = mf_z3_lit(E, "pk");
        mf_z3_implies(E, S->ver, l, mf_enc_eq(E, ch[i], mf_enc_val(
                                                     E, L->v[k].v[i])));
        lits[na + i] = l;
    }
    Z3_model mdl = NULL;
    Z3_ast *sel = mf_xcalloc((size_t)(na + nch), sizeof *sel);
    memcpy(sel, lits, sizeof *sel * (size_t)na);
    for (int round = 0; round < 4 && !mdl; round++) {
        int n = na;
        for (int i = 0; i < nch; i++)
            if (live[i])
                sel[n++] = lits[na + i];
        Z3_lbool r = mf_z3_check(c, S->ver, n, sel, why, whyn);
        if (r == Z3_L_TRUE) {
            mdl = mf_z3_model(c, S->ver);
            break;
        }
        if (r != Z3_L_FALSE)
            break;
        Z3_ast_vector core = Z3_solver_get_unsat_core(c, S->ver);
        Z3_ast_vector_inc_ref(c, core);
        int dropped = 0;
        for (unsigned q = 0; q < Z3_ast_vector_size(c, core); q++) {
            Z3_ast a = Z3_ast_vector_get(c, core, q);
            for (int i = 0; i < nch; i++)
                if (live[i] && Z3_is_eq_ast(c, a, lits[na + i])) {
                    live[i] = 0;
                    dropped++;
                }
        }
        Z3_ast_vector_dec_ref(c, core);
        if (!dropped)
            break;
    }
    free(sel);
    free(lits);
    free(live);
    if (!mdl) { /* the first model again */
        char w2[64];
        if (mf_z3_check(c, S->ver, na, as, w2, sizeof w2) == Z3_L_TRUE)
            mdl = mf_z3_model(c, S->ver);
    }
    return mdl;
}

/* Is there a step from M's state d-1 (the initial states for d = 0) under
 * the inputs of state d in the synthesis model mdl, that accepts and, when
 * obs is given, shows those observables? Assumptions as[0..na). True: its
 * choice values are added to the library. */
static Z3_lbool step_find(stepper *S, Z3_model mdl, mf_inputs *in,
                          mf_unroll *M, int d, const mf_val *obs, int na,
                          Z3_ast *as, char *why, size_t whyn)
{
    Z3_context c = S->B->c;
    mf_enc *E = S->E;
    Z3_solver ver = S->ver;
    int n = S->B->m->nslots;
    int k = d > 0;
    mf_unroll *V = d ? S->Q : S->Q0;
    Z3_solver_push(c, ver);
    if (d) {
        mf_val *st = mf_z3_eval_state(E, mdl, mf_unroll_state(M, d - 1), n);
        Z3_solver_assert(c, ver, mf_z3_state_is(E, S->q0, st, n));
        free(st);
    }
    Z3_ast *a = mf_inputs_state(S->qin, k), *b = mf_inputs_state(in, d);
    for (int sl = 0; sl < n; sl++)
        if (a[sl] && b[sl])
            Z3_solver_assert(c, ver, mf_enc_eq(E, a[sl], mf_enc_val(
                                          E, mf_enc_eval(E, mdl, b[sl]))));
    if (obs)
        Z3_solver_assert(c, ver, mf_z3_obs_is(E, mf_unroll_obs(V, k), obs));
    Z3_solver_assert(c, ver, mf_unroll_ok(V, k));
    Z3_lbool r = mf_z3_check(c, ver, na, as, why, whyn);
    if (r == Z3_L_TRUE) {
        Z3_model vm = canonical_step(S, V, k, na, as, why, whyn);
        if (vm) {
            mf_valset row = {0};
            step_choices(E, vm, V, k, &row);
            const int *cs = mf_unroll_choice_slots(V, k);
            for (int i = 0; i < (int)row.n && S->bind; i++)
                if (cs[i] >= 0)
                    row.v[i] = 0;
            steplib_add(S->L, k, &row);
            MF_VEC_FREE(row);
            mf_z3_model_free(c, vm);
        } else {
            snprintf(why, whyn, "learnt steps: the verifier lost its model");
            r = Z3_L_UNDEF;
        }
    }
    Z3_solver_pop(c, ver, 1);
    return r;
}

/* Potential kill by a refusal at step d: a mutant, on a behaviour whose
 * observables follow an original run through d-1, has a state refusing
 * input d (confirmed by the simulator), and no original behaviour with the
 * same observables refuses there. The search runs for the mutants marked in
 * live[] (one, or the batch's in pot_joint): the synthesis query assumes
 * one of their selectors, and its model names the mutant. A kill clears
 * its mark (and, for several, the test is replayed on the others); the
 * search goes on while some are marked. A step found where a mutant seemed
 * to refuse blocks every state it serves, for every mutant (it has that
 * successor there, whichever mutant the selector picks). Returns 1 all
 * killed, 0 none of the rest refuses, -1 unknown, -2 undecided within its
 * share of the refinement budget (candidates the simulator shows refused by
 * the original too are blocked one state at a time: where original and
 * mutant both refuse in many states, e.g. gigamax, there are too many).
 * It runs in a solver of its own, built for length d: in the synthesis
 * solver, which holds every length's copies, each candidate's model cost
 * more than its query (dme1, a var-replace mutant: 75% of the CPU in
 * Z3_solver_get_model, the search at length 6 10.7 s). */
static int refusal_search(mf_batch *B, int *live, Z3_solver syn, Z3_solver ver,
                          mf_inputs *in, mf_inputs *vin, mf_unroll *O,
                          mf_unroll *M, mf_unroll *P, stepper *acc, int d);

static int pot_refusal(mf_batch *B, int *live, Z3_solver ver, mf_inputs *vin,
                       mf_unroll *P, stepper *acc, int d)
{
    mf_batch_pair x;
    mf_batch_pair_open(&x, B, B->E, B->EM, B->meta, 1, "r");
    mf_unroll_extend(x.o, d);
    mf_unroll_extend(x.m, d);
    int r = refusal_search(B, live, x.s, ver, x.in, vin, x.o, x.m, P, acc, d);
    mf_batch_pair_close(&x, B);
    return r;
}

static int refusal_search(mf_batch *B, int *live, Z3_solver syn, Z3_solver ver,
                          mf_inputs *in, mf_inputs *vin, mf_unroll *O,
                          mf_unroll *M, mf_unroll *P, stepper *acc, int d)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_model *m = B->m;
    int n = m->nslots, no = mf_enc_nobs(E);
    int iters = 0, killed = 0;
    Z3_ast gr = mf_z3_lit(E, "pr");
    Z3_ast parts[3] = {d ? mf_enc_all_ok(EM, M, 0, d - 1) : mf_enc_keep(E, Z3_mk_true(c)),
                       mf_enc_not(E, mf_unroll_ok(M, d)),
                       d ? mf_enc_all_obs_eq(E, O, M, d - 1)
                         : mf_enc_keep(E, Z3_mk_true(c))};
    mf_z3_implies(E, syn, gr, mf_enc_and(E, 3, parts));
    /* Observables fixing the state: the one original state with the
     * mutant's observables must accept input d (a step from it with free
     * choices), else no refusal there kills. */
    if (B->lib && d) {
        mf_unroll *u = mf_unroll_new(E, syn, "pa", 0, in, 0,
                                     mf_unroll_state(M, d - 1));
        mf_unroll_shift_inputs(u, d - 1);
        MF_VEC_PUSH(acc->cps, u);
        mf_z3_implies(E, syn, gr, mf_unroll_ok(u, 1));
    }
    /* No state where a learnt step of a mutant accepts refuses. */
    block_accepting(acc, syn, in, M, d, 0, gr);
    Z3_ast pick = mf_batch_pick(B, syn, live);
    for (;;) {
        if (++iters > B->o->cegis_max / 4)
            return -2;
        Z3_ast as[2];
        int na = 0;
        if (pick)
            as[na++] = pick;
        as[na++] = gr;
        char why[256];
        Z3_lbool r = mf_z3_check(c, syn, na, as, why, sizeof why);
        if (r != Z3_L_TRUE)
            return r == Z3_L_FALSE ? killed : -1;
        Z3_model mdl = mf_z3_model(c, syn);
        int q = mf_batch_picked(B, mdl, live);
        if (q < 0) {
            mf_z3_model_free(c, mdl);
            return -1;
        }
        mf_val *inp = mf_z3_eval_state(E, mdl, mf_inputs_state(in, d), n);
        for (int s = 0; s < n; s++)
            if (!mf_inputs_state(in, d)[s])
                inp[s] = 0;
        mf_val *ms = d ? mf_z3_eval_state(E, mdl, mf_unroll_state(M, d - 1), n)
                       : NULL;
        Z3_ast *ic = mf_inputs_state(in, d);
        MF_VEC(Z3_ast) pt = {0};
        for (int s = 0; s < n; s++)
            if (ic[s])
                MF_VEC_PUSH(pt, mf_enc_eq(E, ic[s], mf_enc_val(E, inp[s])));
        if (d)
            MF_VEC_PUSH(pt, mf_z3_state_is(E, mf_unroll_state(M, d - 1), ms, n));
        Z3_ast point = mf_enc_and(E, pt.n, pt.v);
        MF_VEC_FREE(pt);
        int res = 0;
        int refuses = mf_reach_refuses(B->mu[q].model, ms, inp);
        if (refuses == 1) {
            /* Does an original behaviour with these observables refuse? */
            Z3_solver_push(c, ver);
            fix_inputs(E, ver, vin, in, mdl, d);
            for (int k = 0; k < d; k++) {
                mf_val *vals = mf_z3_eval_state(E, mdl, mf_unroll_obs(M, k), no);
                Z3_solver_assert(c, ver, mf_z3_obs_is(E, mf_unroll_obs(P, k), vals));
                free(vals);
            }
            if (d)
                Z3_solver_assert(c, ver, mf_enc_all_ok(E, P, 0, d - 1));
            res = 1;
            for (int it = 0; it < 1000; it++) {
                Z3_lbool r2 = mf_z3_check(c, ver, 0, NULL, why, sizeof why);
                if (r2 == Z3_L_UNDEF) {
                    res = -1;
                    break;
                }
                if (r2 == Z3_L_FALSE)
                    break;
                Z3_model vm = mf_z3_model(c, ver);
                mf_val *ps = d ? mf_z3_eval_state(E, vm, mf_unroll_state(P, d - 1), n)
                               : NULL;
                int ref = mf_reach_refuses(m, ps, inp);
                if (ref != 0) {
                    res = 0; /* an original behaviour refuses too */
                    free(ps);
                    mf_z3_model_free(c, vm);
                    break;
                }
                if (!d) { /* the one empty prefix accepts: a kill */
                    free(ps);
                    mf_z3_model_free(c, vm);
                    break;
                }
                Z3_solver_assert(c, ver, mf_enc_not(E, mf_z3_state_is(
                                             E, mf_unroll_state(P, d - 1), ps, n)));
                free(ps);
                mf_z3_model_free(c, vm);
            }
            Z3_solver_pop(c, ver, 1);
        }
        if (res == 1) {
            mf_test *t =
                mf_z3_test(E, mdl, in, O, M, d);
            t->mrefuses = d;
            B->mu[q].killed_at = d;
            mf_batch_kill(B, q, t, MF_N_POTENTIAL);
            mf_batch_spread(B, live, q, d);
            killed = 1;
        } else if (res == 0) {
            /* The mutant accepts here: learn the step that does, which
             * blocks every state it serves; else this state alone (for q
             * alone). */
            int before = steplib_rows(acc->L, d > 0);
            Z3_ast sa[1];
            int ns = mf_batch_assume(B, q, sa);
            if (!refuses &&
                step_find(acc, mdl, in, M, d, NULL, ns, sa, why,
                          sizeof why) == Z3_L_TRUE &&
                steplib_rows(acc->L, d > 0) > before)
                block_accepting(acc, syn, in, M, d, before, gr);
            else
                mf_z3_implies(E, syn, gr,
                               ns ? mf_enc_keep(E, Z3_mk_implies(c, sa[0],
                                                    mf_enc_not(E, point)))
                                  : mf_enc_not(E, point));
        }
        free(inp);
        free(ms);
        mf_z3_model_free(c, mdl);
        if (res < 0)
            return res;
        if (res == 1) {
            if (!mf_batch_nmarked(B, live))
                return 1;
            pick = mf_batch_pick(B, syn, live);
        }
    }
}

/* A potential kill at length d in the synthesis model mdl (consumed). */
static void pot_kill(mf_batch *B, int j, Z3_model mdl, mf_inputs *in,
                     mf_unroll *O, mf_unroll *M, int d)
{
    mf_test *t = mf_z3_test(B->E, mdl, in, O, M, d);
    mf_z3_model_free(B->c, mdl);
    B->mu[j].killed_at = d;
    mf_batch_kill(B, j, t, MF_N_POTENTIAL);
}

static int prove_marked(mf_batch *S, int *mark);
static void refusal_capable(mf_batch *B, int *mark);

/* --- potential killing by refinement --- */
static void pot_search(mf_batch *B, int j)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    Z3_solver syn = mf_z3_solver(c, o, B->qfbv), ver = mf_z3_solver(c, o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, syn, "pi");
    mf_inputs *vin = mf_inputs_new(E, ver, "pv");
    mf_unroll *O = mf_unroll_new(E, syn, "po", 0, in, 1, NULL);
    mf_unroll *M = mf_unroll_new(EM, syn, "pm", B->meta, in, 0, NULL);
    mf_unroll *P = mf_unroll_new(E, ver, "pp", 0, vin, 0, NULL);
    if (B->meta)
        mf_enc_assert_sels(EM, syn);
    int iters = 0, giveup = 0, undecided = -1;
    bpool bp = {.n = 1, .from = {P, NULL}, .bind = M, .enc = {E, NULL},
                .meta = {0, 0}, .tag = {"pb", NULL}};
    /* Steps instead of traces where the observables fix the state (the
     * original's, shared by the batch); the mutant's accepting steps for
     * its refusals. */
    int stepmode = B->lib != NULL;
    stepper os, ms;
    steplib mlib = {{-1, -1}, {{0}, {0}}};
    if (stepmode) {
        stepper_open(&os, B, E, 0, B->lib, ver, "pq");
        os.bind = 1;
    }
    stepper_open(&ms, B, EM, B->meta, &mlib, ver, "pn");
    if (B->meta)
        mf_enc_assert_sels(EM, ver);
    B->mu[j].v->bound = o->bound;
    int *live = mf_xcalloc((size_t)B->nmut, sizeof *live);
    int mayref = 1; /* past length 0: refusal_capable */
    if (stepmode) {
        live[j] = 1;
        refusal_capable(B, live);
        mayref = live[j];
    }
    for (int d = 0; d <= o->bound && B->mu[j].todo && !giveup; d++) {
        if (d < B->mu[j].xlen)
            continue; /* the explorer: no potential kill shorter */
        mf_unroll_extend(O, d);
        mf_unroll_extend(M, d);
        mf_unroll_extend(P, d);
        live[j] = 1;
        int pr = mf_z3_now() > B->deadline ? -1
                 : d && !mayref     ? 0
                                    : pot_refusal(B, live, ver, vin, P, &ms, d);
        if (pr == -2) { /* refusals at d undecided: look on for outputs */
            if (undecided < 0)
                undecided = d;
            pr = 0;
        }
        if (pr != 0) {
            if (pr < 0 && B->mu[j].todo)
                B->mu[j].v->bound = d - 1; /* gave up: no kill up to d-1 */
            break;
        }
        Z3_ast g = mf_z3_lit(E, "pg");
        Z3_ast parts[2] = {mf_enc_all_ok(EM, M, 0, d),
                           mf_enc_not(E, mf_enc_all_obs_eq(E, O, M, d))};
        mf_z3_implies(E, syn, g, mf_enc_and(E, 2, parts));
        mf_astvec steps = {0}; /* step mode: "M's step d is copy i's" */
        if (stepmode)
            block_steps(&os, syn, in, M, d, 0, g, &steps);
        for (;;) {
            if (++iters > o->cegis_max || mf_z3_now() > B->deadline) {
                B->mu[j].v->bound = d - 1; /* gave up: no kill up to d-1 */
                giveup = 1;
                break;
            }
            Z3_ast as[2];
            int na = mf_batch_assume(B, j, as);
            as[na++] = g;
            char why[256];
            Z3_lbool r = mf_z3_check(c, syn, na, as, why, sizeof why);
            if (r == Z3_L_UNDEF) {
                mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
                break;
            }
            if (r == Z3_L_FALSE) { /* no deviating mutant behaviour */
                if (!stepmode)
                    block_lemma(&bp, syn, M, d, mf_enc_and(E, 2, parts),
                                na - 1, as);
                else /* every mutant step d is an original step */
                    refuted_lemma(E, syn, steps.n, steps.v,
                                  mf_enc_and(E, 2, parts), na - 1, as);
                break;
            }
            Z3_model mdl = mf_z3_model(c, syn);
            if (stepmode) {
                int before = steplib_rows(B->lib, d > 0);
                mf_val *ov = mf_z3_eval_state(E, mdl, mf_unroll_obs(M, d),
                                        mf_enc_nobs(E));
                Z3_lbool r2 = step_find(&os, mdl, in, M, d, ov, 0, NULL, why,
                                        sizeof why);
                free(ov);
                if (r2 == Z3_L_UNDEF) {
                    mf_z3_model_free(c, mdl);
                    mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
                    break;
                }
                if (r2 == Z3_L_FALSE) {
                    pot_kill(B, j, mdl, in, O, M, d);
                    break;
                }
                mf_z3_model_free(c, mdl);
                int after = steplib_rows(B->lib, d > 0);
                if (after == before) { /* cannot happen: the copy of a
                                          learnt step blocks it */
                    mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", "potential refinement: a blocked "
                                      "step came back");
                    break;
                }
                block_steps(&os, syn, in, M, d, before, g, &steps);
                continue;
            }
            Z3_solver_push(c, ver);
            fix_inputs(E, ver, vin, in, mdl, d);
            for (int k = 0; k <= d; k++) {
                Z3_ast *mo = mf_unroll_obs(M, k);
                int no = mf_enc_nobs(E);
                mf_val *vals = mf_xcalloc((size_t)(no + 1), sizeof *vals);
                for (int i = 0; i < no; i++)
                    vals[i] = mf_enc_eval(E, mdl, mo[i]);
                Z3_solver_assert(c, ver, mf_z3_obs_is(E, mf_unroll_obs(P, k), vals));
                free(vals);
            }
            Z3_solver_assert(c, ver, mf_enc_all_ok(E, P, 0, d));
            Z3_ast ul = mf_z3_lit(E, "pu");
            mf_z3_implies(E, ver, ul, uniform(E, P, d));
            Z3_lbool r2 = mf_z3_check(c, ver, 1, &ul, why, sizeof why);
            if (r2 == Z3_L_FALSE)
                r2 = mf_z3_check(c, ver, 0, NULL, why, sizeof why);
            if (r2 == Z3_L_UNDEF) {
                Z3_solver_pop(c, ver, 1);
                mf_z3_model_free(c, mdl);
                mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
                break;
            }
            if (r2 == Z3_L_FALSE) {
                Z3_solver_pop(c, ver, 1);
                pot_kill(B, j, mdl, in, O, M, d);
                break;
            }
            /* A matching original behaviour: block it (for every mutant:
             * no mutant behaviour matching an original one is a witness). */
            block_found(&bp, syn, ver, in, M, g, d, mdl);
        }
        MF_VEC_FREE(steps);
    }
    if (undecided >= 0) {
        mf_verdict *v = B->mu[j].v;
        if (v->kind == MF_V_KILLED && B->mu[j].killed_at > undecided)
            v->not_shortest = 1;
        else if (B->mu[j].todo && v->bound >= undecided)
            v->bound = undecided - 1;
    }
    free(live);
    bpool_free(&bp);
    if (stepmode)
        stepper_close(&os);
    stepper_close(&ms);
    MF_VEC_FREE(mlib.v[0]);
    MF_VEC_FREE(mlib.v[1]);
    mf_unroll_free(O);
    mf_unroll_free(M);
    mf_unroll_free(P);
    mf_inputs_free(in);
    mf_inputs_free(vin);
    mf_z3_solver_free(c, syn);
    mf_z3_solver_free(c, ver);
}

/* Does m read inputs (IVARs, input VARs)? */
static int has_inputs(const mf_model *m)
{
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].decl == MF_DECL_IVAR || m->vars[i].is_input)
            return 1;
    return 0;
}

/* At length d, the marks of live (and rf, whether it may refuse) of the
 * mutants whose shortest potential kill the explorer found longer than d
 * move to held (bit 1 live, bit 2 rf), and those held for a shorter
 * length come back (all of them for d < 0). Not where some product of the
 * batch was past the explorer's limit: the mutants it knows are then few,
 * and holding them back cost more than it saved (gigamax, 40 sampled, with
 * the limit at 20000: 38 -> 56 s, twice the memory; the queries of the
 * lengths before theirs learn original steps the later lengths need).
 * dme1, 40 sampled: 9.9 -> 7.9 s. */
static void hold_back(const mf_batch *B, int *live, int *rf, int *held, int d)
{
    for (int j = 0; j < B->nmut; j++) {
        if (held[j] && (d < 0 || B->mu[j].xlen <= d)) {
            live[j] = 1;
            rf[j] = (held[j] & 2) != 0;
            held[j] = 0;
        } else if (live[j] && d >= 0 && B->mu[j].xlen > d && !B->xbig) {
            held[j] = 1 | (rf[j] ? 2 : 0);
            live[j] = rf[j] = 0;
        }
    }
}

/* --- potential killing, the batch's mutants together --- */
/* With learnt steps, everything the potential refinement learns is the
 * original's (its steps), valid for every mutant: so the undecided mutants
 * of a batch share one synthesis solver over the conditional mutant, as the
 * deterministic search does. At length d: one refusal search for all live
 * mutants (refusal_search), then one query "some live mutant (the
 * assumption: one of their selectors) leaves the learnt steps at d". A
 * model names the mutant; the verifier either finds the step (learnt: it
 * blocks it for all of them) or kills that mutant, whose test is replayed
 * on the others (a kill at d is a shortest one for every live mutant). An
 * unsatisfiable query refutes d for all of them at once. Mutants it gives
 * up on (limits) go back to their own search. */
static void pot_joint(mf_batch *B, const int *det)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    int n = B->nmut;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    for (int j = 0; j < n; j++)
        live[j] = B->mu[j].todo && !det[j];
    if (mf_batch_nmarked(B, live) < 2) {
        free(live);
        return;
    }
    mf_batch_pair sx, vx; /* synthesis: O, M; verifier: P (its m unused) */
    mf_batch_pair_open(&sx, B, E, EM, 1, 1, "j");
    mf_batch_pair_open(&vx, B, E, EM, 1, 0, "k");
    Z3_solver syn = sx.s, ver = vx.s;
    mf_inputs *in = sx.in, *vin = vx.in;
    mf_unroll *O = sx.o, *M = sx.m, *P = vx.o;
    stepper os, ms;
    stepper_open(&os, B, E, 0, B->lib, ver, "jq");
    os.bind = 1;
    steplib mlib = {{-1, -1}, {{0}, {0}}}; /* the mutants' steps */
    stepper_open(&ms, B, EM, 1, &mlib, ver, "jn");
    double saved_wall = mf_z3_deadline();
    mf_z3_set_deadline(0);
    B->deadline = mf_batch_joint_deadline(B, mf_batch_nmarked(B, live), 1.0);
    int iters = 0, giveup = 0, undecided = -1, early = 0;
    int *rf = mf_xmalloc(sizeof *rf * (size_t)n); /* may refuse */
    memcpy(rf, live, sizeof *rf * (size_t)n);
    refusal_capable(B, rf);
    int *held = mf_xcalloc((size_t)n, sizeof *held);
    for (int d = 0; d <= o->bound && mf_batch_nmarked(B, live) + mf_batch_nmarked(B, held) &&
                    !giveup;
         d++) {
        /* Mutants the explorer showed killable only from a longer length
         * on sit out the lengths before it. */
        hold_back(B, live, rf, held, d);
        int n0 = mf_batch_nmarked(B, live);
        if (!n0)
            continue;
        mf_unroll_extend(O, d);
        mf_unroll_extend(M, d);
        mf_unroll_extend(P, d);
        /* Past length 0, only the mutants that may refuse. */
        for (int j = 0; j < n; j++)
            rf[j] &= live[j];
        int pr = mf_z3_now() > B->deadline ? -1
                 : d && !mf_batch_nmarked(B, rf)
                     ? 0
                     : pot_refusal(B, d ? rf : live, ver, vin, P, &ms, d);
        for (int j = 0; j < n; j++)
            live[j] &= B->mu[j].todo;
        if (pr == -1) {
            giveup = 1;
            break;
        }
        if (pr == -2 && undecided < 0)
            undecided = d; /* refusals at d undecided: look on */
        if (!mf_batch_nmarked(B, live))
            continue;
        Z3_ast g = mf_z3_lit(E, "jg");
        Z3_ast parts[2] = {mf_enc_all_ok(EM, M, 0, d),
                           mf_enc_not(E, mf_enc_all_obs_eq(E, O, M, d))};
        mf_z3_implies(E, syn, g, mf_enc_and(E, 2, parts));
        mf_astvec steps = {0};
        block_steps(&os, syn, in, M, d, 0, g, &steps);
        Z3_ast pick = mf_batch_pick(B, syn, live);
        for (;;) {
            char why[256];
            Z3_lbool r = mf_batch_joint_query(B, syn, pick, g, &iters, o->cegis_max + n);
            if (r == Z3_L_UNDEF) {
                giveup = 1;
                break;
            }
            if (r == Z3_L_FALSE) /* no live mutant deviates at d */
                break;
            Z3_model mdl = mf_z3_model(c, syn);
            int q = mf_batch_picked(B, mdl, live);
            int before = steplib_rows(B->lib, d > 0);
            mf_val *ov = mf_z3_eval_state(E, mdl, mf_unroll_obs(M, d),
                                    mf_enc_nobs(E));
            Z3_lbool r2 = q < 0 ? Z3_L_UNDEF
                                : step_find(&os, mdl, in, M, d, ov, 0, NULL,
                                            why, sizeof why);
            free(ov);
            if (r2 == Z3_L_UNDEF) {
                mf_z3_model_free(c, mdl);
                giveup = 1;
                break;
            }
            if (r2 == Z3_L_FALSE) {
                /* q leaves the original's steps: killed at d. */
                pot_kill(B, q, mdl, in, O, M, d);
                mf_batch_spread(B, live, q, d);
                if (!mf_batch_nmarked(B, live))
                    break;
                pick = mf_batch_pick(B, syn, live);
                continue;
            }
            mf_z3_model_free(c, mdl);
            if (steplib_rows(B->lib, d > 0) == before) {
                giveup = 1; /* cannot happen: a learnt step blocks it */
                break;
            }
            block_steps(&os, syn, in, M, d, before, g, &steps);
        }
        MF_VEC_FREE(steps);
        /* The first length after 0 that kills none: the mutants left are
         * often equivalent, and would ride the search to the bound, each
         * length dearer than the last (yyaan, 40 sampled: 5 equivalents
         * from length 5 to 10, 3.9 s). Lock-step for them first, once. */
        if (!giveup && !early && d >= 1 && mf_batch_nmarked(B, live) == n0 &&
            o->prove) {
            early = 1;
            int *mark = mf_xcalloc((size_t)n, sizeof *mark);
            for (int j = 0; j < n; j++)
                mark[j] = live[j] && !B->mu[j].lsdone &&
                          (B->xbig || B->mu[j].xdone) &&
                          mf_batch_may_be_equivalent(B, j);
            if (mf_batch_nmarked(B, mark) && prove_marked(B, mark))
                for (int j = 0; j < n; j++)
                    if (!B->mu[j].todo)
                        live[j] = 0;
            free(mark);
        }
    }
    hold_back(B, live, rf, held, -1);
    free(held);
    /* Decided here: the kills, and, unless it gave up, the rest (no kill up
     * to the bound). A mutant it gave up on searches again on its own. */
    for (int j = 0; j < n; j++) {
        if (det[j] || (live[j] && giveup))
            continue;
        if (!live[j] && B->mu[j].todo)
            continue; /* not a candidate */
        B->mu[j].searched = MF_SEARCHED_POTENTIAL;
        mf_verdict *v = B->mu[j].v;
        if (undecided < 0)
            continue;
        if (v->kind == MF_V_KILLED && B->mu[j].killed_at > undecided)
            v->not_shortest = 1;
        else if (B->mu[j].todo && v->bound >= undecided)
            v->bound = undecided - 1;
    }
    free(rf);
    mf_z3_set_deadline(saved_wall);
    stepper_close(&ms);
    MF_VEC_FREE(mlib.v[0]);
    MF_VEC_FREE(mlib.v[1]);
    stepper_close(&os);
    mf_batch_pair_close(&sx, B);
    mf_batch_pair_close(&vx, B);
    free(live);
}

/* Definite killing without inputs (Collision_RFID, dme1): the only test of
 * length d is "run d steps", and it kills definitely iff the original has a
 * behaviour of length d and no original and mutant behaviour agree up to d.
 * Agreement up to d holds for every shorter length (a prefix agrees), so
 * the shortest kill is found by bisection over [from, bound] with one
 * verifier query per probe, where the refinement needs a synthesis and a
 * verifier query per length (Collision_RFID, 40 sampled mutants, bound 10:
 * the definite upgrades of 26 potential kills took 4 s). `from`: no kill is
 * shorter (a definite kill is a potential one). The queries of one solver
 * (agreeq) serve any mutant of the batch: its literals agree[d] ("a pair
 * agrees up to d") and orig[d] ("the original has a behaviour of length
 * d") are asserted once, each query assumes the mutant's selector. */
typedef struct {
    mf_batch_pair x;          /* o: P, the original; m: Q, the mutant */
    mf_astvec agree, orig; /* per length, NULL until needed */
} agreeq;

static void agreeq_open(mf_batch *B, agreeq *A)
{
    memset(A, 0, sizeof *A);
    mf_batch_pair_open(&A->x, B, B->E, B->EM, B->meta, 0, "n");
}

static void agreeq_close(mf_batch *B, agreeq *A)
{
    mf_batch_pair_close(&A->x, B);
    MF_VEC_FREE(A->agree);
    MF_VEC_FREE(A->orig);
}

/* The literal of length d in v (pair: agreement, else the original alone),
 * made and asserted on first use. */
static Z3_ast agreeq_lit(mf_batch *B, agreeq *A, mf_astvec *v, int d, int pair)
{
    while (v->n <= d)
        MF_VEC_PUSH(*v, NULL);
    if (!v->v[d]) {
        mf_unroll_extend(A->x.o, d);
        mf_unroll_extend(A->x.m, d);
        Z3_ast x[3] = {mf_enc_all_ok(B->E, A->x.o, 0, d),
                       mf_enc_all_ok(B->EM, A->x.m, 0, d),
                       mf_enc_all_obs_eq(B->E, A->x.o, A->x.m, d)};
        v->v[d] = mf_z3_lit(B->E, pair ? "na" : "no");
        mf_z3_implies(B->E, A->x.s, v->v[d],
                       pair ? mf_enc_and(B->E, 3, x) : x[0]);
    }
    return v->v[d];
}

/* Mutant j, lengths [from, bound]: 1 killed (*out: its test), 0 not, -1
 * unknown (why). */
static int agreeq_kill(mf_batch *B, agreeq *A, int j, int from, mf_test **out,
                       char *why, size_t whyn)
{
    Z3_ast as[2];
    int na = mf_batch_assume(B, j, as);
    int lo = from < 0 ? 0 : from, hi = B->o->bound;
    int r = 0; /* some pair agrees up to lo - 1, none to hi */
    for (int probe = hi;; probe = lo + (hi - lo) / 2) {
        as[na] = agreeq_lit(B, A, &A->agree, probe, 1);
        Z3_lbool l = mf_z3_check(B->c, A->x.s, na + 1, as, why, whyn);
        if (l == Z3_L_UNDEF)
            return -1;
        if (probe == B->o->bound && l == Z3_L_TRUE)
            return 0; /* they agree up to the bound */
        if (l == Z3_L_TRUE)
            lo = probe + 1;
        else
            hi = probe;
        if (lo >= hi)
            break;
    }
    /* The test: an original behaviour of length hi, if there is one. */
    as[na] = agreeq_lit(B, A, &A->orig, hi, 0);
    Z3_lbool l = mf_z3_check(B->c, A->x.s, na + 1, as, why, whyn);
    if (l == Z3_L_TRUE) {
        Z3_model mdl = mf_z3_model(B->c, A->x.s);
        *out = mf_z3_test(B->E, mdl, A->x.in, A->x.o, NULL, hi);
        mf_z3_model_free(B->c, mdl);
        r = 1;
    } else if (l == Z3_L_UNDEF)
        r = -1;
    return r;
}

static int def_noinput(mf_batch *B, int j, int from, mf_verdict *tmp)
{
    agreeq A;
    agreeq_open(B, &A);
    int r = agreeq_kill(B, &A, j, from, &tmp->test, tmp->reason,
                        sizeof tmp->reason);
    if (r >= 0)
        tmp->reason[0] = 0;
    agreeq_close(B, &A);
    return r == 1;
}

/* The definite verifier: pushed, an original behaviour (P) and a mutant
 * behaviour (Q) that agree up to d on the inputs of the synthesis model
 * mdl, under the assumptions as[0..na); uniform choices first (see
 * uniform). The caller pops. */
static Z3_lbool pair_query(mf_batch *B, Z3_solver ver, mf_inputs *vin,
                           mf_inputs *in, Z3_model mdl, mf_unroll *P,
                           mf_unroll *Q, int d, int na, const Z3_ast *as,
                           char *why, size_t whyn)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    Z3_solver_push(c, ver);
    fix_inputs(E, ver, vin, in, mdl, d);
    Z3_ast parts[3] = {mf_enc_all_ok(E, P, 0, d), mf_enc_all_ok(EM, Q, 0, d),
                       mf_enc_all_obs_eq(E, P, Q, d)};
    Z3_solver_assert(c, ver, mf_enc_and(E, 3, parts));
    Z3_ast vs[2];
    for (int i = 0; i < na; i++)
        vs[i] = as[i];
    Z3_ast up[2] = {uniform(E, P, d), uniform(EM, Q, d)};
    vs[na] = mf_z3_lit(E, "du");
    mf_z3_implies(E, ver, vs[na], mf_enc_and(E, 2, up));
    Z3_lbool r = mf_z3_check(c, ver, na + 1, vs, why, whyn);
    if (r == Z3_L_FALSE)
        r = mf_z3_check(c, ver, na, vs, why, whyn);
    return r;
}

/* Values of copy b's choices at step k, copy c (the last step's past its
 * depth); their number in *nv. NULL if the layout does not allow it. */
static const mf_val *blk_step(const bpool *P, const blk *b, int k, int c,
                              int *nv)
{
    int at = 0, ks = k < b->depth ? k : b->depth;
    for (int s = 0; s <= ks; s++)
        for (int x = 0; x < P->n; x++) {
            int n;
            mf_unroll_choices(b->u[x], s, &n);
            if (s == ks && x == c) {
                *nv = n;
                return at + n <= (int)b->ch.n ? b->ch.v + at : NULL;
            }
            at += n;
        }
    return NULL;
}

/* Copy b of a definite refinement (a pair, no bound choices) extended in
 * solver s past its depth to length d, each new step taking the choices of
 * its last one. */
static void blk_repeat(bpool *P, Z3_solver s, mf_unroll *const *u,
                       const blk *b, int from, int d)
{
    for (int c = 0; c < P->n; c++) {
        mf_unroll_extend(u[c], d);
        for (int k = from; k <= d; k++) {
            int nv = 0, n;
            const mf_val *v = blk_step(P, b, k, c, &nv);
            mf_unroll_choices(u[c], k, &n);
            if (v && n == nv)
                fix_step(P->enc[c], s, u[c], k, v, nv);
        }
    }
}

/* Copy b's record of choices extended to length d as blk_repeat did. */
static void blk_extend_ch(bpool *P, blk *b, int d)
{
    mf_valset last = {0};
    for (int c = 0; c < P->n; c++) {
        int nv = 0;
        const mf_val *v = blk_step(P, b, b->depth, c, &nv);
        for (int i = 0; v && i < nv; i++)
            MF_VEC_PUSH(last, v[i]);
    }
    for (int k = b->depth + 1; k <= d; k++)
        for (int i = 0; i < last.n; i++)
            MF_VEC_PUSH(b->ch, last.v[i]);
    b->depth = d;
    MF_VEC_FREE(last);
}

/* Lookahead of the definite refinement. When one copy (a pair of original
 * and mutant behaviours with fixed choices) matched every candidate of
 * length d, that pair with its last step's choices repeated may match every
 * test up to some longer length. In a solver of its own, without the
 * original's acceptance (so over more tests than any length's candidates):
 * "the extended pair parts (a refusal or other observables) within X".
 * Unsat: every test up to X has a matching pair, so none kills definitely;
 * a model's first parting step t bounds the next X to t - 1. Returns the
 * longest length so refuted, d if none (beverage(16): lengths 1 to 32 at
 * once instead of one refinement each). */
static int def_lookahead(mf_batch *B, int j, bpool *P, const blk *b, int d)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    int bound = B->o->bound, got = d;
    if (P->bind || b->depth < 1 || d + 1 >= bound)
        return d;
    Z3_solver la = mf_z3_solver(c, B->o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, la, "li");
    mf_unroll *u[2] = {mf_unroll_new(E, la, "lp", 0, in, 0, NULL),
                       mf_unroll_new(EM, la, "lq", B->meta, in, 0, NULL)};
    if (B->meta)
        mf_enc_assert_sels(EM, la);
    blk_repeat(P, la, u, b, 0, bound);
    Z3_ast as[2];
    int na = mf_batch_assume(B, j, as);
    for (int X = bound, tries = 0; X > d && tries < 4 && mf_z3_now() < B->deadline;
         tries++) {
        Z3_ast parts[3] = {mf_enc_all_ok(E, u[0], 0, X),
                           mf_enc_all_ok(EM, u[1], 0, X),
                           mf_enc_all_obs_eq(E, u[0], u[1], X)};
        as[na] = mf_z3_lit(E, "lx");
        mf_z3_implies(E, la, as[na],
                       mf_enc_not(E, mf_enc_and(E, 3, parts)));
        char why[256];
        Z3_lbool r = mf_z3_check(c, la, na + 1, as, why, sizeof why);
        if (r == Z3_L_FALSE) {
            got = X;
            break;
        }
        if (r != Z3_L_TRUE)
            break;
        Z3_model mdl = mf_z3_model(c, la);
        int t = 0;
        for (; t < X; t++) {
            Z3_ast at[3] = {mf_unroll_ok(u[0], t), mf_unroll_ok(u[1], t),
                            mf_enc_obs_eq(E, mf_unroll_obs(u[0], t),
                                          mf_unroll_obs(u[1], t))};
            Z3_ast v = NULL;
            if (!Z3_model_eval(c, mdl, mf_enc_and(E, 3, at), 1, &v) || !v ||
                Z3_get_bool_value(c, v) != Z3_L_TRUE)
                break;
        }
        mf_z3_model_free(c, mdl);
        X = t - 1;
    }
    mf_unroll_free(u[0]);
    mf_unroll_free(u[1]);
    mf_inputs_free(in);
    mf_z3_solver_free(c, la);
    return got;
}

/* --- definite killing by refinement; returns 1 if killed --- */
static int def_search(mf_batch *B, int j, int from, int cap, mf_verdict *tmp)
{
    if (!has_inputs(B->m))
        return def_noinput(B, j, from, tmp);
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    Z3_solver syn = mf_z3_solver(c, o, B->qfbv), ver = mf_z3_solver(c, o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, syn, "di");
    mf_inputs *vin = mf_inputs_new(E, ver, "dv");
    mf_unroll *O = mf_unroll_new(E, syn, "do", 0, in, 1, NULL);
    mf_unroll *P = mf_unroll_new(E, ver, "dp", 0, vin, 0, NULL);
    mf_unroll *Q = mf_unroll_new(EM, ver, "dq", B->meta, vin, 0, NULL);
    if (B->meta) {
        mf_enc_assert_sels(EM, syn);
        mf_enc_assert_sels(EM, ver);
    }
    int iters = 0, killed = 0, stop = 0, looked = 0;
    bpool bp = {.n = 2, .from = {P, Q}, .enc = {E, EM}, .meta = {0, B->meta},
                .tag = {"db", "dc"}};
    for (int d = from; d <= o->bound && !killed && !stop; d++) {
        mf_unroll_extend(O, d);
        mf_unroll_extend(P, d);
        mf_unroll_extend(Q, d);
        Z3_ast g = mf_z3_lit(E, "dg");
        for (;;) {
            if (++iters > cap || mf_z3_now() > B->deadline) {
                snprintf(tmp->reason, sizeof tmp->reason,
                         "definite refinement: iteration limit at length %d",
                         d);
                stop = 1;
                break;
            }
            Z3_ast as[2];
            int na = mf_batch_assume(B, j, as);
            as[na++] = g;
            char why[256];
            Z3_lbool r = mf_z3_check(c, syn, na, as, why, sizeof why);
            if (r == Z3_L_UNDEF) {
                snprintf(tmp->reason, sizeof tmp->reason, "%s", why);
                stop = 1;
                break;
            }
            if (r == Z3_L_FALSE) {
                block_lemma(&bp, syn, NULL, d, NULL, na - 1, as);
                int nb = 0;
                blk *one = NULL;
                for (int i = 0; i < bp.v.n; i++)
                    if (bp.v.v[i].depth >= d) {
                        nb++;
                        one = &bp.v.v[i];
                    }
                int D = d;
                if (nb == 1 && d >= 1 && !looked) {
                    D = def_lookahead(B, j, &bp, one, d);
                    looked = 1;
                }
                if (D > d) {
                    /* Lengths d+1..D refuted at once: the copy extended
                     * as the lookahead did, and its lemma. */
                    blk_repeat(&bp, syn, one->u, one, one->depth + 1, D);
                    blk_extend_ch(&bp, one, D);
                    block_lemma(&bp, syn, NULL, D, NULL, na - 1, as);
                    d = D;
                }
                break;
            }
            Z3_model mdl = mf_z3_model(c, syn);
            Z3_ast vs[2];
            int nv = mf_batch_assume(B, j, vs);
            Z3_lbool r2 = pair_query(B, ver, vin, in, mdl, P, Q, d, nv, vs,
                                     why, sizeof why);
            if (r2 == Z3_L_UNDEF) {
                Z3_solver_pop(c, ver, 1);
                mf_z3_model_free(c, mdl);
                snprintf(tmp->reason, sizeof tmp->reason, "%s", why);
                stop = 1;
                break;
            }
            if (r2 == Z3_L_FALSE) {
                Z3_solver_pop(c, ver, 1);
                tmp->test =
                    mf_z3_test(E, mdl, in, O, NULL, d);
                mf_z3_model_free(c, mdl);
                killed = 1;
                break;
            }
            block_found(&bp, syn, ver, in, NULL, g, d, mdl);
        }
    }
    bpool_free(&bp);
    mf_unroll_free(O);
    mf_unroll_free(P);
    mf_unroll_free(Q);
    mf_inputs_free(in);
    mf_inputs_free(vin);
    mf_z3_solver_free(c, syn);
    mf_z3_solver_free(c, ver);
    return killed;
}

/* ------------------------------------------------------------------ */
/* Proofs                                                               */

/* Of the mutants marked in `mark`, those that may refuse a step the
 * original takes stay marked: with observables fixing the state, a refusal
 * kill past length 0 is a step from a state both reached, one of the
 * original's reachable states (rs), where the original has a successor
 * under the input and the mutant none. The simulator tries every such
 * state and input on each mutant when there are at most REFUSAL_TRIES of
 * them (else, or without the reachable states, all stay marked): one
 * simulator step per mutant, state and input, where a refusal search
 * costs solver calls at every length, dearer as the length grows.
 * Collision_RFID (210 states): none of 40 sampled mutants can refuse, and
 * their 11 refusal searches, a third of the batch's time, go; gigamax
 * (8872 states, 8 inputs) is past the limit.
 * A mutant the explorer showed killed first by a difference (xno_refusal)
 * is not stepped but cleared (its refcap stays untried): dme1, 40 sampled
 * at bound 10, where the stepping found none of them able to refuse and
 * was 13% of the batch's CPU, 3.07 -> 2.72 s, output byte-identical. Only
 * where the stepping is within the tries: past them every mutant keeps
 * its refusal search, which on gigamax finds many kills of the explorer's
 * length sooner than the search for differences does (clearing them there
 * cost 8 to 38% on 39 to 41 sampled at bound 10 and 20). */
#define REFUSAL_TRIES 10000L
static void refusal_capable(mf_batch *B, int *mark)
{
    const mf_model *m = B->m;
    mf_reach *rs = B->rs;
    int n = m->nslots, left = mf_batch_nmarked(B, mark);
    if (!left)
        return;
    mf_reach_dom D;
    mf_reach_dom_open(&D, m, 1);
    if (!rs->done && D.combos <= MF_REACH_INPUT_COMBOS) {
        /* As many states as the tries allow: complete, they are the
         * batch's reachable states (the proofs' too); else none. */
        mf_reach t;
        mf_reach_upto(m, &t, (int)(REFUSAL_TRIES / D.combos));
        if (t.ok) {
            t.done = 1;
            *rs = t;
        } else
            MF_VEC_FREE(t.st);
    }
    long cnt = rs->done && rs->ok ? (long)(rs->st.n / (n ? n : 1)) : 0;
    if (cnt && D.combos <= MF_REACH_INPUT_COMBOS && cnt * D.combos <= REFUSAL_TRIES) {
        for (int j = 0; j < B->nmut; j++)
            if (mark[j] && xno_refusal(B, j)) {
                mark[j] = 0;
                left--;
            }
        int *found = mf_xcalloc((size_t)B->nmut, sizeof *found);
        mf_val *inp = mf_xcalloc((size_t)(n ? n : 1), sizeof *inp);
        for (long i = 0; i < cnt && left; i++) {
            const mf_val *cur = rs->st.v + (size_t)i * n;
            for (long cb = 0; cb < D.combos && left; cb++) {
                mf_reach_dom_set(&D, cb, inp);
                int o = mf_reach_has_successor(m, cur, inp);
                for (int j = 0; j < B->nmut && o != 0; j++) {
                    if (!mark[j] || found[j])
                        continue;
                    if (o < 0 || mf_reach_has_successor(B->mu[j].model, cur, inp) != 1) {
                        found[j] = 1; /* refuses there, or cannot tell */
                        left--;
                    }
                }
            }
        }
        /* Past every state and input without a refusal: cleared. */
        for (int j = 0; j < B->nmut; j++) {
            if (mark[j])
                B->mu[j].refcap = found[j] ? MF_REF_MAY : MF_REF_NEVER;
            mark[j] = mark[j] && found[j];
        }
        free(found);
        free(inp);
    }
    mf_reach_dom_free(&D);
}

/* 1 if mutant j steps as the original from every state of rs (complete)
 * under every input: it differs in init items only, or in one next()
 * assignment whose right-hand sides have the same values there
 * (mf_explore_step_delta). Then lock-step's step holds either way with no
 * solver call: each successor of the mutant is the original's, and the
 * other way (yyaan, 40 sampled at bound 10: 3 of its 5 equivalents, two
 * of INIT constraints and one of a next() term, whose step queries took
 * 1.3 s). At most STEP_SAME_EVALS states times inputs. */
#define STEP_SAME_EVALS 200000L
static int steps_as_original(mf_batch *B, int j, const mf_reach *rs)
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
    int same = D.combos <= MF_REACH_INPUT_COMBOS && cnt * D.combos <= STEP_SAME_EVALS;
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

/* refusal_capable for the mutants marked in `mark` it has not tried, so
 * that lock-step knows those that never refuse (mark unchanged). */
static void refusal_tried(mf_batch *B, const int *mark)
{
    int *m = mf_xcalloc((size_t)B->nmut, sizeof *m);
    for (int j = 0; j < B->nmut; j++)
        m[j] = mark[j] && B->mu[j].refcap == MF_REF_UNTRIED;
    refusal_capable(B, m);
    free(m);
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
 * them (yyaan: 3626 states, 29 cells). 40 sampled at bound 10, batch:
 * yyaan 7.6 -> 3.6 s, gigamax 13.2 -> 8.5 s, the same verdicts. */
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
    const mf_val *a = T->rows + (size_t)*(const int *)pa * T->n;
    const mf_val *b = T->rows + (size_t)*(const int *)pb * T->n;
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
    Z3_ast r = alt.n == 1 ? alt.v[0]
                          : mf_enc_keep(E, Z3_mk_or(mf_enc_ctx(E),
                                                    (unsigned)alt.n, alt.v));
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
            Z3_solver_assert(c, L->A, cnt ? in_states(B, L->S, rs, cnt)
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

/* Mutant j in lockq L: 1 proved, 0 not, -1 unknown. */
static int lockq_decide(mf_batch *B, lockq *L, int j, char *why, size_t whyn)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_model *m = B->m;
    int step = L->step, n = m->nslots, iters = 0;
    Z3_solver A = L->A, V = L->V, W = L->W;
    Z3_ast as[3];
    int na = mf_batch_assume(B, j, as);
    /* Points only j's simulator rules out are j's alone. */
    Z3_ast mine = mf_z3_lit(E, "lj");
    as[na] = mine;
    as[na + 1] = L->en;
    /* A candidate the simulator refutes gets a choice of the mutant that
     * succeeds there from W; a copy of the mutant with those choices rules
     * out every point where they succeed (gigamax: blocking 400 points one
     * at a time gave up; a few choices cover them). From the reachable
     * states, refusal_capable may have tried every point already (dme1,
     * 6579 states: this loop ran a mutant's whole budget, 10 s, without
     * covering them). */
    int tried = L->step && L->onrs && B->mu[j].refcap == MF_REF_NEVER;
    while (!L->rev && !tried) {
        if (++iters > B->o->cegis_max) {
            snprintf(why, whyn, "lock-step: iteration limit");
            return -1;
        }
        Z3_lbool r = mf_z3_check(c, A, na + 2, as, why, whyn);
        if (r == Z3_L_FALSE)
            break;
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
            fix_inputs(E, W, L->win, L->in, mdl, step);
            if (step)
                Z3_solver_assert(c, W, mf_z3_state_is(E, L->SW, sv, n));
            wr = mf_z3_check(c, W, na, as, why, whyn);
        }
        if (wr == Z3_L_TRUE) {
            Z3_model wm = mf_z3_model(c, W);
            mf_unroll *X = mf_unroll_new(EM, A, "lxe", B->meta, L->in, 0, L->S);
            mf_unroll_extend(X, step);
            fix_choices(EM, A, X, L->MW, wm, step);
            mf_z3_implies(E, A, L->en, mf_enc_not(E, mf_unroll_ok(X, step)));
            mf_unroll_free(X);
            mf_z3_model_free(c, wm);
        } else {
            /* Only this point: W disagrees with the simulator. */
            MF_VEC(Z3_ast) pt = {0};
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
    as[na + 1] = L->g;
    /* T: the copy whose successor is matched; the matcher's encoder. */
    mf_unroll *T = L->rev ? L->O : L->M;
    mf_enc *EX = L->rev ? EM : E;
    int xmeta = L->rev ? B->meta : 0;
    for (;;) {
        if (++iters > B->o->cegis_max) {
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
        fix_inputs(E, V, L->vin, L->in, mdl, step);
        Z3_ast *ms = mf_unroll_state(T, step), *ps = mf_unroll_state(L->P, step);
        for (int s = 0; s < n; s++)
            Z3_solver_assert(c, V, mf_enc_eq(E, ps[s], mf_enc_val(E, mf_enc_eval(
                                                               E, mdl, ms[s]))));
        if (step) {
            Z3_ast *p0 = mf_unroll_state(L->P, 0);
            for (int s = 0; s < n; s++)
                Z3_solver_assert(c, V, mf_enc_eq(E, p0[s], mf_enc_val(E, mf_enc_eval(
                                                                   E, mdl, L->S[s]))));
        }
        int no = mf_enc_nobs(E);
        mf_val *vals = mf_xcalloc((size_t)(no + 1), sizeof *vals);
        Z3_ast *mo = mf_unroll_obs(T, step);
        for (int i = 0; i < no; i++)
            vals[i] = mf_enc_eval(E, mdl, mo[i]);
        Z3_solver_assert(c, V, mf_z3_obs_is(E, mf_unroll_obs(L->P, step), vals));
        free(vals);
        Z3_solver_assert(c, V, mf_unroll_ok(L->P, step));
        Z3_lbool r2 = mf_z3_check(c, V, L->rev ? na : 0, as, why, whyn);
        if (r2 != Z3_L_TRUE) {
            Z3_solver_pop(c, V, 1);
            mf_z3_model_free(c, mdl);
            return r2 == Z3_L_UNDEF ? -1 : 0;
        }
        Z3_model vm = mf_z3_model(c, V);
        mf_unroll *X = mf_unroll_new(EX, A, "lx", xmeta, L->in, 0, L->S);
        mf_unroll_extend(X, step);
        /* A choice that is a cell's new value is bound to T's value of
         * that cell rather than fixed: one copy then matches every
         * successor of that shape (gigamax: over 100 copies with every
         * choice fixed gave up). */
        for (int k = 0; k <= step; k++) {
            int nx;
            Z3_ast *xc = mf_unroll_choices(X, k, &nx);
            const int *cs = mf_unroll_choice_slots(X, k);
            Z3_ast *mk = mf_unroll_state(T, k);
            mf_valset cv = {0};
            step_choices(E, vm, L->P, k, &cv);
            for (int i = 0; i < nx && i < cv.n; i++)
                Z3_solver_assert(c, A, mf_enc_eq(E, xc[i], cs[i] >= 0
                                                 ? mk[cs[i]]
                                                 : mf_enc_val(E, cv.v[i])));
            MF_VEC_FREE(cv);
        }
        Z3_ast *xs = mf_unroll_state(X, step);
        Z3_ast *eqs = mf_xcalloc((size_t)(n + 3), sizeof *eqs);
        int ne = 0;
        for (int s = 0; s < n; s++)
            eqs[ne++] = mf_enc_eq(E, xs[s], ms[s]);
        eqs[ne++] = mf_enc_obs_eq(E, mf_unroll_obs(X, step), mf_unroll_obs(T, step));
        eqs[ne++] = mf_unroll_ok(X, step);
        mf_z3_implies(E, A, L->g, mf_enc_not(E, mf_enc_and(E, ne, eqs)));
        free(eqs);
        mf_unroll_free(X);
        mf_z3_model_free(c, vm);
        Z3_solver_pop(c, V, 1);
        mf_z3_model_free(c, mdl);
    }
}

static int lockstep(mf_batch *B, int j, int step, const mf_reach *rs, char *why,
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
 * checks after it with "timeout" at once (dme1, 20 sampled: after one
 * mutant's reversed lock-step ran out, three more gave up in 0.04 s
 * each). Returns how many are left (proved). */
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
            refusal_tried(B, live);
        const mf_reach *from = step && rs->ok ? rs : NULL;
        /* The step needs no solver where the mutant steps as the
         * original (either way). */
        int *ask = mf_xmalloc(sizeof *ask * (size_t)B->nmut);
        for (int j = 0; j < B->nmut; j++)
            ask[j] = live[j] && !(step && steps_as_original(B, j, rs));
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

/* Lock-step for the mutants marked in `mark`, in solvers they share: each
 * one proved is equivalent (and leaves mark); each is marked as tried
 * (lsdone) unless an encoder met a construct it cannot encode, whose
 * mutants their own encoders try again. Returns how many were proved. */
static int prove_marked(mf_batch *S, int *mark)
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
        mf_batch_settle(S, j, MF_V_EQUIVALENT, 0, NULL, "%s", rs->ok
                 ? "lock-step induction on the original's reachable states"
                 : "lock-step induction");
        mark[j] = 0;
    }
    free(p);
    return proved;
}

/* The potential kills of `live` no test upgrades: the reversed lock-step
 * shows the mutant has every original behaviour (assign-remove and
 * constraint-remove mutants often do: yyaan, 40 sampled, 4 of them, each
 * a definite refinement to its limit before). Marked in the method; the
 * rest stay in live. */
static void no_definite(mf_batch *B, int *live)
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

/* Proof method 3: k-induction with simple-path constraints on the product
 * of original and mutant (both deterministic), property "the mutant
 * accepts where the original does and shows the same observables". Base:
 * the batch's search found no kill up to the bound, so k runs up to it.
 * Step k: from arbitrary states (s0, t0) (domains, state invariants), k
 * steps on which both accept and agree, the k+1 product states pairwise
 * distinct (every cell), then a step the original accepts and the mutant
 * refuses or shows other observables: unsatisfiable proves equivalence
 * at every length. With simple paths it is complete once k passes the
 * product's longest loop-free path. 1 proved (k in *kout), 0 not within
 * the bound, -1 unknown. */
static int kinduction(mf_batch *B, int j, int *kout, char *why, size_t whyn)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_model *m = B->m;
    int n = m->nslots, res = 0;
    Z3_solver S = mf_z3_solver(c, B->o, B->qfbv);
    mf_inputs *in = mf_inputs_new(E, S, "ki");
    Z3_ast *s0 = mf_enc_fresh_state(E, "kso");
    Z3_ast *t0 = mf_enc_fresh_state(EM, "ksm");
    mf_unroll *O = mf_unroll_new(E, S, "ko", 0, in, 0, s0);
    mf_unroll *M = mf_unroll_new(EM, S, "km", B->meta, in, 0, t0);
    if (B->meta)
        mf_enc_assert_sels(EM, S);
    Z3_ast as[2];
    int na = mf_batch_assume(B, j, as);
    for (int k = 0; k <= B->mu[j].v->bound; k++) {
        mf_unroll_extend(O, k + 1);
        mf_unroll_extend(M, k + 1);
        /* state k is on the path: both accept, same observables, and it
         * differs from every earlier product state */
        Z3_ast on[3] = {mf_unroll_ok(O, k), mf_unroll_ok(M, k),
                        mf_enc_obs_eq(E, mf_unroll_obs(O, k), mf_unroll_obs(M, k))};
        Z3_solver_assert(c, S, mf_enc_and(E, 3, on));
        Z3_ast *ok_ = mf_unroll_state(O, k), *mk = mf_unroll_state(M, k);
        for (int a = 0; a < k; a++) {
            Z3_ast *oa = mf_unroll_state(O, a), *ma = mf_unroll_state(M, a);
            Z3_ast *eq = mf_xcalloc((size_t)(2 * n + 1), sizeof *eq);
            int ne = 0;
            for (int sl = 0; sl < n; sl++) {
                eq[ne++] = mf_enc_eq(E, ok_[sl], oa[sl]);
                eq[ne++] = mf_enc_eq(E, mk[sl], ma[sl]);
            }
            Z3_solver_assert(c, S, mf_enc_not(E, mf_enc_and(E, ne, eq)));
            free(eq);
        }
        Z3_ast bad[2] = {mf_unroll_ok(M, k + 1),
                         mf_enc_obs_eq(E, mf_unroll_obs(O, k + 1),
                                mf_unroll_obs(M, k + 1))};
        Z3_ast g = mf_z3_lit(E, "kg");
        Z3_ast step[2] = {mf_unroll_ok(O, k + 1), mf_enc_not(E, mf_enc_and(E, 2, bad))};
        mf_z3_implies(E, S, g, mf_enc_and(E, 2, step));
        as[na] = g;
        Z3_lbool r = mf_z3_check(c, S, na + 1, as, why, whyn);
        if (r == Z3_L_FALSE) {
            *kout = k;
            res = 1;
            break;
        }
        if (r == Z3_L_UNDEF) {
            res = -1;
            break;
        }
        Z3_solver_assert(c, S, mf_enc_not(E, g));
    }
    mf_unroll_free(O);
    mf_unroll_free(M);
    mf_inputs_free(in);
    free(s0);
    free(t0);
    mf_z3_solver_free(c, S);
    return res;
}

static _Atomic long explorer_tests[2]; /* potential, definite */

long mf_engine_explorer_tests(mf_notion notion)
{
    return explorer_tests[notion != MF_N_POTENTIAL];
}

/* The explorer's kill of mutant j as a test: its inputs, an original run
 * over them (mf_replay_fill_expect), for a potential kill the mutant's behaviour
 * (or its refusal of the last input). Only if the replay confirms the
 * notion; else NULL, and the solver searches from the explorer's length as
 * before. No solver call: the explorer knows the shortest kill already
 * (dme1, 40 sampled at bound 10: the joint potential queries were half of
 * the batch's time, each finding a test of the length the explorer had
 * found). With the quantified engine (to compare), none. */
static mf_test *explorer_test(mf_batch *B, int j, const mf_explore_notion *nt,
                              mf_notion notion)
{
    const mf_input_seq *s = nt->test;
    int n = B->m->nslots, nobs = mf_enc_nobs(B->E), len = nt->length;
    if (!s || s->nsteps != len || (notion == MF_N_POTENTIAL && !nt->mobs) ||
        B->o->engine != MF_ENGINE_CEGIS)
        return NULL;
    mf_test *t = mf_test_new(n, nobs, len);
    memcpy(t->inputs, s->init, sizeof *t->inputs * (size_t)n);
    memcpy(t->inputs + n, s->steps, sizeof *t->inputs * (size_t)n * len);
    if (notion == MF_N_POTENTIAL) {
        size_t sz = sizeof *t->mobs * (size_t)(len + 1) * (size_t)nobs;
        t->mobs = mf_xmalloc(sz ? sz : 1);
        memcpy(t->mobs, nt->mobs, sz);
    }
    if (nt->refusal && notion != MF_N_DEFINITE)
        t->mrefuses = len;
    if (mf_replay_fill_expect(B->m, t) != 0 ||
        mf_engine_replay(B->m, B->mu[j].model, t, notion) != 0) {
        mf_test_free(t);
        return NULL;
    }
    explorer_tests[notion != MF_N_POTENTIAL]++;
    return t;
}

/* Proof method 4: explicit-state exploration of the product, exact when
 * it is small (model/explore.h, subset construction for non-determinism).
 * 1: decided: not potentially killable (equivalent), or its shortest
 * potential kill is longer than the bound (survived: no kill of either
 * notion up to the bound, as definite kills are potential ones); 0:
 * killable within the bound (the solver finds the test, from the
 * explorer's length on; xlen, so that no proof is tried); -1: too
 * large or failed. */
static int explicit_proof(mf_batch *B, int j)
{
    if (B->mu[j].xlen >= 0)
        return 0;
    if (!B->xctx || B->o->explicit_max <= 0 || B->mu[j].xdone)
        return -1;
    B->mu[j].xdone = 1;
    mf_explore_result r;
    mf_explore_with(B->xctx, &r, B->mu[j].model, MF_EXPLORE_POTENTIAL,
                    B->o->explicit_max, 0);
    int res = -1;
    if (r.potential.verdict == MF_XV_NOT_KILLABLE) {
        mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL,
                        "explicit-state product exploration (%ld states)",
                        r.potential.nodes);
        res = 1;
    } else if (r.potential.verdict == MF_XV_KILLED) {
        B->mu[j].xlen = r.potential.length;
        B->mu[j].xref = r.potential.refusal;
        res = 0;
        /* A deterministic pair's kill is a deterministic one. */
        mf_verdict *v = B->mu[j].v;
        mf_notion nn = v->orig_det && v->mut_det ? MF_N_DETERMINISTIC
                                                 : MF_N_POTENTIAL;
        mf_test *t = r.potential.length <= B->o->bound
                         ? explorer_test(B, j, &r.potential, nn)
                         : NULL;
        if (t) {
            /* Killed, as the searches would have: a potential kill's
             * definite upgrade follows (MF_SEARCHED_POTENTIAL). */
            mf_batch_settle(B, j, MF_V_KILLED, nn, t, NULL);
            B->mu[j].killed_at = r.potential.length;
            B->mu[j].searched = MF_SEARCHED_POTENTIAL;
        }
        if (r.potential.length > B->o->bound) {
            /* dme1, 20 sampled at bound 20: 4 such survivors, each
             * refuted length by length to the bound in a few seconds. */
            mf_batch_settle(B, j, MF_V_SURVIVED, 0, NULL,
                            "explicit-state exploration: shortest kill %d",
                            r.potential.length);
            B->mu[j].v->bound = B->o->bound;
            res = 1;
        }
    }
    else if (r.potential.verdict == MF_XV_LIMIT)
        B->xbig = 1;
    mf_explore_result_free(&r);
    return res;
}

static void prove(mf_batch *B, int j, int det)
{
    char why[256] = "";
    mf_reach *rs = B->rs;
    if (!mf_batch_may_be_equivalent(B, j))
        return;
    /* The step from the original's reachable states when they are known (a
     * step from any state fails wherever an unreachable state tells them
     * apart, and costs as much), else from any state. */
    int base = B->mu[j].lsdone ? 0 : lockstep(B, j, 0, NULL, why, sizeof why);
    if (base == 1 && !rs->done)
        mf_reach_compute(B->m, rs);
    if (base == 1) {
        int *one = mf_xcalloc((size_t)B->nmut, sizeof *one);
        one[j] = 1;
        refusal_tried(B, one);
        free(one);
    }
    int st = base != 1                    ? 0
             : steps_as_original(B, j, rs) ? 1
                                           : lockstep(B, j, 1, rs->ok ? rs : NULL,
                                                      why, sizeof why);
    if (st == 1) {
        mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL, "%s", rs->ok
                 ? "lock-step induction on the original's reachable states"
                 : "lock-step induction");
        return;
    }
    int k;
    if (det && kinduction(B, j, &k, why, sizeof why) == 1)
        mf_batch_settle(B, j, MF_V_EQUIVALENT, 0, NULL,
                        "k-induction with simple paths (k = %d)", k);
}

/* ------------------------------------------------------------------ */
/* Driver                                                               */

/* The shortest length a definite kill of j may have: its shortest
 * potential kill's, or the explorer's shortest definite kill's. */
static int def_from(const mf_batch *B, int j)
{
    return B->mu[j].xdlen > B->mu[j].killed_at ? B->mu[j].xdlen : B->mu[j].killed_at;
}

/* 1 if the explorer shows that j, a potential kill its test does not
 * upgrade, has no definite kill up to the bound (noted in its method): no
 * definite search for it. Explored here, when the definite search is
 * next, only where the potential product was within the limit (xlen
 * known): most definite kills are the potential test's (mf_batch_upgrade_replay),
 * and exploring them all cost yyaan, 40 sampled, 45% more CPU. dme1 and
 * gigamax have a handful of definite kills among thousands; searching for
 * the rest ran to the bound or the budget (gigamax, 60 sampled at bound
 * 20: 80% of the CPU, no upgrade). */
static int xno_definite(mf_batch *B, int j)
{
    mf_verdict *v = B->mu[j].v;
    if (B->mu[j].xdlen == MF_XD_UNEXPLORED && B->mu[j].xlen >= 0 && B->xctx && !B->xbig) {
        /* To the bound only: the subset construction past it can be most
         * of the work (dme1, 40 sampled at bound 10: 5.2 -> 3.2 s). */
        mf_explore_result r;
        mf_explore_with(B->xctx, &r, B->mu[j].model, MF_EXPLORE_DEFINITE,
                        B->o->explicit_max, B->o->bound);
        const mf_explore_notion *d = &r.definite;
        B->mu[j].xdlen = d->verdict == MF_XV_KILLED         ? d->length
                      : d->verdict == MF_XV_NOT_KILLABLE ? MF_XD_NONE
                      : d->verdict == MF_XV_LIMIT && d->cut ? MF_XD_NONE_UPTO
                                                            : MF_XD_LIMIT;
        /* Its shortest definite kill, as a test (explorer_test). */
        mf_test *t = d->verdict == MF_XV_KILLED && d->length <= B->o->bound
                         ? explorer_test(B, j, d, MF_N_DEFINITE)
                         : NULL;
        mf_explore_result_free(&r);
        if (t) {
            mf_batch_settle(B, j, MF_V_KILLED, MF_N_DEFINITE, t, NULL);
            return 1;
        }
    }
    int L = B->mu[j].xdlen;
    if (L <= B->o->bound)
        return 0;
    if (L == MF_XD_NONE)
        snprintf(v->method, sizeof v->method,
                 "no definite kill: explicit-state exploration");
    else if (L == MF_XD_NONE_UPTO)
        snprintf(v->method, sizeof v->method,
                 "no definite kill up to %d: explicit-state exploration",
                 B->o->bound);
    else
        snprintf(v->method, sizeof v->method,
                 "shortest definite kill %d: explicit-state exploration", L);
    return 1;
}

/* The definite upgrade of the potential kills of pot_joint, for all of
 * them together, as def_search does it for one: the synthesis solver
 * proposes inputs and one of the mutants (the assumption: one of their
 * selectors, each from its potential kill length on); the verifier looks
 * for an original and a behaviour of that mutant that agree; a pair found
 * blocks those inputs for every mutant (the mutant copy reads the
 * selector: where it accepts and agrees for another mutant, that mutant
 * has such a pair too). Upgraded, searched to the bound, or given up
 * within the sum of their budgets: MF_SEARCHED_DEFINITE. A potential test that kills
 * definitely as it is needs no search (mf_batch_upgrade_replay first).
 *
 * Only when at least a quarter of the batch is left to upgrade (and two):
 * the joint solvers carry every mutant's sites, so a few mutants of a
 * large batch are upgraded faster one by one, each with an encoder of its
 * own (decide_alone). refuse.smv, all 77 at bound 20 with the explorer
 * off, three left: 10.7 s -> 1.35 s, and all three searched to the bound
 * instead of given up at 18; door_lock, 40 sampled at bound 20, five left:
 * 17.2 s -> 4.9 s, two of them now definite kills (all 152: 45.2 s ->
 * 14.3 s, 94 definite kills either way, one gained and one lost to the
 * budget). */
#define JOINT_DEF_SHARE 4
static void def_joint(mf_batch *B)
{
    Z3_context c = B->c;
    mf_enc *E = B->E, *EM = B->EM;
    const mf_engine_opts *o = B->o;
    int n = B->nmut, lo = o->bound + 1;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    for (int j = 0; j < n; j++) {
        mf_verdict *v = B->mu[j].v;
        if (B->mu[j].searched != MF_SEARCHED_POTENTIAL || v->kind != MF_V_KILLED ||
            v->notion != MF_N_POTENTIAL)
            continue;
        /* The explorer first: its definite exploration costs less than the
         * replay of the potential test as a definite one (dme1, 40 sampled
         * at bound 10: 0.2 s of replays for 22 kills). */
        if (xno_definite(B, j) || mf_batch_upgrade_replay(B, j, v->test)) {
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            continue;
        }
        live[j] = 1;
    }
    if (mf_batch_nmarked(B, live) >= 2 && B->o->prove)
        no_definite(B, live);
    for (int j = 0; j < n; j++)
        if (live[j] && def_from(B, j) < lo)
            lo = def_from(B, j);
    int left = mf_batch_nmarked(B, live);
    if (left < 2 || JOINT_DEF_SHARE * left < n || lo < 0) {
        free(live);
        return;
    }
    if (!has_inputs(B->m)) { /* one agreement solver for all */
        agreeq A;
        agreeq_open(B, &A);
        for (int j = 0; j < n; j++) {
            char why[256];
            mf_test *t = NULL;
            if (!live[j])
                continue;
            if (agreeq_kill(B, &A, j, def_from(B, j), &t, why, sizeof why) >=
                0)
                B->mu[j].searched = MF_SEARCHED_DEFINITE; /* the upgrade or none up to the bound */
            else if (mf_batch_marked_after(B, live, j)) {
                /* A solver past its limit gives up at once after. */
                agreeq_close(B, &A);
                agreeq_open(B, &A);
            }
            if (t)
                mf_batch_upgrade_replay(B, j, t);
            mf_test_free(t);
        }
        agreeq_close(B, &A);
        free(live);
        return;
    }
    mf_batch_pair sx, vx; /* synthesis: O (its m unused); verifier: P, Q */
    mf_batch_pair_open(&sx, B, E, EM, 1, 1, "u");
    mf_batch_pair_open(&vx, B, E, EM, 1, 0, "v");
    Z3_solver syn = sx.s, ver = vx.s;
    mf_inputs *in = sx.in, *vin = vx.in;
    mf_unroll *O = sx.o, *P = vx.o, *Q = vx.m;
    bpool bp = {.n = 2, .from = {P, Q}, .enc = {E, EM}, .meta = {0, 1},
                .tag = {"ub", "uc"}};
    double saved_wall = mf_z3_deadline();
    mf_z3_set_deadline(0);
    B->deadline = mf_batch_joint_deadline(B, left, 1.0 / 3);
    int iters = 0, cap = (o->cegis_max / 10) * left;
    int gave_at = -1; /* the length at which the search gave up, -1 none */
    /* Per mutant: the copy last found for it, and the lengths its
     * lookahead refuted (it sits out the search up to there). */
    int *own = mf_xmalloc(sizeof *own * (size_t)n);
    int *upto = mf_xmalloc(sizeof *upto * (size_t)n);
    for (int j = 0; j < n; j++)
        own[j] = upto[j] = -1;
    for (int d = lo; d <= o->bound && mf_batch_nmarked(B, live) && gave_at < 0; d++) {
        mf_unroll_extend(O, d);
        mf_unroll_extend(P, d);
        mf_unroll_extend(Q, d);
        int *now_live = mf_xcalloc((size_t)n, sizeof *now_live);
        for (int j = 0; j < n; j++)
            now_live[j] = live[j] && def_from(B, j) <= d && upto[j] < d;
        Z3_ast g = mf_z3_lit(E, "ug");
        Z3_ast pick = mf_batch_pick(B, syn, now_live);
        while (mf_batch_nmarked(B, now_live)) {
            char why[256];
            Z3_lbool r = mf_batch_joint_query(B, syn, pick, g, &iters, cap);
            if (r == Z3_L_UNDEF) {
                gave_at = d;
                break;
            }
            if (r == Z3_L_FALSE) {
                block_lemma(&bp, syn, NULL, d, NULL, 1, &pick);
                /* d refuted for all of them: each one's own copy, its
                 * last step repeated, may refute the lengths after d
                 * too (def_lookahead; once per mutant, as def_search). A
                 * mutant refuted to the bound is done. */
                for (int j = 0; j < n; j++) {
                    if (!now_live[j] || own[j] < 0 ||
                        bp.v.v[own[j]].depth < d)
                        continue;
                    int D = def_lookahead(B, j, &bp, &bp.v.v[own[j]], d);
                    own[j] = -2; /* looked */
                    if (D >= o->bound) {
                        B->mu[j].searched = MF_SEARCHED_DEFINITE;
                        live[j] = 0;
                    } else if (D > d) {
                        upto[j] = D;
                    }
                }
                break;
            }
            Z3_model mdl = mf_z3_model(c, syn);
            int q = mf_batch_picked(B, mdl, now_live);
            if (q < 0) {
                mf_z3_model_free(c, mdl);
                gave_at = d;
                break;
            }
            Z3_ast vs[1] = {mf_enc_sel(EM, q)};
            Z3_lbool r2 = pair_query(B, ver, vin, in, mdl, P, Q, d, 1, vs,
                                     why, sizeof why);
            if (r2 == Z3_L_UNDEF) {
                Z3_solver_pop(c, ver, 1);
                mf_z3_model_free(c, mdl);
                gave_at = d;
                break;
            }
            if (r2 == Z3_L_FALSE) {
                /* No pair agrees: a definite kill of q at d, a shortest
                 * one for every mutant still here that it kills. */
                Z3_solver_pop(c, ver, 1);
                mf_test *t = mf_z3_test(E, mdl, in, O, NULL, d);
                mf_z3_model_free(c, mdl);
                mf_batch_upgrade_replay(B, q, t);
                B->mu[q].searched = MF_SEARCHED_DEFINITE;
                for (int j = 0; j < n; j++)
                    if (now_live[j] && j != q)
                        mf_batch_upgrade_replay(B, j, t);
                mf_test_free(t);
                for (int j = 0; j < n; j++)
                    if (B->mu[j].searched == MF_SEARCHED_DEFINITE)
                        live[j] = now_live[j] = 0;
                if (mf_batch_nmarked(B, now_live))
                    pick = mf_batch_pick(B, syn, now_live);
                continue;
            }
            int b = block_found(&bp, syn, ver, in, NULL, g, d, mdl);
            if (own[q] != -2)
                own[q] = b;
        }
        free(now_live);
    }
    /* The rest: no definite kill up to the bound, or none within the sum
     * of their budgets (their own searches would not do better; the
     * method says where it gave up). */
    for (int j = 0; j < n; j++)
        if (live[j]) {
            B->mu[j].searched = MF_SEARCHED_DEFINITE;
            if (gave_at >= 0)
                snprintf(B->mu[j].v->method, sizeof B->mu[j].v->method,
                         "upgrade gave up at length %d", gave_at);
        }
    free(own);
    free(upto);
    mf_z3_set_deadline(saved_wall);
    bpool_free(&bp);
    mf_batch_pair_close(&sx, B);
    mf_batch_pair_close(&vx, B);
    free(live);
}

/* The refinement and proof work of one mutant (its determinism decided,
 * the batch's deterministic search done). */
static void decide_one(mf_batch *B, int j, int det)
{
    mf_verdict *v = B->mu[j].v;
    if (det) {
        /* Lock-step first: one or two solver calls prove most. */
        if (B->o->prove) {
            prove(B, j, det);
            if (B->mu[j].todo)
                explicit_proof(B, j);
        }
        return;
    }
    /* Refinement is costly where nothing kills: proofs first, the exact
     * explicit exploration first where products are small. With learnt
     * steps the refinement is cheap: lock-step waits for the mutants it
     * leaves. */
    int late = 0;
    if (B->o->prove && B->o->notion != MF_REQ_DEFINITE && B->mu[j].todo &&
        B->mu[j].searched && B->xbig && B->o->engine == MF_ENGINE_CEGIS) {
        /* The joint search left it, and the batch's products are past the
         * explorer's limit: lock-step (a second or two) first. gigamax, 40
         * sampled: 10 explorations to the limit, 2.5 s each, saved. */
        prove(B, j, det);
        if (B->mu[j].todo)
            explicit_proof(B, j);
        if (!B->mu[j].todo)
            return;
    } else if (B->o->prove && B->o->notion != MF_REQ_DEFINITE &&
               B->mu[j].todo) {
        int x = explicit_proof(B, j);
        if (x == 1)
            return;
        if (x < 0 && B->lib && B->o->engine == MF_ENGINE_CEGIS)
            late = 1;
        else if (x < 0) {
            prove(B, j, det);
            if (!B->mu[j].todo)
                return;
        }
    }
    if (B->o->engine == MF_ENGINE_QUANTIFIED) {
        /* The paper's quantified encoding (quant.c): to compare. */
        char why[256] = "";
        mf_test *t = NULL;
        int def = B->o->notion == MF_REQ_DEFINITE;
        int r = mf_quant_search(B->E, B->EM, B->meta, j, B->o, def, 0, &t,
                                why, sizeof why);
        if (r == 1)
            mf_batch_kill(B, j, t, def ? MF_N_DEFINITE : MF_N_POTENTIAL);
        else if (r < 0)
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", why);
        return;
    }
    B->deadline = mf_z3_now() + B->o->timeout_ms / 1000.0;
    if (mf_z3_deadline() > 0 && B->deadline > mf_z3_deadline())
        B->deadline = mf_z3_deadline();
    if (B->o->notion != MF_REQ_DEFINITE) {
        if (!B->mu[j].searched)
            pot_search(B, j);
        if (late && B->mu[j].todo) {
            prove(B, j, det);
            if (!B->mu[j].todo)
                return;
        }
        B->deadline = mf_z3_now() + B->o->timeout_ms / 3000.0;
        if (mf_z3_deadline() > 0 && B->deadline > mf_z3_deadline())
            B->deadline = mf_z3_deadline();
        if (v->kind == MF_V_KILLED && B->o->notion == MF_REQ_AUTO &&
            v->notion == MF_N_POTENTIAL) {
            /* Cheap first: the explorer's shortest definite kill, or none
             * up to the bound (xno_definite; dme1, 40 sampled at bound
             * 10: cheaper than the replays); else the potential test
             * itself may kill definitely (then it is a shortest definite
             * kill: none is shorter than the shortest potential one).
             * yyaan, 20 sampled mutants: 17 of 18 upgrades, 15 s ->
             * 11.5 s. */
            if (xno_definite(B, j) || mf_batch_upgrade_replay(B, j, v->test))
                return;
        }
        if (v->kind == MF_V_KILLED && B->o->notion == MF_REQ_AUTO &&
            B->o->prove) {
            int *one = mf_xcalloc((size_t)B->nmut, sizeof *one);
            one[j] = 1;
            no_definite(B, one);
            int left = one[j];
            free(one);
            if (!left)
                return;
        }
        if (v->kind == MF_V_KILLED && B->o->notion == MF_REQ_AUTO) {
            mf_verdict tmp = {0};
            if (def_search(B, j, def_from(B, j), B->o->cegis_max / 10,
                           &tmp)) {
                /* Upgrade only if the replay confirms it. */
                if (mf_engine_replay(B->m, B->mu[j].model, tmp.test,
                                     MF_N_DEFINITE) == 0)
                    mf_batch_settle(B, j, MF_V_KILLED, MF_N_DEFINITE,
                                    tmp.test, NULL);
                else
                    mf_test_free(tmp.test);
            } else if (tmp.reason[0]) {
                const char *why = tmp.reason; /* "definite refinement: ..." */
                if (strncmp(why, "definite ", 9) == 0)
                    why += 9;
                snprintf(v->method, sizeof v->method, "upgrade gave up: %.46s",
                         why);
            }
        }
    } else {
        mf_verdict tmp = {0};
        if (def_search(B, j, 0, B->o->cegis_max, &tmp))
            mf_batch_kill(B, j, tmp.test, MF_N_DEFINITE);
        else if (tmp.reason[0])
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s", tmp.reason);
    }
}

/* Mutant j alone: a batch of one with its own encoder, so that its
 * solvers do not carry every other mutant's sites. */
static void decide_alone(mf_batch *B, int j, int det)
{
    if (det && !B->o->prove)
        return; /* searched to the bound; nothing else to try */
    double t0 = mf_z3_now();
    mf_z3_set_wall_timeout(B->o->timeout_ms);
    mf_z3_set_deadline(B->o->mutant_ms ? t0 + B->o->mutant_ms / 1000.0 : 0);
    if (!B->meta || B->nmut == 1) {
        decide_one(B, j, det);
        mf_z3_set_deadline(0);
        return;
    }
    mf_variant v = {B->mu[j].mut->item, B->mu[j].mut->repl};
    mf_batch S = *B;
    S.E = S.EM = mf_enc_new(B->c, B->m, &v, 1, NULL, B->o->encoding);
    S.qfbv = mf_enc_bits(S.E) > 0;
    S.nmut = 1;
    S.mu = &B->mu[j];
    decide_one(&S, 0, det);
    const char *u = mf_enc_unsupported(S.E);
    if (u && B->mu[j].v->kind != MF_V_KILLED)
        mf_batch_settle(B, j, MF_V_ERROR, 0, NULL, "%s", u);
    B->deadline = S.deadline;
    B->xbig = S.xbig;
    mf_enc_free(S.E);
    mf_z3_set_deadline(0);
}

/* The joint searches over at most JOINT_MAX mutants at a time, each group
 * with an encoder of its own sites (as the farm's jobs are, job_max 64):
 * one conditional mutant over every site of `check --all` on a large model
 * (over a thousand) would make every query carry all of them. A group
 * whose encoder meets a construct it cannot encode faithfully leaves its
 * undecided mutants to their own searches, which report it. */
#define JOINT_MAX 64

/* fn on each group of at most JOINT_MAX mutants of B (all of B if it is
 * one), as a batch of its own with an encoder of the group's sites; with
 * that encoder's unsupported construct, if any. */
typedef void group_fn(mf_batch *S, const int *det, const char *unsup);

static void each_group(mf_batch *B, const int *det, group_fn *fn)
{
    if (B->nmut <= JOINT_MAX) {
        fn(B, det, NULL);
        return;
    }
    for (int start = 0; start < B->nmut; start += JOINT_MAX) {
        int k = B->nmut - start < JOINT_MAX ? B->nmut - start : JOINT_MAX;
        mf_variant *vs = mf_xcalloc((size_t)k, sizeof *vs);
        for (int q = 0; q < k; q++) {
            vs[q].item = B->mu[start + q].mut->item;
            vs[q].repl = B->mu[start + q].mut->repl;
        }
        mf_batch S = *B;
        S.E = S.EM = mf_enc_new(B->c, B->m, vs, k, NULL, B->o->encoding);
        free(vs);
        S.qfbv = mf_enc_bits(S.E) > 0;
        S.nmut = k;
        S.mu = B->mu + start;
        fn(&S, det + start, "");
        B->xbig |= S.xbig;
        mf_enc_free(S.E);
    }
}

static void search_group(mf_batch *S, const int *det, const char *unsup)
{
    pot_joint(S, det);
    if (S->o->notion == MF_REQ_AUTO)
        def_joint(S);
    if (unsup && mf_enc_unsupported(S->E))
        for (int q = 0; q < S->nmut; q++)
            if (S->mu[q].v->kind != MF_V_KILLED)
                S->mu[q].searched = MF_SEARCHED_NONE;
}

/* Lock-step for the mutants the batch's searches left (searched to the
 * bound), a group at a time in one set of solvers per step kind (lockq):
 * gigamax, 40 sampled, 10 such mutants: 1.5 s each alone, the reachable
 * states (8872) encoded for each. Each mutant's checks within the solver
 * timeout. */
static void proof_group(mf_batch *S, const int *det, const char *unsup)
{
    (void)unsup;
    int n = S->nmut;
    int *live = mf_xcalloc((size_t)n, sizeof *live);
    /* Where products are small the explorer goes first (decide_one). */
    for (int j = 0; j < n; j++)
        live[j] = S->mu[j].todo && !S->mu[j].lsdone && mf_batch_may_be_equivalent(S, j) &&
                  (det[j] || (S->mu[j].searched && (S->xbig || S->mu[j].xdone)));
    if (mf_batch_nmarked(S, live) >= 2)
        prove_marked(S, live);
    free(live);
}

static void run_batch(mf_batch *B)
{
    int n = B->nmut;
    int *det = mf_xcalloc((size_t)(n ? n : 1), sizeof *det);
    for (int j = 0; j < n; j++)
        det[j] = B->mu[j].v->orig_det && B->mu[j].v->mut_det;
    /* Deterministic mutants: one incremental solver, depth by depth. */
    det_search(B, det);
    /* The others, with learnt steps: one potential search for all. */
    if (B->lib && B->meta && B->o->engine == MF_ENGINE_CEGIS &&
        B->o->notion != MF_REQ_DEFINITE) {
        /* Small products first: the explorer decides the equivalent
         * mutants at once, which would otherwise ride the joint search to
         * the bound; until one product is past its limit (the model's are
         * large: the rest wait for the mutants the search leaves).
         * Collision_RFID, 40 sampled at bound 10: 9 equivalents. */
        for (int j = 0; j < n && B->o->prove; j++)
            if (B->mu[j].todo && !det[j] && explicit_proof(B, j) < 0)
                break;
        each_group(B, det, search_group);
    }
    if (B->meta && B->o->prove && B->o->engine == MF_ENGINE_CEGIS)
        each_group(B, det, proof_group);
    /* The others, and the proofs: one at a time, tests of the batch
     * replayed first (a definite replay also holds for deterministic
     * pairs). */
    for (int j = 0; j < n; j++) {
        /* A kill of the joint search still tries the definite upgrade. */
        int upgrade = B->mu[j].searched == MF_SEARCHED_POTENTIAL && B->mu[j].v->kind == MF_V_KILLED &&
                      B->mu[j].v->notion == MF_N_POTENTIAL &&
                      B->o->notion == MF_REQ_AUTO;
        if (!B->mu[j].todo && !upgrade)
            continue;
        if (!det[j]) {
            for (int t = 0; t < n && B->mu[j].todo; t++)
                if (t != j && B->mu[t].v->kind == MF_V_KILLED &&
                    B->mu[t].v->test && B->mu[t].v->notion != MF_N_POTENTIAL)
                    mf_batch_replay_kill(B, j, B->mu[t].v->test, MF_N_DEFINITE, 0);
            /* A potential kill carries the deviating behaviour of its
             * mutant: it kills j too if j has that behaviour. */
            for (int t = 0; t < n && B->mu[j].todo &&
                            B->o->notion != MF_REQ_DEFINITE; t++)
                if (t != j && B->mu[t].v->kind == MF_V_KILLED &&
                    B->mu[t].v->test && B->mu[t].v->notion == MF_N_POTENTIAL)
                    mf_batch_replay_kill(B, j, B->mu[t].v->test, MF_N_POTENTIAL, 0);
        }
        if (B->mu[j].todo || upgrade)
            decide_alone(B, j, det[j]);
    }
    const char *u1 = mf_enc_unsupported(B->E);
    const char *u2 = B->EM != B->E ? mf_enc_unsupported(B->EM) : NULL;
    if (u1 || u2) {
        for (int j = 0; j < n; j++)
            if (B->mu[j].v->kind != MF_V_KILLED)
                mf_batch_settle(B, j, MF_V_ERROR, 0, NULL, "%s",
                                u1 ? u1 : u2);
    }
    free(det);
}

static int check_batch(const mf_model *m, const mf_model *other,
                       const mf_engine_mutant *muts, int nmut,
                       const mf_engine_opts *o, mf_verdict *out)
{
    Z3_context c = mf_z3_context();
    mf_variant *vs = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *vs);
    for (int j = 0; j < nmut; j++) {
        vs[j].item = muts[j].item;
        vs[j].repl = muts[j].repl;
    }
    mf_batch B = {0};
    B.c = c;
    B.m = m;
    B.E = mf_enc_new(c, m, other ? NULL : vs, other ? 0 : nmut, other,
                     o->encoding);
    B.EM = other ? mf_enc_new(c, other, NULL, 0, m, o->encoding) : B.E;
    B.meta = !other;
    B.qfbv = mf_enc_bits(B.E) > 0;
    if (o->prove && o->explicit_max > 0)
        B.xctx = mf_explore_ctx_new(m);
    B.nmut = nmut;
    B.o = o;
    B.mu = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *B.mu);
    int orig_det = mf_model_structurally_det(m);
    for (int j = 0; j < nmut; j++)
        mf_batch_mut_open(&B.mu[j], &muts[j], other ? other : muts[j].mutated,
                          &out[j], o, orig_det);
    mf_reach rs = {0};
    B.rs = &rs;
    steplib lib = {{-1, -1}, {{0}, {0}}};
    if (obs_fix_state(m))
        B.lib = &lib;
    double t0 = mf_z3_now();
    mf_replay_memo *memo = mf_replay_memo_new(m);
    run_batch(&B);
    mf_replay_memo_free(memo);
    MF_VEC_FREE(lib.v[0]);
    MF_VEC_FREE(lib.v[1]);
    MF_VEC_FREE(rs.st);
    double dt = mf_z3_now() - t0;
    for (int j = 0; j < nmut; j++)
        out[j].secs = dt / (nmut ? nmut : 1);
    mf_explore_ctx_free(B.xctx);
    if (B.EM != B.E)
        mf_enc_free(B.EM);
    mf_enc_free(B.E);
    free(B.mu);
    free(vs);
    Z3_del_context(c);
    return 0;
}

int mf_engine_check(const mf_model *m, const mf_engine_mutant *muts,
                    int nmut, const mf_engine_opts *o, mf_verdict *out)
{
    if (o->mode == MF_MODE_FRESH) {
        for (int j = 0; j < nmut; j++) {
            double t0 = mf_z3_now();
            check_batch(m, NULL, &muts[j], 1, o, &out[j]);
            out[j].secs = mf_z3_now() - t0;
        }
        return 0;
    }
    return check_batch(m, NULL, muts, nmut, o, out);
}

static int same_layout(const mf_model *a, const mf_model *b)
{
    if (a->nvars != b->nvars || a->nslots != b->nslots)
        return 0;
    for (int i = 0; i < a->nvars; i++) {
        const mf_var *x = &a->vars[i], *y = &b->vars[i];
        if (strcmp(x->name, y->name) || x->decl != y->decl ||
            x->slot != y->slot || x->nslots != y->nslots ||
            x->is_input != y->is_input ||
            x->is_observable != y->is_observable)
            return 0;
    }
    if (a->nsyms != b->nsyms)
        return 0;
    for (int i = 0; i < a->nsyms; i++)
        if (strcmp(a->syms[i], b->syms[i]))
            return 0;
    return a->nobs_defines == b->nobs_defines;
}

int mf_engine_check_against(const mf_model *m, const mf_model *other,
                            const mf_engine_opts *o, mf_verdict *out)
{
    if (!same_layout(m, other))
        return mf_err_set(MF_EUNSUPPORTED,
                          "--against needs the same variables (names, "
                          "types, order, inputs, observables) and the same "
                          "symbolic constants in the same order in both "
                          "models");
    mf_engine_mutant mu = {-1, NULL, other};
    return check_batch(m, other, &mu, 1, o, out);
}
