/* test_wire.c - the wire codec (proto/wire.h) and the worker process
 * (worker/farm_worker.h): every message round-trips, every kind of bad
 * frame is refused with its reason, verdicts and tests survive the trip,
 * and a real worker (a forked process) talks to a fake coordinator over
 * ipc:// (hello, credit, job, heartbeat, result, ack, bye, reconnect,
 * garbage, SIGTERM, the poison hook, a foreign protocol version). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

#include "engine.h"
#include "farm_worker.h"
#include "matrix_job.h"
#include "model.h"
#include "mutate.h"
#include "wire.h"
#include "langs.h"

#define BEVERAGE "tests/models/beverage.smv"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static mf_wire_env *decode_ok(const uint8_t *buf, size_t len)
{
    mf_wire_env *e = NULL;
    mf_wire_fault f = MF_WIRE_INVALID;
    int rc = mf_wire_decode(&e, buf, len, &f);
    if (rc != 0)
        fail_msg("decode: %s", mf_err_msg());
    assert_int_equal(f, MF_WIRE_OK);
    assert_non_null(e);
    assert_int_equal(e->protocol_version, MF_WIRE_VERSION);
    return e;
}

static mf_wire_fault decode_fault(const void *buf, size_t len)
{
    mf_wire_env *e = (mf_wire_env *)1;
    mf_wire_fault f = MF_WIRE_OK;
    int rc = mf_wire_decode(&e, buf, len, &f);
    assert_true(rc < 0);
    assert_null(e);
    assert_true(strstr(mf_err_msg(), mf_wire_fault_name(f)) != NULL);
    return f;
}

static char *model_text(void)
{
    char *text = NULL;
    size_t len = 0;
    if (mf_read_file(&text, &len, BEVERAGE, 1 << 20) < 0)
        fail_msg("%s", mf_err_msg());
    return text;
}

typedef struct {
    char ids[64][17];
    int n, want;
} idlist;

static int pick_fn(const mf_mutant *mu, void *ctx)
{
    idlist *l = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    snprintf(l->ids[l->n++], 17, "%s", mu->id);
    return l->n == l->want;
}

/* The first n checkable mutant ids of the beverage machine. */
static void pick_ids(idlist *l, int n)
{
    mf_model *m = NULL;
    assert_int_equal(mf_model_load_file(&m, BEVERAGE, NULL), 0);
    memset(l, 0, sizeof *l);
    l->want = n;
    mf_mutants_each(m, 0, pick_fn, l);
    assert_int_equal(l->n, n);
    mf_model_free(m);
}

static void job_frame(uint8_t **buf, size_t *len, const char *text,
                      const idlist *l, uint64_t job_id, const char *crash_on)
{
    const char *ids[64];
    for (int i = 0; i < l->n; i++)
        ids[i] = l->ids[i];
    mf_engine_opts eo;
    mf_engine_opts_default(&eo);
    eo.bound = 6;
    mf_wire_job_spec js = {0};
    js.job_id = job_id;
    js.attempt = 1;
    js.campaign_id = 7;
    js.model_name = "beverage.smv";
    js.model_text = text;
    js.mutant_ids = ids;
    js.nmutants = (size_t)l->n;
    js.opts = &eo;
    js.crash_on = crash_on;
    assert_int_equal(mf_wire_encode_job_spec(buf, len, &js), 0);
}

/* job_frame's job, decoded as a worker receives it. */
static mf_wire_env *job_env(const char *text, const idlist *l, uint64_t job_id)
{
    uint8_t *buf;
    size_t len;
    job_frame(&buf, &len, text, l, job_id, NULL);
    mf_wire_env *e = decode_ok(buf, len);
    free(buf);
    return e;
}

/* A test with every optional part: 2 steps, 3 slots, 2 observables, two
 * allowed observations at step 1, a deviating mutant trace. */
static mf_test *sample_test(void)
{
    mf_test *t = mf_xcalloc(1, sizeof *t);
    t->length = 2;
    t->nslots = 3;
    t->nobs = 2;
    t->inputs = mf_xcalloc(9, sizeof(mf_val));
    t->expect = mf_xcalloc(6, sizeof(mf_val));
    t->mobs = mf_xcalloc(6, sizeof(mf_val));
    for (int i = 0; i < 9; i++)
        t->inputs[i] = i % 2 ? -i : MF_SYM(i);
    for (int i = 0; i < 6; i++) {
        t->expect[i] = i * 1000;
        t->mobs[i] = -i;
    }
    t->nallowed = mf_xcalloc(3, sizeof(int));
    t->allowed = mf_xcalloc(3, sizeof(mf_val *));
    int na[3] = {1, 2, 0};
    for (int k = 0; k < 3; k++) {
        t->nallowed[k] = na[k];
        if (na[k]) {
            t->allowed[k] = mf_xcalloc((size_t)na[k] * 2, sizeof(mf_val));
            for (int a = 0; a < na[k] * 2; a++)
                t->allowed[k][a] = 100 * k + a;
        }
    }
    t->mrefuses = 1;
    return t;
}

static void assert_tests_equal(const mf_test *a, const mf_test *b)
{
    assert_int_equal(a->length, b->length);
    assert_int_equal(a->nslots, b->nslots);
    assert_int_equal(a->nobs, b->nobs);
    assert_int_equal(a->mrefuses, b->mrefuses);
    size_t states = (size_t)a->length + 1;
    assert_memory_equal(a->inputs, b->inputs,
                        states * (size_t)a->nslots * sizeof(mf_val));
    assert_memory_equal(a->expect, b->expect,
                        states * (size_t)a->nobs * sizeof(mf_val));
    assert_int_equal(!a->mobs, !b->mobs);
    if (a->mobs)
        assert_memory_equal(a->mobs, b->mobs,
                            states * (size_t)a->nobs * sizeof(mf_val));
    assert_int_equal(!a->nallowed, !b->nallowed);
    if (!a->nallowed)
        return;
    for (size_t k = 0; k < states; k++) {
        assert_int_equal(a->nallowed[k], b->nallowed[k]);
        if (a->nallowed[k])
            assert_memory_equal(a->allowed[k], b->allowed[k],
                                (size_t)a->nallowed[k] * (size_t)a->nobs *
                                    sizeof(mf_val));
    }
}

/* ------------------------------------------------------------------ */
/* Round trips                                                          */

static void test_wire__hello_round_trips(void **state)
{
    (void)state;
    Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
    h.worker_id = "node7-4242";
    h.threads = 8;
    h.z3_version = "4.8.12.0";
    h.mutfarm_version = "0.1.0";
    h.host = "node7";
    h.pid = 4242;
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_hello(&buf, &len, &h), 0);
    mf_wire_env *e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_HELLO);
    assert_string_equal(e->hello->worker_id, "node7-4242");
    assert_int_equal(e->hello->threads, 8);
    assert_string_equal(e->hello->z3_version, "4.8.12.0");
    assert_string_equal(e->hello->mutfarm_version, "0.1.0");
    assert_string_equal(e->hello->host, "node7");
    assert_int_equal(e->hello->pid, 4242);
    assert_string_equal(mf_wire_kind_name((mf_wire_kind)e->body_case),
                        "hello");
    mf_wire_free(e);
    free(buf);
}

