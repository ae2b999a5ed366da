# shellcheck shell=sh
# Sourced by the probe tests.
#
# noted_absent STDOUT — the fits a probe's STDOUT
# notes as noise-dominated ("g <= 0 ... left out"), named as check_machine's
# ABSENT arguments: "put.exchange", "dbsp.1", "P4". A busy machine may tilt any
# fit, and the probe then leaves it out of the file and says so. A D-BSP level
# is named whatever P's levels it was missing from (check_machine lets it miss
# from every P's).
noted_absent() {
    sed -n -e 's/^note  *bsp_\([a-z]*\) \([a-z]*\): g <= 0.*/\1.\2/p' \
        -e 's/^note  *D-BSP level \([0-9]*\) of P = [0-9]*: g <= 0.*/dbsp.\1/p' \
        -e 's/^note  *P = \([0-9]*\): g <= 0.*/P\1/p' "$1"
}

# probe_noise_retried OUT COMMAND... — runs COMMAND (a `polybsp probe`) with its
# output in OUT.stdout and OUT.stderr and returns its status. A quick probe on a
# loaded machine (MPI ranks time-sliced among other tests) can find its
# timings all noise and rightly write nothing ("the fit gives g = ... <= 0: the
# timings are mostly noise"), which says nothing of what the tests check, so
# such a run is tried again, twice at most.
probe_noise_retried() {
    out=$1
    shift
    for attempt in 1 2 3; do
        status=0
        "$@" >"$out.stdout" 2>"$out.stderr" || status=$?
        [ $status -ne 0 ] && [ $attempt -lt 3 ] &&
            grep -q 'the timings are mostly noise' "$out.stderr" && continue
        return $status
    done
}
