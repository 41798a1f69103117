/* mutate.c - the FSM fault operators on a KISS2 row table (docs/fsm.md,
 * Operators): output fault (one output bit of one row flipped, or a '-'
 * fixed to 0 or 1), transfer fault (one row's next state replaced by each
 * other state), missing transition (a row removed). Each is one changed
 * row, and in the translated model (smv.c) the replacement of one DEFINE:
 * y<i>_<j>, t<i> or r<i> (removed: FALSE).
 *
 * Ids: the first 16 hex digits of SHA-256(operator NUL site NUL
 * replacement), the site being the row's present state and input cube (and
 * the output bit), so an id survives edits of other rows, reordering and
 * comments. Duplicates: every operator changes its row's text, so two
 * mutants give the same table only when they remove one of a run of
 * identical adjacent rows; the later ones are duplicates of the first.
 * Nothing here decides a mutant (the engines do). */
#include "kiss2.h"
#include "lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mf_kop_names[MF_KOP__COUNT] = {
    "output-fault", "transfer-fault", "missing-transition"};

const char *mf_kop_name(mf_kop op)
{
    return op >= 0 && op < MF_KOP__COUNT ? mf_kop_names[op] : "?";
}

static int same_row(const mf_kiss2_row *a, const mf_kiss2_row *b)
{
    return a->from == b->from && a->to == b->to && strcmp(a->in, b->in) == 0 &&
           strcmp(a->out, b->out) == 0;
}

/* The row's site: "PRESENT INPUTS", "#n" on the n-th row (n >= 2) of the
 * same present state and input cube. */
static void row_site(mf_buf *out, const mf_kiss2 *k, int i)
{
    const mf_kiss2_row *r = &k->rows[i];
    int n = 1;
    for (int j = 0; j < i; j++)
        n += k->rows[j].from == r->from && strcmp(k->rows[j].in, r->in) == 0;
    mf_buf_puts(out, r->from == MF_KISS2_ANY ? "*" : k->states[r->from]);
    if (k->ni > 0)
        mf_buf_printf(out, " %s", r->in);
    if (n > 1)
        mf_buf_printf(out, "#%d", n);
}

static int emit(mf_kiss2_mutant *mu, const char *site, const char *repl,
                mf_kiss2_mutant_fn fn, void *ctx)
{
    mu->site = site;
    mu->repl = repl;
    mf_mutant_id(mu->id, mf_kop_names[mu->op], site, repl);
    return fn(mu, ctx);
}

int mf_kiss2_mutants_each(const mf_kiss2 *k, unsigned mask,
                          mf_kiss2_mutant_fn fn, void *ctx)
{
    if (mask == 0)
        mask = (1u << MF_KOP__COUNT) - 1;
    mf_buf site = {0}, sub = {0};
    char prev_missing[17] = "";
    int rc = 0;
    for (int i = 0; i < k->nrows && rc == 0; i++) {
        const mf_kiss2_row *r = &k->rows[i];
        if (r->to == MF_KISS2_ANY) { /* no transition: nothing to mutate */
            prev_missing[0] = '\0';
            continue;
        }
        mf_buf_reset(&site);
        row_site(&site, k, i);
        mf_kiss2_mutant mu = {.row = i};
        if (mask & (1u << MF_KOP_OUTPUT)) {
            mu.op = MF_KOP_OUTPUT;
            for (int j = 0; j < k->no && rc == 0; j++) {
                mu.bit = j;
                mf_buf_reset(&sub);
                mf_buf_printf(&sub, "%s/out%d", site.data, j);
                for (char v = '0'; v <= '1' && rc == 0; v++) {
                    if (r->out[j] == v)
                        continue;
                    mu.value = v;
                    char repl[2] = {v, '\0'};
                    rc = emit(&mu, sub.data, repl, fn, ctx);
                }
            }
        }
        if ((mask & (1u << MF_KOP_TRANSFER)) && rc == 0) {
            mu.op = MF_KOP_TRANSFER;
            mu.bit = 0;
            mu.value = 0;
            for (int s = 0; s < k->nstates && rc == 0; s++) {
                if (s == r->to)
                    continue;
                mu.to = s;
                rc = emit(&mu, site.data, k->states[s], fn, ctx);
            }
        }
        if ((mask & (1u << MF_KOP_MISSING)) && rc == 0) {
            mf_kiss2_mutant m2 = {.op = MF_KOP_MISSING, .row = i};
            /* Removing any row of a run of identical rows leaves the same
             * table: the first removal stands for the run. */
            if (i > 0 && same_row(&k->rows[i - 1], r) && prev_missing[0])
                memcpy(m2.dup_of, prev_missing, sizeof m2.dup_of);
            rc = emit(&m2, site.data, "", fn, ctx);
            memcpy(prev_missing, m2.dup_of[0] ? m2.dup_of : m2.id,
                   sizeof prev_missing);
        } else {
            prev_missing[0] = '\0';
        }
    }
    mf_buf_free(&site);
    mf_buf_free(&sub);
    return rc;
}

