/* ta.h - timed automata as mutfarm reads them (docs/timed.md): the
 * network of an UPPAAL XML model or of an Ecdar component, flattened, its
 * mutation operators and its mutants.
 *
 * A network (ta_net) is kept at two levels:
 *   - the templates as written (ta_tmpl): their locations and edges with
 *     expressions whose names are resolved in the template's scope
 *     (global declarations, the template's parameters and declarations,
 *     an edge's select variables). Mutants are changes of these items, so
 *     that a mutant prints back as the same template changed (XML or JSON)
 *     and one mutation of a template changes every instance of it;
 *   - the flattened network (ta_proc): one process per instance of the
 *     `system` line, parameters bound, every name resolved to a flat
 *     variable, channel, function, select variable or function local.
 *     Process p's location i and edge j are the flat copies of location i
 *     and edge j of its template (same indices). A mutant is applied
 *     (ta_mutant_apply) by building the network again with the mutated
 *     template item's labels printed back: the mutant's network is the
 *     one reading its printed file gives, with the original's roles.
 * Engines (the bounded search, the complete check, the simulator) read the
 * flattened level only: procs, vars, chans, funcs, and the clock
 * constraints already split out of guards and invariants (ta_cc).
 *
 * Values: every integer, boolean and constant is an int64_t; booleans are
 * 0/1. Clocks are real-valued and not cells of the discrete state. The
 * discrete state is a vector of ncells int64_t: variable v occupies cells
 * vars[v].cell .. vars[v].cell + vars[v].ncells - 1 (arrays row-major);
 * clock variable v is clocks vars[v].clock .. + ncells - 1 of a clock
 * vector of nclocks reals. Constants occupy no cell: their value is in
 * vars[v].init; a scalar constant's uses are folded to TA_E_INT nodes
 * (name kept for printing), a constant array is read from its init.
 *
 * Memory: a net owns one arena (mf.h) holding everything reachable from
 * it; a mutant's network (ta_mutant_apply) has its own. Nothing here is
 * freed piecewise. Reading never asserts on input: bad input is a
 * negative MF_E* code with one "file:line:col: error: ..." message (an
 * unsupported construct: "file:line:col: unsupported: ..."), one line.
 *
 * Threads: a net is read-only once built; any number of threads may read
 * it, enumerate its mutants and apply them at once. */
#ifndef MF_TA_H
#define MF_TA_H

#include "mf.h"

#include <stdint.h>

/* Most array dimensions of a variable. */
#define TA_MAX_DIMS 3

/* ---- source positions ---------------------------------------------------- */

/* Where an item was read: the file (for UPPAAL the .xml; for Ecdar the
 * component's or the global declarations' .json inside the project) and
 * the 1-based line (col 0 when unknown). For an expression inside an XML
 * label or a JSON string, the line of the text itself (the label's line
 * plus the newlines before it). line 0: made by mutfarm (an added edge). */
typedef struct {
    const char *file; /* arena-owned, shared by the items of one file */
    int line, col;
} ta_pos;

/* ---- expressions ---------------------------------------------------------- */

typedef enum {
    TA_E_INT,    /* integer or boolean literal, or a folded constant: ival;
                    name: the constant's name as written, or NULL */
    TA_E_BOOL,   /* true/false as written: ival 1/0 */
    TA_E_REF,    /* a name: ref_kind/ref below; name as written */
    TA_E_INDEX,  /* kids[0][kids[1]] (kids[0] a TA_E_REF or TA_E_INDEX) */
    TA_E_UN,     /* op kids[0]; op is TA_OP_NEG, TA_OP_NOT, TA_OP_BNOT,
                    TA_OP_PLUS */
    TA_E_BIN,    /* kids[0] op kids[1] */
    TA_E_ITE,    /* kids[0] ? kids[1] : kids[2] */
    TA_E_ASSIGN, /* kids[0] op kids[1]; op TA_OP_ASSIGN or a compound
                    (TA_OP_ADD for +=, ..., like C); kids[0] an lvalue */
    TA_E_INCDEC, /* ++/--: op TA_OP_PREINC, TA_OP_PREDEC, TA_OP_POSTINC,
                    TA_OP_POSTDEC on the lvalue kids[0] */
    TA_E_CALL,   /* function ref (ta_net.funcs, or the template's in the
                    template level) applied to kids[0..nkids) */
    TA_E_QUANT,  /* forall/exists/sum (op TA_OP_FORALL, TA_OP_EXISTS,
                    TA_OP_SUM) (name : int[lo,hi]) kids[0]: the bound
                    variable is referred to as TA_R_QVAR `bvar` */
    TA_E_LIST,   /* { kids }: an array's initialiser (declarations only) */
} ta_ekind;

