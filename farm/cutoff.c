/* cutoff.c - the tally of refused results per worker (cutoff.h). A
 * bounded table: past MAX_WORKERS the oldest worker that is not cut off
 * is forgotten. */
#include "cutoff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf.h"

/* Workers remembered; past this the oldest that is not cut off goes. */
#define MAX_WORKERS 4096

typedef struct {
    char id[160];
    char key[41]; /* Z85 CURVE key, "" none */
    int refused;
    int cut;
} wtally;

struct mf_cutoff {
    MF_VEC(wtally) w;
    long refused;
};

mf_cutoff *mf_cutoff_new(void)
{
    return mf_xcalloc(1, sizeof(mf_cutoff));
}

void mf_cutoff_free(mf_cutoff *c)
{
    if (!c)
        return;
    MF_VEC_FREE(c->w);
    free(c);
}

long mf_cutoff_count(const mf_cutoff *c)
{
    return c ? c->refused : 0;
}

static wtally *find(const mf_cutoff *c, const char *id, const char *key)
{
    for (int i = 0; i < c->w.n; i++) {
        wtally *t = &c->w.v[i];
        if ((id && !strcmp(t->id, id)) || (key && t->key[0] &&
                                           !strcmp(t->key, key)))
            return t;
    }
    return NULL;
}

int mf_cutoff_refused(mf_cutoff *c, const char *id, const char *key)
{
    c->refused++;
    wtally *t = find(c, id, key);
    if (!t) {
        if (c->w.n >= MAX_WORKERS) {
            for (int i = 0; i < c->w.n; i++)
                if (!c->w.v[i].cut) {
                    c->w.v[i] = c->w.v[--c->w.n];
                    break;
                }
        }
        wtally z = {0};
        MF_VEC_PUSH(c->w, z);
        t = &c->w.v[c->w.n - 1];
        snprintf(t->id, sizeof t->id, "%s", id ? id : "");
    }
    if (key && !t->key[0])
        snprintf(t->key, sizeof t->key, "%s", key);
    if (++t->refused >= MF_CUTOFF_AFTER)
        t->cut = 1;
    return t->refused;
}

int mf_cutoff_is_cut(const mf_cutoff *c, const char *id, const char *key)
{
    if (!c || (!id && !key))
        return 0;
    for (int i = 0; i < c->w.n; i++) {
        const wtally *t = &c->w.v[i];
        if (t->cut && ((id && t->id[0] && !strcmp(t->id, id)) ||
                       (key && t->key[0] && !strcmp(t->key, key))))
            return 1;
    }
    return 0;
}
