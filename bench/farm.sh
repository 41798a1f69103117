#!/usr/bin/env bash
# farm.sh - the farm's benchmarks (docs/architecture.md, "Measuring"), printed as ratios
# measured side by side in one run:
#
#  (a) dispatch throughput of the coordinator: trivial jobs (one synthetic
#      mutant each, answered at once by stub workers) to 128 simulated
#      workers over tcp on the loopback; jobs per second and the
#      coordinator's share of one CPU (user + system time / wall time),
#      the stub workers' share, and the coordinator's CPU per job (what it
#      could do with a core of its own: on a machine shared with other
#      work the jobs per second say more about the neighbours than about
#      the coordinator); both rates against the goal of 10,000 jobs/s;
#  (b) speedup of 2 local workers over 1 on a CPU-bound campaign
#      (`mutfarm run` on a bundled model, real Z3 checks);
#  (c) the coordinator's peak memory (max RSS) for synthetic campaigns of
#      10,000, 100,000 and 1,000,000 mutants (checks stubbed): it must stay
#      flat, since mutants and jobs live in the store, not in memory.
#
# Synthetic mutants and stub workers exist only for this benchmark: the
# coordinator plans MF_TEST_SYNTHETIC=N made-up mutants, and
# tests/farm_peer.c (`farm_peer workers`) answers each job with `survived`
# without a solver. Use a release build: cmake -S . -B build-rel
# -DCMAKE_BUILD_TYPE=Release && cmake --build build-rel -j
#
# usage: bench/farm.sh [a|b|c]...   (default: all three)
# env:   MF_BIN            the mutfarm binary (default ./build/mutfarm);
#                          farm_peer is taken from the same directory
#        FARM_SIM_WORKERS  simulated workers for (a) (default 128)
#        FARM_JOBS         trivial jobs for (a) (default 20000)
#        FARM_SIZES        campaign sizes for (c) (default "10000 100000
#                          1000000")
#        FARM_B_MODEL      the model of (b) (default tests/models/car_alarm.smv:
#                          759 mutants, ~8 s of solver time at bound 4)
#        FARM_B_ARGS       its options (default "--bound 4", every operator)
# Needs: /usr/bin/time (Debian package `time`), python3 (a free port).
set -uo pipefail
cd "$(dirname "$0")/.."

MF_BIN=${MF_BIN:-./build/mutfarm}
MF_BIN=$(cd "$(dirname "$MF_BIN")" && pwd)/$(basename "$MF_BIN")
PEER=$(dirname "$MF_BIN")/farm_peer
MODEL=$PWD/tests/models/beverage.smv
SIM=${FARM_SIM_WORKERS:-128}
JOBS=${FARM_JOBS:-20000}
SIZES=${FARM_SIZES:-"10000 100000 1000000"}
B_MODEL=${FARM_B_MODEL:-$PWD/tests/models/car_alarm.smv}
read -r -a B_ARGS <<<"${FARM_B_ARGS:---bound 4}"

for x in "$MF_BIN" "$PEER" /usr/bin/time; do
    if [ ! -x "$x" ]; then
        echo "farm.sh: $x not found (build mutfarm and farm_peer; apt-get install time)" >&2
        exit 1
    fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench-farm.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$work"' EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# coordinator_with_stubs N WORKERS CREDIT CONF TAG: a synthetic campaign of
# N mutants served to WORKERS stub workers; leaves $work/TAG.time
# ("wall user sys maxrss_kb") of the coordinator, $work/TAG.peertime (the
# same of farm_peer) and $work/TAG.peer (farm_peer's line).
coordinator_with_stubs() {
    local n=$1 nw=$2 credit=$3 conf=$4 tag=$5 port
    port=$(free_port)
    MF_TEST_SYNTHETIC=$n /usr/bin/time -f "%e %U %S %M" -o "$work/$tag.time" \
        timeout 3600 "$MF_BIN" coordinator "$MODEL" --db "$work/$tag.db" \
        --bind "tcp://127.0.0.1:$port" --config "$conf" \
        >"$work/$tag.out" 2>"$work/$tag.err" &
    local cpid=$!
    pids+=("$cpid")
    /usr/bin/time -f "%e %U %S %M" -o "$work/$tag.peertime" \
        timeout 3600 "$PEER" workers "tcp://127.0.0.1:$port" "$nw" "$credit" 3600 \
        >"$work/$tag.peer" 2>>"$work/$tag.err"
    wait "$cpid"
    local rc=$?
    if [ $rc != 0 ] || ! grep -q 'complete' "$work/$tag.out"; then
        echo "farm.sh: the $tag campaign failed (exit $rc):" >&2
        tail -5 "$work/$tag.err" >&2
        return 1
    fi
}

