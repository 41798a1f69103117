/* criteria.c - coverage requirements as traps (criteria.h).
 *
 * The conditions, over the original's variables and DEFINEs (indices
 * stay valid in the trap model: its new variables come after the
 * original's, its trap DEFINE after the original's DEFINEs):
 * - branch: branch i of a case is taken where the case is reached, its
 *   guards 0 .. i-1 are false and guard i is true; a case inside a
 *   branch's value is reached where that branch is taken (inside a
 *   guard, where the guard is evaluated; inside `c ? a : b`, where c or
 *   !c holds). The case of an init() assignment is taken in the
 *   initial state only.
 * - UFP: for every condition c of a guard P (a maximal operand of P's
 *   Boolean connectives that is not itself one; equal occurrences are one
 *   condition), where P is evaluated and P's value depends on c (the
 *   Boolean derivative: P[c := TRUE] differs from P[c := FALSE]), c true;
 *   and the same with c false. Guards that are constants have none.
 * - state: `x = v` for every value v of every enumerated (not Boolean,
 *   not integer range) variable x that is not an input.
 * - transition pair: for such an x and values a != b, b != c, x = a,
 *   then x = b in the next state, then x = c in the one after.
 * A condition that reads an IVAR or next() is over a step: mf_hit's
 * next() carries it (criteria.h); the others are over a state. */
#include "criteria.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const crit_names[MF_CRIT__COUNT] = {
    "branch", "ufp", "transition-pair", "state"};

const char *mf_criterion_name(mf_criterion c)
{
    return (unsigned)c < MF_CRIT__COUNT ? crit_names[c] : "?";
}

int mf_criteria_parse(unsigned *mask, int *mutation, const char *list)
{
    *mask = 0;
    if (mutation)
        *mutation = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        int found = 0;
        if (n == 3 && !strncmp(p, "all", 3)) {
            *mask = (1u << MF_CRIT__COUNT) - 1;
            if (mutation)
                *mutation = 1;
            found = 1;
        } else if (mutation && n == 8 && !strncmp(p, "mutation", 8)) {
            *mutation = 1;
            found = 1;
        }
        for (int c = 0; c < MF_CRIT__COUNT && !found; c++)
            if (strlen(crit_names[c]) == n && !strncmp(p, crit_names[c], n)) {
                *mask |= 1u << c;
                found = 1;
            }
        if (!found)
            return mf_err_set(MF_ENOTFOUND,
                              "unknown criterion '%.*s' (%sbranch, ufp, "
                              "transition-pair, state or all)",
                              (int)n, p, mutation ? "mutation, " : "");
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* ---- conditions ---------------------------------------------------------- */

/* A requirement before the trap model exists: its condition over the
 * original (NULL: TRUE), and what it needs of the trap model. */
typedef struct {
    mf_criterion crit;
    char *site, *text;
    int line, col;
    mf_expr *cond;   /* in the scratch arena */
    int initial;     /* holds in the initial state only */
    int step;        /* reads an IVAR or next(): over a step */
    int tvar;        /* transition pair: the variable, else -1 */
    mf_val tv[3];    /* its three values */
} raw_req;

typedef struct {
    const mf_model *m;
    mf_arena *a; /* scratch: conditions */
    unsigned mask;
    MF_VEC(raw_req) v;
} gen;

static mf_expr *e_and(mf_arena *a, mf_expr *x, mf_expr *y)
{
    if (!x)
        return y;
    if (!y)
        return x;
    return mf_expr_bin(a, MF_OP_AND, x, y);
}

static mf_expr *e_not(mf_arena *a, const mf_expr *x)
{
    return mf_expr_un(a, MF_E_NOT, mf_expr_copy(a, x));
}

static int is_const_bool(const mf_expr *e)
{
    return e->kind == MF_E_BOOL;
}

/* Does e read an IVAR or next(), itself or through a DEFINE? */
static int reads_step(const mf_model *m, const mf_expr *e, int depth)
{
    if (e->kind == MF_E_NEXT)
        return 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR)
        return m->vars[e->ref].decl == MF_DECL_IVAR;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return depth < 64 && reads_step(m, m->items[e->ref].e, depth + 1);
    for (int i = 0; i < e->nkids; i++)
        if (reads_step(m, e->kids[i], depth))
            return 1;
    return 0;
}

