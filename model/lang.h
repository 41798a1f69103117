/* lang.h - the seam between the common model and the languages it is read
 * from: what a model language (SMV in smv/, KISS2 finite state machines,
 * timed automata, Verilog through yosys' write_smv, ...) implements so that
 * every engine, the farm and the reports work on its models unchanged.
 *
 * A language is one constant `mf_lang` (SQLite's VFS, yosys' frontends):
 * its name, the file endings and a sniffer to choose it, a loader from text
 * to the flat model (model.h), its mutation operators and the printers of a
 * model and of a mutant back in the language. The registry above the
 * languages (lang/langs.h) lists them and chooses one for a file; model/
 * never names a language.
 *
 * A model records the language it was read in (mf_model.lang) and the
 * language's own data (mf_model.lang_data, e.g. a KISS2 row table), so that
 * generic code (mf_mutants_each, mf_mutant_print, mf_mutant_op_name in
 * mutate.h) dispatches through m->lang without knowing the language.
 *
 * Mutants stay what the engines read (engine/ mf_engine_mutant): "replace
 * item i of the flat model by new_item, or remove it". A language whose
 * models the common model cannot hold (timed automata, ta/: clocks, real
 * time) loads an mf_model with no variables or items, keeps its own model
 * in lang_data, and gives its mutants item -1 and no new_item: the
 * engines that understand it ask its folder for the model and the mutant
 * (ta/ta_lang.h), and mf_mutant_apply refuses them. A language maps its
 * own operators (a KISS2 "next state of row 7") onto such replacements of
 * the items its loader made. mf_mutant.op is language-relative: an int in
 * 0 .. nops-1 whose name is op_names[op] of the model's language (SMV's are
 * smv/smv_mutate.h's mf_mop values). A mutant's id is
 * mf_mutant_id(op name, site, replacement): stable across edits elsewhere,
 * and byte for byte the ids stored by earlier versions for SMV.
 *
 * Threads: an mf_lang is constant and its functions keep no global state;
 * any may run on several threads at once, each on its own model or on one
 * model read-only. */
#ifndef MF_LANG_H
#define MF_LANG_H

#include "mutate.h"

/* The most operators a language may have: a mask is an unsigned. */
#define MF_LANG_MAX_OPS 32

typedef struct mf_lang {
    /* Short lower-case name: "smv". Messages, the registry, docs. */
    const char *name;
    /* File name endings that choose it, NULL-terminated: {".smv", NULL}.
     * Compared case-sensitively with the end of the path. */
    const char *const *exts;
    /* How surely text[0..len) is this language, for a model known only by
     * its text (a job's model text on a worker, a stored model): 0 (not
     * this language) .. 100 (certain). Must not fail, allocate or read past
     * len; text need not be NUL-terminated. The registry takes the highest
     * score above 0; ties go to the language listed first. */
    int (*sniff)(const char *text, size_t len);
    /* Text to flat model. On success 0 and *out is the caller's
     * (mf_model_free), with out->lang set to this language and every
     * variable and item carrying its source line/col (1-based; 0 for what
     * the language made, not the user). On failure a negative code
     * (MF_EPARSE, MF_EUNSUPPORTED, MF_ETYPE, MF_ELIMIT, ...) with the
     * message "file:line:col: error: ..." in mf_err_msg() and *out NULL.
     * `file` names the model in messages (the path, or a stored name);
     * text need not be NUL-terminated. A loader builds vars and items in a
     * fresh model (mf_model_new) and ends with mf_model_finish, which lays
     * out the state, type checks every item, settles inputs and
     * observables by opts and computes the hash. */
    int (*load)(mf_model **out, const char *file, const char *text,
                size_t len, const mf_model_opts *opts);
    /* The mutation operators: op_names[0 .. nops) are the short stable
     * names ("case-remove"); an operator's number is its index. The names
     * go into stored rows, mutant ids and --operators lists: never rename
     * or renumber one, only append. nops <= MF_LANG_MAX_OPS. */
    int nops;
    const char *const *op_names;
    /* Enumerate the mutants of m (m->lang is this language) for the
     * operators in mask (bit 1u << op; 0: all), in one deterministic order.
     * Each mutant has lang (m->lang), op, item (the item it replaces or
     * removes), new_item (NULL: removed; never a DEFINE's removal), site,
     * repl, desc, line/col, its id from mf_mutant_id and its status from
     * mf_mutant_classify (below); arena NULL. With pick NULL every mutant goes to fn;
     * else only those with pick(id, ctx) != 0, with the same status they
     * have in the full enumeration (mutate.h, mf_mutants_pick). fn's
     * non-zero return stops the enumeration and is returned. The mutant and
     * what it points to live during the call only; memory stays
     * proportional to the model, never to the number of mutants. */
    int (*mutants)(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                   mf_mutant_fn fn, void *ctx);
    /* The model printed in the language (`mutfarm model`); NULL: the
     * common printer, mf_print_model (SMV syntax). */
    void (*print_model)(mf_buf *out, const mf_model *m);
    /* The mutated model printed in the language with the change marked
     * (`mutfarm mutants show`): for SMV, the model with the changed item
     * between "-- mutant ID (operator): description" and
     * "-- end of mutant ID". Never fails: a mutant that cannot be applied
     * is printed as a comment saying so. */
    void (*mutant_print)(mf_buf *out, const mf_model *m,
                         const mf_mutant *mu);
    /* Frees m->lang_data; NULL when the language keeps none. Called by
     * mf_model_free of the loaded model only: copies of a model
     * (mf_model_replace_item, mf_model_extend: mutants, coi cuts) carry
     * lang but not lang_data (NULL), so the language's functions must work
     * on a model whose lang_data is NULL, or say they cannot. */
    void (*free_data)(void *data);
    /* A model of several files (an Ecdar project folder): path (a folder,
     * or a file with one of exts) gathered into the one text that load
     * reads and sniff recognises, appended to *out. 0; MF_ENOTFOUND when
     * path is not such a model (the registry then reads the file as it
     * is); another negative code with a message. NULL: a model is the
     * text of its file. */
    int (*read_path)(mf_buf *out, const char *path, const mf_model_opts *opts);
    /* What `mutfarm model check` prints about an accepted model after its
     * "FILE: ok" line, for a language whose models are more than the
     * common model's variables and items (timed automata: processes,
     * clocks, channels and their roles). NULL: the common report. */
    void (*describe)(mf_buf *out, const mf_model *m);
    /* 1: the farm's jobs and stored tests cannot carry this language's
     * mutants (timed automata: `mutfarm check` decides them with an
     * engine of their own), so `run` and `coordinator` refuse its models
     * before a store is made. 0: campaigns take them. */
    int no_farm;
} mf_lang;

