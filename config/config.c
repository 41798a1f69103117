/* config.c - mf_config defaults, one validated setter per key, and INI
 * loading through libinih (config.h, docs/config.md).
 *
 * Every key is one row of `keys`: its section, name, kind, place in the
 * struct and range. Setting, printing and the documentation all follow
 * that table, so a key cannot exist in one and not the others. It does
 * not parse command-line flags: the commands do, then call
 * mf_config_set() or assign fields. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A campaign's operators are named as SMV names them: the language of
 * every farm campaign so far (a second language's campaigns need the key
 * relative to the model's language, lang.h). */
#include "smv.h"

typedef enum {
    K_INT,    /* int in [min, max] */
    K_UINT,   /* unsigned in [min, max] */
    K_BOOL,   /* on/off, true/false, yes/no, 1/0 -> int 1/0 */
    K_STR,    /* char[size], may be empty */
    K_STRNE,  /* char[size], not empty */
    K_OPS,    /* char[size]: a list mf_mop_parse_list accepts */
    K_NOTION, /* mf_notion_req */
    K_ENGINE, /* mf_engine_kind */
    K_MODE,   /* mf_mode */
    K_METHOD, /* mf_method */
} kind;

typedef struct {
    const char *section, *key;
    kind k;
    size_t off, size;
    long long min, max;
} key;

#define F(field) offsetof(mf_config, field), sizeof(((mf_config *)0)->field)

static const key keys[] = {
    {"campaign", "bound", K_INT, F(bound), 0, 10000},
    {"campaign", "notion", K_NOTION, F(notion), 0, 0},
    {"campaign", "operators", K_OPS, F(operators), 0, 0},
    {"campaign", "inputs", K_STR, F(inputs), 0, 0},
    {"campaign", "observe", K_STR, F(observe), 0, 0},
    {"campaign", "sample", K_INT, F(sample), 0, 100000000},
    {"engine", "timeout_ms", K_UINT, F(timeout_ms), 1, 86400000},
    {"engine", "rlimit", K_UINT, F(rlimit), 0, UINT_MAX},
    {"engine", "memory_mb", K_UINT, F(memory_mb), 0, 1048576},
    {"engine", "prove", K_BOOL, F(prove), 0, 1},
    {"engine", "engine", K_ENGINE, F(engine), 0, 0},
    {"engine", "mode", K_MODE, F(mode), 0, 0},
    {"engine", "cegis_max", K_INT, F(cegis_max), 1, 1000000},
    {"engine", "method", K_METHOD, F(method), 0, 0},
    {"engine", "explicit_mb", K_UINT, F(explicit_mb), 1, 1048576},
    {"farm", "heartbeat_ms", K_UINT, F(heartbeat_ms), 10, 3600000},
    {"farm", "liveness", K_INT, F(liveness), 1, 1000},
    {"farm", "lease_ms", K_UINT, F(lease_ms), 100, 604800000},
    {"farm", "max_attempts", K_INT, F(max_attempts), 1, 1000},
    {"farm", "job_target_ms", K_UINT, F(job_target_ms), 1, 86400000},
    {"farm", "job_min", K_INT, F(job_min), 1, 100000},
    {"farm", "job_max", K_INT, F(job_max), 1, 100000},
    {"farm", "progress_s", K_UINT, F(progress_s), 0, 86400},
    {"coordinator", "bind", K_STRNE, F(bind), 0, 0},
    {"coordinator", "db", K_STRNE, F(db), 0, 0},
    {"coordinator", "busy_timeout_ms", K_UINT, F(busy_timeout_ms), 0, 3600000},
    {"worker", "connect", K_STRNE, F(connect), 0, 0},
    {"worker", "threads", K_INT, F(threads), 0, 4096},
    {"worker", "reconnect_ms", K_UINT, F(reconnect_ms), 1, 3600000},
    {"worker", "reconnect_max_ms", K_UINT, F(reconnect_max_ms), 1, 3600000},
    {"run", "workers", K_INT, F(workers), 0, 4096},
    {"security", "curve", K_BOOL, F(curve), 0, 1},
    {"security", "server_secret_key", K_STR, F(server_secret_key), 0, 0},
    {"security", "authorized_keys", K_STR, F(authorized_keys), 0, 0},
    {"security", "server_public_key", K_STR, F(server_public_key), 0, 0},
    {"security", "client_secret_key", K_STR, F(client_secret_key), 0, 0},
};

