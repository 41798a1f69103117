/* reuse.c - what a new campaign takes over from an earlier one (nightly
 * reruns, docs/nightly.md): finding that earlier campaign, carrying its
 * verdicts, tests and kills over when the model text and options are the
 * same, recording a kill by one of its tests replayed on a mutant of the
 * new campaign, and the counts of what was taken over (schema/003). All
 * of it runs inside the plan's transaction, so a campaign is planned with
 * what it takes over or not at all. It decides nothing: which tests kill
 * which mutant is the coordinator's replay (coordinator/rerun.c). */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>

static const mf_store_query q_basis_same = {
    Q_BASIS_SAME, "SELECT id FROM campaigns WHERE model_id = ?1 "
                  "AND options = ?2 AND state = 'done' "
                  "ORDER BY id DESC LIMIT 1"};
static const mf_store_query q_basis_name = {
    Q_BASIS_NAME,
    "SELECT c.id FROM campaigns c JOIN models md ON md.id = c.model_id "
    "WHERE (c.model_id = ?1 OR md.name = ?3) AND c.state = 'done' "
    "ORDER BY c.model_id = ?1 DESC, c.options = ?2 DESC, c.id DESC LIMIT 1"};
static const mf_store_query q_carriable = {
    Q_CARRIABLE, "SELECT v.kind, coalesce(v.notion, '') FROM mutants m "
                 "JOIN verdicts v ON v.mutant = m.id "
                 "WHERE m.campaign_id = ?1 AND m.mutant_id = ?2"};
static const mf_store_query q_plan_mutant = {
    Q_PLAN_MUTANT,
    "SELECT m.id, EXISTS (SELECT 1 FROM verdicts v WHERE v.mutant = m.id) "
    "FROM mutants m WHERE m.campaign_id = ?1 AND m.mutant_id = ?2 "
    "AND m.status = 'ok'"};
static const mf_store_query q_replay_verdict = {
    Q_REPLAY_VERDICT,
    "INSERT INTO verdicts(mutant, campaign_id, kind, notion, bound, method, "
    "test_id, created_at, origin, origin_campaign) "
    "VALUES (?1, ?2, 'killed', ?3, ?4, ?5, ?6, ?7, 'replayed', ?8)"};
static const mf_store_query q_reuse_set = {
    Q_REUSE_SET,
    "UPDATE campaigns SET reuse = ?2, basis_id = ?3, carried = ?4, "
    "replay_tests = ?5, replay_skipped = ?6, reexpected = ?7, "
    "replay_killed = ?8, to_solver = ?9, carried_cone = ?10 WHERE id = ?1"};
static const mf_store_query q_reuse_get = {
    Q_REUSE_GET, "SELECT coalesce(reuse, ''), coalesce(basis_id, 0), "
                 "coalesce(carried, 0), coalesce(replay_tests, 0), "
                 "coalesce(replay_skipped, 0), coalesce(reexpected, 0), "
                 "coalesce(replay_killed, 0), coalesce(to_solver, 0), "
                 "coalesce(carried_cone, 0) FROM campaigns WHERE id = ?1"};
static const mf_store_query q_mark_reused = {
    Q_MARK_REUSED, "UPDATE mutants SET reused = 1 WHERE campaign_id = ?1 "
                   "AND status = 'ok' AND EXISTS (SELECT 1 FROM verdicts v "
                   "WHERE v.mutant = mutants.id)"};
static const mf_store_query q_undecided = {
    Q_UNDECIDED, "SELECT count(*) FROM mutants "
                 "INDEXED BY mutants_unplanned WHERE campaign_id = ?1 "
                 "AND job_id IS NULL AND status = 'ok' AND reused = 0"};

static const mf_store_query q_basis_model = {
    Q_BASIS_MODEL, "SELECT md.name, md.text, md.hash, c.options "
                   "FROM campaigns c JOIN models md ON md.id = c.model_id "
                   "WHERE c.id = ?1"};

static const char *const reuse_names[] = {"fresh", "none", "carry", "replay"};

const char *mf_reuse_name(mf_reuse_mode m)
{
    return (unsigned)m < 4 ? reuse_names[m] : "?";
}

/* ---- the earlier campaign ----------------------------------------------- */

