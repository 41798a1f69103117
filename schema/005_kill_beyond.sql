-- 005_kill_beyond.sql - survivors whose shortest kill is known past the
-- bound (docs/killing.md, Complete verdicts past the bound; docs/schema.md).
--
-- Applied by mf_store_open() in one transaction after 004. Only adds a
-- column (NULL in rows written before, and where the length is not known).

-- A survived verdict's shortest kill length, past its bound, where a
-- complete method (the explicit-state exploration) found it: "killable at
-- 22, beyond the bound". NULL: not known.
ALTER TABLE verdicts ADD COLUMN kill_len_beyond INTEGER
    CHECK (kill_len_beyond IS NULL OR kill_len_beyond > bound);
