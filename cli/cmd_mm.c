/* cmd_mm.c - `mutfarm mm`: mutation machines of KISS2 machines (docs/
 * fsm.md, Mutation machines). Builds the machine (kiss2/mm.c) from the
 * specification and extra rows or the FSM operators, counts its mutants,
 * analyses a test suite against it or completes one (engine/fsm_mm.c), and
 * prints what it found: the answer, the counts, a surviving mutant as
 * KISS2 with the input sequence that shows it apart. */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsm_mm.h"
#include "kiss2.h"
#include "lang.h"

static const char usage[] =
    "usage: mutfarm mm SPEC.kiss2 [--extra ROWS.kiss2] [--ops LIST]\n"
    "                  [--states A,B] ACTION\n"
    "  count                      the number of mutants, exactly\n"
    "  analyse --tests FILE [--count] [--max-classes N]\n"
    "                             does the suite kill every nonconforming\n"
    "                             mutant? one survivor if not; --count:\n"
    "                             count the survivors and the conforming\n"
    "                             mutants (up to N solutions, 100000)\n"
    "  complete [--tests FILE] [-o OUT]\n"
    "                             add tests until it does; OUT: the suite\n"
    "  mutants                    every mutant of the FSM operators (or\n"
    "                             --ops) decided exactly by the product of\n"
    "                             the two tables: killed with a shortest\n"
    "                             test, or equivalent\n"
    "--extra ROWS.kiss2  extra rows: alternatives of the specification's\n"
    "                    (same state and input cube) or rows of new states\n"
    "--ops LIST          alternatives made by the FSM operators\n"
    "                    (output-fault, transfer-fault, missing-transition,\n"
    "                    all) in the groups of the states of --states\n"
    "                    (default every state)\n"
    "Tests: one a line, its inputs separated by spaces, each .i characters\n"
    "of 0 and 1; '#' starts a comment.\n";

typedef struct {
    MF_VEC(char **) t;
    MF_VEC(int) len;
} suite;

static void suite_free(suite *s)
{
    for (int i = 0; i < s->t.n; i++) {
        for (int k = 0; k < s->len.v[i]; k++)
            free(s->t.v[i][k]);
        free(s->t.v[i]);
    }
    MF_VEC_FREE(s->t);
    MF_VEC_FREE(s->len);
}

static int read_suite(suite *s, const char *path, int ni)
{
    char *text = NULL;
    size_t n = 0;
    if (mf_read_file(&text, &n, path, (size_t)256 << 20) < 0) {
        fprintf(stderr, "mutfarm mm: %s\n", mf_err_msg());
        return -1;
    }
    int line = 0, rc = 0;
    for (char *p = text, *nl; p && *p && rc == 0; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        line++;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        MF_VEC(char *) in = {0};
        for (char *tok = strtok(p, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
            if ((int)strlen(tok) != ni || strspn(tok, "01") != strlen(tok)) {
                fprintf(stderr, "%s:%d: error: input '%s' is not %d "
                        "characters of 0 and 1\n", path, line, tok, ni);
                rc = -1;
                break;
            }
            MF_VEC_PUSH(in, mf_xstrdup(tok));
        }
        if (rc == 0 && in.n > 0) {
            MF_VEC_PUSH(s->t, in.v);
            MF_VEC_PUSH(s->len, in.n);
        } else {
            for (int i = 0; i < in.n; i++)
                free(in.v[i]);
            MF_VEC_FREE(in);
        }
    }
    free(text);
    return rc;
}

static void print_test(FILE *f, char **in, int len)
{
    for (int k = 0; k < len; k++)
        fprintf(f, "%s%s", k ? " " : "", in[k]);
    fputc('\n', f);
}

static int analyse(const mf_mm *mm, suite *s, long max_classes, int count)
{
    mf_mm_result r;
    long steps = 0;
    for (int i = 0; i < s->t.n; i++)
        steps += s->len.v[i];
    if (mf_mm_analyse(mm, s->t.v, s->len.v, s->t.n, max_classes, !count,
                      &r) < 0) {
        fprintf(stderr, "mutfarm mm: %s\n", mf_err_msg());
        mf_mm_result_free(&r);
        return MF_EXIT_USAGE;
    }
    printf("tests: %d (%ld inputs)\n", s->t.n, steps);
    printf("passing mutants: %ld classes in %.3f s%s\n", r.classes, r.secs,
           r.finished ? ""
           : count    ? " (stopped at --max-classes)"
                      : " (stopped at the first nonconforming one)");
    printf("conforming: %s%s (the specification included)\n",
           r.finished ? "" : "at least ", r.conforming.data);
    printf("surviving nonconforming: %s%s\n", r.finished ? "" : "at least ",
           r.surviving.data);
    if (!r.survivor)
        printf("%s\n", r.finished ? "complete for this mutation machine: "
                                    "the suite kills every nonconforming "
                                    "mutant"
                                  : "no surviving nonconforming mutant found "
                                    "in the classes looked at");
    else {
        printf("not complete: a surviving nonconforming mutant:\n");
        mf_buf b = {0};
        mf_mm_print_mutant(&b, mm, r.survivor);
        fputs(b.data, stdout);
        mf_buf_free(&b);
        printf("shown apart by:");
        for (int k = 0; k < r.seqlen; k++)
            printf(" %s", r.seq + (size_t)k * (size_t)(mm->ni + 1));
        printf("\n");
    }
    mf_mm_result_free(&r);
    return MF_EXIT_OK;
}

static int complete(const mf_mm *mm, suite *s, const char *outpath)
{
    char ***add = NULL;
    int *lens = NULL, n = 0;
    int rc = mf_mm_complete(mm, s->t.v, s->len.v, s->t.n, &add, &lens, &n);
    if (rc < 0)
        fprintf(stderr, "mutfarm mm: %s\n", mf_err_msg());
    long steps = 0;
    for (int i = 0; i < n; i++)
        steps += lens[i];
    FILE *f = outpath ? fopen(outpath, "w") : stdout;
    if (!f) {
        fprintf(stderr, "mutfarm mm: cannot write %s\n", outpath);
        rc = -1;
    }
    if (rc == 0) {
        printf("complete for this mutation machine: %d tests given, %d "
               "added (%ld inputs)\n", s->t.n, n, steps);
        for (int i = 0; i < s->t.n; i++)
            print_test(f, s->t.v[i], s->len.v[i]);
        for (int i = 0; i < n; i++)
            print_test(f, add[i], lens[i]);
    }
    if (f && f != stdout && fclose(f) != 0)
        rc = -1;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < lens[i]; k++)
            free(add[i][k]);
        free(add[i]);
    }
    free(add);
    free(lens);
    return rc < 0 ? MF_EXIT_INTERNAL : MF_EXIT_OK;
}

