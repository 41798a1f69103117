/* cmd_worker.c - `mutfarm worker`: serve a coordinator's jobs until it says
 * the campaign is complete (worker/farm_worker.h, docs/protocol.md).
 *
 * Only options are parsed here; the process loop is mf_worker_run. */
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "endpoint.h"
#include "farm_worker.h"
#include "keys.h"

#ifndef MF_VERSION
#define MF_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fputs("usage: mutfarm worker --connect ENDPOINT [--threads N] [--persist]\n"
          "                      [--config F] [--heartbeat MS] [--liveness N]\n"
          "                      [--grace MS] [--id NAME] [--verbose]\n"
          "                      [--curve --server-public-key F\n"
          "                       --client-secret-key F]\n"
          "  decide jobs of the coordinator at ENDPOINT (tcp://host:5555,\n"
          "  ipc:///path) with N solver threads (default: one per core).\n"
          "  Also replays kill-matrix jobs ('mutfarm matrix --bind').\n"
          "  ENDPOINT is required: --connect, or [worker] connect in F.\n"
          "  Flags override the [worker] and [farm] keys of --config F.\n"
          "  Waits for a coordinator that is not up yet, reconnects with\n"
          "  back-off when it goes silent for liveness x heartbeat.\n"
          "  --persist   stay for the next campaign after the coordinator's\n"
          "              bye (default: exit 0)\n"
          "  --grace MS  on SIGTERM/SIGINT, let running jobs finish this long\n"
          "              before giving them back (default 10000)\n"
          "  --curve     encrypt and authenticate with ZeroMQ CURVE\n"
          "              ([security] curve, docs/security.md)\n"
          "  --server-public-key F  the coordinator's NAME.key\n"
          "  --client-secret-key F  this worker's NAME.key_secret\n"
          "              ('mutfarm keygen'; its NAME.key goes to the\n"
          "              coordinator's authorized_keys)\n"
                    "  exit: 0 campaign complete or stopped by a signal, 1 usage error\n"
          "  (no or a malformed ENDPOINT too),\n"
          "  2 internal error (e.g. the coordinator speaks another protocol)\n",
          f);
}

static int parse_num(const char *opt, const char *s, long lo, long hi,
                     long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi) {
        fprintf(stderr, "mutfarm worker: %s needs a number %ld..%ld, not "
                        "'%s'\n", opt, lo, hi, s);
        return -1;
    }
    *v = x;
    return 0;
}

/* The flags that set a config key: applied after --config is loaded. */
static const mf_cli_flag flags[] = {
    {'c', "--connect", "worker", "connect"},
    {'t', "--threads", "worker", "threads"},
    {'H', "--heartbeat", "farm", "heartbeat_ms"},
    {'L', "--liveness", "farm", "liveness"},
    {'S', "--server-public-key", "security", "server_public_key"},
    {'K', "--client-secret-key", "security", "client_secret_key"},
};
#define NFLAGS ((int)(sizeof flags / sizeof flags[0]))

/* One such flag as given. */
typedef struct {
    const mf_cli_flag *f;
    const char *value;
} flag_set;

/* With [security] curve on: the coordinator's public key and this
 * worker's pair, read into *server and *client and set in *wo; -1 after
 * a message naming what to fix. */
static int curve_keys(mf_worker_opts *wo, mf_keypair *server,
                      mf_keypair *client, const mf_config *cfg)
{
    if (!cfg->curve)
        return 0;
    const char *why = NULL;
    if (!mf_keys_have_curve())
        why = "this libzmq is built without CURVE";
    else if (!cfg->server_public_key[0])
        why = "give the coordinator's public key: --server-public-key "
              "NAME.key ([security] server_public_key)";
    else if (!cfg->client_secret_key[0])
        why = "give this worker's secret key: --client-secret-key "
              "NAME.key_secret ([security] client_secret_key; make one "
              "with 'mutfarm keygen')";
    if (why) {
        fprintf(stderr, "mutfarm worker: --curve: %s\n", why);
        return -1;
    }
    if (mf_keys_read(server, cfg->server_public_key, 0) < 0 ||
        mf_keys_read(client, cfg->client_secret_key, 1) < 0) {
        fprintf(stderr, "mutfarm worker: %s\n", mf_err_msg());
        return -1;
    }
    wo->curve_server_key = server->public_key;
    wo->curve_public_key = client->public_key;
    wo->curve_secret_key = client->secret_key;
    return 0;
}

