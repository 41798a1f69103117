/* matrix_int.h - what the local fill (matrix.c) and the farm's fill
 * (matrix_farm.c) share inside coordinator/report/: blocks of stored
 * tests read back and checked on the original, the campaign's target
 * mutants, the one writer of kill rows, and the start and end of a fill
 * in the matrices table (docs/minimisation.md).
 *
 * Not an interface for other folders: matrix.h is. */
#ifndef MF_MATRIX_INT_H
#define MF_MATRIX_INT_H

#include <stdint.h>

#include "kill_replay.h"
#include "matrix.h"

struct sqlite3_stmt;

/* ---- a block of tests ---------------------------------------------------- */

typedef struct {
    int64_t id;
    mf_test *t;
    int ok; /* 0: the original alone was past the replay limits, so every
               pair of it is undecided */
    char why[128]; /* !ok: the limit */
} mf_matrix_btest;

typedef struct {
    mf_matrix_btest *v;
    int n;
    int64_t last; /* highest test id in it */
} mf_matrix_block;

/* The next `max` tests of the campaign after test id `after` (by id),
 * each parsed and checked on the original with o: MF_EPARSE naming the
 * test for one that does not parse or replay there. */
int mf_matrix_block_next(mf_matrix_block *b, mf_store *s,
                         const mf_matrix_campaign *c, mf_kill_orig *o,
                         int64_t after, int max);
void mf_matrix_block_free(mf_matrix_block *b); /* zeroes */

/* Tests per block of a fill unless told otherwise. */
#define MF_MATRIX_BLOCK_TESTS 256

/* ---- the mutants a matrix replays on ------------------------------------- */

typedef struct {
    int64_t row;   /* mutants.id */
    int64_t vtest; /* the test of its killed verdict, 0: none */
    char id[17];   /* its mutant id */
} mf_matrix_target;

/* Every killed, survived or unknown mutant of the campaign in planning
 * order (*out malloc'd, *n of them). */
int mf_matrix_targets_load(mf_store *s, int64_t campaign,
                           mf_matrix_target **out, int64_t *n);

/* ---- writing kills ------------------------------------------------------- */

/* The one writer of the matrix's kill rows: an upsert into kills (source
 * 'replay'; a 'verdict' row keeps its source and gets notion, step,
 * refuses), inside transactions the caller opens and commits. */
typedef struct {
    mf_store *s;
    int64_t campaign;
    struct sqlite3_stmt *ins;
    int in_tx;
    int64_t written;
} mf_matrix_writer;

int mf_matrix_writer_open(mf_matrix_writer *w, mf_store *s, int64_t campaign);
void mf_matrix_writer_close(mf_matrix_writer *w);
int mf_matrix_writer_begin(mf_matrix_writer *w);   /* no-op inside one */
int mf_matrix_writer_commit(mf_matrix_writer *w);  /* no-op outside one */
void mf_matrix_writer_rollback(mf_matrix_writer *w);
int mf_matrix_writer_put(mf_matrix_writer *w, int64_t test_id,
                         int64_t mutant_row, const mf_kill *k);

/* ---- a fill's start and end ---------------------------------------------- */

/* Start (or restart with refill: replayed kills dropped, the farm's done
 * jobs forgotten) the campaign's matrices row; *after: the last test id
 * whose block is done. */
int mf_matrix_fill_begin(mf_store *s, int64_t campaign, int refill,
                         int64_t *after);
/* Mark the matrix full with its counts, and read the whole matrix's
 * counts into *out (tests, mutants as given). */
int mf_matrix_fill_finish(mf_store *s, int64_t campaign, int64_t tests,
                          int64_t mutants, mf_matrix_stats *out);
/* The whole matrix's counts (kills per notion, undecided, unconfirmed,
 * tests; with `mutants`, also the mutants of its row) into *out. */
int mf_matrix_totals(mf_store *s, int64_t campaign, int mutants,
                     mf_matrix_stats *out);
/* A statement run, or prepared, on s: MF_ERROR naming `what` (or "preparing
 * a query") with SQLite's message on failure. */
int mf_matrix_exec(mf_store *s, const char *sql, const char *what);
int mf_matrix_prepare(mf_store *s, struct sqlite3_stmt **st, const char *sql);
/* The campaign's number of tests. */
int mf_matrix_count_tests(mf_store *s, int64_t campaign, int64_t *n);

#endif
