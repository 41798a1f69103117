#!/usr/bin/env bash
# corpus_check.sh - the Z3 engine over the shared corpus (issue 3): every
# model the front-end accepts goes through `mutfarm check` with a bound of
# 20, and must finish without a crash, a sanitizer report (ASan, UBSan,
# LeakSanitizer) or an exit code other than the documented ones.
#
# usage: corpus_check.sh [MODEL.smv...]
#   default models: $MF_SHARED_MODELS/corpus/*.smv and .../seeds/*.smv
#   (exits 77, skipped, when the shared models are absent).
# env:   MF_BIN                 the mutfarm binary (default ./build/mutfarm)
#        MF_CORPUS_CHECK_FULL=1 the acceptance run: `check MODEL --all --bound
#                               20` on every accepted model (manual: hours
#                               on the largest models; a sanitizer build for
#                               the crash/leak/sanitizer part, a release
#                               build for the verdict counts; per-model
#                               timeout MF_CORPUS_CHECK_TIMEOUT, default
#                               none).
#                               Default (CI, a few minutes under ASan): per
#                               model `check --all` when it has at most
#                               MF_CORPUS_CHECK_SMALL (20) checkable mutants,
#                               else `check --mutant ID` on
#                               MF_CORPUS_CHECK_SAMPLE (2) evenly spaced
#                               mutants, each with the engine's --timeout
#                               2000 and a 180 s cap; models matching
#                               MF_CORPUS_CHECK_SKIP (default: gigamax, whose
#                               proof phase alone takes minutes under ASan)
#                               are left to the full run. The slow
#                               models of CI_SLOW below get a smaller
#                               bound and sample in CI (the check there is
#                               "no crash, no sanitizer report, a tally")
#                               and an explicit-state budget of 32 MB
#                               (`--explicit-mb 32`) instead of the
#                               default 512 MB.
#        MF_CORPUS_CHECK_BOUND  the bound (default 20)
#        MF_CORPUS_CHECK_TIMEOUT  seconds per `check` run; past it the run
#                               fails (0: none)
#        MF_CORPUS_CHECK_ARGS   extra arguments for every `check` run
#                               (default in CI: "--timeout 2000"; full: none;
#                               "--threads 2" to use two cores on the
#                               largest models: dme1 under ASan is about
#                               150 CPU minutes)
#
# Per model: refused models (`model check` exits 1 with `unsupported:`) are
# listed and skipped. Every `check` run must exit 0, or 2 with a complete
# tally line and only error verdicts that are not self-check failures (an
# encoding that does not support a construct: reported, not failed); its
# stderr must hold no sanitizer report. The last line of `check` is the
# tally "# N mutants: K killed, E equivalent, S survived, U unknown, X
# error"; the verdict counts are summed per model and printed as a table.
# Ends with "N passed, M failed" (models); exits 1 if any failed.
set -uo pipefail

MF_BIN=${MF_BIN:-./build/mutfarm}
FULL=${MF_CORPUS_CHECK_FULL:-0}
BOUND=${MF_CORPUS_CHECK_BOUND:-20}
SAMPLE=${MF_CORPUS_CHECK_SAMPLE:-2}
SMALL=${MF_CORPUS_CHECK_SMALL:-20}
if [ "$FULL" = 1 ]; then
    TIMEOUT=${MF_CORPUS_CHECK_TIMEOUT:-0}
    EXTRA=${MF_CORPUS_CHECK_ARGS:-}
    SKIP=${MF_CORPUS_CHECK_SKIP:-}
else
    TIMEOUT=${MF_CORPUS_CHECK_TIMEOUT:-180}
    EXTRA=${MF_CORPUS_CHECK_ARGS:---timeout 2000}
    SKIP=${MF_CORPUS_CHECK_SKIP:-gigamax}
fi

# CI only: models whose sampled mutants cost the engine a minute or more
# under ASan at bound 20 (the process models, with BDD fixpoints over
# their interleavings; the VerifAPS PLC model, whose 2-second checks time
# out): "file-name substring, bound, mutants sampled, explicit-state
# budget in MB (-: the default)". They still go through the engine's every
# method, on fewer and shorter unrollings. The budget: with the default
# 512 MB the explicit-state proof fills memory on these models'
# interleavings before it gives up, a slow way to the same "limit" (the
# mutant then goes to the other proofs, docs/killing.md, Limits by
# memory); 32 MB gives up sooner. The full run (MF_CORPUS_CHECK_FULL=1)
# gives them bound 20 and the default budget.
CI_SLOW=(
    "abp__abp4 6 1 32"
    "prod-cons__prod-cons 6 1 32"
    "p-queue__p-queue 4 1 32"
    "brp__brp 4 1 32"
    "LinRe__out_overflow 8 1 32"
)

