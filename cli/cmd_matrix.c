/* cmd_matrix.c - `mutfarm matrix --db F`: fill the kill matrix of a
 * complete campaign (every test by every killed, survived or unknown
 * mutant, with the notion each kill has) in the store, and print its
 * counts (docs/minimisation.md). `minimize` and `tests export` fill it
 * themselves when it is missing; this command does it alone, and is what
 * bench/matrix.sh times.
 *
 * With --bind or --workers the matrix goes through the farm as jobs
 * (coordinator/report/matrix_farm.c; local workers by local_workers.c);
 * without, it is filled in this process (coordinator/report/matrix.c).
 * This file reads options, starts what it is asked to and prints. */
#include "cmd.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "local_workers.h"
#include "cli.h"
#include "matrix_cli.h"
#include "matrix_farm.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm matrix --db F [--campaign N] [--threads N] "
          "[--refill]\n"
          "                      [--bind ENDPOINT] [--workers N] "
          "[--job-pairs N]\n"
          "                      [--config F]\n"
          "  replay every test of a complete campaign (the newest in F, or\n"
          "  campaign N) on every killed, survived or unknown mutant with\n"
          "  the simulator, and store each kill with its notion in F (the\n"
          "  views mutant_tests and campaign_tests). A full matrix is kept;\n"
          "  a fill that was stopped resumes.\n"
          "  --threads N  replay in N threads (default 1)\n"
          "  --refill     drop the replayed kills and replay again\n"
          "  through the farm (docs/minimisation.md, 'Large matrices'):\n"
          "  --bind ENDPOINT  hand the work out as jobs at ENDPOINT\n"
          "               (tcp://*:5556) to workers started with 'mutfarm\n"
          "               worker --connect tcp://HOST:5556'\n"
          "  --workers N  also start N local worker processes (alone: on a\n"
          "               private ipc:// socket)\n"
          "  --job-pairs N  test x mutant pairs a job (default: 32768 or\n"
          "               more, a block of 256 tests in at most 16 jobs)\n"
          "  --config F   the [farm] heartbeat, liveness, lease and\n"
          "               attempts settings (docs/config.md)\n"
          "  exit: 0 done, 1 usage error, no such store or campaign, or a\n"
          "  campaign not complete yet, 2 internal error, or a farm fill\n"
          "  stopped by a signal (the same command resumes it)\n",
          f);
}

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* Local workers, watched from the farm's loop. */
static int tick(void *ctx)
{
    mf_local_workers *lw = ctx;
    if (stop_flag)
        return 1;
    mf_local_workers_supervise(lw, 1);
    if (lw->alive == 0) {
        fprintf(stderr, "mutfarm matrix: no local worker is left; "
                "stopping\n");
        return 1;
    }
    return 0;
}

