/* tae_sim.h - timed tests and the rational simulator that replays them:
 * the referee of every timed kill (docs/timed.md, "Timed tests"). It runs
 * an automaton on exact rational clock values (no zones, no solver),
 * written apart from the zone product (tae_refine.c) and from the Z3
 * concretiser (tae_witness.c) whose tests it checks. */
#ifndef MF_TAE_SIM_H
#define MF_TAE_SIM_H

#include "tae_aut.h"
#include "tae_refine.h"

/* A non-negative rational, n/d with d > 0 and gcd(n, d) == 1. */
typedef struct {
    int64_t n, d;
} tae_q;

typedef struct {
    tae_q delay; /* time waited since the previous step */
    int chan;    /* then this channel happens */
    int dir;     /* TAE_IN: the tester sends it; TAE_OUT: the system does */
} tae_step;

/* A timed test: common steps, then the deviation after one more delay:
 * TAE_K_IN (the original accepts input kchan, the mutant refuses it),
 * TAE_K_OUT (the mutant may output kchan, the original may not), or
 * TAE_K_DELAY (the original must have acted before kdelay has passed,
 * the mutant may stay silent that long). */
typedef struct {
    tae_step *steps;
    int n;
    int kill;
    tae_q kdelay;
    int kchan;
} tae_test;

void tae_test_free(tae_test *t); /* the steps; NULL-safe */

/* The test as text, one line per step with its absolute time:
 *   "at 16: input lock" / "at 31/2: expect output armedOn" and the
 * deviation's line. */
void tae_test_print(mf_buf *b, const tae_aut *o, const tae_test *t);

/* Replays t on o and m with exact rationals. 1 when it shows that m does
 * not refine o: both take every common step (each with exactly one edge,
 * so that neither could have answered otherwise), then the deviation is
 * real on the rationals. 0 with the reason in why otherwise. */
int tae_sim_confirm(const tae_aut *o, const tae_aut *m, const tae_test *t,
                    char *why, size_t whyn);

/* Random timed walks of o and m together (delays in halves up to the
 * largest constant and one, then a channel both can take, chosen by a
 * generator seeded with seed), looking for a deviation along a path where
 * each side had one edge at each step: an independent way to look for a
 * kill of a mutant proved subsumed (a sample, not a proof). 1 and the
 * test in *out (free with tae_test_free) when one is found, else 0. */
int tae_sim_walks(tae_test *out, const tae_aut *o, const tae_aut *m,
                  unsigned seed, int nwalks, int depth);

#endif
