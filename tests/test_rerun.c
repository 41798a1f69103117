/* test_rerun.c - what a nightly rerun relies on (docs/nightly.md): a test
 * stored as JSON read back into a model by the names of its variables
 * (mf_store_test_read: round trips, other variable and symbol orders, and
 * every malformed or foreign input refused with a message), observed
 * DEFINEs written as their values, and the replay of a stored test on a
 * mutant (coordinator/rerun_replay.h: definite, potential and deterministic
 * kills, none where the mutant shows nothing new, expected outputs
 * computed anew for an edited model), and the store's side of a rerun on a
 * real SQLite file (carrying a finished campaign, recording replayed
 * kills, the counts). The end-to-end runs of the binary are
 * tests/rerun_*.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "rerun_replay.h"
#include "sim.h"
#include "store.h"
#include "store_int.h"
#include "langs.h"

/* ---- models ------------------------------------------------------------- */

static const char beverage[] =
    "MODULE main\n"
    "IVAR inp : {none, req, fill};\n"
    "VAR wtr : 0..2; out : {eps, coff, tea};\n"
    "ASSIGN\n"
    "  init(wtr) := 2; init(out) := eps;\n"
    "  next(out) := case inp = req & wtr > 0 : {coff, tea};\n"
    "                    TRUE : eps; esac;\n"
    "  next(wtr) := case inp = fill & wtr = 0 : 2;\n"
    "                    inp = req & wtr > 0 : wtr - 1;\n"
    "                    TRUE : wtr; esac;\n";

/* Refills one unit: killed definitely by req, req, fill (wtr is
 * observed). */
static const char refill_one[] =
    "MODULE main\n"
    "IVAR inp : {none, req, fill};\n"
    "VAR wtr : 0..2; out : {eps, coff, tea};\n"
    "ASSIGN\n"
    "  init(wtr) := 2; init(out) := eps;\n"
    "  next(out) := case inp = req & wtr > 0 : {coff, tea};\n"
    "                    TRUE : eps; esac;\n"
    "  next(wtr) := case inp = fill & wtr = 0 : 1;\n"
    "                    inp = req & wtr > 0 : wtr - 1;\n"
    "                    TRUE : wtr; esac;\n";

/* May also answer a request with eps: a potential kill, never a definite
 * one (it may serve coffee as the original does). */
static const char maybe_eps[] =
    "MODULE main\n"
    "IVAR inp : {none, req, fill};\n"
    "VAR wtr : 0..2; out : {eps, coff, tea};\n"
    "ASSIGN\n"
    "  init(wtr) := 2; init(out) := eps;\n"
    "  next(out) := case inp = req & wtr > 0 : {eps, coff, tea};\n"
    "                    TRUE : eps; esac;\n"
    "  next(wtr) := case inp = fill & wtr = 0 : 2;\n"
    "                    inp = req & wtr > 0 : wtr - 1;\n"
    "                    TRUE : wtr; esac;\n";

/* Serves coffee only: every behaviour is one of the original's. */
static const char coffee_only[] =
    "MODULE main\n"
    "IVAR inp : {none, req, fill};\n"
    "VAR wtr : 0..2; out : {eps, coff, tea};\n"
    "ASSIGN\n"
    "  init(wtr) := 2; init(out) := eps;\n"
    "  next(out) := case inp = req & wtr > 0 : coff;\n"
    "                    TRUE : eps; esac;\n"
    "  next(wtr) := case inp = fill & wtr = 0 : 2;\n"
    "                    inp = req & wtr > 0 : wtr - 1;\n"
    "                    TRUE : wtr; esac;\n";

/* A lamp with an array, an input VAR, an IVAR and an enumerated DEFINE;
 * `lamp2` declares its symbols and variables in another order. */
static const char lamp[] =
    "MODULE main\n"
    "IVAR go : boolean;\n"
    "VAR st : {Off, On}; dim : 0..3; hist : array 0..1 of boolean;\n"
    "    mode : {eco, full};\n"
    "ASSIGN\n"
    "  init(st) := Off; init(dim) := 0;\n"
    "  init(hist[0]) := FALSE; init(hist[1]) := FALSE;\n"
    "  next(st) := case go : On; TRUE : Off; esac;\n"
    "  next(dim) := case go & dim < 3 : dim + 1; TRUE : dim; esac;\n"
    "  next(hist[0]) := go; next(hist[1]) := hist[0];\n"
    "DEFINE light := st;\n";

