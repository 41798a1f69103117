#!/bin/bash
# bdd.sh - the BDD engine and the portfolio (issue 24) against the solver
# alone, in one run: per model (the corpus models the front-end accepts,
# then tests/models/scr_sis.smv, car_alarm.smv and mutation_testing.smv),
# `check --all --bound B` with the new methods on (--method auto, the
# default) and off (--method smt): mutants, decided (killed or
# equivalent), survivors, unknown, CPU seconds per mutant, and the ratio
# off/on. Where NUSMV=path names a NuSMV binary, the same mutants of the
# models whose inputs are all IVARs are checked by NuSMV as the issue
# describes (original x mutant with shared inputs, INVARSPEC "observables
# agree", one process per mutant): its time per mutant and the agreement
# (killed = the INVARSPEC is false; refusal kills counted apart: the
# product cannot express a refusal); else "no NuSMV".
# usage: bench/bdd.sh [MUTFARM]   (default build/mutfarm)
# env: BOUND (40), SAMPLE (mutants per model, 0: all; default 40), CAP
#      (seconds per run, 600), MODELS (substrings: only those models),
#      NUSMV (a NuSMV 2.6 binary)
set -u
BIN=${1:-${MF_BIN:-build/mutfarm}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${MF_SHARED_MODELS:-$ROOT/../shared/models}
BOUND=${BOUND:-40}
SAMPLE=${SAMPLE:-40}
CAP=${CAP:-600}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$ROOT/bench/lib.sh" # cpu, wanted

# "mutants decided survived unknown" from a check's summary line.
counts() {
    awk '/^# [0-9]+ mutants:/ {
        gsub(/,/, ""); print $2, $4 + $6, $8, $10 }' "$1"
}

