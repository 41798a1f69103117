/* store_fixtures.h - what test_store.c and test_store_views.c share: a
 * temporary store, a synthetic model planned into it, jobs leased and
 * results committed, one-value queries (static inline, so a test file that
 * uses only some of them compiles clean). */
#ifndef MF_STORE_FIXTURES_H
#define MF_STORE_FIXTURES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "engine.h"
#include "model.h"
#include "mutate.h"
#include "store.h"
#include "langs.h"
#include "smv.h"

/* ---- fixtures ----------------------------------------------------------- */

typedef struct {
    char dir[64];
    char path[128];
    mf_store *s;
    mf_config cfg;
    int64_t model, campaign;
} fx;

static inline int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/mf_store_XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    snprintf(f->path, sizeof f->path, "%s/farm.db", f->dir);
    mf_config_default(&f->cfg);
    *state = f;
    return 0;
}

static inline int teardown(void **state)
{
    fx *f = *state;
    char p[160];
    mf_store_close(f->s);
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s%s", f->path, sfx[i]);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/other.db", f->dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/garbage.db", f->dir);
    unlink(p);
    rmdir(f->dir);
    free(f);
    return 0;
}

static inline void ok(int rc)
{
    if (rc < 0)
        fail_msg("store: %d %s", rc, mf_err_msg());
}

/* Open the campaign of f->cfg's options, keyed as the coordinator keys it. */
static inline int camp_open(fx *f, mf_store_campaign *out, const char *mfv,
                     const char *z3v)
{
    mf_buf ops = {0}, options = {0};
    int rc = mf_config_campaign_key(&f->cfg, &ops, &options);
    if (rc == 0) {
        mf_store_campaign_key key = {f->cfg.bound,
                                     mf_config_notion_name(f->cfg.notion),
                                     ops.data, options.data};
        rc = mf_store_campaign_open(f->s, out, f->model, &key, mfv, z3v);
    }
    mf_buf_free(&ops);
    mf_buf_free(&options);
    return rc;
}

static inline void open_store(fx *f)
{
    mf_store_close(f->s);
    f->s = NULL;
    ok(mf_store_open(&f->s, f->path, 0, 2000));
}

/* A mutant as the front-end would yield it, with a 16-hex id from n. */
static inline mf_mutant synth(int n, int item, mf_mut_status status)
{
    static char site[64], desc[96];
    mf_mutant mu;
    memset(&mu, 0, sizeof mu);
    mu.lang = &mf_lang_smv;
    mu.op = (mf_mop)(n % MF_MOP__COUNT);
    mu.item = item;
    snprintf(site, sizeof site, "next(x%d)/b%d.g", item, n % 5);
    snprintf(desc, sizeof desc, "synthetic mutant %d", n);
    mu.site = site;
    mu.desc = desc;
    mu.line = 10 + item;
    mu.col = 1 + n % 40;
    snprintf(mu.id, sizeof mu.id, "%016x", (unsigned)n * 2654435761u);
    mu.status = status;
    mu.dup_of = status == MF_MUT_DUPLICATE ? "original" : NULL;
    mu.why = status == MF_MUT_STILLBORN ? "type error" : NULL;
    return mu;
}

static inline void put_model(fx *f)
{
    ok(mf_store_model_put(f->s, &f->model,
                          "0000000000000000000000000000000000000000000000000"
                          "000000000000000",
                          "synthetic.smv", "MODULE main\n", 12));
}

/* A campaign of n ok mutants over `items` model items, plus the given
 * number of duplicates and stillborn ones. */
static inline void plan(fx *f, int n, int items, int dups, int still)
{
    mf_store_campaign c;
    put_model(f);
    ok(camp_open(f, &c, "0.1.0", NULL));
    f->campaign = c.id;
    ok(mf_store_plan_begin(f->s, c.id));
    int k = 0;
    for (int i = 0; i < n; i++, k++) {
        mf_mutant mu = synth(k, k % items, MF_MUT_OK);
        ok(mf_store_plan_add(f->s, &mu));
    }
    for (int i = 0; i < dups; i++, k++) {
        mf_mutant mu = synth(k, 0, MF_MUT_DUPLICATE);
        ok(mf_store_plan_add(f->s, &mu));
    }
    for (int i = 0; i < still; i++, k++) {
        mf_mutant mu = synth(k, 0, MF_MUT_STILLBORN);
        ok(mf_store_plan_add(f->s, &mu));
    }
    ok(mf_store_plan_end(f->s, 1));
}

