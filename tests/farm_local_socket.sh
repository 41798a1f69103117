#!/usr/bin/env bash
# farm_local_socket.sh - `mutfarm run` on a shared node (docs/security.md):
# its local workers' socket is a file in a directory of mode 0700, so a
# worker run as another user (uid 65534, nobody) cannot connect and gets
# no job, while a worker of the run's own user, given the same endpoint,
# does (the check can fail: it is the same command, one uid apart). The
# run completes and leaves no socket directory behind. Needs root (to
# start a process as another uid with setpriv).
. "$(dirname "$0")/farm_common.sh"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
    echo "$TEST_NAME: SKIP: needs root and setpriv to run a second uid"
    exit 77
fi
other=65534
export TMPDIR=$WORK/tmp XDG_RUNTIME_DIR=
mkdir -p "$TMPDIR"
chmod 755 "$WORK" # the other uid may reach $WORK/tmp, not the run's folder
# Slow mutants, so that the campaign outlasts the visitors' arrival.
MF_TEST_MUTANT_MS=150 bg run "$MF_BIN" run "$MODEL" --bound 3 --workers 1 \
    --operators "$OPS_SMALL" --db "$WORK/run.db"
worker_pid() { pgrep -f "worker --connect ipc://$TMPDIR/" | head -1; }
wait_for 30 worker_pid >/dev/null || { fail "no local worker started"; finish; }
ep=$(tr '\0' '\n' </proc/"$(worker_pid)"/cmdline | sed -n '/^--connect$/{n;p}')
dir=${ep#ipc://}
dir=${dir%/farm}
case "$ep" in
ipc://"$TMPDIR"/mutfarm-run-*/farm) ok "the workers connect to $ep" ;;
*) fail "endpoint '$ep' is not a socket file in a run directory" ;;
esac
[ "$(stat -c '%a %u' "$dir")" = "700 0" ] && ok "its directory is 0700, the run's user's" ||
    fail "the socket's directory: $(stat -c '%a %u' "$dir")"

bg intruder setpriv --reuid=$other --regid=$other --clear-groups \
    "$MF_BIN" worker --connect "$ep" --threads 1 --id intruder --heartbeat 250 --liveness 4
bg_worker friend "$ep"
expect_exit0 run 180 "the run completes"
# The visitor did run (as uid 65534), trying to connect all along.
ipid=$(child_of "$PID_intruder")
[ -n "$ipid" ] && [ "$(stat -c %u /proc/"$ipid" 2>/dev/null)" = $other ] &&
    ok "the visitor ran as uid $other until the end" ||
    fail "the visitor is not running as uid $other: $(tail -2 "$WORK/intruder.err")"
ids=$(q "$WORK/run.db" 'SELECT id FROM workers ORDER BY id' | tr '\n' ' ')
case " $ids" in
*" friend "*) ok "a worker of the same user got in (workers: $ids)" ;;
*) fail "the same-uid worker did not get in: workers $ids" ;;
esac
case " $ids" in
*" intruder "*) fail "a worker of uid $other got in: workers $ids" ;;
*) ok "the worker of uid $other did not get in" ;;
esac
[ ! -e "$dir" ] && ok "the socket's directory is removed at the end" ||
    fail "$dir is left behind"
finish
