/* test_tae.c - the timed engine (engine/tae_*.c) on small automata built
 * by hand: DBMs, the zone product's verdicts (killed by an input refused,
 * by an output or by a delay; subsumed; equivalent), the simplest delays
 * of a test (whole numbers first, halves when needed), every kill's test
 * replayed by the rational simulator, and a test the simulator refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tae_check.h"
#include "tae_compose.h"
#include "tae_dbm.h"

/* The tea machine of the paper's figure 1: s0 --coin? x:=0--> s1 (x <= inv)
 * --tea! guard--> s0. Channel 0 is coin (input), 1 is tea (output). */
typedef struct {
    int64_t inv;       /* s1's invariant x <= inv (-1: none) */
    tae_atom g[2];     /* tea's guard */
    int ng;
    int no_coin;       /* TMI of coin */
    int no_tea;        /* TMI of tea */
    int coin_in_s1;    /* TAD: coin? from s1 to s0 */
    int tea_in_s0;     /* TAD: tea! from s0 to s0 */
    int coin_in_s0;    /* TAD: coin? from s0 to s0, beside coin? to s1 */
} spec;

static tae_atom ge(int64_t k) { return (tae_atom){0, 1, TAE_LE(-k)}; }
static tae_atom gt(int64_t k) { return (tae_atom){0, 1, TAE_LT(-k)}; }
static tae_atom le(int64_t k) { return (tae_atom){1, 0, TAE_LE(k)}; }
static tae_atom lt(int64_t k) { return (tae_atom){1, 0, TAE_LT(k)}; }

static tae_conj mkconj(tae_aut *a, const tae_atom *v, int n)
{
    tae_conj c = {0};
    c.v = mf_arena_alloc(a->a, (size_t)(n + 1) * sizeof *c.v);
    memcpy(c.v, v, (size_t)n * sizeof *v);
    c.n = n;
    return c;
}

static void edge(tae_aut *a, int src, int dst, int chan, int reset,
                 tae_conj g)
{
    tae_edge *e = &a->edges[a->nedges++];
    e->src = src;
    e->dst = dst;
    e->chan = chan;
    e->dir = chan == 0 ? TAE_IN : TAE_OUT;
    e->guard = g;
    e->resets = mf_arena_alloc(a->a, sizeof(int));
    e->reset_to = mf_arena_alloc(a->a, sizeof(int64_t));
    if (reset) {
        e->resets[0] = 1;
        e->nresets = 1;
    }
}

static tae_aut *machine(const spec *s)
{
    tae_aut *a = tae_aut_new("tea");
    a->nclocks = 1;
    a->clocks = mf_arena_alloc(a->a, 2 * sizeof(char *));
    a->clocks[0] = "0";
    a->clocks[1] = "x";
    a->nchans = 2;
    a->chans = mf_arena_alloc(a->a, 2 * sizeof(char *));
    a->chans[0] = "coin";
    a->chans[1] = "tea";
    a->chan_dir = mf_arena_alloc(a->a, 2 * sizeof(int));
    a->chan_dir[0] = TAE_IN;
    a->chan_dir[1] = TAE_OUT;
    a->nlocs = 2;
    a->locs = mf_arena_alloc(a->a, 2 * sizeof *a->locs);
    a->locs[0].name = "s0";
    a->locs[1].name = "s1";
    if (s->inv >= 0) {
        tae_atom i = le(s->inv);
        a->locs[1].inv = mkconj(a, &i, 1);
    }
    a->edges = mf_arena_alloc(a->a, 8 * sizeof *a->edges);
    if (!s->no_coin)
        edge(a, 0, 1, 0, 1, (tae_conj){0});
    if (!s->no_tea)
        edge(a, 1, 0, 1, 0, mkconj(a, s->g, s->ng));
    if (s->coin_in_s1)
        edge(a, 1, 0, 0, 0, (tae_conj){0});
    if (s->coin_in_s0)
        edge(a, 0, 0, 0, 0, (tae_conj){0});
    if (s->tea_in_s0)
        edge(a, 0, 0, 1, 0, (tae_conj){0});
    tae_aut_finish(a);
    return a;
}

static spec original(void)
{
    spec s = {0};
    s.inv = 5;
    s.g[0] = ge(2);
    s.ng = 1;
    return s;
}

/* Decides the mutant built from m against the original; its verdict, and
 * the test printed into out when killed. */
