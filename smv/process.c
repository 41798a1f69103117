/* process.c - NuSMV's asynchronous processes (process.h) turned into an
 * ordinary model when flattening: a step moves one process, chosen by the
 * input `_process_selector_` (the tester's choice, so a test says which
 * process moved at each step; docs/semantics.md), whose next() assignments
 * apply while every other variable they assign keeps its value. INIT,
 * invariant assignments and INIT/TRANS/INVAR constraints are not guarded,
 * as in NuSMV. It does not parse (`process` is parser.c's) nor resolve
 * names (flatten.c asks for `running` here). */
#include "process.h"

#include <string.h>

/* A node made here, not written by the user: line 0 (mutate.c leaves such
 * nodes alone). */
static mf_expr *made(mf_arena *a, mf_ekind kind)
{
    return mf_expr_new(a, kind, 0, 0);
}

static mf_expr *sym_node(mf_arena *a, const char *name)
{
    mf_expr *s = made(a, MF_E_SYM);
    s->name = mf_arena_strdup(a, name);
    return s;
}

mf_ast_decl *mf_proc_selector_decl(mf_arena *a, const char *const *names,
                                   int n)
{
    mf_ast_type *t = mf_arena_alloc(a, sizeof *t);
    t->kind = MF_AT_ENUM;
    t->vals = mf_arena_alloc(a, sizeof(mf_expr *) * (size_t)(n + 1));
    t->vals[t->nvals++] = sym_node(a, MF_PROC_MAIN);
    for (int i = 0; i < n; i++)
        t->vals[t->nvals++] = sym_node(a, names[i]);
    mf_ast_decl *d = mf_arena_alloc(a, sizeof *d);
    d->kind = MF_DECL_IVAR;
    d->name = MF_PROC_SELECTOR;
    d->type = t;
    return d;
}

static mf_expr *selector_ref(mf_arena *a, int selvar, const char *selname)
{
    mf_expr *id = made(a, MF_E_ID);
    id->name = mf_arena_strdup(a, selname);
    id->ref_kind = MF_REF_VAR;
    id->ref = selvar;
    return id;
}

mf_expr *mf_proc_running(mf_arena *a, int selvar, const char *selname,
                         const char *sym, int line, int col)
{
    mf_expr *eq = mf_expr_bin(a, MF_OP_EQ, selector_ref(a, selvar, selname),
                              sym_node(a, sym));
    eq->line = line;
    eq->col = col;
    return eq;
}

/* A copy of e with every node at line 0 (the default branch's `x`). */
static mf_expr *made_copy(mf_arena *a, const mf_expr *e)
{
    mf_expr *r = mf_expr_copy(a, e);
    r->line = r->col = 0;
    for (int i = 0; i < r->nkids; i++)
        r->kids[i] = made_copy(a, e->kids[i]);
    return r;
}

void mf_proc_guard(mf_arena *a, mf_item *items, int *n,
                   const char *const *owner, int selvar, const char *selname)
{
    int out = 0;
    for (int i = 0; i < *n; i++) {
        mf_item *it = &items[i];
        if (it->kind != MF_IT_NEXT || !owner[i]) {
            items[out++] = *it;
            continue;
        }
        if (it->var < 0) /* merged into an earlier one */
            continue;
        /* this assignment and the later ones of the same cell, in order */
        mf_expr *c = made(a, MF_E_CASE);
        for (int j = i; j < *n; j++) {
            mf_item *o = &items[j];
            if (o->kind != MF_IT_NEXT || !owner[j] || o->var != it->var ||
                !mf_expr_equal(o->lhs, it->lhs))
                continue;
            mf_expr *g = mf_proc_running(a, selvar, selname, owner[j], 0, 0);
            mf_expr_add(a, c, g);
            mf_expr_add(a, c, o->e);
            if (j > i)
                o->var = -1;
        }
        mf_expr_add(a, c, mf_expr_bool(a, 1, 0, 0));
        mf_expr_add(a, c, made_copy(a, it->lhs));
        it->e = c;
        items[out++] = *it;
    }
    *n = out;
}
