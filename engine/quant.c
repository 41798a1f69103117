/* quant.c - the paper's quantified encoding (phi_pk / phi_dk) as an
 * alternative engine, used only to compare with refinement (see quant.h).
 *
 * Definite, length d (phi_dk):
 *   exists inputs. [O: an original run, choices free, ok hard]
 *     forall P, Q. defs(P) & defs(Q) ->
 *       !(ok(P,0..d) & ok(Q,0..d) & obs(P) = obs(Q) at 0..d)
 * Potential, length d (phi_pk, and a refusal disjunct):
 *   exists inputs, mutant choices M, rf.
 *     !rf -> ok(M,0..d) &
 *            forall P. defs(P) -> !(ok(P,0..d) & obs(P) = obs(M) at 0..d)
 *     rf  -> ok(M,0..d-1) & obs(O) = obs(M) at 0..d-1 &
 *            (forall R. defs(R) -> !ok(R, step d))      [M refuses step d]
 *            & forall P. defs(P) -> !(ok(P,0..d-1) & obs(P) = obs(M) at
 *                0..d-1 & forall S. defs(S) -> !ok(S, step d))
 * R and S are one-step copies from M's / P's state d-1 (state0) reading a
 * second input table equal to the inputs of step d. defs(X) are the
 * equations the encoder asserts for copy X (built into a scratch solver):
 * every state slot and ok[k] is defined by them from the choices, so
 * "forall choices, slots, oks. defs -> body" (the paper's form, its states
 * quantified: MF_QUANT_FORM=paper) is "forall choices. body[defs]" (the
 * default: the definitions substituted, only the choices bound).
 * Mirrors the refinement's definite and potential searches and its refusal
 * search (definite.c, potential.c, refusal.c), so that both engines answer
 * the same question. */
#include "quant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "z3util.h"

/* ------------------------------------------------------------------ */
/* Terms (every new term is kept alive by the encoder)                  */

static Z3_ast q_and2(mf_enc *E, Z3_ast a, Z3_ast b)
{
    Z3_ast x[2] = {a, b};
    return mf_enc_and(E, 2, x);
}

static Z3_ast q_implies(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return mf_enc_keep(E, Z3_mk_implies(mf_enc_ctx(E), a, b));
}

/* ------------------------------------------------------------------ */
/* Universally quantified copies                                        */

typedef struct {
    mf_enc *E;
    Z3_solver scratch; /* receives the copy's defining equations */
    mf_unroll *u;
    mf_inputs *in;
    Z3_ast *state0;
    mf_astvec bound; /* the copy's own constants */
} ucopy;

static void add_bound(ucopy *x, Z3_ast a)
{
    Z3_context c = mf_enc_ctx(x->E);
    if (!a || Z3_get_ast_kind(c, a) != Z3_APP_AST)
        return;
    Z3_app ap = Z3_to_app(c, a);
    if (Z3_get_app_num_args(c, ap) != 0 ||
        Z3_get_decl_kind(c, Z3_get_app_decl(c, ap)) != Z3_OP_UNINTERPRETED)
        return;
    for (int i = 0; i < x->bound.n; i++)
        if (x->bound.v[i] == a)
            return;
    MF_VEC_PUSH(x->bound, a);
}

/* A copy of E's model unrolled to depth d (state0: from that state), its
 * ok a named constant per state, its equations in a scratch solver. */
static void ucopy_init(ucopy *x, mf_enc *E, const char *tag, int meta,
                       mf_inputs *in, Z3_ast *state0, int d)
{
    Z3_context c = mf_enc_ctx(E);
    memset(x, 0, sizeof *x);
    x->E = E;
    x->in = in;
    x->state0 = state0;
    x->scratch = Z3_mk_simple_solver(c);
    Z3_solver_inc_ref(c, x->scratch);
    x->u = mf_unroll_new(E, x->scratch, tag, meta, in, 0, state0);
    mf_unroll_extend(x->u, d);
    int n = mf_enc_model(E)->nslots;
    for (int k = 0; k <= d; k++) {
        int nc;
        Z3_ast *ch = mf_unroll_choices(x->u, k, &nc);
        for (int i = 0; i < nc; i++)
            add_bound(x, ch[i]);
        Z3_ast *st = mf_unroll_state(x->u, k);
        Z3_ast *ic = mf_inputs_state(in, k);
        for (int s = 0; s < n; s++) {
            if (k == 0 && state0)
                continue; /* the given state: not this copy's */
            if (ic[s] && ic[s] == st[s])
                continue; /* an input cell: shared, free */
            if (k > 0 && st[s] == mf_unroll_state(x->u, k - 1)[s])
                continue; /* frozen: already bound (or given) */
            add_bound(x, st[s]);
        }
        add_bound(x, mf_unroll_ok(x->u, k));
    }
}

