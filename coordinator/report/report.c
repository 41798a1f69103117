/* report.c - the entry points of the reports (report.h) and what every
 * format reads: the campaign with its counts, a walk over its mutants with
 * their verdicts and kills, a walk over its tests, the scores, and
 * escaping text for JSON and XML.
 *
 * It only reads the store, with plain SQL on its connection; the formats
 * themselves are report_text.c, report_json.c, report_html.c and
 * report_junit.c. */
#include "report_int.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const format_names[] = {"text", "json", "html", "junit"};

int mf_report_format_parse(mf_report_format *out, const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, format_names[i]) == 0) {
            *out = (mf_report_format)i;
            return 0;
        }
    return mf_err_set(MF_ENOTFOUND,
                      "unknown report format '%s' (text, json, html or "
                      "junit)",
                      name);
}

const char *mf_report_format_name(mf_report_format f)
{
    return (unsigned)f < 4 ? format_names[f] : "?";
}

int mf_report_viewer_present(const char **why)
{
    if (mf_report_viewer_len > 0)
        return 1;
    if (why)
        *why = mf_report_viewer_why;
    return 0;
}

const char *mf_report_viewer_version(void)
{
    return mf_report_viewer_len > 0 ? mf_report_viewer_npm_version : "";
}

int mf_report_sql_error(sqlite3 *db, const char *what)
{
    return mf_err_set(MF_ERROR, "store: %s: %s", what, sqlite3_errmsg(db));
}

/* ---- the campaign -------------------------------------------------------- */

static char *col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    if (!t)
        return NULL;
    /* Text with a NUL inside is cut there: every consumer is C strings. */
    return mf_xstrdup((const char *)t);
}

static char *col_dup0(sqlite3_stmt *st, int i)
{
    char *s = col_dup(st, i);
    return s ? s : mf_xstrdup("");
}

static int64_t col_count(sqlite3_stmt *st, int i)
{
    int64_t v = sqlite3_column_int64(st, i);
    return v < 0 ? 0 : v;
}

static const char campaign_sql[] =
    "SELECT c.id, md.name, md.hash, md.text, c.state, c.options, c.bound,"
    "       c.notion, c.operators, c.mutfarm_version, c.z3_version,"
    "       c.created_at, c.finished_at,"
    "       CASE WHEN json_valid(c.options)"
    "             AND json_type(c.options) = 'object'"
    "            THEN json(c.options) END,"
    "       CASE WHEN json_valid(c.options)"
    "             AND json_type(c.options, '$.inputs') = 'text'"
    "            THEN json_extract(c.options, '$.inputs') END,"
    "       CASE WHEN json_valid(c.options)"
    "             AND json_type(c.options, '$.observe') = 'text'"
    "            THEN json_extract(c.options, '$.observe') END,"
    "       cc.mutants, cc.total, cc.duplicate, cc.stillborn, cc.killed,"
    "       cc.equivalent, cc.survived, cc.unknown, cc.error,"
    "       (SELECT count(*) FROM tests t WHERE t.campaign_id = c.id),"
    "       (SELECT count(*) FROM kills k WHERE k.campaign_id = c.id),"
    "       (SELECT count(*) FROM kills k WHERE k.campaign_id = c.id"
    "           AND k.source = 'replay')"
    "  FROM campaigns c"
    "  JOIN models md ON md.id = c.model_id"
    "  JOIN campaign_counts cc ON cc.campaign_id = c.id"
    " WHERE c.id = ?1";

