/* test_kiss2.c - the KISS2 front-end (kiss2/): the reader's errors and
 * warnings, the print read back, the translation loaded as a model, the FSM
 * operators' ids and duplicates, and every verdict of the engine on every
 * mutant of eleven shared machines checked against an oracle written apart
 * from the engine: a breadth-first search over pairs (specification state,
 * mutant state) on the row tables, with every kill's test replayed on the
 * tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fsm_mm.h"
#include "langs.h"
#include "kiss2.h"

/* ---- helpers ------------------------------------------------------------ */

/* The text of shared machine NAME (kiss2/...__NAME.kiss2), or NULL (said)
 * when the shared models are not there. */
static char *shared_text(const char *name, size_t *len, char *path,
                         size_t pathsz)
{
    const char *dir = getenv("MF_SHARED_MODELS");
    char d[1024];
    snprintf(d, sizeof d, "%s/kiss2", dir ? dir : "../shared/models");
    DIR *dp = opendir(d);
    if (!dp) {
        print_message("skipped %s: no shared models\n", name);
        return NULL;
    }
    char want[128];
    snprintf(want, sizeof want, "__%s.kiss2", name);
    char *text = NULL;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        size_t n = strlen(e->d_name), w = strlen(want);
        if (n < w || strcmp(e->d_name + n - w, want) != 0)
            continue;
        snprintf(path, pathsz, "%s/%s", d, e->d_name);
        if (mf_read_file(&text, len, path, 1 << 24) < 0)
            text = NULL;
        break;
    }
    closedir(dp);
    if (!text)
        print_message("skipped %s: no shared models\n", name);
    return text;
}

static mf_kiss2 *read_ok(const char *text)
{
    mf_kiss2 *k = NULL;
    if (mf_kiss2_read(&k, "t.kiss2", text, strlen(text), NULL, NULL) < 0)
        fail_msg("does not read: %s", mf_err_msg());
    return k;
}

/* The message of a text that must fail to read, checked to hold `want`. */
static void read_fails(const char *text, const char *want)
{
    mf_kiss2 *k = NULL;
    int rc = mf_kiss2_read(&k, "t.kiss2", text, strlen(text), NULL, NULL);
    assert_true(rc < 0);
    assert_null(k);
    if (!strstr(mf_err_msg(), want))
        fail_msg("message '%s' lacks '%s'", mf_err_msg(), want);
}

/* ---- the reader --------------------------------------------------------- */

static const char *const TOY = "# a toy\n"
                               ".i 2\n.o 2\n.p 5\n.s 3\n"
                               "0- a a 00\n"
                               "1- a b 1-\n"
                               "-0 b c 01\n"
                               "-1 b a 10\n"
                               "-- c a -1\n"
                               ".e\n";

static void test_kiss2__reads_rows_states_and_reset(void **st)
{
    (void)st;
    mf_kiss2 *k = read_ok(TOY);
    assert_int_equal(k->ni, 2);
    assert_int_equal(k->no, 2);
    assert_int_equal(k->nrows, 5);
    assert_int_equal(k->nstates, 3);
    assert_string_equal(k->states[k->reset], "a"); /* no .r: the first row */
    assert_int_equal(k->rows[1].line, 7);
    assert_string_equal(k->rows[1].out, "1-");
    assert_string_equal(k->states[k->rows[2].to], "c");
    mf_kiss2_free(k);
}

static void test_kiss2__print_reads_back_the_same(void **st)
{
    (void)st;
    mf_kiss2 *k = read_ok(TOY);
    mf_buf a = {0}, b = {0};
    mf_kiss2_print(&a, k);
    mf_kiss2 *k2 = read_ok(a.data);
    mf_kiss2_print(&b, k2);
    assert_string_equal(a.data, b.data);
    mf_buf_free(&a);
    mf_buf_free(&b);
    mf_kiss2_free(k);
    mf_kiss2_free(k2);
}

