/* kill_replay.c - what one test does to one mutant (kill_replay.h): the
 * two ways into the searches of kill_search.c over the layered graphs of
 * kill_graph.c, the kill matrix's (mf_kill_replay, the explorer's
 * definitions and limits, the tests made ready kept per thread) and the
 * nightly rerun's claims (mf_kill_claim, the rules of the engine's
 * replay, a kill as a test to confirm).
 *
 * It neither reads nor writes the store. */
#include "kill_int.h"

#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* The kill matrix's limits: states in one layer, nodes, pairs; past them
 * the pair is undecided (MF_ELIMIT). */
#define MATRIX_LIMIT 20000
/* Values the original's tests made ready may hold per replay thread, and
 * the values of a step memo (the original's, a mutant's); past them, a
 * test is made ready for each replay and steps are computed again. */
#define ORIG_TESTS_VALUES ((long)4 << 20)
#define ORIG_MEMO_VALUES ((size_t)1 << 20)
#define MUT_MEMO_VALUES ((size_t)1 << 20)

/* A claim's limits: states in one layer, nodes of one layer of the
 * potential search, pairs of one layer of the definite search. Past them
 * the test does not kill (that mutant). */
#define CLAIM_LAYER 4096
#define CLAIM_NODES 4096
#define CLAIM_PAIRS (1L << 20)

static const mf_kill_rules matrix_rules = {
    0, MATRIX_LIMIT, MATRIX_LIMIT, MATRIX_LIMIT, MATRIX_LIMIT, MATRIX_LIMIT};
/* A claim's initial pairs are not counted (at most CLAIM_LAYER squared). */
static const mf_kill_rules claim_rules = {1, CLAIM_LAYER, CLAIM_NODES,
                                          CLAIM_PAIRS, 1L << 62, 0};

/* ---- the kill matrix ------------------------------------------------------ */

/* The tests made ready on the original, found by their inputs (all a
 * graph depends on). */
typedef struct {
    uint64_t h;
    mf_kill_test *kt;
} ready;

struct mf_kill_orig {
    const mf_model *m;
    mf_kill_memo *memo;
    MF_VEC(ready) tests;
    long values; /* mf_kill_test_size of the tests kept */
};

static uint64_t inputs_hash(const mf_test *t)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)t->length;
    size_t nv = (size_t)(t->length + 1) * (size_t)t->nslots;
    for (size_t i = 0; i < nv; i++)
        h = (h ^ (uint64_t)t->inputs[i]) * 1099511628211ull;
    return h;
}

static int same_inputs(const mf_test *a, const mf_test *b)
{
    return a->length == b->length && a->nslots == b->nslots &&
           !memcmp(a->inputs, b->inputs,
                   sizeof *a->inputs * (size_t)(a->length + 1) *
                       (size_t)a->nslots);
}

/* Test t made ready on the original: kept from before, or made now
 * (`check`: its expected observables checked) and kept, or, past the
 * values kept, handed over (*own = 1: the caller frees it). */
static int orig_test(mf_kill_orig *o, const mf_test *t, int check,
                     mf_kill_test **out, int *own)
{
    *own = 0;
    uint64_t h = inputs_hash(t);
    for (int i = 0; i < o->tests.n; i++)
        if (o->tests.v[i].h == h && same_inputs(o->tests.v[i].kt->t, t)) {
            *out = o->tests.v[i].kt;
            return check ? mf_kill_expected_check(&(*out)->o, t) : 0;
        }
    mf_kill_test *kt = NULL;
    int rc = mf_kill_test_make(&kt, o->m, t, &matrix_rules, o->memo,
                               check ? MF_KILL_EXPECT_CHECK
                                     : MF_KILL_EXPECT_ANY,
                               NULL);
    if (rc < 0)
        return rc;
    *out = kt;
    if (o->values + mf_kill_test_size(kt) > ORIG_TESTS_VALUES) {
        *own = 1;
        return 0;
    }
    ready r = {h, kt};
    MF_VEC_PUSH(o->tests, r);
    o->values += mf_kill_test_size(kt);
    return 0;
}

int mf_kill_orig_new(mf_kill_orig **out, const mf_model *m)
{
    mf_kill_orig *o = mf_xcalloc(1, sizeof *o);
    o->m = m;
    o->memo =
        mf_kill_memo_new(m->nslots, mf_model_nobs(m), ORIG_MEMO_VALUES);
    *out = o;
    return 0;
}

void mf_kill_orig_free(mf_kill_orig *o)
{
    if (!o)
        return;
    for (int i = 0; i < o->tests.n; i++)
        mf_kill_test_free(o->tests.v[i].kt);
    MF_VEC_FREE(o->tests);
    mf_kill_memo_free(o->memo);
    free(o);
}

int mf_kill_test_check(mf_kill_orig *o, const mf_test *t)
{
    mf_kill_test *kt = NULL;
    int own, rc = orig_test(o, t, 1, &kt, &own);
    if (own)
        mf_kill_test_free(kt);
    return rc;
}

void mf_kill_mut_init(mf_kill_mut *out, const mf_model *orig,
                      const mf_model *mut)
{
    memset(out, 0, sizeof *out);
    out->m = mut;
    out->delta = mf_explore_step_delta(orig, mut, &out->item);
    out->memo = mf_kill_memo_new(mut->nslots, mf_model_nobs(mut),
                                 MUT_MEMO_VALUES);
}

