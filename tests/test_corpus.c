/* test_corpus.c - the front-end acceptance over every model in
 * ../shared/models/corpus and ../shared/models/seeds (MF_SHARED_MODELS):
 *   - each is accepted or refused with "unsupported:" (never "error:");
 *   - an accepted model's print re-parses to the same print and hash;
 *   - every mutant prints as SMV that loads again (stillborn ones counted);
 *   - mutant ids are the same in a second parse and run, after a
 *     layout/comment edit.
 * In-process, so every mutant of every model is checked, not a sample; the
 * command-line path is covered by tests/corpus.sh. Printing and reloading
 * a mutant costs the size of the whole model, so a model whose mutants'
 * prints would pass the reload budget has an evenly spaced share of its
 * mutants reloaded; every mutant is still enumerated, classified and
 * compared by id. Every model of the corpus is accepted (issue 23).
 * env: MF_SHARED_MODELS  the models (default ../shared/models)
 *      MF_CORPUS_RELOAD_ALL=1  the full run: a budget of RELOAD_BUDGET_ALL
 *                         (80 MB) a model, every mutant of every model but
 *                         the VerifAPS PLC one (36k mutants of a 76 kB
 *                         print: every 34th); the default (CI) budget is
 *                         RELOAD_BUDGET_CI (8 MB), every mutant of the
 *                         small models, an evenly spaced share of the
 *                         larger ones (dme1: 10k mutants of 7 kB, every
 *                         9th). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#include "mutate.h"
#include "langs.h"
#include "smv.h"

static const char *models_dir(void)
{
    const char *d = getenv("MF_SHARED_MODELS");
    return d && *d ? d : "../shared/models";
}

/* Bytes of mutant prints reloaded per model, at most. The full run's
 * budget is above every model of the corpus but the VerifAPS PLC one
 * (dme1, the next largest: 10k mutants of 7 kB); CI's is a tenth of it,
 * which still reloads every mutant of most models and an evenly spaced
 * share of the others. */
#define RELOAD_BUDGET_ALL ((long)80 << 20)
#define RELOAD_BUDGET_CI ((long)8 << 20)

static long reload_budget(void)
{
    const char *all = getenv("MF_CORPUS_RELOAD_ALL");
    return all && !strcmp(all, "1") ? RELOAD_BUDGET_ALL : RELOAD_BUDGET_CI;
}

typedef struct {
    MF_VEC(char *) ids;
    const mf_model *m;
    int reload; /* also print and reload every reload-th mutant (0: none) */
    int stillborn, duplicate, reloaded;
    char failure[512];
} walk;

static int collect_id(const mf_mutant *mu, void *ctx)
{
    walk *w = ctx;
    MF_VEC_PUSH(w->ids, mf_xstrdup(mu->id));
    if (mu->status == MF_MUT_STILLBORN) {
        w->stillborn++;
        return 0;
    }
    if (mu->status == MF_MUT_DUPLICATE)
        w->duplicate++;
    if (!w->reload || (w->ids.n - 1) % w->reload != 0)
        return 0;
    mf_buf b = {0};
    mf_mutant_print(&b, w->m, mu);
    mf_model *mm = NULL;
    int rc = mf_model_load(&mm, "mutant.smv", b.data, b.len, NULL);
    if (rc && !w->failure[0])
        snprintf(w->failure, sizeof w->failure,
                 "mutant %s (%s) prints SMV that does not load: %s", mu->id,
                 mf_mop_name(mu->op), mf_err_msg());
    w->reloaded += rc == 0;
    mf_model_free(mm);
    mf_buf_free(&b);
    return 0;
}

static void walk_free(walk *w)
{
    for (int i = 0; i < w->ids.n; i++)
        free(w->ids.v[i]);
    MF_VEC_FREE(w->ids);
}

/* The same model with every line indented and a comment appended. */
static char *relayout(const char *text)
{
    mf_buf b = {0};
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        mf_buf_puts(&b, "   ");
        mf_buf_put(&b, p, n);
        int has_comment = 0;
        for (size_t i = 0; i + 1 < n; i++)
            has_comment |= p[i] == '-' && p[i + 1] == '-';
        mf_buf_puts(&b, has_comment ? "\n" : "   -- layout edit\n");
        p += n + (nl != NULL);
    }
    mf_buf_puts(&b, "\n-- trailing comment\n");
    return b.data;
}

static void check_ids_equal(const walk *a, const walk *b, const char *what,
                            const char *file)
{
    if (a->ids.n != b->ids.n)
        fail_msg("%s: %d mutants, %d after %s", file, a->ids.n, b->ids.n,
                 what);
    for (int i = 0; i < a->ids.n; i++)
        if (strcmp(a->ids.v[i], b->ids.v[i]))
            fail_msg("%s: mutant %d is %s, %s after %s", file, i,
                     a->ids.v[i], b->ids.v[i], what);
}

