#!/usr/bin/env bash
# farm_stall.sh - a coordinator that stalls does not declare live workers
# dead: SIGSTOPped for 3 s (three times its liveness of 4 x 250 ms) while
# two workers hold jobs and keep heartbeating, then SIGCONTed. Their
# heartbeats wait unread in the socket; on waking the coordinator must
# hear them before it judges anyone silent. No worker is declared dead,
# no lease goes back to the queue (no job is leased twice), the stall is
# logged ("deaf for N ms"), the campaign completes and the store passes
# PRAGMA integrity_check.
#
# The workers' own liveness is long (40 x 250 ms): they keep their
# connection through the stall instead of reconnecting, so what is
# tested is the coordinator's judgement of heartbeats it has not read.
. "$(dirname "$0")/farm_common.sh"
export MF_TEST_MUTANT_MS=100 # jobs still running across the stall

ep=$(free_endpoint)
DB=$WORK/s.db
bg coord "$MF_BIN" coordinator "$MODEL" --db "$DB" --bind "$ep" --bound 2 \
    --operators "$OPS_MEDIUM" --config "$CONF"
for w in w1 w2; do
    bg "$w" "$MF_BIN" worker --connect "$ep" --threads 1 --id "$w" \
        --heartbeat 250 --liveness 40
done
coord=$(child_of "$PID_coord")

both_hold() {
    [ "$(q "$DB" "SELECT count(DISTINCT worker_id) FROM jobs
                  WHERE state = 'leased'" 2>/dev/null)" = 2 ]
}
if wait_for 60 both_hold; then
    before=$(decided_count "$DB")
    kill -STOP "$coord"
    sleep 3
    kill -CONT "$coord"
    ok "coordinator stopped for 3 s with both workers holding jobs" \
        "($before mutants decided before)"
else
    fail "the two workers never held jobs at once: $(tail -3 "$WORK/coord.err")"
fi

expect_exit0 coord "$LIMIT" "the campaign completes after the stall"
expect_exit0 w1 30 "worker w1 exits with the campaign"
expect_exit0 w2 30 "worker w2 exits with the campaign"
if grep -q 'declared dead' "$WORK/coord.err"; then
    fail "a worker was declared dead: $(grep 'declared dead' "$WORK/coord.err" | head -2)"
else
    ok "no worker declared dead"
fi
if grep -q 'back in the queue' "$WORK/coord.err"; then
    fail "leases back in the queue: $(grep 'back in the queue' "$WORK/coord.err" | head -2)"
else
    ok "no lease back in the queue"
fi
twice=$(q "$DB" 'SELECT count(*) FROM jobs WHERE attempts > 1')
[ "$twice" = 0 ] && ok "no job leased twice" || fail "$twice job(s) leased twice"
grep -Eq 'deaf for [0-9]+ ms' "$WORK/coord.err" &&
    ok "the stall is logged: $(grep -Eo 'deaf for [0-9]+ ms' "$WORK/coord.err" | head -1)" ||
    fail "no 'deaf for N ms' in the coordinator's log"
check_store "$DB"
finish
