/* rerun.c - nightly reruns (rerun.h, docs/nightly.md): the earlier
 * campaign a new one builds on, its stored tests read into the new model
 * and made right for it (rerun_replay.h: expected outputs checked on the
 * model, computed again where it no longer shows them), replayed on each
 * mutant while it is planned, and its verdicts carried over when the model
 * text and the options did not change, or, after an edit, where the edit
 * lies outside the mutant's cone (rerun_cone.h).
 *
 * A replayed kill is decided by the simulator on this campaign's model and
 * mutant and confirmed by mf_engine_replay, with the campaign's notion, so
 * it is right whatever changed. The SQL is the store's
 * (coordinator/store/reuse.c); this file decides which stored test kills
 * which mutant and keeps the counts. */
#include "rerun.h"

#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "langs.h"
#include "mf.h"
#include "rerun_cone.h"
#include "rerun_replay.h"

/* At most this many stored tests are replayed (the most killing first),
 * holding at most this many values of the original's states. */
#define MAX_TESTS 20000
#define MAX_VALUES (16L << 20)

typedef struct {
    mf_replay *rp; /* the test, ready to replay on the new model */
    int64_t id;    /* its row in the earlier campaign */
    int64_t *rows; /* by length d: the new campaign's row of the test cut
                      after state d, 0 none yet */
} stored_test;

struct mf_rerun {
    mf_store *st;
    const mf_model *m;
    mf_store_reuse stats;
    MF_VEC(stored_test) tests;
    long values; /* mf_replay_size of the tests kept */
    int loaded;  /* the earlier campaign's tests were read */
    int last;    /* the test that killed the last mutant, -1 none */
    int bound;
    mf_notion_req notion;
    int64_t suite; /* --augment: the imported suite's row, 0 none */
    mf_model *old; /* the earlier campaign's model, same options; NULL
                      when its verdicts cannot be carried across */
    mf_edit *edit; /* old against m */
};

/* ---- the stored tests --------------------------------------------------- */

/* One stored test: read into the model, made ready to replay on it
 * (expected outputs checked, computed anew where the model no longer shows
 * them), kept; or counted as skipped. Never fails: a test that does not
 * fit is only not replayed. */
static int load_test(const mf_store_test_row *row, void *ctx)
{
    mf_rerun *r = ctx;
    mf_test *t = NULL;
    mf_replay *rp = NULL;
    int partial = 0, reexpected = 0;
    if (row->length > r->bound || r->tests.n >= MAX_TESTS ||
        r->values >= MAX_VALUES ||
        mf_store_test_read(&t, r->m, row->length, row->inputs, row->expected,
                           row->allowed, &partial) < 0 ||
        mf_replay_new(&rp, r->m, t, &reexpected) < 0) {
        mf_test_free(t);
        r->stats.replay_skipped++;
        return 0;
    }
    mf_test_free(t);
    if (r->suite && reexpected) {
        /* A wrong test of the user's suite never kills. */
        mf_replay_free(rp);
        r->stats.replay_skipped++;
        return 0;
    }
    r->stats.reexpected += reexpected;
    r->values += mf_replay_size(rp);
    stored_test s = {rp, row->id,
                     mf_xcalloc((size_t)row->length + 1, sizeof(int64_t))};
    MF_VEC_PUSH(r->tests, s);
    r->stats.replay_tests++;
    return 0;
}

/* The earlier campaign's model, read back from the store as m was loaded,
 * compared with m, when the campaign had the same options (bound, notion,
 * operators, inputs, observables, the engine's limits): its verdicts are
 * answers to the same questions about the models' common part. A model
 * that no longer loads, or reads differently in this mutfarm, carries
 * nothing across. 0, or a store failure. */
