/* ta_build.h - the builder's state, shared by build.c (declarations,
 * scopes, types, constants, templates), flatten.c (instances, processes,
 * clock constraints) and roles.c (inputs and outputs). */
#ifndef MF_TA_BUILD_H
#define MF_TA_BUILD_H

#include "ta_int.h"

typedef enum {
    SYM_VAR,   /* idx: net var (global) or template var */
    SYM_CHAN,  /* idx: net chan (element 0) */
    SYM_FUNC,  /* idx: net func or template func */
    SYM_TYPE,  /* idx: into b->types */
    SYM_PARAM, /* idx: template parameter */
} ta_symkind;

typedef struct {
    ta_symkind kind;
    const char *name;
    int idx;
} ta_sym;

typedef MF_VEC(ta_sym) ta_symvec;

typedef struct {
    const char *name;
    ta_type t;
    int is_struct; /* a struct: no value of it is read */
} ta_typedef;

/* What the builder keeps of a template beyond ta_tmpl. */
typedef struct {
    ta_symvec syms;        /* params, vars, funcs, typedefs in order */
    ta_pdecl *params;      /* nparams parsed parameters */
    ta_pdecl **vdecl;      /* per template var: its declaration */
    ta_type *ptype;        /* per parameter: its type (bounds evaluated
                              where they are constant) */
    ta_ptype **seltype;    /* per edge: its select variables' types */
} ta_tbld;

/* One instance's bindings, for flattening its template's items. */
typedef struct {
    int tmpl;
    int64_t *pval;    /* per parameter: its value (value parameters) */
    ta_expr **pref;   /* per parameter: the flat expression it stands for
                         (reference parameters), or NULL */
    int *pvar;        /* per parameter: the flat var of a non-const value
                         parameter, or -1 */
    int *tvar;        /* per template var: its flat var */
    int *tfunc;       /* per template func: its flat func */
    int64_t **tconst; /* per template var: a constant's values, or NULL */
} ta_inst;

typedef struct ta_bld {
    ta_net *net;
    mf_arena *a;
    const char *file;
    const ta_raw *raw;
    const ta_opts *opts;
    ta_symvec gsyms;           /* global (and system) names */
    MF_VEC(ta_typedef) types;
    MF_VEC(ta_var) vars;       /* become net->vars */
    MF_VEC(ta_chan) chans;
    MF_VEC(ta_func) funcs;
    ta_tbld *tb;               /* per template */
    int cur;                   /* the template being built, or -1 */
    const ta_inst *inst;       /* the instance being flattened, or NULL */
    const char *const *sel;    /* the edge's select names (messages) */
    ta_pos pos;                /* the item being built (messages) */
} ta_bld;

/* ---- scope.c ---- */

/* The symbol `name` means in the current scope (the template b->cur's,
 * then the globals), *local set when it is the template's; NULL. */
const ta_sym *ta_bld_lookup(ta_bld *b, const char *name, int *local);
/* Declares name in the current scope; MF_ETYPE when it is there. */
int ta_bld_declare_sym(ta_bld *b, ta_symkind k, const char *name, int idx,
                       const ta_pdecl *d);
/* "file:line:col: error: ..." at e (or the item's position). */
int ta_bld_err(ta_bld *b, int code, const ta_expr *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- build.c ---- */

/* The value of a constant expression (resolved; in b->inst's bindings
 * when set): 0 and *v, else MF_ETYPE "not a constant". */
int ta_ceval(ta_bld *b, const ta_expr *e, int64_t *v);
/* A parsed type with bounds and dims evaluated (b->inst's bindings). */
int ta_eval_type(ta_bld *b, const ta_ptype *pt, ta_expr *const *dims,
                 int ndims, int line, ta_type *out);
/* Names of a parsed expression resolved in the current scope (the
 * template b->cur's, then the globals); global scalar constants folded. */
int ta_resolve(ta_bld *b, ta_expr *e);
/* A var's type for the current scope: the TA_R_VAR/TA_R_TVAR/TA_R_PARAM
 * that e refers to, else NULL. */
const ta_type *ta_ref_type(ta_bld *b, const ta_expr *e, ta_type *tmp);

/* Parses a text of declarations (empty: none). */
int ta_bld_parse_decls(ta_bld *b, const ta_text *t, ta_pdecls *out);
/* Template ti built at the template level. */
int ta_bld_template(ta_bld *b, int ti);
/* For the parser: is name a type in the current scope (ctx is the bld)? */
int ta_bld_is_type(void *ctx, const char *name);
/* Declarations into the current scope (b->cur -1: the globals). */
int ta_bld_declare(ta_bld *b, ta_pdecls *ds);
/* A variable of type t declared by d, its initial values evaluated (in
 * b->inst's bindings). */
int ta_bld_make_var(ta_bld *b, const ta_pdecl *d, const ta_type *t,
                    ta_var *v);

/* The processes: the system text's declarations and instances, each
 * instance's template items flattened (flatten.c). */
int ta_flatten(ta_bld *b);
/* Inputs and outputs (roles.c). */
int ta_roles(ta_bld *b);
/* ---- clocks.c ---- */

/* Does e (a reference) name a clock, does e contain one; the flat clock
 * of a flat reference with constant indices (a message otherwise). */
int ta_is_clock_ref(ta_bld *b, const ta_expr *e);
int ta_has_clock(ta_bld *b, const ta_expr *e);
int ta_clock_index(ta_bld *b, const ta_expr *e, int *out);
/* Clock constraints of a template-level or flat guard/invariant. */
int ta_split_guard(ta_bld *b, ta_expr *g, int flat, ta_cc **cc, int *ncc,
                   ta_expr **data);
int ta_split_inv(ta_bld *b, ta_expr *g, int flat, ta_cc **cc, int *ncc,
                 ta_expr **data);

#endif
