/* local_workers.h - worker processes on this machine for a coordinator
 * in this process: `mutfarm run` (a campaign) and `mutfarm matrix
 * --workers N` (a kill matrix) start, watch and stop them alike.
 *
 * The workers are this same executable (`mutfarm worker --connect
 * ENDPOINT --threads 1`) started with fork+exec. One that dies before the
 * work is done is started again (its job went back to the queue through
 * the usual heartbeat rule); one that keeps dying at start is given up.
 * Their log lines go to temporary files unlinked as soon as they are
 * opened, so the progress line stays readable and a process killed with
 * SIGKILL leaves no file behind; the last line of a dead worker's log is
 * repeated on stderr. The socket is an ipc:// file in a directory that
 * only this user can enter, so no other local user can connect to it and
 * report verdicts (docs/security.md); it is removed at the end (a run
 * killed with SIGKILL leaves the empty-but-for-the-socket directory in
 * the temporary folder). The executable is named by its real path, so the
 * workers show as `mutfarm` in top and ps.
 *
 * It serves nothing itself and decides nothing. */
#ifndef MF_LOCAL_WORKERS_H
#define MF_LOCAL_WORKERS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;       /* 0: not running */
    int64_t started; /* monotonic ms */
    int quick;       /* quick deaths in a row */
    int restarts;
    int gave_up;
    int log;         /* its stdout and stderr: an unlinked file, -1 none */
} mf_local_slot;

typedef struct {
    const char *cmd;   /* log prefix: "mutfarm run" */
    mf_local_slot *slots;
    int n;
    char exe[4096];    /* this executable, by its real path */
    char endpoint[600];
    char sockdir[512]; /* the socket's private directory, "" none */
    char heartbeat[16], liveness[16];
    int verbose;       /* workers log to the terminal */
    int alive;         /* slots not given up */
    volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM: no restarts */
} mf_local_workers;

/* n workers (0: one per core) for command cmd, their log files made.
 * 0, or the exit code (cmd.h) with the message printed. */
int mf_local_workers_init(mf_local_workers *f, const char *cmd, int n,
                          unsigned heartbeat_ms, int liveness, int verbose);
/* An endpoint for the coordinator to bind: ipc://DIR/farm, DIR a new
 * directory of mode 0700 (removed by mf_local_workers_free). 0, or the
 * exit code with the message printed. */
int mf_local_workers_bind(mf_local_workers *f, char *out, size_t n);
/* Start every worker, to connect to `bound` (the coordinator's endpoint
 * as bound: tcp://0.0.0.0:P is dialled as tcp://127.0.0.1:P). */
void mf_local_workers_start(mf_local_workers *f, const char *bound);
/* Reap dead workers; with restart, start again the ones that died. */
void mf_local_workers_supervise(mf_local_workers *f, int restart);
/* Wait up to ms for every worker to exit; then signal the rest. */
void mf_local_workers_reap(mf_local_workers *f, int ms);
/* Stop what runs, close the logs, free. */
void mf_local_workers_free(mf_local_workers *f);

#endif
