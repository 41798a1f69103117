/* server.c - the coordinator: one campaign served to stateless workers
 * through the farm's serving loop (server.h, farm/farm.h,
 * docs/protocol.md).
 *
 * It loads the model, binds the farm's socket, opens the store and the
 * campaign (planned by plan.c, or resumed), and serves the campaign as a
 * kind of farm work (campaign.c); on the loop's tick it samples the rate,
 * writes the coordinator's heartbeat into the store (liveness.c) and
 * draws the progress line or logs it. The store is the only record of
 * the campaign: nothing about mutants or jobs is kept in memory except
 * tallies for the progress line.
 *
 * It does not start workers and does not draw anything but one progress
 * line (cmd_run.c and cmd_coordinator.c own the terminal). */
#include "coord_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "langs.h"
#include "mf.h"
#include "mutate.h"

#ifndef MF_VERSION
#define MF_VERSION "unknown"
#endif

#define say(c, ...) mf_farm_say((c)->farm, __VA_ARGS__)

/* ---- opening -------------------------------------------------------------- */

/* Split "a, b,c" into names pointing into a copy kept in *buf. */
static void split_list(char **buf, void *vec_, const char *s)
{
    MF_VEC(const char *) *vec = vec_;
    *buf = mf_xstrdup(s);
    for (char *save = NULL, *t = strtok_r(*buf, ", ", &save); t;
         t = strtok_r(NULL, ", ", &save))
        MF_VEC_PUSH(*vec, t);
}

static int load_model(mf_coord *c)
{
    /* the model's text as its language gathers it (an Ecdar project
     * folder is one bundled text), so that workers read the same */
    int rc = mf_model_read_text(&c->model_text, &c->model_len,
                                c->o.model_path, NULL, MF_WIRE_MAX_FRAME / 2);
    if (rc < 0)
        return rc;
    mf_sha256_hex(c->model_sha, c->model_text, c->model_len);
    const char *base = strrchr(c->o.model_path, '/');
    snprintf(c->model_name, sizeof c->model_name, "%s",
             base ? base + 1 : c->o.model_path);
    if (c->cfg.inputs[0])
        split_list(&c->inputs_buf, &c->inputs, c->cfg.inputs);
    if (c->cfg.observe[0])
        split_list(&c->observe_buf, &c->observe, c->cfg.observe);
    mf_model_opts mo = {0};
    mo.inputs = c->inputs.v;
    mo.ninputs = c->inputs.n;
    mo.observe = c->observe.v;
    mo.nobserve = c->observe.n;
    rc = mf_model_load(&c->model, c->o.model_path, c->model_text,
                       c->model_len, &mo);
    if (rc < 0)
        return rc;
    if (c->model->lang->no_farm)
        return mf_err_set(MF_EUNSUPPORTED,
                          "%s: a timed automaton: `mutfarm check` decides "
                          "its mutants on this machine; campaigns on the "
                          "farm do not take timed models yet",
                          c->o.model_path);
    if (c->cfg.operators[0]) {
        rc = mf_mutant_ops_parse(c->model, &c->mask, c->cfg.operators);
        if (rc < 0)
            return rc;
    }
    mf_config_engine_opts(&c->cfg, &c->eo);
    return 0;
}

static int tick(mf_farm *f, int64_t now, void *ctx);

/* The farm's socket, bound with the campaign's [farm] and [security]
 * settings. */
static int bind_farm(mf_coord *c)
{
    mf_farm_opts fo = {0};
    fo.bind = c->cfg.bind;
    fo.cfg = &c->cfg;
    fo.cmd = c->cmd;
    fo.heartbeat_ms = c->cfg.heartbeat_ms;
    fo.liveness = c->cfg.liveness;
    fo.lease_ms = c->cfg.lease_ms;
    fo.verbose = c->o.verbose;
    fo.quiet = c->o.quiet;
    fo.tick_ms = c->o.progress_ms;
    fo.tick = tick;
    fo.tick_ctx = c;
    fo.stop = c->o.stop;
    return mf_farm_open(&c->farm, &fo);
}

