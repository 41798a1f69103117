/* mutate.c - the mutation engine (mutate.h): walks every item of a flattened
 * model in order, applies each operator of docs/operators.md at every
 * expression node in pre-order, and hands each mutant to a callback.
 *
 * A mutant's new item is a path copy: the ancestors of the mutated node are
 * copied shallowly into a per-mutant arena, everything else is shared with
 * the original model. Duplicates are found by a SHA-256 of (item index,
 * canonical print of the new item) kept in an open-addressing set, so
 * memory stays at 24 bytes per mutant. Nothing here interprets the model's
 * semantics: type errors of a mutated item are mf_model_check_item()'s call.
 *
 * Site paths: ITEM "/" STEPS, where ITEM is "init(x)", "next(x)", "x :=",
 * "DEFINE d" or "INIT#k"/"TRANS#k"/"INVAR#k" (k-th constraint of that kind,
 * 1-based), and STEPS are the edges from the item's expression down to the
 * node, joined by ".": "bN.g"/"bN.v" (guard/value of case branch N, 1-based),
 * "l"/"r" (binary operands), "0", "1", ... (other kids by index). The root
 * is the empty path ("next(x)/"); an item removal has the bare ITEM as site. */
#include "mutate.h"
#include "word.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mop_names[MF_MOP__COUNT] = {
    "case-remove",    "case-swap",         "assign-remove",
    "init-remove",    "constraint-remove", "negate",
    "logic-op",       "arith-op",          "rel-op",
    "stuck-at",       "guard-true",        "term-remove",
    "assoc-shift",    "var-replace",       "enum-replace",
    "number-replace", "digit-replace",     "word-bitwise-op",
    "word-shift-op",  "word-bit-flip",     "word-select-shift",
};

const char *mf_mop_name(mf_mop op)
{
    if ((int)op < 0 || op >= MF_MOP__COUNT)
        return "?";
    return mop_names[op];
}

int mf_mop_from_name(const char *name)
{
    for (int i = 0; i < MF_MOP__COUNT; i++)
        if (strcmp(name, mop_names[i]) == 0)
            return i;
    return -1;
}

int mf_mop_parse_list(unsigned *mask, const char *list)
{
    unsigned m = 0;
    const char *p = list;
    *mask = 0;
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *s = p;
        while (*p && *p != ',' && !isspace((unsigned char)*p))
            p++;
        char name[64];
        size_t n = (size_t)(p - s);
        if (n >= sizeof(name))
            n = sizeof(name) - 1;
        memcpy(name, s, n);
        name[n] = '\0';
        if (strcmp(name, "all") == 0) {
            m |= (1u << MF_MOP__COUNT) - 1;
            continue;
        }
        int op = mf_mop_from_name(name);
        if (op < 0) {
            mf_buf known = {0};
            for (int i = 0; i < MF_MOP__COUNT; i++)
                mf_buf_printf(&known, "%s%s", i ? " " : "", mop_names[i]);
            int rc = mf_err_set(MF_ERROR,
                                "unknown mutation operator '%s' (known: %s)",
                                name, known.data);
            mf_buf_free(&known);
            return rc;
        }
        m |= 1u << op;
    }
    if (m == 0)
        return mf_err_set(MF_ERROR, "empty list of mutation operators");
    *mask = m;
    return 0;
}

/* ---- the duplicate set */

typedef struct {
    uint64_t h0, h1; /* 16 bytes of SHA-256; h0 == h1 == 0 marks a free slot */
    uint64_t id;     /* the first twin's id as a number */
} dup_entry;

typedef struct {
    dup_entry *v;
    size_t n, cap; /* cap is a power of two */
} dup_set;