static int decide(const spec *m, mf_buf *out)
{
    spec so = original();
    tae_aut *o = machine(&so), *mu = machine(m);
    tae_verdict v;
    tae_opts opts = {100000, 10000};
    assert_int_equal(tae_check(&v, o, mu, &opts), 0);
    if (v.verdict == TAE_V_KILLED && out)
        tae_test_print(out, o, &v.test);
    if (v.verdict == TAE_V_UNKNOWN)
        print_message("unknown: %s\n", v.why);
    int r = v.verdict;
    tae_verdict_free(&v);
    tae_aut_free(o);
    tae_aut_free(mu);
    return r;
}

static void test_tae__dbm_closes_and_subtracts(void **state)
{
    (void)state;
    tae_bound *z = tae_dbm_new(2);
    tae_dbm_up(z, 2);
    assert_true(tae_dbm_and(z, 2, 1, 0, TAE_LE(5)));
    tae_atom a = ge(2), b = le(5);
    tae_conj c1 = {&a, 1}, c2 = {&b, 1};
    const tae_conj *cs[2] = {&c1, &c2};
    /* [0,5] minus [2,inf) is [0,2): not empty */
    assert_true(tae_dbm_minus_nonempty(z, 2, cs, 1, 0));
    /* [0,5] minus ([2,inf) and [0,5]) is empty */
    cs[0] = &c2;
    assert_false(tae_dbm_minus_nonempty(z, 2, cs, 1, 0));
    assert_false(tae_dbm_and(z, 2, 0, 1, TAE_LT(-5)));
    free(z);
}

static void test_tae__same_machine_is_equivalent(void **state)
{
    (void)state;
    spec m = original();
    assert_int_equal(decide(&m, NULL), TAE_V_EQUIVALENT);
}

static void test_tae__larger_invariant_killed_by_a_delay(void **state)
{
    (void)state;
    spec m = original();
    m.inv = 6;
    mf_buf b = {0};
    assert_int_equal(decide(&m, &b), TAE_V_KILLED);
    assert_string_equal(b.data, "    at 0: input coin\n"
                                "    at 6: fail if no output yet (the original "
                                "must have sent one, the mutant may stay "
                                "silent)\n");
    mf_buf_free(&b);
}

static void test_tae__earlier_output_killed_by_the_output(void **state)
{
    (void)state;
    spec m = original();
    m.g[0] = ge(1); /* CXS on an output's x >= 2 */
    mf_buf b = {0};
    assert_int_equal(decide(&m, &b), TAE_V_KILLED);
    assert_non_null(strstr(b.data, "at 1: fail on output tea"));
    mf_buf_free(&b);
}

static void test_tae__removed_input_killed_by_refusal(void **state)
{
    (void)state;
    spec m = original();
    m.no_coin = 1;
    mf_buf b = {0};
    assert_int_equal(decide(&m, &b), TAE_V_KILLED);
    assert_string_equal(b.data, "    at 0: input coin (the original accepts "
                                "it, the mutant refuses it)\n");
    mf_buf_free(&b);
}

static void test_tae__subsumed_mutants_are_proved(void **state)
{
    (void)state;
    spec m = original();
    m.no_tea = 1; /* TMI of an output: less output */
    assert_int_equal(decide(&m, NULL), TAE_V_SUBSUMED);
    m = original();
    m.coin_in_s1 = 1; /* TAD of an input where the original has none */
    assert_int_equal(decide(&m, NULL), TAE_V_SUBSUMED);
    m = original();
    m.coin_in_s0 = 1; /* TAD of an input the original has: the mutant
                       * may answer coin as the original does */
    assert_int_equal(decide(&m, NULL), TAE_V_SUBSUMED);
    m = original();
    m.g[0] = gt(2); /* x > 2: less output */
    assert_int_equal(decide(&m, NULL), TAE_V_SUBSUMED);
    m = original();
    m.inv = 4; /* CXS of an invariant entered at x = 0: delays less */
    assert_int_equal(decide(&m, NULL), TAE_V_SUBSUMED);
}

static void test_tae__added_output_killed(void **state)
{
    (void)state;
    spec m = original();
    m.tea_in_s0 = 1; /* TAD of an output */
    mf_buf b = {0};
    assert_int_equal(decide(&m, &b), TAE_V_KILLED);
    assert_string_equal(b.data, "    at 0: fail on output tea (the mutant "
                                "may send it, the original may not)\n");
    mf_buf_free(&b);
}

static void test_tae__halves_when_no_whole_delay_works(void **state)
{
    (void)state;
    spec m = original();
    /* tea at 2 < x < 3 only: the original's x >= 3 below */
    m.g[0] = gt(2);
    m.g[1] = lt(3);
    m.ng = 2;
    spec so = original();
    so.g[0] = ge(3);
    tae_aut *o = machine(&so), *mu = machine(&m);
    tae_verdict v;
    assert_int_equal(tae_check(&v, o, mu, NULL), 0);
    assert_int_equal(v.verdict, TAE_V_KILLED);
    mf_buf b = {0};
    tae_test_print(&b, o, &v.test);
    assert_non_null(strstr(b.data, "at 5/2: fail on output tea"));
    mf_buf_free(&b);
    tae_verdict_free(&v);
    tae_aut_free(o);
    tae_aut_free(mu);
}

