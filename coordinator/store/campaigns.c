/* campaigns.c - the store's models, campaigns and planning: storing a
 * model by its hash, finding or creating the campaign of a model and its
 * options (returning its leased jobs to pending on resume), storing a
 * campaign's mutants in one transaction, and finishing it with its line in
 * score_history. It does not cut or lease jobs (jobs.c) and does not count
 * verdicts itself (queries.c). */
#include "store_int.h"
#include "lang.h"

static const mf_store_query q_model_ins = {
    Q_MODEL_INS, "INSERT INTO models(hash, name, text, created_at) "
                 "VALUES (?1, ?2, ?3, ?4) ON CONFLICT(hash) DO NOTHING"};
static const mf_store_query q_model_id = {
    Q_MODEL_ID, "SELECT id FROM models WHERE hash = ?1"};
static const mf_store_query q_model_get = {
    Q_MODEL_GET, "SELECT text, hash FROM models WHERE id = ?1"};
static const mf_store_query q_camp_find = {
    Q_CAMP_FIND, "SELECT id, state FROM campaigns WHERE model_id = ?1 "
                 "AND options = ?2 AND state <> 'done' "
                 "ORDER BY id DESC LIMIT 1"};
static const mf_store_query q_camp_ins = {
    Q_CAMP_INS,
    "INSERT INTO campaigns(model_id, state, options, bound, notion, "
    "operators, mutfarm_version, z3_version, created_at, updated_at) "
    "VALUES (?1, 'planning', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)"};
static const mf_store_query q_camp_vers = {
    Q_CAMP_VERS, "UPDATE campaigns SET "
                 "mutfarm_version = coalesce(mutfarm_version, ?2), "
                 "z3_version = coalesce(z3_version, ?3), updated_at = ?4 "
                 "WHERE id = ?1"};
static const mf_store_query q_camp_state = {
    Q_CAMP_STATE, "SELECT state FROM campaigns WHERE id = ?1"};
static const mf_store_query q_camp_set_state = {
    Q_CAMP_SET_STATE, "UPDATE campaigns SET state = ?2, updated_at = ?3, "
                      "finished_at = ?4 WHERE id = ?1"};
static const mf_store_query q_camp_get = {
    Q_CAMP_GET,
    "SELECT c.id, c.model_id, c.state, md.name, md.hash, c.options, "
    "coalesce(c.mutfarm_version, ''), coalesce(c.z3_version, ''), "
    "c.created_at, coalesce(c.finished_at, 0) FROM campaigns c "
    "JOIN models md ON md.id = c.model_id WHERE c.id = ?1"};
static const mf_store_query q_camp_latest = {Q_CAMP_LATEST,
                                             "SELECT max(id) FROM campaigns"};
static const mf_store_query q_camp_requeue = {
    Q_CAMP_REQUEUE,
    "UPDATE jobs SET state = 'pending', worker_id = NULL, "
    "lease_deadline = NULL, last_error = 'coordinator restarted' "
    "WHERE campaign_id = ?1 AND state = 'leased'"};
static const mf_store_query q_history_ins = {
    Q_HISTORY_INS,
    "INSERT INTO score_history(campaign_id, model_id, at, total, killed, "
    "equivalent, survived, unknown, error, score) "
    "SELECT id, model_id, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 "
    "FROM campaigns WHERE id = ?1"};
static const mf_store_query q_mut_ins = {
    Q_MUT_INS,
    "INSERT INTO mutants(campaign_id, mutant_id, operator, item, site, "
    "line, col, description, status, dup_of, why) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"};

/* ---- models ------------------------------------------------------------- */

int mf_store_model_put(mf_store *s, int64_t *out_id, const char *hash,
                       const char *name, const char *text, size_t len)
{
    *out_id = 0;
    if (len > 0x7fffffff)
        return mf_err_set(MF_ELIMIT, "store %s: model text too large", s->path);
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = mf_store_one(s, &q_model_ins, "storing the model",
                      BIND(ARG_TEXT(hash), ARG_TEXT(name),
                           ARG_TEXTLEN(text, (int)len),
                           ARG_INT(mf_store_now_ms())),
                      NULL);
    if (rc == 0)
        rc = mf_store_one(s, &q_model_id, "finding a model",
                          BIND(ARG_TEXT(hash)), INTO(COL_I64(out_id)));
    if (rc == 0)
        rc = mf_err_set(MF_ERROR, "store %s: model %s vanished", s->path, hash);
    return mf_store_tx_end(s, rc < 0 ? rc : 0);
}

int mf_store_model_get(mf_store *s, int64_t model, char **text, size_t *len,
                       char hash[65])
{
    *text = NULL;
    *len = 0;
    int rc =
        mf_store_one(s, &q_model_get, "reading a model", BIND(ARG_INT(model)),
                     INTO(COL_DUP(text, len), COL_TEXT(hash, 65)));
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no model %lld", s->path,
                          (long long)model);
    return rc < 0 ? rc : 0;
}

/* ---- campaigns ---------------------------------------------------------- */

