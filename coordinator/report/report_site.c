/* report_site.c - where each mutant of a campaign sits in the model text
 * and what it puts there: the span of original text a mutant changes
 * (start and end), the mutated text and the mutated item as SMV, for the
 * survivors of the text report and the mutants of the JSON report.
 *
 * The store keeps a mutant's start position and description, not its
 * mutated text, so the mutants are rebuilt here from the stored model
 * text and the campaign's options (mf_mutants_each, as the coordinator
 * planned them) and matched by id. The mutated node is found by comparing
 * the original item with the mutant's, and its end in the text is the end
 * of its last token, extended over the closing brackets and `esac` it
 * opened. Nothing here decides or changes a mutant; a model that no longer
 * loads leaves the sites empty and says why. */
#include "report_int.h"

#include <stdlib.h>
#include <string.h>

#include "langs.h"
#include "mutate.h"

/* ---- the text ------------------------------------------------------------ */

static void index_lines(mf_report_sites *s, const char *text, size_t len)
{
    MF_VEC(size_t) v = {0};
    s->text = text;
    s->len = len;
    MF_VEC_PUSH(v, 0);
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && i + 1 < len)
            MF_VEC_PUSH(v, i + 1);
    s->lines = v.v;
    s->nlines = v.n;
}

/* Length of line l (1-based) without its newline. */
static size_t line_len(const mf_report_sites *s, int l)
{
    size_t a = s->lines[l - 1];
    size_t b = l < s->nlines ? s->lines[l] : s->len;
    while (b > a && (s->text[b - 1] == '\n' || s->text[b - 1] == '\r'))
        b--;
    return b - a;
}

void mf_report_sites_clamp(const mf_report_sites *s, int *line, int *col)
{
    if (!s->nlines) {
        *line = *col = 1;
        return;
    }
    if (*line < 1)
        *line = 1, *col = 1;
    if (*line > s->nlines) {
        *line = s->nlines;
        *col = (int)line_len(s, s->nlines) + 1;
    }
    int max = (int)line_len(s, *line) + 1;
    if (*col < 1)
        *col = 1;
    if (*col > max)
        *col = max;
}

static size_t off_of(const mf_report_sites *s, int line, int col)
{
    mf_report_sites_clamp(s, &line, &col);
    return s->nlines ? s->lines[line - 1] + (size_t)(col - 1) : 0;
}

