/* bdd_sess.h - what bdd.c and bdd_search.c share (engine-internal): a
 * session (the original's relations over the product's x blocks, built
 * once per batch), one mutant's relations, and the searches over them.
 * bdd.c opens sessions and mutants and decides a mutant from what a
 * search returns; bdd_search.c searches and reads tests back. */
#ifndef MF_BDD_SESS_H
#define MF_BDD_SESS_H

#include "bdd_engine.h"
#include "bdd_int.h"

/* Depths searched past the bound for a proof, at most. */
#define PAST_MAX 4096
/* The original's reachable states are kept depth by depth (search_det)
 * up to this many depths. */
#define LAYERS_MAX 4096

/* A session: the original's relations and what is known of its reachable
 * states. */
typedef struct {
    mf_bdd_space sp;
    const mf_model *m;
    int ni;           /* items */
    mf_vmap *memo;    /* the original's DEFINEs */
    BDD *ti, *tt;     /* init and step conjuncts over x, ni + 1 each */
    BDD *ipre, *isuf; /* prefix and suffix conjunctions of ti (ni + 2) */
    BDD *tpre, *tsuf; /* the same of tt */
    BDD To, Io;       /* the original's step and initial states (x) */
    BDD acc, acc0;    /* the original accepts: (xc, c, n) and (c) */
    mf_vmap *obs;     /* observed DEFINEs (x) */
    BDD obs_eq;       /* the observed own cells equal (x, y) */
    int det;          /* the original's relations are functional */
    int enabled;      /* every reachable state of the original steps under
                         every input (then the potential search is exact) */
    int obsfix;       /* every cell but the inputs is observable */
    int pot;          /* the potential search is wanted (auto: not where
                         the explorer is cheaper) */
    BDD reach;        /* the original's reachable states (x), bddfalse
                         where reach_count did not reach the fixpoint */
    MF_VEC(BDD) layer; /* layer.v[d]: the states reachable within d steps
                          (with reach; none past LAYERS_MAX) */
    MF_VEC(BDD) front; /* front.v[d]: those first reached at d */
} sess;

/* One mutant's relations over y. */
typedef struct {
    int det;       /* its step and initial states are functional */
    BDD Tm, Im;    /* step, initial states */
    BDD acc, acc0; /* it accepts */
    BDD E;         /* the observables equal */
    BDD Tx, Ix;    /* step and initial states over x (potential search) */
    BDD accx;      /* the mutant accepts, over x */
    BDD E1;        /* the observed DEFINEs agree in one state (x) */
} mrel;

static inline BDD and2(BDD a, BDD b)
{
    return bdd_addref(bdd_and(a, b));
}

static inline void set(BDD *slot, BDD v) /* v referenced */
{
    bdd_delref(*slot);
    *slot = v;
}

/* What the search of one mutant found. */
enum { S_KILL, S_PROVED, S_BEYOND, S_BOUNDED, S_BUDGET };

/* The search of mutant j. *len: the kill's length (S_KILL, S_BEYOND) or
 * the depth the proof took (S_PROVED); *test for S_KILL. */
int mf_bdd_search(sess *S, mrel *R, const mf_batch *B, double deadline,
                  int *len, mf_test **test);
/* The original's reachable states, counted (0 when the search runs past
 * the deadline): a lower bound of the explorer's potential product
 * nodes for a deterministic original. */
double mf_bdd_reach_count(sess *S, double deadline);
/* The potential search where it is exact (results as mf_bdd_search's). */
int mf_bdd_search_pot(sess *S, mrel *R, const mf_batch *B,
                      const mf_model *mm, double deadline, int *len,
                      mf_test **test);
/* The deterministic search over the original's layers (results as
 * mf_bdd_search's; -1 where it does not apply). */
int mf_bdd_search_det(sess *S, mrel *R, const mf_batch *B, int *len,
                      mf_test **test);
/* 1 if the mutant includes the original's behaviours (no definite kill
 * at any length). */
int mf_bdd_includes(sess *S, const mrel *R);
/* 1 if every test has an original and a mutant behaviour with the same
 * observations (no definite kill at any length). */
int mf_bdd_joint(sess *S, const mrel *R, double deadline);

#endif
