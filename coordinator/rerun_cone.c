/* rerun_cone.c - which verdicts an edit cannot touch (rerun_cone.h,
 * docs/nightly.md). The two models' nodes (variables and DEFINEs) are
 * matched by name into one numbering; the union of the two models' "reads"
 * edges makes one graph, so that a set closed under it is closed in each
 * model (its closures are supersets of each model's: a larger cone only
 * carries less). Everything a mutant's question needs but its own cone is
 * computed once, when the models are compared.
 *
 * It decides nothing by running a model: no simulator, no solver. */
#include "rerun_cone.h"

#include <stdlib.h>
#include <string.h>

#include "coi.h"
#include "encode.h"

typedef struct {
    char kind;        /* 'v' variable, 'd' DEFINE */
    const char *name;
    int side, node;
} key;

struct mf_edit {
    const mf_model *m[2]; /* 0 the earlier model, 1 the edited one */
    int ngid;
    int *gid[2];  /* per model: node (var v, or nvars + DEFINE item) -> id */
    int *off, *rd;   /* the union graph: what id reads (CSR) */
    int *roff, *rdr; /* and who reads it */
    char *edited;    /* in one model only, or declared or defined apart */
    char *touched;   /* edited, or reads one through any chain */
    char *cone;      /* the observed cone (both models) */
    char *det;       /* structurally deterministic in both models */
    char *cmark;     /* what the constraints read, through any chain */
    int nedited;
    int any;     /* some verdict may carry (see mf_edit_any) */
    int cone_ok; /* the observed cone holds no edited node */
    int shown_ok; /* the touched part reads, outside itself, only what
                     the observables and the inputs show */
    char *shown;  /* an input, an observed variable, or a DEFINE of
                     such (in both models) */
    char *mark, *mark2; /* scratch, per id */
    int *queue;
};

/* ---- the nodes of a model ------------------------------------------------ */

static int is_assign(mf_itkind k)
{
    return k == MF_IT_INIT || k == MF_IT_NEXT || k == MF_IT_ASSIGN;
}

static int is_constraint(mf_itkind k)
{
    return k == MF_IT_INIT_C || k == MF_IT_TRANS_C || k == MF_IT_INVAR_C;
}

/* The node an item belongs to: its variable or its DEFINE; -1 for a
 * constraint. */
static int node_of(const mf_model *m, const mf_item *it, int i)
{
    if (it->kind == MF_IT_DEFINE)
        return m->nvars + i;
    return is_assign(it->kind) ? it->var : -1;
}

static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    return strcmp(x->name, y->name);
}

/* One numbering of both models' nodes, by kind and name. */
static void number(mf_edit *e)
{
    MF_VEC(key) keys = {0};
    for (int s = 0; s < 2; s++) {
        const mf_model *m = e->m[s];
        int n = m->nvars + m->nitems;
        e->gid[s] = mf_xmalloc((size_t)(n ? n : 1) * sizeof(int));
        for (int i = 0; i < n; i++)
            e->gid[s][i] = -1;
        for (int v = 0; v < m->nvars; v++) {
            key k = {'v', m->vars[v].name, s, v};
            MF_VEC_PUSH(keys, k);
        }
        for (int i = 0; i < m->nitems; i++)
            if (m->items[i].kind == MF_IT_DEFINE) {
                key k = {'d', m->items[i].name, s, m->nvars + i};
                MF_VEC_PUSH(keys, k);
            }
    }
    if (keys.n)
        qsort(keys.v, (size_t)keys.n, sizeof(key), key_cmp);
    for (int i = 0; i < keys.n; i++) {
        if (i == 0 || key_cmp(&keys.v[i - 1], &keys.v[i]) != 0)
            e->ngid++;
        e->gid[keys.v[i].side][keys.v[i].node] = e->ngid - 1;
    }
    MF_VEC_FREE(keys);
}

/* ---- the union graph ----------------------------------------------------- */

typedef MF_VEC(int) ints;

/* Appends to `to` the id of every variable and DEFINE x names. */
static void reads(const mf_edit *e, int s, const mf_expr *x, ints *to)
{
    if (!x)
        return;
    const mf_model *m = e->m[s];
    if (x->kind == MF_E_ID && x->ref_kind == MF_REF_VAR)
        MF_VEC_PUSH(*to, e->gid[s][x->ref]);
    else if (x->kind == MF_E_ID && x->ref_kind == MF_REF_DEFINE)
        MF_VEC_PUSH(*to, e->gid[s][m->nvars + x->ref]);
    for (int k = 0; k < x->nkids; k++)
        reads(e, s, x->kids[k], to);
}

