/* sim_plan.c - the simulator's plans (sim_int.h): for one model, initial
 * states or successors, with an input or without, the order in which a
 * state's slots are assigned (dependencies through DEFINEs; a cycle is a
 * combinational loop and an error), the constraints checked as soon as
 * the last slot they read is assigned, and the domains a search keeps. A
 * plan depends on the model and the kind of enumeration, not on the
 * values of the state and the input, so the model keeps it (built on
 * first use, published through an atomic); the one exception, next(a[i])
 * with i read in the current state, is planned for each enumeration. It
 * enumerates nothing: sim.c does, along a plan. */
#include "sim_int.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scratch for building a plan. */
typedef struct {
    plan *p;
    const mf_val *cur; /* successors: the current state */
    mf_val *st;        /* st0 with the input's IVAR values */
    int *stamp;        /* per slot, for dependency collection */
    int *dstamp;       /* per item x 2, DEFINEs already walked */
    int cur_stamp;
} builder;

/* ------------------------------------------------------------------ */
/* Constants                                                            */

/* 1 if e reads no variable (through DEFINEs) and no next(). */
static int is_const(const mf_model *m, const mf_expr *e, int depth)
{
    if (depth > 512)
        return 0;
    if (e->kind == MF_E_NEXT)
        return 0;
    if (e->kind == MF_E_ID) {
        if (e->ref_kind != MF_REF_DEFINE)
            return 0;
        return is_const(m, m->items[e->ref].e, depth + 1);
    }
    for (int i = 0; i < e->nkids; i++)
        if (!is_const(m, e->kids[i], depth))
            return 0;
    return 1;
}

/* The single value of a constant expression; 0 and *v, 1 if it has not
 * exactly one value, or a negative code. */
static int const_value(const mf_model *m, const mf_expr *e, mf_val *v)
{
    mf_valset s = {0};
    int rc = mf_eval(&s, m, e, NULL, NULL, NULL, EVAL_LIMIT);
    if (rc == 0) {
        rc = s.n == 1 ? 0 : 1;
        if (s.n == 1)
            *v = s.v[0];
    }
    MF_VEC_FREE(s);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Dependencies                                                         */

static void add_dep(builder *b, int slot, intvec *out)
{
    if (b->stamp[slot] != b->cur_stamp) {
        b->stamp[slot] = b->cur_stamp;
        MF_VEC_PUSH(*out, slot);
    }
}

static void deps(builder *b, const mf_expr *e, int in_next, int st_cur,
                 intvec *out, int depth);

/* The slot range an array reference denotes (narrowed by constant indices),
 * collecting the dependencies of its index expressions. 0 if e is not a
 * reference to a variable. */
static int ref_range(builder *b, const mf_expr *e, int in_next, int st_cur,
                     intvec *out, int depth, int *lo, int *cnt,
                     const mf_type **ty, int *var, int *rd_next)
{
    const mf_model *m = b->p->m;
    if (depth > 512)
        return 0;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        const mf_var *v = &m->vars[e->ref];
        *lo = v->slot;
        *cnt = v->nslots;
        *ty = v->type;
        *var = e->ref;
        *rd_next = in_next;
        return 1;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return ref_range(b, m->items[e->ref].e, in_next, st_cur, out, depth + 1,
                         lo, cnt, ty, var, rd_next);
    if (e->kind == MF_E_NEXT)
        return ref_range(b, e->kids[0], 1, st_cur, out, depth, lo, cnt, ty, var,
                         rd_next);
    if (e->kind != MF_E_INDEX)
        return 0;
    if (!ref_range(b, e->kids[0], in_next, st_cur, out, depth, lo, cnt, ty, var,
                   rd_next) ||
        (*ty)->kind != MF_TY_ARRAY)
        return 0;
    deps(b, e->kids[1], in_next, st_cur, out, depth);
    const mf_type *at = *ty;
    mf_val i = 0;
    *ty = at->elem;
    if (is_const(m, e->kids[1], 0) && const_value(m, e->kids[1], &i) == 0) {
        int64_t ec = type_cells(at->elem);
        if (i < at->lo || i > at->hi)
            *cnt = 0;
        else {
            *lo += (int)((i - at->lo) * ec);
            *cnt = (int)ec;
        }
    }
    return 1;
}

/* Collect into out the slots of the state being built that e reads:
 * IVARs always (their values for this step sit in that state), others
 * inside next(), or everywhere when that state is the current one (st_cur). */
static void deps(builder *b, const mf_expr *e, int in_next, int st_cur,
                 intvec *out, int depth)
{
    const mf_model *m = b->p->m;
    if (depth > 512)
        return; /* eval.c reports the cycle */
    switch (e->kind) {
    case MF_E_ID:
    case MF_E_INDEX:
        if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE &&
            m->items[e->ref].e) {
            int k = 2 * e->ref + in_next;
            if (b->dstamp[k] == b->cur_stamp)
                return;
            b->dstamp[k] = b->cur_stamp;
            deps(b, m->items[e->ref].e, in_next, st_cur, out, depth + 1);
            return;
        }
        {
            int lo, cnt, var, rd_next;
            const mf_type *ty;
            if (ref_range(b, e, in_next, st_cur, out, depth, &lo, &cnt, &ty,
                          &var, &rd_next)) {
                const mf_var *v = &m->vars[var];
                if (is_ivar(v) || rd_next || st_cur)
                    for (int s = lo; s < lo + cnt; s++)
                        add_dep(b, s, out);
                return;
            }
        }
        break;
    case MF_E_NEXT:
        deps(b, e->kids[0], 1, st_cur, out, depth);
        return;
    default:
        break;
    }
    for (int i = 0; i < e->nkids; i++)
        deps(b, e->kids[i], in_next, st_cur, out, depth);
}

