/* verify.h - trust but verify: the coordinator replays every kill a
 * worker reports before it is stored, and keeps the tally of refused
 * results per worker (docs/security.md, docs/killing.md).
 *
 * A kill is checked as the worker's engine checks it before reporting it:
 * mf_engine_replay of the test on the original and on the mutant (derived
 * here from the coordinator's own model and the mutant id), with the
 * notion the worker states, which must be one the campaign accepts. A
 * worker whose results are refused MF_VERIFY_CUT_OFF times is cut off:
 * its id, and its CURVE key where there is one, are remembered, and the
 * coordinator ignores what they send. It does not touch the store or the
 * sockets (coordinator/server.c acts on the answers). */
#ifndef MF_VERIFY_H
#define MF_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "model.h"
#include "store.h"
#include "verdict.h"

/* Refused results after which a worker is cut off. */
#define MF_VERIFY_CUT_OFF 3

typedef struct mf_verify mf_verify;

/* A verifier of kills of mutants of m (which must outlive it) for a
 * campaign asking for notion `want`. Never NULL. */
mf_verify *mf_verify_new(const mf_model *m, mf_notion_req want);
void mf_verify_free(mf_verify *v); /* NULL-safe */

/* Replay every killed verdict among verdicts[0..n) (of mutants ids[i]).
 * The mutants are derived by enumerating the model's, only under the
 * operators the store (st, may be NULL: all) gives them in job `job`.
 * Returns 0 when each kill holds (or there is none); 1 when one does not,
 * with "mutant ID: why" in why[0..nwhy); the verdicts are not changed. */
int mf_verify_kills(mf_verify *v, mf_store *st, int64_t job, char *why,
                    size_t nwhy, const char *const *ids,
                    const mf_verdict *verdicts, int n);

/* Count a refused result of worker `id` (key: the Z85 CURVE key of its
 * connection, or NULL). Returns the worker's refusals so far; at
 * MF_VERIFY_CUT_OFF it is cut off from then on. */
int mf_verify_refused(mf_verify *v, const char *id, const char *key);

/* 1 if a worker with this id (or NULL) or this key (or NULL) is cut off:
 * its messages are to be ignored. NULL-safe (0). */
int mf_verify_is_cut(const mf_verify *v, const char *id, const char *key);

/* Kills replayed and refused so far (for logs and tests). */
void mf_verify_counts(const mf_verify *v, long *replayed, long *refused);

#endif
