/* parser.c - recursive-descent parser from SMV text to the parse tree (ast.h):
 * tokens, errors, types, declarations, sections and modules; expressions
 * are parse_expr.c's.
 *
 * It builds what was written: nothing is resolved or type checked, and
 * specifications are kept as text. Constructs mutfarm does not support yet
 * (reals, CONSTANTS) are refused
 * with MF_EUNSUPPORTED and a position, never skipped. Recursion and tree
 * depth are bounded so hostile input cannot exhaust the stack here or in the
 * passes that walk the tree afterwards. */
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- types and declarations -------------------------------------------------
 */

static mf_ast_type *parse_type(parser *p);

/* `lo..hi` with constant-expression bounds, for ranges and arrays. */
static int parse_bounds(parser *p, mf_ast_type *ty)
{
    int h;
    ty->lo = mf_smvp_binary(p, P_RANGE + 1, &h);
    if (!ty->lo || !mf_smvp_expect(p, MF_TK_DOTDOT, "in range type"))
        return 0;
    ty->hi = mf_smvp_binary(p, P_RANGE + 1, &h);
    return ty->hi != NULL;
}

static mf_ast_type *parse_type(parser *p)
{
    char b[40];
    mf_token *t = mf_smvp_peek(p);
    mf_ast_type *ty = mf_arena_alloc(p->a, sizeof(*ty));
    ty->line = t->line;
    ty->col = t->col;
    switch (t->kind) {
    case MF_TK_boolean:
        mf_smvp_next(p);
        ty->kind = MF_AT_BOOL;
        return ty;
    case MF_TK_LBRACE: {
        expr_vec v = {0};
        mf_smvp_next(p);
        ty->kind = MF_AT_ENUM;
        do {
            mf_token *x = mf_smvp_peek(p);
            mf_expr *e = NULL;
            if (x->kind == MF_TK_ID) {
                mf_smvp_next(p);
                e = mf_expr_new(p->a, MF_E_SYM, x->line, x->col);
                e->name = tstr(p, x);
            } else if (x->kind == MF_TK_INT) {
                mf_smvp_next(p);
                e = mf_expr_int(p->a, x->ival, x->line, x->col);
            } else if (x->kind == MF_TK_MINUS &&
                       mf_smvp_peek2(p)->kind == MF_TK_INT) {
                mf_smvp_next(p);
                e = mf_expr_int(p->a, -mf_smvp_next(p)->ival, x->line, x->col);
            } else if (x->kind == MF_TK_TRUE || x->kind == MF_TK_FALSE) {
                mf_smvp_next(p);
                e = mf_expr_bool(p->a, x->kind == MF_TK_TRUE, x->line, x->col);
            } else if (x->kind == MF_TK_WORDC) {
                MF_VEC_FREE(v);
                return mf_smvp_unsupported(p, x,
                                           "word constants in enumerations");
            } else {
                MF_VEC_FREE(v);
                return mf_smvp_syntax(p, x,
                                      "expected enumeration value, found %s",
                                      mf_smvp_tdesc(x, b, sizeof(b)));
            }
            MF_VEC_PUSH(v, e);
        } while (mf_smvp_accept(p, MF_TK_COMMA));
        if (!mf_smvp_expect(p, MF_TK_RBRACE, "to close enumeration")) {
            MF_VEC_FREE(v);
            return NULL;
        }
        ty->vals = mf_smvp_to_arena(p, &v);
        ty->nvals = v.n;
        MF_VEC_FREE(v);
        return ty;
    }
    case MF_TK_array:
        mf_smvp_next(p);
        ty->kind = MF_AT_ARRAY;
        if (!mf_smvp_enter(p, t))
            return NULL;
        if (parse_bounds(p, ty) &&
            mf_smvp_expect(p, MF_TK_of, "after array bounds"))
            ty->elem = parse_type(p);
        p->nest--;
        return ty->elem ? ty : NULL;
    case MF_TK_process: {
        /* `process M(args)`: an instance that moves by interleaving
         * (model/process.c) */
        mf_smvp_next(p);
        if (mf_smvp_peek(p)->kind != MF_TK_ID)
            return mf_smvp_syntax(p, mf_smvp_peek(p),
                                  "expected a module after 'process'");
        mf_ast_type *in = parse_type(p);
        if (in && in->kind != MF_AT_INST)
            return mf_smvp_syntax(p, t,
                                  "expected a module instance after 'process'");
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
        mf_smvp_next(p);
        ty->kind = MF_AT_WORD;
        ty->is_signed = t->kind == MF_TK_signed;
        if ((t->kind != MF_TK_word &&
             !mf_smvp_expect(p, MF_TK_word, "in word type")) ||
            !mf_smvp_expect(p, MF_TK_LBRACK, "after 'word'"))
            return NULL;
        ty->lo = mf_smvp_inner(p, &h);
        if (!ty->lo || !mf_smvp_expect(p, MF_TK_RBRACK, "after a word's width"))
            return NULL;
        return ty;
    }
    case MF_TK_integer:
        mf_smvp_next(p);
        ty->kind = MF_AT_INTEGER;
        return ty;
    case MF_TK_real:
        return mf_smvp_unsupported(p, t, "real type");
    case MF_TK_ID: {
        mf_tkind after = mf_smvp_peek2(p)->kind;
        if (after == MF_TK_LPAREN || after == MF_TK_SEMI) {
            int h;
            expr_vec v = {0};
            mf_smvp_next(p);
            ty->kind = MF_AT_INST;
            ty->module = tstr(p, t);
            if (mf_smvp_accept(p, MF_TK_LPAREN) &&
                !mf_smvp_accept(p, MF_TK_RPAREN)) {
                if (!mf_smvp_list(p, &v, MF_TK_RPAREN, "after module arguments",
                                  &h)) {
                    MF_VEC_FREE(v);
                    return NULL;
                }
            }
            ty->args = mf_smvp_to_arena(p, &v);
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
    mf_token *t = mf_smvp_expect(p, MF_TK_ID, ctx);
    mf_buf b = {0};
    const char *s;
    if (!t)
        return NULL;
    mf_buf_put(&b, t->s, t->len);
    for (;;) {
        if (mf_smvp_accept(p, MF_TK_DOT)) {
            mf_token *f = mf_smvp_peek(p);
            if (f->kind != MF_TK_ID && f->kind != MF_TK_INT) {
                mf_smvp_expect(p, MF_TK_ID, "after '.'");
                goto fail;
            }
            mf_smvp_next(p);
            mf_buf_puts(&b, ".");
            mf_buf_put(&b, f->s, f->len);
        } else if (mf_smvp_accept(p, MF_TK_LBRACK)) {
            int neg = mf_smvp_accept(p, MF_TK_MINUS);
            mf_token *n =
                mf_smvp_expect(p, MF_TK_INT, "as index of a declared name");
            if (!n || !mf_smvp_expect(p, MF_TK_RBRACK, "after index"))
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
    while (!is_section(mf_smvp_peek(p)->kind)) {
        mf_token *t = mf_smvp_peek(p);
        mf_ast_decl d = {0};
        d.kind = kind;
        d.line = t->line;
        d.col = t->col;
        if (!(d.name = parse_decl_name(p, "in declaration")) ||
            !mf_smvp_expect(p, MF_TK_COLON, "after declared name") ||
            !(d.type = parse_type(p)) ||
            !mf_smvp_expect(p, MF_TK_SEMI, "after declaration"))
            return 0;
        MF_VEC_PUSH(m->decls, d);
    }
    return 1;
}

static int parse_define_section(parser *p, mf_ast_module *m)
{
    while (!is_section(mf_smvp_peek(p)->kind)) {
        mf_token *t = mf_smvp_peek(p);
        mf_ast_define d = {0};
        d.line = t->line;
        d.col = t->col;
        if (!(d.name = parse_decl_name(p, "in DEFINE")) ||
            !mf_smvp_expect(p, MF_TK_BECOMES, "after defined name"))
            return 0;
        if (mf_smvp_peek(p)->kind == MF_TK_LBRACK) {
            mf_smvp_unsupported(p, mf_smvp_peek(p), "array DEFINE");
            return 0;
        }
        if (!(d.body = mf_smvp_expr(p)) ||
            !mf_smvp_expect(p, MF_TK_SEMI, "after definition"))
            return 0;
        MF_VEC_PUSH(m->defines, d);
    }
    return 1;
}

static mf_expr *parse_lhs(parser *p)
{
    int h;
    if (mf_smvp_peek(p)->kind != MF_TK_ID &&
        mf_smvp_peek(p)->kind != MF_TK_self) {
        mf_smvp_expect(p, MF_TK_ID, "as assigned variable");
        return NULL;
    }
    return mf_smvp_ident(p, &h);
}

static int parse_assign_section(parser *p, mf_ast_module *m)
{
    while (!is_section(mf_smvp_peek(p)->kind)) {
        mf_token *t = mf_smvp_peek(p);
        mf_ast_assign a = {0};
        a.line = t->line;
        a.col = t->col;
        if (t->kind == MF_TK_init || t->kind == MF_TK_next) {
            a.kind = t->kind == MF_TK_init ? MF_ASG_INIT : MF_ASG_NEXT;
            mf_smvp_next(p);
            if (!mf_smvp_expect(p, MF_TK_LPAREN,
                                a.kind == MF_ASG_INIT ? "after 'init'"
                                                      : "after 'next'") ||
                !(a.lhs = parse_lhs(p)) ||
                !mf_smvp_expect(p, MF_TK_RPAREN, "after assigned variable"))
                return 0;
        } else {
            a.kind = MF_ASG_INVAR;
            if (!(a.lhs = parse_lhs(p)))
                return 0;
        }
        if (!mf_smvp_expect(p, MF_TK_BECOMES, "in assignment") ||
            !(a.rhs = mf_smvp_expr(p)) ||
            !mf_smvp_expect(p, MF_TK_SEMI, "after assignment"))
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
    if (!(c.e = mf_smvp_expr(p)))
        return 0;
    mf_smvp_accept(p, MF_TK_SEMI);
    if (!is_section(mf_smvp_peek(p)->kind)) {
        mf_smvp_syntax(p, mf_smvp_peek(p),
                       "expected a section keyword after %s constraint, "
                       "found %s",
                       mf_tk_name(kw->kind),
                       mf_smvp_tdesc(mf_smvp_peek(p), b, sizeof(b)));
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
        mf_smvp_syntax(p, kw, "empty %s", mf_tk_name(kw->kind));
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
    mf_token *kw = mf_smvp_next(p); /* MODULE */
    mf_token *name = mf_smvp_expect(p, MF_TK_ID, "after MODULE");
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
    if (mf_smvp_accept(p, MF_TK_LPAREN)) {
        MF_VEC(const char *) v = {0};
        if (!mf_smvp_accept(p, MF_TK_RPAREN)) {
            do {
                mf_token *t =
                    mf_smvp_expect(p, MF_TK_ID, "as module parameter");
                if (!t) {
                    MF_VEC_FREE(v);
                    return 0;
                }
                MF_VEC_PUSH(v, tstr(p, t));
            } while (mf_smvp_accept(p, MF_TK_COMMA));
            if (!mf_smvp_expect(p, MF_TK_RPAREN, "after module parameters")) {
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
        mf_token *t = mf_smvp_peek(p);
        int ok;
        switch (t->kind) {
        case MF_TK_EOF:
        case MF_TK_MODULE:
            return 1;
        case MF_TK_VAR:
        case MF_TK_IVAR:
        case MF_TK_FROZENVAR:
            mf_smvp_next(p);
            ok = parse_var_section(p, m,
                                   t->kind == MF_TK_VAR    ? MF_DECL_VAR
                                   : t->kind == MF_TK_IVAR ? MF_DECL_IVAR
                                                           : MF_DECL_FROZENVAR);
            break;
        case MF_TK_DEFINE:
            mf_smvp_next(p);
            ok = parse_define_section(p, m);
            break;
        case MF_TK_ASSIGN:
            mf_smvp_next(p);
            ok = parse_assign_section(p, m);
            break;
        case MF_TK_INIT_SEC:
        case MF_TK_TRANS:
        case MF_TK_INVAR:
            mf_smvp_next(p);
            ok = parse_constraint(p, m, t);
            break;
        case MF_TK_CONSTANTS:
            mf_smvp_unsupported(p, t, "CONSTANTS");
            return 0;
        case MF_TK_ISA: {
            mf_smvp_next(p);
            mf_token *n = mf_smvp_expect(p, MF_TK_ID, "after ISA");
            if (!n)
                return 0;
            mf_ast_isa isa = {tstr(p, n), t->line, t->col};
            MF_VEC_PUSH(m->isa, isa);
            ok = 1;
            break;
        }
        default:
            if (is_spec_kw(t->kind)) {
                mf_smvp_next(p);
                ok = parse_spec(p, m, t);
                break;
            }
            mf_smvp_syntax(p, t, "expected a section keyword, found %s",
                           mf_smvp_tdesc(t, b, sizeof(b)));
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
    if (mf_smvp_peek(&p)->kind == MF_TK_EOF)
        mf_smvp_syntax(&p, mf_smvp_peek(&p), "no MODULE in input");
    while (!p.rc && mf_smvp_peek(&p)->kind != MF_TK_EOF) {
        if (mf_smvp_peek(&p)->kind != MF_TK_MODULE) {
            mf_smvp_syntax(&p, mf_smvp_peek(&p), "expected 'MODULE', found %s",
                           mf_smvp_tdesc(mf_smvp_peek(&p), b, sizeof(b)));
            break;
        }
        if (!parse_module(&p) && !p.rc)
            mf_smvp_syntax(&p, mf_smvp_peek(&p),
                           "internal parser error"); /* NEVER */
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
