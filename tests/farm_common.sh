#!/usr/bin/env bash
# farm_common.sh - helpers shared by the farm's multi-process tests
# (tests/farm_*.sh, issue 4), and, run by itself, a smoke test of the farm
# commands' command lines: --help, usage errors, exit codes.
#
# Sourced:  . "$(dirname "$0")/farm_common.sh"
#   MF_BIN        the mutfarm binary (default ./build/mutfarm)
#   PEER          tests/farm_peer.c built next to it (bad frames, stub workers)
#   WORK          a fresh temporary directory, removed at exit
#   MODEL         tests/models/beverage.smv
#   OPS_SMALL     an operator subset: ~40 mutants, a few seconds
#   OPS_MEDIUM    ~80 mutants, for tests that kill processes mid-campaign
#   CONF          a config with fast heartbeats (250 ms x 4) for the tests
# Every process a test starts goes through `bg NAME CMD...` (under
# `timeout`, pid remembered in $PID_NAME), and is killed at exit.
set -uo pipefail

MF_BIN=${MF_BIN:-./build/mutfarm}
PEER=$(dirname "$MF_BIN")/farm_peer
MODEL=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/models/beverage.smv
OPS_SMALL=arith-op,case-swap,enum-replace,init-remove,negate,number-replace
OPS_MEDIUM=$OPS_SMALL,logic-op,rel-op,guard-true,term-remove
TEST_NAME=$(basename "$0" .sh)
# Every process is bounded, so a bug can fail a test but never hang it.
LIMIT=${FARM_LIMIT:-240}

if [ ! -x "$MF_BIN" ]; then
    echo "$TEST_NAME: MF_BIN=$MF_BIN is not an executable" >&2
    exit 1
fi
MF_BIN=$(cd "$(dirname "$MF_BIN")" && pwd)/$(basename "$MF_BIN")
PEER=$(dirname "$MF_BIN")/farm_peer
if ! command -v sqlite3 >/dev/null; then
    echo "$TEST_NAME: SKIP: the sqlite3 command-line shell is not installed"
    exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mf-$TEST_NAME.XXXXXX")
BGPIDS=()
cleanup() {
    local p
    for p in "${BGPIDS[@]}"; do
        # timeout's child first: a SIGKILLed timeout leaves it running.
        pkill -9 -P "$p" 2>/dev/null
        kill -9 "$p" 2>/dev/null
    done
    for p in "${BGPIDS[@]}"; do
        { wait "$p"; } 2>/dev/null
    done
    if [ "${FARM_KEEP:-0}" = 1 ]; then
        echo "kept $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

CONF=$WORK/fast.conf
cat >"$CONF" <<'EOF'
[farm]
heartbeat_ms = 250
liveness = 4
max_attempts = 3
job_target_ms = 500
EOF

FAILS=0
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}
ok() { echo "ok: $*"; }

# bg NAME CMD...: start CMD in the background under timeout; its pid goes
# to the variable PID_NAME, its stderr to $WORK/NAME.err, stdout NAME.out.
bg() {
    local name=$1
    shift
    timeout -s KILL "$LIMIT" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
    local pid=$!
    BGPIDS+=("$pid")
    printf -v "PID_$name" '%s' "$pid"
}

# The real pid of a process started by bg (timeout's child).
child_of() {
    local p
    for _ in $(seq 100); do
        p=$(pgrep -P "$1" | head -1)
        [ -n "$p" ] && { echo "$p"; return 0; }
        sleep 0.05
    done
    return 1
}

# A TCP port nobody listens on now, and an endpoint on it.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
free_endpoint() { echo "tcp://127.0.0.1:$(free_port)"; }

# bg_worker NAME ENDPOINT [THREADS]: a worker with id NAME (one thread by
# default) and the tests' fast heartbeats, started by bg.
bg_worker() {
    bg "$1" "$MF_BIN" worker --connect "$2" --threads "${3:-1}" --id "$1" \
        --heartbeat 250 --liveness 4
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
    local t=$1
    shift
    local end=$((SECONDS + t))
    while [ $SECONDS -lt $end ]; do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}

