/* cmd_check_ta.c - `mutfarm check` on a timed model (an UPPAAL XML file or
 * an Ecdar project): every mutant of the timed operators decided in this
 * process by the timed engine (engine/tae_check.h), the paper's rules
 * pruning before a mutant is made (--prune, the default), verdicts and
 * timed tests printed, nothing stored (docs/timed.md). The farm does not
 * carry timed mutants yet. */
#include "cmd.h"

#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "langs.h"
#include "ta_lang.h"
#include "tae_check.h"
#include "tae_rules.h"
#include "tae_view.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm check MODEL.xml|ECDAR-PROJECT [--all|--mutant ID]\n"
          "                     [--no-prune] [--check-pruned] [--cross-check]\n"
          "                     [--system NAME] [--env T,...]\n"
          "                     [--inputs C,...] [--outputs C,...]\n"
          "                     [--operators LIST] [--max-states N]\n"
          "                     [--threads N] [--summary] [--quiet] [--stats]\n"
          "  a timed model: UPPAAL XML, or an Ecdar project (its folder or one\n"
          "  component's .json in it); docs/timed.md\n"
          "  --no-prune: generate and check the mutants the paper's rules\n"
          "    prune (default: pruned, counted, not checked)\n"
          "  --check-pruned: check the pruned mutants too and fail (exit 2)\n"
          "    if one is killed\n"
          "  --cross-check: look for a kill of every subsumed or equivalent\n"
          "    mutant by random timed walks in the simulator; exit 2 if one\n"
          "    is found\n"
          "  --max-states N: symbolic states per product (default 200000)\n"
          "  --summary: a table per operator: generated, pruned by rule,\n"
          "    checked, killed, subsumed, equivalent, unknown\n"
          "  --stats: seconds per checked mutant (median, total) on stderr\n"
          "  prints one line per mutant: id, operator, verdict, the site;\n"
          "  and the timed test of each kill.\n"
          "  exit: 0 done, 1 usage or input error, 2 a check failed\n",
          f);
}

typedef struct {
    char id[17];
    int op, status, rule, line;
    const char *file; /* the model's file the mutated item is in */
    char *desc;
    ta_net *net;      /* the mutated network, when checked */
    tae_verdict v;
    int decided, crossed, cross_bad;
    double secs;
} tmut;

typedef struct {
    const ta_net *n;
    int prune, check_pruned;
    MF_VEC(tmut) mu;
    const char *only; /* --mutant */
} enumctx;

static int on_mutant(const ta_mutant *mu, void *vctx)
{
    enumctx *E = vctx;
    if (E->only && strncmp(mu->id, E->only, strlen(E->only)))
        return 0;
    tmut t = {0};
    snprintf(t.id, sizeof t.id, "%s", mu->id);
    t.op = mu->op;
    t.status = mu->status;
    t.line = mu->pos.line;
    t.file = mu->pos.file;
    t.desc = mf_xstrdup(mu->desc ? mu->desc : "");
    t.rule = tae_rule_of(E->n, mu);
    if (mu->status == TA_MUT_OK && (!t.rule || !E->prune || E->check_pruned))
        if (ta_mutant_apply(&t.net, E->n, mu) < 0)
            t.net = NULL;
    MF_VEC_PUSH(E->mu, t);
    return 0;
}

typedef struct {
    enumctx *E;
    const tae_aut *o;
    tae_opts opts;
    int cross;
    int next;
    pthread_mutex_t lock;
} runctx;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void decide(runctx *R, tmut *t, int idx)
{
    double t0 = now_s();
    tae_aut *m = NULL;
    if (tae_view(&m, t->net) < 0) {
        t->v.verdict = TAE_V_UNKNOWN;
        snprintf(t->v.why, sizeof t->v.why, "%s", mf_err_msg());
    } else if (tae_check(&t->v, R->o, m, &R->opts) < 0) {
        t->v.verdict = TAE_V_UNKNOWN;
        snprintf(t->v.why, sizeof t->v.why, "%s", mf_err_msg());
    }
    t->secs = now_s() - t0;
    if (R->cross && m &&
        (t->v.verdict == TAE_V_SUBSUMED || t->v.verdict == TAE_V_EQUIVALENT)) {
        tae_test w;
        t->crossed = 1;
        if (tae_sim_walks(&w, R->o, m, 1u + (unsigned)idx, 200, 12)) {
            t->cross_bad = 1;
            tae_test_free(&w);
        }
    }
    t->decided = 1;
    tae_aut_free(m);
}

static void *worker(void *arg)
{
    runctx *R = arg;
    for (;;) {
        pthread_mutex_lock(&R->lock);
        int i = R->next++;
        pthread_mutex_unlock(&R->lock);
        if (i >= R->E->mu.n)
            break;
        tmut *t = &R->E->mu.v[i];
        if (t->net)
            decide(R, t, i);
    }
    return NULL;
}

static int is_timed_path(const char *p)
{
    struct stat st;
    size_t n = strlen(p);
    if (stat(p, &st) < 0)
        return 0;
    if (S_ISDIR(st.st_mode))
        return 1;
    return (n > 4 && !strcmp(p + n - 4, ".xml")) ||
           (n > 5 && !strcmp(p + n - 5, ".json"));
}