/* The fill through the farm: 0 or the exit code, said on stderr. */
static int fill_farm(mf_store *s, const mf_matrix_campaign *mc,
                     const char *bind, const char *config, int workers,
                     int64_t job_pairs, int refill, mf_matrix_stats *st)
{
    mf_config cfg;
    mf_config_default(&cfg);
    if (config && mf_config_load(&cfg, config) < 0) {
        fprintf(stderr, "mutfarm matrix: %s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    mf_local_workers lw;
    memset(&lw, 0, sizeof lw);
    char ep[600];
    int code;
    if (workers && (code = mf_local_workers_init(&lw, "mutfarm matrix",
                                                 workers, cfg.heartbeat_ms,
                                                 cfg.liveness, 0)))
        return code;
    if (bind)
        snprintf(ep, sizeof ep, "%s", bind);
    else if ((code = mf_local_workers_bind(&lw, ep, sizeof ep))) {
        mf_local_workers_free(&lw);
        return code;
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    stop_flag = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    lw.stop = &stop_flag;

    mf_matrix_farm_opts fo = {0};
    fo.bind = ep;
    fo.cmd = "mutfarm matrix";
    fo.heartbeat_ms = cfg.heartbeat_ms;
    fo.liveness = (unsigned)cfg.liveness;
    fo.lease_ms = cfg.lease_ms;
    fo.max_attempts = cfg.max_attempts;
    fo.job_pairs = job_pairs;
    fo.refill = refill;
    fo.quiet = workers && !bind;
    fo.stop = &stop_flag;
    if (workers) {
        fo.tick = tick;
        fo.tick_ctx = &lw;
    }
    mf_matrix_farm *f = NULL;
    int rc = mf_matrix_farm_open(&f, s, mc, &fo);
    if (rc < 0) {
        fprintf(stderr, "mutfarm matrix: %s\n", mf_err_msg());
        code = MF_EXIT_USAGE;
        goto done;
    }
    if (bind)
        fprintf(stderr, "mutfarm matrix: jobs at %s; workers: mutfarm "
                "worker --connect %s\n", mf_matrix_farm_endpoint(f), bind);
    if (workers)
        mf_local_workers_start(&lw, mf_matrix_farm_endpoint(f));
    rc = mf_matrix_farm_run(f, st);
    if (workers) /* told Bye, they leave by themselves */
        mf_local_workers_reap(&lw, rc == 0 ? 5000 : 0);
    if (rc < 0)
        code = mf_matrix_cli_fail("matrix", rc);
    else if (rc > 0) {
        fprintf(stderr, "mutfarm matrix: stopped; the jobs done are kept, "
                "the same command resumes\n");
        code = MF_EXIT_INTERNAL;
    } else
        code = MF_EXIT_OK;
done:
    mf_matrix_farm_free(f);
    if (workers)
        mf_local_workers_free(&lw);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return code;
}

int mf_cmd_matrix(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"threads", required_argument, 0, 't'},
        {"refill", no_argument, 0, 'r'},
        {"bind", required_argument, 0, 'b'},
        {"workers", required_argument, 0, 'w'},
        {"job-pairs", required_argument, 0, 'j'},
        {"config", required_argument, 0, 'C'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = NULL, *bind = NULL, *config = NULL;
    int64_t campaign = 0, threads = 1, workers = 0, job_pairs = 0;
    int refill = 0, threads_given = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "matrix", "--campaign",
                                     optarg, INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 't':
            if (mf_cli_number(&threads, "matrix", "--threads", optarg,
                                     256))
                return MF_EXIT_USAGE;
            threads_given = 1;
            break;
        case 'r': refill = 1; break;
        case 'b': bind = optarg; break;
        case 'C': config = optarg; break;
        case 'w':
            if (mf_cli_number(&workers, "matrix", "--workers", optarg,
                                     1024))
                return MF_EXIT_USAGE;
            break;
        case 'j':
            if (mf_cli_number(&job_pairs, "matrix", "--job-pairs",
                                     optarg, 1000000000))
                return MF_EXIT_USAGE;
            break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            return mf_cli_unknown_option("matrix", argv[optind - 1]);
        }
    }
    if (optind != argc) {
        return mf_cli_extra_argument("matrix", argv[optind]);
    }
    int farm = bind || workers;
    if (farm && threads_given) {
        fprintf(stderr, "mutfarm matrix: --threads is for a fill in this "
                "process; with --bind or --workers the workers replay\n");
        return MF_EXIT_USAGE;
    }
    if (!farm && (job_pairs || config)) {
        fprintf(stderr, "mutfarm matrix: --job-pairs and --config are for a "
                "fill through the farm: add --bind or --workers\n");
        return MF_EXIT_USAGE;
    }
    if (bind && !bind[0]) {
        fprintf(stderr, "mutfarm matrix: --bind needs an endpoint such as "
                "tcp://*:5556\n");
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
    int rc;
    if (farm) {
        code = fill_farm(s, &mc, bind, config, (int)workers, job_pairs,
                         refill, &st);
        if (code)
            goto done;
    } else if ((rc = mf_matrix_fill(s, &mc, &o, &st)) < 0) {
        code = mf_matrix_cli_fail("matrix", rc);
        goto done;
    }
    printf("campaign %lld (%s): kill matrix of %lld tests x %lld mutants\n",
           (long long)mc.id, mc.info.model, (long long)st.tests,
           (long long)st.mutants);
    if (st.already)
        printf("  full already (--refill replays it again)\n");
    else if (farm)
        printf("  %lld replays in %.3f s: %.0f a second, through the farm: "
               "%lld jobs, %lld of them done by an earlier run, %lld "
               "leased again after a lost lease\n",
               (long long)st.pairs, st.secs,
               st.secs > 0 ? (double)st.pairs / st.secs : 0.0,
               (long long)st.jobs, (long long)st.jobs_resumed,
               (long long)st.jobs_again);
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