static void item_deps(builder *b, const mf_item *it, intvec *out)
{
    out->n = 0;
    b->cur_stamp++;
    deps(b, it->e, 0, reads_st_as_cur(b->p, it), out, 0);
}

/* 1 if e may have more than one value: it contains a set, a range or a
 * union (through DEFINEs). Conservative: `x in {1, 2}` counts. */
static int may_branch(builder *b, const mf_expr *e, int depth)
{
    if (depth > 512)
        return 1;
    if (e->kind == MF_E_SET || e->kind == MF_E_RANGE ||
        (e->kind == MF_E_BIN && e->op == MF_OP_UNION))
        return 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE) {
        if (b->dstamp[2 * e->ref] == b->cur_stamp)
            return 0; /* already walked: it did not branch */
        b->dstamp[2 * e->ref] = b->cur_stamp;
        return may_branch(b, b->p->m->items[e->ref].e, depth + 1);
    }
    for (int i = 0; i < e->nkids; i++)
        if (may_branch(b, e->kids[i], depth))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Planning                                                             */

void mf_sim_plan_free(plan *p)
{
    if (!p)
        return;
    if (p->dom)
        for (int i = 0; i < p->m->nvars; i++)
            free(p->dom[i].v);
    if (p->checks)
        for (int k = 0; k <= p->norder; k++)
            MF_VEC_FREE(p->checks[k]);
    free(p->checks);
    free(p->dom);
    free(p->msg);
    free(p->st0);
    free(p->from);
    free(p->src);
    free(p->svar);
    free(p->sty);
    free(p->pos);
    free(p->order);
    free(p->eqx);
    free(p->eqit);
    free(p);
}

static void plan_cache_free(mf_model_cache *c)
{
    mf_sim_plan_free((plan *)c);
}

/* The cell an assignment's left-hand side names. 0 and *slot; 1 if its
 * index is out of bounds (no state satisfies it); a negative code. */
