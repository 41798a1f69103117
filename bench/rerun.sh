#!/usr/bin/env bash
# rerun.sh - the cost of a nightly rerun (docs/nightly.md) as a ratio to a
# fresh campaign on the same model, measured side by side in one run:
#
#  unedited: `mutfarm run MODEL` on a copy of the store that holds MODEL's
#            finished campaign (every verdict carried) / `mutfarm run
#            MODEL` on a new store;
#  edited:   `mutfarm run EDITED` (MODEL with one case branch's value
#            changed) on a copy of that store (the stored tests replayed
#            first) / `mutfarm run EDITED` on a new store.
#
# Wall time and CPU time (user + system, the local workers included) of
# the whole command, the median of BENCH_REPEAT runs each, with
# --workers 2. Goals: unedited below 2% of fresh; edited below 15% on
# gigamax and 25% on dme1 (both at bound 20), 20% elsewhere. Also
# printed: what the edited rerun took over (campaign_reuse): verdicts
# carried across the edit by each way (outside the observed cone,
# outside the mutant's deterministic cone), kills by replayed tests, the
# mutants sent to the solver and their share of all (goal: at most 10%),
# and the share of the rerun's wall time spent planning (replay
# included).
#
# usage: bench/rerun.sh [MODEL...]   (default: car_alarm and the corpus
#                                     models door_lock, Collision_RFID,
#                                     mutex, gigamax and dme1)
# env:   MF_BIN        the mutfarm binary (default ./build/mutfarm; use a
#                      release build)
#        BENCH_REPEAT  runs per measurement (default 3)
#        BENCH_ARGS    campaign options (default: none, the defaults)
#        MF_SHARED_MODELS  the shared corpus (default ../shared/models)
# A model without a built-in edit below is edited in its first case branch
# value that is a number (n -> n + 1 within reason) or skipped.
# Needs: /usr/bin/time (Debian package `time`), sqlite3.
set -uo pipefail
cd "$(dirname "$0")/.."

MF_BIN=${MF_BIN:-./build/mutfarm}
MF_BIN=$(cd "$(dirname "$MF_BIN")" && pwd)/$(basename "$MF_BIN")
REPEAT=${BENCH_REPEAT:-3}
read -r -a ARGS <<<"${BENCH_ARGS:-}"
SHARED=${MF_SHARED_MODELS:-../shared/models}
CORPUS=$SHARED/corpus

for x in "$MF_BIN" /usr/bin/time; do
    if [ ! -x "$x" ]; then
        echo "rerun.sh: $x not found (build mutfarm; apt-get install time)" >&2
        exit 1
    fi
