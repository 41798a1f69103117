/* cmd_run.c - `mutfarm run MODEL.smv`: a whole campaign on this machine, a
 * coordinator in this process and N local worker processes
 * (docs/running.md).
 *
 * The workers are this same executable, started, restarted when they
 * die before the campaign is complete, and stopped by local_workers.c
 * (shared with `mutfarm matrix --workers`) from the coordinator's loop.
 *
 * The serving itself is coordinator/server.c and the deciding the workers';
 * this file only starts, watches and stops processes. */
#include "cmd.h"

#include <signal.h>
#include <stdio.h>

#include "farm_cli.h"
#include "local_workers.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm run MODEL.smv [--db F] [--workers N] [--bound K|auto]\n"
          "                 [--notion auto|potential|definite] [--operators LIST]\n"
          "                 [--observe VARS] [--inputs VARS] [--sample N]\n"
          "                 [--config F] [--fail-under PCT] [--fresh]\n"
          "                 [--augment NAME]\n"
          "                 [--progress-interval S] [--memory-mb MB]\n"
          "                 [--method auto|smt|bdd|explicit] [--verbose]\n"
          "  --memory-mb MB  Z3's memory budget per solver thread: a check\n"
          "                over it gives up (unknown, with the reason)\n"
          "  the whole campaign on this machine: a coordinator and N local\n"
          "  worker processes (default: one per core). Shows progress on a\n"
          "  terminal (done/total, kills, equivalents, rate, ETA), a line\n"
          "  every S seconds elsewhere, and a summary at the end. An\n"
          "  unfinished campaign of the same model and options in F is\n"
          "  resumed, not started over; a new one takes over what the last\n"
          "  finished campaign of the model in F decided (same model and\n"
          "  options: every verdict; else its tests, replayed first;\n"
          "  docs/nightly.md).\n"
          "  --db F        the store (default: NAME.mutfarm.db in the current\n"
          "                directory for MODEL NAME.smv, or [coordinator] db)\n"
          "  --workers N   local worker processes, one solver thread each\n"
          "  --bound K     deepest test length searched; 'auto': kills of\n"
          "                any length where the explicit-state exploration\n"
          "                finishes, else searched to the default bound\n"
          "  --notion N    what a kill must satisfy on non-deterministic models\n"
          "  --operators LIST  comma-separated operator names (default all)\n"
          "  --inputs/--observe VARS  as for 'mutfarm model check'\n"
          "  --sample N    only N evenly spaced mutants (a quick campaign)\n"
          "  --config F    INI file (config/mutfarm.conf, docs/config.md);\n"
          "                flags override it\n"
          "  --undefined value  the original may leave an observed DEFINE\n"
          "                undefined: compare it as a value of its own (else\n"
          "                run refuses such a model; docs/semantics.md)\n"
          "  --method M    which method decides first ([engine] method):\n"
          "                auto (default), smt, bdd or explicit alone\n"
          "  --fail-under PCT  exit 3 if the mutation score is below PCT\n"
          "  --fresh       a new campaign takes nothing over: every mutant\n"
          "                to the workers\n"
          "  --augment NAME  a new campaign replays the tests of suite NAME\n"
          "                (imported with 'mutfarm tests import') first:\n"
          "                only the mutants they leave alive go to the\n"
          "                workers, whose new tests are stored beside them\n"
          "  --progress-interval S  seconds between progress lines when\n"
          "                stderr is not a terminal (default 10, 0 none)\n"
          "  --verbose     log every message; workers log to the terminal\n"
          "  exit: 0 done, 1 usage or input error, 2 internal error or\n"
          "  interrupted (run again to resume), 3 score below --fail-under\n",
          f);
}

static int tick(mf_coord *c, const mf_coord_progress *p, void *ctx)
{
    (void)c;
    mf_local_workers *f = ctx;
    if (*f->stop) /* Ctrl-C reached the workers too: no restarts */
        return 1;
    mf_local_workers_supervise(f, !p->complete);
    if (f->alive == 0) {
        fprintf(stderr, "\r\033[Kmutfarm run: no worker is left; stopping\n");
        return 1;
    }
    return 0;
}

int mf_cmd_run(int argc, char **argv)
{
    mf_cli_farm cl;
    int code;
    if (mf_cli_farm_parse(&cl, &code, 1, argc, argv, usage))
        return code;
    if (!cl.undefined_value && (code = mf_cli_undefined_check(&cl)))
        return code;

    mf_local_workers f;
    if ((code = mf_local_workers_init(&f, "mutfarm run", cl.workers,
                                      cl.cfg.heartbeat_ms, cl.cfg.liveness,
                                      cl.verbose)))
        return code;
    if ((code = mf_local_workers_bind(&f, cl.cfg.bind, sizeof cl.cfg.bind))) {
        mf_local_workers_free(&f);
        return code;
    }

    mf_cli_signals sig;
    mf_coord_opts o;
    mf_cli_coord_opts(&o, &cl, "mutfarm run", &sig);
    o.quiet = !cl.verbose;
    o.tick = tick;
    o.tick_ctx = &f;
    f.stop = o.stop;
    mf_coord *c = NULL;
    if ((code = mf_cli_coord_open(&c, &o)))
        goto done;
    mf_coord_progress p;
    mf_coord_progress_get(c, &p);
    if (p.done < p.total)
        mf_local_workers_start(&f, mf_coord_endpoint(c));
    int rc = mf_coord_serve(c);
    /* Workers told bye exit by themselves; the others are stopped. */
    mf_local_workers_reap(&f, rc == 0 ? 5000 : 0);
    code = mf_cli_coord_end(c, rc, o.cmd, cl.fail_under, &p);
    if (code == MF_EXIT_BELOW)
        fprintf(stderr, "mutfarm run: mutation score %.1f%% is below "
                        "--fail-under %g\n",
                100.0 * p.score, cl.fail_under);
done:
    mf_local_workers_reap(&f, 0);
    mf_coord_free(c);
    mf_local_workers_free(&f);
    mf_cli_restore_signals(&sig);
    return code;
}
