/* encode_expr.c - expressions as Z3 terms: each becomes a value and a
 * definedness condition (a case with no true branch, a division by zero, an
 * index out of bounds are undefined), every set-valued node a fresh choice
 * constant. Mirrors eval.c, with the same lazy `&`, `|`, `->` and case
 * evaluation, so a guard protects what it guards exactly as in the simulator
 * (which replays every kill). A DEFINE in a meta copy reads the batch's
 * variants. It does not say which expressions a state is built from
 * (encode_unroll.c). */
#include "encode_int.h"

#include <stdlib.h>

/* Booleans are the values 0 and 1; any non-zero value is true. */
static Z3_ast b2i(mf_enc *E, Z3_ast b)
{
    return ite(E, b, num(E, 1), num(E, 0));
}

static Z3_ast i2b(mf_enc *E, Z3_ast v)
{
    return not1(E, eq(E, v, num(E, 0)));
}

static mf_enc_tv ex(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                    int in_next, int depth);

/* lo <= v <= hi, both bounds defined. */
static Z3_ast within(mf_enc *E, mf_enc_tv lo, mf_enc_tv hi, Z3_ast v)
{
    return and2(E, and2(E, lo.d, hi.d),
                and2(E, le(E, lo.v, v), le(E, v, hi.v)));
}

/* The kids of a case, or of c ? a : b read as `case c : a; TRUE : b;`
 * (k and *tru hold the latter). *n gets their number. */
static const mf_expr **case_kids(const mf_expr *e, mf_expr *tru,
                                 const mf_expr *k[4], int *n)
{
    if (e->kind != MF_E_ITE) {
        *n = e->nkids;
        return (const mf_expr **)e->kids;
    }
    *tru = (mf_expr){.kind = MF_E_BOOL, .ival = 1};
    k[0] = e->kids[0], k[1] = e->kids[1];
    k[2] = tru, k[3] = e->kids[2];
    *n = 4;
    return k;
}

/* ------------------------------------------------------------------ */
/* References                                                           */

static int64_t type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    return (t->hi - t->lo + 1) * type_cells(t->elem);
}

