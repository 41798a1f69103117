/* export.c - tests out of the store as JSON or CSV (export.h).
 *
 * Each stored test is read back (mf_store_test_parse) and printed again
 * from its values, so that every value reads as SMV prints it: the store's
 * own JSON gives an observed DEFINE's symbol as its raw code (MF_SYM), this
 * prints its name, as mf_print_obs does. Its kills come from the kill
 * matrix (`kills`, both sources), ordered by mutant id. One test is in
 * memory at a time. It neither writes the store nor replays anything. */
#include "export.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char mutant[17];
    char notion[16]; /* "" unknown */
    int step;        /* -1 unknown */
    int refuses;     /* -1 none */
} kill_info;

typedef MF_VEC(kill_info) kill_vec;

/* One cell of a state: its name, where its value is, its type (NULL: an
 * observed DEFINE). */
typedef struct {
    char *name;
    int index;
    const mf_type *ty;
    int at0; /* an input cell: set in state 0 as well */
} cell;

typedef MF_VEC(cell) cell_vec;

typedef struct {
    FILE *f;
    const mf_model *m;
    cell_vec in, obs;
    mf_buf b, tmp;
    mf_export_counts *n;
} out_ctx;

static void cells_build(out_ctx *x)
{
    const mf_model *m = x->m;
    int n = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        for (int q = 0; q < v->nslots; q++) {
            mf_buf nm = {0};
            mf_print_cell_name(&nm, v, q);
            if (v->is_input || v->decl == MF_DECL_IVAR) {
                cell c = {mf_xstrdup(nm.data), v->slot + q,
                          mf_type_scalar(v->type),
                          v->is_input && v->decl == MF_DECL_VAR};
                MF_VEC_PUSH(x->in, c);
            }
            if (v->is_observable) {
                cell c = {mf_xstrdup(nm.data), n++, mf_type_scalar(v->type),
                          0};
                MF_VEC_PUSH(x->obs, c);
            }
            mf_buf_free(&nm);
        }
    }
    for (int i = 0; i < m->nobs_defines; i++) {
        cell c = {mf_xstrdup(m->items[m->obs_defines[i]].name), n++, NULL, 0};
        MF_VEC_PUSH(x->obs, c);
    }
}

static void cells_free(cell_vec *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->v[i].name);
    MF_VEC_FREE(*v);
}

/* A value as SMV prints it into tmp; 1 if it is a number. */
static int value_text(out_ctx *x, const cell *c, mf_val v)
{
    mf_buf_reset(&x->tmp);
    if (c->ty)
        mf_print_value(&x->tmp, x->m, c->ty, v);
    else if (MF_IS_SYM(v) && v - MF_SYM_BASE < x->m->nsyms)
        mf_buf_puts(&x->tmp, x->m->syms[v - MF_SYM_BASE]);
    else
        mf_buf_printf(&x->tmp, "%lld", (long long)v);
    const char *p = x->tmp.data + (x->tmp.data[0] == '-');
    int num = *p != '\0';
    for (; *p; p++)
        num &= *p >= '0' && *p <= '9';
    return num;
}

static void json_val(out_ctx *x, const cell *c, mf_val v)
{
    if (value_text(x, c, v))
        mf_buf_puts(&x->b, x->tmp.data);
    else
        mf_buf_json_str(&x->b, x->tmp.data);
}

/* {"cell": value, ...} of the cells (inputs: those of state k). */
static void json_state(out_ctx *x, const cell_vec *cells, const mf_val *row,
                       int inputs, int k)
{
    int first = 1;
    mf_buf_puts(&x->b, "{");
    for (int i = 0; i < cells->n; i++) {
        const cell *c = &cells->v[i];
        if (inputs && k == 0 && !c->at0)
            continue;
        mf_buf_puts(&x->b, first ? "" : ",");
        first = 0;
        mf_buf_json_str(&x->b, c->name);
        mf_buf_puts(&x->b, ":");
        json_val(x, c, row[c->index]);
    }
    mf_buf_puts(&x->b, "}");
}

/* "a=1, b=on" of the observables in row. */
static void text_obs(out_ctx *x, mf_buf *b, const mf_val *row)
{
    for (int i = 0; i < x->obs.n; i++) {
        const cell *c = &x->obs.v[i];
        value_text(x, c, row[c->index]);
        mf_buf_printf(b, "%s%s=%s", i ? ", " : "", c->name, x->tmp.data);
    }
}

