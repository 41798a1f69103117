/* test_criteria.c - coverage requirements as traps (model/criteria.h):
 * the names and their parser; the requirements of the beverage machine
 * pinned (counts per criterion, one id and text); ids that survive layout
 * and comment edits; and the engine's verdicts on the trap mutants
 * against the explicit-state explorer (as test_agree.c does for mutants):
 *   - covered at length L with notion N: mf_engine_replay confirms the
 *     witness, and the explorer's shortest potential kill is no longer
 *     than L (a definite one too for N definite or deterministic);
 *   - infeasible: the explorer exhausts the product without a kill;
 *   - open up to b: the explorer has no kill of length b or less.
 * The engine's own explicit-state proof is off, so that no infeasible
 * verdict compared comes from the explorer itself.
 *
 * Environment: MF_CRIT_FULL=1 compares every requirement of the models
 * (default: at most CI_PER_MODEL each, evenly spaced); MF_CRIT_MODELS
 * (comma-separated paths) replaces the models below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "criteria.h"
#include "engine.h"
#include "explore.h"
#include "langs.h"

#define CI_PER_MODEL 32
#define BOUND 8
#define STATES 100000L

static const char *const ci_models[] = {
    "tests/models/beverage.smv",         /* non-deterministic outputs */
    "tests/models/car_alarm.smv",        /* IVAR guards, 8-value enum */
    "tests/models/mutation_testing.smv", /* HyperQB, non-deterministic */
    "tests/models/crossroad.smv",
    "tests/models/mutex.smv",
};

static mf_model *load(const char *path)
{
    mf_model *m = NULL;
    mf_model_opts o = {0};
    int rc = mf_model_load_file(&m, path, &o);
    if (rc < 0)
        fail_msg("%s: %s", path, mf_err_msg());
    return m;
}

static void test_criteria__names_and_parse(void **state)
{
    (void)state;
    unsigned mask;
    int mut;
    assert_string_equal(mf_criterion_name(MF_CRIT_TPAIR), "transition-pair");
    assert_int_equal(mf_criteria_parse(&mask, &mut, "branch,state"), 0);
    assert_int_equal(mask, (1u << MF_CRIT_BRANCH) | (1u << MF_CRIT_STATE));
    assert_int_equal(mut, 0);
    assert_int_equal(mf_criteria_parse(&mask, &mut, "all"), 0);
    assert_int_equal(mask, (1u << MF_CRIT__COUNT) - 1);
    assert_int_equal(mut, 1);
    assert_int_equal(mf_criteria_parse(&mask, &mut, "mutation"), 0);
    assert_int_equal(mask, 0);
    assert_int_equal(mut, 1);
    assert_int_equal(mf_criteria_parse(&mask, NULL, "mutation"),
                     MF_ENOTFOUND);
    assert_int_equal(mf_criteria_parse(&mask, &mut, "ufp,bogus"),
                     MF_ENOTFOUND);
    assert_non_null(strstr(mf_err_msg(), "'bogus'"));
    assert_int_equal(mf_criteria_parse(&mask, &mut, ""), MF_ENOTFOUND);
}

static const mf_req *find_text(const mf_reqs *r, mf_criterion c,
                               const char *text)
{
    for (int i = 0; i < r->n; i++)
        if (r->v[i].crit == c && !strcmp(r->v[i].text, text))
            return &r->v[i];
    return NULL;
}

static void test_criteria__beverage_pinned(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage.smv");
    mf_reqs *r = NULL;
    assert_int_equal(mf_reqs_build(&r, m, (1u << MF_CRIT__COUNT) - 1), 0);
    /* next(out): 2 branches, next(wtr): 3; UFP: inp = req, wtr > 0 in
     * out's first guard, inp = fill, wtr = 0 and inp = req, wtr > 0 in
     * wtr's, each TRUE and FALSE; out: 3 values, 3 * 2 * 2 pairs. */
    assert_int_equal(r->per[MF_CRIT_BRANCH], 5);
    assert_int_equal(r->per[MF_CRIT_UFP], 12);
    assert_int_equal(r->per[MF_CRIT_STATE], 3);
    assert_int_equal(r->per[MF_CRIT_TPAIR], 12);
    assert_int_equal(r->n, 32);
    const mf_req *q = find_text(r, MF_CRIT_BRANCH,
                                "branch 1 taken: inp = fill & wtr = 0");
    assert_non_null(q);
    assert_string_equal(q->site, "next(wtr)/b1");
    assert_int_equal(q->step, 1); /* reads the IVAR inp */
    assert_int_equal(q->at, r->hit_item);
    q = find_text(r, MF_CRIT_STATE, "out = tea");
    assert_non_null(q);
    assert_int_equal(q->step, 0);
    assert_int_equal(q->at, r->trap_item);
    assert_string_equal(q->id, "75dc92970684f8c7");
    q = find_text(r, MF_CRIT_TPAIR, "out: coff -> eps -> tea");
    assert_non_null(q);
    mf_reqs_free(r);
    mf_model_free(m);
}

