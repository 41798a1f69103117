/* fsm_mm.h - a test suite analysed against a mutation machine (kiss2/mm.h)
 * without enumerating its mutants, and a suite completed for it (docs/
 * fsm.md, Mutation machines; the method of Petrenko, Nguena Timo and
 * Ramesh, ../shared/papers/fsm-mutation-machine-coverage-analysis.md).
 *
 * One Boolean per alternative of a group (exactly one true: the mutant's
 * choice); per test, the mutant's run as Booleans "in state t after step
 * k" over the states it may be in, with "in t, and this alternative chosen"
 * implying the next state, and excluding the alternatives that refuse the
 * input or show an output the specification does not allow there. A
 * solution is a mutant that passes every test. The product of it with the
 * specification (mf_mm_distinguish) says whether it conforms; either way
 * every mutant that agrees with it on the groups that product visits
 * answers the same, so one clause blocks them all, and their number is
 * counted exactly. */
#ifndef MF_FSM_MM_H
#define MF_FSM_MM_H

#include "mm.h"

typedef struct mf_mm_solver mf_mm_solver;

/* A solver for the machine (which must outlive it). Never fails. */
mf_mm_solver *mf_mm_solver_new(const mf_mm *mm);
void mf_mm_solver_free(mf_mm_solver *s); /* NULL-safe */

/* A test: len inputs of mm->ni characters of 0 1. 0, or MF_EPARSE with the
 * step the specification does not allow (nothing added). */
int mf_mm_solver_add_test(mf_mm_solver *s, const char *const *inputs,
                          int len);

/* Exclude every mutant that agrees with choice on the groups g with
 * visited[g] set. */
void mf_mm_solver_block(mf_mm_solver *s, const int *choice,
                        const char *visited);

/* A mutant that passes every test added and is not blocked: 1 with
 * choice[0..ngroups) set, 0 when there is none, MF_ERROR on a solver
 * failure (message set). */
int mf_mm_solver_next(mf_mm_solver *s, int *choice);

/* What the analysis of a suite found. */
typedef struct {
    int finished;        /* every passing mutant classified */
    long classes;        /* solutions found (each a class of mutants) */
    mf_buf conforming;   /* how many mutants conform (the specification
                            included), decimal; a lower bound unless
                            finished */
    mf_buf surviving;    /* nonconforming mutants that pass every test,
                            decimal; a lower bound unless finished */
    int *survivor;       /* one of them (ngroups choices), NULL if none */
    char *seq;           /* an input sequence that shows it apart */
    int seqlen;
    double secs;
} mf_mm_result;

void mf_mm_result_free(mf_mm_result *r);

/* Add the tests (ntests of them, test t has lens[t] inputs) and classify
 * the passing mutants, at most max_classes solutions (0: no limit); with
 * stop_first, stop at the first nonconforming one. 0, or a negative code
 * (a test the specification does not allow, a solver failure) with a
 * message. */
int mf_mm_analyse(const mf_mm *mm, char ***tests, const int *lens,
                  int ntests, long max_classes, int stop_first,
                  mf_mm_result *r);

/* Tests that kill every nonconforming mutant: the given ones, then one
 * added per surviving nonconforming mutant found (its distinguishing
 * sequence) until none is left. The added tests (*out, *outlens, *nout; the
 * caller frees each test, its inputs and the arrays with free). 0 or a
 * negative code. */
int mf_mm_complete(const mf_mm *mm, char ***tests, const int *lens,
                   int ntests, char ****out, int **outlens, int *nout);

#endif
