/* keys.h - CURVE key pairs in ZeroMQ's certificate files (the zcert form
 * of CZMQ: a public file NAME.key, a secret file NAME.key_secret), read,
 * checked, made and written; and the set of authorised worker keys read
 * from a file or a directory (docs/security.md).
 *
 * A certificate is ZPL text: '#' comment lines, a `metadata` section
 * (ignored) and a `curve` section holding `public-key = "..."` and, in a
 * secret file, `secret-key = "..."`, each 40 Z85 characters. Keys are
 * decoded and, in a secret file, the public key is checked to be the one
 * of the secret key (libzmq's zmq_curve_public). The crypto is libzmq's;
 * this file only reads and writes text. It opens no socket. */
#ifndef MF_KEYS_H
#define MF_KEYS_H

#include <stddef.h>

#include "mf.h"

/* A Z85 key: 40 characters and a NUL. */
#define MF_KEY_Z85 41
/* Certificate files larger than this are refused. */
#define MF_KEYS_MAX_FILE 65536

typedef struct {
    char public_key[MF_KEY_Z85]; /* Z85 */
    char secret_key[MF_KEY_Z85]; /* Z85; "" in a public certificate */
} mf_keypair;

/* 1 if this libzmq can do CURVE (built with libsodium or tweetnacl). */
int mf_keys_have_curve(void);

/* Parse certificate text (len bytes, need not end in NUL); `name` stands
 * for the file in messages ("NAME:LINE: ..."). Returns 0 with *out filled
 * (secret_key "" when the text has none); MF_EPARSE with a message for
 * anything else: a NUL byte, a line that is not a section, `key = value`
 * or a comment, an unknown section or curve key, a key set twice, a key
 * that is not 40 Z85 characters, no public-key, a secret key whose public
 * key is another. *out is zeroed on failure. */
int mf_keys_parse(mf_keypair *out, const char *name, const char *text,
                  size_t len);

/* Read a certificate file. `secret` 1: it must hold the secret key (a
 * NAME.key_secret file) and be readable by its owner only; 0: it must
 * hold a public key only (a secret file given where a public one is
 * expected is refused, so secrets are not spread by mistake). Returns 0,
 * MF_EIO (cannot read), MF_EPARSE (as mf_keys_parse, or the wrong kind of
 * file, or a secret file readable by others), with "PATH: ..." messages. */
int mf_keys_read(mf_keypair *out, const char *path, int secret);

/* A new key pair from libzmq (zmq_curve_keypair). 0 or MF_ERROR. */
int mf_keys_generate(mf_keypair *out);

/* The certificate text of kp: the public one (secret 0) or the secret one
 * (secret 1), appended to *out. `stamp` goes into the header comment (a
 * date, or NULL). */
void mf_keys_format(mf_buf *out, const mf_keypair *kp, int secret,
                    const char *stamp);

/* Write BASE.key (mode 0644) and BASE.key_secret (mode 0600). Neither may
 * exist already (nothing is overwritten). Returns 0, or MF_EIO with
 * "PATH: ..." (then neither file is left behind). */
int mf_keys_write(const char *base, const mf_keypair *kp);

/* The authorised public keys: a certificate file, or a directory whose
 * files named *.key are read (other files are skipped). */
typedef struct {
    char (*keys)[MF_KEY_Z85]; /* n Z85 keys */
    int n;
} mf_keylist;

/* Read the authorised keys at path into *out (zeroed first). Returns 0
 * with at least one key; MF_EIO / MF_EPARSE with "PATH: ..." for a file
 * that does not read or parse, or a directory without a *.key file. */
int mf_keys_read_authorized(mf_keylist *out, const char *path);
void mf_keylist_free(mf_keylist *l); /* NULL-safe; zeroes *l */

/* 1 if the Z85 key is in l. */
int mf_keylist_has(const mf_keylist *l, const char *z85);

#endif
