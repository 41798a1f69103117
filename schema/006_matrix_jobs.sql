-- 006_matrix_jobs.sql - the kill matrix filled through the farm
-- (docs/minimisation.md, "Large matrices"; docs/schema.md).
--
-- Applied by mf_store_open() in one transaction after 005. Adds one
-- table and reads nothing the other migrations after 002 create.

-- A matrix job of `mutfarm matrix --bind/--workers` whose kill rows are
-- committed: the tests first_test..last_test (by id: one block) replayed
-- on the campaign's target mutants first_mutant..last_mutant (mutants.id,
-- in planning order). Written in the same transaction as the job's kill
-- rows, before the worker is acknowledged, so that a coordinator killed
-- part way resumes with the jobs not in here. Its counts are added to
-- the campaign's matrices row when the fill ends, and then the rows are
-- deleted (a local fill deletes them too when it ends).
CREATE TABLE matrix_jobs (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id),
    first_test   INTEGER NOT NULL,
    last_test    INTEGER NOT NULL,
    first_mutant INTEGER NOT NULL,
    last_mutant  INTEGER NOT NULL,
    pairs        INTEGER NOT NULL, -- test x mutant replays
    kills        INTEGER NOT NULL, -- rows written
    undecided    INTEGER NOT NULL,
    unconfirmed  INTEGER NOT NULL,
    worker_id    TEXT,
    done_at      INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, first_test, first_mutant)
);
