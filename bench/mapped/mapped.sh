#!/bin/sh
# mapped.sh — bench_mapped run directly (the kernel maps the executable far
# below its libraries) and through `polybsp run` under POLYBSP_SOLO=smpi (its
# loader maps it among them, as SMPI maps a program): the ratio own / shared is
# what the mapping costs the calls into the libraries; 1 when it costs nothing.
# Each run on the same CPU (the last this script may use), ROUNDS times
# alternating; compare the medians.
#
# Usage: bench/mapped/mapped.sh BUILD_DIR
# Environment: ROUNDS (default 3), REPS (timed runs per figure, default 101).
# Exit status: 0, 1 if a run failed, 2 on bad usage.
set -u
build=${1:-}
bench=$build/bench/mapped
if [ $# -ne 1 ] || [ ! -x "$bench/bench_mapped" ] || [ ! -x "$build/tools/polybsp/polybsp" ]; then
    echo "usage: bench/mapped/mapped.sh BUILD_DIR (a build with bench/mapped/bench_mapped)" >&2
    exit 2
fi
rounds=${ROUNDS:-3}
reps=${REPS:-101}
cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*[:,-] *//')
pin=""
[ -n "$cpu" ] && pin="taskset -c $cpu"
for r in $(seq "$rounds"); do
    echo "round $r, started by the kernel:"
    $pin "$bench/bench_mapped" "$bench/mapped_kernel.so" "$reps" || exit 1
    echo "round $r, started by polybsp run under POLYBSP_SOLO=smpi (its loader):"
    POLYBSP_SOLO=smpi $pin "$build/tools/polybsp/polybsp" run "$bench/bench_mapped" \
        "$bench/mapped_kernel.so" "$reps" || exit 1
done
