#!/bin/sh
# solo_trace.sh PROGRAM: PROGRAM traced at P = 3 with POLYBSP_SOLO=on writes
# "solo":1 as its header's last field, with POLYBSP_SOLO=smpi "solo":2; traced
# with it off (and unset) its header has no "solo".
set -eu
prog=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for mode in on smpi off unset; do
    if [ "$mode" = unset ]; then
        env -u POLYBSP_SOLO POLYBSP_NPROCS=3 POLYBSP_TRACE="$dir/$mode.jsonl" "$prog" >/dev/null
    else
        POLYBSP_SOLO=$mode POLYBSP_NPROCS=3 POLYBSP_TRACE="$dir/$mode.jsonl" "$prog" >/dev/null
    fi
done
head -n 1 "$dir/on.jsonl" | grep -q ',"solo":1}$' || { echo "FAIL: solo header: $(head -n 1 "$dir/on.jsonl")"; exit 1; }
head -n 1 "$dir/smpi.jsonl" | grep -q ',"solo":2}$' || { echo "FAIL: smpi header: $(head -n 1 "$dir/smpi.jsonl")"; exit 1; }
for mode in off unset; do
    if head -n 1 "$dir/$mode.jsonl" | grep -q '"solo"'; then
        echo "FAIL: $mode header: $(head -n 1 "$dir/$mode.jsonl")"
        exit 1
    fi
done
echo "OK: solo header"
