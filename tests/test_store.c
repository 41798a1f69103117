/* test_store.c - the SQLite campaign store (coordinator/store/store.h): schema
 * migrations, planning and jobs, resume, idempotent commits, quarantine,
 * the views users query, flat memory on a large campaign, and failures
 * that leave the file as it was. Real SQLite files in a temporary
 * directory. */
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

static int setup(void **state)
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

static int teardown(void **state)
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

static void ok(int rc)
{
    if (rc < 0)
        fail_msg("store: %d %s", rc, mf_err_msg());
}

/* Open the campaign of f->cfg's options, keyed as the coordinator keys it. */
static int camp_open(fx *f, mf_store_campaign *out, const char *mfv,
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

static void open_store(fx *f)
{
    mf_store_close(f->s);
    f->s = NULL;
    ok(mf_store_open(&f->s, f->path, 0, 2000));
}

/* A mutant as the front-end would yield it, with a 16-hex id from n. */
static mf_mutant synth(int n, int item, mf_mut_status status)
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

static void put_model(fx *f)
{
    ok(mf_store_model_put(f->s, &f->model,
                          "0000000000000000000000000000000000000000000000000"
                          "000000000000000",
                          "synthetic.smv", "MODULE main\n", 12));
}

/* A campaign of n ok mutants over `items` model items, plus the given
 * number of duplicates and stillborn ones. */
static void plan(fx *f, int n, int items, int dups, int still)
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

static int collect(const mf_store_mutant *m, void *ctx)
{
    idlist *l = ctx;
    if (l->n >= 256)
        return 1;
    snprintf(l->ids[l->n], 17, "%s", m->id);
    l->items[l->n++] = m->item;
    return 0;
}

static void job_ids(fx *f, int64_t job, idlist *l)
{
    l->n = 0;
    assert_int_equal(mf_store_job_mutants(f->s, job, collect, l), 0);
}

/* A test without model: length 1, two slots, one observable. */
static mf_test *raw_test(int seed)
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
static int commit_all(fx *f, mf_store_commit_info *info, const mf_store_job *j,
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
static void lease_next(fx *f, mf_store_job *j, int max, const char *worker,
                       int64_t deadline_ms)
{
    ok(mf_store_job_next(f->s, j, f->campaign, max));
    ok(mf_store_job_lease(f->s, j, j->id, worker, deadline_ms));
}

/* Take the next job, lease it to w1 and commit `kind` for all of it. */
static void decide_next(fx *f, int max, mf_verdict_kind kind)
{
    mf_store_job j;
    mf_store_commit_info info;
    lease_next(f, &j, max, "w1", mf_store_now_ms() + 60000);
    ok(commit_all(f, &info, &j, j.attempts, kind));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
}

static int64_t query_int(fx *f, const char *sql)
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

static double query_double(fx *f, const char *sql)
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

/* ---- schema ------------------------------------------------------------- */

static void test_store__migrates_empty_file_and_reopens(void **state)
{
    fx *f = *state;
    int v = -1;
    open_store(f);
    ok(mf_store_schema_version(f->s, &v));
    assert_int_equal(v, mf_store_schema_latest());
    assert_true(v >= 1);
    assert_int_equal(query_int(f, "SELECT count(*) FROM sqlite_master "
                                  "WHERE name = 'mutant_verdicts'"),
                     1);
    put_model(f);
    open_store(f); /* reopening migrates nothing and keeps the data */
    ok(mf_store_schema_version(f->s, &v));
    assert_int_equal(v, mf_store_schema_latest());
    assert_int_equal(query_int(f, "SELECT count(*) FROM models"), 1);
    assert_int_equal(query_int(f, "PRAGMA foreign_keys"), 1);
    ok(mf_store_integrity(f->s));
    mf_store *ro = NULL;
    ok(mf_store_open(&ro, f->path, MF_STORE_READONLY, 100));
    mf_store_close(ro);
}

/* How many OpenEphemeral opcodes (temporary b-trees) SQLite compiles sql
 * into, on the store's own connection. */
static int ephemeral_tables(fx *f, const char *sql)
{
    char x[600];
    sqlite3_stmt *st;
    int n = 0;
    snprintf(x, sizeof x, "EXPLAIN %s", sql);
    assert_int_equal(sqlite3_prepare_v2(mf_store_db(f->s), x, -1, &st, NULL),
                     SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW)
        n += !strcmp((const char *)sqlite3_column_text(st, 1),
                     "OpenEphemeral");
    sqlite3_finalize(st);
    return n;
}

/* Every mutant planned, job cut and result stored writes a checked column
 * of these tables; a CHECK written as an IN list of three or more values
 * costs a temporary b-tree per row (schema/007_check_comparisons.sql). */
static void test_store__checked_writes_build_no_temporary_tables(
    void **state)
{
    fx *f = *state;
    open_store(f);
    static const char *const writes[] = {
        "INSERT INTO mutants(campaign_id, mutant_id, operator, item, site, "
        "line, col, description, status) "
        "VALUES (1, 'm', 'op', 0, 's', 1, 1, 'd', 'ok')",
        "INSERT INTO jobs(campaign_id, item, nmut, state, created_at) "
        "VALUES (1, 0, 1, 'leased', 0)",
        "UPDATE jobs SET state = 'done' WHERE id = 1",
        "INSERT INTO verdicts(mutant, campaign_id, kind, notion, created_at) "
        "VALUES (1, 1, 'killed', 'definite', 0)",
        "INSERT INTO kills(test_id, mutant, campaign_id, source, notion) "
        "VALUES (1, 1, 1, 'verdict', 'potential')",
    };
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++)
        assert_int_equal(ephemeral_tables(f, writes[i]), 0);
    /* The constraints still hold: a state outside the set is refused. */
    sqlite3 *db = mf_store_db(f->s);
    assert_int_not_equal(
        sqlite3_exec(db,
                     "INSERT INTO jobs(campaign_id, item, nmut, state, "
                     "created_at) VALUES (1, 0, 1, 'lost', 0)",
                     NULL, NULL, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_extended_errcode(db), SQLITE_CONSTRAINT_CHECK);
    ok(mf_store_integrity(f->s));
    /* Reopened, the connection reads the same constraints. */
    open_store(f);
    assert_int_equal(ephemeral_tables(f, writes[2]), 0);
}

/* The query plan of sql as one string, rows joined by "; ". */
static void query_plan(fx *f, const char *sql, char *out, size_t n)
{
    char x[600];
    sqlite3_stmt *st;
    snprintf(x, sizeof x, "EXPLAIN QUERY PLAN %s", sql);
    assert_int_equal(sqlite3_prepare_v2(mf_store_db(f->s), x, -1, &st, NULL),
                     SQLITE_OK);
    out[0] = '\0';
    while (sqlite3_step(st) == SQLITE_ROW) {
        size_t at = strlen(out);
        snprintf(out + at, n - at, "%s; ", sqlite3_column_text(st, 3));
    }
    sqlite3_finalize(st);
}

/* A planned mutant enters mutants_by_job only when it is cut into a job
 * (schema/008_job_index_partial.sql), and every read by job still goes
 * through that index. */
static void test_store__job_index_holds_only_mutants_in_jobs(void **state)
{
    fx *f = *state;
    char p[512];
    open_store(f);
    assert_int_equal(query_int(f, "SELECT partial FROM "
                                  "pragma_index_list('mutants') "
                                  "WHERE name = 'mutants_by_job'"),
                     1);
    static const char *const by_job[] = {
        "SELECT id, mutant_id FROM mutants WHERE job_id = 1 ORDER BY id",
        "SELECT id FROM mutants WHERE job_id = 1 ORDER BY id LIMIT 1 "
        "OFFSET 2",
        "UPDATE mutants SET job_id = 2 WHERE job_id = 1 AND id >= 3",
        "SELECT mutant_id, operator, site, item, line, col FROM mutants "
        "WHERE job_id = 1 ORDER BY id",
    };
    for (size_t i = 0; i < sizeof by_job / sizeof *by_job; i++) {
        query_plan(f, by_job[i], p, sizeof p);
        if (!strstr(p, "INDEX mutants_by_job (job_id=?"))
            fail_msg("%s: %s", by_job[i], p);
    }
}

static void test_store__refuses_foreign_newer_and_garbage_files(void **state)
{
    fx *f = *state;
    char p[160];
    mf_store *s = NULL;
    sqlite3 *db;

    snprintf(p, sizeof p, "%s/other.db", f->dir);
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL);
    sqlite3_close(db);
    assert_int_equal(mf_store_open(&s, p, 0, 100), MF_EIO);
    assert_null(s);
    assert_non_null(strstr(mf_err_msg(), "not a mutfarm store"));

    snprintf(p, sizeof p, "%s/garbage.db", f->dir);
    FILE *g = fopen(p, "w");
    for (int i = 0; i < 512; i++)
        fputs("garbage!", g);
    fclose(g);
    assert_true(mf_store_open(&s, p, 0, 100) < 0);
    assert_null(s);
    assert_non_null(strstr(mf_err_msg(), "garbage.db"));

    open_store(f);
    sqlite3_exec(mf_store_db(f->s), "PRAGMA user_version = 999", NULL, NULL,
                 NULL);
    mf_store_close(f->s);
    f->s = NULL;
    assert_int_equal(mf_store_open(&f->s, f->path, 0, 100), MF_EIO);
    assert_non_null(strstr(mf_err_msg(), "newer mutfarm"));

    assert_true(mf_store_open(&s, "/nonexistent/dir/x.db", 0, 100) < 0);
    assert_non_null(strstr(mf_err_msg(), "/nonexistent/dir/x.db"));
}

/* ---- campaigns, planning, jobs ------------------------------------------ */

static void test_store__campaign_resumes_with_same_options_only(void **state)
{
    fx *f = *state;
    mf_store_campaign a, b, c;
    open_store(f);
    put_model(f);
    snprintf(f->cfg.operators, sizeof f->cfg.operators, "negate,rel-op");
    ok(camp_open(f, &a, "0.1.0", NULL));
    assert_int_equal(a.resumed, 0);
    assert_int_equal(a.state, MF_CAMPAIGN_PLANNING);
    /* Same operators in another order and spacing: the same campaign. */
    snprintf(f->cfg.operators, sizeof f->cfg.operators, "rel-op, negate");
    ok(camp_open(f, &b, "0.1.0", NULL));
    assert_int_equal(b.resumed, 1);
    assert_int_equal(b.id, a.id);
    f->cfg.bound = 5;
    ok(camp_open(f, &c, "0.1.0", NULL));
    assert_int_equal(c.resumed, 0);
    assert_true(c.id != a.id);

    mf_store_campaign_info info;
    ok(mf_store_campaign_get(f->s, &info, a.id));
    assert_string_equal(info.model, "synthetic.smv");
    assert_non_null(strstr(info.options, "\"operators\":\"negate,rel-op\""));
    ok(mf_store_campaign_versions(f->s, a.id, "9.9", "4.12.2"));
    ok(mf_store_campaign_get(f->s, &info, a.id));
    assert_string_equal(info.mutfarm_version, "0.1.0"); /* kept */
    assert_string_equal(info.z3_version, "4.12.2");
    int64_t latest;
    ok(mf_store_campaign_latest(f->s, &latest));
    assert_int_equal(latest, c.id);
}

static void test_store__plan_rollback_leaves_nothing(void **state)
{
    fx *f = *state;
    mf_store_campaign c;
    open_store(f);
    put_model(f);
    ok(camp_open(f, &c, NULL, NULL));
    ok(mf_store_plan_begin(f->s, c.id));
    for (int i = 0; i < 10; i++) {
        mf_mutant mu = synth(i, i, MF_MUT_OK);
        ok(mf_store_plan_add(f->s, &mu));
    }
    mf_mutant twin = synth(3, 3, MF_MUT_OK);
    assert_int_equal(mf_store_plan_add(f->s, &twin), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "twice"));
    /* Other writes are refused while the plan is open. */
    int64_t id;
    assert_int_equal(mf_store_model_put(f->s, &id, "h", "n", "t", 1), MF_ERROR);
    ok(mf_store_plan_end(f->s, 0));
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutants"), 0);
    mf_store_campaign again;
    ok(camp_open(f, &again, NULL, NULL));
    assert_int_equal(again.id, c.id);
    assert_int_equal(again.state, MF_CAMPAIGN_PLANNING); /* plan it again */
}

