/* cmd_simulate.c - `mutfarm simulate MODEL [--mutant ID] --inputs FILE`:
 * runs the model (or one of its mutants) on an input sequence and prints the
 * trace; with --all, also every initial state and successor the model allows
 * at each step. The simulation itself is model/sim.c. */
#include "cli.h"
#include "cmd.h"

#include "mutate.h"
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Successors listed per step under --all. */
#define ALL_CAP 100
#define INPUT_FILE_MAX (64u << 20)

static const char usage[] =
    "usage: mutfarm simulate MODEL [--mutant ID] --inputs FILE [--all]\n"
    "                        [--observe X,Y]\n"
    "\n"
    "Runs MODEL (or mutant ID of it, as listed by `mutfarm mutants list`)\n"
    "on the input sequence in FILE and prints the observables of every\n"
    "state: \"step 0: ...\", then per step \"input: ...\" and \"step k: "
    "...\".\n"
    "\n"
    "FILE, one step a line ('#' or '--' starts a comment):\n"
    "  init: x=1, b=TRUE   optional first line: input VARs in state 0\n"
    "  inp=req             a step: input=value, comma separated; arrays as\n"
    "                      a[2]=1; inputs left out keep their value\n"
    "  inp=req @1          take the successor with choice index 1 (default 0)\n"
    "  -                   a step that changes no input\n"
    "Successors are numbered in a fixed order: variables in slot order,\n"
    "values ascending, the first variable varying slowest.\n"
    "\n"
    "--mutant ID     simulate this mutant (an id prefix of 4+ hex digits)\n"
    "--all           also list every initial state and successor (up to "
    "100)\n"
    "--observe X,Y   print these VARs/DEFINEs instead of all non-inputs\n"
    "\n"
    "A refusal (the model has no successor for an input) is part of the\n"
    "trace: \"step k: refused (no successor for this input)\", exit 0.\n"
    "exit: 0 simulated (refusals included), 1 usage, model or input file\n"
    "error, 2 internal error\n";

static int exit_code(int rc)
{
    return rc == MF_ERROR ? MF_EXIT_INTERNAL : MF_EXIT_USAGE;
}

int mf_cmd_simulate(int argc, char **argv)
{
    mf_cli_model_args a = {0};
    const char *model_path = NULL, *inputs_path = NULL, *mutant_id = NULL;
    int all = 0, rc = MF_EXIT_USAGE, r;
    mf_model *m = NULL, *mm = NULL;
    mf_mutant *mu = NULL;
    mf_input_seq *seq = NULL;
    char *text = NULL;
    size_t len = 0;
    mf_buf out = {0};

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char **slot = NULL;
        size_t nl = 0;
        if (!strncmp(arg, "--inputs", 8) && (arg[8] == 0 || arg[8] == '='))
            slot = &inputs_path, nl = 8;
        else if (!strncmp(arg, "--mutant", 8) && (arg[8] == 0 || arg[8] == '='))
            slot = &mutant_id, nl = 8;
        if (slot) {
            if (arg[nl] == '=')
                *slot = arg + nl + 1;
            else if (i + 1 < argc)
                *slot = argv[++i];
            else {
                fprintf(stderr, "mutfarm simulate: %.*s needs a value\n",
                        (int)nl, arg);
                goto cleanup;
            }
            continue;
        }
        int t = mf_cli_take_model_arg(&a, &rc, "simulate", usage, argc,
                                          argv, &i);
        if (t < 0)
            goto cleanup;
        if (t > 0)
            continue;
        if (!strcmp(arg, "--all")) {
            all = 1;
            continue;
        }
        if (arg[0] == '-' && arg[1]) {
            fprintf(stderr,
                    "mutfarm simulate: unknown option '%s' (see --help)\n",
                    arg);
            goto cleanup;
        }
        if (model_path) {
            fprintf(stderr, "mutfarm simulate: unexpected argument '%s'\n",
                    arg);
            goto cleanup;
        }
        model_path = arg;
    }
    if (!model_path || !inputs_path) {
        fprintf(stderr, "mutfarm simulate: %s (see --help)\n",
                model_path ? "--inputs FILE is required"
                           : "a MODEL is required");
        goto cleanup;
    }

    if ((rc = mf_cli_load_model(&m, model_path, &a)) != 0)
        goto cleanup;
    rc = MF_EXIT_USAGE;
    if ((r = mf_read_file(&text, &len, inputs_path, INPUT_FILE_MAX)) < 0) {
        fprintf(stderr, "mutfarm simulate: %s\n", mf_err_msg());
        rc = exit_code(r == MF_ERROR ? MF_EIO : r);
        goto cleanup;
    }
    /* The sequence is read against the original: a mutant keeps its
     * interface. */
    if ((r = mf_input_seq_parse(&seq, m, inputs_path, text, len)) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        rc = exit_code(r);
        goto cleanup;
    }
    const mf_model *target = m;
    if (mutant_id) {
        if ((r = mf_mutant_find(&mu, m, mutant_id)) < 0) {
            fprintf(stderr, "mutfarm simulate: %s\n", mf_err_msg());
            rc = exit_code(r);
            goto cleanup;
        }
        if (mu->status == MF_MUT_STILLBORN) {
            fprintf(stderr, "mutfarm simulate: mutant %s is stillborn: %s\n",
                    mu->id, mu->why ? mu->why : "it does not type check");
            goto cleanup;
        }
        if ((r = mf_mutant_apply(&mm, m, mu)) < 0) {
            fprintf(stderr, "mutfarm simulate: mutant %s: %s\n", mu->id,
                    mf_err_msg());
            rc = exit_code(r);
            goto cleanup;
        }
        target = mm;
    }

    r = mf_sim_run_all(&out, target, seq, all ? ALL_CAP : 0);
    if (out.len)
        fwrite(out.data, 1, out.len, stdout);
    if (r < 0 && r != MF_EREFUSED) {
        fprintf(stderr, "mutfarm simulate: %s\n", mf_err_msg());
        rc = exit_code(r);
        goto cleanup;
    }
    rc = fflush(stdout) ? MF_EXIT_INTERNAL : MF_EXIT_OK;
cleanup:
    mf_buf_free(&out);
    free(text);
    mf_input_seq_free(seq);
    mf_mutant_free(mu);
    mf_model_free(mm);
    mf_model_free(m);
    mf_cli_model_args_free(&a);
    return rc;
}
