/* farm_worker.h - the worker process of the farm (`mutfarm worker`): a
 * ZeroMQ DEALER that takes jobs from a coordinator, decides them with the
 * Z3 engine on N threads and sends the results back (docs/protocol.md).
 *
 * Stateless: a job carries the model text, the mutant ids and the options;
 * the worker keeps nothing between jobs but results not yet acknowledged.
 * Reliability follows the ZeroMQ guide's Paranoid Pirate worker: heartbeats
 * on a clock, the coordinator silent for liveness x interval is dead, then
 * reconnect with exponential back-off and say Hello again. */
#ifndef MF_FARM_WORKER_H
#define MF_FARM_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "campaign_job.h" /* mf_worker_do_job, for tests */
#include "wire.h"

typedef struct {
    const char *connect;       /* coordinator endpoint: tcp://host:5555 */
    int threads;               /* job threads (>= 1) */
    int persist;               /* stay (and reconnect) after the coordinator's
                                  Bye instead of exiting */
    unsigned heartbeat_ms;     /* heartbeat interval */
    unsigned liveness;         /* missed intervals before the coordinator is
                                  declared dead */
    unsigned reconnect_min_ms; /* first back-off delay */
    unsigned reconnect_max_ms; /* back-off ceiling (doubling up to it) */
    unsigned grace_ms;         /* on SIGTERM/SIGINT: how long in-flight jobs
                                  may run on before they are given back */
    const char *worker_id;     /* NULL: "host-pid" */
    const char *mutfarm_version; /* sent in Hello; NULL: "unknown" */
    int verbose;               /* log every message to stderr */
    /* ZeroMQ CURVE (docs/security.md): Z85 keys, all three or NULL */
    const char *curve_server_key; /* the coordinator's public key */
    const char *curve_public_key; /* this worker's pair */
    const char *curve_secret_key;
} mf_worker_opts;

/* Defaults: threads = online CPUs, heartbeat 1000 ms, liveness 3,
 * back-off 250 ms .. 8000 ms, grace 10000 ms, no connect endpoint. */
void mf_worker_opts_default(mf_worker_opts *o);

/* Serve the coordinator at o->connect until it says Bye (unless
 * o->persist) or SIGTERM/SIGINT arrives (then: no more credit, in-flight
 * jobs finished within grace_ms or given back in a Bye; exit). Installs
 * handlers for SIGTERM and SIGINT for the duration. Returns 0 on those
 * ends; MF_ERROR with a message if the endpoint is unusable or the
 * coordinator refuses our protocol version. Log lines go to stderr,
 * prefixed "mutfarm worker:". */
int mf_worker_run(const mf_worker_opts *o);

#endif
