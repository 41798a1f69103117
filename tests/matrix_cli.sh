#!/usr/bin/env bash
# matrix_cli.sh - `mutfarm matrix`, `minimize` and `tests export` on the
# command line, with the real binary and real stores:
# - every user error (no --db, no such file, unknown campaign, suite or
#   format, a store from a newer schema, a campaign not complete, no
#   subcommand, a malformed stored test or model) prints exactly one line
#   on stderr, nothing on stdout, and exits 1;
# - the kills the coordinator stores carry their verdict's notion (the
#   trigger of schema/002), and the matrix fills each kill's notion; two
#   replay threads fill the same matrix as one, and a fill stopped part
#   way resumes after its last committed block with the same result;
# - the JSON export parses (sqlite3's json functions) and its counts are
#   the store's (tests, steps, kills; a suite's tests), the CSV has one row
#   per test and step, -o writes the file whole;
# - an observed enumerated DEFINE prints as its value (lamp.smv: Off/On,
#   not the raw code 1099511627776 + i that the store's own JSON holds);
# - pairs past the replay's limits (wide_init.smv) are counted undecided,
#   named, and stored as no kill;
# - --help of each command exits 0.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-matrix-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

check() { # check WHAT CONDITION...
    local what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what"
        fail=1
    fi
}

# usage_error WHAT ARGS...: exit 1, one line on stderr, empty stdout
usage_error() {
    local what=$1
    shift
    "$MF_BIN" "$@" > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    local lines
    lines=$(wc -l < "$tmp/err")
    if [ "$rc" != 1 ] || [ "$lines" != 1 ] || [ -s "$tmp/out" ]; then
        echo "FAIL: $what: exit $rc, $lines stderr lines, stdout $(wc -c < "$tmp/out") bytes:"
        cat "$tmp/err"
        fail=1
    fi
}

q() { sqlite3 "$1" "$2"; }

db=$tmp/bev.db
"$MF_BIN" run tests/models/beverage.smv --bound 6 --workers 1 --db "$db" \
    > "$tmp/run.log" 2>&1 || { echo "FAIL: run beverage"; cat "$tmp/run.log"; exit 1; }
check "verdict kills carry their verdict's notion" \
    [ "$(q "$db" "SELECT count(*) FROM kills WHERE notion IS NULL")" = 0 ]

# ---- user errors ----
usage_error "matrix without --db" matrix
usage_error "minimize without --db" minimize --exact
usage_error "export without --db" tests export --format csv
usage_error "no such store" minimize --db "$tmp/none.db"
check "no store was made" [ ! -e "$tmp/none.db" ]
usage_error "unknown campaign" minimize --db "$db" --campaign 9
usage_error "bad campaign" matrix --db "$db" --campaign x
usage_error "bad threads" matrix --db "$db" --threads 0
usage_error "unknown format" tests export --db "$db" --format xml
usage_error "unknown suite" tests export --db "$db" --suite nope
usage_error "empty suite name" minimize --db "$db" --name ""
usage_error "unknown option" minimize --db "$db" --fast
usage_error "no subcommand" tests
usage_error "unknown subcommand" tests import --db "$db"
usage_error "not a store" matrix --db tests/models/beverage.smv
sqlite3 "$db" ".backup '$tmp/newer.db'"
sqlite3 "$tmp/newer.db" "PRAGMA user_version = 999"
usage_error "newer schema" minimize --db "$tmp/newer.db"
usage_error "newer schema (export)" tests export --db "$tmp/newer.db"
sqlite3 "$db" ".backup '$tmp/running.db'"
sqlite3 "$tmp/running.db" "UPDATE campaigns SET state = 'running'"
usage_error "campaign not complete (matrix)" matrix --db "$tmp/running.db"
usage_error "campaign not complete (minimize)" minimize --db "$tmp/running.db"
grep -q "not complete" "$tmp/err" || { echo "FAIL: not complete: $(cat "$tmp/err")"; fail=1; }
"$MF_BIN" tests export --db "$tmp/running.db" > "$tmp/running.json" 2> "$tmp/err"
check "export of a running campaign exits 0" [ $? = 0 ]
check "export of a running campaign says so" grep -q "not complete yet: the kills are those found so far" "$tmp/err"
check "export of a running campaign: a partial matrix" [ "$(sqlite3 :memory: "SELECT json_extract(readfile('$tmp/running.json'), '\$.kill_matrix')")" = partial ]
sqlite3 "$db" ".backup '$tmp/bad.db'"
sqlite3 "$tmp/bad.db" "UPDATE tests SET inputs = '[{},{\"inp\":\"lava\"}]' WHERE id = 2"
usage_error "a malformed stored test" matrix --db "$tmp/bad.db"
grep -q "test 2: inputs\\[1\\]: inp: value 'lava' the model does not have" "$tmp/err" || { echo "FAIL: malformed test: $(cat "$tmp/err")"; fail=1; }
sqlite3 "$tmp/bad.db" "UPDATE tests SET inputs = '[{},{\"inp\":\"fill\"}]' WHERE id = 2"
usage_error "a stored test the original does not replay" minimize --db "$tmp/bad.db"
sqlite3 "$db" ".backup '$tmp/bad2.db'"
sqlite3 "$tmp/bad2.db" "UPDATE mutants SET mutant_id = '0000000000000000' WHERE id = (SELECT min(mutant) FROM verdicts WHERE kind = 'killed')"
usage_error "a stored mutant the model does not have" matrix --db "$tmp/bad2.db"
grep -q "not among the model's mutants" "$tmp/err" || { echo "FAIL: unknown mutant: $(cat "$tmp/err")"; fail=1; }
sqlite3 "$tmp/bad.db" "UPDATE models SET text = 'MODULE main VAR x : boolean;'"
usage_error "a stored model that reads differently" tests export --db "$tmp/bad.db"
check "the unknown suite's message names the way to make one" \
    bash -c "'$MF_BIN' tests export --db '$db' --suite nope 2>&1 | grep -q 'mutfarm minimize'"
