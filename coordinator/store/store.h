/* store.h - the campaign store: one SQLite file holding models, campaigns,
 * mutants, jobs, verdicts, tests, kills, workers and score history
 * (docs/architecture.md, docs/schema.md). Only the coordinator writes it.
 *
 * The schema lives in schema/NNN_*.sql, embedded into the binary at build
 * time and applied by mf_store_open() in order of PRAGMA user_version.
 *
 * Everything streams: no function loads all mutants or jobs of a campaign
 * into memory; a job's mutants are read on demand. Every function that
 * writes does so in one transaction: on failure (disk full, locked,
 * corrupt, read-only) it returns a negative MF_E* code with a message in
 * mf_err_msg() naming the file, and the database holds what it held
 * before the call. Nothing here is thread-safe: one mf_store per thread.
 *
 * Times are wall-clock milliseconds since the Unix epoch (mf_store_now_ms),
 * so lease deadlines survive a coordinator restart. */
#ifndef MF_STORE_H
#define MF_STORE_H

#include <stdint.h>

#include "mf.h"
#include "model.h"
#include "mutate.h"
#include "verdict.h"

typedef struct mf_store mf_store;
struct sqlite3;

/* ---- opening ------------------------------------------------------------ */

enum {
    MF_STORE_READONLY = 1, /* no migration, no write (mutfarm status) */
};

/* Process-wide SQLite setting, made once before any store is opened
 * (first thing in main): SQLite keeps no memory statistics, so that an
 * allocation takes no global mutex and no counters. Nothing in mutfarm
 * reads them (sqlite3_memory_used and _highwater answer 0 after this).
 * Returns 0, or MF_ERROR if SQLite was already in use (the statistics
 * stay on; nothing else changes). */
int mf_store_process_init(void);

/* Open or create the store at `path`: WAL, foreign keys, busy timeout, and
 * migrations up to the newest embedded schema (each in its own
 * transaction). A file written by a newer mutfarm (user_version above ours)
 * is refused. With MF_STORE_READONLY the file must exist and be current.
 * Returns 0 and *out (caller closes), or MF_EIO / MF_ERROR with a message;
 * *out is NULL then. */
int mf_store_open(mf_store **out, const char *path, int flags,
                  unsigned busy_timeout_ms);
void mf_store_close(mf_store *s); /* NULL-safe; finalizes statements */

/* A batch: one transaction holding the writes of every store call until
 * mf_store_batch_end, so that the coordinator commits once per batch of
 * messages instead of once per message (docs/protocol.md: still
 * committed before anything is acknowledged). Inside it each call keeps
 * its all-or-nothing promise through a savepoint; a call's failure undoes
 * that call only (the count of a worker's jobs that mf_store_commit keeps
 * is written once per worker, when the batch commits). batch_end(s, 1)
 * commits everything (its failure undoes the whole batch, returned),
 * batch_end(s, 0) undoes it. No plan may be
 * open, and batches do not nest (MF_ERROR). */
int mf_store_batch_begin(mf_store *s);
int mf_store_batch_end(mf_store *s, int commit);

/* The path given to mf_store_open. */
const char *mf_store_path(const mf_store *s);
/* PRAGMA user_version of the open file, and the newest version this binary
 * knows (what a fresh file is migrated to). */
int mf_store_schema_version(mf_store *s, int *out);
int mf_store_schema_latest(void);

/* PRAGMA integrity_check plus foreign_key_check: 0 if both are clean, else
 * MF_ERROR with the first problem in the message. */
int mf_store_integrity(mf_store *s);

/* The underlying connection, for read-only queries of the views (status,
 * reports). Do not write through it, and do not keep a statement open
 * across calls into the store. */
struct sqlite3 *mf_store_db(mf_store *s);

/* Wall-clock now in milliseconds since the epoch. */
int64_t mf_store_now_ms(void);

/* ---- models ------------------------------------------------------------- */

/* Find the model by its content hash (mf_model.hash), or store it with its
 * text and a display name (the file's base name). *out_id is its row id.
 * An existing model keeps its first name and text. */
