/* gt_dump.c - ground truth for every mutant of a model, from the explicit-
 * state explorer (model/explore.h). A test helper, not part of mutfarm.
 *
 *   gt_dump MODEL [BOUND] [--max-states N] [--observe a,b] [--inputs a,b]
 *           [--tests]
 *
 * One line per checkable mutant:
 *   ID  VERDICT  NOTION  LEN  potential=V/LEN definite=V/LEN  det=O/M  OP
 * VERDICT is killed (potentially at least), not-killable, limit or error;
 * NOTION is deterministic (both deterministic where explored: the notions
 * coincide), definite, potential (potentially but not definitely killable)
 * or -; LEN is the shortest kill (definite when definite, else potential).
 * BOUND caps the length explored (default none). --tests prints the killing
 * inputs under each killed mutant. A last line gives the tally. Exit 0
 * unless the model cannot be loaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "mutate.h"
#include "langs.h"
#include "smv.h"

typedef struct {
    const mf_model *m;
    mf_explore_ctx *ctx;
    long max_states;
    int bound, tests;
    int killed, definite, potential_only, not_killable, limit, error, stillborn;
} dump;

static int split(const char ***out, char *s)
{
    int n = 0;
    const char **v = NULL;
    for (char *t = strtok(s, ","); t; t = strtok(NULL, ",")) {
        v = realloc(v, (size_t)(n + 1) * sizeof(*v));
        if (!v)
            abort();
        v[n++] = t;
    }
    *out = v;
    return n;
}

static const char *len_str(char *buf, size_t n, const mf_explore_notion *nt)
{
    if (nt->verdict == MF_XV_KILLED)
        snprintf(buf, n, "%s/%d", mf_explore_verdict_name(nt->verdict),
                 nt->length);
    else
        snprintf(buf, n, "%s", mf_explore_verdict_name(nt->verdict));
    return buf;
}

static int each(const mf_mutant *mu, void *ctx)
{
    dump *d = ctx;
    if (mu->status == MF_MUT_DUPLICATE)
        return 0;
    if (mu->status == MF_MUT_STILLBORN) {
        d->stillborn++;
        return 0;
    }
    mf_model *mm = NULL;
    int rc = mf_mutant_apply(&mm, d->m, mu);
    if (rc < 0) {
        printf("%s  error  -  -  apply: %s  %s\n", mu->id, mf_err_msg(),
               mf_mop_name(mu->op));
        d->error++;
        return 0;
    }
    mf_explore_result r;
    mf_explore_with(d->ctx, &r, mm, MF_EXPLORE_AUTO, d->max_states, d->bound);
    const char *verdict, *notion = "-";
    int len = -1;
    const mf_explore_notion *show = NULL;
    if (r.potential.verdict == MF_XV_KILLED) {
        verdict = "killed";
        d->killed++;
        if (r.det_shortcut) {
            notion = "definite"; /* both deterministic where explored */
            d->definite++;
            show = &r.definite;
        } else if (r.definite.verdict == MF_XV_KILLED) {
            notion = "definite";
            d->definite++;
            show = &r.definite;
        } else {
            notion = "potential";
            show = &r.potential;
            if (r.definite.verdict == MF_XV_NOT_KILLABLE)
                d->potential_only++;
        }
        len = show->length;
    } else if (r.potential.verdict == MF_XV_NOT_KILLABLE) {
        verdict = "not-killable";
        d->not_killable++;
    } else if (r.potential.verdict == MF_XV_LIMIT) {
        verdict = "limit";
        d->limit++;
    } else {
        verdict = "error";
        d->error++;
    }
    char b1[32], b2[32];
    printf("%s  %s  %s  %d  potential=%s definite=%s  det=%d/%d  %s%s%s\n",
           mu->id, verdict, notion, len,
           len_str(b1, sizeof(b1), &r.potential),
           len_str(b2, sizeof(b2), &r.definite), r.orig_det, r.mut_det,
           mf_mop_name(mu->op), r.err[0] ? "  # " : "", r.err);
    if (d->tests && show && show->test) {
        mf_buf b = {0};
        mf_explore_print_test(&b, d->m, show->test);
        printf("%s", b.data ? b.data : "");
        mf_buf_free(&b);
    }
    fflush(stdout);
    mf_explore_result_free(&r);
    mf_model_free(mm);
    return 0;
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    dump d = {0};
    mf_model_opts opts = {0};
    char *observe = NULL, *inputs = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-states") && i + 1 < argc)
            d.max_states = atol(argv[++i]);
        else if (!strcmp(argv[i], "--observe") && i + 1 < argc)
            observe = argv[++i];
        else if (!strcmp(argv[i], "--inputs") && i + 1 < argc)
            inputs = argv[++i];
        else if (!strcmp(argv[i], "--tests"))
            d.tests = 1;
        else if (!file)
            file = argv[i];
        else
            d.bound = atoi(argv[i]);
    }
    if (!file) {
        fprintf(stderr, "usage: gt_dump MODEL [BOUND] [--max-states N] "
                        "[--observe a,b] [--inputs a,b] [--tests]\n");
        return 2;
    }
    if (observe)
        opts.nobserve = split(&opts.observe, observe);
    if (inputs)
        opts.ninputs = split(&opts.inputs, inputs);
    mf_model *m = NULL;
    if (mf_model_load_file(&m, file, &opts) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        free(opts.observe);
        free(opts.inputs);
        return 1;
    }
    d.m = m;
    d.ctx = mf_explore_ctx_new(m);
    int rc = mf_mutants_each(m, 0, each, &d);
    mf_explore_ctx_free(d.ctx);
    if (rc < 0)
        fprintf(stderr, "mutants: %s\n", mf_err_msg());
    printf("total: killed %d (definite %d, potential only %d), "
           "not-killable %d, limit %d, error %d, stillborn %d\n",
           d.killed, d.definite, d.potential_only, d.not_killable, d.limit,
           d.error, d.stillborn);
    mf_model_free(m);
    free(opts.observe);
    free(opts.inputs);
    return rc < 0 ? 1 : 0;
}
