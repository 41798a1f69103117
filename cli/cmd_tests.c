/* cmd_tests.c - `mutfarm tests export --db F`: the tests of a campaign (or
 * of one of its suites) with their inputs, expected and allowed outputs
 * per step and the mutants each kills, as JSON or CSV
 * (docs/minimisation.md, "Export"). For a complete campaign the kill
 * matrix is filled first when it is missing, so the kills are all of
 * them. `mutfarm tests import --db F FILE`: a user's suite (what export
 * writes, or the hand-written text form of docs/suites.md) kept as a
 * named suite of the campaign, for `mutfarm score`.
 *
 * The writing is coordinator/report/export.c, the reading suite_read.c
 * and suite.c; this file reads options, picks the output and prints
 * errors. */
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
#include "suite.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm tests import --db F [--campaign N] "
          "[--format json|csv|text]\n"
          "                            [--name NAME] FILE\n"
          "  a test suite of your own, kept as suite NAME (default: FILE's\n"
          "  name without its ending) of the campaign (the newest in F, or\n"
          "  campaign N) for 'mutfarm score': the JSON or CSV that 'tests\n"
          "  export' writes, or the text form of docs/suites.md (one state\n"
          "  a line: 'inputs -> expected observables'). The format is\n"
          "  FILE's ending (.json, .csv, else text) unless given. Every\n"
          "  test is checked against the campaign's model; a bad one is\n"
          "  one line 'FILE:LINE: ...' and nothing is stored.\n"
          "  exit: 0 done, 1 usage or input error, 2 internal error\n\n",
          f);
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

/* The suite's default name and format from FILE: its base name without
 * its ending, and the ending. */
static void from_path(const char *path, char *name, size_t cap,
                      mf_suite_format *fmt)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(name, cap, "%.*s", (int)n, base);
    *fmt = dot && !strcmp(dot, ".json") ? MF_SUITE_JSON
           : dot && !strcmp(dot, ".csv") ? MF_SUITE_CSV
                                         : MF_SUITE_TEXT;
}

/* Largest suite file read. */
#define MAX_SUITE_FILE ((size_t)1 << 30)

static int import_cmd(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'},
        {"name", required_argument, 0, 'n'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = NULL, *name = NULL, *fmt_word = NULL;
    int64_t campaign = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "tests import", "--campaign",
                              optarg, INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 'f': fmt_word = optarg; break;
        case 'n': name = optarg; break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            fprintf(stderr, "mutfarm tests import: unknown option '%s'; see "
                    "'mutfarm tests --help'\n", argv[optind - 1]);
            return MF_EXIT_USAGE;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "mutfarm tests import: give one FILE; see 'mutfarm "
                "tests --help'\n");
        return MF_EXIT_USAGE;
    }
    const char *path = argv[optind];
    char defname[256];
    mf_suite_format fmt;
    from_path(path, defname, sizeof defname, &fmt);
    if (fmt_word && mf_suite_format_parse(&fmt, fmt_word) < 0) {
        fprintf(stderr, "mutfarm tests import: --format is json, csv or "
                "text, not '%s'\n", fmt_word);
        return MF_EXIT_USAGE;
    }
    if (!name)
        name = defname;
    if (!name[0]) {
        fprintf(stderr, "mutfarm tests import: a suite needs a name: give "
                "--name NAME\n");
        return MF_EXIT_USAGE;
    }
    mf_store *s = NULL;
    mf_matrix_campaign mc;
    mf_suite_file sf = {0};
    char *text = NULL;
    size_t len = 0;
    int code = mf_matrix_cli_open(&s, &mc, "tests import", db, campaign);
    if (code)
        return code;
    int rc = mf_read_file(&text, &len, path, MAX_SUITE_FILE);
    if (rc == 0)
        rc = mf_suite_read(&sf, mc.model, path, text, len, fmt);
    if (rc == 0)
        rc = mf_suite_import(s, &mc, name, fmt, path, &sf);
    if (rc < 0) {
        code = mf_matrix_cli_fail("tests import", rc);
        if (rc == MF_EIO)
            code = MF_EXIT_USAGE;
    } else {
        int64_t steps = 0;
        for (int i = 0; i < sf.n; i++)
            steps += sf.v[i].t->length + 1;
        fprintf(stderr, "mutfarm tests import: suite '%s' of campaign %lld: "
                "%d tests, %lld steps\n", name, (long long)mc.id, sf.n,
                (long long)steps);
    }
    free(text);
    mf_suite_file_free(&sf);
    mf_matrix_campaign_close(&mc);
    mf_store_close(s);
    return code;
}

int mf_cmd_tests(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "mutfarm tests: give a subcommand: 'mutfarm tests "
                "export --db F' or 'mutfarm tests import --db F FILE'; see "
                "'mutfarm tests --help'\n");
        return MF_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return MF_EXIT_OK;
    }
    if (!strcmp(argv[1], "export"))
        return export_cmd(argc - 1, argv + 1);
    if (!strcmp(argv[1], "import"))
        return import_cmd(argc - 1, argv + 1);
    fprintf(stderr, "mutfarm tests: '%s' is not a subcommand (there are "
            "'export' and 'import'); see 'mutfarm tests --help'\n", argv[1]);
    return MF_EXIT_USAGE;
}
