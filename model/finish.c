/* finish.c - the last steps of reading a model in any language (lang.h):
 * a fresh model, then, once the language has filled in its variables and
 * items, the state laid out in slots, the type rules checked
 * (typecheck.c), the inputs and observables settled (docs/semantics.md)
 * and the hash computed. Nothing here reads a language's text. */
#include "lang.h"

#include <stdlib.h>
#include <string.h>

#define MAX_EXPR_DEPTH 2000

mf_model *mf_model_new(const mf_lang *l, const char *file)
{
    mf_model *m = mf_xcalloc(1, sizeof *m);
    m->arena = mf_arena_new();
    m->file = mf_arena_strdup(m->arena, file ? file : "<model>");
    m->lang = l;
    return m;
}

static long type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    long n = type_cells(t->elem);
    long len = (long)(t->hi - t->lo + 1);
    if (n > MF_MAX_SLOTS || len > MF_MAX_SLOTS || n * len > MF_MAX_SLOTS)
        return MF_MAX_SLOTS + 1;
    return n * len;
}

/* ---- inputs and observables ------------------------------------------ */

static void mark_vars(const mf_model *m, const mf_expr *e, char *seen,
                      char *def_seen, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR)
        seen[e->ref] = 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE &&
        !def_seen[e->ref]) {
        def_seen[e->ref] = 1;
        mark_vars(m, m->items[e->ref].e, seen, def_seen, depth + 1);
    }
    for (int i = 0; i < e->nkids; i++)
        mark_vars(m, e->kids[i], seen, def_seen, depth + 1);
}

static int is_constant_choice(const mf_expr *e)
{
    if (e->kind == MF_E_RANGE)
        return e->kids[0]->kind == MF_E_INT && e->kids[1]->kind == MF_E_INT &&
               e->kids[0]->ival < e->kids[1]->ival;
    if (e->kind == MF_E_BIN && e->op == MF_OP_UNION)
        return 1 &&
               (e->kids[0]->kind == MF_E_SET ||
                e->kids[0]->kind == MF_E_RANGE ||
                e->kids[0]->kind <= MF_E_SYM) &&
               (e->kids[1]->kind == MF_E_SET ||
                e->kids[1]->kind == MF_E_RANGE || e->kids[1]->kind <= MF_E_SYM);
    if (e->kind != MF_E_SET || e->nkids < 2)
        return 0;
    for (int i = 0; i < e->nkids; i++) {
        const mf_expr *k = e->kids[i];
        if (k->kind == MF_E_NEG)
            k = k->kids[0];
        if (k->kind != MF_E_BOOL && k->kind != MF_E_INT && k->kind != MF_E_SYM)
            return 0;
    }
    return 1;
}

static int split_list(const mf_model *m, const char **names, int n,
                      const char *what, int *out_idx, int allow_define)
{
    for (int i = 0; i < n; i++) {
        int v = mf_model_find_var(m, names[i]);
        if (v >= 0) {
            out_idx[i] = v;
            continue;
        }
        if (allow_define) {
            int d = mf_model_find_define(m, names[i]);
            if (d >= 0) {
                out_idx[i] = -2 - d;
                continue;
            }
        }
        return mf_err_set(MF_ERROR, "%s: %s '%s' is not a %s of the model",
                          m->file, what, names[i],
                          allow_define ? "VAR or DEFINE" : "variable");
    }
    return 0;
}

