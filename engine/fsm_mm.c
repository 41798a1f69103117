/* fsm_mm.c - mutation-machine analysis with Z3 (fsm_mm.h): the mutants
 * that pass a test suite as the solutions of one propositional formula,
 * classified by the product with the specification (kiss2/mm.c), blocked a
 * class at a time. It enumerates no mutant: a class is every mutant that
 * agrees with a solution on the groups the product visits.
 *
 * It does not read KISS2 (kiss2/) or print (cli/cmd_mm.c). */
#include "fsm_mm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

struct mf_mm_solver {
    const mf_mm *mm;
    Z3_context c;
    Z3_solver s;
    Z3_ast **choose; /* choose[g][a]: the mutant takes alternative a of g */
    Z3_sort bs;
    long fresh;      /* names of the state literals */
    struct trie *root; /* the suite's steps (add_test) */
};

static _Thread_local char z3_msg[256];
static _Thread_local int z3_err;

static void on_z3_error(Z3_context c, Z3_error_code e)
{
    z3_err = 1;
    snprintf(z3_msg, sizeof z3_msg, "%s", Z3_get_error_msg(c, e));
}

static Z3_ast keep(Z3_context c, Z3_ast a)
{
    Z3_inc_ref(c, a);
    return a;
}

static void add(mf_mm_solver *s, Z3_ast a)
{
    Z3_inc_ref(s->c, a);
    Z3_solver_assert(s->c, s->s, a);
    Z3_dec_ref(s->c, a);
}

/* A step of a test in the trie of the suite: tests that share a prefix
 * share its steps' literals and clauses. */
typedef struct trie {
    char *in;            /* the input of the step into it (NULL: root) */
    int spec;            /* the specification's state after it */
    Z3_ast *cur;         /* per state: "the mutant is there", or NULL */
    int nkids;
    struct trie **kids;
} trie;

static trie *trie_new(const mf_mm *mm, const char *in, int spec)
{
    trie *n = mf_xcalloc(1, sizeof *n);
    n->in = in ? mf_xstrdup(in) : NULL;
    n->spec = spec;
    n->cur = mf_xcalloc((size_t)mm->nstates, sizeof *n->cur);
    return n;
}

static void trie_free(Z3_context c, const mf_mm *mm, trie *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nkids; i++)
        trie_free(c, mm, n->kids[i]);
    for (int t = 0; t < mm->nstates; t++)
        if (n->cur[t])
            Z3_dec_ref(c, n->cur[t]);
    free(n->kids);
    free(n->cur);
    free(n->in);
    free(n);
}

mf_mm_solver *mf_mm_solver_new(const mf_mm *mm)
{
    mf_mm_solver *s = mf_xcalloc(1, sizeof *s);
    s->mm = mm;
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    s->c = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(s->c, on_z3_error);
    /* Propositional: Z3's incremental SAT solver (QF_FD). */
    s->s = Z3_mk_solver_for_logic(s->c, Z3_mk_string_symbol(s->c, "QF_FD"));
    Z3_solver_inc_ref(s->c, s->s);
    s->bs = Z3_mk_bool_sort(s->c);
    s->choose = mf_xcalloc((size_t)mm->ngroups + 1, sizeof *s->choose);
    for (int g = 0; g < mm->ngroups; g++) {
        const mf_mm_group *gr = &mm->groups[g];
        s->choose[g] = mf_xcalloc((size_t)gr->nalts, sizeof **s->choose);
        if (gr->nalts == 1) {
            s->choose[g][0] = keep(s->c, Z3_mk_true(s->c));
            continue;
        }
        for (int a = 0; a < gr->nalts; a++) {
            char name[48];
            snprintf(name, sizeof name, "z%d_%d", g, a);
            s->choose[g][a] =
                keep(s->c, Z3_mk_const(s->c, Z3_mk_string_symbol(s->c, name),
                                       s->bs));
        }
        /* Exactly one alternative. */
        add(s, Z3_mk_or(s->c, (unsigned)gr->nalts, s->choose[g]));
        unsigned k = 1;
        add(s, Z3_mk_atmost(s->c, (unsigned)gr->nalts, s->choose[g], k));
    }
    return s;
}

void mf_mm_solver_free(mf_mm_solver *s)
{
    if (!s)
        return;
    for (int g = 0; g < s->mm->ngroups; g++) {
        for (int a = 0; a < s->mm->groups[g].nalts; a++)
            Z3_dec_ref(s->c, s->choose[g][a]);
        free(s->choose[g]);
    }
    free(s->choose);
    trie_free(s->c, s->mm, s->root);
    Z3_solver_dec_ref(s->c, s->s);
    Z3_del_context(s->c);
    free(s);
}

static Z3_ast fresh_lit(mf_mm_solver *s)
{
    char name[48];
    snprintf(name, sizeof name, "q%ld", s->fresh++);
    return Z3_mk_const(s->c, Z3_mk_string_symbol(s->c, name), s->bs);
}

