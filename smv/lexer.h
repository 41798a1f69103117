/* lexer.h - splits SMV (NuSMV language) text into tokens.
 *
 * Identifiers follow NuSMV: [A-Za-z_][A-Za-z0-9_$#-]*, so `i-1` and
 * `and-gate` are single identifiers (one exception: a `-` directly followed
 * by `>` ends the identifier, so `a->b` is `a -> b`); a name in double
 * quotes (`"max"`) is one identifier, quotes included. Integers are decimal
 * and unsigned (a leading `-` is the unary minus token). Word constants
 * (`0ud8_5`, `0sd16_1000`, `0b_101`) get their own kind; the parser reads
 * their text (word.c). `--` comments are dropped; non-ASCII bytes are
 * allowed only inside comments. Any other printable ASCII character becomes
 * a one-character MF_TK_OTHER token (`@`, `~`, ... in temporal specs). */
#ifndef MF_LEXER_H
#define MF_LEXER_H

#include "mf.h"

typedef enum {
    MF_TK_EOF,
    MF_TK_ID,
    MF_TK_INT,   /* ival holds the value */
    MF_TK_WORDC, /* word constant, text only */
    MF_TK_OTHER, /* any other single printable character */
    /* keywords */
    MF_TK_MODULE,
    MF_TK_VAR,
    MF_TK_IVAR,
    MF_TK_FROZENVAR,
    MF_TK_DEFINE,
    MF_TK_ASSIGN,
    MF_TK_INIT_SEC,
    MF_TK_TRANS,
    MF_TK_INVAR,
    MF_TK_SPEC,
    MF_TK_CTLSPEC,
    MF_TK_LTLSPEC,
    MF_TK_INVARSPEC,
    MF_TK_PSLSPEC,
    MF_TK_FAIRNESS,
    MF_TK_JUSTICE,
    MF_TK_COMPASSION,
    MF_TK_COMPUTE,
    MF_TK_CONSTANTS,
    MF_TK_ISA,
    MF_TK_init,
    MF_TK_next,
    MF_TK_case,
    MF_TK_esac,
    MF_TK_TRUE,
    MF_TK_FALSE,
    MF_TK_boolean,
    MF_TK_array,
    MF_TK_of,
    MF_TK_process,
    MF_TK_self,
    MF_TK_mod,
    MF_TK_union,
    MF_TK_in,
    MF_TK_xor,
    MF_TK_xnor,
    MF_TK_word,
    MF_TK_signed,
    MF_TK_unsigned,
    MF_TK_integer,
    MF_TK_real,
    MF_TK_min,
    MF_TK_max,
    MF_TK_abs,
    MF_TK_toint,
    MF_TK_bool,
    MF_TK_count,
    MF_TK_word1,
    MF_TK_extend,
    MF_TK_resize,
    MF_TK_sizeof,
    MF_TK_uwconst,
    MF_TK_swconst,
    /* operators and punctuation */
    MF_TK_NOT,     /* ! */
    MF_TK_AND,     /* & */
    MF_TK_OR,      /* | */
    MF_TK_IMPLIES, /* -> */
    MF_TK_IFF,     /* <-> */
    MF_TK_EQ,      /* = */
    MF_TK_NE,      /* != */
    MF_TK_LT,      /* < */
    MF_TK_LE,      /* <= */
    MF_TK_GT,      /* > */
    MF_TK_GE,      /* >= */
    MF_TK_PLUS,    /* + */
    MF_TK_MINUS,   /* - */
    MF_TK_STAR,    /* * */
    MF_TK_SLASH,   /* / */
    MF_TK_DOTDOT,  /* .. */
    MF_TK_COLON,   /* : */
    MF_TK_BECOMES, /* := */
    MF_TK_SEMI,    /* ; */
    MF_TK_COMMA,   /* , */
    MF_TK_LPAREN,  /* ( */
    MF_TK_RPAREN,  /* ) */
    MF_TK_LBRACK,  /* [ */
    MF_TK_RBRACK,  /* ] */
    MF_TK_LBRACE,  /* { */
    MF_TK_RBRACE,  /* } */
    MF_TK_QUEST,   /* ? */
    MF_TK_DOT,     /* . */
    MF_TK_CONCAT,  /* :: */
    MF_TK_SHL,     /* << */
    MF_TK_SHR,     /* >> */
} mf_tkind;

typedef struct {
    mf_tkind kind;
    int line, col; /* 1-based; col counts bytes */
    const char *s; /* points into the input text (not NUL-terminated) */
    size_t len;    /* bytes of s */
    int64_t ival;  /* MF_TK_INT */
} mf_token;

/* Inputs larger than this are refused with MF_ELIMIT. */
#define MF_LEX_MAX_INPUT ((size_t)256 << 20)

/* Tokenise text[0..len). On success *out is a malloc'd array of *ntok tokens
 * whose last one is MF_TK_EOF (at the position just past the input); free it
 * with free(). Token texts point into `text`, which must outlive them. On
 * failure returns MF_EPARSE (or MF_ELIMIT) with "file:line:col: error: ..."
 * in mf_err_msg(), and *out is NULL. */
int mf_lex(mf_token **out, int *ntok, const char *file, const char *text,
           size_t len);

/* A short description of a token kind for messages ("';'", "identifier"). */
const char *mf_tk_name(mf_tkind k);

#endif