static uint64_t hex_u64(const char *s)
{
    uint64_t x = 0;
    for (int i = 0; i < 16; i++) {
        char c = s[i];
        x = x << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return x;
}

static void dup_grow(dup_set *s)
{
    size_t ncap = s->cap ? 2 * s->cap : 1024;
    dup_entry *nv = mf_xcalloc(ncap, sizeof(*nv));
    for (size_t i = 0; i < s->cap; i++) {
        dup_entry *e = &s->v[i];
        if (!e->h0 && !e->h1)
            continue;
        size_t j = (size_t)e->h0 & (ncap - 1);
        while (nv[j].h0 || nv[j].h1)
            j = (j + 1) & (ncap - 1);
        nv[j] = *e;
    }
    free(s->v);
    s->v = nv;
    s->cap = ncap;
}

/* Insert (h0, h1) with id; if present, return its entry and insert nothing. */
static const dup_entry *dup_insert(dup_set *s, uint64_t h0, uint64_t h1,
                                   uint64_t id)
{
    if (!h0 && !h1)
        h1 = 1;
    if (2 * (s->n + 1) > s->cap)
        dup_grow(s);
    size_t j = (size_t)h0 & (s->cap - 1);
    while (s->v[j].h0 || s->v[j].h1) {
        if (s->v[j].h0 == h0 && s->v[j].h1 == h1)
            return &s->v[j];
        j = (j + 1) & (s->cap - 1);
    }
    s->v[j].h0 = h0;
    s->v[j].h1 = h1;
    s->v[j].id = id;
    s->n++;
    return NULL;
}

/* ---- expression types (just enough to pick operators) */

typedef enum { T_UNK, T_BOOL, T_INT, T_SYM, T_ARR } tkind;

static tkind type_kind(const mf_type *t)
{
    if (!t)
        return T_UNK;
    switch (t->kind) {
    case MF_TY_BOOL:
        return T_BOOL;
    case MF_TY_RANGE:
        return T_INT;
    case MF_TY_ARRAY:
        return T_ARR;
    case MF_TY_ENUM:
        for (int i = 0; i < t->nvals; i++)
            if (MF_IS_SYM(t->vals[i]))
                return T_SYM;
        return T_INT;
    }
    return T_UNK;
}

/* The declared type of a variable reference (x, next(x), a[i], or a DEFINE
 * that is one of those), or NULL. */
static const mf_type *var_type_of(const mf_model *m, const mf_expr *e,
                                  int depth)
{
    if (!e || depth > 64)
        return NULL;
    switch (e->kind) {
    case MF_E_ID:
        if (e->ref_kind == MF_REF_VAR && e->ref >= 0 && e->ref < m->nvars)
            return m->vars[e->ref].type;
        if (e->ref_kind == MF_REF_DEFINE && e->ref >= 0 && e->ref < m->nitems)
            return var_type_of(m, m->items[e->ref].e, depth + 1);
        return NULL;
    case MF_E_NEXT:
        return e->nkids == 1 ? var_type_of(m, e->kids[0], depth + 1) : NULL;
    case MF_E_INDEX: {
        if (e->nkids != 2)
            return NULL;
        const mf_type *t = var_type_of(m, e->kids[0], depth + 1);
        return t && t->kind == MF_TY_ARRAY ? t->elem : NULL;
    }
    default:
        return NULL;
    }
}

static tkind infer(const mf_model *m, const mf_expr *e, int depth)
{
    if (!e || depth > 64)
        return T_UNK;
    const mf_type *vt = var_type_of(m, e, depth);
    if (vt)
        return type_kind(vt);
    if (e->wty)
        return T_INT; /* a word: a number for the operators' choices */
    switch (e->kind) {
    case MF_E_BOOL:
        return T_BOOL;
    case MF_E_WORD:
        return T_INT;
    case MF_E_INT:
    case MF_E_NEG:
    case MF_E_RANGE:
        return T_INT;
    case MF_E_SYM:
        return T_SYM;
    case MF_E_ID:
        if (e->ref_kind == MF_REF_DEFINE && e->ref >= 0 && e->ref < m->nitems)
            return infer(m, m->items[e->ref].e, depth + 1);
        return T_UNK;
    case MF_E_NEXT:
    case MF_E_SET:
        return e->nkids > 0 ? infer(m, e->kids[0], depth + 1) : T_UNK;
    case MF_E_NOT:
        return T_BOOL;
    case MF_E_BIN:
        switch ((mf_binop)e->op) {
        case MF_OP_ADD:
        case MF_OP_SUB:
        case MF_OP_MUL:
        case MF_OP_DIV:
        case MF_OP_MOD:
            return T_INT;
        case MF_OP_UNION: {
            tkind k = infer(m, e->kids[0], depth + 1);
            return k != T_UNK ? k : infer(m, e->kids[1], depth + 1);
        }
        default:
            return T_BOOL;
        }
    case MF_E_CASE:
        for (int i = 1; i < e->nkids; i += 2) {
            tkind k = infer(m, e->kids[i], depth + 1);
            if (k != T_UNK)
                return k;
        }
        return T_UNK;
    case MF_E_ITE: {
        if (e->nkids != 3)
            return T_UNK;
        tkind k = infer(m, e->kids[1], depth + 1);
        return k != T_UNK ? k : infer(m, e->kids[2], depth + 1);
    }
    case MF_E_CALL:
        return e->op == MF_FN_BOOL ? T_BOOL : T_INT;
    case MF_E_INDEX:
        return T_UNK;
    }
    return T_UNK;
}

/* ---- the enumerator */

typedef struct {
    const mf_expr *node; /* an ancestor of the visited node */
    int kid;             /* which of its kids leads down */
    size_t pathlen;      /* length of the path before this step */
} frame;

typedef struct {
    unsigned cond : 1;     /* guard, logical operand, ?: condition */
    unsigned guard : 1;    /* a case guard */
    unsigned boolval : 1;  /* boolean value position (negate applies) */
    const mf_type *target; /* type assigned to / compared with, or NULL */
} ctx;

typedef struct {
    const mf_model *m;
    unsigned mask;
    mf_mutant_fn fn;
    mf_mutant_pick pick; /* NULL: every mutant goes to fn */
    int ids_only;        /* a first pass: ids only, picked ones set hit */
    int hit;             /* the current item holds a picked mutant */
    void *cb;
    int rc;    /* non-zero: stop, return this */
    int index; /* current item */
    const mf_item *item;
    mf_buf itemname; /* "next(wtr)" */
    mf_buf path;     /* steps from the item's root to the visited node */
    MF_VEC(frame) frames;
    uint64_t orig_h0, orig_h1; /* key of the unmutated current item */
    dup_set dups;
    /* scratch, reused across mutants */
    mf_buf site, repl, desc, key, tmp, tmp2, why;
    char dup_id[17];
} enumst;

static int want(const enumst *st, mf_mop op)
{
    return st->rc == 0 && (st->mask & (1u << op));
}

/* One line of at most ~60 characters of an expression's print. */
static void snip(mf_buf *out, const mf_model *m, const mf_expr *e)
{
    mf_buf t = {0};
    mf_print_expr(&t, m, e);
    size_t n = 0;
    int sp = 0;
    for (size_t i = 0; i < t.len; i++) {
        char c = t.data[i];
        if (isspace((unsigned char)c)) {
            sp = n > 0;
            continue;
        }
        if (n >= 60) {
            mf_buf_puts(out, " ...");
            break;
        }
        if (sp)
            mf_buf_put(out, " ", 1), n++;
        sp = 0;
        mf_buf_put(out, &c, 1);
        n++;
    }
    mf_buf_free(&t);
}

static void key_hash(const mf_buf *key, uint64_t *h0, uint64_t *h1)
{
    char hex[65];
    mf_sha256_hex(hex, key->data, key->len);
    *h0 = hex_u64(hex);
    *h1 = hex_u64(hex + 16);
}

static void item_key(mf_buf *key, const mf_model *m, int index,
                     const mf_item *it)
{
    mf_buf_reset(key);
    mf_buf_printf(key, "%d\n", index);
    if (it)
        mf_print_item(key, m, it);
    else
        mf_buf_puts(key, "<removed>");
}

/* Report one mutant: st->site, st->repl and st->desc are filled in; new_e is
 * the new root expression of the item (from `a`), or NULL for a removal. */
static void emit(enumst *st, mf_mop op, mf_arena *a, mf_expr *new_e, int line,
                 int col)
{
    const mf_model *m = st->m;
    mf_mutant mu;
    memset(&mu, 0, sizeof(mu));
    mu.op = op;
    mu.item = st->index;
    mu.site = st->site.data ? st->site.data : "";
    mu.repl = st->repl.data ? st->repl.data : "";
    mu.desc = st->desc.data ? st->desc.data : "";
    mu.line = line;
    mu.col = col;

    mf_buf_reset(&st->tmp);
    const char *name = mop_names[op];
    mf_buf_put(&st->tmp, name, strlen(name) + 1);
    mf_buf_put(&st->tmp, mu.site, strlen(mu.site) + 1);
    mf_buf_put(&st->tmp, mu.repl, strlen(mu.repl));
    char hex[65];
    mf_sha256_hex(hex, st->tmp.data, st->tmp.len);
    memcpy(mu.id, hex, 16);
    mu.id[16] = '\0';

    if (st->ids_only) {
        if (st->pick(mu.id, st->cb))
            st->hit = 1;
        return;
    }

    /* A mutant the caller does not want still goes into the duplicate
     * set (a wanted one may be its twin), but skips the type check, which
     * is most of the enumeration's cost on a large model. */
    int picked = !st->pick || st->pick(mu.id, st->cb);

    mf_item *it = NULL;
    if (new_e) {
        it = mf_arena_alloc(a, sizeof(*it));
        *it = *st->item;
        it->e = new_e;
    }
    mu.new_item = it;

    uint64_t h0, h1;
    item_key(&st->key, m, st->index, it);
    key_hash(&st->key, &h0, &h1);
    if (it && h0 == st->orig_h0 && h1 == st->orig_h1) {
        mu.status = MF_MUT_DUPLICATE;
        mu.dup_of = "original";
    } else {
        const dup_entry *d = dup_insert(&st->dups, h0, h1, hex_u64(mu.id));
        if (d) {
            mu.status = MF_MUT_DUPLICATE;
            snprintf(st->dup_id, sizeof(st->dup_id), "%016llx",
                     (unsigned long long)d->id);
            mu.dup_of = st->dup_id;
        } else if (picked && it && mf_model_check_item(m, it) != 0) {
            mu.status = MF_MUT_STILLBORN;
            mf_buf_reset(&st->why);
            mf_buf_puts(&st->why, mf_err_msg());
            mu.why = st->why.data;
        }
    }
    if (picked)
        st->rc = st->fn(&mu, st->cb);
}

static mf_expr *shallow(mf_arena *a, const mf_expr *e)
{
    mf_expr *c = mf_arena_alloc(a, sizeof(*c));
    *c = *e;
    if (e->nkids > 0) {
        c->kids = mf_arena_alloc(a, (size_t)e->nkids * sizeof(*c->kids));
        memcpy(c->kids, e->kids, (size_t)e->nkids * sizeof(*c->kids));
    }
    return c;
}

/* The item's new root when the node at frame depth `depth` (0 = root) of the
 * current path is replaced by r. */
static mf_expr *path_copy(enumst *st, mf_arena *a, int depth, mf_expr *r)
{
    mf_expr *cur = r;
    for (int i = depth - 1; i >= 0; i--) {
        mf_expr *p = shallow(a, st->frames.v[i].node);
        p->kids[st->frames.v[i].kid] = cur;
        cur = p;
    }
    return cur;
}

static void site_of(enumst *st, size_t pathlen, const char *extra)
{
    mf_buf_reset(&st->site);
    mf_buf_printf(&st->site, "%s/", st->itemname.data);
    mf_buf_put(&st->site, st->path.data ? st->path.data : "", pathlen);
    if (extra)
        mf_buf_printf(&st->site, "%s%s", pathlen ? "." : "", extra);
}

static void step_name(char *out, size_t n, const mf_expr *parent, int k)
{
    if (parent->kind == MF_E_CASE)
        snprintf(out, n, "b%d.%c", k / 2 + 1, k % 2 ? 'v' : 'g');
    else if (parent->kind == MF_E_BIN)
        snprintf(out, n, "%c", k ? 'r' : 'l');
    else
        snprintf(out, n, "%d", k);
}

static void push(enumst *st, const mf_expr *node, int k)
{
    frame f = {node, k, st->path.len};
    MF_VEC_PUSH(st->frames, f);
    char step[32];
    step_name(step, sizeof(step), node, k);
    if (st->path.len)
        mf_buf_puts(&st->path, ".");
    mf_buf_puts(&st->path, step);
}

static void pop(enumst *st)
{
    frame f = st->frames.v[--st->frames.n];
    st->path.len = f.pathlen;
    if (st->path.data)
        st->path.data[f.pathlen] = '\0';
}

/* A replacement of the visited node (at the top of the frame stack) by r:
 * site is the node's path, desc "replace `old` with `new` at site". */
static void emit_replace(enumst *st, mf_mop op, mf_arena *a, const mf_expr *e,
                         mf_expr *r)
{
    site_of(st, st->path.len, NULL);
    mf_buf_reset(&st->desc);
    mf_buf_puts(&st->desc, "replace `");
    snip(&st->desc, st->m, e);
    mf_buf_puts(&st->desc, "` with `");
    snip(&st->desc, st->m, r);
    mf_buf_printf(&st->desc, "` at %s", st->site.data);
    emit(st, op, a, path_copy(st, a, st->frames.n, r), e->line, e->col);
}

static int is_logic(int op)
{
    return op == MF_OP_AND || op == MF_OP_OR || op == MF_OP_XOR ||
           op == MF_OP_XNOR || op == MF_OP_IMPLIES || op == MF_OP_IFF;
}
static int is_arith(int op)
{
    return op == MF_OP_ADD || op == MF_OP_SUB || op == MF_OP_MUL ||
           op == MF_OP_DIV || op == MF_OP_MOD;
}
static int is_rel(int op)
{
    return op == MF_OP_EQ || op == MF_OP_NE || op == MF_OP_LT ||
           op == MF_OP_LE || op == MF_OP_GT || op == MF_OP_GE;
}

static void op_replace(enumst *st, mf_mop mop, const mf_expr *e, const int *ops,
                       int nops)
{
    for (int i = 0; i < nops && st->rc == 0; i++) {
        if (ops[i] == e->op)
            continue;
        mf_arena *a = mf_arena_new();
        mf_expr *r = shallow(a, e);
        r->op = ops[i];
        mf_buf_reset(&st->repl);
        mf_buf_puts(&st->repl, mf_binop_str((mf_binop)ops[i]));
        emit_replace(st, mop, a, e, r);
        mf_arena_free(a);
    }
}

/* Case branch removal and adjacent swaps at case node e. */
static void case_ops(enumst *st, const mf_expr *e)
{
    int nb = e->nkids / 2;
    if (want(st, MF_MOP_CASE_REMOVE) && nb > 1) {
        for (int b = 0; b < nb && st->rc == 0; b++) {
            mf_arena *a = mf_arena_new();
            mf_expr *r = shallow(a, e);
            for (int k = 2 * b; k + 2 < e->nkids; k++)
                r->kids[k] = e->kids[k + 2];
            r->nkids -= 2;
            char extra[32];
            snprintf(extra, sizeof(extra), "b%d", b + 1);
            site_of(st, st->path.len, extra);
            mf_buf_reset(&st->repl);
            mf_buf_puts(&st->repl, "<removed>");
            mf_buf_reset(&st->desc);
            mf_buf_printf(&st->desc, "remove branch %d `", b + 1);
            snip(&st->desc, st->m, e->kids[2 * b]);
            mf_buf_puts(&st->desc, " : ");
            snip(&st->desc, st->m, e->kids[2 * b + 1]);
            mf_buf_printf(&st->desc, "` at %s", st->site.data);
            const mf_expr *g = e->kids[2 * b];
            emit(st, MF_MOP_CASE_REMOVE, a, path_copy(st, a, st->frames.n, r),
                 g->line, g->col);
            mf_arena_free(a);
        }
    }
    if (want(st, MF_MOP_CASE_SWAP)) {
        for (int b = 0; b + 1 < nb && st->rc == 0; b++) {
            mf_arena *a = mf_arena_new();
            mf_expr *r = shallow(a, e);
            r->kids[2 * b] = e->kids[2 * b + 2];
            r->kids[2 * b + 1] = e->kids[2 * b + 3];
            r->kids[2 * b + 2] = e->kids[2 * b];
            r->kids[2 * b + 3] = e->kids[2 * b + 1];
            site_of(st, st->path.len, NULL);
            mf_buf_reset(&st->repl);
            mf_buf_printf(&st->repl, "swap(%d,%d)", b + 1, b + 2);
            mf_buf_reset(&st->desc);
            mf_buf_printf(&st->desc, "swap branches %d and %d at %s", b + 1,
                          b + 2, st->site.data);
            const mf_expr *g = e->kids[2 * b];
            emit(st, MF_MOP_CASE_SWAP, a, path_copy(st, a, st->frames.n, r),
                 g->line, g->col);
            mf_arena_free(a);
        }
    }
}

/* Item-level removals at the root of the current item. */
static void item_remove(enumst *st, mf_mop op)
{
    const mf_item *it = st->item;
    mf_buf_reset(&st->site);
    mf_buf_puts(&st->site, st->itemname.data);
    mf_buf_reset(&st->repl);
    mf_buf_puts(&st->repl, "<removed>");
    mf_buf_reset(&st->desc);
    mf_buf_printf(&st->desc, "remove `%s ", st->itemname.data);
    if (it->kind == MF_IT_INIT || it->kind == MF_IT_NEXT)
        mf_buf_puts(&st->desc, ":= ");
    snip(&st->desc, st->m, it->e);
    mf_buf_puts(&st->desc, "`");
    emit(st, op, NULL, NULL, it->line, it->col);
}

/* Top-level conjuncts of a constraint: walk the & tree from the root and
 * remove each leaf (its parent & is replaced by the sibling). */
static void conjuncts(enumst *st, const mf_expr *e)
{
    if (st->rc)
        return;
    if (e->kind == MF_E_BIN && e->op == MF_OP_AND && e->nkids == 2) {
        for (int k = 0; k < 2 && st->rc == 0; k++) {
            push(st, e, k);
            conjuncts(st, e->kids[k]);
            pop(st);
        }
        return;
    }
    /* e is a leaf at depth frames.n; its parent is frames.v[n-1]. */
    int d = st->frames.n;
    const frame *pf = &st->frames.v[d - 1];
    mf_arena *a = mf_arena_new();
    mf_expr *sib = pf->node->kids[1 - pf->kid];
    site_of(st, st->path.len, NULL);
    mf_buf_reset(&st->repl);
    mf_buf_puts(&st->repl, "<removed>");
    mf_buf_reset(&st->desc);
    mf_buf_puts(&st->desc, "remove conjunct `");
    snip(&st->desc, st->m, e);
    mf_buf_printf(&st->desc, "` of %s", st->itemname.data);
    emit(st, MF_MOP_CONSTR_REMOVE, a, path_copy(st, a, d - 1, sib), e->line,
         e->col);
    mf_arena_free(a);
}

static void number_candidates(int64_t c, const mf_type *t, int64_t *out, int *n)
{
    int64_t cand[4] = {0, 1, c + 1, c - 1};
    *n = 0;
    for (int i = 0; i < 4; i++) {
        int64_t v = cand[i];
        if (t && (t->kind == MF_TY_RANGE || t->kind == MF_TY_ARRAY)) {
            if (v < t->lo)
                v = t->lo;
            if (v > t->hi)
                v = t->hi;
        } else if (t && t->kind == MF_TY_ENUM && type_kind(t) == T_INT) {
            int in = 0;
            for (int j = 0; j < t->nvals; j++)
                in |= t->vals[j] == v;
            if (!in)
                continue;
        }
        if (v == c)
            continue;
        int seen = 0;
        for (int j = 0; j < *n; j++)
            seen |= out[j] == v;
        if (!seen)
            out[(*n)++] = v;
    }
}

static void leaf_replace(enumst *st, mf_mop op, const mf_expr *e, mf_expr *r,
                         mf_arena *a)
{
    mf_buf_reset(&st->repl);
    mf_print_expr(&st->repl, st->m, r);
    emit_replace(st, op, a, e, r);
}

static void word_flip_ops(enumst *st, const mf_expr *e);

static void value_ops(enumst *st, const mf_expr *e, ctx c)
{
    const mf_model *m = st->m;
    if (e->kind == MF_E_WORD)
        word_flip_ops(st, e);
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR &&
        want(st, MF_MOP_VAR_REPLACE)) {
        const mf_type *t = m->vars[e->ref].type;
        for (int v = 0; v < m->nvars && st->rc == 0; v++) {
            if (v == e->ref || !mf_type_equal(t, m->vars[v].type))
                continue;
            mf_arena *a = mf_arena_new();
            mf_expr *r = shallow(a, e);
            r->ref = v;
            r->name = m->vars[v].name;
            leaf_replace(st, MF_MOP_VAR_REPLACE, e, r, a);
            mf_arena_free(a);
        }
    }
    if (e->kind == MF_E_SYM && want(st, MF_MOP_ENUM_REPLACE)) {
        int si = mf_model_find_sym(m, e->name);
        mf_val sv = si >= 0 ? MF_SYM(si) : -1;
        MF_VEC(mf_val) cands = {0};
        const mf_type *t = c.target;
        int in_target = 0;
        if (t && t->kind == MF_TY_ENUM && si >= 0)
            for (int j = 0; j < t->nvals; j++)
                in_target |= t->vals[j] == sv;
        if (in_target) {
            for (int j = 0; j < t->nvals; j++)
                if (t->vals[j] != sv)
                    MF_VEC_PUSH(cands, t->vals[j]);
        } else if (si >= 0) {
            /* Unknown type: every literal sharing some enumeration with it. */
            for (int v = 0; v < m->nvars; v++) {
                const mf_type *vt = mf_type_scalar(m->vars[v].type);
                if (!vt || vt->kind != MF_TY_ENUM)
                    continue;
                int has = 0;
                for (int j = 0; j < vt->nvals; j++)
                    has |= vt->vals[j] == sv;
                if (!has)
                    continue;
                for (int j = 0; j < vt->nvals; j++) {
                    mf_val x = vt->vals[j];
                    int seen = x == sv || !MF_IS_SYM(x);
                    for (int k = 0; k < cands.n && !seen; k++)
                        seen = cands.v[k] == x;
                    if (!seen)
                        MF_VEC_PUSH(cands, x);
                }
            }
        }
        for (int j = 0; j < cands.n && st->rc == 0; j++) {
            mf_arena *a = mf_arena_new();
            mf_expr *r = shallow(a, e);
            if (MF_IS_SYM(cands.v[j])) {
                r->name = m->syms[cands.v[j] - MF_SYM_BASE];
            } else {
                r->kind = MF_E_INT;
                r->name = NULL;
                r->ival = cands.v[j];
            }
            leaf_replace(st, MF_MOP_ENUM_REPLACE, e, r, a);
            mf_arena_free(a);
        }
        MF_VEC_FREE(cands);
    }
    if (e->kind == MF_E_INT && want(st, MF_MOP_NUMBER_REPLACE)) {
        int64_t cand[4];
        int n;
        number_candidates(e->ival, c.target, cand, &n);
        for (int j = 0; j < n && st->rc == 0; j++) {
            mf_arena *a = mf_arena_new();
            mf_expr *r = shallow(a, e);
            r->ival = cand[j];
            leaf_replace(st, MF_MOP_NUMBER_REPLACE, e, r, a);
            mf_arena_free(a);
        }
    }
    if (e->kind == MF_E_INT && want(st, MF_MOP_DIGIT_REPLACE) &&
        (e->ival >= 10 || e->ival <= -10)) {
        char digits[32];
        uint64_t mag =
            e->ival < 0 ? (uint64_t)0 - (uint64_t)e->ival : (uint64_t)e->ival;
        snprintf(digits, sizeof(digits), "%llu", (unsigned long long)mag);
        int nd = (int)strlen(digits);
        for (int p = 0; p < nd && st->rc == 0; p++) {
            int d = digits[p] - '0';
            int nds[2] = {(d + 1) % 10, (d + 9) % 10};
            for (int q = 0; q < 2 && st->rc == 0; q++) {
                if (p == 0 && nds[q] == 0)
                    continue;
                char nv[32];
                memcpy(nv, digits, sizeof(nv));
                nv[p] = (char)('0' + nds[q]);
                unsigned long long x = strtoull(nv, NULL, 10);
                if (x > (unsigned long long)INT64_MAX)
                    continue;
                mf_arena *a = mf_arena_new();
                mf_expr *r = shallow(a, e);
                r->ival = e->ival < 0 ? -(int64_t)x : (int64_t)x;
                leaf_replace(st, MF_MOP_DIGIT_REPLACE, e, r, a);
                mf_arena_free(a);
            }
        }
    }
}