/* Resume the campaign of this model and these options, or create it. */
static int open_campaign(mf_coord *c, int64_t model_id)
{
    mf_buf ops = {0};
    int rc = mf_config_campaign_key(&c->cfg, &ops, &c->options);
    if (rc == 0) {
        mf_store_campaign_key key = {c->cfg.bound,
                                     mf_config_notion_name(c->cfg.notion),
                                     ops.data, c->options.data};
        rc = mf_store_campaign_open(c->st, &c->camp, model_id, &key,
                                    MF_VERSION, NULL);
    }
    mf_buf_free(&ops);
    return rc;
}

int mf_coord_open(mf_coord **out, const mf_coord_opts *o)
{
    *out = NULL;
    mf_coord *c = mf_xcalloc(1, sizeof *c);
    c->o = *o;
    c->cfg = *o->cfg;
    c->o.cfg = &c->cfg;
    c->cmd = o->cmd ? o->cmd : "mutfarm coordinator";
    if (!c->o.progress_ms)
        c->o.progress_ms = 250;
    if (c->cfg.heartbeat_ms < 10)
        c->cfg.heartbeat_ms = 10;
    if (c->cfg.liveness < 1)
        c->cfg.liveness = 1;
    if (c->cfg.max_attempts < 1)
        c->cfg.max_attempts = 1;
    if (c->cfg.job_min < 1)
        c->cfg.job_min = 1;
    if (c->cfg.job_max < c->cfg.job_min)
        c->cfg.job_max = c->cfg.job_min;
    const char *crash = getenv("MF_TEST_CRASH_ON");
    c->crash_on = crash && *crash ? crash : NULL;

    int rc = load_model(c);
    if (rc == MF_ERROR) /* the model or the options given for it */
        rc = MF_EPARSE;
    if (rc < 0)
        goto fail;
    /* Bind before the store is touched: a port in use leaves no campaign
     * behind. Workers that come up meanwhile queue their Hello in ZeroMQ
     * and are served as soon as the plan is stored. */
    rc = bind_farm(c);
    if (rc < 0)
        goto fail;
    c->verify = mf_verify_new(c->model, c->cfg.notion);
    rc = mf_store_open(&c->st, c->cfg.db, 0, c->cfg.busy_timeout_ms);
    if (rc < 0)
        goto fail;
    rc = mf_store_model_put(c->st, &c->model_id, c->model->hash,
                            c->model_name, c->model_text, c->model_len);
    if (rc < 0)
        goto fail;
    rc = open_campaign(c, c->model_id);
    if (rc < 0)
        goto fail;
    if (c->camp.state == MF_CAMPAIGN_PLANNING) {
        rc = mf_coord_plan(c);
        if (rc < 0)
            goto fail;
    } else {
        rc = mf_store_reuse_get(c->st, &c->reuse, c->camp.id);
        c->has_reuse = rc == 0;
        if (rc < 0 && rc != MF_ENOTFOUND)
            goto fail;
    }
    mf_farm_add(c->farm, &mf_campaign_kind, c);
    mf_farm_use_store(c->farm, c->st);
    rc = mf_coord_refresh_counts(c);
    if (rc < 0)
        goto fail;
    c->done_start = c->counts.done;
    if (c->camp.resumed)
        say(c, "resuming campaign %lld of %s in %s: %lld of %lld mutants "
                "already decided, %d job(s) put back in the queue",
             (long long)c->camp.id, c->model_name, c->cfg.db,
             (long long)c->counts.done, (long long)c->counts.total,
             c->camp.requeued);
    unsigned live_ms = c->cfg.heartbeat_ms * (unsigned)c->cfg.liveness;
    rc = mf_live_start(&c->live, c->st, c->camp.id, mf_coord_endpoint(c),
                       c->cfg.heartbeat_ms,
                       live_ms > 3 * c->cfg.heartbeat_ms
                           ? live_ms
                           : 3 * c->cfg.heartbeat_ms);
    if (rc < 0)
        goto fail;
    *out = c;
    return 0;
fail:
    mf_coord_free(c);
    return rc;
}

const char *mf_coord_endpoint(const mf_coord *c)
{
    return mf_farm_endpoint(c->farm);
}

const char *mf_coord_db(const mf_coord *c)
{
    return c->cfg.db;
}