/* A job's mutant ids (jobs stay small). */
typedef struct {
    char ids[256][17];
    int items[256];
    int n;
} idlist;

static inline int collect(const mf_store_mutant *m, void *ctx)
{
    idlist *l = ctx;
    if (l->n >= 256)
        return 1;
    snprintf(l->ids[l->n], 17, "%s", m->id);
    l->items[l->n++] = m->item;
    return 0;
}

static inline void job_ids(fx *f, int64_t job, idlist *l)
{
    l->n = 0;
    assert_int_equal(mf_store_job_mutants(f->s, job, collect, l), 0);
}

/* A test without model: length 1, two slots, one observable. */
static inline mf_test *raw_test(int seed)
{
    mf_test *t = calloc(1, sizeof *t);
    t->length = 1;
    t->nslots = 2;
    t->nobs = 1;
    t->inputs = calloc(4, sizeof *t->inputs);
    t->expect = calloc(2, sizeof *t->expect);
    t->inputs[2] = seed;
    t->expect[1] = seed % 3;
    t->mrefuses = -1;
    return t;
}

/* Every mutant of the job gets `kind` (killed ones a test by seed). */
static inline int commit_all(fx *f, mf_store_commit_info *info, const mf_store_job *j,
                      int attempt, mf_verdict_kind kind)
{
    idlist l;
    job_ids(f, j->id, &l);
    mf_verdict *v = calloc((size_t)l.n + 1, sizeof *v);
    mf_store_verdict *sv = calloc((size_t)l.n + 1, sizeof *sv);
    for (int i = 0; i < l.n; i++) {
        v[i].kind = kind;
        v[i].bound = 7;
        v[i].secs = 0.25;
        if (kind == MF_V_KILLED)
            v[i].test = raw_test(i);
        if (kind == MF_V_EQUIVALENT)
            snprintf(v[i].method, sizeof v[i].method, "lock-step");
        if (kind == MF_V_UNKNOWN)
            snprintf(v[i].reason, sizeof v[i].reason, "timeout");
        if (kind == MF_V_SURVIVED && i % 2)
            v[i].kill_len_beyond = 20 + i; /* killable past the bound 7 */
        sv[i].mutant_id = l.ids[i];
        sv[i].v = &v[i];
    }
    mf_store_result r = {j->id, attempt, "w1", sv, l.n, NULL, 0, NULL};
    int rc = mf_store_commit(f->s, info, &r);
    for (int i = 0; i < l.n; i++)
        mf_verdict_clear(&v[i]);
    free(v);
    free(sv);
    return rc;
}

/* The next job of the campaign, at most max mutants, leased to worker. */
static inline void lease_next(fx *f, mf_store_job *j, int max, const char *worker,
                       int64_t deadline_ms)
{
    ok(mf_store_job_next(f->s, j, f->campaign, max));
    ok(mf_store_job_lease(f->s, j, j->id, worker, deadline_ms));
}

/* Take the next job, lease it to w1 and commit `kind` for all of it. */
static inline void decide_next(fx *f, int max, mf_verdict_kind kind)
{
    mf_store_job j;
    mf_store_commit_info info;
    lease_next(f, &j, max, "w1", mf_store_now_ms() + 60000);
    ok(commit_all(f, &info, &j, j.attempts, kind));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
}

static inline int64_t query_int(fx *f, const char *sql)
{
    sqlite3_stmt *st;
    int64_t v = -1;
    assert_int_equal(sqlite3_prepare_v2(mf_store_db(f->s), sql, -1, &st, NULL),
                     SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_type(st, 0) == SQLITE_NULL
                ? -2
                : sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static inline double query_double(fx *f, const char *sql)
{
    sqlite3_stmt *st;
    double v = -1;
    assert_int_equal(sqlite3_prepare_v2(mf_store_db(f->s), sql, -1, &st, NULL),
                     SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
}

#endif