static void test_wire__small_messages_round_trip(void **state)
{
    (void)state;
    uint8_t *buf;
    size_t len;
    mf_wire_env *e;

    assert_int_equal(mf_wire_encode_credit(&buf, &len, 3), 0);
    e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_CREDIT);
    assert_int_equal(e->credit->n, 3);
    mf_wire_free(e);
    free(buf);

    /* Empty messages still make a body (a zero heartbeat is a sign of
     * life, not a missing body). */
    assert_int_equal(mf_wire_encode_heartbeat(&buf, &len, 0), 0);
    e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_HEARTBEAT);
    assert_int_equal(e->heartbeat->busy, 0);
    mf_wire_free(e);
    free(buf);

    assert_int_equal(
        mf_wire_encode_reject(&buf, &len,
                              MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB,
                              "no lease for job 12", 12, 3),
        0);
    e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_REJECT);
    assert_int_equal(e->reject->code,
                     MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB);
    assert_string_equal(e->reject->reason, "no lease for job 12");
    assert_int_equal(e->reject->job_id, 12);
    assert_int_equal(e->reject->attempt, 3);
    mf_wire_free(e);
    free(buf);

    uint64_t ids[2] = {5, 9};
    uint32_t att[2] = {1, 2};
    assert_int_equal(mf_wire_encode_bye(&buf, &len, "stopping", ids, att, 2),
                     0);
    e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_BYE);
    assert_string_equal(e->bye->reason, "stopping");
    assert_int_equal(e->bye->n_returned, 2);
    assert_int_equal(e->bye->returned[1]->job_id, 9);
    assert_int_equal(e->bye->returned[1]->attempt, 2);
    mf_wire_free(e);
    free(buf);

    assert_int_equal(mf_wire_encode_bye(&buf, &len, NULL, NULL, NULL, 0), 0);
    e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_BYE);
    assert_int_equal(e->bye->n_returned, 0);
    mf_wire_free(e);
    free(buf);

    assert_int_equal(mf_wire_encode_ack(&buf, &len, 77, 2, 1), 0);
    e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_ACK);
    assert_int_equal(e->ack->job_id, 77);
    assert_int_equal(e->ack->attempt, 2);
    assert_true(e->ack->duplicate);
    mf_wire_free(e);
    free(buf);
}

static void test_wire__job_round_trips_with_options(void **state)
{
    (void)state;
    const char *ids[2] = {"a196fa04b25bca65", "6462af9d37615d8a"};
    const char *inputs[1] = {"inp"};
    const char *observe[2] = {"out", "wtr"};
    mf_engine_opts eo;
    mf_engine_opts_default(&eo);
    eo.bound = 17;
    eo.notion = MF_REQ_DEFINITE;
    eo.mode = MF_MODE_FRESH;
    eo.timeout_ms = 1234;
    eo.rlimit = 99999;
    eo.prove = 0;
    eo.cegis_max = 12;
    eo.method = MF_METHOD_SMT;
    eo.explicit_mb = 77;
    eo.complete = 1;
    /* The text is cut by model_len, not by its NUL. */
    const char *text = "MODULE main\nVAR x : boolean;\nTRAILING";
    size_t tlen = strlen(text) - strlen("TRAILING");
    mf_wire_job_spec js = {
        .job_id = 41, .attempt = 2, .campaign_id = 3,
        .model_name = "m.smv", .model_text = text, .model_len = tlen,
        .mutant_ids = ids, .nmutants = 2, .opts = &eo,
        .inputs = inputs, .ninputs = 1, .observe = observe, .nobserve = 2,
        .crash_on = "6462af9d37615d8a",
    };
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_job_spec(&buf, &len, &js), 0);
    mf_wire_env *e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_JOB);
    const mf_wire_job *j = e->job;
    assert_int_equal(j->job_id, 41);
    assert_int_equal(j->attempt, 2);
    assert_int_equal(j->campaign_id, 3);
    assert_string_equal(j->model_name, "m.smv");
    assert_string_equal(j->model_text, "MODULE main\nVAR x : boolean;\n");
    char hash[65];
    mf_sha256_hex(hash, text, tlen);
    assert_string_equal(j->model_sha256, hash);
    assert_int_equal(j->n_mutant_ids, 2);
    assert_string_equal(j->mutant_ids[1], ids[1]);
    assert_string_equal(j->crash_on, ids[1]);
    assert_int_equal(j->options->n_inputs, 1);
    assert_string_equal(j->options->observe[1], "wtr");

    mf_engine_opts back;
    mf_wire_opts_to_engine(&back, j->options);
    assert_int_equal(back.bound, 17);
    assert_int_equal(back.notion, MF_REQ_DEFINITE);
    assert_int_equal(back.engine, MF_ENGINE_CEGIS);
    assert_int_equal(back.mode, MF_MODE_FRESH);
    assert_int_equal(back.timeout_ms, 1234);
    assert_int_equal(back.rlimit, 99999);
    assert_int_equal(back.prove, 0);
    assert_int_equal(back.cegis_max, 12);
    assert_int_equal(back.method, MF_METHOD_SMT);
    assert_int_equal(back.explicit_mb, 77);
    assert_int_equal(back.complete, 1);
    mf_wire_free(e);
    free(buf);

    /* No options at all: the engine's defaults. */
    mf_engine_opts def, got;
    mf_engine_opts_default(&def);
    mf_wire_opts_to_engine(&got, NULL);
    assert_memory_equal(&def, &got, sizeof def);
}

static void test_wire__result_round_trips_every_verdict(void **state)
{
    (void)state;
    mf_verdict v[5];
    memset(v, 0, sizeof v);
    v[0].kind = MF_V_KILLED;
    v[0].notion = MF_N_POTENTIAL;
    v[0].orig_det = 0;
    v[0].mut_det = 1;
    v[0].test = sample_test();
    v[0].secs = 0.25;
    v[1].kind = MF_V_EQUIVALENT;
    snprintf(v[1].method, sizeof v[1].method, "lock-step induction");
    v[1].orig_det = v[1].mut_det = 1;
    v[2].kind = MF_V_SURVIVED;
    v[2].bound = 12;
    v[2].kill_len_beyond = 22; /* killable at 22, beyond the bound */
    v[3].kind = MF_V_UNKNOWN;
    snprintf(v[3].reason, sizeof v[3].reason, "timeout after 1000 ms");
    v[4].kind = MF_V_ERROR;
    snprintf(v[4].reason, sizeof v[4].reason, "self-check failed");
    const char *ids[5] = {"0000000000000001", "0000000000000002",
                          "0000000000000003", "0000000000000004",
                          "0000000000000005"};

    mf_wire_result *r = mf_wire_result_new(9, 4, 2, "w-1");
    for (int i = 0; i < 5; i++)
        mf_wire_result_add(r, ids[i], &v[i], NULL);
    mf_wire_result_add_error(r, "0000000000000006", "mutant not found");
    r->stats->wall_ms = 1500;
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_result(&buf, &len, r), 0);
    mf_wire_result_free(r);

    mf_wire_env *e = decode_ok(buf, len);
    assert_int_equal(e->body_case, MF_WIRE_RESULT);
    const mf_wire_result *d = e->result;
    assert_int_equal(d->job_id, 9);
    assert_int_equal(d->attempt, 4);
    assert_int_equal(d->campaign_id, 2);
    assert_string_equal(d->worker_id, "w-1");
    assert_int_equal(d->stats->wall_ms, 1500);
    assert_int_equal(d->n_mutants, 6);
    for (int i = 0; i < 5; i++) {
        mf_verdict b;
        assert_string_equal(d->mutants[i]->mutant_id, ids[i]);
        assert_int_equal(mf_wire_verdict_from_result(&b, d->mutants[i]), 0);
        assert_int_equal(b.kind, v[i].kind);
        assert_int_equal(b.bound, v[i].bound);
        /* Absent (0) in the others, as in a frame of an older worker. */
        assert_int_equal(b.kill_len_beyond, v[i].kill_len_beyond);
        assert_int_equal(b.orig_det, v[i].orig_det);
        assert_int_equal(b.mut_det, v[i].mut_det);
        assert_string_equal(b.method, v[i].method);
        assert_string_equal(b.reason, v[i].reason);
        if (v[i].kind == MF_V_KILLED) {
            assert_int_equal(b.notion, v[i].notion);
            assert_non_null(b.test);
            assert_tests_equal(v[i].test, b.test);
            assert_int_equal(d->mutants[i]->solver_ms, 250);
        } else {
            assert_null(b.test);
        }
        mf_verdict_clear(&b);
    }
    assert_string_equal(mf_wire_verdict_name(d->mutants[5]->verdict),
                        "error");
    assert_string_equal(d->mutants[5]->reason, "mutant not found");
    mf_wire_free(e);
    free(buf);
    for (int i = 0; i < 5; i++)
        mf_verdict_clear(&v[i]);
}

