/* dominators_text.h - dominator mutants printed for a person: the
 * summary the text report and `mutfarm dominators` share, and the
 * command's listing of every class. Writes to out; computes nothing. */
#ifndef MF_DOMINATORS_TEXT_H
#define MF_DOMINATORS_TEXT_H

#include <stdio.h>

#include "dominators.h"

/* The counts, the dominator score beside the mutation score on the same
 * mutants, and per operator its killed mutants, how many are in dominator
 * classes and the dominator classes of its mutants alone; one line in
 * their place when the kill matrix is not full. */
void mf_dominators_print_summary(FILE *out, const mf_dominators *d);

/* Every class, dominators first ("D1", ... then "R1", ... each with a
 * dominator class that subsumes it), with its mutants as "ID (operator)",
 * then the unkilled mutants. */
void mf_dominators_print_classes(FILE *out, const mf_dominators *d);

#endif
