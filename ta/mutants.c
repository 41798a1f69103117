/* mutants.c - the mutants of a timed network, all or one: the operators
 * of mutate_ops.c run over every mutated template in a fixed order
 * (ta_mutants_each), and a mutant found by its id and copied
 * (ta_mutant_find). */
#include "ta_mut.h"

#include <stdlib.h>
#include <string.h>

/* Is template t mutated: some process of the system instantiates it? */
static int mutated(const ta_net *n, int t)
{
    for (int p = 0; p < n->nprocs; p++)
        if (n->procs[p].tmpl == t && !n->procs[p].is_env)
            return 1;
    return 0;
}

int ta_mutants_each(const ta_net *n, unsigned mask, ta_mutant_fn fn,
                    void *ctx)
{
    ta_mut_ctx *c = ta_mut_ctx_new(n, mask, fn, ctx);
    /* every operator runs, wanted or not, so that duplicates are found
     * among all mutants and ids do not depend on the mask */
    for (int t = 0; t < n->ntmpls && !ta_mut_stopped(c); t++) {
        if (!mutated(n, t))
            continue;
        for (int op = 0; op < TA_MOP__COUNT && !ta_mut_stopped(c); op++)
            ta_mut_op(c, t, op);
    }
    return ta_mut_ctx_free(c);
}

/* ---- finding one ---------------------------------------------------------------- */

typedef struct {
    const char *prefix;
    size_t plen;
    ta_mutant *found;
    int nfound;
} find_ctx;

static const char *dup_str(mf_arena *a, const char *s)
{
    return s ? mf_arena_strdup(a, s) : NULL;
}

static ta_edge *edge_copy(mf_arena *a, const ta_edge *e)
{
    ta_edge *c = mf_arena_alloc(a, sizeof(*c));
    *c = *e;
    c->guard = ta_expr_copy(a, e->guard);
    c->sync.e = ta_expr_copy(a, e->sync.e);
    c->sync.index = ta_expr_copy(a, e->sync.index);
    c->sel = mf_arena_alloc(a, (size_t)(e->nsel + 1) * sizeof(ta_select));
    if (e->nsel)
        memcpy(c->sel, e->sel, (size_t)e->nsel * sizeof(ta_select));
    for (int i = 0; i < e->nsel; i++)
        c->sel[i].name = dup_str(a, e->sel[i].name);
    c->upd = mf_arena_alloc(a, (size_t)(e->nupd + 1) * sizeof(ta_expr *));
    for (int i = 0; i < e->nupd; i++)
        c->upd[i] = ta_expr_copy(a, e->upd[i]);
    c->cc = NULL; /* the split is the builder's: not kept in a copy */
    c->ncc = 0;
    c->guard_data = NULL;
    return c;
}

static int find_fn(const ta_mutant *mu, void *v)
{
    find_ctx *f = v;
    if (strncmp(mu->id, f->prefix, f->plen))
        return 0;
    if (++f->nfound > 1)
        return 1;
    ta_mutant *c = mf_xcalloc(1, sizeof(*c));
    *c = *mu;
    c->arena = mf_arena_new();
    c->site = dup_str(c->arena, mu->site);
    c->repl = dup_str(c->arena, mu->repl);
    c->desc = dup_str(c->arena, mu->desc);
    c->dup_of = dup_str(c->arena, mu->dup_of);
    c->why = dup_str(c->arena, mu->why);
    if (mu->new_edge)
        c->new_edge = edge_copy(c->arena, mu->new_edge);
    if (mu->new_loc) {
        ta_loc *l = mf_arena_alloc(c->arena, sizeof(*l));
        *l = *mu->new_loc;
        l->inv = ta_expr_copy(c->arena, mu->new_loc->inv);
        l->cc = NULL;
        l->ncc = 0;
        l->inv_data = NULL;
        c->new_loc = l;
    }
    f->found = c;
    return 0;
}

int ta_mutant_find(ta_mutant **out, const ta_net *n, const char *prefix)
{
    *out = NULL;
    size_t plen = strlen(prefix);
    if (plen < 4 || plen > 16 || strspn(prefix, "0123456789abcdef") != plen)
        return mf_err_set(MF_ENOTFOUND, "'%s' is not a mutant id (4 to 16 "
                          "lowercase hex digits)", prefix);
    find_ctx f = {prefix, plen, NULL, 0};
    ta_mutants_each(n, 0, find_fn, &f);
    if (f.nfound > 1) {
        ta_mutant_free(f.found);
        return mf_err_set(MF_EAMBIGUOUS, "mutant id prefix '%s' is ambiguous",
                          prefix);
    }
    if (!f.found)
        return mf_err_set(MF_ENOTFOUND, "no mutant %s", prefix);
    *out = f.found;
    return 0;
}

void ta_mutant_free(ta_mutant *mu)
{
    if (!mu)
        return;
    mf_arena_free(mu->arena);
    free(mu);
}
