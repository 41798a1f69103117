/* bdd_int.h - what the BDD engine's files share (engine-internal): the
 * BDD variables of the product's state cells and value maps (an expression
 * as "value v under condition c" pairs), made by bdd_enc.c; the relations
 * of one copy of a model compiled from its items, by bdd_items.c; used by
 * bdd.c and bdd_search.c (bdd_sess.h). Only these files include bdd.h of
 * BuDDy. */
#ifndef MF_BDD_INT_H
#define MF_BDD_INT_H

#include <bdd.h>

#include "model.h"

/* The roles of a cell's blocks: current or next state, of the original
 * (x) or of the mutant (y). Shared cells (IVARs, input VARs: the test
 * gives them to both) have one block per state, the x one. */
enum { MF_BR_XC, MF_BR_YC, MF_BR_XN, MF_BR_YN, MF_BR__N };

/* The value index of one cell in binary, most significant bit first. */
typedef struct {
    int nbits;
    int *var;     /* BuDDy variables */
    int nvals;
    mf_val *vals; /* the cell's domain, ascending */
} mf_bdd_blk;

/* An expression's values: v[i] under condition c[i] (each referenced,
 * never bddfalse), values ascending. Non-determinism makes conditions
 * overlap; an undefined expression has no value where it is undefined. */
typedef struct {
    int n, cap;
    mf_val *v;
    BDD *c;
} mf_vmap;

/* The variables of a product of a model with itself. */
typedef struct {
    const mf_model *m;
    int nslots;
    unsigned char *shared; /* per slot */
    unsigned char *frozen; /* per slot: a FROZENVAR */
    unsigned char *ivar;   /* per slot: an IVAR */
    mf_bdd_blk *blk;       /* per slot x MF_BR__N (shared: XC = YC,
                              XN = YN) */
    int nvars;             /* BuDDy variables in all */
    int bits;              /* bits of one copy's state */
    BDD cur, next;         /* sets: every current / next variable */
    BDD xn_own, yn_own;    /* sets: the own next variables of x, of y */
    BDD xc_own, yc_own;    /* sets: the own current variables */
    bddPair *x2y;          /* x's own blocks to y's (current and next) */
    bddPair *xc2yc, *xn2yn; /* the same, current or next only */
    BDD eq_c, eq_n;        /* every own cell of x equals y's (current,
                              next) */
    bddPair *n2c, *c2n;    /* next to current and back, both copies */
    mf_vmap *cells;        /* per slot x MF_BR__N: the cell's values,
                              built on first use (n < 0: not yet) */
    long ops, ops_max;     /* value pairs combined, and the budget */
    double deadline;       /* of the compilation, in this thread's CPU
                              seconds (mf_bdd_cpu_now), 0: none */
} mf_bdd_space;

/* Builds the space of m and declares its variables to BuDDy (running).
 * 0, or MF_EUNSUPPORTED (a domain past the limit) with the message set;
 * either way mf_bdd_space_free frees it. */
int mf_bdd_space_init(mf_bdd_space *sp, const mf_model *m);
void mf_bdd_space_free(mf_bdd_space *sp);

/* The last BuDDy error (node table full, out of memory): everything built
 * since is void. Set by bdd.c's error handler, read and written under its
 * lock; defined in bdd_enc.c, below the files that read it. */
extern int mf_bdd_err;

void mf_vmap_free(mf_vmap *vm);
/* Adds "v under c" (c unreferenced or the caller's). */
void mf_vmap_put(mf_vmap *vm, mf_val v, BDD c);
/* v under a & b. */
void mf_vmap_put_and(mf_vmap *vm, mf_val v, BDD a, BDD b);
void mf_vmap_copy(mf_vmap *dst, const mf_vmap *src);
/* Where vm's value is non-zero (*t) and zero (*f), both referenced. */
void mf_vmap_truth(const mf_vmap *vm, BDD *t, BDD *f);
/* The condition of value v in vm (bddfalse: never). */
BDD mf_vmap_cond(const mf_vmap *vm, mf_val v);
/* This thread's CPU time in seconds: budgets that a loaded machine does
 * not eat. */
double mf_bdd_cpu_now(void);
/* The relations of model mm (the original or a mutant, same variables)
 * over the x blocks, one conjunct per item, plus conjunct nitems: the
 * domains and frozen cells (init: the initial states, else the step).
 * only: NULL, or which items to compile (the others stay bddtrue). memo:
 * the DEFINEs already compiled, per context (MF_BDD_NCTX x nitems x 2
 * maps, all n = -1 at first), so that the mutants reuse the original's.
 * 0, or a negative code (MF_ELIMIT past the budget, MF_EUNSUPPORTED). */
#define MF_BDD_NCTX 3
int mf_bdd_items(mf_bdd_space *sp, const mf_model *mm, int init,
                 const unsigned char *only, mf_vmap *memo, BDD *conj);
/* The observed DEFINEs of mm in state x (mm->nobs_defines maps). */
int mf_bdd_obs_defines(mf_bdd_space *sp, const mf_model *mm, mf_vmap *memo,
                       mf_vmap *out);
/* A fresh memo for mm (free with mf_bdd_memo_free). */
mf_vmap *mf_bdd_memo_new(const mf_model *mm);
void mf_bdd_memo_free(const mf_model *mm, mf_vmap *memo);

/* The cube "block b holds value index i". */
BDD mf_bdd_blk_is(const mf_bdd_blk *b, int i);
/* The value a full assignment gives block b: bits[var] 0/1. */
mf_val mf_bdd_blk_value(const mf_bdd_blk *b, const signed char *bits);
/* The block of slot s in role r. */
const mf_bdd_blk *mf_bdd_blk_of(const mf_bdd_space *sp, int s, int r);
/* "b holds a value of its domain" (referenced). */
BDD mf_bdd_blk_in_domain(const mf_bdd_blk *b);
/* "a and b hold the same value" (same domain; referenced). */
BDD mf_bdd_blk_eq(const mf_bdd_blk *a, const mf_bdd_blk *b);
/* "b's value is in vm's values under their conditions" (referenced). */
BDD mf_bdd_blk_takes(const mf_bdd_blk *b, const mf_vmap *vm);

static inline int is_ivar(const mf_var *v)
{
    return v->decl == MF_DECL_IVAR;
}

#endif
