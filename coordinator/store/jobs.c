/* jobs.c - the store's jobs and leases: cutting the next job from the
 * mutants not yet in one (grouped by the model item they change, through
 * partial indexes, never reading a whole campaign), splitting a requeued
 * job to size, streaming a job's mutants, leasing, extending and taking
 * back leases, and quarantine. It does not commit results (results.c) and
 * does not plan mutants (campaigns.c). */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>

static const mf_store_query q_job_pending = {
    Q_JOB_PENDING, "SELECT id FROM jobs WHERE campaign_id = ?1 "
                   "AND state = 'pending' ORDER BY id LIMIT 1"};
static const mf_store_query q_job_get = {
    Q_JOB_GET, "SELECT id, campaign_id, state, attempts, nmut, item, "
               "coalesce(lease_deadline, 0), coalesce(worker_id, '') "
               "FROM jobs WHERE id = ?1"};
static const mf_store_query q_job_cut = {
    Q_JOB_CUT, "SELECT id FROM mutants WHERE job_id = ?1 "
               "ORDER BY id LIMIT 1 OFFSET ?2"};
static const mf_store_query q_job_ins = {
    Q_JOB_INS, "INSERT INTO jobs(campaign_id, item, nmut, state, "
               "attempts, created_at) VALUES (?1, ?2, ?3, 'pending', 0, ?4)"};
static const mf_store_query q_job_move = {Q_JOB_MOVE,
                                          "UPDATE mutants SET job_id = ?2 "
                                          "WHERE job_id = ?1 AND id >= ?3"};
static const mf_store_query q_job_set_nmut = {
    Q_JOB_SET_NMUT, "UPDATE jobs SET nmut = ?2 WHERE id = ?1"};
/* The oldest unplanned mutant and the next ones of its item, for a job
 * cut from them (job_cut). INDEXED BY: without ANALYZE statistics the
 * planner prefers mutants_by_status and would scan every planned mutant
 * per job. */
static const mf_store_query q_unplanned_rows = {
    Q_UNPLANNED_ROWS,
    "SELECT id, mutant_id, operator, site, item, line, col FROM mutants "
    "INDEXED BY mutants_unplanned_item "
    "WHERE campaign_id = ?1 AND job_id IS NULL AND status = 'ok' "
    "AND reused = 0 AND item = (SELECT item FROM mutants "
    "INDEXED BY mutants_unplanned WHERE campaign_id = ?1 "
    "AND job_id IS NULL AND status = 'ok' AND reused = 0 "
    "ORDER BY id LIMIT 1) ORDER BY id LIMIT ?2"};
static const mf_store_query q_job_ins_leased = {
    Q_JOB_INS_LEASED,
    "INSERT INTO jobs(campaign_id, item, nmut, state, attempts, worker_id, "
    "lease_deadline, leased_at, created_at) "
    "VALUES (?1, ?2, ?3, 'leased', 1, ?4, ?5, ?6, ?6)"};
static const mf_store_query q_mut_to_job = {
    Q_MUT_TO_JOB, "UPDATE mutants SET job_id = ?2 WHERE id = ?1"};
static const mf_store_query q_job_mutants = {
    Q_JOB_MUTANTS, "SELECT mutant_id, operator, site, item, line, col "
                   "FROM mutants WHERE job_id = ?1 ORDER BY id"};
static const mf_store_query q_job_lease = {
    Q_JOB_LEASE, "UPDATE jobs SET state = 'leased', "
                 "attempts = attempts + 1, "
                 "worker_id = ?2, lease_deadline = ?3, leased_at = ?4 "
                 "WHERE id = ?1 AND state = 'pending'"};
static const mf_store_query q_job_extend = {
    Q_JOB_EXTEND, "UPDATE jobs SET lease_deadline = ?3 WHERE id = ?1 "
                  "AND state = 'leased' AND attempts = ?2"};
static const mf_store_query q_job_to_pending = {
    Q_JOB_TO_PENDING, "UPDATE jobs SET state = 'pending', worker_id = NULL, "
                      "lease_deadline = NULL, last_error = ?2 WHERE id = ?1"};
static const mf_store_query q_job_quar = {
    Q_JOB_QUAR, "UPDATE jobs SET state = 'quarantined', worker_id = NULL, "
                "lease_deadline = NULL, last_error = ?2, finished_at = ?3 "
                "WHERE id = ?1"};