static void ucopy_free(ucopy *x)
{
    mf_unroll_free(x->u);
    Z3_solver_dec_ref(mf_enc_ctx(x->E), x->scratch);
    MF_VEC_FREE(x->bound);
}

/* The copy's defining equations, conjoined. */
static Z3_ast ucopy_defs(ucopy *x)
{
    mf_enc *E = x->E;
    Z3_context c = mf_enc_ctx(E);
    Z3_ast_vector v = Z3_solver_get_assertions(c, x->scratch);
    Z3_ast_vector_inc_ref(c, v);
    unsigned n = Z3_ast_vector_size(c, v);
    mf_astvec a = {0};
    for (unsigned i = 0; i < n; i++)
        MF_VEC_PUSH(a, mf_enc_keep(E, Z3_ast_vector_get(c, v, i)));
    Z3_ast r = mf_enc_and(E, a.n, a.v);
    MF_VEC_FREE(a);
    Z3_ast_vector_dec_ref(c, v);
    return r;
}

static int in_list(const mf_astvec *v, Z3_ast a)
{
    for (int i = 0; i < v->n; i++)
        if (v->v[i] == a)
            return 1;
    return 0;
}

/* forall (choices of the copies). body, where the copies' state slots and
 * ok[k] (defined by equations in the scratch solvers) are substituted by
 * their definitions: only the choice constants are bound. An equation that
 * is not such a definition stays as an antecedent, its constant bound.
 * MF_QUANT_FORM=paper: the paper's form instead, states quantified too and
 * the transition relation the antecedent: forall (choices, slots, oks).
 * defs -> body (logically the same; Z3's quantifier instantiation finds it
 * much harder, docs/killing.md). */
static Z3_ast forall_copies(mf_enc *E, ucopy **xs, int nx, Z3_ast body)
{
    Z3_context c = mf_enc_ctx(E);
    const char *form = getenv("MF_QUANT_FORM");
    int subst = !(form && !strcmp(form, "paper"));
    MF_VEC(Z3_app) b = {0};
    mf_astvec defs = {0}, from = {0}, to = {0}, all = {0};
    for (int i = 0; i < nx; i++) {
        for (int q = 0; q < xs[i]->bound.n; q++)
            MF_VEC_PUSH(all, xs[i]->bound.v[q]);
        if (!subst) {
            MF_VEC_PUSH(defs, ucopy_defs(xs[i]));
            continue;
        }
        Z3_ast_vector v = Z3_solver_get_assertions(c, xs[i]->scratch);
        Z3_ast_vector_inc_ref(c, v);
        unsigned n = Z3_ast_vector_size(c, v);
        for (unsigned k = 0; k < n; k++) {
            Z3_ast a = mf_enc_keep(E, Z3_ast_vector_get(c, v, k));
            Z3_app ap =
                Z3_get_ast_kind(c, a) == Z3_APP_AST ? Z3_to_app(c, a) : NULL;
            Z3_ast lhs =
                ap && Z3_get_app_num_args(c, ap) == 2 &&
                        Z3_get_decl_kind(c, Z3_get_app_decl(c, ap)) == Z3_OP_EQ
                    ? Z3_get_app_arg(c, ap, 0)
                    : NULL;
            if (!lhs || !in_list(&xs[i]->bound, lhs) || in_list(&from, lhs)) {
                MF_VEC_PUSH(defs, a); /* not a definition: keep it */
                continue;
            }
            Z3_ast rhs = Z3_get_app_arg(c, ap, 1);
            if (from.n)
                rhs = mf_enc_keep(
                    E, Z3_substitute(c, rhs, (unsigned)from.n, from.v, to.v));
            MF_VEC_PUSH(from, lhs);
            MF_VEC_PUSH(to, rhs);
        }
        Z3_ast_vector_dec_ref(c, v);
    }
    for (int q = 0; q < all.n; q++)
        if (!in_list(&from, all.v[q]))
            MF_VEC_PUSH(b, Z3_to_app(c, all.v[q]));
    Z3_ast imp =
        defs.n ? q_implies(E, mf_enc_and(E, defs.n, defs.v), body) : body;
    if (from.n)
        imp = mf_enc_keep(
            E, Z3_substitute(c, imp, (unsigned)from.n, from.v, to.v));
    Z3_ast r = b.n ? mf_enc_keep(E, Z3_mk_forall_const(c, 0, (unsigned)b.n, b.v,
                                                       0, NULL, imp))
                   : imp;
    MF_VEC_FREE(b);
    MF_VEC_FREE(defs);
    MF_VEC_FREE(from);
    MF_VEC_FREE(to);
    MF_VEC_FREE(all);
    return r;
}

