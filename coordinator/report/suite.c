/* suite.c - an imported suite kept and scored (suite.h).
 *
 * Import keeps each test in the JSON columns it was read from (the
 * store's form), so that scoring reads it back with the same reader. Scoring checks every test on the original first (the wrong
 * ones are set aside), replays the others on every mutant with
 * mf_matrix_replay_tests, and reports from the kills it is told; the
 * mutants' operators and places come from the store. */
#include "suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kill_replay.h"
#include "matrix_int.h"

/* ---- import -------------------------------------------------------------- */

static const char *format_name(mf_suite_format f)
{
    return f == MF_SUITE_JSON ? "json" : f == MF_SUITE_CSV ? "csv" : "text";
}

static int insert_tests(mf_store *s, sqlite3_stmt *st, int64_t sid,
                        const mf_suite_file *f)
{
    for (int i = 0; i < f->n; i++) {
        const mf_suite_test *x = &f->v[i];
        mf_buf lines = {0};
        for (int k = 0; k <= x->t->length; k++)
            mf_buf_printf(&lines, "%s%d", k ? "," : "[", x->lines[k]);
        mf_buf_puts(&lines, "]");
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, sid);
        sqlite3_bind_int(st, 2, i + 1);
        sqlite3_bind_text(st, 3, x->label, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, x->line);
        sqlite3_bind_text(st, 5, lines.data, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 6, x->t->length);
        sqlite3_bind_text(st, 7, x->inputs, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 8, x->expected, -1, SQLITE_STATIC);
        if (x->allowed)
            sqlite3_bind_text(st, 9, x->allowed, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 9);
        int rc = sqlite3_step(st);
        sqlite3_reset(st);
        mf_buf_free(&lines);
        if (rc != SQLITE_DONE)
            return mf_matrix_db_fail(s, "storing a test");
    }
    return 0;
}

int mf_suite_import(mf_store *s, const mf_matrix_campaign *c,
                    const char *name, mf_suite_format fmt,
                    const char *source, const mf_suite_file *f)
{
    sqlite3 *db = mf_store_db(s);
    sqlite3_stmt *st = NULL, *tst = NULL;
    if (f->model_hash[0] && strcmp(f->model_hash, c->info.model_hash) != 0)
        return mf_err_set(MF_EPARSE, "%s:%d: the suite is for the model "
                          "with hash %.12s..., campaign %lld's model (%s) "
                          "has hash %.12s...", source, f->hash_line,
                          f->model_hash, (long long)c->id, c->info.model,
                          c->info.model_hash);
    int rc = mf_matrix_exec(s, "BEGIN IMMEDIATE", "starting a transaction");
    if (rc < 0)
        return rc;
    int64_t length = 0;
    for (int i = 0; i < f->n; i++)
        length += f->v[i].t->length;
    if ((rc = mf_matrix_prepare(s, &st, "DELETE FROM imported_suites WHERE "
                                "campaign_id = ?1 AND name = ?2")) < 0)
        goto cleanup;
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = mf_matrix_db_fail(s, "replacing the suite");
        goto cleanup;
    }
    sqlite3_finalize(st);
    st = NULL;
    if ((rc = mf_matrix_prepare(s, &st,
                                "INSERT INTO imported_suites(campaign_id, "
                                "name, format, source, model_hash, tests, "
                                "length, created_at) VALUES (?1, ?2, ?3, "
                                "?4, ?5, ?6, ?7, ?8)")) < 0)
        goto cleanup;
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, format_name(fmt), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, c->info.model_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 6, f->n);
    sqlite3_bind_int64(st, 7, length);
    sqlite3_bind_int64(st, 8, mf_store_now_ms());
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = mf_matrix_db_fail(s, "storing the suite");
        goto cleanup;
    }
    int64_t sid = sqlite3_last_insert_rowid(db);
    if ((rc = mf_matrix_prepare(s, &tst,
                                "INSERT INTO imported_tests(suite_id, "
                                "position, label, line, lines, length, "
                                "inputs, expected, allowed) VALUES (?1, ?2, "
                                "?3, ?4, ?5, ?6, ?7, ?8, ?9)")) < 0)
        goto cleanup;
    rc = insert_tests(s, tst, sid, f);
cleanup:
    sqlite3_finalize(st);
    sqlite3_finalize(tst);
    if (rc == 0)
        rc = mf_matrix_exec(s, "COMMIT", "storing the suite");
    if (rc < 0)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* ---- a stored suite read back -------------------------------------------- */

