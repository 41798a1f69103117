/* endpoint.h - what a ZeroMQ endpoint given by a user must look like, and
 * a failed bind said as what to fix (docs/running.md). It checks syntax
 * only: whether a host resolves or a port is free is known when ZeroMQ
 * binds or connects, and it opens no socket itself. */
#ifndef MF_ENDPOINT_H
#define MF_ENDPOINT_H

/* Whether `ep` is an endpoint a coordinator may bind (bind = 1:
 * tcp://HOST:PORT with HOST "*" allowed and PORT "*" or 0 for a free one,
 * or ipc://PATH) or a worker may dial (bind = 0: tcp://HOST:PORT with a
 * real host and port 1..65535, or ipc://PATH). Returns 0, or MF_EPARSE
 * with a one-line message naming `what` (e.g. "--connect") and an
 * example. */
int mf_endpoint_check(const char *ep, int bind, const char *what);

/* The failure of zmq_bind(ep) with errno `err` (`text`: ZeroMQ's words
 * for it, may be NULL) as a message naming what to fix: MF_EIO for the
 * address (in use, not on this machine, no permission), MF_EPARSE for a
 * malformed endpoint, MF_ERROR for anything else. */
int mf_endpoint_bind_error(const char *ep, int err, const char *text);

#endif
