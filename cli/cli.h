/* cli.h - what the model-reading subcommands share: the --inputs/--observe
 * options and loading a model with its errors reported to stderr.
 *
 * Errors are printed as one line ("file:line:col: error: ..." or
 * "mutfarm CMD: ...") and turned into an exit code (cmd.h). */
#ifndef MF_CLI_H
#define MF_CLI_H

#include "model.h"

/* Options common to the commands that read a model. */
typedef struct {
    char *inputs_arg;   /* --inputs a,b (owned copy) */
    char *observe_arg;  /* --observe a,b (owned copy) */
    mf_model_opts opts; /* filled by mf_cli_load_model from the two above */
} mf_cli_model_args;

/* If argv[*i] is --inputs/--observe (as "--x V" or "--x=V"), take it,
 * advance *i past it and return 1; 0 if it is another argument; -1 (with a
 * message printed) if its value is missing. */
int mf_cli_take_model_arg(mf_cli_model_args *a, const char *cmd, int argc,
                          char **argv, int *i);

/* Load `path` with the options; on failure print the error and return the
 * exit code (MF_EXIT_USAGE for bad input, MF_EXIT_INTERNAL otherwise). */
int mf_cli_load_model(mf_model **out, const char *path,
                      mf_cli_model_args *a);

void mf_cli_model_args_free(mf_cli_model_args *a);

#endif
