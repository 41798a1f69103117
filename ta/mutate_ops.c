/* mutate_ops.c - the timed-automata mutation operators (docs/timed.md,
 * "Operators"), each making its mutants of one template's items in a
 * fixed order: the new item (an edge or a location at the template
 * level), its site, replacement and description, and whether the change
 * can be written in the format at all (else the mutant is stillborn). The
 * enumeration, ids and duplicates are mutate.c's. */
#include "ta_mut.h"

#include <string.h>

/* ---- helpers ---------------------------------------------------------------- */

/* A copy of e (the arrays copied, the expressions shared: a mutant
 * replaces what it changes with new nodes). */
static ta_edge *edge_dup(mf_arena *a, const ta_edge *e)
{
    ta_edge *c = mf_arena_alloc(a, sizeof(*c));
    *c = *e;
    c->upd = mf_arena_alloc(a, (size_t)(e->nupd + 2) * sizeof(ta_expr *));
    if (e->nupd)
        memcpy(c->upd, e->upd, (size_t)e->nupd * sizeof(ta_expr *));
    return c;
}

/* A copy of e with the node `target` (by identity) replaced by `with`. */
static ta_expr *replace(mf_arena *a, const ta_expr *e, const ta_expr *target,
                        ta_expr *with)
{
    if (e == target)
        return with;
    if (!e)
        return NULL;
    ta_expr *c = mf_arena_alloc(a, sizeof(*c));
    *c = *e;
    if (e->nkids) {
        c->kids = mf_arena_alloc(a, (size_t)e->nkids * sizeof(ta_expr *));
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = replace(a, e->kids[i], target, with);
    }
    return c;
}

static void edge_name(mf_buf *b, const ta_tmpl *t, const ta_edge *e)
{
    mf_buf_printf(b, "edge %s -> %s", ta_loc_label(t, e->src),
                  ta_loc_label(t, e->dst));
    if (e->sync.dir != TA_SYNC_NONE) {
        mf_buf_puts(b, " (");
        ta_print_sync(b, &e->sync);
        mf_buf_puts(b, ")");
    }
}

/* A mutant of template t's edge k (ne: its new edge, NULL: removed) or
 * location i (nl: its new invariant, NULL: removed); k or i is -1. */
static void emit(ta_mut_ctx *c, int t, int op, int k, ta_edge *ne, int i,
                 ta_loc *nl, const char *why)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    ta_mutant mu = {0};
    mu.op = op;
    mu.tmpl = t;
    if (k >= 0) {
        mu.kind = ne ? TA_MK_EDGE : TA_MK_EDGE_DEL;
        mu.item = k;
        mu.new_edge = ne;
        mu.pos = tm->edges[k].pos;
    } else {
        mu.kind = nl ? TA_MK_LOC : TA_MK_LOC_DEL;
        mu.item = i;
        mu.new_loc = nl;
        mu.pos = tm->locs[i].pos;
    }
    ta_mut_emit(c, &mu, why);
}

static void emit_edge(ta_mut_ctx *c, int t, int op, int k, ta_edge *ne,
                      const char *why)
{
    emit(c, t, op, k, ne, -1, NULL, why);
}

/* The syncs a template uses, each once, in order of appearance, with
 * the edge each is first found on (its select variables). */
typedef struct {
    int n;
    const ta_sync *v[256];
    const ta_edge *from[256];
} alphabet;

static int uses_select(const ta_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == TA_E_REF && e->ref_kind == TA_R_SELECT)
        return 1;
    for (int i = 0; i < e->nkids; i++)
        if (uses_select(e->kids[i]))
            return 1;
    return 0;
}

static void alphabet_of(const ta_tmpl *t, alphabet *al)
{
    mf_buf a = {0}, b = {0};
    al->n = 0;
    for (int k = 0; k < t->nedges && al->n < 256; k++) {
        const ta_sync *s = &t->edges[k].sync;
        if (s->dir == TA_SYNC_NONE)
            continue;
        mf_buf_reset(&a);
        ta_print_sync(&a, s);
        int seen = 0;
        for (int i = 0; i < al->n && !seen; i++) {
            mf_buf_reset(&b);
            ta_print_sync(&b, al->v[i]);
            seen = !strcmp(a.data, b.data);
        }
        if (!seen) {
            al->from[al->n] = &t->edges[k];
            al->v[al->n++] = s;
        }
    }
    mf_buf_free(&a);
    mf_buf_free(&b);
}

