/* encode.c - the bounded Z3 encoding of a flattened model (see encode.h).
 *
 * Mirrors sim.c/eval.c: the set semantics of expressions become choice
 * constants plus definedness conditions, with the same lazy `&`, `|`, `->`
 * and case evaluation, so a guard protects what it guards exactly as in the
 * simulator (which replays every kill). */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Z3_ast v; /* Int value */
    Z3_ast d; /* Bool: the set is non-empty */
} tv;

typedef struct {
    Z3_ast *cur, *next, *inp; /* nslots terms each; next may be NULL */
} ectx;

typedef MF_VEC(Z3_ast) astvec;
typedef MF_VEC(int) intvec;

struct mf_enc {
    Z3_context c;
    const mf_model *m;
    int nmut;
    mf_variant *muts;
    int **at;   /* per item: mutant indices replacing it, -1 terminated */
    Z3_ast_vector keep;
    Z3_sort isort, bsort;
    Z3_ast tru, fls, mid;
    int bvw;          /* bit-vector width of values, 0: Int */
    int64_t symbase;  /* code of symbolic constant 0 */
    int64_t undef;    /* a code no value has: an undefined observable */
    Z3_sort msort;    /* of the selector `mid` (Int) */
    Z3_ast *sel; /* per mutant */
    int nobs;
    char unsupported[256];
    long fresh; /* counter for fresh names */
    /* DEFINE cache, valid for one ectx */
    tv *dcache;
    int *dstamp;
    int stamp;
    int meta; /* the copy being built reads variants */
    astvec *choices; /* where new choices go (current step) */
    char pfx[16];   /* unique per encoder: names of fresh constants */
};

struct mf_inputs {
    mf_enc *E;
    Z3_solver s;
    char tag[32];
    int n;
    Z3_ast **st; /* per state: nslots, NULL where not an input */
};

struct mf_unroll {
    mf_enc *E;
    Z3_solver s;
    char tag[32];
    int meta, hard_ok;
    mf_inputs *in;
    int inoff; /* state k reads the inputs of state k + inoff */
    int depth; /* -1: nothing built */
    int cap;
    Z3_ast **st;
    Z3_ast *ok;
    Z3_ast **obs;
    astvec *ch;
    intvec *chslot; /* per choice of ch: the slot whose value it is, -1 */
    Z3_ast *state0;
};

/* ------------------------------------------------------------------ */

Z3_ast mf_enc_keep(mf_enc *E, Z3_ast a)
{
    if (a)
        Z3_ast_vector_push(E->c, E->keep, a);
    return a;
}
#define K(x) mf_enc_keep(E, (x))

Z3_context mf_enc_ctx(const mf_enc *E)
{
    return E->c;
}

const mf_model *mf_enc_model(const mf_enc *E)
{
    return E->m;
}

int mf_enc_bits(const mf_enc *E)
{
    return E->bvw;
}

const char *mf_enc_unsupported(const mf_enc *E)
{
    return E->unsupported[0] ? E->unsupported : NULL;
}

static void unsupported(mf_enc *E, const mf_expr *e, const char *what)
{
    if (!E->unsupported[0])
        snprintf(E->unsupported, sizeof E->unsupported,
                 "%s:%d:%d: the Z3 encoding does not support %s",
                 E->m->file ? E->m->file : "<model>", e ? e->line : 0,
                 e ? e->col : 0, what);
}

static Z3_ast num(mf_enc *E, int64_t x)
{
    if (E->bvw)
        return K(Z3_mk_unsigned_int64(
            E->c, (uint64_t)x & (((uint64_t)1 << E->bvw) - 1), E->isort));
    return K(Z3_mk_int64(E->c, x, E->isort));
}

Z3_ast mf_enc_val(mf_enc *E, mf_val v)
{
    return num(E, MF_IS_SYM(v) ? E->symbase + (v - MF_SYM_BASE) : v);
}

mf_val mf_enc_eval(mf_enc *E, Z3_model mdl, Z3_ast t)
{
    Z3_ast r = NULL;
    int64_t x = 0;
    if (Z3_model_eval(E->c, mdl, t, 1, &r) && r) {
        Z3_inc_ref(E->c, r);
        if (E->bvw) {
            uint64_t u = 0;
            if (!Z3_get_numeral_uint64(E->c, r, &u))
                u = 0;
            if (u >> (E->bvw - 1)) /* negative: sign-extend */
                u |= ~(uint64_t)0 << E->bvw;
            x = (int64_t)u;
        } else if (!Z3_get_numeral_int64(E->c, r, &x))
            x = 0;
        Z3_dec_ref(E->c, r);
    }
    return x >= E->symbase ? MF_SYM(x - E->symbase) : x;
}

/* Arithmetic and order on values: Int or signed bit-vector. */
static Z3_ast lt(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return K(E->bvw ? Z3_mk_bvslt(E->c, a, b) : Z3_mk_lt(E->c, a, b));
}

static Z3_ast le(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return K(E->bvw ? Z3_mk_bvsle(E->c, a, b) : Z3_mk_le(E->c, a, b));
}

static Z3_ast neg(mf_enc *E, Z3_ast a)
{
    return K(E->bvw ? Z3_mk_bvneg(E->c, a) : Z3_mk_unary_minus(E->c, a));
}

static Z3_ast selnum(mf_enc *E, int j)
{
    return K(Z3_mk_int(E->c, j, E->msort));
}

static Z3_ast and2(mf_enc *E, Z3_ast a, Z3_ast b)
{
    if (a == E->tru)
        return b;
    if (b == E->tru)
        return a;
    if (a == E->fls || b == E->fls)
        return E->fls;
    Z3_ast x[2] = {a, b};
    return K(Z3_mk_and(E->c, 2, x));
}

static Z3_ast or2(mf_enc *E, Z3_ast a, Z3_ast b)
{
    if (a == E->fls)
        return b;
    if (b == E->fls)
        return a;
    if (a == E->tru || b == E->tru)
        return E->tru;
    Z3_ast x[2] = {a, b};
    return K(Z3_mk_or(E->c, 2, x));
}

static Z3_ast not1(mf_enc *E, Z3_ast a)
{
    if (a == E->tru)
        return E->fls;
    if (a == E->fls)
        return E->tru;
    return K(Z3_mk_not(E->c, a));
}

static Z3_ast ite(mf_enc *E, Z3_ast c, Z3_ast a, Z3_ast b)
{
    if (c == E->tru || a == b)
        return a;
    if (c == E->fls)
        return b;
    return K(Z3_mk_ite(E->c, c, a, b));
}

static Z3_ast eq(mf_enc *E, Z3_ast a, Z3_ast b)
{
    if (a == b)
        return E->tru;
    return K(Z3_mk_eq(E->c, a, b));
}

static Z3_ast b2i(mf_enc *E, Z3_ast b)
{
    return ite(E, b, num(E, 1), num(E, 0));
}

static Z3_ast i2b(mf_enc *E, Z3_ast v)
{
    return not1(E, eq(E, v, num(E, 0)));
}

