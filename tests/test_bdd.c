/* test_bdd.c - the BDD engine (engine/bdd.c, docs/killing.md
 * "BDDs"), forced with --method bdd, against the explicit-state explorer
 * (the ground truth): each kill it reports is replayed again here by the
 * simulator and is as short as the explorer's shortest kill; each
 * equivalence is one the explorer finds no kill for at any length; each
 * survivor has no kill up to the bound. On sampled mutants of small models,
 * the SCR-style controller (kills about 30 steps deep) and HyperQB's
 * mutation_testing (deterministic in fact: input VARs with a set of next
 * values), and non-deterministic models whose observables fix the state
 * (beverage, door_lock, Collision_RFID: potential kills). Also: a cell too wide for the BDDs leaves its mutants to the
 * solver, and two threads sharing BuDDy's one state get the verdicts one
 * thread gets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "explore.h"
#include "model.h"
#include "mutate.h"
#include "sim.h"
#include "langs.h"

typedef struct {
    mf_arena *a;
    const mf_model *m;
    int stride, seen;
    MF_VEC(mf_engine_mutant) mu;
} coll;

static int collect(const mf_mutant *mu, void *ctx)
{
    coll *c = ctx;
    if (mu->status != MF_MUT_OK || c->seen++ % c->stride)
        return 0;
    mf_engine_mutant e = {mu->item, NULL, NULL};
    if (mu->new_item) {
        mf_item *it = mf_arena_alloc(c->a, sizeof *it);
        mf_item_copy(c->a, it, mu->new_item);
        e.repl = it;
    }
    mf_model *mm = NULL;
    if (mf_model_replace_item(&mm, c->m, mu->item, e.repl) != 0)
        return 0;
    e.mutated = mm;
    MF_VEC_PUSH(c->mu, e);
    return 0;
}

static mf_model *load_text(const char *text)
{
    mf_model *m = NULL;
    if (mf_model_load(&m, "inline.smv", text, strlen(text), NULL) < 0)
        fail_msg("%s", mf_err_msg());
    return m;
}

static mf_model *load(const char *path)
{
    mf_model *m = NULL;
    if (mf_model_load_file(&m, path, NULL) < 0)
        fail_msg("%s: %s", path, mf_err_msg());
    return m;
}

static void coll_free(coll *c)
{
    for (int j = 0; j < c->mu.n; j++)
        mf_model_free((mf_model *)c->mu.v[j].mutated);
    MF_VEC_FREE(c->mu);
    mf_arena_free(c->a);
}

/* Potential kills the BDDs found no definite kill for, checked. */
static int no_definite;

/* Every stride-th mutant of m decided by the BDDs alone at `bound`, each
 * verdict checked against the explorer; how many the BDDs decided. */
static int against_explorer(const mf_model *m, int stride, int bound)
{
    coll c = {mf_arena_new(), m, stride, 0, {0}};
    assert_int_equal(mf_mutants_each(m, 0, collect, &c), 0);
    int n = c.mu.n, decided = 0;
    mf_verdict *v = calloc((size_t)n, sizeof *v);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = bound;
    o.method = MF_METHOD_BDD;
    assert_int_equal(mf_engine_check(m, c.mu.v, n, &o, v), 0);
    mf_explore_ctx *x = mf_explore_ctx_new(m);
    for (int j = 0; j < n; j++) {
        if (v[j].kind == MF_V_UNKNOWN) {
            /* Only what the BDDs do not take: a non-deterministic pair. */
            assert_non_null(strstr(v[j].reason, "BDDs"));
            continue;
        }
        decided++;
        mf_explore_result r;
        mf_explore_with(x, &r, c.mu.v[j].mutated, MF_EXPLORE_POTENTIAL,
                        2000000, 0);
        const mf_explore_notion *p = &r.potential;
        if (v[j].kind == MF_V_KILLED) {
            /* The test itself: a potential one carries the mutant's
             * behaviour, which a copy leaves out. */
            assert_int_equal(mf_engine_replay(m, c.mu.v[j].mutated,
                                              v[j].test, v[j].notion),
                             0);
            assert_int_equal(p->verdict, MF_XV_KILLED);
            assert_int_equal(p->length, v[j].test->length);
            assert_true(v[j].test->length <= bound);
            if (!strncmp(v[j].method, "no definite kill", 16)) {
                /* The BDDs' inclusion or joint behaviours: the explorer's
                 * definite exploration, to its end, has no kill. */
                mf_explore_result d;
                mf_explore_with(x, &d, c.mu.v[j].mutated,
                                MF_EXPLORE_DEFINITE, 2000000, 0);
                assert_int_equal(d.definite.verdict, MF_XV_NOT_KILLABLE);
                mf_explore_result_free(&d);
                no_definite++;
            }
        } else if (v[j].kind == MF_V_EQUIVALENT) {
            /* The BDDs' proof, or the cone of influence before them. */
            assert_true(strstr(v[j].method, "bdd-fixpoint") ||
                        strstr(v[j].method, "cone-of-influence"));
            assert_int_equal(p->verdict, MF_XV_NOT_KILLABLE);
        } else {
            assert_int_equal(v[j].kind, MF_V_SURVIVED);
            assert_true(p->verdict == MF_XV_NOT_KILLABLE ||
                        (p->verdict == MF_XV_KILLED && p->length > bound));
        }
        mf_explore_result_free(&r);
    }
    mf_explore_ctx_free(x);
    for (int j = 0; j < n; j++)
        mf_verdict_clear(&v[j]);
    free(v);
    coll_free(&c);
    return decided;
}

