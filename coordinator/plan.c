/* plan.c - a campaign planned into the store (coord_int.h): every mutant
 * of the model streamed into SQLite under the campaign's operators (or
 * an evenly spaced sample of them, [campaign] sample), duplicates and
 * stillborn ones recorded and never sent, and what an earlier finished
 * campaign of the model gives (coordinator/rerun.h: verdicts carried,
 * stored tests replayed) taken over before any job is cut. It cuts no
 * job and serves nothing. */
#include "coord_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf.h"
#include "mutate.h"
#include "rerun.h"
#include "smv.h"

#define say(c, ...) mf_farm_say((c)->farm, __VA_ARGS__)

typedef struct {
    mf_coord *c;
    long n, dup, still;
    int err;
    mf_rerun *rr;      /* what an earlier campaign gives; NULL none */
    long sample;       /* [campaign] sample: keep this many, 0 all */
    long ok_total;     /* mutants to check, when sampling */
    long ok_seen, kept;
} plan_ctx;

/* With a sample of N of M mutants to check, the k-th kept is number
 * k * M / N (evenly spaced, as `mutfarm check --sample`); the rest, and
 * duplicates and stillborn ones, are not part of the campaign. */
static int sampled_out(plan_ctx *p, const mf_mutant *mu)
{
    if (!p->sample)
        return 0;
    if (mu->status != MF_MUT_OK)
        return 1;
    long at = p->ok_seen++;
    if (p->kept >= p->sample ||
        at != (long)((int64_t)p->kept * p->ok_total / p->sample))
        return 1;
    p->kept++;
    return 0;
}

static int plan_fn(const mf_mutant *mu, void *ctx)
{
    plan_ctx *p = ctx;
    if (sampled_out(p, mu))
        return 0;
    int rc = mf_store_plan_add(p->c->st, mu);
    if (rc == 0 && p->rr)
        rc = mf_rerun_mutant(p->rr, mu);
    if (rc < 0) {
        p->err = rc;
        return 1;
    }
    p->n++;
    p->dup += mu->status == MF_MUT_DUPLICATE;
    p->still += mu->status == MF_MUT_STILLBORN;
    return 0;
}

static int count_ok_fn(const mf_mutant *mu, void *ctx)
{
    *(long *)ctx += mu->status == MF_MUT_OK;
    return 0;
}

/* MF_TEST_SYNTHETIC=N (benchmarks only): N made-up mutants, 64 per model
 * item, that only a stub worker can answer (bench/farm.sh). */
static int plan_synthetic(long n, plan_ctx *p)
{
    char id[17], site[64];
    for (long i = 0; i < n; i++) {
        uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        snprintf(id, sizeof id, "%016llx", (unsigned long long)z);
        snprintf(site, sizeof site, "synthetic/%ld", i);
        mf_mutant mu = {0};
        mu.lang = &mf_lang_smv; /* synthetic: SMV's negations */
        mu.op = MF_MOP_NEGATE;
        mu.item = (int)(i / 64);
        mu.site = site;
        mu.repl = "";
        mu.line = 1;
        mu.col = 1;
        memcpy(mu.id, id, sizeof mu.id);
        mu.status = MF_MUT_OK;
        mu.desc = "synthetic mutant (benchmark)";
        if (plan_fn(&mu, p))
            return 1;
    }
    return 0;
}

