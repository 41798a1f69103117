/* flatten.c - from a parse tree to the flat, typed model (model.h).
 *
 * Instantiates `main` and its module instances depth first, giving every
 * variable and DEFINE a dotted flat name, binds module parameters to the
 * caller's expressions, resolves identifiers (variable, DEFINE, symbolic
 * constant), evaluates constant type bounds, type checks every item and
 * settles which variables are inputs and which are observed. It does not
 * interpret specifications (they are kept as text) and does not evaluate
 * anything but constants. */
#include "model.h"
#include "word.h"
#include "process.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INSTANCE_DEPTH 64
#define MAX_EXPR_DEPTH 2000
#define MAX_SLOTS (1 << 20)

/* One module instance: the module, its flat prefix and its parameters. */
typedef struct inst {
    const mf_ast_module *mod;
    const char *prefix;    /* "" for main, "a.b" below */
    struct inst *parent;   /* NULL for main */
    const mf_ast_type *decl; /* the MF_AT_INST that made it (args) */
    mf_expr **bound;       /* resolved actual parameters (nparams) */
    int resolving;         /* cycle guard while binding */
    const char *proc;      /* the process it moves with: "main" or a
                            * process instance's name (model/process.c) */
} inst;

/* A name in the flat namespace. */
typedef enum { NM_VAR, NM_DEFINE, NM_INST } nmkind;
typedef struct {
    const char *name;
    nmkind kind;
    int index; /* var index, define index, or instance index */
} nment;

typedef struct {
    mf_model *m;
    const mf_ast *ast;
    const char *file;
    MF_VEC(inst *) insts;
    MF_VEC(mf_var) vars;
    MF_VEC(const mf_ast_decl *) var_decls; /* parallel to vars */
    MF_VEC(inst *) var_inst;               /* parallel to vars */
    MF_VEC(mf_item) defines;
    MF_VEC(inst *) define_inst;
    MF_VEC(const mf_ast_define *) define_ast;
    MF_VEC(mf_item) assigns;
    MF_VEC(const char *) assign_proc;      /* parallel to assigns */
    MF_VEC(const char *) procs;            /* process instances */
    int selvar;                            /* the scheduler input, or -1 */
    MF_VEC(mf_item) constraints;
    MF_VEC(mf_spec) specs;
    MF_VEC(const char *) syms;
    /* open-addressing table of flat names */
    nment *tab;
    int tabcap, tabn;
} fctx;

/* ---- names ------------------------------------------------------------ */

