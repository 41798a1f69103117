/* test_agree.c - ground truth for the Z3 engine (issue 3): for the mutants
 * of the models in MF_SHARED_MODELS/corpus and /seeds, and of the word
 * models tests/models/word_*.smv, mixing_tank.smv (range choices in
 * constrained variables) and sis_env*.smv (observing their
 * DEFINE SafetyInjection; not in the CI sample, where its mutants cost the
 * engine over 10 s each under ASan: tests/undefined.sh compares four of
 * them), that the front-end
 * accepts, the engine's verdict (engine/engine.h, batch mode, bound
 * B) is compared with the explicit-state explorer's (model/explore.h, exact
 * up to a state limit; run without a depth bound, so that it can exhaust
 * the product):
 *   - engine killed (length L <= B, notion N): mf_engine_replay confirms
 *     the test; the explorer has a potential kill of length <= L (a
 *     definite one for N definite); a deterministic kill needs both models
 *     deterministic where the explorer went; and the test is shortest (the
 *     explorer's shortest kill of that notion has length L) unless the
 *     engine says it not_shortest a test found for another mutant;
 *   - engine equivalent: the explorer exhausted the product without a
 *     potential kill (not killable at any length);
 *   - engine survived up to b: the explorer has no potential kill of length
 *     <= b;
 *   - engine unknown: inconclusive (counted, not a disagreement); engine
 *     error: a disagreement.
 * Where the explorer hits its state limit before it can decide the engine's
 * claim the mutant is skipped (counted). A table gives, per model, the
 * mutants, compared, skipped, agreements and disagreements by kind; every
 * disagreement is printed when found, with both verdicts, both tests and
 * the commands that reproduce it. The test fails on any disagreement.
 *
 * Environment:
 *   MF_SHARED_MODELS   the shared models (default ../shared/models; the
 *                      test is skipped when the directory is absent)
 *   MF_AGREE_FULL=1    every mutant of every model (the closing-note
 *                      figures; use a release build: tens of minutes);
 *                      default: the CI sample below
 *   MF_AGREE_BOUND     bound B (default 8)
 *   MF_AGREE_STATES    explorer state limit per notion (default 100000)
 *   MF_AGREE_PER_MODEL mutants per model, evenly spaced, on every model
 *                      (0: all; default: the CI table ci_models below,
 *                      or all with MF_AGREE_FULL=1)
 *   MF_AGREE_MODELS    comma-separated substrings: only models whose file
 *                      name contains one of them
 *   MF_AGREE_SHARD     K/N: of the mutants chosen (every one, or the
 *                      sample), only those whose rank modulo N is K: N runs,
 *                      K = 0..N-1, share a model's mutants out between them
 *                      (gigamax, dme1: hours each, run in parts)
 *   MF_AGREE_BATCH     mutants per engine batch (default 40; the CI table
 *                      gives its own)
 *   MF_AGREE_TIMEOUT   engine timeout per solver check in ms (default the
 *                      engine's)
 *   MF_AGREE_EXPLICIT  the engine's explicit-state proof (proof method 4,
 *                      which is this explorer): its state limit, default 0
 *                      (off, so that every equivalent verdict compared
 *                      comes from a Z3 proof)
 *   MF_AGREE_METHOD    the engine's --method: auto (default: the BDD
 *                      engine on, docs/killing.md "Portfolio"), smt, bdd
 *                      or explicit
 *   MF_AGREE_IDS      comma-separated mutant ids: only those (of the
 *                      models chosen), e.g. to run again the ones a run
 *                      left unknown
 *   MF_AGREE_DEPTH    full (default): the explorer runs without a depth
 *                      bound, so that it can exhaust the product; claim:
 *                      only as deep as the engine's claim needs, which
 *                      decides agreement the same way (explore_claim)
 *   MF_AGREE_VERBOSE=1 one line per mutant, with the explorer's time */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "engine.h"
#include "explore.h"
#include "model.h"
#include "mutate.h"
#include "sim.h"
#include "langs.h"
#include "smv.h"

/* The CI sample (under 2 minutes with ASan+UBSan on two shared cores):
 * bound CI_BOUND and, per model, at most `cap` evenly spaced mutants (0:
 * all) decided in engine batches of `batch`. The engine's answers depend on
 * the batch (one meta-mutant per batch, tests not_shortest across it), so the
 * small models run twice: alone (batch 1, what `mutfarm check --mutant`
 * does) and in batches. The largest models (the bubble sorts, bakery, RFID
 * collision, dme1, gigamax, fault diagnosis) cost the engine seconds per
 * mutant and are left to MF_AGREE_FULL=1. The comments give the mutants
 * and the ASan seconds (engine + explorer) measured for the entry. */
