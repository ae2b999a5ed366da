#!/bin/bash
# mpich-check.sh BUILD-DIR — builds polybsp against MPICH in BUILD-DIR (warnings
# as errors) and runs the MPI engine's tests (ctest -L mpi) there. Installs
# MPICH beside Open MPI if it is missing (with sudo when not root), leaving the
# system's default MPI (mpicc, mpirun) as it was. Exit status 0 only if all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# != 1)); then
    echo "usage: $0 BUILD-DIR" >&2
    exit 2
fi
build=$1
jobs=$(nproc)

# Installing MPICH may switch the mpi* alternatives to it; other people build
# with the default (Open MPI) on the same machine, so whatever was chosen before
# is chosen again.
packages=(libmpich-dev mpich)
missing=()
for pkg in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
        missing+=("$pkg")
    fi
done
if ((${#missing[@]} > 0)); then
    echo "mpich-check.sh: installing ${missing[*]}"
    sudo=()
    if ((EUID != 0)); then
        sudo=(sudo)
    fi
    before=$(update-alternatives --get-selections | grep '^mpi' || true)
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${missing[@]}"
    while read -r name _ value; do
        [[ -n $name ]] || continue
        now=$(update-alternatives --query "$name" 2>/dev/null | sed -n 's/^Value: //p' || true)
        if [[ $now != "$value" ]]; then
            echo "mpich-check.sh: $name back to $value (the install chose $now)"
            "${sudo[@]}" update-alternatives --set "$name" "$value"
        fi
    done <<<"$before"
fi

cmake -S . -B "$build" -DPOLYBSP_WERROR=ON \
    -DMPI_C_COMPILER=/usr/bin/mpicc.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich
# A build directory configured before with Open MPI keeps its cached libraries:
# make sure this one really is MPICH's.
if ! grep -q '^MPI_C_LIB_NAMES:STRING=.*mpich' "$build/CMakeCache.txt"; then
    echo "mpich-check.sh: $build is not configured with MPICH (use a new build directory)" >&2
    exit 1
fi
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" -L mpi --output-on-failure -j "$jobs"
