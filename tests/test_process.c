/* test_process.c - NuSMV processes (model/process.c): the scheduler input,
 * one process moving per step, `running`, the guarded and merged next()
 * assignments, what the mutation operators leave alone, and kills whose
 * every step names the process that moved, replayed by the simulator; and
 * module parameters read through their instance (model/flatten.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "model.h"
#include "mutate.h"
#include "sim.h"
#include "langs.h"
#include "smv.h"

#define TURNS "tests/models/proc_turns.smv"

static mf_model *load_file(const char *path)
{
    mf_model *m = NULL;
    if (mf_model_load_file(&m, path, NULL))
        fail_msg("%s refused: %s", path, mf_err_msg());
    return m;
}

static void refuse(const char *text, int code, const char *want)
{
    mf_model *m = NULL;
    int rc = mf_model_load(&m, "t.smv", text, strlen(text), NULL);
    assert_null(m);
    if (rc != code || !strstr(mf_err_msg(), want))
        fail_msg("expected %d with '%s', got %d: %s", code, want, rc,
                 mf_err_msg());
}

static char *print(const mf_model *m)
{
    mf_buf b = {0};
    mf_print_model(&b, m);
    return b.data;
}

static int sym(const mf_model *m, const char *name)
{
    int s = mf_model_find_sym(m, name);
    if (s < 0)
        fail_msg("no symbol %s", name);
    return s;
}

static mf_val cell(const mf_model *m, const mf_val *st, const char *var)
{
    int v = mf_model_find_var(m, var);
    if (v < 0)
        fail_msg("no variable %s", var);
    return st[m->vars[v].slot];
}

static void test_process__scheduler_is_an_input_and_print_reparses(
    void **state)
{
    (void)state;
    mf_model *m = load_file(TURNS);
    int sel = mf_model_find_var(m, "_process_selector_");
    assert_true(sel >= 0);
    assert_int_equal(m->vars[sel].decl, MF_DECL_IVAR);
    assert_true(m->vars[sel].is_input);
    assert_false(m->vars[sel].is_observable);
    assert_int_equal(m->vars[sel].type->nvals, 3); /* main, w1, w2 */
    char *p = print(m);
    const char *want[] = {"_process_selector_ : {main, w1, w2};",
                          "_process_selector_ = main : (tick + 1) mod 4;",
                          /* turn, assigned by both workers: one item */
                          "_process_selector_ = w2 : case",
                          /* running in TRANS */
                          "_process_selector_ = w1 -> w1.st = busy",
                          /* w1.me, a parameter read through w1 */
                          "first := 1;"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(p, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], p);
    assert_null(strstr(strstr(p, "next(turn)") + 1, "next(turn)"));
    mf_model *m2 = NULL;
    assert_int_equal(mf_model_load(&m2, "p.smv", p, strlen(p), NULL), 0);
    char *p2 = print(m2);
    assert_string_equal(p, p2);
    assert_string_equal(m->hash, m2->hash);
    free(p);
    free(p2);
    mf_model_free(m2);
    mf_model_free(m);
}

/* One step of `who`, from st into out; the simulator's return code. */
static int step(const mf_model *m, mf_val *out, const mf_val *st,
                const char *who)
{
    mf_val *inp = calloc((size_t)m->nslots, sizeof *inp);
    inp[m->vars[mf_model_find_var(m, "_process_selector_")].slot] =
        MF_SYM(sym(m, who));
    int rc = mf_sim_step(out, m, st, inp, 0);
    free(inp);
    return rc;
}

