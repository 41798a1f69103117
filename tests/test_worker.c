/* test_worker.c - the worker: jobs decided without sockets (campaign and
 * matrix jobs, tests sent as text or shed from an oversized result, a
 * model of the wrong hash refused), and the worker process
 * (worker/farm_worker.c) against a fake coordinator on a real ZeroMQ
 * socket: a job served and Bye obeyed, reconnection after silence,
 * SIGTERM giving back running jobs, the poison hook, a foreign protocol
 * version. The codec's own tests are test_wire.c. */
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
#include "wire_fixtures.h"

/* ------------------------------------------------------------------ */
/* Jobs decided without sockets                                         */

static void test_worker__job_is_decided_with_tests_as_text(void **state)
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
static void test_worker__long_test_travels_without_its_text(void **state)
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
static void test_worker__oversized_result_sheds_texts_then_biggest_tests(
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
static void test_worker__matrix_job_replays_the_engines_kills(void **state)
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

static void test_worker__job_with_wrong_hash_is_refused(void **state)
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

static void test_worker__worker_serves_a_job_and_leaves_on_bye(void **state)
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

static void test_worker__silent_coordinator_makes_the_worker_reconnect(
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

static void test_worker__sigterm_gives_back_running_jobs(void **state)
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

static void test_worker__poison_hook_kills_the_worker(void **state)
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

static void test_worker__foreign_protocol_version_stops_the_worker(
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
        cmocka_unit_test(test_worker__job_is_decided_with_tests_as_text),
        cmocka_unit_test(test_worker__long_test_travels_without_its_text),
        cmocka_unit_test(
            test_worker__oversized_result_sheds_texts_then_biggest_tests),
        cmocka_unit_test(test_worker__job_with_wrong_hash_is_refused),
        cmocka_unit_test(test_worker__matrix_job_replays_the_engines_kills),
        cmocka_unit_test_teardown(
            test_worker__worker_serves_a_job_and_leaves_on_bye,
            teardown_child),
        cmocka_unit_test_teardown(
            test_worker__silent_coordinator_makes_the_worker_reconnect,
            teardown_child),
        cmocka_unit_test_teardown(
            test_worker__sigterm_gives_back_running_jobs, teardown_child),
        cmocka_unit_test_teardown(
            test_worker__poison_hook_kills_the_worker, teardown_child),
        cmocka_unit_test_teardown(
            test_worker__foreign_protocol_version_stops_the_worker,
            teardown_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
