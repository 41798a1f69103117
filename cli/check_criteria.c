/* check_criteria.c - `mutfarm check MODEL --criterion LIST`: coverage
 * requirements (model/criteria.h) decided in this process by the engine,
 * each as a mutant of the trap model, with the winnowing of
 * docs/criteria.md. Nothing is stored.
 *
 * A requirement is covered by a kill (its witness test, replayed again
 * here by the simulator on the trap model), infeasible by an equivalence
 * proof, open otherwise. Winnowing, in the paper's order: infeasible;
 * trivial (a condition over a state that holds in every initial state,
 * input values included: every test covers it, the empty one too; one
 * over a step is not, as the empty test takes no step);
 * duplicates (two requirements of one criterion whose conditions are
 * equal in every reachable state: candidates are those equal on every
 * state the witnesses' runs visit, and the engine decides each candidate
 * pair as the trap "the conditions differ", a proof of its infeasibility
 * making them duplicates). */
#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "criteria.h"
#include "sim.h"

/* Candidate initial states tried for the trivial check. */
#define TRIVIAL_LIMIT 1000000L

typedef struct {
    const mf_reqs *r;
    const mf_expr *cond;
    int all; /* 1 while the condition held in every state seen */
} init_ctx;

static int holds(const mf_model *m, const mf_expr *e, const mf_val *s)
{
    mf_valset v = {0};
    int ok = mf_eval(&v, m, e, s, NULL, NULL, 16) >= 0 && v.n == 1 &&
             v.v[0] == 1;
    MF_VEC_FREE(v);
    return ok;
}

static int init_fn(const mf_val *state, void *vctx)
{
    init_ctx *c = vctx;
    if (!holds(c->r->tm, c->cond, state)) {
        c->all = 0;
        return 1;
    }
    return 0;
}

/* 1 if the condition holds in every initial state of the trap model. */
static int trivial(const mf_reqs *r, int i)
{
    init_ctx c = {r, r->v[i].item->e, 1};
    int rc = mf_sim_initial_each(r->tm, NULL, init_fn, &c, TRIVIAL_LIMIT);
    return rc > 0 && c.all;
}

/* What the witnesses' runs visit (choice 0 where the model chooses):
 * their states, and their steps as (state, next state, input). */
typedef MF_VEC(mf_val) val_vec;
typedef struct {
    val_vec st; /* nslots values a state */
    val_vec tr; /* 3 * nslots values a step */
} visits;

static void push_row(val_vec *v, const mf_val *row, int n)
{
    for (int j = 0; j < n; j++)
        MF_VEC_PUSH(*v, row[j]);
}

static void witness_visits(const mf_model *tm, const mf_test *t, visits *out)
{
    int ns = tm->nslots;
    mf_val *cur = mf_xcalloc((size_t)ns + 1, sizeof *cur);
    mf_val *nxt = mf_xcalloc((size_t)ns + 1, sizeof *nxt);
    if (mf_sim_initial(cur, tm, t->inputs, 0) == 0) {
        for (int k = 0;; k++) {
            push_row(&out->st, cur, ns);
            const mf_val *inp = t->inputs + (size_t)(k + 1) * ns;
            if (k == t->length || mf_sim_step(nxt, tm, cur, inp, 0) < 0)
                break;
            push_row(&out->tr, cur, ns);
            push_row(&out->tr, nxt, ns);
            push_row(&out->tr, inp, ns);
            mf_val *sw = cur;
            cur = nxt;
            nxt = sw;
        }
    }
    free(cur);
    free(nxt);
}

/* The condition's value at each point a witness visits, as '0'/'1'. */
static char *signature(const mf_model *tm, const mf_req *q, const visits *v)
{
    int ns = tm->nslots ? tm->nslots : 1;
    const val_vec *pts = q->step ? &v->tr : &v->st;
    int w = q->step ? 3 * ns : ns, np = pts->n / w;
    char *sig = mf_xmalloc((size_t)np + 1);
    for (int k = 0; k < np; k++) {
        const mf_val *p = pts->v + (size_t)k * w;
        mf_valset r = {0};
        int ok = mf_eval(&r, tm, q->item->e, p, q->step ? p + ns : NULL,
                         q->step ? p + 2 * ns : NULL, 16) >= 0 &&
                 r.n == 1 && r.v[0] == 1;
        MF_VEC_FREE(r);
        sig[k] = ok ? '1' : '0';
    }
    sig[np] = '\0';
    return sig;
}

