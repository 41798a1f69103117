/* clocks.c - clocks in expressions: where a reference is a clock, the
 * flat clock it names, and guards and invariants split into atomic clock
 * constraints and a clock-free part (ta_split_guard, ta_split_inv), both
 * at the template level and flat; a clock anywhere else is refused. */
#include "ta_build.h"

#include <stdlib.h>
#include <string.h>

int ta_is_clock_ref(ta_bld *b, const ta_expr *e)
{
    ta_type tmp;
    const ta_type *t = ta_ref_type(b, e, &tmp);
    return t && t->kind == TA_V_CLOCK && !t->is_chan;
}

int ta_has_clock(ta_bld *b, const ta_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == TA_E_REF)
        return ta_is_clock_ref(b, e);
    for (int i = 0; i < e->nkids; i++)
        if (ta_has_clock(b, e->kids[i]))
            return 1;
    return 0;
}

/* The clock index of a flat clock reference (constant index), or -1 with
 * a message. */
int ta_clock_index(ta_bld *b, const ta_expr *e, int *out)
{
    int64_t off = 0, stride = 1;
    const ta_expr *r = e;
    while (r->kind == TA_E_INDEX)
        r = r->kids[0];
    const ta_var *v = &b->vars.v[r->ref];
    int depth = 0;
    for (const ta_expr *k = e; k->kind == TA_E_INDEX; k = k->kids[0])
        depth++;
    if (depth != v->ndims)
        return ta_bld_err(b, MF_ETYPE, e, "clock array '%s' needs %d indices",
                          v->name, v->ndims);
    int d = v->ndims - 1;
    for (const ta_expr *k = e; k->kind == TA_E_INDEX; k = k->kids[0], d--) {
        if (k->kids[1]->kind != TA_E_INT)
            return ta_bld_err(b, MF_EUNSUPPORTED, k,
                              "a clock array indexed by a variable");
        int64_t ix = k->kids[1]->ival;
        if (ix < 0 || ix >= v->dims[d])
            return ta_bld_err(b, MF_ETYPE, k, "index %lld out of %s[%d]",
                              (long long)ix, v->name, v->dims[d]);
        off += ix * stride;
        stride *= v->dims[d];
    }
    /* the clocks are laid out in the order of the variables (ta_flatten
     * numbers them once all are made) */
    int base = 0;
    for (int i = 0; i < r->ref; i++)
        if (b->vars.v[i].kind == TA_V_CLOCK)
            base += b->vars.v[i].ncells;
    *out = base + (int)off;
    return 0;
}

/* x, or x - y: the clocks (flat) into *x, *y. 1 when e is such a term. */
static int clock_term(ta_bld *b, const ta_expr *e, int flat, int *x, int *y,
                      int *rc)
{
    *x = *y = -1;
    if (ta_is_clock_ref(b, e)) {
        if (flat)
            *rc = ta_clock_index(b, e, x);
        return 1;
    }
    if (e->kind == TA_E_BIN && e->op == TA_OP_SUB &&
        ta_is_clock_ref(b, e->kids[0]) && ta_is_clock_ref(b, e->kids[1])) {
        if (flat && !(*rc = ta_clock_index(b, e->kids[0], x)))
            *rc = ta_clock_index(b, e->kids[1], y);
        return 1;
    }
    return 0;
}

static int flip(int op)
{
    switch (op) {
    case TA_OP_LT: return TA_OP_GT;
    case TA_OP_LE: return TA_OP_GE;
    case TA_OP_GT: return TA_OP_LT;
    case TA_OP_GE: return TA_OP_LE;
    default: return op;
    }
}

typedef MF_VEC(ta_cc) cc_vec;

