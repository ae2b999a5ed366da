#!/bin/sh
# out_of_memory.sh POLYBSP MACHINE TRACE: predict reports memory running out as
# such. The address space is limited to what predict needs for TRACE (found by
# trying) plus 8 MiB, then it is given a trace whose second line takes 15 MB:
# expected "polybsp: predict: FILE:2: out of memory" and status 2.
set -u
polybsp=$1 machine=$2 trace=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/out_of_memory.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
big=$dir/big.jsonl
{ head -n 1 "$trace"; head -c 15000000 /dev/zero | tr '\0' ' '; echo; } >"$big"

kb=4096
while ! (ulimit -v $kb && "$polybsp" predict --machine "$machine" "$trace" >/dev/null 2>&1); do
    kb=$((kb + 4096))
    [ $kb -le 1048576 ] || { echo "out_of_memory.sh: predict does not run in 1 GiB"; exit 1; }
done
kb=$((kb + 8192))
got=$(ulimit -v $kb && "$polybsp" predict --machine "$machine" "$big" 2>&1 >/dev/null)
status=$?
want="polybsp: predict: $big:2: out of memory"
if [ "$status" != 2 ] || [ "$got" != "$want" ]; then
    echo "out_of_memory.sh: at ulimit -v $kb, status $status and: $got"
    echo "expected status 2 and: $want"
    exit 1
fi