int mf_store_basis_find(mf_store *s, int64_t *out, int *carry, int64_t model_id,
                        const char *name, const char *options)
{
    *out = 0;
    *carry = 0;
    int rc = mf_store_one(s, &q_basis_same, "finding an earlier campaign",
                          BIND(ARG_INT(model_id), ARG_TEXT(options)),
                          INTO(COL_I64(out)));
    if (rc == 1) {
        *carry = 1;
        return 0;
    }
    if (rc == 0)
        rc = mf_store_one(
            s, &q_basis_name, "finding an earlier campaign",
            BIND(ARG_INT(model_id), ARG_TEXT(options), ARG_TEXT(name)),
            INTO(COL_I64(out)));
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND,
                          "store %s: no finished campaign of %s yet", s->path,
                          name);
    return rc < 0 ? rc : 0;
}

int mf_store_earlier_kind(mf_store *s, int64_t from, const char *mutant_id,
                          mf_verdict_kind *kind, mf_notion *notion)
{
    char k[16], n[16];
    int rc = mf_store_one(s, &q_carriable, "looking up an earlier verdict",
                          BIND(ARG_INT(from), ARG_TEXTN(mutant_id, 64)),
                          INTO(COL_TEXT(k, sizeof k), COL_TEXT(n, sizeof n)));
    if (rc != 1)
        return rc;
    *notion = MF_N_DEFINITE;
    for (int i = MF_N_DETERMINISTIC; i <= MF_N_DEFINITE; i++)
        if (!strcmp(n, mf_notion_name((mf_notion)i)))
            *notion = (mf_notion)i;
    for (int i = MF_V_KILLED; i <= MF_V_ERROR; i++)
        if (!strcmp(k, mf_verdict_name((mf_verdict_kind)i))) {
            *kind = (mf_verdict_kind)i;
            return 1;
        }
    return 0; /* a kind this version does not know: as if none */
}

int mf_store_basis_model(mf_store *s, int64_t campaign, char **name,
                         char **text, size_t *len, char **hash,
                         char **options)
{
    *name = *text = *hash = *options = NULL;
    *len = 0;
    int rc = mf_store_one(s, &q_basis_model, "reading an earlier model",
                          BIND(ARG_INT(campaign)),
                          INTO(COL_DUP(name, NULL), COL_DUP(text, len),
                               COL_DUP(hash, NULL), COL_DUP(options, NULL)));
    if (rc == 1 && *name && *text && *hash && *options)
        return 0;
    free(*name);
    free(*text);
    free(*hash);
    free(*options);
    *name = *text = *hash = *options = NULL;
    *len = 0;
    if (rc < 0)
        return rc;
    return mf_err_set(MF_ENOTFOUND, "store %s: campaign %lld has no model",
                      s->path, (long long)campaign);
}

/* ---- carrying ----------------------------------------------------------- */

/* ", prefix.col" for every column of `table` not in `skip` (a
 * NULL-terminated list), appended to cols (plain names) and vals (with
 * `prefix.`). Whatever later migrations add to the table is copied too. */
static int other_columns(mf_store *s, const char *table,
                         const char *const *skip, const char *prefix,
                         mf_buf *cols, mf_buf *vals)
{
    char sql[96];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "PRAGMA table_info(%s)", table);
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return mf_store_fail(s, rc, "reading the schema");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        int skipped = !name || strchr(name, '"');
        for (int i = 0; !skipped && skip[i]; i++)
            skipped = !strcmp(name, skip[i]);
        if (skipped)
            continue;
        mf_buf_printf(cols, ", \"%s\"", name);
        mf_buf_printf(vals, ", %s.\"%s\"", prefix, name);
    }
    int ret =
        rc == SQLITE_DONE ? 0 : mf_store_fail(s, rc, "reading the schema");
    sqlite3_finalize(st);
    return ret;
}

/* Copy rows with `sql_fmt` (two %s: the other columns, plain and
 * prefixed) binding ?1 the new campaign, ?2 the old, ?3 now. Returns the
 * rows copied or < 0. */
