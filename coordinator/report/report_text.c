/* report_text.c - the text report of a campaign (mutfarm report
 * --format text) and the score history (--history): for a person at a
 * terminal, columns aligned, every score defined where it is printed.
 *
 * The sections: the campaign (model, options, versions), the counts and
 * both scores, the score per operator, the survivors with their site and
 * mutated text, the unknown and error verdicts, the cross-operator
 * table from the kill matrix and its dominator mutants (dominators.c).
 * Reads only; nothing here is parsed back. */
#include "dominators_text.h"
#include "report_int.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* ---- header and scores --------------------------------------------------- */

static void print_header(FILE *out, const mf_report_campaign *c,
                         const char *store_name)
{
    char created[40], finished[40], score[16], score_all[16];
    mf_report_time(created, sizeof created, c->created_ms);
    mf_report_time(finished, sizeof finished, c->finished_ms);
    fprintf(out, "mutfarm report: campaign %lld", (long long)c->id);
    if (store_name)
        fprintf(out, " of %s", store_name);
    fputs("\n\n", out);
    fprintf(out, "  model:     %s (sha256 %.16s...)\n", c->model,
            c->model_hash);
    fprintf(out, "  state:     %s, started %s", c->state, created);
    if (c->finished_ms > 0)
        fprintf(out, ", finished %s", finished);
    fputs("\n", out);
    fprintf(out, "  options:   bound %d, notion %s, operators %s", c->bound,
            c->notion, c->operators[0] ? c->operators : "all");
    if (c->inputs && c->inputs[0])
        fprintf(out, ", inputs %s", c->inputs);
    if (c->observe && c->observe[0])
        fprintf(out, ", observe %s", c->observe);
    fputs("\n", out);
    fprintf(out, "             %s\n", c->options);
    fprintf(out, "  versions:  mutfarm %s, z3 %s\n",
            c->mutfarm_version[0] ? c->mutfarm_version : "?",
            c->z3_version[0] ? c->z3_version : "?");
    fputs("\n", out);
    fprintf(out,
            "  mutants:   %lld generated: %lld to decide, %lld duplicate, "
            "%lld stillborn (never checked)\n",
            (long long)c->mutants, (long long)c->total,
            (long long)c->duplicate, (long long)c->stillborn);
    fprintf(out,
            "  verdicts:  %lld killed, %lld equivalent, %lld survived, "
            "%lld unknown, %lld error, %lld pending\n",
            (long long)c->killed, (long long)c->equivalent,
            (long long)c->survived, (long long)c->unknown,
            (long long)c->error, (long long)c->pending);
    fprintf(out,
            "  tests:     %lld distinct; kill matrix: %lld (test, mutant) "
            "kills, %lld of them from replays\n",
            (long long)c->tests, (long long)c->kills,
            (long long)c->replay_kills);
    fputs("\n", out);
    mf_report_pct(score, sizeof score, mf_report_score(c));
    mf_report_pct(score_all, sizeof score_all, mf_report_score_all(c));
    const char *sofar = strcmp(c->state, "done") ? " (so far)" : "";
    fprintf(out,
            "  mutation score:                        %7s%s  killed / "
            "(killed + survived + unknown) = %lld / %lld\n",
            score, sofar, (long long)c->killed,
            (long long)(c->killed + c->survived + c->unknown));
    fprintf(out,
            "  score with equivalents as not killed:  %7s%s  killed / "
            "(killed + equivalent + survived + unknown) = %lld / %lld\n",
            score_all, sofar, (long long)c->killed,
            (long long)(c->killed + c->equivalent + c->survived +
                        c->unknown));
    fputs("  (proven equivalents cannot be killed: the first score leaves "
          "them out; errors\n   say nothing about the tests and are left "
          "out of both; n/a: nothing to score)\n",
          out);
}

/* ---- per operator -------------------------------------------------------- */

