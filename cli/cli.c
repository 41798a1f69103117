/* cli.c - what the subcommands share (cli.h): the --inputs/--observe
 * options and model loading of those that read a model, and the flags
 * that set a config key, and the numbers options take. It parses no command's whole command line. */
#include "cli.h"

#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mf_cli_number(int64_t *out, const char *cmd, const char *opt,
                  const char *arg, int64_t max)
{
    char *end;
    errno = 0;
    long long v = strtoll(arg, &end, 10);
    if (errno || end == arg || *end || v <= 0 || v > max) {
        if (max == INT64_MAX)
            fprintf(stderr, "mutfarm %s: %s needs %s (a positive number), "
                    "not '%s'\n", cmd, opt,
                    strcmp(opt, "--campaign") ? "a number" : "a campaign id",
                    arg);
        else
            fprintf(stderr, "mutfarm %s: %s needs a number from 1 to %lld, "
                    "not '%s'\n", cmd, opt, (long long)max, arg);
        return MF_EXIT_USAGE;
    }
    *out = v;
    return 0;
}

int mf_cli_unknown_option(const char *cmd, const char *arg)
{
    fprintf(stderr, "mutfarm %s: unknown option '%s'; see 'mutfarm %s "
            "--help'\n", cmd, arg, cmd);
    return MF_EXIT_USAGE;
}

int mf_cli_extra_argument(const char *cmd, const char *arg)
{
    fprintf(stderr, "mutfarm %s: unexpected argument '%s'; see 'mutfarm %s "
            "--help'\n", cmd, arg, cmd);
    return MF_EXIT_USAGE;
}

static int take_value(char **slot, const char *cmd, const char *name,
                      int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    const char *val;
    if (arg[n] == '=') {
        val = arg + n + 1;
    } else if (*i + 1 < argc) {
        val = argv[++*i];
    } else {
        fprintf(stderr, "mutfarm %s: %s needs a value\n", cmd, name);
        return -1;
    }
    free(*slot);
    *slot = mf_xstrdup(val);
    return 1;
}

int mf_cli_take_model_arg(mf_cli_model_args *a, int *exit_code,
                          const char *cmd, const char *usage, int argc,
                          char **argv, int *i)
{
    const char *arg = argv[*i];
    char **slot = NULL;
    const char *name = NULL;
    if (!strncmp(arg, "--inputs", 8) && (arg[8] == 0 || arg[8] == '=')) {
        slot = &a->inputs_arg;
        name = "--inputs";
    } else if (!strncmp(arg, "--observe", 9) &&
               (arg[9] == 0 || arg[9] == '=')) {
        slot = &a->observe_arg;
        name = "--observe";
    } else if (!strncmp(arg, "--outputs", 9) &&
               (arg[9] == 0 || arg[9] == '=')) {
        slot = &a->observe_arg;
        name = "--outputs";
    } else if (!strncmp(arg, "--system", 8) &&
               (arg[8] == 0 || arg[8] == '=')) {
        slot = &a->system_arg;
        name = "--system";
    } else if (!strncmp(arg, "--env", 5) && (arg[5] == 0 || arg[5] == '=')) {
        slot = &a->env_arg;
        name = "--env";
    } else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
        fputs(usage, stdout);
        *exit_code = MF_EXIT_OK;
        return -1;
    } else {
        return 0;
    }
    if (take_value(slot, cmd, name, argc, argv, i) < 0) {
        *exit_code = MF_EXIT_USAGE;
        return -1;
    }
    return 1;
}

/* Split "a, b,c" in place into a NULL-free array of names. */
static int split(const char ***out, char *s)
{
    int n = 0, cap = 4;
    const char **v = mf_xmalloc(sizeof(char *) * (size_t)cap);
    for (char *tok = strtok(s, ", "); tok; tok = strtok(NULL, ", ")) {
        if (n == cap) {
            cap *= 2;
            v = mf_xrealloc(v, sizeof(char *) * (size_t)cap);
        }
        v[n++] = tok;
    }
    *out = v;
    return n;
}

int mf_cli_load_model(mf_model **out, const char *path, mf_cli_model_args *a)
{
    free(a->opts.inputs);
    free(a->opts.observe);
    free(a->opts.env);
    a->opts.inputs = a->opts.observe = a->opts.env = NULL;
    a->opts.ninputs = a->opts.nobserve = a->opts.nenv = 0;
    a->opts.system = a->system_arg;
    if (a->env_arg)
        a->opts.nenv = split(&a->opts.env, a->env_arg);
    if (a->inputs_arg)
        a->opts.ninputs = split(&a->opts.inputs, a->inputs_arg);
    if (a->observe_arg)
        a->opts.nobserve = split(&a->opts.observe, a->observe_arg);
    int rc = mf_model_load_file(out, path, &a->opts);
    if (rc == 0)
        return MF_EXIT_OK;
    fprintf(stderr, "%s\n", mf_err_msg());
    return rc == MF_ERROR && !*mf_err_msg() ? MF_EXIT_INTERNAL
                                            : MF_EXIT_USAGE;
}

void mf_cli_model_args_free(mf_cli_model_args *a)
{
    free(a->inputs_arg);
    free(a->observe_arg);
    free(a->system_arg);
    free(a->env_arg);
    free(a->opts.inputs);
    free(a->opts.observe);
    free(a->opts.env);
    memset(a, 0, sizeof *a);
}

const mf_cli_flag *mf_cli_flag_find(const mf_cli_flag *flags, int n,
                                    int code)
{
    for (int i = 0; i < n; i++)
        if (flags[i].code == code)
            return &flags[i];
    return NULL;
}

int mf_cli_flag_set(mf_config *cfg, const char *cmd, const mf_cli_flag *f,
                    const char *value)
{
    if (mf_config_set(cfg, f->section, f->key, value) == 0)
        return 0;
    fprintf(stderr, "mutfarm %s: %s: %s\n", cmd, f->flag, mf_err_msg());
    return -1;
}
