/* mf.h - error codes, per-thread error messages, arenas and growable
 * buffers shared by every part of mutfarm.
 *
 * Functions that can fail return int: 0 (MF_OK) or a negative MF_E* code.
 * The human-readable message of the last failure on this thread is kept by
 * mf_err_set() and read with mf_err_msg(). Out-of-memory aborts the process
 * with a message: it is not an input error and there is nothing to recover. */
#ifndef MF_MF_H
#define MF_MF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum {
    MF_OK = 0,
    MF_ERROR = -1,        /* generic failure, see mf_err_msg() */
    MF_ENOTFOUND = -2,    /* a named thing (mutant id, file, choice) is absent */
    MF_EPARSE = -3,       /* malformed input text */
    MF_EUNSUPPORTED = -4, /* valid SMV that mutfarm does not support yet */
    MF_ETYPE = -5,        /* the model does not type check */
    MF_EREFUSED = -6,     /* the model refuses the input here (no successor) */
    MF_ELIMIT = -7,       /* a size or resource limit was hit */
    MF_EIO = -8,          /* reading or writing a file failed */
    MF_EAMBIGUOUS = -9,   /* an id prefix names more than one thing */
};

/* Record the message for the last failure on this thread (printf-style) and
 * return `code`, so callers can write `return mf_err_set(MF_EPARSE, ...)`. */
int mf_err_set(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The message of the last mf_err_set() on this thread ("" if none). */
const char *mf_err_msg(void);
/* The message of `code` itself ("parse error", ...). */
const char *mf_err_name(int code);

/* Allocation that aborts on out-of-memory. */
void *mf_xmalloc(size_t n);
void *mf_xcalloc(size_t n, size_t size);
void *mf_xrealloc(void *p, size_t n);
char *mf_xstrdup(const char *s);

/* An arena owns every node of a parse tree or model; freeing the arena frees
 * them all. Allocations are zeroed. */
typedef struct mf_arena mf_arena;
mf_arena *mf_arena_new(void);
void mf_arena_free(mf_arena *a); /* NULL-safe */
void *mf_arena_alloc(mf_arena *a, size_t n);
char *mf_arena_strdup(mf_arena *a, const char *s);
char *mf_arena_strndup(mf_arena *a, const char *s, size_t n);

/* A growable byte buffer, always NUL-terminated. Zero-initialise, then use. */
typedef struct {
    char *data; /* NUL-terminated, owned */
    size_t len; /* bytes used, excluding the NUL */
    size_t cap; /* bytes allocated */
} mf_buf;
void mf_buf_put(mf_buf *b, const char *s, size_t n);
void mf_buf_puts(mf_buf *b, const char *s);
void mf_buf_printf(mf_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mf_buf_vprintf(mf_buf *b, const char *fmt, va_list ap);
/* s as a JSON string, quotes included: '"' and '\\' escaped, control
 * characters as \\u00XX; other bytes as they are (the caller's text is
 * UTF-8 or ASCII). */
void mf_buf_json_str(mf_buf *b, const char *s);
void mf_buf_reset(mf_buf *b); /* len = 0, keeps the memory */
void mf_buf_free(mf_buf *b);  /* frees and zeroes */

/* Sort v[0..n) ascending and drop repeats; returns the new length. */
int mf_sort_unique_i64(int64_t *v, int n);
/* The same for rows of `width` values (n values in all, a multiple of
 * width): rows sorted by their bytes (an order that groups equal rows and
 * equal prefixes, not a numeric one), repeats dropped; returns the new
 * number of values. */
int mf_sort_unique_rows(int64_t *v, int n, int width);

/* A growable array of T: `MF_VEC(int) v = {0}; MF_VEC_PUSH(v, 3);` */
#define MF_VEC(T)                                                              \
    struct {                                                                   \
        T *v;                                                                  \
        int n, cap;                                                            \
    }
#define MF_VEC_PUSH(vec, x)                                                    \
    do {                                                                       \
        if ((vec).n == (vec).cap) {                                            \
            (vec).cap = (vec).cap ? 2 * (vec).cap : 8;                         \
            (vec).v = mf_xrealloc((vec).v, (size_t)(vec).cap * sizeof(*(vec).v)); \
        }                                                                      \
        (vec).v[(vec).n++] = (x);                                              \
    } while (0)
#define MF_VEC_FREE(vec)                                                       \
    do {                                                                       \
        free((vec).v);                                                         \
        (vec).v = NULL;                                                        \
        (vec).n = (vec).cap = 0;                                               \
    } while (0)

/* Read a whole file; *out is NUL-terminated and the caller's to free.
 * Refuses files over `max` bytes with MF_ELIMIT. */
int mf_read_file(char **out, size_t *len, const char *path, size_t max);

/* SHA-256 of data, as 64 lowercase hex digits and a NUL. */
void mf_sha256_hex(char out[65], const void *data, size_t len);

#endif
