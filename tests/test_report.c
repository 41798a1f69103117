/* test_report.c - the parts of the reports that do not need a store
 * (coordinator/report/): where a mutant sits in the model text and what it
 * puts there (report_site.c), positions clamped into the text, and the
 * JSON and XML escaping every report relies on. Reports of real stores
 * are tested end to end by tests/report_*.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutate.h"
#include "report_int.h"
#include "langs.h"
#include "smv.h"

/* A campaign over `text` as the store would give it: every operator, no
 * --inputs/--observe. */
static mf_report_campaign campaign_of(const char *name, char *text)
{
    mf_report_campaign c;
    memset(&c, 0, sizeof c);
    c.model = (char *)name;
    c.text = text;
    c.text_len = strlen(text);
    c.operators = (char *)"";
    c.inputs = (char *)"";
    c.observe = (char *)"";
    return c;
}

static int id_start(int c)
{
    return isalpha(c) || c == '_';
}

static int id_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '#' || c == '-';
}

/* Text without blanks and parentheses (the printer and the author
 * parenthesise differently), each identifier or keyword as `I`: a
 * module's text names its parameters where the flattened model, and so
 * the description, has the actual arguments. What remains is the shape:
 * operators, numbers, brackets. */
static void squash(mf_buf *out, const char *s)
{
    mf_buf_reset(out);
    mf_buf_puts(out, "");
    while (*s) {
        if (isspace((unsigned char)*s) || *s == '(' || *s == ')') {
            s++;
            continue;
        }
        if (id_start((unsigned char)*s)) {
            for (s++; id_char((unsigned char)*s) ||
                      (*s == '.' && id_start((unsigned char)s[1]));
                 s++)
                if (*s == '-' && (s[1] == '>' || s[1] == '-'))
                    break;
            mf_buf_puts(out, "I");
            continue;
        }
        mf_buf_put(out, s, 1);
        s++;
    }
}

typedef struct {
    const mf_report_sites *sites;
    const char *file;
    int checked, mismatched, located;
    mf_buf a, b;
} check_ctx;

/* Every mutant has a site inside the text, start before end; a mutant
 * described as "replace `X` with `Y`" has X as its original text. */
static int check_cb(const mf_mutant *mu, void *vctx)
{
    check_ctx *cc = vctx;
    const mf_report_site *site = mf_report_sites_find(cc->sites, mu->id);
    assert_non_null(site);
    cc->located++;
    int sl = site->sline, sc = site->scol, el = site->eline, ec = site->ecol;
    mf_report_sites_clamp(cc->sites, &sl, &sc);
    mf_report_sites_clamp(cc->sites, &el, &ec);
    assert_int_equal(sl, site->sline);
    assert_int_equal(sc, site->scol);
    assert_int_equal(el, site->eline);
    assert_int_equal(ec, site->ecol);
    assert_true(el > sl || (el == sl && ec >= sc));
    assert_non_null(site->repl);
    assert_non_null(site->item);
    /* No blank at either end: the first and the last character of the
     * span are not blanks (a slice of blanks alone is ""). */
    char *first = mf_report_sites_slice(cc->sites, sl, sc, sl, sc + 1, 8);
    char *last = ec > 1 ? mf_report_sites_slice(cc->sites, el, ec - 1, el,
                                                ec, 8)
                        : mf_xstrdup("");
    if (!first[0] || !last[0])
        fail_msg("%s: %s: a blank at an end of %d:%d-%d:%d", cc->file,
                 mu->id, sl, sc, el, ec);
    free(first);
    free(last);
    if (strncmp(mu->desc, "replace `", 9) != 0)
        return 0;
    const char *x = mu->desc + 9;
    const char *w = strstr(x, "` with `");
    if (!w)
        return 0;
    char *want = mf_xstrdup(x);
    want[w - x] = '\0';
    if (strstr(want, "...") || strstr(want, "_process_selector_")) {
        /* abbreviated, or `running` written, its meaning described */
        free(want);
        return 0;
    }
    char *orig = mf_report_sites_slice(cc->sites, sl, sc, el, ec, 100000);
    squash(&cc->a, orig);
    squash(&cc->b, want);
    cc->checked++;
    if (strcmp(cc->a.data, cc->b.data) != 0) {
        cc->mismatched++;
        if (getenv("MF_REPORT_VERBOSE"))
            printf("# %s: %s %s: text '%s', description '%s'\n", cc->file,
                   mu->id, mf_mop_name(mu->op), orig, want);
    }
    free(orig);
    free(want);
    return 0;
}