static void test_process__one_process_moves_the_others_keep(void **state)
{
    (void)state;
    mf_model *m = load_file(TURNS);
    size_t n = (size_t)m->nslots;
    mf_val *s0 = calloc(n, sizeof *s0), *s1 = calloc(n, sizeof *s1);
    mf_val *s2 = calloc(n, sizeof *s2), *s3 = calloc(n, sizeof *s3);
    mf_val *inp = calloc(n, sizeof *inp);
    assert_int_equal(mf_sim_initial(s0, m, inp, 0), 0);
    mf_val idle = MF_SYM(sym(m, "idle")), busy = MF_SYM(sym(m, "busy"));
    /* w1 has the turn: it moves, w2 and main's tick keep their values */
    assert_int_equal(step(m, s1, s0, "w1"), 0);
    assert_true(cell(m, s1, "w1.st") == busy);
    assert_true(cell(m, s1, "w2.st") == idle);
    assert_int_equal(cell(m, s1, "tick"), 0);
    assert_int_equal(cell(m, s1, "turn"), 1);
    /* main moves: only its own assignment (tick) applies */
    assert_int_equal(step(m, s2, s1, "main"), 0);
    assert_int_equal(cell(m, s2, "tick"), 1);
    assert_true(cell(m, s2, "w1.st") == busy);
    assert_int_equal(cell(m, s2, "turn"), 1);
    /* w2 idle without the turn: its TRANS (running -> ...) refuses */
    assert_int_equal(step(m, s3, s2, "w2"), MF_EREFUSED);
    /* w1 again: idle, and it passes the turn (shared variable) */
    assert_int_equal(step(m, s3, s2, "w1"), 0);
    assert_true(cell(m, s3, "w1.st") == idle);
    assert_int_equal(cell(m, s3, "turn"), 2);
    assert_int_equal(cell(m, s3, "tick"), 1);
    free(s0);
    free(s1);
    free(s2);
    free(s3);
    free(inp);
    mf_model_free(m);
}

static void test_process__parameters_through_instances_and_refusals(
    void **state)
{
    (void)state;
    const char *params =
        "MODULE server(i, peer)\nVAR busy : boolean;\n"
        "ASSIGN init(busy) := FALSE; next(busy) := !busy & peer.busy;\n"
        "MODULE main\nVAR s1 : server(1, s2); s2 : server(2, s1);\n"
        "  x : 0..3;\n"
        "ASSIGN init(x) := s1.i; next(x) := running ? s2.i : x;\n"
        "DEFINE d := s1.peer.i;\n";
    mf_model *m = NULL;
    if (mf_model_load(&m, "t.smv", params, strlen(params), NULL))
        fail_msg("refused: %s", mf_err_msg());
    char *p = print(m);
    if (!strstr(p, "init(x) := 1;") || !strstr(p, "d := 2;") ||
        !strstr(p, "next(x) := TRUE ? 2 : x;"))
        fail_msg("parameters through instances: %s", p);
    free(p);
    mf_model_free(m);
    refuse("MODULE w\nMODULE m\nVAR p : process w;\n"
           "MODULE main\nVAR a : m;\n",
           MF_EUNSUPPORTED, "process instance 'a.p' inside a module");
    refuse("MODULE w\nMODULE main\nVAR p : process w;\n"
           "IVAR _process_selector_ : {main, p};\n",
           MF_EUNSUPPORTED, "declaring '_process_selector_'");
    refuse("MODULE main\nVAR p : process 0..3;\n", MF_EPARSE,
           "expected a module after 'process'");
    refuse("MODULE main\nVAR x : boolean;\nASSIGN next(x) := p.running;\n",
           MF_ETYPE, "undefined identifier 'p.running'");
}

/* A DEFINE mutant that closes a loop through next() (brp: a DEFINE read
 * by a process's guarded next(), mutated to read that next()) is
 * stillborn, as its print would not load. */
