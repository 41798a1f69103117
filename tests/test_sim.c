/* test_sim.c - the simulator (model/sim*.c; the evaluator's own tests are
 * test_eval.c): hand-computed traces of the papers' beverage machine and car alarm,
 * refusals, constraints, domains, arrays, enumeration order and the input
 * file reader. Every expected value comes from reading the model text. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim.h"
#include "langs.h"
#include "sim_fixtures.h"

/* ---- the beverage machine ---------------------------------------------- */

/* req, req, fill, req, req: the water goes 2,1,0,2,1,0; each request with
 * water answers coff (choice 0: coff is declared before tea, so its symbol
 * is smaller) or tea (choice 1); fill answers eps. */
static void test_sim__beverage_refill_after_two_requests(void **state)
{
    (void)state;
    mf_model *m = load_seed("beverage.smv");
    int wtr = slot_of(m, "wtr"), out = slot_of(m, "out"),
        inp = slot_of(m, "inp");
    const char *seq[] = {"req", "req", "fill", "req", "req"};
    const mf_val want_wtr[] = {2, 1, 0, 2, 1, 0};
    mf_val *s = vec(m), *n = vec(m), *i = vec(m);

    assert_int_equal(mf_sim_initial(s, m, i, 0), 0);
    assert_int_equal(s[wtr], 2);
    assert_int_equal(s[out], sym(m, "eps"));
    for (int k = 0; k < 5; k++) {
        i[inp] = sym(m, seq[k]);
        if (k == 2) {
            assert_int_equal(mf_sim_step(n, m, s, i, 0), 0);
            assert_int_equal(n[out], sym(m, "eps"));
            assert_int_equal(mf_sim_step(n, m, s, i, 1), MF_ENOTFOUND);
            assert_int_equal(mf_sim_step(n, m, s, i, 0), 0);
        } else {
            assert_int_equal(mf_sim_step(n, m, s, i, 1), 0);
            assert_int_equal(n[out], sym(m, "tea"));
            assert_int_equal(n[wtr], want_wtr[k + 1]);
            assert_int_equal(mf_sim_step(n, m, s, i, 2), MF_ENOTFOUND);
            assert_int_equal(mf_sim_step(n, m, s, i, 0), 0);
            assert_int_equal(n[out], sym(m, "coff"));
        }
        assert_int_equal(n[wtr], want_wtr[k + 1]);
        memcpy(s, n, (size_t)m->nslots * sizeof(mf_val));
    }
    release(m, s, n, i);
}

/* With an empty tank a request is answered eps and the tank stays empty. */
static void test_sim__beverage_request_on_empty_tank_gives_eps(void **state)
{
    (void)state;
    mf_model *m = load_seed("beverage.smv");
    mf_val *s = vec(m), *i = vec(m);
    collect c = {m, 0, {{0}}};
    s[slot_of(m, "wtr")] = 0;
    s[slot_of(m, "out")] = sym(m, "tea");
    i[slot_of(m, "inp")] = sym(m, "req");
    assert_int_equal(mf_sim_next_each(m, s, i, collect_fn, &c, 1000), 1);
    assert_int_equal(c.states[0][slot_of(m, "wtr")], 0);
    assert_int_equal(c.states[0][slot_of(m, "out")], sym(m, "eps"));
    release(m, s, i, NULL);
}

/* The observables are the non-input VARs in slot order: wtr, out. */
static void test_sim__beverage_observes_wtr_and_out(void **state)
{
    (void)state;
    mf_model *m = load_seed("beverage.smv");
    mf_val *s = vec(m), obs[8];
    s[slot_of(m, "wtr")] = 1;
    s[slot_of(m, "out")] = sym(m, "coff");
    assert_int_equal(mf_sim_observe(obs, 8, m, s), 2);
    assert_int_equal(obs[0], 1);
    assert_int_equal(obs[1], sym(m, "coff"));
    release(m, s, NULL, NULL);
}

static const char bev_inputs[] = "# the paper's killing sequence\n"
                                 "inp=req\n"
                                 "inp=req @1\n"
                                 "inp=fill\n"
                                 "inp=req   -- a comment\n"
                                 "\n"
                                 "inp=req @1\n";

/* --all lists every state the model allows before the chosen one, capped. */
static void test_sim__run_all_lists_both_drinks_and_caps_the_list(void **state)
{
    (void)state;
    mf_model *m = load_seed("beverage.smv");
    mf_input_seq *seq = NULL;
    mf_buf out = {0};
    static const char in[] = "inp=req\n";
    assert_int_equal(mf_input_seq_parse(&seq, m, "a.in", in, strlen(in)), 0);
    assert_int_equal(mf_sim_run_all(&out, m, seq, 100), 0);
    assert_string_equal(out.data, "initial states:\n"
                                  "    @0: wtr=2, out=eps\n"
                                  "step 0: wtr=2, out=eps\n"
                                  "input: inp=req\n"
                                  "successors:\n"
                                  "    @0: wtr=1, out=coff\n"
                                  "    @1: wtr=1, out=tea\n"
                                  "step 1: wtr=1, out=coff\n");
    mf_buf_reset(&out);
    assert_int_equal(mf_sim_run_all(&out, m, seq, 1), 0);
    assert_non_null(strstr(out.data, "successors:\n    @0: wtr=1, out=coff\n"
                                     "    ... more than 1, not listed\n"));
    mf_buf_free(&out);
    mf_input_seq_free(seq);
    mf_model_free(m);
}

