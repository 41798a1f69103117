/* flatten_items.c - from an SMV parse tree to the flat model (model.h),
 * second half: constant expressions and types evaluated, the assignments,
 * constraints and specifications of every instance made into items
 * (processes guarded, process.c), and the model laid out and handed to
 * mf_model_finish, which type checks it and settles its inputs and
 * observables. Names and resolution are flatten.c's. */
#include "flatten.h"
#include "lang.h"
#include "process.h"
#include "word.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- constants ------------------------------------------------------- */

static int const_eval(fctx *c, int64_t *out, const mf_expr *e, int depth)
{
    if (depth > 64)
        return mf_flat_err(c, MF_ETYPE, e->line, e->col,
                           "constant expression too deep (recursive DEFINE?)");
    int64_t a, b;
    int rc;
    switch (e->kind) {
    case MF_E_INT:
        *out = e->ival;
        return 0;
    case MF_E_NEG:
        if ((rc = const_eval(c, &a, e->kids[0], depth + 1)))
            return rc;
        *out = -a;
        return 0;
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE && c->defines.v[e->ref].e)
            return const_eval(c, out, c->defines.v[e->ref].e, depth + 1);
        break;
    case MF_E_BIN:
        if ((rc = const_eval(c, &a, e->kids[0], depth + 1)) ||
            (rc = const_eval(c, &b, e->kids[1], depth + 1)))
            return rc;
        if (a > MF_INT_LIMIT || a < -MF_INT_LIMIT || b > MF_INT_LIMIT ||
            b < -MF_INT_LIMIT)
            return mf_flat_err(c, MF_EUNSUPPORTED, e->line, e->col,
                               "integer constant beyond +-2^31");
        switch (e->op) {
        case MF_OP_ADD:
            *out = a + b;
            return 0;
        case MF_OP_SUB:
            *out = a - b;
            return 0;
        case MF_OP_MUL:
            *out = a * b;
            return 0;
        case MF_OP_DIV:
        case MF_OP_MOD:
            if (b == 0)
                return mf_flat_err(c, MF_ETYPE, e->line, e->col,
                                   "division by zero in a constant");
            *out = e->op == MF_OP_DIV ? a / b : a % b;
            return 0;
        default:
            break;
        }
        break;
    default:
        break;
    }
    return mf_flat_err(c, MF_ETYPE, e->line, e->col,
                       "expected a constant integer expression");
}

/* ---- types ----------------------------------------------------------- */