static void test_store__jobs_group_one_item_and_split_to_size(void **state)
{
    fx *f = *state;
    mf_store_job j, k;
    idlist l;
    open_store(f);
    plan(f, 100, 4, 3, 2);
    ok(mf_store_job_next(f->s, &j, f->campaign, 10));
    assert_int_equal(j.nmut, 10);
    assert_int_equal(j.state, MF_JOB_PENDING);
    job_ids(f, j.id, &l);
    assert_int_equal(l.n, 10);
    for (int i = 0; i < l.n; i++)
        assert_int_equal(l.items[i], j.item);
    /* Not leased yet: the same job again, cut to a smaller size. */
    ok(mf_store_job_next(f->s, &k, f->campaign, 4));
    assert_int_equal(k.id, j.id);
    assert_int_equal(k.nmut, 4);
    ok(mf_store_job_lease(f->s, &k, k.id, "w1", mf_store_now_ms() + 1000));
    assert_int_equal(k.attempts, 1);
    assert_string_equal(k.worker, "w1");
    assert_int_equal(mf_store_job_lease(f->s, NULL, k.id, "w2", 0), MF_ERROR);
    /* The split-off rest is the next pending job. */
    ok(mf_store_job_next(f->s, &j, f->campaign, 64));
    assert_int_equal(j.nmut, 6);
    assert_int_equal(j.item, k.item);

    /* Hand out everything: every ok mutant ends in exactly one job. */
    int jobs = 1, leased = 4;
    for (;;) {
        int rc = mf_store_job_take(f->s, &j, f->campaign, 7, "w2", 5);
        if (rc == MF_ENOTFOUND)
            break;
        ok(rc);
        assert_int_equal(j.state, MF_JOB_LEASED);
        assert_int_equal(j.attempts, 1);
        assert_string_equal(j.worker, "w2");
        assert_int_equal(j.deadline_ms, 5);
        leased += j.nmut;
        jobs++;
    }
    assert_int_equal(leased, 100);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutants "
                                  "WHERE job_id IS NOT NULL"),
                     100);
    assert_int_equal(query_int(f, "SELECT sum(nmut) FROM jobs"), 100);
    assert_int_equal(query_int(f, "SELECT count(*) FROM jobs j WHERE nmut <> "
                                  "(SELECT count(*) FROM mutants m "
                                  "WHERE m.job_id = j.id)"),
                     0);
    assert_int_equal(query_int(f, "SELECT count(*) FROM jobs"), jobs);
    mf_store_counts c;
    ok(mf_store_counts_get(f->s, &c, f->campaign));
    assert_int_equal(c.total, 100);
    assert_int_equal(c.duplicate, 3);
    assert_int_equal(c.stillborn, 2);
    assert_int_equal(c.unplanned, 0);
    assert_int_equal(c.jobs_leased, jobs);
    ok(mf_store_integrity(f->s));
}

