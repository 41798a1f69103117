/* langs.c - the registry of model languages (langs.h): the list, and a
 * model's language chosen by its file name, else by its text. Nothing here
 * reads a language's text beyond asking each one's sniff. */
#include "kiss2.h"
#include "langs.h"
#include "smv.h"
#include "verilog.h"

#include <stdlib.h>
#include <string.h>

/* One line per language. */
const mf_lang *const mf_langs[] = {
    &mf_lang_smv,
    &mf_lang_kiss2,
    &mf_lang_verilog,
    NULL,
};

/* The most bytes a model file may have. */
#define MF_MODEL_MAX_BYTES (64u << 20)

const mf_lang *mf_lang_by_name(const char *name)
{
    for (int i = 0; mf_langs[i]; i++)
        if (!strcmp(mf_langs[i]->name, name))
            return mf_langs[i];
    return NULL;
}

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), k = strlen(end);
    return n >= k && !memcmp(s + n - k, end, k);
}

const mf_lang *mf_lang_for_file(const char *path, const char *text, size_t len)
{
    for (int i = 0; path && mf_langs[i]; i++)
        for (int k = 0; mf_langs[i]->exts && mf_langs[i]->exts[k]; k++)
            if (ends_with(path, mf_langs[i]->exts[k]))
                return mf_langs[i];
    const mf_lang *best = NULL;
    int score = 0;
    for (int i = 0; text && mf_langs[i]; i++) {
        int s = mf_langs[i]->sniff ? mf_langs[i]->sniff(text, len) : 0;
        if (s > score) {
            score = s;
            best = mf_langs[i];
        }
    }
    if (best)
        return best;
    mf_buf known = {0};
    for (int i = 0; mf_langs[i]; i++)
        mf_buf_printf(&known, "%s%s", i ? ", " : "", mf_langs[i]->name);
    mf_err_set(MF_EUNSUPPORTED, "%s: unknown model language (known: %s)",
               path ? path : "<model>", known.data ? known.data : "");
    mf_buf_free(&known);
    return NULL;
}

int mf_model_load(mf_model **out, const char *file, const char *text,
                  size_t len, const mf_model_opts *opts)
{
    *out = NULL;
    const mf_lang *l = mf_lang_for_file(file, text, len);
    if (!l)
        return MF_EUNSUPPORTED; /* mf_lang_for_file's message */
    return l->load(out, file, text, len, opts);
}

int mf_model_load_file(mf_model **out, const char *path,
                       const mf_model_opts *opts)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = mf_read_file(&text, &len, path, MF_MODEL_MAX_BYTES);
    if (rc)
        return rc;
    rc = mf_model_load(out, path, text, len, opts);
    free(text);
    return rc;
}
