/* fuzz_parse.c - libFuzzer target for the SMV lexer and parser (mf_parse).
 *
 * Any input must either parse or fail with a positioned message and no AST;
 * crashes, leaks and sanitizer reports are the bugs this looks for. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_ast *ast = NULL;
    int rc = mf_parse(&ast, "fuzz.smv", (const char *)data, size);
    if (rc == MF_OK) {
        if (!ast)
            abort();
        mf_ast_free(ast);
        return 0;
    }
    /* A failure leaves no tree and says where it happened. */
    if (ast || (rc != MF_EPARSE && rc != MF_EUNSUPPORTED && rc != MF_ELIMIT) ||
        strncmp(mf_err_msg(), "fuzz.smv:", 9) != 0)
        abort();
    return 0;
}
