/* parse.h - what the parts of the SMV parser share (parse_util.c: errors
 * and tokens; parse_expr.c: expressions; parser.c: types, declarations and
 * modules): the parser's state, its limits and the calls between them.
 * Private to smv/. */
#ifndef MF_SMV_PARSE_H
#define MF_SMV_PARSE_H

#include "ast.h"
#include "lexer.h"

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

/* Errors: the first one wins, in p->rc, with the message
 * "file:line:col: error|unsupported: ..."; both return NULL. */
__attribute__((format(printf, 3, 4))) void *
mf_smvp_syntax(parser *p, const mf_token *at, const char *fmt, ...);
__attribute__((format(printf, 3, 4))) void *
mf_smvp_unsupported(parser *p, const mf_token *at, const char *fmt, ...);
/* How a token reads in a message: 'text' (shortened) or "end of input". */
const char *mf_smvp_tdesc(const mf_token *t, char *buf, size_t n);

/* Tokens: the current one, the one after it, take the current one; take it
 * if it is of kind k (1) or not (0); take it or fail with a message. */
mf_token *mf_smvp_peek(parser *p);
mf_token *mf_smvp_peek2(parser *p);
mf_token *mf_smvp_next(parser *p);
int mf_smvp_accept(parser *p, mf_tkind k);
mf_token *mf_smvp_expect(parser *p, mf_tkind k, const char *ctx);

/* A temporary list copied into an arena array (NULL when empty). */
mf_expr **mf_smvp_to_arena(parser *p, expr_vec *v);
/* One level of nesting more: 0 (and an error) beyond MAX_NEST. */
int mf_smvp_enter(parser *p, const mf_token *at);
/* 0 (and an error) when a tree of height h is beyond MAX_TREE. */
int mf_smvp_height_ok(parser *p, const mf_expr *e, int h);

/* Expressions (parse_expr.c); every one reports the height of what it built
 * through *h. An expression; one where a top-level `?:` is allowed again;
 * an identifier with its selections; a list up to `close`; binary
 * operators binding at least minprec. NULL (with p->rc) on an error. */
mf_expr *mf_smvp_expr(parser *p);
mf_expr *mf_smvp_inner(parser *p, int *h);
mf_expr *mf_smvp_ident(parser *p, int *h);
int mf_smvp_list(parser *p, expr_vec *v, mf_tkind close, const char *ctx,
                 int *h);
mf_expr *mf_smvp_binary(parser *p, int minprec, int *h);

#endif
