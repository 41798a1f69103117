/* verilog.c - Verilog as a model language (verilog.h): the loader (a
 * translation read by smv/ with its header kept as the model's lang_data;
 * a .v file translated first), the mutants (one item replaced: the select
 * DEFINE set to the mutation's number) and the printer of a mutant as the
 * Verilog source with the mutated place marked. */
#define _POSIX_C_SOURCE 200809L
#include "verilog.h"
#include "design.h"
#include "mutation.h"
#include "smv.h"
#include "translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const verilog_exts[] = {".v", ".sv", ".vsmv", NULL};

/* 100 for a translation; 60 for text with a line starting "module" and
 * an "endmodule"; else 0. */
static int verilog_sniff(const char *text, size_t len)
{
    if (mf_vdesign_is_translation(text, len))
        return 100;
    int module = 0;
    for (size_t i = 0; i + 9 <= len; i++) {
        if ((i == 0 || text[i - 1] == '\n') && !memcmp(text + i, "module", 6))
            module = 1;
        if (module && !memcmp(text + i, "endmodule", 9))
            return 60;
    }
    return 0;
}

/* A translation into a model: the SMV read by smv/, observed on the
 * design's outputs unless opts say otherwise. */
static int load_translation(mf_model **out, const char *file,
                            const char *text, size_t len,
                            const mf_model_opts *opts)
{
    mf_vdesign *d = NULL;
    int rc = mf_vdesign_parse(&d, file, text, len);
    if (rc < 0)
        return rc;
    mf_model_opts o = opts ? *opts : (mf_model_opts){0};
    if (!o.nobserve && d->noutputs) {
        o.observe = d->outputs;
        o.nobserve = d->noutputs;
    }
    rc = mf_smv_load(out, file, text, len, &o);
    if (rc < 0) {
        mf_vdesign_free(d);
        return rc;
    }
    (*out)->lang = &mf_lang_verilog;
    (*out)->lang_data = d;
    return 0;
}

static int verilog_load(mf_model **out, const char *file, const char *text,
                        size_t len, const mf_model_opts *opts)
{
    *out = NULL;
    if (mf_vdesign_is_translation(text, len))
        return load_translation(out, file, text, len, opts);
    const char *slash = strrchr(file, '/');
    mf_verilog_src src = {slash ? slash + 1 : file, text, len};
    mf_verilog_opts vo = {.nmutants = MF_VERILOG_DEFAULT_MUTANTS};
    mf_buf tr = {0};
    int rc = mf_verilog_translate(&tr, &src, 1, NULL, &vo);
    if (rc < 0) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", mf_err_msg());
        mf_buf_free(&tr);
        return mf_err_set(rc == MF_EUNSUPPORTED ? rc : MF_EPARSE,
                          "%s: error: %s", file, msg);
    }
    rc = load_translation(out, file, tr.data, tr.len, opts);
    mf_buf_free(&tr);
    return rc;
}

static int verilog_mutants(const mf_model *m, unsigned mask,
                           mf_mutant_pick pick, mf_mutant_fn fn, void *ctx)
{
    const mf_vdesign *d = m->lang_data;
    if (!d)
        return mf_err_set(MF_ERROR, "%s: a copy of a Verilog model has no "
                          "mutation table", m->file);
    if (!d->nmuts)
        return 0;
    int item = mf_model_find_define(m, d->select);
    if (item < 0)
        return mf_err_set(MF_ERROR, "%s: no DEFINE %s: not a translation "
                          "with mutants", m->file, d->select);
    mf_mutant_dups *dups = mf_mutant_dups_new();
    mf_buf why = {0}, site = {0}, repl = {0}, desc = {0};
    char dup_buf[17];
    int rc = 0;
    for (int i = 0; i < d->nmuts && !rc; i++) {
        const mf_vdesign_mut *r = &d->muts[i];
        if (mask && !(mask & (1u << r->op)))
            continue;
        int wanted = !pick || pick(r->id, ctx);
        mf_arena *a = mf_arena_new();
        mf_item *it = mf_arena_alloc(a, sizeof *it);
        mf_item_copy(a, it, &m->items[item]);
        it->e->ival = r->k;
        mf_buf_reset(&site);
        mf_buf_reset(&repl);
        mf_buf_reset(&desc);
        mf_buf_printf(&site, "%s:%d:%d", r->file, r->line, r->col);
        mf_buf_printf(&repl, "%s = %d", d->select, r->k);
        mf_buf_printf(&desc, "%s: %s", site.data, r->desc);
        mf_mutant mu = {
            .lang = &mf_lang_verilog,
            .op = r->op,
            .item = item,
            .site = site.data,
            .repl = repl.data,
            .new_item = it,
            .line = r->line,
            .col = r->col,
            .desc = desc.data,
        };
        memcpy(mu.id, r->id, sizeof mu.id);
        mf_buf_reset(&why);
        mf_mutant_classify(dups, m, &mu, wanted, dup_buf, &why);
        if (wanted)
            rc = fn(&mu, ctx);
        mf_arena_free(a);
    }
    mf_buf_free(&why);
    mf_buf_free(&site);
    mf_buf_free(&repl);
    mf_buf_free(&desc);
    mf_mutant_dups_free(dups);
    return rc;
}

/* The design's source with the mutated place marked: a "// mutant" line
 * first, then every file, a "// ^ mutant ID" line under the line changed. */
static void verilog_mutant_print(mf_buf *out, const mf_model *m,
                                 const mf_mutant *mu)
{
    const mf_vdesign *d = m->lang_data;
    const mf_vdesign_mut *r = d ? mf_vdesign_find(d, mu->id) : NULL;
    mf_buf_printf(out, "// mutant %s (%s): %s\n", mu->id,
                  mf_lang_op_name(&mf_lang_verilog, mu->op),
                  mu->desc ? mu->desc : "");
    if (!r) {
        mf_buf_puts(out, "// (the design's sources are not at hand)\n");
        return;
    }
    for (int f = 0; f < d->nsrcs; f++) {
        mf_buf_printf(out, "// file %s\n", d->srcs[f].name);
        const char *p = d->srcs[f].text;
        for (int line = 1; p && *p; line++) {
            size_t k = strcspn(p, "\n");
            mf_buf_put(out, p, k);
            mf_buf_puts(out, "\n");
            if (!strcmp(r->file, d->srcs[f].name) && line == r->line) {
                mf_buf_puts(out, "//");
                for (int c = 3; c < r->col; c++)
                    mf_buf_puts(out, " ");
                mf_buf_printf(out, "^ mutant %s (%s): %s\n", r->id,
                              mf_vmut_op_names[r->op], r->desc);
            }
            p += k + (p[k] == '\n');
        }
    }
    mf_buf_printf(out, "// end of mutant %s\n", mu->id);
}

static void verilog_free_data(void *data)
{
    mf_vdesign_free(data);
}

const mf_lang mf_lang_verilog = {
    .name = "verilog",
    .exts = verilog_exts,
    .sniff = verilog_sniff,
    .load = verilog_load,
    .nops = MF_VMUT_NOPS,
    .op_names = mf_vmut_op_names,
    .mutants = verilog_mutants,
    .print_model = NULL, /* the translation's SMV: the common printer */
    .mutant_print = verilog_mutant_print,
    .free_data = verilog_free_data,
};
