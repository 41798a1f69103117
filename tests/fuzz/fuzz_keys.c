/* fuzz_keys.c - libFuzzer target for the CURVE certificate parser
 * (mf_keys_parse, config/keys.c): key files a coordinator or a worker is
 * given, in ZeroMQ's zcert form (docs/security.md).
 *
 * Any input must either be refused with a message naming the file and an
 * all-zero pair, or give a pair of 40-character Z85 keys that, written
 * back by mf_keys_format, parses to the same pair. Crashes, leaks,
 * sanitizer reports and broken round trips are the bugs this looks for.
 *
 * The seeds CTest gives every fuzzer are SMV models, far from a
 * certificate, so a custom mutator now and then replaces an input by a
 * valid public or secret certificate: libFuzzer's mutations then start
 * from real ones. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);

/* One pair made by libzmq (zmq_curve_keypair). */
static const char pub[] = "pnE.y]WI@KOk&tz8Bk5XL3o>k@6.e2[n[3WPLC60";
static const char sec[] = "t8iHnbWhw/%26%R)ZHCWRDK@<?D(rPh.:Z!nc2/(";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_keypair kp, back;
    int rc = mf_keys_parse(&kp, "fuzz.key", (const char *)data, size);
    if (rc < 0) {
        static const mf_keypair zero;
        if (!strstr(mf_err_msg(), "fuzz.key") ||
            memcmp(&kp, &zero, sizeof kp))
            abort();
        return 0;
    }
    size_t sl = strlen(kp.secret_key);
    if (strlen(kp.public_key) != 40 || (sl != 0 && sl != 40))
        abort();
    mf_buf b = {0};
    mf_keys_format(&b, &kp, sl != 0, "fuzz");
    if (mf_keys_parse(&back, "back.key", b.data, b.len) != 0 ||
        memcmp(&kp, &back, sizeof kp))
        abort();
    mf_buf_free(&b);
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed)
{
    if (seed % 8 != 0)
        return LLVMFuzzerMutate(data, size, max_size);
    mf_keypair kp;
    memset(&kp, 0, sizeof kp);
    memcpy(kp.public_key, pub, sizeof pub);
    if (seed % 16 == 0)
        memcpy(kp.secret_key, sec, sizeof sec);
    mf_buf b = {0};
    mf_keys_format(&b, &kp, kp.secret_key[0] != 0,
                   seed % 3 ? "2026-01-01 00:00:00 UTC" : NULL);
    size_t n = b.len < max_size ? b.len : max_size;
    memcpy(data, b.data, n);
    mf_buf_free(&b);
    return n;
}
