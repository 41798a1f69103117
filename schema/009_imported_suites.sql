-- 009_imported_suites.sql - a user's own test suites (docs/suites.md).
--
-- Applied by mf_store_open() in one transaction when PRAGMA user_version is
-- 8. `mutfarm tests import` reads a suite from a file (the JSON or CSV that
-- `tests export` writes, or the hand-written text form) and keeps it here,
-- beside the campaign whose model it was checked against; `mutfarm score`
-- replays it on the campaign's mutants. Its tests are not the campaign's:
-- they are not in `tests`, so the campaign's own kill matrix, reports and
-- minimisation do not see them.

-- A suite, named within its campaign; a new import of the same name
-- replaces the old one.
CREATE TABLE imported_suites (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    name        TEXT    NOT NULL,
    format      TEXT    NOT NULL CHECK (format IN ('json', 'csv', 'text')),
    source      TEXT    NOT NULL, -- the file it was read from
    model_hash  TEXT    NOT NULL, -- the model it was checked against
    tests       INTEGER NOT NULL,
    length      INTEGER NOT NULL, -- total steps
    created_at  INTEGER NOT NULL,
    UNIQUE (campaign_id, name)
);

-- Its tests in file order, in the JSON forms of `tests` (docs/schema.md):
-- inputs, expected and allowed observables per state.
CREATE TABLE imported_tests (
    suite_id INTEGER NOT NULL REFERENCES imported_suites(id)
                     ON DELETE CASCADE,
    position INTEGER NOT NULL,          -- 1, 2, ...
    label    TEXT    NOT NULL,          -- its name in the file
    line     INTEGER NOT NULL,          -- its first line in the file
    lines    TEXT    NOT NULL,          -- JSON: the line of each state
    length   INTEGER NOT NULL,
    inputs   TEXT    NOT NULL,
    expected TEXT    NOT NULL,
    allowed  TEXT,
    PRIMARY KEY (suite_id, position)
) WITHOUT ROWID;
