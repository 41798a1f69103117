/* results.c - committing a job's result in one transaction: checking that
 * the job takes it (any attempt so far of a job not done or quarantined:
 * the first valid result wins; one verdict per mutant of the job), then
 * its verdicts, its tests (deduplicated per campaign by content), its
 * kills, the job done and the worker's count. A result the job does not take is reported, not stored.
 * How a test becomes JSON is tests.c's; reading results back is
 * queries.c's and the views'. */
#include "store_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const mf_store_query q_mut_lookup = {
    Q_MUT_LOOKUP, "SELECT id, job_id FROM mutants "
                  "WHERE campaign_id = ?1 AND mutant_id = ?2"};
static const mf_store_query q_job_rows = {
    Q_JOB_ROWS, "SELECT id, mutant_id FROM mutants WHERE job_id = ?1 "
                "ORDER BY id"};
static const mf_store_query q_test_ins = {
    Q_TEST_INS, "INSERT INTO tests(campaign_id, hash, length, notion, inputs, "
                "expected, allowed, text, found_for, created_at) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
                "ON CONFLICT(campaign_id, hash) DO NOTHING"};
static const mf_store_query q_test_id = {
    Q_TEST_ID, "SELECT id FROM tests WHERE campaign_id = ?1 AND hash = ?2"};
static const mf_store_query q_verdict_ins = {
    Q_VERDICT_INS,
    "INSERT INTO verdicts(mutant, campaign_id, job_id, attempt, kind, "
    "notion, bound, method, reason, test_id, solver_ms, worker_id, "
    "created_at, kill_len_beyond) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"};
static const mf_store_query q_kill_ins = {
    Q_KILL_INS, "INSERT INTO kills(test_id, mutant, campaign_id, source, "
                "observed) VALUES (?1, ?2, ?3, ?4, ?5) "
                "ON CONFLICT DO NOTHING"};
static const mf_store_query q_job_done = {
    Q_JOB_DONE, "UPDATE jobs SET state = 'done', worker_id = ?2, "
                "lease_deadline = NULL, finished_at = ?3 WHERE id = ?1"};
static const mf_store_query q_worker_job = {
    Q_WORKER_JOB, "UPDATE workers SET jobs_done = jobs_done + 1, "
                  "last_seen = ?2 WHERE id = ?1"};

/* A mutant of the job being committed: its row and its id. */
typedef struct {
    int64_t row;
    char id[65];
} job_mutant;

typedef struct {
    int64_t campaign, job;
    int attempt;
    const char *worker;
    int64_t now;
    mf_store_commit_info *info;
    MF_VEC(job_mutant) muts; /* the job's mutants, in planning order */
    job_mutant **by_id;      /* the same sorted by id; NULL until needed */
} commit_ctx;

/* Mark the result invalid; returns 1 so callers stop without an error. */
static int invalid(commit_ctx *c, const char *fmt, const char *arg)
{
    c->info->outcome = MF_COMMIT_INVALID;
    snprintf(c->info->why, sizeof c->info->why, fmt, arg);
    return 1;
}

/* The row id of a campaign's mutant and its job: 1, 0 if absent, < 0. */
static int mutant_lookup(mf_store *s, int64_t campaign, const char *mid,
                         int64_t *id, int64_t *job)
{
    return mf_store_one(s, &q_mut_lookup, "finding a mutant",
                        BIND(ARG_INT(campaign), ARG_TEXTN(mid, 64)),
                        INTO(COL_I64(id), COL_I64(job)));
}

static int job_row(sqlite3_stmt *st, void *ctx)
{
    commit_ctx *c = ctx;
    job_mutant m;
    m.row = sqlite3_column_int64(st, 0);
    const unsigned char *t = sqlite3_column_text(st, 1);
    snprintf(m.id, sizeof m.id, "%s", t ? (const char *)t : "");
    MF_VEC_PUSH(c->muts, m);
    return 0;
}

static int by_id_cmp(const void *a, const void *b)
{
    return strcmp((*(job_mutant *const *)a)->id, (*(job_mutant *const *)b)->id);
}

/* The row of mutant `mid` of the job (verdict number i: workers answer
 * in the job's order, so that place is looked at first), 0 if it is not
 * in the job. One read of the job's mutants serves the whole result. */
