/* suite_read.c - a user's suite file into tests of a model (suite_read.h).
 *
 * The three forms are each turned, test by test, into the JSON columns the
 * store keeps (docs/schema.md: per state an object {name: value}), with
 * the file's line of each state, and then read by mf_store_test_parse,
 * which names the line of a state it refuses. So the checks of names,
 * types and missing values are the store's, once; this file only finds
 * the states in the file and says where a line is malformed. */
#include "suite_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

#define MAX_DEPTH 32 /* JSON nesting skipped over */

typedef struct {
    const char *file;
    const char *text, *end;
    const char *p;       /* JSON: the cursor */
    const char *lp;      /* line_of: counted up to here */
    int lcount;          /* the line of lp */
    const mf_model *m;
    mf_suite_file *out;
} rd;

/* A test being read: its columns as the store writes them. */
typedef struct {
    mf_buf in, exp, alw;
    int nstates, has_alw, line;
    MF_VEC(int) lines;
    char *label;
} building;

static int fail(const rd *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const rd *r, int line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_err_set(MF_EPARSE, "%s:%d: %s", r->file, line, msg);
}

/* The line of p (1-based); p moves forward between calls. */
static int line_of(rd *r, const char *p)
{
    if (p < r->lp) {
        r->lp = r->text;
        r->lcount = 1;
    }
    for (; r->lp < p && r->lp < r->end; r->lp++)
        r->lcount += *r->lp == '\n';
    return r->lcount;
}

static void b_free(building *b)
{
    mf_buf_free(&b->in);
    mf_buf_free(&b->exp);
    mf_buf_free(&b->alw);
    MF_VEC_FREE(b->lines);
    free(b->label);
    memset(b, 0, sizeof *b);
}

static void b_start(building *b, const char *label, size_t n, int line)
{
    b_free(b);
    b->label = mf_xcalloc(n + 1, 1);
    memcpy(b->label, label, n);
    b->line = line;
}

/* One state: its inputs and expected objects, its allowed array (NULL:
 * none given). */
static void b_state(building *b, const char *in, size_t nin, const char *exp,
                    size_t nexp, const char *alw, size_t nalw, int line)
{
    const char *sep = b->nstates ? "," : "[";
    mf_buf_puts(&b->in, sep);
    mf_buf_put(&b->in, in, nin);
    mf_buf_puts(&b->exp, sep);
    mf_buf_put(&b->exp, exp, nexp);
    mf_buf_puts(&b->alw, sep);
    if (alw) {
        mf_buf_put(&b->alw, alw, nalw);
        b->has_alw = 1;
    } else
        mf_buf_puts(&b->alw, "[]");
    MF_VEC_PUSH(b->lines, line);
    b->nstates++;
}

/* The test read by the store's reader, kept in r->out. */
static int b_finish(rd *r, building *b)
{
    if (!b->nstates)
        return fail(r, b->line, "test '%s' has no states", b->label);
    mf_buf_puts(&b->in, "]");
    mf_buf_puts(&b->exp, "]");
    mf_buf_puts(&b->alw, "]");
    mf_store_test_opts o = {0};
    o.file = r->file;
    o.lines = b->lines.v;
    o.line = b->line;
    mf_test *t = NULL;
    int rc = mf_store_test_parse(&t, r->m, b->nstates - 1, b->in.data,
                                 b->exp.data, b->has_alw ? b->alw.data : NULL,
                                 &o);
    if (rc < 0)
        return rc;
    mf_suite_file *f = r->out;
    f->v = mf_xrealloc(f->v, sizeof *f->v * (size_t)(f->n + 1));
    mf_suite_test *st = &f->v[f->n++];
    st->label = b->label;
    b->label = NULL;
    st->line = b->line;
    st->lines = b->lines.v;
    b->lines.v = NULL;
    b->lines.n = b->lines.cap = 0;
    st->t = t;
    st->inputs = b->in.data;
    st->expected = b->exp.data;
    st->allowed = b->has_alw ? b->alw.data : NULL;
    memset(&b->in, 0, sizeof b->in);
    memset(&b->exp, 0, sizeof b->exp);
    if (b->has_alw)
        memset(&b->alw, 0, sizeof b->alw);
    return 0;
}

