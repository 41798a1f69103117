/* tae_rules.c - the paper's rules 2..12 (tae_rules.h). An edge is
 * controllable when its channel is an input of the system and
 * uncontrollable when it is an output; internal edges fall under no rule.
 * Only the system's own syncs count: receiving an input, sending an
 * output. The rules apply when the system is one process (the paper's
 * setting), not to a network of several. A clock constraint's form (x <= k, x >= k, x == k) is that of the
 * original's atom that the mutation changed; diagonal constraints fall
 * under no rule. The initial location is entered without an edge, so the
 * rules on a location's incoming edges never apply to it. */
#include "tae_rules.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const texts[TAE_NRULES + 1] = {
    NULL,
    "the SUT shall not be redundant",
    "TMI shall not be applied to uncontrollable transitions",
    "TAD shall not be applied to controllable transitions",
    "SMI shall not be applied when all incoming transitions are "
    "uncontrollable",
    "CXL shall not be applied to controllable transitions with guards "
    "x <= k",
    "CXL shall not be applied to uncontrollable transitions with guards "
    "x >= k, or x == k with source invariant x <= k",
    "CXL can be applied to invariants x <= k",
    "CXL shall not be applied to invariants x >= k whenever all incoming "
    "transitions are uncontrollable",
    "CXS shall not be applied to controllable transitions with guards "
    "x >= k",
    "CXS shall not be applied to uncontrollable transitions with guards "
    "x <= k",
    "CXS shall not be applied to invariants x <= k whenever all incoming "
    "transitions are uncontrollable",
    "CXS shall not be applied to invariants x >= k whenever all incoming "
    "transitions are controllable",
};

const char *tae_rule_text(int rule)
{
    return rule >= 1 && rule <= TAE_NRULES ? texts[rule] : "";
}

/* A flattened process of template t, or NULL. */
static const ta_proc *proc_of(const ta_net *n, int t)
{
    for (int p = 0; p < n->nprocs; p++)
        if (n->procs[p].tmpl == t && !n->procs[p].is_env)
            return &n->procs[p];
    return NULL;
}

/* What a template-level edge is for the tester: TA_ROLE_INPUT when it
 * receives an input, TA_ROLE_OUTPUT when it sends an output; otherwise
 * TA_ROLE_INTERNAL (no sync) or -1 (unknown, or a sync the other way). */
static int role_of(const ta_net *n, const ta_edge *e, const ta_edge *flat)
{
    int role = -1;
    if (e->sync.dir == TA_SYNC_NONE)
        return TA_ROLE_INTERNAL;
    const ta_expr *x = e->sync.e;
    if (x && x->kind == TA_E_INDEX)
        x = x->kids[0];
    if (x && x->kind == TA_E_REF && x->ref_kind == TA_R_CHAN && x->ref >= 0 &&
        x->ref < n->nchans)
        role = (int)n->chans[x->ref].role;
    else if (flat && flat->sync.dir != TA_SYNC_NONE && flat->sync.chan >= 0 &&
             flat->sync.chan < n->nchans)
        role = (int)n->chans[flat->sync.chan].role;
    if (role == TA_ROLE_INPUT && e->sync.dir == TA_SYNC_RECV)
        return role;
    if (role == TA_ROLE_OUTPUT && e->sync.dir == TA_SYNC_SEND)
        return role;
    return -1;
}

static int bound_of(const ta_expr *b, int64_t *k)
{
    if (!b || b->kind != TA_E_INT)
        return 0;
    *k = b->ival;
    return 1;
}

/* The clock constraint a CXL or CXS mutant changes: the j of its site's
 * ".../guard/ccJ" or ".../invariant/ccJ" (the operators' site names,
 * docs/timed.md), or -1. */
static int atom_of(const ta_mutant *mu)
{
    const char *p = mu->site ? strrchr(mu->site, '/') : NULL;
    char *end = NULL;
    if (!p || strncmp(p, "/cc", 3))
        return -1;
    long j = strtol(p + 3, &end, 10);
    if (end == p + 3 || *end || j < 0 || j > 100000)
        return -1;
    return (int)j;
}

enum { F_NONE, F_LE, F_GE, F_EQ };

static int form(const ta_cc *c)
{
    if (c->y >= 0)
        return F_NONE;
    switch (c->op) {
    case TA_OP_LE:
    case TA_OP_LT: return F_LE;
    case TA_OP_GE:
    case TA_OP_GT: return F_GE;
    case TA_OP_EQ: return F_EQ;
    default: return F_NONE;
    }
}

/* Every edge entering location l from another one has this role (1), or
 * not (0); the initial location never qualifies. */
