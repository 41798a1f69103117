/* mutant_print.c - a mutant printed back in its model's format
 * (ta_mutant_print), so that UPPAAL or Ecdar opens it: the original XML
 * document (libxml2) or the Ecdar component's JSON (jansson) with the
 * mutated item's labels, target or presence changed (a removed
 * location stays, without its edges, as in the mutated network) and the
 * change marked (an XML comment before the item; the component's description in
 * JSON, which has no comments). Everything else is the original's. */
#include "ta_mut.h"

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mark_text(mf_buf *b, const ta_mutant *mu)
{
    mf_buf_printf(b, "mutant %s (%s): %s", mu->id, ta_op_names[mu->op],
                  mu->desc ? mu->desc : "");
}

/* ---- UPPAAL XML ----------------------------------------------------------------- */

static int is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static xmlNode *nth_child(xmlNode *p, const char *name, int k)
{
    for (xmlNode *c = p ? p->children : NULL; c; c = c->next)
        if (is_elem(c, name) && k-- == 0)
            return c;
    return NULL;
}

static int has_prop(xmlNode *n, const char *prop, const char *value)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)prop);
    int eq = v && !strcmp((const char *)v, value);
    xmlFree(v);
    return eq;
}

/* A transition's label of kind, made to hold text (removed when empty). */
static void set_label(xmlNode *tr, const char *kind, const char *text)
{
    xmlNode *l = NULL;
    for (xmlNode *c = tr->children; c && !l; c = c->next)
        if (is_elem(c, "label") && has_prop(c, "kind", kind))
            l = c;
    if (!text || !*text) {
        if (l) {
            xmlUnlinkNode(l);
            xmlFreeNode(l);
        }
        return;
    }
    if (!l) {
        l = xmlNewChild(tr, NULL, (const xmlChar *)"label", NULL);
        xmlNewProp(l, (const xmlChar *)"kind", (const xmlChar *)kind);
    }
    while (l->children) {
        xmlNode *c = l->children;
        xmlUnlinkNode(c);
        xmlFreeNode(c);
    }
    xmlAddChild(l, xmlNewText((const xmlChar *)text));
}

static void set_ref(xmlNode *tr, const char *elem, const char *id)
{
    xmlNode *s = NULL;
    for (xmlNode *c = tr->children; c && !s; c = c->next)
        if (is_elem(c, elem))
            s = c;
    if (!s)
        s = xmlNewChild(tr, NULL, (const xmlChar *)elem, NULL);
    xmlSetProp(s, (const xmlChar *)"ref", (const xmlChar *)id);
}

static void edge_labels(xmlNode *tr, const ta_raw_edge *re)
{
    set_ref(tr, "source", re->src);
    set_ref(tr, "target", re->dst);
    set_label(tr, "select", re->select.text);
    set_label(tr, "guard", re->guard.text);
    set_label(tr, "synchronisation", re->sync.text);
    set_label(tr, "assignment", re->update.text);
}

static void comment_before(xmlNode *at, xmlNode *parent, const ta_mutant *mu)
{
    mf_buf b = {0};
    mf_buf_puts(&b, " ");
    mark_text(&b, mu);
    mf_buf_puts(&b, " ");
    /* "--" may not appear in an XML comment */
    for (char *p = b.data; (p = strstr(p, "--"));)
        p[1] = '~';
    xmlNode *c = xmlNewComment((const xmlChar *)b.data);
    if (at)
        xmlAddPrevSibling(at, c);
    else
        xmlAddChild(parent, c);
    mf_buf_free(&b);
}

static int print_uppaal(mf_buf *out, const ta_net *n, const ta_mutant *mu,
                        const ta_raw *r)
{
    const ta_raw *src = n->priv;
    if (src->srclen > INT_MAX)
        return -1;
    ta_xml_init();
    xmlDocPtr doc = xmlReadMemory(src->src, (int)src->srclen, n->file, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR |
                                      XML_PARSE_NOWARNING);
    if (!doc)
        return -1;
    xmlNode *tn = nth_child(xmlDocGetRootElement(doc), "template", mu->tmpl);
    const ta_raw_tmpl *rt = &r->tmpls[mu->tmpl];
    int rc = tn ? 0 : -1;
    xmlNode *at;
    switch (rc ? -1 : (int)mu->kind) {
    case TA_MK_EDGE:
        at = nth_child(tn, "transition", mu->item);
        if (!at) {
            rc = -1;
            break;
        }
        edge_labels(at, &rt->edges[mu->item]);
        comment_before(at, tn, mu);
        break;
    case TA_MK_EDGE_DEL:
        at = nth_child(tn, "transition", mu->item);
        if (!at) {
            rc = -1;
            break;
        }
        comment_before(at, tn, mu);
        xmlUnlinkNode(at);
        xmlFreeNode(at);
        break;
    case TA_MK_EDGE_ADD: {
        xmlNode *tr = xmlNewNode(NULL, (const xmlChar *)"transition");
        edge_labels(tr, &rt->edges[rt->nedges - 1]);
        xmlAddChild(tn, tr);
        comment_before(tr, tn, mu);
        break;
    }
    case TA_MK_LOC:
        at = nth_child(tn, "location", mu->item);
        if (!at) {
            rc = -1;
            break;
        }
        set_label(at, "invariant", rt->locs[mu->item].inv.text);
        comment_before(at, tn, mu);
        break;
    case TA_MK_LOC_DEL: {
        const char *id = rt->locs[mu->item].id;
        at = nth_child(tn, "location", mu->item);
        if (!at) {
            rc = -1;
            break;
        }
        /* the location stays, unreachable: its edges go */
        comment_before(at, tn, mu);
        for (xmlNode *c = tn->children, *next; c; c = next) {
            next = c->next;
            if (!is_elem(c, "transition"))
                continue;
            int hit = 0;
            for (xmlNode *s = c->children; s; s = s->next)
                hit |= (is_elem(s, "source") || is_elem(s, "target")) &&
                       has_prop(s, "ref", id);
            if (hit) {
                xmlUnlinkNode(c);
                xmlFreeNode(c);
            }
        }
        break;
    }
    default:
        rc = -1;
    }
    if (!rc) {
        xmlChar *mem = NULL;
        int size = 0;
        xmlDocDumpMemoryEnc(doc, &mem, &size, "UTF-8");
        if (mem)
            mf_buf_put(out, (const char *)mem, (size_t)size);
        xmlFree(mem);
    }
    xmlFreeDoc(doc);
    return rc;
}

