/* mutation.h - the mcy mutations of a design, as yosys's `mutate -list`
 * gives them, made into the rows of a translation's mutation table: the
 * command that applies one (for `mutate -ctrl`), a stable id, the Verilog
 * file:line:col and a description a hardware engineer reads.
 *
 * The id is mf_mutant_id(mode, site, repl) (lang.h's formula): the site is
 * the module, the cell's kind (yosys's cell name without its numbers and
 * source line), the port and bit, the Verilog text the src attribute
 * points at, and which occurrence of all that this is; repl is the control
 * bit or the replacing wire. No line number and no yosys list index enter
 * it, so an edit elsewhere in the design leaves the id unchanged. */
#ifndef MF_VMUTATION_H
#define MF_VMUTATION_H

#include "translate.h"

/* yosys's mutation modes: the operators of the Verilog language, in the
 * order of their numbers (never renumber; append only). */
#define MF_VMUT_NOPS 6
extern const char *const mf_vmut_op_names[MF_VMUT_NOPS];

typedef struct {
    char *cmd;      /* "-mode inv -module m -cell c -port A -portbit 0" */
    char mode[8];   /* one of mf_vmut_op_names */
    char id[17];
    char file[128]; /* "" when yosys gave no src */
    int line, col;  /* 1-based; 0 without src */
    char *desc;     /* "`counter + 8'd1` (add): bit 0 of A inverted" */
} mf_vmut;

typedef struct {
    int n;
    mf_vmut *m;
} mf_vmut_table;

/* The rows of `list` (mutate -list's output, a mutation a line), worded
 * with the sources. 0; MF_ERROR on a line that is not a mutation. */
int mf_vmut_table_build(mf_vmut_table *t, const char *list,
                        const mf_verilog_src *srcs, int nsrcs);
void mf_vmut_table_free(mf_vmut_table *t);

#endif
