/* tae_witness.h - a timed test for the path of a kill found by the zone
 * product (tae_refine.h): Z3 over linear real arithmetic chooses the
 * delays of the path, clock values being sums of delays since the last
 * reset, with the simplest denominators first (whole numbers, then
 * halves, quarters, tenths, ..., then any rational). The test is not
 * trusted: tae_sim_confirm replays it. */
#ifndef MF_TAE_WITNESS_H
#define MF_TAE_WITNESS_H

#include "tae_sim.h"

/* 0 and *out (free with tae_test_free); MF_ENOTFOUND when no delays make
 * the path (the zones said they exist: a bug), MF_ERROR on a Z3 error or
 * timeout (message set). */
int tae_witness(tae_test *out, const tae_aut *o, const tae_aut *m,
                const tae_refine_res *r, unsigned timeout_ms);

#endif
