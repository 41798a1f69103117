/* parser.c - recursive-descent parser from SMV text to the parse tree (ast.h).
 *
 * It builds what was written: nothing is resolved or type checked, and
 * specifications are kept as text. Constructs mutfarm does not support yet
 * (reals, CONSTANTS) are refused
 * with MF_EUNSUPPORTED and a position, never skipped. Recursion and tree
 * depth are bounded so hostile input cannot exhaust the stack here or in the
 * passes that walk the tree afterwards. */
#include "ast.h"
#include "lexer.h"
#include "word.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nesting of parentheses, case, unary operators, right-associative chains. */
#define MAX_NEST 1000
/* Height of any expression tree (long left-associative chains included). */
#define MAX_TREE 10000

/* Binding strength of binary operators, loosest first. */
enum {
    P_IMPLIES = 1,
    P_IFF,
    P_ITE,
    P_OR,
    P_AND,
    P_REL,
    P_IN,
    P_UNION,
    P_RANGE,
    P_SHIFT,
    P_ADD,
    P_MUL,
};

typedef struct {
    const char *file;
    mf_token *t; /* token array, ends with MF_TK_EOF */
    int nt;
    int i;       /* current token */
    mf_arena *a; /* the AST's arena */
    mf_ast *ast; /* what is being built */
    int nest;    /* current recursion depth */
    int no_ite;  /* parsing a case condition: a top-level `?` is not ours */
    int rc;      /* first error, MF_OK if none */
} parser;

typedef MF_VEC(mf_expr *) expr_vec;

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

__attribute__((format(printf, 3, 4))) static void *
syntax(parser *p, const mf_token *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(p, at, MF_EPARSE, fmt, ap);
    va_end(ap);
    return NULL;
}

__attribute__((format(printf, 3, 4))) static void *
unsupported(parser *p, const mf_token *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(p, at, MF_EUNSUPPORTED, fmt, ap);
    va_end(ap);
    return NULL;
}

/* How a token reads in a message: 'text' (shortened) or "end of input". */
static const char *tdesc(const mf_token *t, char *buf, size_t n)
{
    if (t->kind == MF_TK_EOF)
        return "end of input";
    int len = t->len > 24 ? 24 : (int)t->len;
    snprintf(buf, n, "'%.*s'%s", len, t->s, t->len > 24 ? "..." : "");
    return buf;
}

/* ---- token helpers ------------------------------------------------------ */

static mf_token *peek(parser *p)
{
    return &p->t[p->i];
}

static mf_token *peek2(parser *p)
{
    return &p->t[p->i + 1 < p->nt ? p->i + 1 : p->nt - 1];
}

static mf_token *next(parser *p)
{
    mf_token *t = &p->t[p->i];
    if (t->kind != MF_TK_EOF)
        p->i++;
    return t;
}

static int accept(parser *p, mf_tkind k)
{
    if (peek(p)->kind != k)
        return 0;
    next(p);
    return 1;
}

/* Consume a `k` or fail with "expected 'k' <ctx>, found ...". */
static mf_token *expect(parser *p, mf_tkind k, const char *ctx)
{
    char b[40];
    mf_token *t = peek(p);
    if (t->kind == k)
        return next(p);
    if (k == MF_TK_ID)
        return syntax(p, t, "expected identifier%s%s, found %s",
                      *ctx ? " " : "", ctx, tdesc(t, b, sizeof(b)));
    return syntax(p, t, "expected '%s'%s%s, found %s", mf_tk_name(k),
                  *ctx ? " " : "", ctx, tdesc(t, b, sizeof(b)));
}

static int is_spec_kw(mf_tkind k)
{
    return k == MF_TK_SPEC || k == MF_TK_CTLSPEC || k == MF_TK_LTLSPEC ||
           k == MF_TK_INVARSPEC || k == MF_TK_PSLSPEC || k == MF_TK_FAIRNESS ||
           k == MF_TK_JUSTICE || k == MF_TK_COMPASSION || k == MF_TK_COMPUTE;
}

/* Tokens that start a new section (or end the input). */
static int is_section(mf_tkind k)
{
    return k == MF_TK_EOF || k == MF_TK_MODULE || k == MF_TK_VAR ||
           k == MF_TK_IVAR || k == MF_TK_FROZENVAR || k == MF_TK_DEFINE ||
           k == MF_TK_ASSIGN || k == MF_TK_INIT_SEC || k == MF_TK_TRANS ||
           k == MF_TK_INVAR || k == MF_TK_CONSTANTS || k == MF_TK_ISA ||
           is_spec_kw(k);
}

static char *tstr(parser *p, const mf_token *t)
{
    return mf_arena_strndup(p->a, t->s, t->len);
}

/* Copy a temporary list into an arena array. */
static mf_expr **to_arena(parser *p, expr_vec *v)
{
    mf_expr **k = NULL;
    if (v->n > 0) {
        k = mf_arena_alloc(p->a, (size_t)v->n * sizeof(*k));
        memcpy(k, v->v, (size_t)v->n * sizeof(*k));
    }
    return k;
}

static int enter(parser *p, const mf_token *at)
{
    if (++p->nest > MAX_NEST) {
        syntax(p, at, "expression nested too deeply (limit %d)", MAX_NEST);
        return 0;
    }
    return 1;
}

