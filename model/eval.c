/* eval.c - the expression evaluator: the set of values an expression of a
 * flattened model can take in a (current, next, input) context.
 *
 * Every expression denotes a finite set of values: a constant or a variable a
 * singleton, `{a, b}`, `lo..hi`, `union` and case branches with set values
 * larger sets. Operators apply pointwise over the cross product of their
 * operands' sets. An empty set means "no value here": a case with no true
 * branch, a division or mod by zero, an index out of bounds. The evaluator
 * does not type check (the flattener did) and does not enumerate states
 * (sim.c does).
 *
 * Two choices go beyond plain pointwise application, both so that a guard
 * can protect the expression it guards, as in `x != 0 & 10 / x > 2`:
 * `&`, `|` and `->` evaluate their right operand only for the left values
 * that need it, and `case`/`?:` evaluate a branch only when its condition can
 * be TRUE and later conditions only when it can be FALSE. The results differ
 * from plain pointwise application only where that would give an empty set.
 *
 * The caller's output vector is also the evaluator's stack: an operand is
 * evaluated past the values already there, then combined and dropped in
 * place, so once that vector has grown (sim.c keeps its vectors across a
 * search) only min/max/count and array indexing allocate.
 *
 * A slot holding MF_SIM_UNSET (INT64_MIN, never a value of any type) has not
 * been assigned yet: sim.c fills the state it is building with it, and a read
 * of it is a bug in sim.c's ordering, reported as MF_ERROR. */
#include "sim.h"
#include "word.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MF_SIM_UNSET INT64_MIN
/* DEFINEs nested deeper than this are taken for a cycle the flattener let
 * through. */
#define MAX_DEPTH 512

typedef struct {
    const mf_model *m;
    const mf_val *cur, *next, *inp;
    int limit; /* largest set allowed */
    int depth; /* DEFINE nesting */
} ectx;

static int ev(ectx *c, const mf_expr *e, int in_next, mf_valset *out);

/* Sort and deduplicate s->v[base..n), then check it against the limit. */
static int vs_finish(ectx *c, mf_valset *s, int base)
{
    mf_val *v = s->v + base;
    int n = s->n - base;
    if (n > 1) {
        n = mf_sort_unique_i64(v, n);
        s->n = base + n;
    }
    if (n > c->limit)
        return mf_err_set(MF_ELIMIT, "a value set grew past %d values",
                          c->limit);
    return 0;
}

/* Drop s->v[from..to), moving what follows down. */
static void vs_cut(mf_valset *s, int from, int to)
{
    memmove(s->v + from, s->v + to, (size_t)(s->n - to) * sizeof(*s->v));
    s->n -= to - from;
}

/* 1 if v is in the sorted values s[0..n). */
static int vs_has(const mf_val *s, int n, mf_val v)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (s[mid] == v)
            return 1;
        if (s[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

static int where(ectx *c, const mf_expr *e, const char *what)
{
    return mf_err_set(MF_ERROR, "%s:%d:%d: error: %s",
                      c->m->file ? c->m->file : "<model>", e->line, e->col,
                      what);
}

/* Number of scalar cells of a type. */
static int64_t type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    return (t->hi - t->lo + 1) * type_cells(t->elem);
}

/* Read one cell of variable v. IVARs always come from the input (or from
 * the state itself when there is none); other variables from the next state
 * inside next(), else from the current one. */
static int read_cell(ectx *c, const mf_expr *e, const mf_var *v, int slot,
                     int in_next, mf_val *out)
{
    const mf_val *src;
    if (v->decl == MF_DECL_IVAR)
        src = c->inp ? c->inp : c->cur;
    else
        src = in_next ? c->next : c->cur;
    if (!src)
        return where(c, e,
                     in_next ? "next() is not allowed here"
                             : "no state to read a variable from");
    if (src[slot] == MF_SIM_UNSET)
        return mf_err_set(MF_ERROR,
                          "%s:%d:%d: internal error: '%s' read before the "
                          "simulator assigned it",
                          c->m->file ? c->m->file : "<model>", e->line, e->col,
                          v->name);
    *out = src[slot];
    return 0;
}

typedef MF_VEC(int) intvec;

/* The cells an array reference (a, a[i], a[i][j], or a DEFINE naming one)
 * can denote: their slots, the variable, and the type at that level. A
 * non-deterministic index gives several cells, an index out of bounds none. */
static int ev_cells(ectx *c, const mf_expr *e, int in_next, intvec *slots,
                    const mf_var **var, const mf_type **ty, int *rd_next)
{
    int rc = 0;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *var = &c->m->vars[e->ref];
        *ty = (*var)->type;
        *rd_next = in_next;
        MF_VEC_PUSH(*slots, (*var)->slot);
        return 0;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE) {
        if (++c->depth > MAX_DEPTH)
            return where(c, e, "DEFINEs nested too deeply (a cycle?)");
        rc = ev_cells(c, c->m->items[e->ref].e, in_next, slots, var, ty,
                      rd_next);
        c->depth--;
        return rc;
    }
    if (e->kind == MF_E_NEXT && !in_next) {
        if (!c->next)
            return where(c, e, "next() is not allowed here");
        return ev_cells(c, e->kids[0], 1, slots, var, ty, rd_next);
    }
    if (e->kind != MF_E_INDEX)
        return where(c, e, "only arrays can be indexed");

    intvec base = {0};
    mf_valset idx = {0};
    const mf_type *at = NULL;
    if ((rc = ev_cells(c, e->kids[0], in_next, &base, var, &at, rd_next)) < 0)
        goto cleanup;
    if (at->kind != MF_TY_ARRAY) {
        rc = where(c, e, "only arrays can be indexed");
        goto cleanup;
    }
    if ((rc = ev(c, e->kids[1], in_next, &idx)) < 0)
        goto cleanup;
    int64_t ec = type_cells(at->elem);
    for (int i = 0; i < base.n; i++)
        for (int j = 0; j < idx.n; j++)
            if (idx.v[j] >= at->lo && idx.v[j] <= at->hi)
                MF_VEC_PUSH(*slots,
                            base.v[i] + (int)((idx.v[j] - at->lo) * ec));
    *ty = at->elem;
cleanup:
    MF_VEC_FREE(base);
    MF_VEC_FREE(idx);
    return rc;
}

