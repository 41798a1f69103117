/* tae_witness.c - delays for a kill's path with Z3 (tae_witness.h). The
 * path fixes every edge taken, so the integers along it are known and the
 * only unknowns are the delays: one real per step, constrained by the
 * invariants at the end of each delay (they are convex), the edges'
 * guards and targets' invariants, and at the end the deviation itself
 * (an edge of one side enabled where no edge of the other is, or a delay
 * the original's invariant forbids). */
#include "tae_witness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "z3util.h"

typedef struct {
    Z3_context c;
    Z3_ast_vector keep; /* every term made, kept alive */
    Z3_sort real, intg;
} zc;

static Z3_ast K(zc *z, Z3_ast a)
{
    Z3_ast_vector_push(z->c, z->keep, a);
    return a;
}

static Z3_ast rnum(zc *z, int64_t k)
{
    return K(z, Z3_mk_int64(z->c, k, z->real));
}

/* x_i - x_j (bound) over the clock terms cl (index 0: zero) */
static Z3_ast atom_z3(zc *z, Z3_ast *cl, tae_atom a)
{
    Z3_ast args[2] = {cl[a.i], cl[a.j]};
    Z3_ast lhs = K(z, Z3_mk_sub(z->c, 2, args));
    Z3_ast k = rnum(z, TAE_BK(a.b));
    return K(z, TAE_BSTRICT(a.b) ? Z3_mk_lt(z->c, lhs, k)
                                 : Z3_mk_le(z->c, lhs, k));
}

static Z3_ast conj_z3(zc *z, Z3_ast *cl, const tae_conj *cj)
{
    if (cj->n == 0)
        return K(z, Z3_mk_true(z->c));
    Z3_ast *v = mf_xcalloc((size_t)cj->n, sizeof *v);
    for (int k = 0; k < cj->n; k++)
        v[k] = atom_z3(z, cl, cj->v[k]);
    Z3_ast r = K(z, Z3_mk_and(z->c, (unsigned)cj->n, v));
    free(v);
    return r;
}

static Z3_ast not_z3(zc *z, Z3_ast a)
{
    return K(z, Z3_mk_not(z->c, a));
}

static void iupdate(const tae_aut *n, const tae_edge *e, int64_t *vals)
{
    for (int k = 0; k < e->nasg; k++) {
        int64_t v = 0;
        if (tae_ix_eval(&v, e->asg[k].val, vals) == 0)
            vals[e->asg[k].var] = v;
    }
    (void)n;
}

typedef struct {
    const tae_aut *a;
    Z3_ast *cl; /* clock terms, [0] the zero */
    int loc;
    int64_t *vals;
} side;

static void side_init(side *s, zc *z, const tae_aut *a)
{
    s->a = a;
    s->cl = mf_xcalloc((size_t)a->nclocks + 1, sizeof *s->cl);
    for (int c = 0; c <= a->nclocks; c++)
        s->cl[c] = rnum(z, 0);
    s->loc = a->init;
    s->vals = mf_xcalloc((size_t)a->nints + 1, sizeof *s->vals);
    for (int i = 0; i < a->nints; i++)
        s->vals[i] = a->ints[i].init;
}

static void side_free(side *s)
{
    free(s->cl);
    free(s->vals);
}

static void side_delay(side *s, zc *z, Z3_ast d)
{
    for (int c = 1; c <= s->a->nclocks; c++) {
        Z3_ast args[2] = {s->cl[c], d};
        s->cl[c] = K(z, Z3_mk_add(z->c, 2, args));
    }
}

static void side_fire(side *s, zc *z, int e)
{
    const tae_edge *E = &s->a->edges[e];
    for (int r = 0; r < E->nresets; r++)
        s->cl[E->resets[r]] = rnum(z, E->reset_to[r]);
    iupdate(s->a, E, s->vals);
    s->loc = E->dst;
}

/* No edge of s on channel ch (inputs only when only_in) before edge stop
 * (-1: none) is enabled. */
