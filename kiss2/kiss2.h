/* kiss2.h - finite state machines in the KISS2 format (the MCNC/LGSynth91
 * benchmarks, logic-synthesis tools): the row table read from a file, its
 * printer back to KISS2, its translation into the common model every engine
 * reads, and its mutation operators (docs/fsm.md).
 *
 * A machine is a Mealy machine given by rows "INPUTS PRESENT NEXT OUTPUTS":
 * input cubes over 0 1 -, a present state or `*` (any state), a next state
 * and an output cube over 0 1 - ('-': that output bit is not checked). A
 * (state, input) pair that no row covers is not allowed: no test applies
 * it. Where rows overlap, the first in file order gives the transition; a
 * specification whose overlapping rows disagree is refused (it would be
 * non-deterministic).
 *
 * Nothing here runs a machine (the engines do, on the translated model) or
 * decides a mutant. */
#ifndef MF_KISS2_H
#define MF_KISS2_H

#include "mf.h"
#include "model.h"

/* `*` in mf_kiss2_row.from (any present state) and .to (unspecified). */
#define MF_KISS2_ANY (-1)

typedef struct {
    int line;        /* in the file, 1-based */
    const char *in;  /* ni characters of 0 1 - (NUL-terminated) */
    int from;        /* present state index, or MF_KISS2_ANY */
    int to;          /* next state index, or MF_KISS2_ANY: unspecified,
                        read as no transition (docs/fsm.md) */
    const char *out; /* no characters of 0 1 - (NUL-terminated) */
} mf_kiss2_row;

typedef struct {
    mf_arena *arena;     /* owns everything below */
    const char *file;    /* for messages */
    int ni, no;          /* input and output bits */
    int nstates;
    const char **states; /* names, in order of first appearance */
    int reset;           /* the reset state's index */
    int reset_line;      /* the .r line, 0 when the first row's state */
    int nrows;
    mf_kiss2_row *rows;  /* in file order */
} mf_kiss2;

typedef struct {
    int nondet; /* overlapping rows may disagree (a mutation machine) */
} mf_kiss2_opts;

/* Read KISS2 text. On success 0 and *out is the caller's (mf_kiss2_free);
 * what the benchmark files themselves get wrong (.p or .s counts that
 * disagree with the rows, directives mutfarm ignores) is appended to *warn
 * (NULL: dropped) as "file:line: warning: ..." lines. On failure
 * MF_EPARSE (or MF_ELIMIT for a machine too large) with a
 * "file:line: error: ..." message and *out NULL. text need not be
 * NUL-terminated. */
int mf_kiss2_read(mf_kiss2 **out, const char *file, const char *text,
                  size_t len, const mf_kiss2_opts *opts, mf_buf *warn);
void mf_kiss2_free(mf_kiss2 *k); /* NULL-safe */

/* The index of state `name`, or -1. */
int mf_kiss2_find_state(const mf_kiss2 *k, const char *name);

/* The machine as KISS2: .i .o .p .s .r, then one row a line in file order.
 * Reading the print gives the same table. */
void mf_kiss2_print(mf_buf *out, const mf_kiss2 *k);
/* One row as "INPUTS PRESENT NEXT OUTPUTS" (no newline). */
void mf_kiss2_print_row(mf_buf *out, const mf_kiss2 *k,
                        const mf_kiss2_row *r);

/* 1 if k's text (len bytes, not NUL-terminated) looks like KISS2: its first
 * directive lines are .i/.o/.p/.s/.r; 0 otherwise. */
int mf_kiss2_sniff(const char *text, size_t len);

/* ---- the common model (smv.c, build.c, lang.c) ------------------------- */

/* The machine as an SMV model (docs/fsm.md, Semantics): IVARs in0.. for the
 * input bits, VAR state (hidden) and out0.. (observed), and per row i the
 * DEFINEs r<i> (its guard), t<i> (its next state) and y<i>_<j> (output bit
 * j, {FALSE, TRUE} for '-'), so that each fault of one row is the
 * replacement of one DEFINE. */
void mf_kiss2_smv(mf_buf *out, const mf_kiss2 *k);

/* The model options the translation is loaded with: the outputs observed,
 * the state hidden. *o points into k (valid while k lives). */
