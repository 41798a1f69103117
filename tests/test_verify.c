/* test_verify.c - the coordinator's replay of reported kills
 * (coordinator/verify.c): real kills by the engine pass; a test moved to
 * a mutant it does not kill, a test of the wrong shape, a potential kill
 * in a definite campaign and an unknown mutant are refused; a worker is
 * cut off at its third refusal, by id and by key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mutate.h"
#include "verify.h"
#include "langs.h"

#define NMUT 160

typedef struct {
    mf_model *m;
    char ids[NMUT][17];
    mf_verdict v[NMUT];
    int n;
    int killed, other; /* a killed one, an equivalent or survived one */
} fixture;

static int collect(const mf_mutant *mu, void *ctx)
{
    fixture *f = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    snprintf(f->ids[f->n], 17, "%s", mu->id);
    mf_model *mm = NULL;
    if (mf_mutant_apply(&mm, f->m, mu) < 0)
        return 0;
    mf_engine_mutant em = {mu->item, mu->new_item, mm};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 6;
    mf_engine_check(f->m, &em, 1, &o, &f->v[f->n]);
    mf_model_free(mm);
    mf_verdict_kind k = f->v[f->n].kind;
    if (k == MF_V_KILLED && f->killed < 0)
        f->killed = f->n;
    if ((k == MF_V_EQUIVALENT || k == MF_V_SURVIVED) && f->other < 0)
        f->other = f->n;
    f->n++;
    /* Enough: a kill and a non-kill, and a few more kills to replay. */
    return f->n == NMUT || (f->killed >= 0 && f->other >= 0 && f->n >= 16);
}

static fixture *fixture_new(void)
{
    fixture *f = calloc(1, sizeof *f);
    if (mf_model_load_file(&f->m, "tests/models/beverage.smv", NULL) < 0)
        fail_msg("%s", mf_err_msg());
    f->killed = f->other = -1;
    mf_mutants_each(f->m, 0, collect, f);
    if (f->killed < 0 || f->other < 0)
        fail_msg("%d mutants of beverage.smv: no kill or no non-kill", f->n);
    return f;
}

static void fixture_free(fixture *f)
{
    for (int i = 0; i < f->n; i++)
        mf_verdict_clear(&f->v[i]);
    mf_model_free(f->m);
    free(f);
}

static const char *const *id_ptrs(fixture *f)
{
    static const char *p[NMUT];
    for (int i = 0; i < f->n; i++)
        p[i] = f->ids[i];
    return p;
}

static void test_verify__engine_kills_pass(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mf_verify *v = mf_verify_new(f->m, MF_REQ_AUTO);
    char why[512] = "";
    assert_int_equal(mf_verify_kills(v, NULL, 0, why, sizeof why,
                                     id_ptrs(f), f->v, f->n),
                     0);
    long replayed, refused;
    mf_verify_counts(v, &replayed, &refused);
    int kills = 0;
    for (int i = 0; i < f->n; i++)
        kills += f->v[i].kind == MF_V_KILLED;
    assert_int_equal(replayed, kills);
    assert_int_equal(refused, 0);
    mf_verify_free(v);
    fixture_free(f);
}

/* A kill's test given to a mutant the engine found equivalent or
 * surviving: the replay shows it does not kill. */
