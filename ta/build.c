/* build.c - the raw model of a format reader to a network (ta_build):
 * the declarations parsed (parse.c) and resolved in their scopes (global,
 * template, function, edge), types and constants evaluated, the templates
 * built at the template level; flatten.c then makes the processes and
 * roles.c the inputs and outputs. */
#include "ta_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Plain `int`: UPPAAL's default range. */
#define INT_LO (-32768)
#define INT_HI 32767
/* The most cells one variable may have. */
#define MAX_CELLS 65536

/* ---- constants -------------------------------------------------------------- */

static int ceval_index(ta_bld *b, const ta_expr *e, const ta_var **var,
                       int64_t *off)
{
    /* a constant array's cell: the var and the flat offset */
    if (e->kind == TA_E_REF) {
        const ta_var *v = NULL;
        if (e->ref_kind == TA_R_VAR)
            v = &b->vars.v[e->ref];
        if (!v || v->kind != TA_V_CONST)
            return ta_bld_err(b, MF_ETYPE, e, "'%s' is not a constant",
                              e->name);
        *var = v;
        *off = 0;
        return 0;
    }
    if (e->kind != TA_E_INDEX)
        return ta_bld_err(b, MF_ETYPE, e, "not a constant expression");
    int64_t ix;
    int rc = ceval_index(b, e->kids[0], var, off);
    if (!rc)
        rc = ta_ceval(b, e->kids[1], &ix);
    if (rc)
        return rc;
    int depth = 0;
    for (const ta_expr *k = e; k->kind == TA_E_INDEX; k = k->kids[0])
        depth++;
    const ta_var *v = *var;
    if (depth > v->ndims)
        return ta_bld_err(b, MF_ETYPE, e, "'%s' has %d dimensions", v->name,
                          v->ndims);
    int d = depth - 1;
    if (ix < 0 || ix >= v->dims[d])
        return ta_bld_err(b, MF_ETYPE, e, "index %lld out of %s[%d]",
                          (long long)ix, v->name, v->dims[d]);
    int64_t stride = 1;
    for (int k = d + 1; k < v->ndims; k++)
        stride *= v->dims[k];
    *off += ix * stride;
    return 0;
}

int ta_ceval(ta_bld *b, const ta_expr *e, int64_t *v)
{
    int64_t x = 0, y = 0;
    int rc;
    switch (e->kind) {
    case TA_E_INT:
    case TA_E_BOOL:
        *v = e->ival;
        return 0;
    case TA_E_REF:
        if (e->ref_kind == TA_R_PARAM && b->inst && b->inst->pref[e->ref] ==
                                                        NULL &&
            b->inst->pvar[e->ref] < 0) {
            *v = b->inst->pval[e->ref];
            return 0;
        }
        if (e->ref_kind == TA_R_TVAR && b->inst &&
            b->inst->tconst[e->ref]) {
            *v = b->inst->tconst[e->ref][0];
            return 0;
        }
        /* fall through */
    case TA_E_INDEX: {
        const ta_var *var = NULL;
        int64_t off = 0;
        if (e->kind == TA_E_INDEX && b->inst) {
            /* a template constant array */
            const ta_expr *r = e;
            while (r->kind == TA_E_INDEX)
                r = r->kids[0];
            if (r->ref_kind == TA_R_TVAR && b->inst->tconst[r->ref]) {
                const ta_var *tv = &b->net->tmpls[b->inst->tmpl].vars[r->ref];
                int64_t ix;
                if (e->kids[0] != r || tv->ndims != 1)
                    return ta_bld_err(b, MF_EUNSUPPORTED, e,
                                      "a template constant of 2 dimensions");
                if ((rc = ta_ceval(b, e->kids[1], &ix)))
                    return rc;
                if (ix < 0 || ix >= tv->ncells)
                    return ta_bld_err(b, MF_ETYPE, e, "index out of range");
                *v = b->inst->tconst[r->ref][ix];
                return 0;
            }
        }
        if ((rc = ceval_index(b, e, &var, &off)))
            return rc;
        if (off >= var->ncells)
            return ta_bld_err(b, MF_ETYPE, e, "'%s' is an array", var->name);
        *v = var->init[off];
        return 0;
    }
    case TA_E_UN:
        if ((rc = ta_ceval(b, e->kids[0], &x)))
            return rc;
        switch (e->op) {
        case TA_OP_NEG: *v = -x; return 0;
        case TA_OP_NOT: *v = !x; return 0;
        case TA_OP_BNOT: *v = ~x; return 0;
        default: *v = x; return 0;
        }
    case TA_E_BIN:
        if ((rc = ta_ceval(b, e->kids[0], &x)) ||
            (rc = ta_ceval(b, e->kids[1], &y)))
            return rc;
        if (x > INT32_MAX || x < INT32_MIN || y > INT32_MAX || y < INT32_MIN)
            return ta_bld_err(b, MF_ELIMIT, e, "constant out of 32 bits");
        switch (e->op) {
        case TA_OP_ADD: *v = x + y; return 0;
        case TA_OP_SUB: *v = x - y; return 0;
        case TA_OP_MUL: *v = x * y; return 0;
        case TA_OP_DIV:
        case TA_OP_MOD:
            if (y == 0)
                return ta_bld_err(b, MF_ETYPE, e, "division by zero");
            *v = e->op == TA_OP_DIV ? x / y : x % y;
            return 0;
        case TA_OP_BAND: *v = x & y; return 0;
        case TA_OP_BOR: *v = x | y; return 0;
        case TA_OP_BXOR: *v = x ^ y; return 0;
        case TA_OP_SHL: *v = y < 0 || y > 31 ? 0 : x * ((int64_t)1 << y);
            return 0;
        case TA_OP_SHR: *v = y < 0 || y > 31 ? 0 : x >> y; return 0;
        case TA_OP_AND: *v = x && y; return 0;
        case TA_OP_OR: *v = x || y; return 0;
        case TA_OP_IMPLY: *v = !x || y; return 0;
        case TA_OP_EQ: *v = x == y; return 0;
        case TA_OP_NE: *v = x != y; return 0;
        case TA_OP_LT: *v = x < y; return 0;
        case TA_OP_LE: *v = x <= y; return 0;
        case TA_OP_GT: *v = x > y; return 0;
        case TA_OP_GE: *v = x >= y; return 0;
        case TA_OP_MIN: *v = x < y ? x : y; return 0;
        case TA_OP_MAX: *v = x > y ? x : y; return 0;
        default: break;
        }
        break;
    case TA_E_ITE:
        if ((rc = ta_ceval(b, e->kids[0], &x)))
            return rc;
        return ta_ceval(b, e->kids[x ? 1 : 2], v);
    default:
        break;
    }
    return ta_bld_err(b, MF_ETYPE, e, "not a constant expression");
}