bench_a() {
    echo "== (a) dispatch: $JOBS trivial jobs, $SIM simulated workers, tcp loopback"
    printf '[farm]\njob_min = 1\njob_max = 1\nheartbeat_ms = 1000\nliveness = 10\n' \
        >"$work/a.conf"
    coordinator_with_stubs "$JOBS" "$SIM" 1 "$work/a.conf" a || return 1
    read -r wall user sys rss <"$work/a.time"
    read -r pwall puser psys _ <"$work/a.peertime"
    read -r _ jobs _ _ _ secs _ rate _ <"$work/a.peer"
    local cpu share pcpu core goal=10000
    cpu=$(echo "$user + $sys" | bc -l)
    pcpu=$(echo "$puser + $psys" | bc -l)
    share=$(echo "100 * $cpu / $wall" | bc -l)
    core=$(echo "$jobs / $cpu" | bc -l)
    printf '  %d jobs in %.2f s of dispatch: %.0f jobs/s (%.0f jobs/s per simulated worker)\n' \
        "$jobs" "$secs" "$rate" "$(echo "$rate / $SIM" | bc -l)"
    printf '  coordinator: %.2f s CPU over %.2f s wall = %.0f%% of one core (planning included)\n' \
        "$cpu" "$wall" "$share"
    printf '  stub workers (farm_peer): %.2f s CPU over %.2f s wall = %.0f%% of one core\n' \
        "$pcpu" "$pwall" "$(echo "100 * $pcpu / $pwall" | bc -l)"
    printf '  coordinator CPU per job: %.0f us: %.0f jobs/s on one whole core (load average %s on %s cores during the run)\n' \
        "$(echo "1000000 * $cpu / $jobs" | bc -l)" "$core" \
        "$(cut -d' ' -f1 /proc/loadavg)" "$(nproc)"
    # The goal (issue 22): 10,000 trivial jobs a second. Measured: the
    # rate seen; on a shared machine, also what the coordinator's CPU
    # per job allows on one core of its own.
    printf '  goal %d jobs/s: measured %.0f jobs/s (%s); coordinator alone on one core %.0f jobs/s (%s)\n' \
        "$goal" "$rate" "$(meets "$rate" "$goal")" "$core" "$(meets "$core" "$goal")"
}

# meets X GOAL: "met" or "x0.NN of the goal".
meets() {
    if [ "$(echo "$1 >= $2" | bc -l)" = 1 ]; then
        echo met
    else
        printf 'x%.2f of the goal' "$(echo "$1 / $2" | bc -l)"
    fi
}

bench_b() {
    echo "== (b) speedup of 2 workers over 1: mutfarm run $(basename "$B_MODEL") ${B_ARGS[*]}"
    local t1 t2
    for w in 1 2; do
        /usr/bin/time -f "%e %U %S" -o "$work/b$w.time" timeout 3600 \
            "$MF_BIN" run "$B_MODEL" --db "$work/b$w.db" --workers "$w" "${B_ARGS[@]}" \
            >"$work/b$w.out" 2>"$work/b$w.err" || {
            echo "farm.sh: run with $w worker(s) failed:" >&2
            tail -3 "$work/b$w.err" >&2
            return 1
        }
    done
    local u1 s1 u2 s2
    read -r t1 u1 s1 <"$work/b1.time"
    read -r t2 u2 s2 <"$work/b2.time"
    local n
    n=$(sqlite3 "$work/b1.db" 'SELECT total FROM campaign_scores' 2>/dev/null || echo '?')
    printf '  %s mutants: 1 worker %.2f s, 2 workers %.2f s: speedup %.2fx (ideal 2.00x on 2 free cores; %s cores online, load %s)\n' \
        "$n" "$t1" "$t2" "$(echo "$t1 / $t2" | bc -l)" "$(nproc)" \
        "$(cut -d' ' -f1 /proc/loadavg)"
    printf '  CPU busy / wall: %.2f with 1 worker, %.2f with 2 (2.00 = two whole cores; less: the cores are shared)\n' \
        "$(echo "($u1 + $s1) / $t1" | bc -l)" "$(echo "($u2 + $s2) / $t2" | bc -l)"
    if command -v sqlite3 >/dev/null; then
        if [ "$(sqlite3 "$work/b1.db" 'SELECT mutant_id, status FROM mutant_verdicts ORDER BY 1' | md5sum)" = \
            "$(sqlite3 "$work/b2.db" 'SELECT mutant_id, status FROM mutant_verdicts ORDER BY 1' | md5sum)" ]; then
            echo "  same verdicts with 1 and 2 workers"
        else
            echo "  NOTE: the verdicts differ between 1 and 2 workers (solver limits?)"
        fi
    fi
}

bench_c() {
    echo "== (c) coordinator peak memory, synthetic campaigns, 8 stub workers"
    printf '[farm]\njob_max = 1000\njob_target_ms = 3000\nheartbeat_ms = 1000\nliveness = 30\n' \
        >"$work/c.conf"
    local first=
    for n in $SIZES; do
        coordinator_with_stubs "$n" 8 4 "$work/c.conf" "c$n" || return 1
        read -r wall _ _ rss <"$work/c$n.time"
        local plan
        plan=$(grep -o 'in [0-9.]* s' "$work/c$n.err" | head -1)
        [ -z "$first" ] && first=$rss
        printf '  %9d mutants: max RSS %7.1f MiB (x%.2f of the smallest), %.1f s wall (planning %s)\n' \
            "$n" "$(echo "$rss / 1024" | bc -l)" "$(echo "$rss / $first" | bc -l)" "$wall" "${plan#in }"
        rm -f "$work/c$n.db" "$work/c$n.db-wal" "$work/c$n.db-shm"
    done
}

what=("$@")
[ ${#what[@]} -eq 0 ] && what=(a b c)
status=0
for w in "${what[@]}"; do
    case "$w" in
    a) bench_a || status=1 ;;
    b) bench_b || status=1 ;;
    c) bench_c || status=1 ;;
    *) echo "usage: bench/farm.sh [a|b|c]..." >&2; exit 1 ;;
    esac
done
exit $status
