/* test_explore.c - the explicit-state explorer (model/explore.h): exact
 * potential and definite killability on the paper's beverage machine, the
 * car alarm, inline deterministic models, and a tally over every mutant of
 * every accepted model in tests/models and MF_SHARED_MODELS/corpus. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "explore.h"
#include "mutate.h"
#include "langs.h"
#include "smv.h"

/* ---- helpers ---------------------------------------------------------- */

static const char *observe_out[] = {"out"};

static mf_model *load_text(const char *name, const char *text,
                           const mf_model_opts *opts)
{
    mf_model *m = NULL;
    int rc = mf_model_load(&m, name, text, strlen(text), opts);
    if (rc != 0)
        fail_msg("%s: %s", name, mf_err_msg());
    return m;
}

static char *read_text(const char *path)
{
    char *text = NULL;
    size_t len;
    if (mf_read_file(&text, &len, path, 1 << 20) != 0)
        fail_msg("%s: %s", path, mf_err_msg());
    return text;
}

/* `text` with its first `from` replaced by `to` (from NULL: as it is),
 * loaded as `name`: a hand-made mutant. */
static mf_model *load_replaced(const char *name, const char *text,
                               const char *from, const char *to,
                               const mf_model_opts *opts)
{
    if (!from)
        return load_text(name, text, opts);
    size_t head = 0, n = strlen(from);
    while (text[head] && strncmp(text + head, from, n))
        head++;
    if (!text[head])
        fail_msg("'%s' not in the model", from);
    mf_buf b = {0};
    mf_buf_put(&b, text, head);
    mf_buf_puts(&b, to);
    mf_buf_puts(&b, text + head + n);
    mf_model *m = load_text(name, b.data, opts);
    mf_buf_free(&b);
    return m;
}

/* The beverage machine observed as in the paper: only `out`. */
static mf_model *beverage(const char *from, const char *to)
{
    mf_model_opts opts = {0};
    opts.observe = observe_out;
    opts.nobserve = 1;
    char *text = read_text("tests/models/beverage.smv");
    mf_model *m = load_replaced("beverage.smv", text, from, to, &opts);
    free(text);
    return m;
}

typedef struct {
    const mf_model *m;
    mf_mop op;
    const char *site, *repl, *desc; /* NULL: any */
    mf_model *mut;
} find_ctx;

static int find_fn(const mf_mutant *mu, void *ctx)
{
    find_ctx *f = ctx;
    if (mu->status != MF_MUT_OK || mu->op != (int)f->op ||
        (f->site && strcmp(mu->site, f->site) != 0) ||
        (f->repl && strcmp(mu->repl, f->repl) != 0) ||
        (f->desc && !strstr(mu->desc, f->desc)))
        return 0;
    if (mf_mutant_apply(&f->mut, f->m, mu) != 0)
        fail_msg("apply %s: %s", mu->id, mf_err_msg());
    return 1;
}

/* The first mutant of m with this operator, site, replacement text and a
 * description containing desc (NULL: any). */
static mf_model *mutant(const mf_model *m, mf_mop op, const char *site,
                        const char *repl, const char *desc)
{
    find_ctx f = {m, op, site, repl, desc, NULL};
    mf_mutants_each(m, 1u << op, find_fn, &f);
    if (!f.mut)
        fail_msg("no %s mutant at %s", mf_mop_name(op), site ? site : "?");
    return f.mut;
}

/* The value of input cell `var` at step k of the test. */
static mf_val step_input(const mf_model *m, const mf_input_seq *t, int k,
                         const char *var)
{
    int v = mf_model_find_var(m, var);
    assert_true(v >= 0);
    return t->steps[(size_t)k * m->nslots + m->vars[v].slot];
}

static mf_val sym(const mf_model *m, const char *name)
{
    int i = mf_model_find_sym(m, name);
    assert_true(i >= 0);
    return MF_SYM(i);
}

