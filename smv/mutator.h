/* mutator.h - the SMV mutation enumerator's state and steps, shared by
 * mutate.c (the walk over items: the enumeration), mutate_emit.c (what
 * every operator does to report a mutant: path copies, sites, ids,
 * duplicates) and mutate_ops.c (the operators applied at one expression
 * node). Private to smv/. */
#ifndef MF_SMV_MUTATOR_H
#define MF_SMV_MUTATOR_H

#include "lang.h"
#include "smv.h"

/* The kind of an expression, just enough to pick operators. */
typedef enum { T_UNK, T_BOOL, T_INT, T_SYM, T_ARR } tkind;

typedef struct {
    const mf_expr *node; /* an ancestor of the visited node */
    int kid;             /* which of its kids leads down */
    size_t pathlen;      /* length of the path before this step */
} frame;

typedef struct {
    unsigned cond : 1;     /* guard, logical operand, ?: condition */
    unsigned guard : 1;    /* a case guard */
    unsigned boolval : 1;  /* boolean value position (negate applies) */
    const mf_type *target; /* type assigned to / compared with, or NULL */
} ctx;

typedef struct {
    const mf_model *m;
    unsigned mask;
    mf_mutant_fn fn;
    mf_mutant_pick pick; /* NULL: every mutant goes to fn */
    int ids_only;        /* a first pass: ids only, picked ones set hit */
    int hit;             /* the current item holds a picked mutant */
    void *cb;
    int rc;    /* non-zero: stop, return this */
    int index; /* current item */
    const mf_item *item;
    mf_buf itemname; /* "next(wtr)" */
    mf_buf path;     /* steps from the item's root to the visited node */
    MF_VEC(frame) frames;
    mf_mutant_dups *dups; /* every mutant so far, for duplicates */
    /* scratch, reused across mutants */
    mf_buf site, repl, desc, why;
    char dup_id[17];
} enumst;

/* st still runs and wants operator op. */
static inline int mf_smvmut_want(const enumst *st, mf_mop op)
{
    return st->rc == 0 && (st->mask & (1u << op));
}

/* The kind of a variable's type; the declared type of a variable
 * reference (x, next(x), a[i], or a DEFINE that is one), or NULL; the kind
 * of any expression (mutate.c). */
tkind mf_smvmut_tkind(const mf_type *t);
const mf_type *mf_smvmut_var_type(const mf_model *m, const mf_expr *e,
                                  int depth);
tkind mf_smvmut_infer(const mf_model *m, const mf_expr *e, int depth);
/* One line of at most ~60 characters of an expression's print. */
void mf_smvmut_snip(mf_buf *out, const mf_model *m, const mf_expr *e);
/* Reports one mutant of operator op (st->site, repl and desc filled in):
 * new_e is the item's new root expression (from a), or NULL for a removal. */
void mf_smvmut_emit(enumst *st, mf_mop op, mf_arena *a, mf_expr *new_e,
                    int line, int col);
/* A shallow copy of e (its kids array copied) in a. */
mf_expr *mf_smvmut_shallow(mf_arena *a, const mf_expr *e);
/* The item's new root when the node at frame depth `depth` (0 = root) of
 * the current path is replaced by r. */
mf_expr *mf_smvmut_path_copy(enumst *st, mf_arena *a, int depth, mf_expr *r);
/* st->site: the item, "/", the first pathlen bytes of the path, and
 * `extra` (a further step) when not NULL. */
void mf_smvmut_site(enumst *st, size_t pathlen, const char *extra);
/* Down to kid k of node, and back up. */
void mf_smvmut_push(enumst *st, const mf_expr *node, int k);
void mf_smvmut_pop(enumst *st);
/* A replacement of the visited node e by r (repl filled in). */
void mf_smvmut_emit_replace(enumst *st, mf_mop op, mf_arena *a,
                            const mf_expr *e, mf_expr *r);
/* Every operator at e and below, in pre-order (mutate_ops.c). */
void mf_smvmut_visit(enumst *st, const mf_expr *e, ctx c);

#endif