static void test_process__define_mutant_closing_a_loop_is_stillborn(
    void **state)
{
    (void)state;
    const char *orig = "MODULE w(a, b)\nASSIGN next(a) := d;\n"
                       "DEFINE d := b;\n"
                       "MODULE main\nVAR a : boolean; b : boolean;\n"
                       "  p : process w(a, b);\n";
    const char *loop = "MODULE w(a, b)\nASSIGN next(a) := d;\n"
                       "DEFINE d := next(a);\n"
                       "MODULE main\nVAR a : boolean; b : boolean;\n"
                       "  p : process w(a, b);\n";
    mf_model *m = NULL, *m2 = NULL;
    assert_int_equal(mf_model_load(&m, "t.smv", orig, strlen(orig), NULL), 0);
    assert_int_equal(mf_model_load(&m2, "t.smv", loop, strlen(loop), NULL),
                     MF_ETYPE);
    assert_non_null(strstr(mf_err_msg(), "combinational loop"));
    /* the same DEFINE as a replacement of m's */
    const char *swap = "MODULE main\nVAR a : boolean; b : boolean;\n"
                       "DEFINE p.d := next(a);\n";
    assert_int_equal(mf_model_load(&m2, "t.smv", swap, strlen(swap), NULL),
                     0);
    int d = mf_model_find_define(m, "p.d");
    assert_true(d >= 0);
    assert_int_equal(mf_model_check_item(m, &m2->items[0]), MF_ETYPE);
    assert_non_null(strstr(mf_err_msg(), "combinational loop"));
    mf_model_free(m2);
    mf_model_free(m);
}

typedef struct {
    const mf_model *m;
    int nmut, bad;
} scan;

/* A next() assignment of a process model is the made case
 * `case sel = P : e; ...; TRUE : x; esac`: a mutant may remove it, or
 * change what is under a process's value e (bN.v, N not the last
 * branch); nothing else. */
static int check_site(const mf_mutant *mu, void *vctx)
{
    scan *s = vctx;
    const mf_item *it = &s->m->items[mu->item];
    s->nmut++;
    if (it->kind != MF_IT_NEXT || mu->op == MF_MOP_ASSIGN_REMOVE)
        return 0;
    const char *path = strchr(mu->site, '/');
    int b = 0, used = 0;
    if (!path || sscanf(path + 1, "b%d.v%n", &b, &used) != 1 || !used ||
        b < 1 || b >= it->e->nkids / 2) {
        print_message("mutant of a made node: %s %s\n", mf_mop_name(mu->op),
                      mu->desc);
        s->bad++;
    }
    return 0;
}

static void test_process__made_guards_are_not_mutated(void **state)
{
    (void)state;
    mf_model *m = load_file(TURNS);
    scan s = {m, 0, 0};
    assert_int_equal(mf_mutants_each(m, 0, check_site, &s), 0);
    assert_true(s.nmut > 100);
    assert_int_equal(s.bad, 0);
    mf_model_free(m);
}

typedef struct {
    const mf_model *m;
    int *item;
    mf_item **repl;
    mf_model **mutated;
    int n, every, seen;
} collect_ctx;

static int collect(const mf_mutant *mu, void *vctx)
{
    collect_ctx *c = vctx;
    if (mu->status != MF_MUT_OK || c->seen++ % c->every)
        return 0;
    mf_model *mm = NULL;
    assert_int_equal(mf_mutant_apply(&mm, c->m, mu), 0);
    c->item[c->n] = mu->item;
    c->repl[c->n] = NULL;
    if (mu->new_item) {
        c->repl[c->n] = malloc(sizeof(mf_item));
        *c->repl[c->n] = mm->items[mu->item];
    }
    c->mutated[c->n++] = mm;
    return 0;
}

/* Every kill of every `every`-th mutant of `path` replays in the
 * simulator, and each of its steps names the process that moves. */
