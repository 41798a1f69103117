/* report_html.c - the HTML report (mutfarm report --format html): one
 * self-contained page that shows the JSON report in the
 * mutation-testing-elements viewer, a web component whose JavaScript
 * bundle was fetched from npm at build time and is embedded in this
 * binary (viewer.cmake). The page needs no network and no other file.
 *
 * Above the viewer one line gives mutfarm's own score; the viewer
 * computes its own from the statuses (docs/reports.md says where the two
 * can differ). Nothing here fetches or builds the viewer. */
#include "report_int.h"

#include <ctype.h>
#include <string.h>

/* The bundle inside a script element: a "</script" in it (only possible
 * inside a string or a regular expression) would end the element, so it
 * is written as "<\/script", which means the same there. */
static void put_script(FILE *out, const unsigned char *js, size_t n)
{
    size_t from = 0;
    for (size_t i = 0; i + 8 <= n; i++) {
        if (js[i] != '<' || js[i + 1] != '/')
            continue;
        static const char tag[] = "script";
        size_t k = 0;
        while (k < 6 && tolower(js[i + 2 + k]) == tag[k])
            k++;
        if (k < 6)
            continue;
        fwrite(js + from, 1, i + 1 - from, out);
        fputs("\\", out);
        from = i + 1;
    }
    fwrite(js + from, 1, n - from, out);
}

int mf_report_html(FILE *out, sqlite3 *db, const mf_report_campaign *c,
                   FILE *warn)
{
    char score[16];
    mf_report_pct(score, sizeof score, mf_report_score(c));
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\">\n<title>mutfarm: ",
          out);
    mf_report_xml_str(out, c->model);
    fprintf(out, ", campaign %lld</title>\n", (long long)c->id);
    fputs("<style>\n"
          "body { margin: 0; font-family: system-ui, sans-serif; }\n"
          "#mutfarm-summary { padding: 0.5rem 1rem; font-size: 0.9rem;\n"
          "  border-bottom: 1px solid #8884; }\n"
          "</style>\n</head>\n<body>\n<div id=\"mutfarm-summary\">mutfarm "
          "campaign ",
          out);
    fprintf(out, "%lld of <b>", (long long)c->id);
    mf_report_xml_str(out, c->model);
    fputs("</b> (", out);
    mf_report_xml_str(out, c->state);
    fprintf(out,
            "): mutation score <b id=\"mutfarm-score\">%s</b> = killed / "
            "(killed + survived + unknown) = %lld / %lld; %lld equivalent, "
            "%lld error, %lld pending. Viewer: mutation-testing-elements "
            "%s.</div>\n",
            score, (long long)c->killed,
            (long long)(c->killed + c->survived + c->unknown),
            (long long)c->equivalent, (long long)c->error,
            (long long)c->pending, mf_report_viewer_npm_version);
    fputs("<mutation-test-report-app title-postfix=\"mutfarm\">"
          "</mutation-test-report-app>\n"
          "<script type=\"application/json\" id=\"mutfarm-report\">",
          out);
    int rc = mf_report_json(out, db, c, warn);
    if (rc < 0)
        return rc;
    fputs("</script>\n<script>\n", out);
    put_script(out, mf_report_viewer_js, mf_report_viewer_len);
    fputs("\n</script>\n<script>\n"
          "(function () {\n"
          "  var app = document.querySelector('mutation-test-report-app');\n"
          "  app.report = JSON.parse(\n"
          "      document.getElementById('mutfarm-report').textContent);\n"
          "  function theme() {\n"
          "    document.body.style.backgroundColor = "
          "app.themeBackgroundColor;\n"
          "  }\n"
          "  app.addEventListener('theme-changed', theme);\n"
          "  theme();\n"
          "})();\n"
          "</script>\n</body>\n</html>\n",
          out);
    return 0;
}