/* Tree height bookkeeping: every parse function reports the height of what
 * it built through *h. */
static int height_ok(parser *p, const mf_expr *e, int h)
{
    if (h <= MAX_TREE)
        return 1;
    mf_token at = {0};
    at.line = e->line;
    at.col = e->col;
    syntax(p, &at, "expression too deep (limit %d levels)", MAX_TREE);
    return 0;
}

/* ---- expressions ----------------------------------------------------------
 */

static mf_expr *parse_expr(parser *p, int *h);
static mf_expr *parse_binary(parser *p, int minprec, int *h);

/* Parse an expression where a top-level `?:` is allowed again (inside
 * brackets of any kind), whatever the surrounding context says. */
static mf_expr *parse_inner(parser *p, int *h)
{
    int saved = p->no_ite;
    p->no_ite = 0;
    mf_expr *e = parse_expr(p, h);
    p->no_ite = saved;
    return e;
}

/* identifier or `self`, then `.field` and `[index]` chains. Dotted names
 * become one MF_E_ID ("a.b.c"); indexing becomes MF_E_INDEX; a field of an
 * element with constant indices is folded into the name ("a[2].b"). The name
 * is built in one buffer and indices after the last `.` wait in a list, so a
 * long chain costs linear time and memory. */
static int at_select(parser *p);

static mf_expr *parse_ident(parser *p, int *h)
{
    mf_token *t = next(p);
    mf_buf name = {0};
    expr_vec idx = {0};
    MF_VEC(int) hs = {0};
    mf_expr *e = NULL;

    mf_buf_put(&name, t->s, t->len);
    for (;;) {
        mf_token *d = peek(p);
        if (d->kind == MF_TK_DOT) {
            next(p);
            mf_token *f = peek(p);
            if (f->kind != MF_TK_ID && f->kind != MF_TK_INT) {
                expect(p, MF_TK_ID, "after '.'");
                goto done;
            }
            next(p);
            for (int i = 0; i < idx.n; i++) {
                if (idx.v[i]->kind != MF_E_INT) {
                    unsupported(p, d,
                                "field access on an array element with a "
                                "non-constant index");
                    goto done;
                }
                mf_buf_printf(&name, "[%lld]", (long long)idx.v[i]->ival);
            }
            idx.n = hs.n = 0;
            mf_buf_puts(&name, ".");
            mf_buf_put(&name, f->s, f->len);
        } else if (d->kind == MF_TK_LBRACK && !at_select(p)) {
            int hi;
            next(p);
            mf_expr *x = parse_inner(p, &hi);
            if (!x || !expect(p, MF_TK_RBRACK, "after array index"))
                goto done;
            MF_VEC_PUSH(idx, x);
            MF_VEC_PUSH(hs, hi);
        } else {
            break;
        }
    }
    e = mf_expr_new(p->a, MF_E_ID, t->line, t->col);
    e->name = mf_arena_strndup(p->a, name.data, name.len);
    *h = 1;
    for (int i = 0; i < idx.n; i++) {
        mf_expr *x = mf_expr_new(p->a, MF_E_INDEX, t->line, t->col);
        x->kids = mf_arena_alloc(p->a, 2 * sizeof(*x->kids));
        x->kids[0] = e;
        x->kids[1] = idx.v[i];
        x->nkids = 2;
        *h = 1 + (hs.v[i] > *h ? hs.v[i] : *h);
        e = x;
        if (!height_ok(p, e, *h)) {
            e = NULL;
            break;
        }
    }
done:
    mf_buf_free(&name);
    MF_VEC_FREE(idx);
    MF_VEC_FREE(hs);
    return e;
}

static mf_expr *parse_case(parser *p, int *h)
{
    mf_token *kw = next(p);
    mf_expr *e = mf_expr_new(p->a, MF_E_CASE, kw->line, kw->col);
    expr_vec kids = {0};
    int saved = p->no_ite;
    *h = 1;
    while (peek(p)->kind != MF_TK_esac) {
        int hc, hv;
        if (peek(p)->kind == MF_TK_EOF) {
            syntax(p, kw, "'case' without matching 'esac'");
            goto fail;
        }
        p->no_ite = 1;
        mf_expr *c = parse_expr(p, &hc);
        p->no_ite = 0;
        if (!c || !expect(p, MF_TK_COLON, "after case condition"))
            goto fail;
        mf_expr *v = parse_expr(p, &hv);
        if (!v)
            goto fail;
        if (!accept(p, MF_TK_SEMI) && peek(p)->kind != MF_TK_esac) {
            expect(p, MF_TK_SEMI, "after case branch");
            goto fail;
        }
        MF_VEC_PUSH(kids, c);
        MF_VEC_PUSH(kids, v);
        if (hc + 1 > *h)
            *h = hc + 1;
        if (hv + 1 > *h)
            *h = hv + 1;
    }
    next(p);
    p->no_ite = saved;
    if (kids.n == 0) {
        MF_VEC_FREE(kids);
        return syntax(p, kw, "'case' without branches");
    }
    e->kids = to_arena(p, &kids);
    e->nkids = kids.n;
    MF_VEC_FREE(kids);
    return e;
fail:
    p->no_ite = saved;
    MF_VEC_FREE(kids);
    return NULL;
}