int mf_store_model_put(mf_store *s, int64_t *out_id, const char *hash,
                       const char *name, const char *text, size_t len);

/* The stored text of a model (*text NUL-terminated, caller frees) and its
 * hash. MF_ENOTFOUND if there is no such model. */
int mf_store_model_get(mf_store *s, int64_t model_id, char **text, size_t *len,
                       char hash[65]);

/* ---- campaigns ---------------------------------------------------------- */

typedef enum {
    MF_CAMPAIGN_PLANNING, /* created; its mutants are not (all) stored yet */
    MF_CAMPAIGN_RUNNING,  /* planned; verdicts are being collected */
    MF_CAMPAIGN_DONE,     /* every mutant has its final verdict */
} mf_campaign_state;

typedef struct {
    int64_t id;
    int64_t model_id;
    mf_campaign_state state;
    int resumed;  /* 1: an unfinished campaign was found, not created */
    int requeued; /* leased jobs put back to pending while resuming */
} mf_store_campaign;

/* What makes two campaigns of one model the same campaign (the caller
 * makes it; mf_config_campaign_key does for a farm configuration). */
typedef struct {
    int bound;             /* deepest test length searched */
    const char *notion;    /* "auto", "potential" or "definite" */
    const char *operators; /* canonical list, "" for all */
    const char *options;   /* canonical JSON of every option that changes
                              verdicts: campaigns are matched on it */
} mf_store_campaign_key;

/* Resume the newest unfinished campaign of the model with the same
 * key->options, or create one in state PLANNING. When resuming, every
 * leased job returns to pending (mf_store_campaign_requeue). A resumed
 * campaign still in PLANNING has no mutants (planning is one transaction):
 * plan it again. `mutfarm_version` and `z3_version` may be NULL (unknown
 * yet). */
int mf_store_campaign_open(mf_store *s, mf_store_campaign *out,
                           int64_t model_id, const mf_store_campaign_key *key,
                           const char *mutfarm_version, const char *z3_version);

/* Record versions not known at creation (e.g. Z3's, from the first
 * worker's Hello); a NULL argument, or a column already set, is left as
 * is. */
int mf_store_campaign_versions(mf_store *s, int64_t campaign,
                               const char *mutfarm_version,
                               const char *z3_version);

/* Every leased job of the campaign back to pending (a coordinator starting
 * on a file whose previous coordinator died). *n: how many (may be NULL).
 * Attempts are kept: a job that keeps killing workers still ends up
 * quarantined. */
int mf_store_campaign_requeue(mf_store *s, int64_t campaign, int *n);

/* Mark the campaign done (finished_at now) and append its counts and
 * score to score_history. MF_ERROR if a mutant still lacks a verdict (or
 * the campaign was never planned). Idempotent: a done campaign is left as
 * is. */
int mf_store_campaign_finish(mf_store *s, int64_t campaign);

typedef struct {
    int64_t id, model_id;
    mf_campaign_state state;
    char model[256]; /* the model's display name */
    char model_hash[65];
    char options[1024]; /* canonical JSON */
    char mutfarm_version[64];
    char z3_version[64];
    int64_t created_ms, finished_ms; /* finished_ms 0: not finished */
} mf_store_campaign_info;

/* Details of one campaign; MF_ENOTFOUND if absent. */
int mf_store_campaign_get(mf_store *s, mf_store_campaign_info *out,
                          int64_t campaign);
/* The id of the newest campaign in the file; MF_ENOTFOUND if none. */
int mf_store_campaign_latest(mf_store *s, int64_t *out);

/* ---- planning: mutants -------------------------------------------------- */

/* Storing the mutants of a PLANNING campaign is one transaction: begin,
 * add each mutant as mf_mutants_each yields it (any status; duplicates and
 * stillborn are stored with dup_of / why and never get a job), then end
 * with commit = 1 (the campaign becomes RUNNING) or 0 (roll back, e.g.
 * the enumeration failed). After a failed add, end(s, 0) is the only
 * thing left to do. A mutant id seen twice in one campaign is MF_ERROR. */