int mf_cmd_worker(int argc, char **argv)
{
    static const struct option lo[] = {
        {"connect", required_argument, 0, 'c'},
        {"threads", required_argument, 0, 't'},
        {"persist", no_argument, 0, 'p'},
        {"config", required_argument, 0, 'C'},
        {"heartbeat", required_argument, 0, 'H'},
        {"liveness", required_argument, 0, 'L'},
        {"grace", required_argument, 0, 'g'},
        {"id", required_argument, 0, 'I'},
        {"verbose", no_argument, 0, 'v'},
        {"curve", no_argument, 0, 'V'},
        {"server-public-key", required_argument, 0, 'S'},
        {"client-secret-key", required_argument, 0, 'K'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    mf_worker_opts wo;
    mf_worker_opts_default(&wo);
    wo.mutfarm_version = MF_VERSION;
    flag_set sets[8];
    int nsets = 0, c, curve = 0;
    const char *config = NULL;
    long v;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        const mf_cli_flag *f = mf_cli_flag_find(flags, NFLAGS, c);
        if (f) {
            sets[nsets++] = (flag_set){f, optarg};
            if (nsets == (int)(sizeof sets / sizeof sets[0])) {
                fprintf(stderr, "mutfarm worker: too many options\n");
                return MF_EXIT_USAGE;
            }
            continue;
        }
        switch (c) {
        case 'p': wo.persist = 1; break;
        case 'C': config = optarg; break;
        case 'g':
            if (parse_num("--grace", optarg, 0, 86400000, &v) < 0)
                return MF_EXIT_USAGE;
            wo.grace_ms = (unsigned)v;
            break;
        case 'I': wo.worker_id = optarg; break;
        case 'v': wo.verbose = 1; break;
        case 'V': curve = 1; break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        default:
            return mf_cli_unknown_option("worker", argv[optind - 1]);
        }
    }
    if (optind != argc) {
        return mf_cli_extra_argument("worker", argv[optind]);
    }

    /* defaults < --config file < flags */
    mf_config cfg;
    mf_config_default(&cfg);
    /* No default coordinator: a worker dialling localhost:5555 unasked
     * would wait there silently. --connect or [worker] connect says. */
    cfg.connect[0] = 0;
    if (config && mf_config_load(&cfg, config) < 0) {
        fprintf(stderr, "mutfarm worker: %s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    for (int i = 0; i < nsets; i++)
        if (mf_cli_flag_set(&cfg, "worker", sets[i].f, sets[i].value) < 0)
            return MF_EXIT_USAGE;
    if (curve)
        cfg.curve = 1;
    mf_keypair server, client;
    if (curve_keys(&wo, &server, &client, &cfg) < 0)
        return MF_EXIT_USAGE;
    wo.connect = cfg.connect;
    if (cfg.threads > 0) /* 0: one per core, the default of wo */
        wo.threads = cfg.threads;
    wo.heartbeat_ms = cfg.heartbeat_ms;
    wo.liveness = (unsigned)cfg.liveness;
    wo.reconnect_min_ms = cfg.reconnect_ms;
    wo.reconnect_max_ms = cfg.reconnect_max_ms;
    if (!wo.connect[0]) {
        fprintf(stderr, "mutfarm worker: give the coordinator with --connect "
                        "tcp://HOST:PORT (or [worker] connect in --config)\n");
        return MF_EXIT_USAGE;
    }
    if (mf_endpoint_check(wo.connect, 0, "--connect") < 0) {
        fprintf(stderr, "mutfarm worker: %s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    int rc = mf_worker_run(&wo);
    explicit_bzero(&client, sizeof client);
    if (rc < 0) {
        fprintf(stderr, "mutfarm worker: %s\n", mf_err_msg());
        return MF_EXIT_INTERNAL;
    }
    return MF_EXIT_OK;
}