/* CSR of the edges (from[i], to[i]) over ngid ids. */
static void csr(int ngid, const ints *from, const ints *to, int **off,
                int **adj)
{
    *off = mf_xcalloc((size_t)ngid + 1, sizeof(int));
    *adj = mf_xmalloc((size_t)(from->n ? from->n : 1) * sizeof(int));
    for (int i = 0; i < from->n; i++)
        (*off)[from->v[i] + 1]++;
    for (int g = 0; g < ngid; g++)
        (*off)[g + 1] += (*off)[g];
    int *at = mf_xmalloc((size_t)(ngid ? ngid : 1) * sizeof(int));
    memcpy(at, *off, (size_t)ngid * sizeof(int));
    for (int i = 0; i < from->n; i++)
        (*adj)[at[from->v[i]]++] = to->v[i];
    free(at);
}

/* The graph, and the constraints' reads marked in e->cmark. */
static void graph(mf_edit *e)
{
    ints src = {0}, dst = {0}, r = {0};
    for (int s = 0; s < 2; s++) {
        const mf_model *m = e->m[s];
        for (int i = 0; i < m->nitems; i++) {
            const mf_item *it = &m->items[i];
            int node = node_of(m, it, i);
            r.n = 0;
            reads(e, s, it->e, &r);
            reads(e, s, it->lhs, &r);
            for (int k = 0; k < r.n; k++) {
                if (node < 0) {
                    e->cmark[r.v[k]] = 1;
                    continue;
                }
                MF_VEC_PUSH(src, e->gid[s][node]);
                MF_VEC_PUSH(dst, r.v[k]);
            }
        }
    }
    csr(e->ngid, &src, &dst, &e->off, &e->rd);
    csr(e->ngid, &dst, &src, &e->roff, &e->rdr);
    MF_VEC_FREE(src);
    MF_VEC_FREE(dst);
    MF_VEC_FREE(r);
}

/* Closes `mark` along adj (reads: backward; readers: forward) from the
 * ids in e->queue[0..n). 1 as soon as it reaches an id marked in `bad`
 * (NULL: none), else 0. */
static int spread(mf_edit *e, char *mark, int n, const int *off,
                  const int *adj, const char *bad)
{
    for (int h = 0; h < n; h++) {
        int g = e->queue[h];
        if (bad && bad[g])
            return 1;
        for (int k = off[g]; k < off[g + 1]; k++)
            if (!mark[adj[k]]) {
                mark[adj[k]] = 1;
                e->queue[n++] = adj[k];
            }
    }
    return 0;
}

/* Seeds the queue with the ids marked in `mark`: their count. */
static int seed_marked(mf_edit *e, const char *mark)
{
    int n = 0;
    for (int g = 0; g < e->ngid; g++)
        if (mark[g])
            e->queue[n++] = g;
    return n;
}

/* ---- what differs ------------------------------------------------------- */

/* A node's declaration and items, printed: equal texts, same node. */
static void signatures(const mf_model *m, mf_buf *sig)
{
    for (int v = 0; v < m->nvars; v++) {
        const mf_var *var = &m->vars[v];
        mf_buf_printf(&sig[v], "%d %d %d ", (int)var->decl, var->is_input,
                      var->is_observable);
        mf_print_type(&sig[v], m, var->type);
        mf_buf_puts(&sig[v], "\n");
    }
    for (int i = 0; i < m->nobs_defines; i++)
        mf_buf_puts(&sig[m->nvars + m->obs_defines[i]], "observed\n");
    for (int i = 0; i < m->nitems; i++) {
        int node = node_of(m, &m->items[i], i);
        if (node >= 0) {
            mf_print_item(&sig[node], m, &m->items[i]);
            mf_buf_puts(&sig[node], "\n");
        }
    }
}

static void constraints(const mf_model *m, mf_buf *out)
{
    for (int i = 0; i < m->nitems; i++)
        if (is_constraint(m->items[i].kind)) {
            mf_print_item(out, m, &m->items[i]);
            mf_buf_puts(out, "\n");
        }
}

