/* test_suite_read.c - a user's suite file read (coordinator/report/
 * suite_read.c, docs/suites.md) in the corners the shell test does not
 * reach: the text form's blanks, comments, CRLF line ends and default
 * labels; CSV's quoted fields and allowed outputs; JSON's unknown keys and
 * allowed outputs; and the line each refusal names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "langs.h"
#include "suite_read.h"

/* Two observables (one enumerated), one IVAR, one input VAR. */
static const char model_text[] =
    "MODULE main\n"
    "IVAR go : boolean;\n"
    "VAR mode : {eco, full}; st : {Off, On}; n : 0..3;\n"
    "ASSIGN\n"
    "  init(st) := Off; init(n) := 0;\n"
    "  next(st) := go ? On : Off;\n"
    "  next(n) := case go & n < 3 : n + 1; TRUE : n; esac;\n";

static mf_model *model(void)
{
    static const char *const in[] = {"go", "mode"};
    static const char *const obs[] = {"st", "n"};
    mf_model_opts o = {0};
    o.inputs = (const char **)in;
    o.ninputs = 2;
    o.observe = (const char **)obs;
    o.nobserve = 2;
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "t.smv", model_text,
                                   sizeof model_text - 1, &o),
                     0);
    return m;
}

static int read(mf_suite_file *f, const mf_model *m, const char *text,
                mf_suite_format fmt)
{
    return mf_suite_read(f, m, "s.txt", text, strlen(text), fmt);
}

static void test_suite_read__text_blanks_comments_crlf(void **state)
{
    (void)state;
    mf_model *m = model();
    mf_suite_file f;
    const char *text = "# a comment\r\n"
                       "\r\n"
                       "test\r\n"
                       "  mode=eco  ->  st=Off , n=0\r\n"
                       "  go=TRUE,mode=full -> st=On,n=1\r\n"
                       "test second\n"
                       "mode=full -> st=Off, n=0\n";
    assert_int_equal(read(&f, m, text, MF_SUITE_TEXT), 0);
    assert_int_equal(f.n, 2);
    assert_string_equal(f.v[0].label, "1");
    assert_string_equal(f.v[1].label, "second");
    assert_int_equal(f.v[0].t->length, 1);
    assert_int_equal(f.v[0].line, 3);
    assert_int_equal(f.v[0].lines[0], 4);
    assert_int_equal(f.v[0].lines[1], 5);
    assert_int_equal(f.v[1].lines[0], 7);
    assert_null(f.v[0].allowed);
    mf_suite_file_free(&f);
    mf_model_free(m);
}

/* Each refusal: the line it names and a word of its message. */
static void test_suite_read__text_refusals_name_their_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"test\nmode=eco -> st=Off, n=0\ngo=TRUE -> st=On, n=1\n",
         "s.txt:3: inputs: state 1 gives no value for 'mode'"},
        {"test\nmode=eco -> st=Off, n=7\n", "s.txt:2: expected: n: value 7"},
        {"test\nmode=eco -> st=Off, n=0, n=0\n", "s.txt:2: expected: state 0 "
                                                  "names 'n' twice"},
        {"test\nmode=eco -> st=Off,, n=0\n", "s.txt:2: '' is not name=value"},
        {"test\nmode=eco -> st=Off, n=0,\n", "s.txt:2: a list ends with ','"},
        {"test\n\ntest b\nmode=eco -> st=Off, n=0\n",
         "s.txt:1: test '1' has no states"},
        {"# nothing\n", "s.txt:1: no tests"},
        {"model abc\n", "s.txt:1: a model hash is 64"},
        {"test\nmode=eco -> st=Off, 3=0\n", "s.txt:2: '3' is not a name"},
        {"test\nmode=eco -> st=Off, n=0\0x\n", "a NUL byte"},
    };
    mf_model *m = model();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mf_suite_file f;
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].want, "NUL"))
            len += 3;
        int rc = mf_suite_read(&f, m, "s.txt", cases[i].text, len,
                               MF_SUITE_TEXT);
        assert_int_equal(rc, MF_EPARSE);
        assert_int_equal(f.n, 0);
        if (!strstr(mf_err_msg(), cases[i].want))
            fail_msg("case %zu: '%s' does not say '%s'", i, mf_err_msg(),
                     cases[i].want);
    }
    mf_model_free(m);
}

