/* model.h - the flattened, type-checked model: the symbolic transition system
 * that the printer, the mutation engine, the simulator and (later) the Z3
 * encoder all read.
 *
 * A model is one module: variables with finite types (flat dotted names),
 * and an ordered list of items (DEFINEs, assignments, INIT/TRANS/INVAR
 * constraints). Items are the unit of mutation: a mutant replaces one item.
 * Values of every type are int64_t: booleans 0/1, integers themselves,
 * symbolic constants MF_SYM(i) where i indexes `syms`.
 *
 * Semantics (docs/semantics.md): a step reads an input valuation and moves
 * the state. Inputs are IVARs, plus (unless the user names them) VARs that no
 * assignment or constraint mentions and VARs whose next is an unconditional
 * choice. An input VAR's value in state i+1 is chosen by the step i input; in
 * state 0 by the initial input. Observables default to all non-input VARs.
 * A model is read by a language (lang.h: SMV in smv/, chosen by
 * lang/langs.h), which builds it and ends with finish.c; its lookups and
 * copies are model.c, its type rules typecheck.c and its canonical print
 * print.c; nothing here runs one (sim.h) or mutates one (mutate.h). */
#ifndef MF_MODEL_H
#define MF_MODEL_H

#include "expr.h"

#define MF_SYM_BASE ((int64_t)1 << 40)
#define MF_SYM(i) (MF_SYM_BASE + (int64_t)(i))
#define MF_IS_SYM(v) ((v) >= MF_SYM_BASE)
/* An observed DEFINE's value where it has none (no case branch applies, a
 * division by zero): a value no other value equals (docs/semantics.md,
 * Undefined observables). */
#define MF_VAL_UNDEF INT64_MIN
/* The most cells a state may have (mf_model_finish refuses more). */
#define MF_MAX_SLOTS (1 << 20)
/* Integer ranges wider than this are refused as unsupported. */
#define MF_INT_LIMIT ((int64_t)1 << 31)
/* The values an unbounded `integer` variable holds in the simulator and
 * the encoding: +-MF_INT_UNBOUNDED; beyond it the simulator stops with an
 * error, never a refusal (docs/smv.md, Integers). Below the Z3 encoding's
 * symbol offset, so an integer is never mistaken for a symbol. */
#define MF_INT_UNBOUNDED (((int64_t)1 << 32) - 1)

typedef int64_t mf_val;

/* How a variable was declared: VAR (state), IVAR (input), FROZENVAR (set
 * in the initial state, never changed). */
typedef enum { MF_DECL_VAR, MF_DECL_IVAR, MF_DECL_FROZENVAR } mf_declkind;

typedef enum {
    MF_TY_BOOL,
    MF_TY_ENUM,  /* vals: ints and/or symbols in declaration order */
    MF_TY_RANGE, /* lo..hi; a word when wty is not 0 (its values' range) */
    MF_TY_ARRAY, /* array lo..hi of elem */
} mf_tykind;

typedef struct mf_type {
    mf_tykind kind;
    int64_t lo, hi;       /* MF_TY_RANGE bounds; MF_TY_ARRAY index bounds */
    int wty;              /* MF_TY_RANGE: a word type (expr.h MF_WTY), or 0 */
    int unbounded;        /* MF_TY_RANGE: declared `integer`; lo..hi is
                             +-MF_INT_UNBOUNDED, not a bound of NuSMV's */
    int nvals;            /* MF_TY_ENUM */
    mf_val *vals;         /* MF_TY_ENUM */
    struct mf_type *elem; /* MF_TY_ARRAY */
} mf_type;

typedef struct {
    const char *name;  /* flat dotted name: "proc1.state" */
    mf_declkind decl;  /* VAR, IVAR or FROZENVAR as declared */
    mf_type *type;
    int line, col;     /* declaration */
    int is_input;      /* chosen by the tester (see above) */
    int is_observable; /* compared between original and mutant */
    int slot;          /* first slot in a state vector */
    int nslots;        /* 1, or the number of scalar cells of an array */
} mf_var;

