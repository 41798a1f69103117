/* ast.h - the parse tree of an SMV file, as written: modules with their
 * declarations, definitions, assignments, constraints and specifications.
 *
 * Produced by mf_parse() (parser.c) and consumed by flattening (flatten.c).
 * Nothing here is resolved or type checked; identifiers are as written. */
#ifndef MF_AST_H
#define MF_AST_H

#include "model.h"

typedef enum {
    MF_AT_BOOL,  /* boolean */
    MF_AT_ENUM,  /* {a, b, 3}: vals are MF_E_SYM / MF_E_INT nodes */
    MF_AT_RANGE, /* lo..hi, constant expressions */
    MF_AT_ARRAY, /* array lo..hi of elem */
    MF_AT_INST,  /* module instance: module(args) */
    MF_AT_WORD,  /* [signed|unsigned] word[lo]: lo is the width */
    MF_AT_INTEGER, /* integer (unbounded) */
} mf_atkind;

typedef struct mf_ast_type {
    mf_atkind kind;
    int line, col;
    mf_expr *lo, *hi;          /* MF_AT_RANGE, MF_AT_ARRAY; MF_AT_WORD: lo */
    int is_signed;             /* MF_AT_WORD: `signed word` */
    int nvals;                 /* MF_AT_ENUM */
    mf_expr **vals;            /* MF_AT_ENUM */
    struct mf_ast_type *elem;  /* MF_AT_ARRAY */
    const char *module;        /* MF_AT_INST */
    int nargs;                 /* MF_AT_INST */
    mf_expr **args;            /* MF_AT_INST: actual parameters */
    int process;               /* MF_AT_INST: declared `process M(...)` */
} mf_ast_type;

typedef struct {
    mf_declkind kind;
    const char *name; /* may be dotted or indexed in flattened files */
    mf_ast_type *type;
    int line, col;
} mf_ast_decl;

typedef struct {
    const char *name;
    mf_expr *body;
    int line, col;
} mf_ast_define;

typedef enum { MF_ASG_INIT, MF_ASG_NEXT, MF_ASG_INVAR } mf_asgkind;

typedef struct {
    mf_asgkind kind;
    mf_expr *lhs; /* MF_E_ID or MF_E_INDEX: the assigned variable (element) */
    mf_expr *rhs;
    int line, col;
} mf_ast_assign;

typedef enum { MF_CON_INIT, MF_CON_TRANS, MF_CON_INVAR } mf_conkind;

typedef struct {
    mf_conkind kind;
    mf_expr *e;
    int line, col;
} mf_ast_constraint;

/* SPEC, CTLSPEC, LTLSPEC, INVARSPEC, PSLSPEC, FAIRNESS, JUSTICE, COMPASSION,
 * COMPUTE: kept as text (tokens joined by one space, comments dropped) and
 * never interpreted. */
typedef struct {
    const char *keyword;
    const char *text;
    int line, col;
} mf_ast_spec;

/* `ISA name`: the sections of module `name` are read as if written here. */
typedef struct {
    const char *module;
    int line, col;
} mf_ast_isa;

/* The sections of a module, each kind in source order (the order across
 * kinds is not kept; items carry their line/col). The vectors are heap
 * memory freed by mf_ast_free; their contents live in the arena. */
typedef struct mf_ast_module {
    const char *name;
    int line, col;
    int nparams;
    const char **params;
    MF_VEC(mf_ast_decl) decls;
    MF_VEC(mf_ast_define) defines;
    MF_VEC(mf_ast_assign) assigns;
    MF_VEC(mf_ast_constraint) constraints;
    MF_VEC(mf_ast_spec) specs;
    MF_VEC(mf_ast_isa) isa;
} mf_ast_module;

typedef struct {
    mf_arena *arena;  /* owns every node and string */
    const char *file; /* name used in messages */
    MF_VEC(mf_ast_module *) modules;
} mf_ast;

/* Parse SMV text. On success *out is the caller's (mf_ast_free). On failure
 * returns MF_EPARSE, MF_EUNSUPPORTED (or MF_ELIMIT for oversized input)
 * with the message
 * "file:line:col: error: ..." / "file:line:col: unsupported: ..." in
 * mf_err_msg(), and *out is NULL. `text` need not be NUL-terminated. */
int mf_parse(mf_ast **out, const char *file, const char *text, size_t len);
void mf_ast_free(mf_ast *ast); /* NULL-safe */

/* The flat model of a parsed tree (flatten.c, flatten_items.c), of
 * language `lang` (lang.h; SMV's or a language read through SMV), as
 * lang.h's load returns it. */
struct mf_lang;
int mf_smv_flatten(mf_model **out, const mf_ast *ast,
                   const struct mf_lang *lang, const mf_model_opts *opts);

#endif