void mf_kiss2_model_opts(mf_model_opts *o, const mf_kiss2 *k,
                         const char ***names);

/* The same translation built directly (build.c): m's variables and items,
 * resolved, from m->arena, for a loader that ends with the model's finish
 * (model/lang.h). m has no variables or items yet. MF_EUNSUPPORTED for a
 * machine without outputs. */
int mf_kiss2_fill(mf_model *m, const mf_kiss2 *k);

/* Read KISS2 text into the common model (the loader of mf_lang_kiss2):
 * mf_kiss2_read, then the model built (mf_kiss2_fill) and finished with the
 * outputs observed. On success 0, *out the model, and *kout (NULL: not
 * wanted) its table, which the model owns (its lang_data, freed with it).
 * Errors as mf_kiss2_read, and the model's finish. */
int mf_kiss2_load(mf_model **out, mf_kiss2 **kout, const char *file,
                  const char *text, size_t len, mf_buf *warn);

/* KISS2 as a model language (lang.c; model/lang.h), and the table of a
 * model it loaded (NULL for another model, or a copy such as a mutant). */
struct mf_lang;
extern const struct mf_lang mf_lang_kiss2;
const mf_kiss2 *mf_kiss2_of(const mf_model *m);

/* ---- mutants (mutate.c) ------------------------------------------------ */

typedef enum {
    MF_KOP_OUTPUT,   /* one output bit of one row flipped, or a '-' fixed */
    MF_KOP_TRANSFER, /* one row's next state replaced by another state */
    MF_KOP_MISSING,  /* a row removed */
    MF_KOP__COUNT
} mf_kop;

/* A mutant of a machine: one row changed (or removed). */
typedef struct {
    mf_kop op;
    int row;         /* index into k->rows */
    int bit;         /* MF_KOP_OUTPUT: the output bit */
    char value;      /* MF_KOP_OUTPUT: the new '0' or '1' */
    int to;          /* MF_KOP_TRANSFER: the new next state */
    char id[17];     /* 16 hex digits */
    char dup_of[17]; /* "", or the id of the earlier twin */
    const char *site; /* "PRESENT INPUTS" of the row ("#n" for a repeated
                         row), "/outJ" for an output bit */
    const char *repl; /* the replacement as text: "1", a state, "" */
} mf_kiss2_mutant;

const char *mf_kop_name(mf_kop op);
/* The names, by operator: "output-fault", ... (the language's op names). */
extern const char *const mf_kop_names[MF_KOP__COUNT];

/* Called once per mutant in the deterministic order: rows in file order,
 * per row the output faults (bit by bit), the transfer faults (states in
 * order), the missing transition. The mutant lives during the call. */
typedef int (*mf_kiss2_mutant_fn)(const mf_kiss2_mutant *mu, void *ctx);
/* Enumerate the mutants for the operators in mask (1u << op; 0: all).
 * A non-zero return of fn stops and is returned. */
int mf_kiss2_mutants_each(const mf_kiss2 *k, unsigned mask,
                          mf_kiss2_mutant_fn fn, void *ctx);

/* The mutated table (a copy in a fresh arena; mf_kiss2_free). */
mf_kiss2 *mf_kiss2_apply(const mf_kiss2 *k, const mf_kiss2_mutant *mu);

/* The mutant as a replacement of one item of m (the model mf_kiss2_load
 * made of k): *item the index, *out the new item in arena a (its name
 * the model's). */
int mf_kiss2_mutant_item(int *item, mf_item **out, mf_arena *a,
                         const mf_model *m, const mf_kiss2 *k,
                         const mf_kiss2_mutant *mu);

/* The mutated machine printed as KISS2, the changed row preceded by a
 * comment "# mutant ID (operator): description" (a removed row stays as a
 * comment). */
void mf_kiss2_mutant_print(mf_buf *out, const mf_kiss2 *k,
                           const mf_kiss2_mutant *mu);
/* One line: "row 12 (line 17): next state st3 -> st5". */
void mf_kiss2_mutant_desc(mf_buf *out, const mf_kiss2 *k,
                          const mf_kiss2_mutant *mu);

#endif
