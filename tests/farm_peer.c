/* farm_peer.c - a test-only ZeroMQ peer of the coordinator, for
 * tests/farm_*.sh and bench/farm.sh. Not installed, not a mutfarm command.
 *
 *   farm_peer send ENDPOINT KIND
 *       connect a DEALER and send one bad message, then print the answer
 *       ("reject CODE: REASON" or "no answer") and exit 0. KIND:
 *         garbage      random bytes
 *         truncated    a Result envelope cut short
 *         version      a Hello with protocol version 99
 *         huge         a frame of MF_WIRE_MAX_FRAME + 1 MiB
 *         giant        a frame of 80 MiB (over the coordinator's hard cap:
 *                      libzmq closes the connection)
 *         multipart    two frames in one message
 *         unknown-job  Hello, then a Result for job 987654321
 *         no-hello     a Credit without a Hello first
 *         empty        an empty frame
 *
 *   farm_peer workers ENDPOINT N [CREDIT [SECONDS]]
 *       N simulated workers in this process, each with CREDIT threads
 *       (default 1), answering every job at once with `survived` for each
 *       mutant (a stub: no model is loaded, no solver runs). Exits when
 *       each was told Bye, or after SECONDS (default 600). Prints
 *       "jobs J mutants M seconds S jobs_per_s R".
 *
 *   farm_peer hoard ENDPOINT SECONDS
 *       one worker that takes a single job and never answers it, while it
 *       heartbeats (so only the lease can take the job back). Prints
 *       "hoarded job J attempt A" when it has it; exits on Bye or after
 *       SECONDS.
 *
 * Exit: 0 done, 1 usage, 2 a socket or encoding failure. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

#include "mf.h"
#include "wire.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *dealer(void *ctx, const char *ep, const char *id)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 1000;
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    if (id)
        zmq_setsockopt(s, ZMQ_ROUTING_ID, id, strlen(id));
    if (zmq_connect(s, ep) != 0) {
        fprintf(stderr, "farm_peer: cannot connect to %s: %s\n", ep,
                zmq_strerror(errno));
        exit(2);
    }
    return s;
}

static void send_buf(void *s, const void *buf, size_t len, int more)
{
    if (zmq_send(s, buf, len, more ? ZMQ_SNDMORE : 0) < 0) {
        fprintf(stderr, "farm_peer: send: %s\n", zmq_strerror(errno));
        exit(2);
    }
}

static void send_hello(void *s, const char *id, unsigned threads)
{
    Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
    h.worker_id = (char *)id;
    h.threads = threads;
    h.z3_version = "stub";
    h.mutfarm_version = "stub";
    h.host = "farm_peer";
    h.pid = (uint32_t)getpid();
    uint8_t *buf = NULL;
    size_t len = 0;
    if (mf_wire_encode_hello(&buf, &len, &h) < 0) {
        fprintf(stderr, "farm_peer: %s\n", mf_err_msg());
        exit(2);
    }
    send_buf(s, buf, len, 0);
    free(buf);
}

static void send_credit(void *s, unsigned n)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    mf_wire_encode_credit(&buf, &len, n);
    send_buf(s, buf, len, 0);
    free(buf);
}

/* A Result of `n` survived verdicts for made-up ids. */
static void result_frame(uint8_t **buf, size_t *len, uint64_t job,
                         uint64_t campaign, int n)
{
    mf_wire_result *r = mf_wire_result_new(job, 1, campaign, "farm_peer");
    for (int i = 0; i < n; i++) {
        char id[17];
        snprintf(id, sizeof id, "%016x", i + 1);
        mf_verdict v = {0};
        v.kind = MF_V_SURVIVED;
        v.bound = 1;
        mf_wire_result_add(r, id, &v, NULL);
    }
    if (mf_wire_encode_result(buf, len, r) < 0) {
        fprintf(stderr, "farm_peer: %s\n", mf_err_msg());
        exit(2);
    }
    mf_wire_result_free(r);
}

/* Print what comes back within 3 s (a Reject, or anything else). */
static void await_answer(void *s)
{
    int64_t end = now_ms() + 3000;
    while (now_ms() < end) {
        zmq_pollitem_t it = {s, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, (long)(end - now_ms())) <= 0)
            continue;
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s, 0) < 0) {
            zmq_msg_close(&m);
            continue;
        }
        mf_wire_env *e = NULL;
        if (mf_wire_decode(&e, zmq_msg_data(&m), zmq_msg_size(&m), NULL) <
            0) {
            printf("undecodable answer: %s\n", mf_err_msg());
        } else if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_REJECT) {
            printf("reject %d: %s\n", (int)e->reject->code, e->reject->reason);
            mf_wire_free(e);
            zmq_msg_close(&m);
            return;
        } else {
            printf("answer: %s\n",
                   mf_wire_kind_name((mf_wire_kind)e->body_case));
        }
        mf_wire_free(e);
        zmq_msg_close(&m);
    }
    printf("no answer\n");
}

