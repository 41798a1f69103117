/* copy.c - copies of a model (model.h): one item replaced or removed (a
 * mutant, mf_model_replace_item), variables added and the items edited
 * (the cone of influence, controllable choices: mf_model_extend), each in
 * an arena of its own with its hash recomputed from the canonical print.
 * A copy keeps the original's language but not the language's data
 * (lang.h). */
#include "lang.h"

#include <stdlib.h>
#include <string.h>

void mf_model_rehash(mf_model *m)
{
    mf_buf b = {0};
    mf_print_model(&b, m);
    mf_sha256_hex(m->hash, b.data, b.len);
    mf_buf_free(&b);
}

static mf_type *type_copy(mf_arena *a, const mf_type *t)
{
    mf_type *r = mf_arena_alloc(a, sizeof *r);
    *r = *t;
    if (t->nvals) {
        r->vals = mf_arena_alloc(a, sizeof(mf_val) * (size_t)t->nvals);
        memcpy(r->vals, t->vals, sizeof(mf_val) * (size_t)t->nvals);
    }
    if (t->elem)
        r->elem = type_copy(a, t->elem);
    return r;
}

void mf_item_copy(mf_arena *a, mf_item *dst, const mf_item *src)
{
    *dst = *src;
    if (src->name)
        dst->name = mf_arena_strdup(a, src->name);
    if (src->lhs)
        dst->lhs = mf_expr_copy(a, src->lhs);
    dst->e = mf_expr_copy(a, src->e);
}

/* A copy of m in an arena of its own, item `index` (-1: none) replaced by
 * it (NULL: removed); not rehashed. */
static mf_model *model_copy(const mf_model *m, int index, const mf_item *it)
{
    mf_model *r = mf_xcalloc(1, sizeof *r);
    mf_arena *a = r->arena = mf_arena_new();
    r->file = mf_arena_strdup(a, m->file);
    r->lang = m->lang; /* not lang_data: the loaded model owns it */
    r->nvars = m->nvars;
    r->vars = mf_arena_alloc(a, sizeof(mf_var) * (size_t)(m->nvars + 1));
    for (int i = 0; i < m->nvars; i++) {
        r->vars[i] = m->vars[i];
        r->vars[i].name = mf_arena_strdup(a, m->vars[i].name);
        r->vars[i].type = type_copy(a, m->vars[i].type);
    }
    r->items = mf_arena_alloc(a, sizeof(mf_item) * (size_t)(m->nitems + 1));
    for (int i = 0; i < m->nitems; i++) {
        if (i == index && !it)
            continue;
        mf_item_copy(a, &r->items[r->nitems++], i == index ? it : &m->items[i]);
    }
    r->nspecs = m->nspecs;
    r->specs = mf_arena_alloc(a, sizeof(mf_spec) * (size_t)(m->nspecs + 1));
    for (int i = 0; i < m->nspecs; i++) {
        r->specs[i].keyword = mf_arena_strdup(a, m->specs[i].keyword);
        r->specs[i].text = mf_arena_strdup(a, m->specs[i].text);
    }
    r->nsyms = m->nsyms;
    r->syms = mf_arena_alloc(a, sizeof(char *) * (size_t)(m->nsyms + 1));
    for (int i = 0; i < m->nsyms; i++)
        r->syms[i] = mf_arena_strdup(a, m->syms[i]);
    r->nslots = m->nslots;
    r->nobs_defines = m->nobs_defines;
    r->obs_defines =
        mf_arena_alloc(a, sizeof(int) * (size_t)(m->nobs_defines + 1));
    if (m->nobs_defines)
        memcpy(r->obs_defines, m->obs_defines,
               sizeof(int) * (size_t)m->nobs_defines);
    return r;
}

int mf_model_replace_item(mf_model **out, const mf_model *m, int index,
                          const mf_item *it)
{
    *out = NULL;
    if (index < 0 || index >= m->nitems)
        return mf_err_set(MF_ENOTFOUND, "no item %d in the model", index);
    if (!it && m->items[index].kind == MF_IT_DEFINE)
        return mf_err_set(MF_ERROR, "a DEFINE cannot be removed");
    mf_model *r = model_copy(m, index, it);
    if (it) {
        /* mark the new item's word nodes (expr.h wty) even when the caller
         * built it without mf_model_check_item */
        mf_model_mark_words(r, &r->items[index]);
    }
    mf_model_rehash(r);
    *out = r;
    return 0;
}

int mf_model_extend(mf_model **out, const mf_model *m, int nnew,
                    const mf_var *newv, mf_model_edit_fn *edit, void *ctx)
{
    *out = NULL;
    int rc;
    mf_model *r = model_copy(m, -1, NULL);
    mf_arena *a = r->arena;
    mf_var *vars =
        mf_arena_alloc(a, sizeof(mf_var) * (size_t)(r->nvars + nnew + 1));
    memcpy(vars, r->vars, sizeof(mf_var) * (size_t)r->nvars);
    for (int i = 0; i < nnew; i++) {
        mf_var *v = &vars[r->nvars + i];
        *v = newv[i];
        v->name = mf_arena_strdup(a, newv[i].name);
        v->type = type_copy(a, newv[i].type);
        v->slot = r->nslots;
        v->nslots = 1;
        r->nslots++;
    }
    r->vars = vars;
    r->nvars += nnew;
    if (edit && (rc = edit(r, ctx)) < 0) {
        mf_model_free(r);
        return rc;
    }
    mf_model_rehash(r);
    *out = r;
    return 0;
}
