-- 002_reserved.sql - a placeholder: migration 002 belongs to branch
-- i21-matrix (002_matrix.sql). CMakeLists.txt numbers migrations without
-- gaps, so this branch holds the number with an empty migration until the
-- two are merged. DELETE THIS FILE WHEN 002_matrix.sql ARRIVES: 003 does
-- not depend on what 002 contains.
SELECT 1;
