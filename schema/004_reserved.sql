-- 004_reserved.sql - a placeholder on branch s3-mfarm only: migration 004
-- is another branch's (they are developed at the same time). Applied as a
-- no-op. When the branches are merged, this file is deleted and the other
-- branch's schema/004_*.sql takes its number; 006_matrix_jobs.sql does
-- not depend on it.
SELECT 1;