/* Every input of the test is accepted by the original (it is a test). */
static void assert_original_accepts(const mf_model *m, const mf_input_seq *t)
{
    mf_buf out = {0};
    int rc = mf_sim_run(&out, m, t);
    if (rc != 0)
        fail_msg("original refuses the killing test:\n%s", out.data);
    mf_buf_free(&out);
}

/* ---- beverage machine (acceptance of issue 3) -------------------------- */

static void test_beverage__refill_one_unit_is_definitely_killed_by_req_req_fill_req_req(
    void **state)
{
    (void)state;
    mf_model *m = beverage(NULL, NULL);
    mf_model *mu = mutant(m, MF_MOP_NUMBER_REPLACE, "next(wtr)/b1.v", "1", NULL);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    assert_int_equal(r.definite.length, 5);
    assert_int_equal(r.potential.length, 5);
    assert_false(r.orig_det);
    const mf_input_seq *t = r.definite.test;
    assert_non_null(t);
    assert_int_equal(t->nsteps, 5);
    const char *want[] = {"req", "req", "fill", "req", "req"};
    for (int k = 0; k < 5; k++)
        assert_true(step_input(m, t, k, "inp") == sym(m, want[k]));
    assert_original_accepts(m, t);
    mf_buf b = {0};
    mf_explore_print_test(&b, m, t);
    assert_string_equal(b.data, "inp=req\ninp=req\ninp=fill\ninp=req\ninp=req\n");
    mf_buf_free(&b);
    mf_explore_result_free(&r);

    /* Asked for definite only, the same answer. */
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_DEFINITE, 0, 0), 0);
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    assert_int_equal(r.definite.length, 5);
    assert_int_equal(r.potential.verdict, MF_XV_NONE);
    mf_explore_result_free(&r);

    /* A bound below 5 finds nothing and says so (a limit, not a proof). */
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_DEFINITE, 0, 4),
                     MF_ELIMIT);
    assert_int_equal(r.definite.verdict, MF_XV_LIMIT);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_beverage__nondeterministic_refill_is_potentially_not_definitely_killable(
    void **state)
{
    (void)state;
    mf_model *m = beverage(NULL, NULL);
    mf_model *mu = beverage("inp = fill & wtr = 0 : 2;",
                            "inp = fill & wtr = 0 : {1, 2};");
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 5);
    assert_original_accepts(m, r.potential.test);
    assert_int_equal(r.definite.verdict, MF_XV_NOT_KILLABLE);
    assert_false(r.mut_det);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_beverage__coffee_only_mutant_is_not_potentially_killable(
    void **state)
{
    (void)state;
    mf_model *m = beverage(NULL, NULL);
    mf_model *mu = beverage("{coff, tea}", "coff");
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_NOT_KILLABLE);
    assert_int_equal(r.definite.verdict, MF_XV_NOT_KILLABLE);
    assert_null(r.potential.test);
    mf_explore_result_free(&r);
    /* The other way round (original coffee only, "mutant" serves tea too)
     * it is potentially killable at the first request, not definitely. */
    assert_int_equal(mf_explore(&r, mu, m, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 1);
    assert_int_equal(r.definite.verdict, MF_XV_NOT_KILLABLE);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_beverage__observing_the_tank_kills_the_refill_mutant_at_fill(
    void **state)
{
    (void)state;
    /* With the default observables (wtr and out) the refill is seen at
     * once: req, req, fill. */
    mf_model *m = NULL, *mu = NULL;
    assert_int_equal(mf_model_load_file(&m, "tests/models/beverage.smv", NULL),
                     0);
    mu = mutant(m, MF_MOP_NUMBER_REPLACE, "next(wtr)/b1.v", "1", NULL);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    assert_int_equal(r.definite.length, 3);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

/* ---- deterministic inline models ---------------------------------------- */

static const char *counter =
    "MODULE main\n"
    "IVAR go : boolean;\n"
    "VAR c : 0..3;\n"
    "ASSIGN\n"
    "  init(c) := 0;\n"
    "  next(c) := case\n"
    "      go & c < 3 : c + 1;\n"
    "      c > 3      : 0;\n"
    "      TRUE       : c;\n"
    "    esac;\n";

static void test_deterministic__mutant_of_a_dead_branch_is_equivalent(
    void **state)
{
    (void)state;
    mf_model *m = load_text("counter.smv", counter, NULL);
    mf_model *mu = load_replaced("counter_mut.smv", counter, "c > 3      : 0",
                                 "c > 3      : 2", NULL);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_NOT_KILLABLE);
    assert_int_equal(r.definite.verdict, MF_XV_NOT_KILLABLE);
    assert_true(r.orig_det);
    assert_true(r.mut_det);
    /* Exhausted: 7 product states in lock-step. A state carries the last
     * step's IVAR values (observed DEFINEs may read them), so the states
     * are (c, go): (0, FALSE) initially, then (1..3, TRUE), (1..3, FALSE). */
    assert_int_equal(r.potential.nodes, 7);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_deterministic__off_by_one_guard_is_killed_at_the_first_difference(
    void **state)
{
    (void)state;
    mf_model *m = load_text("counter.smv", counter, NULL);
    mf_model *mu = load_replaced("counter_mut.smv", counter, "go & c < 3",
                                 "go & c < 2", NULL);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 3); /* go, go, go: 3 vs 2 */
    assert_int_equal(r.potential.refusal, 0); /* the outputs differ */
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    assert_int_equal(r.definite.length, 3);
    assert_true(r.det_shortcut);
    for (int k = 0; k < 3; k++)
        assert_true(step_input(m, r.definite.test, k, "go") == 1);
    mf_explore_result_free(&r);
    /* A state limit below the product size gives a limit, not a verdict. */
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 2, 0), MF_ELIMIT);
    assert_int_equal(r.potential.verdict, MF_XV_LIMIT);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_deterministic__mutant_refusing_an_accepted_input_is_killed(
    void **state)
{
    (void)state;
    mf_model *m = load_text("counter.smv", counter, NULL);
    /* Without the TRUE branch the mutant has no successor when !go. */
    mf_model *mu = load_replaced("counter_mut.smv", counter,
                                 "      TRUE       : c;\n", "", NULL);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 1);
    assert_int_equal(r.potential.refusal, 1);
    assert_true(step_input(m, r.potential.test, 0, "go") == 0);
    mf_explore_result_free(&r);
    /* The other way round: the "original" refuses !go, which is then never
     * a test; the "mutant" accepting more is not killed by it. */
    assert_int_equal(mf_explore(&r, mu, m, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_NOT_KILLABLE);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

/* An environment written the NuSMV way: input VARs free in their next
 * values that a TRANS lets change one at a time, p by at most 3. The
 * explorer takes each state's accepted inputs from one enumeration with
 * the inputs free (explore_state.c, accepts): the threshold moved by one
 * is killed when p reaches 9 (0, 3, 6, 9: length 3), and a mutant whose
 * TRANS refuses p's step down by 3 is killed by that refusal (0, 3, 0). */
static const char env_model[] =
    "MODULE main\n"
    "VAR b : {on, off}; p : 0..30; mode : {lo, hi};\n"
    "ASSIGN init(b) := off; init(p) := 0; init(mode) := lo;\n"
    "  next(b) := {on, off}; next(p) := 0..30;\n"
    "  next(mode) := case next(p) >= 9 : hi; TRUE : lo; esac;\n"
    "TRANS (next(b) != b & next(p) = p) |\n"
    "  (next(b) = b & next(p) - p <= 3 & p - next(p) <= 3 & next(p) != p)\n";

static void test_environment__trans_constrained_inputs_kill_at_depth(
    void **state)
{
    (void)state;
    static const char *obs[] = {"mode"};
    mf_model_opts o = {.observe = obs, .nobserve = 1};
    mf_model *m = load_text("env.smv", env_model, &o);
    mf_model *mu = load_replaced("env_mut.smv", env_model, ">= 9", ">= 10",
                                 &o);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 3);
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    assert_int_equal(r.definite.length, 3);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mu = load_replaced("env_ref.smv", env_model, "p - next(p) <= 3",
                       "p - next(p) <= 2", &o);
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 2);
    assert_int_equal(r.potential.refusal, 1);
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_deterministic__different_initial_observables_kill_at_length_zero(
    void **state)
{
    (void)state;
    /* An input VAR chosen by the initial input feeds an observed VAR. */
    const char *src =
        "MODULE main\n"
        "VAR x : boolean; y : 0..2;\n"
        "ASSIGN init(y) := 0; next(y) := x ? 1 : 0;\n";
    mf_model *m = load_text("init.smv", src, NULL);
    mf_model *mu = load_replaced("init_mut.smv", src, "init(y) := 0",
                                 "init(y) := 2", NULL);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 0);
    assert_int_equal(r.potential.test->nsteps, 0);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_relational__refusal_shared_with_the_original_does_not_kill(
    void **state)
{
    (void)state;
    /* Two initial states with other observables; in t = a the input p = 0
     * is refused by both models, in t = b accepted by both. "t = a, then
     * a refusal of p = 0" is an original behaviour: no kill. */
    const char *src =
        "MODULE main\n"
        "VAR t : {a, b};\n"
        "IVAR p : 0..1;\n"
        "TRANS t = a -> p = 1\n"
        "TRANS next(t) = t\n";
    mf_model *pair[2] = {load_text("rel.smv", src, NULL),
                         load_replaced("rel_mut.smv", src, "next(t) = t",
                                       "t = next(t)", NULL)};
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, pair[0], pair[1], MF_EXPLORE_POTENTIAL,
                                0, 0),
                     0);
    assert_int_equal(r.potential.verdict, MF_XV_NOT_KILLABLE);
    mf_explore_result_free(&r);
    for (int k = 0; k < 2; k++)
        mf_model_free(pair[k]);
}

