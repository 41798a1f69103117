/* dominators_text.c - dominator mutants as text (dominators.h): the
 * section of the text report and the listing of `mutfarm dominators`,
 * one printer for both. It computes nothing (dominators.c does) and
 * parses nothing back. */
#include "dominators_text.h"

#include <stdlib.h>
#include <string.h>

#include "mf.h"

static void pct(char *buf, size_t n, double score)
{
    if (score < 0)
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * score);
}

void mf_dominators_print_summary(FILE *out, const mf_dominators *d)
{
    char ds[16], ms[16];
    fputs("\ndominator mutants: a mutant's kill set is the tests that kill "
          "it in the kill\nmatrix; mutants with the same kill set form a "
          "class (the suite cannot tell\nthem apart); a class is redundant "
          "when another class's kill set is a proper\nsubset of its own "
          "(every test that kills that one kills this one). The\n"
          "dominator classes are the others: one mutant of each is a "
          "smallest set of\nmutants whose kills imply every kill.\n",
          out);
    if (!d->full) {
        fputs("  (the kill matrix is not full: run 'mutfarm matrix' for "
              "dominators)\n",
              out);
        return;
    }
    fprintf(out,
            "  %lld killed mutants in %d classes: %d dominator classes "
            "(%lld mutants), %d\n  redundant classes (%lld mutants); %lld "
            "mutants unkilled, %lld equivalent left out\n",
            (long long)d->killed, d->nclasses, d->ndominators,
            (long long)d->dominator_mutants, d->nclasses - d->ndominators,
            (long long)(d->killed - d->dominator_mutants),
            (long long)d->unkilled, (long long)d->equivalent);
    fprintf(out, "  minimal dominator set: %d mutants\n", d->ndominators);
    pct(ds, sizeof ds, mf_dominators_score(d));
    pct(ms, sizeof ms, mf_dominators_mutation_score(d));
    fprintf(out,
            "  dominator score: %7s  dominator classes / (dominator classes "
            "+ unkilled) = %d / %lld\n",
            ds, d->ndominators,
            (long long)(d->ndominators + d->unkilled));
    fprintf(out,
            "  mutation score:  %7s  killed / (killed + unkilled) = %lld / "
            "%lld\n",
            ms, (long long)d->killed, (long long)(d->killed + d->unkilled));
    fputs("  (an unkilled mutant counts as a dominator of its own: no test "
          "shows what\n   subsumes it)\n",
          out);
    if (d->nops == 0)
        return;
    fputs("  per operator: its killed mutants, how many are in dominator "
          "classes, and the\n  dominator classes of its mutants alone "
          "(lost without the operator):\n",
          out);
    fprintf(out, "    %-20s %7s %10s %7s\n", "operator", "killed",
            "dominators", "alone");
    for (int i = 0; i < d->nops; i++)
        fprintf(out, "    %-20s %7lld %10lld %7lld\n", d->ops[i].name,
                (long long)d->ops[i].killed,
                (long long)d->ops[i].dominators, (long long)d->ops[i].own);
}

void mf_dominators_print_classes(FILE *out, const mf_dominators *d)
{
    /* The mutants of each class, in planning order. */
    int *next = mf_xcalloc((size_t)d->nmutants + 1, sizeof *next);
    int *head = mf_xcalloc((size_t)d->nclasses + 1, sizeof *head);
    int *tail = mf_xcalloc((size_t)d->nclasses + 1, sizeof *tail);
    for (int c = 0; c < d->nclasses; c++)
        head[c] = tail[c] = -1;
    for (int i = 0; i < d->nmutants; i++) {
        int c = d->mutants[i].cls;
        next[i] = -1;
        if (c < 0)
            continue;
        if (tail[c] < 0)
            head[c] = i;
        else
            next[tail[c]] = i;
        tail[c] = i;
    }
    fputs("\nclasses (D: dominator, R: redundant, with a dominator class "
          "that subsumes it):\n",
          out);
    for (int c = 0; c < d->nclasses; c++) {
        const mf_dominators_class *k = &d->classes[c];
        if (k->dominator)
            fprintf(out, "  D%d  killed by %d test%s:", k->rank, k->size,
                    k->size == 1 ? "" : "s");
        else
            fprintf(out, "  R%d  killed by %d tests, subsumed by D%d:",
                    k->rank, k->size, d->classes[k->by].rank);
        for (int i = head[c]; i >= 0; i = next[i])
            fprintf(out, " %s (%s)", d->mutants[i].id,
                    d->ops[d->mutants[i].op].name);
        fputs("\n", out);
    }
    int first = 1;
    for (int i = 0; i < d->nmutants; i++)
        if (d->mutants[i].cls < 0) {
            fputs(first ? "  unkilled:" : "", out);
            fprintf(out, " %s (%s)", d->mutants[i].id,
                    d->ops[d->mutants[i].op].name);
            first = 0;
        }
    if (!first)
        fputs("\n", out);
    free(next);
    free(head);
    free(tail);
}
