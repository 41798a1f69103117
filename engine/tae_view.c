/* tae_view.c - from the front-ends' network (ta/ta.h) to the timed
 * engine's automaton (tae_view.h). Expressions are translated into the
 * engine's integer trees with select and quantified variables replaced by
 * their values; array elements with an index known only at run time
 * become a choice over the cells (an index out of range disables the
 * edge, as the simulator and the zone product agree). */
#include "tae_view.h"

#include "tae_compose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEL_VALUES 4096

typedef MF_VEC(tae_atom) atomvec;

typedef struct {
    const ta_net *n;
    tae_aut *a;
    int64_t *sel;   /* the edge's select values */
    int64_t qv[16]; /* quantified variables by number */
    const char *file;
    int line;
} vw;

static int unsup(vw *V, const char *what)
{
    return mf_err_set(MF_EUNSUPPORTED, "%s:%d: unsupported: %s",
                      V->file ? V->file : "model", V->line, what);
}

static tae_ix *mk(vw *V, int op, tae_ix *a, tae_ix *b, tae_ix *c)
{
    tae_ix *x = mf_arena_alloc(V->a->a, sizeof *x);
    x->op = op;
    x->a = a;
    x->b = b;
    x->c = c;
    return x;
}

static tae_ix *kconst(vw *V, int64_t k)
{
    tae_ix *x = mk(V, TAE_X_CONST, NULL, NULL, NULL);
    x->k = k;
    return x;
}

static tae_ix *kvar(vw *V, int cell)
{
    tae_ix *x = mk(V, TAE_X_VAR, NULL, NULL, NULL);
    x->var = cell;
    return x;
}

static int tx(vw *V, const ta_expr *e, tae_ix **out);

/* The variable and flat cell offset of an lvalue or array read. */
static int cell_of(vw *V, const ta_expr *e, int *var, tae_ix **off)
{
    if (e->kind == TA_E_REF) {
        if (e->ref_kind != TA_R_VAR)
            return unsup(V, "a name that is not a variable here");
        *var = e->ref;
        *off = kconst(V, 0);
        return 0;
    }
    if (e->kind != TA_E_INDEX)
        return unsup(V, "an expression that is not a variable here");
    tae_ix *base = NULL, *ix = NULL;
    int rc = cell_of(V, e->kids[0], var, &base);
    if (rc < 0 || (rc = tx(V, e->kids[1], &ix)) < 0)
        return rc;
    const ta_var *v = &V->n->vars[*var];
    /* depth of this index: how many TA_E_INDEX are below */
    int depth = 0;
    for (const ta_expr *k = e->kids[0]; k->kind == TA_E_INDEX; k = k->kids[0])
        depth++;
    if (depth >= v->ndims)
        return unsup(V, "too many indices");
    *off = mk(V, TAE_X_ADD,
              mk(V, TAE_X_MUL, base, kconst(V, v->dims[depth]), NULL), ix,
              NULL);
    return 0;
}

static int is_const(const tae_ix *x)
{
    if (!x)
        return 1;
    if (x->op == TAE_X_VAR)
        return 0;
    return is_const(x->a) && is_const(x->b) && is_const(x->c);
}

static tae_ix *bad_index(vw *V)
{
    return mk(V, TAE_X_DIV, kconst(V, 1), kconst(V, 0), NULL);
}

/* The value of cell `off` of variable v (a read). */
static int read_cell(vw *V, int var, tae_ix *off, tae_ix **out)
{
    const ta_var *v = &V->n->vars[var];
    if (v->kind == TA_V_CLOCK)
        return unsup(V, "a clock in an integer expression");
    int64_t k = 0;
    if (is_const(off) && tae_ix_eval(&k, off, NULL) == 0) {
        if (k < 0 || k >= v->ncells) {
            *out = bad_index(V);
            return 0;
        }
        *out = v->kind == TA_V_CONST ? kconst(V, v->init[k])
                                     : kvar(V, v->cell + (int)k);
        return 0;
    }
    tae_ix *r = bad_index(V);
    for (int c = v->ncells - 1; c >= 0; c--) {
        tae_ix *val = v->kind == TA_V_CONST ? kconst(V, v->init[c])
                                            : kvar(V, v->cell + c);
        r = mk(V, TAE_X_ITE, mk(V, TAE_X_EQ, off, kconst(V, c), NULL), val, r);
    }
    *out = r;
    return 0;
}

