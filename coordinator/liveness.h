/* liveness.h - the serving coordinator's sign of life in the store: a row
 * with its pid, host and endpoint, a heartbeat with the progress every
 * beat, and how it ended (schema/004_liveness.sql, docs/running.md). The
 * coordinator's tick on the farm's loop (server.c) calls it; `mutfarm
 * status` reads the row. It touches no job and no verdict. */
#ifndef MF_LIVENESS_H
#define MF_LIVENESS_H

#include <stdint.h>

#include "server.h"
#include "store.h"

typedef struct mf_live mf_live;

/* Record a coordinator serving `campaign` on `endpoint` in st: this
 * process's pid and host, a heartbeat every beat_ms, dead for readers
 * after liveness_ms without one. 0 and *out (freed by mf_live_free), or
 * a store failure. */
int mf_live_start(mf_live **out, mf_store *st, int64_t campaign,
                  const char *endpoint, unsigned beat_ms,
                  unsigned liveness_ms);

/* Write a heartbeat with progress p if one is due at mono_ms (monotonic
 * milliseconds); nothing otherwise. A failed write is returned (the
 * caller decides whether that stops it). */
int mf_live_beat(mf_live *l, int64_t mono_ms, const mf_coord_progress *p);

/* The coordinator exits by itself for `reason` ("complete", "stopped",
 * "failed"). NULL-safe. */
int mf_live_stop(mf_live *l, const char *reason);

void mf_live_free(mf_live *l); /* NULL-safe */

#endif
