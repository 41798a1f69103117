/* coi.c - the cone of influence (coi.h): which variables and DEFINEs the
 * observables and the constraints read, through any chain of items, and
 * whether the assignments a mutant may change can ever refuse a step. It
 * proves equivalence only; it never finds a kill and runs nothing.
 *
 * Nodes: variable v is node v, the DEFINE at item i is node nvars + i. The
 * totality check is an abstract evaluation over whole domains: each
 * expression gets a superset of its values (an integer interval and a set
 * of symbols) where it is surely defined, or "unknown". Whatever it cannot
 * bound (a division by what may be zero, an index that may be out of
 * bounds, a case without a TRUE branch, wide arithmetic) is unknown, and
 * then the proof is not made: it errs on the side of no verdict. */
#include "coi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Symbols tracked by the abstract values; a model with more that reads a
 * symbol in the changed part gets no proof. */
#define SYM_WORDS 4
#define SYM_MAX (64 * SYM_WORDS)
/* Integer bounds past which arithmetic is not followed. */
#define INT_BOUND ((int64_t)1 << 40)
/* Enumerations with integer values: the widest interval checked value by
 * value. */
#define ENUM_SPAN 1024
/* DEFINEs nested deeper than this: unknown (the simulator's limit is
 * lower; a cycle is a type error). */
#define MAX_DEPTH 64

/* ------------------------------------------------------------------ */
/* The cone and the changed part                                       */

typedef struct {
    const mf_model *m;
    char *mark; /* per node */
    int *todo;
    int ntodo;
} walk;

static void add_node(walk *w, int node)
{
    if (node < 0 || w->mark[node])
        return;
    w->mark[node] = 1;
    w->todo[w->ntodo++] = node;
}

/* Every variable and DEFINE e names (not through DEFINE bodies). */
static void add_reads(walk *w, const mf_expr *e)
{
    if (!e)
        return;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR)
        add_node(w, e->ref);
    else if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        add_node(w, w->m->nvars + e->ref);
    for (int k = 0; k < e->nkids; k++)
        add_reads(w, e->kids[k]);
}

static int is_assignment(mf_itkind k)
{
    return k == MF_IT_INIT || k == MF_IT_NEXT || k == MF_IT_ASSIGN;
}

static int is_constraint(mf_itkind k)
{
    return k == MF_IT_INIT_C || k == MF_IT_TRANS_C || k == MF_IT_INVAR_C;
}

/* The cone: the observables, the constraints' reads, and everything the
 * items of a node in it read, to the fixpoint. */
static void cone(walk *w)
{
    const mf_model *m = w->m;
    for (int v = 0; v < m->nvars; v++)
        if (m->vars[v].is_observable)
            add_node(w, v);
    for (int i = 0; i < m->nobs_defines; i++)
        add_node(w, m->nvars + m->obs_defines[i]);
    for (int i = 0; i < m->nitems; i++)
        if (is_constraint(m->items[i].kind))
            add_reads(w, m->items[i].e);
    while (w->ntodo > 0) {
        int node = w->todo[--w->ntodo];
        if (node >= m->nvars) {
            add_reads(w, m->items[node - m->nvars].e);
            continue;
        }
        for (int i = 0; i < m->nitems; i++) {
            const mf_item *it = &m->items[i];
            if (is_assignment(it->kind) && it->var == node) {
                add_reads(w, it->e);
                add_reads(w, it->lhs);
            }
        }
    }
}

/* 1 if e names a node marked in `mark`. */
static int reads_marked(const mf_model *m, const char *mark, const mf_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR && mark[e->ref])
        return 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE &&
        mark[m->nvars + e->ref])
        return 1;
    for (int k = 0; k < e->nkids; k++)
        if (reads_marked(m, mark, e->kids[k]))
            return 1;
    return 0;
}

/* The node an item defines: its variable or its DEFINE; -1 for a
 * constraint. */
