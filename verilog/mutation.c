/* mutation.c - mutate -list's lines into the rows of a mutation table
 * (mutation.h): the options parsed, the source text found, ids and
 * descriptions made. Nothing here runs yosys. */
#define _POSIX_C_SOURCE 200809L
#include "lang.h"
#include "mutation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mf_vmut_op_names[MF_VMUT_NOPS] = {
    "inv", "const0", "const1", "cnot0", "cnot1", "repl",
};

/* The longest source excerpt a description quotes. */
#define EXCERPT_MAX 48

/* The value of option `-name` in a list line ("" if absent), into dst. */
static void opt_of(char *dst, size_t cap, const char *line, const char *name)
{
    dst[0] = 0;
    size_t k = strlen(name);
    for (const char *p = line; (p = strstr(p, name)) != NULL; p += k) {
        if (p[-1] != ' ' || p[k] != ' ')
            continue;
        const char *v = p + k + 1;
        size_t n = strcspn(v, " \n");
        if (n >= cap)
            n = cap - 1;
        memcpy(dst, v, n);
        dst[n] = 0;
        return;
    }
}

/* A yosys cell or wire name without what changes when the design is
 * edited: "$add$pwm.v:24$3" -> "$add", "$auto$rtlil.cc:2468:Mux$197" ->
 * "$auto$rtlil.cc:2468:Mux"; user names ("\counter") unchanged. */
static void norm_name(char *dst, size_t cap, const char *name)
{
    snprintf(dst, cap, "%s", name);
    const char *last = NULL;
    for (const char *p = name; *p; p++)
        if (*p == '.' && p[1] == '$')
            last = p + 1; /* the cell's own name after a flatten prefix */
    const char *own = last ? last : name;
    if (own[0] != '$')
        return;
    char *d = dst + (own - name);
    char *cut = strrchr(d, '$');
    if (cut && cut != d)
        *cut = 0;
    if (strstr(d, ".v:") || strstr(d, ".sv:")) {
        char *second = strchr(d + 1, '$');
        if (second)
            *second = 0;
    }
}

/* The Verilog text at src "file:L1.C1-L2.C2" (the first of "a|b"), spaces
 * collapsed, at most EXCERPT_MAX characters; file, line and col set. */
