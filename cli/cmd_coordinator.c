/* cmd_coordinator.c - `mutfarm coordinator MODEL.smv --db F --bind EP`:
 * serve one campaign to remote workers until it is complete
 * (coordinator/server.h, docs/running.md).
 *
 * The serving itself is coordinator/server.c and the options it shares
 * with `mutfarm run` are cli/farm_cli.c; this file prints its help and
 * turns the outcome into an exit code. */
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "farm_cli.h"

/* ---- mutfarm coordinator -------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("usage: mutfarm coordinator MODEL.smv --db F --bind ENDPOINT\n"
          "                 [--bound K] [--notion auto|potential|definite]\n"
          "                 [--operators LIST] [--observe VARS] [--inputs VARS]\n"
          "                 [--sample N] [--config F] [--fail-under PCT]\n"
          "                 [--fresh] [--progress-interval S] [--memory-mb MB]\n"
          "                 [--verbose]\n"
          "                 [--curve --server-secret-key F --authorized-keys D]\n"
          "                 [--method auto|smt|bdd|explicit]\n"
          "  serve one campaign to workers ('mutfarm worker --connect\n"
          "  tcp://HOST:PORT' on any machine) until every mutant has its\n"
          "  verdict, then tell them bye and exit. Plans the campaign into\n"
          "  the SQLite file F, or resumes the unfinished campaign of the\n"
          "  same model and options in F. A new campaign takes over what the\n"
          "  last finished campaign of the model in F decided (docs/nightly.md):\n"
          "  if that leaves nothing to decide it exits at once, complete.\n"
          "  Waits while no worker is connected.\n"
          "  --db F        the store (default: NAME.mutfarm.db in the current\n"
          "                directory for MODEL NAME.smv, or [coordinator] db)\n"
          "  --bind EP     ZeroMQ endpoint (default: [coordinator] bind,\n"
          "                tcp://*:5555); tcp://*:* picks a free port\n"
          "  --config F    INI file (config/mutfarm.conf, docs/config.md);\n"
          "                flags override it\n"
          "  --sample N    only N evenly spaced mutants (a quick campaign)\n"
          "  --method M    which method decides first ([engine] method):\n"
          "                auto (default), smt, bdd or explicit alone\n"
          "  --fail-under PCT  exit 3 if the mutation score is below PCT\n"
          "  --fresh       a new campaign takes nothing over: every mutant\n"
          "                to the workers\n"
          "  --memory-mb MB  Z3's memory budget per solver thread: a check\n"
          "                over it gives up (unknown, with the reason)\n"
          "  --progress-interval S  seconds between progress lines when\n"
          "                stderr is not a terminal (default 10, 0 none)\n"
          "  --verbose     log every message\n"
          "  --curve       encrypt and authenticate with ZeroMQ CURVE\n"
          "                ([security] curve, docs/security.md): only\n"
          "                workers whose public key is in --authorized-keys\n"
          "                (a NAME.key file, or a directory of them) get in\n"
          "  --server-secret-key F  this coordinator's NAME.key_secret\n"
          "                ('mutfarm keygen'); workers hold its NAME.key\n"
          "  --authorized-keys D  the workers' public keys\n"
          "  Every kill a worker reports is replayed by the simulator before\n"
          "  it is stored; a result whose test does not kill is refused, and\n"
          "  a worker with 3 refused results is cut off.\n"
          "  exit: 0 complete, 1 usage or input error, 2 internal error or\n"
          "  interrupted (the campaign resumes with the same command),\n"
          "  3 score below --fail-under\n",
          f);
}

int mf_cmd_coordinator(int argc, char **argv)
{
    mf_cli_farm cl;
    int code;
    if (mf_cli_farm_parse(&cl, &code, 0, argc, argv, usage))
        return code;

    mf_cli_signals sig;
    mf_coord_opts o;
    mf_cli_coord_opts(&o, &cl, "mutfarm coordinator", &sig);
    mf_coord *c = NULL;
    if ((code = mf_cli_coord_open(&c, &o)))
        goto done;
    fprintf(stderr, "mutfarm coordinator: listening on %s, store %s\n",
            mf_coord_endpoint(c), mf_coord_db(c));
    mf_coord_progress p;
    code = mf_cli_coord_end(c, mf_coord_serve(c), o.cmd, cl.fail_under, &p);
done:
    mf_coord_free(c);
    mf_cli_restore_signals(&sig);
    return code;
}
