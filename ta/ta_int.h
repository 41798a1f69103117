/* ta_int.h - what the files of ta/ share and nothing outside uses: the
 * raw model a format reader (uppaal.c, ecdar.c) hands to the common
 * builder (build.c, flatten.c), the declarations language's lexer and
 * parser (lex.c, parse.c), and the reader's private data kept in a net. */
#ifndef MF_TA_INT_H
#define MF_TA_INT_H

#include "ta.h"

/* ---- the raw model: texts as the file holds them ------------------------ */

/* A text of the declarations language and where it starts. */
typedef struct {
    const char *text; /* NULL or "": absent */
    ta_pos pos;
    int one_line;     /* a JSON string: its newlines are escapes on one
                         line of the file, so positions stay on pos.line */
} ta_text;

typedef struct {
    const char *id, *name;
    ta_text inv;
    int urgent, committed;
    int removed; /* an SMI mutant's: kept for its index, without edges */
    ta_pos pos;
} ta_raw_loc;

typedef struct {
    const char *src, *dst; /* location ids */
    ta_text select, guard, sync, update;
    ta_pos pos;
} ta_raw_edge;

typedef struct {
    const char *name;
    ta_text params; /* "const id_t id, chan &c" */
    ta_text decls;
    int nlocs;
    ta_raw_loc *locs;
    const char *init; /* the initial location's id */
    int nedges;
    ta_raw_edge *edges;
    ta_pos pos;
    /* Ecdar: the component's channels by role, from the edges' status */
} ta_raw_tmpl;

typedef struct {
    ta_format format;
    ta_text globals;
    int ntmpls;
    ta_raw_tmpl *tmpls;
    ta_text system; /* UPPAAL's <system>; Ecdar: NULL, one instance of the
                       template named by `instance` */
    const char *instance;
    const char *src; /* the model's text as read (printing mutants back):
                        UPPAAL's XML, or the Ecdar component's JSON */
    size_t srclen;
    const char *src_path; /* Ecdar: the component's file */
    /* A mutant's raw model: the network whose channel roles and
     * environment processes the build keeps instead of settling them */
    const struct ta_net *roles_from;
} ta_raw;

/* ---- types ---------------------------------------------------------------- */

typedef struct {
    ta_vkind kind;      /* TA_V_INT, TA_V_BOOL, TA_V_CLOCK; channels below */
    int is_chan, urgent, broadcast;
    int is_const, is_ref;
    int64_t lo, hi;
    int ndims, dims[TA_MAX_DIMS];
} ta_type;

/* ---- the declarations language ------------------------------------------ */

typedef enum {
    TK_EOF,
    TK_ID,
    TK_NUM,
    TK_PUNCT, /* text holds the operator: "==", "(", "<?" */
} ta_tokkind;

typedef struct {
    ta_tokkind kind;
    const char *text; /* arena copy */
    int64_t num;
    int line, col;
} ta_tok;

/* A type as written, before its bounds are evaluated. */
typedef struct {
    enum { PT_INT, PT_BOOL, PT_CLOCK, PT_CHAN, PT_VOID, PT_NAMED,
           PT_STRUCT /* a typedef of a struct: declared, never used */ } base;
    ta_expr *lo, *hi; /* int[lo,hi]; NULL: plain */
    const char *name; /* PT_NAMED: a typedef's name */
    int is_const, urgent, broadcast, is_ref;
} ta_ptype;

typedef struct ta_pdecl {
    enum { PD_VAR, PD_TYPEDEF, PD_FUNC } kind;
    ta_ptype type;
    const char *name;
    int ndims;
    ta_expr *dims[TA_MAX_DIMS];
    ta_expr *init; /* NULL, an expression or a TA_E_LIST */
    /* PD_FUNC: locals[0 .. nparams) are its parameters, then its
     * block-local declarations in order; the body's TA_S_LOCAL and
     * TA_R_FLOCAL refer to them by index */
    int nparams, nlocals;
    struct ta_pdecl *locals;
    ta_stmt *body;
    int nquant; /* quantified variables numbered in the body */
    int line, col;
} ta_pdecl;

