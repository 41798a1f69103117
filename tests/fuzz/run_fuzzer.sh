#!/usr/bin/env bash
# run_fuzzer.sh - run one libFuzzer target for a bounded time (CTest driver).
#
# usage: run_fuzzer.sh FUZZER SECONDS SEEDDIR...
# Seeds are copies of every .smv (MF_FUZZ_SEEDS: another pattern, such as
# *.kiss2) under the SEEDDIRs (missing ones skipped) in a fresh temp dir,
# so the checked-in models are never touched. A crash, a leak, a sanitizer
# report or a timeout makes libFuzzer exit non-zero, and so this script.
# The crashing input is kept in ./fuzz-artifacts/.
set -euo pipefail

fuzzer=$1
seconds=$2
shift 2

work=$(mktemp -d "${TMPDIR:-/tmp}/mf-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" fuzz-artifacts

pattern=${MF_FUZZ_SEEDS:-*.smv}
n=0
for dir in "$@"; do
    [ -d "$dir" ] || { echo "note: seed dir $dir missing, skipped"; continue; }
    while IFS= read -r -d '' f; do
        n=$((n + 1))
        cp "$f" "$work/corpus/seed$n.${pattern##*.}"
    done < <(find "$dir" -name "$pattern" -type f -print0 | sort -z)
done
echo "$(basename "$fuzzer"): $n seed files, ${seconds}s"

extra=()
dict="$(dirname "$0")/$(basename "$fuzzer").dict"
[ -f "$dict" ] && extra+=("-dict=$dict")

rc=0
"$fuzzer" "$work/corpus" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$PWD/fuzz-artifacts/$(basename "$fuzzer")-" \
    ${extra[@]+"${extra[@]}"} || rc=$?
exit $rc
