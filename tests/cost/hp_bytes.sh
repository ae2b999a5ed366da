#!/bin/sh
# hp_bytes.sh FFT: runs examples/fft's four-step algorithm traced on 2
# processes. Its transposes move data with bsp_hpput: the trace must say so
# (hp_bytes_out, hp_bytes_in), each at most the record's bytes_out or
# bytes_in, and what the processes sent by hpput is what they received.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$dir" && POLYBSP_NPROCS=2 "$1" --algo bsp -n 4096 --trace >/dev/null) || exit 1
trace=$dir/polybsp-trace.jsonl
awk '
/"step":/ {
    o = 0; i = 0; bo = 0; bi = 0
    if (match($0, /"hp_bytes_out":[0-9]+/)) o = substr($0, RSTART + 15, RLENGTH - 15) + 0
    if (match($0, /"hp_bytes_in":[0-9]+/)) i = substr($0, RSTART + 14, RLENGTH - 14) + 0
    if (match($0, /"bytes_out":[0-9]+/)) bo = substr($0, RSTART + 12, RLENGTH - 12) + 0
    if (match($0, /"bytes_in":[0-9]+/)) bi = substr($0, RSTART + 11, RLENGTH - 11) + 0
    if (o > bo || i > bi) { print "hp_bytes.sh: more hpput bytes than bytes: " $0; bad = 1 }
    out += o; in_ += i
}
END {
    if (out == 0) { print "hp_bytes.sh: no record says hp_bytes_out"; bad = 1 }
    if (out != in_) { print "hp_bytes.sh: hpput bytes sent " out " and received " in_; bad = 1 }
    exit bad
}' "$trace" || { cat "$trace" >&2; exit 1; }
