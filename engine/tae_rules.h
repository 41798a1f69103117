/* tae_rules.h - the 12 rules ("commandments") of the timed-mutation paper
 * (docs/timed.md, "The 12 rules"): syntactic conditions on the original
 * and one mutation under which the mutant is subsumed by construction, so
 * that it need not be generated. Rule 1 (the model is not redundant) is a
 * condition on the model, not a rule that prunes; rule 7 permits. A
 * caller enumerating mutants (ta_mutants_each) asks before applying one.
 * The rules read the template level and the flattened copy of the
 * changed template; no semantics here (the complete check of tae_check.h
 * confirms them in the tests). */
#ifndef MF_TAE_RULES_H
#define MF_TAE_RULES_H

#include "ta.h"

#define TAE_NRULES 12

/* The rule (2..12) that prunes mu on n, or 0 when none applies. */
int tae_rule_of(const ta_net *n, const ta_mutant *mu);
/* One line: the rule as the paper words it. */
const char *tae_rule_text(int rule);

#endif