#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

/* Names of the enum keys, indexed by value. */
static const char *const notion_names[] = {"auto", "potential", "definite"};
static const char *const engine_names[] = {"cegis", "quantified"};
static const char *const mode_names[] = {"batch", "fresh"};
static const char *const method_names[] = {"auto", "smt", "bdd", "explicit"};

static const char *enum_name(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

/* The fields mf_config and mf_engine_opts share, by name: the engine gives
 * their defaults, the config gives them back for a check. */
#define ENGINE_FIELDS(X)                                                       \
    X(bound) X(notion) X(timeout_ms) X(rlimit) X(prove) X(engine) X(mode)      \
    X(cegis_max) X(memory_mb) X(method) X(explicit_mb) X(complete)

void mf_config_default(mf_config *c)
{
    mf_engine_opts eo;
    memset(c, 0, sizeof *c);
    mf_engine_opts_default(&eo);
#define FROM_ENGINE(f) c->f = eo.f;
    ENGINE_FIELDS(FROM_ENGINE)
#undef FROM_ENGINE
    c->heartbeat_ms = 1000;
    c->liveness = 3;
    c->lease_ms = 600000;
    c->max_attempts = 3;
    c->job_target_ms = 3000;
    c->job_min = 1;
    c->job_max = 64;
    c->progress_s = 10;
    snprintf(c->bind, sizeof c->bind, "tcp://*:5555");
    snprintf(c->db, sizeof c->db, "mutfarm.db");
    c->busy_timeout_ms = 5000;
    snprintf(c->connect, sizeof c->connect, "tcp://localhost:5555");
    c->threads = 0;
    c->reconnect_ms = 1000;
    c->reconnect_max_ms = 32000;
    c->workers = 0;
    c->curve = 0;
}

const char *mf_config_notion_name(mf_notion_req n)
{
    return enum_name(notion_names, 3, (int)n);
}

static const key *find_key(const char *section, const char *name)
{
    for (int i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].section, section) && !strcmp(keys[i].key, name))
            return &keys[i];
    return NULL;
}

static int known_section(const char *section)
{
    for (int i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].section, section))
            return 1;
    return 0;
}

/* Decimal integer, nothing else on the line: no "10k", no "0x10". */
static int parse_ll(const char *s, long long *out)
{
    char *end;
    errno = 0;
    if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
        return -1;
    long long v = strtoll(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"on", "true", "yes", "1"};
    static const char *const no[] = {"off", "false", "no", "0"};
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(s, yes[i]) || !strcasecmp(s, no[i])) {
            *out = !strcasecmp(s, yes[i]);
            return 0;
        }
    }
    return -1;
}

/* Index of s in names, or -1. */
static int parse_enum(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

/* "one of a, b, c" for an enum key's message. */
static void enum_expect(char *buf, size_t size, const char *const *names, int n)
{
    size_t len = (size_t)snprintf(buf, size, "one of");
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s %s", i ? "," : "",
                                names[i]);
}

static int bad_value(const key *k, const char *value, const char *expect)
{
    return mf_err_set(MF_EPARSE, "bad value '%s' for [%s] %s: %s", value,
                      k->section, k->key, expect);
}

static int set_number(mf_config *c, const key *k, const char *value)
{
    char expect[96];
    long long v;
    snprintf(expect, sizeof expect, "a whole number %lld..%lld", k->min,
             k->max);
    if (parse_ll(value, &v) < 0 || v < k->min || v > k->max)
        return bad_value(k, value, expect);
    if (k->k == K_INT)
        *(int *)((char *)c + k->off) = (int)v;
    else
        *(unsigned *)((char *)c + k->off) = (unsigned)v;
    return 0;
}

