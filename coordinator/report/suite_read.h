/* suite_read.h - a user's test suite read from a file (docs/suites.md):
 * the JSON or CSV that `mutfarm tests export` writes, or the hand-written
 * text form (one state a line: inputs, "->", expected observables). Each
 * test is checked against the model by the store's one reader of tests
 * (mf_store_test_parse): a variable the model lacks, a value outside its
 * type, a missing input or observable, a malformed line are refused with
 * one message "FILE:LINE: ...", and nothing is kept.
 *
 * It neither opens a store nor replays anything: whether the original
 * model shows a test's expected observables is the scorer's question
 * (suite.h). */
#ifndef MF_SUITE_READ_H
#define MF_SUITE_READ_H

#include <stddef.h>

#include "model.h"
#include "verdict.h"

typedef enum { MF_SUITE_JSON, MF_SUITE_CSV, MF_SUITE_TEXT } mf_suite_format;

typedef struct {
    char *label;  /* its name in the file (an id, a test line's name) */
    int line;     /* its first line */
    int *lines;   /* the line of each state, length + 1 */
    mf_test *t;   /* read for the model */
    /* The JSON columns it was read from (the store's form, docs/schema.md;
     * allowed NULL for none): what `tests import` stores. */
    char *inputs, *expected, *allowed;
} mf_suite_test;

typedef struct {
    mf_suite_test *v;
    int n;
    char model_hash[65]; /* the model the file names ("": none) */
    int hash_line;       /* where it names it */
} mf_suite_file;

/* Read `text` (len bytes; NUL bytes refused), file name `file` for
 * messages, in format fmt, as tests of model m. 0 and *out (free with
 * mf_suite_file_free), or MF_EPARSE with the message "FILE:LINE: what"
 * and *out empty. */
int mf_suite_read(mf_suite_file *out, const mf_model *m, const char *file,
                  const char *text, size_t len, mf_suite_format fmt);
void mf_suite_file_free(mf_suite_file *f); /* zeroes; NULL-safe */

/* "json", "csv", "text" to a format: 0, or -1 for another word. */
int mf_suite_format_parse(mf_suite_format *out, const char *word);

#endif
