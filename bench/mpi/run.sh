#!/bin/sh
# run.sh — the MPI engine's benchmarks against raw MPI: run.sh BUILD_DIR [BENCH_MPI]
# Runs bench_mpi at P=2 (sync, exchange, alltoall, puts) and P=4 (sync, alltoall;
# oversubscribed on a 2-core machine) and prints each figure's line; the "result"
# lines go to BUILD_DIR/bench-mpi-results.txt.
# Open MPI refuses root and more ranks than cores unless told, hence the settings.
set -eu
build=${1:?usage: run.sh BUILD_DIR [BENCH_MPI]}
bin=${2:-$build/bench/mpi/bench_mpi}
out=$build/bench-mpi-results.txt
: >"$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() { # run P ARGS...
    n=$1
    shift
    "${MPIEXEC:-mpirun}" --oversubscribe -np "$n" "$bin" "$@" | while IFS= read -r line; do
        case $line in
        result*) echo "$line" >>"$out" ;;
        *) echo "$line" ;;
        esac
    done
}
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
run 2 sync
run 2 exchange
run 2 alltoall
run 2 puts
run 2 rma
run 4 sync
run 4 alltoall
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg); results in $out"
