/* campaign_job.h - a worker's campaign job (docs/protocol.md, "Job"):
 * mutants of one model decided by the Z3 engine, answered with one
 * verdict each.
 *
 * It does not touch sockets (farm_worker.c hands the job over and sends
 * the frame); matrix_job.h is the other kind of job a worker takes. */
#ifndef MF_CAMPAIGN_JOB_H
#define MF_CAMPAIGN_JOB_H

#include "wire.h"

/* Decide one job in this thread, without sockets: load and hash-check the
 * model, re-derive each mutant, run mf_engine_check. On success *out is a
 * Result (mf_wire_result_free) with one verdict per mutant id (a mutant
 * that cannot be derived gets an error verdict) and returns 0. If the job
 * as a whole is refused (hash mismatch, model does not load, no mutant)
 * returns MF_EPARSE with the reason in mf_err_msg() and *out is NULL.
 * Honours job->crash_on when env MF_TEST_POISON=1 (raises SIGKILL). */
int mf_worker_do_job(mf_wire_result **out, const mf_wire_job *job,
                     const char *worker_id);

#endif
