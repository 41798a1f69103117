/* test_keys.c - CURVE certificate files (config/keys.c): generating,
 * writing and reading back pairs; the parser on good, bad and truncated
 * files; the authorised keys of a file or a directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys.h"

/* A pair made once by libzmq, as the tests' fixed certificate. */
static const char pub_z85[] = "pnE.y]WI@KOk&tz8Bk5XL3o>k@6.e2[n[3WPLC60";
static const char sec_z85[] = "t8iHnbWhw/%26%R)ZHCWRDK@<?D(rPh.:Z!nc2/(";

static char *secret_text(void)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "#   ZeroMQ CURVE **Secret** Certificate\n"
             "\n"
             "metadata\n"
             "    name = \"test\"\n"
             "curve\n"
             "    public-key = \"%s\"\n"
             "    secret-key = \"%s\"\n",
             pub_z85, sec_z85);
    return buf;
}

static int parse(mf_keypair *kp, const char *text)
{
    return mf_keys_parse(kp, "t.key", text, strlen(text));
}

static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mf-test-keys.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(path, mode), 0);
}

static void test_keys__parses_a_secret_certificate(void **state)
{
    (void)state;
    mf_keypair kp;
    assert_int_equal(parse(&kp, secret_text()), 0);
    assert_string_equal(kp.public_key, pub_z85);
    assert_string_equal(kp.secret_key, sec_z85);
}

static void test_keys__parses_public_forms(void **state)
{
    (void)state;
    mf_keypair kp;
    char text[256];
    /* Single quotes, no quotes, CRLF, a trailing comment, no metadata. */
    const char *forms[] = {
        "curve\n    public-key = '%s'\n",
        "curve\n  public-key=%s\n",
        "curve\r\n    public-key = \"%s\"\r\n",
        "# c\ncurve\n    public-key = \"%s\"   # mine\n",
        "metadata\ncurve\n    public-key = \"%s\"",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        snprintf(text, sizeof text, forms[i], pub_z85);
        assert_int_equal(parse(&kp, text), 0);
        assert_string_equal(kp.public_key, pub_z85);
        assert_string_equal(kp.secret_key, "");
    }
}

static void expect_refused(const char *text, const char *msg_part)
{
    mf_keypair kp;
    memset(&kp, 'x', sizeof kp);
    int rc = parse(&kp, text);
    if (rc != MF_EPARSE || !strstr(mf_err_msg(), msg_part))
        fail_msg("'%s': rc %d, message '%s' (expected '%s')", text, rc,
                 mf_err_msg(), msg_part);
    assert_string_equal(kp.public_key, "");
    assert_string_equal(kp.secret_key, "");
}

static void test_keys__refuses_bad_certificates(void **state)
{
    (void)state;
    char t[512];
    expect_refused("", "no public-key");
    expect_refused("metadata\n", "no public-key");
    expect_refused("curve\n    public-key = \"short\"\n", "40 Z85");
    snprintf(t, sizeof t, "curve\n    public-key = \"%.39s~\"\n", pub_z85);
    expect_refused(t, "not Z85");
    snprintf(t, sizeof t, "curve\n    public-key = \"%.39s\n", pub_z85);
    expect_refused(t, "closing quote");
    snprintf(t, sizeof t, "curve\n    public-key = \"%s\" x\n", pub_z85);
    expect_refused(t, "text after the value");
    snprintf(t, sizeof t, "public-key = \"%s\"\n", pub_z85);
    expect_refused(t, "outside a section");
    snprintf(t, sizeof t, "    public-key = \"%s\"\n", pub_z85);
    expect_refused(t, "before any section");
    snprintf(t, sizeof t, "keys\n    public-key = \"%s\"\n", pub_z85);
    expect_refused(t, "unknown section");
    snprintf(t, sizeof t, "curve\n    private-key = \"%s\"\n", pub_z85);
    expect_refused(t, "unknown key 'private-key'");
    snprintf(t, sizeof t, "curve\n    public-key = \"%s\"\n"
                          "    public-key = \"%s\"\n", pub_z85, pub_z85);
    expect_refused(t, "set twice");
    expect_refused("curve\n    public-key\n", "without '= value'");
    /* A secret key whose public key is another one. */
    snprintf(t, sizeof t, "curve\n    public-key = \"%s\"\n"
                          "    secret-key = \"%s\"\n", sec_z85, sec_z85);
    expect_refused(t, "not the one of the secret-key");
    /* Z85 characters that decode past 2^32 in a group. */
    expect_refused("curve\n    public-key = "
                   "\"########################################\"\n",
                   "does not decode");
    mf_keypair kp;
    static const char nul[] = "curve\n\0    public-key = \"x\"\n";
    assert_int_equal(mf_keys_parse(&kp, "n.key", nul, sizeof nul - 1),
                     MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "NUL"));
}

