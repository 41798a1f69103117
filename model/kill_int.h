/* kill_int.h - what the files of the test x mutant replay share and
 * nothing else includes: the layered graph of a model along a test's
 * inputs, the step memo it is built with, the rules a replay follows and
 * the searches. The rest of mutfarm sees only kill_replay.h.
 *
 * The parts, each using only those above it:
 *   kill_graph.c   step memos, graphs (the original's in full, a mutant's
 *                  layer by layer through the original's), a test made
 *                  ready to replay (its expected observables checked);
 *   kill_search.c  the searches for a potential and a definite kill over
 *                  two graphs;
 *   kill_replay.c  the two ways in: the kill matrix's (mf_kill_replay)
 *                  and a claim for the nightly rerun (mf_kill_claim). */
#ifndef MF_KILL_INT_H
#define MF_KILL_INT_H

#include "kill_replay.h"
#include "sim.h"

typedef MF_VEC(int) mf_kintvec;

/* The rules of one replay: what a refusal is and where it stops. */
typedef struct {
    /* 0: the explorer's definitions (explore.h): a mutant's refusal is a
     * behaviour no original one is. 1: the engine's replay, the referee
     * (mf_engine_replay): a refusal by both, after the same observables,
     * is the same behaviour, and a mutant with no initial state for the
     * test's initial input shows no behaviour to compare. */
    int both_refuse_same;
    int max_layer;  /* states in one layer of a graph */
    int max_nodes;  /* nodes in one layer of the potential search */
    long max_pairs; /* pairs in one layer of the definite search */
    long max_init_pairs; /* the same of its initial pairs */
    /* The states a step of the potential search meets, counted as the
     * kill matrix always has: per group of nodes with one set of the
     * original's states, its successors and the mutant's with each of the
     * mutant's observables, the original's and the mutant's (0: not
     * counted). */
    long max_step_states;
} mf_kill_rules;

/* A step memo: (input row, state or none for the initial states) -> the
 * successor states in the simulator's order, or "the original's step"
 * (mf_explore_step_agrees held there), kept up to a number of values. */
typedef struct mf_kill_memo mf_kill_memo;
mf_kill_memo *mf_kill_memo_new(int nslots, int nobs, size_t max_values);
void mf_kill_memo_free(mf_kill_memo *M); /* NULL-safe */

/* The states of a model along a test: layer k holds the states reachable
 * after the inputs of states 0..k; state s's successors are
 * succ[sfirst[s] .. sfirst[s + 1]) in the simulator's order (layers below
 * the last built only). Layers are built one at a time, as a search needs
 * them. */
typedef struct mf_kill_graph {
    const mf_model *m;
    const mf_test *t;
    const mf_kill_rules *rules;
    int n, nobs, len;
    int built;         /* layers 0..built-1 exist */
    MF_VEC(mf_val) st; /* n values a state */
    MF_VEC(mf_val) ob; /* nobs values a state */
    int *first;        /* len + 2: first state of layer k, then the total */
    mf_kintvec succ;
    mf_kintvec sfirst;  /* per state, and one more */
    mf_kintvec tab;     /* the layer being built: open addressing, -1 */
    mf_kintvec used;    /* slots of tab in use */
    MF_VEC(mf_val) tmp; /* one state's successors while they are listed */
    mf_kill_memo *memo; /* NULL, or the steps memoised across tests */
    /* A mutant's graph takes the original's steps where they are the
     * same (mf_explore_step_delta): from a state the original has in the
     * same layer, when the mutant differs in init() only (MF_STEP_SAME),
     * or in one next() whose two right-hand sides agree there; and its
     * initial states where it differs in that next() only. */
    const struct mf_kill_test *base;
    int delta, ditem;
    mf_valset ev[2];
} mf_kill_graph;

/* A test made ready to replay: the original's graph, every layer, and its
 * states indexed by (layer, state). */
