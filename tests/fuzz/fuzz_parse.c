/* fuzz_parse.c - libFuzzer target for the SMV lexer and parser (mf_parse),
 * and behind them the flattener, the type checker and the printer.
 *
 * Any input must either parse or fail with a positioned message and no AST;
 * a parsed input is then loaded as a model (flattened and type checked,
 * words included) and, when accepted, printed, read back and printed
 * again: the print must be accepted and a fixed point (docs/smv.md).
 * Crashes, leaks, sanitizer reports and a print that does not read back are
 * the bugs this looks for. The seeds include the word models of
 * tests/models, and the dictionary the word syntax. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "model.h"
#include "langs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A model that loads prints as SMV that loads again and prints the same. */
static void check_print(const uint8_t *data, size_t size)
{
    mf_model *m = NULL, *m2 = NULL;
    if (mf_model_load(&m, "fuzz.smv", (const char *)data, size, NULL) != 0)
        return;
    mf_buf p1 = {0}, p2 = {0};
    mf_print_model(&p1, m);
    if (mf_model_load(&m2, "print.smv", p1.data, p1.len, NULL) != 0)
        abort();
    mf_print_model(&p2, m2);
    if (p1.len != p2.len || memcmp(p1.data, p2.data, p1.len) != 0)
        abort();
    mf_buf_free(&p1);
    mf_buf_free(&p2);
    mf_model_free(m2);
    mf_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_ast *ast = NULL;
    int rc = mf_parse(&ast, "fuzz.smv", (const char *)data, size);
    if (rc == MF_OK) {
        if (!ast)
            abort();
        mf_ast_free(ast);
        check_print(data, size);
        return 0;
    }
    /* A failure leaves no tree and says where it happened. */
    if (ast || (rc != MF_EPARSE && rc != MF_EUNSUPPORTED && rc != MF_ELIMIT) ||
        strncmp(mf_err_msg(), "fuzz.smv:", 9) != 0)
        abort();
    return 0;
}