static const char lamp2[] =
    "MODULE main\n"
    "VAR mode : {full, eco}; hist : array 0..1 of boolean; dim : 0..3;\n"
    "    st : {On, Off};\n"
    "IVAR go : boolean;\n"
    "ASSIGN\n"
    "  init(st) := Off; init(dim) := 0;\n"
    "  init(hist[0]) := FALSE; init(hist[1]) := FALSE;\n"
    "  next(st) := case go : On; TRUE : Off; esac;\n"
    "  next(dim) := case go & dim < 3 : dim + 1; TRUE : dim; esac;\n"
    "  next(hist[0]) := go; next(hist[1]) := hist[0];\n"
    "DEFINE light := st;\n";

static const char *const lamp_observe[] = {"st", "dim", "hist", "light"};

static mf_model *load(const char *text, const char *const *observe, int nobs)
{
    mf_model_opts o = {0};
    mf_model *m = NULL;
    o.observe = (const char **)observe;
    o.nobserve = nobs;
    if (mf_model_load(&m, "inline.smv", text, strlen(text), &o) != 0)
        fail_msg("inline model refused: %s", mf_err_msg());
    return m;
}

static mf_val sym(const mf_model *m, const char *name)
{
    int i = mf_model_find_sym(m, name);
    assert_true(i >= 0);
    return MF_SYM(i);
}

static int slot(const mf_model *m, const char *var)
{
    int i = mf_model_find_var(m, var);
    assert_true(i >= 0);
    return m->vars[i].slot;
}

/* A test of m over the given input rows (a whole state vector each; only
 * input cells are read), its expected observables those of m's first run
 * (choice 0 at every step). */
static mf_test *sim_test(const mf_model *m, const mf_val *rows, int len)
{
    int n = m->nslots, nobs = mf_model_nobs(m);
    mf_test *t = mf_test_new(n, nobs, len);
    memcpy(t->inputs, rows, sizeof *rows * (size_t)(len + 1) * (size_t)n);
    mf_val *st = calloc((size_t)n + 1, sizeof *st);
    mf_val *nx = calloc((size_t)n + 1, sizeof *nx);
    for (int k = 0; k <= len; k++) {
        const mf_val *inp = rows + (size_t)k * n;
        int rc = k == 0 ? mf_sim_initial(nx, m, inp, 0)
                        : mf_sim_step(nx, m, st, inp, 0);
        if (rc != 0)
            fail_msg("simulation refused at step %d: %s", k, mf_err_msg());
        mf_sim_observe(t->expect + (size_t)k * nobs, nobs, m, nx);
        memcpy(st, nx, sizeof *st * (size_t)n);
    }
    free(st);
    free(nx);
    return t;
}

/* Beverage inputs req, req, fill, req, req after the initial state. */
static mf_test *beverage_test(const mf_model *m)
{
    const char *seq[] = {"none", "req", "req", "fill", "req", "req"};
    int n = m->nslots, in = slot(m, "inp");
    mf_val *rows = calloc((size_t)6 * n, sizeof *rows);
    for (int k = 0; k < 6; k++)
        rows[(size_t)k * n + in] = sym(m, seq[k]);
    mf_test *t = sim_test(m, rows, 5);
    free(rows);
    return t;
}

/* The lamp: go on, on, off, on; the input VAR mode eco, then full. */
static mf_test *lamp_test(const mf_model *m)
{
    int n = m->nslots, go = slot(m, "go"), mode = slot(m, "mode");
    static const int on[] = {0, 1, 1, 0, 1};
    mf_val *rows = calloc((size_t)5 * n, sizeof *rows);
    for (int k = 0; k < 5; k++) {
        rows[(size_t)k * n + go] = on[k];
        rows[(size_t)k * n + mode] = sym(m, k < 2 ? "eco" : "full");
    }
    mf_test *t = sim_test(m, rows, 4);
    free(rows);
    return t;
}

/* The JSON columns of t rendered for m: [inputs, expected, allowed|NULL]. */
typedef struct {
    char *inputs, *expected, *allowed;
} json3;

static json3 render(const mf_model *m, const mf_test *t)
{
    mf_store_test_rows r = {0};
    const char *bad = mf_store_test_render(&r, m, t);
    if (bad)
        fail_msg("render: %s", bad);
    json3 j = {strdup(r.inputs.data), strdup(r.expected.data),
               r.has_allowed ? strdup(r.allowed.data) : NULL};
    mf_store_test_rows_free(&r);
    return j;
}

static void json3_free(json3 *j)
{
    free(j->inputs);
    free(j->expected);
    free(j->allowed);
}