static int lhs_cell(builder *b, const mf_item *it, const mf_expr *e, int *slot,
                    const mf_type **ty)
{
    plan *p = b->p;
    const mf_model *m = p->m;
    int rc;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *slot = m->vars[e->ref].slot;
        *ty = m->vars[e->ref].type;
        return 0;
    }
    if (e->kind != MF_E_INDEX)
        return mf_err_set(MF_EUNSUPPORTED,
                          "%s:%d:%d: unsupported: this left-hand side",
                          mfile(m), e->line, e->col);
    if ((rc = lhs_cell(b, it, e->kids[0], slot, ty)) != 0)
        return rc;
    const mf_type *at = *ty;
    if (at->kind != MF_TY_ARRAY)
        return mf_err_set(MF_ETYPE,
                          "%s:%d:%d: error: only arrays can be "
                          "indexed",
                          mfile(m), e->line, e->col);
    /* next(a[i]) := ...: i is read in the current state; unless constant
     * it ties the plan to that state. The index of an init or invariant
     * assignment would depend on the state being built: it must be
     * constant. */
    mf_valset s = {0};
    if (it->kind == MF_IT_NEXT && !p->init) {
        if (!is_const(m, e->kids[1], 0))
            p->per_state = 1;
        rc = mf_eval(&s, m, e->kids[1], b->cur, NULL, b->st, EVAL_LIMIT);
    } else if (is_const(m, e->kids[1], 0))
        rc = mf_eval(&s, m, e->kids[1], NULL, NULL, NULL, EVAL_LIMIT);
    else
        rc = mf_err_set(MF_EUNSUPPORTED,
                        "%s:%d:%d: unsupported: the index of an init() or "
                        "invariant assignment must be constant",
                        mfile(m), e->kids[1]->line, e->kids[1]->col);
    if (rc == 0 && s.n > 1)
        rc = mf_err_set(MF_EUNSUPPORTED,
                        "%s:%d:%d: unsupported: a non-deterministic index "
                        "on the left of an assignment",
                        mfile(m), e->kids[1]->line, e->kids[1]->col);
    if (rc == 0 && (s.n == 0 || s.v[0] < at->lo || s.v[0] > at->hi))
        rc = 1;
    if (rc == 0) {
        *slot += (int)((s.v[0] - at->lo) * type_cells(at->elem));
        *ty = at->elem;
    }
    MF_VEC_FREE(s);
    return rc;
}

static int is_source(const plan *p, const mf_item *it)
{
    if (it->kind == MF_IT_ASSIGN)
        return 1;
    return it->kind == (p->init ? MF_IT_INIT : MF_IT_NEXT);
}

static int is_constraint(const plan *p, const mf_item *it)
{
    if (it->kind == MF_IT_INVAR_C)
        return 1;
    return it->kind == (p->init ? MF_IT_INIT_C : MF_IT_TRANS_C);
}

static void heap_push(intvec *h, int x)
{
    MF_VEC_PUSH(*h, x);
    for (int i = h->n - 1; i > 0;) {
        int up = (i - 1) / 2;
        if (h->v[up] <= h->v[i])
            break;
        int t = h->v[up];
        h->v[up] = h->v[i];
        h->v[i] = t;
        i = up;
    }
}

static int heap_pop(intvec *h)
{
    int top = h->v[0];
    h->v[0] = h->v[--h->n];
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, s = i;
        if (l < h->n && h->v[l] < h->v[s])
            s = l;
        if (r < h->n && h->v[r] < h->v[s])
            s = r;
        if (s == i)
            break;
        int t = h->v[s];
        h->v[s] = h->v[i];
        h->v[i] = t;
        i = s;
    }
    return top;
}

static int cycle_error(const plan *p, const int *indeg)
{
    const mf_model *m = p->m;
    mf_buf b = {0};
    int first = -1, shown = 0, last_var = -1;
    for (int s = 0; s < m->nslots; s++) {
        if (p->pos[s] != -2 || indeg[s] == 0 || p->src[s] < 0)
            continue;
        const mf_item *it = &m->items[p->src[s]];
        if (first < 0)
            first = p->src[s];
        if (p->svar[s] == last_var)
            continue;
        last_var = p->svar[s];
        if (shown++ < 6) {
            const char *f = it->kind == MF_IT_ASSIGN ? "%s%s"
                            : p->init                ? "%sinit(%s)"
                                                     : "%snext(%s)";
            mf_buf_printf(&b, f, shown > 1 ? ", " : "",
                          m->vars[p->svar[s]].name);
        }
    }
    const mf_item *it = first >= 0 ? &m->items[first] : NULL;
    int rc = mf_err_set(MF_ETYPE,
                        "%s:%d:%d: error: combinational loop: %s depend on "
                        "each other",
                        mfile(m), it ? it->line : 0, it ? it->col : 0,
                        b.data ? b.data : "assignments");
    mf_buf_free(&b);
    return rc;
}

/* Order the slots to assign and attach every constraint to the point where
 * its last slot is known. Sets p->rc: 0, 1 if no state can exist (an
 * assignment's index is out of bounds), or a negative code. cur and inp are
 * read only for next(a[i]) indices (which set p->per_state). */
