/* translate.c - a Verilog design through yosys to mutfarm's translation
 * (translate.h): two yosys runs in a fresh temporary directory. The first
 * reads and prepares the design (hierarchy, proc, flatten, memory,
 * async2sync, opt), lists its ports and clocks, sets the reset state
 * (sim -w) and lists the mutations; the second applies them all behind the
 * select signal and writes SMV. The mutation list is turned into the
 * table of the header here (mutation.c words each one); reading a
 * translation back is design.c. */
#define _POSIX_C_SOURCE 200809L
#include "translate.h"
#include "mutation.h"
#include "yosys.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The select signal's name in the design and in the translation. */
#define SELECT "mf_mutant"
/* The most files a design may have and the longest file name. */
#define MAX_FILES 64

typedef struct {
    char dir[256];
    char *made[MAX_FILES + 16]; /* files written into dir, to remove */
    int nmade;
} tmpdir;

static int tmp_open(tmpdir *t)
{
    const char *base = getenv("TMPDIR");
    snprintf(t->dir, sizeof t->dir, "%s/mutfarm-yosys-XXXXXX",
             base && *base ? base : "/tmp");
    if (!mkdtemp(t->dir))
        return mf_err_set(MF_EIO, "cannot make a temporary directory: %s",
                          strerror(errno));
    return 0;
}

static void tmp_close(tmpdir *t)
{
    for (int i = 0; i < t->nmade; i++) {
        unlink(t->made[i]);
        free(t->made[i]);
    }
    rmdir(t->dir);
}

static char *tmp_path(tmpdir *t, const char *name)
{
    size_t n = strlen(t->dir) + strlen(name) + 2;
    char *p = mf_xmalloc(n);
    snprintf(p, n, "%s/%s", t->dir, name);
    assert(t->nmade < MAX_FILES + 16);
    t->made[t->nmade++] = p;
    return p;
}

static int tmp_write(tmpdir *t, const char *name, const char *s, size_t n)
{
    char *p = tmp_path(t, name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(s, 1, n, f) != n || fclose(f) != 0)
        return mf_err_set(MF_EIO, "cannot write %s: %s", p, strerror(errno));
    return 0;
}

/* Reads a file yosys wrote into *out (NUL-terminated; "" when absent). */
static void tmp_read(tmpdir *t, const char *name, char **out)
{
    size_t len = 0;
    if (mf_read_file(out, &len, tmp_path(t, name), 256u << 20) != 0)
        *out = mf_xstrdup("");
}

static int ends_with(const char *s, const char *e)
{
    size_t n = strlen(s), k = strlen(e);
    return n >= k && !strcmp(s + n - k, e);
}

/* A yosys identifier: only letters, digits, '_' and '$' (names come from
 * the command line into yosys scripts). */
static int plain_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '$'))
            return 0;
    return 1;
}

/* The names of a `select -list` output, "top/name" a line: the part after
 * the slash, space-separated into *out; *top gets the module. */
static int list_names(mf_buf *out, char *top, size_t topcap,
                      const char *text)
{
    int n = 0;
    for (const char *l = text; *l;) {
        size_t k = strcspn(l, "\n");
        const char *slash = memchr(l, '/', k);
        if (slash && k > 0) {
            if (top && !top[0] && (size_t)(slash - l) < topcap) {
                memcpy(top, l, (size_t)(slash - l));
                top[slash - l] = 0;
            }
            mf_buf_printf(out, "%s%.*s", n++ ? " " : "",
                          (int)(k - (size_t)(slash - l) - 1), slash + 1);
        }
        l += k + (l[k] == '\n');
    }
    return n;
}

static int has_word(const char *list, const char *w)
{
    size_t k = strlen(w);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, " ");
        if (n == k && !memcmp(p, w, k))
            return 1;
        p += n + (p[n] == ' ');
    }
    return 0;
}

/* --reset NAME=V[:N] into its parts. */
static int parse_reset(const char *r, char *name, size_t cap, int *val,
                       int *cycles)
{
    const char *eq = strchr(r, '=');
    if (!eq || (size_t)(eq - r) >= cap)
        return mf_err_set(MF_ERROR, "--reset %s: expected NAME=0 or NAME=1"
                          " (optionally :CYCLES)", r);
    memcpy(name, r, (size_t)(eq - r));
    name[eq - r] = 0;
    *cycles = 1;
    if ((eq[1] != '0' && eq[1] != '1') ||
        (eq[2] && (eq[2] != ':' || sscanf(eq + 3, "%d", cycles) != 1 ||
                   *cycles < 1 || *cycles > 1000)) ||
        !plain_name(name))
        return mf_err_set(MF_ERROR, "--reset %s: expected NAME=0 or NAME=1"
                          " (optionally :CYCLES, 1 to 1000)", r);
    *val = eq[1] - '0';
    return 0;
}

