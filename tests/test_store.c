/* test_store.c - the SQLite campaign store (coordinator/store/store.h): schema
 * migrations, planning and jobs, resume, idempotent commits, quarantine.
 * The views users query, tests stored, flat memory on a large campaign
 * and failures that leave the file as it was are test_store_views.c. Real
 * SQLite files in a temporary directory. */
#include "store_fixtures.h"

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
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
