/* report_json.c - the JSON report (mutfarm report --format json): the
 * campaign in the mutation-testing-elements report schema, version 2
 * (npm package mutation-testing-report-schema), so that the viewers and
 * dashboards of that ecosystem show it (docs/reports.md).
 *
 * One file entry, the model, keyed by its name and holding its stored
 * source text; one mutant entry per generated mutant with its status
 * mapped onto the schema's (killed -> Killed, survived -> Survived,
 * equivalent -> Ignored, unknown -> Timeout, error -> RuntimeError,
 * stillborn -> CompileError, duplicate -> Ignored, pending -> Pending);
 * one test file entry holding the campaign's tests. Positions are 1-based,
 * columns in UTF-16 code units as the viewer counts them. Written as a
 * stream; only the mutants' sites are held in memory. */
#include "report_int.h"

#include <stdlib.h>
#include <string.h>

#ifndef MF_VERSION
#define MF_VERSION "unknown"
#endif

typedef struct {
    FILE *out;
    const mf_report_sites *sites;
    int first; /* no mutant written yet */
} json_ctx;

static const char *schema_status(mf_report_status s)
{
    switch (s) {
    case MF_RS_KILLED: return "Killed";
    case MF_RS_SURVIVED: return "Survived";
    case MF_RS_EQUIVALENT: return "Ignored";
    case MF_RS_UNKNOWN: return "Timeout";
    case MF_RS_ERROR: return "RuntimeError";
    case MF_RS_STILLBORN: return "CompileError";
    case MF_RS_DUPLICATE: return "Ignored";
    case MF_RS_PENDING: return "Pending";
    }
    return "Pending";
}

static void status_reason(mf_buf *b, const mf_report_mutant *mu)
{
    switch (mu->status) {
    case MF_RS_KILLED:
        mf_buf_printf(b, "killed (%s kill)", mu->notion ? mu->notion : "?");
        if (mu->test_id > 0)
            mf_buf_printf(b, " by test %lld of length %d",
                          (long long)mu->test_id, mu->bound);
        break;
    case MF_RS_EQUIVALENT:
        mf_buf_printf(b, "equivalent: proved by %s",
                      mu->method ? mu->method : "an unrecorded method");
        break;
    case MF_RS_SURVIVED:
        if (mu->bound >= 0)
            mf_buf_printf(b, "survived: no test up to length %d kills it",
                          mu->bound);
        else
            mf_buf_puts(b, "survived: no test up to the bound kills it");
        break;
    case MF_RS_UNKNOWN:
        mf_buf_printf(b, "unknown: %s", mu->reason ? mu->reason : "?");
        break;
    case MF_RS_ERROR:
        mf_buf_printf(b, "error: %s", mu->reason ? mu->reason : "?");
        break;
    case MF_RS_STILLBORN:
        mf_buf_printf(b, "stillborn: %s",
                      mu->why ? mu->why : "the mutant does not type check");
        break;
    case MF_RS_DUPLICATE:
        if (!mu->dup_of || strcmp(mu->dup_of, "original") == 0)
            mf_buf_puts(b, "duplicate of the original model (the mutation "
                           "changes nothing): not checked");
        else
            mf_buf_printf(b, "duplicate of %s: not checked", mu->dup_of);
        break;
    case MF_RS_PENDING: mf_buf_puts(b, "pending: no verdict yet"); break;
    }
}

static void put_pos(FILE *out, const mf_report_sites *s, int line, int col)
{
    fprintf(out, "{\"line\":%d,\"column\":%d}", line,
            mf_report_sites_utf16_col(s, line, col));
}

static void put_ids(FILE *out, const char *key, const int64_t *v, int n)
{
    fprintf(out, ",\"%s\":[", key);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s\"%lld\"", i ? "," : "", (long long)v[i]);
    fputs("]", out);
}

static int put_mutant(const mf_report_mutant *mu, void *vctx)
{
    json_ctx *jc = vctx;
    FILE *out = jc->out;
    const mf_report_site *site = mf_report_sites_find(jc->sites, mu->id);
    int sl = mu->line, sc = mu->col, el, ec;
    if (site) {
        sl = site->sline, sc = site->scol;
        el = site->eline, ec = site->ecol;
    } else {
        mf_report_sites_clamp(jc->sites, &sl, &sc);
        mf_report_sites_token_end(jc->sites, sl, sc, &el, &ec);
    }
    if (el < sl || (el == sl && ec < sc))
        el = sl, ec = sc;
    fputs(jc->first ? "\n" : ",\n", out);
    jc->first = 0;
    fputs("{\"id\":", out);
    mf_report_json_str(out, mu->id, (size_t)-1);
    fputs(",\"mutatorName\":", out);
    mf_report_json_str(out, mu->op, (size_t)-1);
    fputs(",\"description\":", out);
    mf_report_json_str(out, mu->desc, (size_t)-1);
    fputs(",\"location\":{\"start\":", out);
    put_pos(out, jc->sites, sl, sc);
    fputs(",\"end\":", out);
    put_pos(out, jc->sites, el, ec);
    fputs("}", out);
    if (site) {
        fputs(",\"replacement\":", out);
        mf_report_json_str(out, site->repl, (size_t)-1);
    }
    fprintf(out, ",\"status\":\"%s\"", schema_status(mu->status));
    mf_buf reason = {0};
    status_reason(&reason, mu);
    fputs(",\"statusReason\":", out);
    mf_report_json_str(out, reason.data ? reason.data : "", (size_t)-1);
    mf_buf_free(&reason);
    if (mu->status == MF_RS_KILLED)
        put_ids(out, "killedBy", mu->kills, mu->nkills);
    if (mu->nkills > 0)
        put_ids(out, "coveredBy", mu->kills, mu->nkills);
    if (mu->solver_ms >= 0)
        fprintf(out, ",\"duration\":%lld", (long long)mu->solver_ms);
    fputs("}", out);
    return 0;
}

