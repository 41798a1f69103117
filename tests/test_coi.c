/* test_coi.c - the cone of influence (model/coi.h): which mutants it
 * proves equivalent, which it must leave (items in the cone, items read
 * by a constraint, items that can refuse a step, inputs), every proof
 * checked against the explicit-state explorer, on inline models and on
 * every mutant of tests/models; and the engine deciding such a mutant by
 * it before any search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coi.h"
#include "engine.h"
#include "explore.h"
#include "mutate.h"
#include "langs.h"

/* x is observed; h, b, dbg and dead are not; req is an input. h's next
 * has a TRUE branch (a mutant can remove it: a refusal at h = 3) and
 * h + 1 stays in range only under its guard. h2 is read by an INVAR. */
static const char *HIDDEN =
    "MODULE main\n"
    "VAR\n"
    "  x : 0..3;\n"
    "  h : 0..3;\n"
    "  h2 : 0..3;\n"
    "  b : boolean;\n"
    "  req : boolean;\n"
    "DEFINE\n"
    "  dbg := h + x;\n"
    "  dead := h > 1;\n"
    "ASSIGN\n"
    "  init(x) := 0;\n"
    "  next(x) := case req : (x + 1) mod 4; TRUE : x; esac;\n"
    "  init(h) := 0;\n"
    "  next(h) := case h < 3 : h + 1; TRUE : 0; esac;\n"
    "  init(h2) := 0;\n"
    "  next(h2) := case x > 0 : {0, 1, 2, 3}; TRUE : 0; esac;\n"
    "  init(b) := FALSE;\n"
    "  next(b) := dead | b;\n"
    "INVAR h2 != 3\n";

static const char *observe_x[] = {"x"};

static mf_model *load_text(const char *text, const mf_model_opts *opts)
{
    mf_model *m = NULL;
    if (mf_model_load(&m, "inline.smv", text, strlen(text), opts) != 0)
        fail_msg("%s", mf_err_msg());
    return m;
}

/* Per site prefix ("next(h)", "DEFINE dbg"): mutants, proved by the cone. */
typedef struct {
    const mf_model *m;
    mf_explore_ctx *ctx;
    int proved, checked, wrong, limit;
    int site_mutants, site_proved;
    const char *site;
} tally;

static int tally_fn(const mf_mutant *mu, void *ctx)
{
    tally *t = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    mf_model *mm = NULL;
    assert_int_equal(mf_mutant_apply(&mm, t->m, mu), 0);
    int p = mf_coi_irrelevant(t->m, mm, mu->item);
    int at_site = t->site && !strncmp(mu->site, t->site, strlen(t->site));
    t->site_mutants += at_site;
    t->site_proved += at_site && p;
    t->checked++;
    if (p) {
        t->proved++;
        mf_explore_result r;
        mf_explore_with(t->ctx, &r, mm, MF_EXPLORE_AUTO, 200000, 0);
        if (r.potential.verdict == MF_XV_KILLED ||
            r.definite.verdict == MF_XV_KILLED) {
            print_message("#   %s %s: proved by the cone, killable\n", mu->id,
                          mu->desc);
            t->wrong++;
        }
        t->limit += r.potential.verdict != MF_XV_NOT_KILLABLE &&
                    r.potential.verdict != MF_XV_KILLED;
        mf_explore_result_free(&r);
    }
    mf_model_free(mm);
    return 0;
}

static tally run_tally(const mf_model *m, const char *site)
{
    tally t = {0};
    t.m = m;
    t.site = site;
    t.ctx = mf_explore_ctx_new(m);
    mf_mutants_each(m, 0, tally_fn, &t);
    mf_explore_ctx_free(t.ctx);
    return t;
}

static mf_model *hidden(void)
{
    mf_model_opts o = {0};
    o.observe = observe_x;
    o.nobserve = 1;
    return load_text(HIDDEN, &o);
}

static void test_coi__unread_define_is_equivalent(void **state)
{
    (void)state;
    mf_model *m = hidden();
    tally t = run_tally(m, "DEFINE dbg");
    assert_true(t.site_mutants > 0);
    assert_int_equal(t.site_proved, t.site_mutants);
    assert_int_equal(t.wrong, 0);
    assert_int_equal(t.limit, 0);
    mf_model_free(m);
}

static void test_coi__leaves_the_cone_and_constraints(void **state)
{
    (void)state;
    mf_model *m = hidden();
    /* x is observed; h2 is read by the INVAR. */
    const char *in_cone[] = {"init(x)", "next(x)", "init(h2)", "next(h2)"};
    for (size_t i = 0; i < sizeof in_cone / sizeof *in_cone; i++) {
        tally t = run_tally(m, in_cone[i]);
        assert_true(t.site_mutants > 0);
        assert_int_equal(t.site_proved, 0);
    }
    mf_model_free(m);
}

/* Mutants of next(h) that can refuse (a case without its TRUE branch,
 * h + 1 past the range) are killable by that refusal: never proved; the
 * others of h and b are. */
