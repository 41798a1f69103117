/* minimize.c - a smallest suite from the full kill matrix (minimize.h,
 * docs/minimisation.md).
 *
 * The mutants to kill are those some test kills; each must be killed as
 * strongly as the strongest of its kills (rank 2: definite or
 * deterministic, else 1: potential), so a test "covers" a mutant when its
 * kill reaches that rank. A test is dropped when another covers all it
 * covers and its inputs are a prefix of the other's (as stored: the first
 * length + 1 states of its inputs JSON are the other's first ones):
 * duplicates (the same inputs; the lower id stays among equals) and
 * prefixes (the longer stays). The rest are covered greedily (most new
 * mutants, then the shorter, then the older test; tests the others make
 * redundant are removed, longest first), or exactly by Z3
 * (engine/cover.h), the greedy answer kept when Z3 runs out of
 * time. Memory: the matrix's kills (16 bytes each) and the tests' inputs
 * as stored. It does not fill the matrix. */
#include "minimize.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover.h"

typedef struct {
    int64_t id;
    int length;
    char *inputs;   /* as stored */
    int ninputs;    /* its length in bytes */
    int *cov;       /* mutants (dense) it covers, ascending */
    int ncov;
    int dropped;    /* 0 kept, 1 duplicate, 2 prefix */
} mtest;

typedef struct {
    mtest *t;
    int nt;
    int64_t *mrow; /* dense mutant -> mutants.id, ascending */
    int *need;     /* dense mutant -> rank to reach */
    int nm;
} problem;

static void problem_free(problem *p)
{
    for (int i = 0; i < p->nt; i++) {
        free(p->t[i].inputs);
        free(p->t[i].cov);
    }
    free(p->t);
    free(p->mrow);
    free(p->need);
    memset(p, 0, sizeof *p);
}

