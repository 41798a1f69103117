/* cmd_check.c - `mutfarm check`: decide mutants of a model in this process
 * with the Z3 engine (engine/engine.h) and print verdicts and tests.
 * No farm and no store: nothing is written but stdout and stderr. */
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "cli.h"
#include "control.h"
#include "criteria.h"
#include "engine.h"
#include "kiss2.h"
#include "langs.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm check MODEL [--mutant ID|--all|--against OTHER.smv]\n"
          "                     [--bound K|auto] [--notion auto|potential|definite]\n"
          "                     [--engine cegis|quantified] [--mode batch|fresh]\n"
          "                     [--encoding auto|int|bv]\n"
          "                     [--method auto|smt|bdd|explicit]\n"
          "                     [--operators LIST] [--inputs VARS] [--observe VARS]\n"
          "                     [--timeout MS] [--mutant-timeout MS] [--rlimit N]\n"
          "                     [--memory-mb MB] [--no-proof] [--explicit-mb MB]\n"
          "                     [--explicit-max N] [--sample N] [--control]\n"
          "                     [--threads N] [--criterion LIST]\n"
          "  --bound auto: decide completely where the explicit-state\n"
          "    exploration finishes (kills of any length); elsewhere the\n"
          "    searches stop at the default bound, 20\n"
          "  --memory-mb MB: Z3's memory budget per thread; a check over it\n"
          "    gives up: unknown, with the reason (default 0: none)\n"
          "  --explicit-mb MB: memory budget of the explicit-state proof per\n"
          "    thread (default 512; 0: none, then 20000 states at most)\n"
          "  --explicit-max N: at most N product states besides (0: the\n"
          "    explicit-state proof is off)\n"
          "  --method M: which method decides first (default auto: BDDs for\n"
          "    deterministic mutants within a budget, then the solver); bdd\n"
          "    or explicit alone (what it cannot decide is unknown); smt\n"
          "    without BDDs\n"
          "  --sample N: with --all or --criterion, N evenly spaced mutants\n"
          "    or requirements only\n"
          "  --criterion LIST: coverage requirements instead of mutants\n"
          "    (docs/criteria.md): branch, ufp, transition-pair, state,\n"
          "    mutation (the mutants, as --all), comma-separated, or all;\n"
          "    each covered (its witness test), infeasible (a proof) or\n"
          "    open, then the winnowing row per criterion\n"
          "  --threads N: decide the mutants in N threads (default 1), each\n"
          "    taking batches of consecutive mutants in turn\n"
          "  --control: the choices of assignments' values become inputs\n"
          "    (nd_VAR_K) that the test sets, in original and mutant alike:\n"
          "    kills assume the tester controls them; equivalent holds for\n"
          "    the model as it is\n"
          "  a timed model (UPPAAL .xml, an Ecdar project) has its own options:\n"
          "    mutfarm check MODEL.xml --help\n"
          "  prints one line per mutant: id, operator, verdict, notion, length;\n"
          "  and the test of each kill (inputs, expected and allowed outputs),\n"
          "  in the mutants' order, each printed as soon as it is decided\n"
          "  exit: 0 done, 1 usage or input error, 2 an error verdict or\n"
          "  internal error\n",
          f);
}

typedef struct {
    mf_arena *a;
    MF_VEC(mf_engine_mutant) mu;
    MF_VEC(const char *) ids;
    MF_VEC(const char *) ops;
    const mf_model *m;
    int generated, duplicate, stillborn; /* mutants enumerated, of them */
} coll;

static int collect_fn(const mf_mutant *mu, void *ctx)
{
    coll *c = ctx;
    c->generated++;
    c->stillborn += mu->status == MF_MUT_STILLBORN;
    c->duplicate += mu->status == MF_MUT_DUPLICATE;
    if (mu->status != MF_MUT_OK)
        return 0;
    mf_engine_mutant e = {mu->item, NULL, NULL};
    if (mu->new_item) {
        mf_item *it = mf_arena_alloc(c->a, sizeof *it);
        mf_item_copy(c->a, it, mu->new_item);
        e.repl = it;
    }
    MF_VEC_PUSH(c->mu, e);
    MF_VEC_PUSH(c->ids, mf_arena_strdup(c->a, mu->id));
    MF_VEC_PUSH(c->ops, mf_lang_op_name(mu->lang, mu->op));
    return 0;
}

