/* cover.c - the exact minimum set cover with Z3's Optimize (cover.h).
 *
 * One Boolean x_s per set; per element the clause "some x_s of the sets
 * that cover it"; two groups of soft constraints, not x_s with weight 1
 * ("sets") and not x_s with weight cost(s) ("cost"), which Z3 minimises
 * in that order (lexicographic priority, its default). Its MaxSAT engine
 * proves the minimum of each. Elements with the same covering sets give
 * one clause. The answer is checked to cover every element before it is
 * returned. It does not find a greedy answer or fall back to one: the
 * caller (coordinator/report/minimize.c) does. */
#include "cover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "mf.h"

static _Thread_local int z3_err;
static _Thread_local char z3_msg[256];

static void on_z3_error(Z3_context c, Z3_error_code e)
{
    z3_err = (int)e + 1;
    snprintf(z3_msg, sizeof z3_msg, "%s", Z3_get_error_msg(c, e));
}

/* Elements sorted by their covering lists, so equal ones are adjacent. */
static _Thread_local const mf_cover_problem *sort_p;

static int elem_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    const mf_cover_problem *p = sort_p;
    int nx = p->start[x + 1] - p->start[x], ny = p->start[y + 1] - p->start[y];
    if (nx != ny)
        return nx < ny ? -1 : 1;
    int c = memcmp(p->by + p->start[x], p->by + p->start[y],
                   sizeof(int) * (size_t)nx);
    return c ? c : (x > y) - (x < y);
}

static int same_elem(const mf_cover_problem *p, int x, int y)
{
    int nx = p->start[x + 1] - p->start[x], ny = p->start[y + 1] - p->start[y];
    return nx == ny && !memcmp(p->by + p->start[x], p->by + p->start[y],
                               sizeof(int) * (size_t)nx);
}

int mf_cover_exact(int *chosen, int *optimal, const mf_cover_problem *p,
                   unsigned timeout_ms)
{
    int rc = 0;
    int *order = NULL;
    Z3_ast *x = NULL, *lits = NULL;
    Z3_optimize o = NULL;

    *optimal = 0;
    for (int e = 0; e < p->nelems; e++) {
        if (p->start[e + 1] <= p->start[e])
            return mf_err_set(MF_ERROR, "element %d is covered by no set", e);
        for (int q = p->start[e]; q < p->start[e + 1]; q++)
            if (p->by[q] < 0 || p->by[q] >= p->nsets)
                return mf_err_set(MF_ERROR, "element %d names set %d of %d",
                                  e, p->by[q], p->nsets);
    }
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    Z3_context c = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(c, on_z3_error);
    z3_err = 0;

    o = Z3_mk_optimize(c);
    Z3_optimize_inc_ref(c, o);
    Z3_params prm = Z3_mk_params(c);
    Z3_params_inc_ref(c, prm);
    if (timeout_ms)
        Z3_params_set_uint(c, prm, Z3_mk_string_symbol(c, "timeout"),
                           timeout_ms);
    Z3_optimize_set_params(c, o, prm);
    Z3_params_dec_ref(c, prm);

    Z3_sort bs = Z3_mk_bool_sort(c);
    x = mf_xcalloc((size_t)p->nsets + 1, sizeof *x);
    int widest = 1;
    for (int e = 0; e < p->nelems; e++)
        if (p->start[e + 1] - p->start[e] > widest)
            widest = p->start[e + 1] - p->start[e];
    lits = mf_xcalloc((size_t)widest, sizeof *lits);
    for (int s = 0; s < p->nsets; s++) {
        char name[32];
        snprintf(name, sizeof name, "t%d", s);
        x[s] = Z3_mk_const(c, Z3_mk_string_symbol(c, name), bs);
        Z3_inc_ref(c, x[s]);
    }
    order = mf_xcalloc((size_t)p->nelems + 1, sizeof *order);
    for (int e = 0; e < p->nelems; e++)
        order[e] = e;
    sort_p = p;
    qsort(order, (size_t)p->nelems, sizeof *order, elem_cmp);
    for (int i = 0; i < p->nelems && !z3_err; i++) {
        int e = order[i];
        if (i && same_elem(p, order[i - 1], e))
            continue;
        int n = 0;
        for (int q = p->start[e]; q < p->start[e + 1]; q++)
            lits[n++] = x[p->by[q]];
        Z3_ast cl = Z3_mk_or(c, (unsigned)n, lits);
        Z3_inc_ref(c, cl);
        Z3_optimize_assert(c, o, cl);
        Z3_dec_ref(c, cl);
    }
    Z3_symbol g_sets = Z3_mk_string_symbol(c, "sets");
    Z3_symbol g_cost = Z3_mk_string_symbol(c, "cost");
    for (int s = 0; s < p->nsets && !z3_err; s++) {
        Z3_ast nx = Z3_mk_not(c, x[s]);
        Z3_inc_ref(c, nx);
        Z3_optimize_assert_soft(c, o, nx, "1", g_sets);
        Z3_dec_ref(c, nx);
    }
    for (int s = 0; s < p->nsets && !z3_err; s++) {
        char w[24];
        if (p->cost[s] <= 0)
            continue;
        snprintf(w, sizeof w, "%d", p->cost[s]);
        Z3_ast nx = Z3_mk_not(c, x[s]);
        Z3_inc_ref(c, nx);
        Z3_optimize_assert_soft(c, o, nx, w, g_cost);
        Z3_dec_ref(c, nx);
    }
    if (z3_err) {
        rc = mf_err_set(MF_ERROR, "z3: %s", z3_msg);
        goto cleanup;
    }
    Z3_lbool r = Z3_optimize_check(c, o, 0, NULL);
    if (z3_err) {
        rc = mf_err_set(MF_ERROR, "z3: %s", z3_msg);
        goto cleanup;
    }
    if (r == Z3_L_UNDEF) {
        rc = mf_err_set(MF_ELIMIT, "z3 gave up: %s",
                        Z3_optimize_get_reason_unknown(c, o));
        goto cleanup;
    }
    if (r == Z3_L_FALSE) { /* every element has a set: cannot be */
        rc = mf_err_set(MF_ERROR, "z3 found no cover");
        goto cleanup;
    }
    Z3_model m = Z3_optimize_get_model(c, o);
    Z3_model_inc_ref(c, m);
    for (int s = 0; s < p->nsets; s++) {
        Z3_ast v = NULL;
        chosen[s] = 0;
        if (Z3_model_eval(c, m, x[s], 1, &v) && v) {
            Z3_inc_ref(c, v);
            chosen[s] = Z3_get_bool_value(c, v) == Z3_L_TRUE;
            Z3_dec_ref(c, v);
        }
    }
    Z3_model_dec_ref(c, m);
    for (int e = 0; e < p->nelems; e++) {
        int hit = 0;
        for (int q = p->start[e]; q < p->start[e + 1] && !hit; q++)
            hit = chosen[p->by[q]];
        if (!hit) {
            rc = mf_err_set(MF_ERROR, "z3's answer leaves element %d "
                            "uncovered", e);
            goto cleanup;
        }
    }
    *optimal = 1;
cleanup:
    for (int s = 0; x && s < p->nsets; s++)
        if (x[s])
            Z3_dec_ref(c, x[s]);
    if (o)
        Z3_optimize_dec_ref(c, o);
    Z3_del_context(c);
    free(x);
    free(lits);
    free(order);
    return rc;
}
