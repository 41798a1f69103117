/* dominators.c - dominator mutants from the kill matrix (dominators.h).
 *
 * The kill sets are read as sorted lists of dense test indices, one flat
 * array for every mutant. Sorting the killed mutants by (size, list)
 * makes each class a run of equal lists and puts every class after the
 * classes that could be proper subsets of it (smaller ones). A class is
 * then a dominator unless a dominator found before it is a subset of it:
 * if any class is a proper subset, so is some dominator (a smallest
 * subset class is one), and it came earlier. Dominators are indexed by
 * their first test, so a class is compared only with the dominators whose
 * first test it holds. Memory: the matrix's kills (4 bytes each) and a
 * few words per mutant. */
#include "dominators.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf.h"

typedef MF_VEC(int) int_vec;

typedef struct {
    int64_t *tests;   /* the campaign's test ids, ascending */
    int ntests;
    int64_t *rows;    /* the mutants' rows, ascending (as d->mutants) */
    int *kill;        /* every kill set, concatenated */
    int *off, *len;   /* mutant -> its kill set in kill */
} sets;

static int sql_fail(sqlite3 *db, const char *what)
{
    return mf_err_set(MF_ERROR, "store: %s: %s", what, sqlite3_errmsg(db));
}

/* The index of id in the ascending v[0..n), or -1. */
static int find_id(const int64_t *v, int n, int64_t id)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == id ? lo : -1;
}

static int op_index(mf_dominators *d, const char *name)
{
    for (int i = 0; i < d->nops; i++)
        if (strcmp(d->ops[i].name, name) == 0)
            return i;
    d->ops = mf_xrealloc(d->ops, (size_t)(d->nops + 1) * sizeof *d->ops);
    memset(&d->ops[d->nops], 0, sizeof *d->ops);
    d->ops[d->nops].name = mf_xstrdup(name);
    return d->nops++;
}

static int cmp_op(const void *a, const void *b)
{
    return strcmp(((const mf_dominators_op *)a)->name,
                  ((const mf_dominators_op *)b)->name);
}

/* The mutants, their operators (renumbered in name order) and the
 * campaign's tests. */
static int load_mutants(mf_dominators *d, sets *s, sqlite3 *db,
                        int64_t campaign)
{
    sqlite3_stmt *st = NULL;
    MF_VEC(mf_dominators_mutant) mv = {0};
    MF_VEC(int64_t) tv = {0};
    int rc = 0, r;
    if (sqlite3_prepare_v2(db,
                           "SELECT m.id, m.mutant_id, m.operator, v.kind"
                           "  FROM mutants m JOIN verdicts v ON v.mutant = m.id"
                           " WHERE m.campaign_id = ?1"
                           "   AND v.kind IN ('killed', 'survived', 'unknown',"
                           "                  'equivalent')"
                           " ORDER BY m.id",
                           -1, &st, NULL) != SQLITE_OK)
        return sql_fail(db, "reading the mutants");
    sqlite3_bind_int64(st, 1, campaign);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *kind = (const char *)sqlite3_column_text(st, 3);
        if (kind && strcmp(kind, "equivalent") == 0) {
            d->equivalent++;
            continue;
        }
        mf_dominators_mutant mu;
        memset(&mu, 0, sizeof mu);
        mu.row = sqlite3_column_int64(st, 0);
        const char *id = (const char *)sqlite3_column_text(st, 1);
        const char *op = (const char *)sqlite3_column_text(st, 2);
        snprintf(mu.id, sizeof mu.id, "%s", id ? id : "?");
        mu.op = op_index(d, op ? op : "?");
        mu.cls = -1;
        MF_VEC_PUSH(mv, mu);
    }
    sqlite3_finalize(st);
    st = NULL;
    d->mutants = mv.v;
    d->nmutants = mv.n;
    s->rows = mf_xcalloc((size_t)mv.n + 1, sizeof *s->rows);
    for (int i = 0; i < mv.n; i++)
        s->rows[i] = mv.v[i].row;
    if (r != SQLITE_DONE)
        return sql_fail(db, "reading the mutants");
    /* Operators in name order. */
    int *perm = mf_xcalloc((size_t)d->nops + 1, sizeof *perm);
    for (int i = 0; i < d->nops; i++)
        d->ops[i].killed = i; /* the old index, for a moment */
    qsort(d->ops, (size_t)d->nops, sizeof *d->ops, cmp_op);
    for (int i = 0; i < d->nops; i++) {
        perm[d->ops[i].killed] = i;
        d->ops[i].killed = 0;
    }
    for (int i = 0; i < d->nmutants; i++)
        d->mutants[i].op = perm[d->mutants[i].op];
    free(perm);

    if (sqlite3_prepare_v2(db,
                           "SELECT id FROM tests WHERE campaign_id = ?1"
                           " ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK)
        return sql_fail(db, "reading the tests");
    sqlite3_bind_int64(st, 1, campaign);
    while ((r = sqlite3_step(st)) == SQLITE_ROW)
        MF_VEC_PUSH(tv, sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);
    s->tests = tv.v;
    s->ntests = tv.n;
    d->tests = tv.n;
    if (r != SQLITE_DONE)
        rc = sql_fail(db, "reading the tests");
    return rc;
}

/* Every mutant's kill set, sorted, from the kills table. */
static int load_kills(mf_dominators *d, sets *s, sqlite3 *db,
                      int64_t campaign)
{
    sqlite3_stmt *st = NULL;
    int_vec kv = {0};
    int r, cur = -1;
    s->off = mf_xcalloc((size_t)d->nmutants + 1, sizeof *s->off);
    s->len = mf_xcalloc((size_t)d->nmutants + 1, sizeof *s->len);
    if (sqlite3_prepare_v2(db,
                           "SELECT mutant, test_id FROM kills"
                           " WHERE campaign_id = ?1"
                           " ORDER BY mutant, test_id",
                           -1, &st, NULL) != SQLITE_OK)
        return sql_fail(db, "reading the kill matrix");
    sqlite3_bind_int64(st, 1, campaign);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        int m = find_id(s->rows, d->nmutants, sqlite3_column_int64(st, 0));
        int t = find_id(s->tests, s->ntests, sqlite3_column_int64(st, 1));
        if (m < 0 || t < 0)
            continue; /* not a mutant or test of the matrix */
        if (m != cur) {
            s->off[m] = kv.n;
            cur = m;
        }
        MF_VEC_PUSH(kv, t);
        s->len[m]++;
    }
    sqlite3_finalize(st);
    s->kill = kv.v;
    if (r != SQLITE_DONE)
        return sql_fail(db, "reading the kill matrix");
    return 0;
}

