#!/usr/bin/env bash
# farm_reconnect.sh - workers and coordinators that come and go:
#  1. a worker started before its coordinator connects once the coordinator
#     is up, and the campaign completes;
#  2. a coordinator whose only worker dies (SIGKILL) declares it dead,
#     waits (does not exit, hands nothing out) while it has no worker, and
#     resumes when a new worker comes.
. "$(dirname "$0")/farm_common.sh"
# Each mutant 30 ms longer in the workers (test hook, docs/running.md):
# however fast the engine, the kill of the only worker lands mid-campaign.
export MF_TEST_MUTANT_MS=30

ARGS=(--bound 3 --operators "$OPS_MEDIUM" --config "$CONF")

# ---- 1: worker first ---------------------------------------------------------
ep=$(free_endpoint)
bg_worker early "$ep" 2
sleep 2
kill -0 "$PID_early" 2>/dev/null && ok "a worker with no coordinator waits" ||
    fail "the worker gave up without a coordinator: $(tail -2 "$WORK/early.err")"
bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/a.db" --bind "$ep" \
    --bound 2 --operators "$OPS_SMALL" --config "$CONF"
expect_exit0 coord "$LIMIT" "the coordinator that came second completes, exit 0"
expect_exit0 early 30 "the early worker exits 0 on bye"
n=$(q "$WORK/a.db" "SELECT count(*) FROM verdicts WHERE worker_id = 'early'")
[ "$n" -gt 0 ] && ok "the early worker decided all $n mutants" || fail "no verdict by it"
check_store "$WORK/a.db"

# ---- 2: every worker dies, one comes back ------------------------------------
ep=$(free_endpoint)
bg coord2 "$MF_BIN" coordinator "$MODEL" --db "$WORK/b.db" --bind "$ep" "${ARGS[@]}"
bg_worker lone "$ep"
lone=$(child_of "$PID_lone")
if ! wait_for 120 at_least_decided "$WORK/b.db" 5; then
    fail "no progress with the first worker: $(tail -3 "$WORK/coord2.err")"
    finish
fi
kill -KILL "$lone"
dead() { grep -q 'worker lone silent for .* declared dead' "$WORK/coord2.err"; }
wait_for 20 dead && ok "the coordinator declared its only worker dead" ||
    fail "no death line: $(tail -3 "$WORK/coord2.err")"
n1=$(verdict_rows "$WORK/b.db")
sleep 3
n2=$(verdict_rows "$WORK/b.db")
if kill -0 "$PID_coord2" 2>/dev/null && [ "$n1" = "$n2" ]; then
    ok "with no worker it waits ($n2 verdicts, nothing leased: $(q "$WORK/b.db" \
        "SELECT count(*) FROM jobs WHERE state = 'leased'"))"
else
    fail "without workers: alive? $(kill -0 "$PID_coord2" 2>/dev/null && echo yes || echo no), verdicts $n1 -> $n2"
fi
total=$(q "$WORK/b.db" "SELECT total FROM campaign_scores")
[ "$n2" -lt "$total" ] || fail "campaign already complete; part 2 tested nothing"
bg_worker back "$ep" 2
expect_exit0 coord2 "$LIMIT" "a returning worker lets it finish, exit 0"
expect_exit0 back 30 "the new worker exits 0 on bye"
check_store "$WORK/b.db"
finish
