#!/usr/bin/env bash
# farm_curve.sh - CURVE on the farm (docs/security.md): keys made by
# `mutfarm keygen`; a coordinator with --curve serves only a worker whose
# key is listed. A worker with an unlisted key and a plain worker get
# nothing (the campaign does not move with only them) and the coordinator
# logs both refusals; the listed worker completes the campaign. The
# loopback traffic of that campaign, captured by tcpdump, holds none of
# the model's text; the same capture of a campaign without CURVE does (the
# control: the grep can find it). Skipped (77) only when tcpdump is
# missing or cannot capture on lo here.
. "$(dirname "$0")/farm_common.sh"

if ! command -v tcpdump >/dev/null; then
    echo "$TEST_NAME: SKIP: tcpdump is not installed (apt-get install tcpdump)"
    exit 77
fi

# A copy of the model with an identifier found nowhere else: jobs carry
# the model's text, so it is on the wire unless it is encrypted.
SECRET=water_level_in_tank_q7z
sed "s/wtr/$SECRET/g" "$MODEL" >"$WORK/model.smv"
grep -q "$SECRET" "$WORK/model.smv" || { fail "no identifier to look for"; finish; }

# has FILE TEXT / has_re FILE REGEX: FILE (maybe not there yet) holds it.
has() { grep -qF -- "$2" "$1" 2>/dev/null; }
has_re() { grep -q -- "$2" "$1" 2>/dev/null; }

# capture NAME PORT: tcpdump on lo for tcp port PORT into $WORK/NAME.pcap,
# started by bg; returns once it listens.
capture() {
    # --immediate-mode: packets reach the file as they come, not when a
    # buffer block fills (a short campaign would be lost at the stop).
    bg "$1" tcpdump -i lo -U --immediate-mode -n -s 0 -w "$WORK/$1.pcap" \
        "tcp port $2"
    if ! wait_for 10 has "$WORK/$1.err" 'listening on'; then
        echo "$TEST_NAME: SKIP: tcpdump cannot capture on lo here:" \
            "$(head -2 "$WORK/$1.err")"
        exit 77
    fi
}
stop_capture() {
    local pid_var=PID_$1 pid
    pid=$(child_of "${!pid_var}") && kill -INT "$pid"
    wait_exit "${!pid_var}" 10 >/dev/null
}

(cd "$WORK" && "$MF_BIN" keygen -o coord >/dev/null && "$MF_BIN" keygen -o good \
    >/dev/null && "$MF_BIN" keygen -o bad >/dev/null) || { fail "keygen"; finish; }
mkdir "$WORK/auth" && cp "$WORK/good.key" "$WORK/auth/"
[ "$(stat -c %a "$WORK/coord.key_secret")" = 600 ] && ok "keygen: secret file mode 0600" ||
    fail "keygen: secret mode $(stat -c %a "$WORK/coord.key_secret")"
badkey=$(sed -n 's/.*public-key = "\(.*\)"/\1/p' "$WORK/bad.key")

# ---- CURVE on ------------------------------------------------------------
port=$(free_port)
ep=tcp://127.0.0.1:$port
capture cap_curve "$port"
bg coord "$MF_BIN" coordinator "$WORK/model.smv" --db "$WORK/c.db" --bind "$ep" \
    --curve --server-secret-key "$WORK/coord.key_secret" \
    --authorized-keys "$WORK/auth" --bound 2 --operators "$OPS_SMALL" --config "$CONF"
wait_for 20 has "$WORK/coord.err" 'waiting for workers' ||
    { fail "coordinator did not start: $(tail -3 "$WORK/coord.err")"; finish; }
keys=(--curve --server-public-key "$WORK/coord.key")
bg bad "$MF_BIN" worker --connect "$ep" --threads 1 --id bad --heartbeat 250 \
    --liveness 4 "${keys[@]}" --client-secret-key "$WORK/bad.key_secret"
bg_worker plain "$ep"
wait_for 20 has "$WORK/coord.err" "key $badkey is not among the authorised keys" &&
    ok "the unlisted key is refused and logged with its key" ||
    fail "no refusal of key $badkey: $(tail -3 "$WORK/coord.err")"
grep -q 'refused a CURVE connection from 127.0.0.1' "$WORK/coord.err" &&
    ok "the refusal names the peer's address" || fail "no address in the refusal"
wait_for 20 has_re "$WORK/coord.err" 'refused a connection on .*without CURVE' &&
    ok "the plain worker is refused and logged" ||
    fail "no refusal of the plain worker: $(tail -3 "$WORK/coord.err")"
sleep 2 # they keep trying
n=$(decided_count "$WORK/c.db")
[ "$n" = 0 ] && ok "with only those two, nothing is decided" ||
    fail "$n mutants decided without a listed worker"
grep -q 'joined' "$WORK/coord.err" && fail "a refused worker joined" ||
    ok "no refused worker joined"
# This one reads its keys from the [security] section of a config file.
cat >"$WORK/worker.conf" <<EOF
[security]
curve = on
server_public_key = $WORK/coord.key
client_secret_key = $WORK/good.key_secret
EOF
bg good "$MF_BIN" worker --connect "$ep" --threads 2 --id good --heartbeat 250 \
    --liveness 4 --config "$WORK/worker.conf"
expect_exit0 coord 120 "the listed worker completes the campaign"
expect_exit0 good 30 "the listed worker exits after the bye"
check_store "$WORK/c.db"
jobs_by=$(q "$WORK/c.db" "SELECT DISTINCT worker_id FROM verdicts")
[ "$jobs_by" = good ] && ok "every verdict came from the listed worker" ||
    fail "verdicts from: $jobs_by"
