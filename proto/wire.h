/* wire.h - the farm's wire codec: one ZeroMQ frame <-> one
 * mutfarm.v1.Envelope (proto/mutfarm.proto, docs/protocol.md), and the
 * conversions between the engine's verdicts/tests and Result messages
 * (wire.c: envelopes, checks, encoders; wire_result.c: Results;
 * wire_matrix.c: the kill matrix's messages).
 *
 * It moves bytes and structs only: no sockets, no policy. Who sends what
 * when is docs/protocol.md; the farm's serving loop (farm/) with its
 * kinds of work, and the worker (worker/farm_worker.c), implement it.
 *
 * Structs come in two kinds, freed differently:
 *   - decoded ones (mf_wire_decode) belong to protobuf-c: mf_wire_free();
 *   - built ones (mf_wire_result_new) belong to this module:
 *     mf_wire_result_free().
 * The encoders only read their argument; they never take ownership. */
#ifndef MF_WIRE_H
#define MF_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "mutfarm.pb-c.h"

/* The version in every envelope. A peer refuses any other. Bump it when a
 * change would be misread by a peer of the previous version. */
#define MF_WIRE_VERSION 1u
/* The largest frame either side sends or accepts (a job carries the whole
 * model text, a result every test of the job). */
#define MF_WIRE_MAX_FRAME ((size_t)16 << 20)
/* Limits inside a frame, checked by the decoder. */
#define MF_WIRE_MAX_MUTANTS 100000   /* mutants per job / results per result */
#define MF_WIRE_MAX_STR 4096         /* ids, reasons, versions, names */
#define MF_WIRE_MAX_TESTS 100000     /* tests per matrix job */
#define MF_WIRE_MAX_KILLS 2000000    /* kill rows per matrix result */
/* A killing test travels with its text form (Test.steps, Test.text) only
 * while mf_test_print makes at most this many bytes of it; a longer one
 * goes as its arrays alone (the coordinator renders text from those). */
#define MF_WIRE_TEXT_MAX ((size_t)64 << 10)

/* Short names for the generated types. */
typedef Mutfarm__V1__Envelope mf_wire_env;
typedef Mutfarm__V1__Hello mf_wire_hello;
typedef Mutfarm__V1__Job mf_wire_job;
typedef Mutfarm__V1__Options mf_wire_options;
typedef Mutfarm__V1__Result mf_wire_result;
typedef Mutfarm__V1__MutantResult mf_wire_mutant_result;
typedef Mutfarm__V1__Test mf_wire_test;
typedef Mutfarm__V1__Reject mf_wire_reject;
typedef Mutfarm__V1__Bye mf_wire_bye;
typedef Mutfarm__V1__Ack mf_wire_ack;
typedef Mutfarm__V1__MatrixJob mf_wire_matrix_job;
typedef Mutfarm__V1__MatrixResult mf_wire_matrix_result;
typedef Mutfarm__V1__KillRow mf_wire_kill_row;

/* What the envelope holds (the oneof case), with readable names. */
typedef enum {
    MF_WIRE_NONE = MUTFARM__V1__ENVELOPE__BODY__NOT_SET,
    MF_WIRE_HELLO = MUTFARM__V1__ENVELOPE__BODY_HELLO,
    MF_WIRE_CREDIT = MUTFARM__V1__ENVELOPE__BODY_CREDIT,
    MF_WIRE_JOB = MUTFARM__V1__ENVELOPE__BODY_JOB,
    MF_WIRE_RESULT = MUTFARM__V1__ENVELOPE__BODY_RESULT,
    MF_WIRE_HEARTBEAT = MUTFARM__V1__ENVELOPE__BODY_HEARTBEAT,
    MF_WIRE_REJECT = MUTFARM__V1__ENVELOPE__BODY_REJECT,
    MF_WIRE_BYE = MUTFARM__V1__ENVELOPE__BODY_BYE,
    MF_WIRE_ACK = MUTFARM__V1__ENVELOPE__BODY_ACK,
    MF_WIRE_MATRIX_JOB = MUTFARM__V1__ENVELOPE__BODY_MATRIX_JOB,
    MF_WIRE_MATRIX_RESULT = MUTFARM__V1__ENVELOPE__BODY_MATRIX_RESULT,
} mf_wire_kind;

/* 1 if Hello h takes farm work of kind `name` ("campaign", "matrix"):
 * one of the kinds it names, or, for a Hello that names none (an older
 * worker), "campaign", and "matrix" when it says matrix_jobs. */
int mf_wire_hello_takes(const mf_wire_hello *h, const char *name);

/* The job id and attempt a job or a result (Job, MatrixJob, Result,
 * MatrixResult) names; 0 and 0 for any other body. */
