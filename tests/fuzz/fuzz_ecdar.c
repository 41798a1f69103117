/* fuzz_ecdar.c - libFuzzer target for the Ecdar reader (ta/ecdar.c): the
 * bundle of a project and each component's JSON, and behind them the
 * builder and the timed mutation operators.
 *
 * The input is a whole bundle when it says so, else one component's JSON
 * put in a bundle with the car alarm system's global declarations. Either
 * it reads, or it fails with one line and no network. A network that
 * reads prints; its first mutants apply unless stillborn, and a stillborn
 * one does not; a mutant printed back as JSON reads again in the same
 * bundle. The seeds are the shared Ecdar files. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_ta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const GLOBAL =
    "{\"name\": \"Global Declarations\", \"declarations\": \"broadcast "
    "chan close, open, lock, unlock, armedOn, armedOff, flashOn, flashOff, "
    "soundOn, soundOff, unlockOut;\\n\\ntypedef int[0,1] on_off_t;\"}";

/* A bundle of GLOBAL and one component's text (NULL when the text is not
 * UTF-8). */
static char *bundle(const char *comp, size_t len)
{
    json_t *t = json_stringn(comp, len);
    if (!t)
        return NULL;
    json_t *b = json_object(), *files = json_array(), *g = json_object(),
           *c = json_object();
    json_object_set_new(b, "format", json_string("mutfarm-ecdar-1"));
    json_object_set_new(g, "path", json_string("GlobalDeclarations.json"));
    json_object_set_new(g, "text", json_string(GLOBAL));
    json_object_set_new(c, "path", json_string("Components/C.json"));
    json_object_set_new(c, "text", t);
    json_array_append_new(files, g);
    json_array_append_new(files, c);
    json_object_set_new(b, "files", files);
    char *s = json_dumps(b, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(b);
    return s;
}

static int reread(const mf_buf *printed)
{
    ta_net *r = NULL;
    char *b = bundle(printed->data, printed->len);
    int rc = b ? ta_read_ecdar(&r, "mutant", b, strlen(b), NULL) : -1;
    free(b);
    ta_net_free(r);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char *made = NULL;
    if (ta_ecdar_sniff(text, size) == 0) {
        made = bundle(text, size);
        if (!made)
            return 0;
        text = made;
        size = strlen(made);
    }
    ta_net *n = NULL;
    int rc = ta_read_ecdar(&n, "fuzz", text, size, NULL);
    if (rc != 0) {
        if (n || strchr(mf_err_msg(), '\n'))
            abort();
    } else {
        mf_buf b = {0};
        ta_net_print(&b, n);
        mf_buf_free(&b);
        /* the mutants of a one-component bundle print back as the
         * component: read again with GLOBAL only when it was made here */
        fuzz_ta_each e = {n, 16, reread};
        if (made)
            ta_mutants_each(n, 0, fuzz_ta_mutant, &e);
        ta_net_free(n);
    }
    free(made);
    return 0;
}
