#!/usr/bin/env bash
# mcbsp.sh — polybsp against its anchor, MulticoreBSP for C, on the same programs.
#
# Usage: bench/anchor/mcbsp.sh [--rounds N] [--procs LIST] [--edupack DIR] [--work DIR]
#                              MCBSP_SRC_DIR [POLYBSP_BUILD_DIR]
#        bench/anchor/mcbsp.sh --reuse [--rounds N] [--procs LIST] --work DIR
#
# Builds MulticoreBSP for C (2.0.x) from the source tree MCBSP_SRC_DIR, fetched by
# the user outside the repository (never committed), in a copy under the work
# directory (default ${TMPDIR:-/tmp}/polybsp-anchor-mcbsp), with its own Makefile
# and default flags. Then compiles the same programs, with the same compiler and
# flags, against polybsp (POLYBSP_BUILD_DIR's bspcc --mcbsp; default: the build
# directory next to this script's repository) and against MulticoreBSP:
#   - bench/anchor/anchor.c: empty superstep, 8-byte bsp_put, Exchange with
#     bsp_put and bsp_hpput, at each P of --procs (even numbers, comma-separated,
#     default 2; keep them within the cores: both libraries pin their threads);
#   - with --edupack DIR, BSPedupack 2.0's bspbench (DIR/bspbench.c and
#     DIR/bspedupack.c): g and l in flops at P = 2.
# With --reuse nothing is built: the work directory already holds what an earlier
# run built there (anchor.polybsp, anchor.mcbsp, mcbsp/version.mk; the programs
# link polybsp and MulticoreBSP statically), copied, say, to a machine with more
# cores and without polybsp's build dependencies.
# Runs them for N rounds (default 5), the two libraries alternating within a round
# and swapping who goes first every round, and prints a Markdown table: the median
# over rounds of each figure, the spread (max/min over rounds) and the ratio
# polybsp speed / MulticoreBSP speed (> 1: polybsp ahead; for times and for g and l
# that is MulticoreBSP's figure over polybsp's). Progress goes to stderr.
# Environment: CC (default cc), BENCH_FLAGS (default -O3 -march=native),
# BENCH_REPS (batches inside each anchor run, default 21).
# Exit status: 0, 1 if a build or a run failed, 2 on bad usage.
set -u

usage="usage: mcbsp.sh [--reuse] [--rounds N] [--procs LIST] [--edupack DIR] [--work DIR] MCBSP_SRC_DIR [POLYBSP_BUILD_DIR]"
die() {
    echo "mcbsp.sh: $*" >&2
    exit 2
}

here=$(cd -- "$(dirname -- "$0")" && pwd)
repo=$(cd -- "$here/../.." && pwd)
rounds=5
procs=2
reuse=0
edupack=
work=${TMPDIR:-/tmp}/polybsp-anchor-mcbsp
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"
        exit 0
        ;;
    --rounds) [ $# -ge 2 ] || die "option '--rounds' needs a value"; rounds=$2; shift 2 ;;
    --procs) [ $# -ge 2 ] || die "option '--procs' needs a value"; procs=$2; shift 2 ;;
    --reuse) reuse=1; shift ;;
    --edupack) [ $# -ge 2 ] || die "option '--edupack' needs a value"; edupack=$2; shift 2 ;;
    --work) [ $# -ge 2 ] || die "option '--work' needs a value"; work=$2; shift 2 ;;
    --) shift; break ;;
    -*) die "unknown option '$1' ($usage)" ;;
    *) break ;;
    esac
done
case $rounds in '' | *[!0-9]*) die "--rounds needs a whole number >= 1, got '$rounds'" ;; esac
[ "$rounds" -ge 1 ] || die "--rounds needs a whole number >= 1, got '$rounds'"
echo "$procs" | grep -Eqx '[0-9]*[02468](,[0-9]*[02468])*' && ! echo ",$procs" | grep -Eq ',0*(,|$)' ||
    die "--procs needs even numbers >= 2, comma-separated, got '$procs'"
