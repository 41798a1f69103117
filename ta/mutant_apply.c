/* mutant_apply.c - a mutant made real (ta_mutant_apply): the raw model
 * copied with the mutated template item's labels printed back as text,
 * then built as the reader builds a model, with the original's inputs,
 * outputs and environment kept (a mutant is compared on the original's
 * interface). The mutant's network is thus exactly what reading its
 * printed file gives. */
#include "ta_mut.h"

#include <stdio.h>
#include <string.h>

static const char *sdup(mf_arena *a, const char *s)
{
    return s ? mf_arena_strdup(a, s) : NULL;
}

static ta_text tdup(mf_arena *a, ta_text t)
{
    t.text = sdup(a, t.text);
    t.pos.file = sdup(a, t.pos.file);
    return t;
}

static ta_raw_tmpl tmpl_copy(mf_arena *a, const ta_raw_tmpl *s, int extra)
{
    ta_raw_tmpl t = *s;
    t.name = sdup(a, s->name);
    t.params = tdup(a, s->params);
    t.decls = tdup(a, s->decls);
    t.init = sdup(a, s->init);
    t.pos.file = sdup(a, s->pos.file);
    t.locs = mf_arena_alloc(a, (size_t)(s->nlocs + 1) * sizeof(ta_raw_loc));
    for (int i = 0; i < s->nlocs; i++) {
        ta_raw_loc *l = &t.locs[i];
        *l = s->locs[i];
        l->id = sdup(a, l->id);
        l->name = sdup(a, l->name);
        l->inv = tdup(a, l->inv);
        l->pos.file = sdup(a, l->pos.file);
    }
    t.edges = mf_arena_alloc(a, (size_t)(s->nedges + extra + 1) *
                                    sizeof(ta_raw_edge));
    for (int k = 0; k < s->nedges; k++) {
        ta_raw_edge *e = &t.edges[k];
        *e = s->edges[k];
        e->src = sdup(a, e->src);
        e->dst = sdup(a, e->dst);
        e->select = tdup(a, e->select);
        e->guard = tdup(a, e->guard);
        e->sync = tdup(a, e->sync);
        e->update = tdup(a, e->update);
        e->pos.file = sdup(a, e->pos.file);
    }
    return t;
}

/* A label's text: the original's when the expression is unchanged (its
 * layout kept), else the new expression printed. */
static void relabel(mf_arena *a, ta_text *t, const ta_expr *old,
                    const ta_expr *now)
{
    if (ta_expr_equal(old, now))
        return;
    mf_buf b = {0};
    if (now)
        ta_print_expr(&b, now);
    t->text = mf_arena_strdup(a, b.data ? b.data : "");
    mf_buf_free(&b);
}

static void edge_texts(mf_arena *a, const ta_tmpl *t, const ta_edge *old,
                       const ta_edge *now, ta_raw_edge *re)
{
    mf_buf b = {0};
    if (!old && now->nsel) {
        for (int i = 0; i < now->nsel; i++)
            mf_buf_printf(&b, "%s%s : int[%lld,%lld]", i ? ", " : "",
                          now->sel[i].name, (long long)now->sel[i].lo,
                          (long long)now->sel[i].hi);
        re->select.text = mf_arena_strdup(a, b.data);
        mf_buf_reset(&b);
    }
    re->src = mf_arena_strdup(a, t->locs[now->src].id);
    re->dst = mf_arena_strdup(a, t->locs[now->dst].id);
    relabel(a, &re->guard, old ? old->guard : NULL, now->guard);
    if (!old || old->sync.dir != now->sync.dir ||
        !ta_expr_equal(old->sync.e, now->sync.e)) {
        ta_print_sync(&b, &now->sync);
        re->sync.text = mf_arena_strdup(a, b.data ? b.data : "");
        mf_buf_reset(&b);
    }
    int same = old && old->nupd == now->nupd;
    for (int i = 0; same && i < now->nupd; i++)
        same = ta_expr_equal(old->upd[i], now->upd[i]);
    if (!same) {
        ta_print_updates(&b, now);
        re->update.text = mf_arena_strdup(a, b.data ? b.data : "");
    }
    mf_buf_free(&b);
}

ta_raw *ta_raw_mutate(mf_arena *a, const ta_net *n, const ta_mutant *mu)
{
    const ta_raw *src = n->priv;
    ta_raw *r = mf_arena_alloc(a, sizeof(*r));
    *r = *src;
    r->globals = tdup(a, src->globals);
    r->system = tdup(a, src->system);
    r->instance = sdup(a, src->instance);
    r->src = src->src ? mf_arena_strndup(a, src->src, src->srclen) : NULL;
    r->src_path = sdup(a, src->src_path);
    r->tmpls = mf_arena_alloc(a, (size_t)(src->ntmpls + 1) *
                                     sizeof(ta_raw_tmpl));
    for (int i = 0; i < src->ntmpls; i++)
        r->tmpls[i] = tmpl_copy(a, &src->tmpls[i], i == mu->tmpl);
    ta_raw_tmpl *rt = &r->tmpls[mu->tmpl];
    const ta_tmpl *t = &n->tmpls[mu->tmpl];
    switch (mu->kind) {
    case TA_MK_EDGE:
        edge_texts(a, t, &t->edges[mu->item], mu->new_edge,
                   &rt->edges[mu->item]);
        break;
    case TA_MK_EDGE_ADD: {
        ta_raw_edge *re = &rt->edges[rt->nedges++];
        memset(re, 0, sizeof(*re));
        re->pos = mu->pos;
        re->guard.pos = re->sync.pos = re->update.pos = re->select.pos = mu->pos;
        edge_texts(a, t, NULL, mu->new_edge, re);
        break;
    }
    case TA_MK_EDGE_DEL:
        memmove(&rt->edges[mu->item], &rt->edges[mu->item + 1],
                (size_t)(rt->nedges - mu->item - 1) * sizeof(ta_raw_edge));
        rt->nedges--;
        break;
    case TA_MK_LOC:
        relabel(a, &rt->locs[mu->item].inv, t->locs[mu->item].inv,
                mu->new_loc->inv);
        break;
    case TA_MK_LOC_DEL: {
        const char *id = rt->locs[mu->item].id;
        int k = 0;
        rt->locs[mu->item].removed = 1;
        for (int j = 0; j < rt->nedges; j++)
            if (strcmp(rt->edges[j].src, id) && strcmp(rt->edges[j].dst, id))
                rt->edges[k++] = rt->edges[j];
        rt->nedges = k;
        break;
    }
    }
    r->roles_from = n;
    return r;
}

int ta_mutant_apply(ta_net **out, const ta_net *n, const ta_mutant *mu)
{
    *out = NULL;
    if (!n->priv || mu->tmpl < 0 || mu->tmpl >= n->ntmpls)
        return mf_err_set(MF_ERROR, "%s: mutant %s is not of this network",
                          n->file, mu->id);
    mf_arena *a = mf_arena_new();
    ta_raw *r = ta_raw_mutate(a, n, mu);
    int rc = ta_build(out, a, n->file, r, NULL);
    if (rc) {
        char why[512];
        snprintf(why, sizeof(why), "%s", mf_err_msg());
        mf_arena_free(a);
        return mf_err_set(rc, "mutant %s (%s) is stillborn: %s", mu->id,
                          ta_op_names[mu->op], why);
    }
    (*out)->priv = r;
    return 0;
}
