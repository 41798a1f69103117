/* ecdar.c - Ecdar projects read with jansson: the project's files gathered
 * into one text, the bundle (ta_ecdar_bundle), so that a model stays one
 * text in jobs and in the store, and the bundle read (ta_read_ecdar): the
 * global declarations and the chosen component (its declarations,
 * locations and edges, each edge's status saying whether its action is
 * an input or an output) as the raw model the builder reads. One
 * component is the system; which one is said in docs/timed.md. */
#include "ta_int.h"

#include <jansson.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The bundle's format name, its first member. */
#define BUNDLE_FORMAT "mutfarm-ecdar-1"
/* The most bytes a project file may have. */
#define MAX_FILE_BYTES (16u << 20)
/* The most component files a project may have. */
#define MAX_FILES 1000

/* ---- the bundle ------------------------------------------------------------ */

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = mf_xmalloc(n);
    snprintf(s, n, "%s%s%s", a, *a && a[strlen(a) - 1] != '/' ? "/" : "", b);
    return s;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static int add_file(json_t *files, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    int rc = mf_read_file(&text, &len, path, MAX_FILE_BYTES);
    if (rc)
        return rc;
    json_t *f = json_object();
    json_object_set_new(f, "path", json_string(path));
    json_t *t = json_stringn(text, len);
    free(text);
    if (!t) {
        json_decref(f);
        return mf_err_set(MF_EPARSE, "%s: error: not UTF-8 text", path);
    }
    json_object_set_new(f, "text", t);
    json_array_append_new(files, f);
    return 0;
}

/* The component JSON file a path names, if it is one: "…/Components/X.json". */
static int component_file(const char *path, char **model_dir)
{
    size_t n = strlen(path);
    if (n < 6 || strcmp(path + n - 5, ".json"))
        return 0;
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    if (dlen < 10 || memcmp(path + dlen - 10, "Components", 10) ||
        (dlen > 10 && path[dlen - 11] != '/'))
        return 0;
    *model_dir = mf_xstrdup(path);
    (*model_dir)[dlen > 10 ? dlen - 11 : 0] = '\0';
    if (!**model_dir)
        strcpy(*model_dir, ".");
    return 1;
}

int ta_ecdar_bundle(mf_buf *out, const char *path, const char *system)
{
    char *model = NULL, *comp_dir = NULL, *glob = NULL;
    const char *pick = system;
    int rc = 0, named_comp = 0;
    if (is_dir(path)) {
        char *m = join(path, "Model");
        char *g = join(m, "GlobalDeclarations.json");
        if (is_file(g)) {
            model = m;
        } else {
            free(m);
            model = mf_xstrdup(path);
        }
        free(g);
    } else if (is_file(path)) {
        const char *slash = strrchr(path, '/');
        if (!strcmp(slash ? slash + 1 : path, "GlobalDeclarations.json")) {
            size_t k = slash ? (size_t)(slash - path) : 0;
            model = mf_xmalloc(k + 2);
            memcpy(model, path, k);
            strcpy(model + k, k ? "" : ".");
        } else if (!(named_comp = component_file(path, &model))) {
            return mf_err_set(MF_ENOTFOUND,
                              "%s: error: not an Ecdar project (a folder "
                              "holding GlobalDeclarations.json and "
                              "Components/, or a component's .json in "
                              "Components/)", path);
        }
    } else {
        return mf_err_set(MF_EIO, "%s: error: no such file or folder", path);
    }
    glob = join(model, "GlobalDeclarations.json");
    comp_dir = join(model, "Components");
    json_t *b = json_object(), *files = json_array();
    json_object_set_new(b, "format", json_string(BUNDLE_FORMAT));
    json_object_set_new(b, "project", json_string(path));
    if (!is_file(glob) || !is_dir(comp_dir)) {
        rc = mf_err_set(MF_ENOTFOUND, "%s: error: not an Ecdar project (no "
                        "%s or no %s)", path, glob, comp_dir);
        goto cleanup;
    }
    if ((rc = add_file(files, glob)))
        goto cleanup;
    DIR *d = opendir(comp_dir);
    char **names = NULL;
    int n = 0;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            size_t k = strlen(de->d_name);
            if (k > 5 && !strcmp(de->d_name + k - 5, ".json") &&
                n < MAX_FILES) {
                names = mf_xrealloc(names, (size_t)(n + 1) * sizeof(char *));
                names[n++] = join(comp_dir, de->d_name);
            }
        }
        closedir(d);
    }
    qsort(names, (size_t)n, sizeof(char *), cmp_str);
    for (int i = 0; i < n; i++) {
        if (!rc)
            rc = add_file(files, names[i]);
        free(names[i]);
    }
    free(names);
    if (!rc && n == 0)
        rc = mf_err_set(MF_ENOTFOUND, "%s: error: no component in %s", path,
                        comp_dir);
    if (rc)
        goto cleanup;
    if (!pick && named_comp) {
        /* the component file named: its component */
        json_error_t je;
        json_t *c = json_load_file(path, 0, &je);
        const char *nm = c ? json_string_value(json_object_get(c, "name"))
                           : NULL;
        if (nm)
            json_object_set_new(b, "system", json_string(nm));
        json_decref(c);
    } else if (pick) {
        json_object_set_new(b, "system", json_string(pick));
    }
    json_object_set_new(b, "files", files);
    files = NULL;
    char *s = json_dumps(b, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    mf_buf_puts(out, s);
    mf_buf_puts(out, "\n");
    free(s);
cleanup:
    json_decref(files);
    json_decref(b);
    free(glob);
    free(comp_dir);
    free(model);
    return rc;
}

