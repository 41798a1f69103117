-- 001_init.sql - the first mutfarm store schema (docs/schema.md).
--
-- Applied by mf_store_open() in one transaction when PRAGMA user_version is
-- below 1; the store then sets user_version = 1. Later changes go in
-- 002_*.sql and so on: never edit a migration that has shipped.
--
-- Conventions: times are milliseconds since the Unix epoch (UTC); ids
-- called `id` are SQLite row ids; a mutant's stable 16-hex-digit id (the
-- one `mutfarm mutants show` takes) is `mutants.mutant_id`. Tables are
-- written by the coordinator only; users read the views.

-- A model by the SHA-256 of its canonical print, with its text, so a
-- campaign can be re-checked or reported without the original file.
CREATE TABLE models (
    id         INTEGER PRIMARY KEY,
    hash       TEXT    NOT NULL UNIQUE,
    name       TEXT    NOT NULL,          -- file base name when first seen
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);

-- One campaign: a model checked under one set of options. `options` is the
-- canonical JSON the coordinator matches to resume an unfinished campaign;
-- the columns next to it repeat what users filter on.
CREATE TABLE campaigns (
    id              INTEGER PRIMARY KEY,
    model_id        INTEGER NOT NULL REFERENCES models(id),
    state           TEXT    NOT NULL
                    CHECK (state IN ('planning', 'running', 'done')),
    options         TEXT    NOT NULL,
    bound           INTEGER NOT NULL,
    notion          TEXT    NOT NULL,
    operators       TEXT    NOT NULL,     -- '' = all operators
    mutfarm_version TEXT,
    z3_version      TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    finished_at     INTEGER
);
CREATE INDEX campaigns_by_model ON campaigns(model_id, state);

-- A unit of work: mutants of one campaign that change the same model item.
-- `attempts` counts leases; a result carries the attempt it answers, so a
-- late answer to an earlier lease is recognised and ignored.
CREATE TABLE jobs (
    id             INTEGER PRIMARY KEY,
    campaign_id    INTEGER NOT NULL REFERENCES campaigns(id),
    item           INTEGER NOT NULL,
    nmut           INTEGER NOT NULL,
    state          TEXT    NOT NULL
                   CHECK (state IN ('pending', 'leased', 'done',
                                    'quarantined')),
    attempts       INTEGER NOT NULL DEFAULT 0,
    worker_id      TEXT,                  -- holder while leased
    lease_deadline INTEGER,               -- while leased
    created_at     INTEGER NOT NULL,
    leased_at      INTEGER,
    finished_at    INTEGER,
    last_error     TEXT                   -- why the last lease was taken back
);
CREATE INDEX jobs_by_state ON jobs(campaign_id, state, id);

-- Every mutant the front-end produced, in enumeration order (row id).
-- Duplicates and stillborn mutants are kept (with dup_of / why) but never
-- get a job or a verdict.
CREATE TABLE mutants (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    mutant_id   TEXT    NOT NULL,         -- stable 16 hex digits
    operator    TEXT    NOT NULL,
    item        INTEGER NOT NULL,         -- index of the changed model item
    site        TEXT    NOT NULL,         -- canonical site path
    line        INTEGER NOT NULL,
    col         INTEGER NOT NULL,
    description TEXT    NOT NULL,
    status      TEXT    NOT NULL
                CHECK (status IN ('ok', 'duplicate', 'stillborn')),
    dup_of      TEXT,                     -- duplicate: twin id or 'original'
    why         TEXT,                     -- stillborn: the type error
    job_id      INTEGER REFERENCES jobs(id),
    UNIQUE (campaign_id, mutant_id)
);
CREATE INDEX mutants_by_status ON mutants(campaign_id, status);
CREATE INDEX mutants_by_job ON mutants(job_id, id);
-- What is not in a job yet, oldest first and by item: cutting a new job
-- reads these two partial indexes only.
CREATE INDEX mutants_unplanned ON mutants(campaign_id, id)
    WHERE job_id IS NULL AND status = 'ok';
CREATE INDEX mutants_unplanned_item ON mutants(campaign_id, item, id)
    WHERE job_id IS NULL AND status = 'ok';

-- A test that kills at least one mutant, as JSON (docs/schema.md): inputs
-- per step, the original's expected observables per step and, for
-- non-deterministic models, the observables the original allows per step.
-- Deduplicated per campaign by the SHA-256 of those three.
CREATE TABLE tests (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    hash        TEXT    NOT NULL,
    length      INTEGER NOT NULL,         -- steps
    notion      TEXT    NOT NULL,         -- of the kill that found it
    inputs      TEXT    NOT NULL,
    expected    TEXT    NOT NULL,
    allowed     TEXT,                     -- NULL: one behaviour per step
    text        TEXT,                     -- readable form, when known
    found_for   INTEGER REFERENCES mutants(id),
    created_at  INTEGER NOT NULL,
    UNIQUE (campaign_id, hash)
);

