/* tae_sim.c - the rational simulator of timed automata (tae_sim.h):
 * clocks as exact fractions, delays checked against invariants and
 * urgency, edges enabled by their integer guard, clock guard and the
 * target's invariant after the updates. It shares nothing with the zone
 * product but the automaton view. */
#include "tae_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int loc;
    int64_t *vals;
    tae_q *clk; /* [0] unused, 1..nclocks */
} sst;

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a ? a : 1;
}

/* a + b; 0 on overflow */
static int qadd(tae_q *out, tae_q a, tae_q b)
{
    __int128 n = (__int128)a.n * b.d + (__int128)b.n * a.d;
    __int128 d = (__int128)a.d * b.d;
    __int128 lim = (__int128)1 << 62;
    while ((n >= lim || n <= -lim || d >= lim) && (d % 2 == 0 && n % 2 == 0)) {
        n /= 2;
        d /= 2;
    }
    if (n >= lim || n <= -lim || d >= lim)
        return 0;
    int64_t g = gcd64((int64_t)n, (int64_t)d);
    out->n = (int64_t)n / g;
    out->d = (int64_t)d / g;
    return 1;
}

/* x_i - x_j (bound) on the rational clocks */
static int atom_holds(const tae_q *clk, tae_atom a)
{
    tae_q xi = a.i ? clk[a.i] : (tae_q){0, 1};
    tae_q xj = a.j ? clk[a.j] : (tae_q){0, 1};
    /* xi.n/xi.d - xj.n/xj.d  vs k */
    __int128 lhs = (__int128)xi.n * xj.d - (__int128)xj.n * xi.d;
    __int128 rhs = (__int128)TAE_BK(a.b) * xi.d * xj.d;
    return TAE_BSTRICT(a.b) ? lhs < rhs : lhs <= rhs;
}

static int conj_holds(const tae_q *clk, const tae_conj *c)
{
    for (int k = 0; k < c->n; k++)
        if (!atom_holds(clk, c->v[k]))
            return 0;
    return 1;
}

static void sst_init(sst *s, const tae_aut *a)
{
    s->loc = a->init;
    s->vals = mf_xcalloc((size_t)a->nints + 1, sizeof *s->vals);
    for (int i = 0; i < a->nints; i++)
        s->vals[i] = a->ints[i].init;
    s->clk = mf_xcalloc((size_t)a->nclocks + 1, sizeof *s->clk);
    for (int c = 0; c <= a->nclocks; c++)
        s->clk[c] = (tae_q){0, 1};
}

static void sst_free(sst *s)
{
    free(s->vals);
    free(s->clk);
}

/* Lets d pass; 0 when the location forbids it. */
static int sim_delay(const tae_aut *a, sst *s, tae_q d)
{
    if (d.n == 0)
        return conj_holds(s->clk, &a->locs[s->loc].inv);
    if (tae_urgent(a, s->loc, s->vals))
        return 0;
    for (int c = 1; c <= a->nclocks; c++)
        if (!qadd(&s->clk[c], s->clk[c], d))
            return 0;
    /* invariants are conjunctions of bounds: holding at both ends, they
     * hold in between */
    return conj_holds(s->clk, &a->locs[s->loc].inv);
}

/* Fires e from s into t (fresh arrays); 0 when e is not enabled. */
static int sim_fire(const tae_aut *a, const sst *s, const tae_edge *e, sst *t)
{
    int64_t g = 1;
    if (e->iguard && tae_ix_eval(&g, e->iguard, s->vals) < 0)
        return 0;
    if (!g || !conj_holds(s->clk, &e->guard))
        return 0;
    sst_init(t, a);
    t->loc = e->dst;
    memcpy(t->vals, s->vals, (size_t)a->nints * sizeof *t->vals);
    memcpy(t->clk, s->clk, (size_t)(a->nclocks + 1) * sizeof *t->clk);
    for (int k = 0; k < e->nasg; k++) {
        int64_t v = 0;
        const tae_int *ti = &a->ints[e->asg[k].var];
        if (tae_ix_eval(&v, e->asg[k].val, t->vals) < 0 || v < ti->lo ||
            v > ti->hi) {
            sst_free(t);
            return 0;
        }
        t->vals[e->asg[k].var] = v;
    }
    for (int r = 0; r < e->nresets; r++)
        t->clk[e->resets[r]] = (tae_q){e->reset_to[r], 1};
    if (!conj_holds(t->clk, &a->locs[e->dst].inv) ||
        !tae_iinv_ok(a, e->dst, t->vals)) {
        sst_free(t);
        return 0;
    }
    return 1;
}

