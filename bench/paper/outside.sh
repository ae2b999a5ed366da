#!/bin/sh
# outside.sh — three programs outside the portability suite, traced on a
# simulated platform and predicted by every model (docs/dbsp_tori.md, section
# 3): hm_routing --route direct, hm_routing --route ascend (the (h, m)-routing
# of paper 002, default h and m) and multisearch (paper 003, default n, d,
# depth), one traced run each on PAPER_PLATFORM, predicted with MACHINE_FILE,
# the platform's calibration (bench/paper/eta.sh with MACHINE_DIR keeps one).
#
#   PAPER_PLATFORM=NAME bench/paper/outside.sh BUILD_DIR MACHINE_FILE
#   e.g. PAPER_PLATFORM=fattree-64 OUT_P=64 bench/paper/outside.sh build fattree-64-64.json
#
# Prints one Markdown table, milliseconds per routing or search: REAL (the
# trace as predict reads it), BSP, EBSP, D-BSP, CCM (plain supersteps by their
# pattern, the default) and CCM with --ccm-plain bsp.
# Environment: OUT_P (processes, default 64), HM_REPS (routings traced, each
# the mean of them; default 5). Progress on stderr. Not a test; about a minute
# at P = 64 on 2 cores.
# Exit status 0; 1 if a run or a prediction fails; 2 on bad usage (one line;
# --help prints this text).
case ${1:-} in
-h | --help)
  sed -n '2,/^case/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
  ;;
esac
if [ -z "${PAPER_PLATFORM:-}" ] || [ $# -ne 2 ]; then
  echo "usage: PAPER_PLATFORM=NAME $0 BUILD_DIR MACHINE_FILE   (the platform's calibration)" >&2
  exit 2
fi
. "$(dirname "$0")/lib.sh"
paper_setup "$@"
P=${OUT_P:-64}
reps=${HM_REPS:-5}
paper_program hm_routing
paper_program multisearch
ms() { awk -v x="$1" -v k="$2" 'BEGIN { printf "%.3g", x / k * 1e3 }'; }
echo "| program | REAL | BSP | EBSP | D-BSP | CCM (patterns) | CCM (\`--ccm-plain bsp\`) |"
echo "|---|---|---|---|---|---|---|"
for prog in direct ascend multisearch; do
  echo "outside: $prog on $PAPER_PLATFORM, P = $P ..." >&2
  case $prog in
  multisearch)
    runs=1 label='`multisearch`'
    out=$(paper_run "$P" multisearch --reps 1 --trace) || exit 1
    ;;
  *)
    runs=$reps label="\`hm_routing --route $prog\`"
    out=$(paper_run "$P" hm_routing --route $prog --reps "$reps" --trace) || exit 1
    ;;
  esac
  echo "$out" | head -n 1 | sed 's/^/outside:   /' >&2
  t="$tmp/polybsp-trace.jsonl"
  row=$(predict_total "$t" bsp ebsp dbsp ccm) || exit 1
  plain=$("$polybsp" predict --machine "$machine" --model ccm --ccm-plain bsp --format csv "$t" |
    grep '^total,') || exit 1
  echo "$row" | awk -F, -v p="$plain" -v k="$runs" -v l="$label" '{
    split(p, q, ",")
    printf "| %s | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |\n", l, $2 / k * 1e3, $3 / k * 1e3,
      $5 / k * 1e3, $7 / k * 1e3, $9 / k * 1e3, q[3] / k * 1e3 }'
done
