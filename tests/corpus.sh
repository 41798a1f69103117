#!/usr/bin/env bash
# corpus.sh - end-to-end acceptance of the SMV front-end and the mutation
# engine over every model users gave us (issue 2).
#
# usage: corpus.sh [MODEL.smv...]
#   default models: $MF_SHARED_MODELS/corpus/*.smv and $MF_SHARED_MODELS/seeds/
#   (falls back to tests/models/*.smv when the shared models are absent).
# env:   MF_BIN                 the mutfarm binary (default ./build/mutfarm)
#        MF_CORPUS_MAX_MUTANTS  mutants shown and re-checked per model
#                               (default 8, evenly sampled: CI; 0 = all,
#                               the full run; every mutant is enumerated
#                               in-process by tests/test_corpus.c)
#        MF_CORPUS_BIG_MUTANTS  models with more mutants than this (default
#                               10000: dme1, the VerifAPS PLC model) show
#                               and re-check a quarter of the cap: each
#                               `mutants show` enumerates the whole model
#                               (3 CPU seconds on the PLC model's 36k
#                               mutants, release build)
#        MF_CORPUS_JOBS         parallel mutant checks (default: cores)
#
# Per model:
#   - `model check` exits 0 (accepted) or exits 1 with `unsupported:` on
#     stderr (refused, reason tallied); anything else fails: another exit
#     code, a crash, or `error:` on a model from the corpus;
#   - accepted: `model print` is a fixed point after one round and the
#     `hash:` printed by `model check` is the same for the model and its print;
#   - `mutants list` is identical across two runs, and its ids are identical
#     after a whitespace/comment-only edit of the model;
#   - every non-stillborn mutant (up to the cap): `mutants show` prints SMV
#     that `model check` accepts. Stillborn mutants are counted.
#   - the models of MUST_ACCEPT (file names containing one of them: the
#     process and word models of issue 23) are accepted: a refusal of one
#     of them fails.
# Ends with "N passed, M failed" (models); exits 1 if any failed.
set -uo pipefail

MF_BIN=${MF_BIN:-./build/mutfarm}
MAX_MUTANTS=${MF_CORPUS_MAX_MUTANTS:-8}
BIG_MUTANTS=${MF_CORPUS_BIG_MUTANTS:-10000}
# Models the front-end must accept: the process and word models (issue 23).
MUST_ACCEPT=(abp__abp4 brp__brp p-queue__p-queue prod-cons__prod-cons
             smv-dist__semaphore RaillRoad counter_bitvector
             LinRe__out_overflow MinMax__modules combined-true)

must_accept() {
    local k
    for k in "${MUST_ACCEPT[@]}"; do
        [[ $1 == *"$k"* ]] && return 0
    done
    return 1
}
JOBS=${MF_CORPUS_JOBS:-$(nproc 2>/dev/null || echo 2)}

. "$(dirname "$0")/corpus_models.sh"
need_bin corpus.sh

