/* kill_replay.h - what one stored test does to one mutant, by the
 * simulator alone (no solver): the one test x mutant replay of mutfarm.
 * Two ways in:
 *   - the kill matrix's (coordinator/report/matrix.c, worker/matrix_job.c):
 *     mf_kill_replay, no kill or a kill with its notion (deterministic,
 *     potential, definite), the step by which it kills and the step the
 *     mutant refuses (docs/minimisation.md, "The kill matrix"), with the
 *     explorer's definitions (explore.h) on the test's one input sequence;
 *   - the nightly rerun's (coordinator/rerun_replay.c, docs/nightly.md):
 *     mf_kill_claim, a kill with the campaign's notion under the rules of
 *     the engine's replay, as a test to confirm by mf_engine_replay.
 *
 * Both search the same layered graphs of the original and the mutant
 * along the test's inputs (kill_int.h) with the same searches:
 *   potential: some run of the mutant shows observables (or refuses where)
 *     no run of the original with the same observables so far does;
 *   definite: no pair of runs (original, mutant) shows the same
 *     observables all along.
 * Deterministic: both had one state at every step up to the kill, where
 * the two coincide. They differ in what a refusal is (the explorer: a
 * mutant's refusal is never an original behaviour; the engine's replay:
 * a refusal by both after the same observables is the same behaviour)
 * and in their limits.
 *
 * It neither reads nor writes a store and knows nothing of the farm. */
#ifndef MF_KILL_REPLAY_H
#define MF_KILL_REPLAY_H

#include "model.h"
#include "verdict.h"

/* ---- the kill matrix ------------------------------------------------------ */

/* The original's side of the replays: the tests made ready on it (its
 * graph along each) and its steps memoised by (input, state) for every
 * test and mutant replayed with it. One per thread; `m` must outlive
 * it. */
typedef struct mf_kill_orig mf_kill_orig;

int mf_kill_orig_new(mf_kill_orig **out, const mf_model *m);
void mf_kill_orig_free(mf_kill_orig *o); /* NULL-safe */

/* 0 if the original shows t's expected observables on some run over its
 * inputs, MF_ERROR otherwise (naming the step), MF_ELIMIT past the
 * replay limits. */
int mf_kill_test_check(mf_kill_orig *o, const mf_test *t);

/* A mutant as the replay takes it: its model, how its steps relate to the
 * original's (mf_explore_step_delta: where it steps as the original does,
 * the original's steps serve), and its own steps memoised across the
 * tests replayed on it. */
struct mf_kill_memo;
typedef struct {
    const mf_model *m;
    int delta; /* MF_STEP_DIFFERS, MF_STEP_NEXT, MF_STEP_SAME */
    int item;  /* MF_STEP_NEXT: the item that differs */
    struct mf_kill_memo *memo; /* owned */
} mf_kill_mut;

void mf_kill_mut_init(mf_kill_mut *out, const mf_model *orig,
                        const mf_model *mut);
void mf_kill_mut_free(mf_kill_mut *mu); /* frees the memo, not m */

/* What one test does to one mutant (explore.h's definitions on the test's
 * inputs: potential, some behaviour of the mutant is no behaviour of the
 * original; definite, none is; deterministic, both had at most one state
 * at every step up to the kill, where the two coincide). */
typedef struct {
    int killed;
    mf_notion notion; /* killed: deterministic, potential or definite */
    int step;    /* killed: the state index by which the test has killed
                    with that notion */
    int refuses; /* killed: the step whose input the mutant refuses where
                    its behaviour first departs, -1 when it departs by
                    its observables */
} mf_kill;

/* Replay test t (checked with mf_kill_test_check) on mu. Returns 0
 * with *out filled, MF_ELIMIT when a set of states (or pairs) grows past
 * the replay limit (undecided), another negative code if the simulator
 * fails. */
int mf_kill_replay(mf_kill *out, mf_kill_orig *o,
                     const mf_test *t, mf_kill_mut *mu);

/* A notion's strength for comparing kills: 2 definite or deterministic
 * (every behaviour departs), 1 potential, 0 none. */
int mf_kill_notion_rank(mf_notion n);

/* ---- claims, for the nightly rerun ---------------------------------------- */

/* A test made ready to replay on many mutants of m. */
typedef struct mf_kill_test mf_kill_test;

/* The test t (inputs and expected observables of model m; t is copied,
 * m must outlive *out) made ready: the original's graph built, and t's
 * expected observables checked on it. Where no run of m shows them, they
 * are replaced by those of the first run of m that lasts the whole test
 * (*reexpected = 1). Returns 0 and *out; MF_EREFUSED when m has no run on
 * t's inputs; MF_ELIMIT past the limits on states (the test is not
 * replayed); *out NULL then. */
int mf_kill_test_new(mf_kill_test **out, const mf_model *m, const mf_test *t,
                     int *reexpected);
void mf_kill_test_free(mf_kill_test *kt); /* NULL-safe */

/* The test (with expected observables that m shows). */
const mf_test *mf_kill_test_of(const mf_kill_test *kt);

/* Values the test holds (the original's graph), to bound the memory of
 * many. */
long mf_kill_test_size(const mf_kill_test *kt);

/* The notion a claim is for: potential kills too (auto: a definite one
 * preferred, looked for within twice the depth of the potential one), or
 * definite ones only. */
typedef enum { MF_KILL_AUTO, MF_KILL_POTENTIAL, MF_KILL_DEFINITE } mf_kill_want;

/* Does the test kill mutant mm (a model with m's variables) under the
 * rules of the engine's replay? Returns 1 with *out (the test cut after
 * the state where the kill shows; for a potential kill with the mutant's
 * observables in mobs, or mrefuses; caller frees) and *notion
 * (deterministic when both have one run along it); 0 when it does not
 * kill (or the search passed its limits). A claim, to be confirmed by the
 * referee (mf_engine_replay). */
int mf_kill_claim(mf_kill_test *kt, const mf_model *mm, mf_kill_want want,
                  mf_test **out, mf_notion *notion);

#endif