static void test_sim__beverage_run_prints_the_trace(void **state)
{
    (void)state;
    mf_model *m = load_seed("beverage.smv");
    mf_input_seq *seq = NULL;
    mf_buf out = {0};
    assert_int_equal(
        mf_input_seq_parse(&seq, m, "bev.in", bev_inputs, strlen(bev_inputs)),
        0);
    assert_int_equal(seq->nsteps, 5);
    assert_int_equal(seq->choices[1], 1);
    assert_int_equal(mf_sim_run(&out, m, seq), 0);
    assert_string_equal(out.data, "step 0: wtr=2, out=eps\n"
                                  "input: inp=req\n"
                                  "step 1: wtr=1, out=coff\n"
                                  "input: inp=req @1\n"
                                  "step 2: wtr=0, out=tea\n"
                                  "input: inp=fill\n"
                                  "step 3: wtr=2, out=eps\n"
                                  "input: inp=req\n"
                                  "step 4: wtr=1, out=coff\n"
                                  "input: inp=req @1\n"
                                  "step 5: wtr=0, out=tea\n");
    mf_buf_free(&out);
    mf_input_seq_free(seq);
    mf_model_free(m);
}

/* ---- the car alarm ------------------------------------------------------ */

/* close, lock, tick arm the car; open raises flash and sound (FlashSound);
 * tick keeps the flash only (FlashOnly); tick ends it (SilentOpen); close
 * re-arms; unlock deactivates. armed/flash/sound follow next(st). */
static void
test_sim__car_alarm_armed_flash_sound_flash_only_silent_open(void **state)
{
    (void)state;
    mf_model *m = load_seed("car_alarm.smv");
    static const char text[] = "ev=close\nev=lock\nev=tick\nev=open\n"
                               "ev=tick\nev=tick\nev=close\nev=unlock\n";
    mf_input_seq *seq = NULL;
    mf_buf out = {0};
    assert_int_equal(mf_input_seq_parse(&seq, m, "car.in", text, strlen(text)),
                     0);
    assert_int_equal(mf_sim_run(&out, m, seq), 0);
    assert_string_equal(
        out.data,
        "step 0: st=OpenUnlocked, armed=FALSE, flash=FALSE, sound=FALSE\n"
        "input: ev=close\n"
        "step 1: st=ClosedUnlocked, armed=FALSE, flash=FALSE, sound=FALSE\n"
        "input: ev=lock\n"
        "step 2: st=ClosedLocked, armed=FALSE, flash=FALSE, sound=FALSE\n"
        "input: ev=tick\n"
        "step 3: st=Armed, armed=TRUE, flash=FALSE, sound=FALSE\n"
        "input: ev=open\n"
        "step 4: st=FlashSound, armed=FALSE, flash=TRUE, sound=TRUE\n"
        "input: ev=tick\n"
        "step 5: st=FlashOnly, armed=FALSE, flash=TRUE, sound=FALSE\n"
        "input: ev=tick\n"
        "step 6: st=SilentOpen, armed=FALSE, flash=FALSE, sound=FALSE\n"
        "input: ev=close\n"
        "step 7: st=Armed, armed=TRUE, flash=FALSE, sound=FALSE\n"
        "input: ev=unlock\n"
        "step 8: st=ClosedUnlocked, armed=FALSE, flash=FALSE, sound=FALSE\n");
    mf_buf_free(&out);
    mf_input_seq_free(seq);
    mf_model_free(m);
}

/* The car alarm is deterministic: every input has exactly one successor. */
static void test_sim__car_alarm_is_deterministic(void **state)
{
    (void)state;
    mf_model *m = load_seed("car_alarm.smv");
    mf_val *s = vec(m), *i = vec(m);
    static const char *evs[] = {"none", "open",   "close",
                                "lock", "unlock", "tick"};
    assert_int_equal(mf_sim_initial(s, m, i, 0), 0);
    for (int k = 0; k < 6; k++) {
        collect c = {m, 0, {{0}}};
        i[slot_of(m, "ev")] = sym(m, evs[k]);
        assert_int_equal(mf_sim_next_each(m, s, i, collect_fn, &c, 1000), 1);
    }
    release(m, s, i, NULL);
}

/* ---- refusals, constraints, domains ------------------------------------- */

static const char refuse_model[] = "MODULE main\n"
                                   "IVAR inp : {a, b};\n"
                                   "VAR x : 0..1;\n"
                                   "ASSIGN\n"
                                   "  init(x) := 0;\n"
                                   "  next(x) := case inp = a : 1; esac;\n";

static void test_sim__non_exhaustive_case_refuses_the_input(void **state)
{
    (void)state;
    mf_model *m = load_text(refuse_model, NULL, 0);
    mf_val *s = vec(m), *n = vec(m), *i = vec(m);
    assert_int_equal(mf_sim_initial(s, m, i, 0), 0);
    i[slot_of(m, "inp")] = sym(m, "b");
    assert_int_equal(mf_sim_step(n, m, s, i, 0), MF_EREFUSED);
    assert_int_equal(mf_sim_next_each(m, s, i, NULL, NULL, 1000), 0);
    i[slot_of(m, "inp")] = sym(m, "a");
    assert_int_equal(mf_sim_step(n, m, s, i, 0), 0);
    assert_int_equal(n[slot_of(m, "x")], 1);

    /* mf_sim_run prints the trace up to the refusal. */
    static const char text[] = "inp=a\ninp=b\ninp=a\n";
    mf_input_seq *seq = NULL;
    mf_buf out = {0};
    assert_int_equal(mf_input_seq_parse(&seq, m, "r.in", text, strlen(text)),
                     0);
    assert_int_equal(mf_sim_run(&out, m, seq), MF_EREFUSED);
    assert_string_equal(out.data,
                        "step 0: x=0\n"
                        "input: inp=a\n"
                        "step 1: x=1\n"
                        "input: inp=b\n"
                        "step 2: refused (no successor for this input)\n");
    mf_buf_free(&out);
    mf_input_seq_free(seq);
    release(m, s, n, i);
}