static int open_edit(mf_rerun *r, const mf_rerun_opts *o)
{
    char *name = NULL, *text = NULL, *hash = NULL, *options = NULL;
    size_t len = 0;
    int rc = mf_store_basis_model(r->st, r->stats.basis, &name, &text, &len,
                                  &hash, &options);
    if (rc == MF_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    mf_model_opts none = {0};
    if (!strcmp(options, o->options) &&
        mf_model_load(&r->old, name, text, len,
                      o->model_opts ? o->model_opts : &none) == 0 &&
        !strcmp(r->old->hash, hash) && r->old->lang == r->m->lang)
        mf_edit_new(&r->edit, r->old, r->m);
    free(name);
    free(text);
    free(hash);
    free(options);
    return 0;
}

int mf_rerun_open(mf_rerun **out, mf_store *st, const mf_model *m,
                  const mf_rerun_opts *o)
{
    *out = NULL;
    mf_rerun *r = mf_xcalloc(1, sizeof *r);
    r->st = st;
    r->m = m;
    r->last = -1;
    r->bound = o->bound;
    r->notion = o->notion;
    r->stats.mode = o->fresh ? MF_REUSE_FRESH : MF_REUSE_NONE;
    if (o->augment) {
        int rc = mf_store_imported_find(st, o->augment, &r->suite,
                                        &r->stats.basis);
        if (rc < 0) {
            mf_rerun_free(r);
            return rc;
        }
        r->stats.mode = MF_REUSE_REPLAY;
    } else if (!o->fresh) {
        int carry = 0;
        int rc = mf_store_basis_find(st, &r->stats.basis, &carry, o->model_id,
                                     o->name, o->options);
        if (rc == 0)
            r->stats.mode = carry ? MF_REUSE_CARRY : MF_REUSE_REPLAY;
        else if (rc == MF_ENOTFOUND)
            rc = 0;
        if (rc == 0 && r->stats.mode == MF_REUSE_REPLAY)
            rc = open_edit(r, o);
        if (rc < 0) {
            mf_rerun_free(r);
            return rc;
        }
    }
    *out = r;
    return 0;
}

/* ---- planning ----------------------------------------------------------- */

/* 1 if stored test i kills mutant mm (confirmed by mf_engine_replay):
 * *killer is the test that shows it, with its notion. */
static int kills(mf_rerun *r, int i, const mf_model *mm, mf_notion_req want,
                 mf_test **killer, mf_notion *notion)
{
    return mf_replay_kill(r->tests.v[i].rp, mm, want, killer, notion) == 1;
}

int mf_rerun_mutant(mf_rerun *r, const mf_mutant *mu)
{
    if (mu->status != MF_MUT_OK || !r->stats.basis)
        return 0;
    mf_verdict_kind was = MF_V_ERROR;
    mf_notion how = MF_N_DEFINITE;
    int rc = mf_store_earlier_kind(r->st, r->stats.basis, mu->id, &was, &how);
    if (rc < 0)
        return rc;
    if (rc == 1 && r->stats.mode == MF_REUSE_CARRY && was != MF_V_ERROR)
        return 0; /* carried over by mf_rerun_finish */
    /* No stored test killed it on the earlier model: most likely none
     * does now, and trying them all is what costs. Its verdict still
     * holds where the edit lies outside its cone; else the workers
     * decide. */
    if (rc == 1 && (was == MF_V_EQUIVALENT || was == MF_V_SURVIVED)) {
        mf_carry_way way = r->edit ? mf_edit_carries(r->edit, mu)
                                   : MF_CARRY_NONE;
        if (way == MF_CARRY_NONE)
            return 0;
        rc = mf_store_plan_carry_cone(r->st, mu->id, r->stats.basis,
                                      mf_carry_way_text(way));
        if (rc == 1) {
            r->stats.carried++;
            r->stats.carried_cone++;
        }
        return rc < 0 ? rc : 0;
    }
    /* The tests are read when a mutant first needs them: an unchanged
     * model whose verdicts are all carried reads none. */
    if (!r->loaded) {
        r->loaded = 1;
        rc = r->suite ? mf_store_imported_each(r->st, r->suite, load_test, r)
                      : mf_store_tests_each(r->st, r->stats.basis, load_test,
                                            r);
        if (rc < 0)
            return rc;
    }
    if (r->tests.n == 0)
        return 0;
    mf_model *mm = NULL;
    if (mf_mutant_apply(&mm, r->m, mu) < 0)
        return 0; /* the workers will say what is wrong with it */
    mf_test *killer = NULL;
    mf_notion notion = MF_N_DEFINITE;
    int hit = -1;
    rc = 0;
    /* Under auto a definite kill is looked for after a potential one,
     * unless the mutant's kill was only potential before: then it most
     * likely is again, and the search would cost as much as the kill. */
    mf_notion_req want = r->notion;
    if (want == MF_REQ_AUTO && was == MF_V_KILLED && how == MF_N_POTENTIAL)
        want = MF_REQ_POTENTIAL;
    /* Mutants of one site come one after the other and often fall to the
     * same test: the last killer first. */
    if (r->last >= 0 && kills(r, r->last, mm, want, &killer, &notion))
        hit = r->last;
    for (int i = 0; hit < 0 && i < r->tests.n; i++)
        if (i != r->last && kills(r, i, mm, want, &killer, &notion))
            hit = i;
    /* One run each along the test is a deterministic kill to the
     * simulator; the engine names a kill deterministic only when both
     * models are structurally so, and else this one is definite (no pair
     * of runs shows the same observables): named as a fresh campaign
     * would. */
    if (hit >= 0 && notion == MF_N_DETERMINISTIC &&
        !(mf_model_structurally_det(r->m) && mf_model_structurally_det(mm)))
        notion = MF_N_DEFINITE;
    if (hit >= 0) {
        /* A test cut at the same state is the same row for every mutant
         * it kills: stored once. */
        int64_t *row = &r->tests.v[hit].rows[killer->length];
        rc = mf_store_plan_kill(r->st, mu->id, r->m, killer, notion,
                                r->stats.basis, r->tests.v[hit].id, row);
        if (rc == 0)
            r->stats.replay_killed++;
        r->last = hit;
    }
    mf_test_free(killer);
    mf_model_free(mm);
    return rc;
}

int mf_rerun_finish(mf_rerun *r)
{
    int rc = 0;
    if (r->stats.mode == MF_REUSE_CARRY)
        rc = mf_store_plan_carry(r->st, r->stats.basis, &r->stats.carried);
    if (rc == 0)
        rc = mf_store_plan_reuse(r->st, &r->stats);
    return rc;
}

const mf_store_reuse *mf_rerun_stats(const mf_rerun *r)
{
    return &r->stats;
}

void mf_rerun_free(mf_rerun *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->tests.n; i++) {
        mf_replay_free(r->tests.v[i].rp);
        free(r->tests.v[i].rows);
    }
    MF_VEC_FREE(r->tests);
    mf_edit_free(r->edit);
    mf_model_free(r->old);
    free(r);
}
