#!/bin/sh
# place.sh TOOL PROGRAM P POLICY — the threads engine binds P processes where
# `polybsp info -p P --json` says it will (POLYBSP_PLACE=POLICY): process i on
# the i-th CPU of the list, allowed that CPU alone; an empty list (none, or more
# processes than CPUs) leaves every process with all the CPUs it had; after
# bsp_end the program's own thread has all of them again. Large puts choose
# between streamed and cached copies by measuring (POLYBSP_STREAM unset: auto)
# exactly when the processes are bound and P is at most the number of cores:
# info's "stream" must say "measured" then, "off" otherwise; its "copy_window"
# names one of the two copies the window can take (core_copy.h).
set -u
tool=$1
prog=$2
P=$3
policy=$4
export POLYBSP_PLACE="$policy" POLYBSP_NPROCS="$P"
all=$(nproc)
unset POLYBSP_STREAM
json=$("$tool" info -p "$P" --json)
cpus=$(echo "$json" | sed -n 's/.*"placement":.*"cpus": \[\([0-9, ]*\)\].*/\1/p' | tr -d ' ')
cores=$(echo "$json" | sed -n 's/^ *"cores": \([0-9]*\),$/\1/p')
stream=$(echo "$json" | sed -n 's/.*"placement":.*"stream": "\([a-z]*\)".*/\1/p')
window=$(echo "$json" | sed -n 's/.*"placement":.*"copy_window": "\([a-z]*\)"}.*/\1/p')
case "$window" in blocks | memcpy) ;; *) echo "FAIL: info's copy_window is '$window'"; exit 1 ;; esac
want=off
[ -n "$cpus" ] && [ "$P" -le "$cores" ] && want=measured
[ "$stream" = "$want" ] || { echo "FAIL: info says stream '$stream', expected $want (P = $P, cores $cores, cpus '$cpus')"; exit 1; }
out=$("$prog") || { echo "FAIL: the program failed"; exit 1; }
i=0
for want in $(echo "$cpus" | tr ',' ' '); do
    line="process $i: cpu $want, 1 allowed"
    echo "$out" | grep -qx "$line" || { echo "FAIL: expected '$line' in:"; echo "$out"; exit 1; }
    i=$((i + 1))
done
if [ -z "$cpus" ]; then
    n=$(echo "$out" | grep -c "^process [0-9]*: cpu [0-9]*, $all allowed$")
    [ "$n" -eq "$P" ] || { echo "FAIL: unbound processes should have $all CPUs:"; echo "$out"; exit 1; }
elif [ "$i" -ne "$P" ]; then
    echo "FAIL: info lists $i CPUs for P = $P ($cpus)"
    exit 1
fi
echo "$out" | grep -qx "after: $all allowed" ||
    { echo "FAIL: after bsp_end the thread should have its $all CPUs again:"; echo "$out"; exit 1; }
echo "OK: P = $P, $policy: ${cpus:-not bound}, stream $stream, window $window"
