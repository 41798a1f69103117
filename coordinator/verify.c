/* verify.c - the coordinator's replay of every reported kill, and the
 * tally of refused results per worker (verify.h, docs/security.md).
 *
 * The replay is the engine's own (mf_engine_replay, engine/
 * replay.c: the simulator by explicit enumeration), so a kill passes here
 * exactly when it passed the worker's self-check; a worker that skips the
 * self-check or makes up a test is caught. Mutants are derived from the
 * coordinator's model by id in one enumeration per result, as the worker
 * derives a job's. It decides no verdict and writes nothing. */
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf.h"
#include "lang.h"

/* Workers remembered; past this the oldest that is not cut off goes. */
#define MAX_WORKERS 4096

typedef struct {
    char id[160];
    char key[41]; /* Z85 CURVE key, "" none */
    int refused;
    int cut;
} wtally;

struct mf_verify {
    const mf_model *m;
    mf_notion_req want;
    MF_VEC(wtally) w;
    long replayed, refused;
};

mf_verify *mf_verify_new(const mf_model *m, mf_notion_req want)
{
    mf_verify *v = mf_xcalloc(1, sizeof *v);
    v->m = m;
    v->want = want;
    return v;
}

void mf_verify_free(mf_verify *v)
{
    if (!v)
        return;
    MF_VEC_FREE(v->w);
    free(v);
}

void mf_verify_counts(const mf_verify *v, long *replayed, long *refused)
{
    *replayed = v->replayed;
    *refused = v->refused;
}

/* ---- replaying ---------------------------------------------------------- */

typedef struct {
    const char *id; /* mutant id */
    int ix;         /* verdict index */
} kill_ref;

typedef struct {
    mf_verify *v;
    kill_ref *kills; /* sorted by id */
    int nkills;
    int *done;       /* per kill: 1 checked */
    const mf_verdict *verdicts;
    char *why;
    size_t nwhy;
    int bad;         /* a kill did not hold */
    int found;       /* kills checked so far */
} replay_ctx;

static int cmp_kill(const void *a, const void *b)
{
    return strcmp(((const kill_ref *)a)->id, ((const kill_ref *)b)->id);
}

/* What the worker's test says, copied: mf_engine_replay fills the allowed
 * outputs of the test it is given, and the stored one stays the worker's
 * until it is accepted. */
static mf_test *copy_for_replay(const mf_test *t)
{
    mf_test *c = mf_test_copy(t);
    c->mrefuses = t->mrefuses;
    if (t->mobs) {
        size_t n = ((size_t)t->length + 1) * (size_t)t->nobs;
        c->mobs = mf_xcalloc(n ? n : 1, sizeof *c->mobs);
        memcpy(c->mobs, t->mobs, n * sizeof *c->mobs);
    }
    return c;
}

/* Why a kill cannot even be replayed (shape, notion), or NULL. */
static const char *unreplayable(const mf_verify *v, const mf_verdict *vd)
{
    const mf_test *t = vd->test;
    if (!t)
        return "a kill without a test";
    if (t->length < 0 || t->nslots != v->m->nslots ||
        t->nobs != mf_model_nobs(v->m) || !t->inputs || !t->expect)
        return "a test that does not fit the model's variables";
    if (t->mrefuses < -1 || t->mrefuses > t->length)
        return "a test whose refusal step is outside it";
    if (vd->notion == MF_N_POTENTIAL && v->want == MF_REQ_DEFINITE)
        return "a potential kill where the campaign asks for definite ones";
    if (vd->notion != MF_N_DETERMINISTIC && vd->notion != MF_N_POTENTIAL &&
        vd->notion != MF_N_DEFINITE)
        return "a kill of no known notion";
    return NULL;
}

static void refuse(replay_ctx *x, const char *id, const char *why)
{
    if (!x->bad)
        snprintf(x->why, x->nwhy, "mutant %s: %s", id, why);
    x->bad = 1;
}

static int replay_pick(const char *id, void *arg)
{
    const replay_ctx *x = arg;
    kill_ref key = {id, 0};
    return bsearch(&key, x->kills, (size_t)x->nkills, sizeof key,
                   cmp_kill) != NULL;
}

static int replay_fn(const mf_mutant *mu, void *arg)
{
    replay_ctx *x = arg;
    kill_ref key = {mu->id, 0};
    kill_ref *hit = bsearch(&key, x->kills, (size_t)x->nkills, sizeof key,
                            cmp_kill);
    if (!hit)
        return 0;
    while (hit > x->kills && !strcmp(hit[-1].id, mu->id))
        hit--;
    for (; hit < x->kills + x->nkills && !strcmp(hit->id, mu->id); hit++) {
        int k = (int)(hit - x->kills);
        if (x->done[k])
            continue;
        x->done[k] = 1;
        x->found++;
        if (mu->status == MF_MUT_STILLBORN) {
            refuse(x, mu->id, "a kill of a stillborn mutant");
            continue;
        }
        mf_model *mm = NULL;
        if (mf_mutant_apply(&mm, x->v->m, mu) < 0) {
            refuse(x, mu->id, mf_err_msg());
            continue;
        }
        const mf_verdict *vd = &x->verdicts[hit->ix];
        mf_test *t = copy_for_replay(vd->test);
        x->v->replayed++;
        if (mf_engine_replay(x->v->m, mm, t, vd->notion) != 0) {
            char msg[600];
            snprintf(msg, sizeof msg, "its %s test does not kill it (%s)",
                     mf_notion_name(vd->notion), mf_err_msg());
            refuse(x, mu->id, msg);
        }
        mf_test_free(t);
        mf_model_free(mm);
    }
    /* The first refusal is enough; and once every kill is checked, the
     * rest of the enumeration is not needed. */
    return x->bad || x->found == x->nkills;
}