typedef struct {
    int position;
    char *label;
    int line;
    int *lines; /* per state, length + 1 (0: unknown) */
    mf_test *t;
    int wrong;  /* the original does not show its expected observables */
    char why[512];
} stest;

typedef MF_VEC(stest) stest_vec;

static void stests_free(stest_vec *v)
{
    for (int i = 0; i < v->n; i++) {
        free(v->v[i].label);
        free(v->v[i].lines);
        mf_test_free(v->v[i].t);
    }
    MF_VEC_FREE(*v);
}

static int suite_find(mf_store *s, int64_t campaign, const char *name,
                      int64_t *out)
{
    return mf_matrix_named_row(
        s, "SELECT id, name FROM imported_suites WHERE campaign_id = ?1 "
           "ORDER BY name",
        campaign, name, "imported suite",
        "none yet; import one with 'mutfarm tests import'", out);
}

/* "[3,4,5]" into n ints (missing ones 0). */
static int *lines_parse(const char *s, int n)
{
    int *v = mf_xcalloc((size_t)n + 1, sizeof *v);
    for (int k = 0; s && *s && k < n; k++) {
        while (*s && (*s < '0' || *s > '9'))
            s++;
        char *e = NULL;
        long x = strtol(s, &e, 10);
        if (e == s)
            break;
        v[k] = x > 0 && x < 1000000000L ? (int)x : 0;
        s = e;
    }
    return v;
}

static int suite_load(stest_vec *v, mf_store *s, const mf_matrix_campaign *c,
                      int64_t sid)
{
    sqlite3_stmt *st = NULL;
    int rc = mf_matrix_prepare(s, &st, "SELECT position, label, line, "
                               "lines, length, inputs, expected, allowed "
                               "FROM imported_tests WHERE suite_id = ?1 "
                               "ORDER BY position");
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, sid);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        stest x = {0};
        x.position = sqlite3_column_int(st, 0);
        const char *label = (const char *)sqlite3_column_text(st, 1);
        x.label = mf_xstrdup(label ? label : "");
        x.line = sqlite3_column_int(st, 2);
        mf_store_test_opts to = {x.position, 1, NULL, NULL, NULL, 0};
        rc = mf_store_test_parse(&x.t, c->model, sqlite3_column_int(st, 4),
                                 (const char *)sqlite3_column_text(st, 5),
                                 (const char *)sqlite3_column_text(st, 6),
                                 (const char *)sqlite3_column_text(st, 7),
                                 &to);
        if (rc < 0) {
            free(x.label);
            break;
        }
        x.lines = lines_parse((const char *)sqlite3_column_text(st, 3),
                              x.t->length + 1);
        MF_VEC_PUSH(*v, x);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return 0;
    return rc < 0 ? rc : mf_matrix_db_fail(s, "reading the suite's tests");
}

/* Is x's expected shown by the original? If not, x->why says where and
 * what the model shows there instead. */
static void check_test(stest *x, const mf_model *m, mf_kill_orig *o)
{
    int rc = mf_kill_test_check(o, x->t);
    if (rc == 0 || rc == MF_ELIMIT)
        return;
    x->wrong = 1;
    /* The step is the one the check names ("... at step K",
     * model/kill_graph.c): the first no run of the original reaches. */
    int step = -1;
    const char *at = strstr(mf_err_msg(), "at step ");
    if (at)
        step = atoi(at + 8);
    mf_kill_test *kt = NULL;
    int reexp = 0;
    rc = mf_kill_test_new(&kt, m, x->t, &reexp);
    mf_buf want = {0}, got = {0};
    if (step >= 0 && step <= x->t->length)
        mf_print_obs(&want, m, x->t->expect + (size_t)step * x->t->nobs);
    if (rc == 0 && step >= 0 && step <= x->t->length)
        mf_print_obs(&got, m,
                     mf_kill_test_of(kt)->expect + (size_t)step * x->t->nobs);
    if (step < 0)
        snprintf(x->why, sizeof x->why, "%s", mf_err_msg());
    else if (rc < 0)
        snprintf(x->why, sizeof x->why, "step %d: the model refuses the "
                 "test's inputs", step);
    else
        snprintf(x->why, sizeof x->why, "step %d: expected %s; the model "
                 "shows %s", step, want.data ? want.data : "",
                 got.data ? got.data : "");
    x->lines[x->t->length + 1] = step; /* the step, kept past the lines */
    mf_buf_free(&want);
    mf_buf_free(&got);
    mf_kill_test_free(kt);
}

