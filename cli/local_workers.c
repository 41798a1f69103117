/* local_workers.c - worker processes on this machine (local_workers.h):
 * started with fork+exec of this executable, restarted when they die
 * before the end, stopped at the end. Moved here from cmd_run.c so that
 * `mutfarm run` and `mutfarm matrix --workers` share it. */
#include "local_workers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

/* A worker that exits (not killed by a signal: that is a crash in a job,
 * whose job the quarantine rule takes care of) this soon after its start
 * counts as a failed start; this many failed starts in a row and its slot
 * is given up. */
#define QUICK_DEATH_MS 2000
#define MAX_QUICK_DEATHS 3
/* Restarts allowed over the whole run, per worker slot. */
#define MAX_RESTARTS 50

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* An unlinked temporary file for a worker's log: -1 if none can be made
 * (the worker then writes where this process does). */
static int open_log(const char *tmp)
{
    char path[600];
    snprintf(path, sizeof path, "%s/mutfarm-run-log.XXXXXX", tmp);
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    unlink(path);
    fcntl(fd, F_SETFD, FD_CLOEXEC); /* the other slots' workers */
    return fd;
}

/* The real path of this executable, not /proc/self/exe: the process name
 * is the base name of what is executed. Replaced or removed since it
 * started (a rebuild), the workers must run this same image, reachable
 * then only as /proc/self/exe. */
static void self_exe(char *exe, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", exe, n - 1);
    if (len > 0)
        exe[len] = 0;
    struct stat named, self;
    if (len <= 0 || stat(exe, &named) != 0 ||
        stat("/proc/self/exe", &self) != 0 || named.st_dev != self.st_dev ||
        named.st_ino != self.st_ino)
        snprintf(exe, n, "/proc/self/exe");
}

int mf_local_workers_init(mf_local_workers *f, const char *cmd, int n,
                          unsigned heartbeat_ms, int liveness, int verbose)
{
    memset(f, 0, sizeof *f);
    f->cmd = cmd;
    f->verbose = verbose;
    f->n = n;
    if (f->n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        f->n = c > 0 ? (int)c : 1;
    }
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    self_exe(f->exe, sizeof f->exe);
    snprintf(f->heartbeat, sizeof f->heartbeat, "%u", heartbeat_ms);
    snprintf(f->liveness, sizeof f->liveness, "%d", liveness);
    f->slots = calloc((size_t)f->n, sizeof *f->slots);
    if (!f->slots)
        return MF_EXIT_INTERNAL;
    for (int i = 0; i < f->n; i++)
        f->slots[i].log = verbose ? -1 : open_log(tmp);
    f->alive = f->n;
    return 0;
}

/* A socket directory that an earlier run left (it was killed with
 * SIGKILL): this user's, mode 0700, and its socket refuses connections
 * (nobody listens), or it has none and is older than a minute (a run
 * between mkdtemp and bind is not stale). Removed with its socket. */
static void sweep_one(const char *base, const char *name)
{
    char dir[600], sock[620];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/%s", base, name);
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid() || (st.st_mode & 0777) != 0700)
        return;
    snprintf(sock, sizeof sock, "%s/farm", dir);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(sock) >= sizeof a.sun_path)
        return;
    memcpy(a.sun_path, sock, strlen(sock) + 1);
    int stale = 0;
    struct stat ss;
    if (lstat(sock, &ss) != 0)
        stale = errno == ENOENT && time(NULL) - st.st_mtime > 60;
    else if (S_ISSOCK(ss.st_mode)) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0) {
            stale = connect(fd, (struct sockaddr *)&a, sizeof a) != 0 &&
                    errno == ECONNREFUSED;
            close(fd);
        }
    }
    if (stale) {
        unlink(sock);
        rmdir(dir);
    }
}

/* The stale socket directories of this user's earlier runs under base. */
static void sweep(const char *base)
{
    DIR *d = opendir(base);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, "mutfarm-run-", 12) &&
            strlen(e->d_name) == 18)
            sweep_one(base, e->d_name);
    closedir(d);
}

/* A directory for the socket that only this user can enter (mkdtemp
 * makes it 0700): under $XDG_RUNTIME_DIR (the user's own, cleaned at
 * logout) where there is one, else $TMPDIR or /tmp. A path too long for
 * a socket's address (sun_path: 108 bytes with the socket's name) falls
 * back to /tmp. */
static int make_sockdir(char *dir, size_t n)
{
    const char *bases[] = {getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR"),
                           "/tmp"};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        const char *b = bases[i];
        struct stat st;
        if (!b || !*b || stat(b, &st) != 0 || !S_ISDIR(st.st_mode) ||
            strlen(b) + sizeof "/mutfarm-run-XXXXXX/farm" > 100)
            continue;
        sweep(b);
        snprintf(dir, n, "%s/mutfarm-run-XXXXXX", b);
        if (mkdtemp(dir))
            return 0;
    }
    return -1;
}