typedef struct {
    const mf_lang *lang;   /* the model's: its operators' names */
    const kill_ref *kills; /* sorted by id */
    int nkills;
    unsigned mask;
} ops_ctx;

static int op_fn(const mf_store_mutant *sm, void *arg)
{
    ops_ctx *o = arg;
    kill_ref key = {sm->id, 0};
    if (!bsearch(&key, o->kills, (size_t)o->nkills, sizeof key, cmp_kill))
        return 0;
    int op = mf_lang_op_find(o->lang, sm->op);
    if (op < 0) {
        o->mask = 0; /* an operator this build does not know: all */
        return 1;
    }
    o->mask |= 1u << op;
    return 0;
}

/* The operators of the killed mutants in the job, as a mask for
 * mf_mutants_each (0: all). Enumerating one operator's mutants instead
 * of every one is what keeps the replay cheap on models with many. */
static unsigned kill_ops(mf_store *st, int64_t job, const mf_lang *lang,
                         const kill_ref *kills, int nkills)
{
    ops_ctx o = {lang, kills, nkills, 0};
    if (!st || mf_store_job_mutants(st, job, op_fn, &o) < 0)
        return 0;
    return o.mask;
}

int mf_verify_kills(mf_verify *v, mf_store *st, int64_t job, char *why,
                    size_t nwhy, const char *const *ids,
                    const mf_verdict *verdicts, int n)
{
    replay_ctx x = {0};
    x.v = v;
    x.verdicts = verdicts;
    x.why = why;
    x.nwhy = nwhy;
    x.kills = mf_xcalloc((size_t)(n ? n : 1), sizeof *x.kills);
    for (int i = 0; i < n && !x.bad; i++) {
        if (verdicts[i].kind != MF_V_KILLED)
            continue;
        const char *bad = unreplayable(v, &verdicts[i]);
        if (bad)
            refuse(&x, ids[i], bad);
        x.kills[x.nkills++] = (kill_ref){ids[i], i};
    }
    if (!x.bad && x.nkills > 0) {
        qsort(x.kills, (size_t)x.nkills, sizeof *x.kills, cmp_kill);
        x.done = mf_xcalloc((size_t)x.nkills, sizeof *x.done);
        mf_mutants_pick(v->m, kill_ops(st, job, v->m->lang, x.kills, x.nkills),
                        replay_pick, replay_fn, &x);
        for (int k = 0; k < x.nkills && !x.bad; k++)
            if (!x.done[k])
                refuse(&x, x.kills[k].id, "no mutant of this model has "
                                          "this id");
    }
    free(x.kills);
    free(x.done);
    return x.bad;
}

/* ---- the tally ---------------------------------------------------------- */

static wtally *find(const mf_verify *v, const char *id, const char *key)
{
    for (int i = 0; i < v->w.n; i++) {
        wtally *t = &v->w.v[i];
        if ((id && !strcmp(t->id, id)) || (key && t->key[0] &&
                                           !strcmp(t->key, key)))
            return t;
    }
    return NULL;
}

int mf_verify_refused(mf_verify *v, const char *id, const char *key)
{
    v->refused++;
    wtally *t = find(v, id, key);
    if (!t) {
        if (v->w.n >= MAX_WORKERS) {
            for (int i = 0; i < v->w.n; i++)
                if (!v->w.v[i].cut) {
                    v->w.v[i] = v->w.v[--v->w.n];
                    break;
                }
        }
        wtally z = {0};
        MF_VEC_PUSH(v->w, z);
        t = &v->w.v[v->w.n - 1];
        snprintf(t->id, sizeof t->id, "%s", id ? id : "");
    }
    if (key && !t->key[0])
        snprintf(t->key, sizeof t->key, "%s", key);
    if (++t->refused >= MF_VERIFY_CUT_OFF)
        t->cut = 1;
    return t->refused;
}

int mf_verify_is_cut(const mf_verify *v, const char *id, const char *key)
{
    if (!v || (!id && !key))
        return 0;
    for (int i = 0; i < v->w.n; i++) {
        const wtally *t = &v->w.v[i];
        if (t->cut && ((id && t->id[0] && !strcmp(t->id, id)) ||
                       (key && t->key[0] && !strcmp(t->key, key))))
            return 1;
    }
    return 0;
}