void mf_wire_job_of(const mf_wire_env *e, uint64_t *job, uint32_t *attempt);

/* "hello", "credit", ... ("none" for MF_WIRE_NONE, "?" otherwise). */
const char *mf_wire_kind_name(mf_wire_kind k);

/* ---- decoding ------------------------------------------------------------ */

/* Why a frame was refused. */
typedef enum {
    MF_WIRE_OK = 0,
    MF_WIRE_UNDECODABLE, /* not a mutfarm.v1.Envelope */
    MF_WIRE_BAD_VERSION, /* protocol_version != MF_WIRE_VERSION */
    MF_WIRE_OVERSIZED,   /* longer than MF_WIRE_MAX_FRAME */
    MF_WIRE_NO_BODY,     /* an envelope with an empty oneof (or empty frame) */
    MF_WIRE_INVALID,     /* decodes, but the content is inconsistent: a test
                            whose arrays do not match its sizes, an unknown
                            enum value, a missing job id, ... */
} mf_wire_fault;

/* "undecodable", "wrong protocol version", "oversized", "no body",
 * "invalid content" ("ok" for MF_WIRE_OK). */
const char *mf_wire_fault_name(mf_wire_fault f);
/* The Reject code that answers a fault (REJECT_UNDECODABLE, ...). */
Mutfarm__V1__RejectCode mf_wire_fault_reject_code(mf_wire_fault f);

/* Decode one frame. Any bytes are safe here (fuzzed): on success returns 0
 * and *out is the envelope, checked (version, body set, strings bounded,
 * enums known, ids present, every Test's arrays consistent with its
 * sizes), to be freed with mf_wire_free(). On failure *out is NULL,
 * *fault (if not NULL) says why, and the return is MF_ELIMIT (oversized)
 * or MF_EPARSE (all others) with a one-line message in mf_err_msg(), e.g.
 * "protocol version 7, expected 1". */
int mf_wire_decode(mf_wire_env **out, const void *data, size_t len,
                   mf_wire_fault *fault);
void mf_wire_free(mf_wire_env *env); /* NULL-safe */

/* ---- encoding ------------------------------------------------------------ */
/* Each wraps its message in an envelope of MF_WIRE_VERSION and packs it
 * into *out (malloc'd, the caller frees; *len its size). Returns 0, or
 * MF_ELIMIT if the frame would exceed MF_WIRE_MAX_FRAME (then *out is NULL
 * and nothing is allocated). */

int mf_wire_encode_hello(uint8_t **out, size_t *len, const mf_wire_hello *m);
int mf_wire_encode_result(uint8_t **out, size_t *len,
                          const mf_wire_result *m);
/* Any envelope as is (its protocol_version is sent as given: for tests). */
int mf_wire_encode_env(uint8_t **out, size_t *len, const mf_wire_env *env);

/* The small messages from plain arguments. */
int mf_wire_encode_credit(uint8_t **out, size_t *len, uint32_t n);
int mf_wire_encode_heartbeat(uint8_t **out, size_t *len, uint32_t busy);
int mf_wire_encode_reject(uint8_t **out, size_t *len,
                          Mutfarm__V1__RejectCode code, const char *reason,
                          uint64_t job_id, uint32_t attempt);
/* A Bye giving back nret jobs (job_ids[i], attempts[i]); nret may be 0. */
int mf_wire_encode_bye(uint8_t **out, size_t *len, const char *reason,
                       const uint64_t *job_ids, const uint32_t *attempts,
                       size_t nret);
int mf_wire_encode_ack(uint8_t **out, size_t *len, uint64_t job_id,
                       uint32_t attempt, int duplicate);

/* A job from plain arguments (the coordinator's side). Nothing is copied:
 * the strings are only read while encoding. */
typedef struct {
    uint64_t job_id;
    uint32_t attempt;
    uint64_t campaign_id;
    const char *model_name;         /* for messages, may be NULL */
    const char *model_text;         /* the SMV text */
    size_t model_len;               /* strlen(model_text) if 0 */
    const char *model_sha256;       /* NULL: computed from the text */
    const char *const *mutant_ids;  /* nmutants ids */
    size_t nmutants;
    const mf_engine_opts *opts;     /* NULL: engine defaults */
    const char *const *inputs;      /* --inputs, may be NULL */
    size_t ninputs;
    const char *const *observe;     /* --observe, may be NULL */
    size_t nobserve;
    const char *crash_on;           /* test-only poison id, NULL: none */
} mf_wire_job_spec;

int mf_wire_encode_job_spec(uint8_t **out, size_t *len,
                            const mf_wire_job_spec *j);

/* ---- options, verdicts and tests <-> messages -------------------------- */

