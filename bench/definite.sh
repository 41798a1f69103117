#!/bin/bash
# definite.sh - definite killing of the beverage machine's refill mutant
# (issue 36, item 3): for capacity C = 16, 24, 32, 64 (the seeds'
# beverage_gen.sh), the mutant that refills C-1, `check --mutant ID
# --bound 2C+1 --notion definite --observe out` at default options (the
# explorer's subset construction first, engine.c definite_explicit) and
# with the explorer off (--explicit-max 0: the definite refinement alone),
# side by side in one run: CPU seconds, the verdicts, and their ratio.
# usage: bench/definite.sh [MUTFARM]   (default build/mutfarm)
# env: CAP (seconds per run, 120), CAPS ("16 24 32 64"), SEEDS (the
#      folder of beverage_gen.sh, default ../shared/models/seeds)
set -u
BIN=${1:-${MF_BIN:-build/mutfarm}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SEEDS=${SEEDS:-$ROOT/../shared/models/seeds}
CAP=${CAP:-120}
CAPS=${CAPS:-16 24 32 64}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$ROOT/bench/lib.sh" # cpu

if [ ! -f "$SEEDS/beverage_gen.sh" ]; then
    echo "definite.sh: no $SEEDS/beverage_gen.sh (set SEEDS)" >&2
    exit 1
fi
verdict() { # verdict OUT ID
    local v
    v=$(grep "^$2 " "$1" | head -1 |
        awk '{ if ($3 == "killed") print $3, $4, $6; else print $3 }')
    echo "${v:-timeout}"
}
echo "== beverage(C), refill C-1, --bound 2C+1 --notion definite" \
     "--observe out; CPU seconds (cap $CAP s)"
printf '%-4s %-26s %8s %-26s %8s %8s\n' C default secs "--explicit-max 0" \
    secs ratio
for C in $CAPS; do
    M=$TMP/bev$C.smv
    sh "$SEEDS/beverage_gen.sh" "$C" > "$M"
    id=$("$BIN" mutants list "$M" |
         awk -v c="$C" 'index($0, "replace `" c "` with `" c - 1 \
                        "` at next(wtr)") && !/duplicate/ { print $1; exit }')
    a=$(cpu "$TMP/a" "$BIN" check "$M" --mutant "$id" --bound $((2 * C + 1)) \
        --notion definite --observe out)
    b=$(cpu "$TMP/b" "$BIN" check "$M" --mutant "$id" --bound $((2 * C + 1)) \
        --notion definite --observe out --explicit-max 0)
    printf '%-4s %-26s %8s %-26s %8s %8s\n' "$C" "$(verdict "$TMP/a" "$id")" \
        "$a" "$(verdict "$TMP/b" "$id")" "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.0fx", b / (a > 0.01 ? a : 0.01) }')"
done
