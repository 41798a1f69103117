/* rerun_replay.h - does a given test kill a mutant? The answer for one
 * test and many mutants, for the nightly rerun (coordinator/rerun.h,
 * docs/nightly.md): the simulator's claim (model/kill_replay.h, the one
 * test x mutant replay, under the rules of the engine's replay),
 * confirmed by mf_engine_replay, the referee every kill of the farm goes
 * through.
 *
 * It does not read or write the store. */
#ifndef MF_RERUN_REPLAY_H
#define MF_RERUN_REPLAY_H

#include "engine.h"
#include "model.h"
#include "verdict.h"

typedef struct mf_replay mf_replay;

/* The test t of model m made ready to replay (mf_kill_test_new: t
 * copied, m outlives *out; its expected observables re-expected where m
 * no longer shows them, *reexpected = 1). 0 and *out, or its code
 * (MF_EREFUSED, MF_ELIMIT) and *out NULL. */
int mf_replay_new(mf_replay **out, const mf_model *m, const mf_test *t,
                  int *reexpected);
void mf_replay_free(mf_replay *r); /* NULL-safe */

/* The test (with expected observables that m shows), for storing. */
const mf_test *mf_replay_test(const mf_replay *r);

/* Values the replay holds, to bound the memory of many. */
long mf_replay_size(const mf_replay *r);

/* Does the test kill mutant mm? mf_kill_claim with the campaign's notion
 * (MF_REQ_DEFINITE: definite kills only; MF_REQ_POTENTIAL, MF_REQ_AUTO:
 * potential ones too, auto preferring a definite one), the claim
 * confirmed by mf_engine_replay: 1 with *out (caller frees) and *notion,
 * or 0. */
int mf_replay_kill(mf_replay *r, const mf_model *mm, mf_notion_req want,
                   mf_test **out, mf_notion *notion);

#endif
