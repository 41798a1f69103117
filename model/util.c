/* util.c - error codes and per-thread messages, aborting allocators, arenas,
 * growable buffers and whole-file reads (the non-hash half of mf.h).
 *
 * Nothing here knows about SMV. SHA-256 lives in sha256.c. */
#include "mf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---------------------------------------------------------- */

static _Thread_local char err_msg[1024];

int mf_err_set(int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err_msg, sizeof err_msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *mf_err_msg(void)
{
    return err_msg;
}

const char *mf_err_name(int code)
{
    switch (code) {
    case MF_OK:
        return "success";
    case MF_ERROR:
        return "error";
    case MF_ENOTFOUND:
        return "not found";
    case MF_EPARSE:
        return "parse error";
    case MF_EUNSUPPORTED:
        return "unsupported construct";
    case MF_ETYPE:
        return "type error";
    case MF_EREFUSED:
        return "input refused";
    case MF_ELIMIT:
        return "limit exceeded";
    case MF_EIO:
        return "i/o error";
    case MF_EAMBIGUOUS:
        return "ambiguous";
    default:
        return "unknown error";
    }
}

/* ---- allocation ------------------------------------------------------ */

static void oom(void)
{
    fputs("mutfarm: out of memory\n", stderr);
    abort();
}

void *mf_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p)
        oom();
    return p;
}

void *mf_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);

    if (!p)
        oom();
    return p;
}

void *mf_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);

    if (!q)
        oom();
    return q;
}

char *mf_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = mf_xmalloc(n);

    memcpy(p, s, n);
    return p;
}

/* ---- arena ----------------------------------------------------------- */

/* Chunks are chained newest first; an allocation bigger than a quarter of
 * the default chunk gets a chunk of its own so big requests do not waste
 * the tail of the current one. */
#define ARENA_CHUNK ((size_t)64 * 1024)
#define ARENA_ALIGN ((size_t)16)

struct chunk {
    struct chunk *next; /* older chunk */
    size_t used;        /* bytes handed out from data */
    size_t size;        /* bytes in data */
    _Alignas(16) unsigned char data[];
};

struct mf_arena {
    struct chunk *head; /* current chunk, NULL before the first allocation */
};

mf_arena *mf_arena_new(void)
{
    return mf_xcalloc(1, sizeof(mf_arena));
}