for c in matrix minimize "tests export"; do
    # shellcheck disable=SC2086
    "$MF_BIN" $c --help > "$tmp/help" 2>&1
    check "$c --help" [ $? = 0 ] && check "$c --help text" grep -q "usage: mutfarm $c" "$tmp/help"
done

# ---- the matrix ----
"$MF_BIN" matrix --db "$db" > "$tmp/matrix.out" 2>&1
check "matrix exits 0" [ $? = 0 ]
check "matrix counts" grep -q "kill matrix of $(q "$db" "SELECT count(*) FROM tests") tests x 101 mutants" "$tmp/matrix.out"
check "matrix is full" [ "$(q "$db" "SELECT state FROM campaign_matrix")" = full ]
check "every kill has a notion and a step" \
    [ "$(q "$db" "SELECT count(*) FROM kills WHERE notion IS NULL OR step IS NULL")" = 0 ]
"$MF_BIN" matrix --db "$db" > "$tmp/again.out" 2>&1
check "a full matrix is kept" grep -q "full already" "$tmp/again.out"
kills=$(q "$db" "SELECT group_concat(test_id || ':' || mutant || ':' || notion || ':' || step || ':' || coalesce(refuses, '-'), ' ') FROM (SELECT * FROM kills ORDER BY test_id, mutant)")
"$MF_BIN" matrix --db "$db" --refill --threads 2 > "$tmp/t2.out" 2>&1
check "matrix --threads 2 exits 0" [ $? = 0 ]
check "two threads fill the same matrix" [ "$(q "$db" "SELECT group_concat(test_id || ':' || mutant || ':' || notion || ':' || step || ':' || coalesce(refuses, '-'), ' ') FROM (SELECT * FROM kills ORDER BY test_id, mutant)")" = "$kills" ]
# A fill stopped after the tests up to id 3 resumes after them.
q "$db" "UPDATE matrices SET state = 'filling', through_test = 3; DELETE FROM kills WHERE source = 'replay' AND test_id > 3"
ntests=$(q "$db" "SELECT count(*) FROM tests WHERE id > 3")
"$MF_BIN" matrix --db "$db" > "$tmp/resume.out" 2>&1
check "a stopped fill resumes after its last block" grep -q "^  $((ntests * 101)) replays" "$tmp/resume.out"
check "the resumed matrix is the same" [ "$(q "$db" "SELECT group_concat(test_id || ':' || mutant || ':' || notion || ':' || step || ':' || coalesce(refuses, '-'), ' ') FROM (SELECT * FROM kills ORDER BY test_id, mutant)")" = "$kills" ]
check "campaign_tests counts per notion" \
    [ "$(q "$db" "SELECT count(*) FROM campaign_tests WHERE kills <> deterministic + definite + potential")" = 0 ]

# ---- minimize ----
"$MF_BIN" minimize --db "$db" > "$tmp/min.out" 2>&1
check "minimize exits 0" [ $? = 0 ]
check "minimize prints before and after" grep -q "all tests:" "$tmp/min.out"
check "minimize checks by replay" grep -q "replayed: it kills the same 101 mutants" "$tmp/min.out"
"$MF_BIN" minimize --db "$db" > "$tmp/min2.out" 2>&1
check "an existing suite is replaced" grep -q "replaced the suite" "$tmp/min2.out"
check "one suite of that name" [ "$(q "$db" "SELECT count(*) FROM suites WHERE name = 'minimal'")" = 1 ]
"$MF_BIN" minimize --db "$db" --exact --name best > "$tmp/exact.out" 2>&1
check "minimize --exact exits 0" [ $? = 0 ]
check "exact <= greedy" [ "$(q "$db" "SELECT (SELECT tests FROM suites WHERE name = 'best') <= (SELECT tests FROM suites WHERE name = 'minimal')")" = 1 ]