static void test_tae__simulator_refuses_a_wrong_test(void **state)
{
    (void)state;
    spec so = original(), sm = original();
    sm.g[0] = ge(1);
    tae_aut *o = machine(&so), *mu = machine(&sm);
    tae_step st = {{0, 1}, 0, TAE_IN};
    /* the output at 3 is the original's too */
    tae_test t = {&st, 1, TAE_K_OUT, {3, 1}, 1};
    char why[200];
    assert_false(tae_sim_confirm(o, mu, &t, why, sizeof why));
    t.kdelay = (tae_q){3, 2};
    assert_true(tae_sim_confirm(o, mu, &t, why, sizeof why));
    /* a delay beyond the invariant is refused on both */
    t.kdelay = (tae_q){11, 2};
    assert_false(tae_sim_confirm(o, mu, &t, why, sizeof why));
    tae_aut_free(o);
    tae_aut_free(mu);
}

/* The random walks of the simulator find the kills and, on subsumed
 * mutants, nothing. */
static void test_tae__walks_agree_with_the_zones(void **state)
{
    (void)state;
    spec so = original();
    spec ms[4] = {original(), original(), original(), original()};
    ms[0].inv = 6;
    ms[1].g[0] = ge(1);
    ms[2].no_tea = 1;
    ms[3].coin_in_s0 = 1;
    const int killable[4] = {1, 1, 0, 0};
    tae_aut *o = machine(&so);
    for (int i = 0; i < 4; i++) {
        tae_aut *mu = machine(&ms[i]);
        tae_test t;
        int found = tae_sim_walks(&t, o, mu, 7u + (unsigned)i, 200, 8);
        assert_int_equal(found, killable[i]);
        if (found) {
            char why[200];
            assert_true(tae_sim_confirm(o, mu, &t, why, sizeof why));
            tae_test_free(&t);
        }
        tae_aut_free(mu);
    }
    tae_aut_free(o);
}

/* A process of two locations over one clock, one integer and three
 * channels (0 go, 1 done, 2 tick), its edges added by the caller. */
static tae_aut *proc2(const char *name)
{
    tae_aut *a = tae_aut_new(name);
    a->nclocks = 1;
    a->clocks = mf_arena_alloc(a->a, 2 * sizeof(char *));
    a->clocks[0] = "0";
    a->clocks[1] = "x";
    a->nints = 1;
    a->ints = mf_arena_alloc(a->a, sizeof *a->ints);
    a->ints[0] = (tae_int){"n", 0, 3, 0};
    a->nchans = 3;
    a->chans = mf_arena_alloc(a->a, 3 * sizeof(char *));
    a->chans[0] = "go";
    a->chans[1] = "done";
    a->chans[2] = "tick";
    a->chan_dir = mf_arena_alloc(a->a, 3 * sizeof(int));
    a->chan_dir[0] = TAE_IN;
    a->chan_dir[1] = TAE_OUT;
    a->chan_dir[2] = TAE_TAU;
    a->nlocs = 2;
    a->locs = mf_arena_alloc(a->a, 2 * sizeof *a->locs);
    a->locs[0].name = "a";
    a->locs[1].name = "b";
    a->edges = mf_arena_alloc(a->a, 4 * sizeof *a->edges);
    return a;
}

static tae_edge *sync_edge(tae_aut *a, int src, int dst, int chan, int sync)
{
    edge(a, src, dst, chan, 0, (tae_conj){0});
    tae_edge *e = &a->edges[a->nedges - 1];
    e->sync = sync;
    e->dir = a->chan_dir[chan];
    return e;
}

/* Two processes: P receives the tester's go and then sends tick to Q
 * (internal, binary), Q then sends done (output, to the tester). In the
 * product, go is an input, done an output, tick one internal move of
 * both from (b,a) to (a,b) only; it refines itself. */