int mf_eval_binop(int op, mf_val a, mf_val b, mf_val *r, const char **why)
{
    switch (op) {
    case MF_OP_AND:
        *r = a && b;
        return 0;
    case MF_OP_OR:
        *r = a || b;
        return 0;
    case MF_OP_IMPLIES:
        *r = !a || b;
        return 0;
    case MF_OP_XOR:
        *r = (a != 0) != (b != 0);
        return 0;
    case MF_OP_XNOR:
    case MF_OP_IFF:
        *r = (a != 0) == (b != 0);
        return 0;
    case MF_OP_EQ:
        *r = a == b;
        return 0;
    case MF_OP_NE:
        *r = a != b;
        return 0;
    case MF_OP_LT:
        *r = a < b;
        return 0;
    case MF_OP_LE:
        *r = a <= b;
        return 0;
    case MF_OP_GT:
        *r = a > b;
        return 0;
    case MF_OP_GE:
        *r = a >= b;
        return 0;
    /* past MF_SYM_BASE an integer would read as a symbol: an overflow */
    case MF_OP_ADD:
        if (__builtin_add_overflow(a, b, r) || *r >= MF_SYM_BASE ||
            *r <= -MF_SYM_BASE)
            break;
        return 0;
    case MF_OP_SUB:
        if (__builtin_sub_overflow(a, b, r) || *r >= MF_SYM_BASE ||
            *r <= -MF_SYM_BASE)
            break;
        return 0;
    case MF_OP_MUL:
        if (__builtin_mul_overflow(a, b, r) || *r >= MF_SYM_BASE ||
            *r <= -MF_SYM_BASE)
            break;
        return 0;
    case MF_OP_DIV:
    case MF_OP_MOD:
        if (b == 0)
            return 1;
        if (a == INT64_MIN && b == -1)
            break;
        /* C99 truncates toward zero, as NuSMV does; a mod b keeps the sign
         * of a: a - b * (a / b). */
        *r = op == MF_OP_DIV ? a / b : a % b;
        return 0;
    default:
        *why = "unknown operator";
        return -1;
    }
    *why = "integer overflow";
    return -1;
}

/* One binary operation on two values: 0 and *r set, 1 if undefined (division
 * by zero), or a negative code. */
static int apply(ectx *c, const mf_expr *e, int op, mf_val a, mf_val b,
                 mf_val *r)
{
    /* a word operator (word.c); comparisons of words are those of their
     * values, below */
    if (e->kids[0]->wty && (e->wty || op == MF_OP_SHL || op == MF_OP_SHR))
        return mf_word_binop(r, op, e->kids[0]->wty, a, e->kids[1]->wty, b);
    const char *why;
    int rc = mf_eval_binop(op, a, b, r, &why);
    return rc < 0 ? where(c, e, why) : rc;
}

