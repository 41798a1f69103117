/* campaign.c - a campaign's mutants as a kind of farm work (farm/kind.h,
 * coord_int.h): jobs cut by site with an adaptive size and leased in the
 * store, a result's verdicts checked (every kill replayed by verify.c)
 * and committed by mf_store_commit, idempotently (a re-sent or late
 * result is recognised by the store), a job that failed max_attempts
 * times quarantined, the campaign complete when every mutant has its
 * verdict.
 *
 * Jobs, leases and verdicts live in the store; what is in memory are
 * tallies for job sizes and the progress line. It does not touch the
 * socket: the farm's loop sends, acknowledges and refuses. */
#include "coord_int.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf.h"

#define say(c, ...) mf_farm_say((c)->farm, __VA_ARGS__)

/* How often the tallies are counted afresh in the store even when nothing
 * said they changed: counting reads every mutant of the campaign, too
 * much to do every second for a million of them. */
#define RECOUNT_MS 60000
/* Mutants per job while nothing has been measured yet. */
#define FIRST_JOB 4

int mf_coord_refresh_counts(mf_coord *c)
{
    mf_store_counts k;
    int rc = mf_store_counts_get(c->st, &k, c->camp.id);
    if (rc < 0)
        return rc;
    c->counts = k;
    c->unplanned = k.unplanned;
    return 0;
}

/* ---- the next job --------------------------------------------------------- */

/* How many mutants the next job gets: enough for job_target_ms at the
 * measured cost, growing at most twofold over the largest job answered so
 * far (costs differ a lot between model items: a few cheap first jobs must
 * not size a huge one), and near the end of the campaign small enough that
 * every thread of the farm gets several jobs of what is left. */
static int job_size(mf_coord *c, int64_t threads)
{
    int size;
    if (c->cost_ms <= 0)
        size = FIRST_JOB;
    else
        size = (int)fmin(1e6, (double)c->cfg.job_target_ms / c->cost_ms);
    int cap = 2 * c->proven > FIRST_JOB ? 2 * c->proven : FIRST_JOB;
    if (size > cap)
        size = cap;
    if (size > c->cfg.job_max)
        size = c->cfg.job_max;
    if (size < c->cfg.job_min)
        size = c->cfg.job_min;
    if (threads < 1)
        threads = 1;
    int64_t left = c->unplanned;
    if (left < (int64_t)size * threads * 3) {
        int64_t tail = (left + 3 * threads - 1) / (3 * threads);
        if (tail < size)
            size = (int)tail;
        if (size < c->cfg.job_min)
            size = c->cfg.job_min;
    }
    return size;
}

static int collect_id(const mf_store_mutant *m, void *ctx)
{
    mf_coord *c = ctx;
    if (c->nids == c->ids.n)
        MF_VEC_PUSH(c->ids, mf_xcalloc(1, 17));
    snprintf(c->ids.v[c->nids++], 17, "%s", m->id);
    return 0;
}

/* Cut or take the next pending job and lease it to w in one store call
 * (committed with the farm's batch, before the job leaves). */
