/* sim.c - the simulator: enumerates the initial states and the successors of
 * a state of a flattened model under an input, picks one by its choice
 * index, observes states, reads input sequences and prints traces.
 *
 * A successor is built slot by slot. Each slot gets its candidate values
 * from the assignment that defines it (next(x), init(x) or the invariant
 * x := e), or from its whole domain when none does; input VARs and frozen
 * variables are pinned to one value. Assignments may read next-state (or,
 * for init, state-0) values, so slots are assigned in a dependency order
 * computed from the expressions (through DEFINEs); a cycle is a
 * combinational loop and an error. Every constraint (TRANS, INVAR, INIT,
 * invariant assignments) is checked as soon as the last slot it reads is
 * assigned, so a dead branch is cut before the slots after it multiply.
 * That order and where each check runs make up a plan, which depends on the
 * model, on initial states or successors, and on an input being given or
 * not, but not on the values of the state and the input: the model keeps
 * its plans (built on first use) and every enumeration after the first
 * only fills in those values. The one exception, next(a[i]) with i read in
 * the current state, is planned again for every enumeration.
 * Expressions are evaluated by eval.c; nothing here knows about Z3. */
#include "sim.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A slot not assigned yet (eval.c refuses to read it); never a value. */
#define MF_SIM_UNSET INT64_MIN
/* Largest value set one expression may produce. */
#define EVAL_LIMIT (1 << 20)
/* Candidate assignments tried by mf_sim_initial/mf_sim_step. */
#define PICK_LIMIT 10000000L
/* Values (states x slots) held for sorting when the search order is not
 * slot order. */
#define COLLECT_MAX (1L << 24)
/* Largest domain a plan keeps; a search over a larger one (as long as
 * building it) builds it itself. */
#define DOMAIN_KEEP 65536

typedef MF_VEC(int) intvec;

typedef struct {
    mf_val *v; /* ascending, owned */
    int n;     /* -1: not kept (the search does not need it, or it is
                  larger than DOMAIN_KEEP) */
} domain;

/* Where a slot's value comes from besides the search. */
enum {
    SL_SEARCH,  /* candidates from its source item or its domain */
    SL_GIVEN,   /* an IVAR: the input gives it, preassigned */
    SL_PIN_INP, /* an input VAR: pinned to the input's value */
    SL_PIN_CUR, /* a FROZENVAR in a step: pinned to its current value */
};

/* How to enumerate the initial states or the successors of one model, with
 * or without an input: everything that does not depend on the values of the
 * current state and the input. The model keeps one per kind of enumeration
 * (mf_model.sim_plans), built on first use; once published it is only read,
 * by any number of threads. */
typedef struct {
    mf_model_cache cache; /* first: the model frees a kept plan through it */
    const mf_model *m;
    int init;            /* enumerating initial states (else successors) */
    int rc;              /* the build's result: 0, 1 if no state can exist (an
                            assignment's index is out of bounds), or a negative
                            code, returned again by every enumeration */
    char *msg;           /* rc < 0: its message */
    int per_state;       /* a next(a[i]) index is not constant: the plan is
                            for the state it was built for only, never kept */
    mf_val *st0;         /* per slot: MF_SIM_UNSET, or an IVAR's placeholder */
    unsigned char *from; /* per slot: SL_... */
    int *src;            /* per slot: item giving its candidates, or -1 */
    int *svar;           /* per slot: index of its variable */
    const mf_type **sty; /* per slot: scalar type */
    int *pos;            /* per slot: position in order; -1 preassigned */
    int *order;          /* slots in assignment order */
    int norder;
    intvec *checks; /* norder + 1 lists: checks[k] run once order[0..k-1]
                       are assigned */
    domain *dom;    /* per variable, for slots searched over their domain */
    int collect;    /* order differs from slot order: collect, sort, replay */
} plan;

/* Scratch for building a plan. */
typedef struct {
    plan *p;
    const mf_val *cur; /* successors: the current state */
    mf_val *st;        /* st0 with the input's IVAR values */
    int *stamp;        /* per slot, for dependency collection */
    int *dstamp;       /* per item x 2, DEFINEs already walked */
    int cur_stamp;
} builder;

