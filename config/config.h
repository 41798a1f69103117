/* config.h - every tunable of the farm in one struct, its built-in defaults,
 * and loading it from an INI file (config/mutfarm.conf, docs/config.md).
 *
 * Precedence: built-in defaults < the config file < command-line flags. A
 * command calls mf_config_default(), then mf_config_load() if --config (or
 * a default path) is given, then sets fields from its own flags, either
 * directly or through mf_config_set() to get the same validation and
 * message. It does not read the environment and it does not know the
 * commands' flags. */
#ifndef MF_CONFIG_H
#define MF_CONFIG_H

#include "engine.h"

/* Sizes of the string fields, NUL included. Longer values are refused. */
#define MF_CONFIG_ENDPOINT 256
#define MF_CONFIG_PATH 1024
#define MF_CONFIG_LIST 1024

typedef struct {
    /* [campaign]: what is checked (part of a campaign's identity) */
    int bound;                      /* deepest test length searched */
    int complete;                   /* bound = auto (docs/killing.md) */
    mf_notion_req notion;           /* auto, potential or definite */
    char operators[MF_CONFIG_LIST]; /* comma list of operators; "" all */
    char inputs[MF_CONFIG_LIST];    /* comma list of input vars; "" infer */
    char observe[MF_CONFIG_LIST];   /* comma list observed; "" infer */
    int sample;                     /* check N evenly spaced mutants; 0 all */

    /* [engine]: how one check runs on a worker */
    unsigned timeout_ms;   /* wall limit per solver check */
    unsigned rlimit;       /* Z3 resource limit per check, 0 none */
    unsigned memory_mb;    /* Z3 memory budget per solver thread (MiB),
                              0 none */
    int prove;             /* try equivalence proofs for survivors */
    mf_engine_kind engine; /* non-deterministic models: cegis|quantified */
    mf_mode mode;          /* one solver per batch or per mutant */
    int cegis_max;         /* refinement iterations per depth */
    mf_method method;      /* auto|smt|bdd|explicit (docs/killing.md) */
    unsigned explicit_mb;  /* explicit-state proof memory, MB per thread */

    /* [farm]: the coordinator's reliability and sharding knobs */
    unsigned heartbeat_ms;  /* interval of heartbeats, both directions */
    int liveness;           /* missed heartbeats before a peer is dead */
    unsigned lease_ms;      /* a job not answered within this returns */
    int max_attempts;       /* leases of one job before quarantine */
    unsigned job_target_ms; /* aimed-for wall time of one job */
    int job_min;            /* fewest mutants in a job */
    int job_max;            /* most mutants in a job */
    unsigned progress_s;    /* progress line interval off a terminal; 0
                               none */

    /* [coordinator] */
    char bind[MF_CONFIG_ENDPOINT]; /* ZeroMQ endpoint the ROUTER binds */
    char db[MF_CONFIG_PATH];       /* SQLite store file */
    unsigned busy_timeout_ms;      /* SQLite waits this long on a lock */

    /* [worker] */
    char connect[MF_CONFIG_ENDPOINT]; /* ZeroMQ endpoint a worker dials */
    int threads;                      /* solver threads, 0: one per core */
    unsigned reconnect_ms;            /* first back-off after a lost peer */
    unsigned reconnect_max_ms;        /* back-off doubles up to this */

    /* [run] */
    int workers; /* local worker processes, 0: one per core */

    /* [security] (docs/security.md) */
    int curve; /* ZeroMQ CURVE on (1) or off (0) */
    char server_secret_key[MF_CONFIG_PATH]; /* coordinator: NAME.key_secret */
    char authorized_keys[MF_CONFIG_PATH];   /* coordinator: workers' *.key,
                                               a file or a directory */
    char server_public_key[MF_CONFIG_PATH]; /* worker: coordinator's .key */
    char client_secret_key[MF_CONFIG_PATH]; /* worker: NAME.key_secret */
} mf_config;

/* Fill *c with the built-in defaults (engine fields from
 * mf_engine_opts_default, the others as in config/mutfarm.conf). */
void mf_config_default(mf_config *c);

/* Set one key from its text, validated as in a config file. Returns 0, or
 * MF_ENOTFOUND for an unknown section or key ("unknown key 'x' in
 * [section]") and MF_EPARSE for a bad value ("bad value 'v' for
 * [campaign] bound: a whole number 0..10000"); *c is unchanged on
 * failure. The message carries no file name: callers prefix their own. */
int mf_config_set(mf_config *c, const char *section, const char *key,
                  const char *value);

/* Checks across keys that a single mf_config_set cannot make (job_min <=
 * job_max, reconnect_ms <= reconnect_max_ms): 0 or MF_EPARSE with a
 * message. mf_config_load runs it; a command runs it again after applying
 * its flags. */
int mf_config_validate(const mf_config *c);

/* Load an INI file over *c (keys absent from the file keep their value).
 * Returns 0; MF_EIO if the file cannot be opened ("FILE: cannot open:
 * ..."); MF_ENOTFOUND / MF_EPARSE with "FILE:LINE: ..." for the first bad
 * line (unknown section or key, bad value, a line that is not key = value,
 * a line too long). On failure *c is unchanged. */
int mf_config_load(mf_config *c, const char *path);

/* The same from text in memory; `name` stands for the file in messages. */
int mf_config_load_string(mf_config *c, const char *name, const char *text);

/* The engine options the config describes (for a job or a local check). */
void mf_config_engine_opts(const mf_config *c, mf_engine_opts *out);

/* What makes two campaigns of one model the same (the store's campaign
 * key): the operators in canonical form into *ops (catalogue order, "" for
 * all) and every option that changes verdicts as canonical JSON into
 * *options (docs/schema.md, campaigns.options). Both are appended to and
 * the caller's to free. 0, or MF_EPARSE for a bad operator list. */
int mf_config_campaign_key(const mf_config *c, mf_buf *ops, mf_buf *options);

/* Names of enum values as written in the config ("auto", "cegis", ...). */
const char *mf_config_notion_name(mf_notion_req n);

/* Write the whole configuration as INI text (every key, current values),
 * e.g. for `--print-config` or a log. Appends to *out. */
void mf_config_print(mf_buf *out, const mf_config *c);

#endif
