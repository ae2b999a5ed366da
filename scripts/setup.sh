#!/bin/bash
# setup.sh — installs missing dependencies, then configures and builds polybsp in
# ./build (Release-with-debug-info). Afterwards: ./build/tools/polybsp/polybsp.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build
cmake --build build -j "$(nproc)"
