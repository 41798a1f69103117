/* smv.h - the SMV (NuSMV language) front-end as a model language (lang.h):
 * mf_lang_smv, and the SMV mutation operators by number (docs/operators.md).
 *
 * Reading is lexer.c and parse*.c (text to the parse tree of ast.h) and
 * flatten.c, flatten_items.c (the parse tree to the flat model, NuSMV
 * processes by process.c); the operators are mutate*.c; smv.c holds the
 * language's constant, its loader and sniffer and the printer of a
 * mutant. The flat model's canonical print (model/print.c) is SMV already,
 * so SMV has no printer of its own. */
#ifndef MF_SMV_H
#define MF_SMV_H

#include "lang.h"

/* The SMV operators: mf_mutant.op of an SMV model's mutants. The numbers
 * are the order of docs/operators.md; append only. */
typedef enum {
    MF_MOP_CASE_REMOVE,    /* remove a case branch */
    MF_MOP_CASE_SWAP,      /* swap two adjacent case branches */
    MF_MOP_ASSIGN_REMOVE,  /* remove a next() or invariant assignment */
    MF_MOP_INIT_REMOVE,    /* remove an init() assignment */
    MF_MOP_CONSTR_REMOVE,  /* remove a conjunct of INIT/TRANS/INVAR */
    MF_MOP_NEGATE,         /* negate a boolean (sub)expression */
    MF_MOP_LOGIC_OP,       /* replace & | -> <-> xor xnor */
    MF_MOP_ARITH_OP,       /* replace + - * / mod */
    MF_MOP_REL_OP,         /* replace = != < <= > >= */
    MF_MOP_STUCK_AT,       /* a condition stuck at TRUE or FALSE */
    MF_MOP_GUARD_TRUE,     /* a case guard -> TRUE */
    MF_MOP_TERM_REMOVE,    /* remove a conjunct/disjunct of an expression */
    MF_MOP_ASSOC_SHIFT,    /* (a|b)&c -> a|(b&c) */
    MF_MOP_VAR_REPLACE,    /* a variable by another of the same type */
    MF_MOP_ENUM_REPLACE,   /* an enumeration literal by another */
    MF_MOP_NUMBER_REPLACE, /* c -> 0, 1, c+1, c-1 (clamped to the range) */
    MF_MOP_DIGIT_REPLACE,  /* one digit of a number literal */
    MF_MOP_WORD_BITWISE,   /* replace & | xor xnor on words */
    MF_MOP_WORD_SHIFT,     /* << <-> >> */
    MF_MOP_WORD_BIT_FLIP,  /* flip bit 0, 1 or N-1 of a word constant */
    MF_MOP_WORD_SELECT,    /* w[h:l] -> w[h+1:l+1], w[h-1:l-1] */
    MF_MOP__COUNT
} mf_mop;

/* The SMV language: ".smv" files, or text whose first word is MODULE. */
extern const mf_lang mf_lang_smv;

/* The operators' names, by mf_mop (mf_lang_smv.op_names). */
extern const char *const mf_smv_op_names[MF_MOP__COUNT];

/* mf_lang_smv's load (parse, flatten, mf_model_finish), mutants
 * (mutate.c) and mutant_print (smv.c): see lang.h. */
int mf_smv_load(mf_model **out, const char *file, const char *text, size_t len,
                const mf_model_opts *opts);
int mf_smv_mutants(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                   mf_mutant_fn fn, void *ctx);
void mf_smv_mutant_print(mf_buf *out, const mf_model *m, const mf_mutant *mu);

/* The short stable name of an SMV operator ("number-replace") and back
 * (-1 if unknown), and a list of them as a mask: mf_lang_op_name and
 * mf_lang_ops_parse on mf_lang_smv, for code that speaks SMV without a
 * model at hand. */
const char *mf_mop_name(mf_mop op);
int mf_mop_from_name(const char *name);
int mf_mop_parse_list(unsigned *mask, const char *list);

#endif
