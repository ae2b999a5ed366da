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
# With BSPonMPI's source present (BSPONMPI=PATH, or BSPONMPI_SRC: a source
# directory, a git directory, or a fetched mirror holding one under repo/;
# default the first /work/.mirror/*bsponmpi*, case aside), scale_bsp.c is also
# built against BSPonMPI with smpicxx, outside the repository (under WORK), and
# the same three phases (ring + random put, empty superstep, total exchange of
# 1 KiB per pair) printed for both, with polybsp / BSPonMPI, at BSPONMPI_P
# (default DENSE_P), BSPONMPI_ARGS supersteps of each phase (default "10 100 5";
# every BSPonMPI superstep is several all-to-alls, so at P = 256 use fewer,
# e.g. "1 2 2"); without it, one line says so. Never commit BSPonMPI's code.
#
# Environment: SPARSE_P (default "64 256 1024"; for 4096, SPARSE_P=4096 once:
# 18 min here), DENSE_P ("16 64"), INPROD_P ("64 256 1024"), each set empty for
# none; WORK (default a fresh directory under /tmp); POLYBSP_SMPI_FLAGS (more
# SimGrid options). Large runs are nice'd.
# Tables on stdout, build notes and failures on stderr. --help prints this
# text. Exit status 0; 1 if a program does not build; 2 on bad usage (one
# line). A run that fails is said on stderr and its row left with empty cells.
set -eu
case ${1:-} in
-h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
esac
if [ $# -lt 1 ] || [ ! -x "$1/tools/polybsp/polybsp-smpirun" ]; then
    echo "usage: $0 BUILD_DIR [PLATFORM ...]   (a polybsp build directory with the smpi engine)" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
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
BSPONMPI_ARGS=${BSPONMPI_ARGS:-"10 100 5"}
case $BSPONMPI_ARGS in
*[!0-9\ ]* | "") echo "scale: BSPONMPI_ARGS must be three counts, e.g. \"1 2 2\" (got '$BSPONMPI_ARGS')" >&2 && exit 2 ;;
esac
export POLYBSP_SMPI_FLAGS="--cfg=smpi/simulate-computation:no ${POLYBSP_SMPI_FLAGS:-}"

"$bspcc" --engine smpi -O2 -o "$work/scale_bsp" "$src/bench/smpi/scale_bsp.c"
"$bspcc" --engine smpi -O2 -o "$work/inprod" "$src/examples/inprod.c" -lm
smpicc -O2 -o "$work/scale_mpi" "$src/bench/smpi/scale_mpi.c"

# BSPonMPI, when its source is here: the library's own sources (its
# CMakeLists.txt's BSPONMPI_SOURCES: bsp spmd a2a unbuf rdma bsmp tictoc lincost,
# util.c; not its unit tests *.t.*, bompiprobe.c or bsc.c) compiled with
# smpicxx/smpicc into $WORK/bsponmpi, and scale_bsp.c linked against them.
bsponmpi=
[ -n "${BSPONMPI_SRC:-}" ] || BSPONMPI_SRC=${BSPONMPI:-}
if [ -z "$BSPONMPI_SRC" ]; then
    for d in /work/.mirror/*; do
        case $(basename -- "$d" | tr 'A-Z' 'a-z') in
        *bsponmpi*.part | *bsponmpi*.tar) ;;
        *bsponmpi*) BSPONMPI_SRC=$d && break ;;
        esac
    done
fi
# A fetched mirror keeps its git directory under repo/.
[ -z "$BSPONMPI_SRC" ] || [ ! -d "$BSPONMPI_SRC/repo" ] || BSPONMPI_SRC=$BSPONMPI_SRC/repo
if [ -n "$BSPONMPI_SRC" ] && [ -d "$BSPONMPI_SRC" ]; then
    b=$work/bsponmpi
    rm -rf "$b" && mkdir -p "$b/src"
    if [ -d "$BSPONMPI_SRC/objects" ] || [ -f "$BSPONMPI_SRC/HEAD" ]; then
        git --git-dir="$BSPONMPI_SRC" archive HEAD | tar -x -C "$b/src"
        rev=$(git --git-dir="$BSPONMPI_SRC" rev-parse --short HEAD)
    else
        cp -R "$BSPONMPI_SRC/." "$b/src"
        rev=$(git -C "$BSPONMPI_SRC" rev-parse --short HEAD 2>/dev/null || echo "?")
    fi
    defs="-DHAS_CXX11_UNORDERED_MAP -DHAS_CLOCK_GETTIME -DHAS_UNISTD -DBUILDING_DLL"
    ok=1
    for f in bsp spmd a2a unbuf rdma bsmp tictoc lincost; do
        # shellcheck disable=SC2086
        smpicxx -O2 $defs -I"$b/src/include" -I"$b/src/src" -c "$b/src/src/$f.cc" -o "$b/$f.o" \
            >>"$b/build.log" 2>&1 || ok=
    done
    # shellcheck disable=SC2086
    smpicc -O2 $defs -I"$b/src/include" -I"$b/src/src" -c "$b/src/src/util.c" -o "$b/util.o" \
        >>"$b/build.log" 2>&1 || ok=
    if [ -n "$ok" ] && smpicc -O2 -I"$b/src/include" -c "$src/bench/smpi/scale_bsp.c" \
        -o "$b/scale_bsp.o" >>"$b/build.log" 2>&1 &&
        smpicxx -O2 -o "$b/scale_bsponmpi" "$b"/*.o >>"$b/build.log" 2>&1; then
        bsponmpi=$b/scale_bsponmpi
        echo "scale: BSPonMPI $rev from $BSPONMPI_SRC, built in $b (outside the repository)" >&2
    else
        echo "scale: BSPonMPI from $BSPONMPI_SRC did not build (see $b/build.log); its rows are left out"
    fi
else
    echo "scale: BSPonMPI not present (BSPONMPI unset, no /work/.mirror/*bsponmpi*): its rows are left out"
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
        echo "== $pf: BSPonMPI $rev against polybsp, the same program (scale_bsp.c $BSPONMPI_ARGS: ring + random put, empty, total exchange of 1 KiB per pair); simulated us per superstep, ratio = polybsp / BSPonMPI"
        printf '%-5s %8s %8s | %8s %8s %5s | %8s %8s %5s | %8s %8s %5s\n' P wall_bom wall_bsp \
            sp_bom sp_bsp ratio em_bom em_bsp ratio de_bom de_bsp ratio
        for P in ${BSPONMPI_P-$DENSE_P}; do
            # shellcheck disable=SC2086 # three counts
            run "$pf" "$P" "$bsponmpi" $BSPONMPI_ARGS
            ho=$(val host) so=$(val bsp_sparse_us) eo=$(val bsp_empty_us) dn=$(val bsp_dense_us)
            # shellcheck disable=SC2086
            run "$pf" "$P" "$work/scale_bsp" $BSPONMPI_ARGS
            hb=$(val host) sb=$(val bsp_sparse_us) eb=$(val bsp_empty_us) db=$(val bsp_dense_us)
            printf '%-5s %8s %8s | %8s %8s %5s | %8s %8s %5s | %8s %8s %5s\n' "$P" "$ho" "$hb" \
                "$so" "$sb" "$(ratio "$sb" "$so")" "$eo" "$eb" "$(ratio "$eb" "$eo")" "$dn" "$db" \
                "$(ratio "$db" "$dn")"
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
