/* encode_analysis.c - what the Z3 encoding needs to know about a model
 * before it builds a term: the range of every value (which decides the width
 * of the bit-vectors), which expressions denote sets that need a choice
 * constant, and whether the model is structurally deterministic. It reads
 * the model only: it makes no Z3 term and knows nothing of how terms are
 * built. */
#include "encode_int.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Choices                                                              */

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

int mf_enc_has_choice(const mf_model *m, const mf_expr *e)
{
    return has_choice(m, e, 0);
}

/* ------------------------------------------------------------------ */
/* Width                                                                */

/* Bit-vectors let Z3 bit-blast the unrolling into its SAT core, which on
 * counters is orders of magnitude faster than linear integer arithmetic
 * (docs/killing.md). They must never wrap where the simulator's int64 does
 * not: the width is chosen from an interval analysis of every expression of
 * the model and of the batch's variants, so every value any subexpression
 * can take fits. Past MF_ENC_RCAP the encoding stays Int. */

typedef struct {
    int64_t lo, hi;
} ival;

typedef struct {
    const mf_model *m;
    ival *memo;  /* per DEFINE item */
    char *state; /* 0 new, 1 in progress, 2 done */
    int64_t mx;  /* largest magnitude seen */
} wctx;

static int64_t clampi(__int128 x)
{
    return x > MF_ENC_RCAP    ? MF_ENC_RCAP
           : x < -MF_ENC_RCAP ? -MF_ENC_RCAP
                              : (int64_t)x;
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
    case MF_TY_BOOL:
        r->lo = 0, r->hi = 1;
        break;
    case MF_TY_RANGE:
        r->lo = t->lo, r->hi = t->hi;
        break;
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
    default:
        r->lo = r->hi = 0;
        break;
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
        w->mx = MF_ENC_RCAP;
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
                w->mx = MF_ENC_RCAP;
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
            __int128 p[4] = {
                (__int128)k[0].lo * k[1].lo, (__int128)k[0].lo * k[1].hi,
                (__int128)k[0].hi * k[1].lo, (__int128)k[0].hi * k[1].hi};
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
        default:   /* logic, comparisons, `in` */
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
        else if (e->op == MF_FN_SIZEOF)
            r.lo = r.hi = MF_WTY_WIDTH(e->kids[0]->wty);
        break; /* min, max: the hull */
    default:
        break;
    }
    if (e->wty) {
        /* a word stays in its type's range: its operators compute at N
         * bits and wrap (encode_word.c) */
        int n = MF_WTY_WIDTH(e->wty);
        if (MF_WTY_SIGNED(e->wty))
            r.lo = -((int64_t)1 << (n - 1)), r.hi = ((int64_t)1 << (n - 1)) - 1;
        else
            r.lo = 0, r.hi = ((int64_t)1 << n) - 1;
        r.lo = clampi(r.lo), r.hi = clampi(r.hi);
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

/* Largest magnitude of an integer value in m and its variants (see
 * encode_int.h). */
int64_t mf_enc_max_magnitude(const mf_model *m, const mf_variant *muts,
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