/* Marks e->edited; 1 if the constraints are the same, in the same order. */
static int compare(mf_edit *e)
{
    mf_buf *sig[2];
    int *node[2];
    for (int s = 0; s < 2; s++) {
        int n = e->m[s]->nvars + e->m[s]->nitems;
        sig[s] = mf_xcalloc((size_t)(n ? n : 1), sizeof(mf_buf));
        signatures(e->m[s], sig[s]);
        node[s] = mf_xmalloc((size_t)(e->ngid ? e->ngid : 1) * sizeof(int));
        for (int g = 0; g < e->ngid; g++)
            node[s][g] = -1;
        for (int i = 0; i < n; i++)
            if (e->gid[s][i] >= 0)
                node[s][e->gid[s][i]] = i;
    }
    for (int g = 0; g < e->ngid; g++) {
        int a = node[0][g], b = node[1][g];
        const char *x = a < 0 ? NULL : sig[0][a].data;
        const char *y = b < 0 ? NULL : sig[1][b].data;
        if (a < 0 || b < 0 || strcmp(x ? x : "", y ? y : "") != 0) {
            e->edited[g] = 1;
            e->nedited++;
        }
    }
    mf_buf c[2] = {{0}, {0}};
    for (int s = 0; s < 2; s++) {
        constraints(e->m[s], &c[s]);
        int n = e->m[s]->nvars + e->m[s]->nitems;
        for (int i = 0; i < n; i++)
            mf_buf_free(&sig[s][i]);
        free(sig[s]);
        free(node[s]);
    }
    int same = c[0].len == c[1].len &&
               (c[0].len == 0 || memcmp(c[0].data, c[1].data, c[0].len) == 0);
    mf_buf_free(&c[0]);
    mf_buf_free(&c[1]);
    return same;
}

/* ---- determinism --------------------------------------------------------- */

/* 1 if x offers a choice (a set, a range or a union as a value); the
 * right operand of `in` is a set to test against, not a choice. DEFINEs
 * are nodes of their own: not followed. */
static int offers_choice(const mf_expr *x)
{
    if (x->kind == MF_E_SET || x->kind == MF_E_RANGE ||
        (x->kind == MF_E_BIN && x->op == MF_OP_UNION))
        return 1;
    int n = x->kind == MF_E_BIN && x->op == MF_OP_IN ? 1 : x->nkids;
    for (int k = 0; k < n; k++)
        if (offers_choice(x->kids[k]))
            return 1;
    return 0;
}

/* 1 if node `node` of m has one value in every state given the inputs
 * and what it reads: an input, a DEFINE without a choice, or a variable
 * every cell of which has an initial and a next (or invariant) assignment
 * without a choice. Item `skip` is replaced by `repl` (NULL: removed);
 * skip -1 for none. */
static int node_det(const mf_model *m, int node, int skip,
                    const mf_item *repl)
{
    if (node >= m->nvars) {
        int i = node - m->nvars;
        const mf_item *it = i == skip ? repl : &m->items[i];
        return it && !offers_choice(it->e);
    }
    const mf_var *v = &m->vars[node];
    if (v->decl == MF_DECL_IVAR || v->is_input)
        return 1;
    char *hi = mf_xcalloc((size_t)v->nslots, 1);
    char *hn = mf_xcalloc((size_t)v->nslots, 1);
    int det = 1;
    for (int i = 0; i < m->nitems && det; i++) {
        const mf_item *it = i == skip ? repl : &m->items[i];
        if (!it || !is_assign(it->kind) || it->var != node)
            continue;
        if (offers_choice(it->e)) {
            det = 0;
            break;
        }
        int lo = 0, n = v->nslots;
        const mf_expr *l = it->lhs;
        if (l && l->kind == MF_E_INDEX && v->nslots > 1) {
            /* One cell, when its index is a constant within bounds. */
            n = 0;
            if (l->kids[1]->kind == MF_E_INT &&
                v->type->kind == MF_TY_ARRAY &&
                v->type->elem->kind != MF_TY_ARRAY &&
                l->kids[1]->ival >= v->type->lo &&
                l->kids[1]->ival <= v->type->hi) {
                lo = (int)(l->kids[1]->ival - v->type->lo);
                n = 1;
            }
        } else if (l && l->kind != MF_E_ID) {
            n = 0;
        }
        for (int q = lo; q < lo + n; q++) {
            if (it->kind != MF_IT_NEXT)
                hi[q] = 1;
            if (it->kind != MF_IT_INIT)
                hn[q] = 1;
        }
    }
    for (int q = 0; q < v->nslots && det; q++)
        det = hi[q] && (hn[q] || v->decl == MF_DECL_FROZENVAR);
    free(hi);
    free(hn);
    return det;
}

/* What the observables and the inputs show, in both models: inputs and
 * observed variables, and DEFINEs that read only such (to the fixpoint:
 * a DEFINE is shown until it reads something that is not). */
