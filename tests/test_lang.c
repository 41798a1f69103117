/* test_lang.c - the seam between the common model and its languages
 * (model/lang.h) and the registry that chooses one (lang/langs.c): a
 * model's language by file ending, else by text, one error for an unknown
 * one; mutants, operator names and printing dispatched through the
 * model's language; a copy keeps the language. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "langs.h"
#include "smv.h"

static const char *const SMV = "-- a comment first\n"
                               "MODULE main\n"
                               "VAR x : boolean;\n"
                               "ASSIGN init(x) := FALSE;\n"
                               "       next(x) := !x;\n";

static void test_lang__chooses_by_ending_then_text(void **state)
{
    (void)state;
    const char *other = "hello, no model here\n";
    assert_ptr_equal(mf_lang_for_file("a/b.smv", NULL, 0), &mf_lang_smv);
    /* the ending wins over the text */
    assert_ptr_equal(mf_lang_for_file("b.smv", other, strlen(other)),
                     &mf_lang_smv);
    /* no known ending: the text */
    assert_ptr_equal(mf_lang_for_file("job", SMV, strlen(SMV)), &mf_lang_smv);
    assert_ptr_equal(mf_lang_for_file(NULL, SMV, strlen(SMV)), &mf_lang_smv);
    assert_ptr_equal(mf_lang_by_name("smv"), &mf_lang_smv);
    assert_null(mf_lang_by_name("kiss9"));
}

static void test_lang__unknown_language_is_one_clear_error(void **state)
{
    (void)state;
    const char *other = "hello, no model here\n";
    assert_null(mf_lang_for_file("notes.txt", other, strlen(other)));
    assert_string_equal(
        mf_err_msg(),
        "notes.txt: unknown model language (known: smv, kiss2, verilog, "
        "uppaal, ecdar)");
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "notes.txt", other, strlen(other), NULL),
                     MF_EUNSUPPORTED);
    assert_null(m);
    assert_string_equal(
        mf_err_msg(),
        "notes.txt: unknown model language (known: smv, kiss2, verilog, "
        "uppaal, ecdar)");
}

static void test_lang__sniff_reads_only_len_bytes(void **state)
{
    (void)state;
    /* "MODULE" cut short by len is not SMV */
    assert_int_equal(mf_lang_smv.sniff("MODULE main", 4), 0);
    assert_true(mf_lang_smv.sniff("MODULE main", 11) > 0);
    assert_true(mf_lang_smv.sniff(SMV, strlen(SMV)) > 0);
    assert_int_equal(mf_lang_smv.sniff("", 0), 0);
}

static int count_fn(const mf_mutant *mu, void *ctx)
{
    assert_ptr_equal(mu->lang, &mf_lang_smv);
    assert_string_equal(mf_lang_op_name(mu->lang, mu->op),
                        mf_mop_name((mf_mop)mu->op));
    (*(int *)ctx)++;
    return 0;
}

static void test_lang__model_dispatches_to_its_language(void **state)
{
    (void)state;
    mf_model *m = NULL;
    assert_int_equal(mf_model_load(&m, "job", SMV, strlen(SMV), NULL), 0);
    assert_ptr_equal(m->lang, &mf_lang_smv);
    assert_null(m->lang_data);
    assert_int_equal(mf_mutant_nops(m), MF_MOP__COUNT);
    assert_string_equal(mf_mutant_op_name(m, MF_MOP_NEGATE), "negate");
    assert_string_equal(mf_mutant_op_name(m, MF_MOP__COUNT), "?");

    unsigned mask = 0;
    assert_int_equal(mf_mutant_ops_parse(m, &mask, "negate, stuck-at"), 0);
    assert_int_equal(mask, (1u << MF_MOP_NEGATE) | (1u << MF_MOP_STUCK_AT));
    assert_int_equal(mf_mutant_ops_parse(m, &mask, "negate,bogus"), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "unknown mutation operator 'bogus'"));

    int n = 0;
    assert_int_equal(mf_mutants_each(m, 0, count_fn, &n), 0);
    assert_true(n > 0);

    mf_buf b = {0}, p = {0};
    mf_print_model(&b, m);
    mf_model_print(&p, m);
    assert_string_equal(b.data, p.data); /* SMV: the common print */
    mf_buf_free(&b);
    mf_buf_free(&p);
    mf_model_free(m);
}

static int first_fn(const mf_mutant *mu, void *ctx)
{
    memcpy(ctx, mu->id, 17);
    return 1;
}

static void test_lang__mutant_is_a_model_of_the_same_language(void **state)
{
    (void)state;
    mf_model *m = NULL, *mm = NULL;
    mf_mutant *mu = NULL;
    char id[17] = {0};
    assert_int_equal(mf_model_load(&m, "t.smv", SMV, strlen(SMV), NULL), 0);
    assert_int_equal(mf_mutants_each(m, 0, first_fn, id), 1);
    assert_int_equal(mf_mutant_find(&mu, m, id), 0);
    assert_ptr_equal(mu->lang, &mf_lang_smv);
    assert_int_equal(mf_mutant_apply(&mm, m, mu), 0);
    assert_ptr_equal(mm->lang, &mf_lang_smv);
    assert_null(mm->lang_data);
    mf_buf b = {0};
    mf_mutant_print(&b, m, mu);
    char head[64];
    snprintf(head, sizeof head, "-- mutant %s (%s): ", id,
             mf_lang_op_name(mu->lang, mu->op));
    assert_non_null(strstr(b.data, head));
    mf_buf_free(&b);
    mf_model_free(mm);
    mf_mutant_free(mu);
    mf_model_free(m);
}

static void test_lang__id_is_sha256_of_op_site_repl(void **state)
{
    (void)state;
    /* the first 16 hex digits of SHA-256(op NUL site NUL repl): every
     * stored mutant's id depends on it staying so */
    char id[17], want[65];
    mf_mutant_id(id, "a", "b", "c");
    mf_sha256_hex(want, "a\0b\0c", 5);
    assert_int_equal(strlen(id), 16);
    assert_memory_equal(id, want, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lang__chooses_by_ending_then_text),
        cmocka_unit_test(test_lang__unknown_language_is_one_clear_error),
        cmocka_unit_test(test_lang__sniff_reads_only_len_bytes),
        cmocka_unit_test(test_lang__model_dispatches_to_its_language),
        cmocka_unit_test(test_lang__mutant_is_a_model_of_the_same_language),
        cmocka_unit_test(test_lang__id_is_sha256_of_op_site_repl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