static void test_suite_read__csv_quotes_and_allowed(void **state)
{
    (void)state;
    mf_model *m = model();
    mf_suite_file f;
    const char *csv =
        "test,step,in.go,in.mode,exp.st,exp.n,allowed,killed,refused\n"
        "7,0,,eco,Off,0,\"st=Off, n=0 | st=On, n=0\",ab:potential,\n"
        "7,1,TRUE,\"full\",On,1,\"st=On, n=1\",,\n"
        "8,0,,eco,Off,0,,,\n";
    assert_int_equal(read(&f, m, csv, MF_SUITE_CSV), 0);
    assert_int_equal(f.n, 2);
    assert_string_equal(f.v[0].label, "7");
    assert_int_equal(f.v[0].t->nallowed[0], 2);
    assert_int_equal(f.v[0].t->nallowed[1], 1);
    assert_non_null(f.v[0].allowed);
    assert_null(f.v[1].allowed);
    assert_int_equal(f.v[1].lines[0], 4);
    mf_suite_file_free(&f);

    const char *bad = "test,step,in.go,in.mode,exp.st,exp.n\n"
                      "1,0,,eco,Off,0\n"
                      "1,2,TRUE,eco,On,1\n";
    assert_int_equal(read(&f, m, bad, MF_SUITE_CSV), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "s.txt:3: test 1: step '2' where "
                                         "step 1 comes"));
    assert_int_equal(read(&f, m, "test,step,wheel\n", MF_SUITE_CSV),
                     MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "s.txt:1: column 'wheel'"));
    assert_int_equal(read(&f, m, "test,step\n1,\"0\n", MF_SUITE_CSV),
                     MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "s.txt:2: unterminated quoted"));
    mf_model_free(m);
}

static void test_suite_read__json_skips_what_it_does_not_need(void **state)
{
    (void)state;
    mf_model *m = model();
    mf_suite_file f;
    const char *json =
        "{\"campaign\":1,\"extra\":{\"a\":[1,2,{\"b\":null}]},\"tests\":[\n"
        " {\"id\":\"x\",\"length\":1,\"found_for\":null,\"steps\":[\n"
        "  {\"step\":0,\"inputs\":{\"mode\":\"eco\"},\"expected\":{\"st\":"
        "\"Off\",\"n\":0},\"allowed\":[{\"st\":\"Off\",\"n\":0}]},\n"
        "  {\"step\":1,\"inputs\":{\"go\":\"TRUE\",\"mode\":\"eco\"},"
        "\"expected\":{\"st\":\"On\",\"n\":1},\"refused_by\":[\"ab\"]}],"
        "\"kills\":[]}],\"totals\":{}}\n";
    assert_int_equal(read(&f, m, json, MF_SUITE_JSON), 0);
    assert_int_equal(f.n, 1);
    assert_string_equal(f.v[0].label, "x");
    assert_int_equal(f.v[0].lines[0], 3);
    assert_int_equal(f.v[0].lines[1], 4);
    assert_int_equal(f.v[0].t->nallowed[0], 1);
    assert_int_equal(f.v[0].t->nallowed[1], 0);
    mf_suite_file_free(&f);

    const char *len_bad = "{\"tests\":[{\"length\":3,\"steps\":[{\"inputs\":"
                          "{\"mode\":\"eco\"},\"expected\":{\"st\":\"Off\","
                          "\"n\":0}}]}]}";
    assert_int_equal(read(&f, m, len_bad, MF_SUITE_JSON), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "length 3, but 1 states"));
    assert_int_equal(read(&f, m, "{\"tests\":[]} x", MF_SUITE_JSON),
                     MF_EPARSE);
    assert_int_equal(read(&f, m, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
                          MF_SUITE_JSON),
                     MF_EPARSE);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite_read__text_blanks_comments_crlf),
        cmocka_unit_test(test_suite_read__text_refusals_name_their_line),
        cmocka_unit_test(test_suite_read__csv_quotes_and_allowed),
        cmocka_unit_test(test_suite_read__json_skips_what_it_does_not_need),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