# wait_exit PID SECONDS: the exit code of a bg process, 124 if it did not
# end in time (then it is killed).
wait_exit() {
    local pid=$1 t=$2 end=$((SECONDS + $2))
    while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $end ]; do
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -9 "$pid" 2>/dev/null
        { wait "$pid"; } 2>/dev/null
        return 124
    fi
    { wait "$pid"; } 2>/dev/null
}

# expect_exit0 NAME SECONDS WHAT: the process bg started as NAME exits 0
# within SECONDS (ok WHAT), else a failure with the end of its stderr.
expect_exit0() {
    local pid_var=PID_$1 code
    wait_exit "${!pid_var}" "$2"
    code=$?
    [ $code = 0 ] && ok "$3" || fail "$1: exit $code: $(tail -3 "$WORK/$1.err")"
}

q() { sqlite3 -cmd '.timeout 5000' "$@"; }

# Counts for a store's newest campaign.
verdict_rows() { q "$1" 'SELECT count(*) FROM verdicts'; }
pending_count() {
    q "$1" "SELECT count(*) FROM mutant_verdicts WHERE status = 'pending'"
}
decided_count() {
    q "$1" "SELECT count(*) FROM mutant_verdicts WHERE status IN
            ('killed','equivalent','survived','unknown','error')"
}
# at_least_decided DB N: N mutants or more are decided (for wait_for).
at_least_decided() {
    [ "$(decided_count "$1" 2>/dev/null || echo 0)" -ge "$2" ]
}
campaign_done() {
    [ "$(q "$1" "SELECT state FROM campaigns ORDER BY id DESC LIMIT 1")" = done ]
}

