/* ta_parse.h - the parser's state and the helpers its two files share
 * (parse.c: expressions and types; parse_decl.c: declarations,
 * statements, the system text and labels). */
#ifndef MF_TA_PARSE_H
#define MF_TA_PARSE_H

#include "ta_lex.h"

struct ta_parser {
    mf_arena *a;
    ta_lex lex;
    ta_tok tok;        /* the current token */
    ta_is_type_fn is_type;
    void *ctx;
    int depth;
    /* names bound by the parser */
    const char *const *sel;
    int nsel;
    ta_pdecl *fn;      /* the function being parsed, or NULL */
    MF_VEC(int) scope; /* its visible locals, innermost last */
    MF_VEC(const char *) qname; /* quantified variables, innermost last */
    MF_VEC(const char *) tnames; /* types declared earlier in this text */
    MF_VEC(int) qid;
    int qnext;
};

/* The next token into p->tok. */
int ta_p_next(ta_parser *p);
/* A parse error at the current token; fmt takes one string, arg. */
int ta_p_err(ta_parser *p, int code, const char *fmt, const char *arg);
/* Is the current token the operator or word s? */
int ta_p_is(const ta_parser *p, const char *s);
/* Skips s, or fails naming what was found. */
int ta_p_expect(ta_parser *p, const char *s);
/* After a list's item: skips a ',', accepts `close` (not skipped), or
 * fails naming what was found. */
int ta_p_list_sep(ta_parser *p, const char *close);
/* Is s a keyword (never a name)? */
int ta_p_keyword(const char *s);
/* Is name a type: declared earlier in this text, or known to the
 * builder? */
int ta_p_is_type_name(ta_parser *p, const char *name);
/* Does a type start at the current token? */
int ta_p_starts_type(ta_parser *p);
/* An expression (the textual operators included); an assignment
 * expression (no `and`/`or`/`not`: an argument); a postfix expression
 * (a sync's channel); a type. */
int ta_p_expr(ta_parser *p, ta_expr **out);
int ta_p_assign(ta_parser *p, ta_expr **out);
int ta_p_postfix(ta_parser *p, ta_expr **out);
int ta_p_type(ta_parser *p, ta_ptype *t);

#endif
