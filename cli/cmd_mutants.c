/* cmd_mutants.c - `mutfarm mutants list|show`: the mutants of a model, one
 * line each with per-operator counts, or one mutant printed as SMV with its
 * changed span marked. Generation itself lives in model/mutate.c; no
 * mutant is checked here. */
#include "cli.h"
#include "cmd.h"

#include "lang.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: mutfarm mutants list MODEL [--operators LIST] [--inputs A,B]\n"
    "                              [--observe X,Y]\n"
    "       mutfarm mutants show MODEL ID [--inputs A,B] [--observe X,Y]\n"
    "\n"
    "list  one line per mutant, in a stable order:\n"
    "        ID  OPERATOR  LINE:COL  [duplicate|stillborn]  DESCRIPTION\n"
    "      then '# '-prefixed counts per operator (total, duplicate,\n"
    "      stillborn), so `awk '!/^#/'` selects the mutant lines.\n"
    "show  the mutated model as SMV; the change is enclosed in\n"
    "      '-- mutant ID ...' and '-- end of mutant ID' comment lines.\n"
    "      A timed model's mutant prints in its format: UPPAAL XML (the\n"
    "      change marked by a comment) or the Ecdar component's JSON (in\n"
    "      its description).\n"
    "      ID may be a prefix of at least 4 hex digits.\n"
    "\n"
    "--operators LIST  comma-separated operator names (default: all):\n"
    "                  case-remove case-swap assign-remove init-remove\n"
    "                  constraint-remove negate logic-op arith-op rel-op\n"
    "                  stuck-at guard-true term-remove assoc-shift\n"
    "                  var-replace enum-replace number-replace digit-replace\n"
    "                  timed models (docs/timed.md): tmi tad smi cxl cxs\n"
    "                  ccn edge-target sync-channel reset-flip\n"
    "                  guard-negate invariant-constant int-update\n"
    "--inputs A,B      these VARs (and every IVAR) are the inputs\n"
    "--observe X,Y     observe these VARs/DEFINEs instead of all non-inputs\n"
    "--system NAME     Ecdar: the component that is the system\n"
    "--env T1,T2       UPPAAL: the environment templates (not mutated)\n"
    "                  (timed models: --inputs/--outputs name channels)\n";

typedef struct {
    long total[MF_LANG_MAX_OPS], dup[MF_LANG_MAX_OPS], still[MF_LANG_MAX_OPS];
} list_counts;

/* One line: tabs and newlines in a description or message become spaces. */
static void put_line_text(const char *s)
{
    for (; *s; s++)
        putchar(*s == '\n' || *s == '\t' ? ' ' : *s);
}

static int list_cb(const mf_mutant *mu, void *vctx)
{
    list_counts *c = vctx;
    c->total[mu->op]++;
    printf("%s  %s  %d:%d  ", mu->id, mf_lang_op_name(mu->lang, mu->op),
           mu->line, mu->col);
    if (mu->status == MF_MUT_DUPLICATE) {
        c->dup[mu->op]++;
        fputs("duplicate  ", stdout);
    } else if (mu->status == MF_MUT_STILLBORN) {
        c->still[mu->op]++;
        fputs("stillborn  ", stdout);
    }
    put_line_text(mu->desc);
    if (mu->status == MF_MUT_DUPLICATE)
        printf(" (same as %s)", mu->dup_of);
    else if (mu->status == MF_MUT_STILLBORN && mu->why) {
        fputs(" (", stdout);
        put_line_text(mu->why);
        fputs(")", stdout);
    }
    putchar('\n');
    return 0;
}

static void print_counts(const list_counts *c, const mf_model *m)
{
    long t = 0, d = 0, s = 0;
    printf("# %-18s %8s %9s %9s\n", "operator", "total", "duplicate",
           "stillborn");
    for (int i = 0; i < mf_mutant_nops(m); i++) {
        if (!c->total[i])
            continue;
        printf("# %-18s %8ld %9ld %9ld\n", mf_mutant_op_name(m, i), c->total[i],
               c->dup[i], c->still[i]);
        t += c->total[i];
        d += c->dup[i];
        s += c->still[i];
    }
    printf("# %-18s %8ld %9ld %9ld\n", "all", t, d, s);
    printf("# %ld mutants to check\n", t - d - s);
}

