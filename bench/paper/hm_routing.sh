#!/bin/sh
# hm_routing.sh BUILD_DIR [MACHINE_FILE] — the (h, m)-relation routing of
# paper 002 section 5 (docs/hm_routing.md): direct one-superstep routing against
# ascend/descend on D-BSP clusters, at each P and m for a fixed h. Per route,
# the median over ROUNDS runs of
#   time   hm_routing's own figure (median of 21 routings, slowest process)
#   REAL, BSP, D-BSP  `polybsp predict` of 21 traced routings, divided by 21
# Not a test; prints a Markdown table.
# Environment: HM_P (default "2 4"), HM_H (default 4096), HM_WORDS (default 1),
# ROUNDS (3). m takes the values h (one sender), h*P/2 and h*P (all send h).
. "$(dirname "$0")/lib.sh"
paper_setup "$@"
reps=21
h=${HM_H:-4096}
echo "| P | h | m | route | time (s) | REAL (s) | BSP (s) | D-BSP (s) |"
echo "|---|---|---|---|---|---|---|---|"
for p in ${HM_P:-2 4}; do
  for m in $h $((h * p / 2)) $((h * p)); do
    for route in direct ascend; do
      times="" reals="" bsps="" dbsps=""
      r=0
      while [ $r -lt "${ROUNDS:-3}" ]; do
        out=$(cd "$tmp" && POLYBSP_NPROCS=$p "$bin/hm_routing" --route $route --h "$h" --m "$m" \
          --words "${HM_WORDS:-1}" --reps $reps --trace) || exit 1
        label=$(echo "$out" | sed -n 's/.*\(direct\|down to level [0-9]*\).*/\1/p' | head -n 1)
        times="$times $(echo "$out" | sed -n 's/^time: median \([^ ]*\) s.*/\1/p')"
        row=$(predict_total "$tmp/polybsp-trace.jsonl" bsp dbsp) || exit 1
        set -- $(echo "$row" | tr ',' ' ')
        reals="$reals $(awk -v x="$2" -v k=$reps 'BEGIN {print x / k}')"
        bsps="$bsps $(awk -v x="$3" -v k=$reps 'BEGIN {print x / k}')"
        dbsps="$dbsps $(awk -v x="$5" -v k=$reps 'BEGIN {print x / k}')"
        r=$((r + 1))
      done
      # shellcheck disable=SC2086
      printf '| %s | %s | %s | %s | %.3g | %.3g | %.3g | %.3g |\n' "$p" "$h" "$m" "$label" \
        "$(median $times)" "$(median $reals)" "$(median $bsps)" "$(median $dbsps)"
    done
  done
done
