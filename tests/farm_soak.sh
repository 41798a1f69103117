#!/usr/bin/env bash
# farm_soak.sh - the farm under sustained faults (issue 22, soak): N worker
# processes on the loopback, one of them at random SIGKILLed (and
# replaced) at each tenth of the campaign or so, and the coordinator
# SIGKILLed and restarted three times (at a fifth, two and three fifths);
# faults are placed by progress, not by time, so they land mid-campaign
# however fast the machine. At the end every
# mutant has exactly one verdict, equal to an undisturbed run's, and the
# store passes PRAGMA integrity_check. The closing note gives the counts.
#
# This is the CI size (8 workers, 120 of car_alarm's mutants at bound 2,
# each check slowed by MF_TEST_MUTANT_MS so the faults land mid-campaign;
# the restarts are placed by progress, not by time). bench/soak.sh runs it
# at full size (32 workers, a generated model of more than 20,000
# mutants) through the same knobs:
#   SOAK_WORKERS  worker processes (default 8)
#   SOAK_MODEL    the model (default tests/models/car_alarm.smv)
#   SOAK_ARGS     campaign options (default "--bound 2 --sample 120")
#   SOAK_SLOW_MS  MF_TEST_MUTANT_MS of the workers (default 150)
#   SOAK_KILLS    worker kills over the campaign (default 10)
#   SOAK_JOB      mutants per job (default: at most 4); given, it is
#                 job_min and job_max both: a worker enumerates the
#                 model's mutants once per job, a fixed cost that small
#                 jobs of a large model pay over and over
#   SOAK_POLL     seconds between looks at the store (default 0.2)
#   SOAK_HEARTBEAT_MS, SOAK_LIVENESS  both sides' heartbeats (default
#                 250 and 4): a large model stalls the coordinator's loop
#                 for seconds per result (it enumerates the mutants to
#                 replay the kills), longer than 4 x 250 ms
#   SOAK_WORKER_NICE  the workers' nice value above the coordinator's
#                 (default 0): 32 workers on a few cores starve the one
#                 coordinator, whose replays of kills then stall heartbeats
#   SOAK_FAULT_SECS  place the faults by time instead: spread over the
#                 first S seconds after planning (for jobs so large that
#                 progress moves in a few big steps)
#   SOAK_CALM_DB  a store of the same campaign run undisturbed before,
#                 compared with instead of running it again
#   SOAK_PARTITION=1  one more worker, p1, in its own network namespace
#                 (farm_partition.sh); from three tenths of the campaign,
#                 at the first look that finds p1 holding a job of the
#                 running coordinator (one that has heard from p1), its
#                 link goes down until the coordinator declares it dead,
#                 then comes back (skipped, with the reason, where the
#                 machine allows no namespaces). Cut in the same look
#                 that restarted the coordinator, the new coordinator
#                 never saw p1 and the partition went unnoticed.
#   SOAK_P1_SLOW_MS  MF_TEST_MUTANT_MS of p1 alone (default SOAK_SLOW_MS)
#   SOAK_P1_NICE  p1's nice value (default SOAK_WORKER_NICE): below the
#                 other workers', p1 finishes its jobs first and is the
#                 first to take the jobs a restarted coordinator puts
#                 back; otherwise, with progress moving in waves and each
#                 restart landing right after one, p1 may hold a job only
#                 of coordinators already SIGKILLed (a partition then
#                 never happens)
. "$(dirname "$0")/farm_common.sh"

NW=${SOAK_WORKERS:-8}
SOAK_MODEL=${SOAK_MODEL:-$(dirname "$MODEL")/car_alarm.smv}
read -r -a ARGS <<<"${SOAK_ARGS:---bound 2 --sample 120}"
ARGS+=(--config "$CONF")
SLOW=${SOAK_SLOW_MS:-150}
KILLS=${SOAK_KILLS:-10}
DB=$WORK/soak.db
# Random kills are not a poison job: a job that lost several workers and
# coordinators must not be quarantined for it.
sed -i 's/^max_attempts = .*/max_attempts = 50/' "$CONF"
HB=${SOAK_HEARTBEAT_MS:-250} LV=${SOAK_LIVENESS:-4} WNICE=${SOAK_WORKER_NICE:-0}
sed -i "s/^heartbeat_ms = .*/heartbeat_ms = $HB/; s/^liveness = .*/liveness = $LV/" "$CONF"
# Small jobs: progress moves in small steps, so each restart lands at its
# point of the campaign, never after its end.
if [ -n "${SOAK_JOB:-}" ]; then
    printf 'job_min = %s\njob_max = %s\n' "$SOAK_JOB" "$SOAK_JOB" >>"$CONF"
