/* endpoint.c - the syntax of the farm's ZeroMQ endpoints (tcp://HOST:PORT,
 * ipc://PATH) and the messages of a failed bind (endpoint.h). No socket is
 * opened here; ZeroMQ's own parsing stays the judge of what it accepts.
 * The words of the messages follow docs/running.md. */
#include "endpoint.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mf.h"

/* PORT of tcp://HOST:PORT: 1..65535, or (bind) "*" or "0". */
static int port_ok(const char *p, int bind)
{
    if (bind && (!strcmp(p, "*") || !strcmp(p, "0")))
        return 1;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    return *p >= '0' && *p <= '9' && !errno && !*end && v >= 1 && v <= 65535;
}

int mf_endpoint_check(const char *ep, int bind, const char *what)
{
    const char *example = bind ? "tcp://*:5555, tcp://*:* or ipc:///PATH"
                               : "tcp://HOST:5555 or ipc:///PATH";
    if (!ep || !*ep)
        return mf_err_set(MF_EPARSE, "%s is empty; give e.g. %s", what,
                          example);
    if (!strncmp(ep, "ipc://", 6)) {
        if (!ep[6])
            return mf_err_set(MF_EPARSE, "%s '%s' names no socket path; give "
                                         "e.g. %s", what, ep, example);
        return 0;
    }
    if (strncmp(ep, "tcp://", 6) != 0)
        return mf_err_set(MF_EPARSE, "%s '%s' is not an endpoint (tcp:// or "
                                     "ipc://); give e.g. %s",
                          what, ep, example);
    const char *host = ep + 6, *colon = strrchr(host, ':');
    if (!colon || colon == host)
        return mf_err_set(MF_EPARSE, "%s '%s' lacks a host or a port; give "
                                     "e.g. %s", what, ep, example);
    if (!port_ok(colon + 1, bind))
        return mf_err_set(MF_EPARSE, "%s '%s': '%s' is not a port%s; give "
                                     "e.g. %s",
                          what, ep, colon + 1, bind ? "" : " 1..65535",
                          example);
    if (!bind && colon - host == 1 && host[0] == '*')
        return mf_err_set(MF_EPARSE, "%s '%s': a worker dials a host, not "
                                     "'*'; give e.g. %s", what, ep, example);
    return 0;
}

int mf_endpoint_bind_error(const char *ep, int err, const char *text)
{
    switch (err) {
    case EADDRINUSE:
        return mf_err_set(MF_EIO, "cannot listen on '%s': the address is in "
                                  "use (another coordinator?); give another "
                                  "port with --bind, or tcp://*:* for a "
                                  "free one", ep);
    case EADDRNOTAVAIL:
    case ENODEV:
        return mf_err_set(MF_EIO, "cannot listen on '%s': no such address "
                                  "or interface on this machine; give "
                                  "--bind tcp://*:PORT", ep);
    case EACCES:
    case EPERM:
        return mf_err_set(MF_EIO, "cannot listen on '%s': permission denied "
                                  "(ports below 1024 need root; an ipc "
                                  "path needs a writable directory)", ep);
    case ENOENT:
    case ENOTDIR:
        return mf_err_set(MF_EIO, "cannot listen on '%s': the socket's "
                                  "directory does not exist", ep);
    case EINVAL:
    case EPROTONOSUPPORT:
        return mf_err_set(MF_EPARSE, "cannot listen on '%s': not an "
                                     "endpoint ZeroMQ takes; give e.g. "
                                     "--bind tcp://*:5555 or ipc:///PATH",
                          ep);
    default:
        return mf_err_set(MF_ERROR, "cannot listen on '%s': %s", ep,
                          text ? text : strerror(err));
    }
}
