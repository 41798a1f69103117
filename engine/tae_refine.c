/* tae_refine.c - the zone product of a mutant and the original and the
 * search for a deviation in it (tae_refine.h). A symbolic state is both
 * locations, both integer valuations and one DBM over the original's
 * clocks (1..n) and the mutant's (n+1..2n), kept before time elapses
 * there; states at one discrete state whose zone is included in one seen
 * are dropped. When no deviation is reachable the reachable pairs are a
 * refinement relation (every input of the original matched, every output
 * and delay of the mutant matched), so the answer is a proof, also when
 * either automaton is non-deterministic. */
#include "tae_refine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tae_dbm.h"

typedef struct {
    int lo, lm;
    int64_t *vo, *vm; /* the integers of each */
    tae_bound *z;      /* before delay, extrapolated */
    int parent, eo, em;
} sstate;

typedef struct {
    const tae_aut *o, *m;
    int n, d, ni;
    int64_t *maxc;
    MF_VEC(sstate) st;
    int *tab; /* open hashing of discrete states: index+1 of a state */
    int *chain;
    int tabn;
} prod;

static uint64_t dkey(const prod *P, int lo, int lm, const int64_t *vo,
                     const int64_t *vm)
{
    uint64_t h = (uint64_t)lo * 1000003u + (uint64_t)lm;
    for (int i = 0; i < P->ni; i++)
        h = h * 31 + (uint64_t)vo[i] * 7 + (uint64_t)vm[i];
    return h;
}

static int same_disc(const sstate *s, int lo, int lm, const int64_t *vo,
                     const int64_t *vm, int ni)
{
    return s->lo == lo && s->lm == lm &&
           !memcmp(s->vo, vo, (size_t)ni * sizeof *vo) &&
           !memcmp(s->vm, vm, (size_t)ni * sizeof *vm);
}

/* Adds the state unless a state at the same discrete state includes its
 * zone; takes z. */
static void add_state(prod *P, int lo, int lm, const int64_t *vo,
                      const int64_t *vm, tae_bound *z, int parent, int eo,
                      int em)
{
    int b = (int)(dkey(P, lo, lm, vo, vm) % (uint64_t)P->tabn);
    for (int k = P->tab[b]; k; k = P->chain[k - 1]) {
        sstate *s = &P->st.v[k - 1];
        if (same_disc(s, lo, lm, vo, vm, P->ni) && tae_dbm_leq(z, s->z, P->d)) {
            free(z);
            return;
        }
    }
    sstate s = {lo, lm, NULL, NULL, z, parent, eo, em};
    s.vo = mf_xmalloc((size_t)(P->ni + 1) * sizeof *s.vo);
    s.vm = mf_xmalloc((size_t)(P->ni + 1) * sizeof *s.vm);
    memcpy(s.vo, vo, (size_t)P->ni * sizeof *vo);
    memcpy(s.vm, vm, (size_t)P->ni * sizeof *vm);
    MF_VEC_PUSH(P->st, s);
    int idx = P->st.n;
    P->chain = mf_xrealloc(P->chain, (size_t)idx * sizeof *P->chain);
    P->chain[idx - 1] = P->tab[b];
    P->tab[b] = idx;
}

/* The integers after e's updates; 0 when one leaves its range (the edge
 * is then not taken). */
/* The integers that either automaton of the product being explored on
 * this thread reads: an update of another one is skipped, so that a
 * variable nothing reads (a step counter) does not multiply the states.
 * Its range is then not checked either. */
static _Thread_local const char *live_ints;

static int iupdate(const tae_aut *n, const tae_edge *e, const int64_t *in,
                   int64_t *out)
{
    memcpy(out, in, (size_t)n->nints * sizeof *in);
    for (int k = 0; k < e->nasg; k++) {
        if (live_ints && !live_ints[e->asg[k].var])
            continue;
        int64_t v = 0;
        if (tae_ix_eval(&v, e->asg[k].val, out) < 0)
            return 0;
        const tae_int *t = &n->ints[e->asg[k].var];
        if (v < t->lo || v > t->hi)
            return 0;
        out[e->asg[k].var] = v;
    }
    return tae_iinv_ok(n, e->dst, out);
}

static int edge_ok(const tae_aut *n, const tae_edge *e, const int64_t *vals,
                   int64_t *tmp)
{
    return tae_edge_iok(e, vals) && iupdate(n, e, vals, tmp);
}

/* Upper-bound atoms of c made strict, into z; 0 when z becomes empty. */
static int and_strict(tae_bound *z, int d, const tae_conj *c, int off)
{
    for (int k = 0; k < c->n; k++) {
        tae_atom a = c->v[k];
        if (a.i != 0 && a.j == 0 && !TAE_BSTRICT(a.b))
            a.b = TAE_LT(TAE_BK(a.b));
        if (!tae_dbm_and(z, d, a.i ? a.i + off : 0, a.j ? a.j + off : 0, a.b))
            return 0;
    }
    return 1;
}