/* x and y are free; TRANS keeps next(x) + next(y) = 3 with x growing, INVAR
 * excludes x = 2. From (0,0): (1,2), (2,1), (3,0), minus x = 2. */
static void test_sim__trans_and_invar_constrain_successors(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR x : 0..3; y : 0..3;\n"
                               "ASSIGN init(x) := 0; init(y) := 0;\n"
                               "TRANS next(x) + next(y) = 3 & next(x) > x\n"
                               "INVAR x != 2\n";
    mf_model *m = load_text(text, NULL, 0);
    int x = slot_of(m, "x"), y = slot_of(m, "y");
    mf_val *s = vec(m), *i = vec(m);
    collect c = {m, 0, {{0}}};
    assert_int_equal(mf_sim_initial(s, m, i, 0), 0);
    assert_int_equal(mf_sim_next_each(m, s, i, collect_fn, &c, 1000), 2);
    assert_int_equal(c.states[0][x], 1);
    assert_int_equal(c.states[0][y], 2);
    assert_int_equal(c.states[1][x], 3);
    assert_int_equal(c.states[1][y], 0);
    /* From (3,0) nothing is larger than 3: no successor. */
    s[x] = 3;
    s[y] = 0;
    assert_int_equal(mf_sim_next_each(m, s, i, NULL, NULL, 1000), 0);
    release(m, s, i, NULL);
}

/* A callback that enumerates again (the simulator keeps its buffers per
 * thread; a nested call gets buffers of its own): for each successor of
 * the initial state, its own successors, listed from inside the outer
 * enumeration, are those listed from outside it; the outer one goes on. */
typedef struct {
    const mf_model *m;
    const mf_val *inp;
    int outer;
    collect inner[4];
} nested;

static int nested_fn(const mf_val *s, void *ctx)
{
    nested *k = ctx;
    if (k->outer < 4) {
        collect *c = &k->inner[k->outer];
        c->m = k->m;
        assert_true(mf_sim_next_each(k->m, s, k->inp, collect_fn, c, 1000) >=
                    0);
    }
    k->outer++;
    return 0;
}

static void test_sim__enumeration_from_inside_a_callback(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR x : 0..3; y : 0..3;\n"
                               "ASSIGN init(x) := 0; init(y) := 0;\n"
                               "TRANS next(x) + next(y) = 3 & next(x) > x\n";
    mf_model *m = load_text(text, NULL, 0);
    mf_val *s = vec(m), *i = vec(m);
    nested k = {.m = m, .inp = i};
    collect c = {m, 0, {{0}}};
    assert_int_equal(mf_sim_initial(s, m, i, 0), 0);
    assert_int_equal(mf_sim_next_each(m, s, i, nested_fn, &k, 1000), 3);
    assert_int_equal(mf_sim_next_each(m, s, i, collect_fn, &c, 1000), 3);
    assert_int_equal(k.outer, 3);
    for (int t = 0; t < 3; t++) {
        collect d = {m, 0, {{0}}};
        int got = mf_sim_next_each(m, c.states[t], i, collect_fn, &d, 1000);
        assert_int_equal(got, d.n);
        assert_int_equal(k.inner[t].n, d.n);
        assert_int_equal(k.inner[t].n, 2 - t); /* x = 1, 2, 3: x' > x */
        for (int q = 0; q < d.n; q++)
            assert_memory_equal(k.inner[t].states[q], d.states[q],
                                (size_t)m->nslots * sizeof(mf_val));
    }
    release(m, s, i, NULL);
}

/* A TRANS checked right after a free variable is assigned narrows its
 * candidates to the values it allows (model/sim_narrow.c): the same
 * successors, with a handful of candidates tried, not the whole domain
 * (a limit of 30 is enough). Where the relation is not recognised (abs)
 * every candidate is checked: the same successors, past that limit. */
