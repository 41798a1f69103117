#!/usr/bin/env bash
# rerun_sample.sh - `mutfarm run --sample N` (docs/running.md): N evenly
# spaced mutants of those to check, the ones `mutfarm check --sample N`
# takes; the sample is part of the campaign's options, so the same sample
# again is carried over and the whole campaign is another one.
. "$(dirname "$0")/farm_common.sh"

db=$WORK/s.db
args=(--bound 4 --workers 2 --config "$CONF" --db "$db")
bg s1 "$MF_BIN" run "$MODEL" "${args[@]}" --sample 10
wait_exit "$PID_s1" "$LIMIT" || fail "--sample 10: $(tail -3 "$WORK/s1.err")"
r=$(q "$db" "SELECT total, killed + equivalent + survived + unknown + error
             FROM campaign_scores WHERE campaign_id = 1")
[ "$r" = "10|10" ] && ok "--sample 10: 10 mutants, each decided" ||
    fail "--sample 10: total|decided = $r"
"$MF_BIN" mutants list "$MODEL" |
    awk '!/^#/ && $4 != "duplicate" && $4 != "stillborn" {print $1}' >"$WORK/ok"
m=$(wc -l <"$WORK/ok")
awk -v m="$m" 'BEGIN { for (k = 0; k < 10; k++) print int(k * m / 10) + 1 }' |
    while read -r line; do sed -n "${line}p" "$WORK/ok"; done | sort >"$WORK/want"
q "$db" "SELECT mutant_id FROM mutants WHERE campaign_id = 1 ORDER BY mutant_id" \
    >"$WORK/got"
cmp -s "$WORK/want" "$WORK/got" && ok "the 10 are evenly spaced over the $m to check" ||
    { fail "sampled mutants differ:"; diff "$WORK/want" "$WORK/got" | head -4; }
q "$db" "SELECT options FROM campaigns WHERE id = 1" | grep -q '"sample":10' &&
    ok "the sample is in the campaign's options" || fail "options lack the sample"

bg s2 "$MF_BIN" run "$MODEL" "${args[@]}" --sample 10
wait_exit "$PID_s2" "$LIMIT" || fail "--sample 10 again: $(tail -3 "$WORK/s2.err")"
r=$(q "$db" "SELECT reuse, carried, to_solver FROM campaign_reuse WHERE campaign_id = 2")
[ "$r" = "carry|10|0" ] && ok "the same sample again: 10 carried, 0 to the solver" ||
    fail "second sample: $r"

bg all "$MF_BIN" run "$MODEL" "${args[@]}"
wait_exit "$PID_all" "$LIMIT" || fail "whole run: $(tail -3 "$WORK/all.err")"
r=$(q "$db" "SELECT r.reuse, r.carried, s.total FROM campaign_reuse r
             JOIN campaign_scores s USING (campaign_id) WHERE campaign_id = 3")
[ "$r" = "replay|0|$m" ] &&
    ok "without --sample: a campaign of all $m, nothing carried from the sample" ||
    fail "whole campaign: $r"

for bad in 0 x -3; do
    timeout 30 "$MF_BIN" run "$MODEL" --sample "$bad" --db "$WORK/x.db" \
        >/dev/null 2>"$WORK/bad.err"
    code=$?
    [ $code = 1 ] && grep -q -- '--sample' "$WORK/bad.err" &&
        ok "--sample $bad: exit 1" || fail "--sample $bad: exit $code"
done
finish
