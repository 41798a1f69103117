#!/usr/bin/env bash
# check_stream.sh - `mutfarm check --all` prints each verdict as it is
# decided (issue 36): a run killed by SIGKILL after its first verdicts has
# printed them, whole (a killed mutant's test with it), in the mutants'
# order, without the summary line that only the end prints. The run is
# sis_env.smv's mutants each in a fresh engine (--mode fresh), long enough
# to be cut; where it ends before its second verdict could be seen there
# is nothing to test (skipped).
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
M=tests/models/sis_env.smv
TMP=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
verdicts() { grep -c '^[0-9a-f]\{16\}  ' "$TMP/out"; }

"$MF_BIN" check "$M" --all --mode fresh --bound 40 \
    --observe SafetyInjection > "$TMP/out" 2> "$TMP/err" &
pid=$!
for _ in $(seq 1 600); do # at most 120 s
    [ "$(verdicts)" -ge 2 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
done
if ! kill -9 "$pid" 2>/dev/null; then
    echo "SKIP: the run ended before it could be cut"
    exit 77
fi
wait "$pid" 2>/dev/null
pid=
fail=0
n=$(verdicts)
if [ "$n" -lt 2 ]; then
    echo "FAIL: $n verdicts printed before SIGKILL; stdout:"
    head -20 "$TMP/out"
    fail=1
fi
if grep -q '^# [0-9]* mutants:' "$TMP/out"; then
    echo "FAIL: the summary of a run that was cut"
    fail=1
fi
# The printed ids are the first mutants of the list, in its order.
"$MF_BIN" mutants list "$M" |
    awk 'length($1) == 16 && $1 ~ /^[0-9a-f]+$/ && !/duplicate|stillborn/ \
         { print $1 }' | head -n "$n" > "$TMP/ids"
grep -o '^[0-9a-f]\{16\}' "$TMP/out" > "$TMP/printed"
if ! cmp -s "$TMP/ids" "$TMP/printed"; then
    echo "FAIL: printed ids not the first $n mutants in order:"
    diff "$TMP/ids" "$TMP/printed" | head
    fail=1
fi
# Every line whole: a verdict, or a line of a kill's test.
if grep -v '^[0-9a-f]\{16\}  \|^    ' "$TMP/out" | grep -q .; then
    echo "FAIL: a line neither a verdict nor a test's:"
    grep -v '^[0-9a-f]\{16\}  \|^    ' "$TMP/out" | head -5
    fail=1
fi
[ "$fail" = 0 ] && echo "check_stream: ok ($n verdicts before SIGKILL)"
exit "$fail"
