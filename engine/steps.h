/* steps.h - learnt steps (worker-internal): copies of one step (the
 * initial states, or one transition from another copy's state) with their
 * choices fixed to values a verifier found. In the synthesis solver such a
 * copy speaks about every state at once, where a copy of a whole behaviour
 * (copies.h) speaks about one trace. Two uses:
 *  - potential killing when every cell that is not an input is observable
 *    (mf_steps_obs_fix_state): then a behaviour's observables fix its
 *    states, and an original behaviour matches a mutant's observable trace
 *    exactly when it goes through the same states, i.e. when the mutant's
 *    first state is an original initial state and each of its steps is an
 *    original step (from the same state under the same inputs). The
 *    refinement learns original steps instead of traces, and a candidate
 *    step no original step reproduces is a kill (which the simulator
 *    replays);
 *  - refusals: a candidate state where the mutant seems to refuse (some
 *    choice values fail) but has a successor is blocked by a copy of that
 *    successor's step, for every state the same choice values serve.
 * The original's steps are the same whatever the mutant: its library lives
 * as long as the batch, and every length of every mutant's search starts
 * with all of it. */
#ifndef MF_STEPS_H
#define MF_STEPS_H

#include <stddef.h>

#include "encode.h"
#include "sim.h"
#include "z3util.h"

/* The choice values of learnt steps: rows of w[0] values (initial steps)
 * and of w[1] values (later steps); w[x] is -1 before the first row.
 * Start it with mf_steplib_init; free it with mf_steplib_free. */
typedef struct mf_steplib {
    int w[2];       /* choices of an initial step, of a later step */
    mf_valset v[2]; /* rows of w[x] values */
} mf_steplib;

/* An empty library. */
void mf_steplib_init(mf_steplib *L);
void mf_steplib_free(mf_steplib *L);
/* Rows of initial steps (x 0) or later steps (x 1). */
int mf_steplib_rows(const mf_steplib *L, int x);

/* 1 if every cell of m that is not an input is observable: then the
 * observables fix the state and the original's steps can be learnt. */
int mf_steps_obs_fix_state(const mf_model *m);

/* Whose steps (the original's or the mutant copies'), their library, and
 * the verifier's copies: Q0 from the initial states, Q one step from the
 * arbitrary state q0 under the inputs of state 1 of qin. */
typedef struct {
    Z3_context c;
    mf_enc *E;
    int meta;
    mf_steplib *L;
    Z3_solver ver;
    mf_inputs *qin;
    Z3_ast *q0;
    mf_unroll *Q0, *Q;
    int bind; /* a choice that is a cell's new value takes M's value of it */
    MF_VEC(mf_unroll *) cps; /* the synthesis solver's copies */
} mf_stepper;

/* The steps of E's copies (meta: the mutant copies, reading the
 * selectors) learnt into L by the verifier ver; tag names its constants.
 * Close with mf_stepper_close (the library stays). */
void mf_stepper_open(mf_stepper *S, Z3_context c, mf_enc *E, int meta,
                     mf_steplib *L, Z3_solver ver, const char *tag);
void mf_stepper_close(mf_stepper *S);

/* Rows from..end of the original's library as copies of step d in syn (a
 * step from M's state d-1 under the inputs of state d of `in`), each
 * blocked under g ("M's step d is not this one"); the matches are pushed
 * to `steps`. */
void mf_stepper_block(mf_stepper *S, Z3_solver syn, mf_inputs *in, mf_unroll *M,
                      int d, int from, Z3_ast g, mf_astvec *steps);
/* Rows from..end of the mutant's library of accepting steps as copies of
 * step d: under gr, none of them accepts. */
void mf_stepper_block_accepting(mf_stepper *S, Z3_solver syn, mf_inputs *in,
                                mf_unroll *M, int d, int from, Z3_ast gr);
/* Is there a step from M's state d-1 (the initial states for d = 0) under
 * the inputs of state d in the synthesis model mdl, that accepts and, when
 * obs is given, shows those observables? Assumptions as[0..na). True: its
 * choice values are added to the library; unknown with the reason in
 * why. */
Z3_lbool mf_stepper_find(mf_stepper *S, Z3_model mdl, mf_inputs *in,
                         mf_unroll *M, int d, const mf_val *obs, int na,
                         Z3_ast *as, char *why, size_t whyn);

#endif