static void visit(enumst *st, const mf_expr *e, ctx c);

/* w[h:l] moved by one bit either way, its width kept, where it stays within
 * the word (the bit positions are its kids 1 and 2). */
static void select_ops(enumst *st, const mf_expr *e)
{
    int w = MF_WTY_WIDTH(e->kids[0]->wty);
    for (int d = 1; d >= -1 && want(st, MF_MOP_WORD_SELECT); d -= 2) {
        int64_t hi = e->kids[1]->ival + d, lo = e->kids[2]->ival + d;
        if (lo < 0 || hi >= w)
            continue;
        mf_arena *a = mf_arena_new();
        mf_expr *r = shallow(a, e);
        r->kids[1] = mf_expr_int(a, hi, e->kids[1]->line, e->kids[1]->col);
        r->kids[2] = mf_expr_int(a, lo, e->kids[2]->line, e->kids[2]->col);
        mf_buf_reset(&st->repl);
        mf_buf_printf(&st->repl, "[%lld:%lld]", (long long)hi, (long long)lo);
        emit_replace(st, MF_MOP_WORD_SELECT, a, e, r);
        mf_arena_free(a);
    }
}

/* A word constant with bit 0, bit 1 or its highest bit flipped: the low
 * bits catch off-by-one and parity slips, the highest the sign or range. */
