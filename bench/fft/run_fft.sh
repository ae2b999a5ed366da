#!/usr/bin/env bash
# run_fft.sh — our parallel FFTs at P = 1 and P = 2 against FFTW on 1 and 2
# threads, on the same lengths in the same run; prints a Markdown table of
# medians and ratios (docs/fft.md records the results).
#
# Usage: bench/fft/run_fft.sh [BUILD_DIR]
# Environment:
#   FFT, BENCH_FFTW  the programs (default BUILD_DIR/examples/fft/fft and
#                    BUILD_DIR/bench/fft/bench_fftw)
#   FFT_SIZES        lengths as exponents (default "16 18 20 22")
#   BENCH_ROUNDS     rounds (default 3): each round runs every configuration once,
#                    alternating ours and FFTW, so slow drift of a shared machine
#                    hits both sides; the table shows the median of the rounds.
#   BENCH_REPS       timed transforms per run (default 11); each run reports its median.
#   FFT_FLAGS        planning flag for both sides: --measure (default) or "" (ESTIMATE).
# All plans share one FFTW wisdom file (a temporary one), so FFTW_MEASURE plans
# each size once. Planning is never timed.
# Exit status: 0 if every run worked, 1 if one failed, 2 on bad usage.
set -u

build=${1:-}
fft=${FFT:-$build/examples/fft/fft}
anchor=${BENCH_FFTW:-$build/bench/fft/bench_fftw}
if [ ! -x "$fft" ] || [ ! -x "$anchor" ]; then
  echo "usage: $0 BUILD_DIR   (or set FFT and BENCH_FFTW; build first)" >&2
  exit 2
fi
sizes=${FFT_SIZES:-16 18 20 22}
rounds=${BENCH_ROUNDS:-3}
reps=${BENCH_REPS:-11}
flags=${FFT_FLAGS---measure}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/run_fft.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
wisdom="$tmp/wisdom"
results="$tmp/results"
status=0

# run KEY COMMAND...: append "KEY SECONDS" from the program's "time: median" line.
run() {
  local key=$1 out
  shift
  if ! out=$("$@" 2>&1); then
    echo "run_fft.sh: FAILED: $*" >&2
    printf '%s\n' "$out" >&2
    status=1
    return
  fi
  printf '%s\n' "$out" | awk -v k="$key" '$1 == "time:" && $2 == "median" { print k, $3 }' |
    tee -a "$results" >&2
}

load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
for round in $(seq 1 "$rounds"); do
  echo "=== round $round of $rounds" >&2
  for k in $sizes; do
    # shellcheck disable=SC2086
    {
      run "fftw1_$k" "$anchor" -n "2^$k" --threads 1 --reps "$reps" $flags --wisdom "$wisdom"
      run "dc1_$k" "$fft" --algo dc -n "2^$k" -p 1 --time --reps "$reps" $flags --wisdom "$wisdom"
      run "bsp1_$k" "$fft" --algo bsp -n "2^$k" -p 1 --time --reps "$reps" $flags --wisdom "$wisdom"
      run "fftw2_$k" "$anchor" -n "2^$k" --threads 2 --reps "$reps" $flags --wisdom "$wisdom"
      run "dc2_$k" "$fft" --algo dc -n "2^$k" -p 2 --time --reps "$reps" $flags --wisdom "$wisdom"
      run "bsp2_$k" "$fft" --algo bsp -n "2^$k" -p 2 --time --reps "$reps" $flags --wisdom "$wisdom"
    }
  done
done
load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')

# Per key over rounds: "key median min max -" (seconds; bench/medians.awk).
stats=$(awk -v key=1 -v value=2 -v unit=0 -f "$(dirname "$0")/../medians.awk" "$results")

# table COLUMN TITLE: one Markdown table of the given statistic (2 median, 3 min).
table() {
  echo
  echo "$2"
  echo
  echo "| n | FFTW 1 thread | dc P=1 | bsp P=1 | FFTW 2 threads | dc P=2 | bsp P=2 | dc P=1 / FFTW 1t | bsp P=1 / FFTW 1t | dc P=2 / FFTW 2t | bsp P=2 / FFTW 2t |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for k in $sizes; do
    printf '%s\n' "$stats" | awk -v k="$k" -v col="$1" '
      { v[$1] = $col }
      function ms(key) { return (key in v) ? sprintf("%.3f ms", 1000 * v[key]) : "n/a" }
      function ratio(a, b) { return (a in v && b in v && v[b] > 0) ? sprintf("%.2fx", v[a] / v[b]) : "n/a" }
      END {
        printf "| 2^%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k,
          ms("fftw1_" k), ms("dc1_" k), ms("bsp1_" k), ms("fftw2_" k), ms("dc2_" k), ms("bsp2_" k),
          ratio("dc1_" k, "fftw1_" k), ratio("bsp1_" k, "fftw1_" k),
          ratio("dc2_" k, "fftw2_" k), ratio("bsp2_" k, "fftw2_" k)
      }'
  done
}

echo
echo "FFT benchmark: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "rounds=$rounds, reps=$reps, planning: ${flags:-estimate}; load average (1 min) before $load_before, after $load_after"
if awk -v l="$load_before" -v n="$(nproc)" 'BEGIN { exit !(l + 0 > n / 2) }'; then
  echo "WARNING: the machine was busy before the run: figures are unreliable"
fi
table 2 "Median over rounds of each run's median time:"
table 3 "Best round (min over rounds of each run's median), the figure least disturbed by other load:"
exit $status