static int64_t job_mutant_row(commit_ctx *c, int i, const char *mid)
{
    if (i < c->muts.n && strncmp(c->muts.v[i].id, mid, 64) == 0)
        return c->muts.v[i].row;
    if (!c->by_id) {
        c->by_id = mf_xcalloc((size_t)c->muts.n + 1, sizeof *c->by_id);
        for (int k = 0; k < c->muts.n; k++)
            c->by_id[k] = &c->muts.v[k];
        qsort(c->by_id, (size_t)c->muts.n, sizeof *c->by_id, by_id_cmp);
    }
    job_mutant key, *kp = &key;
    snprintf(key.id, sizeof key.id, "%.64s", mid);
    job_mutant **hit = bsearch(&kp, c->by_id, (size_t)c->muts.n,
                               sizeof *c->by_id, by_id_cmp);
    return hit ? (*hit)->row : 0;
}

/* A kill row: the test kills the mutant, found by `source` ("verdict" or
 * "replay"), with the mutant's observed deviation (may be NULL). */
int mf_store_kill_put(mf_store *s, int64_t campaign, int64_t test_id,
                      int64_t mutant, const char *source,
                      const char *observed)
{
    return mf_store_one(s, &q_kill_ins, "storing a kill",
                        BIND(ARG_INT(test_id), ARG_INT(mutant),
                             ARG_INT(campaign), ARG_TEXT(source),
                             ARG_TEXT(observed)),
                        NULL);
}

int mf_store_test_put(mf_store *s, int64_t campaign, const mf_model *m,
                      const mf_test *t, mf_notion notion, int64_t mutant,
                      int64_t now, int64_t *test_id, int *fresh,
                      const char **why)
{
    mf_store_test_rows r = {0};
    int rc = 0;
    *test_id = 0;
    *fresh = 0;
    *why = mf_store_test_render(&r, m, t);
    if (*why) {
        rc = 1;
        goto cleanup;
    }
    rc = mf_store_one(s, &q_test_ins, "storing a test",
                      BIND(ARG_INT(campaign), ARG_TEXT(r.hash),
                           ARG_INT(t->length), ARG_TEXT(mf_notion_name(notion)),
                           ARG_TEXT(r.inputs.data), ARG_TEXT(r.expected.data),
                           ARG_TEXT(r.has_allowed ? r.allowed.data : NULL),
                           ARG_TEXT(m ? r.text.data : NULL), ARG_INT(mutant),
                           ARG_INT(now)),
                      NULL);
    if (rc < 0)
        goto cleanup;
    *fresh = sqlite3_changes(s->db) > 0;
    rc = mf_store_one(s, &q_test_id, "finding a test",
                      BIND(ARG_INT(campaign), ARG_TEXT(r.hash)),
                      INTO(COL_I64(test_id)));
    if (rc == 0)
        rc = mf_err_set(MF_ERROR, "store %s: a stored test vanished", s->path);
    if (rc < 0)
        goto cleanup;
    rc = mf_store_kill_put(s, campaign, *test_id, mutant, "verdict",
                     r.has_observed ? r.observed.data : NULL);
cleanup:
    mf_store_test_rows_free(&r);
    return rc;
}

/* Store the killing test of a verdict (deduplicated) and its kill row;
 * *test_id is the test's row. 1 if the test is invalid. */
static int store_test(mf_store *s, commit_ctx *c, const mf_model *m,
                      const mf_verdict *v, int64_t mutant, int64_t *test_id)
{
    const char *why = NULL;
    int fresh = 0;
    int rc = mf_store_test_put(s, c->campaign, m, v->test, v->notion, mutant,
                               c->now, test_id, &fresh, &why);
    if (rc == 1)
        return invalid(c, "%s", why);
    c->info->new_tests += fresh;
    return rc;
}