static int flush(out_ctx *x)
{
    if (x->b.len && fwrite(x->b.data, 1, x->b.len, x->f) != x->b.len)
        return mf_err_set(MF_EIO, "cannot write the export");
    mf_buf_reset(&x->b);
    return 0;
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_test(out_ctx *x, int64_t id, const char *found_for,
                      const mf_test *t, int has_allowed, const kill_vec *kv,
                      int first)
{
    mf_buf *b = &x->b;
    int nobs = t->nobs, n = t->nslots;
    mf_buf_printf(b, "%s\n    {\"id\":%lld,\"length\":%d,\"found_for\":",
                  first ? "" : ",", (long long)id, t->length);
    if (found_for)
        mf_buf_json_str(b, found_for);
    else
        mf_buf_puts(b, "null");
    mf_buf_puts(b, ",\"steps\":[");
    for (int k = 0; k <= t->length; k++) {
        mf_buf_printf(b, "%s\n      {\"step\":%d,\"inputs\":", k ? "," : "",
                      k);
        json_state(x, &x->in, t->inputs + (size_t)k * n, 1, k);
        mf_buf_puts(b, ",\"expected\":");
        json_state(x, &x->obs, t->expect + (size_t)k * nobs, 0, k);
        if (has_allowed) {
            mf_buf_puts(b, ",\"allowed\":[");
            for (int a = 0; a < t->nallowed[k]; a++) {
                mf_buf_puts(b, a ? "," : "");
                json_state(x, &x->obs, t->allowed[k] + (size_t)a * nobs, 0,
                           k);
            }
            mf_buf_puts(b, "]");
        }
        int any = 0;
        for (int i = 0; i < kv->n; i++)
            if (kv->v[i].refuses == k) {
                mf_buf_puts(b, any ? "," : ",\"refused_by\":[");
                mf_buf_json_str(b, kv->v[i].mutant);
                any = 1;
            }
        mf_buf_puts(b, any ? "]}" : "}");
    }
    mf_buf_puts(b, "],\"kills\":[");
    for (int i = 0; i < kv->n; i++) {
        const kill_info *ki = &kv->v[i];
        mf_buf_printf(b, "%s\n      {\"mutant\":\"%s\",\"notion\":",
                      i ? "," : "", ki->mutant);
        if (ki->notion[0])
            mf_buf_json_str(b, ki->notion);
        else
            mf_buf_puts(b, "null");
        if (ki->step >= 0)
            mf_buf_printf(b, ",\"step\":%d", ki->step);
        if (ki->refuses >= 0)
            mf_buf_printf(b, ",\"refuses\":%d", ki->refuses);
        mf_buf_puts(b, "}");
    }
    mf_buf_puts(b, "]}");
}

/* ---- CSV ----------------------------------------------------------------- */

static void csv_field(mf_buf *b, const char *s, int first)
{
    mf_buf_puts(b, first ? "" : ",");
    if (!strpbrk(s, ",\"\n\r")) {
        mf_buf_puts(b, s);
        return;
    }
    mf_buf_puts(b, "\"");
    for (; *s; s++)
        mf_buf_put(b, *s == '"' ? "\"\"" : s, *s == '"' ? 2 : 1);
    mf_buf_puts(b, "\"");
}

static void csv_header(out_ctx *x)
{
    mf_buf col = {0};
    csv_field(&x->b, "test", 1);
    csv_field(&x->b, "step", 0);
    for (int i = 0; i < x->in.n; i++) {
        mf_buf_reset(&col);
        mf_buf_printf(&col, "in.%s", x->in.v[i].name);
        csv_field(&x->b, col.data, 0);
    }
    for (int i = 0; i < x->obs.n; i++) {
        mf_buf_reset(&col);
        mf_buf_printf(&col, "exp.%s", x->obs.v[i].name);
        csv_field(&x->b, col.data, 0);
    }
    csv_field(&x->b, "allowed", 0);
    csv_field(&x->b, "killed", 0);
    csv_field(&x->b, "refused", 0);
    mf_buf_puts(&x->b, "\n");
    mf_buf_free(&col);
}

static void csv_test(out_ctx *x, int64_t id, const mf_test *t,
                     int has_allowed, const kill_vec *kv)
{
    mf_buf f = {0};
    int nobs = t->nobs, n = t->nslots;
    for (int k = 0; k <= t->length; k++) {
        mf_buf_reset(&f);
        mf_buf_printf(&f, "%lld", (long long)id);
        csv_field(&x->b, f.data, 1);
        mf_buf_reset(&f);
        mf_buf_printf(&f, "%d", k);
        csv_field(&x->b, f.data, 0);
        for (int i = 0; i < x->in.n; i++) {
            const cell *c = &x->in.v[i];
            if (k == 0 && !c->at0) {
                csv_field(&x->b, "", 0);
                continue;
            }
            value_text(x, c, t->inputs[(size_t)k * n + (size_t)c->index]);
            csv_field(&x->b, x->tmp.data, 0);
        }
        for (int i = 0; i < x->obs.n; i++) {
            const cell *c = &x->obs.v[i];
            value_text(x, c, t->expect[(size_t)k * nobs + (size_t)c->index]);
            csv_field(&x->b, x->tmp.data, 0);
        }
        mf_buf_reset(&f);
        for (int a = 0; has_allowed && a < t->nallowed[k]; a++) {
            mf_buf_puts(&f, a ? " | " : "");
            text_obs(x, &f, t->allowed[k] + (size_t)a * nobs);
        }
        csv_field(&x->b, f.data ? f.data : "", 0);
        mf_buf_reset(&f);
        for (int i = 0; i < kv->n; i++)
            if (kv->v[i].step == k)
                mf_buf_printf(&f, "%s%s:%s", f.len ? " " : "",
                              kv->v[i].mutant,
                              kv->v[i].notion[0] ? kv->v[i].notion : "?");
        csv_field(&x->b, f.data ? f.data : "", 0);
        mf_buf_reset(&f);
        for (int i = 0; i < kv->n; i++)
            if (kv->v[i].refuses == k)
                mf_buf_printf(&f, "%s%s", f.len ? " " : "", kv->v[i].mutant);
        csv_field(&x->b, f.data ? f.data : "", 0);
        mf_buf_puts(&x->b, "\n");
    }
    mf_buf_free(&f);
}

/* ---- the whole ----------------------------------------------------------- */

int mf_export_suite_find(mf_store *s, int64_t campaign, const char *name,
                         int64_t *out)
{
    return mf_matrix_named_row(
        s, "SELECT id, name FROM suites WHERE campaign_id = ?1 ORDER BY name",
        campaign, name, "suite", "none yet; make one with 'mutfarm minimize'",
        out);
}

static int load_kills(kill_vec *kv, sqlite3_stmt *st, int64_t test)
{
    int rc;
    kv->n = 0;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, test);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        kill_info k = {"", "", -1, -1};
        const char *mid = (const char *)sqlite3_column_text(st, 0);
        const char *n = (const char *)sqlite3_column_text(st, 1);
        snprintf(k.mutant, sizeof k.mutant, "%s", mid ? mid : "");
        snprintf(k.notion, sizeof k.notion, "%s", n ? n : "");
        if (sqlite3_column_type(st, 2) != SQLITE_NULL)
            k.step = sqlite3_column_int(st, 2);
        if (sqlite3_column_type(st, 3) != SQLITE_NULL)
            k.refuses = sqlite3_column_int(st, 3);
        MF_VEC_PUSH(*kv, k);
    }
    return rc == SQLITE_DONE ? 0 : MF_ERROR;
}

