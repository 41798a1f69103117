/* model.c - what every reader of a flattened model (model.h) asks of it:
 * variables, DEFINEs and symbolic constants by name, how many observables a
 * state has, the scalar type of a cell and the values of a type; and
 * freeing a model with the caches layers above keep in it. It does not build
 * a model (a language's loader and finish.c), copy one (copy.c), type check
 * one (typecheck.c) or print one (print.c), and calls nothing above model.h,
 * so that each of those may call it. */
#include "lang.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Largest domain mf_type_domain lists: 16 values per slot a model may have
 * (MF_MAX_SLOTS). */
#define DOMAIN_MAX (1 << 24)

void mf_model_free(mf_model *m)
{
    if (!m)
        return;
    for (int k = 0; k < MF_MODEL_NSIM_PLANS; k++) {
        mf_model_cache *c =
            atomic_load_explicit(&m->sim_plans[k], memory_order_acquire);
        if (c)
            c->free(c);
    }
    if (m->lang_data && m->lang && m->lang->free_data)
        m->lang->free_data(m->lang_data);
    mf_arena_free(m->arena);
    free(m);
}

int mf_model_find_var(const mf_model *m, const char *name)
{
    for (int i = 0; i < m->nvars; i++)
        if (!strcmp(m->vars[i].name, name))
            return i;
    return -1;
}

int mf_model_find_define(const mf_model *m, const char *name)
{
    for (int i = 0; i < m->nitems; i++)
        if (m->items[i].kind == MF_IT_DEFINE && !strcmp(m->items[i].name, name))
            return i;
    return -1;
}

int mf_model_nobs(const mf_model *m)
{
    int n = m->nobs_defines;
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].is_observable)
            n += m->vars[i].nslots;
    return n;
}

int mf_model_find_sym(const mf_model *m, const char *name)
{
    for (int i = 0; i < m->nsyms; i++)
        if (!strcmp(m->syms[i], name))
            return i;
    return -1;
}

const mf_type *mf_type_scalar(const mf_type *t)
{
    while (t->kind == MF_TY_ARRAY)
        t = t->elem;
    return t;
}

int mf_type_contains(const mf_type *t, mf_val v)
{
    switch (t->kind) {
    case MF_TY_BOOL:
        return v == 0 || v == 1;
    case MF_TY_RANGE:
        return v >= t->lo && v <= t->hi;
    case MF_TY_ENUM:
        for (int i = 0; i < t->nvals; i++)
            if (t->vals[i] == v)
                return 1;
        return 0;
    case MF_TY_ARRAY:
        return 0;
    }
    return 0;
}

int mf_type_equal(const mf_type *a, const mf_type *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case MF_TY_BOOL:
        return 1;
    case MF_TY_RANGE:
        return a->lo == b->lo && a->hi == b->hi && a->wty == b->wty &&
               a->unbounded == b->unbounded;
    case MF_TY_ENUM:
        if (a->nvals != b->nvals)
            return 0;
        for (int i = 0; i < a->nvals; i++)
            if (a->vals[i] != b->vals[i])
                return 0;
        return 1;
    case MF_TY_ARRAY:
        return a->lo == b->lo && a->hi == b->hi &&
               mf_type_equal(a->elem, b->elem);
    }
    return 0;
}

static int val_cmp(const void *a, const void *b)
{
    mf_val x = *(const mf_val *)a, y = *(const mf_val *)b;
    return x < y ? -1 : x > y;
}

int mf_type_domain(const mf_type *t, mf_val **vals, int *nvals)
{
    t = mf_type_scalar(t);
    mf_val *v;
    int n;
    switch (t->kind) {
    case MF_TY_BOOL:
        v = mf_xmalloc(2 * sizeof *v);
        v[0] = 0;
        v[1] = 1;
        n = 2;
        break;
    case MF_TY_RANGE:
        if (t->unbounded) /* the explicit-state methods bow out here */
            return mf_err_set(MF_ELIMIT, "unbounded integer: no finite "
                              "domain to enumerate");
        if (t->hi - t->lo >= DOMAIN_MAX)
            return mf_err_set(MF_ELIMIT, "domain %lld..%lld too large",
                              (long long)t->lo, (long long)t->hi);
        n = (int)(t->hi - t->lo + 1);
        v = mf_xmalloc((size_t)n * sizeof *v);
        for (int i = 0; i < n; i++)
            v[i] = t->lo + i;
        break;
    case MF_TY_ENUM:
        n = t->nvals;
        v = mf_xmalloc((size_t)n * sizeof *v);
        memcpy(v, t->vals, (size_t)n * sizeof *v);
        qsort(v, (size_t)n, sizeof *v, val_cmp);
        break;
    default:
        return mf_err_set(MF_ERROR, "no domain for an array");
    }
    *vals = v;
    *nvals = n;
    return 0;
}
