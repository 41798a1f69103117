/* word.c - word values and operators (word.h), as the NuSMV 2.6 manual
 * defines them (section 2.2, "Word Constant" to "Unsigned and Signed
 * Explicit Conversions"; summarised in docs/smv.md, "Words").
 *
 * Values are the integers the words denote (word.h); an operator takes the
 * operands' N bits, computes on them modulo 2^N and reads the result back
 * as the result type's integer. Widths are at most MF_WORD_MAX_WIDTH (32),
 * so every intermediate product fits in 64 bits. Type rules (which operand
 * types an operator takes, what type it gives) are typecheck.c's. */
#include "word.h"

#include <stdio.h>
#include <string.h>

static uint64_t mask(int width)
{
    return width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
}

int64_t mf_word_norm(int wty, uint64_t bits)
{
    int n = MF_WTY_WIDTH(wty);
    bits &= mask(n);
    if (MF_WTY_SIGNED(wty) && n > 0 && (bits >> (n - 1)) & 1)
        return (int64_t)bits - (int64_t)((uint64_t)1 << n);
    return (int64_t)bits;
}

uint64_t mf_word_bits(int wty, int64_t v)
{
    return (uint64_t)v & mask(MF_WTY_WIDTH(wty));
}

int mf_word_fits(int wty, int64_t v)
{
    int n = MF_WTY_WIDTH(wty);
    if (MF_WTY_SIGNED(wty))
        return v >= -((int64_t)1 << (n - 1)) && v < ((int64_t)1 << (n - 1));
    return v >= 0 && (uint64_t)v <= mask(n);
}

static int digit_of(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Returns -1 (an error) or -2 (a width mutfarm does not support). */
int mf_word_parse(int64_t *val, int *wty, const char *s, size_t n, char *err,
                  size_t errn)
{
    size_t i = 1;
    int is_signed = 0, base, bits_per_digit, width = 0, ndig = 0;
    uint64_t v = 0;
    *val = 0;
    *wty = 0;
    if (n < 3 || s[0] != '0')
        goto bad;
    if (s[i] == 'u' || s[i] == 's')
        is_signed = s[i++] == 's';
    switch (i < n ? s[i] : 0) {
    case 'b': case 'B': base = 2, bits_per_digit = 1; break;
    case 'o': case 'O': base = 8, bits_per_digit = 3; break;
    case 'd': case 'D': base = 10, bits_per_digit = 0; break;
    case 'h': case 'H': base = 16, bits_per_digit = 4; break;
    default: goto bad;
    }
    i++;
    if (i < n && s[i] >= '0' && s[i] <= '9') {
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (width > 1000) {
                snprintf(err, errn, "word width too large");
                return -2;
            }
            width = width * 10 + (s[i++] - '0');
        }
        if (width == 0) {
            snprintf(err, errn, "a word's width must be greater than 0");
            return -1;
        }
    }
    if (i >= n || s[i] != '_')
        goto bad;
    for (i++; i < n; i++) {
        if (s[i] == '_')
            continue;
        int d = digit_of(s[i]);
        if (d < 0 || d >= base) {
            snprintf(err, errn, "digit '%c' in a base-%d word constant", s[i],
                     base);
            return -1;
        }
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
            snprintf(err, errn, "word constant too large");
            return -2;
        }
        v = v * (uint64_t)base + (uint64_t)d;
        ndig++;
    }
    if (ndig == 0) {
        snprintf(err, errn, "word constant without digits");
        return -1;
    }
    if (!width) {
        if (!bits_per_digit) {
            snprintf(err, errn,
                     "a decimal word constant needs its width (0ud8_5)");
            return -1;
        }
        width = ndig * bits_per_digit;
    }
    if (width > MF_WORD_MAX_WIDTH) {
        snprintf(err, errn, "words wider than %d bits", MF_WORD_MAX_WIDTH);
        return -2;
    }
    /* NuSMV: the value is in 0 .. 2^N-1, or 0 .. 2^(N-1) for a signed
     * decimal constant (whose bits are then read as two's complement). */
    if (is_signed && base == 10 ? v > ((uint64_t)1 << (width - 1))
                                : v > mask(width)) {
        snprintf(err, errn, "value does not fit the word's %d bits", width);
        return -1;
    }
    *wty = MF_WTY(width, is_signed);
    *val = mf_word_norm(*wty, v);
    return 0;
bad:
    snprintf(err, errn, "malformed word constant");
    return -1;
}

