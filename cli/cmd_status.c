/* cmd_status.c - `mutfarm status --db F`: where the campaign in a store
 * stands, while a coordinator is serving it or after it finished
 * (docs/running.md): whether its coordinator is running, stopped or dead
 * (its heartbeat in the store, schema/004_liveness.sql), the rate and ETA
 * it last wrote, and the workers with their last contact.
 *
 * Reads only: the store is opened read-only, so it is safe next to a
 * running coordinator (SQLite WAL readers do not block the writer). */
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "store.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm status --db F [--campaign ID]\n"
          "  the state of the newest campaign in the store F (or of campaign\n"
          "  ID): model, options, whether its coordinator is running,\n"
          "  stopped or dead (no heartbeat for the liveness interval),\n"
          "  progress, rate and ETA, verdict counts, score, jobs and the\n"
          "  workers holding them with their last contact, and the earlier\n"
          "  campaigns of the file with their scores. Works while a\n"
          "  coordinator is running.\n"
          "  exit: 0 done, 1 usage error or no such store or campaign,\n"
          "  2 internal error\n",
          f);
}

static void fmt_time(char *buf, size_t n, int64_t ms)
{
    if (ms <= 0) {
        snprintf(buf, n, "-");
        return;
    }
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
}

static void fmt_ago(char *buf, size_t n, int64_t ms)
{
    int64_t s = (mf_store_now_ms() - ms) / 1000;
    if (s < 0)
        s = 0;
    if (s < 120)
        snprintf(buf, n, "%llds ago", (long long)s);
    else if (s < 7200)
        snprintf(buf, n, "%lldm ago", (long long)(s / 60));
    else
        snprintf(buf, n, "%lldh ago", (long long)(s / 3600));
}

static void fmt_secs(char *buf, size_t n, double s)
{
    if (s < 0 || s > 360000) {
        snprintf(buf, n, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
}

/* Whether the coordinator of row k, on this host, is gone for sure: a
 * dead pid needs no waiting for the liveness interval. */
static int gone_here(const mf_store_coordinator *k)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0 || strcmp(host, k->host))
        return 0;
    return k->pid > 0 && kill((pid_t)k->pid, 0) < 0 && errno == ESRCH;
}

/* The state line of an unfinished campaign from its coordinator's row,
 * and the rate and ETA it last wrote. *live: 1 if it is serving now. */
static void print_liveness(mf_store *s, int64_t campaign, int *live)
{
    mf_store_coordinator k;
    *live = 0;
    if (mf_store_coord_get(s, &k, campaign) < 0) {
        printf("campaign %lld: not served (no coordinator has served it "
               "since the store had liveness: start one to resume it)\n",
               (long long)campaign);
        return;
    }
    int64_t now = mf_store_now_ms();
    const char *state = mf_store_coord_state(&k, now);
    if (!strcmp(state, "running") && gone_here(&k))
        state = "dead";
    char beat[32], ago[32];
    fmt_time(beat, sizeof beat, k.heartbeat_ms);
    fmt_ago(ago, sizeof ago, k.heartbeat_ms);
    if (!strcmp(state, "running")) {
        *live = 1;
        printf("campaign %lld: running (coordinator pid %d on %s, %s; "
               "heartbeat %s)\n",
               (long long)campaign, k.pid, k.host, k.endpoint, ago);
        char eta[32];
        fmt_secs(eta, sizeof eta, k.eta_s);
        if (k.rate > 0)
            printf("  rate: %.1f mutants/s, ETA %s; %d worker(s), %d "
                   "thread(s)\n", k.rate, eta, k.workers, k.threads);
        else
            printf("  rate: none measured yet; %d worker(s), %d "
                   "thread(s)\n", k.workers, k.threads);
    } else if (!strcmp(state, "stopped")) {
        printf("campaign %lld: stopped at %s (%s; coordinator pid %d on "
               "%s): the same command resumes it\n",
               (long long)campaign, beat, k.stop_reason, k.pid, k.host);
    } else {
        printf("campaign %lld: dead: coordinator pid %d on %s gave no "
               "heartbeat since %s (%s; liveness %.1f s): the same "
               "command resumes it\n",
               (long long)campaign, k.pid, k.host, beat, ago,
               (double)k.liveness_ms / 1000.0);
    }
}

static const char *state_name(mf_campaign_state s)
{
    switch (s) {
    case MF_CAMPAIGN_PLANNING: return "planning";
    case MF_CAMPAIGN_RUNNING: return "running";
    case MF_CAMPAIGN_DONE: return "complete";
    }
    return "?";
}

/* The statement `sql` on the store, its ?1 (if it has one) bound to id;
 * NULL if it cannot be prepared (then the section is left out). */