/* Which truth values the condition e can take (*can_true, *can_false),
 * evaluated in out's tail and dropped again. */
static int ev_truth(ectx *c, const mf_expr *e, int in_next, mf_valset *out,
                    int *can_true, int *can_false)
{
    int rc, base = out->n;
    if ((rc = ev(c, e, in_next, out)) < 0)
        return rc;
    *can_true = *can_false = 0;
    for (int i = base; i < out->n; i++) {
        if (out->v[i])
            *can_true = 1;
        else
            *can_false = 1;
    }
    out->n = base;
    return 0;
}

/* &, | and ->: the right operand only where the left one does not decide.
 * Like every ev_* below, it appends its values to out unsorted (ev
 * normalises them) and evaluates its operands in out's tail, past those
 * values. */
static int ev_logic(ectx *c, const mf_expr *e, int in_next, mf_valset *out)
{
    int rc, has0, has1;
    if ((rc = ev_truth(c, e->kids[0], in_next, out, &has1, &has0)) < 0)
        return rc;
    /* The left value for which the right operand decides. */
    int pass = e->op == MF_OP_OR ? 0 : 1;
    int decided = e->op == MF_OP_AND ? 0 : 1; /* result for the other value */
    if (pass ? has0 : has1)
        MF_VEC_PUSH(*out, decided);
    if (pass ? has1 : has0) {
        int rbase = out->n;
        if ((rc = ev(c, e->kids[1], in_next, out)) < 0)
            return rc;
        for (int i = rbase; i < out->n; i++)
            out->v[i] = out->v[i] != 0;
    }
    return 0;
}

/* Both operands of binary e evaluated into the tail of out, the left's
 * values ending at *lend, the right's at out->n. */
static int ev_operands(ectx *c, const mf_expr *e, int in_next,
                       mf_valset *out, int *lend)
{
    int rc = ev(c, e->kids[0], in_next, out);
    if (rc < 0)
        return rc;
    *lend = out->n;
    return ev(c, e->kids[1], in_next, out);
}

static int ev_bin(ectx *c, const mf_expr *e, int in_next, mf_valset *out)
{
    int rc, base = out->n, lend, rend;
    if ((e->op == MF_OP_AND || e->op == MF_OP_OR || e->op == MF_OP_IMPLIES) &&
        !e->wty)
        return ev_logic(c, e, in_next, out);
    if ((rc = ev_operands(c, e, in_next, out, &lend)) < 0)
        return rc;
    rend = out->n;
    if (e->op == MF_OP_UNION)
        return 0; /* both operands' values, already in place */
    /* Indices, not pointers: a push may move out->v. */
    if (e->op == MF_OP_IN) {
        for (int i = base; i < lend; i++)
            MF_VEC_PUSH(*out, vs_has(out->v + lend, rend - lend, out->v[i]));
    } else {
        for (int i = base; i < lend; i++)
            for (int j = lend; j < rend; j++) {
                mf_val v = 0;
                if ((rc = apply(c, e, e->op, out->v[i], out->v[j], &v)) < 0)
                    return rc;
                if (rc == 0)
                    MF_VEC_PUSH(*out, v);
            }
    }
    vs_cut(out, base, rend);
    return 0;
}

/* case c0 : v0; c1 : v1; ... esac, and c ? a : b (kids c, a, TRUE, b). */
static int ev_case(ectx *c, const mf_expr **kids, int nkids, int in_next,
                   mf_valset *out)
{
    int rc = 0;
    for (int i = 0; i + 1 < nkids; i += 2) {
        int can_true, can_false;
        if ((rc = ev_truth(c, kids[i], in_next, out, &can_true, &can_false)) <
            0)
            return rc;
        if (can_true && (rc = ev(c, kids[i + 1], in_next, out)) < 0)
            return rc;
        if (!can_false)
            break;
    }
    return rc;
}

/* A word conversion (word.c) of each value of kids[0]; its other kids are
 * integer literals (typecheck.c checked them). */
static int ev_word_call(ectx *c, const mf_expr *e, int in_next,
                        mf_valset *out)
{
    int rc, base = out->n;
    const mf_expr *w = e->kids[0];
    if (e->op == MF_FN_SIZEOF) {
        MF_VEC_PUSH(*out, MF_WTY_WIDTH(w->wty));
        return 0;
    }
    if ((rc = ev(c, w, in_next, out)) < 0)
        return rc;
    int hi = e->nkids > 1 ? (int)e->kids[1]->ival : 0;
    int lo = e->nkids > 2 ? (int)e->kids[2]->ival : 0;
    for (int i = base; i < out->n; i++)
        out->v[i] = mf_word_cast(e->op, e->wty, w->wty, out->v[i], hi, lo);
    return 0;
}

