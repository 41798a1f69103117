/* wire.c - the farm's wire codec (see wire.h): envelopes in and out of
 * single ZeroMQ frames, the decoder's checks, and the encoders of the
 * protocol's messages (verdicts and tests to and from Result messages are
 * in wire_result.c, the kill matrix's jobs and results in
 * wire_matrix.c).
 *
 * It does not touch sockets or decide policy. The decoder is the only code
 * that sees a peer's bytes before anything else does, so it alone must
 * hold against any input: it bounds the frame, bounds what protobuf-c may
 * allocate while unpacking (a small frame of empty sub-messages would
 * otherwise unpack to hundreds of times its size), and checks every field
 * the rest of mutfarm relies on, so that the coordinator and the worker
 * can index a decoded Test's arrays without checking them again. */
#include "wire.h"
#include "wire_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decoded frame may take at most this many bytes per frame byte (plus a
 * constant): packed varints legitimately grow 8x into int64 arrays. */
#define DECODE_BUDGET_FACTOR 16
#define DECODE_BUDGET_BASE ((size_t)1 << 20)
/* A test longer or wider than this is not one the engine makes. */
#define MAX_TEST_DIM 1000000u
#define MAX_LIST 10000 /* --inputs / --observe names, returned jobs */

/* ------------------------------------------------------------------ */
/* Names                                                                */

const char *mf_wire_kind_name(mf_wire_kind k)
{
    switch (k) {
    case MF_WIRE_NONE: return "none";
    case MF_WIRE_HELLO: return "hello";
    case MF_WIRE_CREDIT: return "credit";
    case MF_WIRE_JOB: return "job";
    case MF_WIRE_RESULT: return "result";
    case MF_WIRE_HEARTBEAT: return "heartbeat";
    case MF_WIRE_REJECT: return "reject";
    case MF_WIRE_BYE: return "bye";
    case MF_WIRE_ACK: return "ack";
    case MF_WIRE_MATRIX_JOB: return "matrix job";
    case MF_WIRE_MATRIX_RESULT: return "matrix result";
    }
    return "?";
}

const char *mf_wire_fault_name(mf_wire_fault f)
{
    switch (f) {
    case MF_WIRE_OK: return "ok";
    case MF_WIRE_UNDECODABLE: return "undecodable";
    case MF_WIRE_BAD_VERSION: return "wrong protocol version";
    case MF_WIRE_OVERSIZED: return "oversized";
    case MF_WIRE_NO_BODY: return "no body";
    case MF_WIRE_INVALID: return "invalid content";
    }
    return "?";
}

Mutfarm__V1__RejectCode mf_wire_fault_reject_code(mf_wire_fault f)
{
    switch (f) {
    case MF_WIRE_UNDECODABLE:
        return MUTFARM__V1__REJECT_CODE__REJECT_UNDECODABLE;
    case MF_WIRE_BAD_VERSION: return MUTFARM__V1__REJECT_CODE__REJECT_VERSION;
    case MF_WIRE_OVERSIZED: return MUTFARM__V1__REJECT_CODE__REJECT_OVERSIZED;
    case MF_WIRE_NO_BODY: return MUTFARM__V1__REJECT_CODE__REJECT_NO_BODY;
    case MF_WIRE_INVALID: return MUTFARM__V1__REJECT_CODE__REJECT_INVALID;
    case MF_WIRE_OK: break;
    }
    return MUTFARM__V1__REJECT_CODE__REJECT_UNSPECIFIED;
}

const char *mf_wire_verdict_name(Mutfarm__V1__Verdict v)
{
    switch (v) {
    case MUTFARM__V1__VERDICT__VERDICT_KILLED: return "killed";
    case MUTFARM__V1__VERDICT__VERDICT_EQUIVALENT: return "equivalent";
    case MUTFARM__V1__VERDICT__VERDICT_SURVIVED: return "survived";
    case MUTFARM__V1__VERDICT__VERDICT_UNKNOWN: return "unknown";
    case MUTFARM__V1__VERDICT__VERDICT_ERROR: return "error";
    default: return "?";
    }
}

int mf_wire_hello_takes(const mf_wire_hello *h, const char *name)
{
    if (h->n_kinds == 0)
        return !strcmp(name, "campaign") ||
               (h->matrix_jobs && !strcmp(name, "matrix"));
    for (size_t i = 0; i < h->n_kinds; i++)
        if (!strcmp(h->kinds[i], name))
            return 1;
    return 0;
}

