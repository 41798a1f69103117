/* flatten.c - the processes of a network (ta_flatten): the system text's
 * declarations and instantiations read, the system line's processes made
 * (a template named there without arguments is instantiated for every
 * value of its parameters, as UPPAAL does), and each process's copy of
 * its template's variables, functions, locations and edges made with the
 * parameters bound, names resolved to flat variables and constants
 * folded; guards and invariants split into clock constraints and a
 * discrete part (ta_split_guard, ta_split_inv), where a clock anywhere
 * else is refused. */
#include "ta_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most processes one template line may expand to. */
#define MAX_EXPAND 4096

/* ---- substitution -------------------------------------------------------------- */

/* A flat copy of the template-level e in b->inst's bindings, constant
 * subexpressions folded; NULL and *rc set on an error. */
static ta_expr *subst(ta_bld *b, const ta_expr *e, int *rc)
{
    if (!e || *rc)
        return NULL;
    const ta_inst *in = b->inst;
    if (e->kind == TA_E_REF) {
        if (e->ref_kind == TA_R_PARAM) {
            if (in->pref[e->ref])
                return ta_expr_copy(b->a, in->pref[e->ref]);
            ta_expr *x = ta_expr_new(b->a, TA_E_REF, e->line, e->col);
            x->name = e->name;
            if (in->pvar[e->ref] >= 0) {
                x->ref_kind = TA_R_VAR;
                x->ref = in->pvar[e->ref];
                return x;
            }
            x->kind = TA_E_INT;
            x->ival = in->pval[e->ref];
            return x;
        }
        if (e->ref_kind == TA_R_TVAR) {
            ta_expr *x = ta_expr_new(b->a, TA_E_REF, e->line, e->col);
            x->name = e->name;
            const ta_var *v = &b->vars.v[in->tvar[e->ref]];
            if (v->kind == TA_V_CONST && v->ndims == 0) {
                x->kind = TA_E_INT;
                x->ival = v->init[0];
                return x;
            }
            x->ref_kind = TA_R_VAR;
            x->ref = in->tvar[e->ref];
            return x;
        }
    }
    ta_expr *x = mf_arena_alloc(b->a, sizeof(*x));
    *x = *e;
    x->kids = NULL;
    x->nkids = 0;
    for (int i = 0; i < e->nkids; i++)
        ta_expr_add(b->a, x, subst(b, e->kids[i], rc));
    if (*rc)
        return NULL;
    if (x->kind == TA_E_CALL && x->ref_kind == TA_R_TFUNC) {
        x->ref_kind = TA_R_FUNC;
        x->ref = in->tfunc[e->ref];
    }
    /* fold: constant operators and constant array cells */
    int fold = x->kind == TA_E_UN || x->kind == TA_E_BIN ||
               x->kind == TA_E_ITE || x->kind == TA_E_INDEX;
    for (int i = 0; fold && i < x->nkids; i++)
        if (x->kids[i]->kind != TA_E_INT && x->kids[i]->kind != TA_E_BOOL &&
            !(x->kind == TA_E_INDEX && i == 0))
            fold = 0;
    if (fold && x->kind == TA_E_INDEX) {
        const ta_expr *r = x;
        while (r->kind == TA_E_INDEX)
            r = r->kids[0];
        fold = r->kind == TA_E_REF && r->ref_kind == TA_R_VAR &&
               b->vars.v[r->ref].kind == TA_V_CONST;
    }
    int64_t v;
    /* what does not fold (a division by zero) is left to the engines */
    if (fold && !ta_ceval(b, x, &v))
        return ta_expr_int(b->a, v, x->line, x->col);
    return x;
}

static ta_stmt *subst_stmt(ta_bld *b, const ta_stmt *s, int *rc)
{
    if (!s || *rc)
        return NULL;
    ta_stmt *c = mf_arena_alloc(b->a, sizeof(*c));
    *c = *s;
    c->e = subst(b, s->e, rc);
    c->init = subst(b, s->init, rc);
    c->step = subst(b, s->step, rc);
    if (s->nkids) {
        c->kids = mf_arena_alloc(b->a, (size_t)s->nkids * sizeof(*c->kids));
        for (int i = 0; i < s->nkids; i++)
            c->kids[i] = subst_stmt(b, s->kids[i], rc);
    }
    return c;
}

static int stmt_has_clock(ta_bld *b, const ta_stmt *s)
{
    if (!s)
        return 0;
    if (ta_has_clock(b, s->e) || ta_has_clock(b, s->init) || ta_has_clock(b, s->step))
        return 1;
    for (int i = 0; i < s->nkids; i++)
        if (stmt_has_clock(b, s->kids[i]))
            return 1;
    return 0;
}

