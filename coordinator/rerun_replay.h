/* rerun_replay.h - does a given test kill a mutant? The simulator's answer for
 * one test and many mutants, for the nightly rerun (coordinator/rerun.h,
 * docs/nightly.md).
 *
 * A test's inputs fix, for the original and for a mutant, a layered graph
 * of states: layer k holds every state the model can be in after the
 * inputs of states 0..k, each with its successors in layer k + 1 (no
 * successor: it refuses). The original's graph is built once per test and
 * kept; each mutant's is built when it is checked. A kill is then a search
 * over the two graphs, with the notions of docs/killing.md:
 *   definite: no pair of runs (original, mutant) shows the same
 *     observables all along (a refusal by both is the same behaviour);
 *   potential: some run of the mutant shows observables (or refuses where)
 *     no run of the original does.
 * Deterministic models are the case of one state per layer. What this
 * finds is a claim: the caller has it confirmed by mf_engine_replay, the
 * referee every kill of the farm goes through.
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