void mf_coord_free(mf_coord *c)
{
    if (!c)
        return;
    mf_farm_free(c->farm);
    mf_live_free(c->live);
    mf_verify_free(c->verify);
    mf_store_close(c->st);
    mf_buf_free(&c->options);
    mf_model_free(c->model);
    free(c->model_text);
    free(c->inputs_buf);
    free(c->observe_buf);
    MF_VEC_FREE(c->inputs);
    MF_VEC_FREE(c->observe);
    for (int i = 0; i < c->ids.n; i++)
        free(c->ids.v[i]);
    MF_VEC_FREE(c->ids);
    free(c->v);
    free(c->sv);
    free(c);
}

/* ---- progress ------------------------------------------------------------- */

/* The counts mf_coord_progress takes from mf_store_counts, by name. */
#define PROGRESS_COUNTS(X)                                                     \
    X(total) X(done) X(killed) X(equivalent) X(survived) X(unknown) X(error)  \
    X(duplicate) X(stillborn)

static void fill_progress(mf_coord *c, mf_coord_progress *p)
{
    memset(p, 0, sizeof *p);
    const mf_store_counts *k = &c->counts;
    p->campaign_id = c->camp.id;
    p->resumed = c->camp.resumed;
#define COPY(f) p->f = k->f;
    PROGRESS_COUNTS(COPY)
#undef COPY
    p->done_here = k->done - c->done_start;
    p->workers = mf_farm_workers(c->farm, NULL, &p->threads);
    int64_t den = k->killed + k->survived + k->unknown;
    p->score = den ? (double)k->killed / (double)den : -1;
    p->complete = c->complete;
    if (c->has_reuse) {
        p->reuse = mf_reuse_name(c->reuse.mode);
        p->basis = c->reuse.basis;
        p->carried = c->reuse.carried;
        p->replay_tests = c->reuse.replay_tests;
        p->replay_killed = c->reuse.replay_killed;
        p->to_solver = c->reuse.to_solver;
    }
    p->eta_s = -1;
    if (c->rate_n >= 2) {
        int last = (c->rate_i + 31) % 32;
        int first = c->rate_n < 32 ? 0 : c->rate_i;
        int64_t dt = c->rate_t[last] - c->rate_t[first];
        int64_t dd = c->rate_done[last] - c->rate_done[first];
        if (dt > 0 && dd > 0) {
            p->rate = (double)dd * 1000.0 / (double)dt;
            p->eta_s = (double)(k->total - k->done) / p->rate;
        }
    }
}