typedef enum {
    /* binary, C's meaning on int64_t (division by zero: an error of the
     * evaluator, not undefined behaviour) */
    TA_OP_ADD, TA_OP_SUB, TA_OP_MUL, TA_OP_DIV, TA_OP_MOD,
    TA_OP_BAND, TA_OP_BOR, TA_OP_BXOR, TA_OP_SHL, TA_OP_SHR,
    TA_OP_AND,   /* && and `and` */
    TA_OP_OR,    /* || and `or` */
    TA_OP_IMPLY, /* imply */
    TA_OP_EQ, TA_OP_NE, TA_OP_LT, TA_OP_LE, TA_OP_GT, TA_OP_GE,
    TA_OP_MIN, TA_OP_MAX, /* <? and >? */
    /* unary */
    TA_OP_NEG, TA_OP_NOT, TA_OP_BNOT, TA_OP_PLUS,
    /* assignment, ++/-- */
    TA_OP_ASSIGN, TA_OP_PREINC, TA_OP_PREDEC, TA_OP_POSTINC, TA_OP_POSTDEC,
    /* quantifiers */
    TA_OP_FORALL, TA_OP_EXISTS, TA_OP_SUM,
    TA_OP__COUNT
} ta_op;

/* What a TA_E_REF (or a TA_E_CALL's function) names. */
typedef enum {
    TA_R_NONE = 0,
    TA_R_VAR,    /* ref: index into ta_net.vars (clock, int, bool, array;
                    constants are folded away, except in the template
                    level, where a template constant stays a TA_R_TVAR) */
    TA_R_CHAN,   /* ref: index into ta_net.chans (the array's element 0) */
    TA_R_FUNC,   /* ref: index into ta_net.funcs (flat) or into the
                    template's funcs (template level, TA_R_TFUNC) */
    TA_R_SELECT, /* ref: index into the edge's select variables */
    TA_R_FLOCAL, /* ref: index into the function's locals (parameters
                    first) */
    TA_R_QVAR,   /* ref: the bvar of the enclosing TA_E_QUANT */
    /* template level only */
    TA_R_PARAM,  /* ref: index into the template's params */
    TA_R_TVAR,   /* ref: index into the template's vars */
    TA_R_TFUNC,  /* ref: index into the template's funcs */
} ta_refkind;

typedef struct ta_expr {
    ta_ekind kind;
    int op;              /* ta_op (TA_E_UN, _BIN, _ASSIGN, _INCDEC, _QUANT) */
    int64_t ival;        /* TA_E_INT, TA_E_BOOL */
    const char *name;    /* TA_E_REF, TA_E_CALL: as written; TA_E_INT: a
                            folded constant's name or NULL */
    ta_refkind ref_kind; /* TA_E_REF, TA_E_CALL */
    int ref;             /* TA_E_REF, TA_E_CALL */
    int64_t lo, hi;      /* TA_E_QUANT: the bound variable's range */
    int bvar;            /* TA_E_QUANT: its number, unique within the item
                            or function holding it (0, 1, ...) */
    int line, col;       /* where the node starts, 1-based (ta_pos.file of
                            the item holding it) */
    int nkids;
    struct ta_expr **kids;
} ta_expr;

/* ---- statements (function bodies) ---------------------------------------- */

typedef enum {
    TA_S_EXPR,   /* e; */
    TA_S_BLOCK,  /* { kids } */
    TA_S_IF,     /* if (e) kids[0] else kids[1] (nkids 1: no else) */
    TA_S_WHILE,  /* while (e) kids[0] */
    TA_S_DO,     /* do kids[0] while (e); */
    TA_S_FOR,    /* for (init; e; step) kids[0]; init/step may be NULL */
    TA_S_RETURN, /* return e; (e NULL in a void function) */
    TA_S_LOCAL,  /* a local's declaration: local = index, e its initialiser
                    or NULL (zero) */
} ta_skind;

