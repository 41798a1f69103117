/* job_model.c - a job's model, hash-checked and loaded (job_model.h). */
#include "job_model.h"

#include <string.h>

#include "langs.h"
#include "mf.h"

int mf_worker_job_model(mf_model **out, const char *what, uint64_t job,
                        const char *name, const char *text,
                        const char *sha256, const mf_model_opts *mo)
{
    *out = NULL;
    size_t tlen = strlen(text);
    char hash[65];
    mf_sha256_hex(hash, text, tlen);
    if (strcmp(hash, sha256) != 0)
        return mf_err_set(MF_EPARSE, "%s %llu: model text hashes to "
                          "%.12s..., the job says %.12s...",
                          what, (unsigned long long)job, hash, sha256);
    /* A job carries its model's name and text, not its language: the
     * name's ending chooses it, else the text (lang/langs.h), so the wire
     * needs no language field. */
    int rc = mf_model_load(out, name[0] ? name : "job.smv", text, tlen, mo);
    if (rc < 0)
        return mf_err_set(MF_EPARSE, "%s %llu: the model does not load: %s",
                          what, (unsigned long long)job, mf_err_msg());
    return 0;
}