/* ------------------------------------------------------------------ */
/* Bad frames                                                           */

static void test_wire__garbage_is_undecodable(void **state)
{
    (void)state;
    /* Field 2 (hello) as a length-delimited field longer than the frame. */
    const uint8_t truncated_len[] = {0x08, 0x01, 0x12, 0x40, 0x0a};
    assert_int_equal(decode_fault(truncated_len, sizeof truncated_len),
                     MF_WIRE_UNDECODABLE);
    /* Wire type 7 does not exist. */
    const uint8_t bad_type[] = {0x0f, 0x01};
    assert_int_equal(decode_fault(bad_type, sizeof bad_type),
                     MF_WIRE_UNDECODABLE);
    const char *text = "GET / HTTP/1.1\r\nHost: coordinator\r\n\r\n";
    assert_int_equal(decode_fault(text, strlen(text)), MF_WIRE_UNDECODABLE);
    assert_int_equal(decode_fault(NULL, 5), MF_WIRE_UNDECODABLE);
}

static void test_wire__truncated_frames_never_decode_to_garbage(void **state)
{
    (void)state;
    char *text = model_text();
    idlist l;
    pick_ids(&l, 3);
    uint8_t *buf;
    size_t len;
    job_frame(&buf, &len, text, &l, 5, NULL);
    /* Every prefix either fails with a reason or is a whole, checked job
     * (a cut exactly between fields is a valid shorter message). */
    int refused = 0;
    for (size_t cut = 0; cut < len; cut++) {
        mf_wire_env *e = NULL;
        mf_wire_fault f = MF_WIRE_OK;
        int rc = mf_wire_decode(&e, buf, cut, &f);
        if (rc == 0) {
            assert_int_equal(f, MF_WIRE_OK);
            mf_wire_free(e);
        } else {
            assert_null(e);
            assert_true(f == MF_WIRE_UNDECODABLE || f == MF_WIRE_NO_BODY ||
                        f == MF_WIRE_BAD_VERSION || f == MF_WIRE_INVALID);
            refused++;
        }
    }
    assert_true(refused > (int)len / 2);
    /* The last byte matters: cut inside the job, undecodable. */
    assert_int_equal(decode_fault(buf, len - 1), MF_WIRE_UNDECODABLE);
    free(buf);
    free(text);
}

static void test_wire__wrong_version_is_refused(void **state)
{
    (void)state;
    Mutfarm__V1__Heartbeat hb = MUTFARM__V1__HEARTBEAT__INIT;
    mf_wire_env e = MUTFARM__V1__ENVELOPE__INIT;
    e.protocol_version = MF_WIRE_VERSION + 1;
    e.body_case = MUTFARM__V1__ENVELOPE__BODY_HEARTBEAT;
    e.heartbeat = &hb;
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_env(&buf, &len, &e), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_BAD_VERSION);
    assert_non_null(strstr(mf_err_msg(), "protocol version 2, expected 1"));
    assert_int_equal(
        mf_wire_fault_reject_code(MF_WIRE_BAD_VERSION),
        MUTFARM__V1__REJECT_CODE__REJECT_VERSION);
    free(buf);
    /* Version 0 (a proto3 default: a peer that never set it). */
    e.protocol_version = 0;
    assert_int_equal(mf_wire_encode_env(&buf, &len, &e), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_BAD_VERSION);
    free(buf);
}

static void test_wire__oversized_frames_are_refused(void **state)
{
    (void)state;
    /* Refused on the length alone: nothing is read. */
    size_t n = MF_WIRE_MAX_FRAME + 1;
    uint8_t *big = mf_xcalloc(n, 1);
    assert_int_equal(decode_fault(big, n), MF_WIRE_OVERSIZED);
    int rc = mf_wire_decode(&(mf_wire_env *){NULL}, big, n, NULL);
    assert_int_equal(rc, MF_ELIMIT);
    free(big);

    /* Small on the wire, huge in memory: 100,000 empty result entries
     * (2 bytes each) would unpack to ~10 MB of structs. */
    size_t k = 100000, at = 0;
    uint8_t *frame = mf_xmalloc(2 * k + 32);
    frame[at++] = 0x08; /* protocol_version = 1 */
    frame[at++] = 0x01;
    frame[at++] = 0x2a; /* result, length 2k + 4 as a varint */
    uint64_t body = 2 * k + 4;
    while (body >= 0x80) {
        frame[at++] = (uint8_t)(body | 0x80);
        body >>= 7;
    }
    frame[at++] = (uint8_t)body;
    frame[at++] = 0x08; /* job_id = 1 */
    frame[at++] = 0x01;
    frame[at++] = 0x10; /* attempt = 1 */
    frame[at++] = 0x01;
    for (size_t i = 0; i < k; i++) {
        frame[at++] = 0x2a; /* mutants: an empty MutantResult */
        frame[at++] = 0x00;
    }
    assert_int_equal(decode_fault(frame, at), MF_WIRE_OVERSIZED);
    free(frame);

    /* The encoder refuses to make what the decoder would refuse. */
    char *text = mf_xmalloc(MF_WIRE_MAX_FRAME + 10);
    memset(text, 'x', MF_WIRE_MAX_FRAME + 9);
    text[MF_WIRE_MAX_FRAME + 9] = '\0';
    const char *ids[1] = {"0123456789abcdef"};
    mf_wire_job_spec js = {.job_id = 1, .attempt = 1, .model_text = text,
                           .mutant_ids = ids, .nmutants = 1};
    uint8_t *buf = (uint8_t *)1;
    size_t len = 1;
    assert_int_equal(mf_wire_encode_job_spec(&buf, &len, &js), MF_ELIMIT);
    assert_null(buf);
    assert_int_equal(len, 0);
    free(text);
}

static void test_wire__envelope_without_body_is_refused(void **state)
{
    (void)state;
    assert_int_equal(decode_fault("", 0), MF_WIRE_NO_BODY);
    mf_wire_env e = MUTFARM__V1__ENVELOPE__INIT;
    e.protocol_version = MF_WIRE_VERSION;
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_env(&buf, &len, &e), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_NO_BODY);
    assert_int_equal(mf_wire_fault_reject_code(MF_WIRE_NO_BODY),
                     MUTFARM__V1__REJECT_CODE__REJECT_NO_BODY);
    free(buf);
}

/* A result whose single kill carries test t (as given). */
static mf_wire_fault result_fault(Mutfarm__V1__Test *t,
                                  Mutfarm__V1__Verdict verdict,
                                  const char *id)
{
    Mutfarm__V1__MutantResult mr = MUTFARM__V1__MUTANT_RESULT__INIT;
    Mutfarm__V1__MutantResult *pmr = &mr;
    mr.mutant_id = (char *)(uintptr_t)id;
    mr.verdict = verdict;
    mr.notion = MUTFARM__V1__NOTION__NOTION_DETERMINISTIC;
    mr.test = t;
    Mutfarm__V1__Result r = MUTFARM__V1__RESULT__INIT;
    r.job_id = 1;
    r.attempt = 1;
    r.n_mutants = 1;
    r.mutants = &pmr;
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_result(&buf, &len, &r), 0);
    mf_wire_env *e = NULL;
    mf_wire_fault f = MF_WIRE_OK;
    if (mf_wire_decode(&e, buf, len, &f) == 0)
        mf_wire_free(e);
    free(buf);
    return f;
}

