/* keys.c - CURVE certificates in ZeroMQ's zcert form: the parser (outside
 * input: fuzzed by tests/fuzz/fuzz_keys.c), the writer, key generation,
 * and the authorised keys of a file or directory (keys.h,
 * docs/security.md).
 *
 * Only libzmq touches key material: zmq_curve_keypair makes a pair,
 * zmq_curve_public derives a public key, zmq_z85_decode checks one. This
 * file reads and writes text and does not open sockets. */
#include "keys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

static const char z85_chars[] = "0123456789abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                ".-:+=^!/*?&<>()[]{}@%$#";

int mf_keys_have_curve(void)
{
    return zmq_has("curve") != 0;
}

/* ---- parsing ------------------------------------------------------------ */

typedef struct {
    const char *name; /* file, for messages */
    int line;
    mf_keypair kp;
    int seen_pub, seen_sec;
} parser;

static int perr(const parser *p, const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    return mf_err_set(MF_EPARSE, "%s:%d: %s", p->name, p->line, msg);
}

/* 0 if v is a Z85 key (40 characters of the alphabet decoding to 32
 * bytes), else a message. */
static const char *bad_z85(const char *v)
{
    if (strlen(v) != MF_KEY_Z85 - 1)
        return "a key is 40 Z85 characters";
    for (const char *s = v; *s; s++)
        if (!strchr(z85_chars, *s))
            return "a key holds a character that is not Z85";
    uint8_t bin[32];
    if (!zmq_z85_decode(bin, v))
        return "a key that does not decode (Z85)";
    return NULL;
}

static int name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.' ||
           ch == '$' || ch == '@' || ch == '&' || ch == '+' || ch == '/';
}

/* `name = value` of a child line at s (indentation skipped) into name and
 * value; 0, or a message. */
static const char *split_child(char *s, char **name, char **value)
{
    *name = s;
    while (name_char(*s))
        s++;
    if (s == *name)
        return "expected a name";
    char *end = s;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != '=')
        return *s ? "expected 'name = value'" : "a name without '= value'";
    *end = 0;
    s++;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '"' || *s == '\'') {
        char q = *s++;
        *value = s;
        while (*s && *s != q)
            s++;
        if (*s != q)
            return "a value without its closing quote";
        *s++ = 0;
    } else {
        *value = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '#')
            s++;
        if (*s == '#')
            return "a '#' in an unquoted value";
        if (*s)
            *s++ = 0;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s && *s != '#')
        return "text after the value";
    return NULL;
}

static int curve_key(parser *p, const char *name, const char *value)
{
    int sec = !strcmp(name, "secret-key");
    if (!sec && strcmp(name, "public-key"))
        return perr(p, "unknown key '%s' in section curve (public-key, "
                       "secret-key)", name);
    int *seen = sec ? &p->seen_sec : &p->seen_pub;
    if (*seen)
        return perr(p, "%s is set twice", name);
    const char *why = bad_z85(value);
    if (why)
        return perr(p, "%s", why);
    *seen = 1;
    snprintf(sec ? p->kp.secret_key : p->kp.public_key, MF_KEY_Z85, "%s",
             value);
    return 0;
}

/* One line (NUL-terminated, no newline); *section: 0 none, 1 metadata,
 * 2 curve. */
static int parse_line(parser *p, char *s, int *section)
{
    size_t len = strlen(s);
    while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' ||
                   s[len - 1] == '\t'))
        s[--len] = 0;
    char *t = s;
    while (*t == ' ' || *t == '\t')
        t++;
    if (!*t || *t == '#')
        return 0;
    if (t == s) { /* a section */
        if (strchr(t, '='))
            return perr(p, "%s", "a key outside a section (indent it under "
                                 "'curve')");
        if (!strcmp(t, "metadata"))
            *section = 1;
        else if (!strcmp(t, "curve"))
            *section = 2;
        else
            return perr(p, "unknown section '%.64s' (metadata, curve)", t);
        return 0;
    }
    char *name, *value;
    const char *why = split_child(t, &name, &value);
    if (why)
        return perr(p, "%s", why);
    if (*section == 0)
        return perr(p, "%s", "an indented line before any section");
    if (*section == 1)
        return 0; /* metadata: anything */
    return curve_key(p, name, value);
}