/* How many edges of s's location on channel ch are enabled; the state
 * after the first into *t when there is one. */
static int sim_enabled(const tae_aut *a, const sst *s, int ch, sst *t)
{
    int k = 0;
    for (int e = 0; e < a->nedges; e++) {
        const tae_edge *E = &a->edges[e];
        sst u;
        if (E->src != s->loc || E->chan != ch || E->dir == TAE_TAU)
            continue;
        if (!sim_fire(a, s, E, &u))
            continue;
        if (k++ == 0 && t)
            *t = u;
        else
            sst_free(&u);
    }
    return k;
}

static int qcmp(tae_q x, tae_q y)
{
    __int128 a = (__int128)x.n * y.d, b = (__int128)y.n * x.d;
    return a < b ? -1 : a > b;
}

/* An end of an interval of delays: the value and whether it is open. */
typedef struct {
    tae_q q;
    int open;
} qend;

static void tighten(qend *e, tae_q b, int open, int upper)
{
    int c = qcmp(b, e->q);
    if ((upper && c < 0) || (!upper && c > 0)) {
        e->q = b;
        e->open = open;
    } else if (c == 0) {
        e->open |= open;
    }
}

/* Could a take an internal edge at some time within [0, d] from s? Each
 * atom of the edge bounds the delay from above (x - 0) or below (0 - x)
 * or does not depend on it (x - y). */
static int tau_possible(const tae_aut *a, const sst *s, tae_q d)
{
    for (int e = a->first[s->loc]; e >= 0; e = a->next[e]) {
        const tae_edge *E = &a->edges[e];
        int64_t g = 1;
        if (E->dir != TAE_TAU || E->never)
            continue;
        if (E->iguard && (tae_ix_eval(&g, E->iguard, s->vals) < 0 || !g))
            continue;
        qend lo = {{0, 1}, 0}, hi = {d, 0};
        if (tae_urgent(a, s->loc, s->vals))
            hi.q = (tae_q){0, 1};
        int ok = 1;
        for (int k = 0; k < E->en.n && ok; k++) {
            tae_atom t = E->en.v[k];
            int open = TAE_BSTRICT(t.b);
            tae_q b;
            if (t.i && t.j) {
                ok = atom_holds(s->clk, t);
            } else if (t.i) { /* x + tau <(=) c: tau <(=) c - x */
                tae_q c = {TAE_BK(t.b), 1};
                tae_q nx = {-s->clk[t.i].n, s->clk[t.i].d};
                if (!qadd(&b, c, nx))
                    return 1;
                tighten(&hi, b, open, 1);
            } else if (t.j) { /* -(x + tau) <(=) c: tau >(=) -c - x */
                tae_q c = {-TAE_BK(t.b), 1};
                tae_q nx = {-s->clk[t.j].n, s->clk[t.j].d};
                if (!qadd(&b, c, nx))
                    return 1;
                tighten(&lo, b, open, 0);
            }
        }
        int c = qcmp(lo.q, hi.q);
        if (ok && (c < 0 || (c == 0 && !lo.open && !hi.open)))
            return 1;
    }
    return 0;
}

typedef MF_VEC(sst) sstvec;

/* Runs of the mutant followed at most: more are dropped, which can only
 * make a confirmation fail. */
#define MAX_RUNS 256

static void runs_free(sstvec *v)
{
    for (int i = 0; i < v->n; i++)
        sst_free(&v->v[i]);
    MF_VEC_FREE(*v);
}