typedef struct {
    int crit, step;
    char *sig; /* signature() */
    int req;
} sig_row;

static int cmp_sig(const void *a, const void *b)
{
    const sig_row *x = a, *y = b;
    if (x->crit != y->crit)
        return x->crit - y->crit;
    if (x->step != y->step)
        return x->step - y->step;
    int c = strcmp(x->sig, y->sig);
    return c ? c : x->req - y->req;
}

/* Duplicates among the requirements with dup_cand[i] set: dup_of[i]
 * becomes the requirement it duplicates, or -1. Returns the pairs the
 * engine left undecided. */
static int find_duplicates(const mf_reqs *r, const int *cand,
                           const visits *vis, const mf_engine_opts *eo,
                           int threads, int *dup_of)
{
    const mf_model *tm = r->tm;
    int undecided = 0;
    MF_VEC(sig_row) rows = {0};
    for (int i = 0; i < r->n; i++) {
        dup_of[i] = -1;
        if (!cand[i])
            continue;
        sig_row s = {r->v[i].crit, r->v[i].step, signature(tm, &r->v[i], vis),
                     i};
        MF_VEC_PUSH(rows, s);
    }
    if (rows.n)
        qsort(rows.v, (size_t)rows.n, sizeof *rows.v, cmp_sig);
    /* Rounds: in each group of equal signatures, every member not yet
     * placed is compared with the group's first such member. */
    int *rep = mf_xcalloc((size_t)rows.n + 1, sizeof *rep);
    int *grp = mf_xcalloc((size_t)rows.n + 1, sizeof *grp);
    for (int i = 0; i < rows.n; i++)
        grp[i] = i > 0 && rows.v[i].crit == rows.v[i - 1].crit &&
                         rows.v[i].step == rows.v[i - 1].step &&
                         !strcmp(rows.v[i].sig, rows.v[i - 1].sig)
                     ? grp[i - 1]
                     : i;
    int *placed = mf_xcalloc((size_t)rows.n + 1, sizeof *placed);
    mf_arena *a = mf_arena_new();
    for (;;) {
        MF_VEC(mf_engine_mutant) mu = {0};
        MF_VEC(int) who = {0};
        for (int i = 0; i < rows.n; i++)
            rep[i] = -1;
        for (int i = 0; i < rows.n; i++) {
            if (placed[i])
                continue;
            int g = grp[i];
            if (rep[g] < 0) {
                rep[g] = i;
                placed[i] = 1;
                continue;
            }
            const mf_req *x = &r->v[rows.v[rep[g]].req];
            const mf_req *y = &r->v[rows.v[i].req];
            mf_item *it = mf_arena_alloc(a, sizeof *it);
            *it = *x->item;
            it->e = mf_expr_un(a, MF_E_NOT,
                               mf_expr_bin(a, MF_OP_IFF,
                                           mf_expr_copy(a, x->item->e),
                                           mf_expr_copy(a, y->item->e)));
            mf_engine_mutant e = {x->at, it, NULL};
            MF_VEC_PUSH(mu, e);
            MF_VEC_PUSH(who, i);
        }
        if (mu.n == 0) {
            MF_VEC_FREE(mu);
            MF_VEC_FREE(who);
            break;
        }
        mf_model **mm = mf_xcalloc((size_t)mu.n, sizeof *mm);
        mf_verdict *out = mf_xcalloc((size_t)mu.n, sizeof *out);
        int ok = 1;
        for (int j = 0; j < mu.n && ok; j++) {
            ok = mf_model_check_item(tm, mu.v[j].repl) == 0 &&
                 mf_model_replace_item(&mm[j], tm, mu.v[j].item,
                                       mu.v[j].repl) == 0;
            mu.v[j].mutated = mm[j];
        }
        if (ok)
            ok = mf_check_threads(tm, mu.v, mu.n, eo, out, threads) == 0;
        for (int j = 0; j < mu.n; j++) {
            int i = who.v[j];
            if (ok && out[j].kind == MF_V_EQUIVALENT) {
                dup_of[rows.v[i].req] = rows.v[rep[grp[i]]].req;
                placed[i] = 1;
            } else if (!ok || out[j].kind != MF_V_KILLED) {
                undecided++;
                placed[i] = 1; /* not known to be a duplicate: kept */
            }
            /* killed: they differ; it stays for the next round */
            mf_verdict_clear(&out[j]);
            mf_model_free(mm[j]);
        }
        free(mm);
        free(out);
        MF_VEC_FREE(mu);
        MF_VEC_FREE(who);
        if (!ok)
            break;
    }
    mf_arena_free(a);
    for (int i = 0; i < rows.n; i++)
        free(rows.v[i].sig);
    MF_VEC_FREE(rows);
    free(rep);
    free(grp);
    free(placed);
    return undecided;
}

