/* job_model.h - the model a worker's job carries (docs/protocol.md,
 * "Job", "Matrix jobs"): its text checked against the job's hash and
 * loaded, for every kind of job (campaign_job.c, matrix_job.c). */
#ifndef MF_JOB_MODEL_H
#define MF_JOB_MODEL_H

#include <stdint.h>

#include "model.h"

/* Load model `text` (named `name`, "" for job.smv) with options mo, once
 * its SHA-256 is `sha256`. On success *out is the model (mf_model_free)
 * and 0 is returned; otherwise MF_EPARSE with "WHAT JOB: ..." in
 * mf_err_msg() (what: "job", "matrix job") and *out NULL. */
int mf_worker_job_model(mf_model **out, const char *what, uint64_t job,
                        const char *name, const char *text,
                        const char *sha256, const mf_model_opts *mo);

#endif