/* Every run of ms lets d pass without an internal move possible; the
 * others are dropped. */
static void runs_delay(const tae_aut *m, sstvec *ms, tae_q d)
{
    int k = 0;
    for (int i = 0; i < ms->n; i++) {
        if (!tau_possible(m, &ms->v[i], d) && sim_delay(m, &ms->v[i], d))
            ms->v[k++] = ms->v[i];
        else
            sst_free(&ms->v[i]);
    }
    ms->n = k;
}

/* The runs of ms after channel ch: an output is the mutant's choice (every
 * successor is a run); an input must have one edge in a run to keep it. */
static void runs_step(const tae_aut *m, sstvec *ms, int ch, int input)
{
    sstvec next = {0};
    for (int i = 0; i < ms->n; i++) {
        const sst *s = &ms->v[i];
        int k = input ? sim_enabled(m, s, ch, NULL) : 0;
        if (input && k != 1)
            continue;
        for (int e = m->first[s->loc]; e >= 0; e = m->next[e]) {
            const tae_edge *E = &m->edges[e];
            sst u;
            if (E->chan != ch || E->dir == TAE_TAU || !sim_fire(m, s, E, &u))
                continue;
            if (next.n < MAX_RUNS)
                MF_VEC_PUSH(next, u);
            else
                sst_free(&u);
        }
    }
    runs_free(ms);
    *ms = next;
}

/* Every successor of every run of v on channel ch; 0 when they are more
 * than MAX_RUNS (none may be dropped: the original's runs are all what
 * a conforming system may be doing). */
static int runs_step_all(const tae_aut *a, sstvec *v, int ch)
{
    sstvec next = {0};
    int ok = 1;
    for (int i = 0; i < v->n; i++)
        for (int e = a->first[v->v[i].loc]; e >= 0; e = a->next[e]) {
            const tae_edge *E = &a->edges[e];
            sst u;
            if (E->chan != ch || E->dir == TAE_TAU ||
                !sim_fire(a, &v->v[i], E, &u))
                continue;
            if (next.n >= MAX_RUNS)
                ok = 0;
            MF_VEC_PUSH(next, u);
        }
    runs_free(v);
    *v = next;
    return ok;
}

/* The original's runs after a step: every run lets the delay pass with
 * no internal move possible; at an input every run must take it (else a
 * system that conforms might refuse it: no test), at an output the runs
 * that cannot send it are dropped (the output observed rules them out). 0
 * with why set when the test cannot go on. */
static int orig_step(const tae_aut *o, sstvec *os, const tae_step *st, int i,
                     char *why, size_t whyn)
{
    for (int k = 0; k < os->n; k++) {
        if (tau_possible(o, &os->v[k], st->delay)) {
            snprintf(why, whyn, "step %d: the original may move internally",
                     i + 1);
            return 0;
        }
        if (!sim_delay(o, &os->v[k], st->delay)) {
            snprintf(why, whyn, "step %d: the original cannot wait", i + 1);
            return 0;
        }
        if (st->dir == TAE_IN && !sim_enabled(o, &os->v[k], st->chan, NULL)) {
            snprintf(why, whyn, "step %d: a run of the original refuses the "
                     "input", i + 1);
            return 0;
        }
    }
    if (!runs_step_all(o, os, st->chan)) {
        snprintf(why, whyn, "step %d: too many runs of the original", i + 1);
        return 0;
    }
    if (os->n == 0) {
        snprintf(why, whyn, "step %d: the original cannot take it", i + 1);
        return 0;
    }
    return 1;
}