/* The cross-criterion table's rows: the mutants (from mut) and each
 * criterion of mask, over the feasible requirements (not infeasible,
 * trivial or a duplicate). */
static void cross(const mf_model *m, const mf_reqs *r, unsigned mask,
                  const mf_check_mutation *mut, const int *pick, int n,
                  mf_model *const *mm, const mf_verdict *out,
                  const int *triv, const int *dup_of)
{
    mf_check_cross_row rows[MF_CRIT__COUNT + 1];
    MF_VEC(const mf_model *) reqs[MF_CRIT__COUNT + 1];
    MF_VEC(const mf_test *) own[MF_CRIT__COUNT + 1];
    memset(reqs, 0, sizeof reqs);
    memset(own, 0, sizeof own);
    int nrows = 0;
    if (mut) {
        for (int j = 0; j < mut->n; j++) {
            const mf_verdict *v = &mut->v[j];
            if (v->kind == MF_V_EQUIVALENT || v->kind == MF_V_ERROR ||
                mut->dup_of[j] >= 0 || !mut->mu[j].mutated)
                continue;
            MF_VEC_PUSH(reqs[0], mut->mu[j].mutated);
            if (v->kind == MF_V_KILLED)
                MF_VEC_PUSH(own[0], v->test);
        }
        rows[nrows++] = (mf_check_cross_row){"mutation", 0, NULL, 0, NULL,
                                             0};
    }
    for (int c = 0; c < MF_CRIT__COUNT; c++) {
        if (!(mask & (1u << c)))
            continue;
        int k = nrows;
        for (int j = 0; j < n; j++) {
            int i = pick[j];
            if ((int)r->v[i].crit != c || out[j].kind == MF_V_EQUIVALENT ||
                out[j].kind == MF_V_ERROR || triv[i] || dup_of[i] >= 0)
                continue;
            MF_VEC_PUSH(reqs[k], mm[j]);
            if (out[j].kind == MF_V_KILLED)
                MF_VEC_PUSH(own[k], out[j].test);
        }
        rows[nrows++] = (mf_check_cross_row){
            mf_criterion_name((mf_criterion)c), 1, NULL, 0, NULL, 0};
    }
    for (int k = 0; k < nrows; k++) {
        rows[k].reqs = (const mf_model *const *)reqs[k].v;
        rows[k].nreqs = reqs[k].n;
        rows[k].own = (const mf_test *const *)own[k].v;
        rows[k].nown = own[k].n;
    }
    if (nrows >= 2)
        mf_check_cross(m, r->tm, rows, nrows);
    for (int k = 0; k < nrows; k++) {
        MF_VEC_FREE(reqs[k]);
        MF_VEC_FREE(own[k]);
    }
}