static void test_sim__trans_narrows_a_free_variable(void **state)
{
    (void)state;
    static const char text[] =
        "MODULE main\n"
        "VAR y : {a, b}; x : 0..50;\n"
        "ASSIGN init(x) := 10; init(y) := a;\n"
        "  next(x) := 0..50; next(y) := {a, b};\n"
        "TRANS (next(y) != y & next(x) = x) |\n"
        "  (next(y) = y & next(x) - x <= 2 & x - next(x) <= 2 &\n"
        "   next(x) != x)\n";
    static const char plain[] =
        "MODULE main\n"
        "VAR y : {a, b}; x : 0..50;\n"
        "ASSIGN init(x) := 10; init(y) := a;\n"
        "  next(x) := 0..50; next(y) := {a, b};\n"
        "TRANS (next(y) != y & next(x) = x) |\n"
        "  (next(y) = y & abs(next(x) - x) <= 2 & next(x) != x)\n";
    static const int want_x[] = {8, 9, 11, 12, 10}; /* y: a a a a b */
    for (int t = 0; t < 2; t++) {
        mf_model *m = load_text(t ? plain : text, NULL, 0);
        int x = slot_of(m, "x"), y = slot_of(m, "y");
        mf_val *s = vec(m);
        collect c = {m, 0, {{0}}};
        assert_int_equal(mf_sim_initial(s, m, NULL, 0), 0);
        assert_int_equal(mf_sim_next_each(m, s, NULL, collect_fn, &c,
                                          t ? 1000 : 30),
                         5);
        for (int q = 0; q < 5; q++) {
            assert_int_equal(c.states[q][x], want_x[q]);
            assert_int_equal(c.states[q][y], sym(m, q < 4 ? "a" : "b"));
        }
        if (t)
            assert_int_equal(mf_sim_next_each(m, s, NULL, NULL, NULL, 30),
                             MF_ELIMIT);
        release(m, s, NULL, NULL);
    }
}

/* INIT constrains the initial states of free variables the same way. */
static void test_sim__init_constraint_limits_initial_states(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR x : 0..3; y : boolean;\n"
                               "INIT x > 1 & (y -> x = 3)\n"
                               "TRANS next(x) = x & next(y) = y\n";
    mf_model *m = load_text(text, NULL, 0);
    collect c = {m, 0, {{0}}};
    int x = slot_of(m, "x"), y = slot_of(m, "y");
    /* (2,F), (3,F), (3,T) in slot order, values ascending. */
    assert_int_equal(mf_sim_initial_each(m, NULL, collect_fn, &c, 1000), 3);
    assert_int_equal(c.states[0][x], 2);
    assert_int_equal(c.states[0][y], 0);
    assert_int_equal(c.states[1][x], 3);
    assert_int_equal(c.states[1][y], 0);
    assert_int_equal(c.states[2][x], 3);
    assert_int_equal(c.states[2][y], 1);
    mf_model_free(m);
}

/* next(x) := x + 2 leaves 0..2 from x = 1: a value outside the type is no
 * successor; of the set {x + 1, x + 2} only the values inside remain. */
static void test_sim__out_of_domain_next_value_is_no_successor(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR x : 0..2; y : 0..2;\n"
                               "ASSIGN init(x) := 0; next(x) := x + 2;\n"
                               "  init(y) := 0; next(y) := {y + 1, y + 2};\n";
    mf_model *m = load_text(text, NULL, 0);
    int x = slot_of(m, "x"), y = slot_of(m, "y");
    mf_val *s = vec(m), *n = vec(m), *i = vec(m);
    collect c = {m, 0, {{0}}};
    s[x] = 0;
    s[y] = 1;
    assert_int_equal(mf_sim_next_each(m, s, i, collect_fn, &c, 1000), 1);
    assert_int_equal(c.states[0][x], 2);
    assert_int_equal(c.states[0][y], 2);
    s[x] = 1;
    assert_int_equal(mf_sim_step(n, m, s, i, 0), MF_EREFUSED);
    release(m, s, n, i);
}

/* The candidate count limit stops a large enumeration with MF_ELIMIT. */
static void test_sim__limit_stops_large_enumerations(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR a : 0..9; b : 0..9; c : 0..9;\n"
                               "INIT a + b + c = 27\n"
                               "TRANS next(a) = a\n";
    mf_model *m = load_text(text, NULL, 0);
    assert_int_equal(mf_sim_initial_each(m, NULL, NULL, NULL, 50), MF_ELIMIT);
    assert_int_equal(mf_sim_initial_each(m, NULL, NULL, NULL, 0), 1);
    mf_model_free(m);
}

/* A domain larger than a plan keeps is built by each search over it; one
 * too large to build fails every enumeration that reaches it. */
static void test_sim__large_domains_are_searched_on_every_call(void **state)
{
    (void)state;
    static const char big[] = "MODULE main\n"
                              "VAR x : 0..99999; b : boolean;\n"
                              "INIT x < 70001 & x > 69999 & b\n";
    static const char huge[] = "MODULE main\n"
                               "VAR y : 0..20000000;\n"
                               "INIT y < 3\n";
    mf_model *m = load_text(big, NULL, 0);
    for (int k = 0; k < 2; k++)
        assert_int_equal(mf_sim_initial_each(m, NULL, NULL, NULL, 0), 1);
    mf_model_free(m);
    m = load_text(huge, NULL, 0);
    for (int k = 0; k < 2; k++) {
        mf_err_set(MF_ERROR, "something else");
        assert_int_equal(mf_sim_initial_each(m, NULL, NULL, NULL, 0),
                         MF_ELIMIT);
        assert_non_null(strstr(mf_err_msg(), "too large"));
    }
    mf_model_free(m);
}

/* A constraint's conjunct `y = e` (next(y) = e in TRANS) gives y the
 * values of e as its only candidates: a relational model's huge domain is
 * not searched, and the states are those of the whole search. */