int mf_cmd_check_is_timed(const char *path)
{
    return path && path[0] != '-' && is_timed_path(path);
}

/* Splits "a,b,c" into the arena-free vector v (pointers into s). */
static int split_list(char *s, const char ***v)
{
    int n = 1;
    for (char *p = s; *p; p++)
        n += *p == ',';
    *v = mf_xcalloc((size_t)n, sizeof **v);
    n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ","))
        (*v)[n++] = tok;
    return n;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void summary(const enumctx *E)
{
    int tot[10] = {0};
    printf("%-18s %9s %6s %7s %6s %8s %10s %7s  %s\n", "operator",
           "generated", "pruned", "checked", "killed", "subsumed",
           "equivalent", "unknown", "pruned by rule");
    for (int op = 0; op < TA_MOP__COUNT; op++) {
        int c[8] = {0}, byrule[TAE_NRULES + 1] = {0};
        for (int i = 0; i < E->mu.n; i++) {
            const tmut *t = &E->mu.v[i];
            if (t->op != op || t->status != TA_MUT_OK)
                continue;
            c[0]++;
            if (t->rule) {
                c[1]++;
                byrule[t->rule]++;
            }
            if (t->decided && (!t->rule || !E->prune)) {
                c[2]++;
                c[2 + t->v.verdict]++;
            }
        }
        if (!c[0])
            continue;
        char rules[128] = "";
        size_t at = 0;
        for (int r = 1; r <= TAE_NRULES; r++)
            if (byrule[r] && at < sizeof rules)
                at += (size_t)snprintf(rules + at, sizeof rules - at,
                                       "%s(%d) %d", at ? ", " : "", r,
                                       byrule[r]);
        printf("%-18s %9d %6d %7d %6d %8d %10d %7d  %s\n", ta_op_names[op],
               c[0], c[1], c[2], c[3], c[4], c[5], c[6], rules);
        for (int k = 0; k < 7; k++)
            tot[k] += c[k];
    }
    printf("%-18s %9d %6d %7d %6d %8d %10d %7d\n", "total", tot[0], tot[1],
           tot[2], tot[3], tot[4], tot[5], tot[6]);
}

static void print_mutant(const enumctx *E, const tmut *t, const tae_aut *o,
                         int quiet, const char *model)
{
    const char *file = t->file ? t->file : model;
    const char *opn = ta_op_names[t->op];
    if (t->status == TA_MUT_DUPLICATE) {
        printf("%s %s duplicate\n", t->id, opn);
        return;
    }
    if (t->status == TA_MUT_STILLBORN) {
        printf("%s %s stillborn\n", t->id, opn);
        return;
    }
    if (t->rule && E->prune && !t->decided) {
        printf("%s %s pruned by rule %d  %s:%d\n", t->id, opn, t->rule, file,
               t->line);
        return;
    }
    if (!t->decided) {
        printf("%s %s unknown (not applied: %s)\n", t->id, opn, t->desc);
        return;
    }
    printf("%s %s %s", t->id, opn, tae_verdict_name(t->v.verdict));
    if (t->rule)
        printf(" (pruned by rule %d%s)", t->rule,
               t->v.verdict == TAE_V_KILLED ? ": RULE VIOLATED" : "");
    if (t->v.verdict == TAE_V_KILLED)
        printf(" in %d steps", t->v.test.n + 1);
    if (t->v.verdict == TAE_V_UNKNOWN)
        printf(" (%s)", t->v.why);
    if (t->cross_bad)
        printf(" CROSS-CHECK DISAGREES: the simulator found a kill");
    printf("  %s:%d\n", file, t->line);
    if (t->v.verdict == TAE_V_KILLED && !quiet) {
        mf_buf b = {0};
        tae_test_print(&b, o, &t->v.test);
        fputs(b.data, stdout);
        mf_buf_free(&b);
    }
}

