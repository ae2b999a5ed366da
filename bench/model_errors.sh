#!/usr/bin/env bash
# model_errors.sh — how close each cost model's total comes to the real time, for
# every example but hello (it has no superstep) and for the Exchange, PingPong
# and irregular patterns (issue 10, item 6): per program and P, the median REAL
# over the repeats, plain BSP's ERROR and the best model's (the smallest
# |ERROR|), as a Markdown table, with ERROR = 100 (REAL - MODEL) / REAL of
# `polybsp predict` (work = measured w).
#
# Usage: bench/model_errors.sh BUILD_DIR [MACHINE_FILE ...]
# Environment:
#   PROCS    the numbers of processes, e.g. "2 4" (default: 2)
#   REPEATS  traced runs per program and P; each ERROR is the median (default 5)
#   WORK     the `predict --work` to compare on the same traces (default:
#            measured, w less the put calls' copying), e.g. "measured whole ops"
#   FAULTS   the `predict --faults` charges to compare on the same traces, e.g.
#            "none fresh after-read kind" (default: kind, predict's); one row
#            per program, work and charge
#   EDUPACK  a BSPedupack 2.0 source tree (fetched outside the repository):
#            its inprod, sort, lu, fft and (at P = 2) matvec join the programs,
#            programs nobody tuned the models to. They are built in the temp
#            directory with the build's bspcc (MulticoreBSP dialect, threads
#            engine), unchanged, and traced whole (POLYBSP_TRACE)
# Without MACHINE_FILE, `polybsp probe` (its default budget) calibrates first at
# the P of PROCS, and again after the programs: the two probes' g are printed
# after the table, and when they differ by more than a fifth the machine
# changed speed during the run (a VM's states), which no model follows. With
# several, every trace is predicted with each (a column `machine` names it), so
# that probes are compared on the same runs. Builds nothing (but BSPedupack,
# with EDUPACK). Not a test: the figures depend on the machine and its load. Exit status: 0, 1 if a program or predict failed, 2 on bad usage.
set -u

if [ $# -lt 1 ] || [ ! -x "$1/tools/polybsp/polybsp" ]; then
  echo "usage: $0 BUILD_DIR [MACHINE_FILE ...]   (a built polybsp build directory)" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
polybsp="$build/tools/polybsp/polybsp"
ex="$build/examples"
procs="${PROCS:-2}"
repeats="${REPEATS:-5}"
works="${WORK:-measured}"
charges="${FAULTS:-kind}"
for c in $charges; do
  case $c in none | fresh | after-read | kind) ;; *) echo "$0: FAULTS holds kind, fresh, after-read or none, not '$c'" >&2; exit 2 ;; esac
done
if [ -n "${EDUPACK:-}" ] && { [ ! -f "$EDUPACK/bspedupack.h" ] || [ ! -f "$EDUPACK/bsplu_test.c" ]; }; then
  echo "$0: EDUPACK='$EDUPACK' is not a BSPedupack 2.0 source tree" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/model_errors.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

machines=()
for m in "${@:2}"; do
  [ -r "$m" ] || { echo "$0: cannot read machine file '$m'" >&2; exit 2; }
  machines+=("$(cd "$(dirname "$m")" && pwd)/$(basename "$m")")
done
if [ ${#machines[@]} -eq 0 ]; then
  machines=("$work/machine.json")
  list=$(echo "$procs" | tr ' ' ',')
  echo "model_errors: polybsp probe -p $list ..." >&2
  "$polybsp" probe -p "$list" -o "${machines[0]}" >/dev/null 2>&1 || { echo "model_errors: probe failed" >&2; exit 1; }
  probed=1
fi
# A variant is machine/work/faults, the machine by its index in machines.
variants=""
for w in $works; do
  case $w in measured | whole | ops) ;; *) echo "$0: WORK holds measured, whole or ops, not '$w'" >&2; exit 2 ;; esac
  for c in $charges; do
    for i in "${!machines[@]}"; do variants="$variants $i/$w/$c"; done
  done