static void test_wire__inconsistent_content_is_invalid(void **state)
{
    (void)state;
    int64_t vals[8] = {0};
    uint32_t nallowed[2] = {2, 1};
    Mutfarm__V1__Test t = MUTFARM__V1__TEST__INIT;
    t.length = 1;
    t.nslots = 2;
    t.nobs = 1;
    t.inputs = vals;
    t.n_inputs = 4;
    t.expect = vals;
    t.n_expect = 2;
    t.mrefuses = -1;
    const char *id = "00000000000000aa";
    assert_int_equal(result_fault(&t, MUTFARM__V1__VERDICT__VERDICT_KILLED, id),
                     MF_WIRE_OK);
    /* Arrays that do not match the sizes. */
    t.n_inputs = 3;
    assert_int_equal(result_fault(&t, MUTFARM__V1__VERDICT__VERDICT_KILLED, id),
                     MF_WIRE_INVALID);
    t.n_inputs = 4;
    t.nslots = 0xffffffffu; /* (length+1) * nslots overflows 32 bits */
    assert_int_equal(result_fault(&t, MUTFARM__V1__VERDICT__VERDICT_KILLED, id),
                     MF_WIRE_INVALID);
    t.nslots = 2;
    t.nallowed = nallowed;
    t.n_nallowed = 2;
    t.allowed = vals;
    t.n_allowed = 2; /* needs 3 */
    assert_int_equal(result_fault(&t, MUTFARM__V1__VERDICT__VERDICT_KILLED, id),
                     MF_WIRE_INVALID);
    t.n_allowed = 3;
    assert_int_equal(result_fault(&t, MUTFARM__V1__VERDICT__VERDICT_KILLED, id),
                     MF_WIRE_OK);
    t.mrefuses = 5;
    assert_int_equal(result_fault(&t, MUTFARM__V1__VERDICT__VERDICT_KILLED, id),
                     MF_WIRE_INVALID);
    t.mrefuses = -1;
    /* A kill without a test, an unknown verdict, a bad mutant id. */
    assert_int_equal(
        result_fault(NULL, MUTFARM__V1__VERDICT__VERDICT_KILLED, id),
        MF_WIRE_INVALID);
    assert_int_equal(result_fault(NULL, (Mutfarm__V1__Verdict)42, id),
                     MF_WIRE_INVALID);
    assert_int_equal(
        result_fault(NULL, MUTFARM__V1__VERDICT__VERDICT_UNSPECIFIED, id),
        MF_WIRE_INVALID);
    assert_int_equal(
        result_fault(NULL, MUTFARM__V1__VERDICT__VERDICT_SURVIVED, "xyz!"),
        MF_WIRE_INVALID);
    assert_int_equal(
        result_fault(NULL, MUTFARM__V1__VERDICT__VERDICT_SURVIVED, id),
        MF_WIRE_OK);

    /* Jobs: no id, a hash that is not one, no mutants. */
    const char *ids[1] = {id};
    mf_wire_job_spec js = {.job_id = 0, .attempt = 1,
                           .model_text = "MODULE main", .mutant_ids = ids,
                           .nmutants = 1};
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_job_spec(&buf, &len, &js), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    free(buf);
    js.job_id = 1;
    js.model_sha256 = "not-a-hash";
    assert_int_equal(mf_wire_encode_job_spec(&buf, &len, &js), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    free(buf);
    js.model_sha256 = NULL;
    js.nmutants = 0;
    assert_int_equal(mf_wire_encode_job_spec(&buf, &len, &js), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    assert_non_null(strstr(mf_err_msg(), "mutants"));
    free(buf);
}

/* ------------------------------------------------------------------ */
/* Matrix jobs and results (docs/protocol.md)                           */

static uint8_t *matrix_frame(size_t *len, const mf_wire_matrix_spec *js)
{
    uint8_t *buf = NULL;
    assert_int_equal(mf_wire_encode_matrix_job(&buf, len, js), 0);
    return buf;
}

static void test_wire__matrix_job_round_trips(void **state)
{
    (void)state;
    mf_test *t1 = sample_test(), *t2 = sample_test();
    t2->mrefuses = -1;
    t2->expect[3] = 77;
    const mf_test *tests[2] = {t1, t2};
    int64_t tids[2] = {5, 900};
    const char *ids[3] = {"0000000000000001", "00000000000000a2",
                          "ffffffffffffffff"};
    int64_t vt[3] = {900, 0, 5};
    const char *obs[1] = {"out"};
    mf_wire_matrix_spec js = {
        .job_id = 41, .attempt = 2, .campaign_id = 3, .model_name = "m.smv",
        .model_text = "MODULE main\nVAR x : boolean;\n", .observe = obs,
        .nobserve = 1, .test_ids = tids, .tests = tests, .ntests = 2,
        .mutant_ids = ids, .verdict_tests = vt, .nmutants = 3};
    size_t len;
    uint8_t *buf = matrix_frame(&len, &js);
    mf_wire_env *e = decode_ok(buf, len);
    free(buf);
    assert_int_equal(e->body_case, MF_WIRE_MATRIX_JOB);
    const mf_wire_matrix_job *j = e->matrix_job;
    assert_int_equal(j->job_id, 41);
    assert_int_equal(j->attempt, 2);
    assert_int_equal(j->campaign_id, 3);
    assert_string_equal(j->model_name, "m.smv");
    char hash[65];
    mf_sha256_hex(hash, js.model_text, strlen(js.model_text));
    assert_string_equal(j->model_sha256, hash);
    assert_int_equal(j->n_inputs, 0);
    assert_int_equal(j->n_observe, 1);
    assert_string_equal(j->observe[0], "out");
    assert_int_equal(j->n_tests, 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(j->tests[i]->test_id, (uint64_t)tids[i]);
        mf_test *back = NULL;
        assert_int_equal(mf_wire_test_decode(&back, j->tests[i]->test), 0);
        assert_tests_equal(tests[i], back);
        mf_test_free(back);
    }
    assert_int_equal(j->n_mutant_ids, 3);
    assert_int_equal(j->n_verdict_tests, 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(j->mutant_ids[i], ids[i]);
        assert_int_equal(j->verdict_tests[i], (uint64_t)vt[i]);
    }
    mf_wire_free(e);

    /* Without verdict tests: none sent. */
    js.verdict_tests = NULL;
    buf = matrix_frame(&len, &js);
    e = decode_ok(buf, len);
    free(buf);
    assert_int_equal(e->matrix_job->n_verdict_tests, 0);
    mf_wire_free(e);

    /* Refused: no tests, a test id 0, a bad mutant id. */
    js.ntests = 0;
    buf = matrix_frame(&len, &js);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    assert_non_null(strstr(mf_err_msg(), "tests"));
    free(buf);
    js.ntests = 2;
    tids[1] = 0;
    buf = matrix_frame(&len, &js);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    free(buf);
    tids[1] = 900;
    ids[1] = "XYZ";
    buf = matrix_frame(&len, &js);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    free(buf);
    ids[1] = "00000000000000a2";
    /* A test whose arrays do not match its sizes. */
    buf = matrix_frame(&len, &js);
    mf_wire_env *raw = mutfarm__v1__envelope__unpack(NULL, len, buf);
    free(buf);
    assert_non_null(raw);
    raw->matrix_job->tests[1]->test->nobs = 1; /* its arrays are for 2 */
    assert_int_equal(mf_wire_encode_env(&buf, &len, raw), 0);
    mutfarm__v1__envelope__free_unpacked(raw, NULL);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    assert_non_null(strstr(mf_err_msg(), "expected values"));
    free(buf);
    mf_test_free(t1);
    mf_test_free(t2);
}

static void test_wire__matrix_result_round_trips(void **state)
{
    (void)state;
    mf_wire_matrix_result *r = mf_wire_matrix_result_new(41, 2, 3, "node-9");
    const char *ids[3] = {"0000000000000001", "00000000000000a2",
                          "ffffffffffffffff"};
    for (int i = 0; i < 300; i++)
        mf_wire_matrix_result_add(r, 5 + (uint64_t)(i % 7), ids[i % 3],
                                  (mf_notion)(i % 3), i % 11,
                                  i % 5 ? -1 : i % 4);
    r->pairs = 1000;
    r->undecided = 3;
    r->unconfirmed = 1;
    mf_wire_matrix_result_why(r, "test 5 on mutant 0000000000000001: more "
                                 "than 20000 states in one step");
    size_t len;
    uint8_t *buf = NULL;
    assert_int_equal(mf_wire_encode_matrix_result(&buf, &len, r), 0);
    mf_wire_env *e = decode_ok(buf, len);
    free(buf);
    assert_int_equal(e->body_case, MF_WIRE_MATRIX_RESULT);
    const mf_wire_matrix_result *d = e->matrix_result;
    assert_int_equal(d->job_id, 41);
    assert_int_equal(d->attempt, 2);
    assert_int_equal(d->campaign_id, 3);
    assert_string_equal(d->worker_id, "node-9");
    assert_int_equal(d->pairs, 1000);
    assert_int_equal(d->undecided, 3);
    assert_int_equal(d->unconfirmed, 1);
    assert_string_equal(d->undecided_why, r->undecided_why);
    assert_int_equal(d->n_kills, 300);
    for (int i = 0; i < 300; i++) {
        const mf_wire_kill_row *k = d->kills[i];
        assert_int_equal(k->test_id, 5 + (uint64_t)(i % 7));
        assert_string_equal(k->mutant_id, ids[i % 3]);
        assert_int_equal(mf_wire_notion(k->notion), (mf_notion)(i % 3));
        assert_int_equal(k->step, i % 11);
        assert_int_equal(k->refuses, i % 5 ? -1 : i % 4);
    }
    mf_wire_free(e);

    /* Refused: a kill with no notion, counts that do not add up. */
    r->kills[7]->notion = MUTFARM__V1__NOTION__NOTION_AUTO;
    assert_int_equal(mf_wire_encode_matrix_result(&buf, &len, r), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    free(buf);
    r->kills[7]->notion = MUTFARM__V1__NOTION__NOTION_DEFINITE;
    r->pairs = 2; /* fewer than its kills */
    assert_int_equal(mf_wire_encode_matrix_result(&buf, &len, r), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    assert_non_null(strstr(mf_err_msg(), "add up"));
    free(buf);
    r->pairs = 1000;
    r->kills[3]->test_id = 0;
    assert_int_equal(mf_wire_encode_matrix_result(&buf, &len, r), 0);
    assert_int_equal(decode_fault(buf, len), MF_WIRE_INVALID);
    free(buf);
    mf_wire_matrix_result_free(r);
}

/* ------------------------------------------------------------------ */
/* Jobs decided without sockets                                         */

static void test_wire__job_is_decided_with_tests_as_text(void **state)
{
    (void)state;
    char *text = model_text();
    idlist l;
    pick_ids(&l, 3);
    snprintf(l.ids[l.n++], 17, "%s", "ffffffffffffffff"); /* not a mutant */
    mf_wire_env *e = job_env(text, &l, 11);

    mf_wire_result *r = NULL;
    assert_int_equal(mf_worker_do_job(&r, e->job, "w-test"), 0);
    assert_int_equal(r->job_id, 11);
    assert_int_equal(r->attempt, 1);
    assert_int_equal(r->campaign_id, 7);
    assert_int_equal(r->n_mutants, 4);
    int kills = 0;
    for (int i = 0; i < 3; i++) {
        Mutfarm__V1__MutantResult *mr = r->mutants[i];
        assert_string_equal(mr->mutant_id, l.ids[i]);
        assert_int_not_equal(mr->verdict, MUTFARM__V1__VERDICT__VERDICT_ERROR);
        if (mr->verdict == MUTFARM__V1__VERDICT__VERDICT_KILLED) {
            kills++;
            assert_non_null(mr->test);
            assert_int_equal(mr->test->n_steps, mr->test->length + 1);
            assert_non_null(strstr(mr->test->steps[0]->expect, "out="));
            assert_non_null(strstr(mr->test->text, "# expect"));
        }
    }
    assert_true(kills > 0);
    assert_int_equal(r->mutants[3]->verdict,
                     MUTFARM__V1__VERDICT__VERDICT_ERROR);
    assert_non_null(strstr(r->mutants[3]->reason, "not found"));

    /* And it travels: encode, decode, every kill converts back. */
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_result(&buf, &len, r), 0);
    mf_wire_env *d = decode_ok(buf, len);
    for (size_t i = 0; i < d->result->n_mutants; i++) {
        mf_verdict v;
        assert_int_equal(
            mf_wire_verdict_from_result(&v, d->result->mutants[i]), 0);
        mf_verdict_clear(&v);
    }
    mf_wire_free(d);
    free(buf);
    mf_wire_result_free(r);
    mf_wire_free(e);
    free(text);
}

/* A killing test of the beverage machine from the engine (the first
 * of its first mutants that is killed), and the model. */
static mf_test *beverage_kill(mf_model **m)
{
    char *text = model_text();
    idlist l;
    pick_ids(&l, 8);
    mf_wire_env *e = job_env(text, &l, 13);
    mf_wire_result *r = NULL;
    assert_int_equal(mf_worker_do_job(&r, e->job, "w-test"), 0);
    mf_test *t = NULL;
    for (size_t i = 0; i < r->n_mutants && !t; i++)
        if (r->mutants[i]->test)
            assert_int_equal(mf_wire_test_decode(&t, r->mutants[i]->test), 0);
    assert_non_null(t);
    mf_wire_result_free(r);
    mf_wire_free(e);
    free(text);
    assert_int_equal(mf_model_load_file(m, BEVERAGE, NULL), 0);
    return t;
}

/* t stretched to len steps, every state past its own a copy of its last
 * one (values of the right types, so that it prints). */
static mf_test *stretched(const mf_test *t, int len)
{
    mf_test *s = mf_test_new(t->nslots, t->nobs, len);
    for (int k = 0; k <= len; k++) {
        int from = k < t->length ? k : t->length;
        memcpy(s->inputs + (size_t)k * (size_t)t->nslots,
               t->inputs + (size_t)from * (size_t)t->nslots,
               (size_t)t->nslots * sizeof(mf_val));
        memcpy(s->expect + (size_t)k * (size_t)t->nobs,
               t->expect + (size_t)from * (size_t)t->nobs,
               (size_t)t->nobs * sizeof(mf_val));
    }
    return s;
}

/* A test whose text would pass MF_WIRE_TEXT_MAX travels as its arrays
 * alone, and they arrive whole; a short one keeps its text. */
static void test_wire__long_test_travels_without_its_text(void **state)
{
    (void)state;
    mf_model *m = NULL;
    mf_test *t = beverage_kill(&m);
    mf_verdict v[2];
    memset(v, 0, sizeof v);
    v[0].kind = v[1].kind = MF_V_KILLED;
    v[0].test = stretched(t, 4000);
    v[1].test = stretched(t, t->length + 1);
    mf_buf b = {0};
    mf_test_print(&b, m, v[0].test);
    size_t text_len = b.len;
    assert_true(text_len > MF_WIRE_TEXT_MAX);
    mf_buf_free(&b);

    mf_wire_result *r = mf_wire_result_new(3, 1, 1, "w-1");
    mf_wire_result_add(r, "0000000000000001", &v[0], m);
    mf_wire_result_add(r, "0000000000000002", &v[1], m);
    assert_int_equal(r->mutants[0]->test->n_steps, 0);
    assert_string_equal(r->mutants[0]->test->text, "");
    assert_int_equal(r->mutants[1]->test->n_steps,
                     r->mutants[1]->test->length + 1);
    assert_non_null(strstr(r->mutants[1]->test->text, "# expect"));
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_result(&buf, &len, r), 0);
    /* With its text (twice: steps and text) the frame would be longer
     * than the text alone. */
    assert_true(len < text_len);
    mf_wire_result_free(r);
    mf_wire_env *e = decode_ok(buf, len);
    for (int i = 0; i < 2; i++) {
        mf_verdict d;
        assert_int_equal(mf_wire_verdict_from_result(&d, e->result->mutants[i]),
                         0);
        assert_int_equal(d.kind, MF_V_KILLED);
        assert_tests_equal(v[i].test, d.test);
        mf_verdict_clear(&d);
    }
    mf_wire_free(e);
    free(buf);
    mf_verdict_clear(&v[0]);
    mf_verdict_clear(&v[1]);
    mf_test_free(t);
    mf_model_free(m);
}

/* A test of len steps with nslots input slots of values that take 6
 * bytes each on the wire, and no observables. */
static mf_test *wide_test(int len, int nslots)
{
    mf_test *t = mf_test_new(nslots, 0, len);
    size_t n = (size_t)(len + 1) * (size_t)nslots;
    for (size_t i = 0; i < n; i++)
        t->inputs[i] = MF_SYM(i % 7);
    return t;
}

/* A result over the frame limit: texts go first, and where that is
 * enough every verdict stays; then the biggest tests go, their mutants
 * unknown with the reason, the others as they were, and the frame
 * fits and decodes. */
static void test_wire__oversized_result_sheds_texts_then_biggest_tests(
    void **state)
{
    (void)state;
    mf_model *m = NULL;
    mf_test *t = beverage_kill(&m);
    /* Texts just under MF_WIRE_TEXT_MAX, sent twice (steps and text):
     * enough of them pass the frame limit, their arrays do not. */
    int len = t->length;
    for (mf_buf b = {0};; len += 50) {
        mf_test *s = stretched(t, len + 50);
        mf_buf_reset(&b);
        mf_test_print(&b, m, s);
        mf_test_free(s);
        if (b.len > MF_WIRE_TEXT_MAX) {
            mf_buf_free(&b);
            break;
        }
    }
    mf_verdict v = {0};
    v.kind = MF_V_KILLED;
    v.test = stretched(t, len);
    mf_wire_result *r = mf_wire_result_new(4, 1, 1, "w-1");
    int n = 0;
    char id[17];
    uint8_t *buf = NULL;
    size_t blen = 0;
    while (mf_wire_encode_result(&buf, &blen, r) == 0) {
        free(buf);
        snprintf(id, sizeof id, "%016x", ++n);
        mf_wire_result_add(r, id, &v, m);
    }
    assert_null(buf);
    assert_true(r->mutants[0]->test->n_steps > 0);
    assert_int_equal(mf_wire_result_fit(r, MF_WIRE_MAX_FRAME), 0);
    assert_int_equal(mf_wire_encode_result(&buf, &blen, r), 0);
    mf_wire_env *e = decode_ok(buf, blen);
    assert_int_equal(e->result->n_mutants, (size_t)n);
    for (int i = 0; i < n; i++) {
        Mutfarm__V1__MutantResult *mr = e->result->mutants[i];
        assert_int_equal(mr->verdict, MUTFARM__V1__VERDICT__VERDICT_KILLED);
        assert_int_equal(mr->test->n_steps, 0);
        assert_int_equal(mr->test->length, (uint32_t)len);
    }
    mf_wire_free(e);
    free(buf);
    mf_wire_result_free(r);
    mf_verdict_clear(&v);

    /* Arrays alone too big: three tests of ~6 MB each, and a short one.
     * One big test goes; the rest arrive. */
    mf_verdict w[4];
    memset(w, 0, sizeof w);
    int steps[4] = {250000, 10, 300000, 280000};
    r = mf_wire_result_new(5, 1, 1, "w-1");
    for (int i = 0; i < 4; i++) {
        w[i].kind = MF_V_KILLED;
        w[i].test = wide_test(steps[i], 4);
        snprintf(id, sizeof id, "%016x", i + 1);
        mf_wire_result_add(r, id, &w[i], NULL);
    }
    assert_int_equal(mf_wire_encode_result(&buf, &blen, r), MF_ELIMIT);
    assert_int_equal(mf_wire_result_fit(r, MF_WIRE_MAX_FRAME), 1);
    assert_int_equal(mf_wire_encode_result(&buf, &blen, r), 0);
    mf_wire_result_free(r);
    e = decode_ok(buf, blen);
    for (int i = 0; i < 4; i++) {
        mf_verdict d;
        assert_int_equal(mf_wire_verdict_from_result(&d, e->result->mutants[i]),
                         0);
        if (i == 2) { /* the longest */
            assert_int_equal(d.kind, MF_V_UNKNOWN);
            assert_null(d.test);
            assert_non_null(strstr(d.reason, "does not fit"));
            assert_non_null(strstr(d.reason, "300000 steps"));
        } else {
            assert_int_equal(d.kind, MF_V_KILLED);
            assert_tests_equal(w[i].test, d.test);
        }
        mf_verdict_clear(&d);
    }
    mf_wire_free(e);
    free(buf);
    for (int i = 0; i < 4; i++)
        mf_verdict_clear(&w[i]);
    mf_test_free(t);
    mf_model_free(m);
}

/* A matrix job made of the engine's own kills: every killed mutant is
 * killed again by its test in the replay, none is unconfirmed, and a
 * job naming a mutant the model lacks is refused as a whole. */
static void test_wire__matrix_job_replays_the_engines_kills(void **state)
{
    (void)state;
    char *text = model_text();
    idlist l;
    pick_ids(&l, 8);
    mf_wire_env *e = job_env(text, &l, 12);
    mf_wire_result *r = NULL;
    assert_int_equal(mf_worker_do_job(&r, e->job, "w-test"), 0);
    mf_test *tests[8];
    int64_t tids[8], vt[8] = {0};
    const char *ids[9];
    int nt = 0;
    for (int i = 0; i < 8; i++) {
        ids[i] = l.ids[i];
        Mutfarm__V1__MutantResult *mr = r->mutants[i];
        if (mr->verdict != MUTFARM__V1__VERDICT__VERDICT_KILLED)
            continue;
        assert_int_equal(mf_wire_test_decode(&tests[nt], mr->test), 0);
        tids[nt] = 100 + nt;
        vt[i] = tids[nt];
        nt++;
    }
    assert_true(nt >= 2);
    mf_wire_matrix_spec js = {
        .job_id = 5, .attempt = 1, .campaign_id = 7,
        .model_name = "beverage.smv", .model_text = text, .test_ids = tids,
        .tests = (const mf_test *const *)tests, .ntests = (size_t)nt,
        .mutant_ids = ids, .verdict_tests = vt, .nmutants = 8};
    size_t len;
    uint8_t *buf = matrix_frame(&len, &js);
    mf_wire_env *me = decode_ok(buf, len);
    free(buf);
    mf_wire_matrix_result *mr = NULL;
    assert_int_equal(mf_worker_do_matrix_job(&mr, me->matrix_job, "w-m"), 0);
    assert_int_equal(mr->job_id, 5);
    assert_int_equal(mr->pairs, (uint64_t)nt * 8);
    assert_int_equal(mr->undecided, 0);
    assert_int_equal(mr->unconfirmed, 0);
    for (int i = 0; i < 8; i++) {
        if (!vt[i])
            continue;
        int found = 0;
        for (size_t k = 0; k < mr->n_kills; k++)
            found |= mr->kills[k]->test_id == (uint64_t)vt[i] &&
                     !strcmp(mr->kills[k]->mutant_id, ids[i]);
        assert_true(found);
    }
    mf_wire_matrix_result_free(mr);
    mf_wire_free(me);

    /* A mutant the model does not have: refused, with a Reject frame. */
    ids[8] = "ffffffffffffffff";
    js.nmutants = 9;
    js.verdict_tests = NULL;
    buf = matrix_frame(&len, &js);
    me = decode_ok(buf, len);
    free(buf);
    assert_int_equal(mf_worker_do_matrix_job(&mr, me->matrix_job, "w-m"),
                     MF_EPARSE);
    assert_null(mr);
    assert_non_null(strstr(mf_err_msg(), "not found"));
    int refused = 0;
    mf_worker_matrix_frame(&buf, &len, &refused, me->matrix_job, "w-m");
    assert_int_equal(refused, 1);
    mf_wire_env *rj = decode_ok(buf, len);
    assert_int_equal(rj->body_case, MF_WIRE_REJECT);
    assert_int_equal(rj->reject->code,
                     MUTFARM__V1__REJECT_CODE__REJECT_JOB_REFUSED);
    assert_int_equal(rj->reject->job_id, 5);
    mf_wire_free(rj);
    free(buf);
    mf_wire_free(me);
    for (int i = 0; i < nt; i++)
        mf_test_free(tests[i]);
    mf_wire_result_free(r);
    mf_wire_free(e);
    free(text);
}

static void test_wire__job_with_wrong_hash_is_refused(void **state)
{
    (void)state;
    char *text = model_text();
    idlist l;
    pick_ids(&l, 1);
    mf_wire_env *e = job_env(text, &l, 12);
    /* The text no longer matches its hash. */
    e->job->model_text[0] = e->job->model_text[0] == ' ' ? '\n' : ' ';
    mf_wire_result *r = (mf_wire_result *)1;
    assert_int_equal(mf_worker_do_job(&r, e->job, "w"), MF_EPARSE);
    assert_null(r);
    assert_non_null(strstr(mf_err_msg(), "hashes to"));
    mf_wire_free(e);
    free(text);
}

/* ------------------------------------------------------------------ */
/* A real worker process and a fake coordinator                         */

static pid_t child = -1;
static char endpoint[128];

static int teardown_child(void **state)
{
    (void)state;
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    child = -1;
    char path[128];
    snprintf(path, sizeof path, "%s", endpoint + strlen("ipc://"));
    unlink(path);
    return 0;
}

static void spawn_worker(unsigned grace_ms, int poison)
{
    snprintf(endpoint, sizeof endpoint, "ipc:///tmp/mf-test-wire-%ld.ipc",
             (long)getpid());
    fflush(NULL);
    child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        if (poison)
            setenv("MF_TEST_POISON", "1", 1);
        mf_worker_opts o;
        mf_worker_opts_default(&o);
        o.connect = endpoint;
        o.threads = 2;
        o.heartbeat_ms = 100;
        o.liveness = 4;
        o.reconnect_min_ms = 50;
        o.reconnect_max_ms = 200;
        o.grace_ms = grace_ms;
        o.mutfarm_version = "test";
        int rc = mf_worker_run(&o);
        if (rc < 0)
            fprintf(stderr, "worker: %s\n", mf_err_msg());
        /* exit, not _exit: under ASan the leak check runs on the worker. */
        exit(rc < 0 ? 2 : 0);
    }
}

typedef struct {
    void *ctx, *router;
    char beat_to[256]; /* heartbeat this peer while waiting ("": none) */
} fake_coord;

static void coord_up(fake_coord *c)
{
    c->beat_to[0] = '\0';
    c->ctx = zmq_ctx_new();
    c->router = zmq_socket(c->ctx, ZMQ_ROUTER);
    int zero = 0;
    zmq_setsockopt(c->router, ZMQ_LINGER, &zero, sizeof zero);
    assert_int_equal(zmq_bind(c->router, endpoint), 0);
}

static void coord_down(fake_coord *c)
{
    zmq_close(c->router);
    zmq_ctx_term(c->ctx);
}

static void coord_send(fake_coord *c, const char *ident, const void *buf,
                       size_t len)
{
    assert_true(zmq_send(c->router, ident, strlen(ident), ZMQ_SNDMORE) >= 0);
    assert_true(zmq_send(c->router, buf, len, 0) >= 0);
}

static void coord_send_heartbeat(fake_coord *c, const char *ident)
{
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_heartbeat(&buf, &len, 0), 0);
    coord_send(c, ident, buf, len);
    free(buf);
}