static int matrix_full(sqlite3 *db, int64_t campaign, int *full)
{
    sqlite3_stmt *st = NULL;
    *full = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT state = 'full' FROM matrices"
                           " WHERE campaign_id = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return sql_fail(db, "reading the kill matrix's state");
    sqlite3_bind_int64(st, 1, campaign);
    int r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        *full = sqlite3_column_int(st, 0) == 1;
    sqlite3_finalize(st);
    return r == SQLITE_ROW || r == SQLITE_DONE
               ? 0
               : sql_fail(db, "reading the kill matrix's state");
}

/* qsort has no context argument: the sets being sorted. */
static const sets *sort_sets;

static int cmp_set(const sets *s, int a, int b)
{
    if (s->len[a] != s->len[b])
        return s->len[a] < s->len[b] ? -1 : 1;
    return memcmp(s->kill + s->off[a], s->kill + s->off[b],
                  (size_t)s->len[a] * sizeof *s->kill);
}

static int cmp_mutant(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    int c = cmp_set(sort_sets, a, b);
    return c ? c : a - b;
}

/* 1 if the sorted list a[0..na) is a subset of b[0..nb). */
static int subset(const int *a, int na, const int *b, int nb)
{
    int j = 0;
    for (int i = 0; i < na; i++) {
        while (j < nb && b[j] < a[i])
            j++;
        if (j == nb || b[j] != a[i])
            return 0;
        j++;
    }
    return 1;
}

static int cmp_class(const void *x, const void *y)
{
    const mf_dominators_class *a = x, *b = y;
    if (a->dominator != b->dominator)
        return b->dominator - a->dominator;
    if (a->size != b->size)
        return a->size - b->size;
    return a->first - b->first;
}

