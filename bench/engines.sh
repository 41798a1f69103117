#!/bin/bash
# engines.sh - the Z3 engine benchmarks of issue 3, in one run:
#  (a) the beverage machine generalised to tank capacity C (the mutant refills
#      C-1; the shortest definite kill has length 2C+1), C = 2..16: definite
#      killing by refinement (--engine cegis) vs the paper's quantified
#      encoding (--engine quantified, two forms), seconds per C, 60 s cap;
#  (a') Int vs bit-vector values on the same runs;
#  (b) batch (selectors, one incremental solver) vs a fresh solver per mutant
#      on the largest corpus models the front-end accepts (the most mutants:
#      the largest campaigns; they are also the most state cells):
#      mutants/s, ratio.
# usage: bench/engines.sh [MUTFARM]   (default build/mutfarm)
# env: PARTS (default "a a2 b": which of (a), (a'), (b) to run), CAP, CMAX,
#      NMODELS, SAMPLE, BBOUND, BCAP (see below)
set -u
BIN=${1:-${MF_BIN:-build/mutfarm}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${MF_SHARED_MODELS:-$ROOT/../shared/models}
GEN=$ROOT/tests/models/beverage_gen.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CAP=${CAP:-60}

# CPU seconds (user + system) of a command and its children: the machines
# are shared, and wall time measures the neighbours too.
cpu() { # cpu OUTFILE CMD...: run CMD under the cap, output to OUTFILE
    local f=$1 t rc
    shift
    t=$( { TIMEFORMAT='%U %S'; time timeout "$CAP" "$@" > "$f" 2>&1; } 2>&1 )
    rc=$?
    echo "$t" | awk '{printf "%.2f\n", $1 + $2}'
    return $rc
}

secs() { # run "$@" under the cap; print CPU seconds and the verdict line
    local t
    t=$(cpu "$TMP/secs.out" "$@")
    if ! tail -1 "$TMP/secs.out" | grep -q '^# '; then echo "cap(${CAP}s)"; return; fi
    printf '%s %s\n' "$t" \
        "$(grep -v '^ ' "$TMP/secs.out" | grep -v '^#' | awk '{print $3, $4, $5, $6}' | head -1)"
}

PARTS=" ${PARTS:-a a2 b} "
part() { case "$PARTS" in *" $1 "*) return 0 ;; esac; return 1; }

if part a; then
echo "== (a) beverage(C): definite kill of the refill-(C-1) mutant (CPU seconds, cap ${CAP}s)"
echo "   cegis: refinement; quant: quantified choices; paper: choices and state"
echo "   copies quantified (the paper's phi_dk); ratio = quant / cegis"
printf '%-3s %-24s %-24s %-24s %6s\n' C cegis quant paper ratio
for C in $(seq 2 "${CMAX:-16}"); do
    sh "$GEN" "$C" > "$TMP/o.smv"
    sh "$GEN" "$C" "$((C - 1))" > "$TMP/m.smv"
    K=$((2 * C + 1))
    run() { secs "$BIN" check "$TMP/o.smv" --against "$TMP/m.smv" --observe out \
        --notion definite --bound "$K" --timeout $((CAP * 1000)) "$@"; }
    a=$(run --engine cegis)
    b=$(run --engine quantified)
    if [ "${PAPER_DONE:-0}" = 1 ]; then c="skipped (gave up below)"
    else c=$(MF_QUANT_FORM=paper run --engine quantified)
        case "$c" in cap*|*unknown*) PAPER_DONE=1 ;; esac
    fi
    ta=${a%% *}; tb=${b%% *}
    r=-; case "$ta$tb" in *cap*) ;; *) r=$(echo "scale=2; $tb / $ta" | bc) ;; esac
    printf '%-3s %-24s %-24s %-24s %6s\n' "$C" "$a" "$b" "$c" "$r"
done
fi

if part a2; then
echo "== (a') encodings: the same cegis runs with Int vs bit-vector values"
printf '%-3s %-24s %-24s %6s\n' C int bv int/bv
for C in 4 8 12; do
    sh "$GEN" "$C" > "$TMP/o.smv"
    sh "$GEN" "$C" "$((C - 1))" > "$TMP/m.smv"
    K=$((2 * C + 1))
    run() { secs "$BIN" check "$TMP/o.smv" --against "$TMP/m.smv" --observe out \
        --notion definite --bound "$K" --timeout $((CAP * 1000)) "$@"; }
    a=$(run --encoding int); b=$(run --encoding bv)
    ta=${a%% *}; tb=${b%% *}
    r=-; case "$ta$tb" in *cap*) ;; *) r=$(echo "scale=2; $ta / $tb" | bc) ;; esac
    printf '%-3s %-24s %-24s %6s\n' "$C" "$a" "$b" "$r"
done
fi

part b || exit 0
echo "== (b) batch vs fresh (mutants per CPU second): the ${NMODELS:-3} largest accepted models (most"
echo "   mutants), ${SAMPLE:-40} evenly spaced mutants each (check --all --sample), bound ${BBOUND:-10},"
echo "   cap ${BCAP:-900}s"
# The shared corpus; the repository's test models only without it (some
# are copies of corpus models).
models=$(ls "$SHARED"/corpus/*.smv 2>/dev/null)
[ -n "$models" ] || models=$(ls "$ROOT"/tests/models/*.smv)
for f in $models; do
    cells=$("$BIN" model check "$f" 2>/dev/null | sed -n 's/.*(\([0-9]*\) state cells).*/\1/p')
    [ -n "$cells" ] || continue
    n=$("$BIN" mutants list "$f" 2>/dev/null | grep -c '^[0-9a-f]\{16\} ')
    echo "$n $cells $f" >> "$TMP/accepted"
done
sort -rn "$TMP/accepted" > "$TMP/ranked" 2>/dev/null
echo "   largest (mutants, state cells):$(head -n $((${NMODELS:-3} + 2)) "$TMP/ranked" |
    awk '{ n = split($3, p, "/"); printf " %s %d/%d;", p[n], $1, $2 }')"
printf '%-60s %6s %10s %10s %6s\n' model mutants batch/s fresh/s ratio
head -n "${NMODELS:-3}" "$TMP/ranked" 2>/dev/null | while read -r _ _ f; do
    args="--all --sample ${SAMPLE:-40} --bound ${BBOUND:-10}"
    CAP=${BCAP:-900}
    tb=$(cpu "$TMP/b.out" "$BIN" check "$f" $args --mode batch)
    tf=$(cpu "$TMP/f.out" "$BIN" check "$f" $args --mode fresh)
    n=$(grep -c '^[0-9a-f]\{16\} ' "$TMP/b.out")
    if ! tail -1 "$TMP/b.out" | grep -q '^# ' || ! tail -1 "$TMP/f.out" | grep -q '^# '; then
        printf '%-60s %6s %s\n' "$(basename "$f")" "$n" "cap reached"
        continue
    fi
    # The ratio from the CPU seconds themselves (the rates are rounded).
    b=$(awk -v n="$n" -v t="$tb" 'BEGIN { printf "%.3f", n / t }')
    fr=$(awk -v n="$n" -v t="$tf" 'BEGIN { printf "%.3f", n / t }')
    r=$(awk -v a="$tf" -v b="$tb" 'BEGIN { printf "%.2f", a / b }')
    printf '%-60s %6s %10s %10s %6s\n' "$(basename "$f")" "$n" "$b" "$fr" "$r"
    echo "   batch: $tb s CPU $(tail -1 "$TMP/b.out")"
    echo "   fresh: $tf s CPU $(tail -1 "$TMP/f.out")"
done