void mf_arena_free(mf_arena *a)
{
    struct chunk *c, *next;

    if (!a)
        return;
    for (c = a->head; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

static struct chunk *chunk_new(size_t size)
{
    struct chunk *c;

    if (size > SIZE_MAX - sizeof(struct chunk))
        oom();
    c = mf_xmalloc(sizeof(struct chunk) + size);
    c->next = NULL;
    c->used = 0;
    c->size = size;
    return c;
}

void *mf_arena_alloc(mf_arena *a, size_t n)
{
    struct chunk *c = a->head;
    void *p;

    if (n == 0)
        n = 1;
    if (n > SIZE_MAX - ARENA_ALIGN)
        oom();
    n = (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
    if (!c || c->size - c->used < n) {
        if (n > ARENA_CHUNK / 4) {
            /* A dedicated chunk behind the current one keeps its free tail
             * in use. */
            struct chunk *big = chunk_new(n);
            if (c) {
                big->next = c->next;
                c->next = big;
            } else {
                a->head = big;
            }
            big->used = n;
            memset(big->data, 0, n);
            return big->data;
        }
        c = chunk_new(ARENA_CHUNK);
        c->next = a->head;
        a->head = c;
    }
    p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *mf_arena_strndup(mf_arena *a, const char *s, size_t n)
{
    char *p = mf_arena_alloc(a, n + 1);

    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *mf_arena_strdup(mf_arena *a, const char *s)
{
    return mf_arena_strndup(a, s, strlen(s));
}

/* ---- buffers --------------------------------------------------------- */

static void buf_reserve(mf_buf *b, size_t extra)
{
    size_t need;

    if (extra > SIZE_MAX - b->len - 1)
        oom();
    need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    b->data = mf_xrealloc(b->data, cap);
    b->cap = cap;
    b->data[b->len] = '\0';
}

void mf_buf_put(mf_buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void mf_buf_puts(mf_buf *b, const char *s)
{
    mf_buf_put(b, s, strlen(s));
}

void mf_buf_vprintf(mf_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;

    va_copy(ap2, ap);
    buf_reserve(b, 0);
    n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n >= b->cap - b->len) {
        buf_reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    }
    b->len += (size_t)n;
}

void mf_buf_printf(mf_buf *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    mf_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void mf_buf_json_str(mf_buf *b, const char *s)
{
    mf_buf_puts(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            mf_buf_printf(b, "\\%c", c);
        else if (c < 0x20)
            mf_buf_printf(b, "\\u%04x", c);
        else
            mf_buf_put(b, s, 1);
    }
    mf_buf_puts(b, "\"");
}

void mf_buf_reset(mf_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void mf_buf_free(mf_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ---- sorting --------------------------------------------------------- */

/* Insertion sort below this size; quicksort (median of three, recursing
 * into the smaller side) above. No call per compare: the explorer and the
 * evaluator sort many small arrays. */
#define SORT_SMALL 16

static void sort_i64(int64_t *v, int n)
{
    while (n > SORT_SMALL) {
        int64_t a = v[0], b = v[n / 2], c = v[n - 1];
        int64_t p = a < b ? (b < c ? b : (a < c ? c : a))
                          : (a < c ? a : (b < c ? c : b));
        int i = 0, j = n - 1;
        for (;;) { /* Hoare partition: v[0..j] <= p <= v[j+1..n) */
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i >= j)
                break;
            int64_t t = v[i];
            v[i++] = v[j];
            v[j--] = t;
        }
        if (j + 1 < n - j - 1) {
            sort_i64(v, j + 1);
            v += j + 1;
            n -= j + 1;
        } else {
            sort_i64(v + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (int i = 1; i < n; i++) {
        int64_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* LSD radix sort by bytes, skipping the bytes that are equal in every
 * value; tmp holds n values. The sign bit is flipped so that the unsigned
 * order of the bytes is the signed order. */
static void radix_i64(int64_t *v, int64_t *tmp, int n)
{
    const uint64_t flip = (uint64_t)1 << 63;
    uint64_t *a = (uint64_t *)v, *b = (uint64_t *)tmp;
    uint64_t diff = 0;
    for (int i = 0; i < n; i++) {
        a[i] ^= flip;
        diff |= a[i] ^ a[0];
    }
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((diff >> shift) & 0xff))
            continue;
        int count[257] = {0};
        for (int i = 0; i < n; i++)
            count[((a[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (int i = 0; i < n; i++)
            b[count[(a[i] >> shift) & 0xff]++] = a[i];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    if (a != (uint64_t *)v)
        memcpy(v, a, (size_t)n * sizeof(*v));
    for (int i = 0; i < n; i++)
        v[i] = (int64_t)((uint64_t)v[i] ^ flip);
}

/* Past this many values the radix sort is cheaper than the quicksort (the
 * explorer's definite search sorts sets of tens of thousands of pairs). */
#define SORT_RADIX 512

int mf_sort_unique_i64(int64_t *v, int n)
{
    if (n < 2)
        return n;
    /* Sorted already (a range's values, a set written in order): no sort,
     * only the duplicates dropped. */
    int sorted = 1;
    for (int i = 1; i < n && sorted; i++)
        sorted = v[i - 1] <= v[i];
    if (sorted)
        ;
    else if (n >= SORT_RADIX) {
        int64_t *tmp = mf_xmalloc((size_t)n * sizeof(*tmp));
        radix_i64(v, tmp, n);
        free(tmp);
    } else
        sort_i64(v, n);
    int k = 1;
    for (int i = 1; i < n; i++)
        if (v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* ---- files ----------------------------------------------------------- */

int mf_read_file(char **out, size_t *len, const char *path, size_t max)
{
    FILE *f = NULL;
    mf_buf b = {0};
    char tmp[65536];
    size_t n;
    int rc = MF_OK;

    *out = NULL;
    if (len)
        *len = 0;
    f = fopen(path, "rb");
    if (!f)
        return mf_err_set(MF_EIO, "%s: %s", path, strerror(errno));
    buf_reserve(&b, 0);
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) {
        if (b.len + n > max) {
            rc = mf_err_set(MF_ELIMIT, "%s: file larger than %zu bytes", path,
                            max);
            goto cleanup;
        }
        mf_buf_put(&b, tmp, n);
    }
    if (ferror(f)) {
        rc = mf_err_set(MF_EIO, "%s: %s", path, strerror(errno));
        goto cleanup;
    }
    *out = b.data;
    if (len)
        *len = b.len;
    b.data = NULL;

cleanup:
    mf_buf_free(&b);
    fclose(f);
    return rc;
}

static _Thread_local size_t row_bytes;

static int row_cmp(const void *a, const void *b)
{
    return memcmp(a, b, row_bytes);
}

int mf_sort_unique_rows(int64_t *v, int n, int width)
{
    if (width <= 0 || n <= width)
        return n;
    size_t rows = (size_t)(n / width), out = 1;
    row_bytes = sizeof *v * (size_t)width;
    qsort(v, rows, row_bytes, row_cmp);
    for (size_t i = 1; i < rows; i++)
        if (memcmp(v + i * (size_t)width, v + (out - 1) * (size_t)width,
                   row_bytes))
            memmove(v + out++ * (size_t)width, v + i * (size_t)width,
                    row_bytes);
    return (int)(out * (size_t)width);
}