static void test_kiss2__bad_input_names_the_line(void **st)
{
    (void)st;
    read_fails(".i 2\n.o 1\n0 a b 1\n", "t.kiss2:3: error: input cube has 1");
    read_fails(".i 2\n.o 1\n00 a b 11\n", "t.kiss2:3: error: output cube");
    read_fails(".i 2\n.o 1\n0x a b 1\n", "t.kiss2:3: error: input cube: 'x'");
    read_fails("00 a b 1\n", "t.kiss2:1: error: a row before .i and .o");
    read_fails(".i 1\n.o 1\n.r z\n0 a b 1\n1 a a 0\n",
               "t.kiss2:3: error: .r z: no row names this state");
    read_fails(".i 1\n.o 1\n0 a b\n", "t.kiss2:3: error: a row has 4 fields");
    read_fails(".i x\n", "t.kiss2:1: error: .i takes a number");
    read_fails(".i 1\n.o 1\n", "no rows");
    read_fails(".i 1\n.o 1\n0 a * 1\n", "t.kiss2:3: error: next state '*'");
    /* Overlapping rows with other results: both lines named. */
    read_fails(".i 2\n.o 1\n0- a b 1\n00 a a 1\n",
               "t.kiss2:4: error: this row overlaps the row of line 3");
    read_fails(".i 2\n.o 1\n-1 * b 1\n01 a b 0\n",
               "t.kiss2:4: error: this row overlaps the row of line 3");
}

static void test_kiss2__overlaps_read_as_a_mutation_machine(void **st)
{
    (void)st;
    const char *t = ".i 2\n.o 1\n0- a b 1\n00 a a 1\n";
    mf_kiss2 *k = NULL;
    mf_kiss2_opts o = {.nondet = 1};
    assert_int_equal(mf_kiss2_read(&k, "t.kiss2", t, strlen(t), &o, NULL), 0);
    assert_int_equal(k->nrows, 2);
    mf_kiss2_free(k);
    /* Overlaps with one result are no conflict. */
    mf_kiss2_free(read_ok(".i 2\n.o 1\n0- a b 1\n00 a b 1\n1- a a 0\n"));
}

static void test_kiss2__benchmark_slips_are_warnings(void **st)
{
    (void)st;
    const char *t = ".i 1\n.o 1\n.p 3\n.s 5\n.ilb x\n0 a b 1\n1 b a 0\n.e\n";
    mf_kiss2 *k = NULL;
    mf_buf w = {0};
    assert_int_equal(mf_kiss2_read(&k, "t.kiss2", t, strlen(t), NULL, &w), 0);
    assert_non_null(strstr(w.data, "t.kiss2:3: warning: .p says 3 rows, "
                                    "the file has 2"));
    assert_non_null(strstr(w.data, "t.kiss2:4: warning: .s says 5"));
    assert_non_null(strstr(w.data, "t.kiss2:5: warning: directive .ilb"));
    mf_buf_free(&w);
    mf_kiss2_free(k);
}

static void test_kiss2__sniff(void **st)
{
    (void)st;
    assert_true(mf_kiss2_sniff(TOY, strlen(TOY)) > 0);
    const char *smv = "MODULE main\nVAR x : boolean;\n";
    assert_int_equal(mf_kiss2_sniff(smv, strlen(smv)), 0);
    assert_int_equal(mf_kiss2_sniff(".i", 2), 0);
}

/* 1 if x and y resolve their identifiers to the same things. */
static int same_refs(const mf_expr *x, const mf_expr *y)
{
    if (x->ref_kind != y->ref_kind || x->ref != y->ref ||
        x->nkids != y->nkids)
        return 0;
    for (int i = 0; i < x->nkids; i++)
        if (!same_refs(x->kids[i], y->kids[i]))
            return 0;
    return 1;
}

/* The model the KISS2 loader builds (mf_kiss2_fill) has the variables,
 * items and hash the SMV loader makes of mf_kiss2_smv's text, on eight
 * shared machines. */