static void add_raw(gen *g, mf_criterion crit, const char *site,
                    const char *text, int line, int col, mf_expr *cond,
                    int initial)
{
    raw_req r;
    memset(&r, 0, sizeof r);
    r.crit = crit;
    r.site = mf_xstrdup(site);
    r.text = mf_xstrdup(text);
    r.line = line;
    r.col = col;
    r.cond = cond;
    r.initial = initial;
    r.step = cond && reads_step(g->m, cond, 0);
    r.tvar = -1;
    MF_VEC_PUSH(g->v, r);
}

static char *print_cond(const mf_model *m, const mf_expr *e)
{
    mf_buf b = {0};
    if (e)
        mf_print_expr(&b, m, e);
    else
        mf_buf_puts(&b, "TRUE");
    char *s = mf_xstrdup(b.data ? b.data : "");
    mf_buf_free(&b);
    return s;
}

/* ---- UFP ----------------------------------------------------------------- */

static int is_connective(const mf_expr *e)
{
    if (e->kind == MF_E_NOT)
        return e->wty == 0;
    if (e->kind != MF_E_BIN || e->wty != 0)
        return 0;
    switch (e->op) {
    case MF_OP_AND:
    case MF_OP_OR:
    case MF_OP_XOR:
    case MF_OP_XNOR:
    case MF_OP_IMPLIES:
    case MF_OP_IFF: return 1;
    default: return 0;
    }
}

typedef MF_VEC(const mf_expr *) expr_list;

static void conditions(const mf_expr *e, expr_list *out)
{
    if (is_connective(e)) {
        for (int i = 0; i < e->nkids; i++)
            conditions(e->kids[i], out);
        return;
    }
    if (is_const_bool(e))
        return;
    for (int i = 0; i < out->n; i++)
        if (mf_expr_equal(out->v[i], e))
            return;
    MF_VEC_PUSH(*out, e);
}

/* A copy of p with every occurrence of c (at a connective's operand)
 * replaced by the constant v. */
static mf_expr *subst(mf_arena *a, const mf_expr *p, const mf_expr *c, int v)
{
    if (mf_expr_equal(p, c))
        return mf_expr_bool(a, v, p->line, p->col);
    if (!is_connective(p))
        return mf_expr_copy(a, p);
    mf_expr *r = mf_expr_new(a, p->kind, p->line, p->col);
    r->op = p->op;
    for (int i = 0; i < p->nkids; i++)
        mf_expr_add(a, r, subst(a, p->kids[i], c, v));
    return r;
}

static void gen_ufp(gen *g, const char *site, const mf_expr *guard,
                    mf_expr *reach, int initial)
{
    expr_list cs = {0};
    conditions(guard, &cs);
    for (int k = 0; k < cs.n; k++) {
        const mf_expr *c = cs.v[k];
        mf_expr *dep = mf_expr_un(
            g->a, MF_E_NOT,
            mf_expr_bin(g->a, MF_OP_IFF, subst(g->a, guard, c, 1),
                        subst(g->a, guard, c, 0)));
        char *ctext = print_cond(g->m, c);
        for (int pol = 1; pol >= 0; pol--) {
            mf_expr *lit = pol ? mf_expr_copy(g->a, c) : e_not(g->a, c);
            mf_expr *cond = e_and(g->a, e_and(g->a, reach, dep), lit);
            size_t n = strlen(ctext) + 64;
            char *text = mf_xmalloc(n);
            snprintf(text, n, "%s is %s and determines the guard", ctext,
                     pol ? "TRUE" : "FALSE");
            add_raw(g, MF_CRIT_UFP, site, text, c->line, c->col, cond,
                    initial);
            free(text);
        }
        free(ctext);
    }
    MF_VEC_FREE(cs);
}

/* ---- branches ------------------------------------------------------------ */