#define CI_BOUND 8
static const struct {
    const char *name; /* a substring of the file name */
    int cap, batch;
} ci_models[] = {
    {"4.RailwayCrossing", 0, 40},            /*  17, 1 s */
    {"4.RailwayCrossing", 0, 1},             /*  17 */
    {"traffic_light", 0, 40},                /*  33, 0.4 s */
    {"traffic_light", 0, 1},                 /*  33 */
    {"atlk__transmission", 0, 40},           /*  25, 2 s */
    {"atlk__transmission", 0, 1},            /*  25 */
    {"psl-samples__counter", 0, 40},         /*  92, 1 s */
    {"withdraw1", 0, 40},                    /*  43, 2 s */
    {"withdraw1", 0, 1},                     /*  43 */
    {"models__constraints", 120, 40},        /* 635, all: 25 s */
    {"models__constraints", 60, 1},          /* 635 alone: 13 s */
    {"smv-dist__mutex", 100, 40},            /* 385, 7 s */
    {"car_alarm", 80, 40},                   /* 728, 8 s */
    {"models__admin", 30, 10},               /*  88, 2 s */
    {"beverage", 24, 40},                    /* 107, 2 s */
    {"CrossroadNuSMV", 30, 40},              /* 198, 2 s */
    {"smv-dist__syncarb5", 2, 40},           /* explorer: 5 s/mutant */
    {"ctl__simple-scheduler", 8, 40},        /* 149, 2 s */
    {"6_mutation__mutation_testing", 8, 40}, /* 401, 6 s */
    {"Assignment1__door_lock", 2, 40},       /* 152, 4 s/mutant */
    {"9_buffer__scheduled_buffer", 2, 40},   /* 325, 6 s/mutant */
    {"counter_bitvector", 0, 40},            /*  46, words */
    {"counter_bitvector", 0, 1},             /*  46 */
    {"word_machine", 40, 40},                /* 194, words */
    {"word_alu", 40, 40},                    /* 243, words */
    {"mixing_tank", 10, 40},                 /* 613, range choices: 7 s */
    {"smv-dist__semaphore", 12, 40},         /* 208, processes: all agree */
    {"prod-cons__prod-cons", 3, 40},         /* 1338, processes; Release:
                                                6 in 35 s, 3 past the
                                                explorer's limit */
};
#define DEFAULT_STATES 100000L
#define DEFAULT_BATCH 40
#define NCI ((int)(sizeof ci_models / sizeof ci_models[0]))

/* ---- disagreement kinds ------------------------------------------------ */

typedef enum {
    D_MISSED,     /* engine survived up to b, explorer kills within b */
    D_FALSE_EQ,   /* engine equivalent, explorer kills (some length) */
    D_FALSE_KILL, /* engine kills at L, explorer: no potential kill <= L */
    D_LENGTH,     /* engine's kill longer than the explorer's shortest */
    D_FALSE_DEF,  /* engine definite/deterministic, explorer: no definite
                     kill <= L */
    D_DET,        /* engine deterministic notion, explorer saw
                     non-determinism */
    D_FALSE_NODEF, /* engine "no definite kill", explorer kills definitely */
    D_REPLAY,     /* mf_engine_replay rejects the engine's test */
    D_ERROR,      /* engine error verdict */
    D__COUNT
} dkind;

static const char *dkind_name[D__COUNT] = {
    "missed-kill",    "false-equivalent", "false-kill", "not-shortest",
    "false-definite", "determinism",      "false-no-definite",
    "replay",         "engine-error",
};

typedef enum { C_AGREE, C_DISAGREE, C_SKIP, C_UNKNOWN } cls;

typedef struct {
    const char *name;
    int nok, sampled;
    int compared, agree, disagree, skipped, unknown;
    int e_killed[3], e_equiv, e_surv, e_error; /* engine, by notion */
    int x_killed, x_notk, x_limit, x_error;    /* explorer, potential */
    int not_upgraded;    /* engine potential, explorer definite within B */
    int replayed_longer; /* a not_shortest kill longer than the shortest */
    int eq_explicit;     /* equivalent by the engine's explicit-state proof */
    int unverified_eq;   /* engine equivalent, explorer limit */
    int kinds[D__COUNT];
    int batch;
    double xsecs, esecs;
} model_stats;

typedef struct {
    int bound, batch, verbose, per_model;
    int shard_k, shard_n; /* MF_AGREE_SHARD; shard_n 0: all */
    int claim_depth;      /* MF_AGREE_DEPTH=claim */
    long states, explicit_max;
    unsigned timeout_ms;
    int method; /* mf_method */
    const char *models;
    const char *ids; /* MF_AGREE_IDS */
} config;

typedef MF_VEC(char *) strvec;

/* ---- the mutants of one model, in batches ------------------------------ */

typedef struct {
    char id[17];
    const char *op, *desc;
    int item;
    mf_item *repl; /* NULL: item removed */
} pending;

typedef struct {
    const config *cfg;
    const mf_model *m;
    const char *path;
    mf_explore_ctx *xctx;
    model_stats *st;
    mf_buf *report; /* disagreements, printed at the end */
    int seen, stride, cap, batch_size, nbatch;
    mf_arena *a; /* the pending batch's copies */
    MF_VEC(pending) batch;
} walk;

/* Like print_message, without its 1 KiB cut. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *engine_line(char *buf, size_t n, const mf_verdict *v)
{
    switch (v->kind) {
    case MF_V_KILLED:
        snprintf(buf, n, "killed %s length %d (%s)", mf_notion_name(v->notion),
                 v->test ? v->test->length : -1, v->method);
        break;
    case MF_V_EQUIVALENT:
        snprintf(buf, n, "equivalent by %s", v->method);
        break;
    case MF_V_SURVIVED:
        snprintf(buf, n, "survived up to bound %d", v->bound);
        break;
    default:
        snprintf(buf, n, "%s: %s", mf_verdict_name(v->kind), v->reason);
        break;
    }
    return buf;
}

/* MF_XV_LIMIT: the longest length up to which the notion has no kill.
 * Every node above the level being expanded was expanded: no kill of
 * length <= depth; a search cut at its depth bound alone expanded that
 * level too, so its kills one step longer were looked for as well
 * (explore.h, `cut`). */
