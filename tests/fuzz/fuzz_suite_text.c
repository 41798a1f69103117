/* fuzz_suite_text.c - libFuzzer target for the hand-written form of a
 * user's test suite (mf_suite_read with MF_SUITE_TEXT,
 * coordinator/report/suite_read.c; docs/suites.md): text a person types
 * and `mutfarm tests import` reads.
 *
 * Any input must either be refused with one message "fuzz.txt:LINE: ..."
 * (a line of the input) and no tests, or give tests whose every state has
 * a line of the input; such a suite, written back in the same form (the
 * inputs and observables as mutfarm prints them), reads back as the same
 * tests. Crashes, leaks, sanitizer reports and broken round trips are the
 * bugs this looks for.
 *
 * The seeds CTest gives every fuzzer are SMV models, far from a suite, so
 * a custom mutator now and then replaces an input by a valid suite of
 * random tests of the model below (values of the right types, not runs:
 * the reader does not simulate). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_cells.h"
#include "langs.h"
#include "suite_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);

static mf_model *model(void)
{
    static const char *const in[] = {"go", "lvl", "mode"};
    return fuzz_cells_model(in, 3);
}

/* The suite written back in the text form. */
static void write_text(mf_buf *b, const mf_model *m, const mf_suite_file *f)
{
    if (f->model_hash[0])
        mf_buf_printf(b, "model %s\n", f->model_hash);
    for (int i = 0; i < f->n; i++) {
        const mf_test *t = f->v[i].t;
        mf_buf_printf(b, "test %d\n", i + 1);
        for (int k = 0; k <= t->length; k++) {
            mf_test_print_inputs(b, m, t, k);
            mf_buf_puts(b, " -> ");
            mf_print_obs(b, m, t->expect + (size_t)k * (size_t)t->nobs);
            mf_buf_puts(b, "\n");
        }
    }
}

static int same_test(const mf_test *a, const mf_test *b)
{
    if (a->length != b->length || a->nslots != b->nslots ||
        a->nobs != b->nobs)
        return 0;
    size_t ni = (size_t)(a->length + 1) * (size_t)a->nslots;
    size_t no = (size_t)(a->length + 1) * (size_t)a->nobs;
    return !memcmp(a->inputs, b->inputs, ni * sizeof(mf_val)) &&
           !memcmp(a->expect, b->expect, no * sizeof(mf_val));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const mf_model *m = model();
    mf_suite_file f;
    int nlines = 1;
    for (size_t i = 0; i < size; i++)
        nlines += data[i] == '\n';
    int rc = mf_suite_read(&f, m, "fuzz.txt", (const char *)data, size,
                           MF_SUITE_TEXT);
    if (rc < 0) {
        const char *msg = mf_err_msg();
        int line = 0;
        if (f.n || f.v || strncmp(msg, "fuzz.txt:", 9) != 0 ||
            sscanf(msg + 9, "%d", &line) != 1 || line < 1 || line > nlines)
            abort(); /* refused: no tests, and a message with a line */
        return 0;
    }
    if (f.n < 1)
        abort();
    for (int i = 0; i < f.n; i++)
        for (int k = 0; k <= f.v[i].t->length; k++)
            if (f.v[i].lines[k] < 1 || f.v[i].lines[k] > nlines ||
                (k && f.v[i].lines[k] <= f.v[i].lines[k - 1]))
                abort(); /* every state on its own line, in order */
    mf_buf b = {0};
    write_text(&b, m, &f);
    mf_suite_file g;
    if (mf_suite_read(&g, m, "again.txt", b.data, b.len, MF_SUITE_TEXT) != 0)
        abort(); /* what mutfarm prints, it reads */
    if (g.n != f.n || strcmp(g.model_hash, f.model_hash) != 0)
        abort();
    for (int i = 0; i < f.n; i++)
        if (!same_test(f.v[i].t, g.v[i].t))
            abort(); /* and it is the same suite */
    mf_suite_file_free(&g);
    mf_suite_file_free(&f);
    mf_buf_free(&b);
    return 0;
}

static unsigned rnd(unsigned *st)
{
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fff;
}

/* A valid value of scalar type ty. */
static mf_val pick(const mf_type *ty, unsigned *st)
{
    switch (ty->kind) {
    case MF_TY_BOOL:
        return rnd(st) & 1;
    case MF_TY_RANGE:
        return ty->lo + (mf_val)(rnd(st) % (unsigned)(ty->hi - ty->lo + 1));
    case MF_TY_ENUM:
        return ty->vals[rnd(st) % (unsigned)ty->nvals];
    default:
        return 0;
    }
}

static const mf_var *st_var(const mf_model *m)
{
    for (int v = 0; v < m->nvars; v++)
        if (!strcmp(m->vars[v].name, "st"))
            return &m->vars[v];
    abort();
}

/* A suite of up to three random tests of the model, as text. */
static size_t make_input(uint8_t *out, size_t max, unsigned st)
{
    const mf_model *m = model();
    mf_suite_file f = {0};
    int ntests = 1 + (int)(rnd(&st) % 3), nobs = mf_model_nobs(m);
    f.v = calloc((size_t)ntests, sizeof *f.v);
    for (int i = 0; i < ntests; i++) {
        int len = (int)(rnd(&st) % 5);
        mf_test *t = mf_test_new(m->nslots, nobs, len);
        for (int k = 0; k <= len; k++) {
            for (int v = 0; v < m->nvars; v++)
                for (int q = 0; q < m->vars[v].nslots; q++)
                    t->inputs[(size_t)k * m->nslots + m->vars[v].slot + q] =
                        pick(mf_type_scalar(m->vars[v].type), &st);
            int o = 0;
            mf_val *row = t->expect + (size_t)k * nobs;
            for (int v = 0; v < m->nvars; v++)
                for (int q = 0;
                     m->vars[v].is_observable && q < m->vars[v].nslots; q++)
                    row[o++] = pick(mf_type_scalar(m->vars[v].type), &st);
            for (; o < nobs; o++) /* the DEFINE: one of st's symbols */
                row[o] = pick(mf_type_scalar(st_var(m)->type), &st);
        }
        f.v[f.n++].t = t;
    }
    mf_buf b = {0};
    write_text(&b, m, &f);
    size_t n = b.len < max ? b.len : max;
    memcpy(out, b.data, n);
    mf_buf_free(&b);
    for (int i = 0; i < f.n; i++)
        mf_test_free(f.v[i].t);
    free(f.v);
    return n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed)
{
    unsigned st = seed;
    if (rnd(&st) % 4 == 0 || size == 0) {
        size_t n = make_input(data, max_size, st);
        if (n)
            return n;
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
