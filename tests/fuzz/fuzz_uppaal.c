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

#include "fuzz_ta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int reread(const mf_buf *printed)
{
    ta_net *r = NULL;
    int rc = ta_read_uppaal(&r, "mutant.xml", printed->data, printed->len,
                            NULL);
    ta_net_free(r);
    return rc;
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
    fuzz_ta_each e = {n, 16, reread};
    ta_mutants_each(n, 0, fuzz_ta_mutant, &e);
    ta_net_free(n);
    return 0;
}