static const mf_store_query q_quar_verdicts = {
    Q_QUAR_VERDICTS,
    "INSERT INTO verdicts(mutant, campaign_id, job_id, attempt, kind, "
    "reason, created_at) SELECT id, campaign_id, job_id, ?2, 'error', ?3, "
    "?4 FROM mutants WHERE job_id = ?1 ON CONFLICT(mutant) DO NOTHING"};
static const mf_store_query q_jobs_expired = {
    Q_JOBS_EXPIRED, "SELECT id, attempts FROM jobs WHERE campaign_id = ?1 "
                    "AND state = 'leased' AND lease_deadline < ?2 "
                    "ORDER BY id LIMIT 1"};
static const mf_store_query q_jobs_of_worker = {
    Q_JOBS_OF_WORKER, "SELECT id, attempts FROM jobs WHERE campaign_id = ?1 "
                      "AND state = 'leased' AND worker_id = ?2 "
                      "ORDER BY id LIMIT 1"};

/* ---- reading ------------------------------------------------------------ */

static mf_job_state job_state_of(const char *t)
{
    if (!strcmp(t, "leased"))
        return MF_JOB_LEASED;
    if (!strcmp(t, "done"))
        return MF_JOB_DONE;
    if (!strcmp(t, "quarantined"))
        return MF_JOB_QUARANTINED;
    return MF_JOB_PENDING;
}

int mf_store_job_read(mf_store *s, mf_store_job *out, int64_t job)
{
    char state[16];
    memset(out, 0, sizeof *out);
    int rc = mf_store_one(s, &q_job_get, "reading a job", BIND(ARG_INT(job)),
                          INTO(COL_I64(&out->id), COL_I64(&out->campaign_id),
                               COL_TEXT(state, sizeof state),
                               COL_INT(&out->attempts), COL_INT(&out->nmut),
                               COL_INT(&out->item), COL_I64(&out->deadline_ms),
                               COL_TEXT(out->worker, sizeof out->worker)));
    if (rc == 1)
        out->state = job_state_of(state);
    return rc;
}

/* The job, or MF_ENOTFOUND. */
static int job_find(mf_store *s, mf_store_job *out, int64_t job)
{
    int rc = mf_store_job_read(s, out, job);
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no job %lld", s->path,
                          (long long)job);
    return rc < 0 ? rc : 0;
}

int mf_store_job_get(mf_store *s, mf_store_job *out, int64_t job)
{
    return job_find(s, out, job);
}

/* The caller of mf_store_job_mutants, for job_mutant_row. */
typedef struct {
    mf_store_mutant_fn fn;
    void *ctx;
} mutant_cb;

/* The mutant in columns at .. at + 5 of the row (mutant_id, operator,
 * site, item, line, col). */
static mf_store_mutant mutant_at(sqlite3_stmt *st, int at)
{
    mf_store_mutant m = {
        (const char *)sqlite3_column_text(st, at),
        (const char *)sqlite3_column_text(st, at + 1),
        (const char *)sqlite3_column_text(st, at + 2),
        sqlite3_column_int(st, at + 3),
        sqlite3_column_int(st, at + 4),
        sqlite3_column_int(st, at + 5),
    };
    return m;
}

static int job_mutant_row(sqlite3_stmt *st, void *ctx)
{
    const mutant_cb *cb = ctx;
    mf_store_mutant m = mutant_at(st, 0);
    return cb->fn(&m, cb->ctx);
}

int mf_store_job_mutants(mf_store *s, int64_t job, mf_store_mutant_fn fn,
                         void *ctx)
{
    mutant_cb cb = {fn, ctx};
    return mf_store_each(s, &q_job_mutants, "reading a job's mutants",
                         BIND(ARG_INT(job)), job_mutant_row, &cb);
}

/* ---- cutting jobs ------------------------------------------------------- */

static int job_insert(mf_store *s, int64_t campaign, int item, int nmut,
                      int64_t *id)
{
    int rc = mf_store_one(s, &q_job_ins, "creating a job",
                          BIND(ARG_INT(campaign), ARG_INT(item), ARG_INT(nmut),
                               ARG_INT(mf_store_now_ms())),
                          NULL);
    if (rc == 0)
        *id = sqlite3_last_insert_rowid(s->db);
    return rc;
}

static int job_set_nmut(mf_store *s, int64_t job, int nmut)
{
    return mf_store_one(s, &q_job_set_nmut, "sizing a job",
                        BIND(ARG_INT(job), ARG_INT(nmut)), NULL);
}

/* Keep the first `max` mutants of a pending job; the rest become a new
 * pending job (the tail of a campaign is cut finer than its start). */
