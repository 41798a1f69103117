/* tae_compose.c - a network's processes as one automaton (tae_compose.h):
 * location tuples found breadth-first, each tuple's moves made from the
 * processes' edges (a move's guard the conjunction of its edges', its
 * updates the sender's then the receivers' in process order, as UPPAAL
 * orders them). */
#include "tae_compose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    tae_aut *a;
    tae_aut **p;
    int k;
    const tae_compose_opts *o;
    MF_VEC(int) tup; /* k per location */
    int *tab, tabn;  /* open addressing: location + 1 */
    MF_VEC(tae_edge) edges;
    int *cur;        /* the move being made: part -> edge or -1 */
    tae_ix *extra;   /* and this integer condition (processes that do not
                      * receive a broadcast: none of their edges enabled) */
} cmp;

static uint64_t th(const int *t, int k)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < k; i++)
        h = (h ^ (uint64_t)t[i]) * 1099511628211ull;
    return h;
}

static void grow(cmp *C)
{
    int n = C->tabn * 2;
    int *t = mf_xcalloc((size_t)n, sizeof *t);
    for (int i = 0; i < C->tabn; i++)
        if (C->tab[i]) {
            int l = C->tab[i] - 1;
            uint64_t h = th(&C->tup.v[l * C->k], C->k) % (uint64_t)n;
            while (t[h])
                h = (h + 1) % (uint64_t)n;
            t[h] = l + 1;
        }
    free(C->tab);
    C->tab = t;
    C->tabn = n;
}

/* The location of tuple t, added when new; -1 over the limit. */
static int loc_of(cmp *C, const int *t)
{
    int nl = C->tup.n / C->k;
    if (2 * (nl + 1) > C->tabn)
        grow(C);
    uint64_t h = th(t, C->k) % (uint64_t)C->tabn;
    while (C->tab[h]) {
        int l = C->tab[h] - 1;
        if (!memcmp(&C->tup.v[l * C->k], t, (size_t)C->k * sizeof *t))
            return l;
        h = (h + 1) % (uint64_t)C->tabn;
    }
    if (nl >= C->o->max_locs)
        return -1;
    for (int i = 0; i < C->k; i++)
        MF_VEC_PUSH(C->tup, t[i]);
    C->tab[h] = nl + 1;
    return nl;
}

static tae_ix *and_ix(mf_arena *a, tae_ix *x, tae_ix *y)
{
    if (!x)
        return y;
    if (!y)
        return x;
    tae_ix *r = mf_arena_alloc(a, sizeof *r);
    r->op = TAE_X_AND;
    r->a = x;
    r->b = y;
    return r;
}

/* The move C->cur from location l, sender first; -1 over the limit. */
static int emit(cmp *C, int l, int first, int chan, int dir)
{
    mf_arena *A = C->a->a;
    int committed = 0, anyc = 0, *dst = mf_xcalloc((size_t)C->k, sizeof *dst);
    tae_edge E = {0};
    int ng = 0, nr = 0, na = 0;
    for (int i = 0; i < C->k; i++) {
        int li = C->tup.v[l * C->k + i];
        anyc |= C->p[i]->locs[li].committed;
        dst[i] = li;
        if (C->cur[i] < 0)
            continue;
        const tae_edge *e = &C->p[i]->edges[C->cur[i]];
        committed |= C->p[i]->locs[li].committed;
        dst[i] = e->dst;
        ng += e->guard.n;
        nr += e->nresets;
        na += e->nasg;
    }
    if (anyc && !committed) {
        free(dst);
        return 0;
    }
    E.src = l;
    E.chan = chan;
    E.dir = dir;
    E.iguard = C->extra;
    E.guard.v = mf_arena_alloc(A, (size_t)(ng + 1) * sizeof *E.guard.v);
    E.resets = mf_arena_alloc(A, (size_t)(nr + 1) * sizeof *E.resets);
    E.reset_to = mf_arena_alloc(A, (size_t)(nr + 1) * sizeof *E.reset_to);
    E.asg = mf_arena_alloc(A, (size_t)(na + 1) * sizeof *E.asg);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < C->k; i++) {
            if (C->cur[i] < 0 || (pass == 0) != (i == first))
                continue;
            const tae_edge *e = &C->p[i]->edges[C->cur[i]];
            if (!E.line)
                E.line = e->line;
            E.iguard = and_ix(A, E.iguard, e->iguard);
            E.urgent |= e->urgent;
            for (int g = 0; g < e->guard.n; g++)
                E.guard.v[E.guard.n++] = e->guard.v[g];
            for (int r = 0; r < e->nresets; r++) {
                E.resets[E.nresets] = e->resets[r];
                E.reset_to[E.nresets++] = e->reset_to[r];
            }
            for (int g = 0; g < e->nasg; g++)
                E.asg[E.nasg++] = e->asg[g];
        }
    E.dst = loc_of(C, dst);
    free(dst);
    if (E.dst < 0)
        return -1;
    MF_VEC_PUSH(C->edges, E);
    return 0;
}