static void test_relational__refusal_shared_with_the_original_is_no_definite_kill(
    void **state)
{
    (void)state;
    /* p = 1 shows other x in t = a and is refused by both in t = b; p = 0
     * is refused by both in t = a and shows the same x in t = b: every
     * test has a behaviour of both (potential kill, no definite one). */
    const char *src =
        "MODULE main\n"
        "VAR t : {a, b}; x : boolean;\n"
        "IVAR p : 0..1;\n"
        "INIT !x\n"
        "TRANS t = a -> p = 1\n"
        "TRANS t = b -> p = 0\n"
        "TRANS next(t) = t\n"
        "TRANS next(x) = (t = a & p = 1)\n";
    mf_model *pair[2] = {load_text("rel2.smv", src, NULL),
                         load_replaced("rel2_mut.smv", src, "(t = a & p = 1)",
                                       "FALSE", NULL)};
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, pair[0], pair[1], MF_EXPLORE_AUTO, 0, 0),
                     0);
    assert_int_equal(r.potential.verdict, MF_XV_KILLED);
    assert_int_equal(r.potential.length, 1);
    assert_int_equal(r.definite.verdict, MF_XV_NOT_KILLABLE);
    mf_explore_result_free(&r);
    for (int k = 0; k < 2; k++)
        mf_model_free(pair[k]);
}

