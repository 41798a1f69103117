/* engine.h - deciding mutants with Z3: killing tests, equivalence proofs,
 * verdicts (docs/architecture.md, docs/killing.md). No Z3 type leaks out of
 * this header: the coordinator and the tests use it without z3.h. */
#ifndef MF_ENGINE_H
#define MF_ENGINE_H

#include "model.h"
#include "mutate.h"
#include "verdict.h"

typedef enum { MF_REQ_AUTO, MF_REQ_POTENTIAL, MF_REQ_DEFINITE } mf_notion_req;
typedef enum { MF_ENGINE_CEGIS, MF_ENGINE_QUANTIFIED } mf_engine_kind;
typedef enum { MF_MODE_BATCH, MF_MODE_FRESH } mf_mode;
/* Values in Z3: bit-vectors where an interval analysis bounds them, else
 * Int (auto), or forced (to measure one against the other). */
typedef enum { MF_ENCODING_AUTO, MF_ENCODING_INT, MF_ENCODING_BV } mf_encoding;
/* Which method decides the deterministic mutants first (docs/killing.md,
 * Portfolio): chosen per batch from measured cost (auto), or forced. */
typedef enum {
    MF_METHOD_AUTO,
    MF_METHOD_SMT,
    MF_METHOD_BDD,
    MF_METHOD_EXPLICIT
} mf_method;

/* A mutant's verdict is final: v points into the out array given to
 * mf_engine_check (its kind, notion, test and reason will not change
 * before that call returns; its secs may). Called
 * from the thread that decides the batch, once a mutant, in the order of
 * the batch, as soon as that mutant's methods are done: a caller prints
 * verdicts as they are decided (check --all cut by a signal keeps them). */
typedef void mf_engine_decided_fn(void *ctx, const mf_verdict *v);

typedef struct {
    int bound;             /* deepest test length searched */
    int complete;          /* --bound auto: the explicit-state explorer's
                              kills count at any length; the searches stop
                              at `bound` where it cannot decide a mutant */
    mf_notion_req notion;  /* what a kill must satisfy */
    mf_engine_kind engine; /* non-deterministic models */
    mf_mode mode;          /* one solver per batch or per mutant */
    mf_encoding encoding;  /* of values (encode.h MF_ENC_*) */
    unsigned timeout_ms;   /* per solver check */
    unsigned mutant_ms;    /* wall budget of one mutant after the batch's
                              deterministic search (refinement and proofs):
                              every check is cut to what is left; 0: none */
    unsigned rlimit;       /* per solver check, 0: none */
    unsigned memory_mb;    /* Z3's memory budget per solver thread, MiB,
                              0: none (z3util.c, docs/config.md) */
    int prove;             /* try equivalence proofs for survivors */
    int cegis_max;         /* refinement iterations per depth */
    long explicit_max;     /* product states of the explicit-state proof,
                              0: that method is off, < 0: no count, the
                              memory budget decides */
    unsigned explicit_mb;  /* memory budget of the explicit-state proof
                              per thread, MB (0: none; then without a
                              count, 20000 states) */
    mf_method method;      /* auto, or one forced */
    mf_engine_decided_fn *decided; /* NULL: none */
    void *decided_ctx;             /* its first argument */
} mf_engine_opts;

void mf_engine_opts_default(mf_engine_opts *o);

/* How many threads of this process run checks at once (default 1): Z3
 * counts memory per process, so memory_mb is enforced as that many times
 * memory_mb of Z3 memory in the process. Set before the threads start. */
void mf_engine_set_threads(int n);

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
int mf_engine_check(const mf_model *m, const mf_engine_mutant *muts, int nmut,
                    const mf_engine_opts *o, mf_verdict *out);

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

/* How many mutants of this process the BDD engine decided (killed,
 * proved, or searched to the bound) and left to the other methods
 * (portfolio.c). For tests and measurements. */
long mf_engine_bdd_decided(void);
long mf_engine_bdd_left(void);

#endif
