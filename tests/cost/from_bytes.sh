#!/bin/sh
# from_bytes.sh COMMAND...: runs COMMAND (from_bytes.c on 4 processes, on
# any engine) traced, and checks that each record of supersteps 1 and 2 lists
# the processes data came from and how many bytes from each (formats.md,
# "from_bytes"): a put's payload, a message's, an hpput's, the two blocks of
# 1 MiB that travel apart on the MPI engine, and two gets.
set -u
. "$(dirname "$0")/traced_run.sh"
traced_run from_bytes.sh "$@"
# step, pid, from and from_bytes of superstep 1 (puts, sends, hpputs), then of superstep 2
# (the gets, from p + 3).
for want in "1 0 1,2,3 64,8,416" "1 1 0,2,3 2097268,64,8" "1 2 0,1,3 8,216,64" \
    "1 3 0,1,2 64,8,316" "2 0 3 32" "2 1 0 32" "2 2 1 32" "2 3 2 32"; do
    set -- $want
    grep -q "^{\"step\":$1,\"pid\":$2,.*,\"from\":\[$3\],\"from_bytes\":\[$4\],\"t_enter\":" "$trace" ||
        fail "process $2's superstep $1 does not say from [$3], from_bytes [$4]"
done
grep -q "^{\"step\":0,.*\"from_bytes\"" "$trace" && fail "superstep 0 moved nothing but says from_bytes"
exit 0