/* ---- car alarm ----------------------------------------------------------- */

static void test_car_alarm__missing_arming_branch_is_killed_after_close_lock_tick(
    void **state)
{
    (void)state;
    mf_model *m = NULL;
    assert_int_equal(
        mf_model_load_file(&m, "tests/models/car_alarm.smv", NULL), 0);
    mf_model *mu = mutant(m, MF_MOP_CASE_REMOVE, "next(st)/b9", NULL, NULL);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    assert_int_equal(r.definite.length, 3);
    assert_true(r.orig_det && r.mut_det);
    /* close, lock (or lock, close), then tick arms the original only. */
    assert_true(step_input(m, r.definite.test, 2, "ev") == sym(m, "tick"));
    assert_original_accepts(m, r.definite.test);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_car_alarm__sound_on_flash_only_is_killed_by_opening_when_armed(
    void **state)
{
    (void)state;
    mf_model *m = NULL;
    assert_int_equal(
        mf_model_load_file(&m, "tests/models/car_alarm.smv", NULL), 0);
    char *text = read_text("tests/models/car_alarm.smv");
    mf_model *mu = load_replaced("car_alarm_mut.smv", text,
                                 "next(sound) := next(st) = FlashSound",
                                 "next(sound) := next(st) = FlashOnly", NULL);
    free(text);
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.definite.verdict, MF_XV_KILLED);
    /* close, lock, tick (armed), open: sound in the original only. */
    assert_int_equal(r.definite.length, 4);
    assert_true(step_input(m, r.definite.test, 3, "ev") == sym(m, "open"));
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

static void test_car_alarm__swapping_disjoint_branches_is_equivalent(
    void **state)
{
    (void)state;
    mf_model *m = NULL;
    assert_int_equal(
        mf_model_load_file(&m, "tests/models/car_alarm.smv", NULL), 0);
    /* Branches 1 and 2 of next(st) have disjoint guards. */
    mf_model *mu = mutant(m, MF_MOP_CASE_SWAP, NULL, NULL,
                          "branches 1 and 2 at next(st)");
    mf_explore_result r;
    assert_int_equal(mf_explore(&r, m, mu, MF_EXPLORE_AUTO, 0, 0), 0);
    assert_int_equal(r.potential.verdict, MF_XV_NOT_KILLABLE);
    assert_int_equal(r.definite.verdict, MF_XV_NOT_KILLABLE);
    mf_explore_result_free(&r);
    mf_model_free(mu);
    mf_model_free(m);
}

/* ---- the mutant's steps through the original's (delta) ------------------- */

static int count_fn(const mf_mutant *mu, void *ctx);

static int nobs_of(const mf_model *m)
{
    int n = m->nobs_defines;
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].is_observable)
            n += m->vars[i].nslots;
    return n;
}