int mf_check_criteria(const mf_model *m, unsigned mask,
                      const mf_engine_opts *eo, int threads, int sample,
                      const mf_check_mutation *mut)
{
    mf_reqs *r = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (mf_reqs_build(&r, m, mask) < 0) {
        fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
        return MF_EXIT_INTERNAL;
    }
    int n = r->n, code = MF_EXIT_OK;
    int *pick = mf_xcalloc((size_t)n + 1, sizeof *pick);
    if (sample > 0 && n > sample) {
        for (int k = 0; k < sample; k++)
            pick[k] = (int)((long)k * n / sample);
        n = sample;
    } else
        for (int k = 0; k < n; k++)
            pick[k] = k;
    mf_engine_mutant *mu = mf_xcalloc((size_t)n + 1, sizeof *mu);
    mf_model **mm = mf_xcalloc((size_t)n + 1, sizeof *mm);
    mf_verdict *out = mf_xcalloc((size_t)n + 1, sizeof *out);
    int *cand = mf_xcalloc((size_t)r->n + 1, sizeof *cand);
    int *dup_of = mf_xcalloc((size_t)r->n + 1, sizeof *dup_of);
    int *triv = mf_xcalloc((size_t)r->n + 1, sizeof *triv);
    visits vis;
    memset(&vis, 0, sizeof vis);
    for (int j = 0; j < n; j++) {
        if (mf_req_apply(&mm[j], r, pick[j]) < 0) {
            fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
            code = MF_EXIT_INTERNAL;
            goto done;
        }
        mu[j] = (mf_engine_mutant){r->v[pick[j]].at, r->v[pick[j]].item,
                                   mm[j]};
    }
    if (mf_check_threads(r->tm, mu, n, eo, out, threads) < 0) {
        fprintf(stderr, "mutfarm check: %s\n", mf_err_msg());
        code = MF_EXIT_INTERNAL;
        goto done;
    }
    int replayed = 0, replay_failed = 0;
    for (int j = 0; j < n; j++) {
        const mf_req *q = &r->v[pick[j]];
        mf_verdict *vd = &out[j];
        printf("%s  %-15s ", q->id, mf_criterion_name(q->crit));
        switch (vd->kind) {
        case MF_V_KILLED:
            printf("covered     %s, length %d", mf_notion_name(vd->notion),
                   vd->test->length);
            break;
        case MF_V_EQUIVALENT: printf("infeasible  by %s", vd->method); break;
        case MF_V_SURVIVED:
            printf("open        up to bound %d", vd->bound);
            if (vd->kill_len_beyond > 0)
                printf(", covered at length %d", vd->kill_len_beyond);
            break;
        case MF_V_UNKNOWN: printf("open        unknown: %s", vd->reason); break;
        default:
            printf("error       %s", vd->reason);
            code = MF_EXIT_INTERNAL;
        }
        printf("\n    %s:%d:%d %s: %s\n", m->file, q->line, q->col, q->site,
               q->text);
        if (vd->kind != MF_V_KILLED)
            continue;
        mf_check_print_test(r->tm, vd->test);
        /* Every witness replayed once more, as the campaign's check does. */
        if (mf_engine_replay(r->tm, mm[j], vd->test, vd->notion) == 0)
            replayed++;
        else {
            replay_failed++;
            printf("    witness does not replay: %s\n", mf_err_msg());
            code = MF_EXIT_INTERNAL;
        }
        cand[pick[j]] = 1;
        witness_visits(r->tm, vd->test, &vis);
    }
    /* Trivial: over a state, and true in some initial state a witness
     * starts from (a quick filter) and then in every one. */
    for (int j = 0; j < n && vis.st.n; j++) {
        int i = pick[j];
        if (cand[i] && !r->v[i].step &&
            holds(r->tm, r->v[i].item->e, vis.st.v) && trivial(r, i)) {
            triv[i] = 1;
            cand[i] = 0;
        }
    }
    int undecided = find_duplicates(r, cand, &vis, eo, threads, dup_of);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    printf("# winnowing per criterion (docs/criteria.md): generated, "
           "duplicates, trivial, infeasible, feasible (of them covered, "
           "open)\n");
    printf("# %-16s %9s %10s %7s %10s %8s %8s %6s\n", "criterion",
           "generated", "duplicates", "trivial", "infeasible", "feasible",
           "covered", "open");
    for (int c = 0; c < MF_CRIT__COUNT; c++) {
        if (!(mask & (1u << c)))
            continue;
        int gen = 0, dup = 0, tri = 0, inf = 0, cov = 0, open = 0;
        for (int j = 0; j < n; j++) {
            int i = pick[j];
            if ((int)r->v[i].crit != c)
                continue;
            gen++;
            if (out[j].kind == MF_V_EQUIVALENT)
                inf++;
            else if (triv[i])
                tri++;
            else if (dup_of[i] >= 0)
                dup++;
            else if (out[j].kind == MF_V_KILLED)
                cov++;
            else
                open++;
        }
        printf("# %-16s %9d %10d %7d %10d %8d %8d %6d\n",
               mf_criterion_name((mf_criterion)c), gen, dup, tri, inf,
               gen - dup - tri - inf, cov, open);
    }
    cross(m, r, mask, mut, pick, n, mm, out, triv, dup_of);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("# %d requirements (%d generated%s), %d witnesses replayed, %d "
           "did not; %d duplicate pairs undecided; %.2f s\n",
           n, r->n, n < r->n ? ", a sample" : "", replayed, replay_failed,
           undecided,
           (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
done:
    for (int j = 0; j < n; j++) {
        mf_verdict_clear(&out[j]);
        mf_model_free(mm[j]);
    }
    free(out);
    free(mm);
    free(mu);
    free(pick);
    free(cand);
    free(dup_of);
    free(triv);
    MF_VEC_FREE(vis.st);
    MF_VEC_FREE(vis.tr);
    mf_reqs_free(r);
    return code;
}