/* Comma-separated expressions up to `close`, at least one. */
static int parse_list(parser *p, expr_vec *v, mf_tkind close, const char *ctx,
                      int *h)
{
    *h = 0;
    do {
        int hk;
        mf_expr *k = parse_inner(p, &hk);
        if (!k)
            return 0;
        MF_VEC_PUSH(*v, k);
        if (hk > *h)
            *h = hk;
    } while (accept(p, MF_TK_COMMA));
    return expect(p, close, ctx) != NULL;
}

static mf_expr *parse_call(parser *p, int *h)
{
    static const struct {
        mf_tkind k;
        mf_fn fn;
        int arity; /* 0: one or more */
    } fns[] = {
        {MF_TK_min, MF_FN_MIN, 2},   {MF_TK_max, MF_FN_MAX, 2},
        {MF_TK_abs, MF_FN_ABS, 1},   {MF_TK_toint, MF_FN_TOINT, 1},
        {MF_TK_bool, MF_FN_BOOL, 1}, {MF_TK_count, MF_FN_COUNT, 0},
        {MF_TK_word1, MF_FN_WORD1, 1}, {MF_TK_signed, MF_FN_SIGNED, 1},
        {MF_TK_unsigned, MF_FN_UNSIGNED, 1}, {MF_TK_extend, MF_FN_EXTEND, 2},
        {MF_TK_resize, MF_FN_RESIZE, 2}, {MF_TK_sizeof, MF_FN_SIZEOF, 1},
        {MF_TK_swconst, MF_FN_SWCONST, 2}, {MF_TK_uwconst, MF_FN_UWCONST, 2},
    };
    mf_token *t = next(p);
    size_t f = 0;
    while (fns[f].k != t->kind)
        f++;
    expr_vec args = {0};
    mf_expr *e = mf_expr_new(p->a, MF_E_CALL, t->line, t->col);
    e->op = (int)fns[f].fn;
    if (!expect(p, MF_TK_LPAREN, "after function name") ||
        !parse_list(p, &args, MF_TK_RPAREN, "after arguments", h)) {
        MF_VEC_FREE(args);
        return NULL;
    }
    if (fns[f].arity && args.n != fns[f].arity) {
        MF_VEC_FREE(args);
        return syntax(p, t, "%s() takes %d argument%s", mf_fn_str(fns[f].fn),
                      fns[f].arity, fns[f].arity == 1 ? "" : "s");
    }
    e->kids = to_arena(p, &args);
    e->nkids = args.n;
    MF_VEC_FREE(args);
    (*h)++;
    return e;
}

/* A word constant token as an MF_E_WORD node (its text read by word.c). */
static mf_expr *word_const(parser *p)
{
    mf_token *t = next(p);
    char err[96];
    int64_t v;
    int wty, rc = mf_word_parse(&v, &wty, t->s, t->len, err, sizeof err);
    if (rc == -2)
        return unsupported(p, t, "%s", err);
    if (rc < 0)
        return syntax(p, t, "%s: %.*s", err, (int)t->len, t->s);
    mf_expr *e = mf_expr_new(p->a, MF_E_WORD, t->line, t->col);
    e->ival = v;
    e->wty = wty;
    return e;
}

static mf_expr *parse_primary(parser *p, int *h)
{
    char b[40];
    mf_token *t = peek(p);
    mf_expr *e;
    *h = 1;
    switch (t->kind) {
    case MF_TK_INT:
        next(p);
        return mf_expr_int(p->a, t->ival, t->line, t->col);
    case MF_TK_TRUE:
    case MF_TK_FALSE:
        next(p);
        return mf_expr_bool(p->a, t->kind == MF_TK_TRUE, t->line, t->col);
    case MF_TK_ID:
        if (peek2(p)->kind == MF_TK_LPAREN)
            return unsupported(p, t, "function '%.*s'", (int)t->len, t->s);
        return parse_ident(p, h);
    case MF_TK_self:
        return parse_ident(p, h);
    case MF_TK_next: {
        int hk;
        next(p);
        if (!expect(p, MF_TK_LPAREN, "after 'next'"))
            return NULL;
        mf_expr *k = parse_inner(p, &hk);
        if (!k || !expect(p, MF_TK_RPAREN, "to close 'next('"))
            return NULL;
        e = mf_expr_un(p->a, MF_E_NEXT, k);
        e->line = t->line;
        e->col = t->col;
        *h = hk + 1;
        return e;
    }
    case MF_TK_LPAREN:
        next(p);
        e = parse_inner(p, h);
        if (!e || !expect(p, MF_TK_RPAREN, "to close '('"))
            return NULL;
        return e;
    case MF_TK_case:
        return parse_case(p, h);
    case MF_TK_LBRACE: {
        expr_vec v = {0};
        next(p);
        e = mf_expr_new(p->a, MF_E_SET, t->line, t->col);
        if (!parse_list(p, &v, MF_TK_RBRACE, "to close '{'", h)) {
            MF_VEC_FREE(v);
            return NULL;
        }
        e->kids = to_arena(p, &v);
        e->nkids = v.n;
        MF_VEC_FREE(v);
        (*h)++;
        return e;
    }
    case MF_TK_min:
    case MF_TK_max:
    case MF_TK_abs:
    case MF_TK_toint:
    case MF_TK_bool:
    case MF_TK_count:
    case MF_TK_word1:
    case MF_TK_extend:
    case MF_TK_resize:
    case MF_TK_sizeof:
    case MF_TK_swconst:
    case MF_TK_uwconst:
        return parse_call(p, h);
    case MF_TK_signed:
    case MF_TK_unsigned:
        if (peek2(p)->kind == MF_TK_LPAREN)
            return parse_call(p, h);
        return unsupported(p, t, "word expressions ('%s')",
                           mf_tk_name(t->kind));
    case MF_TK_WORDC:
        return word_const(p);
    case MF_TK_word:
        return unsupported(p, t, "word expressions ('%s')",
                           mf_tk_name(t->kind));
    case MF_TK_init:
        return syntax(p, t, "'init(...)' is only allowed on the left of ':='");
    default:
        return syntax(p, t, "expected expression, found %s",
                      tdesc(t, b, sizeof(b)));
    }
}

