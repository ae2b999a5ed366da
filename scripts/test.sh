#!/bin/bash
# test.sh — installs missing dependencies, builds polybsp in ./build with warnings
# as errors, and runs every test. Exit status 0 only if all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build -DPOLYBSP_WERROR=ON
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