static int test_index(const problem *p, int64_t id)
{
    int lo = 0, hi = p->nt;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p->t[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nt && p->t[lo].id == id ? lo : -1;
}

static int mutant_index(const problem *p, int64_t row)
{
    int lo = 0, hi = p->nm;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p->mrow[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nm && p->mrow[lo] == row ? lo : -1;
}

static int load_tests(problem *p, mf_store *s, int64_t campaign)
{
    sqlite3_stmt *st = NULL;
    MF_VEC(mtest) v = {0};
    int rc;
    if (sqlite3_prepare_v2(mf_store_db(s),
                           "SELECT id, length, inputs FROM tests WHERE "
                           "campaign_id = ?1 ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK)
        return mf_matrix_db_fail(s, "reading the tests");
    sqlite3_bind_int64(st, 1, campaign);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *in = (const char *)sqlite3_column_text(st, 2);
        int n = sqlite3_column_bytes(st, 2);
        mtest t = {sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
                   NULL, n, NULL, 0, 0};
        if (!in || n < 2 || in[0] != '[' || in[n - 1] != ']' ||
            t.length < 0) {
            rc = mf_err_set(MF_EPARSE, "store %s: test %lld: malformed "
                            "inputs", mf_store_path(s), (long long)t.id);
            goto cleanup;
        }
        t.inputs = mf_xstrdup(in);
        MF_VEC_PUSH(v, t);
    }
    rc = rc == SQLITE_DONE ? 0 : mf_matrix_db_fail(s, "reading the tests");
cleanup:
    sqlite3_finalize(st);
    p->t = v.v;
    p->nt = v.n;
    return rc;
}

typedef struct {
    int t;
    int rank;
    int64_t mutant;
} krow;

static int krow_cmp(const void *a, const void *b)
{
    const krow *x = a, *y = b;
    if (x->mutant != y->mutant)
        return x->mutant < y->mutant ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int rank_of(const unsigned char *notion)
{
    for (int n = 0; notion && n < 3; n++)
        if (!strcmp((const char *)notion, mf_notion_name((mf_notion)n)))
            return mf_kill_notion_rank((mf_notion)n);
    return 1; /* no notion known: count it as the weakest kill */
}

/* The matrix's kills, the mutants to kill and what each test covers. */
static int load_kills(problem *p, mf_store *s, int64_t campaign)
{
    sqlite3_stmt *st = NULL;
    MF_VEC(krow) v = {0};
    int rc;
    if (sqlite3_prepare_v2(mf_store_db(s),
                           "SELECT test_id, mutant, notion FROM kills WHERE "
                           "campaign_id = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return mf_matrix_db_fail(s, "reading the kill matrix");
    sqlite3_bind_int64(st, 1, campaign);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int t = test_index(p, sqlite3_column_int64(st, 0));
        if (t < 0) {
            rc = mf_err_set(MF_EPARSE, "store %s: a kill names test %lld, "
                            "not one of the campaign's", mf_store_path(s),
                            (long long)sqlite3_column_int64(st, 0));
            goto cleanup;
        }
        krow k = {t, rank_of(sqlite3_column_text(st, 2)),
                  sqlite3_column_int64(st, 1)};
        MF_VEC_PUSH(v, k);
    }
    rc = rc == SQLITE_DONE ? 0
                           : mf_matrix_db_fail(s, "reading the kill matrix");
    if (rc < 0)
        goto cleanup;
    if (v.n)
        qsort(v.v, (size_t)v.n, sizeof *v.v, krow_cmp);
    p->mrow = mf_xcalloc((size_t)v.n + 1, sizeof *p->mrow);
    p->need = mf_xcalloc((size_t)v.n + 1, sizeof *p->need);
    for (int i = 0; i < v.n; i++) {
        if (!p->nm || p->mrow[p->nm - 1] != v.v[i].mutant)
            p->mrow[p->nm++] = v.v[i].mutant;
        if (v.v[i].rank > p->need[p->nm - 1])
            p->need[p->nm - 1] = v.v[i].rank;
    }
    /* Count, then fill each test's list. */
    int *fill = mf_xcalloc((size_t)p->nt + 1, sizeof *fill);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0, m = -1; i < v.n; i++) {
            if (i == 0 || v.v[i].mutant != v.v[i - 1].mutant)
                m++;
            if (v.v[i].rank < p->need[m])
                continue;
            mtest *t = &p->t[v.v[i].t];
            if (pass == 0)
                t->ncov++;
            else
                t->cov[fill[v.v[i].t]++] = m;
        }
        for (int i = 0; pass == 0 && i < p->nt; i++)
            p->t[i].cov = mf_xcalloc((size_t)p->t[i].ncov + 1, sizeof(int));
    }
    for (int i = 0; i < p->nt; i++)
        qsort(p->t[i].cov, (size_t)p->t[i].ncov, sizeof(int), int_cmp);
    free(fill);
cleanup:
    sqlite3_finalize(st);
    MF_VEC_FREE(v);
    return rc;
}

/* ---- duplicates and prefixes --------------------------------------------- */

/* 1 if a's list is a subset of b's (both ascending). */
static int subset(const mtest *a, const mtest *b)
{
    int j = 0;
    for (int i = 0; i < a->ncov; i++) {
        while (j < b->ncov && b->cov[j] < a->cov[i])
            j++;
        if (j == b->ncov || b->cov[j] != a->cov[i])
            return 0;
    }
    return 1;
}

/* 1 if a is dominated by b with equal inputs: it covers no more, and if
 * it covers as much, b is the older test. */
static int dup_dominated(const mtest *a, const mtest *b)
{
    if (!subset(a, b))
        return 0;
    return a->ncov < b->ncov || b->id < a->id;
}

static _Thread_local const problem *sort_pb;

static int inputs_cmp(const void *x, const void *y)
{
    const mtest *a = &sort_pb->t[*(const int *)x];
    const mtest *b = &sort_pb->t[*(const int *)y];
    /* Without the closing bracket, so that a prefix sorts before its
     * extensions (',' sorts before ']'). */
    int na = a->ninputs - 1, nb = b->ninputs - 1;
    int c = memcmp(a->inputs, b->inputs, (size_t)(na < nb ? na : nb));
    if (!c)
        c = (na > nb) - (na < nb);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* Mark dropped tests. In the order of their inputs text without the
 * closing bracket, the tests whose inputs extend a's (a's text without it,
 * then ',' or ']') follow a. */
static void drop_dominated(problem *p, mf_minimize_result *out)
{
    int *ord = mf_xcalloc((size_t)p->nt + 1, sizeof *ord);
    for (int i = 0; i < p->nt; i++)
        ord[i] = i;
    sort_pb = p;
    qsort(ord, (size_t)p->nt, sizeof *ord, inputs_cmp);
    for (int i = 0; i < p->nt; i++) {
        mtest *a = &p->t[ord[i]];
        size_t plen = (size_t)a->ninputs - 1;
        for (int j = i + 1; j < p->nt; j++) {
            mtest *b = &p->t[ord[j]];
            if (strncmp(b->inputs, a->inputs, plen))
                break;
            char nextc = b->inputs[plen];
            if (nextc == ']' && b->inputs[plen + 1] == '\0') {
                /* the same inputs: either may be the duplicate */
                if (!a->dropped && dup_dominated(a, b))
                    a->dropped = 1;
                if (!b->dropped && dup_dominated(b, a))
                    b->dropped = 1;
            } else if (nextc == ',' && !a->dropped && subset(a, b))
                a->dropped = 2;
        }
    }
    for (int i = 0; i < p->nt; i++) {
        if (p->t[i].dropped == 1)
            out->duplicates++;
        else if (p->t[i].dropped == 2)
            out->prefixes++;
        else {
            out->kept++;
            out->kept_length += p->t[i].length;
        }
    }
    free(ord);
}

/* ---- covering ------------------------------------------------------------ */

/* The kept tests, numbered 0..n, and per mutant the kept tests covering
 * it (CSR): the set cover problem. */
typedef struct {
    int n;
    int *test;  /* kept index -> p->t index */
    int *cost;  /* lengths */
    int *start; /* p->nm + 1 */
    int *by;
} cover;

static void cover_build(cover *cv, const problem *p)
{
    memset(cv, 0, sizeof *cv);
    cv->test = mf_xcalloc((size_t)p->nt + 1, sizeof *cv->test);
    cv->cost = mf_xcalloc((size_t)p->nt + 1, sizeof *cv->cost);
    cv->start = mf_xcalloc((size_t)p->nm + 2, sizeof *cv->start);
    int total = 0;
    for (int i = 0; i < p->nt; i++)
        if (!p->t[i].dropped) {
            cv->test[cv->n] = i;
            cv->cost[cv->n++] = p->t[i].length;
            total += p->t[i].ncov;
            for (int q = 0; q < p->t[i].ncov; q++)
                cv->start[p->t[i].cov[q] + 1]++;
        }
    for (int m = 0; m < p->nm; m++)
        cv->start[m + 1] += cv->start[m];
    cv->by = mf_xcalloc((size_t)total + 1, sizeof *cv->by);
    int *fill = mf_xcalloc((size_t)p->nm + 1, sizeof *fill);
    for (int k = 0; k < cv->n; k++) {
        const mtest *t = &p->t[cv->test[k]];
        for (int q = 0; q < t->ncov; q++) {
            int m = t->cov[q];
            cv->by[cv->start[m] + fill[m]++] = k;
        }
    }
    free(fill);
}

static void cover_free(cover *cv)
{
    free(cv->test);
    free(cv->cost);
    free(cv->start);
    free(cv->by);
}

/* Greedy: chosen[k] for kept test k. */
static void greedy(int *chosen, const cover *cv, const problem *p)
{
    int *gain = mf_xcalloc((size_t)cv->n + 1, sizeof *gain);
    int *count = mf_xcalloc((size_t)p->nm + 1, sizeof *count);
    for (int k = 0; k < cv->n; k++) {
        chosen[k] = 0;
        gain[k] = p->t[cv->test[k]].ncov;
    }
    for (;;) {
        int best = -1;
        for (int k = 0; k < cv->n; k++) {
            if (chosen[k] || gain[k] <= 0)
                continue;
            if (best < 0 || gain[k] > gain[best] ||
                (gain[k] == gain[best] && cv->cost[k] < cv->cost[best]))
                best = k; /* ties: the older test (lower k) */
        }
        if (best < 0)
            break;
        chosen[best] = 1;
        const mtest *t = &p->t[cv->test[best]];
        for (int q = 0; q < t->ncov; q++) {
            int m = t->cov[q];
            if (count[m]++)
                continue;
            for (int r = cv->start[m]; r < cv->start[m + 1]; r++)
                gain[cv->by[r]]--;
        }
    }
    /* Drop tests the others make redundant, longest (then newest) first. */
    for (;;) {
        int worst = -1;
        for (int k = 0; k < cv->n; k++) {
            if (!chosen[k])
                continue;
            const mtest *t = &p->t[cv->test[k]];
            int redundant = 1;
            for (int q = 0; q < t->ncov && redundant; q++)
                redundant = count[t->cov[q]] > 1;
            if (redundant && (worst < 0 || cv->cost[k] >= cv->cost[worst]))
                worst = k;
        }
        if (worst < 0)
            break;
        chosen[worst] = 0;
        const mtest *t = &p->t[cv->test[worst]];
        for (int q = 0; q < t->ncov; q++)
            count[t->cov[q]]--;
    }
    free(gain);
    free(count);
}

static void totals(const int *chosen, const cover *cv, int64_t *n,
                   int64_t *len)
{
    *n = *len = 0;
    for (int k = 0; k < cv->n; k++)
        if (chosen[k]) {
            (*n)++;
            *len += cv->cost[k];
        }
}

/* ---- the check: the chosen tests replayed -------------------------------- */

typedef struct {
    const problem *p;
    int64_t checked, missing, extra;
    char first[200];
} check_ctx;

static int check_fn(int64_t row, const char *mid, int rank, void *ctx)
{
    check_ctx *k = ctx;
    int m = mutant_index(k->p, row);
    int need = m >= 0 ? k->p->need[m] : 0;
    if (rank < 0)
        rank = 0;
    if (need && rank >= need)
        k->checked++;
    if (rank < need) {
        k->missing++;
        if (!k->first[0])
            snprintf(k->first, sizeof k->first, "mutant %s: the whole suite "
                     "kills it %s, the chosen tests %s", mid,
                     need == 2 ? "definitely" : "potentially",
                     rank ? "only potentially" : "not at all");
    } else if (rank > need) {
        k->extra++;
        if (!k->first[0])
            snprintf(k->first, sizeof k->first, "mutant %s: the chosen "
                     "tests kill it %s, the kill matrix says less", mid,
                     rank == 2 ? "definitely" : "potentially");
    }
    return 0;
}

/* ---- storing ------------------------------------------------------------- */

typedef struct {
    int64_t id;
    int ncov;
} pick;

static int pick_cmp(const void *a, const void *b)
{
    const pick *x = a, *y = b;
    if (x->ncov != y->ncov)
        return x->ncov > y->ncov ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int store_suite(mf_store *s, int64_t campaign, const pick *picks,
                       int n, mf_minimize_result *r)
{
    sqlite3 *db = mf_store_db(s);
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return mf_matrix_db_fail(s, "starting a transaction");
#define STEP_OR_FAIL(what)                                                     \
    do {                                                                       \
        int step_ = sqlite3_step(st);                                          \
        if (step_ != SQLITE_DONE && step_ != SQLITE_ROW) {                     \
            rc = mf_matrix_db_fail(s, what);                                   \
            goto cleanup;                                                      \
        }                                                                      \
    } while (0)
    if (sqlite3_prepare_v2(db,
                           "SELECT id FROM suites WHERE campaign_id = ?1 AND "
                           "name = ?2", -1, &st, NULL) != SQLITE_OK) {
        rc = mf_matrix_db_fail(s, "reading the suites");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, campaign);
    sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
    int64_t old = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0)
                                                 : 0;
    sqlite3_finalize(st);
    st = NULL;
    if (old) {
        char sql[160];
        snprintf(sql, sizeof sql, "DELETE FROM suite_tests WHERE suite_id = "
                 "%lld; DELETE FROM suites WHERE id = %lld",
                 (long long)old, (long long)old);
        if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
            rc = mf_matrix_db_fail(s, "replacing the suite");
            goto cleanup;
        }
        r->replaced = 1;
    }
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO suites(campaign_id, name, method, "
                           "optimal, tests, length, mutants, full_tests, "
                           "full_length, note, created_at) VALUES (?1, ?2, "
                           "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_matrix_db_fail(s, "storing the suite");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, campaign);
    sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, r->exact ? "exact" : "greedy", -1,
                      SQLITE_STATIC);
    sqlite3_bind_int(st, 4, r->optimal);
    sqlite3_bind_int64(st, 5, r->chosen);
    sqlite3_bind_int64(st, 6, r->chosen_length);
    sqlite3_bind_int64(st, 7, r->mutants);
    sqlite3_bind_int64(st, 8, r->tests);
    sqlite3_bind_int64(st, 9, r->length);
    if (r->note[0])
        sqlite3_bind_text(st, 10, r->note, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 11, mf_store_now_ms());
    STEP_OR_FAIL("storing the suite");
    int64_t suite = sqlite3_last_insert_rowid(db);
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO suite_tests(suite_id, test_id, "
                           "position) VALUES (?1, ?2, ?3)",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_matrix_db_fail(s, "storing the suite");
        goto cleanup;
    }
    for (int i = 0; i < n; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, suite);
        sqlite3_bind_int64(st, 2, picks[i].id);
        sqlite3_bind_int(st, 3, i + 1);
        STEP_OR_FAIL("storing the suite's tests");
    }
#undef STEP_OR_FAIL
cleanup:
    sqlite3_finalize(st);
    if (rc == 0 && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = mf_matrix_db_fail(s, "committing the suite");
    if (rc < 0)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* ---- the whole ----------------------------------------------------------- */

static int name_ok(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len > 100)
        return 0;
    for (; *n; n++)
        if ((unsigned char)*n < 0x20 || *n == 0x7f)
            return 0;
    return 1;
}

int mf_minimize(mf_store *s, const mf_matrix_campaign *c,
                const mf_minimize_opts *o, mf_minimize_result *out)
{
    problem p = {0};
    cover cv = {0};
    int *chosen = NULL, *g = NULL;
    pick *picks = NULL;
    int64_t *ids = NULL;
    double t0 = mf_matrix_now_s();
    int rc;

    memset(out, 0, sizeof *out);
    const char *name = o->name ? o->name
                               : o->exact ? "minimal-exact" : "minimal";
    if (!name_ok(name))
        return mf_err_set(MF_EPARSE, "a suite name is 1 to 100 printable "
                          "characters, not '%.40s'", name);
    snprintf(out->name, sizeof out->name, "%s", name);
    rc = mf_matrix_is_full(s, c->id);
    if (rc < 0)
        return rc;
    if (!rc)
        return mf_err_set(MF_ERROR, "the kill matrix of campaign %lld is "
                          "not full: run 'mutfarm matrix' first",
                          (long long)c->id);
    if ((rc = load_tests(&p, s, c->id)) < 0 ||
        (rc = load_kills(&p, s, c->id)) < 0)
        goto cleanup;
    for (int i = 0; i < p.nt; i++) {
        out->tests++;
        out->length += p.t[i].length;
    }
    out->mutants = p.nm;
    for (int m = 0; m < p.nm; m++)
        out->strong += p.need[m] == 2;
    drop_dominated(&p, out);
    cover_build(&cv, &p);
    chosen = mf_xcalloc((size_t)cv.n + 1, sizeof *chosen);
    g = mf_xcalloc((size_t)cv.n + 1, sizeof *g);
    greedy(g, &cv, &p);
    totals(g, &cv, &out->greedy, &out->greedy_length);
    memcpy(chosen, g, sizeof *chosen * (size_t)cv.n);
    if (o->exact) {
        mf_cover_problem cp = {cv.n, cv.cost, p.nm, cv.start, cv.by};
        int optimal = 0;
        double te = mf_matrix_now_s();
        rc = mf_cover_exact(chosen, &optimal, &cp, o->timeout_ms);
        out->exact_secs = mf_matrix_now_s() - te;
        if (rc == 0) {
            out->exact = 1;
            out->optimal = optimal;
        } else if (rc == MF_ELIMIT) {
            out->fell_back = 1;
            snprintf(out->note, sizeof out->note, "exact gave up after "
                     "%.1f s (%s): the greedy cover is kept",
                     out->exact_secs, mf_err_msg());
            memcpy(chosen, g, sizeof *chosen * (size_t)cv.n);
            rc = 0;
        } else
            goto cleanup;
    }
    totals(chosen, &cv, &out->chosen, &out->chosen_length);

    /* Check by replaying: exactly the mutants the matrix says, as
     * strongly (more only where the matrix has undecided pairs). */
    picks = mf_xcalloc((size_t)out->chosen + 1, sizeof *picks);
    ids = mf_xcalloc((size_t)out->chosen + 1, sizeof *ids);
    int np = 0;
    for (int k = 0; k < cv.n; k++)
        if (chosen[k]) {
            const mtest *t = &p.t[cv.test[k]];
            picks[np++] = (pick){t->id, t->ncov};
        }
    qsort(picks, (size_t)np, sizeof *picks, pick_cmp);
    for (int i = 0; i < np; i++)
        ids[i] = picks[i].id;
    check_ctx ck = {&p, 0, 0, 0, ""};
    if ((rc = mf_matrix_suite_ranks(s, c, ids, np, check_fn, &ck)) < 0)
        goto cleanup;
    out->checked = ck.checked;
    int64_t undecided = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(mf_store_db(s),
                           "SELECT undecided FROM matrices WHERE "
                           "campaign_id = ?1", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, c->id);
        if (sqlite3_step(st) == SQLITE_ROW)
            undecided = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (ck.missing || (ck.extra && !undecided)) {
        rc = mf_err_set(MF_ERROR, "the chosen tests, replayed, do not kill "
                        "what the kill matrix says (%lld fewer, %lld more); "
                        "nothing stored. %s", (long long)ck.missing,
                        (long long)ck.extra, ck.first);
        goto cleanup;
    }
    rc = store_suite(s, c->id, picks, np, out);
cleanup:
    out->secs = mf_matrix_now_s() - t0;
    free(chosen);
    free(g);
    free(picks);
    free(ids);
    cover_free(&cv);
    problem_free(&p);
    return rc;
}
