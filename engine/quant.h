/* quant.h - the paper's quantified encoding of potential and definite
 * killing (Fellner et al., section 5.3, phi_pk / phi_dk), as an alternative
 * engine used only to compare with the refinement engine (potential.c,
 * definite.c). Worker-internal (includes z3.h through encode.h).
 *
 * For each length d the question is handed to one solver as a single
 * exists-forall formula: the inputs (and, for potential killing, the
 * mutant's choices) are free, the choices of the other copies are
 * universally quantified. Copies under a quantifier are built into a scratch
 * solver with hard_ok = 0; their defining equations (state slots, ok[k])
 * are substituted into the formula and only their choice constants are
 * bound (Z3_mk_forall_const). MF_QUANT_FORM=paper (environment) keeps the
 * paper's form instead: the copies' state and ok constants bound too and
 * their equations the antecedent of the quantified implication. */
#ifndef MF_QUANT_H
#define MF_QUANT_H

#include <stddef.h>

#include "encode.h"
#include "engine.h"

/* Mutant j of the batch (selected by mf_enc_sel(EM, j) when meta; EM is the
 * mutant encoder, E the original's: EM == E in a batch, the --against
 * model's encoder otherwise). Lengths d = from..o->bound, shortest first.
 * definite: exists inputs the original accepts such that every pair
 * (original run, mutant run) fails or differs in observables through d.
 * potential: exists inputs and a mutant behaviour through d (or a mutant
 * refusal of step d after observations an original run shows through d-1)
 * that no original run matches (no matching original run refuses step d).
 * Each check runs under o->rlimit and a timeout of what is left of
 * o->timeout_ms for this mutant (a wall budget for all lengths).
 * Returns 1 and *test (inputs, the original's expected observables; for
 * potential kills the mutant's observables in mobs and mrefuses; allowed
 * outputs empty: mf_engine_replay fills them), 0 when no kill up to
 * o->bound, -1 with the reason in why (Z3 unknown: timeout, rlimit,
 * incomplete quantifier instantiation; a Z3 error). */
int mf_quant_search(mf_enc *E, mf_enc *EM, int meta, int j,
                    const mf_engine_opts *o, int definite, int from,
                    mf_test **test, char *why, size_t whyn);

/* Standalone (own context and encoders; for tests and measurements):
 * mutant mu of m as a variant (meta copy, mu->item / mu->repl), or, with
 * against, mu->mutated as a second model with its own encoder. Same
 * results as mf_quant_search; an encoding that is not supported gives -1. */
int mf_quant_check(const mf_model *m, const mf_engine_mutant *mu, int against,
                   const mf_engine_opts *o, int definite, int from,
                   mf_test **test, char *why, size_t whyn);

#endif