/* Receiving edges of every process but `skip` on chan at l, one per
 * process that has some, in every combination; -1 over the limit. */
static int bcast_combos(cmp *C, int l, int from, int skip, int first,
                        int chan, int dir)
{
    if (from == C->k)
        return emit(C, l, first, chan, dir);
    if (from == skip)
        return bcast_combos(C, l, from + 1, skip, first, chan, dir);
    const tae_aut *p = C->p[from];
    int rc = 0, always = 0;
    tae_ix *none = NULL; /* none of its receiving edges is enabled */
    for (int f = p->first[C->tup.v[l * C->k + from]]; f >= 0 && rc == 0;
         f = p->next[f]) {
        const tae_edge *e = &p->edges[f];
        if (e->sync != TAE_RECV || e->chan != chan)
            continue;
        C->cur[from] = f;
        rc = bcast_combos(C, l, from + 1, skip, first, chan, dir);
        C->cur[from] = -1;
        if (!e->iguard) {
            always = 1;
            continue;
        }
        tae_ix *n = mf_arena_alloc(C->a->a, sizeof *n);
        n->op = TAE_X_NOT;
        n->a = e->iguard;
        none = and_ix(C->a->a, none, n);
    }
    /* without it: where none of its edges can receive (guards on
     * integers only, guarded_recv made sure) */
    if (rc == 0 && !always) {
        tae_ix *keep = C->extra;
        C->extra = and_ix(C->a->a, C->extra, none);
        rc = bcast_combos(C, l, from + 1, skip, first, chan, dir);
        C->extra = keep;
    }
    return rc;
}

/* Does a process other than skip receive chan under a clock guard (1),
 * and how many processes receive it at all (*nrecv)? */
static int guarded_recv(cmp *C, int chan, int skip, int *nrecv)
{
    int g = 0;
    *nrecv = 0;
    for (int i = 0; i < C->k; i++) {
        int any = 0;
        for (int e = 0; e < C->p[i]->nedges; e++) {
            const tae_edge *E = &C->p[i]->edges[e];
            if (E->sync != TAE_RECV || E->chan != chan)
                continue;
            any = 1;
            if (i != skip && E->guard.n)
                g = 1;
        }
        *nrecv += any;
    }
    return g;
}

static int moves(cmp *C, int l)
{
    int rc = 0;
    for (int i = 0; i < C->k && rc == 0; i++) {
        const tae_aut *p = C->p[i];
        for (int e = p->first[C->tup.v[l * C->k + i]]; e >= 0 && rc == 0;
             e = p->next[e]) {
            const tae_edge *E = &p->edges[e];
            int c = E->chan, dir = c >= 0 ? C->a->chan_dir[c] : TAE_TAU;
            C->cur[i] = e;
            if (E->sync == 0) {
                if (i >= 64 || E->src >= 4096 || E->dst >= 4096)
                    rc = mf_err_set(MF_ELIMIT, "unsupported: internal moves "
                                    "of this many processes or locations");
                else
                    rc = emit(C, l, i, -2 - ((i * 4096 + E->src) * 4096 +
                                            E->dst), TAE_TAU);
            } else if (C->o->bcast[c]) {
                int nrecv = 0;
                int g = guarded_recv(C, c, E->sync == TAE_SEND ? i : -1,
                                     &nrecv);
                /* a broadcast of the tester into one process is one of
                 * its inputs; otherwise who receives must not depend on
                 * guards (the move without them needs their negation) */
                if (E->sync == TAE_RECV && nrecv <= 1) {
                    if (C->o->tester_sends[c])
                        rc = emit(C, l, i, c, dir);
                } else if (g)
                    rc = mf_err_set(MF_EUNSUPPORTED, "unsupported: a "
                                    "broadcast received under a clock guard "
                                    "by one of several processes");
                else if (E->sync == TAE_SEND)
                    rc = bcast_combos(C, l, 0, i, i, c, dir);
                else if (C->o->tester_sends[c]) {
                    /* the tester's broadcast, made once: from the first
                     * process that receives it here */
                    int lowest = 1;
                    for (int j = 0; j < i && lowest; j++)
                        for (int f = C->p[j]->first[C->tup.v[l * C->k + j]];
                             f >= 0; f = C->p[j]->next[f])
                            if (C->p[j]->edges[f].sync == TAE_RECV &&
                                C->p[j]->edges[f].chan == c)
                                lowest = 0;
                    if (lowest)
                        rc = bcast_combos(C, l, i + 1, -1, i, c, dir);
                }
            } else if (E->sync == TAE_SEND) {
                for (int j = 0; j < C->k && rc == 0; j++) {
                    if (j == i)
                        continue;
                    const tae_aut *q = C->p[j];
                    for (int f = q->first[C->tup.v[l * C->k + j]];
                         f >= 0 && rc == 0; f = q->next[f]) {
                        if (q->edges[f].sync != TAE_RECV ||
                            q->edges[f].chan != c)
                            continue;
                        C->cur[j] = f;
                        rc = emit(C, l, i, c, dir);
                        C->cur[j] = -1;
                    }
                }
                if (rc == 0 && C->o->tester_receives[c])
                    rc = emit(C, l, i, c, dir);
            } else if (C->o->tester_sends[c]) {
                rc = emit(C, l, i, c, dir);
            }
            C->cur[i] = -1;
        }
    }
    if (rc == -1)
        rc = mf_err_set(MF_ELIMIT, "unsupported: over %d locations in the "
                        "product of the processes", C->o->max_locs);
    return rc;
}