/* The first run's script: read, prepare, list ports, clocks, mutations. */
static void script_prep(mf_buf *s, const mf_verilog_src *srcs, int nsrcs,
                        const char *incdir, const char *top)
{
    for (int i = 0; i < nsrcs; i++)
        mf_buf_printf(s, "read_verilog -defer%s%s%s %s\n",
                      ends_with(srcs[i].name, ".sv") ? " -sv" : "",
                      incdir ? " -I" : "", incdir ? incdir : "",
                      srcs[i].name);
    if (top)
        mf_buf_printf(s, "hierarchy -check -top %s\n", top);
    else
        mf_buf_puts(s, "hierarchy -check -auto-top\n");
    mf_buf_puts(s, "proc\nflatten\nmemory\nopt_clean\n"
                   "tee -q -o clocks.txt select -list "
                   "t:*dff* %x:+[CLK] t:*dff* %d\n"
                   "async2sync\nopt\nwreduce\nopt_clean\n"
                   "tee -q -o inputs.txt select -list i:*\n"
                   "tee -q -o outputs.txt select -list o:*\n");
}

/* Registers and those with an initial value, counted in the SMV. */
static void count_regs(const char *smv, int *nregs, int *ninit)
{
    *nregs = *ninit = 0;
    int in_var = 0;
    for (const char *l = smv; *l;) {
        size_t k = strcspn(l, "\n");
        if (k > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ')
            in_var = !strncmp(l, "  VAR", 5);
        else if (in_var && k > 4 && !strncmp(l, "    ", 4))
            (*nregs)++;
        if (!strncmp(l, "    init(", 9))
            (*ninit)++;
        l += k + (l[k] == '\n');
    }
}

/* SMV's reserved words: a port named so keeps yosys's "_" prefix. */
static int smv_reserved(const char *w)
{
    static const char *const kw[] = {
        "MODULE", "VAR", "IVAR", "FROZENVAR", "DEFINE", "ASSIGN", "INIT",
        "TRANS", "INVAR", "SPEC", "LTLSPEC", "CTLSPEC", "INVARSPEC",
        "FAIRNESS", "JUSTICE", "COMPASSION", "CONSTANTS", "TRUE", "FALSE",
        "case", "esac", "next", "init", "self", "mod", "xor", "xnor",
        "union", "in", "word", "word1", "bool", "signed", "unsigned",
        "extend", "resize", "sizeof", "swconst", "uwconst", "count", "min",
        "max", "abs", "toint", "boolean", "integer", "array", "of",
        "process", "running", "main", "mf_mutant", NULL};
    for (int i = 0; kw[i]; i++)
        if (!strcmp(w, kw[i]))
            return 1;
    return 0;
}

/* The name a port has in the translation: its own, or "_name" when that
 * is an SMV word. */
static const char *smv_port(char *dst, size_t cap, const char *port)
{
    snprintf(dst, cap, "%s%s", smv_reserved(port) ? "_" : "", port);
    return dst;
}

static int name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '#' ||
           c == '\\' || c == '.';
}

/* Whether line l[0..k) is the DEFINE "    _NAME := _CLOCK;". */
static int is_alias_of(const char *l, size_t k, const char *clock)
{
    if (k < 8 || strncmp(l, "    _", 5))
        return 0;
    const char *as = strstr(l, " := _");
    size_t n = strlen(clock);
    return as && as < l + k && (size_t)(l + k - (as + 5)) == n + 1 &&
           !strncmp(as + 5, clock, n) && as[5 + n] == ';';
}

/* yosys's SMV made the translation's: MODULE main, the clock's IVAR gone,
 * the select an IVAR no more (a DEFINE at the end), ports by their own
 * names (yosys writes "_name"). */
