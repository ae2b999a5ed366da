#!/bin/sh
# trace_setup.sh POLYBSP FFT: runs `fft --trace` on 2 processes, which starts
# tracing with bsp_trace_begin, so that one process makes the trace file inside
# the traced part. Exactly one record must say how long that took ("setup"):
# one of the first traced superstep, with 0 < setup <= w; and `polybsp predict`
# must name it on its tracer line.
set -u
polybsp=$1 fft=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
unset POLYBSP_TRACE
POLYBSP_NPROCS=2 "$fft" --algo bsp -n 1024 --trace >/dev/null || exit 1
trace=polybsp-trace.jsonl
first=$(grep -o '^{"step":[0-9]*' "$trace" | head -1 | cut -d: -f2)
lines=$(grep -c '"setup":' "$trace")
if [ "$lines" != 1 ] || ! grep -q "^{\"step\":$first,.*\"setup\":" "$trace"; then
    echo "trace_setup.sh: want one record with setup, of step $first; found $lines" >&2
    cat "$trace" >&2
    exit 1
fi
rec=$(grep '"setup":' "$trace")
w=$(printf '%s\n' "$rec" | sed 's/.*"w":\([^,]*\),.*/\1/')
setup=$(printf '%s\n' "$rec" | sed 's/.*"setup":\([^,]*\),.*/\1/')
pid=$(printf '%s\n' "$rec" | sed 's/.*"pid":\([0-9]*\),.*/\1/')
if ! awk -v s="$setup" -v w="$w" 'BEGIN { exit !(s > 0 && s <= w) }'; then
    echo "trace_setup.sh: setup $setup not in (0, w = $w]" >&2
    exit 1
fi
"$polybsp" probe --quick -p 2 -o machine.json >/dev/null 2>&1 || exit 1
out=$("$polybsp" predict --machine machine.json "$trace") || exit 1
printf '%s\n' "$out" | grep -q "^tracer      .* of process $pid's w in superstep $first made the trace file" || {
    echo "trace_setup.sh: predict has no tracer line for process $pid, superstep $first:" >&2
    printf '%s\n' "$out" >&2
    exit 1
}
echo "trace_setup.sh: process $pid spent $setup s of w = $w making the file"
