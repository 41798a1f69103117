/* mm.h - mutation machines (docs/fsm.md, Mutation machines): one
 * non-deterministic machine that holds a KISS2 specification and extra
 * "mutated" transitions, every deterministic submachine of which is a
 * mutant (Petrenko et al., ../shared/papers/fsm-mutation-machine-coverage-
 * analysis.md).
 *
 * A machine is cut into groups of alternatives: the specification's rows
 * split into disjoint (state, input cube) pieces (a `*` row a piece per
 * state; a row that overlaps earlier ones keeps the part they leave), and
 * the groups of the extra states. A group holds its alternatives (next
 * state and output cube, or no transition at all); a mutant chooses one
 * alternative per group, so there are prod(nalts) of them. A state and an
 * input select at most one group.
 *
 * Here: building a machine (from extra rows, or by the FSM operators on
 * chosen states), counting its mutants exactly, and deciding one mutant
 * (a choice) against the specification by the product of the two tables.
 * Analysing a test suite without enumerating mutants is engine/fsm_mm.c. */
#ifndef MF_KISS2_MM_H
#define MF_KISS2_MM_H

#include "kiss2.h"

typedef struct {
    int to;          /* next state, -1: no transition (the input refused) */
    const char *out; /* output cube (no characters) */
    int line;        /* the row it comes from, 0: made by an operator */
} mf_mm_alt;

typedef struct {
    int from;         /* the state */
    const char *in;   /* the input cube (ni characters) */
    int spec;         /* the specification's alternative, -1: none (a group
                         of an extra state) */
    int nalts;
    mf_mm_alt *alts;
} mf_mm_group;

typedef struct {
    mf_arena *arena;     /* owns everything below */
    const char *file;
    int ni, no;
    int nspec;           /* states 0..nspec-1 are the specification's */
    int nstates;         /* then the extra states */
    const char **states;
    int reset;
    int ngroups;
    mf_mm_group *groups;
    int *gstart;         /* the groups of state s: gidx[gstart[s] ..
                            gstart[s + 1]), in order */
    int *gidx;
} mf_mm;

/* The specification k as a machine with one alternative a group (MF_ELIMIT
 * past a million groups). */
int mf_mm_from_spec(mf_mm **out, const mf_kiss2 *k);
void mf_mm_free(mf_mm *mm); /* NULL-safe */

/* Add the rows of x (read with nondet: alternatives may disagree) as
 * alternatives: a row's present state is a specification state or a new
 * (extra) state; its alternative goes to every group of that state inside
 * its input cube or, for an extra state whose groups it does not meet, to a
 * new group. MF_EPARSE naming x's line for a cube that cuts a group, or
 * that no group of a specification state takes. */
int mf_mm_add_rows(mf_mm *mm, const mf_kiss2 *x);

/* Add the alternatives of the FSM operators (mask of 1u << mf_kop) to the
 * groups of the states named in `states` (NULL: every specification
 * state): output faults, transfer faults to every other specification
 * state, the missing transition. MF_ENOTFOUND for an unknown state. */
int mf_mm_add_ops(mf_mm *mm, unsigned mask, const char *const *states,
                  int nstates);

/* The number of mutants, prod(nalts), as decimal digits (the
 * specification itself included). */
void mf_mm_count(mf_buf *out, const mf_mm *mm);
/* The same over the groups g with fixed[g] 0 (the groups a class leaves
 * free): how many mutants agree with one choice on the fixed groups. */
void mf_mm_count_free(mf_buf *out, const mf_mm *mm, const char *fixed);

/* acc += x, both decimal digits (acc empty: 0). */
void mf_mm_dec_add(mf_buf *acc, const char *x);

/* The group of state s that takes input x (ni characters of 0 1), or -1. */
int mf_mm_group_at(const mf_mm *mm, int s, const char *x);

/* Mutant `choice` (one alternative per group) against the specification:
 * 1 and *seq (len inputs of ni characters, the caller frees it with free)
 * when an input sequence the specification allows shows it apart (a
 * refusal, or an output the specification does not allow: the shortest
 * such), 0 when it conforms. visited[g] is set to 1 for every group the
 * product of the two reaches (the choices that decide the answer: every
 * mutant that agrees with `choice` there answers the same). */
int mf_mm_distinguish(const mf_mm *mm, const int *choice, char *visited,
                      char **seq, int *len);

/* An enumerated mutant (mutate.c) of specification k decided exactly by
 * the product of the two tables: 1 and *seq, *len (as mf_mm_distinguish;
 * seq NULL: not wanted) when killed, 0 when it conforms, or a negative
 * code (a limit). */
int mf_kiss2_decide(const mf_kiss2 *k, const mf_kiss2_mutant *mu, char **seq,
                    int *len);

/* Mutant `choice` as KISS2: the specification's states and the extra ones
 * it uses, one row a group (the changed ones marked with a comment). */
void mf_mm_print_mutant(mf_buf *out, const mf_mm *mm, const int *choice);

/* The specification's run of a test (len inputs of ni characters of 0 1):
 * 0, or MF_EPARSE naming the step whose input it does not allow. */
int mf_mm_spec_run(const mf_mm *mm, const char *const *inputs, int len);

#endif