static int cmd_send(const char *ep, const char *kind)
{
    void *ctx = zmq_ctx_new();
    char id[64];
    snprintf(id, sizeof id, "bad-%d-%s", (int)getpid(), kind);
    void *s = dealer(ctx, ep, id);
    uint8_t *buf = NULL;
    size_t len = 0;
    if (!strcmp(kind, "garbage")) {
        len = 4096;
        buf = malloc(len);
        srand((unsigned)getpid());
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)rand();
        buf[0] = 0xff; /* never a valid first tag */
        send_buf(s, buf, len, 0);
    } else if (!strcmp(kind, "truncated")) {
        result_frame(&buf, &len, 1, 1, 20);
        send_buf(s, buf, len * 2 / 3, 0);
    } else if (!strcmp(kind, "version")) {
        Mutfarm__V1__Envelope env = MUTFARM__V1__ENVELOPE__INIT;
        Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
        h.worker_id = id;
        h.threads = 1;
        env.protocol_version = 99;
        env.body_case = MUTFARM__V1__ENVELOPE__BODY_HELLO;
        env.hello = &h;
        if (mf_wire_encode_env(&buf, &len, &env) < 0) {
            fprintf(stderr, "farm_peer: %s\n", mf_err_msg());
            return 2;
        }
        send_buf(s, buf, len, 0);
    } else if (!strcmp(kind, "huge") || !strcmp(kind, "giant")) {
        len = !strcmp(kind, "huge") ? MF_WIRE_MAX_FRAME + ((size_t)1 << 20)
                                    : (size_t)80 << 20;
        buf = malloc(len);
        memset(buf, 0x0a, len);
        send_buf(s, buf, len, 0);
    } else if (!strcmp(kind, "multipart")) {
        send_buf(s, "one", 3, 1);
        send_buf(s, "two", 3, 0);
    } else if (!strcmp(kind, "unknown-job")) {
        send_hello(s, id, 1);
        result_frame(&buf, &len, 987654321, 1, 1);
        send_buf(s, buf, len, 0);
    } else if (!strcmp(kind, "no-hello")) {
        send_credit(s, 1);
    } else if (!strcmp(kind, "empty")) {
        send_buf(s, "", 0, 0);
    } else {
        fprintf(stderr, "farm_peer: unknown kind '%s'\n", kind);
        return 1;
    }
    free(buf);
    await_answer(s);
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return 0;
}

typedef struct {
    void *s;
    char id[64];
    int bye;
    int64_t hb;
} sim;