/* The input cells of state k of two tests of one model agree. */
static void same_inputs(const mf_model *m, const mf_test *a, const mf_test *b)
{
    for (int k = 0; k <= a->length; k++)
        for (int i = 0; i < m->nvars; i++) {
            const mf_var *v = &m->vars[i];
            int used = k == 0 ? v->is_input && v->decl == MF_DECL_VAR
                              : v->is_input || v->decl == MF_DECL_IVAR;
            for (int q = 0; used && q < v->nslots; q++)
                assert_int_equal(
                    a->inputs[(size_t)k * m->nslots + v->slot + q],
                    b->inputs[(size_t)k * m->nslots + v->slot + q]);
        }
}

/* ---- reading stored tests ----------------------------------------------- */

static void test_read__round_trips_a_rendered_test(void **state)
{
    (void)state;
    mf_model *m = load(beverage, NULL, 0);
    mf_test *t = beverage_test(m);
    json3 j = render(m, t);
    mf_test *back = NULL;
    assert_int_equal(mf_store_test_read(&back, m, t->length, j.inputs,
                                        j.expected, j.allowed, NULL),
                     0);
    assert_int_equal(back->length, 5);
    same_inputs(m, t, back);
    assert_memory_equal(back->expect, t->expect,
                        sizeof *t->expect * 6 * (size_t)t->nobs);
    mf_test_free(back);
    json3_free(&j);
    mf_test_free(t);
    mf_model_free(m);
}

static void test_read__names_not_positions(void **state)
{
    (void)state;
    mf_model *a = load(lamp, lamp_observe, 4);
    mf_model *b = load(lamp2, lamp_observe, 4);
    mf_test *t = lamp_test(a);
    json3 j = render(a, t);
    mf_test *back = NULL;
    assert_int_equal(mf_store_test_read(&back, b, t->length, j.inputs,
                                        j.expected, j.allowed, NULL),
                     0);
    /* Rendered for b and read back into a, it is the test made for a. */
    json3 jb = render(b, back);
    assert_string_not_equal(jb.inputs, j.inputs); /* b's order of names */
    mf_test *again = NULL;
    assert_int_equal(mf_store_test_read(&again, a, t->length, jb.inputs,
                                        jb.expected, jb.allowed, NULL),
                     0);
    same_inputs(a, t, again);
    assert_memory_equal(again->expect, t->expect,
                        sizeof *t->expect * 5 * (size_t)t->nobs);
    mf_test_free(again);
    /* Though b numbers the symbols and the slots otherwise. */
    assert_int_not_equal(sym(a, "On"), sym(b, "On"));
    assert_int_not_equal(slot(a, "st"), slot(b, "st"));
    json3_free(&jb);
    mf_test_free(back);
    json3_free(&j);
    mf_test_free(t);
    mf_model_free(a);
    mf_model_free(b);
}

static void test_json__an_enumerated_define_is_its_symbol(void **state)
{
    (void)state;
    mf_model *m = load(lamp, lamp_observe, 4);
    mf_test *t = lamp_test(m);
    json3 j = render(m, t);
    assert_non_null(strstr(j.expected, "\"light\":\"Off\""));
    assert_non_null(strstr(j.expected, "\"light\":\"On\""));
    assert_null(strstr(j.expected, "1099511627"));
    /* Arrays by cell, booleans by name. */
    assert_non_null(strstr(j.expected, "\"hist[1]\":\"TRUE\""));
    assert_non_null(strstr(j.expected, "\"dim\":2"));
    assert_non_null(strstr(j.inputs, "\"go\":\"TRUE\""));
    /* It reads back as the symbol, and as the number older stores wrote. */
    mf_test *back = NULL;
    assert_int_equal(mf_store_test_read(&back, m, t->length, j.inputs,
                                        j.expected, NULL, NULL),
                     0);
    assert_memory_equal(back->expect, t->expect,
                        sizeof *t->expect * 5 * (size_t)t->nobs);
    mf_test_free(back);
    json3_free(&j);
    mf_test_free(t);
    mf_model_free(m);
}

/* Read `inputs` and `expected` for the beverage model, length 1: the
 * code, and the message in *msg. */
static int read_bev(const mf_model *m, int len, const char *inputs,
                    const char *expected, const char *allowed, int *partial)
{
    mf_test *t = NULL;
    int rc = mf_store_test_read(&t, m, len, inputs, expected, allowed, partial);
    if (rc == 0)
        assert_non_null(t);
    else
        assert_null(t);
    mf_test_free(t);
    return rc;
}

static const char ok_in[] = "[{},{\"inp\":\"req\"}]";
static const char ok_exp[] =
    "[{\"wtr\":2,\"out\":\"eps\"},{\"wtr\":1,\"out\":\"tea\"}]";

