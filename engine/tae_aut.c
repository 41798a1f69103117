/* tae_aut.c - the timed engine's automaton view (tae_aut.h): its arena, the
 * integer expression evaluator, the maximal constants per clock, atoms
 * negated and printed. Building a net from the front-ends' IR is
 * tae_view.c's. */
#include "tae_aut.h"

#include <stdlib.h>

tae_aut *tae_aut_new(const char *name)
{
    mf_arena *a = mf_arena_new();
    tae_aut *n = mf_arena_alloc(a, sizeof *n);
    n->a = a;
    n->name = mf_arena_strdup(a, name ? name : "");
    return n;
}

void tae_aut_free(tae_aut *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nparts; i++)
        tae_aut_free(n->parts[i]);
    mf_arena_free(n->a);
}

int tae_ix_eval(int64_t *out, const tae_ix *e, const int64_t *vals)
{
    int64_t x = 0, y = 0, z = 0;
    int rc = 0;
    switch (e->op) {
    case TAE_X_CONST:
        *out = e->k;
        return 0;
    case TAE_X_VAR:
        *out = vals[e->var];
        return 0;
    default:
        break;
    }
    if ((rc = tae_ix_eval(&x, e->a, vals)) < 0)
        return rc;
    if (e->op == TAE_X_NEG || e->op == TAE_X_NOT) {
        *out = e->op == TAE_X_NEG ? -x : !x;
        return 0;
    }
    if (e->op == TAE_X_AND && !x) {
        *out = 0;
        return 0;
    }
    if (e->op == TAE_X_OR && x) {
        *out = 1;
        return 0;
    }
    if (e->op == TAE_X_ITE) {
        return tae_ix_eval(out, x ? e->b : e->c, vals);
    }
    if ((rc = tae_ix_eval(&y, e->b, vals)) < 0)
        return rc;
    switch (e->op) {
    case TAE_X_ADD: z = x + y; break;
    case TAE_X_SUB: z = x - y; break;
    case TAE_X_MUL: z = x * y; break;
    case TAE_X_DIV:
    case TAE_X_MOD:
        if (y == 0)
            return mf_err_set(MF_ERROR, "division by zero");
        z = e->op == TAE_X_DIV ? x / y : x % y;
        break;
    case TAE_X_EQ: z = x == y; break;
    case TAE_X_NE: z = x != y; break;
    case TAE_X_LT: z = x < y; break;
    case TAE_X_LE: z = x <= y; break;
    case TAE_X_GT: z = x > y; break;
    case TAE_X_GE: z = x >= y; break;
    case TAE_X_AND:
    case TAE_X_OR: z = y != 0; break;
    default:
        return mf_err_set(MF_ERROR, "bad integer expression");
    }
    *out = z;
    return 0;
}

static void maxc_conj(tae_aut *n, const tae_conj *c)
{
    for (int k = 0; k < c->n; k++) {
        int64_t v = TAE_BK(c->v[k].b);
        if (v < 0)
            v = -v;
        if (c->v[k].i && v > n->maxc[c->v[k].i])
            n->maxc[c->v[k].i] = v;
        if (c->v[k].j && v > n->maxc[c->v[k].j])
            n->maxc[c->v[k].j] = v;
    }
}

static int64_t reset_of(const tae_edge *e, int x)
{
    for (int r = 0; r < e->nresets; r++)
        if (e->resets[r] == x)
            return e->reset_to[r];
    return -1;
}

/* The target's invariant after e's resets, as a constraint on the clocks
 * before them, joined to the guard. */
static void edge_en(tae_aut *n, tae_edge *e)
{
    const tae_conj *inv = &n->locs[e->dst].inv;
    e->en.v = mf_arena_alloc(n->a, (size_t)(e->guard.n + inv->n + 1) *
                                       sizeof *e->en.v);
    for (int k = 0; k < e->guard.n; k++)
        e->en.v[e->en.n++] = e->guard.v[k];
    for (int k = 0; k < inv->n; k++) {
        tae_atom a = inv->v[k];
        int64_t ri = a.i ? reset_of(e, a.i) : -1;
        int64_t rj = a.j ? reset_of(e, a.j) : -1;
        int64_t c = TAE_BK(a.b);
        int strict = TAE_BSTRICT(a.b);
        if (ri >= 0 && (rj >= 0 || a.j == 0)) {
            int64_t lhs = ri - (rj >= 0 ? rj : 0);
            if (strict ? !(lhs < c) : !(lhs <= c))
                e->never = 1;
            continue;
        }
        if (a.i == 0 && rj >= 0) {
            if (strict ? !(-rj < c) : !(-rj <= c))
                e->never = 1;
            continue;
        }
        if (ri >= 0) /* ri - x_j < c: 0 - x_j < c - ri */
            a = (tae_atom){0, a.j, strict ? TAE_LT(c - ri) : TAE_LE(c - ri)};
        else if (rj >= 0) /* x_i - rj < c */
            a = (tae_atom){a.i, 0, strict ? TAE_LT(c + rj) : TAE_LE(c + rj)};
        e->en.v[e->en.n++] = a;
    }
}

