/* print.c - the flattened network as text (ta_net_print): the canonical
 * form `mutfarm model print` shows for a timed model and its hash is
 * computed from. It is for reading, not for reading back: the model in
 * its own format is the XML or JSON the reader read. */
#include "ta_int.h"

#include <string.h>

static const char *kind_str(const ta_var *v)
{
    switch (v->kind) {
    case TA_V_CLOCK: return "clock";
    case TA_V_BOOL: return "bool";
    case TA_V_CONST: return v->is_bool ? "const bool" : "const int";
    default: return "int";
    }
}

static void print_var(mf_buf *b, const ta_var *v)
{
    mf_buf_printf(b, "%s", kind_str(v));
    if (v->kind == TA_V_INT || (v->kind == TA_V_CONST && !v->is_bool))
        mf_buf_printf(b, "[%lld,%lld]", (long long)v->lo, (long long)v->hi);
    mf_buf_printf(b, " %s", v->name);
    for (int d = 0; d < v->ndims; d++)
        mf_buf_printf(b, "[%d]", v->dims[d]);
    if (v->kind != TA_V_CLOCK) {
        mf_buf_puts(b, " = ");
        if (v->ncells > 1)
            mf_buf_puts(b, "{");
        for (int i = 0; i < v->ncells; i++)
            mf_buf_printf(b, "%s%lld", i ? ", " : "", (long long)v->init[i]);
        if (v->ncells > 1)
            mf_buf_puts(b, "}");
    }
    mf_buf_puts(b, ";\n");
}

static void indent(mf_buf *b, int depth)
{
    for (int i = 0; i < depth; i++)
        mf_buf_puts(b, "    ");
}

static void print_stmt(mf_buf *b, const ta_net *n, const ta_func *f,
                       const ta_stmt *s, int depth)
{
    indent(b, depth);
    switch (s->kind) {
    case TA_S_EXPR:
        ta_print_expr_flat(b, n, s->e);
        mf_buf_puts(b, ";\n");
        return;
    case TA_S_BLOCK:
        mf_buf_puts(b, "{\n");
        for (int i = 0; i < s->nkids; i++)
            print_stmt(b, n, f, s->kids[i], depth + 1);
        indent(b, depth);
        mf_buf_puts(b, "}\n");
        return;
    case TA_S_IF:
        mf_buf_puts(b, "if (");
        ta_print_expr_flat(b, n, s->e);
        mf_buf_puts(b, ")\n");
        print_stmt(b, n, f, s->kids[0], depth + 1);
        if (s->nkids > 1) {
            indent(b, depth);
            mf_buf_puts(b, "else\n");
            print_stmt(b, n, f, s->kids[1], depth + 1);
        }
        return;
    case TA_S_WHILE:
        mf_buf_puts(b, "while (");
        ta_print_expr_flat(b, n, s->e);
        mf_buf_puts(b, ")\n");
        print_stmt(b, n, f, s->kids[0], depth + 1);
        return;
    case TA_S_DO:
        mf_buf_puts(b, "do\n");
        print_stmt(b, n, f, s->kids[0], depth + 1);
        indent(b, depth);
        mf_buf_puts(b, "while (");
        ta_print_expr_flat(b, n, s->e);
        mf_buf_puts(b, ");\n");
        return;
    case TA_S_FOR:
        mf_buf_puts(b, "for (");
        if (s->init)
            ta_print_expr_flat(b, n, s->init);
        mf_buf_puts(b, "; ");
        if (s->e)
            ta_print_expr_flat(b, n, s->e);
        mf_buf_puts(b, "; ");
        if (s->step)
            ta_print_expr_flat(b, n, s->step);
        mf_buf_puts(b, ")\n");
        print_stmt(b, n, f, s->kids[0], depth + 1);
        return;
    case TA_S_RETURN:
        mf_buf_puts(b, "return");
        if (s->e) {
            mf_buf_puts(b, " ");
            ta_print_expr_flat(b, n, s->e);
        }
        mf_buf_puts(b, ";\n");
        return;
    case TA_S_LOCAL: {
        const ta_local *l = &f->locals[s->local];
        if (l->kind == TA_V_BOOL)
            mf_buf_printf(b, "bool %s", l->name);
        else
            mf_buf_printf(b, "int[%lld,%lld] %s", (long long)l->lo,
                          (long long)l->hi, l->name);
        for (int d = 0; d < l->ndims; d++)
            mf_buf_printf(b, "[%d]", l->dims[d]);
        if (s->e) {
            mf_buf_puts(b, " = ");
            ta_print_expr_flat(b, n, s->e);
        }
        mf_buf_puts(b, ";\n");
        return;
    }
    }
}