static int limit_upto(const mf_explore_notion *nt)
{
    return nt->depth + (nt->cut ? 1 : 0);
}

static void notion_str(mf_buf *b, const char *what, const mf_explore_notion *nt)
{
    mf_buf_printf(b, "%s=%s", what, mf_explore_verdict_name(nt->verdict));
    if (nt->verdict == MF_XV_KILLED)
        mf_buf_printf(b, "/%d", nt->length);
    else if (nt->verdict == MF_XV_LIMIT)
        mf_buf_printf(b, "(no kill <= %d)", limit_upto(nt));
}

/* 1 if the explorer proves no kill of length <= n for this notion. */
static int none_upto(const mf_explore_notion *nt, int n)
{
    switch (nt->verdict) {
    case MF_XV_NOT_KILLABLE:
        return 1;
    case MF_XV_KILLED:
        return nt->length > n;
    case MF_XV_LIMIT:
        return limit_upto(nt) >= n;
    default:
        return 0;
    }
}

/* Compare one mutant; sets *why (one line) and the kind of a
 * disagreement. */
static cls classify(const config *cfg, const mf_model *m, const mf_model *mm,
                    const mf_explore_result *x, mf_verdict *v, model_stats *st,
                    dkind *kind, mf_buf *why)
{
    const mf_explore_notion *P = &x->potential, *D = &x->definite;
    *kind = D__COUNT;
    if (v->kind == MF_V_ERROR) {
        *kind = D_ERROR;
        mf_buf_printf(why, "engine error");
        return C_DISAGREE;
    }
    if (v->kind == MF_V_UNKNOWN)
        return C_UNKNOWN;
    if (P->verdict == MF_XV_ERROR)
        return C_SKIP;
    if (v->kind == MF_V_SURVIVED) {
        if (P->verdict == MF_XV_KILLED && P->length <= v->bound) {
            *kind = D_MISSED;
            mf_buf_printf(why, "the explorer kills at length %d <= %d",
                          P->length, v->bound);
            return C_DISAGREE;
        }
        return none_upto(P, v->bound) ? C_AGREE : C_SKIP;
    }
    if (v->kind == MF_V_EQUIVALENT) {
        if (P->verdict == MF_XV_NOT_KILLABLE)
            return C_AGREE;
        if (P->verdict == MF_XV_KILLED) {
            *kind = D_FALSE_EQ;
            mf_buf_printf(why, "the explorer kills at length %d", P->length);
            return C_DISAGREE;
        }
        st->unverified_eq++;
        return C_SKIP;
    }
    /* killed */
    mf_test *t = v->test;
    if (!t) {
        *kind = D_REPLAY;
        mf_buf_printf(why, "killed without a test");
        return C_DISAGREE;
    }
    int L = t->length;
    if (mf_engine_replay(m, mm, t, v->notion) != 0) {
        *kind = D_REPLAY;
        mf_buf_printf(why, "replay: %s", mf_err_msg());
        return C_DISAGREE;
    }
    if (L > cfg->bound) {
        *kind = D_LENGTH;
        mf_buf_printf(why, "test length %d beyond the bound %d", L, cfg->bound);
        return C_DISAGREE;
    }
    if (none_upto(P, L)) {
        *kind = D_FALSE_KILL;
        mf_buf_printf(why,
                      "the explorer has no potential kill of length "
                      "<= %d",
                      L);
        return C_DISAGREE;
    }
    if (P->verdict != MF_XV_KILLED)
        return C_SKIP; /* limit below L: cannot tell */
    /* A kill by a test found for another mutant of the batch (the cheap
     * replay) need not be shortest: it only has to be a kill. */
    int shortest = !v->not_shortest;
    if (v->not_shortest &&
        (P->length < L || (v->notion == MF_N_DEFINITE &&
                           D->verdict == MF_XV_KILLED && D->length < L)))
        st->replayed_longer++;
    /* The explorer's shortest kill of the engine's notion: for a
     * definite one the definite explorer, else the potential one. */
    const mf_explore_notion *S = v->notion == MF_N_DEFINITE ? D : P;
    const char *what = v->notion == MF_N_DEFINITE    ? "definite "
                       : v->notion == MF_N_POTENTIAL ? "potential "
                                                     : "";
    if (v->notion == MF_N_DETERMINISTIC && (!x->orig_det || !x->mut_det)) {
        *kind = D_DET;
        mf_buf_printf(why,
                      "deterministic kill, but the explorer saw "
                      "non-determinism (det=%d/%d)",
                      x->orig_det, x->mut_det);
        return C_DISAGREE;
    }
    if (v->notion == MF_N_DEFINITE) {
        if (none_upto(D, L)) {
            *kind = D_FALSE_DEF;
            mf_buf_printf(why,
                          "the explorer has no definite kill of length "
                          "<= %d",
                          L);
            return C_DISAGREE;
        }
        if (D->verdict != MF_XV_KILLED)
            return C_SKIP;
    }
    if (shortest && S->length < L) {
        *kind = D_LENGTH;
        mf_buf_printf(why, "shortest %skill has length %d, engine's %d", what,
                      S->length, L);
        return C_DISAGREE;
    }
    /* "No definite kill" is a proof: the explorer must have none ("no
     * definite kill up to K": none of length K or less). */
    int upto = INT_MAX;
    if (sscanf(v->method, "no definite kill up to %d", &upto) != 1)
        upto = INT_MAX;
    if (v->notion == MF_N_POTENTIAL && D->verdict == MF_XV_KILLED &&
        !strncmp(v->method, "no definite kill", 16) && D->length <= upto) {
        *kind = D_FALSE_NODEF;
        mf_buf_printf(why, "no definite kill claimed, the explorer's has "
                           "length %d", D->length);
        return C_DISAGREE;
    }
    if (v->notion == MF_N_POTENTIAL && D->verdict == MF_XV_KILLED &&
        D->length <= cfg->bound)
        st->not_upgraded++;
    return C_AGREE;
    return C_AGREE;
}

