#!/usr/bin/env bash
# matrix_farm.sh - the kill matrix through the farm (`mutfarm matrix
# --bind/--workers`, docs/minimisation.md "Large matrices"), with real
# processes, sockets and SQLite files:
# 1. a farm fill with 2 local worker processes writes exactly the kills
#    table (every column) and the matrices counts of the local fill of the
#    same campaign: car_alarm, a corpus model with non-determinism
#    (potential kills in its matrix), and lamp.smv with --observe;
# 2. a worker SIGKILLed mid-fill: the coordinator declares it dead, its
#    job goes back to the queue and is done by the other worker; the final
#    table is still the local fill's;
# 3. the coordinator SIGKILLed mid-fill and started again on the same file:
#    the jobs committed before the kill are not done again (the summary
#    counts them as done by an earlier run), the fill ends with the local
#    fill's table, PRAGMA integrity_check is ok, no matrix_jobs row is
#    left;
# 4. an old-style Result or a Job-less peer gets refused, not served.
. "$(dirname "$0")/farm_common.sh"

MODELS=$(cd "$(dirname "$0")" && pwd)/models
SHARED=${MF_SHARED_MODELS:-$(cd "$(dirname "$0")/../.." && pwd)/shared/models}
NONDET=$SHARED/corpus/TART-MSU__HyperQB__benchmarks__6_mutation__mutation_testing.smv
if [ ! -f "$NONDET" ]; then
    # The corpus is beside the repository; without it, the bundled
    # non-deterministic model (potential kills too) stands in.
    echo "note: $NONDET missing; using beverage.smv"
    NONDET=$MODELS/beverage.smv
fi

KILLS="SELECT * FROM kills ORDER BY test_id, mutant"
COUNTS="SELECT campaign_id, state, through_test, tests, mutants, pairs,
        kills, undecided, unconfirmed FROM matrices"

# campaign NAME MODEL BOUND [RUN OPTION...]: a finished campaign in
# $WORK/NAME.db.
campaign() {
    "$MF_BIN" run "$2" --bound "$3" --db "$WORK/$1.db" --workers 2 \
        --config "$CONF" "${@:4}" >"$WORK/$1.run" 2>&1 ||
        { fail "campaign $1: $(tail -3 "$WORK/$1.run")"; finish; }
}

# same_as_local NAME DB WHAT: DB's kills and counts are those of
# $WORK/NAME.local.db (filled in this process).
same_as_local() {
    q "$2" "$KILLS" >"$WORK/got.k"
    q "$2" "$COUNTS" >"$WORK/got.c"
    if cmp -s "$WORK/got.k" "$WORK/$1.local.k" &&
        cmp -s "$WORK/got.c" "$WORK/$1.local.c"; then
        ok "$3: kills ($(wc -l <"$WORK/got.k") rows, every column) and counts equal the local fill's"
    else
        fail "$3: differs from the local fill: $(diff "$WORK/$1.local.k" "$WORK/got.k" | head -3) $(diff "$WORK/$1.local.c" "$WORK/got.c" | head -2)"
    fi
    [ "$(q "$2" 'SELECT count(*) FROM matrix_jobs')" = 0 ] &&
        ok "$3: no matrix_jobs row left" || fail "$3: matrix_jobs rows left"
}

# ---- 1. farm fill = local fill ----------------------------------------------
# car_alarm: 150 of its mutants (--sample), so that the campaign stays
# short under the sanitizers; its matrix still has potential kills.
# lamp.smv with --observe: the workers must load the model with the
# campaign's observables (other ones give tests of another shape, which
# a worker refuses).
for spec in "car:$MODELS/car_alarm.smv:8:--sample:150" "nd:$NONDET:8" \
    "lamp:$MODELS/lamp.smv:4:--observe:st,light,bright"; do
    IFS=: read -r name model bound opt arg <<<"$spec"
    if [ -z "$opt" ]; then
        campaign "$name" "$model" "$bound"
    else
        campaign "$name" "$model" "$bound" "$opt" "$arg"
    fi
    cp "$WORK/$name.db" "$WORK/$name.local.db"
    cp "$WORK/$name.db" "$WORK/$name.farm.db"
    "$MF_BIN" matrix --db "$WORK/$name.local.db" >"$WORK/$name.local.out" 2>&1 ||
        fail "$name: local fill: $(tail -2 "$WORK/$name.local.out")"
    q "$WORK/$name.local.db" "$KILLS" >"$WORK/$name.local.k"
    q "$WORK/$name.local.db" "$COUNTS" >"$WORK/$name.local.c"
    timeout -s KILL "$LIMIT" "$MF_BIN" matrix --db "$WORK/$name.farm.db" \
        --workers 2 --job-pairs 200 --config "$CONF" \
        >"$WORK/$name.farm.out" 2>"$WORK/$name.farm.err"
    rc=$?
    [ $rc = 0 ] && ok "$name: farm fill with 2 workers exits 0" ||
        fail "$name: farm fill exit $rc: $(tail -3 "$WORK/$name.farm.err")"
    # A worker that crashed (a sanitizer report) would be started again
    # and its job leased again: neither may happen here.
    grep -q 'died' "$WORK/$name.farm.err" &&
        fail "$name: a local worker died: $(grep died "$WORK/$name.farm.err" | head -2)"
    grep -q ' 0 leased again' "$WORK/$name.farm.out" ||
        fail "$name: a job was leased again: $(cat "$WORK/$name.farm.out")"
    jobs=$(sed -n 's/.*through the farm: \([0-9]*\) jobs.*/\1/p' "$WORK/$name.farm.out")
    [ "${jobs:-0}" -ge 3 ] && ok "$name: $jobs matrix jobs" ||
        fail "$name: only '${jobs}' jobs: $(cat "$WORK/$name.farm.out")"
    same_as_local "$name" "$WORK/$name.farm.db" "$name"
