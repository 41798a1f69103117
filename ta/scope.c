/* scope.c - the builder's names and messages: the symbol a name means in
 * the current scope (the template's, then the globals), declaring one,
 * the type a reference has, and the one-line message of an error at an
 * expression. It evaluates and resolves nothing (build.c). */
#include "ta_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ta_bld_err(ta_bld *b, int code, const ta_expr *e, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    const char *file = b->pos.file ? b->pos.file : b->file;
    int line = e && e->line ? e->line : b->pos.line;
    int col = e && e->line ? e->col : b->pos.col;
    return mf_err_set(code, "%s:%d:%d: %s: %s", file, line, col,
                      code == MF_EUNSUPPORTED ? "unsupported" : "error", msg);
}

/* ---- scopes ------------------------------------------------------------------- */

static const ta_sym *find_in(const ta_symvec *v, const char *name)
{
    for (int i = v->n - 1; i >= 0; i--)
        if (!strcmp(v->v[i].name, name))
            return &v->v[i];
    return NULL;
}

/* The symbol `name` means in the current scope; *local set when it is the
 * template's. */
const ta_sym *ta_bld_lookup(ta_bld *b, const char *name, int *local)
{
    const ta_sym *s = NULL;
    if (b->cur >= 0 && (s = find_in(&b->tb[b->cur].syms, name))) {
        if (local)
            *local = 1;
        return s;
    }
    if (local)
        *local = 0;
    return find_in(&b->gsyms, name);
}

int ta_bld_is_type(void *ctx, const char *name)
{
    const ta_sym *s = ta_bld_lookup(ctx, name, NULL);
    return s && s->kind == SYM_TYPE;
}

int ta_bld_declare_sym(ta_bld *b, ta_symkind k, const char *name, int idx,
                       const ta_pdecl *d)
{
    ta_symvec *v = b->cur >= 0 ? &b->tb[b->cur].syms : &b->gsyms;
    if (find_in(v, name)) {
        ta_expr at = {.line = d ? d->line : 0, .col = d ? d->col : 0};
        return ta_bld_err(b, MF_ETYPE, &at, "'%s' declared twice", name);
    }
    ta_sym s = {k, name, idx};
    MF_VEC_PUSH(*v, s);
    return 0;
}

const ta_type *ta_ref_type(ta_bld *b, const ta_expr *e, ta_type *tmp)
{
    while (e->kind == TA_E_INDEX)
        e = e->kids[0];
    if (e->kind != TA_E_REF)
        return NULL;
    const ta_var *v = NULL;
    if (e->ref_kind == TA_R_VAR)
        v = &b->vars.v[e->ref];
    else if (e->ref_kind == TA_R_TVAR && b->cur >= 0)
        v = &b->net->tmpls[b->cur].vars[e->ref];
    else if (e->ref_kind == TA_R_PARAM && b->cur >= 0)
        return &b->tb[b->cur].ptype[e->ref];
    if (!v)
        return NULL;
    memset(tmp, 0, sizeof(*tmp));
    tmp->kind = v->kind == TA_V_CONST ? (v->is_bool ? TA_V_BOOL : TA_V_INT)
                                      : v->kind;
    tmp->is_const = v->kind == TA_V_CONST;
    tmp->lo = v->lo;
    tmp->hi = v->hi;
    tmp->ndims = v->ndims;
    memcpy(tmp->dims, v->dims, sizeof(tmp->dims));
    return tmp;
}

