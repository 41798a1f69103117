#!/usr/bin/env bash
# farm_false_kill.sh - trust but verify (coordinator/verify.c): a worker
# run with the test-only hook MF_TEST_FALSE_KILL reports an equivalent or
# surviving mutant as killed, by a test that does not kill it. The
# coordinator replays it, refuses the result (logged with the worker's
# id), puts the job back, and the campaign's verdicts equal an undisturbed
# run's. A worker that does it every time ("N+") is cut off at its third
# refused result: its jobs go back, what it sends is ignored, and an
# honest worker finishes the campaign with the same verdicts.
. "$(dirname "$0")/farm_common.sh"

OPS=$OPS_SMALL
run_args=(--bound 2 --operators "$OPS" --config "$CONF")

# The undisturbed run.
bg clean "$MF_BIN" run "$MODEL" --db "$WORK/u.db" --workers 2 "${run_args[@]}"
expect_exit0 clean "$LIMIT" "the undisturbed campaign completes"
want=$(verdict_set "$WORK/u.db")
nonkill=$(q "$WORK/u.db" "SELECT count(*) FROM mutant_verdicts
                          WHERE status IN ('equivalent', 'survived')")
[ "$nonkill" -ge 3 ] && ok "$nonkill equivalent or surviving mutants to lie about" ||
    { fail "only $nonkill non-kills: the test cannot work"; finish; }

# One false kill, one worker: refused, then decided again honestly.
ep=$(free_endpoint)
bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/f.db" --bind "$ep" "${run_args[@]}"
MF_TEST_FALSE_KILL=2 bg liar "$MF_BIN" worker --connect "$ep" --threads 1 \
    --id liar --heartbeat 250 --liveness 4
expect_exit0 coord "$LIMIT" "the campaign with a false kill completes"
grep -q 'MF_TEST_FALSE_KILL: reporting mutant' "$WORK/liar.err" &&
    ok "the worker lied once" || fail "the hook did not fire: $(tail -3 "$WORK/liar.err")"
liar_mutant=$(sed -n 's/.*MF_TEST_FALSE_KILL: reporting mutant \([0-9a-f]*\).*/\1/p' \
    "$WORK/liar.err" | head -1)
line=$(grep 'refused a result from worker liar: a kill that does not replay' "$WORK/coord.err")
[ -n "$line" ] && ok "refused and logged with the worker's id" ||
    fail "no refusal logged: $(tail -5 "$WORK/coord.err")"
case $line in
*"mutant $liar_mutant"*"does not kill it"*) ok "the log names mutant $liar_mutant" ;;
*) fail "the refusal does not name mutant $liar_mutant: $line" ;;
esac
grep -q 'cut off' "$WORK/coord.err" && fail "cut off after one refusal" ||
    ok "one refusal does not cut a worker off"
[ "$(verdict_set "$WORK/f.db")" = "$want" ] &&
    ok "verdicts equal the undisturbed run's" ||
    fail "verdicts differ: $(diff <(echo "$want") <(verdict_set "$WORK/f.db") | head -5)"
check_store "$WORK/f.db"
[ "$(q "$WORK/f.db" "SELECT count(*) FROM jobs WHERE state = 'quarantined'")" = 0 ] &&
    ok "no job quarantined for a false kill" || fail "a job was quarantined"

# A worker that lies every time is cut off; an honest one finishes.
ep=$(free_endpoint)
bg coord2 "$MF_BIN" coordinator "$MODEL" --db "$WORK/g.db" --bind "$ep" "${run_args[@]}"
MF_TEST_FALSE_KILL=1+ bg rogue "$MF_BIN" worker --connect "$ep" --threads 1 \
    --id rogue --heartbeat 250 --liveness 4
wait_for 60 grep -q 'worker rogue cut off after 3 refused results' "$WORK/coord2.err" &&
    ok "the rogue worker is cut off after 3 refused results" ||
    fail "not cut off: $(tail -5 "$WORK/coord2.err")"
n=$(grep -c 'refused a result from worker rogue' "$WORK/coord2.err")
[ "$n" = 3 ] && ok "exactly 3 of its results refused" || fail "$n results of rogue refused"
# It keeps sending (heartbeats, and a hello when it reconnects): all
# ignored, so it is soon silent to the coordinator.
wait_for 30 grep -q 'worker rogue silent for' "$WORK/coord2.err" &&
    ok "its messages are ignored: declared dead, though still running" ||
    fail "rogue not declared dead: $(tail -3 "$WORK/coord2.err")"
kill -0 "$PID_rogue" 2>/dev/null && ok "(the rogue process is still up)" ||
    fail "the rogue process is gone: the check above proves nothing"
fake=$(q "$WORK/g.db" "SELECT count(*) FROM verdicts v JOIN mutants m ON m.id = v.mutant
                       WHERE v.worker_id = 'rogue' AND m.mutant_id IN
                       ($(q "$WORK/u.db" "SELECT group_concat(quote(mutant_id)) FROM
                          mutant_verdicts WHERE status IN ('equivalent','survived')"))")
[ "$fake" = 0 ] && ok "none of its false kills stored" || fail "$fake false kills stored"
leased=$(q "$WORK/g.db" "SELECT count(*) FROM jobs WHERE state = 'leased' AND worker_id = 'rogue'")
[ "$leased" = 0 ] && ok "no job left leased to it" || fail "$leased job(s) still leased to rogue"
bg_worker honest "$ep"
expect_exit0 coord2 "$LIMIT" "an honest worker completes the campaign"
[ "$(verdict_set "$WORK/g.db")" = "$want" ] &&
    ok "verdicts equal the undisturbed run's" ||
    fail "verdicts differ: $(diff <(echo "$want") <(verdict_set "$WORK/g.db") | head -5)"
check_store "$WORK/g.db"
late=$(awk '/rogue cut off/ {cut = 1; next} cut && /rogue (joined|reconnected)/' \
    "$WORK/coord2.err")
[ -z "$late" ] && ok "its hellos after the cut were not answered" ||
    fail "after the cut: $late"
finish
