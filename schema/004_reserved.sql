-- 004_reserved.sql - a placeholder: migration 004 is another branch's
-- (liveness). Delete this file when that branch's schema/004_*.sql is
-- merged; migrations are numbered without gaps (CMakeLists.txt).
SELECT 1;
