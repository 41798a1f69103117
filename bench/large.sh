#!/bin/bash
# large.sh - the larger third-party models (issue 38: tic-tac-toe, the
# production cell, the guidance system; ../shared/models/large) decided
# by two binaries side by side in one run: BASE (main before issue 38)
# and NEW. Per model and binary, `check --all --sample SAMPLE --bound
# BOUND` under a cap: mutants, killed, equivalent, survived, unknown,
# wall seconds and mutants per second (wall), then the ratio NEW / BASE
# of mutants per second. A run past the cap prints "cap" (nothing
# decided within it: at most SAMPLE / CAP mutants per second).
# usage: bench/large.sh [NEW [BASE]]
#   NEW   default build/mutfarm
#   BASE  default $MF_BASE_BIN, else /tmp/large-base/mutfarm (build main
#         at 2411de8 there: git worktree add /tmp/large-base-src 2411de8)
# env: SAMPLE (mutants per model, default 10), BOUND (20 or auto), CAP
#      (seconds per run, default 120), MODELS (substrings: only those)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NEW=${1:-$ROOT/build/mutfarm}
BASE=${2:-${MF_BASE_BIN:-/tmp/large-base/mutfarm}}
SHARED=${MF_SHARED_MODELS:-$ROOT/../shared/models}
: "${SAMPLE:=10}" "${BOUND:=20}" "${CAP:=120}"
. "$ROOT/bench/lib.sh" # wanted

for b in "$NEW" "$BASE"; do
    [ -x "$b" ] || { echo "large.sh: no binary $b" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# "n killed equivalent survived unknown" from a check's summary line.
counts() {
    awk '/^# [0-9]+ mutants:/ { gsub(/,/, ""); print $2, $4, $6, $8, $10 }' "$1"
}

# One run: prints "n k e s u wall" or "cap".
one() { # BIN MODEL OUT
    local t0 t1 c
    t0=$(date +%s.%N)
    timeout "$CAP" "$1" check "$2" --all --sample "$SAMPLE" --bound "$BOUND" \
        > "$3" 2>&1
    t1=$(date +%s.%N)
    c=$(counts "$3")
    if [ -z "$c" ]; then echo cap; return; fi
    echo "$c $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
}

fmt() { # "n k e s u wall" or cap
    if [ "$1" = cap ]; then
        printf '%-34s' "cap (${CAP}s): < $(awk -v n="$SAMPLE" -v c="$CAP" \
            'BEGIN { printf "%.3f", n / c }')/s"
        return
    fi
    read -r n k e s u w <<< "$1"
    printf '%3s %3s %3s %3s %6s %8.3f/s' "$k" "$e" "$s" "$u" "$w" \
        "$(awk -v n="$n" -v w="$w" 'BEGIN { print (w > 0 ? n / w : 0) }')"
}

rate() { # "n ... wall" or cap -> mutants per second (cap: upper bound)
    if [ "$1" = cap ]; then
        awk -v n="$SAMPLE" -v c="$CAP" 'BEGIN { print n / c }'
        return
    fi
    read -r n k e s u w <<< "$1"
    awk -v n="$n" -v w="$w" 'BEGIN { print (w > 0 ? n / w : 0) }'
}

echo "== check --all --sample $SAMPLE --bound $BOUND, cap ${CAP}s a run (wall)"
echo "   base: $BASE"
echo "   new:  $NEW"
printf '%-16s | %-34s | %-34s | %s\n' model \
    "base: kil eqv sur unk  wall  mut/s" "new:  kil eqv sur unk  wall  mut/s" \
    "new/base"
for f in "$SHARED"/large/*.smv; do
    [ -f "$f" ] || continue
    wanted "$(basename "$f")" || continue
    name=$(basename "$f" .smv)
    name=${name##*__}
    rb=$(one "$BASE" "$f" "$TMP/base")
    rn=$(one "$NEW" "$f" "$TMP/new")
    ratio=$(awk -v a="$(rate "$rb")" -v b="$(rate "$rn")" \
        'BEGIN { printf "%.1f", (a > 0 ? b / a : 0) }')
    [ "$rb" = cap ] && ratio=">= $ratio"
    [ "$rn" = cap ] && ratio="?"
    printf '%-16.16s | %s | %s | %s\n' "$name" "$(fmt "$rb")" "$(fmt "$rn")" \
        "$ratio"
done
