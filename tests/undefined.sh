#!/usr/bin/env bash
# undefined.sh - undefined values are a verdict, not an error (issue 36;
# docs/semantics.md, Undefined observables). On tests/models/sis_env.smv,
# observing the DEFINE SafetyInjection:
# - a11a7f56d8918e45 removes the case branch for TooLow, the initial mode:
#   killed at length 0 by every method, the test saying the mutant's
#   SafetyInjection is undefined there;
# - 0cae258afcc83058 removes the branch for Permitted, a mode reached after
#   30 steps: killed at length 30 with the same note;
# - a85d9fe3207cc60d removes next(Pressure)'s TRUE branch: the mutant
#   refuses the first step, and the test names next(Pressure).
# A mutant of a small model with an input VAR, killed potentially by the
# solver and the explorer alike with the same note.
# A small model whose original leaves its observable undefined after three
# steps: `model check` warns with the test reaching it, `run` refuses it
# (exit 1) unless --undefined value is given; a model without such a state
# gets no warning. test_agree compares the engine with the explorer on the
# undefined mutants (0 disagreements).
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
MF_BIN=$(cd "$(dirname "$MF_BIN")" && pwd)/$(basename "$MF_BIN")
M=tests/models/sis_env.smv
fail=0
expect() { # expect WHAT OUTPUT PATTERN
    if ! grep -q -- "$3" <<< "$2"; then
        echo "FAIL: $1: no '$3' in:"
        echo "$2" | head -20
        fail=1
    fi
}
chk() { "$MF_BIN" check "$M" --observe SafetyInjection --bound 40 "$@" 2>&1; }
note="the mutant's SafetyInjection is undefined here (no case branch applies)"
for method in auto smt bdd explicit; do
    out=$(chk --mutant a11a7f56d8918e45 --method $method)
    expect "initial, $method" "$out" "^a11a7f56d8918e45  case-remove    killed     definite      length 0$"
    expect "initial note, $method" "$out" "^    init: Reset=On, Block=Off, WaterPres=2    # expect SafetyInjection=On; $note$"
done
out=$(chk --mutant 0cae258afcc83058)
expect "deep" "$out" "^0cae258afcc83058  case-remove    killed     definite      length 30$"
expect "deep note" "$out" "^    Reset=On, Block=Off, WaterPres=90    # expect SafetyInjection=Off; $note$"
out=$(chk --mutant a85d9fe3207cc60d)
expect "next" "$out" "^a85d9fe3207cc60d  case-remove    killed     definite      length 1$"
expect "next note" "$out" "# expect SafetyInjection=On; the mutant's next(Pressure) is undefined here (no case branch applies)$"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-undefined.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/orig.smv" <<'SMV'
MODULE main
IVAR go : boolean;
VAR s : 0..3;
DEFINE out := case s = 0 : FALSE; s = 1 : TRUE; s = 2 : TRUE; esac;
ASSIGN
  init(s) := 0;
  next(s) := case go & s < 3 : s + 1; TRUE : s; esac;
SMV
# A non-deterministic mutant (c is an input VAR): the solver's potential
# kill carries the mutant's undefined value, which its replay checks.
cat > "$tmp/nd.smv" <<'SMV'
MODULE main
IVAR go : boolean;
VAR s : 0..3; c : boolean;
DEFINE out := case s = 0 : FALSE; s = 1 : TRUE; s = 2 : c; s = 3 : TRUE; esac;
ASSIGN
  init(s) := 0;
  next(c) := {TRUE, FALSE};
  next(s) := case go & s < 3 : s + 1; TRUE : s; esac;
SMV
for method in smt explicit; do
    out=$("$MF_BIN" check "$tmp/nd.smv" --observe out --mutant 5805a4b6b14f1199 \
          --notion potential --method $method 2>&1)
    expect "nd, $method" "$out" "^5805a4b6b14f1199  case-remove    killed     potential     length 2$"
    expect "nd note, $method" "$out" "# expect out=0; the mutant's out is undefined here"
done
out=$("$MF_BIN" model check "$tmp/orig.smv" --observe out 2>&1)
expect "model check warns" "$out" "^warning: the original's out is undefined (no case branch applies) in a state reached in 3 steps"
expect "model check test" "$out" "^go=TRUE    # expect out=undefined$"
out=$("$MF_BIN" model check tests/models/beverage.smv 2>&1)
if grep -q "undefined" <<< "$out"; then
    echo "FAIL: beverage: a warning where no observable is undefined:"
    echo "$out"
    fail=1
fi
out=$(cd "$tmp" && "$MF_BIN" run orig.smv --observe out --workers 1 2>&1)
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: run without --undefined exits $rc, not 1"; fail=1; }
expect "run refuses" "$out" "give --undefined value"
out=$(cd "$tmp" && "$MF_BIN" run orig.smv --observe out --workers 1 --undefined value 2>&1)
rc=$?
[ "$rc" = 0 ] || { echo "FAIL: run --undefined value exits $rc: $out"; fail=1; }
out=$(cd "$tmp" && "$MF_BIN" run orig.smv --observe out --undefined other 2>&1)
expect "bad --undefined" "$out" "--undefined takes 'value'"

agree=${MF_AGREE_BIN:-$(dirname "$MF_BIN")/test_agree}
if [ -x "$agree" ]; then
    out=$(MF_AGREE_MODELS=sis_env MF_AGREE_PER_MODEL=0 MF_AGREE_DEPTH=claim \
          MF_AGREE_IDS=a11a7f56d8918e45,a85d9fe3207cc60d,2fe56ec3bdb441ac,24f6f102d3b93b69 \
          "$agree" 2>&1)
    expect "test_agree" "$out" "0 disagreements"
fi
exit $fail
