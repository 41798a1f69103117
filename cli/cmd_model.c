/* cmd_model.c - `mutfarm model check|print MODEL`: accept or refuse a model,
 * show the inputs and observables mutfarm settled on, or print the
 * flattened model as canonical SMV. It neither mutates nor runs a model. */
#include "cli.h"
#include "cmd.h"

#include <stdio.h>
#include <string.h>

#include "undef.h"

static const char usage[] =
    "usage: mutfarm model check MODEL [--inputs A,B] [--observe X,Y]\n"
    "       mutfarm model print MODEL [--inputs A,B] [--observe X,Y]\n"
    "\n"
    "check  parses, flattens and type checks MODEL; prints its variables,\n"
    "       the inputs (chosen by a test) and observables (compared between\n"
    "       original and mutant) mutfarm settled on, and the canonical hash.\n"
    "print  prints the flattened model as canonical SMV (one MODULE main);\n"
    "       a timed model as its flattened network.\n"
    "\n"
    "--inputs A,B   these VARs (and every IVAR) are the inputs; no inference\n"
    "--observe X,Y  observe these VARs/DEFINEs instead of all non-inputs\n"
    "\n"
    "Timed models (UPPAAL .xml; an Ecdar project folder or a component's\n"
    ".json; docs/timed.md): --inputs and --outputs (or --observe) name the\n"
    "input and output channels;\n"
    "--system NAME  Ecdar: the component that is the system (default: the\n"
    "               one component with input edges)\n"
    "--env T1,T2    UPPAAL: the environment templates (not mutated; the\n"
    "               channels only they send are the inputs)\n"
    "\n"
    "exit: 0 accepted, 1 refused (error: or unsupported: on stderr), 2 "
    "internal\n";

static void list_vars(const mf_model *m, const char *title, int inputs)
{
    printf("%s:", title);
    int n = 0;
    for (int i = 0; i < m->nvars; i++) {
        const mf_var *v = &m->vars[i];
        if (inputs ? !v->is_input : !v->is_observable)
            continue;
        printf(" %s", v->name);
        n++;
    }
    if (!inputs)
        for (int i = 0; i < m->nobs_defines; i++, n++)
            printf(" %s", m->items[m->obs_defines[i]].name);
    printf("%s\n", n ? "" : " (none)");
}

static void check_report(const mf_model *m)
{
    int counts[MF_IT_INVAR_C + 1] = {0};
    for (int i = 0; i < m->nitems; i++)
        counts[m->items[i].kind]++;
    int decl[3] = {0};
    for (int i = 0; i < m->nvars; i++)
        decl[m->vars[i].decl]++;
    printf("%s: ok\n", m->file);
    printf("variables: %d VAR, %d IVAR, %d FROZENVAR (%d state cells)\n",
           decl[MF_DECL_VAR], decl[MF_DECL_IVAR], decl[MF_DECL_FROZENVAR],
           m->nslots);
    printf("items: %d DEFINE, %d init, %d next, %d invariant assignments, "
           "%d INIT, %d TRANS, %d INVAR\n",
           counts[MF_IT_DEFINE], counts[MF_IT_INIT], counts[MF_IT_NEXT],
           counts[MF_IT_ASSIGN], counts[MF_IT_INIT_C], counts[MF_IT_TRANS_C],
           counts[MF_IT_INVAR_C]);
    list_vars(m, "inputs", 1);
    list_vars(m, "observables", 0);
    printf("hash: %s\n", m->hash);
}

/* States explored looking for an undefined observable. */
#define UNDEF_STATES 20000

/* Warns where the original leaves an observed DEFINE undefined in a
 * reachable state (docs/semantics.md, Undefined observables): the state's
 * observables and the shortest test reaching it. */
static void undefined_report(const mf_model *m)
{
    mf_undef_hit h;
    int rc = mf_undef_find(m, UNDEF_STATES, &h);
    if (rc == MF_UNDEF_FOUND) {
        const char *name = m->items[m->obs_defines[h.define]].name;
        printf("warning: the original's %s is undefined (no case branch "
               "applies) in a state reached in %d steps; 'mutfarm run' "
               "needs --undefined value to compare it (docs/semantics.md, "
               "Undefined observables); the test:\n",
               name, h.test->length);
        mf_buf b = {0};
        mf_test_print(&b, m, h.test);
        fwrite(b.data, 1, b.len, stdout);
        mf_buf_free(&b);
        mf_test_free(h.test);
    }
    /* None found, or not all explored: nothing to say (the search is a
     * service of check, not a proof). */
}

int mf_cmd_model(int argc, char **argv)
{
    mf_cli_model_args a = {0};
    const char *action = NULL, *path = NULL;
    int rc = MF_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        int t = mf_cli_take_model_arg(&a, &rc, "model", usage, argc,
                                          argv, &i);
        if (t < 0)
            goto cleanup;
        if (t > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "mutfarm model: unknown option '%s' (see --help)\n",
                    argv[i]);
            goto cleanup;
        }
        if (!action)
            action = argv[i];
        else if (!path)
            path = argv[i];
        else {
            fprintf(stderr, "mutfarm model: unexpected argument '%s'\n",
                    argv[i]);
            goto cleanup;
        }
    }
    if (!action || !path ||
        (strcmp(action, "check") && strcmp(action, "print"))) {
        fputs(usage, stderr);
        goto cleanup;
    }
    mf_model *m = NULL;
    rc = mf_cli_load_model(&m, path, &a);
    if (rc)
        goto cleanup;
    if (!strcmp(action, "check") && m->lang->describe) {
        mf_buf b = {0};
        printf("%s: ok\n", m->file);
        m->lang->describe(&b, m);
        fwrite(b.data, 1, b.len, stdout);
        mf_buf_free(&b);
    } else if (!strcmp(action, "check")) {
        check_report(m);
        undefined_report(m);
    } else {
        mf_buf b = {0};
        mf_model_print(&b, m);
        fwrite(b.data, 1, b.len, stdout);
        mf_buf_free(&b);
    }
    mf_model_free(m);
    rc = fflush(stdout) ? MF_EXIT_INTERNAL : MF_EXIT_OK;
cleanup:
    mf_cli_model_args_free(&a);
    return rc;
}
