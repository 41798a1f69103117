/* verify.h - trust but verify: the coordinator replays every kill a
 * worker reports before it is stored (docs/security.md, docs/killing.md).
 *
 * A kill is checked as the worker's engine checks it before reporting it:
 * mf_engine_replay of the test on the original and on the mutant (derived
 * here from the coordinator's own model and the mutant id), with the
 * notion the worker states, which must be one the campaign accepts. A
 * result refused here counts toward its worker's cut-off (farm/cutoff.h,
 * kept by the farm's serving loop). It does not touch the store or the
 * sockets (the campaign's kind of farm work, coordinator/campaign.c, acts
 * on the answers). */
#ifndef MF_VERIFY_H
#define MF_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "model.h"
#include "store.h"
#include "verdict.h"

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

/* Kills replayed so far (for logs and tests). */
long mf_verify_replayed(const mf_verify *v);

#endif
