/* lockstep.h - equivalence proofs by lock-step induction (worker-internal;
 * docs/killing.md, Equivalence proofs 1 and 2). */
#ifndef MF_LOCKSTEP_H
#define MF_LOCKSTEP_H

#include <stddef.h>

#include "batch.h"

/* 1 if mutant j steps as the original from every state of rs (complete)
 * under every input: it differs in init items only, or in one next()
 * assignment whose right-hand sides have the same values there
 * (mf_explore_step_delta; a bounded number of states times inputs
 * evaluated). Then lock-step's step holds either way with no solver call:
 * each successor of the mutant is the original's, and the other way. */
int mf_lock_same_step(mf_batch *B, int j, const mf_reach *rs);

/* Lock-step for mutant j alone: step 0 the initial states, step 1 a step
 * from the states of rs (NULL: from any state). 1 proved, 0 not, -1
 * unknown (why). */
int mf_lock_step(mf_batch *B, int j, int step, const mf_reach *rs, char *why,
                 size_t whyn);

/* Lock-step for the mutants marked in `mark`, in solvers they share: each
 * one proved is equivalent (and leaves mark); each is marked as tried
 * (lsdone) unless an encoder met a construct it cannot encode, whose
 * mutants their own encoders try again. Returns how many were proved. */
int mf_lock_prove(mf_batch *S, int *mark);

/* The method of an equivalence lock-step proved with its step from rs
 * (from any state where rs is not ok). */
const char *mf_lock_method(const mf_reach *rs);

/* The potential kills of `live` no test upgrades: the reversed lock-step
 * shows the mutant has every original behaviour (assign-remove and
 * constraint-remove mutants often do). Noted in the method, searched
 * MF_SEARCHED_DEFINITE, out of live; the rest stay in live. */
void mf_lock_no_definite(mf_batch *B, int *live);

#endif
