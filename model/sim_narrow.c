/* sim_narrow.c - the values of the slot being assigned that a constraint
 * still allows (sim_int.h): where a constraint is checked right after a
 * slot is assigned, and it relates that slot to values already known
 * (`next(x) = x`, `next(x) - x <= 3`, conjunctions and disjunctions of
 * such), the enumeration tries only the values in the allowed intervals
 * instead of every candidate with a check each. This is how a TRANS that
 * lets an environment variable free in `next(x) := 0..200` move by a few
 * steps costs a few candidates, not the whole domain.
 *
 * The intervals are a superset: every value outside them makes the
 * constraint's value set {FALSE}, with no error, so a value skipped is
 * one the check would have refused; the values inside are still checked.
 * Where an expression reads the slot in a way not recognised here (through
 * a DEFINE, a negation, a case), or a part not reading it has no value or
 * fails, there is no narrowing at all. It evaluates with eval.c and
 * enumerates nothing. */
#include "sim_int.h"

#include <stdint.h>
#include <stdlib.h>

#define NARROW_DEPTH 64
/* Values beyond this are left to the check: sums of a few of them stay
 * within the simulator's integers (eval.c's overflow at MF_SYM_BASE). */
#define NARROW_MAX ((int64_t)1 << 30)

typedef struct {
    const mf_model *m;
    int slot;          /* the slot being assigned */
    int st_as_cur;     /* the item reads the state being built as current */
    const mf_val *cur; /* successors: the current state */
    const mf_val *st;  /* the state being built */
    mf_valset vals;    /* scratch for evaluations */
} nctx;

/* The slot's own read: next(x) (a TRANS) or x (an INVAR, init, invariant)
 * for the scalar, non-word variable x in that slot. */
static int is_slot(const nctx *c, const mf_expr *e)
{
    if (!c->st_as_cur) {
        if (e->kind != MF_E_NEXT)
            return 0;
        e = e->kids[0];
    }
    if (e->kind != MF_E_ID || e->ref_kind != MF_REF_VAR)
        return 0;
    const mf_var *v = &c->m->vars[e->ref];
    return v->slot == c->slot && v->nslots == 1 && v->type->wty == 0 &&
           v->type->kind != MF_TY_ARRAY;
}

/* 1 if e may read the slot (through DEFINEs); in_next: under next(). */
static int reads(const nctx *c, const mf_expr *e, int in_next, int depth)
{
    if (depth > NARROW_DEPTH)
        return 1;
    if (e->kind == MF_E_NEXT)
        return reads(c, e->kids[0], 1, depth + 1);
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        const mf_var *v = &c->m->vars[e->ref];
        int in_st = c->st_as_cur || in_next;
        return in_st && c->slot >= v->slot && c->slot < v->slot + v->nslots;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return reads(c, c->m->items[e->ref].e, in_next, depth + 1);
    for (int i = 0; i < e->nkids; i++)
        if (reads(c, e->kids[i], in_next, depth + 1))
            return 1;
    return 0;
}

/* e's values, which do not depend on the slot, into c->vals: 0, or 1
 * where there is none or the evaluation fails. */
static int values(nctx *c, const mf_expr *e)
{
    c->vals.n = 0;
    int rc = c->st_as_cur
                 ? mf_eval(&c->vals, c->m, e, c->st, NULL, c->st, EVAL_LIMIT)
                 : mf_eval(&c->vals, c->m, e, c->cur, c->st, c->st, EVAL_LIMIT);
    return rc < 0 || c->vals.n == 0;
}

/* Interval sets: ascending, disjoint, not adjacent. */
static void iv_all(mf_ivset *s)
{
    s->n = 0;
    mf_ival a = {INT64_MIN + 1, INT64_MAX};
    MF_VEC_PUSH(*s, a);
}

static void iv_add(mf_ivset *s, mf_val lo, mf_val hi)
{
    if (lo > hi)
        return;
    mf_ival a = {lo, hi};
    MF_VEC_PUSH(*s, a);
}

