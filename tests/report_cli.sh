#!/usr/bin/env bash
# report_cli.sh - what `mutfarm report` refuses: an unknown format, no
# --db, a store that does not exist, a directory, an empty file, a file
# that is not SQLite, another application's SQLite file, a store from a
# newer schema (PRAGMA user_version above this binary's), a campaign
# that does not exist, a bad --campaign, -o into a directory that does
# not exist, --history with another format, an unknown option. Each is
# one line on stderr naming what to fix, exit 1, nothing on stdout, and
# the store is left as it was. Then what it survives: a store whose rows
# this version cannot fully read (model text that no longer parses,
# positions outside the text, options that are not JSON, an unknown
# verdict kind, text that is not UTF-8) still gives every report, with a
# warning, and the JSON and XML stay well-formed.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-report-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/bev.db
"$MF_BIN" run tests/models/beverage.smv --bound 3 --observe out --db "$db" \
    > "$tmp/run.out" 2>&1 || { echo "FAIL: campaign: $(tail -3 "$tmp/run.out")"; exit 1; }

refuse() { # refuse WHAT PATTERN ARGS...: exit 1, one stderr line matching
    local what=$1 pat=$2
    shift 2
    "$MF_BIN" report "$@" > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    local n
    n=$(wc -l < "$tmp/err")
    if [ $rc != 1 ] || [ "$n" != 1 ] || [ -s "$tmp/out" ] ||
        ! grep -Eq -- "$pat" "$tmp/err"; then
        echo "FAIL: $what: exit $rc, $n stderr line(s), $(wc -c < "$tmp/out") bytes out; stderr:"
        cat "$tmp/err"
        echo "  (wanted /$pat/)"
        fail=1
    fi
}

echo "not a database at all" > "$tmp/text.db"
: > "$tmp/empty.db"
sqlite3 "$tmp/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
cp "$db" "$tmp/newer.db"
latest=$(sqlite3 "$db" "PRAGMA user_version")
sqlite3 "$tmp/newer.db" "PRAGMA user_version = $((latest + 1))"
sum_before=$(md5sum "$tmp/newer.db" | cut -d' ' -f1)

refuse "unknown format" "unknown report format 'pdf' \(text, json, html or junit\)" --db "$db" --format pdf
refuse "no --db" "give the store with --db FILE" --format text
refuse "missing store" "nope\.db: No such file or directory" --db "$tmp/nope.db"
refuse "directory store" "is a directory, not a mutfarm store" --db "$tmp"
refuse "empty store" "empty\.db is empty, not a mutfarm store" --db "$tmp/empty.db"
refuse "text file" "text\.db.*not a mutfarm store" --db "$tmp/text.db"
refuse "other SQLite" "other\.db: not a mutfarm store" --db "$tmp/other.db"
refuse "newer schema" "newer\.db: written by a newer mutfarm \(schema $((latest + 1)); this one knows up to $latest\)" --db "$tmp/newer.db"
refuse "no such campaign" "no campaign 7 in the store" --db "$db" --campaign 7
refuse "no such campaign (history)" "no campaign 7 in the store" --db "$db" --history --campaign 7
refuse "bad campaign" "--campaign needs a campaign id \(a positive number\), not 'two'" --db "$db" --campaign two
refuse "-o missing dir" "-o $tmp/nodir/r\.txt: directory $tmp/nodir does not exist" --db "$db" -o "$tmp/nodir/r.txt"
refuse "-o a directory" "-o $tmp is a directory" --db "$db" -o "$tmp"
refuse "history format" "--history is text only; leave out --format json" --db "$db" --history --format json
refuse "unknown option" "unknown option '--colour'" --db "$db" --colour
refuse "missing value" "--format needs a value" --db "$db" --format
refuse "extra argument" "unexpected argument 'extra'" --db "$db" extra
[ "$(md5sum "$tmp/newer.db" | cut -d' ' -f1)" = "$sum_before" ] ||
    { echo "FAIL: the newer store was modified"; fail=1; }
[ -e "$tmp/nodir" ] && { echo "FAIL: -o created a directory"; fail=1; }

# --help lists what works, on stdout, exit 0; the top-level help lists it.
"$MF_BIN" report --help > "$tmp/help" 2>&1 || { echo "FAIL: --help exits $?"; fail=1; }
for w in "--format text" "--format json" "--format html" "--format junit" "--history" "-o FILE" "--campaign N"; do
    grep -q -- "$w" "$tmp/help" || { echo "FAIL: --help lacks '$w'"; fail=1; }
done
"$MF_BIN" --help | grep -q "report --db F" || { echo "FAIL: mutfarm --help lacks report"; fail=1; }
"$MF_BIN" report --db "$db" > /dev/null 2>&1 || { echo "FAIL: report exits $?"; fail=1; }

# Rows this version cannot fully read: reports still come, with a warning.
bad=$tmp/bad.db
cp "$db" "$bad"
sqlite3 "$bad" "PRAGMA ignore_check_constraints = ON;
    UPDATE models SET text = 'MODULE main VAR x : boolean; ASSIGN next(x) := ' || char(233) || ' </script><b>;';
    UPDATE campaigns SET options = 'not json {';
    UPDATE mutants SET line = 99999, col = -5 WHERE mutant_id = 'c590f32753bbfec9';
    UPDATE mutants SET description = 'bad ' || CAST(x'ff3c2f7363726970743e' AS TEXT)
        WHERE mutant_id = 'b2a49f188fa5b836';
    UPDATE verdicts SET kind = 'weird' WHERE mutant =
        (SELECT id FROM mutants WHERE mutant_id = '52488225b8c5856e');
    UPDATE tests SET text = NULL, notion = 'de\"f' WHERE id = (SELECT min(id) FROM tests);" ||
    { echo "FAIL: cannot damage the copy"; fail=1; }
for fmt in text json junit; do
    "$MF_BIN" report --db "$bad" --format $fmt > "$tmp/bad.$fmt" 2> "$tmp/bad.$fmt.err"
    rc=$?
    [ $rc = 0 ] || { echo "FAIL: damaged store, $fmt: exit $rc: $(cat "$tmp/bad.$fmt.err")"; fail=1; }
    grep -q "the stored model no longer loads" "$tmp/bad.$fmt.err" ||
        [ $fmt = junit ] || { echo "FAIL: damaged store, $fmt: no warning: $(cat "$tmp/bad.$fmt.err")"; fail=1; }
done
node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const ms = {};
for (const f of Object.values(d.files)) for (const m of f.mutants) ms[m.id] = m;
const ok = (c, what) => { if (!c) { console.log("FAIL: damaged store: JSON: " + what); process.exitCode = 1; } };
const w = ms["52488225b8c5856e"];
ok(w.status === "RuntimeError" && w.statusReason.includes("weird"), "unknown kind: " + JSON.stringify(w));
const p = ms["c590f32753bbfec9"].location;
const lines = Object.values(d.files)[0].source.split("\n").length;
ok(p.start.line >= 1 && p.start.line <= lines, "position not clamped: " + JSON.stringify(p));
ok(ms["b2a49f188fa5b836"].description.includes("\ufffd"), "bytes not UTF-8 kept");
ok(!("config" in d), "options that are not JSON became config");
' "$tmp/bad.json" || fail=1
if command -v xmllint > /dev/null; then
    xmllint --noout "$tmp/bad.junit" || { echo "FAIL: damaged store: JUnit is not well-formed"; fail=1; }
fi

[ $fail = 0 ] && echo "report_cli: ok"
exit $fail