/* The tests as one text, the test file's source (first pass), and their
 * definitions, each located at its header line there (second pass). */
typedef struct {
    FILE *out;
    int source; /* 1: writing the source, 0: the definitions */
    int line;   /* the line the next test's header is on */
    int n;
} tests_ctx;

static int put_test(const mf_report_test *t, void *vctx)
{
    tests_ctx *tc = vctx;
    char name[160];
    snprintf(name, sizeof name, "test %lld: %d step%s, %s kill",
             (long long)t->id, t->length, t->length == 1 ? "" : "s",
             t->notion[0] ? t->notion : "?");
    const char *body = t->text ? t->text : t->inputs;
    size_t blen = strlen(body);
    int nl = blen && body[blen - 1] != '\n';
    if (tc->source) {
        char kills[64];
        snprintf(kills, sizeof kills, "; kills %lld mutant%s\n",
                 (long long)t->nkills, t->nkills == 1 ? "" : "s");
        mf_report_json_chars(tc->out, "-- ", 3);
        mf_report_json_chars(tc->out, name, (size_t)-1);
        mf_report_json_chars(tc->out, kills, (size_t)-1);
        mf_report_json_chars(tc->out, body, blen);
        mf_report_json_chars(tc->out, nl ? "\n\n" : "\n", (size_t)-1);
    } else {
        fprintf(tc->out, "%s{\"id\":\"%lld\",\"name\":", tc->n ? "," : "",
                (long long)t->id);
        mf_report_json_str(tc->out, name, (size_t)-1);
        fprintf(tc->out, ",\"location\":{\"start\":{\"line\":%d,"
                         "\"column\":1}}}",
                tc->line);
    }
    tc->n++;
    int lines = 1; /* the header */
    for (size_t i = 0; i < blen; i++)
        lines += body[i] == '\n';
    tc->line += lines + nl + 1;
    return 0;
}

/* The options (already JSON, normalised by SQLite) with '<', '>' and '&'
 * escaped, which only occur inside its strings. */
static void put_config(FILE *out, const char *json)
{
    for (const char *p = json; *p; p++) {
        if (*p == '<' || *p == '>' || *p == '&')
            fprintf(out, "\\u%04x", (unsigned)(unsigned char)*p);
        else
            putc(*p, out);
    }
}

int mf_report_json(FILE *out, sqlite3 *db, const mf_report_campaign *c,
                   FILE *warn)
{
    mf_report_sites sites;
    char *why = NULL;
    int rc;
    mf_report_sites_build(&sites, c, NULL, 0, &why);
    if (why && warn)
        fprintf(warn, "mutfarm report: %s: mutants are located at their "
                      "start only, without their mutated text\n",
                why);

    fputs("{\"schemaVersion\":\"2\",\"thresholds\":{\"high\":80,\"low\":60}",
          out);
    fputs(",\"framework\":{\"name\":\"mutfarm\",\"version\":", out);
    mf_report_json_str(out, c->mutfarm_version[0] ? c->mutfarm_version
                                                  : MF_VERSION,
                       (size_t)-1);
    if (c->z3_version[0]) {
        fputs(",\"dependencies\":{\"z3\":", out);
        mf_report_json_str(out, c->z3_version, (size_t)-1);
        fputs("}", out);
    }
    fputs("}", out);
    if (c->options_object) {
        fputs(",\"config\":", out);
        put_config(out, c->options_object);
    }
    fputs(",\n\"files\":{", out);
    mf_report_json_str(out, c->model, (size_t)-1);
    fputs(":{\"language\":\"smv\",\"source\":", out);
    mf_report_json_str(out, c->text, c->text_len);
    fputs(",\"mutants\":[", out);
    json_ctx jc = {out, &sites, 1};
    rc = mf_report_mutants_each(db, c->id, -1, put_mutant, &jc);
    if (rc < 0)
        goto cleanup;
    fputs("\n]}},\n\"testFiles\":{", out);
    char key[300];
    snprintf(key, sizeof key, "%s.tests", c->model);
    mf_report_json_str(out, key, (size_t)-1);
    fputs(":{\"source\":\"", out);
    tests_ctx tc = {out, 1, 1, 0};
    rc = mf_report_tests_each(db, c->id, put_test, &tc);
    if (rc < 0)
        goto cleanup;
    fputs("\",\"tests\":[", out);
    tests_ctx td = {out, 0, 1, 0};
    rc = mf_report_tests_each(db, c->id, put_test, &td);
    fputs("]}}}\n", out);

cleanup:
    mf_report_sites_free(&sites);
    free(why);
    return rc;
}
