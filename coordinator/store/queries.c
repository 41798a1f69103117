/* queries.c - the store's workers and its counts: recording a worker at
 * Hello, and a campaign's progress (mutants by status, verdicts by kind,
 * jobs by state, mutants not yet in a job, and the score) from index
 * range counts, never a scan of the campaign. Reports and `mutfarm status`
 * read the views through mf_store_db; this file serves the coordinator's
 * progress line and the score_history row (campaigns.c). */
#include "store_int.h"

#include <stddef.h>

static const mf_store_query q_worker_upsert = {
    Q_WORKER_UPSERT,
    "INSERT INTO workers(id, host, threads, mutfarm_version, z3_version, "
    "first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) "
    "ON CONFLICT(id) DO UPDATE SET host = excluded.host, "
    "threads = excluded.threads, "
    "mutfarm_version = excluded.mutfarm_version, "
    "z3_version = excluded.z3_version, last_seen = excluded.last_seen"};
static const mf_store_query q_count_status = {
    Q_COUNT_STATUS, "SELECT status, count(*) FROM mutants "
                    "WHERE campaign_id = ?1 GROUP BY status"};
static const mf_store_query q_count_kind = {
    Q_COUNT_KIND, "SELECT kind, count(*) FROM verdicts "
                  "WHERE campaign_id = ?1 GROUP BY kind"};
static const mf_store_query q_count_jobs = {
    Q_COUNT_JOBS, "SELECT state, count(*) FROM jobs "
                  "WHERE campaign_id = ?1 GROUP BY state"};
static const mf_store_query q_count_unplanned = {
    Q_COUNT_UNPLANNED, "SELECT count(*) FROM mutants "
                       "INDEXED BY mutants_unplanned WHERE campaign_id = ?1 "
                       "AND job_id IS NULL AND status = 'ok' AND reused = 0"};

/* ---- workers ------------------------------------------------------------ */

int mf_store_worker_seen(mf_store *s, const mf_store_worker *w)
{
    if (s->planning)
        return mf_store_not_planning(s);
    return mf_store_one(s, &q_worker_upsert, "recording a worker",
                        BIND(ARG_TEXT(w->id), ARG_TEXT(w->host),
                             ARG_INT(w->threads), ARG_TEXT(w->mutfarm_version),
                             ARG_TEXT(w->z3_version),
                             ARG_INT(mf_store_now_ms())),
                        NULL);
}

/* ---- progress ----------------------------------------------------------- */

/* Which field of mf_store_counts a group's name counts into. */
typedef struct {
    const char *name;
    size_t field; /* offsetof an int64_t in mf_store_counts */
} count_field;

/* The field f of mf_store_counts. */
#define AT(f) offsetof(mf_store_counts, f)

static const count_field by_status[] = {
    {"ok", AT(total)},
    {"duplicate", AT(duplicate)},
    {"stillborn", AT(stillborn)},
    {NULL, 0},
};
static const count_field by_kind[] = {
    {"killed", AT(killed)},     {"equivalent", AT(equivalent)},
    {"survived", AT(survived)}, {"unknown", AT(unknown)},
    {"error", AT(error)},       {NULL, 0},
};
static const count_field by_job_state[] = {
    {"pending", AT(jobs_pending)},
    {"leased", AT(jobs_leased)},
    {"done", AT(jobs_done)},
    {"quarantined", AT(jobs_quarantined)},
    {NULL, 0},
};

typedef struct {
    mf_store_counts *out;
    const count_field *fields;
} count_ctx;

/* One (name, count) row: into the field named, if any. */
static int count_row(sqlite3_stmt *st, void *ctx)
{
    const count_ctx *cc = ctx;
    const unsigned char *name = sqlite3_column_text(st, 0);
    for (const count_field *f = cc->fields; name && f->name; f++)
        if (!strcmp((const char *)name, f->name)) {
            *(int64_t *)((char *)cc->out + f->field) =
                sqlite3_column_int64(st, 1);
            break;
        }
    return 0;
}

/* Run a "SELECT name, count(*) ... GROUP BY name" for one campaign. */
static int count_groups(mf_store *s, const mf_store_query *q, int64_t campaign,
                        mf_store_counts *out, const count_field *fields)
{
    count_ctx cc = {out, fields};
    return mf_store_each(s, q, "counting", BIND(ARG_INT(campaign)), count_row,
                         &cc);
}

int mf_store_counts_locked(mf_store *s, mf_store_counts *out, int64_t campaign)
{
    memset(out, 0, sizeof *out);
    int rc = count_groups(s, &q_count_status, campaign, out, by_status);
    if (rc == 0)
        rc = count_groups(s, &q_count_kind, campaign, out, by_kind);
    if (rc == 0)
        rc = count_groups(s, &q_count_jobs, campaign, out, by_job_state);
    if (rc == 0)
        rc = mf_store_one(s, &q_count_unplanned, "counting",
                          BIND(ARG_INT(campaign)),
                          INTO(COL_I64(&out->unplanned)));
    if (rc < 0)
        return rc;
    out->done = out->killed + out->equivalent + out->survived + out->unknown +
                out->error;
    out->pending = out->total - out->done;
    int64_t den = out->killed + out->survived + out->unknown;
    out->score = den ? (double)out->killed / (double)den : -1.0;
    return 0;
}

int mf_store_counts_get(mf_store *s, mf_store_counts *out, int64_t campaign)
{
    int rc = mf_store_tx_begin(s, 0); /* one snapshot for all four counts */
    if (rc < 0)
        return rc;
    return mf_store_tx_end(s, mf_store_counts_locked(s, out, campaign));
}
