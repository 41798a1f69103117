/* cmd_tests.c - `mutfarm tests export --db F`: the tests of a campaign (or
 * of one of its suites) with their inputs, expected and allowed outputs
 * per step and the mutants each kills, as JSON or CSV
 * (docs/minimisation.md, "Export"). For a complete campaign the kill
 * matrix is filled first when it is missing, so the kills are all of
 * them.
 *
 * The writing is coordinator/report/export.c; this file reads options,
 * picks the output and prints errors. */
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "matrix_cli.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm tests export --db F [--campaign N] "
          "[--format json|csv]\n"
          "                            [--suite NAME] [-o FILE]\n"
          "  the tests of a campaign (the newest in F, or campaign N), or of\n"
          "  its suite NAME (see 'mutfarm minimize'): per test and step the\n"
          "  inputs, the expected observables and, for non-deterministic\n"
          "  models, the observables allowed there; per test the mutants it\n"
          "  kills, the notion of each kill and the step whose input a\n"
          "  mutant refuses. JSON (default): one document; CSV: one row per\n"
          "  test and step. For a complete campaign the kill matrix is\n"
          "  filled first when it is missing.\n"
          "  -o FILE   write to FILE (default: standard output)\n"
          "  exit: 0 done, 1 usage error, no such store, campaign or suite,\n"
          "  2 internal error\n",
          f);
}

static int export_cmd(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'},
        {"suite", required_argument, 0, 's'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = NULL, *suite = NULL, *outp = NULL;
    int64_t campaign = 0;
    mf_export_format fmt = MF_EXPORT_JSON;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "tests export", "--campaign",
                                     optarg, INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 'f':
            if (!strcmp(optarg, "json"))
                fmt = MF_EXPORT_JSON;
            else if (!strcmp(optarg, "csv"))
                fmt = MF_EXPORT_CSV;
            else {
                fprintf(stderr, "mutfarm tests export: --format is json or "
                        "csv, not '%s'\n", optarg);
                return MF_EXIT_USAGE;
            }
            break;
        case 's': suite = optarg; break;
        case 'o': outp = optarg; break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            fprintf(stderr, "mutfarm tests export: unknown option '%s'; see "
                    "'mutfarm tests export --help'\n", argv[optind - 1]);
            return MF_EXIT_USAGE;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "mutfarm tests export: unexpected argument '%s'; see "
                "'mutfarm tests export --help'\n", argv[optind]);
        return MF_EXIT_USAGE;
    }
    mf_store *s = NULL;
    mf_matrix_campaign mc;
    FILE *f = stdout;
    char *tmp = NULL;
    int code = mf_matrix_cli_open(&s, &mc, "tests export", db, campaign);
    if (code)
        return code;
    int64_t sid;
    int frc = suite ? mf_export_suite_find(s, mc.id, suite, &sid) : 0;
    if (frc < 0) { /* before filling the matrix: a typo costs nothing */
        code = mf_matrix_cli_fail("tests export", frc);
        goto done;
    }
    if (mc.info.state == MF_CAMPAIGN_DONE) {
        if ((code = mf_matrix_cli_ensure(s, &mc, "tests export", 1)))
            goto done;
    } else
        fprintf(stderr, "mutfarm tests export: campaign %lld is not complete "
                "yet: the kills are those found so far\n", (long long)mc.id);
    if (outp) {
        /* A whole file or none: written aside, renamed at the end. */
        size_t n = strlen(outp) + 16;
        tmp = malloc(n);
        if (!tmp) {
            code = MF_EXIT_INTERNAL;
            goto done;
        }
        snprintf(tmp, n, "%s.tmp%ld", outp, (long)getpid());
        f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "mutfarm tests export: cannot write %s: %s\n",
                    outp, strerror(errno));
            code = MF_EXIT_USAGE;
            goto done;
        }
    }
    mf_export_opts o = {fmt, suite};
    mf_export_counts n;
    int rc = mf_export_tests(f, s, &mc, &o, &n);
    if (outp) {
        if (fclose(f) != 0 && rc == 0)
            rc = mf_err_set(MF_EIO, "cannot write %s: %s", outp,
                            strerror(errno));
        f = NULL;
        if (rc == 0 && rename(tmp, outp) != 0)
            rc = mf_err_set(MF_EIO, "cannot write %s: %s", outp,
                            strerror(errno));
        if (rc < 0)
            unlink(tmp);
    }
    if (rc < 0) {
        /* A file that cannot be written is the user's to fix. */
        code = mf_matrix_cli_fail("tests export", rc);
        if (rc == MF_EIO)
            code = MF_EXIT_USAGE;
        goto done;
    }
    if (outp)
        fprintf(stderr, "mutfarm tests export: %lld tests, %lld steps, %lld "
                "kills to %s\n", (long long)n.tests, (long long)n.steps,
                (long long)n.kills, outp);
done:
    free(tmp);
    mf_matrix_campaign_close(&mc);
    mf_store_close(s);
    return code;
}

int mf_cmd_tests(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "mutfarm tests: give a subcommand: 'mutfarm tests "
                "export --db F'; see 'mutfarm tests --help'\n");
        return MF_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return MF_EXIT_OK;
    }
    if (!strcmp(argv[1], "export"))
        return export_cmd(argc - 1, argv + 1);
    fprintf(stderr, "mutfarm tests: '%s' is not a subcommand (there is "
            "'export'); see 'mutfarm tests --help'\n", argv[1]);
    return MF_EXIT_USAGE;
}
