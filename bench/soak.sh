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
# are of 200 mutants (SOAK_JOB=200: about 100 jobs), enough for few
# enumerations and small enough that progress moves in steps of 1% and
# the faults, placed by progress (decided counts), land where they are
# meant to; the heartbeats are slow enough for a coordinator busy
# replaying (1000 ms x 20), and the workers run at nice +5 over the
# coordinator, which 32 workers on 2 cores would starve. p1, the worker
# cut off by the partition, alone is slowed (SOAK_P1_SLOW_MS=20: 4 s a
# job) so that it holds a job long enough to be cut mid-job.
#
# Measured with the release build (cmake -S . -B build
# -DCMAKE_BUILD_TYPE=Release), 28 November 2026, on 2 cores shared with
# two other sessions (load average 7 at the start, 25 at the peak),
# `FARM_KEEP=1 bash bench/soak.sh`: passed.
# - 21,305 mutants, 20,473 to decide (816 duplicates), 112 jobs; the
#   disturbed campaign took 2 min 19 s of wall time, the undisturbed
#   `mutfarm run --workers 2` of the same campaign 1 min 32 s.
# - 3 coordinator restarts (SIGKILL), at 6,526, 11,687 and 17,159
#   decided (aimed at 4,094, 8,189 and 12,283: progress moves in steps
#   of a few thousand, each wake-up committing many results at once).
# - 30 worker kills landed (SIGKILL at random, each replaced: 62 worker
#   processes in all); 8 workers declared dead (7 of the killed ones
#   and p1), 2 of them with a job back in the queue.
# - The partition: p1 cut at 17,159 decided, holding job 84 (its third
#   lease, from the fourth coordinator), declared dead after 20,000 ms
#   of silence, its link restored after 22 s. Meanwhile w33's late
#   result of job 84's second lease was taken (p1's lease cancelled);
#   p1's own result, re-sent on reconnection, was ignored ("already
#   done"): 0 late results of p1 taken, 1 ignored.
# - 22 late results taken in all, 0 lease expiries, 0 jobs quarantined;
#   35 jobs leased more than once (at most 4 times).
# - Every mutant has exactly one verdict row (6,350 killed, 14,123
#   equivalent), each equal to the undisturbed run's (21,289 mutants
#   compared by mutant_verdicts, duplicates included); one campaign,
#   resumed each time; PRAGMA integrity_check ok.
#
# usage: bench/soak.sh            env: MF_BIN (default ./build/mutfarm),
#        SOAK_VARS (state variables, default 8), SOAK_BRANCHES (per
#        variable, default 62), SOAK_WORKERS (default 32), SOAK_KILLS
#        (default 30), SOAK_JOB (default 200), SOAK_PARTITION (default
#        1: one more worker in a network namespace, its link cut at
#        three tenths of the campaign while it holds a job;
#        tests/farm_partition.sh), SOAK_P1_SLOW_MS (default 20),
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
    SOAK_WORKER_NICE=${SOAK_WORKER_NICE:-5} SOAK_P1_SLOW_MS=${SOAK_P1_SLOW_MS:-20} \
    SOAK_PARTITION=${SOAK_PARTITION:-1} FARM_LIMIT=${FARM_LIMIT:-7200} MF_BIN=$MF_BIN bash tests/farm_soak.sh
echo "== load $(cut -d' ' -f1-3 /proc/loadavg)"
