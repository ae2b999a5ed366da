#!/bin/bash
# smpi-check.sh BUILD-DIR [P...] — runs the smpi engine's full check: builds
# polybsp in BUILD-DIR (warnings as errors) with the conformance, group and
# collective suites at every P given (default 1 2 3 4 7 16 64; the group and
# collective suites too, instead of their own few), then runs ctest -L smpi.
# CI runs the few P of a normal build (POLYBSP_SMPI_TEST_NPROCS); this is the
# rest. Exit status 0 only if all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# < 1)); then
    echo "usage: $0 BUILD-DIR [P...]" >&2
    exit 2
fi
build=$1
shift
procs=("$@")
if ((${#procs[@]} == 0)); then
    procs=(1 2 3 4 7 16 64)
fi
list=$(IFS=';' && echo "${procs[*]}")
cmake -S . -B "$build" -DPOLYBSP_WERROR=ON "-DPOLYBSP_SMPI_TEST_NPROCS=$list" \
    -DPOLYBSP_SMPI_TEST_NPROCS_ALL=ON
if ! grep -q '^POLYBSP_SMPI_TEST_PLATFORM' "$build/CMakeCache.txt"; then
    echo "smpi-check.sh: SimGrid was not found (scripts/deps.sh installs libsimgrid-dev)" >&2
    exit 1
fi
jobs=$(nproc)
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" -L smpi --output-on-failure -j "$jobs"
