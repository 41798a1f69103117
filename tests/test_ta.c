/* test_ta.c - the timed-automata front-ends (ta/): the UPPAAL and Ecdar
 * readers on every shared model (how many are accepted, and a one-line
 * message for the others), flattening (instances, parameters, selects,
 * functions, clock constraints), bad input refused with one line, the
 * operators on the car alarm system (counts, ids, duplicates,
 * stillborns), and every mutant of every accepted model applied and
 * printed back in its format, the print read again giving the same
 * network. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "langs.h"
#include "ta_lang.h"

/* ---- helpers ------------------------------------------------------------ */

static const char *shared(void)
{
    const char *d = getenv("MF_SHARED_MODELS");
    return d ? d : "../shared/models";
}

static int load_path(mf_model **m, const char *path, const mf_model_opts *o)
{
    return mf_model_load_file(m, path, o);
}

static int load_text(ta_net **n, const char *text)
{
    return ta_read_uppaal(n, "t.xml", text, strlen(text), NULL);
}

/* The message of a refusal is one line naming the file. */
static void assert_one_line(const char *file)
{
    const char *msg = mf_err_msg();
    assert_non_null(strstr(msg, file));
    assert_null(strchr(msg, '\n'));
}

/* The processes part of a network's print (roles may differ between a
 * mutant read again and the mutant built with the original's roles). */
static char *procs_print(const ta_net *n)
{
    mf_buf b = {0};
    ta_net_print(&b, n);
    char *p = strstr(b.data, "\nprocess ");
    char *s = mf_xstrdup(p ? p : "");
    /* a removed location prints back as one without edges */
    for (char *r; (r = strstr(s, " removed"));)
        memmove(r, r + 8, strlen(r + 8) + 1);
    mf_buf_free(&b);
    return s;
}

/* A bundle of the global declarations of `glob` and one component text. */
static char *bundle_with(const char *glob_path, const char *comp_text)
{
    char *g = NULL;
    size_t gl = 0;
    if (mf_read_file(&g, &gl, glob_path, 1 << 24))
        return NULL;
    json_t *b = json_object(), *files = json_array(), *f1 = json_object(),
           *f2 = json_object();
    json_object_set_new(b, "format", json_string("mutfarm-ecdar-1"));
    json_object_set_new(f1, "path", json_string(glob_path));
    json_object_set_new(f1, "text", json_string(g));
    json_object_set_new(f2, "path", json_string("Components/M.json"));
    json_object_set_new(f2, "text", json_string(comp_text));
    json_array_append_new(files, f1);
    json_array_append_new(files, f2);
    json_object_set_new(b, "files", files);
    char *s = json_dumps(b, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(b);
    free(g);
    return s;
}

typedef struct {
    const ta_net *n;
    const char *glob; /* Ecdar: GlobalDeclarations.json */
    int every;        /* print back and read again every n-th OK mutant */
    long count[TA_MOP__COUNT], dup[TA_MOP__COUNT], still[TA_MOP__COUNT];
    long ok, reread;
} check_ctx;

/* Every mutant: an OK one applies, and its print read again is the same
 * network; a stillborn one does not apply; a duplicate of the original
 * applies to the original network. */
static int check_fn(const ta_mutant *mu, void *v)
{
    check_ctx *c = v;
    ta_net *m = NULL;
    c->count[mu->op]++;
    int rc = ta_mutant_apply(&m, c->n, mu);
    if (mu->status == TA_MUT_STILLBORN) {
        c->still[mu->op]++;
        if (rc == 0)
            print_message("stillborn %s applies: %s\n", mu->id, mu->desc);
        assert_int_not_equal(rc, 0);
        return 0;
    }
    if (rc)
        print_message("%s (%s) does not apply: %s\n", mu->id, mu->desc,
                      mf_err_msg());
    assert_int_equal(rc, 0);
    if (mu->status == TA_MUT_DUPLICATE) {
        c->dup[mu->op]++;
        /* (an added edge that is the same as an existing one is a
         * duplicate of the original too: a twin edge adds no behaviour) */
        if (!strcmp(mu->dup_of, "original") && mu->kind != TA_MK_EDGE_ADD) {
            char *a = procs_print(c->n), *b = procs_print(m);
            assert_string_equal(a, b);
            free(a);
            free(b);
        }
    } else if (c->ok++ % c->every == 0) {
        mf_buf out = {0};
        ta_mutant_print(&out, c->n, mu);
        ta_net *r = NULL;
        if (c->n->format == TA_FMT_ECDAR) {
            char *bt = bundle_with(c->glob, out.data);
            assert_non_null(bt);
            rc = ta_read_ecdar(&r, "m.bundle", bt, strlen(bt), NULL);
            free(bt);
        } else {
            rc = ta_read_uppaal(&r, "m.xml", out.data, out.len, NULL);
        }
        if (rc)
            print_message("%s printed does not read: %s\n", mu->id,
                          mf_err_msg());
        assert_int_equal(rc, 0);
        char *a = procs_print(m), *b = procs_print(r);
        if (strcmp(a, b))
            print_message("%s: printed and read again differs\n", mu->id);
        assert_string_equal(a, b);
        free(a);
        free(b);
        ta_net_free(r);
        mf_buf_free(&out);
        c->reread++;
    }
    ta_net_free(m);
    return 0;
}

/* ---- the shared models ------------------------------------------------------- */

/* The paths of the shared UPPAAL models, sorted; 0 (said) when there are
 * none. */
static int shared_xml(char *paths[64])
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/uppaal", shared());
    DIR *d = opendir(dir);
    if (!d) {
        print_message("skipped: no shared models in %s\n", dir);
        return 0;
    }
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) && n < 64) {
        size_t k = strlen(e->d_name);
        if (k <= 4 || strcmp(e->d_name + k - 4, ".xml"))
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        paths[n++] = mf_xstrdup(path);
    }
    closedir(d);
    for (int i = 1; i < n; i++) /* sorted: the same order on every run */
        for (int j = i; j > 0 && strcmp(paths[j - 1], paths[j]) > 0; j--) {
            char *t = paths[j];
            paths[j] = paths[j - 1];
            paths[j - 1] = t;
        }
    return n;
}