static void test_bdd__verdicts_agree_with_the_explorer(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        int stride, bound, min;
    } models[] = {
        {"tests/models/counter_up.smv", 1, 10, 20},
        {"tests/models/lamp.smv", 2, 10, 30},
        {"tests/models/car_alarm.smv", 18, 10, 38},
        {"tests/models/mutation_testing.smv", 20, 10, 18},
        {"tests/models/scr_sis.smv", 110, 40, 3},
        /* Non-deterministic, every cell but the inputs observed: the
         * potential search. */
        {"tests/models/beverage.smv", 3, 10, 30},
        {"tests/models/door_lock.smv", 4, 10, 30},
        {"tests/models/collision_rfid.smv", 40, 10, 25},
    };
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        mf_model *m = load(models[i].path);
        time_t t0 = time(NULL);
        int d = against_explorer(m, models[i].stride, models[i].bound);
        print_message("%s: %d decided by the BDDs (%lds)\n", models[i].path,
                      d, (long)(time(NULL) - t0));
        assert_true(d >= models[i].min);
        mf_model_free(m);
    }
    print_message("%d potential kills without a definite one\n",
                  no_definite);
    assert_true(no_definite > 0);
}

static int collect_removed(const mf_mutant *mu, void *ctx)
{
    return mu->new_item ? 0 : collect(mu, ctx);
}

/* The SCR-style controller's init-remove and assign-remove mutants: the
 * BDDs kill them potentially, and show on the original's reachable states
 * that each has every original behaviour, so no definite search follows
 * (the explorer's inclusion took seconds a mutant); the explorer is off
 * here, so the note is the BDDs'. */
static void test_bdd__scr_removals_have_every_original_behaviour(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/scr_sis.smv");
    coll c = {mf_arena_new(), m, 1, 0, {0}};
    assert_int_equal(mf_mutants_each(m, 0, collect_removed, &c), 0);
    int n = c.mu.n;
    assert_true(n >= 4);
    mf_verdict *v = calloc((size_t)n, sizeof *v);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 40;
    o.method = MF_METHOD_BDD;
    o.explicit_max = 0;
    assert_int_equal(mf_engine_check(m, c.mu.v, n, &o, v), 0);
    for (int j = 0; j < n; j++) {
        assert_int_equal(v[j].kind, MF_V_KILLED);
        assert_int_equal(v[j].notion, MF_N_POTENTIAL);
        assert_string_equal(v[j].method, "no definite kill: the mutant has "
                                         "every original behaviour");
        mf_verdict_clear(&v[j]);
    }
    free(v);
    coll_free(&c);
    mf_model_free(m);
}