static sqlite3_stmt *query(mf_store *s, const char *sql, int64_t id)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(mf_store_db(s), sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    if (sqlite3_bind_parameter_count(st) > 0)
        sqlite3_bind_int64(st, 1, id);
    return st;
}

/* The survivors whose shortest kill is known past the bound
 * (docs/killing.md): how many and the lengths; nothing when none. */
static void print_beyond(mf_store *s, int64_t campaign)
{
    sqlite3_stmt *st = query(s,
                             "SELECT count(*), min(kill_len_beyond), "
                             "max(kill_len_beyond) FROM verdicts "
                             "WHERE campaign_id = ?1 AND kind = 'survived' "
                             "AND kill_len_beyond IS NOT NULL",
                             campaign);
    if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0))
        printf("  survived, killable beyond the bound: %lld (shortest kills "
               "%d to %d steps)\n",
               (long long)sqlite3_column_int64(st, 0),
               sqlite3_column_int(st, 1), sqlite3_column_int(st, 2));
    sqlite3_finalize(st);
}

/* What a nightly rerun took over from an earlier campaign (campaign_reuse,
 * docs/nightly.md); nothing for a campaign planned in full. */
static void print_reuse(mf_store *s, int64_t campaign)
{
    sqlite3_stmt *st = query(s,
                             "SELECT reuse, basis_id, carried, replay_killed, "
                             "to_solver FROM campaign_reuse "
                             "WHERE campaign_id = ?1",
                             campaign);
    if (st && sqlite3_step(st) == SQLITE_ROW) {
        const char *reuse = (const char *)sqlite3_column_text(st, 0);
        if (reuse && (!strcmp(reuse, "carry") || !strcmp(reuse, "replay")))
            printf("  taken over from campaign %lld: %d carried, %d killed "
                   "by its replayed tests; %d sent to the solver\n",
                   (long long)sqlite3_column_int64(st, 1),
                   sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
                   sqlite3_column_int(st, 4));
        else if (reuse && !strcmp(reuse, "fresh"))
            printf("  planned in full (--fresh)\n");
    }
    sqlite3_finalize(st);
}

/* Workers holding leases of the campaign (while its coordinator runs:
 * the leases of a dead one go back to the queue when it is resumed), and
 * the last verdict's time. */
static void print_activity(mf_store *s, int64_t campaign, int live)
{
    sqlite3_stmt *st = query(s,
                             "SELECT worker_id, count(*), min(lease_deadline) "
                             "FROM jobs WHERE campaign_id = ?1 AND state = "
                             "'leased' GROUP BY worker_id ORDER BY worker_id",
                             campaign);
    if (st && live) {
        int first = 1;
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (first)
                printf("  leases:\n");
            first = 0;
            char dl[32];
            fmt_time(dl, sizeof dl, sqlite3_column_int64(st, 2));
            printf("    %-32s %d job(s), deadline %s\n",
                   (const char *)sqlite3_column_text(st, 0),
                   sqlite3_column_int(st, 1), dl);
        }
    }
    sqlite3_finalize(st);
    st = query(s, "SELECT max(created_at) FROM verdicts WHERE campaign_id = ?1",
               campaign);
    if (st) {
        if (sqlite3_step(st) == SQLITE_ROW &&
            sqlite3_column_type(st, 0) != SQLITE_NULL) {
            char at[32], ago[32];
            int64_t ms = sqlite3_column_int64(st, 0);
            fmt_time(at, sizeof at, ms);
            fmt_ago(ago, sizeof ago, ms);
            printf("  last verdict: %s (%s)\n", at, ago);
        }
    }
    sqlite3_finalize(st);
}

static void print_workers(mf_store *s)
{
    sqlite3_stmt *st = query(s,
                             "SELECT id, coalesce(host, ''), threads, "
                             "last_seen, jobs_done FROM workers ORDER BY "
                             "last_seen DESC LIMIT 10",
                             0);
    if (!st)
        return;
    int first = 1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (first)
            printf("workers (latest 10, by last contact):\n");
        first = 0;
        char ago[32];
        fmt_ago(ago, sizeof ago, sqlite3_column_int64(st, 3));
        printf("  %-32s %-16s %3d thread(s)  last contact %-10s %d "
               "job(s)\n",
               (const char *)sqlite3_column_text(st, 0),
               (const char *)sqlite3_column_text(st, 1),
               sqlite3_column_int(st, 2), ago, sqlite3_column_int(st, 4));
    }
    sqlite3_finalize(st);
}