if ! corpus_models "$@"; then
    echo "NOTE: shared models not found (MF_SHARED_MODELS=${MF_SHARED_MODELS:-unset});" \
         "using tests/models/*.smv only"
    for f in tests/models/*.smv; do
        [ -f "$f" ] && models+=("$f")
    done
fi
if [ ${#models[@]} -eq 0 ]; then
    echo "corpus.sh: no models to check" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mf-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT


# One mutant: show it, check what was shown. Runs under xargs -P.
check_mutant() {
    local model=$1 id=$2 dir=$3
    local m="$dir/m-$id.smv" rc
    "$MF_BIN" mutants show "$model" "$id" >"$m" 2>"$m.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "mutants show $id exited $rc: $(head -c 300 "$m.err")"
    else
        "$MF_BIN" model check "$m" >/dev/null 2>"$m.err"
        rc=$?
        [ $rc -eq 0 ] || echo "mutant $id: model check of its SMV exited" \
                              "$rc: $(head -c 300 "$m.err")"
    fi
    rm -f "$m" "$m.err"
}
export -f check_mutant
export MF_BIN

# run OUT ERR CMD...: CMD with stdout to OUT and stderr to ERR; sets rc
# (>= 128: killed by a signal, i.e. a crash) and returns it.
rc=0
run() {
    local out=$1 err=$2
    shift 2
    "$@" >"$out" 2>"$err"
    rc=$?
    return $rc
}

# The mutant lines of a `mutants list` output: id (hex) first.
mutant_lines() { grep -E '^[0-9a-f]{8,64}([[:space:]]|$)' "$1"; }

npass=0
nfail=0
naccepted=0
nunsupported=0
nmutants=0
nshown=0
nstillborn=0
nduplicate=0
unsupported_report=""
capped_report=""

for model in "${models[@]}"; do
    name=$(basename "$model")
    d="$work/$name.d"
    mkdir -p "$d"
    fails=()
    total=0 sb=0 dup=0 shown=0
    t0=$(date +%s.%N)

    run "$d/check.out" "$d/check.err" "$MF_BIN" model check "$model"
    if [ $rc -ne 0 ]; then
        if [ $rc -eq 1 ] && grep -q 'unsupported:' "$d/check.err" &&
            ! grep -q 'error:' "$d/check.err" && ! must_accept "$name"; then
            nunsupported=$((nunsupported + 1))
            reason=$(grep -m1 'unsupported:' "$d/check.err")
            unsupported_report+="  $name: ${reason#*unsupported: }"$'\n'
            npass=$((npass + 1))
            echo "ok   $name  unsupported"
        else
            nfail=$((nfail + 1))
            echo "FAIL $name  model check exited $rc:" \
                 "$(head -c 400 "$d/check.err")"
        fi
        continue
    fi
    naccepted=$((naccepted + 1))

    # Round trip: print is a fixed point, hash survives printing.
    hash=$(sed -n 's/^hash: *\([0-9a-f]*\).*/\1/p' "$d/check.out" | head -1)
    [ -n "$hash" ] || fails+=("model check printed no 'hash: <hex>' line")
    if ! run "$d/a.smv" "$d/a.err" "$MF_BIN" model print "$model"; then
        fails+=("model print exited $rc: $(head -c 300 "$d/a.err")")
    elif ! run "$d/b.smv" "$d/b.err" "$MF_BIN" model print "$d/a.smv"; then
        fails+=("model print of its own output exited $rc:"
                "$(head -c 300 "$d/b.err")")
    else
        cmp -s "$d/a.smv" "$d/b.smv" ||
            fails+=("print is not a fixed point:"
                    "$(diff "$d/a.smv" "$d/b.smv" | head -5 | tr '\n' ' ')")
        if run "$d/a.out" "$d/a.err" "$MF_BIN" model check "$d/a.smv"; then
            hash2=$(sed -n 's/^hash: *\([0-9a-f]*\).*/\1/p' "$d/a.out" | head -1)
            [ "$hash" = "$hash2" ] ||
                fails+=("hash differs after printing: $hash vs $hash2")
        else
            fails+=("model check of its print exited $rc:"
                    "$(head -c 300 "$d/a.err")")
        fi
    fi

    # Mutant ids: stable across runs and layout/comment edits.
    if ! run "$d/l1" "$d/l1.err" "$MF_BIN" mutants list "$model"; then
        fails+=("mutants list exited $rc: $(head -c 300 "$d/l1.err")")
    else
        run "$d/l2" "$d/l2.err" "$MF_BIN" mutants list "$model"
        cmp -s "$d/l1" "$d/l2" ||
            fails+=("mutants list differs between two runs")
        # Indent every line, and give every comment-free line a comment.
        sed -e '/--/!s/$/ -- comment/' -e 's/^/  /' "$model" >"$d/edited.smv"
        if run "$d/l3" "$d/l3.err" "$MF_BIN" mutants list "$d/edited.smv"; then
            mutant_lines "$d/l1" | awk '{print $1}' >"$d/ids1"
            mutant_lines "$d/l3" | awk '{print $1}' >"$d/ids3"
            cmp -s "$d/ids1" "$d/ids3" ||
                fails+=("mutant ids change under a whitespace/comment edit")
        else
            fails+=("mutants list of the edited model exited $rc:"
                    "$(head -c 300 "$d/l3.err")")
        fi

        mutant_lines "$d/l1" >"$d/mutants"
        total=$(wc -l <"$d/mutants")
        [ "$total" -gt 0 ] || fails+=("no mutants listed")
        sb=$(awk '{for (i = 2; i <= NF; i++) if ($i == "stillborn") {n++; break}}
                  END {print n + 0}' "$d/mutants")
        dup=$(awk '{for (i = 2; i <= NF; i++) if ($i == "duplicate") {n++; break}}
                  END {print n + 0}' "$d/mutants")
        awk '{for (i = 2; i <= NF; i++) if ($i == "stillborn") next; print $1}' \
            "$d/mutants" >"$d/live"
        live=$(wc -l <"$d/live")
        cap=$MAX_MUTANTS
        if [ "$cap" -gt 0 ] && [ "$live" -gt "$BIG_MUTANTS" ]; then
            cap=$(( (cap + 3) / 4 ))
        fi
        if [ "$cap" -gt 0 ] && [ "$live" -gt "$cap" ]; then
            # Even sample, so every operator and part of the model is hit.
            awk -v n="$live" -v k="$cap" \
                'int((NR - 1) * k / n) != int(NR * k / n)' "$d/live" >"$d/show"
            capped_report+="  $name: $(wc -l <"$d/show") of $live mutants shown"$'\n'
        else
            cp "$d/live" "$d/show"
        fi
        shown=$(wc -l <"$d/show")
        xargs -a "$d/show" -P "$JOBS" -I{} \
            bash -c 'check_mutant "$1" "$2" "$3"' _ "$model" {} "$d" \
            >"$d/mutfails" 2>&1
        while IFS= read -r line; do
            fails+=("$line")
        done < <(head -20 "$d/mutfails")
        nbad=$(wc -l <"$d/mutfails")
        [ "$nbad" -le 20 ] || fails+=("... $((nbad - 20)) more mutant failures")
        nmutants=$((nmutants + total))
        nshown=$((nshown + shown))
        nstillborn=$((nstillborn + sb))
        nduplicate=$((nduplicate + dup))
    fi

    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
    if [ ${#fails[@]} -eq 0 ]; then
        npass=$((npass + 1))
        printf 'ok   %s  accepted, %s mutants (%s stillborn, %s duplicate),' \
               "$name" "$total" "$sb" "$dup"
        printf ' %s shown and re-checked, %ss\n' "$shown" "$secs"
    else
        nfail=$((nfail + 1))
        echo "FAIL $name"
        printf '       %s\n' "${fails[@]}"
    fi
    rm -rf "$d"
done

echo
echo "models: ${#models[@]}, accepted $naccepted, unsupported $nunsupported"
[ -n "$unsupported_report" ] && printf 'unsupported:\n%s' "$unsupported_report"
echo "mutants: $nmutants listed, $nstillborn stillborn, $nduplicate duplicate," \
     "$nshown shown and re-checked"
if [ -n "$capped_report" ]; then
    echo "capped at $MAX_MUTANTS mutants per model (MF_CORPUS_MAX_MUTANTS," \
         "evenly sampled; a quarter of it past $BIG_MUTANTS mutants):"
    printf '%s' "$capped_report"
fi
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
