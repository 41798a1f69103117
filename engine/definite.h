/* definite.h - definite killing (worker-internal): tests on which no
 * behaviour of the mutant matches any behaviour of the original, by
 * refinement (a synthesis solver proposes inputs, a verifier looks for an
 * agreeing pair of behaviours), or by bisection for models without inputs
 * (docs/killing.md, Refinement). */
#ifndef MF_DEFINITE_H
#define MF_DEFINITE_H

#include <stddef.h>

#include "batch.h"

/* Mutant j, lengths from..bound, within cap iterations and B->deadline.
 * Returns 1 killed (*test: its test, the caller's, not yet replayed), else
 * 0 with why empty (no definite kill up to the bound) or saying why it
 * gave up. j's verdict is left as it is. */
int mf_def_search(mf_batch *B, int j, int from, int cap, mf_test **test,
                  char *why, size_t whyn);

/* The shortest length a definite kill of j may have: its shortest
 * potential kill's, or the explorer's shortest definite kill's. */
int mf_def_from(const mf_batch *B, int j);

/* The definite upgrades of the potential kills a joint search made
 * (searched MF_SEARCHED_POTENTIAL), for all of them together when at least
 * a quarter of the batch (and two) are left to upgrade: each upgraded,
 * searched to the bound, or given up within the sum of their budgets
 * (the method says where), searched MF_SEARCHED_DEFINITE. Fewer are left
 * to their own searches (an encoder of their own is faster there). */
void mf_def_joint(mf_batch *B);

#endif
