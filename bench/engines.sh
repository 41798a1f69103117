#!/bin/bash
# engines.sh - the Z3 engine benchmarks of issue 3, in one run:
#  (a) the beverage machine generalised to tank capacity C (the mutant refills
#      C-1; the shortest definite kill has length 2C+1), C = 2..16: definite
#      killing by refinement (--engine cegis) vs the paper's quantified
#      encoding (--engine quantified), seconds per C, 60 s cap per run;
#  (b) batch (selectors, one incremental solver) vs a fresh solver per mutant
#      on the largest corpus models the front-end accepts: mutants/s, ratio.
# usage: bench/engines.sh [MUTFARM]   (default build/mutfarm)
set -u
BIN=${1:-${MF_BIN:-build/mutfarm}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${MF_SHARED_MODELS:-$ROOT/../shared/models}
GEN=$SHARED/seeds/beverage_gen.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CAP=${CAP:-60}

secs() { # run "$@" under the cap; print seconds and the verdict line
    local t0 t1 out rc
    t0=$(date +%s.%N)
    out=$(timeout "$CAP" "$@" 2>&1); rc=$?
    t1=$(date +%s.%N)
    if [ $rc -eq 124 ]; then echo "cap(${CAP}s)"; return; fi
    printf '%.2f %s\n' "$(echo "$t1 - $t0" | bc)" \
        "$(echo "$out" | grep -v '^ ' | grep -v '^#' | awk '{print $3, $4, $5, $6}' | head -1)"
}

echo "== (a) beverage(C): definite kill of the refill-(C-1) mutant"
printf '%-3s %-28s %-28s\n' C cegis quantified
for C in $(seq 2 16); do
    sh "$GEN" "$C" > "$TMP/o.smv"
    sh "$GEN" "$C" "$((C - 1))" > "$TMP/m.smv"
    K=$((2 * C + 1))
    a=$(secs "$BIN" check "$TMP/o.smv" --against "$TMP/m.smv" --observe out \
        --notion definite --bound "$K" --engine cegis --timeout $((CAP * 1000)))
    b=$(secs "$BIN" check "$TMP/o.smv" --against "$TMP/m.smv" --observe out \
        --notion definite --bound "$K" --engine quantified --timeout $((CAP * 1000)))
    printf '%-3s %-28s %-28s\n' "$C" "$a" "$b"
done

echo "== (b) batch vs fresh (bound 10, all mutants)"
printf '%-60s %6s %10s %10s %6s\n' model mutants batch/s fresh/s ratio
for f in $(ls -S "$SHARED"/corpus/*.smv "$ROOT"/tests/models/*.smv 2>/dev/null); do
    "$BIN" model check "$f" >/dev/null 2>&1 || continue
    n=$("$BIN" mutants list "$f" 2>/dev/null | grep -vc -e duplicate -e stillborn -e '^#')
    [ "$n" -gt 0 ] || continue
    echo "$f" >> "$TMP/accepted"
done
head -n "${NMODELS:-3}" "$TMP/accepted" 2>/dev/null | while read -r f; do
    n=$("$BIN" mutants list "$f" 2>/dev/null | grep -vc -e duplicate -e stillborn -e '^#')
    t0=$(date +%s.%N)
    timeout 600 "$BIN" check "$f" --all --bound 10 --mode batch >/dev/null 2>&1
    t1=$(date +%s.%N)
    timeout 600 "$BIN" check "$f" --all --bound 10 --mode fresh >/dev/null 2>&1
    t2=$(date +%s.%N)
    b=$(echo "scale=2; $n / ($t1 - $t0)" | bc)
    fr=$(echo "scale=2; $n / ($t2 - $t1)" | bc)
    r=$(echo "scale=2; $b / $fr" | bc)
    printf '%-60s %6s %10s %10s %6s\n' "$(basename "$f")" "$n" "$b" "$fr" "$r"
done
