#!/bin/sh
# dbsp_tori.sh BUILD_DIR [PLATFORM:DIMS ...] — paper 002's D-BSP parameters on
# simulated tori (docs/dbsp_tori.md): `polybsp probe --engine smpi` at P = all
# nodes and half of them, ranks placed two ways, then D-BSP's g_i and l_i per
# level beside the paper's shape g_i = l_i ~ (p/2^i)^(1/d), as ratios to level 0:
#   row-major  rank k on node k (the default placement: clusters of consecutive
#              ranks are strips of rows);
#   bisection  rank bits dealt to the dimensions in turn, highest first, so
#              that every i-cluster is a sub-torus as square as it can be (the
#              recursive bisection the paper's simulations assume).
# PLATFORM:DIMS defaults: torus-8x8:8,8 torus-4x4x4:4,4,4 (a shipped torus and
# the sizes of its dimensions, powers of two). Above 64 nodes the patterns'
# P² messages would take the simulator hours, so the probe measures them at
# P = 2, 4 only and the levels at all nodes (--dbsp-procs), with sizes up to
# 1.7 MB (each rank holds two buffers of half the largest). POLYBSP_SMPI_FLAGS
# passes on, e.g. --cfg=smpi/simulate-computation:no for the network alone.
# Not a test; a few minutes per platform on 2 cores (P = 1024: about 4 minutes
# per placement). Prints one Markdown table per platform on stdout; progress,
# and each probe's wall and CPU seconds, on stderr.
#   bench/paper/dbsp_tori.sh BUILD_DIR                     (both 64-node tori)
#   POLYBSP_SMPI_FLAGS=--cfg=smpi/simulate-computation:no \
#     bench/paper/dbsp_tori.sh BUILD_DIR torus-8x8x16:8,8,16   (network alone)
# Exit status 0; 1 if a probe fails (its last lines on stderr); 2 on bad usage
# (one line; --help prints this text).
set -u
case ${1:-} in
-h | --help)
  sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
  ;;
esac
if [ $# -lt 1 ] || [ ! -x "$1/tools/polybsp/polybsp" ]; then
  echo "usage: $0 BUILD_DIR [PLATFORM:DIMS ...]   (a built polybsp build directory)" >&2
  exit 2
fi
polybsp=$1/tools/polybsp/polybsp
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-tori.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
[ $# -gt 0 ] || set -- torus-8x8:8,8 torus-4x4x4:4,4,4

# hostfile DIMS: one line per rank, node-N, bisection order.
hostfile() {
  awk -v dims="$1" 'BEGIN {
    d = split(dims, n, ",")
    P = 1
    for (k = 1; k <= d; k++) { P *= n[k]; b[k] = log(n[k]) / log(2) + 0.5; b[k] = int(b[k]); B += b[k] }
    for (r = 0; r < P; r++) {
      for (k = 1; k <= d; k++) { c[k] = 0; left[k] = b[k] }
      k = d
      for (bit = B - 1; bit >= 0; bit--) {
        while (left[k] == 0) k = k > 1 ? k - 1 : d
        c[k] = c[k] * 2 + int(r / 2 ^ bit) % 2
        left[k]--
        k = k > 1 ? k - 1 : d
      }
      node = 0; stride = 1
      for (k = 1; k <= d; k++) { node += c[k] * stride; stride *= n[k] }
      print "node-" node
    }
  }'
}

# levels FILE: "level g L" per D-BSP level of the machine file (its first list,
# "dbsp": {"levels": ...}; the per-P lists after it repeat them).
levels() {
  sed -n 's/.*{"level": \([0-9]*\), "cluster": [0-9]*, "g": \([^,]*\), "L": \([^}]*\)}.*/\1 \2 \3/p' "$1" |
    awk '$1 == 0 { n++ } n == 1'
}

for spec in "$@"; do
  platform=${spec%%:*}
  dims=${spec#*:}
  P=$(echo "$dims" | awk -F, '{p = 1; for (k = 1; k <= NF; k++) p *= $k; print p}')
  d=$(echo "$dims" | awk -F, '{print NF}')
  hostfile "$dims" >"$tmp/hosts"
  for order in row-major bisection; do
    hosts=
    [ "$order" = bisection ] && hosts="--hostfile $tmp/hosts"
    if [ "$P" -gt 64 ]; then
      procs="--procs 2,4 --dbsp-procs $P --sizes 6720,107520,1720320"
    else
      procs="--procs $((P / 2)),$P"
    fi
    echo "probing $platform, $procs, $order ..." >&2
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" \
      "$polybsp" probe --engine smpi --platform "$platform" $hosts --quick --quiet \
      $procs -o "$tmp/$order.json" >"$tmp/$order.out" 2>&1 ||
      { echo "probe failed: $(tail -n 2 "$tmp/$order.out")" >&2; exit 1; }
    awk '{ printf "  %.0f s wall, %.0f s CPU\n", $1, $2 + $3 }' "$tmp/time" >&2
    levels "$tmp/$order.json" >"$tmp/$order.levels"
  done
  echo
  echo "$platform, P = $P, d = $d: ratios to level 0 (g_0, l_0 in s/byte, s)"
  echo
  echo "| level i | cluster | paper (p/2^i)^(1/d) | row-major g_i | row-major l_i | bisection g_i | bisection l_i |"
  echo "|---|---|---|---|---|---|---|"
  paste "$tmp/row-major.levels" "$tmp/bisection.levels" | awk -v P="$P" -v d="$d" '
    NR == 1 { rg0 = $2; rl0 = $3; bg0 = $5; bl0 = $6
      printf "| 0 | %d | 1 | 1 (g_0 = %.3g) | 1 (l_0 = %.3g) | 1 (g_0 = %.3g) | 1 (l_0 = %.3g) |\n", P, rg0, rl0, bg0, bl0; next }
    $2 > 0 { printf "| %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f |\n", $1, P / 2 ^ $1, 2 ^ (-$1 / d), $2 / rg0, $3 / rl0, $5 / bg0, $6 / bl0 }'
done
