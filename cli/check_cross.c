/* check_cross.c - the cross-criterion table of `mutfarm check --criterion`
 * (docs/criteria.md, the paper's Table 2): for each criterion A (a row),
 * A's minimised suite, a greedy cover of A's feasible covered
 * requirements by A's own witnesses; each column B, the share of B's
 * feasible requirements that suite covers.
 *
 * A test covers a requirement when the kill matrix's claim (the nightly
 * rerun's replay, model/kill_replay.h: a potential kill counts) says it
 * kills the requirement's mutant. A test is its inputs: mutants' tests
 * are tests of the model, requirements' tests of the trap model, which has
 * the model's variables first, so that a test is carried from one to the
 * other by its input cells, its expected observables taken from the run
 * the replay finds (mf_kill_test_new). Tests with the same inputs are one.
 * It decides nothing with the solver. */
#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kill_replay.h"

typedef struct {
    const mf_test *t;    /* as found */
    int from_tm;         /* a test of the trap model (else of the model) */
    mf_kill_test *on[2]; /* made ready on the model, the trap model */
    int tried[2];
} xtest;

/* The test's inputs as a test of x (expected observables left to the
 * replay to fill in). */
static mf_test *carry(const mf_test *t, const mf_model *x)
{
    mf_test *c = mf_test_new(x->nslots, mf_model_nobs(x), t->length);
    int ns = t->nslots < x->nslots ? t->nslots : x->nslots;
    for (int k = 0; k <= t->length; k++)
        memcpy(c->inputs + (size_t)k * x->nslots,
               t->inputs + (size_t)k * t->nslots, sizeof(mf_val) * ns);
    return c;
}

static mf_kill_test *ready(xtest *x, int which, const mf_model *mdl)
{
    if (!x->tried[which]) {
        x->tried[which] = 1;
        /* a test of this model as found; another's carried over */
        mf_test *c = which == x->from_tm ? NULL : carry(x->t, mdl);
        int re = 0;
        if (mf_kill_test_new(&x->on[which], mdl, c ? c : x->t, &re) < 0)
            x->on[which] = NULL;
        mf_test_free(c);
    }
    return x->on[which];
}

static int covers(xtest *x, const mf_check_cross_row *row, int req,
                  const mf_model *m, const mf_model *tm)
{
    mf_kill_test *kt = ready(x, row->trap, row->trap ? tm : m);
    if (!kt)
        return 0;
    mf_test *out = NULL;
    mf_notion notion;
    int k = mf_kill_claim(kt, row->reqs[req], MF_KILL_POTENTIAL, &out,
                          &notion) == 1;
    mf_test_free(out);
    return k;
}

static int same_inputs(const mf_test *a, const mf_test *b, int ns)
{
    if (a->length != b->length)
        return 0;
    for (int k = 0; k <= a->length; k++)
        if (memcmp(a->inputs + (size_t)k * a->nslots,
                   b->inputs + (size_t)k * b->nslots, sizeof(mf_val) * ns))
            return 0;
    return 1;
}

void mf_check_cross(const mf_model *m, const mf_model *tm,
                    const mf_check_cross_row *rows, int nrows)
{
    MF_VEC(xtest) tests = {0};
    int ns = m->nslots; /* the input cells are among the model's */
    int **own = mf_xcalloc((size_t)nrows, sizeof *own);
    int *nown = mf_xcalloc((size_t)nrows, sizeof *nown);
    for (int a = 0; a < nrows; a++) {
        own[a] = mf_xcalloc((size_t)rows[a].nown + 1, sizeof **own);
        for (int i = 0; i < rows[a].nown; i++) {
            int t = -1;
            for (int j = 0; j < tests.n && t < 0; j++)
                if (same_inputs(tests.v[j].t, rows[a].own[i], ns))
                    t = j;
            if (t < 0) {
                xtest x;
                memset(&x, 0, sizeof x);
                x.t = rows[a].own[i];
                x.from_tm = rows[a].trap;
                MF_VEC_PUSH(tests, x);
                t = tests.n - 1;
            }
            int dup = 0;
            for (int k = 0; k < nown[a]; k++)
                dup |= own[a][k] == t;
            if (!dup)
                own[a][nown[a]++] = t;
        }
    }
    printf("# cross-criterion (docs/criteria.md): row A's suite, a greedy "
           "cover of A's covered\n# requirements by A's witnesses; column "
           "B: the share of B's feasible\n# requirements it covers\n");
    printf("# %-16s %6s", "suite of", "tests");
    for (int b = 0; b < nrows; b++)
        printf(" %16s", rows[b].name);
    printf("\n");
    for (int a = 0; a < nrows; a++) {
        const mf_check_cross_row *ra = &rows[a];
        /* what each own test covers of A's requirements */
        char *cov = mf_xcalloc((size_t)nown[a] * (size_t)ra->nreqs + 1, 1);
        char *need = mf_xcalloc((size_t)ra->nreqs + 1, 1);
        int left = 0;
        for (int q = 0; q < ra->nreqs; q++)
            for (int i = 0; i < nown[a]; i++)
                if ((cov[(size_t)i * ra->nreqs + q] =
                         (char)covers(&tests.v[own[a][i]], ra, q, m, tm))) {
                    if (!need[q])
                        left++;
                    need[q] = 1;
                }
        MF_VEC(int) suite = {0};
        while (left > 0) {
            int best = -1, bestn = 0;
            for (int i = 0; i < nown[a]; i++) {
                int c = 0;
                for (int q = 0; q < ra->nreqs; q++)
                    c += need[q] && cov[(size_t)i * ra->nreqs + q];
                if (c > bestn)
                    best = i, bestn = c;
            }
            if (best < 0)
                break;
            MF_VEC_PUSH(suite, own[a][best]);
            for (int q = 0; q < ra->nreqs; q++)
                if (need[q] && cov[(size_t)best * ra->nreqs + q]) {
                    need[q] = 0;
                    left--;
                }
        }
        printf("# %-16s %6d", ra->name, suite.n);
        for (int b = 0; b < nrows; b++) {
            int hit = 0;
            for (int q = 0; q < rows[b].nreqs; q++)
                for (int i = 0; i < suite.n; i++)
                    if (covers(&tests.v[suite.v[i]], &rows[b], q, m, tm)) {
                        hit++;
                        break;
                    }
            char cell[32];
            if (rows[b].nreqs)
                snprintf(cell, sizeof cell, "%.1f%% (%d/%d)",
                         100.0 * hit / rows[b].nreqs, hit, rows[b].nreqs);
            else
                snprintf(cell, sizeof cell, "n/a");
            printf(" %16s", cell);
        }
        printf("\n");
        MF_VEC_FREE(suite);
        free(cov);
        free(need);
    }
    for (int i = 0; i < tests.n; i++) {
        mf_kill_test_free(tests.v[i].on[0]);
        mf_kill_test_free(tests.v[i].on[1]);
    }
    MF_VEC_FREE(tests);
    for (int a = 0; a < nrows; a++)
        free(own[a]);
    free(own);
    free(nown);
}