done
pot=$(q "$WORK/nd.local.db" "SELECT count(*) FROM kills WHERE notion = 'potential'")
[ "$pot" -gt 0 ] && ok "the non-deterministic model's matrix has $pot potential kills" ||
    fail "no potential kill in $(basename "$NONDET")'s matrix: not a test of non-determinism"

# Each mutant 40 ms longer in the workers' replays (test hook): the
# fills below last a few seconds, however fast the replay.
export MF_TEST_MUTANT_MS=40

# ---- 2. a worker SIGKILLed mid-fill ----------------------------------------
cp "$WORK/car.db" "$WORK/wk.db"
ep=$(free_endpoint)
bg coord "$MF_BIN" matrix --db "$WORK/wk.db" --bind "$ep" --job-pairs 500 \
    --config "$CONF"
bg_worker w1 "$ep"
bg_worker w2 "$ep"
jobs_done() { [ "$(q "$1" 'SELECT count(*) FROM matrix_jobs' 2>/dev/null || echo 0)" -ge "$2" ]; }
if wait_for 60 jobs_done "$WORK/wk.db" 2; then
    w1=$(child_of "$PID_w1")
    kill -KILL "$w1"
    { wait "$PID_w1"; } 2>/dev/null
    ok "killed worker w1 with $(q "$WORK/wk.db" 'SELECT count(*) FROM matrix_jobs') jobs committed"
else
    fail "no matrix job committed: $(tail -3 "$WORK/coord.err")"
fi
expect_exit0 coord "$LIMIT" "the fill completes without w1, exit 0"
grep -q 'worker w1 silent for .* declared dead' "$WORK/coord.err" &&
    grep -q 'worker w1 is dead: [1-9][0-9]* job(s) back in the queue' "$WORK/coord.err" &&
    ok "w1 declared dead, its job back in the queue" ||
    fail "no death line for w1: $(tail -3 "$WORK/coord.err")"
again=$(sed -n 's/.* \([0-9]*\) leased again after a lost lease.*/\1/p' "$WORK/coord.out")
[ "${again:-0}" -ge 1 ] && ok "$again job(s) leased again after w1's death" ||
    fail "no job leased again after w1's death: $(cat "$WORK/coord.out")"
expect_exit0 w2 30 "w2 exits 0 on the coordinator's bye"
same_as_local car "$WORK/wk.db" "after a worker's death"

# ---- 3. the coordinator SIGKILLed mid-fill, then restarted -----------------
cp "$WORK/nd.db" "$WORK/ck.db"
ep=$(free_endpoint)
bg coord1 "$MF_BIN" matrix --db "$WORK/ck.db" --bind "$ep" --job-pairs 150 \
    --config "$CONF"
bg_worker w3 "$ep"
bg_worker w4 "$ep"
if wait_for 60 jobs_done "$WORK/ck.db" 2; then
    kill -KILL "$(child_of "$PID_coord1")"
    { wait "$PID_coord1"; } 2>/dev/null
    n1=$(q "$WORK/ck.db" 'SELECT count(*) FROM matrix_jobs')
    state=$(q "$WORK/ck.db" "SELECT state FROM matrices")
    [ "$state" = filling ] && ok "killed the coordinator with $n1 jobs committed, matrix 'filling'" ||
        fail "the fill ended before the kill (state $state): nothing tested"
else
    fail "no matrix job committed: $(tail -3 "$WORK/coord1.err")"
    n1=0
fi
sleep 1 # the workers notice the silence and start reconnecting
bg coord2 "$MF_BIN" matrix --db "$WORK/ck.db" --bind "$ep" --job-pairs 150 \
    --config "$CONF"
expect_exit0 coord2 "$LIMIT" "the restarted coordinator completes, exit 0"
resumed=$(sed -n 's/.* \([0-9]*\) of them done by an earlier run.*/\1/p' "$WORK/coord2.out")
[ "${resumed:-0}" -ge "$n1" ] && [ "$n1" -gt 0 ] &&
    ok "the restart took the $resumed jobs committed before the kill as done" ||
    fail "resumed '$resumed' jobs, $n1 were committed: $(cat "$WORK/coord2.out")"
for w in w3 w4; do
    expect_exit0 $w 30 "worker $w reconnected and exits 0 on bye"
done
[ "$(q "$WORK/ck.db" 'PRAGMA integrity_check')" = ok ] &&
    ok "integrity_check of the restarted store" || fail "integrity_check failed"
same_as_local nd "$WORK/ck.db" "after a coordinator's kill and restart"

# ---- 4. refusals ---------------------------------------------------------------
cp "$WORK/car.db" "$WORK/full.db"
"$MF_BIN" matrix --db "$WORK/full.db" --threads 2 --workers 2 >"$WORK/u.out" 2>"$WORK/u.err"
[ $? = 1 ] && [ "$(wc -l <"$WORK/u.err")" = 1 ] &&
    ok "--threads with --workers: one line, exit 1" || fail "--threads with --workers: $(cat "$WORK/u.err")"
"$MF_BIN" matrix --db "$WORK/full.db" --bind "bogus://x" >"$WORK/u.out" 2>"$WORK/u.err"
[ $? = 1 ] && [ "$(wc -l <"$WORK/u.err")" = 1 ] &&
    ok "a bad endpoint: one line, exit 1" || fail "bad endpoint: $(cat "$WORK/u.err")"
finish
