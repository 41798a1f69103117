/* tae_refine.h - the timed engine's complete check: is a mutant a timed
 * refinement of the original (docs/timed.md, "The conformance relation")?
 * Breadth-first over the zone graph of the product of the two automata
 * (DBMs over both sets of clocks, extrapolated by their largest constants,
 * so it terminates), it either finds the shortest path (in steps) to a
 * state where the mutant refuses an input the original accepts, produces
 * an output the original cannot, or lets time pass where the original
 * cannot, or proves that no such state is reachable. No Z3 here. */
#ifndef MF_TAE_REFINE_H
#define MF_TAE_REFINE_H

#include "tae_aut.h"

enum { TAE_R_REFINES = 1, TAE_R_KILL = 2, TAE_R_UNKNOWN = 3 };
enum { TAE_K_IN = 1, TAE_K_OUT = 2, TAE_K_DELAY = 3 };

typedef struct {
    int kind;      /* TA_R_* */
    int kill;      /* TA_K_* when kind is TAE_R_KILL */
    int nsteps;    /* common steps before the deviation */
    int *eo, *em;  /* their edges in the original and the mutant */
    int kedge;     /* TAE_K_IN: the original's edge; TAE_K_OUT: the mutant's */
    long states;   /* symbolic states explored */
    char why[160]; /* TAE_R_UNKNOWN: the reason */
} tae_refine_res;

/* Decide whether m refines o (both built from one model: the same clocks,
 * integers and channels) within max_states symbolic states (0: no
 * limit). Returns 0 with *out filled (free with tae_refine_res_free), or
 * MF_ERROR when the two nets do not match. */
int tae_refine(tae_refine_res *out, const tae_aut *m, const tae_aut *o,
              long max_states);
void tae_refine_res_free(tae_refine_res *r);

#endif