static void test_sim__equalities_give_the_candidates_of_relational_models(
    void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR y : 0..20000000; z : 0..20000000;\n"
                               "IVAR i : 0..3;\n"
                               "INIT y = 3 & z = y + 1\n"
                               "TRANS next(y) = y + i & next(z) = z\n"
                               "TRANS i != 2\n";
    mf_model *m = load_text(text, NULL, 0);
    mf_val st[3] = {0}, inp[3] = {0};
    assert_int_equal(m->nslots, 3);
    assert_int_equal(mf_sim_initial(st, m, NULL, 0), 0);
    assert_int_equal(st[0], 3);
    assert_int_equal(st[1], 4);
    mf_val cur[3] = {3, 4, 1};
    inp[2] = 1;
    assert_int_equal(mf_sim_next_each(m, cur, inp, NULL, NULL, 0), 1);
    inp[2] = 2;
    assert_int_equal(mf_sim_next_each(m, cur, inp, NULL, NULL, 0), 0);
    mf_model_free(m);
}

/* ---- ordering ------------------------------------------------------------ */

/* next(a) reads next(c), so c is assigned before a, yet successors still
 * come in slot order (a slowest, values ascending): a = c always. */
static void
test_sim__successors_in_slot_order_when_dependencies_reorder(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR a : 0..1; b : 0..1; c : 0..1;\n"
                               "ASSIGN\n"
                               "  init(a) := 0; init(b) := 0; init(c) := 0;\n"
                               "  next(a) := next(c);\n"
                               "  next(b) := case a = 0 : {0, 1}; TRUE : 0; "
                               "esac;\n"
                               "  next(c) := case b = 0 : {1, 0}; TRUE : 1; "
                               "esac;\n";
    mf_model *m = load_text(text, NULL, 0);
    int a = slot_of(m, "a"), b = slot_of(m, "b"), c_ = slot_of(m, "c");
    mf_val *s = vec(m), *i = vec(m), *n = vec(m);
    collect c = {m, 0, {{0}}};
    assert_true(a < b && b < c_);
    assert_int_equal(mf_sim_next_each(m, s, i, collect_fn, &c, 1000), 4);
    const int want[4][3] = {{0, 0, 0}, {0, 1, 0}, {1, 0, 1}, {1, 1, 1}};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(c.states[k][a], want[k][0]);
        assert_int_equal(c.states[k][b], want[k][1]);
        assert_int_equal(c.states[k][c_], want[k][2]);
    }
    assert_int_equal(mf_sim_step(n, m, s, i, 2), 0);
    assert_int_equal(n[a], 1);
    assert_int_equal(n[b], 0);
    release(m, s, i, n);
}

/* next(a) := !next(c): the search assigns c first, so it meets (a, c) =
 * (TRUE, FALSE) before (FALSE, TRUE); slot order puts a first, so choice 0
 * is a = FALSE. */
static void test_sim__choice_order_is_slot_order_not_search_order(void **state)
{
    (void)state;
    static const char text[] =
        "MODULE main\n"
        "VAR a : boolean; c : boolean;\n"
        "ASSIGN init(a) := FALSE; init(c) := FALSE;\n"
        "  next(a) := !next(c);\n"
        "  next(c) := case a : {FALSE, TRUE}; TRUE : {TRUE, FALSE}; esac;\n";
    mf_model *m = load_text(text, NULL, 0);
    int a = slot_of(m, "a"), c = slot_of(m, "c");
    mf_val *s = vec(m), *n = vec(m), *i = vec(m);
    assert_true(a < c);
    assert_int_equal(mf_sim_step(n, m, s, i, 0), 0);
    assert_int_equal(n[a], 0);
    assert_int_equal(n[c], 1);
    assert_int_equal(mf_sim_step(n, m, s, i, 1), 0);
    assert_int_equal(n[a], 1);
    assert_int_equal(n[c], 0);
    release(m, s, n, i);
}

static void test_sim__combinational_loop_is_an_error(void **state)
{
    (void)state;
    /* The loader refuses loops; a model built around it (as a mutant is,
     * through mf_model_replace_item) still gets an error, not a hang. */
    static const char looped[] = "MODULE main\n"
                                 "VAR a : boolean; b : boolean;\n"
                                 "ASSIGN next(a) := next(b); next(b) := "
                                 "!next(a);\n";
    mf_model *bad = NULL;
    assert_int_equal(mf_model_load(&bad, "inline.smv", looped,
                                   strlen(looped), NULL),
                     MF_ETYPE);
    assert_non_null(strstr(mf_err_msg(), "combinational loop"));

    static const char text[] = "MODULE main\n"
                               "VAR a : boolean; b : boolean;\n"
                               "ASSIGN next(a) := next(b); next(b) := !a;\n";
    mf_model *m0 = load_text(text, NULL, 0);
    int ib = -1, ia = -1;
    for (int k = 0; k < m0->nitems; k++) {
        if (m0->items[k].kind != MF_IT_NEXT)
            continue;
        if (!strcmp(m0->vars[m0->items[k].var].name, "b"))
            ib = k;
        else
            ia = k;
    }
    assert_true(ia >= 0 && ib >= 0);
    mf_item loop = m0->items[ib];
    loop.e = mf_expr_un(m0->arena, MF_E_NOT,
                        mf_expr_un(m0->arena, MF_E_NEXT, m0->items[ia].lhs));
    mf_model *m = NULL;
    assert_int_equal(mf_model_replace_item(&m, m0, ib, &loop), 0);
    mf_val *s = vec(m), *i = vec(m);
    int rc = mf_sim_next_each(m, s, i, NULL, NULL, 1000);
    assert_true(rc < 0 && rc != MF_EREFUSED);
    assert_non_null(strstr(mf_err_msg(), "combinational loop"));
    assert_non_null(strstr(mf_err_msg(), "inline.smv:3:"));
    /* The model keeps the plan: the error and its message come back on
     * every call, not only the first. */
    mf_err_set(MF_ERROR, "something else");
    assert_int_equal(mf_sim_next_each(m, s, i, NULL, NULL, 1000), rc);
    assert_non_null(strstr(mf_err_msg(), "combinational loop"));
    assert_int_equal(mf_sim_step(s, m, s, i, 0), rc);
    assert_non_null(strstr(mf_err_msg(), "inline.smv:3:"));
    release(m, s, i, NULL);
    mf_model_free(m0);
}

