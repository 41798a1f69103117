/* matrix_job.h - a worker's matrix job (docs/protocol.md, "Matrix jobs";
 * docs/minimisation.md, "Large matrices"): a block of stored tests
 * replayed by the simulator on a range of mutants, answered with the
 * pairs that kill.
 *
 * It does not touch sockets (farm_worker.c hands the job over and sends
 * the frame) and uses no solver: model/kill_replay.h does the replay. */
#ifndef MF_MATRIX_JOB_H
#define MF_MATRIX_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* Do one matrix job in this thread: load and hash-check the model (with
 * the job's inputs and observables), check every test on the original,
 * make each mutant from its id, replay every test on it. On success *out
 * is the MatrixResult (mf_wire_matrix_result_free) and 0 is returned. A
 * job that cannot be done as a whole (hash mismatch, model does not load,
 * a test of another shape or that the original does not show, a mutant
 * id the model does not have or a stillborn one) returns MF_EPARSE with
 * the reason in mf_err_msg(), *out NULL. MF_TEST_MUTANT_MS=N (tests only)
 * adds N ms per mutant, as for a Job. */
int mf_worker_do_matrix_job(mf_wire_matrix_result **out,
                            const mf_wire_matrix_job *job,
                            const char *worker_id);

/* The frame that answers the job: its MatrixResult, or a Reject
 * JOB_REFUSED with the reason (*refused = 1; also when the result is over
 * the frame limit). *frame is NULL only if even the Reject could not be
 * encoded. */
void mf_worker_matrix_frame(uint8_t **frame, size_t *len, int *refused,
                            const mf_wire_matrix_job *job,
                            const char *worker_id);

#endif
