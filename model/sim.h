/* sim.h - the simulator and the expression evaluator: runs a model (the
 * original or a mutant) on an input sequence and reports its observables per
 * step and its refusals. It is the referee of every kill: a test found by the
 * Z3 engine is replayed here on original and mutant.
 *
 * A state is an array of m->nslots values (mf_var.slot/nslots). An input
 * valuation is also a full state-sized array in which only the input
 * variables' slots are read: IVARs give their value for this step, input
 * VARs their value in the next state (in the initial input: in state 0).
 *
 * Non-determinism is resolved by a choice index: the successors of a state
 * under an input (and the initial states under the initial input) are
 * enumerated in a fixed order (variables in slot order, each variable's
 * candidate values ascending, the first slot varying slowest), keeping only
 * those that satisfy every constraint; choice k picks the k-th. An empty set
 * is a refusal. */
#ifndef MF_SIM_H
#define MF_SIM_H

#include "model.h"

/* One binary operator of integers, booleans (0/1) or symbols on two values,
 * as the simulator applies it (not the word operators, model/word.c):
 * 0 and *r; 1 if undefined (division by zero); -1 with *why ("integer
 * overflow": past the symbols' codes; "unknown operator"). */
int mf_eval_binop(int op, mf_val a, mf_val b, mf_val *r, const char **why);

/* Evaluate expression e in the context (cur, next, inp) to the set of its
 * possible values (sets, ranges and case values make it non-deterministic).
 * `next` may be NULL where next() is not allowed. Values are appended to
 * *out (deduplicated, ascending). A case with no true branch, an index out of
 * bounds or a division by zero gives the empty set. MF_ELIMIT if the set
 * grows past `limit` values. */
typedef MF_VEC(mf_val) mf_valset;
int mf_eval(mf_valset *out, const mf_model *m, const mf_expr *e,
            const mf_val *cur, const mf_val *next, const mf_val *inp,
            int limit);

/* Callback for each state of an enumeration; return non-zero to stop. */
typedef int (*mf_state_fn)(const mf_val *state, void *ctx);

/* Enumerate the initial states under initial input `inp` (input VARs' slots
 * give their state-0 values; NULL: every allowed value is enumerated as if
 * chosen by the model). Returns the number of states enumerated (>= 0), or a
 * negative code; stops early when fn returns non-zero. At most `limit`
 * candidate assignments are tried (MF_ELIMIT past it). */
int mf_sim_initial_each(const mf_model *m, const mf_val *inp, mf_state_fn fn,
                        void *ctx, long limit);
/* Enumerate the successors of `cur` under input `inp` the same way. */
int mf_sim_next_each(const mf_model *m, const mf_val *cur, const mf_val *inp,
                     mf_state_fn fn, void *ctx, long limit);

/* The choice-th initial state / successor into out (m->nslots values).
 * MF_EREFUSED if there is none at all, MF_ENOTFOUND if there are fewer than
 * choice+1 (message says how many). */
int mf_sim_initial(mf_val *out, const mf_model *m, const mf_val *inp,
                   int choice);
int mf_sim_step(mf_val *out, const mf_model *m, const mf_val *cur,
                const mf_val *inp, int choice);

/* The observables of a state, in order: observed VARs (every slot), then
 * observed DEFINEs. Returns the count written (at most max). */
int mf_sim_observe(mf_val *out, int max, const mf_model *m,
                   const mf_val *state);

/* An input sequence as read from a file (see docs/semantics.md):
 *   # comment
 *   init: x=1, b=TRUE      optional, the initial input VARs
 *   inp=req                one line a step: input=value, comma separated
 *   inp=req @1             "@k": take the k-th successor (default 0)
 * Inputs left out keep their previous value (IVARs start at the first
 * value of their domain). Parse errors: "file:line:col: error: ...". */
typedef struct {
    int nsteps;
    mf_val *init;   /* m->nslots values */
    int init_choice;
    mf_val *steps;  /* nsteps * m->nslots values */
    int *choices;   /* nsteps */
} mf_input_seq;
int mf_input_seq_parse(mf_input_seq **out, const mf_model *m,
                       const char *file, const char *text, size_t len);
void mf_input_seq_free(mf_input_seq *s); /* NULL-safe */

/* Run the sequence and print the trace ("step 0: out=eps, wtr=2" ...,
 * "step 3: refused: ..." ) to out. Returns 0, or MF_EREFUSED if the model
 * refused at some step (the trace up to there is printed). */
int mf_sim_run(mf_buf *out, const mf_model *m, const mf_input_seq *seq);
/* The same, also listing before each state every initial state / successor
 * the model allows there ("    @k: ..."), at most `cap` of them (0: none,
 * which is mf_sim_run). */
int mf_sim_run_all(mf_buf *out, const mf_model *m, const mf_input_seq *seq,
                   int cap);

#endif
