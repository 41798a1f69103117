#!/bin/bash
# large.sh - the larger third-party models (issue 38: tic-tac-toe, the
# production cell, the guidance system; ../shared/models/large; and
# tests/models/mixing_tank.smv, range choices in constrained variables)
# decided by two binaries side by side in one run: BASE (main before
# issue 38)
# and NEW. Per model, SAMPLE mutants evenly spaced over `mutants list`
# (duplicates and stillborns left out), each checked alone (`check
# --mutant ID --bound BOUND`) by either binary in turn under a cap of
# MCAP seconds (a mutant past it is counted "cap", not decided): per
# binary the verdicts (killed, equivalent, survived, unknown, cap), the
# wall seconds of the model's runs and the mutants decided per second;
# then the ratio NEW / BASE of mutants decided per second.
# usage: bench/large.sh [NEW [BASE]]
#   NEW   default build/mutfarm
#   BASE  default $MF_BASE_BIN, else /tmp/large-base/mutfarm (build main
#         at 2411de8 there: git worktree add /tmp/large-base-src 2411de8)
# env: SAMPLE (mutants per model, default 5), BOUND (20 or auto), MCAP
#      (seconds per mutant, default 20), MODELS (substrings: only those)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NEW=${1:-$ROOT/build/mutfarm}
BASE=${2:-${MF_BASE_BIN:-/tmp/large-base/mutfarm}}
SHARED=${MF_SHARED_MODELS:-$ROOT/../shared/models}
: "${SAMPLE:=5}" "${BOUND:=20}" "${MCAP:=20}"
. "$ROOT/bench/lib.sh" # wanted

for b in "$NEW" "$BASE"; do
    [ -x "$b" ] || { echo "large.sh: no binary $b" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The verdict word of one mutant's run, or "cap".
verdict() { # BIN MODEL ID
    local v
    v=$(timeout "$MCAP" "$1" check "$2" --mutant "$3" --bound "$BOUND" \
        2>/dev/null | awk -v id="$3" '$1 == id { print $3; exit }')
    echo "${v:-cap}"
}

# "killed equivalent survived unknown cap wall" of BIN over the ids.
runs() { # BIN MODEL IDFILE
    local t0 t1 k=0 e=0 s=0 u=0 c=0 id
    t0=$(date +%s.%N)
    while read -r id; do
        case $(verdict "$1" "$2" "$id") in
        killed) k=$((k + 1)) ;; equivalent) e=$((e + 1)) ;;
        survived) s=$((s + 1)) ;; cap) c=$((c + 1)) ;; *) u=$((u + 1)) ;;
        esac
    done < "$3"
    t1=$(date +%s.%N)
    echo "$k $e $s $u $c $(awk -v a="$t0" -v b="$t1" \
        'BEGIN { printf "%.1f", b - a }')"
}

rate() { # "k e s u c wall" -> decided (killed, equivalent, survived) per second
    read -r k e s u c w <<< "$1"
    awk -v d="$((k + e + s))" -v w="$w" \
        'BEGIN { printf "%.3f", (w > 0 ? d / w : 0) }'
}

echo "== check --mutant ID --bound $BOUND, $SAMPLE mutants a model," \
    "cap ${MCAP}s a mutant (wall)"
echo "   base: $BASE"
echo "   new:  $NEW"
printf '%-16s | %-33s | %-33s | %s
' model \
    "base: kil eqv sur unk cap  wall  dec/s" \
    "new:  kil eqv sur unk cap  wall  dec/s" \
    "decided/s new/base"
for f in "$SHARED"/large/*.smv "$ROOT"/tests/models/mixing_tank.smv; do
    [ -f "$f" ] || continue
    wanted "$(basename "$f")" || continue
    name=$(basename "$f" .smv)
    name=${name##*__}
    "$NEW" mutants list "$f" |
        awk '!/^#/ && !/duplicate|stillborn/ { print $1 }' \
        > "$TMP/all"
    n=$(wc -l < "$TMP/all")
    for k in $(seq 0 $((SAMPLE - 1))); do
        sed -n "$((k * n / SAMPLE + 1))p" "$TMP/all"
    done > "$TMP/ids"
    rb=$(runs "$BASE" "$f" "$TMP/ids")
    rn=$(runs "$NEW" "$f" "$TMP/ids")
    a=$(rate "$rb")
    b=$(rate "$rn")
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {
        if (a > 0) printf "%.1f", b / a; else if (b > 0) print "inf"
        else print "-" }')
    row='%-16.16s | %3s %3s %3s %3s %3s %6s %s/s'
    printf "$row | %3s %3s %3s %3s %3s %6s %s/s | %s\n" \
        "$name" $rb "$a" $rn "$b" "$ratio"
done