/* ---- Ecdar JSON ------------------------------------------------------------------ */

static void json_edge(json_t *o, const ta_raw_edge *re)
{
    json_object_set_new(o, "sourceLocation", json_string(re->src));
    json_object_set_new(o, "targetLocation", json_string(re->dst));
    json_object_set_new(o, "select", json_string(re->select.text ? re->select.text
                                                                 : ""));
    json_object_set_new(o, "guard", json_string(re->guard.text ? re->guard.text
                                                               : ""));
    json_object_set_new(o, "update", json_string(re->update.text ? re->update.text
                                                                 : ""));
    const char *s = re->sync.text ? re->sync.text : "";
    size_t k = strlen(s);
    int in = k && s[k - 1] == '?';
    if (k && (s[k - 1] == '?' || s[k - 1] == '!'))
        k--;
    json_object_set_new(o, "sync", json_stringn(s, k));
    json_object_set_new(o, "status", json_string(in ? "INPUT" : "OUTPUT"));
}

static const char *jstr(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static int print_ecdar(mf_buf *out, const ta_net *n, const ta_mutant *mu,
                       const ta_raw *r)
{
    const ta_raw *src = n->priv;
    json_error_t je;
    json_t *c = json_loadb(src->src, src->srclen, 0, &je);
    json_t *locs = json_object_get(c, "locations");
    json_t *edges = json_object_get(c, "edges");
    const ta_raw_tmpl *rt = &r->tmpls[0];
    if (!json_is_array(locs) || !json_is_array(edges) || mu->tmpl != 0) {
        json_decref(c);
        return -1;
    }
    json_t *e = NULL;
    switch (mu->kind) {
    case TA_MK_EDGE:
        if ((e = json_array_get(edges, (size_t)mu->item)))
            json_edge(e, &rt->edges[mu->item]);
        break;
    case TA_MK_EDGE_DEL:
        json_array_remove(edges, (size_t)mu->item);
        break;
    case TA_MK_EDGE_ADD: {
        e = json_object();
        char id[32];
        snprintf(id, sizeof(id), "E_mutant_%s", mu->id);
        json_object_set_new(e, "id", json_string(id));
        json_object_set_new(e, "group", json_string(""));
        json_edge(e, &rt->edges[rt->nedges - 1]);
        json_object_set_new(e, "isLocked", json_false());
        json_object_set_new(e, "nails", json_array());
        json_array_append_new(edges, e);
        break;
    }
    case TA_MK_LOC:
        if ((e = json_array_get(locs, (size_t)mu->item)))
            json_object_set_new(e, "invariant",
                                json_string(rt->locs[mu->item].inv.text
                                                ? rt->locs[mu->item].inv.text
                                                : ""));
        break;
    case TA_MK_LOC_DEL: {
        const char *id = rt->locs[mu->item].id;
        for (size_t k = json_array_size(edges); k-- > 0;) {
            json_t *x = json_array_get(edges, k);
            if (!strcmp(jstr(x, "sourceLocation"), id) ||
                !strcmp(jstr(x, "targetLocation"), id))
                json_array_remove(edges, k);
        }
        break; /* the location stays, unreachable: its edges go */
    }
    }
    mf_buf b = {0};
    mark_text(&b, mu);
    json_object_set_new(c, "description", json_string(b.data));
    mf_buf_free(&b);
    char *s = json_dumps(c, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (s) {
        mf_buf_puts(out, s);
        mf_buf_puts(out, "\n");
    }
    free(s);
    json_decref(c);
    return s ? 0 : -1;
}

void ta_mutant_print(mf_buf *out, const ta_net *n, const ta_mutant *mu)
{
    mf_arena *a = mf_arena_new();
    const ta_raw *src = n->priv;
    int rc = -1;
    if (src && src->src && mu->tmpl >= 0 && mu->tmpl < n->ntmpls) {
        ta_raw *r = ta_raw_mutate(a, n, mu);
        rc = n->format == TA_FMT_ECDAR ? print_ecdar(out, n, mu, r)
                                       : print_uppaal(out, n, mu, r);
    }
    if (rc) {
        mf_buf b = {0};
        mark_text(&b, mu);
        if (n->format == TA_FMT_ECDAR)
            mf_buf_printf(out, "{\"description\": \"%s: cannot be printed in "
                          "this model\"}\n", mu->id);
        else
            mf_buf_printf(out, "<!-- %s: cannot be printed in this model "
                          "-->\n", mu->id);
        mf_buf_free(&b);
    }
    mf_arena_free(a);
}
