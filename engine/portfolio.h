/* portfolio.h - which method decides a batch's mutants first
 * (worker-internal, docs/killing.md "Portfolio"): the BDD engine, the
 * solver's searches or the explicit-state explorer, from measured cost or
 * as the options force. */
#ifndef MF_PORTFOLIO_H
#define MF_PORTFOLIO_H

#include "batch.h"

/* Runs the method chosen for batch B before the solver's deterministic
 * search; det[j]: mutant j and the original are deterministic. search[j]
 * (a copy of det the caller made) is cleared for each mutant whose
 * deterministic search is done. Returns 1 if the batch is done (a forced
 * method decided, or gave up on, every mutant), else 0: the other
 * methods go on with what is left. */
int mf_portfolio_first(mf_batch *B, const int *det, int *search);


#endif
