#!/usr/bin/env bash
# timed_cli.sh - timed models on the command line (issue 33, the
# front-ends): `mutfarm model check` and `mutfarm mutants list|show` on
# the Ecdar car alarm system (a project folder, or a component's file,
# --system) and on an UPPAAL model; every mutant printed back (XML or the
# component's JSON) reads again; bad input is one line on stderr and exit
# 1, and a campaign is not created for it.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
S=${MF_SHARED_MODELS:-../shared/models}
CAS=$S/ecdar/CarAlarm
TG=$S/uppaal/DEIS-Tools__uppaal-models__Demos__Symbolic__train-gate.xml
if [ ! -d "$CAS" ] || [ ! -f "$TG" ]; then
    echo "timed_cli.sh: SKIP: no shared models in $S"
    exit 77
fi
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-timed-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
expect() { # expect WHAT OUTPUT PATTERN
    if ! grep -q -- "$3" <<< "$2"; then
        echo "FAIL: $1: no '$3' in:"
        echo "$2"
        fail=1
    fi
}
# refuse WHAT FILE PATTERN [OPTIONS]: exit 1, one line naming the file
refuse() {
    local what=$1 file=$2 pat=$3
    shift 3
    "$MF_BIN" model check "$file" "$@" > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    [ "$rc" = 1 ] || { echo "FAIL: $what: exit $rc, not 1"; fail=1; }
    [ "$(wc -l < "$tmp/err")" = 1 ] ||
        { echo "FAIL: $what: not one line:"; cat "$tmp/err"; fail=1; }
    expect "$what" "$(cat "$tmp/err")" "$pat"
}

# ---- the car alarm system, an Ecdar project ----------------------------------
out=$("$MF_BIN" model check "$CAS" 2>&1)
expect "CAS check" "$out" "^inputs: close open lock unlock$"
expect "CAS check" "$out" "^outputs: armedOn armedOff flashOn flashOff soundOn soundOff$"
expect "CAS check" "$out" "^processes: Alarm$"
out=$("$MF_BIN" model check "$CAS/Model/Components/Env.json" 2>&1)
expect "Env.json" "$out" "^processes: Env$"
out=$("$MF_BIN" model check "$CAS/Model/Components/Env.json" --system Alarm 2>&1)
expect "--system" "$out" "^processes: Alarm$"
refuse "--system Nope" "$CAS" "no component 'Nope' (components: Alarm, Env)" \
    --system Nope

"$MF_BIN" mutants list "$CAS" > "$tmp/list" || { echo "FAIL: list"; fail=1; }
expect "CAS list" "$(cat "$tmp/list")" "^# tmi  *25  *0  *0$"
expect "CAS list" "$(cat "$tmp/list")" "^# all  *958  *8  *1$"
out=$("$MF_BIN" mutants list "$CAS" --operators tmi,cxl 2>&1)
expect "--operators" "$out" "^# all  *43  *0  *0$"

# every paper operator's first mutant prints back as a component that
# Ecdar's reader (ours) reads in a copy of the project
mkdir -p "$tmp/p/Model/Components"
cp "$CAS/Model/GlobalDeclarations.json" "$tmp/p/Model/"
for op in tmi tad smi cxl cxs ccn; do
    id=$(awk -v op=$op '$2 == op && $4 !~ /duplicate|stillborn/ { print $1; exit }' "$tmp/list")
    "$MF_BIN" mutants show "$CAS" "$id" > "$tmp/p/Model/Components/Alarm.json" ||
        { echo "FAIL: show $op $id"; fail=1; }
    out=$("$MF_BIN" model check "$tmp/p" 2>&1)
    expect "$op mutant read again" "$out" "^processes: Alarm$"
    expect "$op mutant marked" "$(cat "$tmp/p/Model/Components/Alarm.json")" \
        "\"description\": \"mutant $id ($op)"
done

# ---- an UPPAAL model ---------------------------------------------------------
out=$("$MF_BIN" model check "$TG" 2>&1)
expect "train-gate" "$out" "^processes: Train(0) Train(1) Train(2) Train(3) Train(4) Train(5) Gate$"
"$MF_BIN" mutants list "$TG" > "$tmp/tg" || { echo "FAIL: list tg"; fail=1; }
id=$(awk '$2 == "reset-flip" { print $1; exit }' "$tmp/tg")
"$MF_BIN" mutants show "$TG" "$id" > "$tmp/m.xml"
expect "xml mark" "$(cat "$tmp/m.xml")" "<!-- mutant $id (reset-flip)"
out=$("$MF_BIN" model check "$tmp/m.xml" 2>&1)
expect "xml mutant read again" "$out" ": ok$"
out=$("$MF_BIN" model print "$TG" 2>&1)
expect "print" "$out" "^process Gate = Gate()$"

# ---- bad input: one line, exit 1 ------------------------------------------------
printf 'not xml\n' > "$tmp/bad.xml"
refuse "not XML" "$tmp/bad.xml" "error: not UPPAAL XML"
sed 's/appr\[id\]!/apr[id]!/' "$TG" > "$tmp/chan.xml"
refuse "unknown channel" "$tmp/chan.xml" "error: unknown name 'apr'"
sed "s/x&gt;=10/x \&gt;= 10 || id == 0/" "$TG" > "$tmp/guard.xml"
refuse "not a clock constraint" "$tmp/guard.xml" \
    "a guard must be a conjunction of clock constraints"
refuse "built-in" "$S/uppaal/DavidC0rtes__UppaalMutants__src__Parser__Test__ventilador.xml" \
    "unsupported: UPPAAL's built-in function 'round'"
refuse "--inputs" "$TG" "unknown channel 'nope'" --inputs nope
mkdir -p "$tmp/empty"
refuse "empty folder" "$tmp/empty" "error: not an Ecdar project"

# nothing is stored for a model that is refused
"$MF_BIN" run "$tmp/bad.xml" --db "$tmp/bad.db" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: run bad.xml exits $rc, not 1"; fail=1; }
[ ! -s "$tmp/bad.db" ] || {
    n=$(sqlite3 "$tmp/bad.db" 'SELECT count(*) FROM campaigns' 2>/dev/null || echo 0)
    [ "$n" = 0 ] || { echo "FAIL: a campaign was stored for bad.xml"; fail=1; }
}
# a well-formed timed model is refused by the farm (check decides it),
# one line, exit 1, no campaign
"$MF_BIN" run "$CAS" --db "$tmp/cas.db" --workers 1 > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: run CAS exits $rc, not 1"; fail=1; }
expect "run CAS" "$(cat "$tmp/out")" "campaigns on the farm do not take timed models yet"
[ "$(wc -l < "$tmp/out")" = 1 ] || { echo "FAIL: run CAS: more than one line"; fail=1; }
[ ! -s "$tmp/cas.db" ] || {
    n=$(sqlite3 "$tmp/cas.db" 'SELECT count(*) FROM campaigns' 2>/dev/null || echo 0)
    [ "$n" = 0 ] || { echo "FAIL: a campaign was stored for the CAS"; fail=1; }
}
[ "$fail" = 0 ] && echo "timed_cli.sh: ok"
exit $fail
