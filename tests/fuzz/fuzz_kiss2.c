/* fuzz_kiss2.c - libFuzzer target for the KISS2 reader (kiss2/read.c) and,
 * behind it, the translation into the common model and the FSM operators.
 *
 * Any input either reads, or fails with a "fuzz.kiss2:LINE: error:"
 * message and no table. A table that reads prints as KISS2 that reads back
 * and prints the same; its translation loads as a model (a table the
 * reader accepts never makes SMV the loader refuses); every mutant of a
 * small table is one item replacement that type checks. Crashes, leaks,
 * sanitizer reports and these checks failing are the bugs this looks for.
 * The seeds are the shared KISS2 machines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiss2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const mf_model *m;
    const mf_kiss2 *k;
    int n;
} each;

static int mutant_fn(const mf_kiss2_mutant *mu, void *v)
{
    each *e = v;
    mf_arena *a = mf_arena_new();
    int item = -1;
    mf_item *it = NULL;
    if (mf_kiss2_mutant_item(&item, &it, a, e->m, e->k, mu) != 0 ||
        mf_model_check_item(e->m, it) != 0)
        abort();
    mf_buf p = {0};
    mf_kiss2_mutant_print(&p, e->k, mu);
    mf_buf_free(&p);
    mf_arena_free(a);
    return ++e->n >= 64; /* enough for one input */
}

static void check_table(const mf_kiss2 *k, const uint8_t *data, size_t size)
{
    mf_buf p1 = {0}, p2 = {0};
    mf_kiss2 *k2 = NULL;
    mf_kiss2_print(&p1, k);
    if (mf_kiss2_read(&k2, "print.kiss2", p1.data, p1.len, NULL, NULL) != 0)
        abort();
    mf_kiss2_print(&p2, k2);
    if (p1.len != p2.len || memcmp(p1.data, p2.data, p1.len) != 0)
        abort();
    mf_kiss2_free(k2);
    mf_buf_free(&p1);
    mf_buf_free(&p2);

    mf_model *m = NULL;
    mf_kiss2 *k3 = NULL;
    int rc = mf_kiss2_load(&m, &k3, "fuzz.kiss2", (const char *)data, size,
                           NULL);
    if (rc == MF_EUNSUPPORTED && k->no == 0)
        return;
    if (rc != 0)
        abort();
    each e = {m, k3, 0};
    mf_kiss2_mutants_each(k3, 0, mutant_fn, &e);
    mf_model_free(m); /* and its table k3 */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_kiss2 *k = NULL;
    int rc = mf_kiss2_read(&k, "fuzz.kiss2", (const char *)data, size, NULL,
                           NULL);
    if (rc == MF_OK) {
        if (!k)
            abort();
        /* Keep the translation small enough to load many times a second. */
        if (k->nrows <= 64 && k->nstates <= 64 && k->ni <= 32 && k->no <= 32)
            check_table(k, data, size);
        mf_kiss2_free(k);
        return 0;
    }
    if (k || (rc != MF_EPARSE && rc != MF_ELIMIT) ||
        strncmp(mf_err_msg(), "fuzz.kiss2:", 11) != 0)
        abort();
    return 0;
}
