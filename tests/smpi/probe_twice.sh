#!/bin/sh
# probe_twice.sh TOOL WORK_DIR — two quick probes of one simulated platform
# fit the same D-BSP levels: the simulator charges none of the probe's own
# bookkeeping in its sections of communication (eng_charge_program), so what
# they time is the simulated network alone. Before, the host's timing of that
# bookkeeping moved a level's l up to 2.7x between two probes of torus-8x8
# (25 and 66 us). Every level's g and l, and the partition and rejoin of
# each level that divides, must agree within 0.1 % (the polls
# of a wait still charge their 10 ns each a varying number of times), and so
# must what a sync with registrations costs beyond an empty one (by_procs'
# reg, probe_reg.h), which the simulated network makes more than 0.
set -u
tool=$1
work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
for k in 1 2; do
    "$tool" probe --engine smpi --platform torus-8x8 --quick --quiet --procs 8 \
        -o "$work/m$k.json" >"$work/out$k" 2>&1 || fail "probe $k: status $?: $(tail -n 3 "$work/out$k")"
done
# Per level line: the level, g, L, and its partition and rejoin (0 0 where it
# does not divide); every level above clusters of one process divides.
levels() {
    sed -n 's/.*{"level": \([0-9]*\), "cluster": \([0-9]*\), "g": \([^,]*\), "L": \([^,}]*\)\([^}]*\)}.*/\1 \3 \4 \2\5/p' "$1" |
        sed 's/, "partition": \([^,]*\), "rejoin": \([^,}]*\)/ \1 \2/' |
        awk '{ if (NF == 4 && $4 == 1) print $1, $2, $3, 0, 0; else if (NF == 6) print $1, $2, $3, $5, $6; else print "bad:", $0 }'
}
levels "$work/m1.json" >"$work/l1"
levels "$work/m2.json" >"$work/l2"
[ -s "$work/l1" ] || fail "no D-BSP levels in $work/m1.json"
! grep -h '^bad:' "$work/l1" "$work/l2" || fail "a level without its partition and rejoin"
paste -d ' ' "$work/l1" "$work/l2" | awk '
    function off(a, b) { return a == b ? 0 : (a > b ? a - b : b - a) / (a > b ? a : b) }
    { n++; if ($1 != $6 || off($2, $7) > 1e-3 || off($3, $8) > 1e-3 || off($4, $9) > 1e-3 ||
               off($5, $10) > 1e-3) {
        print "FAIL: level " $1 ": g " $2 " and " $7 ", L " $3 " and " $8 ", partition " $4 \
            " and " $9 ", rejoin " $5 " and " $10; bad = 1 } }
    END { if (bad) exit 1; if (n == 0) { print "FAIL: no levels"; exit 1 } }' || exit 1
[ "$(wc -l <"$work/l1")" -eq "$(wc -l <"$work/l2")" ] || fail "the two files have other numbers of levels"
reg() { sed -n 's/.*{"P": 8, [^}]*"reg": \([^,]*\),.*/\1/p' "$1"; }
r1=$(reg "$work/m1.json") r2=$(reg "$work/m2.json")
[ -n "$r1" ] && [ -n "$r2" ] || fail "no reg at P = 8 in by_procs: '$r1' '$r2'"
awk -v a="$r1" -v b="$r2" 'BEGIN { d = a > b ? a - b : b - a; exit !(a > 0 && d <= 1e-3 * a) }' ||
    fail "reg at P = 8: $r1 and $r2"
echo "OK: two probes, the same $(wc -l <"$work/l1") level lines (partitions and rejoins) and reg within 0.1 %"