int mf_export_tests(FILE *f, mf_store *s, const mf_matrix_campaign *c,
                    const mf_export_opts *o, mf_export_counts *out)
{
    sqlite3 *db = mf_store_db(s);
    sqlite3_stmt *tst = NULL, *kst = NULL;
    out_ctx x = {0};
    kill_vec kv = {0};
    int64_t suite = 0;
    int rc = 0, ntests = 0;

    memset(out, 0, sizeof *out);
    x.f = f;
    x.m = c->model;
    x.n = out;
    if (o->suite &&
        (rc = mf_export_suite_find(s, c->id, o->suite, &suite)) < 0)
        return rc;
    int full = mf_matrix_is_full(s, c->id);
    if (full < 0)
        return full;
    const char *q_all = "SELECT t.id, t.length, t.inputs, t.expected, "
                        "t.allowed, m.mutant_id FROM tests t LEFT JOIN "
                        "mutants m ON m.id = t.found_for WHERE "
                        "t.campaign_id = ?1 ORDER BY t.id";
    const char *q_suite = "SELECT t.id, t.length, t.inputs, t.expected, "
                          "t.allowed, m.mutant_id FROM suite_tests st JOIN "
                          "tests t ON t.id = st.test_id LEFT JOIN mutants m "
                          "ON m.id = t.found_for WHERE st.suite_id = ?1 "
                          "ORDER BY st.position";
    if (sqlite3_prepare_v2(db, suite ? q_suite : q_all, -1, &tst, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT m.mutant_id, k.notion, k.step, k.refuses "
                           "FROM kills k JOIN mutants m ON m.id = k.mutant "
                           "WHERE k.test_id = ?1 ORDER BY m.mutant_id",
                           -1, &kst, NULL) != SQLITE_OK) {
        rc = mf_matrix_db_fail(s, "reading the tests");
        goto cleanup;
    }
    sqlite3_bind_int64(tst, 1, suite ? suite : c->id);
    cells_build(&x);

    if (o->format == MF_EXPORT_JSON) {
        mf_buf_printf(&x.b, "{\"campaign\":%lld,\"model\":", (long long)c->id);
        mf_buf_json_str(&x.b, c->info.model);
        mf_buf_printf(&x.b, ",\"model_hash\":\"%s\",\"suite\":",
                      c->info.model_hash);
        if (o->suite)
            mf_buf_json_str(&x.b, o->suite);
        else
            mf_buf_puts(&x.b, "null");
        mf_buf_printf(&x.b, ",\"kill_matrix\":\"%s\",\"inputs\":[",
                      full ? "full" : "partial");
        for (int i = 0; i < x.in.n; i++) {
            mf_buf_puts(&x.b, i ? "," : "");
            mf_buf_json_str(&x.b, x.in.v[i].name);
        }
        mf_buf_puts(&x.b, "],\"observables\":[");
        for (int i = 0; i < x.obs.n; i++) {
            mf_buf_puts(&x.b, i ? "," : "");
            mf_buf_json_str(&x.b, x.obs.v[i].name);
        }
        mf_buf_puts(&x.b, "],\"tests\":[");
    } else
        csv_header(&x);

    while ((rc = sqlite3_step(tst)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(tst, 0);
        const char *allowed = (const char *)sqlite3_column_text(tst, 4);
        mf_test *t = NULL;
        mf_store_test_opts to = {id, 1, NULL, NULL, NULL, 0};
        rc = mf_store_test_parse(&t, c->model, sqlite3_column_int(tst, 1),
                                 (const char *)sqlite3_column_text(tst, 2),
                                 (const char *)sqlite3_column_text(tst, 3),
                                 allowed, &to);
        if (rc < 0) {
            char why[512];
            snprintf(why, sizeof why, "%s", mf_err_msg());
            rc = mf_err_set(MF_EPARSE, "store %s: %s", mf_store_path(s),
                            why);
            goto cleanup;
        }
        if (load_kills(&kv, kst, id) < 0) {
            mf_test_free(t);
            rc = mf_matrix_db_fail(s, "reading the kills");
            goto cleanup;
        }
        if (o->format == MF_EXPORT_JSON)
            json_test(&x, id, (const char *)sqlite3_column_text(tst, 5), t,
                      allowed != NULL, &kv, ntests == 0);
        else
            csv_test(&x, id, t, allowed != NULL, &kv);
        out->tests++;
        out->steps += t->length + 1;
        out->kills += kv.n;
        ntests++;
        mf_test_free(t);
        if ((rc = flush(&x)) < 0)
            goto cleanup;
    }
    if (rc != SQLITE_DONE) {
        rc = mf_matrix_db_fail(s, "reading the tests");
        goto cleanup;
    }
    rc = 0;
    if (o->format == MF_EXPORT_JSON)
        mf_buf_printf(&x.b, "%s],\"totals\":{\"tests\":%lld,\"steps\":%lld,"
                      "\"kills\":%lld}}\n", ntests ? "\n  " : "",
                      (long long)out->tests, (long long)out->steps,
                      (long long)out->kills);
    if ((rc = flush(&x)) == 0 && fflush(f) != 0)
        rc = mf_err_set(MF_EIO, "cannot write the export");
cleanup:
    sqlite3_finalize(tst);
    sqlite3_finalize(kst);
    cells_free(&x.in);
    cells_free(&x.obs);
    mf_buf_free(&x.b);
    mf_buf_free(&x.tmp);
    MF_VEC_FREE(kv);
    return rc;
}
