/* liveness.c - the coordinator's heartbeat in the store (liveness.h): one
 * row per serving process, its heartbeat and progress written every beat,
 * its clean exit recorded. A coordinator killed with SIGKILL simply stops
 * beating, and `mutfarm status` calls it dead once liveness_ms have passed
 * (docs/running.md). */
#include "liveness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mf.h"

struct mf_live {
    mf_store *st;
    mf_store_coordinator row; /* id, and the progress last written */
    int64_t next_beat;        /* monotonic ms: heartbeat due */
};

int mf_live_start(mf_live **out, mf_store *st, int64_t campaign,
                  const char *endpoint, unsigned beat_ms,
                  unsigned liveness_ms)
{
    *out = NULL;
    mf_live *l = mf_xcalloc(1, sizeof *l);
    l->st = st;
    l->row.campaign_id = campaign;
    l->row.pid = (int)getpid();
    if (gethostname(l->row.host, sizeof l->row.host - 1) != 0)
        snprintf(l->row.host, sizeof l->row.host, "?");
    snprintf(l->row.endpoint, sizeof l->row.endpoint, "%s", endpoint);
    l->row.beat_ms = beat_ms;
    l->row.liveness_ms = liveness_ms;
    l->row.rate = -1;
    l->row.eta_s = -1;
    int rc = mf_store_coord_start(st, &l->row.id, &l->row);
    if (rc < 0) {
        free(l);
        return rc;
    }
    *out = l;
    return 0;
}

int mf_live_beat(mf_live *l, int64_t mono_ms, const mf_coord_progress *p)
{
    if (!l || mono_ms < l->next_beat)
        return 0;
    l->next_beat = mono_ms + l->row.beat_ms;
    l->row.done = p->done;
    l->row.total = p->total;
    l->row.rate = p->rate > 0 ? p->rate : -1;
    l->row.eta_s = p->eta_s;
    l->row.workers = p->workers;
    l->row.threads = p->threads;
    return mf_store_coord_beat(l->st, &l->row);
}

int mf_live_stop(mf_live *l, const char *reason)
{
    return l ? mf_store_coord_stop(l->st, l->row.id, reason) : 0;
}

void mf_live_free(mf_live *l)
{
    free(l);
}
