/* matrix_campaign.c - a finished campaign read back from the store for the
 * matrix, the minimisation and the export: its record, and its model
 * loaded from the stored text with the campaign's --inputs, --observe and
 * operators (campaigns.options), checked against the stored hash.
 *
 * It reads only, with plain SQL on mf_store_db(); it does not look at
 * mutants or tests. */
#include "matrix.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "langs.h"
#include "mutate.h"

typedef MF_VEC(const char *) name_vec;

/* Split "a, b,c" (a copy in *buf) into names. */
static void split_list(char **buf, name_vec *v, const char *s)
{
    *buf = mf_xstrdup(s ? s : "");
    for (char *save = NULL, *t = strtok_r(*buf, ", ", &save); t;
         t = strtok_r(NULL, ", ", &save))
        MF_VEC_PUSH(*v, t);
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

int mf_matrix_campaign_open(mf_matrix_campaign *out, mf_store *s,
                            int64_t campaign)
{
    sqlite3 *db = mf_store_db(s);
    sqlite3_stmt *st = NULL;
    char *ibuf = NULL, *obuf = NULL;
    name_vec ins = {0}, obs = {0};
    int rc;

    memset(out, 0, sizeof *out);
    if (!campaign) {
        rc = mf_store_campaign_latest(s, &campaign);
        if (rc == MF_ENOTFOUND)
            return mf_err_set(MF_ENOTFOUND, "%s holds no campaign yet",
                              mf_store_path(s));
        if (rc < 0)
            return rc;
    }
    rc = mf_store_campaign_get(s, &out->info, campaign);
    if (rc == MF_ENOTFOUND)
        return mf_err_set(MF_ENOTFOUND, "%s has no campaign %lld",
                          mf_store_path(s), (long long)campaign);
    if (rc < 0)
        return rc;
    out->id = campaign;
    if (sqlite3_prepare_v2(db,
                           "SELECT md.name, md.text, md.hash, "
                           "json_extract(c.options, '$.inputs'), "
                           "json_extract(c.options, '$.observe'), "
                           "c.operators FROM campaigns c JOIN models md ON "
                           "md.id = c.model_id WHERE c.id = ?1",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = mf_err_set(MF_ERROR, "store %s: reading campaign %lld: %s",
                        mf_store_path(s), (long long)campaign,
                        sqlite3_errmsg(db));
        goto cleanup;
    }
    sqlite3_bind_int64(st, 1, campaign);
    int step = sqlite3_step(st);
    if (step != SQLITE_ROW) {
        rc = mf_err_set(MF_ERROR, "store %s: campaign %lld: %s",
                        mf_store_path(s), (long long)campaign,
                        step == SQLITE_DONE ? "its model is missing"
                                            : sqlite3_errmsg(db));
        goto cleanup;
    }
    const char *name = col_text(st, 0);
    const char *text = col_text(st, 1);
    size_t len = (size_t)sqlite3_column_bytes(st, 1);
    split_list(&ibuf, &ins, col_text(st, 3));
    split_list(&obuf, &obs, col_text(st, 4));
    mf_model_opts mo = {0};
    mo.inputs = ins.v;
    mo.ninputs = ins.n;
    mo.observe = obs.v;
    mo.nobserve = obs.n;
    char why[512];
    rc = mf_model_load(&out->model, name, text, len, &mo);
    if (rc < 0) {
        snprintf(why, sizeof why, "%s", mf_err_msg());
        rc = mf_err_set(MF_ERROR, "store %s: campaign %lld: its model does "
                        "not load in this mutfarm: %s", mf_store_path(s),
                        (long long)campaign, why);
        goto cleanup;
    }
    if (strcmp(out->model->hash, col_text(st, 2)) != 0) {
        rc = mf_err_set(MF_ERROR, "store %s: campaign %lld: its model reads "
                        "differently in this mutfarm (hash %.16s, stored "
                        "%.16s); run the campaign again", mf_store_path(s),
                        (long long)campaign, out->model->hash,
                        col_text(st, 2));
        goto cleanup;
    }
    out->name = mf_xstrdup(name);
    out->text = mf_xmalloc(len + 1);
    memcpy(out->text, text, len);
    out->text[len] = '\0';
    /* The names, kept: one buffer, then the pointers into it. */
    size_t nb = 1;
    for (int i = 0; i < ins.n; i++)
        nb += strlen(ins.v[i]) + 1;
    for (int i = 0; i < obs.n; i++)
        nb += strlen(obs.v[i]) + 1;
    out->names_buf = mf_xmalloc(nb);
    out->inputs = mf_xcalloc((size_t)ins.n + 1, sizeof *out->inputs);
    out->observe = mf_xcalloc((size_t)obs.n + 1, sizeof *out->observe);
    char *p = out->names_buf;
    for (int i = 0; i < ins.n + obs.n; i++) {
        const char *name = i < ins.n ? ins.v[i] : obs.v[i - ins.n];
        size_t nl = strlen(name) + 1;
        memcpy(p, name, nl);
        if (i < ins.n)
            out->inputs[out->ninputs++] = p;
        else
            out->observe[out->nobserve++] = p;
        p += nl;
    }
    const char *ops = col_text(st, 5);
    if (ops[0] && (rc = mf_mutant_ops_parse(out->model, &out->mask, ops)) < 0) {
        snprintf(why, sizeof why, "%s", mf_err_msg());
        rc = mf_err_set(MF_ERROR, "store %s: campaign %lld: operators: %s",
                        mf_store_path(s), (long long)campaign, why);
        goto cleanup;
    }
    rc = 0;
cleanup:
    sqlite3_finalize(st);
    free(ibuf);
    free(obuf);
    MF_VEC_FREE(ins);
    MF_VEC_FREE(obs);
    if (rc < 0)
        mf_matrix_campaign_close(out);
    return rc;
}

void mf_matrix_campaign_close(mf_matrix_campaign *c)
{
    if (!c)
        return;
    mf_model_free(c->model);
    free(c->name);
    free(c->text);
    free(c->inputs);
    free(c->observe);
    free(c->names_buf);
    memset(c, 0, sizeof *c);
}
