/* cmd_report.c - `mutfarm report`: a campaign's report from its store as
 * text, JSON (mutation-testing-elements schema), a self-contained HTML
 * page or JUnit XML, or the score history of the store's models
 * (docs/reports.md).
 *
 * This file checks the command line and the files it names, and writes
 * the report to stdout or, with -o, to a file that appears whole or not
 * at all; what goes into a report is coordinator/report/. The store is
 * opened read-only, so a report can be taken while a coordinator runs. */
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "store.h"

static void usage(FILE *f)
{
    fputs("usage: mutfarm report --db F [--campaign N]\n"
          "                      [--format text|json|html|junit] [-o FILE]\n"
          "       mutfarm report --db F --history [--campaign N] [-o FILE]\n"
          "\n"
          "  The report of the newest campaign in the store F (or of\n"
          "  campaign N), docs/reports.md:\n"
          "  --format text   (default) model, options, counts, the mutation\n"
          "                  score with and without proven equivalents, the\n"
          "                  score per operator, the survivors with their\n"
          "                  mutated text, the cross-operator table, the\n"
          "                  dominator mutants (with a full kill matrix)\n"
          "  --format json   the mutation-testing-elements report schema\n"
          "  --format html   one self-contained page showing the JSON in the\n"
          "                  mutation-testing-elements viewer (works offline)\n"
          "  --format junit  JUnit XML: one testcase per mutant; survivors,\n"
          "                  unknown and error verdicts fail\n"
          "  --history       the score of each finished campaign, by model\n"
          "                  (with --campaign N: of that campaign's model)\n"
          "  -o FILE         write to FILE (replaced whole) instead of stdout\n"
          "\n"
          "  Reads only; safe while a coordinator runs on F.\n"
          "  exit: 0 done, 1 usage error or no such store, campaign or\n"
          "  directory, 2 internal error\n",
          f);
}

/* The store file as the user named it: one line and 1 if it cannot be a
 * store (missing, a directory, empty). */
static int check_store_file(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "mutfarm report: %s: %s; give the store a campaign "
                        "wrote with --db FILE\n",
                path, strerror(errno));
        return 1;
    }
    if (S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "mutfarm report: %s is a directory, not a mutfarm "
                        "store; give the store file with --db FILE\n",
                path);
        return 1;
    }
    if (sb.st_size == 0) {
        fprintf(stderr, "mutfarm report: %s is empty, not a mutfarm store\n",
                path);
        return 1;
    }
    return 0;
}

/* The directory part of path ("." if none), into buf. */
static void dir_of(char *buf, size_t n, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, n, ".");
    else if (slash == path)
        snprintf(buf, n, "/");
    else
        snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

typedef struct {
    FILE *f;
    char tmp[4096]; /* the temporary file renamed to the output at the end */
} output;

/* stdout, or a temporary file beside `path`; 1 and one line if the file
 * cannot be made there. */
static int output_open(output *o, const char *path)
{
    char dir[4096];
    struct stat sb;
    o->f = stdout;
    o->tmp[0] = '\0';
    if (!path)
        return 0;
    dir_of(dir, sizeof dir, path);
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "mutfarm report: -o %s: directory %s does not "
                        "exist\n",
                path, dir);
        return 1;
    }
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "mutfarm report: -o %s is a directory; give a file "
                        "name\n",
                path);
        return 1;
    }
    if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s.XXXXXX", path) >=
        sizeof o->tmp) {
        fprintf(stderr, "mutfarm report: -o %s: path too long\n", path);
        return 1;
    }
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fprintf(stderr, "mutfarm report: -o %s: cannot create a file in %s: "
                        "%s\n",
                path, dir, strerror(errno));
        o->tmp[0] = '\0';
        return 1;
    }
    /* mkstemp makes it private; a report is as readable as any file. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(o->f = fdopen(fd, "w"))) {
        fprintf(stderr, "mutfarm report: -o %s: %s\n", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        o->tmp[0] = '\0';
        o->f = stdout;
        return 1;
    }
    return 0;
}

/* Finish the output: rename the temporary file over path when ok, else
 * remove it. Returns 0, or 1 with a message when the rename fails. */