static void test_kiss2__built_model_is_the_smv_translation(void **st)
{
    (void)st;
    static const char *const machines[] = {
        "lion", "mc", "opus", "kirkman", "s298", "scf", "tbk", "dk14"};
    for (size_t n = 0; n < sizeof machines / sizeof *machines; n++) {
        char path[2048];
        size_t len = 0;
        char *text = shared_text(machines[n], &len, path, sizeof path);
        if (!text)
            return;
        mf_model *f = NULL, *m = NULL;
        mf_kiss2 *k = NULL;
        assert_int_equal(mf_kiss2_load(&f, &k, path, text, len, NULL), 0);
        mf_buf smv = {0};
        mf_kiss2_smv(&smv, k);
        mf_model_opts mo;
        const char **names = NULL;
        mf_kiss2_model_opts(&mo, k, &names);
        if (mf_model_load(&m, "translation.smv", smv.data, smv.len, &mo))
            fail_msg("%s", mf_err_msg());
        mf_buf_free(&smv);
        assert_string_equal(f->hash, m->hash);
        assert_int_equal(f->nvars, m->nvars);
        assert_int_equal(f->nitems, m->nitems);
        for (int v = 0; v < m->nvars; v++) {
            assert_string_equal(f->vars[v].name, m->vars[v].name);
            assert_int_equal(f->vars[v].decl, m->vars[v].decl);
            assert_true(mf_type_equal(f->vars[v].type, m->vars[v].type));
        }
        for (int i = 0; i < m->nitems; i++) {
            mf_buf a = {0}, b = {0};
            mf_print_item(&a, m, &m->items[i]);
            mf_print_item(&b, f, &f->items[i]);
            if (strcmp(a.data, b.data) != 0 ||
                !mf_expr_equal(m->items[i].e, f->items[i].e) ||
                !same_refs(m->items[i].e, f->items[i].e))
                fail_msg("%s item %d:\n%s\nbuilt:\n%s", machines[n], i,
                         a.data, b.data);
            assert_int_equal(f->items[i].kind, m->items[i].kind);
            assert_int_equal(f->items[i].var, m->items[i].var);
            mf_buf_free(&a);
            mf_buf_free(&b);
        }
        mf_model_free(f);
        mf_model_free(m);
        free(text);
    }
}

/* ---- the oracle: product reachability on the tables -------------------- */

/* The first row of k that takes input x (bit b of x is input b, read from
 * the left) in state s, or NULL. */
static const mf_kiss2_row *first_row(const mf_kiss2 *k, int s, unsigned x)
{
    for (int i = 0; i < k->nrows; i++) {
        const mf_kiss2_row *r = &k->rows[i];
        if (r->to == MF_KISS2_ANY || (r->from != s && r->from != MF_KISS2_ANY))
            continue;
        int ok = 1;
        for (int b = 0; b < k->ni && ok; b++)
            ok = r->in[b] == '-' || (r->in[b] == '1') == !!(x >> b & 1);
        if (ok)
            return r;
    }
    return NULL;
}

/* 1 if the mutant's row (NULL: a refusal) may show an output the
 * specification's row does not allow (definite 0), or must (definite 1:
 * a refusal, or a bit both specify and set apart). */
static int deviates(const mf_kiss2_row *spec, const mf_kiss2_row *mut,
                    int definite)
{
    if (!mut)
        return 1;
    for (const char *a = spec->out, *b = mut->out; *a; a++, b++)
        if (*a != '-' && *b != *a && (!definite || *b != '-'))
            return 1;
    return 0;
}

/* The length of the shortest input sequence that kills mutant mk of
 * specification k (only inputs k allows) potentially or definitely, or 0
 * when none does. The tables' states do not depend on the outputs shown,
 * so a kill is one step of the product that deviates. */
