#!/usr/bin/env bash
# check_cli.sh - `mutfarm check` on the command line (issue 3): the refill
# mutant of the beverage machine (2 -> 1 in the fill branch; its shortest
# kill is req, req, fill, req, req, length 5). Past the bound, the
# explicit-state proof decides it at once and says why; with the proof off
# (--explicit-max 0), the search reaches the same verdict without the
# note; within the bound, it is killed definitely at length 5. A bad
# --explicit-max is a usage error.
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
expect "bound 3" "$out" "^$ID  number-replace survived   up to bound 3 (explicit-state exploration: shortest kill 5)$"
out=$(run --bound 3 --explicit-max 0)
expect "bound 3, explorer off" "$out" "^$ID  number-replace survived   up to bound 3$"
out=$(run --bound 5)
expect "bound 5" "$out" "^$ID  number-replace killed     definite      length 5$"
out=$(run --bound 5 --explicit-max many)
rc=$?
expect "bad --explicit-max" "$out" "--explicit-max needs a number of states"
[ "$rc" = 1 ] || { echo "FAIL: bad --explicit-max exits $rc, not 1"; fail=1; }
[ "$fail" = 0 ] && echo "check_cli: ok"
exit "$fail"