static void test_ta__reads_the_shared_uppaal_models(void **state)
{
    (void)state;
    char *paths[64];
    int n = shared_xml(paths), accepted = 0;
    if (!n)
        return;
    for (int i = 0; i < n; i++) {
        const char *name = strrchr(paths[i], '/') + 1;
        mf_model *m = NULL;
        int rc = load_path(&m, paths[i], NULL);
        if (rc == 0) {
            const ta_net *net = ta_net_of(m);
            assert_non_null(net);
            int edges = 0;
            for (int p = 0; p < net->nprocs; p++)
                edges += net->procs[p].nedges;
            print_message("accepted %-70s %2d processes %3d edges\n", name,
                          net->nprocs, edges);
            accepted++;
        } else {
            assert_one_line(paths[i]);
            print_message("refused  %-70s %s\n", name,
                          strstr(mf_err_msg(), ": unsupported:")
                              ? strstr(mf_err_msg(), "unsupported:")
                              : mf_err_msg());
        }
        mf_model_free(m);
        free(paths[i]);
    }
    print_message("%d of %d shared UPPAAL models accepted\n", accepted, n);
    assert_int_equal(n, 15);
    assert_true(accepted >= 13);
}

/* The car alarm system loaded from its project folder (dir), or NULL
 * (said) when the shared models are not there. */
static mf_model *load_cas(char dir[1024])
{
    mf_model *m = NULL;
    snprintf(dir, 1024, "%s/ecdar/CarAlarm", shared());
    if (load_path(&m, dir, NULL) == MF_EIO)
        print_message("skipped: no %s\n", dir);
    return m;
}

static void test_ta__reads_the_ecdar_car_alarm_system(void **state)
{
    (void)state;
    char dir[1024], comp[1200];
    mf_model *m = load_cas(dir);
    if (!m)
        return;
    snprintf(comp, sizeof comp, "%s/Model/Components/Env.json", dir);
    const ta_net *n = ta_net_of(m);
    assert_non_null(n);
    assert_int_equal(n->format, TA_FMT_ECDAR);
    assert_int_equal(n->nprocs, 1);
    assert_string_equal(n->procs[0].name, "Alarm"); /* the one with inputs */
    int in = 0, out = 0;
    for (int i = 0; i < n->nchans; i++) {
        in += n->chans[i].role == TA_ROLE_INPUT;
        out += n->chans[i].role == TA_ROLE_OUTPUT;
    }
    assert_int_equal(in, 4);
    assert_int_equal(out, 6);
    assert_int_equal(n->nclocks, 1);
    assert_int_equal(n->procs[0].nlocs, 14);
    assert_int_equal(n->procs[0].nedges, 25);
    /* positions: the component's file and line */
    assert_non_null(strstr(n->procs[0].edges[0].pos.file, "Alarm.json"));
    assert_true(n->procs[0].edges[0].pos.line > 1);
    mf_model_free(m);

    /* a component's file names its component; --system chooses another */
    assert_int_equal(load_path(&m, comp, NULL), 0);
    assert_string_equal(ta_net_of(m)->procs[0].name, "Env");
    mf_model_free(m);
    mf_model_opts o = {.system = "Alarm"};
    assert_int_equal(load_path(&m, comp, &o), 0);
    assert_string_equal(ta_net_of(m)->procs[0].name, "Alarm");
    mf_model_free(m);
    o.system = "Nope";
    assert_int_equal(load_path(&m, dir, &o), MF_ENOTFOUND);
    assert_non_null(strstr(mf_err_msg(), "Alarm, Env"));
    assert_null(m);
}

