/* lex.c - the tokens of UPPAAL's declarations language (the C-like text of
 * declarations, guards, invariants, syncs, updates and the system line):
 * identifiers, decimal numbers and operators, with // and block comments
 * skipped and each token's line and column in the file. It knows no
 * grammar (parse.c). */
#include "ta_lex.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Operators, longest first so that the first match is the longest. */
static const char *const puncts[] = {
    "<<=", ">>=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=",
    "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "<<", ">>", ":=", "<?",
    ">?",  "->",  "(",  ")",  "[",  "]",  "{",  "}",  ",",  ";",  ":",
    "?",   "!",   "=",  "<",  ">",  "+",  "-",  "*",  "/",  "%",  "&",
    "|",   "^",   "~",  ".",  "'",  NULL,
};

void ta_lex_init(ta_lex *l, mf_arena *a, const ta_text *t, const char *file)
{
    memset(l, 0, sizeof(*l));
    l->a = a;
    l->file = file ? file : "<model>";
    l->s = t->text ? t->text : "";
    l->len = strlen(l->s);
    l->line = t->pos.line > 0 ? t->pos.line : 1;
    l->col = t->pos.col > 0 ? t->pos.col : 1;
    l->one_line = t->one_line;
}

int ta_lex_error(ta_lex *l, int code, int line, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return mf_err_set(code, "%s:%d:%d: %s: %s", l->file, line, col,
                      code == MF_EUNSUPPORTED ? "unsupported" : "error", msg);
}

static void advance(ta_lex *l)
{
    if (l->s[l->i] == '\n' && !l->one_line) {
        l->line++;
        l->col = 1;
    } else {
        l->col++;
    }
    l->i++;
}

/* Skips blanks and comments; MF_EPARSE on an unterminated comment. */
static int skip_space(ta_lex *l)
{
    for (;;) {
        while (l->i < l->len && isspace((unsigned char)l->s[l->i]))
            advance(l);
        if (l->i + 1 < l->len && l->s[l->i] == '/' && l->s[l->i + 1] == '/') {
            while (l->i < l->len && l->s[l->i] != '\n')
                advance(l);
            continue;
        }
        if (l->i + 1 < l->len && l->s[l->i] == '/' && l->s[l->i + 1] == '*') {
            int line = l->line, col = l->col;
            advance(l);
            advance(l);
            while (l->i + 1 < l->len &&
                   !(l->s[l->i] == '*' && l->s[l->i + 1] == '/'))
                advance(l);
            if (l->i + 1 >= l->len)
                return ta_lex_error(l, MF_EPARSE, line, col,
                                    "unterminated comment");
            advance(l);
            advance(l);
            continue;
        }
        return 0;
    }
}

int ta_lex_next(ta_lex *l, ta_tok *t)
{
    memset(t, 0, sizeof(*t));
    int rc = skip_space(l);
    if (rc)
        return rc;
    t->line = l->line;
    t->col = l->col;
    if (l->i >= l->len) {
        t->kind = TK_EOF;
        t->text = "end of text";
        return 0;
    }
    unsigned char c = (unsigned char)l->s[l->i];
    size_t start = l->i;
    if (isalpha(c) || c == '_') {
        while (l->i < l->len && (isalnum((unsigned char)l->s[l->i]) ||
                                 l->s[l->i] == '_'))
            advance(l);
        t->kind = TK_ID;
        t->text = mf_arena_strndup(l->a, l->s + start, l->i - start);
        return 0;
    }
    if (isdigit(c)) {
        int64_t v = 0;
        while (l->i < l->len && isdigit((unsigned char)l->s[l->i])) {
            int d = l->s[l->i] - '0';
            if (v > (INT64_MAX - d) / 10)
                return ta_lex_error(l, MF_ELIMIT, t->line, t->col,
                                    "number too large");
            v = v * 10 + d;
            advance(l);
        }
        if (l->i < l->len && (isalpha((unsigned char)l->s[l->i]) ||
                              l->s[l->i] == '.' || l->s[l->i] == '_'))
            return ta_lex_error(l, MF_EUNSUPPORTED, t->line, t->col,
                                "number '%.*s...': only decimal integers",
                                (int)(l->i - start + 1), l->s + start);
        t->kind = TK_NUM;
        t->num = v;
        t->text = mf_arena_strndup(l->a, l->s + start, l->i - start);
        return 0;
    }
    for (int k = 0; puncts[k]; k++) {
        size_t n = strlen(puncts[k]);
        if (l->i + n <= l->len && !memcmp(l->s + l->i, puncts[k], n)) {
            for (size_t j = 0; j < n; j++)
                advance(l);
            t->kind = TK_PUNCT;
            t->text = puncts[k];
            return 0;
        }
    }
    if (c < 32 || c >= 127)
        return ta_lex_error(l, MF_EPARSE, t->line, t->col,
                            "unexpected byte 0x%02x", c);
    return ta_lex_error(l, MF_EPARSE, t->line, t->col,
                        "unexpected character '%c'", c);
}