static int next(mf_farm *f, void *k, const mf_farm_worker *w,
                mf_farm_job *out)
{
    mf_coord *c = k;
    int threads = 0;
    mf_farm_workers(f, &mf_campaign_kind, &threads);
    mf_store_job job;
    /* A job that came back is handed out whole: were it split, the part
     * cut off would start again at attempt 0, and a poison mutant in it
     * would kill more than max_attempts workers. */
    int size = c->counts.jobs_pending > 0 ? c->cfg.job_max
                                          : job_size(c, threads);
    c->nids = 0;
    int rc = mf_store_job_take_each(c->st, &job, c->camp.id, size, w->id,
                                    mf_store_now_ms() + c->cfg.lease_ms,
                                    collect_id, c);
    if (rc == MF_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    if (job.attempts == 1) { /* its first lease: cut just now */
        c->unplanned -= job.nmut;
        if (c->unplanned < 0)
            c->unplanned = 0;
    } else if (c->counts.jobs_pending > 0) {
        c->counts.jobs_pending--;
    }
    mf_wire_job_spec js = {0};
    js.job_id = (uint64_t)job.id;
    js.attempt = (uint32_t)job.attempts;
    js.campaign_id = (uint64_t)c->camp.id;
    js.model_name = c->model_name;
    js.model_text = c->model_text;
    js.model_len = c->model_len;
    js.model_sha256 = c->model_sha;
    js.mutant_ids = (const char *const *)c->ids.v;
    js.nmutants = (size_t)c->nids;
    js.opts = &c->eo;
    js.inputs = c->inputs.v;
    js.ninputs = (size_t)c->inputs.n;
    js.observe = c->observe.v;
    js.nobserve = (size_t)c->observe.n;
    js.crash_on = c->crash_on;
    out->id = (uint64_t)job.id;
    out->attempt = (uint32_t)job.attempts;
    if (mf_wire_encode_job_spec(&out->frame, &out->len, &js) < 0) {
        free(out->frame);
        out->frame = NULL;
    }
    snprintf(out->what, sizeof out->what, "job %lld (attempt %d, %d mutants)",
             (long long)job.id, job.attempts, job.nmut);
    return 1;
}

/* ---- results -------------------------------------------------------------- */

static void result_free(mf_coord *c)
{
    for (size_t i = 0; i < c->nv; i++)
        mf_verdict_clear(&c->v[i]);
    free(c->v);
    free(c->sv);
    c->v = NULL;
    c->sv = NULL;
    c->nv = 0;
}

/* Every kill is replayed before it is stored, but a result the store
 * will not take (its job done or quarantined: a re-sent or duplicate
 * result) is not worth a replay: a busy coordinator hears the same
 * result again from every worker that reconnects. Only a result with a
 * kill asks the store: the others have nothing to replay. Returns 1 when
 * a kill does not replay (why set). */
static int false_kill(mf_coord *c, const mf_wire_result *r, char *why,
                      size_t nwhy)
{
    size_t n = r->n_mutants;
    int kills = 0;
    for (size_t i = 0; i < n && !kills; i++)
        kills = c->v[i].kind == MF_V_KILLED;
    mf_store_job job;
    int settled = kills &&
                  mf_store_job_get(c->st, &job, (int64_t)r->job_id) == 0 &&
                  (job.state == MF_JOB_DONE || job.state == MF_JOB_QUARANTINED);
    if (!kills || settled)
        return 0;
    const char **ids = mf_xcalloc(n ? n : 1, sizeof *ids);
    for (size_t i = 0; i < n; i++)
        ids[i] = r->mutants[i]->mutant_id;
    int bad = mf_verify_kills(c->verify, c->st, (int64_t)r->job_id, why,
                              nwhy, ids, c->v, (int)n);
    free(ids);
    return bad;
}

/* The result of a job of this campaign, its verdicts decoded, its kills
 * replayed. */
static int check(mf_farm *f, void *k, const mf_farm_worker *w,
                 const mf_wire_env *env, mf_farm_answer *a)
{
    (void)f;
    (void)w;
    mf_coord *c = k;
    const mf_wire_result *r = env->result;
    if (r->campaign_id != (uint64_t)c->camp.id) {
        snprintf(a->why, sizeof a->why, "job %llu is of campaign %llu; "
                                        "this coordinator serves campaign "
                                        "%lld",
                 (unsigned long long)r->job_id,
                 (unsigned long long)r->campaign_id, (long long)c->camp.id);
        a->outcome = MF_FARM_UNKNOWN;
        return 0;
    }
    result_free(c);
    size_t n = r->n_mutants;
    c->v = mf_xcalloc(n ? n : 1, sizeof *c->v);
    c->sv = mf_xcalloc(n ? n : 1, sizeof *c->sv);
    c->nv = n;
    for (size_t i = 0; i < n; i++) {
        if (mf_wire_verdict_from_result(&c->v[i], r->mutants[i]) < 0) {
            snprintf(a->why, sizeof a->why, "%s", mf_err_msg());
            a->outcome = MF_FARM_INVALID;
            result_free(c);
            return 0;
        }
        c->sv[i].mutant_id = r->mutants[i]->mutant_id;
        c->sv[i].v = &c->v[i];
    }
    if (false_kill(c, r, a->why, sizeof a->why)) {
        a->outcome = MF_FARM_FALSE;
        a->what = "a kill that does not replay";
        result_free(c);
        return 0;
    }
    a->outcome = MF_FARM_TAKEN;
    return 0;
}

/* Exponentially weighted cost per mutant from a committed job. */
static void measure(mf_coord *c, const mf_wire_result *r)
{
    if (r->n_mutants == 0)
        return;
    double ms = 0;
    if (r->stats && r->stats->wall_ms)
        ms = (double)r->stats->wall_ms;
    else
        for (size_t i = 0; i < r->n_mutants; i++)
            ms += (double)r->mutants[i]->solver_ms;
    if ((int)r->n_mutants > c->proven)
        c->proven = (int)r->n_mutants;
    double per = ms / (double)r->n_mutants;
    if (per < 0.01)
        per = 0.01;
    c->cost_ms = c->cost_ms <= 0 ? per : 0.7 * c->cost_ms + 0.3 * per;
}

/* The tallies after a committed result. */
static void count(mf_coord *c, const mf_store_commit_info *info)
{
    for (int k = 0; k < 5; k++)
        c->counts.done += info->counts[k];
    c->counts.killed += info->counts[MF_V_KILLED];
    c->counts.equivalent += info->counts[MF_V_EQUIVALENT];
    c->counts.survived += info->counts[MF_V_SURVIVED];
    c->counts.unknown += info->counts[MF_V_UNKNOWN];
    c->counts.error += info->counts[MF_V_ERROR];
}

static int commit(mf_farm *f, void *k, const mf_farm_worker *w,
                  const mf_wire_env *env, mf_farm_answer *a)
{
    (void)f;
    mf_coord *c = k;
    const mf_wire_result *r = env->result;
    mf_store_result res = {0};
    res.job_id = (int64_t)r->job_id;
    res.attempt = (int)r->attempt;
    res.worker = w->id;
    res.verdicts = c->sv;
    res.nverdicts = (int)c->nv;
    res.model = c->model;
    mf_store_commit_info info;
    int rc = mf_store_commit(c->st, &info, &res);
    result_free(c);
    if (rc < 0)
        return rc;
    snprintf(a->why, sizeof a->why, "%s", info.why);
    switch (info.outcome) {
    case MF_COMMIT_OK:
        a->outcome = MF_FARM_TAKEN;
        count(c, &info);
        measure(c, r);
        if (info.late)
            say(c, "took the late result of job %llu (attempt %u) from "
                   "worker %s%s%s%s", (unsigned long long)r->job_id,
                r->attempt, w->id,
                info.cancelled_attempt ? "; the lease of its re-run by "
                                         "worker " : "",
                info.cancelled_worker,
                info.cancelled_attempt ? " is cancelled" : "");
        break;
    case MF_COMMIT_DUPLICATE:
    case MF_COMMIT_STALE:
    case MF_COMMIT_QUARANTINED: a->outcome = MF_FARM_IGNORED; break;
    case MF_COMMIT_UNKNOWN_JOB: a->outcome = MF_FARM_UNKNOWN; break;
    case MF_COMMIT_INVALID:
        a->outcome = MF_FARM_INVALID;
        a->release = 1;
        break;
    }
    return 0;
}

/* ---- leases back ---------------------------------------------------------- */

/* A failed lease counts toward max_attempts (the store quarantines the
 * job there); one not sent or given back never does. */
static int release(mf_farm *f, void *k, uint64_t job, uint32_t attempt,
                   int failed, const char *why)
{
    (void)f;
    mf_coord *c = k;
    int rc = mf_store_job_release(c->st, (int64_t)job, (int)attempt,
                                  failed ? c->cfg.max_attempts : INT_MAX,
                                  why, NULL);
    if (rc < 0)
        return rc;
    if (failed)
        return mf_coord_refresh_counts(c);
    c->counts.jobs_pending++;
    return 0;
}

static int release_worker(mf_farm *f, void *k, const char *worker, int *back,
                          int *quarantined)
{
    (void)f;
    mf_coord *c = k;
    int rc = mf_store_jobs_release_worker(c->st, c->camp.id, worker,
                                          c->cfg.max_attempts, back,
                                          quarantined);
    if (rc < 0)
        return rc;
    return *back || *quarantined ? mf_coord_refresh_counts(c) : 0;
}

static int expire(mf_farm *f, void *k, int *back, int *quarantined)
{
    (void)f;
    mf_coord *c = k;
    int rc = mf_store_jobs_expire(c->st, c->camp.id, mf_store_now_ms(),
                                  c->cfg.max_attempts, back, quarantined);
    if (rc < 0)
        return rc;
    /* The tallies follow every commit and release; what the store says
     * is only needed after a change they do not see (leases ran out), and
     * now and then as a check. */
    int64_t now = mf_farm_now_ms();
    if (!*back && !*quarantined && now < c->next_recount)
        return 0;
    c->next_recount = now + RECOUNT_MS;
    return mf_coord_refresh_counts(c);
}

/* ---- workers, the end ----------------------------------------------------- */

/* The Z3 version of the first worker that names one, with the
 * campaign. */
static void hello(mf_farm *f, void *k, const mf_farm_worker *w,
                  const mf_wire_hello *h)
{
    (void)f;
    (void)w;
    mf_coord *c = k;
    if (!c->z3_recorded && h->z3_version[0]) {
        if (mf_store_campaign_versions(c->st, c->camp.id, NULL,
                                       h->z3_version) == 0)
            c->z3_recorded = 1;
    }
}

/* Complete when every mutant to decide has its verdict (checked in the
 * store, not only in the tallies); the campaign is closed there. */
static int complete(mf_farm *f, void *k)
{
    (void)f;
    mf_coord *c = k;
    if (c->complete)
        return 1;
    if (c->counts.done < c->counts.total)
        return 0;
    int rc = mf_coord_refresh_counts(c);
    if (rc < 0)
        return rc;
    if (c->counts.done < c->counts.total || c->counts.unplanned > 0)
        return 0;
    rc = mf_store_campaign_finish(c->st, c->camp.id);
    if (rc < 0)
        return rc;
    c->complete = 1;
    return 1;
}

const mf_farm_kind mf_campaign_kind = {
    .name = "campaign",
    .result_msg = MF_WIRE_RESULT,
    .done_why = "campaign complete",
    .next = next,
    .check = check,
    .commit = commit,
    .release = release,
    .release_worker = release_worker,
    .expire = expire,
    .alive = NULL, /* a lease runs out lease_ms after it was given */
    .hello = hello,
    .complete = complete,
};
