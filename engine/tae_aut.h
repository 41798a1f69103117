/* tae_aut.h - the timed engine's own view of one timed I/O automaton: clocks,
 * bounded integers, locations with invariants, edges split so that every
 * clock guard is one conjunction of bounds x_i - x_j < or <= k (the DBM
 * form), integer guards and updates as small expression trees. The zone
 * product (tae_refine.c), the path concretiser (tae_witness.c), the rational
 * simulator (tae_sim.c) and the 12 rules (tae_rules.c) read it; tae_view.c
 * builds it from the front-ends' IR (ta/ta.h). It neither parses nor
 * decides anything. */
#ifndef MF_TAE_AUT_H
#define MF_TAE_AUT_H

#include <stdint.h>

#include "mf.h"

/* A DBM bound: (k << 1) | 1 for "<= k", (k << 1) for "< k". */
typedef int64_t tae_bound;
#define TAE_INF ((tae_bound)INT64_MAX / 4)
#define TAE_LE(k) ((((tae_bound)(k)) * 2) | 1)
#define TAE_LT(k) (((tae_bound)(k)) * 2)
#define TAE_BK(b) ((b) >> 1)        /* the constant of a finite bound */
#define TAE_BSTRICT(b) (!((b) & 1)) /* < rather than <= */

/* One atomic clock constraint x_i - x_j (bound); clock 0 is the constant
 * zero, clocks 1..n are the automaton's. */
typedef struct {
    int i, j;
    tae_bound b;
} tae_atom;

typedef struct {
    tae_atom *v; /* conjunction of n atoms (n == 0: true) */
    int n;
} tae_conj;

/* Integer expressions over the automaton's bounded integers. */
enum {
    TAE_X_CONST, TAE_X_VAR, TAE_X_NEG, TAE_X_NOT, TAE_X_ADD, TAE_X_SUB, TAE_X_MUL,
    TAE_X_DIV, TAE_X_MOD, TAE_X_EQ, TAE_X_NE, TAE_X_LT, TAE_X_LE, TAE_X_GT,
    TAE_X_GE, TAE_X_AND, TAE_X_OR, TAE_X_ITE,
};
typedef struct tae_ix {
    int op;
    int64_t k;               /* TAE_X_CONST */
    int var;                 /* TAE_X_VAR: index into ints */
    struct tae_ix *a, *b, *c; /* operands */
} tae_ix;

typedef struct {
    const char *name;
    int64_t lo, hi, init;
} tae_int;

typedef struct {
    const char *name;
    tae_conj inv;    /* invariant (upper bounds and lower bounds) */
    tae_ix *iinv;    /* its integer part (NULL: true): no state breaks it */
    int urgent;     /* urgent or committed: no delay */
    int committed;  /* committed: in a network, the next move involves it */
    int line;       /* where it is in the model's file (0: unknown) */
} tae_loc;

enum { TAE_IN = 1, TAE_OUT = 2, TAE_TAU = 3 };
enum { TAE_SEND = 1, TAE_RECV = 2 };

typedef struct {
    int var;       /* ints index */
    tae_ix *val;
} tae_assign;

typedef struct {
    int src, dst;
    int chan;      /* chans index; for TAE_TAU the label an internal move
                    * is matched by: its internal channel, or (<= -2) one
                    * made of the process and the edge's two locations */
    int dir;       /* TAE_IN, TAE_OUT, TAE_TAU */
    int sync;      /* as written: TAE_SEND, TAE_RECV or 0 (none) */
    int urgent;    /* on an urgent channel: no delay while it is enabled
                    * (such an edge has no clock guard) */
    tae_ix *iguard; /* integer part of the guard (NULL: true) */
    tae_conj guard; /* clock part: one conjunction */
    int *resets;   /* clocks (1..n) set to reset_to[k] */
    int64_t *reset_to;
    int nresets;
    tae_assign *asg; /* integer updates, in order */
    int nasg;
    tae_conj en;    /* guard and the target's invariant after the resets:
                    * where the edge can be taken (tae_aut_finish) */
    int never;     /* the target's invariant fails after the resets */
    int orig;      /* the model's edge this piece comes from */
    int line;
} tae_edge;

typedef struct tae_aut {
    mf_arena *a;      /* owns everything below */
    const char *name; /* the component */
    int nclocks;      /* clocks 1..nclocks */
    const char **clocks; /* names, [0] = "0" */
    int nints;
    tae_int *ints;
    int nlocs, init;
    tae_loc *locs;
    int nedges;
    tae_edge *edges;
    int nchans;
    const char **chans;
    int *chan_dir;    /* per channel: TAE_IN or TAE_OUT */
    int64_t *maxc;    /* per clock 0..nclocks: largest constant compared */
    int *first, *next; /* edges by source: first[l], then next[e]; -1 ends */
    struct tae_aut **parts; /* a network's processes, owned (see compose) */
    int nparts;
} tae_aut;

/* A new empty net in its own arena; free with tae_aut_free (NULL-safe). */
tae_aut *tae_aut_new(const char *name);
void tae_aut_free(tae_aut *n);
/* The value of e under vals; MF_ERROR on division by zero. */
int tae_ix_eval(int64_t *out, const tae_ix *e, const int64_t *vals);
/* What the builder ends with: each edge's `en` and `never`, maxc (the
 * largest constant each clock is compared with), edges by source. */
void tae_aut_finish(tae_aut *n);
/* live[i] = 1 for the integers that matter to a's or b's behaviour (b may
 * be NULL): read by a guard, or by an update of an integer that matters;
 * the others (a step counter) can be left out of a state. */
void tae_live(char *live, const tae_aut *a, const tae_aut *b);
/* e can be taken as far as the integers vals say: its target's invariant
 * can hold (!never) and its integer guard is true (an evaluation error,
 * such as a division by zero, is false). */
int tae_edge_iok(const tae_edge *e, const int64_t *vals);
/* The integer part of l's invariant holds under vals. */
int tae_iinv_ok(const tae_aut *a, int l, const int64_t *vals);
/* No time may pass at location l with integers vals: l is urgent or
 * committed, or an edge on an urgent channel is enabled there. */
int tae_urgent(const tae_aut *a, int l, const int64_t *vals);
/* The atom that is true exactly where a is false. */
tae_atom tae_atom_neg(tae_atom a);
/* The atom as text ("x <= 5", "x > 3", "x - y < 2") into b. */
void tae_atom_print(mf_buf *b, const tae_aut *n, tae_atom a);

#endif
