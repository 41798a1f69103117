-- 003_nightly.sql - nightly reruns: what a campaign took over from an
-- earlier one (docs/nightly.md, docs/schema.md).
--
-- Applied by mf_store_open() in one transaction after 002. Only adds
-- columns (NULL in rows written before) and a view; it reads nothing 002
-- creates.

-- Per campaign, how its verdicts came about (set once, when it is planned;
-- NULL for campaigns planned before this migration):
--   reuse          'fresh' (--fresh: nothing taken over), 'none' (no earlier
--                  finished campaign of the model), 'carry' (an earlier one
--                  of the same model text and options: its verdicts carried
--                  over) or 'replay' (the model or the options changed:
--                  the earlier campaign's tests replayed on the mutants)
--   basis_id       that earlier campaign
--   carried        verdicts copied from it as they are
--   replay_tests   its stored tests replayed (read into this model)
--   replay_skipped its tests not replayed: they name a variable or a value
--                  this model lacks, or are longer than the bound, or the
--                  model refuses their inputs
--   reexpected     replayed tests whose expected observables the model no
--                  longer produces: replayed with the model's own outputs
--   replay_killed  mutants killed by a replayed test, before any job
--   to_solver      mutants left for the workers after all of that
ALTER TABLE campaigns ADD COLUMN reuse TEXT
    CHECK (reuse IN ('fresh', 'none', 'carry', 'replay'));
ALTER TABLE campaigns ADD COLUMN basis_id INTEGER REFERENCES campaigns(id);
ALTER TABLE campaigns ADD COLUMN carried INTEGER;
ALTER TABLE campaigns ADD COLUMN replay_tests INTEGER;
ALTER TABLE campaigns ADD COLUMN replay_skipped INTEGER;
ALTER TABLE campaigns ADD COLUMN reexpected INTEGER;
ALTER TABLE campaigns ADD COLUMN replay_killed INTEGER;
ALTER TABLE campaigns ADD COLUMN to_solver INTEGER;

-- Per verdict, where it comes from: NULL decided in this campaign (by a
-- worker, or by quarantine); 'carried' copied from campaign
-- origin_campaign (same model and options); 'replayed' a kill by a stored
-- test of campaign origin_campaign, re-checked by the simulator on this
-- campaign's model (its test is not claimed to be the shortest).
ALTER TABLE verdicts ADD COLUMN origin TEXT
    CHECK (origin IN ('carried', 'replayed'));
ALTER TABLE verdicts ADD COLUMN origin_campaign INTEGER
    REFERENCES campaigns(id);

-- Per mutant: 1 when its verdict was taken over while the campaign was
-- planned (carried, or killed by a replayed test). Such a mutant never
-- goes into a job, so the two indexes of the mutants left to cut into
-- jobs leave it out.
ALTER TABLE mutants ADD COLUMN reused INTEGER NOT NULL DEFAULT 0;
DROP INDEX mutants_unplanned;
DROP INDEX mutants_unplanned_item;
CREATE INDEX mutants_unplanned ON mutants(campaign_id, id)
    WHERE job_id IS NULL AND status = 'ok' AND reused = 0;
CREATE INDEX mutants_unplanned_item ON mutants(campaign_id, item, id)
    WHERE job_id IS NULL AND status = 'ok' AND reused = 0;

-- One row per campaign: what it took over and what it left to the solver.
CREATE VIEW campaign_reuse AS
SELECT c.id AS campaign_id, md.name AS model, c.reuse, c.basis_id,
       c.carried, c.replay_tests, c.replay_skipped, c.reexpected,
       c.replay_killed, c.to_solver
  FROM campaigns c
  JOIN models md ON md.id = c.model_id;
