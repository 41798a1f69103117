/* smv.c - SMV as a model language (lang.h): the constant mf_lang_smv that
 * the registry lists, the sniffer that knows SMV text by its first word,
 * the operators' names, and the printer of a mutant as the SMV model with
 * the changed lines marked. Reading is flatten*.c's, the operators
 * mutate*.c's. */
#include "ast.h"
#include "smv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const smv_exts[] = {".smv", NULL};

/* 90 when the first word after comments and blanks is MODULE, 50 when some
 * line starts with MODULE, else 0. */
static int smv_sniff(const char *text, size_t len)
{
    size_t i = 0;
    int first = 1;
    while (i < len) {
        while (i < len && isspace((unsigned char)text[i]))
            i++;
        if (i + 1 < len && text[i] == '-' && text[i + 1] == '-') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (i + 6 <= len && memcmp(text + i, "MODULE", 6) == 0 &&
            (i + 6 == len || isspace((unsigned char)text[i + 6])))
            return first ? 90 : 50;
        first = 0;
        while (i < len && text[i] != '\n')
            i++;
    }
    return 0;
}

const char *const mf_smv_op_names[MF_MOP__COUNT] = {
    "case-remove",    "case-swap",         "assign-remove",
    "init-remove",    "constraint-remove", "negate",
    "logic-op",       "arith-op",          "rel-op",
    "stuck-at",       "guard-true",        "term-remove",
    "assoc-shift",    "var-replace",       "enum-replace",
    "number-replace", "digit-replace",     "word-bitwise-op",
    "word-shift-op",  "word-bit-flip",     "word-select-shift",
};

int mf_smv_load(mf_model **out, const char *file, const char *text, size_t len,
                const mf_model_opts *opts)
{
    mf_ast *ast = NULL;
    *out = NULL;
    int rc = mf_parse(&ast, file, text, len);
    if (rc)
        return rc;
    rc = mf_smv_flatten(out, ast, &mf_lang_smv, opts);
    mf_ast_free(ast);
    return rc;
}

const mf_lang mf_lang_smv = {
    .name = "smv",
    .exts = smv_exts,
    .sniff = smv_sniff,
    .load = mf_smv_load,
    .nops = MF_MOP__COUNT,
    .op_names = mf_smv_op_names,
    .mutants = mf_smv_mutants,
    .print_model = NULL, /* the common printer: model/print.c */
    .mutant_print = mf_smv_mutant_print,
    .free_data = NULL,
};

const char *mf_mop_name(mf_mop op)
{
    return mf_lang_op_name(&mf_lang_smv, (int)op);
}

int mf_mop_from_name(const char *name)
{
    return mf_lang_op_find(&mf_lang_smv, name);
}

int mf_mop_parse_list(unsigned *mask, const char *list)
{
    return mf_lang_ops_parse(&mf_lang_smv, mask, list);
}

/* ---- a mutant printed */

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
void mf_smv_mutant_print(mf_buf *out, const mf_model *m, const mf_mutant *mu)
{
    mf_model *mm = NULL;
    if (mf_mutant_apply(&mm, m, mu) != 0) {
        mf_buf_printf(out, "-- mutant %s (%s): cannot apply: %s\n", mu->id,
                      mf_mop_name((mf_mop)mu->op), mf_err_msg());
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
                  mf_mop_name((mf_mop)mu->op), mu->desc ? mu->desc : "");
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