/* ---- flattening ------------------------------------------------------------------ */

static const char *const FLAT =
    "<nta><declaration>const int N = 3; typedef int[0,N-1] id_t;\n"
    "chan go[N]; broadcast chan b; int[0,5] q[2] = {1, 2};\n"
    "int f(int v) { int i = 0; while (i &lt; v) { i++; } return i; }\n"
    "</declaration>\n"
    "<template><name>P</name><parameter>const id_t id, int &amp;r</parameter>"
    "<declaration>clock x; int[0,N] c = id;</declaration>\n"
    "<location id=\"a\"><label kind=\"invariant\">x &lt;= 4 + id</label>"
    "</location>\n<location id=\"b\"><urgent/></location><init ref=\"a\"/>\n"
    "<transition><source ref=\"a\"/><target ref=\"b\"/>"
    "<label kind=\"select\">e : id_t</label>"
    "<label kind=\"guard\">2 &lt; x &amp;&amp; c == e</label>"
    "<label kind=\"synchronisation\">go[id]!</label>"
    "<label kind=\"assignment\">x = 0, r = f(e)</label></transition>\n"
    "</template>\n"
    "<template><name>Q</name><location id=\"z\"/><init ref=\"z\"/>"
    "<transition><source ref=\"z\"/><target ref=\"z\"/>"
    "<label kind=\"synchronisation\">go[1]?</label></transition>"
    "</template>\n"
    "<system>int g; A = P(2, g); system A, Q;</system></nta>\n";

static void test_ta__flattens_instances_parameters_and_clocks(void **state)
{
    (void)state;
    ta_net *n = NULL;
    assert_int_equal(load_text(&n, FLAT), 0);
    assert_int_equal(n->nprocs, 2);
    assert_string_equal(n->procs[0].name, "A");
    assert_string_equal(n->procs[1].name, "Q");
    int c = ta_net_find_var(n, "A.c");
    assert_true(c >= 0);
    assert_int_equal(n->vars[c].init[0], 2); /* c = id, id bound to 2 */
    assert_int_equal(n->vars[ta_net_find_var(n, "q")].init[1], 2);
    const ta_loc *a = &n->procs[0].locs[0];
    assert_int_equal(a->ncc, 1);
    assert_int_equal(a->cc[0].op, TA_OP_LE);
    assert_int_equal(a->cc[0].bound->kind, TA_E_INT);
    assert_int_equal(a->cc[0].bound->ival, 6); /* 4 + id folded */
    assert_true(n->procs[0].locs[1].urgent);
    const ta_edge *e = &n->procs[0].edges[0];
    assert_int_equal(e->nsel, 1);
    assert_int_equal(e->sel[0].hi, 2);
    assert_int_equal(e->ncc, 1);
    assert_int_equal(e->cc[0].op, TA_OP_GT); /* 2 < x read as x > 2 */
    assert_int_equal(e->cc[0].x, n->vars[ta_net_find_var(n, "A.x")].clock);
    assert_non_null(e->guard_data);
    assert_int_equal(e->sync.dir, TA_SYNC_SEND);
    assert_int_equal(e->sync.chan, ta_net_find_chan(n, "go[0]"));
    assert_int_equal(e->sync.index->ival, 2);
    assert_int_equal(e->nupd, 2);
    assert_int_equal(e->upd[1]->kids[0]->ref, ta_net_find_var(n, "g"));
    /* no environment named: go[2] is sent and never received, go[1]
     * received and never sent */
    assert_int_equal(n->chans[ta_net_find_chan(n, "go[2]")].role,
                     TA_ROLE_OUTPUT);
    assert_int_equal(n->chans[ta_net_find_chan(n, "go[1]")].role,
                     TA_ROLE_INPUT);
    assert_int_equal(n->nfuncs, 1);
    ta_net_free(n);
}