void mf_wire_job_of(const mf_wire_env *e, uint64_t *job, uint32_t *attempt)
{
    *job = 0;
    *attempt = 0;
    switch ((mf_wire_kind)e->body_case) {
    case MF_WIRE_JOB:
        *job = e->job->job_id;
        *attempt = e->job->attempt;
        break;
    case MF_WIRE_MATRIX_JOB:
        *job = e->matrix_job->job_id;
        *attempt = e->matrix_job->attempt;
        break;
    case MF_WIRE_RESULT:
        *job = e->result->job_id;
        *attempt = e->result->attempt;
        break;
    case MF_WIRE_MATRIX_RESULT:
        *job = e->matrix_result->job_id;
        *attempt = e->matrix_result->attempt;
        break;
    default: break;
    }
}

/* ------------------------------------------------------------------ */
/* Decoding                                                             */

typedef struct {
    size_t used, budget;
    int over; /* an allocation was refused for the budget */
} decode_budget;

static void *budget_alloc(void *data, size_t size)
{
    decode_budget *b = data;
    if (size > b->budget - b->used) {
        b->over = 1;
        return NULL;
    }
    b->used += size;
    return malloc(size ? size : 1);
}

static void budget_free(void *data, void *p)
{
    (void)data;
    free(p);
}