/* One enumeration: a plan and this call's values. */
typedef struct {
    const plan *p;
    const mf_model *m;
    const mf_val *cur; /* successors: the current state */
    mf_val *st;        /* the state being built, MF_SIM_UNSET where unknown */
    mf_val *fixval;    /* per pinned slot: its value */
    long tried, limit;
    mf_state_fn fn;
    void *ctx;
    int count, stop;
    mf_valset coll;
    mf_valset *cand; /* per position in order: its candidates, reused */
    mf_valset chk;   /* run_checks' values, reused */
} run;

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

static const char *mfile(const mf_model *m)
{
    return m->file ? m->file : "<model>";
}

static int64_t type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    return (t->hi - t->lo + 1) * type_cells(t->elem);
}

static int is_ivar(const mf_var *v)
{
    return v->decl == MF_DECL_IVAR;
}

/* An input VAR, or a FROZENVAR whose initial value is an input (an
 * unbounded integer's, docs/smv.md): the steps keep the latter. */
static int is_input_var(const mf_var *v)
{
    return v->is_input && v->decl != MF_DECL_IVAR;
}

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

/* Does an item evaluate with the state being built as its current state
 * (init items, invariants, INVAR) rather than as its next state (next(),
 * TRANS)? */
static int reads_st_as_cur(const plan *p, const mf_item *it)
{
    if (p->init)
        return 1;
    return it->kind == MF_IT_ASSIGN || it->kind == MF_IT_INVAR_C;
}

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

static void plan_free(plan *p)
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
    free(p);
}

