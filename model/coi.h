/* coi.h - the cone of influence: a proof that a mutant is equivalent
 * because nothing a test can see depends on the item it changes
 * (docs/killing.md, Equivalence proofs 0). It reads the model's items
 * only: no simulator, no solver, no search. */
#ifndef MF_COI_H
#define MF_COI_H

#include "model.h"

/* 1 if the mutant `mut` of m, which replaces or removes m's item `item`,
 * has exactly the original's observable behaviours, refusals included,
 * shown without a search; 0 if this cannot be shown (not a verdict).
 *
 * Shown when (1) no observable (VAR or observed DEFINE) and no INIT,
 * TRANS or INVAR constraint reads the changed variable or DEFINE through
 * any chain of assignments (init, next, invariant) and DEFINEs, and the
 * changed variable is not an input; and (2) every assignment whose value
 * may differ between the two models (the changed item and everything
 * that reads it, transitively) has, in both models, a value in its
 * variable's domain in every state and under every input: it can never
 * refuse a step, so the two models accept the same steps and their
 * observed parts evolve alike. mut: the mutant as a model
 * (mf_mutant_apply). */
int mf_coi_irrelevant(const mf_model *m, const mf_model *mut, int item);

/* 1 if assignment `it` of m (init, next or invariant) surely has a value
 * in its cell's domain in every state and under every input, so that it
 * never refuses a step; 0 if this cannot be shown. The check of (2)
 * above, for one item (a nightly rerun's edited items,
 * coordinator/rerun_cone.c). */
int mf_coi_total(const mf_model *m, const mf_item *it);

#endif