/* `e[hi:lo]`, the bounds integer literals, after the `[` at `at`; e is the
 * selected word. */
static mf_expr *parse_select(parser *p, mf_expr *e, const mf_token *at,
                             int *h)
{
    mf_token *hi = peek(p);
    if (!expect(p, MF_TK_INT, "as the high bit of a bit selection") ||
        !expect(p, MF_TK_COLON, "in a bit selection"))
        return NULL;
    mf_token *lo = peek(p);
    if (!expect(p, MF_TK_INT, "as the low bit of a bit selection") ||
        !expect(p, MF_TK_RBRACK, "to close a bit selection"))
        return NULL;
    mf_expr *x = mf_expr_new(p->a, MF_E_CALL, at->line, at->col);
    x->op = MF_FN_SELECT;
    mf_expr_add(p->a, x, e);
    mf_expr_add(p->a, x, mf_expr_int(p->a, hi->ival, hi->line, hi->col));
    mf_expr_add(p->a, x, mf_expr_int(p->a, lo->ival, lo->line, lo->col));
    (*h)++;
    return height_ok(p, x, *h) ? x : NULL;
}

/* Is the `[` at the current token a bit selection `[INT:`? */
static int at_select(parser *p)
{
    return p->i + 2 < p->nt && p->t[p->i].kind == MF_TK_LBRACK &&
           p->t[p->i + 1].kind == MF_TK_INT &&
           p->t[p->i + 2].kind == MF_TK_COLON;
}

/* A primary followed by bit selections `[hi:lo]` (NuSMV's highest
 * precedence; identifiers take their array indices in parse_ident). */
static mf_expr *parse_postfix(parser *p, int *h)
{
    mf_expr *e = parse_primary(p, h);
    while (e && at_select(p))
        e = parse_select(p, e, next(p), h);
    return e;
}

static mf_expr *parse_unary(parser *p, int *h);

/* `!e`: binds tighter than `::`, which binds tighter than unary minus
 * (NuSMV 2.6's table); `!-x` still reads as `!(-x)`. */
static mf_expr *parse_not(parser *p, int *h)
{
    mf_token *t = peek(p);
    if (t->kind != MF_TK_NOT)
        return parse_postfix(p, h);
    if (!enter(p, t))
        return NULL;
    next(p);
    mf_expr *k = peek(p)->kind == MF_TK_MINUS ? parse_unary(p, h)
                                               : parse_not(p, h);
    mf_expr *e = NULL;
    if (k) {
        e = mf_expr_un(p->a, MF_E_NOT, k);
        e->line = t->line;
        e->col = t->col;
        (*h)++;
        if (!height_ok(p, e, *h))
            e = NULL;
    }
    p->nest--;
    return e;
}

/* w1 :: w2 :: ..., left associative. */
static mf_expr *parse_concat(parser *p, int *h)
{
    mf_expr *l = parse_not(p, h);
    while (l && peek(p)->kind == MF_TK_CONCAT) {
        int hr;
        next(p);
        mf_expr *r = parse_not(p, &hr);
        if (!r)
            return NULL;
        l = mf_expr_bin(p->a, MF_OP_CONCAT, l, r);
        if (hr > *h)
            *h = hr;
        (*h)++;
        if (!height_ok(p, l, *h))
            return NULL;
    }
    return l;
}

static mf_expr *parse_unary(parser *p, int *h)
{
    mf_token *t = peek(p);
    mf_expr *e = NULL, *k;
    if (t->kind != MF_TK_MINUS)
        return parse_concat(p, h);
    if (!enter(p, t))
        return NULL;
    next(p);
    int lit = peek(p)->kind == MF_TK_INT || peek(p)->kind == MF_TK_WORDC;
    k = parse_unary(p, h);
    if (!k)
        goto done;
    if (lit && (k->kind == MF_E_INT || k->kind == MF_E_WORD)) {
        /* `-3` is the literal -3, so enumerations, ranges and number
         * mutations see one number; `-0sd8_5` likewise the word -5. */
        k->ival = k->kind == MF_E_INT ? -k->ival : mf_word_neg(k->wty, k->ival);
        k->line = t->line;
        k->col = t->col;
        e = k;
        goto done;
    }
    e = mf_expr_un(p->a, MF_E_NEG, k);
    e->line = t->line;
    e->col = t->col;
    (*h)++;
    if (!height_ok(p, e, *h))
        e = NULL;
done:
    p->nest--;
    return e;
}