typedef struct {
    int n;
    ta_pdecl *v;
} ta_pdecls;

/* The parser's context: the text, where it is, the names known to be
 * types, and the names bound around an expression (select variables,
 * quantified variables, function locals). */
typedef struct ta_parser ta_parser;

/* Is `name` a type name in the scope the builder keeps (ctx)? */
typedef int (*ta_is_type_fn)(void *ctx, const char *name);

/* A parser of the text t (from `file`, for messages). */
ta_parser *ta_parser_new(mf_arena *a, const ta_text *t, const char *file,
                         ta_is_type_fn is_type, void *ctx);
void ta_parser_free(ta_parser *p);
/* Declarations up to the end of the text (global, template or system
 * declarations; in the system text, instantiations and the system line
 * are parsed by ta_parse_system instead). */
int ta_parse_decls(ta_parser *p, ta_pdecls *out);
/* One expression filling the whole text (a guard, an invariant). *out
 * NULL when the text is blank. */
int ta_parse_expr_text(ta_parser *p, ta_expr **out);
/* A comma-separated list of expressions (updates; template arguments). */
int ta_parse_expr_list(ta_parser *p, ta_expr ***out, int *n);
/* `e : type, f : type` (an edge's select): names and ranges. */
int ta_parse_select(ta_parser *p, const char ***names, ta_ptype **types,
                    int *n);
/* `chan-expr !` or `chan-expr ?`: *dir and *e; blank: dir NONE. */
int ta_parse_sync(ta_parser *p, ta_syncdir *dir, ta_expr **e);
/* Template parameters "const id_t id, chan &c[N]". */
int ta_parse_params(ta_parser *p, ta_pdecls *out);
/* Names bound for the expressions parsed next: the select variables of an
 * edge (TA_R_SELECT i), cleared with n 0. */
void ta_parser_bind_selects(ta_parser *p, const char *const *names, int n);

/* The system text: declarations, instantiations and the system line. */
typedef struct {
    const char *name;    /* the instance */
    const char *tmpl;    /* the template */
    int nargs;
    ta_expr **args;
    int line;
} ta_pinst;

typedef struct {
    ta_pdecls decls;
    int ninst;
    ta_pinst *inst;
    int nsys;
    const char **sys; /* the names on the system line, in order */
    int *sys_line;
} ta_psystem;

int ta_parse_system(ta_parser *p, ta_psystem *out);

/* libxml2 initialised once, whichever thread reads XML first (uppaal.c). */
void ta_xml_init(void);

/* ---- the builder ---------------------------------------------------------- */

/* The raw model to a net: declarations parsed and resolved, templates
 * built, instances flattened, roles settled by opts. The raw model and
 * its texts live in arena a, which the net takes on success (and keeps
 * the raw model as its priv); on failure a stays the caller's. */
int ta_build(ta_net **out, mf_arena *a, const char *file, const ta_raw *raw,
             const ta_opts *opts);

/* ---- expressions and messages (net.c) ------------------------------------ */

/* The current message made one line (names and texts from a file may
 * hold newlines); returns rc. */
int ta_err_one_line(int rc);

ta_expr *ta_expr_new(mf_arena *a, ta_ekind kind, int line, int col);
ta_expr *ta_expr_int(mf_arena *a, int64_t v, int line, int col);
ta_expr *ta_expr_bin(mf_arena *a, int op, ta_expr *l, ta_expr *r);
ta_expr *ta_expr_un(mf_arena *a, int op, ta_expr *x);
void ta_expr_add(mf_arena *a, ta_expr *e, ta_expr *kid);
ta_expr *ta_expr_copy(mf_arena *a, const ta_expr *e);
ta_stmt *ta_stmt_copy(mf_arena *a, const ta_stmt *s);
int ta_expr_equal(const ta_expr *x, const ta_expr *y);
/* An expression's top-level conjuncts (&& and `and`), pushed to *out. */
void ta_conjuncts(const ta_expr *e, ta_expr ***v, int *n, int *cap);

#endif
