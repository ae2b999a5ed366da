#!/bin/sh
# stop_cleanup.sh POLYBSP COMMAND — stops `polybsp COMMAND --quick` by SIGTERM
# once its temporary file or directory exists, and checks that none of its
# temporary files is left (core_stop.h):
#   probe:       while it measures the CCM collectives, into its trace of
#                their samples, $TMPDIR/polybsp-probe-ccm-*;
#   portability: once its working directory $TMPDIR/polybsp-portability.*
#                exists (its short probe runs then).
# TMPDIR is a fresh directory that must be empty afterwards; the status must be
# the signal's (143).
set -u
tool=$1
cmd=$2
out=$(mktemp) || exit 1 # outside the TMPDIR below, which must end empty
TMPDIR=$(mktemp -d) || exit 1
export TMPDIR
trap 'rm -rf "$TMPDIR" "$out" "$out.err"' EXIT
case $cmd in
probe) pattern="polybsp-probe-ccm-*" ;;
portability) pattern="polybsp-portability.*" ;;
*) echo "stop_cleanup: unknown command $cmd"; exit 2 ;;
esac
"$tool" "$cmd" --quick --quiet -o "$out" >"$out.err" 2>&1 &
job=$!
i=0
while [ -z "$(find "$TMPDIR" -maxdepth 1 -name "$pattern" 2>/dev/null)" ]; do
    i=$((i + 1))
    if [ "$i" -gt 3000 ] || ! kill -0 "$job" 2>/dev/null; then
        echo "stop_cleanup: $cmd made no $pattern in 60 s"
        cat "$out.err"
        kill "$job" 2>/dev/null
        exit 1
    fi
    sleep 0.02
done
sleep 0.1 # past the few instructions between making it and registering it
kill -TERM "$job"
wait "$job"
status=$?
[ "$status" -eq 143 ] || { echo "stop_cleanup: status $status, expected 143"; cat "$out.err"; exit 1; }
left=$(ls -A "$TMPDIR")
[ -z "$left" ] || { echo "stop_cleanup: left in TMPDIR: $left"; exit 1; }
echo "stop_cleanup: $cmd stopped with status 143, TMPDIR empty"
