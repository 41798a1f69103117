/* test_kill_replay.c - the one test x mutant replay (model/kill_replay.h)
 * and its two ways in: the kill matrix's (the explorer's definitions, a
 * mutant's refusal is no original behaviour) and the nightly rerun's
 * claims (the engine replay's rules, a refusal by both after the same
 * observables is the same behaviour). Both find a kill by observables at
 * the same step; a refusal the original shares is a departure for the
 * matrix and a matching behaviour for a claim (no kill, and no definite
 * kill where it is the only match). The searches are checked against the old implementations and
 * against an oracle elsewhere (tests/test_minimize.c, tests/test_rerun.c);
 * this pins the rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kill_replay.h"
#include "langs.h"

/* x counts 0, 1, 2 and stays; y (not observed) is chosen at the start:
 * with y false, x = 1 has no successor. */
static const char counter[] =
    "MODULE main\n"
    "IVAR go : boolean;\n"
    "VAR x : 0..3; y : boolean;\n"
    "ASSIGN\n"
    "  init(x) := 0;\n"
    "  next(x) := case x = 0 : 1; x = 1 & y : 2; x = 2 : 2; esac;\n"
    "  next(y) := y;\n";

static mf_model *load(const char *text)
{
    static const char *const obs[] = {"x"};
    mf_model_opts o = {0};
    mf_model *m = NULL;
    o.observe = (const char **)obs;
    o.nobserve = 1;
    if (mf_model_load(&m, "inline.smv", text, strlen(text), &o) != 0)
        fail_msg("inline model refused: %s", mf_err_msg());
    return m;
}

/* The test of length 3 expecting x = 0, 1, 2, 2 (the run with y true). */
static mf_test *counter_test(const mf_model *m)
{
    mf_test *t = mf_test_new(m->nslots, mf_model_nobs(m), 3);
    static const mf_val x[] = {0, 1, 2, 2};
    memcpy(t->expect, x, sizeof x);
    return t;
}

/* What t does to mm under the kill matrix's rules. */
static mf_kill matrix_kill(const mf_model *m, const mf_model *mm,
                           const mf_test *t)
{
    mf_kill_orig *o = NULL;
    mf_kill_mut mu;
    mf_kill k;
    assert_int_equal(mf_kill_orig_new(&o, m), 0);
    assert_int_equal(mf_kill_test_check(o, t), 0);
    mf_kill_mut_init(&mu, m, mm);
    assert_int_equal(mf_kill_replay(&k, o, t, &mu), 0);
    mf_kill_mut_free(&mu);
    mf_kill_orig_free(o);
    return k;
}

static void test_kill_replay__both_ways_find_a_kill_by_observables(void **st)
{
    (void)st;
    mf_model *m = load(counter);
    char *text = strdup(counter);
    char *at = strstr(text, "x = 2 : 2");
    assert_non_null(at);
    at[8] = '3';
    mf_model *mm = load(text);
    free(text);
    mf_test *t = counter_test(m);

    mf_kill k = matrix_kill(m, mm, t);
    assert_true(k.killed);
    /* Its run with y false departs first, by refusing step 2 (as the
     * original's does: no original behaviour); none matches after step
     * 3, where x is 3 against 2. */
    assert_int_equal(k.notion, MF_N_DEFINITE);
    assert_int_equal(k.step, 3);
    assert_int_equal(k.refuses, 2);

    mf_kill_test *kt = NULL;
    int reexpected = 1;
    assert_int_equal(mf_kill_test_new(&kt, m, t, &reexpected), 0);
    assert_int_equal(reexpected, 0);
    mf_test *c = NULL;
    mf_notion nt = MF_N_POTENTIAL;
    /* The same kill by observables at 3; the runs with y false refuse
     * together, the same behaviour: no definite kill. */
    assert_int_equal(mf_kill_claim(kt, mm, MF_KILL_AUTO, &c, &nt), 1);
    assert_int_equal(nt, MF_N_POTENTIAL);
    assert_int_equal(c->length, 3);
    assert_non_null(c->mobs);
    assert_int_equal(c->mobs[3], 3);
    assert_int_equal(c->mrefuses, -1);
    mf_test_free(c);
    mf_kill_test_free(kt);
    mf_test_free(t);
    mf_model_free(mm);
    mf_model_free(m);
}

static void test_kill_replay__a_refusal_both_share(void **st)
{
    (void)st;
    mf_model *m = load(counter);
    mf_test *t = counter_test(m);

    /* The matrix: the run with y false refuses step 2, which no original
     * behaviour (a run over the whole test) does: a potential kill, even
     * of the original by itself. */
    mf_kill k = matrix_kill(m, m, t);
    assert_true(k.killed);
    assert_int_equal(k.notion, MF_N_POTENTIAL);
    assert_int_equal(k.step, 2);
    assert_int_equal(k.refuses, 2);

    /* A claim: the original refuses there too, the same behaviour. */
    mf_kill_test *kt = NULL;
    assert_int_equal(mf_kill_test_new(&kt, m, t, NULL), 0);
    for (int w = MF_KILL_AUTO; w <= MF_KILL_DEFINITE; w++) {
        mf_test *c = NULL;
        mf_notion nt = MF_N_POTENTIAL;
        assert_int_equal(mf_kill_claim(kt, m, (mf_kill_want)w, &c, &nt), 0);
        assert_null(c);
    }
    mf_kill_test_free(kt);
    mf_test_free(t);
    mf_model_free(m);
}

static void test_kill_replay__expected_observables_checked(void **st)
{
    (void)st;
    mf_model *m = load(counter);
    mf_test *t = counter_test(m);
    mf_kill_orig *o = NULL;
    assert_int_equal(mf_kill_orig_new(&o, m), 0);
    assert_int_equal(mf_kill_test_check(o, t), 0);
    /* The same inputs (the original's graph kept), other observables. */
    t->expect[2] = 3;
    assert_int_equal(mf_kill_test_check(o, t), MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "expected observables at step 2"));
    mf_kill_orig_free(o);

    /* A claim takes the observables of the original's first full run. */
    mf_kill_test *kt = NULL;
    int reexpected = 0;
    assert_int_equal(mf_kill_test_new(&kt, m, t, &reexpected), 0);
    assert_int_equal(reexpected, 1);
    assert_int_equal(mf_kill_test_of(kt)->expect[2], 2);
    mf_kill_test_free(kt);
    mf_test_free(t);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_kill_replay__both_ways_find_a_kill_by_observables),
        cmocka_unit_test(test_kill_replay__a_refusal_both_share),
        cmocka_unit_test(test_kill_replay__expected_observables_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
