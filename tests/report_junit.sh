#!/usr/bin/env bash
# report_junit.sh - `mutfarm report --format junit` of a real campaign
# (beverage at bound 3 observing `out`: 79 killed, 6 equivalent, 22
# survived of 107 to decide) parses as XML (xmllint), and its counts
# match the text report: one testcase per mutant to decide, survivors as
# failures with their reason, equivalents skipped with the proof method;
# the testsuite's attributes agree with its testcases; a testcase's name
# is operator, id and MODEL:line. Skipped (77) only when xmllint is not
# installed (apt-get install libxml2-utils).
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
if ! command -v xmllint > /dev/null; then
    echo "report_junit: skipped: xmllint is not installed (apt-get install libxml2-utils)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-report-junit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/bev.db
"$MF_BIN" run tests/models/beverage.smv --bound 3 --observe out --db "$db" \
    > "$tmp/run.out" 2>&1 || { echo "FAIL: campaign: $(tail -3 "$tmp/run.out")"; exit 1; }
"$MF_BIN" report --db "$db" > "$tmp/r.txt" 2>&1 || { echo "FAIL: text report exits $?"; exit 1; }
"$MF_BIN" report --db "$db" --format junit -o "$tmp/r.xml" 2> "$tmp/err" ||
    { echo "FAIL: junit report exits $?: $(cat "$tmp/err")"; exit 1; }
xmllint --noout "$tmp/r.xml" || { echo "FAIL: not well-formed XML"; exit 1; }

x() { xmllint --xpath "$1" "$tmp/r.xml" 2> /dev/null; }
eq() { # eq WHAT GOT WANT
    [ "$2" = "$3" ] || { echo "FAIL: $1: $2, expected $3"; fail=1; }
}
read -r killed equiv surv unknown error < <(sed -n \
    's/^  verdicts: *\([0-9]*\) killed, \([0-9]*\) equivalent, \([0-9]*\) survived, \([0-9]*\) unknown, \([0-9]*\) error.*/\1 \2 \3 \4 \5/p' "$tmp/r.txt")
pending=$(sed -n 's/.*error, \([0-9]*\) pending$/\1/p' "$tmp/r.txt")
total=$(sed -n 's/^  mutants: *[0-9]* generated: \([0-9]*\) to decide.*/\1/p' "$tmp/r.txt")
eq "text report total" "$total" 107

eq "testsuites" "$(x 'count(/testsuites/testsuite)')" 1
eq "testcases" "$(x 'count(//testcase)')" "$total"
eq "failures" "$(x 'count(//testcase/failure)')" "$((surv + unknown + error))"
eq "survived failures" "$(x 'count(//failure[@type="survived"])')" "$surv"
eq "skipped" "$(x 'count(//testcase/skipped)')" "$((equiv + pending))"
eq "passed" "$(x 'count(//testcase[not(failure) and not(skipped)])')" "$killed"
eq "suite tests" "$(x 'string(/testsuites/testsuite/@tests)')" "$total"
eq "suite failures" "$(x 'string(/testsuites/testsuite/@failures)')" "$((surv + unknown + error))"
eq "suite skipped" "$(x 'string(/testsuites/testsuite/@skipped)')" "$((equiv + pending))"
eq "score property" "$(x 'string(//property[@name="mutation_score"]/@value)')" \
    "$(sed -n 's/^  mutation score: *\([0-9.]*%\).*/\1/p' "$tmp/r.txt")"
eq "a survivor" "$(x 'string(//testcase[@name="number-replace c590f32753bbfec9 beverage.smv:21"]/failure/@message)')" \
    "survived: no test up to length 3 kills it"
eq "an equivalent" "$(x 'count(//testcase[contains(@name, "a416fe3f3b0ede64")]/skipped[starts-with(@message, "equivalent: proved by ")])')" 1
bad=$(x 'count(//testcase[not(contains(@name, " beverage.smv:"))])')
eq "names with MODEL:line" "$bad" 0

[ $fail = 0 ] && echo "report_junit: ok"
exit $fail