static void word_flip_ops(enumst *st, const mf_expr *e)
{
    int w = MF_WTY_WIDTH(e->wty);
    int bits[3] = {0, 1, w - 1};
    for (int i = 0; i < 3 && want(st, MF_MOP_WORD_BIT_FLIP); i++) {
        if (bits[i] >= w || (i == 2 && w - 1 <= 1))
            continue;
        mf_arena *a = mf_arena_new();
        mf_expr *r = shallow(a, e);
        r->ival = mf_word_norm(e->wty, mf_word_bits(e->wty, e->ival) ^
                                           ((uint64_t)1 << bits[i]));
        leaf_replace(st, MF_MOP_WORD_BIT_FLIP, e, r, a);
        mf_arena_free(a);
    }
}

static void node_ops(enumst *st, const mf_expr *e, ctx c)
{
    const mf_model *m = st->m;
    int root = st->frames.n == 0;
    const mf_item *it = st->item;
    /* a node at line 0 was made by the front-end, not written (a process's
     * guard, model/process.c): only its item may be removed */
    int made = e->line == 0;

    if (e->kind == MF_E_CASE && !made)
        case_ops(st, e);
    if (root && it->kind != MF_IT_INIT && it->kind != MF_IT_DEFINE &&
        it->kind != MF_IT_INIT_C && it->kind != MF_IT_TRANS_C &&
        it->kind != MF_IT_INVAR_C && want(st, MF_MOP_ASSIGN_REMOVE))
        item_remove(st, MF_MOP_ASSIGN_REMOVE);
    if (root && it->kind == MF_IT_INIT && want(st, MF_MOP_INIT_REMOVE))
        item_remove(st, MF_MOP_INIT_REMOVE);
    if (root &&
        (it->kind == MF_IT_INIT_C || it->kind == MF_IT_TRANS_C ||
         it->kind == MF_IT_INVAR_C) &&
        want(st, MF_MOP_CONSTR_REMOVE)) {
        if (e->kind == MF_E_BIN && e->op == MF_OP_AND)
            conjuncts(st, e);
        else
            item_remove(st, MF_MOP_CONSTR_REMOVE);
    }
    if (made)
        return;
    if ((c.cond || c.boolval) && e->kind != MF_E_BOOL &&
        want(st, MF_MOP_NEGATE) && infer(m, e, 0) == T_BOOL) {
        mf_arena *a = mf_arena_new();
        mf_expr *r;
        if (e->kind == MF_E_NOT && e->nkids == 1)
            r = e->kids[0];
        else
            r = mf_expr_un(a, MF_E_NOT, (mf_expr *)e);
        mf_buf_reset(&st->repl);
        mf_buf_puts(&st->repl, "!");
        emit_replace(st, MF_MOP_NEGATE, a, e, r);
        mf_arena_free(a);
    }
    if (e->kind == MF_E_BIN && is_logic(e->op) && e->wty &&
        want(st, MF_MOP_WORD_BITWISE)) {
        static const int ops[] = {MF_OP_AND, MF_OP_OR, MF_OP_XOR, MF_OP_XNOR};
        op_replace(st, MF_MOP_WORD_BITWISE, e, ops, 4);
    }
    if (e->kind == MF_E_BIN && (e->op == MF_OP_SHL || e->op == MF_OP_SHR) &&
        want(st, MF_MOP_WORD_SHIFT)) {
        static const int ops[] = {MF_OP_SHL, MF_OP_SHR};
        op_replace(st, MF_MOP_WORD_SHIFT, e, ops, 2);
    }
    if (e->kind == MF_E_CALL && e->op == MF_FN_SELECT && e->nkids == 3)
        select_ops(st, e);
    if (e->kind == MF_E_BIN && is_logic(e->op) && !e->wty &&
        want(st, MF_MOP_LOGIC_OP)) {
        static const int ops[] = {MF_OP_AND,  MF_OP_OR,      MF_OP_XOR,
                                  MF_OP_XNOR, MF_OP_IMPLIES, MF_OP_IFF};
        op_replace(st, MF_MOP_LOGIC_OP, e, ops, 6);
    }
    if (e->kind == MF_E_BIN && is_arith(e->op) && want(st, MF_MOP_ARITH_OP)) {
        static const int ops[] = {MF_OP_ADD, MF_OP_SUB, MF_OP_MUL, MF_OP_DIV,
                                  MF_OP_MOD};
        op_replace(st, MF_MOP_ARITH_OP, e, ops, 5);
    }
    if (e->kind == MF_E_BIN && is_rel(e->op) && want(st, MF_MOP_REL_OP)) {
        static const int all[] = {MF_OP_EQ, MF_OP_NE, MF_OP_LT,
                                  MF_OP_LE, MF_OP_GT, MF_OP_GE};
        int ints = (e->op != MF_OP_EQ && e->op != MF_OP_NE) ||
                   (infer(m, e->kids[0], 0) == T_INT &&
                    infer(m, e->kids[1], 0) == T_INT);
        op_replace(st, MF_MOP_REL_OP, e, all, ints ? 6 : 2);
    }
    if (c.cond && want(st, MF_MOP_STUCK_AT)) {
        for (int v = 1; v >= 0 && st->rc == 0; v--) {
            if (e->kind == MF_E_BOOL && e->ival == v)
                continue;
            mf_arena *a = mf_arena_new();
            mf_expr *r = mf_expr_bool(a, v, e->line, e->col);
            mf_buf_reset(&st->repl);
            mf_buf_puts(&st->repl, v ? "TRUE" : "FALSE");
            emit_replace(st, MF_MOP_STUCK_AT, a, e, r);
            mf_arena_free(a);
        }
    }
    if (c.guard && !(e->kind == MF_E_BOOL && e->ival == 1) &&
        want(st, MF_MOP_GUARD_TRUE)) {
        mf_arena *a = mf_arena_new();
        mf_expr *r = mf_expr_bool(a, 1, e->line, e->col);
        mf_buf_reset(&st->repl);
        mf_buf_puts(&st->repl, "TRUE");
        emit_replace(st, MF_MOP_GUARD_TRUE, a, e, r);
        mf_arena_free(a);
    }
    if (e->kind == MF_E_BIN && (e->op == MF_OP_AND || e->op == MF_OP_OR) &&
        want(st, MF_MOP_TERM_REMOVE)) {
        /* Site: the removed operand; the node becomes the other one. */
        for (int k = 0; k < 2 && st->rc == 0; k++) {
            mf_arena *a = mf_arena_new();
            push(st, e, k);
            site_of(st, st->path.len, NULL);
            pop(st);
            mf_buf_reset(&st->repl);
            mf_buf_puts(&st->repl, "<removed>");
            mf_buf_reset(&st->desc);
            mf_buf_printf(&st->desc, "remove %s `",
                          e->op == MF_OP_AND ? "conjunct" : "disjunct");
            snip(&st->desc, m, e->kids[k]);
            mf_buf_printf(&st->desc, "` at %s", st->site.data);
            emit(st, MF_MOP_TERM_REMOVE, a,
                 path_copy(st, a, st->frames.n, e->kids[1 - k]),
                 e->kids[k]->line, e->kids[k]->col);
            mf_arena_free(a);
        }
    }
    if (e->kind == MF_E_BIN && (e->op == MF_OP_AND || e->op == MF_OP_OR) &&
        want(st, MF_MOP_ASSOC_SHIFT)) {
        int o1 = e->op, o2 = o1 == MF_OP_AND ? MF_OP_OR : MF_OP_AND;
        const char *s1 = mf_binop_str((mf_binop)o1);
        const char *s2 = mf_binop_str((mf_binop)o2);
        const mf_expr *l = e->kids[0], *r = e->kids[1];
        if (l->kind == MF_E_BIN && l->op == o2 && st->rc == 0) {
            /* (a o2 b) o1 c -> a o2 (b o1 c) */
            mf_arena *a = mf_arena_new();
            mf_expr *inner =
                mf_expr_bin(a, (mf_binop)o1, l->kids[1], (mf_expr *)r);
            mf_expr *n = mf_expr_bin(a, (mf_binop)o2, l->kids[0], inner);
            n->line = e->line;
            n->col = e->col;
            mf_buf_reset(&st->repl);
            mf_buf_printf(&st->repl, "a%s(b%sc)", s2, s1);
            emit_replace(st, MF_MOP_ASSOC_SHIFT, a, e, n);
            mf_arena_free(a);
        }
        if (r->kind == MF_E_BIN && r->op == o2 && st->rc == 0) {
            /* a o1 (b o2 c) -> (a o1 b) o2 c */
            mf_arena *a = mf_arena_new();
            mf_expr *inner =
                mf_expr_bin(a, (mf_binop)o1, (mf_expr *)l, r->kids[0]);
            mf_expr *n = mf_expr_bin(a, (mf_binop)o2, inner, r->kids[1]);
            n->line = e->line;
            n->col = e->col;
            mf_buf_reset(&st->repl);
            mf_buf_printf(&st->repl, "(a%sb)%sc", s1, s2);
            emit_replace(st, MF_MOP_ASSOC_SHIFT, a, e, n);
            mf_arena_free(a);
        }
    }
    value_ops(st, e, c);
}