static void test_tae__compose_binary_syncs_and_tester(void **state)
{
    (void)state;
    tae_aut *p = proc2("P"), *q = proc2("Q");
    sync_edge(p, 0, 1, 0, TAE_RECV);
    sync_edge(p, 1, 0, 2, TAE_SEND);
    sync_edge(q, 0, 1, 2, TAE_RECV);
    sync_edge(q, 1, 0, 1, TAE_SEND);
    tae_aut_finish(p);
    tae_aut_finish(q);
    char sends[3] = {1, 0, 0}, recvs[3] = {0, 1, 0}, bc[3] = {0, 0, 0};
    tae_compose_opts co = {sends, recvs, bc, 100};
    tae_aut *parts[2] = {p, q}, *a = NULL;
    assert_int_equal(tae_compose(&a, parts, 2, &co), 0);
    assert_int_equal(a->nlocs, 4); /* (a,a) (b,a) (a,b) (b,b) */
    int ticks = 0;
    for (int e = 0; e < a->nedges; e++) {
        const tae_edge *E = &a->edges[e];
        const int want[3] = {TAE_IN, TAE_OUT, TAE_TAU};
        assert_int_equal(E->dir, want[E->chan]);
        if (E->chan == 2) {
            ticks++;
            assert_string_equal(a->locs[E->src].name, "b,a");
            assert_string_equal(a->locs[E->dst].name, "a,b");
        }
    }
    assert_int_equal(ticks, 1);
    tae_verdict v;
    assert_int_equal(tae_check(&v, a, a, NULL), 0);
    assert_int_equal(v.verdict, TAE_V_EQUIVALENT);
    tae_verdict_free(&v);
    tae_aut_free(a);
}

/* A broadcast of the tester received by two processes, Q's edge under an
 * integer guard: the move where Q stays out carries the guard's
 * negation; a committed location allows only its own process's moves. */
static void test_tae__compose_broadcast_and_committed(void **state)
{
    (void)state;
    tae_aut *p = proc2("P"), *q = proc2("Q");
    sync_edge(p, 0, 1, 0, TAE_RECV);
    tae_edge *g = sync_edge(q, 0, 1, 0, TAE_RECV);
    tae_ix *n = mf_arena_alloc(q->a, sizeof *n), *one = mf_arena_alloc(
                                                       q->a, sizeof *one);
    n->op = TAE_X_VAR;
    one->op = TAE_X_CONST;
    one->k = 1;
    g->iguard = mf_arena_alloc(q->a, sizeof *g->iguard);
    g->iguard->op = TAE_X_EQ;
    g->iguard->a = n;
    g->iguard->b = one;
    sync_edge(p, 1, 0, 1, TAE_SEND); /* from P's committed b */
    sync_edge(q, 1, 0, 1, TAE_SEND);
    p->locs[1].committed = p->locs[1].urgent = 1;
    tae_aut_finish(p);
    tae_aut_finish(q);
    char sends[3] = {1, 0, 0}, recvs[3] = {0, 1, 0}, bc[3] = {1, 0, 0};
    tae_compose_opts co = {sends, recvs, bc, 100};
    tae_aut *parts[2] = {p, q}, *a = NULL;
    assert_int_equal(tae_compose(&a, parts, 2, &co), 0);
    int with_q = 0, without_q = 0;
    for (int e = 0; e < a->nedges; e++) {
        const tae_edge *E = &a->edges[e];
        if (E->chan != 0 || E->src != a->init)
            continue;
        int64_t vals[1] = {0}, r = 0;
        assert_int_equal(tae_ix_eval(&r, E->iguard, vals), 0);
        if (!strcmp(a->locs[E->dst].name, "b,b"))
            with_q += r == 0; /* n == 1 needed */
        else
            without_q += r == 1; /* n != 1: Q stays out */
    }
    assert_int_equal(with_q, 1);
    assert_int_equal(without_q, 1);
    /* from (b,b), P is committed: only its done moves, not Q's */
    for (int l = 0; l < a->nlocs; l++) {
        if (strcmp(a->locs[l].name, "b,b"))
            continue;
        assert_true(a->locs[l].urgent);
        for (int e = a->first[l]; e >= 0; e = a->next[e])
            assert_string_equal(a->locs[a->edges[e].dst].name, "a,b");
    }
    tae_aut_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tae__dbm_closes_and_subtracts),
        cmocka_unit_test(test_tae__same_machine_is_equivalent),
        cmocka_unit_test(test_tae__larger_invariant_killed_by_a_delay),
        cmocka_unit_test(test_tae__earlier_output_killed_by_the_output),
        cmocka_unit_test(test_tae__removed_input_killed_by_refusal),
        cmocka_unit_test(test_tae__subsumed_mutants_are_proved),
        cmocka_unit_test(test_tae__added_output_killed),
        cmocka_unit_test(test_tae__halves_when_no_whole_delay_works),
        cmocka_unit_test(test_tae__simulator_refuses_a_wrong_test),
        cmocka_unit_test(test_tae__walks_agree_with_the_zones),
        cmocka_unit_test(test_tae__compose_binary_syncs_and_tester),
        cmocka_unit_test(test_tae__compose_broadcast_and_committed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