/* The verdict row; 1 if the mutant already has one. */
static int verdict_insert(mf_store *s, commit_ctx *c, const mf_verdict *v,
                          int64_t mutant, int64_t test_id)
{
    mf_verdict_kind k = v->kind;
    int rc = mf_store_one(
        s, &q_verdict_ins, "storing a verdict",
        BIND(ARG_INT(mutant), ARG_INT(c->campaign), ARG_INT(c->job),
             ARG_INT(c->attempt), ARG_TEXT(mf_verdict_name(k)),
             ARG_TEXT(k == MF_V_KILLED ? mf_notion_name(v->notion) : NULL),
             ARG_INT(k == MF_V_KILLED ? v->test->length : v->bound),
             k == MF_V_EQUIVALENT ? ARG_TEXTN(v->method, sizeof v->method)
                                  : ARG_NULL,
             k == MF_V_UNKNOWN || k == MF_V_ERROR
                 ? ARG_TEXTN(v->reason, sizeof v->reason)
                 : ARG_NULL,
             test_id ? ARG_INT(test_id) : ARG_NULL,
             isfinite(v->secs) && v->secs >= 0 && v->secs < 1e9
                 ? ARG_INT((int64_t)(v->secs * 1000.0 + 0.5))
                 : ARG_NULL,
             ARG_TEXT(c->worker), ARG_INT(c->now),
             k == MF_V_SURVIVED && v->kill_len_beyond > v->bound
                 ? ARG_INT(v->kill_len_beyond)
                 : ARG_NULL),
        NULL);
    if (rc < 0 && s->last_rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return 1; /* the caller names the mutant */
    return rc;
}

/* Verdict number i of the result; *test_id gets its test's row (kills). */
static int commit_verdict(mf_store *s, commit_ctx *c, const mf_model *m,
                          int i, const mf_store_verdict *sv, int64_t *test_id)
{
    const mf_verdict *v = sv->v;
    *test_id = 0;
    if (!sv->mutant_id || !v)
        return invalid(c, "%s", "a verdict without mutant id");
    if ((unsigned)v->kind > MF_V_ERROR ||
        (v->kind == MF_V_KILLED && (unsigned)v->notion > MF_N_DEFINITE))
        return invalid(c, "bad verdict kind for mutant %.64s", sv->mutant_id);
    int64_t mutant = job_mutant_row(c, i, sv->mutant_id);
    if (!mutant)
        return invalid(c, "mutant %.64s is not in the job", sv->mutant_id);
    int rc = 0;
    if (v->kind == MF_V_KILLED) {
        if (!v->test)
            return invalid(c, "kill of mutant %.64s without a test",
                           sv->mutant_id);
        rc = store_test(s, c, m, v, mutant, test_id);
        if (rc != 0)
            return rc;
    }
    rc = verdict_insert(s, c, v, mutant, *test_id);
    if (rc == 1)
        return invalid(c, "two verdicts for mutant %.64s", sv->mutant_id);
    if (rc == 0)
        c->info->counts[v->kind]++;
    return rc;
}

/* A further kill by replay: the test of verdict k.test kills k.mutant_id. */
static int commit_kill(mf_store *s, commit_ctx *c, const mf_store_result *r,
                       const mf_store_kill *k, const int64_t *test_ids)
{
    int64_t mutant = 0, job = 0;
    if (k->test < 0 || k->test >= r->nverdicts || !test_ids[k->test])
        return invalid(c, "%s", "a kill that names no killing test");
    if (!k->mutant_id)
        return invalid(c, "%s", "a kill without mutant id");
    int rc = mutant_lookup(s, c->campaign, k->mutant_id, &mutant, &job);
    if (rc <= 0)
        return rc < 0
                   ? rc
                   : invalid(c, "kill of unknown mutant %.64s", k->mutant_id);
    return mf_store_kill_put(s, c->campaign, test_ids[k->test], mutant, "replay",
                       NULL);
}

/* Whether the job accepts a result for this attempt: 1 if so, 0 when the
 * outcome says why not, < 0 on failure. */
static int commit_admit(mf_store *s, commit_ctx *c, const mf_store_result *r,
                        mf_store_job *j)
{
    mf_store_commit_info *info = c->info;
    int rc = mf_store_job_read(s, j, r->job_id);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        info->outcome = MF_COMMIT_UNKNOWN_JOB;
        snprintf(info->why, sizeof info->why, "no job %lld",
                 (long long)r->job_id);
    } else if (j->state == MF_JOB_DONE) {
        info->outcome = MF_COMMIT_DUPLICATE;
        snprintf(info->why, sizeof info->why, "job %lld is already done",
                 (long long)r->job_id);
    } else if (j->state == MF_JOB_QUARANTINED) {
        info->outcome = MF_COMMIT_QUARANTINED;
        snprintf(info->why, sizeof info->why, "job %lld is quarantined",
                 (long long)r->job_id);
    } else if (j->attempts == 0 || r->attempt < 1 ||
               r->attempt > j->attempts) {
        info->outcome = MF_COMMIT_STALE;
        snprintf(info->why, sizeof info->why,
                 "job %lld: result of attempt %d, the job had %d",
                 (long long)r->job_id, r->attempt, j->attempts);
    } else if (r->nverdicts != j->nmut && r->attempt != j->attempts) {
        /* An earlier attempt's result for a job split since then (its
         * tail is another job now): not for this job as it stands. */
        info->outcome = MF_COMMIT_STALE;
        snprintf(info->why, sizeof info->why,
                 "job %lld was cut down to %d mutants after attempt %d",
                 (long long)r->job_id, j->nmut, r->attempt);
    } else if (r->nverdicts != j->nmut) {
        info->outcome = MF_COMMIT_INVALID;
        snprintf(info->why, sizeof info->why,
                 "job %lld has %d mutants, the result %d verdicts",
                 (long long)r->job_id, j->nmut, r->nverdicts);
    } else {
        /* An earlier attempt's result is as good as the current one's
         * (docs/protocol.md): the first valid result wins, and the lease
         * of the current attempt, if any, ends with it. */
        if (r->attempt != j->attempts) {
            info->late = 1;
            info->cancelled_attempt =
                j->state == MF_JOB_LEASED ? j->attempts : 0;
            snprintf(info->cancelled_worker, sizeof info->cancelled_worker,
                     "%s", j->state == MF_JOB_LEASED ? j->worker : "");
        }
        return 1;
    }
    return 0;
}

