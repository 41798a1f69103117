/* kill_replay.h - what one stored test does to one mutant, by the
 * simulator alone (no solver): no kill, or a kill with its notion
 * (deterministic, potential, definite), the step by which it kills and
 * the step the mutant refuses (docs/minimisation.md, "The kill matrix").
 * The kill matrix (coordinator/report/matrix.c) and the farm's matrix jobs
 * (worker/matrix_job.c) both replay through it.
 *
 * It neither reads nor writes a store and knows nothing of the farm; the
 * definitions it applies are explore.h's, on the test's one input
 * sequence. */
#ifndef MF_KILL_REPLAY_H
#define MF_KILL_REPLAY_H

#include "model.h"
#include "verdict.h"

/* The original's side of the replays: its steps, memoised by (input,
 * state) for every test and mutant replayed with it. One per thread; `m`
 * must outlive it. */
typedef struct mf_kill_orig mf_kill_orig;

int mf_kill_orig_new(mf_kill_orig **out, const mf_model *m);
void mf_kill_orig_free(mf_kill_orig *o); /* NULL-safe */

/* 0 if the original shows t's expected observables on some run over its
 * inputs, MF_ERROR otherwise (naming the step), MF_ELIMIT past the
 * replay limits. */
int mf_kill_test_check(mf_kill_orig *o, const mf_test *t);

/* A mutant as the replay takes it: its model, how its steps relate to the
 * original's (mf_explore_step_delta: where it steps as the original does,
 * the original's memoised steps serve), and its own steps memoised across
 * the tests replayed on it. */
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

#endif