typedef struct ta_stmt {
    ta_skind kind;
    ta_expr *e;
    ta_expr *init, *step; /* TA_S_FOR */
    int local;            /* TA_S_LOCAL */
    int line;
    int nkids;
    struct ta_stmt **kids;
} ta_stmt;

/* ---- variables, types, channels ------------------------------------------ */

typedef enum {
    TA_V_CLOCK,
    TA_V_INT,   /* int or int[lo,hi] (plain int: -32768 .. 32767, UPPAAL's) */
    TA_V_BOOL,  /* lo 0, hi 1 */
    TA_V_CONST, /* a constant (const int / const bool / const array) */
} ta_vkind;

typedef struct {
    const char *name; /* flat: "x" (global) or "Train(2).x" / "P1.x" (an
                         instance's: the instance name, ".", the name) */
    ta_vkind kind;
    int64_t lo, hi;   /* value range of each cell (TA_V_INT, TA_V_BOOL;
                         a const's declared type) */
    int is_bool;      /* TA_V_CONST of type bool */
    int ndims;        /* 0: a scalar */
    int dims[TA_MAX_DIMS];
    int ncells;       /* product of dims (1 for a scalar) */
    int64_t *init;    /* ncells initial values (clocks: 0) */
    int cell;         /* first discrete cell; -1 for clocks and consts */
    int clock;        /* first clock; -1 for non-clocks */
    int proc;         /* owning process, -1 for a global */
    ta_pos pos;       /* its declaration */
} ta_var;

typedef enum { TA_CH_BINARY, TA_CH_BROADCAST } ta_chkind;

/* What a channel is for a test (docs/timed.md, "Inputs and outputs"). */
typedef enum {
    TA_ROLE_INTERNAL, /* not observed, not controlled */
    TA_ROLE_INPUT,    /* the tester sends it (controllable, Act^c) */
    TA_ROLE_OUTPUT,   /* the system sends it, the tester observes it
                         (uncontrollable, Act^u) */
} ta_role;

/* One channel; an array of channels is n consecutive entries, element k
 * at index base + k (name "go[3]"). */
typedef struct {
    const char *name;
    ta_chkind kind;
    int urgent;   /* urgent chan: no delay while a sync on it is enabled */
    ta_role role;
    int base;     /* index of element 0 of its array (itself if scalar) */
    int n;        /* elements in its array (1 for a scalar) */
    ta_pos pos;
} ta_chan;

/* ---- functions -------------------------------------------------------------- */

typedef struct {
    const char *name;
    int is_ref;   /* a reference parameter (int &x) */
    ta_vkind kind;
    int64_t lo, hi;
    int ndims, dims[TA_MAX_DIMS];
} ta_local;

typedef struct {
    const char *name;     /* flat like variables: "Gate.enqueue" */
    ta_vkind ret;         /* TA_V_INT or TA_V_BOOL; is_void for void */
    int is_void;
    int64_t ret_lo, ret_hi;
    int nparams;          /* locals[0 .. nparams) are the parameters */
    int nlocals;
    ta_local *locals;
    ta_stmt *body;        /* a TA_S_BLOCK */
    int proc;             /* owning process, -1 for a global function */
    ta_pos pos;
} ta_func;

/* ---- locations and edges ---------------------------------------------------- */

/* One atomic clock constraint: clock x (minus clock y) op bound, op one of
 * TA_OP_LT, _LE, _EQ, _GE, _GT. x and y are clock indices (ta_var.clock
 * plus the cell of an array element, whose index must be constant once
 * the parameters are bound: the reader refuses others as unsupported);
 * y -1 when absent. bound is a discrete
 * expression (constants folded: usually a TA_E_INT). In the template level
 * x/y are -1 and `e` alone is meaningful. e points at the atom inside the
 * guard or invariant it was split from. */
typedef struct {
    int x, y;
    int op;
    ta_expr *bound;
    ta_expr *e;
} ta_cc;

