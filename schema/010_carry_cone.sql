-- 010_carry_cone.sql - nightly reruns after an edit: equivalences and
-- survivals carried over when the edit lies outside the mutant's cone
-- (docs/nightly.md, "A changed model: verdicts the edit cannot touch";
-- docs/schema.md).
--
-- Applied by mf_store_open() in one transaction after 009. Adds a value
-- to verdicts.origin and a column to campaigns, and shows it in the view
-- campaign_reuse; changes no row.
--
-- verdicts.origin 'carried-cone': the verdict (equivalent or survived) of
-- the same mutant id in campaign origin_campaign, whose model differs from
-- this campaign's only in items outside everything the mutant's verdict
-- depends on; verdicts.method says which of the two cones and keeps the
-- earlier method. The CHECK constraint 003_nightly.sql wrote is widened in
-- sqlite_schema, the way 007_check_comparisons.sql widens its own (every
-- row admitted before is admitted after); RESET reloads this connection's
-- schema, and the table created and dropped after it moves the schema
-- cookie on for the others.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (origin IN (''carried'', ''replayed''))',
                     'CHECK (origin = ''carried'' OR origin = ''replayed''
           OR origin = ''carried-cone'')')
 WHERE type = 'table' AND name = 'verdicts';
PRAGMA writable_schema = RESET;
CREATE TABLE mf_schema_cookie (x INTEGER);
DROP TABLE mf_schema_cookie;

-- Per campaign: of `carried`, the verdicts carried across an edit
-- (origin 'carried-cone'); NULL for campaigns planned before.
ALTER TABLE campaigns ADD COLUMN carried_cone INTEGER;

DROP VIEW campaign_reuse;
CREATE VIEW campaign_reuse AS
SELECT c.id AS campaign_id, md.name AS model, c.reuse, c.basis_id,
       c.carried, c.replay_tests, c.replay_skipped, c.reexpected,
       c.replay_killed, c.to_solver, c.carried_cone
  FROM campaigns c
  JOIN models md ON md.id = c.model_id;