static void pos_of(const mf_report_sites *s, size_t off, int *line, int *col)
{
    int lo = 0, hi = s->nlines - 1;
    if (s->nlines == 0) {
        *line = *col = 1;
        return;
    }
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (s->lines[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = lo + 1;
    *col = (int)(off - s->lines[lo]) + 1;
    mf_report_sites_clamp(s, line, col);
}

static int is_alpha(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_idchar(int c)
{
    return is_alpha(c) || is_digit(c) || c == '$' || c == '#' || c == '-';
}

/* The end of the token at t[i] as the SMV lexer reads it: an identifier
 * (dotted names whole), a number or word constant, a negative literal, or
 * one character. */
static size_t token_end(const char *t, size_t len, size_t i)
{
    if (i >= len)
        return len;
    if (t[i] == '-' && i + 1 < len && is_digit((unsigned char)t[i + 1]))
        i++;
    int c = (unsigned char)t[i];
    size_t j = i + 1;
    if (is_alpha(c)) {
        while (j < len) {
            int d = (unsigned char)t[j];
            if (d == '-' && j + 1 < len && (t[j + 1] == '>' || t[j + 1] == '-'))
                break;
            if (d == '.' && j + 1 < len && is_alpha((unsigned char)t[j + 1])) {
                j++;
                continue;
            }
            if (!is_idchar(d))
                break;
            j++;
        }
    } else if (is_digit(c)) {
        while (j < len && (is_alpha((unsigned char)t[j]) ||
                           is_digit((unsigned char)t[j])))
            j++;
    }
    return j;
}

/* Past blanks and `--` comments from i. */
static size_t skip_blank(const char *t, size_t len, size_t i)
{
    while (i < len) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
            t[i] == '\f' || t[i] == '\v')
            i++;
        else if (t[i] == '-' && i + 1 < len && t[i + 1] == '-')
            while (i < len && t[i] != '\n')
                i++;
        else
            break;
    }
    return i;
}

static int word_is(const char *t, size_t a, size_t b, const char *w)
{
    return b - a == strlen(w) && memcmp(t + a, w, b - a) == 0;
}

/* The token at i (no blank there): its end, and its effect on the
 * nesting of brackets and case ... esac. */
static size_t nest_token(const char *t, size_t len, size_t i, int *depth)
{
    switch (t[i]) {
    case '(': case '[': case '{': (*depth)++; return i + 1;
    case ')': case ']': case '}': (*depth)--; return i + 1;
    }
    size_t j = token_end(t, len, i);
    if (word_is(t, i, j, "case"))
        (*depth)++;
    else if (word_is(t, i, j, "esac"))
        (*depth)--;
    return j;
}

static int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

/* Widen the text [*a, *b) (whose last token ends at *b, with `depth`
 * brackets or cases already open at *a) to whole brackets: back over the
 * openers of closers it has without them (a node that starts inside a
 * parenthesis, `(i < 4) & x`, starts at `i`), and on past what closes
 * the brackets and cases opened in it. */
static void close_nesting(const char *t, size_t len, size_t *a, size_t *b,
                          int depth)
{
    size_t i = *a, end = *b;
    int low = depth;
    for (;;) {
        i = skip_blank(t, len, i);
        if (i >= *b || i >= len)
            break;
        i = nest_token(t, len, i, &depth);
        if (depth < low)
            low = depth;
        if (i > end)
            end = i;
    }
    i = end;
    for (size_t j = *a; low < 0;) {
        while (j > 0 && is_blank((unsigned char)t[j - 1]))
            j--;
        if (j == 0 || (t[j - 1] != '(' && t[j - 1] != '[' && t[j - 1] != '{'))
            break;
        *a = --j;
        low++;
        depth++;
    }
    while (depth > 0) {
        i = skip_blank(t, len, i);
        if (i >= len)
            break;
        i = nest_token(t, len, i, &depth);
    }
    if (i > *b)
        *b = i;
}

/* Past the `;` that ends the item or case branch ending at i, if any. */
static size_t past_semicolon(const char *t, size_t len, size_t i)
{
    size_t j = skip_blank(t, len, i);
    return j < len && t[j] == ';' ? j + 1 : i;
}

void mf_report_sites_token_end(const mf_report_sites *s, int line, int col,
                               int *eline, int *ecol)
{
    size_t a = off_of(s, line, col);
    pos_of(s, token_end(s->text, s->len, a), eline, ecol);
}

int mf_report_sites_utf16_col(const mf_report_sites *s, int line, int col)
{
    mf_report_sites_clamp(s, &line, &col);
    if (!s->nlines)
        return 1;
    const unsigned char *p =
        (const unsigned char *)s->text + s->lines[line - 1];
    int units = 1;
    for (int i = 0; i < col - 1;) {
        unsigned c = p[i];
        int len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                               : (c & 0xf8) == 0xf0 ? 4 : 1;
        for (int k = 1; k < len; k++)
            if (i + k >= col - 1 || (p[i + k] & 0xc0) != 0x80)
                len = 1; /* not UTF-8 here: one U+FFFD per byte */
        units += len == 4 ? 2 : 1;
        i += len;
    }
    return units;
}

char *mf_report_sites_slice(const mf_report_sites *s, int sline, int scol,
                            int eline, int ecol, size_t max)
{
    size_t a = off_of(s, sline, scol), b = off_of(s, eline, ecol);
    mf_buf out = {0};
    int blank = 0;
    mf_buf_puts(&out, "");
    for (size_t i = a; i < b && i < s->len;) {
        size_t j = skip_blank(s->text, b, i);
        if (j > i) {
            blank = 1;
            i = j;
            continue;
        }
        if (blank && out.len)
            mf_buf_puts(&out, " ");
        blank = 0;
        if (out.len >= max) {
            mf_buf_puts(&out, "...");
            break;
        }
        mf_buf_put(&out, s->text + i, 1);
        i++;
    }
    return out.data;
}

/* ---- the mutated node ---------------------------------------------------- */

static int same_node(const mf_expr *a, const mf_expr *b)
{
    if (a->kind != b->kind || a->op != b->op || a->ival != b->ival ||
        a->nkids != b->nkids || a->ref_kind != b->ref_kind ||
        a->ref != b->ref)
        return 0;
    if (!a->name || !b->name)
        return a->name == b->name;
    return strcmp(a->name, b->name) == 0;
}

static int expr_equal(const mf_expr *a, const mf_expr *b)
{
    if (a == b)
        return 1;
    if (!a || !b || !same_node(a, b))
        return 0;
    for (int i = 0; i < a->nkids; i++)
        if (!expr_equal(a->kids[i], b->kids[i]))
            return 0;
    return 1;
}

/* The smallest pair of subtrees where a and b differ: down while exactly
 * one child differs. */
static void diff(const mf_expr **a, const mf_expr **b)
{
    for (;;) {
        const mf_expr *x = *a, *y = *b;
        if (!x || !y || !same_node(x, y))
            return;
        int k = -1, nd = 0;
        for (int i = 0; i < x->nkids; i++)
            if (!expr_equal(x->kids[i], y->kids[i]))
                nd++, k = i;
        if (nd != 1)
            return;
        *a = x->kids[k];
        *b = y->kids[k];
    }
}

/* The end of the statement or case branch that text from `a` is part of:
 * its `;` (`depth` brackets or cases already open at a). An expression's
 * own text ends before it; a leaf placed past it comes from elsewhere (a
 * module's parameter bound to an actual argument). */
static size_t statement_end(const char *t, size_t len, size_t a, int depth)
{
    size_t i = a;
    for (;;) {
        i = skip_blank(t, len, i);
        if (i >= len || (depth <= 0 && t[i] == ';'))
            return i;
        i = nest_token(t, len, i, &depth);
    }
}

/* The offset just past the last token of e's leaves in [from, limit). */
static size_t leaves_end(const mf_report_sites *s, const mf_expr *e,
                         size_t from, size_t limit, size_t end)
{
    if (!e)
        return end;
    if (e->nkids == 0) {
        size_t a = off_of(s, e->line, e->col);
        if (a >= from && a < limit) {
            size_t b = token_end(s->text, s->len, a);
            if (b > end)
                end = b;
        }
        return end;
    }
    for (int i = 0; i < e->nkids; i++)
        end = leaves_end(s, e->kids[i], from, limit, end);
    return end;
}

/* 1 if offset i of the text is inside a `--` comment. */
static int in_comment(const mf_report_sites *s, size_t i)
{
    size_t l = i;
    while (l > 0 && s->text[l - 1] != '\n')
        l--;
    for (; l < i; l++)
        if (s->text[l] == '-' && s->text[l + 1] == '-')
            return 1;
    return 0;
}

/* 1 if the word `case` starts at offset i. */
static int case_at(const mf_report_sites *s, size_t i)
{
    return i + 4 <= s->len && word_is(s->text, i, i + 4, "case") &&
           (i == 0 || !is_idchar((unsigned char)s->text[i - 1])) &&
           (i + 4 == s->len || !is_idchar((unsigned char)s->text[i + 4]));
}

/* The text of node e: [*a, *b). A case node starts at its first guard:
 * its `case` keyword is the nearest one before, outside comments. */
static void node_span(const mf_report_sites *s, const mf_expr *e, size_t *a,
                      size_t *b)
{
    *a = off_of(s, e->line, e->col);
    int depth = 0;
    if (e->kind == MF_E_CASE && !case_at(s, *a)) {
        size_t lo = *a > 4096 ? *a - 4096 : 0, i = *a;
        depth = 1; /* no keyword found: the span still closes its esac */
        while (i-- > lo)
            if (case_at(s, i) && !in_comment(s, i)) {
                *a = i;
                depth = 0;
                break;
            }
    }
    size_t limit = statement_end(s->text, s->len, *a, depth);
    *b = leaves_end(s, e, *a, limit, token_end(s->text, s->len, *a));
    close_nesting(s->text, s->len, a, b, depth);
}

typedef struct {
    mf_report_sites *out;
    const mf_model *m;
    const char *const *want;
    int nwant;
    MF_VEC(mf_report_site) v;
} build_ctx;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void set_span(const mf_report_sites *s, mf_report_site *site, size_t a,
                     size_t b)
{
    pos_of(s, a, &site->sline, &site->scol);
    pos_of(s, b, &site->eline, &site->ecol);
}

static void print_branches(mf_buf *out, const mf_model *m, const mf_expr *e,
                           int from, int to)
{
    for (int k = from; k <= to; k++) {
        if (k > from)
            mf_buf_puts(out, "; ");
        mf_print_expr(out, m, e->kids[2 * k]);
        mf_buf_puts(out, " : ");
        mf_print_expr(out, m, e->kids[2 * k + 1]);
    }
}

/* Where a mutant of item `it` that makes it `nit` (NULL: removed) changes
 * the text, and its text there. */
static void locate(build_ctx *bc, mf_report_site *site, const mf_item *it,
                   const mf_item *nit)
{
    const mf_report_sites *s = bc->out;
    const mf_model *m = bc->m;
    mf_buf repl = {0};
    size_t a, b;
    mf_buf_puts(&repl, "");
    if (!nit || expr_equal(it->e, nit->e)) {
        /* The whole item: removed, or changed outside its expression. */
        size_t ea, eb;
        a = off_of(s, it->line, it->col);
        if (it->e->line == 0) /* made by the front-end (a process's guard,
                               * model/process.c): its first statement */
            ea = eb = statement_end(s->text, s->len, a, 0);
        else
            node_span(s, it->e, &ea, &eb);
        b = past_semicolon(s->text, s->len, eb > a ? eb : a);
        if (nit) {
            mf_print_item(&repl, m, nit);
            while (repl.len && repl.data[repl.len - 1] == '\n')
                repl.data[--repl.len] = '\0';
        }
        set_span(s, site, a, b);
        site->repl = repl.data;
        return;
    }
    const mf_expr *x = it->e, *y = nit->e;
    diff(&x, &y);
    if (x->kind == MF_E_CASE && y->kind == MF_E_CASE &&
        x->nkids == y->nkids + 2) {
        /* A branch removed: the first one that differs. */
        int r = 0;
        while (2 * r + 1 < y->nkids &&
               expr_equal(x->kids[2 * r], y->kids[2 * r]) &&
               expr_equal(x->kids[2 * r + 1], y->kids[2 * r + 1]))
            r++;
        size_t ga, gb, va, vb;
        node_span(s, x->kids[2 * r], &ga, &gb);
        node_span(s, x->kids[2 * r + 1], &va, &vb);
        a = ga;
        b = vb > gb ? vb : gb;
        close_nesting(s->text, s->len, &a, &b, 0);
        b = past_semicolon(s->text, s->len, b);
    } else if (x->kind == MF_E_CASE && y->kind == MF_E_CASE &&
               x->nkids == y->nkids && x->nkids >= 2) {
        /* Branches changed in place (swapped): from the first that
         * differs to the last. */
        int nb = x->nkids / 2, f = nb, l = -1;
        for (int k = 0; k < nb; k++)
            if (!expr_equal(x->kids[2 * k], y->kids[2 * k]) ||
                !expr_equal(x->kids[2 * k + 1], y->kids[2 * k + 1])) {
                if (k < f)
                    f = k;
                l = k;
            }
        if (l < 0)
            f = 0, l = nb - 1;
        size_t ga, gb, va, vb;
        node_span(s, x->kids[2 * f], &ga, &gb);
        node_span(s, x->kids[2 * l + 1], &va, &vb);
        a = ga;
        b = vb > ga ? vb : gb;
        close_nesting(s->text, s->len, &a, &b, 0);
        print_branches(&repl, m, y, f, l);
    } else {
        node_span(s, x, &a, &b);
        mf_print_expr(&repl, m, y);
    }
    set_span(s, site, a, b);
    site->repl = repl.data;
}

static int build_cb(const mf_mutant *mu, void *vctx)
{
    build_ctx *bc = vctx;
    const char *id = mu->id;
    if (bc->want && !bsearch(&id, bc->want, (size_t)bc->nwant,
                             sizeof *bc->want, cmp_str))
        return 0;
    if (mu->item < 0 || mu->item >= bc->m->nitems)
        return 0;
    mf_report_site site;
    memset(&site, 0, sizeof site);
    memcpy(site.id, mu->id, sizeof site.id);
    site.id[16] = '\0';
    const mf_item *it = &bc->m->items[mu->item];
    locate(bc, &site, it, mu->new_item);
    mf_buf item = {0};
    mf_buf_puts(&item, "");
    if (mu->new_item) {
        mf_print_item(&item, bc->m, mu->new_item);
        while (item.len && item.data[item.len - 1] == '\n')
            item.data[--item.len] = '\0';
    }
    site.item = item.data;
    MF_VEC_PUSH(bc->v, site);
    return 0;
}

static int cmp_site(const void *a, const void *b)
{
    return strcmp(((const mf_report_site *)a)->id,
                  ((const mf_report_site *)b)->id);
}

typedef MF_VEC(const char *) str_vec;

/* "a,b" into a vector of strings living in *buf. */
static void split_list(str_vec *v, char *buf)
{
    for (char *p = buf; p && *p;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        while (*p == ' ')
            p++;
        if (*p)
            MF_VEC_PUSH(*v, p);
        p = comma ? comma + 1 : NULL;
    }
}

int mf_report_sites_build(mf_report_sites *out, const mf_report_campaign *c,
                          const char *const *want, int nwant, char **why)
{
    build_ctx bc;
    mf_model *m = NULL;
    str_vec inputs = {0}, observe = {0};
    char *ibuf = mf_xstrdup(c->inputs ? c->inputs : "");
    char *obuf = mf_xstrdup(c->observe ? c->observe : "");
    unsigned mask = 0;
    memset(out, 0, sizeof *out);
    memset(&bc, 0, sizeof bc);
    *why = NULL;
    index_lines(out, c->text, c->text_len);

    split_list(&inputs, ibuf);
    split_list(&observe, obuf);
    mf_model_opts mo = {.inputs = inputs.v, .ninputs = inputs.n,
                        .observe = observe.v, .nobserve = observe.n};
    if (mf_model_load(&m, c->model, c->text, c->text_len, &mo) < 0 ||
        (c->operators[0] && mf_mutant_ops_parse(m, &mask, c->operators) < 0)) {
        mf_buf w = {0};
        mf_buf_printf(&w, "the stored model no longer loads (%s)",
                      mf_err_msg());
        *why = w.data;
        goto cleanup;
    }
    bc.out = out;
    bc.m = m;
    bc.want = want;
    bc.nwant = nwant;
    if (mf_mutants_each(m, mask, build_cb, &bc) != 0) {
        mf_buf w = {0};
        mf_buf_printf(&w, "the mutants could not be rebuilt (%s)",
                      mf_err_msg());
        *why = w.data;
        for (int i = 0; i < bc.v.n; i++) {
            free(bc.v.v[i].repl);
            free(bc.v.v[i].item);
        }
        MF_VEC_FREE(bc.v);
        goto cleanup;
    }
    if (bc.v.n)
        qsort(bc.v.v, (size_t)bc.v.n, sizeof *bc.v.v, cmp_site);
    out->v = bc.v.v;
    out->n = bc.v.n;

cleanup:
    mf_model_free(m);
    MF_VEC_FREE(inputs);
    MF_VEC_FREE(observe);
    free(ibuf);
    free(obuf);
    return 0;
}

const mf_report_site *mf_report_sites_find(const mf_report_sites *s,
                                           const char *id)
{
    mf_report_site key;
    if (!s->n || strlen(id) != 16)
        return NULL;
    memcpy(key.id, id, sizeof key.id);
    return bsearch(&key, s->v, (size_t)s->n, sizeof *s->v, cmp_site);
}

void mf_report_sites_free(mf_report_sites *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        free(s->v[i].repl);
        free(s->v[i].item);
    }
    free(s->v);
    free(s->lines);
    memset(s, 0, sizeof *s);
}
