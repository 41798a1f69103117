/* mutate_emit.c - the steps of the SMV mutation enumerator (mutator.h)
 * that every operator takes: the kind of an expression, a mutant's new
 * item as a path copy (the ancestors of the mutated node copied shallowly
 * into a per-mutant arena, everything else shared with the original), its
 * site, description and id, and its report to the caller with its status.
 * Which mutants there are is mutate_ops.c's; the walk over items
 * mutate.c's. */
#include "mutator.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expression types (just enough to pick operators) */

tkind mf_smvmut_tkind(const mf_type *t)
{
    if (!t)
        return T_UNK;
    switch (t->kind) {
    case MF_TY_BOOL:
        return T_BOOL;
    case MF_TY_RANGE:
        return T_INT;
    case MF_TY_ARRAY:
        return T_ARR;
    case MF_TY_ENUM:
        for (int i = 0; i < t->nvals; i++)
            if (MF_IS_SYM(t->vals[i]))
                return T_SYM;
        return T_INT;
    }
    return T_UNK;
}

/* The declared type of a variable reference (x, next(x), a[i], or a DEFINE
 * that is one of those), or NULL. */
const mf_type *mf_smvmut_var_type(const mf_model *m, const mf_expr *e,
                                  int depth)
{
    if (!e || depth > 64)
        return NULL;
    switch (e->kind) {
    case MF_E_ID:
        if (e->ref_kind == MF_REF_VAR && e->ref >= 0 && e->ref < m->nvars)
            return m->vars[e->ref].type;
        if (e->ref_kind == MF_REF_DEFINE && e->ref >= 0 && e->ref < m->nitems)
            return mf_smvmut_var_type(m, m->items[e->ref].e, depth + 1);
        return NULL;
    case MF_E_NEXT:
        return e->nkids == 1 ? mf_smvmut_var_type(m, e->kids[0], depth + 1)
                             : NULL;
    case MF_E_INDEX: {
        if (e->nkids != 2)
            return NULL;
        const mf_type *t = mf_smvmut_var_type(m, e->kids[0], depth + 1);
        return t && t->kind == MF_TY_ARRAY ? t->elem : NULL;
    }
    default:
        return NULL;
    }
}

tkind mf_smvmut_infer(const mf_model *m, const mf_expr *e, int depth)
{
    if (!e || depth > 64)
        return T_UNK;
    const mf_type *vt = mf_smvmut_var_type(m, e, depth);
    if (vt)
        return mf_smvmut_tkind(vt);
    if (e->wty)
        return T_INT; /* a word: a number for the operators' choices */
    switch (e->kind) {
    case MF_E_BOOL:
        return T_BOOL;
    case MF_E_WORD:
        return T_INT;
    case MF_E_INT:
    case MF_E_NEG:
    case MF_E_RANGE:
        return T_INT;
    case MF_E_SYM:
        return T_SYM;
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE && e->ref >= 0 && e->ref < m->nitems)
            return mf_smvmut_infer(m, m->items[e->ref].e, depth + 1);
        return T_UNK;
    case MF_E_NEXT:
    case MF_E_SET:
        return e->nkids > 0 ? mf_smvmut_infer(m, e->kids[0], depth + 1) : T_UNK;
    case MF_E_NOT:
        return T_BOOL;
    case MF_E_BIN:
        switch ((mf_binop)e->op) {
        case MF_OP_ADD:
        case MF_OP_SUB:
        case MF_OP_MUL:
        case MF_OP_DIV:
        case MF_OP_MOD:
            return T_INT;
        case MF_OP_UNION: {
            tkind k = mf_smvmut_infer(m, e->kids[0], depth + 1);
            return k != T_UNK ? k : mf_smvmut_infer(m, e->kids[1], depth + 1);
        }
        default:
            return T_BOOL;
        }
    case MF_E_CASE:
        for (int i = 1; i < e->nkids; i += 2) {
            tkind k = mf_smvmut_infer(m, e->kids[i], depth + 1);
            if (k != T_UNK)
                return k;
        }
        return T_UNK;
    case MF_E_ITE: {
        if (e->nkids != 3)
            return T_UNK;
        tkind k = mf_smvmut_infer(m, e->kids[1], depth + 1);
        return k != T_UNK ? k : mf_smvmut_infer(m, e->kids[2], depth + 1);
    }
    case MF_E_CALL:
        return e->op == MF_FN_BOOL ? T_BOOL : T_INT;
    case MF_E_INDEX:
        return T_UNK;
    }
    return T_UNK;
}

/* ---- the enumerator */

/* One line of at most ~60 characters of an expression's print. */
void mf_smvmut_snip(mf_buf *out, const mf_model *m, const mf_expr *e)
{
    mf_buf t = {0};
    mf_print_expr(&t, m, e);
    size_t n = 0;
    int sp = 0;
    for (size_t i = 0; i < t.len; i++) {
        char c = t.data[i];
        if (isspace((unsigned char)c)) {
            sp = n > 0;
            continue;
        }
        if (n >= 60) {
            mf_buf_puts(out, " ...");
            break;
        }
        if (sp)
            mf_buf_put(out, " ", 1), n++;
        sp = 0;
        mf_buf_put(out, &c, 1);
        n++;
    }
    mf_buf_free(&t);
}

