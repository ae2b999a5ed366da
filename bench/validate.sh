#!/usr/bin/env bash
# validate.sh — the held-out validation suite (examples/validation, docs/
# validation.md) predicted for machines it never ran on (issue 34, item 2):
# each target is probed; then, for each program and P, REPEATS pairs are
# taken, each a threads trace here and, right after it, a run of the program
# on the target; each trace is predicted for the target (`polybsp predict
# --machine TARGET`: W = the trace's CPU time x r(here) / r(target), models.md
# "Two kinds of prediction") and compared with the run of its pair. One row
# per program, P and target with the median REAL there, each model's ERROR =
# 100 (REAL - MODEL) / REAL, the median over the pairs, and the best model;
# then where the error lies: BSP explaining the target's own run (the model's
# own error there, with W as the target charged it) and the W ratio (the
# trace's CPU time here less its copy, the W predict scales, scaled by the
# rates over the target's: 1 when W travelled exactly).
# The traces for a simulated target are taken solo as SMPI runs its ranks
# (POLYBSP_SOLO=smpi: one process computes at a time, and each first walks
# about what the simulator's own code touches between two ranks; thr_solo.h;
# `polybsp run` maps such a program among its libraries, as SMPI does;
# SOLO=on below leaves that walk out, as before 2026-12-01, SOLO=off traces
# side by side, as before 2026-11-29 night), those for the MPI engine here not
# (its ranks compute side by side, as the trace's do).
# (A pair shares the host's state: on this shared VM a program's CPU time
# moves by 10-20 % over an hour, on both sides alike, so the traces here are
# taken again for every target rather than once at the start.) Then per target
# and model, paper 002's estimates over the programs (each a family of one
# program, so eta (1) and delta coincide: max_i q_i / min_i q_i with q_i =
# REAL_i / MODEL_i, cost_portability.h) and the model to trust there (the
# smallest), with how many programs it predicts within 10 %. Last, per target
# and P, `polybsp portability --held-out-only` on the target's own runs: the
# same estimates a posteriori (each run explained by the target's machine file).
#
# Usage: bench/validate.sh BUILD_DIR
# Environment:
#   PROCS      the P of the simulated targets (default "16 64")
#   PLATFORMS  shipped platforms to predict (default: every one; see
#              `polybsp info --platforms`)
#   REPEATS    pairs per program, P and target, over which the medians are
#              taken (default 3)
#   SLOWED     a pair one of whose runs took more CPU time (the trace's,
#              summed) than the least of its side's repeats by this factor is
#              taken again, both runs, up to REPEATS times (default 1.15; 0:
#              never): on this shared VM a whole run sometimes computes up to
#              1.9x slower (the host's other load), which a median of three
#              keeps when two runs meet it. The pairs taken again are counted
#              at the end.
#   PORTABILITY_REPEATS  repeats of `polybsp portability` on each target
#              (default 3): its built-in suite names the model to trust there
#              (by its programs proper, which the probe does not run), which
#              the table then checks on these programs (0: skip)
#   MPI_PROCS  the P at which the MPI engine here is a target too, from a
#              threads trace (default 2; empty: none)
#   SUITE      validation (the default): the held-out programs of
#              examples/validation; or tuning: the examples the models' rules
#              were chosen on (inprod at n = 4000000, irregular, multisearch,
#              broadcast_study, hm_routing, at their default sizes), so that a
#              change is reported on both suites by the same measure
#   SOLO       smpi (the default): the traces for simulated targets are taken
#              with POLYBSP_SOLO=smpi; on: with POLYBSP_SOLO=on; off: with the
#              threads side by side; both: each pair takes the smpi and the
#              side-by-side traces, one after the other, before its run there:
#              the table is the smpi traces', and a second one after it the
#              other traces' against the same runs there (their goal counts
#              too), so that the two are compared in one host state
#   BASELINE   another build directory (of an earlier commit, say): each pair
#              also takes a trace with its threads programs, after the one with
#              BUILD_DIR's and under the same POLYBSP_SOLO, and a second table
#              gives their errors against the same runs there, so that a change
#              of the threads engine's measure is compared in one host state
#              (the runs there use BUILD_DIR's programs). Not with SOLO=both
#   PROGRAMS   the programs (default: the suite's, above)
#   PREDICT_FROM  pairs (the default): each pair's run there is compared with
#              the prediction from the pair's own trace here; median: each
#              model's prediction is made once from the REPEATS traces here
#              together (`polybsp predict TRACE TRACE...`: each process's W in
#              each superstep the median of theirs) and compared with each run
#              there. On the same runs (validation.md, 2026-11-29 night) median
#              did better at P = 16 and worse at P = 64: the simulator's REAL
#              keeps the host's slowed moments, which a median leaves out
#   KEEP       a directory to keep the machine files and traces in (default:
#              a temporary one, removed at the end). One that holds an earlier
#              run's is used again: its machine files, portability results and
#              pairs are not taken again, only predicted anew (give the same
#              SUITE, PROCS and REPEATS, and the earlier POLYBSP_RATE, printed
#              at its top), so that a change of predict is compared on the
#              same runs
# Not a test: these machines are loaded, and the programs' CPU time moves
# with it. The rules of the models are never chosen by these figures: they
# are the check of every rule chosen elsewhere. Exit status: 0, 1 if a run or
# a prediction failed, 2 on bad usage (one line; --help prints this text).
set -u
case ${1:-} in
-h | --help)
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
esac
if [ $# -ne 1 ] || [ ! -x "$1/tools/polybsp/polybsp" ]; then
    echo "usage: bench/validate.sh BUILD_DIR (a build with tools/polybsp/polybsp)" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
polybsp=$build/tools/polybsp/polybsp
. "$(dirname -- "$0")/validate_common.sh" || exit 2
SUITE=${SUITE:-validation}
case $SUITE in
validation) progs_dir=$build/examples/validation prefix=val_ ;;
tuning) progs_dir=$build/examples prefix= ;;
*) echo "validate.sh: SUITE must be validation or tuning, got '$SUITE'" >&2; exit 2 ;;
esac
PROCS=${PROCS:-16 64}
REPEATS=${REPEATS:-3}
SLOWED=${SLOWED:-1.15}
PORTABILITY_REPEATS=${PORTABILITY_REPEATS:-3}
SOLO=${SOLO:-smpi}
PREDICT_FROM=${PREDICT_FROM:-pairs}
# need NAME VALUE PATTERN WHAT: bad usage unless VALUE matches PATTERN (grep -E).
need() {
    echo "$2" | grep -Eqx "$3" ||
        { echo "validate.sh: $1 must be $4, got '$2'" >&2; exit 2; }
}
need REPEATS "$REPEATS" '[1-9][0-9]{0,2}' "a whole number from 1 to 999"
need PORTABILITY_REPEATS "$PORTABILITY_REPEATS" '[0-9]{1,3}' "a whole number from 0 to 999"
need SLOWED "$SLOWED" '[0-9]+(\.[0-9]*)?' "a factor such as 1.15 (0: never)"
need SOLO "$SOLO" 'smpi|on|off|both' "smpi, on, off or both"
need PREDICT_FROM "$PREDICT_FROM" 'median|pairs' "median or pairs"
BASELINE=${BASELINE:-}
if [ -n "$BASELINE" ]; then
    [ -x "$BASELINE/tools/polybsp/polybsp" ] ||
        { echo "validate.sh: BASELINE must be a build directory with tools/polybsp/polybsp, got '$BASELINE'" >&2; exit 2; }
    [ "$SOLO" != both ] || { echo "validate.sh: BASELINE and SOLO=both both take a second trace: give one" >&2; exit 2; }
    BASELINE=$(cd "$BASELINE" && pwd)