/* Every prefix of a good secret certificate: either refused with a
 * message, or (cut after a whole line) the pair or public key it holds. */
static void test_keys__truncated_files(void **state)
{
    (void)state;
    const char *text = secret_text();
    size_t len = strlen(text);
    const char *sec_line = strstr(text, "    secret-key");
    int ok_pub = 0, refused = 0;
    for (size_t n = 0; n <= len; n++) {
        mf_keypair kp;
        int rc = mf_keys_parse(&kp, "cut.key", text, n);
        if (rc == 0) {
            assert_string_equal(kp.public_key, pub_z85);
            if (kp.secret_key[0]) {
                assert_true(n >= len - 1); /* whole, but its newline */
                assert_string_equal(kp.secret_key, sec_z85);
            } else {
                assert_true(text + n <= sec_line + 4); /* its indent */
                ok_pub++;
            }
        } else {
            assert_int_equal(rc, MF_EPARSE);
            assert_non_null(strstr(mf_err_msg(), "cut.key"));
            refused++;
        }
    }
    assert_true(ok_pub > 0);
    assert_true(refused > (int)len / 2);
}

static void test_keys__generate_write_read_back(void **state)
{
    (void)state;
    if (!mf_keys_have_curve())
        skip();
    mf_keypair a, b, back;
    assert_int_equal(mf_keys_generate(&a), 0);
    assert_int_equal(mf_keys_generate(&b), 0);
    assert_string_not_equal(a.public_key, b.public_key);
    char base[128], pub[160], sec[160];
    snprintf(base, sizeof base, "%s/w1", tmpdir);
    snprintf(pub, sizeof pub, "%s.key", base);
    snprintf(sec, sizeof sec, "%s.key_secret", base);
    assert_int_equal(mf_keys_write(base, &a), 0);
    struct stat st;
    assert_int_equal(stat(sec, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(stat(pub, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(mf_keys_read(&back, sec, 1), 0);
    assert_string_equal(back.public_key, a.public_key);
    assert_string_equal(back.secret_key, a.secret_key);
    assert_int_equal(mf_keys_read(&back, pub, 0), 0);
    assert_string_equal(back.public_key, a.public_key);
    assert_string_equal(back.secret_key, "");
    /* Nothing is overwritten. */
    assert_int_equal(mf_keys_write(base, &b), MF_EIO);
    assert_non_null(strstr(mf_err_msg(), "exists"));
    assert_int_equal(mf_keys_read(&back, sec, 1), 0);
    assert_string_equal(back.secret_key, a.secret_key);
    /* The wrong kind of file for the use. */
    assert_int_equal(mf_keys_read(&back, pub, 1), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "public certificate"));
    assert_int_equal(mf_keys_read(&back, sec, 0), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "secret key"));
    /* A secret others may read. */
    assert_int_equal(chmod(sec, 0640), 0);
    assert_int_equal(mf_keys_read(&back, sec, 1), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "chmod 600"));
    snprintf(pub, sizeof pub, "%s/none.key", tmpdir);
    assert_int_equal(mf_keys_read(&back, pub, 0), MF_EIO);
}

static void test_keys__formatted_text_parses(void **state)
{
    (void)state;
    mf_keypair kp = {{0}, {0}}, back;
    memcpy(kp.public_key, pub_z85, sizeof pub_z85);
    memcpy(kp.secret_key, sec_z85, sizeof sec_z85);
    for (int secret = 0; secret < 2; secret++) {
        mf_buf b = {0};
        mf_keys_format(&b, &kp, secret, "2026-01-01 00:00:00 UTC");
        assert_int_equal(mf_keys_parse(&back, "f", b.data, b.len), 0);
        assert_string_equal(back.public_key, pub_z85);
        assert_string_equal(back.secret_key, secret ? sec_z85 : "");
        mf_buf_free(&b);
    }
}

static void test_keys__authorized_file_and_directory(void **state)
{
    (void)state;
    char dir[128], path[200], text[256];
    mf_keylist l;
    snprintf(dir, sizeof dir, "%s/auth", tmpdir);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(mf_keys_read_authorized(&l, dir), MF_EIO);
    assert_non_null(strstr(mf_err_msg(), "no public certificate"));
    assert_int_equal(l.n, 0);

    snprintf(path, sizeof path, "%s/a.key", dir);
    snprintf(text, sizeof text, "curve\n    public-key = \"%s\"\n", pub_z85);
    write_file(path, text, 0644);
    snprintf(path, sizeof path, "%s/a.key_secret", dir); /* not a .key */
    write_file(path, secret_text(), 0600);
    snprintf(path, sizeof path, "%s/README", dir);
    write_file(path, "not a key\n", 0644);
    assert_int_equal(mf_keys_read_authorized(&l, dir), 0);
    assert_int_equal(l.n, 1);
    assert_true(mf_keylist_has(&l, pub_z85));
    assert_false(mf_keylist_has(&l, sec_z85));
    mf_keylist_free(&l);

    /* A second key, and the same key twice counts once. */
    mf_keypair other;
    if (mf_keys_have_curve()) {
        assert_int_equal(mf_keys_generate(&other), 0);
        snprintf(path, sizeof path, "%s/b.key", dir);
        snprintf(text, sizeof text, "curve\n    public-key = \"%s\"\n",
                 other.public_key);
        write_file(path, text, 0644);
        snprintf(path, sizeof path, "%s/c.key", dir);
        snprintf(text, sizeof text, "curve\n    public-key = \"%s\"\n",
                 pub_z85);
        write_file(path, text, 0644);
        assert_int_equal(mf_keys_read_authorized(&l, dir), 0);
        assert_int_equal(l.n, 2);
        assert_true(mf_keylist_has(&l, other.public_key));
        mf_keylist_free(&l);
    }

    /* One file; a bad one names itself; a secret one is refused. */
    snprintf(path, sizeof path, "%s/a.key", dir);
    assert_int_equal(mf_keys_read_authorized(&l, path), 0);
    assert_int_equal(l.n, 1);
    mf_keylist_free(&l);
    snprintf(path, sizeof path, "%s/bad.key", dir);
    write_file(path, "curve\n    public-key = \"nope\"\n", 0644);
    assert_int_equal(mf_keys_read_authorized(&l, dir), MF_EPARSE);
    assert_non_null(strstr(mf_err_msg(), "bad.key:2"));
    assert_int_equal(l.n, 0);
    snprintf(path, sizeof path, "%s/a.key_secret", dir);
    assert_int_equal(mf_keys_read_authorized(&l, path), MF_EPARSE);
    mf_keylist_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys__parses_a_secret_certificate),
        cmocka_unit_test(test_keys__parses_public_forms),
        cmocka_unit_test(test_keys__refuses_bad_certificates),
        cmocka_unit_test(test_keys__truncated_files),
        cmocka_unit_test(test_keys__generate_write_read_back),
        cmocka_unit_test(test_keys__formatted_text_parses),
        cmocka_unit_test(test_keys__authorized_file_and_directory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
