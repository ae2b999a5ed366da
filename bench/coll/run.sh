#!/usr/bin/env bash
# run.sh — polybsp's collectives against Open MPI's, at the same P and sizes in
# the same run; prints Markdown tables of medians and ratios.
#
# Usage: bench/coll/run.sh BUILD_DIR   (a built polybsp build directory, or the
#                                       directory holding bench_coll itself)
# Environment:
#   COLL_BENCH_P      process counts (default "2 4 8")
#   COLL_BENCH_SIZES  bytes per process, multiples of 8 (default "8 1024 65536 1048576")
#   BENCH_ROUNDS      rounds (default 3); a figure is the median over rounds of
#                     each round's median. Rounds alternate polybsp and MPI, so a
#                     shared machine's drift hits both sides alike.
#   BENCH_REPS        timed batches per figure inside each program (default 21)
#   MPIRUN            the MPI launcher (default mpirun)
#   COLL_BENCH_ENGINE threads (default) or mpi: polybsp's side is bench_coll_mpi,
#                     on the MPI engine under the launcher, rank for rank with MPI
# Exit status: 0 if every program ran, 1 if one failed, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
if [ -x "$1/bench/coll/bench_coll" ]; then
  bin="$1/bench/coll"
elif [ -x "$1/bench_coll" ]; then
  bin="$1"
else
  echo "run.sh: no bench_coll under $1; build first" >&2
  exit 2
fi
procs="${COLL_BENCH_P:-2 4 8}"
sizes="${COLL_BENCH_SIZES:-8 1024 65536 1048576}"
rounds="${BENCH_ROUNDS:-3}"
engine="${COLL_BENCH_ENGINE:-threads}"
mpirun="${MPIRUN:-mpirun}"
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}"
have_mpi=0
if [ -x "$bin/mpi_coll" ] && command -v "$mpirun" >/dev/null 2>&1; then
  have_mpi=1
else
  echo "run.sh: no mpi_coll or $mpirun: the MPI anchors are skipped" >&2
fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT
status=0
run() {
  echo "== $*" >&2
  local out
  if ! out=$("$@" 2>&1); then
    echo "run.sh: FAILED: $*" >&2
    printf '%s\n' "$out" >&2
    status=1
  fi
  printf '%s\n' "$out" | grep '^result ' >>"$results"
}

load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
for round in $(seq 1 "$rounds"); do
  echo "=== round $round of $rounds" >&2
  for p in $procs; do
    # shellcheck disable=SC2086
    if [ "$engine" = mpi ]; then
      run "$mpirun" --allow-run-as-root --oversubscribe -np "$p" "$bin/bench_coll_mpi" "$p" $sizes
    else
      run "$bin/bench_coll" "$p" $sizes
    fi
    # shellcheck disable=SC2086
    [ $have_mpi = 1 ] && run "$mpirun" --allow-run-as-root --oversubscribe -np "$p" "$bin/mpi_coll" $sizes
  done
done
load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')

# key median min max unit, over rounds (bench/medians.awk)
medians=$(awk -v key=2 -v value=3 -v unit=0 -f "$(dirname "$0")/../medians.awk" "$results" | sort)
get() { printf '%s\n' "$medians" | awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print "" }'; }
fmt() { [ -z "$1" ] && { echo "n/a"; return; }; awk -v v="$1" 'BEGIN { printf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) }'; }
ratio() { { [ -z "$1" ] || [ -z "$2" ]; } && { echo "n/a"; return; }; awk -v a="$1" -v b="$2" 'BEGIN { printf(b > 0 ? "%.2fx" : "n/a", a / b) }'; }

echo
echo "polybsp collectives (engine $engine) vs Open MPI: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, rounds=$rounds, reps=${BENCH_REPS:-21}"
echo "load average (1 min) before: $load_before, after: $load_after"
if awk -v l="$load_before" -v n="$(nproc)" 'BEGIN { exit !(l + 0 > n + 0) }'; then
  echo "WARNING: the machine was busy before the run (load > cores): figures are unreliable"
fi
echo
echo "Median time per call (us), process/rank 0; ratio < 1: polybsp faster."
echo
echo "| collective | P | n (bytes) | polybsp | Open MPI | ratio polybsp/MPI |"
echo "|---|---|---|---|---|---|"
for op in bcast reduce allreduce scan gather allgather scatter alltoall alltoallv; do
  for p in $procs; do
    for n in $sizes; do
      ours=$(get "coll_${op}_p${p}_n${n}_us")
      mpi=$(get "mpi_${op}_p${p}_n${n}_us")
      echo "| $op | $p | $n | $(fmt "$ours") | $(fmt "$mpi") | $(ratio "$ours" "$mpi") |"
    done
  done
done
echo
echo "Broadcast algorithms, us per call: median (minimum over batches); AUTO is bsp_bcast's choice."
echo
echo "| P | n (bytes) | BINOMIAL | TWOPHASE | ROOTP | DIRECT | AUTO | Open MPI |"
echo "|---|---|---|---|---|---|---|---|"
for p in $procs; do
  for n in $sizes; do
    row="| $p | $n"
    for k in bcast_binomial bcast_twophase bcast_rootp bcast_direct bcast; do
      row="$row | $(fmt "$(get "coll_${k}_p${p}_n${n}_us")") ($(fmt "$(get "coll_${k}_p${p}_n${n}_min_us")"))"
    done
    echo "$row | $(fmt "$(get "mpi_bcast_p${p}_n${n}_us")") |"
  done
done
echo
echo "figures whose round medians differ by more than 1.5x (min / median / max):"
printf '%s\n' "$medians" | awk '$1 !~ /_min_us$/ && $3 > 0 && $4 / $3 > 1.5 { printf "  %s %.4g / %.4g / %.4g us\n", $1, $3, $2, $4; n++ }
  END { if (!n) print "  none" }'
exit $status