static int binop_of(mf_tkind k, int *prec, int *right)
{
    *right = 0;
    switch (k) {
    case MF_TK_IMPLIES:
        *prec = P_IMPLIES;
        *right = 1;
        return MF_OP_IMPLIES;
    case MF_TK_IFF:
        *prec = P_IFF;
        return MF_OP_IFF;
    case MF_TK_OR:
        *prec = P_OR;
        return MF_OP_OR;
    case MF_TK_xor:
        *prec = P_OR;
        return MF_OP_XOR;
    case MF_TK_xnor:
        *prec = P_OR;
        return MF_OP_XNOR;
    case MF_TK_AND:
        *prec = P_AND;
        return MF_OP_AND;
    case MF_TK_EQ:
        *prec = P_REL;
        return MF_OP_EQ;
    case MF_TK_NE:
        *prec = P_REL;
        return MF_OP_NE;
    case MF_TK_LT:
        *prec = P_REL;
        return MF_OP_LT;
    case MF_TK_LE:
        *prec = P_REL;
        return MF_OP_LE;
    case MF_TK_GT:
        *prec = P_REL;
        return MF_OP_GT;
    case MF_TK_GE:
        *prec = P_REL;
        return MF_OP_GE;
    case MF_TK_in:
        *prec = P_IN;
        return MF_OP_IN;
    case MF_TK_union:
        *prec = P_UNION;
        return MF_OP_UNION;
    case MF_TK_DOTDOT:
        *prec = P_RANGE;
        return -2;
    case MF_TK_SHL:
        *prec = P_SHIFT;
        return MF_OP_SHL;
    case MF_TK_SHR:
        *prec = P_SHIFT;
        return MF_OP_SHR;
    case MF_TK_PLUS:
        *prec = P_ADD;
        return MF_OP_ADD;
    case MF_TK_MINUS:
        *prec = P_ADD;
        return MF_OP_SUB;
    case MF_TK_STAR:
        *prec = P_MUL;
        return MF_OP_MUL;
    case MF_TK_SLASH:
        *prec = P_MUL;
        return MF_OP_DIV;
    case MF_TK_mod:
        *prec = P_MUL;
        return MF_OP_MOD;
    default:
        return -1;
    }
}

/* Precedence climbing over the binary operators and `?:`. */
static mf_expr *parse_binary(parser *p, int minprec, int *h)
{
    mf_expr *l = NULL;
    if (!enter(p, peek(p)))
        goto done;
    l = parse_unary(p, h);
    while (l) {
        mf_token *t = peek(p);
        int prec, right, hr, op;
        if (t->kind == MF_TK_QUEST) {
            int hm, he;
            if (minprec > P_ITE || p->no_ite)
                break;
            next(p);
            mf_expr *m = parse_inner(p, &hm);
            if (!m || !expect(p, MF_TK_COLON, "in '?:'")) {
                l = NULL;
                break;
            }
            mf_expr *r = parse_binary(p, P_ITE, &he);
            if (!r) {
                l = NULL;
                break;
            }
            mf_expr *x = mf_expr_new(p->a, MF_E_ITE, l->line, l->col);
            x->kids = mf_arena_alloc(p->a, 3 * sizeof(*x->kids));
            x->kids[0] = l;
            x->kids[1] = m;
            x->kids[2] = r;
            x->nkids = 3;
            if (hm > *h)
                *h = hm;
            if (he > *h)
                *h = he;
            (*h)++;
            l = height_ok(p, x, *h) ? x : NULL;
            continue;
        }
        op = binop_of(t->kind, &prec, &right);
        if (op == -1 || prec < minprec)
            break;
        next(p);
        mf_expr *r = parse_binary(p, right ? prec : prec + 1, &hr);
        if (!r) {
            l = NULL;
            break;
        }
        if (op == -2) {
            mf_expr *x = mf_expr_new(p->a, MF_E_RANGE, l->line, l->col);
            x->kids = mf_arena_alloc(p->a, 2 * sizeof(*x->kids));
            x->kids[0] = l;
            x->kids[1] = r;
            x->nkids = 2;
            l = x;
            if (peek(p)->kind == MF_TK_DOTDOT) {
                l = syntax(p, peek(p), "a range cannot be a bound of '..'");
                break;
            }
        } else {
            l = mf_expr_bin(p->a, (mf_binop)op, l, r);
        }
        if (hr > *h)
            *h = hr;
        (*h)++;
        if (!height_ok(p, l, *h))
            l = NULL;
    }
done:
    p->nest--;
    return l;
}

static mf_expr *parse_expr(parser *p, int *h)
{
    return parse_binary(p, P_IMPLIES, h);
}

static mf_expr *expr(parser *p)
{
    int h;
    return parse_expr(p, &h);
}

/* ---- types and declarations -------------------------------------------------
 */

static mf_ast_type *parse_type(parser *p);

/* `lo..hi` with constant-expression bounds, for ranges and arrays. */
static int parse_bounds(parser *p, mf_ast_type *ty)
{
    int h;
    ty->lo = parse_binary(p, P_RANGE + 1, &h);
    if (!ty->lo || !expect(p, MF_TK_DOTDOT, "in range type"))
        return 0;
    ty->hi = parse_binary(p, P_RANGE + 1, &h);
    return ty->hi != NULL;
}