static void test_criteria__ids_stable_across_layout_and_comment_edits(
    void **state)
{
    (void)state;
    const char *a = "MODULE main\nIVAR i : {x, y};\nVAR s : {p, q, r};\n"
                    "ASSIGN init(s) := p;\n"
                    "next(s) := case s = p & i = x : q; s = q : r; "
                    "TRUE : p; esac;\n";
    const char *b = "-- the same model, laid out otherwise\nMODULE main\n"
                    "IVAR\n  i : {x, y};  -- input\nVAR\n  s : {p, q, r};\n"
                    "ASSIGN\n  init(s) := p;\n  next(s) :=\n    case\n"
                    "      s = p & i = x : q;   -- go\n      s = q : r;\n"
                    "      TRUE : p;\n    esac;\n";
    mf_model *ma = NULL, *mb = NULL;
    mf_model_opts o = {0};
    assert_int_equal(mf_model_load(&ma, "a.smv", a, strlen(a), &o), 0);
    assert_int_equal(mf_model_load(&mb, "b.smv", b, strlen(b), &o), 0);
    mf_reqs *ra = NULL, *rb = NULL;
    unsigned all = (1u << MF_CRIT__COUNT) - 1;
    assert_int_equal(mf_reqs_build(&ra, ma, all), 0);
    assert_int_equal(mf_reqs_build(&rb, mb, all), 0);
    assert_int_equal(ra->n, rb->n);
    assert_true(ra->n > 10);
    for (int i = 0; i < ra->n; i++) {
        assert_string_equal(ra->v[i].id, rb->v[i].id);
        assert_string_equal(ra->v[i].text, rb->v[i].text);
    }
    /* ids are distinct */
    for (int i = 0; i < ra->n; i++)
        for (int j = i + 1; j < ra->n; j++)
            assert_string_not_equal(ra->v[i].id, ra->v[j].id);
    mf_reqs_free(ra);
    mf_reqs_free(rb);
    mf_model_free(ma);
    mf_model_free(mb);
}

/* ---- against the explorer ------------------------------------------------ */

typedef struct {
    int compared, skipped, disagree, covered, infeasible, open;
} tally;

/* The explorer's shortest kill of `notion` within depth (0: none), or -1
 * for none, -2 when it hit its limit. */
static int explore_len(mf_explore_ctx *x, const mf_model *mm, int notion,
                       int depth)
{
    mf_explore_result y;
    (void)mf_explore_with(x, &y, mm, notion, STATES, depth);
    const mf_explore_notion *nt =
        notion == MF_EXPLORE_DEFINITE ? &y.definite : &y.potential;
    int r = nt->verdict == MF_XV_KILLED         ? nt->length
            : nt->verdict == MF_XV_NOT_KILLABLE ? -1
            : nt->verdict == MF_XV_LIMIT && nt->cut ? -1
                                                    : -2;
    mf_explore_result_free(&y);
    return r;
}