typedef enum {
    MF_IT_DEFINE,  /* name := e */
    MF_IT_INIT,    /* init(lhs) := e */
    MF_IT_NEXT,    /* next(lhs) := e */
    MF_IT_ASSIGN,  /* lhs := e (holds in every state) */
    MF_IT_INIT_C,  /* INIT e */
    MF_IT_TRANS_C, /* TRANS e */
    MF_IT_INVAR_C, /* INVAR e */
} mf_itkind;

typedef struct {
    mf_itkind kind;
    const char *name; /* MF_IT_DEFINE: flat name */
    mf_expr *lhs;     /* assignments: resolved MF_E_ID or MF_E_INDEX */
    int var;          /* assignments: index of the assigned variable */
    mf_expr *e;       /* rhs, body or constraint; never NULL */
    int line, col;
} mf_item;

typedef struct {
    const char *keyword; /* "LTLSPEC", ... */
    const char *text;    /* as in mf_ast_spec, names as written */
} mf_spec;

/* Choices the user makes about inputs and observables. NULL/0: infer. */
typedef struct {
    const char **inputs;  /* --inputs: exactly these VARs/IVARs are inputs */
    int ninputs;
    const char **observe; /* --observe: these VARs/DEFINEs are observed
                             (timed models: these channels are the
                             outputs, --outputs) */
    int nobserve;
    /* Timed models (docs/timed.md): the Ecdar component that is the system
     * (--system), and the environment templates of an UPPAAL model
     * (--env); NULL/0: the defaults. Other languages ignore them. */
    const char *system;
    const char **env;
    int nenv;
} mf_model_opts;

/* Something a layer above keeps in a model and builds on first use (the
 * simulator's enumeration plans). It starts with this header, whose `free`
 * the builder sets and mf_model_free calls: the model frees it without
 * knowing what it is. */
typedef struct mf_model_cache {
    void (*free)(struct mf_model_cache *c); /* frees c and all it holds */
} mf_model_cache;

/* The simulator's enumeration kinds: initial states or successors, with an
 * input or without. */
#define MF_MODEL_NSIM_PLANS 4

struct mf_lang;

typedef struct mf_model {
    mf_arena *arena;  /* owns everything below */
    const char *file; /* for messages */
    /* The language the model was read in (lang.h): mutants and printing in
     * the language dispatch through it. Copies of a model carry it. */
    const struct mf_lang *lang;
    /* The language's own data about the model (lang.h), freed by its
     * free_data with the loaded model; NULL in copies. */
    void *lang_data;
    int nvars;
    mf_var *vars;
    int nitems;
    mf_item *items;
    int nspecs;
    mf_spec *specs;
    int nsyms;
    const char **syms; /* symbolic constants, first-appearance order */
    int nslots;        /* size of a state vector (sum of vars' nslots) */
    int nobs_defines;  /* DEFINEs observed through --observe */
    int *obs_defines;  /* their item indices */
    char hash[65];     /* SHA-256 of the canonical print */
    /* The simulator's enumeration plans (sim.c), one per kind of
     * enumeration, each published once through the atomic on first use and
     * freed with the model through its mf_model_cache header. */
    _Atomic(mf_model_cache *) sim_plans[MF_MODEL_NSIM_PLANS];
} mf_model;

/* Frees m, its arena and the caches kept in it (model.c). NULL-safe. */
void mf_model_free(mf_model *m);

/* Index of the variable or DEFINE item named `name`, or -1. */
int mf_model_find_var(const mf_model *m, const char *name);
int mf_model_find_define(const mf_model *m, const char *name);
/* How many observable values a state has: the cells of the observed VARs,
 * then the observed DEFINEs. */
int mf_model_nobs(const mf_model *m);
/* Index of symbolic constant `name` in m->syms, or -1. */
int mf_model_find_sym(const mf_model *m, const char *name);

/* Type check one item in the context of m (used for mutated items: a mutant
 * that fails is stillborn). Returns 0 or MF_ETYPE with a message
 * (typecheck.c). */
int mf_model_check_item(const mf_model *m, const mf_item *it);
/* Type check every item of m, refuse a variable (element) assigned twice
 * and a combinational loop: 0, or MF_ETYPE with a "file:line:col: error:"
 * message (mf_model_finish runs it on a language's new model). */
