/* read.c - the KISS2 reader: text to the row table of kiss2.h, and the
 * table printed back as KISS2.
 *
 * Read: `.i N`, `.o N`, `.p N`, `.s N`, `.r STATE`, `.e`/`.end` (the rest
 * is not read), rows of four fields (three when .i or .o is 0), `#`
 * comments. The benchmark files disagree with themselves in harmless ways
 * (a .p or .s count that is not the number of rows or states, directives
 * such as .ilb that name nothing mutfarm uses): those are warnings. What
 * leaves the meaning unclear (a cube of the wrong width, a character other
 * than 0 1 -, a row before .i/.o, a .r state that no row names, overlapping
 * rows with different results) is an error at its line. It does not
 * translate the table (smv.c) or mutate it (mutate.c). */
#include "kiss2.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits that keep a hostile file from making a huge model. */
#define MAX_BITS 1024
#define MAX_ROWS 1000000
#define MAX_STATES 100000
#define MAX_TOKENS 8

typedef struct {
    mf_kiss2 *k;
    const mf_kiss2_opts *opts;
    mf_buf *warn;
    MF_VEC(mf_kiss2_row) rows;
    MF_VEC(const char *) states;
    int have_i, have_o;
    long p, s;            /* declared counts, -1 when absent */
    int p_line, s_line;
    const char *reset;    /* .r name, NULL when absent */
} reader;

static int err(const reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int err(const reader *r, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_err_set(MF_EPARSE, "%s:%d: error: %s", r->k->file, line, msg);
}

static void warn(const reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn(const reader *r, int line, const char *fmt, ...)
{
    if (!r->warn)
        return;
    va_list ap;
    va_start(ap, fmt);
    mf_buf_printf(r->warn, "%s:%d: warning: ", r->k->file, line);
    mf_buf_vprintf(r->warn, fmt, ap);
    mf_buf_puts(r->warn, "\n");
    va_end(ap);
}

int mf_kiss2_find_state(const mf_kiss2 *k, const char *name)
{
    for (int i = 0; i < k->nstates; i++)
        if (strcmp(k->states[i], name) == 0)
            return i;
    return -1;
}

/* The index of state `name`, added when new; -1 past the limit. */
static int state_index(reader *r, const char *name)
{
    for (int i = 0; i < r->states.n; i++)
        if (strcmp(r->states.v[i], name) == 0)
            return i;
    if (r->states.n >= MAX_STATES)
        return -1;
    MF_VEC_PUSH(r->states, mf_arena_strdup(r->k->arena, name));
    return r->states.n - 1;
}

/* A count: a whole number 0..max. */
static int count_arg(long *out, const char *s, long max)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0 || v > max)
        return -1;
    *out = v;
    return 0;
}

static int check_cube(const reader *r, int line, const char *what,
                      const char *cube, int width)
{
    if ((int)strlen(cube) != width)
        return err(r, line, "%s cube has %zu bits, not %d", what,
                   strlen(cube), width);
    for (const char *c = cube; *c; c++)
        if (*c != '0' && *c != '1' && *c != '-')
            return err(r, line, "%s cube: '%c' is not 0, 1 or -", what, *c);
    return 0;
}

static int directive(reader *r, int line, char **tok, int ntok)
{
    const char *d = tok[0];
    long v = 0;
    if (strcmp(d, ".i") == 0 || strcmp(d, ".o") == 0) {
        int is_i = d[1] == 'i';
        if (ntok != 2 || count_arg(&v, tok[1], MAX_BITS) < 0)
            return err(r, line, "%s takes a number of bits (0..%d)", d,
                       MAX_BITS);
        if (r->rows.n)
            return err(r, line, "%s after the first row", d);
        if (is_i ? r->have_i : r->have_o)
            return err(r, line, "%s given twice", d);
        if (is_i) {
            r->k->ni = (int)v;
            r->have_i = 1;
        } else {
            r->k->no = (int)v;
            r->have_o = 1;
        }
        return 0;
    }
    if (strcmp(d, ".p") == 0 || strcmp(d, ".s") == 0) {
        if (ntok != 2 || count_arg(&v, tok[1], MAX_ROWS) < 0)
            return err(r, line, "%s takes a count", d);
        if (d[1] == 'p') {
            r->p = v;
            r->p_line = line;
        } else {
            r->s = v;
            r->s_line = line;
        }
        return 0;
    }
    if (strcmp(d, ".r") == 0) {
        if (ntok != 2 || strcmp(tok[1], "*") == 0)
            return err(r, line, ".r takes one state name");
        if (r->reset)
            return err(r, line, ".r given twice");
        r->reset = mf_arena_strdup(r->k->arena, tok[1]);
        r->k->reset_line = line;
        return 0;
    }
    warn(r, line, "directive %s ignored", d);
    return 0;
}