-- The final verdict of a mutant: at most one row per mutant.
CREATE TABLE verdicts (
    mutant      INTEGER PRIMARY KEY REFERENCES mutants(id),
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    job_id      INTEGER REFERENCES jobs(id),
    attempt     INTEGER,
    kind        TEXT    NOT NULL
                CHECK (kind IN ('killed', 'equivalent', 'survived',
                                'unknown', 'error')),
    notion      TEXT
                CHECK (notion IN ('deterministic', 'potential',
                                  'definite')),
    bound       INTEGER,  -- killed: test length; else depth searched
    method      TEXT,     -- equivalent: the proof method
    reason      TEXT,     -- unknown / error
    test_id     INTEGER REFERENCES tests(id),
    solver_ms   INTEGER,
    worker_id   TEXT,
    created_at  INTEGER NOT NULL
);
CREATE INDEX verdicts_by_kind ON verdicts(campaign_id, kind);

-- The kill matrix: test x mutant. 'verdict' rows come with the mutant's
-- killed verdict; 'replay' rows from re-running a test on other mutants.
CREATE TABLE kills (
    test_id     INTEGER NOT NULL REFERENCES tests(id),
    mutant      INTEGER NOT NULL REFERENCES mutants(id),
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    source      TEXT    NOT NULL CHECK (source IN ('verdict', 'replay')),
    observed    TEXT,     -- JSON: the mutant's deviating observables
    PRIMARY KEY (test_id, mutant)
) WITHOUT ROWID;
CREATE INDEX kills_by_mutant ON kills(mutant);

CREATE TABLE workers (
    id              TEXT    PRIMARY KEY,
    host            TEXT,
    threads         INTEGER,
    mutfarm_version TEXT,
    z3_version      TEXT,
    first_seen      INTEGER NOT NULL,
    last_seen       INTEGER NOT NULL,
    jobs_done       INTEGER NOT NULL DEFAULT 0
);

-- One row per finished campaign: the trend of a model's score over nights.
CREATE TABLE score_history (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    model_id    INTEGER NOT NULL REFERENCES models(id),
    at          INTEGER NOT NULL,
    total       INTEGER NOT NULL,
    killed      INTEGER NOT NULL,
    equivalent  INTEGER NOT NULL,
    survived    INTEGER NOT NULL,
    unknown     INTEGER NOT NULL,
    error       INTEGER NOT NULL,
    score       REAL                      -- NULL: nothing to score
);
CREATE INDEX score_history_by_model ON score_history(model_id, at);

-- ---- views: the interface for users and scripts ---------------------------

-- Stable (docs/schema.md): one row per mutant. status is killed,
-- equivalent, survived, unknown, error, pending, duplicate or stillborn.
CREATE VIEW mutant_verdicts AS
SELECT m.campaign_id AS campaign_id,
       m.mutant_id   AS mutant_id,
       m.operator    AS operator,
       m.line        AS line,
       m.col         AS col,
       CASE WHEN m.status <> 'ok' THEN m.status
            ELSE coalesce(v.kind, 'pending') END AS status,
       v.notion      AS notion,
       v.bound       AS bound,
       v.test_id     AS test_id,
       v.solver_ms   AS solver_ms
  FROM mutants m
  LEFT JOIN verdicts v ON v.mutant = m.id;

-- Counts per campaign, each an index range count so that filtering on one
-- campaign reads only that campaign.
CREATE VIEW campaign_counts AS
SELECT c.id AS campaign_id,
       md.name AS model,
       md.hash AS model_hash,
       c.state AS state,
       (SELECT count(*) FROM mutants m
         WHERE m.campaign_id = c.id) AS mutants,
       (SELECT count(*) FROM mutants m
         WHERE m.campaign_id = c.id AND m.status = 'ok') AS total,
       (SELECT count(*) FROM mutants m
         WHERE m.campaign_id = c.id AND m.status = 'duplicate') AS duplicate,
       (SELECT count(*) FROM mutants m
         WHERE m.campaign_id = c.id AND m.status = 'stillborn') AS stillborn,
       (SELECT count(*) FROM verdicts v
         WHERE v.campaign_id = c.id AND v.kind = 'killed') AS killed,
       (SELECT count(*) FROM verdicts v
         WHERE v.campaign_id = c.id AND v.kind = 'equivalent') AS equivalent,
       (SELECT count(*) FROM verdicts v
         WHERE v.campaign_id = c.id AND v.kind = 'survived') AS survived,
       (SELECT count(*) FROM verdicts v
         WHERE v.campaign_id = c.id AND v.kind = 'unknown') AS unknown,
       (SELECT count(*) FROM verdicts v
         WHERE v.campaign_id = c.id AND v.kind = 'error') AS error
  FROM campaigns c
  JOIN models md ON md.id = c.model_id;

