#!/usr/bin/env bash
# run_all.sh - the whole test suite, as CI runs it (README command (b)).
#
# 1. build-asan: gcc, ASan + UBSan (MF_SANITIZE=ON), every CTest test
#    (cmocka units, shell end-to-end tests such as tests/corpus.sh);
# 2. build-fuzz: clang, libFuzzer targets (MF_FUZZ=ON), each fuzzer run for
#    a bounded time from the bundled and shared models.
# Installs nothing: the README command installs the Debian packages first.
# Exits non-zero if any step fails; both stages run either way.
set -uo pipefail

cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)
status=0

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

step() { echo; echo "==== $* ($(($(date +%s) - start))s)"; }

step "ASan+UBSan build"
if cmake -S . -B build-asan -DMF_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
    cmake --build build-asan -j "$jobs"; then
    step "unit and end-to-end tests"
    ctest --test-dir build-asan --output-on-failure -j2 || status=1
else
    echo "run_all.sh: the ASan build failed"
    status=1
fi

step "fuzz build (clang, libFuzzer)"
if cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DMF_FUZZ=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
    cmake --build build-fuzz -j "$jobs"; then
    step "fuzzers"
    ctest --test-dir build-fuzz --output-on-failure -j2 -L fuzz || status=1
else
    echo "run_all.sh: the fuzz build failed"
    status=1
fi

step "done: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
exit $status
