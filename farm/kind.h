/* kind.h - the seam between the farm's serving loop (farm.h) and a kind
 * of farm work: campaign mutants (coordinator/campaign.c), kill-matrix
 * blocks (coordinator/report/matrix_farm.c), and whatever comes next
 * (docs/architecture.md, "Adding a kind of farm work").
 *
 * The serving loop owns everything a job's life has in common: the
 * socket and CURVE, the workers (Hello, credit, heartbeats, liveness),
 * the frames held in the outbox until the wake-up's store transaction is
 * committed (a job is leased, and a result committed, before its frame
 * leaves), the Acks and Rejects, the refusal tally and the cut-off, the
 * timers (leases that run out), the Byes. A kind owns its jobs: where
 * they are kept (the store, or memory), how the next one is cut and put
 * on the wire, what a result must hold, how it is stored, what a lost
 * lease costs (an attempt, a quarantine, a failed run), and when the work
 * is complete. Its functions are called from the serving thread only,
 * with the kind's own context `k`; they log through mf_farm_say (farm.h),
 * never to the socket.
 *
 * Every function that can fail returns 0 (or a count) or a negative
 * MF_E* code with a message (mf_err_msg): the serving loop stops on it
 * and returns it, nothing of the wake-up committed. */
#ifndef MF_FARM_KIND_H
#define MF_FARM_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

typedef struct mf_farm mf_farm;

/* A connected worker, as a kind sees it. */
typedef struct {
    const char *id;   /* worker_id of its Hello: the holder of leases */
    const char *host;
    int threads;      /* >= 1 */
    const char *key;  /* Z85 CURVE key of the message at hand, or NULL */
} mf_farm_worker;

/* One job leased to a worker, to be sent (next). */
typedef struct {
    uint64_t id;        /* job id, as the worker's Result names it */
    uint32_t attempt;   /* its lease number */
    uint8_t *frame;     /* the encoded job (mf_wire_encode_*), malloc'd:
                           the loop frees it; NULL: it could not be
                           encoded, the lease is given back uncounted */
    size_t len;
    char what[160];     /* for a verbose log line: "job 12 (attempt 1,
                           4 mutants)" */
} mf_farm_job;

/* What became of a result (check, then commit). */
typedef enum {
    MF_FARM_TAKEN,     /* check: go on to commit; commit: stored, Ack */
    MF_FARM_IGNORED,   /* nothing to store (done already, or stale): Ack
                          as a duplicate, logged with why */
    MF_FARM_UNKNOWN,   /* not a job of this work: Reject UNKNOWN_JOB */
    MF_FARM_INVALID,   /* does not fit its job: Reject INVALID; with
                          `release`, its lease goes back as a failed
                          attempt (the worker will not send a better
                          one) */
    MF_FARM_FALSE,     /* verification failed (a kill that does not
                          replay): Reject INVALID, the lease back
                          uncounted (the job is not at fault), one
                          refusal toward the worker's cut-off */
} mf_farm_outcome;

typedef struct {
    mf_farm_outcome outcome;
    int release;       /* INVALID: give the lease back, counted */
    int more;          /* TAKEN: new jobs may be ready (look again) */
    const char *what;  /* FALSE: what failed ("a kill that does not
                          replay") */
    char why[600];     /* the reason, for the log and the Reject */
} mf_farm_answer;

typedef struct mf_farm_kind {
    /* Its name in a worker's Hello (`kinds`): "campaign", "matrix". */
    const char *name;
    /* The envelope body of its results (MF_WIRE_RESULT, ...). */
    mf_wire_kind result_msg;
    /* The Bye every worker is told once the work is complete. */
    const char *done_why;

    /* Lease the next job to worker w and encode it into *out. Returns 1
     * (a job), 0 when there is none now (the loop asks again after a
     * release, a lease that ran out, a result with `more`, or a
     * housekeeping round), or < 0. The lease is written within the
     * wake-up's transaction, so it is committed before the frame
     * leaves. */
    int (*next)(mf_farm *f, void *k, const mf_farm_worker *w,
                mf_farm_job *out);

    /* Check result env (its body is result_msg) of worker w before
     * anything is stored: that it names a job of this work and fits it,
     * and verify what must be verified. Sets a->outcome: TAKEN (commit is
     * called next, with the same env), or what to answer instead. What
     * check keeps for commit it frees in commit, or itself when the
     * outcome is not TAKEN. */
    int (*check)(mf_farm *f, void *k, const mf_farm_worker *w,
                 const mf_wire_env *env, mf_farm_answer *a);

    /* Store the checked result; it is committed with the wake-up's
     * transaction before the Ack leaves (or by the kind itself before it
     * returns, when the loop has no store). Sets a->outcome. */
    int (*commit)(mf_farm *f, void *k, const mf_farm_worker *w,
                  const mf_wire_env *env, mf_farm_answer *a);

    /* The lease `attempt` of job `job` goes back: `failed` (the job's
     * fault, or nobody's: a worker refused it, its result did not fit)
     * counts as an attempt, which may quarantine the job (or fail the
     * work); otherwise (not sent, given back by a leaving worker, its
     * result failed verification: the worker's fault) it does not. A job that is not this kind's,
     * or no longer leased under that attempt, is ignored (0). */
    int (*release)(mf_farm *f, void *k, uint64_t job, uint32_t attempt,
                   int failed, const char *why);

    /* Every lease of worker `worker` goes back, as failed attempts (it
     * died, left, is gone or cut off). *back and *quarantined: how many
     * jobs went back to the queue and how many were set aside. */
    int (*release_worker)(mf_farm *f, void *k, const char *worker,
                          int *back, int *quarantined);

    /* Leases that ran out go back (failed), about once a second; the
     * same counts. */
    int (*expire)(mf_farm *f, void *k, int *back, int *quarantined);

    /* Worker `worker` sent a heartbeat: it is alive, and a kind whose
     * leases last while their holder lives pushes them on. May be NULL
     * (leases run out lease_ms after they were given). */
    int (*alive)(mf_farm *f, void *k, const char *worker);

    /* A worker that takes this kind said Hello (h): what the kind records
     * of it (versions). May be NULL. */
    void (*hello)(mf_farm *f, void *k, const mf_farm_worker *w,
                  const mf_wire_hello *h);

    /* 1 when the work is complete (every job's result stored and the
     * work closed in the store), 0 not yet, < 0 a failure. Called once
     * per wake-up; it may plan more jobs. */
    int (*complete)(mf_farm *f, void *k);
} mf_farm_kind;

#endif