/* Can the mutant let time pass from the zone where the original cannot? */
static int delay_kill(prod *P, const sstate *s, tae_bound *w)
{
    const tae_loc *lo = &P->o->locs[s->lo], *lm = &P->m->locs[s->lm];
    if (tae_urgent(P->m, s->lm, s->vm))
        return 0;
    tae_dbm_copy(w, s->z, P->d);
    if (tae_urgent(P->o, s->lo, s->vo))
        return and_strict(w, P->d, &lm->inv, P->n);
    tae_dbm_up(w, P->d);
    if (!tae_dbm_and_conj(w, P->d, &lm->inv, P->n))
        return 0;
    const tae_conj *c = &lo->inv;
    return tae_dbm_minus_nonempty(w, P->d, &c, 1, 0);
}

/* Edges of n at l with label ch (internal when tau) whose integer parts
 * hold: their `en` into cs. */
static int gather(const tae_aut *n, int l, int ch, int tau,
                  const int64_t *vals, int64_t *tmp, const tae_conj **cs)
{
    int k = 0;
    for (int e = n->first[l]; e >= 0; e = n->next[e]) {
        const tae_edge *E = &n->edges[e];
        if (E->chan == ch && (E->dir == TAE_TAU) == tau &&
            edge_ok(n, E, vals, tmp))
            cs[k++] = &E->en;
    }
    return k;
}

/* A deviation by an action at the (delayed) zone z: the original's input
 * edge or the mutant's output edge into *kedge. */
static int action_kill(prod *P, const sstate *s, const tae_bound *z,
                       tae_bound *w, int *kedge, const tae_conj **cs,
                       int64_t *tmp)
{
    const tae_aut *o = P->o, *m = P->m;
    for (int e = o->first[s->lo]; e >= 0; e = o->next[e]) {
        const tae_edge *E = &o->edges[e];
        if (E->dir != TAE_IN || !edge_ok(o, E, s->vo, tmp))
            continue;
        tae_dbm_copy(w, z, P->d);
        if (!tae_dbm_and_conj(w, P->d, &E->en, 0))
            continue;
        int k = gather(m, s->lm, E->chan, 0, s->vm, tmp, cs);
        if (tae_dbm_minus_nonempty(w, P->d, cs, k, P->n)) {
            *kedge = e;
            return TAE_K_IN;
        }
    }
    for (int e = m->first[s->lm]; e >= 0; e = m->next[e]) {
        const tae_edge *E = &m->edges[e];
        if (E->dir == TAE_IN || !edge_ok(m, E, s->vm, tmp))
            continue;
        tae_dbm_copy(w, z, P->d);
        if (!tae_dbm_and_conj(w, P->d, &E->en, P->n))
            continue;
        int tau = E->dir == TAE_TAU;
        int k = gather(o, s->lo, E->chan, tau, s->vo, tmp, cs);
        if (tae_dbm_minus_nonempty(w, P->d, cs, k, 0)) {
            *kedge = e;
            return tau ? TAE_K_TAU : TAE_K_OUT;
        }
    }
    return 0;
}

static void apply_resets(tae_bound *z, int d, const tae_edge *e, int off)
{
    for (int r = 0; r < e->nresets; r++)
        tae_dbm_reset(z, d, e->resets[r] + off, e->reset_to[r]);
}

/* The edges of n at l before f on f's channel, as inputs, whose integer
 * parts hold: f is taken only where none of them is enabled. */
static int earlier_inputs(const tae_aut *n, int l, int f, const int64_t *vals,
                          int64_t *tmp, const tae_conj **cs)
{
    int k = 0;
    for (int e = n->first[l]; e >= 0 && e != f; e = n->next[e]) {
        const tae_edge *E = &n->edges[e];
        if (E->chan == n->edges[f].chan && E->dir == TAE_IN &&
            edge_ok(n, E, vals, tmp))
            cs[k++] = &E->en;
    }
    return k;
}

typedef struct {
    prod *P;
    int si, eo, em;
    const int64_t *vo2, *vm2;
} move;

/* The successor of one joint move on the part w of the zone; takes w. */
static void arrive(const move *mv, tae_bound *w)
{
    prod *P = mv->P;
    const sstate *s = &P->st.v[mv->si];
    int lo = s->lo, lm = s->lm;
    if (mv->eo >= 0) {
        apply_resets(w, P->d, &P->o->edges[mv->eo], 0);
        lo = P->o->edges[mv->eo].dst;
    }
    if (mv->em >= 0) {
        apply_resets(w, P->d, &P->m->edges[mv->em], P->n);
        lm = P->m->edges[mv->em].dst;
    }
    if (!tae_dbm_and_conj(w, P->d, &P->o->locs[lo].inv, 0) ||
        !tae_dbm_and_conj(w, P->d, &P->m->locs[lm].inv, P->n)) {
        free(w);
        return;
    }
    tae_dbm_extra(w, P->d, P->maxc);
    add_state(P, lo, lm, mv->eo >= 0 ? mv->vo2 : s->vo,
              mv->em >= 0 ? mv->vm2 : s->vm, w, mv->si, mv->eo, mv->em);
}

