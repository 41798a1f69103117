#!/usr/bin/env bash
# farm_poison.sh - a poison job: one mutant makes every worker that checks
# it die (the test-only hook: the coordinator puts MF_TEST_CRASH_ON into
# each job's crash_on field, and a worker run with MF_TEST_POISON=1 kills
# itself with SIGKILL before checking that mutant). The job is leased
# max_attempts times, then quarantined: its mutants get `error`, the rest
# of the campaign completes, and `mutfarm run` restarts the dead workers.
. "$(dirname "$0")/farm_common.sh"

victim=$("$MF_BIN" mutants list "$MODEL" --operators enum-replace |
    grep -Eo '^[0-9a-f]{16}' | head -1)
[ -n "$victim" ] || { fail "no enum-replace mutant to poison"; finish; }

MF_TEST_POISON=1 MF_TEST_CRASH_ON=$victim \
    bg run "$MF_BIN" run "$MODEL" --db "$WORK/p.db" --workers 2 --bound 2 \
    --operators "$OPS_SMALL" --config "$CONF"
expect_exit0 run "$LIMIT" "the campaign completes despite the poison, exit 0"
deaths=$(grep -c 'died (killed by signal 9)' "$WORK/run.err")
[ "$deaths" = 3 ] && ok "3 workers died on it and were restarted" ||
    fail "$deaths worker deaths (expected max_attempts = 3): $(grep died "$WORK/run.err")"
qj=$(q "$WORK/p.db" "SELECT id || ' ' || attempts FROM jobs WHERE state = 'quarantined'")
job=${qj%% *}
[ -n "$job" ] && [ "$(echo "$qj" | wc -l)" = 1 ] && [ "${qj#* }" = 3 ] &&
    ok "one job quarantined after 3 attempts (job $job)" ||
    fail "quarantined jobs: '$qj'"
st=$(q "$WORK/p.db" "SELECT status FROM mutant_verdicts WHERE mutant_id = '$victim'")
[ "$st" = error ] && ok "the poison mutant's verdict is error" || fail "victim: $st"
why=$(q "$WORK/p.db" "SELECT reason FROM problems WHERE mutant_id = '$victim'")
[ -n "$why" ] && ok "with a reason: $why" || fail "no reason for the error verdict"
others=$(q "$WORK/p.db" "SELECT count(*) FROM verdicts v JOIN mutants m ON m.id = v.mutant
                         WHERE v.kind = 'error' AND coalesce(m.job_id, -1) <> $job")
[ "$others" = 0 ] && ok "no error verdict outside the quarantined job" ||
    fail "$others error verdicts outside it"
check_store "$WORK/p.db"

# The same with a single local worker: its slot is restarted after each
# crash (a crash is not a failed start), and the job still gets quarantined.
MF_TEST_POISON=1 MF_TEST_CRASH_ON=$victim \
    bg run1 "$MF_BIN" run "$MODEL" --db "$WORK/p1.db" --workers 1 --bound 2 \
    --operators "$OPS_SMALL" --config "$CONF"
expect_exit0 run1 "$LIMIT" "with one worker: complete, exit 0"
[ "$(q "$WORK/p1.db" "SELECT count(*) FROM jobs WHERE state = 'quarantined'")" = 1 ] &&
    ok "with one worker: the job is quarantined" || fail "with one worker: no quarantine"
check_store "$WORK/p1.db"
finish
