/* rerun_cone.h - which verdicts an edit of the model cannot touch
 * (docs/nightly.md, "Verdicts the edit cannot touch"): the earlier and the
 * edited model compared item by item, and for each mutant of the edited
 * model whether its earlier `equivalent` or `survived` verdict (same
 * options, same mutant id) still holds, decided from the models' items
 * alone, without a search or the solver.
 *
 * Nodes are variables and DEFINEs, matched by name between the two
 * models. A node is edited when it is in one model only or differs in
 * its declaration (kind, type, input or observed) or in any of its items
 * (printed canonically). A verdict is carried when the edit lies outside
 * one of two cones, in both models and in both mutants:
 *   - the observed cone: everything the observables and the INIT, TRANS
 *     and INVAR constraints read, through any chain of items; or
 *   - the mutant's cone: the mutated node, every node that reads it, and
 *     everything those and the constraints read, when every node in it is
 *     structurally deterministic (its value a function of the inputs);
 * or when the touched part (the edited nodes and all that read them)
 * holds not the mutated node and reads, outside itself, only inputs,
 * observed variables and DEFINEs of such (what a test sees);
 * and when, besides, the edited nodes and every node that reads them can
 * never refuse a step (their assignments are total in both models), the
 * constraints are the same, both models are structurally deterministic
 * or both are not, and the mutated item is the same item (the mutant's
 * node is not edited). Why each way is sound: docs/nightly.md.
 *
 * It reads models only; the store and the planning are rerun.c's. */
#ifndef MF_RERUN_CONE_H
#define MF_RERUN_CONE_H

#include "model.h"
#include "mutate.h"

typedef struct mf_edit mf_edit;

/* The way a verdict is carried (mf_edit_carries). */
typedef enum {
    MF_CARRY_NONE,     /* not shown: the mutant goes to the solver */
    MF_CARRY_OBSERVED, /* the edit is outside the observed cone */
    MF_CARRY_MUTANT,   /* the edit is outside the mutant's deterministic
                          cone */
    MF_CARRY_SHOWN,    /* the edit reads only what the observables show,
                          and the mutation is outside it */
} mf_carry_way;

/* Compare the earlier model `old` with the edited model `cur` (both
 * loaded with the same --inputs and --observe; both must outlive *out).
 * Never fails: *out says for each mutant whether its verdict carries. */
void mf_edit_new(mf_edit **out, const mf_model *old, const mf_model *cur);
void mf_edit_free(mf_edit *e); /* NULL-safe */

/* How many nodes the edit changed (0: the models differ in nothing a
 * verdict reads, only in layout or specs), and whether any verdict can be
 * carried at all (0: the constraints differ, an edited assignment may
 * refuse a step, or the structural determinism changed). */
int mf_edit_nchanged(const mf_edit *e);
int mf_edit_any(const mf_edit *e);

/* Whether mutant mu of the edited model keeps the verdict its id had in
 * the earlier campaign (same options), and by which way. */
mf_carry_way mf_edit_carries(mf_edit *e, const mf_mutant *mu);

/* The way as the text verdicts.method quotes ("the edit is outside ..."). */
const char *mf_carry_way_text(mf_carry_way w);

#endif
