#!/usr/bin/env bash
# rerun_systemd.sh - the nightly systemd units of config/ (docs/nightly.md)
# pass `systemd-analyze verify`, with ExecStart pointed at the binary under
# test (the shipped path, /usr/bin/mutfarm, need not exist here); the
# command line they run is one `mutfarm run` accepts.
set -uo pipefail
cd "$(dirname "$0")/.."
MF_BIN=${MF_BIN:-./build/mutfarm}
if ! command -v systemd-analyze >/dev/null; then
    echo "rerun_systemd: SKIP: systemd-analyze is not installed"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mf-rerun_systemd.XXXXXX")
trap 'rm -rf "$work"' EXIT
bin=$(cd "$(dirname "$MF_BIN")" && pwd)/$(basename "$MF_BIN")
sed "s#/usr/bin/mutfarm#$bin#" config/mutfarm-nightly.service \
    >"$work/mutfarm-nightly.service"
cp config/mutfarm-nightly.timer "$work/"
status=0
if out=$(systemd-analyze verify "$work/mutfarm-nightly.service" \
    "$work/mutfarm-nightly.timer" 2>&1); then
    echo "ok: systemd-analyze verify accepts the service and the timer"
else
    echo "FAIL: systemd-analyze verify: $out"
    status=1
fi
# The service's command line, with a model and store of the test.
args=$(sed -n 's#^ExecStart=[^ ]* run models/ctrl.smv##p' config/mutfarm-nightly.service)
read -r -a argv <<<"$args"
argv=("${argv[@]/\/srv\/mutfarm\/ctrl.db/$work/ctrl.db}")
if "$bin" run tests/models/counter_up.smv "${argv[@]}" --workers 1 --bound 2 \
    >"$work/out" 2>"$work/err"; then
    echo "ok: mutfarm run takes the service's options"
else
    echo "FAIL: mutfarm run ${argv[*]}: $(tail -2 "$work/err")"
    status=1
fi
[ $status = 0 ] && echo "rerun_systemd: passed"
exit $status