static void excerpt(char *dst, size_t cap, mf_vmut *mu, const char *src,
                    const mf_verilog_src *srcs, int nsrcs)
{
    dst[0] = 0;
    int l1 = 0, c1 = 0, l2 = 0, c2 = 0;
    const char *colon = strrchr(src, ':');
    size_t bar = strcspn(src, "|");
    if (!colon || (size_t)(colon - src) > bar)
        return;
    size_t fn = (size_t)(colon - src);
    if (fn >= sizeof mu->file)
        fn = sizeof mu->file - 1;
    memcpy(mu->file, src, fn);
    mu->file[fn] = 0;
    if (sscanf(colon + 1, "%d.%d-%d.%d", &l1, &c1, &l2, &c2) < 2)
        return;
    mu->line = l1;
    mu->col = c1;
    const mf_verilog_src *s = NULL;
    for (int i = 0; i < nsrcs; i++)
        if (!strcmp(srcs[i].name, mu->file))
            s = &srcs[i];
    if (!s)
        return;
    const char *p = s->text, *end = s->text + s->len;
    for (int l = 1; l < l1 && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
        eol = end;
    const char *a = p + (c1 > 0 ? c1 - 1 : 0);
    const char *b = l2 == l1 && c2 > c1 ? p + c2 - 1 : eol;
    if (b > eol)
        b = eol;
    size_t n = 0;
    const char *q = a;
    for (; q < b && n + 4 < cap && n < EXCERPT_MAX; q++) {
        int sp = isspace((unsigned char)*q);
        if (sp && (n == 0 || dst[n - 1] == ' '))
            continue;
        dst[n++] = sp ? ' ' : *q;
    }
    while (n && dst[n - 1] == ' ')
        n--;
    if (q < b || l2 > l1) {
        if (n + 4 < cap)
            dst[n++] = '.', dst[n++] = '.', dst[n++] = '.';
    }
    dst[n] = 0;
}

/* A cell port in words: "input A", "the output". */
static const char *port_words(const char *port)
{
    static const char *const map[][2] = {
        {"Y", "the output"}, {"A", "input A"},   {"B", "input B"},
        {"S", "the select"}, {"D", "the next value"}, {"EN", "the enable"},
        {"SRST", "the reset"}, {"ARST", "the reset"}, {"C", "input C"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(port, map[i][0]))
            return map[i][1];
    return port;
}

/* What kind of cell a normalised name is, in words: "add", "mux". */
static void cell_kind(char *dst, size_t cap, const char *ncell)
{
    const char *own = strrchr(ncell, '.');
    own = own && own[1] == '$' ? own + 1 : ncell;
    if (own[0] != '$') {
        snprintf(dst, cap, "cell %.100s", own[0] == 0x5c ? own + 1 : own);
        return;
    }
    if (strstr(own, "procmux") || strstr(own, ":Mux") ||
        strstr(own, "async2sync") || strstr(own, "pmux"))
        snprintf(dst, cap, "mux");
    else if (strstr(own, "procdff") || strstr(own, "dff"))
        snprintf(dst, cap, "register");
    else if (!strncmp(own, "$auto$", 6))
        snprintf(dst, cap, "%.*s", (int)strcspn(own + 6, ".$:"), own + 6);
    else
        snprintf(dst, cap, "%.*s", (int)strcspn(own + 1, "$"), own + 1);
}

/* "bit 0 of input A inverted", by mode. */
static void what(char *dst, size_t cap, const char *mode, const char *pname,
                 const char *bit, const char *ctrl, const char *wire,
                 const char *wbit)
{
    const char *port = port_words(pname);
    if (!strcmp(mode, "inv"))
        snprintf(dst, cap, "bit %s of %s inverted", bit, port);
    else if (!strcmp(mode, "const0") || !strcmp(mode, "const1"))
        snprintf(dst, cap, "bit %s of %s stuck at %c", bit, port, mode[5]);
    else if (!strcmp(mode, "cnot0") || !strcmp(mode, "cnot1"))
        snprintf(dst, cap, "bit %s of %s inverted when its bit %s is %c",
                 bit, port, ctrl, mode[4]);
    else if (!strcmp(mode, "repl"))
        snprintf(dst, cap, "bit %s of %s replaced by %s[%s]", bit, port,
                 wire[0] == '\\' ? wire + 1 : wire, wbit);
    else
        snprintf(dst, cap, "%s on bit %s of %s", mode, bit, port);
}

int mf_vmut_table_build(mf_vmut_table *t, const char *list,
                        const mf_verilog_src *srcs, int nsrcs)
{
    int cap = 0;
    char **sites = NULL; /* id inputs of the rows so far, for occurrences */
    size_t *lens = NULL; /* their lengths */
    memset(t, 0, sizeof *t);
    for (const char *l = list; *l;) {
        size_t k = strcspn(l, "\n");
        const char *next = l + k + (l[k] == '\n');
        if (k == 0) {
            l = next;
            continue;
        }
        char *line = mf_xmalloc(k + 2);
        line[0] = ' ';
        memcpy(line + 1, l, k);
        line[k + 1] = 0;
        char mode[16], module[256], cell[512], port[64], bit[16], ctrl[16],
            wire[512], wbit[16], src[512];
        opt_of(mode, sizeof mode, line, "-mode");
        opt_of(module, sizeof module, line, "-module");
        opt_of(cell, sizeof cell, line, "-cell");
        opt_of(port, sizeof port, line, "-port");
        opt_of(bit, sizeof bit, line, "-portbit");
        opt_of(ctrl, sizeof ctrl, line, "-ctrlbit");
        opt_of(wire, sizeof wire, line, "-wire");
        opt_of(wbit, sizeof wbit, line, "-wirebit");
        opt_of(src, sizeof src, line, "-src");
        const char *start = strstr(line, " -mode ");
        int op = -1;
        for (int i = 0; i < MF_VMUT_NOPS; i++)
            if (!strcmp(mode, mf_vmut_op_names[i]))
                op = i;
        if (!strcmp(port, "CLK")) {
            /* The clock is no signal of the translation: a step is a
             * clock cycle. */
            free(line);
            l = next;
            continue;
        }
        if (!strcmp(port, "Q")) {
            /* A register's own output: mutate would move the register
             * onto a new wire and leave its initial value on the old
             * one. The same faults are reached through its D side and
             * its readers' inputs. */
            free(line);
            l = next;
            continue;
        }
        if (!start || op < 0 || !cell[0]) {
            free(line);
            for (int i = 0; i < t->n; i++)
                free(sites[i]);
            free(sites);
            free(lens);
            mf_vmut_table_free(t);
            return mf_err_set(MF_ERROR, "yosys mutate -list: unexpected "
                              "line: %.*s", (int)(k > 80 ? 80 : k), l);
        }
        if (t->n == cap) {
            cap = cap ? cap * 2 : 64;
            t->m = mf_xrealloc(t->m, (size_t)cap * sizeof *t->m);
            sites = mf_xrealloc(sites, (size_t)cap * sizeof *sites);
            lens = mf_xrealloc(lens, (size_t)cap * sizeof *lens);
        }
        mf_vmut *mu = &t->m[t->n];
        memset(mu, 0, sizeof *mu);
        snprintf(mu->mode, sizeof mu->mode, "%.7s", mode);
        char *cut = strstr(start, " -src ");
        if (cut)
            *cut = 0;
        mu->cmd = mf_xstrdup(start + 1);
        char text[EXCERPT_MAX + 8], ncell[512], nwire[512];
        excerpt(text, sizeof text, mu, src, srcs, nsrcs);
        norm_name(ncell, sizeof ncell, cell);
        norm_name(nwire, sizeof nwire, wire);
        mf_buf site = {0}, repl = {0};
        mf_buf_printf(&site, "%s %s %s[%s] `%s`", module, ncell, port, bit,
                      text);
        if (ctrl[0])
            mf_buf_printf(&repl, "ctrlbit %s", ctrl);
        if (!strcmp(mode, "repl"))
            mf_buf_printf(&repl, "wire %s[%s]", nwire, wbit);
        mf_buf_printf(&site, "%c%s", 0, repl.data ? repl.data : "");
        int occ = 0;
        for (int i = 0; i < t->n; i++)
            if (!strcmp(t->m[i].mode, mode) && lens[i] == site.len &&
                !memcmp(sites[i], site.data, site.len))
                occ++;
        sites[t->n] = mf_xmalloc(site.len + 1);
        memcpy(sites[t->n], site.data, site.len + 1);
        lens[t->n] = site.len;
        mf_buf key = {0};
        mf_buf_printf(&key, "%s#%d", site.data, occ);
        mf_mutant_id(mu->id, mode, key.data, repl.data ? repl.data : "");
        char w[1200], kind[128];
        cell_kind(kind, sizeof kind, ncell);
        what(w, sizeof w, mode, port, bit, ctrl, wire, wbit);
        mf_buf d = {0};
        if (text[0])
            mf_buf_printf(&d, "`%s` (%s): %s", text, kind, w);
        else
            mf_buf_printf(&d, "%s: %s", kind, w);
        mu->desc = d.data;
        mf_buf_free(&site);
        mf_buf_free(&repl);
        mf_buf_free(&key);
        free(line);
        t->n++;
        l = next;
    }
    for (int i = 0; i < t->n; i++)
        free(sites[i]);
    free(sites);
    free(lens);
    return 0;
}

void mf_vmut_table_free(mf_vmut_table *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->m[i].cmd);
        free(t->m[i].desc);
    }
    free(t->m);
    memset(t, 0, sizeof *t);
}