static int item_node(const mf_model *m, int i)
{
    const mf_item *it = &m->items[i];
    if (it->kind == MF_IT_DEFINE)
        return m->nvars + i;
    return is_assignment(it->kind) ? it->var : -1;
}

/* The changed part: `start` and every node whose item reads one in it, to
 * the fixpoint (forward). */
static void changed(const mf_model *m, char *mark, int start)
{
    mark[start] = 1;
    for (int grew = 1; grew;) {
        grew = 0;
        for (int i = 0; i < m->nitems; i++) {
            int node = item_node(m, i);
            if (node < 0 || mark[node])
                continue;
            if (reads_marked(m, mark, m->items[i].e) ||
                reads_marked(m, mark, m->items[i].lhs)) {
                mark[node] = 1;
                grew = 1;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Abstract values: can an expression ever be undefined or leave a domain */

typedef struct {
    int has_int;    /* some integer (or boolean) value */
    int64_t lo, hi; /* its interval */
    uint64_t sym[SYM_WORDS];
} aval;

static void av_int(aval *a, int64_t lo, int64_t hi)
{
    memset(a, 0, sizeof *a);
    a->has_int = 1;
    a->lo = lo;
    a->hi = hi;
}

static void av_join(aval *a, const aval *b)
{
    if (b->has_int) {
        if (!a->has_int || b->lo < a->lo)
            a->lo = b->lo;
        if (!a->has_int || b->hi > a->hi)
            a->hi = b->hi;
        a->has_int = 1;
    }
    for (int k = 0; k < SYM_WORDS; k++)
        a->sym[k] |= b->sym[k];
}

static int av_has_sym(const aval *a)
{
    for (int k = 0; k < SYM_WORDS; k++)
        if (a->sym[k])
            return 1;
    return 0;
}

/* Adds value v (an integer or a symbol); -1 if not tracked. */
static int av_add(aval *a, mf_val v)
{
    if (MF_IS_SYM(v)) {
        int64_t i = v - MF_SYM_BASE;
        if (i >= SYM_MAX)
            return -1;
        a->sym[i / 64] |= (uint64_t)1 << (i % 64);
        return 0;
    }
    aval b;
    av_int(&b, v, v);
    av_join(a, &b);
    return 0;
}

/* The values of a scalar type. */
static int av_type(aval *a, const mf_type *t)
{
    memset(a, 0, sizeof *a);
    switch (t->kind) {
    case MF_TY_BOOL:
        av_int(a, 0, 1);
        return 0;
    case MF_TY_RANGE:
        av_int(a, t->lo, t->hi);
        return 0;
    case MF_TY_ENUM:
        for (int i = 0; i < t->nvals; i++)
            if (av_add(a, t->vals[i]) < 0)
                return -1;
        return 0;
    default:
        return -1;
    }
}

/* 1 if every value of a is in scalar type t. */
static int av_within(const aval *a, const mf_type *t)
{
    switch (t->kind) {
    case MF_TY_BOOL:
        return !av_has_sym(a) && (!a->has_int || (a->lo >= 0 && a->hi <= 1));
    case MF_TY_RANGE:
        return !av_has_sym(a) &&
               (!a->has_int || (a->lo >= t->lo && a->hi <= t->hi));
    case MF_TY_ENUM:
        for (int i = 0; i < SYM_MAX; i++)
            if (a->sym[i / 64] >> (i % 64) & 1 &&
                !mf_type_contains(t, MF_SYM(i)))
                return 0;
        if (!a->has_int)
            return 1;
        if (a->hi - a->lo > ENUM_SPAN)
            return 0;
        for (int64_t v = a->lo; v <= a->hi; v++)
            if (!mf_type_contains(t, v))
                return 0;
        return 1;
    default:
        return 0;
    }
}

static int big(int64_t v)
{
    return v > INT_BOUND || v < -INT_BOUND;
}

/* Intervals of integer variables narrowed by the case guards on the way
 * to an expression (`h < 3 : h + 1`). */
#define ENV_MAX 8
typedef struct {
    int n;
    int var[ENV_MAX];
    int64_t lo[ENV_MAX], hi[ENV_MAX];
} env;

static int absv(const mf_model *m, const env *en, const mf_expr *e, int depth,
                aval *out);

/* The cell an ID or an INDEX of an array variable names: its scalar
 * type, if its index is surely within bounds. */
static const mf_type *cell_type(const mf_model *m, const env *en,
                                const mf_expr *e, int depth)
{
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        const mf_type *t = m->vars[e->ref].type;
        return t->kind == MF_TY_ARRAY ? NULL : t;
    }
    if (e->kind == MF_E_NEXT)
        return cell_type(m, NULL, e->kids[0], depth);
    if (e->kind != MF_E_INDEX || e->kids[0]->kind != MF_E_ID ||
        e->kids[0]->ref_kind != MF_REF_VAR)
        return NULL;
    const mf_type *at = m->vars[e->kids[0]->ref].type;
    aval ix;
    if (at->kind != MF_TY_ARRAY || absv(m, en, e->kids[1], depth, &ix) < 0 ||
        av_has_sym(&ix) || !ix.has_int || ix.lo < at->lo || ix.hi > at->hi ||
        at->elem->kind == MF_TY_ARRAY)
        return NULL;
    return at->elem;
}

/* Narrows the intervals of en by guard g where it is a conjunction of
 * comparisons of an integer variable with a constant; the rest of g is
 * ignored (the intervals stay supersets). */
static void narrow(const mf_model *m, env *en, const mf_expr *g)
{
    if (g->kind != MF_E_BIN)
        return;
    if (g->op == MF_OP_AND) {
        narrow(m, en, g->kids[0]);
        narrow(m, en, g->kids[1]);
        return;
    }
    const mf_expr *a = g->kids[0], *b = g->kids[1];
    int op = g->op;
    if (a->kind == MF_E_INT && b->kind == MF_E_ID) {
        const mf_expr *t = a;
        a = b;
        b = t;
        op = op == MF_OP_LT   ? MF_OP_GT
             : op == MF_OP_LE ? MF_OP_GE
             : op == MF_OP_GT ? MF_OP_LT
             : op == MF_OP_GE ? MF_OP_LE
                              : op;
    }
    if (a->kind != MF_E_ID || a->ref_kind != MF_REF_VAR ||
        b->kind != MF_E_INT || m->vars[a->ref].type->kind != MF_TY_RANGE)
        return;
    int k = 0;
    while (k < en->n && en->var[k] != a->ref)
        k++;
    if (k == en->n) {
        if (en->n == ENV_MAX)
            return;
        en->n++;
        en->var[k] = a->ref;
        en->lo[k] = m->vars[a->ref].type->lo;
        en->hi[k] = m->vars[a->ref].type->hi;
    }
    int64_t c = b->ival, lo = en->lo[k], hi = en->hi[k];
    switch (op) {
    case MF_OP_EQ: lo = lo > c ? lo : c; hi = hi < c ? hi : c; break;
    case MF_OP_LT: hi = hi < c - 1 ? hi : c - 1; break;
    case MF_OP_LE: hi = hi < c ? hi : c; break;
    case MF_OP_GT: lo = lo > c + 1 ? lo : c + 1; break;
    case MF_OP_GE: lo = lo > c ? lo : c; break;
    default: break;
    }
    if (lo <= hi) { /* else the branch is never taken: keep a superset */
        en->lo[k] = lo;
        en->hi[k] = hi;
    }
}

static int absv_bin(const mf_model *m, const env *en, const mf_expr *e,
                    int depth, aval *out)
{
    aval l, r;
    if (absv(m, en, e->kids[0], depth, &l) < 0 ||
        absv(m, en, e->kids[1], depth, &r) < 0)
        return -1;
    if (e->op == MF_OP_UNION) {
        *out = l;
        av_join(out, &r);
        return 0;
    }
    if (e->op < MF_OP_ADD || e->op == MF_OP_IN) {
        av_int(out, 0, 1);
        return 0;
    }
    if (av_has_sym(&l) || av_has_sym(&r) || !l.has_int || !r.has_int)
        return -1;
    int64_t c[4];
    switch (e->op) {
    case MF_OP_ADD:
        av_int(out, l.lo + r.lo, l.hi + r.hi);
        break;
    case MF_OP_SUB:
        av_int(out, l.lo - r.hi, l.hi - r.lo);
        break;
    case MF_OP_MUL:
        c[0] = l.lo * r.lo, c[1] = l.lo * r.hi;
        c[2] = l.hi * r.lo, c[3] = l.hi * r.hi;
        av_int(out, c[0], c[0]);
        for (int k = 1; k < 4; k++) {
            aval b;
            av_int(&b, c[k], c[k]);
            av_join(out, &b);
        }
        break;
    case MF_OP_DIV:
    case MF_OP_MOD: {
        if (r.lo <= 0 && r.hi >= 0)
            return -1; /* may divide by zero: undefined */
        int64_t a = l.lo < 0 ? -l.lo : l.lo, b = r.lo < 0 ? -r.lo : r.lo;
        if ((l.hi < 0 ? -l.hi : l.hi) > a)
            a = l.hi < 0 ? -l.hi : l.hi;
        if ((r.hi < 0 ? -r.hi : r.hi) > b)
            b = r.hi < 0 ? -r.hi : r.hi;
        if (e->op == MF_OP_DIV)
            av_int(out, -a, a);
        else
            av_int(out, -(b - 1), b - 1);
        break;
    }
    default:
        return -1;
    }
    return big(out->lo) || big(out->hi) ? -1 : 0;
}

static int absv_call(const mf_model *m, const env *en, const mf_expr *e,
                     int depth, aval *out)
{
    aval a[2];
    for (int k = 0; k < e->nkids; k++) {
        aval t;
        if (absv(m, en, e->kids[k], depth, &t) < 0)
            return -1;
        if (k < 2)
            a[k] = t;
    }
    switch (e->op) {
    case MF_FN_BOOL:
        av_int(out, 0, 1);
        return 0;
    case MF_FN_COUNT:
        av_int(out, 0, e->nkids);
        return 0;
    default:
        break;
    }
    if (e->nkids < 1 || av_has_sym(&a[0]) || !a[0].has_int)
        return -1;
    switch (e->op) {
    case MF_FN_TOINT:
        *out = a[0];
        return 0;
    case MF_FN_ABS: {
        int64_t lo = a[0].lo, hi = a[0].hi;
        int64_t mx = (lo < 0 ? -lo : lo) > (hi < 0 ? -hi : hi)
                         ? (lo < 0 ? -lo : lo)
                         : (hi < 0 ? -hi : hi);
        av_int(out, lo >= 0 ? lo : hi <= 0 ? -hi : 0, mx);
        return 0;
    }
    case MF_FN_MIN:
    case MF_FN_MAX:
        if (e->nkids != 2 || av_has_sym(&a[1]) || !a[1].has_int)
            return -1;
        *out = a[0];
        av_join(out, &a[1]); /* a superset of min and of max */
        return 0;
    default:
        return -1;
    }
}

/* A superset of e's values in any state and under any input, 0 if e is
 * surely defined there, else -1 (unknown). */
static int absv(const mf_model *m, const env *en, const mf_expr *e, int depth,
                aval *out)
{
    memset(out, 0, sizeof *out);
    if (++depth > MAX_DEPTH)
        return -1;
    switch (e->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
        av_int(out, e->ival, e->ival);
        return big(e->ival) ? -1 : 0;
    case MF_E_SYM: {
        int i = mf_model_find_sym(m, e->name);
        return i < 0 ? -1 : av_add(out, MF_SYM(i));
    }
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE)
            return absv(m, en, m->items[e->ref].e, depth, out);
        /* fallthrough */
    case MF_E_NEXT:
    case MF_E_INDEX: {
        const mf_type *t = cell_type(m, en, e, depth);
        if (!t || av_type(out, t) < 0)
            return -1;
        for (int k = 0; en && k < en->n && e->kind == MF_E_ID; k++)
            if (en->var[k] == e->ref)
                av_int(out, en->lo[k], en->hi[k]);
        return 0;
    }
    case MF_E_NOT:
        if (absv(m, en, e->kids[0], depth, out) < 0)
            return -1;
        av_int(out, 0, 1);
        return 0;
    case MF_E_NEG:
        if (absv(m, en, e->kids[0], depth, out) < 0 || av_has_sym(out) ||
            !out->has_int)
            return -1;
        av_int(out, -out->hi, -out->lo);
        return 0;
    case MF_E_BIN:
        return absv_bin(m, en, e, depth, out);
    case MF_E_CASE: {
        int total = 0;
        for (int k = 0; k + 1 < e->nkids && !total; k += 2) {
            aval c, v;
            env inner = en ? *en : (env){0};
            narrow(m, &inner, e->kids[k]);
            if (absv(m, en, e->kids[k], depth, &c) < 0 ||
                absv(m, &inner, e->kids[k + 1], depth, &v) < 0)
                return -1;
            av_join(out, &v);
            total = (e->kids[k]->kind == MF_E_BOOL ||
                     e->kids[k]->kind == MF_E_INT) &&
                    e->kids[k]->ival;
        }
        return total ? 0 : -1; /* else no branch may be true */
    }
    case MF_E_ITE:
    case MF_E_SET:
        for (int k = e->kind == MF_E_ITE; k < e->nkids; k++) {
            aval v;
            if (absv(m, en, e->kids[k], depth, &v) < 0)
                return -1;
            av_join(out, &v);
        }
        if (e->kind == MF_E_ITE) {
            aval c;
            return absv(m, en, e->kids[0], depth, &c);
        }
        return e->nkids > 0 ? 0 : -1;
    case MF_E_RANGE: {
        aval a, b;
        if (absv(m, en, e->kids[0], depth, &a) < 0 ||
            absv(m, en, e->kids[1], depth, &b) < 0 || av_has_sym(&a) ||
            av_has_sym(&b) || !a.has_int || !b.has_int || a.hi > b.lo)
            return -1; /* may be empty: no value */
        av_int(out, a.lo, b.hi);
        return 0;
    }
    case MF_E_CALL:
        return absv_call(m, en, e, depth, out);
    default:
        return -1;
    }
}

/* 1 if assignment `it` of m has a value in its cell's domain in every
 * state and under every input. */
static int total(const mf_model *m, const mf_item *it)
{
    const mf_type *t = cell_type(m, NULL, it->lhs, 0);
    aval a;
    return t && absv(m, NULL, it->e, 0, &a) == 0 && av_within(&a, t);
}

int mf_coi_total(const mf_model *m, const mf_item *it)
{
    return is_assignment(it->kind) && total(m, it);
}

/* 1 if every assignment of m to a variable marked in `mark` is total. */
static int all_total(const mf_model *m, const char *mark)
{
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        if (is_assignment(it->kind) && mark[it->var] && !total(m, it))
            return 0;
    }
    return 1;
}

int mf_coi_irrelevant(const mf_model *m, const mf_model *mut, int item)
{
    if (item < 0 || item >= m->nitems || !mut || mut->nvars != m->nvars)
        return 0;
    int start = item_node(m, item);
    if (start < 0 || (start < m->nvars && m->vars[start].is_input))
        return 0;
    int nnodes = m->nvars + m->nitems;
    walk w = {m, mf_xcalloc((size_t)nnodes, 1),
              mf_xcalloc((size_t)nnodes, sizeof(int)), 0};
    cone(&w);
    int ok = !w.mark[start];
    if (ok) {
        memset(w.mark, 0, (size_t)nnodes);
        changed(m, w.mark, start);
        ok = all_total(m, w.mark) && all_total(mut, w.mark);
    }
    free(w.mark);
    free(w.todo);
    return ok;
}
