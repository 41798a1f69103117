/* test_matrix_farm.c - the farm's fill of the kill matrix
 * (coordinator/report/matrix_farm.h) against a scripted worker on a real
 * ipc:// socket, in this process (farm/'s serving loop with the matrix
 * as its kind of work): a worker whose Hello does not say matrix_jobs,
 * or names other kinds of farm work only, gets no job; a result naming a
 * mutant its job does not hold is refused (INVALID) and the job leased
 * again; a result sent twice is acknowledged the second time as a
 * duplicate; the jobs done by the real matrix job code
 * (worker/matrix_job.c) give the table of the local fill (the real
 * binary's `mutfarm matrix` on a copy of the store). Which kinds a Hello
 * takes, with and without its list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

#include "matrix_farm.h"
#include "matrix_job.h"
#include "wire.h"

static const char *bin(void)
{
    const char *b = getenv("MF_BIN");
    return b && *b ? b : "./build/mutfarm";
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "failed (%d): %s\n", rc, cmd);
    return rc;
}

typedef struct {
    mf_matrix_farm *f;
    mf_matrix_stats st;
    int rc;
} served;

static void *serve(void *arg)
{
    served *s = arg;
    s->rc = mf_matrix_farm_run(s->f, &s->st);
    return NULL;
}

static void send_frame(void *d, uint8_t *buf, size_t len)
{
    assert_int_equal(zmq_send(d, buf, len, 0), (int)len);
    free(buf);
}

/* A Hello that says matrix_jobs (an older worker's way), or names one
 * kind of farm work (kind; NULL: none). */
static void hello_kind(void *d, const char *id, int matrix, const char *kind)
{
    Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
    char *kinds[1] = {(char *)(uintptr_t)kind};
    h.worker_id = (char *)(uintptr_t)id;
    h.threads = 1;
    h.z3_version = "";
    h.mutfarm_version = "";
    h.host = "";
    h.matrix_jobs = matrix;
    h.n_kinds = kind ? 1 : 0;
    h.kinds = kind ? kinds : NULL;
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_hello(&buf, &len, &h), 0);
    send_frame(d, buf, len);
}

static void hello(void *d, const char *id, int matrix)
{
    hello_kind(d, id, matrix, NULL);
}

static void credit(void *d)
{
    uint8_t *buf;
    size_t len;
    assert_int_equal(mf_wire_encode_credit(&buf, &len, 1), 0);
    send_frame(d, buf, len);
}

/* The next frame that is not a heartbeat, within ms; NULL if none. */
static mf_wire_env *next(void *d, int ms)
{
    for (;;) {
        zmq_pollitem_t it = {d, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, ms) <= 0)
            return NULL;
        zmq_msg_t m;
        zmq_msg_init(&m);
        assert_true(zmq_msg_recv(&m, d, 0) >= 0);
        mf_wire_env *e = NULL;
        int rc = mf_wire_decode(&e, zmq_msg_data(&m), zmq_msg_size(&m), NULL);
        zmq_msg_close(&m);
        assert_int_equal(rc, 0);
        if ((mf_wire_kind)e->body_case != MF_WIRE_HEARTBEAT)
            return e;
        mf_wire_free(e);
    }
}