static int fail(mf_wire_fault *fault, mf_wire_fault f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(mf_wire_fault *fault, mf_wire_fault f, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (fault)
        *fault = f;
    return mf_err_set(f == MF_WIRE_OVERSIZED ? MF_ELIMIT : MF_EPARSE,
                      "%s frame: %s", mf_wire_fault_name(f), msg);
}

/* The content checks below report through this: a message and a 1. */
typedef mf_wire_vcheck vcheck;

static int bad(vcheck *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int bad(vcheck *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return 1;
}

/* A short string field: present and bounded. */
static int bad_str(vcheck *c, const char *what, const char *s)
{
    if (!s)
        return bad(c, "%s missing", what);
    if (strnlen(s, MF_WIRE_MAX_STR + 1) > MF_WIRE_MAX_STR)
        return bad(c, "%s longer than %d bytes", what, MF_WIRE_MAX_STR);
    return 0;
}

static int is_hex_id(const char *s, size_t min, size_t max)
{
    size_t n = strnlen(s, max + 1);
    if (n < min || n > max)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

static int bad_mutant_id(vcheck *c, const char *s)
{
    if (!s || !is_hex_id(s, 4, 16))
        return bad(c, "mutant id is not 4 to 16 lowercase hex digits");
    return 0;
}

static int bad_names(vcheck *c, const char *what, char **v, size_t n)
{
    if (n > MAX_LIST)
        return bad(c, "options %s: more than %d names", what, MAX_LIST);
    for (size_t i = 0; i < n; i++)
        if (bad_str(c, what, v[i]) || (!v[i][0] && bad(c, "empty %s", what)))
            return 1;
    return 0;
}

static int bad_hello(vcheck *c, const Mutfarm__V1__Hello *h)
{
    if (bad_str(c, "hello worker_id", h->worker_id) ||
        bad_str(c, "hello z3_version", h->z3_version) ||
        bad_str(c, "hello mutfarm_version", h->mutfarm_version) ||
        bad_str(c, "hello host", h->host))
        return 1;
    if (!h->worker_id[0])
        return bad(c, "hello without worker_id");
    if (h->threads < 1 || h->threads > 65536)
        return bad(c, "hello threads %u not in 1..65536", h->threads);
    return bad_names(c, "hello kinds", h->kinds, h->n_kinds);
}

static int bad_options(vcheck *c, const Mutfarm__V1__Options *o)
{
    if (!o)
        return 0; /* defaults */
    if (o->bound > 10000)
        return bad(c, "options bound %u over 10000", o->bound);
    if (o->notion != MUTFARM__V1__NOTION__NOTION_AUTO &&
        o->notion != MUTFARM__V1__NOTION__NOTION_POTENTIAL &&
        o->notion != MUTFARM__V1__NOTION__NOTION_DEFINITE)
        return bad(c, "options notion %d is not a request", (int)o->notion);
    if (o->engine != MUTFARM__V1__ENGINE__ENGINE_CEGIS &&
        o->engine != MUTFARM__V1__ENGINE__ENGINE_QUANTIFIED)
        return bad(c, "options engine %d unknown", (int)o->engine);
    if (o->mode != MUTFARM__V1__MODE__MODE_BATCH &&
        o->mode != MUTFARM__V1__MODE__MODE_FRESH)
        return bad(c, "options mode %d unknown", (int)o->mode);
    if (o->cegis_max > 1000000)
        return bad(c, "options cegis_max %u too large", o->cegis_max);
    if ((unsigned)o->method > MUTFARM__V1__METHOD__METHOD_EXPLICIT)
        return bad(c, "options method %d unknown", (int)o->method);
    if (o->explicit_mb > 1048576)
        return bad(c, "options explicit_mb %u too large", o->explicit_mb);
    return bad_names(c, "inputs", o->inputs, o->n_inputs) ||
           bad_names(c, "observe", o->observe, o->n_observe);
}

static int bad_job(vcheck *c, const Mutfarm__V1__Job *j)
{
    if (j->job_id == 0)
        return bad(c, "job without job_id");
    if (j->attempt == 0)
        return bad(c, "job %llu with attempt 0",
                   (unsigned long long)j->job_id);
    if (bad_str(c, "job model_name", j->model_name))
        return 1;
    if (!j->model_text || !j->model_text[0])
        return bad(c, "job %llu without model text",
                   (unsigned long long)j->job_id);
    if (!j->model_sha256 || !is_hex_id(j->model_sha256, 64, 64))
        return bad(c, "job %llu: model_sha256 is not 64 lowercase hex digits",
                   (unsigned long long)j->job_id);
    if (j->n_mutant_ids == 0 || j->n_mutant_ids > MF_WIRE_MAX_MUTANTS)
        return bad(c, "job %llu: %zu mutants, expected 1..%d",
                   (unsigned long long)j->job_id, j->n_mutant_ids,
                   MF_WIRE_MAX_MUTANTS);
    for (size_t i = 0; i < j->n_mutant_ids; i++)
        if (bad_mutant_id(c, j->mutant_ids[i]))
            return 1;
    if (!j->crash_on || (j->crash_on[0] && !is_hex_id(j->crash_on, 4, 16)))
        return bad(c, "job crash_on is not a mutant id");
    return bad_options(c, j->options);
}

/* dims: (length+1) * w as a 64-bit count (no overflow: both < 2^32). */
static uint64_t rows(uint32_t length, uint32_t w)
{
    return ((uint64_t)length + 1) * (uint64_t)w;
}

int mf_wire_bad_test(vcheck *c, const Mutfarm__V1__Test *t)
{
    if (t->length > MAX_TEST_DIM || t->nslots > MAX_TEST_DIM ||
        t->nobs > MAX_TEST_DIM)
        return bad(c, "test sizes %u/%u/%u over %u", t->length, t->nslots,
                   t->nobs, MAX_TEST_DIM);
    if (t->n_inputs != rows(t->length, t->nslots))
        return bad(c, "test has %zu input values, expected %llu", t->n_inputs,
                   (unsigned long long)rows(t->length, t->nslots));
    if (t->n_expect != rows(t->length, t->nobs))
        return bad(c, "test has %zu expected values, expected %llu",
                   t->n_expect, (unsigned long long)rows(t->length, t->nobs));
    if (t->n_mobs != 0 && t->n_mobs != rows(t->length, t->nobs))
        return bad(c, "test has %zu mutant values, expected 0 or %llu",
                   t->n_mobs, (unsigned long long)rows(t->length, t->nobs));
    if (t->n_nallowed != 0 && t->n_nallowed != rows(t->length, 1))
        return bad(c, "test has %zu allowed counts, expected 0 or %llu",
                   t->n_nallowed, (unsigned long long)rows(t->length, 1));
    uint64_t sum = 0;
    for (size_t k = 0; k < t->n_nallowed; k++) {
        sum += t->nallowed[k];
        if (sum > t->n_allowed) /* also keeps sum * nobs from overflowing */
            break;
    }
    if (t->nobs == 0 ? t->n_allowed != 0
                     : (sum > t->n_allowed || sum * t->nobs != t->n_allowed))
        return bad(c, "test has %zu allowed values, not sum(nallowed) * %u",
                   t->n_allowed, t->nobs);
    if (t->mrefuses < -1 || t->mrefuses > (int64_t)t->length)
        return bad(c, "test mrefuses %d not in -1..%u", t->mrefuses,
                   t->length);
    if (t->n_steps != 0 && t->n_steps != rows(t->length, 1))
        return bad(c, "test has %zu text steps, expected 0 or %llu",
                   t->n_steps, (unsigned long long)rows(t->length, 1));
    for (size_t k = 0; k < t->n_steps; k++)
        if (!t->steps[k] || !t->steps[k]->inputs || !t->steps[k]->expect)
            return bad(c, "test step %zu incomplete", k);
    if (!t->text)
        return bad(c, "test text missing");
    return 0;
}

int mf_wire_bad_mutant_result(vcheck *c, const Mutfarm__V1__MutantResult *r)
{
    if (!r)
        return bad(c, "result entry missing");
    if (bad_mutant_id(c, r->mutant_id) || bad_str(c, "method", r->method) ||
        bad_str(c, "reason", r->reason))
        return 1;
    if (r->verdict < MUTFARM__V1__VERDICT__VERDICT_KILLED ||
        r->verdict > MUTFARM__V1__VERDICT__VERDICT_ERROR)
        return bad(c, "mutant %s: verdict %d unknown", r->mutant_id,
                   (int)r->verdict);
    if (r->notion < MUTFARM__V1__NOTION__NOTION_AUTO ||
        r->notion > MUTFARM__V1__NOTION__NOTION_DEFINITE)
        return bad(c, "mutant %s: notion %d unknown", r->mutant_id,
                   (int)r->notion);
    if (r->verdict == MUTFARM__V1__VERDICT__VERDICT_KILLED) {
        if (r->notion == MUTFARM__V1__NOTION__NOTION_AUTO)
            return bad(c, "mutant %s: killed without a notion", r->mutant_id);
        if (!r->test)
            return bad(c, "mutant %s: killed without a test", r->mutant_id);
    }
    if (r->bound > MAX_TEST_DIM)
        return bad(c, "mutant %s: bound %u too large", r->mutant_id, r->bound);
    if (r->kill_len_beyond &&
        (r->verdict != MUTFARM__V1__VERDICT__VERDICT_SURVIVED ||
         r->kill_len_beyond <= r->bound || r->kill_len_beyond > MAX_TEST_DIM))
        return bad(c, "mutant %s: kill length %u beyond the bound makes no "
                   "sense here", r->mutant_id, r->kill_len_beyond);
    return r->test ? mf_wire_bad_test(c, r->test) : 0;
}

static int bad_result(vcheck *c, const Mutfarm__V1__Result *r)
{
    if (r->job_id == 0)
        return bad(c, "result without job_id");
    if (r->attempt == 0)
        return bad(c, "result for job %llu with attempt 0",
                   (unsigned long long)r->job_id);
    if (bad_str(c, "result worker_id", r->worker_id))
        return 1;
    if (r->n_mutants > MF_WIRE_MAX_MUTANTS)
        return bad(c, "result with %zu mutants", r->n_mutants);
    for (size_t i = 0; i < r->n_mutants; i++)
        if (mf_wire_bad_mutant_result(c, r->mutants[i]))
            return 1;
    return 0;
}

static int bad_jobrefs(vcheck *c, Mutfarm__V1__JobRef **v, size_t n)
{
    if (n > MAX_LIST)
        return bad(c, "bye returns %zu jobs", n);
    for (size_t i = 0; i < n; i++)
        if (!v[i] || v[i]->job_id == 0 || v[i]->attempt == 0)
            return bad(c, "bye returns a job without id or attempt");
    return 0;
}

static int bad_matrix_job(vcheck *c, const Mutfarm__V1__MatrixJob *j)
{
    if (j->job_id == 0)
        return bad(c, "matrix job without job_id");
    if (j->attempt == 0)
        return bad(c, "matrix job %llu with attempt 0",
                   (unsigned long long)j->job_id);
    if (bad_str(c, "matrix job model_name", j->model_name))
        return 1;
    if (!j->model_text || !j->model_text[0])
        return bad(c, "matrix job %llu without model text",
                   (unsigned long long)j->job_id);
    if (!j->model_sha256 || !is_hex_id(j->model_sha256, 64, 64))
        return bad(c, "matrix job %llu: model_sha256 is not 64 lowercase "
                   "hex digits", (unsigned long long)j->job_id);
    if (bad_names(c, "inputs", j->inputs, j->n_inputs) ||
        bad_names(c, "observe", j->observe, j->n_observe))
        return 1;
    if (j->n_tests == 0 || j->n_tests > MF_WIRE_MAX_TESTS)
        return bad(c, "matrix job %llu: %zu tests, expected 1..%d",
                   (unsigned long long)j->job_id, j->n_tests,
                   MF_WIRE_MAX_TESTS);
    for (size_t i = 0; i < j->n_tests; i++) {
        const Mutfarm__V1__MatrixTest *t = j->tests[i];
        if (!t || t->test_id == 0 || !t->test)
            return bad(c, "matrix job %llu: a test without id or content",
                       (unsigned long long)j->job_id);
        if (mf_wire_bad_test(c, t->test))
            return 1;
    }
    if (j->n_mutant_ids == 0 || j->n_mutant_ids > MF_WIRE_MAX_MUTANTS)
        return bad(c, "matrix job %llu: %zu mutants, expected 1..%d",
                   (unsigned long long)j->job_id, j->n_mutant_ids,
                   MF_WIRE_MAX_MUTANTS);
    for (size_t i = 0; i < j->n_mutant_ids; i++)
        if (bad_mutant_id(c, j->mutant_ids[i]))
            return 1;
    if (j->n_verdict_tests != 0 && j->n_verdict_tests != j->n_mutant_ids)
        return bad(c, "matrix job %llu: %zu verdict tests for %zu mutants",
                   (unsigned long long)j->job_id, j->n_verdict_tests,
                   j->n_mutant_ids);
    return 0;
}

static int bad_matrix_result(vcheck *c, const Mutfarm__V1__MatrixResult *r)
{
    if (r->job_id == 0)
        return bad(c, "matrix result without job_id");
    if (r->attempt == 0)
        return bad(c, "matrix result for job %llu with attempt 0",
                   (unsigned long long)r->job_id);
    if (bad_str(c, "matrix result worker_id", r->worker_id) ||
        bad_str(c, "matrix result undecided_why", r->undecided_why))
        return 1;
    if (r->n_kills > MF_WIRE_MAX_KILLS)
        return bad(c, "matrix result with %zu kills", r->n_kills);
    for (size_t i = 0; i < r->n_kills; i++) {
        const Mutfarm__V1__KillRow *k = r->kills[i];
        if (!k || k->test_id == 0)
            return bad(c, "matrix result: a kill without a test id");
        if (bad_mutant_id(c, k->mutant_id))
            return 1;
        if (k->notion < MUTFARM__V1__NOTION__NOTION_DETERMINISTIC ||
            k->notion > MUTFARM__V1__NOTION__NOTION_DEFINITE)
            return bad(c, "matrix result: kill notion %d", (int)k->notion);
        if (k->step > MAX_TEST_DIM || k->refuses < -1 ||
            k->refuses > (int32_t)MAX_TEST_DIM)
            return bad(c, "matrix result: kill step %u / refuses %d out of "
                       "range", k->step, k->refuses);
    }
    if (r->pairs > (uint64_t)MF_WIRE_MAX_TESTS * MF_WIRE_MAX_MUTANTS ||
        r->undecided > r->pairs || r->unconfirmed > r->pairs ||
        r->n_kills > r->pairs)
        return bad(c, "matrix result: counts %llu pairs, %llu undecided, "
                   "%llu unconfirmed, %zu kills do not add up",
                   (unsigned long long)r->pairs,
                   (unsigned long long)r->undecided,
                   (unsigned long long)r->unconfirmed, r->n_kills);
    return 0;
}


static int bad_body(vcheck *c, const mf_wire_env *e)
{
    switch (e->body_case) {
    case MF_WIRE_HELLO: return bad_hello(c, e->hello);
    case MF_WIRE_JOB: return bad_job(c, e->job);
    case MF_WIRE_RESULT: return bad_result(c, e->result);
    case MF_WIRE_REJECT: return bad_str(c, "reject reason", e->reject->reason);
    case MF_WIRE_BYE:
        return bad_str(c, "bye reason", e->bye->reason) ||
               bad_jobrefs(c, e->bye->returned, e->bye->n_returned);
    case MF_WIRE_ACK:
        if (e->ack->job_id == 0)
            return bad(c, "ack without job_id");
        return 0;
    case MF_WIRE_MATRIX_JOB: return bad_matrix_job(c, e->matrix_job);
    case MF_WIRE_MATRIX_RESULT:
        return bad_matrix_result(c, e->matrix_result);
    case MF_WIRE_CREDIT:
    case MF_WIRE_HEARTBEAT: return 0;
    default: break;
    }
    return bad(c, "unknown body"); /* not reached: checked before */
}

/* The oneof pointer of the set case (NULL if none). */
static const void *body_ptr(const mf_wire_env *e)
{
    switch (e->body_case) {
    case MF_WIRE_HELLO: return e->hello;
    case MF_WIRE_CREDIT: return e->credit;
    case MF_WIRE_JOB: return e->job;
    case MF_WIRE_RESULT: return e->result;
    case MF_WIRE_HEARTBEAT: return e->heartbeat;
    case MF_WIRE_REJECT: return e->reject;
    case MF_WIRE_BYE: return e->bye;
    case MF_WIRE_ACK: return e->ack;
    case MF_WIRE_MATRIX_JOB: return e->matrix_job;
    case MF_WIRE_MATRIX_RESULT: return e->matrix_result;
    default: return NULL;
    }
}

/* Unknown fields (from a newer peer of the same version, or noise) are
 * ignored: dropped here, so that nothing re-encodes them. protobuf-c takes
 * a field number 0 written as an overlong varint, which no encoder may
 * write: such a frame is not protobuf. Returns 0, or -1 for field 0. */
static int drop_unknown(ProtobufCMessage *m)
{
    for (unsigned i = 0; i < m->n_unknown_fields; i++)
        if (m->unknown_fields[i].tag == 0)
            return -1;
    for (unsigned i = 0; i < m->n_unknown_fields; i++)
        free(m->unknown_fields[i].data);
    free(m->unknown_fields);
    m->unknown_fields = NULL;
    m->n_unknown_fields = 0;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        char *base = (char *)m;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(size_t *)(base + f->quantifier_offset);
            ProtobufCMessage **v = *(ProtobufCMessage ***)(base + f->offset);
            for (size_t k = 0; k < n; k++)
                if (v[k] && drop_unknown(v[k]) < 0)
                    return -1;
            continue;
        }
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
            *(uint32_t *)(base + f->quantifier_offset) != f->id)
            continue; /* another member of the oneof is set */
        ProtobufCMessage *sub = *(ProtobufCMessage **)(base + f->offset);
        if (sub && drop_unknown(sub) < 0)
            return -1;
    }
    return 0;
}

