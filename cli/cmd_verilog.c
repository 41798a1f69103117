/* cmd_verilog.c - `mutfarm verilog FILE... [--top T] [--reset SIG=V[:N]]
 * [--mutants N|all] [-o OUT.vsmv]`: a Verilog design translated through
 * yosys (verilog/translate.h) into the text every other command reads as
 * a model: several files, a named top and a reset, which a lone .v file
 * given to a command cannot say. docs/verilog.md. */
#include "cmd.h"
#include "translate.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: mutfarm verilog FILE.v [MORE.v ...] [--top NAME]\n"
    "                       [--reset SIGNAL=0|1[:CYCLES]] [--mutants N|all]\n"
    "                       [-o OUT.vsmv]\n"
    "\n"
    "Reads a Verilog design with yosys and writes its translation: the\n"
    "model every command takes (check, run, mutants, simulate, ...), with\n"
    "the design's ports as inputs and observables and yosys's mcy\n"
    "mutations (mutate -list) as its mutants.\n"
    "\n"
    "--top NAME       the top module (default: yosys's choice, the one\n"
    "                 module no other instantiates)\n"
    "--reset S=V[:N]  registers start as after N cycles (default 1) with\n"
    "                 input S at V (default: Verilog initial values,\n"
    "                 else free)\n"
    "--mutants N|all  yosys's even sample of N mutations (default 200)\n"
    "-o OUT           write there (default: standard output)\n"
    "\n"
    "exit: 0 written, 1 refused (one line on stderr), 2 internal\n";

int mf_cmd_verilog(int argc, char **argv)
{
    static const struct option longs[] = {
        {"top", required_argument, NULL, 't'},
        {"reset", required_argument, NULL, 'r'},
        {"mutants", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    mf_verilog_opts o = {.nmutants = MF_VERILOG_DEFAULT_MUTANTS};
    const char *outp = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longs, NULL)) != -1) {
        switch (c) {
        case 't': o.top = optarg; break;
        case 'r': o.reset = optarg; break;
        case 'o': outp = optarg; break;
        case 'm':
            if (!strcmp(optarg, "all")) {
                o.nmutants = MF_VERILOG_ALL_MUTANTS;
            } else if ((o.nmutants = atoi(optarg)) < 1) {
                fprintf(stderr, "mutfarm verilog: --mutants %s: a positive "
                        "number or all\n", optarg);
                return MF_EXIT_USAGE;
            }
            break;
        case 'h': fputs(usage, stdout); return MF_EXIT_OK;
        default: fputs(usage, stderr); return MF_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fputs(usage, stderr);
        return MF_EXIT_USAGE;
    }
    mf_buf out = {0};
    int rc = mf_verilog_translate_files(
        &out, (const char *const *)argv + optind, argc - optind, &o);
    if (rc < 0) {
        fprintf(stderr, "mutfarm verilog: %s\n", mf_err_msg());
        mf_buf_free(&out);
        return MF_EXIT_USAGE;
    }
    FILE *f = outp ? fopen(outp, "wb") : stdout;
    int bad = !f || fwrite(out.data, 1, out.len, f) != out.len;
    if (outp && f && fclose(f) != 0)
        bad = 1;
    mf_buf_free(&out);
    if (bad) {
        fprintf(stderr, "mutfarm verilog: cannot write %s\n",
                outp ? outp : "standard output");
        return MF_EXIT_USAGE;
    }
    return MF_EXIT_OK;
}