/* The same verdict, length, node count, test and mutant behaviour. */
static void assert_same_notion(const mf_model *m, const char *id,
                               const mf_explore_notion *a,
                               const mf_explore_notion *b)
{
    if (a->verdict != b->verdict || a->nodes != b->nodes ||
        a->depth != b->depth || a->cut != b->cut)
        fail_msg("%s: delta %s (%ld nodes, depth %d), simulator %s (%ld "
                 "nodes, depth %d)", id, mf_explore_verdict_name(a->verdict),
                 a->nodes, a->depth, mf_explore_verdict_name(b->verdict),
                 b->nodes, b->depth);
    if (a->verdict != MF_XV_KILLED)
        return;
    assert_int_equal(a->length, b->length);
    assert_int_equal(a->refusal, b->refusal);
    size_t row = sizeof(mf_val) * (size_t)m->nslots;
    assert_int_equal(a->test->nsteps, b->test->nsteps);
    assert_memory_equal(a->test->init, b->test->init, row);
    if (a->length > 0)
        assert_memory_equal(a->test->steps, b->test->steps,
                            row * (size_t)a->length);
    assert_int_equal(!a->mobs, !b->mobs);
    if (a->mobs && nobs_of(m) > 0)
        assert_memory_equal(a->mobs, b->mobs,
                            sizeof(mf_val) * (size_t)nobs_of(m) *
                                (size_t)(a->length + 1));
}

typedef struct {
    const mf_model *m;
    mf_explore_ctx *on, *off;
    int seen, stride, compared;
    long delta_steps, sim_steps; /* the mutants' with delta on */
    int with_delta, without;     /* mutants whose steps were / were not */
} delta_ctx;

