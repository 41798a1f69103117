/* wire_matrix.c - the kill matrix through the farm on the wire (wire.h,
 * docs/protocol.md "Matrix jobs"): a MatrixJob (a block of stored tests,
 * a range of mutants, the model) encoded, a worker's MatrixResult (its
 * kill rows) built, encoded and freed. The decoder's checks of both are
 * wire.c's. */
#include "wire.h"
#include "wire_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mf_wire_encode_matrix_job(uint8_t **out, size_t *len,
                              const mf_wire_matrix_spec *j)
{
    *out = NULL;
    *len = 0;
    char hash[65];
    const char *text = j->model_text ? j->model_text : "";
    if (j->model_sha256)
        snprintf(hash, sizeof hash, "%s", j->model_sha256);
    else
        mf_sha256_hex(hash, text, strlen(text));

    size_t nt = j->ntests;
    Mutfarm__V1__MatrixTest *mt = mf_xcalloc(nt ? nt : 1, sizeof *mt);
    Mutfarm__V1__MatrixTest **pmt = mf_xcalloc(nt ? nt : 1, sizeof *pmt);
    for (size_t i = 0; i < nt; i++) {
        mutfarm__v1__matrix_test__init(&mt[i]);
        mt[i].test_id = (uint64_t)j->test_ids[i];
        mt[i].test = mf_wire_test_to_pb(j->tests[i], NULL);
        pmt[i] = &mt[i];
    }
    uint64_t *vt = NULL;
    if (j->verdict_tests && j->nmutants) {
        vt = mf_xcalloc(j->nmutants, sizeof *vt);
        for (size_t i = 0; i < j->nmutants; i++)
            vt[i] = j->verdict_tests[i] > 0 ? (uint64_t)j->verdict_tests[i]
                                            : 0;
    }

    Mutfarm__V1__MatrixJob m = MUTFARM__V1__MATRIX_JOB__INIT;
    m.job_id = j->job_id;
    m.attempt = j->attempt;
    m.campaign_id = j->campaign_id;
    m.model_name = mf_wire_rd(j->model_name);
    m.model_text = mf_wire_rd(text);
    m.model_sha256 = hash;
    m.n_inputs = j->ninputs;
    m.inputs = (char **)(uintptr_t)j->inputs;
    m.n_observe = j->nobserve;
    m.observe = (char **)(uintptr_t)j->observe;
    m.n_tests = nt;
    m.tests = pmt;
    m.n_mutant_ids = j->nmutants;
    m.mutant_ids = (char **)(uintptr_t)j->mutant_ids;
    m.n_verdict_tests = vt ? j->nmutants : 0;
    m.verdict_tests = vt;
    int rc = mf_wire_encode_body(out, len, MF_WIRE_MATRIX_JOB, &m);
    for (size_t i = 0; i < nt; i++)
        mf_wire_test_free_built(mt[i].test);
    free(mt);
    free(pmt);
    free(vt);
    return rc;
}

mf_wire_matrix_result *mf_wire_matrix_result_new(uint64_t job_id,
                                                 uint32_t attempt,
                                                 uint64_t campaign_id,
                                                 const char *worker_id)
{
    mf_wire_matrix_result *r = mf_xmalloc(sizeof *r);
    mutfarm__v1__matrix_result__init(r);
    r->job_id = job_id;
    r->attempt = attempt;
    r->campaign_id = campaign_id;
    r->worker_id = mf_wire_bounded_dup(worker_id);
    r->undecided_why = mf_xstrdup("");
    r->stats = mf_xmalloc(sizeof *r->stats);
    mutfarm__v1__stats__init(r->stats);
    return r;
}

void mf_wire_matrix_result_add(mf_wire_matrix_result *r, uint64_t test_id,
                               const char *mutant_id, mf_notion notion,
                               int step, int refuses)
{
    Mutfarm__V1__KillRow *k = mf_xmalloc(sizeof *k);
    mutfarm__v1__kill_row__init(k);
    k->test_id = test_id;
    k->mutant_id = mf_xstrdup(mutant_id ? mutant_id : "");
    k->notion = mf_wire_notion_to_pb(notion);
    k->step = step > 0 ? (uint32_t)step : 0;
    k->refuses = refuses >= 0 ? refuses : -1;
    if ((r->n_kills & (r->n_kills - 1)) == 0) /* 0, 1, 2, 4, ...: grow */
        r->kills = mf_xrealloc(r->kills, (r->n_kills ? 2 * r->n_kills : 1) *
                                             sizeof *r->kills);
    r->kills[r->n_kills++] = k;
}

void mf_wire_matrix_result_why(mf_wire_matrix_result *r, const char *why)
{
    free(r->undecided_why);
    r->undecided_why = mf_wire_bounded_dup(why);
}

int mf_wire_encode_matrix_result(uint8_t **out, size_t *len,
                                 const mf_wire_matrix_result *m)
{
    return mf_wire_encode_body(out, len, MF_WIRE_MATRIX_RESULT, m);
}

void mf_wire_matrix_result_free(mf_wire_matrix_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_kills; i++) {
        free(r->kills[i]->mutant_id);
        free(r->kills[i]);
    }
    free(r->kills);
    free(r->worker_id);
    free(r->undecided_why);
    free(r->stats);
    free(r);
}