/* Print a disagreement at once (a run cut short still shows it) and add
 * a one-line summary to w->report. */
/* Append each line of t to r behind "     | ", and free t. */
static void indent_lines(mf_buf *r, mf_buf *t)
{
    for (char *s = t->data, *nl; s && *s; s = nl + 1) {
        nl = strchr(s, '\n');
        if (!nl)
            break;
        mf_buf_printf(r, "     | %.*s\n", (int)(nl - s), s);
    }
    mf_buf_free(t);
}

static void report_one(walk *w, const pending *p, const mf_explore_result *x,
                       const mf_verdict *v, dkind kind, const char *why)
{
    mf_buf rb = {0}, *r = &rb;
    const char *base = strrchr(w->path, '/');
    base = base ? base + 1 : w->path;
    char line[640];
    mf_buf_printf(w->report, "#   %s %s %s: %s; %s\n", base, p->id,
                  dkind_name[kind], engine_line(line, sizeof line, v), why);
    mf_buf_printf(r, "\n## %s  %s  %s (%s)\n", base, p->id, dkind_name[kind],
                  why);
    if (kind == D_ERROR) {
        mf_buf_printf(r, "   mutant:   %s: %s\n   engine:   %s\n", p->op,
                      p->desc, v->reason);
        mf_buf_printf(r,
                      "   repro:    mutfarm check %s --mutant %s "
                      "--bound %d\n",
                      w->path, p->id, w->cfg->bound);
        say("%s", rb.data);
        mf_buf_free(&rb);
        return;
    }
    mf_buf_printf(r, "   mutant:   %s: %s\n", p->op, p->desc);
    mf_buf_printf(r, "   engine:   %s (det=%d/%d)\n",
                  engine_line(line, sizeof line, v), v->orig_det, v->mut_det);
    if (v->kind == MF_V_KILLED && v->test) {
        mf_buf t = {0};
        mf_test_print(&t, w->m, v->test);
        indent_lines(r, &t);
    }
    mf_buf_puts(r, "   explorer: ");
    notion_str(r, "potential", &x->potential);
    mf_buf_puts(r, " ");
    notion_str(r, "definite", &x->definite);
    mf_buf_printf(r, " det=%d/%d%s%s\n", x->orig_det, x->mut_det,
                  x->err[0] ? " # " : "", x->err);
    const mf_explore_notion *nts[2] = {&x->potential, &x->definite};
    const char *names[2] = {"potential", "definite"};
    for (int k = 0; k < 2; k++) {
        if (!nts[k]->test || (k == 1 && x->det_shortcut))
            continue;
        mf_buf t = {0};
        mf_explore_print_test(&t, w->m, nts[k]->test);
        mf_buf_printf(r, "     explorer's %s kill (length %d%s):\n", names[k],
                      nts[k]->length,
                      nts[k]->length == 0 ? ", the initial state" : "");
        indent_lines(r, &t);
    }
    mf_buf_printf(r, "   repro:    mutfarm check %s --mutant %s --bound %d\n",
                  w->path, p->id, w->cfg->bound);
    mf_buf_printf(r, "             gt_dump %s %d --tests | grep -A%d '^%s'\n",
                  w->path, w->cfg->bound, w->cfg->bound + 3, p->id);
    mf_buf_printf(r,
                  "   batch:    engine batch %d, %d mutants %s..%s; the same "
                  "batches: MF_AGREE_MODELS=%s MF_AGREE_PER_MODEL=%d "
                  "MF_AGREE_BATCH=%d MF_AGREE_BOUND=%d MF_AGREE_EXPLICIT=%ld "
                  "test_agree\n",
                  w->nbatch, w->batch.n, w->batch.v[0].id,
                  w->batch.v[w->batch.n - 1].id, base, w->cap, w->batch_size,
                  w->cfg->bound, w->cfg->explicit_max);
    say("%s", rb.data);
    mf_buf_free(&rb);
}

