#!/usr/bin/env bash
# validate_remote.sh — the held-out validation programs predicted for a real
# machine they never ran on (issue 34; docs/validation.md, "A real second
# machine"), in two steps, since that machine may have no network, no compiler
# and none of polybsp's build dependencies:
#
#   collect, on the target: `polybsp probe` (the machine file) and traced runs
#     of the suite's programs, into OUT_DIR: machine.json, PROG.P.K.jsonl.
#     Needs only BUILD_DIR's tools/polybsp/polybsp and the suite's programs
#     (copy them, with the shared libraries they name, if the target cannot build).
#   predict, here: threads traces of the same programs at the same P (K of
#     them), each predicted for the target from OUT_DIR's machine file and
#     compared with run K there (`polybsp predict --machine OUT_DIR/machine.json
#     --against OUT_DIR/PROG.P.K.jsonl TRACE_K`); one row per program and P:
#     the median REAL there, each model's ERROR = 100 (REAL - MODEL) / REAL (the
#     median over K), the best model, BSP explaining the target's own runs
#     ("a post.": the model's own error there), the CPU time here over there
#     (summed over supersteps and processes, no rates: 1 when the programs
#     computed as fast on both machines) and the W scale predict used
#     (r(here) / r(target)). Then the goal's counts. The traces here stay in
#     OUT_DIR (here.PROG.P.K.jsonl) and are used again by a later predict
#     (another SCALE on the same traces); remove them to take new ones.
#
# Usage: bench/validate_remote.sh collect|predict BUILD_DIR OUT_DIR
# Environment:
#   PROCS     the P of the runs (default "16 4 8"; matmul only at perfect squares)
#   REPEATS   runs per program and P on each side (default 3)
#   SUITE     validation (default: the held-out programs of examples/validation)
#             or tuning (the examples the models' rules were chosen on, as
#             validate.sh's SUITE=tuning), so that a change is judged on the
#             tuning suite before the held-out one is looked at
#   PROGRAMS  the programs (default: the suite's)
#   PROBE_ARGS  collect: the probe's options (default: --budget 60 and its
#             default P, which on a machine of C cores are 2, 4, 6, 8 and C)
#   SOLO      predict: POLYBSP_SOLO of the traces here (default off: the
#             target's processes compute side by side)
#   SCALE     predict: what W is scaled by, `polybsp predict --scale`: clock
#             (default: the cores' clocks, a reading without the DAXPY's two
#             modes; chosen on the tuning suite, docs/validation.md) or rate
#             (the DAXPY rates, the papers' r and predict's default)
#   POLYBSP_RATE  predict: this machine's rate, given to every trace here
#             (default: none, each trace measures its own at its end, as the
#             target's did; the DAXPY rate has two modes about 2x apart on the
#             machines measured so far, docs/validation.md: the header prints
#             the target's, and the table's last column the CPU ratio, which
#             no rate enters)
# Not a test: both machines' load moves the figures. Exit status: 0, 1 if a run
# or a prediction failed, 2 on bad usage (one line).
set -u
case ${1:-} in
-h | --help)
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
esac
usage="usage: bench/validate_remote.sh collect|predict BUILD_DIR OUT_DIR"
die() {
    echo "validate_remote.sh: $*" >&2
    exit 2
}
[ $# -eq 3 ] || die "$usage"
step=$1
case $step in collect | predict) ;; *) die "the step must be collect or predict, got '$step'" ;; esac
[ -x "$2/tools/polybsp/polybsp" ] && [ -d "$2/examples/validation" ] ||
    die "'$2' is not a polybsp build directory (no tools/polybsp/polybsp and examples/validation)"
build=$(cd "$2" && pwd)
. "$(dirname -- "$0")/validate_common.sh" || exit 2
out=$3
polybsp=$build/tools/polybsp/polybsp
PROCS=${PROCS:-16 4 8}
REPEATS=${REPEATS:-3}
SUITE=${SUITE:-validation}
case $SUITE in
validation) PROGRAMS=${PROGRAMS:-stencil samplesort matmul bfs prefix spmv} ;;
tuning) PROGRAMS=${PROGRAMS:-inprod irregular multisearch broadcast_study hm_routing} ;;
*) die "SUITE must be validation or tuning, got '$SUITE'" ;;
esac
SOLO=${SOLO:-off}
SCALE=${SCALE:-clock}
case $SCALE in rate | clock) ;; *) die "SCALE must be rate or clock, got '$SCALE'" ;; esac
echo "$PROCS" | grep -Eqx ' *[1-9][0-9]*( +[1-9][0-9]*)* *' || die "PROCS must be whole numbers >= 1, got '$PROCS'"
echo "$REPEATS" | grep -Eqx '[1-9][0-9]{0,2}' || die "REPEATS must be a whole number from 1 to 999, got '$REPEATS'"
# program PROG: its command line (the tuning suite's inprod at n = 4000000, as
# validate.sh runs it).
program() {
    if [ "$SUITE" = validation ]; then
        echo "$build/examples/validation/val_$1"
    else
        echo "$build/examples/$1"
        [ "$1" != inprod ] || echo 4000000
    fi
}
for prog in $PROGRAMS; do
    [ -x "$(program "$prog" | head -n 1)" ] || die "no program '$prog' in the $SUITE suite of $build"
done
failed=0

