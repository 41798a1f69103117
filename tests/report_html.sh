#!/usr/bin/env bash
# report_html.sh - `mutfarm report --format html` opened in headless
# Chromium, offline (every host name resolves to nothing): the page is
# one file with no external script, style or image, the
# mutation-testing-elements viewer embedded in it renders, and the
# mutation score it displays (read from its shadow DOM by a small script
# appended to a copy of the page, which copies it into the light DOM for
# --dump-dom) equals the text report's, for the beverage machine at 100%
# (bound 10) and at 78.2% (bound 3 observing `out`). Skipped (77) only
# when Chromium is not installed, or this mutfarm was built without the
# viewer (npm missing at build time; `report` says so with exit 1).
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    echo "report_html: skipped: chromium is not installed (apt-get install chromium)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-report-html.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/bev.db
"$MF_BIN" run tests/models/beverage.smv --bound 10 --db "$db" > "$tmp/run.out" 2>&1 &&
    "$MF_BIN" run tests/models/beverage.smv --bound 3 --observe out --db "$db" \
        >> "$tmp/run.out" 2>&1 ||
    { echo "FAIL: campaigns: $(tail -3 "$tmp/run.out")"; exit 1; }

"$MF_BIN" report --db "$db" --format html -o "$tmp/r.html" 2> "$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "built without the HTML viewer" "$tmp/err"; then
    echo "report_html: skipped: $(cat "$tmp/err")"
    exit 77
fi
[ $rc = 0 ] || { echo "FAIL: html report exits $rc: $(cat "$tmp/err")"; exit 1; }

# The probe: once the viewer has rendered, the first score in its metrics
# table (the "All files" row) goes to <div id="rendered-score">.
cat > "$tmp/probe.html" <<'EOF'
<script>
(function () {
  function roots(root, out) {
    out.push(root);
    root.querySelectorAll('*').forEach(function (el) {
      if (el.shadowRoot) roots(el.shadowRoot, out);
    });
    return out;
  }
  var tries = 0;
  function look() {
    var found = null;
    roots(document, []).forEach(function (r) {
      if (found !== null || !r.host || r.host.tagName !== 'MTE-METRICS-TABLE')
        return;
      r.querySelectorAll('*').forEach(function (el) {
        if (found === null && el.children.length === 0 &&
            /^\s*(\d+\.\d+|N\/A)\s*$/.test(el.textContent))
          found = el.textContent.trim();
      });
    });
    if (found === null && ++tries < 200) {
      setTimeout(look, 100);
      return;
    }
    var d = document.createElement('div');
    d.id = 'rendered-score';
    d.textContent = found === null ? 'none' : found;
    document.body.appendChild(d);
  }
  look();
})();
</script>
EOF

render() { # render PAGE: the DOM after the viewer ran, offline
    timeout 180 "$chromium" --headless --no-sandbox --disable-gpu \
        --disable-dev-shm-usage --no-first-run --user-data-dir="$tmp/profile" \
        --host-resolver-rules="MAP * ~NOTFOUND" --virtual-time-budget=30000 \
        --dump-dom "file://$1" 2> "$tmp/chromium.err"
}

for c in 1 2; do
    "$MF_BIN" report --db "$db" --campaign $c > "$tmp/r$c.txt" 2>&1 ||
        { echo "FAIL: text report of campaign $c exits $?"; fail=1; continue; }
    want=$(sed -n 's/^  mutation score: *\([0-9.]*\)%.*/\1/p' "$tmp/r$c.txt")
    page=$tmp/r$c.html
    "$MF_BIN" report --db "$db" --campaign $c --format html -o "$page" ||
        { echo "FAIL: html report of campaign $c exits $?"; fail=1; continue; }
    # One file: nothing loaded from elsewhere.
    if grep -Eiq '<(script|link|img|iframe)[^>]*(src|href)=' "$page"; then
        echo "FAIL: campaign $c: the page loads other files:"
        grep -Eio '<(script|link|img|iframe)[^>]*(src|href)=[^>]*>' "$page" | head -3
        fail=1
    fi
    n=$(grep -c '</script>' "$page")
    [ "$n" = 3 ] || { echo "FAIL: campaign $c: $n script ends, not 3"; fail=1; }
    grep -q "<b id=\"mutfarm-score\">$want%</b>" "$page" ||
        { echo "FAIL: campaign $c: the summary line lacks $want%"; fail=1; }
    cat "$page" "$tmp/probe.html" > "$tmp/p$c.html"
    render "$tmp/p$c.html" > "$tmp/dom$c.html"
    got=$(sed -n 's/.*<div id="rendered-score">\([^<]*\)<\/div>.*/\1/p' "$tmp/dom$c.html")
    if [ -z "$got" ] || [ "$got" = none ]; then
        echo "FAIL: campaign $c: the viewer rendered no score ($(wc -c < "$tmp/dom$c.html") bytes of DOM; $(grep -v -e dbus -e '^$' "$tmp/chromium.err" | head -3))"
        fail=1
        continue
    fi
    rounded=$(printf '%.1f' "$got")
    if [ "$rounded" != "$want" ]; then
        echo "FAIL: campaign $c: the viewer shows $got, the text report $want%"
        fail=1
    else
        echo "campaign $c: the viewer shows $got, the text report $want%"
    fi
done

[ $fail = 0 ] && echo "report_html: ok"
exit $fail
