/* roles.c - which channels are inputs and which outputs, and which
 * processes model the environment (ta_roles), by the rule of
 * docs/timed.md: named by --inputs/--outputs (with one list named, the
 * other is the rest of what the system sends or receives; in UPPAAL a
 * process that sends only inputs is the environment); else, in an Ecdar
 * component, by its edges (received: input, sent: output); else, with
 * environment templates named (--env), the channels only they send are
 * inputs and those the others send to them outputs; else the network is
 * open: channels received but never sent are inputs, sent but never
 * received outputs, and when that finds none, every channel sent is an
 * output. */
#include "ta_build.h"

#include <stdlib.h>
#include <string.h>

enum { SENT = 1, RECV = 2, ENV_SENT = 4, ENV_RECV = 8, SYS_SENT = 16 };

/* The channels a flat sync may use: all of its array when the index is
 * not a constant. */
static void mark(const ta_bld *b, const ta_sync *s, int env, int *use)
{
    const ta_chan *c = &b->chans.v[s->chan];
    int lo = 0, hi = c->n - 1;
    if (s->index && s->index->kind == TA_E_INT)
        lo = hi = (int)s->index->ival;
    for (int k = lo; k <= hi; k++) {
        int *u = &use[c->base + k];
        if (s->dir == TA_SYNC_SEND)
            *u |= SENT | (env ? ENV_SENT : SYS_SENT);
        else
            *u |= RECV | (env ? ENV_RECV : 0);
    }
}

/* Names in a list: channels (an array's name stands for all of it). */
static int set_named(ta_bld *b, const char **names, int n, ta_role role,
                     const char *opt)
{
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int c = 0; c < b->chans.n; c++) {
            ta_chan *ch = &b->chans.v[c];
            const char *base = b->chans.v[ch->base].name;
            size_t k = strcspn(base, "[");
            int whole = ch->n > 1 && strlen(names[i]) == k &&
                        !strncmp(base, names[i], k);
            if (whole || !strcmp(ch->name, names[i])) {
                if (ch->role != TA_ROLE_INTERNAL && ch->role != role)
                    return mf_err_set(MF_ERROR, "%s: error: channel '%s' is "
                                      "both an input and an output", b->file,
                                      names[i]);
                ch->role = role;
                found = 1;
            }
        }
        if (!found)
            return mf_err_set(MF_ENOTFOUND, "%s: error: %s: unknown channel "
                              "'%s'", b->file, opt, names[i]);
    }
    return 0;
}

static void mark_all(ta_bld *b, int *use)
{
    const ta_net *n = b->net;
    memset(use, 0, (size_t)b->chans.n * sizeof(int));
    for (int p = 0; p < n->nprocs; p++)
        for (int k = 0; k < n->procs[p].nedges; k++) {
            const ta_edge *e = &n->procs[p].edges[k];
            if (e->sync.dir != TA_SYNC_NONE)
                mark(b, &e->sync, n->procs[p].is_env, use);
        }
}

/* With the inputs named: a process that sends, and sends only inputs,
 * models the environment (the tester sends the inputs instead). */
static void derive_env(ta_bld *b, int *use)
{
    ta_net *n = b->net;
    for (int p = 0; p < n->nprocs; p++) {
        int sends = 0, other = 0;
        for (int k = 0; k < n->procs[p].nedges; k++) {
            const ta_sync *s = &n->procs[p].edges[k].sync;
            if (s->dir != TA_SYNC_SEND)
                continue;
            const ta_chan *c = &b->chans.v[s->chan];
            int lo = 0, hi = c->n - 1;
            if (s->index && s->index->kind == TA_E_INT)
                lo = hi = (int)s->index->ival;
            for (int i = lo; i <= hi; i++) {
                sends = 1;
                other |= b->chans.v[c->base + i].role != TA_ROLE_INPUT;
            }
        }
        if (sends && !other)
            n->procs[p].is_env = 1;
    }
    mark_all(b, use);
}

