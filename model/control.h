/* control.h - controllable non-determinism (Fellner et al., "Mutation
 * testing with hyperproperties", sections 5.1 and 5.2): every choice a
 * model makes through a set in an assignment's value becomes an input the
 * tester sets, so original and mutant make it the same way.
 *
 * In init(x), next(x) or x := e, every set, range or union that is e or a
 * branch value of its (nested) case becomes
 *     case nd in S : nd; TRUE : first(S); esac
 * (membership spelt out as equalities and bounds, so that the result is
 * structurally deterministic where those were its only choices) with nd a new input of x's type (an IVAR, the step's input, for next(); an
 * input VAR of the state for init() and invariant assignments). Every value of nd gives
 * a behaviour of the model (one outside S takes S's first element), and
 * every behaviour has its values of nd; so a mutant whose controllable
 * counterpart has no behaviour its original's counterpart lacks has none
 * the original lacks: equivalent (the paper's Proposition 9, 3). A kill of
 * the counterparts assumes the tester controls those choices. Sets in
 * conditions, DEFINEs and constraints stay choices. */
#ifndef MF_CONTROL_H
#define MF_CONTROL_H

#include "model.h"

typedef struct mf_control mf_control;

/* The counterpart of m, with room for the replacements alts[0..nalt) of
 * items alt_item[] (NULL: a removal) that mf_control_item will be asked
 * for: item i gets as many inputs as the most sets of m's item i and of
 * its replacements. 0 and *out; a negative code and nothing made. */
int mf_control_new(mf_control **out, const mf_model *m, int nalt,
                   const int *alt_item, const mf_item *const *alts);
void mf_control_free(mf_control *c); /* NULL-safe */

/* The controllable model (owned by c; its items have m's indices). */
const mf_model *mf_control_model(const mf_control *c);
/* How many choices became inputs. */
int mf_control_ninputs(const mf_control *c);

/* A replacement src of item `item` of m made controllable like the rest,
 * in c's model's terms; nodes from c's own arena. src NULL (a removal):
 * NULL. An item whose result does not type check is kept as it is. */
const mf_item *mf_control_item(mf_control *c, int item, const mf_item *src);

#endif