/* w minus the union of cs[0..n) as disjoint zones, each arrived at. */
static void split(const move *mv, const tae_bound *w, const tae_conj **cs,
                  int n)
{
    int d = mv->P->d;
    if (n == 0) {
        tae_bound *c = mf_xmalloc((size_t)d * (size_t)d * sizeof *c);
        tae_dbm_copy(c, w, d);
        arrive(mv, c);
        return;
    }
    tae_bound *part = mf_xmalloc((size_t)d * (size_t)d * sizeof *part);
    tae_bound *rest = mf_xmalloc((size_t)d * (size_t)d * sizeof *rest);
    tae_dbm_copy(rest, w, d);
    /* w minus (a1 and ... and ak): the disjoint parts w, a1..a(i-1), not ai */
    for (int k = 0; k < cs[0]->n; k++) {
        tae_atom a = cs[0]->v[k], na = tae_atom_neg(a);
        int off = mv->P->n;
        tae_dbm_copy(part, rest, d);
        if (tae_dbm_and(part, d, na.i ? na.i + off : 0, na.j ? na.j + off : 0,
                        na.b))
            split(mv, part, cs + 1, n - 1);
        if (!tae_dbm_and(rest, d, a.i ? a.i + off : 0, a.j ? a.j + off : 0,
                         a.b))
            break;
    }
    free(part);
    free(rest);
}

/* The joint moves of s: every pair of edges on one channel; the mutant
 * takes an input edge only where no earlier one on the channel is
 * enabled (a resolution of its choice: when that resolution refines the
 * original, the mutant does). */
static void successors(prod *P, int si, const tae_bound *z, int64_t *vo2,
                       int64_t *vm2, const tae_conj **cs, int64_t *tmp)
{
    const tae_aut *o = P->o, *m = P->m;
    tae_bound *w = mf_xmalloc((size_t)P->d * (size_t)P->d * sizeof *w);
    for (int e = o->first[P->st.v[si].lo]; e >= 0; e = o->next[e]) {
        const tae_edge *Eo = &o->edges[e];
        if (!edge_ok(o, Eo, P->st.v[si].vo, vo2))
            continue;
        for (int f = m->first[P->st.v[si].lm]; f >= 0; f = m->next[f]) {
            const tae_edge *Em = &m->edges[f];
            if (Em->chan != Eo->chan ||
                (Em->dir == TAE_TAU) != (Eo->dir == TAE_TAU) ||
                !edge_ok(m, Em, P->st.v[si].vm, vm2))
                continue;
            tae_dbm_copy(w, z, P->d);
            if (!tae_dbm_and_conj(w, P->d, &Eo->en, 0) ||
                !tae_dbm_and_conj(w, P->d, &Em->en, P->n))
                continue;
            move mv = {P, si, e, f, vo2, vm2};
            int k = Em->dir == TAE_IN ? earlier_inputs(m, P->st.v[si].lm, f,
                                                        P->st.v[si].vm, tmp,
                                                        cs)
                                      : 0;
            split(&mv, w, cs, k);
        }
    }
    free(w);
}

static void path_of(tae_refine_res *out, const prod *P, int si)
{
    int len = 0;
    for (int k = si; P->st.v[k].parent >= 0; k = P->st.v[k].parent)
        len++;
    out->nsteps = len;
    out->eo = mf_xcalloc((size_t)len + 1, sizeof(int));
    out->em = mf_xcalloc((size_t)len + 1, sizeof(int));
    for (int k = si, i = len - 1; P->st.v[k].parent >= 0;
         k = P->st.v[k].parent, i--) {
        out->eo[i] = P->st.v[k].eo;
        out->em[i] = P->st.v[k].em;
    }
}

/* A deviation at state si: judged; 1 when accepted (*out keeps it). */
static int deviate(tae_refine_res *out, const prod *P, int si, int kill,
                   int kedge, tae_judge_fn judge, void *ctx, int *rejected)
{
    tae_refine_res r = {0};
    r.kind = TAE_R_KILL;
    r.kill = kill;
    r.kedge = kedge;
    path_of(&r, P, si);
    if (!judge || judge(ctx, &r)) {
        int64_t keep = out->states;
        *out = r;
        out->states = keep;
        return 1;
    }
    (*rejected)++;
    tae_refine_res_free(&r);
    return 0;
}

