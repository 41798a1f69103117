/* bdd_enc.c - the BDD engine's variables and values (bdd_int.h,
 * docs/killing.md "BDDs"): each cell's value index in binary over BuDDy
 * variables (booleans, enums and integer ranges alike, with a range
 * constraint where the domain is not a power of two), the blocks of the
 * product's current and next states, and value maps ("value v under
 * condition c"), the form every expression takes. It compiles no
 * expression (bdd_items.c does) and searches nothing (bdd.c does). */
#include "bdd_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* Cells with more values are left to the solver: a value map per read of
 * them costs a condition per value. */
#define DOM_MAX 4096

int mf_bdd_err; /* bdd_int.h */

/* ------------------------------------------------------------------ */
/* Value maps                                                           */

void mf_vmap_free(mf_vmap *vm)
{
    for (int i = 0; i < vm->n; i++)
        bdd_delref(vm->c[i]);
    free(vm->v);
    free(vm->c);
    memset(vm, 0, sizeof *vm);
}

/* Adds "v under c" (c unreferenced or the caller's). */
void mf_vmap_put(mf_vmap *vm, mf_val v, BDD c)
{
    if (c == bddfalse)
        return;
    int lo = 0, hi = vm->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (vm->v[mid] == v) {
            bdd_addref(c);
            BDD o = vm->c[mid];
            vm->c[mid] = bdd_addref(bdd_or(o, c));
            bdd_delref(o);
            bdd_delref(c);
            return;
        }
        if (vm->v[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    if (vm->n == vm->cap) {
        vm->cap = vm->cap ? 2 * vm->cap : 4;
        vm->v = mf_xrealloc(vm->v, (size_t)vm->cap * sizeof *vm->v);
        vm->c = mf_xrealloc(vm->c, (size_t)vm->cap * sizeof *vm->c);
    }
    memmove(vm->v + lo + 1, vm->v + lo, (size_t)(vm->n - lo) * sizeof *vm->v);
    memmove(vm->c + lo + 1, vm->c + lo, (size_t)(vm->n - lo) * sizeof *vm->c);
    vm->v[lo] = v;
    vm->c[lo] = bdd_addref(c);
    vm->n++;
}

/* v under a & b. */
void mf_vmap_put_and(mf_vmap *vm, mf_val v, BDD a, BDD b)
{
    mf_vmap_put(vm, v, bdd_and(a, b));
}

void mf_vmap_copy(mf_vmap *dst, const mf_vmap *src)
{
    for (int i = 0; i < src->n; i++)
        mf_vmap_put(dst, src->v[i], src->c[i]);
}

/* Where vm's value is non-zero (*t) and zero (*f), both referenced. */
void mf_vmap_truth(const mf_vmap *vm, BDD *t, BDD *f)
{
    *t = bdd_addref(bddfalse);
    *f = bdd_addref(bddfalse);
    for (int i = 0; i < vm->n; i++) {
        BDD *w = vm->v[i] ? t : f;
        BDD o = *w;
        *w = bdd_addref(bdd_or(o, vm->c[i]));
        bdd_delref(o);
    }
}

/* The condition of value v in vm (bddfalse: never). */
BDD mf_vmap_cond(const mf_vmap *vm, mf_val v)
{
    int lo = 0, hi = vm->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (vm->v[mid] == v)
            return vm->c[mid];
        if (vm->v[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return bddfalse;
}

/* ------------------------------------------------------------------ */
/* Blocks                                                               */

BDD mf_bdd_blk_is(const mf_bdd_blk *b, int i)
{
    BDD r = bdd_addref(bddtrue);
    for (int k = b->nbits - 1; k >= 0; k--) {
        int bit = (i >> (b->nbits - 1 - k)) & 1;
        BDD lit = bit ? bdd_ithvar(b->var[k]) : bdd_nithvar(b->var[k]);
        BDD o = r;
        r = bdd_addref(bdd_and(o, lit));
        bdd_delref(o);
    }
    bdd_delref(r);
    return r;
}

mf_val mf_bdd_blk_value(const mf_bdd_blk *b, const signed char *bits)
{
    int i = 0;
    for (int k = 0; k < b->nbits; k++)
        i = 2 * i + (bits[b->var[k]] > 0);
    return i < b->nvals ? b->vals[i] : b->vals[0];
}

const mf_bdd_blk *mf_bdd_blk_of(const mf_bdd_space *sp, int s, int r)
{
    if (sp->shared[s])
        r = r == MF_BR_YC ? MF_BR_XC : r == MF_BR_YN ? MF_BR_XN : r;
    return &sp->blk[(size_t)s * MF_BR__N + r];
}

/* The index of v in b's domain, -1 if it is not there. */
static int blk_index(const mf_bdd_blk *b, mf_val v)
{
    int lo = 0, hi = b->nvals - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (b->vals[mid] == v)
            return mid;
        if (b->vals[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* "b holds a value of its domain" (referenced). */
BDD mf_bdd_blk_in_domain(const mf_bdd_blk *b)
{
    if (b->nvals == 1 << b->nbits)
        return bdd_addref(bddtrue);
    BDD r = bdd_addref(bddfalse);
    for (int i = 0; i < b->nvals; i++) {
        BDD o = r;
        r = bdd_addref(bdd_or(o, mf_bdd_blk_is(b, i)));
        bdd_delref(o);
    }
    return r;
}

/* "a and b hold the same value" (same domain; referenced). */
BDD mf_bdd_blk_eq(const mf_bdd_blk *a, const mf_bdd_blk *b)
{
    BDD r = bdd_addref(bddtrue);
    for (int k = a->nbits - 1; k >= 0; k--) {
        BDD o = r;
        r = bdd_addref(bdd_and(
            o, bdd_biimp(bdd_ithvar(a->var[k]), bdd_ithvar(b->var[k]))));
        bdd_delref(o);
    }
    return r;
}

/* "b's value is in vm's values under their conditions" (referenced). */
BDD mf_bdd_blk_takes(const mf_bdd_blk *b, const mf_vmap *vm)
{
    BDD r = bdd_addref(bddfalse);
    for (int i = 0; i < vm->n; i++) {
        int k = blk_index(b, vm->v[i]);
        if (k < 0)
            continue; /* outside the type: no successor */
        BDD t = bdd_addref(bdd_and(vm->c[i], mf_bdd_blk_is(b, k)));
        BDD o = r;
        r = bdd_addref(bdd_or(o, t));
        bdd_delref(o);
        bdd_delref(t);
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* The space                                                            */

int mf_bdd_space_init(mf_bdd_space *sp, const mf_model *m)
{
    memset(sp, 0, sizeof *sp);
    int n = m->nslots, nn = n ? n : 1, rc = 0;
    sp->m = m;
    sp->nslots = n;
    sp->shared = mf_xcalloc((size_t)nn, 1);
    sp->frozen = mf_xcalloc((size_t)nn, 1);
    sp->ivar = mf_xcalloc((size_t)nn, 1);
    sp->blk = mf_xcalloc((size_t)nn * MF_BR__N, sizeof *sp->blk);
    sp->cells = mf_xcalloc((size_t)nn * MF_BR__N, sizeof *sp->cells);
    for (int i = 0; i < nn * MF_BR__N; i++)
        sp->cells[i].n = -1;
    sp->ops_max = 20000000L;
    int nv = 0;
    for (int i = 0; i < m->nvars && rc == 0; i++) {
        const mf_var *v = &m->vars[i];
        mf_val *vals = NULL;
        int nvals = 0;
        if ((rc = mf_type_domain(mf_type_scalar(v->type), &vals, &nvals)) < 0)
            break;
        if (nvals < 1 || nvals > DOM_MAX) {
            free(vals);
            rc = mf_err_set(MF_EUNSUPPORTED,
                            "BDDs: '%s' has %d values (at most %d)", v->name,
                            nvals, DOM_MAX);
            break;
        }
        int nbits = 0;
        while ((1 << nbits) < nvals)
            nbits++;
        int shared = is_ivar(v) || v->is_input;
        for (int k = 0; k < v->nslots; k++) {
            int s = v->slot + k;
            sp->shared[s] = (unsigned char)shared;
            sp->ivar[s] = (unsigned char)is_ivar(v);
            sp->frozen[s] = v->decl == MF_DECL_FROZENVAR;
            int nr = shared ? 2 : 4;
            /* Bit by bit, the roles side by side: x and y of a bit, and
             * a state and its successor, are next to each other. */
            static const int own[4] = {MF_BR_XC, MF_BR_YC, MF_BR_XN,
                                       MF_BR_YN};
            static const int sh[2] = {MF_BR_XC, MF_BR_XN};
            for (int r = 0; r < nr; r++) {
                mf_bdd_blk *b = &sp->blk[(size_t)s * MF_BR__N +
                                         (shared ? sh[r] : own[r])];
                b->nbits = nbits;
                b->nvals = nvals;
                b->vals = mf_xmalloc((size_t)nvals * sizeof *b->vals);
                memcpy(b->vals, vals, (size_t)nvals * sizeof *b->vals);
                b->var = mf_xcalloc((size_t)(nbits ? nbits : 1),
                                    sizeof *b->var);
                for (int q = 0; q < nbits; q++)
                    b->var[q] = nv + q * nr + r;
            }
            nv += nr * nbits;
            sp->bits += nbits;
        }
        free(vals);
    }
    sp->nvars = nv;
    if (rc < 0)
        return rc;
    if (bdd_varnum() < nv && bdd_setvarnum(nv) < 0)
        return mf_err_set(MF_ELIMIT, "BDDs: %d variables", nv);
    MF_VEC(int) cur = {0}, nxt = {0}, xn = {0}, yn = {0}, xc = {0}, yc = {0};
    sp->x2y = bdd_newpair();
    sp->xc2yc = bdd_newpair();
    sp->xn2yn = bdd_newpair();
    sp->eq_c = bdd_addref(bddtrue);
    sp->eq_n = bdd_addref(bddtrue);
    sp->n2c = bdd_newpair();
    sp->c2n = bdd_newpair();
    for (int s = 0; s < n; s++) {
        const mf_bdd_blk *b[4];
        for (int r = 0; r < 4; r++)
            b[r] = mf_bdd_blk_of(sp, s, r);
        for (int q = 0; q < b[0]->nbits; q++) {
            int vxc = b[MF_BR_XC]->var[q], vyc = b[MF_BR_YC]->var[q];
            int vxn = b[MF_BR_XN]->var[q], vyn = b[MF_BR_YN]->var[q];
            MF_VEC_PUSH(cur, vxc);
            MF_VEC_PUSH(nxt, vxn);
            bdd_setpair(sp->n2c, vxn, vxc);
            bdd_setpair(sp->c2n, vxc, vxn);
            if (!sp->shared[s]) {
                MF_VEC_PUSH(cur, vyc);
                MF_VEC_PUSH(nxt, vyn);
                MF_VEC_PUSH(xn, vxn);
                MF_VEC_PUSH(yn, vyn);
                MF_VEC_PUSH(xc, vxc);
                MF_VEC_PUSH(yc, vyc);
                bdd_setpair(sp->x2y, vxc, vyc);
                bdd_setpair(sp->x2y, vxn, vyn);
                bdd_setpair(sp->xc2yc, vxc, vyc);
                bdd_setpair(sp->xn2yn, vxn, vyn);
                BDD o = sp->eq_c;
                sp->eq_c = bdd_addref(bdd_and(
                    o, bdd_biimp(bdd_ithvar(vxc), bdd_ithvar(vyc))));
                bdd_delref(o);
                o = sp->eq_n;
                sp->eq_n = bdd_addref(bdd_and(
                    o, bdd_biimp(bdd_ithvar(vxn), bdd_ithvar(vyn))));
                bdd_delref(o);
                bdd_setpair(sp->n2c, vyn, vyc);
                bdd_setpair(sp->c2n, vyc, vyn);
            }
        }
    }
    sp->cur = bdd_addref(bdd_makeset(cur.v, cur.n));
    sp->next = bdd_addref(bdd_makeset(nxt.v, nxt.n));
    sp->xn_own = bdd_addref(bdd_makeset(xn.v, xn.n));
    sp->yn_own = bdd_addref(bdd_makeset(yn.v, yn.n));
    sp->xc_own = bdd_addref(bdd_makeset(xc.v, xc.n));
    sp->yc_own = bdd_addref(bdd_makeset(yc.v, yc.n));
    MF_VEC_FREE(cur);
    MF_VEC_FREE(nxt);
    MF_VEC_FREE(xn);
    MF_VEC_FREE(yn);
    MF_VEC_FREE(xc);
    MF_VEC_FREE(yc);
    return 0;
}

void mf_bdd_space_free(mf_bdd_space *sp)
{
    int nn = sp->nslots ? sp->nslots : 1;
    if (sp->blk)
        for (int i = 0; i < nn * MF_BR__N; i++) {
            free(sp->blk[i].vals);
            free(sp->blk[i].var);
            if (sp->cells[i].n > 0)
                mf_vmap_free(&sp->cells[i]);
        }
    if (sp->x2y) {
        bdd_delref(sp->cur);
        bdd_delref(sp->next);
        bdd_delref(sp->xn_own);
        bdd_delref(sp->yn_own);
        bdd_delref(sp->xc_own);
        bdd_delref(sp->yc_own);
        bdd_freepair(sp->x2y);
        bdd_freepair(sp->xc2yc);
        bdd_freepair(sp->xn2yn);
        bdd_delref(sp->eq_c);
        bdd_delref(sp->eq_n);
        bdd_freepair(sp->n2c);
        bdd_freepair(sp->c2n);
    }
    free(sp->blk);
    free(sp->cells);
    free(sp->shared);
    free(sp->frozen);
    free(sp->ivar);
    memset(sp, 0, sizeof *sp);
}

