#!/bin/sh
# trace_same.sh THREADS.jsonl MPI.jsonl — the two engines' traces of one program
# record the same supersteps with the same kinds, ops, bytes, messages and
# sources (times, copying and growing times, page faults and the header's engine differ). On the MPI engine some
# collectives run MPI's own (docs/collectives.md §7.1): their records must still
# count what the puts would have moved.
set -eu
strip() {
    grep '"step"' "$1" | sed -e 's/"w":[^,]*,//' -e 's/"ops":[^,]*,//' -e 's/"faults":[^,]*,//' -e 's/"fresh":[^,]*,//' -e 's/"w_faults":[^,]*,//' -e 's/"copy":[^,]*,//' -e 's/"cpu":[^,]*,//' -e 's/"grow":[^,]*,//' -e 's/"preempt":[^,]*,//' \
        -e 's/,"t_enter".*$//' | sort
}
a=$(mktemp)
b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
strip "$1" >"$a"
strip "$2" >"$b"
if ! [ -s "$a" ] || ! diff "$a" "$b"; then
    echo "trace_same.sh: $1 and $2 differ (or are empty)" >&2
    exit 1
fi
