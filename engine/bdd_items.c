/* bdd_items.c - a model's items as BDDs (bdd_int.h, docs/killing.md
 * "BDDs"): each expression as a value map ("value v under condition c"),
 * each item as one conjunct of the initial states or of the step, over
 * the blocks of bdd_enc.c. The value maps follow eval.c value for value:
 * operators pointwise over their operands' values, the lazy `&`, `|`,
 * `->` and case, an undefined expression with no value, so that a state
 * the BDDs allow is one the simulator enumerates. It searches nothing
 * (bdd.c does). */
#include "bdd_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

#define DOM_MAX 4096
/* Values one range expression may list. */
#define RANGE_MAX 65536

/* The contexts an expression is compiled in, as eval.c reads a state
 * (cur, next, inp): the initial state (and an observation), a step's
 * next() assignments and TRANS, a step's new state (invariants, INVAR). */
enum { CTX_INIT, CTX_STEP, CTX_NEWST };

typedef struct {
    mf_bdd_space *sp;
    const mf_model *m;
    int ctx;
    int cur, nxt, st; /* block roles read; nxt -1: no next() */
    mf_vmap *memo;
    int depth;
} cc;

/* ------------------------------------------------------------------ */
/* Expressions                                                          */

static int cx(cc *C, const mf_expr *e, int in_next, mf_vmap *out);

static int unsup(cc *C, const mf_expr *e, const char *what)
{
    return mf_err_set(MF_EUNSUPPORTED, "%s:%d:%d: BDDs: %s",
                      C->m->file ? C->m->file : "<model>", e->line, e->col,
                      what);
}

double mf_bdd_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int spend(cc *C, long k)
{
    C->sp->ops += k;
    if (C->sp->ops > C->sp->ops_max)
        return mf_err_set(MF_ELIMIT, "BDDs: more than %ld value pairs",
                          C->sp->ops_max);
    if (C->sp->deadline > 0) {
        if (mf_bdd_cpu_now() > C->sp->deadline)
            return mf_err_set(MF_ELIMIT, "BDDs: the relations past their "
                                         "time budget");
    }
    return 0;
}

static int64_t type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    return (t->hi - t->lo + 1) * type_cells(t->elem);
}

/* The values of cell `slot` of var v as read here. */
static int read_cell(cc *C, const mf_expr *e, const mf_var *v, int slot,
                     int in_next, BDD cond, mf_vmap *out)
{
    int role = is_ivar(v) ? C->st : in_next ? C->nxt : C->cur;
    if (role < 0)
        return unsup(C, e, "next() is not allowed here");
    mf_bdd_space *sp = C->sp;
    const mf_bdd_blk *b = mf_bdd_blk_of(sp, slot, role);
    mf_vmap *cm = &sp->cells[(size_t)slot * MF_BR__N + role];
    if (cm->n < 0) {
        memset(cm, 0, sizeof *cm);
        for (int i = 0; i < b->nvals; i++)
            mf_vmap_put(cm, b->vals[i], mf_bdd_blk_is(b, i));
    }
    int rc = spend(C, cm->n);
    for (int i = 0; i < cm->n && rc == 0; i++)
        mf_vmap_put_and(out, cm->v[i], cm->c[i], cond);
    return rc;
}

typedef struct {
    int slot;
    BDD c; /* referenced */
} cellref;
typedef MF_VEC(cellref) cellvec;

static void cells_free(cellvec *cv)
{
    for (int i = 0; i < cv->n; i++)
        bdd_delref(cv->v[i].c);
    MF_VEC_FREE(*cv);
}

/* The cells an array reference can denote, each under its condition (as
 * eval.c's ev_cells). */