static void test_store__resume_returns_leased_jobs_to_pending(void **state)
{
    fx *f = *state;
    mf_store_job a, b;
    mf_store_campaign c;
    open_store(f);
    plan(f, 30, 3, 0, 0);
    lease_next(f, &a, 5, "w1", mf_store_now_ms() + 60000);
    lease_next(f, &b, 5, "w2", mf_store_now_ms() + 60000);
    decide_next(f, 5, MF_V_SURVIVED);

    open_store(f); /* the coordinator died and restarts */
    ok(camp_open(f, &c, "0.1.0", NULL));
    assert_int_equal(c.resumed, 1);
    assert_int_equal(c.id, f->campaign);
    assert_int_equal(c.state, MF_CAMPAIGN_RUNNING);
    assert_int_equal(c.requeued, 2);
    ok(mf_store_job_get(f->s, &a, a.id));
    assert_int_equal(a.state, MF_JOB_PENDING);
    assert_int_equal(a.attempts, 1); /* kept: poison jobs still end */
    assert_string_equal(a.worker, "");
    mf_store_counts n;
    ok(mf_store_counts_get(f->s, &n, f->campaign));
    assert_int_equal(n.survived, 5); /* committed work is kept */
    /* Survivors keep their kill length past the bound where known. */
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts WHERE "
                                  "kill_len_beyond > bound"),
                     2);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts WHERE "
                                  "kill_len_beyond IS NULL"),
                     3);
    assert_int_equal(n.jobs_done, 1);
    assert_int_equal(n.jobs_pending, 2);
    /* The requeued job is handed out first, with a new attempt. */
    mf_store_job next;
    ok(mf_store_job_next(f->s, &next, f->campaign, 5));
    assert_int_equal(next.id, a.id);
    ok(mf_store_job_lease(f->s, &next, next.id, "w3", 0));
    assert_int_equal(next.attempts, 2);
}

/* ---- commits ------------------------------------------------------------ */

static void test_store__commit_is_idempotent(void **state)
{
    fx *f = *state;
    mf_store_job j;
    mf_store_commit_info info;
    mf_store_counts c;
    open_store(f);
    plan(f, 20, 2, 0, 0);
    lease_next(f, &j, 10, "w1", mf_store_now_ms() + 1000);
    ok(commit_all(f, &info, &j, 1, MF_V_KILLED));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    assert_int_equal(info.counts[MF_V_KILLED], 10);
    assert_true(info.new_tests >= 1);
    ok(mf_store_counts_get(f->s, &c, f->campaign));
    assert_int_equal(c.killed, 10);
    int64_t tests = query_int(f, "SELECT count(*) FROM tests");
    int64_t kills = query_int(f, "SELECT count(*) FROM kills");

    /* A late duplicate of the same result is ignored. */
    ok(commit_all(f, &info, &j, 1, MF_V_SURVIVED));
    assert_int_equal(info.outcome, MF_COMMIT_DUPLICATE);
    assert_int_equal(info.counts[MF_V_SURVIVED], 0);
    ok(mf_store_counts_get(f->s, &c, f->campaign));
    assert_int_equal(c.killed, 10);
    assert_int_equal(c.survived, 0);
    assert_int_equal(query_int(f, "SELECT count(*) FROM tests"), tests);
    assert_int_equal(query_int(f, "SELECT count(*) FROM kills"), kills);

    /* Unknown job. */
    mf_store_job ghost = j;
    ghost.id = 999999;
    ok(commit_all(f, &info, &ghost, 1, MF_V_SURVIVED));
    assert_int_equal(info.outcome, MF_COMMIT_UNKNOWN_JOB);
}