static void visit_kid(enumst *st, const mf_expr *e, int k, ctx c)
{
    if (st->rc || !e->kids[k])
        return;
    push(st, e, k);
    visit(st, e->kids[k], c);
    pop(st);
}

static void visit(enumst *st, const mf_expr *e, ctx c)
{
    if (st->rc)
        return;
    node_ops(st, e, c);
    ctx none = {0, 0, 0, NULL};
    switch (e->kind) {
    case MF_E_CASE: /* conditions (guards) at even positions */
    case MF_E_ITE:  /* the condition first */
        for (int k = 0; k < e->nkids; k++) {
            ctx kc = none;
            int is_case = e->kind == MF_E_CASE;
            if (is_case ? k % 2 == 0 : k == 0) {
                kc.cond = 1;
                kc.guard = is_case;
            } else {
                kc.boolval = c.boolval;
                kc.target = c.target;
            }
            visit_kid(st, e, k, kc);
        }
        break;
    case MF_E_BIN:
        for (int k = 0; k < e->nkids; k++) {
            ctx kc = none;
            if (is_logic(e->op)) {
                kc.cond = 1;
            } else if (is_rel(e->op) || e->op == MF_OP_IN) {
                kc.target = var_type_of(st->m, e->kids[1 - k], 0);
                if (k == 1 && e->op == MF_OP_IN)
                    kc.target = var_type_of(st->m, e->kids[0], 0);
                else if (k == 0 && e->op == MF_OP_IN)
                    kc.target = NULL;
                if (kc.target)
                    kc.target = mf_type_scalar(kc.target);
            } else if (e->op == MF_OP_UNION) {
                kc.target = c.target;
            }
            visit_kid(st, e, k, kc);
        }
        break;
    case MF_E_SET:
    case MF_E_RANGE:
        for (int k = 0; k < e->nkids; k++) {
            ctx kc = none;
            kc.target = c.target;
            visit_kid(st, e, k, kc);
        }
        break;
    case MF_E_INDEX:
        for (int k = 0; k < e->nkids; k++) {
            ctx kc = none;
            if (k == 1) {
                const mf_type *at = var_type_of(st->m, e->kids[0], 0);
                kc.target = at && at->kind == MF_TY_ARRAY ? at : NULL;
            }
            visit_kid(st, e, k, kc);
        }
        break;
    case MF_E_CALL:
        /* a word function's other kids are its widths and bit positions:
         * word-select-shift moves a selection; a changed width would only
         * make a stillborn mutant */
        for (int k = 0; k < (e->op >= MF_FN_WORD1 ? 1 : e->nkids); k++)
            visit_kid(st, e, k, none);
        break;
    default:
        for (int k = 0; k < e->nkids; k++)
            visit_kid(st, e, k, none);
        break;
    }
}