static int oracle_kill_len(const mf_kiss2 *k, const mf_kiss2 *mk,
                           int definite)
{
    int ns = mk->nstates, npairs = k->nstates * ns, found = 0;
    int *depth = malloc((size_t)npairs * sizeof *depth);
    int *queue = malloc((size_t)npairs * sizeof *queue);
    for (int i = 0; i < npairs; i++)
        depth[i] = -1;
    int head = 0, tail = 0;
    depth[k->reset * ns + mk->reset] = 0;
    queue[tail++] = k->reset * ns + mk->reset;
    while (head < tail && !found) {
        int p = queue[head++], s = p / ns, m = p % ns;
        for (unsigned x = 0; x < (1u << k->ni) && !found; x++) {
            const mf_kiss2_row *a = first_row(k, s, x);
            if (!a)
                continue; /* not allowed: never applied */
            const mf_kiss2_row *b = first_row(mk, m, x);
            if (deviates(a, b, definite)) {
                found = depth[p] + 1;
                break;
            }
            int q = a->to * ns + b->to;
            if (depth[q] < 0) {
                depth[q] = depth[p] + 1;
                queue[tail++] = q;
            }
        }
    }
    free(depth);
    free(queue);
    return found;
}

/* The input value of bit b at step `step` of test t. */
static unsigned test_input(const mf_model *m, const mf_test *t, int step,
                           int ni)
{
    unsigned x = 0;
    for (int b = 0; b < ni; b++) {
        char name[32];
        snprintf(name, sizeof name, "in%d", b);
        int v = mf_model_find_var(m, name);
        assert_true(v >= 0);
        if (t->inputs[(size_t)step * (size_t)t->nslots + m->vars[v].slot])
            x |= 1u << b;
    }
    return x;
}

/* 1 if the test, run on the tables, applies only allowed inputs and ends
 * with the mutant shown apart. */
static int test_kills_on_tables(const mf_model *m, const mf_kiss2 *k,
                                const mf_kiss2 *mk, const mf_test *t,
                                int definite)
{
    int s = k->reset, q = mk->reset;
    for (int step = 1; step <= t->length; step++) {
        unsigned x = test_input(m, t, step, k->ni);
        const mf_kiss2_row *a = first_row(k, s, x);
        if (!a)
            return 0; /* the test applied an input that is not allowed */
        const mf_kiss2_row *b = first_row(mk, q, x);
        if (deviates(a, b, definite))
            return 1;
        s = a->to;
        q = b->to;
    }
    return 0;
}

typedef struct {
    const mf_model *m;
    const mf_kiss2 *k;
    mf_arena *a;
    MF_VEC(mf_engine_mutant) em;
    MF_VEC(mf_kiss2_mutant) km;
} collect;

static int collect_fn(const mf_kiss2_mutant *mu, void *v)
{
    collect *c = v;
    if (mu->dup_of[0])
        return 0;
    mf_kiss2_mutant keep = *mu; /* site and repl live during the call */
    keep.site = mf_arena_strdup(c->a, mu->site);
    keep.repl = mf_arena_strdup(c->a, mu->repl);
    mf_engine_mutant e = {0};
    mf_item *it = NULL;
    assert_int_equal(mf_kiss2_mutant_item(&e.item, &it, c->a, c->m, c->k, mu),
                     0);
    assert_int_equal(mf_model_check_item(c->m, it), 0);
    e.repl = it;
    MF_VEC_PUSH(c->em, e);
    MF_VEC_PUSH(c->km, keep);
    return 0;
}

/* Every mutant of machine `name` decided by the engine (--bound auto) and
 * by the oracle: the same verdicts, and every kill's test a kill on the
 * tables. */
