/* cmd_dominators.c - `mutfarm dominators --db F`: the dominator mutants of
 * a complete campaign from its full kill matrix (docs/minimisation.md,
 * "Dominator mutants"): the counts, the dominator score, per operator,
 * and every class of mutants the suite cannot tell apart. Fills the kill
 * matrix first when it is missing.
 *
 * The work is coordinator/report/dominators.c; this file reads options
 * and prints. */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "dominators_text.h"
#include "matrix_cli.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm dominators --db F [--campaign N] [--threads N]\n"
          "  the dominator mutants of a complete campaign (the newest in F,\n"
          "  or campaign N): mutants killed by the same tests grouped in\n"
          "  classes, the classes whose kill set holds another's (redundant:\n"
          "  every test that kills that one kills them), the smallest set of\n"
          "  mutants whose kills imply every kill, and the dominator score\n"
          "  beside the mutation score; then every class with its mutants.\n"
          "  Fills the kill matrix first when it is missing (see 'mutfarm\n"
          "  matrix').\n"
          "  --threads N     replay threads to fill the matrix (default 1)\n"
          "  exit: 0 done, 1 usage error, no such store or campaign, or a\n"
          "  campaign not complete yet, 2 internal error\n",
          f);
}

int mf_cmd_dominators(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"threads", required_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = NULL;
    int64_t campaign = 0, threads = 1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "dominators", "--campaign", optarg,
                              INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 't':
            if (mf_cli_number(&threads, "dominators", "--threads", optarg,
                              256))
                return MF_EXIT_USAGE;
            break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            return mf_cli_unknown_option("dominators", argv[optind - 1]);
        }
    }
    if (optind != argc) {
        return mf_cli_extra_argument("dominators", argv[optind]);
    }
    mf_store *s = NULL;
    mf_matrix_campaign mc;
    int code = mf_matrix_cli_open(&s, &mc, "dominators", db, campaign);
    if (code)
        return code;
    if ((code = mf_matrix_cli_ensure(s, &mc, "dominators", (int)threads)))
        goto done;
    mf_dominators d;
    int rc = mf_dominators_compute(&d, mf_store_db(s), mc.id);
    if (rc < 0) {
        code = mf_matrix_cli_fail("dominators", rc);
        goto done;
    }
    printf("campaign %lld (%s): %lld tests\n", (long long)mc.id,
           mc.info.model, (long long)d.tests);
    mf_dominators_print_summary(stdout, &d);
    mf_dominators_print_classes(stdout, &d);
    mf_dominators_free(&d);
done:
    mf_matrix_campaign_close(&mc);
    mf_store_close(s);
    return code;
}
