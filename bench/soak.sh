#!/usr/bin/env bash
# soak.sh - the farm's soak at full size (issue 22): tests/farm_soak.sh
# with 32 worker processes on the loopback and a generated model of more
# than 20,000 mutants, workers SIGKILLed at random and three coordinator
# restarts; every mutant must end with exactly one verdict equal to an
# undisturbed run's, integrity_check ok. It prints the test's lines and
# its closing note (the counts).
#
# The model: 8 two-valued state variables, each with a case of 62
# guarded branches over one input of 16 values (21,305 mutants, 20,473 to
# decide after duplicates). Its product is small (256 states x 16
# inputs), so the explicit-state method (--method explicit) decides every
# mutant exactly (kills replayed by the simulator, equivalence by
# exhausting the product) in about a millisecond. What costs is finding
# a job's mutants: the worker enumerates the model's mutants once per
# job, and the coordinator once per result to replay its kills. So jobs
# are of 200 mutants (SOAK_JOB=200: 112 jobs, a few per worker): few
# enumerations, and every phase of the campaign has jobs to cut into.
# The faults are placed by progress (decided counts), not by time; with
# 33 workers progress still moves in waves of about a third of the
# campaign (the workers' jobs end together), so each fault lands right
# after the wave that crosses its point. The heartbeats are slow enough
# for a coordinator busy
# replaying (1000 ms x 20), and the workers run at nice +5 over the
# coordinator, which 32 workers on 2 cores would starve. p1, the worker
# cut off by the partition, runs at nice 0 (SOAK_P1_NICE=0): progress
# moves in waves (every worker takes a job, the results come back
# together, each restart lands right after such a jump), and a p1 no
# faster than the others, or slowed (SOAK_P1_SLOW_MS=20: 4 s a job),
# was the last to ask for work after a restart and held jobs only of
# coordinators already SIGKILLed, so it was never cut.
#
# Measured with the release build (cmake -S . -B build
# -DCMAKE_BUILD_TYPE=Release), 28 November 2026, on 2 cores shared with
# two other sessions, `FARM_KEEP=1 bash bench/soak.sh`:
# - With the defaults here (load average 16 at the start, 10 at the
#   end): passed, 3 min 10 s in all. 21,305 mutants, 20,473 to decide
#   (816 duplicates), 112 jobs of 200; the disturbed campaign took
#   1 min 44 s of wall time, the undisturbed `mutfarm run --workers 2`
#   of it 73 s. Coordinator SIGKILLed and restarted at 6,926, 11,649
#   and 17,117 decided (aimed at 4,094, 8,189 and 12,283: each wave's
#   results commit together). 27 of 30 worker SIGKILLs landed (60
#   worker processes in all); 4 workers declared dead (p1 and 3 killed
#   ones). p1 cut at 6,926 decided holding job 39 (its second lease,
#   from the second coordinator), declared dead after 20,000 ms of
#   silence, its link restored after 26 s; w3's late result of job 39's
#   first lease had been taken meanwhile (p1's lease cancelled, nothing
#   back in the queue) and p1's own result, re-sent on reconnection,
#   ignored; over the campaign 1 late result of p1 taken, 2 ignored.
#   24 late results taken in all, 0 lease expiries, 0 jobs
#   quarantined, 32 jobs leased more than once (at most 4 times).
#   Every mutant has exactly one verdict row (6,350 killed, 14,123
#   equivalent), each equal to the undisturbed run's (21,289 mutants
#   compared by mutant_verdicts, duplicates included); one campaign,
#   resumed each time; PRAGMA integrity_check ok.
#   Run again (load 5 to 13): passed, 3 min 29 s in all; restarts at
#   6,926, 11,603 and 17,315; 27 worker kills; p1 cut at 6,926 holding
#   job 39, declared dead, restored after 24 s, its result ignored;
#   21 late results taken, 0 expiries, 0 quarantined; verdicts equal
#   to the undisturbed run's; integrity_check ok.
#   Run on main after the merge (schema 8; load 1 to 6): passed, 1 min
#   40 s in all; restart 1 at 6,926 decided, p1 cut at 6,932 holding
#   job 44, restored after 24 s; restarts 2 and 3 both at 19,273 (the
#   campaign had moved on while p1 was cut, and no restart lands during
#   the cut); 24 of 30 worker kills landed, 6 workers declared dead;
#   10 late results taken, p1's 2 ignored; 0 expiries, 0 quarantined;
#   verdicts equal to the undisturbed run's; integrity_check ok.
# - p1 at nice +5 and slowed by 20 ms a mutant (load 7 to 25): passed
#   once, 2 min 19 s for the disturbed campaign (restarts at 6,526,
#   11,687 and 17,159; 30 worker kills; p1 cut at 17,159 holding job 84
#   of the fourth coordinator, declared dead after 20 s, restored after
#   22 s; 22 late results taken, 0 quarantined; verdicts equal to the
#   undisturbed run's), then failed: "the partition of p1 went
#   unnoticed" (p1 never held a job of a running coordinator after
#   three tenths), everything else passing; the same with p1 at nice +5
#   and not slowed.
#
# usage: bench/soak.sh            env: MF_BIN (default ./build/mutfarm),
#        SOAK_VARS (state variables, default 8), SOAK_BRANCHES (per
#        variable, default 62), SOAK_WORKERS (default 32), SOAK_KILLS
#        (default 30), SOAK_JOB (default 200), SOAK_PARTITION (default
#        1: one more worker in a network namespace, its link cut at
#        three tenths of the campaign while it holds a job;
#        tests/farm_partition.sh), SOAK_P1_SLOW_MS (default 0),
#        SOAK_P1_NICE (default 0),
#        SOAK_CALM_DB (a store of the campaign run undisturbed before:
#        compared with instead of running it again)
set -uo pipefail
cd "$(dirname "$0")/.."
MF_BIN=${MF_BIN:-./build/mutfarm}
nv=${SOAK_VARS:-8}
nb=${SOAK_BRANCHES:-62}
work=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench-soak.XXXXXX")
trap 'rm -rf "$work"' EXIT
{
    echo "MODULE main"
    echo "IVAR"
    echo "  inp : 0..15;"
    echo "VAR"
    for k in $(seq "$nv"); do echo "  x$k : 0..1;"; done
    echo "ASSIGN"
    for k in $(seq "$nv"); do
        echo "  init(x$k) := 0;"
        echo "  next(x$k) := case"
        for i in $(seq "$nb"); do
            echo "    inp = $(((i + k) % 16)) & x$k = $((i % 2)) : $(((i * 7 + k) % 2));"
        done
        echo "    TRUE : x$k;"
        echo "  esac;"
    done
} >"$work/bank.smv"
echo "== soak: $("$MF_BIN" mutants list "$work/bank.smv" | wc -l) mutants of $nv variables x $nb branches, ${SOAK_WORKERS:-32} workers, load $(cut -d' ' -f1-3 /proc/loadavg)"
SOAK_MODEL=$work/bank.smv SOAK_ARGS=${SOAK_ARGS:-"--bound 2 --method explicit"} \
    SOAK_WORKERS=${SOAK_WORKERS:-32} SOAK_SLOW_MS=${SOAK_SLOW_MS:-0} \
    SOAK_KILLS=${SOAK_KILLS:-30} SOAK_JOB=${SOAK_JOB:-200} SOAK_POLL=${SOAK_POLL:-1} \
    SOAK_HEARTBEAT_MS=${SOAK_HEARTBEAT_MS:-1000} SOAK_LIVENESS=${SOAK_LIVENESS:-20} \
    SOAK_WORKER_NICE=${SOAK_WORKER_NICE:-5} SOAK_P1_SLOW_MS=${SOAK_P1_SLOW_MS:-0} \
    SOAK_P1_NICE=${SOAK_P1_NICE:-0} \
    SOAK_PARTITION=${SOAK_PARTITION:-1} FARM_LIMIT=${FARM_LIMIT:-7200} MF_BIN=$MF_BIN bash tests/farm_soak.sh
rc=$?
echo "== load $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
