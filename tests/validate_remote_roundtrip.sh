#!/bin/sh
# validate_remote_roundtrip.sh — bench/validate_remote.sh's two steps on this
# machine (collect as if it were the target, then predict): the files collect
# writes, and one table row of numbers per program and P, and the goal's count.
#
# Usage: validate_remote_roundtrip.sh SCRIPT BUILD_DIR WORK_DIR
set -u
script=$1 build=$2 work=$3
rm -rf "$work"
export PROCS=2 REPEATS=1 PROGRAMS=prefix
PROBE_ARGS="--quick --procs 2" bash "$script" collect "$build" "$work" 2>/dev/null ||
    { echo "roundtrip: collect failed" >&2; exit 1; }
for f in machine.json probe.txt prefix.2.1.jsonl; do
    [ -s "$work/$f" ] || { echo "roundtrip: collect wrote no $f" >&2; exit 1; }
done
out=$(bash "$script" predict "$build" "$work" 2>&1) || { printf 'roundtrip: predict failed\n%s\n' "$out" >&2; exit 1; }
num='-?[0-9]+(\.[0-9]+)?'
# A model is n/a where the quick probe left out a noisy fit (D-BSP's levels, on
# a loaded machine under ASan).
rows=$(printf '%s\n' "$out" | grep -Ec "^\| prefix \| 2 \| [0-9.e+-]+( \| ($num|n/a)){5} \| [a-z]+ \| $num \| $num \| $num \|$")
[ "$rows" = 1 ] || { printf 'roundtrip: want one row of numbers for prefix at P = 2\n%s\n' "$out" >&2; exit 1; }
printf '%s\n' "$out" | grep -Eq '^goal: BSP within 25 % on [01] of 1 rows, the best model within 10 % on [01]$' ||
    { printf 'roundtrip: no goal line\n%s\n' "$out" >&2; exit 1; }
echo "roundtrip: ok"
