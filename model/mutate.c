/* mutate.c - mutants of a model in any language (mutate.h): the generic
 * calls dispatched to the model's language (lang.h), the operator names and
 * lists of a language, and what needs no language: a mutant found by its
 * id, copied, applied. The operators are the languages' (smv/mutate.c). */
#include "lang.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- operators of a language */

const char *mf_lang_op_name(const mf_lang *l, int op)
{
    if (!l || op < 0 || op >= l->nops)
        return "?";
    return l->op_names[op];
}

int mf_lang_op_find(const mf_lang *l, const char *name)
{
    for (int i = 0; i < l->nops; i++)
        if (strcmp(name, l->op_names[i]) == 0)
            return i;
    return -1;
}

int mf_lang_ops_parse(const mf_lang *l, unsigned *mask, const char *list)
{
    unsigned m = 0;
    const char *p = list;
    *mask = 0;
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *s = p;
        while (*p && *p != ',' && !isspace((unsigned char)*p))
            p++;
        char name[64];
        size_t n = (size_t)(p - s);
        if (n >= sizeof(name))
            n = sizeof(name) - 1;
        memcpy(name, s, n);
        name[n] = '\0';
        if (strcmp(name, "all") == 0) {
            m |= l->nops >= 32 ? ~0u : (1u << l->nops) - 1;
            continue;
        }
        int op = mf_lang_op_find(l, name);
        if (op < 0) {
            mf_buf known = {0};
            for (int i = 0; i < l->nops; i++)
                mf_buf_printf(&known, "%s%s", i ? " " : "", l->op_names[i]);
            int rc = mf_err_set(MF_ERROR,
                                "unknown mutation operator '%s' (known: %s)",
                                name, known.data);
            mf_buf_free(&known);
            return rc;
        }
        m |= 1u << op;
    }
    if (m == 0)
        return mf_err_set(MF_ERROR, "empty list of mutation operators");
    *mask = m;
    return 0;
}

/* ---- dispatch to the model's language */

const char *mf_mutant_op_name(const mf_model *m, int op)
{
    return mf_lang_op_name(m->lang, op);
}

int mf_mutant_nops(const mf_model *m)
{
    return m->lang ? m->lang->nops : 0;
}

int mf_mutant_ops_parse(const mf_model *m, unsigned *mask, const char *list)
{
    return mf_lang_ops_parse(m->lang, mask, list);
}

int mf_mutants_each(const mf_model *m, unsigned mask, mf_mutant_fn fn,
                    void *ctx)
{
    return m->lang->mutants(m, mask, NULL, fn, ctx);
}

int mf_mutants_pick(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                    mf_mutant_fn fn, void *ctx)
{
    return m->lang->mutants(m, mask, pick, fn, ctx);
}

void mf_mutant_print(mf_buf *out, const mf_model *m, const mf_mutant *mu)
{
    m->lang->mutant_print(out, m, mu);
}

/* ---- find, apply */

typedef struct {
    const char *prefix;
    size_t plen;
    mf_mutant *found;
    int nfound;
} find_ctx;

static const char *dup_str(mf_arena *a, const char *s)
{
    return s ? mf_arena_strdup(a, s) : NULL;
}

static int find_pick(const char *id, void *vctx)
{
    const find_ctx *f = vctx;
    return strncmp(id, f->prefix, f->plen) == 0;
}

static int find_cb(const mf_mutant *mu, void *vctx)
{
    find_ctx *f = vctx;
    if (strncmp(mu->id, f->prefix, f->plen) != 0)
        return 0;
    if (++f->nfound > 1)
        return 1;
    mf_mutant *c = mf_xcalloc(1, sizeof(*c));
    *c = *mu;
    c->arena = mf_arena_new();
    c->site = dup_str(c->arena, mu->site);
    c->repl = dup_str(c->arena, mu->repl);
    c->desc = dup_str(c->arena, mu->desc);
    c->dup_of = dup_str(c->arena, mu->dup_of);
    c->why = dup_str(c->arena, mu->why);
    if (mu->new_item) {
        mf_item *it = mf_arena_alloc(c->arena, sizeof(*it));
        *it = *mu->new_item;
        it->e = mf_expr_copy(c->arena, mu->new_item->e);
        c->new_item = it;
    }
    f->found = c;
    return 0;
}

int mf_mutant_find(mf_mutant **out, const mf_model *m, const char *prefix)
{
    *out = NULL;
    size_t n = strlen(prefix);
    int ok = n >= 4 && n <= 16;
    char low[17] = {0};
    for (size_t i = 0; ok && i < n; i++) {
        if (!isxdigit((unsigned char)prefix[i]))
            ok = 0;
        else
            low[i] = (char)tolower((unsigned char)prefix[i]);
    }
    if (!ok)
        return mf_err_set(MF_ENOTFOUND,
                          "'%s' is not a mutant id (4 to 16 hex digits)",
                          prefix);
    find_ctx f = {low, n, NULL, 0};
    mf_mutants_pick(m, 0, find_pick, find_cb, &f);
    if (f.nfound > 1) {
        mf_mutant_free(f.found);
        return mf_err_set(MF_EAMBIGUOUS, "mutant id prefix '%s' is ambiguous",
                          prefix);
    }
    if (!f.found)
        return mf_err_set(MF_ENOTFOUND, "no mutant %s in %s", prefix,
                          m->file ? m->file : "the model");
    *out = f.found;
    return 0;
}

void mf_mutant_free(mf_mutant *mu)
{
    if (!mu)
        return;
    mf_arena_free(mu->arena);
    free(mu);
}

int mf_mutant_apply(mf_model **out, const mf_model *m, const mf_mutant *mu)
{
    if (mu->item < 0 || mu->item >= m->nitems)
        return mf_err_set(MF_EUNSUPPORTED,
                          "%s: mutant %s changes no item of the common "
                          "model (a %s mutant: its language applies it)",
                          m->file, mu->id, m->lang ? m->lang->name : "?");
    return mf_model_replace_item(out, m, mu->item, mu->new_item);
}
