#!/bin/sh
# mpirun.sh — run a test program on the MPI engine: mpirun.sh NPROCS PROGRAM [ARGS...]
# Starts it with $MPIEXEC (the mpiexec CMake found, set for ctest by
# tests/CMakeLists.txt), else mpirun, and exits with the job's status the way a
# shell reports one process: N for exit(N), 128+S for death by signal S.
set -u
n=$1
shift
mpiexec=${MPIEXEC:-mpirun}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpirun.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
options=""
case $("$mpiexec" --version 2>&1) in
    *"Open MPI"* | *OpenRTE*)
        # Open MPI refuses root and more ranks than cores unless told; tests run
        # as root in CI and oversubscribe the 2-core machines, so both are
        # allowed. No test reads stdin, and mpirun's forwarding of it has
        # crashed mpirun itself when a rank aborted at once (seen once in CI,
        # mpi.bad.begin_zero; Open MPI issue 7483): none is forwarded.
        # Every mpirun shares one session directory per user and host,
        # /tmp/ompi.<host>.<uid>, which one job can remove while another
        # creates it: ctest runs two jobs at once, and one failed with "A call
        # to mkdir was unable to create the desired directory:
        # /tmp/ompi.vm.0: File exists" (seen once in CI). Each run gets its own.
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_MCA_orte_tmpdir_base="$tmp"
        options="--oversubscribe --stdin none"
        ;;
esac

# MPICH's hydra runs as root and oversubscribes unasked (and rejects
# --oversubscribe). When a rank dies by signal S it exits with S itself, not
# 128+S, and says so on stdout: "... EXIT STRING: Segmentation fault (signal 11)".
# The job's stdout is copied as it comes, through a FIFO so that the job's pid is
# known and a stop (kill_rank.sh's, ctest's timeout) reaches the job, which then
# ends every rank.
# Hydra itself can die of SIGPIPE (status 141, no output at all) when every
# rank stops at once before MPI_Init, as the tests of calls before bsp_begin
# do: under load, mpiexec writes to the control socket of a proxy that has
# already left (seen in CI; "HYDU_sock_write ... Broken pipe" when SIGPIPE is
# ignored). That is the launcher failing, not the program: such a run is
# started again, at most twice.
run_once() {
    rm -f "$tmp/stdout" "$tmp/out"
    mkfifo "$tmp/stdout" || exit 1
    tee "$tmp/out" <"$tmp/stdout" &
    # $options is a list of words, split on purpose.
    # shellcheck disable=SC2086
    "$mpiexec" $options -np "$n" "$@" >"$tmp/stdout" &
    job=$!
    trap 'kill -TERM "$job" 2>/dev/null' HUP INT TERM
    # A trapped signal interrupts wait: wait again until the job itself has ended.
    while :; do
        wait "$job"
        status=$?
        kill -0 "$job" 2>/dev/null || break
    done
    wait # for tee, to the end of the job's output
}
attempt=1
run_once "$@"
while [ "$status" -eq 141 ] && [ ! -s "$tmp/out" ] && [ "$attempt" -lt 3 ]; do
    attempt=$((attempt + 1))
    run_once "$@"
done
if [ "$status" -gt 0 ] && [ "$status" -lt 128 ] &&
    grep -q "EXIT STRING: .*(signal $status)" "$tmp/out"; then
    status=$((128 + status))
fi
exit "$status"
