#!/bin/sh
# dbsp_nodes.sh TOOL NODES_SO WORK_DIR — issue 11's claim on a cluster of
# multi-core nodes: calibrate cluster-16x8 (polybsp probe --engine smpi --quick,
# P = 8, 16), trace nodes.c at P = 16 (5 supersteps of 1 MiB exchanges inside
# nodes, then 5 across them), predict: D-BSP's total within 10 % of the
# simulated one, and nearer than plain BSP's (whose one g averages the two kinds
# of superstep). Measured on 2026-11-25: D-BSP +1.7 %, BSP +81 % (under).
set -u
tool=$1
nodes=$2
work=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
"$tool" probe --engine smpi --platform cluster-16x8 --quick --quiet --procs 8,16 -o m.json \
    >probe.out 2>&1 || fail "probe: status $?: $(tail -n 3 probe.out)"
"$tool" run --engine smpi --platform cluster-16x8 -p 16 "$nodes" 1048576 5 >run.out 2>&1 ||
    fail "run: status $?: $(tail -n 3 run.out)"
grep -q '^nodes: P = 16, h = 1048576, 5 + 5 rounds, OK$' run.out || fail "run: $(cat run.out)"
row=$("$tool" predict --machine m.json --model bsp --model dbsp --format csv polybsp-trace.jsonl |
    grep '^total,') || fail "predict gave no total"
# total,REAL,bsp,bsp_error,dbsp,dbsp_error (errors in %, REAL - model over REAL)
echo "$row" | awk -F, '{
    b = $4 < 0 ? -$4 : $4; d = $6 < 0 ? -$6 : $6
    if (d > 10) { printf "FAIL: D-BSP error %.1f %% (REAL %s s, D-BSP %s s)\n", $6, $2, $5; exit 1 }
    if (d >= b) { printf "FAIL: D-BSP error %.1f %% not below BSP error %.1f %%\n", $6, $4; exit 1 }
    printf "OK: dbsp_nodes, REAL %s s, D-BSP %+.1f %%, BSP %+.1f %%\n", $2, $6, $4 }'