static void shown(mf_edit *e)
{
    e->shown = mf_xcalloc((size_t)(e->ngid ? e->ngid : 1), 1);
    char *var = mf_xcalloc((size_t)(e->ngid ? e->ngid : 1), 1);
    for (int g = 0; g < e->ngid; g++)
        e->shown[g] = 1;
    for (int s = 0; s < 2; s++) {
        const mf_model *m = e->m[s];
        for (int v = 0; v < m->nvars; v++) {
            const mf_var *x = &m->vars[v];
            int g = e->gid[s][v];
            var[g] = 1;
            if (!(x->decl == MF_DECL_IVAR || x->is_input || x->is_observable))
                e->shown[g] = 0;
        }
    }
    for (int grew = 1; grew;) {
        grew = 0;
        for (int g = 0; g < e->ngid; g++)
            for (int k = e->off[g]; !var[g] && e->shown[g] &&
                                    k < e->off[g + 1]; k++)
                if (!e->shown[e->rd[k]]) {
                    e->shown[g] = 0;
                    grew = 1;
                }
    }
    free(var);
}

/* ---- comparing the models ------------------------------------------------ */

/* 1 if every assignment of m to a touched variable is total. */
static int touched_total(const mf_edit *e, int s)
{
    const mf_model *m = e->m[s];
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        if (is_assign(it->kind) && e->touched[e->gid[s][it->var]] &&
            !mf_coi_total(m, it))
            return 0;
    }
    return 1;
}

void mf_edit_new(mf_edit **out, const mf_model *old, const mf_model *cur)
{
    mf_edit *e = mf_xcalloc(1, sizeof *e);
    e->m[0] = old;
    e->m[1] = cur;
    number(e);
    size_t n = (size_t)(e->ngid ? e->ngid : 1);
    e->edited = mf_xcalloc(n, 1);
    e->touched = mf_xcalloc(n, 1);
    e->cone = mf_xcalloc(n, 1);
    e->det = mf_xcalloc(n, 1);
    e->cmark = mf_xcalloc(n, 1);
    e->mark = mf_xcalloc(n, 1);
    e->mark2 = mf_xcalloc(n, 1);
    e->queue = mf_xcalloc(n, sizeof(int));
    graph(e);
    int same_constraints = compare(e);

    /* Touched: the edited nodes and, forward, all that read them. */
    memcpy(e->touched, e->edited, n);
    spread(e, e->touched, seed_marked(e, e->touched), e->roff, e->rdr, NULL);

    /* The constraints' cone, and the observed cone around it. */
    int qn = seed_marked(e, e->cmark);
    spread(e, e->cmark, qn, e->off, e->rd, NULL);
    memcpy(e->cone, e->cmark, n);
    for (int s = 0; s < 2; s++) {
        const mf_model *m = e->m[s];
        for (int v = 0; v < m->nvars; v++)
            if (m->vars[v].is_observable)
                e->cone[e->gid[s][v]] = 1;
        for (int i = 0; i < m->nobs_defines; i++)
            e->cone[e->gid[s][m->nvars + m->obs_defines[i]]] = 1;
    }
    spread(e, e->cone, seed_marked(e, e->cone), e->off, e->rd, NULL);

    int constraints_clear = 1, cone_clear = 1;
    for (int g = 0; g < e->ngid; g++) {
        constraints_clear &= !(e->cmark[g] && e->edited[g]);
        cone_clear &= !(e->cone[g] && e->edited[g]);
    }
    for (int g = 0; g < e->ngid; g++)
        e->det[g] = 1;
    for (int s = 0; s < 2; s++) {
        const mf_model *m = e->m[s];
        for (int node = 0; node < m->nvars + m->nitems; node++)
            if (e->gid[s][node] >= 0 && !node_det(m, node, -1, NULL))
                e->det[e->gid[s][node]] = 0;
    }
    shown(e);
    int shown_clear = 1;
    for (int g = 0; g < e->ngid; g++)
        for (int k = e->off[g]; e->touched[g] && k < e->off[g + 1]; k++)
            shown_clear &= e->touched[e->rd[k]] || e->shown[e->rd[k]];
    e->any = same_constraints && constraints_clear &&
             mf_model_structurally_det(old) ==
                 mf_model_structurally_det(cur) &&
             touched_total(e, 0) && touched_total(e, 1);
    e->cone_ok = e->any && cone_clear;
    e->shown_ok = e->any && shown_clear;
    *out = e;
}

void mf_edit_free(mf_edit *e)
{
    if (!e)
        return;
    for (int s = 0; s < 2; s++)
        free(e->gid[s]);
    free(e->off);
    free(e->rd);
    free(e->roff);
    free(e->rdr);
    free(e->edited);
    free(e->touched);
    free(e->cone);
    free(e->det);
    free(e->cmark);
    free(e->shown);
    free(e->mark);
    free(e->mark2);
    free(e->queue);
    free(e);
}

