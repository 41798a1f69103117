/* engine.h - deciding mutants with Z3: killing tests, equivalence proofs,
 * verdicts (DESIGN.md section 4, docs/killing.md). No Z3 type leaks out of
 * this header: the coordinator and the tests use it without z3.h. */
#ifndef MF_ENGINE_H
#define MF_ENGINE_H

#include "model.h"
#include "mutate.h"

typedef enum {
    MF_V_KILLED,
    MF_V_EQUIVALENT,
    MF_V_SURVIVED,
    MF_V_UNKNOWN,
    MF_V_ERROR,
} mf_verdict_kind;

typedef enum {
    MF_N_DETERMINISTIC, /* model and mutant deterministic: a test kills */
    MF_N_POTENTIAL,
    MF_N_DEFINITE,
} mf_notion;

typedef enum { MF_REQ_AUTO, MF_REQ_POTENTIAL, MF_REQ_DEFINITE } mf_notion_req;
typedef enum { MF_ENGINE_CEGIS, MF_ENGINE_QUANTIFIED } mf_engine_kind;
typedef enum { MF_MODE_BATCH, MF_MODE_FRESH } mf_mode;
/* Values in Z3: bit-vectors where an interval analysis bounds them, else
 * Int (auto), or forced (to measure one against the other). */
typedef enum { MF_ENCODING_AUTO, MF_ENCODING_INT, MF_ENCODING_BV } mf_encoding;

typedef struct {
    int bound;             /* deepest test length searched */
    mf_notion_req notion;  /* what a kill must satisfy */
    mf_engine_kind engine; /* non-deterministic models */
    mf_mode mode;          /* one solver per batch or per mutant */
    mf_encoding encoding;  /* of values (worker/encode.h MF_ENC_*) */
    unsigned timeout_ms;   /* per solver check */
    unsigned mutant_ms;    /* wall budget of one mutant after the batch's
                              deterministic search (refinement and proofs):
                              every check is cut to what is left; 0: none */
    unsigned rlimit;       /* per solver check, 0: none */
    int prove;             /* try equivalence proofs for survivors */
    int cegis_max;         /* refinement iterations per depth */
    long explicit_max;     /* product states of the explicit-state proof,
                              0: that method is off */
} mf_engine_opts;

void mf_engine_opts_default(mf_engine_opts *o);

/* A test: per state the input cells (state 0: the initial input VARs;
 * state k: the input of step k-1), the original's expected observables,
 * and per state the observables the original allows there (locally
 * adaptive tests: nallowed[k] vectors of nobs values). */
typedef struct {
    int length;      /* steps */
    int nslots, nobs;
    mf_val *inputs;  /* (length + 1) * nslots, only input cells meaningful */
    mf_val *expect;  /* (length + 1) * nobs */
    mf_val *mobs;    /* (length + 1) * nobs: the mutant's deviating
                        behaviour (potential kills), else NULL */
    int *nallowed;   /* length + 1 */
    mf_val **allowed;
    int mrefuses;    /* step at which the mutant refuses, -1 none */
} mf_test;

typedef struct {
    mf_verdict_kind kind;
    mf_notion notion;     /* killed */
    int orig_det, mut_det; /* structural determinism */
    int bound;            /* survived: searched up to this length */
    char method[64];      /* equivalent: the proof method */
    char reason[512];     /* unknown / error */
    mf_test *test;        /* killed: owned */
    int not_shortest;     /* killed, but the test is not claimed to be
                             the shortest: a test found for another mutant
                             and replayed, or found past a length where the
                             search could not decide the mutant's refusals */
    double secs;
} mf_verdict;

void mf_verdict_clear(mf_verdict *v);

/* A mutant to decide: a variant of the original (item replaced by repl,
 * removed when repl is NULL) with the mutated model (for the replay). */
typedef struct {
    int item;
    const mf_item *repl;
    const mf_model *mutated; /* the mutant as a model (mf_mutant_apply) */
} mf_engine_mutant;

/* Decide nmut mutants of m; out[i] for muts[i]. Returns 0 or a negative
 * code for a failure that concerns the whole batch (then every verdict is
 * MF_V_ERROR with the reason). */
int mf_engine_check(const mf_model *m, const mf_engine_mutant *muts,
                    int nmut, const mf_engine_opts *o, mf_verdict *out);

/* Decide a second model with the same variables as if it were a mutant. */
int mf_engine_check_against(const mf_model *m, const mf_model *other,
                            const mf_engine_opts *o, mf_verdict *out);

/* Replay a test with the simulator (the self-check): 0 if it distinguishes
 * as its notion says, else MF_ERROR with the details in mf_err_msg(). Also
 * fills the allowed outputs of the test. */
int mf_engine_replay(const mf_model *m, const mf_model *mutant, mf_test *t,
                     mf_notion notion);

/* How many kills of this process took the explicit-state explorer's test
 * (no solver search): notion MF_N_POTENTIAL, or the others (definite and
 * deterministic). For tests and measurements. */
long mf_engine_explorer_tests(mf_notion notion);

void mf_test_free(mf_test *t);
/* The test as text: "init: x=1" / one line per step "inp=req" with the
 * expected observables as comments. */
void mf_test_print(mf_buf *out, const mf_model *m, const mf_test *t);

const char *mf_verdict_name(mf_verdict_kind k);
const char *mf_notion_name(mf_notion n);

#endif