static int settle_roles(mf_model *m, const mf_model_opts *opts)
{
    int nv = m->nvars, rc;
    if (opts && opts->ninputs) {
        int *idx = mf_xcalloc((size_t)opts->ninputs, sizeof(int));
        rc = split_list(m, opts->inputs, opts->ninputs, "--inputs", idx, 0);
        for (int i = 0; !rc && i < opts->ninputs; i++) {
            mf_var *v = &m->vars[idx[i]];
            if (v->decl == MF_DECL_FROZENVAR)
                rc = mf_err_set(MF_ERROR, "%s: --inputs '%s' is a FROZENVAR",
                                m->file, v->name);
            v->is_input = 1;
        }
        free(idx);
        if (rc)
            return rc;
        for (int i = 0; i < nv; i++)
            if (m->vars[i].decl == MF_DECL_IVAR)
                m->vars[i].is_input = 1;
    } else {
        char *assigned = mf_xcalloc((size_t)nv + 1, 1);
        char *constrained = mf_xcalloc((size_t)nv + 1, 1);
        char *choice = mf_xcalloc((size_t)nv + 1, 1);
        char *def_seen = mf_xcalloc((size_t)m->nitems + 1, 1);
        for (int i = 0; i < m->nitems; i++) {
            const mf_item *it = &m->items[i];
            if (it->kind == MF_IT_INIT || it->kind == MF_IT_NEXT ||
                it->kind == MF_IT_ASSIGN) {
                assigned[it->var] = 1;
                if (it->kind == MF_IT_NEXT && it->lhs->kind == MF_E_ID &&
                    is_constant_choice(it->e))
                    choice[it->var] = 1;
                if (it->kind == MF_IT_ASSIGN)
                    choice[it->var] = 2; /* never an input */
            } else if (it->kind != MF_IT_DEFINE) {
                memset(def_seen, 0, (size_t)m->nitems + 1);
                mark_vars(m, it->e, constrained, def_seen, 0);
            }
        }
        for (int i = 0; i < nv; i++) {
            mf_var *v = &m->vars[i];
            if (v->decl == MF_DECL_IVAR)
                v->is_input = 1;
            else if (v->decl == MF_DECL_FROZENVAR)
                /* its initial value, the tester's where there is no
                 * finite choice (docs/smv.md, Integers) */
                v->is_input =
                    !assigned[i] && mf_type_scalar(v->type)->unbounded;
            else if (v->decl == MF_DECL_VAR)
                v->is_input =
                    (!assigned[i] && !constrained[i]) || choice[i] == 1 ||
                    /* no finite choice to enumerate: the
                     * environment's (docs/semantics.md) */
                    (!assigned[i] && mf_type_scalar(v->type)->unbounded);
        }
        /* a VAR whose next is a free choice but that also has a next() of
         * some element elsewhere is not a plain choice: keep it simple */
        free(assigned);
        free(constrained);
        free(choice);
        free(def_seen);
    }
    if (opts && opts->nobserve) {
        int *idx = mf_xcalloc((size_t)opts->nobserve, sizeof(int));
        rc = split_list(m, opts->observe, opts->nobserve, "--observe", idx, 1);
        if (!rc) {
            m->obs_defines =
                mf_arena_alloc(m->arena, sizeof(int) * (size_t)opts->nobserve);
            for (int i = 0; i < opts->nobserve; i++) {
                if (idx[i] >= 0) {
                    if (m->vars[idx[i]].is_input) {
                        rc = mf_err_set(MF_ERROR,
                                        "%s: --observe '%s' is an input",
                                        m->file, m->vars[idx[i]].name);
                        break;
                    }
                    m->vars[idx[i]].is_observable = 1;
                } else {
                    int d = -2 - idx[i], dup = 0;
                    for (int j = 0; j < m->nobs_defines; j++)
                        dup |= m->obs_defines[j] == d;
                    if (!dup)
                        m->obs_defines[m->nobs_defines++] = d;
                }
            }
        }
        free(idx);
        if (rc)
            return rc;
    } else {
        for (int i = 0; i < nv; i++)
            m->vars[i].is_observable = !m->vars[i].is_input;
    }
    return 0;
}

int mf_model_finish(mf_model *m, const mf_model_opts *opts)
{
    int rc;
    long slot = 0;
    for (int i = 0; i < m->nvars; i++) {
        long n = type_cells(m->vars[i].type);
        if (n > MF_MAX_SLOTS || slot + n > MF_MAX_SLOTS)
            return mf_err_set(MF_ELIMIT,
                              "%s:%d:%d: error: the state has more than %d "
                              "cells",
                              m->file, m->vars[i].line, m->vars[i].col,
                              MF_MAX_SLOTS);
        m->vars[i].slot = (int)slot;
        m->vars[i].nslots = (int)n;
        slot += n;
    }
    m->nslots = (int)slot;
    if ((rc = mf_model_check_all(m)) || (rc = settle_roles(m, opts)))
        return rc;
    mf_model_rehash(m);
    return 0;
}