static int copy_rows(mf_store *s, const char *table, const char *const *skip,
                     const char *prefix, const char *sql_fmt, int64_t to,
                     int64_t from, const char *what)
{
    mf_buf cols = {0}, vals = {0}, sql = {0};
    int rc = other_columns(s, table, skip, prefix, &cols, &vals);
    if (rc == 0) {
        mf_buf_printf(&sql, sql_fmt, cols.data ? cols.data : "",
                      vals.data ? vals.data : "");
        rc = mf_store_exec(
            s, sql.data, what,
            BIND(ARG_INT(to), ARG_INT(from), ARG_INT(mf_store_now_ms())));
    }
    mf_buf_free(&cols);
    mf_buf_free(&vals);
    mf_buf_free(&sql);
    return rc;
}

static const char *const test_skip[] = {"id", "campaign_id", "found_for",
                                        "created_at", NULL};
static const char *const test_copy =
    "INSERT INTO tests(campaign_id, found_for, created_at%s) "
    "SELECT ?1, (SELECT nm.id FROM mutants om JOIN mutants nm "
    "ON nm.campaign_id = ?1 AND nm.mutant_id = om.mutant_id "
    "WHERE om.id = ot.found_for), ?3%s "
    "FROM tests ot WHERE ot.campaign_id = ?2 "
    "ON CONFLICT(campaign_id, hash) DO NOTHING";

static const char *const kill_skip[] = {"test_id", "mutant", "campaign_id",
                                        NULL};
static const char *const kill_copy =
    "INSERT INTO kills(test_id, mutant, campaign_id%s) "
    "SELECT nt.id, nm.id, ?1%s FROM tests ot "
    "JOIN kills k ON k.test_id = ot.id "
    "JOIN tests nt ON nt.campaign_id = ?1 AND nt.hash = ot.hash "
    "JOIN mutants om ON om.id = k.mutant "
    "JOIN mutants nm ON nm.campaign_id = ?1 AND nm.mutant_id = om.mutant_id "
    "WHERE ot.campaign_id = ?2 ON CONFLICT DO NOTHING";

static const char *const verdict_skip[] = {
    "mutant",     "campaign_id", "job_id",          "attempt", "test_id",
    "created_at", "origin",      "origin_campaign", NULL};
static const char *const verdict_copy =
    "INSERT INTO verdicts(mutant, campaign_id, test_id, created_at, origin, "
    "origin_campaign%s) "
    "SELECT nm.id, ?1, (SELECT nt.id FROM tests ot JOIN tests nt "
    "ON nt.campaign_id = ?1 AND nt.hash = ot.hash WHERE ot.id = v.test_id), "
    "?3, 'carried', ?2%s FROM mutants om "
    "JOIN verdicts v ON v.mutant = om.id "
    "JOIN mutants nm ON nm.campaign_id = ?1 AND nm.mutant_id = om.mutant_id "
    "AND nm.status = 'ok' "
    "WHERE om.campaign_id = ?2 AND v.kind <> 'error' "
    "ON CONFLICT(mutant) DO NOTHING";

static int plan_only(mf_store *s, const char *fn)
{
    if (s->planning)
        return 0;
    return mf_err_set(MF_ERROR, "store %s: %s outside a plan", s->path, fn);
}

int mf_store_plan_carry(mf_store *s, int64_t from, int64_t *n)
{
    if (n)
        *n = 0;
    int rc = plan_only(s, "mf_store_plan_carry");
    int64_t to = s->plan_campaign;
    if (rc == 0)
        rc = copy_rows(s, "tests", test_skip, "ot", test_copy, to, from,
                       "carrying tests");
    if (rc >= 0)
        rc = copy_rows(s, "kills", kill_skip, "k", kill_copy, to, from,
                       "carrying kills");
    if (rc >= 0)
        rc = copy_rows(s, "verdicts", verdict_skip, "v", verdict_copy, to, from,
                       "carrying verdicts");
    if (rc >= 0 && n)
        *n = rc;
    return rc < 0 ? rc : 0;
}

static const char *const cone_skip[] = {
    "mutant",     "campaign_id", "job_id",          "attempt", "test_id",
    "created_at", "origin",      "origin_campaign", "method",  NULL};