/* The cells a reference denotes (eval.c ev_cells), each under a condition. */
static int ref_cells(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                     int in_next, int depth, mf_enc_cellvec *out, Z3_ast *def,
                     const mf_var **var, const mf_type **ty, int *rd_next)
{
    const mf_model *m = E->m;
    if (depth > 512) {
        mf_enc_note_unsupported(E, e, "DEFINEs nested this deeply");
        return -1;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *var = &m->vars[e->ref];
        *ty = (*var)->type;
        *rd_next = in_next;
        mf_enc_cell c = {E->tru, (*var)->slot};
        MF_VEC_PUSH(*out, c);
        return 0;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return ref_cells(E, x, m->items[e->ref].e, in_next, depth + 1, out, def,
                         var, ty, rd_next);
    if (e->kind == MF_E_NEXT && !in_next)
        return ref_cells(E, x, e->kids[0], 1, depth, out, def, var, ty,
                         rd_next);
    if (e->kind != MF_E_INDEX) {
        mf_enc_note_unsupported(E, e, "indexing this expression");
        return -1;
    }
    mf_enc_cellvec base = {0};
    const mf_type *at = NULL;
    int rc = ref_cells(E, x, e->kids[0], in_next, depth, &base, def, var, &at,
                       rd_next);
    if (rc < 0 || at->kind != MF_TY_ARRAY) {
        MF_VEC_FREE(base);
        if (rc == 0)
            mf_enc_note_unsupported(E, e, "indexing a non-array");
        return -1;
    }
    mf_enc_tv idx = ex(E, x, e->kids[1], in_next, depth);
    Z3_ast inr =
        and2(E, le(E, num(E, at->lo), idx.v), le(E, idx.v, num(E, at->hi)));
    *def = and2(E, *def, and2(E, idx.d, inr));
    int64_t ec = type_cells(at->elem);
    for (int i = 0; i < base.n; i++)
        for (int64_t v = at->lo; v <= at->hi; v++) {
            mf_enc_cell c = {and2(E, base.v[i].cond, eq(E, idx.v, num(E, v))),
                             base.v[i].slot + (int)((v - at->lo) * ec)};
            MF_VEC_PUSH(*out, c);
        }
    *ty = at->elem;
    MF_VEC_FREE(base);
    return 0;
}

/* The term of cell `slot` of variable v: an IVAR is read from the inputs,
 * anything else from the current or (under next()) the next state. */
static Z3_ast read_slot(mf_enc *E, const mf_enc_ectx *x, const mf_var *v,
                        int slot, int in_next, const mf_expr *e)
{
    Z3_ast *src;
    if (v->decl == MF_DECL_IVAR)
        src = x->inp ? x->inp : x->cur;
    else
        src = in_next ? x->next : x->cur;
    if (!src) {
        mf_enc_note_unsupported(E, e, "next() here");
        return num(E, 0);
    }
    return src[slot];
}

/* A variable or array element as a value: the cell the indices select. */
static mf_enc_tv ex_ref(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                        int in_next, int depth)
{
    mf_enc_cellvec cells = {0};
    const mf_var *v = NULL;
    const mf_type *ty = NULL;
    int nx = 0;
    Z3_ast def = E->tru;
    mf_enc_tv r = {num(E, 0), E->fls};
    if (ref_cells(E, x, e, in_next, depth, &cells, &def, &v, &ty, &nx) < 0 ||
        ty->kind == MF_TY_ARRAY) {
        if (ty && ty->kind == MF_TY_ARRAY)
            mf_enc_note_unsupported(E, e, "a whole array as a value");
        MF_VEC_FREE(cells);
        return r;
    }
    Z3_ast val = num(E, 0);
    for (int i = cells.n - 1; i >= 0; i--)
        val = ite(E, cells.v[i].cond,
                  read_slot(E, x, v, cells.v[i].slot, nx, e), val);
    r.v = val;
    r.d = def;
    MF_VEC_FREE(cells);
    return r;
}

/* ------------------------------------------------------------------ */
/* Sets and values                                                      */

static Z3_ast member(mf_enc *E, const mf_enc_ectx *x, Z3_ast v,
                     const mf_expr *e, int in_next, int depth);

/* v in a case whose branches may be sets: as eval.c's ev_case, branch i
 * contributes when its condition can be true and every earlier one can be
 * false (a condition is itself a set when it has choices). */
static Z3_ast member_case(mf_enc *E, const mf_enc_ectx *x, Z3_ast v,
                          const mf_expr **k, int n, int in_next, int depth)
{
    Z3_ast r = E->fls, reach = E->tru;
    Z3_ast one = num(E, 1), zero = num(E, 0);
    for (int i = 0; i + 1 < n; i += 2) {
        Z3_ast can_t = member(E, x, one, k[i], in_next, depth);
        Z3_ast can_f = member(E, x, zero, k[i], in_next, depth);
        Z3_ast in_i = member(E, x, v, k[i + 1], in_next, depth);
        r = or2(E, r, and2(E, reach, and2(E, can_t, in_i)));
        reach = and2(E, reach, can_f);
    }
    return r;
}

/* v in the set e, without choices where possible (`in`). */
static Z3_ast member(mf_enc *E, const mf_enc_ectx *x, Z3_ast v,
                     const mf_expr *e, int in_next, int depth)
{
    if (e->kind == MF_E_SET) {
        Z3_ast r = E->fls;
        for (int i = 0; i < e->nkids; i++)
            r = or2(E, r, member(E, x, v, e->kids[i], in_next, depth));
        return r;
    }
    if (e->kind == MF_E_BIN && e->op == MF_OP_UNION)
        return or2(E, member(E, x, v, e->kids[0], in_next, depth),
                   member(E, x, v, e->kids[1], in_next, depth));
    if (e->kind == MF_E_RANGE && !mf_enc_has_choice(E->m, e->kids[0]) &&
        !mf_enc_has_choice(E->m, e->kids[1])) {
        mf_enc_tv lo = ex(E, x, e->kids[0], in_next, depth);
        mf_enc_tv hi = ex(E, x, e->kids[1], in_next, depth);
        return within(E, lo, hi, v);
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return member(E, x, v, E->m->items[e->ref].e, in_next, depth + 1);
    if (e->kind == MF_E_CASE || e->kind == MF_E_ITE) {
        mf_expr t;
        const mf_expr *k4[4];
        int n;
        const mf_expr **k = case_kids(e, &t, k4, &n);
        return member_case(E, x, v, k, n, in_next, depth);
    }
    if (mf_enc_has_choice(E->m, e)) {
        /* Existential only: exact in positive positions. */
        mf_enc_note_unsupported(E, e, "`in` with a computed set on the right");
    }
    mf_enc_tv t = ex(E, x, e, in_next, depth);
    return and2(E, t.d, eq(E, v, t.v));
}

/* a op b for an arithmetic or comparison operator, as the simulator's int64
 * computes it (comparisons give 0 or 1). */
static Z3_ast arith(mf_enc *E, int op, Z3_ast a, Z3_ast b)
{
    Z3_context c = E->c;
    Z3_ast x[2] = {a, b};
    if (E->bvw) {
        /* The width holds every intermediate value (encode_analysis.c): no
         * wrap. bvsdiv/bvsrem truncate like C; zero divisors are undefined. */
        switch (op) {
        case MF_OP_ADD:
            return K(Z3_mk_bvadd(c, a, b));
        case MF_OP_SUB:
            return K(Z3_mk_bvsub(c, a, b));
        case MF_OP_MUL:
            return K(Z3_mk_bvmul(c, a, b));
        case MF_OP_DIV:
            return K(Z3_mk_bvsdiv(c, a, b));
        case MF_OP_MOD:
            return K(Z3_mk_bvsrem(c, a, b));
        case MF_OP_LT:
            return b2i(E, lt(E, a, b));
        case MF_OP_LE:
            return b2i(E, le(E, a, b));
        case MF_OP_GT:
            return b2i(E, lt(E, b, a));
        case MF_OP_GE:
            return b2i(E, le(E, b, a));
        default:
            break;
        }
    }
    switch (op) {
    case MF_OP_ADD:
        return K(Z3_mk_add(c, 2, x));
    case MF_OP_SUB:
        return K(Z3_mk_sub(c, 2, x));
    case MF_OP_MUL:
        return K(Z3_mk_mul(c, 2, x));
    case MF_OP_DIV:
    case MF_OP_MOD: {
        /* C truncation: |a| div |b| with the sign fixed up. */
        Z3_ast zero = num(E, 0);
        Z3_ast aa =
            ite(E, K(Z3_mk_ge(c, a, zero)), a, K(Z3_mk_unary_minus(c, a)));
        Z3_ast ab =
            ite(E, K(Z3_mk_ge(c, b, zero)), b, K(Z3_mk_unary_minus(c, b)));
        Z3_ast q = K(Z3_mk_div(c, aa, ab));
        Z3_ast signs_differ =
            K(Z3_mk_xor(c, K(Z3_mk_lt(c, a, zero)), K(Z3_mk_lt(c, b, zero))));
        Z3_ast t = ite(E, signs_differ, K(Z3_mk_unary_minus(c, q)), q);
        if (op == MF_OP_DIV)
            return t;
        Z3_ast bt[2] = {b, t};
        Z3_ast prod = K(Z3_mk_mul(c, 2, bt));
        Z3_ast y[2] = {a, prod};
        return K(Z3_mk_sub(c, 2, y));
    }
    case MF_OP_EQ:
        return b2i(E, eq(E, a, b));
    case MF_OP_NE:
        return b2i(E, not1(E, eq(E, a, b)));
    case MF_OP_LT:
        return b2i(E, K(Z3_mk_lt(c, a, b)));
    case MF_OP_LE:
        return b2i(E, K(Z3_mk_le(c, a, b)));
    case MF_OP_GT:
        return b2i(E, K(Z3_mk_gt(c, a, b)));
    case MF_OP_GE:
        return b2i(E, K(Z3_mk_ge(c, a, b)));
    case MF_OP_XOR:
        return b2i(E, K(Z3_mk_xor(c, i2b(E, a), i2b(E, b))));
    case MF_OP_XNOR:
    case MF_OP_IFF:
        return b2i(E, K(Z3_mk_iff(c, i2b(E, a), i2b(E, b))));
    default:
        return num(E, 0);
    }
}

/* case c0 : v0; ...; kids as in MF_E_CASE. */
static mf_enc_tv ex_case(mf_enc *E, const mf_enc_ectx *x, const mf_expr **kids,
                         int n, int in_next, int depth, int i)
{
    mf_enc_tv r = {num(E, 0), E->fls};
    if (i + 1 >= n)
        return r;
    mf_enc_tv cnd = ex(E, x, kids[i], in_next, depth);
    mf_enc_tv val = ex(E, x, kids[i + 1], in_next, depth);
    mf_enc_tv rest = ex_case(E, x, kids, n, in_next, depth, i + 2);
    Z3_ast ct = i2b(E, cnd.v);
    r.v = ite(E, ct, val.v, rest.v);
    r.d = and2(E, cnd.d, ite(E, ct, val.d, rest.d));
    return r;
}

static mf_enc_tv ex_define(mf_enc *E, const mf_enc_ectx *x, int item,
                           int in_next, int depth);

/* A binary operator: `in` and union are sets, `&`, `|`, `->` are lazy in
 * their right operand, the rest arithmetic; r is ex's default result. */
static mf_enc_tv ex_bin(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                        int in_next, int depth, mf_enc_tv r)
{
    if (e->op == MF_OP_IN) {
        mf_enc_tv a = ex(E, x, e->kids[0], in_next, depth);
        r.v = b2i(E, member(E, x, a.v, e->kids[1], in_next, depth));
        r.d = a.d;
        return r;
    }
    if (e->op == MF_OP_UNION) {
        mf_enc_tv a = ex(E, x, e->kids[0], in_next, depth);
        mf_enc_tv b = ex(E, x, e->kids[1], in_next, depth);
        Z3_ast ch = mf_enc_new_choice(E);
        r.v = ch;
        r.d =
            or2(E, and2(E, a.d, eq(E, ch, a.v)), and2(E, b.d, eq(E, ch, b.v)));
        return r;
    }
    mf_enc_tv a = ex(E, x, e->kids[0], in_next, depth);
    mf_enc_tv b = ex(E, x, e->kids[1], in_next, depth);
    Z3_ast at = i2b(E, a.v);
    if (e->kids[0]->wty &&
        (e->wty || e->op == MF_OP_SHL || e->op == MF_OP_SHR)) {
        /* a word operator (encode_word.c); word comparisons are those of
         * the values, below */
        Z3_ast def = E->tru;
        r.v = mf_enc_word_bin(E, e->op, e->kids[0]->wty, a.v, e->kids[1]->wty,
                              b.v, &def);
        r.d = and2(E, and2(E, a.d, b.d), def);
        if (e->op == MF_OP_DIV || e->op == MF_OP_MOD)
            r.d = and2(E, r.d, not1(E, eq(E, b.v, num(E, 0))));
        return r;
    }
    switch (e->op) {
    case MF_OP_AND:
        r.v = ite(E, at, b2i(E, i2b(E, b.v)), num(E, 0));
        r.d = and2(E, a.d, or2(E, not1(E, at), b.d));
        return r;
    case MF_OP_OR:
        r.v = ite(E, at, num(E, 1), b2i(E, i2b(E, b.v)));
        r.d = and2(E, a.d, or2(E, at, b.d));
        return r;
    case MF_OP_IMPLIES:
        r.v = ite(E, at, b2i(E, i2b(E, b.v)), num(E, 1));
        r.d = and2(E, a.d, or2(E, not1(E, at), b.d));
        return r;
    default:
        r.v = arith(E, e->op, a.v, b.v);
        r.d = and2(E, a.d, b.d);
        if (e->op == MF_OP_DIV || e->op == MF_OP_MOD)
            r.d = and2(E, r.d, not1(E, eq(E, b.v, num(E, 0))));
        return r;
    }
}

/* A built-in function: abs, bool, count, min, max (r as in ex_bin). */
static mf_enc_tv ex_call(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                         int in_next, int depth, mf_enc_tv r)
{
    if (e->nkids < 1)
        return r;
    mf_enc_tv a = ex(E, x, e->kids[0], in_next, depth);
    if (e->op >= MF_FN_WORD1) {
        /* its other kids are integer literals (flatten.c) */
        int hi = e->nkids > 1 ? (int)e->kids[1]->ival : 0;
        int lo = e->nkids > 2 ? (int)e->kids[2]->ival : 0;
        r.v = mf_enc_word_cast(E, e->op, e->wty, e->kids[0]->wty, a.v, hi, lo);
        r.d = a.d;
        return r;
    }
    Z3_ast acc = a.v, d = a.d;
    Z3_ast zero = num(E, 0);
    switch (e->op) {
    case MF_FN_ABS:
        acc = ite(E, lt(E, acc, zero), neg(E, acc), acc);
        break;
    case MF_FN_BOOL:
        acc = b2i(E, i2b(E, acc));
        break;
    case MF_FN_COUNT:
        acc = b2i(E, i2b(E, acc));
        break;
    default:
        break;
    }
    for (int k = 1; k < e->nkids; k++) {
        mf_enc_tv b = ex(E, x, e->kids[k], in_next, depth);
        d = and2(E, d, b.d);
        if (e->op == MF_FN_MIN)
            acc = ite(E, lt(E, acc, b.v), acc, b.v);
        else if (e->op == MF_FN_MAX)
            acc = ite(E, lt(E, b.v, acc), acc, b.v);
        else if (e->op == MF_FN_COUNT)
            acc = arith(E, MF_OP_ADD, acc, b2i(E, i2b(E, b.v)));
    }
    r.v = acc;
    r.d = d;
    return r;
}

/* Expression e over the states of x; in_next: inside next(); depth counts
 * the DEFINEs entered (a cycle stops at 512, noted unsupported). */
static mf_enc_tv ex(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                    int in_next, int depth)
{
    mf_enc_tv r = {num(E, 0), E->tru};
    if (depth > 512) {
        mf_enc_note_unsupported(E, e, "DEFINEs nested this deeply");
        return r;
    }
    switch (e->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
    case MF_E_WORD:
        r.v = num(E, e->ival);
        return r;
    case MF_E_SYM: {
        int i = mf_model_find_sym(E->m, e->name);
        r.v = mf_enc_val(E, MF_SYM(i < 0 ? 0 : i));
        return r;
    }
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE)
            return ex_define(E, x, e->ref, in_next, depth + 1);
        return ex_ref(E, x, e, in_next, depth);
    case MF_E_INDEX:
        return ex_ref(E, x, e, in_next, depth);
    case MF_E_NEXT:
        if (in_next || !x->next) {
            mf_enc_note_unsupported(E, e, "next() here");
            return r;
        }
        return ex(E, x, e->kids[0], 1, depth);
    case MF_E_NOT: {
        mf_enc_tv a = ex(E, x, e->kids[0], in_next, depth);
        r.v = e->wty ? mf_enc_word_un(E, 1, e->wty, a.v)
                     : b2i(E, eq(E, a.v, num(E, 0)));
        r.d = a.d;
        return r;
    }
    case MF_E_NEG: {
        mf_enc_tv a = ex(E, x, e->kids[0], in_next, depth);
        r.v = e->wty ? mf_enc_word_un(E, 0, e->wty, a.v) : neg(E, a.v);
        r.d = a.d;
        return r;
    }
    case MF_E_BIN:
        return ex_bin(E, x, e, in_next, depth, r);
    case MF_E_CASE:
    case MF_E_ITE: {
        mf_expr t;
        const mf_expr *k4[4];
        int n;
        const mf_expr **k = case_kids(e, &t, k4, &n);
        return ex_case(E, x, k, n, in_next, depth, 0);
    }
    case MF_E_SET: {
        Z3_ast ch = mf_enc_new_choice(E);
        Z3_ast d = E->fls;
        for (int i = 0; i < e->nkids; i++) {
            mf_enc_tv a = ex(E, x, e->kids[i], in_next, depth);
            d = or2(E, d, and2(E, a.d, eq(E, ch, a.v)));
        }
        r.v = ch;
        r.d = d;
        return r;
    }
    case MF_E_RANGE: {
        mf_enc_tv lo = ex(E, x, e->kids[0], in_next, depth);
        mf_enc_tv hi = ex(E, x, e->kids[1], in_next, depth);
        Z3_ast ch = mf_enc_new_choice(E);
        r.v = ch;
        r.d = within(E, lo, hi, ch);
        return r;
    }
    case MF_E_CALL:
        return ex_call(E, x, e, in_next, depth, r);
    default:
        mf_enc_note_unsupported(E, e, "this expression");
        return r;
    }
}

/* A DEFINE body, reading the batch's variants in a meta copy; cached per
 * context when it needs no choice. */
static mf_enc_tv ex_define(mf_enc *E, const mf_enc_ectx *x, int item,
                           int in_next, int depth)
{
    int key = 2 * item + in_next;
    if (E->dstamp[key] == E->stamp)
        return E->dcache[key];
    mf_enc_tv r = ex(E, x, E->m->items[item].e, in_next, depth);
    if (E->meta && E->at[item]) {
        for (int *j = E->at[item]; *j >= 0; j++) {
            const mf_item *it = E->muts[*j].repl;
            if (!it)
                continue; /* a DEFINE is never removed */
            mf_enc_tv a = ex(E, x, it->e, in_next, depth);
            Z3_ast s = selected(E, *j);
            r.v = ite(E, s, a.v, r.v);
            r.d = ite(E, s, a.d, r.d);
        }
    }
    if (!mf_enc_has_choice(E->m, E->m->items[item].e)) {
        E->dstamp[key] = E->stamp;
        E->dcache[key] = r;
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* Entry points (encode_int.h)                                          */

int mf_enc_lhs_cells(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                     mf_enc_cellvec *out, Z3_ast *def)
{
    const mf_var *v;
    const mf_type *ty;
    int nx;
    /* The index of next(a[i]) reads the current state: read with an ectx
     * whose next is absent. */
    mf_enc_ectx cx = {x->cur, NULL, x->inp};
    if (ref_cells(E, &cx, e, 0, 0, out, def, &v, &ty, &nx) < 0)
        return -1;
    if (ty->kind == MF_TY_ARRAY) {
        mf_enc_note_unsupported(E, e, "assigning a whole array");
        return -1;
    }
    return 0;
}

mf_enc_tv mf_enc_value(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e)
{
    return ex(E, x, e, 0, 0);
}

Z3_ast mf_enc_is_true(mf_enc *E, mf_enc_tv t)
{
    return and2(E, t.d, i2b(E, t.v));
}

mf_enc_tv mf_enc_define(mf_enc *E, const mf_enc_ectx *x, int item)
{
    return ex_define(E, x, item, 0, 0);
}