int mf_store_plan_begin(mf_store *s, int64_t campaign);
int mf_store_plan_add(mf_store *s, const mf_mutant *mu);
int mf_store_plan_end(mf_store *s, int commit);

/* ---- jobs --------------------------------------------------------------- */

typedef enum {
    MF_JOB_PENDING,     /* waiting for a worker */
    MF_JOB_LEASED,      /* handed to a worker until the lease deadline */
    MF_JOB_DONE,        /* its result is committed */
    MF_JOB_QUARANTINED, /* failed max_attempts times; mutants are `error` */
} mf_job_state;

#define MF_STORE_WORKER_ID 128 /* longest worker id, NUL included */

typedef struct {
    int64_t id, campaign_id;
    mf_job_state state;
    int attempts;        /* leases so far; the current attempt's number */
    int nmut;            /* mutants in the job */
    int item;            /* the model item all its mutants change */
    int64_t deadline_ms; /* LEASED: lease deadline, else 0 */
    char worker[MF_STORE_WORKER_ID]; /* LEASED: holder; DONE: who
                                        answered; else "" */
} mf_store_job;

/* The next job to hand out, in state PENDING (not leased yet): a requeued
 * job first (oldest first), split so it has at most max_mutants (the rest
 * becomes a new pending job); otherwise a new job cut from the mutants not
 * yet in any job, the oldest such mutant plus up to max_mutants - 1 more
 * changing the same model item (so they share solver state). The caller
 * chooses max_mutants per call: adaptive sizing and a finer tail are its
 * policy. Until it is leased, the same job comes back from every call.
 * Returns 0 and *out, or MF_ENOTFOUND when nothing is left to hand out
 * (every mutant is in a leased, done or quarantined job). */
int mf_store_job_next(mf_store *s, mf_store_job *out, int64_t campaign,
                      int max_mutants);

/* One job by id; MF_ENOTFOUND if absent. */
int mf_store_job_get(mf_store *s, mf_store_job *out, int64_t job);

/* A mutant as the job message needs it. Strings live during the call. */
typedef struct {
    const char *id;   /* 16 hex digits (mf_mutant.id) */
    const char *op;   /* operator name */
    const char *site; /* canonical site path */
    int item, line, col;
} mf_store_mutant;

/* Return non-zero to stop; that value is returned. The callback must not
 * call into the store. */
typedef int (*mf_store_mutant_fn)(const mf_store_mutant *m, void *ctx);

/* Call fn for each mutant of the job in planning order. */
int mf_store_job_mutants(mf_store *s, int64_t job, mf_store_mutant_fn fn,
                         void *ctx);

/* Lease a PENDING job to `worker` until deadline_ms: attempts + 1 (the new
 * attempt number is out->attempts, to put in the Job message). MF_ERROR if
 * the job is not pending. *out may be NULL. */
int mf_store_job_lease(mf_store *s, mf_store_job *out, int64_t job,
                       const char *worker, int64_t deadline_ms);

/* mf_store_job_next and mf_store_job_lease in one transaction (one write
 * per dispatch instead of two): the next job, leased to `worker`. Returns
 * 0 and *out (out->attempts is the attempt to send), or MF_ENOTFOUND. */
int mf_store_job_take(mf_store *s, mf_store_job *out, int64_t campaign,
                      int max_mutants, const char *worker, int64_t deadline_ms);

/* mf_store_job_take, calling fn (as mf_store_job_mutants does) for each
 * mutant of the job taken, in planning order, in the same transaction:
 * the dispatch path. A job cut from unplanned mutants is created leased
 * (one write of its row). fn's non-zero value undoes the take and is
 * returned. */
int mf_store_job_take_each(mf_store *s, mf_store_job *out, int64_t campaign,
                           int max_mutants, const char *worker,
                           int64_t deadline_ms, mf_store_mutant_fn fn,
                           void *ctx);

/* Push the deadline of a leased job (the worker is alive). Ignored (0) if
 * the job is no longer leased under that attempt. */
