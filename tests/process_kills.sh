#!/usr/bin/env bash
# process_kills.sh - kills of a model with NuSMV processes (issue 23) read
# from `mutfarm check` output and replayed by `mutfarm simulate`: every
# step of every kill's test names the process that moves
# (`_process_selector_=P`, P one of main, w1, w2); every deterministic
# kill, fed back to the simulator as it is printed, gives the original's
# expected observables at every step and a different trace for the mutant.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
M=tests/models/proc_turns.smv
work=$(mktemp -d "${TMPDIR:-/tmp}/mf-proc.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0

"$MF_BIN" check "$M" --all --bound 6 >"$work/check.out" 2>"$work/check.err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: check exited $rc: $(head -c 300 "$work/check.err")"; exit 1; }

# One file per killed mutant: its test lines; ids of deterministic kills.
awk -v d="$work" '
    /^[0-9a-f][0-9a-f]*  / { f = ""; if ($3 == "killed") { f = d "/" $1 ".in";
                        print $1, $4 >> (d "/kills") } next }
    f && /^    / { print > f }
' "$work/check.out"
nkill=$(wc -l <"$work/kills" 2>/dev/null || echo 0)
[ "$nkill" -ge 50 ] || { echo "FAIL: only $nkill kills"; fail=1; }

nsteps=0 ndet=0
while read -r id notion; do
    t="$work/$id.in"
    # every step line: the scheduler's choice, a process of the model
    while IFS= read -r line; do
        case "$line" in
        *"# initial state"*) continue ;;
        esac
        nsteps=$((nsteps + 1))
        if ! grep -qE '^    _process_selector_=(main|w1|w2)( |,|$)' <<<"$line"; then
            echo "FAIL: $id: a step that names no process: $line"
            fail=1
        fi
    done <"$t"
    [ "$notion" = deterministic ] || continue
    ndet=$((ndet + 1))
    # the original's trace is the expected one, the mutant's another
    "$MF_BIN" simulate "$M" --inputs "$t" >"$work/o.txt" 2>&1 ||
        { echo "FAIL: $id: simulate exited $?"; fail=1; continue; }
    sed -n 's/.*# expect //p' "$t" >"$work/want"
    sed -n 's/^step [0-9]*: //p' "$work/o.txt" >"$work/got"
    cmp -s "$work/want" "$work/got" ||
        { echo "FAIL: $id: the original does not give the expected trace"; fail=1; }
    "$MF_BIN" simulate "$M" --mutant "$id" --inputs "$t" >"$work/m.txt" 2>&1 ||
        { echo "FAIL: $id: simulate --mutant exited $?"; fail=1; continue; }
    cmp -s "$work/o.txt" "$work/m.txt" &&
        { echo "FAIL: $id: the mutant's trace is the original's"; fail=1; }
done <"$work/kills"

echo "$nkill kills, $nsteps steps each naming its process, $ndet" \
     "deterministic kills replayed by simulate"
[ "$ndet" -ge 20 ] || { echo "FAIL: only $ndet deterministic kills"; fail=1; }
exit $fail