static mf_ast_type *parse_type(parser *p)
{
    char b[40];
    mf_token *t = peek(p);
    mf_ast_type *ty = mf_arena_alloc(p->a, sizeof(*ty));
    ty->line = t->line;
    ty->col = t->col;
    switch (t->kind) {
    case MF_TK_boolean:
        next(p);
        ty->kind = MF_AT_BOOL;
        return ty;
    case MF_TK_LBRACE: {
        expr_vec v = {0};
        next(p);
        ty->kind = MF_AT_ENUM;
        do {
            mf_token *x = peek(p);
            mf_expr *e = NULL;
            if (x->kind == MF_TK_ID) {
                next(p);
                e = mf_expr_new(p->a, MF_E_SYM, x->line, x->col);
                e->name = tstr(p, x);
            } else if (x->kind == MF_TK_INT) {
                next(p);
                e = mf_expr_int(p->a, x->ival, x->line, x->col);
            } else if (x->kind == MF_TK_MINUS && peek2(p)->kind == MF_TK_INT) {
                next(p);
                e = mf_expr_int(p->a, -next(p)->ival, x->line, x->col);
            } else if (x->kind == MF_TK_TRUE || x->kind == MF_TK_FALSE) {
                next(p);
                e = mf_expr_bool(p->a, x->kind == MF_TK_TRUE, x->line, x->col);
            } else if (x->kind == MF_TK_WORDC) {
                MF_VEC_FREE(v);
                return unsupported(p, x, "word constants in enumerations");
            } else {
                MF_VEC_FREE(v);
                return syntax(p, x, "expected enumeration value, found %s",
                              tdesc(x, b, sizeof(b)));
            }
            MF_VEC_PUSH(v, e);
        } while (accept(p, MF_TK_COMMA));
        if (!expect(p, MF_TK_RBRACE, "to close enumeration")) {
            MF_VEC_FREE(v);
            return NULL;
        }
        ty->vals = to_arena(p, &v);
        ty->nvals = v.n;
        MF_VEC_FREE(v);
        return ty;
    }
    case MF_TK_array:
        next(p);
        ty->kind = MF_AT_ARRAY;
        if (!enter(p, t))
            return NULL;
        if (parse_bounds(p, ty) && expect(p, MF_TK_of, "after array bounds"))
            ty->elem = parse_type(p);
        p->nest--;
        return ty->elem ? ty : NULL;
    case MF_TK_process: {
        /* `process M(args)`: an instance that moves by interleaving
         * (model/process.c) */
        next(p);
        if (peek(p)->kind != MF_TK_ID)
            return syntax(p, peek(p), "expected a module after 'process'");
        mf_ast_type *in = parse_type(p);
        if (in && in->kind != MF_AT_INST)
            return syntax(p, t, "expected a module instance after 'process'");
        if (in) {
            in->process = 1;
            in->line = t->line;
            in->col = t->col;
        }
        return in;
    }
    case MF_TK_signed:
    case MF_TK_unsigned:
    case MF_TK_word: {
        int h;
        next(p);
        ty->kind = MF_AT_WORD;
        ty->is_signed = t->kind == MF_TK_signed;
        if ((t->kind != MF_TK_word && !expect(p, MF_TK_word, "in word type")) ||
            !expect(p, MF_TK_LBRACK, "after 'word'"))
            return NULL;
        ty->lo = parse_inner(p, &h);
        if (!ty->lo || !expect(p, MF_TK_RBRACK, "after a word's width"))
            return NULL;
        return ty;
    }
    case MF_TK_integer:
        next(p);
        ty->kind = MF_AT_INTEGER;
        return ty;
    case MF_TK_real:
        return unsupported(p, t, "real type");
    case MF_TK_ID: {
        mf_tkind after = peek2(p)->kind;
        if (after == MF_TK_LPAREN || after == MF_TK_SEMI) {
            int h;
            expr_vec v = {0};
            next(p);
            ty->kind = MF_AT_INST;
            ty->module = tstr(p, t);
            if (accept(p, MF_TK_LPAREN) && !accept(p, MF_TK_RPAREN)) {
                if (!parse_list(p, &v, MF_TK_RPAREN, "after module arguments",
                                &h)) {
                    MF_VEC_FREE(v);
                    return NULL;
                }
            }
            ty->args = to_arena(p, &v);
            ty->nargs = v.n;
            MF_VEC_FREE(v);
            return ty;
        }
        break;
    }
    default:
        break;
    }
    ty->kind = MF_AT_RANGE;
    return parse_bounds(p, ty) ? ty : NULL;
}

/* A declared or defined name: `a`, `a.b`, `a.b[2]`, `a[-1].c`, kept as text
 * without spaces. */
