/* encode_word.c - NuSMV's word operators as Z3 terms (docs/killing.md,
 * "Words"), over operands encode_expr.c has already encoded.
 *
 * A word's value is the integer it denotes (model/word.h), held in the
 * encoding's one value sort like every other value. An operator takes the
 * operand's N low bits as an N-bit bit-vector (an extract of a bit-vector
 * value, int2bv of an Int), computes at N bits, where Z3's bvadd, bvmul,
 * bvsdiv, bvshl, ... wrap exactly as NuSMV's words do, and reads the result
 * back as the result type's integer (a zero or sign extension, or bv2int).
 * So the words cost nothing in the interval analysis: a word value never
 * exceeds its type's range, whatever the operator computed. This file makes
 * no decision about definedness beyond the shifts' range and evaluates no
 * subexpression (encode_expr.c does both). */
#include "encode_int.h"

/* The N low bits of value term v. */
static Z3_ast to_bv(mf_enc *E, Z3_ast v, int n)
{
    if (E->bvw)
        return K(Z3_mk_extract(E->c, (unsigned)n - 1, 0, v));
    return K(Z3_mk_int2bv(E->c, (unsigned)n, v));
}

/* The value of the N-bit vector b read as type wty. */
static Z3_ast from_bv(mf_enc *E, Z3_ast b, int wty)
{
    int n = MF_WTY_WIDTH(wty), sg = MF_WTY_SIGNED(wty);
    if (!E->bvw)
        return K(Z3_mk_bv2int(E->c, b, sg));
    if (E->bvw == n)
        return b;
    return K(sg ? Z3_mk_sign_ext(E->c, (unsigned)(E->bvw - n), b)
                : Z3_mk_zero_ext(E->c, (unsigned)(E->bvw - n), b));
}

Z3_ast mf_enc_word_bin(mf_enc *E, int op, int wa, Z3_ast a, int wb, Z3_ast b,
                       Z3_ast *def)
{
    Z3_context c = E->c;
    int n = MF_WTY_WIDTH(wa), sg = MF_WTY_SIGNED(wa);
    Z3_ast x = to_bv(E, a, n), y, r;
    if (op == MF_OP_CONCAT) {
        r = K(Z3_mk_concat(c, x, to_bv(E, b, MF_WTY_WIDTH(wb))));
        return from_bv(E, r, MF_WTY(n + MF_WTY_WIDTH(wb), 0));
    }
    if (op == MF_OP_SHL || op == MF_OP_SHR) {
        /* NuSMV: the amount is in 0..N, else no value; b's N low bits are
         * the amount wherever it is */
        *def = and2(E, le(E, num(E, 0), b), le(E, b, num(E, n)));
        y = to_bv(E, b, n);
        r = K(op == MF_OP_SHL ? Z3_mk_bvshl(c, x, y)
              : sg            ? Z3_mk_bvashr(c, x, y)
                              : Z3_mk_bvlshr(c, x, y));
        return from_bv(E, r, wa);
    }
    y = to_bv(E, b, n);
    switch (op) {
    case MF_OP_ADD:
        r = K(Z3_mk_bvadd(c, x, y));
        break;
    case MF_OP_SUB:
        r = K(Z3_mk_bvsub(c, x, y));
        break;
    case MF_OP_MUL:
        r = K(Z3_mk_bvmul(c, x, y));
        break;
    case MF_OP_DIV: /* a zero divisor is undefined (encode_expr.c) */
        r = K(sg ? Z3_mk_bvsdiv(c, x, y) : Z3_mk_bvudiv(c, x, y));
        break;
    case MF_OP_MOD:
        r = K(sg ? Z3_mk_bvsrem(c, x, y) : Z3_mk_bvurem(c, x, y));
        break;
    case MF_OP_AND:
        r = K(Z3_mk_bvand(c, x, y));
        break;
    case MF_OP_OR:
        r = K(Z3_mk_bvor(c, x, y));
        break;
    case MF_OP_XOR:
        r = K(Z3_mk_bvxor(c, x, y));
        break;
    case MF_OP_XNOR:
    case MF_OP_IFF:
        r = K(Z3_mk_bvxnor(c, x, y));
        break;
    case MF_OP_IMPLIES:
        r = K(Z3_mk_bvor(c, K(Z3_mk_bvnot(c, x)), y));
        break;
    default:
        return num(E, 0);
    }
    return from_bv(E, r, wa);
}

Z3_ast mf_enc_word_un(mf_enc *E, int is_not, int wty, Z3_ast a)
{
    Z3_ast x = to_bv(E, a, MF_WTY_WIDTH(wty));
    return from_bv(E, K(is_not ? Z3_mk_bvnot(E->c, x) : Z3_mk_bvneg(E->c, x)),
                   wty);
}

Z3_ast mf_enc_word_cast(mf_enc *E, int fn, int wres, int wa, Z3_ast a, int hi,
                        int lo)
{
    Z3_context c = E->c;
    int n = MF_WTY_WIDTH(wres), m = MF_WTY_WIDTH(wa);
    switch (fn) {
    case MF_FN_SIZEOF:
        return num(E, m);
    case MF_FN_SIGNED:
    case MF_FN_UNSIGNED:
        return from_bv(E, to_bv(E, a, m), wres);
    case MF_FN_RESIZE: {
        if (n >= m)
            return a; /* zero or sign extension keeps the value */
        Z3_ast x = to_bv(E, a, m);
        if (!MF_WTY_SIGNED(wres))
            return from_bv(E, K(Z3_mk_extract(c, (unsigned)n - 1, 0, x)),
                           wres);
        /* signed: the old sign bit above bits N-2..0 */
        Z3_ast sign = K(Z3_mk_extract(c, (unsigned)m - 1, (unsigned)m - 1, x));
        if (n == 1)
            return from_bv(E, sign, wres);
        Z3_ast low = K(Z3_mk_extract(c, (unsigned)n - 2, 0, x));
        return from_bv(E, K(Z3_mk_concat(c, sign, low)), wres);
    }
    case MF_FN_SELECT:
        return from_bv(E,
                       K(Z3_mk_extract(c, (unsigned)hi, (unsigned)lo,
                                       to_bv(E, a, m))),
                       wres);
    default: /* extend, word1, uwconst, swconst: the value is kept */
        return a;
    }
}
