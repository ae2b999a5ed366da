#!/bin/sh
# anchor_reuse.sh — bench/anchor/mcbsp.sh --reuse over stand-in anchor programs:
# the per-P table's medians, spreads and ratios come out as computed by hand.
#
# Usage: anchor_reuse.sh MCBSP_SH WORK_DIR
# The stand-ins print one time (ns, less is better) and one rate (GB/s, more is
# better). polybsp's time is 100 n P for its n-th run (a counter file), so that
# the median over three rounds and the spread (max / min) are known:
#   polybsp: sync, P = 2: runs 1, 3, 5 -> 200, 600, 1000: median 600, spread 5.00
#                  P = 4: runs 2, 4, 6 -> 800, 1600, 2400: median 1600, spread 3.00
#            exch 3 GB/s every run
#   mcbsp:   sync 400 P every run (800, 1600); exch 1.5 GB/s
# so the speed ratios are 800/600 = 1.33 and 1600/1600 = 1.00 for sync (times:
# MulticoreBSP's over polybsp's) and 3 / 1.5 = 2.00 for the exchange (rates).
set -u
sh_=$1
work=$2
rm -rf "$work" && mkdir -p "$work/mcbsp" || exit 1
echo "VERSION=9.9.9" >"$work/mcbsp/version.mk"
cat >"$work/anchor.polybsp" <<'P'
#!/bin/sh
n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" >count
echo "result anchor_sync_ns $((100 * n * $1)) ns"
echo "result anchor_exch_gbs 3 GB/s"
P
cat >"$work/anchor.mcbsp" <<'M'
#!/bin/sh
echo "result anchor_sync_ns $((400 * $1)) ns"
echo "result anchor_exch_gbs 1.5 GB/s"
M
chmod +x "$work/anchor.polybsp" "$work/anchor.mcbsp"
out=$(bash "$sh_" --reuse --rounds 3 --procs 2,4 --work "$work" 2>/dev/null) || { echo "anchor_reuse: mcbsp.sh failed" >&2; exit 1; }
want='| anchor_sync_ns | 2 | ns | 600 | 5.00 | 800 | 1.00 | 1.33 |
| anchor_sync_ns | 4 | ns | 1600 | 3.00 | 1600 | 1.00 | 1.00 |
| anchor_exch_gbs | 2 | GB/s | 3 | 1.00 | 1.5 | 1.00 | 2.00 |
| anchor_exch_gbs | 4 | GB/s | 3 | 1.00 | 1.5 | 1.00 | 2.00 |'
got=$(printf '%s\n' "$out" | grep '^| anchor_')
if [ "$got" != "$want" ]; then
    printf 'anchor_reuse: table differs\n--- want\n%s\n--- got\n%s\n' "$want" "$got" >&2
    exit 1
fi
printf '%s\n' "$out" | head -n 1 | grep -q 'MulticoreBSP for C 9.9.9, P = 2, 4$' ||
    { echo "anchor_reuse: title wrong: $(printf '%s\n' "$out" | head -n 1)" >&2; exit 1; }
echo "anchor_reuse: ok"