/* job_frame's job, sent to the worker at ident. */
static void coord_send_job(fake_coord *c, const char *ident, const char *text,
                           const idlist *l, uint64_t job_id,
                           const char *crash_on)
{
    uint8_t *buf;
    size_t len;
    job_frame(&buf, &len, text, l, job_id, crash_on);
    coord_send(c, ident, buf, len);
    free(buf);
}

/* The next message of kind `want` (others skipped, counted in *skipped
 * when given), within ms; its routing identity in ident. */
static mf_wire_env *coord_expect(fake_coord *c, mf_wire_kind want, int ms,
                                 char *ident, int *skipped)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        long spent = (t.tv_sec - t0.tv_sec) * 1000 +
                     (t.tv_nsec - t0.tv_nsec) / 1000000;
        if (spent >= ms)
            fail_msg("no %s from the worker within %d ms",
                     mf_wire_kind_name(want), ms);
        zmq_pollitem_t it = {c->router, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, ms - spent < 50 ? ms - spent : 50) <= 0) {
            if (c->beat_to[0]) /* the coordinator's side of liveness */
                coord_send_heartbeat(c, c->beat_to);
            continue;
        }
        char id[256];
        int idn = zmq_recv(c->router, id, sizeof id - 1, 0);
        assert_true(idn > 0);
        id[idn] = '\0';
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        assert_true(zmq_msg_recv(&msg, c->router, 0) >= 0);
        mf_wire_env *e = NULL;
        int rc = mf_wire_decode(&e, zmq_msg_data(&msg), zmq_msg_size(&msg),
                                NULL);
        zmq_msg_close(&msg);
        if (rc < 0)
            fail_msg("the worker sent a bad frame: %s", mf_err_msg());
        if (e->body_case == (Mutfarm__V1__Envelope__BodyCase)want) {
            if (ident)
                snprintf(ident, 256, "%s", id);
            return e;
        }
        if (skipped && e->body_case == MUTFARM__V1__ENVELOPE__BODY_HEARTBEAT)
            (*skipped)++;
        mf_wire_free(e);
    }
}

