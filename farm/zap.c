/* zap.c - CURVE on the coordinator's ROUTER and its ZAP handler thread
 * (zap.h, docs/security.md; ZeroMQ RFC 27 for the request and reply
 * frames). Key files are read by config/keys.c; the handshakes and the
 * crypto are libzmq's. It does not see the farm's messages, only who may
 * connect. */
#include "zap.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

#include "keys.h"

#define ZAP_ENDPOINT "inproc://zeromq.zap.01"
/* A refused key (or a peer without CURVE) is logged again after this. */
#define RELOG_S 60
/* Refused keys remembered for the once-a-minute rule. */
#define MAX_REMEMBERED 256

typedef struct {
    char key[MF_KEY_Z85];
    char addr[64];
    long count;      /* refusals since it was last logged */
    time_t logged;   /* when */
} refused;

struct mf_zap {
    pthread_t th;
    int started;
    void *rep;          /* the handler's socket (its thread's alone) */
    mf_keylist keys;    /* authorised */
    char cmd[64];       /* log prefix */
    refused seen[MAX_REMEMBERED];
    int nseen;
    /* Main thread only: the monitor's handshake failures. */
    int failed;         /* failed handshakes whose disconnection is due */
    long plain_count;   /* peers without CURVE since the last log line */
    time_t plain_logged;
};

/* ---- checks ------------------------------------------------------------- */

int mf_zap_check(const mf_config *cfg)
{
    if (!cfg->curve)
        return 0;
    if (!cfg->server_secret_key[0])
        return mf_err_set(MF_EPARSE, "[security] curve = on needs the "
                                     "coordinator's secret key: "
                                     "server_secret_key = NAME.key_secret "
                                     "(--server-secret-key; make one with "
                                     "'mutfarm keygen')");
    if (!cfg->authorized_keys[0])
        return mf_err_set(MF_EPARSE, "[security] curve = on needs the "
                                     "workers' public keys: "
                                     "authorized_keys = DIR or FILE "
                                     "(--authorized-keys)");
    if (!mf_keys_have_curve())
        return mf_err_set(MF_EUNSUPPORTED, "[security] curve = on: this "
                                           "libzmq is built without CURVE");
    mf_keypair kp;
    int rc = mf_keys_read(&kp, cfg->server_secret_key, 1);
    explicit_bzero(&kp, sizeof kp);
    if (rc < 0)
        return rc;
    mf_keylist l;
    rc = mf_keys_read_authorized(&l, cfg->authorized_keys);
    mf_keylist_free(&l);
    return rc;
}

/* 1 if only this machine can reach the endpoint. */
static int local_endpoint(const char *ep)
{
    if (!strncmp(ep, "ipc://", 6) || !strncmp(ep, "inproc://", 9))
        return 1;
    if (strncmp(ep, "tcp://", 6))
        return 0;
    const char *h = ep + 6;
    return !strncmp(h, "127.", 4) || !strncmp(h, "localhost:", 10) ||
           !strncmp(h, "[::1]:", 6) || !strncmp(h, "lo:", 3);
}

/* ---- logging ------------------------------------------------------------ */