static int cells(cc *C, const mf_expr *e, int in_next, cellvec *out,
                 const mf_var **var, const mf_type **ty, int *rd_next)
{
    int rc = 0;
    const mf_model *m = C->m;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *var = &m->vars[e->ref];
        *ty = (*var)->type;
        *rd_next = in_next;
        cellref r = {(*var)->slot, bdd_addref(bddtrue)};
        MF_VEC_PUSH(*out, r);
        return 0;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE) {
        if (++C->depth > 512)
            return unsup(C, e, "DEFINEs nested too deeply");
        rc = cells(C, m->items[e->ref].e, in_next, out, var, ty, rd_next);
        C->depth--;
        return rc;
    }
    if (e->kind == MF_E_NEXT && !in_next)
        return cells(C, e->kids[0], 1, out, var, ty, rd_next);
    if (e->kind != MF_E_INDEX)
        return unsup(C, e, "only arrays can be indexed");
    cellvec base = {0};
    mf_vmap idx = {0};
    const mf_type *at = NULL;
    if ((rc = cells(C, e->kids[0], in_next, &base, var, &at, rd_next)) < 0)
        goto cleanup;
    if (at->kind != MF_TY_ARRAY) {
        rc = unsup(C, e, "only arrays can be indexed");
        goto cleanup;
    }
    if ((rc = cx(C, e->kids[1], in_next, &idx)) < 0)
        goto cleanup;
    int64_t ec = type_cells(at->elem);
    for (int i = 0; i < base.n; i++)
        for (int j = 0; j < idx.n; j++)
            if (idx.v[j] >= at->lo && idx.v[j] <= at->hi) {
                BDD c = bdd_addref(bdd_and(base.v[i].c, idx.c[j]));
                if (c == bddfalse) {
                    bdd_delref(c);
                    continue;
                }
                cellref r = {base.v[i].slot + (int)((idx.v[j] - at->lo) * ec),
                             c};
                MF_VEC_PUSH(*out, r);
            }
    *ty = at->elem;
cleanup:
    cells_free(&base);
    mf_vmap_free(&idx);
    return rc;
}

/* One operation on two values, as the simulator applies it
 * (mf_eval_binop): 0 and *r, 1 undefined, or a negative code. */
static int apply(cc *C, const mf_expr *e, int op, mf_val a, mf_val b,
                 mf_val *r)
{
    const char *why;
    int rc = mf_eval_binop(op, a, b, r, &why);
    return rc < 0 ? unsup(C, e, why) : rc;
}

/* &, | and ->, lazily as eval.c: the right operand counts only for the
 * left values that need it. */
static int cx_logic(cc *C, const mf_expr *e, int in_next, mf_vmap *out)
{
    mf_vmap l = {0}, r = {0};
    int rc;
    if ((rc = cx(C, e->kids[0], in_next, &l)) < 0 ||
        (rc = cx(C, e->kids[1], in_next, &r)) < 0)
        goto cleanup;
    BDD lt, lf, rt, rf;
    mf_vmap_truth(&l, &lt, &lf);
    mf_vmap_truth(&r, &rt, &rf);
    if (e->op == MF_OP_AND) {
        mf_vmap_put(out, 0, lf);
        mf_vmap_put_and(out, 0, lt, rf);
        mf_vmap_put_and(out, 1, lt, rt);
    } else if (e->op == MF_OP_OR) {
        mf_vmap_put(out, 1, lt);
        mf_vmap_put_and(out, 1, lf, rt);
        mf_vmap_put_and(out, 0, lf, rf);
    } else {
        mf_vmap_put(out, 1, lf);
        mf_vmap_put_and(out, 1, lt, rt);
        mf_vmap_put_and(out, 0, lt, rf);
    }
    bdd_delref(lt);
    bdd_delref(lf);
    bdd_delref(rt);
    bdd_delref(rf);
cleanup:
    mf_vmap_free(&l);
    mf_vmap_free(&r);
    return rc;
}

