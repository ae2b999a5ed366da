#!/bin/sh
# models.sh TOOL CHECKER PROGRAM OUT — the probe's D-BSP and CCM sections at work.
#
# A quick probe at P = 2 and 4 writes OUT (D-BSP levels of P = 2 and of P = 4,
# whose clusters of 4, 2 and 1 the trace below uses); check_machine reads it back. PROGRAM (traced_prog: a
# partition into parts of 2 with an allreduce, a broadcast, a bsp_par) runs on 4
# processes with a trace; then `polybsp predict --model dbsp` and `--model ccm`
# must both predict it from OUT: status 0, their row present, no n/a.
# With PROBE_ENGINE=mpi the probe runs with `--engine mpi` and PROGRAM (then
# linked with libpolybsp_mpi) on 4 ranks through PROBE_MPIRUN (tests/mpirun.sh).
set -u
# shellcheck source=tests/probe/noted_absent.sh
. "$(dirname "$0")/noted_absent.sh"
engine=${PROBE_ENGINE:-threads}
tool=$1
checker=$2
program=$3
out=$4
trace=$out.trace
rm -f "$out" "$trace" "$out.stdout" "$out.stderr"

fail() {
    echo "FAIL: $*"
    for f in "$out.stdout" "$out.stderr"; do
        [ -f "$f" ] && { echo "--- $f:"; cat "$f"; }
    done
    exit 1
}

probe_noise_retried "$out" "$tool" probe --engine "$engine" --quick --budget 5 --procs 2,4 -o "$out" ||
    fail "polybsp probe exited with status $?"
# Fits the probe noted as noise-dominated may be absent. predict charges a
# superstep the level of the smallest clusters in the file that hold it, so a
# missing level i > 0 falls back to a coarser one; without level 0, --model dbsp
# must refuse with one line naming the clusters it lacks.
absent=$(noted_absent "$out.stdout")
# The trace is of P = 4: predict takes P = 4's levels (dbsp.by_procs).
no_level0=0
grep -q '^note  *D-BSP level 0 of P = 4:' "$out.stdout" && no_level0=1
# shellcheck disable=SC2086
"$checker" "$out" 2,4 $absent || fail "check_machine rejected $out"
run=""
[ "$engine" = mpi ] && run="sh ${PROBE_MPIRUN:?} 4"
# shellcheck disable=SC2086
POLYBSP_TRACE=$trace $run "$program" >"$out.stdout" 2>"$out.stderr" || fail "$program failed"
grep -q "\"engine\":\"$engine\"" "$trace" || fail "the trace does not say engine $engine"
grep -q '^traced_prog: OK$' "$out.stdout" || fail "$program did not say OK"

for model in dbsp ccm; do
    if [ $model = dbsp ] && [ $no_level0 = 1 ]; then
        "$tool" predict --machine "$out" --model dbsp "$trace" >"$out.stdout" 2>"$out.stderr" &&
            fail "predict --model dbsp without level 0 exited with status 0"
        if [ "$(wc -l <"$out.stderr")" != 1 ] || ! grep -q 'no clusters of' "$out.stderr"; then
            fail "predict --model dbsp without level 0: not a one-line error"
        fi
        continue
    fi
    "$tool" predict --machine "$out" --model $model "$trace" >"$out.stdout" 2>"$out.stderr" ||
        fail "predict --model $model exited with status $?"
    case $model in dbsp) row=D-BSP ;; ccm) row=CCM ;; esac
    grep -q "^$row  *[0-9]" "$out.stdout" || fail "predict --model $model: no $row row"
    if grep -qw 'n/a' "$out.stdout" "$out.stderr"; then
        fail "predict --model $model says n/a"
    fi
done
echo "models.sh: D-BSP and CCM predict the traced program from $out"