static Z3_ast fresh(mf_enc *E, const char *pfx, Z3_sort s)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s!%ld", E->pfx, pfx, E->fresh++);
    return K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name), s));
}

static Z3_ast new_choice(mf_enc *E)
{
    Z3_ast x = fresh(E, "ch", E->isort);
    if (E->choices)
        MF_VEC_PUSH(*E->choices, x);
    return x;
}

static Z3_ast in_type(mf_enc *E, const mf_type *t, Z3_ast x)
{
    t = mf_type_scalar(t);
    switch (t->kind) {
    case MF_TY_BOOL:
        return or2(E, eq(E, x, num(E, 0)), eq(E, x, num(E, 1)));
    case MF_TY_RANGE: {
        Z3_ast a = le(E, num(E, t->lo), x);
        Z3_ast b = le(E, x, num(E, t->hi));
        return and2(E, a, b);
    }
    case MF_TY_ENUM: {
        Z3_ast r = E->fls;
        for (int i = 0; i < t->nvals; i++)
            r = or2(E, r, eq(E, x, mf_enc_val(E, t->vals[i])));
        return r;
    }
    default:
        return E->fls;
    }
}

/* ------------------------------------------------------------------ */
/* Expressions                                                          */

static tv ex(mf_enc *E, const ectx *x, const mf_expr *e, int in_next,
             int depth);

static int64_t type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    return (t->hi - t->lo + 1) * type_cells(t->elem);
}

typedef struct {
    Z3_ast cond;
    int slot;
} cell;
typedef MF_VEC(cell) cellvec;