if [ "$step" = collect ]; then
    mkdir -p "$out" || die "cannot create '$out'"
    read -r -a probe_args <<<"${PROBE_ARGS:---budget 60}"
    echo "validate_remote.sh: probing ($(nproc) cores)" >&2
    "$polybsp" probe -q "${probe_args[@]}" -o "$out/machine.json" >"$out/probe.txt" 2>&1 ||
        { echo "validate_remote.sh: the probe failed: $(tail -n 1 "$out/probe.txt")" >&2; exit 1; }
    for p in $PROCS; do
        for prog in $PROGRAMS; do
            runs_at "$prog" "$p" || continue
            echo "validate_remote.sh: $prog at P = $p" >&2
            mapfile -t cmd < <(program "$prog")
            for k in $(seq "$REPEATS"); do
                POLYBSP_NPROCS=$p POLYBSP_TRACE=$out/$prog.$p.$k.jsonl \
                    "${cmd[@]}" >/dev/null 2>"$out/$prog.$p.$k.err" ||
                    { echo "validate_remote.sh: $prog failed at P = $p: $(tail -n 1 "$out/$prog.$p.$k.err")" >&2; failed=1; }
            done
        done
    done
    exit "$failed"
fi

[ -s "$out/machine.json" ] || die "'$out' holds no machine.json (run the collect step on the target first)"
# Each trace here records the rate it measured at its end, after the program's
# work, as the target's traces did and as the machine file's trace_rate was
# taken after the probe's own DAXPY; POLYBSP_RATE, when given, replaces them.
rate_note=${POLYBSP_RATE:+"rate $POLYBSP_RATE flop/s (POLYBSP_RATE)"}
rate_note=${rate_note:-"each trace's own rate"}
models="bsp bspstar ebsp dbsp ccm"
target_rate=$(sed -n 's/.*"trace_rate": {"ops_per_second": \([-0-9.e+]*\)}.*/\1/p' "$out/machine.json" | head -n 1)
target_clock=$(sed -n 's/.*"trace_clock": {"ops_per_second": \([-0-9.e+]*\)}.*/\1/p' "$out/machine.json" | head -n 1)
echo "# validate_remote.sh $(date -u +%Y-%m-%dT%H:%MZ), suite $SUITE: traces here on $(uname -n) ($(nproc) cores, solo $SOLO, $rate_note) predicted for $out/machine.json (trace_rate ${target_rate:-?} flop/s, trace_clock ${target_clock:-?}/s), W scaled by the $SCALE"
echo
echo "| program | P | REAL there (s) | BSP | BSP* | EBSP | D-BSP | CCM | best | BSP a post. | CPU here / there | W scale |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for p in $PROCS; do
    for prog in $PROGRAMS; do
        runs_at "$prog" "$p" || continue
        [ -s "$out/$prog.$p.1.jsonl" ] || { echo "validate_remote.sh: no run of $prog at P = $p in $out" >&2; failed=1; continue; }
        declare -A errs=()
        reals=() posts=() ratios=() scales=()
        ok=1
        mapfile -t cmd < <(program "$prog")
        for k in $(seq "$REPEATS"); do
            there=$out/$prog.$p.$k.jsonl here=$out/here.$prog.$p.$k.jsonl
            [ -s "$there" ] || { ok=0; break; }
            [ -s "$here" ] || POLYBSP_NPROCS=$p POLYBSP_SOLO=$SOLO POLYBSP_TRACE=$here \
                "${cmd[@]}" >/dev/null 2>&1 || { ok=0; break; }
            json=$("$polybsp" predict --machine "$out/machine.json" --scale "$SCALE" --against "$there" \
                --format json "$here") || { ok=0; break; }
            for m in $models; do errs[$m]+="$(echo "$json" | total "${m}_error") "; done
            reals+=("$(echo "$json" | total real)")
            scales+=("$(echo "$json" | sed -n 's/^  "work_scale": \([-0-9.e+]*\),$/\1/p')")
            posts+=("$("$polybsp" predict --explain --machine "$out/machine.json" --model bsp --format json "$there" | total bsp_error)")
            ratios+=("$(awk -v a="$(cpu_sum "$here")" -v b="$(cpu_sum "$there")" 'BEGIN {if (b > 0) print a / b}')")
        done
        [ "$ok" = 1 ] || { echo "validate_remote.sh: $prog at P = $p failed here or has fewer than $REPEATS runs there" >&2; failed=1; continue; }
        line="| $prog | $p | $(printf '%s\n' "${reals[@]}" | median | xargs printf '%.4g')"
        best="" bestabs=""
        for m in $models; do
            e=$(echo "${errs[$m]}" | tr ' ' '\n' | grep -E '^-?[0-9]' | median)
            # A model the machine file cannot price (a probe left out its
            # noisy levels): no error, and not the best.
            [ "$e" = nan ] && { line+=" | n/a"; continue; }
            line+=" | $(printf '%.1f' "$e")"
            a=${e#-}
            if [ -z "$bestabs" ] || awk -v a="$a" -v b="$bestabs" 'BEGIN {exit !(a < b)}'; then best=$m bestabs=$a; fi
        done
        line+=" | $best | $(printf '%s\n' "${posts[@]}" | median | xargs printf '%.1f') | $(printf '%s\n' "${ratios[@]}" | median | xargs printf '%.2f') | $(printf '%s\n' "${scales[@]}" | median | xargs printf '%.3g') |"
        echo "$line" | tee -a "$rows"
    done
done
echo
awk -F'|' '{n++; e = $5; gsub(/ /, "", e); if (e != "n/a" && e + 0 <= 25 && e + 0 >= -25) bsp++
    best = 1e9
    for (k = 5; k <= 9; k++) { x = $k; gsub(/ /, "", x); if (x == "n/a") continue
        x += 0; if (x < 0) x = -x; if (x < best) best = x }
    if (best <= 10) good++ }
    END {printf "goal: BSP within 25 %% on %d of %d rows, the best model within 10 %% on %d\n", bsp, n, good}' "$rows"
exit "$failed"
