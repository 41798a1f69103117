/* server.h - the coordinator of the farm: one campaign served to workers
 * over a ZeroMQ ROUTER socket, as a kind of farm work (campaign.c) on the
 * farm's serving loop (farm/farm.h; docs/architecture.md,
 * docs/protocol.md, docs/running.md).
 *
 * It plans the campaign into the store (every mutant of the model streamed
 * into SQLite, duplicates and stillborn ones recorded and never sent; with
 * [campaign] sample, evenly spaced ones only), taking over what an earlier
 * finished campaign of the model decided (coordinator/rerun.h: verdicts
 * carried, stored tests replayed) before any job is cut, or resumes the
 * unfinished campaign of the same model and options in the same file; cuts
 * jobs by site with an adaptive size (a few seconds a job, the
 * tail cut finer); hands them out on credit under leases; exchanges
 * heartbeats (the ZeroMQ guide's Paranoid Pirate); puts back the jobs of a
 * worker that went silent or whose lease ran out; quarantines a job that
 * failed max_attempts times; commits every result before acknowledging it
 * (Titanic), idempotently. Whatever a peer sends is validated: a frame that
 * does not decode, speaks another protocol version, is oversized or names
 * an unknown job is refused with a Reject and one log line on stderr.
 *
 * Memory does not grow with the campaign: mutants and jobs live in the
 * store; only the connected workers are held in memory.
 *
 * It does not fork workers (cli/cmd_run.c does) and parses no command
 * line (cli/farm_cli.c does, for `run` and `coordinator`). */
#ifndef MF_SERVER_H
#define MF_SERVER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"

typedef struct mf_coord mf_coord;

/* Where a campaign stands, for progress lines and summaries. */
typedef struct {
    int64_t campaign_id;
    int resumed;            /* an unfinished campaign was picked up */
    int64_t total;          /* mutants to decide */
    int64_t done;           /* with a final verdict */
    int64_t killed, equivalent, survived, unknown, error;
    int64_t duplicate, stillborn;
    int64_t done_here;      /* decided since this process started */
    int workers;            /* connected workers */
    int threads;            /* their threads */
    double rate;            /* mutants per second, recent; 0 unknown */
    double eta_s;           /* seconds to completion; < 0 unknown */
    double score;           /* killed / (killed + survived + unknown); -1
                               when that is 0 */
    int complete;           /* every mutant has its final verdict */
    /* What the campaign took over from an earlier one (docs/nightly.md) */
    const char *reuse;      /* "fresh", "none", "carry", "replay"; NULL: not
                               recorded (planned by an older mutfarm) */
    int64_t basis;          /* that earlier campaign, 0 none */
    int64_t carried;        /* verdicts carried over from it */
    int64_t replay_tests;   /* its tests replayed on the mutants */
    int64_t replay_killed;  /* mutants killed by one of them */
    int64_t to_solver;      /* mutants left to the workers */
} mf_coord_progress;

/* Called from the serving loop about every progress_ms and once more at
 * the end. Return non-zero to stop serving (mf_coord_serve returns 1). */
typedef int (*mf_coord_tick_fn)(mf_coord *c, const mf_coord_progress *p,
                                void *ctx);

typedef struct {
    const char *model_path;   /* the SMV file */
    const mf_config *cfg;     /* campaign options, farm knobs, bind, db */
    const char *cmd;          /* log prefix: "mutfarm coordinator" */
    int progress_tty;         /* draw a progress line on stderr */
    int verbose;              /* log every message */
    int quiet;                /* no routine lines (workers joining or
                                 leaving, waiting): `run` owns its workers */
    unsigned progress_ms;     /* tick interval (0: 250) */
    unsigned progress_log_ms; /* without progress_tty: a progress log line
                                 this often (0: none) */
    int fresh;                /* a new campaign takes nothing over from an
                                 earlier one (docs/nightly.md) */
    mf_coord_tick_fn tick;    /* may be NULL */
    void *tick_ctx;
    volatile sig_atomic_t *stop; /* set (by a signal handler): stop
                                    serving, return 1; may be NULL */
} mf_coord_opts;

/* Load the model, bind the socket, open the store, then plan the campaign
 * (or resume it); a failure before planning leaves the store untouched.
 * On success *out is the coordinator, ready to serve. Returns 0, or
 * MF_EPARSE / MF_ETYPE / MF_EUNSUPPORTED / MF_ENOTFOUND / MF_EIO for what
 * the user must fix (the model or its options, a malformed endpoint or one
 * in use, a store that is not ours or from a newer mutfarm), MF_ERROR for
 * an internal failure (ZeroMQ, SQLite), each with a message in
 * mf_err_msg(); *out is NULL then. The options and the config are
 * copied. */
int mf_coord_open(mf_coord **out, const mf_coord_opts *o);

/* The endpoint actually bound ("tcp://0.0.0.0:40213" for a bind to port *),
 * for workers to connect to. */
const char *mf_coord_endpoint(const mf_coord *c);

/* The store file. */
const char *mf_coord_db(const mf_coord *c);

/* Serve until the campaign is complete: then every connected worker is
 * told Bye and it returns 0. Returns 1 if stopped first (*o->stop, or the
 * tick callback): leases stay in the store and a later coordinator on the
 * same file resumes. A negative code (store failure) with a message. With
 * no worker connected it waits. */
int mf_coord_serve(mf_coord *c);

/* The campaign's state now (counts are refreshed from the store). */
void mf_coord_progress_get(mf_coord *c, mf_coord_progress *out);

/* The final summary of a campaign (score, counts, where the file is and
 * what to query next) as a few lines. */
void mf_coord_summary(FILE *f, const mf_coord_progress *p, const char *db);

/* Close the socket and the store; NULL-safe. */
void mf_coord_free(mf_coord *c);

#endif
