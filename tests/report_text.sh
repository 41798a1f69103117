#!/usr/bin/env bash
# report_text.sh - `mutfarm report` as text and --history on real stores:
# two campaigns of the beverage machine in one file (bound 10: every
# decided mutant killed or equivalent, 100%; bound 3 observing `out`: 22
# survivors, 79 / 101 = 78.2%, 79 / 107 = 73.8% with the 6 equivalents as
# not killed). The survivors carry MODEL:line:col, operator, id and their
# mutated text; the per-operator table puts an operator with nothing to
# score (every mutant equivalent, made so in a copy of the store) apart as
# n/a, not as 0.0%; the cross-operator table says it is as complete as the
# kill matrix; the history prints one line per finished campaign, with n/a
# for a NULL score. -o writes the same report to a file. scatter_case
# gives a real operator with nothing to score (digit-replace, all 4
# equivalent at bound 3).
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-report-text.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/bev.db

expect() { # expect WHAT FILE PATTERN (grep -E)
    if ! grep -Eq -- "$3" "$2"; then
        echo "FAIL: $1: no /$3/ in $2:"
        head -60 "$2"
        fail=1
    fi
}
reject() { # reject WHAT FILE PATTERN
    if grep -Eq -- "$3" "$2"; then
        echo "FAIL: $1: /$3/ in $2:"
        grep -E -- "$3" "$2" | head -5
        fail=1
    fi
}

"$MF_BIN" run tests/models/beverage.smv --bound 10 --db "$db" --workers 2 \
    > "$tmp/run1.out" 2>&1 || { echo "FAIL: campaign 1: $(tail -3 "$tmp/run1.out")"; exit 1; }
"$MF_BIN" run tests/models/beverage.smv --bound 3 --observe out --db "$db" \
    --workers 2 > "$tmp/run2.out" 2>&1 ||
    { echo "FAIL: campaign 2: $(tail -3 "$tmp/run2.out")"; exit 1; }

# The newest campaign by default.
"$MF_BIN" report --db "$db" > "$tmp/r2.txt" 2> "$tmp/r2.err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: report exits $rc: $(cat "$tmp/r2.err")"; fail=1; }
[ -s "$tmp/r2.err" ] && { echo "FAIL: report warns: $(cat "$tmp/r2.err")"; fail=1; }
r=$tmp/r2.txt
expect "campaign" "$r" "^mutfarm report: campaign 2 of "
expect "model" "$r" "model: +beverage.smv \(sha256 [0-9a-f]{16}\.\.\.\)"
expect "options" "$r" "options: +bound 3, notion auto, operators all, observe out"
expect "counts" "$r" "mutants: +110 generated: 107 to decide, 3 duplicate, 0 stillborn"
expect "verdicts" "$r" "verdicts: +79 killed, 6 equivalent, 22 survived, 0 unknown, 0 error, 0 pending"
expect "score" "$r" "mutation score: +78\.2% +killed / \(killed \+ survived \+ unknown\) = 79 / 101"
expect "score with equivalents" "$r" "score with equivalents as not killed: +73\.8% .* = 79 / 107"
expect "operator row" "$r" "^  number-replace +9 +6 +0 +3 +0 +0 +0 +66\.7%$"
expect "operator row" "$r" "^  arith-op +4 +4 +0 +0 +0 +0 +0 +100\.0%$"
expect "survivors" "$r" "^survivors \(22\)"
expect "survivor line" "$r" "^  beverage\.smv:21:30  number-replace  c590f32753bbfec9  \(no kill up to length 3\)$"
expect "survivor original" "$r" "^      original: 2$"
expect "survivor mutated" "$r" "^      mutated:  1$"
expect "survivor as SMV" "$r" "^            inp = fill & wtr = 0 : 1;$"
expect "survivor removed" "$r" "^      mutated:  \(removed\)$"
expect "cross-operator" "$r" "as complete as the kill matrix"
expect "cross-operator row" "$r" "^  \[1\] arith-op +[0-9]+ +4 "
# Every cell of the cross-operator table against the same count in SQL.
sqlite3 -separator ' ' "$db" "
    WITH km AS (SELECT m.id AS mid, m.operator AS op, v.test_id AS tid
                  FROM verdicts v JOIN mutants m ON m.id = v.mutant
                 WHERE v.campaign_id = 2 AND v.kind = 'killed'),
         suite AS (SELECT DISTINCT op, tid FROM km WHERE tid IS NOT NULL)
    SELECT s.op, km.op, count(DISTINCT km.mid)
      FROM suite s JOIN kills k ON k.test_id = s.tid
      JOIN km ON km.mid = k.mutant GROUP BY s.op, km.op" | sort > "$tmp/cross.sql"
sed -n '/^cross-operator/,$p' "$r" | awk '
    /^  \[[0-9]+\] / { name[$1] = $2; row[NR] = $0 }
    END {
        for (i in row) {
            split(row[i], f, " +")
            # f[1] is empty (leading blanks), f[2] "[k]", f[3] the operator,
            # f[4] the suite size, then one cell per column
            for (j = 5; j < length(f); j++)
                if (f[j] > 0) print f[3], name["[" (j - 4) "]"], f[j]
        }
    }' | sort > "$tmp/cross.txt"
[ -s "$tmp/cross.sql" ] && cmp -s "$tmp/cross.sql" "$tmp/cross.txt" ||
    { echo "FAIL: cross-operator cells differ from SQL:"; diff "$tmp/cross.sql" "$tmp/cross.txt" | head; fail=1; }
