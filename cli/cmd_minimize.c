/* cmd_minimize.c - `mutfarm minimize --db F`: a smallest test suite of a
 * complete campaign that kills every mutant its whole suite kills, each
 * as strongly, stored as a named suite in F (docs/minimisation.md). Fills
 * the kill matrix first when it is missing.
 *
 * The work is coordinator/report/minimize.c; this file reads options and
 * prints the counts before and after. */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "matrix_cli.h"
#include "minimize.h"

#define DEFAULT_TIMEOUT_S 60

static void usage(FILE *f)
{
    fputs("usage: mutfarm minimize --db F [--campaign N] [--exact] "
          "[--name NAME]\n"
          "                        [--timeout SECS] [--threads N]\n"
          "  a smallest set of the tests of a complete campaign (the newest\n"
          "  in F, or campaign N) that kills every mutant the whole suite\n"
          "  kills, each as strongly (definite and deterministic kills stay\n"
          "  so), after dropping duplicate tests and tests that are prefixes\n"
          "  of others; replayed to check it, and stored in F as the suite\n"
          "  NAME (default 'minimal', with --exact 'minimal-exact'; a suite\n"
          "  of that name is replaced). Fills the kill matrix first when it\n"
          "  is missing (see 'mutfarm matrix').\n"
          "  --exact         the fewest tests, then the fewest steps, by Z3's\n"
          "                  Optimize (default: greedy)\n"
          "  --timeout SECS  Z3's budget with --exact (default 60); past it\n"
          "                  the greedy suite is kept and the output says so\n"
          "  --threads N     replay threads to fill the matrix (default 1)\n"
          "  exit: 0 done, 1 usage error, no such store or campaign, or a\n"
          "  campaign not complete yet, 2 internal error\n",
          f);
}

int mf_cmd_minimize(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"exact", no_argument, 0, 'e'},
        {"name", required_argument, 0, 'n'},
        {"timeout", required_argument, 0, 'T'},
        {"threads", required_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = NULL, *name = NULL;
    int64_t campaign = 0, threads = 1, timeout = DEFAULT_TIMEOUT_S;
    int exact = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "minimize", "--campaign",
                                     optarg, INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 'e': exact = 1; break;
        case 'n': name = optarg; break;
        case 'T':
            if (mf_cli_number(&timeout, "minimize", "--timeout",
                                     optarg, 86400))
                return MF_EXIT_USAGE;
            break;
        case 't':
            if (mf_cli_number(&threads, "minimize", "--threads",
                                     optarg, 256))
                return MF_EXIT_USAGE;
            break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            return mf_cli_unknown_option("minimize", argv[optind - 1]);
        }
    }
    if (optind != argc) {
        return mf_cli_extra_argument("minimize", argv[optind]);
    }
    if (name && (!name[0] || strlen(name) > 100)) {
        fprintf(stderr, "mutfarm minimize: --name needs 1 to 100 "
                "characters\n");
        return MF_EXIT_USAGE;
    }
    mf_store *s = NULL;
    mf_matrix_campaign mc;
    int code = mf_matrix_cli_open(&s, &mc, "minimize", db, campaign);
    if (code)
        return code;
    if ((code = mf_matrix_cli_ensure(s, &mc, "minimize", (int)threads)))
        goto done;
    mf_minimize_opts o = {exact, name, (unsigned)timeout * 1000u};
    mf_minimize_result r;
    int rc = mf_minimize(s, &mc, &o, &r);
    if (rc < 0) {
        code = mf_matrix_cli_fail("minimize", rc);
        goto done;
    }
    printf("campaign %lld (%s): %lld mutants killed by its tests (%lld "
           "definitely or deterministically)\n",
           (long long)mc.id, mc.info.model, (long long)r.mutants,
           (long long)r.strong);
    printf("  all tests:           %6lld tests, %6lld steps\n",
           (long long)r.tests, (long long)r.length);
    printf("  without duplicates and prefixes: %lld tests, %lld steps (%lld "
           "duplicates, %lld prefixes dropped)\n",
           (long long)r.kept, (long long)r.kept_length,
           (long long)r.duplicates, (long long)r.prefixes);
    printf("  greedy:              %6lld tests, %6lld steps\n",
           (long long)r.greedy, (long long)r.greedy_length);
    if (exact && !r.fell_back)
        printf("  exact:               %6lld tests, %6lld steps (%s, %.2f "
               "s)\n", (long long)r.chosen, (long long)r.chosen_length,
               r.optimal ? "smallest" : "not proved smallest", r.exact_secs);
    if (r.fell_back)
        printf("  exact: %s\n", r.note);
    printf("  stored: suite '%s' of %lld tests, %lld steps%s\n", r.name,
           (long long)r.chosen, (long long)r.chosen_length,
           r.replaced ? " (replaced the suite of that name)" : "");
    printf("  replayed: it kills the same %lld mutants, each as strongly\n",
           (long long)r.checked);
    printf("  its tests: mutfarm tests export --db %s --campaign %lld "
           "--suite %s --format json\n", db, (long long)mc.id, r.name);
done:
    mf_matrix_campaign_close(&mc);
    mf_store_close(s);
    return code;
}