static int rewrite_smv(mf_buf *out, const char *smv, const char *clock,
                       const char *ports, int width)
{
    int in_ivar = 0, seen_module = 0;
    for (const char *l = smv; *l;) {
        size_t k = strcspn(l, "\n");
        const char *next = l + k + (l[k] == '\n');
        if (!strncmp(l, "MODULE ", 7)) {
            if (seen_module++)
                return mf_err_set(MF_EUNSUPPORTED, "yosys wrote several "
                                  "modules: the design is not flat");
            mf_buf_puts(out, "MODULE main\n");
            l = next;
            continue;
        }
        if (k > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ')
            in_ivar = !strncmp(l, "  IVAR", 6);
        if (in_ivar && !strncmp(l, "    _", 5)) {
            size_t n = strcspn(l + 5, " :");
            if ((clock && strlen(clock) == n && !strncmp(l + 5, clock, n)) ||
                (n == strlen(SELECT) && !strncmp(l + 5, SELECT, n))) {
                l = next;
                continue;
            }
        }
        if (clock && is_alias_of(l, k, clock)) {
            l = next; /* a submodule's clock port: no signal here */
            continue;
        }
        if (l[0] == '-' && l[1] == '-') { /* yosys's comments: dropped */
            l = next;
            continue;
        }
        /* Tokens "_port" and "_mf_mutant" lose their underscore. */
        for (const char *p = l; p < l + k;) {
            if (!name_char(*p)) {
                if (*p == '-' && p[1] == '-')
                    break; /* a trailing comment: yosys's wire names */
                mf_buf_put(out, p++, 1);
                continue;
            }
            const char *e = p;
            while (e < l + k && name_char(*e))
                e++;
            char word[512];
            size_t n = (size_t)(e - p);
            if (n > 1 && n < sizeof word && p[0] == '_') {
                memcpy(word, p + 1, n - 1);
                word[n - 1] = 0;
                if ((has_word(ports, word) && !smv_reserved(word)) ||
                    !strcmp(word, SELECT)) {
                    mf_buf_puts(out, word);
                    p = e;
                    continue;
                }
            }
            mf_buf_put(out, p, n);
            p = e;
        }
        while (out->len && out->data[out->len - 1] == ' ')
            out->len--;
        mf_buf_puts(out, "\n");
        l = next;
    }
    if (width > 0)
        mf_buf_printf(out, "  DEFINE\n    %s := 0ud%d_0;\n", SELECT, width);
    return 0;
}

static void put_sources(mf_buf *out, const mf_verilog_src *srcs, int nsrcs)
{
    for (int i = 0; i < nsrcs; i++) {
        mf_buf_printf(out, "-- mf:source %s\n", srcs[i].name);
        const char *s = srcs[i].text, *end = s + srcs[i].len;
        while (s < end) {
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            size_t k = nl ? (size_t)(nl - s) : (size_t)(end - s);
            if (k && s[k - 1] == '\r')
                k--;
            mf_buf_puts(out, "-- |");
            mf_buf_put(out, s, k);
            mf_buf_puts(out, "\n");
            s = nl ? nl + 1 : end;
        }
    }
}

typedef struct {
    tmpdir t;
    mf_buf script, log, ins, outs, clocks, list2;
    char *txt_in, *txt_out, *txt_clk, *txt_list, *smv;
    char top[256];
} run;

static void run_free(run *r)
{
    tmp_close(&r->t);
    mf_buf_free(&r->script);
    mf_buf_free(&r->log);
    mf_buf_free(&r->ins);
    mf_buf_free(&r->outs);
    mf_buf_free(&r->clocks);
    mf_buf_free(&r->list2);
    free(r->txt_in);
    free(r->txt_out);
    free(r->txt_clk);
    free(r->txt_list);
    free(r->smv);
}

static int bits_for(int n)
{
    int w = 1;
    while ((1L << w) <= n)
        w++;
    return w;
}

int mf_verilog_translate(mf_buf *out, const mf_verilog_src *srcs, int nsrcs,
                         const char *incdir, const mf_verilog_opts *o)
{
    run r = {0};
    int rc = 0, timeout = o->timeout_s > 0 ? o->timeout_s : 120;
    char rname[256] = "";
    int rval = 0, rcycles = 0;
    if (nsrcs < 1 || nsrcs > MAX_FILES)
        return mf_err_set(MF_ERROR, "a design is 1 to %d files", MAX_FILES);
    if (o->top && !plain_name(o->top))
        return mf_err_set(MF_ERROR, "--top %s: not a module name", o->top);
    if (o->reset && (rc = parse_reset(o->reset, rname, sizeof rname, &rval,
                                      &rcycles)) < 0)
        return rc;
    if ((rc = tmp_open(&r.t)) < 0)
        return rc;
    for (int i = 0; i < nsrcs && !rc; i++) {
        if (strchr(srcs[i].name, '/') || srcs[i].name[0] == '.' ||
            strpbrk(srcs[i].name, " \t\n;\"'"))
            rc = mf_err_set(MF_ERROR, "%s: not a plain file name",
                            srcs[i].name);
        for (int j = 0; j < i && !rc; j++)
            if (!strcmp(srcs[i].name, srcs[j].name))
                rc = mf_err_set(MF_ERROR, "two design files named %s",
                                srcs[i].name);
        if (!rc)
            rc = tmp_write(&r.t, srcs[i].name, srcs[i].text, srcs[i].len);
    }
    if (rc)
        goto cleanup;

    /* Run 1: prepare, ports, clocks. */
    script_prep(&r.script, srcs, nsrcs, incdir, o->top);
    if ((rc = tmp_write(&r.t, "prep.ys", r.script.data, r.script.len)) < 0 ||
        (rc = mf_yosys_run(&r.log, r.t.dir, "prep.ys", timeout)) < 0)
        goto cleanup;
    tmp_read(&r.t, "inputs.txt", &r.txt_in);
    tmp_read(&r.t, "outputs.txt", &r.txt_out);
    tmp_read(&r.t, "clocks.txt", &r.txt_clk);
    list_names(&r.ins, r.top, sizeof r.top, r.txt_in);
    list_names(&r.outs, r.top, sizeof r.top, r.txt_out);
    int nclocks = list_names(&r.clocks, NULL, 0, r.txt_clk);
    const char *clock = r.clocks.data;
    if (nclocks > 1) {
        rc = mf_err_set(MF_EUNSUPPORTED, "several clocks (%s): mutfarm "
                        "takes single-clock designs", r.clocks.data);
        goto cleanup;
    }
    if (nclocks == 1 && !has_word(r.ins.data, clock)) {
        rc = mf_err_set(MF_EUNSUPPORTED, "the clock %s is not an input "
                        "port of %s: a derived clock", clock, r.top);
        goto cleanup;
    }
    if (o->reset && !has_word(r.ins.data, rname)) {
        rc = mf_err_set(MF_ERROR, "--reset %s: %s has no input port %s",
                        o->reset, r.top, rname);
        goto cleanup;
    }
    if (o->reset && nclocks == 0) {
        rc = mf_err_set(MF_ERROR, "--reset: %s has no clock", r.top);
        goto cleanup;
    }

    /* Run 2 (the same design, continued): reset state, mutation list. */
    mf_buf_reset(&r.script);
    mf_buf_puts(&r.script, "script prep.ys\n");
    if (o->reset)
        mf_buf_printf(&r.script, "sim -clock %s -%s %s -rstlen %d -n %d -w\n",
                      clock, rval ? "reset" : "resetn", rname, rcycles,
                      rcycles);
    mf_buf_printf(&r.script, "mutate -list %d -seed 1 -o list.txt\n"
                  "write_rtlil design.il\n",
                  o->nmutants > 0 ? o->nmutants : 1000000);
    if ((rc = tmp_write(&r.t, "list.ys", r.script.data, r.script.len)) < 0 ||
        (rc = mf_yosys_run(&r.log, r.t.dir, "list.ys", timeout)) < 0)
        goto cleanup;
    tmp_read(&r.t, "list.txt", &r.txt_list);

    /* The table: mutation.c parses and words each listed mutation. */
    mf_vmut_table tab = {0};
    rc = mf_vmut_table_build(&tab, r.txt_list, srcs, nsrcs);
    if (rc < 0)
        goto cleanup;
    int width = tab.n ? bits_for(tab.n) : 0;

    /* Run 3: every mutation behind the select, then SMV. */
    mf_buf_reset(&r.script);
    mf_buf_puts(&r.script, "read_rtlil design.il\n");
    for (int i = 0; i < tab.n; i++)
        mf_buf_printf(&r.script, "mutate -ctrl %s %d %d %s\n", SELECT, width,
                      i + 1, tab.m[i].cmd);
    /* splitnets -driver: each register a whole wire (yosys 0.23's
     * write_smv misnames a register that is a slice of a wire). */
    mf_buf_puts(&r.script, "dffunmap\nsplitnets -driver\nopt_clean\n"
                           "write_smv out.smv\n");
    if ((rc = tmp_write(&r.t, "smv.ys", r.script.data, r.script.len)) < 0 ||
        (rc = mf_yosys_run(&r.log, r.t.dir, "smv.ys", timeout)) < 0) {
        mf_vmut_table_free(&tab);
        goto cleanup;
    }
    tmp_read(&r.t, "out.smv", &r.smv);
    int nregs, ninit;
    count_regs(r.smv, &nregs, &ninit);

    mf_buf_printf(out, "%s\n-- mf:top %s\n", MF_VERILOG_MAGIC, r.top);
    mf_buf_printf(out, "-- mf:clock %s\n", nclocks ? clock : "");
    mf_buf_printf(out, "-- mf:inputs");
    for (const char *p = r.ins.data; p && *p;) {
        size_t n = strcspn(p, " ");
        char w[512], sw[520];
        snprintf(w, sizeof w, "%.*s", (int)n, p);
        if (!(nclocks && !strcmp(w, clock)))
            mf_buf_printf(out, " %s", smv_port(sw, sizeof sw, w));
        p += n + (p[n] == ' ');
    }
    mf_buf_puts(out, "\n-- mf:outputs");
    for (const char *p = r.outs.data; p && *p;) {
        size_t n = strcspn(p, " ");
        char w[512], sw[520];
        snprintf(w, sizeof w, "%.*s", (int)n, p);
        mf_buf_printf(out, " %s", smv_port(sw, sizeof sw, w));
        p += n + (p[n] == ' ');
    }
    mf_buf_puts(out, "\n");
    mf_buf_printf(out, "-- mf:registers %d %d\n", nregs, ninit);
    if (o->reset)
        mf_buf_printf(out, "-- mf:start after reset %s for %d cycle%s\n",
                      rname, rcycles, rcycles == 1 ? "" : "s");
    else
        mf_buf_printf(out, "-- mf:start %s\n",
                      nregs == 0       ? "no registers"
                      : ninit == nregs ? "initial values"
                      : ninit ? "initial values, the other registers free"
                              : "free");
    mf_buf_printf(out, "-- mf:select %s %d\n", SELECT, width);
    for (int i = 0; i < tab.n; i++)
        mf_buf_printf(out, "-- mf:mutant %d %s %s %s:%d:%d %s\n", i + 1,
                      tab.m[i].mode, tab.m[i].id, tab.m[i].file,
                      tab.m[i].line, tab.m[i].col, tab.m[i].desc);
    mf_vmut_table_free(&tab);
    put_sources(out, srcs, nsrcs);
    mf_buf_printf(&r.ins, " %s", r.outs.data ? r.outs.data : "");
    rc = rewrite_smv(out, r.smv, nclocks ? clock : NULL, r.ins.data, width);

cleanup:
    run_free(&r);
    return rc;
}

int mf_verilog_translate_files(mf_buf *out, const char *const *paths,
                               int npaths, const mf_verilog_opts *o)
{
    mf_verilog_src srcs[MAX_FILES];
    char *texts[MAX_FILES] = {0};
    char incdir[1024] = "";
    int rc = 0;
    if (npaths < 1 || npaths > MAX_FILES)
        return mf_err_set(MF_ERROR, "a design is 1 to %d files", MAX_FILES);
    for (int i = 0; i < npaths && !rc; i++) {
        size_t len = 0;
        rc = mf_read_file(&texts[i], &len, paths[i], 64u << 20);
        const char *slash = strrchr(paths[i], '/');
        srcs[i] = (mf_verilog_src){slash ? slash + 1 : paths[i], texts[i],
                                   len};
        if (i == 0 && slash && (size_t)(slash - paths[i]) < sizeof incdir)
            snprintf(incdir, sizeof incdir, "%.*s",
                     (int)(slash - paths[i]), paths[i]);
    }
    if (!rc) {
        char abs[2048] = "";
        if (!incdir[0] || incdir[0] != '/') {
            char cwd[512];
            if (getcwd(cwd, sizeof cwd))
                snprintf(abs, sizeof abs, "%s%s%s", cwd, incdir[0] ? "/" : "",
                         incdir);
        } else {
            snprintf(abs, sizeof abs, "%s", incdir);
        }
        rc = mf_verilog_translate(out, srcs, npaths,
                                  abs[0] && !strpbrk(abs, " ;\"'") ? abs
                                                                    : NULL,
                                  o);
    }
    for (int i = 0; i < npaths; i++)
        free(texts[i]);
    return rc;
}
