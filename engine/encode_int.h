/* encode_int.h - what the files of the Z3 encoding share and nothing else
 * includes: the encoder's state, the term builders every part of the encoding
 * uses, and the entry points one part offers another. The engines see only
 * encode.h.
 *
 * The parts, each using only those above it:
 *   encode_analysis.c  the model without Z3: value ranges (the width of the
 *                      bit-vectors), which expressions need a choice,
 *                      structural determinism;
 *   encode.c           the encoder: sorts, values, selector, fresh constants,
 *                      the terms encode.h offers the engines;
 *   encode_word.c      the word operators on encoded operands;
 *   encode_expr.c      expressions as (value, definedness) terms;
 *   encode_unroll.c    input tables and the state-by-state unrolling. */
#ifndef MF_ENCODE_INT_H
#define MF_ENCODE_INT_H

#include "encode.h"

/* Past this magnitude a value may not fit a bit-vector: the encoding stays
 * Int (encode_analysis.c). */
#define MF_ENC_RCAP ((int64_t)1 << 28)

/* An expression's encoding: its value and the condition that it has one
 * (the set it denotes is non-empty). */
typedef struct {
    Z3_ast v; /* value term (Int or bit-vector) */
    Z3_ast d; /* Bool: the set is non-empty */
} mf_enc_tv;

/* The states an expression reads: nslots terms each; next may be NULL
 * (next() is then not allowed), inp NULL (inputs read from cur). */
typedef struct {
    Z3_ast *cur, *next, *inp;
} mf_enc_ectx;

/* A cell a reference may denote, under the condition that it does. */
typedef struct {
    Z3_ast cond;
    int slot;
} mf_enc_cell;
typedef MF_VEC(mf_enc_cell) mf_enc_cellvec;

typedef MF_VEC(Z3_ast) mf_enc_astvec;

struct mf_enc {
    Z3_context c;
    const mf_model *m;
    int nmut;
    mf_variant *muts;
    int **at; /* per item: mutant indices replacing it, -1 terminated */
    Z3_ast_vector keep;   /* every term made: alive as long as E */
    Z3_sort isort, bsort; /* values, Booleans */
    Z3_ast tru, fls;
    Z3_ast mid;            /* the selector: which mutant a meta copy reads */
    int bvw;               /* bit-vector width of values, 0: Int */
    int64_t symbase;       /* code of symbolic constant 0 */
    int64_t undef;         /* a code no value has: an undefined observable */
    Z3_sort msort;         /* of `mid`: Int, or a bit-vector with bit-vectors */
    Z3_ast *sel;           /* per mutant: the assumption literal selecting it */
    int nobs;              /* observable terms per state */
    char unsupported[256]; /* the first construct not encoded, or "" */
    long fresh;            /* counter for fresh names */
    /* DEFINE cache, valid for one ectx */
    mf_enc_tv *dcache;
    int *dstamp;
    int stamp;
    int meta;               /* the copy being built reads variants */
    mf_enc_astvec *choices; /* where new choices go (current step) */
    char pfx[16];           /* unique per encoder: names of fresh constants */
};

/* ---- encode_analysis.c: the model alone ---------------------------- */

/* Largest magnitude of an integer value any expression of m or of the
 * variants' items can take, or MF_ENC_RCAP if it may pass it. */
int64_t mf_enc_max_magnitude(const mf_model *m, const mf_variant *muts,
                             int nmut);
/* Does e denote a set that needs a choice constant (through DEFINEs)? */
int mf_enc_has_choice(const mf_model *m, const mf_expr *e);

/* ---- encode.c: the encoder ----------------------------------------- */

/* Record the first construct the encoding cannot express faithfully (e may
 * be NULL); mf_enc_unsupported() reports it. */
void mf_enc_note_unsupported(mf_enc *E, const mf_expr *e, const char *what);
/* A fresh value constant, added to E->choices when a step is being built. */
Z3_ast mf_enc_new_choice(mf_enc *E);

/* ---- encode_expr.c: expressions ------------------------------------ */

/* Expression e over the states of x, reading the batch's variants of
 * DEFINEs when E->meta is set. */
mf_enc_tv mf_enc_value(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e);
/* The condition that t is defined and true (non-zero). */
Z3_ast mf_enc_is_true(mf_enc *E, mf_enc_tv t);
/* DEFINE item `item` over the states of x (variants as mf_enc_value). */
mf_enc_tv mf_enc_define(mf_enc *E, const mf_enc_ectx *x, int item);
/* The cells an assignment's left-hand side e names, appended to *out, each
 * under its condition; *def gets the condition that every index is in
 * bounds. 0, or -1 when the encoding does not support e (noted). */