static int print_operators(FILE *out, sqlite3 *db, int64_t campaign)
{
    sqlite3_stmt *st = NULL;
    int rc = 0, s, nscored = 0, nna = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT operator, total, killed, equivalent,"
                           "       survived, unknown, error, pending, score"
                           "  FROM operator_scores WHERE campaign_id = ?1"
                           " ORDER BY score IS NULL, score, operator",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_report_sql_error(db, "reading the operator scores");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, campaign);
    fputs("\nper operator, weakest first (score as above; n/a: nothing to "
          "score, e.g. every\nmutant equivalent, listed apart):\n",
          out);
    fprintf(out, "  %-18s %7s %7s %7s %7s %7s %7s %7s %8s\n", "operator",
            "total", "killed", "equiv", "surv", "unknown", "error",
            "pending", "score");
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        char score[16] = "n/a";
        int na = sqlite3_column_type(st, 8) == SQLITE_NULL;
        if (!na)
            mf_report_pct(score, sizeof score, sqlite3_column_double(st, 8));
        if (na && !nna++ && nscored)
            fputs("  nothing to score:\n", out);
        else if (!na)
            nscored++;
        const unsigned char *op = sqlite3_column_text(st, 0);
        fprintf(out, "  %-18s %7lld %7lld %7lld %7lld %7lld %7lld %7lld %8s\n",
                op ? (const char *)op : "?",
                (long long)sqlite3_column_int64(st, 1),
                (long long)sqlite3_column_int64(st, 2),
                (long long)sqlite3_column_int64(st, 3),
                (long long)sqlite3_column_int64(st, 4),
                (long long)sqlite3_column_int64(st, 5),
                (long long)sqlite3_column_int64(st, 6),
                (long long)sqlite3_column_int64(st, 7), score);
    }
    if (s != SQLITE_DONE)
        rc = mf_report_sql_error(db, "reading the operator scores");
    else if (!nscored && !nna)
        fputs("  (no mutants to decide)\n", out);

cleanup:
    sqlite3_finalize(st);
    return rc;
}

/* ---- survivors and problems ---------------------------------------------- */

typedef MF_VEC(char *) id_list;

static int collect_id(const mf_report_mutant *mu, void *ctx)
{
    id_list *v = ctx;
    MF_VEC_PUSH(*v, mf_xstrdup(mu->id));
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct {
    FILE *out;
    const mf_report_campaign *c;
    const mf_report_sites *sites;
} print_ctx;

/* Each line of text indented by `ind` spaces, minus the indentation the
 * printer gave the first line. */
static void put_indented(FILE *out, const char *text, int ind, int first_ind)
{
    int strip = 0;
    while (text[strip] == ' ')
        strip++;
    int line = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        int k = 0;
        while (k < strip && (size_t)k < n && p[k] == ' ')
            k++;
        fprintf(out, "%*s%.*s\n", line ? ind : first_ind, "", (int)(n - k),
                p + k);
        line++;
        p = nl ? nl + 1 : p + n;
    }
}

static int print_survivor(const mf_report_mutant *mu, void *vctx)
{
    print_ctx *pc = vctx;
    FILE *out = pc->out;
    fprintf(out, "  %s:%d:%d  %s  %s", pc->c->model, mu->line, mu->col,
            mu->op, mu->id);
    if (mu->bound >= 0)
        fprintf(out, "  (no kill up to length %d)", mu->bound);
    fprintf(out, "\n      %s\n", mu->desc);
    const mf_report_site *site = mf_report_sites_find(pc->sites, mu->id);
    if (!site)
        return 0;
    char *orig = mf_report_sites_slice(pc->sites, site->sline, site->scol,
                                       site->eline, site->ecol, 200);
    fprintf(out, "      original: %s\n", orig);
    free(orig);
    if (site->repl[0]) {
        fputs("      mutated:  ", out);
        put_indented(out, site->repl, 16, 0);
    } else
        fputs("      mutated:  (removed)\n", out);
    if (site->item[0]) {
        fputs("      as SMV:\n", out);
        put_indented(out, site->item, 8, 8);
    }
    return 0;
}

static int print_problem(const mf_report_mutant *mu, void *vctx)
{
    print_ctx *pc = vctx;
    fprintf(pc->out, "  %s:%d:%d  %s  %s  %s: %s\n", pc->c->model, mu->line,
            mu->col, mu->op, mu->id, mf_report_status_name(mu->status),
            mu->reason ? mu->reason : "(no reason recorded)");
    return 0;
}

