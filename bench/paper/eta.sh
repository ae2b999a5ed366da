#!/bin/sh
# eta.sh — which cost model to trust on simulated platforms (docs/dbsp_tori.md,
# section 3): for each PLATFORM:P, a quick calibration of the platform
#   polybsp probe --engine smpi --platform PLATFORM --quick --procs PROCS
# (PROCS default P/2,P), then the portability suite (paper 002's eta and delta)
#   polybsp portability --engine smpi --platform PLATFORM -p P --machine FILE
#     --repeats REPEATS
# and one Markdown table, a row per model: picked, worst loss, eta within,
# eta (1), delta.
#
#   bench/paper/eta.sh BUILD_DIR PLATFORM:P[:PROCS] ...
#   e.g. bench/paper/eta.sh build cluster-16x8:16 torus-8x8:64 fattree-64:64
#
# Environment: REPEATS (default 3); MACHINE_DIR: keep each calibration there as
# PLATFORM-P.json, and use one already there instead of probing again (for
# bench/paper/outside.sh), and the suite's whole output beside it as
# PLATFORM-P.suite.txt (which programs attain each eta and delta);
# POLYBSP_SMPI_FLAGS passes on to the simulator.
# Progress, and the wall and CPU seconds of each probe and suite, on stderr;
# the table on stdout. Not a test: on a 2-core machine about 1 min at P = 16,
# 4-6 min at P = 64 (the engine's copies are timed on this machine, so a
# loaded machine moves the real times, hence eta; the network is exact).
# Exit status 0; 1 if a probe or a suite fails (its last lines on stderr);
# 2 on bad usage (one line; --help prints this text).
set -u
case ${1:-} in
-h | --help)
  sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
  ;;
esac
if [ $# -lt 2 ] || [ ! -x "$1/tools/polybsp/polybsp" ]; then
  echo "usage: $0 BUILD_DIR PLATFORM:P[:PROCS] ...   (a built polybsp build directory)" >&2
  exit 2
fi
polybsp=$(cd "$1" && pwd)/tools/polybsp/polybsp
shift
for spec in "$@"; do
  case $spec in
  *:[0-9]*) ;;
  *) echo "$0: '$spec' is not PLATFORM:P[:PROCS]" >&2 && exit 2 ;;
  esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-eta.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
dir=${MACHINE_DIR:-$tmp}
mkdir -p "$dir" || exit 1

# timed NAME CMD...: runs CMD, output to $tmp/NAME.out, and says its wall and
# CPU seconds on stderr.
timed() {
  name=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
    { echo "$0: $name failed: $(tail -n 3 "$tmp/$name.err")" >&2; exit 1; }
  awk -v n="$name" '{ printf "eta: %s: %.0f s wall, %.0f s CPU\n", n, $1, $2 + $3 }' "$tmp/$name.time" >&2
}

echo "| platform, P | model | picked | worst loss | η within | η (1) | δ |"
echo "|---|---|---|---|---|---|---|"
for spec in "$@"; do
  platform=${spec%%:*}
  rest=${spec#*:}
  P=${rest%%:*}
  procs=$((P / 2)),$P
  [ "$rest" = "$P" ] || procs=${rest#*:}
  machine=$dir/$platform-$P.json
  if [ -f "$machine" ]; then
    echo "eta: $platform: using $machine" >&2
  else
    echo "eta: $platform: polybsp probe --engine smpi --platform $platform --quick --procs $procs ..." >&2
    timed "probe-$platform" "$polybsp" probe --engine smpi --platform "$platform" --quick --quiet \
      --procs "$procs" -o "$machine"
  fi
  echo "eta: $platform: polybsp portability -p $P --repeats ${REPEATS:-3} ..." >&2
  timed "suite-$platform" "$polybsp" portability --engine smpi --platform "$platform" -p "$P" \
    --machine "$machine" --repeats "${REPEATS:-3}" --quiet
  [ -z "${MACHINE_DIR:-}" ] || cp "$tmp/suite-$platform.out" "$dir/$platform-$P.suite.txt"
  awk -v pf="\`$platform\`, $P" '
    $1 == "model" && $2 == "families" { on = 1; next }
    on && /^trust/ { exit }
    on && NF >= 7 {
      label = $1; sub(/\*/, "\\*", label)
      for (c = 4; c <= 7; c++) if ($c ~ /^[0-9.]+$/) $c = sprintf("%.3g", $c)
      printf "| %s | %s | %s | %s | %s | %s | %s |\n", pf, label, $3, $4, $5, $6, $7
      pf = "" }' "$tmp/suite-$platform.out"
done