static const char *const cone_copy =
    "INSERT INTO verdicts(mutant, campaign_id, created_at, origin, "
    "origin_campaign, method%s) "
    "SELECT nm.id, ?1, ?3, 'carried-cone', ?2, 'carried from campaign ' || "
    "?2 || ' (' || ?5 || '): ' || coalesce(v.method, '')%s "
    "FROM mutants om JOIN verdicts v ON v.mutant = om.id "
    "JOIN mutants nm ON nm.campaign_id = ?1 AND nm.mutant_id = om.mutant_id "
    "AND nm.status = 'ok' "
    "WHERE om.campaign_id = ?2 AND om.mutant_id = ?4 "
    "AND (v.kind = 'equivalent' OR v.kind = 'survived') "
    "ON CONFLICT(mutant) DO NOTHING";

int mf_store_plan_carry_cone(mf_store *s, const char *mutant_id, int64_t from,
                             const char *how)
{
    int rc = plan_only(s, "mf_store_plan_carry_cone");
    if (rc < 0)
        return rc;
    mf_buf cols = {0}, vals = {0}, sql = {0};
    rc = other_columns(s, "verdicts", cone_skip, "v", &cols, &vals);
    if (rc == 0) {
        mf_buf_printf(&sql, cone_copy, cols.data ? cols.data : "",
                      vals.data ? vals.data : "");
        rc = mf_store_exec(s, sql.data, "carrying a verdict across an edit",
                           BIND(ARG_INT(s->plan_campaign), ARG_INT(from),
                                ARG_INT(mf_store_now_ms()),
                                ARG_TEXTN(mutant_id, 64), ARG_TEXT(how)));
    }
    mf_buf_free(&cols);
    mf_buf_free(&vals);
    mf_buf_free(&sql);
    return rc < 0 ? rc : rc > 0;
}

/* ---- replayed kills ----------------------------------------------------- */

int mf_store_plan_kill(mf_store *s, const char *mutant_id, const mf_model *m,
                       const mf_test *t, mf_notion notion, int64_t from,
                       int64_t from_test, int64_t *test_row)
{
    int64_t mutant = 0, test_id = *test_row;
    int has = 0, fresh = 0;
    const char *why = NULL;
    char method[128];
    int rc = plan_only(s, "mf_store_plan_kill");
    if (rc < 0)
        return rc;
    rc = mf_store_one(s, &q_plan_mutant, "finding a mutant",
                      BIND(ARG_INT(s->plan_campaign), ARG_TEXTN(mutant_id, 64)),
                      INTO(COL_I64(&mutant), COL_INT(&has)));
    if (rc < 0)
        return rc;
    if (rc == 0 || has)
        return mf_err_set(
            MF_ERROR, "store %s: mutant %.64s of campaign %lld %s", s->path,
            mutant_id, (long long)s->plan_campaign,
            rc == 0 ? "is not planned to be checked" : "has a verdict already");
    int64_t now = mf_store_now_ms();
    if (test_id > 0) {
        /* The same test row: only this mutant's kill of it. */
        mf_buf obs = {0};
        int has_obs = mf_store_test_observed(&obs, m, t);
        rc = mf_store_kill_put(s, s->plan_campaign, test_id, mutant, "verdict",
                               has_obs ? obs.data : NULL);
        mf_buf_free(&obs);
    } else {
        rc = mf_store_test_put(s, s->plan_campaign, m, t, notion, mutant, now,
                               &test_id, &fresh, &why);
        if (rc == 1)
            return mf_err_set(MF_ERROR,
                              "store %s: a replayed test of mutant %.64s: "
                              "%s",
                              s->path, mutant_id, why);
    }
    if (rc < 0)
        return rc;
    *test_row = test_id;
    if (from_test < 0)
        snprintf(method, sizeof method, "replayed test %lld of a suite "
                 "imported in campaign %lld", (long long)-from_test,
                 (long long)from);
    else
        snprintf(method, sizeof method, "replayed test %lld of campaign %lld",
                 (long long)from_test, (long long)from);
    return mf_store_one(s, &q_replay_verdict, "storing a replayed kill",
                        BIND(ARG_INT(mutant), ARG_INT(s->plan_campaign),
                             ARG_TEXT(mf_notion_name(notion)),
                             ARG_INT(t->length), ARG_TEXT(method),
                             ARG_INT(test_id), ARG_INT(now), ARG_INT(from)),
                        NULL);
}

/* ---- an imported suite ------------------------------------------------- */