static int same_sync(const ta_sync *x, const ta_sync *y)
{
    return x->dir == y->dir && ta_expr_equal(x->e, y->e);
}

/* ---- TMI, TAD, SMI ----------------------------------------------------------- */

static void op_tmi(ta_mut_ctx *c, int t)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    for (int k = 0; k < tm->nedges; k++) {
        ta_edge_site(ta_mut_site(c), tm, k);
        mf_buf_puts(ta_mut_desc(c), "remove ");
        edge_name(ta_mut_desc(c), tm, &tm->edges[k]);
        emit_edge(c, t, TA_MOP_TMI, k, NULL, NULL);
    }
}

/* One input (received) and one output (sent) edge for each ordered pair
 * of locations: on the first channel of the template's alphabet in that
 * direction that the source has no edge on (else the first one). */
static void op_tad(ta_mut_ctx *c, int t)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    alphabet al;
    alphabet_of(tm, &al);
    static const ta_syncdir dirs[2] = {TA_SYNC_RECV, TA_SYNC_SEND};
    for (int s = 0; s < tm->nlocs; s++)
        for (int d = 0; d < tm->nlocs; d++)
            for (int di = 0; di < 2; di++) {
                const ta_sync *pick = NULL, *first = NULL;
                const ta_edge *from = NULL, *first_from = NULL;
                for (int i = 0; i < al.n && !pick; i++) {
                    if (al.v[i]->dir != dirs[di])
                        continue;
                    if (!first) {
                        first = al.v[i];
                        first_from = al.from[i];
                    }
                    int used = 0;
                    for (int k = 0; k < tm->nedges && !used; k++)
                        used = tm->edges[k].src == s &&
                               same_sync(&tm->edges[k].sync, al.v[i]);
                    if (!used) {
                        pick = al.v[i];
                        from = al.from[i];
                    }
                }
                if (!pick) {
                    pick = first;
                    from = first_from;
                }
                if (!pick)
                    continue;
                ta_edge *ne = mf_arena_alloc(ta_mut_arena(c), sizeof(*ne));
                ne->src = s;
                ne->dst = d;
                ne->sync = *pick;
                ne->sync.chan = -1;
                ne->sync.index = NULL;
                if (uses_select(pick->e)) {
                    /* the channel's index is a select variable: the
                     * added edge selects it as its edge did */
                    ne->nsel = from->nsel;
                    ne->sel = from->sel;
                }
                ne->added = 1;
                ne->pos = tm->locs[s].pos;
                mf_buf_printf(ta_mut_site(c), "%s/add %s->%s", tm->name,
                              ta_loc_label(tm, s), ta_loc_label(tm, d));
                ta_print_sync(ta_mut_repl(c), pick);
                mf_buf_puts(ta_mut_desc(c), "add ");
                edge_name(ta_mut_desc(c), tm, ne);
                ta_mutant mu = {0};
                mu.op = TA_MOP_TAD;
                mu.kind = TA_MK_EDGE_ADD;
                mu.tmpl = t;
                mu.item = tm->nedges;
                mu.new_edge = ne;
                mu.pos = ne->pos;
                if (ta_mut_emit(c, &mu, NULL))
                    return;
            }
}

static void op_smi(ta_mut_ctx *c, int t)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    for (int i = 0; i < tm->nlocs; i++) {
        if (i == tm->init)
            continue;
        int ne = 0;
        for (int k = 0; k < tm->nedges; k++)
            ne += tm->edges[k].src == i || tm->edges[k].dst == i;
        mf_buf_printf(ta_mut_site(c), "%s/loc %s", tm->name,
                      ta_loc_label(tm, i));
        mf_buf_printf(ta_mut_desc(c), "remove location %s and its %d edge%s",
                      ta_loc_label(tm, i), ne, ne == 1 ? "" : "s");
        emit(c, t, TA_MOP_SMI, -1, NULL, i, NULL, NULL);
    }
}

/* ---- clock constraints: CXL, CXS, CCN, invariant-constant ---------------- */

static int negate_op(int op)
{
    switch (op) {
    case TA_OP_LT: return TA_OP_GE;
    case TA_OP_LE: return TA_OP_GT;
    case TA_OP_GT: return TA_OP_LE;
    case TA_OP_GE: return TA_OP_LT;
    default: return -1;
    }
}