/* The cells a reference denotes (eval.c ev_cells), each under a condition. */
static int ref_cells(mf_enc *E, const ectx *x, const mf_expr *e, int in_next,
                     int depth, cellvec *out, Z3_ast *def, const mf_var **var,
                     const mf_type **ty, int *rd_next)
{
    const mf_model *m = E->m;
    if (depth > 512) {
        unsupported(E, e, "DEFINEs nested this deeply");
        return -1;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *var = &m->vars[e->ref];
        *ty = (*var)->type;
        *rd_next = in_next;
        cell c = {E->tru, (*var)->slot};
        MF_VEC_PUSH(*out, c);
        return 0;
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return ref_cells(E, x, m->items[e->ref].e, in_next, depth + 1, out,
                         def, var, ty, rd_next);
    if (e->kind == MF_E_NEXT && !in_next)
        return ref_cells(E, x, e->kids[0], 1, depth, out, def, var, ty,
                         rd_next);
    if (e->kind != MF_E_INDEX) {
        unsupported(E, e, "indexing this expression");
        return -1;
    }
    cellvec base = {0};
    const mf_type *at = NULL;
    int rc = ref_cells(E, x, e->kids[0], in_next, depth, &base, def, var, &at,
                       rd_next);
    if (rc < 0 || at->kind != MF_TY_ARRAY) {
        MF_VEC_FREE(base);
        if (rc == 0)
            unsupported(E, e, "indexing a non-array");
        return -1;
    }
    tv idx = ex(E, x, e->kids[1], in_next, depth);
    Z3_ast inr = and2(E, le(E, num(E, at->lo), idx.v),
                      le(E, idx.v, num(E, at->hi)));
    *def = and2(E, *def, and2(E, idx.d, inr));
    int64_t ec = type_cells(at->elem);
    for (int i = 0; i < base.n; i++)
        for (int64_t v = at->lo; v <= at->hi; v++) {
            cell c = {and2(E, base.v[i].cond, eq(E, idx.v, num(E, v))),
                      base.v[i].slot + (int)((v - at->lo) * ec)};
            MF_VEC_PUSH(*out, c);
        }
    *ty = at->elem;
    MF_VEC_FREE(base);
    return 0;
}

static Z3_ast read_slot(mf_enc *E, const ectx *x, const mf_var *v, int slot,
                        int in_next, const mf_expr *e)
{
    Z3_ast *src;
    if (v->decl == MF_DECL_IVAR)
        src = x->inp ? x->inp : x->cur;
    else
        src = in_next ? x->next : x->cur;
    if (!src) {
        unsupported(E, e, "next() here");
        return num(E, 0);
    }
    return src[slot];
}

static tv ex_ref(mf_enc *E, const ectx *x, const mf_expr *e, int in_next,
                 int depth)
{
    cellvec cells = {0};
    const mf_var *v = NULL;
    const mf_type *ty = NULL;
    int nx = 0;
    Z3_ast def = E->tru;
    tv r = {num(E, 0), E->fls};
    if (ref_cells(E, x, e, in_next, depth, &cells, &def, &v, &ty, &nx) < 0 ||
        ty->kind == MF_TY_ARRAY) {
        if (ty && ty->kind == MF_TY_ARRAY)
            unsupported(E, e, "a whole array as a value");
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

/* Does e denote a set that needs a choice (through DEFINEs)? */
static int has_choice(const mf_model *m, const mf_expr *e, int depth)
{
    if (depth > 512)
        return 0;
    switch (e->kind) {
    case MF_E_SET:
    case MF_E_RANGE:
        return 1;
    case MF_E_BIN:
        if (e->op == MF_OP_UNION)
            return 1;
        if (e->op == MF_OP_IN)
            return has_choice(m, e->kids[0], depth);
        break;
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE)
            return has_choice(m, m->items[e->ref].e, depth + 1);
        return 0;
    default:
        break;
    }
    for (int i = 0; i < e->nkids; i++)
        if (has_choice(m, e->kids[i], depth))
            return 1;
    return 0;
}

static Z3_ast member(mf_enc *E, const ectx *x, Z3_ast v, const mf_expr *e,
                     int in_next, int depth);

/* v in a case whose branches may be sets: as eval.c's ev_case, branch i
 * contributes when its condition can be true and every earlier one can be
 * false (a condition is itself a set when it has choices). */
static Z3_ast member_case(mf_enc *E, const ectx *x, Z3_ast v,
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
static Z3_ast member(mf_enc *E, const ectx *x, Z3_ast v, const mf_expr *e,
                     int in_next, int depth)
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
    if (e->kind == MF_E_RANGE && !has_choice(E->m, e->kids[0], 0) &&
        !has_choice(E->m, e->kids[1], 0)) {
        tv lo = ex(E, x, e->kids[0], in_next, depth);
        tv hi = ex(E, x, e->kids[1], in_next, depth);
        return and2(E, and2(E, lo.d, hi.d),
                    and2(E, le(E, lo.v, v), le(E, v, hi.v)));
    }
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return member(E, x, v, E->m->items[e->ref].e, in_next, depth + 1);
    if (e->kind == MF_E_CASE || e->kind == MF_E_ITE) {
        mf_expr t = {.kind = MF_E_BOOL, .ival = 1};
        const mf_expr *ite_kids[4];
        const mf_expr **k = (const mf_expr **)e->kids;
        int n = e->nkids;
        if (e->kind == MF_E_ITE) {
            ite_kids[0] = e->kids[0], ite_kids[1] = e->kids[1];
            ite_kids[2] = &t, ite_kids[3] = e->kids[2];
            k = ite_kids, n = 4;
        }
        return member_case(E, x, v, k, n, in_next, depth);
    }
    if (has_choice(E->m, e, 0)) {
        /* Existential only: exact in positive positions. */
        unsupported(E, e, "`in` with a computed set on the right");
    }
    tv t = ex(E, x, e, in_next, depth);
    return and2(E, t.d, eq(E, v, t.v));
}

static Z3_ast arith(mf_enc *E, int op, Z3_ast a, Z3_ast b)
{
    Z3_context c = E->c;
    Z3_ast x[2] = {a, b};
    if (E->bvw) {
        /* The width holds every intermediate value (enc_width): no wrap.
         * bvsdiv/bvsrem truncate like C; zero divisors are undefined. */
        switch (op) {
        case MF_OP_ADD: return K(Z3_mk_bvadd(c, a, b));
        case MF_OP_SUB: return K(Z3_mk_bvsub(c, a, b));
        case MF_OP_MUL: return K(Z3_mk_bvmul(c, a, b));
        case MF_OP_DIV: return K(Z3_mk_bvsdiv(c, a, b));
        case MF_OP_MOD: return K(Z3_mk_bvsrem(c, a, b));
        case MF_OP_LT: return b2i(E, lt(E, a, b));
        case MF_OP_LE: return b2i(E, le(E, a, b));
        case MF_OP_GT: return b2i(E, lt(E, b, a));
        case MF_OP_GE: return b2i(E, le(E, b, a));
        default: break;
        }
    }
    switch (op) {
    case MF_OP_ADD: return K(Z3_mk_add(c, 2, x));
    case MF_OP_SUB: return K(Z3_mk_sub(c, 2, x));
    case MF_OP_MUL: return K(Z3_mk_mul(c, 2, x));
    case MF_OP_DIV:
    case MF_OP_MOD: {
        /* C truncation: |a| div |b| with the sign fixed up. */
        Z3_ast zero = num(E, 0);
        Z3_ast aa = ite(E, K(Z3_mk_ge(c, a, zero)), a, K(Z3_mk_unary_minus(c, a)));
        Z3_ast ab = ite(E, K(Z3_mk_ge(c, b, zero)), b, K(Z3_mk_unary_minus(c, b)));
        Z3_ast q = K(Z3_mk_div(c, aa, ab));
        Z3_ast neg = K(Z3_mk_xor(c, K(Z3_mk_lt(c, a, zero)),
                                 K(Z3_mk_lt(c, b, zero))));
        Z3_ast t = ite(E, neg, K(Z3_mk_unary_minus(c, q)), q);
        if (op == MF_OP_DIV)
            return t;
        Z3_ast bt[2] = {b, t};
        Z3_ast prod = K(Z3_mk_mul(c, 2, bt));
        Z3_ast y[2] = {a, prod};
        return K(Z3_mk_sub(c, 2, y));
    }
    case MF_OP_EQ: return b2i(E, eq(E, a, b));
    case MF_OP_NE: return b2i(E, not1(E, eq(E, a, b)));
    case MF_OP_LT: return b2i(E, K(Z3_mk_lt(c, a, b)));
    case MF_OP_LE: return b2i(E, K(Z3_mk_le(c, a, b)));
    case MF_OP_GT: return b2i(E, K(Z3_mk_gt(c, a, b)));
    case MF_OP_GE: return b2i(E, K(Z3_mk_ge(c, a, b)));
    case MF_OP_XOR: return b2i(E, K(Z3_mk_xor(c, i2b(E, a), i2b(E, b))));
    case MF_OP_XNOR:
    case MF_OP_IFF: return b2i(E, K(Z3_mk_iff(c, i2b(E, a), i2b(E, b))));
    default: return num(E, 0);
    }
}

/* case c0 : v0; ...; kids as in MF_E_CASE. */
static tv ex_case(mf_enc *E, const ectx *x, const mf_expr **kids, int n,
                  int in_next, int depth, int i)
{
    tv r = {num(E, 0), E->fls};
    if (i + 1 >= n)
        return r;
    tv cnd = ex(E, x, kids[i], in_next, depth);
    tv val = ex(E, x, kids[i + 1], in_next, depth);
    tv rest = ex_case(E, x, kids, n, in_next, depth, i + 2);
    Z3_ast ct = i2b(E, cnd.v);
    r.v = ite(E, ct, val.v, rest.v);
    r.d = and2(E, cnd.d, ite(E, ct, val.d, rest.d));
    return r;
}

static tv ex_define(mf_enc *E, const ectx *x, int item, int in_next,
                    int depth);

static tv ex(mf_enc *E, const ectx *x, const mf_expr *e, int in_next,
             int depth)
{
    tv r = {num(E, 0), E->tru};
    if (depth > 512) {
        unsupported(E, e, "DEFINEs nested this deeply");
        return r;
    }
    switch (e->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
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
            unsupported(E, e, "next() here");
            return r;
        }
        return ex(E, x, e->kids[0], 1, depth);
    case MF_E_NOT: {
        tv a = ex(E, x, e->kids[0], in_next, depth);
        r.v = b2i(E, eq(E, a.v, num(E, 0)));
        r.d = a.d;
        return r;
    }
    case MF_E_NEG: {
        tv a = ex(E, x, e->kids[0], in_next, depth);
        r.v = neg(E, a.v);
        r.d = a.d;
        return r;
    }
    case MF_E_BIN: {
        if (e->op == MF_OP_IN) {
            tv a = ex(E, x, e->kids[0], in_next, depth);
            r.v = b2i(E, member(E, x, a.v, e->kids[1], in_next, depth));
            r.d = a.d;
            return r;
        }
        if (e->op == MF_OP_UNION) {
            tv a = ex(E, x, e->kids[0], in_next, depth);
            tv b = ex(E, x, e->kids[1], in_next, depth);
            Z3_ast ch = new_choice(E);
            r.v = ch;
            r.d = or2(E, and2(E, a.d, eq(E, ch, a.v)),
                      and2(E, b.d, eq(E, ch, b.v)));
            return r;
        }
        tv a = ex(E, x, e->kids[0], in_next, depth);
        tv b = ex(E, x, e->kids[1], in_next, depth);
        Z3_ast at = i2b(E, a.v);
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
    case MF_E_CASE:
        return ex_case(E, x, (const mf_expr **)e->kids, e->nkids, in_next,
                       depth, 0);
    case MF_E_ITE: {
        mf_expr t = {.kind = MF_E_BOOL, .ival = 1};
        const mf_expr *k[4] = {e->kids[0], e->kids[1], &t, e->kids[2]};
        return ex_case(E, x, k, 4, in_next, depth, 0);
    }
    case MF_E_SET: {
        Z3_ast ch = new_choice(E);
        Z3_ast d = E->fls;
        for (int i = 0; i < e->nkids; i++) {
            tv a = ex(E, x, e->kids[i], in_next, depth);
            d = or2(E, d, and2(E, a.d, eq(E, ch, a.v)));
        }
        r.v = ch;
        r.d = d;
        return r;
    }
    case MF_E_RANGE: {
        tv lo = ex(E, x, e->kids[0], in_next, depth);
        tv hi = ex(E, x, e->kids[1], in_next, depth);
        Z3_ast ch = new_choice(E);
        r.v = ch;
        r.d = and2(E, and2(E, lo.d, hi.d),
                   and2(E, le(E, lo.v, ch), le(E, ch, hi.v)));
        return r;
    }
    case MF_E_CALL: {
        if (e->nkids < 1)
            return r;
        tv a = ex(E, x, e->kids[0], in_next, depth);
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
            tv b = ex(E, x, e->kids[k], in_next, depth);
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
    default:
        unsupported(E, e, "this expression");
        return r;
    }
}

/* A DEFINE body, reading the batch's variants in a meta copy; cached per
 * context when it needs no choice. */
static tv ex_define(mf_enc *E, const ectx *x, int item, int in_next,
                    int depth)
{
    int key = 2 * item + in_next;
    if (E->dstamp[key] == E->stamp)
        return E->dcache[key];
    tv r = ex(E, x, E->m->items[item].e, in_next, depth);
    if (E->meta && E->at[item]) {
        for (int *j = E->at[item]; *j >= 0; j++) {
            const mf_item *it = E->muts[*j].repl;
            if (!it)
                continue; /* a DEFINE is never removed */
            tv a = ex(E, x, it->e, in_next, depth);
            Z3_ast s = eq(E, E->mid, selnum(E, *j));
            r.v = ite(E, s, a.v, r.v);
            r.d = ite(E, s, a.d, r.d);
        }
    }
    if (!has_choice(E->m, E->m->items[item].e, 0)) {
        E->dstamp[key] = E->stamp;
        E->dcache[key] = r;
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* Width                                                                */

/* Bit-vectors let Z3 bit-blast the unrolling into its SAT core, which on
 * counters is orders of magnitude faster than linear integer arithmetic
 * (docs/killing.md). They must never wrap where the simulator's int64 does
 * not: the width is chosen from an interval analysis of every expression of
 * the model and of the batch's variants, so every value any subexpression
 * can take fits. Past RCAP the encoding stays Int. */
#define RCAP ((int64_t)1 << 28)

typedef struct {
    int64_t lo, hi;
} ival;

typedef struct {
    const mf_model *m;
    ival *memo; /* per DEFINE item */
    char *state; /* 0 new, 1 in progress, 2 done */
    int64_t mx;  /* largest magnitude seen */
} wctx;

static int64_t clampi(__int128 x)
{
    return x > RCAP ? RCAP : x < -RCAP ? -RCAP : (int64_t)x;
}

static int64_t mag(ival v)
{
    int64_t a = v.lo < 0 ? -v.lo : v.lo, b = v.hi < 0 ? -v.hi : v.hi;
    return a > b ? a : b;
}

static ival hull(ival a, ival b)
{
    ival r = {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
    return r;
}

static void type_ival(wctx *w, const mf_type *t, ival *r)
{
    switch (t->kind) {
    case MF_TY_BOOL: r->lo = 0, r->hi = 1; break;
    case MF_TY_RANGE: r->lo = t->lo, r->hi = t->hi; break;
    case MF_TY_ENUM:
        r->lo = r->hi = 0;
        for (int i = 0; i < t->nvals; i++)
            if (!MF_IS_SYM(t->vals[i])) {
                ival v = {t->vals[i], t->vals[i]};
                *r = hull(*r, v);
            }
        break;
    case MF_TY_ARRAY: {
        ival ix = {t->lo, t->hi};
        if (mag(ix) > w->mx)
            w->mx = mag(ix);
        type_ival(w, t->elem, r);
        break;
    }
    default: r->lo = r->hi = 0; break;
    }
    r->lo = clampi(r->lo);
    r->hi = clampi(r->hi);
}

static const mf_type *ref_type(const mf_model *m, const mf_expr *e, int depth)
{
    if (depth > 512)
        return NULL;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR)
        return m->vars[e->ref].type;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return ref_type(m, m->items[e->ref].e, depth + 1);
    if (e->kind == MF_E_NEXT)
        return ref_type(m, e->kids[0], depth);
    if (e->kind == MF_E_INDEX) {
        const mf_type *t = ref_type(m, e->kids[0], depth);
        return t && t->kind == MF_TY_ARRAY ? t->elem : NULL;
    }
    return NULL;
}

static ival rng(wctx *w, const mf_expr *e, int depth)
{
    ival r = {0, 0};
    if (depth > 512) {
        w->mx = RCAP;
        return r;
    }
    ival k[2] = {{0, 0}, {0, 0}};
    if (e->kind != MF_E_ID)
        for (int i = 0; i < e->nkids; i++) {
            ival v = rng(w, e->kids[i], depth);
            if (i < 2)
                k[i] = v;
            r = i ? hull(r, v) : v; /* the default: the hull of the kids */
        }
    switch (e->kind) {
    case MF_E_BOOL:
    case MF_E_INT:
        r.lo = r.hi = clampi(e->ival);
        break;
    case MF_E_SYM:
        r.lo = r.hi = 0; /* codes come after every integer */
        break;
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE) {
            int it = e->ref;
            if (w->state[it] == 1) { /* a cycle: not from the loader */
                w->mx = RCAP;
                break;
            }
            if (w->state[it] == 0) {
                w->state[it] = 1;
                w->memo[it] = rng(w, w->m->items[it].e, depth + 1);
                w->state[it] = 2;
            }
            r = w->memo[it];
        } else
            type_ival(w, mf_type_scalar(w->m->vars[e->ref].type), &r);
        break;
    case MF_E_INDEX: {
        const mf_type *t = ref_type(w->m, e, 0);
        if (t)
            type_ival(w, t, &r);
        break;
    }
    case MF_E_NOT:
        r.lo = 0, r.hi = 1;
        break;
    case MF_E_NEG:
        r.lo = clampi(-(__int128)k[0].hi), r.hi = clampi(-(__int128)k[0].lo);
        break;
    case MF_E_BIN:
        switch (e->op) {
        case MF_OP_ADD:
            r.lo = clampi((__int128)k[0].lo + k[1].lo);
            r.hi = clampi((__int128)k[0].hi + k[1].hi);
            break;
        case MF_OP_SUB:
            r.lo = clampi((__int128)k[0].lo - k[1].hi);
            r.hi = clampi((__int128)k[0].hi - k[1].lo);
            break;
        case MF_OP_MUL: {
            __int128 p[4] = {(__int128)k[0].lo * k[1].lo,
                             (__int128)k[0].lo * k[1].hi,
                             (__int128)k[0].hi * k[1].lo,
                             (__int128)k[0].hi * k[1].hi};
            __int128 lo = p[0], hi = p[0];
            for (int i = 1; i < 4; i++) {
                lo = p[i] < lo ? p[i] : lo;
                hi = p[i] > hi ? p[i] : hi;
            }
            r.lo = clampi(lo), r.hi = clampi(hi);
            break;
        }
        case MF_OP_DIV: /* |a / b| <= |a| */
            r.hi = mag(k[0]), r.lo = -r.hi;
            break;
        case MF_OP_MOD: /* |a % b| < |b| */
            r.hi = mag(k[1]), r.lo = -r.hi;
            break;
        case MF_OP_UNION:
            break; /* the hull */
        default: /* logic, comparisons, `in` */
            r.lo = 0, r.hi = 1;
            break;
        }
        break;
    case MF_E_CASE: /* the values only */
        r.lo = r.hi = 0;
        for (int i = 1; i < e->nkids; i += 2) {
            ival v = rng(w, e->kids[i], depth);
            r = i > 1 ? hull(r, v) : v;
        }
        break;
    case MF_E_ITE:
        r = hull(rng(w, e->kids[1], depth), rng(w, e->kids[2], depth));
        break;
    case MF_E_CALL:
        if (e->op == MF_FN_ABS)
            r.lo = 0, r.hi = mag(k[0]);
        else if (e->op == MF_FN_BOOL)
            r.lo = 0, r.hi = 1;
        else if (e->op == MF_FN_COUNT)
            r.lo = 0, r.hi = e->nkids;
        break; /* min, max: the hull */
    default:
        break;
    }
    if (mag(r) > w->mx)
        w->mx = mag(r);
    return r;
}

static void rng_item(wctx *w, const mf_item *it)
{
    if (it->lhs)
        rng(w, it->lhs, 0);
    if (it->e)
        rng(w, it->e, 0);
}

/* Largest magnitude of an integer value in m (and its variants, and
 * `also`), or RCAP if it may pass it. */
static int64_t max_magnitude(const mf_model *m, const mf_variant *muts,
                             int nmut)
{
    wctx w = {m, mf_xcalloc((size_t)m->nitems + 1, sizeof(ival)),
              mf_xcalloc((size_t)m->nitems + 1, 1), 1};
    for (int i = 0; i < m->nvars; i++) {
        ival v;
        type_ival(&w, m->vars[i].type, &v);
        if (mag(v) > w.mx)
            w.mx = mag(v);
    }
    for (int i = 0; i < m->nitems; i++)
        rng_item(&w, &m->items[i]);
    for (int j = 0; j < nmut; j++)
        if (muts[j].repl)
            rng_item(&w, muts[j].repl);
    free(w.memo);
    free(w.state);
    return w.mx;
}

static int bitlen(int64_t x)
{
    int n = 0;
    while (x > 0) {
        n++;
        x >>= 1;
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Encoder                                                              */

mf_enc *mf_enc_new(Z3_context ctx, const mf_model *m, const mf_variant *muts,
                   int nmut, const mf_model *also, int encoding)
{
    mf_enc *E = mf_xcalloc(1, sizeof *E);
    static _Atomic long encoders;
    E->c = ctx;
    E->m = m;
    int64_t mx = max_magnitude(m, muts, nmut);
    int nsyms = m->nsyms;
    if (also) {
        int64_t mx2 = max_magnitude(also, NULL, 0);
        mx = mx2 > mx ? mx2 : mx;
        nsyms = also->nsyms > nsyms ? also->nsyms : nsyms;
    }
    /* sign bit + one spare: comparisons and negation never overflow */
    int w = bitlen(mx + 1 + nsyms) + 2;
    if (encoding == MF_ENC_BV || (encoding == MF_ENC_AUTO && mx < RCAP)) {
        E->bvw = w < 2 ? 2 : w;
        E->symbase = mx + 1;
        E->undef = E->symbase + nsyms; /* fits: the spare bit */
        E->isort = Z3_mk_bv_sort(ctx, (unsigned)E->bvw);
    } else {
        E->symbase = MF_ENC_SYMOFF;
        E->undef = -((int64_t)1 << 40);
        E->isort = Z3_mk_int_sort(ctx);
    }
    /* The selector: a bit-vector too, so a bit-vector batch stays in
     * QF_BV (Z3's incremental SAT solver) */
    E->msort = E->bvw ? Z3_mk_bv_sort(ctx, (unsigned)bitlen(nmut) + 1)
                      : Z3_mk_int_sort(ctx);
    snprintf(E->pfx, sizeof E->pfx, "e%ld", encoders++);
    E->nmut = nmut;
    E->muts = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *E->muts);
    if (nmut)
        memcpy(E->muts, muts, sizeof *E->muts * (size_t)nmut);
    E->keep = Z3_mk_ast_vector(ctx);
    Z3_ast_vector_inc_ref(ctx, E->keep);
    E->bsort = Z3_mk_bool_sort(ctx);
    E->tru = K(Z3_mk_true(ctx));
    E->fls = K(Z3_mk_false(ctx));
    E->mid = K(Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, E->pfx), E->msort));
    E->sel = mf_xcalloc((size_t)(nmut ? nmut : 1), sizeof *E->sel);
    for (int j = 0; j < nmut; j++) {
        char name[32];
        snprintf(name, sizeof name, "%ssel!%d", E->pfx, j);
        E->sel[j] = K(Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, name),
                                  E->bsort));
    }
    E->at = mf_xcalloc((size_t)(m->nitems ? m->nitems : 1), sizeof *E->at);
    for (int i = 0; i < m->nitems; i++) {
        int n = 0;
        for (int j = 0; j < nmut; j++)
            n += muts[j].item == i;
        if (!n)
            continue;
        E->at[i] = mf_xmalloc(sizeof(int) * (size_t)(n + 1));
        n = 0;
        for (int j = 0; j < nmut; j++)
            if (muts[j].item == i)
                E->at[i][n++] = j;
        E->at[i][n] = -1;
    }
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].is_observable)
            E->nobs += m->vars[i].nslots;
    E->nobs += m->nobs_defines;
    E->dcache = mf_xcalloc((size_t)(2 * m->nitems + 2), sizeof *E->dcache);
    E->dstamp = mf_xcalloc((size_t)(2 * m->nitems + 2), sizeof *E->dstamp);
    return E;
}

