/* mutate_ops.c - the SMV mutation operators of docs/operators.md at one
 * expression node: case branches removed and swapped, items and conjuncts
 * removed, operators replaced, values, variables and literals replaced,
 * words' bits and selections shifted; then the node's kids, in pre-order.
 * The walk over items, ids and duplicates is mutate.c's. */
#include "mutator.h"
#include "word.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        mf_expr *r = mf_smvmut_shallow(a, e);
        r->op = ops[i];
        mf_buf_reset(&st->repl);
        mf_buf_puts(&st->repl, mf_binop_str((mf_binop)ops[i]));
        mf_smvmut_emit_replace(st, mop, a, e, r);
        mf_arena_free(a);
    }
}

/* Case branch removal and adjacent swaps at case node e. */
static void case_ops(enumst *st, const mf_expr *e)
{
    int nb = e->nkids / 2;
    if (mf_smvmut_want(st, MF_MOP_CASE_REMOVE) && nb > 1) {
        for (int b = 0; b < nb && st->rc == 0; b++) {
            mf_arena *a = mf_arena_new();
            mf_expr *r = mf_smvmut_shallow(a, e);
            for (int k = 2 * b; k + 2 < e->nkids; k++)
                r->kids[k] = e->kids[k + 2];
            r->nkids -= 2;
            char extra[32];
            snprintf(extra, sizeof(extra), "b%d", b + 1);
            mf_smvmut_site(st, st->path.len, extra);
            mf_buf_reset(&st->repl);
            mf_buf_puts(&st->repl, "<removed>");
            mf_buf_reset(&st->desc);
            mf_buf_printf(&st->desc, "remove branch %d `", b + 1);
            mf_smvmut_snip(&st->desc, st->m, e->kids[2 * b]);
            mf_buf_puts(&st->desc, " : ");
            mf_smvmut_snip(&st->desc, st->m, e->kids[2 * b + 1]);
            mf_buf_printf(&st->desc, "` at %s", st->site.data);
            const mf_expr *g = e->kids[2 * b];
            mf_smvmut_emit(st, MF_MOP_CASE_REMOVE, a,
                           mf_smvmut_path_copy(st, a, st->frames.n, r), g->line,
                           g->col);
            mf_arena_free(a);
        }
    }
    if (mf_smvmut_want(st, MF_MOP_CASE_SWAP)) {
        for (int b = 0; b + 1 < nb && st->rc == 0; b++) {
            mf_arena *a = mf_arena_new();
            mf_expr *r = mf_smvmut_shallow(a, e);
            r->kids[2 * b] = e->kids[2 * b + 2];
            r->kids[2 * b + 1] = e->kids[2 * b + 3];
            r->kids[2 * b + 2] = e->kids[2 * b];
            r->kids[2 * b + 3] = e->kids[2 * b + 1];
            mf_smvmut_site(st, st->path.len, NULL);
            mf_buf_reset(&st->repl);
            mf_buf_printf(&st->repl, "swap(%d,%d)", b + 1, b + 2);
            mf_buf_reset(&st->desc);
            mf_buf_printf(&st->desc, "swap branches %d and %d at %s", b + 1,
                          b + 2, st->site.data);
            const mf_expr *g = e->kids[2 * b];
            mf_smvmut_emit(st, MF_MOP_CASE_SWAP, a,
                           mf_smvmut_path_copy(st, a, st->frames.n, r), g->line,
                           g->col);
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
    mf_smvmut_snip(&st->desc, st->m, it->e);
    mf_buf_puts(&st->desc, "`");
    mf_smvmut_emit(st, op, NULL, NULL, it->line, it->col);
}

/* Top-level conjuncts of a constraint: walk the & tree from the root and
 * remove each leaf (its parent & is replaced by the sibling). */
static void conjuncts(enumst *st, const mf_expr *e)
{
    if (st->rc)
        return;
    if (e->kind == MF_E_BIN && e->op == MF_OP_AND && e->nkids == 2) {
        for (int k = 0; k < 2 && st->rc == 0; k++) {
            mf_smvmut_push(st, e, k);
            conjuncts(st, e->kids[k]);
            mf_smvmut_pop(st);
        }
        return;
    }
    /* e is a leaf at depth frames.n; its parent is frames.v[n-1]. */
    int d = st->frames.n;
    const frame *pf = &st->frames.v[d - 1];
    mf_arena *a = mf_arena_new();
    mf_expr *sib = pf->node->kids[1 - pf->kid];
    mf_smvmut_site(st, st->path.len, NULL);
    mf_buf_reset(&st->repl);
    mf_buf_puts(&st->repl, "<removed>");
    mf_buf_reset(&st->desc);
    mf_buf_puts(&st->desc, "remove conjunct `");
    mf_smvmut_snip(&st->desc, st->m, e);
    mf_buf_printf(&st->desc, "` of %s", st->itemname.data);
    mf_smvmut_emit(st, MF_MOP_CONSTR_REMOVE, a,
                   mf_smvmut_path_copy(st, a, d - 1, sib), e->line, e->col);
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
        } else if (t && t->kind == MF_TY_ENUM && mf_smvmut_tkind(t) == T_INT) {
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
    mf_smvmut_emit_replace(st, op, a, e, r);
}

static void word_flip_ops(enumst *st, const mf_expr *e);

static void value_ops(enumst *st, const mf_expr *e, ctx c)
{
    const mf_model *m = st->m;
    if (e->kind == MF_E_WORD)
        word_flip_ops(st, e);
    if (e->kind == MF_E_ID && e->ref_kind == MF_REF_VAR &&
        mf_smvmut_want(st, MF_MOP_VAR_REPLACE)) {
        const mf_type *t = m->vars[e->ref].type;
        for (int v = 0; v < m->nvars && st->rc == 0; v++) {
            if (v == e->ref || !mf_type_equal(t, m->vars[v].type))
                continue;
            mf_arena *a = mf_arena_new();
            mf_expr *r = mf_smvmut_shallow(a, e);
            r->ref = v;
            r->name = m->vars[v].name;
            leaf_replace(st, MF_MOP_VAR_REPLACE, e, r, a);
            mf_arena_free(a);
        }
    }
    if (e->kind == MF_E_SYM && mf_smvmut_want(st, MF_MOP_ENUM_REPLACE)) {
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
            mf_expr *r = mf_smvmut_shallow(a, e);
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
    if (e->kind == MF_E_INT && mf_smvmut_want(st, MF_MOP_NUMBER_REPLACE)) {
        int64_t cand[4];
        int n;
        number_candidates(e->ival, c.target, cand, &n);
        for (int j = 0; j < n && st->rc == 0; j++) {
            mf_arena *a = mf_arena_new();
            mf_expr *r = mf_smvmut_shallow(a, e);
            r->ival = cand[j];
            leaf_replace(st, MF_MOP_NUMBER_REPLACE, e, r, a);
            mf_arena_free(a);
        }
    }
    if (e->kind == MF_E_INT && mf_smvmut_want(st, MF_MOP_DIGIT_REPLACE) &&
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
                mf_expr *r = mf_smvmut_shallow(a, e);
                r->ival = e->ival < 0 ? -(int64_t)x : (int64_t)x;
                leaf_replace(st, MF_MOP_DIGIT_REPLACE, e, r, a);
                mf_arena_free(a);
            }
        }
    }
}

/* w[h:l] moved by one bit either way, its width kept, where it stays within
 * the word (the bit positions are its kids 1 and 2). */
static void select_ops(enumst *st, const mf_expr *e)
{
    int w = MF_WTY_WIDTH(e->kids[0]->wty);
    for (int d = 1; d >= -1 && mf_smvmut_want(st, MF_MOP_WORD_SELECT); d -= 2) {
        int64_t hi = e->kids[1]->ival + d, lo = e->kids[2]->ival + d;
        if (lo < 0 || hi >= w)
            continue;
        mf_arena *a = mf_arena_new();
        mf_expr *r = mf_smvmut_shallow(a, e);
        r->kids[1] = mf_expr_int(a, hi, e->kids[1]->line, e->kids[1]->col);
        r->kids[2] = mf_expr_int(a, lo, e->kids[2]->line, e->kids[2]->col);
        mf_buf_reset(&st->repl);
        mf_buf_printf(&st->repl, "[%lld:%lld]", (long long)hi, (long long)lo);
        mf_smvmut_emit_replace(st, MF_MOP_WORD_SELECT, a, e, r);
        mf_arena_free(a);
    }
}

/* A word constant with bit 0, bit 1 or its highest bit flipped: the low
 * bits catch off-by-one and parity slips, the highest the sign or range. */
static void word_flip_ops(enumst *st, const mf_expr *e)
{
    int w = MF_WTY_WIDTH(e->wty);
    int bits[3] = {0, 1, w - 1};
    for (int i = 0; i < 3 && mf_smvmut_want(st, MF_MOP_WORD_BIT_FLIP); i++) {
        if (bits[i] >= w || (i == 2 && w - 1 <= 1))
            continue;
        mf_arena *a = mf_arena_new();
        mf_expr *r = mf_smvmut_shallow(a, e);
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
        it->kind != MF_IT_INVAR_C && mf_smvmut_want(st, MF_MOP_ASSIGN_REMOVE))
        item_remove(st, MF_MOP_ASSIGN_REMOVE);
    if (root && it->kind == MF_IT_INIT &&
        mf_smvmut_want(st, MF_MOP_INIT_REMOVE))
        item_remove(st, MF_MOP_INIT_REMOVE);
    if (root &&
        (it->kind == MF_IT_INIT_C || it->kind == MF_IT_TRANS_C ||
         it->kind == MF_IT_INVAR_C) &&
        mf_smvmut_want(st, MF_MOP_CONSTR_REMOVE)) {
        if (e->kind == MF_E_BIN && e->op == MF_OP_AND)
            conjuncts(st, e);
        else
            item_remove(st, MF_MOP_CONSTR_REMOVE);
    }
    if (made)
        return;
    if ((c.cond || c.boolval) && e->kind != MF_E_BOOL &&
        mf_smvmut_want(st, MF_MOP_NEGATE) &&
        mf_smvmut_infer(m, e, 0) == T_BOOL) {
        mf_arena *a = mf_arena_new();
        mf_expr *r;
        if (e->kind == MF_E_NOT && e->nkids == 1)
            r = e->kids[0];
        else
            r = mf_expr_un(a, MF_E_NOT, (mf_expr *)e);
        mf_buf_reset(&st->repl);
        mf_buf_puts(&st->repl, "!");
        mf_smvmut_emit_replace(st, MF_MOP_NEGATE, a, e, r);
        mf_arena_free(a);
    }
    if (e->kind == MF_E_BIN && is_logic(e->op) && e->wty &&
        mf_smvmut_want(st, MF_MOP_WORD_BITWISE)) {
        static const int ops[] = {MF_OP_AND, MF_OP_OR, MF_OP_XOR, MF_OP_XNOR};
        op_replace(st, MF_MOP_WORD_BITWISE, e, ops, 4);
    }
    if (e->kind == MF_E_BIN && (e->op == MF_OP_SHL || e->op == MF_OP_SHR) &&
        mf_smvmut_want(st, MF_MOP_WORD_SHIFT)) {
        static const int ops[] = {MF_OP_SHL, MF_OP_SHR};
        op_replace(st, MF_MOP_WORD_SHIFT, e, ops, 2);
    }
    if (e->kind == MF_E_CALL && e->op == MF_FN_SELECT && e->nkids == 3)
        select_ops(st, e);
    if (e->kind == MF_E_BIN && is_logic(e->op) && !e->wty &&
        mf_smvmut_want(st, MF_MOP_LOGIC_OP)) {
        static const int ops[] = {MF_OP_AND,  MF_OP_OR,      MF_OP_XOR,
                                  MF_OP_XNOR, MF_OP_IMPLIES, MF_OP_IFF};
        op_replace(st, MF_MOP_LOGIC_OP, e, ops, 6);
    }
    if (e->kind == MF_E_BIN && is_arith(e->op) &&
        mf_smvmut_want(st, MF_MOP_ARITH_OP)) {
        static const int ops[] = {MF_OP_ADD, MF_OP_SUB, MF_OP_MUL, MF_OP_DIV,
                                  MF_OP_MOD};
        op_replace(st, MF_MOP_ARITH_OP, e, ops, 5);
    }
    if (e->kind == MF_E_BIN && is_rel(e->op) &&
        mf_smvmut_want(st, MF_MOP_REL_OP)) {
        static const int all[] = {MF_OP_EQ, MF_OP_NE, MF_OP_LT,
                                  MF_OP_LE, MF_OP_GT, MF_OP_GE};
        int ints = (e->op != MF_OP_EQ && e->op != MF_OP_NE) ||
                   (mf_smvmut_infer(m, e->kids[0], 0) == T_INT &&
                    mf_smvmut_infer(m, e->kids[1], 0) == T_INT);
        op_replace(st, MF_MOP_REL_OP, e, all, ints ? 6 : 2);
    }
    if (c.cond && mf_smvmut_want(st, MF_MOP_STUCK_AT)) {
        for (int v = 1; v >= 0 && st->rc == 0; v--) {
            if (e->kind == MF_E_BOOL && e->ival == v)
                continue;
            mf_arena *a = mf_arena_new();
            mf_expr *r = mf_expr_bool(a, v, e->line, e->col);
            mf_buf_reset(&st->repl);
            mf_buf_puts(&st->repl, v ? "TRUE" : "FALSE");
            mf_smvmut_emit_replace(st, MF_MOP_STUCK_AT, a, e, r);
            mf_arena_free(a);
        }
    }
    if (c.guard && !(e->kind == MF_E_BOOL && e->ival == 1) &&
        mf_smvmut_want(st, MF_MOP_GUARD_TRUE)) {
        mf_arena *a = mf_arena_new();
        mf_expr *r = mf_expr_bool(a, 1, e->line, e->col);
        mf_buf_reset(&st->repl);
        mf_buf_puts(&st->repl, "TRUE");
        mf_smvmut_emit_replace(st, MF_MOP_GUARD_TRUE, a, e, r);
        mf_arena_free(a);
    }
    if (e->kind == MF_E_BIN && (e->op == MF_OP_AND || e->op == MF_OP_OR) &&
        mf_smvmut_want(st, MF_MOP_TERM_REMOVE)) {
        /* Site: the removed operand; the node becomes the other one. */
        for (int k = 0; k < 2 && st->rc == 0; k++) {
            mf_arena *a = mf_arena_new();
            mf_smvmut_push(st, e, k);
            mf_smvmut_site(st, st->path.len, NULL);
            mf_smvmut_pop(st);
            mf_buf_reset(&st->repl);
            mf_buf_puts(&st->repl, "<removed>");
            mf_buf_reset(&st->desc);
            mf_buf_printf(&st->desc, "remove %s `",
                          e->op == MF_OP_AND ? "conjunct" : "disjunct");
            mf_smvmut_snip(&st->desc, m, e->kids[k]);
            mf_buf_printf(&st->desc, "` at %s", st->site.data);
            mf_smvmut_emit(
                st, MF_MOP_TERM_REMOVE, a,
                mf_smvmut_path_copy(st, a, st->frames.n, e->kids[1 - k]),
                e->kids[k]->line, e->kids[k]->col);
            mf_arena_free(a);
        }
    }
    if (e->kind == MF_E_BIN && (e->op == MF_OP_AND || e->op == MF_OP_OR) &&
        mf_smvmut_want(st, MF_MOP_ASSOC_SHIFT)) {
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
            mf_smvmut_emit_replace(st, MF_MOP_ASSOC_SHIFT, a, e, n);
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
            mf_smvmut_emit_replace(st, MF_MOP_ASSOC_SHIFT, a, e, n);
            mf_arena_free(a);
        }
    }
    value_ops(st, e, c);
}

static void visit_kid(enumst *st, const mf_expr *e, int k, ctx c)
{
    if (st->rc || !e->kids[k])
        return;
    mf_smvmut_push(st, e, k);
    mf_smvmut_visit(st, e->kids[k], c);
    mf_smvmut_pop(st);
}

void mf_smvmut_visit(enumst *st, const mf_expr *e, ctx c)
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
                kc.target = mf_smvmut_var_type(st->m, e->kids[1 - k], 0);
                if (k == 1 && e->op == MF_OP_IN)
                    kc.target = mf_smvmut_var_type(st->m, e->kids[0], 0);
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
                const mf_type *at = mf_smvmut_var_type(st->m, e->kids[0], 0);
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