/* A FROZENVAR takes any value initially and then keeps it. */
static void test_sim__frozenvar_keeps_its_initial_value(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "FROZENVAR f : 1..3;\n"
                               "VAR x : 0..3;\n"
                               "ASSIGN init(x) := 0; next(x) := f;\n";
    mf_model *m = load_text(text, NULL, 0);
    mf_val *s = vec(m), *n = vec(m), *i = vec(m);
    collect c = {m, 0, {{0}}};
    assert_int_equal(mf_sim_initial_each(m, NULL, collect_fn, &c, 1000), 3);
    assert_int_equal(mf_sim_initial(s, m, NULL, 2), 0);
    assert_int_equal(s[slot_of(m, "f")], 3);
    assert_int_equal(mf_sim_step(n, m, s, i, 0), 0);
    assert_int_equal(mf_sim_step(n, m, s, i, 1), MF_ENOTFOUND);
    assert_int_equal(n[slot_of(m, "f")], 3);
    assert_int_equal(n[slot_of(m, "x")], 3);
    release(m, s, n, i);
}

/* ---- arrays ------------------------------------------------------------- */

/* a shifts: a[0] gets a[i], a[1] gets a[0], a[2] gets next(a[1]) (the new
 * value, read in the next state). From 1,2,3 with i = 2: a[0] = 3,
 * a[1] = 1, a[2] = 1. i = 3 indexes out of 0..2: no successor. */
static void test_sim__array_elements_and_indices(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "IVAR i : 0..3;\n"
                               "VAR a : array 0..2 of 0..3;\n"
                               "ASSIGN\n"
                               "  init(a[0]) := 1; init(a[1]) := 2;\n"
                               "  init(a[2]) := 3;\n"
                               "  next(a[0]) := a[i];\n"
                               "  next(a[1]) := a[0];\n"
                               "  next(a[2]) := next(a[1]);\n";
    mf_model *m = load_text(text, NULL, 0);
    int a = slot_of(m, "a"), iv = slot_of(m, "i");
    mf_val *s = vec(m), *n = vec(m), *i = vec(m);
    assert_int_equal(mf_sim_initial(s, m, i, 0), 0);
    assert_int_equal(s[a + 0], 1);
    assert_int_equal(s[a + 1], 2);
    assert_int_equal(s[a + 2], 3);
    i[iv] = 2;
    assert_int_equal(mf_sim_step(n, m, s, i, 0), 0);
    assert_int_equal(n[a + 0], 3);
    assert_int_equal(n[a + 1], 1);
    assert_int_equal(n[a + 2], 1);
    i[iv] = 3;
    assert_int_equal(mf_sim_step(n, m, s, i, 0), MF_EREFUSED);

    /* The input file names array elements and IVARs the same way. */
    static const char in[] = "i=2\n-\ni=0 @0\n";
    mf_input_seq *seq = NULL;
    mf_buf out = {0};
    assert_int_equal(mf_input_seq_parse(&seq, m, "a.in", in, strlen(in)), 0);
    assert_int_equal(seq->nsteps, 3);
    assert_int_equal(seq->steps[1 * m->nslots + iv], 2);
    assert_int_equal(mf_sim_run(&out, m, seq), 0);
    /* 1,2,3 -i=2-> 3,1,1 -i=2-> 1,3,3 -i=0-> 1,1,1 */
    assert_string_equal(out.data, "step 0: a[0]=1, a[1]=2, a[2]=3\n"
                                  "input: i=2\n"
                                  "step 1: a[0]=3, a[1]=1, a[2]=1\n"
                                  "input: i=2\n"
                                  "step 2: a[0]=1, a[1]=3, a[2]=3\n"
                                  "input: i=0\n"
                                  "step 3: a[0]=1, a[1]=1, a[2]=1\n");
    mf_buf_free(&out);
    mf_input_seq_free(seq);
    release(m, s, n, i);
}

/* ---- plans kept by the model ------------------------------------------- */

/* next(a[i]) reads i in the current state, so which cell each assignment
 * defines changes from state to state: from i = 1 a[1] gets 1 and a[0] 2;
 * from i = 0 both assignments define a[0], an error; from i = 1 again the
 * first answer, not the error of the state before. */
static void test_sim__left_hand_side_index_is_planned_per_state(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR i : 0..1; a : array 0..1 of 0..3;\n"
                               "ASSIGN\n"
                               "  next(i) := 1 - i;\n"
                               "  next(a[i]) := 1;\n"
                               "  next(a[0]) := 2;\n";
    mf_model *m = load_text(text, NULL, 0);
    int iv = slot_of(m, "i"), a = slot_of(m, "a");
    mf_val *s = vec(m), *n = vec(m), *in = vec(m);
    for (int round = 0; round < 2; round++) {
        s[iv] = 1;
        assert_int_equal(mf_sim_step(n, m, s, in, 0), 0);
        assert_int_equal(n[iv], 0);
        assert_int_equal(n[a + 0], 2);
        assert_int_equal(n[a + 1], 1);
        s[iv] = 0;
        assert_int_equal(mf_sim_next_each(m, s, in, NULL, NULL, 1000),
                         MF_ETYPE);
        assert_non_null(strstr(mf_err_msg(), "'a' is assigned twice"));
    }
    release(m, s, n, in);
}

