/* report_int.h - what the report files share and nothing outside
 * coordinator/report/ uses: the campaign as read from the store, a walk
 * over its mutants and tests, the sites of the mutants in the model text,
 * and escaping for JSON and XML.
 *
 * Rows come from plain SQL on the store's connection; a value a row
 * should not hold (an unknown verdict kind, a position outside the model
 * text) is reported or clamped, never trusted. */
#ifndef MF_REPORT_INT_H
#define MF_REPORT_INT_H

#include <stdint.h>
#include <stdio.h>

#include "report.h"

#include <sqlite3.h>

/* ---- the campaign -------------------------------------------------------- */

typedef struct {
    int64_t id;
    char *model;      /* the model's display name (file base name) */
    char *model_hash; /* SHA-256 of its canonical print */
    char *text;       /* the model's source text as stored */
    size_t text_len;
    char *state;           /* planning, running, done */
    char *options;         /* canonical JSON as stored */
    char *options_object;  /* the same if it is a JSON object, else NULL */
    char *inputs, *observe; /* from options: the --inputs/--observe lists */
    int bound;
    char *notion, *operators; /* operators: "" = all */
    char *mutfarm_version, *z3_version; /* "" when unknown */
    int64_t created_ms, finished_ms;   /* finished_ms 0: not finished */
    int64_t mutants;   /* every mutant generated */
    int64_t total;     /* to decide: neither duplicate nor stillborn */
    int64_t duplicate, stillborn;
    int64_t killed, equivalent, survived, unknown, error;
    int64_t pending;   /* total without a verdict */
    int64_t tests;     /* distinct tests */
    int64_t kills, replay_kills; /* kill matrix pairs; from replays */
} mf_report_campaign;

/* Load campaign `id` (0: the newest). MF_ENOTFOUND if absent (or none). */
int mf_report_campaign_load(mf_report_campaign *out, sqlite3 *db,
                            int64_t id);
void mf_report_campaign_free(mf_report_campaign *c);

/* killed / (killed + survived + unknown), and killed / (killed +
 * equivalent + survived + unknown); -1 when the denominator is 0. */
double mf_report_score(const mf_report_campaign *c);
double mf_report_score_all(const mf_report_campaign *c);
/* "78.2%" or "n/a" for a negative score. */
void mf_report_pct(char *buf, size_t n, double score);
/* "2026-01-02 03:04:05 UTC", or "-" for 0. */
void mf_report_time(char *buf, size_t n, int64_t ms);

/* ---- mutants and tests --------------------------------------------------- */

typedef enum {
    MF_RS_KILLED,
    MF_RS_EQUIVALENT,
    MF_RS_SURVIVED,
    MF_RS_UNKNOWN,
    MF_RS_ERROR,
    MF_RS_PENDING,
    MF_RS_DUPLICATE,
    MF_RS_STILLBORN,
} mf_report_status;

/* One mutant with its verdict. Strings live during the callback; NULL
 * where the store has none. */
typedef struct {
    const char *id;       /* 16 hex digits */
    const char *op;       /* operator name */
    const char *site;
    int line, col;        /* as stored (not checked against the text) */
    const char *desc;
    mf_report_status status;
    const char *dup_of;   /* duplicate: twin id or "original" */
    const char *why;      /* stillborn: the type error */
    const char *notion;   /* killed: deterministic, potential, definite */
    int bound;            /* killed: test length; else depth searched; -1 */
    const char *method;   /* equivalent: the proof method */
    const char *reason;   /* unknown, error (and a kind this version does
                             not know, named here) */
    int64_t test_id;      /* killed: the verdict's test, else 0 */
    int64_t solver_ms;    /* -1: not recorded */
    const int64_t *kills; /* every test the kill matrix has against it, the
                             verdict's test first */
    int nkills;
} mf_report_mutant;

typedef int (*mf_report_mutant_fn)(const mf_report_mutant *mu, void *ctx);

/* Call fn for each mutant of the campaign in planning order; `status`:
 * -1 for all, else only mutants with that status. A non-zero return of fn
 * stops the walk and is returned. */
int mf_report_mutants_each(sqlite3 *db, int64_t campaign, int status,
                           mf_report_mutant_fn fn, void *ctx);

/* "killed", "equivalent", ... */
const char *mf_report_status_name(mf_report_status s);

