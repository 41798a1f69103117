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
/* The deviations: an input refused, an output or a silence of the
 * mutant; TAE_K_TAU, an internal move of the mutant that the original
 * cannot match, is no test (the tester does not see it). */
enum { TAE_K_IN = 1, TAE_K_OUT = 2, TAE_K_DELAY = 3, TAE_K_TAU = 4 };

typedef struct {
    int kind;      /* TAE_R_* */
    int kill;      /* TAE_K_* when kind is TAE_R_KILL */
    int nsteps;    /* common steps before the deviation */
    int *eo, *em;  /* their edges in the original and the mutant; -1 on
                    * one side: the other side's internal move */
    int kedge;     /* TAE_K_IN: the original's edge; TAE_K_OUT: the mutant's */
    long states;   /* symbolic states explored */
    char why[160]; /* TAE_R_UNKNOWN: the reason */
} tae_refine_res;

/* Called with each deviation found (r->kind TAE_R_KILL, its path filled):
 * 1 accepts it (the search stops there), 0 rejects it (the search goes
 * on). */
typedef int (*tae_judge_fn)(void *ctx, const tae_refine_res *r);

/* Decide whether m refines o (both built from one model: the same clocks,
 * integers and channels) within max_states symbolic states (0: no
 * limit). An internal move of the mutant must be matched by one of the
 * original with the same label (tae_aut.h), as an output is: a proof of
 * that relation is one of the weaker relation that ignores internal
 * moves. A deviation is judged by judge
 * (NULL: the first is accepted). When deviations were met and all
 * rejected, the result is TAE_R_UNKNOWN. Returns 0 with *out filled (free
 * with tae_refine_res_free), or MF_ERROR when the two nets do not
 * match. */
int tae_refine(tae_refine_res *out, const tae_aut *m, const tae_aut *o,
               long max_states, tae_judge_fn judge, void *ctx);
void tae_refine_res_free(tae_refine_res *r);

#endif