static int cx_bin(cc *C, const mf_expr *e, int in_next, mf_vmap *out)
{
    if (e->op == MF_OP_AND || e->op == MF_OP_OR || e->op == MF_OP_IMPLIES)
        return cx_logic(C, e, in_next, out);
    mf_vmap l = {0}, r = {0};
    int rc;
    if ((rc = cx(C, e->kids[0], in_next, &l)) < 0 ||
        (rc = cx(C, e->kids[1], in_next, &r)) < 0)
        goto cleanup;
    if (e->op == MF_OP_UNION) {
        mf_vmap_copy(out, &l);
        mf_vmap_copy(out, &r);
    } else if (e->op == MF_OP_IN) {
        for (int i = 0; i < l.n; i++) {
            BDD in = mf_vmap_cond(&r, l.v[i]);
            mf_vmap_put_and(out, 1, l.c[i], in);
            mf_vmap_put(out, 0, bdd_apply(l.c[i], in, bddop_diff));
        }
    } else {
        if ((rc = spend(C, (long)l.n * r.n)) < 0)
            goto cleanup;
        for (int i = 0; i < l.n; i++)
            for (int j = 0; j < r.n; j++) {
                mf_val v = 0;
                if ((rc = apply(C, e, e->op, l.v[i], r.v[j], &v)) < 0)
                    goto cleanup;
                if (rc == 0)
                    mf_vmap_put_and(out, v, l.c[i], r.c[j]);
            }
        rc = 0;
    }
cleanup:
    mf_vmap_free(&l);
    mf_vmap_free(&r);
    return rc;
}

/* case c0 : v0; ...: a branch where its condition can be true and every
 * earlier one false. */
static int cx_case(cc *C, const mf_expr **kids, int nkids, int in_next,
                   mf_vmap *out)
{
    int rc = 0;
    BDD reach = bdd_addref(bddtrue);
    for (int i = 0; i + 1 < nkids && reach != bddfalse; i += 2) {
        mf_vmap c = {0}, v = {0};
        if ((rc = cx(C, kids[i], in_next, &c)) < 0) {
            mf_vmap_free(&c);
            break;
        }
        BDD t, f;
        mf_vmap_truth(&c, &t, &f);
        mf_vmap_free(&c);
        BDD go = bdd_addref(bdd_and(reach, t));
        if (go != bddfalse && (rc = cx(C, kids[i + 1], in_next, &v)) == 0)
            for (int k = 0; k < v.n; k++)
                mf_vmap_put_and(out, v.v[k], v.c[k], go);
        mf_vmap_free(&v);
        bdd_delref(go);
        BDD o = reach;
        reach = bdd_addref(bdd_and(o, f));
        bdd_delref(o);
        bdd_delref(t);
        bdd_delref(f);
        if (rc < 0)
            break;
    }
    bdd_delref(reach);
    return rc;
}

static int cx_call(cc *C, const mf_expr *e, int in_next, mf_vmap *out)
{
    mf_vmap acc = {0}, arg = {0};
    int rc = 0;
    if (e->nkids < 1)
        return unsup(C, e, "a function needs arguments");
    if (e->op == MF_FN_COUNT)
        mf_vmap_put(&acc, 0, bddtrue);
    for (int k = 0; k < e->nkids && rc == 0; k++) {
        mf_vmap_free(&arg);
        if ((rc = cx(C, e->kids[k], in_next, &arg)) < 0)
            break;
        if (k == 0 && e->op != MF_FN_COUNT) {
            for (int i = 0; i < arg.n; i++) {
                mf_val v = arg.v[i];
                if (e->op == MF_FN_ABS) {
                    if (v == INT64_MIN) {
                        rc = unsup(C, e, "integer overflow");
                        break;
                    }
                    v = v < 0 ? -v : v;
                } else if (e->op == MF_FN_BOOL)
                    v = v != 0;
                mf_vmap_put(&acc, v, arg.c[i]);
            }
            continue;
        }
        if (e->op != MF_FN_MIN && e->op != MF_FN_MAX &&
            e->op != MF_FN_COUNT) {
            rc = unsup(C, e, "too many arguments");
            break;
        }
        if ((rc = spend(C, (long)acc.n * arg.n)) < 0)
            break;
        mf_vmap nx = {0};
        for (int i = 0; i < acc.n; i++)
            for (int j = 0; j < arg.n; j++) {
                mf_val a = acc.v[i], b = arg.v[j], v;
                if (e->op == MF_FN_MIN)
                    v = a < b ? a : b;
                else if (e->op == MF_FN_MAX)
                    v = a > b ? a : b;
                else
                    v = a + (b != 0);
                mf_vmap_put_and(&nx, v, acc.c[i], arg.c[j]);
            }
        mf_vmap_free(&acc);
        acc = nx;
    }
    if (rc == 0)
        mf_vmap_copy(out, &acc);
    mf_vmap_free(&acc);
    mf_vmap_free(&arg);
    return rc;
}