static void kills_name_the_process(const char *path, int every)
{
    mf_model *m = load_file(path);
    int sel = mf_model_find_var(m, "_process_selector_");
    assert_true(sel >= 0);
    collect_ctx c = {m, NULL, NULL, NULL, 0, every, 0};
    c.item = calloc(4096, sizeof *c.item);
    c.repl = calloc(4096, sizeof *c.repl);
    c.mutated = calloc(4096, sizeof *c.mutated);
    assert_int_equal(mf_mutants_each(m, 0, collect, &c), 0);
    assert_true(c.n > 0 && c.n < 4096);
    mf_engine_mutant *em = calloc((size_t)c.n, sizeof *em);
    for (int i = 0; i < c.n; i++)
        em[i] = (mf_engine_mutant){c.item[i], c.repl[i], c.mutated[i]};
    mf_verdict *v = calloc((size_t)c.n, sizeof *v);
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = 6;
    assert_int_equal(mf_engine_check(m, em, c.n, &o, v), 0);
    int kills = 0;
    for (int i = 0; i < c.n; i++) {
        assert_int_not_equal(v[i].kind, MF_V_ERROR);
        if (v[i].kind != MF_V_KILLED)
            continue;
        kills++;
        if (mf_engine_replay(m, c.mutated[i], v[i].test, v[i].notion))
            fail_msg("%s: kill %d does not replay: %s", path, i,
                     mf_err_msg());
        for (int k = 1; k <= v[i].test->length; k++) {
            mf_buf b = {0};
            mf_test_print_inputs(&b, m, v[i].test, k);
            mf_val who = v[i].test->inputs[(size_t)k * v[i].test->nslots +
                                           m->vars[sel].slot];
            assert_true(mf_type_contains(m->vars[sel].type, who));
            char want[128];
            snprintf(want, sizeof want, "_process_selector_=%s",
                     m->syms[who - MF_SYM_BASE]);
            if (!b.data || !strstr(b.data, want))
                fail_msg("%s: step %d of a kill does not name the process "
                         "(%s)", path, k, b.data ? b.data : "");
            mf_buf_free(&b);
        }
    }
    print_message("# %s: %d mutants, %d killed\n", path, c.n, kills);
    assert_true(kills > 0);
    for (int i = 0; i < c.n; i++) {
        mf_verdict_clear(&v[i]);
        free(c.repl[i]);
        mf_model_free(c.mutated[i]);
    }
    free(v);
    free(em);
    free(c.item);
    free(c.repl);
    free(c.mutated);
    mf_model_free(m);
}

static void test_process__kills_replay_and_name_the_moving_process(
    void **state)
{
    (void)state;
    kills_name_the_process(TURNS, 2);
    /* the corpus's process models, sampled (every `every`-th mutant):
     * their kills are potential or definite (the processes choose values),
     * which the shell test cannot replay; abp4's kills do not replay
     * within the limit and brp costs minutes (docs/smv.md, The corpus).
     * prod-cons and p-queue cost the engine seconds a mutant: with
     * MF_PROCESS_ALL=1 only (a manual run, release build) */
    const char *d = getenv("MF_SHARED_MODELS");
    const char *all = getenv("MF_PROCESS_ALL");
    const struct {
        const char *file;
        int every, ci;
    } corpus[] = {
        {"felipeblassioli__nusmv__examples__smv-dist__semaphore.smv", 20, 1},
        {"llgelarall__Railroad-Controller-Liveness-NuSMV__RaillRoad.smv", 20,
         1},
        {"felipeblassioli__nusmv__examples__prod-cons__prod-cons.smv", 450, 0},
        {"felipeblassioli__nusmv__examples__p-queue__p-queue.smv", 600, 0},
    };
    for (size_t i = 0; d && *d && i < sizeof corpus / sizeof *corpus; i++) {
        if (!corpus[i].ci && !(all && !strcmp(all, "1")))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/corpus/%s", d, corpus[i].file);
        FILE *f = fopen(path, "r");
        if (!f) {
            print_message("# %s: not found; skipped\n", path);
            continue;
        }
        fclose(f);
        kills_name_the_process(path, corpus[i].every);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_process__scheduler_is_an_input_and_print_reparses),
        cmocka_unit_test(test_process__one_process_moves_the_others_keep),
        cmocka_unit_test(
            test_process__parameters_through_instances_and_refusals),
        cmocka_unit_test(test_process__made_guards_are_not_mutated),
        cmocka_unit_test(
            test_process__define_mutant_closing_a_loop_is_stillborn),
        cmocka_unit_test(
            test_process__kills_replay_and_name_the_moving_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