/* The bound changed by one of the ways below; NULL: no such change. */
enum { B_INC, B_DEC, B_DOUBLE, B_HALVE };

static ta_expr *new_bound(mf_arena *a, const ta_expr *b, int how)
{
    if (b->kind == TA_E_INT) {
        int64_t k = b->ival, v;
        switch (how) {
        case B_INC: v = k + 1; break;
        case B_DEC: v = k - 1; break;
        case B_DOUBLE: v = 2 * k; break;
        default: v = k / 2; break;
        }
        /* a clock is never negative: no constant below 0; the bigger
         * changes skip what CXL and CXS make */
        if (v < 0 || v == k || (how >= B_DOUBLE && (v == k + 1 || v == k - 1)))
            return NULL;
        return ta_expr_int(a, v, b->line, b->col);
    }
    static const int ops[4] = {TA_OP_ADD, TA_OP_SUB, TA_OP_MUL, TA_OP_DIV};
    ta_expr *k = ta_expr_int(a, how < B_DOUBLE ? 1 : 2, b->line, b->col);
    return ta_expr_bin(a, ops[how], (ta_expr *)b, k);
}

/* The mutants of one atom `cc` of an edge's guard (k >= 0) or a
 * location's invariant (i >= 0). */
static void atom_mutant(ta_mut_ctx *c, int t, int op, int k, int i, int j,
                        const ta_cc *cc, int how)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    mf_arena *a = ta_mut_arena(c);
    ta_expr *atom;
    if (op == TA_MOP_CCN) {
        int nop = negate_op(cc->e->op);
        if (nop < 0)
            return;
        atom = mf_arena_alloc(a, sizeof(*atom));
        *atom = *cc->e;
        atom->op = nop;
    } else {
        ta_expr *nb = new_bound(a, cc->bound, how);
        if (!nb)
            return;
        atom = replace(a, cc->e, cc->bound, nb);
    }
    const char *where = k >= 0 ? "guard" : "invariant";
    if (k >= 0)
        ta_edge_site(ta_mut_site(c), tm, k);
    else
        mf_buf_printf(ta_mut_site(c), "%s/loc %s", tm->name,
                      ta_loc_label(tm, i));
    mf_buf_printf(ta_mut_site(c), "/%s/cc%d", where, j);
    ta_print_expr(ta_mut_repl(c), atom);
    mf_buf *d = ta_mut_desc(c);
    if (k >= 0) {
        mf_buf_puts(d, "guard of ");
        edge_name(d, tm, &tm->edges[k]);
    } else {
        mf_buf_printf(d, "invariant of %s", ta_loc_label(tm, i));
    }
    mf_buf_puts(d, ": ");
    ta_print_expr(d, cc->e);
    mf_buf_puts(d, " becomes ");
    ta_print_expr(d, atom);
    if (k >= 0) {
        ta_edge *ne = edge_dup(a, &tm->edges[k]);
        ne->guard = replace(a, ne->guard, cc->e, atom);
        emit_edge(c, t, op, k, ne, NULL);
    } else {
        ta_loc *nl = mf_arena_alloc(a, sizeof(*nl));
        *nl = tm->locs[i];
        nl->inv = replace(a, nl->inv, cc->e, atom);
        emit(c, t, op, -1, NULL, i, nl, NULL);
    }
}

static void op_atoms(ta_mut_ctx *c, int t, int op)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    int hows[2], nh = 1;
    hows[0] = op == TA_MOP_CXL ? B_INC : op == TA_MOP_CXS ? B_DEC : B_DOUBLE;
    if (op == TA_MOP_INV_CONST)
        hows[nh++] = B_HALVE;
    if (op != TA_MOP_INV_CONST)
        for (int k = 0; k < tm->nedges; k++)
            for (int j = 0; j < tm->edges[k].ncc; j++)
                atom_mutant(c, t, op, k, -1, j, &tm->edges[k].cc[j], hows[0]);
    if (op == TA_MOP_CCN)
        return; /* guards only: a negated upper bound is no invariant */
    for (int i = 0; i < tm->nlocs; i++)
        for (int j = 0; j < tm->locs[i].ncc; j++)
            for (int h = 0; h < nh; h++)
                atom_mutant(c, t, op, -1, i, j, &tm->locs[i].cc[j], hows[h]);
}

