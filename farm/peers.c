/* peers.c - the farm server's workers and their messages (farm.h): Hello
 * (which kinds of work a worker takes), Credit, heartbeats, Results
 * (checked, committed, then acknowledged or refused), Rejects and Byes,
 * and the leases that go back when a worker dies, leaves or is cut off.
 * What a job is, and where its lease is kept, is the kind's (kind.h);
 * this file only says which kind, and when. */
#include "farm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf.h"

#ifndef MF_VERSION
#define MF_VERSION "unknown"
#endif

/* A worker's credit is never taken beyond this many jobs per thread. */
#define CREDIT_PER_THREAD 2
/* A worker's last_seen in the store (its last contact in `mutfarm
 * status`) is refreshed at most this often. */
#define SEEN_MS 2000

static mf_farm_peer *find_id(mf_farm *f, const char *id)
{
    for (int i = 0; i < f->peers.n; i++)
        if (strcmp(f->peers.v[i].id, id) == 0)
            return &f->peers.v[i];
    return NULL;
}

void mf_farm_remove_peer(mf_farm *f, mf_farm_peer *p)
{
    int i = (int)(p - f->peers.v);
    f->peers.v[i] = f->peers.v[--f->peers.n];
    if (f->rr >= f->peers.n)
        f->rr = 0;
}

mf_farm_worker mf_farm_worker_of(const mf_farm *f, const mf_farm_peer *p)
{
    mf_farm_worker w = {p->id, p->host, p->threads, f->msg_key};
    return w;
}

/* ---- leases back ------------------------------------------------------------ */

int mf_farm_release_worker(mf_farm *f, const char *id, const char *why)
{
    int back = 0, q = 0;
    for (int i = 0; i < f->nwork; i++) {
        int b = 0, qq = 0;
        mf_farm_work *w = &f->work[i];
        int rc = w->k->release_worker(f, w->ctx, id, &b, &qq);
        if (rc < 0)
            return rc;
        if (b || qq)
            w->dry = 0;
        back += b;
        q += qq;
    }
    if (back || q)
        mf_farm_say(f, "worker %s %s: %d job(s) back in the queue, %d "
                       "quarantined",
                    id, why, back, q);
    return 0;
}

int mf_farm_release(mf_farm *f, int tag, uint64_t job, uint32_t attempt,
                    int failed, const char *why)
{
    for (int i = 0; i < f->nwork; i++) {
        if (tag >= 0 && i != tag)
            continue;
        mf_farm_work *w = &f->work[i];
        int rc = w->k->release(f, w->ctx, job, attempt, failed, why);
        if (rc < 0)
            return rc;
        w->dry = 0;
    }
    return 0;
}

/* ---- Hello ------------------------------------------------------------------ */

/* The kinds of this farm that Hello h takes, as bits. */
static unsigned kinds_taken(const mf_farm *f, const mf_wire_hello *h)
{
    unsigned bits = 0;
    for (int i = 0; i < f->nwork; i++)
        if (mf_wire_hello_takes(h, f->work[i].k->name))
            bits |= 1u << i;
    return bits;
}

/* ", campaign or matrix" of the farm's kinds, into buf. */
static const char *kind_names(char *buf, size_t n, const mf_farm *f)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < f->nwork && off < n; i++)
        off += (size_t)snprintf(buf + off, n - off, "%s%s",
                                i == 0 ? "" : " or ", f->work[i].k->name);
    return buf;
}

static void joined(mf_farm *f, const mf_farm_peer *p, const mf_wire_hello *h)
{
    char names[128];
    if (!f->o.quiet)
        mf_farm_say(f, "worker %s joined (%s, %d thread%s, mutfarm %s, z3 "
                       "%s)%s%s%s",
                    p->id, p->host[0] ? p->host : "?", p->threads,
                    p->threads == 1 ? "" : "s", h->mutfarm_version,
                    h->z3_version,
                    p->kinds ? "" : "; it takes no ",
                    p->kinds ? "" : kind_names(names, sizeof names, f),
                    p->kinds ? "" : " jobs (an older mutfarm): it gets none");
    if (strcmp(h->mutfarm_version, MF_VERSION) != 0)
        mf_farm_say(f, "note: worker %s runs mutfarm %s, this coordinator %s",
                    p->id, h->mutfarm_version, MF_VERSION);
}