void mf_enc_free(mf_enc *E)
{
    if (!E)
        return;
    for (int i = 0; i < E->m->nitems; i++)
        free(E->at[i]);
    free(E->at);
    free(E->sel);
    free(E->muts);
    free(E->dcache);
    free(E->dstamp);
    Z3_ast_vector_dec_ref(E->c, E->keep);
    free(E);
}

Z3_ast mf_enc_sel(mf_enc *E, int j)
{
    return E->sel[j];
}

void mf_enc_assert_sels(mf_enc *E, Z3_solver s)
{
    for (int j = 0; j < E->nmut; j++)
        Z3_solver_assert(E->c, s, K(Z3_mk_implies(E->c, E->sel[j],
                                                  eq(E, E->mid, selnum(E, j)))));
}

int mf_enc_nobs(const mf_enc *E)
{
    return E->nobs;
}

/* Terms shared by the engines (encode.h). */
Z3_ast mf_enc_and(mf_enc *E, int n, Z3_ast *a)
{
    Z3_context c = mf_enc_ctx(E);
    if (n == 0)
        return mf_enc_keep(E, Z3_mk_true(c));
    if (n == 1)
        return a[0];
    return mf_enc_keep(E, Z3_mk_and(c, (unsigned)n, a));
}

Z3_ast mf_enc_not(mf_enc *E, Z3_ast a)
{
    return mf_enc_keep(E, Z3_mk_not(mf_enc_ctx(E), a));
}