. "$(dirname "$0")/corpus_models.sh"
need_bin corpus_check.sh

if ! corpus_models "$@"; then
    echo "SKIP: shared models not found (MF_SHARED_MODELS=${MF_SHARED_MODELS:-unset})"
    exit 77
fi

# Leaks are reported at exit; make every sanitizer report fail the run and
# name itself on stderr.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

work=$(mktemp -d "${TMPDIR:-/tmp}/mf-corpus-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

SAN_RE='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer|AddressSanitizer:DEADLYSIGNAL'
TALLY_RE='^# ([0-9]+) mutants: ([0-9]+) killed, ([0-9]+) equivalent, ([0-9]+) survived, ([0-9]+) unknown, ([0-9]+) error$'

npass=0
nfail=0
naccepted=0
refused=""
skipped=""
table=""
T_mut=0 T_k=0 T_e=0 T_s=0 T_u=0 T_x=0
failures=""

# check_run NAME OUT ERR ARGS...: one `mutfarm check` run under the timeout;
# appends to $fails on failure, adds the tally to the model's counts.
check_run() {
    local label=$1 out=$2 err=$3 rc t0 t1
    shift 3
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    timeout -k 10 "$TIMEOUT" "$MF_BIN" check "$@" --bound "$m_bound" $EXTRA \
        $m_xmb >"$out" 2>"$err"
    rc=$?
    t1=$(date +%s.%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
    m_secs=$(awk -v a="$m_secs" -v b="$secs" 'BEGIN {printf "%.1f", a + b}')
    if grep -Eq "$SAN_RE" "$err"; then
        fails+=("$label: sanitizer report: $(grep -Em3 "$SAN_RE" "$err" |
                 tr '\n' ' ' | head -c 400)")
        return
    fi
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        fails+=("$label: timed out after ${TIMEOUT}s")
        return
    fi
    if [ $rc -ge 128 ]; then
        fails+=("$label: killed by signal $((rc - 128)):" \
                "$(tail -c 300 "$err" | tr '\n' ' ')")
        return
    fi
    local tally
    tally=$(tail -n 1 "$out")
    if ! [[ $tally =~ $TALLY_RE ]]; then
        fails+=("$label: exit $rc without a tally line:" \
                "$(tail -c 300 "$err" | tr '\n' ' ')")
        return
    fi
    m_mut=$((m_mut + BASH_REMATCH[1]))
    m_k=$((m_k + BASH_REMATCH[2]))
    m_e=$((m_e + BASH_REMATCH[3]))
    m_s=$((m_s + BASH_REMATCH[4]))
    m_u=$((m_u + BASH_REMATCH[5]))
    m_x=$((m_x + BASH_REMATCH[6]))
    # Error verdicts: "ID  OP  error  reason".
    local errs selfcheck
    errs=$(grep -E '^[0-9a-f]{16} +[a-z-]+ +error ' "$out")
    selfcheck=$(echo "$errs" | grep -c 'self-check')
    if [ -n "$errs" ]; then
        m_errlines+=$(echo "$errs" | head -3 | sed 's/^/        /')$'\n'
    fi
    if [ "$selfcheck" -gt 0 ]; then
        fails+=("$label: $selfcheck self-check failures (a kill the" \
                "simulator does not confirm)")
    fi
    if [ $rc -eq 2 ] && [ "${BASH_REMATCH[6]}" -eq 0 ]; then
        fails+=("$label: exit 2 without an error verdict:" \
                "$(tail -c 300 "$err" | tr '\n' ' ')")
    elif [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
        fails+=("$label: exit $rc: $(tail -c 300 "$err" | tr '\n' ' ')")
    fi
}

for model in "${models[@]}"; do
    name=$(basename "$model" .smv)
    d="$work/$name.d"
    mkdir -p "$d"
    if ! "$MF_BIN" model check "$model" >"$d/mc.out" 2>"$d/mc.err"; then
        if grep -q 'unsupported:' "$d/mc.err"; then
            refused+="  $name: $(grep -m1 -o 'unsupported:.*' "$d/mc.err")"$'\n'
        else
            nfail=$((nfail + 1))
            echo "FAIL $name  model check: $(head -c 300 "$d/mc.err")"
        fi
        rm -rf "$d"
        continue
    fi
    naccepted=$((naccepted + 1))
    if [ -n "$SKIP" ] && [[ $name =~ $SKIP ]]; then
        skipped+="  $name"$'\n'
        rm -rf "$d"
        continue
    fi
    fails=()
    m_mut=0 m_k=0 m_e=0 m_s=0 m_u=0 m_x=0 m_secs=0 m_errlines=""
    m_bound=$BOUND m_sample=$SAMPLE m_xmb=""
    if [ "$FULL" != 1 ]; then
        for row in "${CI_SLOW[@]}"; do
            read -r key b k xmb <<<"$row"
            if [[ $name == *"$key"* ]]; then
                m_bound=$b m_sample=$k
                [ "$xmb" = - ] || m_xmb="--explicit-mb $xmb"
            fi
        done
    fi
    "$MF_BIN" mutants list "$model" 2>/dev/null |
        grep -E '^[0-9a-f]{16}' | grep -v -w -e duplicate -e stillborn |
        awk '{print $1}' >"$d/ok"
    nok=$(wc -l <"$d/ok")
    how="all"
    if [ "$FULL" = 1 ] || [ "$nok" -le "$SMALL" ]; then
        check_run "check --all" "$d/out" "$d/err" "$model" --all
    else
        awk -v n="$nok" -v k="$m_sample" \
            'int((NR - 1) * k / n) != int(NR * k / n)' "$d/ok" >"$d/sample"
        how="$(wc -l <"$d/sample") sampled"
        [ "$m_bound" = "$BOUND" ] || how+=" b$m_bound"
        [ -z "$m_xmb" ] || how+=" x${m_xmb#--explicit-mb }"
        while read -r id; do
            check_run "check --mutant $id" "$d/out" "$d/err" "$model" \
                --mutant "$id"
        done <"$d/sample"
    fi
    row=$(printf '%-62.62s %5s %-13s %5d %5d %5d %5d %5d %5d %7.1f' "$name" \
          "$nok" "$how" "$m_mut" "$m_k" "$m_e" "$m_s" "$m_u" "$m_x" "$m_secs")
    table+="$row"$'\n'
    T_mut=$((T_mut + m_mut)) T_k=$((T_k + m_k)) T_e=$((T_e + m_e))
    T_s=$((T_s + m_s)) T_u=$((T_u + m_u)) T_x=$((T_x + m_x))
    if [ ${#fails[@]} -eq 0 ]; then
        npass=$((npass + 1))
        echo "ok   $row"
    else
        nfail=$((nfail + 1))
        echo "FAIL $row"
        printf '       %s\n' "${fails[@]}"
        failures+="  $name: ${fails[0]}"$'\n'
    fi
    [ -n "$m_errlines" ] && printf '      error verdicts:\n%s' "$m_errlines"
    rm -rf "$d"
done

echo
echo "bound $BOUND, $([ "$FULL" = 1 ] && echo "every mutant (--all)" ||
     echo "CI sample: --all up to $SMALL mutants, else $SAMPLE per model;" \
          "MF_CORPUS_CHECK_FULL=1 for all; bN: bound N, xM: --explicit-mb M, CI_SLOW")${EXTRA:+, check $EXTRA}"
printf '%-62s %5s %-13s %5s %5s %5s %5s %5s %5s %7s\n' model ok run mutants \
       killed equiv surv unkn error secs
printf '%s' "$table"
printf '%-62s %5s %-13s %5d %5d %5d %5d %5d %5d\n' TOTAL "" "" "$T_mut" \
       "$T_k" "$T_e" "$T_s" "$T_u" "$T_x"
[ -n "$refused" ] && printf 'refused by the front-end:\n%s' "$refused"
[ -n "$skipped" ] &&
    printf 'not in the CI sample (MF_CORPUS_CHECK_SKIP=%s):\n%s' "$SKIP" "$skipped"
[ -n "$failures" ] && printf 'failures:\n%s' "$failures"
echo "models: ${#models[@]}, accepted $naccepted; $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
