/* uppaal.c - UPPAAL's XML format read with libxml2 (ta_read_uppaal): the
 * <nta> document's global declarations, templates (name, parameters,
 * declarations, locations, the initial location, transitions and their
 * labels) and system text, as the raw model the builder reads (build.c).
 * Labels that change nothing in the symbolic semantics (comments, test
 * code, statistical rates, layout) are skipped; branch points and
 * probabilities are refused as unsupported. */
#include "ta_int.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <limits.h>
#include <pthread.h>
#include <string.h>

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init_once(void)
{
    xmlInitParser();
}

void ta_xml_init(void)
{
    /* libxml2 before 2.10 wants its first initialisation on one thread */
    pthread_once(&xml_once, xml_init_once);
}

typedef struct {
    mf_arena *a;
    const char *file;
} rd;

static int is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static int xerr(const rd *r, const xmlNode *n, int code, const char *fmt,
                const char *arg)
{
    char msg[400];
    snprintf(msg, sizeof(msg), fmt, arg);
    return mf_err_set(code, "%s:%ld:0: %s: %s", r->file,
                      n ? xmlGetLineNo(n) : 0L,
                      code == MF_EUNSUPPORTED ? "unsupported" : "error", msg);
}

/* A node's text, in the arena (NULL for none). */
static const char *content(const rd *r, const xmlNode *n)
{
    xmlChar *c = xmlNodeGetContent(n);
    if (!c)
        return NULL;
    const char *s = mf_arena_strdup(r->a, (const char *)c);
    xmlFree(c);
    return s;
}

static const char *attr(const rd *r, const xmlNode *n, const char *name)
{
    xmlChar *c = xmlGetProp(n, (const xmlChar *)name);
    if (!c)
        return NULL;
    const char *s = mf_arena_strdup(r->a, (const char *)c);
    xmlFree(c);
    return s;
}

static ta_text text_of(const rd *r, const xmlNode *n)
{
    ta_text t = {content(r, n), {r->file, (int)xmlGetLineNo(n), 0}, 0};
    return t;
}

/* A name without its surrounding blanks. */
static const char *trimmed(const rd *r, const xmlNode *n)
{
    const char *s = content(r, n);
    if (!s)
        return NULL;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t k = strlen(s);
    while (k && (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\n' ||
                 s[k - 1] == '\r'))
        k--;
    return mf_arena_strndup(r->a, s, k);
}

static int count(const xmlNode *n, const char *name)
{
    int k = 0;
    for (const xmlNode *c = n->children; c; c = c->next)
        k += is_elem(c, name);
    return k;
}

static int read_loc(const rd *r, const xmlNode *n, ta_raw_loc *l)
{
    memset(l, 0, sizeof(*l));
    l->pos.file = r->file;
    l->pos.line = (int)xmlGetLineNo(n);
    l->id = attr(r, n, "id");
    if (!l->id)
        return xerr(r, n, MF_EPARSE, "a location without an %s", "id");
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (is_elem(c, "name")) {
            l->name = trimmed(r, c);
        } else if (is_elem(c, "urgent")) {
            l->urgent = 1;
        } else if (is_elem(c, "committed")) {
            l->committed = 1;
        } else if (is_elem(c, "label")) {
            const char *k = attr(r, c, "kind");
            if (k && !strcmp(k, "invariant"))
                l->inv = text_of(r, c);
            else if (!k || (strcmp(k, "comments") && strcmp(k, "exponentialrate") &&
                            strcmp(k, "testcodeEnter") &&
                            strcmp(k, "testcodeExit")))
                return xerr(r, c, MF_EUNSUPPORTED, "a location label of kind '%s'",
                            k ? k : "?");
        }
    }
    if (l->urgent && l->committed)
        return xerr(r, n, MF_EPARSE, "location '%s' both urgent and committed",
                    l->id);
    return 0;
}

static int read_edge(const rd *r, const xmlNode *n, ta_raw_edge *e)
{
    memset(e, 0, sizeof(*e));
    e->pos.file = r->file;
    e->pos.line = (int)xmlGetLineNo(n);
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (is_elem(c, "source")) {
            e->src = attr(r, c, "ref");
        } else if (is_elem(c, "target")) {
            e->dst = attr(r, c, "ref");
        } else if (is_elem(c, "label")) {
            const char *k = attr(r, c, "kind");
            ta_text *t = NULL;
            if (!k)
                return xerr(r, c, MF_EPARSE, "a label without a %s", "kind");
            if (!strcmp(k, "select"))
                t = &e->select;
            else if (!strcmp(k, "guard"))
                t = &e->guard;
            else if (!strcmp(k, "synchronisation"))
                t = &e->sync;
            else if (!strcmp(k, "assignment"))
                t = &e->update;
            else if (!strcmp(k, "comments") || !strcmp(k, "testcode"))
                continue;
            else
                return xerr(r, c, MF_EUNSUPPORTED, "a transition label of "
                            "kind '%s'", k);
            *t = text_of(r, c);
        }
    }
    if (!e->src || !e->dst)
        return xerr(r, n, MF_EPARSE, "a transition without a %s",
                    e->src ? "target" : "source");
    return 0;
}

