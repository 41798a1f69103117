-- 008_job_index_partial.sql - mutants_by_job holds only the mutants that
-- are in a job (docs/schema.md, "Tables").
--
-- Applied by mf_store_open() in one transaction after 007. Rebuilds one
-- index; no row changes. Every query through mutants_by_job asks for one
-- job (job_id = ?), which a partial index WHERE job_id IS NOT NULL
-- answers. The full index had an entry (NULL, id) for every mutant
-- planned, deleted again when the mutant was cut into a job: two b-tree
-- writes per mutant that no query read (the mutants not in a job are
-- found through mutants_unplanned and mutants_unplanned_item). test_store
-- checks that the queries by job still use it.

DROP INDEX mutants_by_job;
CREATE INDEX mutants_by_job ON mutants(job_id, id) WHERE job_id IS NOT NULL;
