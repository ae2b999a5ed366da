#!/bin/sh
# broadcast.sh BUILD_DIR [MACHINE_FILE] — the broadcast study of docs/
# broadcast_study.md: the library's four broadcasts at each P and size, each
# measured and predicted by BSP, D-BSP and CCM, then which one each model would
# choose and which was fastest. At P a power of two, also rootp-dbsp: Root(p) on
# bsp_partition clusters, whose trace carries the D-BSP levels. Per algorithm,
# the median over ROUNDS runs of
#   time   broadcast_study's own figure (median of 21 broadcasts, slowest process)
#   REAL, BSP, D-BSP, CCM  `polybsp predict` of 21 traced broadcasts, divided by 21;
#          D-BSP labels supersteps by their traffic (the default), D-BSP/group
#          with --dbsp-label group (the cluster also holds the syncing group)
# A choice is "tie" when the smallest value is shared (a model that predicts 0
# for several: a calibration whose fitted line is negative there).
# Not a test; prints two Markdown tables.
# Environment: BC_P (default "2 4"), BC_N (default "8 1024 65536 1048576"), ROUNDS (5),
# BC_REPS (21). PAPER_PLATFORM=NAME runs on that simulated platform instead
# (lib.sh; MACHINE_FILE, required, is the platform's calibration).
. "$(dirname "$0")/lib.sh"
paper_setup "$@"
reps=${BC_REPS:-21}
paper_program broadcast_study
rows="$tmp/rows"
: >"$rows"
echo "| P | n (bytes) | algorithm | time (s) | REAL (s) | BSP (s) | D-BSP (s) | D-BSP/group (s) | CCM (s) |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in ${BC_P:-2 4}; do
  algs="direct binomial twophase rootp"
  [ $((p & (p - 1))) -eq 0 ] && algs="$algs rootp-dbsp"
  for n in ${BC_N:-8 1024 65536 1048576}; do
    forget
    r=0
    while [ $r -lt "${ROUNDS:-5}" ]; do
      for alg in $algs; do
        out=$(paper_run "$p" broadcast_study --alg $alg -n "$n" --reps $reps --trace) || exit 1
        record $alg time "$(echo "$out" | sed -n 's/.*: median \([^ ]*\) s over.*/\1/p')"
        record_predicted $alg "$tmp/polybsp-trace.jsonl" $reps bsp dbsp ccm dbsp-group
      done
      r=$((r + 1))
    done
    for alg in $algs; do
      line="$p $n $alg $(med $alg time) $(med $alg real) $(med $alg bsp) $(med $alg dbsp) $(med $alg dbsp-group) $(med $alg ccm)"
      echo "$line" >>"$rows"
      echo "$line" | awk '{printf "| %s | %s | %s | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9}'
    done
  done
done
echo
echo "| P | n (bytes) | fastest | BSP picks | D-BSP picks | D-BSP/group picks | CCM picks |"
echo "|---|---|---|---|---|---|---|"
# The smallest time (column 4) and the smallest prediction of each model (6 to 9).
awk '{key = $1 " " $2
      if (!(key in seen)) { seen[key] = 1; order[++k] = key }
      for (c = 4; c <= 9; c++) {
        if (!((key, c) in v) || $c + 0 < v[key, c]) { v[key, c] = $c + 0; a[key, c] = $3 }
        else if ($c + 0 == v[key, c]) a[key, c] = "tie" } }
     END { for (i = 1; i <= k; i++) { split(order[i], f, " ")
             printf "| %s | %s | %s | %s | %s | %s | %s |\n", f[1], f[2], a[order[i], 4],
               a[order[i], 6], a[order[i], 7], a[order[i], 8], a[order[i], 9] } }' "$rows"
