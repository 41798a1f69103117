/* main.c - the `mutfarm` entry point: git-style dispatch of subcommands,
 * `--help`, `help [COMMAND]` and `--version`.
 *
 * It parses no subcommand options itself; each command lives in its own
 * file (declared in cmd.h) and receives argv starting at its own name. */
#include "cmd.h"
#include "mf_version.h"
#include "store.h"

#include <stdio.h>
#include <string.h>

#ifndef MF_VERSION
#define MF_VERSION "unknown"
#endif

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv); /* NULL: a later issue builds it */
    const char *synopsis;             /* usage lines, indented */
} command;

static const command commands[] = {
    {"run", mf_cmd_run,
     "run MODEL.smv [--db F] [--workers N] [--bound K] [--notion N]\n"
     "            [--operators LIST] [--observe VARS] [--inputs VARS]\n"
     "            [--config F] [--fail-under PCT]\n"
     "      a whole campaign on this machine (coordinator + local workers)"},
    {"coordinator", mf_cmd_coordinator,
     "coordinator MODEL.smv --db F --bind tcp://*:5555 [run's options]\n"
     "      serve one campaign to remote workers"},
    {"worker", mf_cmd_worker,
     "worker --connect tcp://HOST:5555 [--threads N] [--persist]\n"
     "      decide jobs of a coordinator"},
    {"status", mf_cmd_status,
     "status --db F\n"
     "      live or finished campaign state"},
    {"model", mf_cmd_model,
     "model (check|print) MODEL\n"
     "      accept or refuse a model; inferred inputs and observables"},
    {"verilog", mf_cmd_verilog,
     "verilog FILE.v [MORE.v ...] [--top NAME] [--reset SIG=V[:N]] [-o F]\n"
     "      a Verilog design through yosys into a model (docs/verilog.md)"},
    {"mutants", mf_cmd_mutants,
     "mutants list MODEL [--operators LIST] | mutants show MODEL ID\n"
     "      the mutants of a model, or one of them as SMV"},
    {"simulate", mf_cmd_simulate,
     "simulate MODEL [--mutant ID] --inputs FILE\n"
     "      run a model or mutant on an input sequence"},
    {"check", mf_cmd_check,
     "check MODEL [--mutant ID|--all|--against OTHER.smv] [--bound K]\n"
     "      verdicts and tests on the terminal, no farm\n"
     "    check MODEL --criterion branch|ufp|transition-pair|state|all\n"
     "      coverage requirements: covered, infeasible, open; winnowing"},
    {"mm", mf_cmd_mm,
     "mm SPEC.kiss2 [--extra ROWS.kiss2] [--ops LIST] count|analyse|complete\n"
     "      mutation machines of a KISS2 machine: count, analyse a suite,\n"
     "      complete one (docs/fsm.md)"},
    {"matrix", mf_cmd_matrix,
     "matrix --db F [--campaign N] [--threads N] [--refill]\n"
     "            [--bind ENDPOINT] [--workers N]\n"
     "      the kill matrix: every test replayed on every mutant, here\n"
     "      or by workers as jobs"},
    {"report", mf_cmd_report,
     "report --db F [--campaign N] [--format text|json|html|junit]\n"
     "            [-o FILE] | report --db F --history\n"
     "      mutation score, operators, survivors; the score history"},
    {"tests", mf_cmd_tests,
     "tests export --db F [--campaign N] [--format json|csv] [--suite NAME]\n"
     "             [-o FILE]\n"
     "      the tests found, with expected outputs and the mutants killed\n"
     "    tests import --db F [--format json|csv|text] [--name NAME] FILE\n"
     "      a test suite of your own, for 'score' (docs/suites.md)"},
    {"score", mf_cmd_score,
     "score --db F --suite NAME [--campaign N] [--format text|json]\n"
     "      an imported suite's mutation score, wrong tests, mutants alive"},
    {"minimize", mf_cmd_minimize,
     "minimize --db F [--campaign N] [--exact] [--name NAME]\n"
     "      a smallest test suite killing every killed mutant"},
    {"dominators", mf_cmd_dominators,
     "dominators --db F [--campaign N]\n"
     "      dominator mutants from the kill matrix: redundant mutants,\n"
     "      the minimal set, the dominator score"},
    {"keygen", mf_cmd_keygen,
     "keygen [-o BASENAME]\n"
     "      a CURVE key pair for a coordinator or worker (docs/security.md)"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])


static void usage(FILE *f)
{
    fputs("usage: mutfarm COMMAND [ARGS...]\n"
          "       mutfarm help [COMMAND] | --help | --version\n"
          "\n"
          "mutation testing of formal models (SMV, KISS2, Verilog; UPPAAL and\n"
          "Ecdar timed automata with check) on a farm of Z3 workers\n"
          "\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %s\n", commands[i].synopsis);
    fputs("\n"
          "'mutfarm COMMAND --help' describes one command.\n"
          "exit codes: 0 done, 1 usage or input error, 2 internal error,\n"
          "            3 score below --fail-under\n",
          f);
}

/* The command called `name`, or NULL after saying that there is none. */
static const command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    fprintf(stderr, "mutfarm: '%s' is not a command; see 'mutfarm --help'\n",
            name);
    return NULL;
}

static int is_help(const char *s)
{
    return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0;
}


int main(int argc, char **argv)
{
    const command *c;

    /* Before any SQLite use; should it fail, SQLite only keeps counting
     * its memory, as before. */
    (void)mf_store_process_init();
    if (argc < 2) {
        usage(stderr);
        return MF_EXIT_USAGE;
    }
    if (is_help(argv[1])) {
        usage(stdout);
        return MF_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("mutfarm %s (git %s)\n", MF_VERSION, MF_COMMIT);
        return MF_EXIT_OK;
    }
    if (strcmp(argv[1], "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return MF_EXIT_OK;
        }
        if (!(c = find(argv[2])))
            return MF_EXIT_USAGE;
        char help[] = "--help";
        char *hargv[] = {argv[2], help, NULL};
        return c->fn(2, hargv);
    }
    if (argv[1][0] == '-') {
        fprintf(stderr, "mutfarm: unknown option '%s'; see 'mutfarm --help'\n",
                argv[1]);
        return MF_EXIT_USAGE;
    }
    if (!(c = find(argv[1])))
        return MF_EXIT_USAGE;
    return c->fn(argc - 1, argv + 1);
}