static int cmp_ival(const void *a, const void *b)
{
    const mf_ival *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Sorted and merged in place. */
static void iv_norm(mf_ivset *s)
{
    if (s->n < 2)
        return;
    qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_ival);
    int w = 0;
    for (int i = 1; i < s->n; i++) {
        if (s->v[i].lo <= s->v[w].hi ||
            (s->v[w].hi < INT64_MAX && s->v[i].lo == s->v[w].hi + 1)) {
            if (s->v[i].hi > s->v[w].hi)
                s->v[w].hi = s->v[i].hi;
        } else
            s->v[++w] = s->v[i];
    }
    s->n = w + 1;
}

void mf_sim_iv_meet(mf_ivset *a, const mf_ivset *b)
{
    mf_ivset r = {0};
    for (int i = 0, j = 0; i < a->n && j < b->n;) {
        mf_val lo = a->v[i].lo > b->v[j].lo ? a->v[i].lo : b->v[j].lo;
        mf_val hi = a->v[i].hi < b->v[j].hi ? a->v[i].hi : b->v[j].hi;
        iv_add(&r, lo, hi);
        if (a->v[i].hi < b->v[j].hi)
            i++;
        else
            j++;
    }
    MF_VEC_FREE(*a);
    *a = r;
}

/* e as k * x + off with k in {-1, 0, 1} (x the slot), off one value:
 * 0, or 1 if e is not of that form. */
static int linear(nctx *c, const mf_expr *e, int *k, mf_val *off, int depth)
{
    if (depth > NARROW_DEPTH)
        return 1;
    if (is_slot(c, e)) {
        const mf_type *t = c->m->vars[c->st_as_cur ? e->ref : e->kids[0]->ref]
                               .type;
        *k = 1;
        *off = 0;
        /* Arithmetic on the slot only for small bounded integers. */
        return t->kind != MF_TY_RANGE || t->unbounded || t->lo < -NARROW_MAX ||
               t->hi > NARROW_MAX;
    }
    if (!reads(c, e, 0, 0)) {
        if (values(c, e) || c->vals.n != 1 || c->vals.v[0] > NARROW_MAX ||
            c->vals.v[0] < -NARROW_MAX)
            return 1;
        *k = 0;
        *off = c->vals.v[0];
        return 0;
    }
    if (e->kind != MF_E_BIN || (e->op != MF_OP_ADD && e->op != MF_OP_SUB) ||
        e->wty)
        return 1;
    int k1, k2;
    mf_val o1, o2;
    if (linear(c, e->kids[0], &k1, &o1, depth + 1) ||
        linear(c, e->kids[1], &k2, &o2, depth + 1))
        return 1;
    *k = e->op == MF_OP_ADD ? k1 + k2 : k1 - k2;
    *off = e->op == MF_OP_ADD ? o1 + o2 : o1 - o2;
    return *k < -1 || *k > 1 || *off > NARROW_MAX || *off < -NARROW_MAX;
}

static int flip(int op)
{
    switch (op) {
    case MF_OP_LT: return MF_OP_GT;
    case MF_OP_LE: return MF_OP_GE;
    case MF_OP_GT: return MF_OP_LT;
    case MF_OP_GE: return MF_OP_LE;
    default: return op;
    }
}

/* x op d as intervals, added to out. */
static void compare(mf_ivset *out, int op, mf_val d)
{
    switch (op) {
    case MF_OP_EQ: iv_add(out, d, d); break;
    case MF_OP_NE:
        iv_add(out, INT64_MIN + 1, d - 1);
        iv_add(out, d + 1, INT64_MAX);
        break;
    case MF_OP_LT: iv_add(out, INT64_MIN + 1, d - 1); break;
    case MF_OP_LE: iv_add(out, INT64_MIN + 1, d); break;
    case MF_OP_GT: iv_add(out, d + 1, INT64_MAX); break;
    case MF_OP_GE: iv_add(out, d, INT64_MAX); break;
    }
}