static void make_locs(cmp *C)
{
    tae_aut *a = C->a;
    int nl = C->tup.n / C->k;
    a->nlocs = nl;
    a->locs = mf_arena_alloc(a->a, (size_t)(nl + 1) * sizeof *a->locs);
    for (int l = 0; l < nl; l++) {
        mf_buf b = {0};
        int ni = 0;
        for (int i = 0; i < C->k; i++)
            ni += C->p[i]->locs[C->tup.v[l * C->k + i]].inv.n;
        tae_loc *L = &a->locs[l];
        L->inv.v = mf_arena_alloc(a->a, (size_t)(ni + 1) * sizeof *L->inv.v);
        for (int i = 0; i < C->k; i++) {
            const tae_loc *q = &C->p[i]->locs[C->tup.v[l * C->k + i]];
            mf_buf_printf(&b, "%s%s", i ? "," : "", q->name ? q->name : "?");
            for (int g = 0; g < q->inv.n; g++)
                L->inv.v[L->inv.n++] = q->inv.v[g];
            L->urgent |= q->urgent;
            L->iinv = and_ix(a->a, L->iinv, q->iinv);
            L->committed |= q->committed;
        }
        L->name = mf_arena_strdup(a->a, b.data);
        mf_buf_free(&b);
    }
}

int tae_compose(tae_aut **out, tae_aut **parts, int k,
                const tae_compose_opts *o)
{
    cmp C = {0};
    int rc = 0;
    *out = NULL;
    C.a = tae_aut_new(parts[0]->name);
    C.a->parts = mf_arena_alloc(C.a->a, (size_t)k * sizeof *parts);
    memcpy(C.a->parts, parts, (size_t)k * sizeof *parts);
    C.a->nparts = k;
    C.p = parts;
    C.k = k;
    C.o = o;
    C.tabn = 64;
    C.tab = mf_xcalloc((size_t)C.tabn, sizeof *C.tab);
    C.cur = mf_xcalloc((size_t)k, sizeof *C.cur);
    for (int i = 0; i < k; i++)
        C.cur[i] = -1;
    tae_aut *a = C.a, *p0 = parts[0];
    a->nclocks = p0->nclocks;
    a->clocks = p0->clocks;
    a->nints = p0->nints;
    a->ints = p0->ints;
    a->nchans = p0->nchans;
    a->chans = p0->chans;
    a->chan_dir = p0->chan_dir;
    int *t0 = mf_xcalloc((size_t)k, sizeof *t0);
    for (int i = 0; i < k; i++)
        t0[i] = parts[i]->init;
    a->init = loc_of(&C, t0);
    free(t0);
    for (int l = 0; l < C.tup.n / k && rc == 0; l++)
        rc = moves(&C, l);
    if (rc == 0) {
        make_locs(&C);
        a->nedges = C.edges.n;
        a->edges =
            mf_arena_alloc(a->a, (size_t)(C.edges.n + 1) * sizeof *a->edges);
        if (C.edges.n)
            memcpy(a->edges, C.edges.v,
                   (size_t)C.edges.n * sizeof *a->edges);
        tae_aut_finish(a);
        *out = a;
    } else {
        tae_aut_free(a);
    }
    MF_VEC_FREE(C.tup);
    MF_VEC_FREE(C.edges);
    free(C.tab);
    free(C.cur);
    return rc;
}