int ta_ecdar_sniff(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' ||
                       text[i] == '\r'))
        i++;
    if (i >= len || text[i] != '{')
        return 0;
    const char *key = "\"format\": \"" BUNDLE_FORMAT "\"";
    size_t k = strlen(key);
    for (size_t j = i; j + k <= len && j < i + 64; j++)
        if (!memcmp(text + j, key, k))
            return 100;
    return 0;
}

/* ---- reading a bundle --------------------------------------------------------- */

typedef struct {
    const char *path;
    const char *text;
    size_t len;
    json_t *json;
} efile;

/* The line of the (nth + 1)-th `"key": "value"` in text (value NULL:
 * any), or 1. Ids need not be unique in Ecdar files: locations and edges
 * are found by the order of a key only they have. */
static int line_of_nth(const char *text, const char *key, const char *value,
                       int nth)
{
    int line = 1;
    size_t kl = strlen(key), vl = value ? strlen(value) : 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            line++;
            continue;
        }
        if (*p != '"' || strncmp(p + 1, key, kl) || p[kl + 1] != '"')
            continue;
        const char *q = p + kl + 2;
        while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
            q++;
        if (*q != ':')
            continue;
        q++;
        while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
            q++;
        if ((!value || (*q == '"' && !strncmp(q + 1, value, vl) &&
                        q[vl + 1] == '"')) &&
            nth-- == 0)
            return line;
    }
    return 1;
}

static int line_of(const char *text, const char *key, const char *value)
{
    return line_of_nth(text, key, value, 0);
}

static const char *jstr(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static int jerr(const char *path, int line, const char *fmt, const char *arg)
{
    char msg[400];
    snprintf(msg, sizeof(msg), fmt, arg);
    return mf_err_set(MF_EPARSE, "%s:%d:0: error: %s", path, line, msg);
}

/* A string member as a text of the declarations language at its line. */
static ta_text text_at(mf_arena *a, const efile *f, const json_t *o,
                       const char *key, int line)
{
    ta_text t = {0};
    const char *s = jstr(o, key);
    t.text = s ? mf_arena_strdup(a, s) : NULL;
    t.pos.file = f->path;
    t.pos.line = line;
    t.one_line = 1;
    return t;
}

static int has_inputs(const json_t *c)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(c, "edges"), i, e)
        if (jstr(e, "status") && !strcmp(jstr(e, "status"), "INPUT"))
            return 1;
    return 0;
}

