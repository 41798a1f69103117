/* test_farm.c - the coordinator (coordinator/server.h) in-process against a
 * scripted worker, and the options `run` and `coordinator` share.
 *
 * The multi-process behaviour (kills, restarts, bad peers, poison jobs) is
 * tested by tests/farm_*.sh; here are the protocol details a shell script
 * cannot see: an Ack only after the commit, a result sent twice acked as a
 * duplicate, a result for an unknown job refused, Bye at the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>
#include <zmq.h>

#include "cmd.h"
#include "config.h"
#include "mf.h"
#include "farm_cli.h"
#include "server.h"
#include "wire.h"

#define MODEL "tests/models/beverage.smv"

/* ---- options ----------------------------------------------------------------- */

static void no_usage(FILE *f)
{
    (void)f;
}

static void test_farm__default_db_is_in_cwd(void **state)
{
    char b[256];
    (void)state;
    mf_cli_default_db(b, sizeof b, "a/b/ctrl.smv");
    assert_string_equal(b, "ctrl.mutfarm.db");
    mf_cli_default_db(b, sizeof b, "model");
    assert_string_equal(b, "model.mutfarm.db");
}

static void test_farm__flags_override_config(void **state)
{
    (void)state;
    char dir[] = "/tmp/mf-test-farm.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char conf[300];
    snprintf(conf, sizeof conf, "%s/c.conf", dir);
    FILE *f = fopen(conf, "w");
    assert_non_null(f);
    fputs("[campaign]\nbound = 7\n[coordinator]\ndb = x.db\n", f);
    fclose(f);

    char *argv1[] = {"run", MODEL, "--bound", "3", "--config", conf, NULL};
    mf_cli_farm cl;
    int code = -1;
    assert_int_equal(mf_cli_farm_parse(&cl, &code, 1, 6, argv1, no_usage),
                     0);
    assert_int_equal(cl.cfg.bound, 3); /* a flag wins wherever it stands */
    assert_string_equal(cl.cfg.db, "x.db");
    assert_true(cl.db_given);
    assert_true(cl.fail_under < 0);

    char *argv2[] = {"run", "--config", conf, MODEL, NULL};
    assert_int_equal(mf_cli_farm_parse(&cl, &code, 1, 4, argv2, no_usage),
                     0);
    assert_int_equal(cl.cfg.bound, 7);

    char *argv3[] = {"coordinator", MODEL, NULL};
    assert_int_equal(mf_cli_farm_parse(&cl, &code, 0, 2, argv3, no_usage),
                     0);
    assert_string_equal(cl.cfg.db, "beverage.mutfarm.db");
    assert_false(cl.db_given);
    assert_string_equal(cl.cfg.bind, "tcp://*:5555");

    char *argv4[] = {"run", MODEL, "--bind", "tcp://*:1", NULL};
    assert_int_equal(mf_cli_farm_parse(&cl, &code, 1, 4, argv4, no_usage),
                     1);
    assert_int_equal(code, MF_EXIT_USAGE);
    char *argv5[] = {"run", "--help", NULL};
    assert_int_equal(mf_cli_farm_parse(&cl, &code, 1, 2, argv5, no_usage),
                     1);
    assert_int_equal(code, MF_EXIT_OK);
    unlink(conf);
    rmdir(dir);
}

static void test_farm__fail_under(void **state)
{
    (void)state;
    mf_coord_progress p = {0};
    p.score = 0.8;
    assert_int_equal(mf_cli_exit_code(&p, -1), MF_EXIT_OK);
    assert_int_equal(mf_cli_exit_code(&p, 80), MF_EXIT_OK);
    assert_int_equal(mf_cli_exit_code(&p, 80.5), MF_EXIT_BELOW);
    p.score = -1; /* nothing to score */
    assert_int_equal(mf_cli_exit_code(&p, 100), MF_EXIT_OK);
}

/* ---- the coordinator against a scripted worker ------------------------------ */

typedef struct {
    mf_coord *c;
    int rc;
} serve_arg;

static void *serve_thread(void *p)
{
    serve_arg *a = p;
    a->rc = mf_coord_serve(a->c);
    return NULL;
}

/* The next envelope from the coordinator, skipping heartbeats. */
static mf_wire_env *next_env(void *s)
{
    for (int i = 0; i < 200; i++) {
        zmq_pollitem_t it = {s, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 100) <= 0)
            continue;
        zmq_msg_t m;
        zmq_msg_init(&m);
        assert_true(zmq_msg_recv(&m, s, 0) >= 0);
        mf_wire_env *e = NULL;
        int rc = mf_wire_decode(&e, zmq_msg_data(&m), zmq_msg_size(&m), NULL);
        zmq_msg_close(&m);
        assert_int_equal(rc, 0);
        if (e->body_case != MUTFARM__V1__ENVELOPE__BODY_HEARTBEAT)
            return e;
        mf_wire_free(e);
    }
    fail_msg("no message from the coordinator in 20 s");
    return NULL;
}

static void send_frame(void *s, uint8_t *buf, size_t len)
{
    assert_true(zmq_send(s, buf, len, 0) >= 0);
    free(buf);
}