static void test_coi__refusals_are_not_proved(void **state)
{
    (void)state;
    mf_model *m = hidden();
    tally t = run_tally(m, "next(h)");
    assert_true(t.site_proved > 0);
    assert_true(t.site_proved < t.site_mutants);
    assert_int_equal(t.wrong, 0);
    mf_explore_ctx *x = mf_explore_ctx_new(m);
    const char *edits[][2] = {
        {"case h < 3 : h + 1; TRUE : 0; esac", "case h < 3 : h + 1; esac"},
        {"case h < 3 : h + 1; TRUE : 0; esac",
         "case h <= 3 : h + 1; TRUE : 0; esac"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        const char *at = strstr(HIDDEN, edits[i][0]);
        assert_non_null(at);
        mf_buf b = {0};
        mf_buf_put(&b, HIDDEN, (size_t)(at - HIDDEN));
        mf_buf_puts(&b, edits[i][1]);
        mf_buf_puts(&b, at + strlen(edits[i][0]));
        mf_model_opts o = {0};
        o.observe = observe_x;
        o.nobserve = 1;
        mf_model *mm = load_text(b.data, &o);
        int item = -1;
        for (int k = 0; k < m->nitems; k++)
            if (m->items[k].kind == MF_IT_NEXT &&
                !strcmp(m->vars[m->items[k].var].name, "h"))
                item = k;
        assert_true(item >= 0);
        assert_int_equal(mf_coi_irrelevant(m, mm, item), 0);
        mf_explore_result r;
        mf_explore_with(x, &r, mm, MF_EXPLORE_POTENTIAL, 100000, 0);
        assert_int_equal(r.potential.verdict, MF_XV_KILLED);
        assert_true(r.potential.refusal);
        mf_explore_result_free(&r);
        mf_model_free(mm);
        mf_buf_free(&b);
    }
    mf_explore_ctx_free(x);
    mf_model_free(m);
}

/* An input VAR's next (an unconditional choice) says which inputs are
 * allowed: a mutant of it is never proved, though nothing reads it. */
static void test_coi__inputs_are_not_proved(void **state)
{
    (void)state;
    const char *text = "MODULE main\n"
                       "VAR\n"
                       "  x : boolean;\n"
                       "  e : boolean;\n"
                       "ASSIGN\n"
                       "  init(x) := FALSE;\n"
                       "  next(x) := !x;\n"
                       "  next(e) := {TRUE, FALSE};\n";
    mf_model *m = load_text(text, NULL);
    tally t = run_tally(m, "next(e)");
    assert_true(t.site_mutants > 0);
    assert_int_equal(t.site_proved, 0);
    mf_model_free(m);
}

/* Every mutant of every model in dir: each proof agrees with the
 * explorer. Adds to *proved and *checked; 0 if dir cannot be read. */
static int agree_dir(const char *dir, int *proved, int *checked)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".smv"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        mf_model *m = NULL;
        if (mf_model_load_file(&m, path, NULL) != 0)
            continue; /* models the front-end refuses on purpose */
        tally t = run_tally(m, NULL);
        if (t.wrong)
            fail_msg("%s: %d proofs the explorer refutes", path, t.wrong);
        if (t.proved)
            print_message("#   %s: %d of %d proved, %d past the explorer's "
                          "limit\n", de->d_name, t.proved, t.checked, t.limit);
        *proved += t.proved;
        *checked += t.checked;
        mf_model_free(m);
    }
    closedir(d);
    return 1;
}

/* Every mutant of tests/models, observed as the model says, and where
 * MF_COI_CORPUS names a directory (the shared corpus: minutes), every
 * mutant of its models. */
static void test_coi__agrees_with_the_explorer(void **state)
{
    (void)state;
    int proved = 0, checked = 0;
    assert_true(agree_dir("tests/models", &proved, &checked));
    const char *corpus = getenv("MF_COI_CORPUS");
    if (corpus && !agree_dir(corpus, &proved, &checked))
        fail_msg("%s: cannot be read", corpus);
    print_message("# cone of influence: %d of %d mutants proved\n", proved,
                  checked);
    assert_true(checked > 0);
}

/* The engine decides an unread DEFINE's mutant by the cone, before any
 * search. */
static void test_coi__engine_decides_by_the_cone(void **state)
{
    (void)state;
    mf_model *m = hidden();
    int item = mf_model_find_define(m, "dbg");
    assert_true(item >= 0);
    mf_item repl;
    mf_item_copy(m->arena, &repl, &m->items[item]);
    repl.e = mf_expr_int(m->arena, 2, 0, 0);
    mf_model *mm = NULL;
    assert_int_equal(mf_model_replace_item(&mm, m, item, &repl), 0);
    mf_engine_mutant em = {item, &repl, mm};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    mf_verdict v;
    assert_int_equal(mf_engine_check(m, &em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_EQUIVALENT);
    assert_string_equal(v.method, "cone-of-influence");
    mf_verdict_clear(&v);
    mf_model_free(mm);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coi__unread_define_is_equivalent),
        cmocka_unit_test(test_coi__leaves_the_cone_and_constraints),
        cmocka_unit_test(test_coi__refusals_are_not_proved),
        cmocka_unit_test(test_coi__inputs_are_not_proved),
        cmocka_unit_test(test_coi__agrees_with_the_explorer),
        cmocka_unit_test(test_coi__engine_decides_by_the_cone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
