/* check_winnow.c - semantic duplicates among the killed mutants of
 * `mutfarm check --criterion mutation` (docs/criteria.md, "Winnowing"):
 * two mutants are duplicates when every test kills both or neither, that
 * is when they are equivalent to each other. Candidates are the mutants
 * that every test of the check kills alike (the same notion's strength,
 * by the kill matrix's replay, model/kill_replay.h); the engine then
 * decides each candidate pair with one mutant as the original and the
 * other as its mutant (mf_engine_check_against): equivalent means
 * duplicates. It prints nothing. */
#include "check_int.h"

#include <stdlib.h>
#include <string.h>

#include "kill_replay.h"

typedef struct {
    char *sig; /* per test: '0' no kill, '1' potential, '2' stronger */
    int mut;
} sig_row;

static int cmp_row(const void *a, const void *b)
{
    const sig_row *x = a, *y = b;
    int c = strcmp(x->sig, y->sig);
    return c ? c : x->mut - y->mut;
}

/* Each killed mutant's row of the kill matrix over the kills' tests. */
static int signatures(const mf_model *m, const mf_engine_mutant *mu,
                      const mf_verdict *v, int n, sig_row **out, int *nout)
{
    mf_kill_orig *o = NULL;
    MF_VEC(const mf_test *) tests = {0};
    MF_VEC(sig_row) rows = {0};
    int rc = mf_kill_orig_new(&o, m);
    for (int j = 0; rc == 0 && j < n; j++)
        if (v[j].kind == MF_V_KILLED && mf_kill_test_check(o, v[j].test) == 0)
            MF_VEC_PUSH(tests, v[j].test);
    for (int j = 0; rc == 0 && j < n; j++) {
        if (v[j].kind != MF_V_KILLED || !mu[j].mutated)
            continue;
        mf_kill_mut km;
        mf_kill_mut_init(&km, m, mu[j].mutated);
        sig_row r = {mf_xmalloc((size_t)tests.n + 1), j};
        for (int t = 0; t < tests.n; t++) {
            mf_kill k;
            memset(&k, 0, sizeof k);
            int kr = mf_kill_replay(&k, o, tests.v[t], &km);
            /* past the replay limits: a mark of its own, so that such a
             * mutant is compared only with its likes */
            r.sig[t] = kr < 0 ? 'x'
                       : !k.killed ? '0'
                                   : (char)('0' + mf_kill_notion_rank(k.notion));
        }
        r.sig[tests.n] = '\0';
        mf_kill_mut_free(&km);
        MF_VEC_PUSH(rows, r);
    }
    mf_kill_orig_free(o);
    MF_VEC_FREE(tests);
    *out = rows.v;
    *nout = rows.n;
    return rc;
}

int mf_check_mutant_duplicates(const mf_model *m, const mf_engine_mutant *mu,
                               const mf_verdict *v, int n,
                               const mf_engine_opts *eo, int *dup_of)
{
    sig_row *rows = NULL;
    int nrows = 0, undecided = 0;
    for (int j = 0; j < n; j++)
        dup_of[j] = -1;
    if (signatures(m, mu, v, n, &rows, &nrows) < 0)
        return -1;
    if (nrows)
        qsort(rows, (size_t)nrows, sizeof *rows, cmp_row);
    /* In each group of equal rows, every mutant is compared with the
     * first one not shown to differ from the earlier ones: the group's
     * classes, one representative each. */
    MF_VEC(int) reps = {0};
    for (int i = 0; i < nrows; i++) {
        if (i == 0 || strcmp(rows[i].sig, rows[i - 1].sig) != 0)
            reps.n = 0;
        int placed = 0;
        for (int k = 0; k < reps.n && !placed; k++) {
            mf_verdict out;
            memset(&out, 0, sizeof out);
            int a = rows[reps.v[k]].mut, b = rows[i].mut;
            if (mf_engine_check_against(mu[a].mutated, mu[b].mutated, eo,
                                        &out) < 0 ||
                (out.kind != MF_V_KILLED && out.kind != MF_V_EQUIVALENT))
                undecided++;
            else if (out.kind == MF_V_EQUIVALENT) {
                dup_of[b] = a;
                placed = 1;
            }
            mf_verdict_clear(&out);
        }
        if (!placed)
            MF_VEC_PUSH(reps, i);
    }
    MF_VEC_FREE(reps);
    for (int i = 0; i < nrows; i++)
        free(rows[i].sig);
    free(rows);
    return undecided;
}
