/* potential.h - potential killing by counterexample-guided refinement
 * (worker-internal): a synthesis solver proposes inputs and a mutant
 * behaviour that leaves the original's, a verifier looks for an original
 * behaviour with the same observables (docs/killing.md, Refinement). */
#ifndef MF_POTENTIAL_H
#define MF_POTENTIAL_H

#include "batch.h"

/* Mutant j alone, lengths 0 to the bound (from the explorer's length on),
 * within B->deadline and o->cegis_max iterations: killed (a shortest
 * potential kill), unknown, or left undecided with its bound the length
 * refuted last. */
void mf_pot_search(mf_batch *B, int j);

/* The undecided mutants not marked in det, together, with learnt steps
 * (B->lib): everything the refinement learns is then the original's, valid
 * for every mutant. The mutants it decides (killed, or searched to the
 * bound) get searched MF_SEARCHED_POTENTIAL; those it gives up on are left
 * to their own search. Needs two mutants or more, else does nothing. */
void mf_pot_joint(mf_batch *B, const int *det);

#endif
