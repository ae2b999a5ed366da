#!/bin/sh
# multisearch.sh BUILD_DIR [MACHINE_FILE] — the multisearch of paper 003 (docs/
# multisearch.md): for each P, n and version, the median over ROUNDS runs of
#   time   the program's own --time figure (median of 11 searches, slowest process)
#   REAL   one traced search, as `polybsp predict` reads it
#   BSP, BSP*  the models' predictions of that traced search (measured work w)
#   msgs   the messages the search sends (all processes)
# Versions: bsp-single (random mapping, a message per record: the paper's bad
# case), bsp (random mapping, one message per destination and kind), bspstar
# (z-mapping with z from the machine's B). Not a test; prints a Markdown table.
# Environment: MS_P (default "2 4"), MS_N (default "32 256 65536"), ROUNDS (5).
. "$(dirname "$0")/lib.sh"
paper_setup "$@"
B=$(sed -n 's/.*"B": *\([0-9.eE+-]*\).*/\1/p' "$machine" | head -n 1)
B=${B%.*}
versions="bsp-single bsp bspstar"
echo "| P | n | version | msgs | time (s) | REAL (s) | BSP (s) | BSP* (s) |"
echo "|---|---|---|---|---|---|---|---|"
for p in ${MS_P:-2 4}; do
  for n in ${MS_N:-32 256 65536}; do
    forget
    r=0
    while [ $r -lt "${ROUNDS:-5}" ]; do
      for v in $versions; do
        case $v in
          bsp-single) args="--mapping random --messages single" ;;
          bsp) args="--mapping random" ;;
          bspstar) args="--mapping z --block ${B:-256}" ;;
        esac
        # shellcheck disable=SC2086
        out=$(cd "$tmp" && POLYBSP_NPROCS=$p "$bin/multisearch" -n "$n" -d 16 --depth 4 $args \
          --time --trace) || exit 1
        record $v msgs "$(echo "$out" | sed -n 's/.* \([0-9]*\) messages$/\1/p')"
        record $v time "$(echo "$out" | sed -n 's/^time: median \([^ ]*\) s.*/\1/p')"
        record_predicted $v "$tmp/polybsp-trace.jsonl" 1 bsp bspstar
      done
      r=$((r + 1))
    done
    for v in $versions; do
      printf '| %s | %s | %s | %s | %.3g | %.3g | %.3g | %.3g |\n' "$p" "$n" "$v" "$(med $v msgs)" \
        "$(med $v time)" "$(med $v real)" "$(med $v bsp)" "$(med $v bspstar)"
    done
  done
done