static int parse_list(const char ***out, int *n, char *s)
{
    *n = 0;
    *out = NULL;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        *out = realloc(*out, sizeof **out * (size_t)(*n + 1));
        if (!*out)
            return -1;
        (*out)[(*n)++] = tok;
    }
    return 0;
}

/* The mutants of a KISS2 machine checked at once (a multiple of the
 * engine's joint-search groups, 64). */
#define KISS2_SLICE 1024

/* The verdicts, printed in the mutants' order as the engine decides them
 * (engine.h, mf_engine_decided_fn), each line flushed: a run stopped
 * early (a timeout, a signal) has printed every verdict before the first
 * undecided mutant. */
typedef struct {
    const mf_model *pm; /* the model the tests speak of */
    const coll *cl;     /* the mutants' ids and operators */
    const mf_verdict *out;
    char *done;         /* done[j]: out[j] final */
    int n, next;        /* next: the first mutant not printed */
    int counts[5];      /* printed verdicts by kind */
    int error;          /* an error verdict printed */
    pthread_mutex_t lock;
} printer;

static void print_verdict(printer *pr, int j)
{
    const mf_verdict *vd = &pr->out[j];
    pr->counts[vd->kind]++;
    printf("%s  %-14s %-10s", pr->cl->ids.v[j], pr->cl->ops.v[j],
           mf_verdict_name(vd->kind));
    switch (vd->kind) {
    case MF_V_KILLED:
        printf(" %-13s length %d%s%s%s\n", mf_notion_name(vd->notion),
               vd->test->length,
               vd->not_shortest ? " (not claimed shortest)" : "",
               vd->method[0] ? "; " : "", vd->method);
        mf_check_print_test(pr->pm, vd->test);
        break;
    case MF_V_EQUIVALENT: printf(" by %s\n", vd->method); break;
    case MF_V_SURVIVED:
        printf(" up to bound %d", vd->bound);
        if (vd->kill_len_beyond > 0)
            printf("; killable at %d, beyond the bound", vd->kill_len_beyond);
        printf("%s%s%s\n", vd->method[0] ? " (" : "", vd->method,
               vd->method[0] ? ")" : "");
        break;
    default: printf(" %s\n", vd->reason); break;
    }
    if (vd->kind == MF_V_ERROR)
        pr->error = 1;
}

/* Mutant j decided: it and every decided one after it up to the first
 * undecided printed. */
static void printer_mark(printer *pr, int j)
{
    pthread_mutex_lock(&pr->lock);
    pr->done[j] = 1;
    int any = 0;
    for (; pr->next < pr->n && pr->done[pr->next]; pr->next++, any = 1)
        print_verdict(pr, pr->next);
    if (any)
        fflush(stdout);
    pthread_mutex_unlock(&pr->lock);
}

static void printer_open(printer *pr, const mf_model *pm, const coll *cl,
                         const mf_verdict *out, int n)
{
    pr->pm = pm;
    pr->cl = cl;
    pr->out = out;
    pr->n = n;
    pr->done = mf_xcalloc((size_t)(n > 0 ? n : 1), 1);
}

static void on_decided(void *ctx, const mf_verdict *v)
{
    printer *pr = ctx;
    printer_mark(pr, (int)(v - pr->out));
}

/* The values of the enum options, named in the order of their enums. */
static const char *const notions[] = {"auto", "potential", "definite"};
static const char *const engines[] = {"cegis", "quantified"};
static const char *const modes[] = {"batch", "fresh"};
static const char *const encodings[] = {"auto", "int", "bv"};
static const char *const methods[] = {"auto", "smt", "bdd", "explicit"};

/* The index of `arg` in names[0..n), or -1 after saying on stderr which
 * names `flag` takes. */
static int pick(const char *flag, const char *arg, const char *const *names,
                int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(arg, names[i]))
            return i;
    fprintf(stderr, "mutfarm check: %s is", flag);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s %s", i == 0 ? "" : i < n - 1 ? "," : " or",
                names[i]);
    fputc('\n', stderr);
    return -1;
}

