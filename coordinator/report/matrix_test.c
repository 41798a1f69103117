/* matrix_test.c - a stored test read back as an mf_test: the JSON of
 * tests.inputs, tests.expected and tests.allowed (docs/schema.md) turned
 * into values of the campaign's model, so that the simulator can replay it
 * and the export can print it again.
 *
 * Two forms are read: the named one the store writes with a model
 * ({"cell": value} per state; values as SMV prints them, TRUE/FALSE and
 * symbols as strings, observed DEFINEs as raw numbers or as names), and
 * the raw one of a store written without a model (arrays of numbers in
 * slot or observable order). Everything is checked against the model: this
 * is outside input, from a file another mutfarm may have written. It does
 * not replay anything. */
#include "matrix.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One cell a state object may name: an input cell (slot) or an
 * observable (index into the observables). */
typedef struct {
    char *name;
    int index;         /* slot, or observable index */
    const mf_type *ty; /* scalar type; NULL for an observed DEFINE */
} cell;

typedef MF_VEC(cell) cell_vec;

typedef struct {
    const mf_model *m;
    const char *p;     /* cursor */
    const char *what;  /* "inputs", "expected", "allowed" */
    int64_t id;        /* test id, for messages */
    int k;             /* state, for messages */
    cell_vec in0, in, obs; /* cells of state 0's inputs, later inputs,
                              observables */
    mf_buf name;       /* scratch: a key or string value */
    unsigned char *hit; /* per cell of a state: named already */
} reader;

static int fail(reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(reader *r, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->k >= 0)
        return mf_err_set(MF_EPARSE, "test %lld: %s[%d]: %s",
                          (long long)r->id, r->what, r->k, msg);
    return mf_err_set(MF_EPARSE, "test %lld: %s: %s", (long long)r->id,
                      r->what, msg);
}

static void add_cell(cell_vec *v, const mf_var *var, int q, int index)
{
    mf_buf b = {0};
    mf_print_cell_name(&b, var, q);
    cell c = {b.data, index, mf_type_scalar(var->type)};
    MF_VEC_PUSH(*v, c);
}

static void cells_build(reader *r)
{
    const mf_model *m = r->m;
    int n = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        for (int q = 0; q < v->nslots; q++) {
            /* As the store writes them (and mf_test_print_inputs). */
            if (v->is_input && v->decl == MF_DECL_VAR)
                add_cell(&r->in0, v, q, v->slot + q);
            if (v->is_input || v->decl == MF_DECL_IVAR)
                add_cell(&r->in, v, q, v->slot + q);
            if (v->is_observable)
                add_cell(&r->obs, v, q, n++);
        }
    }
    for (int i = 0; i < m->nobs_defines; i++) {
        cell c = {mf_xstrdup(m->items[m->obs_defines[i]].name), n++, NULL};
        MF_VEC_PUSH(r->obs, c);
    }
}

static void cells_free(cell_vec *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->v[i].name);
    MF_VEC_FREE(*v);
}