static int read_comp(mf_arena *a, const efile *f, ta_raw_tmpl *t)
{
    const json_t *c = f->json;
    json_t *locs = json_object_get(c, "locations");
    json_t *edges = json_object_get(c, "edges");
    if (!json_is_array(locs) || !json_is_array(edges))
        return jerr(f->path, 1, "%s: no locations or edges array",
                    "component");
    memset(t, 0, sizeof(*t));
    t->name = mf_arena_strdup(a, jstr(c, "name"));
    t->pos = (ta_pos){f->path, line_of(f->text, "name", NULL), 0};
    t->decls = text_at(a, f, c, "declarations",
                       line_of(f->text, "declarations", NULL));
    t->locs = mf_arena_alloc(a, (json_array_size(locs) + 1) *
                                    sizeof(ta_raw_loc));
    t->edges = mf_arena_alloc(a, (json_array_size(edges) + 1) *
                                     sizeof(ta_raw_edge));
    size_t i;
    json_t *o;
    json_array_foreach(locs, i, o) {
        ta_raw_loc *l = &t->locs[t->nlocs++];
        const char *id = jstr(o, "id"), *type = jstr(o, "type"),
                   *urg = jstr(o, "urgency");
        if (!id)
            return jerr(f->path, 1, "%s without an id", "a location");
        int line = line_of_nth(f->text, "invariant", NULL, (int)i);
        l->id = mf_arena_strdup(a, id);
        const char *nick = jstr(o, "nickname");
        l->name = nick && *nick ? mf_arena_strdup(a, nick) : NULL;
        l->pos = (ta_pos){f->path, line, 0};
        l->inv = text_at(a, f, o, "invariant", line);
        if (type && !strcmp(type, "INITIAL")) {
            if (t->init)
                return jerr(f->path, line, "a second initial location '%s'",
                            id);
            t->init = l->id;
        } else if (type && strcmp(type, "NORMAL")) {
            return mf_err_set(MF_EUNSUPPORTED, "%s:%d:0: unsupported: a "
                              "location of type '%s'", f->path, line, type);
        }
        if (urg && !strcmp(urg, "URGENT"))
            l->urgent = 1;
        else if (urg && !strcmp(urg, "COMMITTED"))
            l->committed = 1;
        else if (urg && strcmp(urg, "NORMAL"))
            return mf_err_set(MF_EUNSUPPORTED, "%s:%d:0: unsupported: "
                              "urgency '%s'", f->path, line, urg);
    }
    json_array_foreach(edges, i, o) {
        ta_raw_edge *e = &t->edges[t->nedges++];
        const char *id = jstr(o, "id"), *st = jstr(o, "status"),
                   *sync = jstr(o, "sync");
        int line = line_of_nth(f->text, "sourceLocation", NULL, (int)i);
        e->pos = (ta_pos){f->path, line, 0};
        e->src = jstr(o, "sourceLocation");
        e->dst = jstr(o, "targetLocation");
        if (!e->src || !e->dst)
            return jerr(f->path, line, "edge '%s' without a source or target",
                        id ? id : "?");
        e->src = mf_arena_strdup(a, e->src);
        e->dst = mf_arena_strdup(a, e->dst);
        e->select = text_at(a, f, o, "select", line);
        e->guard = text_at(a, f, o, "guard", line);
        e->update = text_at(a, f, o, "update", line);
        e->sync = text_at(a, f, o, "sync", line);
        if (sync && *sync) {
            int in = st && !strcmp(st, "INPUT");
            if (!in && (!st || strcmp(st, "OUTPUT")))
                return jerr(f->path, line, "edge status '%s' (INPUT or "
                            "OUTPUT)", st ? st : "?");
            size_t k = strlen(sync);
            char *s = mf_arena_alloc(a, k + 2);
            memcpy(s, sync, k);
            s[k] = in ? '?' : '!';
            e->sync.text = s;
        }
    }
    return 0;
}