int mf_wire_decode(mf_wire_env **out, const void *data, size_t len,
                   mf_wire_fault *fault)
{
    *out = NULL;
    if (fault)
        *fault = MF_WIRE_OK;
    if (len > MF_WIRE_MAX_FRAME)
        return fail(fault, MF_WIRE_OVERSIZED, "%zu bytes, the limit is %zu",
                    len, MF_WIRE_MAX_FRAME);
    if (len == 0)
        return fail(fault, MF_WIRE_NO_BODY, "empty frame");
    if (!data)
        return fail(fault, MF_WIRE_UNDECODABLE, "no data");

    decode_budget b = {0, DECODE_BUDGET_BASE + DECODE_BUDGET_FACTOR * len, 0};
    ProtobufCAllocator alloc = {budget_alloc, budget_free, &b};
    mf_wire_env *e = mutfarm__v1__envelope__unpack(&alloc, len, data);
    if (!e) {
        if (b.over)
            return fail(fault, MF_WIRE_OVERSIZED,
                        "%zu bytes decode to more than %zu", len, b.budget);
        return fail(fault, MF_WIRE_UNDECODABLE,
                    "%zu bytes are not a mutfarm.v1.Envelope", len);
    }
    if (drop_unknown(&e->base) < 0) {
        mf_wire_free(e);
        return fail(fault, MF_WIRE_UNDECODABLE, "a field numbered 0");
    }
    if (e->protocol_version != MF_WIRE_VERSION) {
        unsigned v = e->protocol_version;
        mf_wire_free(e);
        return fail(fault, MF_WIRE_BAD_VERSION,
                    "protocol version %u, expected %u", v, MF_WIRE_VERSION);
    }
    if (e->body_case == MUTFARM__V1__ENVELOPE__BODY__NOT_SET || !body_ptr(e)) {
        mf_wire_free(e);
        return fail(fault, MF_WIRE_NO_BODY, "an envelope without a message");
    }
    vcheck c = {{0}};
    if (bad_body(&c, e)) {
        mf_wire_free(e);
        return fail(fault, MF_WIRE_INVALID, "%s", c.msg);
    }
    *out = e;
    return 0;
}

