/* sim_seq.c - input sequences and traces: an input sequence read from a
 * file (the syntax of sim.h, checked against the model's inputs and their
 * domains), and a run of one printed step by step, with every state the
 * model allows listed where asked. It only drives the enumeration of
 * sim.c; it plans and enumerates nothing itself. */
#include "sim_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Input sequences                                                      */

void mf_input_seq_free(mf_input_seq *s)
{
    if (!s)
        return;
    free(s->init);
    free(s->steps);
    free(s->choices);
    free(s);
}

typedef struct {
    const mf_model *m;
    const char *file;
    const char *line; /* start of the current line */
    int lineno;
} rd;

static int rd_err(const rd *r, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rd_err(const rd *r, const char *at, const char *fmt, ...)
{
    mf_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    mf_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    int rc = mf_err_set(MF_EPARSE, "%s:%d:%d: error: %s", r->file, r->lineno,
                        (int)(at - r->line) + 1, b.data ? b.data : "");
    mf_buf_free(&b);
    return rc;
}

static int id_start(int c)
{
    return isalpha(c) || c == '_';
}

static int id_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '#' || c == '.' ||
           c == '-';
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* An integer at p: 0 and *v, advancing *pp; -1 if none. */
static int read_int(const char **pp, const char *end, int64_t *v)
{
    const char *p = *pp;
    int neg = 0;
    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    if (p >= end || !isdigit((unsigned char)*p))
        return -1;
    int64_t x = 0;
    while (p < end && isdigit((unsigned char)*p)) {
        if (x > (INT64_MAX - 9) / 10)
            return -1;
        x = x * 10 + (*p++ - '0');
    }
    *v = neg ? -x : x;
    *pp = p;
    return 0;
}

/* name[i][j]=value, into vals. Advances *pp. */
static int read_assign(rd *r, const char **pp, const char *end, mf_val *vals,
                       int is_init)
{
    const mf_model *m = r->m;
    const char *p = *pp, *name = p;
    char buf[512];
    if (p >= end || !id_start((unsigned char)*p))
        return rd_err(r, p, "expected an input name");
    while (p < end && id_char((unsigned char)*p))
        p++;
    size_t len = (size_t)(p - name);
    if (len >= sizeof(buf))
        return rd_err(r, name, "name too long");
    memcpy(buf, name, len);
    buf[len] = 0;
    int vi = mf_model_find_var(m, buf);
    if (vi < 0)
        return rd_err(r, name, "unknown variable '%s'", buf);
    const mf_var *v = &m->vars[vi];
    if (is_init ? !is_input_var(v)
                : !(is_ivar(v) ||
                    (is_input_var(v) && v->decl == MF_DECL_VAR)))
        return rd_err(r, name,
                      is_init && is_ivar(v)
                          ? "'%s' is an IVAR: steps give it, not init:"
                          : "'%s' is not an input of the model",
                      buf);
    int slot = v->slot;
    const mf_type *t = v->type;
    while (p < end && *p == '[') {
        const char *at = p + 1;
        int64_t i;
        p = skip_ws(p + 1, end);
        if (t->kind != MF_TY_ARRAY)
            return rd_err(r, at, "'%s' has no more dimensions", buf);
        if (read_int(&p, end, &i) < 0)
            return rd_err(r, p, "expected an index");
        if (i < t->lo || i > t->hi)
            return rd_err(r, at, "index %lld is out of %lld..%lld",
                          (long long)i, (long long)t->lo, (long long)t->hi);
        slot += (int)((i - t->lo) * type_cells(t->elem));
        t = t->elem;
        p = skip_ws(p, end);
        if (p >= end || *p != ']')
            return rd_err(r, p, "expected ']'");
        p++;
    }
    if (t->kind == MF_TY_ARRAY)
        return rd_err(r, name,
                      "'%s' is an array: give one element, as "
                      "%s[%lld]=...",
                      buf, buf, (long long)t->lo);
    p = skip_ws(p, end);
    if (p >= end || *p != '=')
        return rd_err(r, p, "expected '=' after '%s'", buf);
    p = skip_ws(p + 1, end);
    const char *vs = p;
    mf_val val = 0;
    int64_t iv;
    if (read_int(&p, end, &iv) == 0) {
        if (p < end && id_char((unsigned char)*p))
            return rd_err(r, vs, "bad value");
        val = iv;
        if (t->kind == MF_TY_BOOL)
            return rd_err(r, vs, "'%s' is boolean: TRUE or FALSE", buf);
    } else if (p < end && id_start((unsigned char)*p)) {
        while (p < end && id_char((unsigned char)*p))
            p++;
        size_t vl = (size_t)(p - vs);
        char vb[512];
        if (vl >= sizeof(vb))
            return rd_err(r, vs, "value too long");
        memcpy(vb, vs, vl);
        vb[vl] = 0;
        if (!strcmp(vb, "TRUE") || !strcmp(vb, "FALSE")) {
            if (t->kind != MF_TY_BOOL)
                return rd_err(r, vs, "'%s' is not boolean", buf);
            val = vb[0] == 'T';
        } else {
            int si = mf_model_find_sym(m, vb);
            if (si < 0 || t->kind == MF_TY_BOOL)
                return rd_err(r, vs, "'%s' is not a value of '%s'", vb, buf);
            val = MF_SYM(si);
        }
    } else
        return rd_err(r, vs, "expected a value for '%s'", buf);
    if (!mf_type_contains(t, val)) {
        mf_buf tb = {0};
        mf_print_type(&tb, m, t);
        int rc = rd_err(r, vs, "%.*s is not in the domain of '%s' (%s)",
                        (int)(p - vs), vs, buf, tb.data ? tb.data : "");
        mf_buf_free(&tb);
        return rc;
    }
    vals[slot] = val;
    *pp = p;
    return 0;
}

/* One line's list "a=1, b=x @2" into vals (and *choice). */
static int read_line(rd *r, const char *p, const char *end, mf_val *vals,
                     int *choice, int is_init)
{
    int rc, any = 0;
    p = skip_ws(p, end);
    if (p < end && *p == '-' && skip_ws(p + 1, end) == end)
        return 0; /* "-": a step that changes no input */
    while (p < end) {
        if (*p == '@') {
            const char *at = p;
            int64_t c;
            p++;
            if (read_int(&p, end, &c) < 0 || c < 0 || c > INT_MAX)
                return rd_err(r, at, "expected a choice number after '@'");
            *choice = (int)c;
            p = skip_ws(p, end);
            if (p < end)
                return rd_err(r, p, "nothing may follow '@%d'", *choice);
            return 0;
        }
        if (any) {
            if (*p != ',')
                return rd_err(r, p, "expected ',' or '@'");
            p = skip_ws(p + 1, end);
        }
        if ((rc = read_assign(r, &p, end, vals, is_init)) < 0)
            return rc;
        any = 1;
        p = skip_ws(p, end);
    }
    return 0;
}

typedef struct {
    mf_val *out;
    int n;
} first_state;

static int first_fn(const mf_val *state, void *ctx)
{
    first_state *f = ctx;
    memcpy(f->out, state, (size_t)f->n * sizeof(*state));
    return 1;
}

int mf_input_seq_parse(mf_input_seq **out, const mf_model *m, const char *file,
                       const char *text, size_t len)
{
    mf_input_seq *s = mf_xcalloc(1, sizeof(*s));
    int n = m->nslots, rc = 0, cap = 0;
    size_t sz = (size_t)(n ? n : 1) * sizeof(mf_val);
    mf_val *cur = mf_xcalloc(1, sz), *s0 = mf_xcalloc(1, sz);
    rd r = {m, file ? file : "<inputs>", NULL, 0};
    *out = NULL;
    s->init = mf_xcalloc(1, sz);

    /* Defaults: IVARs their first value; input VARs their values in the
     * first initial state the model allows, else their first value. */
    first_state f = {s0, n};
    int have_s0 = mf_sim_initial_each(m, NULL, first_fn, &f, 1000000L) > 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!is_ivar(v) && !is_input_var(v))
            continue;
        mf_val *dv = NULL;
        int dn = 0;
        if (mf_type_domain(mf_type_scalar(v->type), &dv, &dn) < 0)
            dn = 0;
        for (int k = 0; k < v->nslots; k++) {
            int sl = v->slot + k;
            s->init[sl] = is_input_var(v) && have_s0 ? s0[sl]
                          : dn > 0                   ? dv[0]
                                                     : 0;
        }
        free(dv);
    }
    memcpy(cur, s->init, sz);

    const char *p = text, *end = text + len;
    int seen_step = 0, seen_init = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        r.line = p;
        r.lineno++;
        /* Comments: '#' or '--' to the end of the line. */
        const char *ce = p;
        while (ce < le && *ce != '#' &&
               !(*ce == '-' && ce + 1 < le && ce[1] == '-'))
            ce++;
        const char *q = skip_ws(p, ce);
        if (q < ce) {
            const char *w = q;
            while (w < ce && isalpha((unsigned char)*w))
                w++;
            const char *colon = skip_ws(w, ce);
            if (w - q == 4 && !strncmp(q, "init", 4) && colon < ce &&
                *colon == ':') {
                if (seen_init || seen_step) {
                    rc = rd_err(&r, q,
                                seen_init ? "a second 'init:' line"
                                          : "'init:' must come before the "
                                            "steps");
                    goto cleanup;
                }
                seen_init = 1;
                if ((rc = read_line(&r, colon + 1, ce, s->init, &s->init_choice,
                                    1)) < 0)
                    goto cleanup;
                /* Steps start from the initial values of input VARs. */
                memcpy(cur, s->init, sz);
            } else {
                int choice = 0;
                if ((rc = read_line(&r, q, ce, cur, &choice, 0)) < 0)
                    goto cleanup;
                if (s->nsteps == cap) {
                    cap = cap ? 2 * cap : 16;
                    s->steps = mf_xrealloc(s->steps, (size_t)cap * sz);
                    s->choices =
                        mf_xrealloc(s->choices, (size_t)cap * sizeof(int));
                }
                memcpy(s->steps + (size_t)s->nsteps * (n ? n : 1), cur, sz);
                s->choices[s->nsteps++] = choice;
                seen_step = 1;
            }
        }
        p = nl ? nl + 1 : end;
    }
