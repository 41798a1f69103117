#!/usr/bin/env bash
# report_json.sh - `mutfarm report --format json` of real campaigns
# (beverage at bound 3 observing `out`, car_alarm at bound 3, and
# scatter_case at bound 3 for its 2 stillborn mutants) validated
# against the mutation-testing-elements report schema by ajv, both from
# the npm registry (installed in this test's temporary directory), and
# checked against the text report: one mutant per generated mutant, the
# statuses mapped as docs/reports.md says (killed -> Killed, survived ->
# Survived, equivalent and duplicate -> Ignored, ...), every killedBy
# test defined in testFiles, every location inside the source with its
# end after its start, and the original text of "replace `X` with `Y`"
# mutants at their location. Skipped (77) only when npm cannot install
# the validator.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-report-json.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! command -v npm > /dev/null || ! command -v node > /dev/null; then
    echo "report_json: skipped: npm is not installed (apt-get install npm)"
    exit 77
fi
if ! npm install --prefix "$tmp/npm" --no-save --no-package-lock --no-audit \
        --no-fund --ignore-scripts ajv@8 ajv-formats@3 \
        mutation-testing-report-schema@3.8.4 > "$tmp/npm.log" 2>&1; then
    echo "report_json: skipped: npm cannot install the validator: $(grep -m1 -i err "$tmp/npm.log")"
    exit 77
fi
cat > "$tmp/npm/check.cjs" <<'EOF'
// check.cjs REPORT.json TEXT-REPORT: schema validity and content.
const fs = require('fs');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
const schema = JSON.parse(fs.readFileSync(require.resolve(
    'mutation-testing-report-schema/mutation-testing-report-schema.json')));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);
const [file, textFile] = process.argv.slice(2);
const d = JSON.parse(fs.readFileSync(file, 'utf8'));
const text = fs.readFileSync(textFile, 'utf8');
let bad = 0;
const ok = (c, what) => { if (!c) { console.log(`FAIL: ${file}: ${what}`); bad = 1; } };
ok(validate(d), 'schema: ' + JSON.stringify(validate.errors));
const num = (re) => { const m = text.match(re); return m ? Number(m[1]) : NaN; };
const files = Object.keys(d.files);
ok(files.length === 1, 'one file: ' + files);
const f = d.files[files[0]];
ok(text.includes(`model:     ${files[0]} `), 'file keyed by the model name');
const gen = num(/mutants: +(\d+) generated/);
ok(f.mutants.length === gen, `${f.mutants.length} mutants, text says ${gen}`);
const count = (st) => f.mutants.filter((m) => m.status === st).length;
const v = text.match(/verdicts: +(\d+) killed, (\d+) equivalent, (\d+) survived, (\d+) unknown, (\d+) error/).slice(1).map(Number);
const dup = num(/, (\d+) duplicate/), still = num(/, (\d+) stillborn/);
ok(count('Killed') === v[0], 'Killed count');
ok(count('Ignored') === v[1] + dup, 'Ignored = equivalent + duplicate');
ok(count('Survived') === v[2], 'Survived count');
ok(count('Timeout') === v[3], 'Timeout = unknown');
ok(count('RuntimeError') === v[4], 'RuntimeError = error');
ok(count('CompileError') === still, 'CompileError = stillborn');
for (const m of f.mutants.filter((m) => m.status === 'CompileError'))
    ok(/^stillborn: .*error: /.test(m.statusReason), `${m.id}: ${m.statusReason}`);
const tests = new Set();
for (const tf of Object.values(d.testFiles || {})) for (const t of tf.tests) {
    tests.add(t.id);
    ok(/^test \d+: \d+ steps?, (deterministic|potential|definite) kill$/.test(t.name), 'test name ' + t.name);
}
ok(tests.size === num(/tests: +(\d+) distinct/), `${tests.size} tests defined`);
const lines = f.source.split('\n');
const ids = new Set();
for (const m of f.mutants) {
    ok(/^[0-9a-f]{16}$/.test(m.id) && !ids.has(m.id), 'id ' + m.id);
    ids.add(m.id);
    for (const t of m.killedBy || []) ok(tests.has(t), `${m.id}: killedBy ${t} not defined`);
    ok((m.status === 'Killed') === ((m.killedBy || []).length > 0), `${m.id}: killedBy`);
    if (m.status === 'Ignored')
        ok(/^(equivalent: proved by |duplicate of )/.test(m.statusReason), `${m.id}: ${m.statusReason}`);
    const s = m.location.start, e = m.location.end;
    ok(s.line <= lines.length && e.line <= lines.length &&
       s.column <= lines[s.line - 1].length + 1 && e.column <= lines[e.line - 1].length + 1 &&
       (e.line > s.line || e.column >= s.column), `${m.id}: location ${JSON.stringify(m.location)}`);
    ok(typeof m.replacement === 'string', `${m.id}: no replacement`);
    const r = m.description.match(/^replace `(.*)` with `(.*)` at /);
    if (r && !r[1].includes('...') && s.line === e.line) {
        const orig = lines[s.line - 1].slice(s.column - 1, e.column - 1);
        const squash = (x) => x.replace(/[\s()]/g, '');
        ok(squash(orig) === squash(r[1]), `${m.id}: text '${orig}', described '${r[1]}'`);
        ok(squash(m.replacement) === squash(r[2]), `${m.id}: replacement '${m.replacement}', described '${r[2]}'`);
    }
}
process.exit(bad);
EOF

for spec in "beverage.smv --bound 3 --observe out" "car_alarm.smv --bound 3" \
    "scatter_case.smv --bound 3"; do
    set -- $spec
    model=$1
    shift
    db=$tmp/${model%.smv}.db
    "$MF_BIN" run "tests/models/$model" "$@" --db "$db" > "$tmp/run.out" 2>&1 ||
        { echo "FAIL: $model: campaign: $(tail -3 "$tmp/run.out")"; fail=1; continue; }
    "$MF_BIN" report --db "$db" > "$tmp/${model}.txt" 2>&1 ||
        { echo "FAIL: $model: text report exits $?"; fail=1; continue; }
    "$MF_BIN" report --db "$db" --format json -o "$tmp/${model}.json" 2> "$tmp/err" ||
        { echo "FAIL: $model: json report exits $?: $(cat "$tmp/err")"; fail=1; continue; }
    [ -s "$tmp/err" ] && { echo "FAIL: $model: warnings: $(cat "$tmp/err")"; fail=1; }
    node "$tmp/npm/check.cjs" "$tmp/${model}.json" "$tmp/${model}.txt" || fail=1
    echo "$model: $(grep -c '"id":"[0-9a-f]\{16\}"' "$tmp/${model}.json") mutants, schema-valid"
done

[ $fail = 0 ] && echo "report_json: ok"
exit $fail