static int row(reader *r, int line, char **tok, int ntok)
{
    if (!r->have_i || !r->have_o)
        return err(r, line, "a row before .i and .o");
    int want = 2 + (r->k->ni > 0) + (r->k->no > 0);
    if (ntok != want)
        return err(r, line, "a row has %d fields, not %d (inputs, present "
                   "state, next state, outputs; no cube of 0 bits)",
                   want, ntok);
    if (r->rows.n >= MAX_ROWS)
        return mf_err_set(MF_ELIMIT, "%s:%d: error: more than %d rows",
                          r->k->file, line, MAX_ROWS);
    int t = 0;
    const char *in = r->k->ni > 0 ? tok[t++] : "";
    const char *from = tok[t++], *to = tok[t++];
    const char *out = r->k->no > 0 ? tok[t++] : "";
    int rc;
    if ((rc = check_cube(r, line, "input", in, r->k->ni)) < 0 ||
        (rc = check_cube(r, line, "output", out, r->k->no)) < 0)
        return rc;
    /* Next state '*': the transition is left unspecified (kirkman). Read
     * as no transition at all (docs/fsm.md): nothing to check there, so
     * its output cube must be all '-'. */
    if (strcmp(to, "*") == 0 && strspn(out, "-") != strlen(out))
        return err(r, line, "next state '*' (unspecified) with a specified "
                   "output is not supported");
    mf_kiss2_row w = {.line = line};
    w.in = mf_arena_strdup(r->k->arena, in);
    w.out = mf_arena_strdup(r->k->arena, out);
    w.from = strcmp(from, "*") == 0 ? MF_KISS2_ANY : state_index(r, from);
    w.to = strcmp(to, "*") == 0 ? MF_KISS2_ANY : state_index(r, to);
    if ((w.to < 0 && w.to != MF_KISS2_ANY) || (w.from < 0 && w.from != MF_KISS2_ANY))
        return mf_err_set(MF_ELIMIT, "%s:%d: error: more than %d states",
                          r->k->file, line, MAX_STATES);
    MF_VEC_PUSH(r->rows, w);
    return 0;
}

/* 1 if input cubes a and b have a common input. */
static int cubes_meet(const char *a, const char *b)
{
    for (; *a; a++, b++)
        if ((*a == '0' && *b == '1') || (*a == '1' && *b == '0'))
            return 0;
    return 1;
}

/* Rows that overlap (a common present state and input) and lead to
 * another next state or output cube make the machine non-deterministic. */
static int check_overlaps(const reader *r)
{
    const mf_kiss2 *k = r->k;
    for (int i = 0; i < k->nrows; i++) {
        const mf_kiss2_row *a = &k->rows[i];
        for (int j = i + 1; j < k->nrows; j++) {
            const mf_kiss2_row *b = &k->rows[j];
            if (a->from != b->from && a->from != MF_KISS2_ANY &&
                b->from != MF_KISS2_ANY)
                continue;
            if (!cubes_meet(a->in, b->in))
                continue;
            if (a->to == b->to && strcmp(a->out, b->out) == 0)
                continue;
            return mf_err_set(MF_EPARSE,
                              "%s:%d: error: this row overlaps the row of "
                              "line %d (a common state and input) with "
                              "another result: the machine is not "
                              "deterministic",
                              k->file, b->line, a->line);
        }
    }
    return 0;
}

static int finish(reader *r)
{
    mf_kiss2 *k = r->k;
    if (!r->have_i || !r->have_o)
        return mf_err_set(MF_EPARSE, "%s:1: error: no .i or no .o line",
                          k->file);
    if (r->rows.n == 0)
        return mf_err_set(MF_EPARSE, "%s:1: error: no rows", k->file);
    k->nrows = r->rows.n;
    k->rows = mf_arena_alloc(k->arena, (size_t)k->nrows * sizeof *k->rows);
    memcpy(k->rows, r->rows.v, (size_t)k->nrows * sizeof *k->rows);
    k->nstates = r->states.n;
    k->states = mf_arena_alloc(k->arena,
                               (size_t)k->nstates * sizeof *k->states);
    memcpy(k->states, r->states.v, (size_t)k->nstates * sizeof *k->states);
    if (r->reset) {
        k->reset = mf_kiss2_find_state(k, r->reset);
        if (k->reset < 0)
            return err(r, k->reset_line, ".r %s: no row names this state",
                       r->reset);
    } else {
        k->reset = -1;
        for (int i = 0; i < k->nrows && k->reset < 0; i++)
            k->reset = k->rows[i].from != MF_KISS2_ANY ? k->rows[i].from
                                                        : k->rows[i].to;
        if (k->reset < 0)
            return err(r, k->rows[0].line, "no row names a state");
    }
    if (r->p >= 0 && r->p != k->nrows)
        warn(r, r->p_line, ".p says %ld rows, the file has %d", r->p,
             k->nrows);
    if (r->s >= 0 && r->s != k->nstates)
        warn(r, r->s_line, ".s says %ld states, the rows name %d", r->s,
             k->nstates);
    if (!r->opts || !r->opts->nondet)
        return check_overlaps(r);
    return 0;
}