/* One notion explored to max_depth (0: no bound) into *into. */
static void explore_notion(walk *w, const mf_model *mm, int notion,
                           int max_depth, mf_explore_result *x,
                           mf_explore_notion *into)
{
    mf_explore_result y;
    (void)mf_explore_with(w->xctx, &y, mm, notion, w->cfg->states, max_depth);
    mf_explore_notion *nt = notion == MF_EXPLORE_DEFINITE   ? &y.definite
                            : notion == MF_EXPLORE_INCLUDED ? &y.included
                                                            : &y.potential;
    mf_explore_notion keep = *into;
    *into = *nt;
    *nt = keep; /* freed with y */
    x->orig_det = y.orig_det;
    x->mut_det = y.mut_det;
    if (y.err[0])
        snprintf(x->err, sizeof x->err, "%s", y.err);
    mf_explore_result_free(&y);
}

/* MF_AGREE_DEPTH=claim: explore only what classify() reads for the
 * engine's verdict v, each notion to the depth that decides the claim:
 *   survived up to b: the potential notion to depth b (a kill of length
 *     <= b is a disagreement; past b nothing is claimed);
 *   equivalent: the potential notion without a bound (it must exhaust);
 *   killed, length L: the potential notion to L (a shorter or no kill is
 *     a disagreement); for a definite kill the definite notion to L; for
 *     a potential one the definite notion to the bound (the noup count),
 *     or further where the engine claims no definite kill: to K for "no
 *     definite kill up to K", without a bound for "no definite kill"
 *     (first by inclusion, which proves it when every original behaviour
 *     is the mutant's; else by the definite search itself);
 *   deterministic kills, unknown and error: as MF_AGREE_DEPTH=full, but
 *     to L for a kill.
 * The default explores without a bound, which also tells how long the
 * kills past the bound are. */
static void explore_claim(walk *w, const mf_model *mm, const mf_verdict *v,
                          mf_explore_result *x)
{
    memset(x, 0, sizeof *x);
    int L = v->kind == MF_V_KILLED && v->test ? v->test->length : -1;
    if (v->kind == MF_V_SURVIVED || v->kind == MF_V_EQUIVALENT) {
        int d = v->kind == MF_V_SURVIVED ? v->bound : 0;
        explore_notion(w, mm, MF_EXPLORE_POTENTIAL, d, x, &x->potential);
        return;
    }
    if (L < 0 || v->notion == MF_N_DETERMINISTIC) {
        (void)mf_explore_with(w->xctx, x, mm, MF_EXPLORE_AUTO, w->cfg->states,
                              L < 0 ? 0 : L);
        return;
    }
    /* a depth bound of 0 means none: a kill of length 0 is searched to 1 */
    int dL = L > 0 ? L : 1;
    explore_notion(w, mm, MF_EXPLORE_POTENTIAL, dL, x, &x->potential);
    if (v->notion == MF_N_DEFINITE) {
        explore_notion(w, mm, MF_EXPLORE_DEFINITE, dL, x, &x->definite);
        return;
    }
    int upto = -1, dd = w->cfg->bound;
    if (sscanf(v->method, "no definite kill up to %d", &upto) == 1) {
        if (upto > dd)
            dd = upto;
    } else if (!strncmp(v->method, "no definite kill", 16)) {
        explore_notion(w, mm, MF_EXPLORE_INCLUDED, 0, x, &x->included);
        if (x->included.verdict == MF_XV_NOT_KILLABLE) {
            /* every original behaviour is the mutant's: no definite kill */
            x->definite.verdict = MF_XV_NOT_KILLABLE;
            x->definite.nodes = x->included.nodes;
            return;
        }
        dd = 0;
    }
    explore_notion(w, mm, MF_EXPLORE_DEFINITE, dd, x, &x->definite);
}

