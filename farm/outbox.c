/* outbox.c - the farm server's held-back frames (outbox.h): a list of
 * copies, sent in order after the store committed the batch that
 * produced them. One allocation per frame; the list is reused from batch
 * to batch. */
#include "outbox.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "mf.h"

typedef struct {
    uint8_t rid[256];
    size_t rid_len;
    uint8_t *frame;
    size_t len;
    int64_t job;
    int attempt;
    int tag;
} held;

struct mf_outbox {
    MF_VEC(held) v;
    size_t bytes;
};

mf_outbox *mf_outbox_new(void)
{
    return mf_xcalloc(1, sizeof(mf_outbox));
}

void mf_outbox_drop(mf_outbox *o)
{
    if (!o)
        return;
    for (int i = 0; i < o->v.n; i++)
        free(o->v.v[i].frame);
    o->v.n = 0;
    o->bytes = 0;
}

void mf_outbox_free(mf_outbox *o)
{
    if (!o)
        return;
    mf_outbox_drop(o);
    MF_VEC_FREE(o->v);
    free(o);
}

void mf_outbox_add(mf_outbox *o, const uint8_t *rid, size_t rid_len,
                   const uint8_t *frame, size_t len, int64_t job,
                   int attempt, int tag)
{
    held h;
    memset(&h, 0, sizeof h);
    if (rid_len > sizeof h.rid)
        rid_len = sizeof h.rid; /* callers check; a cut id fails to route */
    memcpy(h.rid, rid, rid_len);
    h.rid_len = rid_len;
    h.frame = mf_xmalloc(len ? len : 1);
    memcpy(h.frame, frame, len);
    h.len = len;
    h.job = job;
    h.attempt = attempt;
    h.tag = tag;
    MF_VEC_PUSH(o->v, h);
    o->bytes += len;
}

size_t mf_outbox_bytes(const mf_outbox *o)
{
    return o->bytes;
}

int mf_outbox_count(const mf_outbox *o)
{
    return o->v.n;
}

void mf_outbox_flush(mf_outbox *o, void *sock, mf_outbox_fail_fn fail,
                     void *ctx)
{
    for (int i = 0; i < o->v.n; i++) {
        held *h = &o->v.v[i];
        int rc = zmq_send(sock, h->rid, h->rid_len,
                          ZMQ_SNDMORE | ZMQ_DONTWAIT);
        if (rc >= 0)
            rc = zmq_send(sock, h->frame, h->len, ZMQ_DONTWAIT);
        if (rc < 0 && fail)
            fail(h->rid, h->rid_len, h->job, h->attempt, h->tag, errno,
                 ctx);
    }
    mf_outbox_drop(o);
}
