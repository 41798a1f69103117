#!/usr/bin/env bash
# package.sh - the Debian package (docs/cluster.md, "Install"): CPack
# builds it from the build under test; its control file declares the
# libraries (apt resolves them: `apt-get install --simulate`); lintian
# reports no error; unpacked into a temporary root with `dpkg -x` (a
# container-less root: the binary runs there against this machine's
# libraries), the binary names its version and commit, every manual page
# renders with its command's --help text, the units and SLURM scripts
# name /usr/bin/mutfarm; the unpacked binary runs a campaign, and the
# unpacked systemd units run one too (tests/farm_systemd.sh on them).
. "$(dirname "$0")/farm_common.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(dirname "$MF_BIN")
for t in cpack dpkg-deb dpkg-shlibdeps; do
    if ! command -v "$t" >/dev/null; then
        echo "$TEST_NAME: SKIP: $t is not installed (apt-get install cmake dpkg-dev)"
        exit 77
    fi
done
if [ ! -f "$BUILD/CPackConfig.cmake" ]; then
    echo "$TEST_NAME: SKIP: no CPackConfig.cmake in $BUILD"
    exit 77
fi

# ---- build it ------------------------------------------------------------------
if ! (cd "$BUILD" && cpack -G DEB -B "$WORK/pkg") >"$WORK/cpack.log" 2>&1; then
    fail "cpack: $(tail -5 "$WORK/cpack.log")"
    finish
fi
deb=$(ls "$WORK"/pkg/mutfarm_*.deb 2>/dev/null | head -1)
[ -f "$deb" ] && ok "cpack made $(basename "$deb")" || { fail "no .deb in $WORK/pkg"; finish; }

deps=$(dpkg-deb -f "$deb" Depends)
for lib in libz3-4 libzmq5 libprotobuf-c1 libsqlite3-0 libinih1 libbdd0c2 adduser; do
    case "$deps" in
    *"$lib"*) ;;
    *) fail "Depends lacks $lib: $deps" ;;
    esac
done
ok "Depends: $deps"
if apt-get install --simulate "$deb" >"$WORK/apt.log" 2>&1 &&
    grep -q '^Inst mutfarm' "$WORK/apt.log"; then
    ok "apt-get install --simulate resolves the package"
else
    fail "apt-get install --simulate: $(tail -3 "$WORK/apt.log")"
fi
if command -v lintian >/dev/null; then
    lintian --tag-display-limit 0 "$deb" >"$WORK/lintian.log" 2>&1
    if grep -q '^E:' "$WORK/lintian.log"; then
        fail "lintian errors: $(grep '^E:' "$WORK/lintian.log" | head -5)"
    else
        ok "lintian: no error ($(grep -c '^W:' "$WORK/lintian.log") warnings)"
    fi
else
    echo "note: lintian is not installed; its check is skipped"
fi

# ---- what it installs ------------------------------------------------------------
R=$WORK/root
dpkg -x "$deb" "$R"
bin=$R/usr/bin/mutfarm
[ -x "$bin" ] && ok "unpacked /usr/bin/mutfarm" || { fail "no /usr/bin/mutfarm in the package"; finish; }
v=$("$bin" --version)
[[ $v =~ ^mutfarm\ [0-9]+\.[0-9]+\.[0-9]+\ \(git\ [0-9a-f]{7,}(-dirty)?\)$|^mutfarm\ [0-9.]+\ \(git\ unknown\)$ ]] &&
    ok "--version: $v" || fail "--version says '$v'"

cmds=$("$bin" --help | awk '/^commands:/ {on = 1; next} on && /^$/ {exit}
                             on && /^  [a-z]/ {print $1}')
for c in "" $cmds; do
    page=mutfarm${c:+-$c}
    f=$R/usr/share/man/man1/$page.1.gz
    if [ ! -f "$f" ]; then
        fail "no manual page $page"
        continue
    fi
    # The page's text is the help text: its usage line is in it.
    first=$(if [ -z "$c" ]; then "$bin" --help; else "$bin" "$c" --help; fi | head -1 |
        sed 's/  */ /g')
    if command -v man >/dev/null; then
        text=$(MANWIDTH=200 man -l "$f" 2>/dev/null | sed 's/  */ /g')
    else
        text=$(zcat "$f" | sed 's/\\-/-/g; s/\\e/\\/g; s/  */ /g')
    fi
    case "$text" in
    *"$first"*) ;;
    *) fail "$page does not show '$first'" ;;
    esac
done
ok "a manual page for mutfarm and each of: $(echo $cmds)"

for u in mutfarm-coordinator.service mutfarm-worker@.service \
    mutfarm-nightly.service mutfarm-nightly.timer; do
    [ -f "$R/lib/systemd/system/$u" ] || fail "no unit $u in /lib/systemd/system"
done
bad=$(grep -h '^ExecStart=' "$R"/lib/systemd/system/*.service | grep -v '^ExecStart=/usr/bin/mutfarm ')
[ -z "$bad" ] && ok "the units run /usr/bin/mutfarm" || fail "units: $bad"
for s in mutfarm-campaign.sbatch mutfarm-workers.sbatch; do
    [ -x "$R/usr/share/mutfarm/slurm/$s" ] || fail "no executable /usr/share/mutfarm/slurm/$s"
done
[ -f "$R/usr/share/doc/mutfarm/examples/mutfarm.conf" ] || fail "no example config"
n=$(ls "$R"/usr/share/mutfarm/schema/*.sql | wc -l)
[ "$n" = "$(ls "$ROOT"/schema/*.sql | wc -l)" ] && ok "the schema's $n migrations" ||
    fail "$n migrations in /usr/share/mutfarm/schema"

# ---- it runs ----------------------------------------------------------------------
if timeout "$LIMIT" "$bin" run "$MODEL" --bound 3 --workers 1 --operators "$OPS_SMALL" \
    --db "$WORK/inst.db" >"$WORK/run.out" 2>&1 && grep -q 'complete' "$WORK/run.out"; then
    ok "the unpacked binary runs a campaign: $(grep -m1 'mutants decided' "$WORK/run.out" | sed 's/^ *//')"
else
    fail "the unpacked binary's campaign: $(tail -3 "$WORK/run.out")"
fi
if command -v systemd-analyze >/dev/null; then
    if MF_UNITS=$R/lib/systemd/system MF_BIN=$bin bash "$ROOT/tests/farm_systemd.sh" \
        >"$WORK/units.log" 2>&1; then
        ok "the unpacked units serve a campaign (tests/farm_systemd.sh)"
    else
        fail "the unpacked units: $(grep FAIL "$WORK/units.log" | head -3)"
    fi
fi
finish