static int print_survivors(FILE *out, sqlite3 *db,
                           const mf_report_campaign *c, FILE *warn)
{
    id_list ids = {0};
    mf_report_sites sites;
    char *why = NULL;
    int rc;
    memset(&sites, 0, sizeof sites);
    fprintf(out, "\nsurvivors (%lld): no test up to the bound kills them and "
                 "no proof covers them\n",
            (long long)c->survived);
    rc = mf_report_mutants_each(db, c->id, MF_RS_SURVIVED, collect_id, &ids);
    if (rc < 0)
        goto cleanup;
    if (ids.n == 0) {
        fputs("  none\n", out);
        goto problems;
    }
    qsort(ids.v, (size_t)ids.n, sizeof *ids.v, cmp_str);
    mf_report_sites_build(&sites, c, (const char *const *)ids.v, ids.n, &why);
    if (why && warn)
        fprintf(warn, "mutfarm report: %s: survivors are shown without "
                      "their mutated text\n", why);
    print_ctx pc = {out, c, &sites};
    rc = mf_report_mutants_each(db, c->id, MF_RS_SURVIVED, print_survivor,
                                &pc);
    if (rc < 0)
        goto cleanup;
problems:
    if (c->unknown + c->error > 0) {
        print_ctx pp = {out, c, NULL};
        fprintf(out, "\nunknown (%lld) and error (%lld) verdicts: left out "
                     "of the score, with their reason\n",
                (long long)c->unknown, (long long)c->error);
        rc = mf_report_mutants_each(db, c->id, MF_RS_UNKNOWN, print_problem,
                                    &pp);
        if (rc == 0)
            rc = mf_report_mutants_each(db, c->id, MF_RS_ERROR,
                                        print_problem, &pp);
    }

cleanup:
    for (int i = 0; i < ids.n; i++)
        free(ids.v[i]);
    MF_VEC_FREE(ids);
    mf_report_sites_free(&sites);
    free(why);
    return rc;
}

/* ---- cross-operator table ------------------------------------------------ */

/* Computed in one pass over the kill matrix: each test gets the set of
 * operators whose suite holds it (a bit set), each killed mutant the union
 * of the sets of the tests that kill it, and a cell (A, B) counts the
 * operator-B mutants whose union holds A. Linear in kills, whatever the
 * number of mutants. */

typedef struct {
    char *op;
    int64_t killed, tests; /* killed mutants; tests in the suite */
} op_row;

typedef struct {
    int64_t test;
    int op;
} test_op;

typedef MF_VEC(op_row) op_rows;
typedef MF_VEC(test_op) test_ops;

static int op_index(op_rows *rows, const char *op)
{
    for (int i = 0; i < rows->n; i++)
        if (strcmp(rows->v[i].op, op) == 0)
            return i;
    op_row r = {mf_xstrdup(op), 0, 0};
    MF_VEC_PUSH(*rows, r);
    return rows->n - 1;
}

static int cmp_op_row(const void *a, const void *b)
{
    return strcmp(((const op_row *)a)->op, ((const op_row *)b)->op);
}

static int cmp_test_op(const void *a, const void *b)
{
    const test_op *x = a, *y = b;
    if (x->test != y->test)
        return x->test < y->test ? -1 : 1;
    return x->op - y->op;
}