/* ---- types -------------------------------------------------------------------- */

int ta_eval_type(ta_bld *b, const ta_ptype *pt, ta_expr *const *dims,
                 int ndims, int line, ta_type *out)
{
    int rc;
    memset(out, 0, sizeof(*out));
    ta_expr at = {.line = line};
    if ((rc = ta_resolve(b, pt->lo)) || (rc = ta_resolve(b, pt->hi)))
        return rc;
    for (int i = 0; i < ndims; i++)
        if ((rc = ta_resolve(b, dims[i])))
            return rc;
    switch (pt->base) {
    case PT_INT:
        out->kind = TA_V_INT;
        out->lo = INT_LO;
        out->hi = INT_HI;
        if (pt->lo && ((rc = ta_ceval(b, pt->lo, &out->lo)) ||
                       (rc = ta_ceval(b, pt->hi, &out->hi))))
            return rc;
        if (out->lo > out->hi)
            return ta_bld_err(b, MF_ETYPE, pt->lo, "empty range [%lld,%lld]",
                              (long long)out->lo, (long long)out->hi);
        break;
    case PT_BOOL:
        out->kind = TA_V_BOOL;
        out->hi = 1;
        break;
    case PT_CLOCK:
        out->kind = TA_V_CLOCK;
        break;
    case PT_CHAN:
        out->is_chan = 1;
        break;
    case PT_VOID:
        return ta_bld_err(b, MF_ETYPE, &at, "a void value");
    case PT_NAMED: {
        const ta_sym *s = ta_bld_lookup(b, pt->name, NULL);
        if (!s || s->kind != SYM_TYPE)
            return ta_bld_err(b, MF_ETYPE, &at, "unknown type '%s'", pt->name);
        if (b->types.v[s->idx].is_struct)
            return ta_bld_err(b, MF_EUNSUPPORTED, &at,
                              "a value of the struct type '%s'", pt->name);
        *out = b->types.v[s->idx].t;
        break;
    }
    case PT_STRUCT:
        return ta_bld_err(b, MF_EUNSUPPORTED, &at, "a struct");
    }
    out->is_const |= pt->is_const;
    out->urgent |= pt->urgent;
    out->broadcast |= pt->broadcast;
    out->is_ref = pt->is_ref;
    if (out->ndims + ndims > TA_MAX_DIMS)
        return ta_bld_err(b, MF_EUNSUPPORTED, &at,
                          "more than %d array dimensions", TA_MAX_DIMS);
    int64_t cells = 1;
    for (int i = 0; i < out->ndims; i++)
        cells *= out->dims[i];
    for (int i = 0; i < ndims; i++) {
        int64_t n;
        if ((rc = ta_ceval(b, dims[i], &n)))
            return rc;
        if (n < 1 || n > MAX_CELLS || (cells *= n) > MAX_CELLS)
            return ta_bld_err(b, MF_ELIMIT, dims[i],
                              "array size %lld out of 1..%d", (long long)n,
                              MAX_CELLS);
        out->dims[out->ndims++] = (int)n;
    }
    return 0;
}

