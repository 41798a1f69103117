/* wire_fixtures.h - what test_wire.c and test_worker.c share: the
 * beverage machine's text and mutant ids, Job and MatrixJob frames of
 * them, decoding and comparing tests (static inline, so a test file that
 * uses only some of them compiles clean). */
#ifndef MF_WIRE_FIXTURES_H
#define MF_WIRE_FIXTURES_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "langs.h"
#include "model.h"
#include "mutate.h"
#include "wire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define BEVERAGE "tests/models/beverage.smv"

static inline char *model_text(void)
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

static inline int pick_fn(const mf_mutant *mu, void *ctx)
{
    idlist *l = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    snprintf(l->ids[l->n++], 17, "%s", mu->id);
    return l->n == l->want;
}

/* The first n checkable mutant ids of the beverage machine. */
static inline void pick_ids(idlist *l, int n)
{
    mf_model *m = NULL;
    assert_int_equal(mf_model_load_file(&m, BEVERAGE, NULL), 0);
    memset(l, 0, sizeof *l);
    l->want = n;
    mf_mutants_each(m, 0, pick_fn, l);
    assert_int_equal(l->n, n);
    mf_model_free(m);
}

static inline void job_frame(uint8_t **buf, size_t *len, const char *text,
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

static inline mf_wire_env *decode_ok(const uint8_t *buf, size_t len)
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

/* job_frame's job, decoded as a worker receives it. */
static inline mf_wire_env *job_env(const char *text, const idlist *l, uint64_t job_id)
{
    uint8_t *buf;
    size_t len;
    job_frame(&buf, &len, text, l, job_id, NULL);
    mf_wire_env *e = decode_ok(buf, len);
    free(buf);
    return e;
}

static inline void assert_tests_equal(const mf_test *a, const mf_test *b)
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

static inline uint8_t *matrix_frame(size_t *len, const mf_wire_matrix_spec *js)
{
    uint8_t *buf = NULL;
    assert_int_equal(mf_wire_encode_matrix_job(&buf, len, js), 0);
    return buf;
}

#endif
