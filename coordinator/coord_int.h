/* coord_int.h - what the coordinator's files share inside coordinator/:
 * the state of one served campaign (server.c opens it, serves it through
 * the farm's loop and draws its progress; plan.c plans it into the store;
 * campaign.c is the campaign as a kind of farm work, farm/kind.h). Not
 * for use outside coordinator/. */
#ifndef MF_COORD_INT_H
#define MF_COORD_INT_H

#include <stdint.h>

#include "engine.h"
#include "farm.h"
#include "liveness.h"
#include "model.h"
#include "server.h"
#include "store.h"
#include "verify.h"

struct mf_coord {
    mf_coord_opts o;
    mf_config cfg;
    const char *cmd;
    char *model_text;                 /* the file as read (sent in jobs) */
    size_t model_len;
    char model_sha[65];               /* SHA-256 of model_text */
    char model_name[256];             /* base name */
    mf_model *model;
    char *inputs_buf, *observe_buf;   /* split copies of cfg lists */
    MF_VEC(const char *) inputs;
    MF_VEC(const char *) observe;
    mf_engine_opts eo;
    unsigned mask;                    /* operators */
    const char *crash_on;             /* MF_TEST_CRASH_ON (tests only) */

    mf_store *st;
    int64_t model_id;
    mf_buf options;                   /* the campaign's options key */
    mf_store_campaign camp;
    mf_store_reuse reuse;             /* what it took over (rerun.h) */
    int has_reuse;                    /* reuse is recorded */
    int z3_recorded;

    mf_farm *farm;                    /* the serving loop, its socket */
    mf_verify *verify;                /* replays kills before storing */

    /* Tallies between count refreshes (mf_store_counts_get). */
    mf_store_counts counts;
    int64_t unplanned;                /* mutants not in any job, estimate */
    int64_t done_start;               /* counts.done when we started */
    double cost_ms;                   /* measured ms per mutant, 0: none */
    int proven;                       /* largest job size answered so far */
    int64_t next_recount;             /* monotonic ms: housekeep recounts */
    MF_VEC(char *) ids;               /* the mutant ids of the job cut */
    int nids;

    /* A result between check and commit (campaign.c). */
    mf_verdict *v;
    mf_store_verdict *sv;
    size_t nv;

    /* Progress: samples of (time, done) for the rate. */
    int64_t rate_t[32];
    int64_t rate_done[32];
    int rate_n, rate_i;
    int64_t next_log;                 /* monotonic ms: progress log line due */

    int complete;
    mf_live *live;                    /* our row in the store (liveness.c) */
};

/* The campaign as a kind of farm work (campaign.c). */
extern const mf_farm_kind mf_campaign_kind;

/* Counts may have changed behind the tallies: read them from the store
 * (campaign.c). */
int mf_coord_refresh_counts(mf_coord *c);

/* Plan the campaign into the store: its mutants (all, or a sample),
 * what an earlier campaign gives (rerun.h), then a line or two on stderr
 * (plan.c). */
int mf_coord_plan(mf_coord *c);

#endif