static void test_store__late_result_wins_over_a_re_lease(void **state)
{
    fx *f = *state;
    mf_store_job j;
    mf_store_commit_info info;
    int q = -1;
    open_store(f);
    plan(f, 8, 1, 0, 0);
    lease_next(f, &j, 8, "w1", mf_store_now_ms() + 1000);
    /* w1 is declared dead; the job goes to w2 as attempt 2. */
    ok(mf_store_job_release(f->s, j.id, 1, 3, "worker w1 died", &q));
    assert_int_equal(q, 0);
    ok(mf_store_job_lease(f->s, &j, j.id, "w2", mf_store_now_ms() + 1000));
    assert_int_equal(j.attempts, 2);
    /* Releasing with the old attempt does nothing. */
    ok(mf_store_job_release(f->s, j.id, 1, 3, "late", &q));
    ok(mf_store_job_get(f->s, &j, j.id));
    assert_int_equal(j.state, MF_JOB_LEASED);
    /* An attempt the job never had is stale. */
    ok(commit_all(f, &info, &j, 3, MF_V_SURVIVED));
    assert_int_equal(info.outcome, MF_COMMIT_STALE);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), 0);
    /* w1 was not dead after all: its answer of attempt 1 is taken, and
     * w2's lease ends with it. */
    ok(commit_all(f, &info, &j, 1, MF_V_SURVIVED));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    assert_int_equal(info.late, 1);
    assert_int_equal(info.cancelled_attempt, 2);
    assert_string_equal(info.cancelled_worker, "w2");
    ok(mf_store_job_get(f->s, &j, j.id));
    assert_int_equal(j.state, MF_JOB_DONE);
    /* w2's answer of attempt 2 is then a duplicate: nothing twice. */
    ok(commit_all(f, &info, &j, 2, MF_V_EQUIVALENT));
    assert_int_equal(info.outcome, MF_COMMIT_DUPLICATE);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts "
                                  "WHERE kind = 'survived' AND attempt = 1"),
                     8);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), 8);
    assert_int_equal(query_int(f, "SELECT count(*) FROM jobs "
                                  "WHERE state = 'done'"),
                     1);
}

static void test_store__late_result_of_a_split_job_is_stale(void **state)
{
    fx *f = *state;
    mf_store_job j;
    mf_store_commit_info info;
    open_store(f);
    plan(f, 8, 1, 0, 0);
    lease_next(f, &j, 8, "w1", mf_store_now_ms() + 60000);
    idlist whole;
    job_ids(f, j.id, &whole);
    ok(mf_store_job_release(f->s, j.id, 1, 3, "worker w1 died", NULL));
    /* Requeued and handed out cut down to 4: attempt 1's 8 verdicts no
     * longer fit the job. */
    lease_next(f, &j, 4, "w2", mf_store_now_ms() + 60000);
    assert_int_equal(j.nmut, 4);
    mf_store_verdict sv[8];
    mf_verdict v[8];
    memset(v, 0, sizeof v);
    for (int i = 0; i < 8; i++) {
        v[i].kind = MF_V_SURVIVED;
        sv[i].mutant_id = whole.ids[i];
        sv[i].v = &v[i];
    }
    mf_store_result r = {j.id, 1, "w1", sv, 8, NULL, 0, NULL};
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_STALE);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), 0);
    ok(commit_all(f, &info, &j, 2, MF_V_SURVIVED));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    assert_int_equal(info.late, 0);
}

/* Verdict rows as another connection sees them (what is committed). */
static int64_t committed_verdicts(fx *f)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t n = -1;
    assert_int_equal(sqlite3_open_v2(f->path, &db, SQLITE_OPEN_READONLY,
                                     NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM verdicts",
                                        -1, &st, NULL),
                     SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static void test_store__batch_commits_once_and_undoes_one_call(void **state)
{
    fx *f = *state;
    mf_store_job a, b;
    mf_store_commit_info info;
    open_store(f);
    plan(f, 8, 2, 0, 0);
    ok(mf_store_batch_begin(f->s));
    assert_int_equal(mf_store_batch_begin(f->s), MF_ERROR); /* no nesting */
    lease_next(f, &a, 4, "w1", mf_store_now_ms() + 60000);
    lease_next(f, &b, 4, "w1", mf_store_now_ms() + 60000);
    /* A refused result inside the batch: two verdicts for one mutant,
     * the first written before the second is refused. Only it is undone. */
    idlist l;
    job_ids(f, a.id, &l);
    mf_verdict v = {0};
    v.kind = MF_V_SURVIVED;
    mf_store_verdict sv[4] = {{l.ids[0], &v}, {l.ids[1], &v},
                              {l.ids[2], &v}, {l.ids[2], &v}};
    mf_store_result r = {a.id, a.attempts, "w1", sv, 4, NULL, 0, NULL};
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), 0);
    ok(commit_all(f, &info, &a, a.attempts, MF_V_KILLED));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    /* Seen inside, not outside, until the batch ends. */
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), 4);
    assert_int_equal(committed_verdicts(f), 0);
    ok(mf_store_batch_end(f->s, 1));
    assert_int_equal(committed_verdicts(f), 4);
    /* A batch undone leaves nothing of itself. */
    ok(mf_store_batch_begin(f->s));
    ok(commit_all(f, &info, &b, b.attempts, MF_V_SURVIVED));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    ok(mf_store_batch_end(f->s, 0));
    assert_int_equal(committed_verdicts(f), 4);
    ok(mf_store_job_get(f->s, &b, b.id));
    assert_int_equal(b.state, MF_JOB_LEASED);
    ok(mf_store_integrity(f->s));
}

