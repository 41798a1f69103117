/* parse_util.c - what every part of the SMV parser uses (parse.h): its
 * errors (the first one wins, with a position), the token cursor, and the
 * bounds on nesting and tree height. It parses nothing itself. */
#include "parse.h"

#include <stdio.h>
#include <string.h>

/* ---- errors ---------------------------------------------------------- */

static void verr(parser *p, const mf_token *at, int code, const char *fmt,
                 va_list ap)
{
    char what[256];
    if (p->rc)
        return;
    vsnprintf(what, sizeof(what), fmt, ap);
    p->rc = mf_err_set(code, "%s:%d:%d: %s: %s", p->file, at->line, at->col,
                       code == MF_EUNSUPPORTED ? "unsupported" : "error", what);
}

__attribute__((format(printf, 3, 4))) void *
mf_smvp_syntax(parser *p, const mf_token *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(p, at, MF_EPARSE, fmt, ap);
    va_end(ap);
    return NULL;
}

__attribute__((format(printf, 3, 4))) void *
mf_smvp_unsupported(parser *p, const mf_token *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(p, at, MF_EUNSUPPORTED, fmt, ap);
    va_end(ap);
    return NULL;
}

/* How a token reads in a message: 'text' (shortened) or "end of input". */
const char *mf_smvp_tdesc(const mf_token *t, char *buf, size_t n)
{
    if (t->kind == MF_TK_EOF)
        return "end of input";
    int len = t->len > 24 ? 24 : (int)t->len;
    snprintf(buf, n, "'%.*s'%s", len, t->s, t->len > 24 ? "..." : "");
    return buf;
}

/* ---- token helpers ------------------------------------------------------ */

mf_token *mf_smvp_peek(parser *p)
{
    return &p->t[p->i];
}

mf_token *mf_smvp_peek2(parser *p)
{
    return &p->t[p->i + 1 < p->nt ? p->i + 1 : p->nt - 1];
}

mf_token *mf_smvp_next(parser *p)
{
    mf_token *t = &p->t[p->i];
    if (t->kind != MF_TK_EOF)
        p->i++;
    return t;
}

int mf_smvp_accept(parser *p, mf_tkind k)
{
    if (mf_smvp_peek(p)->kind != k)
        return 0;
    mf_smvp_next(p);
    return 1;
}

/* Consume a `k` or fail with "expected 'k' <ctx>, found ...". */
mf_token *mf_smvp_expect(parser *p, mf_tkind k, const char *ctx)
{
    char b[40];
    mf_token *t = mf_smvp_peek(p);
    if (t->kind == k)
        return mf_smvp_next(p);
    if (k == MF_TK_ID)
        return mf_smvp_syntax(p, t, "expected identifier%s%s, found %s",
                              *ctx ? " " : "", ctx,
                              mf_smvp_tdesc(t, b, sizeof(b)));
    return mf_smvp_syntax(p, t, "expected '%s'%s%s, found %s", mf_tk_name(k),
                          *ctx ? " " : "", ctx, mf_smvp_tdesc(t, b, sizeof(b)));
}

/* Copy a temporary list into an arena array. */
mf_expr **mf_smvp_to_arena(parser *p, expr_vec *v)
{
    mf_expr **k = NULL;
    if (v->n > 0) {
        k = mf_arena_alloc(p->a, (size_t)v->n * sizeof(*k));
        memcpy(k, v->v, (size_t)v->n * sizeof(*k));
    }
    return k;
}

int mf_smvp_enter(parser *p, const mf_token *at)
{
    if (++p->nest > MAX_NEST) {
        mf_smvp_syntax(p, at, "expression nested too deeply (limit %d)",
                       MAX_NEST);
        return 0;
    }
    return 1;
}

/* Tree height bookkeeping: every parse function reports the height of what
 * it built through *h. */
int mf_smvp_height_ok(parser *p, const mf_expr *e, int h)
{
    if (h <= MAX_TREE)
        return 1;
    mf_token at = {0};
    at.line = e->line;
    at.col = e->col;
    mf_smvp_syntax(p, &at, "expression too deep (limit %d levels)", MAX_TREE);
    return 0;
}
