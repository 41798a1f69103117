-- 004_liveness.sql - the coordinator's liveness in the store: who serves a
-- campaign, since when, its last heartbeat and how it ended (docs/schema.md,
-- docs/running.md "Is it running?").
--
-- Applied by mf_store_open() in one transaction after 003. Only adds a
-- table, an index and a view; nothing written before is changed. A store
-- upgraded to it has no rows until a coordinator serves it again.

-- One row per coordinator process that served a campaign (a restart is a
-- new row). Written by that process alone:
--   pid, host       the process (host as gethostname says)
--   endpoint        what it listens on
--   started_at      when it opened the campaign (ms since the epoch)
--   heartbeat_at    its last sign of life, written every beat_ms
--   beat_ms         how often it writes heartbeat_at
--   liveness_ms     no heartbeat for this long: it is dead (status says so)
--   done, total     mutants decided / to decide at the last heartbeat
--   rate            mutants decided per second recently (NULL: unknown)
--   eta_s           seconds to completion at that rate (NULL: unknown)
--   workers, threads  connected workers and their solver threads
--   stopped_at      set when it exits by itself (NULL while running or
--                   after a crash or SIGKILL)
--   stop_reason     'complete' (every mutant decided), 'stopped' (a
--                   signal: the campaign resumes with the same command) or
--                   'failed' (an internal error, see its log)
CREATE TABLE coordinators (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id),
    pid          INTEGER NOT NULL,
    host         TEXT    NOT NULL,
    endpoint     TEXT,
    started_at   INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL,
    beat_ms      INTEGER NOT NULL,
    liveness_ms  INTEGER NOT NULL,
    done         INTEGER,
    total        INTEGER,
    rate         REAL,
    eta_s        REAL,
    workers      INTEGER,
    threads      INTEGER,
    stopped_at   INTEGER,
    stop_reason  TEXT
                 CHECK (stop_reason IN ('complete', 'stopped', 'failed'))
);
CREATE INDEX coordinators_by_campaign ON coordinators(campaign_id, id);

-- Per campaign, its newest coordinator and what it is now: 'running'
-- (a heartbeat within liveness_ms), 'stopped' (it exited by itself) or
-- 'dead' (neither: killed, crashed, or its machine is gone).
CREATE VIEW coordinator_liveness AS
SELECT k.campaign_id, k.id AS coordinator_id, k.pid, k.host, k.endpoint,
       k.started_at, k.heartbeat_at, k.liveness_ms, k.stopped_at,
       k.stop_reason, k.done, k.total, k.rate, k.eta_s, k.workers,
       CASE
           WHEN k.stopped_at IS NOT NULL THEN 'stopped'
           WHEN CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
                - k.heartbeat_at <= k.liveness_ms THEN 'running'
           ELSE 'dead'
       END AS state
  FROM coordinators k
 WHERE k.id = (SELECT max(id) FROM coordinators
                WHERE campaign_id = k.campaign_id);
