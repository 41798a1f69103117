/* mutate.c - the mutants of a timed network (ta_mutants_each): the
 * paper's TMI, TAD, SMI, CXL, CXS and CCN and the common timed-automata
 * operators (docs/timed.md, "Operators"), each a change of one item of a
 * template that some process of the system instantiates (environment
 * templates are not mutated). Every mutant has its stable id
 * (mf_mutant_id of its operator, site and replacement), and is classified
 * as a duplicate (the same changed item as the original or an earlier
 * mutant) or stillborn (a change the format cannot express, known from
 * the item alone) as for SMV. The operators' item changes are in
 * mutate_ops.c; applying and printing a mutant in mutant_apply.c and
 * mutant_print.c. */
#include "ta_mut.h"

#include "lang.h"

#include <stdlib.h>
#include <string.h>

/* ---- sites and keys --------------------------------------------------------- */

const char *ta_loc_label(const ta_tmpl *t, int i)
{
    const ta_loc *l = &t->locs[i];
    return l->name && *l->name ? l->name : l->id;
}

void ta_edge_site(mf_buf *b, const ta_tmpl *t, int k)
{
    const ta_edge *e = &t->edges[k];
    int nth = 0;
    for (int j = 0; j < k; j++)
        nth += t->edges[j].src == e->src && t->edges[j].dst == e->dst;
    mf_buf_printf(b, "%s/edge %s->%s#%d", t->name, ta_loc_label(t, e->src),
                  ta_loc_label(t, e->dst), nth);
}

void ta_print_sync(mf_buf *b, const ta_sync *s)
{
    if (s->dir == TA_SYNC_NONE)
        return;
    ta_print_expr(b, s->e);
    mf_buf_puts(b, s->dir == TA_SYNC_SEND ? "!" : "?");
}

void ta_print_updates(mf_buf *b, const ta_edge *e)
{
    for (int i = 0; i < e->nupd; i++) {
        if (i)
            mf_buf_puts(b, ", ");
        ta_print_expr(b, e->upd[i]);
    }
}

/* An edge as one canonical line: what makes two edges the same. */
void ta_print_edge_item(mf_buf *b, const ta_tmpl *t, const ta_edge *e)
{
    mf_buf_printf(b, "%s -> %s", ta_loc_label(t, e->src),
                  ta_loc_label(t, e->dst));
    for (int i = 0; i < e->nsel; i++)
        mf_buf_printf(b, "%s%s", i ? ", " : " select ", e->sel[i].name);
    mf_buf_puts(b, " guard ");
    ta_print_expr(b, e->guard);
    mf_buf_puts(b, " sync ");
    ta_print_sync(b, &e->sync);
    mf_buf_puts(b, " do ");
    ta_print_updates(b, e);
}

/* ---- duplicates --------------------------------------------------------------- */

/* The keys of the changed items seen in one enumeration, with the id of
 * the first mutant of each: a sorted array searched by bisection. */
typedef struct {
    char key[65]; /* SHA-256 of the key text */
    char id[17];
} dup_entry;

typedef struct {
    dup_entry *v;
    int n, cap;
} dup_set;

/* The id of an earlier mutant with this key, else NULL (and the key is
 * recorded with id). */
static const char *dup_seen(dup_set *d, const char *text, const char *id)
{
    char key[65];
    mf_sha256_hex(key, text, strlen(text));
    int lo = 0, hi = d->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(d->v[mid].key, key);
        if (c == 0)
            return d->v[mid].id;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        d->v = mf_xrealloc(d->v, (size_t)d->cap * sizeof(dup_entry));
    }
    memmove(&d->v[lo + 1], &d->v[lo], (size_t)(d->n - lo) * sizeof(dup_entry));
    memcpy(d->v[lo].key, key, sizeof(key));
    memcpy(d->v[lo].id, id, 17);
    d->n++;
    return NULL;
}

/* ---- the enumeration ---------------------------------------------------------- */

struct ta_mut_ctx {
    const ta_net *n;
    unsigned mask;
    ta_mutant_fn fn;
    void *ctx;
    dup_set dups;
    mf_arena *a; /* the current mutant's items */
    mf_buf site, repl, desc, key, orig;
    int stop;
};

/* The key text of a mutant's changed item, and the original's when it
 * is the same item unchanged. */