static Z3_ast none_z3(zc *z, side *s, int ch, int only_in, int stop)
{
    MF_VEC(Z3_ast) v = {0};
    for (int e = s->a->first[s->loc]; e >= 0 && e != stop; e = s->a->next[e]) {
        const tae_edge *E = &s->a->edges[e];
        if (E->chan != ch || E->dir == TAE_TAU ||
            (only_in && E->dir != TAE_IN) || !tae_edge_iok(E, s->vals))
            continue;
        MF_VEC_PUSH(v, not_z3(z, conj_z3(z, s->cl, &E->en)));
    }
    Z3_ast r = v.n ? K(z, Z3_mk_and(z->c, (unsigned)v.n, v.v))
                   : K(z, Z3_mk_true(z->c));
    MF_VEC_FREE(v);
    return r;
}

/* The constraints of the path with delays d[0..N]. */
static Z3_ast path_z3(zc *z, const tae_aut *o, const tae_aut *m,
                      const tae_refine_res *r, Z3_ast *d)
{
    side so, sm;
    side_init(&so, z, o);
    side_init(&sm, z, m);
    MF_VEC(Z3_ast) f = {0};
    int N = r->nsteps;
    for (int s = 0; s <= N; s++) {
        int uo = tae_urgent(o, so.loc, so.vals);
        int um = tae_urgent(m, sm.loc, sm.vals);
        MF_VEC_PUSH(f, K(z, Z3_mk_ge(z->c, d[s], rnum(z, 0))));
        int dk = s == N && r->kill == TAE_K_DELAY;
        if ((uo || um) && !(dk && uo && !um))
            MF_VEC_PUSH(f, K(z, Z3_mk_eq(z->c, d[s], rnum(z, 0))));
        side_delay(&so, z, d[s]);
        side_delay(&sm, z, d[s]);
        MF_VEC_PUSH(f, conj_z3(z, sm.cl, &m->locs[sm.loc].inv));
        if (dk) {
            if (uo)
                MF_VEC_PUSH(f, K(z, Z3_mk_gt(z->c, d[s], rnum(z, 0))));
            else
                MF_VEC_PUSH(f, not_z3(z, conj_z3(z, so.cl,
                                                 &o->locs[so.loc].inv)));
            break;
        }
        MF_VEC_PUSH(f, conj_z3(z, so.cl, &o->locs[so.loc].inv));
        if (s < N) {
            MF_VEC_PUSH(f, conj_z3(z, so.cl, &o->edges[r->eo[s]].en));
            MF_VEC_PUSH(f, conj_z3(z, sm.cl, &m->edges[r->em[s]].en));
            /* the mutant's input edge where no earlier one is enabled:
             * the resolution of its choice the zone product takes */
            if (m->edges[r->em[s]].dir == TAE_IN)
                MF_VEC_PUSH(f, none_z3(z, &sm, m->edges[r->em[s]].chan, 1,
                                       r->em[s]));
            side_fire(&so, z, r->eo[s]);
            side_fire(&sm, z, r->em[s]);
        } else if (r->kill == TAE_K_IN) {
            const tae_edge *E = &o->edges[r->kedge];
            MF_VEC_PUSH(f, conj_z3(z, so.cl, &E->en));
            MF_VEC_PUSH(f, none_z3(z, &sm, E->chan, 0, -1));
        } else {
            const tae_edge *E = &m->edges[r->kedge];
            MF_VEC_PUSH(f, conj_z3(z, sm.cl, &E->en));
            MF_VEC_PUSH(f, none_z3(z, &so, E->chan, 0, -1));
        }
    }
    Z3_ast all = K(z, Z3_mk_and(z->c, (unsigned)f.n, f.v));
    MF_VEC_FREE(f);
    side_free(&so);
    side_free(&sm);
    return all;
}

static int read_q(zc *z, Z3_model mdl, Z3_ast d, tae_q *q)
{
    Z3_ast v = NULL;
    int64_t n = 0, den = 1;
    if (!Z3_model_eval(z->c, mdl, d, true, &v) || !v)
        return 0;
    K(z, v);
    if (!Z3_get_numeral_rational_int64(z->c, v, &n, &den) || den <= 0)
        return 0;
    q->n = n;
    q->d = den;
    return 1;
}

/* The denominators tried, in order; 0: any rational. */
static const int64_t dens[] = {1, 2, 4, 10, 100, 1000, 0};

