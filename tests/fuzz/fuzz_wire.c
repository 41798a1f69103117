/* fuzz_wire.c - libFuzzer target for the wire decoder (mf_wire_decode):
 * the only code that reads a peer's bytes.
 *
 * Any input must either be refused with a reason (and no envelope) or
 * decode to an envelope that re-encodes canonically: decoding that again
 * gives the same bytes once more, and every verdict in a Result converts
 * to an engine verdict. Crashes, leaks, sanitizer reports and broken
 * round trips are the bugs this looks for.
 *
 * The seeds CTest gives every fuzzer are SMV models, far from a frame, so
 * a custom mutator now and then replaces an input by a valid frame of a
 * random kind (made with the encoders): libFuzzer's own mutations then
 * start from real jobs and results and reach the content checks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);

static unsigned rnd(unsigned *st)
{
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fff;
}

static const char *const ids[4] = {"a196fa04b25bca65", "6462af9d37615d8a",
                                   "00ff", "0123456789abcdef"};

/* A valid frame of a random kind into *out (malloc'd). */
static void make_frame(uint8_t **out, size_t *len, unsigned st)
{
    switch (rnd(&st) % 9) {
    case 0: {
        Mutfarm__V1__Hello h = MUTFARM__V1__HELLO__INIT;
        h.worker_id = "node-1";
        h.threads = 1 + rnd(&st) % 64;
        h.z3_version = "4.8.12.0";
        mf_wire_encode_hello(out, len, &h);
        return;
    }
    case 1: mf_wire_encode_credit(out, len, rnd(&st) % 5); return;
    case 2: {
        mf_engine_opts eo;
        mf_engine_opts_default(&eo);
        eo.bound = (int)(rnd(&st) % 30);
        eo.notion = (mf_notion_req)(rnd(&st) % 3);
        const char *obs[2] = {"out", "st"};
        mf_wire_job_spec js = {
            .job_id = 1 + rnd(&st), .attempt = 1 + rnd(&st) % 3,
            .model_text = "MODULE main\nVAR x : boolean;\n",
            .mutant_ids = ids, .nmutants = 1 + rnd(&st) % 4, .opts = &eo,
            .observe = obs, .nobserve = rnd(&st) % 3,
            .crash_on = rnd(&st) % 2 ? ids[0] : NULL};
        mf_wire_encode_job_spec(out, len, &js);
        return;
    }
    case 3: {
        mf_wire_result *r = mf_wire_result_new(1 + rnd(&st), 1, 2, "w");
        int n = 1 + rnd(&st) % 3;
        for (int i = 0; i < n; i++) {
            mf_verdict v;
            memset(&v, 0, sizeof v);
            v.kind = (mf_verdict_kind)(rnd(&st) % 5);
            v.bound = (int)(rnd(&st) % 20);
            if (v.kind == MF_V_KILLED) {
                mf_test *t = mf_xcalloc(1, sizeof *t);
                t->length = (int)(rnd(&st) % 3);
                t->nslots = (int)(rnd(&st) % 3);
                t->nobs = 1 + (int)(rnd(&st) % 2);
                size_t k = (size_t)t->length + 1;
                t->inputs = mf_xcalloc(k * (size_t)t->nslots + 1, 8);
                t->expect = mf_xcalloc(k * (size_t)t->nobs, 8);
                t->nallowed = mf_xcalloc(k, sizeof(int));
                t->allowed = mf_xcalloc(k, sizeof(mf_val *));
                t->nallowed[0] = 2;
                t->allowed[0] = mf_xcalloc(2 * (size_t)t->nobs, 8);
                t->mrefuses = -1;
                v.test = t;
                v.notion = (mf_notion)(rnd(&st) % 3);
            }
            mf_wire_result_add(r, ids[i], &v, NULL);
            mf_verdict_clear(&v);
        }
        /* Some seeds as a worker sends a result cut to fit: kills turned
         * unknown with the reason. */
        if (rnd(&st) % 4 == 0)
            mf_wire_result_fit(r, 40 + rnd(&st) % 200);
        mf_wire_encode_result(out, len, r);
        mf_wire_result_free(r);
        return;
    }
    case 4:
        mf_wire_encode_reject(out, len,
                              (Mutfarm__V1__RejectCode)(rnd(&st) % 10), "no",
                              rnd(&st), 1);
        return;
    case 5: {
        uint64_t j[2] = {1, 2};
        uint32_t a[2] = {1, 1};
        mf_wire_encode_bye(out, len, "bye", j, a, rnd(&st) % 3);
        return;
    }
    case 7: {
        mf_test *t = mf_test_new((int)(rnd(&st) % 3), 1 + (int)(rnd(&st) % 2),
                                 (int)(rnd(&st) % 4));
        const mf_test *tests[2] = {t, t};
        int64_t tids[2] = {1 + rnd(&st), 7};
        int64_t vt[4] = {tids[0], 0, 7, 0};
        const char *obs[1] = {"out"};
        mf_wire_matrix_spec js = {
            .job_id = 1 + rnd(&st), .attempt = 1 + rnd(&st) % 3,
            .model_text = "MODULE main\nVAR x : boolean;\n",
            .observe = obs, .nobserve = rnd(&st) % 2, .test_ids = tids,
            .tests = tests, .ntests = 1 + rnd(&st) % 2, .mutant_ids = ids,
            .verdict_tests = rnd(&st) % 2 ? vt : NULL,
            .nmutants = 1 + rnd(&st) % 4};
        mf_wire_encode_matrix_job(out, len, &js);
        mf_test_free(t);
        return;
    }
    case 8: {
        mf_wire_matrix_result *r =
            mf_wire_matrix_result_new(1 + rnd(&st), 1, 2, "w");
        int n = (int)(rnd(&st) % 5);
        for (int i = 0; i < n; i++)
            mf_wire_matrix_result_add(r, 1 + rnd(&st) % 9, ids[i % 4],
                                      (mf_notion)(rnd(&st) % 3),
                                      (int)(rnd(&st) % 5),
                                      (int)(rnd(&st) % 4) - 1);
        r->pairs = (uint64_t)n + rnd(&st) % 10;
        r->undecided = rnd(&st) % 2;
        if (r->undecided)
            mf_wire_matrix_result_why(r, "more than 20000 states");
        mf_wire_encode_matrix_result(out, len, r);
        mf_wire_matrix_result_free(r);
        return;
    }
    default: mf_wire_encode_ack(out, len, 1 + rnd(&st), 1, 0); return;
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed)
{
    if (seed % 8 == 0) {
        uint8_t *f = NULL;
        size_t n = 0;
        make_frame(&f, &n, seed);
        if (f && n <= max_size) {
            memcpy(data, f, n);
            free(f);
            return n;
        }
        free(f);
    }
    return LLVMFuzzerMutate(data, size, max_size);
}

static void check_content(const mf_wire_env *e)
{
    if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_RESULT) {
        for (size_t i = 0; i < e->result->n_mutants; i++) {
            mf_verdict v;
            if (mf_wire_verdict_from_result(&v, e->result->mutants[i]) != 0)
                abort(); /* the decoder let an unusable verdict through */
            mf_verdict_clear(&v);
        }
    } else if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_MATRIX_JOB) {
        for (size_t i = 0; i < e->matrix_job->n_tests; i++) {
            mf_test *t = NULL;
            if (mf_wire_test_decode(&t, e->matrix_job->tests[i]->test) != 0)
                abort(); /* the decoder let an unusable test through */
            mf_test_free(t);
        }
    } else if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_MATRIX_RESULT) {
        const mf_wire_matrix_result *r = e->matrix_result;
        if (r->undecided > r->pairs || r->n_kills > r->pairs)
            abort();
        for (size_t i = 0; i < r->n_kills; i++)
            if (r->kills[i]->refuses < -1 ||
                mf_wire_notion(r->kills[i]->notion) > MF_N_DEFINITE)
                abort();
    } else if (e->body_case == MUTFARM__V1__ENVELOPE__BODY_JOB) {
        mf_engine_opts o;
        mf_wire_opts_to_engine(&o, e->job->options);
        if (o.bound < 0 || !e->job->n_mutant_ids)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_wire_env *e = NULL;
    mf_wire_fault f = MF_WIRE_OK;
    int rc = mf_wire_decode(&e, data, size, &f);
    if (rc != 0) {
        /* Refused: no envelope, a fault, a message, the right code. */
        if (e || f == MF_WIRE_OK || !mf_err_msg()[0] ||
            (rc == MF_ELIMIT) != (f == MF_WIRE_OVERSIZED) ||
            (rc != MF_ELIMIT && rc != MF_EPARSE))
            abort();
        return 0;
    }
    if (!e || f != MF_WIRE_OK)
        abort();
    check_content(e);

    uint8_t *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    if (mf_wire_encode_env(&a, &alen, e) != 0) { /* no larger than input */
        mf_wire_free(e);
        return 0;
    }
    mf_wire_env *e2 = NULL;
    rc = mf_wire_decode(&e2, a, alen, &f);
    /* The canonical form is never longer, so only the allocation budget
     * (proportional to the length) may refuse it now. */
    if (rc != 0 && f != MF_WIRE_OVERSIZED)
        abort();
    if (rc == 0) {
        check_content(e2);
        if (mf_wire_encode_env(&b, &blen, e2) != 0 || blen != alen ||
            memcmp(a, b, alen) != 0)
            abort();
    }
    free(a);
    free(b);
    mf_wire_free(e2);
    mf_wire_free(e);
    return 0;
}
