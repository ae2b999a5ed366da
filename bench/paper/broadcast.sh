#!/bin/sh
# broadcast.sh BUILD_DIR [MACHINE_FILE] — the broadcast study of docs/
# broadcast_study.md: the library's four broadcasts at each P and size, each
# measured and predicted by BSP, D-BSP and CCM, then which one each model would
# choose and which was fastest. Per algorithm, the median over ROUNDS runs of
#   time   broadcast_study's own figure (median of 21 broadcasts, slowest process)
#   REAL, BSP, D-BSP, CCM  `polybsp predict` of 21 traced broadcasts, divided by 21
# Not a test; prints two Markdown tables.
# Environment: BC_P (default "2 4"), BC_N (default "8 1024 65536 1048576"), ROUNDS (3).
. "$(dirname "$0")/lib.sh"
paper_setup "$@"
reps=21
rows="$tmp/rows"
: >"$rows"
echo "| P | n (bytes) | algorithm | time (s) | REAL (s) | BSP (s) | D-BSP (s) | CCM (s) |"
echo "|---|---|---|---|---|---|---|---|"
for p in ${BC_P:-2 4}; do
  for n in ${BC_N:-8 1024 65536 1048576}; do
    algs="direct binomial twophase rootp"
    [ $((p & (p - 1))) -eq 0 ] && algs="$algs rootp-dbsp"
    for alg in $algs; do
      times="" reals="" bsps="" dbsps="" ccms=""
      r=0
      while [ $r -lt "${ROUNDS:-3}" ]; do
        out=$(cd "$tmp" && POLYBSP_NPROCS=$p "$bin/broadcast_study" --alg $alg -n "$n" \
          --reps $reps --trace) || exit 1
        times="$times $(echo "$out" | sed -n 's/.*: median \([^ ]*\) s over.*/\1/p')"
        row=$(predict_total "$tmp/polybsp-trace.jsonl" bsp dbsp ccm) || exit 1
        set -- $(echo "$row" | tr ',' ' ')
        reals="$reals $(awk -v x="$2" -v k=$reps 'BEGIN {print x / k}')"
        bsps="$bsps $(awk -v x="$3" -v k=$reps 'BEGIN {print x / k}')"
        dbsps="$dbsps $(awk -v x="$5" -v k=$reps 'BEGIN {print x / k}')"
        ccms="$ccms $(awk -v x="$7" -v k=$reps 'BEGIN {print x / k}')"
        r=$((r + 1))
      done
      # shellcheck disable=SC2086
      line="$p $n $alg $(median $times) $(median $reals) $(median $bsps) $(median $dbsps) $(median $ccms)"
      echo "$line" >>"$rows"
      echo "$line" | awk '{printf "| %s | %s | %s | %.3g | %.3g | %.3g | %.3g | %.3g |\n", $1, $2, $3, $4, $5, $6, $7, $8}'
    done
  done
done
echo
echo "| P | n (bytes) | fastest | BSP picks | D-BSP picks | CCM picks |"
echo "|---|---|---|---|---|---|"
# The smallest time (column 4) and the smallest prediction of each model (6, 7, 8).
awk '{key = $1 " " $2
      if (!(key in seen)) { seen[key] = 1; order[++k] = key }
      for (c = 4; c <= 8; c++)
        if (!((key, c) in v) || $c + 0 < v[key, c]) { v[key, c] = $c + 0; a[key, c] = $3 } }
     END { for (i = 1; i <= k; i++) { split(order[i], f, " ")
             printf "| %s | %s | %s | %s | %s | %s |\n", f[1], f[2], a[order[i], 4],
               a[order[i], 6], a[order[i], 7], a[order[i], 8] } }' "$rows"
