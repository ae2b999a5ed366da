#!/bin/sh
# regs_field.sh POLYBSP MACHINE INPROD: runs examples/inprod traced on 3
# processes. Its registrations take effect at three syncs: superstep 0 (the
# push of n), 2 (the pop of n and the push of the partial sums) and 4 (the pop
# of the partial sums, at bsp_end): every process's record of those says
# "regs" 1, 2 and 1, and no other record has the field. predict then notes
# the three syncs, not charged by MACHINE, which has no 'reg'.
set -u
. "$(dirname "$0")/traced_run.sh"
traced_run regs_field.sh env POLYBSP_NPROCS=3 "$3" 1000
for pid in 0 1 2; do
    for want in 0:1 2:2 4:1; do
        step=${want%:*} regs=${want#*:}
        grep -q "^{\"step\":$step,\"pid\":$pid,.*\"regs\":$regs,\"from\":" "$trace" ||
            fail "process $pid's superstep $step does not say regs $regs"
    done
done
[ "$(grep -c '"regs":' "$trace")" = 9 ] || fail "a record of a superstep without registrations has regs"
"$1" predict --explain --machine "$2" "$trace" | grep -qx "note        3 syncs also agreed on registrations (bsp_push_reg, bsp_pop_reg), not charged: the machine file has no 'reg' at P = 3 (probe again)" ||
    fail "predict does not note the three syncs"