/* ---- bad input ------------------------------------------------------------------ */

static void refuse(const char *body, int code, const char *says)
{
    char text[4096];
    snprintf(text, sizeof text,
             "<nta><declaration>clock x; chan c; int i;</declaration>"
             "<template><name>T</name><location id=\"a\"/>"
             "<location id=\"b\"/><init ref=\"a\"/>%s</template>"
             "<system>system T;</system></nta>",
             body);
    ta_net *n = NULL;
    int rc = load_text(&n, text);
    if (rc != code || !strstr(mf_err_msg(), says))
        print_message("%s: got %d '%s'\n", body, rc, mf_err_msg());
    assert_int_equal(rc, code);
    assert_non_null(strstr(mf_err_msg(), says));
    assert_one_line("t.xml");
    assert_null(n);
}

#define EDGE(labels)                                                          \
    "<transition><source ref=\"a\"/><target ref=\"b\"/>" labels               \
    "</transition>"

static void test_ta__refuses_bad_input_with_one_line(void **state)
{
    (void)state;
    ta_net *n = NULL;
    assert_int_equal(load_text(&n, "not xml at all"), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "not UPPAAL XML"));
    assert_one_line("t.xml");
    assert_int_equal(load_text(&n, "<model/>"), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "not <nta>"));
    refuse(EDGE("<label kind=\"synchronisation\">d!</label>"), MF_ETYPE,
           "unknown name 'd'");
    refuse(EDGE("<label kind=\"synchronisation\">i!</label>"), MF_ETYPE,
           "'i' is not a channel");
    refuse(EDGE("<label kind=\"guard\">y &lt; 3</label>"), MF_ETYPE,
           "unknown name 'y'");
    refuse(EDGE("<label kind=\"guard\">x &lt; 3 || i == 1</label>"), MF_ETYPE,
           "a guard must be a conjunction of clock constraints");
    refuse(EDGE("<label kind=\"guard\">x + 1 &lt; 3</label>"), MF_ETYPE,
           "is not");
    refuse(EDGE("<label kind=\"assignment\">i = x</label>"), MF_ETYPE,
           "a clock used as a value");
    refuse(EDGE("<label kind=\"assignment\">i = </label>"), MF_EPARSE,
           "expected an expression");
    refuse("<transition><source ref=\"a\"/><target ref=\"q\"/></transition>",
           MF_EPARSE, "no such location");
    refuse(EDGE("<label kind=\"probability\">1</label>"), MF_EUNSUPPORTED,
           "unsupported: a transition label of kind 'probability'");
    refuse("<branchpoint id=\"q\"/>", MF_EUNSUPPORTED,
           "unsupported: a branchpoint");
    refuse("<declaration>typedef struct { int a; } s; s v;</declaration>",
           MF_EUNSUPPORTED, "unsupported: a value of the struct type 's'");
    refuse(EDGE("<label kind=\"assignment\">i = round(i)</label>"),
           MF_EUNSUPPORTED, "unsupported: UPPAAL's built-in function 'round'");
    refuse("<declaration>int f(int n) { return n &gt; 0 ? f(n - 1) : 0; }"
           "</declaration>",
           MF_ETYPE, "'f' is not a function");
    /* an invariant is upper bounds on clocks */
    ta_net *m = NULL;
    const char *inv =
        "<nta><declaration>clock x;</declaration><template><name>T</name>"
        "<location id=\"a\"><label kind=\"invariant\">x &gt; 2</label>"
        "</location><init ref=\"a\"/></template><system>system T;</system>"
        "</nta>";
    assert_int_equal(load_text(&m, inv), MF_EUNSUPPORTED);
    assert_non_null(strstr(mf_err_msg(), "upper bound"));
    /* an unknown channel in --inputs */
    const char *ok = "<nta><declaration>chan c;</declaration><template>"
                     "<name>T</name><location id=\"a\"/><init ref=\"a\"/>"
                     "</template><system>system T;</system></nta>";
    const char *names[] = {"nope"};
    ta_opts o = {.inputs = names, .ninputs = 1};
    assert_int_equal(ta_read_uppaal(&m, "t.xml", ok, strlen(ok), &o),
                     MF_ENOTFOUND);
    assert_non_null(strstr(mf_err_msg(), "unknown channel 'nope'"));
    /* an Ecdar bundle that is not one */
    assert_int_equal(ta_read_ecdar(&m, "b", "{\"format\": 1}", 13, NULL),
                     MF_EPARSE);
    assert_one_line("b");
    assert_null(m);
}

