/* reach.h - the original's states by the simulator, for the engine: a set
 * of states with a hash table over it, the valuations of a step's input
 * cells, the reachable states, and one-step questions (does a model
 * refuse, does it have a successor). No Z3 here. */
#ifndef MF_REACH_H
#define MF_REACH_H

#include <stddef.h>

#include "sim.h"

/* Input valuations a step may have for the reachable states, the refusal
 * filter and the step comparison to enumerate them. */
#define MF_REACH_INPUT_COMBOS 4096

/* A set of states: rows of n values in out (which may hold rows already;
 * they are entered on the first add), at most `limit` rows, with a hash
 * table of row numbers + 1 (0: empty slot) over it, so that repeats cost
 * no linear scan. Start it zeroed but for out, n and limit; free the table
 * with mf_reach_set_free (out is the caller's). */
typedef struct {
    mf_valset *out;
    int n;
    int limit;
    int over;   /* a new row past limit was refused */
    int *tab;   /* row + 1 by hash, 0 empty */
    size_t cap; /* slots of tab: a power of two, or 0 */
} mf_reach_set;

/* Adds st (n values) to the set `set` (an mf_reach_set *) unless it is
 * there: the simulator's callback. Returns 1 (stop) past the limit. */
int mf_reach_set_add(const mf_val *st, void *set);
void mf_reach_set_free(mf_reach_set *c);

/* Slot of `row` in an open-addressed table (cap slots, a power of two) of
 * row + 1 (0 empty) over rows of `width` values in pool: where it is, or
 * the empty slot for it. */
size_t mf_reach_row_slot(const int *tab, size_t cap, const mf_val *pool,
                         int width, const mf_val *row);

/* The input cells a step reads (IVARs only past the initial states, input
 * VARs always) with their domains, and how many valuations they have
 * (counted up to just past MF_REACH_INPUT_COMBOS). */
typedef struct {
    int n;
    int *slots;
    mf_val **dom;
    int *ndom;
    long combos;
} mf_reach_dom;

void mf_reach_dom_open(mf_reach_dom *D, const mf_model *m, int step);
/* Valuation number cb (0 .. combos-1) into the input cells of inp. */
void mf_reach_dom_set(const mf_reach_dom *D, long cb, mf_val *inp);
void mf_reach_dom_free(mf_reach_dom *D);

/* The original's reachable states under every input, shared by a batch:
 * computed at most once (done), complete when ok (else st is empty or
 * partial and not to be used). */
typedef struct {
    int done;
    int ok;
    mf_valset st; /* rows of nslots values */
} mf_reach;

/* At most `limit` states into R (done 0; ok 0 past the limit or past
 * MF_REACH_INPUT_COMBOS input valuations a step). */
void mf_reach_upto(const mf_model *m, mf_reach *R, int limit);
/* R's states up to the engine's limit, done. */
void mf_reach_compute(const mf_model *m, mf_reach *R);

/* 1 if m has no successor of cur (no initial state when cur is NULL) under
 * inp, 0 if it has, -1 on a simulator error. */
int mf_reach_refuses(const mf_model *m, const mf_val *cur, const mf_val *inp);
/* 1 if m has a successor of cur under inp, 0 if none, -1 on an error or
 * past 4096 candidate assignments (then the caller cannot tell: it is
 * called for thousands of states). */
int mf_reach_has_successor(const mf_model *m, const mf_val *cur,
                           const mf_val *inp);

#endif
