/* farm_cli.c - what `mutfarm run` and `mutfarm coordinator` share: their
 * options over the config file, the coordinator's options from them, the
 * stop signals, opening the coordinator and the exit code of a finished
 * campaign (farm_cli.h). It serves nothing itself (coordinator/server.c). */
#include "farm_cli.h"

#include <errno.h>
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "endpoint.h"
#include "undef.h"
#include "zap.h"

void mf_cli_default_db(char *out, size_t n, const char *model)
{
    const char *base = strrchr(model, '/');
    base = base ? base + 1 : model;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".smv") == 0)
        len -= 4;
    snprintf(out, n, "%.*s.mutfarm.db", (int)len, base);
}

/* The flags of run and coordinator that set a config key. */
static const mf_cli_flag flags[] = {
    {'d', "--db", "coordinator", "db"},
    {'w', "--workers", "run", "workers"},
    {'B', "--bind", "coordinator", "bind"},
    {'k', "--bound", "campaign", "bound"},
    {'n', "--notion", "campaign", "notion"},
    {'O', "--operators", "campaign", "operators"},
    {'o', "--observe", "campaign", "observe"},
    {'i', "--inputs", "campaign", "inputs"},
    {'P', "--progress-interval", "farm", "progress_s"},
    {'M', "--memory-mb", "engine", "memory_mb"},
    {'K', "--server-secret-key", "security", "server_secret_key"},
    {'A', "--authorized-keys", "security", "authorized_keys"},
    {'Y', "--method", "engine", "method"},
};
#define NFLAGS ((int)(sizeof flags / sizeof flags[0]))

int mf_cli_farm_parse(mf_cli_farm *out, int *exit_code, int run, int argc,
                       char **argv, void (*usage)(FILE *))
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"workers", required_argument, 0, 'w'},
        {"bind", required_argument, 0, 'B'},
        {"bound", required_argument, 0, 'k'},
        {"notion", required_argument, 0, 'n'},
        {"operators", required_argument, 0, 'O'},
        {"observe", required_argument, 0, 'o'},
        {"inputs", required_argument, 0, 'i'},
        {"config", required_argument, 0, 'C'},
        {"fail-under", required_argument, 0, 'f'},
        {"verbose", no_argument, 0, 'v'},
        {"fresh", no_argument, 0, 'F'},
        {"augment", required_argument, 0, 'U'},
        {"sample", required_argument, 0, 'S'},
        {"progress-interval", required_argument, 0, 'P'},
        {"memory-mb", required_argument, 0, 'M'},
        {"curve", no_argument, 0, 'c'},
        {"server-secret-key", required_argument, 0, 'K'},
        {"authorized-keys", required_argument, 0, 'A'},
        {"method", required_argument, 0, 'Y'},
        {"undefined", required_argument, 0, 'N'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *cmd = argv[0];
    memset(out, 0, sizeof *out);
    mf_config_default(&out->cfg);
    /* Which db and bind the file sets is told apart from the defaults by
     * clearing them first. */
    out->cfg.db[0] = 0;
    char bind_default[sizeof out->cfg.bind];
    snprintf(bind_default, sizeof bind_default, "%s", out->cfg.bind);
    out->cfg.bind[0] = 0;
    out->fail_under = -1;
    *exit_code = MF_EXIT_USAGE;

    /* --config first: the other flags override what it says. */
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            *exit_code = MF_EXIT_OK;
            return 1;
        }
        if (c == 'C' && mf_config_load(&out->cfg, optarg) < 0) {
            fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
            return 1;
        }
    }
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        char *end;
        long v;
        if (c == 'w' && !run) {
            fprintf(stderr, "mutfarm %s: --workers is an option of "
                            "'mutfarm run'; start workers with 'mutfarm "
                            "worker --connect ...'\n", cmd);
            return 1;
        }
        if (c == 'B' && run) {
            fprintf(stderr, "mutfarm %s: --bind is an option of 'mutfarm "
                            "coordinator'; run's workers are local\n",
                    cmd);
            return 1;
        }
        if ((c == 'c' || c == 'K' || c == 'A') && run) {
            fprintf(stderr, "mutfarm %s: %s is an option of 'mutfarm "
                            "coordinator'; run's workers are local, on a "
                            "private socket (docs/security.md)\n",
                    cmd, c == 'c'   ? "--curve"
                          : c == 'K' ? "--server-secret-key"
                                     : "--authorized-keys");
            return 1;
        }
        const mf_cli_flag *f = mf_cli_flag_find(flags, NFLAGS, c);
        if (f) {
            if (mf_cli_flag_set(&out->cfg, cmd, f, optarg) < 0)
                return 1;
            continue;
        }
        switch (c) {
        case 'C': break; /* done above */
        case 'f':
            errno = 0;
            out->fail_under = strtod(optarg, &end);
            if (errno || end == optarg || *end || out->fail_under < 0 ||
                out->fail_under > 100) {
                fprintf(stderr, "mutfarm %s: --fail-under needs a percentage "
                                "0..100, not '%s'\n", cmd, optarg);
                return 1;
            }
            break;
        case 'N':
            if (strcmp(optarg, "value")) {
                fprintf(stderr, "mutfarm %s: --undefined takes 'value' (an "
                                "undefined observable is a value of its "
                                "own), not '%s'\n",
                        cmd, optarg);
                return 1;
            }
            out->undefined_value = 1;
            break;
        case 'v': out->verbose = 1; break;
        case 'c': out->cfg.curve = 1; break;
        case 'F': out->fresh = 1; break;
        case 'U': out->augment = optarg; break;
        case 'S':
            errno = 0;
            v = strtol(optarg, &end, 10);
            if (errno || end == optarg || *end || v < 1 || v > 100000000) {
                fprintf(stderr, "mutfarm %s: --sample needs a count of "
                                "mutants 1..100000000, not '%s'\n",
                        cmd, optarg);
                return 1;
            }
            out->cfg.sample = (int)v;
            break;
        default:
            fprintf(stderr, "mutfarm %s: unknown option '%s'; see "
                            "'mutfarm %s --help'\n",
                    cmd, argv[optind - 1], cmd);
            return 1;
        }
    }
    if (optind != argc - 1) {
        if (optind >= argc)
            fprintf(stderr, "mutfarm %s: give the model: mutfarm %s "
                            "MODEL.smv ...; see 'mutfarm %s --help'\n",
                    cmd, cmd, cmd);
        else
            fprintf(stderr, "mutfarm %s: one model only; unexpected '%s'\n",
                    cmd, argv[optind + 1 < argc ? optind + 1 : optind]);
        return 1;
    }
    out->model = argv[optind];
    out->db_given = out->cfg.db[0] != 0;
    out->bind_given = out->cfg.bind[0] != 0;
    if (!out->db_given)
        mf_cli_default_db(out->cfg.db, sizeof out->cfg.db, out->model);
    if (!out->bind_given)
        snprintf(out->cfg.bind, sizeof out->cfg.bind, "%s", bind_default);
    if (!run && mf_endpoint_check(out->cfg.bind, 1, "--bind") < 0) {
        fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
        return 1;
    }
    if (run && out->cfg.curve) {
        /* Local workers on a private ipc:// socket (local_workers.c). */
        fprintf(stderr, "mutfarm %s: note: [security] curve = on is for "
                        "'mutfarm coordinator'; run's local workers do not "
                        "use it (docs/security.md)\n", cmd);
        out->cfg.curve = 0;
    }
    if (mf_zap_check(&out->cfg) < 0) { /* before the store is opened */
        fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
        return 1;
    }
    out->workers = out->cfg.workers;
    return 0;
}

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

