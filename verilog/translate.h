/* translate.h - a Verilog design to mutfarm's translation of it: yosys
 * reads the files, lists the mcy mutations (`mutate -list`), applies all of
 * them behind one select signal (`mutate -ctrl`) and writes SMV
 * (`write_smv`); the SMV is then renamed to the design's port names and
 * prefixed by a header of `-- mf:` comment lines (the top, the clock, the
 * ports, how registers start, the mutation table, the Verilog sources).
 *
 * The translation is plain SMV text that any SMV reader loads as the
 * original design (the select is a DEFINE whose value 0 is the original);
 * design.c reads the header back. It is what a campaign stores as its
 * model text, so workers need no yosys. docs/verilog.md has the format. */
#ifndef MF_VTRANSLATE_H
#define MF_VTRANSLATE_H

#include "mf.h"

/* The first line of every translation (what a sniffer looks for). */
#define MF_VERILOG_MAGIC "-- mutfarm verilog translation"

/* Every mutation yosys lists; else the number sampled (mutate -list N). */
#define MF_VERILOG_ALL_MUTANTS 0
/* The sample taken when the caller does not say. */
#define MF_VERILOG_DEFAULT_MUTANTS 200

typedef struct {
    const char *top;     /* NULL: yosys's hierarchy -auto-top */
    const char *reset;   /* "rst_n=0" or "rst=1:3" (value, cycles); NULL:
                            registers start free unless `initial` says */
    int nmutants;        /* MF_VERILOG_ALL_MUTANTS or a sample size */
    int timeout_s;       /* for each yosys run; 0: 120 */
} mf_verilog_opts;

/* One design file: its name (the base name yosys sees and that mutant
 * locations give) and its text. */
typedef struct {
    const char *name;
    const char *text;
    size_t len;
} mf_verilog_src;

/* Translates the design of srcs[0 .. nsrcs) into *out (appended). Files
 * ending ".sv" are read as SystemVerilog. `incdir` (NULL: none) is
 * searched for `include files. 0, or MF_ERROR / MF_EUNSUPPORTED with one
 * line in mf_err_msg() naming the reason (yosys's error, several clocks, a
 * clock that is not an input port, a bad --reset). */
int mf_verilog_translate(mf_buf *out, const mf_verilog_src *srcs, int nsrcs,
                         const char *incdir, const mf_verilog_opts *o);

/* The same from files on disk (their base names must differ). */
int mf_verilog_translate_files(mf_buf *out, const char *const *paths,
                               int npaths, const mf_verilog_opts *o);

#endif