static void print_func(mf_buf *b, const ta_net *n, const ta_func *f)
{
    if (f->is_void)
        mf_buf_puts(b, "void");
    else if (f->ret == TA_V_BOOL)
        mf_buf_puts(b, "bool");
    else
        mf_buf_printf(b, "int[%lld,%lld]", (long long)f->ret_lo,
                      (long long)f->ret_hi);
    mf_buf_printf(b, " %s(", f->name);
    for (int i = 0; i < f->nparams; i++) {
        const ta_local *l = &f->locals[i];
        mf_buf_printf(b, "%s%s %s%s", i ? ", " : "",
                      l->kind == TA_V_BOOL ? "bool" : "int",
                      l->is_ref ? "&" : "", l->name);
    }
    mf_buf_puts(b, ")\n");
    print_stmt(b, n, f, f->body, 0);
}

static const char *role_str(ta_role r)
{
    return r == TA_ROLE_INPUT ? "input" : r == TA_ROLE_OUTPUT ? "output"
                                                              : "internal";
}

static void print_edge(mf_buf *b, const ta_net *n, const ta_proc *p,
                       const ta_edge *e)
{
    const ta_loc *s = &p->locs[e->src], *d = &p->locs[e->dst];
    mf_buf_printf(b, "    edge %s -> %s", s->name ? s->name : s->id,
                  d->name ? d->name : d->id);
    for (int i = 0; i < e->nsel; i++)
        mf_buf_printf(b, "%s%s : int[%lld,%lld]", i ? ", " : " select ",
                      e->sel[i].name, (long long)e->sel[i].lo,
                      (long long)e->sel[i].hi);
    if (e->guard) {
        mf_buf_puts(b, " guard ");
        ta_print_expr_flat(b, n, e->guard);
    }
    if (e->sync.dir != TA_SYNC_NONE) {
        mf_buf_puts(b, " sync ");
        ta_print_expr_flat(b, n, e->sync.e);
        mf_buf_puts(b, e->sync.dir == TA_SYNC_SEND ? "!" : "?");
    }
    for (int i = 0; i < e->nupd; i++) {
        mf_buf_puts(b, i ? ", " : " do ");
        ta_print_expr_flat(b, n, e->upd[i]);
    }
    mf_buf_puts(b, "\n");
}

void ta_net_print(mf_buf *b, const ta_net *n)
{
    mf_buf_printf(b, "// the flattened network (%s)\n",
                  n->format == TA_FMT_ECDAR ? "Ecdar" : "UPPAAL");
    for (int i = 0; i < n->nvars; i++)
        print_var(b, &n->vars[i]);
    for (int i = 0; i < n->nchans; i++) {
        const ta_chan *c = &n->chans[i];
        mf_buf_printf(b, "%s%schan %s; // %s\n", c->urgent ? "urgent " : "",
                      c->kind == TA_CH_BROADCAST ? "broadcast " : "", c->name,
                      role_str(c->role));
    }
    for (int i = 0; i < n->nfuncs; i++)
        print_func(b, n, &n->funcs[i]);
    for (int p = 0; p < n->nprocs; p++) {
        const ta_proc *pr = &n->procs[p];
        mf_buf_printf(b, "process %s = %s(", pr->name, n->tmpls[pr->tmpl].name);
        for (int i = 0; i < pr->nargs; i++) {
            if (i)
                mf_buf_puts(b, ", ");
            ta_print_expr_flat(b, n, pr->args[i]);
        }
        mf_buf_printf(b, ")%s\n", pr->is_env ? " // environment" : "");
        for (int i = 0; i < pr->nlocs; i++) {
            const ta_loc *l = &pr->locs[i];
            mf_buf_printf(b, "    location %s", l->name ? l->name : l->id);
            if (i == pr->init)
                mf_buf_puts(b, " initial");
            if (l->urgent)
                mf_buf_puts(b, " urgent");
            if (l->committed)
                mf_buf_puts(b, " committed");
            if (l->removed)
                mf_buf_puts(b, " removed");
            if (l->inv) {
                mf_buf_puts(b, " invariant ");
                ta_print_expr_flat(b, n, l->inv);
            }
            mf_buf_puts(b, "\n");
        }
        for (int k = 0; k < pr->nedges; k++)
            print_edge(b, n, pr, &pr->edges[k]);
    }
}