/* Sites of every mutant of the model in `path`; returns how many replace
 * mutants were compared, and adds the mismatches to *bad. -1 if the model
 * does not load (unsupported corpus models). */
static int check_model(const char *path, int *bad)
{
    char *text = NULL;
    size_t len = 0;
    if (mf_read_file(&text, &len, path, 1 << 24) != 0)
        return -1;
    mf_model *m = NULL;
    if (mf_model_load(&m, path, text, len, NULL) != 0) {
        free(text);
        return -1;
    }
    mf_report_campaign c = campaign_of(path, text);
    mf_report_sites sites;
    char *why = NULL;
    assert_int_equal(mf_report_sites_build(&sites, &c, NULL, 0, &why), 0);
    if (why)
        fail_msg("%s: %s", path, why);
    check_ctx cc;
    memset(&cc, 0, sizeof cc);
    cc.sites = &sites;
    cc.file = path;
    assert_int_equal(mf_mutants_each(m, 0, check_cb, &cc), 0);
    assert_int_equal(cc.located, sites.n);
    *bad += cc.mismatched;
    mf_buf_free(&cc.a);
    mf_buf_free(&cc.b);
    mf_report_sites_free(&sites);
    mf_model_free(m);
    free(text);
    return cc.checked;
}

static void test_report__bundled_models_sites_hold_the_described_text(
    void **state)
{
    (void)state;
    static const char *const models[] = {
        "tests/models/beverage.smv",  "tests/models/car_alarm.smv",
        "tests/models/door_lock.smv", "tests/models/collision_rfid.smv",
        "tests/models/counter_up.smv", "tests/models/scatter_case.smv",
    };
    int bad = 0, checked = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        int n = check_model(models[i], &bad);
        if (n < 0)
            fail_msg("%s does not load", models[i]);
        checked += n;
    }
    printf("# bundled: %d replace mutants, %d with other text\n", checked,
           bad);
    assert_true(checked > 500);
    assert_int_equal(bad, 0);
}

/* The shared corpus, where present: modules, arrays, DEFINEs. Fewer than
 * 1 in 100 replace mutants may sit on text other than their description
 * (a name bound to a module parameter reads as the actual argument). */
static void test_report__corpus_sites_hold_the_described_text(void **state)
{
    (void)state;
    const char *root = getenv("MF_SHARED_MODELS");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/corpus",
             root && *root ? root : "../shared/models");
    DIR *d = opendir(dir);
    if (!d) {
        printf("# skipped: no corpus at %s\n", dir);
        skip();
    }
    int bad = 0, checked = 0, models = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".smv") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int k = check_model(path, &bad);
        if (k >= 0)
            checked += k, models++;
    }
    closedir(d);
    printf("# corpus: %d models, %d replace mutants, %d with other text\n",
           models, checked, bad);
    assert_true(checked > 0);
    assert_true(bad * 100 <= checked);
}

/* The kinds of change: a branch removed (with its `;`), branches swapped
 * (from the first changed to the last), an item removed (to its `;`), a
 * case replaced whole (from `case` to `esac`). */