static void item_key(ta_mut_ctx *c, const ta_mutant *mu, mf_buf *key,
                     mf_buf *orig)
{
    const ta_tmpl *t = &c->n->tmpls[mu->tmpl];
    mf_buf_printf(key, "%d/%d/", mu->tmpl, (int)mu->kind);
    switch (mu->kind) {
    case TA_MK_EDGE:
        mf_buf_printf(key, "%d/", mu->item);
        mf_buf_puts(orig, key->data);
        ta_print_edge_item(key, t, mu->new_edge);
        ta_print_edge_item(orig, t, &t->edges[mu->item]);
        break;
    case TA_MK_EDGE_ADD:
        ta_print_edge_item(key, t, mu->new_edge);
        break;
    case TA_MK_LOC:
        mf_buf_printf(key, "%d/", mu->item);
        mf_buf_puts(orig, key->data);
        ta_print_expr(key, mu->new_loc->inv);
        ta_print_expr(orig, t->locs[mu->item].inv);
        break;
    default:
        mf_buf_printf(key, "%d", mu->item);
        break;
    }
}

/* An added edge the same as an existing one changes nothing. */
static int same_as_an_edge(const ta_mut_ctx *c, const ta_mutant *mu)
{
    const ta_tmpl *t = &c->n->tmpls[mu->tmpl];
    mf_buf a = {0}, b = {0};
    ta_print_edge_item(&a, t, mu->new_edge);
    int same = 0;
    for (int k = 0; k < t->nedges && !same; k++) {
        mf_buf_reset(&b);
        ta_print_edge_item(&b, t, &t->edges[k]);
        same = !strcmp(a.data, b.data);
    }
    mf_buf_free(&a);
    mf_buf_free(&b);
    return same;
}

int ta_mut_emit(ta_mut_ctx *c, ta_mutant *mu, const char *why)
{
    if (c->stop)
        return c->stop;
    mu->site = c->site.data ? c->site.data : "";
    mu->repl = c->repl.data ? c->repl.data : "";
    mu->desc = c->desc.data ? c->desc.data : "";
    mf_mutant_id(mu->id, ta_op_names[mu->op], mu->site, mu->repl);
    mf_buf_reset(&c->key);
    mf_buf_reset(&c->orig);
    item_key(c, mu, &c->key, &c->orig);
    const char *twin = dup_seen(&c->dups, c->key.data, mu->id);
    if (c->orig.len && !strcmp(c->key.data, c->orig.data))
        twin = "original";
    else if (!twin && mu->kind == TA_MK_EDGE_ADD && same_as_an_edge(c, mu))
        twin = "original";
    mu->status = TA_MUT_OK;
    if (twin) {
        mu->status = TA_MUT_DUPLICATE;
        mu->dup_of = twin;
    } else if (why) {
        mu->status = TA_MUT_STILLBORN;
        mu->why = why;
    }
    if (!(c->mask & (1u << mu->op)))
        c->stop = 0;
    else
        c->stop = c->fn(mu, c->ctx);
    mf_arena_free(c->a);
    c->a = mf_arena_new();
    mf_buf_reset(&c->site);
    mf_buf_reset(&c->repl);
    mf_buf_reset(&c->desc);
    return c->stop;
}

mf_arena *ta_mut_arena(ta_mut_ctx *c) { return c->a; }
mf_buf *ta_mut_site(ta_mut_ctx *c) { return &c->site; }
mf_buf *ta_mut_repl(ta_mut_ctx *c) { return &c->repl; }
mf_buf *ta_mut_desc(ta_mut_ctx *c) { return &c->desc; }
const ta_net *ta_mut_net(ta_mut_ctx *c) { return c->n; }

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
    ta_mut_ctx c = {0};
    c.n = n;
    c.mask = mask ? mask : ~0u;
    c.fn = fn;
    c.ctx = ctx;
    c.a = mf_arena_new();
    /* every operator runs, wanted or not, so that duplicates are found
     * among all mutants and ids do not depend on the mask */
    for (int t = 0; t < n->ntmpls && !c.stop; t++) {
        if (!mutated(n, t))
            continue;
        for (int op = 0; op < TA_MOP__COUNT && !c.stop; op++)
            ta_mut_op(&c, t, op);
    }
    mf_arena_free(c.a);
    free(c.dups.v);
    mf_buf_free(&c.site);
    mf_buf_free(&c.repl);
    mf_buf_free(&c.desc);
    mf_buf_free(&c.key);
    mf_buf_free(&c.orig);
    return c.stop;
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
