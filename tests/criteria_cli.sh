#!/usr/bin/env bash
# criteria_cli.sh - `mutfarm check --criterion` (docs/criteria.md) with
# the real binary: on beverage every requirement of every criterion is
# covered, infeasible or open, every witness replays, and the winnowing
# rows are the figures docs/criteria.md gives (generated, duplicates,
# trivial, infeasible, feasible, covered, open); `--criterion all` adds
# the mutation row, its duplicates by text and by the engine, and the
# cross-criterion table; --sample takes evenly spaced requirements; bad input
# is one line and exit 1.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-criteria-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

out=$tmp/bev.txt
"$MF_BIN" check tests/models/beverage.smv --criterion all > "$out" 2> "$tmp/err" ||
    bad "check --criterion all exits $?: $(cat "$tmp/err")"
row() { grep -E "^# $1( +[0-9]+){7}$" "$out" | tr -s ' ' | cut -d' ' -f3-; }
[ "$(row branch)" = "5 1 0 0 4 4 0" ] || bad "branch row: $(row branch)"
[ "$(row ufp)" = "12 6 0 0 6 6 0" ] || bad "ufp row: $(row ufp)"
[ "$(row transition-pair)" = "12 0 0 2 10 10 0" ] || bad "transition-pair row: $(row transition-pair)"
[ "$(row state)" = "3 0 1 0 2 2 0" ] || bad "state row: $(row state)"
grep -q "^# mutation: 110 generated, 58 duplicates (3 the same mutated model, 55 equivalent to another killed mutant; 0 pairs undecided), 0 stillborn, 6 infeasible (equivalent), 46 feasible (46 killed, 0 open)$" "$out" ||
    bad "no mutation row: $(grep '^# mutation' "$out")"
# The cross-criterion table: each suite covers its own criterion whole;
# the state suite (one test) covers no transition pair.
for c in mutation branch ufp transition-pair state; do
    grep -Eq "^# $c +[0-9]+ .*" "$out" || bad "no cross row $c"
done
grep -Eq "^# mutation +4 +100\.0% \(46/46\) " "$out" || bad "cross: mutation row: $(grep '^# mutation  ' "$out")"
grep -Eq "^# state +1 .* 0\.0% \(0/10\) +100\.0% \(2/2\)$" "$out" || bad "cross: state row: $(grep '^# state  ' "$out")"
grep -q "^# 32 requirements (32 generated), 30 witnesses replayed, 0 did not;" "$out" ||
    bad "summary: $(tail -1 "$out")"
n=$(grep -Ec '^[0-9a-f]{16}  (branch|ufp|transition-pair|state) +(covered|infeasible|open) ' "$out")
[ "$n" = 32 ] || bad "$n requirement lines, not 32"
grep -q "^75dc92970684f8c7  state           covered     potential, length 1$" "$out" ||
    bad "out = tea: $(grep 75dc92970684f8c7 "$out")"
grep -q "tests/models/beverage.smv:21:7 next(wtr)/b1: branch 1 taken: inp = fill & wtr = 0" "$out" ||
    bad "no readable text for next(wtr)/b1"

"$MF_BIN" check tests/models/car_alarm.smv --criterion transition-pair --sample 30 \
    > "$tmp/car.txt" 2>&1 || bad "sample exits $?"
grep -q "^# 30 requirements (392 generated, a sample)" "$tmp/car.txt" ||
    bad "sample: $(tail -1 "$tmp/car.txt")"

usage() { # usage WHAT PATTERN ARGS...
    local what=$1 pat=$2
    shift 2
    "$MF_BIN" "$@" > "$tmp/o" 2> "$tmp/e"
    local rc=$?
    [ $rc = 1 ] && [ "$(wc -l < "$tmp/e")" = 1 ] && grep -q -- "$pat" "$tmp/e" ||
        bad "$what: exit $rc, $(cat "$tmp/e")"
}
usage "unknown criterion" "unknown criterion 'bogus'" check tests/models/beverage.smv --criterion branch,bogus
usage "with --all" "without --mutant" check tests/models/beverage.smv --criterion branch --all
usage "empty" "unknown criterion ''" check tests/models/beverage.smv --criterion ''

[ $fail = 0 ] && echo "ok: check --criterion on beverage and car_alarm"
exit $fail