/* Only one list named: the other is what the system does not take from
 * it. Only --inputs: the outputs are the other channels the system
 * sends; only --outputs: the inputs are the other channels it receives
 * and never sends. */
static void explicit_rest(ta_bld *b, const int *use, const ta_opts *o)
{
    mark_all(b, (int *)use);
    for (int c = 0; c < b->chans.n; c++) {
        ta_chan *ch = &b->chans.v[c];
        if (ch->role != TA_ROLE_INTERNAL)
            continue;
        if (!o->noutputs && (use[c] & SYS_SENT))
            ch->role = TA_ROLE_OUTPUT;
        else if (!o->ninputs && (use[c] & RECV) && !(use[c] & SYS_SENT))
            ch->role = TA_ROLE_INPUT;
    }
}

int ta_roles(ta_bld *b)
{
    const ta_opts *o = b->opts;
    ta_net *n = b->net;
    int rc = 0;
    for (int i = 0; i < o->nenv; i++) {
        int found = 0;
        for (int t = 0; t < n->ntmpls; t++)
            if (!strcmp(n->tmpls[t].name, o->env[i]))
                n->tmpls[t].is_env = found = 1;
        for (int p = 0; p < n->nprocs; p++)
            if (!strcmp(n->procs[p].name, o->env[i]))
                n->procs[p].is_env = found = 1;
        if (!found)
            return mf_err_set(MF_ENOTFOUND, "%s: error: --env: no template or "
                              "process '%s'", b->file, o->env[i]);
    }
    for (int p = 0; p < n->nprocs; p++)
        if (n->tmpls[n->procs[p].tmpl].is_env)
            n->procs[p].is_env = 1;
    int *use = mf_xcalloc((size_t)b->chans.n + 1, sizeof(int));
    if (o->ninputs || o->noutputs) {
        if ((rc = set_named(b, o->inputs, o->ninputs, TA_ROLE_INPUT,
                            "--inputs")) ||
            (rc = set_named(b, o->outputs, o->noutputs, TA_ROLE_OUTPUT,
                            "--outputs"))) {
            free(use);
            return rc;
        }
        if (n->format == TA_FMT_UPPAAL)
            derive_env(b, use);
        explicit_rest(b, use, o);
        free(use);
        return 0;
    }
    mark_all(b, use);
    int nio = 0;
    for (int c = 0; c < b->chans.n; c++) {
        ta_chan *ch = &b->chans.v[c];
        int u = use[c];
        if (n->format == TA_FMT_ECDAR) {
            if ((u & SENT) && (u & RECV)) {
                rc = mf_err_set(MF_ETYPE, "%s: error: component '%s' both "
                                "sends and receives '%s'", b->file,
                                n->procs[0].name, ch->name);
                break;
            }
            ch->role = u & SENT ? TA_ROLE_OUTPUT
                       : u & RECV ? TA_ROLE_INPUT : TA_ROLE_INTERNAL;
        } else if (o->nenv) {
            if ((u & ENV_SENT) && !(u & SYS_SENT))
                ch->role = TA_ROLE_INPUT;
            else if ((u & SYS_SENT) && ((u & ENV_RECV) || !(u & RECV)))
                ch->role = TA_ROLE_OUTPUT;
        } else {
            if ((u & RECV) && !(u & SENT))
                ch->role = TA_ROLE_INPUT;
            else if ((u & SENT) && !(u & RECV))
                ch->role = TA_ROLE_OUTPUT;
        }
        nio += ch->role != TA_ROLE_INTERNAL;
    }
    if (!rc && !nio && n->format == TA_FMT_UPPAAL)
        for (int c = 0; c < b->chans.n; c++)
            if (use[c] & SENT)
                b->chans.v[c].role = TA_ROLE_OUTPUT;
    free(use);
    return rc;
}