static void agree_on(const char *name)
{
    char path[2048];
    size_t len = 0;
    char *text = shared_text(name, &len, path, sizeof path);
    if (!text)
        return;
    mf_model *m = NULL;
    mf_kiss2 *k = NULL;
    if (mf_kiss2_load(&m, &k, path, text, len, NULL) < 0)
        fail_msg("%s", mf_err_msg());
    collect c = {.m = m, .k = k, .a = mf_arena_new()};
    assert_int_equal(mf_kiss2_mutants_each(k, 0, collect_fn, &c), 0);
    int n = c.em.n;
    mf_model **mms = calloc((size_t)n, sizeof *mms);
    for (int i = 0; i < n; i++) {
        assert_int_equal(mf_model_replace_item(&mms[i], m, c.em.v[i].item,
                                               c.em.v[i].repl), 0);
        c.em.v[i].mutated = mms[i];
    }
    mf_engine_opts eo;
    mf_engine_opts_default(&eo);
    eo.complete = 1;
    mf_verdict *out = calloc((size_t)n, sizeof *out);
    assert_int_equal(mf_engine_check(m, c.em.v, n, &eo, out), 0);
    int killed = 0, equivalent = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        mf_kiss2 *mk = mf_kiss2_apply(k, &c.km.v[i]);
        int len_o = oracle_kill_len(k, mk, 0);
        /* The cube-based product of kiss2/mm.c decides it the same way,
         * with a shortest kill. */
        char *seq = NULL;
        int len_p = 0;
        int dec = mf_kiss2_decide(k, &c.km.v[i], &seq, &len_p);
        assert_int_equal(dec, len_o > 0);
        if (dec)
            assert_int_equal(len_p, len_o);
        free(seq);
        int ok;
        if (out[i].kind == MF_V_KILLED) {
            /* A potential kill is the shortest; a definite (or
             * deterministic) one the shortest definite kill. */
            int def = out[i].notion != MF_N_POTENTIAL;
            int want = def ? oracle_kill_len(k, mk, 1) : len_o;
            killed++;
            ok = len_o > 0 &&
                 test_kills_on_tables(m, k, mk, out[i].test, def) &&
                 (out[i].not_shortest || out[i].test->length == want);
        } else {
            equivalent += out[i].kind == MF_V_EQUIVALENT;
            ok = out[i].kind == MF_V_EQUIVALENT && len_o == 0;
        }
        if (!ok) {
            bad++;
            print_message("%s: mutant %s (%s %s -> %s): engine %s (length "
                          "%d), oracle %d %s\n", name, c.km.v[i].id,
                          mf_kop_name(c.km.v[i].op), c.km.v[i].site,
                          c.km.v[i].repl, mf_verdict_name(out[i].kind),
                          out[i].test ? out[i].test->length : 0, len_o,
                          out[i].reason);
        }
        mf_kiss2_free(mk);
        mf_verdict_clear(&out[i]);
        mf_model_free(mms[i]);
    }
    print_message("%s: %d mutants, %d killed, %d equivalent, %d "
                  "disagreements\n", name, n, killed, equivalent, bad);
    assert_int_equal(bad, 0);
    free(out);
    free(mms);
    MF_VEC_FREE(c.em);
    MF_VEC_FREE(c.km);
    mf_arena_free(c.a);
    mf_model_free(m);
    free(text);
}

static void test_kiss2__engine_agrees_with_the_product_oracle(void **st)
{
    (void)st;
    static const char *const machines[] = {
        "lion", "train4", "mc", "dk27", "dk15", "bbtas",
        "lion9", "modulo12", "s8", "shiftreg", "opus"};
    for (size_t i = 0; i < sizeof machines / sizeof *machines; i++)
        agree_on(machines[i]);
}

/* ---- mutation machines against enumeration ----------------------------- */

/* A test (strings of 0 1) kills mutant mk of k on the tables. */
static int kills(const mf_kiss2 *k, const mf_kiss2 *mk, char **in, int len)
{
    int s = k->reset, q = mk->reset;
    for (int step = 0; step < len; step++) {
        unsigned x = 0;
        for (int b = 0; b < k->ni; b++)
            x |= (unsigned)(in[step][b] == '1') << b;
        const mf_kiss2_row *a = first_row(k, s, x);
        assert_non_null(a); /* suites apply allowed inputs only */
        const mf_kiss2_row *r = first_row(mk, q, x);
        if (deviates(a, r, 0))
            return 1;
        s = a->to;
        q = r->to;
    }
    return 0;
}

typedef struct {
    MF_VEC(char **) t;
    MF_VEC(int) len;
} suite;