static void item_name(mf_buf *out, const mf_model *m, const mf_item *it,
                      const int counts[3])
{
    mf_buf_reset(out);
    switch (it->kind) {
    case MF_IT_DEFINE:
        mf_buf_printf(out, "DEFINE %s", it->name ? it->name : "?");
        break;
    case MF_IT_INIT:
        mf_buf_puts(out, "init(");
        mf_print_expr(out, m, it->lhs);
        mf_buf_puts(out, ")");
        break;
    case MF_IT_NEXT:
        mf_buf_puts(out, "next(");
        mf_print_expr(out, m, it->lhs);
        mf_buf_puts(out, ")");
        break;
    case MF_IT_ASSIGN:
        mf_print_expr(out, m, it->lhs);
        mf_buf_puts(out, " :=");
        break;
    case MF_IT_INIT_C:
        mf_buf_printf(out, "INIT#%d", counts[0]);
        break;
    case MF_IT_TRANS_C:
        mf_buf_printf(out, "TRANS#%d", counts[1]);
        break;
    case MF_IT_INVAR_C:
        mf_buf_printf(out, "INVAR#%d", counts[2]);
        break;
    }
}

int mf_mutants_each(const mf_model *m, unsigned mask, mf_mutant_fn fn,
                    void *cbctx)
{
    return mf_mutants_pick(m, mask, NULL, fn, cbctx);
}

