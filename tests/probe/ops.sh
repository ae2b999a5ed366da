#!/bin/sh
# ops.sh TOOL MACHINE PROGRAM [ARGS] — a-priori work: PROGRAM, traced at P = 2,
# declares its operations (bsp_trace_ops, bsp_trace_ops_of), so `polybsp
# predict --work ops` predicts it from MACHINE (whose by_procs has a line for P
# = 2 and whose rates are 1e9 flop/s, 1e8 compares/s and 5e8 words/s); the
# header says so: declared work at the rates of the kinds the trace declares,
# the file, the P of the line used.
set -u
tool=$1
machine=$2
shift 2
trace=$(mktemp)
out=$(mktemp)
trap 'rm -f "$trace" "$out"' EXIT
if ! POLYBSP_TRACE=$trace "$tool" run -p 2 "$@" >/dev/null; then
    echo "FAIL: $* failed"
    exit 1
fi
if ! "$tool" predict --machine "$machine" --work ops --model bsp "$trace" >"$out"; then
    echo "FAIL: predict --work ops exited with status $?"
    exit 1
fi
case $(basename "$1") in
multisearch) kind='"compares":' rate="1e+08 compares/s" ;;
hm_routing | irregular) kind='"words":' rate="5e+08 words/s" ;;
*) kind='"ops":' rate="1e+09 flop/s" ;;
esac
if ! grep -qF -- "$kind" "$trace"; then
    echo "FAIL: the trace of $(basename "$1") declares no $kind"
    exit 1
fi
for text in "work        declared operations at 1e+09 flop/s" "$rate" \
    "machine     $machine: " "(the line of P = 2)" "BSP          "; do
    if ! grep -qF -- "$text" "$out"; then
        echo "FAIL: predict's output lacks: $text"
        cat "$out"
        exit 1
    fi
done
# A program that declares 0 for a superstep of pure communication gets "ops":0
# in its trace (not an absent field, which would mean "none declared").
case $(basename "$1") in
hello | patterns)
    if ! grep -qF '"ops":0,' "$trace"; then
        echo "FAIL: the trace of $(basename "$1") has no record with \"ops\":0"
        exit 1
    fi
    ;;
esac