static int output_close(output *o, const char *path, int ok)
{
    if (!o->tmp[0])
        return 0;
    int bad = fclose(o->f) != 0;
    o->f = stdout;
    if (ok && !bad && rename(o->tmp, path) == 0)
        return 0;
    if (ok)
        fprintf(stderr, "mutfarm report: -o %s: %s\n", path,
                strerror(errno));
    unlink(o->tmp);
    return ok ? 1 : 0;
}

int mf_cmd_report(int argc, char **argv)
{
    static const struct option lo[] = {
        {"db", required_argument, 0, 'd'},
        {"campaign", required_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'},
        {"history", no_argument, 0, 'H'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *dbpath = NULL, *outpath = NULL, *fmt_arg = NULL;
    int64_t campaign = 0;
    int history = 0, c;
    mf_report_format fmt = MF_REPORT_TEXT;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'd': dbpath = optarg; break;
        case 'c':
            if (mf_cli_number(&campaign, "report", "--campaign", optarg,
                              INT64_MAX))
                return MF_EXIT_USAGE;
            break;
        case 'f':
            fmt_arg = optarg;
            if (mf_report_format_parse(&fmt, optarg) < 0) {
                fprintf(stderr, "mutfarm report: %s\n", mf_err_msg());
                return MF_EXIT_USAGE;
            }
            break;
        case 'o': outpath = optarg; break;
        case 'H': history = 1; break;
        case 'h': usage(stdout); return MF_EXIT_OK;
        case ':':
            fprintf(stderr, "mutfarm report: %s needs a value; see 'mutfarm "
                            "report --help'\n",
                    argv[optind - 1]);
            return MF_EXIT_USAGE;
        default:
            return mf_cli_unknown_option("report", argv[optind - 1]);
        }
    }
    if (optind != argc) {
        return mf_cli_extra_argument("report", argv[optind]);
    }
    if (!dbpath) {
        fprintf(stderr, "mutfarm report: give the store with --db FILE\n");
        return MF_EXIT_USAGE;
    }
    if (history && fmt_arg && fmt != MF_REPORT_TEXT) {
        fprintf(stderr, "mutfarm report: --history is text only; leave out "
                        "--format %s\n",
                fmt_arg);
        return MF_EXIT_USAGE;
    }
    const char *why = NULL;
    if (!history && fmt == MF_REPORT_HTML && !mf_report_viewer_present(&why)) {
        fprintf(stderr, "mutfarm report: this mutfarm was built without the "
                        "HTML viewer (%s); use --format json, or rebuild "
                        "with npm installed and the npm registry "
                        "reachable\n",
                why);
        return MF_EXIT_USAGE;
    }
    if (check_store_file(dbpath))
        return MF_EXIT_USAGE;
    mf_store *s = NULL;
    if (mf_store_open(&s, dbpath, MF_STORE_READONLY, 5000) < 0) {
        fprintf(stderr, "mutfarm report: %s\n", mf_err_msg());
        return MF_EXIT_USAGE;
    }
    output o;
    int code = MF_EXIT_OK;
    if (output_open(&o, outpath)) {
        code = MF_EXIT_USAGE;
        goto done;
    }
    int rc = history ? mf_report_history(o.f, s, campaign)
                     : mf_report_write(o.f, s, campaign, fmt, dbpath, stderr);
    if (rc < 0) {
        fprintf(stderr, "mutfarm report: %s: %s\n", dbpath, mf_err_msg());
        code = rc == MF_ENOTFOUND || rc == MF_EUNSUPPORTED ? MF_EXIT_USAGE
                                                           : MF_EXIT_INTERNAL;
    }
    if (output_close(&o, outpath, rc == 0))
        code = MF_EXIT_INTERNAL;
done:
    mf_store_close(s);
    return code;
}
