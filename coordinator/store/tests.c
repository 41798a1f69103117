/* tests.c - a campaign's tests as the store keeps them: a worker's test
 * checked against the model's shape and rendered to the JSON columns of
 * `tests` (inputs, expected and allowed outputs, observed deviations; the
 * format is in docs/schema.md) with its content hash and readable text; a
 * stored test read back as one JSON object (mf_store_test_json), or parsed
 * from those columns into a test of a model by the names of its variables
 * (mf_store_test_read: validated like any outside input, since the row may
 * come from another version or another model); and a campaign's tests
 * listed for replaying (mf_store_tests_each). It writes no row: results.c
 * and reuse.c store what this renders. */
#include "store_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Tests longer than this are refused as garbage, not stored. */
#define MF_STORE_MAX_TEST_LEN 100000

static const mf_store_query q_tests_of_campaign = {
    Q_TESTS_OF_CAMPAIGN,
    "SELECT t.id, t.length, t.notion, t.inputs, t.expected, t.allowed "
    "FROM tests t WHERE t.campaign_id = ?1 "
    "ORDER BY (SELECT count(*) FROM kills k WHERE k.test_id = t.id) DESC, "
    "t.length, t.id"};
static const mf_store_query q_test_of_mutant = {
    Q_TEST_OF_MUTANT,
    "SELECT t.id, t.length, t.notion, t.inputs, t.expected, t.allowed "
    "FROM mutants m JOIN verdicts v ON v.mutant = m.id "
    "JOIN tests t ON t.id = v.test_id "
    "WHERE m.campaign_id = ?1 AND m.mutant_id = ?2"};

/* A value as JSON: a number when SMV prints it as one, else a string
 * (TRUE, FALSE, symbols). */
static int json_val(mf_buf *b, mf_buf *tmp, const mf_model *m, const mf_type *t,
                    mf_val v)
{
    if (!t) {
        mf_buf_printf(b, "%lld", (long long)v);
        return 0;
    }
    if (!mf_type_contains(t, v))
        return -1;
    mf_buf_reset(tmp);
    mf_print_value(tmp, m, t, v);
    const char *p = tmp->data + (tmp->data[0] == '-');
    int num = *p != '\0';
    for (; *p; p++)
        num &= *p >= '0' && *p <= '9';
    if (num)
        mf_buf_puts(b, tmp->data);
    else
        mf_buf_json_str(b, tmp->data);
    return 0;
}

/* One object {name: value} of observables, or a raw array without model. */
static int obs_json(mf_buf *b, mf_buf *tmp, const mf_model *m, const mf_val *o,
                    int nobs)
{
    if (!m) {
        mf_buf_puts(b, "[");
        for (int i = 0; i < nobs; i++)
            mf_buf_printf(b, "%s%lld", i ? "," : "", (long long)o[i]);
        mf_buf_puts(b, "]");
        return 0;
    }
    int n = 0, first = 1;
    mf_buf_puts(b, "{");
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (!v->is_observable)
            continue;
        for (int q = 0; q < v->nslots; q++, n++) {
            mf_buf_puts(b, first ? "\"" : ",\"");
            first = 0;
            mf_print_cell_name(b, v, q); /* SMV names need no JSON escaping */
            mf_buf_puts(b, "\":");
            if (json_val(b, tmp, m, mf_type_scalar(v->type), o[n]) < 0)
                return -1;
        }
    }
    /* A DEFINE has no declared type: its value as what it looks like, a
     * symbol by its name (as mf_print_obs prints it), else a number. */
    for (int i = 0; i < m->nobs_defines; i++, n++) {
        mf_buf_printf(b, "%s\"%s\":", first ? "" : ",",
                      m->items[m->obs_defines[i]].name);
        if (MF_IS_SYM(o[n]) && o[n] - MF_SYM_BASE < m->nsyms)
            mf_buf_json_str(b, m->syms[o[n] - MF_SYM_BASE]);
        else
            mf_buf_printf(b, "%lld", (long long)o[n]);
        first = 0;
    }
    mf_buf_puts(b, "}");
    return 0;
}

