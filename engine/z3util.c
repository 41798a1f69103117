/* z3util.c - the engine's Z3 plumbing (z3util.h): contexts, solvers,
 * checks under the per-check timeout and the mutant's wall budget, models,
 * literals, tests read out of models. It knows no killing notion and no
 * batch: the methods (det.c, potential.c, definite.c, the proofs) and
 * quant.c build on it. */
#include "z3util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Thread_local int z3_err;
static _Thread_local char z3_msg[256];

/* Records, never longjmps: mf_z3_check looks at z3_err after each check. */
static void on_z3_error(Z3_context c, Z3_error_code e)
{
    z3_err = (int)e + 1;
    snprintf(z3_msg, sizeof z3_msg, "%s", Z3_get_error_msg(c, e));
}

double mf_z3_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

Z3_context mf_z3_context(void)
{
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    Z3_context c = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(c, on_z3_error);
    return c;
}

/* The timeout each live solver of this thread was last given, so that a
 * check sets it only when it must change: setting parameters on the
 * incremental SAT solver is not free (docs/killing.md, Limits). UINT_MAX:
 * none. A solver not in the table is set each time. */
#define TO_SLOTS 64
static _Thread_local struct {
    Z3_solver s;
    unsigned ms;
} to_slot[TO_SLOTS];

static int to_find(Z3_solver s)
{
    for (int i = 0; i < TO_SLOTS; i++)
        if (to_slot[i].s == s)
            return i;
    return -1;
}

/* Threads of the process that check at once (mf_engine_set_threads). */
static int check_threads = 1;

void mf_engine_set_threads(int n)
{
    check_threads = n < 1 ? 1 : n;
}

Z3_solver mf_z3_solver(Z3_context c, const mf_engine_opts *o, int qfbv)
{
    Z3_solver s =
        qfbv ? Z3_mk_solver_for_logic(c, Z3_mk_string_symbol(c, "QF_BV"))
             : Z3_mk_simple_solver(c);
    Z3_solver_inc_ref(c, s);
    Z3_params p = Z3_mk_params(c);
    Z3_params_inc_ref(c, p);
    if (o->timeout_ms)
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"),
                           o->timeout_ms);
    if (o->rlimit)
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), o->rlimit);
    /* The memory budget: Z3's SAT-based bit-vector solver gives up a
     * check ("max. memory exceeded": unknown) once Z3 holds more than
     * this in the process. Z3 counts per process, not per context, hence
     * the threads. The SMT core of purely Boolean encodings takes the
     * same parameter as a hard process limit that exits, so it is given
     * none: its checks are bounded by timeout and rlimit only. */
    if (o->memory_mb && qfbv) {
        uint64_t mb = (uint64_t)o->memory_mb * (uint64_t)check_threads;
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "max_memory"),
                           mb > UINT_MAX ? UINT_MAX : (unsigned)mb);
    }
    Z3_solver_set_params(c, s, p);
    Z3_params_dec_ref(c, p);
    int i = to_find(NULL);
    if (i >= 0) {
        to_slot[i].s = s;
        to_slot[i].ms = o->timeout_ms ? o->timeout_ms : UINT_MAX;
    }
    return s;
}

void mf_z3_solver_free(Z3_context c, Z3_solver s)
{
    if (!s)
        return;
    int i = to_find(s);
    if (i >= 0)
        to_slot[i].s = NULL;
    Z3_solver_dec_ref(c, s);
}

static _Thread_local double wall_deadline;
static _Thread_local unsigned wall_timeout_ms;

double mf_z3_deadline(void)
{
    return wall_deadline;
}

void mf_z3_set_deadline(double deadline)
{
    wall_deadline = deadline;
}

unsigned mf_z3_wall_timeout(void)
{
    return wall_timeout_ms;
}

void mf_z3_set_wall_timeout(unsigned ms)
{
    wall_timeout_ms = ms;
}

