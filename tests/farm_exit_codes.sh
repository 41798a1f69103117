#!/usr/bin/env bash
# farm_exit_codes.sh - the farm commands' user errors (issue 22, point 6):
# each exits 1 with one line naming what to fix, and leaves nothing
# behind: a coordinator that cannot bind creates no campaign, a `mutfarm
# run` killed with SIGKILL leaves only its socket's directory in TMPDIR,
# which the next run removes. The local workers of
# `run` show as `mutfarm` in ps and top.
. "$(dirname "$0")/farm_common.sh"

# expect1 DESC REGEX CMD...: exit 1, and stderr is one line matching REGEX.
expect1() {
    local desc=$1 re=$2
    shift 2
    timeout 60 "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
    local got=$? lines
    lines=$(wc -l <"$WORK/err")
    if [ "$got" != 1 ]; then
        fail "$desc: exit $got, expected 1; stderr: $(head -3 "$WORK/err")"
    elif [ "$lines" != 1 ]; then
        fail "$desc: $lines lines on stderr, expected one: $(head -3 "$WORK/err")"
    elif ! grep -Eq -- "$re" "$WORK/err"; then
        fail "$desc: stderr does not say /$re/: $(cat "$WORK/err")"
    else
        ok "$desc: exit 1, '$(cat "$WORK/err")'"
    fi
}

for cmd in run coordinator; do
    extra=()
    [ $cmd = coordinator ] && extra=(--bind "$(free_endpoint)")
    expect1 "$cmd --observe nosuch" "--observe 'nosuch' is not a VAR or DEFINE" \
        "$MF_BIN" $cmd "$MODEL" --db "$WORK/o-$cmd.db" --observe nosuch "${extra[@]}"
    expect1 "$cmd --inputs nosuch" "--inputs 'nosuch' is not a variable" \
        "$MF_BIN" $cmd "$MODEL" --db "$WORK/i-$cmd.db" --inputs nosuch "${extra[@]}"
done

# A port in use: held by a listening socket for the length of the check.
port=$(free_port)
python3 -c "import socket,time
s=socket.socket(); s.bind(('127.0.0.1',$port)); s.listen(); time.sleep(60)" &
holder=$!
BGPIDS+=("$holder")
listening() {
    python3 -c "import socket; socket.create_connection(('127.0.0.1',$port)).close()" 2>/dev/null
}
wait_for 10 listening ||
    fail "could not hold port $port"
expect1 "coordinator on a port in use" "cannot listen on 'tcp://127.0.0.1:$port': the address is in use" \
    "$MF_BIN" coordinator "$MODEL" --db "$WORK/busy.db" --bind "tcp://127.0.0.1:$port"
if [ ! -e "$WORK/busy.db" ] ||
    [ "$(q "$WORK/busy.db" 'SELECT count(*) FROM campaigns')" = 0 ]; then
    ok "the failed bind left no campaign behind"
else
    fail "the failed bind left: $(q "$WORK/busy.db" 'SELECT id, state FROM campaigns')"
fi
kill "$holder" 2>/dev/null
expect1 "coordinator --bind foo" "--bind 'foo' is not an endpoint" \
    "$MF_BIN" coordinator "$MODEL" --db "$WORK/m.db" --bind foo
expect1 "coordinator --bind tcp://*:99999" "'99999' is not a port" \
    "$MF_BIN" coordinator "$MODEL" --db "$WORK/m.db" --bind 'tcp://*:99999'
expect1 "coordinator on an address not of this machine" "no such address" \
    "$MF_BIN" coordinator "$MODEL" --db "$WORK/m.db" --bind tcp://192.0.2.1:5555
[ ! -e "$WORK/m.db" ] && ok "no store was created by the refused binds" ||
    fail "a refused bind created $WORK/m.db"
expect1 "worker --connect foo" "--connect 'foo' is not an endpoint" \
    "$MF_BIN" worker --connect foo
expect1 "worker --connect tcp://*:5555" "a worker dials a host" \
    "$MF_BIN" worker --connect 'tcp://*:5555'
expect1 "worker without --connect" "give the coordinator with --connect" \
    "$MF_BIN" worker

# A store from a newer mutfarm: refused as it is, untouched.
"$MF_BIN" run "$MODEL" --db "$WORK/new.db" --operators negate --bound 1 \
    --workers 1 --config "$CONF" >/dev/null 2>&1 || fail "the first run failed"
v=$(q "$WORK/new.db" 'PRAGMA user_version')
q "$WORK/new.db" "PRAGMA user_version = $((v + 1))"
sum=$(md5sum <"$WORK/new.db")
expect1 "run on a store of a newer schema" "written by a newer mutfarm \(schema $((v + 1))" \
    "$MF_BIN" run "$MODEL" --db "$WORK/new.db"
[ "$(md5sum <"$WORK/new.db")" = "$sum" ] && ok "the newer store is untouched" ||
    fail "the newer store was changed"

# A run killed with SIGKILL leaves only its socket's directory; its workers are
# named mutfarm.
mkdir "$WORK/tmp"
export MF_TEST_MUTANT_MS=200
TMPDIR=$WORK/tmp bg run "$MF_BIN" run "$MODEL" --db "$WORK/k.db" --workers 2 \
    --operators "$OPS_SMALL" --bound 2 --config "$CONF"
unset MF_TEST_MUTANT_MS
run=$(child_of "$PID_run")
kids() { pgrep -P "$run" | tr '\n' ' '; }
two_kids() { [ "$(pgrep -P "$run" | wc -l)" -ge 2 ]; }
if wait_for 60 two_kids; then
    names=$(for k in $(kids); do ps -o comm= -p "$k"; done | sort -u | tr '\n' ' ')
    [ "$names" = "mutfarm " ] && ok "local workers are named mutfarm in ps/top" ||
        fail "local workers are named '$names'"
    wait_for 60 at_least_decided "$WORK/k.db" 1 || fail "the run made no progress"
    k=$(kids)
    kill -KILL "$run"
    { wait "$PID_run"; } 2>/dev/null
    gone() { for p in $k; do kill -0 "$p" 2>/dev/null && return 1; done; return 0; }
    wait_for 10 gone || fail "the killed run's workers stayed: $k"
    # Its socket's directory stays (nothing runs to remove it) and the
    # user's next run removes it; the log files were unlinked when opened.
    left=$(ls -A "$WORK/tmp")
    case "$left" in
    mutfarm-run-??????) ok "a SIGKILLed run leaves only its socket's directory" ;;
    *) fail "a SIGKILLed run left in TMPDIR: $left" ;;
    esac
    TMPDIR=$WORK/tmp timeout 120 "$MF_BIN" run "$MODEL" --bound 1 --workers 1 \
        --operators negate --db "$WORK/k2.db" >/dev/null 2>&1 ||
        fail "the next run failed"
    left=$(ls -A "$WORK/tmp")
    [ -z "$left" ] && ok "the next run removes it: nothing left in TMPDIR" ||
        fail "left in TMPDIR after the next run: $left"
else
    fail "run started no workers: $(tail -3 "$WORK/run.err")"
fi
finish