/* The classes, the dominators among them and the counts. */
static void classify(mf_dominators *d, const sets *s)
{
    int *order = mf_xcalloc((size_t)d->nmutants + 1, sizeof *order);
    int n = 0;
    for (int i = 0; i < d->nmutants; i++)
        if (s->len[i] > 0)
            order[n++] = i;
    sort_sets = s;
    qsort(order, (size_t)n, sizeof *order, cmp_mutant);
    sort_sets = NULL;
    d->killed = n;
    d->unkilled = d->nmutants - n;

    MF_VEC(mf_dominators_class) cv = {0};
    int_vec *byfirst = mf_xcalloc((size_t)s->ntests + 1, sizeof *byfirst);
    int_vec rep = {0}; /* class -> a mutant of it */
    for (int i = 0; i < n; i++) {
        int m = order[i];
        if (i > 0 && cmp_set(s, order[i - 1], m) == 0) {
            d->mutants[m].cls = cv.n - 1;
            cv.v[cv.n - 1].nmutants++;
            continue;
        }
        mf_dominators_class c = {s->len[m], 1, m, 1, -1, 0};
        const int *k = s->kill + s->off[m];
        for (int j = 0; j < c.size && c.dominator; j++) {
            const int_vec *cand = &byfirst[k[j]];
            for (int q = 0; q < cand->n; q++) {
                int dm = rep.v[cand->v[q]];
                if (subset(s->kill + s->off[dm], s->len[dm], k + j,
                           c.size - j)) {
                    c.dominator = 0;
                    c.by = cand->v[q];
                    break;
                }
            }
        }
        if (c.dominator) {
            MF_VEC_PUSH(byfirst[k[0]], cv.n);
            d->ndominators++;
        }
        d->mutants[m].cls = cv.n;
        MF_VEC_PUSH(cv, c);
        MF_VEC_PUSH(rep, m);
    }
    for (int t = 0; t < s->ntests; t++)
        MF_VEC_FREE(byfirst[t]);
    free(byfirst);
    free(order);
    MF_VEC_FREE(rep);

    /* Dominators first: renumber the classes, `by` included. */
    int nc = cv.n;
    int *old = mf_xcalloc((size_t)nc + 1, sizeof *old);
    for (int c = 0; c < nc; c++)
        cv.v[c].rank = c; /* the old index, for a moment */
    if (nc)
        qsort(cv.v, (size_t)nc, sizeof *cv.v, cmp_class);
    for (int c = 0; c < nc; c++)
        old[cv.v[c].rank] = c;
    int nd = 0, nr = 0;
    for (int c = 0; c < nc; c++) {
        cv.v[c].rank = cv.v[c].dominator ? ++nd : ++nr;
        if (!cv.v[c].dominator)
            cv.v[c].by = old[cv.v[c].by];
    }
    for (int i = 0; i < d->nmutants; i++)
        if (d->mutants[i].cls >= 0)
            d->mutants[i].cls = old[d->mutants[i].cls];
    free(old);
    d->classes = cv.v;
    d->nclasses = nc;

    /* Per operator: killed, in dominator classes, and the dominator
     * classes that hold no other operator's mutant. */
    int *owner = mf_xcalloc((size_t)nc + 1, sizeof *owner);
    for (int c = 0; c < nc; c++)
        owner[c] = -1;
    for (int i = 0; i < d->nmutants; i++) {
        const mf_dominators_mutant *mu = &d->mutants[i];
        if (mu->cls < 0)
            continue;
        d->ops[mu->op].killed++;
        if (!d->classes[mu->cls].dominator)
            continue;
        d->ops[mu->op].dominators++;
        d->dominator_mutants++;
        int *o = &owner[mu->cls];
        *o = *o == -1 || *o == mu->op ? mu->op : -2;
    }
    for (int c = 0; c < nc; c++)
        if (owner[c] >= 0)
            d->ops[owner[c]].own++;
    free(owner);
}

int mf_dominators_compute(mf_dominators *out, sqlite3 *db, int64_t campaign)
{
    sets s;
    memset(out, 0, sizeof *out);
    memset(&s, 0, sizeof s);
    int rc = matrix_full(db, campaign, &out->full);
    if (rc == 0)
        rc = load_mutants(out, &s, db, campaign);
    if (rc == 0)
        rc = load_kills(out, &s, db, campaign);
    if (rc == 0)
        classify(out, &s);
    free(s.tests);
    free(s.rows);
    free(s.kill);
    free(s.off);
    free(s.len);
    if (rc < 0)
        mf_dominators_free(out);
    return rc;
}

void mf_dominators_free(mf_dominators *d)
{
    if (!d)
        return;
    free(d->mutants);
    free(d->classes);
    for (int i = 0; i < d->nops; i++)
        free(d->ops[i].name);
    free(d->ops);
    memset(d, 0, sizeof *d);
}

double mf_dominators_score(const mf_dominators *d)
{
    int64_t den = d->ndominators + d->unkilled;
    return den ? (double)d->ndominators / (double)den : -1;
}

double mf_dominators_mutation_score(const mf_dominators *d)
{
    int64_t den = d->killed + d->unkilled;
    return den ? (double)d->killed / (double)den : -1;
}