static void suite_free(suite *su)
{
    for (int i = 0; i < su->t.n; i++) {
        for (int j = 0; j < su->len.v[i]; j++)
            free(su->t.v[i][j]);
        free(su->t.v[i]);
    }
    MF_VEC_FREE(su->t);
    MF_VEC_FREE(su->len);
}

/* n random walks of up to len allowed inputs of k (a fixed seed). */
static void random_suite(suite *su, const mf_kiss2 *k, int n, int len,
                         unsigned *seed)
{
    for (int t = 0; t < n; t++) {
        char **in = calloc((size_t)len + 1, sizeof *in);
        int s = k->reset, got = 0;
        for (int step = 0; step < len; step++) {
            const mf_kiss2_row *r = NULL;
            unsigned x = 0;
            for (int tries = 0; tries < 64 && !r; tries++) {
                *seed = *seed * 1103515245u + 12345u;
                x = (*seed >> 8) & ((1u << k->ni) - 1);
                r = first_row(k, s, x);
            }
            if (!r)
                break;
            in[got] = calloc((size_t)k->ni + 1, 1);
            for (int b = 0; b < k->ni; b++)
                in[got][b] = (char)('0' + (x >> b & 1));
            got++;
            s = r->to;
        }
        MF_VEC_PUSH(su->t, in);
        MF_VEC_PUSH(su->len, got);
    }
}

/* Every mutant of mm checked on the tables: how many conform, how many
 * are nonconforming and pass every test of su. */
static void enumerate(const mf_mm *mm, const mf_kiss2 *k, const suite *su,
                      long total, long *conf, long *surv)
{
    int *choice = calloc((size_t)mm->ngroups + 1, sizeof *choice);
    *conf = *surv = 0;
    for (long idx = 0; idx < total; idx++) {
        long r = idx;
        for (int g = 0; g < mm->ngroups; g++) {
            choice[g] = (int)(r % mm->groups[g].nalts);
            r /= mm->groups[g].nalts;
        }
        mf_buf b = {0};
        mf_mm_print_mutant(&b, mm, choice);
        mf_kiss2 *mk = NULL;
        if (mf_kiss2_read(&mk, "mutant.kiss2", b.data, b.len, NULL, NULL))
            fail_msg("mutant does not read: %s\n%s", mf_err_msg(), b.data);
        if (oracle_kill_len(k, mk, 0) == 0) {
            (*conf)++;
        } else {
            int killed = 0;
            for (int t = 0; t < su->t.n && !killed; t++)
                killed = kills(k, mk, su->t.v[t], su->len.v[t]);
            *surv += !killed;
        }
        mf_kiss2_free(mk);
        mf_buf_free(&b);
    }
    free(choice);
}

static void mm_check(const mf_mm *mm, const mf_kiss2 *k, const suite *su,
                     long total, const char *what)
{
    long conf = 0, surv = 0;
    enumerate(mm, k, su, total, &conf, &surv);
    mf_mm_result r;
    assert_int_equal(mf_mm_analyse(mm, su->t.v, su->len.v, su->t.n, 0, 0, &r),
                     0);
    assert_true(r.finished);
    char want[32];
    snprintf(want, sizeof want, "%ld", surv);
    if (strcmp(r.surviving.data, want) != 0)
        fail_msg("%s: %d tests: %s survivors by analysis, %ld by "
                 "enumeration", what, su->t.n, r.surviving.data, surv);
    snprintf(want, sizeof want, "%ld", conf);
    assert_string_equal(r.conforming.data, want);
    assert_int_equal(!!r.survivor, surv > 0);
    print_message("%s: %ld mutants, %d tests: %ld conforming, %ld surviving "
                  "(%ld classes)\n", what, total, su->t.n, conf, surv,
                  r.classes);
    mf_mm_result_free(&r);
}

/* One mutation machine of a shared machine, checked on suites of several
 * sizes and on the suite mf_mm_complete makes. */
