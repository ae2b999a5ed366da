#!/usr/bin/env bash
# fault_inject.sh — break runs on purpose and check that each one ends in time,
# with its one line, and leaves nothing running.
#
# Usage: bench/fault_inject.sh [-n RUNS] [-e ENGINE] [-f FAULTS] [-t SECONDS] BUILD_DIR
#   -n RUNS     runs per engine (default 50)
#   -e ENGINE   threads, mpi or both (default: both when the MPI test program
#               was built, else threads)
#   -f FAULTS   the faults to draw from, space-separated (default: every one
#               that applies to the engine)
#                 crash  a process stores through a null pointer
#                 abort  a process calls abort()
#                 loop   a process computes forever (the watchdog stops the run)
#                 pthread_exit  a process's thread ends (threads only)
#                 kill   kill -9 of one rank, from outside (MPI only)
#                 stop   kill -STOP of one rank, from outside (MPI only)
#   -t SECONDS  POLYBSP_TIMEOUT for the runs (default 2)
# Every run is tests/fault/fault[_mpi] at P = 4 (MPI: under tests/mpirun.sh);
# the faulty process and the superstep (2 to 300), or the moment of a kill or
# stop (0.3 to 1.5 s after every rank has begun its section), are drawn at random. A run passes
# when it ends within 10 x SECONDS + 20 s, with a non-zero status, with exactly
# the expected polybsp line on stderr (for kill -9, which no process can report:
# none, and mpirun's line naming the rank), and with none of its processes left
# a few seconds later. Prints one line per run, then per engine the runs that
# passed and the longest and mean time a run took to end; exits 0 when all
# passed, 1 otherwise, 2 on bad usage. The test suite runs it with a few runs
# (tests/fault/CMakeLists.txt).
set -u

runs=50 engines="" faults="" timeout=2
usage() {
  echo "usage: $0 [-n RUNS] [-e threads|mpi|both] [-f FAULTS] [-t SECONDS] BUILD_DIR" >&2
  exit 2
}
while getopts "n:e:f:t:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    e) engines=$OPTARG ;;
    f) faults=$OPTARG ;;
    t) timeout=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -x "$1/tests/fault/fault" ] || usage
case $runs$timeout in *[!0-9]*) usage ;; esac
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$engines" ] || [ "$engines" = both ]; then
  engines=threads
  [ -x "$build/tests/fault/fault_mpi" ] && engines="threads mpi"
fi
limit=$((10 * timeout + 20))
export POLYBSP_TIMEOUT=$timeout
err=$(mktemp "${TMPDIR:-/tmp}/fault_inject.XXXXXX") || exit 1
trap 'rm -f "$err" "$err.out" "$err.status"' EXIT

# The line a fault must produce, as an extended regular expression.
expected() { # engine fault actor step
  local at="polybsp: process $3, superstep $4:" waited="polybsp: timeout: waited $timeout s for"
  case $2 in
    crash) echo "$at killed by signal 11 \\(SIGSEGV\\)" ;;
    abort) echo "$at killed by signal 6 \\(SIGABRT\\)" ;;
    pthread_exit) echo "$at pthread_exit: the thread of process $3 ended inside the SPMD section" ;;
    loop) [ "$1" = threads ] && echo "$waited process $3 \\(computing in superstep $4\\)" ||
      echo "$waited process $3 \\(not answering in superstep $4\\)" ;;
    stop) echo "$waited process [0-9]+ \\(not answering in superstep [0-9]+\\)" ;;
    kill) echo "" ;;
  esac
}

now() { date +%s.%N; }

