#!/bin/sh
# stop.sh POLYBSP MODE — starts a polybsp command, stops it by SIGTERM once it
# has reached a given point, and checks what it leaves (core_stop.h). TMPDIR is
# a fresh directory; the status must be the signal's (143). MODE is
#   demo-early:  `demo --quick` once step 1 has begun (stdout says so), before
#                any file is in its directory: the directory is removed and the
#                last line on stderr is "polybsp: demo: stopped";
#   demo-late:   `demo --quick` once the probe has written machine.json: the
#                directory stays, and the last line names it: "polybsp: demo:
#                stopped; the files made so far are in DIR";
#   probe:       `probe --quick` while it measures the CCM collectives, into its
#                trace of their samples ($TMPDIR/polybsp-probe-ccm-*): TMPDIR
#                ends empty;
#   portability: `portability --quick` once its working directory
#                ($TMPDIR/polybsp-portability.*) exists: TMPDIR ends empty;
#   mpi-run:     `run --engine mpi -p 2 sleep S` once both ranks run, the signal
#                sent to polybsp alone: the ranks and mpiexec end, and TMPDIR
#                (where Open MPI's session directory was) ends empty;
#   mpi-group:   the same under `timeout`, which is sent the SIGTERM: it
#                sends it on to polybsp, then to its whole process group, as on
#                expiry (a batch scheduler sends the second alone). Before
#                polybsp gave mpiexec a group of its own, mpiexec got it twice,
#                and 1 run in 3 left its ranks and session directory.
set -u
tool=$1
mode=$2
TMPDIR=$(mktemp -d) || exit 1
export TMPDIR
out=$(mktemp -p /tmp) || exit 1 # outside TMPDIR, which must end empty
trap 'rm -rf "$TMPDIR" "$out" "$out.err" "$out.json"' EXIT
fail() {
    echo "stop: $mode: $*"
    cat "$out.err"
    exit 1
}
# reached: 0 once the command is where it is to be stopped.
case $mode in
demo-early | demo-late)
    set -- demo --quick
    reached() {
        dir=$(ls -d "$TMPDIR"/polybsp-demo.* 2>/dev/null | head -n 1)
        [ -n "$dir" ] || return 1
        if [ "$mode" = demo-early ]; then grep -q "^Step 1" "$out"; else [ -f "$dir/machine.json" ]; fi
    }
    ;;
probe | portability)
    set -- "$mode" --quick --quiet -o "$out.json"
    reached() {
        [ -n "$(find "$TMPDIR" -maxdepth 1 -name "polybsp-$mode[.-]*" 2>/dev/null)" ]
    }
    ;;
mpi-run | mpi-group)
    nap=$((3000 + $$ % 1000)) # a sleep of its own, to count its ranks by
    set -- run --engine mpi -p 2 sleep "$nap"
    reached() { [ "$(pgrep -xc -f "sleep $nap")" -eq 2 ]; }
    ;;
*) echo "stop: unknown mode $mode"; exit 2 ;;
esac
if [ "$mode" = mpi-group ]; then
    timeout 600 "$tool" "$@" >"$out" 2>"$out.err" &
else
    "$tool" "$@" >"$out" 2>"$out.err" &
fi
job=$!
# No limit of its own: under a sanitizer on a loaded machine the quick probe
# took over 100 s to get there; a hang is the test's TIMEOUT's to catch.
until reached; do
    if ! kill -0 "$job" 2>/dev/null; then
        fail "never reached the point to stop it at"
    fi
    sleep 0.1
done
sleep 0.1 # past the few instructions between making a file and registering it
kill -TERM "$job"
wait "$job"
status=$?
[ "$status" -eq 143 ] || fail "status $status, expected 143"
case $mode in
demo-early)
    last=$(tail -n 1 "$out.err")
    [ "$last" = "polybsp: demo: stopped" ] || fail "last line '$last'"
    [ ! -e "$dir" ] || fail "$dir is still there"
    ;;
demo-late)
    last=$(tail -n 1 "$out.err")
    [ "$last" = "polybsp: demo: stopped; the files made so far are in $dir" ] ||
        fail "last line '$last'"
    [ -f "$dir/machine.json" ] || fail "$dir/machine.json is gone"
    rm -rf "$dir"
    ;;
mpi-run | mpi-group)
    sleep 1 # ranks stopped by mpiexec may take a moment to go
    left=$(pgrep -a -f "sleep $nap")
    [ -z "$left" ] || { pkill -f "sleep $nap"; fail "still running: $left"; }
    ;;
esac
left=$(ls -A "$TMPDIR")
[ -z "$left" ] || fail "left in TMPDIR: $left"
echo "stop: $mode: status 143, as it should be"
