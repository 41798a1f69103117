/* network.c - the raw model of a format reader to a network (ta_build),
 * the builder's steps in order: the global declarations (build.c), the
 * templates, the processes (flatten.c), the inputs and outputs (roles.c). */
#include "ta_build.h"

#include <stdlib.h>
#include <string.h>

/* Moves a vector's elements into the arena. */
static void *keep(mf_arena *a, const void *v, int n, size_t size)
{
    void *p = mf_arena_alloc(a, (size_t)(n + 1) * size);
    if (n)
        memcpy(p, v, (size_t)n * size);
    return p;
}

int ta_build(ta_net **out, mf_arena *a, const char *file, const ta_raw *raw,
             const ta_opts *opts)
{
    static const ta_opts none = {0};
    ta_bld b = {0};
    ta_net *n = mf_arena_alloc(a, sizeof(*n));
    int rc;
    *out = NULL;
    n->arena = a;
    n->file = mf_arena_strdup(a, file ? file : "<model>");
    n->format = raw->format;
    n->priv = (void *)raw;
    b.net = n;
    b.a = a;
    b.file = n->file;
    b.raw = raw;
    b.opts = opts ? opts : &none;
    b.cur = -1;
    b.pos = raw->globals.pos;
    ta_pdecls gd;
    if ((rc = ta_bld_parse_decls(&b, &raw->globals, &gd)) ||
        (rc = ta_bld_declare(&b, &gd)))
        goto cleanup;
    n->ntmpls = raw->ntmpls;
    n->tmpls = mf_arena_alloc(a, (size_t)(raw->ntmpls + 1) * sizeof(ta_tmpl));
    b.tb = mf_xcalloc((size_t)raw->ntmpls + 1, sizeof(ta_tbld));
    for (int i = 0; i < raw->ntmpls; i++)
        if ((rc = ta_bld_template(&b, i)))
            goto cleanup;
    b.cur = -1;
    if ((rc = ta_flatten(&b)))
        goto cleanup;
    if (raw->roles_from) {
        const ta_net *o = raw->roles_from;
        for (int i = 0; i < b.chans.n && i < o->nchans; i++)
            b.chans.v[i].role = o->chans[i].role;
        for (int i = 0; i < n->ntmpls && i < o->ntmpls; i++)
            n->tmpls[i].is_env = o->tmpls[i].is_env;
        for (int i = 0; i < n->nprocs && i < o->nprocs; i++)
            n->procs[i].is_env = o->procs[i].is_env;
    } else if ((rc = ta_roles(&b))) {
        goto cleanup;
    }
    n->nvars = b.vars.n;
    n->vars = keep(a, b.vars.v, b.vars.n, sizeof(ta_var));
    n->nchans = b.chans.n;
    n->chans = keep(a, b.chans.v, b.chans.n, sizeof(ta_chan));
    n->nfuncs = b.funcs.n;
    n->funcs = keep(a, b.funcs.v, b.funcs.n, sizeof(ta_func));
    *out = n;
cleanup:
    for (int i = 0; b.tb && i < raw->ntmpls; i++)
        MF_VEC_FREE(b.tb[i].syms);
    free(b.tb);
    MF_VEC_FREE(b.gsyms);
    MF_VEC_FREE(b.types);
    MF_VEC_FREE(b.vars);
    MF_VEC_FREE(b.chans);
    MF_VEC_FREE(b.funcs);
    return rc;
}
