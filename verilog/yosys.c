/* yosys.c - yosys as a subprocess (yosys.h): fork and exec with one pipe
 * for stdout and stderr, read until the pipe closes or the time limit
 * passes, then the exit status turned into one line of error. It does not
 * interpret what yosys printed beyond finding its ERROR line. */
#define _POSIX_C_SOURCE 200809L
#include "yosys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The exit status the child uses when exec fails: yosys is not installed. */
#define EXEC_FAILED 127

const char *mf_yosys_program(void)
{
    const char *p = getenv("MF_YOSYS");
    return p && *p ? p : "yosys";
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* yosys's reason: its "ERROR: ..." line, else the last non-empty line. */
static void reason(char *dst, size_t cap, const mf_buf *log)
{
    const char *s = log->data ? log->data : "";
    const char *err = strstr(s, "ERROR:");
    const char *line = err;
    if (!line) {
        size_t n = log->len;
        while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
            n--;
        size_t b = n;
        while (b && s[b - 1] != '\n')
            b--;
        line = s + b;
    } else {
        line = err + 6;
        while (*line == ' ')
            line++;
    }
    size_t k = strcspn(line, "\n");
    if (k >= cap)
        k = cap - 1;
    memcpy(dst, line, k);
    dst[k] = 0;
}

int mf_yosys_run(mf_buf *log, const char *cwd, const char *script,
                 int timeout_s)
{
    int fds[2];
    if (pipe(fds) < 0)
        return mf_err_set(MF_ERROR, "yosys: pipe: %s", strerror(errno));
    const char *prog = mf_yosys_program();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return mf_err_set(MF_ERROR, "yosys: fork: %s", strerror(errno));
    }
    if (pid == 0) {
        /* Only async-signal-safe calls between fork and exec. */
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        if (chdir(cwd) < 0)
            _exit(EXEC_FAILED - 1);
        execlp(prog, prog, "-q", "-s", script, (char *)NULL);
        _exit(EXEC_FAILED);
    }
    close(fds[1]);
    double deadline = now_s() + timeout_s;
    int timed_out = 0;
    char chunk[4096];
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            kill(pid, SIGKILL);
            break;
        }
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue; /* the deadline check above decides */
        ssize_t n = read(fds[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        mf_buf_put(log, chunk, (size_t)n);
    }
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (timed_out)
        return mf_err_set(MF_ERROR, "yosys: timed out after %d s", timeout_s);
    if (WIFEXITED(st) && WEXITSTATUS(st) == EXEC_FAILED && log->len == 0)
        return mf_err_set(MF_ERROR, "%s not found: apt-get install yosys",
                          prog);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    char why[512];
    reason(why, sizeof why, log);
    return mf_err_set(MF_ERROR, "yosys: %s", why[0] ? why : "failed");
}
