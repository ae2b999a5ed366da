#!/bin/sh
# broadcast_trace.sh BROADCAST_STUDY — `--trace --reps 5` records exactly the 5
# traced broadcasts: at P = 4, BINOMIAL takes 2 supersteps (ceil(log2 4)) and
# DIRECT 1, every record of kind "bcast". rootp-dbsp at P = 4 (k = m = 2): per
# broadcast a partition, Root(2) in cluster 0 (a level-1 superstep), the
# rejoin, the send 1 -> 2 at level 0, a partition, Root(2) in both clusters, the
# rejoin: 7 records on processes 0 and 1, 6 on 2 and 3 (26); 8 partitions; 14
# records at level 1.
set -u
prog=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/bcast-trace.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
fail=0
for case in binomial:40 direct:20; do
  alg=${case%:*} want=${case#*:}
  (cd "$dir" && env -u POLYBSP_TRACE POLYBSP_NPROCS=4 "$prog" --alg "$alg" -n 64 --reps 5 --trace \
    >/dev/null) || { echo "broadcast_trace.sh: $alg failed"; exit 1; }
  t="$dir/polybsp-trace.jsonl"
  all=$(grep -c '"pid":' "$t")
  bcast=$(grep -c '"kind":"bcast"' "$t")
  if [ "$all" -ne "$want" ] || [ "$bcast" -ne "$want" ]; then
    echo "broadcast_trace.sh: $alg: $all records, $bcast of kind bcast, expected $want"
    fail=1
  fi
  rm -f "$t"
done
(cd "$dir" && env -u POLYBSP_TRACE POLYBSP_NPROCS=4 "$prog" --alg rootp-dbsp -n 64 --reps 5 \
  --trace >/dev/null) || { echo "broadcast_trace.sh: rootp-dbsp failed"; exit 1; }
t="$dir/polybsp-trace.jsonl"
for case in '"pid":':130 '"kind":"partition"':40 '"level":1':70; do
  pattern=${case%:*} want=${case##*:}
  got=$(grep -c "$pattern" "$t")
  if [ "$got" -ne "$want" ]; then
    echo "broadcast_trace.sh: rootp-dbsp: $got records matching $pattern, expected $want"
    fail=1
  fi
done
exit $fail