static void on_hello(mf_farm *f, const uint8_t *rid, size_t rid_len,
                     mf_farm_peer *p, const mf_wire_hello *h)
{
    char who[160];
    if (!h->worker_id[0] || strlen(h->worker_id) >= MF_STORE_WORKER_ID) {
        mf_farm_say_peer(f, "refused a hello from %s: worker id empty or "
                            "longer than %d bytes",
                         mf_farm_peer_name(who, sizeof who, rid, rid_len, p),
                         MF_STORE_WORKER_ID - 1);
        mf_farm_send_reject(f, rid, rid_len,
                            MUTFARM__V1__REJECT_CODE__REJECT_INVALID,
                            "worker id empty or too long", 0, 0);
        return;
    }
    int fresh = 0;
    if (!p) {
        p = find_id(f, h->worker_id);
        if (p) {
            /* The same worker on a new connection (it reconnected): its
             * leases stay, it is only reachable elsewhere now. */
            if (!f->o.quiet)
                mf_farm_say(f, "worker %s reconnected", p->id);
        } else {
            mf_farm_peer z = {0};
            MF_VEC_PUSH(f->peers, z);
            p = &f->peers.v[f->peers.n - 1];
            fresh = 1;
        }
        memcpy(p->rid, rid, rid_len);
        p->rid_len = rid_len;
    } else if (strcmp(p->id, h->worker_id) != 0) {
        /* A new name on the same connection: the old one is gone. */
        int rc = mf_farm_release_worker(f, p->id, "renamed itself");
        (void)rc;
    }
    snprintf(p->id, sizeof p->id, "%s", h->worker_id);
    snprintf(p->host, sizeof p->host, "%s", h->host);
    p->threads = h->threads < 1 ? 1 : h->threads > 4096 ? 4096
                                                         : (int)h->threads;
    p->credit = 0;
    p->kinds = kinds_taken(f, h);
    int64_t now = mf_farm_now_ms();
    p->next_hb = now;
    p->seen_at = now;
    if (fresh)
        joined(f, p, h);
    if (f->st) {
        mf_store_worker w = {p->id, p->host, p->threads, h->mutfarm_version,
                             h->z3_version};
        if (mf_store_worker_seen(f->st, &w) < 0)
            mf_farm_say(f, "%s", mf_err_msg());
    }
    mf_farm_worker fw = mf_farm_worker_of(f, p);
    for (int i = 0; i < f->nwork; i++)
        if ((p->kinds & (1u << i)) && f->work[i].k->hello)
            f->work[i].k->hello(f, f->work[i].ctx, &fw, h);
}

/* ---- results ---------------------------------------------------------------- */

static void refuse_result(mf_farm *f, mf_farm_peer *p, uint64_t job,
                          uint32_t attempt, Mutfarm__V1__RejectCode code,
                          const char *why)
{
    mf_farm_say_peer(f, "refused a result from worker %s: %s", p->id, why);
    mf_farm_send_reject(f, p->rid, p->rid_len, code, why, job, attempt);
}

static void ack_result(mf_farm *f, mf_farm_peer *p, uint64_t job,
                       uint32_t attempt, int duplicate)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = mf_wire_encode_ack(&buf, &len, job, attempt, duplicate);
    mf_farm_send_peer(f, p, buf, len, rc);
}

/* A result that failed verification: refused, its lease back uncounted
 * (the fault is the worker's), the worker's refusals counted; at
 * MF_CUTOFF_AFTER it is cut off, its jobs back in the queue and its
 * messages ignored. */
static int refuse_false(mf_farm *f, int tag, mf_farm_peer *p, uint64_t job,
                        uint32_t attempt, const mf_farm_answer *a)
{
    char msg[800];
    int n = mf_cutoff_refused(f->cut, p->id, f->msg_key);
    snprintf(msg, sizeof msg, "%s (refusal %d of %d before a cut-off): %s",
             a->what ? a->what : "a result that does not verify", n,
             MF_CUTOFF_AFTER, a->why);
    refuse_result(f, p, job, attempt,
                  MUTFARM__V1__REJECT_CODE__REJECT_INVALID, msg);
    int rc = mf_farm_release(f, tag, job, attempt, 0, msg);
    if (rc == 0 && n >= MF_CUTOFF_AFTER) {
        mf_farm_say(f, "worker %s%s%s cut off after %d refused results: its "
                       "jobs go back to the queue, what it sends is ignored",
                    p->id, f->msg_key ? " key " : "",
                    f->msg_key ? f->msg_key : "", n);
        p->credit = 0;
        rc = mf_farm_release_worker(f, p->id, "is cut off");
    }
    return rc;
}