/* The worker's hello; its routing identity in ident. */
static void coord_hello(fake_coord *c, char *ident)
{
    mf_wire_free(coord_expect(c, MF_WIRE_HELLO, 10000, ident, NULL));
}

/* Wait for the worker to end within ms; its wait status. */
static int wait_child(int ms)
{
    for (int waited = 0; waited < ms; waited += 20) {
        int st;
        pid_t p = waitpid(child, &st, WNOHANG);
        if (p == child) {
            child = -1;
            return st;
        }
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
    fail_msg("the worker did not exit within %d ms", ms);
    return -1;
}

/* The worker exits with `code` within ms. */
static void assert_child_exits(int ms, int code)
{
    int st = wait_child(ms);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), code);
}

static void test_wire__worker_serves_a_job_and_leaves_on_bye(void **state)
{
    (void)state;
    char *text = model_text();
    idlist l;
    pick_ids(&l, 3);
    spawn_worker(10000, 0);
    /* Started before its coordinator: it connects once we are up. */
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
    fake_coord c;
    coord_up(&c);
    char ident[256];
    mf_wire_env *e = coord_expect(&c, MF_WIRE_HELLO, 10000, ident, NULL);
    assert_int_equal(e->hello->threads, 2);
    assert_string_equal(e->hello->mutfarm_version, "test");
    assert_true(strlen(e->hello->z3_version) > 0);
    assert_true(strlen(e->hello->worker_id) > 0);
    mf_wire_free(e);
    e = coord_expect(&c, MF_WIRE_CREDIT, 5000, NULL, NULL);
    assert_int_equal(e->credit->n, 2);
    mf_wire_free(e);
    snprintf(c.beat_to, sizeof c.beat_to, "%s", ident);

    coord_send_job(&c, ident, text, &l, 21, NULL);
    /* Garbage in between is dropped, not fatal. */
    coord_send(&c, ident, "\xff\xff\xff", 3);
    int beats = 0;
    e = coord_expect(&c, MF_WIRE_RESULT, 120000, NULL, &beats);
    assert_int_equal(e->result->job_id, 21);
    assert_int_equal(e->result->attempt, 1);
    assert_int_equal(e->result->n_mutants, 3);
    for (int i = 0; i < 3; i++)
        assert_string_equal(e->result->mutants[i]->mutant_id, l.ids[i]);
    uint64_t solver_ms = e->result->stats->solver_ms;
    mf_wire_free(e);
    /* Heartbeats flowed while the job ran (one per 100 ms). */
    if (solver_ms > 400)
        assert_true(beats >= 1);
    e = coord_expect(&c, MF_WIRE_CREDIT, 5000, NULL, NULL);
    assert_int_equal(e->credit->n, 1);
    mf_wire_free(e);

    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_ack(&buf, &len, 21, 1, 0), 0);
    coord_send(&c, ident, buf, len);
    free(buf);
    assert_int_equal(mf_wire_encode_bye(&buf, &len, "campaign complete",
                                        NULL, NULL, 0),
                     0);
    coord_send(&c, ident, buf, len);
    free(buf);
    assert_child_exits(10000, 0);
    coord_down(&c);
    free(text);
}

