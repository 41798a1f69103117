/* minimize.h - a smallest test suite of a campaign from its full kill
 * matrix (docs/minimisation.md): duplicate tests and tests that are
 * prefixes of others dropped, then a set cover of the mutants the whole
 * suite kills, each at least as strongly (definite or deterministic kills
 * stay so), greedy or exact (engine/cover.h); the answer checked by
 * replaying it on every mutant, and stored as a named suite.
 *
 * It does not fill the matrix (mf_matrix_fill does; the matrix must be
 * full) and prints nothing. */
#ifndef MF_MINIMIZE_H
#define MF_MINIMIZE_H

#include <stdint.h>

#include "matrix.h"
#include "store.h"

typedef struct {
    int exact;            /* Z3's Optimize, else greedy */
    const char *name;     /* suite name; NULL: "minimal" / "minimal-exact" */
    unsigned timeout_ms;  /* exact: Z3's budget (0: none) */
} mf_minimize_opts;

typedef struct {
    int64_t tests, length;           /* the campaign's suite */
    int64_t duplicates, prefixes;    /* tests dropped as such */
    int64_t kept, kept_length;       /* what the cover chooses from */
    int64_t mutants;                 /* killed by the whole suite */
    int64_t strong;                  /* of those, killed definitely or
                                        deterministically by some test */
    int64_t greedy, greedy_length;   /* the greedy cover */
    int64_t chosen, chosen_length;   /* the stored suite */
    int exact;                       /* the stored suite is Z3's */
    int optimal;                     /* Z3 proved it smallest */
    int fell_back;                   /* --exact, but the greedy cover was
                                        kept: note says why */
    char note[256];
    char name[128];                  /* the suite's name */
    int replaced;                    /* a suite of that name was replaced */
    int64_t checked;                 /* mutants the replay of the stored
                                        suite kills as strongly */
    double secs, exact_secs;
} mf_minimize_result;

/* Minimise the campaign's suite (its matrix must be full: MF_ERROR
 * otherwise) and store the answer as suite o->name, replacing one of that
 * name, in one transaction. Before storing, the chosen tests are replayed
 * on every mutant (mf_matrix_suite_ranks): they must kill exactly the
 * mutants the matrix says the whole suite kills, each as strongly, or
 * nothing is stored (MF_ERROR naming a mutant). MF_EPARSE for a bad name
 * (empty or over 100 bytes). */
int mf_minimize(mf_store *s, const mf_matrix_campaign *c,
                const mf_minimize_opts *o, mf_minimize_result *out);

#endif