static int all_incoming(const ta_net *n, const ta_tmpl *t, const ta_proc *p,
                        int l, int role)
{
    if (l == t->init)
        return 0;
    for (int e = 0; e < t->nedges; e++) {
        const ta_edge *E = &t->edges[e];
        if (E->dst != l || E->src == l)
            continue;
        if (role_of(n, E, p && e < p->nedges ? &p->edges[e] : NULL) != role)
            return 0;
    }
    return 1;
}

/* Rule 6 (ii): x == k whose increase leaves the source's invariant. */
static int beyond_source_inv(const ta_proc *p, const ta_edge *fe,
                             const ta_cc *c, int64_t newk)
{
    const ta_loc *src = &p->locs[fe->src];
    for (int k = 0; k < src->ncc; k++) {
        const ta_cc *i = &src->cc[k];
        int64_t b = 0;
        if (i->x != c->x || i->y >= 0 || !bound_of(i->bound, &b))
            continue;
        if ((i->op == TA_OP_LE && newk > b) || (i->op == TA_OP_LT && newk >= b))
            return 1;
    }
    return 0;
}

static int edge_rule(const ta_net *n, const ta_mutant *mu, const ta_tmpl *t,
                     const ta_proc *p)
{
    if (mu->item < 0 || mu->item >= t->nedges || !p || mu->item >= p->nedges)
        return 0;
    const ta_edge *old = &t->edges[mu->item], *fe = &p->edges[mu->item];
    int role = role_of(n, old, fe);
    if (mu->op == TA_MOP_TMI && mu->kind == TA_MK_EDGE_DEL)
        return role == TA_ROLE_OUTPUT ? 2 : 0;
    if (mu->kind != TA_MK_EDGE || !mu->new_edge ||
        (mu->op != TA_MOP_CXL && mu->op != TA_MOP_CXS))
        return 0;
    int k = atom_of(mu);
    if (k < 0 || k >= fe->ncc)
        return 0;
    int f = form(&fe->cc[k]);
    int in = role == TA_ROLE_INPUT, out = role == TA_ROLE_OUTPUT;
    if (mu->op == TA_MOP_CXL) {
        int64_t nk = 0;
        if (in && f == F_LE)
            return 5;
        if (out && f == F_GE)
            return 6;
        /* CXL adds one to the constant */
        if (out && f == F_EQ && bound_of(fe->cc[k].bound, &nk) &&
            beyond_source_inv(p, fe, &fe->cc[k], nk + 1))
            return 6;
        return 0;
    }
    if (in && f == F_GE)
        return 9;
    if (out && f == F_LE)
        return 10;
    return 0;
}

static int loc_rule(const ta_net *n, const ta_mutant *mu, const ta_tmpl *t,
                    const ta_proc *p)
{
    if (mu->item < 0 || mu->item >= t->nlocs || !p)
        return 0;
    int l = mu->item;
    if (mu->op == TA_MOP_SMI && mu->kind == TA_MK_LOC_DEL)
        return all_incoming(n, t, p, l, TA_ROLE_OUTPUT) ? 4 : 0;
    if (mu->kind != TA_MK_LOC || !mu->new_loc ||
        (mu->op != TA_MOP_CXL && mu->op != TA_MOP_CXS))
        return 0;
    const ta_loc *fl = &p->locs[l];
    int k = atom_of(mu);
    if (k < 0 || k >= fl->ncc)
        return 0;
    int f = form(&fl->cc[k]);
    if (mu->op == TA_MOP_CXL)
        return f == F_GE && all_incoming(n, t, p, l, TA_ROLE_OUTPUT) ? 8 : 0;
    if (f == F_LE && all_incoming(n, t, p, l, TA_ROLE_OUTPUT))
        return 11;
    if (f == F_GE && all_incoming(n, t, p, l, TA_ROLE_INPUT))
        return 12;
    return 0;
}

int tae_rule_of(const ta_net *n, const ta_mutant *mu)
{
    int nsys = 0;
    for (int p = 0; p < n->nprocs; p++)
        nsys += !n->procs[p].is_env;
    /* the paper's setting: one automaton; in a network an edge's
     * removal or addition changes what the other processes do too */
    if (nsys != 1 || mu->tmpl < 0 || mu->tmpl >= n->ntmpls)
        return 0;
    const ta_tmpl *t = &n->tmpls[mu->tmpl];
    const ta_proc *p = proc_of(n, mu->tmpl);
    switch (mu->kind) {
    case TA_MK_EDGE_ADD:
        if (mu->op == TA_MOP_TAD && mu->new_edge &&
            role_of(n, mu->new_edge, NULL) == TA_ROLE_INPUT)
            return 3;
        return 0;
    case TA_MK_EDGE:
    case TA_MK_EDGE_DEL:
        return edge_rule(n, mu, t, p);
    case TA_MK_LOC:
    case TA_MK_LOC_DEL:
        return loc_rule(n, mu, t, p);
    }
    return 0;
}
