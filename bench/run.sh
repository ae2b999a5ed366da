#!/usr/bin/env bash
# run.sh — run every benchmark from an existing build directory and print a
# summary table (Markdown) of medians, anchors, ratios and goals.
#
# Usage: bench/run.sh BUILD_DIR
# Environment:
#   BENCH_ROUNDS  rounds of the whole suite (default 3); the table shows, per
#                 figure, the median over rounds of each round's median. Rounds
#                 alternate our programs with the MPI anchors, so slow drift of a
#                 shared machine hits both sides alike.
#   BENCH_REPS    timed batches per figure inside each program (default 21).
#   MPIRUN        the MPI launcher (default mpirun).
# Builds nothing: build first (cmake --build BUILD_DIR), or use the `bench` target.
# Raw "result" lines go to stderr. After the table come the bsp_put Exchange phases,
# the machine-state probe (bench/bench_spin.h), the figures that varied by more than
# 1.5x between rounds, and a warning when other processes were runnable around the
# run (the figures then mean little).
# Exit status: 0 if every program ran, 1 if one failed, 2 on bad usage.
set -u

if [ $# -ne 1 ] || [ ! -d "$1/bench" ]; then
  echo "usage: $0 BUILD_DIR   (a configured and built polybsp build directory)" >&2
  exit 2
fi
bin="$1/bench"
rounds="${BENCH_ROUNDS:-3}"
mpirun="${MPIRUN:-mpirun}"
sizes=(6720 26880 107520 430080 1720320)
# Puts per process per superstep: a send buffer that stays in the caches, and one
# (1.5 MB of records) that does not.
put_hs=(4096 65536)
# Shared memory only: two local ranks need no network transport.
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}"

for p in bench_sync bench_puts bench_exchange; do
  if [ ! -x "$bin/$p" ]; then
    echo "run.sh: $bin/$p is missing; build first" >&2
    exit 2
  fi
done
have_mpi=0
if [ -x "$bin/mpi_anchor" ] && command -v "$mpirun" >/dev/null 2>&1; then
  have_mpi=1
else
  echo "run.sh: no mpi_anchor or $mpirun: MPI anchors are skipped" >&2
fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT
status=0

run() { # run COMMAND...: keep its result lines, echo them to stderr
  echo "== $*" >&2
  local out
  if ! out=$("$@" 2>&1); then
    echo "run.sh: FAILED: $*" >&2
    echo "$out" >&2
    status=1
  fi
  printf '%s\n' "$out" | grep '^result ' | tee -a "$results" >&2
}

# shellcheck disable=SC2317 # called through run "$@"
mpi() { "$mpirun" --allow-run-as-root --oversubscribe -np 2 "$bin/mpi_anchor" "$@"; }

# How often another process was runnable: in how many of 10 samples over 2 s.
# Read with shell builtins only, so the sampling itself is the one runnable
# process it expects. The 1-minute load average lags too much to tell.
others_running() {
  local busy=0 key value rest
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    while read -r key value rest; do
      [ "$key" = procs_running ] && break
    done </proc/stat
    [ "${value:-1}" -gt 1 ] && busy=$((busy + 1))
    sleep 0.2
  done
  echo "$busy"
}
busy_before=$(others_running)
for round in $(seq 1 "$rounds"); do
  echo "=== round $round of $rounds" >&2
  run "$bin/bench_sync" 2
  [ $have_mpi = 1 ] && run mpi barrier
  run "$bin/bench_sync" 16
  run "$bin/bench_sync" 64
  for h in "${put_hs[@]}"; do run "$bin/bench_puts" 2 "$h"; done
  run "$bin/bench_exchange" 2 "${sizes[@]}"
  [ $have_mpi = 1 ] && run mpi sendrecv "${sizes[@]}"
done

busy_after=$(others_running)

# One line per figure: key, median, min and max over rounds, unit.
medians=$(awk -v key=2 -v value=3 -v unit=4 -f "$(dirname "$0")/medians.awk" "$results" | sort)

