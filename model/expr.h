/* expr.h - the expression tree shared by the parse tree (ast.h) and the
 * flattened model (model.h).
 *
 * One node type serves every expression: constants, identifiers, next(),
 * operators, case, ?:, sets, ranges, calls and array indexing. Nodes live in
 * an arena (mf.h) and are never freed one by one. The parser fills kind, op,
 * line/col, ival, name and kids; flattening resolves identifiers (ref_kind,
 * ref) and rewrites `name` to the flat, dotted name. */
#ifndef MF_EXPR_H
#define MF_EXPR_H

#include "mf.h"

typedef enum {
    MF_E_BOOL,  /* TRUE/FALSE: ival 1/0 */
    MF_E_INT,   /* integer literal: ival */
    MF_E_SYM,   /* symbolic constant (enumeration literal): name */
    MF_E_ID,    /* identifier, possibly dotted ("a.b.c", "self.x"): name */
    MF_E_NEXT,  /* next(kids[0]) */
    MF_E_NOT,   /* !kids[0] */
    MF_E_NEG,   /* -kids[0] (unary minus) */
    MF_E_BIN,   /* kids[0] op kids[1], op is an mf_binop */
    MF_E_CASE,  /* case c0 : v0; c1 : v1; ... esac: kids = c0,v0,c1,v1,... */
    MF_E_ITE,   /* kids[0] ? kids[1] : kids[2] */
    MF_E_SET,   /* {kids[0], kids[1], ...} */
    MF_E_RANGE, /* kids[0] .. kids[1] used as a value (a set) */
    MF_E_CALL,  /* op(kids...), op is an mf_fn */
    MF_E_INDEX, /* kids[0][kids[1]] */
    MF_E_WORD,  /* word constant: ival its value, wty its type (below) */
} mf_ekind;

typedef enum {
    MF_OP_AND,
    MF_OP_OR,
    MF_OP_XOR,
    MF_OP_XNOR,
    MF_OP_IMPLIES, /* -> */
    MF_OP_IFF,     /* <-> */
    MF_OP_EQ,
    MF_OP_NE,
    MF_OP_LT,
    MF_OP_LE,
    MF_OP_GT,
    MF_OP_GE,
    MF_OP_ADD,
    MF_OP_SUB,
    MF_OP_MUL,
    MF_OP_DIV,
    MF_OP_MOD,
    MF_OP_UNION,
    MF_OP_IN,
    MF_OP_SHL,    /* << on words */
    MF_OP_SHR,    /* >> on words */
    MF_OP_CONCAT, /* :: on words */
    MF_OP__COUNT
} mf_binop;

typedef enum {
    MF_FN_MIN,
    MF_FN_MAX,
    MF_FN_ABS,
    MF_FN_TOINT,
    MF_FN_BOOL,
    MF_FN_COUNT, /* count(b1, b2, ...): number of TRUE arguments */
    /* words (docs/smv.md): */
    MF_FN_WORD1,    /* word1(b) */
    MF_FN_SIGNED,   /* signed(w) */
    MF_FN_UNSIGNED, /* unsigned(w) */
    MF_FN_EXTEND,   /* extend(w, n) */
    MF_FN_RESIZE,   /* resize(w, n) */
    MF_FN_SIZEOF,   /* sizeof(w) */
    MF_FN_SWCONST,  /* swconst(v, n) */
    MF_FN_UWCONST,  /* uwconst(v, n) */
    MF_FN_SELECT,   /* kids[0][kids[1]:kids[2]], bounds integer literals */
    MF_FN__COUNT
} mf_fn;

/* The type of a word value, as mf_expr.wty and mf_type.wty hold it:
 * 0 for a value that is no word, else width * 2 + (1 if signed). */
#define MF_WTY(width, is_signed) ((width) * 2 + ((is_signed) ? 1 : 0))
#define MF_WTY_WIDTH(w) ((w) >> 1)
#define MF_WTY_SIGNED(w) ((w) & 1)
/* Widest word accepted: every value of a word[32] fits the int64 values of
 * the simulator with room for products, and stays below the codes of
 * symbolic constants in the Z3 encoding (docs/smv.md). */
#define MF_WORD_MAX_WIDTH 32

/* What an MF_E_ID refers to once the model is flattened. */
typedef enum {
    MF_REF_NONE = 0, /* not resolved (parse tree) */
    MF_REF_VAR,      /* ref is an index into mf_model.vars */
    MF_REF_DEFINE,   /* ref is an index into mf_model.items (an MF_IT_DEFINE) */
} mf_refkind;

typedef struct mf_expr {
    mf_ekind kind;
    int op;               /* mf_binop (MF_E_BIN) or mf_fn (MF_E_CALL) */
    int line, col;        /* where the node starts in the source, 1-based */
    int64_t ival;         /* MF_E_BOOL, MF_E_INT */
    const char *name;     /* MF_E_ID, MF_E_SYM; arena-owned */
    mf_refkind ref_kind;  /* MF_E_ID after flattening */
    int ref;              /* index for ref_kind */
    int wty;              /* MF_E_WORD: its type; else set by type checking
                           * (typecheck.c) on every node whose value is a word,
                           * 0 on the others */
    int nkids;            /* number of children */
    struct mf_expr **kids; /* children; arena-owned */
} mf_expr;

/* Node constructors; all nodes and their kid arrays come from `a`. */
mf_expr *mf_expr_new(mf_arena *a, mf_ekind kind, int line, int col);
mf_expr *mf_expr_int(mf_arena *a, int64_t v, int line, int col);
mf_expr *mf_expr_bool(mf_arena *a, int v, int line, int col);
mf_expr *mf_expr_un(mf_arena *a, mf_ekind kind, mf_expr *x);
mf_expr *mf_expr_bin(mf_arena *a, mf_binop op, mf_expr *l, mf_expr *r);
/* Append a child (grows kids). */
void mf_expr_add(mf_arena *a, mf_expr *e, mf_expr *kid);
/* Deep copy of e into arena a (names are re-duplicated). */
mf_expr *mf_expr_copy(mf_arena *a, const mf_expr *e);
/* Structural equality (kinds, ops, values, names, children). */
int mf_expr_equal(const mf_expr *x, const mf_expr *y);

/* The spelling of an operator or function ("&", "->", "mod", "min"). */
const char *mf_binop_str(mf_binop op);
const char *mf_fn_str(mf_fn fn);

#endif