int tae_sim_confirm(const tae_aut *o, const tae_aut *m, const tae_test *t,
                    char *why, size_t whyn)
{
    sstvec os = {0}, ms = {0};
    int ok = 0;
    sst o0, m0;
    sst_init(&o0, o);
    sst_init(&m0, m);
    MF_VEC_PUSH(os, o0);
    MF_VEC_PUSH(ms, m0);
    snprintf(why, whyn, "confirmed");
    if (!conj_holds(o0.clk, &o->locs[o0.loc].inv) ||
        !conj_holds(m0.clk, &m->locs[m0.loc].inv)) {
        snprintf(why, whyn, "an initial invariant fails");
        goto cleanup;
    }
    for (int i = 0; i < t->n; i++) {
        if (!orig_step(o, &os, &t->steps[i], i, why, whyn))
            goto cleanup;
        runs_delay(m, &ms, t->steps[i].delay);
        runs_step(m, &ms, t->steps[i].chan, t->steps[i].dir == TAE_IN);
        if (ms.n == 0) {
            snprintf(why, whyn, "step %d: no run of the mutant follows the "
                     "test with one edge at each input", i + 1);
            goto cleanup;
        }
    }
    for (int k = 0; k < os.n; k++)
        if (tau_possible(o, &os.v[k], t->kdelay)) {
            snprintf(why, whyn, "the original may move internally at the end");
            goto cleanup;
        }
    runs_delay(m, &ms, t->kdelay);
    if (ms.n == 0) {
        snprintf(why, whyn, "the mutant cannot wait that long");
        goto cleanup;
    }
    /* every run of the original must rule out what one of the mutant's
     * does */
    int ko = 0, km = 0;
    ok = 1;
    for (int k = 0; k < os.n && ok; k++) {
        int can_wait = sim_delay(o, &os.v[k], t->kdelay);
        if (t->kill == TAE_K_DELAY) {
            ok = !can_wait;
            continue;
        }
        ko = can_wait ? sim_enabled(o, &os.v[k], t->kchan, NULL) : 0;
        ok = can_wait && (t->kill == TAE_K_IN ? ko > 0 : ko == 0);
    }
    if (ok && t->kill != TAE_K_DELAY) {
        ok = 0;
        for (int i = 0; i < ms.n && !ok; i++) {
            km = sim_enabled(m, &ms.v[i], t->kchan, NULL);
            ok = t->kill == TAE_K_IN ? km == 0 : km > 0;
        }
    }
    if (!ok)
        snprintf(why, whyn, "at the end %d edges of the original and %d of "
                 "the mutant are enabled", ko, km);
cleanup:
    runs_free(&os);
    runs_free(&ms);
    return ok;
}

void tae_test_free(tae_test *t)
{
    if (t) {
        free(t->steps);
        t->steps = NULL;
        t->n = 0;
    }
}

static void put_q(mf_buf *b, tae_q q)
{
    if (q.d == 1)
        mf_buf_printf(b, "%lld", (long long)q.n);
    else
        mf_buf_printf(b, "%lld/%lld", (long long)q.n, (long long)q.d);
}

void tae_test_print(mf_buf *b, const tae_aut *o, const tae_test *t)
{
    tae_q now = {0, 1};
    for (int i = 0; i < t->n; i++) {
        qadd(&now, now, t->steps[i].delay);
        mf_buf_puts(b, "    at ");
        put_q(b, now);
        mf_buf_printf(b, ": %s %s\n",
                      t->steps[i].dir == TAE_IN ? "input" : "expect output",
                      o->chans[t->steps[i].chan]);
    }
    qadd(&now, now, t->kdelay);
    mf_buf_puts(b, "    at ");
    put_q(b, now);
    if (t->kill == TAE_K_IN)
        mf_buf_printf(b, ": input %s (the original accepts it, the mutant "
                      "refuses it)\n", o->chans[t->kchan]);
    else if (t->kill == TAE_K_OUT)
        mf_buf_printf(b, ": fail on output %s (the mutant may send it, the "
                      "original may not)\n", o->chans[t->kchan]);
    else
        mf_buf_puts(b, ": fail if no output yet (the original must have "
                    "sent one, the mutant may stay silent)\n");
}

static unsigned next_rand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static int sst_copy(const tae_aut *a, const sst *s, sst *t)
{
    sst_init(t, a);
    t->loc = s->loc;
    memcpy(t->vals, s->vals, (size_t)a->nints * sizeof *t->vals);
    memcpy(t->clk, s->clk, (size_t)(a->nclocks + 1) * sizeof *t->clk);
    return 1;
}