void mf_wire_free(mf_wire_env *env)
{
    if (env)
        mutfarm__v1__envelope__free_unpacked(env, NULL);
}

/* ------------------------------------------------------------------ */
/* Encoding                                                             */

int mf_wire_encode_env(uint8_t **out, size_t *len, const mf_wire_env *env)
{
    *out = NULL;
    *len = 0;
    size_t n = mutfarm__v1__envelope__get_packed_size(env);
    if (n > MF_WIRE_MAX_FRAME)
        return mf_err_set(MF_ELIMIT,
                          "a %s message of %zu bytes is over the frame "
                          "limit of %zu",
                          mf_wire_kind_name((mf_wire_kind)env->body_case), n,
                          MF_WIRE_MAX_FRAME);
    uint8_t *buf = mf_xmalloc(n ? n : 1);
    size_t w = mutfarm__v1__envelope__pack(env, buf);
    (void)w;
    *out = buf;
    *len = n;
    return 0;
}

/* Wrap a body of kind k (a pointer to its message) and encode. */
int mf_wire_encode_body(uint8_t **out, size_t *len, mf_wire_kind k,
                        const void *body)
{
    mf_wire_env e = MUTFARM__V1__ENVELOPE__INIT;
    e.protocol_version = MF_WIRE_VERSION;
    e.body_case = (Mutfarm__V1__Envelope__BodyCase)k;
    /* protobuf-c's structs are not const-correct; packing only reads. */
    void *p = (void *)(uintptr_t)body;
    switch (k) {
    case MF_WIRE_HELLO: e.hello = p; break;
    case MF_WIRE_CREDIT: e.credit = p; break;
    case MF_WIRE_JOB: e.job = p; break;
    case MF_WIRE_RESULT: e.result = p; break;
    case MF_WIRE_HEARTBEAT: e.heartbeat = p; break;
    case MF_WIRE_REJECT: e.reject = p; break;
    case MF_WIRE_BYE: e.bye = p; break;
    case MF_WIRE_ACK: e.ack = p; break;
    case MF_WIRE_MATRIX_JOB: e.matrix_job = p; break;
    case MF_WIRE_MATRIX_RESULT: e.matrix_result = p; break;
    case MF_WIRE_NONE: break;
    }
    return mf_wire_encode_env(out, len, &e);
}

