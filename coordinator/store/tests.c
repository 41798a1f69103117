/* tests.c - a campaign's tests as the store keeps them: a worker's test
 * checked against the model's shape and rendered to the JSON columns of
 * `tests` (inputs, expected and allowed outputs, observed deviations; the
 * format is in docs/schema.md) with its content hash and readable text,
 * and a stored test read back as one JSON object (mf_store_test_json). It
 * writes no row: results.c stores what this renders. */
#include "store_int.h"

#include <stdlib.h>

/* Tests longer than this are refused as garbage, not stored. */
#define MF_STORE_MAX_TEST_LEN 100000

static const mf_store_query q_test_of_mutant = {
    Q_TEST_OF_MUTANT,
    "SELECT t.id, t.length, t.notion, t.inputs, t.expected, t.allowed "
    "FROM mutants m JOIN verdicts v ON v.mutant = m.id "
    "JOIN tests t ON t.id = v.test_id "
    "WHERE m.campaign_id = ?1 AND m.mutant_id = ?2"};

static void json_str(mf_buf *b, const char *s)
{
    mf_buf_puts(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            mf_buf_printf(b, "\\%c", c);
        else if (c < 0x20)
            mf_buf_printf(b, "\\u%04x", c);
        else
            mf_buf_put(b, s, 1);
    }
    mf_buf_puts(b, "\"");
}

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
        json_str(b, tmp->data);
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
    for (int i = 0; i < m->nobs_defines; i++, n++) {
        mf_buf_printf(b, "%s\"%s\":%lld", first ? "" : ",",
                      m->items[m->obs_defines[i]].name, (long long)o[n]);
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
    json_str(&b, notion);
    mf_buf_printf(&b, ",\"inputs\":%s,\"expected\":%s,\"allowed\":%s}", inputs,
                  expected, allowed ? allowed : "null");
    free(notion);
    free(inputs);
    free(expected);
    free(allowed);
    *out = b.data;
    return 0;
}