else
    echo 'job_max = 4' >>"$CONF"
fi
ep=$(free_endpoint)
part=off
if [ "${SOAK_PARTITION:-0}" = 1 ]; then
    if net_setup; then
        ep=tcp://$NET_HOST:$(free_port)
        part=armed
    else
        echo "  partition skipped: $NET_WHY"
    fi
fi

coords=0
start_coord() {
    coords=$((coords + 1))
    bg "coord$coords" "$MF_BIN" coordinator "$SOAK_MODEL" --db "$DB" --bind "$ep" \
        "${ARGS[@]}" --progress-interval 5
}
nworkers=0
start_worker() {
    nworkers=$((nworkers + 1))
    MF_TEST_MUTANT_MS=$SLOW bg "w$nworkers" nice -n "$WNICE" "$MF_BIN" worker --connect "$ep" \
        --threads 1 --id "w$nworkers" --heartbeat "$HB" --liveness "$LV"
    live+=("$nworkers")
}
start_coord
live=()
for _ in $(seq "$NW"); do start_worker; done
# p1 is never among the random kills: its fault is the partition.
[ $part = armed ] && MF_TEST_MUTANT_MS=${SOAK_P1_SLOW_MS:-$SLOW} net_bg p1 \
    nice -n "${SOAK_P1_NICE:-$WNICE}" "$MF_BIN" worker \
    --connect "$ep" --threads 1 --id p1 --heartbeat "$HB" --liveness "$LV"
planned() { [ "$(q "$DB" "SELECT count(*) FROM campaigns WHERE state <> 'planning'" 2>/dev/null)" = 1 ]; }
wait_for $((LIMIT / 2)) planned || { fail "the campaign was not planned: $(tail -3 "$WORK/coord1.err")"; finish; }
total=$(q "$DB" "SELECT total FROM campaign_scores")
ok "campaign of $total mutants, $NW workers, checks slowed by $SLOW ms"

