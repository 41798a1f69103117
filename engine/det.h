/* det.h - the deterministic search (worker-internal): shortest tests for
 * mutants whose model and original are both structurally deterministic,
 * depth by depth in incremental solvers over the conditional mutant
 * (docs/killing.md, Conditional mutants). */
#ifndef MF_DET_H
#define MF_DET_H

#include "batch.h"

/* The undecided mutants marked in `which`, depth 0 to the bound: each
 * killed (its shortest test, replayed), unknown, or left undecided with
 * its bound the bound searched. A group's encoder that cannot encode a
 * construct faithfully leaves its mutants but the killed an error. */
void mf_det_search(mf_batch *B, const int *which);

#endif