static void expect_refused(const mf_model *m, int len, const char *inputs,
                           const char *expected, const char *allowed,
                           const char *words)
{
    int rc = read_bev(m, len, inputs, expected, allowed, NULL);
    if (rc >= 0)
        fail_msg("accepted: %s / %s", inputs, expected);
    if (!strstr(mf_err_msg(), words))
        fail_msg("message '%s' does not say '%s'", mf_err_msg(), words);
}

static void test_read__refuses_what_does_not_fit(void **state)
{
    (void)state;
    mf_model *m = load(beverage, NULL, 0);
    assert_int_equal(read_bev(m, 1, ok_in, ok_exp, NULL, NULL), 0);
    assert_int_equal(read_bev(m, 1, ok_in, ok_exp, "null", NULL), 0);
    assert_int_equal(
        read_bev(m, 1, " [ { } , { \"inp\" : \"req\" } ] ", ok_exp, NULL, NULL),
        0);
    expect_refused(m, 1, "[{},{\"lever\":\"req\"}]", ok_exp, NULL,
                   "'lever', which the model does not have");
    expect_refused(m, 1, "[{},{\"inp\":\"brew\"}]", ok_exp, NULL,
                   "value 'brew' the model does not have");
    expect_refused(m, 1, "[{},{\"inp\":\"eps\"}]", ok_exp, NULL,
                   "not of its type");
    expect_refused(m, 1, "[{},{\"inp\":3}]", ok_exp, NULL, "not of its type");
    expect_refused(m, 1, "[{},{}]", ok_exp, NULL, "no value for 'inp'");
    expect_refused(m, 1, "[{\"inp\":\"req\"},{\"inp\":\"req\"}]", ok_exp, NULL,
                   "not an initial input");
    expect_refused(m, 1, "[{},{\"wtr\":1}]", ok_exp, NULL, "not an input");
    expect_refused(m, 1, "[{},{\"inp\":\"req\",\"inp\":\"req\"}]", ok_exp, NULL,
                   "twice");
    expect_refused(m, 2, ok_in, ok_exp, NULL,
                   "2 states for a test of "
                   "length 2");
    expect_refused(m, 0, ok_in, ok_exp, NULL, "more than 1 states");
    expect_refused(m, 1, ok_in,
                   "[{\"wtr\":2,\"out\":\"eps\"},{\"wtr\":9,"
                   "\"out\":\"tea\"}]",
                   NULL, "not of its type");
    expect_refused(m, 1, ok_in, "[{\"wtr\":2},{\"wtr\":1,\"out\":\"tea\"}]",
                   NULL, "no value for 'out'");
    expect_refused(m, 1, ok_in,
                   "[{\"wtr\":2,\"out\":\"eps\",\"inp\":\"req\"},"
                   "{\"wtr\":1,\"out\":\"tea\"}]",
                   NULL, "not observed");
    expect_refused(m, 1, "[{},{\"inp\":\"req\"}] x", ok_exp, NULL,
                   "text after the end");
    expect_refused(m, 1, "[{},{\"inp\":\"req\"}", ok_exp, NULL, "ends where");
    expect_refused(m, 1, "[{},{\"inp\":\"re", ok_exp, NULL, "unterminated");
    expect_refused(m, 1, "[{},{\"inp\":1.5}]", ok_exp, NULL, "whole number");
    expect_refused(m, 1, "[{},{\"inp\":99999999999999999999}]", ok_exp, NULL,
                   "out of range");
    expect_refused(m, 1, "[{},{\"inp\":\"r\\u0000q\"}]", ok_exp, NULL,
                   "not a character");
    expect_refused(m, 1, "[{},{\"inp\":\"r\\qq\"}]", ok_exp, NULL,
                   "bad escape");
    expect_refused(m, 1, "[{},{\"inp\":[\"req\"]}]", ok_exp, NULL,
                   "a number or a string");
    expect_refused(m, 1, "{}", ok_exp, NULL, "'[' expected");
    expect_refused(m, 1, ok_in, ok_exp, "[[],[{\"wtr\":1}]]",
                   "no value for 'out'");
    expect_refused(m, 1, ok_in, ok_exp, "[[]]",
                   "1 states for a test of "
                   "length 1");
    expect_refused(m, -1, ok_in, ok_exp, NULL, "length -1 out of range");
    /* Escapes of plain characters are names like any other. */
    assert_int_equal(read_bev(m, 1, "[{},{\"\\u0069np\":\"r\\u0065q\"}]",
                              ok_exp, NULL, NULL),
                     0);
    mf_model_free(m);
}