/* ---- scoring --------------------------------------------------------------- */

typedef struct {
    int64_t row;
    int test;   /* index in the replayed tests */
    mf_kill k;
} skill;

typedef struct {
    MF_VEC(skill) kills;
} sink;

static int on_kill(int test, int64_t mutant_row, const mf_kill *k, void *ctx)
{
    sink *sk = ctx;
    skill x = {mutant_row, test, *k};
    MF_VEC_PUSH(sk->kills, x);
    return 0;
}

static int skill_cmp(const void *a, const void *b)
{
    const skill *x = a, *y = b;
    if (x->test != y->test)
        return x->test < y->test ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static int count_equivalent(mf_store *s, int64_t campaign, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    int rc = mf_matrix_prepare(s, &st, "SELECT count(*) FROM mutants m JOIN "
                               "verdicts v ON v.mutant = m.id WHERE "
                               "m.campaign_id = ?1 AND m.status = 'ok' AND "
                               "v.kind = 'equivalent'");
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, campaign);
    if (sqlite3_step(st) == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else
        rc = mf_matrix_db_fail(s, "counting the equivalent mutants");
    sqlite3_finalize(st);
    return rc;
}

/* What the report needs besides the counts. */
typedef struct {
    FILE *f;
    mf_buf b;
    const mf_score_opts *o;
    const mf_matrix_campaign *c;
    stest_vec *tests;
    stest **run;            /* the tests replayed (not wrong) */
    mf_matrix_target *tg;   /* the mutants, by row */
    int64_t ntg;
    unsigned char *best;    /* per target: 1 if the suite kills it */
    mf_score_counts *n;
} report;

static const mf_matrix_target *target_of(const report *r, int64_t row)
{
    int64_t lo = 0, hi = r->ntg - 1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        if (r->tg[mid].row == row)
            return &r->tg[mid];
        if (r->tg[mid].row < row)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

static double ratio(int64_t a, int64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* The alive mutants' operator, place and description, one callback each. */
static int alive_each(report *r, mf_store *s,
                      void (*fn)(report *r, int first, sqlite3_stmt *st))
{
    sqlite3_stmt *st = NULL;
    int rc = mf_matrix_prepare(s, &st, "SELECT mutant_id, operator, line, "
                               "col, description FROM mutants WHERE id = ?1");
    int first = 1;
    for (int64_t i = 0; rc == 0 && i < r->ntg; i++) {
        if (r->best[i])
            continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, r->tg[i].row);
        if (sqlite3_step(st) != SQLITE_ROW) {
            rc = mf_matrix_db_fail(s, "reading a mutant");
            break;
        }
        fn(r, first, st);
        first = 0;
    }
    sqlite3_finalize(st);
    return rc;
}

static const char *col(sqlite3_stmt *st, int i)
{
    const char *t = (const char *)sqlite3_column_text(st, i);
    return t ? t : "";
}

static void alive_text(report *r, int first, sqlite3_stmt *st)
{
    (void)first;
    mf_buf_printf(&r->b, "  %s  %-6s %d:%d  %s\n", col(st, 0), col(st, 1),
                  sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
                  col(st, 4));
}

static void alive_json(report *r, int first, sqlite3_stmt *st)
{
    mf_buf_printf(&r->b, "%s\n    {\"mutant\":\"%s\",\"operator\":",
                  first ? "" : ",", col(st, 0));
    mf_buf_json_str(&r->b, col(st, 1));
    mf_buf_printf(&r->b, ",\"line\":%d,\"col\":%d,\"description\":",
                  sqlite3_column_int(st, 2), sqlite3_column_int(st, 3));
    mf_buf_json_str(&r->b, col(st, 4));
    mf_buf_puts(&r->b, "}");
}

/* Mutants killed per strongest notion: [0] deterministic ... by rank. */
static void per_notion(const report *r, const sink *sk, int64_t pairs[3],
                       int64_t mutants[3])
{
    memset(pairs, 0, sizeof(int64_t) * 3);
    memset(mutants, 0, sizeof(int64_t) * 3);
    unsigned char *seen = mf_xcalloc((size_t)r->ntg * 3 + 1, 1);
    for (int i = 0; i < sk->kills.n; i++) {
        const skill *k = &sk->kills.v[i];
        int nn = (int)k->k.notion;
        if (nn < 0 || nn > 2)
            continue;
        pairs[nn]++;
        const mf_matrix_target *t = target_of(r, k->row);
        if (!t)
            continue;
        size_t at = (size_t)(t - r->tg) * 3 + (size_t)nn;
        if (!seen[at]) {
            seen[at] = 1;
            mutants[nn]++;
        }
    }
    free(seen);
}

static void write_text(report *r, const sink *sk, const int64_t pairs[3],
                       const int64_t muts[3])
{
    mf_buf *b = &r->b;
    mf_score_counts *n = r->n;
    mf_buf_printf(b, "suite '%s' of campaign %lld (%s): %d tests, %d wrong\n",
                  r->o->suite, (long long)r->c->id, r->c->info.model,
                  n->tests, n->wrong);
    for (int i = 0; i < r->tests->n; i++) {
        const stest *x = &r->tests->v[i];
        if (!x->wrong)
            continue;
        int step = x->lines[x->t->length + 1];
        mf_buf_printf(b, "wrong test %d '%s' (line %d", x->position,
                      x->label, x->line);
        if (step >= 0 && step <= x->t->length && x->lines[step])
            mf_buf_printf(b, ", the step on line %d", x->lines[step]);
        mf_buf_printf(b, "): %s\n", x->why);
    }
    mf_buf_printf(b, "killed: %lld of %lld mutants", (long long)n->killed,
                  (long long)n->mutants);
    mf_buf_printf(b, " (by notion: deterministic %lld, potential %lld, "
                  "definite %lld; kills: %lld, %lld, %lld)\n",
                  (long long)muts[0], (long long)muts[1], (long long)muts[2],
                  (long long)pairs[0], (long long)pairs[1],
                  (long long)pairs[2]);
    mf_buf_printf(b, "score: %.4f without the %lld equivalent mutants "
                  "(%lld/%lld), %.4f with them (%lld/%lld)\n",
                  ratio(n->killed, n->mutants), (long long)n->equivalent,
                  (long long)n->killed, (long long)n->mutants,
                  ratio(n->killed, n->mutants + n->equivalent),
                  (long long)n->killed,
                  (long long)(n->mutants + n->equivalent));
    if (n->undecided)
        mf_buf_printf(b, "undecided: %lld test x mutant pairs past the "
                      "replay's limits\n", (long long)n->undecided);
    mf_buf_printf(b, "alive: %lld mutants\n",
                  (long long)(n->mutants - n->killed));
    (void)sk;
}

static void write_json_head(report *r, const sink *sk,
                            const int64_t pairs[3], const int64_t muts[3])
{
    mf_buf *b = &r->b;
    mf_score_counts *n = r->n;
    mf_buf_puts(b, "{\"suite\":");
    mf_buf_json_str(b, r->o->suite);
    mf_buf_printf(b, ",\"campaign\":%lld,\"model\":", (long long)r->c->id);
    mf_buf_json_str(b, r->c->info.model);
    mf_buf_printf(b, ",\"tests\":%d,\"wrong_tests\":%d,\"mutants\":%lld,"
                  "\"equivalent\":%lld,\"killed\":%lld,\"undecided\":%lld,",
                  n->tests, n->wrong, (long long)n->mutants,
                  (long long)n->equivalent, (long long)n->killed,
                  (long long)n->undecided);
    mf_buf_printf(b, "\"score\":%.6f,\"score_with_equivalent\":%.6f,",
                  ratio(n->killed, n->mutants),
                  ratio(n->killed, n->mutants + n->equivalent));
    mf_buf_puts(b, "\"by_notion\":{");
    for (int i = 0; i < 3; i++)
        mf_buf_printf(b, "%s\"%s\":{\"mutants\":%lld,\"kills\":%lld}",
                      i ? "," : "", mf_notion_name((mf_notion)i),
                      (long long)muts[i], (long long)pairs[i]);
    mf_buf_puts(b, "},\"wrong\":[");
    int first = 1;
    for (int i = 0; i < r->tests->n; i++) {
        const stest *x = &r->tests->v[i];
        if (!x->wrong)
            continue;
        int step = x->lines[x->t->length + 1];
        mf_buf_printf(b, "%s\n    {\"test\":%d,\"label\":", first ? "" : ",",
                      x->position);
        mf_buf_json_str(b, x->label);
        mf_buf_printf(b, ",\"line\":%d,\"step\":%d,\"step_line\":%d,"
                      "\"why\":", x->line, step,
                      step >= 0 && step <= x->t->length ? x->lines[step] : 0);
        mf_buf_json_str(b, x->why);
        mf_buf_puts(b, "}");
        first = 0;
    }
    mf_buf_puts(b, "],\"kills\":[");
    for (int i = 0; i < sk->kills.n; i++) {
        const skill *k = &sk->kills.v[i];
        const stest *x = r->run[k->test];
        const mf_matrix_target *t = target_of(r, k->row);
        mf_buf_printf(b, "%s\n    {\"test\":%d,\"label\":", i ? "," : "",
                      x->position);
        mf_buf_json_str(b, x->label);
        mf_buf_printf(b, ",\"mutant\":\"%s\",\"notion\":\"%s\",\"step\":%d",
                      t ? t->id : "", mf_notion_name(k->k.notion),
                      k->k.step);
        if (k->k.refuses >= 0)
            mf_buf_printf(b, ",\"refuses\":%d", k->k.refuses);
        mf_buf_puts(b, "}");
    }
    mf_buf_puts(b, "],\"alive\":[");
}

int mf_suite_score(FILE *f, mf_store *s, const mf_matrix_campaign *c,
                   const mf_score_opts *o, mf_score_counts *out)
{
    stest_vec tests = {0};
    sink sk = {0};
    report r = {0};
    mf_kill_orig *orig = NULL;
    int64_t sid = 0, pairs[3], muts[3];
    int rc;
    memset(out, 0, sizeof *out);
    r.f = f;
    r.o = o;
    r.c = c;
    r.tests = &tests;
    r.n = out;
    if ((rc = suite_find(s, c->id, o->suite, &sid)) < 0 ||
        (rc = suite_load(&tests, s, c, sid)) < 0 ||
        (rc = count_equivalent(s, c->id, &out->equivalent)) < 0 ||
        (rc = mf_matrix_targets_load(s, c->id, &r.tg, &r.ntg)) < 0)
        goto cleanup;
    mf_kill_orig_new(&orig, c->model);
    r.run = mf_xcalloc((size_t)tests.n + 1, sizeof *r.run);
    mf_test **run = mf_xcalloc((size_t)tests.n + 1, sizeof *run);
    int nrun = 0;
    for (int i = 0; i < tests.n; i++) {
        /* one spare int past the lines: the wrong step */
        stest *x = &tests.v[i];
        x->lines = mf_xrealloc(x->lines,
                               sizeof(int) * (size_t)(x->t->length + 2));
        x->lines[x->t->length + 1] = -1;
        check_test(x, c->model, orig);
        if (x->wrong) {
            out->wrong++;
            continue;
        }
        r.run[nrun] = x;
        run[nrun++] = x->t;
    }
    out->tests = tests.n;
    out->mutants = r.ntg;
    rc = mf_matrix_replay_tests(s, c, run, nrun, o->threads, on_kill, &sk,
                                &out->undecided);
    free(run);
    if (rc < 0)
        goto cleanup;
    if (sk.kills.n > 1)
        qsort(sk.kills.v, (size_t)sk.kills.n, sizeof *sk.kills.v, skill_cmp);
    r.best = mf_xcalloc((size_t)r.ntg + 1, 1);
    for (int i = 0; i < sk.kills.n; i++) {
        const mf_matrix_target *t = target_of(&r, sk.kills.v[i].row);
        if (t && !r.best[t - r.tg]) {
            r.best[t - r.tg] = 1;
            out->killed++;
        }
    }
    per_notion(&r, &sk, pairs, muts);
    if (o->format == MF_SCORE_JSON) {
        write_json_head(&r, &sk, pairs, muts);
        rc = alive_each(&r, s, alive_json);
        mf_buf_printf(&r.b, "%s]}\n", out->killed < out->mutants ? "\n  "
                                                                 : "");
    } else {
        write_text(&r, &sk, pairs, muts);
        rc = alive_each(&r, s, alive_text);
    }
    if (rc == 0 && r.b.len &&
        (fwrite(r.b.data, 1, r.b.len, f) != r.b.len || fflush(f) != 0))
        rc = mf_err_set(MF_EIO, "cannot write the score");
cleanup:
    mf_kill_orig_free(orig);
    stests_free(&tests);
    MF_VEC_FREE(sk.kills);
    free(r.tg);
    free(r.best);
    free(r.run);
    mf_buf_free(&r.b);
    return rc;
}
