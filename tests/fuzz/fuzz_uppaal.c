/* fuzz_uppaal.c - libFuzzer target for the UPPAAL XML reader (ta/uppaal.c)
 * and, behind it, the declarations parser, the builder and flattening,
 * and the timed mutation operators.
 *
 * Any input either reads, or fails with one "fuzz.xml:..." line and no
 * network. A network that reads prints; its first mutants apply unless
 * stillborn, and a stillborn one does not; a mutant printed back as XML
 * reads again. Crashes, leaks, sanitizer reports and these checks failing
 * are the bugs this looks for. The seeds are the shared UPPAAL models. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const ta_net *n;
    int left;
} each;

static int mutant_fn(const ta_mutant *mu, void *v)
{
    each *e = v;
    ta_net *m = NULL;
    int rc = ta_mutant_apply(&m, e->n, mu);
    if ((mu->status == TA_MUT_STILLBORN) != (rc != 0))
        abort();
    if (rc == 0 && mu->status == TA_MUT_OK) {
        mf_buf out = {0};
        ta_net *r = NULL;
        ta_mutant_print(&out, e->n, mu);
        if (ta_read_uppaal(&r, "mutant.xml", out.data, out.len, NULL) != 0)
            abort();
        ta_net_free(r);
        mf_buf_free(&out);
    }
    ta_net_free(m);
    return --e->left <= 0; /* enough for one input */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ta_net *n = NULL;
    int rc = ta_read_uppaal(&n, "fuzz.xml", (const char *)data, size, NULL);
    if (rc != 0) {
        const char *msg = mf_err_msg();
        if (n || strncmp(msg, "fuzz.xml:", 9) != 0 || strchr(msg, '\n'))
            abort();
        return 0;
    }
    mf_buf b = {0};
    ta_net_print(&b, n);
    mf_buf_free(&b);
    each e = {n, 16};
    ta_mutants_each(n, 0, mutant_fn, &e);
    ta_net_free(n);
    return 0;
}
