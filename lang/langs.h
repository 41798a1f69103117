/* langs.h - the registry of model languages (model/lang.h): which languages
 * mutfarm reads, and the one way every command, the coordinator, the
 * worker and the reports load a model: the language chosen by the file's
 * name, else by its text, then its loader.
 *
 * A job carries its model's name and text, never a language: a worker (and
 * the coordinator reading a stored model) chooses the language the same
 * way, by the name's ending and else by the text (each language's sniff),
 * so the wire needs no language field. A new language adds one line to
 * the list in langs.c. */
#ifndef MF_LANGS_H
#define MF_LANGS_H

#include "lang.h"

/* Every language mutfarm reads, in the order of preference for a tie of
 * sniff scores; NULL-terminated. */
extern const mf_lang *const mf_langs[];

/* The language named `name` ("smv"), or NULL. */
const mf_lang *mf_lang_by_name(const char *name);

/* The language of a model: the one whose file ending `path` has, else the
 * one whose sniff scores text[0..len) highest (text may be NULL: by name
 * alone). NULL when none, with the message "PATH: unknown model language
 * (known: smv)" (MF_EUNSUPPORTED from the loaders below). */
const mf_lang *mf_lang_for_file(const char *path, const char *text, size_t len);

/* Loads a model in the language mf_lang_for_file(file, text, len) chooses:
 * see lang.h, load. `file` names the model in messages and may be a stored
 * name rather than a path. */
int mf_model_load(mf_model **out, const char *file, const char *text,
                  size_t len, const mf_model_opts *opts);
/* A model's text from its path: the file's bytes, or, for a language
 * whose models are several files (lang.h, read_path: an Ecdar project
 * folder or a file inside one), the one text it gathers them into; at
 * most max bytes (MF_ELIMIT). *out is NUL-terminated and the caller's. */
int mf_model_read_text(char **out, size_t *len, const char *path,
                       const mf_model_opts *opts, size_t max);
/* The same from a path (MF_EIO if it cannot be read), through
 * mf_model_read_text. */
int mf_model_load_file(mf_model **out, const char *path,
                       const mf_model_opts *opts);

#endif
