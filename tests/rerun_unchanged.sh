#!/usr/bin/env bash
# rerun_unchanged.sh - a nightly rerun of an unchanged model
# (docs/nightly.md): `mutfarm run` again on the same store carries every
# verdict of the finished campaign over, sends nothing to the solver (the
# run's statistics, in the store and in the summary), starts no worker,
# and ends with the same verdict, notion and bound for every mutant, its
# tests and kills copied (with columns a later migration adds), and a
# second score_history row. --fresh recomputes everything. Beverage and
# car alarm, real binary, real store files.
. "$(dirname "$0")/farm_common.sh"

MODELS=("$MODEL" "$(dirname "$MODEL")/car_alarm.smv")

for model in "${MODELS[@]}"; do
    name=$(basename "$model" .smv)
    db=$WORK/$name.db
    args=(--bound 8 --workers 2 --config "$CONF" --db "$db")

    bg first "$MF_BIN" run "$model" "${args[@]}"
    wait_exit "$PID_first" "$LIMIT"
    code=$?
    [ $code = 0 ] || fail "$name: first run: exit $code: $(tail -3 "$WORK/first.err")"
    total=$(q "$db" "SELECT total FROM campaign_scores WHERE campaign_id = 1")
    # A column a later migration might add (as 002 adds kills.notion) is
    # carried along with the rest of the row.
    q "$db" "ALTER TABLE kills ADD COLUMN extra TEXT;
             UPDATE kills SET extra = 'x' || test_id;
             ALTER TABLE tests ADD COLUMN extra TEXT;
             UPDATE tests SET extra = 'h' || substr(hash, 1, 8)"
    workers_before=$(q "$db" 'SELECT count(*) FROM workers')

    bg second "$MF_BIN" run "$model" "${args[@]}"
    wait_exit "$PID_second" "$LIMIT"
    code=$?
    [ $code = 0 ] && ok "$name: second run exits 0" ||
        fail "$name: second run: exit $code: $(tail -3 "$WORK/second.err")"

    row=$(q "$db" "SELECT reuse, basis_id, carried, replay_killed, to_solver
                   FROM campaign_reuse WHERE campaign_id = 2")
    [ "$row" = "carry|1|$total|0|0" ] &&
        ok "$name: all $total verdicts carried from campaign 1, 0 to the solver" ||
        fail "$name: campaign_reuse of campaign 2: '$row' (total $total)"
    grep -q "taken over from campaign 1: $total carried, 0 killed by its replayed tests; 0 sent to the solver" \
        "$WORK/second.out" && ok "$name: the summary says 0 sent to the solver" ||
        fail "$name: summary: $(cat "$WORK/second.out")"
    "$MF_BIN" status --db "$db" >"$WORK/status.out" 2>&1
    grep -q "taken over from campaign 1: $total carried, 0 killed by its replayed tests; 0 sent to the solver" \
        "$WORK/status.out" && ok "$name: status says what was carried" ||
        fail "$name: status: $(cat "$WORK/status.out")"
    [ "$(q "$db" 'SELECT count(*) FROM jobs WHERE campaign_id = 2')" = 0 ] &&
        ok "$name: no job cut" || fail "$name: jobs were cut for campaign 2"
    [ "$(q "$db" 'SELECT count(*) FROM workers')" = "$workers_before" ] &&
        ok "$name: no worker started" ||
        fail "$name: workers: $(q "$db" 'SELECT id FROM workers')"

    q "$db" "SELECT mutant_id, status, notion, bound FROM mutant_verdicts
             WHERE campaign_id = 1 ORDER BY mutant_id" >"$WORK/v1"
    q "$db" "SELECT mutant_id, status, notion, bound FROM mutant_verdicts
             WHERE campaign_id = 2 ORDER BY mutant_id" >"$WORK/v2"
    if [ -s "$WORK/v1" ] && cmp -s "$WORK/v1" "$WORK/v2"; then
        ok "$name: the same verdict, notion and bound for all $(wc -l <"$WORK/v1") mutants"
    else
        fail "$name: verdicts differ:"
        diff "$WORK/v1" "$WORK/v2" | head -5
    fi
    n=$(q "$db" "SELECT count(*) FROM verdicts WHERE campaign_id = 2
                 AND (origin IS NOT 'carried' OR origin_campaign IS NOT 1)")
    [ "$n" = 0 ] && ok "$name: every verdict marked carried from campaign 1" ||
        fail "$name: $n verdicts of campaign 2 not marked carried"
    # Each killed verdict's test is a test of campaign 2 with the same
    # content as the one of campaign 1.
    n=$(q "$db" "SELECT count(*) FROM verdicts v2 JOIN mutants m2 ON m2.id = v2.mutant
                 JOIN mutants m1 ON m1.campaign_id = 1 AND m1.mutant_id = m2.mutant_id
                 JOIN verdicts v1 ON v1.mutant = m1.id
                 JOIN tests t1 ON t1.id = v1.test_id
                 JOIN tests t2 ON t2.id = v2.test_id
                 WHERE v2.campaign_id = 2 AND t2.campaign_id = 2
                   AND t2.hash = t1.hash AND t2.inputs = t1.inputs")
    k=$(q "$db" "SELECT killed FROM campaign_scores WHERE campaign_id = 1")
    [ "$n" = "$k" ] && ok "$name: the $k killing tests copied into campaign 2" ||
        fail "$name: $n of $k killing tests copied"
    for t in tests kills; do
        c1=$(q "$db" "SELECT count(*), count(DISTINCT extra) FROM $t WHERE campaign_id = 1")
        c2=$(q "$db" "SELECT count(*), count(DISTINCT extra) FROM $t WHERE campaign_id = 2")
        [ "$c1" = "$c2" ] && ok "$name: $t copied with their extra column ($c2)" ||
            fail "$name: $t: campaign 1 $c1, campaign 2 $c2"
    done
    [ "$(q "$db" 'SELECT count(*) FROM score_history')" = 2 ] &&
        ok "$name: score_history has a row per campaign" ||
        fail "$name: score_history: $(q "$db" 'SELECT campaign_id FROM score_history')"
    r=$(q "$db" 'PRAGMA integrity_check; PRAGMA foreign_key_check')
    [ "$r" = ok ] && ok "$name: integrity and foreign keys" || fail "$name: $r"

    # --fresh: no carry, no replay; every mutant to the solver again.
    bg fresh "$MF_BIN" run "$model" "${args[@]}" --fresh
    wait_exit "$PID_fresh" "$LIMIT"
    code=$?
    [ $code = 0 ] || fail "$name: --fresh: exit $code: $(tail -3 "$WORK/fresh.err")"
    row=$(q "$db" "SELECT reuse, coalesce(basis_id, 0), carried, replay_killed, to_solver
                   FROM campaign_reuse WHERE campaign_id = 3")
    [ "$row" = "fresh|0|0|0|$total" ] &&
        ok "$name: --fresh sends all $total to the solver" ||
        fail "$name: --fresh: campaign_reuse '$row'"
    q "$db" "SELECT mutant_id, status FROM mutant_verdicts
             WHERE campaign_id = 3 ORDER BY mutant_id" >"$WORK/v3"
    cut -d'|' -f1,2 "$WORK/v1" >"$WORK/v1k"
    cmp -s "$WORK/v1k" "$WORK/v3" && ok "$name: --fresh gives the same verdicts" ||
        fail "$name: --fresh verdicts differ"
done
finish