/* The suite bit set of test t (words of 64 operators), or NULL. */
static const uint64_t *test_mask(const int64_t *tests, const uint64_t *masks,
                                 int ntests, int words, int64_t t)
{
    int lo = 0, hi = ntests - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (tests[mid] == t)
            return masks + (size_t)mid * (size_t)words;
        if (tests[mid] < t)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

static void put_cross(FILE *out, const op_rows *rows, const int64_t *cell)
{
    int n = rows->n;
    fprintf(out, "  %-23s %6s", "", "tests");
    for (int j = 0; j < n; j++) {
        char h[16];
        snprintf(h, sizeof h, "[%d]", j + 1);
        fprintf(out, " %5s", h);
    }
    fprintf(out, " %6s\n", "all");
    fprintf(out, "  %-23s %6s", "killed mutants", "");
    int64_t all = 0;
    for (int j = 0; j < n; j++) {
        fprintf(out, " %5lld", (long long)rows->v[j].killed);
        all += rows->v[j].killed;
    }
    fprintf(out, " %6lld\n", (long long)all);
    for (int i = 0; i < n; i++) {
        char h[40];
        int64_t sum = 0;
        snprintf(h, sizeof h, "[%d] %s", i + 1, rows->v[i].op);
        fprintf(out, "  %-23s %6lld", h, (long long)rows->v[i].tests);
        for (int j = 0; j < n; j++) {
            fprintf(out, " %5lld", (long long)cell[i * n + j]);
            sum += cell[i * n + j];
        }
        fprintf(out, " %6lld\n", (long long)sum);
    }
}

static int print_cross(FILE *out, sqlite3 *db, const mf_report_campaign *c)
{
    sqlite3_stmt *st = NULL;
    op_rows rows = {0};
    test_ops pairs = {0};
    int64_t *tests = NULL, *cell = NULL;
    uint64_t *masks = NULL, *acc = NULL;
    int *perm = NULL;
    int rc = 0, s, ntests = 0, words = 1, n;

    fputs("\ncross-operator: row A's suite is the tests of the killed "
          "verdicts of A's mutants;\ncolumn [k] counts how many of operator "
          "k's killed mutants that suite kills, and\n'all' how many of every "
          "killed mutant. From the kill matrix (kills table, test x\n"
          "mutant): this table is as complete as the kill matrix, and a "
          "kill it does not\nrecord is not counted.\n",
          out);
    /* The killed mutants' operators and the suites. */
    if (sqlite3_prepare_v2(db,
                           "SELECT m.operator, v.test_id"
                           "  FROM verdicts v JOIN mutants m ON m.id = v.mutant"
                           " WHERE v.campaign_id = ?1 AND v.kind = 'killed'",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_report_sql_error(db, "reading the kill matrix");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, c->id);
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *op = sqlite3_column_text(st, 0);
        int k = op_index(&rows, op ? (const char *)op : "?");
        rows.v[k].killed++;
        if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
            test_op p = {sqlite3_column_int64(st, 1), k};
            MF_VEC_PUSH(pairs, p);
        }
    }
    if (s != SQLITE_DONE) {
        rc = mf_report_sql_error(db, "reading the kill matrix");
        goto cleanup;
    }
    sqlite3_finalize(st);
    st = NULL;
    n = rows.n;
    if (n == 0) {
        fputs("  (no killed mutants)\n", out);
        goto cleanup;
    }
    /* Operators in name order: renumber the pairs. */
    perm = mf_xcalloc((size_t)n, sizeof *perm);
    for (int i = 0; i < n; i++)
        rows.v[i].tests = i; /* the old index, for a moment */
    qsort(rows.v, (size_t)n, sizeof *rows.v, cmp_op_row);
    for (int i = 0; i < n; i++) {
        perm[rows.v[i].tests] = i;
        rows.v[i].tests = 0;
    }
    for (int i = 0; i < pairs.n; i++)
        pairs.v[i].op = perm[pairs.v[i].op];
    words = (n + 63) / 64;
    if (pairs.n)
        qsort(pairs.v, (size_t)pairs.n, sizeof *pairs.v, cmp_test_op);
    tests = mf_xcalloc((size_t)pairs.n + 1, sizeof *tests);
    masks = mf_xcalloc(((size_t)pairs.n + 1) * (size_t)words, sizeof *masks);
    for (int i = 0; i < pairs.n; i++) {
        if (i == 0 || pairs.v[i].test != pairs.v[i - 1].test)
            tests[ntests++] = pairs.v[i].test;
        uint64_t *m = masks + (size_t)(ntests - 1) * (size_t)words;
        int k = pairs.v[i].op;
        if (!(m[k / 64] >> (k % 64) & 1))
            rows.v[k].tests++;
        m[k / 64] |= (uint64_t)1 << (k % 64);
    }

    /* Every kill of a killed mutant, by mutant. */
    cell = mf_xcalloc((size_t)n * (size_t)n, sizeof *cell);
    acc = mf_xcalloc((size_t)words, sizeof *acc);
    if (sqlite3_prepare_v2(db,
                           "SELECT k.mutant, m.operator, k.test_id"
                           "  FROM kills k"
                           "  JOIN verdicts v ON v.mutant = k.mutant"
                           "  JOIN mutants m ON m.id = k.mutant"
                           " WHERE k.campaign_id = ?1 AND v.kind = 'killed'"
                           " ORDER BY k.mutant",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_report_sql_error(db, "reading the kill matrix");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, c->id);
    int64_t cur = -1;
    int curop = -1;
    for (;;) {
        s = sqlite3_step(st);
        int64_t mut = s == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -2;
        if (mut != cur && curop >= 0) {
            for (int a = 0; a < n; a++)
                if (acc[a / 64] >> (a % 64) & 1)
                    cell[a * n + curop]++;
        }
        if (s != SQLITE_ROW)
            break;
        if (mut != cur) {
            memset(acc, 0, (size_t)words * sizeof *acc);
            const unsigned char *op = sqlite3_column_text(st, 1);
            curop = -1;
            for (int i = 0; op && i < n; i++)
                if (strcmp(rows.v[i].op, (const char *)op) == 0)
                    curop = i;
            cur = mut;
        }
        const uint64_t *m = test_mask(tests, masks, ntests, words,
                                      sqlite3_column_int64(st, 2));
        for (int w = 0; m && w < words; w++)
            acc[w] |= m[w];
    }
    if (s != SQLITE_DONE) {
        rc = mf_report_sql_error(db, "reading the kill matrix");
        goto cleanup;
    }
    put_cross(out, &rows, cell);

cleanup:
    sqlite3_finalize(st);
    for (int i = 0; i < rows.n; i++)
        free(rows.v[i].op);
    MF_VEC_FREE(rows);
    MF_VEC_FREE(pairs);
    free(tests);
    free(masks);
    free(acc);
    free(cell);
    free(perm);
    return rc;
}

int mf_report_text(FILE *out, sqlite3 *db, const mf_report_campaign *c,
                   const char *store_name, FILE *warn)
{
    print_header(out, c, store_name);
    int rc = print_operators(out, db, c->id);
    if (rc == 0)
        rc = print_survivors(out, db, c, warn);
    if (rc == 0)
        rc = print_cross(out, db, c);
    if (rc == 0) {
        mf_dominators d;
        rc = mf_dominators_compute(&d, db, c->id);
        if (rc == 0)
            mf_dominators_print_summary(out, &d);
        mf_dominators_free(&d);
    }
    return rc;
}

/* ---- history ------------------------------------------------------------- */

int mf_report_history(FILE *out, mf_store *store, int64_t campaign)
{
    sqlite3 *db = mf_store_db(store);
    sqlite3_stmt *st = NULL;
    int rc = 0, s, rows = 0;
    char last_hash[65] = "";
    double last = -1;
    if (campaign > 0) {
        mf_report_campaign c;
        rc = mf_report_campaign_load(&c, db, campaign);
        if (rc < 0)
            return rc;
        mf_report_campaign_free(&c);
    }
    if (sqlite3_prepare_v2(db,
                           "SELECT h.model, h.model_hash, h.campaign_id, h.at,"
                           "       h.total, h.killed, h.equivalent,"
                           "       h.survived, h.unknown, h.error, h.score"
                           "  FROM score_trend h"
                           " WHERE ?1 = 0 OR h.model_hash ="
                           "       (SELECT md.hash FROM campaigns c"
                           "          JOIN models md ON md.id = c.model_id"
                           "         WHERE c.id = ?1)"
                           " ORDER BY h.model, h.model_hash, h.at,"
                           "          h.campaign_id",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_report_sql_error(db, "reading the score history");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, campaign > 0 ? campaign : 0);
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *model = (const char *)sqlite3_column_text(st, 0);
        const char *hash = (const char *)sqlite3_column_text(st, 1);
        if (!model)
            model = "?";
        if (!hash)
            hash = "";
        if (strcmp(hash, last_hash) != 0) {
            fprintf(out, "%s%s (sha256 %.16s...): score = killed / (killed + "
                         "survived + unknown)\n",
                    rows ? "\n" : "", model, hash);
            fprintf(out, "  %-23s %8s %7s %7s %7s %7s %7s %7s %8s %7s\n",
                    "finished", "campaign", "total", "killed", "equiv",
                    "surv", "unknown", "error", "score", "change");
            snprintf(last_hash, sizeof last_hash, "%s", hash);
            last = -1;
        }
        rows++;
        char at[40], score[16] = "n/a", change[16] = "-";
        mf_report_time(at, sizeof at, sqlite3_column_int64(st, 3));
        double sc = -1;
        if (sqlite3_column_type(st, 10) != SQLITE_NULL) {
            sc = sqlite3_column_double(st, 10);
            if (sc < 0)
                sc = 0;
            mf_report_pct(score, sizeof score, sc);
            if (last >= 0)
                snprintf(change, sizeof change, "%+.1f", 100.0 * (sc - last));
        }
        last = sc;
        fprintf(out,
                "  %-23s %8lld %7lld %7lld %7lld %7lld %7lld %7lld %8s %7s\n",
                at, (long long)sqlite3_column_int64(st, 2),
                (long long)sqlite3_column_int64(st, 4),
                (long long)sqlite3_column_int64(st, 5),
                (long long)sqlite3_column_int64(st, 6),
                (long long)sqlite3_column_int64(st, 7),
                (long long)sqlite3_column_int64(st, 8),
                (long long)sqlite3_column_int64(st, 9), score, change);
    }
    if (s != SQLITE_DONE) {
        rc = mf_report_sql_error(db, "reading the score history");
        goto cleanup;
    }
    if (!rows)
        fputs("no finished campaign in the store yet: the history has one "
              "line per finished campaign\n",
              out);
    else
        fputs("\nchange: score points since the model's previous finished "
              "campaign (n/a: nothing to score)\n",
              out);

cleanup:
    sqlite3_finalize(st);
    if (fflush(out) != 0 || ferror(out))
        return rc < 0 ? rc : mf_err_set(MF_EIO, "cannot write the report");
    return rc;
}