int mf_cmd_mutants(int argc, char **argv)
{
    mf_cli_model_args a = {0};
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    const char *ops_arg = NULL;
    unsigned mask = 0;
    mf_model *m = NULL;
    mf_mutant *mu = NULL;
    int rc = MF_EXIT_USAGE;

    for (int i = 1; i < argc; i++) {
        int t = mf_cli_take_model_arg(&a, &rc, "mutants", usage, argc,
                                          argv, &i);
        if (t < 0)
            goto cleanup;
        if (t > 0)
            continue;
        const char *s = argv[i];
        if (!strcmp(s, "--operators")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "mutfarm mutants: --operators needs a value "
                                "(a comma-separated list of operators)\n");
                goto cleanup;
            }
            ops_arg = argv[++i];
            continue;
        }
        if (!strncmp(s, "--operators=", 12)) {
            ops_arg = s + 12;
            continue;
        }
        if (s[0] == '-' && s[1]) {
            fprintf(stderr,
                    "mutfarm mutants: unknown option '%s'; see 'mutfarm "
                    "mutants --help'\n",
                    s);
            goto cleanup;
        }
        if (npos == 3) {
            fprintf(stderr,
                    "mutfarm mutants: unexpected argument '%s'; see "
                    "'mutfarm mutants --help'\n",
                    s);
            goto cleanup;
        }
        pos[npos++] = s;
    }
    if (npos < 1) {
        fputs(usage, stderr);
        goto cleanup;
    }
    int is_list = !strcmp(pos[0], "list"), is_show = !strcmp(pos[0], "show");
    if (!is_list && !is_show) {
        fprintf(stderr,
                "mutfarm mutants: unknown action '%s' (list or show); see "
                "'mutfarm mutants --help'\n",
                pos[0]);
        goto cleanup;
    }
    if ((is_list && npos != 2) || (is_show && npos != 3)) {
        fprintf(stderr, "mutfarm mutants: %s\n",
                is_list ? "usage: mutfarm mutants list MODEL [OPTIONS]"
                        : "usage: mutfarm mutants show MODEL ID [OPTIONS]");
        goto cleanup;
    }
    if (ops_arg && is_show) {
        fprintf(stderr, "mutfarm mutants: --operators is for 'list'\n");
        goto cleanup;
    }

    rc = mf_cli_load_model(&m, pos[1], &a);
    if (rc != MF_EXIT_OK)
        goto cleanup;
    /* the operators are the model's language's */
    if (ops_arg && mf_mutant_ops_parse(m, &mask, ops_arg) != 0) {
        fprintf(stderr, "mutfarm mutants: %s\n", mf_err_msg());
        rc = MF_EXIT_USAGE;
        goto cleanup;
    }

    if (is_list) {
        list_counts c;
        memset(&c, 0, sizeof(c));
        int r = mf_mutants_each(m, mask, list_cb, &c);
        if (r != 0) {
            fprintf(stderr, "mutfarm mutants: %s\n", mf_err_msg());
            rc = MF_EXIT_INTERNAL;
            goto cleanup;
        }
        print_counts(&c, m);
    } else {
        int r = mf_mutant_find(&mu, m, pos[2]);
        if (r == MF_EAMBIGUOUS) {
            fprintf(stderr, "mutfarm mutants: %s in %s; give more digits\n",
                    mf_err_msg(), pos[1]);
            rc = MF_EXIT_USAGE;
            goto cleanup;
        }
        if (r != 0) {
            fprintf(stderr, "mutfarm mutants: no mutant %s in %s\n", pos[2],
                    pos[1]);
            rc = MF_EXIT_USAGE;
            goto cleanup;
        }
        mf_buf out = {0};
        mf_mutant_print(&out, m, mu);
        fwrite(out.data, 1, out.len, stdout);
        mf_buf_free(&out);
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "mutfarm mutants: cannot write the output\n");
        rc = MF_EXIT_INTERNAL;
        goto cleanup;
    }
    rc = MF_EXIT_OK;

cleanup:
    mf_mutant_free(mu);
    mf_model_free(m);
    mf_cli_model_args_free(&a);
    return rc;
}
