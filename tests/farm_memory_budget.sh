#!/usr/bin/env bash
# farm_memory_budget.sh - Z3's memory budget per solver thread (issue 22,
# point 7; [engine] memory_mb, --memory-mb): a campaign under a budget too
# small for any bit-vector check gets `unknown` verdicts that say so, and
# its worker lives on to the end (no death, no restart); the same campaign
# without a budget decides those mutants. `mutfarm check` takes the flag
# too, and the budget is part of the campaign's options.
. "$(dirname "$0")/farm_common.sh"

CAR=$(dirname "$MODEL")/car_alarm.smv # a bit-vector encoding
ARGS=(--bound 2 --operators "$OPS_SMALL" --sample 40 --config "$CONF" --workers 1
      --method smt) # the solver: the BDDs decide car_alarm without Z3

"$MF_BIN" run "$CAR" --db "$WORK/m.db" "${ARGS[@]}" --memory-mb 1 \
    >"$WORK/m.out" 2>"$WORK/m.err"
code=$?
[ $code = 0 ] && ok "the campaign under a 1 MiB budget completes, exit 0" ||
    fail "run --memory-mb 1: exit $code: $(tail -3 "$WORK/m.err")"
grep -q 'died' "$WORK/m.err" && fail "a worker died: $(grep died "$WORK/m.err" | head -2)" ||
    ok "no worker died"
n=$(q "$WORK/m.db" "SELECT count(*) FROM verdicts WHERE kind = 'unknown'
                    AND reason LIKE 'over the memory budget%'")
[ "$n" -gt 0 ] && ok "$n mutants unknown: '$(q "$WORK/m.db" "SELECT reason FROM verdicts WHERE reason LIKE 'over the memory%' LIMIT 1")'" ||
    fail "no unknown verdict over the memory budget: $(q "$WORK/m.db" 'SELECT kind, count(*) FROM verdicts GROUP BY kind')"
check_store "$WORK/m.db"
q "$WORK/m.db" 'SELECT options FROM campaigns' | grep -q '"memory_mb":1' &&
    ok "the budget is in the campaign's options" || fail "options: $(q "$WORK/m.db" 'SELECT options FROM campaigns')"

"$MF_BIN" run "$CAR" --db "$WORK/n.db" "${ARGS[@]}" >/dev/null 2>"$WORK/n.err" ||
    fail "the run without a budget failed: $(tail -3 "$WORK/n.err")"
n0=$(q "$WORK/n.db" "SELECT count(*) FROM verdicts WHERE reason LIKE '%memory%'")
k0=$(q "$WORK/n.db" "SELECT count(*) FROM verdicts WHERE kind = 'killed'")
k1=$(q "$WORK/m.db" "SELECT count(*) FROM verdicts WHERE kind = 'killed'")
[ "$n0" = 0 ] && [ "$k0" -gt "$k1" ] &&
    ok "without a budget: no memory unknowns, $k0 killed (vs $k1)" ||
    fail "without a budget: $n0 memory unknowns, $k0 killed (vs $k1)"

out=$("$MF_BIN" check "$CAR" --all --bound 2 --operators negate --sample 5 --memory-mb 1 --method smt 2>&1)
echo "$out" | grep -q 'unknown *over the memory budget' &&
    ok "check --memory-mb 1 says unknown, over the memory budget" ||
    fail "check --memory-mb 1: $(echo "$out" | head -5)"
"$MF_BIN" check "$CAR" --all --memory-mb x >/dev/null 2>"$WORK/err"
[ $? = 1 ] && grep -q -- '--memory-mb needs MiB' "$WORK/err" && ok "check --memory-mb x: exit 1" ||
    fail "check --memory-mb x: $(cat "$WORK/err")"
finish
