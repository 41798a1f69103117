/* z3util.h - the engine's Z3 plumbing: contexts with an error handler that
 * records, solvers under a timeout and rlimit, checks cut to a wall budget,
 * models, fresh literals, a few terms over the encoder's states, and tests
 * read out of a model. Worker-internal (includes z3.h through encode.h);
 * used by every method of the engine and by the quantified engine. It
 * decides nothing. */
#ifndef MF_Z3UTIL_H
#define MF_Z3UTIL_H

#include <stddef.h>

#include "encode.h"
#include "engine.h"

typedef MF_VEC(Z3_ast) mf_astvec;

/* Seconds on the monotonic clock: the clock every budget is on. */
double mf_z3_now(void);

/* A reference-counted context (models on) whose error handler records the
 * error for mf_z3_check. The caller deletes it (Z3_del_context). */
Z3_context mf_z3_context(void);

/* A solver under o's timeout and rlimit: Z3's incremental SAT solver when
 * values are bit-vectors (qfbv; bit-blasted, assumptions native, many times
 * faster than the SMT core on the unrolling's counters), else the SMT core.
 * Referenced; free with mf_z3_solver_free (NULL-safe). */
Z3_solver mf_z3_solver(Z3_context c, const mf_engine_opts *o, int qfbv);
void mf_z3_solver_free(Z3_context c, Z3_solver s);

/* The wall deadline of the mutant being decided, per thread (0: none; a
 * worker runs one engine per job thread), and the solvers' own timeout
 * that a check under it never exceeds (0: none). */
double mf_z3_deadline(void);
void mf_z3_set_deadline(double deadline);
unsigned mf_z3_wall_timeout(void);
void mf_z3_set_wall_timeout(unsigned ms);

/* A check of s under the assumptions as[0..n), cut to what is left of the
 * wall deadline: Z3_L_TRUE/FALSE, or Z3_L_UNDEF with the reason in why (Z3's
 * reason-unknown, a Z3 error, or the wall budget spent). */
Z3_lbool mf_z3_check(Z3_context c, Z3_solver s, int n, Z3_ast *as, char *why,
                     size_t whyn);

/* The solver's model, referenced (NULL if none); free with
 * mf_z3_model_free (NULL-safe). */
Z3_model mf_z3_model(Z3_context c, Z3_solver s);
void mf_z3_model_free(Z3_context c, Z3_model mdl);

/* A fresh Boolean constant named pfx!N (kept alive by E): an assumption
 * literal. */
Z3_ast mf_z3_lit(mf_enc *E, const char *pfx);
/* Assert g -> f into s. */
void mf_z3_implies(mf_enc *E, Z3_solver s, Z3_ast g, Z3_ast f);

/* Terms kept alive by E: the observables a (mf_enc_nobs of them) equal to
 * the values v; the n cells st equal to the values v. */
Z3_ast mf_z3_obs_is(mf_enc *E, Z3_ast *a, const mf_val *v);
Z3_ast mf_z3_state_is(mf_enc *E, Z3_ast *st, const mf_val *v, int n);
/* The values of the n terms st in mdl; the caller frees them. */
mf_val *mf_z3_eval_state(mf_enc *E, Z3_model mdl, Z3_ast *st, int n);

/* A test from a model of the solver: the inputs of `in` and the
 * observables of `o` (and of `mu`, the mutant's deviating behaviour, when
 * not NULL) at depths 0..len. Allowed outputs empty (mf_engine_replay fills
 * them), no refusal. Never NULL; the caller owns it. */
mf_test *mf_z3_test(mf_enc *E, Z3_model mdl, mf_inputs *in, mf_unroll *o,
                    mf_unroll *mu, int len);

#endif
