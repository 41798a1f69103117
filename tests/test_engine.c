/* test_engine.c - the Z3 engine (engine.h): killing notions,
 * shortest tests, equivalence proofs and the self-check, pinned on the
 * beverage machine of Fellner et al. and the car alarm. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "explore.h"
#include "model.h"
#include "mutate.h"
#include "sim.h"
#include "langs.h"

/* The paper observes only `out` (the tank level is internal). */
static mf_model *load(const char *path, const char *observe)
{
    mf_model *m = NULL;
    const char *obs[1] = {observe};
    mf_model_opts o = {0};
    if (observe) {
        o.observe = obs;
        o.nobserve = 1;
    }
    int rc = mf_model_load_file(&m, path, &o);
    if (rc < 0)
        fail_msg("%s", mf_err_msg());
    return m;
}

static int find_item(const mf_model *m, mf_itkind kind, const char *var)
{
    for (int i = 0; i < m->nitems; i++)
        if (m->items[i].kind == kind &&
            !strcmp(m->vars[m->items[i].var].name, var))
            return i;
    return -1;
}

/* Decide one variant of m (item replaced by repl) with options o. */
static void decide(const mf_model *m, int item, const mf_item *repl,
                   const mf_engine_opts *o, mf_verdict *v)
{
    mf_model *mm = NULL;
    assert_int_equal(mf_model_replace_item(&mm, m, item, repl), 0);
    mf_engine_mutant mu = {item, repl, mm};
    assert_int_equal(mf_engine_check(m, &mu, 1, o, v), 0);
    mf_model_free(mm);
}

/* next(wtr) with the value of its first branch (the refill) replaced;
 * *item: its index. */
static mf_item refill(mf_model *m, int *item, mf_expr *value)
{
    *item = find_item(m, MF_IT_NEXT, "wtr");
    assert_true(*item >= 0);
    mf_item it = m->items[*item];
    it.e = mf_expr_copy(m->arena, it.e);
    assert_int_equal(it.e->kind, MF_E_CASE);
    it.e->kids[1] = value;
    return it;
}

static const char *step_input(const mf_model *m, const mf_test *t, int k)
{
    int v = mf_model_find_var(m, "inp");
    mf_val x = t->inputs[(size_t)k * t->nslots + m->vars[v].slot];
    return MF_IS_SYM(x) ? m->syms[x - MF_SYM_BASE] : "?";
}

static void test_engine__refill_mutant_definitely_killed_by_shortest_test(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage.smv", "out");
    int item;
    mf_item it = refill(m, &item, mf_expr_int(m->arena, 1, 0, 0));
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 8;
    mf_verdict v = {0};
    decide(m, item, &it, &o, &v);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.notion, MF_N_DEFINITE);
    assert_non_null(v.test);
    assert_int_equal(v.test->length, 5);
    const char *want[] = {"req", "req", "fill", "req", "req"};
    for (int k = 1; k <= 5; k++)
        assert_string_equal(step_input(m, v.test, k), want[k - 1]);
    /* Locally adaptive: the last step allows coffee or tea. */
    assert_int_equal(v.test->nallowed[5], 2);
    mf_verdict_clear(&v);
    mf_model_free(m);
}

static void test_engine__refill_mutant_found_by_operator_is_killed(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage.smv", "out");
    mf_mutant *mu = NULL;
    /* number-replace 2 -> 1 in the fill branch of next(wtr). */
    assert_int_equal(mf_mutant_find(&mu, m, "c590f32753bbfec9"), 0);
    assert_string_equal(mu->repl, "1");
    mf_model *mm = NULL;
    assert_int_equal(mf_mutant_apply(&mm, m, mu), 0);
    mf_engine_mutant em = {mu->item, mu->new_item, mm};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 6;
    mf_verdict v = {0};
    assert_int_equal(mf_engine_check(m, &em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.notion, MF_N_DEFINITE);
    assert_int_equal(v.test->length, 5);
    mf_verdict_clear(&v);
    mf_model_free(mm);
    mf_mutant_free(mu);
    mf_model_free(m);
}

static void test_engine__nondeterministic_refill_potentially_not_definitely(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage.smv", "out");
    int item;
    mf_expr *set = mf_expr_new(m->arena, MF_E_SET, 0, 0);
    mf_expr_add(m->arena, set, mf_expr_int(m->arena, 1, 0, 0));
    mf_expr_add(m->arena, set, mf_expr_int(m->arena, 2, 0, 0));
    mf_item it = refill(m, &item, set);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 8;
    o.notion = MF_REQ_POTENTIAL;
    mf_verdict v = {0};
    decide(m, item, &it, &o, &v);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.notion, MF_N_POTENTIAL);
    assert_int_equal(v.mut_det, 0);
    mf_verdict_clear(&v);

    o.notion = MF_REQ_DEFINITE;
    decide(m, item, &it, &o, &v);
    assert_int_equal(v.kind, MF_V_SURVIVED);
    mf_verdict_clear(&v);

    /* auto reports the strongest notion that holds: potential. */
    o.notion = MF_REQ_AUTO;
    decide(m, item, &it, &o, &v);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.notion, MF_N_POTENTIAL);
    mf_verdict_clear(&v);
    mf_model_free(m);
}