static void test_read__partial_expected_outputs(void **state)
{
    (void)state;
    mf_model *m = load(beverage, NULL, 0);
    int partial = 0;
    const char *missing = "[{\"wtr\":2},{\"wtr\":1}]";
    assert_int_equal(
        read_bev(m, 1, ok_in, missing, "[[{\"wtr\":2}],[]]", &partial), 0);
    assert_int_equal(partial, 1);
    partial = 0;
    assert_int_equal(read_bev(m, 1, ok_in, ok_exp, NULL, &partial), 0);
    assert_int_equal(partial, 0);
    /* A name the model lacks is refused even then. */
    assert_true(read_bev(m, 1, ok_in, "[{\"level\":2},{\"wtr\":1}]", NULL,
                         &partial) < 0);
    mf_model_free(m);
}

static void test_read__keeps_allowed_outputs(void **state)
{
    (void)state;
    mf_model *m = load(beverage, NULL, 0);
    mf_test *t = NULL;
    const char *allowed = "[[{\"wtr\":2,\"out\":\"eps\"}],"
                          "[{\"wtr\":1,\"out\":\"coff\"},"
                          "{\"wtr\":1,\"out\":\"tea\"}]]";
    assert_int_equal(mf_store_test_read(&t, m, 1, ok_in, ok_exp, allowed, NULL),
                     0);
    assert_int_equal(t->nallowed[0], 1);
    assert_int_equal(t->nallowed[1], 2);
    /* out is the second observable: tea in the second allowed output. */
    assert_int_equal(t->allowed[1][1 * t->nobs + 1], sym(m, "tea"));
    mf_test_free(t);
    mf_model_free(m);
}

/* ---- replaying a test on a mutant --------------------------------------- */

static void test_replay__definite_kill(void **state)
{
    (void)state;
    mf_model *m = load(beverage, NULL, 0);
    mf_model *mm = load(refill_one, NULL, 0);
    mf_test *t = beverage_test(m);
    mf_replay *rp = NULL;
    int reexpected = 1;
    assert_int_equal(mf_replay_new(&rp, m, t, &reexpected), 0);
    assert_int_equal(reexpected, 0);
    for (int want = MF_REQ_AUTO; want <= MF_REQ_DEFINITE; want++) {
        mf_test *k = NULL;
        mf_notion nt = MF_N_DETERMINISTIC;
        assert_int_equal(mf_replay_kill(rp, mm, (mf_notion_req)want, &k, &nt),
                         1);
        /* auto and definite say definite; potential takes what it asks. */
        assert_int_equal(nt, want == MF_REQ_POTENTIAL ? MF_N_POTENTIAL
                                                      : MF_N_DEFINITE);
        assert_int_equal(k->length, 3); /* the refill shows in wtr */
        mf_test_free(k);
    }
    mf_replay_free(rp);
    mf_test_free(t);
    mf_model_free(mm);
    mf_model_free(m);
}

static void test_replay__potential_kill_only_where_asked(void **state)
{
    (void)state;
    mf_model *m = load(beverage, NULL, 0);
    mf_model *eps = load(maybe_eps, NULL, 0);
    mf_model *coff = load(coffee_only, NULL, 0);
    mf_test *t = beverage_test(m);
    mf_replay *rp = NULL;
    int reexpected = 0;
    assert_int_equal(mf_replay_new(&rp, m, t, &reexpected), 0);
    mf_test *k = NULL;
    mf_notion nt = MF_N_DEFINITE;
    assert_int_equal(mf_replay_kill(rp, eps, MF_REQ_AUTO, &k, &nt), 1);
    assert_int_equal(nt, MF_N_POTENTIAL);
    assert_int_equal(k->length, 1); /* eps for the first request */
    assert_non_null(k->mobs);
    mf_test_free(k);
    k = NULL;
    assert_int_equal(mf_replay_kill(rp, eps, MF_REQ_DEFINITE, &k, &nt), 0);
    assert_null(k);
    /* Coffee only: nothing the original cannot do. */
    assert_int_equal(mf_replay_kill(rp, coff, MF_REQ_AUTO, &k, &nt), 0);
    assert_int_equal(mf_replay_kill(rp, m, MF_REQ_AUTO, &k, &nt), 0);
    assert_null(k);
    mf_replay_free(rp);
    mf_test_free(t);
    mf_model_free(coff);
    mf_model_free(eps);
    mf_model_free(m);
}

