/* test_util.c - errors, arenas, buffers, file reads, sorting and SHA-256
 * (mf.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mf.h"

static void test_sha256__fips_vectors(void **state)
{
    char hex[65];
    (void)state;

    mf_sha256_hex(hex, "", 0);
    assert_string_equal(
        hex,
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    mf_sha256_hex(hex, "abc", 3);
    assert_string_equal(
        hex,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m448 =
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    mf_sha256_hex(hex, m448, strlen(m448));
    assert_string_equal(
        hex,
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_sha256__long_and_block_edges(void **state)
{
    char hex[65];
    (void)state;

    /* 896-bit FIPS vector: two blocks of message. */
    const char *m896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
        "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    mf_sha256_hex(hex, m896, strlen(m896));
    assert_string_equal(
        hex,
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

    /* One million 'a'. */
    size_t n = 1000000;
    char *a = malloc(n);
    assert_non_null(a);
    memset(a, 'a', n);
    mf_sha256_hex(hex, a, n);
    free(a);
    assert_string_equal(
        hex,
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    /* 55, 56 and 64 bytes straddle the padding boundary. */
    char b64[64];
    memset(b64, 'a', sizeof b64);
    mf_sha256_hex(hex, b64, 55);
    assert_string_equal(
        hex,
        "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    mf_sha256_hex(hex, b64, 56);
    assert_string_equal(
        hex,
        "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    mf_sha256_hex(hex, b64, 64);
    assert_string_equal(
        hex,
        "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

static void test_err__keeps_message_and_returns_code(void **state)
{
    (void)state;
    assert_int_equal(
        mf_err_set(MF_EPARSE, "f.smv:%d:%d: error: %s", 3, 7, "unexpected ';'"),
        MF_EPARSE);
    assert_string_equal(mf_err_msg(), "f.smv:3:7: error: unexpected ';'");
    assert_string_equal(mf_err_name(MF_EPARSE), "parse error");
    assert_string_equal(mf_err_name(MF_OK), "success");
    for (int c = MF_EAMBIGUOUS; c <= MF_OK; c++)
        assert_true(strlen(mf_err_name(c)) > 0);
    assert_string_equal(mf_err_name(-1000), "unknown error");
}

static void test_err__truncates_long_message(void **state)
{
    char big[4000];
    (void)state;
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    mf_err_set(MF_ERROR, "%s", big);
    assert_true(strlen(mf_err_msg()) > 100);
    assert_true(strlen(mf_err_msg()) < sizeof big);
}

static void test_arena__zeroed_aligned_and_many(void **state)
{
    mf_arena *a = mf_arena_new();
    (void)state;

    for (int i = 0; i < 20000; i++) {
        size_t n = (size_t)(i % 97) + 1;
        unsigned char *p = mf_arena_alloc(a, n);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (size_t k = 0; k < n; k++)
            assert_int_equal(p[k], 0);
        memset(p, 0xab, n);
    }
    /* bigger than a chunk */
    unsigned char *big = mf_arena_alloc(a, 1 << 20);
    assert_int_equal((uintptr_t)big % 16, 0);
    assert_int_equal(big[0], 0);
    assert_int_equal(big[(1 << 20) - 1], 0);
    memset(big, 1, 1 << 20);
    /* the current chunk keeps serving small requests after a big one */
    char *s = mf_arena_strdup(a, "hello");
    assert_string_equal(s, "hello");
    char *t = mf_arena_strndup(a, "world!!", 5);
    assert_string_equal(t, "world");
    assert_non_null(mf_arena_alloc(a, 0));
    mf_arena_free(a);
    mf_arena_free(NULL);
}

static void test_buf__grows_and_stays_terminated(void **state)
{
    mf_buf b = {0};
    (void)state;

    mf_buf_puts(&b, "");
    assert_non_null(b.data);
    assert_string_equal(b.data, "");
    for (int i = 0; i < 1000; i++)
        mf_buf_printf(&b, "%d,", i);
    assert_int_equal(b.len, strlen(b.data));
    assert_memory_equal(b.data, "0,1,2,", 6);
    mf_buf_reset(&b);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");
    char longs[3000];
    memset(longs, 'y', sizeof longs - 1);
    longs[sizeof longs - 1] = '\0';
    mf_buf_printf(&b, "<%s>", longs);
    assert_int_equal(b.len, sizeof longs + 1);
    assert_int_equal(b.data[0], '<');
    assert_int_equal(b.data[b.len - 1], '>');
    mf_buf_put(&b, "ab\0cd", 5);
    assert_int_equal(b.len, sizeof longs + 6);
    assert_int_equal(b.data[b.len], '\0');
    mf_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
}

static void test_vec__push_grows(void **state)
{
    MF_VEC(int) v = {0};
    (void)state;
    for (int i = 0; i < 100; i++)
        MF_VEC_PUSH(v, i * i);
    assert_int_equal(v.n, 100);
    assert_int_equal(v.v[99], 99 * 99);
    MF_VEC_FREE(v);
    assert_null(v.v);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Both sorts (insertion/quicksort below 512 values, radix above) against
 * qsort: random values with many repeats, negatives and the extremes,
 * sorted and reversed input, two extremes alternating. */
static void test_sort_unique__matches_qsort(void **state)
{
    static const int sizes[] = {0, 1, 2, 3, 16, 17, 100, 511, 512, 513, 5000};
    uint64_t r = 88172645463325252ull;
    (void)state;

    for (int shape = 0; shape < 5; shape++)
        for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
            int n = sizes[z];
            int64_t *v = malloc((size_t)(n ? n : 1) * sizeof(*v));
            int64_t *w = malloc((size_t)(n ? n : 1) * sizeof(*w));
            for (int i = 0; i < n; i++) {
                r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                switch (shape) {
                case 0: v[i] = (int64_t)(r % 37) - 18; break;
                case 1: v[i] = (int64_t)r; break;
                case 2: v[i] = i / 3; break;
                case 3: v[i] = (int64_t)(n - i) << 32 | (i & 7); break;
                default: v[i] = i % 2 ? INT64_MIN : INT64_MAX; break;
                }
            }
            memcpy(w, v, (size_t)n * sizeof(*v));
            qsort(w, (size_t)n, sizeof(*w), cmp_i64);
            int k = 0;
            for (int i = 0; i < n; i++)
                if (k == 0 || w[i] != w[k - 1])
                    w[k++] = w[i];
            int got = mf_sort_unique_i64(v, n);
            assert_int_equal(got, k);
            for (int i = 0; i < k; i++)
                assert_true(v[i] == w[i]);
            free(v);
            free(w);
        }
}

static void test_read_file__reads_and_limits(void **state)
{
    char path[] = "/tmp/mf_test_util_XXXXXX";
    char *text = NULL;
    size_t len = 0;
    (void)state;

    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "MODULE main\n", 12), 12);
    close(fd);

    assert_int_equal(mf_read_file(&text, &len, path, 1000), MF_OK);
    assert_int_equal(len, 12);
    assert_string_equal(text, "MODULE main\n");
    free(text);

    assert_int_equal(mf_read_file(&text, &len, path, 5), MF_ELIMIT);
    assert_null(text);
    assert_non_null(strstr(mf_err_msg(), path));
    unlink(path);

    assert_int_equal(mf_read_file(&text, &len, path, 1000), MF_EIO);
    assert_null(text);
    char want[256];
    snprintf(want, sizeof want, "%s: %s", path, strerror(ENOENT));
    assert_string_equal(mf_err_msg(), want);
}

static void test_read_file__empty_file(void **state)
{
    char path[] = "/tmp/mf_test_util_XXXXXX";
    char *text = NULL;
    size_t len = 99;
    (void)state;

    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mf_read_file(&text, &len, path, 0), MF_OK);
    assert_int_equal(len, 0);
    assert_string_equal(text, "");
    free(text);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256__fips_vectors),
        cmocka_unit_test(test_sha256__long_and_block_edges),
        cmocka_unit_test(test_err__keeps_message_and_returns_code),
        cmocka_unit_test(test_err__truncates_long_message),
        cmocka_unit_test(test_arena__zeroed_aligned_and_many),
        cmocka_unit_test(test_buf__grows_and_stays_terminated),
        cmocka_unit_test(test_vec__push_grows),
        cmocka_unit_test(test_sort_unique__matches_qsort),
        cmocka_unit_test(test_read_file__reads_and_limits),
        cmocka_unit_test(test_read_file__empty_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
