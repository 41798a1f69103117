#!/usr/bin/env bash
# suite.sh - a user's suite imported and scored (docs/suites.md): how long
# `mutfarm tests import` and `mutfarm score --threads 2` take for an
# N-test suite on a finished campaign, and the score's test x mutant
# replays per second. Prints; asserts nothing.
#
# For each model a campaign is run once (mutfarm run --bound B, into a
# temporary store); its stored tests are repeated (each copy a new test
# id) until the suite has N tests, written in the JSON form `tests export`
# writes (inputs, expected and allowed outputs per step) straight from the
# store by SQL: `tests export` itself computes every test's kills and, on
# a non-deterministic model such as dme1, takes far longer than the
# import it prepares. The suite is imported and scored once, and the
# total is set against the issue's goal (a minute).
#
# usage: bench/suite.sh [MODEL.smv...]
# env:   MF_BIN            mutfarm binary (default ./build/mutfarm; use a
#                          release build, not the sanitizer one)
#        MF_BENCH_BOUND    campaign bound (default 10)
#        MF_BENCH_TESTS    tests in the suite (default 1000)
#        MF_BENCH_DB       a store with a finished campaign (its newest):
#                          bench that one instead of running campaigns
#                          (the store gets the suite 'bench')
# default model: tests/models/car_alarm.smv. The issue's target (a
# 1,000-test suite on dme1's 10,000 mutants in under a minute on 2 cores)
# needs a finished dme1 campaign, which takes far longer than this script
# should: run it by hand on such a store with MF_BENCH_DB=F.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
MF_BIN=${MF_BIN:-$here/build/mutfarm}
BOUND=${MF_BENCH_BOUND:-10}
NTESTS=${MF_BENCH_TESTS:-1000}

[ -x "$MF_BIN" ] || { echo "suite.sh: no mutfarm at $MF_BIN" >&2; exit 1; }
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("$here/tests/models/car_alarm.smv")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench-suite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }

# The suite: the campaign's tests, copies of them with ids r * 1000000 +
# id, the first N, as the JSON of `tests export` (without its kills).
suite_sql=$(cat <<'SQL'
WITH RECURSIVE
  copies(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM copies
                 WHERE r * (SELECT count(*) FROM tests WHERE campaign_id = :c) < :n),
  picked AS (SELECT r * 1000000 + t.id AS tid, t.* FROM copies, tests t
              WHERE t.campaign_id = :c ORDER BY r, t.id LIMIT :n),
  steps(tid, k) AS (SELECT tid, 0 FROM picked
                    UNION ALL SELECT s.tid, s.k + 1 FROM steps s
                      JOIN picked p ON p.tid = s.tid WHERE s.k < p.length)
SELECT json_object('campaign', :c, 'model', md.name, 'model_hash', md.hash,
         'tests', (SELECT json_group_array(json(tj)) FROM (
            SELECT json_object('id', p.tid, 'length', p.length, 'steps',
                     (SELECT json_group_array(json(sj)) FROM (
                        SELECT CASE WHEN p.allowed IS NULL THEN st
                               ELSE json_set(st, '$.allowed', json(json_extract(
                                      p.allowed, '$[' || s.k || ']'))) END AS sj
                          FROM (SELECT s.k AS k, json_object('step', s.k,
                                  'inputs', json(json_extract(p.inputs, '$[' || s.k || ']')),
                                  'expected', json(json_extract(p.expected, '$[' || s.k || ']')))
                                  AS st
                                  FROM steps s WHERE s.tid = p.tid) s
                         ORDER BY s.k))) AS tj
              FROM picked p ORDER BY p.tid)))
  FROM campaigns c JOIN models md ON md.id = c.model_id WHERE c.id = :c;
SQL
)

bench_db() { # bench_db LABEL DB
    local label=$1 db=$2 campaign
    campaign=$(sqlite3 "$db" "SELECT max(id) FROM campaigns")
    sqlite3 "$db" -cmd ".parameter set :c $campaign" \
        -cmd ".parameter set :n $NTESTS" "$suite_sql" > "$tmp/suite.json"
    [ -s "$tmp/suite.json" ] || { echo "$label: no tests"; return; }
    local t0 t1 t2
    t0=$(now)
    "$MF_BIN" tests import --db "$db" --name bench "$tmp/suite.json" 2> "$tmp/imp"
    t1=$(now)
    "$MF_BIN" score --db "$db" --suite bench --threads 2 --format json \
        > "$tmp/score.json" 2> /dev/null
    t2=$(now)
    local tests mutants
    tests=$(sqlite3 :memory: "SELECT json_extract(readfile('$tmp/score.json'), '\$.tests')")
    mutants=$(sqlite3 :memory: "SELECT json_extract(readfile('$tmp/score.json'), '\$.mutants')")
    awk -v l="$label" -v t="$tests" -v m="$mutants" -v a="$t0" -v b="$t1" \
        -v c="$t2" 'BEGIN { printf "%s: %d tests x %d mutants: import %.2f s, " \
        "score %.2f s (%.0f replays/s); import and score %.1f s: %s the " \
        "minute\n", l, t, m, b - a, c - b,
        (c > b ? t * m / (c - b) : 0), c - a, c - a < 60 ? "within" : "past" }'
}

if [ -n "${MF_BENCH_DB:-}" ]; then
    bench_db "$MF_BENCH_DB" "$MF_BENCH_DB"
    exit 0
fi
for model in "${models[@]}"; do
    db=$tmp/$(basename "$model" .smv).db
    "$MF_BIN" run "$model" --bound "$BOUND" --workers 2 --db "$db" \
        > /dev/null 2>&1
    bench_db "$(basename "$model")" "$db"
done