/* ---- one process ----------------------------------------------------------------- */

typedef MF_VEC(ta_proc) proc_vec;

/* An lvalue a process may assign: a variable (or a cell of one) that is
 * not a constant. */
static int check_lvalue(ta_bld *b, const ta_expr *e)
{
    const ta_expr *r = e;
    while (r->kind == TA_E_INDEX)
        r = r->kids[0];
    if (r->kind != TA_E_REF ||
        (r->ref_kind != TA_R_VAR && r->ref_kind != TA_R_FLOCAL))
        return ta_bld_err(b, MF_ETYPE, e, "cannot assign to this expression");
    if (r->ref_kind == TA_R_VAR && b->vars.v[r->ref].kind == TA_V_CONST)
        return ta_bld_err(b, MF_ETYPE, e, "cannot assign to constant '%s'",
                          r->name);
    return 0;
}

static int check_update(ta_bld *b, const ta_expr *u)
{
    if (u->kind == TA_E_ASSIGN && ta_is_clock_ref(b, u->kids[0])) {
        int x;
        int rc = ta_clock_index(b, u->kids[0], &x);
        if (rc)
            return rc;
        if (u->op != TA_OP_ASSIGN || ta_has_clock(b, u->kids[1]))
            return ta_bld_err(b, MF_EUNSUPPORTED, u,
                              "a clock update that is not a reset to a "
                              "clock-free value");
        return 0;
    }
    if (ta_has_clock(b, u))
        return ta_bld_err(b, MF_ETYPE, u, "a clock used as a value in an "
                          "update");
    if (u->kind == TA_E_ASSIGN || u->kind == TA_E_INCDEC)
        return check_lvalue(b, u->kids[0]);
    return 0;
}

static int flat_sync(ta_bld *b, ta_edge *e)
{
    int rc = 0;
    ta_expr *x = subst(b, e->sync.e, &rc);
    if (rc)
        return rc;
    e->sync.e = x;
    const ta_expr *r = x;
    e->sync.index = NULL;
    if (x->kind == TA_E_INDEX) {
        r = x->kids[0];
        e->sync.index = x->kids[1];
    }
    if (r->kind != TA_E_REF || r->ref_kind != TA_R_CHAN)
        return ta_bld_err(b, MF_ETYPE, x, "not a channel");
    const ta_chan *c = &b->chans.v[r->ref];
    e->sync.chan = c->base;
    if (c->n > 1 && !e->sync.index)
        return ta_bld_err(b, MF_ETYPE, x, "channel array '%s' without an "
                          "index", r->name);
    if (c->n == 1 && e->sync.index)
        return ta_bld_err(b, MF_ETYPE, x, "'%s' is not an array", r->name);
    if (e->sync.index && e->sync.index->kind == TA_E_INT &&
        (e->sync.index->ival < 0 || e->sync.index->ival >= c->n))
        return ta_bld_err(b, MF_ETYPE, x, "index %lld out of %s[%d]",
                          (long long)e->sync.index->ival, r->name, c->n);
    return 0;
}

static int flat_edge(ta_bld *b, int ti, int k, ta_edge *e)
{
    const ta_tmpl *t = &b->net->tmpls[ti];
    int rc = 0;
    *e = t->edges[k];
    b->pos = e->pos;
    e->sel = mf_arena_alloc(b->a, (size_t)(e->nsel + 1) * sizeof(ta_select));
    for (int i = 0; i < e->nsel; i++) {
        ta_type ty;
        e->sel[i] = t->edges[k].sel[i];
        if ((rc = ta_eval_type(b, &b->tb[ti].seltype[k][i], NULL, 0,
                               e->pos.line, &ty)))
            return rc;
        e->sel[i].lo = ty.lo;
        e->sel[i].hi = ty.hi;
    }
    e->guard = subst(b, e->guard, &rc);
    if (rc || (rc = ta_split_guard(b, e->guard, 1, &e->cc, &e->ncc,
                                   &e->guard_data)))
        return rc;
    if (e->sync.dir != TA_SYNC_NONE && (rc = flat_sync(b, e)))
        return rc;
    e->upd = mf_arena_alloc(b->a, (size_t)(e->nupd + 1) * sizeof(ta_expr *));
    for (int i = 0; i < e->nupd; i++) {
        e->upd[i] = subst(b, t->edges[k].upd[i], &rc);
        if (rc || (rc = check_update(b, e->upd[i])))
            return rc;
    }
    return 0;
}