/* The machine at `path`, its reader's warnings on stderr: MF_EXIT_OK with
 * *m and its table *k (the model's), or an exit code after the message. */
static int load(mf_model **m, mf_kiss2 **k, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (mf_read_file(&text, &len, path, (size_t)64 << 20) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    mf_buf warn = {0};
    int rc = mf_kiss2_load(m, k, path, text, len, &warn);
    free(text);
    if (warn.len)
        fputs(warn.data, stderr);
    mf_buf_free(&warn);
    if (rc < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    return MF_EXIT_OK;
}

typedef struct {
    const mf_kiss2 *k;
    long n, killed, equiv, dup;
    int rc;
} decide_ctx;

static int decide_fn(const mf_kiss2_mutant *mu, void *v)
{
    decide_ctx *c = v;
    if (mu->dup_of[0]) {
        c->dup++;
        return 0;
    }
    char *seq = NULL;
    int len = 0;
    int r = mf_kiss2_decide(c->k, mu, &seq, &len);
    if (r < 0) {
        c->rc = r;
        return 1;
    }
    c->n++;
    mf_buf d = {0};
    mf_kiss2_mutant_desc(&d, c->k, mu);
    printf("%s  %-18s %s: ", mu->id, mf_kop_name(mu->op), d.data);
    if (r) {
        c->killed++;
        printf("killed, length %d:", len);
        for (int i = 0; i < len; i++)
            printf(" %s", seq + (size_t)i * (size_t)(c->k->ni + 1));
        printf("\n");
    } else {
        c->equiv++;
        printf("equivalent\n");
    }
    mf_buf_free(&d);
    free(seq);
    return 0;
}

/* Every enumerated mutant decided by the product (mf_kiss2_decide). */
static int decide_all(const mf_kiss2 *k, unsigned mask)
{
    decide_ctx c = {.k = k};
    mf_kiss2_mutants_each(k, mask, decide_fn, &c);
    if (c.rc < 0) {
        fprintf(stderr, "mutfarm mm: %s\n", mf_err_msg());
        return MF_EXIT_INTERNAL;
    }
    printf("# %ld mutants: %ld killed, %ld equivalent (%ld duplicates not "
           "decided)\n", c.n, c.killed, c.equiv, c.dup);
    return MF_EXIT_OK;
}

/* "a,b" into an array of pointers into s. */
static int split(const char ***out, char *s)
{
    int n = 0;
    *out = NULL;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        *out = mf_xrealloc(*out, sizeof **out * (size_t)(n + 1));
        (*out)[n++] = tok;
    }
    return n;
}

int mf_cmd_mm(int argc, char **argv)
{
    static const struct option lo[] = {
        {"extra", required_argument, 0, 'x'},
        {"ops", required_argument, 0, 'p'},
        {"states", required_argument, 0, 's'},
        {"tests", required_argument, 0, 't'},
        {"max-classes", required_argument, 0, 'c'},
        {"count", no_argument, 0, 'n'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *extra = NULL, *ops = NULL, *tests = NULL, *outpath = NULL;
    char *states_arg = NULL;
    long max_classes = 100000;
    int c, count = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'x': extra = optarg; break;
        case 'p': ops = optarg; break;
        case 's': states_arg = optarg; break;
        case 't': tests = optarg; break;
        case 'o': outpath = optarg; break;
        case 'n': count = 1; break;
        case 'c': {
            char *end = NULL;
            max_classes = strtol(optarg, &end, 10);
            if (!end || *end || max_classes < 0) {
                fprintf(stderr, "mutfarm mm: --max-classes needs a count\n");
                return MF_EXIT_USAGE;
            }
            break;
        }
        case 'h': fputs(usage, stdout); return MF_EXIT_OK;
        default: fputs(usage, stderr); return MF_EXIT_USAGE;
        }
    }
    if (optind != argc - 2) {
        fputs(usage, stderr);
        return MF_EXIT_USAGE;
    }
    const char *action = argv[optind + 1];
    if (strcmp(action, "count") && strcmp(action, "analyse") &&
        strcmp(action, "complete") && strcmp(action, "mutants")) {
        fprintf(stderr, "mutfarm mm: unknown action '%s' (count, analyse, "
                        "complete, mutants)\n", action);
        return MF_EXIT_USAGE;
    }
    if (!strcmp(action, "analyse") && !tests) {
        fprintf(stderr, "mutfarm mm: analyse needs --tests FILE\n");
        return MF_EXIT_USAGE;
    }
    mf_model *m = NULL;
    mf_kiss2 *k = NULL, *x = NULL;
    mf_mm *mm = NULL;
    const char **states = NULL;
    suite s = {0};
    int rc = load(&m, &k, argv[optind]);
    if (rc != MF_EXIT_OK)
        goto done;
    rc = MF_EXIT_USAGE;
    if (k->ni == 0 || k->ni > 64) {
        fprintf(stderr, "mutfarm mm: %s: mutation machines take 1 to 64 "
                        "inputs\n", k->file);
        goto done;
    }
    if (!strcmp(action, "mutants")) {
        unsigned mask = 0;
        if (ops && mf_lang_ops_parse(&mf_lang_kiss2, &mask, ops) < 0) {
            fprintf(stderr, "mutfarm mm: %s\n", mf_err_msg());
            goto done;
        }
        rc = decide_all(k, mask);
        goto done;
    }
    if (mf_mm_from_spec(&mm, k) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        goto done;
    }
    if (extra) {
        char *text = NULL;
        size_t len = 0;
        mf_kiss2_opts xo = {.nondet = 1};
        mf_buf warn = {0};
        int r = mf_read_file(&text, &len, extra, (size_t)64 << 20);
        if (r == 0)
            r = mf_kiss2_read(&x, extra, text, len, &xo, &warn);
        free(text);
        mf_buf_free(&warn);
        if (r < 0 || mf_mm_add_rows(mm, x) < 0) {
            fprintf(stderr, "%s\n", mf_err_msg());
            goto done;
        }
    }
    if (ops) {
        unsigned mask = 0;
        int ns = states_arg ? split(&states, states_arg) : 0;
        if (mf_lang_ops_parse(&mf_lang_kiss2, &mask, ops) < 0 ||
            mf_mm_add_ops(mm, mask, states_arg ? states : NULL, ns) < 0) {
            fprintf(stderr, "mutfarm mm: %s\n", mf_err_msg());
            goto done;
        }
    }
    int multi = 0;
    for (int g = 0; g < mm->ngroups; g++)
        multi += mm->groups[g].nalts > 1;
    mf_buf cnt = {0};
    mf_mm_count(&cnt, mm);
    printf("mutation machine: %d states (%d extra), %d groups, %d with "
           "alternatives\nmutants: %s (the specification included)\n",
           mm->nstates, mm->nstates - mm->nspec, mm->ngroups, multi,
           cnt.data);
    mf_buf_free(&cnt);
    if (tests && read_suite(&s, tests, k->ni) < 0)
        goto done;
    if (!strcmp(action, "analyse"))
        rc = analyse(mm, &s, max_classes, count);
    else if (!strcmp(action, "complete"))
        rc = complete(mm, &s, outpath);
    else
        rc = MF_EXIT_OK;
done:
    suite_free(&s);
    free(states);
    mf_mm_free(mm);
    mf_kiss2_free(x);
    mf_model_free(m); /* and its table k */
    return rc;
}
