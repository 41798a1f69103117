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

/* The test t (inputs and expected observables of model m; t is copied,
 * m must outlive *out) made ready to replay: the original's graph built,
 * and t's expected observables checked on it. Where no run of m shows
 * them, they are replaced by those of one run of m (*reexpected = 1).
 * Returns 0 and *out; MF_EREFUSED when m has no run on t's inputs;
 * MF_ELIMIT past the limits on states (the test is not replayed); *out
 * NULL then. */
int mf_replay_new(mf_replay **out, const mf_model *m, const mf_test *t,
                  int *reexpected);
void mf_replay_free(mf_replay *r); /* NULL-safe */

/* The test (with expected observables that m shows), for storing. */
const mf_test *mf_replay_test(const mf_replay *r);

/* Values the replay holds (the original's graph), to bound the memory of
 * many. */
long mf_replay_size(const mf_replay *r);

/* Does the test kill mutant mm (a model with m's variables)? `want` is the
 * campaign's notion: MF_REQ_DEFINITE accepts definite kills only,
 * MF_REQ_POTENTIAL and MF_REQ_AUTO potential ones too (auto prefers a
 * definite one). Returns 1 with *out (the test cut after the state where
 * the kill shows; for a potential kill with the mutant's observables in
 * mobs, or mrefuses; caller frees) and *notion (deterministic when both
 * have one run along it); 0 when it does not kill (or the search passed
 * its limits). Not yet confirmed: see mf_engine_replay. */
int mf_replay_kill(mf_replay *r, const mf_model *mm, mf_notion_req want,
                   mf_test **out, mf_notion *notion);

#endif
