#!/usr/bin/env bash
# farm_kill_worker.sh - SIGKILL of a worker in the middle of a job: the
# coordinator declares it dead after liveness x heartbeat, the job goes
# back to the queue and is leased again (attempt 2) to the other worker,
# the campaign completes, and every mutant has exactly one final verdict.
#
# "In the middle of a job" is made certain: the worker is frozen
# (SIGSTOP), the store must show a job leased to it, then it is killed.
# Until then it is the only worker, on a campaign of several seconds
# (car_alarm): on beverage (0.3 s) the other worker could take every job
# or the campaign end before w1 was caught with one.
#
# Part 2, lease expiry: a worker that stays alive (heartbeats) but never
# answers its job (`farm_peer hoard`) loses it when the lease runs out; the
# job is leased again to a real worker and the campaign completes.
. "$(dirname "$0")/farm_common.sh"

ep=$(free_endpoint)
bg coord "$MF_BIN" coordinator "$(dirname "$MODEL")/car_alarm.smv" \
    --db "$WORK/f.db" --bind "$ep" --bound 3 --operators "$OPS_MEDIUM" \
    --config "$CONF"
bg_worker w1 "$ep"
w1=$(child_of "$PID_w1")

# Freeze w1 while it holds a lease (its result cannot have been committed).
job=
end=$((SECONDS + 120))
while [ -z "$job" ] && [ $SECONDS -lt $end ] && kill -0 "$PID_coord" 2>/dev/null; do
    sleep 0.1
    kill -STOP "$w1"
    sleep 0.3 # let what it sent before the freeze arrive and commit
    job=$(q "$WORK/f.db" "SELECT id FROM jobs WHERE state = 'leased' AND worker_id = 'w1' LIMIT 1")
    [ -z "$job" ] && kill -CONT "$w1"
done
if [ -z "$job" ]; then
    fail "never caught worker w1 holding a lease"
    finish
fi
q "$WORK/f.db" "SELECT mutant_id FROM mutants WHERE job_id = $job ORDER BY 1" >"$WORK/held"
kill -KILL "$w1"
ok "killed worker w1 (pid $w1) holding job $job ($(wc -l <"$WORK/held") mutants)"
bg_worker w2 "$ep"

expect_exit0 coord "$LIMIT" "coordinator completes the campaign, exit 0"
expect_exit0 w2 30 "worker w2 exits 0 on bye"
grep -q 'worker w1 silent for .* declared dead' "$WORK/coord.err" &&
    ok "w1 declared dead" || fail "no 'declared dead' line for w1"
grep -q 'worker w1 is dead: 1 job(s) back in the queue' "$WORK/coord.err" &&
    ok "its job went back to the queue" || fail "no requeue line: $(grep w1 "$WORK/coord.err")"
att=$(q "$WORK/f.db" "SELECT attempts FROM jobs WHERE id = $job")
[ "$att" -ge 2 ] && ok "job $job was leased again (attempt $att)" ||
    fail "job $job attempts $att"
bad=0
while read -r m; do
    r=$(q "$WORK/f.db" "SELECT count(*) || ' ' || coalesce(max(v.worker_id), '-')
        FROM verdicts v JOIN mutants mu ON mu.id = v.mutant WHERE mu.mutant_id = '$m'")
    [ "$r" = "1 w2" ] || { bad=1; echo "  mutant $m: $r"; }
done <"$WORK/held"
[ $bad = 0 ] && ok "each mutant of the killed job: one verdict, by w2" ||
    fail "verdicts of the killed job's mutants"
check_store "$WORK/f.db"

# ---- part 2: lease expiry ------------------------------------------------------
ep=$(free_endpoint)
printf '[farm]\nlease_ms = 3000\n' | cat "$CONF" - >"$WORK/lease.conf"
bg coord2 "$MF_BIN" coordinator "$MODEL" --db "$WORK/l.db" --bind "$ep" \
    --bound 2 --operators "$OPS_SMALL" --config "$WORK/lease.conf"
bg hoard "$PEER" hoard "$ep" 120
hoarded() { grep -q 'hoarded job' "$WORK/hoard.out"; }
wait_for 60 hoarded || fail "the hoarder got no job: $(tail -2 "$WORK/coord2.err")"
hjob=$(awk '/hoarded job/ { print $3; exit }' "$WORK/hoard.out")
bg_worker w3 "$ep"
expect_exit0 coord2 "$LIMIT" "campaign with a hoarded job completes, exit 0"
grep -q 'lease(s) ran out' "$WORK/coord2.err" && ok "the lease ran out and was logged" ||
    fail "no lease expiry line"
r=$(q "$WORK/l.db" "SELECT state || ' ' || attempts FROM jobs WHERE id = $hjob")
by=$(q "$WORK/l.db" "SELECT group_concat(DISTINCT worker_id) FROM verdicts WHERE job_id = $hjob")
[ "$r" = "done 2" ] && [ "$by" = w3 ] &&
    ok "hoarded job $hjob went back and was done by w3 at attempt 2" ||
    fail "hoarded job $hjob: $r, by $by"
expect_exit0 hoard 30 "the hoarder is told bye too"
check_store "$WORK/l.db"
finish
