#!/bin/bash
# format.sh [--check] — formats every C source and header of the repository with
# the committed .clang-format; with --check, changes nothing and fails (listing
# the files) if any is not formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.inc' | grep -v '^build')
if [[ ${1:-} == --check ]]; then
    bad=()
    for f in "${files[@]}"; do
        [[ -f $f ]] || continue
        clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
    done
    if ((${#bad[@]} > 0)); then
        echo "format.sh: not formatted (run ./scripts/format.sh): ${bad[*]}" >&2
        exit 1
    fi
else
    clang-format -i "${files[@]}"
fi