fi
MPI_PROCS=${MPI_PROCS-2}
if [ "$SUITE" = tuning ]; then
    PROGRAMS=${PROGRAMS:-inprod irregular multisearch broadcast_study hm_routing}
else
    PROGRAMS=${PROGRAMS:-stencil samplesort matmul bfs prefix spmv}
fi
# program PROG VARIANT [BUILD]: the command line of PROG's build for an engine
# (VARIANT "" threads, _mpi, _smpi.so), its arguments included; from BUILD's
# programs instead of BUILD_DIR's when given.
program() {
    local dir=$progs_dir
    [ -z "${3:-}" ] || dir=$3${progs_dir#"$build"}
    echo "$dir/$prefix$1$2"
    [ "$SUITE/$1" = tuning/inprod ] && echo 4000000
    return 0
}
PLATFORMS=${PLATFORMS:-$("$polybsp" info --platforms | awk 'NF {print $1}')}
models="bsp bspstar ebsp dbsp ccm"
if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP" && work=$(cd "$KEEP" && pwd) || exit 2
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
failed=0
# The second trace of every pair, if any: side by side (SOLO=both) or BASELINE's.
alt=
[ "$SOLO" = both ] && alt=off
[ -n "$BASELINE" ] && alt=base
rm -f "$work/rows" "$work/rows.off" "$work/rows.base" "$work/trust" "$work/slowed" # this run's, in a KEEP used again

# take PREFIX K CMD...: run K of a traced command, PREFIX.K.jsonl, unless there.
take() {
    local prefix=$1 k=$2
    shift 2
    [ -f "$prefix.$k.jsonl" ] || POLYBSP_TRACE=$prefix.$k.jsonl "$@" >/dev/null
}

# The command lines of the two sides of a pair, set by on_target: the threads
# run here (HERE_CMD; the second trace HERE_ALT_CMD, traces HERE.$alt, with
# SOLO=both or BASELINE) and the run on the target (THERE_CMD).
HERE_CMD=() HERE_ALT_CMD=() THERE_CMD=()

# pair HERE THERE K: pair K, the trace here (traces) then the run there, back
# to back, so that they meet the host in one state; 1 if a run failed. Of two
# traces, the second one's goes first in even pairs, so that neither is always
# the one taken right after a simulation (in odd pairs: BUILD_DIR's or solo's).
pair() {
    local first=("${HERE_CMD[@]}") second=("${HERE_ALT_CMD[@]}") f=$1 g=$1.$alt
    if [ ${#second[@]} -gt 0 ] && [ $(($3 % 2)) = 0 ]; then
        first=("${HERE_ALT_CMD[@]}") second=("${HERE_CMD[@]}") f=$1.$alt g=$1
    fi
    take "$f" "$3" "${first[@]}" &&
        { [ ${#second[@]} -eq 0 ] || take "$g" "$3" "${second[@]}"; } &&
        take "$2" "$3" "${THERE_CMD[@]}"
}

# slowed PREFIX: the K of PREFIX's repeats whose CPU time exceeds the least by
# SLOWED the most, as "RATIO K" (RATIO = its CPU time / the least); nothing
# when none does.
slowed() {
    for k in $(seq "$REPEATS"); do echo "$(cpu_sum "$1.$k.jsonl") $k"; done |
        sort -g | awk -v slow="$SLOWED" 'NR == 1 {least = $1} {most = $1; k = $2}
            END {if (slow > 0 && least > 0 && most > slow * least) printf "%.6g %d\n", most / least, k}'
}

# steady HERE THERE: once the REPEATS pairs are there, takes again the pair of
# the run (on either side) whose CPU time exceeds its side's least by SLOWED
# the most, at most REPEATS times. 1 if a run failed.
steady() {
    local here=$1 there=$2 n=0 worst
    [ -f "$there.steady" ] && return 0
    while [ "$n" -lt "$REPEATS" ]; do
        worst=$({ slowed "$here"; slowed "$there"; } | sort -g | tail -n 1)
        [ -n "$worst" ] || break
        worst=${worst#* }
        echo "validate.sh: pair ${there##*/}.$worst computed $SLOWED x its least repeat or more on one side: taken again" >&2
        echo "${there##*/}.$worst" >>"$work/slowed"
        rm -f "$here.$worst.jsonl" "$here.${alt:-none}.$worst.jsonl" "$there.$worst.jsonl"
        pair "$here" "$there" "$worst" || return 1
        n=$((n + 1))
    done
    touch "$there.steady"
}

# row PROG P TARGET MACHINE HERE THERE: prints the table row from the REPEATS
# pairs: REAL the median of the target's runs, each model's ERROR the median
# over the pairs of 100 (REAL_k - MODEL_k) / REAL_k, REAL_k the run K there and
# MODEL_k predicted from the REPEATS traces here together (PREDICT_FROM=median:
# the same for every k) or from trace K alone (pairs).
row() {
    local prog=$1 p=$2 target=$3 machine=$4 here=$5 there=$6
    local reals=() posts=() k real line best="" bestabs="" json
    # The target's own runs explained by its machine file: their REAL, and
    # BSP's error there (the model's own, with W as the target charged it).
    for k in $(seq "$REPEATS"); do
        json=$("$polybsp" predict --explain --machine "$machine" --model bsp \
            --format json "$there.$k.jsonl")
        reals[k]=$(echo "$json" | total real)
        posts[k]=$(echo "$json" | total bsp_error)
    done
    real=$(printf '%s\n' "${reals[@]}" | grep . | median)
    line="| $prog | $p | $target | $(printf '%.4g' "$real")"
    local traces=()
    for k in $(seq "$REPEATS"); do traces+=("$here.$k.jsonl"); done
    for m in $models; do
        [ "$PREDICT_FROM" = median ] &&
            pred=$("$polybsp" predict --machine "$machine" --model "$m" --format json \
                "${traces[@]}" 2>/dev/null | total "$m")
        err=$(for k in $(seq "$REPEATS"); do
            [ "$PREDICT_FROM" = pairs ] &&
                pred=$("$polybsp" predict --machine "$machine" --model "$m" --format json \
                    "$here.$k.jsonl" 2>/dev/null | total "$m")
            awk -v r="${reals[k]}" -v m="$pred" 'BEGIN {if (m != "" && m != "null" && r > 0) printf "%.9g\n", 100 * (r - m) / r}'
        done | median)
        [ "$err" = nan ] && err=n/a || err=$(printf '%.1f' "$err")
        line="$line | $err"
        if [ "$err" != n/a ]; then
            a=${err#-}
            if [ -z "$bestabs" ] || awk -v a="$a" -v b="$bestabs" 'BEGIN {exit !(a < b)}'; then
                bestabs=$a best=$m
            fi
        fi
    done
    # Where the error lies: BSP's own error on the target (above), and the
    # pair's W here scaled by the rates over the W the target charged.
    local rate_tg post ratios key
    # The rate predict divides by (trace_rate, else rate: formats.md).
    for key in trace_rate rate; do
        # (A probe of the smpi engine writes the object over three lines.)
        rate_tg=$(tr -d ' \n' <"$machine" | sed -n "s/.*\"$key\":{\"ops_per_second\":\([-0-9.e+]*\)}.*/\1/p")
        [ -z "$rate_tg" ] || break
    done
    post=$(printf '%s\n' "${posts[@]}" | grep . | median)
    ratios=$(for k in $(seq "$REPEATS"); do
        awk -v h="$(cpu_sum "$here.$k.jsonl" less-copy)" -v t="$(cpu_sum "$there.$k.jsonl" less-copy)" \
            -v rh="$POLYBSP_RATE" -v rt="$rate_tg" 'BEGIN {if (t > 0 && rt > 0) printf "%.9g\n", h * rh / rt / t}'
    done | median)
    echo "$line | $best | $(printf '%.1f' "$post") | $(printf '%.2f' "$ratios") |"
}

# on_target PROG P TARGET MACHINE VARIANT RUN-ARGS...: REPEATS pairs of PROG,
# each a threads trace here then a run of its VARIANT build on the target
# (`polybsp run RUN-ARGS PROGRAM`), made
# steady, then its row. The traces here are taken again for every target, so
# that each pair's two runs are minutes, not the whole script's 40, apart.
on_target() {
    local prog=$1 p=$2 target=$3 machine=$4 k
    shift 4
    runs_at "$prog" "$p" || return 0
    local tg=${target%% *}
    local here=$work/$prog.$p.here-$tg there=$work/$prog.$p.$tg
    local variant=$1
    shift
    mapfile -t HERE_CMD < <(program "$prog" "")
    local solo=off
    [ "$variant" = _smpi.so ] && solo=$SOLO
    HERE_ALT_CMD=()
    # Each trace through `polybsp run`, which starts a POLYBSP_SOLO=smpi one
    # mapped among the libraries, as SMPI maps the program (run.c); BASELINE's
    # by its own tool.
    [ "$solo" = both ] && HERE_ALT_CMD=(env POLYBSP_SOLO=off "$polybsp" run -p "$p" "${HERE_CMD[@]}") solo=smpi
    if [ -n "$BASELINE" ]; then
        mapfile -t HERE_ALT_CMD < <(program "$prog" "" "$BASELINE")
        HERE_ALT_CMD=(env POLYBSP_SOLO="$solo" "$BASELINE/tools/polybsp/polybsp" run -p "$p" "${HERE_ALT_CMD[@]}")
    fi
    HERE_CMD=(env POLYBSP_SOLO="$solo" "$polybsp" run -p "$p" "${HERE_CMD[@]}")
    mapfile -t THERE_CMD < <(program "$prog" "$variant")
    THERE_CMD=("$polybsp" run "$@" "${THERE_CMD[@]}")
    local ok=1
    for k in $(seq "$REPEATS"); do
        pair "$here" "$there" "$k" || { ok=0; break; }
    done
    [ "$ok" = 1 ] && steady "$here" "$there" ||
        { echo "validate.sh: val_$prog failed at P = $p here or on $target" >&2; failed=1; return 0; }
    row "$prog" "$p" "$target" "$machine" "$here" "$there" | tee -a "$work/rows"
    if [ -n "$alt" ]; then
        [ ${#HERE_ALT_CMD[@]} -eq 0 ] || here=$here.$alt
        row "$prog" "$p" "$target" "$machine" "$here" "$there" >>"$work/rows.$alt"
    fi
}

# trust_of TARGET P PORTABILITY-ARGS...: the model `polybsp portability` names
# to trust on the target by its built-in suite's programs proper (chosen
# without these programs), kept as "TARGET|P MODEL" in $work/trust for the per-target table.
trust_of() {
    local tg=$1 p=$2 out
    shift 2
    [ "$PORTABILITY_REPEATS" -gt 0 ] || return 0
    out=$work/$tg.$p.portability.json
    echo "validate.sh: polybsp portability on $tg at P = $p" >&2
    if [ -s "$out" ] && grep -q '"trust"' "$out"; then
        echo "validate.sh: (an earlier run's: $out)" >&2
    elif ! "$polybsp" portability -q --format json --repeats "$PORTABILITY_REPEATS" -p "$p" "$@" \
        >"$out" 2>"$out.err"; then
        echo "validate.sh: portability on $tg at P = $p failed: $(tail -n 1 "$out.err")" >&2
        failed=1
        return 0
    fi
    echo "$tg|$p $(grep -o '"trust": *"[a-z]*"' "$out" | head -n 1 | sed 's/.*"\([a-z]*\)"$/\1/')" >>"$work/trust"
}

# This machine's rate, measured once (the median of five traced runs' own
# measures) and given to every run (POLYBSP_RATE): the threads traces record it
# and the simulator charges computation by it, so that only the programs' CPU
# time differs between the two sides, not two noisy measures of the rate.
if [ -z "${POLYBSP_RATE:-}" ]; then
    POLYBSP_RATE=$(for k in 1 2 3 4 5; do
        POLYBSP_NPROCS=1 POLYBSP_TRACE=$work/rate.jsonl "$build/examples/hello" >/dev/null 2>&1
        sed -n '1s/.*"rate":\([0-9.e+]*\)}.*/\1/p' "$work/rate.jsonl"
    done | median)
fi
export POLYBSP_RATE
# The load average at the start and at the end: other jobs on this machine
# move both sides' CPU times (docs/validation.md), so the table says how quiet
# it was.
loadavg() { cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown; }
echo "# validate.sh $(date -u +%Y-%m-%dT%H:%MZ), $(uname -n), $(nproc) cores, load average $(loadavg), repeats $REPEATS, suite $SUITE, solo $SOLO, predicted from $PREDICT_FROM${BASELINE:+, baseline $BASELINE}"
echo "rate here: $POLYBSP_RATE flop/s (POLYBSP_RATE)"
echo
echo "ERROR = 100 (REAL - MODEL) / REAL percent, the median over REPEATS pairs (a threads trace here, MODEL predicted from it, then a run there, REAL)"
echo
echo "BSP a post.: BSP's ERROR explaining the target's own runs (the model's own error there);"
echo "W ratio: the trace's CPU time here less its copy (the W predict scales) x r(here) / r(target) over the target's (1: W travelled exactly)"
echo
echo "| program | P | target | REAL (s) | BSP | BSP* | EBSP | D-BSP | CCM | best | BSP a post. | W ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for platform in $PLATFORMS; do
    plist=$(echo $PROCS | tr ' ' ',')
    echo "validate.sh: probing $platform at P = $plist" >&2
    [ -s "$work/$platform.json" ] && echo "validate.sh: (an earlier run's: $work/$platform.json)" >&2 ||
    "$polybsp" probe --engine smpi --platform "$platform" --quick -q --procs "$plist" \
        -o "$work/$platform.json" >"$work/$platform.probe" 2>&1 ||
        { echo "validate.sh: probe of $platform failed" >&2; failed=1; continue; }
    for p in $PROCS; do
        trust_of "$platform" "$p" --engine smpi --platform "$platform" --machine "$work/$platform.json"
        for prog in $PROGRAMS; do
            on_target "$prog" "$p" "$platform" "$work/$platform.json" \
                _smpi.so --engine smpi --platform "$platform" -p "$p"
        done
    done
done
for p in $MPI_PROCS; do
    echo "validate.sh: probing the MPI engine at P = $p" >&2
    [ -s "$work/mpi.json" ] && echo "validate.sh: (an earlier run's: $work/mpi.json)" >&2 ||
    "$polybsp" probe --engine mpi --quick -q --procs "$p" -o "$work/mpi.json" >/dev/null 2>&1 ||
        { echo "validate.sh: MPI probe failed" >&2; failed=1; continue; }
    trust_of "mpi(here)" "$p" --engine mpi --machine "$work/mpi.json"
    for prog in $PROGRAMS; do
        on_target "$prog" "$p" "mpi (here)" "$work/mpi.json" \
            _mpi --engine mpi -p "$p"
    done
done
echo
echo "Per target: delta = eta (1) over the programs above (1 = every program's REAL / MODEL the same);"
echo "'least delta': the model of the smallest, chosen with hindsight on these programs, and how many"
echo "it predicts within 10 %; 'trust': the model \`polybsp portability\` names on the target from its"
echo "built-in suite's programs proper (PORTABILITY_REPEATS $PORTABILITY_REPEATS), and how many it predicts within 10 %"
# summary ROWS: the per-target table of ROWS (kept as ROWS.targets) and the
# goal's counts over it.
summary() {
    local rows=$1
    [ -f "$rows" ] || return 0
    echo
    echo "| target | P | BSP | BSP* | EBSP | D-BSP | CCM | least delta | within 10 % | trust | within 10 % |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    awk -F'|' -v names="$models" -v trustf="$work/trust" '
    BEGIN { while ((getline l < trustf) > 0) { split(l, f, " "); trust[f[1]] = f[2] } }
    { tg = $4; pp = $3; gsub(/ /, "", tg); gsub(/ /, "", pp); t = tg "|" pp; if (!(t in seen)) { seen[t] = 1; order[++n] = t }
      for (k = 1; k <= 5; k++) { e = $(5 + k); gsub(/ /, "", e)
          if (e == "n/a") { bad[t, k] = 1; continue }
          e += 0; q = 1 / (1 - e / 100); if (!((t, k) in lo) || q < lo[t, k]) lo[t, k] = q
          if (!((t, k) in hi) || q > hi[t, k]) hi[t, k] = q
          if (e <= 10 && e >= -10) near[t, k]++ } }
    END { split(names, nm, " "); for (k = 1; k <= 5; k++) index_of[nm[k]] = k
        for (i = 1; i <= n; i++) { t = order[i]; split(t, tp, "|"); line = "| " tp[1] " | " tp[2]; best = ""; bd = 0
            for (k = 1; k <= 5; k++) {
                if ((t, k) in bad || !((t, k) in lo)) { line = line " | n/a"; continue }
                d = hi[t, k] / lo[t, k]; line = line sprintf(" | %.2f", d)
                if (best == "" || d < bd) { best = k; bd = d } }
            line = sprintf("%s | %s | %d", line, (best == "" ? "-" : nm[best]), near[t, best])
            tr = (t in trust) ? trust[t] : ""
            if (tr in index_of) line = sprintf("%s | %s | %d", line, tr, near[t, index_of[tr]])
            else line = line " | - | - "
            print line " |" } }' "$rows" | tee "$rows.targets"

    # Issue 34's goal over the rows (numbers compared as numbers: an earlier
    # count outside this script compared them as strings and undercounted);
    # then over the rows whose W travelled (W ratio within 15 % of 1, as
    # SLOWED's default), so that what is left there is the models' error, not
    # the two sides' CPU times (docs/validation.md, "How bench/validate.sh
    # measures").
    echo
    local band
    for band in all travelled; do
        awk -F'|' -v band=$band '{ w = $13; gsub(/ /, "", w)
            if (band == "travelled" && !(w ~ /^[0-9.]+$/ && w + 0 >= 0.85 && w + 0 <= 1.15)) next
            n++; b = $6; gsub(/ /, "", b); if (b != "n/a" && b + 0 <= 25 && b + 0 >= -25) bsp++
            best = ""; for (k = 6; k <= 10; k++) { e = $k; gsub(/ /, "", e); if (e == "n/a") continue
                e += 0; if (e < 0) e = -e; if (best == "" || e < best) best = e }
            if (best != "" && best <= 10) near++ }
            END { printf "%s %d rows%s: plain BSP within 25 %% on %d, the best model within 10 %% on %d\n",
                  band == "all" ? "Goal, over" : "The same over the", n,
                  band == "all" ? "" : " whose W travelled (W ratio 0.85 to 1.15)", bsp, near }' "$rows"
    done
    programs=$(echo $PROGRAMS | wc -w)
    awk -F'|' -v want=$((programs - 1)) '{ n++; k = $12; gsub(/ /, "", k); if (k != "-" && k + 0 >= want) ok++ }
        END { printf "The model portability names within 10 %% on at least %d programs: at %d of %d targets\n", want, ok, n }' "$rows.targets"
    echo "W ratio over the rows: median $(awk -F'|' '{ gsub(/ /, "", $13); print $13 }' "$rows" | median)"
}

summary "$work/rows"
if [ -n "$alt" ] && [ -f "$work/rows.$alt" ]; then
    echo
    if [ "$alt" = off ]; then
        echo "The same runs there predicted from the traces taken side by side (POLYBSP_SOLO=off) in each pair:"
    else
        echo "The same runs there predicted from the traces of BASELINE ($BASELINE) in each pair:"
    fi
    echo
    echo "| program | P | target | REAL (s) | BSP | BSP* | EBSP | D-BSP | CCM | best | BSP a post. | W ratio |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$work/rows.$alt"
    summary "$work/rows.$alt"
fi

# Paper 002's estimates a posteriori: each target's own runs of the programs,
# explained by its machine file (`polybsp portability --held-out-only`), the
# model to trust by them beside the one the a priori table above names.
echo
echo "Pairs taken again as slowed (SLOWED $SLOWED): $(cat "$work/slowed" 2>/dev/null | wc -l)"
echo "Load average at the end ($(date -u +%H:%MZ)): $(loadavg)"
echo
echo "Held-out estimates on each target: its runs explained by its machine file (polybsp portability --held-out-only)"
for target in $PLATFORMS mpi; do
    [ -f "$work/$target.json" ] || continue
    for p in $PROCS $MPI_PROCS; do
        held=()
        for t in "$work"/*."$p.$target".*.jsonl; do
            [ -f "$t" ] && held+=(--held-out "$t")
        done
        [ ${#held[@]} -gt 0 ] || continue
        echo
        echo "$target, P = $p:"
        "$polybsp" portability --machine "$work/$target.json" --held-out-only "${held[@]}" |
            sed -n '/^program /,$p' || failed=1
    done
done
exit $failed