/* 1 if output cube `mut` may show what `spec` does not allow. */
static int deviates(const char *spec, const char *mut)
{
    for (; *spec; spec++, mut++)
        if (*spec != '-' && *mut != *spec)
            return 1;
    return 0;
}

/* The step from node p on input x: its states' literals and the clauses
 * that say how the mutant gets there (or fails the test). */
static trie *step(mf_mm_solver *s, trie *p, const char *x)
{
    const mf_mm *mm = s->mm;
    int sg = mf_mm_group_at(mm, p->spec, x);
    const mf_mm_alt *sa = &mm->groups[sg].alts[mm->groups[sg].spec];
    trie *n = trie_new(mm, x, sa->to);
    for (int t = 0; t < mm->nstates; t++) {
        if (!p->cur[t])
            continue;
        int g = mf_mm_group_at(mm, t, x);
        if (g < 0) { /* refused: the test kills */
            add(s, Z3_mk_not(s->c, p->cur[t]));
            continue;
        }
        const mf_mm_group *gr = &mm->groups[g];
        for (int a = 0; a < gr->nalts; a++) {
            const mf_mm_alt *al = &gr->alts[a];
            Z3_ast both[2] = {p->cur[t], s->choose[g][a]};
            if (al->to < 0 || deviates(sa->out, al->out)) {
                add(s, Z3_mk_not(s->c, Z3_mk_and(s->c, 2, both)));
                continue;
            }
            if (!n->cur[al->to])
                n->cur[al->to] = keep(s->c, fresh_lit(s));
            add(s, Z3_mk_implies(s->c, Z3_mk_and(s->c, 2, both),
                                 n->cur[al->to]));
        }
    }
    p->kids = mf_xrealloc(p->kids, (size_t)(p->nkids + 1) * sizeof *p->kids);
    p->kids[p->nkids++] = n;
    return n;
}

int mf_mm_solver_add_test(mf_mm_solver *s, const char *const *inputs,
                          int len)
{
    const mf_mm *mm = s->mm;
    int rc = mf_mm_spec_run(mm, inputs, len);
    if (rc < 0)
        return rc;
    if (!s->root) {
        s->root = trie_new(mm, NULL, mm->reset);
        s->root->cur[mm->reset] = keep(s->c, Z3_mk_true(s->c));
    }
    trie *n = s->root;
    for (int k = 0; k < len; k++) {
        trie *next = NULL;
        for (int i = 0; i < n->nkids && !next; i++)
            if (strcmp(n->kids[i]->in, inputs[k]) == 0)
                next = n->kids[i];
        n = next ? next : step(s, n, inputs[k]);
    }
    if (z3_err)
        return mf_err_set(MF_ERROR, "z3: %s", z3_msg);
    return 0;
}

void mf_mm_solver_block(mf_mm_solver *s, const int *choice,
                        const char *visited)
{
    const mf_mm *mm = s->mm;
    MF_VEC(Z3_ast) lits = {0};
    for (int g = 0; g < mm->ngroups; g++)
        if (visited[g] && mm->groups[g].nalts > 1)
            MF_VEC_PUSH(lits, keep(s->c, Z3_mk_not(s->c,
                                                   s->choose[g][choice[g]])));
    if (lits.n == 0) /* nothing to choose: the only mutant there is */
        add(s, Z3_mk_false(s->c));
    else
        add(s, Z3_mk_or(s->c, (unsigned)lits.n, lits.v));
    for (int i = 0; i < lits.n; i++)
        Z3_dec_ref(s->c, lits.v[i]);
    MF_VEC_FREE(lits);
}

int mf_mm_solver_next(mf_mm_solver *s, int *choice)
{
    z3_err = 0;
    Z3_lbool r = Z3_solver_check(s->c, s->s);
    if (r == Z3_L_FALSE)
        return 0;
    if (r != Z3_L_TRUE)
        return mf_err_set(MF_ERROR, "z3: %s",
                          z3_err ? z3_msg
                                 : Z3_solver_get_reason_unknown(s->c, s->s));
    Z3_model mdl = Z3_solver_get_model(s->c, s->s);
    Z3_model_inc_ref(s->c, mdl);
    const mf_mm *mm = s->mm;
    for (int g = 0; g < mm->ngroups; g++) {
        choice[g] = 0;
        if (mm->groups[g].nalts == 1)
            continue;
        for (int a = 0; a < mm->groups[g].nalts; a++) {
            Z3_ast v = NULL;
            if (Z3_model_eval(s->c, mdl, s->choose[g][a], 1, &v) &&
                Z3_get_bool_value(s->c, v) == Z3_L_TRUE) {
                choice[g] = a;
                break;
            }
        }
    }
    Z3_model_dec_ref(s->c, mdl);
    return 1;
}