/* ---- resolution --------------------------------------------------------------- */

/* UPPAAL's built-in functions (mostly on doubles), refused by name. */
static int is_builtin(const char *name)
{
    static const char *const fns[] = {
        "abs", "fabs", "fmod", "fma", "fmax", "fmin", "exp", "exp2", "expm1",
        "ln", "log", "log10", "log2", "log1p", "pow", "sqrt", "cbrt", "hypot",
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
        "tanh", "ceil", "floor", "trunc", "round", "fint", "ldexp", "ilogb",
        "logb", "nextafter", "copysign", "signbit", "random", "random_normal",
        "random_poisson", "random_weibull", "random_gamma", "tri", "numOf",
        NULL};
    for (int i = 0; fns[i]; i++)
        if (!strcmp(name, fns[i]))
            return 1;
    return 0;
}

int ta_resolve(ta_bld *b, ta_expr *e)
{
    int rc;
    if (!e)
        return 0;
    int nk = e->kind == TA_E_QUANT ? 1 : e->nkids;
    if (e->kind == TA_E_QUANT && e->nkids == 1)
        return 0; /* resolved before */
    for (int i = 0; i < nk; i++)
        if ((rc = ta_resolve(b, e->kids[i])))
            return rc;
    int local = 0;
    const ta_sym *s;
    switch (e->kind) {
    case TA_E_REF:
        if (e->ref_kind != TA_R_NONE)
            return 0;
        s = ta_bld_lookup(b, e->name, &local);
        if (!s)
            return ta_bld_err(b, MF_ETYPE, e, "unknown name '%s'", e->name);
        switch (s->kind) {
        case SYM_VAR: {
            const ta_var *v = local ? &b->net->tmpls[b->cur].vars[s->idx]
                                    : &b->vars.v[s->idx];
            if (!local && v->kind == TA_V_CONST && v->ndims == 0) {
                e->kind = TA_E_INT;
                e->ival = v->init[0];
                return 0;
            }
            e->ref_kind = local ? TA_R_TVAR : TA_R_VAR;
            e->ref = s->idx;
            return 0;
        }
        case SYM_CHAN:
            e->ref_kind = TA_R_CHAN;
            e->ref = s->idx;
            return 0;
        case SYM_PARAM:
            e->ref_kind = TA_R_PARAM;
            e->ref = s->idx;
            return 0;
        case SYM_FUNC:
            return ta_bld_err(b, MF_ETYPE, e, "function '%s' used as a value",
                              e->name);
        case SYM_TYPE:
            return ta_bld_err(b, MF_ETYPE, e, "type '%s' used as a value",
                              e->name);
        }
        return 0;
    case TA_E_CALL: {
        if (e->ref_kind != TA_R_NONE)
            return 0;
        s = ta_bld_lookup(b, e->name, &local);
        if (!s && is_builtin(e->name))
            return ta_bld_err(b, MF_EUNSUPPORTED, e,
                              "UPPAAL's built-in function '%s'", e->name);
        if (!s || s->kind != SYM_FUNC)
            return ta_bld_err(b, MF_ETYPE, e, "'%s' is not a function",
                              e->name);
        e->ref_kind = local ? TA_R_TFUNC : TA_R_FUNC;
        e->ref = s->idx;
        const ta_func *f = local ? &b->net->tmpls[b->cur].funcs[s->idx]
                                 : &b->funcs.v[s->idx];
        if (f->nparams != e->nkids)
            return ta_bld_err(b, MF_ETYPE, e, "'%s' takes %d arguments, not %d",
                              e->name, f->nparams, e->nkids);
        return 0;
    }
    case TA_E_QUANT: {
        ta_expr *r = e->kids[1];
        if (r->name) {
            s = ta_bld_lookup(b, r->name, NULL);
            if (!s || s->kind != SYM_TYPE)
                return ta_bld_err(b, MF_ETYPE, r, "unknown type '%s'", r->name);
            const ta_type *t = &b->types.v[s->idx].t;
            if (t->kind != TA_V_INT || t->ndims || t->is_chan)
                return ta_bld_err(b, MF_EUNSUPPORTED, r,
                                  "a quantifier over '%s'", r->name);
            e->lo = t->lo;
            e->hi = t->hi;
        } else if ((rc = ta_resolve(b, r->kids[0])) ||
                   (rc = ta_resolve(b, r->kids[1])) ||
                   (rc = ta_ceval(b, r->kids[0], &e->lo)) ||
                   (rc = ta_ceval(b, r->kids[1], &e->hi))) {
            return rc;
        }
        if (e->hi - e->lo > MAX_CELLS)
            return ta_bld_err(b, MF_ELIMIT, e, "a quantifier over more "
                              "than %d values", MAX_CELLS);
        e->nkids = 1; /* the range is in lo, hi now */
        return 0;
    }
    default:
        return 0;
    }
}