static unsigned long name_hash(const char *s)
{
    unsigned long h = 1469598103934665603UL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

static nment *tab_find(fctx *c, const char *name)
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

static void tab_put(fctx *c, const char *name, nmkind kind, int index)
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
                tab_put(c, old[j].name, old[j].kind, old[j].index);
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

static int sym_index(fctx *c, const char *name, int add)
{
    for (int i = 0; i < c->syms.n; i++)
        if (!strcmp(c->syms.v[i], name))
            return i;
    if (!add)
        return -1;
    MF_VEC_PUSH(c->syms, mf_arena_strdup(c->m->arena, name));
    return c->syms.n - 1;
}

static int err_at(fctx *c, int code, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int err_at(fctx *c, int code, int line, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_err_set(code, "%s:%d:%d: %s: %s", c->file, line, col,
                      code == MF_EUNSUPPORTED ? "unsupported" : "error", msg);
}

static const mf_ast_module *find_module(const mf_ast *ast, const char *name)
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
            return err_at(c, MF_ETYPE, line, col,
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

static int collect(fctx *c, const mf_ast_module *mod, const char *prefix,
                   inst *parent, const mf_ast_type *decl, int depth);

/* The declarations and DEFINEs of `body` (the instance's module, or one it
 * includes with ISA) under instance `in`. */
static int collect_body(fctx *c, inst *in, const mf_ast_module *body,
                        int depth, int isa_depth)
{
    if (isa_depth > MAX_INSTANCE_DEPTH)
        return err_at(c, MF_ETYPE, body->line, body->col,
                      "ISA nested deeper than %d (ISA cycle?)",
                      MAX_INSTANCE_DEPTH);
    for (int i = 0; i < body->decls.n; i++) {
        const mf_ast_decl *d = &body->decls.v[i];
        const char *flat = join(c, in->prefix, d->name);
        if (tab_find(c, flat))
            return err_at(c, MF_ETYPE, d->line, d->col,
                          "'%s' is declared twice", flat);
        if (d->type->kind == MF_AT_INST) {
            const mf_ast_module *sub = find_module(c->ast, d->type->module);
            if (!sub)
                return err_at(c, MF_ETYPE, d->type->line, d->type->col,
                              "no module named '%s'", d->type->module);
            if (sub->nparams != d->type->nargs)
                return err_at(c, MF_ETYPE, d->type->line, d->type->col,
                              "module '%s' takes %d parameter(s), %d given",
                              sub->name, sub->nparams, d->type->nargs);
            if (d->kind != MF_DECL_VAR)
                return err_at(c, MF_ETYPE, d->line, d->col,
                              "a module instance must be declared in VAR");
            if (d->type->process && strchr(flat, '.'))
                return err_at(c, MF_EUNSUPPORTED, d->type->line,
                              d->type->col, "process instance '%s' inside "
                              "a module instance", flat);
            if (d->type->process)
                MF_VEC_PUSH(c->procs, flat);
            tab_put(c, flat, NM_INST, c->insts.n);
            int rc = collect(c, sub, flat, in, d->type, depth + 1);
            if (rc)
                return rc;
            continue;
        }
        mf_var v = {0};
        v.name = flat;
        v.decl = d->kind;
        v.line = d->line;
        v.col = d->col;
        tab_put(c, flat, NM_VAR, c->vars.n);
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
        if (tab_find(c, flat))
            return err_at(c, MF_ETYPE, d->line, d->col,
                          "'%s' is declared twice", flat);
        mf_item it = {0};
        it.kind = MF_IT_DEFINE;
        it.name = flat;
        it.line = d->line;
        it.col = d->col;
        tab_put(c, flat, NM_DEFINE, c->defines.n);
        MF_VEC_PUSH(c->defines, it);
        MF_VEC_PUSH(c->define_inst, in);
        MF_VEC_PUSH(c->define_ast, d);
    }
    for (int i = 0; i < body->isa.n; i++) {
        const mf_ast_isa *isa = &body->isa.v[i];
        const mf_ast_module *inc = find_module(c->ast, isa->module);
        if (!inc)
            return err_at(c, MF_ETYPE, isa->line, isa->col,
                          "no module named '%s'", isa->module);
        if (inc->nparams)
            return err_at(c, MF_ETYPE, isa->line, isa->col,
                          "ISA of module '%s', which takes parameters",
                          inc->name);
        int rc = collect_body(c, in, inc, depth, isa_depth + 1);
        if (rc)
            return rc;
    }
    return 0;
}

static int collect(fctx *c, const mf_ast_module *mod, const char *prefix,
                   inst *parent, const mf_ast_type *decl, int depth)
{
    if (depth > MAX_INSTANCE_DEPTH)
        return err_at(c, MF_ETYPE, decl->line, decl->col,
                      "module instances nested deeper than %d (recursive "
                      "module?)", MAX_INSTANCE_DEPTH);
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

static int resolve(fctx *c, mf_expr **out, const mf_expr *e, inst *in,
                   int depth);

/* The actual parameter `idx` of instance `in`, resolved in the parent. */
static int bound_param(fctx *c, mf_expr **out, inst *in, int idx)
{
    if (!in->bound)
        in->bound = mf_arena_alloc(c->m->arena,
                                   sizeof(mf_expr *) *
                                       (size_t)(in->mod->nparams + 1));
    if (!in->bound[idx]) {
        if (in->resolving)
            return err_at(c, MF_ETYPE, in->decl->line, in->decl->col,
                          "parameters of '%s' refer to each other",
                          in->prefix);
        in->resolving = 1;
        int rc = resolve(c, &in->bound[idx], in->decl->args[idx], in->parent,
                         0);
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
            nment *ne = tab_find(c, pre);
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
        nment *ne = tab_find(c, pre);
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
        return err_at(c, MF_EPARSE, e->line, e->col, "identifier too long");
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
            return err_at(c, MF_ETYPE, e->line, e->col,
                          "parameter '%s' is not a module instance, so "
                          "'%s' names nothing", head, name);
        const char *flat = join(c, b->name, rest);
        nment *ne = tab_find(c, flat);
        if (!ne && (rc = resolve_known(c, out, e, flat)))
            return rc < 0 ? rc : 0;
        if (!ne)
            return err_at(c, MF_ETYPE, e->line, e->col,
                          "undefined identifier '%s' (no '%s')", name, flat);
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
    nment *ne = tab_find(c, flat);
    if (ne) {
        *out = ref_node(c, e, ne);
        return 0;
    }
    int known = resolve_known(c, out, e, flat);
    if (known)
        return known < 0 ? known : 0;
    if (!rest) {
        int s = sym_index(c, name, 0);
        if (s >= 0) {
            mf_expr *r = mf_expr_new(c->m->arena, MF_E_SYM, e->line, e->col);
            r->name = c->syms.v[s];
            *out = r;
            return 0;
        }
    }
    return err_at(c, MF_ETYPE, e->line, e->col, "undefined identifier '%s'",
                  name);
}

static int resolve(fctx *c, mf_expr **out, const mf_expr *e, inst *in,
                   int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return err_at(c, MF_ELIMIT, e->line, e->col,
                      "expression nested too deeply");
    if (e->kind == MF_E_ID)
        return resolve_id(c, out, e, in);
    if (e->kind == MF_E_SYM) {
        int s = sym_index(c, e->name, 1);
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
        int rc = resolve(c, &k, e->kids[i], in, depth + 1);
        if (rc)
            return rc;
        if (k->kind == MF_E_ID && k->ref_kind == MF_REF_NONE)
            return err_at(c, MF_ETYPE, k->line, k->col,
                          "module instance '%s' used as a value", k->name);
        mf_expr_add(c->m->arena, r, k);
    }
    *out = r;
    return 0;
}

/* ---- constants ------------------------------------------------------- */

static int const_eval(fctx *c, int64_t *out, const mf_expr *e, int depth)
{
    if (depth > 64)
        return err_at(c, MF_ETYPE, e->line, e->col,
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
            return err_at(c, MF_EUNSUPPORTED, e->line, e->col,
                          "integer constant beyond +-2^31");
        switch (e->op) {
        case MF_OP_ADD: *out = a + b; return 0;
        case MF_OP_SUB: *out = a - b; return 0;
        case MF_OP_MUL: *out = a * b; return 0;
        case MF_OP_DIV:
        case MF_OP_MOD:
            if (b == 0)
                return err_at(c, MF_ETYPE, e->line, e->col,
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
    return err_at(c, MF_ETYPE, e->line, e->col,
                  "expected a constant integer expression");
}

/* ---- types ----------------------------------------------------------- */

static int resolve_type(fctx *c, mf_type **out, const mf_ast_type *t,
                        inst *in)
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
        if (nb == t->nvals && nb == 2 &&
            t->vals[0]->ival != t->vals[1]->ival) {
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
                    return err_at(c, MF_ETYPE, v->line, v->col,
                                  "'%s' is not a valid enumeration literal",
                                  v->name);
                x = MF_SYM(sym_index(c, v->name, 1));
            } else if (v->kind == MF_E_INT ||
                       (v->kind == MF_E_NEG && v->kids[0]->kind == MF_E_INT)) {
                x = v->kind == MF_E_INT ? v->ival : -v->kids[0]->ival;
                if (x > MF_INT_LIMIT || x < -MF_INT_LIMIT)
                    return err_at(c, MF_EUNSUPPORTED, v->line, v->col,
                                  "integer constant beyond +-2^31");
            } else {
                return err_at(c, MF_ETYPE, v->line, v->col,
                              "enumeration values must be literals");
            }
            for (int j = 0; j < ty->nvals; j++)
                if (ty->vals[j] == x)
                    return err_at(c, MF_ETYPE, v->line, v->col,
                                  "value repeated in enumeration");
            ty->vals[ty->nvals++] = x;
        }
        if (ty->nvals == 0)
            return err_at(c, MF_ETYPE, t->line, t->col, "empty enumeration");
        break;
    }
    case MF_AT_RANGE:
    case MF_AT_ARRAY:
        if ((rc = resolve(c, &lo, t->lo, in, 0)) ||
            (rc = resolve(c, &hi, t->hi, in, 0)) ||
            (rc = const_eval(c, &ty->lo, lo, 0)) ||
            (rc = const_eval(c, &ty->hi, hi, 0)))
            return rc;
        if (ty->lo > ty->hi)
            return err_at(c, MF_ETYPE, t->line, t->col,
                          "empty range %lld..%lld", (long long)ty->lo,
                          (long long)ty->hi);
        if (ty->lo < -MF_INT_LIMIT || ty->hi > MF_INT_LIMIT)
            return err_at(c, MF_EUNSUPPORTED, t->line, t->col,
                          "integer range beyond +-2^31");
        if (t->kind == MF_AT_RANGE) {
            ty->kind = MF_TY_RANGE;
            break;
        }
        ty->kind = MF_TY_ARRAY;
        if (ty->hi - ty->lo >= MAX_SLOTS)
            return err_at(c, MF_ELIMIT, t->line, t->col, "array too large");
        if (t->elem->kind == MF_AT_INST)
            return err_at(c, MF_EUNSUPPORTED, t->line, t->col,
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
        return err_at(c, MF_ETYPE, t->line, t->col,
                      "module instance where a type is expected");
    case MF_AT_WORD: {
        int64_t w = 0;
        if ((rc = resolve(c, &lo, t->lo, in, 0)) ||
            (rc = const_eval(c, &w, lo, 0)))
            return rc;
        if (w < 1)
            return err_at(c, MF_ETYPE, t->line, t->col,
                          "a word's width must be greater than 0");
        if (w > MF_WORD_MAX_WIDTH)
            return err_at(c, MF_EUNSUPPORTED, t->line, t->col,
                          "words wider than %d bits", MF_WORD_MAX_WIDTH);
        ty->kind = MF_TY_RANGE;
        ty->wty = MF_WTY((int)w, t->is_signed);
        ty->lo = t->is_signed ? -((int64_t)1 << (w - 1)) : 0;
        ty->hi = t->is_signed ? ((int64_t)1 << (w - 1)) - 1
                              : ((int64_t)1 << w) - 1;
        break;
    }
    }
    *out = ty;
    return 0;
}

static long type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    long n = type_cells(t->elem);
    long len = (long)(t->hi - t->lo + 1);
    if (n > MAX_SLOTS || len > MAX_SLOTS || n * len > MAX_SLOTS)
        return MAX_SLOTS + 1;
    return n * len;
}

/* ---- type checking --------------------------------------------------- */

/* Type classes: what a value can be compared and combined with. A word
 * class is TC_WORD with its type (expr.h MF_WTY) above the flags: words meet
 * only words of the same width and signedness, as in NuSMV. */
enum { TC_BOOL = 1, TC_INT = 2, TC_SYM = 4, TC_WORD = 8 };
#define TC_OF_WTY(w) (TC_WORD | ((w) << 4))
#define TC_IS_WORD(tc) (((tc) & TC_WORD) != 0)
#define TC_WTY(tc) ((tc) >> 4)

typedef struct {
    const mf_model *m;
    const char *file;
    int *def_tc;     /* memo per DEFINE: 0 = unknown, -1 = in progress */
    int *def_next;   /* per DEFINE: uses next() */
} tctx;

static int tc_err(tctx *t, const mf_expr *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int tc_err(tctx *t, const mf_expr *e, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_err_set(MF_ETYPE, "%s:%d:%d: error: %s", t->file, e->line,
                      e->col, msg);
}

static int tc_of_type(const mf_type *ty)
{
    ty = mf_type_scalar(ty);
    switch (ty->kind) {
    case MF_TY_BOOL:
        return TC_BOOL;
    case MF_TY_RANGE:
        return ty->wty ? TC_OF_WTY(ty->wty) : TC_INT;
    case MF_TY_ENUM: {
        int tc = 0;
        for (int i = 0; i < ty->nvals; i++)
            tc |= MF_IS_SYM(ty->vals[i]) ? TC_SYM : TC_INT;
        return tc;
    }
    default:
        return 0;
    }
}

static const char *tc_name(int tc)
{
    if (TC_IS_WORD(tc)) {
        /* a few names may be in one message: a small ring of buffers */
        static _Thread_local char ring[4][32];
        static _Thread_local int at;
        char *b = ring[at++ & 3];
        snprintf(b, sizeof ring[0], "%s word[%d]",
                 MF_WTY_SIGNED(TC_WTY(tc)) ? "signed" : "unsigned",
                 MF_WTY_WIDTH(TC_WTY(tc)));
        return b;
    }
    switch (tc) {
    case TC_BOOL: return "boolean";
    case TC_INT: return "integer";
    case TC_SYM: return "symbolic";
    case TC_INT | TC_SYM: return "integer-symbolic enumeration";
    default: return "mixed";
    }
}

/* Can values of classes a and b meet (compare, share a case)? */
static int tc_compat(int a, int b)
{
    if (TC_IS_WORD(a) || TC_IS_WORD(b))
        return a == b;
    if (a == TC_BOOL || b == TC_BOOL)
        return a == b;
    return (a & b) != 0 || ((a | b) & ~(TC_INT | TC_SYM)) == 0;
}

/* flags for the context of a check */
enum { TX_NEXT_OK = 1, TX_IN_NEXT = 2 };

static int tc_expr(tctx *t, int *tc, const mf_expr *e, int flags,
                   int depth);

static int tc_want(tctx *t, const mf_expr *e, int want, int flags,
                   int depth, const char *what)
{
    int tc;
    int rc = tc_expr(t, &tc, e, flags, depth + 1);
    if (rc)
        return rc;
    if (tc != want)
        return tc_err(t, e, "%s must be %s, found %s", what, tc_name(want),
                      tc_name(tc));
    return 0;
}

static int tc_array_base(tctx *t, const mf_type **out, const mf_expr *e,
                         int flags, int depth)
{
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR) {
        *out = t->m->vars[e->ref].type;
        return 0;
    }
    if (e->kind == MF_E_NEXT) {
        if (!(flags & TX_NEXT_OK) || (flags & TX_IN_NEXT))
            return tc_err(t, e, "next() is not allowed here");
        return tc_array_base(t, out, e->kids[0], flags | TX_IN_NEXT,
                             depth + 1);
    }
    if (e->kind == MF_E_INDEX) {
        const mf_type *bt;
        int rc = tc_array_base(t, &bt, e->kids[0], flags, depth + 1);
        if (rc)
            return rc;
        if (bt->kind != MF_TY_ARRAY)
            return tc_err(t, e, "indexing something that is not an array");
        int ic;
        if ((rc = tc_expr(t, &ic, e->kids[1], flags, depth + 1)))
            return rc;
        if (ic != TC_INT && !TC_IS_WORD(ic)) /* NuSMV: an integer or a word */
            return tc_err(t, e->kids[1], "an array index must be integer, "
                          "found %s", tc_name(ic));
        *out = bt->elem;
        return 0;
    }
    return tc_err(t, e, "indexing something that is not an array");
}

static int uses_next(const mf_model *m, const mf_expr *e, int depth);

static int tc_define(tctx *t, int *tc, const mf_expr *e, int flags)
{
    int d = e->ref;
    if (t->def_tc[d] == -1)
        return tc_err(t, e, "DEFINE '%s' depends on itself", e->name);
    if (t->def_tc[d] == 0) {
        t->def_tc[d] = -1;
        int dtc;
        /* a DEFINE body may use next(); where it is used decides */
        t->def_next[d] = uses_next(t->m, t->m->items[d].e, 0);
        int rc = tc_expr(t, &dtc, t->m->items[d].e, TX_NEXT_OK, 0);
        if (rc)
            return rc;
        t->def_tc[d] = dtc;
    }
    if (t->def_next[d] && !(flags & TX_NEXT_OK))
        return tc_err(t, e, "DEFINE '%s' uses next(), not allowed here",
                      e->name);
    *tc = t->def_tc[d];
    return 0;
}

static int uses_next(const mf_model *m, const mf_expr *e, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return 0;
    if (e->kind == MF_E_NEXT)
        return 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE)
        return uses_next(m, m->items[e->ref].e, depth + 1);
    for (int i = 0; i < e->nkids; i++)
        if (uses_next(m, e->kids[i], depth + 1))
            return 1;
    return 0;
}

int mf_expr_reads_next(const mf_model *m, const mf_expr *e)
{
    return uses_next(m, e, 0);
}

static int tc_word(tctx *t, int *tc, const mf_expr *e, int flags, int depth,
                   const int *left);

static int tc_expr_raw(tctx *t, int *tc, const mf_expr *e, int flags,
                       int depth)
{
    int a, b, rc;
    if (depth > MAX_EXPR_DEPTH)
        return tc_err(t, e, "expression nested too deeply");
    switch (e->kind) {
    case MF_E_BOOL:
        *tc = TC_BOOL;
        return 0;
    case MF_E_INT:
        *tc = TC_INT;
        return 0;
    case MF_E_SYM:
        *tc = TC_SYM;
        return 0;
    case MF_E_WORD:
        *tc = TC_OF_WTY(e->wty);
        return 0;
    case MF_E_ID:
        if (e->ref_kind == MF_REF_VAR) {
            const mf_type *ty = t->m->vars[e->ref].type;
            if (ty->kind == MF_TY_ARRAY)
                return tc_err(t, e, "array '%s' used without an index",
                              e->name);
            if ((flags & TX_IN_NEXT) &&
                t->m->vars[e->ref].decl == MF_DECL_IVAR)
                return tc_err(t, e, "next() of input variable '%s'",
                              e->name);
            *tc = tc_of_type(ty);
            return 0;
        }
        if (e->ref_kind == MF_REF_DEFINE) {
            if ((flags & TX_IN_NEXT) && uses_next(t->m, e, 0))
                return tc_err(t, e, "next() inside next()");
            return tc_define(t, tc, e, flags);
        }
        return tc_err(t, e, "module instance '%s' used as a value",
                      *e->name ? e->name : "self");
    case MF_E_NEXT:
        if (!(flags & TX_NEXT_OK))
            return tc_err(t, e, "next() is not allowed here");
        if (flags & TX_IN_NEXT)
            return tc_err(t, e, "next() inside next()");
        return tc_expr(t, tc, e->kids[0], flags | TX_IN_NEXT, depth + 1);
    case MF_E_NOT:
    case MF_E_NEG:
        if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
            return rc;
        if (TC_IS_WORD(a)) {
            *tc = a;
            return 0;
        }
        *tc = e->kind == MF_E_NOT ? TC_BOOL : TC_INT;
        if (a != *tc)
            return tc_err(t, e->kids[0], "operand of '%s' must be %s, found %s",
                          e->kind == MF_E_NOT ? "!" : "unary -",
                          tc_name(*tc), tc_name(a));
        return 0;
    case MF_E_BIN:
        if (e->op == MF_OP_SHL || e->op == MF_OP_SHR ||
            e->op == MF_OP_CONCAT)
            return tc_word(t, tc, e, flags, depth, NULL);
        if (e->op != MF_OP_EQ && e->op != MF_OP_NE && e->op != MF_OP_IN &&
            e->op != MF_OP_UNION) {
            /* a word on the left: the operator's word form; else the left
             * operand's class is checked below, without a second walk */
            if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
                return rc;
            if (TC_IS_WORD(a))
                return tc_word(t, tc, e, flags, depth, &a);
        }
        switch (e->op) {
        case MF_OP_AND:
        case MF_OP_OR:
        case MF_OP_XOR:
        case MF_OP_XNOR:
        case MF_OP_IMPLIES:
        case MF_OP_IFF:
            *tc = TC_BOOL;
            if (a != TC_BOOL)
                return tc_err(t, e->kids[0], "a logical operand must be %s, "
                              "found %s", tc_name(TC_BOOL), tc_name(a));
            return tc_want(t, e->kids[1], TC_BOOL, flags, depth,
                           "a logical operand");
        case MF_OP_LT:
        case MF_OP_LE:
        case MF_OP_GT:
        case MF_OP_GE:
            *tc = TC_BOOL;
            if (a != TC_INT)
                return tc_err(t, e->kids[0], "an ordered comparison's operand "
                              "must be %s, found %s", tc_name(TC_INT),
                              tc_name(a));
            return tc_want(t, e->kids[1], TC_INT, flags, depth,
                           "an ordered comparison's operand");
        case MF_OP_ADD:
        case MF_OP_SUB:
        case MF_OP_MUL:
        case MF_OP_DIV:
        case MF_OP_MOD:
            *tc = TC_INT;
            if (a != TC_INT)
                return tc_err(t, e->kids[0], "an arithmetic operand must be "
                              "%s, found %s", tc_name(TC_INT), tc_name(a));
            return tc_want(t, e->kids[1], TC_INT, flags, depth,
                           "an arithmetic operand");
        case MF_OP_EQ:
        case MF_OP_NE:
        case MF_OP_IN:
        case MF_OP_UNION:
            if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)) ||
                (rc = tc_expr(t, &b, e->kids[1], flags, depth + 1)))
                return rc;
            if (!tc_compat(a, b))
                return tc_err(t, e, "'%s' between %s and %s values",
                              mf_binop_str(e->op), tc_name(a), tc_name(b));
            if ((e->op == MF_OP_IN || e->op == MF_OP_UNION) && TC_IS_WORD(a))
                return tc_err(t, e, "'%s' of words (NuSMV has no sets of "
                              "words)", mf_binop_str(e->op));
            *tc = e->op == MF_OP_UNION ? (a | b) : TC_BOOL;
            return 0;
        default:
            return tc_err(t, e, "unknown operator");
        }
    case MF_E_CASE:
    case MF_E_ITE:
    case MF_E_SET: {
        int acc = 0;
        for (int i = 0; i < e->nkids; i++) {
            int is_cond = (e->kind == MF_E_CASE && i % 2 == 0) ||
                          (e->kind == MF_E_ITE && i == 0);
            if (is_cond) {
                if ((rc = tc_want(t, e->kids[i], TC_BOOL, flags, depth,
                                  "a condition")))
                    return rc;
                continue;
            }
            if ((rc = tc_expr(t, &a, e->kids[i], flags, depth + 1)))
                return rc;
            if (acc && !tc_compat(acc, a))
                return tc_err(t, e->kids[i],
                              "%s value where the others are %s",
                              tc_name(a), tc_name(acc));
            if (e->kind == MF_E_SET && TC_IS_WORD(a))
                return tc_err(t, e->kids[i],
                              "a set of words (NuSMV has no sets of words)");
            acc |= a;
        }
        if (!acc)
            return tc_err(t, e, "empty case or set");
        *tc = acc;
        return 0;
    }
    case MF_E_RANGE:
        *tc = TC_INT;
        if ((rc = tc_want(t, e->kids[0], TC_INT, flags, depth,
                          "a range bound")))
            return rc;
        return tc_want(t, e->kids[1], TC_INT, flags, depth, "a range bound");
    case MF_E_CALL:
        switch (e->op) {
        case MF_FN_MIN:
        case MF_FN_MAX:
            if (e->nkids != 2)
                return tc_err(t, e, "%s takes two arguments",
                              mf_fn_str(e->op));
            *tc = TC_INT;
            if ((rc = tc_want(t, e->kids[0], TC_INT, flags, depth,
                              "an argument")))
                return rc;
            return tc_want(t, e->kids[1], TC_INT, flags, depth,
                           "an argument");
        case MF_FN_ABS:
            if (e->nkids != 1)
                return tc_err(t, e, "abs takes one argument");
            *tc = TC_INT;
            return tc_want(t, e->kids[0], TC_INT, flags, depth,
                           "an argument");
        case MF_FN_TOINT:
        case MF_FN_BOOL:
            if (e->nkids != 1)
                return tc_err(t, e, "%s takes one argument",
                              mf_fn_str(e->op));
            if ((rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
                return rc;
            if (TC_IS_WORD(a) &&
                (e->op == MF_FN_TOINT || a == TC_OF_WTY(MF_WTY(1, 0)))) {
                *tc = e->op == MF_FN_TOINT ? TC_INT : TC_BOOL;
                return 0;
            }
            if (a != TC_INT && a != TC_BOOL)
                return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op),
                              tc_name(a));
            *tc = e->op == MF_FN_TOINT ? TC_INT : TC_BOOL;
            return 0;
        case MF_FN_COUNT:
            if (e->nkids < 1)
                return tc_err(t, e, "count takes arguments");
            for (int i = 0; i < e->nkids; i++)
                if ((rc = tc_want(t, e->kids[i], TC_BOOL, flags, depth,
                                  "an argument of count")))
                    return rc;
            *tc = TC_INT;
            return 0;
        default:
            return tc_word(t, tc, e, flags, depth, NULL);
        }
    case MF_E_INDEX: {
        const mf_type *bt;
        if ((rc = tc_array_base(t, &bt, e, flags, depth)))
            return rc;
        if (bt->kind == MF_TY_ARRAY)
            return tc_err(t, e, "array used as a value (index it fully)");
        *tc = tc_of_type(bt);
        return 0;
    }
    }
    return tc_err(t, e, "unknown expression");
}

