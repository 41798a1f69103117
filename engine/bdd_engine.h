/* bdd_engine.h - the symbolic engine on BDDs (worker-internal, docs/killing.md
 * "BDDs"): the original x mutant product with shared inputs in BuDDy,
 * forward images from the initial states; the first depth whose frontier
 * holds a pair with other observables (or a mutant refusing an input the
 * original accepts) gives a shortest kill, an empty frontier the
 * equivalence proof. It decides deterministic pairs only; what it leaves
 * goes on to the solver's methods. The choice of when to run it is
 * portfolio.c's. */
#ifndef MF_BDD_ENGINE_H
#define MF_BDD_ENGINE_H

#include "batch.h"

/* What a run of the BDD engine over a batch did. */
typedef struct {
    int built;      /* the original's relations were built */
    long tnodes;    /* BDD nodes of the original's transition relation */
    int bits;       /* BDD variables of one copy of the state */
    double reach;   /* the original's reachable states (0: not counted:
                       past the budget) */
    int killed;     /* mutants killed, proved, searched to the bound */
    int proved;
    int bounded;
    int left;       /* left to the other methods (past a budget) */
    char why[160];  /* why the relations were not built, if not */
} mf_bdd_stats;

/* Runs the BDD engine on the undecided mutants marked in which[]: those
 * whose pair is deterministic (in form, or in fact: the relations give
 * at most one state per state and input; the kill is then a definite
 * one, and none is sought under --notion potential). Each is killed (a shortest test, replayed by the
 * simulator), proved equivalent ("bdd-fixpoint"), left undecided with its
 * bound searched by the BDDs (then which[j] is cleared: the solver's
 * deterministic search has nothing to add to the bound), or left to the
 * other methods untouched (a budget ran out before the bound). secs: the
 * wall budget of one mutant; tmax: the most nodes the original's
 * transition relation may have (0: the engine's cap), else the batch is
 * left to the other methods. BuDDy is one global state: runs of several
 * threads take turns (a process-wide lock). */
void mf_bdd_run(mf_batch *B, int *which, double secs, long tmax,
                mf_bdd_stats *st);

#endif
