/* flatten.h - what the two halves of SMV flattening share (flatten.c:
 * names, the instance tree, resolution; flatten_items.c: constants, types,
 * items and the model): the state of one flattening and the calls between
 * them. Private to smv/. */
#ifndef MF_SMV_FLATTEN_H
#define MF_SMV_FLATTEN_H

#include "ast.h"
#include "process.h"

#define MAX_INSTANCE_DEPTH 64
#define MAX_EXPR_DEPTH 2000

/* One module instance: the module, its flat prefix and its parameters. */
typedef struct inst {
    const mf_ast_module *mod;
    const char *prefix;      /* "" for main, "a.b" below */
    struct inst *parent;     /* NULL for main */
    const mf_ast_type *decl; /* the MF_AT_INST that made it (args) */
    mf_expr **bound;         /* resolved actual parameters (nparams) */
    int resolving;           /* cycle guard while binding */
    const char *proc;        /* the process it moves with: "main" or a
                              * process instance's name (model/process.c) */
} inst;

/* A name in the flat namespace. */
typedef enum { NM_VAR, NM_DEFINE, NM_INST } nmkind;
typedef struct {
    const char *name;
    nmkind kind;
    int index; /* var index, define index, or instance index */
} nment;

typedef struct {
    mf_model *m;
    const mf_ast *ast;
    const char *file;
    MF_VEC(inst *) insts;
    MF_VEC(mf_var) vars;
    MF_VEC(const mf_ast_decl *) var_decls; /* parallel to vars */
    MF_VEC(inst *) var_inst;               /* parallel to vars */
    MF_VEC(mf_item) defines;
    MF_VEC(inst *) define_inst;
    MF_VEC(const mf_ast_define *) define_ast;
    MF_VEC(mf_item) assigns;
    MF_VEC(const char *) assign_proc; /* parallel to assigns */
    MF_VEC(const char *) procs;       /* process instances */
    int selvar;                       /* the scheduler input, or -1 */
    MF_VEC(mf_item) constraints;
    MF_VEC(mf_spec) specs;
    MF_VEC(const char *) syms;
    /* open-addressing table of flat names */
    nment *tab;
    int tabcap, tabn;
} fctx;

/* The entry of a flat name, or NULL; adding one (flatten.c). */
nment *mf_flat_find(fctx *c, const char *name);
void mf_flat_put(fctx *c, const char *name, nmkind kind, int index);
/* The index of symbolic constant `name` (added when add is set; else -1
 * when unknown). */
int mf_flat_sym(fctx *c, const char *name, int add);
/* Sets the message "file:line:col: error|unsupported: ..." and returns
 * code. */
int mf_flat_err(fctx *c, int code, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
const mf_ast_module *mf_flat_module(const mf_ast *ast, const char *name);
/* Pass A: the instances of `mod` under `prefix`, their variables and
 * DEFINEs named. */
int mf_flat_collect(fctx *c, const mf_ast_module *mod, const char *prefix,
                    inst *parent, const mf_ast_type *decl, int depth);
/* Pass B: e with its identifiers resolved in instance `in`. */
int mf_flat_resolve(fctx *c, mf_expr **out, const mf_expr *e, inst *in,
                    int depth);

#endif