/* A model freed and another loaded (without ASan's quarantine soon at the
 * same address, as mutants are) must not be enumerated with the first
 * one's plan: x is free in one model (two initial states) and fixed in the
 * other (one). */
static void test_sim__a_new_model_never_gets_a_freed_models_plan(void **state)
{
    (void)state;
    static const char two[] = "MODULE main\n"
                              "VAR x : boolean;\n"
                              "ASSIGN next(x) := x;\n";
    static const char one[] = "MODULE main\n"
                              "VAR x : boolean;\n"
                              "ASSIGN init(x) := TRUE; next(x) := x;\n";
    for (int k = 0; k < 16; k++) {
        mf_model *m = load_text(k % 2 ? one : two, NULL, 0);
        assert_int_equal(mf_sim_initial_each(m, NULL, NULL, NULL, 1000),
                         k % 2 ? 1 : 2);
        mf_model_free(m);
    }
}

typedef struct {
    const mf_model *m;
    int count; /* successors of every state, summed */
} plan_thread;

static void *plan_thread_fn(void *arg)
{
    plan_thread *t = arg;
    mf_val *s = vec(t->m), *in = vec(t->m);
    for (int x = 0; x < 4; x++) {
        s[slot_of(t->m, "x")] = x;
        t->count += mf_sim_next_each(t->m, s, in, NULL, NULL, 1000);
    }
    free(s);
    free(in);
    return NULL;
}

/* Threads enumerating one model for the first time at once each build or
 * take its plan and all see the same successors: from x, x + 1 and x + 2
 * where in 0..3 (2 + 2 + 1 + 0 over x = 0..3); b, an input, is pinned to
 * the input's value. */
static void test_sim__threads_share_a_models_plans(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR x : 0..3; b : boolean;\n"
                               "ASSIGN next(x) := {x + 1, x + 2};\n";
    mf_model *m = load_text(text, NULL, 0);
    pthread_t th[4];
    plan_thread t[4];
    for (int k = 0; k < 4; k++) {
        t[k] = (plan_thread){m, 0};
        assert_int_equal(pthread_create(&th[k], NULL, plan_thread_fn, &t[k]),
                         0);
    }
    for (int k = 0; k < 4; k++) {
        pthread_join(th[k], NULL);
        assert_int_equal(t[k].count, 5);
    }
    mf_model_free(m);
}

/* ---- input VARs ---------------------------------------------------------- */

/* b is assigned by nothing: an input VAR. Its state-0 value comes from the
 * init: line, later ones from the steps; n counts the states where b held
 * (n reads the current b). */
static void test_sim__input_vars_take_their_values_from_the_steps(void **state)
{
    (void)state;
    static const char text[] = "MODULE main\n"
                               "VAR b : boolean; n : 0..5;\n"
                               "ASSIGN init(n) := 0;\n"
                               "  next(n) := b ? n + 1 : n;\n";
    mf_model *m = load_text(text, NULL, 0);
    assert_true(m->vars[mf_model_find_var(m, "b")].is_input);
    static const char in[] = "init: b=TRUE\nb=FALSE\nb=TRUE\n-\n";
    mf_input_seq *seq = NULL;
    mf_buf out = {0};
    assert_int_equal(mf_input_seq_parse(&seq, m, "b.in", in, strlen(in)), 0);
    assert_int_equal(mf_sim_run(&out, m, seq), 0);
    /* n: 0, then +1 (b0 = T), +0 (b1 = F), +1 (b2 = T) */
    assert_string_equal(out.data, "step 0: n=0\n"
                                  "input: b=FALSE\n"
                                  "step 1: n=1\n"
                                  "input: b=TRUE\n"
                                  "step 2: n=1\n"
                                  "input: b=TRUE\n"
                                  "step 3: n=2\n");
    mf_buf_free(&out);
    mf_input_seq_free(seq);
    mf_model_free(m);
}

/* ---- the input file reader ------------------------------------------------
 */

static void expect_parse_error(const mf_model *m, const char *text,
                               const char *want)
{
    mf_input_seq *seq = NULL;
    assert_int_equal(mf_input_seq_parse(&seq, m, "t.in", text, strlen(text)),
                     MF_EPARSE);
    assert_null(seq);
    if (!strstr(mf_err_msg(), want))
        fail_msg("expected '%s' in '%s'", want, mf_err_msg());
}

