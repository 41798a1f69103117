/* refusal.h - potential kills by a refusal (worker-internal): the mutant,
 * on a behaviour whose observables follow an original run, refuses an
 * input that no original behaviour with those observables refuses; and
 * the simulator's filter of the mutants that can refuse at all
 * (docs/killing.md, Refinement). */
#ifndef MF_REFUSAL_H
#define MF_REFUSAL_H

#include "batch.h"
#include "steps.h"

/* Potential kills by a refusal at step d: a mutant, on a behaviour whose
 * observables follow an original run through d-1, has a state refusing
 * input d (confirmed by the simulator), and no original behaviour with the
 * same observables refuses there (the verifier ver: its copy P over the
 * inputs vin, extended to d). The search runs for the mutants marked in
 * live (one, or several of a joint search): the synthesis query assumes
 * one of their selectors, and its model names the mutant. A kill clears
 * its mark (and, for several, the test is replayed on the others); the
 * search goes on while some are marked. A step found where a mutant seemed
 * to refuse is learnt into acc (the mutants' accepting steps) and blocks
 * every state it serves, for every mutant (it has that successor there,
 * whichever mutant the selector picks). Returns 1 all killed, 0 none of
 * the rest refuses, -1 unknown, -2 undecided within its share of the
 * refinement budget (candidates the simulator shows refused by the
 * original too are blocked one state at a time: where original and mutant
 * both refuse in many states there are too many). */
int mf_refusal_search(mf_batch *B, int *live, Z3_solver ver, mf_inputs *vin,
                      mf_unroll *P, mf_stepper *acc, int d);

/* Of the mutants marked in `mark`, those that may refuse a step the
 * original takes stay marked: with observables fixing the state, a refusal
 * kill past length 0 is a step from a state both reached, one of the
 * original's reachable states, where the original has a successor under
 * the input and the mutant none. The simulator tries every such state and
 * input on each mutant when there are at most a bounded number of them
 * (else, or without the reachable states, all stay marked): one simulator
 * step per mutant, state and input, where a refusal search costs solver
 * calls at every length, dearer as the length grows. Each mutant tried
 * gets its refcap. Computes B->rs when that many states are all of them. */
void mf_refusal_capable(mf_batch *B, int *mark);
/* mf_refusal_capable for the mutants marked in `mark` it has not tried,
 * so that lock-step knows those that never refuse (mark unchanged). */
void mf_refusal_tried(mf_batch *B, const int *mark);

#endif
