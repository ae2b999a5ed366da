#!/bin/sh
# scale.sh — how far the smpi engine scales: host time, memory and simulated
# time of polybsp programs against plain MPI programs doing the same, on the
# simulator. A benchmark, not a test (docs/smpi.md, section 8 has the figures).
#
#   bench/smpi/scale.sh BUILD_DIR [PLATFORM ...]
#
# For each platform (default: torus-8x8x16 and fattree-256), on ranks filling
# its hosts in order (beyond its last host SMPI starts again from the first,
# so P = 1024 on fattree-256 puts 4 ranks on each node), network alone
# (computation not charged: POLYBSP_SMPI_FLAGS=--cfg=smpi/simulate-computation:no):
#   sparse  bench/smpi/scale_bsp.c: 10 supersteps each putting 1 KiB to
#           (s + 1) mod P and to one random process, then 100 empty ones,
#           against its twin bench/smpi/scale_mpi.c (Isend/Irecv/Waitall +
#           MPI_Barrier, then 100 MPI_Barriers), at SPARSE_P;
#   dense   5 supersteps each putting 1 KiB to every other process, against
#           MPI_Alltoall and against MPI_Alltoall of the sizes + MPI_Alltoallv
#           (what BSPonMPI does), at DENSE_P (SMPI's MPI_Alltoall of 1 KiB
#           blocks, all at once, costs the simulator more than 15 min at P = 256
#           on torus-8x8x16);
#   inprod  examples/inprod.c (n = 100000: one total exchange of 8 bytes) at
#           INPROD_P.
# Each line: host wall seconds, host CPU seconds (user + system: what the
# simulation costs, whatever else the machine runs) and peak resident MB of the
# run (GNU time), simulated us per superstep of polybsp and of the anchor, and
# their ratio.
# With BSPonMPI's source present (BSPONMPI_SRC, a directory or a git mirror;
# default the first /work/.mirror/*bsponmpi*, case aside), scale_bsp.c is also
# built against BSPonMPI with smpicxx, outside the repository (under WORK), and
# its sparse, empty and dense supersteps printed beside polybsp's; without it,
# one line says so. Never commit BSPonMPI's code.
#
# Environment: SPARSE_P (default "64 256 1024"; for 4096, SPARSE_P=4096 once:
# 18 min here), DENSE_P ("16 64"), INPROD_P ("64 256 1024"), each set empty for
# none; WORK (default a fresh directory under /tmp); POLYBSP_SMPI_FLAGS (more
# SimGrid options). Large runs are nice'd.
set -eu
build=$(cd "${1:?usage: scale.sh BUILD_DIR [PLATFORM ...]}" && pwd)
shift
[ $# -gt 0 ] || set -- torus-8x8x16 fattree-256
src=$(cd "$(dirname -- "$0")/../.." && pwd)
runner=$build/tools/polybsp/polybsp-smpirun
bspcc=$build/tools/bspcc/bspcc
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/polybsp-scale.XXXXXX")}
mkdir -p "$work"
SPARSE_P=${SPARSE_P-"64 256 1024"}
DENSE_P=${DENSE_P-"16 64"}
INPROD_P=${INPROD_P-"64 256 1024"}
export POLYBSP_SMPI_FLAGS="--cfg=smpi/simulate-computation:no ${POLYBSP_SMPI_FLAGS:-}"

"$bspcc" --engine smpi -O2 -o "$work/scale_bsp" "$src/bench/smpi/scale_bsp.c"
"$bspcc" --engine smpi -O2 -o "$work/inprod" "$src/examples/inprod.c" -lm
smpicc -O2 -o "$work/scale_mpi" "$src/bench/smpi/scale_mpi.c"

# BSPonMPI, when its source is here: every C/C++ file of its src/ (or top
# directory) compiled with smpicxx into one library.
bsponmpi=
if [ -z "${BSPONMPI_SRC:-}" ]; then
    for d in /work/.mirror/*; do
        case $(basename -- "$d" | tr 'A-Z' 'a-z') in
        *bsponmpi*) BSPONMPI_SRC=$d && break ;;
        esac
    done
fi
if [ -n "${BSPONMPI_SRC:-}" ] && [ -d "$BSPONMPI_SRC" ]; then
    b=$work/bsponmpi
    rm -rf "$b" && mkdir -p "$b/src"
    if [ -d "$BSPONMPI_SRC/objects" ] || [ -f "$BSPONMPI_SRC/HEAD" ]; then
        git --git-dir="$BSPONMPI_SRC" archive HEAD | tar -x -C "$b/src"
    else
        cp -R "$BSPONMPI_SRC/." "$b/src"
    fi
    top=$b/src
    [ -d "$top/src" ] && top=$top/src
    incs=$(find "$b/src" -name 'bsp.h' -exec dirname {} \; | sort -u | sed 's/^/-I/')
    ok=1
    for f in $(find "$top" -maxdepth 1 \( -name '*.c' -o -name '*.cpp' -o -name '*.cc' \)); do
        smpicxx -O2 -fPIC $incs -I"$top" -c "$f" -o "$b/$(basename "$f").o" 2>>"$b/build.log" || ok=
    done
    if [ -n "$ok" ] && smpicxx -O2 -x c++ $incs -o "$b/scale_bsponmpi" "$src/bench/smpi/scale_bsp.c" \
        "$b"/*.o 2>>"$b/build.log"; then
        bsponmpi=$b/scale_bsponmpi
    else
        echo "scale: BSPonMPI from $BSPONMPI_SRC did not build (see $b/build.log); its rows are left out"
    fi
else
    echo "scale: BSPonMPI not present (no /work/.mirror/*bsponmpi*, BSPONMPI_SRC unset): its rows are left out"
fi

# run PLATFORM P PROGRAM ARGS... : the program's output, then "host S rss MB".
run() {
    pf=$1 np=$2
    shift 2
    /usr/bin/time -f "host %e rss %M cpu %U %S" -o "$work/time" nice sh "$runner" scale "$pf" "" "$np" "$@" \
        >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; echo "scale: $* failed at P = $np" >&2; }
    awk '/^host/ { printf "host %s\nrss %.0f\ncpu %.1f\n", $2, $4 / 1024, $6 + $7 }' "$work/time" >>"$work/out"
}
val() { awk -v k="$1" '$1 == "result" && $2 == k { print $3 } $1 == k { print $2 }' "$work/out"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'; }

echo "scale: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, SimGrid $(smpirun -version 2>/dev/null | head -n 1 | awk '{print $NF}'), flags: $POLYBSP_SMPI_FLAGS"
for pf in "$@"; do
    echo
    echo "== $pf: the sparse program (10 communicating + 100 empty supersteps); simulated us per superstep"
    printf '%-5s %8s %8s %7s %7s %6s %7s %7s | %7s %7s %5s | %7s %7s %5s\n' P wall_bsp wall_mpi \
        cpu_bsp cpu_mpi ratio rss_bsp rss_mpi sparse sp_mpi ratio empty barrier ratio
    for P in $SPARSE_P; do
        run "$pf" "$P" "$work/scale_bsp" 10 100 0
        hb=$(val host) cb=$(val cpu) rb=$(val rss) sb=$(val bsp_sparse_us) eb=$(val bsp_empty_us)
        run "$pf" "$P" "$work/scale_mpi" 10 100 0
        hm=$(val host) cm=$(val cpu) rm=$(val rss) sm=$(val mpi_sparse_us) em=$(val mpi_empty_us)
        printf '%-5s %8s %8s %7s %7s %6s %7s %7s | %7s %7s %5s | %7s %7s %5s\n' "$P" "$hb" "$hm" \
            "$cb" "$cm" "$(ratio "$cb" "$cm")" "$rb" "$rm" "$sb" "$sm" "$(ratio "$sb" "$sm")" "$eb" \
            "$em" "$(ratio "$eb" "$em")"
    done
    echo "== $pf: a total exchange of 1 KiB per pair (5 supersteps); simulated us per superstep"
    printf '%-5s %8s %7s %9s %9s %9s %7s %7s\n' P wall_bsp cpu_bsp dense_bsp alltoall alltoallv \
        ratio_a ratio_v
    for P in $DENSE_P; do
        run "$pf" "$P" "$work/scale_bsp" 0 0 5
        hb=$(val host) cb=$(val cpu) db=$(val bsp_dense_us)
        run "$pf" "$P" "$work/scale_mpi" 0 0 5
        da=$(val mpi_dense_us) dv=$(val mpi_densev_us)
        printf '%-5s %8s %7s %9s %9s %9s %7s %7s\n' "$P" "$hb" "$cb" "$db" "$da" "$dv" \
            "$(ratio "$db" "$da")" "$(ratio "$db" "$dv")"
    done
    if [ -n "$bsponmpi" ]; then
        echo "== $pf: BSPonMPI, the same program (scale_bsp.c); simulated us per superstep"
        printf '%-6s %9s %9s %9s %9s | %9s %9s %9s\n' P host sparse empty dense sparse_bsp empty_bsp \
            dense_bsp
        for P in $DENSE_P; do
            run "$pf" "$P" "$bsponmpi" 10 100 5
            ho=$(val host) so=$(val bsp_sparse_us) eo=$(val bsp_empty_us) dn=$(val bsp_dense_us)
            run "$pf" "$P" "$work/scale_bsp" 10 100 5
            printf '%-6s %9s %9s %9s %9s | %9s %9s %9s\n' "$P" "$ho" "$so" "$eo" "$dn" \
                "$(val bsp_sparse_us)" "$(val bsp_empty_us)" "$(val bsp_dense_us)"
        done
    fi
    echo "== $pf: inprod, n = 100000"
    printf '%-5s %8s %7s %7s %12s %s\n' P wall cpu rss_mb simulated_s check
    for P in $INPROD_P; do
        run "$pf" "$P" "$work/inprod" 100000
        printf '%-5s %8s %7s %7s %12s %s\n' "$P" "$(val host)" "$(val cpu)" "$(val rss)" \
            "$(awk '/^inprod: time/ { print $3 }' "$work/out")" \
            "$(awk '/^inprod: (OK|WRONG)/ { print $2 }' "$work/out")"
    done
done
