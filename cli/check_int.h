/* check_int.h - what `mutfarm check` shares between its files: the
 * engine over many mutants in threads (cmd_check.c), and the coverage
 * criteria's path (check_criteria.c). Not for other commands. */
#ifndef MF_CHECK_INT_H
#define MF_CHECK_INT_H

#include "engine.h"

/* mf_engine_check over n mutants of m in `threads` threads, each taking
 * slices of consecutive mutants in turn; out[i] for mu[i]. 0, or the
 * first engine error (MF_ERROR with its message). */
int mf_check_threads(const mf_model *m, const mf_engine_mutant *mu, int n,
                     const mf_engine_opts *eo, mf_verdict *out, int threads);

/* A test as `mutfarm check` prints it: mf_test_print's lines, each
 * indented by four spaces, on stdout. */
void mf_check_print_test(const mf_model *m, const mf_test *t);

/* The mutants of `check --criterion mutation`, for the winnowing and
 * the cross-criterion table: mu[j] (with its mutated model), its verdict
 * v[j], dup_of[j] (-1, or the mutant it duplicates). */
typedef struct {
    const mf_engine_mutant *mu;
    const mf_verdict *v;
    const int *dup_of;
    int n;
} mf_check_mutation;

/* One row and column of the cross-criterion table: a criterion's
 * feasible requirements as "mutant" models of the model (trap 0: the
 * mutants) or of the trap model (trap 1), and its witnesses. */
typedef struct {
    const char *name;
    int trap;
    const mf_model *const *reqs;
    int nreqs;
    const mf_test *const *own;
    int nown;
} mf_check_cross_row;

/* Print the cross-criterion table of rows[0..nrows) (check_cross.c). */
void mf_check_cross(const mf_model *m, const mf_model *tm,
                    const mf_check_cross_row *rows, int nrows);

/* `mutfarm check MODEL --criterion LIST`: the requirements of the
 * criteria in mask (criteria.h) decided on the trap model, printed one a
 * line with their witness tests, every witness replayed again, then the
 * winnowing row per criterion (generated, duplicates, trivial,
 * infeasible, open, feasible). `sample` > 0: that many requirements,
 * evenly spaced. With mut (may be NULL) or two criteria or more, the
 * cross-criterion table. Returns the exit code (cmd.h). */
int mf_check_criteria(const mf_model *m, unsigned mask,
                      const mf_engine_opts *eo, int threads, int sample,
                      const mf_check_mutation *mut);

/* Semantic duplicates among the killed mutants mu[0..n) of m (verdicts
 * v; mu[j].mutated set): dup_of[j] the mutant j is equivalent to, or -1.
 * Returns the candidate pairs the engine left undecided, or -1 when the
 * replays could not start. */
int mf_check_mutant_duplicates(const mf_model *m, const mf_engine_mutant *mu,
                               const mf_verdict *v, int n,
                               const mf_engine_opts *eo, int *dup_of);

#endif