static void test_replay__deterministic_kill(void **state)
{
    (void)state;
    const char *const obs[] = {"st", "dim", "hist"};
    mf_model *m = load(lamp, obs, 3);
    /* dim counts to 2 only. */
    char *text = strdup(lamp);
    char *at = strstr(text, "dim < 3");
    assert_non_null(at);
    at[6] = '2';
    mf_model *mm = load(text, obs, 3);
    free(text);
    mf_test *t = lamp_test(m);
    mf_replay *rp = NULL;
    int reexpected = 0;
    assert_int_equal(mf_replay_new(&rp, m, t, &reexpected), 0);
    mf_test *k = NULL;
    mf_notion nt = MF_N_DEFINITE;
    /* go, go: dim 2; go again at state 4: 3 against 2. */
    assert_int_equal(mf_replay_kill(rp, mm, MF_REQ_AUTO, &k, &nt), 1);
    assert_int_equal(nt, MF_N_DETERMINISTIC);
    assert_int_equal(k->length, 4);
    mf_test_free(k);
    mf_replay_free(rp);
    mf_test_free(t);
    mf_model_free(mm);
    mf_model_free(m);
}

static void test_replay__expected_outputs_of_an_edited_model(void **state)
{
    (void)state;
    mf_model *m = load(beverage, NULL, 0);
    mf_model *edited = load(refill_one, NULL, 0);
    mf_test *t = beverage_test(m);
    mf_replay *rp = NULL;
    int reexpected = 0;
    /* The test expects coffee or tea for the last request; the edited
     * model has no water left: its outputs are taken instead. */
    assert_int_equal(mf_replay_new(&rp, edited, t, &reexpected), 0);
    assert_int_equal(reexpected, 1);
    const mf_test *e = mf_replay_test(rp);
    int out = 1; /* observables: wtr, out */
    assert_int_equal(e->expect[(size_t)5 * e->nobs + out], sym(edited, "eps"));
    assert_int_equal(e->expect[(size_t)5 * e->nobs + 0], 0);
    /* And it kills the original as a mutant of the edited model. */
    mf_test *k = NULL;
    mf_notion nt = MF_N_DETERMINISTIC;
    assert_int_equal(mf_replay_kill(rp, m, MF_REQ_AUTO, &k, &nt), 1);
    mf_test_free(k);
    mf_replay_free(rp);
    mf_test_free(t);
    mf_model_free(edited);
    mf_model_free(m);
}

/* ---- the store's side ---------------------------------------------------- */

typedef struct {
    mf_store *s;
    int n;
} plan_cb;

static int add_fn(const mf_mutant *mu, void *ctx)
{
    plan_cb *p = ctx;
    if (mf_store_plan_add(p->s, mu) < 0)
        fail_msg("plan_add: %s", mf_err_msg());
    p->n += mu->status == MF_MUT_OK;
    return 0;
}

/* Plan every mutant of m into campaign c; the count to decide. */
static int plan_all(mf_store *s, const mf_model *m, int64_t c)
{
    plan_cb p = {s, 0};
    assert_int_equal(mf_store_plan_begin(s, c), 0);
    assert_int_equal(mf_mutants_each(m, 0, add_fn, &p), 0);
    return p.n;
}

static int ids_fn(const mf_store_mutant *mu, void *ctx)
{
    MF_VEC(char *) *ids = ctx;
    MF_VEC_PUSH(*ids, strdup(mu->id));
    return 0;
}

/* Decide every job of campaign c: the very first mutant killed by test t,
 * the others survived. */
static void decide_all(mf_store *s, const mf_model *m, int64_t c, mf_test *t)
{
    mf_store_job job;
    int first = 1;
    while (mf_store_job_take(s, &job, c, 1000, "w1",
                             mf_store_now_ms() + 60000) == 0) {
        MF_VEC(char *) ids = {0};
        assert_int_equal(mf_store_job_mutants(s, job.id, ids_fn, &ids), 0);
        mf_verdict *v = calloc((size_t)ids.n, sizeof *v);
        mf_store_verdict *sv = calloc((size_t)ids.n, sizeof *sv);
        for (int i = 0; i < ids.n; i++) {
            v[i].kind = first ? MF_V_KILLED : MF_V_SURVIVED;
            v[i].notion = MF_N_DEFINITE;
            v[i].bound = first ? t->length : 5;
            v[i].test = first ? t : NULL;
            sv[i].mutant_id = ids.v[i];
            sv[i].v = &v[i];
            first = 0;
        }
        mf_store_result r = {0};
        r.job_id = job.id;
        r.attempt = job.attempts;
        r.verdicts = sv;
        r.nverdicts = ids.n;
        r.model = m;
        mf_store_commit_info info;
        assert_int_equal(mf_store_commit(s, &info, &r), 0);
        assert_int_equal(info.outcome, MF_COMMIT_OK);
        for (int i = 0; i < ids.n; i++)
            free(ids.v[i]);
        MF_VEC_FREE(ids);
        free(v);
        free(sv);
    }
}