int mf_store_job_extend(mf_store *s, int64_t job, int attempt,
                        int64_t deadline_ms);

/* Take back the lease of attempt `attempt` (worker dead, job returned,
 * result refused): the job returns to PENDING, or is quarantined with
 * `reason` when its attempts reached max_attempts. *quarantined (may be
 * NULL) says which. Ignored (0, *quarantined 0) when the job is no longer
 * leased under that attempt. */
int mf_store_job_release(mf_store *s, int64_t job, int attempt,
                         int max_attempts, const char *reason,
                         int *quarantined);

/* Quarantine now: the job is QUARANTINED and each of its mutants without a
 * verdict gets `error` with `reason`. A done job is left as is. */
int mf_store_job_quarantine(mf_store *s, int64_t job, const char *reason);

/* Release (as above) every leased job of the campaign whose deadline is
 * before now_ms; counts through the (nullable) out pointers. */
int mf_store_jobs_expire(mf_store *s, int64_t campaign, int64_t now_ms,
                         int max_attempts, int *requeued, int *quarantined);

/* Release every job leased to `worker` (declared dead). */
int mf_store_jobs_release_worker(mf_store *s, int64_t campaign,
                                 const char *worker, int max_attempts,
                                 int *requeued, int *quarantined);

/* ---- results ------------------------------------------------------------ */

typedef struct {
    const char *mutant_id; /* 16 hex digits, a mutant of the job */
    const mf_verdict *v;   /* kind, notion, bound, method, reason, secs;
                              killed: v->test is the killing test */
} mf_store_verdict;

/* A further kill found by replaying a test on another mutant of the
 * campaign: the test of verdicts[test] (a killed one) kills mutant_id. */
typedef struct {
    int test;
    const char *mutant_id;
} mf_store_kill;

typedef struct {
    int64_t job_id;
    int attempt;                      /* from the Job message */
    const char *worker;               /* who computed it; NULL: lease holder */
    const mf_store_verdict *verdicts; /* exactly one per mutant of the job */
    int nverdicts;
    const mf_store_kill *kills; /* optional */
    int nkills;
    const mf_model *model; /* names the cells of tests in their
                              JSON and text; NULL: numbers */
} mf_store_result;

typedef enum {
    MF_COMMIT_OK,          /* written, the job is DONE */
    MF_COMMIT_DUPLICATE,   /* the job was already done: ignored */
    MF_COMMIT_STALE,       /* no attempt of the job (or one since cut
                              down): ignored */
    MF_COMMIT_QUARANTINED, /* the job was quarantined: ignored */
    MF_COMMIT_UNKNOWN_JOB, /* no such job: ignored */
    MF_COMMIT_INVALID,     /* a verdict for a mutant not in the job, two for
                              one, one missing, or a kill without a test:
                              nothing written (see why) */
} mf_commit_outcome;

typedef struct {
    mf_commit_outcome outcome;
    int counts[5]; /* OK: verdicts written, indexed by mf_verdict_kind */
    int new_tests; /* OK: tests not seen before in the campaign */
    char why[256]; /* INVALID and the ignored outcomes: one line */
    int late;      /* OK: the result of an earlier attempt than the
                      job's last (a re-lease was still running) */
    int cancelled_attempt; /* late: the lease it ended (0: the job was
                              pending, no lease) */
    char cancelled_worker[MF_STORE_WORKER_ID]; /* late: its holder */
} mf_store_commit_info;

/* Commit a job's result in one transaction: its verdicts, its tests
 * (deduplicated per campaign by content), the kills, and the job DONE.
 * The result of any attempt so far is taken while the job is pending or
 * leased: the first valid result wins, and a later attempt's lease ends
 * with it (out->late; that attempt's result will be a duplicate). Every
 * worker computes the same verdicts for the same job, so nothing is lost
 * by keeping the first. Idempotent: a result for a job that is done,
 * quarantined, unknown, or for an attempt it never had (or before it was
 * cut down) is ignored and reported in out->outcome with return 0. A
 * negative return is a database failure: nothing was written. */