procs=${procs//,/ }
# build_all SRC [BUILD]: MulticoreBSP, then the programs against both libraries.
build_all() {
    mcbsp_src=$1
    build=${2:-$repo/build}
    [ -f "$mcbsp_src/bsp.c" ] && [ -f "$mcbsp_src/include.mk" ] ||
        die "'$mcbsp_src' is not a MulticoreBSP for C source tree (no bsp.c and include.mk)"
    bspcc=$build/tools/bspcc/bspcc
    [ -x "$bspcc" ] || die "'$build' is not a built polybsp build directory (no tools/bspcc/bspcc)"
    if [ -n "$edupack" ]; then
        [ -f "$edupack/bspbench.c" ] && [ -f "$edupack/bspedupack.c" ] ||
            die "'$edupack' is not a BSPedupack 2.0 tree (no bspbench.c and bspedupack.c)"
        [ -f "$edupack/bspedupack.h" ] || die "'$edupack' is not a BSPedupack 2.0 tree (no bspedupack.h)"
    fi
    mcbsp_src=$(cd -- "$mcbsp_src" && pwd)
    [ -z "$edupack" ] || edupack=$(cd -- "$edupack" && pwd)
    cc=${CC:-cc}
    read -r -a flags <<<"${BENCH_FLAGS:--O3 -march=native}"

    mkdir -p "$work" || die "cannot create the work directory '$work'"
    work=$(cd -- "$work" && pwd)
    case $work/ in "$repo"/*) case $work/ in "$repo"/build*) ;; *) die "the work directory must be outside the source tree" ;; esac ;; esac
    log=$work/build.log
    : >"$log"

    # --- MulticoreBSP, built from a clean copy of the given tree ------------------
    echo "mcbsp.sh: building MulticoreBSP for C from $mcbsp_src in $work/mcbsp" >&2
    rm -rf "$work/mcbsp"
    mkdir -p "$work/mcbsp"
    # A fetched tree may hold the author's objects and libraries: leave them behind.
    (cd "$mcbsp_src" && tar -c --exclude='*.o' --exclude='*.a' --exclude='*.so*' \
        --exclude=./lib --exclude=./include .) | tar -x -C "$work/mcbsp" || fail "cannot copy $mcbsp_src"
    make -C "$work/mcbsp" -j2 library >>"$log" 2>&1 || fail "building MulticoreBSP failed"
    mcbsp_lib=$(ls "$work/mcbsp"/lib/libmcbsp*.a 2>/dev/null | head -n 1)
    [ -n "$mcbsp_lib" ] || fail "MulticoreBSP's build left no lib/libmcbsp*.a"

    # --- the same programs against both libraries ---------------------------------
    bench=$repo/bench
    anchor_src=("$bench/anchor/anchor.c" "$bench/bench_bsp.c" "$bench/bench_util.c")
    build_both() { # build_both NAME SOURCES...: $work/NAME.polybsp and $work/NAME.mcbsp
        local name=$1
        shift
        echo "== $bspcc --mcbsp ... -o $name.polybsp" >>"$log"
        BSPCC_CC=$cc "$bspcc" --mcbsp "${flags[@]}" -std=gnu11 -I"$bench" -o "$work/$name.polybsp" \
            "$@" -lm >>"$log" 2>&1 || fail "compiling $name against polybsp failed"
        echo "== $cc ... -o $name.mcbsp" >>"$log"
        "$cc" "${flags[@]}" -std=gnu11 -pthread -I"$work/mcbsp/include" -I"$bench" -o "$work/$name.mcbsp" \
            "$@" "$mcbsp_lib" -pthread -lrt -lm >>"$log" 2>&1 || fail "compiling $name against MulticoreBSP failed"
    }
    build_both anchor "${anchor_src[@]}"
    # Built from a copy of its three files: some BSPedupack trees carry a bsp.h of
    # their own (MulticoreBSP's), which "bsp.h" would find beside the sources first.
    if [ -n "$edupack" ]; then
        mkdir -p "$work/edupack" && cp "$edupack"/bspbench.c "$edupack"/bspedupack.[ch] "$work/edupack/" ||
            fail "cannot copy BSPedupack's bspbench.c and bspedupack.[ch] from $edupack"
        build_both bspbench "$work/edupack/bspbench.c" "$work/edupack/bspedupack.c"
    fi
}

fail() {
    echo "mcbsp.sh: $* (see $log)" >&2
    exit 1
}
if [ "$reuse" = 1 ]; then
    [ $# -eq 0 ] || die "--reuse builds nothing: give no source or build directory"
    [ -x "$work/anchor.polybsp" ] && [ -x "$work/anchor.mcbsp" ] ||
        die "--reuse: '$work' holds no anchor.polybsp and anchor.mcbsp (run once without --reuse there)"
    [ -z "$edupack" ] || die "--reuse runs the anchor only: no --edupack"
    work=$(cd -- "$work" && pwd)
    log=$work/run.log
    : >"$log"
else
    [ $# -ge 1 ] && [ $# -le 2 ] || die "$usage"
    build_all "$@"
fi
mcbsp_version=$(sed -n 's/^VERSION=//p' "$work/mcbsp/version.mk" 2>/dev/null)

# --- rounds, alternating -------------------------------------------------------
results=$work/results # lines: LIB P KEY VALUE UNIT
: >"$results"
run_anchor() { # run_anchor LIB P
    local out
    out=$(cd "$work" && "./anchor.$1" "$2") || { printf '%s\n' "$out" >>"$log"; fail "anchor.$1 $2 failed"; }
    printf '%s\n' "$out" | awk -v lib="$1" -v p="$2" '$1 == "result" { print lib, p, $2, $3, $4 }' >>"$results"
}
run_bspbench() { # run_bspbench LIB: g and l in flops, and r, from the bottom line
    local out line
    out=$(cd "$work" && echo 2 | "./bspbench.$1") || { printf '%s\n' "$out" >>"$log"; fail "bspbench.$1 failed"; }
    line=$(printf '%s\n' "$out" | grep '^p= ' | tail -n 1)
    [ -n "$line" ] || { printf '%s\n' "$out" >>"$log"; fail "bspbench.$1 printed no bottom line"; }
    # "p= 2, r= 4751.816 Mflop/s, g= 125.6, l= 2262.8"
    printf '%s\n' "$line" | tr -d ',' | awk -v lib="$1" '{
        print lib, 2, "bspbench_g_flops", $7, "flops"
        print lib, 2, "bspbench_l_flops", $9, "flops"
        print lib, 2, "bspbench_r_mflops", $4, "Mflop/s"
        print lib, 2, "bspbench_g_ns", 1e3 * $7 / $4, "ns"
        print lib, 2, "bspbench_l_ns", 1e3 * $9 / $4, "ns" }' >>"$results"
}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then order="polybsp mcbsp"; else order="mcbsp polybsp"; fi
    echo "mcbsp.sh: round $r of $rounds ($order)" >&2
    for p in $procs; do
        for lib in $order; do run_anchor "$lib" "$p"; done
    done
    if [ -n "$edupack" ]; then
        for lib in $order; do run_bspbench "$lib"; done
    fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the table -------------------------------------------------------------------
commit=$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "# polybsp ($commit) against MulticoreBSP for C ${mcbsp_version:-?}, P = ${procs// /, }"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $cpu, $(nproc) CPUs; load average $load_before before, $load_after after;"
echo "$rounds rounds, each library's figure the median over rounds (spread: max/min over rounds)."
echo
echo "| figure | P | unit | polybsp | spread | MulticoreBSP | spread | polybsp speed / MCBSP |"
echo "|---|---|---|---|---|---|---|---|"
# One row per figure and P, the figures in the order first taken, each over its P.
awk '
function median(lib, key,    n, i, j, t, v) {
    n = split(vals[lib, key], v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    spread[lib, key] = v[1] > 0 ? v[n] / v[1] : 0
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ if (!(($3) in seen)) { seen[$3] = 1; figs[++nfigs] = $3; unit[$3] = $5 }
  if (!(($3, $2) in at)) { at[$3, $2] = 1; ps[$3] = ps[$3] " " $2 }
  vals[$1, $3 " " $2] = vals[$1, $3 " " $2] " " $4 }
END {
    for (f = 1; f <= nfigs; f++) {
        fig = figs[f]
        np = split(ps[fig], plist, " ")
        for (i = 1; i <= np; i++) {
            key = fig " " plist[i]
            a = median("polybsp", key); b = median("mcbsp", key)
            # Rates: more is better; times, flops: less is better.
            ratio = unit[fig] ~ /\/s$/ ? (b > 0 ? a / b : 0) : (a > 0 ? b / a : 0)
            printf "| %s | %s | %s | %.4g | %.2f | %.4g | %.2f | %.2f |\n", fig, plist[i], unit[fig], a,
                spread["polybsp", key], b, spread["mcbsp", key], ratio
        }
    }
}' "$results"