int mf_keys_parse(mf_keypair *out, const char *name, const char *text,
                  size_t len)
{
    memset(out, 0, sizeof *out);
    if (len > MF_KEYS_MAX_FILE)
        return mf_err_set(MF_EPARSE, "%s: larger than %d bytes: not a key "
                                     "certificate", name, MF_KEYS_MAX_FILE);
    if (memchr(text, 0, len))
        return mf_err_set(MF_EPARSE, "%s: not a text file (NUL byte)", name);
    parser p = {0};
    p.name = name;
    char *buf = mf_xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = 0;
    int section = 0, rc = 0;
    for (char *s = buf, *nl; s && rc == 0; s = nl ? nl + 1 : NULL) {
        nl = strchr(s, '\n');
        if (nl)
            *nl = 0;
        p.line++;
        rc = parse_line(&p, s, &section);
    }
    free(buf);
    if (rc < 0)
        return rc;
    if (!p.seen_pub)
        return mf_err_set(MF_EPARSE, "%s: no public-key in a 'curve' "
                                     "section: not a CURVE certificate "
                                     "(make one with 'mutfarm keygen')",
                          name);
    if (p.seen_sec) {
        char derived[MF_KEY_Z85];
        if (zmq_curve_public(derived, p.kp.secret_key) != 0)
            return mf_err_set(MF_EPARSE, "%s: cannot check the secret key: "
                                         "%s", name, zmq_strerror(errno));
        if (strcmp(derived, p.kp.public_key))
            return mf_err_set(MF_EPARSE, "%s: the public-key is not the one "
                                         "of the secret-key", name);
    }
    *out = p.kp;
    return 0;
}

int mf_keys_read(mf_keypair *out, const char *path, int secret)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t len = 0;
    int rc = mf_read_file(&text, &len, path, MF_KEYS_MAX_FILE);
    if (rc < 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        free(text);
        return mf_err_set(rc == MF_ELIMIT ? MF_EPARSE : MF_EIO,
                          "%s: cannot read the key file: %s", path, why);
    }
    rc = mf_keys_parse(out, path, text, len);
    free(text);
    if (rc < 0)
        return rc;
    if (secret && !out->secret_key[0])
        rc = mf_err_set(MF_EPARSE, "%s: a public certificate; give the "
                                   "secret one (NAME.key_secret)", path);
    else if (!secret && out->secret_key[0])
        rc = mf_err_set(MF_EPARSE, "%s: holds a secret key; give the public "
                                   "certificate (NAME.key) and keep this "
                                   "one private", path);
    struct stat st;
    if (rc == 0 && secret && stat(path, &st) == 0 &&
        (st.st_mode & (S_IRWXG | S_IRWXO)))
        rc = mf_err_set(MF_EPARSE, "%s: a secret key that others may read "
                                   "(mode %04o); chmod 600 %s", path,
                        (unsigned)(st.st_mode & 07777), path);
    if (rc < 0)
        memset(out, 0, sizeof *out);
    return rc;
}

/* ---- making and writing ------------------------------------------------- */

int mf_keys_generate(mf_keypair *out)
{
    memset(out, 0, sizeof *out);
    if (zmq_curve_keypair(out->public_key, out->secret_key) != 0)
        return mf_err_set(MF_ERROR, "cannot make a CURVE key pair: %s "
                                    "(libzmq built without CURVE?)",
                          zmq_strerror(errno));
    return 0;
}

void mf_keys_format(mf_buf *out, const mf_keypair *kp, int secret,
                    const char *stamp)
{
    if (stamp)
        mf_buf_printf(out, "#   ****  Generated on %s by mutfarm keygen  "
                           "****\n", stamp);
    if (secret)
        mf_buf_puts(out, "#   ZeroMQ CURVE **Secret** Certificate\n"
                         "#   DO NOT PROVIDE THIS FILE TO OTHER USERS nor "
                         "change its permissions.\n\n");
    else
        mf_buf_puts(out, "#   ZeroMQ CURVE Public Certificate\n"
                         "#   Exchange securely, or use a secure mechanism "
                         "to verify the contents\n"
                         "#   of this file after exchange.\n\n");
    mf_buf_printf(out, "metadata\ncurve\n    public-key = \"%s\"\n",
                  kp->public_key);
    if (secret)
        mf_buf_printf(out, "    secret-key = \"%s\"\n", kp->secret_key);
}