Z3_ast mf_enc_eq(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return mf_enc_keep(E, Z3_mk_eq(mf_enc_ctx(E), a, b));
}

Z3_ast mf_enc_obs_eq(mf_enc *E, Z3_ast *a, Z3_ast *b)
{
    int n = mf_enc_nobs(E);
    Z3_ast *x = mf_xcalloc((size_t)(n ? n : 1), sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = mf_enc_eq(E, a[i], b[i]);
    Z3_ast r = mf_enc_and(E, n, x);
    free(x);
    return r;
}

Z3_ast mf_enc_all_ok(mf_enc *E, mf_unroll *u, int from, int to)
{
    Z3_ast *x = mf_xcalloc((size_t)(to - from + 2), sizeof *x);
    int n = 0;
    for (int k = from; k <= to; k++)
        x[n++] = mf_unroll_ok(u, k);
    Z3_ast r = mf_enc_and(E, n, x);
    free(x);
    return r;
}

Z3_ast mf_enc_all_obs_eq(mf_enc *E, mf_unroll *a, mf_unroll *b, int to)
{
    Z3_ast *x = mf_xcalloc((size_t)(to + 2), sizeof *x);
    int n = 0;
    for (int k = 0; k <= to; k++)
        x[n++] = mf_enc_obs_eq(E, mf_unroll_obs(a, k), mf_unroll_obs(b, k));
    Z3_ast r = mf_enc_and(E, n, x);
    free(x);
    return r;
}

Z3_ast *mf_enc_fresh_state(mf_enc *E, const char *tag)
{
    int n = E->m->nslots;
    Z3_ast *st = mf_xcalloc((size_t)(n ? n : 1), sizeof *st);
    E->fresh++;
    for (int s = 0; s < n; s++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s%ld_s%d", E->pfx, tag, E->fresh, s);
        st[s] = K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name),
                              E->isort));
    }
    return st;
}

