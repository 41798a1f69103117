/* copies.h - copies of the unrolling with fixed choices, the refinement's
 * way of saying "not this behaviour again" (worker-internal).
 *
 * A behaviour the verifier finds at length d becomes, in the synthesis
 * solver, a copy (potential: of the original; definite: a pair, original
 * and mutant) with its choices fixed. Copies are kept across lengths: a
 * behaviour at length d whose choices up to some d' < d are those of a
 * copy of length d' extends that copy instead of building a new one. So
 * when length d-1 was refuted, the lemma "some copy of length d-1 matches"
 * (mf_copies_lemma) still speaks about the copies of length d, and the
 * search at d only has the new step to look at, as the deterministic
 * search does with its facts. */
#ifndef MF_COPIES_H
#define MF_COPIES_H

#include "encode.h"
#include "sim.h"

/* One copy (or pair of copies) with fixed choices. */
typedef struct {
    mf_unroll *u[2];
    int depth;
    mf_valset ch; /* choice values, step by step, copy 0's then 1's */
} mf_copy;

/* The copies of one refinement. Set the fields but v; free with
 * mf_copies_free. bind (potential killing): the synthesis solver's
 * mutant; a choice that is an observable cell's new value is bound to the
 * mutant's value there instead of fixed, so that the copy stands for
 * every original behaviour that makes it the way the mutant's outputs
 * show. */
typedef struct {
    MF_VEC(mf_copy) v;  /* the copies */
    int n;              /* copies per entry: 1 or 2 */
    mf_unroll *from[2]; /* the verifier's copies the values come from */
    mf_unroll *bind;    /* see above, or NULL */
    mf_enc *enc[2];     /* the copies' encoders */
    int meta[2];        /* the copies read the selectors */
    const char *tag[2]; /* name their constants */
} mf_copies;

/* Assert into s that the input cells of table `to` have, at states 0..d,
 * the values that those of table `from` have in mdl. */
void mf_copy_fix_inputs(mf_enc *E, Z3_solver s, mf_inputs *to, mf_inputs *from,
                        Z3_model mdl, int d);
/* Choices of copy u made uniform over the transitions 1..d (choice i of
 * step k equals choice i of step 1): a heuristic that makes the behaviour
 * the verifier returns general, so one blocking copy covers many inputs. */
Z3_ast mf_copy_uniform(mf_enc *E, mf_unroll *u, int d);
/* The values in mdl of the choices of state k of u, pushed to out. */
void mf_copy_choices(mf_enc *E, Z3_model mdl, mf_unroll *u, int k,
                     mf_valset *out);
/* Fix the choices of copy `x` (built like `from`) to their values in mdl,
 * for states 0..d. */
void mf_copy_fix_choices(mf_enc *E, Z3_solver s, mf_unroll *x, mf_unroll *from,
                         Z3_model mdl, int d);
/* After a length was refuted under the assumptions as[0..na): cond (NULL:
 * true) implies one of the n matches, asserted under the assumptions. */
void mf_copy_refuted(mf_enc *E, Z3_solver syn, int n, Z3_ast *match,
                     Z3_ast cond, int na, Z3_ast *as);

/* The verifier (pushed once for the candidate in mdl) found a behaviour
 * that matches: its copy is built or extended in syn (inputs `in`) and
 * blocked under g at length d ("copy behaves like `other` up to d"; with
 * other NULL, pairs: copy 0 and copy 1 accept and show the same
 * observables); the verifier is popped, both models freed. Returns the
 * copy's index in P->v. */
int mf_copies_found(mf_copies *P, Z3_solver syn, Z3_solver ver, mf_inputs *in,
                    mf_unroll *other, Z3_ast g, int d, Z3_model mdl);
/* Length d refuted: one of the copies at least d long matches up to d
 * (cond and the assumptions as in mf_copy_refuted). */
void mf_copies_lemma(mf_copies *P, Z3_solver syn, mf_unroll *other, int d,
                     Z3_ast cond, int na, Z3_ast *as);
/* Copy b of a definite refinement (a pair, no bound choices) extended in
 * solver s (into the copies u) past its depth to length d, each new step
 * taking the choices of its last one, from step `from` on. */
void mf_copies_repeat(mf_copies *P, Z3_solver s, mf_unroll *const *u,
                      const mf_copy *b, int from, int d);
/* Copy b's record of choices extended to length d as mf_copies_repeat
 * did. */
void mf_copies_extend(mf_copies *P, mf_copy *b, int d);
void mf_copies_free(mf_copies *P);

#endif