static void print_history(mf_store *s, int64_t shown)
{
    sqlite3_stmt *st = query(s,
                             "SELECT campaign_id, model, total, killed, "
                             "equivalent, survived, unknown, error, score "
                             "FROM campaign_scores WHERE campaign_id <> ?1 "
                             "ORDER BY campaign_id DESC LIMIT 10",
                             shown);
    if (!st)
        return;
    int first = 1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (first)
            printf("other campaigns in this file (latest 10):\n"
                   "  %-4s %-24s %7s %7s %7s %7s %7s %7s %7s\n", "id",
                   "model", "total", "killed", "equiv", "surv", "unknown",
                   "error", "score");
        first = 0;
        char score[16] = "n/a";
        if (sqlite3_column_type(st, 8) != SQLITE_NULL)
            snprintf(score, sizeof score, "%.1f%%",
                     100.0 * sqlite3_column_double(st, 8));
        printf("  %-4lld %-24.24s %7d %7d %7d %7d %7d %7d %7s\n",
               (long long)sqlite3_column_int64(st, 0),
               (const char *)sqlite3_column_text(st, 1),
               sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
               sqlite3_column_int(st, 4), sqlite3_column_int(st, 5),
               sqlite3_column_int(st, 6), sqlite3_column_int(st, 7), score);
    }
    sqlite3_finalize(st);
}

int mf_cmd_status(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *dbpath = NULL;
    int64_t campaign = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': dbpath = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "status", "--campaign", optarg,
                              INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            return mf_cli_unknown_option("status", argv[optind - 1]);
        }
    }
    if (optind != argc) {
        return mf_cli_extra_argument("status", argv[optind]);
    }
    if (!dbpath) {
        fprintf(stderr, "mutfarm status: give the store with --db FILE\n");
        return MF_EXIT_USAGE;
    }
    mf_store *s = NULL;
    int rc = mf_store_open(&s, dbpath, MF_STORE_READONLY, 5000);
    if (rc < 0) {
        fprintf(stderr, "mutfarm status: %s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    int code = MF_EXIT_OK;
    if (!campaign && mf_store_campaign_latest(s, &campaign) < 0) {
        fprintf(stderr, "mutfarm status: %s holds no campaign yet\n", dbpath);
        code = MF_EXIT_USAGE;
        goto done;
    }
    mf_store_campaign_info ci;
    rc = mf_store_campaign_get(s, &ci, campaign);
    if (rc < 0) {
        fprintf(stderr, "mutfarm status: %s\n", mf_err_msg());
        code = rc == MF_ENOTFOUND ? MF_EXIT_USAGE : MF_EXIT_INTERNAL;
        goto done;
    }
    mf_store_counts k;
    rc = mf_store_counts_get(s, &k, campaign);
    if (rc < 0) {
        fprintf(stderr, "mutfarm status: %s\n", mf_err_msg());
        code = MF_EXIT_INTERNAL;
        goto done;
    }
    char created[32], finished[32];
    fmt_time(created, sizeof created, ci.created_ms);
    fmt_time(finished, sizeof finished, ci.finished_ms);
    int live = 0;
    if (ci.state == MF_CAMPAIGN_RUNNING)
        print_liveness(s, campaign, &live);
    else
        printf("campaign %lld: %s\n", (long long)ci.id,
               state_name(ci.state));
    printf("  model: %s (sha256 %.16s...)\n", ci.model, ci.model_hash);
    printf("  options: %s\n", ci.options);
    printf("  mutfarm %s, z3 %s\n", ci.mutfarm_version[0] ? ci.mutfarm_version
                                                          : "?",
           ci.z3_version[0] ? ci.z3_version : "?");
    printf("  started %s%s%s\n", created,
           ci.finished_ms ? ", finished " : "", ci.finished_ms ? finished : "");
    double pct = k.total ? 100.0 * (double)k.done / (double)k.total : 100.0;
    printf("  decided: %lld of %lld (%.1f%%)\n", (long long)k.done,
           (long long)k.total, pct);
    printf("  verdicts: %lld killed, %lld equivalent, %lld survived, %lld "
           "unknown, %lld error\n",
           (long long)k.killed, (long long)k.equivalent,
           (long long)k.survived, (long long)k.unknown, (long long)k.error);
    print_beyond(s, campaign);
    printf("  not checked: %lld duplicate, %lld stillborn\n",
           (long long)k.duplicate, (long long)k.stillborn);
    print_reuse(s, campaign);
    if (k.score >= 0)
        printf("  mutation score: %.1f%%%s\n", 100.0 * k.score,
               ci.state == MF_CAMPAIGN_DONE ? "" : " so far");
    else
        printf("  mutation score: n/a\n");
    printf("  jobs: %lld pending, %lld leased, %lld done, %lld quarantined; "
           "%lld mutants not in a job yet\n",
           (long long)k.jobs_pending, (long long)k.jobs_leased,
           (long long)k.jobs_done, (long long)k.jobs_quarantined,
           (long long)k.unplanned);
    if (ci.state != MF_CAMPAIGN_DONE)
        print_activity(s, campaign, live);
    print_workers(s);
    print_history(s, campaign);
done:
    mf_store_close(s);
    return code;
}