static const char *parse_decl_name(parser *p, const char *ctx)
{
    mf_token *t = expect(p, MF_TK_ID, ctx);
    mf_buf b = {0};
    const char *s;
    if (!t)
        return NULL;
    mf_buf_put(&b, t->s, t->len);
    for (;;) {
        if (accept(p, MF_TK_DOT)) {
            mf_token *f = peek(p);
            if (f->kind != MF_TK_ID && f->kind != MF_TK_INT) {
                expect(p, MF_TK_ID, "after '.'");
                goto fail;
            }
            next(p);
            mf_buf_puts(&b, ".");
            mf_buf_put(&b, f->s, f->len);
        } else if (accept(p, MF_TK_LBRACK)) {
            int neg = accept(p, MF_TK_MINUS);
            mf_token *n = expect(p, MF_TK_INT, "as index of a declared name");
            if (!n || !expect(p, MF_TK_RBRACK, "after index"))
                goto fail;
            mf_buf_printf(&b, "[%s%.*s]", neg ? "-" : "", (int)n->len, n->s);
        } else {
            break;
        }
    }
    s = mf_arena_strndup(p->a, b.data, b.len);
    mf_buf_free(&b);
    return s;
fail:
    mf_buf_free(&b);
    return NULL;
}

static int parse_var_section(parser *p, mf_ast_module *m, mf_declkind kind)
{
    while (!is_section(peek(p)->kind)) {
        mf_token *t = peek(p);
        mf_ast_decl d = {0};
        d.kind = kind;
        d.line = t->line;
        d.col = t->col;
        if (!(d.name = parse_decl_name(p, "in declaration")) ||
            !expect(p, MF_TK_COLON, "after declared name") ||
            !(d.type = parse_type(p)) ||
            !expect(p, MF_TK_SEMI, "after declaration"))
            return 0;
        MF_VEC_PUSH(m->decls, d);
    }
    return 1;
}

static int parse_define_section(parser *p, mf_ast_module *m)
{
    while (!is_section(peek(p)->kind)) {
        mf_token *t = peek(p);
        mf_ast_define d = {0};
        d.line = t->line;
        d.col = t->col;
        if (!(d.name = parse_decl_name(p, "in DEFINE")) ||
            !expect(p, MF_TK_BECOMES, "after defined name"))
            return 0;
        if (peek(p)->kind == MF_TK_LBRACK) {
            unsupported(p, peek(p), "array DEFINE");
            return 0;
        }
        if (!(d.body = expr(p)) || !expect(p, MF_TK_SEMI, "after definition"))
            return 0;
        MF_VEC_PUSH(m->defines, d);
    }
    return 1;
}

static mf_expr *parse_lhs(parser *p)
{
    int h;
    if (peek(p)->kind != MF_TK_ID && peek(p)->kind != MF_TK_self) {
        expect(p, MF_TK_ID, "as assigned variable");
        return NULL;
    }
    return parse_ident(p, &h);
}

static int parse_assign_section(parser *p, mf_ast_module *m)
{
    while (!is_section(peek(p)->kind)) {
        mf_token *t = peek(p);
        mf_ast_assign a = {0};
        a.line = t->line;
        a.col = t->col;
        if (t->kind == MF_TK_init || t->kind == MF_TK_next) {
            a.kind = t->kind == MF_TK_init ? MF_ASG_INIT : MF_ASG_NEXT;
            next(p);
            if (!expect(p, MF_TK_LPAREN,
                        a.kind == MF_ASG_INIT ? "after 'init'"
                                              : "after 'next'") ||
                !(a.lhs = parse_lhs(p)) ||
                !expect(p, MF_TK_RPAREN, "after assigned variable"))
                return 0;
        } else {
            a.kind = MF_ASG_INVAR;
            if (!(a.lhs = parse_lhs(p)))
                return 0;
        }
        if (!expect(p, MF_TK_BECOMES, "in assignment") || !(a.rhs = expr(p)) ||
            !expect(p, MF_TK_SEMI, "after assignment"))
            return 0;
        MF_VEC_PUSH(m->assigns, a);
    }
    return 1;
}

static int parse_constraint(parser *p, mf_ast_module *m, mf_token *kw)
{
    char b[40];
    mf_ast_constraint c = {0};
    c.kind = kw->kind == MF_TK_INIT_SEC ? MF_CON_INIT
             : kw->kind == MF_TK_TRANS  ? MF_CON_TRANS
                                        : MF_CON_INVAR;
    c.line = kw->line;
    c.col = kw->col;
    if (!(c.e = expr(p)))
        return 0;
    accept(p, MF_TK_SEMI);
    if (!is_section(peek(p)->kind)) {
        syntax(p, peek(p),
               "expected a section keyword after %s constraint, "
               "found %s",
               mf_tk_name(kw->kind), tdesc(peek(p), b, sizeof(b)));
        return 0;
    }
    MF_VEC_PUSH(m->constraints, c);
    return 1;
}

static int parse_spec(parser *p, mf_ast_module *m, mf_token *kw)
{
    mf_ast_spec s = {0};
    mf_buf b = {0};
    int first = p->i, last = p->i;
    while (!is_section(p->t[last].kind))
        last++;
    p->i = last;
    if (last > first && p->t[last - 1].kind == MF_TK_SEMI)
        last--;
    if (last == first) {
        syntax(p, kw, "empty %s", mf_tk_name(kw->kind));
        return 0;
    }
    for (int i = first; i < last; i++) {
        if (i > first)
            mf_buf_put(&b, " ", 1);
        mf_buf_put(&b, p->t[i].s, p->t[i].len);
    }
    s.keyword = mf_arena_strdup(p->a, mf_tk_name(kw->kind));
    s.text = mf_arena_strndup(p->a, b.data, b.len);
    s.line = kw->line;
    s.col = kw->col;
    mf_buf_free(&b);
    MF_VEC_PUSH(m->specs, s);
    return 1;
}