static int cx_range(cc *C, const mf_expr *e, int in_next, mf_vmap *out)
{
    mf_vmap l = {0}, h = {0};
    int rc;
    if ((rc = cx(C, e->kids[0], in_next, &l)) < 0 ||
        (rc = cx(C, e->kids[1], in_next, &h)) < 0)
        goto cleanup;
    for (int i = 0; i < l.n && rc == 0; i++)
        for (int j = 0; j < h.n && rc == 0; j++) {
            mf_val lo = l.v[i], hi = h.v[j];
            if (hi >= lo && hi - lo >= RANGE_MAX) {
                rc = unsup(C, e, "a range too wide");
                break;
            }
            if (hi >= lo && (rc = spend(C, hi - lo + 1)) < 0)
                break;
            BDD c = bdd_addref(bdd_and(l.c[i], h.c[j]));
            for (mf_val v = lo; v <= hi; v++)
                mf_vmap_put(out, v, c);
            bdd_delref(c);
        }
cleanup:
    mf_vmap_free(&l);
    mf_vmap_free(&h);
    return rc;
}

static int cx_define(cc *C, const mf_expr *e, int in_next, mf_vmap *out)
{
    mf_vmap *memo =
        &C->memo[((size_t)C->ctx * C->m->nitems + e->ref) * 2 + !!in_next];
    if (memo->n < 0) {
        if (++C->depth > 512)
            return unsup(C, e, "DEFINEs nested too deeply");
        mf_vmap v = {0};
        int rc = cx(C, C->m->items[e->ref].e, in_next, &v);
        C->depth--;
        if (rc < 0) {
            mf_vmap_free(&v);
            return rc;
        }
        *memo = v;
    }
    mf_vmap_copy(out, memo);
    return 0;
}

static int cx(cc *C, const mf_expr *e, int in_next, mf_vmap *out)
{
    int rc = spend(C, 0); /* the time budget, at every node */
    if (rc < 0)
        return rc;
    /* Words wrap, cast and compare by their width and signedness
     * (model/word.c); the value maps here apply integer operators. */
    if (e->wty || e->kind == MF_E_WORD)
        return unsup(C, e, "a word expression");
    switch (e->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
        mf_vmap_put(out, e->ival, bddtrue);
        return 0;
    case MF_E_SYM: {
        int i = mf_model_find_sym(C->m, e->name);
        if (i < 0)
            return unsup(C, e, "unknown symbolic constant");
        mf_vmap_put(out, MF_SYM(i), bddtrue);
        return 0;
    }
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE)
            return cx_define(C, e, in_next, out);
        if (e->ref_kind == MF_REF_VAR) {
            const mf_var *v = &C->m->vars[e->ref];
            if (v->type->kind == MF_TY_ARRAY)
                return unsup(C, e, "a whole array as a value");
            return read_cell(C, e, v, v->slot, in_next, bddtrue, out);
        }
        return unsup(C, e, "unresolved identifier");
    case MF_E_NEXT:
        if (in_next || C->nxt < 0)
            return unsup(C, e, "next() is not allowed here");
        return cx(C, e->kids[0], 1, out);
    case MF_E_NOT:
    case MF_E_NEG: {
        mf_vmap a = {0};
        if ((rc = cx(C, e->kids[0], in_next, &a)) == 0)
            for (int i = 0; i < a.n; i++) {
                if (e->kind == MF_E_NEG && a.v[i] == INT64_MIN) {
                    rc = unsup(C, e, "integer overflow");
                    break;
                }
                mf_vmap_put(out, e->kind == MF_E_NOT ? !a.v[i] : -a.v[i], a.c[i]);
            }
        mf_vmap_free(&a);
        return rc;
    }
    case MF_E_BIN:
        return cx_bin(C, e, in_next, out);
    case MF_E_CASE:
        return cx_case(C, (const mf_expr **)e->kids, e->nkids, in_next, out);
    case MF_E_ITE: {
        mf_expr t = {.kind = MF_E_BOOL, .ival = 1};
        const mf_expr *k[4] = {e->kids[0], e->kids[1], &t, e->kids[2]};
        return cx_case(C, k, 4, in_next, out);
    }
    case MF_E_SET:
        for (int i = 0; i < e->nkids && rc == 0; i++)
            rc = cx(C, e->kids[i], in_next, out);
        return rc;
    case MF_E_RANGE:
        return cx_range(C, e, in_next, out);
    case MF_E_CALL:
        return cx_call(C, e, in_next, out);
    case MF_E_INDEX: {
        cellvec cv = {0};
        const mf_var *v = NULL;
        const mf_type *ty = NULL;
        int nx = 0;
        if ((rc = cells(C, e, in_next, &cv, &v, &ty, &nx)) == 0) {
            if (ty->kind == MF_TY_ARRAY)
                rc = unsup(C, e, "a whole array as a value");
            for (int i = 0; i < cv.n && rc == 0; i++)
                rc = read_cell(C, e, v, cv.v[i].slot, nx, cv.v[i].c, out);
        }
        cells_free(&cv);
        return rc;
    }
    default:
        return unsup(C, e, "this expression");
    }
}