void mf_cli_coord_opts(mf_coord_opts *o, mf_cli_farm *cl, const char *cmd,
                       mf_cli_signals *saved)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &saved->old_int);
    sigaction(SIGTERM, &sa, &saved->old_term);
    stop_flag = 0;

    memset(o, 0, sizeof *o);
    o->model_path = cl->model;
    o->cfg = &cl->cfg;
    o->cmd = cmd;
    o->progress_tty = isatty(STDERR_FILENO);
    /* Off a terminal (cron, CI, SLURM) a line now and then instead. */
    o->progress_log_ms = o->progress_tty ? 0 : cl->cfg.progress_s * 1000u;
    o->fresh = cl->fresh;
    o->augment = cl->augment;
    o->verbose = cl->verbose;
    o->stop = &stop_flag;
}

void mf_cli_restore_signals(const mf_cli_signals *saved)
{
    sigaction(SIGINT, &saved->old_int, NULL);
    sigaction(SIGTERM, &saved->old_term, NULL);
}

int mf_cli_exit_code(const mf_coord_progress *p, double fail_under)
{
    if (fail_under < 0 || p->score < 0)
        return MF_EXIT_OK;
    return 100.0 * p->score < fail_under ? MF_EXIT_BELOW : MF_EXIT_OK;
}

int mf_cli_coord_open(mf_coord **out, const mf_coord_opts *o)
{
#ifdef __GLIBC__
    /* Every batch's transaction has SQLite allocate and free a large
     * buffer; glibc would hand it back to the kernel each time (brk) and
     * fault it in again, page by page: most of the coordinator's system
     * time at a few thousand jobs a second (bench/farm.sh (a)). Keep it. */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
#endif
    int rc = mf_coord_open(out, o);
    if (rc == 0)
        return MF_EXIT_OK;
    fprintf(stderr, "%s: %s\n", o->cmd, mf_err_msg());
    return rc == MF_ERROR ? MF_EXIT_INTERNAL : MF_EXIT_USAGE;
}

int mf_cli_coord_end(mf_coord *c, int rc, const char *cmd, double fail_under,
                     mf_coord_progress *p)
{
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", cmd, mf_err_msg());
    if (rc != 0)
        return MF_EXIT_INTERNAL;
    mf_coord_progress_get(c, p);
    p->complete = 1;
    mf_coord_summary(stdout, p, mf_coord_db(c));
    return mf_cli_exit_code(p, fail_under);
}

/* States explored looking for an undefined observable (as model check). */
#define UNDEF_STATES 20000

int mf_cli_undefined_check(const mf_cli_farm *cl)
{
    mf_cli_model_args a = {0};
    if (cl->cfg.inputs[0])
        a.inputs_arg = mf_xstrdup(cl->cfg.inputs);
    if (cl->cfg.observe[0])
        a.observe_arg = mf_xstrdup(cl->cfg.observe);
    mf_model *m = NULL;
    int code = mf_cli_load_model(&m, cl->model, &a);
    mf_cli_model_args_free(&a);
    if (code)
        return code;
    mf_undef_hit h;
    if (mf_undef_find(m, UNDEF_STATES, &h) == MF_UNDEF_FOUND) {
        fprintf(stderr,
                "mutfarm run: the original's %s is undefined (no case "
                "branch applies) in a state reached in %d steps; give "
                "--undefined value to compare an undefined observable as "
                "a value of its own (docs/semantics.md, Undefined "
                "observables); the test:\n",
                m->items[m->obs_defines[h.define]].name, h.test->length);
        mf_buf b = {0};
        mf_test_print(&b, m, h.test);
        fwrite(b.data, 1, b.len, stderr);
        mf_buf_free(&b);
        mf_test_free(h.test);
        code = MF_EXIT_USAGE;
    }
    mf_model_free(m);
    return code;
}