/* Engine options from a decoded Options (NULL: the defaults); values 0 in
 * timeout_ms / cegis_max keep the engine's defaults. */
void mf_wire_opts_to_engine(mf_engine_opts *o, const mf_wire_options *p);

/* A Result under construction (the worker's side): job fields copied,
 * no mutants yet. Free with mf_wire_result_free (never mf_wire_free). */
mf_wire_result *mf_wire_result_new(uint64_t job_id, uint32_t attempt,
                                   uint64_t campaign_id,
                                   const char *worker_id);
/* Append the verdict of one mutant (copied; v stays the caller's). With m
 * (the original model) a killing test also gets its text per step and as
 * a whole; with m NULL only the structured arrays are sent. */
void mf_wire_result_add(mf_wire_result *r, const char *mutant_id,
                        const mf_verdict *v, const mf_model *m);
/* Append an error verdict for a mutant that could not be checked. */
void mf_wire_result_add_error(mf_wire_result *r, const char *mutant_id,
                              const char *reason);
/* Make r fit in a frame of max bytes (the worker's side, when
 * mf_wire_encode_result refuses it as over the limit): first every test
 * loses its text form; then, largest entry first, killed verdicts whose
 * tests still do not fit become UNKNOWN, the reason saying why, until
 * the frame fits. Returns the number of verdicts so changed (0: r fitted,
 * or dropping the texts was enough). r may still not fit if its entries
 * without tests are too many. */
size_t mf_wire_result_fit(mf_wire_result *r, size_t max);
void mf_wire_result_free(mf_wire_result *r); /* NULL-safe */

/* The verdict of one decoded MutantResult (the coordinator's side): fills
 * *v (zeroed first; v->test allocated for kills, release with
 * mf_verdict_clear). Returns 0, or MF_EPARSE with a message if r does not
 * make a verdict (mf_wire_decode already refuses such results). */
int mf_wire_verdict_from_result(mf_verdict *v,
                                const mf_wire_mutant_result *r);

/* A verdict's name as the store writes it ("killed", ...). */
const char *mf_wire_verdict_name(Mutfarm__V1__Verdict v);

/* ---- the kill matrix through the farm (docs/protocol.md) ---------------- */

/* A matrix job from plain arguments (the coordinator's side). Nothing is
 * copied or kept: everything is only read while encoding. The tests go
 * in their structured form only (no text: the worker has the model). */
typedef struct {
    uint64_t job_id;
    uint32_t attempt;
    uint64_t campaign_id;
    const char *model_name;         /* for messages, may be NULL */
    const char *model_text;         /* the SMV text, NUL-terminated */
    const char *model_sha256;       /* NULL: computed from the text */
    const char *const *inputs;      /* --inputs, may be NULL */
    size_t ninputs;
    const char *const *observe;     /* --observe, may be NULL */
    size_t nobserve;
    const int64_t *test_ids;        /* ntests store ids (> 0) */
    const mf_test *const *tests;    /* ntests tests */
    size_t ntests;
    const char *const *mutant_ids;  /* nmutants ids */
    const int64_t *verdict_tests;   /* nmutants, or NULL: none */
    size_t nmutants;
} mf_wire_matrix_spec;

int mf_wire_encode_matrix_job(uint8_t **out, size_t *len,
                              const mf_wire_matrix_spec *j);

/* A MatrixResult under construction (the worker's side): job fields
 * copied, no rows yet. Free with mf_wire_matrix_result_free (never
 * mf_wire_free). */
mf_wire_matrix_result *mf_wire_matrix_result_new(uint64_t job_id,
                                                 uint32_t attempt,
                                                 uint64_t campaign_id,
                                                 const char *worker_id);
/* Append one kill row (refuses -1: none). */
void mf_wire_matrix_result_add(mf_wire_matrix_result *r, uint64_t test_id,
                               const char *mutant_id, mf_notion notion,
                               int step, int refuses);
/* Set the first undecided pair's reason (copied, bounded). */
void mf_wire_matrix_result_why(mf_wire_matrix_result *r, const char *why);
int mf_wire_encode_matrix_result(uint8_t **out, size_t *len,
                                 const mf_wire_matrix_result *m);
void mf_wire_matrix_result_free(mf_wire_matrix_result *r); /* NULL-safe */

/* A decoded Test as a new mf_test (mf_test_free), *out NULL on failure:
 * MF_EPARSE if its arrays do not match its sizes (mf_wire_decode already
 * refuses such tests). */
int mf_wire_test_decode(mf_test **out, const mf_wire_test *pt);

/* A kill row's notion (decoded rows carry DETERMINISTIC, POTENTIAL or
 * DEFINITE only). */
mf_notion mf_wire_notion(Mutfarm__V1__Notion n);

#endif