static const int binop[TA_OP__COUNT] = {
    [TA_OP_ADD] = TAE_X_ADD, [TA_OP_SUB] = TAE_X_SUB, [TA_OP_MUL] = TAE_X_MUL,
    [TA_OP_DIV] = TAE_X_DIV, [TA_OP_MOD] = TAE_X_MOD, [TA_OP_AND] = TAE_X_AND,
    [TA_OP_OR] = TAE_X_OR,   [TA_OP_EQ] = TAE_X_EQ,   [TA_OP_NE] = TAE_X_NE,
    [TA_OP_LT] = TAE_X_LT,   [TA_OP_LE] = TAE_X_LE,   [TA_OP_GT] = TAE_X_GT,
    [TA_OP_GE] = TAE_X_GE,
};

static int tx(vw *V, const ta_expr *e, tae_ix **out)
{
    tae_ix *a = NULL, *b = NULL, *c = NULL;
    int rc = 0;
    if (e->line)
        V->line = e->line;
    switch (e->kind) {
    case TA_E_INT:
    case TA_E_BOOL:
        *out = kconst(V, e->ival);
        return 0;
    case TA_E_REF:
        if (e->ref_kind == TA_R_SELECT) {
            *out = kconst(V, V->sel[e->ref]);
            return 0;
        }
        if (e->ref_kind == TA_R_QVAR) {
            if (e->ref < 0 || e->ref >= 16)
                return unsup(V, "nested quantifiers this deep");
            *out = kconst(V, V->qv[e->ref]);
            return 0;
        }
        /* fall through */
    case TA_E_INDEX: {
        int var = 0;
        tae_ix *off = NULL;
        if ((rc = cell_of(V, e, &var, &off)) < 0)
            return rc;
        return read_cell(V, var, off, out);
    }
    case TA_E_UN:
        if ((rc = tx(V, e->kids[0], &a)) < 0)
            return rc;
        if (e->op == TA_OP_PLUS)
            *out = a;
        else if (e->op == TA_OP_NEG || e->op == TA_OP_NOT)
            *out = mk(V, e->op == TA_OP_NEG ? TAE_X_NEG : TAE_X_NOT, a, NULL,
                      NULL);
        else
            return unsup(V, "bitwise operators");
        return 0;
    case TA_E_BIN:
        if ((rc = tx(V, e->kids[0], &a)) < 0 ||
            (rc = tx(V, e->kids[1], &b)) < 0)
            return rc;
        if (e->op == TA_OP_IMPLY)
            *out = mk(V, TAE_X_OR, mk(V, TAE_X_NOT, a, NULL, NULL), b, NULL);
        else if (e->op == TA_OP_MIN || e->op == TA_OP_MAX)
            *out = mk(V, TAE_X_ITE,
                      mk(V, e->op == TA_OP_MIN ? TAE_X_LE : TAE_X_GE, a, b,
                         NULL),
                      a, b);
        else if (e->op < TA_OP__COUNT && (binop[e->op] || e->op == TA_OP_ADD))
            *out = mk(V, binop[e->op], a, b, NULL);
        else
            return unsup(V, "bitwise operators");
        return 0;
    case TA_E_ITE:
        if ((rc = tx(V, e->kids[0], &a)) < 0 ||
            (rc = tx(V, e->kids[1], &b)) < 0 ||
            (rc = tx(V, e->kids[2], &c)) < 0)
            return rc;
        *out = mk(V, TAE_X_ITE, a, b, c);
        return 0;
    case TA_E_QUANT: {
        if (e->bvar < 0 || e->bvar >= 16)
            return unsup(V, "nested quantifiers this deep");
        if (e->hi - e->lo > 4096)
            return unsup(V, "a quantifier over a large range");
        tae_ix *acc = kconst(V, e->op == TA_OP_FORALL ? 1 : 0);
        for (int64_t k = e->lo; k <= e->hi; k++) {
            V->qv[e->bvar] = k;
            if ((rc = tx(V, e->kids[0], &a)) < 0)
                return rc;
            acc = mk(V, e->op == TA_OP_FORALL   ? TAE_X_AND
                        : e->op == TA_OP_EXISTS ? TAE_X_OR
                                                : TAE_X_ADD,
                     acc, a, NULL);
        }
        *out = acc;
        return 0;
    }
    case TA_E_CALL:
        return unsup(V, "function calls in the timed engine");
    default:
        return unsup(V, "this expression in a guard or update");
    }
}