/* What the campaign took over, as one line after the plan's. */
static void say_reuse(mf_coord *c, const mf_store_reuse *r)
{
    long long id = (long long)c->camp.id, basis = (long long)r->basis;
    if (r->mode == MF_REUSE_FRESH)
        say(c, "campaign %lld: --fresh: nothing taken over from earlier "
               "campaigns", id);
    else if (r->mode == MF_REUSE_CARRY)
        say(c, "campaign %lld: same model and options as campaign %lld: "
               "%lld verdict(s) carried over, %lld killed by its %lld "
               "stored test(s), %lld left to the workers",
            id, basis, (long long)r->carried, (long long)r->replay_killed,
            (long long)r->replay_tests, (long long)r->to_solver);
    else if (r->mode == MF_REUSE_REPLAY && c->o.augment)
        say(c, "campaign %lld: --augment: %lld mutant(s) killed by the "
               "%lld test(s) of suite '%s' (imported in campaign %lld; %lld "
               "wrong or longer than the bound, not used), %lld left to the "
               "workers",
            id, (long long)r->replay_killed, (long long)r->replay_tests,
            c->o.augment, basis, (long long)r->replay_skipped,
            (long long)r->to_solver);
    else if (r->mode == MF_REUSE_REPLAY && r->carried_cone)
        say(c, "campaign %lld: the model or the options changed since "
               "campaign %lld: %lld verdict(s) carried (the edit is outside "
               "their cone), %lld mutant(s) killed by its %lld stored "
               "test(s) (%lld with outputs expected anew, %lld not "
               "replayable), %lld left to the workers",
            id, basis, (long long)r->carried_cone,
            (long long)r->replay_killed, (long long)r->replay_tests,
            (long long)r->reexpected, (long long)r->replay_skipped,
            (long long)r->to_solver);
    else if (r->mode == MF_REUSE_REPLAY)
        say(c, "campaign %lld: the model or the options changed since "
               "campaign %lld: %lld mutant(s) killed by its %lld stored "
               "test(s) (%lld with outputs expected anew, %lld not "
               "replayable), %lld left to the workers",
            id, basis, (long long)r->replay_killed,
            (long long)r->replay_tests, (long long)r->reexpected,
            (long long)r->replay_skipped, (long long)r->to_solver);
}

int mf_coord_plan(mf_coord *c)
{
    int64_t t0 = mf_farm_now_ms();
    plan_ctx p = {0};
    p.c = c;
    p.sample = c->cfg.sample;
    const char *syn = getenv("MF_TEST_SYNTHETIC");
    int synthetic = syn && *syn;
    int rc = 0;
    if (p.sample && !synthetic) {
        rc = mf_mutants_each(c->model, c->mask, count_ok_fn, &p.ok_total);
        if (rc < 0)
            return rc;
        if (p.ok_total <= p.sample)
            p.sample = 0; /* all of them */
    }
    if (!synthetic) {
        mf_model_opts mo = {0};
        mo.inputs = c->inputs.v;
        mo.ninputs = c->inputs.n;
        mo.observe = c->observe.v;
        mo.nobserve = c->observe.n;
        mf_rerun_opts ro = {c->o.fresh,    c->cfg.bound,
                            c->cfg.notion, c->model_id,
                            c->model_name, c->options.data,
                            c->o.augment,  &mo};
        rc = mf_rerun_open(&p.rr, c->st, c->model, &ro);
        if (rc < 0)
            return rc;
    }
    rc = mf_store_plan_begin(c->st, c->camp.id);
    if (rc < 0) {
        mf_rerun_free(p.rr);
        return rc;
    }
    if (synthetic) {
        char *end;
        long n = strtol(syn, &end, 10);
        if (*end || n < 0 || n > 100000000) {
            mf_store_plan_end(c->st, 0);
            return mf_err_set(MF_ERROR, "MF_TEST_SYNTHETIC=%s: not a count",
                              syn);
        }
        say(c, "test mode: %ld synthetic mutants (only stub workers can "
                "answer them)", n);
        rc = plan_synthetic(n, &p);
    } else {
        rc = mf_mutants_each(c->model, c->mask, plan_fn, &p);
    }
    if (p.err == 0 && rc >= 0 && p.rr)
        rc = mf_rerun_finish(p.rr);
    if (p.err < 0 || rc < 0) {
        mf_store_plan_end(c->st, 0);
        mf_rerun_free(p.rr);
        return p.err < 0 ? p.err : rc;
    }
    rc = mf_store_plan_end(c->st, 1);
    if (rc == 0 && p.rr) {
        c->reuse = *mf_rerun_stats(p.rr);
        c->has_reuse = 1;
    }
    mf_rerun_free(p.rr);
    if (rc < 0)
        return rc;
    say(c, "campaign %lld: planned %ld mutants (%ld to check, %ld "
            "duplicate, %ld stillborn) in %.1f s",
         (long long)c->camp.id, p.n, p.n - p.dup - p.still, p.dup, p.still,
         (double)(mf_farm_now_ms() - t0) / 1000.0);
    if (p.sample)
        say(c, "campaign %lld: a sample of %ld evenly spaced of the %ld "
               "mutants to check",
            (long long)c->camp.id, p.kept, p.ok_total);
    if (c->has_reuse)
        say_reuse(c, &c->reuse);
    return 0;
}