/* One sample a second for the rate, 32 kept: a half-minute window. */
static void sample_rate(mf_coord *c, int64_t now)
{
    int last = (c->rate_i + 31) % 32;
    if (c->rate_n > 0 && now - c->rate_t[last] < 1000)
        return;
    c->rate_t[c->rate_i] = now;
    c->rate_done[c->rate_i] = c->counts.done;
    c->rate_i = (c->rate_i + 1) % 32;
    if (c->rate_n < 32)
        c->rate_n++;
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

static void draw_line(mf_coord *c, const mf_coord_progress *p)
{
    char eta[32], line[256];
    fmt_secs(eta, sizeof eta, p->eta_s);
    double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;
    snprintf(line, sizeof line,
             "%lld/%lld (%.1f%%)  killed %lld  equivalent %lld  %.1f/s  ETA "
             "%s  %d worker%s",
             (long long)p->done, (long long)p->total, pct,
             (long long)p->killed, (long long)p->equivalent, p->rate, eta,
             p->workers, p->workers == 1 ? "" : "s");
    mf_farm_line(c->farm, line);
}

/* The progress as one log line, for a stderr that is not a terminal (cron,
 * CI, SLURM): a line every progress_log_ms. */
static void log_line(mf_coord *c, const mf_coord_progress *p)
{
    char eta[32];
    fmt_secs(eta, sizeof eta, p->eta_s);
    double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;
    mf_buf reuse = {0};
    if (p->reuse)
        mf_buf_printf(&reuse, "; %lld carried, %lld killed by replayed "
                              "tests, %lld to the workers",
                      (long long)p->carried, (long long)p->replay_killed,
                      (long long)p->to_solver);
    say(c, "campaign %lld: %lld/%lld decided (%.1f%%): %lld killed, %lld "
           "equivalent, %lld survived, %lld unknown, %lld error; %.1f/s, "
           "ETA %s%s; %d worker%s",
        (long long)p->campaign_id, (long long)p->done, (long long)p->total,
        pct, (long long)p->killed, (long long)p->equivalent,
        (long long)p->survived, (long long)p->unknown, (long long)p->error,
        p->rate, eta, reuse.data ? reuse.data : "", p->workers,
        p->workers == 1 ? "" : "s");
    mf_buf_free(&reuse);
}

void mf_coord_progress_get(mf_coord *c, mf_coord_progress *out)
{
    if (mf_coord_refresh_counts(c) < 0)
        say(c, "%s", mf_err_msg());
    fill_progress(c, out);
}

void mf_coord_summary(FILE *f, const mf_coord_progress *p, const char *db)
{
    fprintf(f, "campaign %lld: %s\n", (long long)p->campaign_id,
            p->complete ? "complete" : "not complete");
    fprintf(f, "  %lld mutants decided of %lld: %lld killed, %lld "
               "equivalent, %lld survived, %lld unknown, %lld error\n",
            (long long)p->done, (long long)p->total, (long long)p->killed,
            (long long)p->equivalent, (long long)p->survived,
            (long long)p->unknown, (long long)p->error);
    fprintf(f, "  not checked: %lld duplicate, %lld stillborn\n",
            (long long)p->duplicate, (long long)p->stillborn);
    if (p->reuse && p->basis)
        fprintf(f, "  taken over from campaign %lld: %lld carried, %lld "
                   "killed by its replayed tests; %lld sent to the solver\n",
                (long long)p->basis, (long long)p->carried,
                (long long)p->replay_killed, (long long)p->to_solver);
    else if (p->reuse)
        fprintf(f, "  nothing taken over (%s): %lld sent to the solver\n",
                !strcmp(p->reuse, "fresh")
                    ? "--fresh"
                    : "no earlier finished campaign of the model",
                (long long)p->to_solver);
    if (p->score >= 0)
        fprintf(f, "  mutation score: %.1f%% (killed / (killed + survived + "
                   "unknown))\n",
                100.0 * p->score);
    else
        fprintf(f, "  mutation score: n/a (nothing killed, survived or "
                   "unknown)\n");
    fprintf(f, "  store: %s (sqlite3 %s 'SELECT * FROM survivors')\n", db, db);
}


/* ---- the loop ------------------------------------------------------------- */

/* The farm loop's tick: the rate, the heartbeat in the store, the
 * progress line or log line, the caller's tick. */
static int tick(mf_farm *f, int64_t now, void *ctx)
{
    (void)f;
    mf_coord *c = ctx;
    mf_coord_progress pr;
    sample_rate(c, now);
    fill_progress(c, &pr);
    if (mf_live_beat(c->live, now, &pr) < 0)
        say(c, "%s", mf_err_msg());
    if (c->o.progress_tty) {
        draw_line(c, &pr);
    } else if (c->o.progress_log_ms && now >= c->next_log) {
        c->next_log = now + c->o.progress_log_ms;
        log_line(c, &pr);
    }
    return c->o.tick && c->o.tick(c, &pr, c->o.tick_ctx);
}

int mf_coord_serve(mf_coord *c)
{
    mf_coord_progress pr;
    c->next_log = mf_farm_now_ms() + c->o.progress_log_ms;
    if (mf_farm_workers(c->farm, NULL, NULL) == 0 && !c->o.quiet &&
        c->counts.done < c->counts.total)
        say(c, "serving campaign %lld (%lld mutants to decide) on %s; "
               "waiting for workers",
            (long long)c->camp.id,
            (long long)(c->counts.total - c->counts.done),
            mf_coord_endpoint(c));
    int rc = mf_farm_serve(c->farm);
    if (rc < 0) {
        mf_farm_line_clear(c->farm);
        char why[1024];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        mf_live_stop(c->live, "failed");
        mf_err_set(rc, "%s", why);
        return rc;
    }
    if (rc == 1) {
        mf_farm_line_clear(c->farm);
        if (mf_live_stop(c->live, "stopped") < 0)
            say(c, "%s", mf_err_msg());
        say(c, "stopped; campaign %lld resumes from %s with the same "
               "command",
            (long long)c->camp.id, c->cfg.db);
        return 1;
    }
    sample_rate(c, mf_farm_now_ms());
    fill_progress(c, &pr);
    if (mf_live_stop(c->live, "complete") < 0)
        say(c, "%s", mf_err_msg());
    mf_farm_line_clear(c->farm);
    if (c->o.tick)
        c->o.tick(c, &pr, c->o.tick_ctx);
    return 0;
}
