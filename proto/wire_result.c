/* wire_result.c - verdicts and tests to Result messages and back (wire.h):
 * a worker's results under construction (each kill's test as arrays and
 * as text, cut to fit one frame), and a coordinator's reading of them
 * into engine verdicts. The decoder (wire.c) has checked every field
 * before anything here reads it. */
#include "wire.h"
#include "wire_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Results under construction                                           */

static Mutfarm__V1__Verdict verdict_to_pb(mf_verdict_kind k)
{
    switch (k) {
    case MF_V_KILLED: return MUTFARM__V1__VERDICT__VERDICT_KILLED;
    case MF_V_EQUIVALENT: return MUTFARM__V1__VERDICT__VERDICT_EQUIVALENT;
    case MF_V_SURVIVED: return MUTFARM__V1__VERDICT__VERDICT_SURVIVED;
    case MF_V_UNKNOWN: return MUTFARM__V1__VERDICT__VERDICT_UNKNOWN;
    case MF_V_ERROR: break;
    }
    return MUTFARM__V1__VERDICT__VERDICT_ERROR;
}

Mutfarm__V1__Notion mf_wire_notion_to_pb(mf_notion n)
{
    switch (n) {
    case MF_N_POTENTIAL: return MUTFARM__V1__NOTION__NOTION_POTENTIAL;
    case MF_N_DEFINITE: return MUTFARM__V1__NOTION__NOTION_DEFINITE;
    case MF_N_DETERMINISTIC: break;
    }
    return MUTFARM__V1__NOTION__NOTION_DETERMINISTIC;
}

static int64_t *copy_vals(const mf_val *v, size_t n)
{
    if (!v || !n)
        return NULL;
    int64_t *c = mf_xmalloc(n * sizeof *c);
    memcpy(c, v, n * sizeof *c);
    return c;
}

static char *buf_take(mf_buf *b)
{
    char *s = b->data ? b->data : mf_xstrdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}

/* The test per step as text, as mf_test_print words it. */
static void test_steps(Mutfarm__V1__Test *pt, const mf_model *m,
                       const mf_test *t)
{
    size_t n = (size_t)t->length + 1;
    pt->steps = mf_xcalloc(n, sizeof *pt->steps);
    pt->n_steps = n;
    for (int k = 0; k <= t->length; k++) {
        Mutfarm__V1__Step *s = mf_xmalloc(sizeof *s);
        mutfarm__v1__step__init(s);
        pt->steps[k] = s;
        mf_buf b = {0};
        mf_test_print_inputs(&b, m, t, k);
        s->inputs = buf_take(&b);
        mf_print_obs(&b, m, t->expect + (size_t)k * (size_t)t->nobs);
        s->expect = buf_take(&b);
        int na = t->nallowed ? t->nallowed[k] : 0;
        if (na > 1) {
            s->allowed = mf_xcalloc((size_t)na, sizeof *s->allowed);
            s->n_allowed = (size_t)na;
            for (int a = 0; a < na; a++) {
                mf_print_obs(&b, m, t->allowed[k] + (size_t)a * (size_t)t->nobs);
                s->allowed[a] = buf_take(&b);
            }
        }
    }
}

Mutfarm__V1__Test *mf_wire_test_to_pb(const mf_test *t, const mf_model *m)
{
    Mutfarm__V1__Test *pt = mf_xmalloc(sizeof *pt);
    mutfarm__v1__test__init(pt);
    size_t states = (size_t)t->length + 1;
    pt->length = (uint32_t)t->length;
    pt->nslots = (uint32_t)t->nslots;
    pt->nobs = (uint32_t)t->nobs;
    pt->n_inputs = states * (size_t)t->nslots;
    pt->inputs = copy_vals(t->inputs, pt->n_inputs);
    if (!pt->inputs)
        pt->n_inputs = 0;
    pt->n_expect = states * (size_t)t->nobs;
    pt->expect = copy_vals(t->expect, pt->n_expect);
    if (!pt->expect)
        pt->n_expect = 0;
    if (t->mobs) {
        pt->n_mobs = states * (size_t)t->nobs;
        pt->mobs = copy_vals(t->mobs, pt->n_mobs);
        if (!pt->mobs)
            pt->n_mobs = 0;
    }
    pt->mrefuses = t->mrefuses;
    if (t->nallowed) {
        size_t total = 0;
        pt->nallowed = mf_xcalloc(states, sizeof *pt->nallowed);
        pt->n_nallowed = states;
        for (size_t k = 0; k < states; k++) {
            int na = t->allowed && t->allowed[k] ? t->nallowed[k] : 0;
            pt->nallowed[k] = (uint32_t)(na > 0 ? na : 0);
            total += pt->nallowed[k];
        }
        if (total && t->nobs) {
            pt->allowed = mf_xmalloc(total * (size_t)t->nobs * sizeof(int64_t));
            size_t at = 0;
            for (size_t k = 0; k < states; k++) {
                size_t w = pt->nallowed[k] * (size_t)t->nobs;
                if (w)
                    memcpy(pt->allowed + at, t->allowed[k],
                           w * sizeof(int64_t));
                at += w;
            }
            pt->n_allowed = at;
        }
    }
    pt->text = NULL; /* init left protobuf-c's static "" */
    if (m && m->nslots == t->nslots && mf_model_nobs(m) == t->nobs &&
        t->inputs && t->expect) {
        mf_buf b = {0};
        mf_test_print(&b, m, t);
        /* A long test of a non-deterministic model prints every allowed
         * observation in full, twice (steps and text): dozens of times
         * its arrays. The receiver renders its own text from the arrays
         * (coordinator/store/tests.c), so such a test goes without. */
        if (b.len <= MF_WIRE_TEXT_MAX) {
            test_steps(pt, m, t);
            pt->text = buf_take(&b);
        } else {
            mf_buf_free(&b);
        }
    }
    if (!pt->text)
        pt->text = mf_xstrdup("");
    return pt;
}