models=()
for f in "$SHARED"/corpus/*.smv; do [ -f "$f" ] && models+=("$f"); done
models+=("$ROOT/tests/models/scr_sis.smv" "$ROOT/tests/models/car_alarm.smv"
         "$ROOT/tests/models/mutation_testing.smv")

echo "== check --all --bound $BOUND$([ "$SAMPLE" != 0 ] && echo " --sample $SAMPLE"), cap ${CAP}s a run, CPU seconds"
echo "   on: --method auto (BDDs first); off: --method smt; ratio = off / on (time per mutant)"
printf '%-52s %5s | %-28s | %-28s | %6s\n' model mut "on: dec surv unk s/mut" \
    "off: dec surv unk s/mut" ratio
samp=()
[ "$SAMPLE" != 0 ] && samp=(--sample "$SAMPLE")
for f in "${models[@]}"; do
    b=$(basename "$f" .smv)
    bn=$b
    [ ${#b} -gt 52 ] && bn=${b: -52}
    wanted "$b" || continue
    "$BIN" model check "$f" > /dev/null 2>&1 || continue
    on=$(cpu "$TMP/on" "$BIN" check "$f" --all --bound "$BOUND" "${samp[@]}")
    off=$(cpu "$TMP/off" "$BIN" check "$f" --all --bound "$BOUND" "${samp[@]}" \
        --method smt)
    read -r n1 d1 s1 u1 <<< "$(counts "$TMP/on")"
    read -r n2 d2 s2 u2 <<< "$(counts "$TMP/off")"
    fmt() { # n dec surv unk cpu
        if [ -z "$1" ]; then printf '%-28s' "cap (${CAP}s)"; return; fi
        printf '%5s %5s %4s %11.4f' "$2" "$3" "$4" \
            "$(awk -v c="$5" -v n="$1" 'BEGIN { print c / (n ? n : 1) }')"
    }
    ratio=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.1f", (a > 0 ? b / a : 0) }')
    printf '%-52.52s %5s | %s | %s | %6s\n' "$bn" "${n1:-${n2:-?}}" \
        "$(fmt "${n1:-}" "${d1:-}" "${s1:-}" "${u1:-}" "$on")" \
        "$(fmt "${n2:-}" "${d2:-}" "${s2:-}" "${u2:-}" "$off")" "$ratio"
    cp "$TMP/on" "$TMP/on.$b"
    awk -v c="$on" -v n="${n1:-0}" 'BEGIN { print c / (n ? n : 1) }' > "$TMP/t.$b"
done

echo
if [ -z "${NUSMV:-}" ] || [ ! -x "${NUSMV:-}" ]; then
    echo "== NuSMV: no NuSMV (set NUSMV=path to a NuSMV 2.6 binary); skipped"
    exit 0
fi
echo "== NuSMV ($NUSMV) on the same mutants: original x mutant, shared IVARs,"
echo "   INVARSPEC on the observables, one process per mutant (models whose"
echo "   inputs are all IVARs); CPU seconds per mutant"
echo "   k/true: mutfarm kills that NuSMV finds the INVARSPEC true for (a"
echo "   refusal kill, which the product cannot express, or a disagreement:"
echo "   look at the test)"
printf '%-52s %5s %10s %10s %7s %6s %6s\n' model mut mutfarm NuSMV ratio agree k/true
for f in "${models[@]}"; do
    b=$(basename "$f" .smv)
    bn=$b
    [ ${#b} -gt 52 ] && bn=${b: -52}
    [ -f "$TMP/on.$b" ] || continue
    info=$("$BIN" model check "$f")
    ivars=$(awk '/^inputs:/ { $1 = ""; print }' <<< "$info")
    obs=$(awk '/^observables:/ { $1 = ""; print }' <<< "$info")
    "$BIN" model print "$f" > "$TMP/o.smv"
    # Input VARs (not IVARs) cannot be shared this way.
    nin=$(wc -w <<< "$ivars")
    niv=$(awk '/^IVAR/ { f = 1; next } /^[A-Z]/ { f = 0 } f && /:/ { n++ } END { print n + 0 }' "$TMP/o.smv")
    [ "$nin" = "$niv" ] || { echo "$b: input VARs; skipped"; continue; }
    args=$(tr ' ' ',' <<< "$ivars" | sed 's/^,//; s/,$//')
    decls=$(awk '/^IVAR/ { f = 1; next } /^[A-Z]/ { f = 0 } f' "$TMP/o.smv")
    module() { # module NAME FILE: the model as a module over the IVARs
        awk -v name="$1" -v args="$args" '
            /^MODULE main/ { print "MODULE " name "(" args ")"; next }
            /^IVAR/ { skip = 1; next }
            /^[A-Z]/ { skip = 0 }
            !skip' "$2"
    }
    spec=$(for o in $obs; do printf ' & o.%s = m.%s' "$o" "$o"; done | sed 's/^ & //')
    n=0 agree=0 refus=0 t=0
    while read -r id op verdict rest; do
        case "$id" in [0-9a-f]*) ;; *) continue ;; esac
        [ ${#id} = 16 ] || continue
        "$BIN" mutants show "$f" "$id" > "$TMP/m.smv" 2>/dev/null || continue
        { module m_orig "$TMP/o.smv"; module m_mut "$TMP/m.smv"
          echo "MODULE main"; echo "IVAR"; echo "$decls"
          echo "VAR o : m_orig($args); m : m_mut($args);"
          echo "INVARSPEC $spec"; } > "$TMP/p.smv"
        s=$(cpu "$TMP/nusmv.out" "$NUSMV" -dcx "$TMP/p.smv")
        t=$(awk -v a="$t" -v b="$s" 'BEGIN { print a + b }')
        n=$((n + 1))
        if grep -q 'is false' "$TMP/nusmv.out"; then nv=killed
        elif grep -q 'is true' "$TMP/nusmv.out"; then nv=other
        else nv=error; fi
        case "$verdict" in
        killed) if [ "$nv" = killed ]; then agree=$((agree + 1))
                elif [ "$nv" = other ]; then refus=$((refus + 1)); fi ;;
        *) [ "$nv" = other ] && agree=$((agree + 1)) ;;
        esac
    done < "$TMP/on.$b"
    mt=$(cat "$TMP/t.$b")
    nt=$(awk -v t="$t" -v n="$n" 'BEGIN { print t / (n ? n : 1) }')
    printf '%-52.52s %5s %10.4f %10.3f %7.1f %6s %6s\n' "$bn" "$n" "$mt" "$nt" \
        "$(awk -v a="$mt" -v b="$nt" 'BEGIN { print (a > 0 ? b / a : 0) }')" \
        "$agree/$n" "$refus"
done
