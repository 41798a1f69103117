/* matrix_cli.c - options and opening shared by `mutfarm matrix`,
 * `minimize` and `tests export` (matrix_cli.h). */
#include "matrix_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cmd.h"

int mf_matrix_cli_open(mf_store **s, mf_matrix_campaign *c, const char *cmd,
                       const char *path, int64_t campaign)
{
    struct stat sb;
    *s = NULL;
    if (!path) {
        fprintf(stderr, "mutfarm %s: give the store with --db FILE\n", cmd);
        return MF_EXIT_USAGE;
    }
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "mutfarm %s: no store at %s (make one with "
                "'mutfarm run MODEL --db %s')\n", cmd, path, path);
        return MF_EXIT_USAGE;
    }
    int rc = mf_store_open(s, path, 0, 5000);
    if (rc < 0) {
        fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
        return MF_EXIT_USAGE;
    }
    rc = mf_matrix_campaign_open(c, *s, campaign);
    if (rc < 0) {
        fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
        mf_store_close(*s);
        *s = NULL;
        return MF_EXIT_USAGE;
    }
    return 0;
}

int mf_matrix_cli_fail(const char *cmd, int rc)
{
    fprintf(stderr, "mutfarm %s: %s\n", cmd, mf_err_msg());
    return rc == MF_EPARSE || rc == MF_ENOTFOUND ? MF_EXIT_USAGE
                                                 : MF_EXIT_INTERNAL;
}

int mf_matrix_cli_ensure(mf_store *s, const mf_matrix_campaign *c,
                         const char *cmd, int threads)
{
    int full = mf_matrix_is_full(s, c->id);
    if (full < 0)
        return mf_matrix_cli_fail(cmd, full);
    if (full)
        return 0;
    if (c->info.state != MF_CAMPAIGN_DONE) {
        fprintf(stderr, "mutfarm %s: campaign %lld is not complete yet "
                "(see 'mutfarm status --db %s'); its kill matrix is made "
                "once every mutant has its verdict\n", cmd,
                (long long)c->id, mf_store_path(s));
        return MF_EXIT_USAGE;
    }
    mf_matrix_opts o = {threads, 0, 0, 0};
    mf_matrix_stats st;
    int rc = mf_matrix_fill(s, c, &o, &st);
    if (rc < 0)
        return mf_matrix_cli_fail(cmd, rc);
    /* Said after, so that a failure stays one line. */
    fprintf(stderr, "mutfarm %s: filled the kill matrix of campaign %lld "
            "first (%lld tests x %lld mutants, %.1f s; see mutfarm "
            "matrix)\n", cmd, (long long)c->id, (long long)st.tests,
            (long long)st.mutants, st.secs);
    return 0;
}