static void test_store__invalid_result_writes_nothing(void **state)
{
    fx *f = *state;
    mf_store_job a, b;
    mf_store_commit_info info;
    idlist la, lb;
    open_store(f);
    plan(f, 8, 2, 0, 0);
    lease_next(f, &a, 4, "w1", 0);
    ok(mf_store_job_next(f->s, &b, f->campaign, 4));
    job_ids(f, a.id, &la);
    job_ids(f, b.id, &lb);
    mf_verdict v[4];
    mf_store_verdict sv[4];
    memset(v, 0, sizeof v);
    for (int i = 0; i < 4; i++) {
        v[i].kind = MF_V_SURVIVED;
        sv[i].mutant_id = la.ids[i];
        sv[i].v = &v[i];
    }
    mf_store_result r = {a.id, 1, NULL, sv, 4, NULL, 0, NULL};

    sv[3].mutant_id = lb.ids[0]; /* a mutant of another job */
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);
    assert_non_null(strstr(info.why, "not in the job"));

    sv[3].mutant_id = la.ids[0]; /* two for one, one missing */
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);
    assert_non_null(strstr(info.why, "two verdicts"));

    sv[3].mutant_id = la.ids[3];
    r.nverdicts = 3; /* one missing */
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);

    r.nverdicts = 4;
    v[2].kind = MF_V_KILLED; /* a kill without its test */
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);
    v[2].kind = (mf_verdict_kind)42;
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);

    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), 0);
    ok(mf_store_job_get(f->s, &a, a.id));
    assert_int_equal(a.state, MF_JOB_LEASED);
    v[2].kind = MF_V_UNKNOWN;
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    assert_int_equal(info.counts[MF_V_SURVIVED], 3);
    assert_int_equal(info.counts[MF_V_UNKNOWN], 1);
    ok(mf_store_integrity(f->s));
}

/* ---- leases and quarantine ---------------------------------------------- */

static void test_store__poison_job_is_quarantined(void **state)
{
    fx *f = *state;
    mf_store_job j;
    mf_store_commit_info info;
    int q = -1;
    open_store(f);
    plan(f, 6, 1, 0, 0);
    ok(mf_store_job_next(f->s, &j, f->campaign, 6));
    for (int attempt = 1; attempt <= 2; attempt++) {
        ok(mf_store_job_lease(f->s, &j, j.id, "w1", 0));
        assert_int_equal(j.attempts, attempt);
        ok(mf_store_job_release(f->s, j.id, attempt, 2, "worker w1 died", &q));
        assert_int_equal(q, attempt == 2);
    }
    ok(mf_store_job_get(f->s, &j, j.id));
    assert_int_equal(j.state, MF_JOB_QUARANTINED);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_verdicts "
                                  "WHERE status = 'error'"),
                     6);
    assert_int_equal(query_int(f, "SELECT count(*) FROM problems WHERE "
                                  "reason LIKE 'quarantined after 2 "
                                  "attempts: worker w1 died'"),
                     6);
    ok(commit_all(f, &info, &j, 2, MF_V_SURVIVED));
    assert_int_equal(info.outcome, MF_COMMIT_QUARANTINED);
    assert_int_equal(mf_store_job_next(f->s, &j, f->campaign, 6), MF_ENOTFOUND);
    /* Errors count as done: the campaign can finish. */
    ok(mf_store_campaign_finish(f->s, f->campaign));
}

static void test_store__expired_and_dead_worker_leases_return(void **state)
{
    fx *f = *state;
    mf_store_job a, b, c;
    int r = -1, q = -1;
    int64_t now = mf_store_now_ms();
    open_store(f);
    plan(f, 9, 3, 0, 0);
    lease_next(f, &a, 3, "w1", now - 10);
    lease_next(f, &b, 3, "w2", now + 60000);
    lease_next(f, &c, 3, "w2", now + 60000);
    ok(mf_store_jobs_expire(f->s, f->campaign, now, 3, &r, &q));
    assert_int_equal(r, 1);
    assert_int_equal(q, 0);
    ok(mf_store_job_get(f->s, &a, a.id));
    assert_int_equal(a.state, MF_JOB_PENDING);
    /* A heartbeat pushes a lease; a stale attempt does not. */
    ok(mf_store_job_extend(f->s, b.id, 1, now + 120000));
    ok(mf_store_job_extend(f->s, b.id, 7, now + 1));
    ok(mf_store_job_get(f->s, &b, b.id));
    assert_int_equal(b.deadline_ms, now + 120000);
    ok(mf_store_jobs_release_worker(f->s, f->campaign, "w2", 1, &r, &q));
    assert_int_equal(r, 0);
    assert_int_equal(q, 2); /* max_attempts 1: both quarantined */
    ok(mf_store_job_get(f->s, &c, c.id));
    assert_int_equal(c.state, MF_JOB_QUARANTINED);
    ok(mf_store_job_quarantine(f->s, a.id, "operator's call"));
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts "
                                  "WHERE kind = 'error'"),
                     9);
    ok(mf_store_integrity(f->s));
}

/* ---- views -------------------------------------------------------------- */

static void test_store__views_count_and_score(void **state)
{
    fx *f = *state;
    char sql[256];
    open_store(f);
    /* 4 items x 3 mutants: one job per item with max 3. */
    plan(f, 12, 4, 2, 1);
    decide_next(f, 3, MF_V_KILLED);
    decide_next(f, 3, MF_V_SURVIVED);
    decide_next(f, 2, MF_V_UNKNOWN);
    decide_next(f, 1, MF_V_EQUIVALENT);
    /* Left: 1 unknown-job mutant of item 2 pending and item 3 pending. */
    mf_store_counts c;
    ok(mf_store_counts_get(f->s, &c, f->campaign));
    assert_int_equal(c.total, 12);
    assert_int_equal(c.done, 9);
    assert_int_equal(c.pending, 3);
    assert_true(c.score > 0.374 && c.score < 0.376); /* 3 / (3 + 3 + 2) */

    snprintf(sql, sizeof sql,
             "SELECT total * 1000000 + killed * 10000 + "
             "survived * 100 + unknown FROM campaign_scores "
             "WHERE campaign_id = %lld",
             (long long)f->campaign);
    assert_int_equal(query_int(f, sql), 12030302);
    snprintf(sql, sizeof sql,
             "SELECT score FROM campaign_scores "
             "WHERE campaign_id = %lld",
             (long long)f->campaign);
    assert_true(query_double(f, sql) > 0.374 && query_double(f, sql) < 0.376);
    assert_int_equal(query_int(f, "SELECT equivalent * 10 + error "
                                  "FROM campaign_scores"),
                     10);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_verdicts"), 15);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_verdicts "
                                  "WHERE status = 'pending'"),
                     3);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_verdicts "
                                  "WHERE status = 'duplicate'"),
                     2);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_verdicts "
                                  "WHERE status = 'stillborn'"),
                     1);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_verdicts "
                                  "WHERE status = 'killed' AND test_id IS NOT "
                                  "NULL AND notion = 'deterministic' AND "
                                  "bound = 1 AND solver_ms = 250"),
                     3);
    assert_int_equal(query_int(f, "SELECT count(*) FROM survivors "
                                  "WHERE bound = 7"),
                     3);
    assert_int_equal(query_int(f, "SELECT count(*) FROM equivalents "
                                  "WHERE method = 'lock-step'"),
                     1);
    assert_int_equal(query_int(f, "SELECT sum(total) FROM operator_scores"),
                     12);
    assert_int_equal(query_int(f, "SELECT sum(killed) FROM operator_scores"),
                     3);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_tests"), 3);
    assert_int_equal(query_int(f, "SELECT sum(kills) FROM campaign_tests"), 3);
    assert_int_equal(query_int(f, "SELECT count(*) FROM model_scores"), 1);

    /* Not finished while mutants are pending. */
    assert_int_equal(mf_store_campaign_finish(f->s, f->campaign), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "3 of 12"));
    decide_next(f, 3, MF_V_ERROR);
    decide_next(f, 3, MF_V_ERROR);
    ok(mf_store_campaign_finish(f->s, f->campaign));
    ok(mf_store_campaign_finish(f->s, f->campaign)); /* idempotent */
    assert_int_equal(query_int(f, "SELECT count(*) FROM score_history"), 1);
    assert_int_equal(query_int(f, "SELECT count(*) FROM score_trend "
                                  "WHERE score > 0.374 AND score < 0.376 "
                                  "AND error = 3"),
                     1);
    mf_store_campaign_info info;
    ok(mf_store_campaign_get(f->s, &info, f->campaign));
    assert_int_equal(info.state, MF_CAMPAIGN_DONE);
    assert_true(info.finished_ms > 0);
    ok(mf_store_integrity(f->s));
}

