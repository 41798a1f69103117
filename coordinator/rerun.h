/* rerun.h - nightly reruns: what a new campaign takes over from the
 * earlier finished campaign of its model, before any job is cut
 * (docs/nightly.md).
 *
 * Same model text and options as an earlier finished campaign: its
 * verdicts, tests and kills are carried over as they are (the same model
 * and the same options give the same verdicts), and nothing of it goes to
 * a worker. Otherwise (the model or the options changed) the earlier
 * campaign's stored tests are read into the new model by variable names,
 * their expected outputs checked on the new model (and computed again
 * where it no longer shows them), and replayed on each mutant
 * (coordinator/rerun_replay.h): a test that kills it, with the campaign's
 * notion, gives it its `killed` verdict there and then; only the mutants
 * no test kills go to the workers. An equivalence or a survival is
 * carried across the change only where the edit lies outside the
 * mutant's cone (rerun_cone.h: same options, the earlier model read back
 * from the store), with origin 'carried-cone'. With --augment NAME the
 * tests replayed are those of a suite the user imported (its wrong tests
 * left out), so that only what the suite leaves alive goes to the
 * workers (docs/suites.md).
 *
 * The coordinator's planning (plan.c) calls it: mf_rerun_open before
 * the plan, mf_rerun_mutant for each mutant it adds, mf_rerun_finish
 * before it commits the plan. It does not plan mutants, cut jobs or talk
 * to workers. */
#ifndef MF_RERUN_H
#define MF_RERUN_H

#include <stdint.h>

#include "engine.h"
#include "model.h"
#include "mutate.h"
#include "store.h"

typedef struct mf_rerun mf_rerun;

typedef struct {
    int fresh;            /* --fresh: take nothing over */
    int bound;            /* the campaign's bound: longer tests are skipped */
    mf_notion_req notion; /* the campaign's: which kills count */
    int64_t model_id;     /* the model's row in the store */
    const char *name;     /* its display name (the file's base name) */
    const char *options;  /* the campaign's options key (canonical JSON) */
    const char *augment;  /* --augment NAME: the tests replayed are those
                             of this imported suite (docs/suites.md), not
                             an earlier campaign's; NULL none */
    const mf_model_opts *model_opts; /* how m was loaded (--inputs,
                                        --observe): the earlier model is
                                        read back the same way */
} mf_rerun_opts;

/* Find the earlier campaign the new one builds on (mf_store_basis_find)
 * for model m (which must outlive *out); its tests are read into m when a
 * mutant first needs them. Call before mf_store_plan_begin. Returns 0 and
 * *out (mode MF_REUSE_FRESH or _NONE when there is nothing to take over),
 * or a store failure; *out is NULL then. */
int mf_rerun_open(mf_rerun **out, mf_store *st, const mf_model *m,
                  const mf_rerun_opts *o);

/* Inside the plan, right after mutant mu was added: a mutant to check
 * that will not be carried gets the stored tests replayed on it, and a
 * `killed` verdict (mf_store_plan_kill) from the first that kills it.
 * Returns 0 or a store failure (then end the plan without committing). */
int mf_rerun_mutant(mf_rerun *r, const mf_mutant *mu);

/* Inside the plan, after every mutant: carry the earlier verdicts over
 * (same model and options) and record the counts in the campaign
 * (mf_store_plan_reuse). 0 or a store failure. */
int mf_rerun_finish(mf_rerun *r);

/* The counts so far (complete after mf_rerun_finish). */
const mf_store_reuse *mf_rerun_stats(const mf_rerun *r);

void mf_rerun_free(mf_rerun *r); /* NULL-safe */

#endif
