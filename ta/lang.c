/* lang.c - timed automata as model languages (model/lang.h): UPPAAL XML
 * and Ecdar projects, listed by the registry (lang/langs.c) so that every
 * command reads `.xml` models and Ecdar project folders. A model loads as
 * an empty common model holding the network in lang_data (ta_lang.h);
 * mutants are ta/'s operators with no item of the common model. It holds
 * no state of its own. */
#include "ta_lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const uppaal_exts[] = {".xml", NULL};
static const char *const ecdar_exts[] = {".json", NULL};

const ta_net *ta_net_of(const mf_model *m)
{
    if (!m || (m->lang != &mf_lang_uppaal && m->lang != &mf_lang_ecdar))
        return NULL;
    return m->lang_data;
}

static int uppaal_sniff(const char *text, size_t len)
{
    size_t n = len < 4096 ? len : 4096;
    for (size_t i = 0; i + 4 <= n; i++)
        if (!memcmp(text + i, "<nta", 4))
            return 90;
    return 0;
}

static void free_net(void *data)
{
    ta_net_free(data);
}

static int load(mf_model **out, const mf_lang *l, const char *file,
                const char *text, size_t len, const mf_model_opts *opts)
{
    static const mf_model_opts none = {0};
    ta_opts o = {0};
    ta_net *n = NULL;
    *out = NULL;
    if (opts) {
        o.inputs = opts->inputs;
        o.ninputs = opts->ninputs;
        o.outputs = opts->observe;
        o.noutputs = opts->nobserve;
        o.system = opts->system;
        o.env = opts->env;
        o.nenv = opts->nenv;
    }
    int rc = l == &mf_lang_ecdar ? ta_read_ecdar(&n, file, text, len, &o)
                                 : ta_read_uppaal(&n, file, text, len, &o);
    if (rc)
        return rc;
    mf_model *m = mf_model_new(l, file);
    if ((rc = mf_model_finish(m, &none))) {
        mf_model_free(m);
        ta_net_free(n);
        return rc;
    }
    m->lang_data = n;
    mf_buf b = {0};
    ta_net_print(&b, n);
    mf_sha256_hex(m->hash, b.data, b.len);
    mf_buf_free(&b);
    *out = m;
    return 0;
}

static int uppaal_load(mf_model **out, const char *file, const char *text,
                       size_t len, const mf_model_opts *opts)
{
    return load(out, &mf_lang_uppaal, file, text, len, opts);
}

static int ecdar_load(mf_model **out, const char *file, const char *text,
                      size_t len, const mf_model_opts *opts)
{
    return load(out, &mf_lang_ecdar, file, text, len, opts);
}

static void print_model(mf_buf *out, const mf_model *m)
{
    const ta_net *n = ta_net_of(m);
    if (n)
        ta_net_print(out, n);
    else
        mf_buf_puts(out, "// a copy of a timed model: no network\n");
}

typedef struct {
    const mf_model *m;
    mf_mutant_pick pick;
    mf_mutant_fn fn;
    void *ctx;
} each_ctx;

static int each_fn(const ta_mutant *tm, void *v)
{
    each_ctx *c = v;
    if (c->pick && !c->pick(tm->id, c->ctx))
        return 0;
    mf_mutant mu = {0};
    mu.lang = c->m->lang;
    mu.op = tm->op;
    mu.item = -1;
    mu.site = tm->site;
    mu.repl = tm->repl;
    mu.line = tm->pos.line;
    mu.col = tm->pos.col;
    memcpy(mu.id, tm->id, sizeof(mu.id));
    mu.status = tm->status == TA_MUT_DUPLICATE   ? MF_MUT_DUPLICATE
                : tm->status == TA_MUT_STILLBORN ? MF_MUT_STILLBORN
                                                 : MF_MUT_OK;
    mu.dup_of = tm->dup_of;
    mu.desc = tm->desc;
    mu.why = tm->why;
    return c->fn(&mu, c->ctx);
}

