/* explore_int.h - what the explorer's files share and nothing else
 * includes: the interning tables, one model's side (its states,
 * observations and memoised steps), the explorer context, and the entry
 * points one part offers another. The rest of mutfarm sees only
 * explore.h.
 *
 * The parts, each using only those above it:
 *   explore_delta.c  how a mutant's steps relate to the original's (the
 *                    mutant's steps taken through the original's);
 *   explore_state.c  interning, states and their memoised successors, the
 *                    steps of sets of states, the input valuations;
 *   explore.c        the breadth-first searches of the product and the
 *                    context's interface. */
#ifndef MF_EXPLORE_INT_H
#define MF_EXPLORE_INT_H

#include "explore.h"

/* New nodes between two looks at the memory held and the clock. */
#define BUDGET_EVERY 1024

/* ------------------------------------------------------------------ */
/* Interning tables of int64 arrays                                     */

typedef struct {
    int64_t *pool;
    size_t pn, pcap;
    size_t *off;
    int *len;
    uint64_t *hash;
    int n, cap;
    int *ht; /* open addressing, -1 empty */
    size_t hcap;
} ktab;

void mf_xp_ktab_free(ktab *t);
/* Key `id` (and its length into *len, when len is not NULL). */
const int64_t *mf_xp_ktab_get(const ktab *t, int id, int *len);
/* The id of key k, or -1. */
int mf_xp_ktab_find(const ktab *t, const int64_t *k, int len);
/* The id of key k, interned if new (*is_new, when not NULL, says so). */
int mf_xp_ktab_intern(ktab *t, const int64_t *k, int len, int *is_new);
/* Bytes held by a table (capacities). */
size_t mf_xp_ktab_bytes(const ktab *t);

/* ------------------------------------------------------------------ */
/* One model: its states, observations, memoised successors             */

typedef MF_VEC(int) intvec;
typedef MF_VEC(int64_t) i64vec;

typedef struct {
    int off, n; /* successor state ids in succ_pool */
} succ_rec;

typedef struct {
    int rset;   /* union of successors as a set id, -1 if none */
    int anyref; /* some member has no successor */
    int poff, np; /* np (obs, set) pairs at part_pool[poff..], by obs */
} step_rec;

typedef struct explorer explorer;

typedef struct {
    const mf_model *m;
    ktab states;
    intvec obs;      /* per state: observation id */
    ktab succ_keys;  /* (state id or -1 for initial, input index) */
    MF_VEC(succ_rec) succ;
    intvec succ_pool;
    ktab sets;       /* sorted arrays of state ids */
    ktab step_keys;  /* (set id or -1 for initial, input index) */
    MF_VEC(step_rec) steps;
    intvec part_pool;
    int nondet;
    intvec acc_off;  /* per state id: where its accepted inputs start in
                        acc_pool (their count first), -1 not known yet,
                        -2 every input (explore_state.c, accepts) */
    intvec acc_pool;
    int refused1;    /* 1 + the index in steps of the step of a set whose
                        members all refuse the input; 0 none yet */
} side;

struct explorer {
    side s[2]; /* 0: original, 1: mutant */
    ktab obs;  /* observation vectors, shared */
    int nslots, nobs;
    mf_val *obsbuf;
    int ninit, ninp;
    mf_val *inits; /* ninit * nslots */
    mf_val *inps;  /* ninp * nslots */
    long work, max_work;
    size_t max_bytes; /* mf_explore_ctx_set_budget: 0 none */
    char mut_hash[65]; /* the model s[1] holds (its pointer may be stale) */
    double deadline;  /* CLOCK_MONOTONIC seconds, 0 none */
    int enabled;   /* the original never refuses a step input: R is moot
                      (-1: not known yet) */
    int init_rc;   /* building the input valuations failed */
    char init_msg[256];
    int err;       /* first error code */
    char msg[256];
    /* The mutant's steps through the original's (delta_succ): */
    int delta_off; /* mf_explore_ctx_set_delta(ctx, 0) */
    long nsim, ndelta; /* the mutant's steps: by the simulator, by delta */
    int dmode;     /* DELTA_NONE, DELTA_NEXT or DELTA_INIT */
    int ditem;     /* DELTA_NEXT: the item that differs */
    intvec m2o;    /* per mutant state id: the original's id of the same
                      vector, -1 none, -2 not looked up */
    intvec o2m;    /* per original state id: the mutant's id, -1 none */
    mf_valset ev[2]; /* the item's values in the original and the mutant */
    /* The inputs a state accepts, from one enumeration of its successors
     * with the input VARs free (explore_state.c, accepts): */
    int acc_use;   /* -1 not decided, 0 not used (IVARs), 1 used */
    intvec incells; /* the input cells, in the order of inps' product */
    ktab inrows;   /* an input row's values at incells -> its index */
    intvec accbuf; /* scratch: the input ids of a state */
    /* scratch */
    i64vec key;
    MF_VEC(mf_val) coll;
    intvec tmp;
};

/* How a mutant steps relative to the original (mf_xp_delta_mode). */
enum {
    DELTA_NONE = MF_STEP_DIFFERS,
    DELTA_NEXT = MF_STEP_NEXT,
    DELTA_INIT = MF_STEP_SAME,
    DELTA_DEFINE = 3 /* internal: a DEFINE that only next() reads now */
};

/* How the mutant's steps relate to the original's (DELTA_*), and the item
 * that differs; DELTA_NONE unless the models differ in one item at most,
 * with the same variables, types and observables (explore_delta.c). */
int mf_xp_delta_mode(const mf_model *o, const mf_model *m, int *item);

/* Record the first error (code, message) of x; returns code. */
int mf_xp_fail(explorer *x, int code, const char *what);

#define VEC_BYTES(vec) ((size_t)(vec).cap * sizeof *(vec).v)
/* Bytes held by the vectors and tables of a side (capacities). */
size_t mf_xp_side_bytes(const side *d);
/* CLOCK_MONOTONIC seconds. */
double mf_xp_now(void);

/* The successors of state st (-1: the initial states) of side d under
 * input inp, as state ids: *ids (valid until the next call), *n. 0 or
 * < 0 (the error recorded in x). */
int mf_xp_state_succ(explorer *x, side *d, int st, int inp, const int **ids,
                     int *n);
/* The step of set `set` (-1: the initial states) of side d under input
 * `inp`. Returns the index of its step_rec in d->steps, or < 0. */
int mf_xp_set_step(explorer *x, side *d, int set, int inp);
/* All valuations of the input cells of m, of the initial state (steps 0)
 * or of a step (cartesian product, first cell slowest); other slots hold
 * the first value of their domain. */
int mf_xp_input_product(explorer *x, const mf_model *m, int steps,
                        mf_val **out, int *nout);

#endif
