/* dominators.h - dominator mutants from a campaign's full kill matrix
 * (docs/minimisation.md, "Dominator mutants"): which killed mutants
 * subsume others, the minimal (dominator) set, and the dominator score.
 *
 * A mutant's kill set is the set of the campaign's tests that kill it in
 * the kill matrix (any notion). Mutants with the same non-empty kill set
 * are indistinguishable by the suite: they form one class. Class A
 * subsumes class B when A's kill set is a proper subset of B's (every
 * test that kills an A mutant kills a B mutant): B is redundant. The
 * dominator classes are those no other class subsumes; one mutant of
 * each is a minimal set of mutants whose kills imply every other kill,
 * so its size is the number of dominator classes.
 *
 * It reads the store only and fills nothing: on a matrix that is not
 * full the kill sets are the verdicts' tests alone, and the caller says
 * so (mf_dominators.full). It decides no mutant. */
#ifndef MF_DOMINATORS_H
#define MF_DOMINATORS_H

#include <stdint.h>

#include <sqlite3.h>

typedef struct {
    int64_t row;    /* mutants.id */
    char id[17];    /* the stable mutant id */
    int op;         /* index into mf_dominators.ops */
    int cls;        /* its class (index into classes), -1: no test kills it */
} mf_dominators_mutant;

typedef struct {
    int size;        /* tests in its kill set */
    int nmutants;
    int first;       /* its first mutant (index into mutants) */
    int dominator;   /* 1: no other class subsumes it */
    int by;          /* !dominator: a dominator class that subsumes it */
    int rank;        /* dominators 1.., then the others 1.. */
} mf_dominators_class;

typedef struct {
    char *name;
    int64_t killed;       /* its mutants some test kills */
    int64_t dominators;   /* of them, in dominator classes */
    int64_t own;          /* dominator classes of its mutants alone */
} mf_dominators_op;

typedef struct {
    int full;                   /* the campaign's kill matrix is full */
    int64_t tests;              /* the campaign's tests */
    int64_t equivalent;         /* proved equivalent (left out) */
    mf_dominators_mutant *mutants; /* killed, survived or unknown, by row */
    int nmutants;
    int64_t killed;             /* with a non-empty kill set */
    int64_t unkilled;           /* with an empty one */
    mf_dominators_class *classes; /* dominators first, each group by size */
    int nclasses;
    int ndominators;            /* dominator classes: the minimal set */
    int64_t dominator_mutants;  /* mutants in dominator classes */
    mf_dominators_op *ops;      /* by name */
    int nops;
} mf_dominators;

/* Compute the dominators of campaign `campaign` from the kills table.
 * 0, or MF_ERROR with SQLite's message; *out is zeroed on failure. */
int mf_dominators_compute(mf_dominators *out, sqlite3 *db, int64_t campaign);
void mf_dominators_free(mf_dominators *d); /* zeroes; NULL-safe */

/* dominator classes / (dominator classes + unkilled mutants), and the
 * mutation score killed / (killed + unkilled) on the same mutants; -1
 * when there is nothing to score. An unkilled mutant counts as a
 * dominator of its own: no test says what subsumes it. */
double mf_dominators_score(const mf_dominators *d);
double mf_dominators_mutation_score(const mf_dominators *d);

#endif
