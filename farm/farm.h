/* farm.h - the farm's serving loop: one ZeroMQ ROUTER socket, the workers
 * that connect to it, and the kinds of farm work it hands out
 * (docs/protocol.md, docs/architecture.md).
 *
 * One thread, one poll loop, the protocol of docs/protocol.md once for
 * every kind of work (farm/kind.h): Hello and credit, heartbeats both
 * ways (the ZeroMQ guide's Paranoid Pirate), a worker silent for
 * heartbeat x liveness declared dead and its leases given back, leases
 * that run out, Rejects, Byes; whatever a peer sends is validated, and a
 * frame that does not decode, speaks another protocol version, is
 * oversized or comes before Hello is refused with a Reject and one log
 * line. A worker gets only jobs of the kinds its Hello names. Each
 * wake-up is one store transaction (with a store): its leases and results
 * are committed before any frame it produced leaves (Titanic). A worker
 * whose results fail verification three times is cut off (cutoff.h).
 * With [security] curve on, the socket is a CURVE server with a ZAP
 * handler (zap.h).
 *
 * It knows no kind of work: what a job is, where it is kept and when the
 * work is done are the kinds' (a campaign: coordinator/campaign.c; a kill
 * matrix: coordinator/report/matrix_farm.c). It starts no workers and
 * parses no command line. */
#ifndef MF_FARM_H
#define MF_FARM_H

#include <signal.h>
#include <stdint.h>

#include "config.h"
#include "kind.h"
#include "store.h"

typedef struct {
    const char *bind;           /* endpoint to bind (tcp or ipc) */
    const mf_config *cfg;       /* [security] (CURVE; NULL: none) */
    const char *cmd;            /* log prefix: "mutfarm coordinator" */
    unsigned heartbeat_ms;      /* >= 10 */
    int liveness;               /* >= 1 */
    unsigned lease_ms;          /* how long a lease lasts ([farm]
                                   lease_ms): the kinds keep the leases,
                                   mf_farm_lease_ms tells them */
    int verbose;                /* log every message */
    int quiet;                  /* no routine lines (workers joining or
                                   leaving) */
    unsigned tick_ms;           /* tick interval (0: 250) */
    /* Called about every tick_ms from the loop, and once more at the
     * end by whoever wishes; non-zero stops serving (mf_farm_serve
     * returns 1). May be NULL. */
    int (*tick)(mf_farm *f, int64_t now_ms, void *ctx);
    void *tick_ctx;
    volatile sig_atomic_t *stop; /* set by a signal handler: stop */
} mf_farm_opts;

/* Bind the socket (with CURVE when o->cfg says so). 0 and *out, or a
 * negative code with a message (a malformed endpoint or one in use:
 * MF_EIO / MF_EPARSE as config/endpoint.h words it; keys: as
 * mf_zap_setup); *out NULL then. The options are copied, the strings
 * they point to must outlive the farm. */
int mf_farm_open(mf_farm **out, const mf_farm_opts *o);

/* Serve kind `kind` (which must outlive the farm) with context k. At
 * most 8 kinds. */
void mf_farm_add(mf_farm *f, const mf_farm_kind *kind, void *k);

/* One transaction in st per wake-up (leases and results committed before
 * their frames leave) and the workers' rows in st's workers table
 * (`mutfarm status`). Without it a kind commits what it stores itself. */
void mf_farm_use_store(mf_farm *f, mf_store *st);

/* The endpoint actually bound ("tcp://0.0.0.0:40213" for port *). */
const char *mf_farm_endpoint(const mf_farm *f);

/* Serve until every kind is complete (every connected worker told Bye:
 * 0), stopped (*o->stop or the tick: 1; leases stay with their kinds), or
 * failed (< 0 with a message). With no worker connected it waits. */
int mf_farm_serve(mf_farm *f);

/* Close the socket; NULL-safe. */
void mf_farm_free(mf_farm *f);

/* ---- for kinds and their commands ---------------------------------------- */

/* One log line on stderr, "CMD: text" (clearing a progress line). */
void mf_farm_say(mf_farm *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The progress line on a terminal: "\r" + text, kept until the next log
 * line; mf_farm_line_clear takes it away. */
void mf_farm_line(mf_farm *f, const char *text);
void mf_farm_line_clear(mf_farm *f);

/* Connected workers that take `kind` (NULL: any), and their threads
 * (threads may be NULL). */
int mf_farm_workers(const mf_farm *f, const mf_farm_kind *kind,
                    int *threads);

/* The lease time of the options: a job leased now runs out this many
 * milliseconds later. */
unsigned mf_farm_lease_ms(const mf_farm *f);

/* 1 when every message is to be logged (mf_farm_opts.verbose). */
int mf_farm_verbose(const mf_farm *f);

/* Refused results counted toward cut-offs so far. */
long mf_farm_refusals(const mf_farm *f);

/* Monotonic milliseconds (the loop's clock). */
int64_t mf_farm_now_ms(void);

#endif