static int set_string(mf_config *c, const key *k, const char *value)
{
    char expect[64];
    if (strlen(value) >= k->size) {
        snprintf(expect, sizeof expect, "at most %zu characters", k->size - 1);
        return bad_value(k, value, expect);
    }
    if (k->k == K_STRNE && !*value)
        return bad_value(k, value, "must not be empty");
    if (k->k == K_OPS && strspn(value, ", \t") != strlen(value)) {
        unsigned mask;
        char why[512];
        if (mf_mop_parse_list(&mask, value) < 0) {
            snprintf(why, sizeof why, "%s", mf_err_msg());
            return bad_value(k, value, why);
        }
    }
    snprintf((char *)c + k->off, k->size, "%s", value);
    return 0;
}

static int set_enum(mf_config *c, const key *k, const char *value)
{
    const char *const *names = k->k == K_NOTION   ? notion_names
                               : k->k == K_ENGINE ? engine_names
                               : k->k == K_METHOD ? method_names
                                                  : mode_names;
    int n = k->k == K_NOTION ? 3 : k->k == K_METHOD ? 4 : 2;
    int v = parse_enum(value, names, n);
    char expect[96];
    if (v < 0) {
        enum_expect(expect, sizeof expect, names, n);
        return bad_value(k, value, expect);
    }
    /* The three enums are int-sized C enums whose values are the indexes. */
    *(int *)((char *)c + k->off) = v;
    return 0;
}

int mf_config_set(mf_config *c, const char *section, const char *name,
                  const char *value)
{
    const key *k = find_key(section, name);
    if (!k) {
        if (!*section)
            return mf_err_set(MF_ENOTFOUND, "key '%s' outside any [section]",
                              name);
        if (!known_section(section))
            return mf_err_set(MF_ENOTFOUND, "unknown section [%s]", section);
        return mf_err_set(MF_ENOTFOUND, "unknown key '%s' in [%s]", name,
                          section);
    }
    /* bound = auto: decide completely where the explorer can; the
     * searches keep the bound they have. */
    int is_bound = k->off == offsetof(mf_config, bound);
    if (is_bound && !strcmp(value, "auto")) {
        c->complete = 1;
        return 0;
    }
    switch (k->k) {
    case K_INT:
    case K_UINT:
        if (is_bound)
            c->complete = 0;
        return set_number(c, k, value);
    case K_BOOL: {
        int b;
        if (parse_bool(value, &b) < 0)
            return bad_value(k, value, "on or off");
        *(int *)((char *)c + k->off) = b;
        return 0;
    }
    case K_STR:
    case K_STRNE:
    case K_OPS:
        return set_string(c, k, value);
    default:
        return set_enum(c, k, value);
    }
}

int mf_config_validate(const mf_config *c)
{
    if (c->job_min > c->job_max)
        return mf_err_set(MF_EPARSE,
                          "[farm] job_min (%d) is larger than "
                          "job_max (%d)",
                          c->job_min, c->job_max);
    if (c->reconnect_ms > c->reconnect_max_ms)
        return mf_err_set(MF_EPARSE,
                          "[worker] reconnect_ms (%u) is larger "
                          "than reconnect_max_ms (%u)",
                          c->reconnect_ms, c->reconnect_max_ms);
    return 0;
}

/* ---- INI loading -------------------------------------------------------- */

typedef struct {
    mf_config cfg;    /* loaded into a copy: the caller's is kept on error */
    const char *name; /* file name for messages */
    const char *p;    /* reading position in the text */
    int line;         /* lines handed to inih so far */
    int err_line;     /* line of the first error, 0 none */
    int err_code;
    char err[512];
    int seen[sizeof keys / sizeof keys[0]]; /* line a key was set on */
} loader;

static void first_error(loader *l, int code, const char *msg)
{
    if (l->err_line)
        return;
    l->err_line = l->line;
    l->err_code = code;
    snprintf(l->err, sizeof l->err, "%s", msg);
}

