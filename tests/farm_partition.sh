#!/usr/bin/env bash
# farm_partition.sh - a worker cut off by the network (issue 22): w1 runs
# in its own network namespace, reached over a veth pair (the coordinator
# binds on this end's address); it takes a job, then its link goes down
# for longer than its lease on life (heartbeat_ms x liveness): the
# coordinator declares it dead and leases the job again, to w2. The link
# comes back; w1 reconnects and sends its result of the first lease, which is
# handled as any late result (issue 22, point 5): taken while w2's re-run
# is not finished (w2's lease cancelled), ignored if it is. Every mutant
# ends with exactly one verdict, equal to an undisturbed run's;
# integrity_check ok. Skipped (77) where network namespaces are not
# allowed (not root, no iproute2, no veth).
#
# Timing: jobs of 9 mutants; w1 spends 600 ms on each (MF_TEST_MUTANT_MS),
# w2 1000 ms, so w2's re-run ends seconds after w1, whose result waits
# only for its reconnection; then the two share the other two jobs.
. "$(dirname "$0")/farm_common.sh"

if ! net_setup; then
    echo "$TEST_NAME: skipped: $NET_WHY"
    exit 77
fi
cat >>"$CONF" <<'EOF2'
job_min = 9
job_max = 9
EOF2
# 27 mutants: next(out) 9, next(wtr) 18 (three jobs).
ARGS=(--bound 2 --operators rel-op,negate --config "$CONF")
ep=tcp://$NET_HOST:$(free_port)
DB=$WORK/f.db

bg coord "$MF_BIN" coordinator "$MODEL" --db "$DB" --bind "$ep" "${ARGS[@]}"
MF_TEST_MUTANT_MS=600 net_bg w1 "$MF_BIN" worker --connect "$ep" --threads 1 \
    --id w1 --heartbeat 250 --liveness 4
held_by() { # JOB WORKER ATTEMPTS: the job is leased to WORKER as that attempt
    [ "$(q "$DB" "SELECT state || ' ' || worker_id || ' ' || attempts FROM jobs
                  WHERE id = $1" 2>/dev/null)" = "leased $2 $3" ]
}
w1_leased() {
    job=$(q "$DB" "SELECT id FROM jobs WHERE state = 'leased' AND worker_id = 'w1'" 2>/dev/null)
    [ -n "$job" ]
}
if ! wait_for 60 w1_leased; then
    fail "w1 (in namespace $NET_NS, $NET_PEER) never got a job: $(tail -3 "$WORK/w1.err")"
    finish
fi
net_cut
cut=$SECONDS
# Attempt 1, unless w1 was slow to answer and said hello twice (a loaded
# machine): its second hello gave the job back and took it again.
att=$(q "$DB" "SELECT attempts FROM jobs WHERE id = $job")
ok "w1 holds job $job (attempt $att); its link is cut"

# w2 comes after w1 is declared dead, so that the job back in the queue
# (the oldest pending) is the first it gets.
dead() { grep -q "worker w1 silent for .*declared dead" "$WORK/coord.err"; }
wait_for 30 dead && ok "the coordinator declares w1 dead" ||
    fail "w1 not declared dead: $(tail -3 "$WORK/coord.err")"
MF_TEST_MUTANT_MS=1000 bg_worker w2 "$ep"
if wait_for 30 held_by "$job" w2 $((att + 1)); then
    ok "job $job leased again, to w2 (attempt $((att + 1))), $((SECONDS - cut)) s into the partition"
else
    fail "job $job not leased again to w2: $(q "$DB" "SELECT * FROM jobs WHERE id = $job")"
fi
net_heal
ok "link restored"

expect_exit0 coord 120 "the coordinator completes the campaign"
for w in w1 w2; do expect_exit0 $w 30 "$w exits 0 on bye"; done

# The late result: taken if w2's re-run had not finished, else ignored.
taken="took the late result of job $job (attempt $att) from worker w1; the lease of its re-run by worker w2 is cancelled"
r=$(q "$DB" "SELECT state, attempts, worker_id FROM jobs WHERE id = $job")
n1=$(q "$DB" "SELECT count(*) FROM verdicts WHERE job_id = $job AND attempt = $att AND worker_id = 'w1'")
n2=$(q "$DB" "SELECT count(*) FROM verdicts WHERE job_id = $job AND attempt = $((att + 1))")
nmut=$(q "$DB" "SELECT nmut FROM jobs WHERE id = $job")
if grep -qF "$taken" "$WORK/coord.err"; then
    ok "w1's late result of job $job taken, w2's lease cancelled"
    [ "$r" = "done|$((att + 1))|w1" ] && [ "$n1" = "$nmut" ] && [ "$n2" = 0 ] &&
        ok "job $job: its $nmut verdicts are w1's attempt $att" ||
        fail "job $job: $r, $n1 verdicts of attempt $att, $n2 of attempt $((att + 1))"
    # w2's own result, if it came before the end, is not stored.
    if grep -q "job $job (attempt $((att + 1))) from worker w2" "$WORK/coord.err"; then
        grep -q "ignored a result of job $job (attempt $((att + 1))) from worker w2: job $job is already done" \
            "$WORK/coord.err" && ok "w2's result of attempt $((att + 1)) ignored" ||
            fail "w2's result: $(grep "job $job (attempt $((att + 1)))" "$WORK/coord.err")"
    fi
elif grep -q "ignored a result of job $job (attempt $att) from worker w1" "$WORK/coord.err"; then
    ok "w1's late result of job $job ignored: w2's re-run had finished"
    [ "$r" = "done|$((att + 1))|w2" ] && [ "$n2" = "$nmut" ] && [ "$n1" = 0 ] &&
        ok "job $job: its $nmut verdicts are w2's attempt $((att + 1))" ||
        fail "job $job: $r, $n1 verdicts of attempt $att, $n2 of attempt $((att + 1))"
else
    fail "w1's late result of job $job not seen: $(grep -E "job $job|w1" "$WORK/coord.err" | head -8)"
fi
grep -q "w1.*reconnect\|no word from the coordinator" "$WORK/w1.err" &&
    ok "w1 noticed the silence and reconnected" ||
    fail "w1 never lost the coordinator: $(tail -3 "$WORK/w1.err")"
check_store "$DB"
dups=$(q "$DB" "SELECT count(*) FROM (SELECT mutant FROM verdicts GROUP BY mutant HAVING count(*) > 1)")
[ "$dups" = 0 ] && ok "no mutant with two verdict rows" || fail "$dups mutants with two verdicts"

same_as_undisturbed "$DB" "$MODEL" 1 "${ARGS[@]}"
finish