typedef struct {
    const char *id;    /* the file's id ("id3" in XML, "L4" in Ecdar) */
    const char *name;  /* the name as written, or NULL */
    ta_expr *inv;      /* invariant, NULL: none */
    /* the invariant as clock upper bounds (TA_OP_LT/_LE, y -1) plus a
     * discrete part: invariants must be conjunctions of these */
    int ncc;
    ta_cc *cc;
    ta_expr *inv_data; /* the discrete conjuncts, NULL: none */
    int urgent, committed;
    int removed;       /* set by an SMI mutant: no edge enters or leaves */
    ta_pos pos;
} ta_loc;

typedef struct {
    const char *name;  /* as written: "e" */
    int64_t lo, hi;    /* the range it takes (template level: folded when
                          the bound is global, else of the flat instance) */
} ta_select;

typedef enum { TA_SYNC_NONE, TA_SYNC_SEND, TA_SYNC_RECV } ta_syncdir;

typedef struct {
    ta_syncdir dir;    /* `!` (send) or `?` (receive) */
    int chan;          /* flat: element 0 of the channel (array); template
                          level: see `e` */
    ta_expr *index;    /* flat: the element's index within the array (a
                          discrete expression; NULL for a scalar) */
    ta_expr *e;        /* the channel expression as written (a TA_E_REF,
                          or a TA_E_INDEX of one) */
} ta_sync;

typedef struct {
    int src, dst;      /* location indices in the template / process */
    int nsel;
    ta_select *sel;
    ta_expr *guard;    /* NULL: true */
    /* the guard split: conjunction of clock atoms and a discrete part;
     * a clock may not appear under ||, !, ?:, or in arithmetic other than
     * x - y (the reader refuses such a guard) */
    int ncc;
    ta_cc *cc;
    ta_expr *guard_data; /* NULL: true */
    ta_sync sync;      /* dir TA_SYNC_NONE: an internal (tau) edge */
    int nupd;
    ta_expr **upd;     /* updates in order: TA_E_ASSIGN, TA_E_INCDEC,
                          TA_E_CALL; an assignment to a clock is a reset
                          (clock = discrete value) */
    int added;         /* made by a TAD mutant (its pos: the source's) */
    ta_pos pos;
} ta_edge;

/* ---- templates (the level mutants change) ---------------------------------- */

typedef struct {
    const char *name;
    int is_ref;        /* & */
    int is_const;
    int is_chan;       /* chan parameter (kind/urgent from the declaration) */
    ta_vkind kind;     /* non-channel: TA_V_INT, TA_V_BOOL, TA_V_CLOCK */
    int64_t lo, hi;
    int ndims, dims[TA_MAX_DIMS];
} ta_param;

typedef struct {
    const char *name;
    int nparams;
    ta_param *params;
    int nvars;
    ta_var *vars;      /* its declarations (names unqualified; cell,
                          clock, proc unset) */
    int nfuncs;
    ta_func *funcs;
    int nlocs;
    ta_loc *locs;
    int init;          /* initial location */
    int nedges;
    ta_edge *edges;
    int is_env;        /* an environment template (docs/timed.md) */
    ta_pos pos;
} ta_tmpl;

/* ---- the flattened network ----------------------------------------------- */

typedef struct {
    const char *name;  /* instance name: "Train(2)", "Viking1", "Alarm" */
    int tmpl;          /* its template */
    int nargs;
    ta_expr **args;    /* the bound arguments (folded values, or refs to
                          global variables/channels), one per parameter */
    int nlocs;         /* == its template's */
    ta_loc *locs;
    int init;
    int nedges;        /* == its template's (TAD: one more) */
    ta_edge *edges;
    int is_env;        /* models the environment (docs/timed.md, "Inputs
                          and outputs"): the tester takes its place; its
                          template is not mutated */
    ta_pos pos;        /* its line in <system> */
} ta_proc;

typedef enum { TA_FMT_UPPAAL, TA_FMT_ECDAR } ta_format;

