/* encode.h - the bounded Z3 encoding of a flattened model (worker-internal;
 * only worker/ includes z3.h).
 *
 * A model is unrolled state by state. State k is an array of m->nslots Z3
 * value terms (signed bit-vectors of one width per batch, or Ints); input cells (IVARs, input VARs) come from a shared input
 * table so that several copies (original, meta-mutant, verification copies)
 * read the same inputs. Values: booleans 0/1, integers themselves,
 * symbolic constant MF_SYM(i) is a code above every integer any expression
 * can take (MF_ENC_SYMOFF + i with Ints), so the order of mf_val is kept.
 *
 * Expressions denote sets (eval.c): every set-valued node (a set, a range,
 * a union, a free variable) becomes a fresh "choice" constant, existential in
 * the solver, and every term carries a definedness condition (a case with no
 * true branch, a division by zero, an index out of bounds are undefined).
 * ok[k] is the condition that state k is an initial state (k = 0) or a
 * successor of state k-1 under the inputs of state k: definedness of every
 * source, constraints (INIT/TRANS/INVAR, invariant assignments), domains.
 *
 * The meta-mutant: a copy built with `meta` reads, for every item replaced
 * by some mutant of the batch, `ite(mid = j, mutant j's item, ...)` where
 * `mid` is an integer selector; mutant j is selected by the assumption
 * literal sel[j] (sel[j] -> mid = j is asserted in every solver that uses a
 * meta copy). */
#ifndef MF_ENCODE_H
#define MF_ENCODE_H

#include <z3.h>

#include "model.h"

#define MF_ENC_SYMOFF ((int64_t)1 << 33)

/* A mutant as the encoder sees it: item `item` replaced by `repl`, or
 * removed when repl is NULL. */
typedef struct {
    int item;
    const mf_item *repl;
} mf_variant;

typedef struct mf_enc mf_enc;
typedef struct mf_inputs mf_inputs;
typedef struct mf_unroll mf_unroll;

/* How values are encoded: MF_ENC_AUTO picks bit-vectors wide enough for
 * every value an expression can take (interval analysis), else Int. */
enum { MF_ENC_AUTO = 0, MF_ENC_INT = 1, MF_ENC_BV = 2 };

/* Shared per (context, model, batch). `muts` is copied (the items are not:
 * they must outlive the encoder). `also`: another model whose encoder must
 * use the same sort (--against), or NULL. */
mf_enc *mf_enc_new(Z3_context ctx, const mf_model *m, const mf_variant *muts,
                   int nmut, const mf_model *also, int encoding);
void mf_enc_free(mf_enc *E);
Z3_context mf_enc_ctx(const mf_enc *E);
/* Width of the bit-vector values, 0 when values are Ints. */
int mf_enc_bits(const mf_enc *E);
const mf_model *mf_enc_model(const mf_enc *E);
/* Keep a term alive for the encoder's lifetime and return it. */
Z3_ast mf_enc_keep(mf_enc *E, Z3_ast a);
/* The assumption literal selecting mutant j of the batch. */
Z3_ast mf_enc_sel(mf_enc *E, int j);
/* Assert sel[j] -> mid = j for every j into s (once per solver). */
void mf_enc_assert_sels(mf_enc *E, Z3_solver s);
/* Non-zero if a construct could not be encoded faithfully (the message is
 * in mf_err_msg() at the time it was hit, copied here). */
const char *mf_enc_unsupported(const mf_enc *E);

/* Value conversions. */
Z3_ast mf_enc_val(mf_enc *E, mf_val v);
/* The value of term t in model mdl (0 if it has none). */
mf_val mf_enc_eval(mf_enc *E, Z3_model mdl, Z3_ast t);
/* The value of observable term t in model mdl, MF_VAL_UNDEF for the code
 * of an undefined observable (as the simulator observes it). */
mf_val mf_enc_eval_obs(mf_enc *E, Z3_model mdl, Z3_ast t);

/* A table of input constants, state by state, named by `tag`; the domain of
 * each input is asserted into s when the state is created. */
mf_inputs *mf_inputs_new(mf_enc *E, Z3_solver s, const char *tag);
void mf_inputs_free(mf_inputs *in);
/* Input cell terms of state k (NULL for non-input slots); creates states up
 * to k on demand. */
Z3_ast *mf_inputs_state(mf_inputs *in, int k);

/* A copy of the model unrolled into solver s. meta: read the batch's
 * variants. hard_ok: assert ok[k] (else ok[k] is a named Boolean constant
 * equivalent to the condition). state0: NULL to start from the initial
 * states, else the nslots terms of an arbitrary state 0 (then ok[0] is the
 * domain and the state invariants of that state). */
mf_unroll *mf_unroll_new(mf_enc *E, Z3_solver s, const char *tag, int meta,
                         mf_inputs *in, int hard_ok, Z3_ast *state0);
void mf_unroll_free(mf_unroll *u);
/* State k of u reads the inputs of state k + off of its table (before
 * anything is built): a copy that starts from state off - 1 of another
 * copy (state0) and takes its step under that copy's inputs. */
void mf_unroll_shift_inputs(mf_unroll *u, int off);
/* Build states up to k (inclusive). */
void mf_unroll_extend(mf_unroll *u, int k);
int mf_unroll_depth(const mf_unroll *u);
Z3_ast *mf_unroll_state(mf_unroll *u, int k);
Z3_ast mf_unroll_ok(mf_unroll *u, int k);
/* Observable terms of state k: nobs of them (mf_enc_nobs). */
Z3_ast *mf_unroll_obs(mf_unroll *u, int k);
int mf_enc_nobs(const mf_enc *E);
/* Choice constants created while building state k (in creation order, the
 * same order in every copy of the same kind). */
Z3_ast *mf_unroll_choices(mf_unroll *u, int k, int *n);
/* Per choice of state k: the slot whose new value it is on some branch
 * (a free variable's value, a set in an assignment's value), else -1. */
const int *mf_unroll_choice_slots(mf_unroll *u, int k);

/* Terms shared by the engines (the refinement engine and quant.c), each
 * kept alive by E:
 * a conjunction (true when n is 0), a negation, an equality; the
 * observables of two states equal; ok[from..to] of u (true when empty);
 * the observables of a and b equal at every state 0..to. */
Z3_ast mf_enc_and(mf_enc *E, int n, Z3_ast *a);
Z3_ast mf_enc_not(mf_enc *E, Z3_ast a);
Z3_ast mf_enc_eq(mf_enc *E, Z3_ast a, Z3_ast b);
Z3_ast mf_enc_obs_eq(mf_enc *E, Z3_ast *a, Z3_ast *b);
Z3_ast mf_enc_all_ok(mf_enc *E, mf_unroll *u, int from, int to);
Z3_ast mf_enc_all_obs_eq(mf_enc *E, mf_unroll *a, mf_unroll *b, int to);

/* Fresh arbitrary state: nslots constants (input cells included). */
Z3_ast *mf_enc_fresh_state(mf_enc *E, const char *tag);

/* Structural determinism of m (items as in m): no set-valued expression, no
 * free non-input variable. 1 deterministic, 0 not. */
int mf_model_structurally_det(const mf_model *m);

#endif
