/* serve.c - the farm's serving loop (farm.h): one poll loop, each wake-up
 * one batch (one store transaction, its frames held in the outbox until
 * it is committed), jobs handed out on credit round-robin, heartbeats and
 * deaths, leases that ran out, the tick, and the Byes at the end.
 *
 * Order of events for one job (the ZeroMQ guide's Majordomo + Titanic):
 * a worker with credit gets its kind's next job, leased BEFORE it is
 * sent; its Result is committed BEFORE the Ack is sent. A server killed
 * at any point therefore loses nothing a kind keeps in the store: a
 * restarted one puts leased jobs back and workers re-send results that
 * were not acknowledged. */
#include "farm_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "mf.h"

/* How often the kinds are asked for leases that ran out. */
#define HOUSEKEEP_MS 1000
/* Held-back frames (outbox.c) over this many bytes end the batch early:
 * jobs carry a model's text. */
#define OUTBOX_MAX (16u << 20)

/* ---- batches: one transaction per wake-up --------------------------------- */

/* A held frame that could not leave after its batch was committed. A job
 * goes back to the queue at once (never counted); a peer that is gone is
 * released, one whose queue is full waits for a new Credit. */
static void on_unsent(const uint8_t *rid, size_t rid_len, int64_t job,
                      int attempt, int tag, int err, void *ctx)
{
    mf_farm *f = ctx;
    int rc = 0;
    if (job)
        rc = mf_farm_release(f, tag, (uint64_t)job, (uint32_t)attempt, 0,
                             "could not be sent");
    /* Other frames are let go, as they were when sent at once: silence
     * tells when a peer is dead. */
    mf_farm_peer *p = job ? mf_farm_find_rid(f, rid, rid_len) : NULL;
    if (p && err == EHOSTUNREACH) {
        char id[MF_STORE_WORKER_ID];
        snprintf(id, sizeof id, "%s", p->id);
        mf_farm_remove_peer(f, p);
        if (rc == 0)
            rc = mf_farm_release_worker(f, id, "is gone");
    } else if (p) {
        p->credit = 0; /* its queue is full: wait for a new Credit */
    }
    if (rc < 0 && f->flush_rc == 0)
        f->flush_rc = rc;
}

/* Start holding frames back (in one store transaction, with a store). */
static int batch_open(mf_farm *f)
{
    int rc = f->st ? mf_store_batch_begin(f->st) : 0;
    f->batching = rc == 0;
    return rc;
}

/* End the batch: commit it when rc >= 0 and send what it announced, or
 * undo it and drop the frames. Returns rc, or the commit's failure. */
static int batch_close(mf_farm *f, int rc)
{
    if (!f->batching)
        return rc;
    f->batching = 0;
    int e = f->st ? mf_store_batch_end(f->st, rc >= 0) : 0;
    if (rc < 0 || e < 0) {
        mf_outbox_drop(f->out);
        return rc < 0 ? rc : e;
    }
    f->flush_rc = 0;
    mf_outbox_flush(f->out, f->sock, on_unsent, f);
    return f->flush_rc < 0 ? f->flush_rc : rc;
}

/* Commit what is held so far and go on in a new batch. */
static int batch_cycle(mf_farm *f)
{
    int rc = batch_close(f, 0);
    return rc < 0 ? rc : batch_open(f);
}

/* ---- dispatch ------------------------------------------------------------- */

/* The next job for peer p from the kinds it takes that have work: 1 and
 * *out with *tag its kind, 0 none, < 0 a failure. */
static int next_job(mf_farm *f, mf_farm_peer *p, mf_farm_job *out, int *tag)
{
    mf_farm_worker w = mf_farm_worker_of(f, p);
    for (int i = 0; i < f->nwork; i++) {
        mf_farm_work *wk = &f->work[i];
        if (wk->dry || !(p->kinds & (1u << i)))
            continue;
        memset(out, 0, sizeof *out);
        int rc = wk->k->next(f, wk->ctx, &w, out);
        if (rc < 0)
            return rc;
        if (rc > 0) {
            *tag = i;
            return 1;
        }
        wk->dry = 1;
    }
    return 0;
}

/* One job to peer p, sent (held until the batch that leased it is
 * committed). 1 if sent, 0 if there was nothing to send, < 0 on a
 * failure. */