# One run; prints its line and returns 0 when it passed.
one_run() { # engine fault run
  local engine=$1 fault=$2 actor=$((RANDOM % 4)) step=$((2 + RANDOM % 299))
  local prog="$build/tests/fault/fault" args cmd tag="" what
  if [ "$fault" = kill ] || [ "$fault" = stop ]; then
    # A step no run reaches marks this run's processes for pgrep.
    tag=$((1000000 + RANDOM * 32768 + RANDOM))
    args=(forever 0 "$tag")
    what="$fault of a rank"
  else
    args=("$fault" "$actor" "$step")
    what="$fault by process $actor in superstep $step"
  fi
  local start end status
  start=$(now)
  if [ "$engine" = mpi ]; then
    prog="${prog}_mpi"
    cmd=(sh "$here/tests/mpirun.sh" 4 "$prog")
  else
    cmd=("$prog")
  fi
  # The job's own shell says nothing of how it ended (to /dev/null); its status
  # comes through a file.
  rm -f "$err.status"
  ("${cmd[@]}" "${args[@]}" >"$err.out" 2>"$err"
    echo $? >"$err.status") 2>/dev/null &
  local job=$! victim=""
  if [ -n "$tag" ]; then
    # Once every rank has said it runs: a rank stopped inside MPI_Init or
    # bsp_begin's collectives is not the watchdog's (docs/reliability.md).
    # (Deadlines by the clock: on a loaded machine each sleep takes longer.)
    local until=$((SECONDS + 60)) ranks=()
    while [ "$SECONDS" -lt "$until" ]; do
      mapfile -t ranks < <(pgrep -f "^[^ ]*fault_mpi forever 0 $tag\$")
      [ "$(grep -c runs "$err.out" 2>/dev/null)" -ge 4 ] && [ "${#ranks[@]}" -gt 0 ] && break
      kill -0 "$job" 2>/dev/null || break
      sleep 0.1
    done
    sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.3 + 1.2 * r / 32767 }')"
    # No rank to hit (the job never started its ranks, or ended): the run fails
    # below by its status or its lines, instead of the draw dividing by zero.
    [ "${#ranks[@]}" -gt 0 ] && victim=${ranks[$((RANDOM % ${#ranks[@]}))]}
    if [ -n "$victim" ]; then
      [ "$fault" = kill ] && kill -KILL "$victim" 2>/dev/null
      [ "$fault" = stop ] && kill -STOP "$victim" 2>/dev/null
    fi
  fi
  local ended=0 until=$((SECONDS + limit))
  while [ "$SECONDS" -lt "$until" ]; do
    kill -0 "$job" 2>/dev/null || { ended=1; break; }
    sleep 0.1
  done
  end=$(now)
  local problem=""
  if [ "$ended" = 0 ]; then
    problem="still running after $limit s"
    kill -KILL "$job" 2>/dev/null
  fi
  wait "$job"
  status=$(cat "$err.status" 2>/dev/null || echo 255)
  [ "$ended" = 1 ] && [ "$status" = 0 ] && problem="status 0"
  local want lines got
  want=$(expected "$engine" "$fault" "$actor" "$step")
  got=$(grep '^polybsp:' "$err" | awk '!seen[$0]++')
  lines=$(printf '%s' "$got" | grep -c '^polybsp:')
  if [ -z "$problem" ]; then
    if [ -z "$want" ]; then
      [ "$lines" = 0 ] && grep -q "exited on signal 9" "$err" ||
        problem="expected no polybsp line and mpirun's notice of the kill"
    elif [ "$lines" != 1 ] || ! printf '%s\n' "$got" | grep -Eqx -- "$want"; then
      problem="stderr: $(tr '\n' '|' <"$err" | cut -c1-300)"
    fi
  fi
  # Nothing may be left: the ranks (by their marked arguments, or the program's
  # path with this run's own arguments), a stopped one included.
  local left="" until=$((SECONDS + 5))
  while [ "$SECONDS" -lt "$until" ]; do
    if [ -n "$tag" ]; then
      left=$(pgrep -f "fault_mpi forever 0 $tag\$")
    else
      left=$(pgrep -f -x "$prog ${args[*]}")
    fi
    [ -z "$left" ] && break
    sleep 0.1
  done
  if [ -n "$left" ]; then
    problem="${problem:+$problem; }left running: $(echo $left)"
    kill -KILL $left 2>/dev/null
  fi
  [ -n "$victim" ] && kill -CONT "$victim" 2>/dev/null
  local took
  took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  echo "$took" >>"$err.times.$engine"
  printf '%-7s run %3d  %-36s ended in %6s s, status %3d: %s\n' "$engine" "$3" "$what" \
    "$took" "$status" "${problem:-ok}"
  [ -z "$problem" ]
}

failed=0
for engine in $engines; do
  list=$faults
  if [ -z "$list" ]; then
    [ "$engine" = threads ] && list="crash abort loop pthread_exit" || list="crash abort loop kill stop"
  fi
  read -r -a pool <<<"$list"
  passed=0
  rm -f "$err.times.$engine"
  for run in $(seq 1 "$runs"); do
    fault=${pool[$((RANDOM % ${#pool[@]}))]}
    if { [ "$engine" = threads ] && { [ "$fault" = kill ] || [ "$fault" = stop ]; }; } ||
      { [ "$engine" = mpi ] && [ "$fault" = pthread_exit ]; }; then
      echo "fault_inject: fault $fault does not apply to the $engine engine" >&2
      exit 2
    fi
    if one_run "$engine" "$fault" "$run"; then passed=$((passed + 1)); else failed=1; fi
  done
  awk -v e="$engine" -v p="$passed" -v n="$runs" -v t="$timeout" '
    { s += $1; if ($1 > m) m = $1 }
    END { printf "%s: %d of %d runs passed (POLYBSP_TIMEOUT=%s); a run ended after %.2f s at most, %.2f s on average\n", e, p, n, t, m, s / NR }' \
    "$err.times.$engine"
  rm -f "$err.times.$engine"
done
exit "$failed"
