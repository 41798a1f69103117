/* tae_check.c - one timed mutant decided (tae_check.h): the zone product
 * of the mutant against the original, a test for its shortest deviation
 * by Z3, the test replayed by the rational simulator; when there is no
 * deviation, the product the other way round tells subsumed from
 * equivalent. */
#include "tae_check.h"

#include <stdio.h>
#include <string.h>

#include "tae_witness.h"

typedef struct {
    const tae_aut *o, *m;
    const tae_opts *opts;
    tae_test test; /* the accepted deviation's */
    char why[200]; /* the last rejected one's reason */
} judging;

/* A deviation of the product is a kill when Z3 finds its delays and the
 * simulator confirms the test; paths through internal moves are not
 * tests. */
static int judge(void *ctx, const tae_refine_res *r)
{
    judging *J = ctx;
    char w[200];
    int inner = r->kill == TAE_K_TAU;
    for (int s = 0; s < r->nsteps; s++)
        inner |= J->o->edges[r->eo[s]].dir == TAE_TAU;
    if (inner) {
        snprintf(J->why, sizeof J->why,
                 "the deviations found involve internal moves");
        return 0;
    }
    tae_test t;
    if (tae_witness(&t, J->o, J->m, r, J->opts ? J->opts->timeout_ms : 0) <
        0) {
        snprintf(J->why, sizeof J->why, "%.190s", mf_err_msg());
        return 0;
    }
    if (!tae_sim_confirm(J->o, J->m, &t, w, sizeof w)) {
        snprintf(J->why, sizeof J->why,
                 "a deviation the simulator does not confirm: %.140s", w);
        tae_test_free(&t);
        return 0;
    }
    tae_test_free(&J->test);
    J->test = t;
    return 1;
}

int tae_check(tae_verdict *out, const tae_aut *o, const tae_aut *m,
              const tae_opts *opts)
{
    memset(out, 0, sizeof *out);
    judging J = {o, m, opts, {0}, ""};
    tae_refine_res r = {0};
    long max = opts ? opts->max_states : 0;
    int rc = tae_refine(&r, m, o, max, judge, &J);
    if (rc < 0)
        return rc;
    out->states = r.states;
    if (r.kind == TAE_R_UNKNOWN) {
        out->verdict = TAE_V_UNKNOWN;
        snprintf(out->why, sizeof out->why, "%.90s%s%.100s", r.why,
                 J.why[0] ? ": " : "", J.why);
    } else if (r.kind == TAE_R_KILL) {
        out->verdict = TAE_V_KILLED;
        out->test = J.test;
        J.test = (tae_test){0};
    } else {
        tae_refine_res back = {0};
        rc = tae_refine(&back, o, m, max, NULL, NULL);
        if (rc == 0) {
            out->states += back.states;
            out->verdict =
                back.kind == TAE_R_REFINES ? TAE_V_EQUIVALENT : TAE_V_SUBSUMED;
        }
        tae_refine_res_free(&back);
    }
    tae_test_free(&J.test);
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
