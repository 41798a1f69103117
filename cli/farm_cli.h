/* farm_cli.h - what `run` and `coordinator` share: their options (over
 * the config file), opening and ending the coordinator, and the exit code
 * of a finished campaign. The code is in cli/farm_cli.c; the serving is
 * coordinator/server.h's. */
#ifndef MF_FARM_CLI_H
#define MF_FARM_CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "server.h"

/* ---- the options `run` and `coordinator` share ---------------------------- */

typedef struct {
    mf_config cfg;           /* defaults < --config file < flags */
    const char *model;       /* MODEL.smv */
    double fail_under;       /* --fail-under PCT, < 0: none */
    int workers;             /* --workers N (run), 0: one per core */
    int verbose;             /* --verbose */
    int fresh;               /* --fresh: take nothing over */
    const char *augment;     /* --augment NAME: an imported suite first */
    int db_given;            /* --db or [coordinator] db in the file */
    int bind_given;          /* --bind or [coordinator] bind in the file */
    int undefined_value;     /* --undefined value: the original may leave
                                an observable undefined (docs/semantics.md,
                                Undefined observables) */
} mf_cli_farm;

/* Parse argv (argv[0] is the command name) for `run` (run = 1: takes
 * --workers) or `coordinator` (takes --bind). Prints --help to stdout
 * (returns 1 with *exit_code MF_EXIT_OK) or an error to stderr (returns 1
 * with MF_EXIT_USAGE). Returns 0 when the command should go on. `usage`
 * prints the command's help. */
int mf_cli_farm_parse(mf_cli_farm *out, int *exit_code, int run, int argc,
                       char **argv, void (*usage)(FILE *));

/* The default store of a model: "NAME.mutfarm.db" in the current directory
 * for MODEL ".../NAME.smv". */
void mf_cli_default_db(char *out, size_t n, const char *model);

/* The exit code of a finished campaign under --fail-under. */
int mf_cli_exit_code(const mf_coord_progress *p, double fail_under);

/* The dispositions of SIGINT and SIGTERM before mf_cli_coord_opts. */
typedef struct {
    struct sigaction old_int, old_term;
} mf_cli_signals;

/* *o for serving cl's campaign as command `cmd`, with SIGINT and SIGTERM
 * caught into o->stop (the coordinator stops at its next wake-up; the
 * campaign resumes with the same command). The old handlers go to *saved,
 * for mf_cli_restore_signals. */
void mf_cli_coord_opts(mf_coord_opts *o, mf_cli_farm *cl, const char *cmd,
                       mf_cli_signals *saved);
void mf_cli_restore_signals(const mf_cli_signals *saved);

/* mf_coord_open(out, o), a failure said on stderr as "O->CMD: message":
 * 0, or the exit code (MF_EXIT_INTERNAL for MF_ERROR, else
 * MF_EXIT_USAGE: the model or a file to fix). */
int mf_cli_coord_open(mf_coord **out, const mf_coord_opts *o);

/* The exit code after mf_coord_serve(c) returned rc under command `cmd`:
 * a failure (rc < 0, said on stderr) or a stop (rc > 0) is
 * MF_EXIT_INTERNAL; a complete campaign prints its summary to stdout,
 * leaves its final progress in *p and follows --fail-under. */
int mf_cli_coord_end(mf_coord *c, int rc, const char *cmd, double fail_under,
                     mf_coord_progress *p);

/* `run` without --undefined value: refuses (MF_EXIT_USAGE, the state and
 * the test reaching it on stderr) a model whose original leaves an
 * observed DEFINE undefined in a reachable state found among the first
 * states explored; 0 otherwise, or the exit code of a model that does not
 * load. */
int mf_cli_undefined_check(const mf_cli_farm *cl);

#endif