/* One pass over the items of st->m: every item's mutants, or with
 * `only` just those of the items i with only[i]; with st->ids_only, each
 * item whose mutants include a picked id gets hits[i] = 1. */
static void enum_items(enumst *st, const unsigned char *only,
                       unsigned char *hits)
{
    const mf_model *m = st->m;
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < m->nitems && st->rc == 0; i++) {
        const mf_item *it = &m->items[i];
        if (it->kind == MF_IT_INIT_C)
            counts[0]++;
        else if (it->kind == MF_IT_TRANS_C)
            counts[1]++;
        else if (it->kind == MF_IT_INVAR_C)
            counts[2]++;
        if (!it->e || (only && !only[i]))
            continue;
        st->index = i;
        st->item = it;
        st->hit = 0;
        item_name(&st->itemname, m, it, counts);
        item_key(&st->key, m, i, it);
        key_hash(&st->key, &st->orig_h0, &st->orig_h1);
        mf_buf_reset(&st->path);
        st->frames.n = 0;

        ctx c = {0, 0, 0, NULL};
        switch (it->kind) {
        case MF_IT_INIT:
        case MF_IT_NEXT:
        case MF_IT_ASSIGN:
            if (it->var >= 0 && it->var < m->nvars) {
                c.target = mf_type_scalar(m->vars[it->var].type);
                c.boolval = c.target && c.target->kind == MF_TY_BOOL;
            }
            break;
        case MF_IT_DEFINE:
            c.boolval = infer(m, it->e, 0) == T_BOOL;
            break;
        default:
            c.boolval = 1;
            break;
        }
        visit(st, it->e, c);
        if (hits)
            hits[i] = (unsigned char)st->hit;
    }
}

int mf_mutants_pick(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                    mf_mutant_fn fn, void *cbctx)
{
    enumst st;
    memset(&st, 0, sizeof(st));
    st.m = m;
    st.mask = mask ? mask : (1u << MF_MOP__COUNT) - 1;
    st.fn = fn;
    st.pick = pick;
    st.cb = cbctx;
    unsigned char *hits = NULL;
    if (pick) {
        /* Duplicates are twins within one item (the key holds the item's
         * index): a first pass of ids alone finds the items that hold a
         * picked mutant, and only those are classified. */
        hits = mf_xcalloc((size_t)(m->nitems ? m->nitems : 1), 1);
        st.ids_only = 1;
        enum_items(&st, NULL, hits);
        st.ids_only = 0;
    }
    enum_items(&st, hits, NULL);
    free(hits);
    int rc = st.rc;
    free(st.dups.v);
    MF_VEC_FREE(st.frames);
    mf_buf_free(&st.itemname);
    mf_buf_free(&st.path);
    mf_buf_free(&st.site);
    mf_buf_free(&st.repl);
    mf_buf_free(&st.desc);
    mf_buf_free(&st.key);
    mf_buf_free(&st.tmp);
    mf_buf_free(&st.tmp2);
    mf_buf_free(&st.why);
    return rc;
}

