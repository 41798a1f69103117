#!/usr/bin/env bash
# criteria.sh - coverage requirements against mutants on the same model
# (docs/criteria.md): `mutfarm check MODEL --criterion
# branch,ufp,transition-pair,state` and `mutfarm check MODEL --all` at the
# same bound, one after the other, CPU seconds of each, requirements per
# second beside mutants per second and their ratio (the issue's goal: the
# requirements within a factor 2 of the mutants). Prints; asserts nothing.
# The requirements' time includes their winnowing (trivial and duplicate
# checks); the mutants' is the engine alone.
#
# usage: bench/criteria.sh [MODEL.smv...]
# env:   MF_BIN          mutfarm binary (default ./build/mutfarm; use a
#                        release build, not the sanitizer one)
#        MF_BENCH_BOUND  the bound of both (default 40)
#        CAP             seconds per run before it is cut (default 600)
# default models: tests/models/car_alarm.smv, tests/models/beverage.smv,
# tests/models/crossroad.smv, tests/models/mutation_testing.smv.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
MF_BIN=${MF_BIN:-$here/build/mutfarm}
BOUND=${MF_BENCH_BOUND:-40}
CAP=${CAP:-600}
. "$here/bench/lib.sh"

[ -x "$MF_BIN" ] || { echo "criteria.sh: no mutfarm at $MF_BIN" >&2; exit 1; }
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("$here/tests/models/car_alarm.smv"
    "$here/tests/models/beverage.smv" "$here/tests/models/crossroad.smv"
    "$here/tests/models/mutation_testing.smv")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench-criteria.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

printf "%-24s %6s %8s %9s %6s %8s %9s %7s\n" model reqs "cpu s" "reqs/s" \
    mutants "cpu s" "mutants/s" ratio
for model in "${models[@]}"; do
    rc=$(cpu "$tmp/r.out" "$MF_BIN" check "$model" --bound "$BOUND" \
         --criterion branch,ufp,transition-pair,state)
    mc=$(cpu "$tmp/m.out" "$MF_BIN" check "$model" --bound "$BOUND" --all)
    nr=$(grep -c '^[0-9a-f]\{16\}  ' "$tmp/r.out" || true)
    nm=$(grep -c '^[0-9a-f]\{16\}  ' "$tmp/m.out" || true)
    awk -v m="$(basename "$model")" -v nr="$nr" -v rc="$rc" -v nm="$nm" \
        -v mc="$mc" 'BEGIN {
        rr = rc > 0 ? nr / rc : 0; mr = mc > 0 ? nm / mc : 0
        printf "%-24s %6d %8.2f %9.1f %6d %8.2f %9.1f %7.2f\n", m, nr, rc,
               rr, nm, mc, mr, (mr > 0 ? rr / mr : 0) }'
done
echo "ratio: requirements per second / mutants per second (1 or more:"
echo "requirements as fast as mutants or faster)"
