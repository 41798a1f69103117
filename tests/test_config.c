/* test_config.c - the farm's configuration (config/config.h):
 * built-in defaults equal to config/mutfarm.conf, loading and overriding,
 * and a clear "file:line:" error for each kind of bad config. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "engine.h"

/* The configuration as INI text, to compare two configs field by field. */
static char *printed(const mf_config *c)
{
    mf_buf b = {0};
    mf_config_print(&b, c);
    return b.data;
}

static void test_config__defaults_are_the_engine_and_farm_defaults(void **state)
{
    mf_config c;
    mf_engine_opts eo, from;
    (void)state;
    mf_config_default(&c);
    mf_engine_opts_default(&eo);
    assert_int_equal(c.bound, eo.bound);
    assert_int_equal(c.notion, eo.notion);
    assert_int_equal(c.timeout_ms, eo.timeout_ms);
    assert_int_equal(c.rlimit, eo.rlimit);
    assert_int_equal(c.prove, eo.prove);
    assert_int_equal(c.cegis_max, eo.cegis_max);
    assert_int_equal(c.heartbeat_ms, 1000);
    assert_int_equal(c.liveness, 3);
    assert_int_equal(c.max_attempts, 3);
    assert_true(c.job_min <= c.job_max);
    assert_string_equal(c.operators, "");
    assert_string_equal(c.db, "mutfarm.db");
    assert_string_equal(c.bind, "tcp://*:5555");
    assert_int_equal(c.curve, 0);
    assert_int_equal(mf_config_validate(&c), 0);
    mf_config_engine_opts(&c, &from);
    assert_int_equal(from.bound, eo.bound);
    assert_int_equal(from.timeout_ms, eo.timeout_ms);
    assert_int_equal(from.engine, eo.engine);
}

