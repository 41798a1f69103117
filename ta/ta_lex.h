/* ta_lex.h - the lexer of the declarations language (lex.c), for the
 * parser (parse.c). */
#ifndef MF_TA_LEX_H
#define MF_TA_LEX_H

#include "ta_int.h"

typedef struct {
    mf_arena *a;
    const char *file;
    const char *s;
    size_t len, i;
    int line, col;
    int one_line; /* newlines do not advance the line (ta_text) */
} ta_lex;

/* Starts at the beginning of t (its position is the first character's). */
void ta_lex_init(ta_lex *l, mf_arena *a, const ta_text *t, const char *file);
/* The next token into *t (TK_EOF at the end, again and again); a negative
 * code with a message on a bad character or comment. */
int ta_lex_next(ta_lex *l, ta_tok *t);
/* "file:line:col: error: ..." (unsupported: for MF_EUNSUPPORTED);
 * returns code. */
int ta_lex_error(ta_lex *l, int code, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