static int resolve_stmt(ta_bld *b, ta_stmt *s)
{
    int rc;
    if (!s)
        return 0;
    if ((rc = ta_resolve(b, s->e)) || (rc = ta_resolve(b, s->init)) ||
        (rc = ta_resolve(b, s->step)))
        return rc;
    for (int i = 0; i < s->nkids; i++)
        if ((rc = resolve_stmt(b, s->kids[i])))
            return rc;
    return 0;
}

/* ---- declarations ------------------------------------------------------------- */

/* Initial values of a variable: a scalar expression or nested lists. */
static int init_cells(ta_bld *b, const ta_expr *init, const ta_type *t,
                      int dim, int64_t *cells, int64_t *at)
{
    int rc;
    if (dim == t->ndims) {
        int64_t v;
        if (init->kind == TA_E_LIST)
            return ta_bld_err(b, MF_ETYPE, init, "a list for a scalar");
        if ((rc = ta_ceval(b, init, &v)))
            return rc;
        if (v < t->lo || v > t->hi)
            return ta_bld_err(b, MF_ETYPE, init,
                              "initial value %lld out of [%lld,%lld]",
                              (long long)v, (long long)t->lo,
                              (long long)t->hi);
        cells[(*at)++] = v;
        return 0;
    }
    if (dim >= TA_MAX_DIMS)
        return ta_bld_err(b, MF_ETYPE, init, "a list nested too deeply");
    if (init->kind != TA_E_LIST || init->nkids != t->dims[dim])
        return ta_bld_err(b, MF_ETYPE, init,
                          "an array of %d needs a list of %d values",
                          t->dims[dim], t->dims[dim]);
    for (int i = 0; i < init->nkids; i++)
        if ((rc = init_cells(b, init->kids[i], t, dim + 1, cells, at)))
            return rc;
    return 0;
}

/* A variable of type t declared by d, its initial values evaluated. */
int ta_bld_make_var(ta_bld *b, const ta_pdecl *d, const ta_type *t,
                    ta_var *v)
{
    memset(v, 0, sizeof(*v));
    v->name = d->name;
    v->kind = t->is_const ? TA_V_CONST : t->kind;
    v->is_bool = t->kind == TA_V_BOOL;
    v->lo = t->lo;
    v->hi = t->hi;
    v->ndims = t->ndims;
    memcpy(v->dims, t->dims, sizeof(v->dims));
    v->ncells = 1;
    for (int i = 0; i < t->ndims; i++)
        v->ncells *= t->dims[i];
    v->cell = v->clock = v->proc = -1;
    v->pos = b->pos;
    v->pos.line = d->line;
    v->pos.col = d->col;
    v->init = mf_arena_alloc(b->a, (size_t)v->ncells * sizeof(int64_t));
    int64_t zero = 0 < t->lo ? t->lo : 0 > t->hi ? t->hi : 0;
    if (t->kind == TA_V_CLOCK) {
        if (d->init || t->is_const)
            return ta_bld_err(b, MF_EUNSUPPORTED, d->init,
                              "an initialised or constant clock");
        return 0;
    }
    if (!d->init) {
        if (t->is_const)
            return ta_bld_err(b, MF_ETYPE, NULL, "constant '%s' without a value",
                              d->name);
        for (int i = 0; i < v->ncells; i++)
            v->init[i] = zero;
        return 0;
    }
    int64_t at = 0;
    return init_cells(b, d->init, t, 0, v->init, &at);
}

