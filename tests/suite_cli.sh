#!/usr/bin/env bash
# suite_cli.sh - a user's own suite: `mutfarm tests import` and `mutfarm
# score` (docs/suites.md), with the real binary and real stores:
# - round trip: `tests export` (JSON and CSV) of a campaign, `tests
#   import` into a fresh store with its own campaign of the same model,
#   `score`: the same kills (test, mutant, notion, step, refusal) as the
#   campaign's own matrix, notion by notion, on car_alarm, the
#   non-deterministic mutation_testing model, beverage with --observe out
#   and scatter_case (allowed outputs);
# - the hand-written 5-test suite of docs/suites.md (the same text as
#   tests/suites/car_alarm.txt) scores what its kills say, and the mutants
#   it leaves alive, replayed by `mutfarm simulate` on a sample, show its
#   expected outputs; a copy with one wrong expected value is reported as a
#   wrong test at its step and line, counted apart, and kills nothing;
# - bad input (a variable the model lacks, a value outside its type, a
#   malformed line, a suite for another model, a bad CSV or JSON): one
#   line "FILE:LINE: ..." on stderr, exit 1, nothing stored;
# - `run --augment NAME`: the suite's tests (not the wrong one) kill first,
#   only the mutants they leave alive go to the solver, and the verdicts
#   are those of a campaign without the suite.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-suite-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

check() { # check WHAT CONDITION...
    local what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what"
        fail=1
    fi
}

# usage_error WHAT PATTERN ARGS...: exit 1, one line on stderr matching
# PATTERN, empty stdout
usage_error() {
    local what=$1 pat=$2
    shift 2
    "$MF_BIN" "$@" > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    local lines
    lines=$(wc -l < "$tmp/err")
    if [ "$rc" != 1 ] || [ "$lines" != 1 ] || [ -s "$tmp/out" ] ||
        ! grep -q -- "$pat" "$tmp/err"; then
        echo "FAIL: $what: exit $rc, $lines stderr lines, stdout $(wc -c < "$tmp/out") bytes:"
        cat "$tmp/err"
        fail=1
    fi
}

q() { sqlite3 "$1" "$2"; }

run() { # run DB MODEL ARGS...
    local db=$1 model=$2
    shift 2
    "$MF_BIN" run "tests/models/$model" --workers 1 --db "$db" "$@" \
        > "$tmp/run.log" 2>&1 || { echo "FAIL: run $model"; cat "$tmp/run.log"; exit 1; }
}

# Kills as "test mutant notion step refuses" lines, sorted: of an export,
# and of a score (a test by its label: the export's test id).
export_kills() {
    q :memory: "SELECT json_extract(t.value, '\$.id') || ' ' ||
        json_extract(k.value, '\$.mutant') || ' ' ||
        json_extract(k.value, '\$.notion') || ' ' ||
        json_extract(k.value, '\$.step') || ' ' ||
        ifnull(json_extract(k.value, '\$.refuses'), '-')
      FROM json_each(readfile('$1'), '\$.tests') t,
           json_each(t.value, '\$.kills') k" | sort
}
score_kills() {
    q :memory: "SELECT json_extract(k.value, '\$.label') || ' ' ||
        json_extract(k.value, '\$.mutant') || ' ' ||
        json_extract(k.value, '\$.notion') || ' ' ||
        json_extract(k.value, '\$.step') || ' ' ||
        ifnull(json_extract(k.value, '\$.refuses'), '-')
      FROM json_each(readfile('$1'), '\$.kills') k" | sort
}
jget() { q :memory: "SELECT json_extract(readfile('$1'), '$2')"; }

