/* cmd_run.c - `mutfarm run MODEL.smv`: a whole campaign on this machine, a
 * coordinator in this process and N local worker processes
 * (docs/running.md).
 *
 * The workers are this same executable (`mutfarm worker --connect
 * ipc://...`) started with fork+exec and supervised from the coordinator's
 * loop: one that dies before the campaign is complete is started again
 * (its job went back to the queue through the usual heartbeat rule), one
 * that keeps dying at start is given up. Their log lines go to files in a
 * private temporary directory, so the progress line stays readable; the
 * last line of a dead worker's log is repeated on stderr.
 *
 * The serving itself is coordinator/server.c and the deciding the workers';
 * this file only starts, watches and stops processes. */
#include "cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "farm_cli.h"

/* A worker that exits (not killed by a signal: that is a crash in a job,
 * whose job the quarantine rule takes care of) this soon after its start
 * counts as a failed start; this many failed starts in a row and its slot
 * is given up. */
#define QUICK_DEATH_MS 2000
#define MAX_QUICK_DEATHS 3
/* Restarts allowed over the whole run, per worker slot. */
#define MAX_RESTARTS 50

static void usage(FILE *f)
{
    fputs("usage: mutfarm run MODEL.smv [--db F] [--workers N] [--bound K|auto]\n"
          "                 [--notion auto|potential|definite] [--operators LIST]\n"
          "                 [--observe VARS] [--inputs VARS] [--sample N]\n"
          "                 [--config F] [--fail-under PCT] [--fresh]\n"
          "                 [--progress-interval S] [--verbose]\n"
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
          "  --fail-under PCT  exit 3 if the mutation score is below PCT\n"
          "  --fresh       a new campaign takes nothing over: every mutant\n"
          "                to the workers\n"
          "  --progress-interval S  seconds between progress lines when\n"
          "                stderr is not a terminal (default 10, 0 none)\n"
          "  --verbose     log every message; workers log to the terminal\n"
          "  exit: 0 done, 1 usage or input error, 2 internal error or\n"
          "  interrupted (run again to resume), 3 score below --fail-under\n",
          f);
}

typedef struct {
    pid_t pid;       /* 0: not running */
    int64_t started; /* monotonic ms */
    int quick;       /* quick deaths in a row */
    int restarts;
    int gave_up;
    char log[1100];  /* its stderr */
} slot;