static void test_store__score_is_null_without_denominator(void **state)
{
    fx *f = *state;
    open_store(f);
    plan(f, 2, 1, 0, 0);
    assert_int_equal(query_int(f, "SELECT score FROM campaign_scores"), -2);
    decide_next(f, 2, MF_V_EQUIVALENT);
    assert_int_equal(query_int(f, "SELECT score FROM campaign_scores"), -2);
    assert_int_equal(query_int(f, "SELECT score FROM operator_scores"), -2);
    mf_store_counts c;
    ok(mf_store_counts_get(f->s, &c, f->campaign));
    assert_true(c.score < 0);
    ok(mf_store_campaign_finish(f->s, f->campaign));
    assert_int_equal(query_int(f, "SELECT score FROM score_history"), -2);
}

static int plan_fn(const mf_mutant *mu, void *ctx)
{
    return mf_store_plan_add(ctx, mu) < 0;
}

/* A real model, real mutants, and a test named by the model's variables. */
static void test_store__tests_are_json_named_by_the_model(void **state)
{
    fx *f = *state;
    static const char text[] =
        "MODULE main\n"
        "IVAR req : boolean;\n"
        "VAR st : {idle, busy};\n"
        "ASSIGN\n"
        "  init(st) := idle;\n"
        "  next(st) := case req : busy; TRUE : idle; esac;\n";
    mf_model *m = NULL;
    mf_store_campaign c;
    mf_store_job j;
    mf_store_commit_info info;
    idlist l;
    ok(mf_model_load(&m, "gate.smv", text, sizeof text - 1, NULL));
    open_store(f);
    ok(mf_store_model_put(f->s, &f->model, m->hash, "gate.smv", text,
                          sizeof text - 1));
    ok(camp_open(f, &c, NULL, NULL));
    f->campaign = c.id;
    ok(mf_store_plan_begin(f->s, c.id));
    assert_int_equal(mf_mutants_each(m, 0, plan_fn, f->s), 0);
    ok(mf_store_plan_end(f->s, 1));
    lease_next(f, &j, 1, "w1", 0);
    job_ids(f, j.id, &l);
    assert_int_equal(l.n, 1);

    /* Every cell holds the first value of its type. */
    int nobs = m->nobs_defines;
    for (int i = 0; i < m->nvars; i++)
        nobs += m->vars[i].is_observable ? m->vars[i].nslots : 0;
    mf_test t = {0};
    t.length = 1;
    t.nslots = m->nslots;
    t.nobs = nobs;
    t.inputs = calloc((size_t)(2 * m->nslots), sizeof *t.inputs);
    t.expect = calloc((size_t)(2 * nobs + 1), sizeof *t.expect);
    t.mrefuses = -1;
    for (int i = 0, o = 0; i < m->nvars; i++) {
        mf_val *dom = NULL;
        int n = 0;
        const mf_var *v = &m->vars[i];
        ok(mf_type_domain(mf_type_scalar(v->type), &dom, &n));
        for (int q = 0; q < v->nslots; q++) {
            t.inputs[v->slot + q] = t.inputs[m->nslots + v->slot + q] = dom[0];
            if (v->is_observable) {
                t.expect[o] = t.expect[nobs + o] = dom[0];
                o++;
            }
        }
        free(dom);
    }
    mf_verdict v = {0};
    v.kind = MF_V_KILLED;
    v.test = &t;
    mf_store_verdict sv = {l.ids[0], &v};
    mf_store_result r = {j.id, 1, NULL, &sv, 1, NULL, 0, m};

    /* A value outside its type is refused, not printed. */
    t.expect[0] = 12345;
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);
    t.expect[0] = t.expect[nobs];
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_OK);

    char *json = NULL;
    ok(mf_store_test_json(f->s, &json, c.id, l.ids[0]));
    assert_non_null(strstr(json, "\"inputs\":[{},{\"req\":\"FALSE\"}]"));
    assert_non_null(strstr(json, "\"st\":\"idle\""));
    assert_non_null(strstr(json, "\"allowed\":null"));
    free(json);
    assert_int_equal(query_int(f, "SELECT count(*) FROM tests WHERE text "
                                  "LIKE '%req=FALSE%'"),
                     1);
    assert_int_equal(mf_store_test_json(f->s, &json, c.id, "ffffffffffffffff"),
                     MF_ENOTFOUND);
    free(t.inputs);
    free(t.expect);
    mf_model_free(m);
}