done
command -v sqlite3 >/dev/null || { echo "rerun.sh: needs sqlite3" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mf-bench-rerun.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One-branch edits: the branch as written | as edited (sed, & escaped).
declare -A EDIT=(
    [car_alarm]='st = FlashOnly      & ev = tick   : SilentOpen;|st = FlashOnly      \& ev = tick   : Armed;'
    [TYehan__NuSMV-Practicals__Assignment1__door_lock]='state = Locked                 : 0;|state = Locked                 : 1;'
    [dolphInformatic37__Progetto_LPVS__Collision_RFID]='reader_state = accepting : idle;|reader_state = accepting : sending;'
    [beverage]='inp = fill & wtr = 0 : 2;|inp = fill \& wtr = 0 : 1;'
    [felipeblassioli__nusmv__examples__smv-dist__mutex]='(state1 = t1) \& (state2 = t2) \& (turn = 1):  c1;|(state1 = t1) \& (state2 = t2) \& (turn = 2):  c1;'
    [felipeblassioli__nusmv__examples__smv-dist__gigamax]='!master \& state = owned \& CMD = read-shared : owned;|!master \& state = owned \& CMD = read-owned : owned;'
    [felipeblassioli__nusmv__examples__smv-dist__dme1]='in1 = in2 : in1 union out;|in1 = in2 : in1;'
)
# Per model: the campaign options (BENCH_ARGS when none) and the goal of
# the edited rerun's wall time, in percent of a fresh campaign's.
declare -A MARGS=(
    [felipeblassioli__nusmv__examples__smv-dist__gigamax]='--bound 20'
    [felipeblassioli__nusmv__examples__smv-dist__dme1]='--bound 20'
)
declare -A GOAL=(
    [felipeblassioli__nusmv__examples__smv-dist__gigamax]=15
    [felipeblassioli__nusmv__examples__smv-dist__dme1]=25
)

if [ $# -gt 0 ]; then
    MODELS=("$@")
else
    MODELS=("$PWD/tests/models/car_alarm.smv"
            "$CORPUS/TYehan__NuSMV-Practicals__Assignment1__door_lock.smv"
            "$CORPUS/dolphInformatic37__Progetto_LPVS__Collision_RFID.smv"
            "$CORPUS/felipeblassioli__nusmv__examples__smv-dist__mutex.smv"
            "$CORPUS/felipeblassioli__nusmv__examples__smv-dist__gigamax.smv"
            "$CORPUS/felipeblassioli__nusmv__examples__smv-dist__dme1.smv")
fi

# timed TAG DB MODEL: run a campaign, its "wall cpu" appended to TAG.times.
timed() {
    local tag=$1 db=$2 model=$3
    if ! /usr/bin/time -f '%e %U %S' -o "$work/t" "$MF_BIN" run "$model" \
        --workers 2 --db "$db" "${MODEL_ARGS[@]}" >"$work/$tag.out" 2>"$work/$tag.err"; then
        echo "rerun.sh: $tag: mutfarm run failed: $(tail -2 "$work/$tag.err")" >&2
        return 1
    fi
    awk '{printf "%s %.3f\n", $1, $2 + $3}' "$work/t" >>"$work/$tag.times"
}

# median TAG COLUMN: the median of column 1 (wall) or 2 (cpu).
median() {
    sort -n -k"$2" "$work/$1.times" | awk -v c="$2" '{v[NR] = $c}
        END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf("%.1f%%", (b > 0) ? 100 * a / b : 0) }'; }

printf '%-28s %-9s %9s %9s %9s %9s %8s %8s\n' model case fresh_s rerun_s \
    wall_ratio cpu_ratio goal met
for model in "${MODELS[@]}"; do
    if [ ! -f "$model" ]; then
        echo "rerun.sh: $model not found, skipped" >&2
        continue
    fi
    name=$(basename "$model" .smv)
    edit=${EDIT[$name]:-}
    if [ -z "$edit" ]; then
        echo "rerun.sh: no one-branch edit known for $name, skipped" >&2
        continue
    fi
    if [ -n "${MARGS[$name]:-}" ]; then
        read -r -a MODEL_ARGS <<<"${MARGS[$name]}"
    else
        MODEL_ARGS=("${ARGS[@]}")
    fi
    IFS='|' read -r from to <<<"$edit"
    mkdir -p "$work/$name/edited"
    edited=$work/$name/edited/$(basename "$model")
    sed "s/$from/$to/" "$model" >"$edited"
    if cmp -s "$model" "$edited"; then
        echo "rerun.sh: the edit of $name matched nothing, skipped" >&2
        continue
    fi
    base=$work/$name/base.db
    rm -f "$work/$name".*.times
    # The campaign the reruns build on is the first fresh one measured.
    timed "$name.fresh" "$base" "$model" || continue
    for i in $(seq "$REPEAT"); do
        rm -f "$work"/x.db*
        if [ "$i" -gt 1 ]; then
            timed "$name.fresh" "$work/x.db" "$model" || continue 2
            rm -f "$work"/x.db*
        fi
        cp "$base" "$work/x.db"
        timed "$name.carry" "$work/x.db" "$model" || continue 2
        rm -f "$work"/x.db*
        timed "$name.efresh" "$work/x.db" "$edited" || continue 2
        rm -f "$work"/x.db*
        cp "$base" "$work/x.db"
        timed "$name.replay" "$work/x.db" "$edited" || continue 2
    done
    reuse_c=$(sqlite3 "$work/x.db" "SELECT 'campaign ' || c.campaign_id || ': ' ||
        c.reuse || ', ' || c.carried_cone || ' carried across the edit (' ||
        (SELECT count(*) FROM verdicts v WHERE v.campaign_id = c.campaign_id
           AND v.method LIKE '%(the edit reads only what the observables show)%') ||
        ' where it reads only what a test sees, ' ||
        (SELECT count(*) FROM verdicts v WHERE v.campaign_id = c.campaign_id
           AND v.method LIKE '%(the edit is outside the cone of the observables)%') ||
        ' outside the observed cone, ' ||
        (SELECT count(*) FROM verdicts v WHERE v.campaign_id = c.campaign_id
           AND v.method LIKE '%(the edit is outside the mutant''s deterministic cone)%') ||
        ' outside the mutant''s), ' || c.replay_killed || ' killed by ' ||
        c.replay_tests || ' replayed tests, ' || c.to_solver ||
        ' of ' || s.total || ' to the solver (' ||
        printf('%.1f%%', 100.0 * c.to_solver / max(s.total, 1)) || ')'
        FROM campaign_reuse c JOIN campaign_scores s
          ON s.campaign_id = c.campaign_id
        ORDER BY c.campaign_id DESC LIMIT 1")
    plan_s=$(grep -o 'planned .* in [0-9.]* s' "$work/$name.replay.err" |
        awk '{print $(NF-1)}')
    for c in carry:fresh:2 "replay:efresh:${GOAL[$name]:-20}"; do
        IFS=: read -r rerun fresh goal <<<"$c"
        fw=$(median "$name.$fresh" 1)
        rw=$(median "$name.$rerun" 1)
        fc=$(median "$name.$fresh" 2)
        rc=$(median "$name.$rerun" 2)
        wr=$(ratio "$rw" "$fw")
        cr=$(ratio "$rc" "$fc")
        met=$(awk -v a="$rw" -v b="$fw" -v g="$goal" \
            'BEGIN { if (b > 0 && 100 * a / b < g) print "yes"; else print "no" }')
        printf '%-28.28s %-9s %9s %9s %9s %9s %7s%% %8s\n' "$name" \
            "$([ "$rerun" = carry ] && echo unedited || echo edited)" \
            "$fw" "$rw" "$wr" "$cr" "<$goal" "$met"
    done
    echo "  edited rerun: $reuse_c; planning (replay included) ${plan_s:-?} s"
done
