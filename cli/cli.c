/* cli.c - the --inputs/--observe options and model loading shared by the
 * subcommands that read a model. */
#include "cli.h"

#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int mf_cli_take_model_arg(mf_cli_model_args *a, const char *cmd, int argc,
                          char **argv, int *i)
{
    const char *arg = argv[*i];
    if (!strncmp(arg, "--inputs", 8) && (arg[8] == 0 || arg[8] == '='))
        return take_value(&a->inputs_arg, cmd, "--inputs", argc, argv, i);
    if (!strncmp(arg, "--observe", 9) && (arg[9] == 0 || arg[9] == '='))
        return take_value(&a->observe_arg, cmd, "--observe", argc, argv, i);
    return 0;
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
    a->opts.inputs = a->opts.observe = NULL;
    a->opts.ninputs = a->opts.nobserve = 0;
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
    free(a->opts.inputs);
    free(a->opts.observe);
    memset(a, 0, sizeof *a);
}