int mf_store_commit(mf_store *s, mf_store_commit_info *out,
                    const mf_store_result *r);

/* The test of a mutant's `killed` verdict: JSON (inputs per step,
 * expected observables, allowed outputs; see docs/schema.md) written by
 * the store, caller frees. MF_ENOTFOUND if the mutant has no kill test. */
int mf_store_test_json(mf_store *s, char **out, int64_t campaign,
                       const char *mutant_id);

/* ---- tests read back ---------------------------------------------------- */

/* Read a stored test (its JSON columns, docs/schema.md) into a new test of
 * model m: every cell and observable by its name in m, every value
 * checked against m's types (symbols by name, so it does not matter in
 * which order m lists them). The text is outside input (another version,
 * another model): anything malformed, a name m does not have or does not
 * use there (an input that is not one in m), a value outside its type, an
 * input of m the test gives no value, or a wrong number of states is
 * refused with MF_EPARSE and a message naming it; a test too large to hold
 * is MF_ELIMIT. `allowed` may be NULL (or "null"). With `partial` NULL an
 * observable of m missing from `expected` is refused too; otherwise it is
 * taken as unknown, *partial is 1, and the test comes without allowed
 * outputs (the caller computes its expected outputs again). Returns 0 and
 * *out (caller frees with mf_test_free), or a negative code and *out NULL. */
int mf_store_test_read(mf_test **out, const mf_model *m, int length,
                       const char *inputs, const char *expected,
                       const char *allowed, int *partial);

/* How mf_store_test_parse reads. */
typedef struct {
    int64_t id;   /* the test's row: messages say "test ID: column[state]:
                     ..."; 0: "stored test, column: ..." */
    int raw;      /* also the form of a store written without a model,
                     for that model only: a state as an array of numbers
                     in slot (inputs) or observable order, booleans as
                     JSON true and false */
    int *partial; /* as mf_store_test_read's */
    /* A test read from a user's file (mutfarm tests import): messages say
     * "FILE:LINE: column: ..." with the line of the state being read
     * (lines[k], length + 1 of them), else of the test (line). */
    const char *file;
    const int *lines;
    int line;
} mf_store_test_opts;

/* mf_store_test_read with options: the one reader of stored tests, for
 * the nightly rerun and for the reports (kill matrix, export,
 * minimisation). */
int mf_store_test_parse(mf_test **out, const mf_model *m, int length,
                        const char *inputs, const char *expected,
                        const char *allowed, const mf_store_test_opts *o);

/* A stored test as its row has it; strings live during the call. */
typedef struct {
    int64_t id;
    int length;
    const char *notion; /* of the kill it was found for */
    const char *inputs, *expected, *allowed; /* JSON; allowed may be NULL */
} mf_store_test_row;

/* Return non-zero to stop; that value is returned. The callback must not
 * call into the store. */
typedef int (*mf_store_test_fn)(const mf_store_test_row *t, void *ctx);

/* Call fn for each test of a campaign, those killing the most mutants
 * first, then the shortest. */
int mf_store_tests_each(mf_store *s, int64_t campaign, mf_store_test_fn fn,
                        void *ctx);

/* ---- nightly reruns: what a new campaign takes over (reuse.c) ----------- */

/* How a campaign's verdicts came about (campaigns.reuse, docs/nightly.md). */
typedef enum {
    MF_REUSE_FRESH,  /* --fresh: nothing taken over */
    MF_REUSE_NONE,   /* no earlier finished campaign of the model */
    MF_REUSE_CARRY,  /* same model text and options: verdicts carried */
    MF_REUSE_REPLAY, /* model or options changed: stored tests replayed */
} mf_reuse_mode;

const char *mf_reuse_name(mf_reuse_mode m); /* "fresh", "none", ... */

/* What a campaign took over and what it left to the workers. */
typedef struct {
    mf_reuse_mode mode;
    int64_t basis;          /* the earlier campaign, 0 none */
    int64_t carried;        /* verdicts copied from it */
    int64_t replay_tests;   /* its tests replayed */
    int64_t replay_skipped; /* its tests that could not be */
    int64_t reexpected;     /* replayed with recomputed expected outputs */
    int64_t replay_killed;  /* mutants killed by a replayed test */
    int64_t to_solver;      /* mutants left to the workers */
    int64_t carried_cone;   /* of `carried`: across an edit, outside the
                               mutant's cone (origin 'carried-cone') */
} mf_store_reuse;