cleanup:
    free(cur);
    free(s0);
    if (rc < 0) {
        mf_input_seq_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Traces                                                               */

/* "out=coff, wtr=1": the observables of a state. */
static int print_obs(mf_buf *b, const mf_model *m, const mf_val *state)
{
    int nobs = mf_model_nobs(m);
    mf_val *obs = mf_xmalloc((size_t)(nobs ? nobs : 1) * sizeof(*obs));
    int rc = mf_sim_observe(obs, nobs, m, state);
    if (rc >= 0) {
        mf_print_obs(b, m, obs);
        if (nobs == 0)
            mf_buf_puts(b, "(no observables)");
        rc = 0;
    }
    free(obs);
    return rc;
}

/* "inp=req, x=3": the inputs of one step ("-": none). */
static void print_inputs(mf_buf *b, const mf_model *m, const mf_val *inp)
{
    if (mf_print_inputs(b, m, inp, 0) == 0)
        mf_buf_puts(b, "-");
}

typedef struct {
    const mf_model *m;
    mf_buf *out;
    int n, cap, rc;
} lister;

/* One line of a --all listing: "    @k: out=coff, wtr=1". */
static int list_fn(const mf_val *state, void *ctx)
{
    lister *l = ctx;
    if (l->n == l->cap) {
        mf_buf_printf(l->out, "    ... more than %d, not listed\n", l->cap);
        return 1;
    }
    mf_buf_printf(l->out, "    @%d: ", l->n++);
    if ((l->rc = print_obs(l->out, l->m, state)) < 0)
        return 1;
    mf_buf_puts(l->out, "\n");
    return 0;
}

/* List under `title` every state `cur` (NULL: the initial states) allows
 * under `inp`, at most l->cap of them. */
static int list_states(lister *l, const char *title, const mf_val *cur,
                       const mf_val *inp)
{
    int rc;
    mf_buf_puts(l->out, title);
    l->n = 0;
    l->rc = 0;
    if (cur)
        rc = mf_sim_next_each(l->m, cur, inp, list_fn, l, 10000000L);
    else
        rc = mf_sim_initial_each(l->m, inp, list_fn, l, 10000000L);
    if (rc < 0 || (rc = l->rc) < 0)
        return rc;
    if (l->n == 0)
        mf_buf_puts(l->out, "    (none)\n");
    return 0;
}

int mf_sim_run(mf_buf *out, const mf_model *m, const mf_input_seq *seq)
{
    return mf_sim_run_all(out, m, seq, 0);
}

int mf_sim_run_all(mf_buf *out, const mf_model *m, const mf_input_seq *seq,
                   int cap)
{
    size_t sz = (size_t)(m->nslots ? m->nslots : 1) * sizeof(mf_val);
    mf_val *cur = mf_xmalloc(sz), *nx = mf_xmalloc(sz);
    lister l = {m, out, 0, cap, 0};
    int rc = 0;
    if (cap > 0 && (rc = list_states(&l, "initial states:\n", NULL,
                                     seq->init)) < 0)
        goto cleanup;
    rc = mf_sim_initial(cur, m, seq->init, seq->init_choice);
    if (rc == MF_EREFUSED) {
        mf_buf_puts(out, "step 0: refused (no initial state for this "
                         "input)\n");
        goto cleanup;
    }
    if (rc < 0)
        goto cleanup;
    mf_buf_puts(out, "step 0: ");
    if ((rc = print_obs(out, m, cur)) < 0)
        goto cleanup;
    mf_buf_puts(out, "\n");
    for (int k = 0; k < seq->nsteps; k++) {
        const mf_val *inp =
            seq->steps + (size_t)k * (m->nslots ? m->nslots : 1);
        mf_buf_puts(out, "input: ");
        print_inputs(out, m, inp);
        if (seq->choices[k])
            mf_buf_printf(out, " @%d", seq->choices[k]);
        mf_buf_puts(out, "\n");
        if (cap > 0 && (rc = list_states(&l, "successors:\n", cur, inp)) < 0)
            goto cleanup;
        rc = mf_sim_step(nx, m, cur, inp, seq->choices[k]);
        if (rc == MF_EREFUSED) {
            mf_buf_printf(out,
                          "step %d: refused (no successor for this "
                          "input)\n",
                          k + 1);
            goto cleanup;
        }
        if (rc == MF_ENOTFOUND) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", mf_err_msg());
            rc = mf_err_set(rc, "step %d: %s", k + 1, msg);
        }
        if (rc < 0)
            goto cleanup;
        mf_buf_printf(out, "step %d: ", k + 1);
        if ((rc = print_obs(out, m, nx)) < 0)
            goto cleanup;
        mf_buf_puts(out, "\n");
        mf_val *t = cur;
        cur = nx;
        nx = t;
    }
cleanup:
    free(cur);
    free(nx);
    return rc;
}
