/* kiss2_cli.h - the local hook that lets `mutfarm check` and `mutfarm
 * mutants` read KISS2 machines (kiss2/, docs/fsm.md) until the language
 * registry (model/lang.h) chooses the language of every command's model:
 * then this file goes, and kiss2/ registers as a language instead.
 *
 * Errors are printed to stderr and turned into exit codes (cmd.h). */
#ifndef MF_KISS2_CLI_H
#define MF_KISS2_CLI_H

#include "kiss2.h"

/* 1 if `path` names a KISS2 machine: it ends in .kiss2 or .kiss. */
int mf_cli_kiss2_is(const char *path);

/* Read the machine at `path` (its warnings printed to stderr) and its
 * translation into the common model: MF_EXIT_OK with *m and *k the
 * caller's, or the exit code after the message. */
int mf_cli_kiss2_load(mf_model **m, mf_kiss2 **k, const char *path);

/* One mutant for the engine, as mutfarm check collects them. */
typedef int (*mf_cli_kiss2_fn)(int item, const mf_item *repl, const char *id,
                               const char *label, void *ctx);

/* The mutants of k (model m) that are no duplicates, for the operators of
 * `ops` (NULL: all) or the one whose id starts with `prefix` (NULL: all),
 * each passed to fn with its label "OPERATOR (line N)" (in arena a).
 * MF_EXIT_OK or an exit code after the message (cmd: "check"). */
int mf_cli_kiss2_each(const char *cmd, const mf_model *m, const mf_kiss2 *k,
                      const char *ops, const char *prefix, mf_arena *a,
                      mf_cli_kiss2_fn fn, void *ctx);

/* `mutfarm mutants list|show` on a machine: list (id, operator, line,
 * description) or show (the mutated machine as KISS2). */
int mf_cli_kiss2_mutants(int is_list, const char *path, const char *id,
                         const char *ops);

#endif
