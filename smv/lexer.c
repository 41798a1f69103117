/* lexer.c - SMV tokeniser (see lexer.h for the lexical rules).
 *
 * Produces the whole token array at once; it does not know the grammar, so
 * keywords are recognised everywhere (section keywords included). */
#include "lexer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *s;
    mf_tkind k;
} keywords[] = {
    {"MODULE", MF_TK_MODULE},
    {"VAR", MF_TK_VAR},
    {"IVAR", MF_TK_IVAR},
    {"FROZENVAR", MF_TK_FROZENVAR},
    {"DEFINE", MF_TK_DEFINE},
    {"ASSIGN", MF_TK_ASSIGN},
    {"INIT", MF_TK_INIT_SEC},
    {"TRANS", MF_TK_TRANS},
    {"INVAR", MF_TK_INVAR},
    {"SPEC", MF_TK_SPEC},
    {"CTLSPEC", MF_TK_CTLSPEC},
    {"LTLSPEC", MF_TK_LTLSPEC},
    {"INVARSPEC", MF_TK_INVARSPEC},
    {"PSLSPEC", MF_TK_PSLSPEC},
    {"FAIRNESS", MF_TK_FAIRNESS},
    {"JUSTICE", MF_TK_JUSTICE},
    {"COMPASSION", MF_TK_COMPASSION},
    {"COMPUTE", MF_TK_COMPUTE},
    {"CONSTANTS", MF_TK_CONSTANTS},
    {"ISA", MF_TK_ISA},
    {"init", MF_TK_init},
    {"next", MF_TK_next},
    {"case", MF_TK_case},
    {"esac", MF_TK_esac},
    {"TRUE", MF_TK_TRUE},
    {"FALSE", MF_TK_FALSE},
    {"boolean", MF_TK_boolean},
    {"array", MF_TK_array},
    {"of", MF_TK_of},
    {"process", MF_TK_process},
    {"self", MF_TK_self},
    {"mod", MF_TK_mod},
    {"union", MF_TK_union},
    {"in", MF_TK_in},
    {"xor", MF_TK_xor},
    {"xnor", MF_TK_xnor},
    {"word", MF_TK_word},
    {"signed", MF_TK_signed},
    {"unsigned", MF_TK_unsigned},
    {"integer", MF_TK_integer},
    {"real", MF_TK_real},
    {"min", MF_TK_min},
    {"max", MF_TK_max},
    {"abs", MF_TK_abs},
    {"toint", MF_TK_toint},
    {"bool", MF_TK_bool},
    {"count", MF_TK_count},
    {"word1", MF_TK_word1},
    {"extend", MF_TK_extend},
    {"resize", MF_TK_resize},
    {"sizeof", MF_TK_sizeof},
    {"uwconst", MF_TK_uwconst},
    {"swconst", MF_TK_swconst},
};

/* Punctuation, longest spellings first so `<->` wins over `<`. */
static const struct {
    const char *s;
    mf_tkind k;
} puncts[] = {
    {"<->", MF_TK_IFF},    {"->", MF_TK_IMPLIES}, {"!=", MF_TK_NE},
    {"<=", MF_TK_LE},      {">=", MF_TK_GE},      {"..", MF_TK_DOTDOT},
    {":=", MF_TK_BECOMES}, {"::", MF_TK_CONCAT},   {"<<", MF_TK_SHL},
    {">>", MF_TK_SHR},     {"!", MF_TK_NOT},      {"&", MF_TK_AND},
    {"|", MF_TK_OR},       {"=", MF_TK_EQ},       {"<", MF_TK_LT},
    {">", MF_TK_GT},       {"+", MF_TK_PLUS},     {"-", MF_TK_MINUS},
    {"*", MF_TK_STAR},     {"/", MF_TK_SLASH},    {":", MF_TK_COLON},
    {";", MF_TK_SEMI},     {",", MF_TK_COMMA},    {"(", MF_TK_LPAREN},
    {")", MF_TK_RPAREN},   {"[", MF_TK_LBRACK},   {"]", MF_TK_RBRACK},
    {"{", MF_TK_LBRACE},   {"}", MF_TK_RBRACE},   {"?", MF_TK_QUEST},
    {".", MF_TK_DOT},
};

const char *mf_tk_name(mf_tkind k)
{
    switch (k) {
    case MF_TK_EOF:
        return "end of input";
    case MF_TK_ID:
        return "identifier";
    case MF_TK_INT:
        return "integer";
    case MF_TK_WORDC:
        return "word constant";
    case MF_TK_OTHER:
        return "character";
    default:
        break;
    }
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
        if (keywords[i].k == k)
            return keywords[i].s;
    for (size_t i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++)
        if (puncts[i].k == k)
            return puncts[i].s;
    return "token";
}

