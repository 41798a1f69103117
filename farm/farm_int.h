/* farm_int.h - what the files of farm/ share inside the folder: the
 * server's state, its workers, and the functions one file gives another
 * (net.c: the socket, frames in and out, log lines; peers.c: Hello, the
 * workers' messages and their leases; serve.c: batches, dispatch, timers
 * and the loop). Not for use outside farm/. */
#ifndef MF_FARM_INT_H
#define MF_FARM_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "cutoff.h"
#include "farm.h"
#include "outbox.h"
#include "store.h"
#include "wire.h"
#include "zap.h"

#define MF_FARM_MAX_KINDS 8

/* A connected worker. */
typedef struct {
    uint8_t rid[256];                 /* ROUTER routing id */
    size_t rid_len;
    char id[MF_STORE_WORKER_ID];      /* worker_id from Hello */
    char host[64];
    int threads;                      /* from Hello, >= 1 */
    int credit;                       /* jobs we may still send */
    unsigned kinds;                   /* bit i: takes the farm's kind i */
    int64_t expires;                  /* monotonic ms: dead after this */
    int64_t next_hb;                  /* monotonic ms: heartbeat due */
    int64_t seen_at;                  /* monotonic ms: last store update */
} mf_farm_peer;

typedef struct {
    const mf_farm_kind *k;
    void *ctx;
    int dry;                          /* next found nothing to hand out */
} mf_farm_work;

struct mf_farm {
    mf_farm_opts o;
    const char *cmd;
    mf_farm_work work[MF_FARM_MAX_KINDS];
    int nwork;
    mf_store *st;                     /* batches and workers; may be NULL */

    void *zctx, *sock;
    void *mon;                        /* PAIR: the ROUTER's monitor events */
    char endpoint[512];
    MF_VEC(int) seen_fds;             /* connections a frame came from */
    mf_zap *zap;                      /* CURVE's ZAP handler; NULL: off */
    mf_cutoff *cut;                   /* refused results per worker */
    const char *msg_key;              /* CURVE key of the message at hand */

    MF_VEC(mf_farm_peer) peers;
    int rr;                           /* round-robin start for dispatch */

    int line_shown;                   /* a progress line is on stderr */
    int64_t grace_at;                 /* monotonic ms: last grace */
    /* Log throttling. */
    int64_t log_sec;
    int log_count, log_suppressed;

    /* One batch per wake-up: frames wait in the outbox until its store
     * transaction is committed. */
    mf_outbox *out;
    int batching;                     /* a batch is open: frames are held */
    int64_t send_job;                 /* the job of the frame being sent */
    int send_attempt;
    int send_tag;                     /* its kind */
    int flush_rc;                     /* a failure while flushing */
};

/* ---- net.c ---------------------------------------------------------------- */

/* What takes one message (routing id + one frame) off the socket. */
typedef int (*mf_farm_msg_fn)(mf_farm *f, const uint8_t *rid,
                              size_t rid_len, const void *data, size_t len);

mf_farm_peer *mf_farm_find_rid(mf_farm *f, const uint8_t *rid, size_t len);

void mf_farm_say_peer(mf_farm *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "worker host-123", or "peer 0x00800041a7" for one without Hello. */
const char *mf_farm_peer_name(char *buf, size_t n, const uint8_t *rid,
                              size_t rid_len, const mf_farm_peer *p);
/* Send one frame to a routing id (held in the outbox while a batch is
 * open); never blocks. 0, or -1 with errno (EHOSTUNREACH: the peer is
 * gone; EAGAIN: its queue is full). */
int mf_farm_send_raw(mf_farm *f, const uint8_t *rid, size_t rid_len,
                     const uint8_t *buf, size_t len);
/* Send an encoded frame (freed here; rc < 0 or NULL: it could not be
 * encoded) to a known peer; resets its heartbeat clock. */
int mf_farm_send_peer(mf_farm *f, mf_farm_peer *p, uint8_t *buf,
                      size_t len, int rc);
void mf_farm_send_reject(mf_farm *f, const uint8_t *rid, size_t rid_len,
                         Mutfarm__V1__RejectCode code, const char *reason,
                         uint64_t job, uint32_t attempt);
/* Everything waiting on the socket (a bounded number of messages), each
 * to on_message; and the monitor's events. */
int mf_farm_drain(mf_farm *f, mf_farm_msg_fn on_message);
void mf_farm_drain_monitor(mf_farm *f);

/* ---- peers.c -------------------------------------------------------------- */

void mf_farm_remove_peer(mf_farm *f, mf_farm_peer *p);
/* A kind's view of worker p. */
mf_farm_worker mf_farm_worker_of(const mf_farm *f, const mf_farm_peer *p);
/* Every lease of worker `id` back (it died, left, is gone or cut off),
 * in each kind, with one log line when any went back. */
int mf_farm_release_worker(mf_farm *f, const char *id, const char *why);
/* Job `job` (attempt) of the kind at index `tag` back (tag < 0: every
 * kind's, for a job a worker names without its kind). */
int mf_farm_release(mf_farm *f, int tag, uint64_t job, uint32_t attempt,
                    int failed, const char *why);
/* One message (routing id + one frame) from the socket. */
int mf_farm_on_message(mf_farm *f, const uint8_t *rid, size_t rid_len,
                       const void *data, size_t len);

#endif
