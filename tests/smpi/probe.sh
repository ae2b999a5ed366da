#!/bin/sh
# probe.sh TOOL WORK_DIR — `polybsp probe --engine smpi` calibrates a simulated
# cluster and D-BSP sees its two levels. On cluster-16x8 at P = 8, 16 (ranks 0-7
# on node-0, 8-15 on node-1) the machine file must say engine smpi, host
# cluster-16x8, 16 cores, nothing oversubscribed; and D-BSP's levels of P = 16
# (docs/smpi.md, "Calibrating"):
#   level 0 (16 processes, both nodes): each of node-0's 8 processes swaps m
#     bytes with its partner on node-1 through node-0's private link, 1.25 GB/s
#     each way (SimGrid's cluster links are split-duplex), so the level's time is
#     8 m / 1.25e9 s (the 20 GB/s backbone does not limit). Per byte of h that is
#     g_0 = 8 / 1.25e9 = 6.4e-9 s/byte with @ = max (h = m), and half, 3.2e-9,
#     with @ = sum (h = 2m): the test takes the operator the file records (on
#     split-duplex links sending and receiving overlap, so the probe should
#     choose max); within -20 %/+30 % (SMPI's bandwidth factors, the engine's
#     copies);
#   level 1 (8 processes, one node): through the node's loopback (20 GB/s,
#     shared by no one: 2.5e-11 s/byte) plus the engine's copies, timed on this
#     machine: g_1 in [2.5e-11, 4e-10], and at least ten times below g_0.
# And the probe notes the hierarchy in its patterns: Exchange pairs p with
# p xor 1, inside a node (g near g_1), while AllToAll sends 8/15 of every
# process's bytes across the nodes' links (near g_0): their g more than 10x
# apart (COST_PATTERNS_APART; docs/probe.md, "Patterns that disagree").
set -u
tool=$1
work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
m=$work/m.json
"$tool" probe --engine smpi --platform cluster-16x8 --quick --quiet --procs 8,16 -o "$m" \
    >"$work/out" 2>&1 || fail "probe: status $?: $(tail -n 3 "$work/out")"
grep -q '"engine": "smpi"' "$m" || fail "engine: $(grep '"engine"' "$m")"
grep -q '^note        the machine'"'"'s patterns cost [0-9]*x apart per byte (' "$work/out" ||
    fail "no note of the patterns' hierarchy: $(grep -A2 '^noise' "$work/out")"
grep -q '"host": "cluster-16x8"' "$m" || fail "host: $(grep '"host"' "$m")"
grep -q '"cores": 16,' "$m" || fail "cores: $(grep '"cores"' "$m")"
grep -q '"oversubscribed": false' "$m" || fail "oversubscribed: $(grep '"oversubscribed"' "$m")"
# The first line of a level: dbsp.levels, before the same levels in dbsp.by_procs.
level_g() { sed -n "s/.*{\"level\": $1, \"cluster\": [0-9]*, \"g\": \([^,]*\),.*/\1/p" "$m" | head -n 1; }
g0=$(level_g 0)
g1=$(level_g 1)
if [ -z "$g0" ] || [ -z "$g1" ]; then fail "no D-BSP levels 0 and 1 in $m"; fi
op=$(sed -n 's/.*"h_operator": "\([a-z]*\)".*/\1/p' "$m")
case $op in max) want=6.4e-9 ;; sum) want=3.2e-9 ;; *) fail "h_operator: '$op'" ;; esac
awk -v g0="$g0" -v g1="$g1" -v want="$want" -v op="$op" 'BEGIN {
    if (g0 < 0.8 * want || g0 > 1.3 * want) { print "FAIL: g_0 = " g0 ", expected " want " with @ = " op " (-20 %/+30 %)"; exit 1 }
    if (g1 < 2.5e-11 || g1 > 4e-10) { print "FAIL: g_1 = " g1 ", expected in [2.5e-11, 4e-10]"; exit 1 }
    if (g0 < 10 * g1) { print "FAIL: g_0 = " g0 " is not ten times g_1 = " g1; exit 1 }
}' || exit 1
echo "OK: smpi probe, @ = $op, g_0 = $g0, g_1 = $g1"