static void test_store__replay_kills_fill_the_matrix(void **state)
{
    fx *f = *state;
    mf_store_job j;
    mf_store_commit_info info;
    idlist l, other;
    open_store(f);
    plan(f, 4, 2, 0, 0);
    lease_next(f, &j, 2, "w1", 0);
    job_ids(f, j.id, &l);
    mf_store_job k;
    ok(mf_store_job_next(f->s, &k, f->campaign, 2));
    job_ids(f, k.id, &other);
    mf_verdict v[2];
    memset(v, 0, sizeof v);
    v[0].kind = MF_V_KILLED;
    v[0].test = raw_test(5);
    v[1].kind = MF_V_SURVIVED;
    mf_store_verdict sv[2] = {{l.ids[0], &v[0]}, {l.ids[1], &v[1]}};
    mf_store_kill kills[2] = {{0, other.ids[0]}, {1, other.ids[1]}};
    mf_store_result r = {j.id, 1, "w1", sv, 2, kills, 2, NULL};
    ok(mf_store_commit(f->s, &info, &r)); /* kill 2 names a survivor */
    assert_int_equal(info.outcome, MF_COMMIT_INVALID);
    r.nkills = 1;
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    assert_int_equal(query_int(f, "SELECT count(*) FROM kills "
                                  "WHERE source = 'replay'"),
                     1);
    assert_int_equal(query_int(f, "SELECT kills FROM campaign_tests"), 2);
    mf_verdict_clear(&v[0]);
}

/* A potential kill on a non-deterministic model: the allowed outputs and
 * the mutant's observed deviation are stored, and read back. */
static void test_store__allowed_and_observed_outputs_are_stored(void **state)
{
    fx *f = *state;
    mf_store_job j;
    mf_store_commit_info info;
    idlist l;
    open_store(f);
    plan(f, 1, 1, 0, 0);
    lease_next(f, &j, 1, "w1", 0);
    job_ids(f, j.id, &l);
    mf_verdict v = {0};
    v.kind = MF_V_KILLED;
    v.notion = MF_N_POTENTIAL;
    v.test = raw_test(4); /* expects 0, then 1 */
    v.test->nallowed = calloc(2, sizeof *v.test->nallowed);
    v.test->allowed = calloc(2, sizeof *v.test->allowed);
    v.test->nallowed[0] = 1;
    v.test->allowed[0] = calloc(1, sizeof **v.test->allowed);
    v.test->nallowed[1] = 2;
    v.test->allowed[1] = calloc(2, sizeof **v.test->allowed);
    v.test->allowed[1][0] = 1;
    v.test->allowed[1][1] = 2;
    v.test->mobs = calloc(2, sizeof *v.test->mobs);
    v.test->mobs[1] = 7;
    mf_store_verdict sv = {l.ids[0], &v};
    mf_store_result r = {j.id, 1, "w1", &sv, 1, NULL, 0, NULL};
    ok(mf_store_commit(f->s, &info, &r));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    assert_int_equal(info.new_tests, 1);

    char *json = NULL;
    ok(mf_store_test_json(f->s, &json, f->campaign, l.ids[0]));
    assert_string_equal(json, "{\"test_id\":1,\"length\":1,"
                              "\"notion\":\"potential\","
                              "\"inputs\":[[0,0],[4,0]],"
                              "\"expected\":[[0],[1]],"
                              "\"allowed\":[[[0]],[[1],[2]]]}");
    free(json);
    assert_int_equal(query_int(f, "SELECT count(*) FROM kills "
                                  "WHERE observed = '[[0],[7]]'"),
                     1);
    assert_int_equal(query_int(f, "SELECT count(*) FROM mutant_verdicts "
                                  "WHERE notion = 'potential' AND bound = 1"),
                     1);
    mf_verdict_clear(&v);
}

static void test_store__model_text_round_trips(void **state)
{
    fx *f = *state;
    static const char hash[] = "0123456789abcdef0123456789abcdef"
                               "0123456789abcdef0123456789abcdef";
    int64_t id = 0, again = 0;
    char *text = NULL, h[65];
    size_t len = 0;
    open_store(f);
    ok(mf_store_model_put(f->s, &id, hash, "a.smv", "MODULE main\nVAR", 12));
    assert_true(id > 0);
    /* The same hash is the same model: its first name and text stay. */
    ok(mf_store_model_put(f->s, &again, hash, "b.smv", "other", 5));
    assert_int_equal(again, id);
    ok(mf_store_model_get(f->s, id, &text, &len, h));
    assert_int_equal(len, 12);
    assert_string_equal(text, "MODULE main\n");
    assert_string_equal(h, hash);
    free(text);
    assert_int_equal(mf_store_model_get(f->s, id + 1, &text, &len, h),
                     MF_ENOTFOUND);
    assert_null(text);
    assert_non_null(strstr(mf_err_msg(), f->path));
}

static void test_store__quarantine_leaves_done_jobs_alone(void **state)
{
    fx *f = *state;
    mf_store_job j;
    open_store(f);
    plan(f, 4, 2, 0, 0);
    decide_next(f, 2, MF_V_SURVIVED);
    ok(mf_store_job_quarantine(f->s, 1, "too late"));
    ok(mf_store_job_get(f->s, &j, 1));
    assert_int_equal(j.state, MF_JOB_DONE);
    ok(mf_store_job_next(f->s, &j, f->campaign, 2));
    ok(mf_store_job_quarantine(f->s, j.id, "operator's call"));
    ok(mf_store_job_quarantine(f->s, j.id, "twice"));
    ok(mf_store_job_get(f->s, &j, j.id));
    assert_int_equal(j.state, MF_JOB_QUARANTINED);
    assert_int_equal(query_int(f, "SELECT count(*) FROM problems "
                                  "WHERE reason = 'operator''s call'"),
                     2);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts "
                                  "WHERE kind = 'survived'"),
                     2);
    assert_int_equal(mf_store_job_quarantine(f->s, 999, "none"), MF_ENOTFOUND);
    ok(mf_store_campaign_finish(f->s, f->campaign));
}

/* ---- scale and failure -------------------------------------------------- */