static int commit_locked(mf_store *s, commit_ctx *c, const mf_store_result *r)
{
    mf_store_job j;
    int rc = commit_admit(s, c, r, &j);
    if (rc <= 0)
        return rc;
    c->campaign = j.campaign_id;
    c->worker = r->worker ? r->worker : (j.worker[0] ? j.worker : NULL);
    rc = mf_store_each(s, &q_job_rows, "reading a job's mutants",
                       BIND(ARG_INT(c->job)), job_row, c);
    if (rc < 0)
        return rc;
    int64_t *test_ids = mf_xcalloc((size_t)r->nverdicts + 1, sizeof *test_ids);
    for (int i = 0; i < r->nverdicts && rc == 0; i++)
        rc = commit_verdict(s, c, r->model, i, &r->verdicts[i], &test_ids[i]);
    for (int i = 0; i < r->nkills && rc == 0; i++)
        rc = commit_kill(s, c, r, &r->kills[i], test_ids);
    free(test_ids);
    if (rc != 0)
        return rc;
    rc = mf_store_one(
        s, &q_job_done, "finishing a job",
        BIND(ARG_INT(c->job), ARG_TEXT(c->worker), ARG_INT(c->now)), NULL);
    if (rc < 0 || !c->worker || s->batch) /* a batch counts in the end */
        return rc;
    return mf_store_one(s, &q_worker_job, "counting a worker's job",
                        BIND(ARG_TEXT(c->worker), ARG_INT(c->now)), NULL);
}

/* One more job committed by `worker` in the open batch (written when it
 * commits: db.c, mf_store_batch_end). */
static void worker_jobs_add(mf_store *s, const char *worker, int64_t now)
{
    mf_store_worker_jobs *w = NULL;
    for (int i = s->worker_jobs.n - 1; i >= 0 && !w; i--)
        if (!strcmp(s->worker_jobs.v[i].id, worker))
            w = &s->worker_jobs.v[i];
    if (!w) {
        mf_store_worker_jobs z = {{0}, 0, 0};
        snprintf(z.id, sizeof z.id, "%s", worker);
        MF_VEC_PUSH(s->worker_jobs, z);
        w = &s->worker_jobs.v[s->worker_jobs.n - 1];
    }
    w->jobs++;
    w->last = now;
}


int mf_store_commit(mf_store *s, mf_store_commit_info *out,
                    const mf_store_result *r)
{
    memset(out, 0, sizeof *out);
    commit_ctx c = {0, r->job_id, r->attempt, NULL, mf_store_now_ms(), out,
                    {0}, NULL};
    if (r->nverdicts < 0 || r->nkills < 0 || (r->nverdicts && !r->verdicts) ||
        (r->nkills && !r->kills)) {
        out->outcome = MF_COMMIT_INVALID;
        snprintf(out->why, sizeof out->why, "malformed result");
        return 0;
    }
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = commit_locked(s, &c, r);
    MF_VEC_FREE(c.muts);
    free(c.by_id);
    if (rc == 0 && out->outcome == MF_COMMIT_OK) {
        rc = mf_store_tx_end(s, 0);
        if (rc == 0 && s->batch && c.worker)
            worker_jobs_add(s, c.worker, c.now);
    }
    else
        mf_store_tx_rollback(s); /* refused or failed: nothing of it stays */
    if (rc != 0 || out->outcome != MF_COMMIT_OK) {
        memset(out->counts, 0, sizeof out->counts);
        out->new_tests = 0;
    }
    return rc < 0 ? rc : 0;
}
