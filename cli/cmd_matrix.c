/* cmd_matrix.c - `mutfarm matrix --db F`: fill the kill matrix of a
 * complete campaign (every test by every killed, survived or unknown
 * mutant, with the notion each kill has) in the store, and print its
 * counts (docs/minimisation.md). `minimize` and `tests export` fill it
 * themselves when it is missing; this command does it alone, and is what
 * bench/matrix.sh times.
 *
 * The replay is coordinator/report/matrix.c; this file reads options and
 * prints. */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "matrix_cli.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm matrix --db F [--campaign N] [--threads N] "
          "[--refill]\n"
          "  replay every test of a complete campaign (the newest in F, or\n"
          "  campaign N) on every killed, survived or unknown mutant with\n"
          "  the simulator, and store each kill with its notion in F (the\n"
          "  views mutant_tests and campaign_tests). A full matrix is kept;\n"
          "  a fill that was stopped resumes.\n"
          "  --threads N  replay in N threads (default 1)\n"
          "  --refill     drop the replayed kills and replay again\n"
          "  exit: 0 done, 1 usage error, no such store or campaign, or a\n"
          "  campaign not complete yet, 2 internal error\n",
          f);
}

int mf_cmd_matrix(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"threads", required_argument, 0, 't'},
        {"refill", no_argument, 0, 'r'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = NULL;
    int64_t campaign = 0, threads = 1;
    int refill = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c':
            if (mf_matrix_cli_number(&campaign, "matrix", "--campaign",
                                     optarg, INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 't':
            if (mf_matrix_cli_number(&threads, "matrix", "--threads", optarg,
                                     256))
                return MF_EXIT_USAGE;
            break;
        case 'r': refill = 1; break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            fprintf(stderr, "mutfarm matrix: unknown option '%s'; see "
                    "'mutfarm matrix --help'\n", argv[optind - 1]);
            return MF_EXIT_USAGE;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "mutfarm matrix: unexpected argument '%s'; see "
                "'mutfarm matrix --help'\n", argv[optind]);
        return MF_EXIT_USAGE;
    }
    mf_store *s = NULL;
    mf_matrix_campaign mc;
    int code = mf_matrix_cli_open(&s, &mc, "matrix", db, campaign);
    if (code)
        return code;
    if (mc.info.state != MF_CAMPAIGN_DONE) {
        fprintf(stderr, "mutfarm matrix: campaign %lld is not complete yet "
                "(see 'mutfarm status --db %s'); its kill matrix is made "
                "once every mutant has its verdict\n", (long long)mc.id, db);
        code = MF_EXIT_USAGE;
        goto done;
    }
    mf_matrix_opts o = {(int)threads, refill, 0, 0};
    mf_matrix_stats st;
    int rc = mf_matrix_fill(s, &mc, &o, &st);
    if (rc < 0) {
        code = mf_matrix_cli_fail("matrix", rc);
        goto done;
    }
    printf("campaign %lld (%s): kill matrix of %lld tests x %lld mutants\n",
           (long long)mc.id, mc.info.model, (long long)st.tests,
           (long long)st.mutants);
    if (st.already)
        printf("  full already (--refill replays it again)\n");
    else
        printf("  %lld replays in %.3f s: %.0f a second, %d thread%s\n",
               (long long)st.pairs, st.secs,
               st.secs > 0 ? (double)st.pairs / st.secs : 0.0, o.threads,
               o.threads == 1 ? "" : "s");
    printf("  kills: %lld (%lld deterministic, %lld definite, %lld "
           "potential); undecided: %lld\n",
           (long long)st.kills, (long long)st.by_notion[MF_N_DETERMINISTIC],
           (long long)st.by_notion[MF_N_DEFINITE],
           (long long)st.by_notion[MF_N_POTENTIAL], (long long)st.undecided);
    if (st.undecided && st.undecided_why[0])
        printf("  undecided pairs are past the replay's limits; the first: "
               "%s\n", st.undecided_why);
    if (st.unconfirmed)
        printf("  note: %lld kills of the verdicts are not shown by the "
               "replay; they are kept as the verdicts say\n",
               (long long)st.unconfirmed);
    printf("  store: %s (sqlite3 %s 'SELECT * FROM mutant_tests WHERE "
           "campaign_id = %lld')\n", db, db, (long long)mc.id);
done:
    mf_matrix_campaign_close(&mc);
    mf_store_close(s);
    return code;
}
