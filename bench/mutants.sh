#!/usr/bin/env bash
# mutants.sh - front-end and mutation-engine throughput on the largest
# accepted corpus models: parse time per KLOC, mutants generated per second,
# peak memory. Prints rates side by side; asserts nothing (docs/architecture.md, "Measuring").
#
# usage: bench/mutants.sh [MODEL.smv...]
# env:   MF_BIN            mutfarm binary (default ./build/mutfarm; use a
#                          release build, not the sanitizer one)
#        MF_SHARED_MODELS  default ../shared/models
#        MF_BENCH_MODELS   how many of the largest models (default 5)
#        MF_BENCH_REPEAT   `model check` runs per model (default 20)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
MF_BIN=${MF_BIN:-$here/build/mutfarm}
MF_SHARED_MODELS=${MF_SHARED_MODELS:-$here/../shared/models}
NMODELS=${MF_BENCH_MODELS:-5}
REPEAT=${MF_BENCH_REPEAT:-20}
TIME=/usr/bin/time

[ -x "$MF_BIN" ] || { echo "mutants.sh: no mutfarm at $MF_BIN" >&2; exit 1; }
[ -x "$TIME" ] || { echo "mutants.sh: needs GNU time: apt-get install time" >&2; exit 1; }

now() { date +%s.%N; }
fdiv() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "inf" }'; }
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }

# Candidates: the given files, or the corpus by size, largest first; keep
# the first NMODELS that `model check` accepts.
if [ $# -gt 0 ]; then
    candidates=("$@")
else
    mapfile -t candidates < <(ls -S "$MF_SHARED_MODELS"/corpus/*.smv \
                                    "$MF_SHARED_MODELS"/seeds/*.smv 2>/dev/null)
fi
models=()
for f in "${candidates[@]}"; do
    [ ${#models[@]} -lt "$NMODELS" ] || break
    if "$MF_BIN" model check "$f" >/dev/null 2>&1; then
        models+=("$f")
    else
        echo "skip $(basename "$f"): not accepted"
    fi
done
[ ${#models[@]} -gt 0 ] || { echo "mutants.sh: no accepted model" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Process start-up, measured the same way, is subtracted from parse times.
t0=$(now)
for ((i = 0; i < REPEAT; i++)); do
    "$MF_BIN" --version >/dev/null
done
ms_start=$(awk -v t="$(fsub "$(now)" "$t0")" -v n="$REPEAT" \
               'BEGIN { printf "%.3f", 1000 * t / n }')

printf '%-44s %6s %9s %12s %10s %11s %9s\n' model lines "ms/check" "ms/KLOC" \
       mutants "mutants/s" "maxRSS"
for f in "${models[@]}"; do
    lines=$(wc -l <"$f")
    # Parse + flatten + type check, REPEAT times.
    t0=$(now)
    for ((i = 0; i < REPEAT; i++)); do
        "$MF_BIN" model check "$f" >/dev/null
    done
    t=$(fsub "$(now)" "$t0")
    ms_check=$(awk -v t="$t" -v n="$REPEAT" 'BEGIN { printf "%.2f", 1000 * t / n }')
    ms_kloc=$(awk -v m="$ms_check" -v s="$ms_start" -v l="$lines" \
                  'BEGIN { d = m - s; if (d < 0) d = 0; printf "%.2f", d * 1000 / l }')
    # Enumerate and classify every mutant, under GNU time for peak memory.
    t0=$(now)
    "$TIME" -v -o "$tmp/time" "$MF_BIN" mutants list "$f" >"$tmp/list"
    t=$(fsub "$(now)" "$t0")
    n=$(grep -cE '^[0-9a-f]{8,64}([[:space:]]|$)' "$tmp/list" || true)
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$tmp/time")
    printf '%-44.44s %6d %9s %12s %10d %11s %7dMB\n' "$(basename "$f")" \
           "$lines" "$ms_check" "$ms_kloc" "$n" "$(fdiv "$n" "$t")" \
           $((rss / 1024))
done
echo
echo "ms/check: one 'model check' (process start, parse, flatten, type check,"
echo "input inference) averaged over $REPEAT runs; ms/KLOC: the same minus"
echo "process start-up ($ms_start ms, 'mutfarm --version'), per 1000 source lines."
echo "mutants/s: 'mutants list' (enumerate, type check, dedupe)."
echo "maxRSS: peak resident memory of 'mutants list'. Binary: $MF_BIN"