/* The inputs of step k as an object (which cells as in mf_test_print). */
static int inputs_json(mf_buf *b, mf_buf *tmp, const mf_model *m,
                       const mf_test *t, int k)
{
    const mf_val *in = t->inputs + (size_t)k * (size_t)t->nslots;
    if (!m)
        return obs_json(b, tmp, NULL, in, t->nslots);
    int first = 1;
    mf_buf_puts(b, "{");
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        int used = k == 0 ? v->is_input && v->decl == MF_DECL_VAR
                          : v->is_input || v->decl == MF_DECL_IVAR;
        for (int q = 0; used && q < v->nslots; q++) {
            mf_buf_puts(b, first ? "\"" : ",\"");
            first = 0;
            mf_print_cell_name(b, v, q);
            mf_buf_puts(b, "\":");
            if (json_val(b, tmp, m, mf_type_scalar(v->type), in[v->slot + q]) <
                0)
                return -1;
        }
    }
    mf_buf_puts(b, "}");
    return 0;
}

void mf_store_test_rows_free(mf_store_test_rows *r)
{
    mf_buf_free(&r->inputs);
    mf_buf_free(&r->expected);
    mf_buf_free(&r->allowed);
    mf_buf_free(&r->observed);
    mf_buf_free(&r->text);
    mf_buf_free(&r->tmp);
}

/* A test from a worker is outside input: its shape must match the model
 * before anything reads its arrays by the model's layout. */
static const char *test_shape_error(const mf_model *m, const mf_test *t)
{
    if (t->length < 0 || t->length > MF_STORE_MAX_TEST_LEN)
        return "test length out of range";
    if (t->nslots < 0 || t->nobs < 0)
        return "negative test width";
    if ((t->nslots && !t->inputs) || (t->nobs && !t->expect))
        return "test without its values";
    if (m && (t->nslots != m->nslots || t->nobs != mf_model_nobs(m)))
        return "test does not match the model's variables";
    if (t->nallowed)
        for (int k = 0; k <= t->length; k++)
            if (t->nallowed[k] < 0 || (t->nallowed[k] && !t->allowed) ||
                (t->nallowed[k] && !t->allowed[k]))
                return "test with malformed allowed outputs";
    return NULL;
}

/* A JSON array of one observables object per state 0..length, from
 * `length + 1` rows of nobs values each. Returns -1 for a value outside
 * its variable's type (the array is then incomplete). */
static int obs_rows_json(mf_buf *b, mf_buf *tmp, const mf_model *m,
                         const mf_val *rows, int length, int nobs)
{
    int bad = 0;
    mf_buf_puts(b, "[");
    for (int k = 0; k <= length; k++) {
        mf_buf_puts(b, k ? "," : "");
        if (obs_json(b, tmp, m, rows + (size_t)k * (size_t)nobs, nobs) < 0)
            bad = -1;
    }
    mf_buf_puts(b, "]");
    return bad;
}

/* The allowed outputs: per state, the array of observables the original
 * may show. */
static int allowed_json(mf_buf *b, mf_buf *tmp, const mf_model *m,
                        const mf_test *t)
{
    mf_buf_puts(b, "[");
    for (int k = 0; k <= t->length; k++) {
        mf_buf_puts(b, k ? ",[" : "[");
        for (int a = 0; a < t->nallowed[k]; a++) {
            mf_buf_puts(b, a ? "," : "");
            if (obs_json(b, tmp, m, t->allowed[k] + (size_t)a * (size_t)t->nobs,
                         t->nobs) < 0)
                return -1;
        }
        mf_buf_puts(b, "]");
    }
    mf_buf_puts(b, "]");
    return 0;
}