/* Free a built test's text form (its arrays stay). */
static void test_text_free(Mutfarm__V1__Test *pt)
{
    for (size_t k = 0; k < pt->n_steps; k++) {
        Mutfarm__V1__Step *s = pt->steps[k];
        free(s->inputs);
        free(s->expect);
        for (size_t a = 0; a < s->n_allowed; a++)
            free(s->allowed[a]);
        free(s->allowed);
        free(s);
    }
    free(pt->steps);
    pt->steps = NULL;
    pt->n_steps = 0;
    free(pt->text);
    pt->text = NULL;
}

void mf_wire_test_free_built(Mutfarm__V1__Test *pt)
{
    if (!pt)
        return;
    free(pt->inputs);
    free(pt->expect);
    free(pt->mobs);
    free(pt->nallowed);
    free(pt->allowed);
    test_text_free(pt);
    free(pt);
}

mf_wire_result *mf_wire_result_new(uint64_t job_id, uint32_t attempt,
                                   uint64_t campaign_id,
                                   const char *worker_id)
{
    mf_wire_result *r = mf_xmalloc(sizeof *r);
    mutfarm__v1__result__init(r);
    r->job_id = job_id;
    r->attempt = attempt;
    r->campaign_id = campaign_id;
    r->worker_id = mf_xstrdup(worker_id ? worker_id : "");
    r->stats = mf_xmalloc(sizeof *r->stats);
    mutfarm__v1__stats__init(r->stats);
    return r;
}

static Mutfarm__V1__MutantResult *result_push(mf_wire_result *r,
                                              const char *mutant_id)
{
    Mutfarm__V1__MutantResult *mr = mf_xmalloc(sizeof *mr);
    mutfarm__v1__mutant_result__init(mr);
    mr->mutant_id = mf_xstrdup(mutant_id ? mutant_id : "");
    r->mutants =
        mf_xrealloc(r->mutants, (r->n_mutants + 1) * sizeof *r->mutants);
    r->mutants[r->n_mutants++] = mr;
    return mr;
}

/* A string field bounded for the decoder's limits. */
char *mf_wire_bounded_dup(const char *s)
{
    size_t n = strnlen(s ? s : "", MF_WIRE_MAX_STR);
    char *c = mf_xmalloc(n + 1);
    memcpy(c, s ? s : "", n);
    c[n] = '\0';
    return c;
}

void mf_wire_result_add(mf_wire_result *r, const char *mutant_id,
                        const mf_verdict *v, const mf_model *m)
{
    Mutfarm__V1__MutantResult *mr = result_push(r, mutant_id);
    mr->verdict = verdict_to_pb(v->kind);
    mr->notion = v->kind == MF_V_KILLED ? mf_wire_notion_to_pb(v->notion)
                                        : MUTFARM__V1__NOTION__NOTION_AUTO;
    mr->bound = v->bound > 0 ? (uint32_t)v->bound : 0;
    mr->kill_len_beyond = v->kind == MF_V_SURVIVED && v->kill_len_beyond > 0
                              ? (uint32_t)v->kill_len_beyond
                              : 0;
    mr->method = mf_wire_bounded_dup(v->method);
    mr->reason = mf_wire_bounded_dup(v->reason);
    mr->solver_ms = v->secs > 0 ? (uint64_t)(v->secs * 1000.0 + 0.5) : 0;
    mr->orig_det = v->orig_det != 0;
    mr->mut_det = v->mut_det != 0;
    if (v->kind == MF_V_KILLED && v->test)
        mr->test = mf_wire_test_to_pb(v->test, m);
    else if (v->kind == MF_V_KILLED) {
        /* A kill without its test cannot be stored or re-checked. */
        mr->verdict = MUTFARM__V1__VERDICT__VERDICT_ERROR;
        free(mr->reason);
        mr->reason = mf_xstrdup("killed without a test (internal error)");
    }
}