/* The earlier finished campaign a new campaign of model `model_id` (display
 * name `name`) with options key `options` builds on: the newest done
 * campaign of the same model and options (*carry = 1: its verdicts hold as
 * they are); else the newest done campaign of a model of the same name,
 * one with the same options first (*carry = 0: only its tests are of use).
 * Returns 0 and *out, or MF_ENOTFOUND (*out 0) when there is none. */
int mf_store_basis_find(mf_store *s, int64_t *out, int *carry,
                        int64_t model_id, const char *name,
                        const char *options);

/* The verdict of mutant `mutant_id` in campaign `from`: 1 with its kind
 * and, for a kill, its notion (else MF_N_DEFINITE); 0 if it has none
 * there, or < 0. Also inside a plan. Every kind but error is carried by
 * mf_store_plan_carry (an error says that the check failed, not what the
 * mutant is). */
int mf_store_earlier_kind(mf_store *s, int64_t from, const char *mutant_id,
                          mf_verdict_kind *kind, mf_notion *notion);

/* Inside a plan (mf_store_plan_begin .. plan_end), after every mutant was
 * added: copy from campaign `from` (same model and options) the carriable
 * verdict of each mutant the two campaigns share and that has none yet,
 * every test, and every kill between them, into the planned campaign.
 * The copies say where they come from (verdicts.origin 'carried'). *n
 * (may be NULL): verdicts carried. After a failure, end the plan with
 * commit = 0. */
int mf_store_plan_carry(mf_store *s, int64_t from, int64_t *n);

/* Inside a plan: mutant `mutant_id` (added to the plan, no verdict yet)
 * is killed by test t of model m, a test of campaign `from` (row
 * `from_test`; -P: test P of a suite imported in campaign `from`) replayed
 * by the simulator on the mutant with the notion given. Stores the test in the planned campaign (once per content), its
 * kill (with t->mobs as the observed deviation) and the `killed` verdict
 * (origin 'replayed'; its test is not claimed to be the shortest).
 * *test_row: 0, or the planned campaign's row of a test with the same
 * inputs, expected and allowed outputs as t (the test is then not
 * rendered again); on success the row t is stored in. MF_ERROR for a
 * mutant not in the plan or with a verdict already, or a test that does
 * not fit m. */
int mf_store_plan_kill(mf_store *s, const char *mutant_id, const mf_model *m,
                       const mf_test *t, mf_notion notion, int64_t from,
                       int64_t from_test, int64_t *test_row);

/* The model and options of campaign `campaign`: its model's display
 * name, stored text (its file as read), hash and the campaign's options
 * key, each a copy the caller frees. 0, MF_ENOTFOUND, or a store
 * failure (nothing to free then). Also inside a plan. */
int mf_store_basis_model(mf_store *s, int64_t campaign, char **name,
                         char **text, size_t *len, char **hash,
                         char **options);

/* Inside a plan: mutant `mutant_id` (added to the plan, no verdict yet)
 * takes over its `equivalent` or `survived` verdict of campaign `from`
 * as it is, with origin 'carried-cone' and the method "carried from
 * campaign N (`how`): " followed by the earlier method. 1 if carried, 0
 * if `from` holds no such verdict of it, or a store failure. */
int mf_store_plan_carry_cone(mf_store *s, const char *mutant_id, int64_t from,
                             const char *how);

/* The newest imported suite named `name` in the file (`mutfarm tests
 * import`, docs/suites.md): its row in *suite and its campaign in
 * *campaign. MF_ENOTFOUND for none. */
int mf_store_imported_find(mf_store *s, const char *name, int64_t *suite,
                           int64_t *campaign);

/* Call fn for each test of imported suite `suite` in its order; a row's id
 * is minus its position (mf_store_plan_kill then names it as a test of an
 * imported suite). */