/* tc_expr_raw, and the node marked with its word type (or 0), which the
 * simulator and the encoder read (expr.h). The mark is a cache of the type
 * check on the node, so it is written through the const the checker sees. */
static int tc_expr(tctx *t, int *tc, const mf_expr *e, int flags, int depth)
{
    int rc = tc_expr_raw(t, tc, e, flags, depth);
    if (rc == 0)
        ((mf_expr *)e)->wty = TC_IS_WORD(*tc) ? TC_WTY(*tc) : 0;
    return rc;
}

/* An integer literal argument of a word operator (a width, a bit, a shift
 * size): *v, or an error naming `what`. */
static int tc_lit(tctx *t, int64_t *v, const mf_expr *e, const char *what)
{
    if (e->kind != MF_E_INT)
        return tc_err(t, e, "%s must be an integer constant", what);
    *v = e->ival;
    return 0;
}

/* The word operators and functions (docs/smv.md, "Words"): kids[0] of a
 * binary operator already checked as a word where that decided the form. */
static int tc_word(tctx *t, int *tc, const mf_expr *e, int flags, int depth,
                   const int *left)
{
    int a = left ? *left : 0, b = 0, rc;
    int64_t n = 0, m = 0;
    if (!left && e->nkids >= 1 &&
        (rc = tc_expr(t, &a, e->kids[0], flags, depth + 1)))
        return rc;
    if (e->kind == MF_E_BIN) {
        if ((rc = tc_expr(t, &b, e->kids[1], flags, depth + 1)))
            return rc;
        if (!TC_IS_WORD(a))
            return tc_err(t, e->kids[0], "operand of '%s' must be a word, "
                          "found %s", mf_binop_str(e->op), tc_name(a));
        switch (e->op) {
        case MF_OP_SHL:
        case MF_OP_SHR:
            if (b != TC_INT && !(TC_IS_WORD(b) && !MF_WTY_SIGNED(TC_WTY(b))))
                return tc_err(t, e->kids[1], "a shift's amount must be an "
                              "integer or an unsigned word, found %s",
                              tc_name(b));
            *tc = a;
            return 0;
        case MF_OP_CONCAT: {
            if (!TC_IS_WORD(b))
                return tc_err(t, e->kids[1], "operand of '::' must be a word, "
                              "found %s", tc_name(b));
            int w = MF_WTY_WIDTH(TC_WTY(a)) + MF_WTY_WIDTH(TC_WTY(b));
            if (w > MF_WORD_MAX_WIDTH)
                return mf_err_set(MF_EUNSUPPORTED,
                                  "%s:%d:%d: unsupported: words wider than "
                                  "%d bits", t->file, e->line, e->col,
                                  MF_WORD_MAX_WIDTH);
            *tc = TC_OF_WTY(MF_WTY(w, 0));
            return 0;
        }
        default:
            break;
        }
        if (b != a)
            return tc_err(t, e, "'%s' between %s and %s values",
                          mf_binop_str(e->op), tc_name(a), tc_name(b));
        switch (e->op) {
        case MF_OP_LT:
        case MF_OP_LE:
        case MF_OP_GT:
        case MF_OP_GE:
            *tc = TC_BOOL;
            return 0;
        case MF_OP_AND:
        case MF_OP_OR:
        case MF_OP_XOR:
        case MF_OP_XNOR:
        case MF_OP_IMPLIES:
        case MF_OP_IFF:
        case MF_OP_ADD:
        case MF_OP_SUB:
        case MF_OP_MUL:
        case MF_OP_DIV:
        case MF_OP_MOD:
            *tc = a;
            return 0;
        default:
            return tc_err(t, e, "'%s' on words", mf_binop_str(e->op));
        }
    }
    /* functions */
    int want_args = e->op == MF_FN_SELECT                                ? 3
                    : e->op == MF_FN_EXTEND || e->op == MF_FN_RESIZE ||
                            e->op == MF_FN_SWCONST || e->op == MF_FN_UWCONST
                        ? 2
                        : 1;
    if (e->nkids != want_args)
        return tc_err(t, e, "%s takes %d argument%s", mf_fn_str(e->op),
                      want_args, want_args == 1 ? "" : "s");
    int wa = TC_IS_WORD(a) ? TC_WTY(a) : 0, w = MF_WTY_WIDTH(wa);
    switch (e->op) {
    case MF_FN_WORD1:
        if (a != TC_BOOL)
            return tc_err(t, e, "word1 of a %s value", tc_name(a));
        *tc = TC_OF_WTY(MF_WTY(1, 0));
        return 0;
    case MF_FN_SWCONST:
    case MF_FN_UWCONST: {
        if ((rc = tc_lit(t, &n, e->kids[0], "a word constant's value")) ||
            (rc = tc_lit(t, &m, e->kids[1], "a word constant's width")))
            return rc;
        if (m < 1 || m > MF_WORD_MAX_WIDTH)
            return tc_err(t, e, "a word's width must be 1..%d",
                          MF_WORD_MAX_WIDTH);
        int wr = MF_WTY((int)m, e->op == MF_FN_SWCONST);
        if (!mf_word_fits(wr, n))
            return tc_err(t, e, "%lld does not fit %s",
                          (long long)n, tc_name(TC_OF_WTY(wr)));
        *tc = TC_OF_WTY(wr);
        return 0;
    }
    default:
        break;
    }
    if (!wa)
        return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op),
                      tc_name(a));
    switch (e->op) {
    case MF_FN_SIGNED:
    case MF_FN_UNSIGNED:
        if (MF_WTY_SIGNED(wa) == (e->op == MF_FN_SIGNED))
            return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op),
                          tc_name(a));
        *tc = TC_OF_WTY(MF_WTY(w, e->op == MF_FN_SIGNED));
        return 0;
    case MF_FN_SIZEOF:
        *tc = TC_INT;
        return 0;
    case MF_FN_EXTEND:
    case MF_FN_RESIZE:
        if ((rc = tc_lit(t, &n, e->kids[1], "a width")))
            return rc;
        m = e->op == MF_FN_EXTEND ? w + n : n;
        if (n < 0 || m < 1)
            return tc_err(t, e, "%s to a width below 1", mf_fn_str(e->op));
        if (m > MF_WORD_MAX_WIDTH)
            return mf_err_set(MF_EUNSUPPORTED,
                              "%s:%d:%d: unsupported: words wider than %d "
                              "bits", t->file, e->line, e->col,
                              MF_WORD_MAX_WIDTH);
        *tc = TC_OF_WTY(MF_WTY((int)m, MF_WTY_SIGNED(wa)));
        return 0;
    case MF_FN_SELECT:
        if ((rc = tc_lit(t, &n, e->kids[1], "a selection's high bit")) ||
            (rc = tc_lit(t, &m, e->kids[2], "a selection's low bit")))
            return rc;
        if (m < 0 || n < m || n >= w)
            return tc_err(t, e, "bits [%lld:%lld] of a %s value",
                          (long long)n, (long long)m, tc_name(a));
        *tc = TC_OF_WTY(MF_WTY((int)(n - m + 1), 0));
        return 0;
    default:
        return tc_err(t, e, "%s of a %s value", mf_fn_str(e->op),
                      tc_name(a));
    }
}