static void say(const mf_zap *z, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(const mf_zap *z, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* Over a progress line, if one is drawn. */
    fprintf(stderr, "%s%s: %s\n", isatty(STDERR_FILENO) ? "\r\033[K" : "",
            z->cmd, line);
}

/* A refused key from addr: logged the first time and then once a
 * minute (with the count), since a refused peer keeps reconnecting. */
static void log_refused(mf_zap *z, const char *key, const char *addr)
{
    time_t now = time(NULL);
    refused *r = NULL;
    for (int i = 0; i < z->nseen && !r; i++)
        if (!strcmp(z->seen[i].key, key) && !strcmp(z->seen[i].addr, addr))
            r = &z->seen[i];
    if (!r) {
        int i = z->nseen < MAX_REMEMBERED ? z->nseen++
                                          : (int)(now % MAX_REMEMBERED);
        r = &z->seen[i];
        memset(r, 0, sizeof *r);
        snprintf(r->key, sizeof r->key, "%s", key);
        snprintf(r->addr, sizeof r->addr, "%s", addr);
    }
    r->count++;
    if (r->logged && now - r->logged < RELOG_S)
        return;
    say(z, "refused a CURVE connection from %s: key %s is not among the "
           "authorised keys%s",
        addr, key, r->logged ? "" : " (add its NAME.key to authorized_keys "
                                    "to let it in)");
    if (r->count > 1)
        say(z, "(key %s from %s: %ld refusals since the last line)", key,
            addr, r->count);
    r->logged = now;
    r->count = 0;
}

/* A peer without CURVE (or with a broken handshake) on addr: logged at
 * most once a minute, since it keeps reconnecting. */
static void log_plain(mf_zap *z, int value, const void *addr,
                      size_t addr_len)
{
    time_t now = time(NULL);
    z->plain_count++;
    if (z->plain_logged && now - z->plain_logged < RELOG_S)
        return;
    const char *why = value == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH
                          ? "a peer without CURVE (a worker without "
                            "--curve and keys, or not a worker)"
                          : "a failed CURVE handshake (a wrong server "
                            "key, or not a worker)";
    say(z, "refused a connection on %.*s: %s%s",
        (int)(addr_len < 200 ? addr_len : 200), (const char *)addr, why,
        z->plain_count > 1 ? "; more since the last such line" : "");
    z->plain_logged = now;
    z->plain_count = 0;
}

void mf_zap_handshake_failed(mf_zap *z, int event, int value,
                             const void *addr, size_t addr_len)
{
    if (!z)
        return;
    z->failed++;
    if (event != ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) /* else: the handler
                                                      refused it, and said so */
        log_plain(z, value, addr, addr_len);
}

int mf_zap_disconnected(mf_zap *z, const void *addr, size_t addr_len)
{
    if (!z)
        return 0;
    if (z->failed > 0)
        z->failed--; /* the end of a failure already said */
    else
        log_plain(z, ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH, addr,
                  addr_len);
    return 1;
}

const char *mf_zap_msg_key(void *msg)
{
    const char *k = zmq_msg_gets((zmq_msg_t *)msg, "User-Id");
    return k && *k ? k : NULL;
}

/* ---- the handler -------------------------------------------------------- */

/* Receive one request (up to 8 frames) into f/len. -1 when the context
 * is ending. */
static int recv_request(void *s, zmq_msg_t *f, int *n)
{
    *n = 0;
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s, 0) < 0) {
            zmq_msg_close(&m);
            if (errno == EINTR)
                continue;
            for (int i = 0; i < *n; i++)
                zmq_msg_close(&f[i]);
            return -1;
        }
        int more = zmq_msg_more(&m);
        if (*n < 8)
            f[(*n)++] = m;
        else
            zmq_msg_close(&m);
        if (!more)
            return 0;
    }
}

static void send_str(void *s, const char *str, size_t len, int more)
{
    zmq_send(s, str, len, more ? ZMQ_SNDMORE : 0);
}

