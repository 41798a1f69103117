/* tae_check.c - one timed mutant decided (tae_check.h): the zone product
 * of the mutant against the original, a test for its shortest deviation
 * by Z3, the test replayed by the rational simulator; when there is no
 * deviation, the product the other way round tells subsumed from
 * equivalent. */
#include "tae_check.h"

#include <stdio.h>
#include <string.h>

#include "tae_witness.h"

int tae_check(tae_verdict *out, const tae_aut *o, const tae_aut *m,
              const tae_opts *opts)
{
    memset(out, 0, sizeof *out);
    tae_refine_res r = {0};
    int rc = tae_refine(&r, m, o, opts ? opts->max_states : 0);
    if (rc < 0)
        return rc;
    out->states = r.states;
    if (r.kind == TAE_R_UNKNOWN) {
        out->verdict = TAE_V_UNKNOWN;
        snprintf(out->why, sizeof out->why, "%s", r.why);
    } else if (r.kind == TAE_R_KILL) {
        out->verdict = TAE_V_UNKNOWN;
        rc = tae_witness(&out->test, o, m, &r, opts ? opts->timeout_ms : 0);
        if (rc < 0) {
            snprintf(out->why, sizeof out->why, "%s", mf_err_msg());
            rc = 0;
        } else {
            char w[200];
            if (tae_sim_confirm(o, m, &out->test, w, sizeof w)) {
                out->verdict = TAE_V_KILLED;
            } else {
                snprintf(out->why, sizeof out->why,
                         "a deviation the simulator does not confirm: %.140s",
                         w);
                tae_test_free(&out->test);
            }
        }
    } else {
        tae_refine_res back = {0};
        rc = tae_refine(&back, o, m, opts ? opts->max_states : 0);
        if (rc == 0) {
            out->states += back.states;
            out->verdict =
                back.kind == TAE_R_REFINES ? TAE_V_EQUIVALENT : TAE_V_SUBSUMED;
        }
        tae_refine_res_free(&back);
    }
    tae_refine_res_free(&r);
    return rc;
}

void tae_verdict_free(tae_verdict *v)
{
    if (v)
        tae_test_free(&v->test);
}

const char *tae_verdict_name(int v)
{
    switch (v) {
    case TAE_V_KILLED: return "killed";
    case TAE_V_SUBSUMED: return "subsumed";
    case TAE_V_EQUIVALENT: return "equivalent";
    default: return "unknown";
    }
}
