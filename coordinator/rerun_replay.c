/* rerun_replay.c - does a given test kill a mutant (rerun_replay.h): a
 * test made ready on the model (model/kill_replay.h: the original's graph
 * along its inputs, its expected observables checked or taken anew), a
 * kill claimed by the simulator with the campaign's notion, and the claim
 * confirmed by mf_engine_replay before it is returned. The searches are
 * model/kill_replay.c's, the kill matrix's too. */
#include "rerun_replay.h"

#include <stdlib.h>

#include "kill_replay.h"

struct mf_replay {
    const mf_model *m;
    mf_kill_test *kt;
};

int mf_replay_new(mf_replay **out, const mf_model *m, const mf_test *t,
                  int *reexpected)
{
    mf_kill_test *kt = NULL;
    *out = NULL;
    int rc = mf_kill_test_new(&kt, m, t, reexpected);
    if (rc < 0)
        return rc;
    mf_replay *r = mf_xcalloc(1, sizeof *r);
    r->m = m;
    r->kt = kt;
    *out = r;
    return 0;
}

void mf_replay_free(mf_replay *r)
{
    if (!r)
        return;
    mf_kill_test_free(r->kt);
    free(r);
}

const mf_test *mf_replay_test(const mf_replay *r)
{
    return mf_kill_test_of(r->kt);
}

long mf_replay_size(const mf_replay *r)
{
    return mf_kill_test_size(r->kt);
}

int mf_replay_kill(mf_replay *r, const mf_model *mm, mf_notion_req want,
                   mf_test **out, mf_notion *notion)
{
    mf_kill_want w = want == MF_REQ_DEFINITE    ? MF_KILL_DEFINITE
                     : want == MF_REQ_POTENTIAL ? MF_KILL_POTENTIAL
                                                : MF_KILL_AUTO;
    mf_test *c = NULL;
    mf_notion nt = MF_N_DEFINITE;
    *out = NULL;
    if (!mf_kill_claim(r->kt, mm, w, &c, &nt))
        return 0;
    /* The referee: the same replay as every kill of the farm. */
    if (mf_engine_replay(r->m, mm, c, nt) != 0) {
        mf_test_free(c);
        return 0;
    }
    *out = c;
    *notion = nt;
    return 1;
}