static void test_sim__input_file_errors_name_line_and_column(void **state)
{
    (void)state;
    mf_model *m = load_seed("beverage.smv");
    expect_parse_error(m, "inp=req\n  foo=1\n",
                       "t.in:2:3: error: unknown variable 'foo'");
    expect_parse_error(m, "inp=req, wtr=1\n",
                       "t.in:1:10: error: 'wtr' is not an input");
    expect_parse_error(m, "# c\ninp=coff\n",
                       "t.in:2:5: error: coff is not in the domain of 'inp'");
    expect_parse_error(m, "inp=water\n",
                       "t.in:1:5: error: 'water' is not a value of 'inp'");
    expect_parse_error(m, "inp=3\n",
                       "t.in:1:5: error: 3 is not in the "
                       "domain of 'inp'");
    expect_parse_error(m, "inp req\n", "t.in:1:5: error: expected '='");
    expect_parse_error(m, "inp=req inp=fill\n",
                       "t.in:1:9: error: expected ',' or '@'");
    expect_parse_error(m, "inp=req @x\n",
                       "t.in:1:9: error: expected a choice number");
    expect_parse_error(m, "inp=req\ninit: inp=req\n",
                       "t.in:2:1: error: 'init:' must come before");
    expect_parse_error(m, "init: inp=req\n",
                       "t.in:1:7: error: 'inp' is an IVAR");
    mf_model_free(m);

    static const char text[] = "MODULE main\n"
                               "IVAR a : array 1..2 of -3..3; b : boolean;\n"
                               "VAR x : 0..1;\n"
                               "ASSIGN init(x) := 0; next(x) := "
                               "case b & a[1] < 0 : 1; TRUE : 0; esac;\n";
    m = load_text(text, NULL, 0);
    expect_parse_error(m, "a[3]=1\n", "t.in:1:3: error: index 3 is out");
    expect_parse_error(m, "a=1\n", "t.in:1:1: error: 'a' is an array");
    expect_parse_error(m, "a[1]=-4\n",
                       "t.in:1:6: error: -4 is not in the "
                       "domain of 'a'");
    expect_parse_error(m, "b=1\n", "t.in:1:3: error: 'b' is boolean");
    expect_parse_error(m, "a[1]=TRUE\n",
                       "t.in:1:6: error: 'a' is not "
                       "boolean");

    /* Negative values, array elements, kept values and choices. */
    mf_input_seq *seq = NULL;
    static const char ok[] = "a[1]=-2, b=TRUE\n a[2] = 3 @0\nb=FALSE\n";
    assert_int_equal(mf_input_seq_parse(&seq, m, "t.in", ok, strlen(ok)), 0);
    int a = slot_of(m, "a"), b = slot_of(m, "b"), n = m->nslots;
    assert_int_equal(seq->nsteps, 3);
    assert_int_equal(seq->steps[0 * n + a], -2);
    assert_int_equal(seq->steps[0 * n + a + 1], -3); /* first value */
    assert_int_equal(seq->steps[0 * n + b], 1);
    assert_int_equal(seq->steps[1 * n + a], -2);
    assert_int_equal(seq->steps[1 * n + a + 1], 3);
    assert_int_equal(seq->steps[2 * n + b], 0);
    assert_int_equal(seq->steps[2 * n + a + 1], 3);
    mf_buf out = {0};
    assert_int_equal(mf_sim_run(&out, m, seq), 0);
    assert_string_equal(out.data, "step 0: x=0\n"
                                  "input: a[1]=-2, a[2]=-3, b=TRUE\n"
                                  "step 1: x=1\n"
                                  "input: a[1]=-2, a[2]=3, b=TRUE\n"
                                  "step 2: x=1\n"
                                  "input: a[1]=-2, a[2]=3, b=FALSE\n"
                                  "step 3: x=0\n");
    mf_buf_free(&out);
    mf_input_seq_free(seq);
    mf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim__beverage_refill_after_two_requests),
        cmocka_unit_test(test_sim__beverage_request_on_empty_tank_gives_eps),
        cmocka_unit_test(test_sim__beverage_observes_wtr_and_out),
        cmocka_unit_test(test_sim__beverage_run_prints_the_trace),
        cmocka_unit_test(
            test_sim__car_alarm_armed_flash_sound_flash_only_silent_open),
        cmocka_unit_test(test_sim__car_alarm_is_deterministic),
        cmocka_unit_test(test_sim__non_exhaustive_case_refuses_the_input),
        cmocka_unit_test(test_sim__trans_and_invar_constrain_successors),
        cmocka_unit_test(test_sim__init_constraint_limits_initial_states),
        cmocka_unit_test(test_sim__out_of_domain_next_value_is_no_successor),
        cmocka_unit_test(test_sim__limit_stops_large_enumerations),
        cmocka_unit_test(test_sim__large_domains_are_searched_on_every_call),
        cmocka_unit_test(
            test_sim__equalities_give_the_candidates_of_relational_models),
        cmocka_unit_test(
            test_sim__successors_in_slot_order_when_dependencies_reorder),
        cmocka_unit_test(test_sim__choice_order_is_slot_order_not_search_order),
        cmocka_unit_test(test_sim__combinational_loop_is_an_error),
        cmocka_unit_test(
            test_sim__run_all_lists_both_drinks_and_caps_the_list),
        cmocka_unit_test(test_sim__frozenvar_keeps_its_initial_value),
        cmocka_unit_test(test_sim__array_elements_and_indices),
        cmocka_unit_test(test_sim__left_hand_side_index_is_planned_per_state),
        cmocka_unit_test(test_sim__a_new_model_never_gets_a_freed_models_plan),
        cmocka_unit_test(test_sim__threads_share_a_models_plans),
        cmocka_unit_test(test_sim__input_vars_take_their_values_from_the_steps),
        cmocka_unit_test(test_sim__input_file_errors_name_line_and_column),
        cmocka_unit_test(test_sim__enumeration_from_inside_a_callback),
        cmocka_unit_test(test_sim__trans_narrows_a_free_variable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
