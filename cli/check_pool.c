/* check_pool.c - what the files of `mutfarm check` share (check_int.h):
 * the engine over many mutants in threads, and a test printed as check
 * prints it. It decides nothing itself (engine/engine.h does). */
#include "check_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --threads: the mutants in consecutive slices of CHUNK_UNIT multiples (the
 * engine's joint-search groups are 64 mutants from the start of a batch, so
 * a slice has the groups one batch would have), about four slices a thread
 * so that a slow one does not hold the others up; each slice one engine
 * batch, taken by the next free thread. */
#define CHUNK_UNIT 64

typedef struct {
    const mf_model *m;
    const mf_engine_mutant *mu;
    const mf_engine_opts *eo;
    mf_verdict *out;
    int n, chunk, next; /* next: the first mutant of the next slice */
    pthread_mutex_t lock;
    char err[1024];     /* the first engine error */
} pool;

static void *pool_run(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int from = p->err[0] ? p->n : p->next;
        p->next = from + p->chunk;
        pthread_mutex_unlock(&p->lock);
        if (from >= p->n)
            return NULL;
        int k = p->n - from < p->chunk ? p->n - from : p->chunk;
        if (mf_engine_check(p->m, p->mu + from, k, p->eo, p->out + from) < 0) {
            pthread_mutex_lock(&p->lock);
            if (!p->err[0])
                snprintf(p->err, sizeof p->err, "%s", mf_err_msg());
            pthread_mutex_unlock(&p->lock);
        }
    }
}

int mf_check_threads(const mf_model *m, const mf_engine_mutant *mu, int n,
                     const mf_engine_opts *eo, mf_verdict *out, int threads)
{
    int per = (n + 4 * threads - 1) / (4 * threads);
    int chunk = (per + CHUNK_UNIT - 1) / CHUNK_UNIT * CHUNK_UNIT;
    mf_engine_set_threads(threads <= 1 || n <= chunk ? 1 : threads);
    if (threads <= 1 || n <= chunk)
        return mf_engine_check(m, mu, n, eo, out);
    pool p = {m, mu, eo, out, n, chunk, 0, PTHREAD_MUTEX_INITIALIZER, ""};
    pthread_t *t = calloc((size_t)threads, sizeof *t);
    int started = 0;
    for (int i = 0; t && i < threads; i++, started++)
        if (pthread_create(&t[i], NULL, pool_run, &p) != 0)
            break;
    if (!started) /* no thread at all: this one does the work */
        pool_run(&p);
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    free(t);
    pthread_mutex_destroy(&p.lock);
    if (p.err[0])
        return mf_err_set(MF_ERROR, "%s", p.err);
    return 0;
}

void mf_check_print_test(const mf_model *m, const mf_test *t)
{
    mf_buf b = {0};
    mf_test_print(&b, m, t);
    for (char *p = b.data, *nl; p && *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            break;
        printf("    %.*s\n", (int)(nl - p), p);
    }
    mf_buf_free(&b);
}