int tae_witness(tae_test *out, const tae_aut *o, const tae_aut *m,
                const tae_refine_res *r, unsigned timeout_ms)
{
    memset(out, 0, sizeof *out);
    zc z = {0};
    z.c = mf_z3_context();
    z.keep = Z3_mk_ast_vector(z.c);
    Z3_ast_vector_inc_ref(z.c, z.keep);
    z.real = Z3_mk_real_sort(z.c);
    z.intg = Z3_mk_int_sort(z.c);
    int N = r->nsteps, rc = MF_ENOTFOUND;
    Z3_ast *d = mf_xcalloc((size_t)N + 1, sizeof *d);
    Z3_ast *nv = mf_xcalloc((size_t)N + 1, sizeof *nv);
    for (size_t t = 0; t < sizeof dens / sizeof *dens && rc == MF_ENOTFOUND;
         t++) {
        char nm[32];
        for (int s = 0; s <= N; s++) {
            snprintf(nm, sizeof nm, "n%d", s);
            if (dens[t]) {
                nv[s] = K(&z, Z3_mk_const(z.c, Z3_mk_string_symbol(z.c, nm),
                                          z.intg));
                d[s] = K(&z, Z3_mk_div(z.c, K(&z, Z3_mk_int2real(z.c, nv[s])),
                                       rnum(&z, dens[t])));
            } else {
                snprintf(nm, sizeof nm, "d%d", s);
                d[s] = K(&z, Z3_mk_const(z.c, Z3_mk_string_symbol(z.c, nm),
                                         z.real));
            }
        }
        Z3_solver sv = Z3_mk_simple_solver(z.c);
        Z3_solver_inc_ref(z.c, sv);
        Z3_params p = Z3_mk_params(z.c);
        Z3_params_inc_ref(z.c, p);
        if (timeout_ms)
            Z3_params_set_uint(z.c, p, Z3_mk_string_symbol(z.c, "timeout"),
                               timeout_ms);
        Z3_solver_set_params(z.c, sv, p);
        Z3_params_dec_ref(z.c, p);
        Z3_solver_assert(z.c, sv, path_z3(&z, o, m, r, d));
        Z3_lbool res = Z3_solver_check(z.c, sv);
        if (res == Z3_L_TRUE) {
            Z3_model mdl = Z3_solver_get_model(z.c, sv);
            Z3_model_inc_ref(z.c, mdl);
            out->steps = mf_xcalloc((size_t)N + 1, sizeof *out->steps);
            out->n = N;
            out->kill = r->kill;
            int ok = 1;
            for (int s = 0; s < N && ok; s++) {
                ok = read_q(&z, mdl, d[s], &out->steps[s].delay);
                out->steps[s].chan = o->edges[r->eo[s]].chan;
                out->steps[s].dir = o->edges[r->eo[s]].dir;
            }
            ok = ok && read_q(&z, mdl, d[N], &out->kdelay);
            out->kchan = r->kill == TAE_K_IN    ? o->edges[r->kedge].chan
                         : r->kill == TAE_K_OUT ? m->edges[r->kedge].chan
                                                : -1;
            Z3_model_dec_ref(z.c, mdl);
            rc = ok ? 0 : mf_err_set(MF_ERROR, "timed test: delays unread");
        } else if (res == Z3_L_UNDEF) {
            rc = mf_err_set(MF_ERROR, "timed test: Z3: %s",
                            Z3_solver_get_reason_unknown(z.c, sv));
        }
        Z3_solver_dec_ref(z.c, sv);
    }
    if (rc == 0 && Z3_get_error_code(z.c) != Z3_OK)
        rc = mf_err_set(MF_ERROR, "timed test: Z3: %s",
                        Z3_get_error_msg(z.c, Z3_get_error_code(z.c)));
    if (rc == MF_ENOTFOUND)
        mf_err_set(rc, "timed test: no delays realise the path");
    if (rc < 0)
        tae_test_free(out);
    free(d);
    free(nv);
    Z3_ast_vector_dec_ref(z.c, z.keep);
    Z3_del_context(z.c);
    return rc;
}