static int job_split(mf_store *s, const mf_store_job *j, int max)
{
    int64_t cut = 0, fresh = 0;
    int rc =
        mf_store_one(s, &q_job_cut, "splitting a job",
                     BIND(ARG_INT(j->id), ARG_INT(max)), INTO(COL_I64(&cut)));
    if (rc <= 0)
        return rc;
    rc = job_insert(s, j->campaign_id, j->item, j->nmut - max, &fresh);
    if (rc == 0)
        rc = mf_store_one(s, &q_job_move, "splitting a job",
                          BIND(ARG_INT(j->id), ARG_INT(fresh), ARG_INT(cut)),
                          NULL);
    return rc < 0 ? rc : job_set_nmut(s, j->id, max);
}

/* The oldest pending job, split so it has at most max mutants: 1 and
 * *out, 0 if none is pending, or < 0. */
static int pending_locked(mf_store *s, mf_store_job *out, int64_t campaign,
                          int max)
{
    int64_t job = 0;
    int rc = mf_store_one(s, &q_job_pending, "finding a pending job",
                          BIND(ARG_INT(campaign)), INTO(COL_I64(&job)));
    if (rc != 1)
        return rc;
    rc = mf_store_job_read(s, out, job);
    if (rc == 1 && out->nmut > max) {
        rc = job_split(s, out, max);
        if (rc >= 0)
            rc = mf_store_job_read(s, out, job);
    }
    return rc;
}

/* The mutants of a job being cut: their row ids, and each handed to the
 * caller's fn as it is read. */
typedef struct {
    MF_VEC(int64_t) rows;
    int item; /* the model item they change */
    mf_store_mutant_fn fn;
    void *ctx;
    int stop; /* fn's non-zero value: it stopped the take */
} cut_rows;

static int cut_row(sqlite3_stmt *st, void *ctx)
{
    cut_rows *cr = ctx;
    MF_VEC_PUSH(cr->rows, sqlite3_column_int64(st, 0));
    cr->item = sqlite3_column_int(st, 4);
    if (!cr->fn)
        return 0;
    mf_store_mutant m = mutant_at(st, 1);
    cr->stop = cr->fn(&m, cr->ctx);
    return cr->stop;
}

/* Cut a new job from the oldest unplanned mutant and more of its item:
 * leased to `worker` as it is created, or pending when worker is NULL
 * (mf_store_job_next). The job's row is written once and each mutant's
 * once, and its mutants go to cr->fn as they are read (the dispatch path:
 * no second read of the job or of its mutants). 1 and *out, 0 if no
 * mutant is left unplanned (or fn stopped: cr->stop), or < 0. */
static int job_cut(mf_store *s, mf_store_job *out, int64_t campaign,
                   int max, const char *worker, int64_t deadline_ms,
                   cut_rows *cr)
{
    int rc = mf_store_each(s, &q_unplanned_rows, "cutting a job",
                           BIND(ARG_INT(campaign), ARG_INT(max)), cut_row, cr);
    if (rc < 0 || cr->stop || cr->rows.n == 0)
        return rc < 0 ? rc : 0; /* a failure, fn stopped, nothing left */
    int item = cr->item;
    int64_t job = 0;
    if (worker) {
        rc = mf_store_one(s, &q_job_ins_leased, "creating a job",
                          BIND(ARG_INT(campaign), ARG_INT(item),
                               ARG_INT(cr->rows.n), ARG_TEXT(worker),
                               ARG_INT(deadline_ms),
                               ARG_INT(mf_store_now_ms())),
                          NULL);
        job = sqlite3_last_insert_rowid(s->db);
    } else {
        rc = job_insert(s, campaign, item, cr->rows.n, &job);
    }
    if (rc < 0)
        return rc;
    for (int i = 0; i < cr->rows.n && rc == 0; i++)
        rc = mf_store_one(s, &q_mut_to_job, "cutting a job",
                          BIND(ARG_INT(cr->rows.v[i]), ARG_INT(job)), NULL);
    if (rc < 0)
        return rc;
    memset(out, 0, sizeof *out);
    out->id = job;
    out->campaign_id = campaign;
    out->state = worker ? MF_JOB_LEASED : MF_JOB_PENDING;
    out->attempts = worker ? 1 : 0;
    out->nmut = cr->rows.n;
    out->item = item;
    out->deadline_ms = worker ? deadline_ms : 0;
    snprintf(out->worker, sizeof out->worker, "%s", worker ? worker : "");
    return 1;
}