static void *handler(void *arg)
{
    mf_zap *z = arg;
    zmq_msg_t f[8];
    int n;
    while (recv_request(z->rep, f, &n) == 0) {
        /* version, request id, domain, address, identity, mechanism,
         * credentials... */
        char key[MF_KEY_Z85] = "", addr[64] = "?";
        int ok = 0;
        if (n >= 6) {
            snprintf(addr, sizeof addr, "%.*s",
                     (int)(zmq_msg_size(&f[3]) < 63 ? zmq_msg_size(&f[3])
                                                    : 63),
                     (const char *)zmq_msg_data(&f[3]));
            int curve = zmq_msg_size(&f[5]) == 5 &&
                        !memcmp(zmq_msg_data(&f[5]), "CURVE", 5);
            if (curve && n >= 7 && zmq_msg_size(&f[6]) == 32 &&
                zmq_z85_encode(key, zmq_msg_data(&f[6]), 32))
                ok = mf_keylist_has(&z->keys, key);
        }
        /* Always a reply: a REP socket takes no request before it. */
        const char *code = ok ? "200" : "400";
        const char *text = ok ? "OK" : "key not authorised";
        send_str(z->rep, "1.0", 3, 1);
        if (n >= 2)
            zmq_send(z->rep, zmq_msg_data(&f[1]), zmq_msg_size(&f[1]),
                     ZMQ_SNDMORE);
        else
            send_str(z->rep, "", 0, 1);
        send_str(z->rep, code, 3, 1);
        send_str(z->rep, text, strlen(text), 1);
        send_str(z->rep, ok ? key : "", ok ? strlen(key) : 0, 1);
        send_str(z->rep, "", 0, 0);
        if (!ok)
            log_refused(z, key[0] ? key : "(none)", addr);
        for (int i = 0; i < n; i++)
            zmq_msg_close(&f[i]);
    }
    zmq_close(z->rep);
    return NULL;
}

/* ---- setup -------------------------------------------------------------- */

void mf_zap_warn_open(const mf_config *cfg, const char *cmd)
{
    if (!cfg->curve && !local_endpoint(cfg->bind))
        fprintf(stderr, "%s: warning: %s is open to other machines "
                        "without CURVE: anyone who reaches it gets the "
                        "model and may send results (docs/security.md)\n",
                cmd, cfg->bind);
}

int mf_zap_setup(mf_zap **out, void *zctx, void *sock, const mf_config *cfg,
                 const char *cmd)
{
    *out = NULL;
    if (!cfg->curve)
        return 0;
    int rc = mf_zap_check(cfg);
    if (rc < 0)
        return rc;
    mf_zap *z = mf_xcalloc(1, sizeof *z);
    snprintf(z->cmd, sizeof z->cmd, "%s", cmd);
    mf_keypair kp;
    rc = mf_keys_read(&kp, cfg->server_secret_key, 1);
    if (rc == 0)
        rc = mf_keys_read_authorized(&z->keys, cfg->authorized_keys);
    if (rc < 0)
        goto fail;
    z->rep = zmq_socket(zctx, ZMQ_REP);
    int linger = 0;
    if (!z->rep || zmq_setsockopt(z->rep, ZMQ_LINGER, &linger, sizeof linger) ||
        zmq_bind(z->rep, ZAP_ENDPOINT) != 0) {
        rc = mf_err_set(MF_ERROR, "cannot start the ZAP handler on %s: %s",
                        ZAP_ENDPOINT, zmq_strerror(errno));
        goto fail;
    }
    int one = 1;
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &one, sizeof one) ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, kp.secret_key, 40) ||
        zmq_setsockopt(sock, ZMQ_ZAP_DOMAIN, "mutfarm", 7)) {
        rc = mf_err_set(MF_ERROR, "cannot make the socket a CURVE server: %s",
                        zmq_strerror(errno));
        goto fail;
    }
    if (pthread_create(&z->th, NULL, handler, z) != 0) {
        rc = mf_err_set(MF_ERROR, "cannot start the ZAP handler thread");
        goto fail;
    }
    z->started = 1;
    explicit_bzero(&kp, sizeof kp);
    *out = z;
    return 0;
fail:
    explicit_bzero(&kp, sizeof kp);
    if (z->rep)
        zmq_close(z->rep);
    mf_keylist_free(&z->keys);
    free(z);
    return rc;
}

void mf_zap_free(mf_zap *z)
{
    if (!z)
        return;
    if (z->started)
        pthread_join(z->th, NULL);
    mf_keylist_free(&z->keys);
    free(z);
}
