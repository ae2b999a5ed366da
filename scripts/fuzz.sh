#!/bin/bash
# scripts/fuzz.sh [SECONDS] [BUILD_DIR] — builds the two libFuzzer targets of
# fuzz/ with clang (fuzz/README.md) and runs each for SECONDS (default 60) on
# the committed corpus, whose inputs are only read: what a run adds goes to a
# scratch directory, removed at the end. Fails when a target does not build or
# a run finds a crash (libFuzzer's status), and keeps the crashing input in
# BUILD_DIR (default build-fuzz) to reproduce. CI runs it (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${2:-build-fuzz}
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DPOLYBSP_FUZZ=ON -DPOLYBSP_WERROR=ON >/dev/null
cmake --build "$build" --target fuzz_trace fuzz_machine -j "$(nproc)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for kind in trace machine; do
    mkdir -p "$scratch/$kind"
    echo "fuzz_$kind: ${seconds} s on fuzz/corpus/$kind"
    # -artifact_prefix: a crash's input lands in the build directory, not here.
    if ! "$build/fuzz/fuzz_$kind" -dict="fuzz/$kind.dict" -max_total_time="$seconds" \
        -max_len=4096 -print_final_stats=1 -artifact_prefix="$build/" \
        "$scratch/$kind" "fuzz/corpus/$kind" >"$scratch/$kind.log" 2>&1; then
        tail -n 80 "$scratch/$kind.log"
        echo "fuzz_$kind: failed; the input is in $build/ (fuzz/README.md, 'A crash')"
        exit 1
    fi
    tail -n 8 "$scratch/$kind.log"
done