static int job_next_locked(mf_store *s, mf_store_job *out, int64_t campaign,
                           int max)
{
    int rc = pending_locked(s, out, campaign, max);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    cut_rows cr = {{0}, 0, NULL, NULL, 0};
    rc = job_cut(s, out, campaign, max, NULL, 0, &cr);
    MF_VEC_FREE(cr.rows);
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND,
                          "store %s: campaign %lld has no job "
                          "to hand out",
                          s->path, (long long)campaign);
    return rc < 0 ? rc : 0;
}

int mf_store_job_next(mf_store *s, mf_store_job *out, int64_t campaign,
                      int max_mutants)
{
    memset(out, 0, sizeof *out);
    if (max_mutants < 1)
        max_mutants = 1;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = job_next_locked(s, out, campaign, max_mutants);
    if (rc == MF_ENOTFOUND) {
        mf_store_tx_rollback(s); /* nothing was written */
        return rc;
    }
    return mf_store_tx_end(s, rc);
}

/* ---- leases ------------------------------------------------------------- */

/* Lease a pending job inside the caller's transaction; *out is the job
 * after the lease. */
static int lease_locked(mf_store *s, mf_store_job *out, int64_t job,
                        const char *worker, int64_t deadline_ms)
{
    int rc =
        mf_store_one(s, &q_job_lease, "leasing a job",
                     BIND(ARG_INT(job), ARG_TEXT(worker), ARG_INT(deadline_ms),
                          ARG_INT(mf_store_now_ms())),
                     NULL);
    int changed = rc == 0 ? sqlite3_changes(s->db) : 0;
    if (rc == 0)
        rc = job_find(s, out, job);
    if (rc == 0 && !changed)
        rc = mf_err_set(MF_ERROR, "store %s: job %lld is not pending", s->path,
                        (long long)job);
    return rc;
}

int mf_store_job_lease(mf_store *s, mf_store_job *out, int64_t job,
                       const char *worker, int64_t deadline_ms)
{
    mf_store_job j;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = mf_store_tx_end(s, lease_locked(s, &j, job, worker, deadline_ms));
    if (rc == 0 && out)
        *out = j;
    return rc;
}

/* mf_store_job_take_each inside the caller's transaction. */
static int take_locked(mf_store *s, mf_store_job *out, int64_t campaign,
                       int max, const char *worker, int64_t deadline_ms,
                       cut_rows *cr)
{
    mf_store_job j;
    int rc = pending_locked(s, &j, campaign, max);
    if (rc == 0) {
        rc = job_cut(s, out, campaign, max, worker, deadline_ms, cr);
        if (rc < 0 || cr->stop)
            return rc < 0 ? rc : cr->stop;
        if (rc == 0)
            return mf_err_set(MF_ENOTFOUND,
                              "store %s: campaign %lld has no job to hand "
                              "out",
                              s->path, (long long)campaign);
        return 0;
    }
    if (rc < 0)
        return rc;
    rc = lease_locked(s, out, j.id, worker, deadline_ms);
    if (rc == 0 && cr->fn)
        rc = mf_store_job_mutants(s, out->id, cr->fn, cr->ctx);
    return rc;
}

int mf_store_job_take_each(mf_store *s, mf_store_job *out, int64_t campaign,
                           int max_mutants, const char *worker,
                           int64_t deadline_ms, mf_store_mutant_fn fn,
                           void *ctx)
{
    mf_store_job j;
    cut_rows cr = {{0}, 0, fn, ctx, 0};
    memset(out, 0, sizeof *out);
    memset(&j, 0, sizeof j);
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = take_locked(s, &j, campaign, max_mutants < 1 ? 1 : max_mutants,
                     worker, deadline_ms, &cr);
    MF_VEC_FREE(cr.rows);
    if (rc != 0) { /* nothing to hand out, fn stopped, or a failure */
        mf_store_tx_rollback(s);
        return rc;
    }
    rc = mf_store_tx_end(s, rc);
    if (rc == 0)
        *out = j;
    return rc;
}

int mf_store_job_take(mf_store *s, mf_store_job *out, int64_t campaign,
                      int max_mutants, const char *worker, int64_t deadline_ms)
{
    return mf_store_job_take_each(s, out, campaign, max_mutants, worker,
                                  deadline_ms, NULL, NULL);
}

