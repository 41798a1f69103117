/* word.h - the values of NuSMV's words (unsigned word[N], signed word[N]):
 * constants read from their text and written back, and every word operator
 * on values, with NuSMV 2.6's semantics (docs/smv.md, "Words").
 *
 * A word value is an mf_val holding the integer it denotes: 0 .. 2^N-1 for
 * an unsigned word[N], -2^(N-1) .. 2^(N-1)-1 for a signed one, so order and
 * equality are those of the integers and toint() is the identity. A type is
 * an int as expr.h's MF_WTY makes it (width and signedness). Nothing here
 * type checks an expression (typecheck.c) or walks one (eval.c). */
#ifndef MF_WORD_H
#define MF_WORD_H

#include "expr.h"

/* The value of the low N bits `bits` as a word of type wty (sign extended
 * for a signed word). */
int64_t mf_word_norm(int wty, uint64_t bits);
/* The N bits of value v of type wty. */
uint64_t mf_word_bits(int wty, int64_t v);
/* 1 if v is a value of type wty. */
int mf_word_fits(int wty, int64_t v);

/* A word constant's text s[0..n) (`0sd16_5`, `0b_1011`, `0uh8_ff`) read
 * into *val and *wty. 0, or -1 with the reason in err (errn bytes). */
int mf_word_parse(int64_t *val, int *wty, const char *s, size_t n, char *err,
                  size_t errn);
/* The canonical text of value v of type wty: `0ud8_5`, `0sd8_5`, and
 * `-0sd8_5` for a negative signed value. */
void mf_word_print(mf_buf *out, int wty, int64_t v);

/* a op b on words, op an mf_binop: + - * / mod (modulo 2^N), & | xor xnor
 * -> <-> (bitwise), << >> (b an integer, or an unsigned word when wb is
 * not 0), :: (result unsigned, wa's bits above wb's). The operands have
 * type wa (and wb for ::); the result is written to *r. Returns 0, or 1
 * when NuSMV has no value: a division or mod by zero, a shift by less than
 * 0 or more than N. */
int mf_word_binop(int64_t *r, int op, int wa, int64_t a, int wb, int64_t b);
/* Bitwise !a and -a (modulo 2^N) of a word of type wty. */
int64_t mf_word_not(int wty, int64_t a);
int64_t mf_word_neg(int wty, int64_t a);
/* A conversion, fn an mf_fn: signed, unsigned, extend, resize, word1,
 * uwconst, swconst (a the value, result type wres) and select (bits hi..lo
 * of a, of type wa). Returns the result's value. */
int64_t mf_word_cast(int fn, int wres, int wa, int64_t a, int hi, int lo);

#endif
