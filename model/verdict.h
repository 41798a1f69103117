/* verdict.h - what a check concludes about a mutant: the verdict kinds, the
 * killing notions and the test that shows a kill (docs/killing.md).
 *
 * These are plain data over a model: the engine makes them, the wire
 * carries them, the store keeps them and the reports print them. No code
 * here decides anything; printing a test is here so that every part words
 * it the same way. */
#ifndef MF_VERDICT_H
#define MF_VERDICT_H

#include "model.h"

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
    int mundef;      /* 1 + the observed DEFINE (its index in the model's
                        obs_defines) the mutant leaves undefined in
                        the last state where the original's has a value
                        (docs/semantics.md, Undefined observables), 0 none */
    int mundef_item; /* 1 + the mutant's assignment (its item index) that
                        has no value where the mutant refuses the last
                        step, 0 none or not known */
} mf_test;

typedef struct {
    mf_verdict_kind kind;
    mf_notion notion;     /* killed */
    int orig_det, mut_det; /* structural determinism */
    int bound;            /* survived: searched up to this length */
    char method[64];      /* equivalent: the proof method */
    char reason[512];     /* unknown / error */
    mf_test *test;        /* killed: owned */
    int kill_len_beyond;  /* survived: the length of its shortest kill,
                             past the bound, where a complete method (the
                             explicit-state exploration) knows it: "killable
                             at 22, beyond the bound"; 0: not known */
    int not_shortest;     /* killed, but the test is not claimed to be
                             the shortest: a test found for another mutant
                             and replayed, or found past a length where the
                             search could not decide the mutant's refusals */
    double secs;
} mf_verdict;

/* An empty test of `len` steps: inputs and expected observables zero, no
 * allowed outputs yet (a replay fills them), no refusal. Never NULL. */
mf_test *mf_test_new(int nslots, int nobs, int len);
/* The inputs and expected observables of t, without allowed outputs or
 * the mutant's behaviour (for a replay on another mutant). */
mf_test *mf_test_copy(const mf_test *t);
void mf_test_free(mf_test *t); /* NULL-safe */

/* Frees the test and zeroes *v. */
void mf_verdict_clear(mf_verdict *v);

/* The test as text: "init: x=1" / one line per step "inp=req" with the
 * expected observables (and the allowed ones, where the original has more
 * than one) as comments. */
void mf_test_print(mf_buf *out, const mf_model *m, const mf_test *t);
/* The inputs of state k of t, "a=1, b=TRUE" ("" where it has none). */
void mf_test_print_inputs(mf_buf *out, const mf_model *m, const mf_test *t,
                          int k);

/* "killed", "equivalent", ... and "deterministic", "potential",
 * "definite" ("?" for a value out of range). */
const char *mf_verdict_name(mf_verdict_kind k);
const char *mf_notion_name(mf_notion n);

#endif
