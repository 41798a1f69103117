/* matrix_farm.h - the kill matrix filled through the farm: `mutfarm
 * matrix --bind ENDPOINT` / `--workers N` (docs/minimisation.md, "Large
 * matrices"; docs/protocol.md, "Matrix jobs").
 *
 * The same matrix as mf_matrix_fill (matrix.h), cut into jobs: a block of
 * the campaign's tests by a range of its target mutants, a kind of farm
 * work ("matrix", farm/kind.h). Jobs are handed by the farm's serving
 * loop (farm/farm.h) over a ZeroMQ ROUTER to whatever workers connect
 * (`mutfarm worker --connect`) and take the kind, on their credit and
 * under leases; a job whose worker dies, leaves or lets its lease run out
 * goes back to the queue. Each result's kill rows are written by the
 * local fill's writer and committed, with the job's record in
 * matrix_jobs, before the worker is acknowledged; a coordinator killed
 * part way resumes with the jobs not recorded there.
 *
 * It does not replay anything itself (the workers do, worker/
 * matrix_job.c) and does not start workers (cli/ does). */
#ifndef MF_MATRIX_FARM_H
#define MF_MATRIX_FARM_H

#include <signal.h>
#include <stdint.h>

#include "matrix.h"

typedef struct {
    const char *bind;       /* the ROUTER's endpoint (tcp or ipc) */
    const char *cmd;        /* log prefix: "mutfarm matrix" */
    unsigned heartbeat_ms;  /* as the farm's [farm] settings */
    unsigned liveness;
    unsigned lease_ms;      /* a job not answered within this returns */
    int max_attempts;       /* failed leases of one job before the fill
                               fails (a matrix cannot skip a job) */
    int64_t job_pairs;      /* test x mutant pairs per job (0: at least
                               32768, a block in at most 16 jobs while a
                               job stays under 262144 pairs) */
    int block;              /* tests per block (0: as the local fill) */
    int refill;             /* drop the replayed kills and fill again */
    int quiet;              /* no routine log lines */
    int verbose;            /* log every message */
    int (*tick)(void *ctx); /* about every 250 ms; non-zero: stop */
    void *tick_ctx;
    volatile sig_atomic_t *stop; /* set by a signal handler: stop */
} mf_matrix_farm_opts;

typedef struct mf_matrix_farm mf_matrix_farm;

/* Open the fill of campaign c (complete; MF_ERROR otherwise) in s and
 * bind the socket. *out is NULL on failure (MF_ERROR with a message). s
 * and c must outlive it. */
int mf_matrix_farm_open(mf_matrix_farm **out, mf_store *s,
                        const mf_matrix_campaign *c,
                        const mf_matrix_farm_opts *o);
/* The endpoint actually bound (a port * resolved). */
const char *mf_matrix_farm_endpoint(const mf_matrix_farm *f);
/* Serve jobs until the matrix is full (0, *out as mf_matrix_fill's, every
 * connected worker told Bye), stopped (1: what is committed stays, a
 * later fill resumes), or failed (< 0 with a message: a store failure, or
 * a job refused or lost max_attempts times, with the last reason). With
 * no worker it waits. A full matrix is left as is unless o->refill. */
int mf_matrix_farm_run(mf_matrix_farm *f, mf_matrix_stats *out);
void mf_matrix_farm_free(mf_matrix_farm *f); /* NULL-safe */

#endif
