/* cmd_keygen.c - `mutfarm keygen [-o BASENAME]`: a CURVE key pair for a
 * coordinator or a worker, written as ZeroMQ certificates BASENAME.key
 * (public) and BASENAME.key_secret (mode 0600) (docs/security.md).
 *
 * Only options are parsed here; the pair comes from libzmq and the files
 * are written by config/keys.c. Nothing is overwritten. */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "keys.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm keygen [-o BASENAME]\n"
          "  make a ZeroMQ CURVE key pair and write it as two certificates:\n"
          "  BASENAME.key (the public key: give it to the other side) and\n"
          "  BASENAME.key_secret (both keys, mode 0600: keep it here).\n"
          "  BASENAME defaults to 'mutfarm'; existing files are never\n"
          "  overwritten. A coordinator uses its NAME.key_secret as\n"
          "  [security] server_secret_key and lists the workers' NAME.key\n"
          "  files in authorized_keys; a worker uses the coordinator's\n"
          "  NAME.key as server_public_key and its own NAME.key_secret as\n"
          "  client_secret_key (docs/security.md).\n"
          "  -o BASENAME  where to write (a path without the extension)\n"
          "  exit: 0 written, 1 usage error or a file in the way,\n"
          "  2 libzmq without CURVE\n",
          f);
}

int mf_cmd_keygen(int argc, char **argv)
{
    static const struct option lo[] = {
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *base = "mutfarm";
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
        switch (c) {
        case 'o': base = optarg; break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        case '?':
            if (optopt != 'o')
                return mf_cli_unknown_option("keygen", argv[optind - 1]);
            fprintf(stderr, "mutfarm keygen: -o needs a BASENAME\n");
            return MF_EXIT_USAGE;
        default: return MF_EXIT_USAGE;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "mutfarm keygen: unexpected argument '%s'; give the "
                        "name with -o BASENAME\n", argv[optind]);
        return MF_EXIT_USAGE;
    }
    if (!*base) {
        fprintf(stderr, "mutfarm keygen: -o needs a non-empty BASENAME\n");
        return MF_EXIT_USAGE;
    }
    if (!mf_keys_have_curve()) {
        fprintf(stderr, "mutfarm keygen: this libzmq is built without "
                        "CURVE (Debian's libzmq5 has it)\n");
        return MF_EXIT_INTERNAL;
    }
    mf_keypair kp;
    if (mf_keys_generate(&kp) < 0) {
        fprintf(stderr, "mutfarm keygen: %s\n", mf_err_msg());
        return MF_EXIT_INTERNAL;
    }
    int rc = mf_keys_write(base, &kp);
    char pub[MF_KEY_Z85];
    memcpy(pub, kp.public_key, sizeof pub);
    explicit_bzero(&kp, sizeof kp);
    if (rc < 0) {
        fprintf(stderr, "mutfarm keygen: %s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    printf("wrote %s.key (public key %s: give it to the other side)\n"
           "  and %s.key_secret (mode 0600: keep it here)\n",
           base, pub, base);
    return MF_EXIT_OK;
}