/* Every case below e, with `reach` (NULL: TRUE) where e is evaluated. */
static void walk(gen *g, const mf_expr *e, mf_expr *reach, const char *path,
                 int initial)
{
    char sub[1024];
    if (e->kind == MF_E_CASE) {
        mf_expr *before = reach; /* reached, earlier guards false */
        for (int i = 0; i + 1 < e->nkids; i += 2) {
            const mf_expr *guard = e->kids[i];
            int b = i / 2 + 1;
            mf_expr *taken = e_and(g->a, before, mf_expr_copy(g->a, guard));
            if (is_const_bool(guard) && guard->ival)
                taken = before;
            if (is_const_bool(guard) && !guard->ival)
                taken = mf_expr_bool(g->a, 0, guard->line, guard->col);
            snprintf(sub, sizeof sub, "%s/b%d", path, b);
            if (g->mask & (1u << MF_CRIT_BRANCH)) {
                char *gt = print_cond(g->m, guard);
                size_t n = strlen(gt) + 64;
                char *text = mf_xmalloc(n);
                snprintf(text, n, "branch %d taken: %s", b, gt);
                add_raw(g, MF_CRIT_BRANCH, sub, text, guard->line,
                        guard->col, taken, initial);
                free(text);
                free(gt);
            }
            snprintf(sub, sizeof sub, "%s/b%d.g", path, b);
            if (g->mask & (1u << MF_CRIT_UFP))
                gen_ufp(g, sub, guard, before, initial);
            walk(g, guard, before, sub, initial);
            snprintf(sub, sizeof sub, "%s/b%d.v", path, b);
            walk(g, e->kids[i + 1], taken, sub, initial);
            if (is_const_bool(guard) && guard->ival)
                break; /* later branches are never reached */
            before = e_and(g->a, before, e_not(g->a, guard));
        }
        return;
    }
    if (e->kind == MF_E_ITE && e->nkids == 3) {
        snprintf(sub, sizeof sub, "%s/0", path);
        walk(g, e->kids[0], reach, sub, initial);
        snprintf(sub, sizeof sub, "%s/1", path);
        walk(g, e->kids[1], e_and(g->a, reach, mf_expr_copy(g->a, e->kids[0])),
             sub, initial);
        snprintf(sub, sizeof sub, "%s/2", path);
        walk(g, e->kids[2], e_and(g->a, reach, e_not(g->a, e->kids[0])), sub,
             initial);
        return;
    }
    for (int i = 0; i < e->nkids; i++) {
        snprintf(sub, sizeof sub, "%s/%d", path, i);
        walk(g, e->kids[i], reach, sub, initial);
    }
}

static void gen_items(gen *g)
{
    const mf_model *m = g->m;
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *it = &m->items[i];
        if (it->kind != MF_IT_DEFINE && it->kind != MF_IT_INIT &&
            it->kind != MF_IT_NEXT && it->kind != MF_IT_ASSIGN)
            continue;
        mf_buf b = {0};
        mf_print_item_target(&b, m, it);
        walk(g, it->e, NULL, b.data ? b.data : "?", it->kind == MF_IT_INIT);
        mf_buf_free(&b);
    }
}

/* ---- states and transition pairs ----------------------------------------- */

static mf_expr *val_expr(mf_arena *a, const mf_model *m, mf_val v)
{
    if (MF_IS_SYM(v)) {
        mf_expr *e = mf_expr_new(a, MF_E_SYM, 0, 0);
        e->name = mf_arena_strdup(a, m->syms[v - MF_SYM_BASE]);
        return e;
    }
    return mf_expr_int(a, v, 0, 0);
}

static mf_expr *var_expr(mf_arena *a, const mf_model *m, int var)
{
    mf_expr *e = mf_expr_new(a, MF_E_ID, m->vars[var].line,
                             m->vars[var].col);
    e->name = mf_arena_strdup(a, m->vars[var].name);
    e->ref_kind = MF_REF_VAR;
    e->ref = var;
    return e;
}

static mf_expr *eq_expr(mf_arena *a, const mf_model *m, int var, mf_val v)
{
    return mf_expr_bin(a, MF_OP_EQ, var_expr(a, m, var), val_expr(a, m, v));
}

static int enumerated(const mf_var *v)
{
    return !v->is_input && v->type->kind == MF_TY_ENUM && v->nslots == 1;
}

static void value_text(const mf_model *m, const mf_var *v, mf_val x,
                       mf_buf *b)
{
    mf_print_value(b, m, v->type, x);
}

