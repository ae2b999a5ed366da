#!/bin/sh
# multisearch_trace.sh MULTISEARCH — `--trace` records one search: at P = 3 and
# depth 4, 3*4 + 1 = 13 supersteps of every process, and the messages in the
# trace add up to the count the program prints for its first search (the traced
# search repeats it).
set -u
ms=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/ms-trace.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
out=$(cd "$dir" && env -u POLYBSP_TRACE POLYBSP_NPROCS=3 "$ms" -n 2000 -d 8 --depth 4 --trace) ||
  { echo "multisearch_trace.sh: multisearch failed"; exit 1; }
t="$dir/polybsp-trace.jsonl"
[ -f "$t" ] || { echo "multisearch_trace.sh: no polybsp-trace.jsonl"; exit 1; }
records=$(grep -c '"pid":' "$t")
msgs=$(grep -o '"msgs_out":[0-9]*' "$t" | awk -F: '{s += $2} END {print s}')
want=$(echo "$out" | sed -n 's/.* \([0-9]*\) messages$/\1/p')
fail=0
[ "$records" -eq 39 ] || { echo "multisearch_trace.sh: $records records, expected 39"; fail=1; }
[ -n "$want" ] && [ "$msgs" -eq "$want" ] ||
  { echo "multisearch_trace.sh: $msgs messages in the trace, the program counted '$want'"; fail=1; }
[ $fail -eq 0 ] || { echo "$out"; cat "$t"; }
exit $fail
