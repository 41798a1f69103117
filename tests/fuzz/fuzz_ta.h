/* fuzz_ta.h - what the two timed-automata fuzzers (fuzz_uppaal.c,
 * fuzz_ecdar.c) check of a network that reads: its first mutants apply
 * unless stillborn, a stillborn one does not, and an OK one printed back
 * in its format reads again (reread: the format's reader). */
#ifndef MF_FUZZ_TA_H
#define MF_FUZZ_TA_H

#include <stdlib.h>

#include "ta.h"

typedef int (*fuzz_reread_fn)(const mf_buf *printed);

typedef struct {
    const ta_net *n;
    int left;
    fuzz_reread_fn reread;
} fuzz_ta_each;

static int fuzz_ta_mutant(const ta_mutant *mu, void *v)
{
    fuzz_ta_each *e = v;
    ta_net *m = NULL;
    int rc = ta_mutant_apply(&m, e->n, mu);
    if ((mu->status == TA_MUT_STILLBORN) != (rc != 0))
        abort();
    if (rc == 0 && mu->status == TA_MUT_OK) {
        mf_buf out = {0};
        ta_mutant_print(&out, e->n, mu);
        if (e->reread(&out) != 0)
            abort();
        mf_buf_free(&out);
    }
    ta_net_free(m);
    return --e->left <= 0; /* enough for one input */
}

#endif