static int resolve_type(fctx *c, mf_type **out, const mf_ast_type *t, inst *in)
{
    mf_type *ty = mf_arena_alloc(c->m->arena, sizeof *ty);
    int rc;
    mf_expr *lo, *hi;
    switch (t->kind) {
    case MF_AT_BOOL:
        ty->kind = MF_TY_BOOL;
        break;
    case MF_AT_ENUM: {
        int nb = 0;
        for (int i = 0; i < t->nvals; i++)
            nb += t->vals[i]->kind == MF_E_BOOL;
        if (nb == t->nvals && nb == 2 && t->vals[0]->ival != t->vals[1]->ival) {
            ty->kind = MF_TY_BOOL;
            break;
        }
        ty->kind = MF_TY_ENUM;
        ty->vals = mf_arena_alloc(c->m->arena,
                                  sizeof(mf_val) * (size_t)(t->nvals + 1));
        for (int i = 0; i < t->nvals; i++) {
            const mf_expr *v = t->vals[i];
            mf_val x;
            if (v->kind == MF_E_SYM || v->kind == MF_E_ID) {
                if (strchr(v->name, '.'))
                    return mf_flat_err(
                        c, MF_ETYPE, v->line, v->col,
                        "'%s' is not a valid enumeration literal", v->name);
                x = MF_SYM(mf_flat_sym(c, v->name, 1));
            } else if (v->kind == MF_E_INT ||
                       (v->kind == MF_E_NEG && v->kids[0]->kind == MF_E_INT)) {
                x = v->kind == MF_E_INT ? v->ival : -v->kids[0]->ival;
                if (x > MF_INT_LIMIT || x < -MF_INT_LIMIT)
                    return mf_flat_err(c, MF_EUNSUPPORTED, v->line, v->col,
                                       "integer constant beyond +-2^31");
            } else {
                return mf_flat_err(c, MF_ETYPE, v->line, v->col,
                                   "enumeration values must be literals");
            }
            for (int j = 0; j < ty->nvals; j++)
                if (ty->vals[j] == x)
                    return mf_flat_err(c, MF_ETYPE, v->line, v->col,
                                       "value repeated in enumeration");
            ty->vals[ty->nvals++] = x;
        }
        if (ty->nvals == 0)
            return mf_flat_err(c, MF_ETYPE, t->line, t->col,
                               "empty enumeration");
        break;
    }
    case MF_AT_RANGE:
    case MF_AT_ARRAY:
        if ((rc = mf_flat_resolve(c, &lo, t->lo, in, 0)) ||
            (rc = mf_flat_resolve(c, &hi, t->hi, in, 0)) ||
            (rc = const_eval(c, &ty->lo, lo, 0)) ||
            (rc = const_eval(c, &ty->hi, hi, 0)))
            return rc;
        if (ty->lo > ty->hi)
            return mf_flat_err(c, MF_ETYPE, t->line, t->col,
                               "empty range %lld..%lld", (long long)ty->lo,
                               (long long)ty->hi);
        if (ty->lo < -MF_INT_LIMIT || ty->hi > MF_INT_LIMIT)
            return mf_flat_err(c, MF_EUNSUPPORTED, t->line, t->col,
                               "integer range beyond +-2^31");
        if (t->kind == MF_AT_RANGE) {
            ty->kind = MF_TY_RANGE;
            break;
        }
        ty->kind = MF_TY_ARRAY;
        if (ty->hi - ty->lo >= MF_MAX_SLOTS)
            return mf_flat_err(c, MF_ELIMIT, t->line, t->col,
                               "array too large");
        if (t->elem->kind == MF_AT_INST)
            return mf_flat_err(c, MF_EUNSUPPORTED, t->line, t->col,
                               "arrays of module instances");
        if ((rc = resolve_type(c, &ty->elem, t->elem, in)))
            return rc;
        break;
    case MF_AT_INTEGER:
        ty->kind = MF_TY_RANGE;
        ty->unbounded = 1;
        ty->lo = -MF_INT_UNBOUNDED;
        ty->hi = MF_INT_UNBOUNDED;
        break;
    case MF_AT_INST:
        return mf_flat_err(c, MF_ETYPE, t->line, t->col,
                           "module instance where a type is expected");
    case MF_AT_WORD: {
        int64_t w = 0;
        if ((rc = mf_flat_resolve(c, &lo, t->lo, in, 0)) ||
            (rc = const_eval(c, &w, lo, 0)))
            return rc;
        if (w < 1)
            return mf_flat_err(c, MF_ETYPE, t->line, t->col,
                               "a word's width must be greater than 0");
        if (w > MF_WORD_MAX_WIDTH)
            return mf_flat_err(c, MF_EUNSUPPORTED, t->line, t->col,
                               "words wider than %d bits", MF_WORD_MAX_WIDTH);
        ty->kind = MF_TY_RANGE;
        ty->wty = MF_WTY((int)w, t->is_signed);
        ty->lo = t->is_signed ? -((int64_t)1 << (w - 1)) : 0;
        ty->hi =
            t->is_signed ? ((int64_t)1 << (w - 1)) - 1 : ((int64_t)1 << w) - 1;
        break;
    }
    }
    *out = ty;
    return 0;
}

/* ---- assignments and constraints -------------------------------------- */

static int lhs_var(const mf_expr *lhs)
{
    while (lhs->kind == MF_E_INDEX)
        lhs = lhs->kids[0];
    if (lhs->kind == MF_E_ID && lhs->ref_kind == MF_REF_VAR)
        return lhs->ref;
    return -1;
}

/* The assignments and constraints of `body` (the instance's module, or one
 * it includes with ISA; collect_body already refused ISA cycles). */