static int delta_fn(const mf_mutant *mu, void *ctx)
{
    delta_ctx *d = ctx;
    if (mu->status != MF_MUT_OK || d->seen++ % d->stride != 0)
        return 0;
    mf_model *mm = NULL;
    if (mf_mutant_apply(&mm, d->m, mu) != 0)
        return 0;
    mf_explore_result a, b;
    mf_explore_with(d->on, &a, mm, MF_EXPLORE_AUTO, 3000, 0);
    mf_explore_with(d->off, &b, mm, MF_EXPLORE_AUTO, 3000, 0);
    assert_same_notion(d->m, mu->id, &a.potential, &b.potential);
    assert_same_notion(d->m, mu->id, &a.definite, &b.definite);
    assert_int_equal(a.mut_det, b.mut_det);
    assert_int_equal(b.mut_delta_steps, 0);
    /* Each step is the simulator's or the original's, never both. */
    assert_int_equal(a.mut_sim_steps + a.mut_delta_steps, b.mut_sim_steps);
    d->delta_steps += a.mut_delta_steps;
    d->sim_steps += a.mut_sim_steps;
    if (a.mut_delta_steps)
        d->with_delta++;
    else if (a.mut_sim_steps)
        d->without++;
    d->compared++;
    mf_explore_result_free(&a);
    mf_explore_result_free(&b);
    mf_model_free(mm);
    return 0;
}

static delta_ctx compare_delta(const mf_model *m, int per_model)
{
    delta_ctx d = {0};
    d.m = m;
    int nok = 0;
    mf_mutants_each(m, 0, count_fn, &nok);
    d.stride = nok > per_model ? (nok + per_model - 1) / per_model : 1;
    d.on = mf_explore_ctx_new(m);
    d.off = mf_explore_ctx_new(m);
    mf_explore_ctx_set_delta(d.off, 0);
    mf_mutants_each(m, 0, delta_fn, &d);
    mf_explore_ctx_free(d.on);
    mf_explore_ctx_free(d.off);
    return d;
}

/* Inputs (an IVAR read by next(x), an input VAR), a FROZENVAR, a choice,
 * a TRANS, and next(y) reading next(x): the mutants of next(y) step by
 * the simulator alone. */
static const char *delta_model =
    "MODULE main\n"
    "IVAR go : boolean;\n"
    "VAR d : 0..2; x : 0..3; y : 0..3;\n"
    "FROZENVAR k : 0..1;\n"
    "ASSIGN\n"
    "  init(x) := 0;\n"
    "  next(x) := case go : (x + d) mod 4; TRUE : {x, 0}; esac;\n"
    "  init(y) := k;\n"
    "  next(y) := next(x) = k ? y : x;\n"
    "TRANS next(x) != 3 | y != 2\n";

static void test_delta__steps_through_the_original_change_no_result(
    void **state)
{
    (void)state;
    static const char *inputs[] = {"go", "d"};
    mf_model_opts opts = {0};
    opts.inputs = inputs;
    opts.ninputs = 2;
    mf_model *m = load_text("delta.smv", delta_model, &opts);
    delta_ctx d = compare_delta(m, 1000);
    print_message("# delta.smv: %d mutants, %d with steps through the "
                  "original (%ld of %ld steps)\n", d.compared, d.with_delta,
                  d.delta_steps, d.delta_steps + d.sim_steps);
    assert_true(d.compared >= 20);
    assert_true(d.with_delta > 0); /* next(x), init() mutants */
    assert_true(d.without > 0);    /* next(y), TRANS mutants */
    mf_model_free(m);

    const char *files[] = {"tests/models/beverage.smv",
                           "tests/models/car_alarm.smv",
                           "tests/models/collision_rfid.smv",
                           "tests/models/door_lock.smv",
                           "tests/models/refuse.smv",
                           "tests/models/late_definite.smv"};
    long steps = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        assert_int_equal(mf_model_load_file(&m, files[i], NULL), 0);
        d = compare_delta(m, 30);
        steps += d.delta_steps;
        mf_model_free(m);
    }
    assert_true(steps > 0);
}

