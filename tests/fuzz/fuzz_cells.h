/* fuzz_cells.h - the model the two test readers' fuzzers
 * (fuzz_test_json.c: stored tests; fuzz_suite_text.c: hand-written
 * suites) read their inputs against: every kind of cell a test names, an
 * IVAR, an input VAR (a value in state 0), ranges, symbols, booleans, an
 * array and an observed enumerated DEFINE. */
#ifndef MF_FUZZ_CELLS_H
#define MF_FUZZ_CELLS_H

#include <stdlib.h>

#include "langs.h"

static const char fuzz_cells_text[] =
    "MODULE main\n"
    "IVAR go : boolean; lvl : {low, high};\n"
    "VAR st : {Off, On, Dim}; dim : -2..3; hist : array 0..1 of boolean;\n"
    "    mode : {eco, full};\n"
    "ASSIGN\n"
    "  init(st) := Off; init(dim) := 0;\n"
    "  init(hist[0]) := FALSE; init(hist[1]) := FALSE;\n"
    "  next(st) := case go & lvl = high : On; go : Dim; TRUE : Off; esac;\n"
    "  next(dim) := case go & dim < 3 : dim + 1; dim > -2 : dim - 1;\n"
    "                    TRUE : dim; esac;\n"
    "  next(hist[0]) := go; next(hist[1]) := hist[0];\n"
    "DEFINE light := st; busy := go;\n";

/* The model, read once: st, dim, hist and light observed; the inputs
 * named by in[0 .. nin) (0: as the front-end infers them). */
static mf_model *fuzz_cells_model(const char *const *in, int nin)
{
    static mf_model *m;
    if (!m) {
        static const char *const obs[] = {"st", "dim", "hist", "light"};
        mf_model_opts o = {0};
        o.observe = (const char **)obs;
        o.nobserve = 4;
        o.inputs = (const char **)in;
        o.ninputs = nin;
        if (mf_model_load(&m, "fuzz.smv", fuzz_cells_text,
                          sizeof fuzz_cells_text - 1, &o) != 0)
            abort();
    }
    return m;
}

#endif