static void compare_one(const mf_reqs *r, int i, const mf_model *mm,
                        mf_verdict *v, mf_explore_ctx *x, tally *t)
{
    const mf_req *q = &r->v[i];
    int bad = 0, len;
    switch (v->kind) {
    case MF_V_KILLED: {
        int L = v->test->length;
        if (mf_engine_replay(r->tm, mm, v->test, v->notion) < 0) {
            print_error("%s %s: witness does not replay: %s\n", q->id,
                        q->text, mf_err_msg());
            bad = 1;
            break;
        }
        len = explore_len(x, mm, MF_EXPLORE_POTENTIAL, L > 0 ? L : 1);
        if (len == -2) {
            t->skipped++;
            return;
        }
        bad = len < 0 || len > L;
        if (!bad && v->notion != MF_N_POTENTIAL) {
            len = explore_len(x, mm, MF_EXPLORE_DEFINITE, L > 0 ? L : 1);
            if (len == -2) {
                t->skipped++;
                return;
            }
            bad = len < 0 || len > L;
        }
        t->covered++;
        break;
    }
    case MF_V_EQUIVALENT:
        len = explore_len(x, mm, MF_EXPLORE_POTENTIAL, 0);
        if (len == -2) {
            t->skipped++;
            return;
        }
        bad = len >= 0;
        t->infeasible++;
        break;
    case MF_V_SURVIVED:
        len = explore_len(x, mm, MF_EXPLORE_POTENTIAL, v->bound);
        if (len == -2) {
            t->skipped++;
            return;
        }
        bad = len >= 0 && len <= v->bound;
        t->open++;
        break;
    case MF_V_UNKNOWN: t->skipped++; return;
    default: bad = 1;
    }
    t->compared++;
    if (bad) {
        t->disagree++;
        print_error("DISAGREE %s %s %s (%s): engine %s (%s)\n", q->id,
                    mf_criterion_name(q->crit), q->site, q->text,
                    mf_verdict_name(v->kind),
                    v->kind == MF_V_KILLED ? mf_notion_name(v->notion)
                                           : v->method);
    }
}

static void agree_model(const char *path, int per_model, int require)
{
    mf_model *m = load(path);
    mf_reqs *r = NULL;
    assert_int_equal(mf_reqs_build(&r, m, (1u << MF_CRIT__COUNT) - 1), 0);
    int n = per_model > 0 && r->n > per_model ? per_model : r->n;
    mf_engine_mutant *mu = calloc((size_t)n + 1, sizeof *mu);
    mf_model **mm = calloc((size_t)n + 1, sizeof *mm);
    mf_verdict *out = calloc((size_t)n + 1, sizeof *out);
    int *pick = calloc((size_t)n + 1, sizeof *pick);
    for (int k = 0; k < n; k++) {
        pick[k] = (int)((long)k * r->n / n);
        assert_int_equal(mf_req_apply(&mm[k], r, pick[k]), 0);
        mu[k] = (mf_engine_mutant){r->v[pick[k]].at, r->v[pick[k]].item,
                                   mm[k]};
    }
    mf_engine_opts eo;
    mf_engine_opts_default(&eo);
    eo.bound = BOUND;
    eo.explicit_max = 0;
    assert_int_equal(mf_engine_check(r->tm, mu, n, &eo, out), 0);
    mf_explore_ctx *x = mf_explore_ctx_new(r->tm);
    tally t = {0};
    for (int k = 0; k < n; k++) {
        compare_one(r, pick[k], mm[k], &out[k], x, &t);
        mf_verdict_clear(&out[k]);
        mf_model_free(mm[k]);
    }
    print_message("# %s: %d requirements of %d: %d compared (%d covered, "
                  "%d infeasible, %d open), %d skipped, %d disagreements\n",
                  path, n, r->n, t.compared, t.covered, t.infeasible, t.open,
                  t.skipped, t.disagree);
    assert_int_equal(t.disagree, 0);
    if (require) /* the CI sample: 30 compared a model at least */
        assert_true(t.compared >= 30);
    mf_explore_ctx_free(x);
    free(mu);
    free(mm);
    free(out);
    free(pick);
    mf_reqs_free(r);
    mf_model_free(m);
}

static void test_criteria__agree_with_explorer(void **state)
{
    (void)state;
    const char *full = getenv("MF_CRIT_FULL");
    int per = full && !strcmp(full, "1") ? 0 : CI_PER_MODEL;
    const char *list = getenv("MF_CRIT_MODELS");
    if (!list || !list[0]) {
        for (size_t i = 0; i < sizeof ci_models / sizeof *ci_models; i++)
            agree_model(ci_models[i], per, 1);
        return;
    }
    char *copy = strdup(list);
    for (char *p = strtok(copy, ","); p; p = strtok(NULL, ","))
        agree_model(p, per, 0);
    free(copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_criteria__names_and_parse),
        cmocka_unit_test(test_criteria__beverage_pinned),
        cmocka_unit_test(
            test_criteria__ids_stable_across_layout_and_comment_edits),
        cmocka_unit_test(test_criteria__agree_with_explorer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
