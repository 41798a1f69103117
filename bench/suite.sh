#!/usr/bin/env bash
# suite.sh - a user's suite imported and scored (docs/suites.md): how long
# `mutfarm tests import` and `mutfarm score --threads 2` take for an
# N-test suite on a finished campaign, and the score's test x mutant
# replays per second. Prints; asserts nothing.
#
# For each model a campaign is run once (mutfarm run --bound B, into a
# temporary store); its tests are exported as CSV and repeated (each copy
# a new test id) until the suite has N tests; the suite is imported and
# scored once.
#
# usage: bench/suite.sh [MODEL.smv...]
# env:   MF_BIN            mutfarm binary (default ./build/mutfarm; use a
#                          release build, not the sanitizer one)
#        MF_BENCH_BOUND    campaign bound (default 10)
#        MF_BENCH_TESTS    tests in the suite (default 1000)
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

bench_db() { # bench_db LABEL DB
    local label=$1 db=$2
    "$MF_BIN" tests export --db "$db" --format csv -o "$tmp/all.csv" 2> /dev/null
    local have
    have=$(tail -n +2 "$tmp/all.csv" | cut -d, -f1 | uniq | wc -l)
    [ "$have" -gt 0 ] || { echo "$label: no tests"; return; }
    # Copies of the tests, each copy with its own ids, cut at N tests.
    { head -1 "$tmp/all.csv"
      r=0
      while :; do
          r=$((r + 1))
          tail -n +2 "$tmp/all.csv" | awk -F, -v r=$r 'BEGIN { OFS = "," }
              { $1 = r * 1000000 + $1; print }'
          [ $((r * have)) -lt "$NTESTS" ] || break
      done; } | awk -F, -v n="$NTESTS" 'NR == 1 { print; next }
              $1 != last { last = $1; k++ } k <= n { print }' > "$tmp/suite.csv"
    local t0 t1 t2
    t0=$(now)
    "$MF_BIN" tests import --db "$db" --name bench "$tmp/suite.csv" 2> "$tmp/imp"
    t1=$(now)
    "$MF_BIN" score --db "$db" --suite bench --threads 2 --format json \
        > "$tmp/score.json" 2> /dev/null
    t2=$(now)
    local tests mutants
    tests=$(sqlite3 :memory: "SELECT json_extract(readfile('$tmp/score.json'), '\$.tests')")
    mutants=$(sqlite3 :memory: "SELECT json_extract(readfile('$tmp/score.json'), '\$.mutants')")
    awk -v l="$label" -v t="$tests" -v m="$mutants" -v a="$t0" -v b="$t1" \
        -v c="$t2" 'BEGIN { printf "%s: %d tests x %d mutants: import %.2f s, " \
        "score %.2f s (%.0f replays/s)\n", l, t, m, b - a, c - b,
        (c > b ? t * m / (c - b) : 0) }'
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