/* Create path (not existing) with mode and write text. */
static int write_new(const char *path, const mf_buf *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
    if (fd < 0)
        return mf_err_set(MF_EIO, "%s: %s%s", path, strerror(errno),
                          errno == EEXIST ? " (remove it, or give another "
                                            "name with -o)"
                                          : "");
    if (fchmod(fd, mode) != 0) { /* whatever the umask says */
        int e = errno;
        close(fd);
        unlink(path);
        return mf_err_set(MF_EIO, "%s: %s", path, strerror(e));
    }
    size_t off = 0;
    while (off < text->len) {
        ssize_t w = write(fd, text->data + off, text->len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(path);
            return mf_err_set(MF_EIO, "%s: %s", path, strerror(e));
        }
        off += (size_t)w;
    }
    if (close(fd) != 0) {
        int e = errno;
        unlink(path);
        return mf_err_set(MF_EIO, "%s: %s", path, strerror(e));
    }
    return 0;
}

int mf_keys_write(const char *base, const mf_keypair *kp)
{
    char pub[4096], sec[4096], stamp[64];
    if (snprintf(pub, sizeof pub, "%s.key", base) >= (int)sizeof pub ||
        snprintf(sec, sizeof sec, "%s.key_secret", base) >= (int)sizeof sec)
        return mf_err_set(MF_EIO, "%.64s...: name too long", base);
    time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) ||
        !strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S UTC", &tm))
        snprintf(stamp, sizeof stamp, "?");
    mf_buf a = {0}, b = {0};
    mf_keys_format(&a, kp, 0, stamp);
    mf_keys_format(&b, kp, 1, stamp);
    int rc = write_new(sec, &b, 0600);
    if (rc == 0) {
        rc = write_new(pub, &a, 0644);
        if (rc < 0)
            unlink(sec);
    }
    mf_buf_free(&a);
    mf_buf_free(&b);
    return rc;
}

/* ---- authorised keys ---------------------------------------------------- */

static void list_add(mf_keylist *l, const char *z85)
{
    if (mf_keylist_has(l, z85))
        return;
    l->keys = mf_xrealloc(l->keys, (size_t)(l->n + 1) * sizeof *l->keys);
    snprintf(l->keys[l->n++], MF_KEY_Z85, "%s", z85);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

int mf_keys_read_authorized(mf_keylist *out, const char *path)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(path, &st) != 0)
        return mf_err_set(MF_EIO, "%s: cannot read the authorised keys: %s",
                          path, strerror(errno));
    mf_keypair kp;
    if (!S_ISDIR(st.st_mode)) {
        int rc = mf_keys_read(&kp, path, 0);
        if (rc < 0)
            return rc;
        list_add(out, kp.public_key);
        return 0;
    }
    DIR *d = opendir(path);
    if (!d)
        return mf_err_set(MF_EIO, "%s: cannot read the authorised keys: %s",
                          path, strerror(errno));
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".key"))
            continue;
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        rc = mf_keys_read(&kp, file, 0);
        if (rc == 0)
            list_add(out, kp.public_key);
    }
    closedir(d);
    if (rc == 0 && out->n == 0)
        rc = mf_err_set(MF_EIO, "%s: no public certificate (*.key) in this "
                                "directory: no worker could connect",
                        path);
    if (rc < 0)
        mf_keylist_free(out);
    return rc;
}

void mf_keylist_free(mf_keylist *l)
{
    if (!l)
        return;
    free(l->keys);
    l->keys = NULL;
    l->n = 0;
}

int mf_keylist_has(const mf_keylist *l, const char *z85)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->keys[i], z85))
            return 1;
    return 0;
}
