/* sim_fixtures.h - what test_sim.c and test_eval.c share: models loaded
 * from text or the seeds, slots and symbols by name, state vectors
 * (static inline, so a test file that uses only some of them compiles
 * clean). */
#ifndef MF_SIM_FIXTURES_H
#define MF_SIM_FIXTURES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "langs.h"
#include "sim.h"

/* ---- helpers ------------------------------------------------------------ */

static inline mf_model *load_text(const char *text, const char **inputs, int ninputs)
{
    mf_model_opts o = {0};
    mf_model *m = NULL;
    o.inputs = inputs;
    o.ninputs = ninputs;
    int rc =
        mf_model_load(&m, "inline.smv", text, strlen(text), inputs ? &o : NULL);
    if (rc != 0)
        fail_msg("inline model refused: %s", mf_err_msg());
    return m;
}

static inline mf_model *load_seed(const char *name)
{
    char path[4096];
    mf_model *m = NULL;
    snprintf(path, sizeof path, "tests/models/%s", name);
    if (mf_model_load_file(&m, path, NULL) == 0)
        return m;
    const char *shared = getenv("MF_SHARED_MODELS");
    snprintf(path, sizeof path, "%s/seeds/%s",
             shared ? shared : "../shared/models", name);
    if (mf_model_load_file(&m, path, NULL) != 0)
        fail_msg("cannot load %s: %s", name, mf_err_msg());
    return m;
}

static inline int slot_of(const mf_model *m, const char *var)
{
    int i = mf_model_find_var(m, var);
    assert_true(i >= 0);
    return m->vars[i].slot;
}

static inline mf_val sym(const mf_model *m, const char *name)
{
    int i = mf_model_find_sym(m, name);
    assert_true(i >= 0);
    return MF_SYM(i);
}

/* A zeroed state/input vector with var=value pairs set (values as ints). */
static inline mf_val *vec(const mf_model *m)
{
    return mf_xcalloc((size_t)(m->nslots ? m->nslots : 1), sizeof(mf_val));
}

/* The end of a test: its vectors (NULL-safe) and its model freed. */
static inline void release(mf_model *m, mf_val *a, mf_val *b, mf_val *c)
{
    free(a);
    free(b);
    free(c);
    mf_model_free(m);
}

typedef struct {
    const mf_model *m;
    int n;
    mf_val states[64][16];
} collect;

static inline int collect_fn(const mf_val *s, void *ctx)
{
    collect *c = ctx;
    if (c->n < 64)
        memcpy(c->states[c->n], s, (size_t)c->m->nslots * sizeof(mf_val));
    c->n++;
    return 0;
}

#endif