/* fgets over the text, counting lines so errors know theirs. A line that
 * does not fit inih's buffer is an error, not two lines. */
static char *reader(char *str, int num, void *stream)
{
    loader *l = stream;
    if (!*l->p)
        return NULL;
    const char *nl = strchr(l->p, '\n');
    size_t len = nl ? (size_t)(nl - l->p) + 1 : strlen(l->p);
    l->line++;
    if (len + 1 > (size_t)num) {
        char msg[64];
        snprintf(msg, sizeof msg, "line too long (at most %d characters)",
                 num - 3);
        first_error(l, MF_EPARSE, msg);
        len = (size_t)num - 1;
        memcpy(str, l->p, len);
        str[len] = '\0';
        l->p = nl ? nl + 1 : l->p + strlen(l->p);
        str[0] = ';'; /* let inih see a comment, not a cut key = value */
        return str;
    }
    memcpy(str, l->p, len);
    str[len] = '\0';
    l->p += len;
    return str;
}

static int handler(void *user, const char *section, const char *name,
                   const char *value)
{
    loader *l = user;
    const key *k = find_key(section, name);
    if (k && l->seen[k - keys]) {
        char msg[160];
        snprintf(msg, sizeof msg, "[%s] %s is set twice (first on line %d)",
                 section, name, l->seen[k - keys]);
        first_error(l, MF_EPARSE, msg);
        return 0;
    }
    int rc = mf_config_set(&l->cfg, section, name, value);
    if (rc < 0) {
        first_error(l, rc, mf_err_msg());
        return 0;
    }
    l->seen[k - keys] = l->line;
    return 1;
}

int mf_config_load_string(mf_config *c, const char *name, const char *text)
{
    loader *l = mf_xcalloc(1, sizeof *l);
    l->cfg = *c;
    l->name = name;
    l->p = text;
    int line = ini_parse_stream(reader, l, handler, l);
    int rc = 0;
    if (l->err_line && (line <= 0 || l->err_line <= line))
        rc = mf_err_set(l->err_code, "%s:%d: %s", name, l->err_line, l->err);
    else if (line > 0)
        rc = mf_err_set(MF_EPARSE,
                        "%s:%d: expected 'key = value', "
                        "'[section]' or a comment",
                        name, line);
    else if (line < 0)
        rc = mf_err_set(MF_ERROR, "%s: cannot parse (out of memory)", name);
    if (rc == 0 && mf_config_validate(&l->cfg) < 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        rc = mf_err_set(MF_EPARSE, "%s: %s", name, why);
    }
    if (rc == 0)
        *c = l->cfg;
    free(l);
    return rc;
}

int mf_config_load(mf_config *c, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    int rc = mf_read_file(&text, &len, path, 1 << 20);
    if (rc < 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", mf_err_msg());
        rc = mf_err_set(rc == MF_ELIMIT ? MF_ELIMIT : MF_EIO,
                        "%s: cannot read the config: %s", path, why);
        free(text);
        return rc;
    }
    if (strlen(text) != len)
        rc = mf_err_set(MF_EPARSE, "%s: not a text file (NUL byte)", path);
    else
        rc = mf_config_load_string(c, path, text);
    free(text);
    return rc;
}

void mf_config_engine_opts(const mf_config *c, mf_engine_opts *out)
{
    mf_engine_opts_default(out);
#define TO_ENGINE(f) out->f = c->f;
    ENGINE_FIELDS(TO_ENGINE)
#undef TO_ENGINE
}

