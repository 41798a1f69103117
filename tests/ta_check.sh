#!/usr/bin/env bash
# ta_check.sh - `mutfarm check` on timed models (issue 33, docs/timed.md):
# - the Ecdar car alarm system: every mutant generated (--no-prune) is
#   decided (none unknown), every mutant the paper's rules prune is proved
#   subsumed or equivalent (none killed), and the random timed walks of
#   the simulator find no kill of a mutant proved subsumed or equivalent;
# - five more shared models (four learned single automata and the coffee
#   machine network): the same (none unknown), with the kills of each
#   replayed by the
#   simulator before they are printed, so that every "killed" below is a
#   test the simulator confirmed; each model has kills;
# - the pruned run (the default) prints the rule of each pruned mutant,
#   --summary counts them per operator;
# - bad input: an unknown operator and an unknown channel are one line and
#   exit 1.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
S=${MF_SHARED_MODELS:-../shared/models}
[ -d "$S/ecdar/CarAlarm" ] || { echo "SKIP: no shared models"; exit 77; }
fail=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

check_all() { # check_all NAME PATH: every mutant, pruned ones checked too
    local name=$1 path=$2
    "$MF_BIN" check "$path" --all --no-prune --quiet --cross-check \
        --threads 2 >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    if [ "$rc" != 0 ]; then
        echo "FAIL: $name: exit $rc"
        head -5 "$TMP/err"
        grep -E "VIOLATED|CROSS-CHECK" "$TMP/out" | head -5
        fail=1
    fi
    local bad
    bad=$(grep -c "pruned by rule.*killed\|killed (pruned" "$TMP/out")
    [ "$bad" = 0 ] || { echo "FAIL: $name: $bad pruned mutants killed"; fail=1; }
    local kills unknown
    kills=$(awk '$3 == "killed"' "$TMP/out" | wc -l)
    [ "$kills" -gt 0 ] || { echo "FAIL: $name: no kill"; fail=1; }
    unknown=$(awk '$3 == "unknown"' "$TMP/out" | wc -l)
    [ "$unknown" = 0 ] || { echo "FAIL: $name: $unknown unknown"; fail=1; }
    echo "$name: $(awk '{print $3}' "$TMP/out" | sort | uniq -c | tr -s ' \n' ' ')"
}

check_all CarAlarm "$S/ecdar/CarAlarm"
pruned=$(grep -c "pruned by rule" "$TMP/out")
[ "$pruned" -gt 200 ] || { echo "FAIL: CarAlarm: only $pruned pruned"; fail=1; }

U=$S/uppaal
for m in CAS_diamond CAS_rest light train coffee_system; do
    f=$(ls "$U"/*__"$m".xml 2>/dev/null | head -1)
    [ -n "$f" ] || { echo "FAIL: no shared model $m"; fail=1; continue; }
    check_all "$m" "$f"
done

# the default run prunes: a pruned line names its rule
out=$("$MF_BIN" check "$S/ecdar/CarAlarm" --all --operators tmi 2>&1)
grep -q " tmi pruned by rule 2 " <<< "$out" ||
    { echo "FAIL: no TMI pruned by rule 2 in:"; echo "$out" | head; fail=1; }
out=$("$MF_BIN" check "$S/ecdar/CarAlarm" --all --summary 2>&1)
grep -qE "^tad +[0-9]+ +[1-9][0-9]* " <<< "$out" ||
    { echo "FAIL: --summary counts no pruned TAD:"; echo "$out"; fail=1; }

# bad input: one line, exit 1
out=$("$MF_BIN" check "$S/ecdar/CarAlarm" --all --operators nosuch 2>&1)
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <<< "$out")" = 1 ] ||
    { echo "FAIL: unknown operator: exit $rc: $out"; fail=1; }
out=$("$MF_BIN" check "$U"/*__light.xml --all --outputs nosuch 2>&1)
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <<< "$out")" = 1 ] ||
    { echo "FAIL: unknown channel: exit $rc: $out"; fail=1; }

[ $fail = 0 ] && echo "ta_check.sh: passed"
exit $fail