static int dispatch_one(mf_farm *f, mf_farm_peer *p)
{
    mf_farm_job job;
    int tag = 0;
    int rc = next_job(f, p, &job, &tag);
    if (rc <= 0)
        return rc;
    p->credit--;
    f->send_job = (int64_t)job.id;
    f->send_attempt = (int)job.attempt;
    f->send_tag = tag;
    int sent = mf_farm_send_peer(f, p, job.frame, job.len, job.frame ? 0 : -1);
    f->send_job = 0;
    if (sent < 0) {
        /* Not sent: the lease goes back at once, never counted. */
        int e = errno;
        rc = mf_farm_release(f, tag, job.id, job.attempt, 0,
                             "could not be sent");
        if (rc < 0)
            return rc;
        if (e == EHOSTUNREACH) {
            char id[MF_STORE_WORKER_ID];
            snprintf(id, sizeof id, "%s", p->id);
            mf_farm_remove_peer(f, p);
            rc = mf_farm_release_worker(f, id, "is gone");
            if (rc < 0)
                return rc;
        } else {
            p->credit = 0; /* its queue is full: wait for a new Credit */
        }
        return 0;
    }
    if (f->o.verbose)
        mf_farm_say(f, "%s -> worker %s", job.what, p->id);
    return 1;
}

/* A peer with credit that takes a kind with work, from the round-robin
 * start; NULL none. */
static mf_farm_peer *next_peer(mf_farm *f)
{
    unsigned wet = 0;
    for (int i = 0; i < f->nwork; i++)
        if (!f->work[i].dry)
            wet |= 1u << i;
    for (int k = 0; k < f->peers.n && wet; k++) {
        int i = (f->rr + k) % f->peers.n;
        mf_farm_peer *p = &f->peers.v[i];
        if (p->credit > 0 && (p->kinds & wet)) {
            f->rr = (i + 1) % f->peers.n;
            return p;
        }
    }
    return NULL;
}

/* Hand out jobs, one at a time round-robin, while some worker has credit
 * and there is work of a kind it takes. */
static int dispatch(mf_farm *f)
{
    int rc = 0;
    mf_farm_peer *p;
    while ((p = next_peer(f)) != NULL) {
        rc = dispatch_one(f, p);
        if (rc < 0)
            break;
        if (f->batching && mf_outbox_bytes(f->out) > OUTBOX_MAX &&
            (rc = batch_cycle(f)) < 0)
            break;
    }
    return rc < 0 ? rc : 0;
}

/* ---- timers --------------------------------------------------------------- */

static int heartbeats_and_deaths(mf_farm *f, int64_t now)
{
    for (int i = 0; i < f->peers.n; i++) {
        mf_farm_peer *p = &f->peers.v[i];
        if (now > p->expires) {
            char id[MF_STORE_WORKER_ID];
            snprintf(id, sizeof id, "%s", p->id);
            mf_farm_say(f, "worker %s silent for %u ms: declared dead", id,
                        f->o.heartbeat_ms * (unsigned)f->o.liveness);
            mf_farm_remove_peer(f, p);
            int rc = mf_farm_release_worker(f, id, "is dead");
            if (rc < 0)
                return rc;
            i--;
            continue;
        }
        if (now >= p->next_hb) {
            uint8_t *buf = NULL;
            size_t len = 0;
            int rc = mf_wire_encode_heartbeat(&buf, &len, 0);
            if (mf_farm_send_peer(f, p, buf, len, rc) < 0)
                p->next_hb = now + f->o.heartbeat_ms;
        }
    }
    return 0;
}

/* After a spell in which the server could not hear (stopped, starved of
 * CPU, or a long round of its own work), the workers' heartbeats of that
 * spell may still wait unread in the socket, some not even handed over
 * by libzmq's I/O thread yet: judged now, live workers would be declared
 * dead and their leases given back. So after a spell longer than a
 * heartbeat interval every worker gets two more intervals to be heard, at
 * most once per liveness window: a server whose every round is that long
 * still reads each round's heartbeats, and must still find a worker that
 * died. A spell long enough to have killed workers is logged. */
static void grace_after_stall(mf_farm *f, int64_t deaf_ms, int64_t now)
{
    int64_t hb = f->o.heartbeat_ms;
    if (deaf_ms <= hb || now - f->grace_at < hb * f->o.liveness)
        return;
    f->grace_at = now;
    for (int i = 0; i < f->peers.n; i++)
        if (f->peers.v[i].expires < now + 2 * hb)
            f->peers.v[i].expires = now + 2 * hb;
    if (deaf_ms >= hb * f->o.liveness)
        mf_farm_say(f, "deaf for %lld ms (stopped, starved or busy): %d "
                       "worker(s) get %lld ms more to be heard",
                    (long long)deaf_ms, f->peers.n, (long long)(2 * hb));
}