static int set_hash(rd *r, const char *h, size_t n, int line)
{
    if (r->out->model_hash[0])
        return fail(r, line, "the model is named twice");
    if (n != 64 || strspn(h, "0123456789abcdef") < 64)
        return fail(r, line, "a model hash is 64 hexadecimal digits");
    memcpy(r->out->model_hash, h, 64);
    r->out->model_hash[64] = '\0';
    r->out->hash_line = line;
    return 0;
}

/* ---- name=value lists (the text form, CSV's allowed outputs) ------------ */

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* s[0..n) without blanks at either end. */
static void trim(const char **s, size_t *n)
{
    while (*n && is_ws(**s))
        (*s)++, (*n)--;
    while (*n && is_ws((*s)[*n - 1]))
        (*n)--;
}

static int is_number(const char *s, size_t n)
{
    size_t i = n && s[0] == '-';
    if (i == n)
        return 0;
    for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* A value as the store's JSON has it: a number, else a string. */
static void json_value(mf_buf *b, const char *s, size_t n)
{
    if (is_number(s, n)) {
        mf_buf_put(b, s, n);
        return;
    }
    char *v = mf_xcalloc(n + 1, 1);
    memcpy(v, s, n);
    mf_buf_json_str(b, v);
    free(v);
}

/* A name or value: not empty, no blank or quote inside. */
static int one_word(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (is_ws(s[i]) || s[i] == '"')
            return 0;
    return n > 0;
}

/* "a=1, b=on" (blanks around each part; may be empty) as {"a":1,"b":"on"}
 * into b. */
static int assign_list(rd *r, int line, const char *s, size_t n, mf_buf *b)
{
    mf_buf_puts(b, "{");
    trim(&s, &n);
    for (int first = 1; n; first = 0) {
        const char *comma = memchr(s, ',', n);
        size_t part = comma ? (size_t)(comma - s) : n;
        const char *a = s, *eq = memchr(a, '=', part);
        if (!eq)
            return fail(r, line, "'%.*s' is not name=value", (int)part, a);
        const char *nm = a, *val = eq + 1;
        size_t nn = (size_t)(eq - a), nv = part - nn - 1;
        trim(&nm, &nn);
        trim(&val, &nv);
        if (!one_word(nm, nn) || !one_word(val, nv) || memchr(val, '=', nv))
            return fail(r, line, "'%.*s' is not name=value", (int)part, a);
        mf_buf_puts(b, first ? "" : ",");
        json_value(b, nm, nn);
        if (is_number(nm, nn))
            return fail(r, line, "'%.*s' is not a name", (int)nn, nm);
        mf_buf_puts(b, ":");
        json_value(b, val, nv);
        if (!comma)
            break;
        n -= part + 1;
        s = comma + 1;
        trim(&s, &n);
        if (!n)
            return fail(r, line, "a list ends with ','");
    }
    mf_buf_puts(b, "}");
    return 0;
}

/* ---- the hand-written text form ------------------------------------------ */

static int word_is(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && !memcmp(s, w, k) && (n == k || is_ws(s[k]));
}

static int read_text(rd *r)
{
    building b = {0};
    mf_buf in = {0}, exp = {0};
    int rc = 0, line = 0, open = 0, ntests = 0;
    for (const char *s = r->text; s < r->end && rc == 0;) {
        const char *nl = memchr(s, '\n', (size_t)(r->end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(r->end - s);
        const char *l = s;
        s = nl ? nl + 1 : r->end;
        line++;
        trim(&l, &n);
        if (!n || l[0] == '#')
            continue;
        if (word_is(l, n, "model")) {
            const char *h = l + 5;
            size_t hn = n - 5;
            trim(&h, &hn);
            rc = set_hash(r, h, hn, line);
        } else if (word_is(l, n, "test")) {
            if (open && (rc = b_finish(r, &b)) < 0)
                break;
            const char *nm = l + 4;
            size_t nn = n - 4;
            trim(&nm, &nn);
            char num[24];
            if (!nn) {
                nn = (size_t)snprintf(num, sizeof num, "%d", ntests + 1);
                nm = num;
            }
            b_start(&b, nm, nn, line);
            open = 1;
            ntests++;
        } else {
            const char *arrow = NULL;
            for (size_t i = 0; i + 1 < n && !arrow; i++)
                if (l[i] == '-' && l[i + 1] == '>')
                    arrow = l + i;
            if (!open)
                rc = fail(r, line, "a state before the first 'test' line");
            else if (!arrow)
                rc = fail(r, line, "a state is 'inputs -> expected "
                          "observables', with '->'");
            if (rc < 0)
                break;
            size_t left = (size_t)(arrow - l);
            mf_buf_reset(&in);
            mf_buf_reset(&exp);
            if ((rc = assign_list(r, line, l, left, &in)) < 0 ||
                (rc = assign_list(r, line, arrow + 2, n - left - 2, &exp)) < 0)
                break;
            b_state(&b, in.data, in.len, exp.data, exp.len, NULL, 0, line);
        }
    }
    if (rc == 0 && open)
        rc = b_finish(r, &b);
    if (rc == 0 && !ntests)
        rc = fail(r, line ? line : 1, "no tests (a test begins with a "
                  "'test' line)");
    mf_buf_free(&in);
    mf_buf_free(&exp);
    b_free(&b);
    return rc;
}

/* ---- JSON, as tests export writes it --------------------------------------- */

static void js_ws(rd *r)
{
    while (r->p < r->end &&
           (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static int js_need(rd *r, char c)
{
    js_ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return 0;
    }
    return fail(r, line_of(r, r->p), "'%c' expected", c);
}

/* 1 and past c if c comes next. */
static int js_take(rd *r, char c)
{
    js_ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return 1;
    }
    return 0;
}

/* A string's raw text (escapes kept) as [*a, *b) without its quotes. */
static int js_str(rd *r, const char **a, const char **b)
{
    int rc = js_need(r, '"');
    if (rc < 0)
        return rc;
    *a = r->p;
    while (r->p < r->end && *r->p != '"' && *r->p != '\n')
        r->p += *r->p == '\\' && r->p + 1 < r->end ? 2 : 1;
    if (r->p >= r->end || *r->p != '"')
        return fail(r, line_of(r, *a), "unterminated string");
    *b = r->p++;
    return 0;
}

/* Skip one value of any kind. */
static int js_skip(rd *r, int depth)
{
    const char *a, *b;
    js_ws(r);
    if (r->p >= r->end)
        return fail(r, line_of(r, r->p), "the document ends early");
    if (*r->p == '"')
        return js_str(r, &a, &b);
    if (*r->p == '{' || *r->p == '[') {
        char close = *r->p == '{' ? '}' : ']';
        int obj = close == '}', rc = 0;
        if (depth >= MAX_DEPTH)
            return fail(r, line_of(r, r->p), "nested too deep");
        r->p++;
        for (int first = 1; rc == 0 && !js_take(r, close); first = 0) {
            if (!first && (rc = js_need(r, ',')) < 0)
                break;
            if (obj && ((rc = js_str(r, &a, &b)) < 0 ||
                        (rc = js_need(r, ':')) < 0))
                break;
            rc = js_skip(r, depth + 1);
        }
        return rc;
    }
    a = r->p;
    while (r->p < r->end && strchr("-+.0123456789eEtruefalsn", *r->p))
        r->p++;
    if (r->p == a)
        return fail(r, line_of(r, a), "a value expected, not '%.10s'", a);
    return 0;
}

/* Iterate over an object's keys: calls fn(r, key, keylen, ctx) with the
 * cursor before the value, which fn reads (or returns 1 to skip it). */
typedef int (*key_fn)(rd *r, const char *k, size_t n, void *ctx);

static int js_object(rd *r, key_fn fn, void *ctx)
{
    const char *a, *b;
    int rc = js_need(r, '{');
    for (int first = 1; rc == 0 && !js_take(r, '}'); first = 0) {
        if (!first && (rc = js_need(r, ',')) < 0)
            break;
        if ((rc = js_str(r, &a, &b)) < 0 || (rc = js_need(r, ':')) < 0)
            break;
        rc = fn(r, a, (size_t)(b - a), ctx);
        if (rc == 1)
            rc = js_skip(r, 1);
    }
    return rc;
}

static int key_is(const char *k, size_t n, const char *w)
{
    return n == strlen(w) && !memcmp(k, w, n);
}

typedef struct {
    const char *span[3][2]; /* inputs, expected, allowed */
} step_ctx;

static int step_key(rd *r, const char *k, size_t n, void *ctx)
{
    step_ctx *sc = ctx;
    int i = key_is(k, n, "inputs") ? 0 : key_is(k, n, "expected") ? 1
            : key_is(k, n, "allowed") ? 2 : -1;
    if (i < 0)
        return 1;
    js_ws(r);
    sc->span[i][0] = r->p;
    int rc = js_skip(r, 1);
    sc->span[i][1] = r->p;
    return rc;
}

typedef struct {
    building *b;
    long length; /* -1: not given */
    int length_line;
} test_ctx;

static int test_key(rd *r, const char *k, size_t n, void *ctx)
{
    test_ctx *tc = ctx;
    js_ws(r);
    const char *a = r->p;
    int rc;
    if (key_is(k, n, "id")) {
        if ((rc = js_skip(r, 1)) < 0)
            return rc;
        const char *s = a, *e = r->p;
        if (*s == '"')
            s++, e--;
        free(tc->b->label);
        tc->b->label = mf_xcalloc((size_t)(e - s) + 1, 1);
        memcpy(tc->b->label, s, (size_t)(e - s));
        return 0;
    }
    if (key_is(k, n, "length")) {
        char *endp = NULL;
        tc->length = strtol(a, &endp, 10);
        tc->length_line = line_of(r, a);
        if (endp == a || tc->length < 0)
            return fail(r, tc->length_line, "a test's length is a number");
        return js_skip(r, 1);
    }
    if (!key_is(k, n, "steps"))
        return 1;
    rc = js_need(r, '[');
    for (int first = 1; rc == 0 && !js_take(r, ']'); first = 0) {
        if (!first && (rc = js_need(r, ',')) < 0)
            break;
        step_ctx sc = {{{0}}};
        js_ws(r);
        int line = line_of(r, r->p);
        if ((rc = js_object(r, step_key, &sc)) < 0)
            break;
        if (!sc.span[0][0] || !sc.span[1][0])
            return fail(r, line, "a step without its inputs or expected "
                        "observables");
        b_state(tc->b, sc.span[0][0], (size_t)(sc.span[0][1] - sc.span[0][0]),
                sc.span[1][0], (size_t)(sc.span[1][1] - sc.span[1][0]),
                sc.span[2][0], (size_t)(sc.span[2][1] - sc.span[2][0]), line);
    }
    return rc;
}

static int top_key(rd *r, const char *k, size_t n, void *ctx)
{
    (void)ctx;
    const char *a, *b;
    int rc;
    if (key_is(k, n, "model_hash")) {
        int line = line_of(r, r->p);
        if ((rc = js_str(r, &a, &b)) < 0)
            return rc;
        return set_hash(r, a, (size_t)(b - a), line);
    }
    if (!key_is(k, n, "tests"))
        return 1;
    rc = js_need(r, '[');
    building bd = {0};
    for (int first = 1; rc == 0 && !js_take(r, ']'); first = 0) {
        if (!first && (rc = js_need(r, ',')) < 0)
            break;
        js_ws(r);
        char num[24];
        int len = snprintf(num, sizeof num, "%d", r->out->n + 1);
        b_start(&bd, num, (size_t)len, line_of(r, r->p));
        test_ctx tc = {&bd, -1, 0};
        if ((rc = js_object(r, test_key, &tc)) < 0)
            break;
        if (tc.length >= 0 && tc.length != bd.nstates - 1)
            rc = fail(r, tc.length_line, "length %ld, but %d states",
                      tc.length, bd.nstates);
        if (rc == 0)
            rc = b_finish(r, &bd);
    }
    b_free(&bd);
    return rc;
}

static int read_json(rd *r)
{
    r->p = r->text;
    int rc = js_object(r, top_key, NULL);
    if (rc == 0) {
        js_ws(r);
        if (r->p < r->end)
            rc = fail(r, line_of(r, r->p), "text after the document");
    }
    return rc;
}

/* ---- CSV, as tests export writes it ---------------------------------------- */

/* The fields of a line; buffers kept across lines (made of them are
 * initialised). */
typedef struct {
    mf_buf *v;
    int n, made;
} field_vec;

static void fields_free(field_vec *v)
{
    for (int i = 0; i < v->made; i++)
        mf_buf_free(&v->v[i]);
    free(v->v);
    memset(v, 0, sizeof *v);
}

/* The fields of one line s[0..n) into v (v->n of them). */
static int csv_fields(rd *r, int line, const char *s, size_t n, field_vec *v)
{
    size_t i = 0;
    v->n = 0;
    if (n && s[n - 1] == '\r')
        n--;
    for (;;) {
        if (v->n == v->made) {
            v->v = mf_xrealloc(v->v, sizeof *v->v * (size_t)(v->made + 1));
            memset(&v->v[v->made++], 0, sizeof *v->v);
        }
        v->n++;
        mf_buf *f = &v->v[v->n - 1];
        mf_buf_reset(f);
        mf_buf_puts(f, "");
        if (i < n && s[i] == '"') {
            for (i++;; i++) {
                if (i >= n)
                    return fail(r, line, "unterminated quoted field");
                if (s[i] == '"' && i + 1 < n && s[i + 1] == '"')
                    mf_buf_put(f, s + i++, 1);
                else if (s[i] == '"')
                    break;
                else
                    mf_buf_put(f, s + i, 1);
            }
            i++;
            if (i < n && s[i] != ',')
                return fail(r, line, "text after a quoted field");
        } else
            for (; i < n && s[i] != ','; i++) {
                if (s[i] == '"')
                    return fail(r, line, "a quote inside a field");
                mf_buf_put(f, s + i, 1);
            }
        if (i >= n)
            return 0;
        i++; /* the comma */
    }
}

/* What each column of the header is. */
enum { COL_SKIP, COL_TEST, COL_STEP, COL_IN, COL_EXP, COL_ALLOWED };

static int csv_header(rd *r, const field_vec *h, int *kind)
{
    int have[6] = {0};
    for (int i = 0; i < h->n; i++) {
        const char *f = h->v[i].data;
        kind[i] = !strcmp(f, "test") ? COL_TEST
                  : !strcmp(f, "step") ? COL_STEP
                  : !strncmp(f, "in.", 3) ? COL_IN
                  : !strncmp(f, "exp.", 4) ? COL_EXP
                  : !strcmp(f, "allowed") ? COL_ALLOWED
                  : !strcmp(f, "killed") || !strcmp(f, "refused") ? COL_SKIP
                                                                   : -1;
        if (kind[i] < 0)
            return fail(r, 1, "column '%.40s' is none of 'mutfarm tests "
                        "export' (test, step, in.NAME, exp.NAME, allowed, "
                        "killed, refused)", f);
        if ((kind[i] == COL_TEST || kind[i] == COL_STEP ||
             kind[i] == COL_ALLOWED) && have[kind[i]]++)
            return fail(r, 1, "column '%s' twice", f);
    }
    if (!have[COL_TEST] || !have[COL_STEP])
        return fail(r, 1, "the header has no 'test' or 'step' column");
    return 0;
}

/* One row's state: its objects from the in./exp. columns, its allowed
 * outputs from "a=1, b=2 | a=1, b=3". */
static int csv_state(rd *r, int line, const field_vec *h, const int *kind,
                     const field_vec *row, building *b)
{
    mf_buf in = {0}, exp = {0}, alw = {0};
    int rc = 0, fin = 0, fexp = 0, given = 0;
    mf_buf_puts(&in, "{");
    mf_buf_puts(&exp, "{");
    for (int i = 0; i < h->n && rc == 0; i++) {
        const mf_buf *f = &row->v[i];
        if (kind[i] == COL_ALLOWED && f->len) {
            given = 1;
            mf_buf_puts(&alw, "[");
            const char *s = f->data;
            for (int a = 0; rc == 0; a++) {
                const char *bar = strchr(s, '|');
                size_t n = bar ? (size_t)(bar - s) : strlen(s);
                mf_buf_puts(&alw, a ? "," : "");
                rc = assign_list(r, line, s, n, &alw);
                if (!bar)
                    break;
                s = bar + 1;
            }
            mf_buf_puts(&alw, "]");
        }
        if ((kind[i] != COL_IN && kind[i] != COL_EXP) || !f->len)
            continue;
        mf_buf *o = kind[i] == COL_IN ? &in : &exp;
        int *first = kind[i] == COL_IN ? &fin : &fexp;
        const char *nm = h->v[i].data + (kind[i] == COL_IN ? 3 : 4);
        mf_buf_puts(o, (*first)++ ? "," : "");
        mf_buf_json_str(o, nm);
        mf_buf_puts(o, ":");
        json_value(o, f->data, f->len);
    }
    mf_buf_puts(&in, "}");
    mf_buf_puts(&exp, "}");
    if (rc == 0)
        b_state(b, in.data, in.len, exp.data, exp.len,
                given ? alw.data : NULL, alw.len, line);
    mf_buf_free(&in);
    mf_buf_free(&exp);
    mf_buf_free(&alw);
    return rc;
}

static int read_csv(rd *r)
{
    field_vec h = {0}, row = {0};
    building b = {0};
    int *kind = NULL, rc = 0, line = 0, open = 0;
    for (const char *s = r->text; s < r->end && rc == 0;) {
        const char *nl = memchr(s, '\n', (size_t)(r->end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(r->end - s);
        const char *l = s;
        s = nl ? nl + 1 : r->end;
        line++;
        if (line == 1) {
            if ((rc = csv_fields(r, line, l, n, &h)) == 0) {
                kind = mf_xcalloc((size_t)h.n, sizeof *kind);
                rc = csv_header(r, &h, kind);
            }
            continue;
        }
        if (n == 0 || (n == 1 && l[0] == '\r'))
            continue;
        if ((rc = csv_fields(r, line, l, n, &row)) < 0)
            break;
        if (row.n != h.n) {
            rc = fail(r, line, "%d fields, the header has %d", row.n, h.n);
            break;
        }
        const char *test = NULL, *step = NULL;
        for (int i = 0; i < h.n; i++) {
            if (kind[i] == COL_TEST)
                test = row.v[i].data;
            if (kind[i] == COL_STEP)
                step = row.v[i].data;
        }
        if (!open || strcmp(test, b.label) != 0) {
            if (open && (rc = b_finish(r, &b)) < 0)
                break;
            b_start(&b, test, strlen(test), line);
            open = 1;
        }
        char want[24];
        snprintf(want, sizeof want, "%d", b.nstates);
        if (strcmp(step, want) != 0) {
            rc = fail(r, line, "test %.40s: step '%.20s' where step %s "
                      "comes", test, step, want);
            break;
        }
        rc = csv_state(r, line, &h, kind, &row, &b);
    }
    if (rc == 0 && open)
        rc = b_finish(r, &b);
    if (rc == 0 && line == 0)
        rc = fail(r, 1, "no header line");
    free(kind);
    fields_free(&h);
    fields_free(&row);
    b_free(&b);
    return rc;
}

/* ---- the whole ----------------------------------------------------------- */

int mf_suite_format_parse(mf_suite_format *out, const char *word)
{
    if (!strcmp(word, "json"))
        *out = MF_SUITE_JSON;
    else if (!strcmp(word, "csv"))
        *out = MF_SUITE_CSV;
    else if (!strcmp(word, "text"))
        *out = MF_SUITE_TEXT;
    else
        return -1;
    return 0;
}

void mf_suite_file_free(mf_suite_file *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->n; i++) {
        free(f->v[i].label);
        free(f->v[i].lines);
        free(f->v[i].inputs);
        free(f->v[i].expected);
        free(f->v[i].allowed);
        mf_test_free(f->v[i].t);
    }
    free(f->v);
    memset(f, 0, sizeof *f);
}

int mf_suite_read(mf_suite_file *out, const mf_model *m, const char *file,
                  const char *text, size_t len, mf_suite_format fmt)
{
    rd r = {0};
    memset(out, 0, sizeof *out);
    r.file = file;
    r.text = r.lp = text;
    r.end = text + len;
    r.lcount = 1;
    r.m = m;
    r.out = out;
    const char *nul = memchr(text, '\0', len);
    int rc = nul ? fail(&r, line_of(&r, nul), "a NUL byte: not a text file")
             : fmt == MF_SUITE_JSON ? read_json(&r)
             : fmt == MF_SUITE_CSV  ? read_csv(&r)
                                    : read_text(&r);
    if (rc == 0 && out->n == 0 && fmt != MF_SUITE_TEXT)
        rc = fail(&r, 1, "no tests");
    if (rc < 0)
        mf_suite_file_free(out);
    return rc;
}
