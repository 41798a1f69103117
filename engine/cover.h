/* cover.h - the exact minimum set cover of the minimisation
 * (docs/minimisation.md), with Z3's Optimize: the fewest tests that cover
 * every element, and among those the smallest total length. No Z3 type
 * leaks out of this header.
 *
 * It knows nothing of tests, mutants or the store: sets are indices with
 * costs, elements are lists of the sets that cover them. */
#ifndef MF_COVER_H
#define MF_COVER_H

typedef struct {
    int nsets;
    const int *cost;    /* per set, >= 0: its length */
    int nelems;
    const int *start;   /* element e is covered by sets
                           by[start[e] .. start[e + 1]) */
    const int *by;
} mf_cover_problem;

/* Choose sets covering every element: first the fewest sets, then the
 * least total cost (lexicographic), within timeout_ms (0: none). On 0,
 * chosen[s] (nsets of them, the caller's) says which; *optimal is 1 when
 * Z3 proved both minima, which it always does on 0 today. MF_ELIMIT when
 * the timeout (or Z3's resources) ran out first, with Z3's reason in
 * mf_err_msg(); MF_ERROR for an element no set covers or a Z3 failure.
 * chosen is unspecified on failure. */
int mf_cover_exact(int *chosen, int *optimal, const mf_cover_problem *p,
                   unsigned timeout_ms);

#endif
