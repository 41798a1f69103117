#!/usr/bin/env bash
# farm_bad_frames.sh - what a peer sends cannot crash the coordinator:
# garbage bytes, a truncated protobuf, a wrong protocol version, a frame
# over the protocol's limit, a frame over the transport's hard cap, a
# multi-frame message, an empty frame, a result for an unknown job and a
# message from a peer that never said hello. Each gets a Reject (or, over
# the hard cap, is dropped with its connection) and one log line, and the
# coordinator serves its campaign to completion, also when the bad frames
# arrive while workers are busy.
#
# The frames come from tests/farm_peer.c (`farm_peer send EP KIND`).
. "$(dirname "$0")/farm_common.sh"

if [ ! -x "$PEER" ]; then
    echo "farm_bad_frames: $PEER not built"
    exit 1
fi
ep=$(free_endpoint)
bg coord "$MF_BIN" coordinator "$MODEL" --db "$WORK/f.db" --bind "$ep" \
    --bound 3 --operators "$OPS_MEDIUM" --config "$CONF"
up() { grep -q 'waiting for workers' "$WORK/coord.err"; }
wait_for 60 up || { fail "coordinator did not come up: $(cat "$WORK/coord.err")"; finish; }

# KIND and the answer expected (RejectCode of proto/mutfarm.proto).
expect() {
    local kind=$1 want=$2 got
    got=$(timeout 60 "$PEER" send "$ep" "$kind")
    case "$got" in
    "$want"*) ok "$kind: $got" ;;
    *) fail "$kind: got '$got', expected '$want...'" ;;
    esac
}
expect garbage "reject 1:"     # REJECT_UNDECODABLE
expect truncated "reject 1:"
expect version "reject 2:"     # REJECT_VERSION
expect huge "reject 3:"        # REJECT_OVERSIZED
expect giant "no answer"       # over the hard cap: connection dropped
expect multipart "reject 1:"
expect empty "reject 4:"       # REJECT_NO_BODY
expect unknown-job "reject 7:" # REJECT_UNKNOWN_JOB
expect no-hello "reject 9:"    # REJECT_NOT_HELLO
kill -0 "$PID_coord" 2>/dev/null && ok "coordinator alive after 9 bad peers" ||
    fail "coordinator died: $(tail -3 "$WORK/coord.err")"
n=$(grep -c 'refused a' "$WORK/coord.err")
[ "$n" = 8 ] && ok "$n 'refused' log lines" || fail "only $n 'refused' log lines"
dropped() { grep -q 'dropped a connection .* before any frame' "$WORK/coord.err"; }
wait_for 5 dropped && ok "the dropped giant frame is logged" ||
    fail "no log line for the frame over the hard cap"

# Bad frames while a worker is busy with the campaign.
bg_worker w1 "$ep" 2
busy() { [ "$(verdict_rows "$WORK/f.db")" -ge 1 ]; }
wait_for 60 busy || fail "the worker never got going"
senders=()
for kind in garbage version huge truncated unknown-job; do
    timeout 60 "$PEER" send "$ep" "$kind" >/dev/null &
    senders+=($!)
done
wait "${senders[@]}"
expect_exit0 coord "$LIMIT" "the campaign completes, exit 0"
expect_exit0 w1 30 "the worker exits 0 on bye"
check_store "$WORK/f.db"
finish
