/* lang.c - KISS2 as a model language (model/lang.h): the constant
 * mf_lang_kiss2 that the registry (lang/langs.c) lists, so that every
 * command, the coordinator and the workers read `.kiss2` machines.
 *
 * load reads the table (read.c), builds the model directly (build.c) and
 * keeps the table as the model's lang_data; mutants maps the FSM operators
 * (mutate.c) onto the model's items; the printers print KISS2. It holds no
 * state of its own. */
#include "kiss2.h"
#include "lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kiss2_exts[] = {".kiss2", ".kiss", NULL};

static void free_table(void *data)
{
    mf_kiss2_free(data);
}

const mf_kiss2 *mf_kiss2_of(const mf_model *m)
{
    return m && m->lang == &mf_lang_kiss2 ? m->lang_data : NULL;
}

int mf_kiss2_load(mf_model **out, mf_kiss2 **kout, const char *file,
                  const char *text, size_t len, mf_buf *warn)
{
    *out = NULL;
    if (kout)
        *kout = NULL;
    mf_kiss2 *k = NULL;
    int rc = mf_kiss2_read(&k, file, text, len, NULL, warn);
    if (rc < 0)
        return rc;
    mf_model *m = mf_model_new(&mf_lang_kiss2, k->file);
    rc = mf_kiss2_fill(m, k);
    mf_model_opts mo;
    const char **names = NULL;
    mf_kiss2_model_opts(&mo, k, &names);
    if (rc == 0)
        rc = mf_model_finish(m, &mo);
    if (rc < 0) {
        mf_model_free(m);
        mf_kiss2_free(k);
        return rc;
    }
    m->lang_data = k;
    if (kout)
        *kout = k; /* the model's: freed with it */
    *out = m;
    return 0;
}

/* The registry's loader: the user's --inputs/--observe do not apply (the
 * inputs are the input bits, the observables the output bits). */
static int kiss2_load(mf_model **out, const char *file, const char *text,
                      size_t len, const mf_model_opts *opts)
{
    (void)opts;
    return mf_kiss2_load(out, NULL, file, text, len, NULL);
}

static void kiss2_print_model(mf_buf *out, const mf_model *m)
{
    const mf_kiss2 *k = mf_kiss2_of(m);
    if (k)
        mf_kiss2_print(out, k);
    else
        mf_print_model(out, m);
}

typedef struct {
    const mf_model *m;
    const mf_kiss2 *k;
    unsigned mask;
    mf_mutant_pick pick;
    mf_mutant_fn fn;
    void *ctx;
    mf_arena *a;     /* the current mutant's item */
    mf_buf desc, why;
} each_ctx;

static int each_fn(const mf_kiss2_mutant *km, void *v)
{
    each_ctx *c = v;
    if (c->pick && !c->pick(km->id, c->ctx))
        return 0;
    mf_mutant mu = {.lang = &mf_lang_kiss2, .op = (int)km->op,
                    .site = km->site, .repl = km->repl,
                    .line = c->k->rows[km->row].line, .col = 1};
    memcpy(mu.id, km->id, sizeof mu.id);
    mf_item *it = NULL;
    if (mf_kiss2_mutant_item(&mu.item, &it, c->a, c->m, c->k, km) < 0)
        return MF_ERROR;
    mu.new_item = it;
    mf_buf_reset(&c->desc);
    mf_kiss2_mutant_desc(&c->desc, c->k, km);
    mu.desc = c->desc.data;
    if (km->dup_of[0]) {
        mu.status = MF_MUT_DUPLICATE;
        mu.dup_of = km->dup_of;
    } else if (mf_model_check_item(c->m, it) < 0) {
        /* Never expected (test_kiss2 and the fuzzer check every mutant),
         * but a stillborn mutant must not reach an engine. */
        mf_buf_reset(&c->why);
        mf_buf_puts(&c->why, mf_err_msg());
        mu.status = MF_MUT_STILLBORN;
        mu.why = c->why.data;
    }
    int rc = c->fn(&mu, c->ctx);
    mf_arena_free(c->a);
    c->a = mf_arena_new();
    return rc;
}

static int kiss2_mutants(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                         mf_mutant_fn fn, void *ctx)
{
    const mf_kiss2 *k = mf_kiss2_of(m);
    if (!k)
        return mf_err_set(MF_ERROR, "%s: not a loaded KISS2 machine",
                          m->file);
    each_ctx c = {m, k, mask, pick, fn, ctx, mf_arena_new(), {0}, {0}};
    int rc = mf_kiss2_mutants_each(k, mask, each_fn, &c);
    mf_arena_free(c.a);
    mf_buf_free(&c.desc);
    mf_buf_free(&c.why);
    return rc;
}

typedef struct {
    const char *id;
    mf_buf *out;
    const mf_kiss2 *k;
    int found;
} print_ctx;

static int print_fn(const mf_kiss2_mutant *km, void *v)
{
    print_ctx *c = v;
    if (strcmp(km->id, c->id) != 0)
        return 0;
    mf_kiss2_mutant_print(c->out, c->k, km);
    c->found = 1;
    return 1;
}

static void kiss2_mutant_print(mf_buf *out, const mf_model *m,
                               const mf_mutant *mu)
{
    const mf_kiss2 *k = mf_kiss2_of(m);
    print_ctx c = {mu->id, out, k, 0};
    if (k)
        mf_kiss2_mutants_each(k, 0, print_fn, &c);
    if (!c.found)
        mf_buf_printf(out, "# mutant %s: not a mutant of this machine\n",
                      mu->id);
}

const mf_lang mf_lang_kiss2 = {
    .name = "kiss2",
    .exts = kiss2_exts,
    .sniff = mf_kiss2_sniff,
    .load = kiss2_load,
    .nops = MF_KOP__COUNT,
    .op_names = mf_kop_names,
    .mutants = kiss2_mutants,
    .print_model = kiss2_print_model,
    .mutant_print = kiss2_mutant_print,
    .free_data = free_table,
};