static int make_func(ta_bld *b, ta_pdecl *d, ta_func *f)
{
    int rc;
    memset(f, 0, sizeof(*f));
    f->name = d->name;
    f->proc = -1;
    f->pos = b->pos;
    f->pos.line = d->line;
    if (d->type.base == PT_VOID) {
        f->is_void = 1;
    } else {
        ta_type rt;
        if ((rc = ta_eval_type(b, &d->type, NULL, 0, d->line, &rt)))
            return rc;
        if (rt.is_chan || rt.kind == TA_V_CLOCK)
            return ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                              "function '%s' returning a clock or channel",
                              d->name);
        f->ret = rt.kind;
        f->ret_lo = rt.lo;
        f->ret_hi = rt.hi;
    }
    f->nparams = d->nparams;
    f->nlocals = d->nlocals;
    f->locals = mf_arena_alloc(b->a, (size_t)(d->nlocals + 1) *
                                         sizeof(ta_local));
    for (int i = 0; i < d->nlocals; i++) {
        ta_pdecl *l = &d->locals[i];
        ta_type t;
        if ((rc = ta_eval_type(b, &l->type, l->dims, l->ndims, l->line, &t)))
            return rc;
        if (t.is_chan || t.kind == TA_V_CLOCK)
            return ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                              "a clock or channel parameter of '%s'", d->name);
        ta_local *o = &f->locals[i];
        o->name = l->name;
        o->is_ref = t.is_ref;
        o->kind = t.kind;
        o->lo = t.lo;
        o->hi = t.hi;
        o->ndims = t.ndims;
        memcpy(o->dims, t.dims, sizeof(o->dims));
        if (i < d->nparams && t.ndims && !t.is_ref)
            return ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                              "an array passed by value to '%s'", d->name);
    }
    if ((rc = resolve_stmt(b, d->body)))
        return rc;
    f->body = d->body;
    return 0;
}

/* One list of declarations into the current scope: global (b->cur -1) or
 * the template b->cur's. */
typedef MF_VEC(ta_var) var_vec;
typedef MF_VEC(ta_pdecl *) pdecl_ptr_vec;
typedef MF_VEC(ta_func) func_vec;

static int declare_all(ta_bld *b, ta_pdecls *ds, var_vec *tvars,
                       pdecl_ptr_vec *tdecl, func_vec *tfuncs)
{
    int rc = 0;
    for (int i = 0; i < ds->n && !rc; i++) {
        ta_pdecl *d = &ds->v[i];
        b->pos.line = d->line;
        b->pos.col = d->col;
        if (d->kind == PD_TYPEDEF) {
            ta_typedef td = {d->name, {0}, d->type.base == PT_STRUCT};
            if (!td.is_struct &&
                (rc = ta_eval_type(b, &d->type, NULL, 0, d->line, &td.t)))
                break;
            MF_VEC_PUSH(b->types, td);
            rc = ta_bld_declare_sym(b, SYM_TYPE, d->name, b->types.n - 1, d);
            continue;
        }
        if (d->kind == PD_FUNC) {
            ta_func f;
            /* declared first: recursion is refused by the evaluator */
            int idx = tfuncs ? tfuncs->n : b->funcs.n;
            if ((rc = make_func(b, d, &f)))
                break;
            if (tfuncs) {
                MF_VEC_PUSH(*tfuncs, f);
                b->net->tmpls[b->cur].funcs = tfuncs->v;
                b->net->tmpls[b->cur].nfuncs = tfuncs->n;
            } else
                MF_VEC_PUSH(b->funcs, f);
            rc = ta_bld_declare_sym(b, SYM_FUNC, d->name, idx, d);
            continue;
        }
        ta_type t;
        if ((rc = ta_eval_type(b, &d->type, d->dims, d->ndims, d->line, &t)))
            break;
        if (t.is_chan) {
            if (tvars)
                rc = ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                                "a channel declared in a template ('%s')",
                                d->name);
            else if (t.is_const || d->init)
                rc = ta_bld_err(b, MF_ETYPE, NULL, "channel '%s' with a value",
                                d->name);
            else if (t.ndims > 1)
                rc = ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                                "a channel array of 2 dimensions ('%s')",
                                d->name);
            if (rc)
                break;
            int n = t.ndims ? t.dims[0] : 1, base = b->chans.n;
            for (int k = 0; k < n; k++) {
                ta_chan c = {0};
                c.name = t.ndims ? mf_arena_strdup(b->a, "")
                                 : d->name;
                if (t.ndims) {
                    char buf[256];
                    snprintf(buf, sizeof(buf), "%s[%d]", d->name, k);
                    c.name = mf_arena_strdup(b->a, buf);
                }
                c.kind = t.broadcast ? TA_CH_BROADCAST : TA_CH_BINARY;
                c.urgent = t.urgent;
                c.base = base;
                c.n = n;
                c.pos = b->pos;
                MF_VEC_PUSH(b->chans, c);
            }
            rc = ta_bld_declare_sym(b, SYM_CHAN, d->name, base, d);
            continue;
        }
        ta_var v;
        if (tvars && d->init && !t.is_const) {
            /* a template variable's value may use the parameters: it is
             * evaluated for each instance */
            ta_expr *keep = d->init;
            d->init = NULL;
            rc = ta_bld_make_var(b, d, &t, &v);
            d->init = keep;
        } else if (tvars && t.is_const) {
            ta_expr *keep = d->init;
            if (!keep)
                rc = ta_bld_err(b, MF_ETYPE, NULL,
                                "constant '%s' without a value", d->name);
            else if (!(rc = ta_resolve(b, keep))) {
                d->init = NULL;
                t.is_const = 0;
                rc = ta_bld_make_var(b, d, &t, &v);
                v.kind = TA_V_CONST;
                d->init = keep;
            }
        } else {
            if (d->init && !(rc = ta_resolve(b, d->init)))
                rc = ta_bld_make_var(b, d, &t, &v);
            else if (!rc)
                rc = ta_bld_make_var(b, d, &t, &v);
        }
        if (rc)
            break;
        if (tvars) {
            if (d->init && (rc = ta_resolve(b, d->init)))
                break;
            MF_VEC_PUSH(*tvars, v);
            MF_VEC_PUSH(*tdecl, d);
            b->net->tmpls[b->cur].vars = tvars->v;
            b->net->tmpls[b->cur].nvars = tvars->n;
            rc = ta_bld_declare_sym(b, SYM_VAR, d->name, tvars->n - 1, d);
        } else {
            MF_VEC_PUSH(b->vars, v);
            rc = ta_bld_declare_sym(b, SYM_VAR, d->name, b->vars.n - 1, d);
        }
    }
    return rc;
}