/* The same {1, 2} refill mutant under --notion definite, method by method:
 * no method may answer with its potential kill (the explorer once did). */
static void test_engine__every_method_honours_the_definite_notion(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage.smv", "out");
    int item;
    mf_expr *set = mf_expr_new(m->arena, MF_E_SET, 0, 0);
    mf_expr_add(m->arena, set, mf_expr_int(m->arena, 1, 0, 0));
    mf_expr_add(m->arena, set, mf_expr_int(m->arena, 2, 0, 0));
    mf_item it = refill(m, &item, set);
    const mf_method methods[] = {MF_METHOD_AUTO, MF_METHOD_SMT,
                                 MF_METHOD_BDD, MF_METHOD_EXPLICIT};
    for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
        mf_engine_opts o;
        mf_engine_opts_default(&o);
        o.bound = 10;
        o.notion = MF_REQ_DEFINITE;
        o.method = methods[k];
        mf_verdict v = {0};
        decide(m, item, &it, &o, &v);
        if (v.kind == MF_V_KILLED)
            fail_msg("method %d: killed %s at %d under --notion definite",
                     (int)methods[k], mf_notion_name(v.notion),
                     v.test->length);
        if (v.kind == MF_V_SURVIVED)
            assert_int_equal(v.bound, 10);
        mf_verdict_clear(&v);
    }
    mf_model_free(m);
}

/* A refinement whose budget runs out before the bound has not searched to
 * it: the verdict is unknown, saying where it stopped, never "survived up
 * to" a shorter bound (or -1). beverage(6)'s refill-5 mutant needs 13
 * steps; one refinement iteration a length stops it early. */
static void test_engine__a_budget_that_runs_out_is_unknown(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage6.smv", "out");
    int item;
    mf_item it = refill(m, &item, mf_expr_int(m->arena, 5, 0, 0));
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.prove = 0;
    o.method = MF_METHOD_SMT;
    o.notion = MF_REQ_POTENTIAL;
    o.bound = 12;
    o.cegis_max = 1;
    mf_verdict v = {0};
    decide(m, item, &it, &o, &v);
    if (v.kind != MF_V_UNKNOWN)
        fail_msg("%s up to bound %d (%s)", mf_verdict_name(v.kind), v.bound,
                 v.reason);
    assert_true(v.bound < 12);
    char want[64];
    snprintf(want, sizeof want, "at length %d: no kill up to %d", v.bound + 1,
             v.bound);
    if (v.bound >= 0 && !strstr(v.reason, want))
        fail_msg("reason '%s' lacks '%s'", v.reason, want);
    if (v.bound < 0 && !strstr(v.reason, "nothing searched"))
        fail_msg("reason '%s'", v.reason);
    if (!strstr(v.reason, "limit") && !strstr(v.reason, "undecided"))
        fail_msg("reason '%s' names no cause", v.reason);
    mf_verdict_clear(&v);
    mf_model_free(m);
}