static void gen_vars(gen *g)
{
    const mf_model *m = g->m;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!enumerated(v))
            continue;
        const mf_type *t = v->type;
        for (int k = 0; g->mask & (1u << MF_CRIT_STATE) && k < t->nvals;
             k++) {
            mf_buf b = {0};
            mf_buf_printf(&b, "%s = ", v->name);
            value_text(m, v, t->vals[k], &b);
            add_raw(g, MF_CRIT_STATE, v->name, b.data, v->line, v->col,
                    eq_expr(g->a, m, i, t->vals[k]), 0);
            mf_buf_free(&b);
        }
        if (!(g->mask & (1u << MF_CRIT_TPAIR)))
            continue;
        for (int x = 0; x < t->nvals; x++)
            for (int y = 0; y < t->nvals; y++)
                for (int z = 0; z < t->nvals && x != y; z++) {
                    if (z == y)
                        continue;
                    mf_buf b = {0};
                    mf_buf_printf(&b, "%s: ", v->name);
                    value_text(m, v, t->vals[x], &b);
                    mf_buf_puts(&b, " -> ");
                    value_text(m, v, t->vals[y], &b);
                    mf_buf_puts(&b, " -> ");
                    value_text(m, v, t->vals[z], &b);
                    add_raw(g, MF_CRIT_TPAIR, v->name, b.data, v->line,
                            v->col, eq_expr(g->a, m, i, t->vals[z]), 0);
                    raw_req *r = &g->v.v[g->v.n - 1];
                    r->tvar = i;
                    r->tv[0] = t->vals[x];
                    r->tv[1] = t->vals[y];
                    r->tv[2] = t->vals[z];
                    mf_buf_free(&b);
                }
    }
}

/* ---- the trap model ------------------------------------------------------ */

/* Names not taken in m: "mf_trap", "mf_step1", "mf_prev1_x", ... */
static char *fresh_name(const mf_model *m, const char *base)
{
    char *s = mf_xstrdup(base);
    for (char *p = s; *p; p++)
        if (*p == '.' || *p == '[' || *p == ']')
            *p = '_';
    while (mf_model_find_var(m, s) >= 0 || mf_model_find_define(m, s) >= 0) {
        size_t n = strlen(s) + 2;
        char *t = mf_xmalloc(n);
        snprintf(t, n, "%s_", s);
        free(s);
        s = t;
    }
    return s;
}

typedef struct {
    const mf_model *m;
    const char *trap;
    int step1, step2;    /* new variables, -1: none */
    int hit;             /* mf_hit, -1: none */
    int hit_item;        /* next(mf_hit)'s index */
    int *prev1, *prev2;  /* per original variable: its history, -1 */
    int trap_item;
} tm_ctx;

static mf_item assign(mf_arena *a, const mf_model *tm, mf_itkind kind,
                      int var, mf_expr *e)
{
    mf_item it;
    memset(&it, 0, sizeof it);
    it.kind = kind;
    it.var = var;
    it.lhs = var_expr(a, tm, var);
    it.e = e;
    return it;
}

static int edit_tm(mf_model *tm, void *vctx)
{
    tm_ctx *x = vctx;
    mf_arena *a = tm->arena;
    int nold = tm->nitems, ndef = 0;
    while (ndef < nold && tm->items[ndef].kind == MF_IT_DEFINE)
        ndef++;
    int nassign = ndef; /* the end of the assignments */
    while (nassign < nold && (tm->items[nassign].kind == MF_IT_INIT ||
                              tm->items[nassign].kind == MF_IT_NEXT ||
                              tm->items[nassign].kind == MF_IT_ASSIGN))
        nassign++;
    MF_VEC(mf_item) add = {0};
    mf_val f0 = 0;
    /* mf_hit first: its next() is at a known place (hit_item). */
    if (x->hit >= 0) {
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_INIT, x->hit,
                                mf_expr_bool(a, 0, 0, 0)));
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_NEXT, x->hit,
                                mf_expr_bool(a, 0, 0, 0)));
    }
    if (x->step1 >= 0) {
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_INIT, x->step1,
                                mf_expr_bool(a, 0, 0, 0)));
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_NEXT, x->step1,
                                mf_expr_bool(a, 1, 0, 0)));
    }
    if (x->step2 >= 0) {
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_INIT, x->step2,
                                mf_expr_bool(a, 0, 0, 0)));
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_NEXT, x->step2,
                                var_expr(a, tm, x->step1)));
    }
    for (int i = 0; i < x->m->nvars; i++) {
        if (x->prev1[i] < 0)
            continue;
        f0 = x->m->vars[i].type->vals[0];
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_INIT, x->prev1[i],
                                val_expr(a, tm, f0)));
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_NEXT, x->prev1[i],
                                var_expr(a, tm, i)));
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_INIT, x->prev2[i],
                                val_expr(a, tm, f0)));
        MF_VEC_PUSH(add, assign(a, tm, MF_IT_NEXT, x->prev2[i],
                                var_expr(a, tm, x->prev1[i])));
    }
    mf_item *items = mf_arena_alloc(
        a, sizeof(mf_item) * (size_t)(nold + add.n + 2));
    int n = 0;
    for (int i = 0; i < ndef; i++)
        items[n++] = tm->items[i];
    x->trap_item = n;
    mf_item *trap = &items[n++];
    memset(trap, 0, sizeof *trap);
    trap->kind = MF_IT_DEFINE;
    trap->name = mf_arena_strdup(a, x->trap);
    trap->e = mf_expr_bool(a, 0, 0, 0);
    for (int i = ndef; i < nassign; i++)
        items[n++] = tm->items[i];
    for (int i = 0; i < add.n; i++)
        items[n++] = add.v[i];
    for (int i = nassign; i < nold; i++)
        items[n++] = tm->items[i];
    int added = x->trap_item + 1 + (nassign - ndef);
    x->hit_item = x->hit >= 0 ? added + 1 : -1;
    MF_VEC_FREE(add);
    tm->items = items;
    tm->nitems = n;
    int *obs = mf_arena_alloc(a, sizeof(int) * (size_t)(tm->nobs_defines + 1));
    if (tm->nobs_defines)
        memcpy(obs, tm->obs_defines, sizeof(int) * (size_t)tm->nobs_defines);
    obs[tm->nobs_defines++] = x->trap_item;
    tm->obs_defines = obs;
    /* The new assignments are checked as a mutant's item is (word types
     * marked); they are the model's own, so a failure is a bug here. */
    for (int i = 0; i < n; i++)
        if (i == x->trap_item || (i >= added && i < added + (n - nold - 1)))
            if (mf_model_check_item(tm, &items[i]) < 0)
                return mf_err_set(MF_ERROR, "criteria: the trap model: %s",
                                  mf_err_msg());
    return 0;
}