stop_capture cap_curve
size=$(stat -c %s "$WORK/cap_curve.pcap")
# The ZMTP greeting names the mechanism in clear: the capture has the
# handshakes, and the campaign's bytes.
grep -aq CURVE "$WORK/cap_curve.pcap" && [ "$size" -gt 10000 ] &&
    ok "captured the CURVE campaign ($size bytes, its handshakes)" ||
    fail "capture of $size bytes: not the campaign"
grep -aq "$SECRET" "$WORK/cap_curve.pcap" && fail "the model's text is in clear with CURVE" ||
    ok "no model text in the CURVE capture"
grep -aq 'MODULE main' "$WORK/cap_curve.pcap" && fail "'MODULE main' in clear with CURVE" ||
    ok "no 'MODULE main' in the CURVE capture"

# ---- the control: CURVE off, the same capture shows the model ------------
port=$(free_port)
ep=tcp://127.0.0.1:$port
capture cap_plain "$port"
bg coord2 "$MF_BIN" coordinator "$WORK/model.smv" --db "$WORK/p.db" --bind "$ep" \
    --bound 2 --operators "$OPS_SMALL" --config "$CONF"
bg_worker w2 "$ep" 2
expect_exit0 coord2 120 "the campaign without CURVE completes"
stop_capture cap_plain
grep -aq "$SECRET" "$WORK/cap_plain.pcap" && ok "control: without CURVE the capture shows the model" ||
    fail "control: the model's identifier is not in the plain capture (the check cannot fail)"
[ "$(verdict_set "$WORK/c.db")" = "$(verdict_set "$WORK/p.db")" ] &&
    ok "same verdicts with and without CURVE" || fail "verdicts differ with CURVE"
grep -q 'warning' "$WORK/coord2.err" && fail "a loopback bind warned: $(grep warning "$WORK/coord2.err")" ||
    ok "no warning for a loopback bind"

# ---- a bind other machines can reach warns; bad key files are usage errors --
port=$(free_port)
bg open "$MF_BIN" coordinator "$WORK/model.smv" --db "$WORK/o.db" \
    --bind "tcp://*:$port" --bound 1 --operators negate --config "$CONF"
wait_for 20 has "$WORK/open.err" 'waiting for workers'
has "$WORK/open.err" "warning: tcp://*:$port is open to other machines without CURVE" &&
    ok "a bind to tcp://* without CURVE warns" || fail "no warning: $(head -3 "$WORK/open.err")"
kill "$(child_of "$PID_open")" 2>/dev/null
"$MF_BIN" coordinator "$WORK/model.smv" --db "$WORK/x.db" --curve \
    --authorized-keys "$WORK/auth" >/dev/null 2>"$WORK/x.err"
[ $? = 1 ] && grep -q 'server_secret_key' "$WORK/x.err" &&
    ok "--curve without the secret key: exit 1, names the key" ||
    fail "--curve without the secret key: $(cat "$WORK/x.err")"
[ ! -e "$WORK/x.db" ] && ok "no store made before the keys are checked" ||
    fail "a store was made despite the bad keys"
"$MF_BIN" coordinator "$WORK/model.smv" --db "$WORK/x.db" --curve \
    --server-secret-key "$WORK/coord.key" --authorized-keys "$WORK/auth" \
    >/dev/null 2>"$WORK/x.err"
[ $? = 1 ] && grep -q 'public certificate' "$WORK/x.err" &&
    ok "a public file as the secret key: exit 1" || fail "public as secret: $(cat "$WORK/x.err")"
"$MF_BIN" worker --connect "$ep" --curve --server-public-key "$WORK/coord.key_secret" \
    --client-secret-key "$WORK/good.key_secret" >/dev/null 2>"$WORK/x.err"
[ $? = 1 ] && grep -q 'holds a secret key' "$WORK/x.err" &&
    ok "the coordinator's secret file given to a worker: exit 1" ||
    fail "worker with the server's secret: $(cat "$WORK/x.err")"
grep -q "authorized_keys" "$WORK/bad.err" &&
    ok "the refused worker says what to check" ||
    fail "the refused worker's log: $(tail -2 "$WORK/bad.err")"
"$MF_BIN" keygen --help | grep -q 'usage: mutfarm keygen' &&
    ok "keygen --help" || fail "keygen --help"
(cd "$WORK" && "$MF_BIN" keygen -o good >/dev/null 2>"$WORK/x.err")
[ $? = 1 ] && grep -q 'exists' "$WORK/x.err" && cmp -s "$WORK/good.key" "$WORK/auth/good.key" &&
    ok "keygen does not overwrite a pair: exit 1" || fail "keygen over a pair: $(cat "$WORK/x.err")"
"$MF_BIN" keygen extra >/dev/null 2>&1
[ $? = 1 ] && ok "keygen with an argument: exit 1" || fail "keygen extra: not exit 1"
"$MF_BIN" run "$WORK/model.smv" --curve >/dev/null 2>"$WORK/x.err"
[ $? = 1 ] && grep -q "option of 'mutfarm coordinator'" "$WORK/x.err" &&
    ok "run --curve: exit 1, a coordinator's option" || fail "run --curve: $(cat "$WORK/x.err")"
# run keeps CURVE off for its local workers, even with curve = on.
printf '[security]\ncurve = on\n' >"$WORK/on.conf"
timeout 120 "$MF_BIN" run "$WORK/model.smv" --config "$WORK/on.conf" --workers 1 \
    --bound 1 --operators negate --db "$WORK/r.db" >/dev/null 2>"$WORK/r.err"
[ $? = 0 ] && grep -q "run's local workers do not use it" "$WORK/r.err" &&
    ok "run with curve = on: done, with a note" || fail "run with curve = on: $(tail -2 "$WORK/r.err")"
finish