# ---- round trip on three models ----------------------------------------
round_trip() { # round_trip NAME MODEL RUN-ARGS...
    local name=$1 model=$2
    shift 2
    local a=$tmp/$name-a.db b=$tmp/$name-b.db
    run "$a" "$model" "$@"
    run "$b" "$model" "$@"
    "$MF_BIN" tests export --db "$a" -o "$tmp/$name.json" 2> /dev/null &&
        "$MF_BIN" tests export --db "$a" --format csv -o "$tmp/$name.csv" \
            2> /dev/null || { echo "FAIL: $name: export"; fail=1; return; }
    export_kills "$tmp/$name.json" > "$tmp/$name.want"
    check "$name: the campaign kills something" [ -s "$tmp/$name.want" ]
    for fmt in json csv; do
        "$MF_BIN" tests import --db "$b" --name "$fmt" "$tmp/$name.$fmt" \
            2> "$tmp/err" || { echo "FAIL: $name: import $fmt"; cat "$tmp/err"; fail=1; continue; }
        "$MF_BIN" score --db "$b" --suite "$fmt" --format json \
            > "$tmp/$name.$fmt.score" 2> "$tmp/err" ||
            { echo "FAIL: $name: score $fmt"; cat "$tmp/err"; fail=1; continue; }
        score_kills "$tmp/$name.$fmt.score" > "$tmp/$name.$fmt.got"
        if ! cmp -s "$tmp/$name.want" "$tmp/$name.$fmt.got"; then
            echo "FAIL: $name: $fmt round trip: kills differ from the campaign's matrix"
            diff "$tmp/$name.want" "$tmp/$name.$fmt.got" | head -5
            fail=1
        fi
        check "$name: $fmt: no wrong test" \
            [ "$(jget "$tmp/$name.$fmt.score" '$.wrong_tests')" = 0 ]
        for n in deterministic potential definite; do
            local want got
            want=$(q "$a" "SELECT count(*) FROM kills WHERE notion = '$n'")
            got=$(jget "$tmp/$name.$fmt.score" "\$.by_notion.$n.kills")
            check "$name: $fmt: $n kills $got, matrix $want" [ "$want" = "$got" ]
        done
        local killed
        killed=$(q "$a" "SELECT count(DISTINCT mutant) FROM kills")
        check "$name: $fmt: killed mutants" \
            [ "$(jget "$tmp/$name.$fmt.score" '$.killed')" = "$killed" ]
    done
}
round_trip car car_alarm.smv --bound 10
# More tests than a block of the matrix (256): car's tests six times over.
(head -1 "$tmp/car.csv"
 for r in 1 2 3 4 5 6; do
     tail -n +2 "$tmp/car.csv" | awk -F, -v r=$r 'BEGIN { OFS = "," } { $1 = r * 1000 + $1; print }'
 done) > "$tmp/big.csv"
"$MF_BIN" tests import --db "$tmp/car-b.db" "$tmp/big.csv" 2> /dev/null
"$MF_BIN" score --db "$tmp/car-b.db" --suite big --threads 2 --format json \
    > "$tmp/big.score" 2> /dev/null
check "six times the tests, six times the kills" [ \
    "$(q :memory: "SELECT json_array_length(readfile('$tmp/big.score'), '\$.kills')")" = \
    $((6 * $(wc -l < "$tmp/car.want"))) ]
round_trip nondet mutation_testing.smv --bound 8
# Allowed outputs (the original's choices show in its observables):
round_trip allowed scatter_case.smv --bound 6
check "allowed: the export has allowed outputs" \
    grep -q '"allowed":\[' "$tmp/allowed.json"
round_trip bev beverage.smv --bound 6 --observe out

# ---- the hand-written suite --------------------------------------------
db=$tmp/car-b.db
suite=tests/suites/car_alarm.txt
sed -n '/^```text suite/,/^```$/p' docs/suites.md | sed '1d;$d' > "$tmp/doc.txt"
check "docs/suites.md shows tests/suites/car_alarm.txt" cmp -s "$tmp/doc.txt" "$suite"
"$MF_BIN" tests import --db "$db" --name hand "$suite" 2> "$tmp/err" ||
    { echo "FAIL: import the hand-written suite"; cat "$tmp/err"; fail=1; }