/* ---- every mutant of every accepted model -------------------------------- */

/* Under the sanitizers every mutant of the corpus takes tens of minutes, so
 * by default the tally takes an evenly spaced sample of at most
 * TALLY_PER_MODEL mutants per model under a smaller state limit;
 * MF_EXPLORE_ALL=1 takes every mutant with the default limit (the full
 * table: tests/gt_dump on each model, in a release build). */
#define TALLY_MAX_STATES 500L
#define TALLY_PER_MODEL 4

typedef struct {
    const mf_model *m;
    mf_explore_ctx *ctx;
    int killed, definite, potential_only, not_killable, limit, error;
    int mut_error; /* the simulator rejects the mutant (not the original) */
    int mismatch; /* a killing test the original refuses */
    int seen, stride; /* sampling: every stride-th checkable mutant */
    long max_states;
} tally;

static int count_fn(const mf_mutant *mu, void *ctx)
{
    if (mu->status == MF_MUT_OK)
        (*(int *)ctx)++;
    return 0;
}

static int tally_fn(const mf_mutant *mu, void *ctx)
{
    tally *t = ctx;
    if (mu->status != MF_MUT_OK || t->seen++ % t->stride != 0)
        return 0;
    mf_model *mm = NULL;
    if (mf_mutant_apply(&mm, t->m, mu) != 0) {
        t->error++;
        return 0;
    }
    mf_explore_result r;
    mf_explore_with(t->ctx, &r, mm, MF_EXPLORE_AUTO, t->max_states, 0);
    switch (r.potential.verdict) {
    case MF_XV_KILLED: {
        t->killed++;
        if (r.definite.verdict == MF_XV_KILLED)
            t->definite++;
        else if (r.definite.verdict == MF_XV_NOT_KILLABLE)
            t->potential_only++;
        /* Definite kills never come after potential ones. */
        if (r.definite.verdict == MF_XV_KILLED &&
            r.definite.length < r.potential.length)
            t->mismatch++;
        mf_buf b = {0}, bm = {0};
        if (mf_sim_run(&b, t->m, r.potential.test) != 0)
            t->mismatch++;
        /* Deterministic where explored: the simulator's own run of the
         * mutant must show the difference (other observables, or a
         * refusal). */
        if (r.det_shortcut && mf_sim_run(&bm, mm, r.potential.test) == 0 &&
            strcmp(b.data ? b.data : "", bm.data ? bm.data : "") == 0) {
            print_message("#   %s: replay does not distinguish\n%s", mu->id,
                          b.data);
            t->mismatch++;
        }
        mf_buf_free(&b);
        mf_buf_free(&bm);
        break;
    }
    case MF_XV_NOT_KILLABLE:
        t->not_killable++;
        break;
    case MF_XV_LIMIT:
        t->limit++;
        break;
    default:
        if (!strncmp(r.err, "mutant:", 7)) {
            t->mut_error++;
            print_message("#   %s (%s): %s\n", mu->id, mf_mop_name(mu->op),
                          r.err);
        } else
            t->error++;
        break;
    }
    mf_explore_result_free(&r);
    mf_model_free(mm);
    return 0;
}

