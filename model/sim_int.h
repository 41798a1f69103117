/* sim_int.h - what the simulator's files share and nothing else includes:
 * a plan (how to enumerate one model's initial states or successors, built
 * once and kept by the model) and the small helpers on variables every
 * part uses. The rest of mutfarm sees only sim.h.
 *
 * The parts, each using only those above it:
 *   sim_plan.c  plans: the slots' dependency order, where each constraint
 *               is checked, the domains a search keeps;
 *   sim.c       the enumeration of initial states and successors along a
 *               plan, picking one by its choice index, observing a state;
 *   sim_seq.c   input sequences read from a file, and traces printed. */
#ifndef MF_SIM_INT_H
#define MF_SIM_INT_H

#include "sim.h"

/* A slot not assigned yet (eval.c refuses to read it); never a value. */
#define MF_SIM_UNSET INT64_MIN
/* Largest value set one expression may produce. */
#define EVAL_LIMIT (1 << 20)
/* Values (states x slots) held for sorting when the search order is not
 * slot order. */
#define COLLECT_MAX (1L << 24)
/* Largest domain a plan keeps; a search over a larger one (as long as
 * building it) builds it itself. */
#define DOMAIN_KEEP 65536

typedef MF_VEC(int) intvec;

typedef struct {
    mf_val *v; /* ascending, owned */
    int n;     /* -1: not kept (the search does not need it, or it is
                  larger than DOMAIN_KEEP) */
} domain;

/* Where a slot's value comes from besides the search. */
enum {
    SL_SEARCH,  /* candidates from its source item or its domain */
    SL_GIVEN,   /* an IVAR: the input gives it, preassigned */
    SL_PIN_INP, /* an input VAR: pinned to the input's value */
    SL_PIN_CUR, /* a FROZENVAR in a step: pinned to its current value */
};

/* How to enumerate the initial states or the successors of one model, with
 * or without an input: everything that does not depend on the values of the
 * current state and the input. The model keeps one per kind of enumeration
 * (mf_model.sim_plans), built on first use; once published it is only read,
 * by any number of threads. */
typedef struct {
    mf_model_cache cache; /* first: the model frees a kept plan through it */
    const mf_model *m;
    int init;            /* enumerating initial states (else successors) */
    int rc;              /* the build's result: 0, 1 if no state can exist (an
                            assignment's index is out of bounds), or a negative
                            code, returned again by every enumeration */
    char *msg;           /* rc < 0: its message */
    int per_state;       /* a next(a[i]) index is not constant: the plan is
                            for the state it was built for only, never kept */
    mf_val *st0;         /* per slot: MF_SIM_UNSET, or an IVAR's placeholder */
    unsigned char *from; /* per slot: SL_... */
    int *src;            /* per slot: item giving its candidates, or -1 */
    int *svar;           /* per slot: index of its variable */
    const mf_type **sty; /* per slot: scalar type */
    int *pos;            /* per slot: position in order; -1 preassigned */
    int *order;          /* slots in assignment order */
    int norder;
    intvec *checks; /* norder + 1 lists: checks[k] run once order[0..k-1]
                       are assigned */
    domain *dom;    /* per variable, for slots searched over their domain */
    int collect;    /* order differs from slot order: collect, sort, replay */
    const mf_expr **eqx; /* per slot searched over its domain: e of a
                            constraint's conjunct `slot = e` (next(slot)
                            in a step) whose reads come before it, else
                            NULL: its values are the only candidates */
    int *eqit;           /* per slot with eqx: the constraint's item */
} plan;

/* The plan for enumerating m's initial states (init) or successors, under
 * an input or not (inp NULL). The model's own when it has one; else built,
 * and kept by the model unless it depends on cur or inp (then *own is set
 * and the caller frees it with mf_sim_plan_free). */
const plan *mf_sim_plan_get(plan **own, const mf_model *m, int init,
                            const mf_val *cur, const mf_val *inp);
void mf_sim_plan_free(plan *p); /* NULL-safe */

/* Intervals of values, ascending and disjoint (sim_narrow.c). */
typedef struct {
    mf_val lo, hi;
} mf_ival;
typedef MF_VEC(mf_ival) mf_ivset;

/* The values of slot `slot`, the one just being assigned, for which
 * constraint `item` can hold, given cur and the slots of st assigned
 * before it: 1 and *out (a superset: every value outside makes the
 * constraint FALSE, with no error), or 0 where it cannot tell (then
 * every value is to be checked). */
int mf_sim_narrow(mf_ivset *out, const plan *p, int item, int slot,
                  const mf_val *cur, const mf_val *st);
/* a := a & b. */
void mf_sim_iv_meet(mf_ivset *a, const mf_ivset *b);
/* 1 if v is in s. */
int mf_sim_iv_has(const mf_ivset *s, mf_val v);

/* Does an item evaluate with the state being built as its current state
 * (init items, invariants, INVAR) rather than as its next state (next(),
 * TRANS)? */
static inline int reads_st_as_cur(const plan *p, const mf_item *it)
{
    if (p->init)
        return 1;
    return it->kind == MF_IT_ASSIGN || it->kind == MF_IT_INVAR_C;
}

/* Small helpers on variables and types. */

static inline const char *mfile(const mf_model *m)
{
    return m->file ? m->file : "<model>";
}

static inline int64_t type_cells(const mf_type *t)
{
    if (t->kind != MF_TY_ARRAY)
        return 1;
    return (t->hi - t->lo + 1) * type_cells(t->elem);
}

static inline int is_ivar(const mf_var *v)
{
    return v->decl == MF_DECL_IVAR;
}

/* An input VAR, or a FROZENVAR whose initial value is an input (an
 * unbounded integer's, docs/smv.md): the steps keep the latter. */
static inline int is_input_var(const mf_var *v)
{
    return v->is_input && v->decl != MF_DECL_IVAR;
}

#endif