static void send_result(void *s, const mf_wire_job *j, uint64_t job_id)
{
    mf_wire_result *r =
        mf_wire_result_new(job_id, j->attempt, j->campaign_id, "scripted");
    for (size_t k = 0; k < j->n_mutant_ids; k++) {
        mf_verdict v = {0};
        v.kind = MF_V_SURVIVED;
        v.bound = 1;
        mf_wire_result_add(r, j->mutant_ids[k], &v, NULL);
    }
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_int_equal(mf_wire_encode_result(&buf, &len, r), 0);
    mf_wire_result_free(r);
    send_frame(s, buf, len);
}

static long count(const char *db, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    long n = -1;
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

static void test_farm__acks_after_commit_and_dedups(void **state)
{
    (void)state;
    char dir[] = "/tmp/mf-test-farm.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db[200], ep[200];
    snprintf(db, sizeof db, "%s/f.db", dir);
    snprintf(ep, sizeof ep, "ipc://%s/c", dir);

    mf_config cfg;
    mf_config_default(&cfg);
    snprintf(cfg.db, sizeof cfg.db, "%s", db);
    snprintf(cfg.bind, sizeof cfg.bind, "%s", ep);
    snprintf(cfg.operators, sizeof cfg.operators, "init-remove,case-swap");
    cfg.bound = 1;
    mf_coord_opts o = {0};
    o.model_path = MODEL;
    o.cfg = &cfg;
    o.cmd = "test_farm";
    o.quiet = 1;
    serve_arg a = {0};
    assert_int_equal(mf_coord_open(&a.c, &o), 0);
    long total = count(db, "SELECT total FROM campaign_scores");
    assert_true(total > 1);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, serve_thread, &a), 0);

    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    assert_int_equal(zmq_connect(s, ep), 0);
    Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
    h.worker_id = "scripted";
    h.threads = 1;
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_int_equal(mf_wire_encode_hello(&buf, &len, &h), 0);
    send_frame(s, buf, len);

    /* A result for a job that does not exist: refused. */
    mf_wire_job fake = MUTFARM__V1__JOB__INIT;
    fake.attempt = 1;
    fake.campaign_id = 1;
    send_result(s, &fake, 424242);
    mf_wire_env *e = next_env(s);
    assert_int_equal(e->body_case, MUTFARM__V1__ENVELOPE__BODY_REJECT);
    assert_int_equal(e->reject->code,
                     MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB);
    assert_int_equal(e->reject->job_id, 424242);
    mf_wire_free(e);

    int jobs = 0, first = 1;
    assert_int_equal(mf_wire_encode_credit(&buf, &len, 1), 0);
    send_frame(s, buf, len);
    for (;;) {
        e = next_env(s);
        if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_BYE) {
            mf_wire_free(e);
            break;
        }
        assert_int_equal(e->body_case, MUTFARM__V1__ENVELOPE__BODY_JOB);
        const mf_wire_job *j = e->job;
        assert_int_equal(j->attempt, 1);
        assert_true(j->n_mutant_ids >= 1);
        char sha[65];
        mf_sha256_hex(sha, j->model_text, strlen(j->model_text));
        assert_string_equal(sha, j->model_sha256);
        jobs++;
        send_result(s, j, j->job_id);
        mf_wire_env *ack = next_env(s);
        assert_int_equal(ack->body_case, MUTFARM__V1__ENVELOPE__BODY_ACK);
        assert_int_equal(ack->ack->job_id, j->job_id);
        assert_false(ack->ack->duplicate);
        mf_wire_free(ack);
        /* Acked means committed: the verdicts are in the file now. */
        char sql[200];
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM verdicts WHERE job_id = %llu",
                 (unsigned long long)j->job_id);
        assert_int_equal(count(db, sql), (long)j->n_mutant_ids);
        if (first) {
            /* The same result again: acknowledged as a duplicate,
             * nothing written twice. */
            first = 0;
            send_result(s, j, j->job_id);
            ack = next_env(s);
            assert_int_equal(ack->body_case, MUTFARM__V1__ENVELOPE__BODY_ACK);
            assert_true(ack->ack->duplicate);
            mf_wire_free(ack);
            assert_int_equal(count(db, sql), (long)j->n_mutant_ids);
        }
        mf_wire_free(e);
        assert_int_equal(mf_wire_encode_credit(&buf, &len, 1), 0);
        send_frame(s, buf, len);
    }
    pthread_join(th, NULL);
    assert_int_equal(a.rc, 0);
    mf_coord_progress p;
    mf_coord_progress_get(a.c, &p);
    assert_int_equal(p.done, total);
    assert_int_equal(p.survived, total);
    assert_true(p.complete);
    mf_coord_free(a.c);
    assert_true(jobs >= 1);
    assert_int_equal(count(db, "SELECT count(*) FROM verdicts"), total);
    assert_int_equal(
        count(db, "SELECT count(*) FROM campaigns WHERE state = 'done'"), 1);

    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_close(s);
    zmq_ctx_term(ctx);
    char path[400];
    const char *files[] = {"f.db", "f.db-wal", "f.db-shm", "c"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_farm__default_db_is_in_cwd),
        cmocka_unit_test(test_farm__flags_override_config),
        cmocka_unit_test(test_farm__fail_under),
        cmocka_unit_test(test_farm__acks_after_commit_and_dedups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
