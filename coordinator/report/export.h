/* export.h - a campaign's tests out of the store, for people and other
 * tools (docs/minimisation.md, "Export"): per test its inputs, expected
 * observables and, for non-deterministic models, allowed observables per
 * step, and the mutants it kills with the notion of each kill and, for a
 * refusal, the step whose input the mutant refuses. JSON (one document)
 * or CSV (one row per test and step).
 *
 * Values print as SMV prints them, observed DEFINEs included (a symbol
 * as its name). It reads the store only and streams one test at a time;
 * it does not fill the kill matrix (the command does first). */
#ifndef MF_EXPORT_H
#define MF_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "matrix.h"
#include "store.h"

typedef enum { MF_EXPORT_JSON, MF_EXPORT_CSV } mf_export_format;

typedef struct {
    mf_export_format format;
    const char *suite; /* NULL: every test of the campaign */
} mf_export_opts;

typedef struct {
    int64_t tests, steps, kills; /* written */
} mf_export_counts;

/* The row of the campaign's suite `name` in *id. MF_ENOTFOUND for none,
 * the message listing the campaign's suites (or how to make one). */
int mf_export_suite_find(mf_store *s, int64_t campaign, const char *name,
                         int64_t *id);

/* Write the campaign's tests (or those of suite o->suite, in its order;
 * else by id) to f. MF_ENOTFOUND for no such suite (the message lists the
 * campaign's suites), MF_EPARSE for a malformed stored test, MF_EIO when
 * f fails. */
int mf_export_tests(FILE *f, mf_store *s, const mf_matrix_campaign *c,
                    const mf_export_opts *o, mf_export_counts *out);

#endif