/* ------------------------------------------------------------------ */
/* Items                                                                */

mf_vmap *mf_bdd_memo_new(const mf_model *mm)
{
    size_t n = (size_t)MF_BDD_NCTX * (mm->nitems ? mm->nitems : 1) * 2;
    mf_vmap *memo = mf_xcalloc(n, sizeof *memo);
    for (size_t i = 0; i < n; i++)
        memo[i].n = -1;
    return memo;
}

void mf_bdd_memo_free(const mf_model *mm, mf_vmap *memo)
{
    if (!memo)
        return;
    size_t n = (size_t)MF_BDD_NCTX * (mm->nitems ? mm->nitems : 1) * 2;
    for (size_t i = 0; i < n; i++)
        if (memo[i].n > 0)
            mf_vmap_free(&memo[i]);
    free(memo);
}

static cc ctx_of(mf_bdd_space *sp, const mf_model *mm, mf_vmap *memo, int ctx)
{
    cc C = {sp, mm, ctx, MF_BR_XC, -1, MF_BR_XC, memo, 0};
    if (ctx == CTX_STEP) {
        C.nxt = MF_BR_XN;
        C.st = MF_BR_XN;
    } else if (ctx == CTX_NEWST)
        C.cur = C.st = MF_BR_XN;
    return C;
}

/* The cell an assignment's left-hand side names: 0 and *slot; 1 when its
 * index is out of bounds (no state: sim.c's lhs_cell); a negative code. */
static int lhs_slot(cc *C, const mf_expr *e, int *slot, const mf_type **ty)
{
    const mf_model *m = C->m;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *slot = m->vars[e->ref].slot;
        *ty = m->vars[e->ref].type;
        return 0;
    }
    if (e->kind != MF_E_INDEX)
        return unsup(C, e, "this left-hand side");
    int rc = lhs_slot(C, e->kids[0], slot, ty);
    if (rc != 0)
        return rc;
    const mf_type *at = *ty;
    if (at->kind != MF_TY_ARRAY)
        return unsup(C, e, "only arrays can be indexed");
    mf_valset s = {0};
    rc = mf_eval(&s, m, e->kids[1], NULL, NULL, NULL, 1 << 20);
    if (rc < 0 || s.n > 1) {
        MF_VEC_FREE(s);
        return unsup(C, e, "a left-hand side index that is not constant");
    }
    if (s.n == 0 || s.v[0] < at->lo || s.v[0] > at->hi)
        rc = 1;
    else {
        *slot += (int)((s.v[0] - at->lo) * type_cells(at->elem));
        *ty = at->elem;
    }
    MF_VEC_FREE(s);
    return rc;
}