/* ---- what generic code asks of a language (mutate.c) ------------------ */

/* The name of operator op of language l ("?" if out of range). */
const char *mf_lang_op_name(const mf_lang *l, int op);
/* The operator named `name` in l, or -1. */
int mf_lang_op_find(const mf_lang *l, const char *name);
/* A comma- or space-separated list of l's operator names ("all": every
 * one) into *mask. MF_ERROR with "unknown mutation operator 'x' (known:
 * ...)" or "empty list of mutation operators" otherwise. */
int mf_lang_ops_parse(const mf_lang *l, unsigned *mask, const char *list);

/* ---- what a language's loader and enumerator use (model.c, mutid.c) --- */

/* A fresh empty model of language l read from `file` (the name in
 * messages): an arena, no variables or items. The loader fills vars (name,
 * decl, type, line/col), items, specs and syms from m->arena, sets
 * lang_data if it keeps any, then calls mf_model_finish. */
mf_model *mf_model_new(const mf_lang *l, const char *file);
/* Finishes a model the loader filled: state slots laid out (MF_ELIMIT
 * beyond the state size limit), every item type checked (MF_ETYPE), one
 * assignment per variable and no combinational loop, inputs and
 * observables settled by opts (docs/semantics.md), the hash computed. 0,
 * or a negative code with a "file:line:col: error: ..." message; the
 * model is the caller's either way (mf_model_free on failure). */
int mf_model_finish(mf_model *m, const mf_model_opts *opts);

/* The stable id of a mutant: the first 16 hex digits of
 * SHA-256(op_name NUL site NUL repl), NUL-terminated into id. */
void mf_mutant_id(char id[17], const char *op_name, const char *site,
                  const char *repl);

/* Duplicates and stillborns, the common way: a set of the mutated items
 * seen in one enumeration (24 bytes a mutant). */
typedef struct mf_mutant_dups mf_mutant_dups;
mf_mutant_dups *mf_mutant_dups_new(void);
void mf_mutant_dups_free(mf_mutant_dups *d); /* NULL-safe */
/* Classifies mu (mu->item, mu->new_item and mu->id set) against the
 * original item and the mutants classified before it in d: a duplicate of
 * "original" when new_item prints as the item it replaces, of an earlier
 * mutant whose item prints the same (mu->dup_of: its id, kept in
 * dup_buf), else, with check set, stillborn when mf_model_check_item
 * refuses new_item (mu->why: the message, kept in why). Sets mu->status,
 * mu->dup_of, mu->why. Every mutant of the enumeration must pass through
 * here, wanted or not, so that duplicates are found among all; pass check
 * 0 for one the caller does not want (the type check is the cost). Twins
 * are always mutants of one item (the key holds the item's index), so an
 * enumeration that picks may skip the items that hold no wanted mutant. */
void mf_mutant_classify(mf_mutant_dups *d, const mf_model *m, mf_mutant *mu,
                        int check, char dup_buf[17], mf_buf *why);

#endif