typedef struct {
    int64_t id;
    int length;          /* steps */
    const char *notion;  /* of the kill that found it */
    const char *text;    /* readable form; NULL if the store has none */
    const char *inputs;  /* JSON */
    int64_t nkills;      /* mutants it kills (kill matrix) */
} mf_report_test;

typedef int (*mf_report_test_fn)(const mf_report_test *t, void *ctx);

/* Each test of the campaign, by id. */
int mf_report_tests_each(sqlite3 *db, int64_t campaign,
                         mf_report_test_fn fn, void *ctx);

/* MF_ERROR with "store: WHAT: sqlite's message" (a failed query). */
int mf_report_sql_error(sqlite3 *db, const char *what);

/* ---- where each mutant sits in the model text ---------------------------- */

/* A mutant's change in the model text: the original text [start, end)
 * (end exclusive; 1-based lines and columns, columns in bytes) and what
 * the mutant has there instead. */
typedef struct {
    char id[17];
    int sline, scol, eline, ecol;
    char *repl; /* the mutated text ("" where the mutant removes it) */
    char *item; /* the mutated item as SMV ("" when removed) */
} mf_report_site;

typedef struct {
    mf_report_site *v; /* sorted by id */
    int n;
    const char *text;   /* the model text (borrowed) */
    size_t len;
    size_t *lines;      /* offset of each line start */
    int nlines;
} mf_report_sites;

/* Rebuild the mutants of the campaign from the stored model text and
 * options, and record the site of each whose id is in `want` (sorted ids,
 * nwant of them; want NULL: every mutant). Returns 0; when the stored
 * model does not load or the mutants cannot be rebuilt, 0 as well with
 * no sites and a message in *why (caller frees; NULL when all went
 * well). */
int mf_report_sites_build(mf_report_sites *out, const mf_report_campaign *c,
                          const char *const *want, int nwant, char **why);
/* The site of mutant `id`, or NULL. */
const mf_report_site *mf_report_sites_find(const mf_report_sites *s,
                                           const char *id);
/* A position as stored, clamped into the model text (line 1..nlines,
 * column 1..line length + 1); and the end of the token starting there. */
void mf_report_sites_clamp(const mf_report_sites *s, int *line, int *col);
void mf_report_sites_token_end(const mf_report_sites *s, int line, int col,
                               int *eline, int *ecol);
/* The column of a position in UTF-16 code units (what a browser counts),
 * from its column in bytes; bytes that are not UTF-8 count one each. */
int mf_report_sites_utf16_col(const mf_report_sites *s, int line, int col);
/* The original text of a span, whitespace runs (comments included) as
 * one space, at most max bytes ("..." after a cut); caller frees. */
char *mf_report_sites_slice(const mf_report_sites *s, int sline, int scol,
                            int eline, int ecol, size_t max);
void mf_report_sites_free(mf_report_sites *s);

/* ---- writing ------------------------------------------------------------- */

/* s as a JSON string with its quotes; '<', '>' and '&' escaped too (so it
 * can sit inside an HTML script element); bytes that are not UTF-8
 * become U+FFFD. n: length, or (size_t)-1 for NUL-terminated. */
void mf_report_json_str(FILE *f, const char *s, size_t n);
/* The same without the quotes (a string written in pieces). */
void mf_report_json_chars(FILE *f, const char *s, size_t n);
/* s escaped for XML text and attribute values; characters XML 1.0 cannot
 * hold and bytes that are not UTF-8 become U+FFFD. */
void mf_report_xml_str(FILE *f, const char *s);

/* The formats, each on a loaded campaign. */
int mf_report_text(FILE *out, sqlite3 *db, const mf_report_campaign *c,
                   const char *store_name, FILE *warn);
int mf_report_json(FILE *out, sqlite3 *db, const mf_report_campaign *c,
                   FILE *warn);
int mf_report_html(FILE *out, sqlite3 *db, const mf_report_campaign *c,
                   FILE *warn);
int mf_report_junit(FILE *out, sqlite3 *db,
                    const mf_report_campaign *c);

/* The viewer bundle, generated at build time (viewer.cmake): the bytes of
 * mutation-test-elements.js, or length 0 and the reason in
 * mf_report_viewer_why. */
extern const unsigned char mf_report_viewer_js[];
extern const size_t mf_report_viewer_len;
extern const char mf_report_viewer_npm_version[];
extern const char mf_report_viewer_why[];

#endif