/* Leases that ran out, in every kind. */
static int housekeep(mf_farm *f)
{
    int back = 0, q = 0;
    for (int i = 0; i < f->nwork; i++) {
        int b = 0, qq = 0;
        mf_farm_work *wk = &f->work[i];
        int rc = wk->k->expire(f, wk->ctx, &b, &qq);
        if (rc < 0)
            return rc;
        back += b;
        q += qq;
        wk->dry = 0; /* new work may have appeared in any way: look again */
    }
    if (back || q)
        mf_farm_say(f, "%d lease(s) ran out (%u ms): %d job(s) back in the "
                       "queue, %d quarantined",
                    back + q, f->o.lease_ms, back, q);
    return 0;
}

/* ---- the loop ------------------------------------------------------------- */

/* 1 when every kind is complete. */
static int all_complete(mf_farm *f)
{
    for (int i = 0; i < f->nwork; i++) {
        int rc = f->work[i].k->complete(f, f->work[i].ctx);
        if (rc <= 0)
            return rc;
    }
    return 1;
}

static void say_bye(mf_farm *f)
{
    const char *why = f->nwork ? f->work[0].k->done_why : "complete";
    for (int i = 0; i < f->peers.n; i++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        int rc = mf_wire_encode_bye(&buf, &len, why, NULL, NULL, 0);
        mf_farm_send_peer(f, &f->peers.v[i], buf, len, rc);
    }
    /* Let the byes leave before the socket closes. */
    int linger = 2000;
    zmq_setsockopt(f->sock, ZMQ_LINGER, &linger, sizeof linger);
}

/* How long the poll may wait: until the next timer of the loop or of a
 * peer. */
static long poll_timeout(const mf_farm *f, int64_t now, int64_t next_house,
                         int64_t next_tick)
{
    int64_t wake = next_house < next_tick ? next_house : next_tick;
    for (int i = 0; i < f->peers.n; i++) {
        if (f->peers.v[i].next_hb < wake)
            wake = f->peers.v[i].next_hb;
        if (f->peers.v[i].expires + 1 < wake)
            wake = f->peers.v[i].expires + 1;
    }
    return wake > now ? (long)(wake - now) : 0;
}

int mf_farm_serve(mf_farm *f)
{
    int64_t now = mf_farm_now_ms();
    int64_t next_house = now + HOUSEKEEP_MS, next_tick = now;
    int rc = 0, stopped = 0;
    int64_t judged = now; /* when the peers' silence was last judged */
    f->grace_at = INT64_MIN / 2;
    for (;;) {
        rc = all_complete(f);
        if (rc != 0)
            break;
        if (f->o.stop && *f->o.stop) {
            stopped = 1;
            break;
        }
        now = mf_farm_now_ms();
        long timeout = poll_timeout(f, now, next_house, next_tick);
        zmq_pollitem_t it[2] = {{f->sock, 0, ZMQ_POLLIN, 0},
                                {f->mon, 0, ZMQ_POLLIN, 0}};
        int64_t poll_at = mf_farm_now_ms();
        int n = zmq_poll(it, f->mon ? 2 : 1, timeout);
        /* Time in the poll up to its timeout was spent listening; the
         * rest since the last judgement was not (grace_after_stall). */
        int64_t listened = mf_farm_now_ms() - poll_at;
        if (listened > timeout)
            listened = timeout;
        if (n < 0 && errno != EINTR) {
            rc = mf_err_set(MF_ERROR, "polling the socket: %s",
                            zmq_strerror(errno));
            break;
        }
        /* Everything up to the tick in one transaction: what the
         * messages change is committed before any frame leaves. */
        if ((rc = batch_open(f)) < 0)
            break;
        if (n > 0 && (it[0].revents & ZMQ_POLLIN))
            rc = mf_farm_drain(f, mf_farm_on_message);
        if (rc >= 0 && n > 0 && f->mon && (it[1].revents & ZMQ_POLLIN))
            mf_farm_drain_monitor(f);
        if (rc >= 0)
            rc = dispatch(f);
        now = mf_farm_now_ms();
        if (rc >= 0) {
            grace_after_stall(f, now - judged - listened, now);
            judged = now;
            rc = heartbeats_and_deaths(f, now);
        }
        if (rc >= 0 && now >= next_house) {
            next_house = now + HOUSEKEEP_MS;
            rc = housekeep(f);
        }
        if ((rc = batch_close(f, rc)) < 0)
            break;
        if (now >= next_tick) {
            next_tick = now + f->o.tick_ms;
            if (f->o.tick && f->o.tick(f, now, f->o.tick_ctx)) {
                stopped = 1;
                break;
            }
        }
    }
    if (rc < 0)
        return rc;
    if (stopped)
        return 1;
    say_bye(f);
    return 0;
}