static void run_batch(walk *w)
{
    int n = w->batch.n;
    if (n == 0)
        return;
    model_stats *st = w->st;
    mf_model **mms = mf_xcalloc((size_t)n, sizeof *mms);
    mf_engine_mutant *em = mf_xcalloc((size_t)n, sizeof *em);
    mf_verdict *out = mf_xcalloc((size_t)n, sizeof *out);
    for (int j = 0; j < n; j++) {
        const pending *p = &w->batch.v[j];
        if (mf_model_replace_item(&mms[j], w->m, p->item, p->repl) != 0)
            fail_msg("%s: mutant %s does not apply: %s", w->path, p->id,
                     mf_err_msg());
        em[j] = (mf_engine_mutant){p->item, p->repl, mms[j]};
    }
    mf_engine_opts o;
    mf_engine_opts_default(&o);
    o.bound = w->cfg->bound;
    o.mode = MF_MODE_BATCH;
    if (w->cfg->timeout_ms)
        o.timeout_ms = w->cfg->timeout_ms;
    o.explicit_max = w->cfg->explicit_max;
    o.method = (mf_method)w->cfg->method;
    double t0 = now();
    if (mf_engine_check(w->m, em, n, &o, out) < 0)
        say("# %s: batch failed: %s\n", w->path, mf_err_msg());
    st->esecs += now() - t0;

    for (int j = 0; j < n; j++) {
        const pending *p = &w->batch.v[j];
        mf_verdict *v = &out[j];
        t0 = now();
        double xt0 = t0;
        mf_explore_result x;
        /* A limit or an error shows in the verdicts. */
        if (w->cfg->claim_depth)
            explore_claim(w, mms[j], v, &x);
        else
            (void)mf_explore_with(w->xctx, &x, mms[j], MF_EXPLORE_AUTO,
                                  w->cfg->states, 0);
        st->xsecs += now() - t0;
        switch (x.potential.verdict) {
        case MF_XV_KILLED:
            st->x_killed++;
            break;
        case MF_XV_NOT_KILLABLE:
            st->x_notk++;
            break;
        case MF_XV_LIMIT:
            st->x_limit++;
            break;
        default:
            st->x_error++;
            break;
        }
        switch (v->kind) {
        case MF_V_KILLED:
            st->e_killed[v->notion]++;
            break;
        case MF_V_EQUIVALENT:
            st->e_equiv++;
            st->eq_explicit += strstr(v->method, "explicit") != NULL;
            break;
        case MF_V_SURVIVED:
            st->e_surv++;
            break;
        case MF_V_ERROR:
            st->e_error++;
            break;
        default:
            break;
        }
        dkind kind;
        mf_buf why = {0};
        cls c = classify(w->cfg, w->m, mms[j], &x, v, st, &kind, &why);
        switch (c) {
        case C_AGREE:
            st->compared++;
            st->agree++;
            break;
        case C_DISAGREE:
            st->compared++;
            st->disagree++;
            st->kinds[kind]++;
            report_one(w, p, &x, v, kind, why.data ? why.data : "");
            break;
        case C_SKIP:
            st->skipped++;
            break;
        case C_UNKNOWN:
            st->unknown++;
            break;
        }
        if (w->cfg->verbose) {
            char line[640];
            mf_buf xs = {0};
            notion_str(&xs, "pot", &x.potential);
            mf_buf_puts(&xs, " ");
            notion_str(&xs, "def", &x.definite);
            mf_buf_printf(&xs, " [%.1fs, %ld+%ld nodes]", now() - xt0,
                          x.potential.nodes, x.definite.nodes);
            say("#   %s %-14s engine: %-40s explorer: %s  %s\n", p->id, p->op,
                engine_line(line, sizeof line, v), xs.data,
                c == C_AGREE     ? "ok"
                : c == C_SKIP    ? "skip"
                : c == C_UNKNOWN ? "unknown"
                                 : dkind_name[kind]);
            mf_buf_free(&xs);
        }
        mf_buf_free(&why);
        mf_explore_result_free(&x);
        mf_verdict_clear(v);
        mf_model_free(mms[j]);
    }
    free(out);
    free(em);
    free(mms);
    w->batch.n = 0;
    w->nbatch++;
    mf_arena_free(w->a);
    w->a = mf_arena_new();
}

static int count_ok(const mf_mutant *mu, void *ctx)
{
    if (mu->status == MF_MUT_OK)
        (*(int *)ctx)++;
    return 0;
}

static int collect(const mf_mutant *mu, void *ctx)
{
    walk *w = ctx;
    if (mu->status != MF_MUT_OK)
        return 0;
    if (w->cfg->ids && !strstr(w->cfg->ids, mu->id))
        return 0;
    int i = w->seen++;
    if (i % w->stride != 0 ||
        (w->cfg->shard_n && (i / w->stride) % w->cfg->shard_n != w->cfg->shard_k))
        return 0;
    pending p = {0};
    memcpy(p.id, mu->id, sizeof p.id);
    p.op = mf_mop_name(mu->op);
    p.desc = mf_arena_strdup(w->a, mu->desc ? mu->desc : "");
    p.item = mu->item;
    if (mu->new_item) {
        mf_item *it = mf_arena_alloc(w->a, sizeof *it);
        mf_item_copy(w->a, it, mu->new_item);
        p.repl = it;
    }
    MF_VEC_PUSH(w->batch, p);
    w->st->sampled++;
    if (w->batch.n >= w->batch_size)
        run_batch(w);
    return 0;
}

/* ---- models ------------------------------------------------------------ */

static int wanted(const config *cfg, const char *name)
{
    if (!cfg->models || !*cfg->models)
        return 1;
    char *list = mf_xstrdup(cfg->models);
    int hit = 0;
    for (char *t = strtok(list, ","); t && !hit; t = strtok(NULL, ","))
        hit = strstr(name, t) != NULL;
    free(list);
    return hit;
}

static void list_dir(const char *dir, strvec *names)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int first = names->n;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".smv")) {
            mf_buf p = {0};
            mf_buf_printf(&p, "%s/%s", dir, e->d_name);
            char *abs = realpath(p.data, NULL); /* for the repro commands */
            if (abs) {
                mf_buf_free(&p);
                MF_VEC_PUSH(*names, abs);
            } else
                MF_VEC_PUSH(*names, p.data);
        }
    }
    closedir(d);
    for (int i = first; i < names->n; i++)
        for (int j = i + 1; j < names->n; j++)
            if (strcmp(names->v[i], names->v[j]) > 0) {
                char *x = names->v[i];
                names->v[i] = names->v[j];
                names->v[j] = x;
            }
}

static int env_int(const char *name, int dflt)
{
    const char *s = getenv(name);
    return s && *s ? atoi(s) : dflt;
}

