/* explore.h - an explicit-state explorer that decides the killability of a
 * mutant exactly, breadth-first over the reachable product of original and
 * mutant. It is the ground truth the Z3 engine is checked against: slow,
 * simple, and exact up to a state limit. It uses only the simulator's
 * enumeration (mf_sim_initial_each, mf_sim_next_each, mf_sim_observe), so
 * it agrees with the simulator by construction.
 *
 * Traces and tests. An input sequence of length n is an initial input i0
 * (values of the input VARs in state 0) and step inputs I0..I(n-1) (IVARs,
 * and input VARs for the next state). Input valuations are the cartesian
 * product of the input cells' domains (mf_type_domain), the initial ones over
 * the input VARs only. A run of a model over it gives observations
 * O0..On (mf_sim_observe of states 0..n), or stops with a refusal: no
 * initial state for i0, or no successor for some Ij.
 *
 * Behaviours. For a model S and an input sequence I of length n,
 *   W_S(I) = { O0..On : a run of S over I that does not refuse }.
 * I is a valid test input for the original M iff W_M(I) is non-empty (M
 * accepts I on some branch; tests never use inputs M refuses). For the mutant
 * M', a run that refuses at step j after observations w has the behaviour
 * w.REFUSED, which is never in W_M(I): refusing where the original accepts
 * is a difference.
 *
 * Definitions implemented (Fellner et al., "Mutation testing with
 * hyperproperties", Definitions 3 and 4, on length-n prefixes, with the
 * refusal rule above). Let B_M'(I) be the behaviours of M' over I (full
 * words and refusing words). For a valid test input I of length n:
 *   potential kill:  B_M'(I) is not a subset of W_M(I)
 *                    (some mutant behaviour no original behaviour matches);
 *   definite kill:   B_M'(I) and W_M(I) are disjoint
 *                    (no mutant behaviour matches any original behaviour).
 * The mutant is potentially (definitely) killable iff such an I exists; the
 * explorer reports the shortest n and one such I (the first in breadth-first
 * order: initial inputs, then step inputs, in product order with the first
 * input cell varying slowest). "Not killable" means the reachable product
 * was exhausted without a kill: exact, for every length. For deterministic
 * model and mutant both notions coincide with "the observables differ at
 * some step, or M' refuses an input M accepts".
 *
 * How. Potential: nodes (R, S, S') where R = the states of M after I
 * (any observations: validity), S and S' = the states of M and M' after I
 * consistent with one common observation word w. From a node, input i with
 * succ(R, i) non-empty kills if some state of S' refuses i or some successor
 * of S' shows an observation no successor of S shows; otherwise each common
 * observation o gives the node (succ(R,i), succ(S,i)|o, succ(S',i)|o).
 * Definite: nodes (R, K) with K the set of pairs (S_w, S'_w) over all common
 * words w; input i with succ(R, i) non-empty kills when the next K is empty.
 * Nodes are counted against max_states (MF_ELIMIT past it). */
#ifndef MF_EXPLORE_H
#define MF_EXPLORE_H

#include "model.h"
#include "sim.h"

enum {
    MF_EXPLORE_AUTO = 0,      /* potential, then definite if non-deterministic */
    MF_EXPLORE_POTENTIAL = 1, /* potential only */
    MF_EXPLORE_DEFINITE = 2,  /* definite only */
    MF_EXPLORE_INCLUDED = 3,  /* inclusion only (see `included` below) */
    MF_EXPLORE_JOINT = 4,     /* joint behaviours (see `joint` below) */
};

typedef enum {
    MF_XV_NONE = 0,   /* not decided (notion not asked for) */
    MF_XV_KILLED,     /* a killing input sequence exists (shortest found) */
    MF_XV_NOT_KILLABLE, /* product exhausted without a kill */
    MF_XV_LIMIT,      /* state, depth or work limit hit before a verdict */
    MF_XV_ERROR,      /* the simulator failed on a state (message in err) */
} mf_explore_verdict;

/* The verdict of one notion. */
typedef struct {
    mf_explore_verdict verdict;
    int length;          /* MF_XV_KILLED: shortest kill length */
    mf_input_seq *test;  /* MF_XV_KILLED: inputs (choices all 0), owned */
    long nodes;          /* product nodes explored */
    int depth;           /* deepest level fully explored */
    int cut;             /* MF_XV_LIMIT by max_depth alone: no kill of
                            length max_depth or less */
    int refusal;         /* MF_XV_KILLED, potential: the kill found is the
                            mutant refusing (some state of S' has no
                            successor); 0: an observation no original
                            behaviour shows */
    mf_val *mobs;        /* MF_XV_KILLED, potential: the mutant's
                            behaviour along test, (length + 1) vectors of
                            the observables (mf_sim_observe's order); with
                            refusal the last is zero. Owned */
} mf_explore_notion;