int mf_report_campaign_load(mf_report_campaign *out, sqlite3 *db, int64_t id)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    memset(out, 0, sizeof *out);
    if (id <= 0) {
        if (sqlite3_prepare_v2(db, "SELECT max(id) FROM campaigns", -1, &st,
                               NULL) != SQLITE_OK ||
            sqlite3_step(st) != SQLITE_ROW) {
            rc = mf_report_sql_error(db, "finding the newest campaign");
            goto cleanup;
        }
        if (sqlite3_column_type(st, 0) == SQLITE_NULL) {
            rc = mf_err_set(MF_ENOTFOUND, "the store holds no campaign yet");
            goto cleanup;
        }
        id = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        st = NULL;
    }
    if (sqlite3_prepare_v2(db, campaign_sql, -1, &st, NULL) != SQLITE_OK) {
        rc = mf_report_sql_error(db, "reading the campaign");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, id);
    int s = sqlite3_step(st);
    if (s == SQLITE_DONE) {
        rc = mf_err_set(MF_ENOTFOUND, "no campaign %lld in the store",
                        (long long)id);
        goto cleanup;
    }
    if (s != SQLITE_ROW) {
        rc = mf_report_sql_error(db, "reading the campaign");
        goto cleanup;
    }
    out->id = sqlite3_column_int64(st, 0);
    out->model = col_dup0(st, 1);
    out->model_hash = col_dup0(st, 2);
    const void *text = sqlite3_column_text(st, 3);
    out->text_len = text ? (size_t)sqlite3_column_bytes(st, 3) : 0;
    out->text = mf_xmalloc(out->text_len + 1);
    if (out->text_len)
        memcpy(out->text, text, out->text_len);
    out->text[out->text_len] = '\0';
    out->state = col_dup0(st, 4);
    out->options = col_dup0(st, 5);
    out->bound = sqlite3_column_int(st, 6);
    out->notion = col_dup0(st, 7);
    out->operators = col_dup0(st, 8);
    out->mutfarm_version = col_dup0(st, 9);
    out->z3_version = col_dup0(st, 10);
    out->created_ms = sqlite3_column_int64(st, 11);
    out->finished_ms = sqlite3_column_int64(st, 12);
    out->options_object = col_dup(st, 13);
    out->inputs = col_dup0(st, 14);
    out->observe = col_dup0(st, 15);
    out->mutants = col_count(st, 16);
    out->total = col_count(st, 17);
    out->duplicate = col_count(st, 18);
    out->stillborn = col_count(st, 19);
    out->killed = col_count(st, 20);
    out->equivalent = col_count(st, 21);
    out->survived = col_count(st, 22);
    out->unknown = col_count(st, 23);
    out->error = col_count(st, 24);
    out->tests = col_count(st, 25);
    out->kills = col_count(st, 26);
    out->replay_kills = col_count(st, 27);
    int64_t decided = out->killed + out->equivalent + out->survived +
                      out->unknown + out->error;
    out->pending = out->total > decided ? out->total - decided : 0;

cleanup:
    sqlite3_finalize(st);
    if (rc < 0)
        mf_report_campaign_free(out);
    return rc;
}

void mf_report_campaign_free(mf_report_campaign *c)
{
    if (!c)
        return;
    free(c->model);
    free(c->model_hash);
    free(c->text);
    free(c->state);
    free(c->options);
    free(c->options_object);
    free(c->inputs);
    free(c->observe);
    free(c->notion);
    free(c->operators);
    free(c->mutfarm_version);
    free(c->z3_version);
    memset(c, 0, sizeof *c);
}

double mf_report_score(const mf_report_campaign *c)
{
    int64_t d = c->killed + c->survived + c->unknown;
    return d ? (double)c->killed / (double)d : -1;
}

double mf_report_score_all(const mf_report_campaign *c)
{
    int64_t d = c->killed + c->equivalent + c->survived + c->unknown;
    return d ? (double)c->killed / (double)d : -1;
}

void mf_report_pct(char *buf, size_t n, double score)
{
    if (score < 0)
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * score);
}

void mf_report_time(char *buf, size_t n, int64_t ms)
{
    if (ms <= 0) {
        snprintf(buf, n, "-");
        return;
    }
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm))
        snprintf(buf, n, "-");
}

/* ---- mutants ------------------------------------------------------------- */

static const char *const status_names[] = {
    "killed",  "equivalent", "survived",  "unknown",
    "error",   "pending",    "duplicate", "stillborn",
};

const char *mf_report_status_name(mf_report_status s)
{
    return (unsigned)s < 8 ? status_names[s] : "?";
}