# row FIGURE KEY ANCHOR ANCHOR_KEY GOAL SHOWN_GOAL
#   GOAL: "ratio<=X" or "ratio>=X" (ours/anchor), "value<X" (in the figure's unit) or "-".
row() {
  printf '%s\n' "$medians" | awk -v fig="$1" -v key="$2" -v anc="$3" -v akey="$4" \
    -v goal="$5" -v shown="${6:--}" '
    function fmt(v, u) {
      if (u == "ns" && v >= 10000) { v /= 1000; u = "us" }
      return sprintf(v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, u)
    }
    $1 == key { v = $2; u = $5; have = 1 } $1 == akey { a = $2; au = $5; ahave = 1 }
    END {
      ours = have ? fmt(v, u) : "n/a"
      anchor = ahave ? fmt(a, au) : "n/a"
      both = have && ahave && a > 0
      ratio = both ? sprintf("%.2fx", v / a) : "n/a"
      met = "-"
      if (goal ~ /^ratio/) met = !both ? "n/a" : \
        (goal ~ /<=/ ? v / a <= substr(goal, 8) + 0 : v / a >= substr(goal, 8) + 0) ? "yes" : "NO"
      if (goal ~ /^value</) met = !have ? "n/a" : v < substr(goal, 7) + 0 ? "yes" : "NO"
      printf "| %s | %s | %s | %s | %s | %s | %s |\n", fig, ours, anc, anchor, ratio, shown, met
    }'
}

echo
echo "polybsp benchmarks: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, rounds=$rounds, reps=${BENCH_REPS:-21}"
echo "samples (of 10) with another process runnable: before $busy_before, after $busy_after"
if [ "$busy_before" -gt 2 ] || [ "$busy_after" -gt 2 ]; then
  echo "WARNING: other processes competed for the cores: figures are unreliable"
fi
echo
echo "| figure | ours (median) | anchor | anchor (median) | ratio ours/anchor | goal | met? |"
echo "|---|---|---|---|---|---|---|"
row "empty superstep, P=2" sync_p2_ns "MPI_Barrier, 2 ranks" mpi_barrier_ns "ratio<=0.8" "<= 0.8x"
row "empty superstep, P=2" sync_p2_ns "2-thread spin barrier" spin_barrier_p2_ns -
row "empty superstep, P=2" sync_p2_ns "pthread_barrier, 2 threads" pthread_barrier_p2_ns -
row "empty superstep, P=16 on $(nproc) cores" sync_p16_ns "pthread_barrier, 16 threads" \
  pthread_barrier_p16_ns "value<50000" "< 50 us"
row "empty superstep, P=64 on $(nproc) cores" sync_p64_ns "pthread_barrier, 64 threads" \
  pthread_barrier_p64_ns -
for h in "${put_hs[@]}"; do
  row "8-byte bsp_put, h=$h, P=2, per put" "put_h${h}_ns" "memcpy 8 bytes (libc call)" \
    "memcpy8_h${h}_ns" "value<10" "< 10 ns"
  row "... issuing the puts, per put" "put_issue_h${h}_ns" "memcpy 8 bytes (libc call)" \
    "memcpy8_h${h}_ns" -
  row "... bsp_sync, per put" "put_sync_h${h}_ns" "memcpy 8 bytes (libc call)" "memcpy8_h${h}_ns" -
done
for m in "${sizes[@]}"; do
  row "Exchange m=$m, bsp_hpput" "exch_hpput_${m}_gbs" "MPI_Sendrecv, 2 ranks" "exch_mpi_${m}_gbs" \
    "ratio>=0.9" ">= 0.9x"
  row "Exchange m=$m, bsp_put" "exch_put_${m}_gbs" "MPI_Sendrecv, 2 ranks" "exch_mpi_${m}_gbs" \
    "ratio>=0.5" ">= 0.5x"
  row "Exchange m=$m, bsp_hpput" "exch_hpput_${m}_gbs" "memcpy m bytes" "exch_memcpy_${m}_gbs" -
done
echo
echo "bsp_put Exchange phases (median us per superstep): issue (copy into the send buffer) / sync"
for m in "${sizes[@]}"; do
  printf '%s\n' "$medians" | awk -v m="$m" '
    $1 == "exch_put_issue_" m "_us" { i = $2 } $1 == "exch_put_sync_" m "_us" { s = $2 }
    END { printf "  m=%-8s issue %8.2f us   sync %8.2f us\n", m, i, s }'
done
echo
echo "machine state: the 2-thread spin barrier timed inside each program, ns (min / median / max over rounds)"
probes=(spin_barrier_p2_ns)
for h in "${put_hs[@]}"; do probes+=("puts_xcore_h${h}_ns"); done
for m in "${sizes[@]}"; do probes+=("exch_xcore_${m}_ns"); done
for k in "${probes[@]}"; do
  printf '%s\n' "$medians" | awk -v k="$k" '$1 == k { printf "  %-22s %7.1f / %7.1f / %7.1f\n", k, $3, $2, $4 }'
done
echo
echo "figures whose round medians differ by more than 1.5x (min / median / max):"
printf '%s\n' "$medians" | awk '$3 > 0 && $4 / $3 > 1.5 { printf "  %s %.4g / %.4g / %.4g %s\n", $1, $3, $2, $4, $5; n++ }
  END { if (!n) print "  none" }'
exit $status