/* The shipped file documents the defaults: loading it changes nothing. */
static void test_config__shipped_file_equals_the_defaults(void **state)
{
    mf_config d, c;
    (void)state;
    mf_config_default(&d);
    mf_config_default(&c);
    c.bound = 99; /* the file sets it back */
    if (mf_config_load(&c, "config/mutfarm.conf") < 0)
        fail_msg("%s", mf_err_msg());
    char *a = printed(&d), *b = printed(&c);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void test_config__file_values_and_flag_overrides(void **state)
{
    mf_config c;
    (void)state;
    mf_config_default(&c);
    const char *text = "; a comment\n"
                       "# another\n"
                       "[campaign]\n"
                       "bound = 7\n"
                       "notion = definite   ; inline comment\n"
                       "operators = negate, rel-op\n"
                       "observe = out,level\n"
                       "[engine]\n"
                       "rlimit = 4000000000\n"
                       "prove = off\n"
                       "engine = quantified\n"
                       "method = bdd\n"
                       "[farm]\n"
                       "job_min = 2\n"
                       "job_max = 2\n"
                       "[security]\n"
                       "curve = YES\n";
    if (mf_config_load_string(&c, "t.conf", text) < 0)
        fail_msg("%s", mf_err_msg());
    assert_int_equal(c.bound, 7);
    assert_int_equal(c.notion, MF_REQ_DEFINITE);
    assert_string_equal(c.operators, "negate, rel-op");
    assert_string_equal(c.observe, "out,level");
    assert_int_equal(c.rlimit, 4000000000u);
    assert_int_equal(c.prove, 0);
    assert_int_equal(c.engine, MF_ENGINE_QUANTIFIED);
    assert_int_equal(c.method, MF_METHOD_BDD);
    mf_engine_opts eo;
    mf_config_engine_opts(&c, &eo);
    assert_int_equal(eo.method, MF_METHOD_BDD);
    assert_int_equal(c.job_max, 2);
    assert_int_equal(c.curve, 1);
    assert_int_equal(c.heartbeat_ms, 1000); /* untouched keys keep theirs */

    /* A command's flags come last and win. */
    assert_int_equal(mf_config_set(&c, "campaign", "bound", "12"), 0);
    assert_int_equal(mf_config_set(&c, "coordinator", "db", "x.db"), 0);
    assert_int_equal(c.bound, 12);
    assert_string_equal(c.db, "x.db");

    /* Printing and loading again gives the same configuration. */
    char *a = printed(&c);
    mf_config d;
    mf_config_default(&d);
    if (mf_config_load_string(&d, "printed", a) < 0)
        fail_msg("%s", mf_err_msg());
    char *b = printed(&d);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Load `text`; expect failure `code` with a message containing `want`, and
 * the config unchanged. */
static void bad(const char *text, int code, const char *want)
{
    mf_config c, before;
    mf_config_default(&c);
    mf_config_default(&before);
    int rc = mf_config_load_string(&c, "bad.conf", text);
    if (rc != code || !strstr(mf_err_msg(), want))
        fail_msg("for %s: got %d '%s', want %d '%s'", text, rc, mf_err_msg(),
                 code, want);
    char *a = printed(&c), *b = printed(&before);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void test_config__bad_configs_name_file_and_line(void **state)
{
    (void)state;
    bad("[farm]\nheartbeat_ms = 5\n\nlease = 3\n", MF_EPARSE,
        "bad.conf:2: bad value '5' for [farm] heartbeat_ms: a whole number "
        "10..3600000");
    bad("[farm]\nlease = 3\n", MF_ENOTFOUND,
        "bad.conf:2: unknown key 'lease' in [farm]");
    bad("[farms]\nlease_ms = 3\n", MF_ENOTFOUND,
        "bad.conf:2: unknown section [farms]");
    bad("bound = 3\n", MF_ENOTFOUND,
        "bad.conf:1: key 'bound' outside any [section]");
    bad("[campaign]\nbound = 10k\n", MF_EPARSE, "bad.conf:2: bad value '10k'");
    bad("[campaign]\nbound = 0x10\n", MF_EPARSE, "bad value '0x10'");
    bad("[campaign]\nbound = -1\n", MF_EPARSE, "0..10000");
    bad("[campaign]\nbound = 99999999999999999999\n", MF_EPARSE, "bad value");
    bad("[campaign]\nbound =\n", MF_EPARSE, "bad value '' for [campaign]");
    bad("[campaign]\nnotion = sure\n", MF_EPARSE,
        "one of auto, potential, definite");
    bad("[engine]\nprove = maybe\n", MF_EPARSE, "on or off");
    bad("[engine]\nmode = lazy\n", MF_EPARSE, "one of batch, fresh");
    bad("[engine]\nmethod = fast\n", MF_EPARSE,
        "one of auto, smt, bdd, explicit");
    bad("[campaign]\noperators = negate,frobnicate\n", MF_EPARSE,
        "unknown mutation operator 'frobnicate'");
    bad("[coordinator]\ndb =\n", MF_EPARSE, "must not be empty");
    bad("[campaign]\nbound = 3\nbound = 4\n", MF_EPARSE,
        "bad.conf:3: [campaign] bound is set twice (first on line 2)");
    bad("[campaign]\nthis is not a key\n", MF_EPARSE,
        "bad.conf:2: expected 'key = value'");
    bad("[campaign\nbound = 3\n", MF_EPARSE, "bad.conf:1: expected");
    bad("[farm]\njob_min = 10\njob_max = 5\n", MF_EPARSE,
        "bad.conf: [farm] job_min (10) is larger than job_max (5)");
    bad("[worker]\nreconnect_ms = 5000\nreconnect_max_ms = 100\n", MF_EPARSE,
        "reconnect_ms (5000) is larger");

    /* A value longer than its field (from a flag: a file line is shorter),
     * and a line longer than inih's. */
    char text[2200];
    mf_config c;
    mf_config_default(&c);
    memset(text, 'x', 300);
    text[300] = '\0';
    assert_int_equal(mf_config_set(&c, "coordinator", "bind", text), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "bind: at most 255 characters"));
    assert_string_equal(c.bind, "tcp://*:5555");
    int n = snprintf(text, sizeof text, "[coordinator]\ndb = ");
    memset(text + n, 'y', 2000);
    snprintf(text + n + 2000, sizeof text - (size_t)n - 2000,
             "\n[campaign]\nbound = 3\n");
    bad(text, MF_EPARSE, "bad.conf:2: line too long");
}

static void test_config__first_error_wins_and_setter_checks(void **state)
{
    mf_config c;
    (void)state;
    bad("[campaign]\nnope = 1\n[farm]\nliveness = 0\n", MF_ENOTFOUND,
        "bad.conf:2: unknown key 'nope'");
    bad("[campaign]\n!!\nnope = 1\n", MF_EPARSE, "bad.conf:2:");
    mf_config_default(&c);
    int bound = c.bound;
    assert_int_equal(mf_config_set(&c, "campaign", "bound", "x"), MF_EPARSE);
    assert_int_equal(c.bound, bound);
    assert_int_equal(mf_config_set(&c, "run", "nope", "1"), MF_ENOTFOUND);
    assert_string_equal(mf_err_msg(), "unknown key 'nope' in [run]");
    assert_int_equal(mf_config_set(&c, "campaign", "operators", ""), 0);
}

static void test_config__missing_file_is_an_io_error(void **state)
{
    mf_config c;
    (void)state;
    mf_config_default(&c);
    c.bound = 5;
    assert_int_equal(mf_config_load(&c, "/nonexistent/mutfarm.conf"), MF_EIO);
    assert_non_null(strstr(mf_err_msg(), "/nonexistent/mutfarm.conf"));
    assert_int_equal(c.bound, 5);
}

/* Config files are outside input: random INI-like text never crashes the
 * loader, and a failure always names the file and leaves *c alone. (The
 * fuzz target proper would need the config objects in the fuzz build.) */
static void test_config__random_text_is_refused_cleanly(void **state)
{
    static const char alphabet[] = "[]=;#:\n\n  \tabcfmnort_01925-xK\xef\xbb";
    static const char *const words[] = {
        "[campaign]", "[farm]", "bound", "job_max",    "= ",
        "on",         "\n",     "99999", "[security]", "curve"};
    char text[512];
    unsigned seed = 12345;
    (void)state;
    for (int iter = 0; iter < 3000; iter++) {
        size_t n = 0;
        while (n < sizeof text - 16) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) & 0x7fff;
            if (r % 7 == 0)
                break;
            const char *w = words[r % 10];
            if (r % 3 == 0) {
                size_t l = strlen(w);
                memcpy(text + n, w, l);
                n += l;
            } else {
                text[n++] = alphabet[r % (sizeof alphabet - 1)];
            }
        }
        text[n] = '\0';
        mf_config c, before;
        mf_config_default(&c);
        before = c;
        int rc = mf_config_load_string(&c, "fuzz.conf", text);
        if (rc < 0) {
            assert_non_null(strstr(mf_err_msg(), "fuzz.conf"));
            assert_memory_equal(&c, &before, sizeof c);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(mf_config_validate(&c), 0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_config__defaults_are_the_engine_and_farm_defaults),
        cmocka_unit_test(test_config__shipped_file_equals_the_defaults),
        cmocka_unit_test(test_config__file_values_and_flag_overrides),
        cmocka_unit_test(test_config__bad_configs_name_file_and_line),
        cmocka_unit_test(test_config__first_error_wins_and_setter_checks),
        cmocka_unit_test(test_config__missing_file_is_an_io_error),
        cmocka_unit_test(test_config__random_text_is_refused_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