/* min, max and count fold over their arguments pointwise. */
static int ev_call(ectx *c, const mf_expr *e, int in_next, mf_valset *out)
{
    mf_valset acc = {0}, arg = {0}, tmp = {0};
    int rc = 0;
    if (e->nkids < 1) {
        rc = where(c, e, "a function needs arguments");
        goto cleanup;
    }
    if (e->op >= MF_FN_WORD1)
        return ev_word_call(c, e, in_next, out);
    if (e->op == MF_FN_COUNT)
        MF_VEC_PUSH(acc, 0);
    for (int k = 0; k < e->nkids; k++) {
        arg.n = 0;
        if ((rc = ev(c, e->kids[k], in_next, &arg)) < 0)
            goto cleanup;
        if (k == 0 && e->op != MF_FN_COUNT) {
            for (int i = 0; i < arg.n; i++) {
                mf_val v = arg.v[i];
                switch (e->op) {
                case MF_FN_ABS:
                    if (v == INT64_MIN) {
                        rc = where(c, e, "integer overflow");
                        goto cleanup;
                    }
                    v = v < 0 ? -v : v;
                    break;
                case MF_FN_BOOL:
                    v = v != 0;
                    break;
                default:
                    break; /* min, max, toint: as is */
                }
                MF_VEC_PUSH(acc, v);
            }
            if ((rc = vs_finish(c, &acc, 0)) < 0)
                goto cleanup;
            continue;
        }
        tmp.n = 0;
        for (int i = 0; i < acc.n; i++)
            for (int j = 0; j < arg.n; j++) {
                mf_val a = acc.v[i], b = arg.v[j], v;
                if (e->op == MF_FN_MIN)
                    v = a < b ? a : b;
                else if (e->op == MF_FN_MAX)
                    v = a > b ? a : b;
                else if (e->op == MF_FN_COUNT)
                    v = a + (b != 0);
                else {
                    rc = where(c, e, "too many arguments");
                    goto cleanup;
                }
                MF_VEC_PUSH(tmp, v);
            }
        if ((rc = vs_finish(c, &tmp, 0)) < 0)
            goto cleanup;
        mf_valset sw = acc;
        acc = tmp;
        tmp = sw;
    }
    for (int i = 0; i < acc.n; i++)
        MF_VEC_PUSH(*out, acc.v[i]);
cleanup:
    MF_VEC_FREE(acc);
    MF_VEC_FREE(arg);
    MF_VEC_FREE(tmp);
    return rc;
}

static int ev_range(ectx *c, const mf_expr *e, int in_next, mf_valset *out)
{
    int rc, base = out->n, lend, hend;
    if ((rc = ev_operands(c, e, in_next, out, &lend)) < 0)
        return rc;
    hend = out->n;
    for (int i = base; i < lend; i++)
        for (int j = lend; j < hend; j++) {
            mf_val lo = out->v[i], hi = out->v[j];
            if (hi >= lo && hi - lo >= (mf_val)c->limit)
                return mf_err_set(
                    MF_ELIMIT, "the range %lld..%lld has more than %d values",
                    (long long)lo, (long long)hi, c->limit);
            for (mf_val v = lo; v <= hi; v++)
                MF_VEC_PUSH(*out, v);
        }
    vs_cut(out, base, hend);
    return 0;
}

/* The index of symbolic constant `name` in m. A lookup by name scans the
 * model's symbols, a cost the explorer's inner loop pays on every symbol
 * (docs/semantics.md), so a small per-thread table remembers where each
 * name was found, keyed by its address (the expressions' own strings); a
 * hit is checked against the model's symbol there, so an entry left by
 * another model is never trusted. */
static int sym_index(const mf_model *m, const char *name)
{
    static _Thread_local struct {
        const char *name;
        int i;
    } memo[256];
    size_t h = ((uintptr_t)name >> 4) & 255;
    int i = memo[h].i;
    if (memo[h].name == name && i < m->nsyms && !strcmp(m->syms[i], name))
        return i;
    i = mf_model_find_sym(m, name);
    if (i >= 0) {
        memo[h].name = name;
        memo[h].i = i;
    }
    return i;
}