int mf_model_check_all(const mf_model *m);
/* Type check `it` for its side effect alone: the word types (expr.h wty)
 * marked on its nodes, as a checked item has them. A failure is ignored
 * (its message is left in mf_err_msg()). */
void mf_model_mark_words(const mf_model *m, const mf_item *it);
/* Recomputes m->hash: the SHA-256 of the canonical print (mf_print_model). */
void mf_model_rehash(mf_model *m);

/* A copy of m in a fresh arena with items[index] replaced by *it, or removed
 * when it is NULL (never a DEFINE: DEFINEs come first in items, so removing a
 * later item keeps every DEFINE reference and obs_defines index valid); inputs and observables are kept as in m (a mutant is
 * compared on the original's interface). The hash is recomputed. */
/* *dst becomes a copy of *src whose name, left-hand side and expression
 * live in a. */
void mf_item_copy(mf_arena *a, mf_item *dst, const mf_item *src);

/* A copy of m with nnew variables appended (newv: name, decl, type, flags
 * and position; slots are assigned here, one cell each, after m's), then
 * edit(copy, ctx) run on it (NULL: none) to change its items in place,
 * with nodes from copy->arena. 0 and *out (the caller frees it with
 * mf_model_free); a negative code (edit's, passed up) and nothing made. */
typedef int mf_model_edit_fn(mf_model *m, void *ctx);
int mf_model_extend(mf_model **out, const mf_model *m, int nnew,
                    const mf_var *newv, mf_model_edit_fn *edit, void *ctx);
int mf_model_replace_item(mf_model **out, const mf_model *m, int index,
                          const mf_item *it);

/* Printing as valid SMV (print.c). The canonical form: one MODULE main, IVAR,
 * VAR, FROZENVAR, DEFINE, ASSIGN, INIT/TRANS/INVAR, specs; fully
 * parenthesised only where precedence needs it. Printing, re-parsing and
 * printing again yields the same text. */
void mf_print_model(mf_buf *out, const mf_model *m);
/* The model as its language writes it (lang.h, print_model), or, for a
 * language without a printer of its own (SMV), mf_print_model. */
void mf_model_print(mf_buf *out, const mf_model *m);
void mf_print_item(mf_buf *out, const mf_model *m, const mf_item *it);
/* What an assignment item assigns: "next(x)", "init(a[1])", "x", or a
 * DEFINE's name. */
void mf_print_item_target(mf_buf *out, const mf_model *m, const mf_item *it);
void mf_print_expr(mf_buf *out, const mf_model *m, const mf_expr *e);
void mf_print_type(mf_buf *out, const mf_model *m, const mf_type *t);
/* The name of cell k of variable v: "a[2][0]" for arrays, else the name. */
void mf_print_cell_name(mf_buf *out, const mf_var *v, int k);

void mf_print_value(mf_buf *out, const mf_model *m, const mf_type *t,
                    mf_val v);
/* The observables' values obs (mf_model_nobs of them, in the order of
 * mf_sim_observe) as "out=coff, wtr=1"; a DEFINE's value as a symbol where
 * it is one. Prints nothing for a model without observables. */
void mf_print_obs(mf_buf *out, const mf_model *m, const mf_val *obs);
/* The inputs in row (m->nslots values, a step's input valuation) as
 * "inp=req, a[1]=3": the input VARs' cells for the initial input
 * (initial), else every input's. Returns how many cells were printed (0:
 * nothing is). */
int mf_print_inputs(mf_buf *out, const mf_model *m, const mf_val *row,
                    int initial);

/* The scalar type of a slot (element type for array cells), and the domain
 * of a scalar type as values in ascending order (caller frees *vals). */
const mf_type *mf_type_scalar(const mf_type *t);
int mf_type_domain(const mf_type *t, mf_val **vals, int *nvals);
/* 1 if v is in the domain of scalar type t. */
int mf_type_contains(const mf_type *t, mf_val v);
/* 1 if a and b are the same type (bounds, values, element types). */
int mf_type_equal(const mf_type *a, const mf_type *b);
/* 1 if e reads a next() value, directly or through DEFINEs. */
int mf_expr_reads_next(const mf_model *m, const mf_expr *e);

#endif