typedef struct ta_net {
    mf_arena *arena;   /* owns everything reachable from the net */
    const char *file;  /* the model's name in messages */
    ta_format format;
    int nvars;
    ta_var *vars;      /* globals first, then each process's, in order */
    int ncells;        /* discrete cells (see the top) */
    int nclocks;
    int nchans;
    ta_chan *chans;
    int nfuncs;
    ta_func *funcs;
    int ntmpls;
    ta_tmpl *tmpls;
    int nprocs;
    ta_proc *procs;
    /* what the reader keeps to flatten a mutated template item and to
     * print a mutant back (the XML document or the JSON texts); opaque */
    void *priv;
} ta_net;

/* ---- reading ------------------------------------------------------------------ */

/* Choices of the user that a reader applies (NULL/0: the defaults of
 * docs/timed.md). */
typedef struct {
    const char *system;   /* Ecdar: the component (--system); default: the
                             one component that is not an environment */
    const char **inputs;  /* --inputs: exactly these channels are inputs */
    int ninputs;
    const char **outputs; /* --outputs: exactly these channels are outputs */
    int noutputs;
    const char **env;     /* UPPAAL: the environment templates (--env) */
    int nenv;
} ta_opts;

/* An UPPAAL XML model, text[0..len) (need not be NUL-terminated), read
 * and flattened. 0 and *out the caller's (ta_net_free); else a negative
 * code, a one-line message and *out NULL. */
int ta_read_uppaal(ta_net **out, const char *file, const char *text,
                   size_t len, const ta_opts *opts);
/* An Ecdar project as one text: the bundle ta_ecdar_bundle makes (JSON:
 * the project's files with their paths and texts). Same contract. */
int ta_read_ecdar(ta_net **out, const char *file, const char *text,
                  size_t len, const ta_opts *opts);
/* The bundle of an Ecdar project: `path` the project folder (holding
 * Model/ or GlobalDeclarations.json and Components/), its
 * GlobalDeclarations.json, or one component's .json in Components/;
 * `system` the component chosen (--system), else NULL: the component
 * file named, else the default of ta_read_ecdar. 0 and the bundle
 * appended to *out (the caller frees it), or a negative code with a
 * message. */
int ta_ecdar_bundle(mf_buf *out, const char *path, const char *system);
/* How surely text is an Ecdar bundle: 0 or 100 (lang.h's sniff). */
int ta_ecdar_sniff(const char *text, size_t len);

void ta_net_free(ta_net *n); /* NULL-safe */

/* Lookups: index or -1. Names are flat ("Train(2).x", "go[3]"). */
int ta_net_find_var(const ta_net *n, const char *name);
int ta_net_find_chan(const ta_net *n, const char *name);
int ta_net_find_proc(const ta_net *n, const char *name);

/* Printing an expression in UPPAAL syntax: names as written, or (flat)
 * the flat names of n's variables, channels and functions. NULL prints
 * as "true". */
void ta_print_expr(mf_buf *out, const ta_expr *e);
void ta_print_expr_flat(mf_buf *out, const ta_net *n, const ta_expr *e);
/* The flattened network as text, one canonical form: every variable,
 * channel (kind, role), function and process with its locations and
 * edges, flat names (the model's hash is this text's). */
void ta_net_print(mf_buf *out, const ta_net *n);
const char *ta_op_str(ta_op op);

/* ---- mutation operators and mutants ---------------------------------------- */

/* The operators, by number: their names (ta_op_names) go into stored
 * rows and ids: append only, never renumber. */
typedef enum {
    TA_MOP_TMI,        /* "tmi": remove an edge */
    TA_MOP_TAD,        /* "tad": add an edge between two locations */
    TA_MOP_SMI,        /* "smi": remove a location (not the initial) and
                          its edges */
    TA_MOP_CXL,        /* "cxl": increase a clock constraint's constant */
    TA_MOP_CXS,        /* "cxs": decrease a clock constraint's constant */
    TA_MOP_CCN,        /* "ccn": negate a clock constraint */
    TA_MOP_TARGET,     /* "edge-target": change an edge's target */
    TA_MOP_SYNC,       /* "sync-channel": change a sync's channel */
    TA_MOP_RESET,      /* "reset-flip": add or remove a clock reset */
    TA_MOP_GUARD_NEG,  /* "guard-negate": negate a whole guard */
    TA_MOP_INV_CONST,  /* "invariant-constant": change an invariant's
                          constant (beyond CXL/CXS's one step) */
    TA_MOP_INT_UPDATE, /* "int-update": change an integer update */
    TA_MOP__COUNT
} ta_mop;

