#!/bin/bash
# decide.sh - issue 24 (b): does the default engine decide every mutant at
# bound 40 where the explicit-state explorer can finish the product, and
# does it agree with the explorer? Per model (the corpus models the
# front-end accepts, then tests/models/scr_sis.smv, car_alarm.smv and
# mutation_testing.smv), the same mutants are checked twice:
#   explorer: `check --all --bound auto --method explicit --explicit-mb XMB
#             [--explicit-max XMAX]` (the explorer alone, kills of any
#             length; what it cannot finish within the limits is unknown);
#   default:  `check --all --bound 40` (default options), on the models
#             the explorer finishes (ALL=1: on every model).
# The model "finishes" when the explorer decides every mutant checked.
# Columns: mutants checked; explorer decided; default killed, equivalent,
# survived (of them killable past the bound: >B), unknown, error; CPU
# seconds per mutant of the default run; equivalence proofs by method (the
# verdict's method field: coi cone-of-influence, bdd BDD fixpoint, xs
# explicit-state exploration, ls lock-step induction, ind other induction,
# oth anything else; kills carry no method); agreement with the explorer
# over the mutants both decided (killed = killed, equivalent =
# equivalent), and the disagreements, listed after the table.
# usage: bench/decide.sh [MUTFARM]   (default build/mutfarm)
# env: BOUND (40), SAMPLE (mutants per model, evenly spaced, 0: all;
#      default 0), CAP (seconds per run, 1200), XMB (explorer MB, 4096),
#      XMAX (explorer product states besides, --explicit-max; default
#      check's own), ALL (1: the default run where the explorer does
#      not finish too), MODELS (substrings: only those models), KEEP (a
#      directory to keep each run's output in)
set -u
BIN=${1:-${MF_BIN:-build/mutfarm}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${MF_SHARED_MODELS:-$ROOT/../shared/models}
BOUND=${BOUND:-40}
SAMPLE=${SAMPLE:-0}
CAP=${CAP:-1200}
XMB=${XMB:-4096}
xmax=()
[ -n "${XMAX:-}" ] && xmax=(--explicit-max "$XMAX")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$ROOT/bench/lib.sh" # cpu, wanted

# "id verdict" per mutant line of a check's output.
verdicts() {
    awk 'length($1) == 16 && $1 ~ /^[0-9a-f]+$/ { print $1, $3 }' "$1" |
        sort
}

models=()
for f in "$SHARED"/corpus/*.smv; do [ -f "$f" ] && models+=("$f"); done
models+=("$ROOT/tests/models/scr_sis.smv" "$ROOT/tests/models/car_alarm.smv"
         "$ROOT/tests/models/mutation_testing.smv")

samp=()
[ "$SAMPLE" != 0 ] && samp=(--sample "$SAMPLE")
echo "== bound $BOUND, $([ "$SAMPLE" = 0 ] && echo "every mutant" || echo "$SAMPLE sampled per model"), cap ${CAP}s a run, explorer ${XMB} MB"
printf '%-40s %5s %5s | %5s %5s %4s %4s %4s %3s %8s | %-30s | %s\n' model mut \
    xdec kill equiv surv '>B' unk err 's/mut' 'equivalence proofs' \
    'agree/both disagree'
: > "$TMP/disagree"
tot_n=0 tot_dec=0 fin=0
for f in "${models[@]}"; do
    b=$(basename "$f" .smv)
    bn=$b
    [ ${#b} -gt 40 ] && bn=${b: -40}
    wanted "$b" || continue
    if ! "$BIN" model check "$f" > /dev/null 2>&1; then
        printf '%-40s refused by the front-end\n' "$bn"
        continue
    fi
    cpu "$TMP/x" "$BIN" check "$f" --all --bound auto --method explicit \
        --explicit-mb "$XMB" "${xmax[@]}" "${samp[@]}" > /dev/null
    verdicts "$TMP/x" > "$TMP/xv"
    xn=$(wc -l < "$TMP/xv")
    xdec=$(awk '$2 == "killed" || $2 == "equivalent"' "$TMP/xv" | wc -l)
    grep -q '^# [0-9]* mutants:' "$TMP/x" || xdec="cap"
    [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$TMP/x" "$KEEP/$b.explorer"
    if [ "$xdec" != "$xn" ] && [ "${ALL:-0}" != 1 ]; then
        printf '%-40.40s %5s %5s | explorer does not finish: no default run\n' \
            "$bn" "$xn" "$xdec"
        continue
    fi
    t=$(cpu "$TMP/d" "$BIN" check "$f" --all --bound "$BOUND" "${samp[@]}")
    [ -n "${KEEP:-}" ] && cp "$TMP/d" "$KEEP/$b.default"
    if ! grep -q '^# [0-9]* mutants:' "$TMP/d"; then
        printf '%-40.40s cap (%ss) or failure: %s\n' "$bn" "$CAP" \
            "$(grep -v '^ ' "$TMP/d" | tail -1 | cut -c1-60)"
        continue
    fi
    verdicts "$TMP/d" > "$TMP/dv"
    n=$(wc -l < "$TMP/dv")
    read -r k e s u r <<< "$(awk '{ c[$2]++ } END {
        print c["killed"] + 0, c["equivalent"] + 0, c["survived"] + 0,
              c["unknown"] + 0, c["error"] + 0 }' "$TMP/dv")"
    beyond=$(grep -c 'beyond the bound' "$TMP/d")
    proofs=$(awk '$3 == "equivalent" {
        m = $0; sub(/.* equivalent by /, "", m)
        if (m ~ /cone-of-influence/) c["coi"]++
        else if (m ~ /^bdd/) c["bdd"]++
        else if (m ~ /explicit-state/) c["xs"]++
        else if (m ~ /lock-step/) c["ls"]++
        else if (m ~ /induction/) c["ind"]++
        else c["oth"]++
    } END { for (x in c) printf "%s %d ", x, c[x] }' "$TMP/d")
    read -r agree both <<< "$(join "$TMP/xv" "$TMP/dv" | awk '
        ($2 == "killed" || $2 == "equivalent") &&
        ($3 == "killed" || $3 == "equivalent") { b++; if ($2 == $3) a++ }
        END { print a + 0, b + 0 }')"
    join "$TMP/xv" "$TMP/dv" | awk -v m="$b" '
        ($2 == "killed" || $2 == "equivalent") &&
        ($3 == "killed" || $3 == "equivalent") && $2 != $3 {
            print m, $1, "explorer " $2, "default " $3 }' >> "$TMP/disagree"
    spm=$(awk -v c="$t" -v n="$n" 'BEGIN { printf "%.3f", c / (n ? n : 1) }')
    printf '%-40.40s %5s %5s | %5s %5s %4s %4s %4s %3s %8s | %-30.30s | %s/%s %s\n' \
        "$bn" "$n" "$xdec" "$k" "$e" "$s" "$beyond" "$u" "$r" "$spm" \
        "${proofs:--}" "$agree" "$both" "$((both - agree))"
    if [ "$xdec" = "$n" ]; then
        fin=$((fin + 1))
        tot_n=$((tot_n + n))
        tot_dec=$((tot_dec + k + e))
    fi
done
echo
echo "explorer finishes $fin model(s): default at bound $BOUND decides $tot_dec of their $tot_n mutants"
if [ -s "$TMP/disagree" ]; then
    echo "disagreements (model id explorer default):"
    cat "$TMP/disagree"
else
    echo "disagreements: none"
fi