const char *mf_store_test_render(mf_store_test_rows *r, const mf_model *m,
                                 const mf_test *t)
{
    const char *bad = test_shape_error(m, t);
    if (bad)
        return bad;
    mf_buf_puts(&r->inputs, "[");
    for (int k = 0; k <= t->length; k++) {
        mf_buf_puts(&r->inputs, k ? "," : "");
        if (inputs_json(&r->inputs, &r->tmp, m, t, k) < 0)
            return "test value outside its variable's type";
        if (t->nallowed && t->nallowed[k] > 1)
            r->has_allowed = 1;
    }
    mf_buf_puts(&r->inputs, "]");
    if (obs_rows_json(&r->expected, &r->tmp, m, t->expect, t->length, t->nobs) <
        0)
        return "test value outside its variable's type";
    if (r->has_allowed && allowed_json(&r->allowed, &r->tmp, m, t) < 0)
        return "allowed output outside its variable's type";
    /* Observed deviations are evidence only: drop them, do not refuse. */
    if (t->mobs)
        r->has_observed = obs_rows_json(&r->observed, &r->tmp, m, t->mobs,
                                        t->length, t->nobs) == 0;
    if (m)
        mf_test_print(&r->text, m, t);
    mf_buf reps = {0};
    mf_buf_printf(&reps, "%s\n%s\n%s", r->inputs.data, r->expected.data,
                  r->has_allowed ? r->allowed.data : "null");
    mf_sha256_hex(r->hash, reps.data, reps.len);
    mf_buf_free(&reps);
    return NULL;
}

int mf_store_test_observed(mf_buf *out, const mf_model *m, const mf_test *t)
{
    mf_buf tmp = {0};
    const char *bad = test_shape_error(m, t);
    int ok = !bad && t->mobs &&
             obs_rows_json(out, &tmp, m, t->mobs, t->length, t->nobs) == 0;
    mf_buf_free(&tmp);
    return ok;
}

int mf_store_test_json(mf_store *s, char **out, int64_t campaign,
                       const char *mutant_id)
{
    int64_t id = 0;
    int length = 0;
    char *notion = NULL, *inputs = NULL, *expected = NULL, *allowed = NULL;
    *out = NULL;
    int rc =
        mf_store_one(s, &q_test_of_mutant, "reading a test",
                     BIND(ARG_INT(campaign), ARG_TEXT(mutant_id)),
                     INTO(COL_I64(&id), COL_INT(&length),
                          COL_DUP(&notion, NULL), COL_DUP(&inputs, NULL),
                          COL_DUP(&expected, NULL), COL_DUP(&allowed, NULL)));
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND,
                          "store %s: mutant %s of campaign "
                          "%lld has no killing test",
                          s->path, mutant_id, (long long)campaign);
    if (rc < 0)
        return rc;
    mf_buf b = {0};
    mf_buf_printf(&b,
                  "{\"test_id\":%lld,\"length\":%d,\"notion\":", (long long)id,
                  length);
    mf_buf_json_str(&b, notion);
    mf_buf_printf(&b, ",\"inputs\":%s,\"expected\":%s,\"allowed\":%s}", inputs,
                  expected, allowed ? allowed : "null");
    free(notion);
    free(inputs);
    free(expected);
    free(allowed);
    *out = b.data;
    return 0;
}

/* ---- reading a stored test back ----------------------------------------- */

/* A test needs (length + 1) x (cells + observables) values: past this many
 * it is refused rather than allocated. */
#define MF_STORE_MAX_TEST_CELLS ((int64_t)1 << 24)
/* Longest name or string value read (SMV identifiers are far shorter). */
#define MF_STORE_MAX_NAME 1024

/* One name a test's JSON may use: a cell of a variable, or an observed
 * DEFINE. */
typedef struct {
    char *name;
    const mf_type *type; /* scalar type; NULL for a DEFINE */
    int slot;            /* state slot; -1 for a DEFINE */
    int obs;             /* index among the observables; -1 if not one */
    int in0;             /* an initial input (state 0) */
    int in;              /* an input of a step (states 1..length) */
} cell;

typedef struct {
    const char *p;   /* cursor in NUL-terminated JSON */
    const char *col; /* "inputs", "expected" or "allowed" */
    int64_t id;      /* the test's row for messages, 0 none */
    int k;           /* the state being read for messages, -1 none */
    int raw;         /* mf_store_test_opts.raw */
    const mf_store_test_opts *o; /* file and lines for messages */
    const mf_model *m;
    cell *cells;
    int ncells;
    unsigned char *seen; /* per cell, while reading one object */
    int partial;         /* observables may be missing (*partial) */
    int missing;         /* some object lacked an observable */
} reader;