/* Result env of kind `tag` from p: checked, committed (with the batch)
 * and acknowledged, or refused. < 0 only for a failure that stops the
 * loop (nothing of the batch is committed, nothing acknowledged). */
static int on_result(mf_farm *f, int tag, mf_farm_peer *p,
                     const mf_wire_env *env)
{
    mf_farm_work *wk = &f->work[tag];
    uint64_t job = 0;
    uint32_t attempt = 0;
    mf_wire_job_of(env, &job, &attempt);
    mf_farm_worker w = mf_farm_worker_of(f, p);
    mf_farm_answer a;
    memset(&a, 0, sizeof a);
    int rc = wk->k->check(f, wk->ctx, &w, env, &a);
    if (rc == 0 && a.outcome == MF_FARM_TAKEN)
        rc = wk->k->commit(f, wk->ctx, &w, env, &a);
    if (rc < 0)
        return rc;
    switch (a.outcome) {
    case MF_FARM_TAKEN:
        if (a.more)
            wk->dry = 0;
        if (f->o.verbose)
            mf_farm_say(f, "job %llu (attempt %u) committed from worker %s",
                        (unsigned long long)job, attempt, p->id);
        ack_result(f, p, job, attempt, 0);
        break;
    case MF_FARM_IGNORED:
        mf_farm_say(f, "ignored a result of job %llu (attempt %u) from "
                       "worker %s: %s",
                    (unsigned long long)job, attempt, p->id, a.why);
        ack_result(f, p, job, attempt, 1);
        break;
    case MF_FARM_UNKNOWN:
        refuse_result(f, p, job, attempt,
                      MUTFARM__V1__REJECT_CODE__REJECT_UNKNOWN_JOB, a.why);
        break;
    case MF_FARM_INVALID:
        refuse_result(f, p, job, attempt,
                      MUTFARM__V1__REJECT_CODE__REJECT_INVALID, a.why);
        /* The worker will not send a better one: the lease goes back. */
        if (a.release)
            rc = mf_farm_release(f, tag, job, attempt, 1, a.why);
        break;
    case MF_FARM_FALSE:
        rc = refuse_false(f, tag, p, job, attempt, &a);
        break;
    }
    return rc;
}

/* ---- Reject, Bye ------------------------------------------------------------ */

static int on_reject(mf_farm *f, mf_farm_peer *p, const mf_wire_reject *r)
{
    mf_farm_say(f, "worker %s refused %s%llu (code %d): %s", p->id,
                r->job_id ? "job " : "message ",
                (unsigned long long)r->job_id, (int)r->code, r->reason);
    if (!r->job_id ||
        r->code != MUTFARM__V1__REJECT_CODE__REJECT_JOB_REFUSED)
        return 0;
    char why[600];
    snprintf(why, sizeof why, "refused by worker %s: %s", p->id, r->reason);
    return mf_farm_release(f, -1, r->job_id, r->attempt, 1, why);
}

static int on_bye(mf_farm *f, mf_farm_peer *p, const mf_wire_bye *b)
{
    /* Given back unfinished: not the job's fault, never a quarantine. */
    for (size_t i = 0; i < b->n_returned; i++) {
        int rc = mf_farm_release(f, -1, b->returned[i]->job_id,
                                 b->returned[i]->attempt, 0,
                                 "given back by a leaving worker");
        if (rc < 0)
            return rc;
    }
    if (!f->o.quiet || b->n_returned)
        mf_farm_say(f, "worker %s left (%s), %zu job(s) given back", p->id,
                    b->reason[0] ? b->reason : "no reason given",
                    b->n_returned);
    char id[MF_STORE_WORKER_ID];
    snprintf(id, sizeof id, "%s", p->id);
    mf_farm_remove_peer(f, p);
    return mf_farm_release_worker(f, id, "left");
}

/* ---- one message ------------------------------------------------------------ */

/* A heartbeat of p: the kinds it takes that keep leases alive hear of
 * it. */