int mf_enc_lhs_cells(mf_enc *E, const mf_enc_ectx *x, const mf_expr *e,
                     mf_enc_cellvec *out, Z3_ast *def);

/* ---- encode_word.c: word operators ----------------------------------- */
/* Each takes encoded operand values and gives the result's value term. */

/* a op b (mf_binop) on words of type wa; wb is b's word type for `::` and
 * shifts (0: b is an integer). For shifts *def gets the condition that the
 * amount is in 0..N; it is left alone otherwise. */
Z3_ast mf_enc_word_bin(mf_enc *E, int op, int wa, Z3_ast a, int wb, Z3_ast b,
                       Z3_ast *def);
/* !a (is_not) or -a on a word of type wty. */
Z3_ast mf_enc_word_un(mf_enc *E, int is_not, int wty, Z3_ast a);
/* A word function fn (mf_fn: signed, unsigned, resize, extend, word1,
 * uwconst, swconst, sizeof, select bits hi..lo) of a, of type wa, giving
 * type wres. */
Z3_ast mf_enc_word_cast(mf_enc *E, int fn, int wres, int wa, Z3_ast a, int hi,
                        int lo);

/* ---- Term builders -------------------------------------------------- */
/* Each keeps what it makes alive for E's lifetime. The Boolean ones fold
 * constants and identical arguments (return an existing term instead of
 * building one); mf_enc_and/not/eq in encode.h build exactly what is asked. */

/* K(x): keep x for the lifetime of the encoder `E` in scope. */
#define K(x) mf_enc_keep(E, (x))

static inline Z3_ast num(mf_enc *E, int64_t x)
{
    if (E->bvw)
        return K(Z3_mk_unsigned_int64(
            E->c, (uint64_t)x & (((uint64_t)1 << E->bvw) - 1), E->isort));
    return K(Z3_mk_int64(E->c, x, E->isort));
}

/* Order and negation on values: Int or signed bit-vector. */
static inline Z3_ast lt(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return K(E->bvw ? Z3_mk_bvslt(E->c, a, b) : Z3_mk_lt(E->c, a, b));
}

static inline Z3_ast le(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return K(E->bvw ? Z3_mk_bvsle(E->c, a, b) : Z3_mk_le(E->c, a, b));
}

static inline Z3_ast neg(mf_enc *E, Z3_ast a)
{
    return K(E->bvw ? Z3_mk_bvneg(E->c, a) : Z3_mk_unary_minus(E->c, a));
}

/* a op b for `and` (unit true, zero false) or `or` (unit false, zero true),
 * mk the Z3 constructor. */
static inline Z3_ast
junction(mf_enc *E, Z3_ast unit, Z3_ast zero, Z3_ast a, Z3_ast b,
         Z3_ast (*mk)(Z3_context, unsigned, Z3_ast const[]))
{
    if (a == unit)
        return b;
    if (b == unit)
        return a;
    if (a == zero || b == zero)
        return zero;
    Z3_ast x[2] = {a, b};
    return K(mk(E->c, 2, x));
}

static inline Z3_ast and2(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return junction(E, E->tru, E->fls, a, b, Z3_mk_and);
}

static inline Z3_ast or2(mf_enc *E, Z3_ast a, Z3_ast b)
{
    return junction(E, E->fls, E->tru, a, b, Z3_mk_or);
}

static inline Z3_ast not1(mf_enc *E, Z3_ast a)
{
    if (a == E->tru)
        return E->fls;
    if (a == E->fls)
        return E->tru;
    return K(Z3_mk_not(E->c, a));
}

static inline Z3_ast ite(mf_enc *E, Z3_ast c, Z3_ast a, Z3_ast b)
{
    if (c == E->tru || a == b)
        return a;
    if (c == E->fls)
        return b;
    return K(Z3_mk_ite(E->c, c, a, b));
}

static inline Z3_ast eq(mf_enc *E, Z3_ast a, Z3_ast b)
{
    if (a == b)
        return E->tru;
    return K(Z3_mk_eq(E->c, a, b));
}

/* mid = j: mutant j is the variant a meta copy reads. */
static inline Z3_ast selected(mf_enc *E, int j)
{
    return eq(E, E->mid, K(Z3_mk_int(E->c, j, E->msort)));
}

#endif
