#!/bin/sh
# self_traffic.sh INPROD: runs examples/inprod traced on 3 processes. In its
# superstep 1 process 0 puts the length n (an int) to every process, itself
# included: its record must count that put in and out and say so in
# self_bytes and self_msgs, and the others' records must have none.
set -u
. "$(dirname "$0")/traced_run.sh"
traced_run self_traffic.sh env POLYBSP_NPROCS=3 "$1" 1000
grep -q '^{"step":1,"pid":0,.*"bytes_out":12,"msgs_out":3,"bytes_in":4,"msgs_in":1,"self_bytes":4,"self_msgs":1,' "$trace" ||
    fail "process 0's put to itself is not in its superstep 1"
for pid in 1 2; do
    grep -q "^{\"step\":1,\"pid\":$pid,.*\"bytes_in\":4,\"msgs_in\":1,\"self_bytes\":0,\"self_msgs\":0,\(\"faults\":[0-9]*,\"fresh\":[0-9]*,\)\{0,1\}\(\"w_faults\":[0-9]*,\)\{0,1\}\(\"preempt\":[0-9]*,\)\{0,1\}\"from\":\\[0\\]" "$trace" ||
        fail "process $pid's superstep 1 counts traffic to itself"
done
