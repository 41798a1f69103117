/* matrix.h - the kill matrix of a finished campaign: every stored test
 * replayed by the simulator on every killed, survived or unknown mutant,
 * with the notion the test achieves on each (docs/minimisation.md). Also
 * what the minimisation and the test export share with it: a campaign's
 * model read back from the store, and stored tests read back as mf_test.
 *
 * It does not decide mutants (the Z3 engine does) and does not choose
 * suites (minimize.h). It reads the store through mf_store_db() and writes
 * only the kills, matrices tables of schema/002_matrix.sql, in its own
 * transactions. Memory: one block of tests and the original's memoised
 * steps per thread (at most 32 MB); mutants are made one at a time from
 * the model and read from the store next to it, never all at once. */
#ifndef MF_MATRIX_H
#define MF_MATRIX_H

#include <stdint.h>

#include "kill_replay.h"
#include "model.h"
#include "store.h"
#include "verdict.h"

/* ---- a campaign, read back ----------------------------------------------- */

typedef struct {
    int64_t id;
    mf_store_campaign_info info;
    mf_model *model; /* the stored text loaded with the campaign's
                        inputs and observables; owned */
    unsigned mask;   /* the campaign's operators (0: all) */
    /* What loads the model again elsewhere (a worker's matrix job): */
    char *name;      /* the model's file name; owned */
    char *text;      /* the stored text; owned */
    const char **inputs, **observe; /* --inputs / --observe names */
    int ninputs, nobserve;
    char *names_buf; /* owns the names */
} mf_matrix_campaign;

/* Campaign `campaign` of the store (0: the newest), with its model. The
 * model must load and have the stored hash. MF_ENOTFOUND for no such
 * campaign (or none at all), MF_ERROR when the stored model or options do
 * not load in this mutfarm (message says which); *out is zeroed then. */
int mf_matrix_campaign_open(mf_matrix_campaign *out, mf_store *s,
                            int64_t campaign);
void mf_matrix_campaign_close(mf_matrix_campaign *c); /* zeroes; NULL-safe */

/* What the matrix and minimisation code share: a monotonic clock in
 * seconds (for the figures they print), and a failed query on s as
 * MF_ERROR with "store PATH: what: SQLite's message". */
double mf_matrix_now_s(void);
int mf_matrix_db_fail(mf_store *s, const char *what);
/* The id of the row named `name` among the campaign's rows that sql
 * ("SELECT id, name ... WHERE campaign_id = ?1 ORDER BY name") lists, in
 * *out: minimised suites (export.c) and imported ones (suite.c) alike.
 * MF_ENOTFOUND for none, the message naming the `what` sought and listing
 * the campaign's rows, or none_hint when it has none. */
int mf_matrix_named_row(mf_store *s, const char *sql, int64_t campaign,
                        const char *name, const char *what,
                        const char *none_hint, int64_t *out);

/* ---- the matrix in the store --------------------------------------------- */

typedef struct {
    int threads; /* replay threads (>= 1) */
    int refill;  /* drop the replayed kills and fill again */
    int block;   /* tests per block (0: default) */
    int quiet;   /* no progress lines (a line a block, on stderr when it
                    is a terminal) */
} mf_matrix_opts;

typedef struct {
    int already;       /* it was full: nothing done */
    int64_t tests;     /* tests of the campaign */
    int64_t mutants;   /* killed, survived or unknown mutants */
    int64_t pairs;     /* replays done by this call */
    int64_t kills;     /* pairs that kill (the whole matrix) */
    int64_t undecided; /* pairs past the replay limits (whole matrix) */
    int64_t unconfirmed; /* verdict kills the replay does not show */
    int64_t by_notion[3]; /* kills per mf_notion (whole matrix) */
    double secs;       /* wall time of this call */
    char undecided_why[256]; /* this call's first undecided pair, why */
    int64_t jobs;        /* through the farm: matrix jobs of the fill */
    int64_t jobs_resumed; /* of them, done by an earlier run of it */
    int64_t jobs_again;  /* of them, leased again after a lost lease */
} mf_matrix_stats;

/* 1 if the campaign's matrix is full, 0 if not (or never started), < 0 on
 * failure. */
int mf_matrix_is_full(mf_store *s, int64_t campaign);

/* Fill the kill matrix of a finished campaign (MF_ERROR "still running"
 * otherwise): every test by every killed, survived or unknown mutant, one
 * replay each, each kill upserted into `kills` (source 'replay'; 'verdict'
 * rows keep their source and get notion, step, refuses), in transactions
 * of a few thousand rows. A fill that stops part way resumes after the
 * last block it committed. A full matrix is left as is (out->already)
 * unless o->refill. */
int mf_matrix_fill(mf_store *s, const mf_matrix_campaign *c,
                   const mf_matrix_opts *o, mf_matrix_stats *out);

/* ---- a suite, replayed --------------------------------------------------- */

/* Called once per killed, survived or unknown mutant of the campaign with
 * the strongest notion rank any of the suite's tests achieves on it (0:
 * none kills it, -1: undecided). Return non-zero to stop. */
typedef int (*mf_matrix_rank_fn)(int64_t mutant_row, const char *mutant_id,
                                 int rank, void *ctx);

/* Replay the tests `test_ids` (rows of the campaign's tests) on every
 * mutant as mf_matrix_fill does, but stop at a mutant's first kill of
 * rank 2 (the full matrix is not asked for), and report per mutant
 * through fn. Reads the store only. */
int mf_matrix_suite_ranks(mf_store *s, const mf_matrix_campaign *c,
                          const int64_t *test_ids, int ntests,
                          mf_matrix_rank_fn fn, void *ctx);

/* ---- tests not of the campaign, replayed --------------------------------- */

/* Called for each kill: the test's index in the array, the mutant's row
 * and the kill. Called from the enumerating thread only. Non-zero stops. */
typedef int (*mf_matrix_kill_fn)(int test, int64_t mutant_row,
                                 const mf_kill *k, void *ctx);

/* Replay tests[0..n) (tests of c->model, e.g. an imported suite's; each
 * one whose expected observables the original does not show is the
 * caller's to leave out) on every killed, survived or unknown mutant of
 * the campaign as mf_matrix_fill does, on `threads` threads, and tell fn
 * every kill. *undecided: pairs past the replay limits. Reads the store
 * only. */
int mf_matrix_replay_tests(mf_store *s, const mf_matrix_campaign *c,
                           mf_test *const *tests, int n, int threads,
                           mf_matrix_kill_fn fn, void *ctx,
                           int64_t *undecided);

#endif
