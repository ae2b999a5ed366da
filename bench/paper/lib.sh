# lib.sh — sourced by the benchmarks of bench/paper: where the programs are, the
# machine file, the medians and the predictions they share.
#   paper_setup BUILD [MACHINE]  sets $bin (examples), $polybsp, $tmp (removed at
#       exit) and $machine: MACHINE, first written by `polybsp probe -p 2,4
#       --sizes 8,64,512,4096,32768,131072 --budget 90` (about the sizes these
#       programs send) when that
#       file does not exist, or such a fresh calibration when none is given.
#       With PAPER_PLATFORM=NAME the programs run on that simulated platform
#       (docs/smpi.md) and MACHINE, required, must be its calibration
#       (polybsp probe --engine smpi --platform NAME).
#   paper_program NAME           makes example NAME runnable by paper_run: on a
#       platform, builds it with bspcc --engine smpi into $tmp/NAME.so.
#   paper_run P NAME ARGS...     one run of example NAME on P processes, in $tmp:
#       the threads engine, or polybsp run --engine smpi on PAPER_PLATFORM.
#   median N...                  the median of the numbers (the mean of the two
#       middle ones for an even count).
#   predict_total TRACE [--dbsp-label L] MODEL...
#                                the CSV fields of predict's total row:
#       total,real,<model>,<model>_error,...; MODEL dbsp is D-BSP with
#       --dbsp-label traffic, dbsp-group with --dbsp-label group (predict's
#       default since 2026-11-30).
#   record_predicted KEY TRACE RUNS MODEL...
#                                records for KEY the trace's real time (field
#       real) and each MODEL's prediction (field MODEL), divided by RUNS, the
#       runs the trace holds.
#   record KEY FIELD VALUE, med KEY FIELD, forget
#                                one value per round for a variant KEY, their
#       median, and forgetting them all (before the next configuration).
# The scripts run the variants of one configuration in turn within each round,
# so that a shared machine's drift over time hits all of them alike.
set -u
# The functions' own variables start with _pb_: sh has no local variables, and
# the scripts' loops use short names.

paper_setup() {
  if [ $# -lt 1 ] || [ ! -x "$1/tools/polybsp/polybsp" ]; then
    echo "usage: $0 BUILD_DIR [MACHINE_FILE]   (a built polybsp build directory)" >&2
    exit 2
  fi
  build=$(cd "$1" && pwd)
  bin="$build/examples"
  polybsp="$build/tools/polybsp/polybsp"
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-paper.XXXXXX") || exit 1
  trap 'rm -rf "$tmp"' EXIT HUP INT TERM
  machine=${2:-$tmp/machine.json}
  if [ -n "${PAPER_PLATFORM:-}" ] && [ ! -f "$machine" ]; then
    echo "$0: PAPER_PLATFORM needs MACHINE_FILE, the platform's calibration" >&2
    exit 2
  fi
  if [ ! -f "$machine" ]; then
    echo "calibrating: polybsp probe -p 2,4 --sizes 8,64,512,4096,32768,131072 --budget 90 (a minute or two) ..." >&2
    "$polybsp" probe -p 2,4 --sizes 8,64,512,4096,32768,131072 --budget 90 -o "$machine" >/dev/null || exit 1
  fi
}

paper_program() {
  [ -n "${PAPER_PLATFORM:-}" ] || return 0
  _pb_examples=$(cd "$(dirname "$0")/../../examples" && pwd)
  "$build/tools/bspcc/bspcc" --engine smpi -O2 -I"$_pb_examples" -o "$tmp/$1.so" \
    "$_pb_examples/$1.c" "$_pb_examples/common/ex_util.c" -lm || exit 1
}

paper_run() {
  _pb_p=$1 _pb_name=$2
  shift 2
  if [ -n "${PAPER_PLATFORM:-}" ]; then
    (cd "$tmp" && "$polybsp" run --engine smpi --platform "$PAPER_PLATFORM" -p "$_pb_p" \
      "$tmp/$_pb_name.so" "$@")
  else
    (cd "$tmp" && POLYBSP_NPROCS=$_pb_p "$bin/$_pb_name" "$@")
  fi
}

median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
    if (NR == 0) exit 1
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

predict_total() {
  _pb_trace=$1
  shift
  _pb_args=""
  for _pb_m in "$@"; do
    case $_pb_m in
      dbsp) _pb_args="$_pb_args --model dbsp --dbsp-label traffic" ;;
      dbsp-group) _pb_args="$_pb_args --model dbsp --dbsp-label group" ;;
      *) _pb_args="$_pb_args --model $_pb_m" ;;
    esac
  done
  # shellcheck disable=SC2086
  "$polybsp" predict --machine "$machine" $_pb_args --format csv "$_pb_trace" | grep '^total,'
}

record() {
  echo "$3" >>"$tmp/v.$1.$2"
}

med() {
  # shellcheck disable=SC2046
  median $(cat "$tmp/v.$1.$2")
}

forget() {
  rm -f "$tmp"/v.*
}

# per_run TOTAL RUNS: a trace's total divided by the runs it holds.
per_run() {
  awk -v x="$1" -v k="$2" 'BEGIN {print x / k}'
}

record_predicted() {
  _pb_key=$1 _pb_trace=$2 _pb_runs=$3
  shift 3
  _pb_plain=$(printf '%s\n' "$@" | grep -vx dbsp-group | tr '\n' ' ')
  # shellcheck disable=SC2086
  _pb_row=$(predict_total "$_pb_trace" $_pb_plain) || exit 1
  record "$_pb_key" real "$(per_run "$(echo "$_pb_row" | cut -d, -f2)" "$_pb_runs")"
  _pb_i=3
  for _pb_m in $_pb_plain; do
    record "$_pb_key" "$_pb_m" "$(per_run "$(echo "$_pb_row" | cut -d, -f$_pb_i)" "$_pb_runs")"
    _pb_i=$((_pb_i + 2))
  done
  if printf '%s\n' "$@" | grep -qx dbsp-group; then
    _pb_row=$(predict_total "$_pb_trace" dbsp-group) || exit 1
    record "$_pb_key" dbsp-group "$(per_run "$(echo "$_pb_row" | cut -d, -f3)" "$_pb_runs")"
  fi
}
