/* explore_delta.c - how a mutant's steps relate to the original's, for
 * the explorer (explore.c) and the kill matrix's replay: the mutant's
 * step is the original's where the two differ in init() only, or in one
 * next() assignment whose two right-hand sides agree on the state and the
 * input (explore.h: mf_explore_step_delta, mf_explore_step_agrees). It
 * steps no model itself.
 *
 * A mutant of a next() assignment whose right-hand side reads only the
 * current state and the input (no next()) has the original's successors
 * from every state where the two right-hand sides have the same values:
 * the enumeration (sim.c) differs in nothing else. A mutant of an init()
 * assignment or an INIT constraint has them from every state. Where they
 * apply, the mutant's step is the original's, computed once per context
 * for every mutant (the mutants' own steps were most of the explorer's
 * time: docs/semantics.md), and its states take the original's
 * observations (the same DEFINEs and variables are observed). */
#include "explore_int.h"

#include <stdlib.h>
#include <string.h>

/* Values of one expression (as the simulator's). */
#define EVAL_LIMIT (1 << 20)

/* 1 if e reads a DEFINE marked in `in` (by item index): *any set for
 * every such read, *under_next for one inside next() (innext: e is). */
static int reads_define(const mf_model *m, const char *in, const mf_expr *e,
                        int innext, int *any, int *under_next)
{
    if (!e)
        return 0;
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_DEFINE && in[e->ref]) {
        *any = 1;
        if (innext)
            *under_next = 1;
    }
    for (int k = 0; k < e->nkids; k++)
        reads_define(m, in, e->kids[k], innext || e->kind == MF_E_NEXT, any,
                     under_next);
    return *any;
}

/* A mutant of DEFINE `item` steps as the original wherever the DEFINE has
 * the same value in the current state under the input, when: nothing
 * observed reads it (no observed DEFINEs at all), its bodies read no
 * next(), and, through other DEFINEs, only next() assignments read it, in
 * the current state (not inside next()): invariant assignments, INVAR and
 * TRANS read the next state, whose value of it may differ. Initial
 * states are the simulator's. */
static int define_delta(const mf_model *o, const mf_model *m, int item)
{
    if (o->nobs_defines || mf_expr_reads_next(o, o->items[item].e) ||
        mf_expr_reads_next(m, m->items[item].e))
        return DELTA_NONE;
    char *in = mf_xcalloc((size_t)o->nitems, 1);
    in[item] = 1;
    for (int grew = 1; grew;) {
        grew = 0;
        for (int i = 0; i < o->nitems; i++) {
            int any = 0, nx = 0;
            if (o->items[i].kind == MF_IT_DEFINE && !in[i] &&
                reads_define(o, in, o->items[i].e, 0, &any, &nx)) {
                in[i] = 1;
                grew = 1;
            }
        }
    }
    int ok = 1;
    for (int i = 0; i < o->nitems && ok; i++) {
        const mf_item *it = &o->items[i];
        int any = 0, nx = 0, lany = 0, lnx = 0;
        reads_define(o, in, it->e, 0, &any, &nx);
        reads_define(o, in, it->lhs, 0, &lany, &lnx);
        switch (it->kind) {
        case MF_IT_DEFINE:
        case MF_IT_INIT:
        case MF_IT_INIT_C:
            break;
        case MF_IT_NEXT:
            ok = !nx && !lany;
            break;
        default:
            ok = !any && !lany;
            break;
        }
    }
    free(in);
    return ok ? DELTA_DEFINE : DELTA_NONE;
}

static int same_expr(const mf_expr *a, const mf_expr *b)
{
    if (!a || !b)
        return a == b;
    return mf_expr_equal(a, b);
}

int mf_xp_delta_mode(const mf_model *o, const mf_model *m, int *item)
{
    *item = -1;
    if (o->nitems != m->nitems || o->nvars != m->nvars ||
        o->nslots != m->nslots || o->nobs_defines != m->nobs_defines)
        return DELTA_NONE;
    for (int i = 0; i < o->nvars; i++) {
        const mf_var *a = &o->vars[i], *b = &m->vars[i];
        if (a->decl != b->decl || a->slot != b->slot ||
            a->nslots != b->nslots || a->is_input != b->is_input ||
            a->is_observable != b->is_observable ||
            !mf_type_equal(a->type, b->type))
            return DELTA_NONE;
    }
    for (int i = 0; i < o->nobs_defines; i++)
        if (o->obs_defines[i] != m->obs_defines[i])
            return DELTA_NONE;
    for (int i = 0; i < o->nitems; i++) {
        const mf_item *a = &o->items[i], *b = &m->items[i];
        if (a->kind != b->kind || a->var != b->var ||
            (a->name && b->name ? strcmp(a->name, b->name) != 0
                                : a->name != b->name) ||
            !same_expr(a->lhs, b->lhs))
            return DELTA_NONE;
        if (same_expr(a->e, b->e))
            continue;
        if (*item >= 0)
            return DELTA_NONE;
        *item = i;
    }
    if (*item < 0)
        return DELTA_INIT; /* the same items: every step is the original's */
    switch (o->items[*item].kind) {
    case MF_IT_INIT:
    case MF_IT_INIT_C:
        return DELTA_INIT;
    case MF_IT_NEXT:
        return mf_expr_reads_next(o, o->items[*item].e) ||
                       mf_expr_reads_next(m, m->items[*item].e)
                   ? DELTA_NONE
                   : DELTA_NEXT;
    case MF_IT_DEFINE:
        return define_delta(o, m, *item);
    default:
        return DELTA_NONE;
    }
}

int mf_explore_step_delta(const mf_model *orig, const mf_model *mut,
                          int *item)
{
    int d = mf_xp_delta_mode(orig, mut, item);
    return d == DELTA_DEFINE ? MF_STEP_DIFFERS : d;
}

int mf_explore_step_agrees(const mf_model *orig, const mf_model *mut,
                           int item, const mf_val *cur, const mf_val *inp,
                           mf_valset vals[2])
{
    const mf_model *ms[2] = {orig, mut};
    for (int w = 0; w < 2; w++) {
        vals[w].n = 0;
        if (mf_eval(&vals[w], ms[w], ms[w]->items[item].e, cur, NULL, inp,
                    EVAL_LIMIT) < 0)
            return 0;
    }
    return vals[0].n == vals[1].n &&
           !memcmp(vals[0].v, vals[1].v, (size_t)vals[0].n * sizeof(*vals[0].v));
}