void mf_kill_mut_free(mf_kill_mut *mu)
{
    if (!mu)
        return;
    mf_kill_memo_free(mu->memo);
    mu->memo = NULL;
}

/* The mutant's graph along kt's inputs, through the original's. */
static void mut_graph(mf_kill_graph *u, const mf_kill_test *kt,
                      const mf_model *mm, mf_kill_memo *memo, int delta,
                      int item)
{
    mf_kill_graph_init(u, mm, kt->t, &kt->rules, memo);
    u->base = kt;
    u->delta = delta;
    u->ditem = item;
}

int mf_kill_replay(mf_kill *out, mf_kill_orig *o, const mf_test *t,
                   mf_kill_mut *mu)
{
    mf_kill_test *kt = NULL;
    mf_kill_graph u;
    mf_kill_found f;
    int own;
    memset(out, 0, sizeof *out);
    out->refuses = -1;
    int rc = orig_test(o, t, 0, &kt, &own);
    if (rc < 0)
        return rc;
    mut_graph(&u, kt, mu->m, mu->memo, mu->delta, mu->item);
    rc = mf_kill_potential(&kt->o, &u, NULL, &f);
    if (rc == 0 && f.kill >= 0) {
        out->killed = 1;
        out->step = f.kill;
        out->refuses = f.any_refusal ? f.kill : -1;
        int det = mf_kill_graph_one_run(&kt->o, f.kill, 0) &&
                  mf_kill_graph_one_run(&u, f.kill, 1);
        out->notion = det ? MF_N_DETERMINISTIC : MF_N_POTENTIAL;
        int d;
        if (!det && (rc = mf_kill_definite(&kt->o, &u, kt->t->length, &d)) == 0 &&
            d >= 0) {
            out->notion = MF_N_DEFINITE;
            out->step = d;
        }
    }
    mf_kill_graph_free(&u);
    if (own)
        mf_kill_test_free(kt);
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

/* ---- claims ------------------------------------------------------------- */

int mf_kill_test_new(mf_kill_test **out, const mf_model *m, const mf_test *t,
                     int *reexpected)
{
    return mf_kill_test_make(out, m, t, &claim_rules, NULL,
                             MF_KILL_EXPECT_REDO, reexpected);
}

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
static mf_test *potential_test(const mf_test *t, const mf_kill_graph *u,
                               int d, const int *path, int refuses)
{
    mf_test *c = cut(t, d);
    size_t sz = (size_t)(d + 1) * (size_t)(c->nobs ? c->nobs : 1);
    c->mobs = mf_xcalloc(sz, sizeof *c->mobs);
    for (int k = 0; k <= d; k++)
        if (path[k] >= 0)
            memcpy(c->mobs + (size_t)k * c->nobs, mf_kill_obs_of(u, path[k]),
                   sizeof *c->mobs * (size_t)c->nobs);
    c->mrefuses = refuses ? d : -1;
    return c;
}

int mf_kill_claim(mf_kill_test *kt, const mf_model *mm, mf_kill_want want,
                  mf_test **out, mf_notion *notion)
{
    *out = NULL;
    mf_kill_graph u;
    int item = -1, delta = mf_explore_step_delta(kt->m, mm, &item);
    mut_graph(&u, kt, mm, NULL, delta, item);
    const mf_kill_graph *o = &kt->o;
    int len = kt->t->length, d = -1;
    mf_test *c = NULL;
    mf_notion nt = MF_N_DEFINITE;
    if (want == MF_KILL_DEFINITE) {
        if (mf_kill_definite(o, &u, len, &d) == 0 && d >= 0) {
            nt = mf_kill_graph_one_run(o, d, 0) &&
                         mf_kill_graph_one_run(&u, d, 1)
                     ? MF_N_DETERMINISTIC
                     : MF_N_DEFINITE;
            c = cut(kt->t, d);
        }
    } else {
        /* The first step where the mutant shows what the original cannot:
         * only the layers up to it are built, where a definite search
         * would build them all whenever there is no definite kill. */
        int *path = mf_xcalloc((size_t)len + 1, sizeof *path);
        mf_kill_found f;
        if (mf_kill_potential(o, &u, path, &f) == 0)
            d = f.kill;
        if (d >= 0 && mf_kill_graph_one_run(o, d, 0) &&
            mf_kill_graph_one_run(&u, d, 1)) {
            nt = MF_N_DETERMINISTIC; /* one run each: the only kill */
            c = cut(kt->t, d);
        } else if (d >= 0) {
            /* Under auto a definite kill is preferred, as the engine
             * does; looked for (within twice the depth of the potential
             * one) only where it would not cost a whole test. */
            int dd = -1;
            if (want == MF_KILL_AUTO &&
                mf_kill_definite(o, &u, 2 * d + 1 < len ? 2 * d + 1 : len, &dd) < 0)
                dd = -1;
            nt = dd >= 0 ? MF_N_DEFINITE : MF_N_POTENTIAL;
            c = dd >= 0 ? cut(kt->t, dd)
                        : potential_test(kt->t, &u, d, path, f.refuses);
        }
        free(path);
    }
    mf_kill_graph_free(&u);
    if (!c)
        return 0;
    *out = c;
    *notion = nt;
    return 1;
}

