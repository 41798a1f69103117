/* cutoff.h - the farm server's tally of refused results per worker
 * (docs/security.md): a worker whose results fail verification
 * MF_CUTOFF_AFTER times is cut off, its id and its CURVE key (where there
 * is one) remembered, and the server ignores what either sends from then
 * on. It does not verify anything (each kind of work checks its own
 * results, farm/kind.h) and touches neither the store nor the socket. */
#ifndef MF_CUTOFF_H
#define MF_CUTOFF_H

/* Refused results after which a worker is cut off. */
#define MF_CUTOFF_AFTER 3

typedef struct mf_cutoff mf_cutoff;

mf_cutoff *mf_cutoff_new(void);     /* never NULL */
void mf_cutoff_free(mf_cutoff *c);  /* NULL-safe */

/* Count a refused result of worker `id` (key: the Z85 CURVE key of its
 * connection, or NULL). Returns the worker's refusals so far; at
 * MF_CUTOFF_AFTER it is cut off from then on. */
int mf_cutoff_refused(mf_cutoff *c, const char *id, const char *key);

/* 1 if a worker with this id (or NULL) or this key (or NULL) is cut off:
 * its messages are to be ignored. NULL-safe (0). */
int mf_cutoff_is_cut(const mf_cutoff *c, const char *id, const char *key);

/* Refusals counted so far, of every worker (for logs and tests). */
long mf_cutoff_count(const mf_cutoff *c);

#endif