/* x - y op bound as atoms; the bound must be a constant. */
static int add_cc(vw *V, const ta_cc *cc, atomvec *out)
{
    tae_ix *b = NULL;
    int64_t k = 0;
    int rc = tx(V, cc->bound, &b);
    if (rc < 0)
        return rc;
    if (!is_const(b) || tae_ix_eval(&k, b, NULL) < 0)
        return unsup(V, "a clock bound that is not a constant");
    int x = cc->x + 1, y = cc->y >= 0 ? cc->y + 1 : 0;
    if (cc->op == TA_OP_LE || cc->op == TA_OP_EQ)
        MF_VEC_PUSH(*out, ((tae_atom){x, y, TAE_LE(k)}));
    if (cc->op == TA_OP_LT)
        MF_VEC_PUSH(*out, ((tae_atom){x, y, TAE_LT(k)}));
    if (cc->op == TA_OP_GE || cc->op == TA_OP_EQ)
        MF_VEC_PUSH(*out, ((tae_atom){y, x, TAE_LE(-k)}));
    if (cc->op == TA_OP_GT)
        MF_VEC_PUSH(*out, ((tae_atom){y, x, TAE_LT(-k)}));
    return 0;
}

static int conj_of(vw *V, const ta_cc *cc, int n, tae_conj *out)
{
    atomvec v = {0};
    int rc = 0;
    for (int k = 0; k < n && rc == 0; k++)
        rc = add_cc(V, &cc[k], &v);
    if (rc == 0 && v.n) {
        out->v = mf_arena_alloc(V->a->a, (size_t)v.n * sizeof *out->v);
        memcpy(out->v, v.v, (size_t)v.n * sizeof *out->v);
        out->n = v.n;
    }
    MF_VEC_FREE(v);
    return rc;
}

typedef MF_VEC(tae_assign) asgvec;
typedef MF_VEC(int64_t) i64vec;

