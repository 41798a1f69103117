#!/bin/bash
# sis.sh - the SCR-class Safety Injection controller written the NuSMV way
# (tests/models/sis_env.smv, issue 36): every mutant checked alone at
# `--bound B --observe SafetyInjection`, one process per mutant, printing
# per mutant its verdict and CPU seconds, then the mean, the largest and
# the verdict counts. Where NUSMV=path names a NuSMV binary its column
# would follow; no product for models whose inputs are VARs is written
# yet, so the column is skipped (NuSMV is not a dependency).
# usage: bench/sis.sh [MUTFARM]   (default build/mutfarm)
# env: BOUND (40), CAP (seconds per mutant, 600), MODEL (another model of
#      the class), OBSERVE (SafetyInjection), SAMPLE (0: every mutant; N:
#      N evenly spaced), VARIANTS=1: the model, then issue 36's two
#      variants, each in turn: tests/models/sis_env2.smv (a second
#      integer input) at BOUND, sis_env_far.smv (thresholds 60 steps
#      away) at --bound 80
set -u
BIN=${1:-${MF_BIN:-build/mutfarm}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ "${VARIANTS:-0}" = 1 ]; then
    VARIANTS=0 "$0" "$BIN"
    VARIANTS=0 MODEL=$ROOT/tests/models/sis_env2.smv "$0" "$BIN"
    VARIANTS=0 MODEL=$ROOT/tests/models/sis_env_far.smv BOUND=80 "$0" "$BIN"
    exit
fi
MODEL=${MODEL:-$ROOT/tests/models/sis_env.smv}
OBSERVE=${OBSERVE:-SafetyInjection}
BOUND=${BOUND:-40}
CAP=${CAP:-600}
SAMPLE=${SAMPLE:-0}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$ROOT/bench/lib.sh" # cpu

"$BIN" mutants list "$MODEL" |
    awk 'length($1) == 16 && $1 ~ /^[0-9a-f]+$/ && !/duplicate|stillborn/ \
         { print $1 }' > "$TMP/ids"
total=$(wc -l < "$TMP/ids")
if [ "$SAMPLE" -gt 0 ] && [ "$SAMPLE" -lt "$total" ]; then
    awk -v n="$total" -v k="$SAMPLE" 'int((NR - 1) * k / n) != int(NR * k / n)' \
        "$TMP/ids" > "$TMP/ids.s"
    mv "$TMP/ids.s" "$TMP/ids"
fi
echo "== $(basename "$MODEL"): $(wc -l < "$TMP/ids") of $total mutants," \
     "--bound $BOUND --observe $OBSERVE, CPU seconds per mutant"
printf '%-16s %-16s %-10s %-10s %7s %8s\n' mutant operator verdict notion length mutfarm
: > "$TMP/all"
while read -r id; do
    s=$(cpu "$TMP/out" "$BIN" check "$MODEL" --mutant "$id" --bound "$BOUND" \
        --observe "$OBSERVE")
    line=$(grep "^$id " "$TMP/out" | head -1)
    read -r _ op verdict rest <<< "$line"
    notion=- len=-
    case "$verdict" in
    killed) read -r notion _ len _ <<< "$rest" ;;
    "") verdict=timeout ;;
    esac
    printf '%-16s %-16s %-10s %-10s %7s %8.3f\n' "$id" "$op" "$verdict" \
        "$notion" "$len" "$s"
    echo "$verdict $s" >> "$TMP/all"
done < "$TMP/ids"
awk '{ n++; t += $2; if ($2 > mx) mx = $2; c[$1]++ }
     END { printf "# %d mutants: mean %.3f s, largest %.3f s;", n,
           n ? t / n : 0, mx
           for (v in c) printf " %s %d", v, c[v]; print "" }' "$TMP/all"
if [ -n "${NUSMV:-}" ] && [ -x "${NUSMV:-}" ]; then
    echo "== NuSMV: the product of a model whose inputs are VARs is not" \
         "written yet; column skipped"
else
    echo "== NuSMV: not at hand (set NUSMV=path); column skipped"
fi