/* ------------------------------------------------------------------ */
/* Candidates from equalities                                           */

/* A relational model (TRANS next(x) = e, INIT x = e, no assignment)
 * would have its slots searched over their whole domains, each value
 * then checked: where a conjunct of a constraint is such an equality and
 * e reads only slots assigned before x, the values of e are x's only
 * candidates (every value of x that lets the conjunct hold is one of
 * them). The constraint is still checked where it was, so the states
 * enumerated and their order are the same. Words and unbounded integers
 * keep their domains. */

/* The slot `ref` names (next(ref) when in_next), a scalar of a bool, enum
 * or bounded range type, or -1. */
static int eq_target(builder *b, const mf_expr *ref, int in_next)
{
    intvec idx = {0};
    int lo, cnt, var, rd_next, slot = -1;
    const mf_type *ty;
    if (in_next != (ref->kind == MF_E_NEXT))
        return -1;
    b->cur_stamp++;
    if (ref_range(b, ref, 0, 0, &idx, 0, &lo, &cnt, &ty, &var, &rd_next) &&
        rd_next == in_next && cnt == 1 && idx.n == 0 &&
        (ty->kind == MF_TY_BOOL || ty->kind == MF_TY_ENUM ||
         (ty->kind == MF_TY_RANGE && !ty->wty && !ty->unbounded)))
        slot = lo;
    MF_VEC_FREE(idx);
    return slot;
}

/* 1 if every slot e reads (besides preassigned ones) comes before slot s
 * in the order. */
static int eq_reads_before(builder *b, const mf_item *it, const mf_expr *e,
                           int s, intvec *dv)
{
    dv->n = 0;
    b->cur_stamp++;
    deps(b, e, 0, reads_st_as_cur(b->p, it), dv, 0);
    for (int j = 0; j < dv->n; j++)
        if (b->p->pos[dv->v[j]] >= b->p->pos[s])
            return 0;
    return 1;
}

/* Walk the conjuncts of constraint item i for equalities `slot = e`. */
static void eq_walk(builder *b, int i, const mf_expr *e, intvec *dv)
{
    plan *p = b->p;
    const mf_item *it = &p->m->items[i];
    if (e->kind == MF_E_BIN && e->op == MF_OP_AND) {
        eq_walk(b, i, e->kids[0], dv);
        eq_walk(b, i, e->kids[1], dv);
        return;
    }
    if (e->kind != MF_E_BIN || e->op != MF_OP_EQ)
        return;
    int in_next = !reads_st_as_cur(p, it);
    for (int side = 0; side < 2; side++) {
        int s = eq_target(b, e->kids[side], in_next);
        if (s < 0 || p->pos[s] < 0 || p->from[s] != SL_SEARCH ||
            p->src[s] >= 0 || p->eqx[s] ||
            !eq_reads_before(b, it, e->kids[1 - side], s, dv))
            continue;
        p->eqx[s] = e->kids[1 - side];
        p->eqit[s] = i;
        return;
    }
}

static void eq_plan(builder *b)
{
    plan *p = b->p;
    const mf_model *m = p->m;
    intvec dv = {0};
    p->eqx = mf_xcalloc((size_t)(m->nslots ? m->nslots : 1), sizeof *p->eqx);
    p->eqit = mf_xcalloc((size_t)(m->nslots ? m->nslots : 1), sizeof *p->eqit);
    for (int i = 0; i < m->nitems; i++)
        if (is_constraint(p, &m->items[i]))
            eq_walk(b, i, m->items[i].e, &dv);
    MF_VEC_FREE(dv);
}