static void test_verify__borrowed_test_is_refused(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mf_verify *v = mf_verify_new(f->m, MF_REQ_AUTO);
    mf_verdict forged = {0};
    const mf_verdict *k = &f->v[f->killed];
    forged.kind = MF_V_KILLED;
    forged.notion = k->notion;
    forged.test = mf_test_copy(k->test);
    forged.test->mrefuses = k->test->mrefuses;
    if (k->test->mobs) {
        size_t n = ((size_t)k->test->length + 1) * (size_t)k->test->nobs;
        forged.test->mobs = malloc(n * sizeof *forged.test->mobs);
        memcpy(forged.test->mobs, k->test->mobs, n * sizeof *k->test->mobs);
    }
    const char *ids[2] = {f->ids[f->killed], f->ids[f->other]};
    mf_verdict both[2] = {*k, forged};
    char why[512] = "";
    assert_int_equal(
        mf_verify_kills(v, NULL, 0, why, sizeof why, ids, both, 2), 1);
    assert_non_null(strstr(why, f->ids[f->other]));
    assert_non_null(strstr(why, "does not kill"));
    /* The real kill alone still passes; the test was not changed. */
    assert_int_equal(
        mf_verify_kills(v, NULL, 0, why, sizeof why, ids, both, 1), 0);
    mf_verdict_clear(&forged);
    mf_verify_free(v);
    fixture_free(f);
}

static void expect_refused(mf_verify *v, const char *id, mf_verdict *vd,
                           const char *part)
{
    char why[512] = "";
    const char *ids[1] = {id};
    assert_int_equal(
        mf_verify_kills(v, NULL, 0, why, sizeof why, ids, vd, 1), 1);
    if (!strstr(why, part))
        fail_msg("refused for '%s', expected '%s'", why, part);
}

static void test_verify__malformed_kills_are_refused(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mf_verify *v = mf_verify_new(f->m, MF_REQ_DEFINITE);
    const char *id = f->ids[f->killed];
    mf_verdict vd = {0};
    vd.kind = MF_V_KILLED;
    vd.notion = MF_N_DEFINITE;
    expect_refused(v, id, &vd, "without a test");
    vd.test = mf_test_new(f->m->nslots + 1, mf_model_nobs(f->m), 1);
    expect_refused(v, id, &vd, "does not fit the model");
    mf_test_free(vd.test);
    vd.test = mf_test_copy(f->v[f->killed].test);
    vd.test->mrefuses = vd.test->length + 1;
    expect_refused(v, id, &vd, "refusal step");
    vd.test->mrefuses = -1;
    vd.notion = MF_N_POTENTIAL;
    expect_refused(v, id, &vd, "asks for definite");
    vd.notion = MF_N_DEFINITE;
    expect_refused(v, "0123456789abcdef", &vd, "no mutant of this model");
    mf_verdict_clear(&vd);
    mf_verify_free(v);
    fixture_free(f);
}

static void test_verify__third_refusal_cuts_off(void **state)
{
    (void)state;
    mf_verify *v = mf_verify_new(NULL, MF_REQ_AUTO);
    assert_false(mf_verify_is_cut(v, "w1", NULL));
    assert_int_equal(mf_verify_refused(v, "w1", NULL), 1);
    assert_int_equal(mf_verify_refused(v, "w1", NULL), 2);
    assert_false(mf_verify_is_cut(v, "w1", NULL));
    assert_int_equal(mf_verify_refused(v, "w1", NULL), MF_VERIFY_CUT_OFF);
    assert_true(mf_verify_is_cut(v, "w1", NULL));
    assert_false(mf_verify_is_cut(v, "w2", NULL));
    assert_false(mf_verify_is_cut(v, NULL, NULL));
    /* With a CURVE key: a new name on the same key is still cut off. */
    for (int i = 0; i < MF_VERIFY_CUT_OFF; i++)
        mf_verify_refused(v, "w3", "KEY3");
    assert_true(mf_verify_is_cut(v, "renamed", "KEY3"));
    assert_false(mf_verify_is_cut(v, "renamed", "KEY4"));
    assert_false(mf_verify_is_cut(NULL, "w1", NULL));
    long replayed, refused;
    mf_verify_counts(v, &replayed, &refused);
    assert_int_equal(refused, 2 * MF_VERIFY_CUT_OFF);
    mf_verify_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify__engine_kills_pass),
        cmocka_unit_test(test_verify__borrowed_test_is_refused),
        cmocka_unit_test(test_verify__malformed_kills_are_refused),
        cmocka_unit_test(test_verify__third_refusal_cuts_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