static const char mutants_sql[] =
    "SELECT m.mutant_id, m.operator, m.site, m.line, m.col, m.description,"
    "       m.status, m.dup_of, m.why, v.kind, v.notion, v.bound, v.method,"
    "       v.reason, v.test_id, v.solver_ms,"
    "       (SELECT group_concat(k.test_id) FROM kills k"
    "         WHERE k.mutant = m.id)"
    "  FROM mutants m LEFT JOIN verdicts v ON v.mutant = m.id"
    " WHERE m.campaign_id = ?1"
    "   AND (?2 IS NULL OR ?2 = CASE WHEN m.status <> 'ok' THEN m.status"
    "                           ELSE coalesce(v.kind, 'pending') END)"
    " ORDER BY m.id";

static int clamp_int(int64_t v)
{
    return v < -1 ? -1 : v > 1000000000 ? 1000000000 : (int)v;
}

static const char *txt(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

typedef MF_VEC(int64_t) id_vec;

/* The kill list: the verdict's test first, then the others of the
 * comma-separated list (the kills table has one row per test and
 * mutant, so the rest has no repeats). */
static void kill_list(id_vec *v, int64_t first, const char *list)
{
    v->n = 0;
    if (first > 0)
        MF_VEC_PUSH(*v, first);
    for (const char *p = list; p && *p;) {
        char *end;
        long long t = strtoll(p, &end, 10);
        if (end == p)
            break;
        if (t > 0 && t != first)
            MF_VEC_PUSH(*v, (int64_t)t);
        if (*end != ',')
            break;
        p = end + 1;
    }
}

int mf_report_mutants_each(sqlite3 *db, int64_t campaign, int status,
                           mf_report_mutant_fn fn, void *ctx)
{
    sqlite3_stmt *st = NULL;
    id_vec kills = {0};
    char why[160];
    int rc = 0, s;
    if (sqlite3_prepare_v2(db, mutants_sql, -1, &st, NULL) != SQLITE_OK) {
        rc = mf_report_sql_error(db, "reading the mutants");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, campaign);
    if (status >= 0)
        sqlite3_bind_text(st, 2, mf_report_status_name(status), -1,
                          SQLITE_STATIC);
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        mf_report_mutant mu;
        memset(&mu, 0, sizeof mu);
        mu.id = txt(st, 0) ? txt(st, 0) : "";
        mu.op = txt(st, 1) ? txt(st, 1) : "";
        mu.site = txt(st, 2) ? txt(st, 2) : "";
        mu.line = clamp_int(sqlite3_column_int64(st, 3));
        mu.col = clamp_int(sqlite3_column_int64(st, 4));
        mu.desc = txt(st, 5) ? txt(st, 5) : "";
        const char *mst = txt(st, 6) ? txt(st, 6) : "";
        mu.dup_of = txt(st, 7);
        mu.why = txt(st, 8);
        const char *kind = txt(st, 9);
        mu.notion = txt(st, 10);
        mu.bound = sqlite3_column_type(st, 11) == SQLITE_NULL
                       ? -1
                       : clamp_int(sqlite3_column_int64(st, 11));
        mu.method = txt(st, 12);
        mu.reason = txt(st, 13);
        mu.test_id = sqlite3_column_int64(st, 14);
        mu.solver_ms = sqlite3_column_type(st, 15) == SQLITE_NULL
                           ? -1
                           : sqlite3_column_int64(st, 15);
        if (strcmp(mst, "duplicate") == 0)
            mu.status = MF_RS_DUPLICATE;
        else if (strcmp(mst, "stillborn") == 0)
            mu.status = MF_RS_STILLBORN;
        else if (strcmp(mst, "ok") != 0) {
            snprintf(why, sizeof why,
                     "mutant status '%.60s' unknown to this mutfarm", mst);
            mu.status = MF_RS_ERROR;
            mu.reason = why;
        } else if (!kind)
            mu.status = MF_RS_PENDING;
        else {
            mu.status = MF_RS_ERROR;
            for (int k = 0; k < 5; k++)
                if (strcmp(kind, status_names[k]) == 0)
                    mu.status = (mf_report_status)k;
            if (mu.status == MF_RS_ERROR && strcmp(kind, "error") != 0) {
                snprintf(why, sizeof why,
                         "verdict '%.60s' unknown to this mutfarm", kind);
                mu.reason = why;
            }
        }
        kill_list(&kills, mu.status == MF_RS_KILLED ? mu.test_id : 0,
                  txt(st, 16));
        mu.kills = kills.v;
        mu.nkills = kills.n;
        rc = fn(&mu, ctx);
        if (rc)
            goto cleanup;
    }
    if (s != SQLITE_DONE)
        rc = mf_report_sql_error(db, "reading the mutants");

cleanup:
    sqlite3_finalize(st);
    MF_VEC_FREE(kills);
    return rc;
}