static const char *qualify(ta_bld *b, const char *proc, const char *name)
{
    size_t n = strlen(proc) + strlen(name) + 2;
    char *s = mf_arena_alloc(b->a, n);
    snprintf(s, n, "%s.%s", proc, name);
    return s;
}

/* The flat variable of a non-constant value parameter. */
static int param_var(ta_bld *b, const ta_param *pa, const char *pname,
                     int64_t v, int proc)
{
    ta_var fv = {0};
    fv.name = qualify(b, pname, pa->name);
    fv.kind = pa->kind;
    fv.is_bool = pa->kind == TA_V_BOOL;
    fv.lo = pa->lo;
    fv.hi = pa->hi;
    fv.ncells = 1;
    fv.cell = fv.clock = -1;
    fv.proc = proc;
    fv.pos = b->pos;
    fv.init = mf_arena_alloc(b->a, sizeof(int64_t));
    fv.init[0] = v;
    MF_VEC_PUSH(b->vars, fv);
    return b->vars.n - 1;
}

static int bind_args(ta_bld *b, int ti, ta_expr **args, ta_inst *in,
                     const char *pname, int proc)
{
    const ta_tmpl *t = &b->net->tmpls[ti];
    int rc = 0;
    for (int i = 0; i < t->nparams && !rc; i++) {
        const ta_param *pa = &t->params[i];
        in->pvar[i] = -1;
        in->pref[i] = NULL;
        if (!pa->is_ref) {
            int64_t v;
            if ((rc = ta_ceval(b, args[i], &v)))
                break;
            if (v < pa->lo || v > pa->hi)
                rc = ta_bld_err(b, MF_ETYPE, args[i],
                                "argument %lld of %s out of [%lld,%lld]",
                                (long long)v, pa->name, (long long)pa->lo,
                                (long long)pa->hi);
            in->pval[i] = v;
            if (!rc && !pa->is_const)
                in->pvar[i] = param_var(b, pa, pname, v, proc);
            continue;
        }
        ta_expr *f = subst(b, args[i], &rc);
        if (rc)
            break;
        const ta_expr *r = f;
        int depth = 0;
        for (; r->kind == TA_E_INDEX; r = r->kids[0], depth++)
            if (r->kids[1]->kind != TA_E_INT)
                rc = ta_bld_err(b, MF_EUNSUPPORTED, r,
                                "a reference argument indexed by a variable");
        if (rc)
            break;
        int ok = r->kind == TA_E_REF;
        if (ok && pa->is_chan) {
            ok = r->ref_kind == TA_R_CHAN &&
                 (b->chans.v[r->ref].n > 1) == (depth == 1) && depth <= 1;
        } else if (ok) {
            const ta_var *v = r->ref_kind == TA_R_VAR ? &b->vars.v[r->ref]
                                                      : NULL;
            ok = v && v->ndims - depth == pa->ndims &&
                 (v->kind == TA_V_CONST ? pa->is_const
                                        : (v->kind == TA_V_CLOCK) ==
                                              (pa->kind == TA_V_CLOCK));
        }
        if (!ok)
            rc = ta_bld_err(b, MF_ETYPE, args[i], "argument for %s%s of '%s' "
                            "is not a matching %s", pa->is_ref ? "&" : "",
                            pa->name, t->name,
                            pa->is_chan ? "channel" : "variable");
        in->pref[i] = f;
    }
    return rc;
}