int mf_kiss2_read(mf_kiss2 **out, const char *file, const char *text,
                  size_t len, const mf_kiss2_opts *opts, mf_buf *warnbuf)
{
    *out = NULL;
    mf_arena *a = mf_arena_new();
    mf_kiss2 *k = mf_arena_alloc(a, sizeof *k);
    k->arena = a;
    k->file = mf_arena_strdup(a, file ? file : "<kiss2>");
    reader r = {.k = k, .opts = opts, .warn = warnbuf, .p = -1, .s = -1};
    char *buf = mf_xmalloc(len + 1);
    int rc = 0, line = 0, ended = 0;
    size_t pos = 0;
    while (pos < len && !ended && rc == 0) {
        size_t n = 0;
        line++;
        while (pos < len && text[pos] != '\n')
            buf[n++] = text[pos++];
        pos++; /* the newline */
        buf[n] = '\0';
        char *hash = memchr(buf, '#', n);
        if (hash)
            *hash = '\0';
        if (memchr(buf, '\0', hash ? (size_t)(hash - buf) : n)) {
            rc = err(&r, line, "a NUL byte in the text");
            break;
        }
        char *tok[MAX_TOKENS];
        int ntok = 0;
        for (char *s = strtok(buf, " \t\r\f\v"); s;
             s = strtok(NULL, " \t\r\f\v")) {
            if (ntok == MAX_TOKENS) {
                ntok++;
                break;
            }
            tok[ntok++] = s;
        }
        if (ntok == 0)
            continue;
        if (ntok > MAX_TOKENS) {
            rc = err(&r, line, "too many fields on a line");
            break;
        }
        if (tok[0][0] == '.') {
            if (strcmp(tok[0], ".e") == 0 || strcmp(tok[0], ".end") == 0 ||
                strcmp(tok[0], ".end_kiss") == 0)
                ended = 1;
            else
                rc = directive(&r, line, tok, ntok);
        } else {
            rc = row(&r, line, tok, ntok);
        }
    }
    free(buf);
    if (rc == 0)
        rc = finish(&r);
    MF_VEC_FREE(r.rows);
    MF_VEC_FREE(r.states);
    if (rc < 0) {
        mf_arena_free(a);
        return rc;
    }
    *out = k;
    return 0;
}

void mf_kiss2_free(mf_kiss2 *k)
{
    if (k)
        mf_arena_free(k->arena);
}

void mf_kiss2_print_row(mf_buf *out, const mf_kiss2 *k,
                        const mf_kiss2_row *r)
{
    if (k->ni > 0)
        mf_buf_printf(out, "%s ", r->in);
    mf_buf_printf(out, "%s %s",
                  r->from == MF_KISS2_ANY ? "*" : k->states[r->from],
                  r->to == MF_KISS2_ANY ? "*" : k->states[r->to]);
    if (k->no > 0)
        mf_buf_printf(out, " %s", r->out);
}

void mf_kiss2_print(mf_buf *out, const mf_kiss2 *k)
{
    mf_buf_printf(out, ".i %d\n.o %d\n.p %d\n.s %d\n.r %s\n", k->ni, k->no,
                  k->nrows, k->nstates, k->states[k->reset]);
    for (int i = 0; i < k->nrows; i++) {
        mf_kiss2_print_row(out, k, &k->rows[i]);
        mf_buf_puts(out, "\n");
    }
    mf_buf_puts(out, ".e\n");
}

int mf_kiss2_sniff(const char *text, size_t len)
{
    size_t pos = 0;
    while (pos < len) {
        while (pos < len && (text[pos] == ' ' || text[pos] == '\t' ||
                             text[pos] == '\r' || text[pos] == '\n'))
            pos++;
        if (pos < len && text[pos] == '#') { /* a comment line */
            while (pos < len && text[pos] != '\n')
                pos++;
            continue;
        }
        break;
    }
    if (pos + 3 > len || text[pos] != '.')
        return 0;
    char c = text[pos + 1], sp = text[pos + 2];
    if (strchr("iopsr", c) && (sp == ' ' || sp == '\t'))
        return 90;
    if (len - pos >= 7 && memcmp(text + pos, ".model", 6) == 0)
        return 60;
    if (len - pos >= 11 && memcmp(text + pos, ".start_kiss", 11) == 0)
        return 90;
    return 0;
}