/* ---- tests --------------------------------------------------------------- */

int mf_report_tests_each(sqlite3 *db, int64_t campaign, mf_report_test_fn fn,
                         void *ctx)
{
    sqlite3_stmt *st = NULL;
    int rc = 0, s;
    if (sqlite3_prepare_v2(db,
                           "SELECT t.id, t.length, t.notion, t.text, t.inputs,"
                           "       (SELECT count(*) FROM kills k"
                           "         WHERE k.test_id = t.id)"
                           "  FROM tests t WHERE t.campaign_id = ?1"
                           " ORDER BY t.id",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_report_sql_error(db, "reading the tests");
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, campaign);
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        mf_report_test t;
        t.id = sqlite3_column_int64(st, 0);
        t.length = clamp_int(sqlite3_column_int64(st, 1));
        t.notion = txt(st, 2) ? txt(st, 2) : "";
        t.text = txt(st, 3);
        t.inputs = txt(st, 4) ? txt(st, 4) : "";
        t.nkills = col_count(st, 5);
        rc = fn(&t, ctx);
        if (rc)
            goto cleanup;
    }
    if (s != SQLITE_DONE)
        rc = mf_report_sql_error(db, "reading the tests");

cleanup:
    sqlite3_finalize(st);
    return rc;
}

/* ---- escaping ------------------------------------------------------------ */

/* The length of the UTF-8 sequence at s (n bytes left) and its code point,
 * or 0 if it is not well-formed (overlong, surrogate, past U+10FFFF,
 * truncated). */
static int utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    int len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xe0) == 0xc0)
        len = 2, v = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0)
        len = 3, v = c & 0x0f, min = 0x800;
    else if ((c & 0xf8) == 0xf0)
        len = 4, v = c & 0x07, min = 0x10000;
    else
        return 0;
    if ((size_t)len > n)
        return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

void mf_report_json_chars(FILE *f, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    if (n == (size_t)-1)
        n = strlen(str);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int len = utf8_next(s + i, n - i, &cp);
        if (len == 0) {
            fputs("\\ufffd", f);
            i++;
            continue;
        }
        if (cp == '"')
            fputs("\\\"", f);
        else if (cp == '\\')
            fputs("\\\\", f);
        else if (cp == '\n')
            fputs("\\n", f);
        else if (cp == '\t')
            fputs("\\t", f);
        else if (cp == '\r')
            fputs("\\r", f);
        else if (cp < 0x20 || cp == '<' || cp == '>' || cp == '&' ||
                 cp == 0x2028 || cp == 0x2029)
            fprintf(f, "\\u%04x", (unsigned)cp);
        else
            fwrite(s + i, 1, (size_t)len, f);
        i += (size_t)len;
    }
}

void mf_report_json_str(FILE *f, const char *str, size_t n)
{
    putc('"', f);
    mf_report_json_chars(f, str, n);
    putc('"', f);
}

void mf_report_xml_str(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = strlen(str);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int len = utf8_next(s + i, n - i, &cp);
        if (len == 0 || (cp < 0x20 && cp != '\t' && cp != '\n' &&
                         cp != '\r') ||
            cp == 0xfffe || cp == 0xffff) {
            fputs("\xef\xbf\xbd", f); /* U+FFFD */
            i += len ? (size_t)len : 1;
            continue;
        }
        switch (cp) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\r': fputs("&#13;", f); break;
        case '\t': fputs("&#9;", f); break;
        default: fwrite(s + i, 1, (size_t)len, f);
        }
        i += (size_t)len;
    }
}