/* The conjunct of item `it` (referenced into *out). */
static int item_conj(mf_bdd_space *sp, const mf_model *mm, mf_vmap *memo,
                     const mf_item *it, int init, BDD *out)
{
    int ctx = -1, assign = 0;
    *out = bddtrue;
    switch (it->kind) {
    case MF_IT_INIT:
        if (init)
            ctx = CTX_INIT, assign = 1;
        break;
    case MF_IT_NEXT:
        if (!init)
            ctx = CTX_STEP, assign = 1;
        break;
    case MF_IT_ASSIGN:
        ctx = init ? CTX_INIT : CTX_NEWST;
        assign = 1;
        break;
    case MF_IT_INIT_C:
        if (init)
            ctx = CTX_INIT;
        break;
    case MF_IT_TRANS_C:
        if (!init)
            ctx = CTX_STEP;
        break;
    case MF_IT_INVAR_C:
        ctx = init ? CTX_INIT : CTX_NEWST;
        break;
    default:
        break;
    }
    if (ctx < 0)
        return 0;
    cc C = ctx_of(sp, mm, memo, ctx);
    mf_vmap v = {0};
    int rc = 0, slot = 0;
    const mf_type *ty = NULL;
    if (assign && (rc = lhs_slot(&C, it->lhs, &slot, &ty)) != 0) {
        if (rc == 1) {
            *out = bddfalse; /* no state: sim.c's plan says so */
            rc = 0;
        }
        return rc;
    }
    if (assign && ty->kind == MF_TY_ARRAY)
        return unsup(&C, it->lhs, "assigning a whole array");
    if ((rc = cx(&C, it->e, 0, &v)) < 0) {
        mf_vmap_free(&v);
        return rc;
    }
    if (assign) {
        int role = init ? MF_BR_XC : MF_BR_XN;
        *out = mf_bdd_blk_takes(mf_bdd_blk_of(sp, slot, role), &v);
    } else {
        BDD f;
        mf_vmap_truth(&v, out, &f);
        bdd_delref(f);
    }
    mf_vmap_free(&v);
    return 0;
}

/* The domains (and frozen cells) as one conjunct (referenced). */
static BDD domains(mf_bdd_space *sp, int init)
{
    BDD r = bdd_addref(bddtrue);
    for (int s = 0; s < sp->nslots; s++) {
        BDD c;
        if (init && sp->ivar[s]) /* no input before the first step */
            c = bdd_addref(mf_bdd_blk_is(mf_bdd_blk_of(sp, s, MF_BR_XC), 0));
        else if (init)
            c = mf_bdd_blk_in_domain(mf_bdd_blk_of(sp, s, MF_BR_XC));
        else if (sp->frozen[s] && !sp->shared[s])
            c = mf_bdd_blk_eq(mf_bdd_blk_of(sp, s, MF_BR_XC),
                       mf_bdd_blk_of(sp, s, MF_BR_XN));
        else
            c = mf_bdd_blk_in_domain(mf_bdd_blk_of(sp, s, MF_BR_XN));
        BDD o = r;
        r = bdd_addref(bdd_and(o, c));
        bdd_delref(o);
        bdd_delref(c);
    }
    return r;
}

int mf_bdd_items(mf_bdd_space *sp, const mf_model *mm, int init,
                 const unsigned char *only, mf_vmap *memo, BDD *conj)
{
    int rc = 0;
    for (int i = 0; i < mm->nitems && rc == 0; i++) {
        if (only && !only[i])
            continue;
        if (sp->deadline > 0 && mf_bdd_cpu_now() > sp->deadline)
            return mf_err_set(MF_ELIMIT, "BDDs: the relations past their "
                                         "time budget");
        bdd_delref(conj[i]);
        conj[i] = bddtrue;
        rc = item_conj(sp, mm, memo, &mm->items[i], init, &conj[i]);
    }
    if (rc == 0 && !only) {
        bdd_delref(conj[mm->nitems]);
        conj[mm->nitems] = domains(sp, init);
    }
    return rc;
}

int mf_bdd_obs_defines(mf_bdd_space *sp, const mf_model *mm, mf_vmap *memo,
                       mf_vmap *out)
{
    cc C = ctx_of(sp, mm, memo, CTX_INIT);
    int rc = 0;
    for (int i = 0; i < mm->nobs_defines && rc == 0; i++) {
        mf_expr id = {.kind = MF_E_ID,
                      .ref_kind = MF_REF_DEFINE,
                      .ref = mm->obs_defines[i]};
        rc = cx_define(&C, &id, 0, &out[i]);
    }
    return rc;
}
