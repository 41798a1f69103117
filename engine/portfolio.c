/* portfolio.c - the choice of method per batch (portfolio.h,
 * docs/killing.md "Portfolio"). Deterministic mutants go to the BDD
 * engine first, under a budget measured as it runs: the original's
 * transition relation must build within a node and work budget (wide data
 * fails it at once: a value map per read of a wide cell), and each mutant
 * gets a fraction of its wall budget; what the BDDs leave goes to the
 * solver's searches, which are strong where the BDDs are weak (wide data,
 * short kills), and the non-deterministic mutants to the explorer and the
 * refinement as before. A forced method decides alone. It decides no
 * verdict itself but the forced methods' unknowns. */
#include "portfolio.h"

#include <stdlib.h>
#include <string.h>

#include "bdd_engine.h"
#include "explicit.h"

/* Auto: past this many nodes in the original's transition relation, each
 * mutant's relation and images cost more than the solver's searches (dme1:
 * 161616 nodes, seconds a mutant where the solver takes 0.3 s). */
#define AUTO_TREL 40000

static _Atomic long bdd_decided, bdd_left;

long mf_engine_bdd_decided(void)
{
    return bdd_decided;
}

long mf_engine_bdd_left(void)
{
    return bdd_left;
}

/* The BDD engine on the deterministic mutants; forced: what it leaves is
 * unknown. */
static int run_bdd(mf_batch *B, const int *det, int *search, int forced)
{
    int n = B->nmut;
    int *which = mf_xcalloc((size_t)(n ? n : 1), sizeof *which);
    for (int j = 0; j < n; j++)
        which[j] = B->mu[j].todo; /* bdd.c sees which are deterministic */
    /* Auto: a quarter of the solver's timeout a mutant, the race's stake;
     * forced: the mutant's whole budget. */
    double secs = forced ? (B->o->mutant_ms ? B->o->mutant_ms
                                            : B->o->timeout_ms * 3.0) /
                               1000.0
                         : B->o->timeout_ms / 4000.0;
    mf_bdd_stats st;
    mf_bdd_run(B, which, secs, forced ? 0 : AUTO_TREL, &st);
    bdd_decided += st.killed + st.proved + st.bounded;
    bdd_left += st.left;
    for (int j = 0; j < n; j++)
        if (det[j] && !which[j])
            search[j] = 0;
    free(which);
    /* The explorer's product for a deterministic original has a node per
     * reachable original state at least, and a mutant's changes add more:
     * from half its limit on it is expected past it, and would explore
     * to the limit for nothing, a mutant at a time (the SCR-style
     * controller: 11116 states, 7 s to the limit of 20000 per mutant). */
    if (st.reach * 2 > (double)B->o->explicit_max && B->o->explicit_max > 0) {
        B->xbig = 1;
        for (int j = 0; j < n; j++)
            if (B->mu[j].todo)
                B->mu[j].xdone = 1;
    }
    if (!forced)
        return 0;
    for (int j = 0; j < n; j++) {
        if (!B->mu[j].todo || (det[j] && !search[j]))
            continue;
        mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s",
                        !B->meta    ? "BDDs: mutants of one item only"
                        : st.why[0] ? st.why
                        : !det[j]   ? "BDDs: a non-deterministic pair "
                                      "they cannot search exactly"
                                    : "BDDs: past the budget");
    }
    return 1;
}

/* The explorer alone: its proofs and its shortest kills, the rest
 * unknown. */
static int run_explicit(mf_batch *B)
{
    for (int j = 0; j < B->nmut; j++) {
        if (!B->mu[j].todo)
            continue;
        int x = mf_explicit_proof(B, j);
        if (B->mu[j].v->kind == MF_V_KILLED &&
            B->mu[j].v->notion == MF_N_POTENTIAL &&
            B->o->notion == MF_REQ_AUTO)
            mf_explicit_no_definite(B, j);
        /* --notion definite: a potential kill (left undecided by the
         * proof) is decided by the definite exploration alone: a
         * definite kill, or no definite kill up to the bound. */
        if (B->mu[j].todo && B->o->notion == MF_REQ_DEFINITE &&
            B->mu[j].xlen >= 0 && mf_explicit_no_definite(B, j) &&
            B->mu[j].todo) {
            char why[sizeof B->mu[j].v->method];
            snprintf(why, sizeof why, "%s", B->mu[j].v->method);
            mf_batch_settle(B, j, MF_V_SURVIVED, 0, NULL, "%s", why);
        }
        if (B->mu[j].todo)
            mf_batch_settle(B, j, MF_V_UNKNOWN, 0, NULL, "%s",
                            x < 0 ? "explicit-state exploration: past its "
                                    "limit (--explicit-max)"
                                  : "explicit-state exploration: no test");
    }
    return 1;
}

int mf_portfolio_first(mf_batch *B, const int *det, int *search)
{
    switch (B->o->method) {
    case MF_METHOD_SMT:
        return 0;
    case MF_METHOD_EXPLICIT:
        return run_explicit(B);
    case MF_METHOD_BDD:
        return run_bdd(B, det, search, 1);
    default:
        /* The quantified engine is kept to compare against as it was. */
        if (B->o->engine != MF_ENGINE_CEGIS || !B->meta)
            return 0;
        return run_bdd(B, det, search, 0);
    }
}
