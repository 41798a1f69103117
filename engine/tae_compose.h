/* tae_compose.h - the product of a network's system processes as one
 * automaton (tae_aut.h), the way UPPAAL runs them: a binary send with a
 * receive of another process as one move, a broadcast with one receiving
 * edge of every process that has one, a move alone with the tester where
 * the tester is the partner, an edge without a sync as an internal move;
 * urgent or committed when a process is, and from a committed location
 * only moves of a committed process. Locations are the tuples reachable
 * by the edges' targets (guards not looked at). */
#ifndef MF_TAE_COMPOSE_H
#define MF_TAE_COMPOSE_H

#include "tae_aut.h"

typedef struct {
    const char *tester_sends;    /* per channel: the tester may send it */
    const char *tester_receives; /* per channel: the tester may receive it */
    const char *bcast;           /* per channel: a broadcast channel */
    int max_locs;                /* product locations at most */
} tae_compose_opts;

/* The product of parts[0..k) (built over the same clocks, integers and
 * channels), which it takes: they belong to *out, or are freed on
 * failure. 0; MF_EUNSUPPORTED (a broadcast received under a guard) or
 * MF_ELIMIT (over max_locs) with a message. */
int tae_compose(tae_aut **out, tae_aut **parts, int k,
                const tae_compose_opts *o);

#endif
