-- 005_reserved.sql - a placeholder on branch s3-mfarm only: migration 005
-- is another branch's (they are developed at the same time). Applied as a
-- no-op. When the branches are merged, this file is deleted and the other
-- branch's schema/005_*.sql takes its number; 006_matrix_jobs.sql does
-- not depend on it.
SELECT 1;
