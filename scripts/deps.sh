#!/bin/bash
# deps.sh [--ci] — installs the Debian packages polybsp needs to build and test,
# if any is missing (with sudo when not root). --ci adds what CI's extra passes
# need (clang and its sanitizer runtimes, clang-format for the format check).
set -euo pipefail

# iproute2 and procps: the MPI tests make network namespaces and find ranks to kill.
# libsimgrid-dev: SimGrid's SMPI, for the smpi engine (simulated platforms).
# chromium: the browser test of `polybsp report`'s page (report.browser).
# groff-base: the man pages' check (man.pages); man-db: `man` to read them.
packages=(build-essential cmake pkg-config libhwloc-dev hwloc libopenmpi-dev openmpi-bin
    libfftw3-dev libjansson-dev iproute2 procps libsimgrid-dev chromium groff-base man-db)
if [[ ${1:-} == --ci ]]; then
    packages+=(clang libclang-rt-14-dev clang-format)
fi

missing=()
for pkg in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
        missing+=("$pkg")
    fi
done
if ((${#missing[@]} == 0)); then
    exit 0
fi

echo "deps.sh: installing ${missing[*]}"
sudo=()
if ((EUID != 0)); then
    sudo=(sudo)
fi
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${missing[@]}"
