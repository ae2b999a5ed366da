#!/bin/bash
# footprint.sh — sizes POLYBSP_SOLO=smpi's walk (thr_solo.h, env.md
# POLYBSP_SOLO_FOOTPRINT) on a synthetic that is in neither suite: a Jacobi
# sweep (sweep.c) traced solo here with each walk of WALKS, and simulated
# by SMPI on PLATFORM, in groups taken back to back (one simulated run and one
# trace per walk, the walks' order turned by one at each group) so that all
# meet the host in one state. Per P, data size and walk: the median over the
# groups of the W ratio, the trace's CPU time x r(here) / r(platform) over the
# CPU time SMPI charged (1: the trace computed what SMPI charged; the W ratio
# of docs/validation.md). The walk to ship is the one nearest 1 over the sizes;
# docs/validation.md (session 39) has the sweeps that chose the library's rule.
#
# Usage: bench/footprint/footprint.sh BUILD_DIR
# Environment:
#   PROCS     P of the runs (default "16 64")
#   SIZES     the data of all processes together, MiB (default "2 8 32 64")
#   WALKS     the walks: bytes (POLYBSP_SOLO_FOOTPRINT), BYTESxP (that many
#             bytes times P) or default (the library's rule, thr_solo.h)
#             (default "default 0 1048576 2097152")
#   PLATFORM  the shipped platform simulated (default fattree-64)
#   REPEATS   groups per P and size (default 5)
#   SWEEPS    supersteps of the sweep (default 48)
#   POLYBSP_RATE  this machine's rate; measured once when unset
# Exit status: 0; 1 if a run failed; 2 on bad usage.
set -u
build=${1:-}
here=$build/bench/footprint/footprint_sweep
there=$build/bench/footprint/footprint_sweep_smpi.so
polybsp=$build/tools/polybsp/polybsp
if [ $# -ne 1 ] || [ ! -x "$here" ] || [ ! -f "$there" ] || [ ! -x "$polybsp" ]; then
    echo "usage: bench/footprint/footprint.sh BUILD_DIR (a build with SimGrid: bench/footprint/footprint_sweep and footprint_sweep_smpi.so)" >&2
    exit 2
fi
. "$(dirname "$0")/../validate_common.sh"
procs=${PROCS:-16 64}
sizes=${SIZES:-2 8 32 64}
walks=(${WALKS:-default 0 1048576 2097152})
platform=${PLATFORM:-fattree-64}
repeats=${REPEATS:-5}
sweeps=${SWEEPS:-48}
for w in "${walks[@]}"; do
    [[ $w =~ ^(default|[0-9]+|[0-9]+xP)$ ]] ||
        { echo "footprint.sh: WALKS: '$w' is not bytes, BYTESxP or default" >&2; exit 2; }
done
# bytes WALK P: POLYBSP_SOLO_FOOTPRINT for WALK at P (empty: the library's rule).
bytes() {
    case $1 in
    default) ;;
    *xP) echo $((${1%xP} * $2)) ;;
    *) echo "$1" ;;
    esac
}
work=$(mktemp -d "${TMPDIR:-/tmp}/polybsp-footprint.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
if [ -z "${POLYBSP_RATE:-}" ]; then
    POLYBSP_RATE=$(for k in 1 2 3 4 5; do
        POLYBSP_NPROCS=1 POLYBSP_TRACE=$work/rate.jsonl "$here" 1024 1 >/dev/null 2>&1
        sed -n '1s/.*"rate":\([0-9.e+]*\).*/\1/p' "$work/rate.jsonl"
    done | median)
fi
export POLYBSP_RATE
echo "rate here: $POLYBSP_RATE flop/s; $platform; $repeats groups of one simulated run and ${#walks[@]} traces; $sweeps sweeps"
printf '| P | data (MiB) | N a process |'
for w in "${walks[@]}"; do printf ' walk %s |' "$w"; done
echo
for p in $procs; do
    for mib in $sizes; do
        n=$((mib * 65536 / p))
        for g in $(seq "$repeats"); do
            POLYBSP_TRACE=$work/there.$g.jsonl "$polybsp" run --engine smpi --platform "$platform" \
                -p "$p" "$there" "$n" "$sweeps" >/dev/null || exit 1
            for i in $(seq 0 $((${#walks[@]} - 1))); do
                w=${walks[$(((i + g) % ${#walks[@]}))]}
                POLYBSP_SOLO=smpi POLYBSP_SOLO_FOOTPRINT=$(bytes "$w" "$p") POLYBSP_TRACE=$work/here.$w.$g.jsonl \
                    "$polybsp" run -p "$p" "$here" "$n" "$sweeps" >/dev/null || exit 1
            done
        done
        rt=$(sed -n '1s/.*"rate":\([0-9.e+]*\).*/\1/p' "$work/there.1.jsonl")
        printf '| %s | %s | %s |' "$p" "$mib" "$n"
        for w in "${walks[@]}"; do
            r=$(for g in $(seq "$repeats"); do
                awk -v h="$(cpu_sum "$work/here.$w.$g.jsonl")" -v t="$(cpu_sum "$work/there.$g.jsonl")" \
                    -v rh="$POLYBSP_RATE" -v rt="$rt" 'BEGIN {if (t > 0) printf "%.9g\n", h * rh / rt / t}'
            done | median)
            printf ' %.2f |' "$r"
        done
        echo
    done
done