static void test_wire__silent_coordinator_makes_the_worker_reconnect(
    void **state)
{
    (void)state;
    spawn_worker(10000, 0);
    fake_coord c;
    coord_up(&c);
    char first[256], second[256];
    mf_wire_env *e = coord_expect(&c, MF_WIRE_HELLO, 10000, first, NULL);
    mf_wire_free(e);
    /* We say nothing: after 4 x 100 ms it gives up on this connection and
     * says hello again on a fresh one. */
    e = coord_expect(&c, MF_WIRE_HELLO, 10000, second, NULL);
    mf_wire_free(e);
    assert_string_not_equal(first, second);
    coord_send_heartbeat(&c, second);
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_bye(&buf, &len, "done", NULL, NULL, 0),
                     0);
    coord_send(&c, second, buf, len);
    free(buf);
    assert_child_exits(10000, 0);
    coord_down(&c);
}

static void test_wire__sigterm_gives_back_running_jobs(void **state)
{
    (void)state;
    char *text = model_text();
    idlist l;
    pick_ids(&l, 20);
    spawn_worker(0, 0); /* no grace: give back at once */
    fake_coord c;
    coord_up(&c);
    char ident[256];
    coord_hello(&c, ident);
    coord_send_job(&c, ident, text, &l, 31, NULL);
    coord_send_heartbeat(&c, ident);
    /* Let the job start, then stop the worker. */
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
    kill(child, SIGTERM);
    mf_wire_env *e = coord_expect(&c, MF_WIRE_BYE, 10000, NULL, NULL);
    if (e->bye->n_returned) { /* unless the job was already done */
        assert_int_equal(e->bye->n_returned, 1);
        assert_int_equal(e->bye->returned[0]->job_id, 31);
        assert_int_equal(e->bye->returned[0]->attempt, 1);
    }
    mf_wire_free(e);
    assert_child_exits(10000, 0);
    coord_down(&c);
    free(text);
}