static mf_var new_var(const char *name, const mf_type *t)
{
    mf_var v;
    memset(&v, 0, sizeof v);
    v.name = name;
    v.decl = MF_DECL_VAR;
    v.type = (mf_type *)t;
    return v;
}

static int build_tm(mf_reqs *r, const mf_model *m, const gen *g, tm_ctx *x)
{
    int need_step = 0;
    x->prev1 = mf_xcalloc((size_t)m->nvars + 1, sizeof *x->prev1);
    x->prev2 = mf_xcalloc((size_t)m->nvars + 1, sizeof *x->prev2);
    for (int i = 0; i < m->nvars; i++)
        x->prev1[i] = x->prev2[i] = -1;
    int need_hit = 0;
    for (int i = 0; i < g->v.n; i++) {
        need_hit |= g->v.v[i].step;
        need_step |= g->v.v[i].initial || g->v.v[i].tvar >= 0;
        if (g->v.v[i].tvar >= 0)
            x->prev1[g->v.v[i].tvar] = 0;
    }
    static mf_type boolean = {MF_TY_BOOL, 0, 1, 0, 0, 0, NULL, NULL};
    MF_VEC(mf_var) nv = {0};
    MF_VEC(char *) names = {0};
    x->step1 = x->step2 = x->hit = -1;
    if (need_hit) {
        char *h = fresh_name(m, "mf_hit");
        MF_VEC_PUSH(names, h);
        x->hit = m->nvars + nv.n;
        mf_var v = new_var(h, &boolean);
        v.is_observable = 1;
        MF_VEC_PUSH(nv, v);
    }
    if (need_step) {
        char *s1 = fresh_name(m, "mf_step1"), *s2 = fresh_name(m, "mf_step2");
        MF_VEC_PUSH(names, s1);
        MF_VEC_PUSH(names, s2);
        x->step1 = m->nvars + nv.n;
        MF_VEC_PUSH(nv, new_var(s1, &boolean));
        x->step2 = m->nvars + nv.n;
        MF_VEC_PUSH(nv, new_var(s2, &boolean));
    }
    for (int i = 0; i < m->nvars; i++) {
        if (x->prev1[i] < 0)
            continue;
        char buf[512];
        snprintf(buf, sizeof buf, "mf_prev1_%s", m->vars[i].name);
        char *p1 = fresh_name(m, buf);
        snprintf(buf, sizeof buf, "mf_prev2_%s", m->vars[i].name);
        char *p2 = fresh_name(m, buf);
        MF_VEC_PUSH(names, p1);
        MF_VEC_PUSH(names, p2);
        x->prev1[i] = m->nvars + nv.n;
        MF_VEC_PUSH(nv, new_var(p1, m->vars[i].type));
        x->prev2[i] = m->nvars + nv.n;
        MF_VEC_PUSH(nv, new_var(p2, m->vars[i].type));
    }
    char *trap = fresh_name(m, "mf_trap");
    x->trap = trap;
    x->m = m;
    int rc = mf_model_extend(&r->tm, m, nv.n, nv.v, edit_tm, x);
    r->trap_item = x->trap_item;
    r->hit_item = x->hit_item;
    for (int i = 0; i < names.n; i++)
        free(names.v[i]);
    MF_VEC_FREE(names);
    MF_VEC_FREE(nv);
    free(trap);
    x->trap = NULL;
    return rc;
}

