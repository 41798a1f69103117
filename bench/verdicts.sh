#!/usr/bin/env bash
# verdicts.sh - a snapshot of what mutfarm says about every shared model:
# the mutant list (ids, operators, places, descriptions) and the verdict
# lines of `check --all --sample N --bound B` on each model of
# ../shared/models/{corpus,seeds,large} and tests/models, one file a model
# in OUT. Two snapshots (two builds, before and after a change) compare with
# `diff -r`: a layout change must leave them byte for byte the same.
#   MF_BIN=build/mutfarm OUT=/tmp/snap bench/verdicts.sh
# SAMPLE (40), BOUND (10) and CAP (seconds a model, 120) may be set.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
MF_BIN=${MF_BIN:-./build/mutfarm}
OUT=${OUT:?OUT: the snapshot folder}
SAMPLE=${SAMPLE:-40}
BOUND=${BOUND:-10}
CAP=${CAP:-120}
SHARED=${SHARED:-../shared/models}
mkdir -p "$OUT"
n=0
for f in "$SHARED"/corpus/*.smv "$SHARED"/seeds/*.smv "$SHARED"/large/*.smv \
         tests/models/*.smv; do
    [ -f "$f" ] || continue
    name=$(basename "$(dirname "$f")")__$(basename "$f" .smv)
    "$MF_BIN" mutants list "$f" > "$OUT/$name.mutants" 2>&1
    echo "exit $?" >> "$OUT/$name.mutants"
    timeout "$CAP" "$MF_BIN" check "$f" --all --sample "$SAMPLE" \
        --bound "$BOUND" > "$OUT/$name.check" 2>&1
    echo "exit $?" >> "$OUT/$name.check"
    n=$((n + 1))
done
echo "verdicts.sh: $n models into $OUT"