static void *dealer(void *ctx, const char *ep, const char *ident)
{
    void *d = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0;
    zmq_setsockopt(d, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(d, ZMQ_ROUTING_ID, ident, strlen(ident));
    assert_int_equal(zmq_connect(d, ep), 0);
    return d;
}

/* Which kinds of farm work a Hello takes: the ones it names, or, when it
 * names none (an older worker), campaigns, and the matrix with
 * matrix_jobs. */
static void test_matrix_farm__hello_names_the_kinds_it_takes(void **state)
{
    (void)state;
    Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
    assert_true(mf_wire_hello_takes(&h, "campaign"));
    assert_false(mf_wire_hello_takes(&h, "matrix"));
    h.matrix_jobs = 1;
    assert_true(mf_wire_hello_takes(&h, "campaign"));
    assert_true(mf_wire_hello_takes(&h, "matrix"));
    char *kinds[] = {"matrix", "coverage"};
    h.kinds = kinds;
    h.n_kinds = 2;
    h.matrix_jobs = 0;
    assert_false(mf_wire_hello_takes(&h, "campaign"));
    assert_true(mf_wire_hello_takes(&h, "matrix"));
    assert_true(mf_wire_hello_takes(&h, "coverage"));
}

static void test_matrix_farm__scripted_worker(void **state)
{
    (void)state;
    char dir[] = "/tmp/mf-test-matrix-farm.XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(sh("%s run tests/models/beverage.smv --bound 6 "
                        "--workers 1 --db %s/f.db >/dev/null 2>&1 && cp "
                        "%s/f.db %s/l.db && %s matrix --db %s/l.db "
                        ">/dev/null", bin(), dir, dir, dir, bin(), dir), 0);
    mf_store *s = NULL;
    mf_matrix_campaign c;
    char path[256], ep[300];
    snprintf(path, sizeof path, "%s/f.db", dir);
    snprintf(ep, sizeof ep, "ipc://%s/sock", dir);
    assert_int_equal(mf_store_open(&s, path, 0, 5000), 0);
    assert_int_equal(mf_matrix_campaign_open(&c, s, 0), 0);
    mf_matrix_farm_opts o = {0};
    o.bind = ep;
    o.cmd = "test";
    o.heartbeat_ms = 100;
    o.liveness = 100;
    o.max_attempts = 3;
    o.job_pairs = 40;
    o.quiet = 1;
    served sv = {0};
    assert_int_equal(mf_matrix_farm_open(&sv.f, s, &c, &o), 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, serve, &sv), 0);

    void *ctx = zmq_ctx_new();
    /* An older worker: heartbeats, never a job. */
    void *old = dealer(ctx, ep, "old/1");
    hello(old, "old", 0);
    credit(old);
    mf_wire_env *e = next(old, 800);
    assert_null(e);
    zmq_close(old);
    /* A worker that names only campaigns, though it says matrix_jobs:
     * its list is what counts. */
    void *camp = dealer(ctx, ep, "camp/1");
    hello_kind(camp, "camp", 1, "campaign");
    credit(camp);
    assert_null(next(camp, 800));
    zmq_close(camp);

    void *d = dealer(ctx, ep, "new/1");
    hello(d, "new", 1);
    credit(d);
    int jobs = 0, refused = 0, dups = 0;
    uint8_t *last = NULL;
    size_t last_len = 0;
    for (;;) {
        e = next(d, 10000);
        assert_non_null(e);
        if ((mf_wire_kind)e->body_case == MF_WIRE_BYE) {
            mf_wire_free(e);
            break;
        }
        if ((mf_wire_kind)e->body_case == MF_WIRE_ACK) {
            if (e->ack->duplicate)
                dups++;
            else if (dups == 0 && last) {
                /* The first acknowledged result once more. */
                send_frame(d, last, last_len);
                last = NULL;
            }
            mf_wire_free(e);
            continue;
        }
        if ((mf_wire_kind)e->body_case == MF_WIRE_REJECT) {
            assert_int_equal(e->reject->code,
                             MUTFARM__V1__REJECT_CODE__REJECT_INVALID);
            refused++;
            mf_wire_free(e);
            credit(d);
            continue;
        }
        assert_int_equal(e->body_case, MF_WIRE_MATRIX_JOB);
        const mf_wire_matrix_job *j = e->matrix_job;
        mf_wire_matrix_result *r = NULL;
        assert_int_equal(mf_worker_do_matrix_job(&r, j, "new"), 0);
        uint8_t *buf;
        size_t len;
        if (jobs == 0 && !refused) {
            /* A row of a mutant the job does not hold. */
            if (r->n_kills) {
                free(r->kills[0]->mutant_id);
                r->kills[0]->mutant_id = mf_xstrdup("ffffffffffffffff");
            } else
                mf_wire_matrix_result_add(r, j->tests[0]->test_id,
                                          "ffffffffffffffff", MF_N_DEFINITE,
                                          1, -1);
        } else
            jobs++;
        assert_int_equal(mf_wire_encode_matrix_result(&buf, &len, r), 0);
        mf_wire_matrix_result_free(r);
        if (jobs == 1 && !last) {
            last = mf_xmalloc(len);
            memcpy(last, buf, len);
            last_len = len;
        }
        send_frame(d, buf, len);
        if (jobs > 0)
            credit(d);
        mf_wire_free(e);
    }
    free(last);
    zmq_close(d);
    zmq_ctx_term(ctx);
    pthread_join(th, NULL);
    assert_int_equal(sv.rc, 0);
    assert_int_equal(refused, 1);
    assert_int_equal(dups, 1);
    assert_true(jobs >= 3);
    assert_int_equal(sv.st.jobs, jobs);
    assert_int_equal(sv.st.jobs_again, 1); /* the refused one */
    mf_matrix_farm_free(sv.f);
    mf_matrix_campaign_close(&c);
    mf_store_close(s);

    /* The same table as the local fill. */
    assert_int_equal(
        sh("cd %s && for d in f l; do sqlite3 $d.db 'SELECT * FROM kills "
           "ORDER BY test_id, mutant; SELECT campaign_id, state, "
           "through_test, tests, mutants, pairs, kills, undecided, "
           "unconfirmed FROM matrices' > $d.txt; done && cmp f.txt l.txt",
           dir),
        0);
    sh("rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_farm__hello_names_the_kinds_it_takes),
        cmocka_unit_test(test_matrix_farm__scripted_worker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
