/* prove.h - the proof portfolio for one mutant (worker-internal): lock-step
 * (lockstep.h), then k-induction for deterministic pairs (docs/killing.md,
 * Equivalence proofs). The explicit-state proof is explicit.h's. */
#ifndef MF_PROVE_H
#define MF_PROVE_H

#include "batch.h"

/* Tries to prove mutant j equivalent (det: model and mutant are
 * deterministic, so k-induction applies): equivalent with the method, or
 * left as it is. Nothing is tried where the explorer showed j killable. */
void mf_prove(mf_batch *B, int j, int det);

#endif
