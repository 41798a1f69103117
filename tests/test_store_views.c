/* test_store_views.c - the SQLite campaign store (coordinator/store/store.h)
 * as its users read it: the views' counts and scores, tests stored as JSON
 * with allowed and observed outputs, the kill matrix filled by replay,
 * model text, quarantine beside done jobs, workers recorded; flat memory
 * on a large campaign, and a failed commit leaving the file as it was.
 * Real SQLite files in a temporary directory (store_fixtures.h). */
#include "store_fixtures.h"

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
