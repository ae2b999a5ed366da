# lib.sh — sourced by the benchmarks of bench/paper: where the programs are, the
# machine file, the medians and the predictions they share.
#   paper_setup BUILD [MACHINE]  sets $bin (examples), $polybsp, $tmp (removed at
#       exit) and $machine: MACHINE, first written by `polybsp probe -p 2,4
#       --sizes 8,64,512,4096,32768` (the sizes these programs send) when that
#       file does not exist, or such a fresh calibration when none is given.
#   median N...                  the median of the numbers (the mean of the two
#       middle ones for an even count).
#   predict_total TRACE MODEL... the CSV fields of predict's total row:
#       total,real,<model>,<model>_error,...
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
  if [ ! -f "$machine" ]; then
    echo "calibrating: polybsp probe -p 2,4 --sizes 8,64,512,4096,32768 (about a minute) ..." >&2
    "$polybsp" probe -p 2,4 --sizes 8,64,512,4096,32768 -o "$machine" >/dev/null || exit 1
  fi
}

median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
    if (NR == 0) exit 1
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

predict_total() {
  trace=$1
  shift
  args=""
  for m in "$@"; do args="$args --model $m"; done
  # shellcheck disable=SC2086
  "$polybsp" predict --machine "$machine" $args --format csv "$trace" | grep '^total,'
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
  key=$1 trace=$2 runs=$3
  shift 3
  row=$(predict_total "$trace" "$@") || exit 1
  i=2
  for field in real "$@"; do
    record "$key" "$field" "$(per_run "$(echo "$row" | cut -d, -f$i)" "$runs")"
    i=$((i == 2 ? 3 : i + 2))
  done
}