extern const char *const ta_op_names[TA_MOP__COUNT];

/* What a mutant changes, always one item of one template. */
typedef enum {
    TA_MK_EDGE,     /* edge `item` replaced by *new_edge */
    TA_MK_EDGE_DEL, /* edge `item` removed (TMI) */
    TA_MK_EDGE_ADD, /* *new_edge added (TAD); item: its index, nedges */
    TA_MK_LOC,      /* location `item` replaced by *new_loc */
    TA_MK_LOC_DEL,  /* location `item` and its edges removed (SMI) */
} ta_mkind;

typedef enum {
    TA_MUT_OK,        /* to be checked */
    TA_MUT_DUPLICATE, /* the same mutated template as the original or an
                         earlier mutant (dup_of) */
    TA_MUT_STILLBORN, /* the mutated item is refused (why) */
} ta_mstatus;

/* The mutated network (ta_mutant_apply) keeps every index of the
 * original but these: a removed edge is dropped (the later ones move down
 * by one), an added edge comes last; a removed location stays, marked
 * `removed`, without edges. */
typedef struct {
    int op;              /* ta_mop */
    ta_mkind kind;
    int tmpl;            /* the template changed */
    int item;            /* the edge or location, see ta_mkind */
    /* the new item at the template level (names as written); its guard
     * or invariant is not split (ncc 0): the applied network's is */
    const ta_edge *new_edge; /* TA_MK_EDGE, TA_MK_EDGE_ADD */
    const ta_loc *new_loc;   /* TA_MK_LOC */
    const char *site;    /* "Alarm/edge L3->L4 #20/guard/1.r",
                            "Alarm/loc L6/inv" (docs/timed.md) */
    const char *repl;    /* the replacement's canonical text */
    const char *desc;    /* one line for people */
    char id[17];         /* mf_mutant_id(op name, site, repl) */
    ta_mstatus status;
    const char *dup_of;  /* TA_MUT_DUPLICATE: the twin's id or "original" */
    const char *why;     /* TA_MUT_STILLBORN: the message */
    ta_pos pos;          /* the changed item's position */
    mf_arena *arena;     /* a copy from ta_mutant_find owns its strings and
                            items here; NULL during an enumeration */
} ta_mutant;

/* Called once per mutant in a deterministic order; the mutant lives
 * during the call only. Non-zero stops the enumeration and is returned. */
typedef int (*ta_mutant_fn)(const ta_mutant *mu, void *ctx);

/* Every mutant of n for the operators in mask (bit 1u << ta_mop; 0: all),
 * duplicates and stillborns classified as for SMV (mutate.h). */
int ta_mutants_each(const ta_net *n, unsigned mask, ta_mutant_fn fn,
                    void *ctx);

/* The mutant of n whose id starts with prefix (at least 4 hex digits):
 * 0 and *out (the caller frees it with ta_mutant_free; it stays valid
 * while n lives), MF_ENOTFOUND or MF_EAMBIGUOUS with a message. */
int ta_mutant_find(ta_mutant **out, const ta_net *n, const char *prefix);
void ta_mutant_free(ta_mutant *mu); /* NULL-safe */

/* The mutated network: a copy of n (fresh arena) with mu's change made in
 * its template and in every process of that template. 0 and *out the
 * caller's (ta_net_free); a negative code with a message otherwise (a
 * stillborn mutant). Location and edge indices of the unchanged items
 * stay the same (a removed location stays, marked removed; a removed edge
 * is dropped and the later ones move down by one). */
int ta_mutant_apply(ta_net **out, const ta_net *n, const ta_mutant *mu);

/* The mutated model printed in the input's format (UPPAAL XML or the
 * Ecdar component's JSON) with the change marked in a comment. Never
 * fails: what cannot be applied prints as a comment saying so. */
void ta_mutant_print(mf_buf *out, const ta_net *n, const ta_mutant *mu);

#endif