static model_stats run_model(const config *cfg, const mf_model *m,
                             const char *path, int cap, int batch,
                             mf_buf *report)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    model_stats st = {0};
    st.name = base;
    st.batch = batch;
    mf_mutants_each(m, 0, count_ok, &st.nok);
    walk w = {0};
    w.cfg = cfg;
    w.m = m;
    w.path = path;
    w.st = &st;
    w.report = report;
    w.cap = cap;
    w.batch_size = batch;
    w.stride = cap > 0 ? (st.nok + cap - 1) / cap : 1;
    if (w.stride < 1)
        w.stride = 1;
    w.a = mf_arena_new();
    w.xctx = mf_explore_ctx_new(m);
    int rc = mf_mutants_each(m, 0, collect, &w);
    if (rc < 0)
        fail_msg("%s: mutants: %s", path, mf_err_msg());
    run_batch(&w);
    mf_explore_ctx_free(w.xctx);
    mf_arena_free(w.a);
    MF_VEC_FREE(w.batch);
    say("# %-44.44s b%-3d %5d/%-5d cmp %5d agree %5d DIS %3d skip %4d unk "
        "%3d | %.1fs engine, %.1fs explorer\n",
        base, batch, st.sampled, st.nok, st.compared, st.agree, st.disagree,
        st.skipped, st.unknown, st.esecs, st.xsecs);
    return st;
}