static void test_report__removals_and_swaps_span_their_text(void **state)
{
    (void)state;
    char text[] = "MODULE main\n"
                  "VAR\n"
                  "  x : 0..3;\n"
                  "  b : boolean;\n"
                  "ASSIGN\n"
                  "  init(x) := 0;\n"
                  "  next(x) := case\n"
                  "      b & x < 3 : x + 1; -- count\n"
                  "      TRUE      : (x);\n"
                  "    esac;\n";
    mf_report_campaign c = campaign_of("t.smv", text);
    mf_report_sites s;
    char *why = NULL;
    assert_int_equal(mf_report_sites_build(&s, &c, NULL, 0, &why), 0);
    assert_null(why);
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "t.smv", text, strlen(text), NULL), 0);
    int seen = 0;
    for (int i = 0; i < s.n; i++) {
        const mf_report_site *site = &s.v[i];
        char *orig = mf_report_sites_slice(&s, site->sline, site->scol,
                                           site->eline, site->ecol, 1000);
        mf_mutant *mu = NULL;
        assert_int_equal(mf_mutant_find(&mu, m, site->id), 0);
        if (mu->op == MF_MOP_CASE_REMOVE && strstr(mu->site, "/b1")) {
            assert_string_equal(orig, "b & x < 3 : x + 1;");
            assert_string_equal(site->repl, "");
            seen |= 1;
        } else if (mu->op == MF_MOP_CASE_SWAP) {
            assert_string_equal(orig, "b & x < 3 : x + 1; TRUE : (x)");
            assert_string_equal(site->repl, "TRUE : x; b & x < 3 : x + 1");
            seen |= 2;
        } else if (mu->op == MF_MOP_ASSIGN_REMOVE) {
            assert_string_equal(orig, "next(x) := case b & x < 3 : x + 1; "
                                      "TRUE : (x); esac;");
            assert_string_equal(site->repl, "");
            assert_string_equal(site->item, "");
            seen |= 4;
        } else if (mu->op == MF_MOP_INIT_REMOVE) {
            assert_string_equal(orig, "init(x) := 0;");
            seen |= 8;
        } else if (mu->op == MF_MOP_NUMBER_REPLACE &&
                   strcmp(mu->site, "next(x)/b1.v.r") == 0 &&
                   strcmp(mu->repl, "2") == 0) {
            assert_string_equal(orig, "1");
            assert_string_equal(site->repl, "2");
            assert_non_null(strstr(site->item, "x + 2"));
            seen |= 16;
        }
        mf_mutant_free(mu);
        free(orig);
    }
    assert_int_equal(seen, 31);
    mf_model_free(m);
    mf_report_sites_free(&s);
}

/* A stored model that no longer loads: no sites, a reason, no crash; and
 * positions from the store outside the text are clamped into it. */
