/* zap.h - the coordinator's side of CURVE: its secret key on the ROUTER
 * socket and a ZAP handler (ZeroMQ RFC 27) that lets in only the
 * authorised worker keys ([security], docs/security.md).
 *
 * The handler is a thread with a REP socket on inproc://zeromq.zap.01 in
 * the coordinator's ZeroMQ context: libzmq asks it about every CURVE
 * handshake, it answers 200 for a listed key (the key, in Z85, becomes the
 * connection's User-Id) and 400 for any other, logging the key and the
 * peer's address (a key seen again is logged at most once a minute, with
 * its count). The crypto is libzmq's. Without CURVE it only warns about a
 * bind that other machines can reach. It does not read or write the
 * store. */
#ifndef MF_ZAP_H
#define MF_ZAP_H

#include <stddef.h>

#include "config.h"

typedef struct mf_zap mf_zap;

/* Load and check the key files cfg names for a coordinator (curve on):
 * server_secret_key and authorized_keys both set and readable. Returns 0,
 * or MF_EPARSE / MF_EIO with a message naming the key or file to fix. With
 * curve off, 0. Used before anything is opened, and by mf_zap_setup. */
int mf_zap_check(const mf_config *cfg);

/* After a successful bind without CURVE to an endpoint other machines
 * can reach (not loopback, ipc:// or inproc://): one warning line on
 * stderr prefixed with `cmd`. */
void mf_zap_warn_open(const mf_config *cfg, const char *cmd);

/* Before zmq_bind of `sock` (a ROUTER of context zctx): with cfg->curve,
 * make it a CURVE server with the coordinator's secret key and start the
 * ZAP handler (*out); without, *out = NULL. Returns 0 or a negative code
 * with a message (keys as mf_zap_check; MF_ERROR when libzmq has no CURVE
 * or the handler cannot start). */
int mf_zap_setup(mf_zap **out, void *zctx, void *sock, const mf_config *cfg,
                 const char *cmd);

/* A handshake failure the ROUTER's monitor saw (ZMQ_EVENT_HANDSHAKE_*
 * `event` with `value`, on the endpoint addr[0..addr_len)): a peer
 * without CURVE (or with a bad one) is logged here, at most once a minute;
 * refusals by the handler are only noted (it logged them). NULL-safe. */
void mf_zap_handshake_failed(mf_zap *z, int event, int value,
                             const void *addr, size_t addr_len);

/* A connection on addr[0..addr_len) closed before any frame of it
 * arrived. With CURVE that is the end of a failed handshake (said already
 * by mf_zap_handshake_failed or the handler), or a peer without CURVE
 * that hung up first (logged here as one, at most once a minute).
 * Returns 1 when it is taken care of; 0 without CURVE (z NULL). */
int mf_zap_disconnected(mf_zap *z, const void *addr, size_t addr_len);

/* Join the handler thread. Call after zmq_ctx_term of its context (which
 * ends it); NULL-safe. */
void mf_zap_free(mf_zap *z);

/* The Z85 key of the connection a received message (a zmq_msg_t *) came
 * on, as the handler let it in (its User-Id); NULL without CURVE. */
const char *mf_zap_msg_key(void *msg);

#endif
