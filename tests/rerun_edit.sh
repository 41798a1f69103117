#!/usr/bin/env bash
# rerun_edit.sh - a nightly rerun after a one-branch model edit
# (docs/nightly.md): the edited copy of beverage.smv and car_alarm.smv
# (one case branch's value changed) run on the store of the original's
# finished campaign. The stored tests kill most mutants while the
# campaign is planned, before any job exists (replay-killed more than half
# of the killed, never in a job, marked replayed); no equivalence or
# survival is taken over; and the verdict kind of every mutant id is the
# one a fresh campaign on the edited model gives (a new file).
. "$(dirname "$0")/farm_common.sh"

DIR=$(dirname "$MODEL")
# model|the branch as written|as edited
EDITS=(
    "$DIR/beverage.smv|inp = fill & wtr = 0 : 2;|inp = fill \\& wtr = 0 : 1;"
    "$DIR/car_alarm.smv|st = FlashOnly      & ev = tick   : SilentOpen;|st = FlashOnly      \\& ev = tick   : Armed;"
)

for e in "${EDITS[@]}"; do
    IFS='|' read -r model from to <<<"$e"
    name=$(basename "$model" .smv)
    mkdir -p "$WORK/edit"
    edited=$WORK/edit/$name.smv
    sed "s/$from/$to/" "$model" >"$edited"
    if [ "$(diff "$model" "$edited" | grep -c '^[<>]')" != 2 ]; then
        fail "$name: the edit changed $(diff "$model" "$edited" | grep -c '^[<>]') lines, not one"
        continue
    fi
    db=$WORK/$name.db
    args=(--bound 8 --workers 2 --config "$CONF")

    bg orig "$MF_BIN" run "$model" "${args[@]}" --db "$db"
    wait_exit "$PID_orig" "$LIMIT" || fail "$name: run on the original: $(tail -2 "$WORK/orig.err")"
    bg edit "$MF_BIN" run "$edited" "${args[@]}" --db "$db"
    wait_exit "$PID_edit" "$LIMIT"
    code=$?
    [ $code = 0 ] && ok "$name: the rerun on the edited model exits 0" ||
        fail "$name: rerun: exit $code: $(tail -3 "$WORK/edit.err")"
    bg fresh "$MF_BIN" run "$edited" "${args[@]}" --db "$WORK/$name.fresh.db"
    wait_exit "$PID_fresh" "$LIMIT" || fail "$name: fresh run: $(tail -2 "$WORK/fresh.err")"

    IFS='|' read -r reuse basis replayed tests to_solver <<<"$(q "$db" \
        "SELECT reuse, basis_id, replay_killed, replay_tests, to_solver
         FROM campaign_reuse WHERE campaign_id = 2")"
    killed=$(q "$db" "SELECT killed FROM campaign_scores WHERE campaign_id = 2")
    total=$(q "$db" "SELECT total FROM campaign_scores WHERE campaign_id = 2")
    [ "$reuse|$basis" = "replay|1" ] && ok "$name: replays the tests of campaign 1" ||
        fail "$name: reuse '$reuse' basis '$basis'"
    if [ "${replayed:-0}" -gt 0 ] && [ $((2 * replayed)) -gt "$killed" ]; then
        ok "$name: $tests stored tests kill $replayed of the $killed killed mutants before any solver call"
    else
        fail "$name: replay-killed $replayed of $killed killed"
    fi
    [ $((replayed + to_solver)) = "$total" ] &&
        ok "$name: the other $to_solver of $total went to the solver" ||
        fail "$name: replayed $replayed + to the solver $to_solver != $total"
    grep -q "$replayed killed by its replayed tests; $to_solver sent to the solver" \
        "$WORK/edit.out" && ok "$name: the summary says so" ||
        fail "$name: summary: $(cat "$WORK/edit.out")"
    n=$(q "$db" "SELECT count(*) FROM verdicts v JOIN mutants m ON m.id = v.mutant
                 WHERE v.campaign_id = 2 AND v.origin = 'replayed'
                   AND (m.job_id IS NOT NULL OR v.job_id IS NOT NULL
                        OR v.kind <> 'killed' OR v.test_id IS NULL)")
    [ "$n" = 0 ] && ok "$name: replayed kills have a test and were never in a job" ||
        fail "$name: $n replayed verdicts in a job or without a test"
    n=$(q "$db" "SELECT count(*) FROM mutants WHERE campaign_id = 2 AND job_id IS NOT NULL")
    [ "$n" = "$to_solver" ] && ok "$name: jobs hold exactly the $n others" ||
        fail "$name: $n mutants in jobs, $to_solver to the solver"
    n=$(q "$db" "SELECT count(*) FROM verdicts WHERE campaign_id = 2
                 AND (origin = 'carried' OR (origin IS NOT NULL AND kind <> 'killed'))")
    [ "$n" = 0 ] && ok "$name: no verdict carried across the edit" ||
        fail "$name: $n verdicts carried across a model change"
    q "$db" "SELECT mutant_id, status FROM mutant_verdicts
             WHERE campaign_id = 2 ORDER BY mutant_id" >"$WORK/rerun.kinds"
    q "$WORK/$name.fresh.db" "SELECT mutant_id, status FROM mutant_verdicts
                              ORDER BY mutant_id" >"$WORK/fresh.kinds"
    if [ -s "$WORK/fresh.kinds" ] && cmp -s "$WORK/rerun.kinds" "$WORK/fresh.kinds"; then
        ok "$name: the verdict kind of each of $(wc -l <"$WORK/fresh.kinds") mutants is the fresh campaign's"
    else
        fail "$name: verdict kinds differ from a fresh campaign:"
        diff "$WORK/rerun.kinds" "$WORK/fresh.kinds" | head -5
    fi
    r=$(q "$db" 'PRAGMA integrity_check; PRAGMA foreign_key_check')
    [ "$r" = ok ] && ok "$name: integrity and foreign keys" || fail "$name: $r"
done
finish
