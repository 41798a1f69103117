#!/usr/bin/env bash
# rerun_coordinator.sh - a coordinator started on a store whose campaign
# of the same model and options is complete (docs/nightly.md): it plans a
# new campaign, carries every verdict over, and exits 0 complete without
# waiting for a worker (none is started here; one that waited would be
# killed by the time limit and fail the test).
. "$(dirname "$0")/farm_common.sh"

db=$WORK/coord.db
args=(--bound 4 --operators "$OPS_SMALL" --config "$CONF" --db "$db")
bg run "$MF_BIN" run "$MODEL" --workers 2 "${args[@]}"
wait_exit "$PID_run" "$LIMIT"
code=$?
[ $code = 0 ] && ok "the first campaign is complete" ||
    fail "run: exit $code: $(tail -3 "$WORK/run.err")"
total=$(q "$db" "SELECT total FROM campaign_scores WHERE campaign_id = 1")

port=$(free_port)
bg coord "$MF_BIN" coordinator "$MODEL" --bind "tcp://127.0.0.1:$port" "${args[@]}"
wait_exit "$PID_coord" 60
code=$?
[ $code = 0 ] && ok "the coordinator exits 0 with no worker connected" ||
    fail "coordinator: exit $code (124: it waited): $(tail -3 "$WORK/coord.err")"
grep -q 'campaign 2: complete' "$WORK/coord.out" &&
    ok "it reports campaign 2 complete" || fail "summary: $(cat "$WORK/coord.out")"
grep -q "$total carried, 0 killed by its replayed tests; 0 sent to the solver" \
    "$WORK/coord.out" && ok "all $total carried, 0 sent to the solver" ||
    fail "summary: $(cat "$WORK/coord.out")"
if grep -q 'waiting for workers' "$WORK/coord.err"; then
    fail "it said it was waiting for workers"
else
    ok "it never waited for workers"
fi
r=$(q "$db" "SELECT c.state, r.to_solver, (SELECT count(*) FROM jobs
             WHERE campaign_id = 2) FROM campaigns c
             JOIN campaign_reuse r ON r.campaign_id = c.id WHERE c.id = 2")
[ "$r" = "done|0|0" ] && ok "campaign 2 is done with no job" ||
    fail "campaign 2: state|to_solver|jobs = $r"
check_store "$db"
finish