/* Evaluate e into out: its values are appended, then normalised in place.
 * On an error out holds values past its old end, which the caller drops. */
static int ev(ectx *c, const mf_expr *e, int in_next, mf_valset *out)
{
    intvec slots = {0};
    int rc = 0, base = out->n;

    switch (e->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
    case MF_E_WORD:
        MF_VEC_PUSH(*out, e->ival);
        return 0;
    case MF_E_SYM: {
        int i = sym_index(c->m, e->name);
        if (i < 0)
            return where(c, e, "unknown symbolic constant");
        MF_VEC_PUSH(*out, MF_SYM(i));
        return 0;
    }
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE) {
            if (++c->depth > MAX_DEPTH)
                return where(c, e, "DEFINEs nested too deeply (a cycle?)");
            rc = ev(c, c->m->items[e->ref].e, in_next, out);
            c->depth--;
            break;
        }
        if (e->ref_kind == MF_REF_VAR) {
            const mf_var *v = &c->m->vars[e->ref];
            mf_val x = 0;
            if (v->type->kind == MF_TY_ARRAY)
                return where(c, e, "a whole array cannot be used as a value");
            if ((rc = read_cell(c, e, v, v->slot, in_next, &x)) < 0)
                return rc;
            MF_VEC_PUSH(*out, x);
            return 0;
        }
        return where(c, e, "unresolved identifier");
    case MF_E_NEXT:
        if (in_next)
            return where(c, e, "next() inside next()");
        if (!c->next)
            return where(c, e, "next() is not allowed here");
        rc = ev(c, e->kids[0], 1, out);
        break;
    case MF_E_NOT:
    case MF_E_NEG:
        if ((rc = ev(c, e->kids[0], in_next, out)) < 0)
            break;
        for (int i = base; i < out->n; i++) {
            if (e->wty)
                out->v[i] = e->kind == MF_E_NOT ? mf_word_not(e->wty, out->v[i])
                                                : mf_word_neg(e->wty, out->v[i]);
            else if (e->kind == MF_E_NOT)
                out->v[i] = !out->v[i];
            else if (out->v[i] == INT64_MIN) {
                rc = where(c, e, "integer overflow");
                break;
            } else
                out->v[i] = -out->v[i];
        }
        break;
    case MF_E_BIN:
        rc = ev_bin(c, e, in_next, out);
        break;
    case MF_E_CASE:
        rc = ev_case(c, (const mf_expr **)e->kids, e->nkids, in_next, out);
        break;
    case MF_E_ITE: {
        mf_expr t = {.kind = MF_E_BOOL, .ival = 1};
        const mf_expr *k[4] = {e->kids[0], e->kids[1], &t, e->kids[2]};
        rc = ev_case(c, k, 4, in_next, out);
        break;
    }
    case MF_E_SET:
        for (int i = 0; i < e->nkids && rc == 0; i++)
            rc = ev(c, e->kids[i], in_next, out);
        break;
    case MF_E_RANGE:
        rc = ev_range(c, e, in_next, out);
        break;
    case MF_E_CALL:
        rc = ev_call(c, e, in_next, out);
        break;
    case MF_E_INDEX: {
        const mf_var *v = NULL;
        const mf_type *ty = NULL;
        int nx = 0;
        if ((rc = ev_cells(c, e, in_next, &slots, &v, &ty, &nx)) < 0)
            break;
        if (ty->kind == MF_TY_ARRAY) {
            rc = where(c, e, "a whole array cannot be used as a value");
            break;
        }
        /* next(a)[i] reads the next state (and i the current one):
         * read the cells where ev_cells found the array. */
        for (int i = 0; i < slots.n && rc == 0; i++) {
            mf_val x = 0;
            if ((rc = read_cell(c, e, v, slots.v[i], nx, &x)) == 0)
                MF_VEC_PUSH(*out, x);
        }
        break;
    }
    default:
        rc = where(c, e, "unknown expression");
        break;
    }
    if (rc >= 0)
        rc = vs_finish(c, out, base);
    MF_VEC_FREE(slots);
    return rc < 0 ? rc : 0;
}

int mf_eval(mf_valset *out, const mf_model *m, const mf_expr *e,
            const mf_val *cur, const mf_val *next, const mf_val *inp, int limit)
{
    ectx c = {m, cur, next, inp, limit > 0 ? limit : INT_MAX, 0};
    int base = out->n;
    int rc = ev(&c, e, 0, out);
    if (rc != 0)
        out->n = base;
    return rc;
}