static void test_engine__coffee_only_mutant_is_not_potentially_killable(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage.smv", "out");
    int item = find_item(m, MF_IT_NEXT, "out");
    assert_true(item >= 0);
    mf_item it = m->items[item];
    it.e = mf_expr_copy(m->arena, it.e);
    mf_expr *coff = mf_expr_new(m->arena, MF_E_SYM, 0, 0);
    coff->name = "coff";
    it.e->kids[1] = coff;
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 8;
    mf_verdict v = {0};
    /* The product is small: the exact explicit-state proof comes first. */
    decide(m, item, &it, &o, &v);
    assert_int_equal(v.kind, MF_V_EQUIVALENT);
    assert_non_null(strstr(v.method, "explicit-state"));
    mf_verdict_clear(&v);
    /* Without it, lock-step induction proves it with Z3. */
    o.explicit_max = 0;
    memset(&v, 0, sizeof v);
    decide(m, item, &it, &o, &v);
    assert_int_equal(v.kind, MF_V_EQUIVALENT);
    assert_non_null(strstr(v.method, "lock-step"));
    mf_verdict_clear(&v);
    mf_model_free(m);
}

typedef struct {
    int n, max;
    char ids[128][17];
} idlist;

static int first_ok(const mf_mutant *mu, void *ctx)
{
    idlist *ids = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    memcpy(ids->ids[ids->n++], mu->id, 17);
    return ids->n == ids->max;
}

/* The mutants of ids found and applied: mu, mm, em (ids->n each). */
static void apply_ids(const mf_model *m, const idlist *ids, mf_mutant **mu,
                      mf_model **mm, mf_engine_mutant *em)
{
    for (int j = 0; j < ids->n; j++) {
        assert_int_equal(mf_mutant_find(&mu[j], m, ids->ids[j]), 0);
        assert_int_equal(mf_mutant_apply(&mm[j], m, mu[j]), 0);
        em[j] = (mf_engine_mutant){mu[j]->item, mu[j]->new_item, mm[j]};
    }
}

/* A batch of the first (at most 128) mutants of a model, applied, with
 * their verdicts. */
typedef struct {
    idlist ids;
    mf_engine_mutant *em;
    mf_mutant **mu;
    mf_model **mm;
    mf_verdict *v;
} mset;

/* Returns mf_mutants_each's code: 1 if the model has more than 128. */
static int mset_open(mset *s, const mf_model *m)
{
    s->ids = (idlist){.max = 128};
    int rc = mf_mutants_each(m, 0, first_ok, &s->ids);
    int n = s->ids.n;
    s->em = calloc((size_t)n, sizeof *s->em);
    s->mu = calloc((size_t)n, sizeof *s->mu);
    s->mm = calloc((size_t)n, sizeof *s->mm);
    s->v = calloc((size_t)n, sizeof *s->v);
    apply_ids(m, &s->ids, s->mu, s->mm, s->em);
    return rc;
}

static void mset_close(mset *s)
{
    for (int j = 0; j < s->ids.n; j++) {
        mf_verdict_clear(&s->v[j]);
        mf_model_free(s->mm[j]);
        mf_mutant_free(s->mu[j]);
    }
    free(s->em);
    free(s->mu);
    free(s->mm);
    free(s->v);
}

static void test_engine__deterministic_car_alarm_batch_matches_fresh(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/car_alarm.smv", NULL);
    idlist ids = {.max = 12};
    assert_int_equal(mf_mutants_each(m, 0, first_ok, &ids), 1);
    mf_engine_mutant em[12];
    mf_mutant *mu[12];
    mf_model *mm[12];
    apply_ids(m, &ids, mu, mm, em);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 6;
    mf_verdict vb[12] = {0}, vf[12] = {0};
    assert_int_equal(mf_engine_check(m, em, ids.n, &o, vb), 0);
    o.mode = MF_MODE_FRESH;
    assert_int_equal(mf_engine_check(m, em, ids.n, &o, vf), 0);
    for (int j = 0; j < ids.n; j++) {
        if (vb[j].kind != vf[j].kind || vb[j].kind == MF_V_ERROR)
            fail_msg("mutant %s: batch %s (%s), fresh %s (%s)", ids.ids[j],
                     mf_verdict_name(vb[j].kind), vb[j].reason,
                     mf_verdict_name(vf[j].kind), vf[j].reason);
        if (vb[j].kind == MF_V_KILLED) {
            assert_int_equal(vb[j].notion, vf[j].notion);
            assert_int_equal(vb[j].test->length, vf[j].test->length);
        }
        mf_verdict_clear(&vb[j]);
        mf_verdict_clear(&vf[j]);
        mf_model_free(mm[j]);
        mf_mutant_free(mu[j]);
    }
    mf_model_free(m);
}