-- Stable (docs/schema.md). total: mutants to decide (neither duplicate
-- nor stillborn), pending ones included. score = killed / (killed +
-- survived + unknown), a fraction in [0, 1]; NULL when that denominator
-- is 0 (nothing scorable yet, or every mutant equivalent or in error).
CREATE VIEW campaign_scores AS
SELECT campaign_id, model, total, killed, equivalent, survived, unknown,
       error,
       CASE WHEN killed + survived + unknown = 0 THEN NULL
            ELSE CAST(killed AS REAL) / (killed + survived + unknown)
       END AS score
  FROM campaign_counts;

-- The same per operator (only mutants to decide; score as above).
CREATE VIEW operator_scores AS
SELECT campaign_id, operator,
       count(*)                     AS total,
       sum(status = 'killed')       AS killed,
       sum(status = 'equivalent')   AS equivalent,
       sum(status = 'survived')     AS survived,
       sum(status = 'unknown')      AS unknown,
       sum(status = 'error')        AS error,
       sum(status = 'pending')      AS pending,
       CASE WHEN sum(status IN ('killed', 'survived', 'unknown')) = 0
            THEN NULL
            ELSE CAST(sum(status = 'killed') AS REAL)
                 / sum(status IN ('killed', 'survived', 'unknown'))
       END AS score
  FROM mutant_verdicts
 WHERE status NOT IN ('duplicate', 'stillborn')
 GROUP BY campaign_id, operator;

-- Per model: its newest campaign's counts and score.
CREATE VIEW model_scores AS
SELECT md.hash AS model_hash, md.name AS model, s.campaign_id, c.state,
       c.finished_at, s.total, s.killed, s.equivalent, s.survived,
       s.unknown, s.error, s.score
  FROM models md
  JOIN campaigns c ON c.id = (SELECT max(id) FROM campaigns
                               WHERE model_id = md.id)
  JOIN campaign_scores s ON s.campaign_id = c.id;

-- Mutants no test kills up to the bound and no proof covers: where the
-- test suite (or the model) needs a look.
CREATE VIEW survivors AS
SELECT m.campaign_id, m.mutant_id, m.operator, m.site, m.line, m.col,
       m.description, v.bound
  FROM verdicts v
  JOIN mutants m ON m.id = v.mutant
 WHERE v.kind = 'survived';

CREATE VIEW equivalents AS
SELECT m.campaign_id, m.mutant_id, m.operator, m.site, m.line, m.col,
       m.description, v.method
  FROM verdicts v
  JOIN mutants m ON m.id = v.mutant
 WHERE v.kind = 'equivalent';

-- unknown (solver gave up) and error (check failed, quarantined) verdicts
-- with their reason.
CREATE VIEW problems AS
SELECT m.campaign_id, m.mutant_id, m.operator, m.site, m.line, m.col,
       v.kind, v.reason, v.worker_id
  FROM verdicts v
  JOIN mutants m ON m.id = v.mutant
 WHERE v.kind IN ('unknown', 'error');

-- Tests with how many mutants each kills.
CREATE VIEW campaign_tests AS
SELECT t.campaign_id, t.id AS test_id, t.length, t.notion,
       (SELECT count(*) FROM kills k WHERE k.test_id = t.id) AS kills,
       t.inputs, t.expected, t.allowed, t.text
  FROM tests t;

-- The kill matrix by stable mutant id.
CREATE VIEW mutant_tests AS
SELECT k.campaign_id, m.mutant_id, k.test_id, k.source
  FROM kills k
  JOIN mutants m ON m.id = k.mutant;

-- Score of each finished campaign over time, by model.
CREATE VIEW score_trend AS
SELECT md.name AS model, md.hash AS model_hash, h.campaign_id,
       h.at, h.total, h.killed, h.equivalent, h.survived, h.unknown,
       h.error, h.score
  FROM score_history h
  JOIN models md ON md.id = h.model_id;