static void plan_build(plan *p, const mf_val *cur, const mf_val *inp)
{
    const mf_model *m = p->m;
    int n = m->nslots, rc = 0;
    int *indeg = NULL;
    intvec *rdeps = NULL, dv = {0}, heap = {0};
    builder b = {0};

    b.p = p;
    b.cur = cur;
    b.st = mf_xmalloc((size_t)(n ? n : 1) * sizeof(*b.st));
    b.stamp = mf_xcalloc((size_t)(n ? n : 1), sizeof(*b.stamp));
    b.dstamp = mf_xcalloc((size_t)(2 * m->nitems + 1), sizeof(*b.dstamp));
    p->st0 = mf_xmalloc((size_t)(n ? n : 1) * sizeof(*p->st0));
    p->from = mf_xcalloc((size_t)(n ? n : 1), 1);
    p->src = mf_xmalloc((size_t)(n ? n : 1) * sizeof(*p->src));
    p->svar = mf_xcalloc((size_t)(n ? n : 1), sizeof(*p->svar));
    p->sty = mf_xcalloc((size_t)(n ? n : 1), sizeof(*p->sty));
    p->pos = mf_xmalloc((size_t)(n ? n : 1) * sizeof(*p->pos));
    p->order = mf_xmalloc((size_t)(n ? n : 1) * sizeof(*p->order));
    p->dom = mf_xcalloc((size_t)(m->nvars ? m->nvars : 1), sizeof(*p->dom));
    for (int i = 0; i < m->nvars; i++)
        p->dom[i].n = -1;

    /* What each slot is: pos -1 preassigned, -2 to be ordered. */
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        const mf_type *sc = mf_type_scalar(v->type);
        mf_val first = 0;
        if (is_ivar(v) && !inp && p->init && !sc->unbounded) {
            /* No input before the first step: IVARs are not readable in
             * state 0; give them a placeholder, their first value (0 for
             * an unbounded integer). */
            mf_val *dv = NULL;
            int dn = 0;
            if ((rc = mf_type_domain(sc, &dv, &dn)) < 0)
                goto cleanup;
            first = dn > 0 ? dv[0] : 0;
            free(dv);
        }
        for (int k = 0; k < v->nslots; k++) {
            int s = v->slot + k;
            p->st0[s] = MF_SIM_UNSET;
            p->src[s] = -1;
            p->svar[s] = i;
            p->sty[s] = sc;
            p->pos[s] = -2;
            if (is_ivar(v)) {
                if (inp) {
                    p->from[s] = SL_GIVEN;
                    p->pos[s] = -1;
                } else if (p->init) {
                    p->st0[s] = first;
                    p->pos[s] = -1;
                }
            } else if (!p->init && v->decl == MF_DECL_FROZENVAR)
                p->from[s] = SL_PIN_CUR;
            else if (is_input_var(v) && inp)
                p->from[s] = SL_PIN_INP;
            b.st[s] = p->from[s] == SL_GIVEN ? inp[s] : p->st0[s];
        }
    }

    /* Which item gives each slot its candidates. */
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        int s;
        const mf_type *ty;
        if (!is_source(p, it))
            continue;
        if ((rc = lhs_cell(&b, it, it->lhs, &s, &ty)) != 0)
            goto cleanup; /* 1: out of bounds, no state */
        if (ty->kind == MF_TY_ARRAY) {
            rc = mf_err_set(MF_EUNSUPPORTED,
                            "%s:%d:%d: unsupported: assigning a whole array",
                            mfile(m), it->line, it->col);
            goto cleanup;
        }
        if (p->pos[s] == -1) {
            rc = mf_err_set(MF_ETYPE,
                            "%s:%d:%d: error: '%s' is an input and cannot be "
                            "assigned",
                            mfile(m), it->line, it->col,
                            m->vars[p->svar[s]].name);
            goto cleanup;
        }
        if (p->src[s] >= 0) {
            rc = mf_err_set(MF_ETYPE, "%s:%d:%d: error: '%s' is assigned twice",
                            mfile(m), it->line, it->col,
                            m->vars[p->svar[s]].name);
            goto cleanup;
        }
        p->src[s] = i;
    }

    /* Dependency graph over the slots to assign; Kahn's algorithm taking
     * the lowest ready slot first keeps slot order wherever it can. */
    indeg = mf_xcalloc((size_t)(n ? n : 1), sizeof(*indeg));
    rdeps = mf_xcalloc((size_t)(n ? n : 1), sizeof(*rdeps));
    for (int s = 0; s < n; s++) {
        if (p->pos[s] != -2 || p->src[s] < 0)
            continue;
        item_deps(&b, &m->items[p->src[s]], &dv);
        for (int j = 0; j < dv.n; j++) {
            if (p->pos[dv.v[j]] == -1)
                continue;
            indeg[s]++;
            MF_VEC_PUSH(rdeps[dv.v[j]], s);
        }
    }
    for (int s = 0; s < n; s++)
        if (p->pos[s] == -2 && indeg[s] == 0)
            heap_push(&heap, s);
    while (heap.n > 0) {
        int s = heap_pop(&heap);
        p->pos[s] = p->norder;
        p->order[p->norder++] = s;
        for (int j = 0; j < rdeps[s].n; j++)
            if (--indeg[rdeps[s].v[j]] == 0)
                heap_push(&heap, rdeps[s].v[j]);
    }
    for (int s = 0; s < n; s++)
        if (p->pos[s] == -2) {
            rc = cycle_error(p, indeg);
            goto cleanup;
        }

    /* Successors come in slot order (sim.h). The depth-first search gives
     * that order by itself when no slot is assigned after a branching slot
     * with a higher number: then two states first differ, in slot order,
     * at the branching slot where the search split them. Otherwise (next(a)
     * := next(c) with c free) successors are collected and sorted. */
    for (int k = 0, hi = -1; k < p->norder; k++) {
        int s = p->order[k];
        if (p->from[s] != SL_SEARCH)
            continue; /* one value in every state */
        if (s < hi)
            p->collect = 1;
        b.cur_stamp++;
        if ((p->src[s] < 0 || may_branch(&b, m->items[p->src[s]].e, 0)) &&
            s > hi)
            hi = s;
    }

    /* Domains of the slots searched over them, here rather than in every
     * search. */
    for (int k = 0; k < p->norder; k++) {
        int s = p->order[k], v = p->svar[s];
        const mf_type *t = p->sty[s];
        if (p->src[s] >= 0 || p->from[s] != SL_SEARCH || p->dom[v].n >= 0 ||
            (t->kind == MF_TY_RANGE && t->hi - t->lo >= DOMAIN_KEEP))
            continue;
        if (mf_type_domain(t, &p->dom[v].v, &p->dom[v].n) < 0) {
            p->dom[v].v = NULL;
            p->dom[v].n = -1;
        }
    }

    p->checks = mf_xcalloc((size_t)p->norder + 1, sizeof(*p->checks));
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        if (!is_constraint(p, it) &&
            !(it->kind == MF_IT_ASSIGN && is_source(p, it)))
            continue;
        if (it->kind == MF_IT_ASSIGN)
            continue; /* a source: its value is the slot's candidate */
        item_deps(&b, it, &dv);
        int at = 0;
        for (int j = 0; j < dv.n; j++)
            if (p->pos[dv.v[j]] >= 0 && p->pos[dv.v[j]] + 1 > at)
                at = p->pos[dv.v[j]] + 1;
        MF_VEC_PUSH(p->checks[at], i);
    }

    eq_plan(&b);