typedef struct {
    mf_explore_notion potential;
    mf_explore_notion definite;
    /* MF_EXPLORE_INCLUDED: is every behaviour of the original (every
     * observation word of a run that does not refuse) one of the mutant's
     * on the same inputs? MF_XV_NOT_KILLABLE: it is, so no test kills
     * definitely (a valid test has an original behaviour, which the
     * mutant shares); MF_XV_KILLED: an original word the mutant lacks was
     * found (test: its inputs), which decides nothing. */
    mf_explore_notion included;
    /* MF_EXPLORE_JOINT: does every test have an original and a mutant
     * behaviour with the same observations, by pairs of states (one of
     * each model) from which every input leads to such a pair again?
     * MF_XV_NOT_KILLABLE: yes, no definite kill at any length; KILLED
     * (no test): not shown this way, which decides nothing. Weaker than
     * inclusion, as costly as a potential exploration. */
    mf_explore_notion joint;
    /* 1 if every state explored had at most one initial state / successor
     * per input (only the explored part: a kill stops the search). */
    int orig_det, mut_det;
    /* In MF_EXPLORE_AUTO: 1 when both were deterministic on the explored
     * part and definite was copied from potential (notions coincide). */
    int det_shortcut;
    /* The mutant's successor computations: by the simulator, and taken
     * from the original's (see mf_explore_ctx_set_delta). */
    long mut_sim_steps, mut_delta_steps;
    char err[256]; /* MF_XV_ERROR / limit reason */
} mf_explore_result;

/* Decide mutant `mut` against original `orig` (same variables, inputs and
 * observables, as made by mf_mutant_apply or mf_model_replace_item).
 * notion: MF_EXPLORE_AUTO decides both notions (definite is skipped and set
 * to not killable when potential is; copied when both are deterministic on
 * the explored part), or one of them. max_states: product nodes per notion
 * (<= 0: 100000). max_depth: longest input sequence explored (<= 0: no
 * bound; reaching it without exhausting the product gives MF_XV_LIMIT).
 * Returns 0 when every asked notion got KILLED or NOT_KILLABLE, MF_ELIMIT if
 * one hit a limit, another negative code if the simulator failed (the
 * verdict is MF_XV_ERROR and err says why). *out is always filled; free it
 * with mf_explore_result_free. */
int mf_explore(mf_explore_result *out, const mf_model *orig,
               const mf_model *mut, int notion, long max_states,
               int max_depth);
void mf_explore_result_free(mf_explore_result *r); /* NULL-safe */

/* The same for many mutants of one original: the context keeps the
 * original's states, successors and subset steps across calls (the
 * original must outlive it). orig_det then covers everything explored in
 * the context so far. mf_explore is ctx_new + with + ctx_free. */
typedef struct explorer mf_explore_ctx;
mf_explore_ctx *mf_explore_ctx_new(const mf_model *orig);
int mf_explore_with(mf_explore_ctx *ctx, mf_explore_result *out,
                    const mf_model *mut, int notion, long max_states,
                    int max_depth);
void mf_explore_ctx_free(mf_explore_ctx *ctx); /* NULL-safe */

/* The mutant's steps through the original's (on by default): where the
 * mutant differs from the original in one next() assignment whose
 * right-hand sides read no next() value, its successors from a state the
 * original has reached, under an input where the two right-hand sides
 * have the same values, are the original's, memoised once in the context
 * for every mutant; likewise every step of a mutant of an init()
 * assignment or an INIT constraint. Verdicts, lengths and node counts are
 * those of the simulator's steps (off: for tests and measurements). */
void mf_explore_ctx_set_delta(mf_explore_ctx *ctx, int on);

/* A budget for the explorations of ctx instead of a node count: the
 * memory the context holds (the original's and the mutant's states and
 * steps, the product nodes), max_bytes (0: none), and the wall-clock time,
 * secs from now (0: none). Past either an exploration stops with
 * MF_XV_LIMIT. With a memory budget, max_states <= 0 in mf_explore_with
 * means no node count limit; a positive one still applies. */
void mf_explore_ctx_set_budget(mf_explore_ctx *ctx, size_t max_bytes,
                               double secs);

/* How the steps (successors, not initial states) of mut relate to those of
 * orig: MF_STEP_SAME, the same (they differ in init() assignments or INIT
 * constraints only, or not at all); MF_STEP_NEXT, they differ in one next()
 * assignment whose right-hand sides read no next() value, *item its index
 * (the same where the two have the same values); MF_STEP_DIFFERS, anything
 * else (other items, variables, types or observables). */
enum { MF_STEP_DIFFERS = 0, MF_STEP_NEXT = 1, MF_STEP_SAME = 2 };
int mf_explore_step_delta(const mf_model *orig, const mf_model *mut,
                          int *item);
/* For MF_STEP_NEXT: 1 if the right-hand sides of `item` have the same
 * values in orig and mut from state cur under input inp (then the step
 * is the same), 0 if not or if either cannot be evaluated. vals: two
 * scratch buffers, the caller's to free. */
int mf_explore_step_agrees(const mf_model *orig, const mf_model *mut,
                           int item, const mf_val *cur, const mf_val *inp,
                           mf_valset vals[2]);

/* "killed", "not-killable", "limit", "error", "-". */
const char *mf_explore_verdict_name(mf_explore_verdict v);

/* Print the test's inputs one step a line in the input-file syntax of
 * mf_input_seq_parse ("init: x=1" when there are input VARs, then
 * "inp=req" ...). */
void mf_explore_print_test(mf_buf *out, const mf_model *m,
                           const mf_input_seq *test);

#endif
