/* ta_mut.h - what the mutation files of ta/ share: the enumeration's
 * context (mutate.c) and the operators (mutate_ops.c), the canonical
 * texts of items, and a mutant applied to the raw model
 * (mutant_apply.c) for building and printing it back. */
#ifndef MF_TA_MUT_H
#define MF_TA_MUT_H

#include "ta_int.h"

typedef struct ta_mut_ctx ta_mut_ctx;

/* An enumeration's context: mutants of n for mask (0: all) go to fn;
 * freeing it returns fn's non-zero return that stopped it, or 0. */
ta_mut_ctx *ta_mut_ctx_new(const ta_net *n, unsigned mask, ta_mutant_fn fn,
                           void *ctx);
int ta_mut_ctx_free(ta_mut_ctx *c);
int ta_mut_stopped(const ta_mut_ctx *c);
/* The current mutant's scratch: its arena (items) and texts, reset after
 * each ta_mut_emit. */
mf_arena *ta_mut_arena(ta_mut_ctx *c);
mf_buf *ta_mut_site(ta_mut_ctx *c);
mf_buf *ta_mut_repl(ta_mut_ctx *c);
mf_buf *ta_mut_desc(ta_mut_ctx *c);
const ta_net *ta_mut_net(ta_mut_ctx *c);
/* Classifies mu (op, kind, tmpl, item, new items and pos set; site, repl
 * and desc in the context's buffers) and passes it on; why: a stillborn
 * mutant's reason, else NULL. Non-zero: stop. */
int ta_mut_emit(ta_mut_ctx *c, ta_mutant *mu, const char *why);
/* The mutants of operator op on template t (mutate_ops.c). */
void ta_mut_op(ta_mut_ctx *c, int t, int op);

/* Canonical texts. */
const char *ta_loc_label(const ta_tmpl *t, int i);
void ta_edge_site(mf_buf *b, const ta_tmpl *t, int k);
void ta_print_sync(mf_buf *b, const ta_sync *s);
void ta_print_updates(mf_buf *b, const ta_edge *e);
void ta_print_edge_item(mf_buf *b, const ta_tmpl *t, const ta_edge *e);

/* A copy of the raw model of n (in arena a) with mu's change made: the
 * texts of the changed labels printed from the mutated item. */
ta_raw *ta_raw_mutate(mf_arena *a, const ta_net *n, const ta_mutant *mu);

#endif
