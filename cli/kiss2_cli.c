/* kiss2_cli.c - KISS2 machines in `mutfarm check` and `mutfarm mutants`
 * (kiss2_cli.h): loading with the reader's warnings on stderr, the FSM
 * mutants as the engine's item replacements, and the list and show of
 * mutants in KISS2. A local hook until the language registry lands; it
 * decides nothing itself. */
#include "kiss2_cli.h"

#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mf_cli_kiss2_is(const char *path)
{
    size_t n = strlen(path);
    return (n > 6 && strcmp(path + n - 6, ".kiss2") == 0) ||
           (n > 5 && strcmp(path + n - 5, ".kiss") == 0);
}

int mf_cli_kiss2_load(mf_model **m, mf_kiss2 **k, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    *m = NULL;
    *k = NULL;
    if (mf_read_file(&text, &len, path, (size_t)64 << 20) < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    mf_buf warn = {0};
    int rc = mf_kiss2_load(m, k, path, text, len, &warn);
    free(text);
    if (warn.len)
        fputs(warn.data, stderr);
    mf_buf_free(&warn);
    if (rc < 0) {
        fprintf(stderr, "%s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    return MF_EXIT_OK;
}

typedef struct {
    const char *cmd;
    const mf_model *m;
    const mf_kiss2 *k;
    const char *prefix;
    mf_arena *a;
    mf_cli_kiss2_fn fn;
    void *ctx;
    int found;
} each_ctx;

static int each_fn(const mf_kiss2_mutant *mu, void *v)
{
    each_ctx *c = v;
    if (c->prefix && strncmp(mu->id, c->prefix, strlen(c->prefix)) != 0)
        return 0;
    c->found++;
    if (mu->dup_of[0]) {
        if (c->prefix)
            fprintf(stderr, "mutfarm %s: mutant %s is a duplicate of %s\n",
                    c->cmd, mu->id, mu->dup_of);
        return 0;
    }
    int item = -1;
    mf_item *repl = NULL;
    if (mf_kiss2_mutant_item(&item, &repl, c->a, c->m, c->k, mu) < 0)
        return MF_ERROR;
    mf_buf label = {0};
    mf_buf_printf(&label, "%s (line %d)", mf_kop_name(mu->op),
                  c->k->rows[mu->row].line);
    int rc = c->fn(item, repl, mf_arena_strdup(c->a, mu->id),
                   mf_arena_strdup(c->a, label.data), c->ctx);
    mf_buf_free(&label);
    return rc;
}

int mf_cli_kiss2_each(const char *cmd, const mf_model *m, const mf_kiss2 *k,
                      const char *ops, const char *prefix, mf_arena *a,
                      mf_cli_kiss2_fn fn, void *ctx)
{
    unsigned mask = 0;
    if (ops && mf_kiss2_ops_parse(&mask, ops) < 0) {
        fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
        return MF_EXIT_USAGE;
    }
    each_ctx c = {cmd, m, k, prefix, a, fn, ctx, 0};
    if (mf_kiss2_mutants_each(k, mask, each_fn, &c) != 0) {
        fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
        return MF_EXIT_INTERNAL;
    }
    if (prefix && c.found != 1) {
        fprintf(stderr, "mutfarm %s: %s mutant %s in %s\n", cmd,
                c.found ? "more than one" : "no", prefix, k->file);
        return MF_EXIT_USAGE;
    }
    return MF_EXIT_OK;
}

typedef struct {
    const mf_kiss2 *k;
    const char *id;
    long total[MF_KOP__COUNT], dup[MF_KOP__COUNT];
    int found;
    mf_buf show;
} list_ctx;

static int list_fn(const mf_kiss2_mutant *mu, void *v)
{
    list_ctx *c = v;
    if (c->id) {
        if (strncmp(mu->id, c->id, strlen(c->id)) == 0 && !c->found++)
            mf_kiss2_mutant_print(&c->show, c->k, mu);
        return 0;
    }
    c->total[mu->op]++;
    mf_buf d = {0};
    mf_kiss2_mutant_desc(&d, c->k, mu);
    printf("%s  %s  %d:1  %s%s", mu->id, mf_kop_name(mu->op),
           c->k->rows[mu->row].line, mu->dup_of[0] ? "duplicate  " : "",
           d.data);
    if (mu->dup_of[0]) {
        c->dup[mu->op]++;
        printf(" (same as %s)", mu->dup_of);
    }
    putchar('\n');
    mf_buf_free(&d);
    return 0;
}

int mf_cli_kiss2_mutants(int is_list, const char *path, const char *id,
                         const char *ops)
{
    mf_model *m = NULL;
    mf_kiss2 *k = NULL;
    int rc = mf_cli_kiss2_load(&m, &k, path);
    if (rc != MF_EXIT_OK)
        return rc;
    unsigned mask = 0;
    list_ctx c = {.k = k, .id = is_list ? NULL : id};
    if (ops && mf_kiss2_ops_parse(&mask, ops) < 0) {
        fprintf(stderr, "mutfarm mutants: %s\n", mf_err_msg());
        rc = MF_EXIT_USAGE;
        goto done;
    }
    mf_kiss2_mutants_each(k, mask, list_fn, &c);
    if (is_list) {
        long t = 0, d = 0;
        printf("# %-18s %8s %9s %9s\n", "operator", "total", "duplicate",
               "stillborn");
        for (int i = 0; i < MF_KOP__COUNT; i++) {
            if (!c.total[i])
                continue;
            printf("# %-18s %8ld %9ld %9d\n", mf_kop_name((mf_kop)i),
                   c.total[i], c.dup[i], 0);
            t += c.total[i];
            d += c.dup[i];
        }
        printf("# %-18s %8ld %9ld %9d\n", "all", t, d, 0);
    } else if (c.found != 1) {
        fprintf(stderr, "mutfarm mutants: %s mutant %s in %s%s\n",
                c.found ? "more than one" : "no", id, path,
                c.found ? "; give more digits" : "");
        rc = MF_EXIT_USAGE;
    } else {
        fwrite(c.show.data, 1, c.show.len, stdout);
    }
done:
    mf_buf_free(&c.show);
    mf_kiss2_free(k);
    mf_model_free(m);
    return rc;
}