static void tally_dir(const char *dir, int *nmodels)
{
    DIR *d = opendir(dir);
    if (!d) {
        print_message("# %s: not found, skipped\n", dir);
        return;
    }
    MF_VEC(char *) names = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".smv"))
            MF_VEC_PUSH(names, mf_xstrdup(e->d_name));
    }
    closedir(d);
    for (int i = 0; i < names.n; i++)
        for (int j = i + 1; j < names.n; j++)
            if (strcmp(names.v[i], names.v[j]) > 0) {
                char *x = names.v[i];
                names.v[i] = names.v[j];
                names.v[j] = x;
            }
    for (int i = 0; i < names.n; i++) {
        mf_buf path = {0};
        mf_buf_printf(&path, "%s/%s", dir, names.v[i]);
        mf_model *m = NULL;
        if (mf_model_load_file(&m, path.data, NULL) != 0) {
            mf_buf_free(&path);
            continue; /* not accepted by the front-end */
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        tally t = {0};
        t.m = m;
        int nok = 0;
        mf_mutants_each(m, 0, count_fn, &nok);
        const char *all = getenv("MF_EXPLORE_ALL");
        int every = all && !strcmp(all, "1");
        t.stride = every ? 1 : (nok + TALLY_PER_MODEL - 1) / TALLY_PER_MODEL;
        if (t.stride < 1)
            t.stride = 1;
        t.max_states = every ? 0 : TALLY_MAX_STATES;
        t.ctx = mf_explore_ctx_new(m);
        mf_mutants_each(m, 0, tally_fn, &t);
        mf_explore_ctx_free(t.ctx);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) +
                   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        print_message("# %-60.60s %4d/%-4d killed %4d (definite %4d, potential only "
                      "%3d)  not-killable %4d  too-large %4d  mutant-error %d  "
                      "%.1fs\n",
                      names.v[i], (nok + t.stride - 1) / t.stride, nok,
                      t.killed, t.definite, t.potential_only,
                      t.not_killable, t.limit, t.mut_error, s);
        assert_int_equal(t.mismatch, 0);
        assert_int_equal(t.error, 0);
        (*nmodels)++;
        mf_model_free(m);
        mf_buf_free(&path);
    }
    for (int i = 0; i < names.n; i++)
        free(names.v[i]);
    MF_VEC_FREE(names);
}

static void test_corpus__every_mutant_gets_an_exact_verdict_or_a_limit(
    void **state)
{
    (void)state;
    int n = 0;
    tally_dir("tests/models", &n);
    const char *shared = getenv("MF_SHARED_MODELS");
    if (shared) {
        mf_buf dir = {0};
        mf_buf_printf(&dir, "%s/corpus", shared);
        tally_dir(dir.data, &n);
        mf_buf_free(&dir);
    } else
        print_message("# MF_SHARED_MODELS not set: corpus skipped\n");
    assert_true(n >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_beverage__refill_one_unit_is_definitely_killed_by_req_req_fill_req_req),
        cmocka_unit_test(
            test_beverage__nondeterministic_refill_is_potentially_not_definitely_killable),
        cmocka_unit_test(
            test_beverage__coffee_only_mutant_is_not_potentially_killable),
        cmocka_unit_test(
            test_beverage__observing_the_tank_kills_the_refill_mutant_at_fill),
        cmocka_unit_test(
            test_deterministic__mutant_of_a_dead_branch_is_equivalent),
        cmocka_unit_test(
            test_deterministic__off_by_one_guard_is_killed_at_the_first_difference),
        cmocka_unit_test(
            test_deterministic__mutant_refusing_an_accepted_input_is_killed),
        cmocka_unit_test(
            test_environment__trans_constrained_inputs_kill_at_depth),
        cmocka_unit_test(
            test_deterministic__different_initial_observables_kill_at_length_zero),
        cmocka_unit_test(
            test_relational__refusal_shared_with_the_original_does_not_kill),
        cmocka_unit_test(
            test_relational__refusal_shared_with_the_original_is_no_definite_kill),
        cmocka_unit_test(
            test_car_alarm__missing_arming_branch_is_killed_after_close_lock_tick),
        cmocka_unit_test(
            test_car_alarm__sound_on_flash_only_is_killed_by_opening_when_armed),
        cmocka_unit_test(
            test_car_alarm__swapping_disjoint_branches_is_equivalent),
        cmocka_unit_test(
            test_delta__steps_through_the_original_change_no_result),
        cmocka_unit_test(
            test_corpus__every_mutant_gets_an_exact_verdict_or_a_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
