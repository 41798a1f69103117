/* report_junit.c - the JUnit XML report (mutfarm report --format junit),
 * for CI systems that show test results: one testsuite for the campaign,
 * one testcase per mutant to decide. A killed mutant passes; a survived,
 * unknown or error one is a failure with its reason; an equivalent one is
 * skipped with its proof method, a pending one skipped as pending.
 * Duplicate and stillborn mutants are never checked and are not listed.
 *
 * Counts in the testsuite element match the text report: tests = mutants
 * to decide, failures = survived + unknown + error, skipped = equivalent +
 * pending. */
#include "report_int.h"

#include <string.h>
#include <time.h>

typedef struct {
    FILE *out;
    const mf_report_campaign *c;
} junit_ctx;

static void attr(FILE *out, const char *name, const char *value)
{
    fprintf(out, " %s=\"", name);
    mf_report_xml_str(out, value);
    fputs("\"", out);
}

static int put_case(const mf_report_mutant *mu, void *vctx)
{
    junit_ctx *jc = vctx;
    FILE *out = jc->out;
    if (mu->status == MF_RS_DUPLICATE || mu->status == MF_RS_STILLBORN)
        return 0;
    char name[512], msg[700];
    snprintf(name, sizeof name, "%s %s %s:%d", mu->op, mu->id, jc->c->model,
             mu->line);
    fputs("    <testcase", out);
    attr(out, "name", name);
    snprintf(msg, sizeof msg, "%s.%s", jc->c->model, mu->op);
    attr(out, "classname", msg);
    fprintf(out, " time=\"%.3f\"",
            mu->solver_ms > 0 ? (double)mu->solver_ms / 1000.0 : 0.0);
    switch (mu->status) {
    case MF_RS_KILLED:
        fputs(">\n      <system-out>", out);
        snprintf(msg, sizeof msg, "killed (%s kill) by test %lld of length "
                                  "%d: %s\n",
                 mu->notion ? mu->notion : "?", (long long)mu->test_id,
                 mu->bound, mu->desc);
        mf_report_xml_str(out, msg);
        fputs("</system-out>\n    </testcase>\n", out);
        return 0;
    case MF_RS_EQUIVALENT:
        snprintf(msg, sizeof msg, "equivalent: proved by %s",
                 mu->method ? mu->method : "an unrecorded method");
        fputs(">\n      <skipped", out);
        attr(out, "message", msg);
        fputs("/>\n    </testcase>\n", out);
        return 0;
    case MF_RS_PENDING:
        fputs(">\n      <skipped message=\"pending: no verdict yet\"/>\n"
              "    </testcase>\n",
              out);
        return 0;
    case MF_RS_SURVIVED:
        if (mu->bound >= 0)
            snprintf(msg, sizeof msg,
                     "survived: no test up to length %d kills it",
                     mu->bound);
        else
            snprintf(msg, sizeof msg, "survived: no test kills it");
        break;
    default:
        snprintf(msg, sizeof msg, "%s: %s", mf_report_status_name(mu->status),
                 mu->reason ? mu->reason : "(no reason recorded)");
    }
    fputs(">\n      <failure", out);
    attr(out, "message", msg);
    attr(out, "type", mf_report_status_name(mu->status));
    fputs(">", out);
    snprintf(name, sizeof name, "%s:%d:%d: %s\n", jc->c->model, mu->line,
             mu->col, mu->desc);
    mf_report_xml_str(out, name);
    fputs("</failure>\n    </testcase>\n", out);
    return 0;
}

int mf_report_junit(FILE *out, sqlite3 *db, const mf_report_campaign *c)
{
    char suite[400], ts[32] = "1970-01-01T00:00:00", score[16];
    int64_t failures = c->survived + c->unknown + c->error;
    int64_t skipped = c->equivalent + c->pending;
    int64_t at = c->finished_ms > 0 ? c->finished_ms : c->created_ms;
    time_t t = (time_t)(at / 1000);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    mf_report_pct(score, sizeof score, mf_report_score(c));
    snprintf(suite, sizeof suite, "mutfarm campaign %lld: %s",
             (long long)c->id, c->model);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", out);
    attr(out, "name", "mutfarm");
    fprintf(out,
            " tests=\"%lld\" failures=\"%lld\" errors=\"0\" "
            "skipped=\"%lld\">\n  <testsuite",
            (long long)c->total, (long long)failures, (long long)skipped);
    attr(out, "name", suite);
    fprintf(out,
            " tests=\"%lld\" failures=\"%lld\" errors=\"0\" "
            "skipped=\"%lld\" timestamp=\"%s\">\n    <properties>\n",
            (long long)c->total, (long long)failures, (long long)skipped,
            ts);
    struct {
        const char *k, *v;
    } props[] = {
        {"model", c->model},        {"model_sha256", c->model_hash},
        {"state", c->state},        {"options", c->options},
        {"mutation_score", score},  {"mutfarm_version", c->mutfarm_version},
        {"z3_version", c->z3_version},
    };
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
        fputs("      <property", out);
        attr(out, "name", props[i].k);
        attr(out, "value", props[i].v);
        fputs("/>\n", out);
    }
    fputs("    </properties>\n", out);
    junit_ctx jc = {out, c};
    int rc = mf_report_mutants_each(db, c->id, -1, put_case, &jc);
    fputs("  </testsuite>\n</testsuites>\n", out);
    return rc;
}