static void mm_agree(const char *name, const char *states, unsigned ops,
                     const char *extra)
{
    char path[2048];
    size_t len = 0;
    char *text = shared_text(name, &len, path, sizeof path);
    if (!text)
        return;
    mf_kiss2 *k = NULL, *x = NULL;
    assert_int_equal(mf_kiss2_read(&k, path, text, len, NULL, NULL), 0);
    mf_mm *mm = NULL;
    assert_int_equal(mf_mm_from_spec(&mm, k), 0);
    if (extra) {
        mf_kiss2_opts o = {.nondet = 1};
        assert_int_equal(mf_kiss2_read(&x, "extra.kiss2", extra,
                                       strlen(extra), &o, NULL), 0);
        if (mf_mm_add_rows(mm, x) < 0)
            fail_msg("%s", mf_err_msg());
    }
    if (states) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", states);
        const char *names[16];
        int n = 0;
        for (char *t = strtok(buf, ","); t && n < 16; t = strtok(NULL, ","))
            names[n++] = t;
        assert_int_equal(mf_mm_add_ops(mm, ops, names, n), 0);
    }
    long total = 1;
    for (int g = 0; g < mm->ngroups; g++)
        total *= mm->groups[g].nalts;
    assert_true(total <= 100000);
    mf_buf cnt = {0};
    mf_mm_count(&cnt, mm);
    char want[32];
    snprintf(want, sizeof want, "%ld", total);
    assert_string_equal(cnt.data, want);
    mf_buf_free(&cnt);
    unsigned seed = 32;
    int sizes[] = {0, 1, 4, 16};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        suite su = {0};
        random_suite(&su, k, sizes[i], 2 * k->nstates, &seed);
        mm_check(mm, k, &su, total, name);
        suite_free(&su);
    }
    /* The completed suite leaves no survivor. */
    suite su = {0};
    char ***add = NULL;
    int *lens = NULL, nadd = 0;
    assert_int_equal(mf_mm_complete(mm, NULL, NULL, 0, &add, &lens, &nadd), 0);
    for (int i = 0; i < nadd; i++) {
        MF_VEC_PUSH(su.t, add[i]);
        MF_VEC_PUSH(su.len, lens[i]);
    }
    free(add);
    free(lens);
    long conf = 0, surv = 0;
    enumerate(mm, k, &su, total, &conf, &surv);
    assert_int_equal(surv, 0);
    print_message("%s: the completed suite: %d tests, no survivor\n", name,
                  su.t.n);
    suite_free(&su);
    mf_mm_free(mm);
    mf_kiss2_free(x);
    mf_kiss2_free(k);
    free(text);
}

static void test_kiss2__mutation_machine_analysis_agrees_with_enumeration(
    void **st)
{
    (void)st;
    unsigned all = 0;
    mm_agree("lion", "st1", all, NULL);
    mm_agree("lion", "st0,st3", 1u << MF_KOP_TRANSFER, NULL);
    mm_agree("train4", "st2", all, NULL);
    mm_agree("dk27", "state2,state5", 1u << MF_KOP_OUTPUT |
             1u << MF_KOP_TRANSFER, NULL);
    mm_agree("mc", "HG", all, NULL);
    /* A `*` row: a group in every state. */
    mm_agree("opus", "init1", 1u << MF_KOP_OUTPUT | 1u << MF_KOP_MISSING,
             NULL);
    /* Most transfer faults of modulo12 conform: many conforming classes. */
    mm_agree("modulo12", "st3", 1u << MF_KOP_TRANSFER, NULL);
    /* Extra rows: another next state for one row, and an extra state st9
     * whose own rows have alternatives. */
    mm_agree("lion", NULL, 0, ".i 2\n.o 1\n01 st0 st9 0\n11 st1 st9 1\n"
             "0- st9 st1 1\n0- st9 st3 1\n1- st9 st0 0\n1- st9 st9 -\n");
}

/* ---- the command line ---------------------------------------------------- */

