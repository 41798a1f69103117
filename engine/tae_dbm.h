/* ta_dbm.h - difference bound matrices: the zones of the timed engine's
 * complete check. A DBM of dimension d is d*d bounds, entry [i*d+j] the
 * bound on x_i - x_j (clock 0 is zero). Functions keep DBMs canonical
 * (shortest paths closed) and report emptiness; none allocates but
 * tae_dbm_new. No Z3 here. */
#ifndef MF_TAE_DBM_H
#define MF_TAE_DBM_H

#include "tae_aut.h"

/* A fresh DBM of dimension d with every clock at zero; the caller frees. */
tae_bound *tae_dbm_new(int d);
void tae_dbm_copy(tae_bound *dst, const tae_bound *src, int d);
/* Closed under shortest paths; returns 0 when empty. */
int tae_dbm_close(tae_bound *z, int d);
/* Intersect with x_i - x_j (b), keeping it canonical; 0 when empty. */
int tae_dbm_and(tae_bound *z, int d, int i, int j, tae_bound b);
/* Intersect with every atom of c, clock indices shifted by off (0 for
 * the original's clocks, its clock count for the mutant's); 0 if empty. */
int tae_dbm_and_conj(tae_bound *z, int d, const tae_conj *c, int off);
/* Time elapse: upper bounds of the clocks removed. */
void tae_dbm_up(tae_bound *z, int d);
/* Clock x set to the constant v (>= 0). */
void tae_dbm_reset(tae_bound *z, int d, int x, int64_t v);
/* 1 when a is included in b. */
int tae_dbm_leq(const tae_bound *a, const tae_bound *b, int d);
/* Extrapolation by the largest constants m[0..d) (m[0] = 0): bounds above
 * m[i] become infinite, lower bounds below -m[j] become < -m[j]. */
void tae_dbm_extra(tae_bound *z, int d, const int64_t *m);
/* 1 when z minus the union of the zones of conjunctions cs[0..n)
 * (each shifted by off) is non-empty; z unchanged. */
int tae_dbm_minus_nonempty(const tae_bound *z, int d, const tae_conj *const *cs,
                          int n, int off);
/* A hash of z's bytes. */
uint64_t tae_dbm_hash(const tae_bound *z, int d);

#endif