int mf_wire_encode_hello(uint8_t **out, size_t *len, const mf_wire_hello *m)
{
    return mf_wire_encode_body(out, len, MF_WIRE_HELLO, m);
}

int mf_wire_encode_result(uint8_t **out, size_t *len,
                          const mf_wire_result *m)
{
    return mf_wire_encode_body(out, len, MF_WIRE_RESULT, m);
}

int mf_wire_encode_credit(uint8_t **out, size_t *len, uint32_t n)
{
    Mutfarm__V1__Credit m = MUTFARM__V1__CREDIT__INIT;
    m.n = n;
    return mf_wire_encode_body(out, len, MF_WIRE_CREDIT, &m);
}

int mf_wire_encode_heartbeat(uint8_t **out, size_t *len, uint32_t busy)
{
    Mutfarm__V1__Heartbeat m = MUTFARM__V1__HEARTBEAT__INIT;
    m.busy = busy;
    return mf_wire_encode_body(out, len, MF_WIRE_HEARTBEAT, &m);
}

/* protobuf-c wants char *; it only reads while packing. */
char *mf_wire_rd(const char *s)
{
    return (char *)(uintptr_t)(s ? s : "");
}

int mf_wire_encode_reject(uint8_t **out, size_t *len,
                          Mutfarm__V1__RejectCode code, const char *reason,
                          uint64_t job_id, uint32_t attempt)
{
    Mutfarm__V1__Reject m = MUTFARM__V1__REJECT__INIT;
    char why[MF_WIRE_MAX_STR + 1];
    snprintf(why, sizeof why, "%s", reason ? reason : "");
    m.code = code;
    m.reason = why;
    m.job_id = job_id;
    m.attempt = attempt;
    return mf_wire_encode_body(out, len, MF_WIRE_REJECT, &m);
}