Z3_lbool mf_z3_check(Z3_context c, Z3_solver s, int n, Z3_ast *as, char *why,
                     size_t whyn)
{
    if (wall_deadline > 0) {
        double left = (wall_deadline - mf_z3_now()) * 1000.0;
        if (left < 1) {
            snprintf(why, whyn, "the mutant's wall budget is spent");
            return Z3_L_UNDEF;
        }
        /* Set each time: a solver shared by mutants keeps what the last
         * one's budget left it. */
        unsigned ms = wall_timeout_ms && wall_timeout_ms < left
                          ? wall_timeout_ms
                          : (unsigned)left;
        /* Changed only when too short, or longer than ms by over a tenth
         * (a check overruns the budget by at most that). */
        int i = to_find(s);
        unsigned *cur = i >= 0 ? &to_slot[i].ms : NULL;
        if (!cur || *cur < ms || *cur - ms > ms / 10 + 50) {
            Z3_params p = Z3_mk_params(c);
            Z3_params_inc_ref(c, p);
            Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), ms);
            Z3_solver_set_params(c, s, p);
            Z3_params_dec_ref(c, p);
            if (cur)
                *cur = ms;
        }
    }
    z3_err = 0;
    Z3_lbool r = Z3_solver_check_assumptions(c, s, (unsigned)n, as);
    if (z3_err == (int)Z3_MEMOUT_FAIL + 1 ||
        (z3_err && strstr(z3_msg, "memory"))) {
        snprintf(why, whyn, "over the memory budget ([engine] memory_mb; "
                            "z3: %.160s)", z3_msg);
        return Z3_L_UNDEF;
    }
    if (z3_err) {
        snprintf(why, whyn, "z3 error: %.200s", z3_msg);
        return Z3_L_UNDEF;
    }
    if (r == Z3_L_UNDEF) {
        const char *z = Z3_solver_get_reason_unknown(c, s);
        if (strstr(z, "memory"))
            snprintf(why, whyn, "over the memory budget ([engine] "
                                "memory_mb; z3: %s)", z);
        else
            snprintf(why, whyn, "z3: %s", z);
    }
    return r;
}

Z3_model mf_z3_model(Z3_context c, Z3_solver s)
{
    Z3_model mdl = Z3_solver_get_model(c, s);
    if (mdl)
        Z3_model_inc_ref(c, mdl);
    return mdl;
}

void mf_z3_model_free(Z3_context c, Z3_model mdl)
{
    if (mdl)
        Z3_model_dec_ref(c, mdl);
}

Z3_ast mf_z3_lit(mf_enc *E, const char *pfx)
{
    static _Atomic long n;
    char name[64];
    Z3_context c = mf_enc_ctx(E);
    snprintf(name, sizeof name, "%s!%ld", pfx, n++);
    return mf_enc_keep(
        E, Z3_mk_const(c, Z3_mk_string_symbol(c, name), Z3_mk_bool_sort(c)));
}

void mf_z3_implies(mf_enc *E, Z3_solver s, Z3_ast g, Z3_ast f)
{
    Z3_context c = mf_enc_ctx(E);
    Z3_solver_assert(c, s, mf_enc_keep(E, Z3_mk_implies(c, g, f)));
}

/* The terms a[i] = v[i] for i < n, conjoined. */
static Z3_ast all_equal(mf_enc *E, Z3_ast *a, const mf_val *v, int n)
{
    Z3_ast *x = mf_xcalloc((size_t)(n ? n : 1), sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = mf_enc_eq(E, a[i], mf_enc_val(E, v[i]));
    Z3_ast r = mf_enc_and(E, n, x);
    free(x);
    return r;
}

Z3_ast mf_z3_obs_is(mf_enc *E, Z3_ast *a, const mf_val *v)
{
    return all_equal(E, a, v, mf_enc_nobs(E));
}

Z3_ast mf_z3_state_is(mf_enc *E, Z3_ast *st, const mf_val *v, int n)
{
    return all_equal(E, st, v, n);
}

mf_val *mf_z3_eval_state(mf_enc *E, Z3_model mdl, Z3_ast *st, int n)
{
    mf_val *v = mf_xcalloc((size_t)(n ? n : 1), sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = mf_enc_eval(E, mdl, st[i]);
    return v;
}

mf_test *mf_z3_test(mf_enc *E, Z3_model mdl, mf_inputs *in, mf_unroll *o,
                    mf_unroll *mu, int len)
{
    const mf_model *m = mf_enc_model(E);
    int n = m->nslots, nobs = mf_enc_nobs(E);
    mf_test *t = mf_test_new(n, nobs, len);
    for (int k = 0; k <= len; k++) {
        Z3_ast *ic = mf_inputs_state(in, k);
        for (int s = 0; s < n; s++)
            if (ic[s])
                t->inputs[(size_t)k * n + s] = mf_enc_eval(E, mdl, ic[s]);
        Z3_ast *ob = mf_unroll_obs(o, k);
        for (int i = 0; i < nobs; i++)
            t->expect[(size_t)k * nobs + i] = mf_enc_eval_obs(E, mdl, ob[i]);
    }
    if (mu) {
        t->mobs =
            mf_xcalloc((size_t)(len + 1) * (size_t)(nobs + 1), sizeof *t->mobs);
        for (int k = 0; k <= len; k++) {
            Z3_ast *ob = mf_unroll_obs(mu, k);
            for (int i = 0; i < nobs; i++)
                t->mobs[(size_t)k * nobs + i] = mf_enc_eval_obs(E, mdl, ob[i]);
        }
    }
    return t;
}