# ---- export ----
"$MF_BIN" tests export --db "$db" -o "$tmp/all.json" 2> "$tmp/exp.err"
check "export exits 0" [ $? = 0 ]
check "JSON parses" [ "$(sqlite3 :memory: "SELECT json_valid(readfile('$tmp/all.json'))")" = 1 ]
j() { sqlite3 :memory: "SELECT $1 FROM (SELECT readfile('$2') AS d)"; }
check "JSON tests = store's" [ "$(j "json_array_length(d, '\$.tests')" "$tmp/all.json")" = "$(q "$db" "SELECT count(*) FROM campaign_tests")" ]
check "JSON kills = store's" [ "$(j "json_extract(d, '\$.totals.kills')" "$tmp/all.json")" = "$(q "$db" "SELECT sum(kills) FROM campaign_tests")" ]
check "JSON steps = store's" [ "$(j "json_extract(d, '\$.totals.steps')" "$tmp/all.json")" = "$(q "$db" "SELECT sum(length + 1) FROM tests")" ]
check "JSON kill lists = store's" [ "$(sqlite3 :memory: "SELECT sum(json_array_length(value, '\$.kills')) FROM json_each(readfile('$tmp/all.json'), '\$.tests')")" = "$(q "$db" "SELECT count(*) FROM kills")" ]
check "JSON steps per test" [ "$(sqlite3 :memory: "SELECT count(*) FROM json_each(readfile('$tmp/all.json'), '\$.tests') WHERE json_array_length(value, '\$.steps') <> json_extract(value, '\$.length') + 1")" = 0 ]
check "JSON: allowed outputs of the non-deterministic machine" grep -q '"allowed":\[{"wtr":1,"out":"coff"},{"wtr":1,"out":"tea"}\]' "$tmp/all.json"
"$MF_BIN" tests export --db "$db" --suite best --format json > "$tmp/best.json" 2> "$tmp/exp.err"
check "suite export exits 0" [ $? = 0 ]
check "suite export: its tests" [ "$(j "json_array_length(d, '\$.tests')" "$tmp/best.json")" = "$(q "$db" "SELECT tests FROM suites WHERE name = 'best'")" ]
check "suite export names the suite" [ "$(j "json_extract(d, '\$.suite')" "$tmp/best.json")" = best ]
"$MF_BIN" tests export --db "$db" --format csv > "$tmp/all.csv" 2> "$tmp/exp.err"
check "CSV exits 0" [ $? = 0 ]
check "CSV: a header and one row per test and step" [ "$(wc -l < "$tmp/all.csv")" = "$(( $(q "$db" "SELECT sum(length + 1) FROM tests") + 1 ))" ]
check "CSV header" grep -q '^test,step,in.inp,exp.wtr,exp.out,allowed,killed,refused$' "$tmp/all.csv"
usage_error "unwritable -o" tests export --db "$db" -o "$tmp/no/such/dir.json"

# ---- an enumerated DEFINE prints as its value ----
ldb=$tmp/lamp.db
"$MF_BIN" run tests/models/lamp.smv --observe st,light,bright --bound 4 \
    --workers 1 --db "$ldb" > "$tmp/lrun.log" 2>&1
check "run lamp" [ "$(q "$ldb" "SELECT state FROM campaigns")" = done ]
"$MF_BIN" tests export --db "$ldb" > "$tmp/lamp.json" 2> /dev/null
check "lamp JSON parses" [ "$(sqlite3 :memory: "SELECT json_valid(readfile('$tmp/lamp.json'))")" = 1 ]
check "DEFINE light as Off" grep -q '"light":"Off"' "$tmp/lamp.json"
check "DEFINE light as On" grep -q '"light":"On"' "$tmp/lamp.json"
check "no raw symbol codes" bash -c "! grep -q '10995116277' '$tmp/lamp.json'"
"$MF_BIN" tests export --db "$ldb" --format csv > "$tmp/lamp.csv" 2> /dev/null
check "CSV DEFINE as its value" grep -q '^1,0,,idle,Off,0,' "$tmp/lamp.csv"

# ---- pairs past the replay's limits are undecided, not kills ----
wdb=$tmp/wide.db
"$MF_BIN" run tests/models/wide_init.smv --bound 2 --workers 1 --db "$wdb" \
    > "$tmp/wrun.log" 2>&1
nwide=$(q "$wdb" "SELECT count(*) FROM verdicts WHERE kind IN ('killed', 'survived', 'unknown')")
q "$wdb" "INSERT INTO tests(campaign_id, hash, length, notion, inputs, expected, created_at) VALUES (1, 'by hand', 1, 'potential', '[{},{\"go\":\"TRUE\"}]', '[{\"x\":0,\"y\":\"FALSE\"},{\"x\":0,\"y\":\"FALSE\"}]', 0)"
"$MF_BIN" matrix --db "$wdb" > "$tmp/wide.out" 2>&1
check "matrix with undecided pairs exits 0" [ $? = 0 ]
check "every pair undecided" grep -q "undecided: $nwide\$" "$tmp/wide.out"
check "the first undecided pair named" grep -q "the first: test .*more than 20000 states" "$tmp/wide.out"
check "no kill stored for them" [ "$(q "$wdb" "SELECT count(*) FROM kills")" = 0 ]
check "counted in the store" [ "$(q "$wdb" "SELECT undecided FROM campaign_matrix")" = "$nwide" ]

[ $fail = 0 ] && echo "matrix_cli: ok"
exit $fail