# check_store DB: integrity, every mutant to decide has exactly one final
# verdict, the campaign is done.
check_store() {
    local db=$1 r
    r=$(q "$db" 'PRAGMA integrity_check')
    [ "$r" = ok ] && ok "integrity_check of $(basename "$db")" ||
        fail "integrity_check of $db: $r"
    local total verdicts pending
    total=$(q "$db" "SELECT total FROM campaign_scores ORDER BY campaign_id DESC LIMIT 1")
    verdicts=$(q "$db" "SELECT count(*) FROM verdicts v JOIN mutants m ON m.id = v.mutant
                        WHERE m.campaign_id = (SELECT max(id) FROM campaigns)")
    pending=$(pending_count "$db")
    if [ "$total" -gt 0 ] && [ "$verdicts" = "$total" ] && [ "$pending" = 0 ]; then
        ok "$total mutants, each with exactly one final verdict"
    else
        fail "$db: total $total, verdict rows $verdicts, pending $pending"
    fi
    campaign_done "$db" && ok "campaign marked done" ||
        fail "campaign in $db not marked done"
}

verdict_set() {
    q "$1" 'SELECT mutant_id, status FROM mutant_verdicts ORDER BY mutant_id'
}

finish() {
    if [ "$FAILS" -gt 0 ]; then
        echo "$TEST_NAME: $FAILS check(s) FAILED (logs in $WORK, kept)"
        FARM_KEEP=1
        exit 1
    fi
    echo "$TEST_NAME: passed"
    exit 0
}

# same_verdicts DB CALM: every mutant of DB has the verdict it has in CALM.
same_verdicts() {
    verdict_set "$1" >"$WORK/disturbed.set"
    verdict_set "$2" >"$WORK/calm.set"
    cmp -s "$WORK/disturbed.set" "$WORK/calm.set" &&
        ok "every verdict equals the undisturbed run's ($(wc -l <"$WORK/calm.set") mutants)" ||
        fail "verdicts differ from the undisturbed run's: $(diff "$WORK/disturbed.set" "$WORK/calm.set" | head -5)"
}

# same_as_undisturbed DB MODEL WORKERS ARGS...: the campaign of DB run
# again undisturbed (mutfarm run, WORKERS local workers, into
# $WORK/calm.db) gives every mutant the same verdict.
same_as_undisturbed() {
    local db=$1 model=$2 nw=$3
    shift 3
    "$MF_BIN" run "$model" --db "$WORK/calm.db" --workers "$nw" "$@" \
        >/dev/null 2>"$WORK/calm.err" ||
        fail "the undisturbed run failed: $(tail -2 "$WORK/calm.err")"
    same_verdicts "$db" "$WORK/calm.db"
}

# ---- a network partition (farm_partition.sh, bench/soak.sh) ----------------
# net_setup: a network namespace $NET_NS joined to this one by a veth pair,
# $NET_HOST the address of this end (bind the coordinator there) and
# $NET_PEER the namespace's; net_cut and net_heal take this end's link
# down and up: a process in the namespace (net_bg) loses every packet to
# and from the coordinator, while processes here still reach $NET_HOST.
# Needs root and iproute2; where the machine does not allow it, returns 1
# with the reason in $NET_WHY. Torn down at exit.
net_setup() {
    NET_WHY=
    command -v ip >/dev/null || { NET_WHY="no ip command (iproute2)"; return 1; }
    [ "$(id -u)" = 0 ] || { NET_WHY="network namespaces need root"; return 1; }
    NET_NS=mf$$n NET_VETH=mf$$h
    local err
    if ! err=$(ip netns add "$NET_NS" 2>&1); then
        NET_WHY="ip netns add: $err"
        return 1
    fi
    trap 'cleanup; net_teardown' EXIT
    # A /30 no interface here has: two runs of the test may overlap.
    local a b
    for _ in $(seq 50); do
        a=$((RANDOM % 50 + 200)) b=$((RANDOM % 64 * 4))
        ip -4 addr show | grep -q "inet 10\.$a\.$((b / 256))\." || break
    done
    NET_HOST=10.$a.0.$((b + 1)) NET_PEER=10.$a.0.$((b + 2))
    if ! err=$({ ip link add "$NET_VETH" type veth peer name mf$$p &&
        ip link set mf$$p netns "$NET_NS" &&
        ip addr add "$NET_HOST/30" dev "$NET_VETH" &&
        ip link set "$NET_VETH" up &&
        ip netns exec "$NET_NS" ip addr add "$NET_PEER/30" dev mf$$p &&
        ip netns exec "$NET_NS" ip link set mf$$p up &&
        ip netns exec "$NET_NS" ip link set lo up; } 2>&1); then
        NET_WHY="veth pair: $err"
        return 1
    fi
}
net_teardown() {
    [ -n "${NET_NS:-}" ] || return 0
    ip link del "$NET_VETH" 2>/dev/null
    ip netns del "$NET_NS" 2>/dev/null
}
net_cut() { ip link set "$NET_VETH" down; }
net_heal() { ip link set "$NET_VETH" up; }
# net_bg NAME CMD...: bg, with CMD inside the namespace (ip netns exec
# execs it: child_of gives CMD's pid).
net_bg() {
    local name=$1
    shift
    bg "$name" ip netns exec "$NET_NS" "$@"
}

# ---- run by itself: the command lines of run, coordinator, status ----------
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    expect_code() { # CODE DESC CMD...
        local want=$1 desc=$2
        shift 2
        timeout 60 "$@" >"$WORK/out" 2>"$WORK/err"
        local got=$?
        if [ "$got" = "$want" ]; then ok "$desc (exit $got)"; else
            fail "$desc: exit $got, expected $want; stderr: $(head -3 "$WORK/err")"
        fi
    }
    for c in run coordinator status worker; do
        expect_code 0 "$c --help" "$MF_BIN" "$c" --help
        grep -q "usage: mutfarm $c" "$WORK/out" || fail "$c --help prints no usage"
        expect_code 0 "help $c" "$MF_BIN" help "$c"
    done
    expect_code 1 "run without a model" "$MF_BIN" run
    expect_code 1 "run with an unknown option" "$MF_BIN" run "$MODEL" --frobnicate
    expect_code 1 "run --bind is not run's" "$MF_BIN" run "$MODEL" --bind tcp://*:1
    expect_code 1 "coordinator --workers is not coordinator's" \
        "$MF_BIN" coordinator "$MODEL" --workers 2
    expect_code 1 "run --bound x" "$MF_BIN" run "$MODEL" --bound x --db "$WORK/a.db"
    expect_code 1 "run --fail-under 101" "$MF_BIN" run "$MODEL" --fail-under 101
    expect_code 1 "run --operators nosuch" "$MF_BIN" run "$MODEL" --operators nosuch
    echo '[farm]
nosuch = 1' >"$WORK/bad.conf"
    expect_code 1 "run --config with an unknown key" \
        "$MF_BIN" run "$MODEL" --config "$WORK/bad.conf"
    grep -q 'bad.conf:2' "$WORK/err" || fail "bad config error names no file:line"
    expect_code 1 "run on a missing model" "$MF_BIN" run "$WORK/none.smv" --db "$WORK/n.db"
    echo 'MODULE main VAR x : boolean; ASSIGN next(x) := y;' >"$WORK/bad.smv"
    expect_code 1 "run on a model that does not load" \
        "$MF_BIN" run "$WORK/bad.smv" --db "$WORK/n.db"
    expect_code 1 "status without --db" "$MF_BIN" status
    expect_code 1 "status on a missing file" "$MF_BIN" status --db "$WORK/none.db"
    # The default store is NAME.mutfarm.db in the current directory.
    (cd "$WORK" && timeout 120 "$MF_BIN" run "$MODEL" --bound 1 --workers 1 \
        --operators init-remove --config "$CONF" >run.out 2>run.err)
    code=$?
    [ $code = 0 ] && [ -f "$WORK/beverage.mutfarm.db" ] &&
        ok "run defaults to ./beverage.mutfarm.db" ||
        fail "run with the default store: exit $code, $(ls "$WORK")"
    grep -q 'mutation score' "$WORK/run.out" && ok "run prints a summary" ||
        fail "no summary on stdout: $(cat "$WORK/run.out")"
    if grep -q $'\r' "$WORK/run.err"; then
        fail "progress line drawn on a stderr that is not a terminal"
    else
        ok "no progress line when stderr is not a terminal"
    fi
    expect_code 0 "status of a finished campaign" \
        "$MF_BIN" status --db "$WORK/beverage.mutfarm.db"
    grep -q 'campaign 1: complete' "$WORK/out" || fail "status: $(head -2 "$WORK/out")"
    # Bound 0: no test at all, so every killable mutant survives.
    expect_code 3 "--fail-under 100 with survivors" \
        "$MF_BIN" run "$MODEL" --bound 0 --workers 1 --operators stuck-at \
        --config "$CONF" --db "$WORK/f.db" --fail-under 100
    grep -q 'below --fail-under' "$WORK/err" || fail "no --fail-under message"
    expect_code 0 "--fail-under 0" "$MF_BIN" run "$MODEL" --bound 0 --workers 1 \
        --operators stuck-at --config "$CONF" --db "$WORK/f.db" --fail-under 0
    [ "$(q "$WORK/f.db" 'SELECT count(*) FROM campaigns')" = 2 ] &&
        ok "a finished campaign is not resumed: a second run is a new campaign" ||
        fail "campaigns in f.db: $(q "$WORK/f.db" 'SELECT id, state FROM campaigns')"
    r=$(q "$WORK/f.db" 'PRAGMA integrity_check')
    [ "$r" = ok ] && ok "integrity_check" || fail "integrity_check: $r"
    finish
fi
