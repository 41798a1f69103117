#!/usr/bin/env bash
# farm_systemd.sh - the farm's systemd units of config/ (issue 22, point
# 3; docs/cluster.md): mutfarm-coordinator.service and the template
# mutfarm-worker@.service pass `systemd-analyze verify` (ExecStart pointed
# at the binary under test); then their command lines, as systemd would
# run them (the instance HOST:PORT put for %i), serve a campaign to
# completion: the coordinator exits 0, the --persist worker stays and
# leaves on SIGTERM with exit 0. The nightly units are
# tests/rerun_systemd.sh's. MF_UNITS names another folder of units to
# test (tests/package.sh: the ones a package installed), default config/.
. "$(dirname "$0")/farm_common.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
UNITS=${MF_UNITS:-$ROOT/config}
if ! command -v systemd-analyze >/dev/null; then
    echo "$TEST_NAME: skipped: systemd-analyze is not installed (apt-get install systemd)"
    exit 77
fi
for u in mutfarm-coordinator.service mutfarm-worker@.service; do
    sed "s#/usr/bin/mutfarm#$MF_BIN#" "$UNITS/$u" >"$WORK/$u"
done
if out=$(cd "$WORK" && systemd-analyze verify ./mutfarm-coordinator.service \
    ./mutfarm-worker@.service 2>&1); then
    ok "systemd-analyze verify accepts both units"
else
    fail "systemd-analyze verify: $out"
fi

# ExecStart of a unit, with its paths moved into $WORK, as words.
exec_words() {
    sed -n 's/^ExecStart=//p' "$WORK/$1" |
        sed -e "s#/srv/mutfarm/#$WORK/#g" -e "s#/etc/mutfarm/[a-z]*\.conf#$CONF#g" \
            -e "s#models/ctrl.smv#$MODEL#" -e "s#%i#$2#g"
}
port=$(free_port)
read -r -a cmd <<<"$(exec_words mutfarm-coordinator.service "")"
cmd=("${cmd[@]/tcp:\/\/\*:5555/tcp://127.0.0.1:$port}")
bg coord "${cmd[@]}" --bound 2 --operators "$OPS_SMALL"
read -r -a wcmd <<<"$(exec_words mutfarm-worker@.service "127.0.0.1:$port")"
bg worker "${wcmd[@]}"
expect_exit0 coord 120 "the coordinator unit's command completes the campaign"
check_store "$WORK/ctrl.db"
sleep 1
kill -0 "$PID_worker" 2>/dev/null && ok "the --persist worker stays for the next campaign" ||
    fail "the worker left: $(tail -2 "$WORK/worker.err")"
kill -TERM "$(child_of "$PID_worker")"
expect_exit0 worker 30 "the worker leaves on SIGTERM, exit 0"
finish