static int is_alpha(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int is_idchar(unsigned char c)
{
    return is_alpha(c) || is_digit(c) || c == '$' || c == '#' || c == '-';
}

/* Does a word constant (0[us]?[bodh][0-9]*_...) start at p[0] == '0'? */
static int word_const_at(const char *p, size_t n)
{
    size_t i = 1;
    if (i < n && (p[i] == 'u' || p[i] == 's'))
        i++;
    if (i >= n || !strchr("bBoOdDhH", p[i]) || p[i] == '\0')
        return 0;
    i++;
    while (i < n && is_digit((unsigned char)p[i]))
        i++;
    return i < n && p[i] == '_';
}

/* The length of `"name"` at p[0] == '"' (name: identifier characters), or
 * 0 when p does not start one. */
static size_t quoted_name_len(const char *p, size_t n)
{
    size_t j = 1;
    while (j < n && is_idchar((unsigned char)p[j]))
        j++;
    return j > 1 && j < n && p[j] == '"' ? j + 1 : 0;
}

static int lex_error(const char *file, int line, int col, const char *what)
{
    return mf_err_set(MF_EPARSE, "%s:%d:%d: error: %s", file, line, col, what);
}

int mf_lex(mf_token **out, int *ntok, const char *file, const char *text,
           size_t len)
{
    MF_VEC(mf_token) v = {0};
    size_t i = 0;
    int line = 1, col = 1, rc = MF_OK;
    char msg[96];

    *out = NULL;
    *ntok = 0;
    if (len > MF_LEX_MAX_INPUT)
        return mf_err_set(MF_ELIMIT,
                          "%s:1:1: error: input larger than %zu bytes", file,
                          MF_LEX_MAX_INPUT);
    while (i < len) {
        unsigned char c = (unsigned char)text[i];
        mf_token t = {0};
        if (c == '\n') {
            i++, line++, col = 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++, col++;
            continue;
        }
        if (c == '-' && i + 1 < len && text[i + 1] == '-') {
            while (i < len && text[i] != '\n')
                i++, col++;
            continue;
        }
        t.line = line;
        t.col = col;
        t.s = text + i;
        if (is_alpha(c)) {
            size_t j = i + 1;
            while (j < len && is_idchar((unsigned char)text[j])) {
                /* `a->b` is an implication, not identifier `a-` then `>b`;
                 * likewise `a--x` starts a comment. */
                if (text[j] == '-' && j + 1 < len &&
                    (text[j + 1] == '>' || text[j + 1] == '-'))
                    break;
                j++;
            }
            t.kind = MF_TK_ID;
            t.len = j - i;
            for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
                if (strlen(keywords[k].s) == t.len &&
                    memcmp(keywords[k].s, t.s, t.len) == 0) {
                    t.kind = keywords[k].k;
                    break;
                }
        } else if (c == '"' && quoted_name_len(text + i, len - i)) {
            /* a quoted identifier ("max"), as VerifAPS writes names that
             * are keywords: the quotes stay part of the name; any other
             * `"` is a one-character token, as before */
            t.kind = MF_TK_ID;
            t.len = quoted_name_len(text + i, len - i);
        } else if (is_digit(c)) {
            size_t j = i;
            if (c == '0' && word_const_at(text + i, len - i)) {
                j++;
                while (j < len && (is_alpha((unsigned char)text[j]) ||
                                   is_digit((unsigned char)text[j])))
                    j++;
                t.kind = MF_TK_WORDC;
            } else {
                int64_t val = 0;
                while (j < len && is_digit((unsigned char)text[j])) {
                    int d = text[j] - '0';
                    if (val > (INT64_MAX - d) / 10) {
                        rc = lex_error(file, line, col,
                                       "integer constant too large");
                        goto cleanup;
                    }
                    val = val * 10 + d;
                    j++;
                }
                t.kind = MF_TK_INT;
                t.ival = val;
            }
            t.len = j - i;
        } else if (c >= 0x80) {
            rc = lex_error(file, line, col,
                           "non-ASCII character outside a comment");
            goto cleanup;
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(msg, sizeof(msg), "unexpected control character 0x%02x",
                     c);
            rc = lex_error(file, line, col, msg);
            goto cleanup;
        } else {
            t.kind = MF_TK_OTHER;
            t.len = 1;
            for (size_t k = 0; k < sizeof(puncts) / sizeof(puncts[0]); k++) {
                size_t n = strlen(puncts[k].s);
                if (n <= len - i && memcmp(puncts[k].s, t.s, n) == 0) {
                    t.kind = puncts[k].k;
                    t.len = n;
                    break;
                }
            }
        }
        i += t.len;
        col += (int)t.len;
        MF_VEC_PUSH(v, t);
    }
    {
        mf_token eof = {0};
        eof.kind = MF_TK_EOF;
        eof.line = line;
        eof.col = col;
        eof.s = text + len;
        MF_VEC_PUSH(v, eof);
    }
    *out = v.v;
    *ntok = v.n;
    return MF_OK;

cleanup:
    MF_VEC_FREE(v);
    return rc;
}