/* Constant leaves of an assigned value must be in the target's domain:
 * NuSMV refuses them as range errors, so such a mutant is stillborn. */
static int tc_leaves(tctx *t, const mf_expr *e, const mf_type *ty,
                     const char *target, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return 0;
    mf_val v;
    switch (e->kind) {
    case MF_E_CASE:
        for (int i = 1; i < e->nkids; i += 2)
            if (tc_leaves(t, e->kids[i], ty, target, depth + 1))
                return MF_ETYPE;
        return 0;
    case MF_E_ITE:
        return tc_leaves(t, e->kids[1], ty, target, depth + 1) ||
                       tc_leaves(t, e->kids[2], ty, target, depth + 1)
                   ? MF_ETYPE
                   : 0;
    case MF_E_SET:
    case MF_E_RANGE:
        if (e->kind == MF_E_RANGE && ty->kind == MF_TY_RANGE &&
            e->kids[0]->kind == MF_E_INT && e->kids[1]->kind == MF_E_INT) {
            if (e->kids[0]->ival > e->kids[1]->ival)
                return tc_err(t, e, "empty range");
        }
        for (int i = 0; i < e->nkids; i++)
            if (tc_leaves(t, e->kids[i], ty, target, depth + 1))
                return MF_ETYPE;
        return 0;
    case MF_E_BIN:
        if (e->op == MF_OP_UNION)
            return tc_leaves(t, e->kids[0], ty, target, depth + 1) ||
                           tc_leaves(t, e->kids[1], ty, target, depth + 1)
                       ? MF_ETYPE
                       : 0;
        return 0;
    case MF_E_INT:
        v = e->ival;
        break;
    case MF_E_BOOL:
        v = e->ival;
        break;
    case MF_E_SYM: {
        int s = mf_model_find_sym(t->m, e->name);
        if (s < 0)
            return 0;
        v = MF_SYM(s);
        break;
    }
    default:
        return 0;
    }
    if (!mf_type_contains(ty, v)) {
        mf_buf b = {0};
        mf_print_expr(&b, t->m, e);
        tc_err(t, e, "value %s is out of the domain of '%s'", b.data, target);
        mf_buf_free(&b);
        return MF_ETYPE;
    }
    return 0;
}

