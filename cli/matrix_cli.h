/* matrix_cli.h - what `mutfarm matrix`, `minimize` and `tests export`
 * share on the command line: opening an existing store and one of its
 * campaigns with each failure printed as one line and turned into an exit
 * code (cmd.h).
 *
 * It parses no whole command line and prints no report. */
#ifndef MF_MATRIX_CLI_H
#define MF_MATRIX_CLI_H

#include <stdint.h>

#include "matrix.h"
#include "store.h"

/* Open the store `path` (which must exist: these commands never create
 * one) for writing, and campaign `campaign` (0: the newest) with its
 * model. 0, or the exit code with the message printed; nothing is left
 * open then. */
int mf_matrix_cli_open(mf_store **s, mf_matrix_campaign *c, const char *cmd,
                       const char *path, int64_t campaign);

/* The exit code of a failed fill, minimisation or export (code rc, the
 * message printed as "mutfarm CMD: ..."): MF_EXIT_USAGE for what the
 * store or the user gave (MF_EPARSE, MF_ENOTFOUND), else
 * MF_EXIT_INTERNAL. */
int mf_matrix_cli_fail(const char *cmd, int rc);

/* Fill the campaign's matrix if it is not full, with a line on stderr
 * saying so (minimize and export call it first). 0 or the exit code. */
int mf_matrix_cli_ensure(mf_store *s, const mf_matrix_campaign *c,
                         const char *cmd, int threads);

#endif