/* ---- operators ------------------------------------------------------------------ */

static void test_ta__operators_on_the_car_alarm_system(void **state)
{
    (void)state;
    char dir[1024], glob[1200];
    mf_model *m = load_cas(dir);
    if (!m)
        return;
    snprintf(glob, sizeof glob, "%s/Model/GlobalDeclarations.json", dir);
    check_ctx c = {.n = ta_net_of(m), .glob = glob, .every = 1};
    assert_int_equal(ta_mutants_each(c.n, 0, check_fn, &c), 0);
    static const long want[TA_MOP__COUNT] = {25, 392, 13, 18, 18, 9,
                                             325, 97, 25, 13, 18, 5};
    for (int op = 0; op < TA_MOP__COUNT; op++) {
        print_message("%-20s %4ld mutants, %ld duplicate, %ld stillborn\n",
                      ta_op_names[op], c.count[op], c.dup[op], c.still[op]);
        assert_int_equal(c.count[op], want[op]);
    }
    /* a negated single clock constraint is the CCN mutant; a guard with a
     * clock and a condition negates to a disjunction */
    assert_int_equal(c.dup[TA_MOP_GUARD_NEG], 8);
    assert_int_equal(c.still[TA_MOP_GUARD_NEG], 1);
    assert_int_equal(c.reread, c.ok);

    /* ids are the operator, site and replacement's */
    char id[17];
    mf_mutant_id(id, "tmi", "Alarm/edge L2->L3#0", "");
    ta_mutant *mu = NULL;
    assert_int_equal(ta_mutant_find(&mu, c.n, id), 0);
    assert_int_equal(mu->op, TA_MOP_TMI);
    assert_int_equal(mu->kind, TA_MK_EDGE_DEL);
    assert_non_null(strstr(mu->desc, "L2 -> L3 (close?)"));
    ta_mutant_free(mu);
    mf_mutant_id(id, "cxl", "Alarm/loc L3/invariant/cc0", "x <= 26");
    assert_int_equal(ta_mutant_find(&mu, c.n, id), 0);
    assert_int_equal(mu->kind, TA_MK_LOC);
    ta_net *mn = NULL;
    assert_int_equal(ta_mutant_apply(&mn, c.n, mu), 0);
    assert_int_equal(mn->procs[0].locs[2].cc[0].bound->ival, 26);
    ta_net_free(mn);
    ta_mutant_free(mu);
    /* the mask selects operators; ids do not depend on it */
    check_ctx c2 = {.n = c.n, .glob = glob, .every = 1000};
    assert_int_equal(ta_mutants_each(c.n, 1u << TA_MOP_CCN, check_fn, &c2),
                     0);
    assert_int_equal(c2.count[TA_MOP_CCN], 9);
    assert_int_equal(c2.count[TA_MOP_TMI], 0);
    mf_model_free(m);
}

static void test_ta__every_mutant_of_every_model_applies(void **state)
{
    (void)state;
    char *paths[64];
    int n = shared_xml(paths);
    long total = 0, reread = 0;
    for (int i = 0; i < n; i++) {
        mf_model *m = NULL;
        if (load_path(&m, paths[i], NULL) == 0) {
            /* every mutant applies; a sample is printed and read again */
            check_ctx c = {.n = ta_net_of(m), .every = 5};
            assert_int_equal(ta_mutants_each(c.n, 0, check_fn, &c), 0);
            for (int op = 0; op < TA_MOP__COUNT; op++)
                total += c.count[op];
            reread += c.reread;
        }
        mf_model_free(m);
        free(paths[i]);
    }
    print_message("%ld mutants applied, %ld printed and read again\n", total,
                  reread);
    assert_true(!n || total > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ta__reads_the_shared_uppaal_models),
        cmocka_unit_test(test_ta__reads_the_ecdar_car_alarm_system),
        cmocka_unit_test(test_ta__flattens_instances_parameters_and_clocks),
        cmocka_unit_test(test_ta__refuses_bad_input_with_one_line),
        cmocka_unit_test(test_ta__operators_on_the_car_alarm_system),
        cmocka_unit_test(test_ta__every_mutant_of_every_model_applies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