int mf_store_job_extend(mf_store *s, int64_t job, int attempt,
                        int64_t deadline_ms)
{
    if (s->planning)
        return mf_store_not_planning(s);
    return mf_store_one(
        s, &q_job_extend, "extending a lease",
        BIND(ARG_INT(job), ARG_INT(attempt), ARG_INT(deadline_ms)), NULL);
}

static int quarantine_locked(mf_store *s, int64_t job, int attempt,
                             const char *reason)
{
    int64_t now = mf_store_now_ms();
    int rc =
        mf_store_one(s, &q_job_quar, "quarantining a job",
                     BIND(ARG_INT(job), ARG_TEXT(reason), ARG_INT(now)), NULL);
    if (rc == 0)
        rc = mf_store_one(s, &q_quar_verdicts, "recording quarantine verdicts",
                          BIND(ARG_INT(job), ARG_INT(attempt), ARG_TEXT(reason),
                               ARG_INT(now)),
                          NULL);
    return rc;
}

/* Take back the lease of (job, attempt): pending, or quarantined when the
 * attempts are used up. Adds to *requeued / *quarantined. */
static int release_locked(mf_store *s, int64_t job, int attempt,
                          int max_attempts, const char *reason, int *requeued,
                          int *quarantined)
{
    mf_store_job j;
    int rc = mf_store_job_read(s, &j, job);
    if (rc <= 0 || j.state != MF_JOB_LEASED || j.attempts != attempt)
        return rc < 0 ? rc : 0;
    if (j.attempts >= max_attempts) {
        char why[600];
        snprintf(why, sizeof why, "quarantined after %d attempts: %s",
                 j.attempts, reason ? reason : "no result");
        rc = quarantine_locked(s, job, j.attempts, why);
        if (rc == 0 && quarantined)
            (*quarantined)++;
        return rc;
    }
    rc = mf_store_one(s, &q_job_to_pending, "requeueing a job",
                      BIND(ARG_INT(job), ARG_TEXT(reason)), NULL);
    if (rc == 0 && requeued)
        (*requeued)++;
    return rc;
}

int mf_store_job_release(mf_store *s, int64_t job, int attempt,
                         int max_attempts, const char *reason, int *quarantined)
{
    int q = 0;
    if (quarantined)
        *quarantined = 0;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = mf_store_tx_end(
        s, release_locked(s, job, attempt, max_attempts, reason, NULL, &q));
    if (rc == 0 && quarantined)
        *quarantined = q;
    return rc;
}

int mf_store_job_quarantine(mf_store *s, int64_t job, const char *reason)
{
    mf_store_job j;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = job_find(s, &j, job);
    if (rc == 0 && j.state != MF_JOB_DONE && j.state != MF_JOB_QUARANTINED)
        rc = quarantine_locked(s, job, j.attempts, reason);
    return mf_store_tx_end(s, rc);
}

/* Release, one at a time, every leased job that query q selects (?1 the
 * campaign, ?2 `key`); each release takes the job out of the selection. */
static int release_all(mf_store *s, const mf_store_query *q, int64_t campaign,
                       mf_store_arg key, int max_attempts, const char *reason,
                       int *requeued, int *quarantined)
{
    int r = 0, qd = 0;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    for (;;) {
        int64_t job = 0;
        int attempt = 0;
        rc = mf_store_one(s, q, "finding leases to take back",
                          BIND(ARG_INT(campaign), key),
                          INTO(COL_I64(&job), COL_INT(&attempt)));
        if (rc <= 0)
            break;
        rc = release_locked(s, job, attempt, max_attempts, reason, &r, &qd);
        if (rc < 0)
            break;
    }
    rc = mf_store_tx_end(s, rc);
    if (requeued)
        *requeued = rc == 0 ? r : 0;
    if (quarantined)
        *quarantined = rc == 0 ? qd : 0;
    return rc;
}

int mf_store_jobs_expire(mf_store *s, int64_t campaign, int64_t now_ms,
                         int max_attempts, int *requeued, int *quarantined)
{
    return release_all(s, &q_jobs_expired, campaign, ARG_INT(now_ms),
                       max_attempts, "lease expired", requeued, quarantined);
}

int mf_store_jobs_release_worker(mf_store *s, int64_t campaign,
                                 const char *worker, int max_attempts,
                                 int *requeued, int *quarantined)
{
    char why[64 + MF_STORE_WORKER_ID];
    snprintf(why, sizeof why, "worker %s died", worker);
    return release_all(s, &q_jobs_of_worker, campaign, ARG_TEXT(worker),
                       max_attempts, why, requeued, quarantined);
}
