/* langs.c - the registry of model languages (langs.h): the list, and a
 * model's language chosen by its file name, else by its text. Nothing here
 * reads a language's text beyond asking each one's sniff. */
#include "kiss2.h"
#include "langs.h"
#include "smv.h"
#include "ta_lang.h"
#include "verilog.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One line per language. */
const mf_lang *const mf_langs[] = {
    &mf_lang_smv,
    &mf_lang_kiss2,
    &mf_lang_verilog,
    &mf_lang_uppaal,
    &mf_lang_ecdar,
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

int mf_model_read_text(char **out, size_t *len, const char *path,
                       const mf_model_opts *opts, size_t max)
{
    struct stat st;
    int dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    *out = NULL;
    *len = 0;
    for (int i = 0; mf_langs[i]; i++) {
        const mf_lang *l = mf_langs[i];
        int mine = dir;
        for (int k = 0; !dir && l->exts && l->exts[k]; k++)
            mine |= ends_with(path, l->exts[k]);
        if (!l->read_path || !mine)
            continue;
        mf_buf b = {0};
        int rc = l->read_path(&b, path, opts);
        if (rc == MF_ENOTFOUND && !dir) {
            mf_buf_free(&b);
            break; /* not a project: the file as it is */
        }
        if (rc == 0 && b.len > max)
            rc = mf_err_set(MF_ELIMIT, "%s: model larger than %zu bytes",
                            path, max);
        if (rc) {
            mf_buf_free(&b);
            return rc;
        }
        *out = b.data ? b.data : mf_xstrdup("");
        *len = b.len;
        return 0;
    }
    if (dir)
        return mf_err_set(MF_EUNSUPPORTED, "%s: a folder that holds no model "
                          "a language reads (an Ecdar project holds "
                          "GlobalDeclarations.json and Components/)", path);
    return mf_read_file(out, len, path, max);
}

int mf_model_load_file(mf_model **out, const char *path,
                       const mf_model_opts *opts)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = mf_model_read_text(&text, &len, path, opts, MF_MODEL_MAX_BYTES);
    if (rc)
        return rc;
    rc = mf_model_load(out, path, text, len, opts);
    free(text);
    return rc;
}
