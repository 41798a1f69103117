/* verilog.h - Verilog as a model language (lang.h): mf_lang_verilog, which
 * the registry lists. A design is read through yosys into a translation
 * (translate.h), whose SMV smv/ reads; the mutants are yosys's mcy
 * mutations, each one a value of the translation's select DEFINE.
 * docs/verilog.md. */
#ifndef MF_VERILOG_H
#define MF_VERILOG_H

#include "lang.h"

/* ".v" and ".sv" files (read through yosys, one file, its top inferred),
 * ".vsmv" translations (`mutfarm verilog` writes them: several files, a
 * named top, a reset), or text that starts as a translation does. */
extern const mf_lang mf_lang_verilog;

#endif
