/* criteria.h - coverage criteria as trap requirements (docs/criteria.md):
 * the requirements of branch, uncorrelated full predicate (UFP),
 * transition-pair and state coverage, generated from the flattened model
 * as "Model Checkers in Software Testing" (Ammann, Black, Ding) defines
 * them, each with a stable id and a readable text.
 *
 * A requirement is a trap: "some reachable state (or step) has condition
 * C". It is reduced to a mutant: the trap model is the original plus an
 * observed DEFINE `mf_trap := FALSE` and an observed variable `mf_hit`
 * with `init(mf_hit) := FALSE; next(mf_hit) := FALSE` (and, where a
 * condition speaks of earlier states, variables that remember them). A
 * condition over the state alone replaces the DEFINE by `mf_trap := C`;
 * one that reads an IVAR or next() (a guard of next(), which a step
 * evaluates with that step's input) replaces the next() of mf_hit by
 * `next(mf_hit) := C`, so that mf_hit shows in state k + 1 that C held in
 * step k. A test that kills this mutant reaches C: it covers the
 * requirement, and the simulator replays it as every kill; a proof that
 * the mutant is equivalent proves C unreachable: the requirement is
 * infeasible. The rest of the model is the same in both, so a kill can
 * come from the trap alone.
 *
 * Nothing here decides a requirement (the engine does, on the trap model)
 * and nothing includes Z3. */
#ifndef MF_CRITERIA_H
#define MF_CRITERIA_H

#include "model.h"

typedef enum {
    MF_CRIT_BRANCH, /* every branch of every case taken */
    MF_CRIT_UFP,    /* every condition of every guard determining it,
                       both polarities */
    MF_CRIT_TPAIR,  /* every enumerated state variable: every entering
                       and leaving value change, in consecutive steps */
    MF_CRIT_STATE,  /* every value of every enumerated state variable */
    MF_CRIT__COUNT
} mf_criterion;

/* "branch", "ufp", "transition-pair", "state" ("?" out of range). */
const char *mf_criterion_name(mf_criterion c);
/* A comma-separated list of those names, or "all", into a mask of
 * 1u << criterion; "mutation" sets *mutation (may be NULL: refused then).
 * MF_ENOTFOUND with a message naming the bad one. */
int mf_criteria_parse(unsigned *mask, int *mutation, const char *list);

typedef struct {
    mf_criterion crit;
    char id[17];      /* 16 hex digits of SHA-256(criterion, site, text) */
    const char *site; /* "next(st)/b2", "next(st)/b2.g", "st" */
    const char *text; /* the condition as SMV over the model's names, or
                         for a transition pair "st: a -> b -> c" */
    int line, col;    /* where the site is in the source */
    int step;         /* 1: C is over a step (mf_hit), 0: over a state */
    int at;           /* the item it replaces in the trap model */
    mf_item *item;    /* the replacement (in the trap model's arena) */
} mf_req;

typedef struct {
    mf_model *tm;   /* the trap model */
    int trap_item;  /* the index of mf_trap := FALSE in tm->items */
    int hit_item;   /* the index of next(mf_hit) := FALSE, -1: none */
    mf_req *v;      /* in generation order: criterion, then the model's
                       items or variables in order */
    int n;
    int per[MF_CRIT__COUNT]; /* requirements per criterion */
} mf_reqs;

/* The requirements of the criteria in mask (1u << mf_criterion) of m, and
 * the trap model. 0 and *out (mf_reqs_free), or a negative code with a
 * message (a requirement that does not type check is a bug: MF_ERROR). */
int mf_reqs_build(mf_reqs **out, const mf_model *m, unsigned mask);
void mf_reqs_free(mf_reqs *r); /* NULL-safe */

/* The trap model with requirement i's item (mf_model_replace_item):
 * the "mutant" the engine decides and the simulator replays. */
int mf_req_apply(mf_model **out, const mf_reqs *r, int i);

#endif