static int add_body(fctx *c, inst *in, const mf_ast_module *body, int is_main)
{
    int rc;
    for (int i = 0; i < body->assigns.n; i++) {
        const mf_ast_assign *a = &body->assigns.v[i];
        mf_item it = {0};
        it.kind = a->kind == MF_ASG_INIT   ? MF_IT_INIT
                  : a->kind == MF_ASG_NEXT ? MF_IT_NEXT
                                           : MF_IT_ASSIGN;
        it.line = a->line;
        it.col = a->col;
        if ((rc = mf_flat_resolve(c, &it.lhs, a->lhs, in, 0)) ||
            (rc = mf_flat_resolve(c, &it.e, a->rhs, in, 0)))
            return rc;
        it.var = lhs_var(it.lhs);
        if (it.var < 0 ||
            (it.lhs->kind == MF_E_ID && it.lhs->ref_kind != MF_REF_VAR))
            return mf_flat_err(c, MF_ETYPE, a->lhs->line, a->lhs->col,
                               "the left side of an assignment must be a "
                               "variable");
        MF_VEC_PUSH(c->assigns, it);
        MF_VEC_PUSH(c->assign_proc, it.kind == MF_IT_NEXT ? in->proc : NULL);
    }
    for (int i = 0; i < body->constraints.n; i++) {
        const mf_ast_constraint *a = &body->constraints.v[i];
        mf_item it = {0};
        it.kind = a->kind == MF_CON_INIT    ? MF_IT_INIT_C
                  : a->kind == MF_CON_TRANS ? MF_IT_TRANS_C
                                            : MF_IT_INVAR_C;
        it.line = a->line;
        it.col = a->col;
        it.var = -1;
        if ((rc = mf_flat_resolve(c, &it.e, a->e, in, 0)))
            return rc;
        MF_VEC_PUSH(c->constraints, it);
    }
    /* specifications of submodules name things as the submodule sees
     * them; they have no role, so only main's are kept */
    if (is_main)
        for (int i = 0; i < body->specs.n; i++) {
            mf_spec s = {body->specs.v[i].keyword, body->specs.v[i].text};
            s.keyword = mf_arena_strdup(c->m->arena, s.keyword);
            s.text = mf_arena_strdup(c->m->arena, s.text);
            MF_VEC_PUSH(c->specs, s);
        }
    for (int i = 0; i < body->isa.n; i++)
        if ((rc = add_body(c, in, mf_flat_module(c->ast, body->isa.v[i].module),
                           is_main)))
            return rc;
    return 0;
}

static int add_items(fctx *c)
{
    int rc;
    /* DEFINE bodies first: constants in types may use them */
    for (int i = 0; i < c->defines.n; i++) {
        const mf_ast_define *d = c->define_ast.v[i];
        if ((rc = mf_flat_resolve(c, &c->defines.v[i].e, d->body,
                                  c->define_inst.v[i], 0)))
            return rc;
    }
    for (int i = 0; i < c->vars.n; i++) {
        const mf_ast_decl *d = c->var_decls.v[i];
        if ((rc = resolve_type(c, &c->vars.v[i].type, d->type,
                               c->var_inst.v[i])))
            return rc;
    }
    for (int k = 0; k < c->insts.n; k++)
        if ((rc = add_body(c, c->insts.v[k], c->insts.v[k]->mod, k == 0)))
            return rc;
    if (c->selvar >= 0)
        mf_proc_guard(c->m->arena, c->assigns.v, &c->assigns.n,
                      c->assign_proc.v, c->selvar, MF_PROC_SELECTOR);
    return 0;
}

/* The scheduler of a model with processes: an IVAR after the declared
 * variables (model/process.c). */
static int add_selector(fctx *c)
{
    c->selvar = -1;
    if (!c->procs.n)
        return 0;
    if (mf_flat_find(c, MF_PROC_SELECTOR))
        return mf_flat_err(c, MF_EUNSUPPORTED, 1, 1,
                           "a model with processes declaring '%s'",
                           MF_PROC_SELECTOR);
    mf_var v = {0};
    v.name = MF_PROC_SELECTOR;
    v.decl = MF_DECL_IVAR;
    v.line = v.col = 1;
    c->selvar = c->vars.n;
    mf_flat_put(c, v.name, NM_VAR, c->vars.n);
    MF_VEC_PUSH(c->vars, v);
    MF_VEC_PUSH(c->var_decls,
                mf_proc_selector_decl(c->m->arena, c->procs.v, c->procs.n));
    MF_VEC_PUSH(c->var_inst, c->insts.v[0]);
    return 0;
}

