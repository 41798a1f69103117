/* mutate.c - what makes a timed mutant a mutant, whatever its operator:
 * its site and the canonical texts of items, its stable id (mf_mutant_id
 * of its operator, site and replacement), and its status: a duplicate
 * (the same changed item as the original or an earlier mutant) or
 * stillborn (a change the format cannot express, known from the item
 * alone), as for SMV; the enumeration's context that carries it to the
 * caller. The operators are mutate_ops.c's, the enumeration mutants.c's,
 * applying and printing a mutant mutant_apply.c's and mutant_print.c's. */
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

ta_mut_ctx *ta_mut_ctx_new(const ta_net *n, unsigned mask, ta_mutant_fn fn,
                           void *ctx)
{
    ta_mut_ctx *c = mf_xcalloc(1, sizeof(*c));
    c->n = n;
    c->mask = mask ? mask : ~0u;
    c->fn = fn;
    c->ctx = ctx;
    c->a = mf_arena_new();
    return c;
}

int ta_mut_ctx_free(ta_mut_ctx *c)
{
    int rc = c->stop;
    mf_arena_free(c->a);
    free(c->dups.v);
    mf_buf_free(&c->site);
    mf_buf_free(&c->repl);
    mf_buf_free(&c->desc);
    mf_buf_free(&c->key);
    mf_buf_free(&c->orig);
    free(c);
    return rc;
}

int ta_mut_stopped(const ta_mut_ctx *c) { return c->stop; }