/* A kill 30 steps deep, the shortest, with its test. */
static void test_bdd__scr_threshold_kill_is_thirty_steps(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/scr_sis.smv");
    int k = mf_model_find_define(m, "low");
    assert_true(k >= 0);
    mf_item it = m->items[k];
    mf_expr *e = mf_expr_int(m->arena, 13, 0, 0);
    it.e = e;
    mf_model *mm = NULL;
    assert_int_equal(mf_model_replace_item(&mm, m, k, &it), 0);
    mf_engine_mutant mu = {k, &it, mm};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 40;
    mf_verdict v;
    /* Auto takes the BDDs for it. */
    long decided = mf_engine_bdd_decided();
    assert_int_equal(mf_engine_check(m, &mu, 1, &o, &v), 0);
    assert_int_equal(mf_engine_bdd_decided(), decided + 1);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.test->length, 30);
    mf_verdict_clear(&v);
    o.method = MF_METHOD_BDD;
    assert_int_equal(mf_engine_check(m, &mu, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.notion, MF_N_DETERMINISTIC);
    /* From 100 down by 3 a step: below 13 after 30 steps (10 at 30). */
    assert_int_equal(v.test->length, 30);
    mf_verdict_clear(&v);
    mf_model_free(mm);
    mf_model_free(m);
}

/* A cell of 100001 values is past the BDDs' limit: forced, the mutant is
 * unknown with the reason; auto, the solver kills it. */
static void test_bdd__wide_cell_goes_to_the_solver(void **state)
{
    (void)state;
    mf_model *m = load_text("MODULE main\n"
                            "IVAR up : boolean;\n"
                            "VAR n : 0..100000;\n"
                            "ASSIGN init(n) := 0;\n"
                            "  next(n) := up & n < 100000 ? n + 1 : n;\n");
    int k = -1;
    for (int i = 0; i < m->nitems; i++)
        if (m->items[i].kind == MF_IT_INIT)
            k = i;
    mf_item it = m->items[k];
    it.e = mf_expr_int(m->arena, 1, 0, 0);
    mf_model *mm = NULL;
    assert_int_equal(mf_model_replace_item(&mm, m, k, &it), 0);
    mf_engine_mutant mu = {k, &it, mm};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 3;
    o.method = MF_METHOD_BDD;
    mf_verdict v;
    assert_int_equal(mf_engine_check(m, &mu, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_UNKNOWN);
    assert_non_null(strstr(v.reason, "100001 values"));
    mf_verdict_clear(&v);
    o.method = MF_METHOD_AUTO;
    long left = mf_engine_bdd_left();
    assert_int_equal(mf_engine_check(m, &mu, 1, &o, &v), 0);
    assert_int_equal(mf_engine_bdd_left(), left + 1);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.test->length, 0);
    mf_verdict_clear(&v);
    mf_model_free(mm);
    mf_model_free(m);
}

typedef struct {
    const mf_model *m;
    const mf_engine_mutant *mu;
    int n;
    mf_verdict *v;
} job;

static void *run_job(void *arg)
{
    job *J = arg;
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 10;
    o.method = MF_METHOD_BDD;
    mf_engine_check(J->m, J->mu, J->n, &o, J->v);
    return NULL;
}

/* BuDDy has one state per process: two threads take turns with it. */
static void test_bdd__two_threads_get_one_threads_verdicts(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/lamp.smv");
    coll c = {mf_arena_new(), m, 1, 0, {0}};
    assert_int_equal(mf_mutants_each(m, 0, collect, &c), 0);
    int n = c.mu.n, h = n / 2;
    mf_verdict *one = calloc((size_t)n, sizeof *one);
    mf_verdict *two = calloc((size_t)n, sizeof *two);
    job all = {m, c.mu.v, n, one};
    run_job(&all);
    job a = {m, c.mu.v, h, two}, b = {m, c.mu.v + h, n - h, two + h};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, run_job, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, run_job, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    int killed = 0;
    for (int j = 0; j < n; j++) {
        assert_int_equal(one[j].kind, two[j].kind);
        if (one[j].kind == MF_V_KILLED) {
            killed++;
            assert_int_equal(one[j].test->length, two[j].test->length);
        }
        mf_verdict_clear(&one[j]);
        mf_verdict_clear(&two[j]);
    }
    assert_true(killed > 0);
    free(one);
    free(two);
    coll_free(&c);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bdd__verdicts_agree_with_the_explorer),
        cmocka_unit_test(test_bdd__scr_threshold_kill_is_thirty_steps),
        cmocka_unit_test(test_bdd__scr_removals_have_every_original_behaviour),
        cmocka_unit_test(test_bdd__wide_cell_goes_to_the_solver),
        cmocka_unit_test(test_bdd__two_threads_get_one_threads_verdicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