static int split(ta_bld *b, ta_expr *g, int flat, int inv, ta_cc **cc,
                 int *ncc, ta_expr **data)
{
    ta_expr **cj = NULL;
    int n = 0, cap = 0, rc = 0;
    cc_vec v = {0};
    *cc = NULL;
    *ncc = 0;
    *data = NULL;
    ta_conjuncts(g, &cj, &n, &cap);
    const char *what = inv ? "an invariant" : "a guard";
    for (int i = 0; i < n && !rc; i++) {
        ta_expr *c = cj[i];
        if (!ta_has_clock(b, c)) {
            *data = *data ? ta_expr_bin(b->a, TA_OP_AND, *data, c) : c;
            continue;
        }
        int rel = c->kind == TA_E_BIN &&
                  (c->op == TA_OP_LT || c->op == TA_OP_LE ||
                   c->op == TA_OP_EQ || c->op == TA_OP_GE ||
                   c->op == TA_OP_GT);
        if (c->kind == TA_E_BIN && c->op == TA_OP_NE) {
            rc = ta_bld_err(b, MF_EUNSUPPORTED, c, "'!=' on clocks in %s",
                            what);
            break;
        }
        ta_cc a = {-1, -1, 0, NULL, c};
        int x, y, lx = 0, rx = 0;
        if (rel) {
            lx = clock_term(b, c->kids[0], flat, &x, &y, &rc);
            if (lx && !rc && !ta_has_clock(b, c->kids[1])) {
                a.x = x, a.y = y, a.op = c->op, a.bound = c->kids[1];
            } else if (!rc && !lx &&
                       (rx = clock_term(b, c->kids[1], flat, &x, &y, &rc)) &&
                       !rc && !ta_has_clock(b, c->kids[0])) {
                a.x = x, a.y = y, a.op = flip(c->op), a.bound = c->kids[0];
            } else if (!rc && lx && ta_is_clock_ref(b, c->kids[1]) &&
                       a.y < 0 && y < 0) {
                /* x op y: x - y op 0 */
                int xx = -1, yy = -1;
                if (flat && !(rc = ta_clock_index(b, c->kids[0], &xx)))
                    rc = ta_clock_index(b, c->kids[1], &yy);
                a.x = xx, a.y = yy, a.op = c->op;
                a.bound = ta_expr_int(b->a, 0, c->line, c->col);
            } else {
                rel = 0;
            }
        }
        if (rc)
            break;
        if (!rel || !a.bound) {
            mf_buf t = {0};
            ta_print_expr(&t, c);
            rc = ta_bld_err(b, MF_ETYPE, c,
                            "%s must be a conjunction of clock constraints "
                            "and clock-free conditions: '%s' is not", what,
                            t.data);
            mf_buf_free(&t);
            break;
        }
        if (inv && (a.op == TA_OP_GT || a.op == TA_OP_GE ||
                    a.op == TA_OP_EQ || a.y >= 0 ||
                    (c->kids[1] != a.bound && c->kids[0] != a.bound))) {
            mf_buf t = {0};
            ta_print_expr(&t, c);
            rc = ta_bld_err(b, MF_EUNSUPPORTED, c,
                            "an invariant that is not an upper bound on one "
                            "clock: '%s'", t.data);
            mf_buf_free(&t);
            break;
        }
        MF_VEC_PUSH(v, a);
    }
    free(cj);
    if (!rc && v.n) {
        *ncc = v.n;
        *cc = mf_arena_alloc(b->a, (size_t)v.n * sizeof(ta_cc));
        memcpy(*cc, v.v, (size_t)v.n * sizeof(ta_cc));
    }
    MF_VEC_FREE(v);
    return rc;
}

int ta_split_guard(ta_bld *b, ta_expr *g, int flat, ta_cc **cc, int *ncc,
                   ta_expr **data)
{
    return split(b, g, flat, 0, cc, ncc, data);
}

int ta_split_inv(ta_bld *b, ta_expr *g, int flat, ta_cc **cc, int *ncc,
                 ta_expr **data)
{
    return split(b, g, flat, 1, cc, ncc, data);
}

