/* cmd_score.c - `mutfarm score --db F --suite NAME`: the mutation score of
 * a suite imported with `mutfarm tests import` (docs/suites.md): its tests
 * replayed on every killed, survived or unknown mutant of the campaign by
 * the simulator (no solver), its wrong tests, kills per notion, the score
 * with and without the equivalent mutants, and the mutants it leaves
 * alive.
 *
 * The scoring is coordinator/report/suite.c; this file reads options and
 * prints errors. */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "matrix_cli.h"
#include "suite.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm score --db F --suite NAME [--campaign N] "
          "[--threads N]\n"
          "                     [--format text|json]\n"
          "  the mutation score of suite NAME (imported with 'mutfarm tests\n"
          "  import') on the campaign's mutants (the newest campaign in F,\n"
          "  or campaign N): each test replayed on every killed, survived\n"
          "  or unknown mutant, no solver. A test whose expected outputs\n"
          "  the model does not show is a wrong test: reported with its\n"
          "  step, counted apart, never used to kill. Then the mutants\n"
          "  killed per notion, the score without and with the equivalent\n"
          "  mutants, and the mutants left alive (id, operator, line:col).\n"
          "  --threads N   replay threads (default 1)\n"
          "  exit: 0 done, 1 usage error, no such store, campaign or suite,\n"
          "  2 internal error\n",
          f);
}

int mf_cmd_score(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"suite", required_argument, 0, 's'},
        {"threads", required_argument, 0, 't'},
        {"format", required_argument, 0, 'f'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = NULL;
    int64_t campaign = 0, threads = 1;
    mf_score_opts o = {NULL, 1, MF_SCORE_TEXT};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "score", "--campaign", optarg,
                              INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 's': o.suite = optarg; break;
        case 't':
            if (mf_cli_number(&threads, "score", "--threads", optarg, 256))
                return MF_EXIT_USAGE;
            break;
        case 'f':
            if (!strcmp(optarg, "text"))
                o.format = MF_SCORE_TEXT;
            else if (!strcmp(optarg, "json"))
                o.format = MF_SCORE_JSON;
            else {
                fprintf(stderr, "mutfarm score: --format is text or json, "
                        "not '%s'\n", optarg);
                return MF_EXIT_USAGE;
            }
            break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            return mf_cli_unknown_option("score", argv[optind - 1]);
        }
    }
    if (optind != argc) {
        return mf_cli_extra_argument("score", argv[optind]);
    }
    if (!o.suite) {
        fprintf(stderr, "mutfarm score: give --suite NAME (a suite "
                "imported with 'mutfarm tests import')\n");
        return MF_EXIT_USAGE;
    }
    o.threads = threads > 0 ? (int)threads : 1;
    mf_store *s = NULL;
    mf_matrix_campaign mc;
    int code = mf_matrix_cli_open(&s, &mc, "score", db, campaign);
    if (code)
        return code;
    if (mc.info.state != MF_CAMPAIGN_DONE)
        fprintf(stderr, "mutfarm score: campaign %lld is not complete yet: "
                "its mutants without a verdict are not scored\n",
                (long long)mc.id);
    mf_score_counts n;
    int rc = mf_suite_score(stdout, s, &mc, &o, &n);
    if (rc < 0)
        code = mf_matrix_cli_fail("score", rc);
    mf_matrix_campaign_close(&mc);
    mf_store_close(s);
    return code;
}