static int tc_item(tctx *t, const mf_item *it)
{
    int tc, rc;
    const mf_model *m = t->m;
    switch (it->kind) {
    case MF_IT_DEFINE:
        return tc_expr(t, &tc, it->e, TX_NEXT_OK, 0);
    case MF_IT_INIT:
    case MF_IT_NEXT:
    case MF_IT_ASSIGN: {
        const mf_type *ty;
        if (it->lhs->kind == MF_E_INDEX) {
            if ((rc = tc_array_base(t, &ty, it->lhs, 0, 0)))
                return rc;
        } else {
            ty = m->vars[it->var].type;
        }
        if (ty->kind == MF_TY_ARRAY)
            return tc_err(t, it->lhs, "assignment to a whole array");
        const mf_var *v = &m->vars[it->var];
        if (v->decl == MF_DECL_IVAR)
            return tc_err(t, it->lhs, "assignment to input variable '%s'",
                          v->name);
        if (v->decl == MF_DECL_FROZENVAR && it->kind == MF_IT_NEXT)
            return tc_err(t, it->lhs, "next() of FROZENVAR '%s'", v->name);
        int flags = it->kind == MF_IT_NEXT ? TX_NEXT_OK : 0;
        if ((rc = tc_expr(t, &tc, it->e, flags, 0)))
            return rc;
        int want = tc_of_type(ty);
        if (!tc_compat(tc, want) || (tc & ~want))
            return tc_err(t, it->e, "%s value assigned to %s variable '%s'",
                          tc_name(tc), tc_name(want), v->name);
        return tc_leaves(t, it->e, ty, v->name, 0);
    }
    case MF_IT_INIT_C:
    case MF_IT_INVAR_C:
        return tc_want(t, it->e, TC_BOOL, 0, 0, "a constraint");
    case MF_IT_TRANS_C:
        return tc_want(t, it->e, TC_BOOL, TX_NEXT_OK, 0, "a constraint");
    }
    return 0;
}