static int read_tmpl(const rd *r, const xmlNode *n, ta_raw_tmpl *t)
{
    int rc;
    memset(t, 0, sizeof(*t));
    t->pos.file = r->file;
    t->pos.line = (int)xmlGetLineNo(n);
    t->locs = mf_arena_alloc(r->a, (size_t)(count(n, "location") + 1) *
                                       sizeof(ta_raw_loc));
    t->edges = mf_arena_alloc(r->a, (size_t)(count(n, "transition") + 1) *
                                        sizeof(ta_raw_edge));
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (is_elem(c, "name"))
            t->name = trimmed(r, c);
        else if (is_elem(c, "parameter"))
            t->params = text_of(r, c);
        else if (is_elem(c, "declaration"))
            t->decls = text_of(r, c);
        else if (is_elem(c, "location")) {
            if ((rc = read_loc(r, c, &t->locs[t->nlocs++])))
                return rc;
        } else if (is_elem(c, "branchpoint"))
            return xerr(r, c, MF_EUNSUPPORTED, "%s", "a branchpoint");
        else if (is_elem(c, "init"))
            t->init = attr(r, c, "ref");
        else if (is_elem(c, "transition")) {
            if ((rc = read_edge(r, c, &t->edges[t->nedges++])))
                return rc;
        }
    }
    if (!t->name || !*t->name)
        return xerr(r, n, MF_EPARSE, "a template without a %s", "name");
    return 0;
}

static int read_nta(const rd *r, const xmlNode *root, ta_raw *raw)
{
    int rc;
    memset(raw, 0, sizeof(*raw));
    raw->format = TA_FMT_UPPAAL;
    raw->tmpls = mf_arena_alloc(r->a, (size_t)(count(root, "template") + 1) *
                                          sizeof(ta_raw_tmpl));
    int nsys = 0;
    for (const xmlNode *c = root->children; c; c = c->next) {
        if (is_elem(c, "declaration"))
            raw->globals = text_of(r, c);
        else if (is_elem(c, "template")) {
            if ((rc = read_tmpl(r, c, &raw->tmpls[raw->ntmpls++])))
                return rc;
        } else if (is_elem(c, "system")) {
            raw->system = text_of(r, c);
            nsys++;
        } else if (is_elem(c, "instantiation")) {
            ta_text t = text_of(r, c);
            if (t.text && strspn(t.text, " \t\r\n") != strlen(t.text))
                return xerr(r, c, MF_EUNSUPPORTED, "%s",
                            "an <instantiation> element");
        }
    }
    if (nsys != 1)
        return xerr(r, root, MF_EPARSE, "%s", nsys ? "more than one <system>"
                                                   : "no <system> element");
    if (!raw->system.text || strspn(raw->system.text, " \t\r\n") ==
                                 strlen(raw->system.text))
        return xerr(r, root, MF_EPARSE, "%s", "an empty <system> element");
    return 0;
}

int ta_read_uppaal(ta_net **out, const char *file, const char *text,
                   size_t len, const ta_opts *opts)
{
    *out = NULL;
    if (!file)
        file = "<model>";
    if (len > INT_MAX)
        return mf_err_set(MF_ELIMIT, "%s: error: model too large", file);
    ta_xml_init();
    mf_arena *a = mf_arena_new();
    rd r = {a, mf_arena_strdup(a, file)};
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        mf_arena_free(a);
        return mf_err_set(MF_ERROR, "%s: error: out of memory for libxml2",
                          file);
    }
    int rc = 0;
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, text, (int)len, file, NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR |
                                          XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *e = xmlCtxtGetLastError(ctxt);
        char msg[300] = "not well-formed";
        if (e && e->message) {
            snprintf(msg, sizeof(msg), "%s", e->message);
            size_t k = strlen(msg);
            while (k && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
                msg[--k] = '\0';
            for (char *p = msg; *p; p++) /* one line */
                if (*p == '\n' || *p == '\r')
                    *p = ' ';
        }
        rc = mf_err_set(MF_EPARSE, "%s:%d:0: error: not UPPAAL XML: %s",
                        file, e ? e->line : 0, msg);
        goto cleanup;
    }
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || !is_elem(root, "nta")) {
        rc = xerr(&r, root, MF_EPARSE, "not an UPPAAL model (the root "
                  "element is <%s>, not <nta>)",
                  root ? (const char *)root->name : "?");
        goto cleanup;
    }
    ta_raw *raw = mf_arena_alloc(a, sizeof(*raw));
    if ((rc = read_nta(&r, root, raw)))
        goto cleanup;
    raw->src = mf_arena_strndup(a, text, len);
    raw->srclen = len;
    rc = ta_build(out, a, r.file, raw, opts);
    if (!rc)
        a = NULL; /* the net's now */
cleanup:
    if (doc)
        xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    mf_arena_free(a);
    return ta_err_one_line(rc);
}
