#!/bin/sh
# hm_trace.sh HM_ROUTING — `--trace --reps 3` at P = 4, h = m = 64 (so
# 2^k <= hP/m = 4: k = 2, capped at level 1, clusters of 2):
#   direct: one superstep of the whole machine per routing: 3*4 records, all level 0;
#   ascend: per routing 2 partitions (down for the ascend, and the descend's
#           step) and 2 rejoins, recorded by every process (3*2*4 of each), and
#           supersteps inside the clusters labelled level 1.
set -u
prog=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/hm-trace.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
t="$dir/polybsp-trace.jsonl"
fail=0
expect() { # WHAT GOT WANT
  if [ "$2" -ne "$3" ]; then
    echo "hm_trace.sh: $1: $2, expected $3"
    fail=1
  fi
}
run() {
  (cd "$dir" && env -u POLYBSP_TRACE POLYBSP_NPROCS=4 "$prog" --h 64 --reps 3 --trace "$@" \
    >/dev/null) || { echo "hm_trace.sh: hm_routing $* failed"; exit 1; }
}
run --route direct
expect "direct: records" "$(grep -c '"pid":' "$t")" 12
expect "direct: level 0 records" "$(grep -c '"level":0' "$t")" 12
rm -f "$t"
run --route ascend
expect "ascend: partitions" "$(grep -c '"kind":"partition"' "$t")" 24
expect "ascend: rejoins" "$(grep -c '"kind":"rejoin"' "$t")" 24
level1=$(grep -c '"level":1' "$t")
[ "$level1" -gt 0 ] || { echo "hm_trace.sh: ascend: no level-1 records"; fail=1; }
expect "ascend: levels other than 0 and 1" "$(grep -v '"level":[01],' "$t" | grep -c '"pid":')" 0
[ $fail -eq 0 ] || cat "$t"
exit $fail