int mf_local_workers_bind(mf_local_workers *f, char *out, size_t n)
{
    if (make_sockdir(f->sockdir, sizeof f->sockdir) != 0) {
        fprintf(stderr, "%s: cannot make a private directory for the "
                        "workers' socket in $XDG_RUNTIME_DIR, $TMPDIR or "
                        "/tmp: %s\n", f->cmd, strerror(errno));
        f->sockdir[0] = 0;
        return MF_EXIT_INTERNAL;
    }
    snprintf(out, n, "ipc://%s/farm", f->sockdir);
    return 0;
}

static int start_worker(mf_local_workers *f, int i)
{
    mf_local_slot *s = &f->slots[i];
    char *argv[] = {"mutfarm",     "worker",   "--connect", f->endpoint,
                    "--threads",   "1",        "--heartbeat",
                    f->heartbeat,  "--liveness", f->liveness, NULL};
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: cannot start a worker: %s\n", f->cmd,
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
        if (!f->verbose && s->log >= 0) { /* dup2 clears close-on-exec */
            dup2(s->log, STDOUT_FILENO);
            dup2(s->log, STDERR_FILENO);
        }
        execv(f->exe, argv);
        _exit(127);
    }
    s->pid = pid;
    s->started = mono_ms();
    return 0;
}

void mf_local_workers_start(mf_local_workers *f, const char *bound)
{
    snprintf(f->endpoint, sizeof f->endpoint, "%s", bound);
    if (strncmp(f->endpoint, "tcp://0.0.0.0:", 14) == 0) /* not dialable */
        snprintf(f->endpoint, sizeof f->endpoint, "tcp://127.0.0.1:%s",
                 bound + 14);
    for (int i = 0; i < f->n; i++)
        if (start_worker(f, i) < 0) {
            f->slots[i].gave_up = 1;
            f->alive--;
        }
}

/* The last non-empty line of a worker's log, into buf ("" if none). Read
 * with pread: the offset the worker writes at is shared with us. */
static void last_line(char *buf, size_t n, int fd)
{
    buf[0] = 0;
    if (fd < 0)
        return;
    struct stat sb;
    if (fstat(fd, &sb) < 0 || sb.st_size <= 0)
        return;
    char tail[2048];
    off_t from = sb.st_size > (off_t)sizeof tail - 1
                     ? sb.st_size - (off_t)sizeof tail + 1
                     : 0;
    ssize_t got = pread(fd, tail, sizeof tail - 1, from);
    if (got <= 0)
        return;
    tail[got] = 0;
    while (got > 0 && (tail[got - 1] == '\n' || tail[got - 1] == '\r'))
        tail[--got] = 0;
    const char *start = strrchr(tail, '\n');
    start = start ? start + 1 : tail;
    size_t len = strlen(start);
    if (len >= n)
        len = n - 1;
    memcpy(buf, start, len);
    buf[len] = 0;
}

static void describe(char *buf, size_t n, int status)
{
    if (WIFSIGNALED(status))
        snprintf(buf, n, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(buf, n, "exit %d", WEXITSTATUS(status));
}

void mf_local_workers_supervise(mf_local_workers *f, int restart)
{
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            return;
        for (int i = 0; i < f->n; i++) {
            mf_local_slot *s = &f->slots[i];
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
            fprintf(stderr, "\r\033[K%s: worker %d (pid %d) died "
                            "(%s)%s%s\n",
                    f->cmd, i + 1, (int)pid, how, last[0] ? ": " : "", last);
            if (s->quick >= MAX_QUICK_DEATHS || s->restarts >= MAX_RESTARTS) {
                fprintf(stderr, "%s: worker %d keeps dying; not "
                                "starting it again\n", f->cmd, i + 1);
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

static int running(const mf_local_workers *f)
{
    int n = 0;
    for (int i = 0; i < f->n; i++)
        n += f->slots[i].pid > 0;
    return n;
}

void mf_local_workers_reap(mf_local_workers *f, int ms)
{
    int64_t end = mono_ms() + ms;
    while (running(f) && mono_ms() < end) {
        mf_local_workers_supervise(f, 0);
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
    }
    for (int sig = SIGTERM; running(f); sig = SIGKILL) {
        for (int i = 0; i < f->n; i++)
            if (f->slots[i].pid > 0)
                kill(f->slots[i].pid, sig);
        end = mono_ms() + (sig == SIGKILL ? 60000 : 3000);
        while (running(f) && mono_ms() < end) {
            mf_local_workers_supervise(f, 0);
            struct timespec ts = {0, 20 * 1000000};
            nanosleep(&ts, NULL);
        }
        if (sig == SIGKILL)
            break;
    }
}

void mf_local_workers_free(mf_local_workers *f)
{
    if (f->slots) {
        mf_local_workers_reap(f, 0);
        for (int i = 0; i < f->n; i++)
            if (f->slots[i].log >= 0)
                close(f->slots[i].log);
    }
    free(f->slots);
    f->slots = NULL;
    if (f->sockdir[0]) {
        char sock[sizeof f->sockdir + 8];
        snprintf(sock, sizeof sock, "%s/farm", f->sockdir);
        unlink(sock);
        rmdir(f->sockdir);
        f->sockdir[0] = 0;
    }
}