n=$(grep -c "^  beverage\.smv:[0-9]*:[0-9]*  " "$r")
[ "$n" = 22 ] || { echo "FAIL: $n survivor lines, not 22"; fail=1; }

# Campaign 1: nothing survives.
"$MF_BIN" report --db "$db" --campaign 1 > "$tmp/r1.txt" 2>&1 ||
    { echo "FAIL: --campaign 1 exits $?"; fail=1; }
expect "campaign 1" "$tmp/r1.txt" "^mutfarm report: campaign 1 of "
expect "campaign 1 score" "$tmp/r1.txt" "mutation score: +100\.0% .* = 101 / 101"
expect "campaign 1 survivors" "$tmp/r1.txt" "^survivors \(0\)"
expect "campaign 1 none" "$tmp/r1.txt" "^  none$"

# -o: the same report in a file, nothing on stdout, no temporary left.
"$MF_BIN" report --db "$db" -o "$tmp/out.txt" > "$tmp/stdout" 2>&1 ||
    { echo "FAIL: -o exits $?"; fail=1; }
cmp -s "$tmp/out.txt" "$r" || { echo "FAIL: -o differs from stdout"; fail=1; }
[ -s "$tmp/stdout" ] && { echo "FAIL: -o also printed: $(head -3 "$tmp/stdout")"; fail=1; }
left=$(ls "$tmp" | grep -c '^out\.txt\.')
[ "$left" = 0 ] || { echo "FAIL: -o left $left temporary file(s)"; fail=1; }

# Nothing to score, as it comes: scatter_case at bound 3 proves all 4
# digit-replace mutants equivalent.
"$MF_BIN" run tests/models/scatter_case.smv --bound 3 --db "$tmp/sc.db" \
    > "$tmp/run3.out" 2>&1 || { echo "FAIL: scatter_case: $(tail -3 "$tmp/run3.out")"; fail=1; }
"$MF_BIN" report --db "$tmp/sc.db" > "$tmp/sc.txt" 2>&1 || { echo "FAIL: scatter_case report exits $?"; fail=1; }
expect "real n/a heading" "$tmp/sc.txt" "^  nothing to score:$"
expect "real n/a row" "$tmp/sc.txt" "^  digit-replace +4 +0 +4 +0 +0 +0 +0 +n/a$"
expect "stillborn" "$tmp/sc.txt" "^  mutants: +35 generated: 30 to decide, 3 duplicate, 2 stillborn"

# Nothing to score: every arith-op mutant of campaign 2 made equivalent.
cp "$db" "$tmp/na.db"
sqlite3 "$tmp/na.db" "UPDATE verdicts SET kind = 'equivalent', method = 'made so', test_id = NULL, notion = NULL
    WHERE mutant IN (SELECT id FROM mutants WHERE campaign_id = 2 AND operator = 'arith-op');
    UPDATE score_history SET score = NULL WHERE campaign_id = 1;" ||
    { echo "FAIL: cannot edit the copy"; fail=1; }
"$MF_BIN" report --db "$tmp/na.db" > "$tmp/na.txt" 2>&1 || { echo "FAIL: n/a report exits $?"; fail=1; }
expect "n/a heading" "$tmp/na.txt" "^  nothing to score:$"
expect "n/a row" "$tmp/na.txt" "^  arith-op +4 +0 +4 +0 +0 +0 +0 +n/a$"
reject "n/a as zero" "$tmp/na.txt" "arith-op .* 0\.0%$"
last=$(sed -n '/^per operator/,/^survivors/p' "$tmp/na.txt" | grep -E '^  [a-z-]+ +[0-9]' | tail -1)
case "$last" in *arith-op*) ;; *) echo "FAIL: n/a operator not listed last: $last"; fail=1 ;; esac

# History: one line per finished campaign, oldest first.
"$MF_BIN" report --db "$db" --history > "$tmp/h.txt" 2>&1 || { echo "FAIL: --history exits $?"; fail=1; }
expect "history model" "$tmp/h.txt" "^beverage\.smv \(sha256 [0-9a-f]{16}\.\.\.\)"
expect "history 1" "$tmp/h.txt" "^  [0-9-]+ [0-9:]+ UTC +1 +107 +101 +6 +0 +0 +0 +100\.0% +-$"
expect "history 2" "$tmp/h.txt" "^  [0-9-]+ [0-9:]+ UTC +2 +107 +79 +6 +22 +0 +0 +78\.2% +-21\.8$"
"$MF_BIN" report --db "$tmp/na.db" --history > "$tmp/hna.txt" 2>&1 || { echo "FAIL: --history n/a exits $?"; fail=1; }
expect "history n/a" "$tmp/hna.txt" "^  [0-9-]+ [0-9:]+ UTC +1 +107 +101 +6 +0 +0 +0 +n/a +-$"
expect "history after n/a" "$tmp/hna.txt" "^  [0-9-]+ [0-9:]+ UTC +2 .* +78\.2% +-$"
"$MF_BIN" report --db "$db" --history --campaign 2 > "$tmp/h2.txt" 2>&1 ||
    { echo "FAIL: --history --campaign 2 exits $?"; fail=1; }
cmp -s "$tmp/h.txt" "$tmp/h2.txt" || { echo "FAIL: --history --campaign 2 differs"; fail=1; }

[ $fail = 0 ] && echo "report_text: ok"
exit $fail