mf_kiss2 *mf_kiss2_apply(const mf_kiss2 *k, const mf_kiss2_mutant *mu)
{
    mf_arena *a = mf_arena_new();
    mf_kiss2 *c = mf_arena_alloc(a, sizeof *c);
    *c = *k;
    c->arena = a;
    c->file = mf_arena_strdup(a, k->file);
    c->states = mf_arena_alloc(a, (size_t)k->nstates * sizeof *c->states);
    for (int i = 0; i < k->nstates; i++)
        c->states[i] = mf_arena_strdup(a, k->states[i]);
    c->rows = mf_arena_alloc(a, (size_t)k->nrows * sizeof *c->rows);
    c->nrows = 0;
    for (int i = 0; i < k->nrows; i++) {
        mf_kiss2_row r = k->rows[i];
        if (i == mu->row && mu->op == MF_KOP_MISSING)
            continue;
        r.in = mf_arena_strdup(a, r.in);
        char *out = mf_arena_strdup(a, r.out);
        if (i == mu->row && mu->op == MF_KOP_OUTPUT)
            out[mu->bit] = mu->value;
        if (i == mu->row && mu->op == MF_KOP_TRANSFER)
            r.to = mu->to;
        r.out = out;
        c->rows[c->nrows++] = r;
    }
    return c;
}

/* The item of DEFINE `name` in m. */
static int define_item(const mf_model *m, const char *fmt, int a, int b)
{
    char name[64];
    snprintf(name, sizeof name, fmt, a, b);
    return mf_model_find_define(m, name);
}

int mf_kiss2_mutant_item(int *item, mf_item **out, mf_arena *a,
                         const mf_model *m, const mf_kiss2 *k,
                         const mf_kiss2_mutant *mu)
{
    int it = -1;
    switch (mu->op) {
    case MF_KOP_OUTPUT: it = define_item(m, "y%d_%d", mu->row, mu->bit); break;
    case MF_KOP_TRANSFER: it = define_item(m, "t%d", mu->row, 0); break;
    case MF_KOP_MISSING: it = define_item(m, "r%d", mu->row, 0); break;
    default: break;
    }
    if (it < 0)
        return mf_err_set(MF_ENOTFOUND, "%s: mutant %s: its row has no "
                          "item in the model", k->file, mu->id);
    const mf_item *orig = &m->items[it];
    /* The struct and its expression in a; the DEFINE's name is the
     * model's, as the SMV mutants' are (mf_mutant_find copies the item
     * shallowly and keeps the name). */
    mf_item *n = mf_arena_alloc(a, sizeof *n);
    *n = *orig;
    mf_expr *e = mf_expr_new(a, MF_E_BOOL, orig->e->line, orig->e->col);
    if (mu->op == MF_KOP_OUTPUT) {
        e->ival = mu->value == '1';
    } else if (mu->op == MF_KOP_TRANSFER) {
        /* The translation numbers the states (smv.c). */
        e->kind = MF_E_INT;
        e->ival = mu->to;
    } else {
        e->ival = 0;
    }
    n->e = e;
    *item = it;
    *out = n;
    return 0;
}

void mf_kiss2_mutant_desc(mf_buf *out, const mf_kiss2 *k,
                          const mf_kiss2_mutant *mu)
{
    const mf_kiss2_row *r = &k->rows[mu->row];
    mf_buf_printf(out, "line %d: ", r->line);
    switch (mu->op) {
    case MF_KOP_OUTPUT:
        mf_buf_printf(out, "output bit %d %c -> %c", mu->bit, r->out[mu->bit],
                      mu->value);
        break;
    case MF_KOP_TRANSFER:
        mf_buf_printf(out, "next state %s -> %s", k->states[r->to],
                      k->states[mu->to]);
        break;
    default:
        mf_buf_puts(out, "row removed");
        break;
    }
}

void mf_kiss2_mutant_print(mf_buf *out, const mf_kiss2 *k,
                           const mf_kiss2_mutant *mu)
{
    mf_kiss2 *c = mf_kiss2_apply(k, mu);
    mf_buf_printf(out, ".i %d\n.o %d\n.p %d\n.s %d\n.r %s\n", c->ni, c->no,
                  c->nrows, c->nstates, c->states[c->reset]);
    for (int i = 0, ci = 0; i < k->nrows; i++) {
        if (i == mu->row) {
            mf_buf_printf(out, "# mutant %s (%s): ", mu->id,
                          mf_kop_names[mu->op]);
            mf_kiss2_mutant_desc(out, k, mu);
            mf_buf_puts(out, "\n");
            if (mu->op == MF_KOP_MISSING) {
                mf_buf_puts(out, "# ");
                mf_kiss2_print_row(out, k, &k->rows[i]);
                mf_buf_puts(out, "\n");
                continue;
            }
        }
        mf_kiss2_print_row(out, c, &c->rows[ci++]);
        mf_buf_puts(out, "\n");
    }
    mf_buf_puts(out, ".e\n");
    mf_kiss2_free(c);
}
