#!/bin/bash
# ta.sh - the timed engine (issue 33) on the paper's subject and on the
# shared UPPAAL models, in one run:
#  1. the car alarm system (the Ecdar CAS) with every mutant generated
#     (--no-prune) and checked: per operator, mutants, non-subsumed
#     (killed), subsumed (subsumed or equivalent), unknown, pruned by the
#     rules, pruned but killable (must be 0) and the ratio of subsumed
#     mutants the rules avoid, beside the paper's Table 2;
#  2. speed on the CAS: the median seconds per checked mutant on one
#     thread, and the whole CAS (pruned, as a user runs it) on one thread
#     against two, with the ratio;
#  3. per shared UPPAAL model: mutants, pruned, killed, equivalent,
#     survived (subsumed), unknown, seconds; or the one line of refusal.
# usage: bench/ta.sh [MUTFARM]   (default build/mutfarm)
# env: MODELS (substrings: only those UPPAAL models), CAP (seconds per run,
#      600), MAXS (symbolic states per product on the UPPAAL models,
#      20000; the CAS runs at the default)
set -u
BIN=${1:-${MF_BIN:-build/mutfarm}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${MF_SHARED_MODELS:-$ROOT/../shared/models}
CAP=${CAP:-600}
MAXS=${MAXS:-20000}
CAS=$SHARED/ecdar/CarAlarm
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

echo "== 1. CAS: every mutant generated and checked (--no-prune)"
timeout "$CAP" "$BIN" check "$CAS" --all --no-prune --quiet --threads 2 \
    >"$TMP/cas.txt" 2>"$TMP/cas.err"
echo "exit $? ($(grep -c . "$TMP/cas.txt") mutant lines)"
# lines: ID OP VERDICT [(pruned by rule N...)] ...
awk '
BEGIN {
    # the paper: mutants, non-subsumed, subsumed+redundant, violating,
    # ratio
    p["tmi"] = "88 71 17 17 100%"; p["tad"] = "578 247 331 289 87%"
    p["smi"] = "16 7 9 8 89%";     p["cxl"] = "20 14 6 6 100%"
    p["cxs"] = "13 6 7 6 86%";     p["ccn"] = "6 6 0 0 -"
    p["total"] = "721 351 370 326 88%"
}
$3 == "duplicate" || $3 == "stillborn" { dup[$2]++; next }
{
    op = $2
    # "total": the six operators of the paper; "all": every operator
    paper = (op ~ /^(tmi|tad|smi|cxl|cxs|ccn)$/)
    pr = ($0 ~ /pruned by rule/)
    split(op " all" (paper ? " total" : ""), keys, " ")
    for (i = 1; i in keys; i++) {
        x = keys[i]
        n[x]++
        if ($3 == "killed") k[x]++
        else if ($3 == "subsumed" || $3 == "equivalent") {
            s[x]++
            if (pr) ps[x]++
        } else u[x]++
        if (pr) pru[x]++
        if (pr && $3 == "killed") bad[x]++
    }
    delete keys
}
END {
    printf "%-18s | %-29s | %s\n", "", "paper (Ecdar, 721 mutants)",
        "mutfarm (this CAS, Ecdar JSON)"
    printf "%-18s | %5s %5s %5s %5s %5s | %5s %5s %5s %5s %5s %7s %5s\n",
        "operator", "mut", "non", "sub", "viol", "avoid",
        "mut", "non", "sub", "unkn", "prun", "prn-kil", "avoid"
    split("tmi tad smi cxl cxs ccn total edge-target sync-channel reset-flip guard-negate invariant-constant int-update all", ops, " ")
    for (i = 1; i in ops; i++) {
        op = ops[i]
        if (!(op in n) && !(op in p)) continue
        split(op in p ? p[op] : "- - - - -", q, " ")
        ratio = s[op] ? sprintf("%d%%", 100 * ps[op] / s[op]) : "-"
        printf "%-18s | %5s %5s %5s %5s %5s | %5d %5d %5d %5d %5d %7d %5s\n",
            op, q[1], q[2], q[3], q[4], q[5], n[op], k[op], s[op], u[op],
            pru[op], bad[op], ratio
    }
    printf "(total: the six operators of the paper; all: every operator;\n"
    printf " non = killed with a replayed test; sub = proved subsumed or"
    printf " equivalent; avoid = pruned and subsumed / subsumed;\n"
    printf " prn-kil = pruned by a rule yet killed: must be 0)\n"
}' "$TMP/cas.txt"

echo
echo "== 2. CAS speed"
"$BIN" check "$CAS" --all --quiet --threads 1 --stats \
    >/dev/null 2>"$TMP/one.err"
grep "timed check" "$TMP/one.err" | sed 's/^/one thread:  /'
t0=$(now)
"$BIN" check "$CAS" --all --quiet --threads 1 >/dev/null 2>&1
t1=$(now)
"$BIN" check "$CAS" --all --quiet --threads 2 >/dev/null 2>&1
t2=$(now)
w1=$(secs "$t0" "$t1")
w2=$(secs "$t1" "$t2")
echo "whole CAS (pruned): 1 thread ${w1} s, 2 threads ${w2} s, ratio $(
    awk -v a="$w1" -v b="$w2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')"

echo
echo "== 3. the shared UPPAAL models (pruned, as a user runs them;" \
    "--max-states $MAXS)"
printf "%-44s %7s %6s %6s %6s %6s %6s %7s\n" model mutants pruned killed \
    equiv surv unknown seconds
for f in "$SHARED"/uppaal/*.xml; do
    name=$(basename "$f" .xml)
    if [ -n "${MODELS:-}" ]; then
        keep=0
        for m in $MODELS; do case $name in *"$m"*) keep=1 ;; esac; done
        [ $keep = 1 ] || continue
    fi
    t0=$(now)
    timeout "$CAP" "$BIN" check "$f" --all --quiet --threads 2 \
        --max-states "$MAXS" >"$TMP/u.txt" 2>"$TMP/u.err"
    rc=$?
    t1=$(now)
    short=${name##*__}
    if [ $rc != 0 ] && [ ! -s "$TMP/u.txt" ]; then
        printf "%-44s %s\n" "$short" "$(head -1 "$TMP/u.err" | sed "s|.*/||" | cut -c1-100)"
        continue
    fi
    awk -v m="$short" -v s="$(secs "$t0" "$t1")" '
        $3 == "duplicate" || $3 == "stillborn" { next }
        { n++ }
        $3 == "pruned" { p++ }
        $3 == "killed" { k++ }
        $3 == "equivalent" { e++ }
        $3 == "subsumed" { su++ }
        $3 == "unknown" { u++ }
        END { printf "%-44s %7d %6d %6d %6d %6d %6d %7s\n", m, n, p, k, e,
              su, u, s }' "$TMP/u.txt"
done
