/* wire.c - the farm's wire codec (see wire.h): envelopes in and out of
 * single ZeroMQ frames, the decoder's checks, and the conversions between
 * engine verdicts/tests and Result messages.
 *
 * It does not touch sockets or decide policy. The decoder is the only code
 * that sees a peer's bytes before anything else does, so it alone must
 * hold against any input: it bounds the frame, bounds what protobuf-c may
 * allocate while unpacking (a small frame of empty sub-messages would
 * otherwise unpack to hundreds of times its size), and checks every field
 * the rest of mutfarm relies on, so that the coordinator and the worker
 * can index a decoded Test's arrays without checking them again. */
#include "wire.h"

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
typedef struct {
    char msg[200];
} vcheck;

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

static int bad_test(vcheck *c, const Mutfarm__V1__Test *t)
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

static int bad_mutant_result(vcheck *c, const Mutfarm__V1__MutantResult *r)
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
    return r->test ? bad_test(c, r->test) : 0;
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
        if (bad_mutant_result(c, r->mutants[i]))
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

static int bad_matrix_job(vcheck *c, const Mutfarm__V1__MatrixJob *j);
static int bad_matrix_result(vcheck *c, const Mutfarm__V1__MatrixResult *r);

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
static int encode_body(uint8_t **out, size_t *len, mf_wire_kind k,
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
    return encode_body(out, len, MF_WIRE_HELLO, m);
}

int mf_wire_encode_result(uint8_t **out, size_t *len,
                          const mf_wire_result *m)
{
    return encode_body(out, len, MF_WIRE_RESULT, m);
}

int mf_wire_encode_credit(uint8_t **out, size_t *len, uint32_t n)
{
    Mutfarm__V1__Credit m = MUTFARM__V1__CREDIT__INIT;
    m.n = n;
    return encode_body(out, len, MF_WIRE_CREDIT, &m);
}

int mf_wire_encode_heartbeat(uint8_t **out, size_t *len, uint32_t busy)
{
    Mutfarm__V1__Heartbeat m = MUTFARM__V1__HEARTBEAT__INIT;
    m.busy = busy;
    return encode_body(out, len, MF_WIRE_HEARTBEAT, &m);
}

/* protobuf-c wants char *; it only reads while packing. */
static char *rd(const char *s)
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
    return encode_body(out, len, MF_WIRE_REJECT, &m);
}

int mf_wire_encode_bye(uint8_t **out, size_t *len, const char *reason,
                       const uint64_t *job_ids, const uint32_t *attempts,
                       size_t nret)
{
    Mutfarm__V1__Bye m = MUTFARM__V1__BYE__INIT;
    Mutfarm__V1__JobRef *refs = NULL, **pr = NULL;
    m.reason = rd(reason);
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
    int rc = encode_body(out, len, MF_WIRE_BYE, &m);
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
    return encode_body(out, len, MF_WIRE_ACK, &m);
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
    m.model_name = rd(j->model_name);
    m.model_text = text ? text : rd(j->model_text);
    m.model_sha256 = hash;
    m.n_mutant_ids = j->nmutants;
    m.mutant_ids = (char **)(uintptr_t)j->mutant_ids;
    m.options = &o;
    m.crash_on = rd(j->crash_on);
    int rc = encode_body(out, len, MF_WIRE_JOB, &m);
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

static Mutfarm__V1__Notion notion_to_pb(mf_notion n)
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

static Mutfarm__V1__Test *test_to_pb(const mf_test *t, const mf_model *m)
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

static void test_free_built(Mutfarm__V1__Test *pt)
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
static char *bounded_dup(const char *s)
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
    mr->notion = v->kind == MF_V_KILLED ? notion_to_pb(v->notion)
                                        : MUTFARM__V1__NOTION__NOTION_AUTO;
    mr->bound = v->bound > 0 ? (uint32_t)v->bound : 0;
    mr->kill_len_beyond = v->kind == MF_V_SURVIVED && v->kill_len_beyond > 0
                              ? (uint32_t)v->kill_len_beyond
                              : 0;
    mr->method = bounded_dup(v->method);
    mr->reason = bounded_dup(v->reason);
    mr->solver_ms = v->secs > 0 ? (uint64_t)(v->secs * 1000.0 + 0.5) : 0;
    mr->orig_det = v->orig_det != 0;
    mr->mut_det = v->mut_det != 0;
    if (v->kind == MF_V_KILLED && v->test)
        mr->test = test_to_pb(v->test, m);
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
    mr->reason = bounded_dup(reason);
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
    test_free_built(mr->test);
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
        test_free_built(mr->test);
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
    vcheck c = {{0}};
    if (bad_test(&c, pt))
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
    vcheck c = {{0}};
    if (bad_mutant_result(&c, r))
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

/* ------------------------------------------------------------------ */
/* The kill matrix through the farm                                     */

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
        if (bad_test(c, t->test))
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
        mt[i].test = test_to_pb(j->tests[i], NULL);
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
    m.model_name = rd(j->model_name);
    m.model_text = rd(text);
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
    int rc = encode_body(out, len, MF_WIRE_MATRIX_JOB, &m);
    for (size_t i = 0; i < nt; i++)
        test_free_built(mt[i].test);
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
    r->worker_id = bounded_dup(worker_id);
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
    k->notion = notion_to_pb(notion);
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
    r->undecided_why = bounded_dup(why);
}

int mf_wire_encode_matrix_result(uint8_t **out, size_t *len,
                                 const mf_wire_matrix_result *m)
{
    return encode_body(out, len, MF_WIRE_MATRIX_RESULT, m);
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