/* ------------------------------------------------------------------ */
/* Solver, checks, tests                                                */

static Z3_solver q_solver(Z3_context c, const mf_engine_opts *o,
                          unsigned timeout_ms)
{
    const char *kind = getenv("MF_QUANT_SOLVER");
    Z3_solver s = kind && !strcmp(kind, "full") ? Z3_mk_solver(c)
                                                : Z3_mk_simple_solver(c);
    Z3_solver_inc_ref(c, s);
    Z3_params p = Z3_mk_params(c);
    Z3_params_inc_ref(c, p);
    if (timeout_ms)
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout_ms);
    if (o->rlimit)
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), o->rlimit);
    Z3_solver_set_params(c, s, p);
    Z3_params_dec_ref(c, p);
    return s;
}

static Z3_lbool q_check(Z3_context c, Z3_solver s, int d, char *why,
                        size_t whyn)
{
    Z3_lbool r = Z3_solver_check(c, s);
    Z3_error_code ec = Z3_get_error_code(c);
    if (ec != Z3_OK) {
        snprintf(why, whyn, "quantified encoding, length %d: z3 error: %.200s",
                 d, Z3_get_error_msg(c, ec));
        return Z3_L_UNDEF;
    }
    if (r == Z3_L_UNDEF) {
        const char *ru = Z3_solver_get_reason_unknown(c, s);
        snprintf(why, whyn, "quantified encoding, length %d: %sz3: %.200s", d,
                 !strcmp(ru, "canceled") ? "timeout or resource limit, " : "",
                 ru);
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* One length                                                           */

typedef struct {
    mf_enc *E, *EM;
    int meta, j;
    const mf_engine_opts *o;
} qctx;

/* The solver of one length (timeout tmo), its inputs (*in) and the
 * original's run (*O, its ok hard), mutant j selected. */
static Z3_solver q_open(const qctx *q, unsigned tmo, mf_inputs **in,
                        mf_unroll **O)
{
    mf_enc *E = q->E, *EM = q->EM;
    Z3_context c = mf_enc_ctx(E);
    Z3_solver s = q_solver(c, q->o, tmo);
    if (q->meta) {
        mf_enc_assert_sels(EM, s);
        Z3_solver_assert(c, s, mf_enc_sel(EM, q->j));
    }
    *in = mf_inputs_new(E, s, "qi");
    *O = mf_unroll_new(E, s, "qo", 0, *in, 1, NULL);
    return s;
}

/* Check s at length d: 1 sat (*test from its model: the inputs of in,
 * O's observables, M's when not NULL, a refusal at d where rf, when not
 * NULL, holds), 0 unsat, -1 unknown (why). */
static int q_solve(const qctx *q, Z3_solver s, mf_inputs *in, mf_unroll *O,
                   mf_unroll *M, Z3_ast rf, int d, mf_test **test, char *why,
                   size_t whyn)
{
    Z3_context c = mf_enc_ctx(q->E);
    Z3_lbool r = q_check(c, s, d, why, whyn);
    if (r != Z3_L_TRUE)
        return r == Z3_L_FALSE ? 0 : -1;
    Z3_model mdl = Z3_solver_get_model(c, s);
    Z3_model_inc_ref(c, mdl);
    mf_test *t = mf_z3_test(q->E, mdl, in, O, M, d);
    Z3_ast v = NULL;
    if (rf && Z3_model_eval(c, mdl, rf, 1, &v) && v &&
        Z3_get_bool_value(c, v) == Z3_L_TRUE)
        t->mrefuses = d;
    Z3_model_dec_ref(c, mdl);
    *test = t;
    return 1;
}

/* phi_dk at length d: 1 sat (test), 0 unsat, -1 unknown. */
static int definite_at(const qctx *q, int d, unsigned tmo, mf_test **test,
                       char *why, size_t whyn)
{
    mf_enc *E = q->E, *EM = q->EM;
    Z3_context c = mf_enc_ctx(E);
    mf_inputs *in;
    mf_unroll *O;
    Z3_solver s = q_open(q, tmo, &in, &O);
    mf_unroll_extend(O, d);
    ucopy P, Q;
    ucopy_init(&P, E, "qp", 0, in, NULL, d);
    ucopy_init(&Q, EM, "qq", q->meta, in, NULL, d);
    Z3_ast match[3] = {mf_enc_all_ok(E, P.u, 0, d),
                       mf_enc_all_ok(EM, Q.u, 0, d),
                       mf_enc_all_obs_eq(E, P.u, Q.u, d)};
    ucopy *xs[2] = {&P, &Q};
    Z3_solver_assert(
        c, s, forall_copies(E, xs, 2, mf_enc_not(E, mf_enc_and(E, 3, match))));
    int res = q_solve(q, s, in, O, NULL, NULL, d, test, why, whyn);
    ucopy_free(&P);
    ucopy_free(&Q);
    mf_unroll_free(O);
    mf_inputs_free(in);
    Z3_solver_dec_ref(c, s);
    return res;
}

/* phi_pk at length d (with the refusal disjunct). */
static int potential_at(const qctx *q, int d, unsigned tmo, mf_test **test,
                        char *why, size_t whyn)
{
    mf_enc *E = q->E, *EM = q->EM;
    Z3_context c = mf_enc_ctx(E);
    mf_inputs *in;
    mf_unroll *O;
    Z3_solver s = q_open(q, tmo, &in, &O);
    mf_unroll *M = mf_unroll_new(EM, s, "qm", q->meta, in, 0, NULL);
    mf_unroll_extend(O, d);
    mf_unroll_extend(M, d);

    /* A deviating mutant behaviour through d. */
    ucopy P;
    ucopy_init(&P, E, "qp", 0, in, NULL, d);
    Z3_ast pm[2] = {mf_enc_all_ok(E, P.u, 0, d),
                    mf_enc_all_obs_eq(E, P.u, M, d)};
    ucopy *xp[1] = {&P};
    Z3_ast behaviour =
        q_and2(E, mf_enc_all_ok(EM, M, 0, d),
               forall_copies(E, xp, 1, mf_enc_not(E, mf_enc_and(E, 2, pm))));

    /* A mutant refusal of step d. */
    mf_inputs *rin = NULL;
    ucopy R, P2, S;
    int have_p2 = 0;
    Z3_ast refusal;
    if (d == 0) {
        /* No initial mutant state for these inputs (O shows an original
         * one). */
        ucopy_init(&R, EM, "qr", q->meta, in, NULL, 0);
        ucopy *xr[1] = {&R};
        refusal = forall_copies(E, xr, 1, mf_enc_not(E, mf_unroll_ok(R.u, 0)));
    } else {
        const mf_model *m = mf_enc_model(E);
        rin = mf_inputs_new(E, s, "qj");
        Z3_ast *a = mf_inputs_state(rin, 1), *b = mf_inputs_state(in, d);
        for (int sl = 0; sl < m->nslots; sl++)
            if (a[sl] && b[sl])
                Z3_solver_assert(c, s, mf_enc_eq(E, a[sl], b[sl]));
        ucopy_init(&R, EM, "qr", q->meta, rin, mf_unroll_state(M, d - 1), 1);
        ucopy *xr[1] = {&R};
        Z3_ast mref = forall_copies(
            E, xr, 1, mf_enc_not(E, mf_enc_all_ok(EM, R.u, 0, 1)));
        ucopy_init(&P2, E, "qp2", 0, in, NULL, d - 1);
        have_p2 = 1;
        ucopy_init(&S, E, "qs", 0, rin, mf_unroll_state(P2.u, d - 1), 1);
        ucopy *xs[1] = {&S};
        Z3_ast oref =
            forall_copies(E, xs, 1, mf_enc_not(E, mf_enc_all_ok(E, S.u, 0, 1)));
        Z3_ast pr[3] = {mf_enc_all_ok(E, P2.u, 0, d - 1),
                        mf_enc_all_obs_eq(E, P2.u, M, d - 1), oref};
        ucopy *x2[1] = {&P2};
        Z3_ast none =
            forall_copies(E, x2, 1, mf_enc_not(E, mf_enc_and(E, 3, pr)));
        Z3_ast parts[4] = {mf_enc_all_ok(EM, M, 0, d - 1),
                           mf_enc_all_obs_eq(E, O, M, d - 1), mref, none};
        refusal = mf_enc_and(E, 4, parts);
    }
    char name[64];
    static _Atomic long nrf;
    snprintf(name, sizeof name, "quant_rf!%ld", nrf++);
    Z3_ast rf = mf_enc_keep(
        E, Z3_mk_const(c, Z3_mk_string_symbol(c, name), Z3_mk_bool_sort(c)));
    Z3_solver_assert(c, s, q_implies(E, rf, refusal));
    Z3_solver_assert(c, s, q_implies(E, mf_enc_not(E, rf), behaviour));

    int res = q_solve(q, s, in, O, M, rf, d, test, why, whyn);
    ucopy_free(&P);
    ucopy_free(&R);
    if (have_p2) {
        ucopy_free(&P2);
        ucopy_free(&S);
    }
    mf_unroll_free(O);
    mf_unroll_free(M);
    mf_inputs_free(in);
    mf_inputs_free(rin);
    Z3_solver_dec_ref(c, s);
    return res;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

int mf_quant_search(mf_enc *E, mf_enc *EM, int meta, int j,
                    const mf_engine_opts *o, int definite, int from,
                    mf_test **test, char *why, size_t whyn)
{
    qctx q = {E, EM, meta, j, o};
    double deadline = mf_z3_now() + o->timeout_ms / 1000.0;
    *test = NULL;
    if (why && whyn)
        why[0] = 0;
    for (int d = from < 0 ? 0 : from; d <= o->bound; d++) {
        unsigned tmo = 0;
        if (o->timeout_ms) {
            double left = deadline - mf_z3_now();
            if (left <= 0) {
                snprintf(why, whyn,
                         "quantified encoding: timeout (%u ms) "
                         "before length %d",
                         o->timeout_ms, d);
                return -1;
            }
            tmo = (unsigned)(left * 1000.0) + 1;
        }
        int r = definite ? definite_at(&q, d, tmo, test, why, whyn)
                         : potential_at(&q, d, tmo, test, why, whyn);
        const char *u = mf_enc_unsupported(E);
        if (!u && EM != E)
            u = mf_enc_unsupported(EM);
        if (u) {
            mf_test_free(*test);
            *test = NULL;
            snprintf(why, whyn, "%s", u);
            return -1;
        }
        if (r != 0)
            return r;
    }
    return 0;
}

int mf_quant_check(const mf_model *m, const mf_engine_mutant *mu, int against,
                   const mf_engine_opts *o, int definite, int from,
                   mf_test **test, char *why, size_t whyn)
{
    Z3_context c = mf_z3_context(); /* errors: Z3_get_error_code */
    mf_variant v = {mu->item, mu->repl};
    mf_enc *E = against ? mf_enc_new(c, m, NULL, 0, mu->mutated, o->encoding)
                        : mf_enc_new(c, m, &v, 1, NULL, o->encoding);
    mf_enc *EM =
        against ? mf_enc_new(c, mu->mutated, NULL, 0, m, o->encoding) : E;
    int r =
        mf_quant_search(E, EM, !against, 0, o, definite, from, test, why, whyn);
    if (EM != E)
        mf_enc_free(EM);
    mf_enc_free(E);
    Z3_del_context(c);
    return r;
}