int mf_wire_encode_bye(uint8_t **out, size_t *len, const char *reason,
                       const uint64_t *job_ids, const uint32_t *attempts,
                       size_t nret)
{
    Mutfarm__V1__Bye m = MUTFARM__V1__BYE__INIT;
    Mutfarm__V1__JobRef *refs = NULL, **pr = NULL;
    m.reason = mf_wire_rd(reason);
    if (nret) {
        refs = mf_xcalloc(nret, sizeof *refs);
        pr = mf_xcalloc(nret, sizeof *pr);
        for (size_t i = 0; i < nret; i++) {
            mutfarm__v1__job_ref__init(&refs[i]);
            refs[i].job_id = job_ids[i];
            refs[i].attempt = attempts[i];
            pr[i] = &refs[i];
        }
    }
    m.n_returned = nret;
    m.returned = pr;
    int rc = mf_wire_encode_body(out, len, MF_WIRE_BYE, &m);
    free(refs);
    free(pr);
    return rc;
}

int mf_wire_encode_ack(uint8_t **out, size_t *len, uint64_t job_id,
                       uint32_t attempt, int duplicate)
{
    Mutfarm__V1__Ack m = MUTFARM__V1__ACK__INIT;
    m.job_id = job_id;
    m.attempt = attempt;
    m.duplicate = duplicate != 0;
    return mf_wire_encode_body(out, len, MF_WIRE_ACK, &m);
}

static Mutfarm__V1__Notion notion_req_to_pb(mf_notion_req n)
{
    switch (n) {
    case MF_REQ_POTENTIAL: return MUTFARM__V1__NOTION__NOTION_POTENTIAL;
    case MF_REQ_DEFINITE: return MUTFARM__V1__NOTION__NOTION_DEFINITE;
    case MF_REQ_AUTO: break;
    }
    return MUTFARM__V1__NOTION__NOTION_AUTO;
}