int ta_bld_declare(ta_bld *b, ta_pdecls *ds)
{
    return declare_all(b, ds, NULL, NULL, NULL);
}

int ta_bld_parse_decls(ta_bld *b, const ta_text *t, ta_pdecls *out)
{
    memset(out, 0, sizeof(*out));
    if (!t->text || !*t->text)
        return 0;
    ta_parser *p = ta_parser_new(b->a, t, t->pos.file, ta_bld_is_type, b);
    int rc = ta_parse_decls(p, out);
    ta_parser_free(p);
    return rc;
}

/* ---- templates ---------------------------------------------------------------- */

static int find_loc(const ta_raw_tmpl *rt, const char *id)
{
    for (int i = 0; id && i < rt->nlocs; i++)
        if (rt->locs[i].id && !strcmp(rt->locs[i].id, id))
            return i;
    return -1;
}

static int parse_expr(ta_bld *b, const ta_text *t, const char *const *sel,
                      int nsel, ta_expr **out)
{
    *out = NULL;
    if (!t->text || !*t->text)
        return 0;
    ta_parser *p = ta_parser_new(b->a, t, t->pos.file, ta_bld_is_type, b);
    ta_parser_bind_selects(p, sel, nsel);
    int rc = ta_parse_expr_text(p, out);
    ta_parser_free(p);
    if (!rc)
        rc = ta_resolve(b, *out);
    return rc;
}

static int build_params(ta_bld *b, const ta_raw_tmpl *rt, ta_tmpl *t,
                        ta_tbld *tb)
{
    ta_pdecls ps = {0};
    int rc = 0;
    if (rt->params.text && *rt->params.text) {
        ta_parser *p = ta_parser_new(b->a, &rt->params, rt->params.pos.file,
                                     ta_bld_is_type, b);
        rc = ta_parse_params(p, &ps);
        ta_parser_free(p);
        if (rc)
            return rc;
    }
    t->nparams = ps.n;
    t->params = mf_arena_alloc(b->a, (size_t)(ps.n + 1) * sizeof(ta_param));
    tb->params = ps.v;
    tb->ptype = mf_arena_alloc(b->a, (size_t)(ps.n + 1) * sizeof(ta_type));
    for (int i = 0; i < ps.n; i++) {
        ta_pdecl *d = &ps.v[i];
        ta_type *ty = &tb->ptype[i];
        b->pos = rt->params.pos;
        if ((rc = ta_eval_type(b, &d->type, d->dims, d->ndims, d->line, ty)))
            return rc;
        ta_expr at = {.line = d->line, .col = d->col};
        if ((ty->is_chan || ty->kind == TA_V_CLOCK) && !ty->is_ref)
            return ta_bld_err(b, MF_ETYPE, &at,
                              "channel or clock parameter '%s' must be a "
                              "reference (&)", d->name);
        if (ty->ndims && !ty->is_ref)
            return ta_bld_err(b, MF_EUNSUPPORTED, &at,
                              "an array parameter by value ('%s')", d->name);
        if (ty->is_chan && ty->ndims)
            return ta_bld_err(b, MF_EUNSUPPORTED, &at,
                              "a channel array parameter ('%s')", d->name);
        ta_param *pa = &t->params[i];
        pa->name = d->name;
        pa->is_ref = ty->is_ref;
        pa->is_const = ty->is_const;
        pa->is_chan = ty->is_chan;
        pa->kind = ty->kind;
        pa->lo = ty->lo;
        pa->hi = ty->hi;
        pa->ndims = ty->ndims;
        memcpy(pa->dims, ty->dims, sizeof(pa->dims));
        if ((rc = ta_bld_declare_sym(b, SYM_PARAM, d->name, i, d)))
            return rc;
    }
    return 0;
}

