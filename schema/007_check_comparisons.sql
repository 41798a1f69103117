-- 007_check_comparisons.sql - the CHECK constraints of the tables the
-- farm writes for every job, the same sets of values written as
-- comparisons (docs/schema.md, "Tables").
--
-- Applied by mf_store_open() in one transaction after 006. Changes no row,
-- no column and no value a constraint admits: only how four tables spell
-- their CHECK constraints. SQLite compiles `x IN ('a', 'b', 'c')` (three
-- values or more) into a temporary b-tree that it builds and frees on
-- every INSERT or UPDATE of the column: one per mutant planned, one per
-- job cut, three per result stored (bench/farm.sh (a); docs/cluster.md
-- has the cost). `x = 'a' OR x = 'b' OR x = 'c'` is the same test (TEXT
-- affinity on both sides, NULL passes both) without that b-tree.
--
-- A CHECK constraint cannot be altered; SQLite's documentation names
-- rewriting it in sqlite_schema under writable_schema as the way to make
-- such a change to a table in place ("ALTER TABLE", "Making other kinds
-- of table schema changes"): every row admitted before is admitted after,
-- so nothing needs rewriting. RESET reloads this connection's schema; the
-- table created and dropped after it moves the schema cookie on, so that
-- other connections reload theirs too. Each replace() names the text
-- 001_init.sql and 002_matrix.sql wrote, which a shipped migration never
-- changes; test_store checks that no statement of the dispatch path
-- builds a temporary b-tree.

PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (state IN (''pending'', ''leased'', ''done'',
                                    ''quarantined''))',
                     'CHECK (state = ''pending'' OR state = ''leased'' OR state = ''done''
                          OR state = ''quarantined'')')
 WHERE type = 'table' AND name = 'jobs';
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (status IN (''ok'', ''duplicate'', ''stillborn''))',
                     'CHECK (status = ''ok'' OR status = ''duplicate''
                       OR status = ''stillborn'')')
 WHERE type = 'table' AND name = 'mutants';
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (kind IN (''killed'', ''equivalent'', ''survived'',
                                ''unknown'', ''error''))',
                     'CHECK (kind = ''killed'' OR kind = ''equivalent'' OR kind = ''survived''
                       OR kind = ''unknown'' OR kind = ''error'')')
 WHERE type = 'table' AND name = 'verdicts';
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (notion IN (''deterministic'', ''potential'',
                                  ''definite''))',
                     'CHECK (notion = ''deterministic'' OR notion = ''potential''
                       OR notion = ''definite'')')
 WHERE type = 'table' AND name = 'verdicts';
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (notion IN (''deterministic'', ''potential'', ''definite''))',
                     'CHECK (notion = ''deterministic'' OR notion = ''potential''
           OR notion = ''definite'')')
 WHERE type = 'table' AND name = 'kills';
PRAGMA writable_schema = RESET;
CREATE TABLE mf_schema_cookie (x INTEGER);
DROP TABLE mf_schema_cookie;