static int cell_cmp(const void *a, const void *b)
{
    return strcmp(((const cell *)a)->name, ((const cell *)b)->name);
}

static void cells_free(reader *r)
{
    for (int i = 0; i < r->ncells; i++)
        free(r->cells[i].name);
    free(r->cells);
    free(r->seen);
}

/* Every name of m a test may use, sorted for bsearch. */
static void cells_make(reader *r, const mf_model *m)
{
    int n = 0, obs = 0;
    r->cells = mf_xcalloc((size_t)m->nslots + (size_t)m->nobs_defines + 1,
                          sizeof *r->cells);
    mf_buf b = {0};
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        for (int q = 0; q < v->nslots; q++) {
            cell *c = &r->cells[n++];
            mf_buf_reset(&b);
            mf_print_cell_name(&b, v, q);
            c->name = mf_xstrdup(b.data);
            c->type = mf_type_scalar(v->type);
            c->slot = v->slot + q;
            c->obs = v->is_observable ? obs++ : -1;
            c->in0 = v->is_input && v->decl == MF_DECL_VAR;
            c->in = v->is_input || v->decl == MF_DECL_IVAR;
        }
    }
    for (int i = 0; i < m->nobs_defines; i++) {
        cell *c = &r->cells[n++];
        c->name = mf_xstrdup(m->items[m->obs_defines[i]].name);
        c->slot = -1;
        c->obs = obs++;
    }
    mf_buf_free(&b);
    r->ncells = n;
    r->seen = mf_xcalloc((size_t)n + 1, 1);
    qsort(r->cells, (size_t)n, sizeof *r->cells, cell_cmp);
}

static const cell *cell_find(const reader *r, const char *name)
{
    cell key = {0};
    key.name = (char *)name;
    return bsearch(&key, r->cells, (size_t)r->ncells, sizeof *r->cells,
                   cell_cmp);
}

static int bad(const reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int bad(const reader *r, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->o && r->o->file)
        return mf_err_set(MF_EPARSE, "%s:%d: %s: %s", r->o->file,
                          r->o->lines && r->k >= 0 ? r->o->lines[r->k]
                                                   : r->o->line,
                          r->col, msg);
    if (r->id && r->k >= 0)
        return mf_err_set(MF_EPARSE, "test %lld: %s[%d]: %s",
                          (long long)r->id, r->col, r->k, msg);
    if (r->id)
        return mf_err_set(MF_EPARSE, "test %lld: %s: %s", (long long)r->id,
                          r->col, msg);
    return mf_err_set(MF_EPARSE, "stored test, %s: %s", r->col, msg);
}

static void ws(reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
        r->p++;
}

/* Skip whitespace and take `ch` if it comes next: 1 if taken. */
static int take(reader *r, char ch)
{
    ws(r);
    if (*r->p != ch)
        return 0;
    r->p++;
    return 1;
}

