-- 002_matrix.sql - the full kill matrix and minimised suites
-- (docs/minimisation.md, docs/schema.md).
--
-- Applied by mf_store_open() in one transaction when PRAGMA user_version is
-- 1. Adds what `mutfarm matrix`, `mutfarm minimize` and `mutfarm tests
-- export` keep: per kill, the notion the test achieves on that mutant and
-- where the kill shows; per campaign, whether its matrix is complete; and
-- named test suites. The coordinator still writes kills without these
-- columns: a trigger gives a verdict's kill the verdict's notion.

-- Per kill: the notion this test achieves on this mutant (replayed by the
-- simulator; a 'verdict' row starts with its verdict's notion), the state
-- index at which the mutant's behaviour first departs from the original's,
-- and for a refusal kill the step whose input the mutant refuses.
ALTER TABLE kills ADD COLUMN notion TEXT
    CHECK (notion IN ('deterministic', 'potential', 'definite'));
ALTER TABLE kills ADD COLUMN step INTEGER;
ALTER TABLE kills ADD COLUMN refuses INTEGER;

UPDATE kills
   SET notion = (SELECT v.notion FROM verdicts v
                  WHERE v.mutant = kills.mutant AND v.test_id = kills.test_id
                    AND v.kind = 'killed')
 WHERE notion IS NULL;

-- The store inserts a verdict's kill before the verdict itself: the
-- verdict fills in the kill's notion once it arrives.
CREATE TRIGGER kills_notion_of_verdict AFTER INSERT ON verdicts
WHEN NEW.kind = 'killed' AND NEW.test_id IS NOT NULL
BEGIN
    UPDATE kills SET notion = NEW.notion
     WHERE test_id = NEW.test_id AND mutant = NEW.mutant AND notion IS NULL;
END;

-- The kill matrix of a campaign: every test against every killed, survived
-- or unknown mutant. 'filling' while it is built (tests up to through_test
-- are done: a new fill resumes after it), 'full' when every pair is
-- decided or counted in undecided.
CREATE TABLE matrices (
    campaign_id  INTEGER PRIMARY KEY REFERENCES campaigns(id),
    state        TEXT    NOT NULL CHECK (state IN ('filling', 'full')),
    through_test INTEGER NOT NULL DEFAULT 0, -- tests.id done so far
    tests        INTEGER NOT NULL DEFAULT 0,
    mutants      INTEGER NOT NULL DEFAULT 0,
    pairs        INTEGER NOT NULL DEFAULT 0, -- test x mutant replays
    kills        INTEGER NOT NULL DEFAULT 0, -- pairs that kill
    undecided    INTEGER NOT NULL DEFAULT 0, -- replay past its limits
    unconfirmed  INTEGER NOT NULL DEFAULT 0, -- verdict kills the replay
                                             -- does not show
    ms           INTEGER NOT NULL DEFAULT 0, -- wall time of the fills
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER
);

-- A named test suite of a campaign, e.g. the one `mutfarm minimize`
-- chose. A new suite of the same name replaces the old one.
CREATE TABLE suites (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    name        TEXT    NOT NULL,
    method      TEXT    NOT NULL CHECK (method IN ('greedy', 'exact')),
    optimal     INTEGER NOT NULL DEFAULT 0, -- 1: proved smallest (exact)
    tests       INTEGER NOT NULL,
    length      INTEGER NOT NULL,           -- total steps
    mutants     INTEGER NOT NULL,           -- mutants it kills
    full_tests  INTEGER NOT NULL,           -- the campaign's suite
    full_length INTEGER NOT NULL,
    note        TEXT,                       -- e.g. why exact fell back
    created_at  INTEGER NOT NULL,
    UNIQUE (campaign_id, name)
);

CREATE TABLE suite_tests (
    suite_id INTEGER NOT NULL REFERENCES suites(id) ON DELETE CASCADE,
    test_id  INTEGER NOT NULL REFERENCES tests(id),
    position INTEGER NOT NULL,                 -- 1, 2, ...
    PRIMARY KEY (suite_id, test_id)
) WITHOUT ROWID;

-- ---- views ------------------------------------------------------------------

-- Tests with how many mutants each kills, per notion. notion: what holds
-- of every kill of the test (potential if any kill is only potential,
-- else definite if any is definite, else deterministic; the notion of
-- the kill that found it while none is known). found_notion: that kill's.
DROP VIEW campaign_tests;
CREATE VIEW campaign_tests AS
SELECT t.campaign_id, t.id AS test_id, t.length,
       coalesce((SELECT CASE max(CASE k.notion WHEN 'potential' THEN 3
                                               WHEN 'definite' THEN 2
                                               WHEN 'deterministic' THEN 1
                                 END)
                        WHEN 3 THEN 'potential' WHEN 2 THEN 'definite'
                        WHEN 1 THEN 'deterministic' END
                   FROM kills k WHERE k.test_id = t.id), t.notion) AS notion,
       (SELECT count(*) FROM kills k WHERE k.test_id = t.id) AS kills,
       t.inputs, t.expected, t.allowed, t.text,
       (SELECT count(*) FROM kills k
         WHERE k.test_id = t.id AND k.notion = 'deterministic')
           AS deterministic,
       (SELECT count(*) FROM kills k
         WHERE k.test_id = t.id AND k.notion = 'definite') AS definite,
       (SELECT count(*) FROM kills k
         WHERE k.test_id = t.id AND k.notion = 'potential') AS potential,
       t.notion AS found_notion
  FROM tests t;

-- The kill matrix by stable mutant id, with each kill's notion.
DROP VIEW mutant_tests;
CREATE VIEW mutant_tests AS
SELECT k.campaign_id, m.mutant_id, k.test_id, k.source, k.notion, k.step,
       k.refuses
  FROM kills k
  JOIN mutants m ON m.id = k.mutant;

CREATE VIEW campaign_matrix AS
SELECT campaign_id, state, tests, mutants, pairs, kills, undecided,
       unconfirmed, ms, started_at, finished_at
  FROM matrices;

CREATE VIEW campaign_suites AS
SELECT campaign_id, name AS suite, method, optimal, tests, length, mutants,
       full_tests, full_length, note, created_at
  FROM suites;

CREATE VIEW suite_contents AS
SELECT s.campaign_id, s.name AS suite, st.position, st.test_id, t.length
  FROM suites s
  JOIN suite_tests st ON st.suite_id = s.id
  JOIN tests t ON t.id = st.test_id;