/* The output and exit code of `$MF_BIN ARGS` (stderr joined). */
static int run_bin(mf_buf *out, const char *args)
{
    const char *bin = getenv("MF_BIN");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin ? bin : "build/mutfarm",
             args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        mf_buf_put(out, buf, n);
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect_run(const char *args, int code, const char *want)
{
    mf_buf out = {0};
    int rc = run_bin(&out, args);
    if (rc != code || !strstr(out.data ? out.data : "", want))
        fail_msg("mutfarm %s: exit %d (want %d), output lacks '%s':\n%s",
                 args, rc, code, want, out.data ? out.data : "");
    mf_buf_free(&out);
}

static void test_kiss2__commands_read_kiss2(void **st)
{
    (void)st;
    expect_run("check tests/models/lion.kiss2 --all --bound auto", 0,
               "# 56 mutants: 54 killed, 2 equivalent, 0 survived");
    expect_run("check tests/models/lion.kiss2 --mutant 60ef8b1f --bound auto",
               0, "60ef8b1f28cdb8f4  transfer-fault killed");
    expect_run("check tests/models/lion.kiss2 --all --operators nope", 1,
               "unknown mutation operator 'nope'");
    expect_run("mutants list tests/models/lion.kiss2", 0,
               "806a1dd9dc9af47a  missing-transition  7:1  line 7: row "
               "removed");
    expect_run("mutants show tests/models/lion.kiss2 806a", 0,
               "# mutant 806a1dd9dc9af47a (missing-transition): line 7: "
               "row removed\n# -0 st0 st0 0\n11 st0 st0 0\n");
    expect_run("mm tests/models/lion.kiss2 --ops all count", 0,
               "mutants: 423263232 (the specification included)");
    expect_run("mm tests/models/lion.kiss2 --ops transfer-fault --states st1 "
               "complete -o /dev/null", 0,
               "complete for this mutation machine: 0 tests given, 5 added");
    /* Through the farm and the store: run, then the report. */
    char db[] = "/tmp/mf-kiss2-db-XXXXXX";
    int dfd = mkstemp(db);
    assert_true(dfd >= 0);
    close(dfd);
    unlink(db);
    char a2[256];
    snprintf(a2, sizeof a2, "run tests/models/lion.kiss2 --db %s --workers 1",
             db);
    expect_run(a2, 0, "56 mutants decided of 56: 54 killed, 2 equivalent");
    snprintf(a2, sizeof a2, "report --db %s", db);
    expect_run(a2, 0, "  transfer-fault          33      33       0");
    const char *sfx[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        snprintf(a2, sizeof a2, "%s%s", db, sfx[i]);
        unlink(a2);
    }
    /* Bad input: one line with file:line, exit 1. */
    char path[] = "/tmp/mf-kiss2-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *bad = ".i 2\n.o 1\n0 a b 1\n";
    assert_int_equal(write(fd, bad, strlen(bad)), (int)strlen(bad));
    close(fd);
    char kpath[64], args[160];
    snprintf(kpath, sizeof kpath, "%s.kiss2", path);
    assert_int_equal(rename(path, kpath), 0);
    snprintf(args, sizeof args, "check %s --all", kpath);
    char want[128];
    snprintf(want, sizeof want, "%s:3: error: input cube has 1 bits, not 2",
             kpath);
    expect_run(args, 1, want);
    unlink(kpath);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kiss2__reads_rows_states_and_reset),
        cmocka_unit_test(test_kiss2__print_reads_back_the_same),
        cmocka_unit_test(test_kiss2__bad_input_names_the_line),
        cmocka_unit_test(test_kiss2__overlaps_read_as_a_mutation_machine),
        cmocka_unit_test(test_kiss2__benchmark_slips_are_warnings),
        cmocka_unit_test(test_kiss2__sniff),
        cmocka_unit_test(test_kiss2__built_model_is_the_smv_translation),
        cmocka_unit_test(test_kiss2__engine_agrees_with_the_product_oracle),
        cmocka_unit_test(
            test_kiss2__mutation_machine_analysis_agrees_with_enumeration),
        cmocka_unit_test(test_kiss2__commands_read_kiss2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
