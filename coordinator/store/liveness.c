/* liveness.c - the coordinator's own row in the store: started, beating,
 * stopped (schema/004_liveness.sql). This is
 * how `mutfarm status`, another process, tells a serving coordinator from
 * one that exited or died (docs/running.md). It decides nothing about
 * jobs: a dead coordinator's leases are put back by the next one
 * (campaigns.c). */
#include "store_int.h"

#include <stdio.h>

static const mf_store_query q_live_ins = {
    Q_LIVE_INS,
    "INSERT INTO coordinators(campaign_id, pid, host, endpoint, started_at, "
    "heartbeat_at, beat_ms, liveness_ms, done, total, rate, eta_s, workers, "
    "threads) VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
    "?12, ?13)"};
static const mf_store_query q_live_beat = {
    Q_LIVE_BEAT, "UPDATE coordinators SET heartbeat_at = ?2, done = ?3, "
                 "total = ?4, rate = ?5, eta_s = ?6, workers = ?7, "
                 "threads = ?8 WHERE id = ?1"};
static const mf_store_query q_live_stop = {
    Q_LIVE_STOP, "UPDATE coordinators SET heartbeat_at = ?2, "
                 "stopped_at = ?2, stop_reason = ?3 WHERE id = ?1"};
/* Not cached: status reads it once. */
static const char *const sql_live_get =
    "SELECT id, campaign_id, pid, host, coalesce(endpoint, ''), started_at, "
    "heartbeat_at, beat_ms, liveness_ms, coalesce(done, 0), "
    "coalesce(total, 0), coalesce(rate, -1), coalesce(eta_s, -1), "
    "coalesce(workers, 0), coalesce(threads, 0), coalesce(stopped_at, 0), "
    "coalesce(stop_reason, '') FROM coordinators WHERE campaign_id = ?1 "
    "ORDER BY id DESC LIMIT 1";
/* NULL for an unknown rate or ETA. */
static mf_store_arg real_or_null(double v)
{
    return v >= 0 ? ARG_REAL(v) : ARG_NULL;
}

int mf_store_coord_start(mf_store *s, int64_t *out_id,
                         const mf_store_coordinator *c)
{
    if (s->planning)
        return mf_store_not_planning(s);
    int rc = mf_store_one(
        s, &q_live_ins, "recording the coordinator",
        BIND(ARG_INT(c->campaign_id), ARG_INT(c->pid), ARG_TEXT(c->host),
             ARG_TEXT(c->endpoint), ARG_INT(mf_store_now_ms()),
             ARG_INT(c->beat_ms), ARG_INT(c->liveness_ms), ARG_INT(c->done),
             ARG_INT(c->total), real_or_null(c->rate),
             real_or_null(c->eta_s), ARG_INT(c->workers),
             ARG_INT(c->threads)),
        NULL);
    if (rc == 0)
        *out_id = sqlite3_last_insert_rowid(s->db);
    return rc;
}

int mf_store_coord_beat(mf_store *s, const mf_store_coordinator *c)
{
    if (s->planning)
        return mf_store_not_planning(s);
    return mf_store_one(
        s, &q_live_beat, "recording the coordinator's heartbeat",
        BIND(ARG_INT(c->id), ARG_INT(mf_store_now_ms()), ARG_INT(c->done),
             ARG_INT(c->total), real_or_null(c->rate),
             real_or_null(c->eta_s), ARG_INT(c->workers),
             ARG_INT(c->threads)),
        NULL);
}

int mf_store_coord_stop(mf_store *s, int64_t id, const char *reason)
{
    if (s->planning)
        return mf_store_not_planning(s);
    return mf_store_one(s, &q_live_stop, "recording the coordinator's exit",
                        BIND(ARG_INT(id), ARG_INT(mf_store_now_ms()),
                             ARG_TEXT(reason)),
                        NULL);
}

int mf_store_coord_get(mf_store *s, mf_store_coordinator *out,
                       int64_t campaign)
{
    memset(out, 0, sizeof *out);
    int64_t pid = 0, workers = 0, threads = 0;
    sqlite3_stmt *st = NULL;
    /* Reals are read by hand: the column list has no double reader. */
    int rc = sqlite3_prepare_v2(s->db, sql_live_get, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        rc = mf_store_fail(s, rc, "reading the coordinator's liveness");
        sqlite3_finalize(st);
        return rc;
    }
    sqlite3_bind_int64(st, 1, campaign);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(st, 0);
        out->campaign_id = sqlite3_column_int64(st, 1);
        pid = sqlite3_column_int64(st, 2);
        snprintf(out->host, sizeof out->host, "%s",
                 (const char *)sqlite3_column_text(st, 3));
        snprintf(out->endpoint, sizeof out->endpoint, "%s",
                 (const char *)sqlite3_column_text(st, 4));
        out->started_ms = sqlite3_column_int64(st, 5);
        out->heartbeat_ms = sqlite3_column_int64(st, 6);
        out->beat_ms = sqlite3_column_int64(st, 7);
        out->liveness_ms = sqlite3_column_int64(st, 8);
        out->done = sqlite3_column_int64(st, 9);
        out->total = sqlite3_column_int64(st, 10);
        out->rate = sqlite3_column_double(st, 11);
        out->eta_s = sqlite3_column_double(st, 12);
        workers = sqlite3_column_int64(st, 13);
        threads = sqlite3_column_int64(st, 14);
        out->stopped_ms = sqlite3_column_int64(st, 15);
        snprintf(out->stop_reason, sizeof out->stop_reason, "%s",
                 (const char *)sqlite3_column_text(st, 16));
        out->pid = (int)pid;
        out->workers = (int)workers;
        out->threads = (int)threads;
        rc = 0;
    } else if (rc == SQLITE_DONE) {
        rc = mf_err_set(MF_ENOTFOUND, "store %s: no coordinator has served "
                                      "campaign %lld yet",
                        s->path, (long long)campaign);
    } else {
        rc = mf_store_fail(s, rc, "reading the coordinator's liveness");
    }
    sqlite3_finalize(st);
    return rc;
}

const char *mf_store_coord_state(const mf_store_coordinator *c,
                                 int64_t now_ms)
{
    if (c->stopped_ms)
        return "stopped";
    return now_ms - c->heartbeat_ms <= c->liveness_ms ? "running" : "dead";
}