static int need(reader *r, char ch)
{
    if (take(r, ch))
        return 0;
    if (!*r->p)
        return bad(r, "ends where '%c' is expected", ch);
    return bad(r, "'%c' expected, not '%.20s'", ch, r->p);
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* A JSON string into buf (NUL-terminated). Names and symbols are ASCII:
 * an escape for anything else, or for NUL, is refused. */
static int read_str(reader *r, char *buf, size_t cap)
{
    size_t n = 0;
    int rc = need(r, '"');
    if (rc < 0)
        return rc;
    for (;;) {
        unsigned char ch = (unsigned char)*r->p;
        if (!ch)
            return bad(r, "unterminated string");
        r->p++;
        if (ch == '"')
            break;
        if (ch < 0x20)
            return bad(r, "control character in a string");
        if (ch == '\\') {
            char e = *r->p ? *r->p++ : 0;
            switch (e) {
            case '"': case '\\': case '/': ch = (unsigned char)e; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'n': ch = '\n'; break;
            case 'r': ch = '\r'; break;
            case 't': ch = '\t'; break;
            case 'u': {
                int v = 0;
                for (int i = 0; i < 4; i++) {
                    int h = hexval(*r->p);
                    if (h < 0)
                        return bad(r, "bad \\u escape");
                    v = v * 16 + h;
                    r->p++;
                }
                if (v == 0 || v > 0x7f)
                    return bad(r, "\\u%04x: not a character of a name", v);
                ch = (unsigned char)v;
                break;
            }
            default:
                return bad(r, "bad escape in a string");
            }
        }
        if (n + 1 >= cap)
            return bad(r, "string longer than %zu bytes", cap - 1);
        buf[n++] = (char)ch;
    }
    buf[n] = '\0';
    return 0;
}

/* A JSON integer (no fraction, no exponent) that fits in 64 bits. */
static int read_int(reader *r, mf_val *out)
{
    int neg = *r->p == '-';
    uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    const char *start = r->p += neg;
    while (*r->p >= '0' && *r->p <= '9') {
        unsigned d = (unsigned)(*r->p++ - '0');
        if (v > (lim - d) / 10)
            return bad(r, "number out of range");
        v = v * 10 + d;
    }
    if (r->p == start)
        return bad(r, "a value is a number or a string, not '%.20s'", r->p);
    if (*r->p == '.' || *r->p == 'e' || *r->p == 'E')
        return bad(r, "not a whole number");
    *out = neg ? (mf_val)(0 - v) : (mf_val)v;
    return 0;
}

/* The value of cell c, as a number or a string (TRUE, FALSE, a symbol),
 * checked against c's type. */
static int read_val(reader *r, const cell *c, mf_val *out)
{
    char s[MF_STORE_MAX_NAME];
    ws(r);
    if (r->raw && (!strncmp(r->p, "true", 4) || !strncmp(r->p, "false", 5))) {
        *out = *r->p == 't';
        r->p += *out ? 4 : 5;
        snprintf(s, sizeof s, "%s", *out ? "true" : "false");
    } else if (*r->p != '"') {
        int rc = read_int(r, out);
        if (rc < 0)
            return rc;
        snprintf(s, sizeof s, "%lld", (long long)*out);
    } else {
        int rc = read_str(r, s, sizeof s);
        if (rc < 0)
            return rc;
        int sym = mf_model_find_sym(r->m, s);
        if (!strcmp(s, "TRUE") || !strcmp(s, "FALSE"))
            *out = s[0] == 'T';
        else if (sym >= 0)
            *out = MF_SYM(sym);
        else
            return bad(r, "%s: value '%s' the model does not have", c->name,
                       s);
        if (c->type && c->type->kind != MF_TY_BOOL && sym < 0)
            return bad(r, "%s: '%s' is not of its type", c->name, s);
    }
    /* A DEFINE has no declared type: any value it can hold is taken, a
     * symbol only if it is one of the model's. */
    if (c->type && !mf_type_contains(c->type, *out))
        return bad(r, "%s: value %s is not of its type", c->name, s);
    if (!c->type && MF_IS_SYM(*out) && *out - MF_SYM_BASE >= r->m->nsyms)
        return bad(r, "%s: value %s is no symbol of the model", c->name, s);
    return 0;
}

typedef enum { OBJ_INIT, OBJ_STEP, OBJ_OBS } obj_kind;

/* One object {name: value, ...}: inputs of state 0 (OBJ_INIT) or of a
 * step (OBJ_STEP) into row (a state vector), or observables (OBJ_OBS) into
 * row (nobs values). Every input of the kind must be named; a missing
 * observable is refused unless the reader allows partial ones. */
static int read_obj(reader *r, obj_kind kind, int k, mf_val *row)
{
    char name[MF_STORE_MAX_NAME];
    memset(r->seen, 0, (size_t)r->ncells + 1);
    int rc = need(r, '{');
    for (int first = 1; rc == 0 && !take(r, '}'); first = 0) {
        if (!first && (rc = need(r, ',')) < 0)
            break;
        if ((rc = read_str(r, name, sizeof name)) < 0 ||
            (rc = need(r, ':')) < 0)
            break;
        const cell *c = cell_find(r, name);
        if (!c)
            return bad(r, "state %d names '%s', which the model does not "
                          "have", k, name);
        int ok = kind == OBJ_INIT ? c->in0
                 : kind == OBJ_STEP ? c->in
                                    : c->obs >= 0;
        if (!ok)
            return bad(r, "state %d names '%s', which is not %s here", k,
                       name,
                       kind == OBJ_OBS ? "observed"
                       : kind == OBJ_INIT ? "an initial input"
                                          : "an input");
        size_t at = (size_t)(c - r->cells);
        if (r->seen[at])
            return bad(r, "state %d names '%s' twice", k, name);
        r->seen[at] = 1;
        mf_val v = 0;
        if ((rc = read_val(r, c, &v)) < 0)
            break;
        row[kind == OBJ_OBS ? c->obs : c->slot] = v;
    }
    for (int i = 0; rc == 0 && i < r->ncells; i++) {
        const cell *c = &r->cells[i];
        int wanted = kind == OBJ_INIT ? c->in0
                     : kind == OBJ_STEP ? c->in
                                        : c->obs >= 0;
        if (!wanted || r->seen[i])
            continue;
        if (kind == OBJ_OBS && r->partial) {
            r->missing = 1;
            continue;
        }
        rc = bad(r, "state %d gives no value for '%s'", k, c->name);
    }
    return rc;
}

/* A state as the raw array of a store written without a model: exactly
 * width numbers, in slot or observable order, into row. */
static int read_raw(reader *r, mf_val *row, int width)
{
    int rc = need(r, '['), i = 0;
    for (; rc == 0 && !take(r, ']'); i++) {
        if (i && (rc = need(r, ',')) < 0)
            break;
        if (i >= width)
            return bad(r, "more than %d values", width);
        ws(r);
        rc = read_int(r, &row[i]);
    }
    if (rc == 0 && i != width)
        rc = bad(r, "%d values, expected %d", i, width);
    return rc;
}

/* One state: an object, or (r->raw) a raw array of width values. */
static int read_state(reader *r, obj_kind kind, int k, mf_val *row,
                      int width)
{
    ws(r);
    if (r->raw && *r->p == '[')
        return read_raw(r, row, width);
    return read_obj(r, kind, k, row);
}

/* [obj, obj, ...] with exactly length + 1 objects: row k of `rows` (width
 * values each) is filled by object k. */
static int read_rows(reader *r, obj_kind kind, int length, mf_val *rows,
                     int width)
{
    int rc = need(r, '[');
    int k = 0;
    for (; rc == 0 && !take(r, ']'); k++) {
        if (k && (rc = need(r, ',')) < 0)
            break;
        if (k > length)
            return bad(r, "more than %d states", length + 1);
        obj_kind kk = kind == OBJ_INIT && k > 0 ? OBJ_STEP : kind;
        r->k = k;
        rc = read_state(r, kk, k, rows + (size_t)k * (size_t)width, width);
        r->k = -1;
    }
    if (rc == 0 && k != length + 1)
        rc = bad(r, "%d states for a test of length %d", k, length);
    return rc;
}

/* The allowed outputs: per state, a list of observables objects. */
static int read_allowed(reader *r, mf_test *t, int keep)
{
    int nobs = t->nobs, width = nobs ? nobs : 1;
    mf_val *row = mf_xcalloc((size_t)width, sizeof *row);
    int rc = need(r, '['), k = 0;
    for (; rc == 0 && !take(r, ']'); k++) {
        if (k && (rc = need(r, ',')) < 0)
            break;
        if (k > t->length) {
            rc = bad(r, "more than %d states", t->length + 1);
            break;
        }
        if ((rc = need(r, '[')) < 0)
            break;
        for (int a = 0; rc == 0 && !take(r, ']'); a++) {
            if (a && (rc = need(r, ',')) < 0)
                break;
            memset(row, 0, sizeof *row * (size_t)width);
            r->k = k;
            rc = read_state(r, OBJ_OBS, k, row, nobs);
            r->k = -1;
            if (rc < 0 || !keep)
                continue;
            t->allowed[k] = mf_xrealloc(t->allowed[k],
                                        sizeof *row * (size_t)width *
                                            (size_t)(t->nallowed[k] + 1));
            memcpy(t->allowed[k] + (size_t)t->nallowed[k] * (size_t)nobs, row,
                   sizeof *row * (size_t)nobs);
            t->nallowed[k]++;
        }
    }
    if (rc == 0 && k != t->length + 1)
        rc = bad(r, "%d states for a test of length %d", k, t->length);
    free(row);
    return rc;
}

/* After a column: nothing but whitespace. */
static int read_end(reader *r)
{
    ws(r);
    return *r->p ? bad(r, "text after the end: '%.20s'", r->p) : 0;
}

int mf_store_test_read(mf_test **out, const mf_model *m, int length,
                       const char *inputs, const char *expected,
                       const char *allowed, int *partial)
{
    mf_store_test_opts o = {0, 0, partial, NULL, NULL, 0};
    return mf_store_test_parse(out, m, length, inputs, expected, allowed, &o);
}

int mf_store_test_parse(mf_test **out, const mf_model *m, int length,
                        const char *inputs, const char *expected,
                        const char *allowed, const mf_store_test_opts *o)
{
    int *partial = o->partial;
    *out = NULL;
    if (partial)
        *partial = 0;
    if (length < 0 || length > MF_STORE_MAX_TEST_LEN) {
        if (o->id)
            return mf_err_set(MF_EPARSE, "test %lld: length %d out of range",
                              (long long)o->id, length);
        return mf_err_set(MF_EPARSE, "stored test: length %d out of range",
                          length);
    }
    int nobs = mf_model_nobs(m);
    if ((int64_t)(length + 1) * (m->nslots + nobs + 2) >
        MF_STORE_MAX_TEST_CELLS)
        return mf_err_set(MF_ELIMIT,
                          "stored test: %d steps of %d values is too "
                          "large to read",
                          length, m->nslots + nobs);
    if (!inputs || !expected)
        return mf_err_set(MF_EPARSE, "stored test without inputs or "
                                     "expected observables");
    reader r = {0};
    r.o = o;
    r.m = m;
    r.id = o->id;
    r.k = -1;
    r.raw = o->raw;
    r.partial = partial != NULL;
    cells_make(&r, m);
    mf_test *t = mf_test_new(m->nslots, nobs, length);
    r.p = inputs;
    r.col = "inputs";
    int rc = read_rows(&r, OBJ_INIT, length, t->inputs, m->nslots);
    if (rc == 0)
        rc = read_end(&r);
    if (rc == 0) {
        r.p = expected;
        r.col = "expected";
        rc = read_rows(&r, OBJ_OBS, length, t->expect, nobs);
        if (rc == 0)
            rc = read_end(&r);
    }
    if (rc == 0 && allowed) {
        r.p = allowed;
        r.col = "allowed";
        ws(&r);
        if (!strncmp(r.p, "null", 4))
            r.p += 4;
        else
            rc = read_allowed(&r, t, 1);
        if (rc == 0)
            rc = read_end(&r);
    }
    if (rc == 0 && r.missing) {
        /* Observables the model has and the test does not know: its
         * expected outputs are incomplete, and so are the allowed ones. */
        for (int k = 0; k <= length; k++) {
            free(t->allowed[k]);
            t->allowed[k] = NULL;
            t->nallowed[k] = 0;
        }
        *partial = 1;
    }
    cells_free(&r);
    if (rc < 0) {
        mf_test_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

/* ---- listing a campaign's tests ----------------------------------------- */

typedef struct {
    mf_store_test_fn fn;
    void *ctx;
} tests_cb;

static const char *col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

static int test_row(sqlite3_stmt *st, void *ctx)
{
    const tests_cb *cb = ctx;
    mf_store_test_row t = {
        sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
        col_text(st, 2),             col_text(st, 3),
        col_text(st, 4),             col_text(st, 5),
    };
    return cb->fn(&t, cb->ctx);
}

int mf_store_tests_each(mf_store *s, int64_t campaign, mf_store_test_fn fn,
                        void *ctx)
{
    tests_cb cb = {fn, ctx};
    return mf_store_each(s, &q_tests_of_campaign, "reading tests",
                         BIND(ARG_INT(campaign)), test_row, &cb);
}