/* ---- requirements -------------------------------------------------------- */

static int make_req(mf_reqs *r, const raw_req *w, const tm_ctx *x)
{
    mf_model *tm = r->tm;
    mf_arena *a = tm->arena;
    mf_expr *cond = w->cond ? mf_expr_copy(a, w->cond) : NULL;
    if (w->initial)
        cond = e_and(a, mf_expr_un(a, MF_E_NOT, var_expr(a, tm, x->step1)),
                     cond);
    if (w->tvar >= 0) {
        mf_expr *hist = e_and(
            a, var_expr(a, tm, x->step2),
            e_and(a, eq_expr(a, tm, x->prev2[w->tvar], w->tv[0]),
                  eq_expr(a, tm, x->prev1[w->tvar], w->tv[1])));
        cond = e_and(a, hist, cond);
    }
    if (!cond)
        cond = mf_expr_bool(a, 1, 0, 0);
    mf_req q;
    memset(&q, 0, sizeof q);
    q.crit = w->crit;
    q.site = mf_arena_strdup(a, w->site);
    q.text = mf_arena_strdup(a, w->text);
    q.line = w->line;
    q.col = w->col;
    q.step = w->step;
    q.at = w->step ? r->hit_item : r->trap_item;
    q.item = mf_arena_alloc(a, sizeof *q.item);
    *q.item = tm->items[q.at];
    q.item->e = cond;
    if (mf_model_check_item(tm, q.item) < 0)
        return mf_err_set(MF_ERROR, "criteria: %s %s (%s): %s",
                          mf_criterion_name(w->crit), w->site, w->text,
                          mf_err_msg());
    mf_buf key = {0};
    mf_buf_puts(&key, mf_criterion_name(w->crit));
    mf_buf_put(&key, "", 1);
    mf_buf_puts(&key, w->site);
    mf_buf_put(&key, "", 1);
    mf_buf_puts(&key, w->text);
    char hex[65];
    mf_sha256_hex(hex, key.data, key.len);
    mf_buf_free(&key);
    memcpy(q.id, hex, 16);
    q.id[16] = '\0';
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->v[i].id, q.id))
            return 0; /* the same requirement twice (equal sites) */
    r->v[r->n++] = q;
    r->per[w->crit]++;
    return 0;
}

int mf_reqs_build(mf_reqs **out, const mf_model *m, unsigned mask)
{
    *out = NULL;
    gen g;
    memset(&g, 0, sizeof g);
    g.m = m;
    g.a = mf_arena_new();
    g.mask = mask;
    for (int c = 0; c < MF_CRIT__COUNT; c++) {
        /* Criterion by criterion, so that the list reads in that order. */
        g.mask = mask & (1u << c);
        if (!g.mask)
            continue;
        if (c == MF_CRIT_BRANCH || c == MF_CRIT_UFP)
            gen_items(&g);
        else
            gen_vars(&g);
    }
    mf_reqs *r = mf_xcalloc(1, sizeof *r);
    tm_ctx x;
    memset(&x, 0, sizeof x);
    int rc = build_tm(r, m, &g, &x);
    r->v = mf_xcalloc((size_t)g.v.n + 1, sizeof *r->v);
    for (int i = 0; rc == 0 && i < g.v.n; i++)
        rc = make_req(r, &g.v.v[i], &x);
    for (int i = 0; i < g.v.n; i++) {
        free(g.v.v[i].site);
        free(g.v.v[i].text);
    }
    MF_VEC_FREE(g.v);
    mf_arena_free(g.a);
    free(x.prev1);
    free(x.prev2);
    if (rc < 0) {
        mf_reqs_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void mf_reqs_free(mf_reqs *r)
{
    if (!r)
        return;
    mf_model_free(r->tm);
    free(r->v);
    free(r);
}

int mf_req_apply(mf_model **out, const mf_reqs *r, int i)
{
    return mf_model_replace_item(out, r->tm, r->v[i].at, r->v[i].item);
}