static void ws(reader *r)
{
    while (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r')
        r->p++;
}

static int expect(reader *r, char c)
{
    ws(r);
    if (*r->p != c)
        return fail(r, "expected '%c' at \"%.12s\"", c, r->p);
    r->p++;
    return 0;
}

/* 1 and consume c if it is next, else 0. */
static int accept(reader *r, char c)
{
    ws(r);
    if (*r->p != c)
        return 0;
    r->p++;
    return 1;
}

/* A JSON string into r->name (escapes of ASCII only: names and SMV
 * values need no more). */
static int string(reader *r)
{
    if (expect(r, '"') < 0)
        return MF_EPARSE;
    mf_buf_reset(&r->name);
    for (;;) {
        char c = *r->p++;
        if (c == '\0')
            return fail(r, "unterminated string");
        if (c == '"')
            return 0;
        if (c == '\\') {
            char e = *r->p++;
            if (e == 'u') {
                char hex[5] = {0};
                for (int i = 0; i < 4; i++)
                    if (!(hex[i] = *r->p++))
                        return fail(r, "bad \\u escape");
                long u = strtol(hex, NULL, 16);
                if (u <= 0 || u > 0x7f)
                    return fail(r, "unsupported \\u escape");
                c = (char)u;
            } else if (e == '"' || e == '\\' || e == '/')
                c = e;
            else if (e == 'n')
                c = '\n';
            else if (e == 't')
                c = '\t';
            else
                return fail(r, "bad escape '\\%c'", e ? e : '0');
        }
        mf_buf_put(&r->name, &c, 1);
    }
}

/* An integer (JSON numbers without fraction or exponent). */
static int number(reader *r, int64_t *out)
{
    ws(r);
    char *end;
    errno = 0;
    long long v = strtoll(r->p, &end, 10);
    if (end == r->p || errno || *end == '.' || *end == 'e' || *end == 'E')
        return fail(r, "expected an integer at \"%.12s\"", r->p);
    r->p = end;
    *out = v;
    return 0;
}

/* A value of a cell of scalar type ty (NULL: an observed DEFINE). */
static int value(reader *r, const cell *c, mf_val *out)
{
    ws(r);
    mf_val v;
    if (*r->p == '"') {
        if (string(r) < 0)
            return MF_EPARSE;
        const char *s = r->name.data;
        int sym;
        if ((!c->ty || c->ty->kind == MF_TY_BOOL) &&
            (!strcmp(s, "TRUE") || !strcmp(s, "FALSE")))
            v = !strcmp(s, "TRUE");
        else if ((sym = mf_model_find_sym(r->m, s)) >= 0)
            v = MF_SYM(sym);
        else
            return fail(r, "%s: unknown value \"%.40s\"", c->name, s);
        if (c->ty && !mf_type_contains(c->ty, v))
            return fail(r, "%s: \"%.40s\" is no value of its type", c->name,
                        s);
    } else if (!strncmp(r->p, "true", 4) || !strncmp(r->p, "false", 5)) {
        v = *r->p == 't';
        r->p += v ? 4 : 5;
    } else if (number(r, &v) < 0)
        return MF_EPARSE;
    if (c->ty && !mf_type_contains(c->ty, v))
        return fail(r, "%s: value %lld outside its type", c->name,
                    (long long)v);
    if (!c->ty && MF_IS_SYM(v) && v - MF_SYM_BASE >= r->m->nsyms)
        return fail(r, "%s: value %lld is no symbol of the model", c->name,
                    (long long)v);
    *out = v;
    return 0;
}

/* One state: {"cell": value, ...} naming exactly `cells`, or an array of
 * `width` raw numbers (into row[0..width)). Named values go to
 * row[cell.index]. */
static int state(reader *r, const cell_vec *cells, mf_val *row, int width)
{
    ws(r);
    if (accept(r, '[')) { /* raw: a store written without a model */
        int i = 0;
        if (!accept(r, ']')) {
            do {
                int64_t v;
                if (i >= width)
                    return fail(r, "more than %d values", width);
                if (number(r, &v) < 0)
                    return MF_EPARSE;
                row[i++] = v;
            } while (accept(r, ','));
            if (expect(r, ']') < 0)
                return MF_EPARSE;
        }
        if (i != width)
            return fail(r, "%d values, expected %d", i, width);
        return 0;
    }
    if (expect(r, '{') < 0)
        return MF_EPARSE;
    int seen = 0, next = 0;
    memset(r->hit, 0, (size_t)cells->n + 1);
    if (accept(r, '}'))
        goto done;
    do {
        if (string(r) < 0 || expect(r, ':') < 0)
            return MF_EPARSE;
        /* The store writes the cells in order: try the next one first. */
        int at = -1;
        if (next < cells->n && !strcmp(cells->v[next].name, r->name.data))
            at = next;
        for (int i = 0; at < 0 && i < cells->n; i++)
            if (!strcmp(cells->v[i].name, r->name.data))
                at = i;
        if (at < 0)
            return fail(r, "unknown cell \"%.40s\"", r->name.data);
        if (r->hit[at]++)
            return fail(r, "cell \"%.40s\" twice", r->name.data);
        if (value(r, &cells->v[at], &row[cells->v[at].index]) < 0)
            return MF_EPARSE;
        seen++;
        next = at + 1;
    } while (accept(r, ','));
    if (expect(r, '}') < 0)
        return MF_EPARSE;
done:
    if (seen != cells->n)
        return fail(r, "%d cells named, expected %d", seen, cells->n);
    return 0;
}

static int at_end(reader *r)
{
    ws(r);
    return *r->p ? fail(r, "trailing text \"%.12s\"", r->p) : 0;
}

int mf_matrix_test_parse(mf_test **out, const mf_model *m, int64_t id,
                         int length, const char *inputs, const char *expected,
                         const char *allowed)
{
    reader r = {0};
    int nobs = mf_model_nobs(m), n = m->nslots, rc = 0;
    mf_test *t = NULL;

    *out = NULL;
    r.m = m;
    r.id = id;
    r.k = -1;
    if (length < 0 || length > 1000000 || !inputs || !expected) {
        r.what = "row";
        return fail(&r, "length %d or its JSON is missing", length);
    }
    cells_build(&r);
    r.hit = mf_xcalloc((size_t)(r.in.n + r.in0.n + r.obs.n + 1), 1);
    t = mf_test_new(n, nobs, length);
    mf_val *scratch = mf_xcalloc((size_t)(n + nobs + 1), sizeof *scratch);

    r.what = "inputs";
    r.p = inputs;
    if ((rc = expect(&r, '[')) < 0)
        goto cleanup;
    for (int k = 0; k <= length; k++) {
        r.k = k;
        if ((k && (rc = expect(&r, ',')) < 0) ||
            (rc = state(&r, k ? &r.in : &r.in0,
                        t->inputs + (size_t)k * (size_t)n, n)) < 0)
            goto cleanup;
    }
    r.k = -1;
    if ((rc = expect(&r, ']')) < 0 || (rc = at_end(&r)) < 0)
        goto cleanup;

    r.what = "expected";
    r.p = expected;
    if ((rc = expect(&r, '[')) < 0)
        goto cleanup;
    for (int k = 0; k <= length; k++) {
        r.k = k;
        if ((k && (rc = expect(&r, ',')) < 0) ||
            (rc = state(&r, &r.obs, t->expect + (size_t)k * (size_t)nobs,
                        nobs)) < 0)
            goto cleanup;
    }
    r.k = -1;
    if ((rc = expect(&r, ']')) < 0 || (rc = at_end(&r)) < 0)
        goto cleanup;

    if (allowed) {
        r.what = "allowed";
        r.p = allowed;
        if ((rc = expect(&r, '[')) < 0)
            goto cleanup;
        for (int k = 0; k <= length; k++) {
            r.k = k;
            if ((k && (rc = expect(&r, ',')) < 0) ||
                (rc = expect(&r, '[')) < 0)
                goto cleanup;
            if (accept(&r, ']'))
                continue;
            do {
                if ((rc = state(&r, &r.obs, scratch, nobs)) < 0)
                    goto cleanup;
                t->allowed[k] = mf_xrealloc(
                    t->allowed[k], sizeof(mf_val) *
                                       (size_t)(t->nallowed[k] + 1) *
                                       (size_t)(nobs ? nobs : 1));
                memcpy(t->allowed[k] + (size_t)t->nallowed[k] * nobs,
                       scratch, sizeof(mf_val) * (size_t)nobs);
                t->nallowed[k]++;
            } while (accept(&r, ','));
            if ((rc = expect(&r, ']')) < 0)
                goto cleanup;
        }
        r.k = -1;
        if ((rc = expect(&r, ']')) < 0 || (rc = at_end(&r)) < 0)
            goto cleanup;
    }
cleanup:
    free(scratch);
    free(r.hit);
    cells_free(&r.in0);
    cells_free(&r.in);
    cells_free(&r.obs);
    mf_buf_free(&r.name);
    if (rc < 0) {
        mf_test_free(t);
        return rc;
    }
    *out = t;
    return 0;
}