typedef struct {
    slot *slots;
    int n;
    char endpoint[600];
    char heartbeat[16], liveness[16];
    int verbose;
    int alive;       /* slots not given up */
    volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM */
} farm;

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int start_worker(farm *f, int i)
{
    slot *s = &f->slots[i];
    char *argv[] = {"mutfarm",     "worker",   "--connect", f->endpoint,
                    "--threads",   "1",        "--heartbeat",
                    f->heartbeat,  "--liveness", f->liveness, NULL};
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "mutfarm run: cannot start a worker: %s\n",
                strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls between fork and exec. */
#ifdef __linux__
        /* A run killed with SIGKILL leaves no orphan workers behind. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(1);
#else
        (void)parent;
#endif
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, STDIN_FILENO);
            close(fd);
        }
        if (!f->verbose) {
            fd = open(s->log, O_WRONLY | O_CREAT | O_APPEND, 0600);
            if (fd >= 0) {
                dup2(fd, STDOUT_FILENO);
                dup2(fd, STDERR_FILENO);
                close(fd);
            }
        }
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    s->pid = pid;
    s->started = mono_ms();
    return 0;
}

/* The last non-empty line of a worker's log, into buf ("" if none). */
static void last_line(char *buf, size_t n, const char *path)
{
    buf[0] = 0;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char line[512];
    while (fgets(line, sizeof line, fp)) {
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (len)
            snprintf(buf, n, "%s", line);
    }
    fclose(fp);
}

static void describe(char *buf, size_t n, int status)
{
    if (WIFSIGNALED(status))
        snprintf(buf, n, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(buf, n, "exit %d", WEXITSTATUS(status));
}

/* Reap dead workers; start again the ones that died before the end. */
static void supervise(farm *f, int restart)
{
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            return;
        for (int i = 0; i < f->n; i++) {
            slot *s = &f->slots[i];
            if (s->pid != pid)
                continue;
            s->pid = 0;
            if (!restart)
                break;
            char how[64], last[400];
            describe(how, sizeof how, status);
            last_line(last, sizeof last, s->log);
            int64_t age = mono_ms() - s->started;
            s->quick = age < QUICK_DEATH_MS && !WIFSIGNALED(status)
                           ? s->quick + 1
                           : 0;
            fprintf(stderr, "\r\033[Kmutfarm run: worker %d (pid %d) died "
                            "(%s)%s%s\n",
                    i + 1, (int)pid, how, last[0] ? ": " : "", last);
            if (s->quick >= MAX_QUICK_DEATHS || s->restarts >= MAX_RESTARTS) {
                fprintf(stderr, "mutfarm run: worker %d keeps dying; not "
                                "starting it again\n", i + 1);
                s->gave_up = 1;
                f->alive--;
            } else {
                s->restarts++;
                if (start_worker(f, i) < 0) {
                    s->gave_up = 1;
                    f->alive--;
                }
            }
            break;
        }
    }
}

static int tick(mf_coord *c, const mf_coord_progress *p, void *ctx)
{
    (void)c;
    farm *f = ctx;
    if (*f->stop) /* Ctrl-C reached the workers too: no restarts */
        return 1;
    supervise(f, !p->complete);
    if (f->alive == 0) {
        fprintf(stderr, "\r\033[Kmutfarm run: no worker is left; stopping\n");
        return 1;
    }
    return 0;
}

static int running(const farm *f)
{
    int n = 0;
    for (int i = 0; i < f->n; i++)
        n += f->slots[i].pid > 0;
    return n;
}

/* Wait up to ms for every worker to exit; then signal the rest. */
static void reap_all(farm *f, int ms)
{
    int64_t end = mono_ms() + ms;
    while (running(f) && mono_ms() < end) {
        supervise(f, 0);
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
    }
    for (int sig = SIGTERM; running(f); sig = SIGKILL) {
        for (int i = 0; i < f->n; i++)
            if (f->slots[i].pid > 0)
                kill(f->slots[i].pid, sig);
        end = mono_ms() + (sig == SIGKILL ? 60000 : 3000);
        while (running(f) && mono_ms() < end) {
            supervise(f, 0);
            struct timespec ts = {0, 20 * 1000000};
            nanosleep(&ts, NULL);
        }
        if (sig == SIGKILL)
            break;
    }
}

static void remove_dir(const char *dir, const farm *f)
{
    char path[1100];
    for (int i = 0; i < f->n; i++)
        unlink(f->slots[i].log);
    snprintf(path, sizeof path, "%s/coord", dir);
    unlink(path);
    rmdir(dir);
}

int mf_cmd_run(int argc, char **argv)
{
    mf_cli_farm cl;
    int code;
    if (mf_cli_farm_parse(&cl, &code, 1, argc, argv, usage))
        return code;

    farm f = {0};
    f.verbose = cl.verbose;
    f.n = cl.workers;
    if (f.n <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        f.n = n > 0 ? (int)n : 1;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/mutfarm-run.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mutfarm run: cannot make a directory for the local "
                        "socket (%s): %s\n", dir, strerror(errno));
        return MF_EXIT_INTERNAL;
    }
    /* ipc:// paths are limited (sun_path); a long TMPDIR falls back to a
     * free port on the loopback. */
    if (strlen(dir) + 12 < 100)
        snprintf(cl.cfg.bind, sizeof cl.cfg.bind, "ipc://%.200s/coord", dir);
    else
        snprintf(cl.cfg.bind, sizeof cl.cfg.bind, "tcp://127.0.0.1:*");
    snprintf(f.heartbeat, sizeof f.heartbeat, "%u", cl.cfg.heartbeat_ms);
    snprintf(f.liveness, sizeof f.liveness, "%d", cl.cfg.liveness);
    f.slots = calloc((size_t)f.n, sizeof *f.slots);
    if (!f.slots) {
        rmdir(dir);
        return MF_EXIT_INTERNAL;
    }
    for (int i = 0; i < f.n; i++)
        snprintf(f.slots[i].log, sizeof f.slots[i].log, "%s/worker-%d.log",
                 dir, i + 1);
    f.alive = f.n;

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
    snprintf(f.endpoint, sizeof f.endpoint, "%s", mf_coord_endpoint(c));
    if (strncmp(f.endpoint, "tcp://0.0.0.0:", 14) == 0) /* not dialable */
        snprintf(f.endpoint, sizeof f.endpoint, "tcp://127.0.0.1:%s",
                 mf_coord_endpoint(c) + 14);
    mf_coord_progress p;
    mf_coord_progress_get(c, &p);
    if (p.done < p.total) {
        for (int i = 0; i < f.n; i++)
            if (start_worker(&f, i) < 0) {
                f.slots[i].gave_up = 1;
                f.alive--;
            }
    }
    int rc = mf_coord_serve(c);
    /* Workers told bye exit by themselves; the others are stopped. */
    reap_all(&f, rc == 0 ? 5000 : 0);
    code = mf_cli_coord_end(c, rc, o.cmd, cl.fail_under, &p);
    if (code == MF_EXIT_BELOW)
        fprintf(stderr, "mutfarm run: mutation score %.1f%% is below "
                        "--fail-under %g\n",
                100.0 * p.score, cl.fail_under);
done:
    reap_all(&f, 0);
    mf_coord_free(c);
    remove_dir(dir, &f);
    free(f.slots);
    mf_cli_restore_signals(&sig);
    return code;
}