static int make_proc(ta_bld *b, proc_vec *pv, int ti, const char *name,
                     ta_expr **args, int line)
{
    const ta_tmpl *t = &b->net->tmpls[ti];
    const ta_tbld *tb = &b->tb[ti];
    int p = pv->n, rc = 0;
    ta_inst in = {0};
    in.tmpl = ti;
    in.pval = mf_arena_alloc(b->a, (size_t)(t->nparams + 1) * sizeof(int64_t));
    in.pref = mf_arena_alloc(b->a, (size_t)(t->nparams + 1) * sizeof(void *));
    in.pvar = mf_arena_alloc(b->a, (size_t)(t->nparams + 1) * sizeof(int));
    in.tvar = mf_arena_alloc(b->a, (size_t)(t->nvars + 1) * sizeof(int));
    in.tconst = mf_arena_alloc(b->a, (size_t)(t->nvars + 1) * sizeof(void *));
    in.tfunc = mf_arena_alloc(b->a, (size_t)(t->nfuncs + 1) * sizeof(int));
    ta_proc pr = {0};
    pr.name = name;
    pr.tmpl = ti;
    pr.pos = b->raw->system.pos;
    if (line)
        pr.pos.line = line;
    b->pos = pr.pos;
    b->cur = -1;
    b->inst = NULL;
    if ((rc = bind_args(b, ti, args, &in, name, p)))
        return rc;
    pr.nargs = t->nparams;
    pr.args = mf_arena_alloc(b->a, (size_t)(t->nparams + 1) * sizeof(void *));
    for (int i = 0; i < t->nparams; i++)
        pr.args[i] = in.pref[i] ? in.pref[i]
                                : ta_expr_int(b->a, in.pval[i], line, 0);
    b->cur = ti;
    b->inst = &in;
    for (int v = 0; v < t->nvars && !rc; v++) {
        const ta_pdecl *d = tb->vdecl[v];
        ta_type ty;
        ta_var fv;
        b->pos = t->vars[v].pos;
        if ((rc = ta_eval_type(b, &d->type, d->dims, d->ndims, d->line, &ty)) ||
            (rc = ta_bld_make_var(b, d, &ty, &fv)))
            break;
        fv.name = qualify(b, name, d->name);
        fv.proc = p;
        if (fv.kind == TA_V_CONST)
            in.tconst[v] = fv.init;
        MF_VEC_PUSH(b->vars, fv);
        in.tvar[v] = b->vars.n - 1;
    }
    for (int f = 0; f < t->nfuncs && !rc; f++) {
        ta_func fn = t->funcs[f];
        b->pos = fn.pos;
        fn.name = qualify(b, name, fn.name);
        fn.proc = p;
        fn.body = subst_stmt(b, t->funcs[f].body, &rc);
        if (!rc && stmt_has_clock(b, fn.body))
            rc = ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                            "a clock in function '%s'", fn.name);
        MF_VEC_PUSH(b->funcs, fn);
        in.tfunc[f] = b->funcs.n - 1;
    }
    pr.nlocs = t->nlocs;
    pr.init = t->init;
    pr.locs = mf_arena_alloc(b->a, (size_t)(t->nlocs + 1) * sizeof(ta_loc));
    for (int i = 0; i < t->nlocs && !rc; i++) {
        ta_loc *l = &pr.locs[i];
        *l = t->locs[i];
        b->pos = l->pos;
        l->inv = subst(b, t->locs[i].inv, &rc);
        if (!rc)
            rc = ta_split_inv(b, l->inv, 1, &l->cc, &l->ncc, &l->inv_data);
    }
    pr.nedges = t->nedges;
    pr.edges = mf_arena_alloc(b->a, (size_t)(t->nedges + 1) * sizeof(ta_edge));
    for (int k = 0; k < t->nedges && !rc; k++)
        rc = flat_edge(b, ti, k, &pr.edges[k]);
    b->inst = NULL;
    b->cur = -1;
    if (!rc)
        MF_VEC_PUSH(*pv, pr);
    return rc;
}

/* ---- the system ------------------------------------------------------------------- */

static int find_tmpl(const ta_net *n, const char *name)
{
    for (int i = 0; i < n->ntmpls; i++)
        if (!strcmp(n->tmpls[i].name, name))
            return i;
    return -1;
}

/* Every instance of a template named on the system line without
 * arguments: one per combination of its parameters' values. */
static int expand(ta_bld *b, proc_vec *pv, int ti, int line)
{
    const ta_tmpl *t = &b->net->tmpls[ti];
    int64_t count = 1;
    ta_expr at = {.line = line};
    for (int i = 0; i < t->nparams; i++) {
        const ta_param *pa = &t->params[i];
        if (pa->is_ref || pa->kind == TA_V_CLOCK ||
            (pa->kind == TA_V_INT && pa->hi - pa->lo > MAX_EXPAND))
            return ta_bld_err(b, MF_ETYPE, &at,
                              "template '%s' on the system line needs "
                              "arguments (parameter '%s')", t->name,
                              pa->name);
        count *= pa->hi - pa->lo + 1;
        if (count > MAX_EXPAND)
            return ta_bld_err(b, MF_ELIMIT, &at,
                              "template '%s' makes more than %d processes",
                              t->name, MAX_EXPAND);
    }
    int64_t *val = mf_xcalloc((size_t)t->nparams + 1, sizeof(int64_t));
    int rc = 0;
    for (int i = 0; i < t->nparams; i++)
        val[i] = t->params[i].lo;
    for (int64_t c = 0; c < count && !rc; c++) {
        mf_buf nm = {0};
        ta_expr **args = mf_arena_alloc(b->a, (size_t)(t->nparams + 1) *
                                                  sizeof(void *));
        mf_buf_puts(&nm, t->name);
        for (int i = 0; i < t->nparams; i++) {
            mf_buf_printf(&nm, "%s%lld", i ? "," : "(", (long long)val[i]);
            args[i] = ta_expr_int(b->a, val[i], line, 0);
        }
        if (t->nparams)
            mf_buf_puts(&nm, ")");
        rc = make_proc(b, pv, ti, mf_arena_strdup(b->a, nm.data), args, line);
        mf_buf_free(&nm);
        for (int i = t->nparams - 1; i >= 0; i--) {
            if (++val[i] <= t->params[i].hi)
                break;
            val[i] = t->params[i].lo;
        }
    }
    free(val);
    return rc;
}

