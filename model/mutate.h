/* mutate.h - mutants of a model, whatever its language: enumerated with
 * stable ids, found by id, applied and printed. The operators themselves
 * are the model's language's (lang.h; SMV's: smv/smv.h and
 * docs/operators.md), reached through m->lang.
 *
 * A mutant is (operator, site, replacement). The site is a path in the
 * language's terms; for SMV the item ("next(st)", "init(wtr)", "DEFINE d",
 * "TRANS#2"), "/", and the path through the expression, steps joined by
 * ".": bN.g / bN.v (guard / value of case branch N), l / r (binary
 * operands), 0, 1, ... (other children): "next(st)/b3.g.r".
 * Applying a mutant replaces one item of the model (or removes it). The id is
 * the first 16 hex digits of SHA-256(operator NUL site NUL replacement), so it
 * survives layout and comment edits and edits elsewhere in the model.
 * Nothing here decides whether a mutant can be killed. */
#ifndef MF_MUTATE_H
#define MF_MUTATE_H

#include "model.h"

typedef enum {
    MF_MUT_OK,        /* to be checked */
    MF_MUT_DUPLICATE, /* same mutated model as the original or an earlier one */
    MF_MUT_STILLBORN, /* the mutated model does not type check */
} mf_mut_status;

struct mf_lang;

typedef struct {
    const struct mf_lang *lang; /* the language whose operator op is */
    int op;                     /* the operator, numbered by the language
                                   (mf_lang_op_name(lang, op)) */
    int item;            /* index of the replaced item in the model */
    const char *site;    /* canonical site path */
    const char *repl;    /* canonical text of the replacement */
    mf_item *new_item;   /* the replacing item, NULL when the item is removed */
    int line, col;       /* source position of the site */
    char id[17];         /* 16 hex digits */
    mf_mut_status status;
    const char *dup_of;  /* MF_MUT_DUPLICATE: id of the first twin, or
                            "original" */
    const char *desc;    /* one line: "replace `2` with `1` at next(wtr)/b1.v" */
    const char *why;     /* MF_MUT_STILLBORN: the type error */
    mf_arena *arena;     /* copies from mf_mutant_find own their strings and
                            nodes here; NULL in mf_mutants_each callbacks */
} mf_mutant;

/* The name of operator op of m's language ("number-replace"; "?" if out
 * of range), and how many operators it has (op is 0 .. that - 1). */
const char *mf_mutant_op_name(const mf_model *m, int op);
int mf_mutant_nops(const mf_model *m);

/* Which operators to apply: a bitmask of 1u << op. 0 means all. Parse a
 * comma-separated list of names of m's language's operators into *mask
 * (MF_ERROR with a message naming the bad one). */
int mf_mutant_ops_parse(const mf_model *m, unsigned *mask, const char *list);

/* Called once per mutant, in the deterministic order. The mutant and what it
 * points to live only during the call (copy what you keep). Return non-zero
 * to stop the enumeration; that value is returned by mf_mutants_each. */
typedef int (*mf_mutant_fn)(const mf_mutant *mu, void *ctx);

/* Enumerate the mutants of m for the operators in `mask`, classifying each
 * as ok, duplicate or stillborn, in the order of m's language. Streams:
 * memory is proportional to the model plus a small record (a hash) per
 * mutant, never to all mutants. */
int mf_mutants_each(const mf_model *m, unsigned mask, mf_mutant_fn fn,
                    void *ctx);

/* mf_mutants_each for a caller that wants only some mutants, known by id:
 * `pick(id, ctx)` is asked for each (non-zero: wanted) and only the wanted
 * ones are classified in full and passed to fn. Their status is the same
 * as under mf_mutants_each (duplicates are found among all mutants); the
 * unwanted ones skip the type check, so this costs a fraction of a full
 * enumeration on a model with many mutants. */
typedef int (*mf_mutant_pick)(const char *id, void *ctx);
int mf_mutants_pick(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                    mf_mutant_fn fn, void *ctx);

/* Find the mutant whose id starts with `prefix` (at least 4 hex digits).
 * On success *out is a copy owned by the caller (mf_mutant_free).
 * MF_ENOTFOUND / MF_EAMBIGUOUS otherwise, with a message. */
int mf_mutant_find(mf_mutant **out, const mf_model *m, const char *prefix);
void mf_mutant_free(mf_mutant *mu); /* NULL-safe */

/* The mutated model (see mf_model_replace_item). */
int mf_mutant_apply(mf_model **out, const mf_model *m, const mf_mutant *mu);

/* The mutated model printed in its language with the change marked (for
 * SMV: the changed item preceded by a comment line
 * "-- mutant ID (operator): description" and followed by
 * "-- end of mutant ID"). */
void mf_mutant_print(mf_buf *out, const mf_model *m, const mf_mutant *mu);

#endif
