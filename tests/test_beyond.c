/* test_beyond.c - complete verdicts past the bound (docs/killing.md): a
 * survivor whose shortest kill the explicit-state exploration knows says
 * its length; with --bound auto (complete) that kill is the verdict, at
 * any length, replayed like every kill; and the explorer's memory budget
 * decides a product the old fixed count abandoned. Real Z3, real
 * explorer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "explore.h"
#include "model.h"
#include "mutate.h"
#include "langs.h"

/* A counter that a tick moves up to 30; the mutant stops at 29: only 30
 * ticks tell them apart. */
static const char *COUNTER = "MODULE main\n"
                             "VAR c : 0..30;\n"
                             "IVAR tick : boolean;\n"
                             "ASSIGN\n"
                             "  init(c) := 0;\n"
                             "  next(c) := case tick & c < 30 : c + 1;\n"
                             "                  TRUE : c; esac;\n";

typedef struct {
    mf_model *m, *mm;
    mf_item repl;
    mf_engine_mutant em;
} pair;

static void counter_pair(pair *p, const char *from, const char *to,
                         const char *text)
{
    memset(p, 0, sizeof *p);
    assert_int_equal(mf_model_load(&p->m, "o.smv", text, strlen(text), NULL),
                     0);
    const char *at = strstr(text, from);
    assert_non_null(at);
    mf_buf b = {0};
    mf_buf_put(&b, text, (size_t)(at - text));
    mf_buf_puts(&b, to);
    mf_buf_puts(&b, at + strlen(from));
    assert_int_equal(mf_model_load(&p->mm, "m.smv", b.data, b.len, NULL), 0);
    mf_buf_free(&b);
    int item = -1;
    for (int i = 0; i < p->m->nitems; i++)
        if (p->m->items[i].kind == MF_IT_NEXT)
            item = i;
    assert_true(item >= 0);
    p->repl = p->mm->items[item];
    p->em = (mf_engine_mutant){item, &p->repl, p->mm};
}

static void pair_free(pair *p)
{
    mf_model_free(p->mm);
    mf_model_free(p->m);
}

