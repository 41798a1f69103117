#!/usr/bin/env bash
# farm_kill_coord.sh - SIGKILL of the coordinator in the middle of a
# campaign, then a restart on the same file: it resumes the same campaign
# (no new one), loses no verdict, duplicates none, and recomputes nothing
# that was committed (every job done before the kill keeps its attempt
# count, every verdict row its worker, attempt and time).
#
# Part 2: the same for `mutfarm run` (SIGKILL of the whole command: its
# local workers go with it; the next run resumes).
. "$(dirname "$0")/farm_common.sh"
# Each mutant 30 ms longer in the workers (test hook, docs/running.md):
# however fast the engine, the kills land mid-campaign.
export MF_TEST_MUTANT_MS=30

ARGS=(--bound 3 --operators "$OPS_MEDIUM" --config "$CONF")
ep=$(free_endpoint)

bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/f.db" --bind "$ep" "${ARGS[@]}"
bg_worker w1 "$ep"
bg_worker w2 "$ep"
coord=$(child_of "$PID_coord")

if ! wait_for 120 at_least_decided "$WORK/f.db" 8; then
    fail "no progress before the kill: $(tail -3 "$WORK/coord.err")"
    finish
fi
kill -KILL "$coord"
{ wait "$PID_coord"; } 2>/dev/null
total=$(q "$WORK/f.db" "SELECT total FROM campaign_scores")
snap="SELECT m.mutant_id, v.kind, v.job_id, v.attempt, v.worker_id, v.created_at
      FROM verdicts v JOIN mutants m ON m.id = v.mutant ORDER BY 1"
q "$WORK/f.db" "$snap" >"$WORK/before.v"
q "$WORK/f.db" "SELECT id, attempts FROM jobs WHERE state = 'done' ORDER BY id" >"$WORK/before.j"
n1=$(wc -l <"$WORK/before.v")
if [ "$n1" -ge "$total" ]; then
    fail "the campaign ended before the kill ($n1 of $total); nothing tested"
    finish
fi
ok "killed the coordinator with $n1 of $total verdicts committed"

sleep 1 # the workers notice the silence and start reconnecting
bg coord2 "$MF_BIN" coordinator "$MODEL" --db "$WORK/f.db" --bind "$ep" "${ARGS[@]}"
expect_exit0 coord2 "$LIMIT" "restarted coordinator completes, exit 0"
grep -q 'resuming campaign 1' "$WORK/coord2.err" && ok "it resumed campaign 1" ||
    fail "no resume line: $(head -3 "$WORK/coord2.err")"
for w in w1 w2; do
    expect_exit0 $w 30 "worker $w reconnected and exits 0 on bye"
done
[ "$(q "$WORK/f.db" 'SELECT count(*) FROM campaigns')" = 1 ] &&
    ok "still one campaign in the file" || fail "a new campaign was created"
check_store "$WORK/f.db"
q "$WORK/f.db" "$snap" >"$WORK/after.v"
kept=$(grep -cxFf "$WORK/before.v" "$WORK/after.v")
[ "$kept" = "$n1" ] && ok "all $n1 committed verdicts unchanged (none lost, none recomputed)" ||
    fail "only $kept of $n1 verdict rows unchanged"
q "$WORK/f.db" "SELECT id, attempts FROM jobs WHERE state = 'done' ORDER BY id" >"$WORK/after.j"
kept=$(grep -cxFf "$WORK/before.j" "$WORK/after.j")
[ "$kept" = "$(wc -l <"$WORK/before.j")" ] &&
    ok "no job done before the kill was leased again" ||
    fail "jobs done before the kill changed: $(diff "$WORK/before.j" "$WORK/after.j" | head -5)"

# ---- part 2: mutfarm run, SIGKILLed, run again -------------------------------
bg run "$MF_BIN" run "$MODEL" --db "$WORK/r.db" --workers 2 "${ARGS[@]}"
run=$(child_of "$PID_run")
if wait_for 120 at_least_decided "$WORK/r.db" 8; then
    kids=$(pgrep -P "$run" | tr '\n' ' ')
    kill -KILL "$run"
    { wait "$PID_run"; } 2>/dev/null
    n1=$(verdict_rows "$WORK/r.db")
    gone() { for k in $kids; do kill -0 "$k" 2>/dev/null && return 1; done; return 0; }
    wait_for 10 gone && ok "the killed run's workers ($kids) went with it" ||
        fail "orphan workers left: $kids"
    bg run2 "$MF_BIN" run "$MODEL" --db "$WORK/r.db" --workers 2 "${ARGS[@]}"
    expect_exit0 run2 "$LIMIT" "second run completes, exit 0"
    grep -q 'resuming campaign 1' "$WORK/run2.err" && ok "it resumed ($n1 verdicts were kept)" ||
        fail "run did not resume: $(head -3 "$WORK/run2.err")"
    [ "$(q "$WORK/r.db" 'SELECT count(*) FROM campaigns')" = 1 ] &&
        ok "still one campaign" || fail "run made a new campaign"
    check_store "$WORK/r.db"
    verdict_set "$WORK/f.db" >"$WORK/f.set"
    verdict_set "$WORK/r.db" >"$WORK/r.set"
    cmp -s "$WORK/f.set" "$WORK/r.set" && ok "both interrupted campaigns agree on every verdict" ||
        fail "verdict sets differ: $(diff "$WORK/f.set" "$WORK/r.set" | head -5)"
else
    fail "run made no progress: $(tail -3 "$WORK/run.err")"
fi
finish
