/* net.c - the farm server's socket (farm.h): the ROUTER bound with its
 * limits, CURVE and monitor, frames read off it and handed on (to
 * peers.c, by serve.c), frames sent (or held in the outbox while a batch
 * is open), the table of workers looked up by routing id, and the
 * server's log lines and progress line on stderr. It decides nothing
 * about workers or jobs. */
#include "farm_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "endpoint.h"
#include "mf.h"

/* Frames up to this size reach the decoder (which refuses anything over
 * MF_WIRE_MAX_FRAME with a Reject); bigger ones are cut by libzmq, which
 * closes that connection. Keeps one peer from making us allocate without
 * bound. */
#define HARD_MAX_FRAME (4 * MF_WIRE_MAX_FRAME)
/* Frames handled per wake-up before timers get their turn. */
#define BATCH 512
/* Refusal log lines per second before they are counted instead. */
#define LOG_BURST 20

int64_t mf_farm_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- log lines ------------------------------------------------------------ */

void mf_farm_line_clear(mf_farm *f)
{
    if (f->line_shown) {
        fputs("\r\033[K", stderr);
        f->line_shown = 0;
    }
}

void mf_farm_line(mf_farm *f, const char *text)
{
    fprintf(stderr, "\r\033[K%s", text);
    fflush(stderr);
    f->line_shown = 1;
}