/* ------------------------------------------------------------------ */
/* Inputs                                                               */

mf_inputs *mf_inputs_new(mf_enc *E, Z3_solver s, const char *tag)
{
    mf_inputs *in = mf_xcalloc(1, sizeof *in);
    in->E = E;
    in->s = s;
    snprintf(in->tag, sizeof in->tag, "%s%s%ld", E->pfx, tag, E->fresh++);
    return in;
}

void mf_inputs_free(mf_inputs *in)
{
    if (!in)
        return;
    for (int k = 0; k < in->n; k++)
        free(in->st[k]);
    free(in->st);
    free(in);
}

Z3_ast *mf_inputs_state(mf_inputs *in, int k)
{
    mf_enc *E = in->E;
    const mf_model *m = E->m;
    while (in->n <= k) {
        int kk = in->n;
        in->st = mf_xrealloc(in->st, sizeof *in->st * (size_t)(kk + 1));
        Z3_ast *a = mf_xcalloc((size_t)(m->nslots ? m->nslots : 1),
                               sizeof *a);
        for (int i = 0; i < m->nvars; i++) {
            const mf_var *v = &m->vars[i];
            if (!v->is_input && v->decl != MF_DECL_IVAR)
                continue;
            for (int q = 0; q < v->nslots; q++) {
                int sl = v->slot + q;
                if (v->decl == MF_DECL_IVAR && kk == 0) {
                    /* No input before the first step: the simulator puts
                     * the first value of the domain there. */
                    mf_val *dv = NULL;
                    int dn = 0;
                    mf_type_domain(v->type, &dv, &dn);
                    a[sl] = mf_enc_val(E, dn > 0 ? dv[0] : 0);
                    free(dv);
                    continue;
                }
                char name[64];
                snprintf(name, sizeof name, "%s_i%d_%d", in->tag, kk, sl);
                a[sl] = K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name),
                                      E->isort));
                Z3_solver_assert(E->c, in->s, in_type(E, v->type, a[sl]));
            }
        }
        in->st[kk] = a;
        in->n++;
    }
    return in->st[k];
}

/* ------------------------------------------------------------------ */
/* Unrolling                                                            */

mf_unroll *mf_unroll_new(mf_enc *E, Z3_solver s, const char *tag, int meta,
                         mf_inputs *in, int hard_ok, Z3_ast *state0)
{
    mf_unroll *u = mf_xcalloc(1, sizeof *u);
    u->E = E;
    u->s = s;
    snprintf(u->tag, sizeof u->tag, "%s%s%ld", E->pfx, tag, E->fresh++);
    u->meta = meta;
    u->in = in;
    u->hard_ok = hard_ok;
    u->depth = -1;
    u->state0 = state0;
    return u;
}

void mf_unroll_free(mf_unroll *u)
{
    if (!u)
        return;
    for (int k = 0; k <= u->depth; k++) {
        free(u->st[k]);
        free(u->obs[k]);
        MF_VEC_FREE(u->ch[k]);
        MF_VEC_FREE(u->chslot[k]);
    }
    free(u->st);
    free(u->ok);
    free(u->obs);
    free(u->ch);
    free(u->chslot);
    free(u);
}

void mf_unroll_shift_inputs(mf_unroll *u, int off)
{
    u->inoff = off;
}

int mf_unroll_depth(const mf_unroll *u)
{
    return u->depth;
}
Z3_ast *mf_unroll_state(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->st[k];
}
Z3_ast mf_unroll_ok(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->ok[k];
}
Z3_ast *mf_unroll_obs(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->obs[k];
}
Z3_ast *mf_unroll_choices(mf_unroll *u, int k, int *n)
{
    mf_unroll_extend(u, k);
    *n = u->ch[k].n;
    return u->ch[k].v;
}

const int *mf_unroll_choice_slots(mf_unroll *u, int k)
{
    mf_unroll_extend(u, k);
    return u->chslot[k].v;
}

/* Per slot: the sources found so far, as (cond, value, def). */
typedef struct {
    Z3_ast cond, v, d;
} src;
typedef MF_VEC(src) srcvec;

/* Is item `it` (kind) relevant when building state k? as a source (1), a
 * constraint (2), or not (0). *trans: evaluated over (k-1, k). */
static int role(const mf_item *it, int k, int *trans)
{
    *trans = 0;
    switch (it->kind) {
    case MF_IT_INIT: return k == 0 ? 1 : 0;
    case MF_IT_NEXT: *trans = 1; return k > 0 ? 1 : 0;
    case MF_IT_ASSIGN: return 1;
    case MF_IT_INIT_C: return k == 0 ? 2 : 0;
    case MF_IT_TRANS_C: *trans = 1; return k > 0 ? 2 : 0;
    case MF_IT_INVAR_C: return 2;
    default: return 0;
    }
}

