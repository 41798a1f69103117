#!/usr/bin/env bash
# farm_liveness.sh - the coordinator's liveness in the store (issue 22,
# point 4): `mutfarm status` says running (with a rate, an ETA and the
# workers' last contact) while it serves, stopped after a SIGTERM, dead
# after a SIGKILL, both by itself and in the coordinator_liveness view
# (the heartbeat alone, no pid check); a progress line is logged at the
# interval asked for.
. "$(dirname "$0")/farm_common.sh"
export MF_TEST_MUTANT_MS=100 # a campaign long enough to look at

ep=$(free_endpoint)
ARGS=(--bound 2 --operators "$OPS_MEDIUM" --config "$CONF" --progress-interval 1)
bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/l.db" --bind "$ep" "${ARGS[@]}"
bg_worker w1 "$ep"
coord=$(child_of "$PID_coord")
st() { "$MF_BIN" status --db "$WORK/l.db" >"$WORK/status.out" 2>&1; }
says() { st && grep -q "$1" "$WORK/status.out"; }

if wait_for 60 says 'rate: [0-9.]* mutants/s, ETA'; then
    ok "status: $(head -1 "$WORK/status.out")"
    ok "status: $(grep 'rate:' "$WORK/status.out")"
else
    fail "status never showed a running coordinator with a rate: $(cat "$WORK/status.out")"
fi
grep -q "campaign 1: running (coordinator pid $coord on " "$WORK/status.out" &&
    ok "status names the coordinator's pid" || fail "no pid $coord in: $(head -1 "$WORK/status.out")"
grep -Eq '^  w1 .*last contact [0-9]+s ago' "$WORK/status.out" &&
    ok "status shows worker w1 with its last contact" ||
    fail "no last contact of w1: $(grep -A3 workers "$WORK/status.out")"
wait_for 30 grep -q 'decided (.*/s, ETA' "$WORK/coord.err" &&
    ok "the coordinator logs progress lines" || fail "no progress line in the log"

kill -KILL "$coord"
{ wait "$PID_coord"; } 2>/dev/null
view() { [ "$(q "$WORK/l.db" 'SELECT state FROM coordinator_liveness')" = "$1" ]; }
wait_for 30 says 'campaign 1: dead: coordinator pid' &&
    ok "after SIGKILL: $(head -1 "$WORK/status.out")" ||
    fail "status after SIGKILL: $(head -1 "$WORK/status.out")"
grep -q 'leases:' "$WORK/status.out" && fail "a dead coordinator's leases are shown as live"
wait_for 30 view dead && ok "coordinator_liveness says dead (heartbeat only)" ||
    fail "coordinator_liveness: $(q "$WORK/l.db" 'SELECT * FROM coordinator_liveness')"

# Restarted, then stopped by SIGTERM: a clean exit is recorded.
bg coord2 "$MF_BIN" coordinator "$MODEL" --db "$WORK/l.db" --bind "$ep" "${ARGS[@]}"
wait_for 60 says 'campaign 1: running' && ok "restarted: running again" ||
    fail "restarted coordinator not running: $(head -1 "$WORK/status.out")"
[ "$(q "$WORK/l.db" 'SELECT count(*) FROM coordinators')" = 2 ] &&
    ok "one coordinators row per process" || fail "coordinators rows: $(q "$WORK/l.db" 'SELECT * FROM coordinators')"
kill -TERM "$(child_of "$PID_coord2")"
wait_exit "$PID_coord2" 30
says 'campaign 1: stopped at .* (stopped; coordinator pid' &&
    ok "after SIGTERM: $(head -1 "$WORK/status.out")" ||
    fail "status after SIGTERM: $(head -1 "$WORK/status.out")"
view stopped && ok "coordinator_liveness says stopped" || fail "view: $(q "$WORK/l.db" 'SELECT state FROM coordinator_liveness')"

# To the end: complete.
unset MF_TEST_MUTANT_MS
bg coord3 "$MF_BIN" coordinator "$MODEL" --db "$WORK/l.db" --bind "$ep" "${ARGS[@]}"
expect_exit0 coord3 "$LIMIT" "the campaign completes"
says 'campaign 1: complete' && ok "status: complete" || fail "status: $(head -1 "$WORK/status.out")"
[ "$(q "$WORK/l.db" 'SELECT stop_reason FROM coordinator_liveness')" = complete ] &&
    ok "the last coordinator's exit is recorded as complete" ||
    fail "stop_reason: $(q "$WORK/l.db" 'SELECT * FROM coordinators')"
check_store "$WORK/l.db"

# A store from before liveness (schema 3, as the first three migrations
# leave it): status says in one line what to do; the next coordinator
# upgrades it to the newest schema and records itself.
SCHEMA=$(cd "$(dirname "$0")/../schema" && pwd)
newest=$(ls "$SCHEMA" | sed -n 's/^0*\([0-9][0-9]*\)_.*\.sql$/\1/p' | sort -n | tail -1)
cat "$SCHEMA/001_init.sql" "$SCHEMA/002_matrix.sql" "$SCHEMA/003_nightly.sql" |
    sqlite3 "$WORK/old.db" && q "$WORK/old.db" "PRAGMA user_version = 3" ||
    fail "cannot make a schema 3 store"
"$MF_BIN" status --db "$WORK/old.db" >"$WORK/out" 2>"$WORK/err"
[ $? = 1 ] && [ "$(wc -l <"$WORK/err")" = 1 ] &&
    grep -q "schema 3 is older than $newest: run the coordinator on it once" "$WORK/err" &&
    ok "status on a schema 3 store: exit 1, '$(cat "$WORK/err")'" ||
    fail "status on a schema 3 store: $(cat "$WORK/out" "$WORK/err")"
"$MF_BIN" run "$MODEL" --db "$WORK/old.db" --workers 1 --bound 1 --operators negate \
    --config "$CONF" >/dev/null 2>"$WORK/err" || fail "run on the schema 3 store failed: $(tail -2 "$WORK/err")"
[ "$(q "$WORK/old.db" 'PRAGMA user_version')" = "$newest" ] &&
    [ "$(q "$WORK/old.db" 'SELECT stop_reason FROM coordinator_liveness WHERE campaign_id = 1')" = complete ] &&
    ok "a coordinator upgraded it to schema $newest and recorded itself" ||
    fail "after the run: schema $(q "$WORK/old.db" 'PRAGMA user_version'), $(q "$WORK/old.db" 'SELECT * FROM coordinators' 2>&1)"
"$MF_BIN" status --db "$WORK/old.db" --campaign 1 >"$WORK/out" 2>&1 &&
    grep -q 'campaign 1: complete' "$WORK/out" && ok "status reads the upgraded store" ||
    fail "status on the upgraded store: $(head -2 "$WORK/out")"
finish
