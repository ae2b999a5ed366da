#!/bin/sh
# detached.sh RUNNER PROGRAM — polybsp-smpirun's default
# smpi/send-is-detached-thresh:0 (no message sent detached, which spares
# SimGrid 3.32 a scan of every detached message in flight) gives the simulated
# times SMPI's own default (64 KiB) gives: scale_bsp's sparse, empty and dense
# supersteps at P = 16 on cluster-16x8, with 1 KiB and 100 kB puts, network
# alone (computation not charged), agree within 1 %.
set -u
runner=$1 prog=$2
fail() {
    echo "FAIL: $*"
    exit 1
}
for m in 1024 100000; do
    new=$(POLYBSP_SMPI_FLAGS=--cfg=smpi/simulate-computation:no \
        sh "$runner" test cluster-16x8 "" 16 "$prog" 4 8 3 $m) || fail "run at $m bytes"
    old=$(POLYBSP_SMPI_FLAGS="--cfg=smpi/simulate-computation:no --cfg=smpi/send-is-detached-thresh:65536" \
        sh "$runner" test cluster-16x8 "" 16 "$prog" 4 8 3 $m) || fail "run at $m bytes, 64 KiB"
    echo "$new" | grep -q "CONFORMANCE FAILURE" && fail "$new"
    [ "$(echo "$new" | grep -c '^result ')" = 3 ] || fail "expected 3 results at $m bytes: $new"
    printf '%s\n%s\n' "$new" "$old" | awk -v m=$m '
        $1 == "result" { if ($2 in t) { d = $3 - t[$2]; if (d < 0) d = -d
                             printf "%s %d bytes: %s us (threshold 0) against %s (64 KiB)\n", $2, m, t[$2], $3
                             if (d > 0.01 * $3) bad = 1 }
                         else t[$2] = $3 }
        END { exit bad }' || fail "simulated times differ at $m bytes"
done
echo "OK: same simulated time without detached sends"
