/* ta_lang.h - timed automata as model languages (model/lang.h): UPPAAL
 * XML (mf_lang_uppaal, ".xml") and Ecdar projects (mf_lang_ecdar, a
 * project folder or a component's ".json", read as one bundled text), and
 * what an engine that understands timed models asks of a loaded model.
 *
 * A timed model loads as an mf_model with no variables or items (the
 * common model holds no clocks); the network is its lang_data, its hash
 * the SHA-256 of the network's canonical print (ta_net_print). Its
 * mutants (mf_mutants_each) carry the timed operator, id, site, position
 * and description, with item -1 and no new_item: ta_mutant_find gives
 * the timed mutant of an id and ta_mutant_apply the mutated network. */
#ifndef MF_TA_LANG_H
#define MF_TA_LANG_H

#include "lang.h"
#include "ta.h"

extern const mf_lang mf_lang_uppaal;
extern const mf_lang mf_lang_ecdar;

/* The network of a loaded timed model (UPPAAL or Ecdar), else NULL (any
 * other language, or a copy of a model, which carries no lang_data). */
const ta_net *ta_net_of(const mf_model *m);

#endif