static void check_file(const char *path, int *accepted, int *refused,
                       long *mutants, long *stillborn)
{
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(mf_read_file(&text, &len, path, 1 << 26), 0);
    mf_model *m = NULL;
    int rc = mf_model_load(&m, path, text, len, NULL);
    if (rc) {
        if (rc != MF_EUNSUPPORTED || !strstr(mf_err_msg(), "unsupported:"))
            fail_msg("%s refused with an error, not unsupported: %s", path,
                     mf_err_msg());
        printf("# refused  %s\n", strrchr(mf_err_msg(), ':') ? mf_err_msg()
                                                              : path);
        (*refused)++;
        free(text);
        return;
    }
    (*accepted)++;

    /* round trip */
    mf_buf p1 = {0}, p2 = {0};
    mf_print_model(&p1, m);
    mf_model *m2 = NULL;
    if (mf_model_load(&m2, "printed.smv", p1.data, p1.len, NULL))
        fail_msg("%s: its print does not load: %s", path, mf_err_msg());
    mf_print_model(&p2, m2);
    if (strcmp(p1.data, p2.data))
        fail_msg("%s: print is not a fixed point", path);
    assert_string_equal(m->hash, m2->hash);
    mf_model_free(m2);
    long print_len = (long)p1.len;
    mf_buf_free(&p1);
    mf_buf_free(&p2);

    /* every mutant twice: of the model after a layout edit (a second
     * parse and a second run: the ids must not depend on either), then of
     * the model itself, reloading them */
    walk w1 = {0}, w3 = {0};
    char *edited = relayout(text);
    mf_model *me = NULL;
    if (mf_model_load(&me, path, edited, strlen(edited), NULL))
        fail_msg("%s: layout edit does not load: %s", path, mf_err_msg());
    assert_string_equal(me->hash, m->hash);
    w3.m = me;
    assert_int_equal(mf_mutants_each(me, 0, collect_id, &w3), 0);
    w1.m = m;
    w1.reload = (int)(1 + (long)w3.ids.n * print_len / reload_budget());
    assert_int_equal(mf_mutants_each(m, 0, collect_id, &w1), 0);
    if (w1.failure[0])
        fail_msg("%s: %s", path, w1.failure);
    check_ids_equal(&w1, &w3, "a second run after a layout and comment edit",
                    path);
    printf("# accepted %-70s %6d mutants %5d duplicate %3d stillborn %6d "
           "reloaded\n",
           strrchr(path, '/') ? strrchr(path, '/') + 1 : path, w1.ids.n,
           w1.duplicate, w1.stillborn, w1.reloaded);
    *mutants += w1.ids.n;
    *stillborn += w1.stillborn;
    walk_free(&w1);
    walk_free(&w3);
    mf_model_free(me);
    mf_model_free(m);
    free(edited);
    free(text);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_dir(const char *sub, int *accepted, int *refused,
                      long *mutants, long *stillborn)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", models_dir(), sub);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s (set MF_SHARED_MODELS)", dir);
    MF_VEC(char *) files = {0};
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".smv"))
            continue;
        char *path = mf_xmalloc(strlen(dir) + n + 2);
        snprintf(path, strlen(dir) + n + 2, "%s/%s", dir, de->d_name);
        MF_VEC_PUSH(files, path);
    }
    closedir(d);
    qsort(files.v, (size_t)files.n, sizeof(char *), cmp_str);
    for (int i = 0; i < files.n; i++) {
        check_file(files.v[i], accepted, refused, mutants, stillborn);
        free(files.v[i]);
    }
    MF_VEC_FREE(files);
}

static void test_corpus__accepted_or_unsupported_round_trip_and_mutants(
    void **state)
{
    (void)state;
    int accepted = 0, refused = 0;
    long mutants = 0, stillborn = 0;
    struct stat sb;
    if (stat(models_dir(), &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        print_message("# %s: not found (set MF_SHARED_MODELS); skipped\n",
                      models_dir());
        skip();
    }
    check_dir("corpus", &accepted, &refused, &mutants, &stillborn);
    check_dir("seeds", &accepted, &refused, &mutants, &stillborn);
    printf("# corpus+seeds: %d accepted, %d refused as unsupported; %ld "
           "mutants, %ld stillborn\n",
           accepted, refused, mutants, stillborn);
    /* issue 23: every model of the corpus (31) and the seeds (2) */
    assert_int_equal(refused, 0);
    assert_true(accepted >= 33);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_corpus__accepted_or_unsupported_round_trip_and_mutants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