static mf_campaign_state state_of(const char *t)
{
    if (!strcmp(t, "done"))
        return MF_CAMPAIGN_DONE;
    if (!strcmp(t, "running"))
        return MF_CAMPAIGN_RUNNING;
    return MF_CAMPAIGN_PLANNING;
}

static int requeue_locked(mf_store *s, int64_t campaign, int *n)
{
    int rc = mf_store_one(s, &q_camp_requeue, "requeueing leased jobs",
                          BIND(ARG_INT(campaign)), NULL);
    if (rc == 0 && n)
        *n = sqlite3_changes(s->db);
    return rc;
}

/* Find an unfinished campaign with these options: 1 and *out, 0, or < 0. */
static int campaign_find(mf_store *s, mf_store_campaign *out, int64_t model,
                         const char *options)
{
    char state[16];
    int rc =
        mf_store_one(s, &q_camp_find, "finding a campaign",
                     BIND(ARG_INT(model), ARG_TEXT(options)),
                     INTO(COL_I64(&out->id), COL_TEXT(state, sizeof state)));
    if (rc == 1) {
        out->state = state_of(state);
        out->resumed = 1;
    }
    return rc;
}

static int campaign_create(mf_store *s, mf_store_campaign *out, int64_t model,
                           const mf_store_campaign_key *key, const char *mfv,
                           const char *z3v)
{
    int rc = mf_store_one(s, &q_camp_ins, "creating a campaign",
                          BIND(ARG_INT(model), ARG_TEXT(key->options),
                               ARG_INT(key->bound), ARG_TEXT(key->notion),
                               ARG_TEXT(key->operators), ARG_TEXT(mfv),
                               ARG_TEXT(z3v), ARG_INT(mf_store_now_ms())),
                          NULL);
    if (rc == 0) {
        out->id = sqlite3_last_insert_rowid(s->db);
        out->state = MF_CAMPAIGN_PLANNING;
    }
    return rc;
}

static int set_versions(mf_store *s, int64_t campaign, const char *mfv,
                        const char *z3v)
{
    return mf_store_one(s, &q_camp_vers, "recording versions",
                        BIND(ARG_INT(campaign), ARG_TEXT(mfv), ARG_TEXT(z3v),
                             ARG_INT(mf_store_now_ms())),
                        NULL);
}

int mf_store_campaign_open(mf_store *s, mf_store_campaign *out,
                           int64_t model_id, const mf_store_campaign_key *key,
                           const char *mutfarm_version, const char *z3_version)
{
    memset(out, 0, sizeof *out);
    out->model_id = model_id;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = campaign_find(s, out, model_id, key->options);
    if (rc == 1) {
        rc = requeue_locked(s, out->id, &out->requeued);
        if (rc == 0)
            rc = set_versions(s, out->id, mutfarm_version, z3_version);
    } else if (rc == 0) {
        rc =
            campaign_create(s, out, model_id, key, mutfarm_version, z3_version);
    }
    rc = mf_store_tx_end(s, rc);
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        out->model_id = model_id;
    }
    return rc;
}

int mf_store_campaign_versions(mf_store *s, int64_t campaign,
                               const char *mutfarm_version,
                               const char *z3_version)
{
    if (s->planning)
        return mf_store_not_planning(s);
    return set_versions(s, campaign, mutfarm_version, z3_version);
}

int mf_store_campaign_requeue(mf_store *s, int64_t campaign, int *n)
{
    if (n)
        *n = 0;
    if (s->planning)
        return mf_store_not_planning(s);
    return requeue_locked(s, campaign, n);
}

/* The campaign's state, or MF_ENOTFOUND. */
static int campaign_state(mf_store *s, int64_t campaign,
                          mf_campaign_state *state)
{
    char t[16];
    int rc = mf_store_one(s, &q_camp_state, "reading a campaign",
                          BIND(ARG_INT(campaign)), INTO(COL_TEXT(t, sizeof t)));
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no campaign %lld", s->path,
                          (long long)campaign);
    if (rc == 1)
        *state = state_of(t);
    return rc < 0 ? rc : 0;
}

static int set_state(mf_store *s, int64_t campaign, const char *state,
                     int64_t finished)
{
    return mf_store_one(s, &q_camp_set_state, "updating a campaign",
                        BIND(ARG_INT(campaign), ARG_TEXT(state),
                             ARG_INT(mf_store_now_ms()),
                             finished ? ARG_INT(finished) : ARG_NULL),
                        NULL);
}

static int history_add(mf_store *s, int64_t campaign, const mf_store_counts *c,
                       int64_t now)
{
    return mf_store_one(s, &q_history_ins, "recording the score",
                        BIND(ARG_INT(campaign), ARG_INT(now), ARG_INT(c->total),
                             ARG_INT(c->killed), ARG_INT(c->equivalent),
                             ARG_INT(c->survived), ARG_INT(c->unknown),
                             ARG_INT(c->error),
                             c->score >= 0 ? ARG_REAL(c->score) : ARG_NULL),
                        NULL);
}

