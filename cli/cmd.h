/* cmd.h - the subcommands of the `mutfarm` executable (docs/architecture.md).
 *
 * main.c dispatches `mutfarm NAME ARGS...` to mf_cmd_NAME(argc, argv) with
 * argv[0] == "NAME" (so getopt-style parsing works unchanged). No command
 * calls another (what several share is cli.c and farm_cli.c). Each command
 * prints its own `--help`, writes errors to stderr as one actionable line,
 * and returns the process exit code: */
#ifndef MF_CMD_H
#define MF_CMD_H

enum {
    MF_EXIT_OK = 0,       /* done */
    MF_EXIT_USAGE = 1,    /* usage or input error (bad option, bad model) */
    MF_EXIT_INTERNAL = 2, /* internal error, or not implemented yet */
    MF_EXIT_BELOW = 3,    /* score below --fail-under */
};

/* mutfarm model (check|print) MODEL  -- cmd_model.c */
int mf_cmd_model(int argc, char **argv);
/* mutfarm verilog FILE.v... [--top T] [--reset S=V] -o F  -- cmd_verilog.c */
int mf_cmd_verilog(int argc, char **argv);
/* mutfarm mutants list MODEL | mutants show MODEL ID  -- cmd_mutants.c */
int mf_cmd_mutants(int argc, char **argv);
/* mutfarm simulate MODEL [--mutant ID] --inputs FILE  -- cmd_simulate.c */
int mf_cmd_simulate(int argc, char **argv);

/* mutfarm check MODEL [--mutant ID|--all|--against F] ...  -- cmd_check.c */
int mf_cmd_check(int argc, char **argv);
/* mutfarm check on a timed model (UPPAAL XML, an Ecdar project), which
 * mf_cmd_check hands over to  -- cmd_check_ta.c */
int mf_cmd_check_ta(int argc, char **argv);
/* 1 when path names a timed model (an .xml or .json file, a folder). */
int mf_cmd_check_is_timed(const char *path);
/* mutfarm mm SPEC.kiss2 ... count|analyse|complete  -- cmd_mm.c */
int mf_cmd_mm(int argc, char **argv);
/* mutfarm worker --connect ENDPOINT [--threads N] ...  -- cmd_worker.c */
int mf_cmd_worker(int argc, char **argv);
/* mutfarm run MODEL [--db F] [--workers N] ...  -- cmd_run.c */
int mf_cmd_run(int argc, char **argv);
/* mutfarm coordinator MODEL --db F --bind EP ...  -- cmd_coordinator.c */
int mf_cmd_coordinator(int argc, char **argv);
/* mutfarm status --db F  -- cmd_status.c */
int mf_cmd_status(int argc, char **argv);
/* mutfarm report --db F [--format F] [-o FILE] | --history  -- cmd_report.c */
int mf_cmd_report(int argc, char **argv);
/* mutfarm matrix --db F [--campaign N] [--threads N]  -- cmd_matrix.c */
int mf_cmd_matrix(int argc, char **argv);
/* mutfarm minimize --db F [--exact] [--name NAME]  -- cmd_minimize.c */
int mf_cmd_minimize(int argc, char **argv);
/* mutfarm dominators --db F [--campaign N]  -- cmd_dominators.c */
int mf_cmd_dominators(int argc, char **argv);
/* mutfarm tests export|import --db F ...  -- cmd_tests.c */
int mf_cmd_tests(int argc, char **argv);
/* mutfarm score --db F --suite NAME  -- cmd_score.c */
int mf_cmd_score(int argc, char **argv);
/* mutfarm keygen [-o BASENAME]  -- cmd_keygen.c */
int mf_cmd_keygen(int argc, char **argv);

#endif