int mf_wire_encode_job_spec(uint8_t **out, size_t *len,
                            const mf_wire_job_spec *j)
{
    mf_engine_opts def;
    const mf_engine_opts *eo = j->opts;
    if (!eo) {
        mf_engine_opts_default(&def);
        eo = &def;
    }
    Mutfarm__V1__Options o = MUTFARM__V1__OPTIONS__INIT;
    o.bound = eo->bound > 0 ? (uint32_t)eo->bound : 0;
    o.notion = notion_req_to_pb(eo->notion);
    o.engine = eo->engine == MF_ENGINE_QUANTIFIED
                   ? MUTFARM__V1__ENGINE__ENGINE_QUANTIFIED
                   : MUTFARM__V1__ENGINE__ENGINE_CEGIS;
    o.mode = eo->mode == MF_MODE_FRESH ? MUTFARM__V1__MODE__MODE_FRESH
                                       : MUTFARM__V1__MODE__MODE_BATCH;
    o.timeout_ms = eo->timeout_ms;
    o.rlimit = eo->rlimit;
    o.memory_mb = eo->memory_mb;
    o.no_proof = !eo->prove;
    o.cegis_max = eo->cegis_max > 0 ? (uint32_t)eo->cegis_max : 0;
    /* mf_method and Method share their values. */
    o.method = (Mutfarm__V1__Method)eo->method;
    o.explicit_mb = eo->explicit_mb;
    o.complete = eo->complete != 0;
    o.n_inputs = j->ninputs;
    o.inputs = (char **)(uintptr_t)j->inputs;
    o.n_observe = j->nobserve;
    o.observe = (char **)(uintptr_t)j->observe;

    size_t tlen = j->model_len ? j->model_len
                               : (j->model_text ? strlen(j->model_text) : 0);
    char hash[65];
    if (j->model_sha256)
        snprintf(hash, sizeof hash, "%s", j->model_sha256);
    else
        mf_sha256_hex(hash, j->model_text ? j->model_text : "", tlen);

    /* The text as a NUL-terminated string of exactly tlen bytes. */
    char *text = NULL;
    if (j->model_text && j->model_text[tlen] != '\0') {
        text = mf_xmalloc(tlen + 1);
        memcpy(text, j->model_text, tlen);
        text[tlen] = '\0';
    }

    Mutfarm__V1__Job m = MUTFARM__V1__JOB__INIT;
    m.job_id = j->job_id;
    m.attempt = j->attempt;
    m.campaign_id = j->campaign_id;
    m.model_name = mf_wire_rd(j->model_name);
    m.model_text = text ? text : mf_wire_rd(j->model_text);
    m.model_sha256 = hash;
    m.n_mutant_ids = j->nmutants;
    m.mutant_ids = (char **)(uintptr_t)j->mutant_ids;
    m.options = &o;
    m.crash_on = mf_wire_rd(j->crash_on);
    int rc = mf_wire_encode_body(out, len, MF_WIRE_JOB, &m);
    free(text);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Options                                                              */

void mf_wire_opts_to_engine(mf_engine_opts *o, const mf_wire_options *p)
{
    mf_engine_opts_default(o);
    if (!p)
        return;
    o->bound = (int)p->bound;
    switch (p->notion) {
    case MUTFARM__V1__NOTION__NOTION_POTENTIAL:
        o->notion = MF_REQ_POTENTIAL;
        break;
    case MUTFARM__V1__NOTION__NOTION_DEFINITE:
        o->notion = MF_REQ_DEFINITE;
        break;
    default: o->notion = MF_REQ_AUTO; break;
    }
    o->engine = p->engine == MUTFARM__V1__ENGINE__ENGINE_QUANTIFIED
                    ? MF_ENGINE_QUANTIFIED
                    : MF_ENGINE_CEGIS;
    o->mode = p->mode == MUTFARM__V1__MODE__MODE_FRESH ? MF_MODE_FRESH
                                                       : MF_MODE_BATCH;
    if (p->timeout_ms)
        o->timeout_ms = p->timeout_ms;
    o->rlimit = p->rlimit;
    o->memory_mb = p->memory_mb;
    o->prove = !p->no_proof;
    if (p->cegis_max)
        o->cegis_max = (int)p->cegis_max;
    if ((unsigned)p->method <= MUTFARM__V1__METHOD__METHOD_EXPLICIT)
        o->method = (mf_method)p->method;
    if (p->explicit_mb)
        o->explicit_mb = p->explicit_mb;
    o->complete = p->complete;
}