static int alive(mf_farm *f, const mf_farm_peer *p)
{
    for (int i = 0; i < f->nwork; i++) {
        const mf_farm_work *w = &f->work[i];
        if (!(p->kinds & (1u << i)) || !w->k->alive)
            continue;
        int rc = w->k->alive(f, w->ctx, p->id);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The index of the kind whose results come as body k; -1 none. */
static int result_kind(const mf_farm *f, mf_wire_kind k)
{
    for (int i = 0; i < f->nwork; i++)
        if (f->work[i].k->result_msg == k)
            return i;
    return -1;
}

/* A message of a worker that said Hello. */
static int from_peer(mf_farm *f, mf_farm_peer **pp, const uint8_t *rid,
                     size_t rid_len, const mf_wire_env *e)
{
    mf_farm_peer *p = *pp;
    mf_wire_kind k = (mf_wire_kind)e->body_case;
    int tag = result_kind(f, k);
    switch (k) {
    case MF_WIRE_HELLO:
        return 0;
    case MF_WIRE_HEARTBEAT:
        return alive(f, p);
    case MF_WIRE_CREDIT: {
        int64_t cr = (int64_t)p->credit + e->credit->n;
        int64_t cap = (int64_t)p->threads * CREDIT_PER_THREAD;
        p->credit = (int)(cr > cap ? cap : cr);
        return 0;
    }
    case MF_WIRE_REJECT:
        return on_reject(f, p, e->reject);
    case MF_WIRE_BYE:
        *pp = NULL;
        return on_bye(f, p, e->bye);
    default:
        break;
    }
    if (tag >= 0 && (p->kinds & (1u << tag)))
        return on_result(f, tag, p, e);
    mf_farm_say_peer(f, "refused a %s from worker %s: not a worker's message",
                     mf_wire_kind_name(k), p->id);
    mf_farm_send_reject(f, rid, rid_len,
                        MUTFARM__V1__REJECT_CODE__REJECT_UNEXPECTED,
                        "a coordinator does not take this message", 0, 0);
    return 0;
}

int mf_farm_on_message(mf_farm *f, const uint8_t *rid, size_t rid_len,
                       const void *data, size_t len)
{
    char who[160];
    mf_farm_peer *p = mf_farm_find_rid(f, rid, rid_len);
    mf_wire_env *e = NULL;
    mf_wire_fault fault = MF_WIRE_OK;
    if (mf_wire_decode(&e, data, len, &fault) < 0) {
        char why[300];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        mf_farm_say_peer(f, "refused a %zu-byte frame from %s: %s (%s)", len,
                         mf_farm_peer_name(who, sizeof who, rid, rid_len, p),
                         mf_wire_fault_name(fault), why);
        mf_farm_send_reject(f, rid, rid_len, mf_wire_fault_reject_code(fault),
                            why, 0, 0);
        if (p)
            p->expires = mf_farm_now_ms() +
                         (int64_t)f->o.heartbeat_ms * f->o.liveness;
        return 0;
    }
    mf_wire_kind k = (mf_wire_kind)e->body_case;
    int rc = 0;
    if (mf_cutoff_is_cut(f->cut,
                         p ? p->id : k == MF_WIRE_HELLO ? e->hello->worker_id
                                                        : NULL,
                         f->msg_key))
        goto done; /* cut off (refuse_false): ignored */
    if (f->o.verbose)
        mf_farm_say(f, "%s from %s", mf_wire_kind_name(k),
                    mf_farm_peer_name(who, sizeof who, rid, rid_len, p));
    if (k == MF_WIRE_HELLO) {
        on_hello(f, rid, rid_len, p, e->hello);
        p = mf_farm_find_rid(f, rid, rid_len);
    } else if (!p) {
        if (k != MF_WIRE_BYE) {
            mf_farm_say_peer(f, "refused a %s from %s: it has not said hello",
                             mf_wire_kind_name(k),
                             mf_farm_peer_name(who, sizeof who, rid, rid_len,
                                               p));
            mf_farm_send_reject(f, rid, rid_len,
                                MUTFARM__V1__REJECT_CODE__REJECT_NOT_HELLO,
                                "say hello first", 0, 0);
        }
        goto done;
    }
    if (!p)
        goto done;
    int64_t now = mf_farm_now_ms();
    p->expires = now + (int64_t)f->o.heartbeat_ms * f->o.liveness;
    rc = from_peer(f, &p, rid, rid_len, e);
    if (p && f->st && now - p->seen_at >= SEEN_MS) {
        p->seen_at = now;
        mf_store_worker w = {p->id, p->host, p->threads, NULL, NULL};
        if (mf_store_worker_seen(f->st, &w) < 0)
            mf_farm_say(f, "%s", mf_err_msg());
    }
done:
    mf_wire_free(e);
    return rc;
}
