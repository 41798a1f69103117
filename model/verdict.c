/* verdict.c - tests and verdicts as data: making, copying, freeing and
 * printing them (verdict.h). It decides no verdict. */
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

mf_test *mf_test_new(int nslots, int nobs, int len)
{
    mf_test *t = mf_xcalloc(1, sizeof *t);
    t->length = len;
    t->nslots = nslots;
    t->nobs = nobs;
    t->inputs = mf_xcalloc((size_t)(len + 1) * (size_t)(nslots + 1),
                           sizeof *t->inputs);
    t->expect = mf_xcalloc((size_t)(len + 1) * (size_t)(nobs + 1),
                           sizeof *t->expect);
    t->nallowed = mf_xcalloc((size_t)(len + 1), sizeof *t->nallowed);
    t->allowed = mf_xcalloc((size_t)(len + 1), sizeof *t->allowed);
    t->mrefuses = -1;
    return t;
}

mf_test *mf_test_copy(const mf_test *t)
{
    mf_test *c = mf_test_new(t->nslots, t->nobs, t->length);
    memcpy(c->inputs, t->inputs,
           sizeof *c->inputs * (size_t)(t->length + 1) * (size_t)t->nslots);
    memcpy(c->expect, t->expect,
           sizeof *c->expect * (size_t)(t->length + 1) * (size_t)t->nobs);
    c->mundef = t->mundef;
    c->mundef_item = t->mundef_item;
    return c;
}

void mf_test_free(mf_test *t)
{
    if (!t)
        return;
    free(t->inputs);
    free(t->expect);
    free(t->mobs);
    if (t->allowed)
        for (int k = 0; k <= t->length; k++)
            free(t->allowed[k]);
    free(t->allowed);
    free(t->nallowed);
    free(t);
}

void mf_verdict_clear(mf_verdict *v)
{
    mf_test_free(v->test);
    memset(v, 0, sizeof *v);
}

void mf_test_print_inputs(mf_buf *b, const mf_model *m, const mf_test *t,
                          int k)
{
    mf_print_inputs(b, m, t->inputs + (size_t)k * (size_t)t->nslots, k == 0);
}

void mf_test_print(mf_buf *b, const mf_model *m, const mf_test *t)
{
    for (int k = 0; k <= t->length; k++) {
        size_t at = b->len;
        if (k == 0)
            mf_buf_puts(b, "init: ");
        size_t from = b->len;
        mf_test_print_inputs(b, m, t, k);
        if (b->len == from) {
            if (k == 0) { /* no input VARs: drop "init: " */
                b->len = at;
                b->data[at] = '\0';
            }
            mf_buf_puts(b, k == 0 ? "# initial state" : "-");
        }
        mf_buf_puts(b, "    # expect ");
        mf_print_obs(b, m, t->expect + (size_t)k * (size_t)t->nobs);
        if (t->nallowed && t->nallowed[k] > 1) {
            mf_buf_puts(b, "; allowed");
            for (int a = 0; a < t->nallowed[k]; a++) {
                mf_buf_puts(b, a ? " | " : " ");
                mf_print_obs(b, m, t->allowed[k] + (size_t)a * (size_t)t->nobs);
            }
        }
        if (k == t->length && (t->mundef > 0 || t->mundef_item > 0)) {
            mf_buf_puts(b, "; the mutant's ");
            if (t->mundef > 0)
                mf_buf_puts(b, m->items[m->obs_defines[t->mundef - 1]].name);
            else
                mf_print_item_target(b, m, &m->items[t->mundef_item - 1]);
            mf_buf_puts(b, " is undefined here (no case branch applies)");
        }
        mf_buf_puts(b, "\n");
    }
}

const char *mf_verdict_name(mf_verdict_kind k)
{
    static const char *n[] = {"killed", "equivalent", "survived", "unknown",
                              "error"};
    return (unsigned)k < 5 ? n[k] : "?";
}

const char *mf_notion_name(mf_notion n)
{
    static const char *s[] = {"deterministic", "potential", "definite"};
    return (unsigned)n < 3 ? s[n] : "?";
}
