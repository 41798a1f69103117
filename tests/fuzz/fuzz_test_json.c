/* fuzz_test_json.c - libFuzzer target for the store's reader of stored
 * tests (mf_store_test_read, coordinator/store/tests.c): the JSON columns
 * of a `tests` row, which a nightly rerun reads from a store written by
 * another version or for another model.
 *
 * Input: the first byte gives the test's length (low 4 bits) and whether
 * missing observables are allowed (bit 4); the rest is the inputs, the
 * expected and the allowed column, separated by newlines (the store never
 * writes one inside a column). Any input must either be refused with a
 * message and no test, or give a test whose rendering (what the store
 * would write) reads back and renders to the same text. Crashes, leaks,
 * sanitizer reports and broken round trips are the bugs this looks for.
 *
 * The seeds CTest gives every fuzzer are SMV models, far from a test, so
 * a custom mutator now and then replaces an input by a valid rendering of
 * a random test of the model below: libFuzzer's mutations then start
 * from real tests. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_cells.h"
#include "langs.h"
#include "store.h"
#include "store_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);

static mf_model *model(void)
{
    return fuzz_cells_model(NULL, 0);
}

/* Split data into the length byte and up to three NUL-terminated columns
 * (copies in *buf, caller frees); a missing one is NULL. */
static int split(const uint8_t *data, size_t size, char **buf, char *col[3],
                 int *len, int *partial)
{
    col[0] = col[1] = col[2] = NULL;
    if (size < 1)
        return -1;
    *len = data[0] & 0x0f;
    *partial = (data[0] & 0x10) != 0;
    *buf = malloc(size);
    memcpy(*buf, data + 1, size - 1);
    (*buf)[size - 1] = '\0';
    char *p = *buf;
    for (int i = 0; i < 3 && p; i++) {
        col[i] = p;
        p = strchr(p, '\n');
        if (p)
            *p++ = '\0';
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = NULL, *col[3];
    int len = 0, partial = 0, got = 0;
    if (split(data, size, &buf, col, &len, &partial) < 0)
        return 0;
    const mf_model *m = model();
    mf_test *t = NULL;
    /* The reports' reading (the raw forms too) refuses with a message, and
     * takes every test the rerun's takes. */
    mf_store_test_opts raw = {7, 1, NULL, NULL, NULL, 0};
    mf_test *r = NULL;
    int rrc = mf_store_test_parse(&r, m, len, col[0], col[1], col[2], &raw);
    if (rrc < 0 && (r || !mf_err_msg()[0]))
        abort();
    mf_test_free(r);
    int rc = mf_store_test_read(&t, m, len, col[0], col[1], col[2],
                                partial ? &got : NULL);
    if (rc == 0 && !got && rrc != 0)
        abort();
    if (rc < 0) {
        if (t || !mf_err_msg()[0])
            abort(); /* refused: no test, and a message */
        free(buf);
        return 0;
    }
    if (got) { /* observables missing: the test is not whole, not stored */
        mf_test_free(t);
        free(buf);
        return 0;
    }
    mf_store_test_rows a = {0}, b = {0};
    if (mf_store_test_render(&a, m, t))
        abort(); /* a test read for m renders for m */
    mf_test *again = NULL;
    if (mf_store_test_read(&again, m, len, a.inputs.data, a.expected.data,
                           a.has_allowed ? a.allowed.data : NULL, NULL) != 0)
        abort(); /* what the store writes, it reads */
    if (mf_store_test_render(&b, m, again) ||
        strcmp(a.inputs.data, b.inputs.data) ||
        strcmp(a.expected.data, b.expected.data) || strcmp(a.hash, b.hash))
        abort(); /* and it is the same test */
    mf_store_test_rows_free(&a);
    mf_store_test_rows_free(&b);
    mf_test_free(again);
    mf_test_free(t);
    free(buf);
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

/* A random test of the model: valid inputs, observables of the right
 * types (not a run: the reader does not simulate), allowed outputs
 * sometimes. Rendered as an input of this fuzzer. */
static size_t make_input(uint8_t *out, size_t max, unsigned st)
{
    const mf_model *m = model();
    int len = (int)(rnd(&st) % 6), nobs = mf_model_nobs(m);
    mf_test *t = mf_test_new(m->nslots, nobs, len);
    for (int k = 0; k <= len; k++) {
        for (int i = 0; i < m->nvars; i++) {
            const mf_var *v = &m->vars[i];
            for (int q = 0; q < v->nslots; q++) {
                mf_val x = pick(mf_type_scalar(v->type), &st);
                t->inputs[(size_t)k * m->nslots + v->slot + q] = x;
            }
        }
        int o = 0;
        mf_val *row = t->expect + (size_t)k * nobs;
        for (int i = 0; i < m->nvars; i++)
            for (int q = 0; m->vars[i].is_observable && q < m->vars[i].nslots;
                 q++)
                row[o++] = pick(mf_type_scalar(m->vars[i].type), &st);
        for (; o < nobs; o++) /* the DEFINE: a symbol or a number */
            row[o] = rnd(&st) & 1 ? MF_SYM(rnd(&st) % (unsigned)m->nsyms)
                                  : (mf_val)(rnd(&st) % 7) - 3;
        if (rnd(&st) % 3 == 0) {
            t->nallowed[k] = 2;
            t->allowed[k] = calloc((size_t)2 * nobs, sizeof(mf_val));
            memcpy(t->allowed[k], row, sizeof *row * (size_t)nobs);
            memcpy(t->allowed[k] + nobs, row, sizeof *row * (size_t)nobs);
        }
    }
    mf_store_test_rows r = {0};
    size_t n = 0;
    if (!mf_store_test_render(&r, m, t)) {
        mf_buf b = {0};
        mf_buf_printf(&b, "%c%s\n%s\n%s", (char)(len | (rnd(&st) & 0x10)),
                      r.inputs.data, r.expected.data,
                      r.has_allowed ? r.allowed.data : "null");
        n = b.len < max ? b.len : max;
        memcpy(out, b.data, n);
        mf_buf_free(&b);
    }
    mf_store_test_rows_free(&r);
    mf_test_free(t);
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
