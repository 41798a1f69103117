#!/usr/bin/env bash
# matrix.sh - kill-matrix throughput (`mutfarm matrix`): test x mutant
# replays per second on real campaigns, with one replay thread and with
# two, the ratio of the two rates, and the CPU share the process got
# (on a machine busy with other work a second thread cannot show more
# than the cores it is given); then the same matrix through the farm
# (`--workers 2`: two local worker processes, jobs over ZeroMQ, each job's
# rows committed before its Ack) and its rate as a ratio to one thread.
# Prints; asserts nothing.
#
# For each model a campaign is run once (mutfarm run --bound B, into a
# temporary store), then its matrix is filled R times with --refill at
# each thread count; the best of the R fills is reported (the least
# disturbed by other load on the machine).
#
# usage: bench/matrix.sh [MODEL.smv...]
# env:   MF_BIN            mutfarm binary (default ./build/mutfarm; use a
#                          release build, not the sanitizer one)
#        MF_SHARED_MODELS  default ../shared/models
#        MF_BENCH_BOUND    campaign bound (default 10)
#        MF_BENCH_REPEAT   fills per thread count (default 3)
# default models: tests/models/car_alarm.smv and, from the corpus,
# syncarb5 (deterministic, 135 tests x 451 mutants at bound 10) and
# bubble_sort (512 initial states: the replays dominate).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
MF_BIN=${MF_BIN:-$here/build/mutfarm}
MF_SHARED_MODELS=${MF_SHARED_MODELS:-$here/../shared/models}
BOUND=${MF_BENCH_BOUND:-10}
REPEAT=${MF_BENCH_REPEAT:-3}
TIME=/usr/bin/time

[ -x "$MF_BIN" ] || { echo "matrix.sh: no mutfarm at $MF_BIN" >&2; exit 1; }
[ -x "$TIME" ] || { echo "matrix.sh: needs GNU time: apt-get install time" >&2; exit 1; }
if [ $# -gt 0 ]; then
    models=("$@")
else
    models=("$here/tests/models/car_alarm.smv"
            "$MF_SHARED_MODELS/corpus/felipeblassioli__nusmv__examples__smv-dist__syncarb5.smv"
            "$MF_SHARED_MODELS/corpus/EagleBear2002__NuSMV-Project-01__bubble_sort__bubble_sort.smv")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench-matrix.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# best_fill DB OPTION...: "replays seconds cpu%" of the fastest of REPEAT
# fills (cpu%: the process's CPU time over its wall time, from GNU time:
# 200% is two cores busy throughout).
best_fill() {
    local best="" line
    for ((i = 0; i < REPEAT; i++)); do
        line=$($TIME -f "cpu %P" "$MF_BIN" matrix --db "$1" --refill \
                   "${@:2}" 2>&1 |
               sed -n -e 's/^ *\([0-9]*\) replays in \([0-9.]*\) s.*/\1 \2/p' \
                      -e 's/^cpu \([0-9]*\)%$/\1/p' | paste -sd' ')
        [ "$(wc -w <<< "$line")" = 3 ] || { echo "matrix.sh: no replay count from mutfarm matrix" >&2; exit 1; }
        if [ -z "$best" ] || awk -v a="$(cut -d' ' -f2 <<< "$line")" \
                                 -v b="$(cut -d' ' -f2 <<< "$best")" \
                                 'BEGIN { exit !(a < b) }'; then
            best=$line
        fi
    done
    echo "$best"
}

printf '%-28s %6s %7s %8s %11s %5s %11s %5s %6s %10s %5s %6s\n' model \
       tests mutants replays "1 thread/s" "cpu%" "2 thread/s" "cpu%" ratio \
       "farm 2w/s" "cpu%" ratio
for f in "${models[@]}"; do
    name=$(basename "$f" .smv)
    db="$tmp/$name.db"
    if ! "$MF_BIN" run "$f" --bound "$BOUND" --db "$db" > "$tmp/run.log" 2>&1; then
        echo "skip $name: the campaign failed ($(tail -1 "$tmp/run.log"))"
        continue
    fi
    read -r n1 s1 c1 <<< "$(best_fill "$db" --threads 1)"
    read -r n2 s2 c2 <<< "$(best_fill "$db" --threads 2)"
    read -r n3 s3 c3 <<< "$(best_fill "$db" --workers 2)"
    tests=$(sqlite3 "$db" "SELECT tests FROM campaign_matrix")
    mutants=$(sqlite3 "$db" "SELECT mutants FROM campaign_matrix")
    awk -v m="${name:0:28}" -v t="$tests" -v mu="$mutants" -v n="$n1" \
        -v a="$s1" -v b="$s2" -v n2="$n2" -v c1="$c1" -v c2="$c2" \
        -v n3="$n3" -v d="$s3" -v c3="$c3" 'BEGIN {
            r1 = a > 0 ? n / a : 0; r2 = b > 0 ? n2 / b : 0;
            r3 = d > 0 ? n3 / d : 0;
            printf "%-28s %6d %7d %8d %11.0f %5d %11.0f %5d %6.2f %10.0f %5d %6.2f\n",
                   m, t, mu, n, r1, c1, r2, c2, (r1 > 0 ? r2 / r1 : 0), r3,
                   c3, (r1 > 0 ? r3 / r1 : 0) }'
done