static int tc_init(tctx *t, const mf_model *m)
{
    int n = m->nitems + 1;
    t->m = m;
    t->file = m->file;
    t->def_tc = mf_xcalloc((size_t)n, sizeof(int));
    t->def_next = mf_xcalloc((size_t)n, sizeof(int));
    return 0;
}

static void tc_fini(tctx *t)
{
    free(t->def_tc);
    free(t->def_next);
}

/* ---- combinational loops --------------------------------------------- */

/* Mark the variables e reads within one state: in the init state (all reads)
 * or in the next state (reads under next(), or all reads of an invariant
 * assignment, which holds within the next state). */
static void loop_reads(const mf_model *m, const mf_expr *e, int under_next,
                       int want_next, char *out, char *def_seen, int depth,
                       int index, const mf_item *repl)
{
    if (depth > MAX_EXPR_DEPTH)
        return;
    if (e->kind == MF_E_NEXT)
        under_next = 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR &&
        (!want_next || under_next))
        out[e->ref] = 1;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE) {
        /* a DEFINE is read where it is used: its next() are relative */
        int key = 2 * e->ref + under_next;
        if (!def_seen[key]) {
            def_seen[key] = 1;
            /* a replaced DEFINE reads as its replacement */
            const mf_expr *body = e->ref == index && repl ? repl->e
                                                           : m->items[e->ref].e;
            loop_reads(m, body, under_next, want_next, out, def_seen,
                       depth + 1, index, repl);
        }
    }
    for (int i = 0; i < e->nkids; i++)
        loop_reads(m, e->kids[i], under_next, want_next, out, def_seen,
                   depth + 1, index, repl);
}

/* Does variable v reach itself in graph g (nv x nv adjacency)? */
static int loop_dfs(const char *g, int nv, int v, char *state, int *via)
{
    state[v] = 1;
    for (int w = 0; w < nv; w++) {
        if (!g[(size_t)v * (size_t)nv + w])
            continue;
        if (state[w] == 1) {
            *via = w;
            return 1;
        }
        if (state[w] == 0 && loop_dfs(g, nv, w, state, via))
            return 1;
    }
    state[v] = 2;
    return 0;
}

/* An assignment that depends on itself within one state (init(a) := b;
 * init(b) := a) has no meaning: NuSMV refuses it as a circular definition.
 * Checked per variable (array cells count as their array, except that an
 * array reading itself is allowed). `repl` replaces item `index` (NULL with
 * index -1: the model as it is). */
