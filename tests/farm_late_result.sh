#!/usr/bin/env bash
# farm_late_result.sh - valid late work is taken (issue 22, point 5): a
# worker's result of a job that a restarted coordinator already handed
# out again, but that is not finished, is committed (first valid result
# wins); the re-run's lease is cancelled and its own result later ignored;
# nothing is stored twice and the verdicts equal an undisturbed run's.
#
# How the late result comes about, with real processes: w1 (400 ms per
# mutant, jobs of 8) holds a job when the coordinator is SIGKILLed; a new
# coordinator puts the job back and hands it to w2 (1000 ms per mutant)
# as attempt 2; w1 reconnects meanwhile and sends its attempt 1 while w2
# is still at it.
. "$(dirname "$0")/farm_common.sh"

cat >>"$CONF" <<'EOF2'
job_min = 8
job_max = 8
EOF2
ARGS=(--bound 2 --operators "$OPS_SMALL" --config "$CONF")
ep=$(free_endpoint)

bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/f.db" --bind "$ep" "${ARGS[@]}"
MF_TEST_MUTANT_MS=400 bg_worker w1 "$ep"
coord=$(child_of "$PID_coord")
leased() { [ "$(q "$WORK/f.db" "SELECT count(*) FROM jobs WHERE state = 'leased'" 2>/dev/null)" -ge 1 ]; }
if ! wait_for 60 leased; then
    fail "w1 never got a job: $(tail -3 "$WORK/coord.err")"
    finish
fi
job=$(q "$WORK/f.db" "SELECT id FROM jobs WHERE state = 'leased' AND worker_id = 'w1'")
kill -KILL "$coord"
{ wait "$PID_coord"; } 2>/dev/null
ok "coordinator killed while w1 holds job $job (attempt 1)"

bg coord2 "$MF_BIN" coordinator "$MODEL" --db "$WORK/f.db" --bind "$ep" "${ARGS[@]}"
MF_TEST_MUTANT_MS=1000 bg_worker w2 "$ep"
expect_exit0 coord2 "$LIMIT" "the restarted coordinator completes"
expect_exit0 w1 30 "w1 exits 0 on bye"
expect_exit0 w2 30 "w2 exits 0 on bye"

grep -q "took the late result of job $job (attempt 1) from worker w1; the lease of its re-run by worker w2 is cancelled" \
    "$WORK/coord2.err" && ok "job $job: w1's late result taken, w2's lease cancelled" ||
    fail "no late result taken: $(grep -E "job $job|late" "$WORK/coord2.err" | head -5)"
grep -q "ignored a result of job $job (attempt 2) from worker w2: job $job is already done" \
    "$WORK/coord2.err" && ok "w2's result of attempt 2 ignored as a duplicate" ||
    fail "w2's result of job $job: $(grep "job $job" "$WORK/coord2.err" | head -5)"
r=$(q "$WORK/f.db" "SELECT attempts, worker_id FROM jobs WHERE id = $job")
[ "$r" = "2|w1" ] && ok "job $job: 2 attempts, done by w1" || fail "job $job: $r"
n=$(q "$WORK/f.db" "SELECT count(*) FROM verdicts WHERE job_id = $job AND attempt = 1 AND worker_id = 'w1'")
nmut=$(q "$WORK/f.db" "SELECT nmut FROM jobs WHERE id = $job")
[ "$n" = "$nmut" ] && ok "its $n verdicts are attempt 1's" || fail "$n of $nmut verdicts from attempt 1"
check_store "$WORK/f.db"

# The same campaign undisturbed.
"$MF_BIN" run "$MODEL" --db "$WORK/u.db" --workers 1 "${ARGS[@]}" >/dev/null 2>"$WORK/u.err" ||
    fail "the undisturbed run failed: $(tail -2 "$WORK/u.err")"
verdict_set "$WORK/f.db" >"$WORK/f.set"
verdict_set "$WORK/u.db" >"$WORK/u.set"
cmp -s "$WORK/f.set" "$WORK/u.set" && ok "verdicts equal the undisturbed run's ($(wc -l <"$WORK/u.set") mutants)" ||
    fail "verdicts differ: $(diff "$WORK/f.set" "$WORK/u.set" | head -5)"
finish