/* ---- find, apply, print */

typedef struct {
    const char *prefix;
    size_t plen;
    mf_mutant *found;
    int nfound;
} find_ctx;

static const char *dup_str(mf_arena *a, const char *s)
{
    return s ? mf_arena_strdup(a, s) : NULL;
}

static int find_pick(const char *id, void *vctx)
{
    const find_ctx *f = vctx;
    return strncmp(id, f->prefix, f->plen) == 0;
}

static int find_cb(const mf_mutant *mu, void *vctx)
{
    find_ctx *f = vctx;
    if (strncmp(mu->id, f->prefix, f->plen) != 0)
        return 0;
    if (++f->nfound > 1)
        return 1;
    mf_mutant *c = mf_xcalloc(1, sizeof(*c));
    *c = *mu;
    c->arena = mf_arena_new();
    c->site = dup_str(c->arena, mu->site);
    c->repl = dup_str(c->arena, mu->repl);
    c->desc = dup_str(c->arena, mu->desc);
    c->dup_of = dup_str(c->arena, mu->dup_of);
    c->why = dup_str(c->arena, mu->why);
    if (mu->new_item) {
        mf_item *it = mf_arena_alloc(c->arena, sizeof(*it));
        *it = *mu->new_item;
        it->e = mf_expr_copy(c->arena, mu->new_item->e);
        c->new_item = it;
    }
    f->found = c;
    return 0;
}

int mf_mutant_find(mf_mutant **out, const mf_model *m, const char *prefix)
{
    *out = NULL;
    size_t n = strlen(prefix);
    int ok = n >= 4 && n <= 16;
    char low[17] = {0};
    for (size_t i = 0; ok && i < n; i++) {
        if (!isxdigit((unsigned char)prefix[i]))
            ok = 0;
        else
            low[i] = (char)tolower((unsigned char)prefix[i]);
    }
    if (!ok)
        return mf_err_set(MF_ENOTFOUND,
                          "'%s' is not a mutant id (4 to 16 hex digits)",
                          prefix);
    find_ctx f = {low, n, NULL, 0};
    mf_mutants_pick(m, 0, find_pick, find_cb, &f);
    if (f.nfound > 1) {
        mf_mutant_free(f.found);
        return mf_err_set(MF_EAMBIGUOUS, "mutant id prefix '%s' is ambiguous",
                          prefix);
    }
    if (!f.found)
        return mf_err_set(MF_ENOTFOUND, "no mutant %s in %s", prefix,
                          m->file ? m->file : "the model");
    *out = f.found;
    return 0;
}

void mf_mutant_free(mf_mutant *mu)
{
    if (!mu)
        return;
    mf_arena_free(mu->arena);
    free(mu);
}

int mf_mutant_apply(mf_model **out, const mf_model *m, const mf_mutant *mu)
{
    return mf_model_replace_item(out, m, mu->item, mu->new_item);
}

/* Split text into lines (pointers into it, each without its '\n'). */
typedef MF_VEC(const char *) line_vec;
static void split_lines(line_vec *v, const char *s)
{
    while (*s) {
        MF_VEC_PUSH(*v, s);
        const char *nl = strchr(s, '\n');
        if (!nl)
            break;
        s = nl + 1;
    }
}

static size_t line_len(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? (size_t)(nl - s) : strlen(s);
}

static int line_eq(const char *a, const char *b)
{
    size_t la = line_len(a), lb = line_len(b);
    return la == lb && memcmp(a, b, la) == 0;
}

/* Marks the changed span by diffing the prints of the original and the
 * mutated model line by line (common prefix and suffix), which needs no
 * knowledge of the printer's layout. */
void mf_mutant_print(mf_buf *out, const mf_model *m, const mf_mutant *mu)
{
    mf_model *mm = NULL;
    if (mf_mutant_apply(&mm, m, mu) != 0) {
        mf_buf_printf(out, "-- mutant %s (%s): cannot apply: %s\n", mu->id,
                      mf_mop_name(mu->op), mf_err_msg());
        return;
    }
    mf_buf a = {0}, b = {0};
    mf_print_model(&a, m);
    mf_print_model(&b, mm);
    line_vec la = {0}, lb = {0};
    split_lines(&la, a.data ? a.data : "");
    split_lines(&lb, b.data ? b.data : "");
    int pre = 0;
    while (pre < la.n && pre < lb.n && line_eq(la.v[pre], lb.v[pre]))
        pre++;
    int suf = 0;
    while (suf < la.n - pre && suf < lb.n - pre &&
           line_eq(la.v[la.n - 1 - suf], lb.v[lb.n - 1 - suf]))
        suf++;
    /* Indent the markers like the first changed line. */
    const char *ref = pre < lb.n ? lb.v[pre] : (pre < la.n ? la.v[pre] : "");
    int ind = 0;
    while (ref[ind] == ' ')
        ind++;
    for (int i = 0; i < pre; i++) {
        mf_buf_put(out, lb.v[i], line_len(lb.v[i]));
        mf_buf_puts(out, "\n");
    }
    mf_buf_printf(out, "%*s-- mutant %s (%s): %s", ind, "", mu->id,
                  mf_mop_name(mu->op), mu->desc ? mu->desc : "");
    if (mu->status == MF_MUT_DUPLICATE)
        mf_buf_printf(out, " [duplicate of %s]", mu->dup_of);
    else if (mu->status == MF_MUT_STILLBORN)
        mf_buf_puts(out, " [stillborn]");
    mf_buf_puts(out, "\n");
    for (int i = pre; i < lb.n - suf; i++) {
        mf_buf_put(out, lb.v[i], line_len(lb.v[i]));
        mf_buf_puts(out, "\n");
    }
    mf_buf_printf(out, "%*s-- end of mutant %s\n", ind, "", mu->id);
    for (int i = lb.n - suf; i < lb.n; i++) {
        mf_buf_put(out, lb.v[i], line_len(lb.v[i]));
        mf_buf_puts(out, "\n");
    }
    MF_VEC_FREE(la);
    MF_VEC_FREE(lb);
    mf_buf_free(&a);
    mf_buf_free(&b);
    mf_model_free(mm);
}