/* ---- edges: target, sync, resets, guard, updates ------------------------------ */

static void op_target(ta_mut_ctx *c, int t)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    for (int k = 0; k < tm->nedges; k++)
        for (int d = 0; d < tm->nlocs; d++) {
            if (d == tm->edges[k].dst)
                continue;
            ta_edge *ne = edge_dup(ta_mut_arena(c), &tm->edges[k]);
            ne->dst = d;
            ta_edge_site(ta_mut_site(c), tm, k);
            mf_buf_puts(ta_mut_site(c), "/target");
            mf_buf_puts(ta_mut_repl(c), ta_loc_label(tm, d));
            edge_name(ta_mut_desc(c), tm, &tm->edges[k]);
            mf_buf_printf(ta_mut_desc(c), " goes to %s instead",
                          ta_loc_label(tm, d));
            emit_edge(c, t, TA_MOP_TARGET, k, ne, NULL);
        }
}

static void op_sync(ta_mut_ctx *c, int t)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    alphabet al;
    alphabet_of(tm, &al);
    for (int k = 0; k < tm->nedges; k++) {
        const ta_sync *s = &tm->edges[k].sync;
        if (s->dir == TA_SYNC_NONE)
            continue;
        for (int i = 0; i < al.n; i++) {
            if (al.v[i]->dir != s->dir || same_sync(al.v[i], s))
                continue;
            /* a channel indexed by another edge's select variable */
            if (uses_select(al.v[i]->e) && al.from[i] != &tm->edges[k])
                continue;
            ta_edge *ne = edge_dup(ta_mut_arena(c), &tm->edges[k]);
            ne->sync.e = al.v[i]->e;
            ta_edge_site(ta_mut_site(c), tm, k);
            mf_buf_puts(ta_mut_site(c), "/sync");
            ta_print_sync(ta_mut_repl(c), &ne->sync);
            edge_name(ta_mut_desc(c), tm, &tm->edges[k]);
            mf_buf_puts(ta_mut_desc(c), " synchronises on ");
            ta_print_sync(ta_mut_desc(c), &ne->sync);
            mf_buf_puts(ta_mut_desc(c), " instead");
            emit_edge(c, t, TA_MOP_SYNC, k, ne, NULL);
        }
    }
}

/* Is e a reference to a scalar clock of template t's scope? */
static int clock_ref(const ta_net *n, const ta_tmpl *t, const ta_expr *e)
{
    if (e->kind != TA_E_REF)
        return 0;
    switch (e->ref_kind) {
    case TA_R_VAR:
        return n->vars[e->ref].kind == TA_V_CLOCK && !n->vars[e->ref].ndims;
    case TA_R_TVAR:
        return t->vars[e->ref].kind == TA_V_CLOCK && !t->vars[e->ref].ndims;
    case TA_R_PARAM:
        return t->params[e->ref].kind == TA_V_CLOCK &&
               !t->params[e->ref].is_chan && !t->params[e->ref].ndims;
    default:
        return 0;
    }
}

typedef struct {
    int n;
    const ta_expr *v[64];
} clocks;