static void fctx_free(fctx *c)
{
    MF_VEC_FREE(c->insts);
    MF_VEC_FREE(c->vars);
    MF_VEC_FREE(c->var_decls);
    MF_VEC_FREE(c->var_inst);
    MF_VEC_FREE(c->defines);
    MF_VEC_FREE(c->define_inst);
    MF_VEC_FREE(c->define_ast);
    MF_VEC_FREE(c->assigns);
    MF_VEC_FREE(c->assign_proc);
    MF_VEC_FREE(c->procs);
    MF_VEC_FREE(c->constraints);
    MF_VEC_FREE(c->specs);
    MF_VEC_FREE(c->syms);
    free(c->tab);
}

int mf_smv_flatten(mf_model **out, const mf_ast *ast, const mf_lang *lang,
                   const mf_model_opts *opts)
{
    fctx c = {0};
    int rc = 0;
    *out = NULL;
    mf_model *m = mf_model_new(lang, ast->file);
    c.m = m;
    c.ast = ast;
    c.file = m->file;

    const mf_ast_module *main_mod = mf_flat_module(ast, "main");
    if (!main_mod) {
        rc = mf_err_set(MF_ETYPE, "%s:1:1: error: no MODULE main", c.file);
        goto cleanup;
    }
    if (main_mod->nparams) {
        rc = mf_flat_err(&c, MF_ETYPE, main_mod->line, main_mod->col,
                         "MODULE main takes no parameters");
        goto cleanup;
    }
    for (int i = 0; i < ast->modules.n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(ast->modules.v[i]->name, ast->modules.v[j]->name)) {
                rc = mf_flat_err(&c, MF_ETYPE, ast->modules.v[i]->line,
                                 ast->modules.v[i]->col,
                                 "module '%s' is defined twice",
                                 ast->modules.v[i]->name);
                goto cleanup;
            }
    /* every enumeration literal anywhere is a symbolic constant */
    for (int i = 0; i < ast->modules.n; i++) {
        const mf_ast_module *mod = ast->modules.v[i];
        for (int j = 0; j < mod->decls.n; j++) {
            const mf_ast_type *t = mod->decls.v[j].type;
            while (t->kind == MF_AT_ARRAY)
                t = t->elem;
            if (t->kind != MF_AT_ENUM)
                continue;
            for (int k = 0; k < t->nvals; k++)
                if (t->vals[k]->kind == MF_E_SYM ||
                    (t->vals[k]->kind == MF_E_ID &&
                     !strchr(t->vals[k]->name, '.')))
                    mf_flat_sym(&c, t->vals[k]->name, 1);
        }
    }
    if ((rc = mf_flat_collect(&c, main_mod, "", NULL, NULL, 0)) ||
        (rc = add_selector(&c)))
        goto cleanup;
    if ((rc = add_items(&c)))
        goto cleanup;

    /* lay the model out: DEFINEs, assignments, constraints */
    m->nvars = c.vars.n;
    m->vars = mf_arena_alloc(m->arena, sizeof(mf_var) * (size_t)(m->nvars + 1));
    if (m->nvars)
        memcpy(m->vars, c.vars.v, sizeof(mf_var) * (size_t)m->nvars);
    m->nitems = c.defines.n + c.assigns.n + c.constraints.n;
    m->items =
        mf_arena_alloc(m->arena, sizeof(mf_item) * (size_t)(m->nitems + 1));
    int k = 0;
    for (int i = 0; i < c.defines.n; i++)
        m->items[k++] = c.defines.v[i];
    for (int i = 0; i < c.assigns.n; i++)
        m->items[k++] = c.assigns.v[i];
    for (int i = 0; i < c.constraints.n; i++)
        m->items[k++] = c.constraints.v[i];
    m->nspecs = c.specs.n;
    m->specs =
        mf_arena_alloc(m->arena, sizeof(mf_spec) * (size_t)(m->nspecs + 1));
    if (m->nspecs)
        memcpy(m->specs, c.specs.v, sizeof(mf_spec) * (size_t)m->nspecs);
    m->nsyms = c.syms.n;
    m->syms = mf_arena_alloc(m->arena, sizeof(char *) * (size_t)(m->nsyms + 1));
    if (m->nsyms)
        memcpy(m->syms, c.syms.v, sizeof(char *) * (size_t)m->nsyms);

    rc = mf_model_finish(m, opts);

cleanup:
    fctx_free(&c);
    if (rc) {
        mf_model_free(m);
        return rc;
    }
    *out = m;
    return 0;
}