int mf_store_campaign_finish(mf_store *s, int64_t campaign)
{
    mf_campaign_state state = MF_CAMPAIGN_PLANNING;
    mf_store_counts c;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = campaign_state(s, campaign, &state);
    if (rc < 0 || state == MF_CAMPAIGN_DONE)
        return mf_store_tx_end(s, rc);
    rc = mf_store_counts_locked(s, &c, campaign);
    if (rc == 0 && (state == MF_CAMPAIGN_PLANNING || c.pending > 0))
        rc = mf_err_set(MF_ERROR,
                        "store %s: campaign %lld is not complete "
                        "(%lld of %lld mutants without a verdict)",
                        s->path, (long long)campaign, (long long)c.pending,
                        (long long)c.total);
    int64_t now = mf_store_now_ms();
    if (rc == 0)
        rc = set_state(s, campaign, "done", now);
    if (rc == 0)
        rc = history_add(s, campaign, &c, now);
    return mf_store_tx_end(s, rc);
}

int mf_store_campaign_get(mf_store *s, mf_store_campaign_info *out,
                          int64_t campaign)
{
    char state[16];
    memset(out, 0, sizeof *out);
    int rc = mf_store_one(
        s, &q_camp_get, "reading a campaign", BIND(ARG_INT(campaign)),
        INTO(COL_I64(&out->id), COL_I64(&out->model_id),
             COL_TEXT(state, sizeof state),
             COL_TEXT(out->model, sizeof out->model),
             COL_TEXT(out->model_hash, sizeof out->model_hash),
             COL_TEXT(out->options, sizeof out->options),
             COL_TEXT(out->mutfarm_version, sizeof out->mutfarm_version),
             COL_TEXT(out->z3_version, sizeof out->z3_version),
             COL_I64(&out->created_ms), COL_I64(&out->finished_ms)));
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no campaign %lld", s->path,
                          (long long)campaign);
    if (rc < 0)
        return rc;
    out->state = state_of(state);
    return 0;
}

int mf_store_campaign_latest(mf_store *s, int64_t *out)
{
    *out = 0;
    int rc = mf_store_one(s, &q_camp_latest, "finding the newest campaign",
                          NULL, INTO(COL_I64(out)));
    if (rc < 0)
        return rc;
    if (*out == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no campaign yet", s->path);
    return 0;
}

/* ---- planning ----------------------------------------------------------- */

int mf_store_plan_begin(mf_store *s, int64_t campaign)
{
    mf_campaign_state state = MF_CAMPAIGN_PLANNING;
    int rc = mf_store_tx_begin(s, 1);
    if (rc < 0)
        return rc;
    rc = campaign_state(s, campaign, &state);
    if (rc == 0 && state != MF_CAMPAIGN_PLANNING)
        rc = mf_err_set(MF_ERROR,
                        "store %s: campaign %lld is already "
                        "planned",
                        s->path, (long long)campaign);
    if (rc < 0) {
        mf_store_tx_rollback(s);
        return rc;
    }
    s->planning = 1;
    s->plan_campaign = campaign;
    return 0;
}

static const char *mut_status_name(mf_mut_status st)
{
    switch (st) {
    case MF_MUT_OK:
        return "ok";
    case MF_MUT_DUPLICATE:
        return "duplicate";
    default:
        return "stillborn";
    }
}

int mf_store_plan_add(mf_store *s, const mf_mutant *mu)
{
    if (!s->planning)
        return mf_err_set(MF_ERROR,
                          "store %s: mf_store_plan_add outside a "
                          "plan",
                          s->path);
    int rc = mf_store_one(
        s, &q_mut_ins, "storing a mutant",
        BIND(ARG_INT(s->plan_campaign), ARG_TEXT(mu->id),
             ARG_TEXT(mf_lang_op_name(mu->lang, mu->op)), ARG_INT(mu->item),
             ARG_TEXT(mu->site ? mu->site : ""), ARG_INT(mu->line),
             ARG_INT(mu->col), ARG_TEXT(mu->desc ? mu->desc : ""),
             ARG_TEXT(mut_status_name(mu->status)),
             ARG_TEXT(mu->status == MF_MUT_DUPLICATE ? mu->dup_of : NULL),
             ARG_TEXT(mu->status == MF_MUT_STILLBORN ? mu->why : NULL)),
        NULL);
    if (rc < 0 && s->last_rc == SQLITE_CONSTRAINT_UNIQUE)
        rc = mf_err_set(MF_ERROR,
                        "store %s: mutant %s appears twice in "
                        "campaign %lld",
                        s->path, mu->id, (long long)s->plan_campaign);
    return rc;
}

int mf_store_plan_end(mf_store *s, int commit)
{
    if (!s->planning)
        return mf_err_set(MF_ERROR,
                          "store %s: mf_store_plan_end without a "
                          "plan",
                          s->path);
    s->planning = 0;
    if (!commit) {
        mf_store_tx_rollback(s);
        return 0;
    }
    int rc = set_state(s, s->plan_campaign, "running", 0);
    return mf_store_tx_end(s, rc);
}