static int check_loops(const mf_model *m, int index, const mf_item *repl)
{
    int nv = m->nvars, rc = 0;
    if (nv == 0 || nv > 4096)
        return 0; /* the simulator still reports a loop at run time */
    char *g = mf_xcalloc((size_t)nv * (size_t)nv, 1);
    char *defined = mf_xcalloc((size_t)nv, 1);
    char *reads = mf_xcalloc((size_t)nv, 1);
    char *def_seen = mf_xcalloc(2 * (size_t)m->nitems + 2, 1);
    char *state = mf_xcalloc((size_t)nv, 1);
    for (int ctx = 0; ctx < 2 && !rc; ctx++) { /* 0: init, 1: next */
        memset(g, 0, (size_t)nv * (size_t)nv);
        memset(defined, 0, (size_t)nv);
        for (int i = 0; i < m->nitems; i++) {
            const mf_item *it = i == index ? repl : &m->items[i];
            if (it && (it->kind == MF_IT_ASSIGN ||
                       it->kind == (ctx ? MF_IT_NEXT : MF_IT_INIT)))
                defined[it->var] = 1;
        }
        for (int i = 0; i < m->nitems; i++) {
            const mf_item *it = i == index ? repl : &m->items[i];
            if (!it || !(it->kind == MF_IT_ASSIGN ||
                         it->kind == (ctx ? MF_IT_NEXT : MF_IT_INIT)))
                continue;
            memset(reads, 0, (size_t)nv);
            memset(def_seen, 0, 2 * (size_t)m->nitems + 2);
            int want_next = ctx && it->kind == MF_IT_NEXT;
            loop_reads(m, it->e, 0, want_next, reads, def_seen, 0, index,
                       repl);
            for (int w = 0; w < nv; w++) {
                int self_array = w == it->var &&
                                 m->vars[w].type->kind == MF_TY_ARRAY;
                if (reads[w] && defined[w] && !self_array)
                    g[(size_t)it->var * (size_t)nv + w] = 1;
            }
        }
        memset(state, 0, (size_t)nv);
        for (int v = 0; v < nv && !rc; v++) {
            int via = -1;
            if (state[v] == 0 && loop_dfs(g, nv, v, state, &via)) {
                const mf_item *at = NULL;
                for (int i = 0; i < m->nitems && !at; i++) {
                    const mf_item *it = i == index ? repl : &m->items[i];
                    if (it && it->var == via &&
                        (it->kind == MF_IT_ASSIGN ||
                         it->kind == (ctx ? MF_IT_NEXT : MF_IT_INIT)))
                        at = it;
                }
                rc = mf_err_set(MF_ETYPE,
                                "%s:%d:%d: error: combinational loop: the %s "
                                "value of '%s' depends on itself",
                                m->file, at ? at->line : 1, at ? at->col : 1,
                                ctx ? "next" : "initial", m->vars[via].name);
            }
        }
    }
    free(g);
    free(defined);
    free(reads);
    free(def_seen);
    free(state);
    return rc;
}

