/* tae_dbm.c - difference bound matrices for the timed engine (ta_dbm.h):
 * the closed form by Floyd-Warshall and its incremental version for one
 * new constraint, time elapse, resets, inclusion, the classic
 * extrapolation by maximal constants, and whether a zone minus a union of
 * convex constraints is empty (by splitting on the negated atoms). */
#include "tae_dbm.h"

#include <stdlib.h>
#include <string.h>

static tae_bound badd(tae_bound a, tae_bound b)
{
    if (a >= TAE_INF || b >= TAE_INF)
        return TAE_INF;
    /* k1 + k2, strict if either is strict */
    return ((TAE_BK(a) + TAE_BK(b)) * 2) | ((a & 1) & (b & 1));
}

tae_bound *tae_dbm_new(int d)
{
    tae_bound *z = mf_xmalloc((size_t)d * (size_t)d * sizeof *z);
    for (int i = 0; i < d * d; i++)
        z[i] = TAE_LE(0);
    return z;
}

void tae_dbm_copy(tae_bound *dst, const tae_bound *src, int d)
{
    memcpy(dst, src, (size_t)d * (size_t)d * sizeof *dst);
}

int tae_dbm_close(tae_bound *z, int d)
{
    for (int k = 0; k < d; k++)
        for (int i = 0; i < d; i++) {
            tae_bound ik = z[i * d + k];
            if (ik >= TAE_INF)
                continue;
            for (int j = 0; j < d; j++) {
                tae_bound s = badd(ik, z[k * d + j]);
                if (s < z[i * d + j])
                    z[i * d + j] = s;
            }
        }
    for (int i = 0; i < d; i++)
        if (z[i * d + i] < TAE_LE(0))
            return 0;
    return 1;
}

int tae_dbm_and(tae_bound *z, int d, int i, int j, tae_bound b)
{
    if (badd(z[j * d + i], b) < TAE_LE(0)) {
        z[0] = TAE_LT(0); /* marks it empty */
        return 0;
    }
    if (b >= z[i * d + j])
        return 1;
    z[i * d + j] = b;
    for (int p = 0; p < d; p++) {
        tae_bound pi = z[p * d + i];
        tae_bound pj = badd(pi, b);
        for (int q = 0; q < d; q++) {
            tae_bound s = badd(pj, z[j * d + q]);
            if (s < z[p * d + q])
                z[p * d + q] = s;
        }
    }
    return 1;
}

int tae_dbm_and_conj(tae_bound *z, int d, const tae_conj *c, int off)
{
    for (int k = 0; k < c->n; k++) {
        const tae_atom *a = &c->v[k];
        int i = a->i ? a->i + off : 0, j = a->j ? a->j + off : 0;
        if (!tae_dbm_and(z, d, i, j, a->b))
            return 0;
    }
    return 1;
}

void tae_dbm_up(tae_bound *z, int d)
{
    for (int i = 1; i < d; i++)
        z[i * d] = TAE_INF;
}

void tae_dbm_reset(tae_bound *z, int d, int x, int64_t v)
{
    for (int j = 0; j < d; j++) {
        z[x * d + j] = badd(TAE_LE(v), z[j]);
        z[j * d + x] = badd(z[j * d], TAE_LE(-v));
    }
    z[x * d + x] = TAE_LE(0);
}

int tae_dbm_leq(const tae_bound *a, const tae_bound *b, int d)
{
    for (int i = 0; i < d * d; i++)
        if (a[i] > b[i])
            return 0;
    return 1;
}

void tae_dbm_extra(tae_bound *z, int d, const int64_t *m)
{
    int changed = 0;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            if (i == j)
                continue;
            tae_bound *e = &z[i * d + j];
            if (*e < TAE_INF && i != 0 && *e > TAE_LE(m[i])) {
                *e = TAE_INF;
                changed = 1;
            } else if (j != 0 && *e < TAE_LT(-m[j])) {
                *e = TAE_LT(-m[j]);
                changed = 1;
            }
        }
    if (changed)
        tae_dbm_close(z, d);
}

static int minus_rec(tae_bound *z, int d, const tae_conj *const *cs, int n,
                     int off)
{
    if (n == 0)
        return 1;
    const tae_conj *c = cs[0];
    tae_bound *w = mf_xmalloc((size_t)d * (size_t)d * sizeof *w);
    int found = 0;
    /* z minus c = the union over c's atoms a of z and not a */
    for (int k = 0; k < c->n && !found; k++) {
        tae_atom na = tae_atom_neg(c->v[k]);
        int i = na.i ? na.i + off : 0, j = na.j ? na.j + off : 0;
        tae_dbm_copy(w, z, d);
        if (tae_dbm_and(w, d, i, j, na.b) && minus_rec(w, d, cs + 1, n - 1, off))
            found = 1;
    }
    free(w);
    return found;
}

int tae_dbm_minus_nonempty(const tae_bound *z, int d, const tae_conj *const *cs,
                          int n, int off)
{
    tae_bound *w = mf_xmalloc((size_t)d * (size_t)d * sizeof *w);
    tae_dbm_copy(w, z, d);
    int r = minus_rec(w, d, cs, n, off);
    free(w);
    return r;
}

uint64_t tae_dbm_hash(const tae_bound *z, int d)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < d * d; i++) {
        h ^= (uint64_t)z[i];
        h *= 1099511628211ull;
    }
    return h;
}
