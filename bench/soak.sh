#!/usr/bin/env bash
# soak.sh - the farm's soak at full size (issue 22): tests/farm_soak.sh
# with 32 worker processes on the loopback and a generated model of more
# than 20,000 mutants (a bank of 200 counters, each with its own input
# guard: every mutant is decided at bound 2), workers SIGKILLed at random
# and three coordinator restarts; every mutant must end with exactly one
# verdict equal to an undisturbed run's, integrity_check ok. It prints the
# test's lines and its closing note (the counts).
#
# Cost: a bank of 20 counters (2,328 mutants) took 65 s of CPU for
# `mutfarm check --all --bound 2`, 28 ms a mutant; a bank of 200 encodes a
# larger model per job, so count on more, twice (the soak and the
# undisturbed run): tens of CPU minutes. Not part of CI
# (tests/farm_soak.sh is its CI size).
#
# Measured on 2 cores shared with other builds (load average 10 to 45),
# SOAK_VARS=20 SOAK_KILLS=30: 2,328 mutants, 32 workers, 30 of them
# SIGKILLed, 3 coordinator restarts, 71 late results taken, 0 jobs
# quarantined, every verdict equal to the undisturbed run's, integrity
# ok; 18 minutes of wall time.
#
# usage: bench/soak.sh            env: MF_BIN (default ./build/mutfarm),
#        SOAK_VARS (counters, default 200), SOAK_WORKERS (default 32)
set -uo pipefail
cd "$(dirname "$0")/.."
MF_BIN=${MF_BIN:-./build/mutfarm}
n=${SOAK_VARS:-200}
work=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench-soak.XXXXXX")
trap 'rm -rf "$work"' EXIT
{
    echo "MODULE main"
    echo "IVAR"
    echo "  inp : 0..7;"
    echo "VAR"
    for i in $(seq "$n"); do echo "  x$i : 0..3;"; done
    echo "ASSIGN"
    for i in $(seq "$n"); do
        echo "  init(x$i) := 0;"
        echo "  next(x$i) := case inp = $((i % 8)) & x$i < 3 : x$i + 1;" \
            "inp = $(((i + 3) % 8)) : 0; TRUE : x$i; esac;"
    done
} >"$work/bank.smv"
echo "== soak: $("$MF_BIN" mutants list "$work/bank.smv" | wc -l) mutants of a bank of $n counters, ${SOAK_WORKERS:-32} workers"
SOAK_MODEL=$work/bank.smv SOAK_ARGS="--bound 2" SOAK_WORKERS=${SOAK_WORKERS:-32} \
    SOAK_SLOW_MS=${SOAK_SLOW_MS:-0} SOAK_KILLS=${SOAK_KILLS:-100} FARM_LIMIT=${FARM_LIMIT:-7200} \
    MF_BIN=$MF_BIN bash tests/farm_soak.sh