static void test_report__bad_model_text_and_positions_are_survived(
    void **state)
{
    (void)state;
    char text[] = "MODULE main VAR x : boolean; ASSIGN next(x) := ;\n";
    mf_report_campaign c = campaign_of("bad.smv", text);
    mf_report_sites s;
    char *why = NULL;
    assert_int_equal(mf_report_sites_build(&s, &c, NULL, 0, &why), 0);
    assert_non_null(why);
    assert_non_null(strstr(why, "no longer loads"));
    assert_int_equal(s.n, 0);
    assert_null(mf_report_sites_find(&s, "0123456789abcdef"));
    int line = 99, col = -4, el, ec;
    mf_report_sites_clamp(&s, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, (int)strlen(text)); /* past the last character */
    line = 1, col = 13;
    mf_report_sites_token_end(&s, line, col, &el, &ec);
    assert_int_equal(el, 1);
    assert_int_equal(ec, 16); /* "VAR x": the token `VAR` */
    line = 0, col = 0;
    mf_report_sites_clamp(&s, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    free(why);
    mf_report_sites_free(&s);

    char empty[] = "";
    c = campaign_of("empty.smv", empty);
    assert_int_equal(mf_report_sites_build(&s, &c, NULL, 0, &why), 0);
    line = 5, col = 5;
    mf_report_sites_clamp(&s, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    free(why);
    mf_report_sites_free(&s);
}

/* A browser counts columns in UTF-16 units, the store in bytes. */
static void test_report__columns_count_utf16_units(void **state)
{
    (void)state;
    char text[] = "-- \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 x\n\xff y\n";
    mf_report_campaign c = campaign_of("u.smv", text);
    mf_report_sites s;
    char *why = NULL;
    mf_report_sites_build(&s, &c, NULL, 0, &why);
    /* "-- " 3, "été" 3 units in 5 bytes, " " 1, the emoji 2 in 4 bytes */
    assert_int_equal(mf_report_sites_utf16_col(&s, 1, 1 + 3 + 5 + 1 + 4),
                     1 + 3 + 3 + 1 + 2);
    assert_int_equal(mf_report_sites_utf16_col(&s, 2, 3), 3);
    free(why);
    mf_report_sites_free(&s);
}

static char *capture_json(const char *s, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    mf_report_json_str(f, s, n);
    fclose(f);
    return buf;
}

static void test_report__json_strings_are_valid_and_script_safe(void **state)
{
    (void)state;
    char *j = capture_json("a\"b\\c\n\t</script>&\x01", (size_t)-1);
    assert_string_equal(j, "\"a\\\"b\\\\c\\n\\t\\u003c/script\\u003e\\u0026"
                           "\\u0001\"");
    free(j);
    /* Not UTF-8 (a stray byte, an overlong, a surrogate, a cut sequence):
     * U+FFFD per bad byte; good multi-byte characters pass as they are. */
    j = capture_json("\xff" "a\xc0\xaf" "\xed\xa0\x80" "\xc3\xa9" "\xe2\x82",
                     (size_t)-1);
    assert_string_equal(j, "\"\\ufffda\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"
                           "\xc3\xa9\\ufffd\\ufffd\"");
    free(j);
    /* A NUL inside a counted string is data. */
    j = capture_json("a\0b", 3);
    assert_string_equal(j, "\"a\\u0000b\"");
    free(j);
}

static void test_report__xml_text_is_escaped_and_valid(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mf_report_xml_str(f, "<a b=\"c\" & 'd'>\x01\xff\n\xc3\xa9");
    fclose(f);
    assert_string_equal(buf, "&lt;a b=&quot;c&quot; &amp; &apos;d&apos;&gt;"
                             "\xef\xbf\xbd\xef\xbf\xbd&#10;\xc3\xa9");
    free(buf);
}

static void test_report__formats_and_scores(void **state)
{
    (void)state;
    mf_report_format f;
    assert_int_equal(mf_report_format_parse(&f, "junit"), 0);
    assert_int_equal(f, MF_REPORT_JUNIT);
    assert_string_equal(mf_report_format_name(f), "junit");
    assert_int_equal(mf_report_format_parse(&f, "pdf"), MF_ENOTFOUND);
    assert_non_null(strstr(mf_err_msg(), "'pdf'"));

    mf_report_campaign c;
    memset(&c, 0, sizeof c);
    char buf[16];
    c.equivalent = 4; /* every mutant equivalent: nothing to score */
    assert_true(mf_report_score(&c) < 0);
    mf_report_pct(buf, sizeof buf, mf_report_score(&c));
    assert_string_equal(buf, "n/a");
    mf_report_pct(buf, sizeof buf, mf_report_score_all(&c));
    assert_string_equal(buf, "0.0%");
    c.killed = 79, c.survived = 22, c.equivalent = 6, c.error = 3;
    mf_report_pct(buf, sizeof buf, mf_report_score(&c));
    assert_string_equal(buf, "78.2%"); /* 79 / 101 */
    mf_report_pct(buf, sizeof buf, mf_report_score_all(&c));
    assert_string_equal(buf, "73.8%"); /* 79 / 107 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_report__bundled_models_sites_hold_the_described_text),
        cmocka_unit_test(test_report__corpus_sites_hold_the_described_text),
        cmocka_unit_test(test_report__removals_and_swaps_span_their_text),
        cmocka_unit_test(
            test_report__bad_model_text_and_positions_are_survived),
        cmocka_unit_test(test_report__columns_count_utf16_units),
        cmocka_unit_test(test_report__json_strings_are_valid_and_script_safe),
        cmocka_unit_test(test_report__xml_text_is_escaped_and_valid),
        cmocka_unit_test(test_report__formats_and_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