/* The cells an assignment's left-hand side names (constant or, for next(),
 * current-state index). */
static int lhs_cells(mf_enc *E, const ectx *x, const mf_expr *e,
                     cellvec *out, Z3_ast *def)
{
    const mf_var *v;
    const mf_type *ty;
    int nx;
    /* The index of next(a[i]) reads the current state: read with an ectx
     * whose next is absent. */
    ectx cx = {x->cur, NULL, x->inp};
    if (ref_cells(E, &cx, e, 0, 0, out, def, &v, &ty, &nx) < 0)
        return -1;
    if (ty->kind == MF_TY_ARRAY) {
        unsupported(E, e, "assigning a whole array");
        return -1;
    }
    return 0;
}

static void add_item(mf_enc *E, mf_unroll *u, const mf_item *it, Z3_ast vc,
                     int k, srcvec *srcs, Z3_ast *ok, Z3_ast *cur,
                     Z3_ast *st)
{
    const mf_model *m = E->m;
    int trans;
    int r = role(it, k, &trans);
    if (!r)
        return;
    ectx tx = {cur, st, st};
    ectx lx = {st, NULL, st};
    const ectx *x = trans ? &tx : &lx;
    (void)u;
    if (r == 2) {
        tv t = ex(E, x, it->e, 0, 0);
        Z3_ast c = and2(E, t.d, i2b(E, t.v));
        *ok = and2(E, *ok, vc == E->tru ? c : K(Z3_mk_implies(E->c, vc, c)));
        return;
    }
    cellvec cells = {0};
    Z3_ast def = E->tru;
    if (lhs_cells(E, x, it->lhs, &cells, &def) < 0) {
        MF_VEC_FREE(cells);
        return;
    }
    /* An index out of bounds: no state at all. */
    if (def != E->tru)
        *ok = and2(E, *ok, vc == E->tru ? def
                                        : K(Z3_mk_implies(E->c, vc, def)));
    tv t = ex(E, x, it->e, 0, 0);
    for (int i = 0; i < cells.n; i++) {
        int sl = cells.v[i].slot;
        const mf_var *v = NULL;
        for (int q = 0; q < m->nvars; q++)
            if (sl >= m->vars[q].slot &&
                sl < m->vars[q].slot + m->vars[q].nslots)
                v = &m->vars[q];
        Z3_ast cond = and2(E, vc, cells.v[i].cond);
        int pinned = v && (v->decl == MF_DECL_IVAR ||
                           (v->is_input && v->decl == MF_DECL_VAR) ||
                           (k > 0 && v->decl == MF_DECL_FROZENVAR));
        if (pinned) {
            Z3_ast c = and2(E, t.d, eq(E, st[sl], t.v));
            *ok = and2(E, *ok, cond == E->tru
                                   ? c
                                   : K(Z3_mk_implies(E->c, cond, c)));
        } else {
            src sc = {cond, t.v, t.d};
            MF_VEC_PUSH(srcs[sl], sc);
        }
    }
    MF_VEC_FREE(cells);
}

/* The leaves of the if-then-else tree of a slot's value (the values it can
 * take, each under its condition): constants, choices, terms. */
static void value_leaves(mf_enc *E, Z3_ast v, int sl, astvec *out,
                         intvec *slots, int depth)
{
    Z3_context c = E->c;
    if (depth < 64 && Z3_get_ast_kind(c, v) == Z3_APP_AST) {
        Z3_app a = Z3_to_app(c, v);
        if (Z3_get_decl_kind(c, Z3_get_app_decl(c, a)) == Z3_OP_ITE) {
            value_leaves(E, Z3_get_app_arg(c, a, 1), sl, out, slots, depth + 1);
            value_leaves(E, Z3_get_app_arg(c, a, 2), sl, out, slots, depth + 1);
            return;
        }
    }
    MF_VEC_PUSH(*out, v);
    MF_VEC_PUSH(*slots, sl);
}