int mf_cmd_check_ta(int argc, char **argv)
{
    static const struct option lo[] = {
        {"mutant", required_argument, 0, 'm'},
        {"all", no_argument, 0, 'a'},
        {"prune", no_argument, 0, 'p'},
        {"no-prune", no_argument, 0, 'N'},
        {"check-pruned", no_argument, 0, 'c'},
        {"cross-check", no_argument, 0, 'x'},
        {"system", required_argument, 0, 's'},
        {"env", required_argument, 0, 'e'},
        {"inputs", required_argument, 0, 'i'},
        {"outputs", required_argument, 0, 'o'},
        {"operators", required_argument, 0, 'O'},
        {"max-states", required_argument, 0, 'X'},
        {"threads", required_argument, 0, 'T'},
        {"summary", no_argument, 0, 'S'},
        {"quiet", no_argument, 0, 'q'},
        {"stats", no_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    enumctx E = {0};
    runctx R = {0};
    mf_model_opts to = {0};
    mf_model *model = NULL;
    char *inputs = NULL, *outputs = NULL, *env = NULL, *ops = NULL;
    int c, all = 0, threads = 1, sum = 0, quiet = 0, stats = 0;
    int rc = MF_EXIT_OK;
    E.prune = 1;
    R.opts.max_states = 200000;
    R.opts.timeout_ms = 10000;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        char *end = NULL;
        long v = 0;
        switch (c) {
        case 'm': E.only = optarg; break;
        case 'a': all = 1; break;
        case 'p': E.prune = 1; break;
        case 'N': E.prune = 0; break;
        case 'c': E.check_pruned = 1; break;
        case 'x': R.cross = 1; break;
        case 's': to.system = optarg; break;
        case 'e': env = optarg; break;
        case 'i': inputs = optarg; break;
        case 'o': outputs = optarg; break;
        case 'O': ops = optarg; break;
        case 'S': sum = 1; break;
        case 'q': quiet = 1; break;
        case 't': stats = 1; break;
        case 'X':
        case 'T':
            v = strtol(optarg, &end, 10);
            if (!*optarg || *end || v < 1 || v > (c == 'T' ? 64 : 100000000)) {
                fprintf(stderr, "mutfarm check: --%s needs a positive "
                                "number\n",
                        c == 'T' ? "threads" : "max-states");
                return MF_EXIT_USAGE;
            }
            if (c == 'T')
                threads = (int)v;
            else
                R.opts.max_states = v;
            break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            fprintf(stderr, "mutfarm check: unknown option %s (see --help)\n",
                    argv[optind - 1]);
            return MF_EXIT_USAGE;
        }
    }
    if (optind != argc - 1 || (!all && !E.only)) {
        usage(stderr);
        return MF_EXIT_USAGE;
    }
    const char *path = argv[optind];
    if (inputs)
        to.ninputs = split_list(inputs, &to.inputs);
    if (outputs)
        to.nobserve = split_list(outputs, &to.observe);
    if (env)
        to.nenv = split_list(env, &to.env);
    unsigned mask = 0;
    if (ops) {
        const char **names = NULL;
        int k = split_list(ops, &names);
        for (int i = 0; i < k; i++) {
            int op = -1;
            for (int j = 0; j < TA_MOP__COUNT; j++)
                if (!strcmp(names[i], ta_op_names[j]))
                    op = j;
            if (op < 0) {
                fprintf(stderr, "mutfarm check: unknown timed operator %s\n",
                        names[i]);
                free(names);
                rc = MF_EXIT_USAGE;
                goto cleanup;
            }
            mask |= 1u << op;
        }
        free(names);
    }
    const ta_net *n = NULL;
    tae_aut *o = NULL;
    if (mf_model_load_file(&model, path, &to) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        rc = MF_EXIT_USAGE;
        goto cleanup;
    }
    if (!(n = ta_net_of(model))) {
        fprintf(stderr, "%s: not a timed model\n", path);
        rc = MF_EXIT_USAGE;
        goto cleanup;
    }
    if (tae_view(&o, n) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        rc = MF_EXIT_USAGE;
        goto cleanup;
    }
    E.n = n;
    if (ta_mutants_each(n, mask, on_mutant, &E) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        rc = MF_EXIT_USAGE;
        goto done;
    }
    if (E.only && E.mu.n == 0) {
        fprintf(stderr, "mutfarm check: no mutant %s\n", E.only);
        rc = MF_EXIT_USAGE;
        goto done;
    }
    R.E = &E;
    R.o = o;
    pthread_mutex_init(&R.lock, NULL);
    pthread_t th[64];
    for (int i = 0; i < threads; i++)
        pthread_create(&th[i], NULL, worker, &R);
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&R.lock);
    double *secs = mf_xcalloc((size_t)E.mu.n + 1, sizeof *secs);
    int ns = 0;
    double total = 0;
    for (int i = 0; i < E.mu.n; i++) {
        const tmut *t = &E.mu.v[i];
        if (!sum)
            print_mutant(&E, t, o, quiet, n->file ? n->file : path);
        if (t->decided) {
            secs[ns++] = t->secs;
            total += t->secs;
        }
        if (t->rule && t->v.verdict == TAE_V_KILLED)
            rc = MF_EXIT_INTERNAL;
        if (t->cross_bad)
            rc = MF_EXIT_INTERNAL;
    }
    if (sum)
        summary(&E);
    if (stats && ns) {
        qsort(secs, (size_t)ns, sizeof *secs, cmp_d);
        fprintf(stderr, "timed check: %d mutants checked, median %.4f s, "
                        "total %.2f s\n",
                ns, secs[ns / 2], total);
    }
    free(secs);
done:
    for (int i = 0; i < E.mu.n; i++) {
        tae_verdict_free(&E.mu.v[i].v);
        ta_net_free(E.mu.v[i].net);
        free(E.mu.v[i].desc);
    }
    MF_VEC_FREE(E.mu);
    tae_aut_free(o);
cleanup:
    mf_model_free(model);
    free((void *)to.inputs);
    free((void *)to.observe);
    free((void *)to.env);
    return rc;
}