/* The deviation at (so, sm) after a delay d, if any: TAE_K_* and the
 * channel. */
static int deviation(const tae_aut *o, const tae_aut *m, const sst *so,
                     const sst *sm, int *chan)
{
    for (int c = 0; c < o->nchans; c++) {
        int ko = sim_enabled(o, so, c, NULL), km = sim_enabled(m, sm, c, NULL);
        *chan = c;
        if (o->chan_dir[c] == TAE_IN && ko && !km)
            return TAE_K_IN;
        if (o->chan_dir[c] == TAE_OUT && km && !ko)
            return TAE_K_OUT;
    }
    return 0;
}

static int64_t max_const(const tae_aut *a)
{
    int64_t k = 0;
    for (int c = 1; c <= a->nclocks; c++)
        if (a->maxc[c] > k)
            k = a->maxc[c];
    return k;
}

static int one_walk(tae_test *out, const tae_aut *o, const tae_aut *m,
                    unsigned *seed, int depth)
{
    sst so, sm;
    int found = 0;
    MF_VEC(tae_step) steps = {0};
    int64_t top = 2 * (max_const(o) > max_const(m) ? max_const(o)
                                                    : max_const(m)) + 2;
    tae_q pend = {0, 1}; /* waited since the last step */
    sst_init(&so, o);
    sst_init(&sm, m);
    for (int i = 0; i < depth && !found; i++) {
        tae_q d = {(int64_t)(next_rand(seed) % (unsigned)(top + 1)), 2};
        if (d.n % 2 == 0)
            d = (tae_q){d.n / 2, 1};
        sst to, tm;
        sst_copy(o, &so, &to);
        sst_copy(m, &sm, &tm);
        int okm = sim_delay(m, &tm, d), oko = sim_delay(o, &to, d);
        if (okm && !oko) {
            found = TAE_K_DELAY;
            qadd(&out->kdelay, pend, d);
            out->kchan = -1;
        } else if (okm) {
            sst_free(&so);
            sst_free(&sm);
            so = to;
            sm = tm;
            to.vals = tm.vals = NULL;
            to.clk = tm.clk = NULL;
            if (!qadd(&pend, pend, d))
                break;
            int ch = -1, k = deviation(o, m, &so, &sm, &ch);
            if (k) {
                found = k;
                out->kdelay = pend;
                out->kchan = ch;
                break;
            }
            /* a channel both can take, each with one edge */
            int c = (int)(next_rand(seed) % (unsigned)(o->nchans ? o->nchans
                                                                  : 1));
            for (int t = 0; t < o->nchans; t++, c = (c + 1) % o->nchans) {
                sst no, nm;
                int ko = sim_enabled(o, &so, c, &no);
                int km = sim_enabled(m, &sm, c, &nm);
                if (ko == 1 && km == 1) {
                    sst_free(&so);
                    sst_free(&sm);
                    so = no;
                    sm = nm;
                    tae_step st = {pend, c, o->chan_dir[c]};
                    MF_VEC_PUSH(steps, st);
                    pend = (tae_q){0, 1};
                    break;
                }
                if (ko)
                    sst_free(&no);
                if (km)
                    sst_free(&nm);
                if (ko > 1 || km > 1) {
                    i = depth; /* a choice: the walk proves nothing */
                    break;
                }
            }
            continue;
        }
        sst_free(&to);
        sst_free(&tm);
    }
    sst_free(&so);
    sst_free(&sm);
    if (found) {
        out->steps = steps.v;
        out->n = steps.n;
        out->kill = found;
        return 1;
    }
    MF_VEC_FREE(steps);
    return 0;
}

int tae_sim_walks(tae_test *out, const tae_aut *o, const tae_aut *m,
                  unsigned seed, int nwalks, int depth)
{
    memset(out, 0, sizeof *out);
    for (int w = 0; w < nwalks; w++)
        if (one_walk(out, o, m, &seed, depth))
            return 1;
    return 0;
}
