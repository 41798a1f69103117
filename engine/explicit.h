/* explicit.h - what the explicit-state explorer (model/explore.h) decides
 * for the engine (worker-internal): exact proofs on small products, and
 * shortest kills as tests without a solver call (docs/killing.md,
 * Equivalence proofs 4). */
#ifndef MF_EXPLICIT_H
#define MF_EXPLICIT_H

#include "batch.h"

/* The batch's explorer context for original m, with the memory budget
 * of o (explicit_mb). */
mf_explore_ctx *mf_explicit_ctx_new(const mf_model *m,
                                    const mf_engine_opts *o);

/* Proof method 4: explicit-state exploration of the product of mutant j,
 * exact when it is small (subset construction for non-determinism), once
 * per mutant. 1: decided: not potentially killable (equivalent), or its
 * shortest potential kill is longer than the bound (survived: no kill of
 * either notion up to the bound, as definite kills are potential ones);
 * 0: killable within the bound (xlen set, so that no proof is tried; the
 * explorer's test is the kill when the replay confirms it, else the
 * solver searches from the explorer's length on); -1: too large (xbig) or
 * failed. */
int mf_explicit_proof(mf_batch *B, int j);

/* 1 if the explorer settles the definite upgrade of j, a potential kill
 * its test does not upgrade: its shortest definite kill is the test (an
 * upgrade), or it has none up to the bound (noted in its method); then no
 * definite search is needed. Explored here only where the potential
 * product was within the limit (xlen known): most definite kills are the
 * potential test's (mf_batch_upgrade_replay), and a few among thousands
 * are not worth exploring them all. */
int mf_explicit_no_definite(mf_batch *B, int j);

#endif
