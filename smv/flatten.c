/* flatten.c - from an SMV parse tree to the flat model (model.h), first
 * half: the flat namespace, the instance tree and resolution.
 *
 * Instantiates `main` and its module instances depth first, giving every
 * variable and DEFINE a dotted flat name, binds module parameters to the
 * caller's expressions and resolves identifiers (variable, DEFINE, symbolic
 * constant). flatten_items.c evaluates constant type bounds, makes the items
 * and hands the model to mf_model_finish (type checks, inputs and
 * observables). It does not interpret specifications (they are kept as
 * text) and does not evaluate anything but constants. */
#include "flatten.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------ */

static unsigned long name_hash(const char *s)
{
    unsigned long h = 1469598103934665603UL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

nment *mf_flat_find(fctx *c, const char *name)
{
    if (!c->tabcap)
        return NULL;
    unsigned long i = name_hash(name) & (unsigned long)(c->tabcap - 1);
    while (c->tab[i].name) {
        if (!strcmp(c->tab[i].name, name))
            return &c->tab[i];
        i = (i + 1) & (unsigned long)(c->tabcap - 1);
    }
    return NULL;
}

void mf_flat_put(fctx *c, const char *name, nmkind kind, int index)
{
    if (2 * (c->tabn + 1) > c->tabcap) {
        int ncap = c->tabcap ? 2 * c->tabcap : 64;
        nment *old = c->tab;
        int oldcap = c->tabcap;
        c->tab = mf_xcalloc((size_t)ncap, sizeof(nment));
        c->tabcap = ncap;
        c->tabn = 0;
        for (int j = 0; j < oldcap; j++)
            if (old[j].name)
                mf_flat_put(c, old[j].name, old[j].kind, old[j].index);
        free(old);
    }
    unsigned long i = name_hash(name) & (unsigned long)(c->tabcap - 1);
    while (c->tab[i].name)
        i = (i + 1) & (unsigned long)(c->tabcap - 1);
    c->tab[i].name = name;
    c->tab[i].kind = kind;
    c->tab[i].index = index;
    c->tabn++;
}

static const char *join(fctx *c, const char *prefix, const char *name)
{
    if (!*prefix)
        return mf_arena_strdup(c->m->arena, name);
    size_t n = strlen(prefix) + strlen(name) + 2;
    char *s = mf_arena_alloc(c->m->arena, n);
    snprintf(s, n, "%s.%s", prefix, name);
    return s;
}

int mf_flat_sym(fctx *c, const char *name, int add)
{
    for (int i = 0; i < c->syms.n; i++)
        if (!strcmp(c->syms.v[i], name))
            return i;
    if (!add)
        return -1;
    MF_VEC_PUSH(c->syms, mf_arena_strdup(c->m->arena, name));
    return c->syms.n - 1;
}

int mf_flat_err(fctx *c, int code, int line, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_err_set(code, "%s:%d:%d: %s: %s", c->file, line, col,
                      code == MF_EUNSUPPORTED ? "unsupported" : "error", msg);
}

const mf_ast_module *mf_flat_module(const mf_ast *ast, const char *name)
{
    for (int i = 0; i < ast->modules.n; i++)
        if (!strcmp(ast->modules.v[i]->name, name))
            return ast->modules.v[i];
    return NULL;
}

/* ---- pass A: the instance tree and the flat names ---------------------- */

/* The flat name of a (possibly dotted) name written in instance `in`,
 * following module parameters that stand for instances textually:
 * `DEFINE left.ack := ...` in a module whose parameter `left` is bound to
 * instance e-1 defines e-1.ack (old SMV models do this). */
static int path_name(fctx *c, const char **out, inst *in, const char *name,
                     int line, int col, int depth)
{
    const char *dot = strchr(name, '.');
    if (!strcmp(name, "self")) {
        *out = in->prefix;
        return 0;
    }
    if (!dot || depth > MAX_INSTANCE_DEPTH) {
        *out = join(c, in->prefix, name);
        return 0;
    }
    size_t headlen = (size_t)(dot - name);
    if (headlen == 4 && !strncmp(name, "self", 4)) {
        *out = join(c, in->prefix, dot + 1);
        return 0;
    }
    for (int i = 0; i < in->mod->nparams; i++) {
        const char *p = in->mod->params[i];
        if (strlen(p) != headlen || strncmp(p, name, headlen))
            continue;
        const mf_expr *arg = in->decl->args[i];
        if (arg->kind != MF_E_ID)
            return mf_flat_err(c, MF_ETYPE, line, col,
                               "parameter '%s' is not a module instance", p);
        const char *base;
        int rc = path_name(c, &base, in->parent, arg->name, line, col,
                           depth + 1);
        if (rc)
            return rc;
        *out = join(c, base, dot + 1);
        return 0;
    }
    *out = join(c, in->prefix, name);
    return 0;
}

/* The declarations and DEFINEs of `body` (the instance's module, or one it
 * includes with ISA) under instance `in`. */
static int collect_body(fctx *c, inst *in, const mf_ast_module *body,
                        int depth, int isa_depth)
{
    if (isa_depth > MAX_INSTANCE_DEPTH)
        return mf_flat_err(c, MF_ETYPE, body->line, body->col,
                           "ISA nested deeper than %d (ISA cycle?)",
                           MAX_INSTANCE_DEPTH);
    for (int i = 0; i < body->decls.n; i++) {
        const mf_ast_decl *d = &body->decls.v[i];
        const char *flat = join(c, in->prefix, d->name);
        if (mf_flat_find(c, flat))
            return mf_flat_err(c, MF_ETYPE, d->line, d->col,
                               "'%s' is declared twice", flat);
        if (d->type->kind == MF_AT_INST) {
            const mf_ast_module *sub = mf_flat_module(c->ast, d->type->module);
            if (!sub)
                return mf_flat_err(c, MF_ETYPE, d->type->line, d->type->col,
                                   "no module named '%s'", d->type->module);
            if (sub->nparams != d->type->nargs)
                return mf_flat_err(
                    c, MF_ETYPE, d->type->line, d->type->col,
                    "module '%s' takes %d parameter(s), %d given", sub->name,
                    sub->nparams, d->type->nargs);
            if (d->kind != MF_DECL_VAR)
                return mf_flat_err(c, MF_ETYPE, d->line, d->col,
                                   "a module instance must be declared in VAR");
            if (d->type->process && strchr(flat, '.'))
                return mf_flat_err(c, MF_EUNSUPPORTED, d->type->line,
                                   d->type->col,
                                   "process instance '%s' inside "
                                   "a module instance",
                                   flat);
            if (d->type->process)
                MF_VEC_PUSH(c->procs, flat);
            mf_flat_put(c, flat, NM_INST, c->insts.n);
            int rc = mf_flat_collect(c, sub, flat, in, d->type, depth + 1);
            if (rc)
                return rc;
            continue;
        }
        mf_var v = {0};
        v.name = flat;
        v.decl = d->kind;
        v.line = d->line;
        v.col = d->col;
        mf_flat_put(c, flat, NM_VAR, c->vars.n);
        MF_VEC_PUSH(c->vars, v);
        MF_VEC_PUSH(c->var_decls, d);
        MF_VEC_PUSH(c->var_inst, in);
    }
    for (int i = 0; i < body->defines.n; i++) {
        const mf_ast_define *d = &body->defines.v[i];
        const char *flat;
        int rc = path_name(c, &flat, in, d->name, d->line, d->col, 0);
        if (rc)
            return rc;
        if (mf_flat_find(c, flat))
            return mf_flat_err(c, MF_ETYPE, d->line, d->col,
                               "'%s' is declared twice", flat);
        mf_item it = {0};
        it.kind = MF_IT_DEFINE;
        it.name = flat;
        it.line = d->line;
        it.col = d->col;
        mf_flat_put(c, flat, NM_DEFINE, c->defines.n);
        MF_VEC_PUSH(c->defines, it);
        MF_VEC_PUSH(c->define_inst, in);
        MF_VEC_PUSH(c->define_ast, d);
    }
    for (int i = 0; i < body->isa.n; i++) {
        const mf_ast_isa *isa = &body->isa.v[i];
        const mf_ast_module *inc = mf_flat_module(c->ast, isa->module);
        if (!inc)
            return mf_flat_err(c, MF_ETYPE, isa->line, isa->col,
                               "no module named '%s'", isa->module);
        if (inc->nparams)
            return mf_flat_err(c, MF_ETYPE, isa->line, isa->col,
                               "ISA of module '%s', which takes parameters",
                               inc->name);
        int rc = collect_body(c, in, inc, depth, isa_depth + 1);
        if (rc)
            return rc;
    }
    return 0;
}

int mf_flat_collect(fctx *c, const mf_ast_module *mod, const char *prefix,
                    inst *parent, const mf_ast_type *decl, int depth)
{
    if (depth > MAX_INSTANCE_DEPTH)
        return mf_flat_err(c, MF_ETYPE, decl->line, decl->col,
                           "module instances nested deeper than %d (recursive "
                           "module?)",
                           MAX_INSTANCE_DEPTH);
    inst *in = mf_arena_alloc(c->m->arena, sizeof *in);
    in->mod = mod;
    in->prefix = prefix;
    in->parent = parent;
    in->decl = decl;
    in->proc = decl && decl->process ? prefix
               : parent                ? parent->proc
                                       : MF_PROC_MAIN;
    MF_VEC_PUSH(c->insts, in);
    return collect_body(c, in, mod, depth, 0);
}

/* ---- pass B: resolution ---------------------------------------------- */

/* The actual parameter `idx` of instance `in`, resolved in the parent. */
static int bound_param(fctx *c, mf_expr **out, inst *in, int idx)
{
    if (!in->bound)
        in->bound = mf_arena_alloc(c->m->arena,
                                   sizeof(mf_expr *) *
                                       (size_t)(in->mod->nparams + 1));
    if (!in->bound[idx]) {
        if (in->resolving)
            return mf_flat_err(c, MF_ETYPE, in->decl->line, in->decl->col,
                               "parameters of '%s' refer to each other",
                               in->prefix);
        in->resolving = 1;
        int rc = mf_flat_resolve(c, &in->bound[idx], in->decl->args[idx],
                                 in->parent, 0);
        in->resolving = 0;
        if (rc)
            return rc;
    }
    *out = in->bound[idx];
    return 0;
}

static mf_expr *ref_node(fctx *c, const mf_expr *at, const nment *ne)
{
    mf_expr *r = mf_expr_new(c->m->arena, MF_E_ID, at->line, at->col);
    r->name = ne->name;
    switch (ne->kind) {
    case NM_VAR:
        r->ref_kind = MF_REF_VAR;
        r->ref = ne->index;
        break;
    case NM_DEFINE:
        r->ref_kind = MF_REF_DEFINE;
        r->ref = ne->index;
        break;
    case NM_INST:
        r->ref_kind = MF_REF_NONE; /* an instance: only valid before '.' */
        r->ref = -2;
        break;
    }
    return r;
}

static int resolve_id(fctx *c, mf_expr **out, const mf_expr *e, inst *in);

/* Names NuSMV knows that have no entry of their own in the flat namespace:
 * `running` of main or of a process instance (model/process.c), and a
 * module parameter read through its instance (`s1.i` for `s1 :
 * server(1)` and `MODULE server(i)`). 1 and *out for such a name, 0 for
 * another, or a negative code. */
static int resolve_known(fctx *c, mf_expr **out, const mf_expr *e,
                         const char *flat)
{
    size_t n = strlen(flat);
    if (n >= 7 && !strcmp(flat + n - 7, "running") &&
        (n == 7 || flat[n - 8] == '.')) {
        const char *sym = NULL;
        if (n == 7) {
            sym = MF_PROC_MAIN;
        } else {
            char *pre = mf_arena_strdup(c->m->arena, flat);
            pre[n - 8] = 0;
            nment *ne = mf_flat_find(c, pre);
            if (ne && ne->kind == NM_INST &&
                c->insts.v[ne->index]->decl->process)
                sym = c->insts.v[ne->index]->prefix;
        }
        if (sym && c->selvar >= 0) {
            *out = mf_proc_running(c->m->arena, c->selvar, MF_PROC_SELECTOR,
                                   sym, e->line, e->col);
            return 1;
        }
        if (sym) { /* no processes: main is the only one, always moving */
            *out = mf_expr_bool(c->m->arena, 1, e->line, e->col);
            return 1;
        }
    }
    for (const char *d = strchr(flat, '.'); d; d = strchr(d + 1, '.')) {
        char *pre = mf_arena_strdup(c->m->arena, flat);
        pre[d - flat] = 0;
        nment *ne = mf_flat_find(c, pre);
        if (!ne || ne->kind != NM_INST)
            continue;
        inst *sub = c->insts.v[ne->index];
        size_t clen = strcspn(d + 1, ".");
        for (int i = 0; i < sub->mod->nparams; i++) {
            const char *p = sub->mod->params[i];
            if (strlen(p) != clen || strncmp(p, d + 1, clen))
                continue;
            mf_expr rel = *e;
            rel.name = d + 1;
            int rc = resolve_id(c, out, &rel, sub);
            return rc ? rc : 1;
        }
    }
    return 0;
}

static int resolve_id(fctx *c, mf_expr **out, const mf_expr *e, inst *in)
{
    const char *name = e->name;
    const char *dot = strchr(name, '.');
    size_t headlen = dot ? (size_t)(dot - name) : strlen(name);
    char head[256];
    if (headlen >= sizeof head)
        return mf_flat_err(c, MF_EPARSE, e->line, e->col,
                           "identifier too long");
    memcpy(head, name, headlen);
    head[headlen] = 0;
    const char *rest = dot ? dot + 1 : NULL;

    /* a module parameter */
    for (int i = 0; i < in->mod->nparams; i++) {
        if (strcmp(in->mod->params[i], head))
            continue;
        mf_expr *b = NULL;
        int rc = bound_param(c, &b, in, i);
        if (rc)
            return rc;
        if (!rest) {
            *out = mf_expr_copy(c->m->arena, b);
            (*out)->line = e->line;
            (*out)->col = e->col;
            return 0;
        }
        if (b->kind != MF_E_ID || b->ref_kind == MF_REF_VAR ||
            b->ref_kind == MF_REF_DEFINE)
            return mf_flat_err(c, MF_ETYPE, e->line, e->col,
                               "parameter '%s' is not a module instance, so "
                               "'%s' names nothing",
                               head, name);
        const char *flat = join(c, b->name, rest);
        nment *ne = mf_flat_find(c, flat);
        if (!ne && (rc = resolve_known(c, out, e, flat)))
            return rc < 0 ? rc : 0;
        if (!ne)
            return mf_flat_err(c, MF_ETYPE, e->line, e->col,
                               "undefined identifier '%s' (no '%s')", name,
                               flat);
        *out = ref_node(c, e, ne);
        return 0;
    }
    const char *flat;
    if (!strcmp(head, "self")) {
        if (!rest) {
            /* self: this instance, only valid as a parameter passed on */
            nment self = {in->prefix, NM_INST, 0};
            *out = ref_node(c, e, &self);
            return 0;
        }
        flat = join(c, in->prefix, rest);
    } else {
        flat = join(c, in->prefix, name);
    }
    nment *ne = mf_flat_find(c, flat);
    if (ne) {
        *out = ref_node(c, e, ne);
        return 0;
    }
    int known = resolve_known(c, out, e, flat);
    if (known)
        return known < 0 ? known : 0;
    if (!rest) {
        int s = mf_flat_sym(c, name, 0);
        if (s >= 0) {
            mf_expr *r = mf_expr_new(c->m->arena, MF_E_SYM, e->line, e->col);
            r->name = c->syms.v[s];
            *out = r;
            return 0;
        }
    }
    return mf_flat_err(c, MF_ETYPE, e->line, e->col,
                       "undefined identifier '%s'", name);
}

int mf_flat_resolve(fctx *c, mf_expr **out, const mf_expr *e, inst *in,
                    int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return mf_flat_err(c, MF_ELIMIT, e->line, e->col,
                           "expression nested too deeply");
    if (e->kind == MF_E_ID)
        return resolve_id(c, out, e, in);
    if (e->kind == MF_E_SYM) {
        int s = mf_flat_sym(c, e->name, 1);
        mf_expr *r = mf_expr_new(c->m->arena, MF_E_SYM, e->line, e->col);
        r->name = c->syms.v[s];
        *out = r;
        return 0;
    }
    mf_expr *r = mf_expr_new(c->m->arena, e->kind, e->line, e->col);
    r->op = e->op;
    r->ival = e->ival;
    r->wty = e->wty;
    for (int i = 0; i < e->nkids; i++) {
        mf_expr *k;
        int rc = mf_flat_resolve(c, &k, e->kids[i], in, depth + 1);
        if (rc)
            return rc;
        if (k->kind == MF_E_ID && k->ref_kind == MF_REF_NONE)
            return mf_flat_err(c, MF_ETYPE, k->line, k->col,
                               "module instance '%s' used as a value", k->name);
        mf_expr_add(c->m->arena, r, k);
    }
    *out = r;
    return 0;
}