done
several=$((${#machines[@]} > 1))

# name|command: the command runs in $work with POLYBSP_NPROCS=P (and $P set)
# and writes $work/polybsp-trace.jsonl (POLYBSP_TRACE for whole runs; the FFT
# and the examples with --trace trace their timed part only).
programs=(
  "hello|POLYBSP_TRACE=polybsp-trace.jsonl $ex/hello"
  "inprod 10^6|POLYBSP_TRACE=polybsp-trace.jsonl $ex/inprod 1000000"
  "irregular 40 rounds|POLYBSP_TRACE=polybsp-trace.jsonl $ex/irregular 40"
  "fft dc 2^18|$ex/fft/fft --algo dc -n 2^18 --trace"
  "fft four-step 2^18|$ex/fft/fft --algo bsp -n 2^18 --trace"
  "exchange h=6720|POLYBSP_TRACE=polybsp-trace.jsonl $ex/patterns exchange 6720 50"
  "exchange h=430080|POLYBSP_TRACE=polybsp-trace.jsonl $ex/patterns exchange 430080 20"
  "pingpong h=6720|POLYBSP_TRACE=polybsp-trace.jsonl $ex/patterns pingpong 6720 50"
  "pingpong h=430080|POLYBSP_TRACE=polybsp-trace.jsonl $ex/patterns pingpong 430080 20"
  "multisearch random n=2^18|$ex/multisearch -n 262144 --mapping random --trace"
  "multisearch z n=2^18|$ex/multisearch -n 262144 --mapping z --trace"
  "hm_routing direct|$ex/hm_routing --route direct --h 4096 --m 8192 --words 16 --trace"
  "hm_routing ascend|$ex/hm_routing --route ascend --h 4096 --m 8192 --words 16 --trace"
  "bcast binomial 1 MiB|$ex/broadcast_study --alg binomial -n 1048576 --trace"
  "bcast twophase 1 MiB|$ex/broadcast_study --alg twophase -n 1048576 --trace"
)
if [ -n "${EDUPACK:-}" ]; then
  edu="$work/bspedupack"
  cp -r "$EDUPACK" "$edu" && rm -f "$edu"/*.o
  if ! make -C "$edu" CC="$build/tools/bspcc/bspcc --mcbsp --engine threads" inprod sort lu fft matvec \
      >"$work/edupack-make.log" 2>&1; then
    echo "$0: building BSPedupack failed:" >&2
    tail -5 "$work/edupack-make.log" >&2
    exit 1
  fi
  # Each reads P and its sizes from stdin, as its runtests feeds them; the LU
  # runs on a 1 x P grid, the FFT needs a power of two, and matvec's test
  # matrix is distributed for P = 2 (the name says so; other P skip it).
  in='POLYBSP_TRACE=polybsp-trace.jsonl'
  programs+=(
    "BSPedupack inprod n=10^6|printf '%s\\n' \$P 1000000 | $in $edu/inprod"
    "BSPedupack sort N=10^6|printf '%s\\n' \$P 1000000 | $in $edu/sort"
    "BSPedupack lu n=1000|printf '%s\\n' 1 \$P 1000 | $in $edu/lu"
    "BSPedupack fft n=2^18|printf '%s\\n' \$P 262144 | $in $edu/fft"
    "BSPedupack matvec (P = 2)|printf '%s\\n' 2 $edu/test.mtx-P2 $edu/test.mtx-v2 $edu/test.mtx-u2 | $in $edu/matvec"
  )
fi

echo "machine: ${machines[*]}; $repeats runs per program, medians; $(date -u +%Y-%m-%dT%H:%MZ), $(uname -n)"
echo
if [ $several = 1 ]; then
  echo "| program | P | machine | work/faults | REAL (s) | BSP ERROR % | best model | its ERROR % |"
  echo "|---|---|---|---|---|---|---|---|"
else
  echo "| program | P | work/faults | REAL (s) | BSP ERROR % | best model | its ERROR % |"
  echo "|---|---|---|---|---|---|---|"
fi
status=0
# Rounds are the outer loop, so that the host's noise (a shared VM's stalls
# come and go for minutes) falls on every program alike, not on one.
for P in $procs; do
  declare -A failed=()
  for ((r = 0; r < repeats; r++)); do
    for idx in "${!programs[@]}"; do
      entry=${programs[$idx]}
      name=${entry%%|*}
      cmd=${entry#*|}
      [ -n "${failed[$idx]:-}" ] && continue
      case $name in *"(P = 2)"*) [ "$P" = 2 ] || continue ;; esac
      [ $r -eq 0 ] && for v in $variants; do : >"$work/totals.$P.$idx.${v//\//.}.csv"; done
      rm -f "$work/polybsp-trace.jsonl"
      if ! (cd "$work" && unset POLYBSP_TRACE && export POLYBSP_NPROCS=$P && eval "$cmd" >/dev/null 2>&1); then
        echo "model_errors: $name at P = $P failed" >&2
        status=1
        failed[$idx]=1
        continue
      fi
      for v in $variants; do
        totals="$work/totals.$P.$idx.${v//\//.}.csv"
        mi=${v%%/*} wc=${v#*/}
        # The header, then the total row, of predict's CSV.
        if ! "$polybsp" predict --machine "${machines[$mi]}" --work "${wc%/*}" --faults "${wc#*/}" --format csv \
            "$work/polybsp-trace.jsonl" >"$work/predict.csv" 2>"$work/predict.err"; then
          echo "model_errors: $name at P = $P: $(cat "$work/predict.err")" >&2
          status=1
          failed[$idx]=1
          continue 2
        fi
        [ -s "$totals" ] || head -1 "$work/predict.csv" >"$totals"
        tail -1 "$work/predict.csv" >>"$totals"
      done
    done
  done
  for idx in "${!programs[@]}"; do
    [ -n "${failed[$idx]:-}" ] && continue
    entry=${programs[$idx]}
    name=${entry%%|*}
    case $name in *"(P = 2)"*) [ "$P" = 2 ] || continue ;; esac
    for v in $variants; do
    # Median of each column over the repeats; then BSP's ERROR and the best one.
    mi=${v%%/*}
    label=$P
    [ $several = 1 ] && label="$P | $(basename "${machines[$mi]}")"
    awk -F, -v name="$name" -v P="$label" -v charge="${v#*/}" '
      function median(col,   n, i, v, s, t) {
        n = 0
        for (i = 2; i <= NR; i++) if (cell[i, col] != "" && cell[i, col] != "n/a") v[++n] = cell[i, col] + 0
        if (n == 0) return "n/a"
        for (s = 2; s <= n; s++) for (t = s; t > 1 && v[t - 1] > v[t]; t--) { x = v[t]; v[t] = v[t - 1]; v[t - 1] = x }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      }
      { for (c = 1; c <= NF; c++) cell[NR, c] = $c; if (NR == 1) for (c = 1; c <= NF; c++) head[c] = $c }
      END {
        real = median(2); bsp = "n/a"; best = ""; besterr = "n/a"
        for (c = 3; c <= NF; c++) {
          if (head[c] !~ /_error$/) continue
          e = median(c); model = substr(head[c], 1, length(head[c]) - 6)
          if (model == "bsp") bsp = e
          if (e != "n/a" && (besterr == "n/a" || (e < 0 ? -e : e) < (besterr < 0 ? -besterr : besterr))) { besterr = e; best = model }
        }
        printf "| %s | %s | %s | %.4g | %s | %s | %s |\n", name, P, charge, real,
               bsp == "n/a" ? "n/a" : sprintf("%.1f", bsp), best == "" ? "-" : best,
               besterr == "n/a" ? "n/a" : sprintf("%.1f", besterr)
      }' "$work/totals.$P.$idx.${v//\//.}.csv"
    done
  done
  unset failed
done
if [ -n "${probed:-}" ]; then
  # g of the file's "bsp" line, as the probe writes it on one line.
  g_of() { sed -n 's/^ *"bsp": {"g": \([^,]*\),.*/\1/p' "$1"; }
  if "$polybsp" probe -p "$list" -o "$work/after.json" >/dev/null 2>&1; then
    awk -v a="$(g_of "${machines[0]}")" -v b="$(g_of "$work/after.json")" 'BEGIN {
      d = a > 0 ? 100 * (b - a) / a : 0
      printf "\nprobe before the programs: g = %.3g s/byte; after: g = %.3g (%+.0f %%)%s\n", a, b, d,
             (d > 20 || d < -20) ? ": the machine changed speed during the run, so these ERRORs are partly the machine'"'"'s" : ""
    }'
  else
    echo "model_errors: the probe after the programs failed" >&2
  fi
fi
exit $status