cleanup:
    p->rc = rc;
    if (rc < 0)
        p->msg = mf_xstrdup(mf_err_msg());
    if (rdeps)
        for (int s = 0; s < n; s++)
            MF_VEC_FREE(rdeps[s]);
    free(rdeps);
    free(indeg);
    MF_VEC_FREE(dv);
    MF_VEC_FREE(heap);
    free(b.st);
    free(b.stamp);
    free(b.dstamp);
}

/* mf_sim_plan_get (sim_int.h). */
const plan *mf_sim_plan_get(plan **own, const mf_model *m, int init,
                            const mf_val *cur, const mf_val *inp)
{
    /* The model is const to its readers; its plans are the one thing the
     * simulator fills in, each once, through an atomic. */
    _Atomic(mf_model_cache *) *slot =
        &((mf_model *)m)->sim_plans[2 * !!init + (inp != NULL)];
    mf_model_cache *kept = atomic_load_explicit(slot, memory_order_acquire);
    *own = NULL;
    if (kept)
        return (const plan *)kept;
    plan *p = mf_xcalloc(1, sizeof(*p));
    p->cache.free = plan_cache_free;
    p->m = m;
    p->init = init;
    plan_build(p, cur, inp);
    if (p->per_state) {
        *own = p;
        return p;
    }
    /* Another thread may have published the same plan meanwhile. */
    if (!atomic_compare_exchange_strong_explicit(slot, &kept, &p->cache,
                                                 memory_order_acq_rel,
                                                 memory_order_acquire)) {
        mf_sim_plan_free(p);
        return (const plan *)kept;
    }
    return p;
}