/* Marks what x reads; 1 when that marked something new. */
static int mark_read(char *live, int ni, const tae_ix *x)
{
    int changed = 0;
    if (!x)
        return 0;
    if (x->op == TAE_X_VAR && x->var >= 0 && x->var < ni && !live[x->var]) {
        live[x->var] = 1;
        changed = 1;
    }
    changed |= mark_read(live, ni, x->a);
    changed |= mark_read(live, ni, x->b);
    changed |= mark_read(live, ni, x->c);
    return changed;
}

void tae_live(char *live, const tae_aut *a, const tae_aut *b)
{
    const tae_aut *both[2] = {a, b};
    for (int i = 0; i < a->nints; i++)
        live[i] = 0;
    for (int w = 0; w < 2 && both[w]; w++) {
        for (int e = 0; e < both[w]->nedges; e++)
            mark_read(live, a->nints, both[w]->edges[e].iguard);
        for (int l = 0; l < both[w]->nlocs; l++)
            mark_read(live, a->nints, both[w]->locs[l].iinv);
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int w = 0; w < 2 && both[w]; w++)
            for (int e = 0; e < both[w]->nedges; e++)
                for (int k = 0; k < both[w]->edges[e].nasg; k++) {
                    const tae_assign *g = &both[w]->edges[e].asg[k];
                    if (live[g->var])
                        changed |= mark_read(live, a->nints, g->val);
                }
    }
}

void tae_aut_finish(tae_aut *n)
{
    n->first = mf_arena_alloc(n->a, (size_t)(n->nlocs + 1) * sizeof(int));
    n->next = mf_arena_alloc(n->a, (size_t)(n->nedges + 1) * sizeof(int));
    for (int l = 0; l < n->nlocs; l++)
        n->first[l] = -1;
    for (int e = n->nedges - 1; e >= 0; e--) {
        n->next[e] = n->first[n->edges[e].src];
        n->first[n->edges[e].src] = e;
        edge_en(n, &n->edges[e]);
    }
    n->maxc = mf_arena_alloc(n->a, (size_t)(n->nclocks + 1) * sizeof *n->maxc);
    for (int l = 0; l < n->nlocs; l++)
        maxc_conj(n, &n->locs[l].inv);
    for (int e = 0; e < n->nedges; e++) {
        maxc_conj(n, &n->edges[e].guard);
        for (int r = 0; r < n->edges[e].nresets; r++) {
            int64_t v = n->edges[e].reset_to[r];
            int x = n->edges[e].resets[r];
            if (v > n->maxc[x])
                n->maxc[x] = v;
        }
    }
}

int tae_edge_iok(const tae_edge *e, const int64_t *vals)
{
    int64_t v = 1;
    if (e->never)
        return 0;
    if (e->iguard && tae_ix_eval(&v, e->iguard, vals) < 0)
        return 0;
    return v != 0;
}

int tae_iinv_ok(const tae_aut *a, int l, const int64_t *vals)
{
    int64_t v = 1;
    if (!a->locs[l].iinv)
        return 1;
    return tae_ix_eval(&v, a->locs[l].iinv, vals) == 0 && v != 0;
}

int tae_urgent(const tae_aut *a, int l, const int64_t *vals)
{
    if (a->locs[l].urgent)
        return 1;
    for (int e = a->first[l]; e >= 0; e = a->next[e]) {
        if (a->edges[e].urgent && tae_edge_iok(&a->edges[e], vals))
            return 1;
    }
    return 0;
}

tae_atom tae_atom_neg(tae_atom a)
{
    /* not (xi - xj <= k) is xj - xi < -k; not (xi - xj < k) is <= -k */
    tae_atom r = {a.j, a.i, 0};
    int64_t k = TAE_BK(a.b);
    r.b = TAE_BSTRICT(a.b) ? TAE_LE(-k) : TAE_LT(-k);
    return r;
}

void tae_atom_print(mf_buf *b, const tae_aut *n, tae_atom a)
{
    int64_t k = TAE_BK(a.b);
    const char *op = TAE_BSTRICT(a.b) ? "<" : "<=";
    if (a.j == 0)
        mf_buf_printf(b, "%s %s %lld", n->clocks[a.i], op, (long long)k);
    else if (a.i == 0)
        mf_buf_printf(b, "%s %s %lld", n->clocks[a.j],
                      TAE_BSTRICT(a.b) ? ">" : ">=", (long long)-k);
    else
        mf_buf_printf(b, "%s - %s %s %lld", n->clocks[a.i], n->clocks[a.j],
                      op, (long long)k);
}