static void test_beyond__survivor_says_its_kill_length(void **state)
{
    (void)state;
    pair p;
    counter_pair(&p, "c < 30", "c < 29", COUNTER);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 10;
    mf_verdict v;
    assert_int_equal(mf_engine_check(p.m, &p.em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_SURVIVED);
    assert_int_equal(v.bound, 10);
    assert_int_equal(v.kill_len_beyond, 30);
    mf_verdict_clear(&v);

    /* Complete: the kill itself, 30 steps, replayed by the simulator. */
    o.complete = 1;
    assert_int_equal(mf_engine_check(p.m, &p.em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_non_null(v.test);
    assert_int_equal(v.test->length, 30);
    assert_int_equal(mf_engine_replay(p.m, p.mm, v.test, v.notion), 0);
    mf_verdict_clear(&v);
    pair_free(&p);
}

/* Without the explorer nothing knows the length: no claim. */
static void test_beyond__no_claim_without_a_complete_method(void **state)
{
    (void)state;
    pair p;
    counter_pair(&p, "c < 30", "c < 29", COUNTER);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 10;
    o.explicit_max = 0;
    o.method = MF_METHOD_SMT; /* the BDDs know it too (tests/test_bdd.c) */
    mf_verdict v;
    assert_int_equal(mf_engine_check(p.m, &p.em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_SURVIVED);
    assert_int_equal(v.kill_len_beyond, 0);
    mf_verdict_clear(&v);
    pair_free(&p);
}

/* A product past the old fixed count (20000 nodes): two independent
 * counters whose every pair of values is reached, the mutant differing
 * only when both are at their top. The memory budget decides it; the
 * old count leaves it to the searches, which stop at the bound. */
static void test_beyond__memory_budget_decides_a_large_product(void **state)
{
    (void)state;
    const char *text = "MODULE main\n"
                       "VAR a : 0..149; b : 0..149; hit : boolean;\n"
                       "IVAR ia : boolean; ib : boolean;\n"
                       "ASSIGN\n"
                       "  init(a) := 0; init(b) := 0; init(hit) := FALSE;\n"
                       "  next(a) := case ia & a < 149 : a + 1; TRUE : a; "
                       "esac;\n"
                       "  next(b) := case ib & b < 149 : b + 1; TRUE : b; "
                       "esac;\n"
                       "  next(hit) := a = 149 & b = 149;\n";
    pair p;
    counter_pair(&p, "a = 149 & b = 149", "a = 149 & b = 148", text);
    /* counter_pair picks the last next(): hit's. */
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 5;
    o.method = MF_METHOD_SMT; /* the explorer's budget, not the BDDs' */
    /* The exploration's clock is the solver timeout: not the point here
     * (sanitizers make it slow). */
    o.timeout_ms = 600000;
    o.mutant_ms = 0;
    mf_verdict v;
    assert_int_equal(mf_engine_check(p.m, &p.em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_SURVIVED);
    assert_int_equal(v.kill_len_beyond, 150); /* 149 ticks of both, then hit */
    mf_verdict_clear(&v);
    o.explicit_mb = 0; /* the old count: no length known */
    assert_int_equal(mf_engine_check(p.m, &p.em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_SURVIVED);
    assert_int_equal(v.kill_len_beyond, 0);
    mf_verdict_clear(&v);
    pair_free(&p);
}

/* The explorer's shortcuts to "no definite kill" (inclusion, joint
 * behaviours) against its definite exploration, on every mutant of the
 * non-deterministic test models: a shortcut is never contradicted by a
 * definite kill, and each settles some (refuse.smv, door_lock.smv and
 * scatter.smv too, run once: 14, 26 and 6 by inclusion, 0, 54 and 24
 * jointly, none wrong; too slow for the sanitizers' build). */
typedef struct {
    const mf_model *m;
    mf_explore_ctx *x;
    int shown[2], wrong, mutants;
} shortcuts;

static int shortcut_fn(const mf_mutant *mu, void *ctx)
{
    shortcuts *t = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    mf_model *mm = NULL;
    assert_int_equal(mf_mutant_apply(&mm, t->m, mu), 0);
    mf_explore_result d, r[2];
    mf_explore_with(t->x, &d, mm, MF_EXPLORE_DEFINITE, 20000, 0);
    mf_explore_with(t->x, &r[0], mm, MF_EXPLORE_INCLUDED, 20000, 0);
    mf_explore_with(t->x, &r[1], mm, MF_EXPLORE_JOINT, 20000, 0);
    mf_explore_verdict v[2] = {r[0].included.verdict, r[1].joint.verdict};
    for (int k = 0; k < 2; k++) {
        t->shown[k] += v[k] == MF_XV_NOT_KILLABLE;
        if (v[k] == MF_XV_NOT_KILLABLE && d.definite.verdict == MF_XV_KILLED) {
            print_message("#   %s %s: shortcut %d, definite kill %d\n",
                          mu->id, mu->desc, k, d.definite.length);
            t->wrong++;
        }
    }
    t->mutants++;
    mf_explore_result_free(&d);
    mf_explore_result_free(&r[0]);
    mf_explore_result_free(&r[1]);
    mf_model_free(mm);
    return 0;
}

static void test_beyond__no_definite_shortcuts_agree(void **state)
{
    (void)state;
    const char *models[] = {"tests/models/beverage.smv",
                            "tests/models/late_definite.smv"};
    int shown[2] = {0, 0};
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        mf_model *m = NULL;
        assert_int_equal(mf_model_load_file(&m, models[i], NULL), 0);
        shortcuts t = {0};
        t.m = m;
        t.x = mf_explore_ctx_new(m);
        mf_mutants_each(m, 0, shortcut_fn, &t);
        mf_explore_ctx_free(t.x);
        print_message("# %s: %d mutants, inclusion %d, joint %d\n",
                      models[i], t.mutants, t.shown[0], t.shown[1]);
        assert_int_equal(t.wrong, 0);
        shown[0] += t.shown[0];
        shown[1] += t.shown[1];
        mf_model_free(m);
    }
    assert_true(shown[0] > 0);
    assert_true(shown[1] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beyond__survivor_says_its_kill_length),
        cmocka_unit_test(test_beyond__no_claim_without_a_complete_method),
        cmocka_unit_test(test_beyond__memory_budget_decides_a_large_product),
        cmocka_unit_test(test_beyond__no_definite_shortcuts_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
