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
# Small jobs: progress moves in small steps, so each restart lands at its
# point of the campaign, never after its end.
if [ -n "${SOAK_JOB:-}" ]; then
    printf 'job_min = %s\njob_max = %s\n' "$SOAK_JOB" "$SOAK_JOB" >>"$CONF"
else
    echo 'job_max = 4' >>"$CONF"
fi
ep=$(free_endpoint)

coords=0
start_coord() {
    coords=$((coords + 1))
    bg "coord$coords" "$MF_BIN" coordinator "$SOAK_MODEL" --db "$DB" --bind "$ep" \
        "${ARGS[@]}" --progress-interval 5
}
nworkers=0
start_worker() {
    nworkers=$((nworkers + 1))
    MF_TEST_MUTANT_MS=$SLOW bg_worker "w$nworkers" "$ep"
    live+=("$nworkers")
}
start_coord
live=()
for _ in $(seq "$NW"); do start_worker; done
planned() { [ "$(q "$DB" "SELECT count(*) FROM campaigns WHERE state <> 'planning'" 2>/dev/null)" = 1 ]; }
wait_for 120 planned || { fail "the campaign was not planned: $(tail -3 "$WORK/coord1.err")"; finish; }
total=$(q "$DB" "SELECT total FROM campaign_scores")
ok "campaign of $total mutants, $NW workers, checks slowed by $SLOW ms"

restarts=0 wkills=0 kills_due=0
end=$((SECONDS + LIMIT - 30))
while ! campaign_done "$DB" && [ $SECONDS -lt $end ]; do
    sleep "${SOAK_POLL:-0.2}"
    d=$(decided_count "$DB" 2>/dev/null || echo 0)
    # Three coordinator restarts, at a fifth, two and three fifths.
    if [ $restarts -lt 3 ] && [ "$d" -ge $((total * (restarts + 1) / 5)) ]; then
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
    if [ $kills_due -lt "$KILLS" ] && [ "$d" -ge $((total * (kills_due + 1) / (KILLS + 2))) ]; then
        kills_due=$((kills_due + 1))
        i=$((RANDOM % ${#live[@]}))
        n=${live[$i]}
        pv=PID_w$n
        c=$(child_of "${!pv}" 2>/dev/null) && kill -KILL "$c" 2>/dev/null && wkills=$((wkills + 1))
        { wait "${!pv}"; } 2>/dev/null
        live=("${live[@]:0:$i}" "${live[@]:$((i + 1))}")
        start_worker
    fi
done
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
"$MF_BIN" run "$SOAK_MODEL" --db "$WORK/calm.db" --workers 2 "${ARGS[@]}" \
    >/dev/null 2>"$WORK/calm.err" || fail "the undisturbed run failed: $(tail -2 "$WORK/calm.err")"
verdict_set "$DB" >"$WORK/soak.set"
verdict_set "$WORK/calm.db" >"$WORK/calm.set"
cmp -s "$WORK/soak.set" "$WORK/calm.set" &&
    ok "every verdict equals the undisturbed run's ($(wc -l <"$WORK/calm.set") mutants)" ||
    fail "verdicts differ from the undisturbed run's: $(diff "$WORK/soak.set" "$WORK/calm.set" | head -5)"

late=$(cat "$WORK"/coord*.err | grep -c 'took the late result')
expired=$(cat "$WORK"/coord*.err | grep -c 'lease(s) ran out')
dead=$(cat "$WORK"/coord*.err | grep -c 'declared dead')
quar=$(q "$DB" "SELECT count(*) FROM jobs WHERE state = 'quarantined'")
echo "closing note: $total mutants, $(q "$DB" 'SELECT count(*) FROM jobs') jobs," \
    "$((nworkers)) worker processes ($wkills SIGKILLed, $dead declared dead)," \
    "$restarts coordinator restarts, $late late results taken, $expired lease expiries," \
    "$quar jobs quarantined, integrity_check $(q "$DB" 'PRAGMA integrity_check')"
[ "$quar" = 0 ] || fail "$quar jobs quarantined: $(q "$DB" "SELECT last_error FROM jobs WHERE state = 'quarantined' LIMIT 3")"
finish