static void test_wire__poison_hook_kills_the_worker(void **state)
{
    (void)state;
    char *text = model_text();
    idlist l;
    pick_ids(&l, 3);
    spawn_worker(10000, 1);
    fake_coord c;
    coord_up(&c);
    char ident[256];
    coord_hello(&c, ident);
    coord_send_job(&c, ident, text, &l, 41, l.ids[1]);
    int st = wait_child(30000);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);
    coord_down(&c);
    free(text);
}

static void test_wire__foreign_protocol_version_stops_the_worker(
    void **state)
{
    (void)state;
    spawn_worker(10000, 0);
    fake_coord c;
    coord_up(&c);
    char ident[256];
    coord_hello(&c, ident);
    Mutfarm__V1__Heartbeat hb = MUTFARM__V1__HEARTBEAT__INIT;
    mf_wire_env env = MUTFARM__V1__ENVELOPE__INIT;
    env.protocol_version = 99;
    env.body_case = MUTFARM__V1__ENVELOPE__BODY_HEARTBEAT;
    env.heartbeat = &hb;
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_env(&buf, &len, &env), 0);
    coord_send(&c, ident, buf, len);
    free(buf);
    assert_child_exits(10000, 2);
    coord_down(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wire__hello_round_trips),
        cmocka_unit_test(test_wire__small_messages_round_trip),
        cmocka_unit_test(test_wire__job_round_trips_with_options),
        cmocka_unit_test(test_wire__result_round_trips_every_verdict),
        cmocka_unit_test(test_wire__garbage_is_undecodable),
        cmocka_unit_test(test_wire__truncated_frames_never_decode_to_garbage),
        cmocka_unit_test(test_wire__wrong_version_is_refused),
        cmocka_unit_test(test_wire__oversized_frames_are_refused),
        cmocka_unit_test(test_wire__envelope_without_body_is_refused),
        cmocka_unit_test(test_wire__inconsistent_content_is_invalid),
        cmocka_unit_test(test_wire__matrix_job_round_trips),
        cmocka_unit_test(test_wire__matrix_result_round_trips),
        cmocka_unit_test(test_wire__job_is_decided_with_tests_as_text),
        cmocka_unit_test(test_wire__long_test_travels_without_its_text),
        cmocka_unit_test(
            test_wire__oversized_result_sheds_texts_then_biggest_tests),
        cmocka_unit_test(test_wire__job_with_wrong_hash_is_refused),
        cmocka_unit_test(test_wire__matrix_job_replays_the_engines_kills),
        cmocka_unit_test_teardown(
            test_wire__worker_serves_a_job_and_leaves_on_bye, teardown_child),
        cmocka_unit_test_teardown(
            test_wire__silent_coordinator_makes_the_worker_reconnect,
            teardown_child),
        cmocka_unit_test_teardown(test_wire__sigterm_gives_back_running_jobs,
                                  teardown_child),
        cmocka_unit_test_teardown(test_wire__poison_hook_kills_the_worker,
                                  teardown_child),
        cmocka_unit_test_teardown(
            test_wire__foreign_protocol_version_stops_the_worker,
            teardown_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