static void test_engine__replay_rejects_a_test_that_does_not_distinguish(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage.smv", "out");
    int item;
    mf_item it = refill(m, &item, mf_expr_int(m->arena, 1, 0, 0));
    mf_model *mm = NULL;
    assert_int_equal(mf_model_replace_item(&mm, m, item, &it), 0);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 8;
    mf_verdict v = {0};
    mf_engine_mutant em = {item, &it, mm};
    assert_int_equal(mf_engine_check(m, &em, 1, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_KILLED);
    /* Cut the last request: req, req, fill, req no longer distinguishes. */
    v.test->length = 4;
    assert_int_equal(mf_engine_replay(m, mm, v.test, MF_N_DEFINITE),
                     MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "self-check"));
    v.test->length = 5;
    mf_verdict_clear(&v);
    mf_model_free(mm);
    mf_model_free(m);
}

/* A refactoring that changes every internal state (the counter runs
 * down) but not the observable: lock-step induction (equal states) cannot
 * prove it, k-induction with simple paths does at k = 4; its base is the
 * search up to the bound, so with bound 3 it must not claim a proof. */
static void test_engine__refactored_counter_proved_by_k_induction(void **state)
{
    (void)state;
    mf_model *up = load("tests/models/counter_up.smv", "wrap");
    mf_model *down = load("tests/models/counter_down.smv", "wrap");
    mf_model *bad = load("tests/models/counter_down_bad.smv", "wrap");
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.explicit_max = 0;
    o.bound = 10;
    mf_verdict v = {0};
    assert_int_equal(mf_engine_check_against(up, down, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_EQUIVALENT);
    assert_string_equal(v.method, "k-induction with simple paths (k = 4)");
    mf_verdict_clear(&v);
    o.bound = 3;
    memset(&v, 0, sizeof v);
    assert_int_equal(mf_engine_check_against(up, down, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_SURVIVED);
    assert_int_equal(v.bound, 3);
    mf_verdict_clear(&v);
    /* The wrong refactoring signals one tick early: killed at length 2. */
    o.bound = 10;
    memset(&v, 0, sizeof v);
    assert_int_equal(mf_engine_check_against(up, bad, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.test->length, 2);
    assert_int_equal(mf_engine_replay(up, bad, v.test, v.notion), 0);
    mf_verdict_clear(&v);
    mf_model_free(up);
    mf_model_free(down);
    mf_model_free(bad);
}

/* Collision_RFID (no inputs, random bits, every variable observed): the
 * potential refinement learns original steps, not traces. Before, 64
 * initial states times the random bits exhausted the refinement at length
 * 1 ("survived up to bound 0"); the explorer kills these two mutants at
 * lengths 2 and 5, and so must the engine, with shortest tests the
 * simulator replays. */
static void test_engine__learnt_steps_find_shortest_potential_kills(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/collision_rfid.smv", NULL);
    const char *ids[2] = {"e8a22b30c1549309", "6dec2ca15b2f8ee7"};
    int lens[2] = {2, 5};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 6;
    o.prove = 0;
    o.notion = MF_REQ_POTENTIAL;
    for (int j = 0; j < 2; j++) {
        mf_mutant *mu = NULL;
        mf_model *mm = NULL;
        assert_int_equal(mf_mutant_find(&mu, m, ids[j]), 0);
        assert_int_equal(mf_mutant_apply(&mm, m, mu), 0);
        mf_engine_mutant em = {mu->item, mu->new_item, mm};
        mf_verdict v = {0};
        assert_int_equal(mf_engine_check(m, &em, 1, &o, &v), 0);
        if (v.kind != MF_V_KILLED)
            fail_msg("mutant %s: %s (%s), bound %d", ids[j],
                     mf_verdict_name(v.kind), v.reason, v.bound);
        assert_int_equal(v.notion, MF_N_POTENTIAL);
        assert_int_equal(v.test->length, lens[j]);
        assert_int_equal(v.not_shortest, 0);
        assert_int_equal(mf_engine_replay(m, mm, v.test, v.notion), 0);
        mf_verdict_clear(&v);
        mf_model_free(mm);
        mf_mutant_free(mu);
    }
    mf_model_free(m);
}

/* The beverage machine with a tank of 6, the mutant refilling 5: the drink
 * is a free choice of the original, the tank level is hidden. A copy of an
 * original behaviour takes the drinks the mutant shows (its choice is the
 * value of an observable cell): before, each copy fixed one sequence of
 * drinks, 2^d of them per length, and the refinement gave up at length 6
 * ("survived up to bound 6", 10 s); the shortest potential kill is
 * 6 requests, fill, 6 requests (length 13). */
/* beverage(6), the refill-5 mutant, no proofs, under `req`: survived up to
 * bound 12, and at bound 13 killed (notion `want`) by 6 requests, fill, 6
 * requests, which the replay confirms. */
static void beverage6_refill5(mf_notion_req req, mf_notion want)
{
    mf_model *m = load("tests/models/beverage6.smv", "out");
    int item;
    mf_item it = refill(m, &item, mf_expr_int(m->arena, 5, 0, 0));
    mf_model *mm = NULL;
    assert_int_equal(mf_model_replace_item(&mm, m, item, &it), 0);
    mf_engine_mutant mu = {item, &it, mm};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.prove = 0;
    o.notion = req;
    for (int bound = 12; bound <= 13; bound++) {
        o.bound = bound;
        mf_verdict v = {0};
        assert_int_equal(mf_engine_check(m, &mu, 1, &o, &v), 0);
        if (bound == 12) {
            assert_int_equal(v.kind, MF_V_SURVIVED);
            assert_int_equal(v.bound, 12);
        } else {
            assert_int_equal(v.kind, MF_V_KILLED);
            assert_int_equal(v.notion, want);
            assert_int_equal(v.test->length, 13);
            assert_string_equal(step_input(m, v.test, 7), "fill");
            assert_int_equal(mf_engine_replay(m, mm, v.test, v.notion), 0);
        }
        mf_verdict_clear(&v);
    }
    mf_model_free(mm);
    mf_model_free(m);
}

/* beverage(32), the refill-31 mutant, --notion definite at the default
 * options: its shortest definite kill is 32 requests, fill, 32 requests
 * (length 65), which the explorer's subset construction finds over the
 * product's states (engine.c definite_explicit) where the definite
 * refinement ran out of iterations; at bound 64 it survives, searched to
 * the bound. */
static void test_engine__deep_definite_kill_by_the_explorer(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/beverage32.smv", "out");
    int item;
    mf_item it = refill(m, &item, mf_expr_int(m->arena, 31, 0, 0));
    for (int bound = 64; bound <= 65; bound++) { /* one short, then it */
        mf_engine_opts o;
        mf_engine_opts_default(&o);
        o.notion = MF_REQ_DEFINITE;
        o.bound = bound;
        mf_verdict v = {0};
        decide(m, item, &it, &o, &v);
        assert_int_equal(v.kind, bound == 65 ? MF_V_KILLED : MF_V_SURVIVED);
        if (v.kind == MF_V_KILLED) {
            assert_int_equal(v.notion, MF_N_DEFINITE);
            assert_int_equal(v.test->length, 65);
            assert_string_equal(step_input(m, v.test, 33), "fill");
        } else
            assert_int_equal(v.bound, 64);
        mf_verdict_clear(&v);
    }
    mf_model_free(m);
}

static void test_engine__hidden_state_potential_kill_binds_observed_choices(
    void **state)
{
    (void)state;
    beverage6_refill5(MF_REQ_POTENTIAL, MF_N_POTENTIAL);
}

/* Definite killing on the same machine: one pair of behaviours (the same
 * drinks, one copy of each model) matches every test up to length 12, and
 * the lookahead proves it at once (the pair with its last step repeated,
 * asked whether it parts within the bound). At bound 12 no definite kill;
 * at bound 13 the kill of length 13, which a lookahead refuting one length
 * too many would miss. */
static void test_engine__definite_lookahead_refutes_lengths_at_once(
    void **state)
{
    (void)state;
    beverage6_refill5(MF_REQ_DEFINITE, MF_N_DEFINITE);
}

/* The batch's definite upgrade (two mutants together, as the joint search
 * decides them): each mutant of next(out) shows z at once (a potential kill
 * of length 1) but may always show x, and only a^5 b parts it definitely
 * from the original (y). Each mutant's own pair, its last step repeated,
 * refutes lengths 2 to 5 at once. At bound 5 both stay potential; at bound 6
 * both are killed definitely at length 6, which a lookahead refuting one
 * length too many would miss. The mutants' next(out) comes from a copy of
 * the model with that assignment changed. */
static void test_engine__batch_definite_lookahead_keeps_the_late_kill(
    void **state)
{
    (void)state;
    mf_model *m = load("tests/models/late_definite.smv", NULL);
    const char *alt[2] = {"x", "z"}; /* out at cnt = 5 & inp = b */
    char text[32][128] = {{0}};
    FILE *src = fopen("tests/models/late_definite.smv", "r");
    assert_non_null(src);
    int nl = 0;
    while (nl < 32 && fgets(text[nl], sizeof text[nl], src))
        nl++;
    fclose(src);
    mf_model *mm[2];
    mf_item it[2];
    int item = find_item(m, MF_IT_NEXT, "out");
    assert_true(item >= 0);
    for (int q = 0; q < 2; q++) {
        char path[] = "/tmp/mf_late_definite_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "w");
        /* The model's text with next(out)'s two values changed. */
        for (int l = 0; l < nl; l++) {
            if (strstr(text[l], "cnt = 5 & inp = b : y;"))
                fprintf(f, "cnt = 5 & inp = b : %s;\n", alt[q]);
            else if (strstr(text[l], "TRUE              : x;"))
                fprintf(f, "TRUE : {x, z};\n");
            else
                fputs(text[l], f);
        }
        fclose(f);
        mf_model *other = load(path, NULL);
        unlink(path);
        int k = find_item(other, MF_IT_NEXT, "out");
        assert_true(k >= 0);
        it[q] = m->items[item];
        it[q].e = mf_expr_copy(m->arena, other->items[k].e);
        mf_model_free(other);
        mm[q] = NULL;
        assert_int_equal(mf_model_replace_item(&mm[q], m, item, &it[q]), 0);
    }
    mf_engine_mutant mu[2] = {{item, &it[0], mm[0]}, {item, &it[1], mm[1]}};
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.prove = 0;
    for (int bound = 5; bound <= 6; bound++) {
        o.bound = bound;
        mf_verdict v[2] = {{0}};
        assert_int_equal(mf_engine_check(m, mu, 2, &o, v), 0);
        for (int q = 0; q < 2; q++) {
            assert_int_equal(v[q].kind, MF_V_KILLED);
            assert_int_equal(v[q].notion,
                             bound == 5 ? MF_N_POTENTIAL : MF_N_DEFINITE);
            assert_int_equal(v[q].test->length, bound == 5 ? 1 : 6);
            assert_int_equal(
                mf_engine_replay(m, mm[q], v[q].test, v[q].notion), 0);
            if (bound == 6)
                for (int k = 0; k < 5; k++)
                    assert_string_equal(step_input(m, v[q].test, k), "a");
            mf_verdict_clear(&v[q]);
        }
    }
    mf_model_free(mm[0]);
    mf_model_free(mm[1]);
    mf_model_free(m);
}

/* Refusals in a batch: every mutant of a model whose TRANS constraint its
 * mutants change (tests/models/refuse.smv; non-deterministic, so the joint
 * potential search, whose refusal searches are left out for the mutants
 * that cannot refuse from a reachable state). Each verdict is the
 * explorer's: killed at its shortest length, or no kill within the bound;
 * some kills are refusals (`n < 2`: fill, fill, fill refused at step 3),
 * all replayed. */
static void test_engine__batch_refusal_kills_match_the_explorer(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/refuse.smv", NULL);
    mset b;
    assert_int_equal(mset_open(&b, m), 0);
    assert_true(b.ids.n > 40);
    mf_verdict *v = b.v;
    mf_model **mm = b.mm;
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 6;
    o.prove = 0;
    o.notion = MF_REQ_POTENTIAL;
    assert_int_equal(mf_engine_check(m, b.em, b.ids.n, &o, v), 0);
    int refusals = 0;
    for (int j = 0; j < b.ids.n; j++) {
        mf_explore_result r;
        assert_int_equal(mf_explore(&r, m, mm[j], MF_EXPLORE_POTENTIAL, 0, 0),
                         0);
        int xk = r.potential.verdict == MF_XV_KILLED &&
                 r.potential.length <= o.bound;
        if (xk != (v[j].kind == MF_V_KILLED) ||
            (xk && v[j].test->length != r.potential.length))
            fail_msg("mutant %s: engine %s length %d, explorer %s length %d",
                     b.ids.ids[j], mf_verdict_name(v[j].kind),
                     v[j].test ? v[j].test->length : -1,
                     xk ? "killed" : "no kill", r.potential.length);
        if (xk) {
            refusals += v[j].test->mrefuses >= 0;
            assert_int_equal(
                mf_engine_replay(m, mm[j], v[j].test, MF_N_POTENTIAL), 0);
        }
        mf_explore_result_free(&r);
    }
    assert_true(refusals >= 2);
    mset_close(&b);
    mf_model_free(m);
}

/* The engine's explicit-state proof gives the shortest kill lengths too
 * (engine.c, explicit_proof): a mutant whose shortest potential kill
 * is past the bound survives at once, the potential searches skip the
 * lengths below the explorer's, and a potential kill with no definite kill
 * up to the bound gets no definite search. Each verdict of a batch (every
 * mutant of `path`, at most 128) must be what the explorer says, run on
 * its own here: equivalent where it exhausts the product; survived, with
 * the length in the method, past the bound; else killed at the shortest
 * potential length, definite at the shortest definite length when that
 * is within the bound (and potential otherwise, the reason in the
 * method), the test replayed. Returns how many survived by the explorer's
 * length, how many kills were left potential by it, and how many of those
 * by a definite exploration that stopped at the bound ("no definite kill
 * up to"). */
static void explorer_lengths(const char *path, int bound, int *surv,
                             int *nodef, int *upto)
{
    mf_model *m = load(path, NULL);
    mset b;
    mset_open(&b, m);
    assert_true(b.ids.n > 20);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = bound;
    assert_int_equal(mf_engine_check(m, b.em, b.ids.n, &o, b.v), 0);
    *surv = *nodef = *upto = 0;
    for (int j = 0; j < b.ids.n; j++) {
        mf_explore_result r;
        assert_int_equal(mf_explore(&r, m, b.mm[j], MF_EXPLORE_AUTO, 0, 0),
                         0);
        int pl = r.potential.verdict == MF_XV_KILLED ? r.potential.length
                                                      : -1;
        int dl = r.definite.verdict == MF_XV_KILLED ? r.definite.length : -1;
        mf_verdict *w = &b.v[j];
        int len = w->test ? w->test->length : -1;
        int ok;
        if (pl < 0)
            ok = w->kind == MF_V_EQUIVALENT;
        else if (pl > bound)
            ok = w->kind == MF_V_SURVIVED && w->bound == bound;
        else if (dl >= 0 && dl <= bound)
            ok = w->kind == MF_V_KILLED && w->notion == MF_N_DEFINITE &&
                 len == dl;
        else
            ok = w->kind == MF_V_KILLED && w->notion == MF_N_POTENTIAL &&
                 len == pl;
        if (!ok)
            fail_msg("%s mutant %s: engine %s %s length %d (%s), explorer "
                     "potential %d, definite %d", path, b.ids.ids[j],
                     mf_verdict_name(w->kind), mf_notion_name(w->notion), len,
                     w->method, pl, dl);
        if (w->kind == MF_V_SURVIVED && w->kill_len_beyond) {
            /* Its shortest kill, past the bound, is the explorer's. */
            assert_int_equal(w->kill_len_beyond, pl);
            ++*surv;
        }
        if (w->kind == MF_V_KILLED) {
            assert_int_equal(
                mf_engine_replay(m, b.mm[j], w->test, w->notion), 0);
            if (w->notion == MF_N_POTENTIAL &&
                strstr(w->method, "no definite kill"))
                ++*nodef;
            /* The definite exploration stopped at the bound, or a
             * shortcut showed none at any length (inclusion, joint
             * behaviours: checked in tests/test_beyond.c). */
            if (strstr(w->method, "no definite kill up to") ||
                strstr(w->method, "every original behaviour") ||
                strstr(w->method, "common behaviour"))
                ++*upto;
        }
        mf_explore_result_free(&r);
    }
    mset_close(&b);
    mf_model_free(m);
}

static void test_engine__explorer_lengths_decide_and_steer_the_searches(
    void **state)
{
    (void)state;
    int surv, nodef, upto;
    long xp = mf_engine_explorer_tests(MF_N_POTENTIAL),
         xd = mf_engine_explorer_tests(MF_N_DEFINITE);
    /* Non-deterministic, the joint potential search (learnt steps). */
    explorer_lengths("tests/models/refuse.smv", 2, &surv, &nodef, &upto);
    assert_true(surv >= 1 && nodef >= 1 && upto >= 1);
    explorer_lengths("tests/models/collision_rfid.smv", 3, &surv, &nodef,
                     &upto);
    assert_true(surv >= 1 && nodef >= upto && upto >= 1);
    /* Kills within the bound took the explorer's tests, both notions
     * (explorer_test), each replayed above. */
    print_message("# explorer tests: %ld potential, %ld definite\n",
                  mf_engine_explorer_tests(MF_N_POTENTIAL) - xp,
                  mf_engine_explorer_tests(MF_N_DEFINITE) - xd);
    assert_true(mf_engine_explorer_tests(MF_N_POTENTIAL) - xp >= 10);
    assert_true(mf_engine_explorer_tests(MF_N_DEFINITE) - xd >= 1);
    /* Hidden state: each mutant's own potential search. */
    explorer_lengths("tests/models/beverage.smv", 2, &surv, &nodef, &upto);
    assert_true(surv >= 1);
}

/* A wide free choice (30 values, 5 bits) with the explorer off: lock-step
 * must generalise. Blocking one (state, input) point or one fixed choice
 * at a time needs some 1800 points and 900 successors, past the iteration
 * limit ("survived"); a choice of the mutant that succeeds, and original
 * choices bound to the mutant's new values, cover them in a few copies. */
static void test_engine__lock_step_generalises_over_wide_choices(void **state)
{
    (void)state;
    mf_model *m = load("tests/models/scatter.smv", NULL);
    mf_model *ref = load("tests/models/scatter_case.smv", NULL);
    mf_model *fewer = load("tests/models/scatter_fewer.smv", NULL);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.explicit_max = 0;
    o.bound = 3;
    const mf_model *same[2] = {ref, fewer};
    for (int i = 0; i < 2; i++) {
        mf_verdict v = {0};
        assert_int_equal(mf_engine_check_against(m, same[i], &o, &v), 0);
        assert_int_equal(v.kind, MF_V_EQUIVALENT);
        assert_non_null(strstr(v.method, "lock-step"));
        mf_verdict_clear(&v);
    }
    /* The other way round, y = 29 is new: killed, not proved. */
    mf_verdict v = {0};
    assert_int_equal(mf_engine_check_against(fewer, m, &o, &v), 0);
    assert_int_equal(v.kind, MF_V_KILLED);
    assert_int_equal(v.test->length, 1);
    assert_int_equal(mf_engine_replay(fewer, m, v.test, v.notion), 0);
    mf_verdict_clear(&v);
    mf_model_free(m);
    mf_model_free(ref);
    mf_model_free(fewer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_engine__refill_mutant_definitely_killed_by_shortest_test),
        cmocka_unit_test(test_engine__refill_mutant_found_by_operator_is_killed),
        cmocka_unit_test(
            test_engine__nondeterministic_refill_potentially_not_definitely),
        cmocka_unit_test(
            test_engine__coffee_only_mutant_is_not_potentially_killable),
        cmocka_unit_test(
            test_engine__deterministic_car_alarm_batch_matches_fresh),
        cmocka_unit_test(
            test_engine__replay_rejects_a_test_that_does_not_distinguish),
        cmocka_unit_test(
            test_engine__refactored_counter_proved_by_k_induction),
        cmocka_unit_test(
            test_engine__learnt_steps_find_shortest_potential_kills),
        cmocka_unit_test(
            test_engine__hidden_state_potential_kill_binds_observed_choices),
        cmocka_unit_test(test_engine__deep_definite_kill_by_the_explorer),
        cmocka_unit_test(
            test_engine__definite_lookahead_refutes_lengths_at_once),
        cmocka_unit_test(
            test_engine__batch_definite_lookahead_keeps_the_late_kill),
        cmocka_unit_test(test_engine__batch_refusal_kills_match_the_explorer),
        cmocka_unit_test(test_engine__lock_step_generalises_over_wide_choices),
        cmocka_unit_test(test_engine__every_method_honours_the_definite_notion),
        cmocka_unit_test(test_engine__a_budget_that_runs_out_is_unknown),
        cmocka_unit_test(
            test_engine__explorer_lengths_decide_and_steer_the_searches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