static void plan_cache_free(mf_model_cache *c)
{
    plan_free((plan *)c);
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

/* The plan for enumerating m's initial states (init) or successors, under
 * an input or not (inp NULL). The model's own when it has one; else built,
 * and kept by the model unless it depends on cur or inp (then *own is set
 * and the caller frees it). */
static const plan *plan_get(plan **own, const mf_model *m, int init,
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
        plan_free(p);
        return (const plan *)kept;
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* Enumeration                                                          */

static int eval_item(run *r, int item, mf_valset *out)
{
    const mf_item *it = &r->m->items[item];
    if (reads_st_as_cur(r->p, it))
        return mf_eval(out, r->m, it->e, r->st, NULL, r->st, EVAL_LIMIT);
    return mf_eval(out, r->m, it->e, r->cur, r->st, r->st, EVAL_LIMIT);
}

/* 1 if every constraint of checks[k] can hold, 0 if one cannot. */
static int run_checks(run *r, int k)
{
    const intvec *ck = &r->p->checks[k];
    mf_valset *s = &r->chk;
    int rc = 1;
    for (int i = 0; i < ck->n && rc == 1; i++) {
        s->n = 0;
        int e = eval_item(r, ck->v[i], s);
        if (e < 0)
            rc = e;
        else {
            rc = 0;
            for (int j = 0; j < s->n; j++)
                if (s->v[j])
                    rc = 1;
        }
    }
    return rc;
}

static int emit(run *r)
{
    int n = r->m->nslots;
    if (r->p->collect) {
        if ((long)r->coll.n + n > COLLECT_MAX)
            return mf_err_set(MF_ELIMIT,
                              "too many states to sort into slot order "
                              "(over %ld values)",
                              COLLECT_MAX);
        for (int i = 0; i < n; i++)
            MF_VEC_PUSH(r->coll, r->st[i]);
        return 0;
    }
    r->count++;
    if (r->fn && r->fn(r->st, r->ctx))
        r->stop = 1;
    return 0;
}

static int dfs(run *r, int k)
{
    const plan *p = r->p;
    if (k == p->norder)
        return emit(r);
    int s = p->order[k], rc = 0;
    int fixed = p->from[s] != SL_SEARCH;
    mf_valset *cand = &r->cand[k];
    mf_val *big = NULL;
    const mf_val *cv;
    int cn;
    if (p->src[s] >= 0) {
        cand->n = 0;
        if ((rc = eval_item(r, p->src[s], cand)) < 0)
            goto cleanup;
        cv = cand->v;
        cn = cand->n;
    } else if (fixed) {
        cv = &r->fixval[s];
        cn = 1;
    } else if (p->dom[p->svar[s]].n >= 0) {
        cv = p->dom[p->svar[s]].v;
        cn = p->dom[p->svar[s]].n;
    } else {
        /* Not kept by the plan: too large (or too large to build). */
        if ((rc = mf_type_domain(p->sty[s], &big, &cn)) < 0)
            goto cleanup;
        cv = big;
    }
    for (int i = 0; i < cn; i++) {
        mf_val v = cv[i];
        if (fixed && v != r->fixval[s])
            continue;
        /* A value outside the variable's type is no successor; outside
         * the simulator's integers, an error (docs/smv.md, Integers). */
        if (!mf_type_contains(p->sty[s], v) && p->sty[s]->unbounded) {
            rc = mf_err_set(MF_ERROR, "integer overflow: %lld for '%s' is "
                            "beyond +-%lld", (long long)v,
                            r->m->vars[p->svar[s]].name,
                            (long long)MF_INT_UNBOUNDED);
            goto cleanup;
        }
        if (!mf_type_contains(p->sty[s], v))
            continue;
        if (++r->tried > r->limit) {
            rc = mf_err_set(MF_ELIMIT,
                            "more than %ld candidate assignments tried",
                            r->limit);
            goto cleanup;
        }
        r->st[s] = v;
        if ((rc = run_checks(r, k + 1)) < 0)
            goto cleanup;
        if (rc == 0)
            continue;
        rc = 0;
        if ((rc = dfs(r, k + 1)) < 0 || r->stop)
            goto cleanup;
    }
cleanup:
    r->st[s] = MF_SIM_UNSET;
    free(big);
    return rc;
}

static _Thread_local int sort_n;

static int cmp_state(const void *a, const void *b)
{
    const mf_val *x = a, *y = b;
    for (int i = 0; i < sort_n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* The buffers of enumerate, kept per thread from one call to the next: each
 * successor computation would otherwise allocate its state and its
 * candidate and check vectors anew and grow them value by value, a share
 * of the time worth saving (docs/semantics.md). Freed when the thread
 * exits; a call made from inside another (a callback that enumerates) has
 * buffers of its own. */
typedef struct {
    mf_val *st;
    size_t nst;
    mf_valset *cand;
    int ncand;
    mf_valset chk, coll;
    int busy;
} run_bufs;

static pthread_key_t bufs_key;
static int bufs_ok; /* the key was created */
static pthread_once_t bufs_once = PTHREAD_ONCE_INIT;

/* Frees what b holds (not b itself). */
static void bufs_clear(run_bufs *b)
{
    free(b->st);
    for (int k = 0; k < b->ncand; k++)
        MF_VEC_FREE(b->cand[k]);
    free(b->cand);
    MF_VEC_FREE(b->chk);
    MF_VEC_FREE(b->coll);
}

static void bufs_free(void *arg)
{
    bufs_clear(arg);
    free(arg);
}

/* Room for nst values and ncand candidate vectors (empty), busy. */
static void bufs_fit(run_bufs *b, size_t nst, int ncand)
{
    if (b->nst < nst) {
        free(b->st);
        b->st = mf_xmalloc(nst * sizeof *b->st);
        b->nst = nst;
    }
    if (b->ncand < ncand) {
        b->cand = mf_xrealloc(b->cand, (size_t)ncand * sizeof *b->cand);
        memset(b->cand + b->ncand, 0,
               (size_t)(ncand - b->ncand) * sizeof *b->cand);
        b->ncand = ncand;
    }
    for (int k = 0; k < ncand; k++)
        b->cand[k].n = 0;
    b->chk.n = b->coll.n = 0;
    b->busy = 1;
}

static void bufs_init(void)
{
    bufs_ok = pthread_key_create(&bufs_key, bufs_free) == 0;
}

/* This thread's buffers, marked busy, with room for nst values and ncand
 * candidate vectors (empty); NULL if they are in use or cannot be kept. */
static run_bufs *bufs_take(size_t nst, int ncand)
{
    pthread_once(&bufs_once, bufs_init);
    if (!bufs_ok)
        return NULL;
    run_bufs *b = pthread_getspecific(bufs_key);
    if (!b) {
        b = mf_xcalloc(1, sizeof *b);
        if (pthread_setspecific(bufs_key, b) != 0) {
            free(b);
            return NULL;
        }
    }
    if (b->busy)
        return NULL;
    bufs_fit(b, nst, ncand);
    return b;
}

static int enumerate(const mf_model *m, int init, const mf_val *cur,
                     const mf_val *inp, mf_state_fn fn, void *ctx, long limit)
{
    plan *own = NULL;
    const plan *p = plan_get(&own, m, init, cur, inp);
    run r = {0};
    run_bufs *b = NULL, local = {0};
    int n = m->nslots, rc;
    r.p = p;
    r.m = m;
    r.cur = cur;
    r.fn = fn;
    r.ctx = ctx;
    r.limit = limit > 0 ? limit : LONG_MAX;
    if (p->rc != 0) {
        rc = p->rc == 1 ? 0 : mf_err_set(p->rc, "%s", p->msg);
        goto cleanup;
    }
    /* This call's values: the input's IVARs, the pinned slots. */
    size_t nst = 2 * (size_t)(n ? n : 1);
    int ncand = p->norder ? p->norder : 1;
    if (!(b = bufs_take(nst, ncand))) {
        b = &local; /* a nested call: buffers of its own, freed at the end */
        bufs_fit(b, nst, ncand);
    }
    r.st = b->st;
    r.cand = b->cand;
    r.chk = b->chk;
    r.coll = b->coll;
    r.fixval = r.st + (n ? n : 1);
    for (int s = 0; s < n; s++) {
        r.st[s] = p->st0[s];
        if (p->from[s] == SL_GIVEN)
            r.st[s] = inp[s];
        else if (p->from[s] == SL_PIN_INP)
            r.fixval[s] = inp[s];
        else if (p->from[s] == SL_PIN_CUR)
            r.fixval[s] = cur[s];
    }
    if ((rc = run_checks(&r, 0)) < 0)
        goto cleanup;
    if (rc == 1 && (rc = dfs(&r, 0)) < 0)
        goto cleanup;
    rc = 0;
    if (p->collect && n > 0 && r.coll.n > 0) {
        int cnt = r.coll.n / n;
        sort_n = n;
        qsort(r.coll.v, (size_t)cnt, (size_t)n * sizeof(mf_val), cmp_state);
        for (int i = 0; i < cnt; i++) {
            r.count++;
            if (fn && fn(r.coll.v + (size_t)i * n, ctx))
                break;
        }
    }
    rc = r.count;
cleanup:
    if (b) { /* the vectors may have grown: keep them so */
        b->chk = r.chk;
        b->coll = r.coll;
        b->busy = 0;
        if (b == &local)
            bufs_clear(b);
    }
    plan_free(own);
    return rc;
}

int mf_sim_initial_each(const mf_model *m, const mf_val *inp, mf_state_fn fn,
                        void *ctx, long limit)
{
    return enumerate(m, 1, NULL, inp, fn, ctx, limit);
}

int mf_sim_next_each(const mf_model *m, const mf_val *cur, const mf_val *inp,
                     mf_state_fn fn, void *ctx, long limit)
{
    return enumerate(m, 0, cur, inp, fn, ctx, limit);
}

typedef struct {
    int want, seen;
    mf_val *out;
    int n;
} pick;

static int pick_fn(const mf_val *state, void *ctx)
{
    pick *k = ctx;
    if (k->seen++ == k->want) {
        memcpy(k->out, state, (size_t)k->n * sizeof(*state));
        return 1;
    }
    return 0;
}

static int pick_one(mf_val *out, const mf_model *m, const mf_val *cur,
                    const mf_val *inp, int choice, int init)
{
    pick k = {choice, 0, out, m->nslots};
    int rc = enumerate(m, init, cur, inp, pick_fn, &k, PICK_LIMIT);
    if (rc < 0)
        return rc;
    if (k.seen == 0)
        return mf_err_set(MF_EREFUSED, init ? "no initial state for this input"
                                            : "no successor for this input");
    if (k.seen <= choice)
        return mf_err_set(
            MF_ENOTFOUND, "choice @%d does not exist: there %s only %d %s",
            choice, k.seen == 1 ? "is" : "are", k.seen,
            init ? (k.seen == 1 ? "initial state" : "initial states")
                 : (k.seen == 1 ? "successor" : "successors"));
    return 0;
}

int mf_sim_initial(mf_val *out, const mf_model *m, const mf_val *inp,
                   int choice)
{
    return pick_one(out, m, NULL, inp, choice, 1);
}

int mf_sim_step(mf_val *out, const mf_model *m, const mf_val *cur,
                const mf_val *inp, int choice)
{
    return pick_one(out, m, cur, inp, choice, 0);
}

int mf_sim_observe(mf_val *out, int max, const mf_model *m, const mf_val *state)
{
    int n = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!v->is_observable)
            continue;
        for (int k = 0; k < v->nslots; k++)
            if (n < max)
                out[n++] = state[v->slot + k];
    }
    mf_valset s = {0};
    for (int i = 0; i < m->nobs_defines; i++) {
        const mf_item *it = &m->items[m->obs_defines[i]];
        s.n = 0;
        int rc = mf_eval(&s, m, it->e, state, NULL, state, EVAL_LIMIT);
        if (rc == 0 && s.n == 0)
            rc = mf_err_set(MF_EREFUSED,
                            "%s:%d:%d: error: '%s' has no value "
                            "in this state",
                            mfile(m), it->line, it->col, it->name);
        if (rc < 0) {
            MF_VEC_FREE(s);
            return rc;
        }
        if (n < max)
            out[n++] = s.v[0]; /* the smallest of a set */
    }
    MF_VEC_FREE(s);
    return n;
}

/* ------------------------------------------------------------------ */
/* Input sequences                                                      */

void mf_input_seq_free(mf_input_seq *s)
{
    if (!s)
        return;
    free(s->init);
    free(s->steps);
    free(s->choices);
    free(s);
}

typedef struct {
    const mf_model *m;
    const char *file;
    const char *line; /* start of the current line */
    int lineno;
} rd;

static int rd_err(const rd *r, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rd_err(const rd *r, const char *at, const char *fmt, ...)
{
    mf_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    mf_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    int rc = mf_err_set(MF_EPARSE, "%s:%d:%d: error: %s", r->file, r->lineno,
                        (int)(at - r->line) + 1, b.data ? b.data : "");
    mf_buf_free(&b);
    return rc;
}

static int id_start(int c)
{
    return isalpha(c) || c == '_';
}

static int id_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '#' || c == '.' ||
           c == '-';
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* An integer at p: 0 and *v, advancing *pp; -1 if none. */
static int read_int(const char **pp, const char *end, int64_t *v)
{
    const char *p = *pp;
    int neg = 0;
    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    if (p >= end || !isdigit((unsigned char)*p))
        return -1;
    int64_t x = 0;
    while (p < end && isdigit((unsigned char)*p)) {
        if (x > (INT64_MAX - 9) / 10)
            return -1;
        x = x * 10 + (*p++ - '0');
    }
    *v = neg ? -x : x;
    *pp = p;
    return 0;
}

/* name[i][j]=value, into vals. Advances *pp. */
static int read_assign(rd *r, const char **pp, const char *end, mf_val *vals,
                       int is_init)
{
    const mf_model *m = r->m;
    const char *p = *pp, *name = p;
    char buf[512];
    if (p >= end || !id_start((unsigned char)*p))
        return rd_err(r, p, "expected an input name");
    while (p < end && id_char((unsigned char)*p))
        p++;
    size_t len = (size_t)(p - name);
    if (len >= sizeof(buf))
        return rd_err(r, name, "name too long");
    memcpy(buf, name, len);
    buf[len] = 0;
    int vi = mf_model_find_var(m, buf);
    if (vi < 0)
        return rd_err(r, name, "unknown variable '%s'", buf);
    const mf_var *v = &m->vars[vi];
    if (is_init ? !is_input_var(v)
                : !(is_ivar(v) ||
                    (is_input_var(v) && v->decl == MF_DECL_VAR)))
        return rd_err(r, name,
                      is_init && is_ivar(v)
                          ? "'%s' is an IVAR: steps give it, not init:"
                          : "'%s' is not an input of the model",
                      buf);
    int slot = v->slot;
    const mf_type *t = v->type;
    while (p < end && *p == '[') {
        const char *at = p + 1;
        int64_t i;
        p = skip_ws(p + 1, end);
        if (t->kind != MF_TY_ARRAY)
            return rd_err(r, at, "'%s' has no more dimensions", buf);
        if (read_int(&p, end, &i) < 0)
            return rd_err(r, p, "expected an index");
        if (i < t->lo || i > t->hi)
            return rd_err(r, at, "index %lld is out of %lld..%lld",
                          (long long)i, (long long)t->lo, (long long)t->hi);
        slot += (int)((i - t->lo) * type_cells(t->elem));
        t = t->elem;
        p = skip_ws(p, end);
        if (p >= end || *p != ']')
            return rd_err(r, p, "expected ']'");
        p++;
    }
    if (t->kind == MF_TY_ARRAY)
        return rd_err(r, name,
                      "'%s' is an array: give one element, as "
                      "%s[%lld]=...",
                      buf, buf, (long long)t->lo);
    p = skip_ws(p, end);
    if (p >= end || *p != '=')
        return rd_err(r, p, "expected '=' after '%s'", buf);
    p = skip_ws(p + 1, end);
    const char *vs = p;
    mf_val val = 0;
    int64_t iv;
    if (read_int(&p, end, &iv) == 0) {
        if (p < end && id_char((unsigned char)*p))
            return rd_err(r, vs, "bad value");
        val = iv;
        if (t->kind == MF_TY_BOOL)
            return rd_err(r, vs, "'%s' is boolean: TRUE or FALSE", buf);
    } else if (p < end && id_start((unsigned char)*p)) {
        while (p < end && id_char((unsigned char)*p))
            p++;
        size_t vl = (size_t)(p - vs);
        char vb[512];
        if (vl >= sizeof(vb))
            return rd_err(r, vs, "value too long");
        memcpy(vb, vs, vl);
        vb[vl] = 0;
        if (!strcmp(vb, "TRUE") || !strcmp(vb, "FALSE")) {
            if (t->kind != MF_TY_BOOL)
                return rd_err(r, vs, "'%s' is not boolean", buf);
            val = vb[0] == 'T';
        } else {
            int si = mf_model_find_sym(m, vb);
            if (si < 0 || t->kind == MF_TY_BOOL)
                return rd_err(r, vs, "'%s' is not a value of '%s'", vb, buf);
            val = MF_SYM(si);
        }
    } else
        return rd_err(r, vs, "expected a value for '%s'", buf);
    if (!mf_type_contains(t, val)) {
        mf_buf tb = {0};
        mf_print_type(&tb, m, t);
        int rc = rd_err(r, vs, "%.*s is not in the domain of '%s' (%s)",
                        (int)(p - vs), vs, buf, tb.data ? tb.data : "");
        mf_buf_free(&tb);
        return rc;
    }
    vals[slot] = val;
    *pp = p;
    return 0;
}

/* One line's list "a=1, b=x @2" into vals (and *choice). */
static int read_line(rd *r, const char *p, const char *end, mf_val *vals,
                     int *choice, int is_init)
{
    int rc, any = 0;
    p = skip_ws(p, end);
    if (p < end && *p == '-' && skip_ws(p + 1, end) == end)
        return 0; /* "-": a step that changes no input */
    while (p < end) {
        if (*p == '@') {
            const char *at = p;
            int64_t c;
            p++;
            if (read_int(&p, end, &c) < 0 || c < 0 || c > INT_MAX)
                return rd_err(r, at, "expected a choice number after '@'");
            *choice = (int)c;
            p = skip_ws(p, end);
            if (p < end)
                return rd_err(r, p, "nothing may follow '@%d'", *choice);
            return 0;
        }
        if (any) {
            if (*p != ',')
                return rd_err(r, p, "expected ',' or '@'");
            p = skip_ws(p + 1, end);
        }
        if ((rc = read_assign(r, &p, end, vals, is_init)) < 0)
            return rc;
        any = 1;
        p = skip_ws(p, end);
    }
    return 0;
}

typedef struct {
    mf_val *out;
    int n;
} first_state;

static int first_fn(const mf_val *state, void *ctx)
{
    first_state *f = ctx;
    memcpy(f->out, state, (size_t)f->n * sizeof(*state));
    return 1;
}

int mf_input_seq_parse(mf_input_seq **out, const mf_model *m, const char *file,
                       const char *text, size_t len)
{
    mf_input_seq *s = mf_xcalloc(1, sizeof(*s));
    int n = m->nslots, rc = 0, cap = 0;
    size_t sz = (size_t)(n ? n : 1) * sizeof(mf_val);
    mf_val *cur = mf_xcalloc(1, sz), *s0 = mf_xcalloc(1, sz);
    rd r = {m, file ? file : "<inputs>", NULL, 0};
    *out = NULL;
    s->init = mf_xcalloc(1, sz);

    /* Defaults: IVARs their first value; input VARs their values in the
     * first initial state the model allows, else their first value. */
    first_state f = {s0, n};
    int have_s0 = mf_sim_initial_each(m, NULL, first_fn, &f, 1000000L) > 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!is_ivar(v) && !is_input_var(v))
            continue;
        mf_val *dv = NULL;
        int dn = 0;
        if (mf_type_domain(mf_type_scalar(v->type), &dv, &dn) < 0)
            dn = 0;
        for (int k = 0; k < v->nslots; k++) {
            int sl = v->slot + k;
            s->init[sl] = is_input_var(v) && have_s0 ? s0[sl]
                          : dn > 0                   ? dv[0]
                                                     : 0;
        }
        free(dv);
    }
    memcpy(cur, s->init, sz);

    const char *p = text, *end = text + len;
    int seen_step = 0, seen_init = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        r.line = p;
        r.lineno++;
        /* Comments: '#' or '--' to the end of the line. */
        const char *ce = p;
        while (ce < le && *ce != '#' &&
               !(*ce == '-' && ce + 1 < le && ce[1] == '-'))
            ce++;
        const char *q = skip_ws(p, ce);
        if (q < ce) {
            const char *w = q;
            while (w < ce && isalpha((unsigned char)*w))
                w++;
            const char *colon = skip_ws(w, ce);
            if (w - q == 4 && !strncmp(q, "init", 4) && colon < ce &&
                *colon == ':') {
                if (seen_init || seen_step) {
                    rc = rd_err(&r, q,
                                seen_init ? "a second 'init:' line"
                                          : "'init:' must come before the "
                                            "steps");
                    goto cleanup;
                }
                seen_init = 1;
                if ((rc = read_line(&r, colon + 1, ce, s->init, &s->init_choice,
                                    1)) < 0)
                    goto cleanup;
                /* Steps start from the initial values of input VARs. */
                memcpy(cur, s->init, sz);
            } else {
                int choice = 0;
                if ((rc = read_line(&r, q, ce, cur, &choice, 0)) < 0)
                    goto cleanup;
                if (s->nsteps == cap) {
                    cap = cap ? 2 * cap : 16;
                    s->steps = mf_xrealloc(s->steps, (size_t)cap * sz);
                    s->choices =
                        mf_xrealloc(s->choices, (size_t)cap * sizeof(int));
                }
                memcpy(s->steps + (size_t)s->nsteps * (n ? n : 1), cur, sz);
                s->choices[s->nsteps++] = choice;
                seen_step = 1;
            }
        }
        p = nl ? nl + 1 : end;
    }
cleanup:
    free(cur);
    free(s0);
    if (rc < 0) {
        mf_input_seq_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Traces                                                               */

/* "out=coff, wtr=1": the observables of a state. */
static int print_obs(mf_buf *b, const mf_model *m, const mf_val *state)
{
    int nobs = mf_model_nobs(m);
    mf_val *obs = mf_xmalloc((size_t)(nobs ? nobs : 1) * sizeof(*obs));
    int rc = mf_sim_observe(obs, nobs, m, state);
    if (rc >= 0) {
        mf_print_obs(b, m, obs);
        if (nobs == 0)
            mf_buf_puts(b, "(no observables)");
        rc = 0;
    }
    free(obs);
    return rc;
}

/* "inp=req, x=3": the inputs of one step ("-": none). */
static void print_inputs(mf_buf *b, const mf_model *m, const mf_val *inp)
{
    if (mf_print_inputs(b, m, inp, 0) == 0)
        mf_buf_puts(b, "-");
}

typedef struct {
    const mf_model *m;
    mf_buf *out;
    int n, cap, rc;
} lister;

/* One line of a --all listing: "    @k: out=coff, wtr=1". */
static int list_fn(const mf_val *state, void *ctx)
{
    lister *l = ctx;
    if (l->n == l->cap) {
        mf_buf_printf(l->out, "    ... more than %d, not listed\n", l->cap);
        return 1;
    }
    mf_buf_printf(l->out, "    @%d: ", l->n++);
    if ((l->rc = print_obs(l->out, l->m, state)) < 0)
        return 1;
    mf_buf_puts(l->out, "\n");
    return 0;
}

/* List under `title` every state `cur` (NULL: the initial states) allows
 * under `inp`, at most l->cap of them. */
static int list_states(lister *l, const char *title, const mf_val *cur,
                       const mf_val *inp)
{
    int rc;
    mf_buf_puts(l->out, title);
    l->n = 0;
    l->rc = 0;
    if (cur)
        rc = mf_sim_next_each(l->m, cur, inp, list_fn, l, 10000000L);
    else
        rc = mf_sim_initial_each(l->m, inp, list_fn, l, 10000000L);
    if (rc < 0 || (rc = l->rc) < 0)
        return rc;
    if (l->n == 0)
        mf_buf_puts(l->out, "    (none)\n");
    return 0;
}

int mf_sim_run(mf_buf *out, const mf_model *m, const mf_input_seq *seq)
{
    return mf_sim_run_all(out, m, seq, 0);
}

int mf_sim_run_all(mf_buf *out, const mf_model *m, const mf_input_seq *seq,
                   int cap)
{
    size_t sz = (size_t)(m->nslots ? m->nslots : 1) * sizeof(mf_val);
    mf_val *cur = mf_xmalloc(sz), *nx = mf_xmalloc(sz);
    lister l = {m, out, 0, cap, 0};
    int rc = 0;
    if (cap > 0 && (rc = list_states(&l, "initial states:\n", NULL,
                                     seq->init)) < 0)
        goto cleanup;
    rc = mf_sim_initial(cur, m, seq->init, seq->init_choice);
    if (rc == MF_EREFUSED) {
        mf_buf_puts(out, "step 0: refused (no initial state for this "
                         "input)\n");
        goto cleanup;
    }
    if (rc < 0)
        goto cleanup;
    mf_buf_puts(out, "step 0: ");
    if ((rc = print_obs(out, m, cur)) < 0)
        goto cleanup;
    mf_buf_puts(out, "\n");
    for (int k = 0; k < seq->nsteps; k++) {
        const mf_val *inp =
            seq->steps + (size_t)k * (m->nslots ? m->nslots : 1);
        mf_buf_puts(out, "input: ");
        print_inputs(out, m, inp);
        if (seq->choices[k])
            mf_buf_printf(out, " @%d", seq->choices[k]);
        mf_buf_puts(out, "\n");
        if (cap > 0 && (rc = list_states(&l, "successors:\n", cur, inp)) < 0)
            goto cleanup;
        rc = mf_sim_step(nx, m, cur, inp, seq->choices[k]);
        if (rc == MF_EREFUSED) {
            mf_buf_printf(out,
                          "step %d: refused (no successor for this "
                          "input)\n",
                          k + 1);
            goto cleanup;
        }
        if (rc == MF_ENOTFOUND) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", mf_err_msg());
            rc = mf_err_set(rc, "step %d: %s", k + 1, msg);
        }
        if (rc < 0)
            goto cleanup;
        mf_buf_printf(out, "step %d: ", k + 1);
        if ((rc = print_obs(out, m, nx)) < 0)
            goto cleanup;
        mf_buf_puts(out, "\n");
        mf_val *t = cur;
        cur = nx;
        nx = t;
    }
cleanup:
    free(cur);
    free(nx);
    return rc;
}