int mf_model_check_item(const mf_model *m, const mf_item *it)
{
    tctx t;
    tc_init(&t, m);
    int rc = tc_item(&t, it);
    tc_fini(&t);
    if (rc == 0) {
        /* which item `it` replaces: the assignment of the same kind to the
         * same variable (element), the DEFINE of the same name, or none
         * for a constraint */
        int index = -1;
        for (int i = 0; i < m->nitems && index < 0; i++)
            if (it->kind == MF_IT_DEFINE
                    ? m->items[i].kind == MF_IT_DEFINE && it->name &&
                          m->items[i].name &&
                          !strcmp(m->items[i].name, it->name)
                    : m->items[i].kind == it->kind && it->lhs &&
                          m->items[i].var == it->var &&
                          mf_expr_equal(m->items[i].lhs, it->lhs))
                index = i;
        if (index >= 0)
            rc = check_loops(m, index, it);
    }
    return rc;
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
static int add_body(fctx *c, inst *in, const mf_ast_module *body,
                    int is_main)
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
        if ((rc = resolve(c, &it.lhs, a->lhs, in, 0)) ||
            (rc = resolve(c, &it.e, a->rhs, in, 0)))
            return rc;
        it.var = lhs_var(it.lhs);
        if (it.var < 0 || (it.lhs->kind == MF_E_ID &&
                           it.lhs->ref_kind != MF_REF_VAR))
            return err_at(c, MF_ETYPE, a->lhs->line, a->lhs->col,
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
        if ((rc = resolve(c, &it.e, a->e, in, 0)))
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
        if ((rc = add_body(c, in, find_module(c->ast, body->isa.v[i].module),
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
        if ((rc = resolve(c, &c->defines.v[i].e, d->body,
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
    if (tab_find(c, MF_PROC_SELECTOR))
        return err_at(c, MF_EUNSUPPORTED, 1, 1,
                      "a model with processes declaring '%s'",
                      MF_PROC_SELECTOR);
    mf_var v = {0};
    v.name = MF_PROC_SELECTOR;
    v.decl = MF_DECL_IVAR;
    v.line = v.col = 1;
    c->selvar = c->vars.n;
    tab_put(c, v.name, NM_VAR, c->vars.n);
    MF_VEC_PUSH(c->vars, v);
    MF_VEC_PUSH(c->var_decls, mf_proc_selector_decl(c->m->arena,
                                                    c->procs.v, c->procs.n));
    MF_VEC_PUSH(c->var_inst, c->insts.v[0]);
    return 0;
}

/* Two assignments of the same kind to the same variable (element) are a
 * double assignment, refused like NuSMV does. */
static int check_assign_conflicts(fctx *c, const mf_model *m)
{
    for (int i = 0; i < m->nitems; i++) {
        const mf_item *a = &m->items[i];
        if (a->kind != MF_IT_INIT && a->kind != MF_IT_NEXT &&
            a->kind != MF_IT_ASSIGN)
            continue;
        for (int j = 0; j < i; j++) {
            const mf_item *b = &m->items[j];
            if (b->var != a->var || b->kind == MF_IT_DEFINE ||
                b->kind >= MF_IT_INIT_C)
                continue;
            int same_kind = a->kind == b->kind;
            int invar_mix = a->kind == MF_IT_ASSIGN || b->kind == MF_IT_ASSIGN;
            if (!same_kind && !invar_mix)
                continue;
            if (a->lhs->kind == MF_E_INDEX && b->lhs->kind == MF_E_INDEX &&
                !mf_expr_equal(a->lhs, b->lhs))
                continue;
            return err_at(c, MF_ETYPE, a->line, a->col,
                          "'%s' is assigned twice (also at line %d)",
                          m->vars[a->var].name, b->line);
        }
    }
    return 0;
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
        return 1 && (e->kids[0]->kind == MF_E_SET ||
                     e->kids[0]->kind == MF_E_RANGE ||
                     e->kids[0]->kind <= MF_E_SYM) &&
               (e->kids[1]->kind == MF_E_SET ||
                e->kids[1]->kind == MF_E_RANGE ||
                e->kids[1]->kind <= MF_E_SYM);
    if (e->kind != MF_E_SET || e->nkids < 2)
        return 0;
    for (int i = 0; i < e->nkids; i++) {
        const mf_expr *k = e->kids[i];
        if (k->kind == MF_E_NEG)
            k = k->kids[0];
        if (k->kind != MF_E_BOOL && k->kind != MF_E_INT &&
            k->kind != MF_E_SYM)
            return 0;
    }
    return 1;
}

static int split_list(fctx *c, const char **names, int n, const char *what,
                      int *out_idx, int allow_define)
{
    for (int i = 0; i < n; i++) {
        int v = mf_model_find_var(c->m, names[i]);
        if (v >= 0) {
            out_idx[i] = v;
            continue;
        }
        if (allow_define) {
            int d = mf_model_find_define(c->m, names[i]);
            if (d >= 0) {
                out_idx[i] = -2 - d;
                continue;
            }
        }
        return mf_err_set(MF_ERROR, "%s: %s '%s' is not a %s of the model",
                          c->file, what, names[i],
                          allow_define ? "VAR or DEFINE" : "variable");
    }
    return 0;
}

static int settle_roles(fctx *c, const mf_model_opts *opts)
{
    mf_model *m = c->m;
    int nv = m->nvars, rc;
    if (opts && opts->ninputs) {
        int *idx = mf_xcalloc((size_t)opts->ninputs, sizeof(int));
        rc = split_list(c, opts->inputs, opts->ninputs, "--inputs", idx, 0);
        for (int i = 0; !rc && i < opts->ninputs; i++) {
            mf_var *v = &m->vars[idx[i]];
            if (v->decl == MF_DECL_FROZENVAR)
                rc = mf_err_set(MF_ERROR,
                                "%s: --inputs '%s' is a FROZENVAR", c->file,
                                v->name);
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
                v->is_input = !assigned[i] &&
                              mf_type_scalar(v->type)->unbounded;
            else if (v->decl == MF_DECL_VAR)
                v->is_input = (!assigned[i] && !constrained[i]) ||
                              choice[i] == 1 ||
                              /* no finite choice to enumerate: the
                               * environment's (docs/semantics.md) */
                              (!assigned[i] &&
                               mf_type_scalar(v->type)->unbounded);
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
        rc = split_list(c, opts->observe, opts->nobserve, "--observe", idx, 1);
        if (!rc) {
            m->obs_defines = mf_arena_alloc(
                m->arena, sizeof(int) * (size_t)opts->nobserve);
            for (int i = 0; i < opts->nobserve; i++) {
                if (idx[i] >= 0) {
                    if (m->vars[idx[i]].is_input) {
                        rc = mf_err_set(MF_ERROR,
                                        "%s: --observe '%s' is an input",
                                        c->file, m->vars[idx[i]].name);
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

/* ---- the model ---------------------------------------------------------- */

static void model_rehash(mf_model *m)
{
    mf_buf b = {0};
    mf_print_model(&b, m);
    mf_sha256_hex(m->hash, b.data, b.len);
    mf_buf_free(&b);
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

/* The model of a parsed tree, as mf_model_load returns it. */
static int flatten(mf_model **out, const mf_ast *ast,
                   const mf_model_opts *opts)
{
    fctx c = {0};
    int rc = 0;
    *out = NULL;
    mf_model *m = mf_xcalloc(1, sizeof *m);
    m->arena = mf_arena_new();
    m->file = mf_arena_strdup(m->arena, ast->file ? ast->file : "<model>");
    c.m = m;
    c.ast = ast;
    c.file = m->file;

    const mf_ast_module *main_mod = find_module(ast, "main");
    if (!main_mod) {
        rc = mf_err_set(MF_ETYPE, "%s:1:1: error: no MODULE main", c.file);
        goto cleanup;
    }
    if (main_mod->nparams) {
        rc = err_at(&c, MF_ETYPE, main_mod->line, main_mod->col,
                    "MODULE main takes no parameters");
        goto cleanup;
    }
    for (int i = 0; i < ast->modules.n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(ast->modules.v[i]->name, ast->modules.v[j]->name)) {
                rc = err_at(&c, MF_ETYPE, ast->modules.v[i]->line,
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
                    sym_index(&c, t->vals[k]->name, 1);
        }
    }
    if ((rc = collect(&c, main_mod, "", NULL, NULL, 0)) ||
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
    m->items = mf_arena_alloc(m->arena,
                              sizeof(mf_item) * (size_t)(m->nitems + 1));
    int k = 0;
    for (int i = 0; i < c.defines.n; i++)
        m->items[k++] = c.defines.v[i];
    for (int i = 0; i < c.assigns.n; i++)
        m->items[k++] = c.assigns.v[i];
    for (int i = 0; i < c.constraints.n; i++)
        m->items[k++] = c.constraints.v[i];
    m->nspecs = c.specs.n;
    m->specs = mf_arena_alloc(m->arena,
                              sizeof(mf_spec) * (size_t)(m->nspecs + 1));
    if (m->nspecs)
        memcpy(m->specs, c.specs.v, sizeof(mf_spec) * (size_t)m->nspecs);
    m->nsyms = c.syms.n;
    m->syms = mf_arena_alloc(m->arena,
                             sizeof(char *) * (size_t)(m->nsyms + 1));
    if (m->nsyms)
        memcpy(m->syms, c.syms.v, sizeof(char *) * (size_t)m->nsyms);

    long slot = 0;
    for (int i = 0; i < m->nvars; i++) {
        long n = type_cells(m->vars[i].type);
        if (n > MAX_SLOTS || slot + n > MAX_SLOTS) {
            rc = err_at(&c, MF_ELIMIT, m->vars[i].line, m->vars[i].col,
                        "the state has more than %d cells", MAX_SLOTS);
            goto cleanup;
        }
        m->vars[i].slot = (int)slot;
        m->vars[i].nslots = (int)n;
        slot += n;
    }
    m->nslots = (int)slot;

    tctx t;
    tc_init(&t, m);
    for (int i = 0; i < m->nitems && !rc; i++)
        rc = tc_item(&t, &m->items[i]);
    tc_fini(&t);
    if (rc)
        goto cleanup;
    if ((rc = check_assign_conflicts(&c, m)) || (rc = check_loops(m, -1, NULL)))
        goto cleanup;
    if ((rc = settle_roles(&c, opts)))
        goto cleanup;
    model_rehash(m);

cleanup:
    fctx_free(&c);
    if (rc) {
        mf_model_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

int mf_model_load(mf_model **out, const char *file, const char *text,
                  size_t len, const mf_model_opts *opts)
{
    mf_ast *ast = NULL;
    *out = NULL;
    int rc = mf_parse(&ast, file, text, len);
    if (rc)
        return rc;
    rc = flatten(out, ast, opts);
    mf_ast_free(ast);
    return rc;
}

#define MF_MODEL_MAX_BYTES (64u << 20)

int mf_model_load_file(mf_model **out, const char *path,
                       const mf_model_opts *opts)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = mf_read_file(&text, &len, path, MF_MODEL_MAX_BYTES);
    if (rc)
        return rc;
    rc = mf_model_load(out, path, text, len, opts);
    free(text);
    return rc;
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
    r->obs_defines = mf_arena_alloc(a, sizeof(int) *
                                           (size_t)(m->nobs_defines + 1));
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
        tctx t;
        tc_init(&t, r);
        (void)tc_item(&t, &r->items[index]);
        tc_fini(&t);
    }
    model_rehash(r);
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
    mf_var *vars = mf_arena_alloc(a, sizeof(mf_var) * (size_t)(r->nvars + nnew + 1));
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
    model_rehash(r);
    *out = r;
    return 0;
}
