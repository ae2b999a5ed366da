#!/bin/sh
# once_bytes.sh KIND PROGRAM [ARG...]: runs PROGRAM traced on 2 processes (it
# writes polybsp-trace.jsonl in the current directory), a program that moves
# data with bsp_hpput (KIND hp) or bsp_send (KIND send). The trace must say so
# (KIND_bytes_out, KIND_bytes_in), each at most the record's bytes_out or
# bytes_in, and what the processes sent that way is what they received.
set -u
kind=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$dir" && POLYBSP_NPROCS=2 "$@" >/dev/null) || exit 1
trace=$dir/polybsp-trace.jsonl
awk -v kind="$kind" '
function count(key) {
    if (!match($0, "\"" key "\":[0-9]+")) return 0
    return substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3) + 0
}
/"step":/ {
    o = count(kind "_bytes_out"); i = count(kind "_bytes_in")
    if (o > count("bytes_out") || i > count("bytes_in")) {
        print "once_bytes.sh: more " kind " bytes than bytes: " $0; bad = 1
    }
    out += o; in_ += i
}
END {
    if (out == 0) { print "once_bytes.sh: no record says " kind "_bytes_out"; bad = 1 }
    if (out != in_) { print "once_bytes.sh: " kind " bytes sent " out " and received " in_; bad = 1 }
    exit bad
}' "$trace" || { cat "$trace" >&2; exit 1; }
