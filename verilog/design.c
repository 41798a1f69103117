/* design.c - a translation's `-- mf:` header read back into an
 * mf_vdesign (design.h). The SMV after the header is the SMV reader's. */
#define _POSIX_C_SOURCE 200809L
#include "design.h"
#include "mutation.h"
#include "translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mf_vdesign_is_translation(const char *text, size_t len)
{
    size_t k = strlen(MF_VERILOG_MAGIC);
    return len >= k && !memcmp(text, MF_VERILOG_MAGIC, k) &&
           (len == k || text[k] == '\n' || text[k] == '\r');
}

void mf_vdesign_free(mf_vdesign *d)
{
    if (!d)
        return;
    mf_arena_free(d->arena);
    free(d);
}

/* The space-separated words of s into an arena array. */
static const char **words(mf_arena *a, const char *s, int *n)
{
    int cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ' ';
    const char **v = mf_arena_alloc(a, (size_t)cap * sizeof *v);
    *n = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        size_t k = strcspn(s, " ");
        if (k)
            v[(*n)++] = mf_arena_strndup(a, s, k);
        s += k;
    }
    return v;
}

static int starts(const char *l, const char *p)
{
    return !strncmp(l, p, strlen(p));
}

int mf_vdesign_parse(mf_vdesign **out, const char *file, const char *text,
                     size_t len)
{
    *out = NULL;
    if (!mf_vdesign_is_translation(text, len))
        return mf_err_set(MF_EPARSE, "%s:1: error: not a Verilog "
                          "translation", file);
    mf_vdesign *d = mf_xcalloc(1, sizeof *d);
    d->arena = mf_arena_new();
    d->top = d->clock = d->start = d->select = "";
    int mcap = 0, scap = 0, lineno = 0, rc = 0;
    mf_buf src = {0};
    const char *end = text + len;
    for (const char *l = text; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t k = nl ? (size_t)(nl - l) : (size_t)(end - l);
        const char *next = nl ? nl + 1 : end;
        lineno++;
        if (k < 2 || l[0] != '-' || l[1] != '-')
            break; /* the SMV starts */
        char *s = mf_arena_strndup(d->arena, l, k);
        if (k && s[k - 1] == '\r')
            s[k - 1] = 0;
        if (starts(s, "-- |")) {
            if (d->nsrcs)
                mf_buf_printf(&src, "%s\n", s + 4);
        } else if (starts(s, "-- mf:")) {
            if (d->nsrcs && src.data) {
                d->srcs[d->nsrcs - 1].text =
                    mf_arena_strdup(d->arena, src.data);
                mf_buf_reset(&src);
            }
            char *v = strchr(s + 6, ' ');
            v = v ? v + 1 : s + k;
            if (starts(s, "-- mf:top "))
                d->top = v;
            else if (starts(s, "-- mf:clock"))
                d->clock = v;
            else if (starts(s, "-- mf:start "))
                d->start = v;
            else if (starts(s, "-- mf:inputs"))
                d->inputs = words(d->arena, v, &d->ninputs);
            else if (starts(s, "-- mf:outputs"))
                d->outputs = words(d->arena, v, &d->noutputs);
            else if (starts(s, "-- mf:registers ")) {
                if (sscanf(v, "%d %d", &d->nregs, &d->ninit) != 2)
                    rc = -1;
            } else if (starts(s, "-- mf:select ")) {
                char *sp = strchr(v, ' ');
                if (!sp || sscanf(sp + 1, "%d", &d->width) != 1)
                    rc = -1;
                else
                    d->select = mf_arena_strndup(d->arena, v,
                                                 (size_t)(sp - v));
            } else if (starts(s, "-- mf:mutant ")) {
                if (d->nmuts == mcap) {
                    mcap = mcap ? mcap * 2 : 64;
                    mf_vdesign_mut *nm =
                        mf_arena_alloc(d->arena, (size_t)mcap * sizeof *nm);
                    if (d->nmuts)
                        memcpy(nm, d->muts, (size_t)d->nmuts * sizeof *nm);
                    d->muts = nm;
                }
                mf_vdesign_mut *mu = &d->muts[d->nmuts];
                char op[16], loc[256];
                int used = 0;
                memset(mu, 0, sizeof *mu);
                mu->op = -1;
                if (sscanf(v, "%d %15s %16s %255s %n", &mu->k, op, mu->id,
                           loc, &used) == 4) {
                    for (int i = 0; i < MF_VMUT_NOPS; i++)
                        if (!strcmp(op, mf_vmut_op_names[i]))
                            mu->op = i;
                    char *c2 = strrchr(loc, ':');
                    char *c1 = c2 ? c2 : NULL;
                    if (c2) {
                        *c2 = 0;
                        c1 = strrchr(loc, ':');
                    }
                    if (c1 && c2) {
                        *c1 = 0;
                        mu->line = atoi(c1 + 1);
                        mu->col = atoi(c2 + 1);
                    }
                    mu->file = mf_arena_strdup(d->arena, loc);
                    mu->desc = v + used;
                }
                if (mu->op < 0 || strlen(mu->id) != 16 || mu->k < 1)
                    rc = -1;
                d->nmuts++;
            } else if (starts(s, "-- mf:source ")) {
                if (d->nsrcs == scap) {
                    scap = scap ? scap * 2 : 4;
                    mf_vdesign_src *ns =
                        mf_arena_alloc(d->arena, (size_t)scap * sizeof *ns);
                    if (d->nsrcs)
                        memcpy(ns, d->srcs, (size_t)d->nsrcs * sizeof *ns);
                    d->srcs = ns;
                }
                d->srcs[d->nsrcs++] = (mf_vdesign_src){v, ""};
            }
        }
        if (rc < 0) {
            rc = mf_err_set(MF_EPARSE, "%s:%d: error: unreadable translation "
                            "header line", file, lineno);
            break;
        }
        l = next;
    }
    if (!rc && d->nsrcs && src.data)
        d->srcs[d->nsrcs - 1].text = mf_arena_strdup(d->arena, src.data);
    mf_buf_free(&src);
    if (rc < 0) {
        mf_vdesign_free(d);
        return rc;
    }
    *out = d;
    return 0;
}

const mf_vdesign_mut *mf_vdesign_find(const mf_vdesign *d, const char *id)
{
    size_t k = strlen(id);
    const mf_vdesign_mut *hit = NULL;
    if (k < 4 || k > 16)
        return NULL;
    for (int i = 0; i < d->nmuts; i++)
        if (!strncmp(d->muts[i].id, id, k)) {
            if (hit)
                return NULL; /* ambiguous */
            hit = &d->muts[i];
        }
    return hit;
}

void mf_vdesign_line(char *dst, size_t cap, const mf_vdesign *d,
                     const char *file, int line)
{
    dst[0] = 0;
    for (int i = 0; i < d->nsrcs; i++) {
        if (strcmp(d->srcs[i].name, file))
            continue;
        const char *p = d->srcs[i].text;
        for (int l = 1; l < line && p; l++) {
            p = strchr(p, '\n');
            p = p ? p + 1 : NULL;
        }
        if (!p)
            return;
        size_t k = strcspn(p, "\n");
        if (k >= cap)
            k = cap - 1;
        memcpy(dst, p, k);
        dst[k] = 0;
        return;
    }
}