static int cmd_workers(const char *ep, int n, int credit, int seconds)
{
    void *ctx = zmq_ctx_new();
    int maxs = n + 64;
    zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, maxs > 1023 ? maxs : 1023);
    sim *w = calloc((size_t)n, sizeof *w);
    zmq_pollitem_t *items = calloc((size_t)n, sizeof *items);
    for (int i = 0; i < n; i++) {
        snprintf(w[i].id, sizeof w[i].id, "sim-%d-%d", (int)getpid(), i);
        w[i].s = dealer(ctx, ep, w[i].id);
        send_hello(w[i].s, w[i].id, (unsigned)credit);
        send_credit(w[i].s, (unsigned)credit);
        w[i].hb = now_ms() + 500;
        items[i].socket = w[i].s;
        items[i].events = ZMQ_POLLIN;
    }
    long jobs = 0, mutants = 0;
    int byes = 0;
    int64_t t0 = now_ms(), first = 0, last = 0;
    int64_t end = t0 + (int64_t)seconds * 1000;
    while (byes < n && now_ms() < end) {
        if (zmq_poll(items, n, 100) < 0 && errno != EINTR)
            break;
        int64_t t = now_ms();
        for (int i = 0; i < n; i++) {
            if (t >= w[i].hb) {
                uint8_t *hb = NULL;
                size_t hl = 0;
                mf_wire_encode_heartbeat(&hb, &hl, 0);
                zmq_send(w[i].s, hb, hl, ZMQ_DONTWAIT);
                free(hb);
                w[i].hb = t + 500;
            }
            if (!(items[i].revents & ZMQ_POLLIN))
                continue;
            for (;;) {
                zmq_msg_t m;
                zmq_msg_init(&m);
                if (zmq_msg_recv(&m, w[i].s, ZMQ_DONTWAIT) < 0) {
                    zmq_msg_close(&m);
                    break;
                }
                mf_wire_env *e = NULL;
                if (mf_wire_decode(&e, zmq_msg_data(&m), zmq_msg_size(&m),
                                   NULL) == 0) {
                    if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_JOB) {
                        const mf_wire_job *j = e->job;
                        mf_wire_result *r = mf_wire_result_new(
                            j->job_id, j->attempt, j->campaign_id, w[i].id);
                        for (size_t k = 0; k < j->n_mutant_ids; k++) {
                            mf_verdict v = {0};
                            v.kind = MF_V_SURVIVED;
                            v.bound = j->options ? (int)j->options->bound : 0;
                            mf_wire_result_add(r, j->mutant_ids[k], &v, NULL);
                        }
                        r->stats->wall_ms = 1;
                        uint8_t *buf = NULL;
                        size_t len = 0;
                        if (mf_wire_encode_result(&buf, &len, r) == 0)
                            zmq_send(w[i].s, buf, len, 0);
                        free(buf);
                        mf_wire_result_free(r);
                        send_credit(w[i].s, 1);
                        jobs++;
                        mutants += (long)j->n_mutant_ids;
                        if (!first)
                            first = now_ms();
                        last = now_ms();
                    } else if (e->body_case ==
                               MUTFARM__V1__ENVELOPE__BODY_BYE) {
                        if (!w[i].bye)
                            byes++;
                        w[i].bye = 1;
                    } else if (e->body_case ==
                                   MUTFARM__V1__ENVELOPE__BODY_REJECT &&
                               e->reject->code ==
                                   MUTFARM__V1__REJECT_CODE__REJECT_NOT_HELLO) {
                        send_hello(w[i].s, w[i].id, (unsigned)credit);
                        send_credit(w[i].s, (unsigned)credit);
                    }
                }
                mf_wire_free(e);
                zmq_msg_close(&m);
            }
        }
    }
    double secs = (double)((last > first ? last : first + 1) - first) / 1000.0;
    printf("jobs %ld mutants %ld seconds %.3f jobs_per_s %.0f byes %d\n",
           jobs, mutants, secs, jobs / secs, byes);
    for (int i = 0; i < n; i++) {
        int zero = 0;
        zmq_setsockopt(w[i].s, ZMQ_LINGER, &zero, sizeof zero);
        zmq_close(w[i].s);
    }
    free(w);
    free(items);
    zmq_ctx_term(ctx);
    return byes == n ? 0 : 2;
}

static int cmd_hoard(const char *ep, int seconds)
{
    void *ctx = zmq_ctx_new();
    char id[64];
    snprintf(id, sizeof id, "hoarder-%d", (int)getpid());
    void *s = dealer(ctx, ep, id);
    send_hello(s, id, 1);
    send_credit(s, 1);
    int64_t end = now_ms() + (int64_t)seconds * 1000, hb = 0;
    int bye = 0;
    while (!bye && now_ms() < end) {
        if (now_ms() >= hb) {
            uint8_t *buf = NULL;
            size_t len = 0;
            mf_wire_encode_heartbeat(&buf, &len, 1);
            zmq_send(s, buf, len, ZMQ_DONTWAIT);
            free(buf);
            hb = now_ms() + 200;
        }
        zmq_pollitem_t it = {s, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 100) <= 0)
            continue;
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s, 0) >= 0) {
            mf_wire_env *e = NULL;
            if (mf_wire_decode(&e, zmq_msg_data(&m), zmq_msg_size(&m),
                               NULL) == 0) {
                if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_JOB) {
                    printf("hoarded job %llu attempt %u\n",
                           (unsigned long long)e->job->job_id,
                           e->job->attempt);
                    fflush(stdout);
                } else if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_BYE) {
                    bye = 1;
                }
            }
            mf_wire_free(e);
        }
        zmq_msg_close(&m);
    }
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return bye ? 0 : 2;
}

static int num(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || *end || v < 1 || v > 1000000 ? -1 : (int)v;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "send"))
        return cmd_send(argv[2], argv[3]);
    if (argc >= 4 && argc <= 6 && !strcmp(argv[1], "workers")) {
        int n = num(argv[3]);
        int credit = argc > 4 ? num(argv[4]) : 1;
        int seconds = argc > 5 ? num(argv[5]) : 600;
        if (n < 1 || credit < 1 || seconds < 1)
            goto usage;
        return cmd_workers(argv[2], n, credit, seconds);
    }
    if (argc == 4 && !strcmp(argv[1], "hoard") && num(argv[3]) > 0)
        return cmd_hoard(argv[2], num(argv[3]));
usage:
    fprintf(stderr, "usage: farm_peer send ENDPOINT KIND\n"
                    "       farm_peer workers ENDPOINT N [CREDIT [SECONDS]]\n"
                    "       farm_peer hoard ENDPOINT SECONDS\n");
    return 1;
}