static void build_state(mf_unroll *u, int k)
{
    mf_enc *E = u->E;
    const mf_model *m = E->m;
    int n = m->nslots;
    Z3_ast *st = mf_xcalloc((size_t)(n ? n : 1), sizeof *st);
    Z3_ast *cur = k > 0 ? u->st[k - 1] : NULL;
    Z3_ast *inp = u->in ? mf_inputs_state(u->in, k + u->inoff) : NULL;
    Z3_ast ok = E->tru;
    srcvec *srcs = mf_xcalloc((size_t)(n ? n : 1), sizeof *srcs);
    unsigned char *freeslot = mf_xcalloc((size_t)(n ? n : 1), 1);

    E->choices = &u->ch[k];
    E->meta = u->meta;
    E->stamp++;

    int arbitrary = k == 0 && u->state0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        for (int q = 0; q < v->nslots; q++) {
            int sl = v->slot + q;
            if (arbitrary)
                st[sl] = u->state0[sl];
            else if (v->decl == MF_DECL_IVAR ||
                     (v->is_input && v->decl == MF_DECL_VAR))
                st[sl] = inp ? inp[sl] : NULL;
            else if (k > 0 && v->decl == MF_DECL_FROZENVAR)
                st[sl] = cur[sl];
            if (!st[sl]) {
                char name[64];
                snprintf(name, sizeof name, "%s_%d_%d", u->tag, k, sl);
                st[sl] = K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name),
                                       E->isort));
                freeslot[sl] = 1;
            }
        }
    }
    /* A new ectx: the DEFINE cache restarts (stamp bumped above). */
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        if (it->kind == MF_IT_DEFINE)
            continue;
        if (arbitrary && it->kind != MF_IT_INVAR_C &&
            it->kind != MF_IT_ASSIGN)
            continue;
        int *at = u->meta ? E->at[i] : NULL;
        Z3_ast orig = E->tru;
        if (at)
            for (int *j = at; *j >= 0; j++)
                orig = and2(E, orig, not1(E, eq(E, E->mid, selnum(E, *j))));
        if (arbitrary) {
            /* State invariants of an arbitrary (reachable) state: only as
             * constraints. */
            ectx lx = {st, NULL, st};
            tv t = ex(E, &lx, it->e, 0, 0);
            Z3_ast c = and2(E, t.d, i2b(E, t.v));
            if (it->kind == MF_IT_ASSIGN) {
                cellvec cells = {0};
                Z3_ast def = E->tru;
                if (lhs_cells(E, &lx, it->lhs, &cells, &def) == 0 &&
                    cells.n == 1)
                    c = and2(E, t.d, eq(E, st[cells.v[0].slot], t.v));
                else
                    c = E->tru;
                MF_VEC_FREE(cells);
            }
            ok = and2(E, ok, orig == E->tru ? c
                                            : K(Z3_mk_implies(E->c, orig, c)));
            continue;
        }
        add_item(E, u, it, orig, k, srcs, &ok, cur, st);
        if (at)
            for (int *j = at; *j >= 0; j++)
                if (E->muts[*j].repl)
                    add_item(E, u, E->muts[*j].repl,
                             eq(E, E->mid, selnum(E, *j)), k, srcs, &ok, cur,
                             st);
    }
    /* Slots: defined by their sources, else a free choice. */
    astvec leaves = {0};
    intvec leafslot = {0};
    for (int sl = 0; sl < n; sl++) {
        if (!freeslot[sl] || arbitrary)
            continue;
        Z3_ast val = NULL, d = E->tru;
        int uncond = 0;
        for (int i = srcs[sl].n - 1; i >= 0; i--)
            if (srcs[sl].v[i].cond == E->tru)
                uncond = 1;
        if (!uncond)
            val = new_choice(E);
        for (int i = srcs[sl].n - 1; i >= 0; i--) {
            src *sc = &srcs[sl].v[i];
            if (!val) {
                val = sc->v;
                d = sc->d;
                continue;
            }
            val = ite(E, sc->cond, sc->v, val);
            d = ite(E, sc->cond, sc->d, d);
        }
        Z3_solver_assert(E->c, u->s, eq(E, st[sl], val));
        ok = and2(E, ok, d);
        if (u->ch[k].n) /* only a choice made so far can be a leaf */
            value_leaves(E, val, sl, &leaves, &leafslot, 0);
    }
    for (int i = 0; i < u->ch[k].n; i++) {
        int at = -1;
        for (int q = 0; q < leaves.n && at < 0; q++)
            if (leaves.v[q] == u->ch[k].v[i])
                at = leafslot.v[q];
        MF_VEC_PUSH(u->chslot[k], at);
    }
    MF_VEC_FREE(leaves);
    MF_VEC_FREE(leafslot);
    /* Domains: a value outside the type is no successor. */
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (v->decl == MF_DECL_IVAR && !arbitrary)
            continue;
        for (int q = 0; q < v->nslots; q++)
            ok = and2(E, ok, in_type(E, v->type, st[v->slot + q]));
    }
    /* Observables. */
    Z3_ast *obs = mf_xcalloc((size_t)(E->nobs ? E->nobs : 1), sizeof *obs);
    int no = 0;
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].is_observable)
            for (int q = 0; q < m->vars[i].nslots; q++)
                obs[no++] = st[m->vars[i].slot + q];
    for (int i = 0; i < m->nobs_defines; i++) {
        int item = m->obs_defines[i];
        ectx lx = {st, NULL, st};
        if (has_choice(m, m->items[item].e, 0))
            unsupported(E, &(mf_expr){.line = m->items[item].line,
                                      .col = m->items[item].col},
                        "observing a non-deterministic DEFINE");
        tv t = ex_define(E, &lx, item, 0, 0);
        obs[no++] = ite(E, t.d, t.v, num(E, E->undef));
    }

    if (u->hard_ok) {
        Z3_solver_assert(E->c, u->s, ok);
    } else {
        char name[64];
        snprintf(name, sizeof name, "%s_ok%d", u->tag, k);
        Z3_ast b = K(Z3_mk_const(E->c, Z3_mk_string_symbol(E->c, name),
                                 E->bsort));
        Z3_solver_assert(E->c, u->s, K(Z3_mk_iff(E->c, b, ok)));
        ok = b;
    }
    u->st[k] = st;
    u->ok[k] = ok;
    u->obs[k] = obs;
    E->choices = NULL;
    E->stamp++;
    for (int sl = 0; sl < n; sl++)
        MF_VEC_FREE(srcs[sl]);
    free(srcs);
    free(freeslot);
}

void mf_unroll_extend(mf_unroll *u, int k)
{
    if (k <= u->depth)
        return;
    if (k >= u->cap) {
        int cap = k + 8;
        u->st = mf_xrealloc(u->st, sizeof *u->st * (size_t)cap);
        u->ok = mf_xrealloc(u->ok, sizeof *u->ok * (size_t)cap);
        u->obs = mf_xrealloc(u->obs, sizeof *u->obs * (size_t)cap);
        u->ch = mf_xrealloc(u->ch, sizeof *u->ch * (size_t)cap);
        u->chslot = mf_xrealloc(u->chslot, sizeof *u->chslot * (size_t)cap);
        for (int i = u->cap; i < cap; i++) {
            memset(&u->ch[i], 0, sizeof u->ch[i]);
            memset(&u->chslot[i], 0, sizeof u->chslot[i]);
        }
        u->cap = cap;
    }
    while (u->depth < k) {
        u->depth++;
        build_state(u, u->depth);
    }
}

/* ------------------------------------------------------------------ */
/* Structural determinism                                               */

int mf_model_structurally_det(const mf_model *m)
{
    int n = m->nslots;
    unsigned char *hi = mf_xcalloc((size_t)(n ? n : 1), 1); /* init src */
    unsigned char *hn = mf_xcalloc((size_t)(n ? n : 1), 1); /* next src */
    int det = 1;
    for (int i = 0; i < m->nitems && det; i++) {
        const mf_item *it = &m->items[i];
        if (it->kind == MF_IT_DEFINE)
            continue;
        if (has_choice(m, it->e, 0))
            det = 0;
        if (it->kind != MF_IT_INIT && it->kind != MF_IT_NEXT &&
            it->kind != MF_IT_ASSIGN)
            continue;
        const mf_var *v = &m->vars[it->var];
        int whole = it->lhs && it->lhs->kind == MF_E_ID;
        for (int q = 0; q < v->nslots; q++) {
            /* An indexed left-hand side covers its cell; assume the others
             * are covered by sibling assignments (checked below). */
            if (!whole && v->nslots > 1)
                continue;
            if (it->kind != MF_IT_NEXT)
                hi[v->slot + q] = 1;
            if (it->kind != MF_IT_INIT)
                hn[v->slot + q] = 1;
        }
        if (!whole && v->nslots > 1) {
            /* Count indexed assignments per array below. */
            const mf_expr *l = it->lhs;
            if (l->kind == MF_E_INDEX && l->kids[1]->kind == MF_E_INT &&
                l->kids[0]->kind == MF_E_ID && v->type->kind == MF_TY_ARRAY &&
                v->type->elem->kind != MF_TY_ARRAY) {
                int sl = v->slot + (int)(l->kids[1]->ival - v->type->lo);
                if (sl >= v->slot && sl < v->slot + v->nslots) {
                    if (it->kind != MF_IT_NEXT)
                        hi[sl] = 1;
                    if (it->kind != MF_IT_INIT)
                        hn[sl] = 1;
                }
            }
        }
    }
    for (int i = 0; i < m->nvars && det; i++) {
        const mf_var *v = &m->vars[i];
        if (v->decl == MF_DECL_IVAR || v->is_input)
            continue;
        for (int q = 0; q < v->nslots; q++) {
            if (!hi[v->slot + q])
                det = 0;
            if (!hn[v->slot + q] && v->decl != MF_DECL_FROZENVAR)
                det = 0;
        }
    }
    free(hi);
    free(hn);
    return det;
}
