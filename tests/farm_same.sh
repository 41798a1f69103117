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
expect_exit0 run "$LIMIT" "mutfarm run exits 0"
grep -q 'mutation score' "$WORK/run.out" && ok "run prints its summary" ||
    fail "run summary missing"
check_store "$WORK/run.db"

# 2. Distributed: a coordinator on a tcp port and two worker processes.
ep=$(free_endpoint)
bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/tcp.db" --bind "$ep" \
    "${ARGS[@]}"
bg_worker w1 "$ep"
bg_worker w2 "$ep"
expect_exit0 coord "$LIMIT" "coordinator exits 0 once complete"
for w in w1 w2; do
    expect_exit0 $w 30 "worker $w exits 0 on the coordinator's bye"
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
