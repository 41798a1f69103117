#!/usr/bin/env bash
# check_cli.sh - `mutfarm check` on the command line (issue 3): the refill
# mutant of the beverage machine (2 -> 1 in the fill branch; its shortest
# kill is req, req, fill, req, req, length 5). Past the bound, the
# explicit-state proof decides it at once and says how long the kill is
# (--bound auto: the kill itself); with the proof off
# (--explicit-max 0), the search reaches the same verdict without the
# note; within the bound, it is killed definitely at length 5. A bad
# --explicit-max is a usage error.
# --threads 2 on car_alarm (728 checkable mutants: slices of 128 in two
# threads) gives the verdict of every mutant that one thread gives, in the
# same order (the tests may differ: other solver models of the same
# length); --threads 0 is a usage error.
# door_lock's mutant ac563612666c1d99 (potential kill at length 4, shortest
# definite kill 13): with the explorer, the definite search starts at 13;
# without it, the definite upgrade runs out of its iteration budget, and
# the verdict line says so.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
M=tests/models/beverage.smv
ID=c590f32753bbfec9
fail=0
run() { "$MF_BIN" check "$M" --observe out --mutant "$ID" "$@" 2>&1; }
expect() { # expect WHAT OUTPUT PATTERN
    if ! grep -q -- "$3" <<< "$2"; then
        echo "FAIL: $1: no '$3' in:"
        echo "$2"
        fail=1
    fi
}
out=$(run --bound 3)
expect "bound 3" "$out" "^$ID  number-replace survived   up to bound 3; killable at 5, beyond the bound (explicit-state exploration)$"
out=$(run --bound 3 --explicit-max 0)
expect "bound 3, explorer off" "$out" "^$ID  number-replace survived   up to bound 3$"
out=$(run --bound 5)
expect "bound 5" "$out" "^$ID  number-replace killed     definite      length 5$"
out=$(run --bound 5 --explicit-max many)
rc=$?
expect "bad --explicit-max" "$out" "--explicit-max needs a number of states"
[ "$rc" = 1 ] || { echo "FAIL: bad --explicit-max exits $rc, not 1"; fail=1; }

verdicts() { grep -v '^ ' "$1"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-check-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for t in 1 2; do
    "$MF_BIN" check tests/models/car_alarm.smv --all --bound 3 --threads $t \
        > "$tmp/t$t.out" 2> "$tmp/t$t.err"
    echo $? > "$tmp/t$t.rc"
done
for t in 1 2; do
    [ "$(cat "$tmp/t$t.rc")" = 0 ] ||
        { echo "FAIL: --threads $t exits $(cat "$tmp/t$t.rc"): $(head -c 300 "$tmp/t$t.err")"; fail=1; }
done
n=$(verdicts "$tmp/t1.out" | grep -c '^[0-9a-f]\{16\} ')
[ "$n" -gt 256 ] || { echo "FAIL: car_alarm: $n verdicts, expected more than two slices"; fail=1; }
if ! diff <(verdicts "$tmp/t1.out") <(verdicts "$tmp/t2.out") > "$tmp/diff"; then
    echo "FAIL: --threads 2 verdicts differ from --threads 1:"
    head -20 "$tmp/diff"
    fail=1
fi
out=$("$MF_BIN" check "$M" --all --threads 0 2>&1)
rc=$?
expect "--threads 0" "$out" "--threads needs a count"
[ "$rc" = 1 ] || { echo "FAIL: --threads 0 exits $rc, not 1"; fail=1; }
D=tests/models/door_lock.smv
out=$("$MF_BIN" check "$D" --mutant ac563612666c1d99 --bound 20 2>&1)
expect "door_lock, explorer on" "$out" "^ac563612666c1d99  logic-op       killed     definite      length 13$"
out=$("$MF_BIN" check "$D" --mutant ac563612666c1d99 --bound 6 --explicit-max 0 2>&1)
expect "door_lock, explorer off" "$out" "^ac563612666c1d99  logic-op       killed     potential     length 4; upgrade gave up: refinement: iteration limit at length [4-6]$"
[ "$fail" = 0 ] && echo "check_cli: ok"
exit "$fail"