/* The slot's values for which the comparison e can be TRUE: 0, or 1 if
 * not recognised. The side without the slot may have several values. */
static int relation(nctx *c, const mf_expr *e, mf_ivset *out)
{
    const mf_expr *l = e->kids[0], *r = e->kids[1];
    int op = e->op;
    if (op != MF_OP_EQ && op != MF_OP_NE && (l->wty || r->wty))
        return 1;
    if (!reads(c, l, 0, 0)) { /* d op x: x flip(op) d */
        const mf_expr *t = l;
        l = r;
        r = t;
        op = flip(op);
    }
    if (reads(c, r, 0, 0))
        return 1;
    int k;
    mf_val off;
    if (is_slot(c, l)) {
        k = 1;
        off = 0;
    } else if (op == MF_OP_EQ || op == MF_OP_NE || linear(c, l, &k, &off, 0) ||
               k == 0)
        return 1;
    /* k * x + off op d for each value d of r. */
    if (values(c, r))
        return 1;
    out->n = 0;
    for (int i = 0; i < c->vals.n; i++) {
        mf_val d = c->vals.v[i];
        if (k != 1 || off != 0) {
            if (d > NARROW_MAX || d < -NARROW_MAX)
                return 1;
            d -= off;
            if (k < 0)
                d = -d;
        }
        compare(out, k < 0 ? flip(op) : op, d);
    }
    iv_norm(out);
    return 0;
}

/* The slot's values for which e can be TRUE, into out: 0, or 1 if not
 * recognised. */
static int allowed(nctx *c, const mf_expr *e, mf_ivset *out, int depth)
{
    if (depth > NARROW_DEPTH)
        return 1;
    if (!reads(c, e, 0, 0)) {
        if (values(c, e))
            return 1;
        out->n = 0;
        for (int i = 0; i < c->vals.n; i++)
            if (c->vals.v[i]) {
                iv_all(out);
                break;
            }
        return 0;
    }
    if (is_slot(c, e)) { /* a boolean slot as a condition */
        out->n = 0;
        if (c->m->vars[c->st_as_cur ? e->ref : e->kids[0]->ref].type->kind !=
            MF_TY_BOOL)
            return 1;
        iv_add(out, 1, 1);
        return 0;
    }
    if (e->kind != MF_E_BIN)
        return 1;
    switch (e->op) {
    case MF_OP_AND:
    case MF_OP_OR: {
        mf_ivset b = {0};
        int rc = allowed(c, e->kids[0], out, depth + 1) ||
                 allowed(c, e->kids[1], &b, depth + 1);
        if (!rc && e->op == MF_OP_AND)
            mf_sim_iv_meet(out, &b);
        else if (!rc) {
            for (int i = 0; i < b.n; i++)
                MF_VEC_PUSH(*out, b.v[i]);
            iv_norm(out);
        }
        MF_VEC_FREE(b);
        return rc;
    }
    case MF_OP_EQ:
    case MF_OP_NE:
    case MF_OP_LT:
    case MF_OP_LE:
    case MF_OP_GT:
    case MF_OP_GE: return relation(c, e, out);
    default: return 1;
    }
}

int mf_sim_iv_has(const mf_ivset *s, mf_val v)
{
    int lo = 0, hi = s->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (v < s->v[mid].lo)
            hi = mid - 1;
        else if (v > s->v[mid].hi)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

int mf_sim_narrow(mf_ivset *out, const plan *p, int item, int slot,
                  const mf_val *cur, const mf_val *st)
{
    const mf_item *it = &p->m->items[item];
    nctx c = {p->m, slot, reads_st_as_cur(p, it), cur, st, {0}};
    out->n = 0;
    int rc = allowed(&c, it->e, out, 0);
    MF_VEC_FREE(c.vals);
    return rc ? 0 : 1;
}
