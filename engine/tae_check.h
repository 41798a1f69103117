/* tae_check.h - one timed mutant decided against the original
 * (docs/timed.md, "Verdicts"): killed, with a timed test that the rational
 * simulator has replayed; subsumed (the mutant refines the original: no
 * test can kill it, a proof by the zone product); equivalent (each refines
 * the other); or unknown with the reason (a limit, a non-deterministic
 * path the simulator cannot confirm, an unsupported construct). */
#ifndef MF_TAE_CHECK_H
#define MF_TAE_CHECK_H

#include "tae_sim.h"

enum {
    TAE_V_KILLED = 1,
    TAE_V_SUBSUMED,
    TAE_V_EQUIVALENT,
    TAE_V_UNKNOWN,
};

typedef struct {
    long max_states;     /* symbolic states per product (0: none) */
    unsigned timeout_ms; /* per Z3 check (0: none) */
} tae_opts;

typedef struct {
    int verdict;   /* TAE_V_* */
    tae_test test; /* TAE_V_KILLED: the replayed test */
    long states;   /* symbolic states of the products explored */
    char why[200]; /* TAE_V_UNKNOWN: the reason */
} tae_verdict;

/* Decides m against o. 0 and *out (free with tae_verdict_free), or a
 * negative code when the two do not match (a programming error). */
int tae_check(tae_verdict *out, const tae_aut *o, const tae_aut *m,
              const tae_opts *opts);
void tae_verdict_free(tae_verdict *v);
/* "killed", "subsumed", "equivalent", "unknown". */
const char *tae_verdict_name(int v);

#endif