static int build_edge(ta_bld *b, const ta_raw_tmpl *rt, int k, ta_edge *e,
                      ta_tbld *tb)
{
    const ta_raw_edge *re = &rt->edges[k];
    int rc = 0;
    memset(e, 0, sizeof(*e));
    e->pos = re->pos;
    b->pos = re->pos;
    e->src = find_loc(rt, re->src);
    e->dst = find_loc(rt, re->dst);
    if (e->src < 0 || e->dst < 0)
        return ta_bld_err(b, MF_EPARSE, NULL,
                          "an edge of '%s' from '%s' to '%s': no such "
                          "location", rt->name, re->src ? re->src : "?",
                          re->dst ? re->dst : "?");
    const char **names = NULL;
    ta_ptype *types = NULL;
    int nsel = 0;
    if (re->select.text && *re->select.text) {
        ta_parser *p = ta_parser_new(b->a, &re->select, re->select.pos.file,
                                     ta_bld_is_type, b);
        rc = ta_parse_select(p, &names, &types, &nsel);
        ta_parser_free(p);
        if (rc)
            return rc;
    }
    e->nsel = nsel;
    e->sel = mf_arena_alloc(b->a, (size_t)(nsel + 1) * sizeof(ta_select));
    tb->seltype[k] = types;
    for (int i = 0; i < nsel; i++) {
        ta_type ty;
        e->sel[i].name = names[i];
        b->pos = re->select.pos;
        if ((rc = ta_eval_type(b, &types[i], NULL, 0, re->select.pos.line,
                               &ty)))
            return rc;
        if (ty.kind != TA_V_INT || ty.is_chan || ty.ndims ||
            (!types[i].lo && types[i].base == PT_INT))
            return ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                              "select '%s' over a type that is not a "
                              "bounded integer range", names[i]);
        e->sel[i].lo = ty.lo;
        e->sel[i].hi = ty.hi;
    }
    b->pos = re->guard.pos;
    if ((rc = parse_expr(b, &re->guard, names, nsel, &e->guard)))
        return rc;
    if ((rc = ta_split_guard(b, e->guard, 0, &e->cc, &e->ncc,
                             &e->guard_data)))
        return rc;
    if (re->sync.text && *re->sync.text) {
        b->pos = re->sync.pos;
        ta_parser *p = ta_parser_new(b->a, &re->sync, re->sync.pos.file,
                                     ta_bld_is_type, b);
        ta_parser_bind_selects(p, names, nsel);
        rc = ta_parse_sync(p, &e->sync.dir, &e->sync.e);
        ta_parser_free(p);
        if (!rc)
            rc = ta_resolve(b, e->sync.e);
        if (rc)
            return rc;
        const ta_expr *r = e->sync.e;
        while (r && r->kind == TA_E_INDEX)
            r = r->kids[0];
        int ok = r && r->kind == TA_E_REF &&
                 (r->ref_kind == TA_R_CHAN ||
                  (r->ref_kind == TA_R_PARAM && tb->ptype[r->ref].is_chan));
        if (e->sync.dir != TA_SYNC_NONE && !ok)
            return ta_bld_err(b, MF_ETYPE, e->sync.e, "'%s' is not a channel",
                              r && r->name ? r->name : "sync");
        e->sync.chan = -1;
    }
    if (re->update.text && *re->update.text) {
        b->pos = re->update.pos;
        ta_parser *p = ta_parser_new(b->a, &re->update, re->update.pos.file,
                                     ta_bld_is_type, b);
        ta_parser_bind_selects(p, names, nsel);
        rc = ta_parse_expr_list(p, &e->upd, &e->nupd);
        ta_parser_free(p);
        for (int i = 0; !rc && i < e->nupd; i++) {
            ta_expr *u = e->upd[i];
            if ((rc = ta_resolve(b, u)))
                break;
            if (u->kind != TA_E_ASSIGN && u->kind != TA_E_INCDEC &&
                u->kind != TA_E_CALL)
                rc = ta_bld_err(b, MF_ETYPE, u,
                                "an update that assigns nothing");
        }
        if (rc)
            return rc;
    }
    return 0;
}

