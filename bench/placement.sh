#!/usr/bin/env bash
# placement.sh — does binding the threads engine's processes (POLYBSP_PLACE,
# docs/env.md) remove the bimodal Exchange figures of issue 13? Runs
# bench_exchange at P = 2 for the paper's sizes, and bench_sync and bench_puts
# at P = 2 (binding must not slow the empty superstep or the 8-byte put), ROUNDS
# times under each policy, the policies alternating run by run (so that a shared
# machine's drift hits both alike), and prints per figure the median and the
# spread max/min of each policy and the speed ratio of the medians (second
# policy's speed / first's; > 1: binding is faster; times in ns are inverted),
# as a Markdown table, then perf stat's context switches and CPU migrations of
# one run of each.
#
# Usage: bench/placement.sh BUILD_DIR
# Environment: ROUNDS (default 5), POLICIES (default "none compact": the first
#              is the reference of the ratio), VAR (default POLYBSP_PLACE: the
#              variable the policies are values of; VAR=POLYBSP_STREAM
#              POLICIES="off auto" compares streamed puts with cached ones,
#              docs/performance.md).
# Builds nothing. Not a test: the figures depend on the machine and its load.
# Exit status: 0, 1 if a run failed, 2 on bad usage.
set -u
if [ $# -ne 1 ] || [ ! -x "$1/bench/bench_exchange" ]; then
  echo "usage: $0 BUILD_DIR   (a built polybsp build directory)" >&2
  exit 2
fi
bench="$1/bench/bench_exchange"
for b in bench_sync bench_puts; do
  [ -x "$1/bench/$b" ] || { echo "usage: $0 BUILD_DIR   (bench/$b is not built)" >&2; exit 2; }
done
rounds="${ROUNDS:-5}"
read -r -a policies <<<"${POLICIES:-none compact}"
var="${VAR:-POLYBSP_PLACE}"
case $var in POLYBSP_[A-Z]*) ;; *) echo "$0: VAR must name a POLYBSP_ variable, got '$var'" >&2; exit 2 ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/placement.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

for ((r = 0; r < rounds; r++)); do
  for pol in "${policies[@]}"; do
    echo "placement: round $((r + 1))/$rounds, $var=$pol" >&2
    for b in "$bench" "$1/bench/bench_sync" "$1/bench/bench_puts"; do
      env "$var=$pol" "$b" 2 >>"$work/$pol.txt" 2>&1 || { echo "placement: $b failed" >&2; exit 1; }
    done
  done
done

echo "bench_exchange P = 2, $rounds runs per value of $var, alternating; $(date -u +%Y-%m-%dT%H:%MZ), $(uname -n), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
header="| figure (GB/s, or ns) |"
rule="|---|"
for pol in "${policies[@]}"; do header="$header $pol median | $pol max/min |"; rule="$rule---|---|"; done
echo "$header ${policies[1]:-}/${policies[0]} |"
echo "$rule---|"
for fig in $(grep -h '^result \(exch_\(put\|hpput\|get\)_[0-9]*_gbs\|sync_p2_ns\|put_h[0-9]*_ns\) ' "$work/${policies[0]}.txt" | awk '{print $2}' | awk '!seen[$0]++'); do
  row="| $fig |"
  meds=()
  for pol in "${policies[@]}"; do
    stats=$(grep "^result $fig " "$work/$pol.txt" | awk '{print $3}' | sort -g |
      awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                           printf "%.3g %.2f", m, (v[1] > 0 ? v[NR] / v[1] : 0)}')
    meds+=("${stats%% *}")
    row="$row ${stats%% *} | ${stats##* } |"
  done
  inv=0
  case $fig in *_ns) inv=1 ;; esac
  ratio=$(awk -v a="${meds[0]}" -v b="${meds[1]:-0}" -v inv=$inv \
    'BEGIN {if (inv && a > 0 && b > 0) {a = 1 / a; b = 1 / b}; printf "%.2f", (a > 0 ? b / a : 0)}')
  echo "$row $ratio |"
done
echo
if command -v perf >/dev/null 2>&1; then
  for pol in "${policies[@]}"; do
    cs=$(env "$var=$pol" perf stat -x, -e context-switches,cpu-migrations "$bench" 2 107520 2>&1 >/dev/null |
      awk -F, '/context-switches|cpu-migrations/ {printf "%s %s, ", $1, $3}')
    echo "perf stat, one run of 107520 B, $var=$pol: ${cs%, }"
  done
fi
