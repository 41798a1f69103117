/* outbox.h - frames the farm server holds back until the store has
 * committed what they announce (docs/protocol.md, "persist before
 * acknowledging"): while the serving loop handles a batch of messages in
 * one store transaction, its Acks and Jobs wait here, and leave once the
 * batch is committed, or are dropped if it is not. It knows nothing of
 * the store or the protocol; farm/serve.c decides what a frame that could
 * not leave means. */
#ifndef MF_OUTBOX_H
#define MF_OUTBOX_H

#include <stddef.h>
#include <stdint.h>

typedef struct mf_outbox mf_outbox;

mf_outbox *mf_outbox_new(void);
void mf_outbox_free(mf_outbox *o); /* NULL-safe; drops what it holds */

/* Hold one frame (copied) for routing id rid; job/attempt name the job
 * it hands out (job 0: not a job), tag is the caller's (the farm: which
 * kind of work the job is). */
void mf_outbox_add(mf_outbox *o, const uint8_t *rid, size_t rid_len,
                   const uint8_t *frame, size_t len, int64_t job,
                   int attempt, int tag);

/* Bytes and frames held. */
size_t mf_outbox_bytes(const mf_outbox *o);
int mf_outbox_count(const mf_outbox *o);

/* A frame that could not leave: errno-like `err` (EHOSTUNREACH: the peer
 * is gone; EAGAIN: its queue is full). */
typedef void (*mf_outbox_fail_fn)(const uint8_t *rid, size_t rid_len,
                                  int64_t job, int attempt, int tag, int err,
                                  void *ctx);

/* Send every held frame in order on ROUTER socket `sock` without
 * blocking; each failure goes to fail (may be NULL). Empties the box. */
void mf_outbox_flush(mf_outbox *o, void *sock, mf_outbox_fail_fn fail,
                     void *ctx);

/* Drop every held frame (the batch that announced them was undone). */
void mf_outbox_drop(mf_outbox *o);

#endif