static int update(vw *V, const ta_expr *u, asgvec *asg, i64vec *rs,
                  i64vec *rv)
{
    if (u->kind == TA_E_CALL)
        return unsup(V, "function calls in the timed engine");
    if (u->kind != TA_E_ASSIGN && u->kind != TA_E_INCDEC)
        return unsup(V, "an update that is not an assignment");
    int var = 0, rc = 0;
    tae_ix *off = NULL, *val = NULL, *cur = NULL;
    if ((rc = cell_of(V, u->kids[0], &var, &off)) < 0)
        return rc;
    const ta_var *v = &V->n->vars[var];
    if (u->kind == TA_E_ASSIGN && (rc = tx(V, u->kids[1], &val)) < 0)
        return rc;
    if (v->kind == TA_V_CLOCK) {
        int64_t k = 0, r = 0;
        if (u->kind != TA_E_ASSIGN || u->op != TA_OP_ASSIGN ||
            !is_const(val) || !is_const(off) || tae_ix_eval(&r, val, NULL) ||
            tae_ix_eval(&k, off, NULL) || k < 0 || k >= v->ncells || r < 0)
            return unsup(V, "a clock update other than x = constant");
        MF_VEC_PUSH(*rs, (int64_t)(v->clock + k + 1));
        MF_VEC_PUSH(*rv, r);
        return 0;
    }
    if (v->kind == TA_V_CONST)
        return unsup(V, "an assignment to a constant");
    if ((rc = read_cell(V, var, off, &cur)) < 0)
        return rc;
    if (u->kind == TA_E_INCDEC)
        val = mk(V,
                 u->op == TA_OP_PREINC || u->op == TA_OP_POSTINC ? TAE_X_ADD
                                                                 : TAE_X_SUB,
                 cur, kconst(V, 1), NULL);
    else if (u->op != TA_OP_ASSIGN) {
        if (u->op >= TA_OP__COUNT || !(binop[u->op] || u->op == TA_OP_ADD))
            return unsup(V, "this compound assignment");
        val = mk(V, binop[u->op], cur, val, NULL);
    }
    int64_t k = 0;
    if (is_const(off) && tae_ix_eval(&k, off, NULL) == 0) {
        if (k < 0 || k >= v->ncells)
            return unsup(V, "an index out of range");
        MF_VEC_PUSH(*asg, ((tae_assign){v->cell + (int)k, val}));
        return 0;
    }
    for (int c = 0; c < v->ncells; c++)
        MF_VEC_PUSH(*asg, ((tae_assign){v->cell + c,
                                        mk(V, TAE_X_ITE,
                                           mk(V, TAE_X_EQ, off, kconst(V, c),
                                              NULL),
                                           val, kvar(V, v->cell + c))}));
    return 0;
}

typedef MF_VEC(tae_edge) edgevec;

/* One edge of the process for the current select values. */
static int one_edge(vw *V, const ta_edge *e, int orig, edgevec *out)
{
    tae_edge E = {0};
    int rc = 0;
    E.src = e->src;
    E.dst = e->dst;
    E.orig = orig;
    E.line = e->pos.line;
    V->line = e->pos.line;
    if (e->guard_data && (rc = tx(V, e->guard_data, &E.iguard)) < 0)
        return rc;
    if ((rc = conj_of(V, e->cc, e->ncc, &E.guard)) < 0)
        return rc;
    E.chan = -1;
    E.dir = TAE_TAU;
    if (e->sync.dir != TA_SYNC_NONE) {
        int64_t k = 0;
        tae_ix *ix = NULL;
        if (e->sync.index) {
            if ((rc = tx(V, e->sync.index, &ix)) < 0)
                return rc;
            if (!is_const(ix) || tae_ix_eval(&k, ix, NULL) < 0)
                return unsup(V, "a channel index that is not constant");
        }
        const ta_chan *ch = &V->n->chans[e->sync.chan];
        if (k < 0 || k >= ch->n)
            return unsup(V, "a channel index out of range");
        E.chan = e->sync.chan + (int)k;
        E.sync = e->sync.dir == TA_SYNC_SEND ? TAE_SEND : TAE_RECV;
        const ta_chan *el = &V->n->chans[E.chan];
        E.dir = el->role == TA_ROLE_INPUT    ? TAE_IN
                : el->role == TA_ROLE_OUTPUT ? TAE_OUT
                                             : TAE_TAU;
        if (el->urgent && E.guard.n)
            return unsup(V, "a clock guard on an urgent channel");
        E.urgent = el->urgent;
    }
    asgvec asg = {0};
    i64vec rs = {0}, rv = {0};
    for (int u = 0; u < e->nupd && rc == 0; u++)
        rc = update(V, e->upd[u], &asg, &rs, &rv);
    if (rc == 0) {
        E.nasg = asg.n;
        E.asg = mf_arena_alloc(V->a->a, (size_t)(asg.n + 1) * sizeof *E.asg);
        if (asg.n)
            memcpy(E.asg, asg.v, (size_t)asg.n * sizeof *E.asg);
        E.nresets = rs.n;
        E.resets = mf_arena_alloc(V->a->a, (size_t)(rs.n + 1) * sizeof(int));
        E.reset_to =
            mf_arena_alloc(V->a->a, (size_t)(rs.n + 1) * sizeof(int64_t));
        for (int k = 0; k < rs.n; k++) {
            E.resets[k] = (int)rs.v[k];
            E.reset_to[k] = rv.v[k];
        }
        MF_VEC_PUSH(*out, E);
    }
    MF_VEC_FREE(asg);
    MF_VEC_FREE(rs);
    MF_VEC_FREE(rv);
    return rc;
}

