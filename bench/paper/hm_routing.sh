#!/bin/sh
# hm_routing.sh BUILD_DIR [MACHINE_FILE] — the (h, m)-relation routing of
# paper 002 section 5 (docs/hm_routing.md): direct one-superstep routing against
# ascend/descend on D-BSP clusters, at each P and m for a fixed h. Per route,
# the median over ROUNDS runs of
#   time   hm_routing's own figure (median of 21 routings, slowest process)
#   REAL, BSP, D-BSP  `polybsp predict` of 21 traced routings, divided by 21;
#          D-BSP labels supersteps by their traffic (the default), D-BSP/group
#          with --dbsp-label group (the cluster also holds the syncing group)
# Not a test; prints a Markdown table.
# Environment: HM_P (default "2 4"), HM_H (default 4096), HM_WORDS (default 1),
# ROUNDS (5). m takes the values h (one sender), h*P/2 and h*P (all send h).
# PAPER_PLATFORM=NAME runs on that simulated platform instead (lib.sh;
# MACHINE_FILE, required, is the platform's calibration).
. "$(dirname "$0")/lib.sh"
paper_setup "$@"
reps=21
paper_program hm_routing
h=${HM_H:-4096}
echo "| P | h | m | route | time (s) | REAL (s) | BSP (s) | D-BSP (s) | D-BSP/group (s) |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in ${HM_P:-2 4}; do
  for m in $(printf '%s\n' $h $((h * p / 2)) $((h * p)) | sort -nu); do
    forget
    r=0
    while [ $r -lt "${ROUNDS:-5}" ]; do
      for route in direct ascend; do
        out=$(paper_run "$p" hm_routing --route $route --h "$h" --m "$m" \
          --words "${HM_WORDS:-1}" --reps $reps --trace) || exit 1
        echo "$out" | sed -n 's/.*\(direct\|down to level [0-9]*\).*/\1/p' | head -n 1 >"$tmp/label.$route"
        record $route time "$(echo "$out" | sed -n 's/^time: median \([^ ]*\) s.*/\1/p')"
        record_predicted $route "$tmp/polybsp-trace.jsonl" $reps bsp dbsp dbsp-group
      done
      r=$((r + 1))
    done
    for route in direct ascend; do
      printf '| %s | %s | %s | %s | %.3g | %.3g | %.3g | %.3g | %.3g |\n' "$p" "$h" "$m" \
        "$(cat "$tmp/label.$route")" "$(med $route time)" "$(med $route real)" "$(med $route bsp)" \
        "$(med $route dbsp)" "$(med $route dbsp-group)"
    done
  done
done
