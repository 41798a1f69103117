/* report.h - `mutfarm report`: what a campaign in the store comes to, as
 * text for a person, JSON in the mutation-testing-elements report schema,
 * one self-contained HTML page built on that project's viewer, or JUnit
 * XML for CI; and the score history of the models in a store
 * (docs/reports.md).
 *
 * Everything here reads the store (plain SQL on mf_store_db()) and the
 * model text it keeps; nothing writes to it. The kill matrix itself,
 * minimisation and exporting tests are not here (matrix*, minimize*,
 * export* in this folder). */
#ifndef MF_REPORT_H
#define MF_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "store.h"

typedef enum {
    MF_REPORT_TEXT,
    MF_REPORT_JSON,
    MF_REPORT_HTML,
    MF_REPORT_JUNIT,
} mf_report_format;

/* "text", "json", "html" or "junit" into *out; MF_ENOTFOUND with a
 * message listing the formats otherwise. */
int mf_report_format_parse(mf_report_format *out, const char *name);
const char *mf_report_format_name(mf_report_format f);

/* 1 if this binary carries the HTML viewer (mutation-testing-elements,
 * embedded at build time); 0 if not, and *why (may be NULL) says why, as
 * the build recorded it. */
int mf_report_viewer_present(const char **why);
/* The embedded viewer's npm version ("" when absent). */
const char *mf_report_viewer_version(void);

/* Write the report of campaign `campaign` in s to out, in format fmt.
 * `store_name` names the store in the text report (may be NULL).
 * Returns 0; MF_ENOTFOUND if there is no such campaign; MF_EUNSUPPORTED
 * for html from a binary without the viewer; MF_ERROR when a query fails
 * or the store holds what this version cannot read; MF_EIO when writing
 * fails. The message names what went wrong. Problems that only make the
 * report poorer (the stored model text no longer loads, so mutated texts
 * and end positions are estimated) are written as lines to `warn` (may be
 * NULL) and do not fail. */
int mf_report_write(FILE *out, mf_store *s, int64_t campaign,
                    mf_report_format fmt, const char *store_name, FILE *warn);

/* The score trend from score_history: one line per finished campaign,
 * grouped by model, oldest first. campaign > 0: only the model of that
 * campaign (MF_ENOTFOUND if absent). Same returns as mf_report_write. */
int mf_report_history(FILE *out, mf_store *s, int64_t campaign);

#endif