int mf_edit_nchanged(const mf_edit *e)
{
    return e->nedited;
}

int mf_edit_any(const mf_edit *e)
{
    return e->any;
}

/* ---- one mutant ---------------------------------------------------------- */

/* Marks in `mark` what the mutant's new item reads and queues what was
 * not marked yet after the first n ids of the queue: the new length. */
static int queue_reads(mf_edit *e, const mf_item *it, char *mark, int n)
{
    ints r = {0};
    if (it) {
        reads(e, 1, it->e, &r);
        reads(e, 1, it->lhs, &r);
    }
    for (int k = 0; k < r.n; k++)
        if (!mark[r.v[k]]) {
            mark[r.v[k]] = 1;
            e->queue[n++] = r.v[k];
        }
    MF_VEC_FREE(r);
    return n;
}

mf_carry_way mf_edit_carries(mf_edit *e, const mf_mutant *mu)
{
    const mf_model *m = e->m[1];
    if (!e->any || mu->status != MF_MUT_OK || mu->item < 0 ||
        mu->item >= m->nitems)
        return MF_CARRY_NONE;
    int node = node_of(m, &m->items[mu->item], mu->item);
    int g = node < 0 ? -1 : e->gid[1][node];
    if (g >= 0 && e->edited[g])
        return MF_CARRY_NONE; /* the mutated item itself may differ */
    size_t n = (size_t)e->ngid;

    /* Its forward cone: the nodes whose values may differ between the
     * original and the mutant. */
    memset(e->mark, 0, n);
    int meets = 0;
    if (g >= 0) {
        e->mark[g] = 1;
        e->queue[0] = g;
        meets = spread(e, e->mark, 1, e->roff, e->rdr, e->touched);
    }

    /* The touched part, where it reads only what the observables show:
     * the mutated node must be outside it, and the mutant's new item must
     * not read it (the rest stays closed in the mutant); a mutated DEFINE
     * the touched part reads (the totality of its assignments may depend
     * on it) is not, and a shown one must still be shown in the mutant. */
    if (e->shown_ok && (g < 0 || !e->touched[g]) &&
        (node < m->nvars || !meets)) {
        memset(e->mark2, 0, n);
        int ok = 1, k = queue_reads(e, mu->new_item, e->mark2, 0);
        for (int h = 0; h < k; h++)
            ok &= !e->touched[e->queue[h]] &&
                  (g < 0 || node < m->nvars || !e->shown[g] ||
                   e->shown[e->queue[h]]);
        if (ok)
            return MF_CARRY_SHOWN;
    }

    /* Else the forward cone must not meet the touched part: there the two
     * mutants would differ in more than the mutation. */
    if (meets)
        return MF_CARRY_NONE;

    /* The observed cone, with what the mutant's item reads (outside the
     * cone too: there it must not read the touched part, whose values
     * could make it refuse a step otherwise than before). */
    if (e->cone_ok) {
        memcpy(e->mark2, e->cone, n);
        int k = queue_reads(e, mu->new_item, e->mark2, 0);
        if (!spread(e, e->mark2, k, e->off, e->rd, e->edited))
            return MF_CARRY_OBSERVED;
    }

    /* The mutant's cone: its forward cone (in e->mark), the constraints
     * and the mutant's reads, closed backward; deterministic throughout,
     * in both models and in the mutant. */
    for (int h = 0; h < e->ngid; h++)
        e->mark[h] |= e->cmark[h];
    queue_reads(e, mu->new_item, e->mark, 0);
    if (spread(e, e->mark, seed_marked(e, e->mark), e->off, e->rd, e->edited))
        return MF_CARRY_NONE;
    for (int h = 0; h < e->ngid; h++)
        if (e->mark[h] && !e->det[h])
            return MF_CARRY_NONE;
    if (node >= 0 && !node_det(m, node, mu->item, mu->new_item))
        return MF_CARRY_NONE;
    return MF_CARRY_MUTANT;
}

const char *mf_carry_way_text(mf_carry_way w)
{
    switch (w) {
    case MF_CARRY_OBSERVED:
        return "the edit is outside the cone of the observables";
    case MF_CARRY_MUTANT:
        return "the edit is outside the mutant's deterministic cone";
    case MF_CARRY_SHOWN:
        return "the edit reads only what the observables show";
    default:
        return "not carried";
    }
}