int tae_refine(tae_refine_res *out, const tae_aut *m, const tae_aut *o,
              long max_states, tae_judge_fn judge, void *ctx)
{
    int rejected = 0;
    memset(out, 0, sizeof *out);
    if (m->nclocks != o->nclocks || m->nints != o->nints ||
        m->nchans != o->nchans)
        return mf_err_set(MF_ERROR, "mutant and original do not match");
    prod P = {0};
    P.o = o;
    P.m = m;
    P.n = o->nclocks;
    P.d = 1 + 2 * P.n;
    P.ni = o->nints;
    char *live = mf_xcalloc((size_t)P.ni + 1, 1);
    tae_live(live, o, m);
    live_ints = live;
    P.tabn = 4099;
    P.tab = mf_xcalloc((size_t)P.tabn, sizeof *P.tab);
    P.maxc = mf_xcalloc((size_t)P.d, sizeof *P.maxc);
    for (int c = 1; c <= P.n; c++) {
        P.maxc[c] = o->maxc[c];
        P.maxc[c + P.n] = m->maxc[c];
    }
    size_t zb = (size_t)P.d * (size_t)P.d * sizeof(tae_bound);
    tae_bound *w = mf_xmalloc(zb), *z = mf_xmalloc(zb);
    int64_t *t1 = mf_xcalloc((size_t)P.ni + 1, sizeof *t1);
    int64_t *t2 = mf_xcalloc((size_t)P.ni + 1, sizeof *t2);
    int64_t *t3 = mf_xcalloc((size_t)P.ni + 1, sizeof *t3);
    int maxe = o->nedges > m->nedges ? o->nedges : m->nedges;
    const tae_conj **cs = mf_xcalloc((size_t)maxe + 1, sizeof *cs);

    int64_t *vo = mf_xcalloc((size_t)P.ni + 1, sizeof *vo);
    for (int i = 0; i < P.ni; i++)
        vo[i] = o->ints[i].init;
    tae_bound *z0 = tae_dbm_new(P.d);
    if (!tae_iinv_ok(o, o->init, vo) || !tae_iinv_ok(m, m->init, vo) ||
        !tae_dbm_and_conj(z0, P.d, &o->locs[o->init].inv, 0) ||
        !tae_dbm_and_conj(z0, P.d, &m->locs[m->init].inv, P.n)) {
        free(z0);
        out->kind = TAE_R_UNKNOWN;
        snprintf(out->why, sizeof out->why,
                 "an initial invariant does not hold at time 0");
        goto cleanup;
    }
    add_state(&P, o->init, m->init, vo, vo, z0, -1, -1, -1);
    out->kind = TAE_R_REFINES;
    for (int si = 0; si < P.st.n; si++) {
        if (max_states && si >= max_states) {
            out->kind = TAE_R_UNKNOWN;
            snprintf(out->why, sizeof out->why,
                     "over %ld symbolic states", max_states);
            break;
        }
        if (rejected > 20)
            break;
        sstate *s = &P.st.v[si];
        if (delay_kill(&P, s, w) &&
            deviate(out, &P, si, TAE_K_DELAY, -1, judge, ctx, &rejected))
            break;
        s = &P.st.v[si];
        tae_dbm_copy(z, s->z, P.d);
        if (!tae_urgent(o, s->lo, s->vo) && !tae_urgent(m, s->lm, s->vm)) {
            tae_dbm_up(z, P.d);
            tae_dbm_and_conj(z, P.d, &o->locs[s->lo].inv, 0);
            tae_dbm_and_conj(z, P.d, &m->locs[s->lm].inv, P.n);
        }
        int ke = -1, k = action_kill(&P, s, z, w, &ke, cs, t1);
        if (k && deviate(out, &P, si, k, ke, judge, ctx, &rejected))
            break;
        successors(&P, si, z, t1, t2, cs, t3);
    }
    out->states = P.st.n;
    if (out->kind == TAE_R_REFINES && rejected) {
        out->kind = TAE_R_UNKNOWN;
        snprintf(out->why, sizeof out->why, "%d deviation%s found, none "
                 "confirmed", rejected, rejected > 1 ? "s" : "");
    }
cleanup:
    for (int i = 0; i < P.st.n; i++) {
        free(P.st.v[i].vo);
        free(P.st.v[i].vm);
        free(P.st.v[i].z);
    }
    MF_VEC_FREE(P.st);
    free(P.tab);
    free(P.chain);
    free(P.maxc);
    free(w);
    free(z);
    free(t1);
    free(t2);
    free(t3);
    free(live);
    live_ints = NULL;
    free(vo);
    free(cs);
    return 0;
}

void tae_refine_res_free(tae_refine_res *r)
{
    if (!r)
        return;
    free(r->eo);
    free(r->em);
    r->eo = r->em = NULL;
}
