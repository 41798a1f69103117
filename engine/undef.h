/* undef.h - does the original reach a state where an observed DEFINE has
 * no value (docs/semantics.md, Undefined observables)? */
#ifndef MF_UNDEF_H
#define MF_UNDEF_H

#include "sim.h"
#include "verdict.h"

enum {
    MF_UNDEF_NONE = 0,    /* no such state among all the reachable ones */
    MF_UNDEF_FOUND = 1,   /* one found: hit->define, hit->test */
    MF_UNDEF_PARTIAL = 2, /* none among the first hit->states: more than
                             `limit` states, too many input valuations or
                             successor enumerations */
};

typedef struct {
    int define;    /* FOUND: the index in m->obs_defines */
    mf_test *test; /* FOUND: a shortest test reaching the state (the
                      expected observables its values), the caller's */
    long states;   /* states explored */
} mf_undef_hit;

/* Breadth first over at most `limit` reachable states of m. Returns one of
 * the MF_UNDEF_ codes, or a negative code on a simulator error. */
int mf_undef_find(const mf_model *m, int limit, mf_undef_hit *hit);

#endif
