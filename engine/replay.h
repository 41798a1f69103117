/* replay.h - the self-check by the simulator (worker-internal). The
 * replay itself, mf_engine_replay, is public (engine.h); here is what
 * the rest of the engine needs besides. */
#ifndef MF_REPLAY_H
#define MF_REPLAY_H

#include "engine.h"

/* The original's steps (initial states and successors, by state and
 * input) memoised for the replays of a batch, per thread: every kill is
 * replayed, and spread to the other mutants by replays along the same
 * paths of the original. While it lives, the replays of this thread on
 * original m use it (up to 32 MB). Never NULL; free it with
 * mf_replay_memo_free (NULL-safe) before another is made. */
typedef struct mf_replay_memo mf_replay_memo;
mf_replay_memo *mf_replay_memo_new(const mf_model *m);
void mf_replay_memo_free(mf_replay_memo *M);

/* An original run over t's inputs into t->expect: depth first, each
 * step's successors listed once, a bounded number of steps tried. 0, or
 * < 0 if the original has no run (or none found within the limit). */
int mf_replay_fill_expect(const mf_model *m, mf_test *t);

#endif