static int parse_uint(const char *s, long max, long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || *end || x < 0 || x > max)
        return -1;
    *v = x;
    return 0;
}

int mf_cmd_check(int argc, char **argv)
{
    static const struct option lo[] = {
        {"mutant", required_argument, 0, 'm'},
        {"all", no_argument, 0, 'a'},
        {"against", required_argument, 0, 'A'},
        {"bound", required_argument, 0, 'k'},
        {"notion", required_argument, 0, 'n'},
        {"engine", required_argument, 0, 'e'},
        {"mode", required_argument, 0, 'M'},
        {"encoding", required_argument, 0, 'E'},
        {"method", required_argument, 0, 'Y'},
        {"operators", required_argument, 0, 'O'},
        {"inputs", required_argument, 0, 'i'},
        {"observe", required_argument, 0, 'o'},
        {"timeout", required_argument, 0, 't'},
        {"mutant-timeout", required_argument, 0, 'W'},
        {"rlimit", required_argument, 0, 'r'},
        {"memory-mb", required_argument, 0, 'Q'},
        {"no-proof", no_argument, 0, 'P'},
        {"explicit-max", required_argument, 0, 'X'},
        {"explicit-mb", required_argument, 0, 'B'},
        {"sample", required_argument, 0, 'S'},
        {"control", no_argument, 0, 'C'},
        {"threads", required_argument, 0, 'T'},
        {"criterion", required_argument, 0, 'K'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    for (int i = 1; i < argc; i++)
        if (mf_cmd_check_is_timed(argv[i]))
            return mf_cmd_check_ta(argc, argv);
    mf_engine_opts eo;
    mf_engine_opts_default(&eo);
    const char *mutant = NULL, *against = NULL, *ops = NULL;
    const char *criterion = NULL;
    unsigned crit_mask = 0;
    int crit_mutation = 0;
    char *inputs = NULL, *observe = NULL;
    int all = 0, c, rc = MF_EXIT_OK, wall_set = 0, sample = 0, control = 0;
    int threads = 1, e;
    long v;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'm': mutant = optarg; break;
        case 'a': all = 1; break;
        case 'A': against = optarg; break;
        case 'k':
            if (!strcmp(optarg, "auto")) {
                eo.complete = 1; /* the searches keep the default bound */
                break;
            }
            if (parse_uint(optarg, 10000, &v) < 0) {
                fprintf(stderr, "mutfarm check: --bound needs a number "
                                "0..10000 or 'auto'\n");
                return MF_EXIT_USAGE;
            }
            eo.bound = (int)v;
            break;
        case 'n':
            if ((e = pick("--notion", optarg, notions, 3)) < 0)
                return MF_EXIT_USAGE;
            eo.notion = (mf_notion_req)e;
            break;
        case 'e':
            if ((e = pick("--engine", optarg, engines, 2)) < 0)
                return MF_EXIT_USAGE;
            eo.engine = (mf_engine_kind)e;
            break;
        case 'M':
            if ((e = pick("--mode", optarg, modes, 2)) < 0)
                return MF_EXIT_USAGE;
            eo.mode = (mf_mode)e;
            break;
        case 'E':
            if ((e = pick("--encoding", optarg, encodings, 3)) < 0)
                return MF_EXIT_USAGE;
            eo.encoding = (mf_encoding)e;
            break;
        case 'Y':
            if ((e = pick("--method", optarg, methods, 4)) < 0)
                return MF_EXIT_USAGE;
            eo.method = (mf_method)e;
            break;
        case 'O': ops = optarg; break;
        case 'i': inputs = optarg; break;
        case 'o': observe = optarg; break;
        case 't':
            if (parse_uint(optarg, 100000000, &v) < 0) {
                fprintf(stderr, "mutfarm check: --timeout needs milliseconds\n");
                return MF_EXIT_USAGE;
            }
            eo.timeout_ms = (unsigned)v;
            if (!wall_set)
                eo.mutant_ms = 3 * eo.timeout_ms;
            break;
        case 'W':
            if (parse_uint(optarg, 1000000000, &v) < 0) {
                fprintf(stderr,
                        "mutfarm check: --mutant-timeout needs milliseconds\n");
                return MF_EXIT_USAGE;
            }
            eo.mutant_ms = (unsigned)v;
            wall_set = 1;
            break;
        case 'r':
            if (parse_uint(optarg, 2000000000, &v) < 0) {
                fprintf(stderr, "mutfarm check: --rlimit needs a number\n");
                return MF_EXIT_USAGE;
            }
            eo.rlimit = (unsigned)v;
            break;
        case 'Q':
            if (parse_uint(optarg, 1048576, &v) < 0) {
                fprintf(stderr, "mutfarm check: --memory-mb needs MiB "
                                "0..1048576, not '%s'\n", optarg);
                return MF_EXIT_USAGE;
            }
            eo.memory_mb = (unsigned)v;
            break;
        case 'P': eo.prove = 0; break;
        case 'X':
            if (parse_uint(optarg, 100000000, &v) < 0) {
                fprintf(stderr, "mutfarm check: --explicit-max needs a "
                                "number of states\n");
                return MF_EXIT_USAGE;
            }
            eo.explicit_max = v;
            break;
        case 'B':
            if (parse_uint(optarg, 1048576, &v) < 0) {
                fprintf(stderr, "mutfarm check: --explicit-mb needs a "
                                "number of megabytes 0..1048576\n");
                return MF_EXIT_USAGE;
            }
            eo.explicit_mb = (unsigned)v;
            break;
        case 'S':
            if (parse_uint(optarg, 100000000, &v) < 0 || v == 0) {
                fprintf(stderr, "mutfarm check: --sample needs a count > 0\n");
                return MF_EXIT_USAGE;
            }
            sample = (int)v;
            break;
        case 'C': control = 1; break;
        case 'T':
            if (parse_uint(optarg, 1024, &v) < 0 || v == 0) {
                fprintf(stderr, "mutfarm check: --threads needs a count "
                                "1..1024\n");
                return MF_EXIT_USAGE;
            }
            threads = (int)v;
            break;
        case 'K':
            criterion = optarg;
            if (mf_criteria_parse(&crit_mask, &crit_mutation, optarg) < 0) {
                fprintf(stderr, "mutfarm check: --criterion: %s\n",
                        mf_err_msg());
                return MF_EXIT_USAGE;
            }
            break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            return mf_cli_unknown_option("check", argv[optind - 1]);
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return MF_EXIT_USAGE;
    }
    if (criterion && (mutant || all || against || control)) {
        fprintf(stderr, "mutfarm check: --criterion goes without --mutant, "
                        "--all, --against and --control (--criterion "
                        "mutation is --all)\n");
        return MF_EXIT_USAGE;
    }
    all |= crit_mutation;
    if (!!mutant + all + !!against != 1 && !criterion) {
        fprintf(stderr, "mutfarm check: give exactly one of --mutant ID, "
                        "--all, --against OTHER.smv, --criterion LIST\n");
        return MF_EXIT_USAGE;
    }
    if (control && against) {
        fprintf(stderr, "mutfarm check: --control works with --mutant and "
                        "--all\n");
        return MF_EXIT_USAGE;
    }

    mf_model_opts mo = {0};
    if (inputs && parse_list(&mo.inputs, &mo.ninputs, inputs) < 0)
        return MF_EXIT_INTERNAL;
    if (observe && parse_list(&mo.observe, &mo.nobserve, observe) < 0)
        return MF_EXIT_INTERNAL;
    mf_model *m = NULL, *other = NULL;
    mf_control *ctl = NULL;
    const mf_model *pm = NULL; /* the model the engine and tests speak of */
    coll cl = {0};
    mf_verdict *out = NULL;
    printer pr = {.lock = PTHREAD_MUTEX_INITIALIZER};
    mf_model **mms = NULL;
    int *dup_of = NULL; /* --criterion mutation: semantic duplicates */
    const mf_kiss2 *kiss = NULL; /* a KISS2 machine's table */
    int n = 0;
    if (mf_model_load_file(&m, argv[optind], &mo) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        rc = MF_EXIT_USAGE;
        goto done;
    }
    pm = m;
    cl.a = mf_arena_new();
    cl.m = m;
    kiss = mf_kiss2_of(m);
    if (kiss && eo.complete) {
        /* A nonconforming mutant of a machine of n states has a kill no
         * longer than the n * n pairs of its product with the original
         * (docs/fsm.md): --bound auto searches that far where the
         * explicit-state explorer cannot decide (many inputs). */
        long nn = (long)kiss->nstates * kiss->nstates;
        if (nn > eo.bound)
            eo.bound = nn < 10000 ? (int)nn : 10000;
    }
    if (criterion && !crit_mutation) {
        rc = mf_check_criteria(m, crit_mask, &eo, threads, sample, NULL);
        goto done;
    }
    if (against) {
        if (mf_model_load_file(&other, against, &mo) < 0) {
            fprintf(stderr, "%s\n", mf_err_msg());
            rc = MF_EXIT_USAGE;
            goto done;
        }
        out = calloc(1, sizeof *out);
        if (mf_engine_check_against(m, other, &eo, out) < 0) {
            fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
            rc = MF_EXIT_USAGE;
            goto done;
        }
        MF_VEC_PUSH(cl.ids, against);
        MF_VEC_PUSH(cl.ops, "against");
        n = 1;
        printer_open(&pr, pm, &cl, out, n);
    } else {
        if (mutant) {
            mf_mutant *mu = NULL;
            if (mf_mutant_find(&mu, m, mutant) < 0) {
                fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
                rc = MF_EXIT_USAGE;
                goto done;
            }
            collect_fn(mu, &cl);
            if (mu->status != MF_MUT_OK)
                fprintf(stderr, "mutfarm check: mutant %s is %s\n", mu->id,
                        mu->status == MF_MUT_DUPLICATE ? "a duplicate"
                                                       : "stillborn");
            mf_mutant_free(mu);
        } else {
            unsigned mask = 0;
            if (ops && mf_mutant_ops_parse(m, &mask, ops) < 0) {
                fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
                rc = MF_EXIT_USAGE;
                goto done;
            }
            if (mf_mutants_each(m, mask, collect_fn, &cl) < 0) {
                fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
                rc = MF_EXIT_INTERNAL;
                goto done;
            }
        }
        if (sample && cl.mu.n > sample) { /* evenly spaced, in order */
            for (int k = 0; k < sample; k++) {
                int j = (int)((long)k * cl.mu.n / sample);
                cl.mu.v[k] = cl.mu.v[j];
                cl.ids.v[k] = cl.ids.v[j];
                cl.ops.v[k] = cl.ops.v[j];
            }
            cl.mu.n = cl.ids.n = cl.ops.n = sample;
        }
        n = cl.mu.n;
        if (control) {
            /* The counterparts: the model's choices, and each mutant's,
             * made inputs shared by both. */
            int *items = calloc((size_t)(n > 0 ? n : 1), sizeof *items);
            const mf_item **alts = calloc((size_t)(n > 0 ? n : 1),
                                          sizeof *alts);
            for (int j = 0; j < n; j++) {
                items[j] = cl.mu.v[j].item;
                alts[j] = cl.mu.v[j].repl;
            }
            int crc = mf_control_new(&ctl, m, n, items, alts);
            free(items);
            free(alts);
            if (crc < 0) {
                fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
                rc = MF_EXIT_INTERNAL;
                goto done;
            }
            pm = mf_control_model(ctl);
            for (int j = 0; j < n; j++)
                cl.mu.v[j].repl = mf_control_item(ctl, cl.mu.v[j].item,
                                                  cl.mu.v[j].repl);
            printf("# controlled non-determinism: %d choices are inputs",
                   mf_control_ninputs(ctl));
            for (int i = m->nvars, k = 0; i < pm->nvars; i++, k++)
                printf("%s%s", k ? ", " : " (", pm->vars[i].name);
            printf("%s\n", pm->nvars > m->nvars ? ")" : "");
        }
        /* A KISS2 machine's mutants are many and each mutated model is a
         * copy of the whole table: they are made and checked a slice at a
         * time (an SMV model's all at once, as before). */
        int slice = kiss ? KISS2_SLICE : (n > 0 ? n : 1);
        mms = calloc((size_t)(n > 0 ? n : 1), sizeof *mms);
        out = calloc((size_t)(n > 0 ? n : 1), sizeof *out);
        printer_open(&pr, pm, &cl, out, n);
        eo.decided = on_decided;
        eo.decided_ctx = &pr;
        for (int from = 0; from < n; from += slice) {
            int cnt = n - from < slice ? n - from : slice;
            for (int j = from; j < from + cnt; j++) {
                if (mf_model_replace_item(&mms[j], pm, cl.mu.v[j].item,
                                          cl.mu.v[j].repl) < 0) {
                    fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
                    rc = MF_EXIT_INTERNAL;
                    goto done;
                }
                cl.mu.v[j].mutated = mms[j];
            }
            if (mf_check_threads(pm, cl.mu.v + from, cnt, &eo, out + from,
                                 threads) < 0) {
                fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
                rc = MF_EXIT_INTERNAL;
                goto done;
            }
            for (int j = from; kiss && j < from + cnt; j++) {
                mf_model_free(mms[j]);
                mms[j] = NULL;
                cl.mu.v[j].mutated = NULL;
            }
        }
    }
    for (int j = 0; j < n; j++)
        printer_mark(&pr, j);
    /* the engine's later calls (duplicates, criteria) print their own */
    eo.decided = NULL;
    eo.decided_ctx = NULL;
    if (pr.error)
        rc = MF_EXIT_INTERNAL;
    printf("# %d mutants: %d killed, %d equivalent, %d survived, %d unknown, "
           "%d error\n", n, pr.counts[0], pr.counts[1], pr.counts[2],
           pr.counts[3], pr.counts[4]);
    if (criterion) {
        /* The mutation row of the winnowing: the mutants enumerated, the
         * duplicates by their text (mutid.c) and by the engine (killed
         * mutants equivalent to each other), the stillborn and the
         * equivalent ones; trivial is not decided for mutants. */
        dup_of = calloc((size_t)(n > 0 ? n : 1), sizeof *dup_of);
        int undecided = -1, sem = 0;
        if (dup_of && !kiss)
            undecided = mf_check_mutant_duplicates(pm, cl.mu.v, out, n, &eo,
                                                   dup_of);
        for (int j = 0; undecided >= 0 && j < n; j++)
            sem += dup_of[j] >= 0;
        if (undecided < 0)
            for (int j = 0; dup_of && j < n; j++)
                dup_of[j] = -1;
        printf("# mutation: %d generated, %d duplicates (%d the same "
               "mutated model, %d equivalent to another killed mutant; "
               "%d pairs undecided), %d stillborn, %d infeasible "
               "(equivalent), %d feasible (%d killed, %d open)\n",
               cl.generated, cl.duplicate + sem, cl.duplicate, sem,
               undecided < 0 ? 0 : undecided, cl.stillborn, pr.counts[1],
               n - pr.counts[1] - sem, pr.counts[0] - sem,
               n - pr.counts[0] - pr.counts[1]);
        if (crit_mask && dup_of) {
            mf_check_mutation mut = {cl.mu.v, out, dup_of, n};
            int crc = mf_check_criteria(m, crit_mask, &eo, threads, sample,
                                        kiss ? NULL : &mut);
            if (crc != MF_EXIT_OK)
                rc = crc;
        }
    }
done:
    free(dup_of);
    if (out)
        for (int j = 0; j < n; j++)
            mf_verdict_clear(&out[j]);
    free(out);
    free(pr.done);
    pthread_mutex_destroy(&pr.lock);
    if (mms)
        for (int j = 0; j < n; j++)
            mf_model_free(mms[j]);
    free(mms);
    MF_VEC_FREE(cl.mu);
    MF_VEC_FREE(cl.ids);
    MF_VEC_FREE(cl.ops);
    mf_arena_free(cl.a);
    mf_control_free(ctl);
    mf_model_free(m);
    mf_model_free(other);
    free(mo.inputs);
    free(mo.observe);
    return rc;
}
