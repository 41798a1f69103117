#!/usr/bin/env bash
# rerun_progress.sh - unattended runs (docs/running.md): with stderr not a
# terminal, `mutfarm run` writes a progress line every --progress-interval
# seconds (done/total, rate, ETA, and what was carried or killed by
# replayed tests), never a redrawn one; [farm] progress_s = 0 turns them
# off; a bad interval is a usage error. The workers are slowed by the
# test hook MF_TEST_MUTANT_MS so that the run lasts a few seconds.
. "$(dirname "$0")/farm_common.sh"
export MF_TEST_MUTANT_MS=100

db=$WORK/p.db
args=(--bound 2 --operators "$OPS_SMALL" --workers 1 --config "$CONF")
bg run "$MF_BIN" run "$MODEL" "${args[@]}" --db "$db" --progress-interval 1
wait_exit "$PID_run" "$LIMIT"
code=$?
[ $code = 0 ] || fail "run: exit $code: $(tail -3 "$WORK/run.err")"
pat='mutfarm run: campaign 1: [0-9]+/[0-9]+ decided \([0-9.]+%\): .*[0-9.]+/s, ETA [0-9?hms]+.*worker'
n=$(grep -cE "$pat" "$WORK/run.err")
[ "$n" -ge 2 ] && ok "$n progress lines on a stderr that is not a terminal" ||
    fail "$n progress lines: $(cat "$WORK/run.err")"
grep -q $'\r' "$WORK/run.err" && fail "a redrawn progress line on a file" ||
    ok "no redrawn line"
total=$(q "$db" "SELECT total FROM campaign_scores WHERE campaign_id = 1")
grep -E "$pat" "$WORK/run.err" | tail -1 | grep -qE " [0-9]+/$total decided" &&
    ok "lines count the $total mutants to decide" ||
    fail "last line: $(grep -E "$pat" "$WORK/run.err" | tail -1)"

# The edited model on the same store: the lines say what the replay did.
mkdir -p "$WORK/edit"
sed 's/inp = fill & wtr = 0 : 2;/inp = fill \& wtr = 0 : 1;/' "$MODEL" \
    >"$WORK/edit/beverage.smv"
bg edit "$MF_BIN" run "$WORK/edit/beverage.smv" "${args[@]}" --db "$db" \
    --progress-interval 1
wait_exit "$PID_edit" "$LIMIT" || fail "edit run: $(tail -3 "$WORK/edit.err")"
replayed=$(q "$db" "SELECT replay_killed FROM campaign_reuse WHERE campaign_id = 2")
grep -qE "campaign 2: .*; 0 carried, $replayed killed by replayed tests, [0-9]+ to the workers" \
    "$WORK/edit.err" && ok "progress lines give the $replayed replayed kills" ||
    fail "no replay counts in: $(grep decided "$WORK/edit.err" | head -2)"

printf '[farm]\nheartbeat_ms = 250\nliveness = 4\nprogress_s = 0\n' >"$WORK/quiet.conf"
bg quiet "$MF_BIN" run "$MODEL" --bound 2 --operators "$OPS_SMALL" --workers 1 \
    --config "$WORK/quiet.conf" --db "$WORK/q.db"
wait_exit "$PID_quiet" "$LIMIT" || fail "quiet run: $(tail -3 "$WORK/quiet.err")"
grep -q ' decided (' "$WORK/quiet.err" && fail "progress lines with progress_s = 0" ||
    ok "[farm] progress_s = 0: no progress lines"

timeout 30 "$MF_BIN" run "$MODEL" --progress-interval soon --db "$WORK/x.db" \
    >/dev/null 2>"$WORK/bad.err"
code=$?
[ $code = 1 ] && grep -q 'progress-interval' "$WORK/bad.err" &&
    ok "--progress-interval soon: exit 1 naming the flag" ||
    fail "--progress-interval soon: exit $code: $(cat "$WORK/bad.err")"
finish