static void find_clocks(const ta_net *n, const ta_tmpl *t, const ta_expr *e,
                        clocks *cl)
{
    if (!e)
        return;
    if (clock_ref(n, t, e)) {
        for (int i = 0; i < cl->n; i++)
            if (cl->v[i]->ref_kind == e->ref_kind && cl->v[i]->ref == e->ref)
                return;
        if (cl->n < 64)
            cl->v[cl->n++] = e;
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        find_clocks(n, t, e->kids[i], cl);
}

static void op_reset(ta_mut_ctx *c, int t)
{
    const ta_net *n = ta_mut_net(c);
    const ta_tmpl *tm = &n->tmpls[t];
    clocks cl = {0};
    for (int i = 0; i < tm->nlocs; i++)
        find_clocks(n, tm, tm->locs[i].inv, &cl);
    for (int k = 0; k < tm->nedges; k++) {
        find_clocks(n, tm, tm->edges[k].guard, &cl);
        for (int u = 0; u < tm->edges[k].nupd; u++)
            find_clocks(n, tm, tm->edges[k].upd[u], &cl);
    }
    for (int k = 0; k < tm->nedges; k++)
        for (int i = 0; i < cl.n; i++) {
            const ta_edge *e = &tm->edges[k];
            mf_arena *a = ta_mut_arena(c);
            ta_edge *ne = edge_dup(a, e);
            int at = -1;
            for (int u = 0; u < e->nupd && at < 0; u++)
                if (e->upd[u]->kind == TA_E_ASSIGN &&
                    ta_expr_equal(e->upd[u]->kids[0], cl.v[i]))
                    at = u;
            if (at >= 0) {
                memmove(&ne->upd[at], &ne->upd[at + 1],
                        (size_t)(e->nupd - at - 1) * sizeof(ta_expr *));
                ne->nupd--;
            } else {
                ta_expr *r = ta_expr_new(a, TA_E_ASSIGN, 0, 0);
                r->op = TA_OP_ASSIGN;
                ta_expr_add(a, r, (ta_expr *)cl.v[i]);
                ta_expr_add(a, r, ta_expr_int(a, 0, 0, 0));
                ne->upd[ne->nupd++] = r;
            }
            ta_edge_site(ta_mut_site(c), tm, k);
            mf_buf_printf(ta_mut_site(c), "/reset %s", cl.v[i]->name);
            mf_buf_printf(ta_mut_repl(c), "%s%s", at >= 0 ? "-" : "+",
                          cl.v[i]->name);
            edge_name(ta_mut_desc(c), tm, e);
            mf_buf_printf(ta_mut_desc(c), " %s %s", at >= 0 ? "no longer resets"
                                                          : "resets",
                          cl.v[i]->name);
            emit_edge(c, t, TA_MOP_RESET, k, ne, NULL);
        }
}

static void op_guard_neg(ta_mut_ctx *c, int t)
{
    const ta_tmpl *tm = &ta_mut_net(c)->tmpls[t];
    for (int k = 0; k < tm->nedges; k++) {
        const ta_edge *e = &tm->edges[k];
        if (!e->guard)
            continue;
        mf_arena *a = ta_mut_arena(c);
        ta_edge *ne = edge_dup(a, e);
        const char *why = NULL;
        if (e->ncc == 0) {
            ne->guard = ta_expr_un(a, TA_OP_NOT, e->guard);
        } else if (e->ncc == 1 && !e->guard_data &&
                   negate_op(e->cc[0].e->op) >= 0) {
            ta_expr *atom = mf_arena_alloc(a, sizeof(*atom));
            *atom = *e->cc[0].e;
            atom->op = negate_op(atom->op);
            ne->guard = replace(a, e->guard, e->cc[0].e, atom);
        } else {
            ne->guard = ta_expr_un(a, TA_OP_NOT, e->guard);
            why = "the negation of this guard is a disjunction over clocks, "
                  "which a guard cannot be";
        }
        ta_edge_site(ta_mut_site(c), tm, k);
        mf_buf_puts(ta_mut_site(c), "/guard");
        ta_print_expr(ta_mut_repl(c), ne->guard);
        mf_buf_puts(ta_mut_desc(c), "guard of ");
        edge_name(ta_mut_desc(c), tm, e);
        mf_buf_puts(ta_mut_desc(c), " negated: ");
        ta_print_expr(ta_mut_desc(c), ne->guard);
        emit_edge(c, t, TA_MOP_GUARD_NEG, k, ne, why);
    }
}

/* The value range of an assigned scalar, when known; 0 when not. */
static int lhs_range(const ta_net *n, const ta_tmpl *t, const ta_expr *l,
                     int64_t *lo, int64_t *hi, int *is_clock)
{
    const ta_var *v = NULL;
    *is_clock = 0;
    if (l->kind != TA_E_REF)
        return 0;
    if (l->ref_kind == TA_R_VAR)
        v = &n->vars[l->ref];
    else if (l->ref_kind == TA_R_TVAR)
        v = &t->vars[l->ref];
    else if (l->ref_kind == TA_R_PARAM) {
        *is_clock = t->params[l->ref].kind == TA_V_CLOCK;
        return 0;
    }
    if (!v)
        return 0;
    *is_clock = v->kind == TA_V_CLOCK;
    *lo = v->lo;
    *hi = v->hi;
    return v->kind == TA_V_INT || v->kind == TA_V_BOOL;
}

static void op_int_update(ta_mut_ctx *c, int t)
{
    const ta_net *n = ta_mut_net(c);
    const ta_tmpl *tm = &n->tmpls[t];
    for (int k = 0; k < tm->nedges; k++) {
        const ta_edge *e = &tm->edges[k];
        for (int u = 0; u < e->nupd; u++) {
            const ta_expr *x = e->upd[u];
            int64_t lo = 0, hi = 0;
            int is_clock = 0;
            if ((x->kind != TA_E_ASSIGN && x->kind != TA_E_INCDEC))
                continue;
            int known = lhs_range(n, tm, x->kids[0], &lo, &hi, &is_clock);
            if (is_clock)
                continue;
            for (int w = 0; w < 2; w++) {
                mf_arena *a = ta_mut_arena(c);
                ta_expr *nx = mf_arena_alloc(a, sizeof(*nx));
                *nx = *x;
                const char *why = NULL;
                if (x->kind == TA_E_INCDEC) {
                    if (w)
                        break;
                    static const int flip[4] = {TA_OP_PREDEC, TA_OP_PREINC,
                                                TA_OP_POSTDEC, TA_OP_POSTINC};
                    nx->op = flip[x->op - TA_OP_PREINC];
                } else if (x->op == TA_OP_ADD || x->op == TA_OP_SUB) {
                    if (w)
                        break;
                    nx->op = x->op == TA_OP_ADD ? TA_OP_SUB : TA_OP_ADD;
                } else if (x->op != TA_OP_ASSIGN) {
                    break;
                } else if (x->kids[1]->kind == TA_E_INT ||
                           x->kids[1]->kind == TA_E_BOOL) {
                    int64_t v = x->kids[1]->ival + (w ? -1 : 1);
                    if (known && lo == 0 && hi == 1) {
                        if (w)
                            break;
                        v = !x->kids[1]->ival;
                    }
                    nx->kids = mf_arena_alloc(a, 2 * sizeof(ta_expr *));
                    nx->kids[0] = x->kids[0];
                    nx->kids[1] = x->kids[1]->kind == TA_E_BOOL
                                      ? ta_expr_new(a, TA_E_BOOL, 0, 0)
                                      : ta_expr_int(a, v, 0, 0);
                    nx->kids[1]->ival = v;
                    if (known && (v < lo || v > hi))
                        why = "the new value is out of the variable's range";
                } else {
                    nx->kids = mf_arena_alloc(a, 2 * sizeof(ta_expr *));
                    nx->kids[0] = x->kids[0];
                    nx->kids[1] = ta_expr_bin(a, w ? TA_OP_SUB : TA_OP_ADD,
                                              x->kids[1],
                                              ta_expr_int(a, 1, 0, 0));
                }
                ta_edge *ne = edge_dup(a, e);
                ne->upd[u] = nx;
                ta_edge_site(ta_mut_site(c), tm, k);
                mf_buf_printf(ta_mut_site(c), "/update%d", u);
                ta_print_expr(ta_mut_repl(c), nx);
                edge_name(ta_mut_desc(c), tm, e);
                mf_buf_puts(ta_mut_desc(c), ": ");
                ta_print_expr(ta_mut_desc(c), x);
                mf_buf_puts(ta_mut_desc(c), " becomes ");
                ta_print_expr(ta_mut_desc(c), nx);
                emit_edge(c, t, TA_MOP_INT_UPDATE, k, ne, why);
            }
        }
    }
}

void ta_mut_op(ta_mut_ctx *c, int t, int op)
{
    switch (op) {
    case TA_MOP_TMI: op_tmi(c, t); break;
    case TA_MOP_TAD: op_tad(c, t); break;
    case TA_MOP_SMI: op_smi(c, t); break;
    case TA_MOP_CXL:
    case TA_MOP_CXS:
    case TA_MOP_CCN:
    case TA_MOP_INV_CONST: op_atoms(c, t, op); break;
    case TA_MOP_TARGET: op_target(c, t); break;
    case TA_MOP_SYNC: op_sync(c, t); break;
    case TA_MOP_RESET: op_reset(c, t); break;
    case TA_MOP_GUARD_NEG: op_guard_neg(c, t); break;
    case TA_MOP_INT_UPDATE: op_int_update(c, t); break;
    default: break;
    }
}