static int parse_module(parser *p)
{
    char b[40];
    mf_token *kw = next(p); /* MODULE */
    mf_token *name = expect(p, MF_TK_ID, "after MODULE");
    mf_ast_module *m;
    if (!name)
        return 0;
    m = mf_arena_alloc(p->a, sizeof(*m));
    m->name = tstr(p, name);
    m->line = kw->line;
    m->col = kw->col;
    /* Registered before it is filled, so mf_ast_free reclaims its vectors
     * whatever happens next. */
    MF_VEC_PUSH(p->ast->modules, m);
    if (accept(p, MF_TK_LPAREN)) {
        MF_VEC(const char *) v = {0};
        if (!accept(p, MF_TK_RPAREN)) {
            do {
                mf_token *t = expect(p, MF_TK_ID, "as module parameter");
                if (!t) {
                    MF_VEC_FREE(v);
                    return 0;
                }
                MF_VEC_PUSH(v, tstr(p, t));
            } while (accept(p, MF_TK_COMMA));
            if (!expect(p, MF_TK_RPAREN, "after module parameters")) {
                MF_VEC_FREE(v);
                return 0;
            }
        }
        if (v.n > 0) {
            m->params = mf_arena_alloc(p->a, (size_t)v.n * sizeof(*m->params));
            memcpy(m->params, v.v, (size_t)v.n * sizeof(*m->params));
        }
        m->nparams = v.n;
        MF_VEC_FREE(v);
    }
    for (;;) {
        mf_token *t = peek(p);
        int ok;
        switch (t->kind) {
        case MF_TK_EOF:
        case MF_TK_MODULE:
            return 1;
        case MF_TK_VAR:
        case MF_TK_IVAR:
        case MF_TK_FROZENVAR:
            next(p);
            ok = parse_var_section(p, m,
                                   t->kind == MF_TK_VAR    ? MF_DECL_VAR
                                   : t->kind == MF_TK_IVAR ? MF_DECL_IVAR
                                                           : MF_DECL_FROZENVAR);
            break;
        case MF_TK_DEFINE:
            next(p);
            ok = parse_define_section(p, m);
            break;
        case MF_TK_ASSIGN:
            next(p);
            ok = parse_assign_section(p, m);
            break;
        case MF_TK_INIT_SEC:
        case MF_TK_TRANS:
        case MF_TK_INVAR:
            next(p);
            ok = parse_constraint(p, m, t);
            break;
        case MF_TK_CONSTANTS:
            unsupported(p, t, "CONSTANTS");
            return 0;
        case MF_TK_ISA: {
            next(p);
            mf_token *n = expect(p, MF_TK_ID, "after ISA");
            if (!n)
                return 0;
            mf_ast_isa isa = {tstr(p, n), t->line, t->col};
            MF_VEC_PUSH(m->isa, isa);
            ok = 1;
            break;
        }
        default:
            if (is_spec_kw(t->kind)) {
                next(p);
                ok = parse_spec(p, m, t);
                break;
            }
            syntax(p, t, "expected a section keyword, found %s",
                   tdesc(t, b, sizeof(b)));
            return 0;
        }
        if (!ok)
            return 0;
    }
}

void mf_ast_free(mf_ast *ast)
{
    if (!ast)
        return;
    for (int i = 0; i < ast->modules.n; i++) {
        mf_ast_module *m = ast->modules.v[i];
        MF_VEC_FREE(m->decls);
        MF_VEC_FREE(m->defines);
        MF_VEC_FREE(m->assigns);
        MF_VEC_FREE(m->constraints);
        MF_VEC_FREE(m->specs);
        MF_VEC_FREE(m->isa);
    }
    MF_VEC_FREE(ast->modules);
    mf_arena_free(ast->arena);
    free(ast);
}

int mf_parse(mf_ast **out, const char *file, const char *text, size_t len)
{
    parser p = {0};
    mf_ast *ast = NULL;
    char b[40];
    int rc;

    *out = NULL;
    if (!file)
        file = "<input>";
    if (!text)
        len = 0, text = "";
    rc = mf_lex(&p.t, &p.nt, file, text, len);
    if (rc)
        return rc;
    ast = mf_xcalloc(1, sizeof(*ast));
    ast->arena = mf_arena_new();
    ast->file = mf_arena_strdup(ast->arena, file);
    p.file = file;
    p.a = ast->arena;
    p.ast = ast;
    if (peek(&p)->kind == MF_TK_EOF)
        syntax(&p, peek(&p), "no MODULE in input");
    while (!p.rc && peek(&p)->kind != MF_TK_EOF) {
        if (peek(&p)->kind != MF_TK_MODULE) {
            syntax(&p, peek(&p), "expected 'MODULE', found %s",
                   tdesc(peek(&p), b, sizeof(b)));
            break;
        }
        if (!parse_module(&p) && !p.rc)
            syntax(&p, peek(&p), "internal parser error"); /* NEVER */
    }
    rc = p.rc;
    free(p.t);
    if (rc) {
        mf_ast_free(ast);
        return rc;
    }
    *out = ast;
    return MF_OK;
}