static int uppaal_system(ta_bld *b, proc_vec *pv)
{
    const ta_raw *raw = b->raw;
    ta_psystem sys;
    b->cur = -1;
    b->pos = raw->system.pos;
    ta_parser *p = ta_parser_new(b->a, &raw->system, raw->system.pos.file,
                                 ta_bld_is_type, b);
    int rc = ta_parse_system(p, &sys);
    ta_parser_free(p);
    if (rc || (rc = ta_bld_declare(b, &sys.decls)))
        return rc;
    for (int i = 0; i < sys.ninst && !rc; i++) {
        ta_pinst *in = &sys.inst[i];
        ta_expr at = {.line = in->line};
        int ti = find_tmpl(b->net, in->tmpl);
        if (ti < 0)
            return ta_bld_err(b, MF_ETYPE, &at, "unknown template '%s'",
                              in->tmpl);
        if (in->nargs != b->net->tmpls[ti].nparams)
            return ta_bld_err(b, MF_ETYPE, &at,
                              "template '%s' takes %d arguments, not %d",
                              in->tmpl, b->net->tmpls[ti].nparams, in->nargs);
        for (int k = 0; k < in->nargs && !rc; k++)
            rc = ta_resolve(b, in->args[k]);
        for (int k = 0; k < i; k++)
            if (!strcmp(sys.inst[k].name, in->name))
                return ta_bld_err(b, MF_ETYPE, &at, "instance '%s' twice",
                                  in->name);
    }
    for (int i = 0; i < sys.nsys && !rc; i++) {
        const char *name = sys.sys[i];
        ta_expr at = {.line = sys.sys_line[i]};
        for (int k = 0; k < i; k++)
            if (!strcmp(sys.sys[k], name))
                return ta_bld_err(b, MF_ETYPE, &at,
                                  "'%s' twice on the system line", name);
        int found = 0;
        for (int k = 0; k < sys.ninst && !found && !rc; k++)
            if (!strcmp(sys.inst[k].name, name)) {
                found = 1;
                rc = make_proc(b, pv, find_tmpl(b->net, sys.inst[k].tmpl),
                               name, sys.inst[k].args, sys.sys_line[i]);
            }
        if (found || rc)
            continue;
        int ti = find_tmpl(b->net, name);
        if (ti < 0)
            return ta_bld_err(b, MF_ETYPE, &at,
                              "unknown process or template '%s'", name);
        rc = expand(b, pv, ti, sys.sys_line[i]);
    }
    return rc;
}

int ta_flatten(ta_bld *b)
{
    proc_vec pv = {0};
    int rc = 0;
    ta_net *n = b->net;
    if (b->raw->system.text && *b->raw->system.text) {
        rc = uppaal_system(b, &pv);
    } else {
        int ti = b->raw->instance ? find_tmpl(n, b->raw->instance) : -1;
        if (ti < 0)
            rc = mf_err_set(MF_ENOTFOUND, "%s: no system to instantiate",
                            b->file);
        else if (n->tmpls[ti].nparams)
            rc = ta_bld_err(b, MF_EUNSUPPORTED, NULL,
                            "component '%s' with parameters", n->tmpls[ti].name);
        else
            rc = make_proc(b, &pv, ti, n->tmpls[ti].name, NULL,
                           n->tmpls[ti].pos.line);
    }
    if (!rc && pv.n == 0)
        rc = mf_err_set(MF_ETYPE, "%s: error: the system has no process",
                        b->file);
    if (!rc) {
        n->nprocs = pv.n;
        n->procs = mf_arena_alloc(b->a, (size_t)pv.n * sizeof(ta_proc));
        memcpy(n->procs, pv.v, (size_t)pv.n * sizeof(ta_proc));
        for (int i = 0; i < b->vars.n; i++) {
            ta_var *v = &b->vars.v[i];
            v->cell = v->clock = -1;
            if (v->kind == TA_V_CLOCK) {
                v->clock = n->nclocks;
                n->nclocks += v->ncells;
            } else if (v->kind != TA_V_CONST) {
                v->cell = n->ncells;
                n->ncells += v->ncells;
            }
        }
    }
    MF_VEC_FREE(pv);
    return rc;
}