/* Report one mutant: st->site, st->repl and st->desc are filled in; new_e is
 * the new root expression of the item (from `a`), or NULL for a removal. */
void mf_smvmut_emit(enumst *st, mf_mop op, mf_arena *a, mf_expr *new_e,
                    int line, int col)
{
    const mf_model *m = st->m;
    mf_mutant mu;
    memset(&mu, 0, sizeof(mu));
    mu.lang = m->lang;
    mu.op = op;
    mu.item = st->index;
    mu.site = st->site.data ? st->site.data : "";
    mu.repl = st->repl.data ? st->repl.data : "";
    mu.desc = st->desc.data ? st->desc.data : "";
    mu.line = line;
    mu.col = col;

    mf_mutant_id(mu.id, mf_lang_op_name(m->lang, op), mu.site, mu.repl);

    if (st->ids_only) {
        if (st->pick(mu.id, st->cb))
            st->hit = 1;
        return;
    }

    /* A mutant the caller does not want still goes into the duplicate
     * set (a wanted one may be its twin), but skips the type check, which
     * is most of the enumeration's cost on a large model. */
    int picked = !st->pick || st->pick(mu.id, st->cb);

    mf_item *it = NULL;
    if (new_e) {
        it = mf_arena_alloc(a, sizeof(*it));
        *it = *st->item;
        it->e = new_e;
    }
    mu.new_item = it;

    mf_mutant_classify(st->dups, m, &mu, picked, st->dup_id, &st->why);
    if (picked)
        st->rc = st->fn(&mu, st->cb);
}

mf_expr *mf_smvmut_shallow(mf_arena *a, const mf_expr *e)
{
    mf_expr *c = mf_arena_alloc(a, sizeof(*c));
    *c = *e;
    if (e->nkids > 0) {
        c->kids = mf_arena_alloc(a, (size_t)e->nkids * sizeof(*c->kids));
        memcpy(c->kids, e->kids, (size_t)e->nkids * sizeof(*c->kids));
    }
    return c;
}

/* The item's new root when the node at frame depth `depth` (0 = root) of the
 * current path is replaced by r. */
mf_expr *mf_smvmut_path_copy(enumst *st, mf_arena *a, int depth, mf_expr *r)
{
    mf_expr *cur = r;
    for (int i = depth - 1; i >= 0; i--) {
        mf_expr *p = mf_smvmut_shallow(a, st->frames.v[i].node);
        p->kids[st->frames.v[i].kid] = cur;
        cur = p;
    }
    return cur;
}

void mf_smvmut_site(enumst *st, size_t pathlen, const char *extra)
{
    mf_buf_reset(&st->site);
    mf_buf_printf(&st->site, "%s/", st->itemname.data);
    mf_buf_put(&st->site, st->path.data ? st->path.data : "", pathlen);
    if (extra)
        mf_buf_printf(&st->site, "%s%s", pathlen ? "." : "", extra);
}

static void step_name(char *out, size_t n, const mf_expr *parent, int k)
{
    if (parent->kind == MF_E_CASE)
        snprintf(out, n, "b%d.%c", k / 2 + 1, k % 2 ? 'v' : 'g');
    else if (parent->kind == MF_E_BIN)
        snprintf(out, n, "%c", k ? 'r' : 'l');
    else
        snprintf(out, n, "%d", k);
}

void mf_smvmut_push(enumst *st, const mf_expr *node, int k)
{
    frame f = {node, k, st->path.len};
    MF_VEC_PUSH(st->frames, f);
    char step[32];
    step_name(step, sizeof(step), node, k);
    if (st->path.len)
        mf_buf_puts(&st->path, ".");
    mf_buf_puts(&st->path, step);
}

void mf_smvmut_pop(enumst *st)
{
    frame f = st->frames.v[--st->frames.n];
    st->path.len = f.pathlen;
    if (st->path.data)
        st->path.data[f.pathlen] = '\0';
}

/* A replacement of the visited node (at the top of the frame stack) by r:
 * site is the node's path, desc "replace `old` with `new` at site". */
void mf_smvmut_emit_replace(enumst *st, mf_mop op, mf_arena *a,
                            const mf_expr *e, mf_expr *r)
{
    mf_smvmut_site(st, st->path.len, NULL);
    mf_buf_reset(&st->desc);
    mf_buf_puts(&st->desc, "replace `");
    mf_smvmut_snip(&st->desc, st->m, e);
    mf_buf_puts(&st->desc, "` with `");
    mf_smvmut_snip(&st->desc, st->m, r);
    mf_buf_printf(&st->desc, "` at %s", st->site.data);
    mf_smvmut_emit(st, op, a, mf_smvmut_path_copy(st, a, st->frames.n, r),
                   e->line, e->col);
}