"$MF_BIN" score --db "$db" --suite hand --format json > "$tmp/hand.json" \
    2> "$tmp/err" || { echo "FAIL: score hand"; cat "$tmp/err"; fail=1; }
"$MF_BIN" score --db "$db" --suite hand > "$tmp/hand.txt" 2> "$tmp/err" ||
    { echo "FAIL: score hand (text)"; fail=1; }
tests=$(jget "$tmp/hand.json" '$.tests')
killed=$(jget "$tmp/hand.json" '$.killed')
mutants=$(jget "$tmp/hand.json" '$.mutants')
distinct=$(q :memory: "SELECT count(DISTINCT json_extract(k.value, '\$.mutant'))
    FROM json_each(readfile('$tmp/hand.json'), '\$.kills') k")
nalive=$(q :memory: "SELECT json_array_length(readfile('$tmp/hand.json'), '\$.alive')")
check "hand: 5 tests" [ "$tests" = 5 ]
check "hand: killed ($killed) = mutants its kills name ($distinct)" [ "$killed" = "$distinct" ]
check "hand: alive ($nalive) = mutants ($mutants) - killed" [ "$nalive" = $((mutants - killed)) ]
check "hand: some alive, some killed" [ "$killed" -gt 0 ] && [ "$nalive" -gt 0 ]
check "hand: mutants are the campaign's targets" [ "$mutants" = \
    "$(q "$db" "SELECT count(*) FROM verdicts WHERE kind IN ('killed','survived','unknown')")" ]
check "hand: text report agrees" grep -q "^killed: $killed of $mutants mutants" "$tmp/hand.txt"
check "hand: text lists the alive" [ "$(grep -c '^  [0-9a-f]\{16\} ' "$tmp/hand.txt")" = "$nalive" ]

# The suite's tests as `mutfarm simulate` input files and expected traces.
awk -v dir="$tmp" '
    /^test / { n++; s = 0; next }
    n && /->/ {
        split($0, p, "->"); ins = p[1]; outs = p[2]
        gsub(/[ \t]/, "", ins); gsub(/[ \t]/, "", outs); gsub(/,/, ", ", outs)
        if (s > 0) print ins > (dir "/in" n)
        print "step " s ": " outs > (dir "/want" n)
        s++
    }' "$suite"
# simulate_shows MUTANT: 0 if the mutant shows every test's expected outputs
simulate_shows() {
    for i in 1 2 3 4 5; do
        "$MF_BIN" simulate tests/models/car_alarm.smv ${1:+--mutant "$1"} \
            --inputs "$tmp/in$i" 2> /dev/null | grep '^step ' > "$tmp/got$i"
        cmp -s "$tmp/want$i" "$tmp/got$i" || return 1
    done
    return 0
}
departs() { ! simulate_shows "$1"; }
check "hand: the original shows the suite's outputs" simulate_shows ""
for m in $(q :memory: "SELECT json_extract(a.value, '\$.mutant')
        FROM json_each(readfile('$tmp/hand.json'), '\$.alive') a LIMIT 6"); do
    check "hand: alive mutant $m shows every expected output" simulate_shows "$m"
done
for m in $(q :memory: "SELECT DISTINCT json_extract(k.value, '\$.mutant')
        FROM json_each(readfile('$tmp/hand.json'), '\$.kills') k
        WHERE json_extract(k.value, '\$.notion') = 'deterministic' LIMIT 6"); do
    check "hand: killed mutant $m departs from an expected output" departs "$m"
done

# One wrong expected value: test 2, step 5 (line 20) says sound=TRUE.
cp tests/suites/car_alarm_wrong.txt "$tmp/wrong.txt"
check "the wrong copy differs on line 20 only (and its comment)" \
    [ "$(diff <(tail -n +2 "$suite") <(tail -n +2 "$tmp/wrong.txt") | grep -c '^[<>]')" = 2 ] &&
    diff "$suite" "$tmp/wrong.txt" | grep -q '^20c20$'
"$MF_BIN" tests import --db "$db" --name wrong "$tmp/wrong.txt" 2> /dev/null ||
    { echo "FAIL: import the wrong suite"; fail=1; }
"$MF_BIN" score --db "$db" --suite wrong --format json > "$tmp/wrong.json" 2> /dev/null
"$MF_BIN" score --db "$db" --suite wrong > "$tmp/wrong.out" 2> /dev/null
check "wrong: one wrong test" [ "$(jget "$tmp/wrong.json" '$.wrong_tests')" = 1 ]
check "wrong: test 2 at step 5, line 20" [ "$(q :memory: "SELECT json_extract(w.value, '\$.test') || ' ' ||
    json_extract(w.value, '\$.step') || ' ' || json_extract(w.value, '\$.step_line')
    FROM json_each(readfile('$tmp/wrong.json'), '\$.wrong') w")" = "2 5 20" ]
check "wrong: expected vs the model's value" grep -q \
    "^wrong test 2 'alarm-runs-out' (line 14, the step on line 20): step 5: expected st=FlashOnly, armed=FALSE, flash=TRUE, sound=TRUE; the model shows st=FlashOnly, armed=FALSE, flash=TRUE, sound=FALSE$" \
    "$tmp/wrong.out"
check "wrong: the wrong test kills nothing" [ "$(q :memory: "SELECT count(*)
    FROM json_each(readfile('$tmp/wrong.json'), '\$.kills') k
    WHERE json_extract(k.value, '\$.test') = 2")" = 0 ]
check "wrong: the other tests kill what they kill in the right suite" [ \
    "$(q :memory: "SELECT count(*) FROM json_each(readfile('$tmp/hand.json'), '\$.kills') k
        WHERE json_extract(k.value, '\$.test') != 2")" = \
    "$(q :memory: "SELECT json_array_length(readfile('$tmp/wrong.json'), '\$.kills')")" ]

# ---- bad input -----------------------------------------------------------
before=$(q "$db" "SELECT count(*) FROM imported_suites")
bad() { # bad WHAT PATTERN SED-SCRIPT: the suite edited, refused
    local what=$1 pat=$2
    sed "$3" "$suite" > "$tmp/bad.txt"
    usage_error "import: $what" "$pat" tests import --db "$db" "$tmp/bad.txt"
}
bad "a variable the model lacks" "bad.txt:9: inputs: state 1 names 'door'" \
    '9s/ev=close/door=close/'
bad "an observable the model lacks" "bad.txt:10: expected: state 2 names 'siren'" \
    '10s/sound=FALSE/siren=FALSE/'
bad "a value outside its type" "bad.txt:11: inputs: ev: value 'kick'" \
    '11s/ev=tick/ev=kick/'
bad "a boolean's value outside its type" "bad.txt:11: expected: armed" \
    '11s/armed=TRUE/armed=3/'
bad "no arrow" "bad.txt:9: a state is 'inputs -> expected" '9s/->/  /'
bad "not name=value" "bad.txt:9: 'ev close' is not name=value" '9s/ev=close/ev close/'
bad "a missing observable" "bad.txt:9: expected: state 1 gives no value for 'sound'" \
    '9s/, sound=FALSE//'
bad "a state before any test" "bad.txt:6: a state before the first 'test' line" \
    '6s/.*/ -> st=OpenUnlocked/'
bad "another model" "bad.txt:5: the suite is for the model with hash 13189d287ddd" \
    '5s/model 0/model 1/'
bad "a malformed hash" "bad.txt:5: a model hash is 64 hexadecimal digits" \
    '5s/model 0/model x/'
printf 'test,step,in.ev,exp.st\n1,0,,OpenUnlocked,extra\n' > "$tmp/bad.csv"
usage_error "csv: too many fields" "bad.csv:2: 5 fields, the header has 4" \
    tests import --db "$db" "$tmp/bad.csv"
sed '3s/"expected":{/"expected":{{/' "$tmp/car.json" > "$tmp/bad.json"
usage_error "json: malformed" "bad.json:3:" tests import --db "$db" "$tmp/bad.json"
usage_error "import: no such file" "nosuch" tests import --db "$db" "$tmp/nosuch.txt"
usage_error "import: bad format" "--format is json, csv or text" \
    tests import --db "$db" --format xml "$suite"
usage_error "import: no file" "give one FILE" tests import --db "$db"
check "nothing stored by refused imports" \
    [ "$(q "$db" "SELECT count(*) FROM imported_suites")" = "$before" ]
usage_error "score: no such suite" "no imported suite 'nosuch'" \
    score --db "$db" --suite nosuch
usage_error "score: no --suite" "give --suite NAME" score --db "$db"
check "score --help" "$MF_BIN" score --help > /dev/null
check "tests --help names import" bash -c "'$MF_BIN' tests --help | grep -q 'tests import'"
check "mutfarm --help names score" bash -c "'$MF_BIN' --help | grep -q '^  score '"

# Importing again under the same name replaces the suite.
"$MF_BIN" tests import --db "$db" --name hand "$suite" 2> /dev/null
check "a suite of the same name is replaced" \
    [ "$(q "$db" "SELECT count(*) FROM imported_suites WHERE name = 'hand'")" = 1 ] &&
    [ "$(q "$db" "SELECT count(*) FROM imported_tests t JOIN imported_suites s ON s.id = t.suite_id WHERE s.name = 'hand'")" = 5 ]

# ---- run --augment: the solver asked only about what the suite leaves ----
wkilled=$(jget "$tmp/wrong.json" '$.killed')
equiv=$(jget "$tmp/wrong.json" '$.equivalent')
"$MF_BIN" run tests/models/car_alarm.smv --bound 10 --workers 1 --db "$db" \
    --augment wrong > "$tmp/aug.log" 2>&1 ||
    { echo "FAIL: run --augment"; cat "$tmp/aug.log"; fail=1; }
check "augment: the suite's kills first, its wrong test left out" grep -q \
    -- "--augment: $wkilled mutant(s) killed by the 4 test(s) of suite 'wrong' (imported in campaign 1; 1 wrong or longer than the bound, not used), $((mutants + equiv - wkilled)) left to the workers" \
    "$tmp/aug.log"
last=$(q "$db" "SELECT max(id) FROM campaigns")
check "augment: a new campaign" [ "$last" = 2 ]
check "augment: the suite's kills are replayed verdicts" [ "$(q "$db" \
    "SELECT count(*) FROM verdicts v JOIN mutants m ON m.id = v.mutant
      WHERE m.campaign_id = $last AND v.origin = 'replayed'
        AND v.method LIKE 'replayed test % of a suite imported in campaign 1'")" = "$wkilled" ]
check "augment: the same verdicts as the campaign without a suite" [ \
    "$(q "$db" "SELECT killed, equivalent, survived, unknown FROM campaign_scores WHERE campaign_id = 1")" = \
    "$(q "$db" "SELECT killed, equivalent, survived, unknown FROM campaign_scores WHERE campaign_id = $last")" ]
check "augment: the solver's new tests are stored in the new campaign" [ \
    "$(q "$db" "SELECT count(*) FROM tests WHERE campaign_id = $last")" -gt 0 ]
usage_error "augment: no such suite" "no imported suite 'nosuch'" \
    run tests/models/car_alarm.smv --bound 10 --workers 1 --db "$db" --augment nosuch

[ "$fail" = 0 ] && echo "suite_cli: all passed"
exit "$fail"
