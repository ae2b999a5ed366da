#!/bin/sh
# solo_trace.sh PROGRAM: PROGRAM traced at P = 3 with POLYBSP_SOLO=on writes
# "solo":1 as its header's last field, with POLYBSP_SOLO=smpi "solo":2 and the
# bytes walked at each take, "footprint", last: by thr_solo.h's rule 1 MiB x
# sqrt(P / 32) on whole 64-byte lines, by hand 321024 at P = 3 (321060.5),
# 185344 at P = 1 (185363.4), 2097152 at P = 128, and POLYBSP_SOLO_FOOTPRINT's
# bytes when set; traced with it off (and unset) its header has no "solo".
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
head -n 1 "$dir/smpi.jsonl" | grep -q ',"solo":2,"footprint":321024}$' || { echo "FAIL: smpi header: $(head -n 1 "$dir/smpi.jsonl")"; exit 1; }
for case in 1:185344: 128:2097152: 3:4096:4096; do
    p=${case%%:*} rest=${case#*:}
    want=${rest%%:*} asked=${rest#*:}
    POLYBSP_SOLO=smpi POLYBSP_SOLO_FOOTPRINT=$asked POLYBSP_NPROCS=$p POLYBSP_TRACE="$dir/fp.jsonl" "$prog" >/dev/null
    head -n 1 "$dir/fp.jsonl" | grep -q ",\"solo\":2,\"footprint\":$want}\$" ||
        { echo "FAIL: smpi header at P = $p (POLYBSP_SOLO_FOOTPRINT=$asked): $(head -n 1 "$dir/fp.jsonl")"; exit 1; }
done
for mode in off unset; do
    if head -n 1 "$dir/$mode.jsonl" | grep -q '"solo"'; then
        echo "FAIL: $mode header: $(head -n 1 "$dir/$mode.jsonl")"
        exit 1
    fi
done
echo "OK: solo header"