int ta_bld_template(ta_bld *b, int ti)
{
    const ta_raw_tmpl *rt = &b->raw->tmpls[ti];
    ta_tmpl *t = &b->net->tmpls[ti];
    ta_tbld *tb = &b->tb[ti];
    var_vec tvars = {0};
    pdecl_ptr_vec tdecl = {0};
    func_vec tfuncs = {0};
    int rc;
    b->cur = ti;
    t->name = rt->name;
    t->pos = rt->pos;
    b->pos = rt->pos;
    for (int i = 0; i < ti; i++)
        if (!strcmp(b->raw->tmpls[i].name, rt->name))
            return ta_bld_err(b, MF_ETYPE, NULL, "template '%s' twice",
                              rt->name);
    if ((rc = build_params(b, rt, t, tb)))
        goto cleanup;
    ta_pdecls ds;
    b->pos = rt->decls.pos;
    if ((rc = ta_bld_parse_decls(b, &rt->decls, &ds)) ||
        (rc = declare_all(b, &ds, &tvars, &tdecl, &tfuncs)))
        goto cleanup;
    t->nvars = tvars.n;
    t->vars = mf_arena_alloc(b->a, (size_t)(tvars.n + 1) * sizeof(ta_var));
    if (tvars.n)
        memcpy(t->vars, tvars.v, (size_t)tvars.n * sizeof(ta_var));
    tb->vdecl = mf_arena_alloc(b->a, (size_t)(tdecl.n + 1) * sizeof(void *));
    if (tdecl.n)
        memcpy(tb->vdecl, tdecl.v, (size_t)tdecl.n * sizeof(void *));
    t->nfuncs = tfuncs.n;
    t->funcs = mf_arena_alloc(b->a, (size_t)(tfuncs.n + 1) * sizeof(ta_func));
    if (tfuncs.n)
        memcpy(t->funcs, tfuncs.v, (size_t)tfuncs.n * sizeof(ta_func));

    t->nlocs = rt->nlocs;
    t->locs = mf_arena_alloc(b->a, (size_t)(rt->nlocs + 1) * sizeof(ta_loc));
    for (int i = 0; i < rt->nlocs; i++) {
        const ta_raw_loc *rl = &rt->locs[i];
        ta_loc *l = &t->locs[i];
        l->id = rl->id;
        l->name = rl->name;
        l->urgent = rl->urgent;
        l->committed = rl->committed;
        l->removed = rl->removed;
        l->pos = rl->pos;
        b->pos = rl->pos;
        if (find_loc(rt, rl->id) != i) {
            rc = ta_bld_err(b, MF_EPARSE, NULL, "location id '%s' twice in "
                            "'%s'", rl->id ? rl->id : "?", rt->name);
            goto cleanup;
        }
        b->pos = rl->inv.pos;
        if ((rc = parse_expr(b, &rl->inv, NULL, 0, &l->inv)) ||
            (rc = ta_split_inv(b, l->inv, 0, &l->cc, &l->ncc, &l->inv_data)))
            goto cleanup;
    }
    b->pos = rt->pos;
    t->init = find_loc(rt, rt->init);
    if (t->init < 0) {
        rc = ta_bld_err(b, MF_EPARSE, NULL,
                        "template '%s' has no initial location", rt->name);
        goto cleanup;
    }
    t->nedges = rt->nedges;
    t->edges = mf_arena_alloc(b->a, (size_t)(rt->nedges + 1) * sizeof(ta_edge));
    tb->seltype = mf_arena_alloc(b->a, (size_t)(rt->nedges + 1) *
                                           sizeof(ta_ptype *));
    for (int k = 0; k < rt->nedges; k++)
        if ((rc = build_edge(b, rt, k, &t->edges[k], tb)))
            goto cleanup;
cleanup:
    MF_VEC_FREE(tvars);
    MF_VEC_FREE(tdecl);
    MF_VEC_FREE(tfuncs);
    return rc;
}