static void
test_agree__engine_matches_the_explorer_on_every_mutant(void **state)
{
    (void)state;
    const char *shared = getenv("MF_SHARED_MODELS");
    if (!shared || !*shared)
        shared = "../shared/models";
    struct stat sb;
    if (stat(shared, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        say("# %s: not found (set MF_SHARED_MODELS); skipped\n", shared);
        skip();
    }
    const char *full_s = getenv("MF_AGREE_FULL");
    int full = full_s && !strcmp(full_s, "1");
    config cfg = {0};
    cfg.bound = env_int("MF_AGREE_BOUND", CI_BOUND);
    cfg.states = env_int("MF_AGREE_STATES", (int)DEFAULT_STATES);
    cfg.per_model = env_int("MF_AGREE_PER_MODEL", full ? 0 : -1);
    cfg.batch = env_int("MF_AGREE_BATCH", DEFAULT_BATCH);
    cfg.timeout_ms = (unsigned)env_int("MF_AGREE_TIMEOUT", 0);
    cfg.verbose = env_int("MF_AGREE_VERBOSE", 0);
    cfg.explicit_max = env_int("MF_AGREE_EXPLICIT", 0);
    cfg.models = getenv("MF_AGREE_MODELS");
    cfg.ids = getenv("MF_AGREE_IDS");
    if (cfg.ids && !*cfg.ids)
        cfg.ids = NULL;
    const char *meth = getenv("MF_AGREE_METHOD");
    static const char *const methods[] = {"auto", "smt", "bdd", "explicit"};
    for (int i = 0; meth && *meth && i < 4; i++)
        if (!strcmp(meth, methods[i]))
            cfg.method = i + 1;
    if (meth && *meth && !cfg.method)
        fail_msg("MF_AGREE_METHOD=%s: want auto, smt, bdd or explicit", meth);
    if (cfg.method)
        cfg.method--;
    const char *shard = getenv("MF_AGREE_SHARD");
    if (shard && *shard &&
        (sscanf(shard, "%d/%d", &cfg.shard_k, &cfg.shard_n) != 2 ||
         cfg.shard_n < 1 || cfg.shard_k < 0 || cfg.shard_k >= cfg.shard_n))
        fail_msg("MF_AGREE_SHARD=%s: want K/N with 0 <= K < N", shard);
    if (cfg.batch < 1)
        cfg.batch = 1;
    const char *depth = getenv("MF_AGREE_DEPTH");
    if (depth && *depth && strcmp(depth, "full") && strcmp(depth, "claim"))
        fail_msg("MF_AGREE_DEPTH=%s: want full or claim", depth);
    cfg.claim_depth = depth && !strcmp(depth, "claim");

    strvec files = {0};
    mf_buf dir = {0};
    mf_buf_printf(&dir, "%s/corpus", shared);
    list_dir(dir.data, &files);
    mf_buf_reset(&dir);
    mf_buf_printf(&dir, "%s/seeds", shared);
    list_dir(dir.data, &files);
    mf_buf_free(&dir);
    /* the word models written for this comparison (the other models of
     * tests/models are copies of seeds or test fixtures) */
    strvec own = {0};
    list_dir("tests/models", &own);
    for (int i = 0; i < own.n; i++) {
        const char *b = strrchr(own.v[i], '/');
        if (b && (!strncmp(b + 1, "word_", 5) ||
                  !strncmp(b + 1, "sis_env", 7) ||
                  !strcmp(b + 1, "mixing_tank.smv")))
            MF_VEC_PUSH(files, own.v[i]);
        else
            free(own.v[i]);
    }
    MF_VEC_FREE(own);

    say("# agreement of the Z3 engine with the explorer: bound %d, "
        "explorer limit %ld states%s, %s\n",
        cfg.bound, cfg.states,
        cfg.claim_depth ? " to the depth of each claim" : "",
        cfg.per_model == 0  ? "every mutant"
        : cfg.per_model > 0 ? "sampled (MF_AGREE_PER_MODEL)"
                            : "CI sample (MF_AGREE_FULL=1: all)");
    if (cfg.shard_n)
        say("# shard %d of %d (MF_AGREE_SHARD): the chosen mutants of rank "
            "%d modulo %d\n", cfg.shard_k, cfg.shard_n, cfg.shard_k,
            cfg.shard_n);
    MF_VEC(model_stats) stats = {0};
    mf_buf report = {0};
    double t_all = now();
    for (int i = 0; i < files.n; i++) {
        const char *path = files.v[i];
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        if (!wanted(&cfg, base))
            continue;
        mf_model *m = NULL;
        /* sis_env and its variants observe their DEFINE, as their
         * headers say. */
        const char *sis_obs[] = {"SafetyInjection"};
        mf_model_opts sis = {.observe = sis_obs, .nobserve = 1};
        if (mf_model_load_file(&m, path,
                               strncmp(base, "sis_env", 7) ? NULL : &sis) != 0)
            continue; /* refused by the front-end */
        int any = 0;
        for (int c = 0; c < (cfg.per_model < 0 ? NCI : 1); c++) {
            int cap = cfg.per_model, batch = cfg.batch;
            if (cfg.per_model < 0) {
                if (!strstr(base, ci_models[c].name))
                    continue;
                cap = ci_models[c].cap;
                batch = ci_models[c].batch;
            }
            any = 1;
            MF_VEC_PUSH(stats, run_model(&cfg, m, path, cap, batch, &report));
        }
        if (!any)
            say("# %-48.48s not in the CI sample (MF_AGREE_FULL=1)\n", base);
        mf_model_free(m);
    }
    double secs = now() - t_all;

    /* The table. */
    model_stats tot = {0};
    tot.name = "TOTAL";
    say("\n# %-40s %4s %5s %5s %5s %5s %4s %4s %4s | %-17s %4s %4s %3s "
        "| %-14s | %4s %4s %4s %4s | %6s %6s\n",
        "model", "bat", "ok", "run", "cmp", "agree", "DIS", "skip", "unk",
        "eng k det/def/pot", "eq", "surv", "err", "expl k/nk/lim", "noup",
        "ueq", "rpl", "eqx", "eng s", "expl s");
    for (int i = 0; i <= stats.n; i++) {
        model_stats *s = i < stats.n ? &stats.v[i] : &tot;
        say("# %-40.40s %4d %5d %5d %5d %5d %4d %4d %4d | %5d/%5d/%5d %4d "
            "%4d %3d | %4d/%4d/%4d | %4d %4d %4d %4d | %6.1f %6.1f\n",
            s->name, s->batch, s->nok, s->sampled, s->compared, s->agree,
            s->disagree, s->skipped, s->unknown, s->e_killed[0], s->e_killed[2],
            s->e_killed[1], s->e_equiv, s->e_surv, s->e_error, s->x_killed,
            s->x_notk, s->x_limit, s->not_upgraded, s->unverified_eq,
            s->replayed_longer, s->eq_explicit, s->esecs, s->xsecs);
        if (s == &tot)
            break;
        tot.nok += s->nok;
        tot.sampled += s->sampled;
        tot.compared += s->compared;
        tot.agree += s->agree;
        tot.disagree += s->disagree;
        tot.skipped += s->skipped;
        tot.unknown += s->unknown;
        for (int k = 0; k < 3; k++)
            tot.e_killed[k] += s->e_killed[k];
        tot.e_equiv += s->e_equiv;
        tot.e_surv += s->e_surv;
        tot.e_error += s->e_error;
        tot.x_killed += s->x_killed;
        tot.x_notk += s->x_notk;
        tot.x_limit += s->x_limit;
        tot.not_upgraded += s->not_upgraded;
        tot.unverified_eq += s->unverified_eq;
        tot.replayed_longer += s->replayed_longer;
        tot.eq_explicit += s->eq_explicit;
        tot.esecs += s->esecs;
        tot.xsecs += s->xsecs;
        for (int k = 0; k < D__COUNT; k++)
            tot.kinds[k] += s->kinds[k];
    }
    say("# bat: engine batch size; run: mutants decided (cmp: compared, "
        "skip: explorer limit below the claim, unk: engine unknown); eng: "
        "engine verdicts (k: killed by notion); expl: explorer, potential "
        "notion (k: killable at some length, nk: not killable, lim: state "
        "limit); noup: engine potential where the explorer kills definitely "
        "within the bound; ueq: engine equivalent, explorer limit; rpl: "
        "kill by a not_shortest test, longer than the shortest; eqx: equivalent "
        "by the engine's explicit-state proof (the explorer itself)\n");
    mf_buf kinds = {0};
    for (int k = 0; k < D__COUNT; k++)
        if (tot.kinds[k])
            mf_buf_printf(&kinds, " %s %d", dkind_name[k], tot.kinds[k]);
    say("# %d runs, %d mutants decided, %d compared, %d "
        "disagreements%s%s, %.1fs\n",
        stats.n, tot.sampled, tot.compared, tot.disagree, kinds.data ? ":" : "",
        kinds.data ? kinds.data : "", secs);
    if (report.data)
        say("# disagreements (details above):\n%s", report.data);
    mf_buf_free(&kinds);
    mf_buf_free(&report);
    MF_VEC_FREE(stats);
    for (int i = 0; i < files.n; i++)
        free(files.v[i]);
    MF_VEC_FREE(files);
    assert_int_equal(tot.disagree, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_agree__engine_matches_the_explorer_on_every_mutant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