int mf_store_imported_each(mf_store *s, int64_t suite, mf_store_test_fn fn,
                           void *ctx);

/* Inside a plan, last: mark every mutant that has a verdict already as
 * reused (mutants.reused: no job is ever cut with it) and record r (mode,
 * basis and counts) in the planned campaign; r->to_solver is set here to
 * the mutants left to decide. */
int mf_store_plan_reuse(mf_store *s, mf_store_reuse *r);

/* What campaign `campaign` took over: 0 and *out, or MF_ENOTFOUND when it
 * does not say (planned before schema 003, or not planned yet). */
int mf_store_reuse_get(mf_store *s, mf_store_reuse *out, int64_t campaign);

/* ---- workers ------------------------------------------------------------ */

typedef struct {
    const char *id;   /* unique per worker process */
    const char *host; /* may be NULL */
    int threads;
    const char *mutfarm_version; /* may be NULL */
    const char *z3_version;      /* may be NULL */
} mf_store_worker;

/* Insert or update the worker, last_seen = now (at Hello; not needed on
 * every heartbeat). */
int mf_store_worker_seen(mf_store *s, const mf_store_worker *w);

/* ---- liveness: the coordinator serving a campaign (liveness.c) ---------- */

/* One row of `coordinators` (schema/004_liveness.sql). */
typedef struct {
    int64_t id, campaign_id;
    int pid;
    char host[256];
    char endpoint[256];
    int64_t started_ms, heartbeat_ms; /* ms since the epoch */
    int64_t beat_ms, liveness_ms;     /* heartbeat period, dead after */
    int64_t done, total;              /* at the last heartbeat */
    double rate;                      /* mutants/s; < 0 unknown */
    double eta_s;                     /* < 0 unknown */
    int workers, threads;
    int64_t stopped_ms;               /* 0: not stopped by itself */
    char stop_reason[16];             /* "complete", "stopped", "failed" */
} mf_store_coordinator;

/* A new coordinator row for c->campaign_id from c (pid, host, endpoint,
 * beat_ms, liveness_ms, progress), started and beating now: its id in
 * *out_id. */
int mf_store_coord_start(mf_store *s, int64_t *out_id,
                         const mf_store_coordinator *c);

/* A heartbeat of row c->id: heartbeat_at now, and c's progress fields. */
int mf_store_coord_beat(mf_store *s, const mf_store_coordinator *c);

/* Row `id` exited by itself now, for `reason` ("complete", "stopped",
 * "failed"). */
int mf_store_coord_stop(mf_store *s, int64_t id, const char *reason);

/* The newest coordinator row of a campaign: 0 and *out, MF_ENOTFOUND if
 * no coordinator has served it since the store had liveness (schema 004). */
int mf_store_coord_get(mf_store *s, mf_store_coordinator *out,
                       int64_t campaign);

/* What row c says at now_ms: "stopped" (it exited by itself), "running"
 * (its last heartbeat is within liveness_ms) or "dead". */
const char *mf_store_coord_state(const mf_store_coordinator *c,
                                 int64_t now_ms);

/* ---- progress ----------------------------------------------------------- */

typedef struct {
    int64_t total; /* mutants to decide: not duplicate, not stillborn
                      (campaign_scores.total) */
    int64_t done;  /* with a final verdict */
    int64_t killed, equivalent, survived, unknown, error;
    int64_t pending; /* total - done */
    int64_t duplicate, stillborn;
    int64_t unplanned; /* to decide and not in any job yet */
    int64_t jobs_pending, jobs_leased, jobs_done, jobs_quarantined;
    double score; /* killed / (killed + survived + unknown); -1 if the
                     denominator is 0 (the view gives NULL) */
} mf_store_counts;

/* Counts of one campaign. Scans the campaign's verdicts through an index:
 * fine once a second, not per message; between calls keep tallies from
 * mf_store_commit_info. */
int mf_store_counts_get(mf_store *s, mf_store_counts *out, int64_t campaign);

#endif