static int64_t count(mf_store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t n = -1;
    if (sqlite3_prepare_v2(mf_store_db(s), sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

static int open_key(mf_store *s, mf_store_campaign *out, int64_t model,
                    int bound, mf_buf *options)
{
    mf_config cfg;
    mf_buf ops = {0};
    mf_config_default(&cfg);
    cfg.bound = bound;
    mf_buf_reset(options);
    assert_int_equal(mf_config_campaign_key(&cfg, &ops, options), 0);
    mf_store_campaign_key key = {bound, "auto", ops.data, options->data};
    int rc = mf_store_campaign_open(s, out, model, &key, "0.1.0", NULL);
    mf_buf_free(&ops);
    return rc;
}

static void
test_store__carries_a_campaign_and_records_replayed_kills(void **state)
{
    (void)state;
    char dir[] = "/tmp/mf_rerun_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/farm.db", dir);
    mf_store *s = NULL;
    assert_int_equal(mf_store_open(&s, path, 0, 2000), 0);
    mf_model *m = load(beverage, NULL, 0);
    mf_test *t = beverage_test(m);
    int64_t model = 0, basis = 0;
    int carry = 0;
    mf_buf opt = {0};
    assert_int_equal(mf_store_model_put(s, &model, m->hash, "beverage.smv",
                                        beverage, sizeof beverage - 1),
                     0);
    assert_int_equal(
        mf_store_basis_find(s, &basis, &carry, model, "beverage.smv", "{}"),
        MF_ENOTFOUND);

    /* Campaign 1, decided and finished. */
    mf_store_campaign c1, c2, c3;
    assert_int_equal(open_key(s, &c1, model, 10, &opt), 0);
    int total = plan_all(s, m, c1.id);
    assert_int_equal(mf_store_plan_end(s, 1), 0);
    decide_all(s, m, c1.id, t);
    assert_int_equal(mf_store_campaign_finish(s, c1.id), 0);

    /* Campaign 2, same options: everything carried, nothing to cut. */
    assert_int_equal(open_key(s, &c2, model, 10, &opt), 0);
    assert_int_equal(c2.resumed, 0);
    assert_int_equal(
        mf_store_basis_find(s, &basis, &carry, model, "beverage.smv", opt.data),
        0);
    assert_int_equal(basis, c1.id);
    assert_int_equal(carry, 1);
    assert_int_equal(plan_all(s, m, c2.id), total);
    int64_t n = 0;
    assert_int_equal(mf_store_plan_carry(s, c1.id, &n), 0);
    assert_int_equal(n, total);
    mf_store_reuse r = {MF_REUSE_CARRY, c1.id, n, 0, 0, 0, 0, -1, 0};
    assert_int_equal(mf_store_plan_reuse(s, &r), 0);
    assert_int_equal(r.to_solver, 0);
    assert_int_equal(mf_store_plan_end(s, 1), 0);
    mf_store_job job;
    assert_int_equal(mf_store_job_next(s, &job, c2.id, 1000), MF_ENOTFOUND);
    mf_store_counts k;
    assert_int_equal(mf_store_counts_get(s, &k, c2.id), 0);
    assert_int_equal(k.done, total);
    assert_int_equal(k.killed, 1);
    assert_int_equal(k.unplanned, 0);
    assert_int_equal(mf_store_campaign_finish(s, c2.id), 0);
    mf_store_reuse got;
    assert_int_equal(mf_store_reuse_get(s, &got, c2.id), 0);
    assert_int_equal(got.mode, MF_REUSE_CARRY);
    assert_int_equal(got.carried, total);
    assert_int_equal(got.basis, c1.id);
    assert_int_equal(
        count(s, "SELECT count(*) FROM tests WHERE campaign_id = 2"), 1);
    assert_int_equal(
        count(s, "SELECT count(*) FROM kills WHERE campaign_id = 2"), 1);
    assert_int_equal(count(s, "SELECT count(*) FROM verdicts WHERE "
                              "campaign_id = 2 AND origin = 'carried' AND "
                              "origin_campaign = 1 AND job_id IS NULL"),
                     total);
    assert_int_equal(count(s, "SELECT count(*) FROM score_history"), 2);
    /* Campaign 1 planned before it all: it does not say. */
    assert_int_equal(mf_store_reuse_get(s, &got, c1.id), MF_ENOTFOUND);

    /* Campaign 3, other options: only the tests are of use. */
    assert_int_equal(open_key(s, &c3, model, 6, &opt), 0);
    assert_int_equal(
        mf_store_basis_find(s, &basis, &carry, model, "beverage.smv", opt.data),
        0);
    assert_int_equal(basis, c2.id);
    assert_int_equal(carry, 0);
    mf_verdict_kind was = MF_V_ERROR;
    mf_notion how = MF_N_POTENTIAL;
    /* Two mutants killed by a replayed test: one test row for both. */
    MF_VEC(char *) ids = {0};
    plan_all(s, m, c3.id);
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(mf_store_db(s),
                       "SELECT mutant_id FROM mutants WHERE campaign_id = 3 "
                       "AND status = 'ok' ORDER BY id LIMIT 2",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW)
        MF_VEC_PUSH(ids, strdup((const char *)sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    assert_int_equal(ids.n, 2);
    int64_t row = 0;
    assert_int_equal(
        mf_store_plan_kill(s, ids.v[0], m, t, MF_N_DEFINITE, c2.id, 1, &row),
        0);
    assert_true(row > 0);
    int64_t row2 = row;
    assert_int_equal(
        mf_store_plan_kill(s, ids.v[1], m, t, MF_N_DEFINITE, c2.id, 1, &row2),
        0);
    assert_int_equal(row2, row);
    assert_int_equal(
        mf_store_plan_kill(s, ids.v[1], m, t, MF_N_DEFINITE, c2.id, 1, &row2),
        MF_ERROR);
    assert_non_null(strstr(mf_err_msg(), "has a verdict already"));
    assert_int_equal(mf_store_plan_kill(s, "0123456789abcdef", m, t,
                                        MF_N_DEFINITE, c2.id, 1, &row2),
                     MF_ERROR);
    assert_int_equal(mf_store_earlier_kind(s, c2.id, ids.v[0], &was, &how), 1);
    r = (mf_store_reuse){MF_REUSE_REPLAY, c2.id, 0, 1, 0, 0, 2, -1, 0};
    assert_int_equal(mf_store_plan_reuse(s, &r), 0);
    assert_int_equal(r.to_solver, total - 2);
    assert_int_equal(mf_store_plan_end(s, 1), 0);
    assert_int_equal(
        count(s, "SELECT count(*) FROM tests WHERE campaign_id = 3"), 1);
    assert_int_equal(count(s, "SELECT count(*) FROM verdicts WHERE "
                              "campaign_id = 3 AND origin = 'replayed' AND "
                              "method = 'replayed test 1 of campaign 2'"),
                     2);
    assert_int_equal(mf_store_counts_get(s, &k, c3.id), 0);
    assert_int_equal(k.unplanned, total - 2);
    /* Outside a plan, and another model's name: refused, not found. */
    assert_int_equal(
        mf_store_plan_kill(s, ids.v[0], m, t, MF_N_DEFINITE, c2.id, 1, &row),
        MF_ERROR);
    assert_int_equal(mf_store_plan_carry(s, c1.id, &n), MF_ERROR);
    assert_int_equal(mf_store_basis_find(s, &basis, &carry, model + 1,
                                         "other.smv", opt.data),
                     MF_ENOTFOUND);
    assert_int_equal(mf_store_integrity(s), 0);
    for (int i = 0; i < ids.n; i++)
        free(ids.v[i]);
    MF_VEC_FREE(ids);
    mf_buf_free(&opt);
    mf_test_free(t);
    mf_model_free(m);
    mf_store_close(s);
    static const char *const sfx[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        char p[96];
        snprintf(p, sizeof p, "%s%s", path, sfx[i]);
        unlink(p);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read__round_trips_a_rendered_test),
        cmocka_unit_test(test_read__names_not_positions),
        cmocka_unit_test(test_json__an_enumerated_define_is_its_symbol),
        cmocka_unit_test(test_read__refuses_what_does_not_fit),
        cmocka_unit_test(test_read__partial_expected_outputs),
        cmocka_unit_test(test_read__keeps_allowed_outputs),
        cmocka_unit_test(test_replay__definite_kill),
        cmocka_unit_test(test_replay__potential_kill_only_where_asked),
        cmocka_unit_test(test_replay__deterministic_kill),
        cmocka_unit_test(test_replay__expected_outputs_of_an_edited_model),
        cmocka_unit_test(
            test_store__carries_a_campaign_and_records_replayed_kills),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
