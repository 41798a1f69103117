/* design.h - a translation's header read back (translate.h writes it):
 * the design's top, clock, ports, how its registers start, the mutation
 * table and the Verilog sources. What the Verilog language keeps beside
 * its model (mf_model.lang_data) and what its mutants and printers read.
 * Nothing here runs yosys. */
#ifndef MF_VDESIGN_H
#define MF_VDESIGN_H

#include "mf.h"

typedef struct {
    int k;          /* the select value that turns it on, 1.. */
    int op;         /* index into mf_vmut_op_names */
    char id[17];
    const char *file; /* "" without a location */
    int line, col;
    const char *desc;
} mf_vdesign_mut;

typedef struct {
    const char *name;
    const char *text; /* the file's lines, '\n'-terminated */
} mf_vdesign_src;

typedef struct {
    mf_arena *arena; /* owns everything below */
    const char *top, *clock, *start, *select;
    const char **inputs, **outputs; /* port names, clock left out */
    int ninputs, noutputs;
    int nregs, ninit, width;
    int nmuts;
    mf_vdesign_mut *muts;
    int nsrcs;
    mf_vdesign_src *srcs;
} mf_vdesign;

/* Whether text[0..len) is a translation (starts with MF_VERILOG_MAGIC). */
int mf_vdesign_is_translation(const char *text, size_t len);

/* The header of translation text[0..len) into *out (the caller's,
 * mf_vdesign_free). 0, or MF_EPARSE with "file:line: error: ..." for a
 * header line that does not read. */
int mf_vdesign_parse(mf_vdesign **out, const char *file, const char *text,
                     size_t len);
void mf_vdesign_free(mf_vdesign *d); /* NULL-safe */

/* The row of mutant id (a full id or a prefix of 4+ digits), or NULL. */
const mf_vdesign_mut *mf_vdesign_find(const mf_vdesign *d, const char *id);

/* Line `line` (1-based) of source file `file`, without its newline, into
 * dst (""; when absent). */
void mf_vdesign_line(char *dst, size_t cap, const mf_vdesign *d,
                     const char *file, int line);

#endif
