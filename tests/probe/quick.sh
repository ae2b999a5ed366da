#!/bin/sh
# quick.sh TOOL CHECKER OUT P... — `polybsp probe --quick` end to end at the given P.
#
# Runs the probe, checks that it exits 0, prints every table of the paper (with
# the empty superstep, the relative fit and the line of each P), the
# D-BSP and CCM tables and the machine file's name, reports progress as plain
# lines (stderr is not a terminal here), and that check_machine accepts the file
# it wrote (where a pattern or a D-BSP level may be missing only if the probe
# said why). With PROBE_ENGINE=mpi in the environment the probe runs on the MPI
# engine (`--engine mpi`), and the output and the file (check_machine reads
# PROBE_ENGINE too) must say so. With PROBE_DBSP_PROCS=N the probe gets
# `--dbsp-procs N`, and Table D-BSP and the file's levels must be those of N.
set -u
# shellcheck source=tests/probe/noted_absent.sh
. "$(dirname "$0")/noted_absent.sh"
engine=${PROBE_ENGINE:-threads}
tool=$1
checker=$2
out=$3
shift 3
procs=$(echo "$*" | tr ' ' ',')
rm -f "$out" "$out.stdout" "$out.stderr"

dbsp=${PROBE_DBSP_PROCS:-}
probe_noise_retried "$out" "$tool" probe --engine "$engine" --quick --budget 5 --procs "$procs" \
    ${dbsp:+--dbsp-procs "$dbsp"} -o "$out"
status=$?
fail=0
if [ "$status" -ne 0 ]; then
    echo "FAIL: polybsp probe exited with status $status"
    fail=1
fi
for text in "Table E.1" "Table E.2" "Table PP.1" "Table PP.2" "Table OA.1" "Table OA.2" \
    "Table AO.1" "Table AO.2" "Table AA.1" "Table AA.2" "Table 11" "Table 12" \
    "Table 12 by P" "empty superstep" "L, relative fit" \
    "Table D-BSP" "Table CCM" "bsp_put" "bsp_hpput" "BSP*" "rate" "noise" "written to $out" \
    "polybsp probe: engine $engine,"; do
    if ! grep -qF -- "$text" "$out.stdout"; then
        echo "FAIL: stdout lacks: $text"
        fail=1
    fi
done
# Table D-BSP's partition and rejoin rows: level 0 (the whole machine) divides.
for row in partition rejoin; do
    if ! sed -n '/^Table D-BSP/,/^Table CCM/p' "$out.stdout" | grep -Eq "^$row +[0-9]"; then
        echo "FAIL: Table D-BSP has no $row row with level 0's time"
        fail=1
    fi
done
if [ -n "$dbsp" ] && ! grep -q "^Table D-BSP .*P = $dbsp\b" "$out.stdout"; then
    echo "FAIL: Table D-BSP is not at P = $dbsp"
    fail=1
fi
if ! grep -q '^polybsp probe: .*%' "$out.stderr" || grep -q "$(printf '\r')" "$out.stderr"; then
    echo "FAIL: stderr is not plain progress lines"
    fail=1
fi
if [ "$fail" = 1 ]; then
    echo "--- stdout:"; cat "$out.stdout"
    echo "--- stderr:"; cat "$out.stderr"
    exit 1
fi
absent=$(noted_absent "$out.stdout")
# shellcheck disable=SC2086
exec "$checker" "$out" "$procs" $absent
