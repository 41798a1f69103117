/* parse_expr.c - SMV expressions, by recursive descent with precedence
 * climbing for the binary operators (parse.h): identifiers and selections,
 * case, calls, word constants, unary and binary operators, with nesting
 * and tree height bounded. Declarations and modules are parser.c's. */
#include "parse.h"
#include "word.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expressions ----------------------------------------------------------
 */

static mf_expr *parse_expr(parser *p, int *h);

/* Parse an expression where a top-level `?:` is allowed again (inside
 * brackets of any kind), whatever the surrounding context says. */
mf_expr *mf_smvp_inner(parser *p, int *h)
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

mf_expr *mf_smvp_ident(parser *p, int *h)
{
    mf_token *t = mf_smvp_next(p);
    mf_buf name = {0};
    expr_vec idx = {0};
    MF_VEC(int) hs = {0};
    mf_expr *e = NULL;

    mf_buf_put(&name, t->s, t->len);
    for (;;) {
        mf_token *d = mf_smvp_peek(p);
        if (d->kind == MF_TK_DOT) {
            mf_smvp_next(p);
            mf_token *f = mf_smvp_peek(p);
            if (f->kind != MF_TK_ID && f->kind != MF_TK_INT) {
                mf_smvp_expect(p, MF_TK_ID, "after '.'");
                goto done;
            }
            mf_smvp_next(p);
            for (int i = 0; i < idx.n; i++) {
                if (idx.v[i]->kind != MF_E_INT) {
                    mf_smvp_unsupported(
                        p, d,
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
            mf_smvp_next(p);
            mf_expr *x = mf_smvp_inner(p, &hi);
            if (!x || !mf_smvp_expect(p, MF_TK_RBRACK, "after array index"))
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
        if (!mf_smvp_height_ok(p, e, *h)) {
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
    mf_token *kw = mf_smvp_next(p);
    mf_expr *e = mf_expr_new(p->a, MF_E_CASE, kw->line, kw->col);
    expr_vec kids = {0};
    int saved = p->no_ite;
    *h = 1;
    while (mf_smvp_peek(p)->kind != MF_TK_esac) {
        int hc, hv;
        if (mf_smvp_peek(p)->kind == MF_TK_EOF) {
            mf_smvp_syntax(p, kw, "'case' without matching 'esac'");
            goto fail;
        }
        p->no_ite = 1;
        mf_expr *c = parse_expr(p, &hc);
        p->no_ite = 0;
        if (!c || !mf_smvp_expect(p, MF_TK_COLON, "after case condition"))
            goto fail;
        mf_expr *v = parse_expr(p, &hv);
        if (!v)
            goto fail;
        if (!mf_smvp_accept(p, MF_TK_SEMI) &&
            mf_smvp_peek(p)->kind != MF_TK_esac) {
            mf_smvp_expect(p, MF_TK_SEMI, "after case branch");
            goto fail;
        }
        MF_VEC_PUSH(kids, c);
        MF_VEC_PUSH(kids, v);
        if (hc + 1 > *h)
            *h = hc + 1;
        if (hv + 1 > *h)
            *h = hv + 1;
    }
    mf_smvp_next(p);
    p->no_ite = saved;
    if (kids.n == 0) {
        MF_VEC_FREE(kids);
        return mf_smvp_syntax(p, kw, "'case' without branches");
    }
    e->kids = mf_smvp_to_arena(p, &kids);
    e->nkids = kids.n;
    MF_VEC_FREE(kids);
    return e;
fail:
    p->no_ite = saved;
    MF_VEC_FREE(kids);
    return NULL;
}

/* Comma-separated expressions up to `close`, at least one. */
int mf_smvp_list(parser *p, expr_vec *v, mf_tkind close, const char *ctx,
                 int *h)
{
    *h = 0;
    do {
        int hk;
        mf_expr *k = mf_smvp_inner(p, &hk);
        if (!k)
            return 0;
        MF_VEC_PUSH(*v, k);
        if (hk > *h)
            *h = hk;
    } while (mf_smvp_accept(p, MF_TK_COMMA));
    return mf_smvp_expect(p, close, ctx) != NULL;
}

static mf_expr *parse_call(parser *p, int *h)
{
    static const struct {
        mf_tkind k;
        mf_fn fn;
        int arity; /* 0: one or more */
    } fns[] = {
        {MF_TK_min, MF_FN_MIN, 2},           {MF_TK_max, MF_FN_MAX, 2},
        {MF_TK_abs, MF_FN_ABS, 1},           {MF_TK_toint, MF_FN_TOINT, 1},
        {MF_TK_bool, MF_FN_BOOL, 1},         {MF_TK_count, MF_FN_COUNT, 0},
        {MF_TK_word1, MF_FN_WORD1, 1},       {MF_TK_signed, MF_FN_SIGNED, 1},
        {MF_TK_unsigned, MF_FN_UNSIGNED, 1}, {MF_TK_extend, MF_FN_EXTEND, 2},
        {MF_TK_resize, MF_FN_RESIZE, 2},     {MF_TK_sizeof, MF_FN_SIZEOF, 1},
        {MF_TK_swconst, MF_FN_SWCONST, 2},   {MF_TK_uwconst, MF_FN_UWCONST, 2},
    };
    mf_token *t = mf_smvp_next(p);
    size_t f = 0;
    while (fns[f].k != t->kind)
        f++;
    expr_vec args = {0};
    mf_expr *e = mf_expr_new(p->a, MF_E_CALL, t->line, t->col);
    e->op = (int)fns[f].fn;
    if (!mf_smvp_expect(p, MF_TK_LPAREN, "after function name") ||
        !mf_smvp_list(p, &args, MF_TK_RPAREN, "after arguments", h)) {
        MF_VEC_FREE(args);
        return NULL;
    }
    if (fns[f].arity && args.n != fns[f].arity) {
        MF_VEC_FREE(args);
        return mf_smvp_syntax(p, t, "%s() takes %d argument%s",
                              mf_fn_str(fns[f].fn), fns[f].arity,
                              fns[f].arity == 1 ? "" : "s");
    }
    e->kids = mf_smvp_to_arena(p, &args);
    e->nkids = args.n;
    MF_VEC_FREE(args);
    (*h)++;
    return e;
}

/* A word constant token as an MF_E_WORD node (its text read by word.c). */
static mf_expr *word_const(parser *p)
{
    mf_token *t = mf_smvp_next(p);
    char err[96];
    int64_t v;
    int wty, rc = mf_word_parse(&v, &wty, t->s, t->len, err, sizeof err);
    if (rc == -2)
        return mf_smvp_unsupported(p, t, "%s", err);
    if (rc < 0)
        return mf_smvp_syntax(p, t, "%s: %.*s", err, (int)t->len, t->s);
    mf_expr *e = mf_expr_new(p->a, MF_E_WORD, t->line, t->col);
    e->ival = v;
    e->wty = wty;
    return e;
}

static mf_expr *parse_primary(parser *p, int *h)
{
    char b[40];
    mf_token *t = mf_smvp_peek(p);
    mf_expr *e;
    *h = 1;
    switch (t->kind) {
    case MF_TK_INT:
        mf_smvp_next(p);
        return mf_expr_int(p->a, t->ival, t->line, t->col);
    case MF_TK_TRUE:
    case MF_TK_FALSE:
        mf_smvp_next(p);
        return mf_expr_bool(p->a, t->kind == MF_TK_TRUE, t->line, t->col);
    case MF_TK_ID:
        if (mf_smvp_peek2(p)->kind == MF_TK_LPAREN)
            return mf_smvp_unsupported(p, t, "function '%.*s'", (int)t->len,
                                       t->s);
        return mf_smvp_ident(p, h);
    case MF_TK_self:
        return mf_smvp_ident(p, h);
    case MF_TK_next: {
        int hk;
        mf_smvp_next(p);
        if (!mf_smvp_expect(p, MF_TK_LPAREN, "after 'next'"))
            return NULL;
        mf_expr *k = mf_smvp_inner(p, &hk);
        if (!k || !mf_smvp_expect(p, MF_TK_RPAREN, "to close 'mf_smvp_next('"))
            return NULL;
        e = mf_expr_un(p->a, MF_E_NEXT, k);
        e->line = t->line;
        e->col = t->col;
        *h = hk + 1;
        return e;
    }
    case MF_TK_LPAREN:
        mf_smvp_next(p);
        e = mf_smvp_inner(p, h);
        if (!e || !mf_smvp_expect(p, MF_TK_RPAREN, "to close '('"))
            return NULL;
        return e;
    case MF_TK_case:
        return parse_case(p, h);
    case MF_TK_LBRACE: {
        expr_vec v = {0};
        mf_smvp_next(p);
        e = mf_expr_new(p->a, MF_E_SET, t->line, t->col);
        if (!mf_smvp_list(p, &v, MF_TK_RBRACE, "to close '{'", h)) {
            MF_VEC_FREE(v);
            return NULL;
        }
        e->kids = mf_smvp_to_arena(p, &v);
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
        if (mf_smvp_peek2(p)->kind == MF_TK_LPAREN)
            return parse_call(p, h);
        return mf_smvp_unsupported(p, t, "word expressions ('%s')",
                                   mf_tk_name(t->kind));
    case MF_TK_WORDC:
        return word_const(p);
    case MF_TK_word:
        return mf_smvp_unsupported(p, t, "word expressions ('%s')",
                                   mf_tk_name(t->kind));
    case MF_TK_init:
        return mf_smvp_syntax(
            p, t, "'init(...)' is only allowed on the left of ':='");
    default:
        return mf_smvp_syntax(p, t, "expected expression, found %s",
                              mf_smvp_tdesc(t, b, sizeof(b)));
    }
}

/* `e[hi:lo]`, the bounds integer literals, after the `[` at `at`; e is the
 * selected word. */
static mf_expr *parse_select(parser *p, mf_expr *e, const mf_token *at, int *h)
{
    mf_token *hi = mf_smvp_peek(p);
    if (!mf_smvp_expect(p, MF_TK_INT, "as the high bit of a bit selection") ||
        !mf_smvp_expect(p, MF_TK_COLON, "in a bit selection"))
        return NULL;
    mf_token *lo = mf_smvp_peek(p);
    if (!mf_smvp_expect(p, MF_TK_INT, "as the low bit of a bit selection") ||
        !mf_smvp_expect(p, MF_TK_RBRACK, "to close a bit selection"))
        return NULL;
    mf_expr *x = mf_expr_new(p->a, MF_E_CALL, at->line, at->col);
    x->op = MF_FN_SELECT;
    mf_expr_add(p->a, x, e);
    mf_expr_add(p->a, x, mf_expr_int(p->a, hi->ival, hi->line, hi->col));
    mf_expr_add(p->a, x, mf_expr_int(p->a, lo->ival, lo->line, lo->col));
    (*h)++;
    return mf_smvp_height_ok(p, x, *h) ? x : NULL;
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
        e = parse_select(p, e, mf_smvp_next(p), h);
    return e;
}

static mf_expr *parse_unary(parser *p, int *h);

/* `!e`: binds tighter than `::`, which binds tighter than unary minus
 * (NuSMV 2.6's table); `!-x` still reads as `!(-x)`. */
static mf_expr *parse_not(parser *p, int *h)
{
    mf_token *t = mf_smvp_peek(p);
    if (t->kind != MF_TK_NOT)
        return parse_postfix(p, h);
    if (!mf_smvp_enter(p, t))
        return NULL;
    mf_smvp_next(p);
    mf_expr *k = mf_smvp_peek(p)->kind == MF_TK_MINUS ? parse_unary(p, h)
                                                      : parse_not(p, h);
    mf_expr *e = NULL;
    if (k) {
        e = mf_expr_un(p->a, MF_E_NOT, k);
        e->line = t->line;
        e->col = t->col;
        (*h)++;
        if (!mf_smvp_height_ok(p, e, *h))
            e = NULL;
    }
    p->nest--;
    return e;
}

/* w1 :: w2 :: ..., left associative. */
static mf_expr *parse_concat(parser *p, int *h)
{
    mf_expr *l = parse_not(p, h);
    while (l && mf_smvp_peek(p)->kind == MF_TK_CONCAT) {
        int hr;
        mf_smvp_next(p);
        mf_expr *r = parse_not(p, &hr);
        if (!r)
            return NULL;
        l = mf_expr_bin(p->a, MF_OP_CONCAT, l, r);
        if (hr > *h)
            *h = hr;
        (*h)++;
        if (!mf_smvp_height_ok(p, l, *h))
            return NULL;
    }
    return l;
}

static mf_expr *parse_unary(parser *p, int *h)
{
    mf_token *t = mf_smvp_peek(p);
    mf_expr *e = NULL, *k;
    if (t->kind != MF_TK_MINUS)
        return parse_concat(p, h);
    if (!mf_smvp_enter(p, t))
        return NULL;
    mf_smvp_next(p);
    int lit = mf_smvp_peek(p)->kind == MF_TK_INT ||
              mf_smvp_peek(p)->kind == MF_TK_WORDC;
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
    if (!mf_smvp_height_ok(p, e, *h))
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
mf_expr *mf_smvp_binary(parser *p, int minprec, int *h)
{
    mf_expr *l = NULL;
    if (!mf_smvp_enter(p, mf_smvp_peek(p)))
        goto done;
    l = parse_unary(p, h);
    while (l) {
        mf_token *t = mf_smvp_peek(p);
        int prec, right, hr, op;
        if (t->kind == MF_TK_QUEST) {
            int hm, he;
            if (minprec > P_ITE || p->no_ite)
                break;
            mf_smvp_next(p);
            mf_expr *m = mf_smvp_inner(p, &hm);
            if (!m || !mf_smvp_expect(p, MF_TK_COLON, "in '?:'")) {
                l = NULL;
                break;
            }
            mf_expr *r = mf_smvp_binary(p, P_ITE, &he);
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
            l = mf_smvp_height_ok(p, x, *h) ? x : NULL;
            continue;
        }
        op = binop_of(t->kind, &prec, &right);
        if (op == -1 || prec < minprec)
            break;
        mf_smvp_next(p);
        mf_expr *r = mf_smvp_binary(p, right ? prec : prec + 1, &hr);
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
            if (mf_smvp_peek(p)->kind == MF_TK_DOTDOT) {
                l = mf_smvp_syntax(p, mf_smvp_peek(p),
                                   "a range cannot be a bound of '..'");
                break;
            }
        } else {
            l = mf_expr_bin(p->a, (mf_binop)op, l, r);
        }
        if (hr > *h)
            *h = hr;
        (*h)++;
        if (!mf_smvp_height_ok(p, l, *h))
            l = NULL;
    }
done:
    p->nest--;
    return l;
}

static mf_expr *parse_expr(parser *p, int *h)
{
    return mf_smvp_binary(p, P_IMPLIES, h);
}

mf_expr *mf_smvp_expr(parser *p)
{
    int h;
    return parse_expr(p, &h);
}