int ta_read_ecdar(ta_net **out, const char *file, const char *text,
                  size_t len, const ta_opts *opts)
{
    *out = NULL;
    if (!file)
        file = "<model>";
    json_error_t je;
    json_t *b = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    efile *fs = NULL;
    size_t nf = 0, i;
    mf_arena *a = NULL;
    int rc = 0;
    if (!b)
        return ta_err_one_line(mf_err_set(MF_EPARSE, "%s:%d:%d: error: not "
                                          "an Ecdar bundle: %s", file,
                                          je.line, je.column, je.text));
    const char *fmt = jstr(b, "format");
    json_t *files = json_object_get(b, "files");
    if (!fmt || strcmp(fmt, BUNDLE_FORMAT) || !json_is_array(files)) {
        rc = mf_err_set(MF_EPARSE, "%s: error: not an Ecdar bundle (format "
                        "'%s')", file, BUNDLE_FORMAT);
        goto cleanup;
    }
    a = mf_arena_new();
    nf = json_array_size(files);
    fs = mf_xcalloc(nf + 1, sizeof(efile));
    json_t *o;
    const efile *glob = NULL;
    json_array_foreach(files, i, o) {
        efile *f = &fs[i];
        const char *p = jstr(o, "path");
        json_t *t = json_object_get(o, "text");
        if (!p || !json_is_string(t)) {
            rc = mf_err_set(MF_EPARSE, "%s: error: a bundle file without a "
                            "path or text", file);
            goto cleanup;
        }
        f->path = mf_arena_strdup(a, p);
        f->len = json_string_length(t);
        f->text = mf_arena_strndup(a, json_string_value(t), f->len);
        f->json = json_loadb(f->text, f->len, JSON_REJECT_DUPLICATES, &je);
        if (!f->json || !json_is_object(f->json)) {
            rc = mf_err_set(MF_EPARSE, "%s:%d:%d: error: not an Ecdar file: %s",
                            f->path, je.line, je.column,
                            f->json ? "not an object" : je.text);
            goto cleanup;
        }
        size_t k = strlen(p);
        if (k >= 23 && !strcmp(p + k - 23, "GlobalDeclarations.json"))
            glob = f;
        else if (!jstr(f->json, "name")) {
            rc = jerr(f->path, 1, "%s: no name", "component");
            goto cleanup;
        }
    }
    if (!glob) {
        rc = mf_err_set(MF_EPARSE, "%s: error: no GlobalDeclarations.json in "
                        "the project", file);
        goto cleanup;
    }
    const char *want = opts && opts->system ? opts->system : jstr(b, "system");
    const efile *sys = NULL;
    int ncand = 0, ncomp = 0;
    mf_buf names = {0};
    for (i = 0; i < nf; i++) {
        if (&fs[i] == glob)
            continue;
        const char *nm = jstr(fs[i].json, "name");
        mf_buf_printf(&names, "%s%s", ncomp++ ? ", " : "", nm);
        if (want ? !strcmp(nm, want) : has_inputs(fs[i].json)) {
            if (!want)
                ncand++;
            if (!sys)
                sys = &fs[i];
        }
    }
    if (!want && ncand == 0 && ncomp == 1)
        for (i = 0; i < nf; i++)
            if (&fs[i] != glob)
                sys = &fs[i];
    if (!sys || (!want && ncand > 1)) {
        if (want)
            rc = mf_err_set(MF_ENOTFOUND, "%s: error: --system: no component "
                            "'%s' (components: %s)", file, want, names.data);
        else
            rc = mf_err_set(MF_ENOTFOUND, "%s: error: %s components take "
                            "inputs: choose the system with --system "
                            "(components: %s)", file, ncand ? "several" : "no",
                            names.data);
        mf_buf_free(&names);
        goto cleanup;
    }
    mf_buf_free(&names);
    ta_raw *raw = mf_arena_alloc(a, sizeof(*raw));
    raw->format = TA_FMT_ECDAR;
    raw->globals = text_at(a, glob, glob->json, "declarations",
                           line_of(glob->text, "declarations", NULL));
    raw->ntmpls = 1;
    raw->tmpls = mf_arena_alloc(a, sizeof(ta_raw_tmpl));
    if ((rc = read_comp(a, sys, &raw->tmpls[0])))
        goto cleanup;
    raw->instance = raw->tmpls[0].name;
    raw->src = sys->text;
    raw->srclen = sys->len;
    raw->src_path = sys->path;
    rc = ta_build(out, a, file, raw, opts);
    if (!rc)
        a = NULL;
cleanup:
    for (i = 0; fs && i < nf; i++)
        json_decref(fs[i].json);
    free(fs);
    json_decref(b);
    mf_arena_free(a);
    return ta_err_one_line(rc);
}
