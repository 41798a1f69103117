#!/usr/bin/env bash
# farm_same.sh - `mutfarm run` (coordinator + 2 local workers over ipc://)
# and `mutfarm coordinator` + 2 separate `mutfarm worker` processes over
# tcp on the loopback give the same verdict for every mutant of the same
# model, options and bound; both stores pass PRAGMA integrity_check and
# hold exactly one final verdict per mutant.
. "$(dirname "$0")/farm_common.sh"
# Each mutant 20 ms longer in the workers (test hook, docs/running.md):
# however fast the engine, both workers get jobs.
export MF_TEST_MUTANT_MS=20

ARGS=(--bound 2 --operators "$OPS_SMALL" --config "$CONF")

# 1. Embedded: mutfarm run.
bg run "$MF_BIN" run "$MODEL" --db "$WORK/run.db" --workers 2 "${ARGS[@]}"
wait_exit "$PID_run" "$LIMIT"
code=$?
[ $code = 0 ] && ok "mutfarm run exits 0" ||
    fail "mutfarm run: exit $code: $(tail -3 "$WORK/run.err")"
grep -q 'mutation score' "$WORK/run.out" && ok "run prints its summary" ||
    fail "run summary missing"
check_store "$WORK/run.db"

# 2. Distributed: a coordinator on a tcp port and two worker processes.
port=$(free_port)
bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/tcp.db" \
    --bind "tcp://127.0.0.1:$port" "${ARGS[@]}"
bg w1 "$MF_BIN" worker --connect "tcp://127.0.0.1:$port" --threads 1 \
    --id w1 --heartbeat 250 --liveness 4
bg w2 "$MF_BIN" worker --connect "tcp://127.0.0.1:$port" --threads 1 \
    --id w2 --heartbeat 250 --liveness 4
wait_exit "$PID_coord" "$LIMIT"
code=$?
[ $code = 0 ] && ok "coordinator exits 0 once complete" ||
    fail "coordinator: exit $code: $(tail -3 "$WORK/coord.err")"
for w in w1 w2; do
    pid_var=PID_$w
    wait_exit "${!pid_var}" 30
    code=$?
    [ $code = 0 ] && ok "worker $w exits 0 on the coordinator's bye" ||
        fail "worker $w: exit $code: $(tail -2 "$WORK/$w.err")"
done
check_store "$WORK/tcp.db"
jobs_w1=$(q "$WORK/tcp.db" "SELECT count(*) FROM verdicts WHERE worker_id = 'w1'")
jobs_w2=$(q "$WORK/tcp.db" "SELECT count(*) FROM verdicts WHERE worker_id = 'w2'")
[ "$jobs_w1" -gt 0 ] && [ "$jobs_w2" -gt 0 ] &&
    ok "both workers decided mutants ($jobs_w1 and $jobs_w2)" ||
    fail "work not shared: w1 $jobs_w1, w2 $jobs_w2"

# 3. The same verdict set.
verdict_set "$WORK/run.db" >"$WORK/run.set"
verdict_set "$WORK/tcp.db" >"$WORK/tcp.set"
n=$(wc -l <"$WORK/run.set")
if [ "$n" -gt 0 ] && cmp -s "$WORK/run.set" "$WORK/tcp.set"; then
    ok "same verdict for each of the $n mutants"
else
    fail "verdict sets differ:"
    diff "$WORK/run.set" "$WORK/tcp.set" | head -10
fi
finish