static int edge_sel(vw *V, const ta_edge *e, int orig, int k, edgevec *out)
{
    if (k == e->nsel)
        return one_edge(V, e, orig, out);
    for (int64_t v = e->sel[k].lo; v <= e->sel[k].hi; v++) {
        V->sel[k] = v;
        int rc = edge_sel(V, e, orig, k + 1, out);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int build(vw *V, const ta_proc *p)
{
    const ta_net *n = V->n;
    tae_aut *a = V->a;
    int rc = 0;
    a->nclocks = n->nclocks;
    a->clocks = mf_arena_alloc(a->a, (size_t)(n->nclocks + 1) * sizeof(char *));
    a->clocks[0] = "0";
    a->nints = n->ncells;
    a->ints = mf_arena_alloc(a->a, (size_t)(n->ncells + 1) * sizeof *a->ints);
    for (int v = 0; v < n->nvars; v++) {
        const ta_var *x = &n->vars[v];
        for (int c = 0; c < x->ncells; c++) {
            char nm[256];
            if (x->ncells > 1)
                snprintf(nm, sizeof nm, "%s[%d]", x->name, c);
            else
                snprintf(nm, sizeof nm, "%s", x->name);
            if (x->kind == TA_V_CLOCK)
                a->clocks[x->clock + c + 1] = mf_arena_strdup(a->a, nm);
            else if (x->kind != TA_V_CONST && x->cell >= 0)
                a->ints[x->cell + c] = (tae_int){mf_arena_strdup(a->a, nm),
                                                 x->lo, x->hi, x->init[c]};
        }
    }
    a->nchans = n->nchans;
    a->chans = mf_arena_alloc(a->a, (size_t)(n->nchans + 1) * sizeof(char *));
    a->chan_dir = mf_arena_alloc(a->a, (size_t)(n->nchans + 1) * sizeof(int));
    for (int c = 0; c < n->nchans; c++) {
        a->chans[c] = n->chans[c].name;
        a->chan_dir[c] = n->chans[c].role == TA_ROLE_INPUT    ? TAE_IN
                         : n->chans[c].role == TA_ROLE_OUTPUT ? TAE_OUT
                                                              : TAE_TAU;
    }
    a->nlocs = p->nlocs;
    a->init = p->init;
    a->locs = mf_arena_alloc(a->a, (size_t)(p->nlocs + 1) * sizeof *a->locs);
    for (int l = 0; l < p->nlocs && rc == 0; l++) {
        const ta_loc *L = &p->locs[l];
        V->line = L->pos.line;
        a->locs[l].name = L->name ? L->name : L->id;
        a->locs[l].urgent = L->urgent || L->committed;
        a->locs[l].committed = L->committed;
        a->locs[l].line = L->pos.line;
        if (L->inv_data)
            rc = tx(V, L->inv_data, &a->locs[l].iinv);
        if (rc == 0)
            rc = conj_of(V, L->cc, L->ncc, &a->locs[l].inv);
    }
    edgevec ev = {0};
    int64_t sel[64];
    V->sel = sel;
    for (int e = 0; e < p->nedges && rc == 0; e++) {
        const ta_edge *E = &p->edges[e];
        if (p->locs[E->src].removed || p->locs[E->dst].removed)
            continue;
        long combos = 1;
        for (int k = 0; k < E->nsel; k++)
            combos *= E->sel[k].hi - E->sel[k].lo + 1;
        if (E->nsel > 64 || combos > MAX_SEL_VALUES)
            rc = unsup(V, "a select over too many values");
        else
            rc = edge_sel(V, E, e, 0, &ev);
    }
    if (rc == 0) {
        a->nedges = ev.n;
        a->edges = mf_arena_alloc(a->a, (size_t)(ev.n + 1) * sizeof *a->edges);
        if (ev.n)
            memcpy(a->edges, ev.v, (size_t)ev.n * sizeof *a->edges);
        tae_aut_finish(a);
    }
    MF_VEC_FREE(ev);
    return rc;
}

/* Who the tester can be a partner of, per channel: the environment
 * processes' syncs, and the observed channels no system process
 * completes. */
static void tester_roles(const ta_net *n, char *sends, char *recvs)
{
    char *ss = mf_xcalloc((size_t)n->nchans + 1, 1);
    char *sr = mf_xcalloc((size_t)n->nchans + 1, 1);
    for (int p = 0; p < n->nprocs; p++)
        for (int e = 0; e < n->procs[p].nedges; e++) {
            const ta_sync *s = &n->procs[p].edges[e].sync;
            if (s->dir == TA_SYNC_NONE || s->chan < 0)
                continue;
            const ta_chan *c = &n->chans[s->chan];
            int lo = 0, hi = c->n - 1;
            if (s->index && s->index->kind == TA_E_INT)
                lo = hi = (int)s->index->ival;
            for (int k = lo; k <= hi && s->chan + k < n->nchans; k++) {
                int ch = s->chan + k;
                if (n->procs[p].is_env)
                    (s->dir == TA_SYNC_SEND ? sends : recvs)[ch] = 1;
                else
                    (s->dir == TA_SYNC_SEND ? ss : sr)[ch] = 1;
            }
        }
    for (int c = 0; c < n->nchans; c++) {
        if (!ss[c] && n->chans[c].role == TA_ROLE_INPUT)
            sends[c] = 1;
        if (!sr[c] && n->chans[c].role == TA_ROLE_OUTPUT)
            recvs[c] = 1;
    }
    free(ss);
    free(sr);
}

int tae_view(tae_aut **out, const ta_net *n)
{
    *out = NULL;
    vw V = {0};
    V.n = n;
    V.file = n->file;
    tae_aut **parts = mf_xcalloc((size_t)n->nprocs + 1, sizeof *parts);
    int k = 0, rc = 0;
    for (int p = 0; p < n->nprocs && rc == 0; p++) {
        if (n->procs[p].is_env)
            continue;
        V.a = parts[k++] = tae_aut_new(n->procs[p].name);
        rc = build(&V, &n->procs[p]);
    }
    if (rc == 0 && k == 0)
        rc = unsup(&V, "no system process");
    if (rc < 0) {
        for (int i = 0; i < k; i++)
            tae_aut_free(parts[i]);
        free(parts);
        return rc;
    }
    char *sends = mf_xcalloc((size_t)n->nchans + 1, 1);
    char *recvs = mf_xcalloc((size_t)n->nchans + 1, 1);
    char *bc = mf_xcalloc((size_t)n->nchans + 1, 1);
    tester_roles(n, sends, recvs);
    for (int c = 0; c < n->nchans; c++)
        bc[c] = n->chans[c].kind == TA_CH_BROADCAST;
    tae_compose_opts co = {sends, recvs, bc, 20000};
    rc = tae_compose(out, parts, k, &co);
    free(sends);
    free(recvs);
    free(bc);
    free(parts);
    if (rc < 0) {
        char m[256];
        snprintf(m, sizeof m, "%s", mf_err_msg());
        mf_err_set(rc, "%s: %s", n->file ? n->file : "model", m);
    }
    return rc;
}