static const mf_store_query q_imported_find = {
    Q_IMPORTED_FIND,
    "SELECT id, campaign_id FROM imported_suites WHERE name = ?1 "
    "ORDER BY campaign_id DESC LIMIT 1"};
static const mf_store_query q_imported_tests = {
    Q_IMPORTED_TESTS,
    "SELECT -position, length, NULL, inputs, expected, allowed "
    "FROM imported_tests WHERE suite_id = ?1 ORDER BY position"};

int mf_store_imported_find(mf_store *s, const char *name, int64_t *suite,
                           int64_t *campaign)
{
    int rc = mf_store_one(s, &q_imported_find, "finding an imported suite",
                          BIND(ARG_TEXT(name)),
                          INTO(COL_I64(suite), COL_I64(campaign)));
    if (rc == 0)
        return mf_err_set(MF_ENOTFOUND, "store %s: no imported suite '%.100s'"
                          " (import one with 'mutfarm tests import')",
                          s->path, name);
    return rc < 0 ? rc : 0;
}

typedef struct {
    mf_store_test_fn fn;
    void *ctx;
} imported_cb;

static int imported_row(sqlite3_stmt *st, void *ctx)
{
    const imported_cb *cb = ctx;
    mf_store_test_row t = {
        sqlite3_column_int64(st, 0),
        sqlite3_column_int(st, 1),
        NULL,
        (const char *)sqlite3_column_text(st, 3),
        (const char *)sqlite3_column_text(st, 4),
        (const char *)sqlite3_column_text(st, 5),
    };
    return cb->fn(&t, cb->ctx);
}

int mf_store_imported_each(mf_store *s, int64_t suite, mf_store_test_fn fn,
                           void *ctx)
{
    imported_cb cb = {fn, ctx};
    return mf_store_each(s, &q_imported_tests, "reading an imported suite",
                         BIND(ARG_INT(suite)), imported_row, &cb);
}

/* ---- the counts --------------------------------------------------------- */

int mf_store_plan_reuse(mf_store *s, mf_store_reuse *r)
{
    int rc = plan_only(s, "mf_store_plan_reuse");
    if (rc == 0)
        rc = mf_store_one(s, &q_mark_reused, "marking reused mutants",
                          BIND(ARG_INT(s->plan_campaign)), NULL);
    if (rc == 0)
        rc = mf_store_one(s, &q_undecided, "counting undecided mutants",
                          BIND(ARG_INT(s->plan_campaign)),
                          INTO(COL_I64(&r->to_solver)));
    if (rc >= 0)
        rc = mf_store_one(
            s, &q_reuse_set, "recording what the campaign took over",
            BIND(ARG_INT(s->plan_campaign), ARG_TEXT(mf_reuse_name(r->mode)),
                 r->basis ? ARG_INT(r->basis) : ARG_NULL, ARG_INT(r->carried),
                 ARG_INT(r->replay_tests), ARG_INT(r->replay_skipped),
                 ARG_INT(r->reexpected), ARG_INT(r->replay_killed),
                 ARG_INT(r->to_solver), ARG_INT(r->carried_cone)),
            NULL);
    return rc < 0 ? rc : 0;
}

int mf_store_reuse_get(mf_store *s, mf_store_reuse *out, int64_t campaign)
{
    char mode[16];
    memset(out, 0, sizeof *out);
    int rc = mf_store_one(
        s, &q_reuse_get, "reading a campaign", BIND(ARG_INT(campaign)),
        INTO(COL_TEXT(mode, sizeof mode), COL_I64(&out->basis),
             COL_I64(&out->carried), COL_I64(&out->replay_tests),
             COL_I64(&out->replay_skipped), COL_I64(&out->reexpected),
             COL_I64(&out->replay_killed), COL_I64(&out->to_solver),
             COL_I64(&out->carried_cone)));
    if (rc < 0)
        return rc;
    int m = -1;
    for (int i = 0; rc == 1 && i < 4; i++)
        if (!strcmp(mode, reuse_names[i]))
            m = i;
    if (m < 0)
        return mf_err_set(MF_ENOTFOUND,
                          "store %s: campaign %lld does not say what it "
                          "took over",
                          s->path, (long long)campaign);
    out->mode = (mf_reuse_mode)m;
    return 0;
}