void mf_word_print(mf_buf *out, int wty, int64_t v)
{
    int n = MF_WTY_WIDTH(wty);
    if (!MF_WTY_SIGNED(wty))
        mf_buf_printf(out, "0ud%d_%llu", n, (unsigned long long)v);
    else if (v >= 0)
        mf_buf_printf(out, "0sd%d_%lld", n, (long long)v);
    else
        mf_buf_printf(out, "-0sd%d_%llu", n, (unsigned long long)-v);
}

static int shift(int64_t *r, int op, int wa, int64_t a, int64_t b)
{
    int n = MF_WTY_WIDTH(wa);
    if (b < 0 || b > n)
        return 1; /* NuSMV: the shift amount must be in 0..N */
    if (op == MF_OP_SHL) {
        *r = mf_word_norm(wa, mf_word_bits(wa, a) << b);
    } else if (MF_WTY_SIGNED(wa)) {
        /* padded with the highest bit; a has at most 32 bits, b <= 32 */
        *r = a < 0 ? ~(~a >> b) : a >> b;
    } else {
        *r = (int64_t)(mf_word_bits(wa, a) >> b);
    }
    return 0;
}

int mf_word_binop(int64_t *r, int op, int wa, int64_t a, int wb, int64_t b)
{
    uint64_t x = mf_word_bits(wa, a), y = mf_word_bits(wa, b);
    switch (op) {
    case MF_OP_ADD:
        *r = mf_word_norm(wa, x + y);
        return 0;
    case MF_OP_SUB:
        *r = mf_word_norm(wa, x - y);
        return 0;
    case MF_OP_MUL:
        *r = mf_word_norm(wa, x * y);
        return 0;
    case MF_OP_DIV:
    case MF_OP_MOD:
        if (b == 0)
            return 1; /* NuSMV stops with an error: no value */
        /* Values have at most 32 bits: no int64 overflow. Signed division
         * truncates toward zero and mod keeps the dividend's sign, as in C;
         * -2^(N-1) / -1 wraps. */
        *r = mf_word_norm(wa, (uint64_t)(op == MF_OP_DIV ? a / b : a % b));
        return 0;
    case MF_OP_AND:
        *r = mf_word_norm(wa, x & y);
        return 0;
    case MF_OP_OR:
        *r = mf_word_norm(wa, x | y);
        return 0;
    case MF_OP_XOR:
        *r = mf_word_norm(wa, x ^ y);
        return 0;
    case MF_OP_XNOR:
    case MF_OP_IFF:
        *r = mf_word_norm(wa, ~(x ^ y));
        return 0;
    case MF_OP_IMPLIES:
        *r = mf_word_norm(wa, ~x | y);
        return 0;
    case MF_OP_SHL:
    case MF_OP_SHR:
        return shift(r, op, wa, a, b);
    case MF_OP_CONCAT: {
        int nb = MF_WTY_WIDTH(wb);
        *r = (int64_t)((x << nb) | mf_word_bits(wb, b));
        return 0;
    }
    default:
        return 1;
    }
}

int64_t mf_word_not(int wty, int64_t a)
{
    return mf_word_norm(wty, ~mf_word_bits(wty, a));
}

int64_t mf_word_neg(int wty, int64_t a)
{
    return mf_word_norm(wty, (uint64_t)0 - mf_word_bits(wty, a));
}

int64_t mf_word_cast(int fn, int wres, int wa, int64_t a, int hi, int lo)
{
    int n = MF_WTY_WIDTH(wres), m = MF_WTY_WIDTH(wa);
    switch (fn) {
    case MF_FN_SIGNED:
    case MF_FN_UNSIGNED:
        return mf_word_norm(wres, mf_word_bits(wa, a));
    case MF_FN_RESIZE:
        if (n >= m)
            return a; /* zero or sign extension keeps the value */
        if (!MF_WTY_SIGNED(wres))
            return (int64_t)(mf_word_bits(wa, a) & mask(n));
        /* signed: bits N-2..0 kept, bit N-1 takes the old sign */
        return (int64_t)(mf_word_bits(wa, a) & mask(n - 1)) -
               (a < 0 ? (int64_t)1 << (n - 1) : 0);
    case MF_FN_SELECT:
        return (int64_t)((mf_word_bits(wa, a) >> lo) & mask(hi - lo + 1));
    default: /* extend, word1, uwconst, swconst: the value is kept */
        return a;
    }
}