struct mf_kill_test {
    const mf_model *m;
    mf_test *t; /* owned; its expected observables are m's */
    mf_kill_rules rules;
    mf_kill_graph o;
    int *oidx; /* the original's states by (layer, state): oslots */
    size_t oslots;
};

/* An empty graph of model m along t's inputs (m, t and rules outlive it;
 * memo may be NULL). */
void mf_kill_graph_init(mf_kill_graph *g, const mf_model *m, const mf_test *t,
                        const mf_kill_rules *rules, mf_kill_memo *memo);
void mf_kill_graph_free(mf_kill_graph *g);
/* Layers up to k (at most the last) built: 0, MF_ELIMIT past the rules'
 * limits, or the simulator's failure. */
int mf_kill_graph_need(mf_kill_graph *g, int k);
/* 1 if every layer 0..upto (built) has one state (`or_none`: or none, a
 * refusal, after which the rest is empty). */
int mf_kill_graph_one_run(const mf_kill_graph *g, int upto, int or_none);

/* What mf_kill_test_make does with the test's expected observables. */
enum {
    MF_KILL_EXPECT_ANY,   /* nothing: the searches do not read them */
    MF_KILL_EXPECT_CHECK, /* no run of m shows them: MF_ERROR */
    MF_KILL_EXPECT_REDO,  /* no run shows them: those of m's first run */
};

/* The test t of m made ready (t copied, m outlives it): the original's
 * graph built with `memo` (may be NULL; not kept), and t's expected
 * observables as `expect` says; re-expected ones set *reexpected (may be
 * NULL). Returns 0 and *out; MF_EREFUSED when m has no run on t's inputs
 * to re-expect, MF_ELIMIT past the limits, MF_ERROR for expected
 * observables no run shows, another code if the simulator fails; *out
 * NULL then. */
int mf_kill_test_make(mf_kill_test **out, const mf_model *m, const mf_test *t,
                      const mf_kill_rules *rules, mf_kill_memo *memo,
                      int expect, int *reexpected);
/* 0 if some run of g (an original's graph, every layer built) shows t's
 * expected observables all along, else MF_ERROR naming the first step
 * none reaches. */
int mf_kill_expected_check(const mf_kill_graph *g, const mf_test *t);

/* What the potential search found. */
typedef struct {
    int kill;     /* the layer of the first kill, -1 none */
    int refuses;  /* that kill is the mutant refusing */
    int any_refusal; /* some node of the kill's layer refuses (the
                        explorer's rules: every node is looked at, so the
                        answer does not depend on their order) */
} mf_kill_found;

/* The first potential kill of mutant graph u against original graph o
 * (every layer built), breadth-first, with path[0..kill] the mutant's
 * states along that run (path[kill] = -1 for a refusal) when path is not
 * NULL. 0, or MF_ELIMIT past u's rules' limits, or the simulator's
 * failure (f->kill -1 then). */
int mf_kill_potential(const mf_kill_graph *o, mf_kill_graph *u, int *path,
                      mf_kill_found *f);
/* *kill: the layer, at most maxk, at which no pair of runs with equal
 * observables is left, or -1 (none up to maxk; under the engine's rules
 * also when both refuse somewhere together). 0, or MF_ELIMIT past the
 * limits, or the simulator's failure (*kill -1 then). */
int mf_kill_definite(const mf_kill_graph *o, mf_kill_graph *u, int maxk,
                     int *kill);

static inline const mf_val *mf_kill_obs_of(const mf_kill_graph *g, int s)
{
    static const mf_val none[1];
    return g->nobs ? g->ob.v + (size_t)s * (size_t)g->nobs : none;
}

/* State s's successors (in the next layer). */
static inline const int *mf_kill_succ_of(const mf_kill_graph *g, int s,
                                         int *count)
{
    *count = g->sfirst.v[s + 1] - g->sfirst.v[s];
    return g->succ.v + g->sfirst.v[s];
}

static inline int mf_kill_layer_size(const mf_kill_graph *g, int k)
{
    return g->first[k + 1] - g->first[k];
}

#endif
