/* cli.h - what the subcommands share: for those that read a model, the
 * --inputs/--observe options and loading the model with its errors
 * reported to stderr; for those that read the config, the flags that set
 * one of its keys; and the numbers options take. It parses no command's
 * whole command line.
 *
 * Errors are printed as one line ("file:line:col: error: ..." or
 * "mutfarm CMD: ...") and turned into an exit code (cmd.h). */
#ifndef MF_CLI_H
#define MF_CLI_H

#include <stdint.h>

#include "config.h"
#include "langs.h"

/* A positive whole number from `arg` for option `opt` of command `cmd`
 * (at most `max`; INT64_MAX for "any": a campaign id): 0 with *out set, or
 * MF_EXIT_USAGE with the message printed. */
int mf_cli_number(int64_t *out, const char *cmd, const char *opt,
                  const char *arg, int64_t max);

/* "mutfarm CMD: unknown option 'ARG'; see 'mutfarm CMD --help'" and
 * "... unexpected argument ..." on stderr; both return MF_EXIT_USAGE. */
int mf_cli_unknown_option(const char *cmd, const char *arg);
int mf_cli_extra_argument(const char *cmd, const char *arg);

/* Options common to the commands that read a model. */
typedef struct {
    char *inputs_arg;   /* --inputs a,b (owned copy) */
    char *observe_arg;  /* --observe a,b or --outputs a,b (owned copy) */
    char *system_arg;   /* --system NAME (timed models: Ecdar) */
    char *env_arg;      /* --env T1,T2 (timed models: UPPAAL) */
    mf_model_opts opts; /* filled by mf_cli_load_model from the above */
} mf_cli_model_args;

/* Take argv[*i] if every model-reading command has it: --inputs/--observe
 * and, for timed models (docs/timed.md), --outputs (the same as
 * --observe), --system and --env (as "--x V" or "--x=V"; *i advances
 * past it, 1 is returned), or --help
 * and -h (`usage` printed to stdout; -1 with *exit_code MF_EXIT_OK). 0 for
 * another argument; -1 with *exit_code MF_EXIT_USAGE (and a message) when
 * a value is missing. */
int mf_cli_take_model_arg(mf_cli_model_args *a, int *exit_code,
                          const char *cmd, const char *usage, int argc,
                          char **argv, int *i);

/* Load `path` with the options; on failure print the error and return the
 * exit code (MF_EXIT_USAGE for bad input, MF_EXIT_INTERNAL otherwise). */
int mf_cli_load_model(mf_model **out, const char *path,
                      mf_cli_model_args *a);

void mf_cli_model_args_free(mf_cli_model_args *a);

/* A flag that sets a config key, known by its getopt_long code. */
typedef struct {
    int code;                  /* getopt_long's value for the flag */
    const char *flag;          /* "--bound", for messages */
    const char *section, *key; /* what it sets: [campaign] bound */
} mf_cli_flag;

/* The entry of flags[0..n) with getopt code `code`, or NULL. */
const mf_cli_flag *mf_cli_flag_find(const mf_cli_flag *flags, int n,
                                    int code);

/* mf_config_set of f's key to `value`: 0, or -1 after saying
 * "mutfarm CMD: FLAG: why" on stderr (*cfg unchanged). */
int mf_cli_flag_set(mf_config *cfg, const char *cmd, const mf_cli_flag *f,
                    const char *value);

#endif
