/* suite.h - a user's own test suite in the store and its mutation score
 * (docs/suites.md): `mutfarm tests import` keeps a suite read by
 * suite_read.h beside a campaign (schema/009_imported_suites.sql), and
 * `mutfarm score` replays it on every killed, survived or unknown mutant
 * of the campaign through the kill matrix's replay (matrix.h; no solver).
 *
 * A test whose expected observables the original model does not show is
 * a wrong test: reported with its step, expected and the model's values,
 * counted apart, and never used to kill. The score's kills are not
 * written to the store: the campaign's own matrix stays the campaign's. */
#ifndef MF_SUITE_H
#define MF_SUITE_H

#include <stdint.h>
#include <stdio.h>

#include "matrix.h"
#include "store.h"
#include "suite_read.h"

/* Keep file f (read from `source` in format fmt) as suite `name` of
 * campaign c, replacing one of that name, in one transaction. MF_EPARSE
 * (nothing stored) when the file names another model than the
 * campaign's; MF_ERROR for the store. */
int mf_suite_import(mf_store *s, const mf_matrix_campaign *c,
                    const char *name, mf_suite_format fmt,
                    const char *source, const mf_suite_file *f);

typedef enum { MF_SCORE_TEXT, MF_SCORE_JSON } mf_score_format;

typedef struct {
    const char *suite; /* its name */
    int threads;       /* replay threads (>= 1) */
    mf_score_format format;
} mf_score_opts;

typedef struct {
    int tests, wrong;          /* tests, and wrong ones among them */
    int64_t mutants, killed;   /* targets, and those the suite kills */
    int64_t equivalent;        /* the campaign's equivalent mutants */
    int64_t undecided;         /* pairs past the replay limits */
} mf_score_counts;

/* Score suite o->suite of campaign c and write the report to f (text or
 * JSON: wrong tests, kills per notion, the scores with and without the
 * equivalent mutants, every kill, the mutants left alive). MF_ENOTFOUND
 * for no such suite (the message lists the campaign's), MF_EPARSE for a
 * stored test that no longer reads, MF_EIO when f fails. */
int mf_suite_score(FILE *f, mf_store *s, const mf_matrix_campaign *c,
                   const mf_score_opts *o, mf_score_counts *out);

#endif