# p1 holds a job of the coordinator now running: one that has heard from
# p1 (a coordinator restarted in this look has not) and leased it a job
# (a restarted coordinator puts the old leases back before serving).
p1_holds() {
    local pv=PID_coord$coords
    kill -0 "${!pv}" 2>/dev/null &&
        grep -Eq "worker p1 (joined|reconnected)" "$WORK/coord$coords.err" &&
        [ "$(q "$DB" "SELECT count(*) FROM jobs WHERE state = 'leased'
                      AND worker_id = 'p1'" 2>/dev/null)" -gt 0 ]
}
restarts=0 wkills=0 kills_due=0 t0=$SECONDS
end=$((SECONDS + LIMIT - 30))
while ! campaign_done "$DB" && [ $SECONDS -lt $end ]; do
    sleep "${SOAK_POLL:-0.2}"
    # Verdict rows, not the mutant_verdicts view: a scan of every mutant at
    # each look costs a core at full size. One campaign: the same count.
    d=$(q "$DB" "SELECT count(*) FROM verdicts" 2>/dev/null || echo 0)
    # Where the campaign stands: its progress, or the time gone by.
    at=$d
    [ -n "${SOAK_FAULT_SECS:-}" ] && at=$(((SECONDS - t0) * total / SOAK_FAULT_SECS))
    # Three coordinator restarts, at a fifth, two and three fifths; none
    # while p1 is cut off, whose partition a coordinator must notice.
    if [ $restarts -lt 3 ] && [ "$at" -ge $((total * (restarts + 1) / 5)) ] &&
        [ $part != cut ]; then
        pv=PID_coord$coords
        c=$(child_of "${!pv}")
        kill -KILL "$c" 2>/dev/null
        { wait "${!pv}"; } 2>/dev/null
        # Complete just before the kill: a new coordinator would start a
        # new campaign (taking this one's verdicts over); stop here.
        campaign_done "$DB" && break
        restarts=$((restarts + 1))
        echo "  coordinator SIGKILLed at $d of $total decided (restart $restarts)"
        start_coord
    fi
    # A random worker SIGKILLed and replaced, KILLS times over the campaign.
    if [ $kills_due -lt "$KILLS" ] && [ "$at" -ge $((total * (kills_due + 1) / (KILLS + 2))) ]; then
        kills_due=$((kills_due + 1))
        i=$((RANDOM % ${#live[@]}))
        n=${live[$i]}
        pv=PID_w$n
        c=$(child_of "${!pv}" 2>/dev/null) && kill -KILL "$c" 2>/dev/null && wkills=$((wkills + 1))
        { wait "${!pv}"; } 2>/dev/null
        live=("${live[@]:0:$i}" "${live[@]:$((i + 1))}")
        start_worker
    fi
    # Each look, for the logs kept after a failure.
    [ $part = off ] || echo "$((SECONDS - t0)) s: $d decided, coordinator $coords," \
        "p1 leases: $(q "$DB" "SELECT group_concat(id || '/' || attempts) FROM jobs
                              WHERE state = 'leased' AND worker_id = 'p1'" 2>&1)" >>"$WORK/looks.log"
    # The partition: p1's link down while it holds a job of the running
    # coordinator, until that coordinator declares it dead (or, if one
    # was restarted meanwhile, for twice the lease on life).
    if [ $part = armed ] && [ "$at" -ge $((total * 3 / 10)) ] && p1_holds; then
        net_cut
        part=cut cut_at=$SECONDS
        echo "  p1's link cut at $d of $total decided, holding job(s)" \
            "$(q "$DB" "SELECT group_concat(id) FROM jobs WHERE state = 'leased' AND worker_id = 'p1'")"
    elif [ $part = cut ] && { grep -q "worker p1 silent" "$WORK"/coord*.err ||
        [ $((SECONDS - cut_at)) -gt $((2 * HB * LV / 1000 + 5)) ]; }; then
        net_heal
        part=healed
        echo "  p1's link restored after $((SECONDS - cut_at)) s"
    fi
done
[ $part = cut ] && net_heal
pv=PID_coord$coords
if kill -0 "${!pv}" 2>/dev/null || [ $restarts = 3 ]; then
    expect_exit0 "coord$coords" 60 "the last coordinator completes the campaign"
fi
[ $restarts = 3 ] && ok "3 coordinator restarts" || fail "only $restarts coordinator restarts"
[ $wkills -ge $((KILLS / 2)) ] && ok "$wkills workers SIGKILLed" || fail "only $wkills of $KILLS worker kills landed"
check_store "$DB"
[ "$(q "$DB" 'SELECT count(*) FROM campaigns')" = 1 ] && ok "one campaign, resumed each time" ||
    fail "campaigns: $(q "$DB" 'SELECT id, state FROM campaigns')"
dups=$(q "$DB" "SELECT count(*) FROM (SELECT mutant FROM verdicts GROUP BY mutant HAVING count(*) > 1)")
[ "$dups" = 0 ] && ok "no mutant with two verdict rows" || fail "$dups mutants with two verdicts"

# The same campaign undisturbed.
if [ -n "${SOAK_CALM_DB:-}" ]; then
    same_verdicts "$DB" "$SOAK_CALM_DB"
else
    same_as_undisturbed "$DB" "$SOAK_MODEL" 2 "${ARGS[@]}"
fi

late=$(cat "$WORK"/coord*.err | grep -c 'took the late result')
expired=$(cat "$WORK"/coord*.err | grep -c 'lease(s) ran out')
dead=$(cat "$WORK"/coord*.err | grep -c 'declared dead')
quar=$(q "$DB" "SELECT count(*) FROM jobs WHERE state = 'quarantined'")
echo "closing note: $total mutants, $(q "$DB" 'SELECT count(*) FROM jobs') jobs," \
    "$((nworkers)) worker processes ($wkills SIGKILLed, $dead declared dead)," \
    "$restarts coordinator restarts, $late late results taken, $expired lease expiries," \
    "$quar jobs quarantined, integrity_check $(q "$DB" 'PRAGMA integrity_check')"
if [ $part != off ]; then
    back=$(grep -h "worker p1 is dead" "$WORK"/coord*.err | head -1 | sed 's/.*dead: //')
    grep -q "worker p1 silent for .*declared dead" "$WORK"/coord*.err &&
        ok "partitioned p1 declared dead (${back:-nothing back in the queue: its lease was cancelled by a late result})" ||
        fail "the partition of p1 went unnoticed (state $part)"
    echo "partition: p1 cut off at three tenths, $(grep -h 'took the late result' "$WORK"/coord*.err | grep -c 'from worker p1') late results of p1 taken," \
        "$(grep -h 'ignored a result' "$WORK"/coord*.err | grep -c 'from worker p1') ignored"
fi
[ "$quar" = 0 ] || fail "$quar jobs quarantined: $(q "$DB" "SELECT last_error FROM jobs WHERE state = 'quarantined' LIMIT 3")"
finish