/* Plan n mutants and decide them all in jobs of 200; SQLite's peak heap. */
static int64_t run_campaign(fx *f, int n)
{
    mf_store_job j;
    mf_store_commit_info info;
    sqlite3_memory_highwater(1);
    plan(f, n, 50, 0, 0);
    int done = 0;
    while (mf_store_job_take(f->s, &j, f->campaign, 200, "w1", 0) == 0) {
        ok(commit_all(f, &info, &j, j.attempts, MF_V_SURVIVED));
        assert_int_equal(info.outcome, MF_COMMIT_OK);
        done += j.nmut;
    }
    assert_int_equal(done, n);
    mf_store_counts c;
    ok(mf_store_counts_get(f->s, &c, f->campaign));
    assert_int_equal(c.survived, n);
    return sqlite3_memory_highwater(0);
}

static void test_store__large_campaign_runs_in_flat_memory(void **state)
{
    fx *f = *state;
    open_store(f);
    int64_t small = run_campaign(f, 10000);
    f->cfg.bound++; /* a second campaign in the same file */
    int64_t large = run_campaign(f, 100000);
    /* Ten times the mutants, about the same peak: the page cache bounds
     * it, not the campaign. */
    print_message("sqlite heap peak: 10k mutants %lld KiB, 100k %lld KiB\n",
                  (long long)small / 1024, (long long)large / 1024);
    assert_true(large < 2 * small + (1 << 20));
    assert_true(large < 32 << 20);
    ok(mf_store_integrity(f->s));
}

static void test_store__failed_commit_leaves_data_intact(void **state)
{
    fx *f = *state;
    mf_store_job a, b;
    mf_store_commit_info info;
    open_store(f);
    plan(f, 200, 2, 0, 0);
    decide_next(f, 50, MF_V_KILLED);
    lease_next(f, &a, 100, "w1", 0);
    int64_t verdicts = query_int(f, "SELECT count(*) FROM verdicts");
    int64_t tests = query_int(f, "SELECT count(*) FROM tests");

    /* Another process holds the write lock: locked, then fine. */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL),
                     SQLITE_OK);
    mf_store_close(f->s);
    f->s = NULL;
    ok(mf_store_open(&f->s, f->path, 0, 50));
    assert_int_equal(commit_all(f, &info, &a, 1, MF_V_KILLED), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "lock"));
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), verdicts);

    /* The disk fills up in the middle of the transaction. */
    int64_t pages = query_int(f, "PRAGMA page_count");
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages);
    sqlite3_exec(mf_store_db(f->s), sql, NULL, NULL, NULL);
    assert_int_equal(commit_all(f, &info, &a, 1, MF_V_KILLED), MF_EIO);
    assert_non_null(strstr(mf_err_msg(), "full"));
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"), verdicts);
    assert_int_equal(query_int(f, "SELECT count(*) FROM tests"), tests);
    ok(mf_store_job_get(f->s, &b, a.id));
    assert_int_equal(b.state, MF_JOB_LEASED);
    ok(mf_store_integrity(f->s));

    /* A read-only store refuses writes. */
    mf_store *ro = NULL;
    ok(mf_store_open(&ro, f->path, MF_STORE_READONLY, 50));
    mf_store *keep = f->s;
    f->s = ro;
    assert_int_equal(commit_all(f, &info, &a, 1, MF_V_KILLED), MF_EIO);
    assert_non_null(strstr(mf_err_msg(), "read-only"));
    f->s = keep;
    mf_store_close(ro);

    /* Room again: the same result commits. */
    sqlite3_exec(mf_store_db(f->s), "PRAGMA max_page_count = 1073741823", NULL,
                 NULL, NULL);
    ok(commit_all(f, &info, &a, 1, MF_V_KILLED));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts"),
                     verdicts + 100);
    ok(mf_store_integrity(f->s));
}

static void test_store__workers_are_recorded(void **state)
{
    fx *f = *state;
    open_store(f);
    mf_store_worker w = {"host1-123", "host1", 4, "0.1.0", "4.12.2"};
    ok(mf_store_worker_seen(f->s, &w));
    w.threads = 8;
    ok(mf_store_worker_seen(f->s, &w));
    assert_int_equal(query_int(f, "SELECT threads FROM workers"), 8);
    plan(f, 3, 1, 0, 0);
    mf_store_job j;
    mf_store_commit_info info;
    lease_next(f, &j, 3, "host1-123", 0);
    idlist l;
    job_ids(f, j.id, &l);
    mf_verdict v[3];
    mf_store_verdict sv[3];
    memset(v, 0, sizeof v);
    for (int i = 0; i < 3; i++) {
        v[i].kind = MF_V_SURVIVED;
        sv[i].mutant_id = l.ids[i];
        sv[i].v = &v[i];
    }
    mf_store_result res = {j.id, 1, NULL, sv, 3, NULL, 0, NULL};
    ok(mf_store_commit(f->s, &info, &res));
    assert_int_equal(info.outcome, MF_COMMIT_OK);
    /* No worker given: the lease holder is credited. */
    assert_int_equal(query_int(f, "SELECT jobs_done FROM workers"), 1);
    assert_int_equal(query_int(f, "SELECT count(*) FROM verdicts "
                                  "WHERE worker_id = 'host1-123'"),
                     3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_store__migrates_empty_file_and_reopens),
        T(test_store__checked_writes_build_no_temporary_tables),
        T(test_store__job_index_holds_only_mutants_in_jobs),
        T(test_store__refuses_foreign_newer_and_garbage_files),
        T(test_store__campaign_resumes_with_same_options_only),
        T(test_store__plan_rollback_leaves_nothing),
        T(test_store__jobs_group_one_item_and_split_to_size),
        T(test_store__resume_returns_leased_jobs_to_pending),
        T(test_store__commit_is_idempotent),
        T(test_store__late_result_wins_over_a_re_lease),
        T(test_store__batch_commits_once_and_undoes_one_call),
        T(test_store__late_result_of_a_split_job_is_stale),
        T(test_store__invalid_result_writes_nothing),
        T(test_store__poison_job_is_quarantined),
        T(test_store__expired_and_dead_worker_leases_return),
        T(test_store__views_count_and_score),
        T(test_store__score_is_null_without_denominator),
        T(test_store__tests_are_json_named_by_the_model),
        T(test_store__replay_kills_fill_the_matrix),
        T(test_store__allowed_and_observed_outputs_are_stored),
        T(test_store__model_text_round_trips),
        T(test_store__quarantine_leaves_done_jobs_alone),
        T(test_store__failed_commit_leaves_data_intact),
        T(test_store__workers_are_recorded),
        T(test_store__large_campaign_runs_in_flat_memory),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