static void say_v(mf_farm *f, const char *fmt, va_list ap)
{
    mf_farm_line_clear(f);
    fprintf(stderr, "%s: ", f->cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void mf_farm_say(mf_farm *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_v(f, fmt, ap);
    va_end(ap);
}

/* A log line about a peer's bad frame: at most LOG_BURST a second, the
 * rest counted and reported once the burst is over. */
void mf_farm_say_peer(mf_farm *f, const char *fmt, ...)
{
    int64_t sec = mf_farm_now_ms() / 1000;
    if (sec != f->log_sec) {
        if (f->log_suppressed)
            mf_farm_say(f, "(%d more refused frames not logged)",
                        f->log_suppressed);
        f->log_sec = sec;
        f->log_count = 0;
        f->log_suppressed = 0;
    }
    if (f->log_count >= LOG_BURST) {
        f->log_suppressed++;
        return;
    }
    f->log_count++;
    va_list ap;
    va_start(ap, fmt);
    say_v(f, fmt, ap);
    va_end(ap);
}

const char *mf_farm_peer_name(char *buf, size_t n, const uint8_t *rid,
                              size_t rid_len, const mf_farm_peer *p)
{
    if (p) {
        snprintf(buf, n, "worker %s", p->id);
        return buf;
    }
    int text = rid_len > 0 && rid_len < 64;
    for (size_t i = 0; i < rid_len && text; i++)
        text = rid[i] > ' ' && rid[i] < 127;
    if (text) {
        snprintf(buf, n, "peer '%.*s'", (int)rid_len, (const char *)rid);
        return buf;
    }
    size_t off = (size_t)snprintf(buf, n, "peer 0x");
    for (size_t i = 0; i < rid_len && i < 12 && off + 3 < n; i++)
        off += (size_t)snprintf(buf + off, n - off, "%02x", rid[i]);
    return buf;
}

mf_farm_peer *mf_farm_find_rid(mf_farm *f, const uint8_t *rid, size_t len)
{
    for (int i = 0; i < f->peers.n; i++)
        if (f->peers.v[i].rid_len == len &&
            memcmp(f->peers.v[i].rid, rid, len) == 0)
            return &f->peers.v[i];
    return NULL;
}

/* ---- sending -------------------------------------------------------------- */

int mf_farm_send_raw(mf_farm *f, const uint8_t *rid, size_t rid_len,
                     const uint8_t *buf, size_t len)
{
    if (f->batching) { /* leaves once the batch is committed */
        mf_outbox_add(f->out, rid, rid_len, buf, len, f->send_job,
                      f->send_attempt, f->send_tag);
        return 0;
    }
    if (zmq_send(f->sock, rid, rid_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return -1;
    if (zmq_send(f->sock, buf, len, ZMQ_DONTWAIT) < 0)
        return -1;
    return 0;
}

int mf_farm_send_peer(mf_farm *f, mf_farm_peer *p, uint8_t *buf, size_t len,
                      int rc)
{
    if (rc < 0 || !buf) {
        mf_farm_say(f, "cannot encode a message for worker %s: %s", p->id,
                    mf_err_msg());
        free(buf);
        errno = EINVAL;
        return -1;
    }
    rc = mf_farm_send_raw(f, p->rid, p->rid_len, buf, len);
    int e = errno;
    free(buf);
    errno = e;
    if (rc == 0)
        p->next_hb = mf_farm_now_ms() + f->o.heartbeat_ms;
    return rc;
}

void mf_farm_send_reject(mf_farm *f, const uint8_t *rid, size_t rid_len,
                         Mutfarm__V1__RejectCode code, const char *reason,
                         uint64_t job, uint32_t attempt)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    if (mf_wire_encode_reject(&buf, &len, code, reason, job, attempt) == 0)
        mf_farm_send_raw(f, rid, rid_len, buf, len);
    free(buf);
}

/* ---- receiving ------------------------------------------------------------ */

/* Remember the connection (file descriptor) a frame came from, to tell a
 * connection libzmq closed before anything reached us (drain_monitor). */
static void seen_fd(mf_farm *f, int fd)
{
    if (fd < 0)
        return;
    for (int i = 0; i < f->seen_fds.n; i++)
        if (f->seen_fds.v[i] == fd)
            return;
    MF_VEC_PUSH(f->seen_fds, fd);
}

/* One message off the socket: its routing id and its one frame (a
 * message of more frames is read off whole and refused). */
static int take_one(mf_farm *f, zmq_msg_t *id, zmq_msg_t *body,
                    mf_farm_msg_fn on_message)
{
    zmq_msg_init(body);
    zmq_msg_recv(body, f->sock, 0);
    int extra = 0;
    while (zmq_msg_more(body)) {
        /* More than one frame: not our protocol. Read it all off. */
        zmq_msg_close(body);
        zmq_msg_init(body);
        zmq_msg_recv(body, f->sock, 0);
        extra++;
    }
    const uint8_t *rid = zmq_msg_data(id);
    size_t rid_len = zmq_msg_size(id);
    seen_fd(f, zmq_msg_get(body, ZMQ_SRCFD));
    f->msg_key = f->zap ? mf_zap_msg_key(body) : NULL;
    if (rid_len > sizeof(((mf_farm_peer *)0)->rid) || rid_len == 0) {
        mf_farm_say_peer(f, "dropped a frame from a peer with a %zu-byte "
                            "routing id", rid_len);
    } else if (extra) {
        char who[160];
        mf_farm_say_peer(f, "refused a %d-frame message from %s: one frame "
                            "per message",
                         extra + 1,
                         mf_farm_peer_name(who, sizeof who, rid, rid_len,
                                           mf_farm_find_rid(f, rid,
                                                            rid_len)));
        mf_farm_send_reject(f, rid, rid_len,
                            MUTFARM__V1__REJECT_CODE__REJECT_UNDECODABLE,
                            "one frame per message", 0, 0);
    } else {
        return on_message(f, rid, rid_len, zmq_msg_data(body),
                          zmq_msg_size(body));
    }
    return 0;
}

int mf_farm_drain(mf_farm *f, mf_farm_msg_fn on_message)
{
    for (int n = 0; n < BATCH; n++) {
        zmq_msg_t id, body;
        zmq_msg_init(&id);
        if (zmq_msg_recv(&id, f->sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&id);
            return 0; /* EAGAIN, EINTR */
        }
        if (!zmq_msg_more(&id)) { /* ROUTER always prefixes the id */
            zmq_msg_close(&id);
            continue;
        }
        int rc = take_one(f, &id, &body, on_message);
        zmq_msg_close(&body);
        zmq_msg_close(&id);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Monitor events: a connection closed. One from which no frame ever
 * reached us gets a log line: it is how a frame over the hard cap shows
 * (libzmq drops it, and the connection). The others are peers leaving,
 * told by their Bye, their silence, or the refusal already logged. */
static void on_event(mf_farm *f, uint16_t event, uint32_t fd,
                     zmq_msg_t *addr)
{
    int known = 0;
    for (int i = 0; i < f->seen_fds.n; i++)
        if (event == ZMQ_EVENT_DISCONNECTED && f->seen_fds.v[i] == (int)fd) {
            f->seen_fds.v[i] = f->seen_fds.v[--f->seen_fds.n];
            known = 1;
            break;
        }
    if (event != ZMQ_EVENT_DISCONNECTED) /* a handshake failed */
        mf_zap_handshake_failed(f->zap, event, (int)fd, zmq_msg_data(addr),
                                zmq_msg_size(addr));
    else if (!known && !mf_zap_disconnected(f->zap, zmq_msg_data(addr),
                                            zmq_msg_size(addr)))
        mf_farm_say_peer(f, "dropped a connection on %.*s before any frame "
                            "of it arrived (a frame over the %zu MiB cap, "
                            "or not ZeroMQ at all)",
                         (int)zmq_msg_size(addr),
                         (const char *)zmq_msg_data(addr),
                         (size_t)HARD_MAX_FRAME >> 20);
}

void mf_farm_drain_monitor(mf_farm *f)
{
    for (;;) {
        zmq_msg_t ev, addr;
        zmq_msg_init(&ev);
        if (zmq_msg_recv(&ev, f->mon, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&ev);
            return;
        }
        zmq_msg_init(&addr);
        if (zmq_msg_more(&ev))
            zmq_msg_recv(&addr, f->mon, 0);
        if (zmq_msg_size(&ev) >= 6) {
            const uint8_t *d = zmq_msg_data(&ev);
            uint16_t event;
            uint32_t fd;
            memcpy(&event, d, sizeof event);
            memcpy(&fd, d + 2, sizeof fd);
            on_event(f, event, fd, &addr);
        }
        zmq_msg_close(&addr);
        zmq_msg_close(&ev);
    }
}

/* ---- open and close ------------------------------------------------------- */

/* Connections closed by libzmq (a frame over HARD_MAX_FRAME, a ZMTP
 * error) never reach us as messages: the monitor tells. */
static void start_monitor(mf_farm *f)
{
    char mon_ep[64];
    int linger = 0;
    snprintf(mon_ep, sizeof mon_ep, "inproc://mf-farm-monitor-%p", (void *)f);
    int events = ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                 ZMQ_EVENT_HANDSHAKE_FAILED_AUTH;
    if (zmq_socket_monitor(f->sock, mon_ep, events) != 0)
        return;
    f->mon = zmq_socket(f->zctx, ZMQ_PAIR);
    if (f->mon && zmq_connect(f->mon, mon_ep) != 0) {
        zmq_close(f->mon);
        f->mon = NULL;
    }
    if (f->mon)
        zmq_setsockopt(f->mon, ZMQ_LINGER, &linger, sizeof linger);
}

static int bind_socket(mf_farm *f)
{
    f->zctx = zmq_ctx_new();
    if (!f->zctx)
        return mf_err_set(MF_ERROR, "cannot start ZeroMQ: %s",
                          zmq_strerror(errno));
    f->sock = zmq_socket(f->zctx, ZMQ_ROUTER);
    if (!f->sock)
        return mf_err_set(MF_ERROR, "cannot create a socket: %s",
                          zmq_strerror(errno));
    int one = 1, linger = 0, hwm = 100000;
    int64_t maxmsg = (int64_t)HARD_MAX_FRAME;
    zmq_setsockopt(f->sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(f->sock, ZMQ_MAXMSGSIZE, &maxmsg, sizeof maxmsg);
    zmq_setsockopt(f->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(f->sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(f->sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
    start_monitor(f);
    if (f->o.cfg) {
        int rc = mf_zap_setup(&f->zap, f->zctx, f->sock, f->o.cfg, f->cmd);
        if (rc < 0)
            return rc;
    }
    const char *ep = f->o.bind ? f->o.bind : "";
    if (zmq_bind(f->sock, ep) != 0)
        return mf_endpoint_bind_error(ep, errno, zmq_strerror(errno));
    if (f->o.cfg)
        mf_zap_warn_open(f->o.cfg, f->cmd);
    size_t n = sizeof f->endpoint;
    if (zmq_getsockopt(f->sock, ZMQ_LAST_ENDPOINT, f->endpoint, &n) != 0)
        snprintf(f->endpoint, sizeof f->endpoint, "%s", ep);
    return 0;
}

int mf_farm_open(mf_farm **out, const mf_farm_opts *o)
{
    *out = NULL;
    mf_farm *f = mf_xcalloc(1, sizeof *f);
    f->o = *o;
    f->cmd = o->cmd ? o->cmd : "mutfarm";
    if (f->o.heartbeat_ms < 10)
        f->o.heartbeat_ms = 10;
    if (f->o.liveness < 1)
        f->o.liveness = 1;
    if (!f->o.tick_ms)
        f->o.tick_ms = 250;
    f->out = mf_outbox_new();
    f->cut = mf_cutoff_new();
    int rc = bind_socket(f);
    if (rc < 0) {
        mf_farm_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

void mf_farm_add(mf_farm *f, const mf_farm_kind *kind, void *k)
{
    if (f->nwork >= MF_FARM_MAX_KINDS)
        return;
    f->work[f->nwork].k = kind;
    f->work[f->nwork].ctx = k;
    f->work[f->nwork].dry = 0;
    f->nwork++;
}

void mf_farm_use_store(mf_farm *f, mf_store *st)
{
    f->st = st;
}

const char *mf_farm_endpoint(const mf_farm *f)
{
    return f->endpoint;
}

unsigned mf_farm_lease_ms(const mf_farm *f)
{
    return f->o.lease_ms;
}

int mf_farm_verbose(const mf_farm *f)
{
    return f->o.verbose;
}

long mf_farm_refusals(const mf_farm *f)
{
    return mf_cutoff_count(f->cut);
}

int mf_farm_workers(const mf_farm *f, const mf_farm_kind *kind, int *threads)
{
    unsigned bits = 0;
    for (int i = 0; i < f->nwork; i++)
        if (!kind || f->work[i].k == kind)
            bits |= 1u << i;
    int n = 0, t = 0;
    for (int i = 0; i < f->peers.n; i++)
        if (!kind || (f->peers.v[i].kinds & bits)) {
            n++;
            t += f->peers.v[i].threads;
        }
    if (threads)
        *threads = t;
    return n;
}

void mf_farm_free(mf_farm *f)
{
    if (!f)
        return;
    if (f->sock) {
        zmq_socket_monitor(f->sock, NULL, 0);
        zmq_close(f->sock);
    }
    if (f->mon)
        zmq_close(f->mon);
    if (f->zctx)
        zmq_ctx_term(f->zctx);
    mf_zap_free(f->zap); /* its thread ends with the context */
    mf_outbox_free(f->out);
    mf_cutoff_free(f->cut);
    MF_VEC_FREE(f->peers);
    MF_VEC_FREE(f->seen_fds);
    free(f);
}