void mf_wire_result_add_error(mf_wire_result *r, const char *mutant_id,
                              const char *reason)
{
    Mutfarm__V1__MutantResult *mr = result_push(r, mutant_id);
    mr->verdict = MUTFARM__V1__VERDICT__VERDICT_ERROR;
    mr->method = mf_xstrdup("");
    mr->reason = mf_wire_bounded_dup(reason);
}

/* The size of r's envelope on the wire. */
static size_t result_frame_size(const mf_wire_result *r)
{
    mf_wire_env e = MUTFARM__V1__ENVELOPE__INIT;
    e.protocol_version = MF_WIRE_VERSION;
    e.body_case = MUTFARM__V1__ENVELOPE__BODY_RESULT;
    e.result = (mf_wire_result *)(uintptr_t)r; /* only read */
    return mutfarm__v1__envelope__get_packed_size(&e);
}

/* Bytes of a length-delimited field of n bytes: tag, length, body. */
static size_t field_size(size_t n)
{
    size_t v = 1;
    for (size_t x = n; x >= 0x80; x >>= 7)
        v++;
    return 1 + v + n;
}

/* A mutant's entry and its size on the wire, for ordering. */
typedef struct {
    size_t size, ix;
} sized_entry;

static int by_size_desc(const void *a, const void *b)
{
    const sized_entry *x = a, *y = b;
    return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

/* A killed verdict whose test cannot travel becomes unknown, saying so. */
static void demote_kill(Mutfarm__V1__MutantResult *mr, size_t bytes,
                        size_t max)
{
    char why[300];
    snprintf(why, sizeof why,
             "killed by a test of %u steps, but the test (%zu bytes) does "
             "not fit in one result frame of %zu bytes with the job's "
             "other results; a smaller [farm] job_max sends it alone",
             mr->test->length, bytes, max);
    mf_wire_test_free_built(mr->test);
    mr->test = NULL;
    mr->verdict = MUTFARM__V1__VERDICT__VERDICT_UNKNOWN;
    mr->notion = MUTFARM__V1__NOTION__NOTION_AUTO;
    free(mr->reason);
    mr->reason = mf_xstrdup(why);
}

size_t mf_wire_result_fit(mf_wire_result *r, size_t max)
{
    if (result_frame_size(r) <= max)
        return 0;
    for (size_t i = 0; i < r->n_mutants; i++) {
        Mutfarm__V1__Test *pt = r->mutants[i]->test;
        if (pt) {
            test_text_free(pt);
            pt->text = mf_xstrdup("");
        }
    }
    size_t total = result_frame_size(r);
    if (total <= max)
        return 0;
    /* Largest entries first: the fewest verdicts lost. The estimate
     * ignores the envelope's length prefixes shrinking with it (it stays
     * high); the exact size is taken again once it says the frame fits. */
    size_t n = r->n_mutants, demoted = 0;
    sized_entry *e = mf_xcalloc(n ? n : 1, sizeof *e);
    for (size_t i = 0; i < n; i++) {
        e[i].size = field_size(
            mutfarm__v1__mutant_result__get_packed_size(r->mutants[i]));
        e[i].ix = i;
    }
    qsort(e, n, sizeof *e, by_size_desc);
    for (size_t k = 0; k < n && total > max; k++) {
        Mutfarm__V1__MutantResult *mr = r->mutants[e[k].ix];
        if (!mr->test)
            continue;
        demote_kill(mr, mutfarm__v1__test__get_packed_size(mr->test), max);
        total = total - e[k].size +
                field_size(mutfarm__v1__mutant_result__get_packed_size(mr));
        demoted++;
        if (total <= max)
            total = result_frame_size(r);
    }
    free(e);
    return demoted;
}

void mf_wire_result_free(mf_wire_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_mutants; i++) {
        Mutfarm__V1__MutantResult *mr = r->mutants[i];
        free(mr->mutant_id);
        free(mr->method);
        free(mr->reason);
        mf_wire_test_free_built(mr->test);
        free(mr);
    }
    free(r->mutants);
    free(r->worker_id);
    free(r->stats);
    free(r);
}