static int mutants(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                   mf_mutant_fn fn, void *ctx)
{
    const ta_net *n = ta_net_of(m);
    if (!n)
        return mf_err_set(MF_ERROR, "%s: not a loaded timed model", m->file);
    each_ctx c = {m, pick, fn, ctx};
    return ta_mutants_each(n, mask, each_fn, &c);
}

static void mutant_print(mf_buf *out, const mf_model *m, const mf_mutant *mu)
{
    const ta_net *n = ta_net_of(m);
    ta_mutant *tm = NULL;
    if (n && ta_mutant_find(&tm, n, mu->id) == 0) {
        ta_mutant_print(out, n, tm);
        ta_mutant_free(tm);
        return;
    }
    if (m->lang == &mf_lang_ecdar)
        mf_buf_printf(out, "{\"description\": \"mutant %s: not a mutant of "
                      "this model\"}\n", mu->id);
    else
        mf_buf_printf(out, "<!-- mutant %s: not a mutant of this model -->\n",
                      mu->id);
}

static int ecdar_read_path(mf_buf *out, const char *path,
                           const mf_model_opts *opts)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        /* a bundle already: read as it is */
        char head[256];
        FILE *f = fopen(path, "rb");
        size_t k = f ? fread(head, 1, sizeof(head), f) : 0;
        if (f)
            fclose(f);
        if (ta_ecdar_sniff(head, k))
            return MF_ENOTFOUND;
    }
    return ta_ecdar_bundle(out, path, opts ? opts->system : NULL);
}

static void list_roles(mf_buf *b, const ta_net *n, ta_role role,
                       const char *title)
{
    int k = 0;
    mf_buf_printf(b, "%s:", title);
    for (int i = 0; i < n->nchans; i++)
        if (n->chans[i].role == role) {
            mf_buf_printf(b, " %s", n->chans[i].name);
            k++;
        }
    mf_buf_puts(b, k ? "\n" : " (none)\n");
}

static void describe(mf_buf *b, const mf_model *m)
{
    const ta_net *n = ta_net_of(m);
    if (!n)
        return;
    int nl = 0, ne = 0, nenv = 0;
    for (int p = 0; p < n->nprocs; p++) {
        nl += n->procs[p].nlocs;
        ne += n->procs[p].nedges;
        nenv += n->procs[p].is_env;
    }
    mf_buf_printf(b, "timed automata (%s): %d templates, %d processes "
                  "(%d environment), %d locations, %d edges\n",
                  n->format == TA_FMT_ECDAR ? "Ecdar" : "UPPAAL", n->ntmpls,
                  n->nprocs, nenv, nl, ne);
    mf_buf_puts(b, "processes:");
    for (int p = 0; p < n->nprocs; p++)
        mf_buf_printf(b, " %s%s", n->procs[p].name,
                      n->procs[p].is_env ? " (environment)" : "");
    mf_buf_printf(b, "\nclocks: %d, discrete cells: %d, functions: %d\n",
                  n->nclocks, n->ncells, n->nfuncs);
    list_roles(b, n, TA_ROLE_INPUT, "inputs");
    list_roles(b, n, TA_ROLE_OUTPUT, "outputs");
    list_roles(b, n, TA_ROLE_INTERNAL, "internal channels");
    mf_buf_printf(b, "hash: %s\n", m->hash);
}

/* What the two languages share: the operators and what works on a
 * loaded network. */
#define TA_LANG_COMMON                                                        \
    .nops = TA_MOP__COUNT, .op_names = ta_op_names, .mutants = mutants,     \
    .print_model = print_model, .mutant_print = mutant_print,               \
    .free_data = free_net, .describe = describe, .no_farm = 1

const mf_lang mf_lang_uppaal = {
    .name = "uppaal",
    .exts = uppaal_exts,
    .sniff = uppaal_sniff,
    .load = uppaal_load,
    TA_LANG_COMMON,
};

const mf_lang mf_lang_ecdar = {
    .name = "ecdar",
    .exts = ecdar_exts,
    .sniff = ta_ecdar_sniff,
    .load = ecdar_load,
    .read_path = ecdar_read_path,
    TA_LANG_COMMON,
};