void mf_config_print(mf_buf *out, const mf_config *c)
{
    const char *section = "";
    for (int i = 0; i < NKEYS; i++) {
        const key *k = &keys[i];
        const char *p = (const char *)c + k->off;
        if (strcmp(section, k->section)) {
            mf_buf_printf(out, "%s[%s]\n", *section ? "\n" : "", k->section);
            section = k->section;
        }
        mf_buf_printf(out, "%s = ", k->key);
        switch (k->k) {
        case K_INT:
            if (k->off == offsetof(mf_config, bound) && c->complete)
                mf_buf_printf(out, "auto\n");
            else
                mf_buf_printf(out, "%d\n", *(const int *)p);
            break;
        case K_UINT:
            mf_buf_printf(out, "%u\n", *(const unsigned *)p);
            break;
        case K_BOOL:
            mf_buf_printf(out, "%s\n", *(const int *)p ? "on" : "off");
            break;
        case K_STR:
        case K_STRNE:
        case K_OPS:
            mf_buf_printf(out, "%s\n", p);
            break;
        case K_NOTION:
            mf_buf_printf(out, "%s\n",
                          enum_name(notion_names, 3, *(const int *)p));
            break;
        case K_ENGINE:
            mf_buf_printf(out, "%s\n",
                          enum_name(engine_names, 2, *(const int *)p));
            break;
        case K_MODE:
            mf_buf_printf(out, "%s\n",
                          enum_name(mode_names, 2, *(const int *)p));
            break;
        case K_METHOD:
            mf_buf_printf(out, "%s\n",
                          enum_name(method_names, 4, *(const int *)p));
            break;
        }
    }
}

/* The operator list in canonical form: names in catalogue order, "" for
 * all, so "a,b" and "b, a" name the same campaign. */
static int canonical_ops(mf_buf *out, const char *list)
{
    unsigned mask = 0;
    mf_buf_puts(out, "");
    if (strspn(list, ", \t") == strlen(list))
        return 0; /* an empty list means all operators */
    int rc = mf_mop_parse_list(&mask, list);
    if (rc < 0)
        return rc;
    unsigned all = (1u << MF_MOP__COUNT) - 1;
    if (mask == 0 || (mask & all) == all)
        return 0;
    for (int op = 0; op < MF_MOP__COUNT; op++)
        if (mask & (1u << op))
            mf_buf_printf(out, "%s%s", out->len ? "," : "",
                          mf_mop_name((mf_mop)op));
    return 0;
}

int mf_config_campaign_key(const mf_config *c, mf_buf *ops, mf_buf *options)
{
    int rc = canonical_ops(ops, c->operators);
    if (rc < 0)
        return rc;
    mf_buf_printf(options, "{\"bound\":%d,\"notion\":", c->bound);
    mf_buf_json_str(options, mf_config_notion_name(c->notion));
    mf_buf_puts(options, ",\"operators\":");
    mf_buf_json_str(options, ops->data);
    mf_buf_puts(options, ",\"inputs\":");
    mf_buf_json_str(options, c->inputs);
    mf_buf_puts(options, ",\"observe\":");
    mf_buf_json_str(options, c->observe);
    mf_buf_printf(options, ",\"timeout_ms\":%u,\"rlimit\":%u,\"prove\":%s",
                  c->timeout_ms, c->rlimit, c->prove ? "true" : "false");
    mf_buf_puts(options, ",\"engine\":");
    mf_buf_json_str(options, enum_name(engine_names, 2, (int)c->engine));
    mf_buf_printf(options, ",\"mode\":\"%s\",\"cegis_max\":%d",
                  enum_name(mode_names, 2, (int)c->mode), c->cegis_max);
    /* Only when set: the keys of campaigns made before it existed hold. */
    mf_engine_opts def;
    mf_engine_opts_default(&def);
    if (c->complete)
        mf_buf_puts(options, ",\"bound_auto\":true");
    if (c->explicit_mb != def.explicit_mb)
        mf_buf_printf(options, ",\"explicit_mb\":%u", c->explicit_mb);
    if (c->sample > 0)
        mf_buf_printf(options, ",\"sample\":%d", c->sample);
    if (c->memory_mb > 0)
        mf_buf_printf(options, ",\"memory_mb\":%u", c->memory_mb);
    if (c->method != MF_METHOD_AUTO)
        mf_buf_printf(options, ",\"method\":\"%s\"",
                      enum_name(method_names, 4, (int)c->method));
    mf_buf_puts(options, "}");
    return 0;
}