void mf_mm_result_free(mf_mm_result *r)
{
    mf_buf_free(&r->conforming);
    mf_buf_free(&r->surviving);
    free(r->survivor);
    free(r->seq);
    memset(r, 0, sizeof *r);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* seq (len inputs of ni + 1 bytes each) as an array of strings into it. */
static const char **seq_inputs(const char *seq, int len, int ni)
{
    const char **in = mf_xcalloc((size_t)len + 1, sizeof *in);
    for (int i = 0; i < len; i++)
        in[i] = seq + (size_t)i * (size_t)(ni + 1);
    return in;
}

int mf_mm_analyse(const mf_mm *mm, char ***tests, const int *lens,
                  int ntests, long max_classes, int stop_first,
                  mf_mm_result *r)
{
    memset(r, 0, sizeof *r);
    double t0 = now();
    mf_buf_puts(&r->conforming, "0");
    mf_buf_puts(&r->surviving, "0");
    mf_mm_solver *s = mf_mm_solver_new(mm);
    int rc = 0;
    for (int t = 0; t < ntests && rc == 0; t++) {
        rc = mf_mm_solver_add_test(s, (const char *const *)tests[t], lens[t]);
        if (rc < 0)
            rc = mf_err_set(rc, "test %d: %s", t + 1, mf_err_msg());
    }
    int *choice = mf_xcalloc((size_t)mm->ngroups + 1, sizeof *choice);
    char *visited = mf_xcalloc((size_t)mm->ngroups + 1, 1);
    mf_buf cnt = {0};
    while (rc == 0) {
        if (max_classes > 0 && r->classes >= max_classes)
            break;
        int got = mf_mm_solver_next(s, choice);
        if (got < 0) {
            rc = got;
            break;
        }
        if (got == 0) {
            r->finished = 1;
            break;
        }
        r->classes++;
        memset(visited, 0, (size_t)mm->ngroups);
        char *seq = NULL;
        int len = 0;
        int bad = mf_mm_distinguish(mm, choice, visited, &seq, &len);
        mf_buf_reset(&cnt);
        mf_mm_count_free(&cnt, mm, visited);
        mf_mm_dec_add(bad ? &r->surviving : &r->conforming, cnt.data);
        if (bad && !r->survivor) {
            /* The class's plainest member: the specification's choice
             * where the product does not look. */
            for (int g = 0; g < mm->ngroups; g++)
                if (!visited[g] && mm->groups[g].spec >= 0)
                    choice[g] = mm->groups[g].spec;
            r->survivor = mf_xmalloc((size_t)mm->ngroups * sizeof *choice +
                                     1);
            memcpy(r->survivor, choice, (size_t)mm->ngroups * sizeof *choice);
            r->seq = seq;
            r->seqlen = len;
            seq = NULL;
        }
        free(seq);
        if (bad && stop_first)
            break;
        mf_mm_solver_block(s, choice, visited);
    }
    mf_buf_free(&cnt);
    free(choice);
    free(visited);
    mf_mm_solver_free(s);
    r->secs = now() - t0;
    return rc;
}

int mf_mm_complete(const mf_mm *mm, char ***tests, const int *lens,
                   int ntests, char ****out, int **outlens, int *nout)
{
    *out = NULL;
    *outlens = NULL;
    *nout = 0;
    mf_mm_solver *s = mf_mm_solver_new(mm);
    int rc = 0;
    for (int t = 0; t < ntests && rc == 0; t++)
        rc = mf_mm_solver_add_test(s, (const char *const *)tests[t], lens[t]);
    int *choice = mf_xcalloc((size_t)mm->ngroups + 1, sizeof *choice);
    char *visited = mf_xcalloc((size_t)mm->ngroups + 1, 1);
    MF_VEC(char **) added = {0};
    MF_VEC(int) added_len = {0};
    while (rc == 0) {
        int got = mf_mm_solver_next(s, choice);
        if (got <= 0) {
            rc = got;
            break;
        }
        memset(visited, 0, (size_t)mm->ngroups);
        char *seq = NULL;
        int len = 0;
        if (!mf_mm_distinguish(mm, choice, visited, &seq, &len)) {
            mf_mm_solver_block(s, choice, visited);
            continue;
        }
        /* The mutant's distinguishing sequence becomes a test: it kills
         * this mutant, so the loop ends (finitely many classes). */
        const char **in = seq_inputs(seq, len, mm->ni);
        rc = mf_mm_solver_add_test(s, in, len);
        char **copy = mf_xcalloc((size_t)len + 1, sizeof *copy);
        for (int i = 0; i < len; i++)
            copy[i] = mf_xstrdup(in[i]);
        MF_VEC_PUSH(added, copy);
        MF_VEC_PUSH(added_len, len);
        free(in);
        free(seq);
    }
    free(choice);
    free(visited);
    mf_mm_solver_free(s);
    *out = added.v;
    *outlens = added_len.v;
    *nout = added.n;
    return rc;
}
