/* report_write.c - one report of a campaign in the format asked for: loads
 * the campaign's summary and hands it to the writer of that format
 * (report_text.c, report_json.c, report_html.c, report_junit.c). It
 * formats nothing itself. */
#include "report_int.h"

static int finish_output(FILE *out, int rc)
{
    if (fflush(out) != 0 || ferror(out))
        return rc < 0 ? rc : mf_err_set(MF_EIO, "cannot write the report");
    return rc;
}

int mf_report_write(FILE *out, mf_store *s, int64_t campaign,
                    mf_report_format fmt, const char *store_name, FILE *warn)
{
    sqlite3 *db = mf_store_db(s);
    mf_report_campaign c;
    const char *why = NULL;
    if (fmt == MF_REPORT_HTML && !mf_report_viewer_present(&why))
        return mf_err_set(MF_EUNSUPPORTED,
                          "this mutfarm was built without the HTML viewer "
                          "(%s); use --format json, or rebuild with npm "
                          "installed and the npm registry reachable",
                          why);
    int rc = mf_report_campaign_load(&c, db, campaign);
    if (rc < 0)
        return rc;
    switch (fmt) {
    case MF_REPORT_TEXT:
        rc = mf_report_text(out, db, &c, store_name, warn);
        break;
    case MF_REPORT_JSON: rc = mf_report_json(out, db, &c, warn); break;
    case MF_REPORT_HTML: rc = mf_report_html(out, db, &c, warn); break;
    case MF_REPORT_JUNIT: rc = mf_report_junit(out, db, &c); break;
    default: rc = mf_err_set(MF_ERROR, "unknown report format");
    }
    mf_report_campaign_free(&c);
    return finish_output(out, rc);
}