/* ------------------------------------------------------------------ */
/* Decoded results -> verdicts                                          */

/* An engine test from a Test message (*out owned by the caller,
 * mf_test_free). MF_EPARSE if its arrays are inconsistent. */
static int test_from_pb(mf_test **out, const mf_wire_test *pt)
{
    *out = NULL;
    mf_wire_vcheck c = {{0}};
    if (mf_wire_bad_test(&c, pt))
        return mf_err_set(MF_EPARSE, "test: %s", c.msg);
    mf_test *t = mf_xcalloc(1, sizeof *t);
    size_t states = (size_t)pt->length + 1;
    t->length = (int)pt->length;
    t->nslots = (int)pt->nslots;
    t->nobs = (int)pt->nobs;
    t->mrefuses = (int)pt->mrefuses;
    /* Never NULL, so that a zero-width test still indexes safely. */
    t->inputs = mf_xcalloc(pt->n_inputs ? pt->n_inputs : 1, sizeof(mf_val));
    if (pt->n_inputs)
        memcpy(t->inputs, pt->inputs, pt->n_inputs * sizeof(mf_val));
    t->expect = mf_xcalloc(pt->n_expect ? pt->n_expect : 1, sizeof(mf_val));
    if (pt->n_expect)
        memcpy(t->expect, pt->expect, pt->n_expect * sizeof(mf_val));
    if (pt->n_mobs)
        t->mobs = copy_vals(pt->mobs, pt->n_mobs);
    if (pt->n_nallowed) {
        t->nallowed = mf_xcalloc(states, sizeof *t->nallowed);
        t->allowed = mf_xcalloc(states, sizeof *t->allowed);
        size_t at = 0;
        for (size_t k = 0; k < states; k++) {
            size_t w = (size_t)pt->nallowed[k] * pt->nobs;
            t->nallowed[k] = (int)pt->nallowed[k];
            if (w) {
                t->allowed[k] = copy_vals(pt->allowed + at, w);
                at += w;
            }
        }
    }
    *out = t;
    return 0;
}

int mf_wire_verdict_from_result(mf_verdict *v,
                                const mf_wire_mutant_result *r)
{
    memset(v, 0, sizeof *v);
    mf_wire_vcheck c = {{0}};
    if (mf_wire_bad_mutant_result(&c, r))
        return mf_err_set(MF_EPARSE, "result: %s", c.msg);
    switch (r->verdict) {
    case MUTFARM__V1__VERDICT__VERDICT_KILLED: v->kind = MF_V_KILLED; break;
    case MUTFARM__V1__VERDICT__VERDICT_EQUIVALENT:
        v->kind = MF_V_EQUIVALENT;
        break;
    case MUTFARM__V1__VERDICT__VERDICT_SURVIVED: v->kind = MF_V_SURVIVED; break;
    case MUTFARM__V1__VERDICT__VERDICT_UNKNOWN: v->kind = MF_V_UNKNOWN; break;
    default: v->kind = MF_V_ERROR; break;
    }
    switch (r->notion) {
    case MUTFARM__V1__NOTION__NOTION_POTENTIAL:
        v->notion = MF_N_POTENTIAL;
        break;
    case MUTFARM__V1__NOTION__NOTION_DEFINITE: v->notion = MF_N_DEFINITE; break;
    default: v->notion = MF_N_DETERMINISTIC; break;
    }
    v->orig_det = r->orig_det;
    v->mut_det = r->mut_det;
    v->bound = (int)r->bound;
    v->kill_len_beyond = (int)r->kill_len_beyond;
    snprintf(v->method, sizeof v->method, "%s", r->method);
    snprintf(v->reason, sizeof v->reason, "%s", r->reason);
    v->secs = (double)r->solver_ms / 1000.0;
    if (r->test && v->kind == MF_V_KILLED) {
        int rc = test_from_pb(&v->test, r->test);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int mf_wire_test_decode(mf_test **out, const mf_wire_test *pt)
{
    return test_from_pb(out, pt);
}

mf_notion mf_wire_notion(Mutfarm__V1__Notion n)
{
    switch (n) {
    case MUTFARM__V1__NOTION__NOTION_POTENTIAL: return MF_N_POTENTIAL;
    case MUTFARM__V1__NOTION__NOTION_DEFINITE: return MF_N_DEFINITE;
    default: break;
    }
    return MF_N_DETERMINISTIC;
}
