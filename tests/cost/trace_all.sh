#!/bin/sh
# trace_all.sh TOOL PROGRAM [ARGS] — under POLYBSP_TRACE every superstep from
# bsp_begin is recorded even when PROGRAM calls bsp_trace_begin/end itself (its
# --trace): process 0's steps run 0, 1, ..., N-1 without a gap, and predict
# reads the whole run ("run complete", nothing dropped).
set -u
tool=$1
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/trace-all.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT HUP INT TERM
(cd "$dir" && POLYBSP_NPROCS=2 POLYBSP_TRACE=t.jsonl "$@" >/dev/null) || { echo "FAIL: $* failed"; exit 1; }
gaps=$(grep '"pid":0,' "$dir/t.jsonl" | sed 's/^{"step":\([0-9]*\),.*/\1/' |
  awk '$1 != NR - 1 {bad++} END {print bad + 0}')
[ "$gaps" -eq 0 ] || { echo "FAIL: process 0's steps have $gaps gaps"; exit 1; }
"$tool" predict --machine "$(dirname "$0")/data/machine.json" "$dir/t.jsonl" >"$dir/out" 2>&1 ||
  { echo "FAIL: predict failed"; cat "$dir/out"; exit 1; }
grep -q "run complete" "$dir/out" || { echo "FAIL: predict does not read the whole run"; cat "$dir/out"; exit 1; }
if grep -q "^dropped" "$dir/out"; then echo "FAIL: predict dropped steps"; cat "$dir/out"; exit 1; fi
echo "OK: $(grep -c '"pid":0,' "$dir/t.jsonl") supersteps, no gap"
